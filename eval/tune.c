/* Texel tuning of the evaluation weights (see tune.h).
 *
 * Data: every quiet position of a record (not in check, no capture that
 * wins material by SEE for the side to move), past the book phase, is
 * traced once: the coefficients of the weights (Red's count minus Black's),
 * the phase and the win scales.  Mirror-image psqt points share one weight
 * when opt.symmetric, so a position holds one (weight index, coefficient)
 * pair per weight it touches: about 50, 3 bytes each.
 *
 * Fit: the linear model
 *     e = ((sum c*mg) * phase + (sum c*eg) * (PHASE_MAX - phase)) / PHASE_MAX * scale / 64
 * (scale: the win scale of the side e favours) predicts the result by
 * sigmoid(K * e); K is fitted first, then the weights by full-batch Adam on
 * the mean squared error, with an optional L2 pull towards the start. */
#include "tune.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/board/movegen.h"
#include "engine/cli.h"
#include "engine/util/clock.h"
#include "engine/util/error.h"
#include "engine/util/num.h"
#include "engine/util/rng.h"
#include "eval.h"

#define CHUNKS 64 /* fixed work split: the sums do not depend on the thread count */

/* ---- the parameter layout, by name ---- */

typedef struct {
    const char *name;
    int offset, size; /* in Score slots */
} Field;

#define FIELD(f) {#f, (int)(offsetof(EvalParams, f) / sizeof(Score)), (int)(sizeof(((EvalParams *)0)->f) / sizeof(Score))}
static const Field Fields[] = {
    FIELD(piece_value),      FIELD(psqt),             FIELD(rook_mobility),     FIELD(horse_mobility),
    FIELD(cannon_mobility),  FIELD(elephant_mobility), FIELD(advisor_mobility), FIELD(missing_advisor),
    FIELD(missing_elephant), FIELD(cannon_on_king_file), FIELD(empty_cannon),   FIELD(rook_on_king_file),
    FIELD(horse_near_palace), FIELD(king_exposed),     FIELD(crossed_pawns),     FIELD(hanging),
    FIELD(rook_pair_vs_none), FIELD(tempo),
};
#define FIELD_NB ((int)(sizeof Fields / sizeof Fields[0]))
#define PSQT_FIELD 1
_Static_assert(sizeof(EvalParams) % sizeof(Score) == 0, "EvalParams holds Scores only");

static const char *const PieceTypeNames[PIECE_TYPE_NB] = {"NO_PIECE_TYPE", "PAWN", "ADVISOR", "ELEPHANT",
                                                          "HORSE",         "CANNON", "ROOK",  "KING"};

void tune_options_default(TuneOptions *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->skip_plies = 16;
    opt->keep = 1.0;
    opt->validation = 0.1;
    opt->encoding = PGN_ENC_AUTO;
    opt->epochs = 400;
    opt->lr = 1.0;
    opt->symmetric = true;
    opt->fit_material = true;
    opt->threads = 1;
    opt->seed = 1;
    opt->report_every = 25;
}

/* ---- the data ---- */

typedef struct {
    uint32_t first;  /* into TuneData.idx / .coef */
    uint8_t count;   /* coefficients */
    uint8_t phase;   /* 0..PHASE_MAX */
    uint8_t scale[COLOR_NB];
    uint8_t result;  /* 0 black wins, 1 draw, 2 red wins */
} TunePos;

typedef struct {
    TunePos *v;
    size_t n, cap;
} PosSet;

struct TuneData {
    TuneOptions opt;
    int nparams;
    int16_t slot_param[EVAL_PARAM_SLOTS]; /* -1: not tuned */
    PosSet set[2];                         /* 0 training, 1 validation */
    uint16_t *idx;
    int8_t *coef;
    size_t ncoef, capcoef;
    TuneDataStats stats;
    int32_t acc[EVAL_PARAM_SLOTS];
    Position pos;
    Move moves[MAX_GAME_PLY];
};

static int mirror_sq(int s) { return make_square(FILE_NB - 1 - sq_file(s), sq_rank(s)); }

static void build_param_map(TuneData *d)
{
    const int psqt0 = Fields[PSQT_FIELD].offset, pv0 = Fields[0].offset;
    int n = 0;
    for (int i = 0; i < EVAL_PARAM_SLOTS; i++)
        d->slot_param[i] = -1;
    for (int i = 0; i < EVAL_PARAM_SLOTS; i++) {
        if (i >= pv0 && i < pv0 + PIECE_TYPE_NB && !d->opt.fit_material)
            continue;
        if (d->opt.symmetric && i >= psqt0 && i < psqt0 + PIECE_TYPE_NB * SQUARE_NB) {
            int pt = (i - psqt0) / SQUARE_NB, s = (i - psqt0) % SQUARE_NB, m = mirror_sq(s);
            if (m < s) {
                d->slot_param[i] = d->slot_param[psqt0 + pt * SQUARE_NB + m];
                continue;
            }
        }
        d->slot_param[i] = (int16_t)n++;
    }
    d->nparams = n;
}

TuneData *tune_data_new(const TuneOptions *opt)
{
    TuneData *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->opt = *opt;
    build_param_map(d);
    return d;
}

void tune_data_free(TuneData *d)
{
    if (!d)
        return;
    free(d->set[0].v);
    free(d->set[1].v);
    free(d->idx);
    free(d->coef);
    free(d);
}

const TuneDataStats *tune_data_stats(const TuneData *d) { return &d->stats; }

/* Quiet: not in check, and no capture that wins material for the mover. */
static bool is_quiet(const Position *pos)
{
    if (pos_in_check(pos))
        return false;
    Move caps[MAX_MOVES];
    int n = gen_captures(pos, caps);
    for (int i = 0; i < n; i++)
        if (pos_legal(pos, caps[i]) && pos_see_ge(pos, caps[i], 1))
            return false;
    return true;
}

static bool add_position(TuneData *d, const Position *pos, int result, bool validation)
{
    EvalTrace tr;
    evaluate_trace(pos, &DefaultEvalParams, &tr);
    int touched[EVAL_PARAM_SLOTS], nt = 0;
    for (int i = 0; i < EVAL_PARAM_SLOTS; i++) {
        int p = d->slot_param[i];
        if (tr.coef[i] == 0 || p < 0)
            continue;
        if (d->acc[p] == 0)
            touched[nt++] = p;
        d->acc[p] += tr.coef[i];
    }
    /* in parameter order, zero sums dropped */
    int count = 0;
    uint16_t idx[EVAL_PARAM_SLOTS];
    int8_t coef[EVAL_PARAM_SLOTS];
    bool ok = true;
    for (int k = 0; k < nt; k++) {
        int p = touched[k];
        if (d->acc[p] != 0) {
            if (d->acc[p] < -127 || d->acc[p] > 127)
                ok = false;
            idx[count] = (uint16_t)p;
            coef[count] = (int8_t)d->acc[p];
            count++;
        }
        d->acc[p] = 0;
    }
    if (!ok || count > 255)
        return true; /* cannot be stored compactly: never happens with this evaluation, skip it */
    if (d->ncoef + (size_t)count > UINT32_MAX)
        return false;
    if (d->ncoef + (size_t)count > d->capcoef) {
        size_t cap = d->capcoef ? d->capcoef * 2 : 1 << 20;
        while (cap < d->ncoef + (size_t)count)
            cap *= 2;
        uint16_t *ni = realloc(d->idx, cap * sizeof *ni);
        if (!ni)
            return false;
        d->idx = ni;
        int8_t *nc = realloc(d->coef, cap * sizeof *nc);
        if (!nc)
            return false;
        d->coef = nc;
        d->capcoef = cap;
    }
    PosSet *set = &d->set[validation];
    if (set->n == set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 1 << 16;
        TunePos *nv = realloc(set->v, cap * sizeof *nv);
        if (!nv)
            return false;
        set->v = nv;
        set->cap = cap;
    }
    TunePos *tp = &set->v[set->n++];
    tp->first = (uint32_t)d->ncoef;
    tp->count = (uint8_t)count;
    tp->phase = (uint8_t)tr.phase;
    tp->scale[RED] = (uint8_t)tr.scale[RED];
    tp->scale[BLACK] = (uint8_t)tr.scale[BLACK];
    tp->result = (uint8_t)result;
    memcpy(d->idx + d->ncoef, idx, (size_t)count * sizeof idx[0]);
    memcpy(d->coef + d->ncoef, coef, (size_t)count);
    d->ncoef += (size_t)count;
    if (validation)
        d->stats.validation++;
    else
        d->stats.train++;
    d->stats.bytes = d->capcoef * 3 + (d->set[0].cap + d->set[1].cap) * sizeof(TunePos);
    return true;
}

static bool full(const TuneData *d)
{
    return d->opt.max_positions > 0 && d->stats.train + d->stats.validation >= d->opt.max_positions;
}

/* One record: its quiet positions past the book phase. */
static bool add_game(TuneData *d, const PgnGame *g, char *err, size_t errlen)
{
    long game_no = d->stats.games++;
    int n;
    char why[256];
    if (pgn_replay(g, &d->pos, d->moves, MAX_GAME_PLY, &n, why, sizeof why) != PGN_OK) {
        d->stats.games_rejected++;
        return true;
    }
    int r = pgn_result(g), result;
    if (r == PGN_RED_WINS)
        result = 2;
    else if (r == PGN_DRAW)
        result = 1;
    else if (r == PGN_BLACK_WINS)
        result = 0;
    else {
        d->stats.games_no_result++;
        return true;
    }
    uint64_t rng = d->opt.seed * 0x2545F4914F6CDD1DULL + (uint64_t)game_no;
    rng_next(&rng);
    bool validation = rng_unit(&rng) < d->opt.validation;
    const char *fen = pgn_tag(g, "FEN");
    if (!pos_set_fen(&d->pos, fen && *fen ? fen : START_FEN, why, sizeof why)) {
        d->stats.games_rejected++; /* cannot happen after a replay */
        return true;
    }
    for (int ply = 0; ply <= n && !full(d); ply++) {
        if (ply > 0)
            pos_do_move(&d->pos, d->moves[ply - 1]);
        d->stats.positions_seen++;
        if (ply < d->opt.skip_plies) {
            d->stats.skipped_book++;
            continue;
        }
        if (!is_quiet(&d->pos)) {
            d->stats.skipped_noisy++;
            continue;
        }
        if (d->opt.keep < 1.0 && rng_unit(&rng) >= d->opt.keep) {
            d->stats.skipped_sampling++;
            continue;
        }
        if (!add_position(d, &d->pos, result, validation))
            return err_set(err, errlen, "out of memory after %ld positions", d->stats.train + d->stats.validation);
    }
    return true;
}

bool tune_data_add_file(TuneData *d, const char *path, char *err, size_t errlen)
{
    PgnReader *r = pgn_open_file(path, d->opt.encoding, err, errlen);
    if (!r)
        return false;
    const PgnGame *g;
    int k = 0;
    char why[256];
    bool ok = true;
    while (!full(d) && (k = pgn_next(r, &g, why, sizeof why)) > 0) {
        if (!add_game(d, g, err, errlen)) {
            ok = false;
            break;
        }
        if (d->opt.progress && d->stats.games % 2000 == 0) {
            fprintf(d->opt.progress, "\rtune: %s: %ld games, %ld positions", path, d->stats.games,
                    d->stats.train + d->stats.validation);
            fflush(d->opt.progress);
        }
    }
    if (ok && !full(d) && k < 0)
        ok = err_set(err, errlen, "%s: %s", path, why);
    if (d->opt.progress) {
        fprintf(d->opt.progress, "\rtune: %s: %ld games, %ld positions\n", path, d->stats.games,
                d->stats.train + d->stats.validation);
        fflush(d->opt.progress);
    }
    pgn_close(r);
    return ok;
}

/* ---- the model ---- */

typedef struct {
    const TuneData *d;
    const double *w; /* [nparams][2]: mg, eg */
    double k;
    int set;
    bool gradient;
    double err[CHUNKS];
    double *grad; /* [CHUNKS][nparams * 2], when gradient */
    int threads;
} Pass;

typedef struct {
    Pass *pass;
    int id;
} PassThread;

static inline double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

static void pass_chunk(Pass *ps, int chunk)
{
    const TuneData *d = ps->d;
    const PosSet *set = &d->set[ps->set];
    size_t lo = set->n * (size_t)chunk / CHUNKS, hi = set->n * (size_t)(chunk + 1) / CHUNKS;
    const double *w = ps->w;
    double *g = ps->gradient ? ps->grad + (size_t)chunk * (size_t)d->nparams * 2 : NULL;
    double err = 0;
    for (size_t i = lo; i < hi; i++) {
        const TunePos *tp = &set->v[i];
        const uint16_t *idx = d->idx + tp->first;
        const int8_t *cf = d->coef + tp->first;
        double mg = 0, eg = 0;
        for (int j = 0; j < tp->count; j++) {
            mg += cf[j] * w[2 * idx[j]];
            eg += cf[j] * w[2 * idx[j] + 1];
        }
        double fm = tp->phase / (double)PHASE_MAX, fe = 1.0 - fm;
        double v = mg * fm + eg * fe;
        double sc = (v > 0 ? tp->scale[RED] : tp->scale[BLACK]) / 64.0;
        double s = sigmoid(ps->k * v * sc);
        double r = tp->result * 0.5;
        err += (r - s) * (r - s);
        if (g) {
            double gv = -2.0 * (r - s) * s * (1 - s) * ps->k * sc;
            double gm = gv * fm, ge = gv * fe;
            for (int j = 0; j < tp->count; j++) {
                g[2 * idx[j]] += gm * cf[j];
                g[2 * idx[j] + 1] += ge * cf[j];
            }
        }
    }
    ps->err[chunk] = err;
}

static void *pass_thread(void *arg)
{
    PassThread *pt = arg;
    for (int c = pt->id; c < CHUNKS; c += pt->pass->threads)
        pass_chunk(pt->pass, c);
    return NULL;
}

/* Run a pass over a set: the error sum (and the gradient into ps->grad). */
static double run_pass(Pass *ps)
{
    if (ps->gradient)
        memset(ps->grad, 0, sizeof(double) * CHUNKS * (size_t)ps->d->nparams * 2);
    int nt = ps->threads < 1 ? 1 : ps->threads > CHUNKS ? CHUNKS : ps->threads;
    ps->threads = nt;
    PassThread pt[CHUNKS];
    pthread_t tid[CHUNKS];
    bool started[CHUNKS] = {false};
    for (int t = 1; t < nt; t++) {
        pt[t] = (PassThread){ps, t};
        started[t] = pthread_create(&tid[t], NULL, pass_thread, &pt[t]) == 0;
    }
    pt[0] = (PassThread){ps, 0};
    pass_thread(&pt[0]);
    for (int t = 1; t < nt; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else /* could not start: do its chunks here */
            pass_thread(&pt[t]);
    }
    double err = 0;
    for (int c = 0; c < CHUNKS; c++)
        err += ps->err[c];
    return err;
}

static void params_to_weights(const TuneData *d, const EvalParams *params, double *w)
{
    EvalParams *p = (EvalParams *)params;
    int seen[EVAL_PARAM_SLOTS] = {0};
    memset(w, 0, sizeof(double) * 2 * (size_t)d->nparams);
    for (int i = 0; i < EVAL_PARAM_SLOTS; i++) {
        int k = d->slot_param[i];
        if (k < 0)
            continue;
        Score s = *eval_param_slot(p, i);
        w[2 * k] += mg_value(s);
        w[2 * k + 1] += eg_value(s);
        seen[k]++;
    }
    for (int k = 0; k < d->nparams; k++)
        if (seen[k] > 1) {
            w[2 * k] /= seen[k];
            w[2 * k + 1] /= seen[k];
        }
}

static int round_clamp(double x)
{
    double r = floor(x + 0.5);
    return r > 30000 ? 30000 : r < -30000 ? -30000 : (int)r;
}

static void weights_to_params(const TuneData *d, const double *w, EvalParams *params)
{
    for (int i = 0; i < EVAL_PARAM_SLOTS; i++) {
        int k = d->slot_param[i];
        if (k >= 0)
            *eval_param_slot(params, i) = S(round_clamp(w[2 * k]), round_clamp(w[2 * k + 1]));
    }
}

static double error_of(const TuneData *d, const double *w, double k, int set)
{
    const PosSet *s = &d->set[set];
    if (s->n == 0)
        return 0;
    Pass ps = {.d = d, .w = w, .k = k, .set = set, .threads = d->opt.threads};
    return run_pass(&ps) / (double)s->n;
}

double tune_error(const TuneData *d, const EvalParams *params, double k, bool validation)
{
    double *w = malloc(sizeof(double) * 2 * (size_t)(d->nparams ? d->nparams : 1));
    if (!w)
        return NAN;
    params_to_weights(d, params, w);
    double e = error_of(d, w, k, validation ? 1 : 0);
    free(w);
    return e;
}

double tune_fit_k(const TuneData *d, const EvalParams *params)
{
    double *w = malloc(sizeof(double) * 2 * (size_t)(d->nparams ? d->nparams : 1));
    if (!w)
        return NAN;
    params_to_weights(d, params, w);
    /* golden-section search over log K */
    const double phi = (sqrt(5.0) - 1) / 2;
    double a = log(1e-4), b = log(1e-1);
    double c = b - phi * (b - a), e = a + phi * (b - a);
    double fc = error_of(d, w, exp(c), 0), fe = error_of(d, w, exp(e), 0);
    for (int it = 0; it < 60; it++) {
        if (fc < fe) {
            b = e;
            e = c;
            fe = fc;
            c = b - phi * (b - a);
            fc = error_of(d, w, exp(c), 0);
        } else {
            a = c;
            c = e;
            fc = fe;
            e = a + phi * (b - a);
            fe = error_of(d, w, exp(e), 0);
        }
    }
    free(w);
    return exp((a + b) / 2);
}

static double seconds_since(int64_t t0_us) { return (double)(now_us() - t0_us) * 1e-6; }

double tune_fit(const TuneData *d, EvalParams *params, double k)
{
    size_t np2 = 2 * (size_t)(d->nparams ? d->nparams : 1);
    double *w = calloc(np2, sizeof *w), *w0 = calloc(np2, sizeof *w0), *m = calloc(np2, sizeof *m),
           *v = calloc(np2, sizeof *v), *grad = calloc(np2 * CHUNKS, sizeof *grad), *g = calloc(np2, sizeof *g);
    double final = NAN;
    if (!w || !w0 || !m || !v || !grad || !g)
        goto out;
    params_to_weights(d, params, w);
    memcpy(w0, w, np2 * sizeof *w);
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    double n = (double)(d->set[0].n ? d->set[0].n : 1);
    int64_t t0 = now_us();
    const TuneOptions *o = &d->opt;
    for (int epoch = 1; epoch <= o->epochs; epoch++) {
        Pass ps = {.d = d, .w = w, .k = k, .set = 0, .gradient = true, .grad = grad, .threads = o->threads};
        double err = run_pass(&ps) / n;
        memset(g, 0, np2 * sizeof *g);
        for (int c = 0; c < CHUNKS; c++) {
            const double *gc = grad + (size_t)c * np2;
            for (size_t i = 0; i < np2; i++)
                g[i] += gc[i];
        }
        double b1t = 1 - pow(b1, epoch), b2t = 1 - pow(b2, epoch);
        for (size_t i = 0; i < np2; i++) {
            double gi = g[i] / n + 2 * o->lambda * (w[i] - w0[i]);
            if (gi == 0 && m[i] == 0)
                continue; /* a weight no position uses stays as it was */
            m[i] = b1 * m[i] + (1 - b1) * gi;
            v[i] = b2 * v[i] + (1 - b2) * gi * gi;
            w[i] -= o->lr * (m[i] / b1t) / (sqrt(v[i] / b2t) + eps);
        }
        if (o->progress && (epoch % (o->report_every > 0 ? o->report_every : 25) == 0 || epoch == o->epochs)) {
            double verr = d->set[1].n ? error_of(d, w, k, 1) : 0;
            fprintf(o->progress, "tune: epoch %4d  training error %.6f  validation error %.6f  %.1f s\n", epoch,
                    err, verr, seconds_since(t0));
            fflush(o->progress);
        }
    }
    weights_to_params(d, w, params);
    final = tune_error(d, params, k, false);
out:
    free(w);
    free(w0);
    free(m);
    free(v);
    free(grad);
    free(g);
    return final;
}

/* ---- params.c, written and read ---- */

static void write_scores(FILE *out, const Score *s, int n)
{
    for (int i = 0; i < n; i++)
        fprintf(out, "%sS(%d, %d)", i ? ", " : "", mg_value(s[i]), eg_value(s[i]));
}

bool tune_write_params(FILE *out, const EvalParams *params, const char *comment)
{
    fprintf(out, "/* Evaluation weights, rewritten by the tuner (`chuhan tune`, eval/tune.c).\n");
    if (comment && *comment) {
        const char *p = comment;
        while (*p) {
            const char *nl = strchr(p, '\n');
            int len = nl ? (int)(nl - p) : (int)strlen(p);
            fprintf(out, " * %.*s\n", len, p);
            p += len + (nl != NULL);
        }
    }
    fprintf(out, " * Squares as Red sees them: rank 0 is the own back rank; each psqt row below\n"
                 " * is one rank, from rank 0 up to rank 9. */\n");
    fprintf(out, "#include \"params.h\"\n\nconst EvalParams DefaultEvalParams = {\n");
    const Score *base = (const Score *)params;
    for (int f = 0; f < FIELD_NB; f++) {
        const Field *fd = &Fields[f];
        if (f == PSQT_FIELD) {
            fprintf(out, "    .psqt = {\n");
            for (int pt = 0; pt < PIECE_TYPE_NB; pt++) {
                const Score *row = base + fd->offset + pt * SQUARE_NB;
                bool zero = true;
                for (int s = 0; s < SQUARE_NB; s++)
                    zero &= row[s] == 0;
                if (zero && pt == NO_PIECE_TYPE) {
                    fprintf(out, "        [%s] = {0},\n", PieceTypeNames[pt]);
                    continue;
                }
                fprintf(out, "        [%s] = {\n", PieceTypeNames[pt]);
                for (int r = 0; r < RANK_NB; r++) {
                    fprintf(out, "            ");
                    write_scores(out, row + r * FILE_NB, FILE_NB);
                    fprintf(out, ",\n");
                }
                fprintf(out, "        },\n");
            }
            fprintf(out, "    },\n");
        } else if (fd->size == 1) {
            fprintf(out, "    .%s = ", fd->name);
            write_scores(out, base + fd->offset, 1);
            fprintf(out, ",\n");
        } else {
            fprintf(out, "    .%s = {", fd->name);
            write_scores(out, base + fd->offset, fd->size);
            fprintf(out, "},\n");
        }
    }
    fprintf(out, "};\n");
    return !ferror(out);
}

/* A small reader of that C initialiser. */
typedef struct {
    const char *p, *start;
    const char *path;
    char *err;
    size_t errlen;
    bool bad;
} Lexer;

static int lex_line(const Lexer *lx)
{
    int line = 1;
    for (const char *q = lx->start; q < lx->p; q++)
        line += *q == '\n';
    return line;
}

static bool lex_fail(Lexer *lx, const char *what)
{
    if (!lx->bad)
        err_set(lx->err, lx->errlen, "%s:%d: %s", lx->path, lex_line(lx), what);
    lx->bad = true;
    return false;
}

static void lex_skip(Lexer *lx)
{
    for (;;) {
        while (isspace((unsigned char)*lx->p))
            lx->p++;
        if (lx->p[0] == '/' && lx->p[1] == '*') {
            const char *e = strstr(lx->p + 2, "*/");
            lx->p = e ? e + 2 : lx->p + strlen(lx->p);
        } else if (lx->p[0] == '/' && lx->p[1] == '/') {
            while (*lx->p && *lx->p != '\n')
                lx->p++;
        } else if (lx->p[0] == '#') {
            while (*lx->p && *lx->p != '\n')
                lx->p++;
        } else {
            return;
        }
    }
}

static bool lex_punct(Lexer *lx, char c)
{
    lex_skip(lx);
    if (*lx->p != c)
        return false;
    lx->p++;
    return true;
}

static bool lex_ident(Lexer *lx, char *out, size_t len)
{
    lex_skip(lx);
    size_t n = 0;
    if (!isalpha((unsigned char)*lx->p) && *lx->p != '_')
        return false;
    while (isalnum((unsigned char)*lx->p) || *lx->p == '_') {
        if (n + 1 < len)
            out[n++] = *lx->p;
        lx->p++;
    }
    out[n] = 0;
    return true;
}

static bool lex_int(Lexer *lx, long *v)
{
    lex_skip(lx);
    char *end;
    errno = 0;
    long x = strtol(lx->p, &end, 10);
    if (end == lx->p || errno || x < -32768 || x > 32767)
        return false;
    lx->p = end;
    *v = x;
    return true;
}

/* A Score: S(mg, eg) or 0. */
static bool parse_score(Lexer *lx, Score *out)
{
    lex_skip(lx);
    if (*lx->p == 'S') {
        long mg, eg;
        lx->p++;
        if (!lex_punct(lx, '(') || !lex_int(lx, &mg) || !lex_punct(lx, ',') || !lex_int(lx, &eg)
            || !lex_punct(lx, ')'))
            return lex_fail(lx, "expected S(mg, eg)");
        *out = S(mg, eg);
        return true;
    }
    long z;
    if (lex_int(lx, &z) && z == 0) {
        *out = 0;
        return true;
    }
    return lex_fail(lx, "expected S(mg, eg) or 0");
}

/* An initialiser for n consecutive Scores grouped by stride (1: a flat
 * list; SQUARE_NB: psqt rows with [TYPE] designators). */
static bool parse_list(Lexer *lx, Score *out, int n, int stride)
{
    if (!lex_punct(lx, '{'))
        return lex_fail(lx, "expected '{'");
    int i = 0;
    while (!lex_punct(lx, '}')) {
        if (lx->bad)
            return false;
        if (lex_punct(lx, '[')) {
            char name[32];
            long num;
            int at = -1;
            if (lex_ident(lx, name, sizeof name)) {
                for (int k = 0; k < PIECE_TYPE_NB; k++)
                    if (!strcmp(name, PieceTypeNames[k]))
                        at = k;
            } else if (lex_int(lx, &num)) {
                at = (int)num;
            }
            if (at < 0 || at >= n / stride || !lex_punct(lx, ']') || !lex_punct(lx, '='))
                return lex_fail(lx, "bad designator");
            i = at;
        }
        if (i >= n / stride)
            return lex_fail(lx, "too many values");
        if (stride > 1) {
            if (!parse_list(lx, out + i * stride, stride, 1))
                return false;
        } else if (!parse_score(lx, out + i)) {
            return false;
        }
        i++;
        if (!lex_punct(lx, ',')) {
            if (!lex_punct(lx, '}'))
                return lex_fail(lx, "expected ',' or '}'");
            break;
        }
    }
    return true;
}

bool tune_read_params(const char *path, EvalParams *params, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return err_set(err, errlen, "%s: %s", path, strerror(errno));
    char *text = malloc(1 << 20);
    size_t n = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
    bool read_error = ferror(f) || (text && n == (1 << 20) - 1);
    fclose(f);
    if (!text)
        return err_set(err, errlen, "out of memory");
    if (read_error) {
        free(text);
        return err_set(err, errlen, "%s: cannot read (or larger than 1 MB)", path);
    }
    text[n] = 0;
    Lexer lx = {.start = text, .path = path, .err = err, .errlen = errlen};
    memset(params, 0, sizeof *params);
    const char *at = strstr(text, "DefaultEvalParams");
    bool ok = false;
    if (!at) {
        err_set(err, errlen, "%s: no DefaultEvalParams", path);
        goto out;
    }
    lx.p = at + strlen("DefaultEvalParams");
    if (!lex_punct(&lx, '=') || !lex_punct(&lx, '{')) {
        lex_fail(&lx, "expected '= {'");
        goto out;
    }
    while (!lex_punct(&lx, '}')) {
        char name[64];
        if (!lex_punct(&lx, '.') || !lex_ident(&lx, name, sizeof name) || !lex_punct(&lx, '=')) {
            lex_fail(&lx, "expected '.field ='");
            goto out;
        }
        const Field *fd = NULL;
        for (int k = 0; k < FIELD_NB; k++)
            if (!strcmp(Fields[k].name, name))
                fd = &Fields[k];
        if (!fd) {
            char what[96];
            snprintf(what, sizeof what, "unknown field '%s'", name);
            lex_fail(&lx, what);
            goto out;
        }
        Score *dst = (Score *)params + fd->offset;
        bool good = fd->size == 1                           ? parse_score(&lx, dst)
                  : fd->offset == Fields[PSQT_FIELD].offset ? parse_list(&lx, dst, fd->size, SQUARE_NB)
                                                            : parse_list(&lx, dst, fd->size, 1);
        if (!good)
            goto out;
        if (!lex_punct(&lx, ',')) {
            if (!lex_punct(&lx, '}')) {
                lex_fail(&lx, "expected ',' or '}'");
                goto out;
            }
            break;
        }
    }
    ok = true;
out:
    free(text);
    return ok;
}

/* ---- chuhan tune ---- */

static int tune_usage(void)
{
    fprintf(stderr,
            "usage: chuhan tune [options] FILE...   fit the evaluation weights to the results of PGN records\n"
            "  -o FILE            write the weights as C source here (default eval/params.c; '-' standard output)\n"
            "  --from FILE        start from the weights of this params.c (default: the ones built in)\n"
            "  --epochs N         Adam steps over all positions (default 400)\n"
            "  --lr X             step size in centipawns (default 1.0)\n"
            "  --lambda X         L2 pull towards the starting weights (default 0)\n"
            "  --k X              sigmoid scale (default: fitted first)\n"
            "  --skip-plies N     skip the first N plies of each game, the book phase (default 16)\n"
            "  --keep X           keep this fraction of the quiet positions (default 1)\n"
            "  --max-positions N  stop loading after N positions (default: no limit)\n"
            "  --validation X     fraction of the games held out to measure the error (default 0.1)\n"
            "  --no-symmetry      tune the psqt points and their mirror images apart\n"
            "  --no-material      keep piece_value as it is\n"
            "  --threads N        (default 1; the result does not depend on it)\n"
            "  --report-every N   a progress line every N epochs (default 25)\n"
            "  --seed N           (default 1)\n"
            "  --encoding E       of the records (default auto)\n");
    return 2;
}

int cli_tune(int argc, char **argv)
{
    TuneOptions opt;
    tune_options_default(&opt);
    opt.progress = stderr;
    const char *out_path = "eval/params.c", *from = NULL;
    const char *files[256];
    int nfiles = 0;
    char cmdline[1024] = "chuhan tune";
    for (int i = 0; i < argc; i++) {
        size_t used = strlen(cmdline);
        snprintf(cmdline + used, sizeof cmdline - used, " %s", argv[i]);
    }
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        double v;
        long n;
        if (a[0] != '-' || !strcmp(a, "-")) {
            if (nfiles == 256) {
                fprintf(stderr, "tune: at most 256 files\n");
                return 2;
            }
            files[nfiles++] = a;
            continue;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return tune_usage();
        if (!strcmp(a, "--no-symmetry")) {
            opt.symmetric = false;
            continue;
        }
        if (!strcmp(a, "--no-material")) {
            opt.fit_material = false;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "tune: %s needs a value\n", a);
            return 2;
        }
        const char *val = argv[++i];
        bool ok = true;
        if (!strcmp(a, "-o"))
            out_path = val;
        else if (!strcmp(a, "--from"))
            from = val;
        else if (!strcmp(a, "--epochs") && (ok = num_parse(val, 0, 10000000, &n)))
            opt.epochs = (int)n;
        else if (!strcmp(a, "--lr") && (ok = num_parse_double(val, 1e-6, 1e4, &v)))
            opt.lr = v;
        else if (!strcmp(a, "--lambda") && (ok = num_parse_double(val, 0, 1e6, &v)))
            opt.lambda = v;
        else if (!strcmp(a, "--k") && (ok = num_parse_double(val, 1e-6, 10, &v)))
            opt.k = v;
        else if (!strcmp(a, "--skip-plies") && (ok = num_parse(val, 0, MAX_GAME_PLY, &n)))
            opt.skip_plies = (int)n;
        else if (!strcmp(a, "--keep") && (ok = num_parse_double(val, 1e-9, 1, &v)))
            opt.keep = v;
        else if (!strcmp(a, "--max-positions") && (ok = num_parse(val, 0, 4000000000L, &opt.max_positions)))
            ;
        else if (!strcmp(a, "--validation") && (ok = num_parse_double(val, 0, 0.9, &v)))
            opt.validation = v;
        else if (!strcmp(a, "--report-every") && (ok = num_parse(val, 1, 10000000, &n)))
            opt.report_every = (int)n;
        else if (!strcmp(a, "--threads") && (ok = num_parse(val, 1, CHUNKS, &n)))
            opt.threads = (int)n;
        else if (!strcmp(a, "--seed") && (ok = num_parse_u64(val, &opt.seed)))
            ;
        else if (!strcmp(a, "--encoding"))
            ok = pgn_parse_encoding(val, &opt.encoding);
        else if (ok) {
            fprintf(stderr, "tune: unknown option %s\n", a);
            return tune_usage();
        }
        if (!ok) {
            fprintf(stderr, "tune: bad value '%s' for %s\n", val, a);
            return 2;
        }
    }
    if (nfiles == 0)
        return tune_usage();

    char err[512];
    EvalParams params = DefaultEvalParams;
    if (from && !tune_read_params(from, &params, err, sizeof err)) {
        fprintf(stderr, "tune: %s\n", err);
        return 1;
    }
    int64_t t0 = now_us();
    TuneData *d = tune_data_new(&opt);
    if (!d) {
        fprintf(stderr, "tune: out of memory\n");
        return 1;
    }
    int status = 1;
    for (int i = 0; i < nfiles; i++)
        if (!tune_data_add_file(d, files[i], err, sizeof err)) {
            fprintf(stderr, "tune: %s\n", err);
            goto out;
        }
    const TuneDataStats *st = tune_data_stats(d);
    int used = 0;
    {
        char *seen = calloc((size_t)d->nparams + 1, 1);
        if (seen) {
            for (size_t i = 0; i < d->ncoef; i++)
                seen[d->idx[i]] = 1;
            for (int p = 0; p < d->nparams; p++)
                used += seen[p];
            free(seen);
        }
    }
    fprintf(stderr,
            "tune: %ld games (%ld rejected, %ld without a result); %ld positions seen, %ld in the book phase, "
            "%ld not quiet, %ld left out by sampling\n"
            "tune: %ld training and %ld validation positions, %d weights (%d mg/eg pairs in use), %.1f MB, loaded in "
            "%.1f s\n",
            st->games, st->games_rejected, st->games_no_result, st->positions_seen, st->skipped_book,
            st->skipped_noisy, st->skipped_sampling, st->train, st->validation, d->nparams * 2, used,
            (double)st->bytes / 1e6, seconds_since(t0));
    if (st->train == 0) {
        fprintf(stderr, "tune: no positions to tune on\n");
        goto out;
    }
    double k = opt.k > 0 ? opt.k : tune_fit_k(d, &params);
    double e0 = tune_error(d, &params, k, false), v0 = tune_error(d, &params, k, true);
    fprintf(stderr, "tune: K = %.6f%s; start: training error %.6f, validation error %.6f\n", k,
            opt.k > 0 ? " (given)" : " (fitted)", e0, v0);
    double e1 = tune_fit(d, &params, k);
    double v1 = tune_error(d, &params, k, true);
    fprintf(stderr, "tune: done in %.1f s: training error %.6f -> %.6f, validation error %.6f -> %.6f\n",
            seconds_since(t0), e0, e1, v0, v1);

    char comment[2048];
    snprintf(comment, sizeof comment,
             "%s\n"
             "%ld training positions (%ld validation) from %ld games; K = %.6f;\n"
             "training error %.6f -> %.6f, validation error %.6f -> %.6f (integer weights).",
             cmdline, st->train, st->validation, st->games, k, e0, e1, v0, v1);
    /* a regular file is replaced whole (written aside, then renamed); anything
       else (standard output, a device, a pipe) is written to as it is */
    FILE *out = stdout;
    char tmp[1100] = "";
    struct stat sb;
    if (strcmp(out_path, "-")) {
        if (stat(out_path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
            out = fopen(out_path, "w");
        } else {
            snprintf(tmp, sizeof tmp, "%s.tmp", out_path);
            out = fopen(tmp, "w");
        }
        if (!out) {
            fprintf(stderr, "tune: cannot write %s: %s\n", tmp[0] ? tmp : out_path, strerror(errno));
            goto out;
        }
    }
    bool written = tune_write_params(out, &params, comment);
    if (out != stdout) {
        written &= fclose(out) == 0;
        if (!written || (tmp[0] && rename(tmp, out_path))) {
            fprintf(stderr, "tune: cannot write %s: %s\n", out_path, strerror(errno));
            if (tmp[0])
                remove(tmp);
            goto out;
        }
        fprintf(stderr, "tune: wrote %s\n", out_path);
    } else if (!written || fflush(stdout)) {
        fprintf(stderr, "tune: cannot write the output\n");
        goto out;
    }
    status = 0;
out:
    tune_data_free(d);
    return status;
}
