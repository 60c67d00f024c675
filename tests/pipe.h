/* Drive the engine binary through pipes, as a GUI does (a child process of
 * engine/util/proc.h), with the tests' time limits. */
#ifndef CHUHAN_TESTS_PIPE_H
#define CHUHAN_TESTS_PIPE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/util/clock.h"
#include "engine/util/proc.h"

typedef struct {
    Proc proc;
} EngineProc;

/* Start argv[0] with argv (NULL-terminated); false if it cannot start. */
bool ep_start(EngineProc *ep, const char *const argv[]);
/* Start the engine under test with no arguments. */
bool ep_start_engine(EngineProc *ep);
/* Send one line (a newline is added). */
void ep_send(EngineProc *ep, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Send raw bytes. */
void ep_send_raw(EngineProc *ep, const void *data, size_t len);
/* How many times slower than a release build the engine under test runs:
 * 1, or 4 under AddressSanitizer and 10 under ThreadSanitizer (the test
 * binary is built like the engine), or CHUHAN_TEST_SLOW.  Every timeout
 * below is multiplied by it, and so are the tests' bounds on how long the
 * engine may take; the release build keeps the exact bounds. */
int ep_slow(void);
/* Next line within timeout_ms, or NULL (timeout or end of output). */
const char *ep_read_line(EngineProc *ep, int timeout_ms);
/* Read lines until one starts with prefix; NULL on timeout.  Every line
 * read is also appended to log (if not NULL, of size loglen). */
const char *ep_expect(EngineProc *ep, const char *prefix, int timeout_ms, char *log, size_t loglen);
/* Close its input and wait for it (killing it after timeout_ms); returns the
 * exit status, or -1 when it had to be killed or died by a signal. */
int ep_finish(EngineProc *ep, int timeout_ms);

#endif
