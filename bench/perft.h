/* Perft tools: divide on one position, and the reference-suite runner. */
#ifndef CHUHAN_BENCH_PERFT_H
#define CHUHAN_BENCH_PERFT_H

#include <stdint.h>
#include <stdio.h>

#include "engine/board/position.h"

/* One line of a perft suite file: "FEN ; D1 n ; D2 n ; ... ; id=... ; ...". */
typedef struct {
    char fen[256];
    char id[64];
    uint64_t expected[16]; /* expected[d], 0 when the depth is not listed */
    int max_depth;
} PerftCase;

/* Parse one suite line; false for comments, blank lines and lines with no
 * FEN.  Writes a reason to err for a malformed line with content. */
bool perft_parse_case(const char *line, PerftCase *pc, char *err, size_t errlen);

/* Print "move: count" per root move, then nodes, time and nps. */
void perft_divide(Position *pos, int depth, FILE *out);

/* Run every case of a suite file at every listed depth whose expected count
 * is at most max_nodes (0: no limit).  Prints one line per check and returns
 * the number of mismatches, or -1 when the file cannot be read. */
int perft_suite(const char *path, uint64_t max_nodes, FILE *out);

/* chuhan perft DEPTH [FEN] | --suite FILE [--max-nodes N]: the arguments
 * after "perft"; the exit status. */
int perft_cli(int argc, char **argv);

#endif
