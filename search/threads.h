/* The thread pool that runs a search: long-lived pthreads parked on a
 * condition variable between searches (Lazy SMP).  Thread 0 is the main
 * search thread: it wakes the helpers, manages time, waits for them,
 * picks the move and reports it. */
#ifndef CHUHAN_THREADS_H
#define CHUHAN_THREADS_H

#include "eval/nnue/nnue.h"
#include "search.h"
#include "tt.h"

#define MAX_THREADS 1024

typedef struct ThreadPool ThreadPool;

/* How a search plays, beyond its limits. */
typedef struct {
    int multipv;
    int rule;              /* repetition rule set (engine/rules/rules.h) */
    int sixty_move_plies;  /* 0: no 60-move rule */
    int64_t move_overhead; /* ms kept back from every clock */
    const NnueNet *net;    /* NULL: the hand-written evaluation */
} SearchSettings;

/* Where a search reports: every line of thinking (info, from the main
 * search thread; NULL: silent) and, once per search, the move. */
typedef struct {
    void (*info)(void *ctx, const SearchInfo *info);
    void (*bestmove)(void *ctx, Move best, Move ponder);
    void *ctx;
} SearchReport;

ThreadPool *pool_new(int threads, char *err, size_t errlen);
void pool_free(ThreadPool *pool);
/* Change the number of threads; only between searches. */
bool pool_resize(ThreadPool *pool, int threads, char *err, size_t errlen);
int pool_size(const ThreadPool *pool);
/* A new game: every thread forgets its histories. */
void pool_new_game(ThreadPool *pool);

/* Start a search of root (copied into every thread) with table tt; returns
 * at once. */
void pool_start(ThreadPool *pool, TT *tt, const Position *root, const SearchLimits *limits,
                const SearchSettings *settings, const SearchReport *report);
/* Ask the search to stop; and the ponder hit (the search goes on, on time). */
void pool_stop(ThreadPool *pool);
void pool_ponderhit(ThreadPool *pool);
/* Wait until the search has finished and its best move was reported. */
void pool_wait(ThreadPool *pool);
/* A search is running (until its move is reported). */
bool pool_busy(ThreadPool *pool);
/* A search is running and has not been told to stop. */
bool pool_thinking(ThreadPool *pool);
/* Nodes of the running or the last search, all threads. */
uint64_t pool_nodes(ThreadPool *pool);

/* What backs the move a search played (for a vote among several
 * searches): its line, score and completed depth. */
typedef struct {
    Move move, ponder;
    int score, depth, seldepth;
    int pv_len;
    Move pv[MAX_PLY];
} SearchResult;
/* The last search's result: ready when its bestmove is reported (inside
 * that report too), kept until the next search. */
void pool_result(ThreadPool *pool, SearchResult *out);

#endif
