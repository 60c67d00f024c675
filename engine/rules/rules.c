/* The repetition rules: move classification (check, mate threat, chase,
 * idle), the ruling on a repetition cycle, and game adjudication.
 *
 * A chase (捉, CXA 24.3) is worked out exactly rather than by patterns: after
 * the move, give the other side a pass and ask, for each enemy piece the
 * mover's pieces (other than king and pawns) attack, whether taking it comes
 * out ahead in material.  "Ahead" is decided with real legal moves (pins,
 * the facing kings, cannon screens that appear and vanish, a king that may
 * not recapture into an attack, captures that give check), with rook 8 =
 * horse + cannon, horse = cannon 4, advisor = elephant = crossed pawn 2:
 * under CXA the whole exchange on the point is played out, under AXF a piece
 * is protected when something can legally take back.  Only new chases count
 * (new_chases), and an attack on a piece of equal value that can take the
 * attacker back is an exchange offer (兌/獻), not a chase.  A mate threat
 * (殺) is a mate in one by a check that the move created (CXA only). */
#include "rules.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "engine/board/movegen.h"

#define MAX_CYCLE 512     /* longer cycles are not analysed (ruled a draw) */
#define SEE_MAX_DEPTH 12  /* captures on one point followed at most */
#define MATE_GAIN 10000   /* a capture that mates outweighs any material */

static const char *const RULE_NAMES[RULE_NB] = {"cxa", "axf", "draw"};

const char *rules_name(int rule) { return rule >= 0 && rule < RULE_NB ? RULE_NAMES[rule] : "?"; }

int rules_parse(const char *name)
{
    if (!name)
        return -1;
    if (!strcasecmp(name, "cxa") || !strcasecmp(name, "chinese"))
        return RULE_CXA;
    if (!strcasecmp(name, "axf") || !strcasecmp(name, "wxf") || !strcasecmp(name, "asian"))
        return RULE_AXF;
    if (!strcasecmp(name, "draw"))
        return RULE_DRAW;
    return -1;
}

const char *rules_verdict_name(Verdict v)
{
    switch (v) {
    case VERDICT_DRAW: return "draw";
    case VERDICT_WIN: return "win";
    case VERDICT_LOSS: return "loss";
    default: return "none";
    }
}

/* ---- material ---- */

/* Value of the piece on s when counting material gain: a rook is worth a
 * horse and a cannon together, horse = cannon, advisor = elephant = crossed
 * pawn; an unpromoted pawn hardly counts; the king cannot be traded. */
static int value_on(const Position *pos, int s)
{
    int pc = pos->board[s];
    switch (piece_type(pc)) {
    case PAWN: return bb_test(HalfBB[piece_color(pc)], s) ? 1 : 2;
    case ADVISOR:
    case ELEPHANT: return 2;
    case HORSE:
    case CANNON: return 4;
    case ROOK: return 8;
    case KING: return 1000;
    default: return 0;
    }
}

/* Best material the side to move wins by capturing on s, playing the
 * exchange out with legal moves; 0 when it had better leave the point alone.
 * In check, standing aside needs an evasion elsewhere; with no evasion at
 * all the side is mated and loses everything. */
static int exchange_gain(Position *pos, int s, int depth)
{
    int us = pos->side;
    bool can_pass = true;
    if (pos_in_check(pos)) {
        Move ev[MAX_MOVES];
        int n = gen_evasions(pos, ev);
        if (n == 0)
            return -MATE_GAIN;
        can_pass = false;
        for (int i = 0; i < n && !can_pass; i++)
            can_pass = move_to(ev[i]) != s;
    }
    if (depth >= SEE_MAX_DEPTH)
        return 0;
    int best = can_pass ? 0 : -2 * MATE_GAIN;
    int captured = value_on(pos, s);
    Bitboard att = pos_attackers(pos, s, us, pos->occupied);
    for (int pt = PAWN; pt <= KING; pt++) {
        Bitboard b = att & pos->by_type[pt];
        while (b) {
            int a = pop_lsb(&b);
            Move m = make_move(a, s);
            if (!pos_legal(pos, m))
                continue;
            pos_do_move(pos, m);
            int v = captured - exchange_gain(pos, s, depth + 1);
            pos_undo_move(pos);
            if (v > best)
                best = v;
        }
    }
    return best;
}

/* Has the side to move a legal capture on s? */
static bool can_capture(Position *pos, int s)
{
    Bitboard att = pos_attackers(pos, s, pos->side, pos->occupied);
    while (att)
        if (pos_legal(pos, make_move(pop_lsb(&att), s)))
            return true;
    return false;
}

/* Can the side to move take the piece on t with the piece on a and come out
 * ahead?  CXA plays the exchange out (a piece with fewer protectors than
 * attackers, 少根子, can be won); AXF asks only whether the piece is worth
 * more than its attacker or has no protector that can legally take back. */
static bool capture_wins(Position *pos, int rule, int a, int t)
{
    Move m = make_move(a, t);
    if (!pos_legal(pos, m))
        return false;
    int vt = value_on(pos, t), va = value_on(pos, a);
    if (vt > va)
        return true; /* even if taken back */
    if (!pos_attackers(pos, t, !pos->side, pos->occupied ^ SquareBB[a]))
        return true; /* nothing can take back */
    pos_do_move(pos, m);
    bool wins = rule == RULE_AXF ? !can_capture(pos, t) : vt - exchange_gain(pos, t, 1) > 0;
    pos_undo_move(pos);
    return wins;
}

/* The side to move owns the piece on t, attacked by the enemy piece of equal
 * value on a.  Is it an exchange offer: can t take a (under CXA, without
 * losing material in the end)? */
static bool exchange_offered(Position *pos, int rule, int t, int a)
{
    if (!bb_test(pos_attackers(pos, a, pos->side, pos->occupied), t))
        return false;
    Move m = make_move(t, a);
    if (!pos_legal(pos, m))
        return false;
    if (rule == RULE_AXF)
        return true;
    int va = value_on(pos, a);
    pos_do_move(pos, m);
    int gain = va - exchange_gain(pos, a, 1);
    pos_undo_move(pos);
    return gain >= 0;
}

/* The points the pieces in set attack (cannons: their captures). */
static Bitboard attacked_by(const Position *pos, Bitboard set)
{
    Bitboard occ = pos->occupied, att = 0;
    while (set) {
        int s = pop_lsb(&set);
        switch (piece_type(pos->board[s])) {
        case ROOK: att |= rook_attacks(s, occ); break;
        case CANNON: att |= cannon_attacks(s, occ); break;
        case HORSE: att |= horse_moves(s, occ); break;
        case ELEPHANT: att |= elephant_moves(s, occ); break;
        case ADVISOR: att |= AdvisorMoves[s]; break;
        case PAWN: att |= PawnMoves[piece_color(pos->board[s])][s]; break;
        case KING: att |= KingMoves[s]; break;
        default: break;
        }
    }
    return att;
}

/* Enemy pieces that can be chased: not the king (that is a check) and not
 * a pawn still on its own side of the river (26.6). */
static inline Bitboard chase_candidates(const Position *pos, int them)
{
    return pos->by_color[them] & ~pos->by_type[KING] & ~(pos->by_type[PAWN] & HalfBB[them]);
}

/* Squares diagonally next to s (the legs of horses that attack s). */
static inline Bitboard diagonal_neighbours(int s)
{
    Bitboard b = 0;
    int f = sq_file(s), r = sq_rank(s);
    for (int df = -1; df <= 1; df += 2)
        for (int dr = -1; dr <= 1; dr += 2)
            if (f + df >= 0 && f + df < FILE_NB && r + dr >= 0 && r + dr < RANK_NB)
                b |= SquareBB[make_square(f + df, r + dr)];
    return b;
}

/* Pseudo-legal moves of the side to move that may give check (a superset;
 * gives_check decides): every move of a piece on a line of the enemy king
 * or diagonally next to it (it may uncover a check), and the other pieces'
 * moves to a point from which they would check, or onto a cannon's empty
 * line to the king (becoming its screen). */
static int gen_check_candidates(const Position *pos, Move *out)
{
    int us = pos->side, ksq = pos->king_sq[!us], n = 0;
    Bitboard occ = pos->occupied, own = pos->by_color[us], theirs = pos->by_color[!us];
    Bitboard target = BoardBB & ~own, empty = BoardBB & ~occ;
    Bitboard uncover = LineBB[ksq] | diagonal_neighbours(ksq);
    Bitboard rook_view, cannon_view;
    line_attacks(ksq, occ, &rook_view, &cannon_view);
    Bitboard screens = 0, b = pos->by_type[CANNON] & own & LineBB[ksq];
    while (b) {
        int c = pop_lsb(&b);
        if (!(BetweenBB[c][ksq] & occ))
            screens |= BetweenBB[c][ksq];
    }
    b = own;
    while (b) {
        int s = pop_lsb(&b), pt = piece_type(pos->board[s]);
        Bitboard to, rook, cannon, check = screens;
        switch (pt) {
        case ROOK:
            to = rook_attacks(s, occ) & target;
            check |= rook_view;
            break;
        case CANNON:
            line_attacks(s, occ, &rook, &cannon);
            to = (rook & empty) | (cannon & theirs);
            check |= LineBB[ksq];
            break;
        case HORSE:
            to = horse_moves(s, occ) & target;
            check |= horse_attackers(ksq, occ ^ SquareBB[s]);
            break;
        case PAWN:
            to = PawnMoves[us][s] & target;
            check |= PawnAttackers[us][ksq];
            break;
        case ELEPHANT: to = elephant_moves(s, occ) & target; break;
        case ADVISOR: to = AdvisorMoves[s] & target; break;
        default: to = KingMoves[s] & target; break;
        }
        if (!bb_test(uncover, s))
            to &= check;
        while (to)
            out[n++] = make_move(s, pop_lsb(&to));
    }
    return n;
}

/* Has the side to move a legal move?  King steps first: they decide most
 * mates quickly. */
static bool has_legal_move(const Position *pos)
{
    int ksq = pos->king_sq[pos->side];
    Bitboard kt = KingMoves[ksq] & ~pos->by_color[pos->side];
    while (kt)
        if (pos_king_safe_after(pos, ksq, pop_lsb(&kt)))
            return true;
    Move moves[MAX_MOVES];
    int n = gen_pseudo(pos, moves);
    for (int i = 0; i < n; i++)
        if (move_from(moves[i]) != ksq && pos_legal(pos, moves[i]))
            return true;
    return false;
}

/* Can the side to move mate at once with a check? */
static bool mate_in_one(Position *pos)
{
    Move moves[MAX_MOVES];
    int n = gen_check_candidates(pos, moves);
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        if (!pos_gives_check(pos, m) || !pos_legal(pos, m))
            continue;
        pos_do_move(pos, m);
        bool mate = !has_legal_move(pos);
        pos_undo_move(pos);
        if (mate)
            return true;
    }
    return false;
}

/* ---- classifying the last move ---- */

/* Did a piece of type pt on s attack t with occupancy occ? */
static bool attacks_from(int pt, int s, int t, Bitboard occ)
{
    switch (pt) {
    case ROOK: return bb_test(rook_attacks(s, occ), t);
    case CANNON: return bb_test(cannon_attacks(s, occ), t);
    case HORSE: return bb_test(horse_moves(s, occ), t);
    case ELEPHANT: return bb_test(elephant_moves(s, occ), t);
    case ADVISOR: return bb_test(AdvisorMoves[s], t);
    default: return false;
    }
}

/* Can the side to move win the piece on t by taking it with the piece on a,
 * other than by an exchange offer? */
static bool pair_wins(Position *pos, int rule, int a, int t)
{
    if (!capture_wins(pos, rule, a, t))
        return false;
    if (value_on(pos, t) != value_on(pos, a))
        return true;
    pos_do_null(pos);
    bool offer = exchange_offered(pos, rule, t, a);
    pos_undo_null(pos);
    return !offer;
}

/* The same judged by sight when the opponent is in check (the move was a
 * check, so the opponent's replies cannot be played out): a legal capture
 * of a piece worth more than the attacker, or of one that no unpinned piece
 * can take back, and not an offer of a piece of equal value. */
static bool pair_wins_by_sight(Position *pos, int a, int t, Bitboard their_pinned)
{
    if (!pos_legal(pos, make_move(a, t)))
        return false;
    int vt = value_on(pos, t), va = value_on(pos, a), them = !pos->side;
    if (vt == va && bb_test(pos_attackers(pos, a, them, pos->occupied) & ~their_pinned, t))
        return false;
    return vt > va || !(pos_attackers(pos, t, them, pos->occupied ^ SquareBB[a]) & ~their_pinned);
}

/* The enemy pieces the side to move can win (pair_wins), among cand. */
static Bitboard winnable(Position *pos, int rule, Bitboard cand)
{
    int us = pos->side;
    Bitboard chasers = pos->by_color[us] & ~(pos->by_type[KING] | pos->by_type[PAWN]);
    Bitboard won = 0;
    while (cand) {
        int t = pop_lsb(&cand);
        Bitboard att = pos_attackers(pos, t, us, pos->occupied) & chasers;
        while (att)
            if (pair_wins(pos, rule, pop_lsb(&att), t)) {
                won |= SquareBB[t];
                break;
            }
    }
    return won;
}

#define MAX_PAIRS 48

/* The enemy pieces (squares now) that the last move newly chases.  With the
 * opponent passing, one of the mover's pieces other than king and pawn can
 * win them (pair_wins), and either
 *  - the attack is new: the moved piece's own, or one the move uncovered or
 *    screened for a cannon; or
 *  - the attack existed but won nothing before the move: a protector has
 *    lost its freedom (pinned, or taking back would expose its king), the
 *    capture now comes with check, or the move joined in behind the
 *    attacker; or a protector's line was blocked or its cannon screen
 *    changed, unless the move also parried a threat to one of the mover's
 *    own pieces: that is a defensive block (攔), whose side effect on the
 *    protection does not count (WXF diagram 61).
 * After a check the opponent's replies cannot be played out, so a check is
 * judged by sight (pair_wins_by_sight) and for new attacks only. */
static Bitboard new_chases(Position *pos, int rule)
{
    const StateInfo *st = pos_state(pos);
    Move m = st->move;
    int from = move_from(m), to = move_to(m);
    int them = pos->side, us = !them;
    bool check = st->checkers != 0;
    Bitboard their_pinned = st->pinned;
    Bitboard occ = pos->occupied;
    Bitboard occ_before = (occ ^ SquareBB[to]) | SquareBB[from];
    Bitboard cand = chase_candidates(pos, them);
    Bitboard chased = 0;
    struct {
        uint8_t t, a0;
        Bitboard defenders;
    } old[MAX_PAIRS];
    int nold = 0;

    Bitboard chasers = pos->by_color[us] & ~(pos->by_type[KING] | pos->by_type[PAWN]);
    cand &= attacked_by(pos, chasers);
    if (!cand)
        return 0;
    pos_do_null(pos);
    while (cand) {
        int t = pop_lsb(&cand);
        Bitboard att = pos_attackers(pos, t, us, occ) & chasers;
        while (att) {
            int a = pop_lsb(&att);
            int a0 = a == to ? from : a;
            bool fresh = !attacks_from(piece_type(pos->board[a]), a0, t, occ_before);
            if (check) {
                if (fresh && pair_wins_by_sight(pos, a, t, their_pinned)) {
                    chased |= SquareBB[t];
                    break;
                }
                continue;
            }
            if (!pair_wins(pos, rule, a, t))
                continue;
            if (fresh) {
                chased |= SquareBB[t];
                break;
            }
            if (nold < MAX_PAIRS) {
                old[nold].t = (uint8_t)t;
                old[nold].a0 = (uint8_t)a0;
                old[nold].defenders = pos_attackers(pos, t, them, occ ^ SquareBB[a]);
                nold++;
            }
        }
    }
    pos_undo_null(pos);

    bool any = false;
    for (int i = 0; i < nold; i++)
        any |= !bb_test(chased, old[i].t);
    if (!any)
        return chased;

    /* Existing attacks: compare with the position before the move. */
    Bitboard blocked = 0, threats_before = 0;
    pos_undo_move(pos);
    for (int i = 0; i < nold; i++) {
        int t = old[i].t, a0 = old[i].a0;
        if (bb_test(chased | blocked, t) || pair_wins(pos, rule, a0, t))
            continue;
        if (pos_attackers(pos, t, them, occ_before ^ SquareBB[a0]) & ~old[i].defenders)
            blocked |= SquareBB[t];
        else
            chased |= SquareBB[t];
    }
    blocked &= ~chased;
    if (blocked) {
        pos_do_null(pos);
        threats_before = winnable(pos, rule, chase_candidates(pos, us));
        pos_undo_null(pos);
    }
    pos_do_move(pos, m);
    if (blocked) {
        /* the threatened pieces, where they stand now */
        if (bb_test(threats_before, from))
            threats_before ^= SquareBB[from] | SquareBB[to];
        Bitboard threats_after = threats_before ? winnable(pos, rule, threats_before) : 0;
        if (!(threats_before & ~threats_after))
            chased |= blocked; /* parried nothing */
    }
    return chased;
}

/* Does the last move (not a check) threaten mate by a check next move, a
 * threat that did not exist before it? */
static bool new_mate_threat(Position *pos)
{
    Move m = pos_state(pos)->move;
    pos_do_null(pos);
    bool after = mate_in_one(pos);
    pos_undo_null(pos);
    if (!after)
        return false;
    pos_undo_move(pos);
    bool before = mate_in_one(pos);
    pos_do_move(pos, m);
    return !before;
}

/* A king move out of check: whatever it attacks counts as idle (26.1.2). */
static inline bool king_left_check(const Position *pos)
{
    int to = move_to(pos_state(pos)->move);
    return piece_type(pos->board[to]) == KING && pos->st[pos->top - 1].checkers;
}

RulesMoveKind rules_classify_last(Position *pos, int rule, Bitboard *chased)
{
    if (chased)
        *chased = 0;
    if (pos->top < 1)
        return RULES_IDLE;
    Move m = pos_state(pos)->move;
    bool check = pos_in_check(pos);
    if (m == MOVE_NONE || m == MOVE_NULL || rule == RULE_DRAW || pos_room(pos) < RULES_STACK_NEED)
        return check ? RULES_CHECK : RULES_IDLE;
    if (king_left_check(pos))
        return check ? RULES_CHECK : RULES_IDLE;
    Bitboard c = new_chases(pos, rule);
    if (chased)
        *chased = c;
    if (check)
        return RULES_CHECK;
    if (rule == RULE_CXA && new_mate_threat(pos))
        return RULES_THREAT;
    return c ? RULES_CHASE : RULES_IDLE;
}

/* ---- the cycle ---- */

/* Squares now -> squares in the final position, through map. */
static inline Bitboard to_final(Bitboard b, const uint8_t map[SQUARE_NB])
{
    Bitboard r = 0;
    while (b)
        r |= SquareBB[map[pop_lsb(&b)]];
    return r;
}

static Verdict verdict_of(const bool perpetual_check[COLOR_NB], const bool forbidden[COLOR_NB], int stm)
{
    int them = !stm;
    if (perpetual_check[stm] || perpetual_check[them]) {
        if (perpetual_check[stm] && perpetual_check[them])
            return VERDICT_DRAW; /* check answered by check */
        return perpetual_check[stm] ? VERDICT_LOSS : VERDICT_WIN; /* 25.1: always loses */
    }
    if (forbidden[stm] == forbidden[them])
        return VERDICT_DRAW; /* 25.2, 26.8.4 */
    return forbidden[stm] ? VERDICT_LOSS : VERDICT_WIN;
}

/* Under CXA a side's cycle is forbidden when each of its moves is a check,
 * a mate threat or a chase, the chases all of one piece (or pieces) at
 * least: a check or threat stands for any chase (一將一捉, 一殺一捉).
 * Under AXF, mate threats are idle, and every move, checks included, must
 * chase a common piece (a check that chases nothing breaks a perpetual
 * chase).  All checks is perpetual check under both. */
static Verdict judge_cycle(Position *pos, int prev, int rule, RulesCycle *out)
{
    int top = pos->top, n = top - prev, stm = pos->side;
    int moves[COLOR_NB] = {0, 0}, checks[COLOR_NB] = {0, 0};
    bool bad = rule < 0 || rule >= RULE_NB || rule == RULE_DRAW || prev < 0 || n < 2 || (n & 1)
            || n > MAX_CYCLE || pos_room(pos) < RULES_STACK_NEED;
    for (int j = prev + 1; !bad && j <= top; j++) {
        Move m = pos->st[j].move;
        if (m == MOVE_NONE || m == MOVE_NULL || pos->st[j].captured)
            bad = true;
        int mover = ((top - j) & 1) ? stm : !stm;
        moves[mover]++;
        checks[mover] += pos->st[j].checkers != 0;
    }
    if (out) {
        memset(out, 0, sizeof *out);
        out->plies = n;
    }
    if (bad) {
        if (out)
            out->verdict = VERDICT_DRAW;
        return VERDICT_DRAW;
    }

    bool pcheck[COLOR_NB], open[COLOR_NB];
    Bitboard running[COLOR_NB];
    int threats[COLOR_NB] = {0, 0}, chases[COLOR_NB] = {0, 0};
    for (int c = 0; c < COLOR_NB; c++) {
        pcheck[c] = checks[c] == moves[c];
        open[c] = !pcheck[c]; /* may still be forbidden */
        running[c] = ~(Bitboard)0;
    }
    if (!out && (pcheck[RED] || pcheck[BLACK]))
        return verdict_of(pcheck, open, stm);

    /* Walk back from the end: the position after move j is the one whose
     * state index is j.  map follows each piece to its final square. */
    Move saved[MAX_CYCLE];
    for (int j = prev + 1; j <= top; j++)
        saved[j - prev - 1] = pos->st[j].move;
    uint8_t map[SQUARE_NB];
    for (int s = 0; s < SQUARE_NB; s++)
        map[s] = (uint8_t)s;

    for (int j = top; j > prev; j--) {
        int mover = !pos->side;
        bool check = pos_in_check(pos);
        if (open[mover] && (rule == RULE_AXF || !check)) {
            Bitboard c = king_left_check(pos) ? 0 : to_final(new_chases(pos, rule), map);
            if (c & running[mover]) {
                running[mover] &= c;
                chases[mover] += !check;
            } else if (rule == RULE_CXA && !king_left_check(pos) && new_mate_threat(pos)) {
                threats[mover]++;
            } else {
                open[mover] = false;
            }
            if (!out && !open[RED] && !open[BLACK])
                break; /* both allowed */
        }
        Move m = saved[j - prev - 1];
        map[move_from(m)] = map[move_to(m)];
        pos_undo_move(pos);
    }
    while (pos->top < top)
        pos_do_move(pos, saved[pos->top - prev]);

    bool forbidden[COLOR_NB] = {open[RED], open[BLACK]};
    Verdict v = verdict_of(pcheck, forbidden, stm);
    if (out) {
        out->verdict = v;
        for (int c = 0; c < COLOR_NB; c++) {
            out->kind[c] = pcheck[c] ? RULES_PERPETUAL_CHECK : open[c] ? RULES_FORBIDDEN : RULES_ALLOWED;
            out->checks[c] = checks[c];
            out->threats[c] = threats[c];
            out->chases[c] = chases[c];
            out->chased[c] = open[c] && running[c] != ~(Bitboard)0 ? running[c] : 0;
        }
    }
    return v;
}

Verdict rules_cycle_verdict(Position *pos, int prev, int rule) { return judge_cycle(pos, prev, rule, NULL); }

Verdict rules_cycle_judge(Position *pos, int prev, int rule, RulesCycle *out)
{
    RulesCycle tmp;
    return judge_cycle(pos, prev, rule, out ? out : &tmp);
}

/* ---- adjudication ---- */

static void say(char *buf, size_t len, const char *fmt, const char *a, const char *b)
{
    if (buf && len)
        snprintf(buf, len, fmt, a, b);
}

/* "the b-file cannon and the h-file rook" */
static void name_pieces(const Position *pos, Bitboard b, char *out, size_t len)
{
    size_t used = 0;
    out[0] = 0;
    int n = popcount(b), i = 0;
    while (b && used < len) {
        int s = pop_lsb(&b);
        const char *sep = i == 0 ? "" : i == n - 1 ? " and " : ", ";
        int k = snprintf(out + used, len - used, "%sthe %c-file %s", sep, 'a' + sq_file(s),
                         piece_type_name(piece_type(pos->board[s])));
        if (k < 0)
            break;
        used += (size_t)k;
        i++;
    }
}

/* What colour c did: "red perpetual check", "black perpetual chase of ...". */
static void describe_side(const Position *pos, const RulesCycle *cyc, int c, char *out, size_t len)
{
    char pieces[160];
    name_pieces(pos, cyc->chased[c], pieces, sizeof pieces);
    const char *who = color_name(c);
    if (cyc->kind[c] == RULES_PERPETUAL_CHECK) {
        snprintf(out, len, "%s perpetual check", who);
        return;
    }
    if (cyc->kind[c] != RULES_FORBIDDEN) {
        snprintf(out, len, "%s allowed moves", who);
        return;
    }
    bool ck = cyc->checks[c] > 0, th = cyc->threats[c] > 0, ch = cyc->chases[c] > 0;
    if (ch && !ck && !th)
        snprintf(out, len, "%s perpetual chase of %s", who, pieces);
    else if (th && !ck && !ch)
        snprintf(out, len, "%s perpetual mate threat", who);
    else if (ck && th && !ch)
        snprintf(out, len, "%s perpetual check and mate threat", who);
    else if (ck && ch && !th)
        snprintf(out, len, "%s perpetual check and chase of %s", who, pieces);
    else if (th && ch && !ck)
        snprintf(out, len, "%s perpetual mate threat and chase of %s", who, pieces);
    else
        snprintf(out, len, "%s perpetual check, mate threat and chase of %s", who, pieces);
}

static void describe_cycle(const Position *pos, const RulesCycle *cyc, int rule, char *reason, size_t len)
{
    if (!reason || !len)
        return;
    int stm = pos->side;
    char a[240], b[240];
    if (rule == RULE_DRAW) {
        snprintf(reason, len, "repetition (every repetition is a draw under the 'draw' rules)");
        return;
    }
    if (cyc->kind[RED] == RULES_ALLOWED && cyc->kind[BLACK] == RULES_ALLOWED) {
        snprintf(reason, len, "repetition of allowed moves");
        return;
    }
    if (cyc->verdict == VERDICT_WIN || cyc->verdict == VERDICT_LOSS) {
        int loser = cyc->verdict == VERDICT_LOSS ? stm : !stm;
        describe_side(pos, cyc, loser, reason, len);
        return;
    }
    /* both sides forbidden, or both checking */
    describe_side(pos, cyc, RED, a, sizeof a);
    describe_side(pos, cyc, BLACK, b, sizeof b);
    if (cyc->kind[RED] == RULES_PERPETUAL_CHECK && cyc->kind[BLACK] == RULES_PERPETUAL_CHECK)
        say(reason, len, "mutual perpetual check%s%s", "", "");
    else if (cyc->kind[RED] == RULES_ALLOWED || cyc->kind[BLACK] == RULES_ALLOWED)
        say(reason, len, "%s%s", cyc->kind[RED] == RULES_ALLOWED ? b : a, " against allowed moves");
    else
        say(reason, len, "both sides forbidden: %s; %s", a, b);
}

Verdict rules_judge_at(Position *pos, int rule, int sixty_move_limit, int min_repeats, char *reason,
                       size_t reason_len)
{
    const StateInfo *st = pos_state(pos);
    int stm = pos->side;
    if (reason && reason_len)
        reason[0] = 0;
    if (count_legal(pos) == 0) {
        if (st->checkers)
            say(reason, reason_len, "checkmate: %s is mated%s", color_name(stm), "");
        else
            say(reason, reason_len, "stalemate: %s has no legal move%s", color_name(stm), "");
        return VERDICT_LOSS;
    }
    if (min_repeats < 2)
        min_repeats = 2;

    /* Repetitions, latest first: one at the end rules (draw or not); an
     * earlier one rules only if someone had to vary and did not in time
     * (the first recurrence ends the game), while an allowed repetition
     * earlier on did not end it.  Each is judged over the moves from the
     * position's first occurrence, on the board as it stood then. */
    int top = pos->top;
    Move later[MAX_GAME_PLY + MAX_PLY + 1];
    Verdict result = VERDICT_NONE;
    int ruled_at = -1;
    if (rule >= 0 && rule < RULE_NB) {
        for (int k = top; k >= 2; k--) {
            int first, latest; /* the position itself counts as one occurrence */
            if (1 + pos_occurrences(pos, k, &first, &latest) >= min_repeats) {
                RulesCycle cyc;
                Verdict v = rules_cycle_judge(pos, first, rule, &cyc);
                if (k == top || v == VERDICT_WIN || v == VERDICT_LOSS) {
                    describe_cycle(pos, &cyc, rule, reason, reason_len);
                    if ((top - k) & 1)
                        v = v == VERDICT_WIN ? VERDICT_LOSS : v == VERDICT_LOSS ? VERDICT_WIN : v;
                    result = v;
                    ruled_at = k;
                    break;
                }
            }
            later[k] = pos->st[k].move;
            pos_undo_move(pos);
        }
        while (pos->top < top)
            pos_do_move(pos, later[pos->top + 1]);
    }
    if (result != VERDICT_NONE) {
        if (ruled_at < top && reason && reason_len) {
            size_t used = strlen(reason);
            snprintf(reason + used, reason_len - used, " (repetition completed at ply %d)", ruled_at);
        }
        return result;
    }
    if (sixty_move_limit > 0 && st->rule60 >= sixty_move_limit) {
        if (reason && reason_len)
            snprintf(reason, reason_len, "60-move rule: %d plies without a capture", st->rule60);
        return VERDICT_DRAW;
    }
    say(reason, reason_len, "no rule ends the game%s%s", "", "");
    return VERDICT_NONE;
}
