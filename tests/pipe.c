#include "pipe.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tests.h"

/* A write the engine does not take in this long means it stopped reading. */
#define WRITE_MS 10000

bool ep_start(EngineProc *ep, const char *const argv[])
{
    memset(ep, 0, sizeof *ep);
    char err[256];
    if (!proc_start(&ep->proc, argv, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return false;
    }
    return true;
}

bool ep_start_engine(EngineProc *ep)
{
    const char *argv[] = {test_engine_path(), NULL};
    return ep_start(ep, argv);
}

void ep_send_raw(EngineProc *ep, const void *data, size_t len)
{
    proc_write(&ep->proc, data, len, (int64_t)WRITE_MS * ep_slow());
}

void ep_send(EngineProc *ep, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    proc_vprintf(&ep->proc, (int64_t)WRITE_MS * ep_slow(), fmt, ap);
    va_end(ap);
}

int ep_slow(void)
{
    static int scale;
    if (!scale) {
        const char *env = getenv("CHUHAN_TEST_SLOW");
        scale = env && atoi(env) > 0 ? atoi(env) : 1;
#if defined(__SANITIZE_THREAD__)
        if (!env)
            scale = 10;
#elif defined(__SANITIZE_ADDRESS__)
        if (!env)
            scale = 4;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
        if (!env)
            scale = 10;
#elif __has_feature(address_sanitizer)
        if (!env)
            scale = 4;
#endif
#endif
    }
    return scale;
}

static const char *read_line(EngineProc *ep, int64_t deadline)
{
    return proc_read_line(&ep->proc, deadline) > 0 ? ep->proc.line : NULL;
}

const char *ep_read_line(EngineProc *ep, int timeout_ms)
{
    return read_line(ep, now_ms() + (int64_t)timeout_ms * ep_slow());
}

const char *ep_expect(EngineProc *ep, const char *prefix, int timeout_ms, char *log, size_t loglen)
{
    int64_t deadline = now_ms() + (int64_t)timeout_ms * ep_slow();
    for (;;) {
        const char *l = read_line(ep, deadline);
        if (!l)
            return NULL;
        if (log) {
            size_t n = strlen(log);
            snprintf(log + n, loglen - n, "%s\n", l);
        }
        if (!strncmp(l, prefix, strlen(prefix)))
            return l;
    }
}

int ep_finish(EngineProc *ep, int timeout_ms)
{
    proc_close_input(&ep->proc);
    if (!proc_wait(&ep->proc, now_ms() + (int64_t)timeout_ms * ep_slow())) {
        proc_kill(&ep->proc);
        return -1;
    }
    int status = ep->proc.wait_status;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
