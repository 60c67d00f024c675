/* The net's trainer (see nnue_train.h). */
#include "nnue_train.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/util/error.h"
#include "engine/util/outfile.h"
#include "engine/util/rng.h"

#define H NNUE_HIDDEN
/* Float ranges that keep the quantised sums inside int16 and int32: 32
 * inputs of 1.98 * QA fit an int16 lane. */
#define FT_CLIP 1.98f
/* Layer 2's weights: what the quantised net of each activation holds. */
static float out_clip(int activation) { return (float)nnue_out_w_max(activation) / (float)nnue_qb(activation); }
/* The factorizer's inputs: a piece class on a point, whatever the king's
 * bucket (input i of the net is bucket i / FACT_INPUTS, then this). */
#define FACT_INPUTS (NNUE_PIECE_CLASSES * SQUARE_NB)
#define FACT_PARAMS ((size_t)FACT_INPUTS * H)
#define FT_PARAMS ((size_t)NNUE_INPUTS * H)

struct NnueTrainer {
    NnueTrainParams p;
    float *params, *m, *v; /* NNUE_PARAMS each */
    float **grad;          /* one gradient per thread */
    double *loss;          /* per thread, of the current batch */
    /* With the factorizer: its weights and their Adam moments (FACT_PARAMS
     * each), and the first layer the batches see, params' with fact added
     * to every bucket's row (FT_PARAMS); net views params but for that. */
    float *fact, *fact_m, *fact_v, *eff;
    NnueFloat net;
    int epochs;
    long steps;
    uint64_t rng;
};

static NnueFloat view(float *base)
{
    NnueFloat f;
    f.ft_w = base;
    f.ft_b = f.ft_w + (size_t)NNUE_INPUTS * H;
    f.out_w = f.ft_b + H;
    f.out_b = f.out_w + NNUE_OUT_BUCKETS * 2 * H;
    return f;
}

static inline float clampf(float x, float lo, float hi) { return x < lo ? lo : x > hi ? hi : x; }

/* The factorizer's net: every bucket's row of an input plus the shared row
 * of its piece class and point, clipped as the quantised net will be (the
 * rows each bucket learns alone start from what all buckets learnt
 * together, and a bucket few positions reach borrows from the others).
 * Nothing to do without it. */
static void fold(NnueTrainer *t)
{
    if (!t->eff)
        return;
    for (size_t b = 0; b < NNUE_KING_BUCKETS; b++) {
        float *e = t->eff + b * FACT_PARAMS;
        const float *w = t->params + b * FACT_PARAMS;
        for (size_t i = 0; i < FACT_PARAMS; i++)
            e[i] = clampf(w[i] + t->fact[i], -FT_CLIP, FT_CLIP);
    }
}

NnueTrainer *nnue_trainer_new(const NnueTrainParams *params)
{
    NnueTrainer *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->p = *params;
    if (t->p.threads < 1)
        t->p.threads = 1;
    t->params = calloc(NNUE_PARAMS, sizeof(float));
    t->m = calloc(NNUE_PARAMS, sizeof(float));
    t->v = calloc(NNUE_PARAMS, sizeof(float));
    t->grad = calloc((size_t)t->p.threads, sizeof *t->grad);
    t->loss = calloc((size_t)t->p.threads, sizeof *t->loss);
    bool ok = t->params && t->m && t->v && t->grad && t->loss;
    for (int i = 0; ok && i < t->p.threads; i++)
        ok = (t->grad[i] = malloc(NNUE_PARAMS * sizeof(float))) != NULL;
    if (ok && t->p.factorize) {
        t->fact = calloc(FACT_PARAMS, sizeof(float));
        t->fact_m = calloc(FACT_PARAMS, sizeof(float));
        t->fact_v = calloc(FACT_PARAMS, sizeof(float));
        t->eff = malloc(FT_PARAMS * sizeof(float));
        ok = t->fact && t->fact_m && t->fact_v && t->eff;
    }
    if (!ok) {
        nnue_trainer_free(t);
        return NULL;
    }
    NnueFloat raw = view(t->params);
    uint64_t r = t->p.seed;
    for (size_t i = 0; i < FT_PARAMS; i++)
        raw.ft_w[i] = (float)(rng_unit(&r) - 0.5) * 0.1f;
    for (int i = 0; i < H; i++)
        raw.ft_b[i] = 0.1f;
    for (int i = 0; i < NNUE_OUT_BUCKETS * 2 * H; i++)
        raw.out_w[i] = (float)(rng_unit(&r) - 0.5) * 0.1f;
    t->rng = r;
    t->net = raw;
    if (t->eff)
        t->net.ft_w = t->eff;
    t->net.activation = t->p.screlu ? NNUE_SCRELU : NNUE_CRELU;
    fold(t);
    return t;
}

void nnue_trainer_free(NnueTrainer *t)
{
    if (!t)
        return;
    for (int i = 0; t->grad && i < t->p.threads; i++)
        free(t->grad[i]);
    free(t->grad);
    free(t->loss);
    free(t->params);
    free(t->m);
    free(t->v);
    free(t->fact);
    free(t->fact_m);
    free(t->fact_v);
    free(t->eff);
    free(t);
}

NnueFloat *nnue_trainer_net(NnueTrainer *t) { return &t->net; }

bool nnue_trainer_init_from(NnueTrainer *t, const NnueNet *net, char *err, size_t errlen)
{
    if (net->activation != t->net.activation)
        return err_set(err, errlen, "the net is %s, the training %s", nnue_arch(net->activation),
                       nnue_arch(t->net.activation));
    float qb = (float)nnue_qb(net->activation);
    NnueFloat raw = view(t->params);
    for (size_t i = 0; i < FT_PARAMS; i++)
        raw.ft_w[i] = (float)net->ft_w[i] / NNUE_QA;
    for (int i = 0; i < H; i++)
        raw.ft_b[i] = (float)net->ft_b[i] / NNUE_QA;
    for (int b = 0; b < NNUE_OUT_BUCKETS; b++) {
        for (int i = 0; i < 2 * H; i++)
            raw.out_w[b * 2 * H + i] = (float)net->out_w[b][i] / qb;
        raw.out_b[b] = (float)((double)net->out_b[b] / ((double)NNUE_QA * qb));
    }
    memset(t->m, 0, NNUE_PARAMS * sizeof(float));
    memset(t->v, 0, NNUE_PARAMS * sizeof(float));
    if (t->fact) {
        /* the shared rows start empty: the net is the parent's exactly */
        memset(t->fact, 0, FACT_PARAMS * sizeof(float));
        memset(t->fact_m, 0, FACT_PARAMS * sizeof(float));
        memset(t->fact_v, 0, FACT_PARAMS * sizeof(float));
    }
    fold(t);
    return true;
}
int nnue_trainer_epoch_count(const NnueTrainer *t) { return t->epochs; }

static inline double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

/* Layer 2's activation of a layer-1 sum, and its slope. */
static inline float activate(int activation, float a)
{
    float x = clampf(a, 0, 1);
    return activation == NNUE_SCRELU ? x * x : x;
}
static inline float slope(int activation, float a)
{
    return a > 0 && a < 1 ? (activation == NNUE_SCRELU ? 2 * a : 1) : 0;
}

/* Layer 1 of both perspectives (side to move first); the output. */
static float forward(const NnueFloat *net, const NnueSample *s, float acc[2][H], int feats[2][NNUE_MAX_ACTIVE],
                     int nf[2])
{
    for (int h = 0; h < 2; h++) {
        int p = h ? !s->side : s->side;
        nf[h] = nnue_sample_features(s, p, feats[h]);
        memcpy(acc[h], net->ft_b, sizeof acc[h]);
        for (int i = 0; i < nf[h]; i++) {
            const float *row = net->ft_w + (size_t)feats[h][i] * H;
            for (int k = 0; k < H; k++)
                acc[h][k] += row[k];
        }
    }
    int b = nnue_sample_bucket(s);
    const float *w = net->out_w + b * 2 * H;
    float out = net->out_b[b];
    for (int h = 0; h < 2; h++)
        for (int k = 0; k < H; k++)
            out += activate(net->activation, acc[h][k]) * w[h * H + k];
    return out;
}

float nnue_float_forward(const NnueFloat *net, const NnueSample *s)
{
    float acc[2][H];
    int feats[2][NNUE_MAX_ACTIVE], nf[2];
    return forward(net, s, acc, feats, nf);
}

static double target(const NnueSample *s, double lambda)
{
    return lambda * sigmoid(s->score / (double)NNUE_SCALE) + (1 - lambda) * (s->result + 1) / 2.0;
}

double nnue_float_loss(const NnueFloat *net, const NnueRecord *recs, size_t n, double lambda)
{
    double sum = 0;
    size_t used = 0;
    NnueSample s;
    for (size_t i = 0; i < n; i++) {
        if (!nnue_record_unpack(&recs[i], &s))
            continue;
        double d = sigmoid(nnue_float_forward(net, &s)) - target(&s, lambda);
        sum += d * d;
        used++;
    }
    return used ? sum / (double)used : 0;
}

/* ---- one batch, split over the threads ---- */

typedef struct {
    NnueTrainer *t;
    const NnueRecord *recs;
    const uint32_t *order;
    size_t from, to;
    int id;
    size_t used;
} Job;

static void *batch_part(void *arg)
{
    Job *j = arg;
    NnueTrainer *t = j->t;
    float *g = t->grad[j->id];
    memset(g, 0, NNUE_PARAMS * sizeof(float));
    NnueFloat gn = view(g);
    float acc[2][H], dacc[2][H];
    int feats[2][NNUE_MAX_ACTIVE], nf[2];
    double loss = 0;
    NnueSample s;
    for (size_t i = j->from; i < j->to; i++) {
        /* with mirroring, item 2r + 1 is record r mirrored */
        uint32_t item = j->order[i];
        if (!nnue_record_unpack(&j->recs[t->p.mirror ? item >> 1 : item], &s))
            continue;
        if (t->p.mirror && (item & 1))
            nnue_sample_mirror(&s);
        j->used++;
        float out = forward(&t->net, &s, acc, feats, nf);
        double pred = sigmoid(out), d = pred - target(&s, t->p.lambda);
        loss += d * d;
        float gout = (float)(2 * d * pred * (1 - pred));
        int b = nnue_sample_bucket(&s);
        const float *w = t->net.out_w + b * 2 * H;
        float *gw = gn.out_w + b * 2 * H;
        gn.out_b[b] += gout;
        for (int h = 0; h < 2; h++)
            for (int k = 0; k < H; k++) {
                float a = acc[h][k];
                gw[h * H + k] += gout * activate(t->net.activation, a);
                dacc[h][k] = gout * w[h * H + k] * slope(t->net.activation, a);
            }
        for (int h = 0; h < 2; h++) {
            for (int k = 0; k < H; k++)
                gn.ft_b[k] += dacc[h][k];
            for (int f = 0; f < nf[h]; f++) {
                float *row = gn.ft_w + (size_t)feats[h][f] * H;
                for (int k = 0; k < H; k++)
                    row[k] += dacc[h][k];
            }
        }
    }
    t->loss[j->id] = loss;
    return NULL;
}

static void adam_step(NnueTrainer *t, size_t used)
{
    const float b1 = 0.9f, b2 = 0.999f, eps = 1e-8f;
    t->steps++;
    float c1 = 1 - powf(b1, (float)t->steps), c2 = 1 - powf(b2, (float)t->steps);
    double base = t->p.lr * pow(t->p.lr_decay > 0 ? t->p.lr_decay : 1, t->epochs);
    if (t->p.lr_drop > 0 && t->epochs >= t->p.lr_drop)
        base *= 0.1;
    float lr = (float)base * sqrtf(c2) / c1;
    float scale = 1.0f / (float)used;
    size_t ft = FT_PARAMS + H;
    float oc = out_clip(t->net.activation);
    float *sum = t->grad[0];
    for (size_t i = 0; i < NNUE_PARAMS; i++) {
        float g = sum[i];
        for (int k = 1; k < t->p.threads; k++)
            g += t->grad[k][i];
        if (t->fact)
            sum[i] = g; /* the factorizer's gradient sums it over the buckets */
        if (g == 0 && i < FT_PARAMS)
            continue; /* an input no position of the batch had */
        g *= scale;
        t->m[i] = b1 * t->m[i] + (1 - b1) * g;
        t->v[i] = b2 * t->v[i] + (1 - b2) * g * g;
        float x = t->params[i] - lr * t->m[i] / (sqrtf(t->v[i]) + eps);
        t->params[i] = i < ft ? clampf(x, -FT_CLIP, FT_CLIP) : clampf(x, -oc, oc);
    }
    if (!t->fact)
        return;
    /* a shared row's gradient: its input's in every bucket (summed into
     * bucket 0's, whose own update is done) */
    for (size_t b = 1; b < NNUE_KING_BUCKETS; b++) {
        const float *gb = sum + b * FACT_PARAMS;
        for (size_t i = 0; i < FACT_PARAMS; i++)
            sum[i] += gb[i];
    }
    for (size_t i = 0; i < FACT_PARAMS; i++) {
        float g = sum[i];
        if (g == 0)
            continue;
        g *= scale;
        t->fact_m[i] = b1 * t->fact_m[i] + (1 - b1) * g;
        t->fact_v[i] = b2 * t->fact_v[i] + (1 - b2) * g * g;
        t->fact[i] = clampf(t->fact[i] - lr * t->fact_m[i] / (sqrtf(t->fact_v[i]) + eps), -FT_CLIP, FT_CLIP);
    }
    fold(t);
}

double nnue_train_epoch(NnueTrainer *t, const NnueRecord *recs, size_t nrecs)
{
    size_t n = t->p.mirror ? 2 * nrecs : nrecs;
    uint32_t *order = malloc(n * sizeof *order + 1);
    if (!order || n == 0 || n > UINT32_MAX) {
        free(order);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = (uint32_t)i;
    for (size_t i = n - 1; i > 0; i--) {
        size_t k = rng_below(&t->rng, i + 1);
        uint32_t x = order[i];
        order[i] = order[k];
        order[k] = x;
    }
    int T = t->p.threads;
    Job *jobs = calloc((size_t)T, sizeof *jobs);
    pthread_t *tids = calloc((size_t)T, sizeof *tids);
    double total = 0;
    size_t used_all = 0;
    for (size_t start = 0; jobs && tids && start < n; start += (size_t)t->p.batch) {
        size_t end = start + (size_t)t->p.batch < n ? start + (size_t)t->p.batch : n, per = (end - start + T - 1) / T;
        for (int k = 0; k < T; k++) {
            size_t a = start + per * k < end ? start + per * k : end, b = a + per < end ? a + per : end;
            jobs[k] = (Job){t, recs, order, a, b, k, 0};
            if (k > 0 && pthread_create(&tids[k], NULL, batch_part, &jobs[k]) != 0)
                batch_part(&jobs[k]), tids[k] = 0;
        }
        batch_part(&jobs[0]);
        size_t used = jobs[0].used;
        double loss = t->loss[0];
        for (int k = 1; k < T; k++) {
            if (tids[k])
                pthread_join(tids[k], NULL);
            tids[k] = 0;
            used += jobs[k].used;
            loss += t->loss[k];
        }
        if (used) {
            adam_step(t, used);
            total += loss;
            used_all += used;
        }
    }
    free(jobs);
    free(tids);
    free(order);
    t->epochs++;
    return used_all ? total / (double)used_all : 0;
}

void nnue_float_quantize(const NnueFloat *net, NnueNet *out)
{
    float qb = (float)nnue_qb(net->activation), oc = out_clip(net->activation);
    out->activation = net->activation;
    for (size_t i = 0; i < FT_PARAMS; i++)
        out->ft_w[i] = (int16_t)lrintf(clampf(net->ft_w[i], -FT_CLIP, FT_CLIP) * NNUE_QA);
    for (int i = 0; i < H; i++)
        out->ft_b[i] = (int16_t)lrintf(clampf(net->ft_b[i], -FT_CLIP, FT_CLIP) * NNUE_QA);
    for (int b = 0; b < NNUE_OUT_BUCKETS; b++) {
        for (int i = 0; i < 2 * H; i++)
            out->out_w[b][i] = (int16_t)lrintf(clampf(net->out_w[b * 2 * H + i], -oc, oc) * qb);
        float lim = (float)NNUE_OUT_B_MAX / (NNUE_QA * qb);
        out->out_b[b] = (int32_t)lrintf(clampf(net->out_b[b], -lim, lim) * NNUE_QA * qb);
    }
}

/* ---- checkpoints ---- */

#define CKPT_MAGIC "CHUHCKPT"
/* after the weights and moments, in a factorized run's checkpoint */
#define CKPT_FACT "FACTORIZ"

bool nnue_trainer_save(const NnueTrainer *t, const char *path, char *err, size_t errlen)
{
    /* a new file or a regular one, replaced whole; anything else refused */
    OutFile of;
    if (!outfile_begin(&of, path, err, errlen))
        return false;
    FILE *f = of.f;
    char arch[32] = {0};
    const char *name = nnue_arch(t->net.activation);
    memcpy(arch, name, strlen(name));
    int32_t epochs = t->epochs;
    int64_t steps = t->steps;
    bool ok = fwrite(CKPT_MAGIC, 1, 8, f) == 8 && fwrite(arch, 1, 32, f) == 32 && fwrite(&epochs, 4, 1, f) == 1
              && fwrite(&steps, 8, 1, f) == 1 && fwrite(&t->rng, 8, 1, f) == 1
              && fwrite(t->params, sizeof(float), NNUE_PARAMS, f) == NNUE_PARAMS
              && fwrite(t->m, sizeof(float), NNUE_PARAMS, f) == NNUE_PARAMS
              && fwrite(t->v, sizeof(float), NNUE_PARAMS, f) == NNUE_PARAMS;
    if (ok && t->fact)
        ok = fwrite(CKPT_FACT, 1, 8, f) == 8 && fwrite(t->fact, sizeof(float), FACT_PARAMS, f) == FACT_PARAMS
             && fwrite(t->fact_m, sizeof(float), FACT_PARAMS, f) == FACT_PARAMS
             && fwrite(t->fact_v, sizeof(float), FACT_PARAMS, f) == FACT_PARAMS;
    if (!ok) {
        outfile_abort(&of);
        return err_set(err, errlen, "cannot write %s", path);
    }
    return outfile_commit(&of, err, errlen);
}

bool nnue_trainer_load(NnueTrainer *t, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return err_set(err, errlen, "cannot open %s: %s", path, strerror(errno));
    char magic[8], arch[33] = {0};
    int32_t epochs;
    int64_t steps;
    uint64_t rng;
    bool ok = fread(magic, 1, 8, f) == 8 && !memcmp(magic, CKPT_MAGIC, 8) && fread(arch, 1, 32, f) == 32
              && fread(&epochs, 4, 1, f) == 1 && fread(&steps, 8, 1, f) == 1 && fread(&rng, 8, 1, f) == 1;
    if (!ok) {
        fclose(f);
        return err_set(err, errlen, "%s is not a checkpoint", path);
    }
    for (char *c = arch; *c; c++)
        if (*c < 32 || *c > 126)
            *c = '?';
    if (strcmp(arch, nnue_arch(t->net.activation))) {
        fclose(f);
        return err_set(err, errlen, "%s is a checkpoint of a %s net, not of a %s one%s", path, arch,
                       nnue_arch(t->net.activation),
                       !strcmp(arch, NNUE_ARCH_SCRELU) ? ": resume with --screlu" : "");
    }
    ok = fread(t->params, sizeof(float), NNUE_PARAMS, f) == NNUE_PARAMS
         && fread(t->m, sizeof(float), NNUE_PARAMS, f) == NNUE_PARAMS
         && fread(t->v, sizeof(float), NNUE_PARAMS, f) == NNUE_PARAMS;
    char tag[8];
    bool fact = ok && fread(tag, 1, 8, f) == 8 && !memcmp(tag, CKPT_FACT, 8);
    if (ok && fact && t->fact)
        ok = fread(t->fact, sizeof(float), FACT_PARAMS, f) == FACT_PARAMS
             && fread(t->fact_m, sizeof(float), FACT_PARAMS, f) == FACT_PARAMS
             && fread(t->fact_v, sizeof(float), FACT_PARAMS, f) == FACT_PARAMS;
    fclose(f);
    if (!ok)
        return err_set(err, errlen, "%s: truncated checkpoint", path);
    if (fact != (t->fact != NULL))
        return err_set(err, errlen, "%s was trained %s the factorizer: resume %s --factorize", path,
                       fact ? "with" : "without", fact ? "with" : "without");
    t->epochs = epochs;
    t->steps = steps;
    t->rng = rng;
    fold(t);
    return true;
}
