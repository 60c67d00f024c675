/* The thread pool: long-lived pthreads parked on a condition variable
 * between searches.  Thread 0 is the main search thread: it wakes the
 * helpers, manages time, waits for them, picks the move and reports it. */
#ifndef CHUHAN_THREADS_H
#define CHUHAN_THREADS_H

#include "search.h"

#define MAX_THREADS 1024

typedef struct ThreadPool ThreadPool;

/* on_bestmove is called once per search, from the main search thread. */
typedef void (*BestMoveFn)(void *ctx, Move best, Move ponder);

ThreadPool *pool_new(int threads, char *err, size_t errlen);
void pool_free(ThreadPool *pool);
/* Change the number of threads; only between searches. */
bool pool_resize(ThreadPool *pool, int threads, char *err, size_t errlen);
int pool_size(const ThreadPool *pool);
SearchThread *pool_thread(ThreadPool *pool, int i);

/* Start a search of root (copied into every thread) with shared; returns at
 * once.  The pool fills shared->threads/thread_count. */
void pool_start(ThreadPool *pool, SearchShared *shared, const Position *root, BestMoveFn on_bestmove, void *ctx);
/* Ask the search to stop; and the ponder hit (the search goes on, on time). */
void pool_stop(ThreadPool *pool);
void pool_ponderhit(ThreadPool *pool);
/* Wait until the search has finished and its best move was reported. */
void pool_wait(ThreadPool *pool);
bool pool_busy(ThreadPool *pool);

/* Copy the used part of a position (its state stack up to top). */
void pos_copy(Position *dst, const Position *src);

#endif
