/* What a search score means, for those who show it.  A score is in
 * centipawns from the side to move's view, except near its ends: a mate
 * found (so many plies away), then a win by the repetition rules (the
 * opponent's perpetual check or chase), a little short of mate. */
#ifndef CHUHAN_SEARCH_SCORE_H
#define CHUHAN_SEARCH_SCORE_H

#include <stdbool.h>

#include "engine/board/position.h"

/* A mate, either way. */
bool score_is_mate(int score);
/* Plies to a mate (score_is_mate): > 0 the side to move mates, <= 0 it is
 * mated (0: it is mated already, no legal move). */
int score_mate_plies(int score);
/* The same in moves, as UCI counts them ("mate 1": mate with our next
 * move; "mate -1": mated after our next move). */
int score_mate_in(int score);
/* A win by the repetition rules, either way (a mate is not one). */
bool score_is_rule_win(int score);
/* Plies to that win (score_is_rule_win), signed as score_mate_plies. */
int score_rule_win_plies(int score);
/* A forced result either way, a mate or a rule win: what a protocol shows
 * as "mate N".  A GUI or adjudicator reads a rule win shown in centipawns
 * (cp 29990) as an ordinary score; as a mate it reads a forced result at
 * the distance it is, the way Pikafish-style GUIs expect. */
bool score_is_decisive(int score);
/* Moves to that result, as UCI counts them: half the plies, rounded up,
 * > 0 for the side to move ("mate 1": decided by our next move), < 0
 * against it, 0 mated already.  A rule win N plies away is decided when
 * the repetition is complete, N plies from now. */
int score_decisive_in(int score);

/* The material on the board, for the WDL model: the pieces besides the
 * kings (0-30). */
int score_material(const Position *pos);
/* The WDL model: wins W = 1 / (1 + e^((a - s) / b)), losses L = 1 / (1 +
 * e^((a + s) / b)), draws the rest, for a score s; a = a0 + a1 m and
 * b = b0 + b1 m grow or shrink with the material m. */
typedef struct {
    double a0, a1, b0, b1;
} WdlModel;
/* The model fitted to game results (chuhan wdl). */
extern const WdlModel WDL_MODEL;
/* Its win and loss probabilities (0-1) for a score and material. */
void wdl_probabilities(const WdlModel *model, int score, int material, double *win, double *loss);

/* Win, draw and loss per mille for the side to move, from a score and the
 * material (the fewer pieces, the likelier a draw at an even score): the
 * model fitted to game results (bench/tools/README.md, Win, draw and
 * loss).  A mate or a rule win is a certain result. */
void score_wdl(int score, int material, int wdl[3]);
/* The expected score for the side to move, per mille: W + D / 2. */
int score_expected(int score, int material);

#endif
