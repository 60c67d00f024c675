/* chuhan analyze (analyze.h): every position of every game searched by one
 * engine, through the engine API like any front-end. */
#include "analyze.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/records/notation.h"
#include "engine/records/pgn.h"
#include "engine/records/pgn_files.h"
#include "engine/util/args.h"
#include "engine/util/clock.h"
#include "engine/util/file.h"
#include "engine/util/num.h"
#include "engine/util/outfile.h"

#define ANALYZE_PV 8 /* lines kept per position (--multipv) */

typedef struct {
    int64_t movetime;
    int depth;
    uint64_t nodes;
    int threads, hash, multipv;
    PgnEncoding enc;
    const char *graph_dir;
    const char *output;
} Settings;

/* What one search found: its lines, best first. */
typedef struct {
    int nlines;
    Move move[ANALYZE_PV];
    int score[ANALYZE_PV]; /* side to move's view */
    int depth;
    Move best;
} Found;

/* One ply of a game, analysed. */
typedef struct {
    int red_score;  /* after the move, Red's view, centipawns (or a mate score) */
    int red_expect; /* Red's expected score after the move, per mille */
    int loss;       /* the mover's loss of expected score, per mille */
    int nag;        /* 0, 6 (?!), 2 (?), 4 (??) */
    int depth;
} Ply;

/* ---- the engine, driven silently ---- */

static void on_info(void *ctx, const EngineInfo *info)
{
    Found *f = ctx;
    int i = info->multipv - 1;
    if (info->pv_len == 0 && info->depth == 0) { /* no legal move: lost */
        f->nlines = 0;
        f->score[0] = info->score;
        return;
    }
    if (i < 0 || i >= ANALYZE_PV || info->pv_len < 1 || info->bound != BOUND_EXACT)
        return;
    if (i == 0)
        f->depth = info->depth;
    f->move[i] = info->pv[0];
    f->score[i] = info->score;
    if (i + 1 > f->nlines)
        f->nlines = i + 1;
}

static void on_bestmove(void *ctx, Move best, Move ponder)
{
    (void)ponder;
    ((Found *)ctx)->best = best;
}

static void search(Engine *e, const Settings *s, Found *f)
{
    memset(f, 0, sizeof *f);
    EngineLimits lim;
    limits_clear(&lim);
    lim.movetime = s->movetime;
    lim.depth = s->depth;
    lim.nodes = s->nodes;
    engine_go(e, &lim);
    engine_wait(e);
    if (f->nlines > 0 && f->move[0] != f->best) {
        /* the move played stands first (a line of an unfinished depth) */
        for (int i = 1; i < f->nlines; i++)
            if (f->move[i] == f->best) {
                Move m = f->move[i];
                int sc = f->score[i];
                f->move[i] = f->move[0], f->score[i] = f->score[0];
                f->move[0] = m, f->score[0] = sc;
            }
    }
}

/* ---- notation of the input ---- */

/* The notation the record's moves are written in: the first of the
 * notations that reads its first move (simplified Chinese if a move uses
 * one of its characters). */
static NotationFormat input_notation(const PgnGame *g, const Position *start)
{
    static const NotationFormat order[] = {NOTATION_UCI, NOTATION_ICCS, NOTATION_SAN, NOTATION_WXF, NOTATION_CHINESE};
    if (g->nmoves == 0)
        return NOTATION_UCI;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (notation_read(start, g->moves[0], order[i], NULL, 0) != MOVE_NONE) {
            if (order[i] != NOTATION_CHINESE)
                return order[i];
            static const char *const simplified[] = {"车", "马", "进", "后", "帅", "将"};
            for (int m = 0; m < g->nmoves && m < 40; m++)
                for (size_t c = 0; c < sizeof simplified / sizeof simplified[0]; c++)
                    if (strstr(g->moves[m], simplified[c]))
                        return NOTATION_CHINESE_SC;
            return NOTATION_CHINESE;
        }
    return NOTATION_UCI;
}

/* ---- writing ---- */

/* A score for a comment, Red's view: +1.25, or #3 / #-2 for a mate in so
 * many moves, R5 / R-2 for a win by the repetition rules in so many plies. */
static void score_text(int red_score, char *out, size_t len)
{
    if (score_is_rule_win(red_score))
        snprintf(out, len, "R%d", red_score > 0 ? score_rule_win_plies(red_score) : -score_rule_win_plies(-red_score));
    else if (score_is_mate(red_score))
        snprintf(out, len, "#%d", red_score > 0 ? score_mate_in(red_score) : -score_mate_in(-red_score));
    else
        snprintf(out, len, "%+.2f", red_score / 100.0);
}

static const char *nag_text(int nag) { return nag == 4 ? "??" : nag == 2 ? "?" : nag == 6 ? "?!" : ""; }

typedef struct {
    int count[2][3]; /* [colour][inaccuracy, mistake, blunder] */
} Summary;

static void summary_text(const Summary *sum, char *out, size_t len)
{
    snprintf(out, len,
             "Red: %d inaccuracies, %d mistakes, %d blunders; Black: %d inaccuracies, %d mistakes, %d blunders",
             sum->count[RED][0], sum->count[RED][1], sum->count[RED][2], sum->count[BLACK][0],
             sum->count[BLACK][1], sum->count[BLACK][2]);
}

/* The SVG: Red's expected score after every ply, 0 at the bottom, 1 at the
 * top, the mistakes as dots (orange ?, red ??, yellow ?!). */
static bool write_graph(const char *dir, long index, const PgnGame *g, const Ply *plies, int n, int start_expect,
                        char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/game-%ld.svg", dir, index);
    /* replaced whole: a failed write leaves the graph that was there */
    OutFile o;
    if (!outfile_begin(&o, path, err, errlen))
        return false;
    FILE *f = o.f;
    const int W = 800, H = 300, L = 40, R = 10, T = 30, B = 30;
    double pw = W - L - R, ph = H - T - B;
    double dx = n > 0 ? pw / n : pw;
    const char *red = pgn_tag(g, "Red"), *black = pgn_tag(g, "Black");
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", W, H,
            W, H);
    fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
    fprintf(f, "<text x=\"%d\" y=\"18\" font-family=\"sans-serif\" font-size=\"13\">", L);
    for (const char *p = red && *red ? red : "Red"; *p; p++)
        fputs(*p == '<' ? "&lt;" : *p == '&' ? "&amp;" : (char[2]){*p, 0}, f);
    fputs(" (Red) vs ", f);
    for (const char *p = black && *black ? black : "Black"; *p; p++)
        fputs(*p == '<' ? "&lt;" : *p == '&' ? "&amp;" : (char[2]){*p, 0}, f);
    fputs(" (Black): expected score for Red</text>\n", f);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" fill=\"#f4f4f4\" stroke=\"#888\"/>\n", L, T, pw,
            ph);
    for (int k = 0; k <= 4; k++) {
        double y = T + ph * (1 - k / 4.0);
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ccc\"/>\n", L, y, L + pw, y);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"10\" text-anchor=\"end\">%.2f</text>\n",
                L - 4, y + 3, k / 4.0);
    }
    for (int m = 10; 2 * m <= n; m += 10)
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-family=\"sans-serif\" font-size=\"10\" text-anchor=\"middle\">%d</text>\n",
                L + dx * 2 * m, H - 12, m);
    /* the filled area under Red's curve, and the curve */
    fprintf(f, "<path fill=\"#e8b4b4\" stroke=\"#b22\" stroke-width=\"1.5\" d=\"M%d,%.1f L%d,%.1f", L, T + ph, L,
            T + ph * (1 - start_expect / 1000.0));
    for (int i = 0; i < n; i++)
        fprintf(f, " L%.1f,%.1f", L + dx * (i + 1), T + ph * (1 - plies[i].red_expect / 1000.0));
    fprintf(f, " L%.1f,%.1f Z\"/>\n", L + dx * n, T + ph);
    for (int i = 0; i < n; i++)
        if (plies[i].nag) {
            const char *color = plies[i].nag == 4 ? "#d00" : plies[i].nag == 2 ? "#f80" : "#ec0";
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" stroke=\"black\"><title>%d%s %s</title></circle>\n",
                    L + dx * (i + 1), T + ph * (1 - plies[i].red_expect / 1000.0), color, i / 2 + 1,
                    i % 2 ? "..." : ".", nag_text(plies[i].nag));
        }
    fputs("</svg>\n", f);
    return outfile_commit(&o, err, errlen);
}

/* ---- one game ---- */

typedef struct {
    Engine *e;
    Found *found;
    const Settings *s;
    FILE *out;
    long games, game_total;
    long plies_done, ply_total;
    int64_t start_ms;
    Position pos; /* big: kept here, not on the stack */
    Move moves[MAX_GAME_PLY];
    Ply plies[MAX_GAME_PLY];
    Found lines[MAX_GAME_PLY + 1];
} Analysis;

static void progress(Analysis *a, int ply, int nplies)
{
    int64_t el = now_ms() - a->start_ms;
    double rate = el > 0 ? (double)a->plies_done / el : 0;
    long left = a->ply_total - a->plies_done;
    long eta = rate > 0 ? (long)(left / rate / 1000) : 0;
    fprintf(stderr, "\ranalyze: game %ld/%ld, move %d/%d, %ld/%ld positions, ETA %ldm%02lds   ", a->games,
            a->game_total, (ply + 1) / 2, (nplies + 1) / 2, a->plies_done, a->ply_total, eta / 60, eta % 60);
    fflush(stderr);
}

static bool analyse_game(Analysis *a, const PgnGame *g, int n, char *err, size_t errlen)
{
    const Settings *s = a->s;
    const char *fen = pgn_tag(g, "FEN");
    if (!fen || !*fen)
        fen = NULL;
    if (!engine_set_position(a->e, fen, NULL, 0, false, err, errlen))
        return false;
    engine_new_game(a->e);
    NotationFormat fmt = input_notation(g, engine_position(a->e));
    /* search every position, the last too */
    for (int i = 0; i <= n; i++) {
        progress(a, i, n);
        *a->found = (Found){0};
        search(a->e, s, a->found);
        a->lines[i] = *a->found;
        a->plies_done++;
        if (i < n && !engine_push_move(a->e, a->moves[i])) {
            snprintf(err, errlen, "move %d cannot be played", i + 1);
            return false;
        }
    }
    /* the scores, Red's expected score after every ply, the losses */
    Summary sum = {0};
    engine_set_position(a->e, fen, NULL, 0, false, err, errlen);
    int start_expect = 0, prev_stm_expect = 0;
    for (int i = 0; i <= n; i++) {
        const Position *p = engine_position(a->e);
        int side = p->side;
        const Found *f = &a->lines[i];
        int stm = f->score[0]; /* no legal move: the search's mated score */
        int stm_expect = score_expected(stm, score_material(p));
        int red_expect = side == RED ? stm_expect : 1000 - stm_expect;
        if (i == 0)
            start_expect = red_expect;
        else {
            Ply *ply = &a->plies[i - 1];
            const Found *before = &a->lines[i - 1];
            ply->red_score = side == RED ? stm : -stm;
            ply->red_expect = red_expect;
            ply->depth = f->depth;
            /* what the mover had before its move, less what it has after */
            int mover = !side;
            ply->loss = a->moves[i - 1] == before->best ? 0 : prev_stm_expect - (1000 - stm_expect);
            if (ply->loss < 0)
                ply->loss = 0;
            ply->nag = ply->loss >= ANALYZE_BLUNDER    ? 4
                     : ply->loss >= ANALYZE_MISTAKE    ? 2
                     : ply->loss >= ANALYZE_INACCURACY ? 6
                                                       : 0;
            if (ply->nag)
                sum.count[mover][ply->nag == 6 ? 0 : ply->nag == 2 ? 1 : 2]++;
        }
        prev_stm_expect = stm_expect;
        if (i < n)
            engine_push_move(a->e, a->moves[i]);
    }
    /* the record */
    FILE *out = a->out;
    for (int t = 0; t < g->ntags; t++)
        if (strcmp(g->tags[t].name, "Annotator"))
            pgn_write_tag(out, g->tags[t].name, g->tags[t].value);
    char annot[128];
    if (s->depth)
        snprintf(annot, sizeof annot, "Chuhan, depth %d", s->depth);
    else if (s->nodes)
        snprintf(annot, sizeof annot, "Chuhan, %llu nodes", (unsigned long long)s->nodes);
    else
        snprintf(annot, sizeof annot, "Chuhan, %lld ms", (long long)s->movetime);
    pgn_write_tag(out, "Annotator", annot);
    char text[256];
    summary_text(&sum, text, sizeof text);
    fprintf(out, "\n{%s}\n", text);
    engine_set_position(a->e, fen, NULL, 0, false, err, errlen);
    Position *pos = &a->pos;
    for (int i = 0; i < n; i++) {
        pos_copy(pos, engine_position(a->e));
        char mv[NOTATION_MAX], sc[16];
        notation_write(pos, a->moves[i], fmt, mv);
        int num = pos_game_ply(pos) / 2 + 1;
        if (pos->side == RED)
            fprintf(out, "%d. ", num);
        else if (i == 0)
            fprintf(out, "%d... ", num);
        const Ply *ply = &a->plies[i];
        score_text(ply->red_score, sc, sizeof sc);
        fprintf(out, "%s%s%s {%s/%d}", mv, ply->nag ? " $" : "", ply->nag ? (ply->nag == 4 ? "4" : ply->nag == 2 ? "2" : "6") : "",
                sc, ply->depth);
        const Found *before = &a->lines[i];
        if (ply->nag && before->nlines) {
            /* the better moves, each a variation with its score */
            for (int k = 0; k < before->nlines && k < s->multipv; k++) {
                if (before->move[k] == a->moves[i])
                    continue;
                char alt[NOTATION_MAX], asc[16];
                notation_write(pos, before->move[k], fmt, alt);
                score_text(pos->side == RED ? before->score[k] : -before->score[k], asc, sizeof asc);
                fprintf(out, " (%d%s %s {%s})", num, pos->side == RED ? "." : "...", alt, asc);
            }
        }
        fputc(i % 2 == 1 || i + 1 == n ? '\n' : ' ', out);
        engine_push_move(a->e, a->moves[i]);
    }
    const char *res = *g->termination ? g->termination : pgn_tag(g, "Result");
    fprintf(out, "%s\n\n", res && *res ? res : "*");
    if (s->graph_dir && !write_graph(s->graph_dir, a->games, g, a->plies, n, start_expect, err, errlen))
        return false;
    return true;
}

/* ---- the command ---- */

static int usage(const char *why)
{
    if (why && *why)
        fprintf(stderr, "%s\n", why);
    fprintf(stderr,
            "usage: chuhan analyze [--time MS | --depth D | --nodes N] [--threads T] [--hash MB] [--multipv K]\n"
            "                      [--encoding auto|utf-8|gbk|big5] [--graph DIR] [--output FILE] FILE...\n"
            "Searches every position of the games (default --time 500) and writes them as annotated PGN:\n"
            "the score after each move (pawns, Red's view), NAGs $6 ?!, $2 ?, $4 ?? by the loss of expected\n"
            "score, the better moves as variations, a summary per game; --graph DIR: an SVG per game.\n");
    return 2;
}

/* Count the records and plies of the files, for the progress line. */
static void count(char **files, int nfiles, PgnEncoding enc, long *games, long *plies)
{
    *games = *plies = 0;
    for (int f = 0; f < nfiles; f++) {
        if (!strcmp(files[f], "-"))
            continue;
        char err[256];
        PgnReader *r = pgn_open_file(files[f], enc, err, sizeof err);
        if (!r)
            continue;
        const PgnGame *g;
        while (pgn_next(r, &g, err, sizeof err) > 0) {
            (*games)++;
            *plies += g->nmoves + 1;
        }
        pgn_close(r);
    }
}

static bool read_encoding(const char *text, void *enc) { return pgn_parse_encoding(text, enc); }

int analyze_cli(int argc, char **argv)
{
    Settings s = {.movetime = 0, .threads = 1, .hash = 64, .multipv = 1, .enc = PGN_ENC_AUTO};
    long movetime = 0, depth = 0, threads = s.threads, hash = s.hash, multipv = s.multipv;
    const ArgOption opts[] = {
        ARG_LONG("--time", &movetime, 1, 86400000L),
        ARG_LONG("--depth", &depth, 1, 200),
        ARG_U64("--nodes", &s.nodes, 1, UINT64_MAX),
        ARG_LONG("--threads", &threads, 1, 1024),
        ARG_LONG("--hash", &hash, 1, 1 << 20),
        ARG_LONG("--multipv", &multipv, 1, ANALYZE_PV),
        ARG_CUSTOM("--encoding", &s.enc, read_encoding, "an encoding: auto, utf-8, gbk or big5"),
        ARG_TEXT("--graph", &s.graph_dir),
        ARG_TEXT("--output", &s.output),
    };
    /* the files, gathered at the front of argv, which they never overtake */
    int nfiles;
    const ArgSpec spec = {"analyze", opts, sizeof opts / sizeof opts[0], (const char **)argv, argc};
    char why[ARGS_WHY_MAX];
    if (!args_read(&spec, argc, argv, &nfiles, why, sizeof why))
        return usage(why);
    if ((movetime != 0) + (depth != 0) + (s.nodes != 0) > 1)
        return usage("analyze: give one of --time, --depth, --nodes");
    if (!nfiles)
        return usage(argc ? "analyze: no FILE to read" : NULL);
    s.movetime = movetime ? movetime : depth || s.nodes ? 0 : 500;
    s.depth = (int)depth;
    s.threads = (int)threads;
    s.hash = (int)hash;
    s.multipv = (int)multipv;
    if (s.graph_dir && !file_make_dir(s.graph_dir)) {
        fprintf(stderr, "analyze: --graph %s: %s\n", s.graph_dir,
                errno == ENOTDIR ? "not a folder (the graphs are written into one)" : strerror(errno));
        return 2;
    }
    char err[512];
    /* the records replace the file whole at the end: a failed write
     * leaves the file that was there */
    OutFile of = {0};
    if (s.output && !outfile_begin(&of, s.output, err, sizeof err)) {
        fprintf(stderr, "analyze: %s\n", err);
        return 2;
    }
    FILE *out = s.output ? of.f : stdout;
    Analysis *a = calloc(1, sizeof *a);
    Found *found = calloc(1, sizeof *found);
    EngineCallbacks cb = {on_info, on_bestmove, NULL, found};
    Engine *e = a && found ? engine_new(&cb, err, sizeof err) : NULL;
    if (!e) {
        fprintf(stderr, "analyze: %s\n", a && found ? err : "out of memory");
        free(a);
        free(found);
        outfile_abort(&of);
        return 2;
    }
    char num[32];
    snprintf(num, sizeof num, "%d", s.threads);
    bool ok = engine_set_option(e, "Threads", num, err, sizeof err);
    snprintf(num, sizeof num, "%d", s.hash);
    ok = ok && engine_set_option(e, "Hash", num, err, sizeof err);
    snprintf(num, sizeof num, "%d", s.multipv);
    ok = ok && engine_set_option(e, "MultiPV", num, err, sizeof err);
    ok = ok && engine_set_option(e, "OwnBook", "false", err, sizeof err);
    if (!ok) {
        fprintf(stderr, "analyze: %s\n", err);
        engine_free(e);
        free(a);
        free(found);
        outfile_abort(&of);
        return 2;
    }
    a->e = e;
    a->found = found;
    a->s = &s;
    a->out = out;
    a->start_ms = now_ms();
    count(argv, nfiles, s.enc, &a->game_total, &a->ply_total);
    int status = 0;
    long bad = 0;
    PgnFiles it;
    pgn_files_start(&it, argv, nfiles, s.enc, &a->pos, a->moves, MAX_GAME_PLY - MAX_PLY, err, sizeof err);
    for (PgnFilesEvent ev; (ev = pgn_files_next(&it)) != PGN_FILES_END;) {
        a->games = it.records;
        switch (ev) {
        case PGN_FILES_OPEN_FAILED:
            fprintf(stderr, "\nanalyze: %s\n", err);
            status = 2;
            break;
        case PGN_FILES_READ_FAILED:
            fprintf(stderr, "\nanalyze: %s: %s\n", it.path, err);
            status = 2;
            break;
        case PGN_FILES_REJECTED:
            fprintf(stderr, "\n%s:%ld: record %ld: %s; not analysed\n", it.path, it.game->line, it.game->index, err);
            bad++;
            break;
        case PGN_FILES_RECORD:
            if (ferror(out))
                break; /* the output is lost (a full disk): the rest only read, the error told at the end */
            if (!analyse_game(a, it.game, it.nmoves, err, sizeof err)) {
                fprintf(stderr, "\n%s:%ld: record %ld: %s\n", it.path, it.game->line, it.game->index, err);
                status = 2;
            }
            break;
        case PGN_FILES_END:
            break;
        }
    }
    fprintf(stderr, "\nanalyze: %ld games, %ld positions in %.1f s\n", a->games, a->plies_done,
            (now_ms() - a->start_ms) / 1000.0);
    engine_free(e);
    free(a);
    free(found);
    /* standard output is checked when the tool returns (main.c) */
    if (s.output && !outfile_commit(&of, err, sizeof err)) {
        fprintf(stderr, "analyze: %s\n", err);
        status = 2;
    }
    return status ? status : bad ? 1 : 0;
}
