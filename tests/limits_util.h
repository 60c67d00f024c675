/* What the limits groups share (test_limits.c, test_search_limits.c): the
 * engine under test started in one protocol with its book off, as cmocka
 * set-ups whose state is the test file's EngineProc, and the waits and
 * games their tests use. */
#ifndef CHUHAN_TESTS_LIMITS_UTIL_H
#define CHUHAN_TESTS_LIMITS_UTIL_H

#include <stddef.h>

#include "pipe.h"

/* Generous: the sanitizer builds run several times slower. */
#define LIMITS_WAIT_MS 30000

/* malloc, or abort. */
__attribute__((returns_nonnull)) void *limits_xmalloc(size_t n);

/* Start the engine under test into ep and send hello (NULL: nothing);
 * 0, or -1 when it cannot start. */
int limits_start(EngineProc *ep, const char *hello);
/* Set-ups (state: the EngineProc): the engine in UCI, UCCI or xboard with
 * its book off, or started with nothing sent; the tear-down quits it. */
int limits_setup_uci(void **state);
int limits_setup_ucci(void **state);
int limits_setup_xboard(void **state);
int limits_setup_bare(void **state);
int limits_teardown(void **state);

/* Lines up to one starting with either prefix, into ep->log. */
const char *limits_expect_either(EngineProc *ep, const char *a, const char *b, int timeout_ms);
/* Fails the test unless text is in ep->log. */
void limits_expect_in_log(const EngineProc *ep, const char *text);
/* UCI: isready answered, and what came before it. */
void limits_sync_uci(EngineProc *ep);
/* xboard: ping n answered. */
void limits_sync_xboard(EngineProc *ep, int n);
/* A legal game of n plies from the start: horses out and back (to free). */
char *limits_horse_shuffle(int plies);

#endif
