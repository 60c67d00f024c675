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
    char log[1 << 16]; /* the lines ep_want read */
    int pings;         /* xboard pings sent */
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
/* Lines up to one starting with prefix, all of them into ep->log; fails
 * the test, showing them, when none comes within timeout_ms. */
const char *ep_want(EngineProc *ep, const char *prefix, int timeout_ms);
/* Does a line of log start with prefix? */
bool log_has_line(const char *log, const char *prefix);

/* How a protocol answers bad input, for ep_check_malformed. */
typedef struct {
    /* a command answered once everything sent before it is served; true
     * when the answer came, the lines up to it in ep->log */
    bool (*sync)(EngineProc *ep);
    const char *refusal[2]; /* a bad line is answered with a line starting so (the second may be NULL) */
    const char *never;      /* and no line starts so (a move, a search) */
    const char *too_long;   /* the answer to a line over the input limit */
} EpProtocol;

extern const EpProtocol EP_UCI, EP_UCCI, EP_CECP;

/* Commands that UCI and UCCI both refuse. */
#define EP_BAD_COMMANDS_NB 14
extern const char *const EP_BAD_COMMANDS[EP_BAD_COMMANDS_NB];

/* Send each of lines, then one over the input limit: each must be refused
 * as the protocol does, nothing else may happen, and the engine goes on
 * serving. */
void ep_check_malformed(EngineProc *ep, const EpProtocol *proto, const char *const *lines, size_t n);

/* The move of a reply line "PREFIX move ..." (into move, 16 bytes) must be
 * legal after fen (NULL: the start) and the moves (UCI text). */
void ep_assert_legal_reply(const char *line, const char *prefix, const char *fen, const char *moves, char *move);

/* A debug log file (Debug Log File) split by direction: the lines the
 * engine read into in, those it wrote into out (each line ending in a
 * newline, in the order logged).  Fails the test on a line not of the form
 * "YYYY-MM-DD HH:MM:SS.mmm >> text" or "... << text", or on a time going
 * backwards. */
void dlog_split(const char *path, char *in, size_t inlen, char *out, size_t outlen);

/* Close its input and wait for it (killing it after timeout_ms); returns the
 * exit status, or -1 when it had to be killed or died by a signal. */
int ep_finish(EngineProc *ep, int timeout_ms);

#endif
