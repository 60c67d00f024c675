/* chuhan wdl (wdl.h): positions of real games, scored by a quick search
 * through the engine API, and the WDL model fitted to their results. */
#include "wdl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/records/pgn.h"
#include "engine/util/args.h"
#include "engine/util/clock.h"
#include "engine/util/outfile.h"

typedef struct {
    short score;    /* side to move's view, centipawns */
    char material;  /* score_material */
    char result;    /* for the side to move: 2 win, 1 draw, 0 loss */
} Sample;

typedef struct {
    Sample *s;
    size_t n, cap;
} Samples;

typedef struct {
    int score;
    bool done;
} Scored;

static void on_info(void *ctx, const EngineInfo *info)
{
    Scored *sc = ctx;
    if (info->multipv == 1 && info->bound == BOUND_EXACT)
        sc->score = info->score;
}

static void on_bestmove(void *ctx, Move best, Move ponder)
{
    (void)best, (void)ponder;
    ((Scored *)ctx)->done = true;
}

static bool add(Samples *all, Sample s)
{
    if (all->n == all->cap) {
        size_t cap = all->cap ? 2 * all->cap : 4096;
        Sample *p = realloc(all->s, cap * sizeof *p);
        if (!p)
            return false;
        all->s = p;
        all->cap = cap;
    }
    all->s[all->n++] = s;
    return true;
}

/* Minus the log-likelihood of the results under the model (per sample). */
static double cost(const WdlModel *m, const Samples *all)
{
    double sum = 0;
    for (size_t i = 0; i < all->n; i++) {
        const Sample *s = &all->s[i];
        double a = m->a0 + m->a1 * s->material, b = m->b0 + m->b1 * s->material;
        if (a <= 0 || b <= 5)
            return INFINITY; /* no room for draws, or a step function */
        double w, l;
        wdl_probabilities(m, s->score, s->material, &w, &l);
        double p = s->result == 2 ? w : s->result == 0 ? l : 1 - w - l;
        sum -= log(p > 1e-9 ? p : 1e-9);
    }
    return sum / (double)all->n;
}

/* Pattern search: each parameter stepped both ways while that helps,
 * the steps halved when nothing does. */
static WdlModel fit(const Samples *all, double *final_cost)
{
    WdlModel m = WDL_MODEL;
    if (!isfinite(cost(&m, all)))
        m = (WdlModel){250, 0, 80, 0};
    double step[4] = {40, 4, 16, 1.6};
    double best = cost(&m, all);
    for (int round = 0; round < 60; round++) {
        bool moved = false;
        for (int k = 0; k < 4; k++)
            for (int dir = -1; dir <= 1; dir += 2) {
                WdlModel t = m;
                double *p = k == 0 ? &t.a0 : k == 1 ? &t.a1 : k == 2 ? &t.b0 : &t.b1;
                *p += dir * step[k];
                double c = cost(&t, all);
                if (c < best) {
                    best = c, m = t, moved = true;
                }
            }
        if (!moved) {
            for (int k = 0; k < 4; k++)
                step[k] /= 2;
            if (step[0] < 0.05)
                break;
        }
    }
    *final_cost = best;
    return m;
}

/* The fitted curves (expected score against the score at three
 * materials) and the mean results observed in bins of 50 centipawns. */
static bool write_svg(const char *path, const WdlModel *m, const Samples *all, char *err, size_t errlen)
{
    /* replaced whole: a failed write leaves the graph that was there */
    OutFile o;
    if (!outfile_begin(&o, path, err, errlen))
        return false;
    FILE *f = o.f;
    const int W = 660, H = 400, L = 50, R = 170, T = 30, B = 40, SMAX = 600;
    double pw = W - L - R, ph = H - T - B;
#define X(s) (L + pw * ((s) + SMAX) / (2.0 * SMAX))
#define Y(e) (T + ph * (1 - (e)))
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
            W, H, W, H, W, H);
    fprintf(f, "<text x=\"%d\" y=\"18\" font-size=\"13\">Expected score of the side to move, by the score of a "
               "quick search</text>\n", L);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" fill=\"#f6f6f6\" stroke=\"#888\"/>\n", L, T,
            pw, ph);
    for (int k = 0; k <= 4; k++)
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ccc\"/><text x=\"%d\" y=\"%.1f\" "
                   "text-anchor=\"end\">%.2f</text>\n",
                L, Y(k / 4.0), L + pw, Y(k / 4.0), L - 4, Y(k / 4.0) + 4, k / 4.0);
    for (int s = -SMAX; s <= SMAX; s += 200)
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%+d</text>\n", X(s), H - B + 15, s);
    fprintf(f, "<text x=\"%.0f\" y=\"%d\" text-anchor=\"middle\">score (centipawns)</text>\n", L + pw / 2, H - 6);
    static const struct {
        int lo, hi, m;
        const char *color, *name;
    } BANDS[] = {{20, 30, 25, "#c22", "20-30 pieces (fit: 25)"},
                 {10, 19, 15, "#27c", "10-19 pieces (fit: 15)"},
                 {0, 9, 6, "#393", "0-9 pieces (fit: 6)"}};
    for (size_t b = 0; b < sizeof BANDS / sizeof BANDS[0]; b++) {
        /* the observed means */
        double sum[2 * 600 / 50 + 1] = {0};
        long count[2 * 600 / 50 + 1] = {0};
        for (size_t i = 0; i < all->n; i++) {
            const Sample *s = &all->s[i];
            if (s->material < BANDS[b].lo || s->material > BANDS[b].hi || abs(s->score) > SMAX - 25)
                continue;
            int bin = (s->score + SMAX + 25) / 50;
            sum[bin] += s->result / 2.0;
            count[bin]++;
        }
        for (int bin = 0; bin <= 2 * SMAX / 50; bin++)
            if (count[bin] >= 30)
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\" fill-opacity=\"0.6\"/>\n",
                        X(bin * 50 - SMAX), Y(sum[bin] / count[bin]), BANDS[b].color);
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", BANDS[b].color);
        for (int s = -SMAX; s <= SMAX; s += 10) {
            double w, l;
            wdl_probabilities(m, s, BANDS[b].m, &w, &l);
            fprintf(f, "%.1f,%.1f ", X(s), Y(w + (1 - w - l) / 2));
        }
        fputs("\"/>\n", f);
        double ly = T + 20 + 18.0 * (double)b;
        fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>"
                   "<text x=\"%.0f\" y=\"%.1f\">%s</text>\n",
                L + pw + 8, ly, L + pw + 24, ly, BANDS[b].color, L + pw + 28, ly + 4, BANDS[b].name);
    }
    fprintf(f, "<text x=\"%.0f\" y=\"%d\">dots: mean result</text>\n<text x=\"%.0f\" y=\"%d\">of %zu positions</text>\n",
            L + pw + 8, T + 90, L + pw + 8, T + 104, all->n);
    fputs("</svg>\n", f);
#undef X
#undef Y
    return outfile_commit(&o, err, errlen);
}

static int usage(const char *why)
{
    if (why && *why)
        fprintf(stderr, "%s\n", why);
    fprintf(stderr, "usage: chuhan wdl [--games N] [--nodes N] [--every K] [--from PLY] [--svg FILE] FILE...\n"
                    "Scores positions of the games by a quick search and fits the WDL model to their results\n"
                    "(defaults: 2000 games, 1000 nodes, every 6th ply from ply 12).\n");
    return 2;
}

int wdl_cli(int argc, char **argv)
{
    long games_max = 2000, every = 6, from = 12;
    uint64_t nodes = 1000;
    const char *svg = NULL;
    const ArgOption opts[] = {
        ARG_LONG("--games", &games_max, 1, 1L << 30), ARG_LONG("--every", &every, 1, 1000),
        ARG_LONG("--from", &from, 0, 1000),           ARG_U64("--nodes", &nodes, 1, UINT64_MAX),
        ARG_TEXT("--svg", &svg),
    };
    /* the files are gathered at the front of argv, which they never overtake */
    const char **files = (const char **)argv;
    int nfiles;
    const ArgSpec spec = {"wdl", opts, sizeof opts / sizeof opts[0], files, argc};
    char why[ARGS_WHY_MAX];
    if (!args_read(&spec, argc, argv, &nfiles, why, sizeof why))
        return usage(why);
    if (!nfiles)
        return usage(argc ? "wdl: no FILE to read" : NULL);
    char err[512];
    /* the graph's path, checked before the games are scored */
    if (svg && !outfile_check(svg, err, sizeof err)) {
        fprintf(stderr, "wdl: --svg: %s\n", err);
        return 2;
    }
    Scored sc = {0};
    EngineCallbacks cb = {on_info, on_bestmove, NULL, &sc};
    Engine *e = engine_new(&cb, err, sizeof err);
    if (!e || !engine_set_option(e, "OwnBook", "false", err, sizeof err)) {
        fprintf(stderr, "wdl: %s\n", err);
        engine_free(e);
        return 2;
    }
    Position *pos = malloc(sizeof *pos);
    Move *moves = malloc(sizeof(Move) * MAX_GAME_PLY);
    Samples all = {0};
    long games = 0, skipped = 0;
    int status = 0;
    int64_t t0 = now_ms();
    for (int f = 0; f < nfiles && pos && moves && games < games_max; f++) {
        PgnReader *r = pgn_open_file(files[f], PGN_ENC_AUTO, err, sizeof err);
        if (!r) {
            fprintf(stderr, "wdl: %s\n", err);
            status = 2;
            continue;
        }
        const PgnGame *g;
        while (games < games_max && pgn_next(r, &g, err, sizeof err) > 0) {
            int n, result = pgn_result(g);
            if (result == PGN_UNKNOWN || pgn_replay(g, pos, moves, MAX_GAME_PLY - MAX_PLY, &n, err, sizeof err) != PGN_OK) {
                skipped++;
                continue;
            }
            games++;
            const char *fen = pgn_tag(g, "FEN");
            if (!engine_set_position(e, fen && *fen ? fen : NULL, NULL, 0, false, err, sizeof err)) {
                skipped++;
                continue;
            }
            engine_new_game(e);
            for (int k = 0; k < n; k++) {
                if (k >= from && (k - from) % every == 0) {
                    EngineLimits lim;
                    limits_clear(&lim);
                    lim.nodes = nodes;
                    sc.score = 0;
                    engine_go(e, &lim);
                    engine_wait(e);
                    const Position *p = engine_position(e);
                    if (!score_is_mate(sc.score) && !score_is_rule_win(sc.score) && abs(sc.score) < 3000) {
                        int red_result = result == PGN_RED_WINS ? 2 : result == PGN_DRAW ? 1 : 0;
                        Sample s = {(short)sc.score, (char)score_material(p),
                                    (char)(p->side == RED ? red_result : 2 - red_result)};
                        if (!add(&all, s)) {
                            fprintf(stderr, "wdl: out of memory\n");
                            status = 2;
                            break;
                        }
                    }
                }
                if (!engine_push_move(e, moves[k]))
                    break;
            }
            if (games % 100 == 0) {
                fprintf(stderr, "\rwdl: %ld games, %zu positions, %.0f s   ", games, all.n, (now_ms() - t0) / 1000.0);
                fflush(stderr);
            }
        }
        pgn_close(r);
    }
    fprintf(stderr, "\rwdl: %ld games (%ld skipped), %zu positions scored at %llu nodes in %.0f s\n", games,
            skipped, all.n, (unsigned long long)nodes, (now_ms() - t0) / 1000.0);
    engine_free(e);
    free(pos);
    free(moves);
    if (all.n < 100) {
        fprintf(stderr, "wdl: too few positions to fit (%zu)\n", all.n);
        free(all.s);
        return status ? status : 1;
    }
    double before = cost(&WDL_MODEL, &all), after;
    WdlModel m = fit(&all, &after);
    printf("positions %zu, log-loss per position: %.4f with the model in use, %.4f fitted\n", all.n, before, after);
    printf("const WdlModel WDL_MODEL = {%.1f, %.2f, %.1f, %.2f};\n", m.a0, m.a1, m.b0, m.b1);
    for (int mat = 6; mat <= 26; mat += 10) {
        double w, l;
        wdl_probabilities(&m, 100, mat, &w, &l);
        printf("material %2d: +1 pawn -> W %.0f%% D %.0f%% L %.0f%%;", mat, 100 * w, 100 * (1 - w - l), 100 * l);
        wdl_probabilities(&m, 300, mat, &w, &l);
        printf(" +3 pawns -> W %.0f%% D %.0f%% L %.0f%%\n", 100 * w, 100 * (1 - w - l), 100 * l);
    }
    if (svg && !write_svg(svg, &m, &all, err, sizeof err)) {
        fprintf(stderr, "wdl: %s\n", err);
        status = 2;
    }
    free(all.s);
    return status;
}
