/* UCI front-end, in the dialect xiangqi GUIs speak (Pikafish-compatible:
 * moves like h2e2 with ranks 0-9, no variant option needed).  A GUI that
 * sets the UCI_Variant option (cutechess's xiangqi branch, Fairy-Stockfish's
 * dialect) gets moves with ranks 1-10 instead, in and out.  It only parses
 * and prints; the engine API does the work. */
#include "uci.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/board/movegen.h"
#include "engine/init.h"
#include "engine/util/text.h"

typedef struct {
    Engine *engine;
    Output *out;
    Input in;
    atomic_bool show_wdl; /* read by the search thread's info callback */
    atomic_bool rank1; /* UCI_Variant mode: ranks 1-10 (read by the search thread's callbacks) */
} Uci;

static void format_score(int score, char *buf, size_t len)
{
    if (score_is_decisive(score)) /* a rule win too (search/score.h) */
        snprintf(buf, len, "mate %d", score_decisive_in(score));
    else
        snprintf(buf, len, "cp %d", score);
}

static void on_info(void *ctx, const EngineInfo *info)
{
    Uci *u = ctx;
    char score[32], wdl[48] = "", pv[PV_TEXT_MAX];
    format_score(info->score, score, sizeof score);
    const char *bound = info->bound == BOUND_LOWER ? " lowerbound" : info->bound == BOUND_UPPER ? " upperbound" : "";
    if (atomic_load(&u->show_wdl) && !score_is_decisive(info->score)) {
        int w[3];
        score_wdl(info->score, score_material(engine_position(u->engine)), w);
        snprintf(wdl, sizeof wdl, " wdl %d %d %d", w[0], w[1], w[2]);
    }
    proto_pv_text(info, atomic_load(&u->rank1), pv);
    uint64_t nps = info->time_ms > 0 ? info->nodes * 1000 / (uint64_t)info->time_ms : info->nodes;
    if (info->depth == 0 && info->pv_len == 0) {
        out_line(u->out, "info depth 0 score %s", score);
        return;
    }
    out_line(u->out, "info depth %d seldepth %d multipv %d score %s%s%s nodes %llu nps %llu hashfull %d time %lld pv%s",
             info->depth, info->seldepth, info->multipv, score, bound, wdl, (unsigned long long)info->nodes,
             (unsigned long long)nps, info->hashfull, (long long)info->time_ms, pv);
}

static void on_bestmove(void *ctx, Move best, Move ponder)
{
    Uci *u = ctx;
    char b[8], p[8];
    bool rank1 = atomic_load(&u->rank1);
    move_str(best, b, rank1);
    if (best && ponder) {
        move_str(ponder, p, rank1);
        out_line(u->out, "bestmove %s ponder %s", b, p);
    } else {
        out_line(u->out, "bestmove %s", b);
    }
}

static void on_message(void *ctx, const char *text)
{
    Uci *u = ctx;
    out_line(u->out, "info string %s", text);
}

static void cmd_uci(Uci *u)
{
    out_line(u->out, "id name %s %s", CHUHAN_NAME, chuhan_version());
    out_line(u->out, "id author the Chuhan developers");
    for (int i = 0; i < engine_option_count(); i++) {
        const OptionInfo *o = engine_option(i);
        switch (o->type) {
        case OPT_SPIN:
            out_line(u->out, "option name %s type spin default %s min %ld max %ld", o->name, o->def, o->min, o->max);
            break;
        case OPT_CHECK:
            out_line(u->out, "option name %s type check default %s", o->name, o->def);
            break;
        case OPT_BUTTON:
            out_line(u->out, "option name %s type button", o->name);
            break;
        case OPT_STRING:
            out_line(u->out, "option name %s type string default %s", o->name, *o->def ? o->def : "<empty>");
            break;
        case OPT_COMBO: {
            char vars[256] = "";
            size_t n = 0;
            for (int k = 0; o->vars[k] && n < sizeof vars; k++)
                n += (size_t)snprintf(vars + n, sizeof vars - n, " var %s", o->vars[k]);
            out_line(u->out, "option name %s type combo default %s%s", o->name, o->def, vars);
            break;
        }
        }
    }
    /* Offered for GUIs that pick a variant: setting it switches to ranks 1-10. */
    out_line(u->out, "option name UCI_Variant type combo default xiangqi var xiangqi");
    out_line(u->out, "uciok");
}

/* setoption name <name words> [value <value words>] */
static void cmd_setoption(Uci *u, char **tok, int n)
{
    if (n < 2 || strcasecmp(tok[1], "name")) {
        out_line(u->out, "info string setoption: expected 'setoption name <name> [value <value>]'");
        return;
    }
    char name[256], value[ENGINE_VALUE_MAX];
    bool has_value;
    int got = proto_option_words(tok, n, 2, true, name, sizeof name, value, sizeof value, &has_value);
    if (got < 0) {
        out_line(u->out, "info string setoption: a name over %zu or a value over %d characters is refused",
                 sizeof name - 1, ENGINE_VALUE_MAX - 1);
        return;
    }
    if (!got) {
        out_line(u->out, "info string setoption: no option name");
        return;
    }
    if (!strcasecmp(name, "UCI_Variant")) {
        /* The variant mode: moves with ranks 1-10, as cutechess and Fairy-Stockfish write them. */
        if (strcasecmp(value, "xiangqi"))
            out_line(u->out, "info string UCI_Variant must be xiangqi, not '%.64s'", value);
        else {
            atomic_store(&u->rank1, true);
            engine_set_rank1(u->engine, true);
        }
        return;
    }
    char err[256];
    if (!engine_set_option(u->engine, name, has_value ? value : NULL, err, sizeof err)) {
        out_line(u->out, "info string %s", err);
        return;
    }
    if (!strcasecmp(name, "UCI_ShowWDL"))
        atomic_store(&u->show_wdl, !strcasecmp(value, "true"));
}

/* position startpos|fen <fen> [moves ...], and the bare "fen <fen> [moves]" */
static void cmd_position(Uci *u, char **tok, int n, int start)
{
    char fen[512], err[256];
    const char *fenp;
    int moves_at;
    if (!proto_position_words(tok, n, start, true, fen, sizeof fen, &fenp, &moves_at, err, sizeof err)
        || !engine_set_position(u->engine, fenp, (const char *const *)tok + moves_at, n - moves_at,
                                atomic_load(&u->rank1), err, sizeof err))
        out_line(u->out, "info string position: %s; position unchanged", err);
}

/* The number after a go parameter (protocol.c), refused in UCI's words. */
static bool go_number(Uci *u, char **tok, int n, int *i, int64_t min, int64_t max, int64_t *v)
{
    return proto_go_number(u->out, "info string", tok, n, i, min, max, v);
}

static void cmd_go(Uci *u, char **tok, int n)
{
    if (engine_thinking(u->engine)) {
        out_line(u->out, "info string go: already searching; send stop first");
        return;
    }
    EngineLimits lim;
    limits_clear(&lim);
    const int64_t BIG = (int64_t)1 << 40;
    const Position *pos = engine_position(u->engine);
    for (int i = 1; i < n; i++) {
        const char *t = tok[i];
        int64_t v;
        if (!strcmp(t, "infinite"))
            lim.infinite = true;
        else if (!strcmp(t, "ponder"))
            lim.ponder = true;
        else if (!strcmp(t, "wtime") || !strcmp(t, "btime") || !strcmp(t, "winc") || !strcmp(t, "binc")) {
            if (!go_number(u, tok, n, &i, 0, BIG, &v))
                return;
            int c = t[0] == 'w' ? RED : BLACK;
            if (t[1] == 't')
                lim.time[c] = v;
            else
                lim.inc[c] = v;
        } else if (!strcmp(t, "movestogo")) {
            if (!go_number(u, tok, n, &i, 0, 10000, &v))
                return;
            lim.movestogo = (int)v;
        } else if (!strcmp(t, "depth") && i + 1 < n && !strcmp(tok[i + 1], "infinite")) {
            lim.infinite = true; /* "go depth infinite", as some GUIs send */
            i++;
        } else if (!strcmp(t, "depth")) {
            if (!go_number(u, tok, n, &i, 1, 10000, &v))
                return;
            lim.depth = (int)v;
        } else if (!strcmp(t, "nodes")) {
            if (!go_number(u, tok, n, &i, 1, INT64_MAX, &v))
                return;
            lim.nodes = (uint64_t)v;
        } else if (!strcmp(t, "movetime")) {
            if (!go_number(u, tok, n, &i, 1, BIG, &v))
                return;
            lim.movetime = v;
        } else if (!strcmp(t, "mate")) {
            if (!go_number(u, tok, n, &i, 1, MAX_PLY / 2, &v))
                return;
            lim.mate = (int)v;
        } else if (!strcmp(t, "searchmoves")) {
            for (; i + 1 < n; i++) {
                Move m = parse_move(pos, tok[i + 1], atomic_load(&u->rank1));
                if (m == MOVE_NONE)
                    break;
                if (lim.nsearchmoves < MAX_MOVES)
                    lim.searchmoves[lim.nsearchmoves++] = m;
            }
            if (lim.nsearchmoves == 0) {
                out_line(u->out, "info string go: 'searchmoves' needs legal moves");
                return;
            }
        } else {
            out_line(u->out, "info string go: unknown parameter '%.32s' ignored", t);
        }
    }
    int us = pos->side;
    if (proto_clock_fallback(&lim, us)) {
        const char *name[2][2] = {{"wtime", "winc"}, {"btime", "binc"}};
        out_line(u->out, "info string go: no %s for the side to move; searching as with %s %lld %s %lld",
                 name[us][0], name[us][0], (long long)lim.time[us], name[us][1], (long long)lim.inc[us]);
    }
    engine_go(u->engine, &lim);
}

static void cmd_display(Uci *u)
{
    const Position *pos = engine_position(u->engine);
    char fen[FEN_MAX];
    for (int r = 9; r >= 0; r--) {
        char row[32];
        int k = 0;
        for (int f = 0; f < FILE_NB; f++) {
            int pc = pos_piece_on(pos, make_square(f, r));
            row[k++] = pc ? piece_char(pc) : '.';
            row[k++] = ' ';
        }
        row[k] = 0;
        out_line(u->out, "%d  %s", r, row);
    }
    out_line(u->out, "   a b c d e f g h i");
    pos_fen(pos, fen);
    out_line(u->out, "Fen: %s", fen);
    out_line(u->out, "Key: %016llX", (unsigned long long)pos_key(pos));
}

int uci_serve(FILE *in, Output *out, const char *first_line)
{
    Uci u = {.out = out};
    if (!in_open(&u.in, in, first_line, out, "info string")) {
        out_line(out, "info string out of memory");
        return 1;
    }
    EngineCallbacks cb = {on_info, on_bestmove, on_message, &u};
    char err[256];
    u.engine = engine_new(&cb, err, sizeof err);
    if (!u.engine) {
        out_line(out, "info string cannot start the engine: %s", err);
        in_close(&u.in);
        return 1;
    }
    out_set_log(out, engine_debug_log(u.engine));
    int n;
    while ((n = in_next(&u.in)) > 0) {
        char **tok = u.in.tok;
        const char *c = tok[0];
        if (!strcmp(c, "uci"))
            cmd_uci(&u);
        else if (!strcmp(c, "isready")) {
            out_line(out, "readyok");
        } else if (!strcmp(c, "ucinewgame"))
            engine_new_game(u.engine);
        else if (!strcmp(c, "setoption"))
            cmd_setoption(&u, tok, n);
        else if (!strcmp(c, "position"))
            cmd_position(&u, tok, n, 1);
        else if (!strcmp(c, "fen"))
            cmd_position(&u, tok, n, 0);
        else if (!strcmp(c, "go"))
            cmd_go(&u, tok, n);
        else if (!strcmp(c, "stop"))
            engine_stop(u.engine);
        else if (!strcmp(c, "ponderhit"))
            engine_ponderhit(u.engine);
        else if (!strcmp(c, "quit"))
            break;
        else if (!strcmp(c, "d"))
            cmd_display(&u);
        else if (!strcmp(c, "eval"))
            out_line(out, "info string static evaluation %d (side to move)", engine_eval(u.engine));
        else {
            char shown[65];
            out_line(out, "info string unknown command '%s'", text_printable(shown, sizeof shown, c));
        }
    }
    engine_stop(u.engine);
    engine_wait(u.engine); /* its move is logged too */
    out_set_log(out, NULL);
    engine_free(u.engine);
    in_close(&u.in);
    return 0;
}
