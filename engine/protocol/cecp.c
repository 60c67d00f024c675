/* CECP / xboard front-end (protocol 2, XBoard's engine-intf): the xiangqi
 * variant only, moves in XBoard's coordinates, which for a board of ten
 * ranks count the ranks from 0 (h2e2: Red's cannon to the centre), the same
 * text as our UCI form.
 *
 * Unlike UCI, the engine keeps the game: it plays the moves it announces
 * ("move h2e2"), ponders on its own, and ends the game with a claim
 * ("1-0 {...}") only when the rules module says the game is over (no legal
 * move, a repetition ruled at its third occurrence under the Repetition
 * Rule option, the 60-move rule).
 *
 * Two threads: the calling thread reads lines and hands them over one at a
 * time; the game thread owns all the state and serves both the lines and
 * the search results (the engine's bestmove callback only posts the move),
 * so a move, a claim and a reply to ping always come out in order (a ping
 * that arrives while the engine thinks on its move is answered after the
 * move; nothing waits for a search but "?" and the commands that make the
 * engine move at once).  Bad input is answered with "Error (...): ..." or
 * "Illegal move: ...". */
#include <ctype.h>
#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/board/movegen.h"
#include "engine/init.h"
#include "engine/rules/rules.h"
#include "engine/util/num.h"
#include "engine/util/text.h"
#include "protocol.h"

typedef enum { S_NONE, S_THINK, S_PONDER, S_ANALYZE } SearchKind;

typedef struct {
    Engine *engine;
    Output *out;

    /* Hand-over of input lines (reader -> game thread) and of search
     * results (search thread -> game thread), under lock. */
    pthread_mutex_t lock;
    pthread_cond_t wake;  /* the game thread: a line, a result or the end */
    pthread_cond_t space; /* the reader: the inbox is free */
    char *rbuf, *inbox, *work; /* three line buffers of LINE_MAX_BYTES */
    bool inbox_full, inbox_too_long, eof, done;
    bool result_ready;
    Move result_best, result_ponder;
    int info_depth, info_score; /* the last thinking line, for '.' */
    int64_t info_time;
    uint64_t info_nodes;

    /* Read by the search thread's callbacks. */
    atomic_int kind; /* SearchKind of the running search */
    atomic_bool post, debug;

    /* Game state: the game thread only. */
    bool force, game_over, bad_position, analyzing, ponder_on;
    int engine_side;
    char ponder_text[8]; /* the move pondered on, pushed on the game */
    int64_t think_start;
    int mps, sd;
    int64_t base_ms, inc_ms, st_ms, time_ms, otim_ms;
    Position *scratch; /* a copy of the game for the rules */
    char pongs[16][24]; /* pings answered once the engine's move is out */
    int npongs;
    char *tok[MAX_TOKENS]; /* the words of the line being served */
    char echo[80];     /* the command line, for error messages */
} Cecp;

/* ---- callbacks (search thread) ---- */

static int xboard_score(int v)
{
    if (v >= VALUE_MATE_IN_MAX_PLY)
        return 100000 + (VALUE_MATE - v + 1) / 2;
    if (v <= -VALUE_MATE_IN_MAX_PLY)
        return -100000 - (VALUE_MATE + v) / 2;
    return v;
}

static void on_info(void *ctx, const SearchInfo *info)
{
    Cecp *x = ctx;
    if (atomic_load(&x->kind) == S_NONE || info->multipv != 1)
        return;
    pthread_mutex_lock(&x->lock);
    x->info_depth = info->depth;
    x->info_score = info->score;
    x->info_time = info->time_ms;
    x->info_nodes = info->nodes;
    pthread_mutex_unlock(&x->lock);
    if (!atomic_load(&x->post))
        return;
    char pv[MAX_PLY * 6 + 8];
    size_t n = 0;
    pv[0] = 0;
    for (int i = 0; i < info->pv_len && n + 8 < sizeof pv; i++) {
        char m[8];
        move_str(info->pv[i], m, false);
        n += (size_t)snprintf(pv + n, sizeof pv - n, "%s%s", i ? " " : "", m);
    }
    /* a fail high ends the PV with '!', a fail low with '?' */
    const char *mark = info->bound == TT_BOUND_LOWER ? "!" : info->bound == TT_BOUND_UPPER ? "?" : "";
    out_line(x->out, "%d %d %lld %llu %s%s", info->depth, xboard_score(info->score), (long long)(info->time_ms / 10),
             (unsigned long long)info->nodes, pv, mark);
}

static void on_bestmove(void *ctx, Move best, Move ponder)
{
    Cecp *x = ctx;
    pthread_mutex_lock(&x->lock);
    x->result_ready = true;
    x->result_best = best;
    x->result_ponder = ponder;
    pthread_cond_signal(&x->wake);
    pthread_mutex_unlock(&x->lock);
}

static void on_message(void *ctx, const char *text)
{
    Cecp *x = ctx;
    if (atomic_load(&x->debug))
        out_line(x->out, "# %s", text);
}

/* ---- helpers ---- */

static void error_reply(Cecp *x, const char *type) { out_line(x->out, "Error (%s): %s", type, x->echo); }

/* A copy of the game (the used part of the state stack) for the rules. */
static Position *game_copy(Cecp *x)
{
    const Position *pos = engine_position(x->engine);
    memcpy(x->scratch, pos, offsetof(Position, st) + sizeof(StateInfo) * (size_t)(pos->top + 1));
    return x->scratch;
}

/* Claim the result if the rules end the game here; true if they do. */
static bool claim_if_over(Cecp *x)
{
    char reason[256], opt[32];
    Position *pos = game_copy(x);
    int rule = rules_parse(engine_get_option(x->engine, "Repetition Rule", opt, sizeof opt));
    engine_get_option(x->engine, "Sixty Move Rule", opt, sizeof opt);
    int sixty = !strcmp(opt, "true") ? 120 : 0;
    Verdict v = rules_judge_at(pos, rule < 0 ? RULE_CXA : rule, sixty, 3, reason, sizeof reason);
    if (v == VERDICT_NONE)
        return false;
    int stm = pos->side;
    if (count_legal(pos) == 0 && pos_in_check(pos))
        snprintf(reason, sizeof reason, "%s mates", stm == RED ? "Black" : "Red");
    for (char *p = reason; *p; p++)
        if (*p == '{' || *p == '}' || (unsigned char)*p < 32)
            *p = *p == '{' ? '(' : *p == '}' ? ')' : ' ';
    const char *result = v == VERDICT_DRAW                              ? "1/2-1/2"
                         : (v == VERDICT_WIN) == (stm == RED) ? "1-0"
                                                                        : "0-1";
    out_line(x->out, "%s {%s}", result, reason);
    x->game_over = true;
    return true;
}

/* Stop the running search and forget its result; a ponder move comes off
 * the game. */
static void cancel_search(Cecp *x)
{
    int kind = atomic_exchange(&x->kind, S_NONE);
    if (kind == S_NONE)
        return;
    engine_stop(x->engine);
    engine_wait(x->engine);
    pthread_mutex_lock(&x->lock);
    x->result_ready = false;
    pthread_mutex_unlock(&x->lock);
    if (kind == S_PONDER)
        engine_pop_move(x->engine);
}

static void clock_limits(Cecp *x, SearchLimits *lim, int us, int64_t our_time)
{
    limits_clear(lim);
    lim->depth = x->sd;
    if (x->st_ms > 0) {
        lim->movetime = x->st_ms;
        return;
    }
    lim->time[us] = our_time < 0 ? 0 : our_time;
    lim->time[!us] = x->otim_ms < 0 ? 0 : x->otim_ms;
    lim->inc[us] = lim->inc[!us] = x->inc_ms;
    if (x->mps > 0) {
        int done = pos_game_ply(engine_position(x->engine)) / 2; /* moves made by the side to move */
        lim->movestogo = x->mps - done % x->mps;
    }
}

static void start_think(Cecp *x)
{
    SearchLimits lim;
    const Position *pos = engine_position(x->engine);
    clock_limits(x, &lim, pos->side, x->time_ms);
    x->think_start = now_ms();
    atomic_store(&x->kind, S_THINK);
    engine_go(x->engine, &lim); /* a book move comes back at once, as a result */
}

static void start_analysis(Cecp *x)
{
    SearchLimits lim;
    limits_clear(&lim);
    lim.infinite = true;
    atomic_store(&x->kind, S_ANALYZE);
    engine_go(x->engine, &lim);
}

/* After the engine's move: think on the opponent's time about the reply
 * the search expects. */
static void start_ponder(Cecp *x, Move reply)
{
    if (!x->ponder_on || x->force || x->analyzing || !reply || !engine_push_move(x->engine, reply))
        return;
    move_str(reply, x->ponder_text, false);
    if (atomic_load(&x->post))
        out_line(x->out, "Hint: %s", x->ponder_text);
    SearchLimits lim;
    int us = engine_position(x->engine)->side;
    /* our clock: what it showed before this move, less the thinking, plus the increment */
    int64_t left = x->time_ms - (now_ms() - x->think_start) + (x->inc_ms > 0 ? x->inc_ms : 0);
    clock_limits(x, &lim, us, left);
    lim.ponder = true;
    atomic_store(&x->kind, S_PONDER);
    engine_go(x->engine, &lim);
}

/* A search result: the engine's move is played, announced and judged. */
static void handle_result(Cecp *x)
{
    pthread_mutex_lock(&x->lock);
    bool ready = x->result_ready;
    Move best = x->result_best, ponder = x->result_ponder;
    x->result_ready = false;
    pthread_mutex_unlock(&x->lock);
    if (!ready)
        return;
    engine_wait(x->engine);
    int kind = atomic_exchange(&x->kind, S_NONE);
    if (kind != S_THINK)
        return; /* analysis and pondering only end when told; nothing to play */
    if (best == MOVE_NONE) {
        if (!claim_if_over(x))
            out_line(x->out, "Error (no move): the search found no move");
        return;
    }
    char text[8];
    move_str(best, text, false);
    if (!engine_push_move(x->engine, best)) {
        out_line(x->out, "Error (internal): the search's move %s cannot be played", text);
        return;
    }
    out_line(x->out, "move %s", text);
    if (!claim_if_over(x))
        start_ponder(x, ponder);
}

/* A command that cannot wait for the engine's own thinking: it moves now
 * (as the protocol allows), then the command is served. */
static void move_now(Cecp *x)
{
    if (atomic_load(&x->kind) != S_THINK)
        return;
    engine_stop(x->engine);
    engine_wait(x->engine);
    handle_result(x);
}

static void flush_pongs(Cecp *x)
{
    for (int i = 0; i < x->npongs; i++)
        out_line(x->out, "pong %s", x->pongs[i]);
    x->npongs = 0;
}

/* In a live game: claim the result if the game is over, else think if it
 * is the engine's turn. */
static void play_on(Cecp *x)
{
    if (x->force || x->analyzing || x->game_over || x->bad_position || atomic_load(&x->kind) != S_NONE)
        return;
    if (!claim_if_over(x) && engine_position(x->engine)->side == x->engine_side)
        start_think(x);
}

static void restart_analysis(Cecp *x)
{
    if (x->analyzing && !x->bad_position) {
        cancel_search(x);
        start_analysis(x);
    }
}

/* Seconds, with an optional fraction, into milliseconds in [0, 10^10]. */
static bool parse_seconds(const char *text, int64_t *ms)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || !isfinite(v))
        return false;
    v = v < 0 ? 0 : v > 1e7 ? 1e7 : v;
    *ms = (int64_t)(v * 1000 + 0.5);
    return true;
}

/* level's BASE: minutes, or minutes:seconds; trailing text is ignored, as
 * the protocol asks. */
static bool parse_base(const char *text, int64_t *ms)
{
    char *end;
    double min = strtod(text, &end);
    if (end == text || !isfinite(min) || min < 0 || min > 1e6)
        return false;
    double sec = 0;
    if (*end == ':') {
        const char *s = end + 1;
        sec = strtod(s, &end);
        if (end == s || !isfinite(sec) || sec < 0 || sec > 1e7)
            return false;
    }
    *ms = (int64_t)((min * 60 + sec) * 1000 + 0.5);
    return true;
}

/* ---- commands ---- */

static void cmd_features(Cecp *x)
{
    out_line(x->out, "feature done=0");
    out_line(x->out, "feature myname=\"%s %s\" variants=\"xiangqi\" setboard=1 usermove=1 ping=1 playother=1 time=1 "
                     "draw=1 sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 san=0 name=0 ics=0 pause=0 nps=0 "
                     "debug=1 memory=1 smp=1 exclude=0 setscore=0 highlight=0",
             CHUHAN_NAME, CHUHAN_VERSION);
    /* Engine options, except those the protocol sets (memory, cores) or
     * that only UCI uses. */
    for (int i = 0; i < engine_option_count(); i++) {
        const OptionInfo *o = engine_option(i);
        if (!strcmp(o->name, "Hash") || !strcmp(o->name, "Threads") || !strcmp(o->name, "UCI_ShowWDL")
            || !strcmp(o->name, "MultiPV") || !strcmp(o->name, "Ponder"))
            continue;
        char value[1024];
        engine_get_option(x->engine, o->name, value, sizeof value);
        switch (o->type) {
        case OPT_SPIN:
            out_line(x->out, "feature option=\"%s -spin %s %ld %ld\"", o->name, value, o->min, o->max);
            break;
        case OPT_CHECK:
            out_line(x->out, "feature option=\"%s -check %d\"", o->name, !strcmp(value, "true"));
            break;
        case OPT_BUTTON:
            out_line(x->out, "feature option=\"%s -button\"", o->name);
            break;
        case OPT_STRING:
            out_line(x->out, "feature option=\"%s -string %s\"", o->name, value);
            break;
        case OPT_COMBO: {
            char vars[256] = "";
            size_t n = 0;
            for (int k = 0; o->vars[k] && n < sizeof vars; k++)
                n += (size_t)snprintf(vars + n, sizeof vars - n, "%s%s%s", k ? " /// " : "",
                                      strcmp(o->vars[k], value) ? "" : "*", o->vars[k]);
            out_line(x->out, "feature option=\"%s -combo %s\"", o->name, vars);
            break;
        }
        }
    }
    out_line(x->out, "feature done=1");
}

static void cmd_new(Cecp *x)
{
    cancel_search(x);
    char err[256];
    engine_set_position(x->engine, NULL, NULL, 0, false, err, sizeof err);
    engine_new_game(x->engine);
    x->force = false;
    x->game_over = false;
    x->bad_position = false;
    x->engine_side = BLACK;
    x->sd = 0;
    x->time_ms = x->otim_ms = x->base_ms;
    restart_analysis(x);
}

static void cmd_setboard(Cecp *x, char **tok, int n)
{
    char fen[512] = "", err[256];
    for (int i = 1; i < n; i++)
        snprintf(fen + strlen(fen), sizeof fen - strlen(fen), "%s%s", i > 1 ? " " : "", tok[i]);
    cancel_search(x);
    if (!*fen || !engine_set_position(x->engine, fen, NULL, 0, false, err, sizeof err)) {
        /* as the protocol suggests: moves are refused until a good position */
        out_line(x->out, "tellusererror Illegal position");
        if (atomic_load(&x->debug))
            out_line(x->out, "# setboard: %s", *fen ? err : "no FEN");
        x->bad_position = true;
        return;
    }
    x->bad_position = false;
    x->game_over = false;
    restart_analysis(x);
}

static void cmd_usermove(Cecp *x, const char *text)
{
    char shown[16];
    text_printable(shown, sizeof shown, text);
    if (x->bad_position) {
        out_line(x->out, "Illegal move (no legal position set): %s", shown);
        return;
    }
    int kind = atomic_load(&x->kind);
    if (kind == S_THINK) {
        /* a move while we think: ours comes first, and pondering may start
         * on it (the user's move is then a ponder hit or miss) */
        move_now(x);
        kind = atomic_load(&x->kind);
    }
    if (kind == S_PONDER) {
        if (!strcmp(text, x->ponder_text)) {
            /* the expected reply: the pondering becomes the search, unless
             * the move ended the game */
            if (claim_if_over(x)) {
                atomic_store(&x->kind, S_NONE);
                engine_stop(x->engine);
                engine_wait(x->engine);
                pthread_mutex_lock(&x->lock);
                x->result_ready = false;
                pthread_mutex_unlock(&x->lock);
                return;
            }
            x->think_start = now_ms();
            atomic_store(&x->kind, S_THINK);
            engine_ponderhit(x->engine);
            return;
        }
        cancel_search(x);
    }
    Move m = parse_move(engine_position(x->engine), text, false);
    if (m == MOVE_NONE) {
        out_line(x->out, "Illegal move: %s", shown);
        return;
    }
    if (atomic_load(&x->kind) == S_ANALYZE)
        cancel_search(x);
    if (!engine_push_move(x->engine, m)) {
        out_line(x->out, "Illegal move (the game is too long): %s", shown);
        return;
    }
    if (x->analyzing) {
        start_analysis(x);
        return;
    }
    play_on(x);
}

static void cmd_undo(Cecp *x, int plies)
{
    cancel_search(x);
    const Position *pos = engine_position(x->engine);
    if (x->bad_position || pos->top < plies) {
        error_reply(x, "command not legal now");
        return;
    }
    for (int i = 0; i < plies; i++)
        engine_pop_move(x->engine);
    x->game_over = false;
    restart_analysis(x);
}

static void cmd_level(Cecp *x, char **tok, int n)
{
    int64_t mps, base, inc;
    if (n != 4 || !num_clamp(tok[1], 0, 100000, &mps) || !parse_base(tok[2], &base) || !parse_seconds(tok[3], &inc)) {
        error_reply(x, "bad arguments");
        return;
    }
    x->mps = (int)mps;
    x->base_ms = base;
    x->inc_ms = inc;
    x->st_ms = 0;
    x->time_ms = x->otim_ms = base;
}

static void set_option(Cecp *x, const char *name, const char *value)
{
    char err[256];
    int kind = atomic_load(&x->kind);
    if (kind == S_THINK)
        move_now(x);
    else if (kind != S_NONE)
        cancel_search(x);
    if (!engine_set_option(x->engine, name, value, err, sizeof err)) {
        /* the reason goes to the debug channel: XBoard reads words like
         * "draw" or "time" in an error line as a protocol refusal */
        error_reply(x, "bad value");
        if (atomic_load(&x->debug))
            out_line(x->out, "# %s", err);
    }
    if (kind == S_ANALYZE)
        restart_analysis(x);
}

/* option NAME[=VALUE], as offered by feature option=... */
static void cmd_option(Cecp *x, char *line_after)
{
    char *eq = strchr(line_after, '=');
    if (eq)
        *eq = 0;
    char *name = line_after;
    while (isspace((unsigned char)*name))
        name++;
    size_t len = strlen(name);
    while (len && isspace((unsigned char)name[len - 1]))
        name[--len] = 0;
    const OptionInfo *o = engine_find_option(name);
    if (!o) {
        error_reply(x, "unknown option");
        return;
    }
    const char *value = eq ? eq + 1 : NULL;
    if (o->type == OPT_CHECK && value)
        value = !strcmp(value, "1") ? "true" : !strcmp(value, "0") ? "false" : value;
    set_option(x, o->name, value);
}

static void cmd_memory_cores(Cecp *x, const char *name, const char *arg, int64_t max)
{
    int64_t v;
    if (!arg || !num_clamp(arg, 1, max, &v)) {
        error_reply(x, "bad arguments");
        return;
    }
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)v);
    set_option(x, name, buf);
}

/* One command; false for quit. */
static bool serve_line(Cecp *x, char *line, char **tok)
{
    text_printable(x->echo, sizeof x->echo, line);
    /* "option NAME=VALUE" keeps its spaces */
    char *rest = line;
    while (isspace((unsigned char)*rest))
        rest++;
    if (!strncmp(rest, "option", 6) && (isspace((unsigned char)rest[6]) || !rest[6])) {
        cmd_option(x, rest + 6);
        return true;
    }
    int n = tokenize(line, tok, MAX_TOKENS);
    if (n == 0)
        return true;
    if (n == MAX_TOKENS) {
        error_reply(x, "too many words");
        return true;
    }
    const char *c = tok[0];
    int64_t v;
    if (!strcmp(c, "quit"))
        return false;
    if (!strcmp(c, "xboard") || !strcmp(c, "accepted") || !strcmp(c, "random") || !strcmp(c, "computer")
        || !strcmp(c, "name") || !strcmp(c, "rating") || !strcmp(c, "ics") || !strcmp(c, "draw")
        || !strcmp(c, "hint") || !strcmp(c, "bk"))
        return true; /* nothing to do: a draw offer is declined by silence */
    if (!strcmp(c, "rejected")) {
        if (n > 1 && !strcmp(tok[1], "debug"))
            atomic_store(&x->debug, false);
    } else if (!strcmp(c, "protover")) {
        if (n < 2 || !num_clamp(tok[1], 0, 1000, &v))
            error_reply(x, "bad arguments");
        else if (v >= 2)
            cmd_features(x);
    } else if (!strcmp(c, "new")) {
        cmd_new(x);
    } else if (!strcmp(c, "variant")) {
        if (n < 2 || strcmp(tok[1], "xiangqi"))
            error_reply(x, "unsupported variant");
    } else if (!strcmp(c, "force")) {
        int kind = atomic_load(&x->kind);
        if (kind == S_THINK || kind == S_PONDER)
            cancel_search(x);
        x->force = true;
    } else if (!strcmp(c, "go")) {
        if (x->bad_position || x->analyzing) {
            error_reply(x, "command not legal now");
            return true;
        }
        if (atomic_load(&x->kind) == S_PONDER)
            cancel_search(x);
        x->force = false;
        x->engine_side = engine_position(x->engine)->side;
        play_on(x);
    } else if (!strcmp(c, "playother")) {
        if (atomic_load(&x->kind) == S_PONDER)
            cancel_search(x);
        x->force = false;
        x->engine_side = !engine_position(x->engine)->side;
    } else if (!strcmp(c, "usermove")) {
        if (n < 2)
            error_reply(x, "bad arguments");
        else
            cmd_usermove(x, tok[1]);
    } else if (looks_like_move(c) && n == 1) {
        cmd_usermove(x, c);
    } else if (!strcmp(c, "?")) {
        if (atomic_load(&x->kind) == S_THINK)
            engine_stop(x->engine); /* the move follows as the search's result */
    } else if (!strcmp(c, "ping")) {
        /* while the engine thinks on its move, the pong waits for the move */
        if (atomic_load(&x->kind) == S_THINK && x->npongs == (int)(sizeof x->pongs / sizeof x->pongs[0]))
            move_now(x);
        if (x->npongs < (int)(sizeof x->pongs / sizeof x->pongs[0])) {
            text_printable(x->pongs[x->npongs++], sizeof x->pongs[0], n > 1 ? tok[1] : "");
        }
    } else if (!strcmp(c, "level")) {
        cmd_level(x, tok, n);
    } else if (!strcmp(c, "st")) {
        if (n != 2 || !parse_seconds(tok[1], &v) || v <= 0)
            error_reply(x, "bad arguments");
        else
            x->st_ms = v;
    } else if (!strcmp(c, "sd")) {
        if (n != 2 || !num_clamp(tok[1], 1, MAX_PLY - 4, &v))
            error_reply(x, "bad arguments");
        else
            x->sd = (int)v;
    } else if (!strcmp(c, "time") || !strcmp(c, "otim")) {
        /* centiseconds; a clock may show less than zero */
        if (n != 2 || !num_clamp(tok[1], -((int64_t)1 << 40), (int64_t)1 << 40, &v))
            error_reply(x, "bad arguments");
        else
            *(c[0] == 't' ? &x->time_ms : &x->otim_ms) = v * 10;
    } else if (!strcmp(c, "undo")) {
        cmd_undo(x, 1);
    } else if (!strcmp(c, "remove")) {
        cmd_undo(x, 2);
    } else if (!strcmp(c, "setboard")) {
        cmd_setboard(x, tok, n);
    } else if (!strcmp(c, "result")) {
        cancel_search(x);
        x->game_over = true;
    } else if (!strcmp(c, "post") || !strcmp(c, "nopost")) {
        atomic_store(&x->post, c[0] == 'p');
    } else if (!strcmp(c, "hard")) {
        x->ponder_on = true;
    } else if (!strcmp(c, "easy")) {
        x->ponder_on = false;
        if (atomic_load(&x->kind) == S_PONDER)
            cancel_search(x);
    } else if (!strcmp(c, "analyze")) {
        move_now(x);
        cancel_search(x);
        x->analyzing = true;
        restart_analysis(x);
    } else if (!strcmp(c, "exit")) {
        if (x->analyzing) {
            cancel_search(x);
            x->analyzing = false;
        }
    } else if (!strcmp(c, ".")) {
        if (atomic_load(&x->kind) == S_ANALYZE) {
            pthread_mutex_lock(&x->lock);
            long long t = x->info_time / 10;
            unsigned long long nodes = x->info_nodes;
            int depth = x->info_depth;
            pthread_mutex_unlock(&x->lock);
            out_line(x->out, "stat01: %lld %llu %d 0 %d", t, nodes, depth, count_legal(engine_position(x->engine)));
        }
    } else if (!strcmp(c, "memory")) {
        cmd_memory_cores(x, "Hash", n > 1 ? tok[1] : NULL, engine_find_option("Hash")->max);
    } else if (!strcmp(c, "cores")) {
        cmd_memory_cores(x, "Threads", n > 1 ? tok[1] : NULL, engine_find_option("Threads")->max);
    } else if (looks_like_move(c)) {
        error_reply(x, "bad move syntax");
    } else {
        error_reply(x, "unknown command");
    }
    return true;
}

/* ---- threads ---- */

static void *game_thread(void *arg)
{
    Cecp *x = arg;
    for (;;) {
        pthread_mutex_lock(&x->lock);
        while (!x->inbox_full && !x->eof && !x->result_ready)
            pthread_cond_wait(&x->wake, &x->lock);
        if (x->result_ready) {
            pthread_mutex_unlock(&x->lock);
            handle_result(x);
            if (x->npongs && atomic_load(&x->kind) != S_THINK)
                flush_pongs(x);
            continue;
        }
        if (!x->inbox_full) { /* end of input */
            pthread_mutex_unlock(&x->lock);
            break;
        }
        char *t = x->work;
        x->work = x->inbox;
        x->inbox = t;
        bool too_long = x->inbox_too_long;
        x->inbox_full = false;
        pthread_cond_signal(&x->space);
        pthread_mutex_unlock(&x->lock);
        if (too_long) {
            snprintf(x->echo, sizeof x->echo, "(a line of more than %d bytes)", LINE_MAX_BYTES - 1);
            error_reply(x, "line too long");
            continue;
        }
        if (!serve_line(x, x->work, x->tok))
            break;
        if (x->npongs && atomic_load(&x->kind) != S_THINK)
            flush_pongs(x);
    }
    cancel_search(x);
    pthread_mutex_lock(&x->lock);
    x->done = true;
    pthread_cond_broadcast(&x->space);
    pthread_mutex_unlock(&x->lock);
    return NULL;
}

static bool is_quit(const char *line)
{
    while (isspace((unsigned char)*line))
        line++;
    if (strncmp(line, "quit", 4))
        return false;
    line += 4;
    while (isspace((unsigned char)*line))
        line++;
    return !*line;
}

int cecp_main(FILE *in, Output *out, char *first_line)
{
    Cecp *x = calloc(1, sizeof *x);
    if (x) {
        x->rbuf = malloc(LINE_MAX_BYTES);
        x->inbox = malloc(LINE_MAX_BYTES);
        x->work = malloc(LINE_MAX_BYTES);
        x->scratch = malloc(sizeof *x->scratch);
    }
    if (!x || !x->rbuf || !x->inbox || !x->work || !x->scratch) {
        out_line(out, "tellusererror out of memory");
        if (x) {
            free(x->rbuf);
            free(x->inbox);
            free(x->work);
            free(x->scratch);
        }
        free(x);
        return 1;
    }
    x->out = out;
    x->force = false;
    x->engine_side = BLACK;
    x->mps = 40;
    x->base_ms = x->time_ms = x->otim_ms = 5 * 60 * 1000; /* until a level command */
    atomic_store(&x->debug, true);
    pthread_mutex_init(&x->lock, NULL);
    pthread_cond_init(&x->wake, NULL);
    pthread_cond_init(&x->space, NULL);
    EngineCallbacks cb = {on_info, on_bestmove, on_message, x};
    char err[256];
    x->engine = engine_new(&cb, err, sizeof err);
    pthread_t game;
    if (!x->engine || pthread_create(&game, NULL, game_thread, x)) {
        out_line(out, "tellusererror cannot start the engine: %s", x->engine ? "no thread" : err);
        engine_free(x->engine);
    } else {
        /* This thread reads; the first line came from protocol_main. */
        snprintf(x->rbuf, LINE_MAX_BYTES, "%s", first_line);
        bool too_long = false, have = true;
        for (;;) {
            if (!have && !read_line(in, x->rbuf, LINE_MAX_BYTES, &too_long)) {
                pthread_mutex_lock(&x->lock);
                x->eof = true;
                pthread_cond_signal(&x->wake);
                pthread_mutex_unlock(&x->lock);
                break;
            }
            have = false;
            bool quit = !too_long && is_quit(x->rbuf);
            pthread_mutex_lock(&x->lock);
            while (x->inbox_full && !x->done)
                pthread_cond_wait(&x->space, &x->lock);
            bool done = x->done;
            if (!done) {
                char *t = x->inbox;
                x->inbox = x->rbuf;
                x->rbuf = t;
                x->inbox_full = true;
                x->inbox_too_long = too_long;
                pthread_cond_signal(&x->wake);
            }
            pthread_mutex_unlock(&x->lock);
            if (done || quit)
                break;
        }
        pthread_join(game, NULL);
        engine_free(x->engine);
    }
    pthread_cond_destroy(&x->space);
    pthread_cond_destroy(&x->wake);
    pthread_mutex_destroy(&x->lock);
    free(x->rbuf);
    free(x->inbox);
    free(x->work);
    free(x->scratch);
    free(x);
    return 0;
}
