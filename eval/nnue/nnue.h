/* The neural evaluation (NNUE): a sparse-input network whose first layer
 * is kept up to date move by move.
 *
 * Architecture "xq-k6-7560x2-256-4" (NNUE_ARCH):
 *   inputs   for each perspective p (the colour whose view it is): piece
 *            class (own/enemy x 7 types) x 90 points, seen from p (ranks
 *            flipped for Black), for each of 6 buckets of p's king point in
 *            the palace: 3 ranks x 2 files, the files mirrored when the
 *            king stands right of the centre file (and then every point's
 *            file too).  7560 inputs, about 32 active per perspective.
 *   layer 1  7560 -> 256 int16 (weights and bias scaled by NNUE_QA), one
 *            accumulator per perspective.
 *   layer 2  clipped ReLU [0, QA] of (side to move's 256, other's 256) ->
 *            1, int16 weights scaled by NNUE_QB, one output of 4 buckets
 *            chosen by the pieces on the board (NNUE_OUT_BUCKETS).
 *   output   centipawns = sum * NNUE_SCALE / (QA * QB), the side to move's
 *            view; the trainer fits sigmoid(output / NNUE_SCALE).
 *
 * Architecture "xq-k6-7560x2-256-4-screlu" (NNUE_ARCH_SCRELU) is the same
 * but for layer 2's activation, the square of the clipped ReLU (SCReLU:
 * a unit's output grows faster near its top, which a net this shallow
 * cannot otherwise express), with output weights scaled by
 * NNUE_QB_SCRELU and at most NNUE_OUT_W_MAX_SCRELU, so that each
 * activation times its weight fits int16: sum = (sum of v^2 w) / QA + bias,
 * centipawns = sum * NNUE_SCALE / (QA * QB_SCRELU).  A net file says which
 * it is; the engine reads both.
 *
 * A search keeps an NnueStack: one accumulator pair per ply, updated
 * lazily (only when a node is evaluated) from the last computed ply by the
 * pieces the moves added and removed; a perspective whose king moved is
 * refreshed from the board.  The arithmetic has plain C, SSE2, AVX2 and
 * NEON kernels that give identical results; the CPU chooses, at run time,
 * in every x86-64 build (AArch64 always has NEON). */
#ifndef CHUHAN_EVAL_NNUE_H
#define CHUHAN_EVAL_NNUE_H

#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/board/position.h"

#define NNUE_ARCH "xq-k6-7560x2-256-4"
#define NNUE_ARCH_SCRELU "xq-k6-7560x2-256-4-screlu"
#define NNUE_KING_BUCKETS 6
#define NNUE_PIECE_CLASSES 14
#define NNUE_INPUTS (NNUE_KING_BUCKETS * NNUE_PIECE_CLASSES * SQUARE_NB)
#define NNUE_HIDDEN 256
#define NNUE_OUT_BUCKETS 4
#define NNUE_QA 255
#define NNUE_QB 512
#define NNUE_SCALE 400
/* Bounds the loader enforces so that no sum can overflow int32. */
#define NNUE_OUT_W_MAX 16000
#define NNUE_QB_SCRELU 64
#define NNUE_OUT_W_MAX_SCRELU 127 /* 255 x 127 fits int16 */
#define NNUE_OUT_B_MAX 50000000
#define NNUE_MAX_ACTIVE 32 /* pieces on the board, at most */
/* The output is clamped to the evaluation's bound (EVAL_MAX, eval/eval.h,
 * which the net sits below). */
#define NNUE_EVAL_MAX 20000

/* Layer 2's activation. */
enum { NNUE_CRELU, NNUE_SCRELU };

typedef struct {
    alignas(64) int16_t ft_w[NNUE_INPUTS * NNUE_HIDDEN]; /* row i: input i's 256 weights */
    alignas(64) int16_t ft_b[NNUE_HIDDEN];
    alignas(64) int16_t out_w[NNUE_OUT_BUCKETS][2 * NNUE_HIDDEN]; /* side to move's half first */
    int32_t out_b[NNUE_OUT_BUCKETS];
    int32_t activation; /* NNUE_CRELU or NNUE_SCRELU */
} NnueNet;

/* A net with every weight zero and a clipped ReLU (free with nnue_free). */
NnueNet *nnue_alloc(void);
void nnue_free(NnueNet *net);
/* The architecture's name (NNUE_ARCH or NNUE_ARCH_SCRELU). */
static inline const char *nnue_arch(int activation)
{
    return activation == NNUE_SCRELU ? NNUE_ARCH_SCRELU : NNUE_ARCH;
}
/* Layer 2's weight scale and bound. */
static inline int nnue_qb(int activation) { return activation == NNUE_SCRELU ? NNUE_QB_SCRELU : NNUE_QB; }
static inline int nnue_out_w_max(int activation)
{
    return activation == NNUE_SCRELU ? NNUE_OUT_W_MAX_SCRELU : NNUE_OUT_W_MAX;
}

/* ---- net files (nnue_file.c) ----
 * A net file is one zstd frame holding: "CHUHNNUE", the format version
 * (uint32), the architecture (NNUE_ARCH or NNUE_ARCH_SCRELU, 32 bytes, NUL-padded), inputs,
 * hidden size, output buckets, payload bytes (uint32 each), the payload's
 * FNV-1a 64 checksum (uint64), then the payload: ft_w, ft_b, out_w (int16),
 * out_b (int32), all little-endian. */
#define NNUE_FILE_VERSION 1
/* Read a net; NULL with the reason in err: the file cannot be read, is
 * not a Chuhan net, is truncated, corrupted, of another format version or
 * of another architecture. */
NnueNet *nnue_load_file(const char *path, char *err, size_t errlen);
NnueNet *nnue_load_memory(const void *data, size_t size, char *err, size_t errlen);
bool nnue_save_file(const NnueNet *net, const char *path, char *err, size_t errlen);
/* The net built into the binary (nnue_default.c), and its file's name in
 * the source tree. */
NnueNet *nnue_load_default(char *err, size_t errlen);
const char *nnue_default_name(void);

/* ---- features (shared with the trainer) ---- */

/* The orientation of perspective p with its king on king_sq: bucket and
 * mirror, packed as bucket * 2 + mirror. */
int nnue_king_orient(int p, int king_sq);
/* The input of piece pc on point s for perspective p in orientation o. */
static inline int nnue_feature(int p, int orient, int pc, int s)
{
    int r = sq_rank(s), f = sq_file(s);
    if (p == BLACK)
        r = RANK_NB - 1 - r;
    if (orient & 1)
        f = FILE_NB - 1 - f;
    int cls = (piece_color(pc) != p) * 7 + piece_type(pc) - 1;
    return ((orient >> 1) * NNUE_PIECE_CLASSES + cls) * SQUARE_NB + r * FILE_NB + f;
}
/* The active inputs of perspective p (at most NNUE_MAX_ACTIVE); returns
 * their count. */
int nnue_features(const Position *pos, int p, int out[NNUE_MAX_ACTIVE]);
/* The output bucket of a position, by the number of pieces on the board. */
static inline int nnue_out_bucket(const Position *pos)
{
    int n = popcount(pos->occupied) - 2; /* 0..30 without the kings */
    return n >= 24 ? 3 : n / 8;
}

/* ---- arithmetic (nnue_kernels.c): plain C, SSE2, AVX2 and NEON, the same results ---- */

typedef struct {
    const char *name;
    /* dst = src + the rows add[0..nadd) - the rows sub[0..nsub) of w */
    void (*update)(int16_t *dst, const int16_t *src, const int16_t *w, const int *add, int nadd, const int *sub,
                   int nsub);
    /* sum over k of crelu(us[k]) * w[k] + crelu(them[k]) * w[H + k] */
    int32_t (*output)(const int16_t *us, const int16_t *them, const int16_t *w);
    /* the same with crelu(x)^2, exact (|w| <= NNUE_OUT_W_MAX_SCRELU) */
    int64_t (*output_sq)(const int16_t *us, const int16_t *them, const int16_t *w);
} NnueKernels;
extern const NnueKernels NnuePlain;
/* The SSE2 and AVX2 kernels: NULL where the compiler cannot build them
 * (off x86); every x86-64 build has both, whatever its ARCH.  The NEON
 * kernels: in every AArch64 build, NULL elsewhere. */
extern const NnueKernels *const NnueSse2;
extern const NnueKernels *const NnueAvx2;
extern const NnueKernels *const NnueNeon;
/* Does this CPU run kernels k?  (false for NULL) */
bool nnue_kernels_supported(const NnueKernels *k);
/* The fastest kernels this CPU runs (AVX2, else SSE2; NEON on AArch64;
 * else plain), by what the CPU reported at start-up; the searches and
 * nnue_evaluate_full evaluate with them. */
const NnueKernels *nnue_kernels(void);

/* ---- evaluation ---- */

/* The accumulator of perspective p computed from scratch. */
void nnue_refresh(const NnueNet *net, const Position *pos, int p, int16_t out[NNUE_HIDDEN],
                  const NnueKernels *k);
/* The output from two accumulators, the side to move's view (centipawns). */
int nnue_output(const NnueNet *net, const int16_t *us, const int16_t *them, int bucket, const NnueKernels *k);
/* A whole evaluation from scratch, clamped like evaluate(). */
int nnue_evaluate_full(const NnueNet *net, const Position *pos);

typedef struct {
    alignas(64) int16_t v[COLOR_NB][NNUE_HIDDEN];
    uint8_t computed[COLOR_NB];
    uint8_t king_moved[COLOR_NB]; /* the move to here moved this side's king */
    int8_t n;                     /* pieces changed by that move: 0 (null), 1, or 2 (a capture) */
    uint8_t pc[2], from[2], to[2]; /* change i: piece pc[i] from from[i] to to[i] (SQUARE_NB: none) */
} NnueAcc;

typedef struct {
    const NnueNet *net;
    const NnueKernels *k;
    int top;
    NnueAcc acc[MAX_PLY + 16];
} NnueStack;

/* Start a search at pos: both accumulators computed from scratch. */
void nnue_reset(NnueStack *s, const NnueNet *net, const Position *pos);
/* Before pos_do_move(pos, m) / pos_do_null: what the move changes. */
void nnue_push(NnueStack *s, const Position *pos, Move m);
void nnue_push_null(NnueStack *s);
static inline void nnue_pop(NnueStack *s) { s->top--; }
/* The accumulator of perspective p at the top, brought up to date. */
const int16_t *nnue_accumulator(NnueStack *s, const Position *pos, int p);
/* The evaluation at the top (pos must be the position the stack follows). */
int nnue_evaluate(NnueStack *s, const Position *pos);

#endif
