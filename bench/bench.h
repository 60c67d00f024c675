/* The bench: a fixed search over fixed positions, whose node count is the
 * regression signature of the engine. */
#ifndef CHUHAN_BENCH_H
#define CHUHAN_BENCH_H

#include <stdint.h>
#include <stdio.h>

#define BENCH_DEPTH 13

/* The signature: the node count of `chuhan bench` (depth 13, the default
 * rules), checked by the test suite.  A commit that changes what the
 * search does changes it here and says "Bench: N" in its message. */
#define BENCH_NODES 6184722

extern const char *const BenchFens[];
extern const int BenchCount;

/* Search every bench position to depth with one thread and a cleared
 * 16 MB table, under the repetition rule set `rule` (NULL: the default);
 * print each one's nodes and the totals to out, a failure's reason to
 * stderr.  Returns the node count (0 on failure); *nps gets the speed. */
uint64_t bench_run(int depth, const char *rule, FILE *out, double *nps);
/* The same with the net eval_file (NULL: the hand-written evaluation); a
 * net that cannot be loaded fails before any search. */
uint64_t bench_run_eval(int depth, const char *rule, const char *eval_file, FILE *out, double *nps);

/* chuhan bench [DEPTH] [--rule R]: the arguments after "bench"; the exit
 * status. */
int bench_cli(int argc, char **argv);

#endif
