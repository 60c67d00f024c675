/* Time management: how long to think, from the clock and the limits. */
#ifndef CHUHAN_TIMEMAN_H
#define CHUHAN_TIMEMAN_H

#include <stdint.h>

#include "engine/board/types.h"
#include "engine/util/clock.h"

typedef struct {
    int64_t time[COLOR_NB], inc[COLOR_NB]; /* ms, < 0 when not given */
    int movestogo;
    int depth;        /* 0: none */
    uint64_t nodes;   /* 0: none */
    int64_t movetime; /* ms, 0: none */
    int mate;         /* moves, 0: none */
    bool infinite, ponder;
    int nsearchmoves;
    Move searchmoves[MAX_MOVES];
} SearchLimits;

typedef struct {
    int64_t start;   /* ms, monotonic */
    int64_t optimum; /* aim to stop after this */
    int64_t maximum; /* never think longer than this */
    bool use_time;
} TimeMan;

void limits_clear(SearchLimits *limits);
/* Set up for side `us`; overhead is the Move Overhead option in ms. */
void tm_init(TimeMan *tm, const SearchLimits *limits, int us, int64_t overhead, int64_t start);
static inline int64_t tm_elapsed(const TimeMan *tm, int64_t now) { return now - tm->start; }

#endif
