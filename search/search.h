/* The search as the engine API sees it: the limits of one search and what
 * it reports while it thinks.  The thread pool that runs it is threads.h,
 * the transposition table tt.h, the meaning of its scores score.h; how a
 * thread searches (SearchThread, Stack, SearchShared) is private to
 * search/ (search_private.h).  The search reports through callbacks and
 * never prints. */
#ifndef CHUHAN_SEARCH_H
#define CHUHAN_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/board/position.h"

typedef struct {
    int64_t time[COLOR_NB], inc[COLOR_NB]; /* ms, < 0 when not given */
    int movestogo;
    int depth;        /* 0: none */
    uint64_t nodes;   /* 0: none */
    uint64_t soft_nodes; /* 0: none; else no iteration starts past this many nodes (nodes stays the hard cap) */
    int64_t movetime; /* ms, 0: none */
    int mate;         /* moves, 0: none */
    bool infinite, ponder;
    int nsearchmoves;
    Move searchmoves[MAX_MOVES];
} SearchLimits;

/* No limit at all: no clocks, depth, nodes or moves. */
void limits_clear(SearchLimits *limits);

/* How a reported score bounds the true one: exact, or the fail high (a
 * lower bound) or fail low (an upper bound) of an aspiration window. */
typedef enum { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT } Bound;

typedef struct {
    int depth, seldepth, multipv;
    int score; /* from the side to move's view (score.h) */
    int bound; /* a Bound */
    uint64_t nodes;
    int64_t time_ms;
    int hashfull;
    int pv_len;
    Move pv[MAX_PLY];
} SearchInfo;

/* Build the search's read-only tables (part of chuhan_init). */
void search_init(void);

#endif
