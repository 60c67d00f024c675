#include "pipe.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests.h"

long ep_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

bool ep_start(EngineProc *ep, const char *const argv[])
{
    int in[2], out[2];
    memset(ep, 0, sizeof *ep);
    signal(SIGPIPE, SIG_IGN);
    if (pipe(in) || pipe(out))
        return false;
    pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[1]);
        close(out[0]);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    ep->pid = pid;
    ep->to_fd = in[1];
    ep->from_fd = out[0];
    return true;
}

bool ep_start_engine(EngineProc *ep)
{
    const char *argv[] = {test_engine_path(), NULL};
    return ep_start(ep, argv);
}

void ep_send_raw(EngineProc *ep, const void *data, size_t len)
{
    const char *p = data;
    while (len) {
        ssize_t n = write(ep->to_fd, p, len);
        if (n <= 0) {
            if (n < 0 && errno == EINTR)
                continue;
            return;
        }
        p += n;
        len -= (size_t)n;
    }
}

void ep_send(EngineProc *ep, const char *fmt, ...)
{
    char buf[8192];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof buf - 2)
        n = (int)sizeof buf - 2;
    buf[n++] = '\n';
    ep_send_raw(ep, buf, (size_t)n);
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

static const char *read_line(EngineProc *ep, long timeout_ms)
{
    long deadline = ep_now_ms() + timeout_ms;
    for (;;) {
        char *nl = memchr(ep->buf, '\n', ep->len);
        if (nl) {
            size_t n = (size_t)(nl - ep->buf);
            memcpy(ep->line, ep->buf, n);
            ep->line[n] = 0;
            memmove(ep->buf, nl + 1, ep->len - n - 1);
            ep->len -= n + 1;
            ep->lines_read++;
            return ep->line;
        }
        long left = deadline - ep_now_ms();
        if (left <= 0 || ep->len == sizeof ep->buf)
            return NULL;
        struct pollfd pfd = {ep->from_fd, POLLIN, 0};
        int r = poll(&pfd, 1, (int)left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return NULL;
        ssize_t got = read(ep->from_fd, ep->buf + ep->len, sizeof ep->buf - ep->len);
        if (got <= 0)
            return NULL;
        ep->len += (size_t)got;
    }
}

const char *ep_read_line(EngineProc *ep, int timeout_ms) { return read_line(ep, (long)timeout_ms * ep_slow()); }

const char *ep_expect(EngineProc *ep, const char *prefix, int timeout_ms, char *log, size_t loglen)
{
    long deadline = ep_now_ms() + (long)timeout_ms * ep_slow();
    for (;;) {
        long left = deadline - ep_now_ms();
        const char *l = read_line(ep, left > 0 ? left : 0);
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
    close(ep->to_fd);
    long deadline = ep_now_ms() + (long)timeout_ms * ep_slow();
    int status = 0;
    for (;;) {
        pid_t r = waitpid(ep->pid, &status, WNOHANG);
        if (r == ep->pid)
            break;
        if (ep_now_ms() > deadline) {
            kill(ep->pid, SIGKILL);
            waitpid(ep->pid, &status, 0);
            close(ep->from_fd);
            return -1;
        }
        char sink[4096];
        struct pollfd pfd = {ep->from_fd, POLLIN, 0};
        if (poll(&pfd, 1, 10) > 0 && read(ep->from_fd, sink, sizeof sink) <= 0)
            usleep(1000);
    }
    close(ep->from_fd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
