/* The one random generator of the program: SplitMix64 (Steele, Lea and
 * Flood, 2014).  Its state is a plain 64-bit number, every value a good
 * seed (0 included), so a caller keeps it where it likes and the same seed
 * gives the same numbers on every machine: the zobrist keys, which the
 * opening book is indexed by, come from it. */
#ifndef CHUHAN_UTIL_RNG_H
#define CHUHAN_UTIL_RNG_H

#include <stdint.h>

uint64_t rng_next(uint64_t *state);
/* Uniform in [0, 1), 53 bits. */
double rng_unit(uint64_t *state);
/* In [0, n), n > 0 (by the remainder: a bias below 2^-40 for the small n
 * it is used with). */
uint64_t rng_below(uint64_t *state, uint64_t n);

#endif
