#include "timeman.h"

#include <math.h>
#include <string.h>

#include "tunable_list.h"

void limits_clear(SearchLimits *limits)
{
    memset(limits, 0, sizeof *limits);
    limits->time[RED] = limits->time[BLACK] = -1;
    limits->inc[RED] = limits->inc[BLACK] = -1;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

void tm_init(TimeMan *tm, const SearchLimits *limits, int us, int64_t overhead, int64_t start)
{
    tm->start = start;
    tm->use_time = false;
    tm->optimum = tm->maximum = INT64_MAX / 4;
    if (limits->movetime > 0) {
        /* The overhead comes off a move time, but never more than half of
         * it: at very short move times that would leave nothing to think. */
        tm->use_time = true;
        tm->optimum = tm->maximum = max64(1, max64(limits->movetime - overhead, limits->movetime / 2));
        return;
    }
    if (limits->time[us] < 0 || limits->infinite)
        return;
    tm->use_time = true;
    int64_t time = limits->time[us], inc = max64(0, limits->inc[us]);
    /* Moves still to play on this clock: xiangqi games run some 40-60
     * moves a side, so without moves-to-go plan for 35 more. */
    int64_t mtg = limits->movestogo > 0 ? min64(limits->movestogo, 50) : 35;
    /* The one overhead rule, for every front-end: each move keeps back the
     * Move Overhead, but never more than half of its fair share of the
     * clock (time / mtg), as with a movetime; at short clocks the whole
     * overhead would leave nothing to think with. */
    overhead = min64(overhead, time / mtg / 2);
    int64_t avail = max64(1, time + inc * (mtg - 1) - overhead * mtg);
    /* Never more than most of what is left on the clock. */
    int64_t cap = max64(1, time * 8 / 10 - overhead);
    if (mtg == 1)
        cap = max64(1, time * 9 / 10 - overhead);
    tm->optimum = min64(avail / mtg, cap);
    tm->maximum = min64(mtg == 1 ? cap : tm->optimum * 5, cap);
    /* A clock with an increment and no moves-to-go is never refilled:
     * counting the increment 34 times makes the optimum exceed the time
     * left once it is down to a few increments, and the engine then lives
     * at the bottom of its clock, where a late stop is a loss.  Keep a
     * reserve: a move's optimum is at most a fifth of the clock and its
     * maximum a third, so the clock settles at several increments. */
    if (limits->movestogo <= 0) {
        tm->optimum = min64(tm->optimum, time / TM_RESERVE_OPTIMUM_DIV);
        tm->maximum = min64(tm->maximum, time / TM_RESERVE_MAXIMUM_DIV);
    }
    if (tm->optimum < 1)
        tm->optimum = 1;
}

static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

/* Three reasons to think longer than the optimum, or shorter: a best move
 * that keeps changing has not been settled; a falling score means the
 * search is finding trouble that more depth may dodge; and when the best
 * move took most of the root's nodes, the others were refuted quickly,
 * while an even spread means rivals that were hard to refute. */
double tm_stop_factor(double instability, int score_drop, double best_share)
{
    double unstable = fmin(TM_UNSTABLE_BASE + TM_UNSTABLE_STEP * instability, TM_UNSTABLE_MAX);
    double falling = clampd(1.0 + (double)score_drop / TM_FALL_SCALE, TM_FALL_MIN, TM_FALL_MAX);
    double effort = TM_EFFORT_BASE - clampd(best_share, 0.0, 1.0);
    return unstable * falling * effort;
}
