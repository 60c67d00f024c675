/* Correction history.  The static evaluation misjudges some kinds of
 * position the same way again and again (a pawn structure, one side's set
 * of pieces).  After a search, the gap between its result and the
 * uncorrected evaluation is averaged into tables keyed by the pawns of both
 * sides and by each side's other pieces; the evaluation of later positions
 * with the same keys is moved by those averages.  The keys are hashed from
 * the bitboards, so the position need not keep them.  Inline: it runs at
 * every node that evaluates. */
#ifndef CHUHAN_SEARCH_CORR_H
#define CHUHAN_SEARCH_CORR_H

#include <stdint.h>

#include "engine/board/position.h"
#include "eval/eval.h"
#include "tunable_list.h"

#define CORR_SIZE 16384 /* entries per table and side to move, a power of two */

/* Entries in 1/CORR_GRAIN cp, by side to move. */
typedef struct {
    int16_t pawn[COLOR_NB][CORR_SIZE];              /* keyed by both sides' pawns */
    int16_t nonpawn[COLOR_NB][COLOR_NB][CORR_SIZE]; /* [side]: keyed by that side's other pieces */
} CorrHist;

typedef struct {
    uint32_t pawn, nonpawn[COLOR_NB];
} CorrKeys;

static inline uint64_t corr_hash_board(uint64_t h, Bitboard b)
{
    h = (h ^ (uint64_t)b) * 0x9E3779B97F4A7C15ULL;
    h = (h ^ (uint64_t)(b >> 64)) * 0xC2B2AE3D27D4EB4FULL;
    return h ^ (h >> 29);
}

static inline uint32_t corr_index(uint64_t h) { return (uint32_t)((h * 0xD6E8FEB86659FD93ULL) >> 50) & (CORR_SIZE - 1); }

static inline CorrKeys corr_keys(const Position *pos)
{
    CorrKeys k;
    k.pawn = corr_index(corr_hash_board(corr_hash_board(1, pos_pieces(pos, RED, PAWN)), pos_pieces(pos, BLACK, PAWN)));
    for (int c = RED; c <= BLACK; c++) {
        uint64_t h = 2 + (uint64_t)c;
        for (int pt = ADVISOR; pt <= KING; pt++)
            h = corr_hash_board(h, pos_pieces(pos, c, pt));
        k.nonpawn[c] = corr_index(h);
    }
    return k;
}

/* The evaluation moved by the correction, cp: a weighted mean of the
 * tables' averages, the pawn table at half the weight, each side's pieces
 * at a quarter; kept within the evaluation's range. */
static inline int corr_apply(const CorrHist *ch, int us, const CorrKeys *k, int eval)
{
    int v = 2 * ch->pawn[us][k->pawn] + ch->nonpawn[RED][us][k->nonpawn[RED]] + ch->nonpawn[BLACK][us][k->nonpawn[BLACK]];
    v = eval + v / (4 * CORR_GRAIN);
    return v > EVAL_MAX ? EVAL_MAX : v < -EVAL_MAX ? -EVAL_MAX : v;
}

static inline void corr_entry_update(int16_t *e, int diff, int weight)
{
    int v = (*e * (CORR_WEIGHT_SCALE - weight) + diff * CORR_GRAIN * weight) / CORR_WEIGHT_SCALE;
    *e = (int16_t)(v > CORR_MAX ? CORR_MAX : v < -CORR_MAX ? -CORR_MAX : v);
}

/* Move the entries of the keys towards diff (search result minus the
 * uncorrected evaluation, cp), by more the deeper the search. */
static inline void corr_update(CorrHist *ch, int us, const CorrKeys *k, int diff, int depth)
{
    int weight = depth * depth + 2 * depth + 1;
    if (weight > 128)
        weight = 128;
    corr_entry_update(&ch->pawn[us][k->pawn], diff, weight);
    corr_entry_update(&ch->nonpawn[RED][us][k->nonpawn[RED]], diff, weight);
    corr_entry_update(&ch->nonpawn[BLACK][us][k->nonpawn[BLACK]], diff, weight);
}

#endif
