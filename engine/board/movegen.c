/* Move generation. */
#include "movegen.h"

#include <string.h>

static inline Move *serialize(Move *out, int from, Bitboard targets)
{
    BB_FOR_EACH(targets, to, { *out++ = make_move(from, to); });
    return out;
}

#define ALL_POINTS (~(Bitboard)0)

/* Pseudo-legal moves of the side to move: captures land on cap_mask (a
 * subset of the enemy pieces), quiet moves on quiet_mask (a subset of the
 * empty points).  A piece standing off span lands only on onto (a horse
 * also on horse_onto; the king anywhere when king_free).  The plain
 * generators pass span = ALL_POINTS: inlined, the test folds away. */
static inline __attribute__((always_inline)) Move *generate_onto(const Position *pos, Move *out, Bitboard cap_mask,
                                                                 Bitboard quiet_mask, Bitboard span, Bitboard onto,
                                                                 Bitboard horse_onto, bool king_free)
{
    int us = pos->side;
    Bitboard occ = pos->occupied, own = pos->by_color[us];
    Bitboard both = cap_mask | quiet_mask;
    Bitboard b;
#define ONTO(s, extra) (bb_test(span, s) ? ALL_POINTS : onto | (extra))

    b = pos->by_type[ROOK] & own;
    BB_FOR_EACH(b, s, { out = serialize(out, s, rook_attacks(s, occ) & both & ONTO(s, 0)); });
    b = pos->by_type[CANNON] & own;
    BB_FOR_EACH(b, s, {
        Bitboard rook, cannon;
        line_attacks(s, occ, &rook, &cannon);
        out = serialize(out, s, ((rook & quiet_mask) | (cannon & cap_mask)) & ONTO(s, 0));
    });
    b = pos->by_type[HORSE] & own;
    BB_FOR_EACH(b, s, { out = serialize(out, s, horse_moves(s, occ) & both & ONTO(s, horse_onto)); });
    b = pos->by_type[PAWN] & own;
    BB_FOR_EACH(b, s, { out = serialize(out, s, PawnMoves[us][s] & both & ONTO(s, 0)); });
    b = pos->by_type[ELEPHANT] & own;
    BB_FOR_EACH(b, s, { out = serialize(out, s, elephant_moves(s, occ) & both & ONTO(s, 0)); });
    b = pos->by_type[ADVISOR] & own;
    BB_FOR_EACH(b, s, { out = serialize(out, s, AdvisorMoves[s] & both & ONTO(s, 0)); });
    int ksq = pos->king_sq[us];
    return serialize(out, ksq, KingMoves[ksq] & both & (king_free ? ALL_POINTS : ONTO(ksq, 0)));
#undef ONTO
}

static Move *generate(const Position *pos, Move *out, Bitboard cap_mask, Bitboard quiet_mask)
{
    return generate_onto(pos, out, cap_mask, quiet_mask, ALL_POINTS, 0, 0, true);
}

int gen_captures(const Position *pos, Move *out)
{
    return (int)(generate(pos, out, pos->by_color[!pos->side], 0) - out);
}

int gen_quiets(const Position *pos, Move *out)
{
    return (int)(generate(pos, out, 0, BoardBB & ~pos->occupied) - out);
}

/* A piece off the enemy king's span (its rank, file and diagonal points:
 * AttackSpanBB) gives check by a quiet move only if it lands on the span,
 * or, a horse, on a point from which it attacks the king (pos_gives_check
 * says why); only those moves are tested, in generate()'s order. */
int gen_quiet_checks(const Position *pos, Move *out)
{
    int ksq = pos->king_sq[!pos->side];
    Bitboard span = AttackSpanBB[ksq];
    Move *end = generate_onto(pos, out, 0, BoardBB & ~pos->occupied, span, span, horse_attackers(ksq, pos->occupied),
                              false);
    int n = 0;
    for (Move *p = out; p < end; p++)
        if (pos_gives_check(pos, *p))
            out[n++] = *p;
    return n;
}

int gen_pseudo(const Position *pos, Move *out)
{
    return (int)(generate(pos, out, pos->by_color[!pos->side], BoardBB & ~pos->occupied) - out);
}

int gen_legal(const Position *pos, Move *out)
{
    int n = gen_pseudo(pos, out), k = 0;
    for (int i = 0; i < n; i++)
        if (pos_legal(pos, out[i]))
            out[k++] = out[i];
    return k;
}

int gen_evasions(const Position *pos, Move *out)
{
    /* The points that decide each check: the checker, the points between
     * it and the king (a rook's or pawn's line, a cannon's screen) and a
     * horse's leg.  A move of another piece that neither leaves nor lands
     * on one of them leaves every check as it is: only the king's moves
     * and those are generated, in gen_pseudo's order, and tested. */
    int ksq = pos->king_sq[pos->side];
    Bitboard span = 0, checkers = pos_state(pos)->checkers;
    BB_FOR_EACH(checkers, c, {
        span |= SquareBB[c] | BetweenBB[ksq][c];
        if (piece_type(pos->board[c]) == HORSE)
            span |= SquareBB[horse_leg(c, ksq)];
    });
    Move *end = generate_onto(pos, out, pos->by_color[!pos->side], BoardBB & ~pos->occupied, span, span, 0, true);
    int k = 0;
    for (Move *p = out; p < end; p++)
        if (pos_king_safe_after(pos, move_from(*p), move_to(*p)))
            out[k++] = *p;
    return k;
}

/* Legal targets of the piece on s: every one checked when the piece is
 * pinned, else only those on a cannon-screen point. */
static inline int count_targets(const Position *pos, int s, Bitboard targets, Bitboard pinned, Bitboard screens)
{
    if (bb_test(pinned, s)) {
        int n = 0;
        BB_FOR_EACH(targets, t, { n += pos_king_safe_after(pos, s, t); });
        return n;
    }
    int n = popcount(targets & ~screens);
    Bitboard risky = targets & screens;
    if (risky)
        BB_FOR_EACH(risky, t, { n += pos_king_safe_after(pos, s, t); });
    return n;
}

int count_legal(const Position *pos)
{
    const StateInfo *st = pos_state(pos);
    if (st->checkers) {
        Move moves[MAX_MOVES];
        return gen_evasions(pos, moves);
    }
    int us = pos->side, n = 0;
    Bitboard occ = pos->occupied, own = pos->by_color[us];
    Bitboard theirs = pos->by_color[!us], empty = BoardBB & ~occ, target = BoardBB & ~own;
    Bitboard pinned = st->pinned, screens = st->screens;
    Bitboard b;

    b = pos->by_type[ROOK] & own;
    BB_FOR_EACH(b, s, { n += count_targets(pos, s, rook_attacks(s, occ) & target, pinned, screens); });
    b = pos->by_type[CANNON] & own;
    BB_FOR_EACH(b, s, {
        Bitboard rook, cannon;
        line_attacks(s, occ, &rook, &cannon);
        n += count_targets(pos, s, (rook & empty) | (cannon & theirs), pinned, screens);
    });
    b = pos->by_type[HORSE] & own;
    BB_FOR_EACH(b, s, { n += count_targets(pos, s, horse_moves(s, occ) & target, pinned, screens); });
    b = pos->by_type[PAWN] & own;
    BB_FOR_EACH(b, s, { n += count_targets(pos, s, PawnMoves[us][s] & target, pinned, screens); });
    b = pos->by_type[ELEPHANT] & own;
    BB_FOR_EACH(b, s, { n += count_targets(pos, s, elephant_moves(s, occ) & target, pinned, screens); });
    b = pos->by_type[ADVISOR] & own;
    BB_FOR_EACH(b, s, { n += count_targets(pos, s, AdvisorMoves[s] & target, pinned, screens); });
    int ksq = pos->king_sq[us];
    Bitboard kt = KingMoves[ksq] & target;
    BB_FOR_EACH(kt, t, { n += pos_king_safe_after(pos, ksq, t); });
    return n;
}

uint64_t perft(Position *pos, int depth)
{
    if (depth <= 0)
        return 1;
    if (depth == 1)
        return (uint64_t)count_legal(pos);
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    uint64_t nodes = 0;
    for (int i = 0; i < n; i++) {
        pos_do_move(pos, moves[i]);
        nodes += perft(pos, depth - 1);
        pos_undo_move(pos);
    }
    return nodes;
}

Move parse_move(const Position *pos, const char *text, bool rank1)
{
    int len = 0;
    int from = parse_square(text, rank1, &len);
    if (from < 0)
        return MOVE_NONE;
    int to = parse_square(text + len, rank1, &len);
    if (to < 0 || text[len] != '\0')
        return MOVE_NONE;
    Move m = make_move(from, to);
    return pos_pseudo_legal(pos, m) && pos_legal(pos, m) ? m : MOVE_NONE;
}
