/* Static evaluation, in centipawns from the side to move's point of view. */
#ifndef CHUHAN_EVAL_H
#define CHUHAN_EVAL_H

#include "engine/board/position.h"
#include "eval/nnue/nnue.h"
#include "weight_list.h"

/* Largest magnitude evaluate() returns, below every mate and rule score;
 * the net's output has the same bound. */
#define EVAL_MAX 20000
_Static_assert(EVAL_MAX == NNUE_EVAL_MAX, "the net and the hand-written evaluation share one bound");

/* Build eval's read-only tables (part of chuhan_init). */
void eval_init(void);

int evaluate(const Position *pos);
int evaluate_with(const Position *pos, const EvalParams *params);

/* The evaluation as a linear function of the weights, for the tuner: before
 * the taper, the win scale and the clamp, Red's total Score is the sum over
 * slots i of coef[i] * (slot i of the EvalParams) (eval_param_slot), both
 * halves alike; it is then tapered by phase (mg * phase + eg * (PHASE_MAX -
 * phase)) / PHASE_MAX and scaled by scale[strong side] / 64. */
typedef struct {
    int16_t coef[EVAL_PARAM_SLOTS]; /* Red's count minus Black's */
    int phase;                      /* 0..PHASE_MAX */
    int scale[COLOR_NB];            /* eval_win_scale() of each colour */
    int side;                       /* side to move */
} EvalTrace;

/* evaluate_with(), also filling *trace (the same value returned). */
int evaluate_trace(const Position *pos, const EvalParams *params, EvalTrace *trace);

/* 0..64: how much of its advantage colour c can turn into a win with the
 * material left (0: it cannot win at all, e.g. a lone horse or cannon
 * against a king with both advisors). */
int eval_win_scale(const Position *pos, int c);

/* v (the side to move's view) scaled down by eval_win_scale() of the side
 * it favours: the net's output too, since no data teaches it every
 * material that cannot mate. */
int eval_scale_drawish(const Position *pos, int v);

/* The static evaluation from scratch: the net's when net is not NULL
 * (drawish material scaled as above), else the hand-written one. */
int eval_static(const NnueNet *net, const Position *pos);

#endif
