/* The net's arithmetic: plain C, SSE2, AVX2 and NEON kernels that give the
 * same results bit for bit, and the choice among them by the CPU (see
 * nnue.h).
 *
 * Every x86-64 build carries plain, SSE2 and AVX2: SSE2 is part of x86-64
 * itself, and the AVX2 functions are compiled for AVX2 by their own target
 * attribute, so that a portable binary (-march=x86-64) holds them without
 * using AVX2 anywhere else; they are reached only through the function
 * pointers of the set nnue_kernels() chose after asking the CPU.  An
 * AArch64 build carries plain and NEON, which every AArch64 CPU has (the
 * architecture's Advanced SIMD is not optional), so nothing is asked. */
#include "nnue.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define NNUE_HAVE_AVX2 1
#else
#define NNUE_HAVE_AVX2 0
#endif
#if defined(__SSE2__)
#define NNUE_HAVE_SSE2 1
#else
#define NNUE_HAVE_SSE2 0
#endif
#if defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#define NNUE_HAVE_NEON 1
#else
#define NNUE_HAVE_NEON 0
#endif

/* Lanes kept in registers across all the rows of an update: 64 int16 are
 * 8 SSE2 or NEON registers or 4 AVX2 ones, well within the 16 of x86-64
 * (AArch64 has 32). */
#define TILE 64

/* ---- plain kernels ----
 * The reference the others are tested against, written in tiles of
 * independent lanes so that a compiler vectorises it for whatever target
 * it builds (the sums are made in uint16, where wrapping is defined). */

static void plain_update(int16_t *dst, const int16_t *src, const int16_t *w, const int *add, int nadd,
                         const int *sub, int nsub)
{
    for (int k = 0; k < NNUE_HIDDEN; k += TILE) {
        uint16_t v[TILE];
        for (int j = 0; j < TILE; j++)
            v[j] = (uint16_t)src[k + j];
        for (int i = 0; i < nadd; i++) {
            const int16_t *row = w + (size_t)add[i] * NNUE_HIDDEN + k;
            for (int j = 0; j < TILE; j++)
                v[j] = (uint16_t)(v[j] + (uint16_t)row[j]);
        }
        for (int i = 0; i < nsub; i++) {
            const int16_t *row = w + (size_t)sub[i] * NNUE_HIDDEN + k;
            for (int j = 0; j < TILE; j++)
                v[j] = (uint16_t)(v[j] - (uint16_t)row[j]);
        }
        for (int j = 0; j < TILE; j++)
            dst[k + j] = (int16_t)v[j]; /* wraps like the SIMD lanes */
    }
}

static inline int32_t crelu(int16_t x) { return x < 0 ? 0 : x > NNUE_QA ? NNUE_QA : x; }

static int32_t plain_output(const int16_t *us, const int16_t *them, const int16_t *w)
{
    int32_t sum = 0;
    for (int k = 0; k < NNUE_HIDDEN; k++)
        sum += crelu(us[k]) * w[k] + crelu(them[k]) * w[NNUE_HIDDEN + k];
    return sum;
}

/* SCReLU: (v * w) * v with v = crelu(x), as the SIMD kernels make it */
static int64_t plain_output_sq(const int16_t *us, const int16_t *them, const int16_t *w)
{
    int64_t sum = 0;
    for (int k = 0; k < NNUE_HIDDEN; k++) {
        int32_t a = crelu(us[k]), b = crelu(them[k]);
        sum += (int64_t)(a * w[k]) * a + (int64_t)(b * w[NNUE_HIDDEN + k]) * b;
    }
    return sum;
}

const NnueKernels NnuePlain = {"plain", plain_update, plain_output, plain_output_sq};

/* ---- SSE2 kernels (every x86-64 CPU) ---- */

#if NNUE_HAVE_SSE2
static void sse2_update(int16_t *dst, const int16_t *src, const int16_t *w, const int *add, int nadd,
                        const int *sub, int nsub)
{
    enum { R = TILE / 8 };
    for (int k = 0; k < NNUE_HIDDEN; k += TILE) {
        __m128i r[R];
        for (int j = 0; j < R; j++)
            r[j] = _mm_loadu_si128((const __m128i *)(src + k + 8 * j));
        for (int i = 0; i < nadd; i++) {
            const int16_t *row = w + (size_t)add[i] * NNUE_HIDDEN + k;
            for (int j = 0; j < R; j++)
                r[j] = _mm_add_epi16(r[j], _mm_loadu_si128((const __m128i *)(row + 8 * j)));
        }
        for (int i = 0; i < nsub; i++) {
            const int16_t *row = w + (size_t)sub[i] * NNUE_HIDDEN + k;
            for (int j = 0; j < R; j++)
                r[j] = _mm_sub_epi16(r[j], _mm_loadu_si128((const __m128i *)(row + 8 * j)));
        }
        for (int j = 0; j < R; j++)
            _mm_storeu_si128((__m128i *)(dst + k + 8 * j), r[j]);
    }
}

/* The clipped ReLU by max/min of int16, the products summed in pairs by
 * madd into int32 lanes (exact: 255 x 32767 x 2 fits), then across lanes:
 * int32 addition in another order, the same sum (the loader's bounds keep
 * it from overflowing). */
static int32_t sse2_output(const int16_t *us, const int16_t *them, const int16_t *w)
{
    const __m128i zero = _mm_setzero_si128(), qa = _mm_set1_epi16(NNUE_QA);
    __m128i sum0 = _mm_setzero_si128(), sum1 = _mm_setzero_si128();
    for (int half = 0; half < 2; half++) {
        const int16_t *a = half ? them : us, *wh = w + half * NNUE_HIDDEN;
        for (int k = 0; k < NNUE_HIDDEN; k += 16) {
            __m128i x0 = _mm_loadu_si128((const __m128i *)(a + k));
            __m128i x1 = _mm_loadu_si128((const __m128i *)(a + k + 8));
            x0 = _mm_min_epi16(_mm_max_epi16(x0, zero), qa);
            x1 = _mm_min_epi16(_mm_max_epi16(x1, zero), qa);
            sum0 = _mm_add_epi32(sum0, _mm_madd_epi16(x0, _mm_loadu_si128((const __m128i *)(wh + k))));
            sum1 = _mm_add_epi32(sum1, _mm_madd_epi16(x1, _mm_loadu_si128((const __m128i *)(wh + k + 8))));
        }
    }
    __m128i s = _mm_add_epi32(sum0, sum1);
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}

/* SCReLU: v * w by mullo (exact in int16: 255 x 127 fits), times v summed
 * in pairs by madd into int32 lanes (each lane 128 products of at most
 * 255 x 255 x 127: 1.06e9, fits), the lanes summed in int64. */
static int64_t sse2_output_sq(const int16_t *us, const int16_t *them, const int16_t *w)
{
    const __m128i zero = _mm_setzero_si128(), qa = _mm_set1_epi16(NNUE_QA);
    __m128i sum = _mm_setzero_si128();
    for (int half = 0; half < 2; half++) {
        const int16_t *a = half ? them : us, *wh = w + half * NNUE_HIDDEN;
        for (int k = 0; k < NNUE_HIDDEN; k += 8) {
            __m128i x = _mm_min_epi16(_mm_max_epi16(_mm_loadu_si128((const __m128i *)(a + k)), zero), qa);
            __m128i xw = _mm_mullo_epi16(x, _mm_loadu_si128((const __m128i *)(wh + k)));
            sum = _mm_add_epi32(sum, _mm_madd_epi16(xw, x));
        }
    }
    int32_t lane[4];
    _mm_storeu_si128((__m128i *)lane, sum);
    return (int64_t)lane[0] + lane[1] + lane[2] + lane[3];
}

static const NnueKernels Sse2Kernels = {"sse2", sse2_update, sse2_output, sse2_output_sq};
const NnueKernels *const NnueSse2 = &Sse2Kernels;
#else
const NnueKernels *const NnueSse2 = NULL;
#endif

/* ---- AVX2 kernels (compiled for AVX2 in every x86 build) ---- */

#if NNUE_HAVE_AVX2
__attribute__((target("avx2"))) static void avx2_update(int16_t *dst, const int16_t *src, const int16_t *w,
                                                        const int *add, int nadd, const int *sub, int nsub)
{
    enum { R = TILE / 16 };
    for (int k = 0; k < NNUE_HIDDEN; k += TILE) {
        __m256i r[R];
        for (int j = 0; j < R; j++)
            r[j] = _mm256_loadu_si256((const __m256i *)(src + k + 16 * j));
        for (int i = 0; i < nadd; i++) {
            const int16_t *row = w + (size_t)add[i] * NNUE_HIDDEN + k;
            for (int j = 0; j < R; j++)
                r[j] = _mm256_add_epi16(r[j], _mm256_loadu_si256((const __m256i *)(row + 16 * j)));
        }
        for (int i = 0; i < nsub; i++) {
            const int16_t *row = w + (size_t)sub[i] * NNUE_HIDDEN + k;
            for (int j = 0; j < R; j++)
                r[j] = _mm256_sub_epi16(r[j], _mm256_loadu_si256((const __m256i *)(row + 16 * j)));
        }
        for (int j = 0; j < R; j++)
            _mm256_storeu_si256((__m256i *)(dst + k + 16 * j), r[j]);
    }
}

__attribute__((target("avx2"))) static int32_t avx2_output(const int16_t *us, const int16_t *them,
                                                           const int16_t *w)
{
    const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(NNUE_QA);
    __m256i sum = _mm256_setzero_si256();
    for (int half = 0; half < 2; half++) {
        const int16_t *a = half ? them : us, *wh = w + half * NNUE_HIDDEN;
        for (int k = 0; k < NNUE_HIDDEN; k += 16) {
            __m256i x = _mm256_loadu_si256((const __m256i *)(a + k));
            x = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(x, _mm256_loadu_si256((const __m256i *)(wh + k))));
        }
    }
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}

/* SCReLU, as in SSE2: each of the 8 lanes sums 64 products */
__attribute__((target("avx2"))) static int64_t avx2_output_sq(const int16_t *us, const int16_t *them,
                                                              const int16_t *w)
{
    const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(NNUE_QA);
    __m256i sum = _mm256_setzero_si256();
    for (int half = 0; half < 2; half++) {
        const int16_t *a = half ? them : us, *wh = w + half * NNUE_HIDDEN;
        for (int k = 0; k < NNUE_HIDDEN; k += 16) {
            __m256i x = _mm256_min_epi16(_mm256_max_epi16(_mm256_loadu_si256((const __m256i *)(a + k)), zero), qa);
            __m256i xw = _mm256_mullo_epi16(x, _mm256_loadu_si256((const __m256i *)(wh + k)));
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(xw, x));
        }
    }
    int32_t lane[8];
    _mm256_storeu_si256((__m256i *)lane, sum);
    int64_t total = 0;
    for (int i = 0; i < 8; i++)
        total += lane[i];
    return total;
}

static const NnueKernels Avx2Kernels = {"avx2", avx2_update, avx2_output, avx2_output_sq};
const NnueKernels *const NnueAvx2 = &Avx2Kernels;
#else
const NnueKernels *const NnueAvx2 = NULL;
#endif

/* ---- NEON kernels (every AArch64 CPU) ---- */

#if NNUE_HAVE_NEON
static void neon_update(int16_t *dst, const int16_t *src, const int16_t *w, const int *add, int nadd,
                        const int *sub, int nsub)
{
    enum { R = TILE / 8 };
    for (int k = 0; k < NNUE_HIDDEN; k += TILE) {
        int16x8_t r[R];
        for (int j = 0; j < R; j++)
            r[j] = vld1q_s16(src + k + 8 * j);
        for (int i = 0; i < nadd; i++) {
            const int16_t *row = w + (size_t)add[i] * NNUE_HIDDEN + k;
            for (int j = 0; j < R; j++)
                r[j] = vaddq_s16(r[j], vld1q_s16(row + 8 * j)); /* wraps, not saturates */
        }
        for (int i = 0; i < nsub; i++) {
            const int16_t *row = w + (size_t)sub[i] * NNUE_HIDDEN + k;
            for (int j = 0; j < R; j++)
                r[j] = vsubq_s16(r[j], vld1q_s16(row + 8 * j));
        }
        for (int j = 0; j < R; j++)
            vst1q_s16(dst + k + 8 * j, r[j]);
    }
}

/* The clipped ReLU by max/min of int16; each product widened to int32 and
 * accumulated (vmlal: exact, 255 x 32767 fits), four lanes of low halves
 * and four of high halves, then summed across lanes: the plain sum in
 * another order, the same int32. */
static int32_t neon_output(const int16_t *us, const int16_t *them, const int16_t *w)
{
    const int16x8_t zero = vdupq_n_s16(0), qa = vdupq_n_s16(NNUE_QA);
    int32x4_t sum0 = vdupq_n_s32(0), sum1 = vdupq_n_s32(0);
    for (int half = 0; half < 2; half++) {
        const int16_t *a = half ? them : us, *wh = w + half * NNUE_HIDDEN;
        for (int k = 0; k < NNUE_HIDDEN; k += 8) {
            int16x8_t x = vminq_s16(vmaxq_s16(vld1q_s16(a + k), zero), qa);
            int16x8_t y = vld1q_s16(wh + k);
            sum0 = vmlal_s16(sum0, vget_low_s16(x), vget_low_s16(y));
            sum1 = vmlal_high_s16(sum1, x, y);
        }
    }
    return vaddvq_s32(vaddq_s32(sum0, sum1));
}

/* SCReLU: v * w in int16 (exact), times v widened and accumulated in
 * int32 (each of the 8 lanes 64 products: fits), summed in int64. */
static int64_t neon_output_sq(const int16_t *us, const int16_t *them, const int16_t *w)
{
    const int16x8_t zero = vdupq_n_s16(0), qa = vdupq_n_s16(NNUE_QA);
    int32x4_t sum0 = vdupq_n_s32(0), sum1 = vdupq_n_s32(0);
    for (int half = 0; half < 2; half++) {
        const int16_t *a = half ? them : us, *wh = w + half * NNUE_HIDDEN;
        for (int k = 0; k < NNUE_HIDDEN; k += 8) {
            int16x8_t x = vminq_s16(vmaxq_s16(vld1q_s16(a + k), zero), qa);
            int16x8_t xw = vmulq_s16(x, vld1q_s16(wh + k));
            sum0 = vmlal_s16(sum0, vget_low_s16(xw), vget_low_s16(x));
            sum1 = vmlal_high_s16(sum1, xw, x);
        }
    }
    return vaddlvq_s32(sum0) + vaddlvq_s32(sum1);
}

static const NnueKernels NeonKernels = {"neon", neon_update, neon_output, neon_output_sq};
const NnueKernels *const NnueNeon = &NeonKernels;
#else
const NnueKernels *const NnueNeon = NULL;
#endif

/* ---- the choice ---- */

bool nnue_kernels_supported(const NnueKernels *k)
{
    if (!k)
        return false;
#if NNUE_HAVE_AVX2
    if (k == NnueAvx2) {
#ifdef __AVX2__
        return true; /* the whole build needs it (checked at start-up: engine/util/cpu.c) */
#else
        /* libgcc reads the CPU once, before main; this reads its answer,
         * which counts AVX2 only where the system saves the YMM registers */
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2");
#endif
    }
#endif
    return true; /* plain everywhere; SSE2 and NEON are built only where the target has them */
}

const NnueKernels *nnue_kernels(void)
{
    if (nnue_kernels_supported(NnueAvx2))
        return NnueAvx2;
    if (NnueSse2)
        return NnueSse2;
    if (NnueNeon)
        return NnueNeon;
    return &NnuePlain;
}
