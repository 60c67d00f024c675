/* Private to the Texel tuner (texel_data.c, texel_fit.c): the positions as
 * stored, and the work split. */
#ifndef CHUHAN_TOOLS_TEXEL_PRIVATE_H
#define CHUHAN_TOOLS_TEXEL_PRIVATE_H

#include "texel.h"

#define CHUNKS 64 /* fixed work split: the sums do not depend on the thread count */
_Static_assert(TEXEL_MAX_THREADS <= CHUNKS, "a thread has at least one chunk");

typedef struct {
    uint32_t first;  /* into TexelData.idx / .coef */
    uint8_t count;   /* coefficients */
    uint8_t phase;   /* 0..PHASE_MAX */
    uint8_t scale[COLOR_NB];
    uint8_t result;  /* 0 black wins, 1 draw, 2 red wins */
} TexelPos;

typedef struct {
    TexelPos *v;
    size_t n, cap;
} PosSet;

struct TexelData {
    TexelOptions opt;
    int nparams;
    int16_t slot_param[EVAL_PARAM_SLOTS]; /* -1: not tuned */
    PosSet set[2];                         /* 0 training, 1 validation */
    uint16_t *idx;
    int8_t *coef;
    size_t ncoef, capcoef;
    TexelDataStats stats;
    int32_t acc[EVAL_PARAM_SLOTS];
    Position pos;
    Move moves[MAX_GAME_PLY];
};

#endif
