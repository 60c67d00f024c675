/* chuhan wdl: fit the win-draw-loss model of search/score.h to game
 * results (bench/tools/README.md, Win, draw and loss).
 *
 *   chuhan wdl [--games N] [--nodes N] [--every K] [--from PLY] [--svg FILE] FILE...
 *
 * Positions of the games (every K-th ply from PLY on, of the first N
 * games) are scored by a quick search (N nodes); the model
 *   W = 1 / (1 + e^((a - s) / b)),  L = 1 / (1 + e^((a + s) / b)),
 *   a = a0 + a1 m,  b = b0 + b1 m   (s the score, m the material)
 * is fitted to the results by maximum likelihood, and its parameters
 * printed in the form search/score.c keeps them.  --svg draws the fitted
 * expected score against the score at three materials, with the observed
 * mean result of the positions in bins of score. */
#ifndef CHUHAN_WDL_H
#define CHUHAN_WDL_H

int wdl_cli(int argc, char **argv);

#endif
