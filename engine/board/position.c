/* Position: FEN in and out, zobrist keys, make/unmake, check information. */
#include "position.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/util/error.h"
#include "engine/util/rng.h"

Key Zobrist[PIECE_NB][SQUARE_NB];
Key ZobristSide;

static const char PIECE_CHARS[] = " PABNCRK pabncrk"; /* FEN letters: N horse, B elephant */

char piece_char(int pc) { return pc > 0 && pc < PIECE_NB ? PIECE_CHARS[pc] : '?'; }

static const char *const TYPE_NAMES[PIECE_TYPE_NB] = {"", "pawn", "advisor", "elephant", "horse",
                                                      "cannon", "rook", "king"};
static const char *const COLOR_NAMES[COLOR_NB] = {"red", "black"};

const char *piece_type_name(int pt) { return pt > 0 && pt < PIECE_TYPE_NB ? TYPE_NAMES[pt] : "?"; }
const char *color_name(int c) { return c == RED || c == BLACK ? COLOR_NAMES[c] : "?"; }

void zobrist_init(void)
{
    /* From a fixed seed: the keys must never change, the opening book is
     * indexed by them. */
    uint64_t x = 0x43687568616E2121ULL; /* "Chuhan!!" */
    for (int pc = 0; pc < PIECE_NB; pc++)
        for (int s = 0; s < SQUARE_NB; s++) {
            Key z = rng_next(&x);
            Zobrist[pc][s] = (pc == NO_PIECE || piece_type(pc) == NO_PIECE_TYPE) ? 0 : z;
        }
    ZobristSide = rng_next(&x);
}

/* ---- check information ---- */

Bitboard pos_attackers(const Position *pos, int s, int c, Bitboard occ)
{
    Bitboard theirs = pos->by_color[c];
    Bitboard rook, cannon;
    line_attacks(s, occ, &rook, &cannon);
    return ((rook & pos->by_type[ROOK]) | (cannon & pos->by_type[CANNON])
            | (horse_attackers(s, occ) & pos->by_type[HORSE]) | (PawnAttackers[c][s] & pos->by_type[PAWN])
            | (AdvisorMoves[s] & pos->by_type[ADVISOR]) | (elephant_moves(s, occ) & pos->by_type[ELEPHANT])
            | (KingMoves[s] & pos->by_type[KING]))
         & theirs;
}

/* Checkers, pinned pieces and cannon screens for the side to move.  A
 * non-king move that is not a check evasion, does not move a pinned piece
 * and does not land on a screen point is legal without further work. */
static void set_check_info(const Position *pos, StateInfo *st)
{
    int us = pos->side, them = !us;
    int ksq = pos->king_sq[us];
    Bitboard occ = pos->occupied, theirs = pos->by_color[them];
    Bitboard rook_like = (pos->by_type[ROOK] | pos->by_type[KING]) & theirs;
    Bitboard cannons = pos->by_type[CANNON] & theirs;
    Bitboard horses = pos->by_type[HORSE] & theirs;
    Bitboard rook, cannon;
    line_attacks(ksq, occ, &rook, &cannon);
    st->checkers = (rook & rook_like) | (cannon & cannons) | (horse_attackers(ksq, occ) & horses)
                 | (PawnAttackers[them][ksq] & pos->by_type[PAWN] & theirs);

    Bitboard pinned = 0, screens = 0;
    Bitboard snipers = (rook_like | cannons) & LineBB[ksq];
    BB_FOR_EACH(snipers, s, {
        Bitboard between = BetweenBB[ksq][s] & occ;
        int n = popcount(between);
        if (bb_test(cannons, s)) {
            if (n == 2)
                pinned |= between; /* either screen leaving uncovers the cannon */
            else if (n == 0)
                screens |= BetweenBB[ksq][s];
        } else if (n == 1) {
            pinned |= between;
        }
    });
    Bitboard jumpers = HorseAttackers[ksq][0] & horses; /* horses in reach, legs ignored */
    BB_FOR_EACH(jumpers, h, {
        int leg = horse_leg(h, ksq);
        if (bb_test(occ, leg))
            pinned |= SquareBB[leg];
    });
    st->pinned = pinned & pos->by_color[us];
    st->screens = screens;
}

bool pos_king_safe_after(const Position *pos, int from, int to)
{
    int us = pos->side, them = !us;
    Bitboard occ = (pos->occupied ^ SquareBB[from]) | SquareBB[to];
    int ksq = from == pos->king_sq[us] ? to : pos->king_sq[us];
    Bitboard theirs = pos->by_color[them] & ~SquareBB[to];
    Bitboard rook, cannon;
    line_attacks(ksq, occ, &rook, &cannon);
    return !(((rook & (pos->by_type[ROOK] | pos->by_type[KING])) | (cannon & pos->by_type[CANNON])
              | (horse_attackers(ksq, occ) & pos->by_type[HORSE])
              | (PawnAttackers[them][ksq] & pos->by_type[PAWN]))
             & theirs);
}

bool pos_legal(const Position *pos, Move m)
{
    const StateInfo *st = pos_state(pos);
    int from = move_from(m), to = move_to(m);
    if (st->checkers || from == pos->king_sq[pos->side] || bb_test(st->pinned, from) || bb_test(st->screens, to))
        return pos_king_safe_after(pos, from, to);
    return true;
}

bool pos_pseudo_legal(const Position *pos, Move m)
{
    int from = move_from(m), to = move_to(m);
    if (from >= SQUARE_NB || to >= SQUARE_NB || from == to)
        return false;
    int pc = pos->board[from];
    if (pc == NO_PIECE || piece_color(pc) != pos->side)
        return false;
    int target = pos->board[to];
    if (target != NO_PIECE && piece_color(target) == pos->side)
        return false;
    Bitboard occ = pos->occupied, att;
    switch (piece_type(pc)) {
    case PAWN: att = PawnMoves[pos->side][from]; break;
    case ADVISOR: att = AdvisorMoves[from]; break;
    case ELEPHANT: att = elephant_moves(from, occ); break;
    case HORSE: att = horse_moves(from, occ); break;
    case ROOK: att = rook_attacks(from, occ); break;
    case KING: att = KingMoves[from]; break;
    case CANNON:
        att = target ? cannon_attacks(from, occ) : rook_attacks(from, occ) & ~occ;
        break;
    default: return false;
    }
    return bb_test(att, to);
}

bool pos_gives_check(const Position *pos, Move m)
{
    int us = pos->side, them = !us;
    int from = move_from(m), to = move_to(m), pt = piece_type(pos->board[from]);
    int ksq = pos->king_sq[them];
    if (!((SquareBB[from] | SquareBB[to]) & AttackSpanBB[ksq])) {
        /* The move changes no line to the king and no horse's leg next to
         * it, so no piece that stays can start to give check (none gives
         * it now: the king of the side not to move is never in check);
         * only the mover from its new point, and there only a horse: a
         * rook, cannon or pawn checks from the king's rank or file. */
        return pt == HORSE && bb_test(horse_attackers(ksq, pos->occupied), to);
    }
    Bitboard occ = (pos->occupied ^ SquareBB[from]) | SquareBB[to];
    /* Our pieces after the move: the mover leaves from and stands on to
     * (whatever it captured there is gone). */
    Bitboard mine = pos->by_color[us] & ~SquareBB[from];
    Bitboard rooks = pos->by_type[ROOK] & mine, cannons = pos->by_type[CANNON] & mine;
    Bitboard horses = pos->by_type[HORSE] & mine, pawns = pos->by_type[PAWN] & mine;
    switch (pt) {
    case ROOK: rooks |= SquareBB[to]; break;
    case CANNON: cannons |= SquareBB[to]; break;
    case HORSE: horses |= SquareBB[to]; break;
    case PAWN: pawns |= SquareBB[to]; break;
    default: break;
    }
    Bitboard rook, cannon;
    line_attacks(ksq, occ, &rook, &cannon);
    return ((rook & rooks) | (cannon & cannons) | (horse_attackers(ksq, occ) & horses) | (PawnAttackers[us][ksq] & pawns))
        != 0;
}

const int SeeValue[PIECE_TYPE_NB] = {0, 100, 200, 200, 420, 440, 920, 10000};

bool pos_see_ge(const Position *pos, Move m, int threshold)
{
    int from = move_from(m), to = move_to(m);
    int swap = SeeValue[piece_type(pos->board[to])] - threshold;
    if (swap < 0)
        return false;
    swap = SeeValue[piece_type(pos->board[from])] - swap;
    if (swap <= 0)
        return true;
    Bitboard occ = pos->occupied ^ SquareBB[from];
    int stm = pos->side;
    bool res = true;
    for (;;) {
        stm = !stm;
        /* Attackers change as pieces leave: screens vanish, legs clear. */
        Bitboard attackers = pos_attackers(pos, to, stm, occ) & occ;
        if (!attackers)
            break;
        res = !res;
        int pt = PAWN;
        Bitboard b = 0;
        for (; pt <= KING; pt++)
            if ((b = attackers & pos->by_type[pt]))
                break;
        if (pt == KING) {
            /* The king may take only if the other side has nothing left. */
            if (pos_attackers(pos, to, !stm, occ) & occ)
                res = !res;
            break;
        }
        swap = SeeValue[pt] - swap;
        if (swap < (int)res)
            break;
        occ ^= SquareBB[lsb(b)];
    }
    return res;
}

/* ---- make / unmake ---- */

static inline void put_piece(Position *pos, int pc, int s)
{
    pos->board[s] = (uint8_t)pc;
    pos->by_type[piece_type(pc)] |= SquareBB[s];
    pos->by_color[piece_color(pc)] |= SquareBB[s];
    pos->occupied |= SquareBB[s];
}

void pos_copy(Position *dst, const Position *src)
{
    memcpy(dst, src, offsetof(Position, st) + sizeof(StateInfo) * (size_t)(src->top + 1));
}

void pos_do_move(Position *pos, Move m)
{
    int from = move_from(m), to = move_to(m);
    int pc = pos->board[from], cap = pos->board[to];
    int us = pos->side, pt = piece_type(pc);
    const StateInfo *prev = &pos->st[pos->top];
    StateInfo *st = &pos->st[++pos->top];
    Key key = prev->key ^ ZobristSide ^ Zobrist[pc][from] ^ Zobrist[pc][to];
    Bitboard fromto = SquareBB[from] | SquareBB[to];

    st->rule60 = (uint16_t)(prev->rule60 + 1);
    st->null_ply = (uint16_t)(prev->null_ply + 1);
    if (cap) {
        key ^= Zobrist[cap][to];
        pos->by_type[piece_type(cap)] ^= SquareBB[to];
        pos->by_color[!us] ^= SquareBB[to];
        st->rule60 = 0;
    }
    pos->by_type[pt] ^= fromto;
    pos->by_color[us] ^= fromto;
    pos->occupied = (pos->occupied ^ SquareBB[from]) | SquareBB[to];
    pos->board[from] = NO_PIECE;
    pos->board[to] = (uint8_t)pc;
    if (pt == KING)
        pos->king_sq[us] = (uint8_t)to;
    pos->side = (uint8_t)!us;

    st->key = key;
    st->move = m;
    st->captured = (uint8_t)cap;
    set_check_info(pos, st);
}

void pos_undo_move(Position *pos)
{
    const StateInfo *st = &pos->st[pos->top--];
    int from = move_from(st->move), to = move_to(st->move);
    int pc = pos->board[to], cap = st->captured;
    int us = !pos->side, pt = piece_type(pc);
    Bitboard fromto = SquareBB[from] | SquareBB[to];

    pos->side = (uint8_t)us;
    pos->by_type[pt] ^= fromto;
    pos->by_color[us] ^= fromto;
    pos->board[from] = (uint8_t)pc;
    pos->board[to] = (uint8_t)cap;
    pos->occupied |= SquareBB[from];
    if (cap) {
        pos->by_type[piece_type(cap)] |= SquareBB[to];
        pos->by_color[!us] |= SquareBB[to];
    } else {
        pos->occupied ^= SquareBB[to];
    }
    if (pt == KING)
        pos->king_sq[us] = (uint8_t)from;
}

void pos_do_null(Position *pos)
{
    const StateInfo *prev = &pos->st[pos->top];
    StateInfo *st = &pos->st[++pos->top];
    st->key = prev->key ^ ZobristSide;
    st->rule60 = (uint16_t)(prev->rule60 + 1);
    st->null_ply = 0;
    st->move = MOVE_NULL;
    st->captured = NO_PIECE;
    pos->side = (uint8_t)!pos->side;
    set_check_info(pos, st);
}

void pos_undo_null(Position *pos)
{
    pos->top--;
    pos->side = (uint8_t)!pos->side;
}

Key pos_compute_key(const Position *pos)
{
    Key k = pos->side == BLACK ? ZobristSide : 0;
    for (int s = 0; s < SQUARE_NB; s++)
        if (pos->board[s])
            k ^= Zobrist[pos->board[s]][s];
    return k;
}

/* ---- FEN ---- */

static int piece_from_char(char ch)
{
    static const char *const letters = "PAEHCRK";
    char up = (char)toupper((unsigned char)ch);
    if (up == 'B')
        up = 'E'; /* bishop = elephant */
    if (up == 'N')
        up = 'H'; /* knight = horse */
    const char *p = strchr(letters, up);
    if (!p || !*p)
        return NO_PIECE;
    return make_piece(isupper((unsigned char)ch) ? RED : BLACK, (int)(p - letters) + 1);
}

static void square_name(int s, char out[3])
{
    out[0] = (char)('a' + sq_file(s));
    out[1] = (char)('0' + sq_rank(s));
    out[2] = 0;
}

/* Read a non-negative decimal number token; false if it is not one. */
static bool read_number(const char *tok, long max, long *out)
{
    if (!*tok || strlen(tok) > 9)
        return false;
    for (const char *p = tok; *p; p++)
        if (!isdigit((unsigned char)*p))
            return false;
    *out = strtol(tok, NULL, 10);
    return *out <= max;
}

/* Can a pawn of colour c stand on s in a game?  It starts on its third
 * rank on files a, c, e, g, i and goes only forward until it crosses the
 * river: it never stands behind that rank, nor on b, d, f or h on this
 * side.  Rule books and composed problems place pawns there all the same,
 * and the moves work from any point, so such a pawn is accepted (with a
 * note: pos_unreachable_pawn); the reason it is unreachable into why. */
static bool pawn_reachable(int c, int s, char *why, size_t len)
{
    int rank = sq_rank(s), file = sq_file(s);
    int ahead = c == RED ? rank : 9 - rank; /* 0: its own back rank */
    char name[3];
    square_name(s, name);
    if (ahead < 3)
        return err_set(why, len, "%s pawn on %s stands behind its starting rank", COLOR_NAMES[c], name);
    if (ahead < 5 && file % 2)
        return err_set(why, len, "%s pawn on %s: a pawn this side of the river is only on files a, c, e, g and i",
                       COLOR_NAMES[c], name);
    return true;
}

bool pos_unreachable_pawn(const Position *pos, char *note, size_t notelen)
{
    for (int s = 0; s < SQUARE_NB; s++) {
        int pc = pos->board[s];
        char why[128];
        if (pc && piece_type(pc) == PAWN && !pawn_reachable(piece_color(pc), s, why, sizeof why)) {
            err_set(note, notelen, "%s, a point no game reaches; accepted, as in rule books and composed problems",
                    why);
            return true;
        }
    }
    return false;
}

/* Check that the placement on board[] is one the move rules can work with:
 * kings and advisors in their palace, elephants on their side of the river,
 * no more pieces than a side owns.  Advisors and elephants off their usual
 * points (inside that area) are accepted: published perft suites use them
 * (an advisor on d1 in mcr_horsecheck).  A pawn may stand anywhere: see
 * pawn_reachable. */
static bool validate_placement(const uint8_t board[SQUARE_NB], char *err, size_t errlen)
{
    static const int MAX_COUNT[PIECE_TYPE_NB] = {0, 5, 2, 2, 2, 2, 2, 1};
    int count[PIECE_NB] = {0};
    char name[3];
    int king[COLOR_NB] = {-1, -1};
    for (int s = 0; s < SQUARE_NB; s++) {
        int pc = board[s];
        if (!pc)
            continue;
        int c = piece_color(pc), pt = piece_type(pc);
        count[pc]++;
        square_name(s, name);
        switch (pt) {
        case KING:
            king[c] = s;
            if (!bb_test(PalaceBB[c], s))
                return err_set(err, errlen, "%s king on %s is outside its palace", COLOR_NAMES[c], name);
            break;
        case ADVISOR:
            if (!bb_test(PalaceBB[c], s))
                return err_set(err, errlen, "%s advisor on %s is outside its palace", COLOR_NAMES[c], name);
            break;
        case ELEPHANT:
            if (!bb_test(HalfBB[c], s))
                return err_set(err, errlen, "%s elephant on %s has crossed the river", COLOR_NAMES[c], name);
            break;
        default:
            break;
        }
    }
    for (int c = 0; c < COLOR_NB; c++)
        for (int pt = PAWN; pt <= KING; pt++) {
            int n = count[make_piece(c, pt)];
            if (pt == KING && n == 0)
                return err_set(err, errlen, "%s has no king", COLOR_NAMES[c]);
            if (n > MAX_COUNT[pt])
                return err_set(err, errlen, "%s has %d %ss (at most %d)", COLOR_NAMES[c], n, TYPE_NAMES[pt],
                        MAX_COUNT[pt]);
        }
    if (sq_file(king[RED]) == sq_file(king[BLACK])) {
        bool blocked = false;
        for (int s = king[RED] + FILE_NB; s < king[BLACK]; s += FILE_NB)
            blocked |= board[s] != NO_PIECE;
        if (!blocked)
            return err_set(err, errlen, "the kings face each other on the %c-file with nothing between",
                        'a' + sq_file(king[RED]));
    }
    return true;
}

bool pos_set_fen(Position *pos, const char *fen, char *err, size_t errlen)
{
    uint8_t board[SQUARE_NB] = {0};
    if (!fen)
        return err_set(err, errlen, "empty FEN");
    while (isspace((unsigned char)*fen))
        fen++;
    if (!*fen)
        return err_set(err, errlen, "empty FEN");
    if (strlen(fen) > 256)
        return err_set(err, errlen, "FEN too long (%zu characters)", strlen(fen));

    /* Split into whitespace-separated fields. */
    char buf[260];
    char *fields[8];
    int nf = 0;
    snprintf(buf, sizeof buf, "%s", fen);
    char *save = NULL; /* strtok_r: match workers read FENs at the same time */
    for (char *tok = strtok_r(buf, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
        if (nf == 6)
            return err_set(err, errlen, "unexpected text after the move counters: '%s'", tok);
        fields[nf++] = tok;
    }

    /* Field 1: the board, rank 9 first. */
    int rank = 9, file = 0;
    bool last_digit = false;
    for (const char *p = fields[0]; *p; p++) {
        char ch = *p;
        if (ch == '/') {
            if (file < FILE_NB)
                return err_set(err, errlen, "rank %d has %d points, expected 9", rank, file);
            if (--rank < 0)
                return err_set(err, errlen, "too many ranks (expected 10)");
            file = 0;
            last_digit = false;
        } else if (ch >= '1' && ch <= '9') {
            if (last_digit)
                return err_set(err, errlen, "two digits in a row in rank %d", rank);
            file += ch - '0';
            if (file > FILE_NB)
                return err_set(err, errlen, "rank %d has more than 9 points", rank);
            last_digit = true;
        } else {
            int pc = piece_from_char(ch);
            if (!pc)
                return err_set(err, errlen, "invalid character '%c' in the board", isprint((unsigned char)ch) ? ch : '?');
            if (file >= FILE_NB)
                return err_set(err, errlen, "rank %d has more than 9 points", rank);
            board[make_square(file++, rank)] = (uint8_t)pc;
            last_digit = false;
        }
    }
    if (rank > 0)
        return err_set(err, errlen, "only %d ranks (expected 10)", 10 - rank);
    if (file < FILE_NB)
        return err_set(err, errlen, "rank 0 has %d points, expected 9", file);
    if (!validate_placement(board, err, errlen))
        return false;

    /* Field 2: side to move (missing: red). */
    int side = RED;
    if (nf >= 2) {
        const char *s = fields[1];
        if (!strcmp(s, "w") || !strcmp(s, "r") || !strcmp(s, "W") || !strcmp(s, "R"))
            side = RED;
        else if (!strcmp(s, "b") || !strcmp(s, "B"))
            side = BLACK;
        else
            return err_set(err, errlen, "side to move must be 'w', 'r' or 'b', not '%s'", s);
    }

    /* Fields 3-4 are chess's castling and en-passant fields, always '-' in
     * xiangqi; some writers leave them out, so numbers here are counters. */
    int next = 2;
    for (int k = 0; k < 2 && next < nf && !isdigit((unsigned char)fields[next][0]); k++, next++)
        if (strcmp(fields[next], "-"))
            return err_set(err, errlen, "field %d must be '-' in xiangqi, not '%s'", next + 1, fields[next]);
    long rule60 = 0, fullmove = 1;
    if (next < nf && !read_number(fields[next++], 1000, &rule60))
        return err_set(err, errlen, "halfmove clock '%s' is not a number from 0 to 1000", fields[next - 1]);
    if (next < nf) {
        if (!read_number(fields[next++], 100000, &fullmove))
            return err_set(err, errlen, "fullmove number '%s' is not a number from 1 to 100000", fields[next - 1]);
        if (fullmove == 0)
            fullmove = 1; /* some writers start at 0 */
    }
    if (next < nf)
        return err_set(err, errlen, "unexpected text after the move counters: '%s'", fields[next]);

    /* The side not to move must not be in check. */
    int them = !side;
    Bitboard occ = 0, mine = 0, by_type[PIECE_TYPE_NB] = {0};
    int ksq = -1;
    for (int s = 0; s < SQUARE_NB; s++)
        if (board[s]) {
            occ |= SquareBB[s];
            if (piece_color(board[s]) == side)
                mine |= SquareBB[s], by_type[piece_type(board[s])] |= SquareBB[s];
            else if (piece_type(board[s]) == KING)
                ksq = s;
        }
    Bitboard rook, cannon;
    line_attacks(ksq, occ, &rook, &cannon);
    if (((rook & by_type[ROOK]) | (cannon & by_type[CANNON]) | (horse_attackers(ksq, occ) & by_type[HORSE])
         | (PawnAttackers[side][ksq] & by_type[PAWN])) & mine)
        return err_set(err, errlen, "%s is in check but it is %s's move", COLOR_NAMES[them], COLOR_NAMES[side]);

    memset(pos, 0, offsetof(Position, st));
    for (int s = 0; s < SQUARE_NB; s++)
        if (board[s]) {
            put_piece(pos, board[s], s);
            if (piece_type(board[s]) == KING)
                pos->king_sq[piece_color(board[s])] = (uint8_t)s;
        }
    pos->side = (uint8_t)side;
    pos->fen_ply = (int)(2 * (fullmove - 1) + side);
    pos->top = 0;
    StateInfo *st = &pos->st[0];
    memset(st, 0, sizeof *st);
    st->rule60 = (uint16_t)rule60;
    st->key = pos_compute_key(pos);
    set_check_info(pos, st);
    return true;
}

void pos_fen(const Position *pos, char out[FEN_MAX])
{
    char *p = out;
    for (int r = 9; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < FILE_NB; f++) {
            int pc = pos->board[make_square(f, r)];
            if (!pc) {
                empty++;
                continue;
            }
            if (empty)
                *p++ = (char)('0' + empty);
            empty = 0;
            *p++ = piece_char(pc);
        }
        if (empty)
            *p++ = (char)('0' + empty);
        if (r)
            *p++ = '/';
    }
    int ply = pos_game_ply(pos);
    snprintf(p, (size_t)(FEN_MAX - (p - out)), " %c - - %d %d", pos->side == RED ? 'w' : 'b',
             pos_state(pos)->rule60, ply / 2 + 1);
}

/* ---- move text ---- */

void move_str(Move m, char *out, bool rank1)
{
    if (m == MOVE_NONE) {
        strcpy(out, "(none)");
        return;
    }
    if (m == MOVE_NULL) {
        strcpy(out, "0000");
        return;
    }
    int from = move_from(m), to = move_to(m);
    int n = sprintf(out, "%c%d", 'a' + sq_file(from), sq_rank(from) + rank1);
    sprintf(out + n, "%c%d", 'a' + sq_file(to), sq_rank(to) + rank1);
}

bool looks_like_move(const char *t)
{
    return strlen(t) == 4 && t[0] >= 'a' && t[0] <= 'i' && t[1] >= '0' && t[1] <= '9' && t[2] >= 'a' && t[2] <= 'i'
        && t[3] >= '0' && t[3] <= '9';
}

int parse_square(const char *s, bool rank1, int *len)
{
    if (s[0] < 'a' || s[0] > 'i' || !isdigit((unsigned char)s[1]))
        return -1;
    int rank = s[1] - '0', n = 2;
    if (rank1 && s[1] == '1' && s[2] == '0') {
        rank = 10;
        n = 3;
    }
    rank -= rank1;
    if (rank < 0 || rank > 9)
        return -1;
    *len += n;
    return make_square(s[0] - 'a', rank);
}
