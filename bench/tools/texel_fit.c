/* The tuner's fit: the linear model
 *     e = ((sum c*mg) * phase + (sum c*eg) * (PHASE_MAX - phase)) / PHASE_MAX * scale / 64
 * (scale: the win scale of the side e favours) predicts the result by
 * sigmoid(K * e); K is fitted first (golden-section search), then the
 * weights by full-batch Adam on the mean squared error, with an optional
 * L2 pull towards the start.  Every pass is split into CHUNKS summed in a
 * fixed order, so the result is the same for any number of threads. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine/util/clock.h"
#include "texel_private.h"

static double seconds_since(int64_t t0_us) { return (double)(now_us() - t0_us) * 1e-6; }

typedef struct {
    const TexelData *d;
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
    const TexelData *d = ps->d;
    const PosSet *set = &d->set[ps->set];
    size_t lo = set->n * (size_t)chunk / CHUNKS, hi = set->n * (size_t)(chunk + 1) / CHUNKS;
    const double *w = ps->w;
    double *g = ps->gradient ? ps->grad + (size_t)chunk * (size_t)d->nparams * 2 : NULL;
    double err = 0;
    for (size_t i = lo; i < hi; i++) {
        const TexelPos *tp = &set->v[i];
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

static void params_to_weights(const TexelData *d, const EvalParams *params, double *w)
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

static void weights_to_params(const TexelData *d, const double *w, EvalParams *params)
{
    for (int i = 0; i < EVAL_PARAM_SLOTS; i++) {
        int k = d->slot_param[i];
        if (k >= 0)
            *eval_param_slot(params, i) = S(round_clamp(w[2 * k]), round_clamp(w[2 * k + 1]));
    }
}

static double error_of(const TexelData *d, const double *w, double k, int set)
{
    const PosSet *s = &d->set[set];
    if (s->n == 0)
        return 0;
    Pass ps = {.d = d, .w = w, .k = k, .set = set, .threads = d->opt.threads};
    return run_pass(&ps) / (double)s->n;
}

double texel_error(const TexelData *d, const EvalParams *params, double k, bool validation)
{
    double *w = malloc(sizeof(double) * 2 * (size_t)(d->nparams ? d->nparams : 1));
    if (!w)
        return NAN;
    params_to_weights(d, params, w);
    double e = error_of(d, w, k, validation ? 1 : 0);
    free(w);
    return e;
}

double texel_fit_k(const TexelData *d, const EvalParams *params)
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

double texel_fit(const TexelData *d, EvalParams *params, double k)
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
    const TexelOptions *o = &d->opt;
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
            fprintf(o->progress, "texel: epoch %4d  training error %.6f  validation error %.6f  %.1f s\n", epoch,
                    err, verr, seconds_since(t0));
            fflush(o->progress);
        }
    }
    weights_to_params(d, w, params);
    final = texel_error(d, params, k, false);
out:
    free(w);
    free(w0);
    free(m);
    free(v);
    free(grad);
    free(g);
    return final;
}
