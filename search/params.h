/* Search tunables, by name.  Each is used in one numbered step of
 * search/search.c; the comment there says why the step is there. */
#ifndef CHUHAN_SEARCH_PARAMS_H
#define CHUHAN_SEARCH_PARAMS_H

#define ASPIRATION_MIN_DEPTH 4 /* first depth searched with a window */
#define ASPIRATION_DELTA 18    /* half-width of the first window, cp */

#define RFP_MAX_DEPTH 7      /* reverse futility: deepest node */
#define RFP_MARGIN 85        /* cp per ply of depth */

#define NMP_MIN_DEPTH 3      /* null move: shallowest node */
#define NMP_BASE_R 3         /* reduction at any depth */
#define NMP_DEPTH_DIV 4      /* one more ply of reduction per this many */
#define NMP_EVAL_DIV 200     /* and per this much eval above beta (max 3) */
#define NMP_VERIFY_DEPTH 12  /* verify null-move cutoffs from this depth */

#define TT_RULE60_MARGIN 12 /* no TT values this many plies before the 60-move limit */

#define IIR_MIN_DEPTH 6      /* no TT move: search one ply shallower */

#define LMP_BASE 3           /* late-move pruning: quiets kept at depth d are (LMP_BASE + d*d) */
#define FUTILITY_MAX_DEPTH 7 /* futility pruning of quiet moves */
#define FUTILITY_BASE 100
#define FUTILITY_PER_DEPTH 110
#define HISTORY_PRUNE_DEPTH 4
#define HISTORY_PRUNE_MARGIN 4000 /* times depth */
#define SEE_QUIET_MARGIN 22  /* times depth squared */
#define SEE_CAPTURE_MARGIN 90 /* times depth */

#define SE_MIN_DEPTH 8       /* singular extensions: shallowest node */
#define SE_TT_DEPTH_MARGIN 3 /* the TT entry may be this much shallower */
#define SE_BETA_PER_DEPTH 2  /* singular margin, cp per ply of depth */

#define LMR_BASE 0.80        /* reductions: base + log(depth) * log(moves) / div */
#define LMR_DIV 2.30
#define LMR_HISTORY_DIV 8000 /* one ply less per this much history */

#define HISTORY_MAX 16384
#define HISTORY_BONUS_MAX 1600

#define QS_DELTA_MARGIN 180  /* quiescence delta pruning */

#define CORR_GRAIN 256        /* correction history: entries in 1/256 cp */
#define CORR_WEIGHT_SCALE 1024 /* a new result weighs min(depth^2 + 2 depth + 1, 128) of this */
#define CORR_MAX (64 * CORR_GRAIN) /* at most 64 cp per table */

#endif
