/* Search tunables, by name.  Each is used in one numbered step of
 * search/search.c (the aspiration window: search/iterate.c); the comment
 * there says why the step is there.
 *
 * The ones worth tuning are in SEARCH_TUNABLES, one line each:
 * X(NAME, default, min, max, step), step being the SPSA perturbation (about
 * the smallest change worth a few games' notice).  In the normal build each
 * is a compile-time constant (an enum: the same values, the same code as a
 * #define); in the SPSA build (make SPSA=1, -DCHUHAN_SPSA) each is a
 * process-wide int that search/tunables.c defines and sets from the
 * engine's options, so that `chuhan spsa` can play versions of the search
 * against each other without rebuilding.  The rest stay #defines: table
 * sizes and scales (the histories' int16 range, the correction grain), a
 * margin that keeps the search correct (the 60-move limit), and three
 * depths left out to keep a tuning run's dimension down. */
#ifndef CHUHAN_SEARCH_TUNABLE_LIST_H
#define CHUHAN_SEARCH_TUNABLE_LIST_H

/* The divisors' minimums keep them above zero; LMR_BASE_X100 and
 * LMR_DIV_X100 are the reduction formula's doubles in hundredths
 * (80 / 100.0 is the double 0.80 exactly: the same table). */
#define SEARCH_TUNABLES(X)                                                          \
    X(ASPIRATION_DELTA, 18, 5, 60, 3)        /* half-width of the first window, cp */ \
    X(RFP_MAX_DEPTH, 7, 3, 12, 1)            /* reverse futility: deepest node */     \
    X(RFP_MARGIN, 85, 40, 160, 8)            /* cp per ply of depth */                \
    X(NMP_BASE_R, 3, 1, 6, 1)                /* null move: reduction at any depth */  \
    X(NMP_DEPTH_DIV, 4, 2, 8, 1)             /* one more ply per this many */         \
    X(NMP_EVAL_DIV, 200, 60, 500, 20)        /* and per this much eval above beta */  \
    X(IIR_MIN_DEPTH, 6, 3, 12, 1)            /* no TT move: one ply shallower */      \
    X(LMP_BASE, 3, 0, 12, 1)                 /* late-move pruning */                  \
    X(FUTILITY_MAX_DEPTH, 7, 3, 12, 1)       /* futility pruning of quiet moves */    \
    X(FUTILITY_BASE, 100, 20, 250, 10)                                                \
    X(FUTILITY_PER_DEPTH, 110, 40, 250, 10)                                           \
    X(HISTORY_PRUNE_DEPTH, 4, 1, 8, 1)                                                \
    X(HISTORY_PRUNE_MARGIN, 4000, 1000, 10000, 400) /* times depth */                 \
    X(SEE_QUIET_MARGIN, 22, 5, 60, 3)        /* times depth squared */                \
    X(SEE_CAPTURE_MARGIN, 90, 30, 200, 8)    /* times depth */                        \
    X(SE_MIN_DEPTH, 8, 4, 14, 1)             /* singular extensions: shallowest */    \
    X(SE_TT_DEPTH_MARGIN, 3, 1, 6, 1)        /* the TT entry this much shallower */   \
    X(SE_BETA_PER_DEPTH, 2, 1, 6, 1)         /* singular margin, cp per ply */        \
    X(SE_DOUBLE_MARGIN, 20, 0, 80, 4)        /* this far below it: two plies */       \
    X(SE_DOUBLE_MAX, 6, 0, 16, 1)            /* double extensions on one path, most */ \
    X(LMR_BASE_X100, 80, 0, 200, 10)         /* reductions: base + log d log m / div */ \
    X(LMR_DIV_X100, 230, 100, 400, 15)                                                \
    X(LMR_HISTORY_DIV, 8000, 2000, 20000, 600) /* one ply less per this much history */ \
    X(QS_DELTA_MARGIN, 180, 50, 400, 15)     /* quiescence delta pruning */

#ifdef CHUHAN_SPSA
/* SPSA build only: mutable globals, set between searches (never during
 * one: the engine refuses) through search/tunables.h. */
#define SEARCH_TUNABLE_DECLARE(name, def, lo, hi, step) extern int name;
SEARCH_TUNABLES(SEARCH_TUNABLE_DECLARE)
#undef SEARCH_TUNABLE_DECLARE
#else
#define SEARCH_TUNABLE_CONSTANT(name, def, lo, hi, step) name = (def),
enum { SEARCH_TUNABLES(SEARCH_TUNABLE_CONSTANT) };
#undef SEARCH_TUNABLE_CONSTANT
#endif

#define LMR_BASE (LMR_BASE_X100 / 100.0)
#define LMR_DIV (LMR_DIV_X100 / 100.0)

#define ASPIRATION_MIN_DEPTH 4 /* first depth searched with a window */

#define NMP_MIN_DEPTH 3      /* null move: shallowest node */
#define NMP_VERIFY_DEPTH 12  /* verify null-move cutoffs from this depth */

#define TT_RULE60_MARGIN 12 /* no TT values this many plies before the 60-move limit */

#define QUIET_SORT_LIMIT (-4000) /* the move picker sorts the quiet moves scored this or above */

#define HISTORY_MAX 16384
#define HISTORY_BONUS_MAX 1600

#define CORR_GRAIN 256        /* correction history: entries in 1/256 cp */
#define CORR_WEIGHT_SCALE 1024 /* a new result weighs min(depth^2 + 2 depth + 1, 128) of this */
#define CORR_MAX (64 * CORR_GRAIN) /* at most 64 cp per table */

/* Time management, after each iteration (search/timeman.c): think on while
 * the time used is below optimum x the product of three factors. */
#define TM_UNSTABLE_BASE 1.0 /* a best move that has not changed lately */
#define TM_UNSTABLE_STEP 0.6 /* per change of the best move, halved each iteration */
#define TM_UNSTABLE_MAX 2.2
#define TM_FALL_SCALE 150 /* a score fallen by this many cp over 3 iterations: twice the time */
#define TM_FALL_MIN 0.75  /* a rising score: less time, down to this */
#define TM_FALL_MAX 1.5
#define TM_EFFORT_BASE 1.6 /* minus the best move's share of the root's nodes */
/* Without moves-to-go, a move's optimum and maximum are at most the clock
 * divided by these (search/timeman.c: the reserve). */
#define TM_RESERVE_OPTIMUM_DIV 5
#define TM_RESERVE_MAXIMUM_DIV 3

#endif
