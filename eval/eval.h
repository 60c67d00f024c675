/* Static evaluation, in centipawns from the side to move's point of view. */
#ifndef CHUHAN_EVAL_H
#define CHUHAN_EVAL_H

#include "engine/position.h"
#include "params.h"

/* Largest magnitude evaluate() returns, below every mate and rule score. */
#define EVAL_MAX 20000

/* Build eval's read-only tables (part of chuhan_init). */
void eval_init(void);

int evaluate(const Position *pos);
int evaluate_with(const Position *pos, const EvalParams *params);

/* Piece values used outside the evaluation (move ordering, SEE). */
extern const int PieceValue[PIECE_TYPE_NB];

/* 0..64: how much of its advantage colour c can turn into a win with the
 * material left (0: it cannot win at all, e.g. a lone horse or cannon
 * against a king with both advisors). */
int eval_win_scale(const Position *pos, int c);

#endif
