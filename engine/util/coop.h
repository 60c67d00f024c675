/* Threads without threads, for the WebAssembly build that runs where a page
 * is not cross-origin isolated: there is no shared memory, so no pthreads,
 * and that build (the Makefile: chuhan-single.js) runs the engine's
 * threads as fibers on the worker's one thread instead (coop_wasm.c, over
 * emscripten's fibers and Asyncify).  A fiber runs until it waits (a
 * condition variable, a join) or until it passes coop_point, which the
 * search does now and then: there the page's messages are taken in and the
 * other fibers run, so that the protocol reads "stop" while the search
 * runs.  That build compiles every file with -include engine/util/coop.h
 * and -DCHUHAN_COOP, so that the engine's calls of the pthread functions
 * below become the fibers'; mutexes need nothing where nothing runs
 * between two switches (emscripten's single-thread ones do nothing).
 * Elsewhere coop_point is nothing. */
#ifndef CHUHAN_UTIL_COOP_H
#define CHUHAN_UTIL_COOP_H

#ifdef CHUHAN_COOP
#include <pthread.h>

/* Run fn(argc, argv) as the first fiber, on a stack of its own, and
 * return what it returns: the scheduler keeps the stack main() started
 * on, the one place where the worker's event loop is let in (Asyncify
 * unwinds it alone, never a fiber's). */
int coop_main(int (*fn)(int, char **), int argc, char **argv);
/* Let the page's messages in and the other fibers run, at most every few
 * milliseconds (cheap otherwise). */
void coop_point(void);

int coop_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);
int coop_join(pthread_t thread, void **ret);
int coop_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex);
int coop_cond_signal(pthread_cond_t *cond);
int coop_cond_broadcast(pthread_cond_t *cond);

#define pthread_create coop_create
#define pthread_join coop_join
#define pthread_cond_wait coop_cond_wait
#define pthread_cond_signal coop_cond_signal
#define pthread_cond_broadcast coop_cond_broadcast
#else
static inline int coop_main(int (*fn)(int, char **), int argc, char **argv) { return fn(argc, argv); }
static inline void coop_point(void) {}
#endif

#endif
