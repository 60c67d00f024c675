/* CECP / xboard front-end (protocol 2, XBoard's engine-intf): the xiangqi
 * variant only, moves in XBoard's coordinates, which for a board of ten
 * ranks count the ranks from 0 (h2e2: Red's cannon to the centre), the same
 * text as our UCI form.  This file reads and parses the commands; the game
 * they drive (the moves the engine plays, its clock, its searches, its
 * claims) is the controller's, cecp_game.c.
 *
 * Two threads: the calling thread reads lines and hands them over one at a
 * time; the game thread owns all the state and serves both the lines and
 * the search results (the engine's bestmove callback only posts the move),
 * so a move, a claim and a reply to ping always come out in order (a ping
 * that arrives while the engine thinks on its move is answered after the
 * move; nothing waits for a search but "?" and the commands that make the
 * engine move at once).  Bad input is answered with "Error (...): ..." or
 * "Illegal move: ...". */
#include "cecp.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cecp_private.h"
#include "engine/init.h"
#include "engine/util/num.h"
#include "engine/util/text.h"

void cecp_error(Cecp *x, const char *type) { out_line(x->out, "Error (%s): %s", type, x->echo); }

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
             CHUHAN_NAME, chuhan_version());
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

static void cmd_level(Cecp *x, char **tok, int n)
{
    int64_t mps, base, inc;
    if (n != 4 || !num_clamp(tok[1], 0, 100000, &mps) || !parse_base(tok[2], &base) || !parse_seconds(tok[3], &inc)) {
        cecp_error(x, "bad arguments");
        return;
    }
    CecpClock *c = &x->clock;
    c->mps = (int)mps;
    c->base_ms = base;
    c->inc_ms = inc;
    c->st_ms = 0;
    c->time_ms = c->otim_ms = base;
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
        cecp_error(x, "unknown option");
        return;
    }
    const char *value = eq ? eq + 1 : NULL;
    if (o->type == OPT_CHECK && value)
        value = !strcmp(value, "1") ? "true" : !strcmp(value, "0") ? "false" : value;
    game_set_option(x, o->name, value);
}

/* memory N, cores N: a number out of the option's range is refused as
 * the engine options are (Error (bad value), the reason on the debug
 * channel), never clamped. */
static void cmd_memory_cores(Cecp *x, const char *name, const char *arg, int64_t max)
{
    int64_t v;
    if (!arg || !num_clamp(arg, INT64_MIN, INT64_MAX, &v)) {
        cecp_error(x, "bad arguments");
        return;
    }
    if (v < 1 || v > max) {
        char shown[65];
        cecp_error(x, "bad value");
        if (atomic_load(&x->debug))
            out_line(x->out, "# %s must be a number from 1 to %lld, not '%s'", name, (long long)max,
                     text_printable(shown, sizeof shown, arg));
        return;
    }
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)v);
    game_set_option(x, name, buf);
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
    int n = proto_tokenize(line, tok, MAX_TOKENS);
    if (n == 0)
        return true;
    if (n == MAX_TOKENS) {
        cecp_error(x, "too many words");
        return true;
    }
    const char *c = tok[0];
    int64_t v;
    CecpClock *clock = &x->clock;
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
            cecp_error(x, "bad arguments");
        else if (v >= 2)
            cmd_features(x);
    } else if (!strcmp(c, "new")) {
        game_new(x);
    } else if (!strcmp(c, "variant")) {
        if (n < 2 || strcmp(tok[1], "xiangqi"))
            cecp_error(x, "unsupported variant");
    } else if (!strcmp(c, "force")) {
        game_force(x);
    } else if (!strcmp(c, "go")) {
        game_go(x);
    } else if (!strcmp(c, "playother")) {
        game_playother(x);
    } else if (!strcmp(c, "usermove")) {
        if (n < 2)
            cecp_error(x, "bad arguments");
        else
            game_usermove(x, tok[1]);
    } else if (looks_like_move(c) && n == 1) {
        game_usermove(x, c);
    } else if (!strcmp(c, "?")) {
        game_move_now(x);
    } else if (!strcmp(c, "ping")) {
        game_ping(x, n > 1 ? tok[1] : "");
    } else if (!strcmp(c, "level")) {
        cmd_level(x, tok, n);
    } else if (!strcmp(c, "st")) {
        if (n != 2 || !parse_seconds(tok[1], &v) || v <= 0)
            cecp_error(x, "bad arguments");
        else
            clock->st_ms = v;
    } else if (!strcmp(c, "sd")) {
        if (n != 2 || !num_clamp(tok[1], 1, MAX_PLY - 4, &v))
            cecp_error(x, "bad arguments");
        else
            clock->sd = (int)v;
    } else if (!strcmp(c, "time") || !strcmp(c, "otim")) {
        /* centiseconds; a clock may show less than zero */
        if (n != 2 || !num_clamp(tok[1], -((int64_t)1 << 40), (int64_t)1 << 40, &v))
            cecp_error(x, "bad arguments");
        else
            *(c[0] == 't' ? &clock->time_ms : &clock->otim_ms) = v * 10;
    } else if (!strcmp(c, "undo")) {
        game_undo(x, 1);
    } else if (!strcmp(c, "remove")) {
        game_undo(x, 2);
    } else if (!strcmp(c, "setboard")) {
        char fen[512];
        proto_join(tok, 1, n, fen, sizeof fen);
        game_setboard(x, fen);
    } else if (!strcmp(c, "result")) {
        game_over(x);
    } else if (!strcmp(c, "post") || !strcmp(c, "nopost")) {
        atomic_store(&x->post, c[0] == 'p');
    } else if (!strcmp(c, "hard") || !strcmp(c, "easy")) {
        game_ponder(x, c[0] == 'h');
    } else if (!strcmp(c, "analyze")) {
        game_analyze(x);
    } else if (!strcmp(c, "exit")) {
        game_exit(x);
    } else if (!strcmp(c, ".")) {
        game_stat(x);
    } else if (!strcmp(c, "memory")) {
        cmd_memory_cores(x, "Hash", n > 1 ? tok[1] : NULL, engine_find_option("Hash")->max);
    } else if (!strcmp(c, "cores")) {
        cmd_memory_cores(x, "Threads", n > 1 ? tok[1] : NULL, engine_find_option("Threads")->max);
    } else if (looks_like_move(c)) {
        cecp_error(x, "bad move syntax");
    } else {
        cecp_error(x, "unknown command");
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
            game_result(x);
            game_flush_pongs(x);
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
        /* logged as served, after the lines before it took effect (one
         * may be the Debug Log File option) */
        out_log_in(x->out, x->work);
        if (too_long) {
            snprintf(x->echo, sizeof x->echo, "(a line of more than %d bytes)", LINE_MAX_BYTES - 1);
            cecp_error(x, "line too long");
            continue;
        }
        if (!serve_line(x, x->work, x->tok))
            break;
        game_flush_pongs(x);
    }
    game_close(x);
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

int cecp_serve(FILE *in, Output *out, const char *first_line)
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
    x->clock.mps = 40;
    x->clock.base_ms = x->clock.time_ms = x->clock.otim_ms = 5 * 60 * 1000; /* until a level command */
    atomic_store(&x->debug, true);
    pthread_mutex_init(&x->lock, NULL);
    pthread_cond_init(&x->wake, NULL);
    pthread_cond_init(&x->space, NULL);
    char err[256];
    pthread_t game;
    if (!game_open(x, err, sizeof err) || pthread_create(&game, NULL, game_thread, x)) {
        out_line(out, "tellusererror cannot start the engine: %s", x->engine ? "no thread" : err);
        engine_free(x->engine);
    } else {
        out_set_log(out, engine_debug_log(x->engine));
        /* This thread reads; the first line may have been read already. */
        snprintf(x->rbuf, LINE_MAX_BYTES, "%s", first_line ? first_line : "");
        bool too_long = false, have = first_line != NULL;
        for (;;) {
            if (!have && !proto_read_line(in, x->rbuf, LINE_MAX_BYTES, &too_long)) {
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
        engine_stop(x->engine);
        engine_wait(x->engine);
        out_set_log(out, NULL);
        engine_free(x->engine);
    }
    pthread_cond_destroy(&x->space);
    pthread_cond_destroy(&x->wake);
    pthread_mutex_destroy(&x->lock);
    free(x->pongs);
    free(x->rbuf);
    free(x->inbox);
    free(x->work);
    free(x->scratch);
    free(x);
    return 0;
}
