/* Texel tuning of the evaluation weights: fit EvalParams to game results by
 * minimising the mean squared error between sigmoid(K * eval) and the
 * outcome (1 red win, 1/2 draw, 0 black win) over quiet positions of game
 * records.  Each position is stored once as the sparse linear trace of the
 * evaluation (evaluate_trace), so an epoch costs a few multiply-adds per
 * position; the work is split into a fixed number of chunks summed in a
 * fixed order, so the result does not depend on the thread count.
 * Everything is deterministic for a given seed and input.  The data is
 * texel_data.c, the fit texel_fit.c, the command engine/cli/texel_cli.c;
 * the weights are read and written as text (eval/weights.h). */
#ifndef CHUHAN_TOOLS_TEXEL_H
#define CHUHAN_TOOLS_TEXEL_H

#include <stdio.h>

#include "engine/records/pgn.h"
#include "eval/weight_list.h"

#define TEXEL_MAX_THREADS 64

typedef struct {
    /* loading */
    int skip_plies;       /* positions before this ply of each game are the book phase: skipped (16) */
    double keep;          /* fraction of the quiet positions kept, drawn with the seed (1.0) */
    long max_positions;   /* stop loading after this many (0: no limit) */
    double validation;    /* fraction of the games held out to measure the error (0.1) */
    PgnEncoding encoding; /* of the records (auto) */
    /* fitting */
    int epochs;           /* Adam steps over the whole set (400) */
    double lr;            /* Adam step size, centipawns (1.0) */
    double lambda;        /* L2 pull towards the starting weights, per weight (0) */
    double k;             /* sigmoid scale; 0: fit it first (0) */
    bool symmetric;       /* tie each psqt point to its mirror image across the middle file (true) */
    bool fit_material;    /* tune piece_value too (true) */
    int threads;          /* (1, at most TEXEL_MAX_THREADS) */
    uint64_t seed;        /* (1) */
    int report_every;     /* progress line every this many epochs (25) */
    FILE *progress;       /* progress lines, or NULL */
} TexelOptions;

void texel_options_default(TexelOptions *opt);

typedef struct TexelData TexelData;

TexelData *texel_data_new(const TexelOptions *opt);
void texel_data_free(TexelData *d);
/* Add the quiet positions of every record of a PGN file (plain or .zst)
 * with a known result; records that do not replay are counted and skipped.
 * False (with the reason) only when the file cannot be read on. */
bool texel_data_add_file(TexelData *d, const char *path, char *err, size_t errlen);

typedef struct {
    long games, games_rejected, games_no_result;
    long positions_seen, skipped_book, skipped_noisy, skipped_sampling;
    long train, validation; /* positions kept in each set */
    size_t bytes;           /* memory held by the positions */
} TexelDataStats;
const TexelDataStats *texel_data_stats(const TexelData *d);
/* The weights tuned (mg and eg counted apart), and into *used how many
 * mg/eg pairs the positions touch. */
int texel_data_weights(const TexelData *d, int *used);

/* Mean squared error of params over the training (validation: the held-out)
 * positions with sigmoid scale k. */
double texel_error(const TexelData *d, const EvalParams *params, double k, bool validation);
/* The k that minimises the training error of params (golden-section search). */
double texel_fit_k(const TexelData *d, const EvalParams *params);
/* Fit *params (starting from its values) with k; progress to opt->progress.
 * Returns the final training error. */
double texel_fit(const TexelData *d, EvalParams *params, double k);

#endif
