/* Engine processes for the match runner (see match_engine.h). */
#include "match_engine.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/board/types.h"
#include "engine/util/clock.h"
#include "engine/util/error.h"
#include "engine/util/num.h"
#include "engine/util/proc.h"

#define WRITE_TIMEOUT_MS 5000
#define STOP_WAIT_MS 1000
#define QUIT_WAIT_MS 1000
#define LOST_WAIT_MS 100

struct MatchEngine {
    const EngineSpec *spec;
    Proc proc;
    bool running;  /* started, and neither gone nor killed since */
    bool millisec; /* UCCI: the engine takes times in milliseconds */
    char exit_text[64];
};

MatchEngine *me_new(const EngineSpec *spec)
{
    MatchEngine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->spec = spec;
    return e;
}

bool me_running(const MatchEngine *e) { return e->running; }

void me_kill(MatchEngine *e)
{
    proc_kill(&e->proc);
    e->running = false;
}

/* The process has gone (its output closed, or it stopped reading): reap it
 * without waiting long. */
static void lost(MatchEngine *e)
{
    e->running = false;
    proc_close_input(&e->proc);
    proc_wait(&e->proc, now_ms() + LOST_WAIT_MS);
    proc_kill(&e->proc);
}

const char *me_exit_text(const MatchEngine *e)
{
    MatchEngine *m = (MatchEngine *)e;
    return proc_exit_text(&e->proc, m->exit_text, sizeof m->exit_text);
}

static bool send_line(MatchEngine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool send_line(MatchEngine *e, const char *fmt, ...)
{
    if (!e->running)
        return false;
    va_list ap;
    va_start(ap, fmt);
    bool ok = proc_vprintf(&e->proc, WRITE_TIMEOUT_MS, fmt, ap);
    va_end(ap);
    if (!ok)
        lost(e);
    return ok;
}

/* The next line before the deadline: 1 (in e->proc.out.line), 0 on timeout, -1
 * when the engine's output has ended. */
static int read_line(MatchEngine *e, int64_t deadline)
{
    if (!e->running)
        return -1;
    int r = proc_read_line(&e->proc, deadline);
    if (r < 0)
        lost(e);
    return r;
}

/* ---- the options an engine lists ---- */

/* What the handshake's option lines said ("option name N type T ..." in
 * UCI, "option N type T ..." in UCCI): the spec's options are checked
 * against them before they are sent, since an engine answers a setoption
 * it does not take with at most an info line, and a match of an engine
 * that silently kept its defaults measures the wrong thing. */
#define LISTED_MAX 160
typedef struct {
    int n;
    MeOption o[LISTED_MAX];
} Listed;

/* The number after " word " in text, if there is one. */
static bool option_number(const char *text, const char *word, long *out)
{
    char key[16];
    snprintf(key, sizeof key, " %s ", word);
    const char *p = strstr(text, key);
    if (!p)
        return false;
    char num[32];
    if (sscanf(p + strlen(key), "%31s", num) != 1)
        return false;
    return num_parse(num, -2147483647L - 1, 2147483647L, out);
}

bool me_parse_option(const char *l, MeOption *out)
{
    if (strncmp(l, "option", 6) || (l[6] != ' ' && l[6] != '\0'))
        return false;
    const char *name = l + 6, *end, *type;
    while (*name == ' ')
        name++;
    if (!strncmp(name, "name ", 5)) {
        for (name += 5; *name == ' ';)
            name++;
        type = strstr(name, " type ");
        end = type ? type : name + strlen(name);
    } else {
        end = name + strcspn(name, " ");
        type = strstr(end, " type ");
    }
    while (end > name && end[-1] == ' ')
        end--;
    size_t len = (size_t)(end - name);
    if (!len || len >= sizeof out->name)
        return false;
    memset(out, 0, sizeof *out);
    memcpy(out->name, name, len);
    if (type) {
        sscanf(type + 6, "%7s", out->type);
        out->has_min = option_number(type, "min", &out->min);
        out->has_max = option_number(type, "max", &out->max);
    }
    return true;
}

static int listed_find(const Listed *ls, const char *name)
{
    for (int k = 0; k < ls->n; k++)
        if (!strcasecmp(ls->o[k].name, name))
            return k;
    return -1;
}

/* Each option of the spec is one the engine listed, with a value of its
 * type: a whole number within a spin's range, true or false for a check. */
static bool check_options(const MatchEngine *e, const Listed *ls, char *err, size_t errlen)
{
    const EngineSpec *s = e->spec;
    for (int i = 0; i < s->noptions; i++) {
        const char *name = s->options[i].name, *v = s->options[i].value;
        int k = listed_find(ls, name);
        if (k < 0) {
            char names[200] = "";
            size_t n = 0;
            for (int j = 0; j < ls->n && n < sizeof names; j++)
                n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", j ? ", " : "", ls->o[j].name);
            if (n >= sizeof names)
                memcpy(names + sizeof names - 4, "...", 4);
            return err_set(err, errlen, "the engine lists no option '%s' (its options: %s)", name,
                           ls->n ? names : "none");
        }
        const char *type = ls->o[k].type;
        long x;
        if (!strcasecmp(type, "spin")
            && !num_parse(v, ls->o[k].has_min ? ls->o[k].min : -2147483647L - 1,
                          ls->o[k].has_max ? ls->o[k].max : 2147483647L, &x))
            return err_set(err, errlen, "option %s=%s: the engine takes a whole number from %ld to %ld", name, v,
                           ls->o[k].min, ls->o[k].max);
        if (!strcasecmp(type, "check") && strcasecmp(v, "true") && strcasecmp(v, "false"))
            return err_set(err, errlen, "option %s=%s: the engine takes true or false", name, v);
    }
    return true;
}

/* Read lines until one starts with word (as a whole word); 1, 0 on timeout,
 * -1 if gone.  The option lines on the way go to ls, if given. */
static int expect_word(MatchEngine *e, const char *word, int64_t deadline, Listed *ls)
{
    size_t k = strlen(word);
    for (;;) {
        if (now_ms() > deadline) /* an engine that talks without end is still late */
            return 0;
        int r = read_line(e, deadline);
        if (r <= 0)
            return r;
        const char *l = e->proc.out.line;
        while (*l == ' ')
            l++;
        if (ls && ls->n < LISTED_MAX && me_parse_option(l, &ls->o[ls->n]))
            ls->n++;
        if (!strncmp(l, word, k) && (l[k] == 0 || l[k] == ' '))
            return 1;
    }
}

/* sh -c CMD, or sh -c "cd 'DIR' && CMD" with the quotes of DIR escaped. */
bool me_spawn(const EngineSpec *s, Proc *proc, char *err, size_t errlen)
{
    size_t cap = strlen(s->cmd) + 4 * strlen(s->dir) + 16;
    char *shell_cmd = malloc(cap);
    if (!shell_cmd)
        return err_set(err, errlen, "out of memory");
    size_t n = 0;
    if (s->dir[0]) {
        n += (size_t)snprintf(shell_cmd, cap, "cd '");
        for (const char *p = s->dir; *p; p++)
            n += (size_t)(*p == '\'' ? snprintf(shell_cmd + n, cap - n, "'\\''")
                                     : snprintf(shell_cmd + n, cap - n, "%c", *p));
        n += (size_t)snprintf(shell_cmd + n, cap - n, "' && ");
    }
    snprintf(shell_cmd + n, cap - n, "%s", s->cmd);
    const char *argv[] = {"/bin/sh", "-c", shell_cmd, NULL};
    char why[256];
    bool ok = proc_start(proc, argv, why, sizeof why);
    free(shell_cmd);
    if (!ok)
        return err_set(err, errlen, "cannot start '%s': %s", s->cmd, why);
    return true;
}

static bool spawn(MatchEngine *e, char *err, size_t errlen)
{
    if (!me_spawn(e->spec, &e->proc, err, errlen))
        return false;
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
    me_kill(e);
    if (!spawn(e, err, errlen))
        return false;
    const EngineSpec *s = e->spec;
    int64_t deadline = now_ms() + s->limits.timeout_ms;
    int r;
    e->millisec = false;
    Listed *ls = malloc(sizeof *ls);
    if (!ls) {
        me_kill(e);
        return err_set(err, errlen, "out of memory");
    }
    ls->n = 0;
    bool ucci = s->proto == PROTO_UCCI;
    r = send_line(e, ucci ? "ucci" : "uci") ? expect_word(e, ucci ? "ucciok" : "uciok", deadline, ls) : -1;
    bool options_ok = r > 0 && check_options(e, ls, err, errlen);
    int usemillisec = listed_find(ls, "usemillisec");
    free(ls);
    if (r <= 0)
        return handshake_fail(e, e->running ? 0 : -1, ucci ? "ucciok" : "uciok", err, errlen);
    if (!options_ok) {
        me_kill(e);
        return false;
    }
    if (ucci) {
        if (usemillisec >= 0) {
            e->millisec = true;
            send_line(e, "setoption usemillisec true");
        }
        for (int i = 0; i < s->noptions; i++)
            send_line(e, "setoption %s %s", s->options[i].name, s->options[i].value);
    } else {
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
        if (!strncmp(e->proc.out.line, "info", 4))
            parse_info(e->proc.out.line, out);
        else if (parse_best(e->proc.out.line, out)) {
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
            if (parse_best(e->proc.out.line, &late))
                return ME_TIMEOUT;
        }
    }
    me_kill(e);
    return ME_TIMEOUT;
}

void me_quit(MatchEngine *e)
{
    if (e->running && send_line(e, "quit"))
        proc_wait(&e->proc, now_ms() + QUIT_WAIT_MS);
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
    double v;
    if (!num_parse_double(buf, 0, 1e7, &v))
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
