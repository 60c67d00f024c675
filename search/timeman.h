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
/* After an iteration: how many optimums of time to have used before not
 * starting the next one.  instability counts the best move's changes
 * (halved each iteration), score_drop is how many cp the best score fell
 * over the last iterations (negative when it rose), best_share the best
 * move's share of the nodes searched at the root. */
double tm_stop_factor(double instability, int score_drop, double best_share);
static inline int64_t tm_elapsed(const TimeMan *tm, int64_t now) { return now - tm->start; }

#endif
