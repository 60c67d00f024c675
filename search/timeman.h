/* Time management: how long to think, from the clock and the limits. */
#ifndef CHUHAN_TIMEMAN_H
#define CHUHAN_TIMEMAN_H

#include <stdint.h>

#include "engine/util/clock.h"
#include "search.h"

typedef struct {
    int64_t start;   /* ms, monotonic */
    int64_t optimum; /* aim to stop after this */
    int64_t maximum; /* never think longer than this */
    bool use_time;
} TimeMan;

/* Set up for side `us`; overhead is the Move Overhead option in ms. */
void tm_init(TimeMan *tm, const SearchLimits *limits, int us, int64_t overhead, int64_t start);
static inline int64_t tm_elapsed(const TimeMan *tm, int64_t now) { return now - tm->start; }

#endif
