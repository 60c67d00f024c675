/* UCCI front-end (the xqbase "Universal Chinese Chess Protocol" 3.0, as
 * XQWizard and the ElephantEye lineage speak it): ucci/ucciok, options by
 * their one-word lower-case names, position fen|startpos [moves], banmoves,
 * go [ponder|draw] depth|nodes|time ...|infinite in seconds or milliseconds,
 * ponderhit [draw], stop, probe/pophash, quit/bye.  Moves are ICCS without
 * the dash, lower case, ranks 0-9 (h2e2).  Bad input is answered with an
 * "info message" line and the last good state is kept.
 *
 * Draws and resignation: the engine accepts a draw offered with go draw or
 * ponderhit draw when its score is at most drawmargin (acceptdraw, on by
 * default), offers one itself when three searches in a row scored within
 * drawmargin after move 20 (offerdraw, off by default), and resigns when it
 * sees itself mated or scored below -resignmargin twice in a row (resign,
 * off by default).  It only parses and prints; the engine API does the
 * work. */
#include "ucci.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/board/movegen.h"
#include "engine/init.h"
#include "engine/util/host.h"
#include "engine/util/num.h"
#include "engine/util/text.h"

#define HISTORY 8 /* own search scores remembered for draw offers and resignation */

/* UCCI scores: the engine's own scale (the protocol suggests a horse or
 * cannon = 100, but only displays them); mates as ElephantEye writes them,
 * 10000 less the plies to mate, a rule win 9900 less the plies. */
#define UCCI_MATE 10000
#define UCCI_RULE_WIN 9900
#define UCCI_MAX_SCORE 9799

typedef struct {
    Engine *engine;
    Output *out;
    bool millisec; /* usemillisec: go times in milliseconds, not seconds */
    Move banned[MAX_MOVES];
    int nbanned;
    Position *scratch; /* probe fen ... */
    Input in;

    /* Shared with the search thread's callbacks, under lock. */
    pthread_mutex_t lock;
    bool offer_draw, accept_draw, resign;
    int draw_margin, resign_margin;
    bool draw_offered; /* go draw / ponderhit draw for the running search */
    bool reported;     /* the last go has been answered (bestmove or nobestmove) */
    bool have_score;   /* the running search reported a score */
    int last_score;
    int search_ply; /* game ply of the position searched */
    int nhist;
    struct {
        int ply, score;
    } hist[HISTORY];
} Ucci;

/* ---- options ---- */

typedef enum {
    U_ENGINE,   /* an engine option under a UCCI name */
    U_HASH,     /* Hash, 0 = the default size */
    U_THREADS,  /* Threads, 0 = one per processor */
    U_BOOKFILES,
    U_NEWGAME,
    U_MILLISEC,
    U_OFFER_DRAW,
    U_ACCEPT_DRAW,
    U_RESIGN,
    U_DRAW_MARGIN,
    U_RESIGN_MARGIN,
} UcciOptionKind;

typedef struct {
    const char *name;
    UcciOptionKind kind;
    const char *engine_name; /* U_ENGINE and the special engine ones */
    const char *type, *def;  /* front-end options */
    long min, max;
} UcciOption;

static const UcciOption UCCI_OPTIONS[] = {
    {"usemillisec", U_MILLISEC, NULL, "check", "false", 0, 0},
    {"hashsize", U_HASH, "Hash", NULL, NULL, 0, 0},
    {"threads", U_THREADS, "Threads", NULL, NULL, 0, 0},
    {"ponder", U_ENGINE, "Ponder", NULL, NULL, 0, 0},
    {"usebook", U_ENGINE, "OwnBook", NULL, NULL, 0, 0},
    {"bookfiles", U_BOOKFILES, "BookFile", NULL, NULL, 0, 0},
    {"bookdepth", U_ENGINE, "BookDepth", NULL, NULL, 0, 0},
    {"bookvariety", U_ENGINE, "BookVariety", NULL, NULL, 0, 0},
    {"evalfile", U_ENGINE, "EvalFile", NULL, NULL, 0, 0},
    {"repetitionrule", U_ENGINE, "Repetition Rule", NULL, NULL, 0, 0},
    {"sixtymoverule", U_ENGINE, "Sixty Move Rule", NULL, NULL, 0, 0},
    {"moveoverhead", U_ENGINE, "Move Overhead", NULL, NULL, 0, 0},
    {"clearhash", U_ENGINE, "Clear Hash", NULL, NULL, 0, 0},
    {"skilllevel", U_ENGINE, "Skill Level", NULL, NULL, 0, 0},
    {"limitstrength", U_ENGINE, "UCI_LimitStrength", NULL, NULL, 0, 0},
    {"elo", U_ENGINE, "UCI_Elo", NULL, NULL, 0, 0},
    {"debuglogfile", U_ENGINE, "Debug Log File", NULL, NULL, 0, 0},
    {"newgame", U_NEWGAME, NULL, "button", NULL, 0, 0},
    {"offerdraw", U_OFFER_DRAW, NULL, "check", "false", 0, 0},
    {"acceptdraw", U_ACCEPT_DRAW, NULL, "check", "true", 0, 0},
    {"resign", U_RESIGN, NULL, "check", "false", 0, 0},
    {"drawmargin", U_DRAW_MARGIN, NULL, "spin", "20", 0, 1000},
    {"resignmargin", U_RESIGN_MARGIN, NULL, "spin", "1500", 100, 9000},
};
#define UCCI_OPTION_NB (int)(sizeof UCCI_OPTIONS / sizeof UCCI_OPTIONS[0])

static int to_ucci_score(int v)
{
    if (score_is_mate(v))
        return v > 0 ? UCCI_MATE - score_mate_plies(v) : -(UCCI_MATE + score_mate_plies(v));
    if (score_is_rule_win(v))
        return v > 0 ? UCCI_RULE_WIN - score_rule_win_plies(v) : -(UCCI_RULE_WIN + score_rule_win_plies(v));
    return v > UCCI_MAX_SCORE ? UCCI_MAX_SCORE : v < -UCCI_MAX_SCORE ? -UCCI_MAX_SCORE : v;
}

/* An echoed token, at most 64 bytes, control characters as '?'. */
static const char *shown(const char *text, char buf[65]) { return text_printable(buf, 65, text); }

/* ---- callbacks (search thread) ---- */

static void on_info(void *ctx, const EngineInfo *info)
{
    Ucci *u = ctx;
    if (info->multipv != 1 && !(info->depth == 0 && info->pv_len == 0))
        return;
    int score = to_ucci_score(info->score);
    if (info->bound == BOUND_EXACT || info->depth == 0) {
        pthread_mutex_lock(&u->lock);
        u->last_score = info->score;
        u->have_score = true;
        pthread_mutex_unlock(&u->lock);
    }
    if (info->depth == 0 && info->pv_len == 0) {
        out_line(u->out, "info depth 0 score %d", score);
        return;
    }
    /* a fail high or low is only a bound: shown as time and nodes */
    if (info->bound == BOUND_EXACT) {
        char pv[PV_TEXT_MAX];
        proto_pv_text(info, false, pv);
        out_line(u->out, "info depth %d score %d pv%s", info->depth, score, pv);
    }
    out_line(u->out, "info time %lld nodes %llu", (long long)info->time_ms, (unsigned long long)info->nodes);
}

/* The own score of the search at game ply `ply`, if remembered. */
static bool hist_score(const Ucci *u, int ply, int *score)
{
    for (int i = u->nhist - 1; i >= 0; i--)
        if (u->hist[i].ply == ply) {
            *score = u->hist[i].score;
            return true;
        }
    return false;
}

static void set_reported(Ucci *u)
{
    pthread_mutex_lock(&u->lock);
    u->reported = true;
    pthread_mutex_unlock(&u->lock);
}

static void on_bestmove(void *ctx, Move best, Move ponder)
{
    Ucci *u = ctx;
    set_reported(u);
    if (best == MOVE_NONE) {
        out_line(u->out, "nobestmove");
        return;
    }
    const char *suffix = "";
    pthread_mutex_lock(&u->lock);
    if (u->have_score) {
        int s = u->last_score, ply = u->search_ply, s2, s4;
        bool even = abs(s) <= u->draw_margin;
        bool lost = s <= -u->resign_margin;
        if (u->draw_offered && u->accept_draw && s <= u->draw_margin)
            suffix = " draw";
        else if (u->resign
                 && ((score_is_mate(s) && s < 0) || (lost && hist_score(u, ply - 2, &s2) && s2 <= -u->resign_margin)))
            suffix = " resign";
        else if (u->offer_draw && even && ply >= 40 && hist_score(u, ply - 2, &s2) && abs(s2) <= u->draw_margin
                 && hist_score(u, ply - 4, &s4) && abs(s4) <= u->draw_margin)
            suffix = " draw";
        /* remember this search; a later ply forgets what came after it */
        int k = 0;
        for (int i = 0; i < u->nhist; i++)
            if (u->hist[i].ply < ply)
                u->hist[k++] = u->hist[i];
        if (k == HISTORY) {
            memmove(u->hist, u->hist + 1, sizeof u->hist[0] * (HISTORY - 1));
            k--;
        }
        u->hist[k].ply = ply;
        u->hist[k].score = s;
        u->nhist = k + 1;
    }
    pthread_mutex_unlock(&u->lock);
    char b[8], p[8];
    move_str(best, b, false);
    if (ponder) {
        move_str(ponder, p, false);
        out_line(u->out, "bestmove %s ponder %s%s", b, p, suffix);
    } else {
        out_line(u->out, "bestmove %s%s", b, suffix);
    }
}

static void on_message(void *ctx, const char *text)
{
    Ucci *u = ctx;
    out_line(u->out, "info message %s", text);
}

/* ---- commands ---- */

static void print_option(Ucci *u, const UcciOption *o)
{
    if (!o->engine_name) {
        if (!strcmp(o->type, "spin"))
            out_line(u->out, "option %s type spin min %ld max %ld default %s", o->name, o->min, o->max, o->def);
        else if (!strcmp(o->type, "button"))
            out_line(u->out, "option %s type button", o->name);
        else
            out_line(u->out, "option %s type %s default %s", o->name, o->type, o->def);
        return;
    }
    const OptionInfo *e = engine_find_option(o->engine_name);
    if (!e)
        return;
    switch (e->type) {
    case OPT_SPIN:
        out_line(u->out, "option %s type spin min %ld max %ld default %s", o->name,
                 o->kind == U_HASH || o->kind == U_THREADS ? 0 : e->min, e->max, e->def);
        break;
    case OPT_CHECK:
        out_line(u->out, "option %s type check default %s", o->name, e->def);
        break;
    case OPT_BUTTON:
        out_line(u->out, "option %s type button", o->name);
        break;
    case OPT_STRING:
        out_line(u->out, "option %s type string default %s", o->name, *e->def ? e->def : "<empty>");
        break;
    case OPT_COMBO: {
        char vars[256] = "";
        size_t n = 0;
        for (int k = 0; e->vars[k] && n < sizeof vars; k++)
            n += (size_t)snprintf(vars + n, sizeof vars - n, " var %s", e->vars[k]);
        out_line(u->out, "option %s type combo%s default %s", o->name, vars, e->def);
        break;
    }
    }
}

static void cmd_ucci(Ucci *u)
{
    out_line(u->out, "id name %s %s", CHUHAN_NAME, chuhan_version());
    out_line(u->out, "id copyright the Chuhan developers");
    out_line(u->out, "id author the Chuhan developers");
    out_line(u->out, "id user everyone");
    for (int i = 0; i < UCCI_OPTION_NB; i++)
        print_option(u, &UCCI_OPTIONS[i]);
    out_line(u->out, "ucciok");
}

static bool parse_bool(const char *v, bool *out)
{
    if (!strcasecmp(v, "true") || !strcasecmp(v, "on") || !strcmp(v, "1"))
        *out = true;
    else if (!strcasecmp(v, "false") || !strcasecmp(v, "off") || !strcmp(v, "0"))
        *out = false;
    else
        return false;
    return true;
}

static void set_engine_option(Ucci *u, const char *ucci_name, const char *name, const char *value)
{
    char err[256];
    if (!engine_set_option(u->engine, name, value, err, sizeof err))
        out_line(u->out, "info message setoption %s: %s", ucci_name, err);
}

/* setoption <name> [<value words>]; also the UCI form "setoption name N value V"
 * for any engine option by its UCI name. */
static void cmd_setoption(Ucci *u, char **tok, int n)
{
    char value[ENGINE_VALUE_MAX] = "", s[65];
    if (n < 2) {
        out_line(u->out, "info message setoption: expected 'setoption <option> [<value>]'");
        return;
    }
    if (!strcmp(tok[1], "name")) {
        char name[256];
        bool has_value;
        int got = proto_option_words(tok, n, 2, false, name, sizeof name, value, sizeof value, &has_value);
        if (got < 0)
            out_line(u->out, "info message setoption: a name over %zu or a value over %d characters is refused",
                     sizeof name - 1, ENGINE_VALUE_MAX - 1);
        else if (!got)
            out_line(u->out, "info message setoption: no option name");
        else
            set_engine_option(u, name, name, has_value ? value : NULL);
        return;
    }
    if (!proto_join(tok, 2, n, value, sizeof value)) {
        out_line(u->out, "info message setoption %s: a value over %d characters is refused", shown(tok[1], s),
                 ENGINE_VALUE_MAX - 1);
        return;
    }
    const UcciOption *o = NULL;
    for (int i = 0; i < UCCI_OPTION_NB && !o; i++)
        if (!strcasecmp(UCCI_OPTIONS[i].name, tok[1]))
            o = &UCCI_OPTIONS[i];
    if (!o) {
        /* The protocol lets a GUI set options that were not offered. */
        out_line(u->out, "info message setoption: option '%s' is not supported; ignored", shown(tok[1], s));
        return;
    }
    bool flag = false;
    int64_t num = 0;
    bool is_check = o->type ? !strcmp(o->type, "check") : false;
    bool is_spin = o->type ? !strcmp(o->type, "spin") : false;
    if (is_check && !parse_bool(value, &flag)) {
        out_line(u->out, "info message setoption %s: must be true or false, not '%s'", o->name, shown(value, s));
        return;
    }
    bool numeric = is_spin || o->kind == U_HASH || o->kind == U_THREADS;
    if (numeric && !num_clamp(value, INT64_MIN, INT64_MAX, &num)) {
        out_line(u->out, "info message setoption %s: '%s' is not a number", o->name, shown(value, s));
        return;
    }
    if (numeric) {
        /* Out of range is refused, as UCI refuses it, not clamped: a GUI
         * that sends threads -1 learns so.  0 keeps its UCCI meaning for
         * hashsize and threads. */
        long min = o->min, max = o->max;
        const char *zero = "";
        if (o->kind == U_HASH || o->kind == U_THREADS) {
            min = 0;
            max = engine_find_option(o->engine_name)->max;
            zero = o->kind == U_HASH ? " (0: the default size)" : " (0: one per processor)";
        }
        if (num < min || num > max) {
            out_line(u->out, "info message setoption %s: must be a number from %ld to %ld%s, not '%s'; unchanged",
                     o->name, min, max, zero, shown(value, s));
            return;
        }
    }
    char buf[32];
    switch (o->kind) {
    case U_ENGINE:
        if (engine_find_option(o->engine_name)->type == OPT_CHECK && parse_bool(value, &flag))
            snprintf(value, sizeof value, "%s", flag ? "true" : "false");
        set_engine_option(u, o->name, o->engine_name, *value ? value : NULL);
        break;
    case U_HASH:
        snprintf(buf, sizeof buf, "%lld", (long long)(num ? num : atol(engine_find_option("Hash")->def)));
        set_engine_option(u, o->name, "Hash", buf);
        break;
    case U_THREADS: {
        long cpus = host_cpus();
        long max = engine_find_option("Threads")->max;
        long t = num ? (long)num : cpus < 1 ? 1 : cpus > max ? max : cpus;
        snprintf(buf, sizeof buf, "%ld", t);
        set_engine_option(u, o->name, "Threads", buf);
        break;
    }
    case U_BOOKFILES: {
        /* Several files may be named with ';': one book is used.  An empty
         * value turns the book off, as the protocol says: BookFile empty,
         * so that usebook true does not bring the built-in one back. */
        char *semi = strchr(value, ';');
        if (semi) {
            *semi = 0;
            out_line(u->out, "info message bookfiles: only the first book is used, %s", value);
        }
        set_engine_option(u, o->name, "BookFile", strcasecmp(value, "<empty>") ? value : "");
        break;
    }
    case U_NEWGAME:
        engine_new_game(u->engine);
        pthread_mutex_lock(&u->lock);
        u->nhist = 0;
        pthread_mutex_unlock(&u->lock);
        break;
    case U_MILLISEC:
        u->millisec = flag;
        break;
    default:
        pthread_mutex_lock(&u->lock);
        if (o->kind == U_OFFER_DRAW)
            u->offer_draw = flag;
        else if (o->kind == U_ACCEPT_DRAW)
            u->accept_draw = flag;
        else if (o->kind == U_RESIGN)
            u->resign = flag;
        else if (o->kind == U_DRAW_MARGIN)
            u->draw_margin = (int)num;
        else if (o->kind == U_RESIGN_MARGIN)
            u->resign_margin = (int)num;
        pthread_mutex_unlock(&u->lock);
        break;
    }
}

/* "fen <FEN> [moves ...]" or "startpos [moves ...]" after the command:
 * the FEN (NULL for startpos) into fen, the index of the first move; a
 * message when they are not. */
static bool parse_position_args(Ucci *u, const char *cmd, char **tok, int n, char *fen, size_t fenlen,
                                const char **fenp, int *moves_at)
{
    char why[128];
    if (proto_position_words(tok, n, 1, false, fen, fenlen, fenp, moves_at, why, sizeof why))
        return true;
    out_line(u->out, "info message %s: %s", cmd, why);
    return false;
}

static void cmd_position(Ucci *u, char **tok, int n)
{
    char fen[512], err[256];
    const char *fenp;
    int moves_at;
    if (!parse_position_args(u, "position", tok, n, fen, sizeof fen, &fenp, &moves_at)) {
        out_line(u->out, "info message position unchanged");
        return;
    }
    if (!engine_set_position(u->engine, fenp, (const char *const *)tok + moves_at, n - moves_at, false, err,
                             sizeof err)) {
        out_line(u->out, "info message position: %s; position unchanged", err);
        return;
    }
    u->nbanned = 0; /* banned moves belong to the position they were given for */
}

static void cmd_banmoves(Ucci *u, char **tok, int n)
{
    const Position *pos = engine_position(u->engine);
    u->nbanned = 0;
    for (int i = 1; i < n; i++) {
        Move m = parse_move(pos, tok[i], false);
        char s[65];
        if (m == MOVE_NONE) {
            out_line(u->out, "info message banmoves: '%s' is not a legal move here; ignored", shown(tok[i], s));
            continue;
        }
        bool dup = false;
        for (int k = 0; k < u->nbanned; k++)
            dup |= u->banned[k] == m;
        if (!dup && u->nbanned < MAX_MOVES)
            u->banned[u->nbanned++] = m;
    }
}

/* A time in the current unit (seconds, fractions allowed, or milliseconds)
 * as milliseconds, clamped to [0, 2^40]. */
static bool parse_time(const Ucci *u, const char *text, int64_t *ms)
{
    const int64_t BIG = (int64_t)1 << 40;
    const char *dot = strchr(text, '.');
    if (!dot || u->millisec) {
        int64_t v;
        if (!num_clamp(text, -BIG, BIG, &v))
            return false;
        if (!u->millisec)
            v = v > BIG / 1000 ? BIG : v < -BIG / 1000 ? -BIG : v * 1000;
        *ms = v < 0 ? 0 : v;
        return true;
    }
    char whole[32];
    size_t len = (size_t)(dot - text);
    if (len >= sizeof whole || !dot[1] || strspn(dot + 1, "0123456789") != strlen(dot + 1))
        return false;
    memcpy(whole, text, len);
    whole[len] = 0;
    int64_t v = 0;
    if (len && !num_clamp(whole, -BIG, BIG, &v))
        return false;
    int64_t frac = 0, scale = 100;
    for (const char *p = dot + 1; *p && scale; p++, scale /= 10)
        frac += (*p - '0') * scale;
    v = v > BIG / 1000 ? BIG : v < -BIG / 1000 ? -BIG : v * 1000 + (text[0] == '-' ? -frac : frac);
    *ms = v < 0 ? 0 : v;
    return true;
}

/* A refused go leaves the GUI waiting for a move: a stop that follows is
 * answered with nobestmove, as after a search.  The two readers below
 * refuse a go's parameters, so they mark it. */
static void go_refused(Ucci *u)
{
    pthread_mutex_lock(&u->lock);
    u->reported = false;
    pthread_mutex_unlock(&u->lock);
}

/* The number after a go parameter (protocol.c), refused in UCCI's words. */
static bool go_number(Ucci *u, char **tok, int n, int *i, int64_t min, int64_t max, int64_t *v)
{
    if (proto_go_number(u->out, "info message", tok, n, i, min, max, v))
        return true;
    go_refused(u);
    return false;
}

static bool go_time(Ucci *u, char **tok, int n, int *i, int64_t *out)
{
    char s[65];
    if (*i + 1 >= n || !parse_time(u, tok[*i + 1], out)) {
        out_line(u->out, "info message go: '%s' needs a time", shown(tok[*i], s));
        go_refused(u);
        return false;
    }
    (*i)++;
    return true;
}

static void cmd_go(Ucci *u, char **tok, int n)
{
    if (engine_thinking(u->engine)) {
        out_line(u->out, "info message go: still thinking; send stop first");
        return;
    }
    EngineLimits lim;
    limits_clear(&lim);
    const Position *pos = engine_position(u->engine);
    int us = pos->side, them = !us;
    bool draw = false, any_mode = false, depth0 = false;
    for (int i = 1; i < n; i++) {
        const char *t = tok[i];
        int64_t v;
        char s[65];
        if (!strcmp(t, "ponder"))
            lim.ponder = true;
        else if (!strcmp(t, "draw"))
            draw = true;
        else if (!strcmp(t, "infinite"))
            lim.infinite = any_mode = true;
        else if (!strcmp(t, "depth") && i + 1 < n && !strcmp(tok[i + 1], "infinite")) {
            lim.infinite = any_mode = true; /* "go depth infinite", as some GUIs send */
            i++;
        } else if (!strcmp(t, "depth")) {
            if (!go_number(u, tok, n, &i, 0, 10000, &v))
                return;
            lim.depth = (int)v;
            depth0 = v == 0;
            any_mode = true;
        } else if (!strcmp(t, "nodes")) {
            if (!go_number(u, tok, n, &i, 1, INT64_MAX, &v))
                return;
            lim.nodes = (uint64_t)v;
            any_mode = true;
        } else if (!strcmp(t, "time") || !strcmp(t, "opptime")) {
            if (!go_time(u, tok, n, &i, &v))
                return;
            lim.time[t[0] == 't' ? us : them] = v;
            any_mode = true;
        } else if (!strcmp(t, "increment") || !strcmp(t, "oppincrement")) {
            if (!go_time(u, tok, n, &i, &v))
                return;
            lim.inc[t[0] == 'i' ? us : them] = v;
        } else if (!strcmp(t, "movestogo")) {
            if (!go_number(u, tok, n, &i, 0, 10000, &v))
                return;
            lim.movestogo = (int)v;
        } else if (!strcmp(t, "oppmovestogo")) {
            if (!go_number(u, tok, n, &i, 0, 10000, &v))
                return;
        } else {
            out_line(u->out, "info message go: unknown parameter '%s' ignored", shown(t, s));
        }
    }
    if (proto_clock_fallback(&lim, us)) {
        /* told in the unit of the go command */
        long long t = lim.time[us], inc = lim.inc[us];
        if (u->millisec)
            out_line(u->out, "info message go: no 'time' for the side to move; searching as with time %lld increment %lld",
                     t, inc);
        else
            out_line(u->out,
                     "info message go: no 'time' for the side to move; searching as with time %lld.%03lld increment "
                     "%lld.%03lld", t / 1000, t % 1000, inc / 1000, inc % 1000);
        any_mode = true;
    } else if (lim.time[us] < 0 && lim.inc[us] >= 0) {
        out_line(u->out, "info message go: 'increment' without 'time'; thinking without a clock");
        lim.inc[us] = -1;
    }
    if (depth0) {
        /* depth 0: the static evaluation only, and no move */
        out_line(u->out, "info depth 0 score %d", to_ucci_score(engine_eval(u->engine)));
        out_line(u->out, "nobestmove");
        set_reported(u);
        return;
    }
    if (!any_mode)
        lim.infinite = true; /* a bare go thinks until stop */
    if (u->nbanned) {
        Move legal[MAX_MOVES];
        int k = gen_legal(pos, legal);
        for (int j = 0; j < k; j++) {
            bool ban = false;
            for (int b = 0; b < u->nbanned; b++)
                ban |= legal[j] == u->banned[b];
            if (!ban)
                lim.searchmoves[lim.nsearchmoves++] = legal[j];
        }
        if (lim.nsearchmoves == 0) {
            out_line(u->out, "info message go: every legal move is banned");
            out_line(u->out, "nobestmove");
            set_reported(u);
            return;
        }
    }
    /* A stopped search may still be reporting its move: let it finish
     * before this search's state is set, or its bestmove would count as
     * this one's answer. */
    engine_wait(u->engine);
    pthread_mutex_lock(&u->lock);
    u->draw_offered = draw;
    u->reported = false;
    u->have_score = false;
    u->search_ply = pos_game_ply(pos);
    pthread_mutex_unlock(&u->lock);
    engine_go(u->engine, &lim);
}

static void cmd_ponderhit(Ucci *u, char **tok, int n)
{
    if (n > 1 && !strcmp(tok[1], "draw")) {
        pthread_mutex_lock(&u->lock);
        u->draw_offered = true;
        pthread_mutex_unlock(&u->lock);
    }
    engine_ponderhit(u->engine);
}

static void cmd_probe(Ucci *u, char **tok, int n)
{
    EngineProbe d;
    bool found;
    if (n == 1) {
        found = engine_probe(u->engine, NULL, &d);
    } else {
        char fen[512], why[160];
        const char *fenp;
        int moves_at;
        if (!parse_position_args(u, "probe", tok, n, fen, sizeof fen, &fenp, &moves_at)) {
            out_line(u->out, "pophash");
            return;
        }
        Position *pos = u->scratch;
        if (!pos_set_fen(pos, fenp ? fenp : START_FEN, why, sizeof why)) {
            out_line(u->out, "info message probe: bad FEN: %s", why);
            out_line(u->out, "pophash");
            return;
        }
        for (int i = moves_at; i < n; i++) {
            Move m = pos_room(pos) > MAX_PLY ? parse_move(pos, tok[i], false) : MOVE_NONE;
            char s[65];
            if (m == MOVE_NONE) {
                out_line(u->out, "info message probe: illegal move '%s'", shown(tok[i], s));
                out_line(u->out, "pophash");
                return;
            }
            pos_do_move(pos, m);
        }
        found = engine_probe(u->engine, pos, &d);
    }
    if (!found) {
        out_line(u->out, "pophash");
        return;
    }
    char text[128] = "pophash";
    size_t len = strlen(text);
    if (d.move) {
        char m[8];
        move_str(d.move, m, false);
        len += (size_t)snprintf(text + len, sizeof text - len, " bestmove %s", m);
    }
    int v = to_ucci_score(d.value), depth = d.depth < 0 ? 0 : d.depth;
    if (d.bound & BOUND_LOWER)
        len += (size_t)snprintf(text + len, sizeof text - len, " lowerbound %d depth %d", v, depth);
    if (d.bound & BOUND_UPPER)
        snprintf(text + len, sizeof text - len, " upperbound %d depth %d", v, depth);
    out_line(u->out, "%s", text);
}

int ucci_serve(FILE *in, Output *out, const char *first_line)
{
    Ucci *u = calloc(1, sizeof *u);
    Position *scratch = malloc(sizeof *scratch);
    if (!u || !scratch || !in_open(&u->in, in, first_line, out, "info message")) {
        out_line(out, "info message out of memory");
        if (u)
            in_close(&u->in);
        free(u);
        free(scratch);
        return 1;
    }
    u->out = out;
    u->scratch = scratch;
    u->accept_draw = true;
    u->draw_margin = 20;
    u->resign_margin = 1500;
    pthread_mutex_init(&u->lock, NULL);
    EngineCallbacks cb = {on_info, on_bestmove, on_message, u};
    char err[256];
    u->engine = engine_new(&cb, err, sizeof err);
    if (!u->engine) {
        out_line(out, "info message cannot start the engine: %s", err);
        pthread_mutex_destroy(&u->lock);
        in_close(&u->in);
        free(scratch);
        free(u);
        return 1;
    }
    out_set_log(out, engine_debug_log(u->engine));
    int n;
    while ((n = in_next(&u->in)) > 0) {
        char **tok = u->in.tok;
        /* A search that has sent its bestmove is finishing: let it, so that
         * a go or setoption right after bestmove never finds it busy. */
        pthread_mutex_lock(&u->lock);
        bool reported = u->reported;
        pthread_mutex_unlock(&u->lock);
        if (reported)
            engine_wait(u->engine);
        const char *c = tok[0];
        if (!strcmp(c, "ucci"))
            cmd_ucci(u);
        else if (!strcmp(c, "isready"))
            out_line(out, "readyok");
        else if (!strcmp(c, "setoption"))
            cmd_setoption(u, tok, n);
        else if (!strcmp(c, "position"))
            cmd_position(u, tok, n);
        else if (!strcmp(c, "banmoves"))
            cmd_banmoves(u, tok, n);
        else if (!strcmp(c, "go"))
            cmd_go(u, tok, n);
        else if (!strcmp(c, "ponderhit"))
            cmd_ponderhit(u, tok, n);
        else if (!strcmp(c, "stop")) {
            /* idle and the last go unanswered (or none): the GUI has lost
             * track and may be waiting, so say nobestmove; a stop that
             * crossed the bestmove is ignored */
            if (engine_searching(u->engine)) {
                engine_stop(u->engine);
            } else {
                pthread_mutex_lock(&u->lock); /* idle: the search's callback is over */
                bool answered = u->reported;
                pthread_mutex_unlock(&u->lock);
                if (!answered)
                    out_line(out, "nobestmove");
            }
        } else if (!strcmp(c, "probe"))
            cmd_probe(u, tok, n);
        else if (!strcmp(c, "quit"))
            break;
        else {
            char s[65];
            out_line(out, "info message unknown command '%s'", shown(c, s));
        }
    }
    engine_stop(u->engine);
    engine_wait(u->engine); /* its move is logged too */
    out_line(out, "bye");
    out_set_log(out, NULL);
    engine_free(u->engine);
    pthread_mutex_destroy(&u->lock);
    in_close(&u->in);
    free(scratch);
    free(u);
    return 0;
}
