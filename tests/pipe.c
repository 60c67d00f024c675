#include "pipe.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "engine/board/movegen.h"
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
    return proc_read_line(&ep->proc, deadline) > 0 ? ep->proc.out.line : NULL;
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

const char *ep_want(EngineProc *ep, const char *prefix, int timeout_ms)
{
    ep->log[0] = 0;
    const char *l = ep_expect(ep, prefix, timeout_ms, ep->log, sizeof ep->log);
    if (!l)
        fail_msg("no '%s' within %d ms; got:\n%.4000s", prefix, timeout_ms, ep->log);
    return l;
}

bool log_has_line(const char *log, const char *prefix)
{
    size_t n = strlen(prefix);
    for (const char *p = log; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (!strncmp(p, prefix, n))
            return true;
    return false;
}

static bool sync_isready(EngineProc *ep)
{
    ep_send(ep, "isready");
    ep->log[0] = 0;
    return ep_expect(ep, "readyok", 5000, ep->log, sizeof ep->log) != NULL;
}

static bool sync_ping(EngineProc *ep)
{
    char want[32];
    ep_send(ep, "ping %d", ++ep->pings);
    snprintf(want, sizeof want, "pong %d", ep->pings);
    ep->log[0] = 0;
    const char *l = ep_expect(ep, want, 20000, ep->log, sizeof ep->log);
    return l && !strcmp(l, want);
}

const EpProtocol EP_UCI = {sync_isready, {"info string ", NULL}, "bestmove", "info string input line longer"};
const EpProtocol EP_UCCI = {sync_isready, {"info message ", NULL}, "bestmove", "info message input line longer"};
const EpProtocol EP_CECP = {sync_ping, {"Error (", "Illegal move"}, "move ", "Error (line too long)"};

const char *const EP_BAD_COMMANDS[EP_BAD_COMMANDS_NB] = {
    "foo",
    "position",
    "position fen",
    "position fen xyz",
    "position startpos moves h2h8",
    "position startpos blah",
    "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w",
    "go depth",
    "go depth abc",
    "go nodes x",
    "setoption",
    "setoption name",
    "setoption name Foo value 3",
    "\x01\x02\x03",
};

void ep_check_malformed(EngineProc *ep, const EpProtocol *proto, const char *const *lines, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ep_send(ep, "%s", lines[i]);
        bool answered = proto->sync(ep);
        bool refused = log_has_line(ep->log, proto->refusal[0])
                    || (proto->refusal[1] && log_has_line(ep->log, proto->refusal[1]));
        if (!answered || !refused || log_has_line(ep->log, proto->never))
            fail_msg("'%s': expected a refusal ('%s') and nothing else, got:\n%s", lines[i], proto->refusal[0],
                     ep->log);
    }
    size_t big = 300 * 1024;
    char *line = malloc(big + 1);
    assert_non_null(line);
    memset(line, 'x', big);
    line[big] = '\n';
    ep_send_raw(ep, line, big + 1);
    free(line);
    if (!proto->sync(ep) || !strstr(ep->log, proto->too_long))
        fail_msg("a line of %zu bytes: expected '%s', got:\n%s", big, proto->too_long, ep->log);
}

void ep_assert_legal_reply(const char *line, const char *prefix, const char *fen, const char *moves, char *move)
{
    Position *pos = malloc(sizeof *pos);
    assert_non_null(pos);
    assert_true(pos_set_fen(pos, fen ? fen : START_FEN, NULL, 0));
    char *copy = strdup(moves ? moves : "");
    assert_non_null(copy);
    for (char *save = NULL, *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        Move m = parse_move(pos, t, false);
        assert_int_not_equal(m, MOVE_NONE);
        pos_do_move(pos, m);
    }
    free(copy);
    char fmt[32], text[16] = "";
    snprintf(fmt, sizeof fmt, "%s %%15s", prefix);
    bool legal = sscanf(line, fmt, text) == 1 && parse_move(pos, text, false) != MOVE_NONE;
    free(pos);
    if (!legal)
        fail_msg("'%s' is not a legal move here", line);
    if (move)
        snprintf(move, 16, "%s", text);
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

void dlog_split(const char *path, char *in, size_t inlen, char *out, size_t outlen)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot read the debug log %s", path);
    in[0] = out[0] = 0;
    char line[8192], last[24] = "";
    while (fgets(line, sizeof line, f)) {
        int y, mo, d, h, mi, sec, ms, n = 0;
        char dir[3];
        if (sscanf(line, "%4d-%2d-%2d %2d:%2d:%2d.%3d %2s%n", &y, &mo, &d, &h, &mi, &sec, &ms, dir, &n) != 8
            || n != 26 || line[26] != ' ' || (strcmp(dir, ">>") && strcmp(dir, "<<")))
            fail_msg("debug log line not 'YYYY-MM-DD HH:MM:SS.mmm >>|<< text': %s", line);
        if (strncmp(last, line, 23) > 0)
            fail_msg("debug log time goes backwards: %.23s after %s", line, last);
        snprintf(last, sizeof last, "%.23s", line);
        char *dst = dir[0] == '>' ? in : out;
        size_t len = dir[0] == '>' ? inlen : outlen, used = strlen(dst);
        snprintf(dst + used, len - used, "%s", line + 27);
    }
    fclose(f);
}
