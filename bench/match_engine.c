/* Engine processes for the match runner (see match_engine.h). */
#define _GNU_SOURCE /* pipe2 */
#include "match_engine.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/util/error.h"
#include "engine/board/types.h"
#include "search/timeman.h"

#define ME_BUF (2 * ME_LINE_MAX)
#define WRITE_TIMEOUT_MS 5000
#define STOP_WAIT_MS 1000
#define QUIT_WAIT_MS 1000

extern char **environ;

struct MatchEngine {
    const EngineSpec *spec;
    pid_t pid;       /* 0: no process */
    int to_fd, from_fd;
    bool running;
    int wait_status; /* of the last process, once reaped */
    bool reaped;
    bool millisec;   /* UCCI: the engine takes times in milliseconds */
    char buf[ME_BUF];
    size_t start, len; /* unread bytes: buf[start .. start + len) */
    bool discarding;   /* inside a line too long to keep */
    char line[ME_LINE_MAX + 1];
    char exit_text[64];
};

MatchEngine *me_new(const EngineSpec *spec)
{
    MatchEngine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->spec = spec;
    e->to_fd = e->from_fd = -1;
    return e;
}

bool me_running(const MatchEngine *e) { return e->running; }

static void close_fds(MatchEngine *e)
{
    if (e->to_fd >= 0)
        close(e->to_fd);
    if (e->from_fd >= 0)
        close(e->from_fd);
    e->to_fd = e->from_fd = -1;
}

/* Reap the process if it has exited (wait: block until it does). */
static bool reap(MatchEngine *e, bool wait)
{
    if (!e->pid || e->reaped)
        return true;
    int st;
    pid_t r;
    do
        r = waitpid(e->pid, &st, wait ? 0 : WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r == e->pid || (r < 0 && errno == ECHILD)) {
        e->reaped = true;
        e->wait_status = r == e->pid ? st : 0;
        return true;
    }
    return false;
}

void me_kill(MatchEngine *e)
{
    if (e->pid && !e->reaped) {
        kill(-e->pid, SIGKILL); /* its process group: the shell and what it started */
        kill(e->pid, SIGKILL);
        reap(e, true);
    }
    close_fds(e);
    e->running = false;
}

/* The process has gone (its output closed): reap it without blocking long. */
static void lost(MatchEngine *e)
{
    e->running = false;
    for (int i = 0; i < 50 && !reap(e, false); i++)
        usleep(2000);
    if (!e->reaped)
        me_kill(e);
    close_fds(e);
}

const char *me_exit_text(const MatchEngine *e)
{
    MatchEngine *m = (MatchEngine *)e;
    if (!e->pid || !e->reaped)
        snprintf(m->exit_text, sizeof m->exit_text, "running");
    else if (WIFEXITED(e->wait_status))
        snprintf(m->exit_text, sizeof m->exit_text, "exit status %d", WEXITSTATUS(e->wait_status));
    else if (WIFSIGNALED(e->wait_status))
        snprintf(m->exit_text, sizeof m->exit_text, "killed by signal %d", WTERMSIG(e->wait_status));
    else
        snprintf(m->exit_text, sizeof m->exit_text, "ended");
    return e->exit_text;
}

/* Write all of data before the deadline. */
static bool send_raw(MatchEngine *e, const char *data, size_t len)
{
    if (!e->running)
        return false;
    int64_t deadline = now_ms() + WRITE_TIMEOUT_MS;
    while (len) {
        ssize_t n = write(e->to_fd, data, len);
        if (n > 0) {
            data += n;
            len -= (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            int64_t left = deadline - now_ms();
            struct pollfd p = {e->to_fd, POLLOUT, 0};
            if (left > 0 && poll(&p, 1, (int)left) >= 0 && !(p.revents & (POLLERR | POLLHUP)))
                continue;
        }
        lost(e); /* closed its input, died, or stopped reading */
        return false;
    }
    return true;
}

static bool send_line(MatchEngine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool send_line(MatchEngine *e, const char *fmt, ...)
{
    char small[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return false;
    char *text = small;
    if ((size_t)n + 2 > sizeof small) {
        text = malloc((size_t)n + 2);
        if (!text)
            return false;
        va_start(ap, fmt);
        vsnprintf(text, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    text[n] = '\n';
    bool ok = send_raw(e, text, (size_t)n + 1);
    if (text != small)
        free(text);
    return ok;
}

/* The next line before the deadline: 1 (in e->line), 0 on timeout, -1 when
 * the engine's output has ended. */
static int read_line(MatchEngine *e, int64_t deadline)
{
    if (!e->running)
        return -1;
    for (;;) {
        char *nl = e->len ? memchr(e->buf + e->start, '\n', e->len) : NULL;
        if (nl) {
            size_t n = (size_t)(nl - (e->buf + e->start));
            bool keep = !e->discarding;
            if (keep) {
                size_t m = n;
                memcpy(e->line, e->buf + e->start, m);
                if (m && e->line[m - 1] == '\r')
                    m--;
                e->line[m] = 0;
                for (size_t i = 0; i < m; i++) /* a NUL or a tab must not cut or confuse the line */
                    if (e->line[i] == 0 || e->line[i] == '\t')
                        e->line[i] = ' ';
            }
            e->start += n + 1;
            e->len -= n + 1;
            if (!keep) {
                e->discarding = false;
                continue;
            }
            return 1;
        }
        if (e->len >= ME_LINE_MAX) { /* too long: drop what we have and the rest of the line */
            e->discarding = true;
            e->start = e->len = 0;
        }
        if (e->len == 0)
            e->start = 0;
        if (e->start + e->len == ME_BUF) {
            memmove(e->buf, e->buf + e->start, e->len);
            e->start = 0;
        }
        int64_t left = deadline - now_ms();
        if (left <= 0)
            return 0;
        struct pollfd p = {e->from_fd, POLLIN, 0};
        int r = poll(&p, 1, left > 60000 ? 60000 : (int)left);
        if (r < 0 && errno != EINTR) {
            lost(e);
            return -1;
        }
        if (r <= 0)
            continue;
        ssize_t got = read(e->from_fd, e->buf + e->start + e->len, ME_BUF - e->start - e->len);
        if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
            continue;
        if (got <= 0) {
            lost(e);
            return -1;
        }
        e->len += (size_t)got;
    }
}

/* Read lines until one starts with word (as a whole word); 1, 0 on timeout, -1 if gone. */
static int expect_word(MatchEngine *e, const char *word, int64_t deadline, bool *saw_millisec)
{
    size_t k = strlen(word);
    for (;;) {
        if (now_ms() > deadline) /* an engine that talks without end is still late */
            return 0;
        int r = read_line(e, deadline);
        if (r <= 0)
            return r;
        const char *l = e->line;
        while (*l == ' ')
            l++;
        if (saw_millisec && !strncmp(l, "option", 6) && strstr(l, "usemillisec"))
            *saw_millisec = true;
        if (!strncmp(l, word, k) && (l[k] == 0 || l[k] == ' '))
            return 1;
    }
}

static bool spawn(MatchEngine *e, char *err, size_t errlen)
{
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC))
        return err_set(err, errlen, "pipe: %s", strerror(errno));
    if (pipe2(out, O_CLOEXEC)) {
        close(in[0]);
        close(in[1]);
        return err_set(err, errlen, "pipe: %s", strerror(errno));
    }
    char *shell_cmd = NULL;
    const EngineSpec *s = e->spec;
    if (s->dir[0]) {
        /* cd 'dir' && cmd, with the quotes of dir escaped */
        size_t cap = strlen(s->cmd) + 4 * strlen(s->dir) + 16;
        shell_cmd = malloc(cap);
        if (shell_cmd) {
            size_t n = (size_t)snprintf(shell_cmd, cap, "cd '");
            for (const char *p = s->dir; *p; p++)
                n += (size_t)(*p == '\'' ? snprintf(shell_cmd + n, cap - n, "'\\''")
                                         : snprintf(shell_cmd + n, cap - n, "%c", *p));
            snprintf(shell_cmd + n, cap - n, "' && %s", s->cmd);
        }
    } else {
        shell_cmd = strdup(s->cmd);
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    sigset_t none, def;
    sigemptyset(&none);
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    sigaddset(&def, SIGINT);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &def);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    char *argv[] = {"sh", "-c", shell_cmd, NULL};
    pid_t pid = 0;
    int rc = shell_cmd ? posix_spawn(&pid, "/bin/sh", &fa, &attr, argv, environ) : ENOMEM;
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    free(shell_cmd);
    close(in[0]);
    close(out[1]);
    if (rc) {
        close(in[1]);
        close(out[0]);
        return err_set(err, errlen, "cannot start '%s': %s", s->cmd, strerror(rc));
    }
    e->pid = pid;
    e->reaped = false;
    e->wait_status = 0;
    e->to_fd = in[1];
    e->from_fd = out[0];
    fcntl(e->to_fd, F_SETFL, fcntl(e->to_fd, F_GETFL) | O_NONBLOCK);
    fcntl(e->from_fd, F_SETFL, fcntl(e->from_fd, F_GETFL) | O_NONBLOCK);
    e->start = e->len = 0;
    e->discarding = false;
    e->running = true;
    return true;
}

static bool handshake_fail(MatchEngine *e, int r, const char *what, char *err, size_t errlen)
{
    if (r == 0) {
        me_kill(e);
        return err_set(err, errlen, "%s: no %s within %lld ms", e->spec->name, what,
                    (long long)e->spec->limits.timeout_ms);
    }
    me_kill(e);
    return err_set(err, errlen, "%s: the engine ended (%s) before %s", e->spec->name, me_exit_text(e), what);
}

bool me_start(MatchEngine *e, char *err, size_t errlen)
{
    if (e->running)
        me_kill(e);
    if (!spawn(e, err, errlen))
        return false;
    const EngineSpec *s = e->spec;
    int64_t deadline = now_ms() + s->limits.timeout_ms;
    int r;
    e->millisec = false;
    if (s->proto == PROTO_UCCI) {
        bool ms = false;
        if (!send_line(e, "ucci") || (r = expect_word(e, "ucciok", deadline, &ms)) <= 0)
            return handshake_fail(e, e->running ? 0 : -1, "ucciok", err, errlen);
        if (ms) {
            e->millisec = true;
            send_line(e, "setoption usemillisec true");
        }
        for (int i = 0; i < s->noptions; i++)
            send_line(e, "setoption %s %s", s->options[i].name, s->options[i].value);
    } else {
        if (!send_line(e, "uci") || (r = expect_word(e, "uciok", deadline, NULL)) <= 0)
            return handshake_fail(e, e->running ? 0 : -1, "uciok", err, errlen);
        for (int i = 0; i < s->noptions; i++)
            send_line(e, "setoption name %s value %s", s->options[i].name, s->options[i].value);
    }
    if (!send_line(e, "isready") || (r = expect_word(e, "readyok", deadline, NULL)) <= 0)
        return handshake_fail(e, e->running ? 0 : -1, "readyok", err, errlen);
    return true;
}

bool me_new_game(MatchEngine *e, char *err, size_t errlen)
{
    if (!e->running)
        return err_set(err, errlen, "%s: not running", e->spec->name);
    if (e->spec->proto == PROTO_UCI)
        send_line(e, "ucinewgame");
    int r = -1;
    if (send_line(e, "isready"))
        r = expect_word(e, "readyok", now_ms() + e->spec->limits.timeout_ms, NULL);
    if (r <= 0)
        return handshake_fail(e, e->running ? 0 : -1, "readyok after a new game", err, errlen);
    return true;
}

/* ---- one move ---- */

static long long ucci_time(const MatchEngine *e, int64_t ms)
{
    if (ms < 0)
        ms = 0;
    return e->millisec ? (long long)ms : (long long)(ms / 1000);
}

static void go_text(const MatchEngine *e, const MeClock *c, char *out, size_t len)
{
    const MatchLimits *l = &e->spec->limits;
    size_t n = (size_t)snprintf(out, len, "go");
#define ADD(...) (n += (size_t)snprintf(out + n, n < len ? len - n : 0, __VA_ARGS__))
    if (e->spec->proto == PROTO_UCI) {
        if (l->clock && c) {
            ADD(" wtime %lld btime %lld", (long long)(c->time_ms[RED] > 0 ? c->time_ms[RED] : 0),
                (long long)(c->time_ms[BLACK] > 0 ? c->time_ms[BLACK] : 0));
            if (c->inc_ms[RED] || c->inc_ms[BLACK])
                ADD(" winc %lld binc %lld", (long long)c->inc_ms[RED], (long long)c->inc_ms[BLACK]);
            if (c->movestogo)
                ADD(" movestogo %d", c->movestogo);
        }
        if (l->movetime_ms)
            ADD(" movetime %lld", (long long)l->movetime_ms);
        if (l->depth)
            ADD(" depth %d", l->depth);
        if (l->nodes)
            ADD(" nodes %llu", (unsigned long long)l->nodes);
    } else {
        /* UCCI: go depth d | nodes n | time t [movestogo m | increment i] [opptime ot [oppmovestogo | oppincrement]] */
        if (l->clock && c) {
            int me = c->side, opp = !c->side;
            ADD(" time %lld", ucci_time(e, c->time_ms[me]));
            if (c->movestogo)
                ADD(" movestogo %d", c->movestogo);
            else if (c->inc_ms[me])
                ADD(" increment %lld", ucci_time(e, c->inc_ms[me]));
            ADD(" opptime %lld", ucci_time(e, c->time_ms[opp]));
            if (c->movestogo)
                ADD(" oppmovestogo %d", c->movestogo);
            else if (c->inc_ms[opp])
                ADD(" oppincrement %lld", ucci_time(e, c->inc_ms[opp]));
        } else if (l->movetime_ms) {
            ADD(" time %lld movestogo 1", ucci_time(e, l->movetime_ms));
        } else if (l->depth) {
            ADD(" depth %d", l->depth);
        } else if (l->nodes) {
            ADD(" nodes %llu", (unsigned long long)l->nodes);
        }
    }
#undef ADD
}

/* Scores and depth from an info line. */
static void parse_info(const char *line, MeReply *out)
{
    char copy[1024]; /* what comes before the pv is enough */
    size_t len = strnlen(line, sizeof copy - 1);
    memcpy(copy, line, len);
    copy[len] = 0;
    char *save = NULL;
    for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        if (!strcmp(t, "depth")) {
            char *v = strtok_r(NULL, " ", &save);
            if (v)
                out->depth = atoi(v);
        } else if (!strcmp(t, "score")) {
            char *v = strtok_r(NULL, " ", &save);
            if (!v)
                break;
            if (!strcmp(v, "cp") || !strcmp(v, "mate")) {
                char *num = strtok_r(NULL, " ", &save);
                if (!num)
                    break;
                long x = strtol(num, NULL, 10);
                if (x > 100000)
                    x = 100000;
                if (x < -100000)
                    x = -100000;
                out->has_score = true;
                if (v[0] == 'c') {
                    out->score = (int)x;
                    out->mate = 0;
                } else {
                    out->mate = (int)(x ? x : -1);
                    out->score = out->mate > 0 ? 100000 - out->mate : -100000 - out->mate;
                }
            } else { /* UCCI: score N */
                long x = strtol(v, NULL, 10);
                out->has_score = true;
                out->score = (int)(x > 100000 ? 100000 : x < -100000 ? -100000 : x);
                out->mate = 0;
            }
        } else if (!strcmp(t, "pv")) {
            break;
        }
    }
}

static bool parse_best(const char *line, MeReply *out)
{
    const char *l = line;
    while (*l == ' ')
        l++;
    if (!strncmp(l, "nobestmove", 10) && (l[10] == 0 || l[10] == ' ')) {
        out->nobestmove = true;
        out->move[0] = 0;
        return true;
    }
    if (strncmp(l, "bestmove", 8) || (l[8] != 0 && l[8] != ' '))
        return false;
    l += 8;
    while (*l == ' ')
        l++;
    size_t n = strcspn(l, " ");
    if (n >= sizeof out->move)
        n = sizeof out->move - 1;
    memcpy(out->move, l, n);
    out->move[n] = 0;
    return true;
}

MeStatus me_go(MatchEngine *e, const char *fen, const char *moves, const MeClock *clock, MeReply *out)
{
    memset(out, 0, sizeof *out);
    if (!e->running)
        return ME_DEAD;
    const MatchLimits *l = &e->spec->limits;
    bool ok;
    bool start = !fen || !*fen;
    const char *sep = moves && *moves ? " moves " : "";
    if (start && e->spec->proto == PROTO_UCI)
        ok = send_line(e, "position startpos%s%s", sep, moves ? moves : "");
    else
        ok = send_line(e, "position fen %s%s%s",
                       start ? "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1" : fen,
                       sep, moves ? moves : "");
    char go[256];
    go_text(e, clock, go, sizeof go);
    int64_t t0 = now_ms();
    if (!ok || !send_line(e, "%s", go))
        return ME_DEAD;
    int64_t budget = l->timeout_ms;
    if (l->clock && clock)
        budget = clock->time_ms[clock->side] + l->margin_ms;
    else if (l->movetime_ms)
        budget = l->movetime_ms + l->margin_ms;
    int64_t deadline = t0 + (budget > 0 ? budget : 0);
    for (;;) {
        int r = now_ms() > deadline ? 0 : read_line(e, deadline);
        if (r < 0) {
            out->elapsed_ms = now_ms() - t0;
            return ME_DEAD;
        }
        if (r == 0)
            break;
        if (!strncmp(e->line, "info", 4))
            parse_info(e->line, out);
        else if (parse_best(e->line, out)) {
            out->elapsed_ms = now_ms() - t0;
            return ME_OK;
        }
    }
    /* Out of time: stop it and give it a moment to answer, else kill it. */
    out->elapsed_ms = now_ms() - t0;
    if (send_line(e, "stop")) {
        int64_t stop_deadline = now_ms() + STOP_WAIT_MS;
        MeReply late = {0};
        for (;;) {
            int r = now_ms() > stop_deadline ? 0 : read_line(e, stop_deadline);
            if (r <= 0)
                break;
            if (parse_best(e->line, &late))
                return ME_TIMEOUT;
        }
    }
    me_kill(e);
    return ME_TIMEOUT;
}

void me_quit(MatchEngine *e)
{
    if (e->running) {
        send_line(e, "quit");
        int64_t deadline = now_ms() + QUIT_WAIT_MS;
        while (!reap(e, false) && now_ms() < deadline)
            usleep(2000);
    }
    me_kill(e);
}

void me_free(MatchEngine *e)
{
    if (!e)
        return;
    me_quit(e);
    free(e);
}

/* ---- time controls ---- */

static bool parse_seconds(const char *s, const char *end, int64_t *ms)
{
    if (s == end)
        return false;
    char buf[32];
    if ((size_t)(end - s) >= sizeof buf)
        return false;
    memcpy(buf, s, (size_t)(end - s));
    buf[end - s] = 0;
    char *stop;
    double v = strtod(buf, &stop);
    if (*stop || !(v >= 0) || v > 1e7)
        return false;
    *ms = (int64_t)(v * 1000 + 0.5);
    return true;
}

bool me_parse_tc(const char *text, MatchLimits *l)
{
    const char *p = text, *end = text + strlen(text);
    int moves = 0;
    const char *slash = strchr(p, '/');
    if (slash) {
        char *stop;
        long m = strtol(p, &stop, 10);
        if (stop != slash || m < 1 || m > 1000)
            return false;
        moves = (int)m;
        p = slash + 1;
    }
    const char *plus = strchr(p, '+');
    int64_t base, inc = 0;
    if (!parse_seconds(p, plus ? plus : end, &base))
        return false;
    if (plus && !parse_seconds(plus + 1, end, &inc))
        return false;
    if (base <= 0 && inc <= 0)
        return false;
    l->clock = true;
    l->moves = moves;
    l->base_ms = base;
    l->inc_ms = inc;
    return true;
}

static void seconds_text(int64_t ms, char *out, size_t len)
{
    if (ms % 1000 == 0)
        snprintf(out, len, "%lld", (long long)(ms / 1000));
    else {
        snprintf(out, len, "%.3f", (double)ms / 1000);
        size_t n = strlen(out);
        while (n && out[n - 1] == '0')
            out[--n] = 0;
    }
}

void me_limits_text(const MatchLimits *l, char *out, size_t len)
{
    size_t n = 0;
    out[0] = 0;
#define ADD(...) (n += (size_t)snprintf(out + n, n < len ? len - n : 0, __VA_ARGS__))
    if (l->clock) {
        char b[32], i[32];
        seconds_text(l->base_ms, b, sizeof b);
        seconds_text(l->inc_ms, i, sizeof i);
        if (l->moves)
            ADD("%d/", l->moves);
        ADD("%s", b);
        if (l->inc_ms)
            ADD("+%s", i);
    }
    if (l->movetime_ms)
        ADD("%smovetime=%lld", n ? " " : "", (long long)l->movetime_ms);
    if (l->depth)
        ADD("%sdepth=%d", n ? " " : "", l->depth);
    if (l->nodes)
        ADD("%snodes=%llu", n ? " " : "", (unsigned long long)l->nodes);
#undef ADD
}
