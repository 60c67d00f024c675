#define _GNU_SOURCE /* pipe2 */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "error.h"

extern char **environ;

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static void ignore_sigpipe(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
}

bool proc_start(Proc *p, const char *const argv[], char *err, size_t errlen)
{
    proc_kill(p);
    p->pid = 0;
    p->to_fd = p->from_fd = -1;
    ignore_sigpipe();
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC))
        return err_set(err, errlen, "pipe: %s", strerror(errno));
    if (pipe2(out, O_CLOEXEC)) {
        close(in[0]);
        close(in[1]);
        return err_set(err, errlen, "pipe: %s", strerror(errno));
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    /* the child starts with no signal blocked and SIGPIPE and SIGINT at
     * their defaults, whatever the parent has made of them */
    sigset_t none, def;
    sigemptyset(&none);
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    sigaddset(&def, SIGINT);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &def);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = 0;
    int rc = posix_spawn(&pid, argv[0], &fa, &attr, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(in[0]);
    close(out[1]);
    if (rc) {
        close(in[1]);
        close(out[0]);
        return err_set(err, errlen, "cannot start %s: %s", argv[0], strerror(rc));
    }
    p->pid = pid;
    p->to_fd = in[1];
    p->from_fd = out[0];
    fcntl(p->to_fd, F_SETFL, fcntl(p->to_fd, F_GETFL) | O_NONBLOCK);
    fcntl(p->from_fd, F_SETFL, fcntl(p->from_fd, F_GETFL) | O_NONBLOCK);
    p->eof = p->reaped = false;
    p->wait_status = 0;
    proc_lines_reset(&p->out);
    return true;
}

bool proc_alive(const Proc *p) { return p->pid > 0 && !p->reaped; }

bool proc_write(Proc *p, const void *data, size_t len, int64_t timeout_ms)
{
    if (p->pid <= 0 || p->to_fd < 0)
        return false;
    const char *d = data;
    int64_t deadline = now_ms() + timeout_ms;
    while (len) {
        ssize_t n = write(p->to_fd, d, len);
        if (n > 0) {
            d += n;
            len -= (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            int64_t left = deadline - now_ms();
            struct pollfd pfd = {p->to_fd, POLLOUT, 0};
            if (left > 0 && poll(&pfd, 1, (int)(left > 60000 ? 60000 : left)) >= 0
                && !(pfd.revents & (POLLERR | POLLHUP)))
                continue;
        }
        return false; /* closed its input, died, or stopped reading */
    }
    return true;
}

bool proc_vprintf(Proc *p, int64_t timeout_ms, const char *fmt, va_list ap)
{
    char small[1024];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    char *text = small;
    if (n >= 0 && (size_t)n + 2 > sizeof small) {
        text = malloc((size_t)n + 2);
        if (text)
            vsnprintf(text, (size_t)n + 1, fmt, again);
    }
    va_end(again);
    if (n < 0 || !text)
        return false;
    text[n] = '\n';
    bool ok = proc_write(p, text, (size_t)n + 1, timeout_ms);
    if (text != small)
        free(text);
    return ok;
}

void proc_lines_reset(ProcLines *l)
{
    l->start = l->len = 0;
    l->discarding = false;
    l->line[0] = 0;
}

bool proc_lines_next(ProcLines *l)
{
    for (;;) {
        char *nl = l->len ? memchr(l->buf + l->start, '\n', l->len) : NULL;
        if (!nl)
            return false;
        size_t n = (size_t)(nl - (l->buf + l->start));
        /* the buffer holds lines up to twice the longest kept: one that
         * arrived whole may still be too long */
        bool keep = !l->discarding && n <= PROC_LINE_MAX;
        if (keep) {
            size_t m = n;
            memcpy(l->line, l->buf + l->start, m);
            if (m && l->line[m - 1] == '\r')
                m--;
            l->line[m] = 0;
            for (size_t i = 0; i < m; i++) /* a NUL or a tab must not cut or confuse the line */
                if (l->line[i] == 0 || l->line[i] == '\t')
                    l->line[i] = ' ';
        }
        l->start += n + 1;
        l->len -= n + 1;
        l->discarding = false;
        if (keep)
            return true;
    }
}

char *proc_lines_room(ProcLines *l, size_t *room)
{
    if (l->len >= PROC_LINE_MAX) { /* too long: drop what we have and the rest of the line */
        l->discarding = true;
        l->start = l->len = 0;
    }
    if (l->len == 0)
        l->start = 0;
    if (l->start + l->len == sizeof l->buf) {
        memmove(l->buf, l->buf + l->start, l->len);
        l->start = 0;
    }
    *room = sizeof l->buf - l->start - l->len;
    return l->buf + l->start + l->len;
}

void proc_lines_added(ProcLines *l, size_t n) { l->len += n; }

int proc_read_line(Proc *p, int64_t deadline)
{
    for (;;) {
        if (proc_lines_next(&p->out))
            return 1;
        if (p->pid <= 0 || p->eof || p->from_fd < 0)
            return -1;
        size_t room;
        char *at = proc_lines_room(&p->out, &room);
        int64_t left = deadline - now_ms();
        if (left <= 0)
            return 0;
        struct pollfd pfd = {p->from_fd, POLLIN, 0};
        int r = poll(&pfd, 1, left > 60000 ? 60000 : (int)left);
        if (r < 0 && errno != EINTR) {
            p->eof = true;
            return -1;
        }
        if (r <= 0)
            continue;
        ssize_t got = read(p->from_fd, at, room);
        if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
            continue;
        if (got <= 0) {
            p->eof = true;
            return -1;
        }
        proc_lines_added(&p->out, (size_t)got);
    }
}

void proc_close_input(Proc *p)
{
    if (p->pid > 0)
        close_fd(&p->to_fd);
}

/* Reap the child if it has exited (block: until it does). */
static bool reap(Proc *p, bool block)
{
    if (p->pid <= 0 || p->reaped)
        return true;
    int st;
    pid_t r;
    do
        r = waitpid(p->pid, &st, block ? 0 : WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r == p->pid || (r < 0 && errno == ECHILD)) {
        p->reaped = true;
        p->wait_status = r == p->pid ? st : 0;
        return true;
    }
    return false;
}

bool proc_wait(Proc *p, int64_t deadline)
{
    if (p->pid <= 0)
        return true;
    while (!reap(p, false)) {
        int64_t left = deadline - now_ms();
        if (left <= 0)
            return false;
        char sink[4096];
        struct pollfd pfd = {p->from_fd, POLLIN, 0};
        if (p->from_fd >= 0 && !p->eof && poll(&pfd, 1, left < 10 ? (int)left : 10) > 0) {
            ssize_t got = read(p->from_fd, sink, sizeof sink);
            if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN))
                p->eof = true;
        } else {
            usleep(1000);
        }
    }
    close_fd(&p->to_fd);
    close_fd(&p->from_fd);
    return true;
}

void proc_kill(Proc *p)
{
    if (p->pid <= 0) /* never started: its fds are not ours to close */
        return;
    if (!p->reaped) {
        kill(-p->pid, SIGKILL); /* its process group: a shell and what it started */
        kill(p->pid, SIGKILL);
        reap(p, true);
    }
    close_fd(&p->to_fd);
    close_fd(&p->from_fd);
}

const char *proc_exit_text(const Proc *p, char *buf, size_t len)
{
    if (p->pid <= 0 || !p->reaped)
        snprintf(buf, len, "running");
    else if (WIFEXITED(p->wait_status))
        snprintf(buf, len, "exit status %d", WEXITSTATUS(p->wait_status));
    else if (WIFSIGNALED(p->wait_status))
        snprintf(buf, len, "killed by signal %d", WTERMSIG(p->wait_status));
    else
        snprintf(buf, len, "ended");
    return buf;
}
