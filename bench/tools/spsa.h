/* chuhan spsa: tune the search's tunables (search/tunables.h, a tuning
 * build's) by SPSA, simultaneous perturbation stochastic approximation
 * (Spall, 1992), with games of `chuhan match` as the noisy measure.
 *
 * Each iteration k perturbs every tuned value theta_i by +-c_k,i (a random
 * sign each), plays a few game pairs (an opening with both colours) of
 * theta+ against theta-, and moves theta by the score difference:
 *   theta_i += rate * step_i * ((A + 1) / (A + k))^0.602 * k^0.101 * result * sign_i
 *   c_k,i = step_i / k^0.101,  A = iterations / 10,
 * result = (wins - losses of theta+) / game pairs, in [-2, 2].  These are
 * Spall's gain sequences a_k = a / (A + k)^0.602 and c_k = c / k^0.101 with
 * c = the tunable's step and a chosen so that at the first iteration a
 * result of one (a pair's worth of decisive edge) moves theta by rate
 * steps.  theta stays within each tunable's [min, max].
 *
 * The arithmetic (spsa_init, spsa_add, spsa_perturb, spsa_update) is pure
 * and seeded, apart from any engine, so that it can be tested on a made-up
 * objective. */
#ifndef CHUHAN_BENCH_SPSA_H
#define CHUHAN_BENCH_SPSA_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "match.h"
#include "search/tunables.h"

#define SPSA_MAX_PARAMS TUNABLES_MAX

typedef struct {
    char name[TUNABLE_NAME_MAX];
    double value;  /* theta, real: rounded only when it is played */
    int min, max;
    double step;   /* c: the perturbation at the first iteration */
    int sign;      /* this iteration's, +1 or -1 */
} SpsaParam;

typedef struct {
    SpsaParam p[SPSA_MAX_PARAMS];
    int n;
    long iterations; /* planned (A is a tenth of them) */
    long k;          /* iterations done */
    double rate;     /* moves at the first iteration, in steps per unit of result */
    uint64_t rng;    /* the signs */
} Spsa;

/* No parameter yet; iterations > 0, rate > 0. */
void spsa_init(Spsa *s, long iterations, double rate, uint64_t seed);
/* One parameter more; false with the reason (too many, a bad range or step,
 * a start outside the range). */
bool spsa_add(Spsa *s, const char *name, double value, int min, int max, double step, char *err, size_t errlen);
/* The perturbation of the next iteration: new signs, and the values of
 * theta+ and theta- (rounded, within range) into plus and minus. */
void spsa_perturb(Spsa *s, int *plus, int *minus);
/* The iteration's result ((wins - losses of theta+) / pairs): theta moves,
 * and the iteration counts. */
void spsa_update(Spsa *s, double result);
/* Parameter i's current value, rounded. */
int spsa_value(const Spsa *s, int i);
/* c_k for parameter i at the next iteration. */
double spsa_c(const Spsa *s, int i);

/* ---- the command ---- */

typedef struct {
    MatchConfig match; /* engines[0] theta+, [1] theta-: the same --engine */
    long iterations;
    int pairs;         /* game pairs per iteration */
    double rate;
    long every;        /* theta printed every this many iterations */
    int tuned[SPSA_MAX_PARAMS]; /* indices into the tunables */
    int ntuned;
    char out[1024];    /* the final values, "" for none */
    char start[1024];  /* start values ("name value" lines), "" for the defaults */
    bool list;         /* --list: show the tunables, nothing else */
} SpsaConfig;

/* The arguments after "spsa" (read by engine/util/args.h), for the
 * tunables given (the build's, or a test's own list).  False with the
 * reason ("spsa: --pairs: 'x' is not a number from 1 to 100000"), or with
 * err empty for --help. */
bool spsa_parse_args(int argc, char **argv, const TunableInfo *tunables, int ntunables, SpsaConfig *cfg, char *err,
                     size_t errlen);

/* chuhan spsa ...: the arguments after "spsa"; the exit status. */
int spsa_cli(int argc, char **argv);

#endif
