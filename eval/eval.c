/* Evaluation: material and piece-square tables tapered by game phase,
 * mobility, king safety the xiangqi way, crossed pawns, hanging pieces, and
 * a scale for material that cannot win. */
#include "eval.h"

#include <string.h>

/* Squares from which a horse can reach a point of c's palace. */
static Bitboard PalaceHorseZone[COLOR_NB];

void eval_init(void)
{
    for (int c = 0; c < COLOR_NB; c++) {
        PalaceHorseZone[c] = 0;
        Bitboard palace = PalaceBB[c];
        BB_FOR_EACH(palace, p, { PalaceHorseZone[c] |= HorseAttackers[p][0]; });
    }
}

/* Square as colour c sees it (Red's orientation). */
static inline int relative_sq(int c, int s) { return c == RED ? s : make_square(sq_file(s), 9 - sq_rank(s)); }

static inline int min_int(int a, int b) { return a < b ? a : b; }

int eval_win_scale(const Position *pos, int c)
{
    int d = !c;
    int rooks = popcount(pos_pieces(pos, c, ROOK)), horses = popcount(pos_pieces(pos, c, HORSE));
    int cannons = popcount(pos_pieces(pos, c, CANNON)), pawns = popcount(pos_pieces(pos, c, PAWN));
    if (rooks + horses + cannons + pawns == 0)
        return 0; /* no piece that can give mate */
    if (rooks)
        return 64;
    int d_advisors = popcount(pos_pieces(pos, d, ADVISOR));
    int d_defenders = d_advisors + popcount(pos_pieces(pos, d, ELEPHANT));
    int own_screens = popcount(pos_pieces(pos, c, ADVISOR) | pos_pieces(pos, c, ELEPHANT));
    if (pawns == 0 && horses + cannons == 1) {
        if (d_advisors == 2)
            return 4; /* lone horse or cannon against both advisors */
        if (cannons && !own_screens && !d_defenders)
            return 4; /* a cannon with no screen to use */
        return 48;
    }
    if (horses + cannons == 0) {
        Bitboard crossed = pos_pieces(pos, c, PAWN) & ~HalfBB[c];
        if (!crossed)
            return 8; /* pawns that never crossed the river cannot attack the king */
        if (pawns == 1 && d_advisors == 2)
            return 8;
        if (pawns == 1 && d_defenders >= 2)
            return 16;
    }
    return 64;
}

/* v scaled down by what the colour it favours, strong, can win with. */
static inline int scale_drawish(const Position *pos, int v, int strong)
{
    int scale = eval_win_scale(pos, strong);
    return scale < 64 ? v * scale / 64 : v;
}

/* The trace: how many times each weight counts, Red's count minus Black's.
 * With T a constant NULL (evaluate_with) every TRACE vanishes, so the engine's
 * evaluation compiles to exactly what it was without the tracing. */
#define TRACE(col, field, n)                                                                          \
    do {                                                                                              \
        if (T)                                                                                        \
            T->coef[(const Score *)&(field) - (const Score *)P] += (int16_t)((col) == RED ? (n) : -(n)); \
    } while (0)

static inline __attribute__((always_inline)) int eval_core(const Position *pos, const EvalParams *P, EvalTrace *T)
{
    Score score[COLOR_NB] = {0, 0};
    Bitboard occ = pos->occupied;
    Bitboard att[COLOR_NB] = {0, 0};
    int phase = 0;

    for (int c = 0; c < COLOR_NB; c++) {
        Bitboard own = pos->by_color[c], enemy = pos->by_color[!c];
        Score sc = 0;
        Bitboard b;

        b = own & pos->by_type[ROOK];
        BB_FOR_EACH(b, s, {
            Bitboard a = rook_attacks(s, occ);
            att[c] |= a;
            sc += P->piece_value[ROOK] + P->psqt[ROOK][relative_sq(c, s)]
                + P->rook_mobility[popcount(a & ~own)];
            TRACE(c, P->piece_value[ROOK], 1);
            TRACE(c, P->psqt[ROOK][relative_sq(c, s)], 1);
            TRACE(c, P->rook_mobility[popcount(a & ~own)], 1);
            phase += 6;
        });
        b = own & pos->by_type[CANNON];
        BB_FOR_EACH(b, s, {
            Bitboard r, ca;
            line_attacks(s, occ, &r, &ca);
            ca &= occ;
            att[c] |= ca;
            int mob = min_int(popcount(r & ~occ) + popcount(ca & enemy), 17);
            sc += P->piece_value[CANNON] + P->psqt[CANNON][relative_sq(c, s)] + P->cannon_mobility[mob];
            TRACE(c, P->piece_value[CANNON], 1);
            TRACE(c, P->psqt[CANNON][relative_sq(c, s)], 1);
            TRACE(c, P->cannon_mobility[mob], 1);
            phase += 3;
        });
        b = own & pos->by_type[HORSE];
        BB_FOR_EACH(b, s, {
            Bitboard a = horse_moves(s, occ);
            att[c] |= a;
            sc += P->piece_value[HORSE] + P->psqt[HORSE][relative_sq(c, s)]
                + P->horse_mobility[popcount(a & ~own)];
            TRACE(c, P->piece_value[HORSE], 1);
            TRACE(c, P->psqt[HORSE][relative_sq(c, s)], 1);
            TRACE(c, P->horse_mobility[popcount(a & ~own)], 1);
            phase += 3;
        });
        b = own & pos->by_type[PAWN];
        BB_FOR_EACH(b, s, {
            att[c] |= PawnMoves[c][s];
            sc += P->piece_value[PAWN] + P->psqt[PAWN][relative_sq(c, s)];
            TRACE(c, P->piece_value[PAWN], 1);
            TRACE(c, P->psqt[PAWN][relative_sq(c, s)], 1);
        });
        b = own & pos->by_type[ELEPHANT];
        BB_FOR_EACH(b, s, {
            Bitboard a = elephant_moves(s, occ);
            att[c] |= a;
            sc += P->piece_value[ELEPHANT] + P->psqt[ELEPHANT][relative_sq(c, s)]
                + P->elephant_mobility[popcount(a & ~own)];
            TRACE(c, P->piece_value[ELEPHANT], 1);
            TRACE(c, P->psqt[ELEPHANT][relative_sq(c, s)], 1);
            TRACE(c, P->elephant_mobility[popcount(a & ~own)], 1);
        });
        b = own & pos->by_type[ADVISOR];
        BB_FOR_EACH(b, s, {
            att[c] |= AdvisorMoves[s];
            sc += P->piece_value[ADVISOR] + P->psqt[ADVISOR][relative_sq(c, s)]
                + P->advisor_mobility[popcount(AdvisorMoves[s] & ~own)];
            TRACE(c, P->piece_value[ADVISOR], 1);
            TRACE(c, P->psqt[ADVISOR][relative_sq(c, s)], 1);
            TRACE(c, P->advisor_mobility[popcount(AdvisorMoves[s] & ~own)], 1);
        });
        int ksq = pos->king_sq[c];
        att[c] |= KingMoves[ksq];
        sc += P->psqt[KING][relative_sq(c, ksq)];
        sc += P->crossed_pawns[popcount(own & pos->by_type[PAWN] & ~HalfBB[c])];
        TRACE(c, P->psqt[KING][relative_sq(c, ksq)], 1);
        TRACE(c, P->crossed_pawns[popcount(own & pos->by_type[PAWN] & ~HalfBB[c])], 1);
        score[c] += sc;
    }

    /* King safety, from the attacker's side. */
    for (int c = 0; c < COLOR_NB; c++) {
        int them = !c, ksq = pos->king_sq[c];
        Bitboard theirs = pos->by_color[them];
        int attackers = 2 * popcount(theirs & pos->by_type[ROOK]) + popcount(theirs & pos->by_type[HORSE])
                      + popcount(theirs & pos->by_type[CANNON])
                      + popcount(theirs & pos->by_type[PAWN] & ~HalfBB[them]) / 2;
        attackers = min_int(attackers, 8);
        int missing_adv = 2 - popcount(pos_pieces(pos, c, ADVISOR));
        int missing_ele = 2 - popcount(pos_pieces(pos, c, ELEPHANT));
        score[c] += P->missing_advisor * (missing_adv * attackers) + P->missing_elephant * (missing_ele * attackers);
        TRACE(c, P->missing_advisor, missing_adv * attackers);
        TRACE(c, P->missing_elephant, missing_ele * attackers);
        if (sq_rank(relative_sq(c, ksq)) > 0) {
            score[c] += P->king_exposed;
            TRACE(c, P->king_exposed, 1);
        }

        Bitboard file = FileBB[sq_file(ksq)];
        Bitboard cannons = theirs & pos->by_type[CANNON] & file;
        BB_FOR_EACH(cannons, s, {
            if ((BetweenBB[ksq][s] & occ) == 0) {
                score[them] += P->empty_cannon;
                TRACE(them, P->empty_cannon, 1);
            } else {
                score[them] += P->cannon_on_king_file;
                TRACE(them, P->cannon_on_king_file, 1);
            }
        });
        score[them] += P->rook_on_king_file * popcount(theirs & pos->by_type[ROOK] & file);
        score[them] += P->horse_near_palace * popcount(theirs & pos->by_type[HORSE] & PalaceHorseZone[c]);
        TRACE(them, P->rook_on_king_file, popcount(theirs & pos->by_type[ROOK] & file));
        TRACE(them, P->horse_near_palace, popcount(theirs & pos->by_type[HORSE] & PalaceHorseZone[c]));

        if (popcount(pos_pieces(pos, c, ROOK)) == 2 && !pos_pieces(pos, them, ROOK)) {
            score[c] += P->rook_pair_vs_none;
            TRACE(c, P->rook_pair_vs_none, 1);
        }

        /* Own pieces attacked and not defended. */
        Bitboard hanging = pos->by_color[c] & att[them] & ~att[c];
        if (hanging)
            for (int pt = PAWN; pt < KING; pt++) {
                score[c] += P->hanging[pt] * popcount(hanging & pos->by_type[pt]);
                TRACE(c, P->hanging[pt], popcount(hanging & pos->by_type[pt]));
            }
    }

    score[pos->side] += P->tempo;
    TRACE(pos->side, P->tempo, 1);
    Score total = score[RED] - score[BLACK];
    phase = min_int(phase, PHASE_MAX);
    if (T) {
        T->phase = phase;
        T->side = pos->side;
        T->scale[RED] = eval_win_scale(pos, RED);
        T->scale[BLACK] = eval_win_scale(pos, BLACK);
    }
    int v = (mg_value(total) * phase + eg_value(total) * (PHASE_MAX - phase)) / PHASE_MAX;

    v = scale_drawish(pos, v, v > 0 ? RED : BLACK);

    if (v > EVAL_MAX)
        v = EVAL_MAX;
    if (v < -EVAL_MAX)
        v = -EVAL_MAX;
    return pos->side == RED ? v : -v;
}

int evaluate_with(const Position *pos, const EvalParams *P) { return eval_core(pos, P, NULL); }

int eval_scale_drawish(const Position *pos, int v) { return scale_drawish(pos, v, v > 0 ? pos->side : !pos->side); }

int eval_static(const NnueNet *net, const Position *pos)
{
    return net ? eval_scale_drawish(pos, nnue_evaluate_full(net, pos)) : evaluate(pos);
}

int evaluate(const Position *pos) { return evaluate_with(pos, &DefaultEvalParams); }

int evaluate_trace(const Position *pos, const EvalParams *P, EvalTrace *trace)
{
    memset(trace, 0, sizeof *trace);
    return eval_core(pos, P, trace);
}
