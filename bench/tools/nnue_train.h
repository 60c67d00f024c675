/* The net's trainer, in C: the same features as the inference
 * (nnue_sample_features), float weights, Adam, mini-batches split over
 * threads, checkpoints to resume from, and export to the engine's
 * quantised format.
 *
 * Scale: a float net's output o is in units of NNUE_SCALE centipawns;
 * layer 1 works in [0, 1] where the engine works in [0, QA].  Quantised:
 * ft = round(QA * w), out_w = round(QB * w), out_b = round(QA * QB * b).
 * Loss: mean of (sigmoid(o) - target)^2, target = lambda *
 * sigmoid(score / NNUE_SCALE) + (1 - lambda) * (result + 1) / 2. */
#ifndef CHUHAN_NNUE_TRAIN_H
#define CHUHAN_NNUE_TRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eval/nnue/nnue.h"
#include "nnue_data.h"

typedef struct {
    float *ft_w;  /* [NNUE_INPUTS][NNUE_HIDDEN] */
    float *ft_b;  /* [NNUE_HIDDEN] */
    float *out_w; /* [NNUE_OUT_BUCKETS][2 * NNUE_HIDDEN] */
    float *out_b; /* [NNUE_OUT_BUCKETS] */
    int activation; /* layer 2's: NNUE_CRELU or NNUE_SCRELU */
} NnueFloat;

#define NNUE_PARAMS                                                                                              \
    ((size_t)NNUE_INPUTS * NNUE_HIDDEN + NNUE_HIDDEN + NNUE_OUT_BUCKETS * 2 * NNUE_HIDDEN + NNUE_OUT_BUCKETS)

typedef struct {
    double lambda;     /* weight of the search score against the result */
    double lr;         /* Adam's step size */
    int batch;         /* positions per step */
    int threads;
    uint64_t seed;     /* initial weights and the shuffles */
    bool mirror;       /* each epoch also sees every position mirrored */
    double lr_decay;   /* lr is multiplied by this after every epoch */
    int lr_drop;       /* after this many epochs lr is cut tenfold (0: never): a late drop settles the net */
    bool factorize;    /* train a row per piece class and point shared by every king bucket, added
                        * into each bucket's at export (the net's format does not change) */
    bool screlu;       /* layer 2 squares its clipped inputs (NNUE_ARCH_SCRELU) */
} NnueTrainParams;

typedef struct NnueTrainer NnueTrainer;

/* A trainer with fresh weights drawn from params->seed. */
NnueTrainer *nnue_trainer_new(const NnueTrainParams *params);
void nnue_trainer_free(NnueTrainer *t);
NnueFloat *nnue_trainer_net(NnueTrainer *t);
int nnue_trainer_epoch_count(const NnueTrainer *t);

/* Start from a quantised net (a warm start: the next generation learns
 * from the last): its weights divided by their scales, Adam's moments
 * cleared.  Quantising the result gives the net back exactly.  False with
 * the reason when its activation is not the trainer's. */
bool nnue_trainer_init_from(NnueTrainer *t, const NnueNet *net, char *err, size_t errlen);

/* One pass over the records in a shuffled order; the mean training loss
 * (the records that do not unpack are skipped). */
double nnue_train_epoch(NnueTrainer *t, const NnueRecord *recs, size_t n);
/* The mean loss of a float net over records (no training). */
double nnue_float_loss(const NnueFloat *net, const NnueRecord *recs, size_t n, double lambda);
/* The float net's output for a sample (NNUE_SCALE units, side to move). */
float nnue_float_forward(const NnueFloat *net, const NnueSample *s);
/* Quantise into the engine's net (weights clipped to their ranges). */
void nnue_float_quantize(const NnueFloat *net, NnueNet *out);

/* Checkpoints: the weights, Adam's moments and the epoch count. */
bool nnue_trainer_save(const NnueTrainer *t, const char *path, char *err, size_t errlen);
bool nnue_trainer_load(NnueTrainer *t, const char *path, char *err, size_t errlen);

#endif
