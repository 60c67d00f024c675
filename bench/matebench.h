/* The mate bench: how soon the search sees a forced mate.  Each position of
 * a suite has a known mate, for or against the side to move; one search
 * per position (one thread, a cleared 16 MB table, no book) runs until it
 * reports a correct mate score or spends the node budget.  The figures are
 * the nodes to the first correct mate score (median, 75th percentile) and
 * how many mates were seen within the budget. */
#ifndef CHUHAN_MATEBENCH_H
#define CHUHAN_MATEBENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define MATEBENCH_NODES 2000000 /* default node budget per position */

/* One position: a FEN and its mate in plies, > 0 when the side to move
 * mates, < 0 when it is mated.  A reported score is correct when it is a
 * mate for the right side, and, for the side that mates, no longer than
 * the known one (the mated side need only see that it is lost). */
typedef struct {
    char fen[128];
    int plies;
    char name[64];
} MateCase;

typedef struct {
    int count, found;
    uint64_t median, p75; /* UINT64_MAX: not within the budget */
    uint64_t total_nodes; /* all the nodes searched, found or not */
} MateSummary;

/* The built-in suite. */
extern const char *const MateSuite[];
extern const int MateSuiteCount;

/* Parse one suite line "FEN ; PLIES [; NAME]"; false (with a reason in err)
 * if it is not one.  Blank lines and '#' comments are not lines to parse. */
bool matebench_parse(const char *line, MateCase *c, char *err, size_t errlen);

/* Search each case with the budget; one line per case (nodes to the
 * first correct mate score, or "-") and the summary to out (NULL: quiet).
 * False if the engine could not be made or a position was refused. */
bool matebench_run(const MateCase *cases, int n, uint64_t budget, FILE *out, MateSummary *sum);

/* chuhan matebench [--nodes N] [--file SUITE]: the exit status. */
int matebench_cli(int argc, char **argv);

#endif
