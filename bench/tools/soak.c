/* chuhan soak: two engine processes play each other over UCI,
 * the way a GUI drives them, for many games in a row; the processes live
 * for the whole run (restarted only after a failure), as they do in a GUI
 * left running for days.  Each side has a clock (base + increment); after
 * its move an engine ponders on the reply it expects (go ponder), and gets
 * ponderhit when that reply comes or stop when another one does.  Between
 * moves, and sometimes while an engine thinks, random traffic: isready,
 * stop, ucinewgame, setoption (Hash, Threads, Clear Hash, Move Overhead,
 * UCI_ShowWDL, MultiPV), to an idle or a pondering engine.
 *
 * Failures counted: a crash (the process exits or closes its output), a
 * hang (no bestmove within the clock plus the margin plus --hang ms, or no
 * readyok within --hang ms, or no exit after quit), an illegal move or
 * ponder move, a protocol error (a bestmove nobody asked for, e.g. from a
 * pondering engine before ponderhit or stop), and a time loss (a move that
 * overran the clock by more than --margin ms).  After a crash or a hang both
 * engines are restarted and the run goes on.  Games end by the rules
 * (engine/rules/rules.h, cxa, third occurrence; the 60-move rule) or are drawn at
 * --max-plies. */

#include "soak.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/board/movegen.h"
#include "engine/board/position.h"
#include "engine/rules/rules.h"
#include "engine/util/args.h"
#include "engine/util/clock.h"
#include "engine/util/num.h"
#include "engine/util/host.h"
#include "engine/util/proc.h"
#include "engine/util/rng.h"

#define WRITE_MS 5000
#define HISTORY 8 /* last lines sent, for failure reports */

typedef struct {
    char name[2];
    Proc proc;
    bool dead;
    bool pondering;
    char ponder_move[16];
    int64_t ready_sent[16]; /* isready sent and not answered, oldest first */
    int ready_owed;
    char sent[HISTORY][96];
    char last_info[160]; /* the last "info depth" line read */
    int nsent;
    long rss_first, rss_last;
} Eng;

enum { T_ISREADY, T_STOP, T_NEWGAME, T_SETOPTION, T_THINK_ISREADY, T_THINK_STOP, T_NB };
static const char *const TRAFFIC_NAMES[T_NB] = {"isready",          "stop",         "ucinewgame",
                                                "setoption",        "isready while thinking",
                                                "stop while thinking"};

typedef struct {
    /* settings */
    char cmd[1024];
    char self[4096];
    long games;
    int64_t base_ms, inc_ms;
    long threads, hash, overhead, max_plies, random_plies;
    bool ponder, verbose;
    double traffic;
    long margin_ms, hang_ms;
    uint64_t rng;
    /* results */
    long played, wins[2], draws, adjudicated, aborted;
    long crashes, hangs, illegal, bad_ponder, protocol, time_losses;
    long moves, late_moves, ponderhits, pondermisses, traffic_sent[T_NB];
    int64_t max_overrun, max_ready_ms;
    bool have_overrun;
    /* the game being played */
    Position pos;
    char game_moves[MAX_GAME_PLY * 5 + 64], cmd_line[MAX_GAME_PLY * 5 + 128];
} Soak;

static int rnd_below(Soak *s, int n) { return (int)rng_below(&s->rng, (uint64_t)n); }
static bool chance(Soak *s, double p) { return rng_unit(&s->rng) < p; }

/* ---- engine processes ---- */

static long rss_kb(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long kb = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "VmRSS:", 6))
            kb = atol(line + 6);
    fclose(f);
    return kb;
}

static bool eng_spawn(Soak *s, Eng *e)
{
    const char *shell[] = {"/bin/sh", "-c", s->cmd, NULL}, *self[] = {s->self, NULL};
    char why[256];
    if (!proc_start(&e->proc, s->cmd[0] ? shell : self, why, sizeof why)) {
        fprintf(stderr, "soak: engine %s: %s\n", e->name, why);
        return false;
    }
    e->dead = false;
    e->pondering = false;
    e->ready_owed = 0;
    e->nsent = 0;
    e->rss_first = e->rss_last = -1;
    return true;
}

/* Kill and reap; returns the wait status. */
static int eng_kill(Eng *e)
{
    proc_kill(&e->proc);
    e->dead = true;
    return e->proc.wait_status;
}

static void eng_send(Eng *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void eng_send(Eng *e, const char *fmt, ...)
{
    if (e->dead)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->sent[e->nsent++ % HISTORY], sizeof e->sent[0], fmt, ap);
    va_end(ap);
    va_start(ap, fmt);
    if (!proc_vprintf(&e->proc, WRITE_MS, fmt, ap))
        e->dead = true; /* gone, or no longer reading */
    va_end(ap);
}

/* The next line before the deadline: 1 (in e->proc.out.line), 0 on timeout (or
 * an isready unanswered for the hang time), -1 when the output has ended.
 * readyok lines are counted off here. */
static int eng_line(Soak *s, Eng *e, int64_t deadline)
{
    if (e->ready_owed && e->ready_sent[0] + s->hang_ms < deadline)
        deadline = e->ready_sent[0] + s->hang_ms;
    int r = proc_read_line(&e->proc, deadline);
    if (r < 0)
        e->dead = true;
    if (r <= 0)
        return r;
    const char *line = e->proc.out.line;
    if (!strncmp(line, "info depth", 10))
        snprintf(e->last_info, sizeof e->last_info, "%.159s", line);
    if (!strcmp(line, "readyok") && e->ready_owed > 0) {
        int64_t took = now_ms() - e->ready_sent[0];
        if (took > s->max_ready_ms)
            s->max_ready_ms = took;
        memmove(e->ready_sent, e->ready_sent + 1, sizeof e->ready_sent[0] * (size_t)--e->ready_owed);
    }
    return 1;
}

/* How an exchange with an engine went. */
typedef enum { XR_OK, XR_CRASH, XR_HANG, XR_PROTOCOL } Xresult;

static void eng_isready_send(Eng *e)
{
    eng_send(e, "isready");
    if (e->ready_owed < (int)(sizeof e->ready_sent / sizeof e->ready_sent[0]))
        e->ready_sent[e->ready_owed++] = now_ms();
}

/* Lines until every isready is answered.  A bestmove from an engine that
 * was neither asked to stop nor searching on its own is a protocol error. */
static Xresult eng_sync(Soak *s, Eng *e)
{
    eng_isready_send(e);
    while (e->ready_owed > 0) {
        int r = eng_line(s, e, now_ms() + s->hang_ms);
        if (r < 0)
            return XR_CRASH;
        if (r == 0)
            return XR_HANG;
        if (!strncmp(e->proc.out.line, "bestmove", 8))
            return XR_PROTOCOL;
    }
    return e->dead ? XR_CRASH : XR_OK;
}

/* Lines until one starting with prefix (any readyok counted off); XR_HANG
 * at the deadline. */
static Xresult eng_expect(Soak *s, Eng *e, const char *prefix, int64_t deadline)
{
    for (;;) {
        int r = eng_line(s, e, deadline);
        if (r < 0)
            return XR_CRASH;
        if (r == 0)
            return XR_HANG;
        if (!strncmp(e->proc.out.line, prefix, strlen(prefix)))
            return XR_OK;
    }
}

/* A pondering engine told to stop: its bestmove is read and dropped. */
static Xresult eng_stop_ponder(Soak *s, Eng *e)
{
    if (!e->pondering)
        return XR_OK;
    eng_send(e, "stop");
    e->pondering = false;
    return eng_expect(s, e, "bestmove", now_ms() + s->hang_ms);
}

static Xresult eng_start(Soak *s, Eng *e)
{
    if (!eng_spawn(s, e))
        return XR_CRASH;
    eng_send(e, "uci");
    Xresult x = eng_expect(s, e, "uciok", now_ms() + s->hang_ms + 10000);
    if (x != XR_OK)
        return x;
    eng_send(e, "setoption name Threads value %ld", s->threads);
    eng_send(e, "setoption name Hash value %ld", s->hash);
    eng_send(e, "setoption name Ponder value %s", s->ponder ? "true" : "false");
    eng_send(e, "setoption name Move Overhead value %ld", s->overhead);
    eng_send(e, "setoption name BookVariety value true");
    x = eng_sync(s, e);
    e->rss_first = rss_kb(e->proc.pid);
    return x;
}

/* quit: the process must exit with status 0 within the hang time. */
static Xresult eng_quit(Soak *s, Eng *e)
{
    if (!proc_alive(&e->proc))
        return XR_OK;
    e->rss_last = rss_kb(e->proc.pid);
    eng_send(e, "quit");
    if (!proc_wait(&e->proc, now_ms() + s->hang_ms)) {
        eng_kill(e);
        return XR_HANG;
    }
    return proc_exited_ok(&e->proc) ? XR_OK : XR_CRASH;
}

/* ---- reporting ---- */

static void report_failure(Soak *s, long game, const char *what, Eng *e, const char *detail)
{
    (void)s;
    fprintf(stderr, "soak: game %ld: %s of engine %s: %s\n", game, what, e->name, detail);
    fprintf(stderr, "soak:   its last commands:");
    int first = e->nsent > HISTORY ? e->nsent - HISTORY : 0;
    for (int i = first; i < e->nsent; i++)
        fprintf(stderr, "%s %.80s", i > first ? " |" : "", e->sent[i % HISTORY]);
    fprintf(stderr, "\n");
}

static void count_failure(Soak *s, long game, Xresult x, Eng *e)
{
    char detail[160];
    if (x == XR_CRASH) {
        eng_kill(e);
        proc_exit_text(&e->proc, detail, sizeof detail); /* "killed by signal 9", "exit status 1" */
        s->crashes++;
        report_failure(s, game, "crash", e, detail);
    } else if (x == XR_HANG) {
        s->hangs++;
        report_failure(s, game, "hang", e, "no answer in time");
    } else if (x == XR_PROTOCOL) {
        s->protocol++;
        report_failure(s, game, "protocol error", e, e->proc.out.line);
    }
}

/* ---- traffic ---- */

/* A random GUI command to engine e between moves (it may be pondering). */
static Xresult traffic(Soak *s, Eng *e)
{
    int kind = rnd_below(s, 8);
    Xresult x = XR_OK;
    switch (kind) {
    case 0:
    case 1:
        s->traffic_sent[T_ISREADY]++;
        return eng_sync(s, e);
    case 2:
        s->traffic_sent[T_STOP]++;
        if (e->pondering)
            return eng_stop_ponder(s, e);
        eng_send(e, "stop"); /* idle: nothing may come of it */
        return eng_sync(s, e);
    case 3:
        s->traffic_sent[T_NEWGAME]++;
        if ((x = eng_stop_ponder(s, e)) != XR_OK)
            return x;
        eng_send(e, "ucinewgame");
        return eng_sync(s, e);
    default: {
        s->traffic_sent[T_SETOPTION]++;
        /* half the time while it ponders: Hash, Threads and Clear Hash are
         * then refused with an info string, and the search goes on */
        if (chance(s, 0.5) && (x = eng_stop_ponder(s, e)) != XR_OK)
            return x;
        static const int hashes[] = {4, 8, 16, 32};
        switch (rnd_below(s, 6)) {
        case 0:
            eng_send(e, "setoption name Hash value %d", hashes[rnd_below(s, 4)]);
            break;
        case 1:
            eng_send(e, "setoption name Threads value %ld", chance(s, 0.75) ? s->threads : 1L);
            break;
        case 2:
            eng_send(e, "setoption name Clear Hash");
            break;
        case 3:
            eng_send(e, "setoption name Move Overhead value %ld", s->overhead + rnd_below(s, 3) * 5);
            break;
        case 4:
            eng_send(e, "setoption name UCI_ShowWDL value %s", chance(s, 0.5) ? "true" : "false");
            break;
        default:
            eng_send(e, "setoption name MultiPV value 1");
            break;
        }
        return eng_sync(s, e);
    }
    }
}

/* ---- games ---- */

typedef enum { G_DONE, G_ABORTED } GameEnd;

static void moves_text(const char *moves, char *out, size_t len)
{
    snprintf(out, len, "position startpos%s%s", *moves ? " moves" : "", moves);
}

/* One game; eng[0] has Red when red0.  Failures are counted here. */
static GameEnd play_game(Soak *s, Eng eng[2], bool red0, long game)
{
    Position *pos = &s->pos;
    char *moves = s->game_moves, *cmd = s->cmd_line;
    const size_t moves_cap = sizeof s->game_moves, cmd_cap = sizeof s->cmd_line;
    Eng *side_eng[2] = {red0 ? &eng[0] : &eng[1], red0 ? &eng[1] : &eng[0]};
    Xresult x;
    Eng *culprit = NULL;
    for (int i = 0; i < 2; i++) {
        culprit = &eng[i];
        if ((x = eng_stop_ponder(s, &eng[i])) != XR_OK)
            goto failed;
        eng_send(&eng[i], "ucinewgame");
        if ((x = eng_sync(s, &eng[i])) != XR_OK)
            goto failed;
    }
    pos_set_fen(pos, START_FEN, NULL, 0);
    moves[0] = 0;
    size_t mlen = 0;
    for (int i = 0; i < s->random_plies; i++) {
        Move legal[MAX_MOVES];
        int n = gen_legal(pos, legal);
        char t[8];
        move_str(legal[rnd_below(s, n)], t, false);
        mlen += (size_t)snprintf(moves + mlen, moves_cap - mlen, " %s", t);
        pos_do_move(pos, parse_move(pos, t, false));
    }
    int64_t clock[2] = {s->base_ms, s->base_ms};
    char last[16] = "";
    const char *how = NULL;
    int winner = -1; /* colour, or -1 for a draw */
    char reason[256];
    for (;;) {
        Verdict v = rules_judge_at(pos, RULE_CXA, 120, 3, reason, sizeof reason);
        if (v != VERDICT_NONE) {
            winner = v == VERDICT_DRAW ? -1 : v == VERDICT_WIN ? pos->side : !pos->side;
            how = reason;
            break;
        }
        if (pos->top >= s->max_plies) {
            s->adjudicated++;
            how = "the ply limit";
            break;
        }
        int us = pos->side;
        Eng *e = side_eng[us];
        culprit = e;
        /* traffic between moves, to either engine */
        if (chance(s, s->traffic)) {
            culprit = &eng[rnd_below(s, 2)];
            if ((x = traffic(s, culprit)) != XR_OK)
                goto failed;
            culprit = e;
        }
        bool hit = e->pondering && !strcmp(e->ponder_move, last);
        if (hit) {
            eng_send(e, "ponderhit");
            e->pondering = false;
            s->ponderhits++;
        } else {
            if (e->pondering) {
                s->pondermisses++;
                if ((x = eng_stop_ponder(s, e)) != XR_OK)
                    goto failed;
            }
            moves_text(moves, cmd, cmd_cap);
            eng_send(e, "%s", cmd);
            e->last_info[0] = 0;
            eng_send(e, "go wtime %lld btime %lld winc %lld binc %lld", (long long)clock[RED],
                     (long long)clock[BLACK], (long long)s->inc_ms, (long long)s->inc_ms);
        }
        int64_t t0 = now_ms();
        /* now and then, traffic while it thinks */
        if (chance(s, s->traffic / 3)) {
            usleep((useconds_t)rnd_below(s, 1 + (int)(clock[us] / 60 < 20 ? clock[us] / 60 : 20)) * 1000);
            if (chance(s, 0.8)) {
                s->traffic_sent[T_THINK_ISREADY]++;
                eng_isready_send(e);
            } else {
                s->traffic_sent[T_THINK_STOP]++;
                eng_send(e, "stop"); /* move now */
            }
        }
        x = eng_expect(s, e, "bestmove", t0 + clock[us] + s->margin_ms + s->hang_ms);
        if (x != XR_OK)
            goto failed;
        int64_t elapsed = now_ms() - t0;
        /* the engine's own count of its thinking time: its last info line */
        const char *tp = strstr(e->last_info, " time ");
        long long own = tp ? atoll(tp + 6) : -1;
        char best[16] = "", ponder[16] = "";
        sscanf(e->proc.out.line, "bestmove %15s ponder %15s", best, ponder);
        s->moves++;
        Move m = parse_move(pos, best, false);
        if (m == MOVE_NONE) {
            s->illegal++;
            char d[200];
            snprintf(d, sizeof d, "'%.60s' after%.120s", e->proc.out.line, mlen > 120 ? moves + mlen - 120 : moves);
            report_failure(s, game, "illegal move", e, d);
            winner = !us;
            how = "an illegal move";
            break;
        }
        int64_t over = elapsed - clock[us];
        s->late_moves += over > 0;
        if (s->verbose && (over > 0 || elapsed > 150))
            printf("game %ld, ply %d: engine %s took %lld ms on a clock of %lld ms%s; its last info says %lld ms\n",
                   game, pos->top + 1, e->name, (long long)elapsed, (long long)clock[us],
                   hit ? " (after ponderhit)" : "", own);
        if (!s->have_overrun || over > s->max_overrun)
            s->max_overrun = over, s->have_overrun = true;
        if (over > s->margin_ms) {
            s->time_losses++;
            char d[128];
            snprintf(d, sizeof d, "%lld ms for a clock of %lld ms (its last info line: %lld ms)", (long long)elapsed,
                     (long long)clock[us], own);
            report_failure(s, game, "time loss", e, d);
            winner = !us;
            how = "time";
            break;
        }
        clock[us] = (over > 0 ? 0 : -over) + s->inc_ms;
        pos_do_move(pos, m);
        snprintf(last, sizeof last, "%s", best);
        mlen += (size_t)snprintf(moves + mlen, moves_cap - mlen, " %s", best);
        if (ponder[0]) {
            Move pm = parse_move(pos, ponder, false);
            if (pm == MOVE_NONE) {
                s->bad_ponder++;
                report_failure(s, game, "illegal ponder move", e, e->proc.out.line);
            } else if (s->ponder) {
                moves_text(moves, cmd, cmd_cap);
                eng_send(e, "%s %s", cmd, ponder);
                eng_send(e, "go ponder wtime %lld btime %lld winc %lld binc %lld", (long long)clock[RED],
                         (long long)clock[BLACK], (long long)s->inc_ms, (long long)s->inc_ms);
                e->pondering = true;
                snprintf(e->ponder_move, sizeof e->ponder_move, "%s", ponder);
            }
        }
    }
    for (int i = 0; i < 2; i++) {
        culprit = &eng[i];
        if ((x = eng_stop_ponder(s, &eng[i])) != XR_OK)
            goto failed;
    }
    s->played++;
    if (winner < 0)
        s->draws++;
    else
        s->wins[winner]++;
    if (s->verbose)
        printf("game %ld: %s (%s), %d plies, engine %s red\n", game,
               winner < 0 ? "1/2-1/2" : winner == RED ? "1-0" : "0-1", how, pos->top, side_eng[RED]->name);
    return G_DONE;
failed:
    count_failure(s, game, x, culprit);
    s->aborted++;
    return G_ABORTED;
}

/* ---- the command ---- */

static int usage(const char *why)
{
    if (why && *why)
        fprintf(stderr, "%s\n", why);
    fprintf(stderr,
            "usage: chuhan soak [--games N] [--tc BASE+INC] [--threads N] [--hash MB] [--no-ponder]\n"
            "                   [--traffic P] [--seed N] [--max-plies N] [--random-plies N] [--overhead MS]\n"
            "                   [--margin MS] [--hang MS] [--engine CMD] [--verbose]\n"
            "  self-play over UCI between two engine processes (this binary unless --engine), at a\n"
            "  clock of BASE seconds + INC per move (default 0.5+0.01), 2 threads each, pondering,\n"
            "  with random stop/isready/ucinewgame/setoption traffic (probability P per move, 0.3);\n"
            "  reports crashes, hangs, illegal moves and time losses (a move over the clock by more\n"
            "  than the margin, 200 ms); exit status 0 when there were none.\n");
    return 2;
}

/* Seconds, in decimal ("0.5"): no "nan", "inf" or hex. */
static bool read_seconds(const char *text, double min, int64_t *ms)
{
    double v;
    if (!*text || strspn(text, "0123456789.") != strlen(text) || !num_parse_double(text, min, 1e6, &v))
        return false;
    *ms = (int64_t)(v * 1000 + 0.5);
    return true;
}

/* --tc BASE[+INC], seconds. */
static bool read_tc(const char *text, void *dest)
{
    Soak *s = dest;
    char base[64];
    const char *plus = strchr(text, '+');
    size_t n = plus ? (size_t)(plus - text) : strlen(text);
    if (n >= sizeof base)
        return false;
    memcpy(base, text, n);
    base[n] = 0;
    int64_t base_ms, inc_ms = 0;
    if (!read_seconds(base, 0.001, &base_ms) || (plus && !read_seconds(plus + 1, 0, &inc_ms)))
        return false;
    s->base_ms = base_ms;
    s->inc_ms = inc_ms;
    return true;
}

/* The arguments into s; false with the reason (empty for --help). */
static bool parse_args(int argc, char **argv, Soak *s, char *why, size_t len)
{
    s->games = 1000;
    s->base_ms = 500;
    s->inc_ms = 10;
    s->threads = 2;
    s->hash = 16;
    s->overhead = 10;
    s->ponder = true;
    s->traffic = 0.3;
    s->max_plies = 300;
    s->random_plies = 2;
    s->margin_ms = 200;
    s->hang_ms = 5000;
    s->rng = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 20;
    const char *engine = NULL;
    const ArgOption opts[] = {
        ARG_FLAG("--no-ponder", &s->ponder, false),
        ARG_FLAG("--verbose", &s->verbose, true),
        ARG_LONG("--games", &s->games, 1, 100000000),
        ARG_CUSTOM("--tc", s, read_tc, "BASE[+INC] in seconds (BASE from 0.001, both at most 1000000)"),
        ARG_LONG("--threads", &s->threads, 1, 1024),
        ARG_LONG("--hash", &s->hash, 1, 1 << 20),
        ARG_DOUBLE("--traffic", &s->traffic, 0, 1e6),
        ARG_U64("--seed", &s->rng, 0, UINT64_MAX),
        ARG_LONG("--max-plies", &s->max_plies, 2, MAX_GAME_PLY),
        ARG_LONG("--random-plies", &s->random_plies, 0, 20),
        ARG_LONG("--overhead", &s->overhead, 0, 5000),
        ARG_LONG("--margin", &s->margin_ms, 0, 100000000),
        ARG_LONG("--hang", &s->hang_ms, 100, 100000000),
        ARG_TEXT("--engine", &engine),
    };
    const ArgSpec spec = {"soak", opts, sizeof opts / sizeof opts[0], NULL, 0};
    if (!args_read(&spec, argc, argv, NULL, why, len))
        return false;
    if (engine) {
        if (!*engine || strlen(engine) + 6 > sizeof s->cmd) {
            snprintf(why, len, "soak: --engine: a command under %zu bytes", sizeof s->cmd - 5);
            return false;
        }
        snprintf(s->cmd, sizeof s->cmd, "exec %s", engine);
    }
    return true;
}

static int run(Soak *s, Eng eng[2])
{
    uint64_t seed = s->rng;
    if (!s->cmd[0]) {
        if (!host_self_path(s->self, sizeof s->self)) {
            fprintf(stderr, "soak: cannot find this binary; name the engine with --engine\n");
            return 2;
        }
    }
    printf("soak: %ld games, tc %.3f+%.3f s, %ld threads, hash %ld MB, ponder %s, traffic %.2f, seed %llu\n",
           s->games, (double)s->base_ms / 1000, (double)s->inc_ms / 1000, s->threads, s->hash,
           s->ponder ? "on" : "off", s->traffic, (unsigned long long)seed);
    fflush(stdout);

    long rss_first[2] = {-1, -1};
    int64_t t0 = now_ms();
    bool need_start = true;
    long game = 0;
    for (; game < s->games; game++) {
        if (need_start) {
            for (int i = 0; i < 2; i++) {
                eng[i].name[0] = (char)('A' + i);
                eng_kill(&eng[i]);
                Xresult x = eng_start(s, &eng[i]);
                if (x != XR_OK) {
                    count_failure(s, game + 1, x, &eng[i]);
                    fprintf(stderr, "soak: engine %s does not start; giving up\n", eng[i].name);
                    eng_kill(&eng[0]);
                    eng_kill(&eng[1]);
                    return 1;
                }
                if (rss_first[i] < 0)
                    rss_first[i] = eng[i].rss_first;
            }
            need_start = false;
        }
        if (play_game(s, eng, game % 2 == 0, game + 1) == G_ABORTED) {
            eng_kill(&eng[0]);
            eng_kill(&eng[1]);
            need_start = true;
        }
        if (!s->verbose && (game + 1) % 50 == 0) {
            printf("soak: %ld games, %ld s: red %ld, black %ld, draws %ld; failures: %ld crashes, %ld hangs, "
                   "%ld illegal, %ld time losses\n",
                   game + 1, (long)((now_ms() - t0) / 1000), s->wins[RED], s->wins[BLACK], s->draws, s->crashes,
                   s->hangs, s->illegal + s->bad_ponder, s->time_losses);
            fflush(stdout);
        }
    }
    for (int i = 0; i < 2; i++)
        if (!need_start) {
            /* the settings of the start again, so that the memory compares */
            eng_send(&eng[i], "setoption name Hash value %ld", s->hash);
            eng_send(&eng[i], "setoption name Threads value %ld", s->threads);
            Xresult x = eng_sync(s, &eng[i]);
            if (x == XR_OK)
                x = eng_quit(s, &eng[i]);
            if (x != XR_OK)
                count_failure(s, game, x, &eng[i]);
        }
    eng_kill(&eng[0]);
    eng_kill(&eng[1]);
    double secs = (double)(now_ms() - t0) / 1000;
    printf("soak: %ld games in %.0f s: red wins %ld, black wins %ld, draws %ld (%ld at the ply limit); %ld aborted\n",
           s->played, secs, s->wins[RED], s->wins[BLACK], s->draws, s->adjudicated, s->aborted);
    printf("soak: crashes %ld, hangs %ld, illegal moves %ld, illegal ponder moves %ld, protocol errors %ld, "
           "time losses %ld\n",
           s->crashes, s->hangs, s->illegal, s->bad_ponder, s->protocol, s->time_losses);
    printf("soak: %ld moves, %ld ponder hits, %ld ponder misses; %ld moves over their clock, the worst by %+lld ms "
           "(margin %ld); slowest readyok %lld ms\n",
           s->moves, s->ponderhits, s->pondermisses, s->late_moves, (long long)s->max_overrun, s->margin_ms,
           (long long)s->max_ready_ms);
    printf("soak: traffic:");
    for (int k = 0; k < T_NB; k++)
        printf("%s %s %ld", k ? "," : "", TRAFFIC_NAMES[k], s->traffic_sent[k]);
    printf("\n");
    for (int i = 0; i < 2; i++)
        if (rss_first[i] > 0 && eng[i].rss_last > 0)
            printf("soak: engine %s memory %ld MB at the start, %ld MB at the end\n", eng[i].name,
                   rss_first[i] >> 10, eng[i].rss_last >> 10);
    long failures = s->crashes + s->hangs + s->illegal + s->bad_ponder + s->protocol + s->time_losses;
    printf("soak: %s\n", failures ? "FAILED" : "clean");
    return failures ? 1 : 0;
}

int soak_cli(int argc, char **argv)
{
    if (proc_unavailable()) {
        fprintf(stderr, "chuhan soak: %s\n", proc_unavailable());
        return 2;
    }
    Soak *s = calloc(1, sizeof *s);
    Eng *eng = calloc(2, sizeof *eng);
    int status = 2;
    char why[ARGS_WHY_MAX];
    if (!s || !eng)
        fprintf(stderr, "soak: out of memory\n");
    else if (!parse_args(argc, argv, s, why, sizeof why))
        status = usage(why);
    else
        status = run(s, eng);
    free(s);
    free(eng);
    return status;
}
