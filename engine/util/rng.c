#include "rng.h"

uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

double rng_unit(uint64_t *state) { return (double)(rng_next(state) >> 11) * (1.0 / 9007199254740992.0); }

uint64_t rng_below(uint64_t *state, uint64_t n) { return rng_next(state) % n; }
