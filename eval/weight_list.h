/* Every evaluation weight, by name.  The values the engine plays with are
 * eval/weights.txt (weights.h), which the Texel tuner rewrites; scores are packed
 * middlegame / endgame pairs in centipawns. */
#ifndef CHUHAN_EVAL_WEIGHT_LIST_H
#define CHUHAN_EVAL_WEIGHT_LIST_H

#include <stdint.h>

#include "engine/board/types.h"

typedef int32_t Score; /* eg in the high 16 bits, mg in the low 16 */

#define S(mg, eg) ((Score)((uint32_t)(eg) << 16) + (Score)(mg))

static inline int mg_value(Score s) { return (int16_t)(uint16_t)(uint32_t)s; }
static inline int eg_value(Score s) { return (int16_t)(uint16_t)((uint32_t)(s + 0x8000) >> 16); }

/* Game phase from the pieces on the board: full middlegame at PHASE_MAX. */
#define PHASE_MAX 48

typedef struct {
    Score piece_value[PIECE_TYPE_NB];
    Score psqt[PIECE_TYPE_NB][SQUARE_NB]; /* from Red's side: square as Red sees it */

    Score rook_mobility[18];
    Score horse_mobility[9];
    Score cannon_mobility[18];
    Score elephant_mobility[5];
    Score advisor_mobility[5];

    /* King safety: weights of the defence and of attackers near the king. */
    Score missing_advisor;     /* per advisor missing, times enemy attackers */
    Score missing_elephant;    /* per elephant missing, times enemy attackers */
    Score cannon_on_king_file; /* enemy cannon on the king's file, one screen or more */
    Score empty_cannon;        /* enemy cannon on the king's file with nothing between */
    Score rook_on_king_file;   /* enemy rook on the king's file */
    Score horse_near_palace;   /* enemy horse in reach of the palace */
    Score king_exposed;        /* own king off its back point */

    Score crossed_pawns[6];    /* by number of own crossed pawns (0..5) */
    Score hanging[PIECE_TYPE_NB]; /* own piece attacked and undefended */
    Score rook_pair_vs_none;   /* both rooks against no rooks */
    Score tempo;
} EvalParams;

/* The engine's weights: eval/weights.txt, built in and read once by
 * chuhan_init (weights_init); read-only afterwards. */
extern EvalParams DefaultEvalParams;

/* Number of Score slots in EvalParams, and access by slot (for the tuner). */
#define EVAL_PARAM_SLOTS ((int)(sizeof(EvalParams) / sizeof(Score)))
static inline Score *eval_param_slot(EvalParams *p, int i) { return (Score *)p + i; }

#endif
