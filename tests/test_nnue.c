/* The neural evaluation's inference: the accumulators updated move by move
 * (lazily, as a search drives them, with null moves and take-backs) equal
 * a refresh from the board after every move of long random games, for both
 * perspectives and every king bucket; the SSE2, AVX2 and NEON kernels
 * equal the plain ones bit for bit (both activations), the SCReLU output is
 * its definition, and the CPU chooses among the kernels. */
#include <stdlib.h>
#include <string.h>

#include "engine/board/movegen.h"
#include "eval/nnue/nnue.h"
#include "tests.h"

/* A net of random weights, in the ranges a trained net has. */
static NnueNet *random_net(uint64_t seed)
{
    NnueNet *net = nnue_alloc();
    assert_non_null(net);
    for (size_t i = 0; i < sizeof net->ft_w / sizeof net->ft_w[0]; i++)
        net->ft_w[i] = (int16_t)((int)rng_below(&seed, 401) - 200);
    for (int i = 0; i < NNUE_HIDDEN; i++)
        net->ft_b[i] = (int16_t)((int)rng_below(&seed, 301) - 100);
    for (int b = 0; b < NNUE_OUT_BUCKETS; b++) {
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
            net->out_w[b][i] = (int16_t)((int)rng_below(&seed, 255) - 127);
        net->out_b[b] = (int32_t)rng_below(&seed, 20001) - 10000;
    }
    return net;
}

static void check_top(NnueStack *s, const Position *pos, const NnueNet *net, int *seen)
{
    alignas(64) int16_t full[NNUE_HIDDEN];
    for (int p = 0; p < COLOR_NB; p++) {
        nnue_refresh(net, pos, p, full, &NnuePlain);
        const int16_t *inc = nnue_accumulator(s, pos, p);
        assert_memory_equal(inc, full, sizeof full);
        seen[p * 12 + nnue_king_orient(p, pos->king_sq[p])] = 1;
    }
    assert_int_equal(nnue_evaluate(s, pos), nnue_evaluate_full(net, pos));
}

static Move random_legal(const Position *pos, uint64_t *rng)
{
    Move list[MAX_MOVES];
    int n = gen_legal(pos, list);
    return n ? list[rng_below(rng, (uint64_t)n)] : MOVE_NONE;
}

/* Random games; at each move a short random excursion (moves, null moves,
 * some evaluated, some not) is made and taken back, as a search would. */
static void test_nnue_incremental_equals_refresh(void **state)
{
    (void)state;
    NnueNet *net = random_net(1);
    NnueStack *s = malloc(sizeof *s);
    Position *pos = malloc(sizeof *pos);
    assert_non_null(s);
    assert_non_null(pos);
    int seen[2 * 12] = {0};
    uint64_t rng = 2026;
    int checks = 0;
    for (int game = 0; game < 24; game++) {
        assert_true(pos_set_fen(pos, START_FEN, NULL, 0));
        nnue_reset(s, net, pos);
        for (int ply = 0; ply < 200; ply++) {
            Move m = random_legal(pos, &rng);
            if (!m)
                break;
            nnue_push(s, pos, m);
            pos_do_move(pos, m);
            check_top(s, pos, net, seen);
            checks++;
            int depth = (int)rng_below(&rng, 6), made = 0;
            for (; made < depth; made++) {
                Move e = random_legal(pos, &rng);
                if (!e)
                    break;
                if (rng_below(&rng, 8) == 0 && !pos_in_check(pos)) {
                    nnue_push_null(s);
                    pos_do_null(pos);
                    e = MOVE_NULL;
                } else {
                    nnue_push(s, pos, e);
                    pos_do_move(pos, e);
                }
                if (rng_below(&rng, 3) == 0) {
                    check_top(s, pos, net, seen);
                    checks++;
                }
            }
            /* take the excursion back (the state stack knows null moves) */
            for (int i = 0; i < made; i++) {
                if (pos_state(pos)->move == MOVE_NULL)
                    pos_undo_null(pos);
                else
                    pos_undo_move(pos);
                nnue_pop(s);
            }
            /* evaluating after a take-back uses what was computed before */
            if (rng_below(&rng, 2) == 0) {
                check_top(s, pos, net, seen);
                checks++;
            }
        }
    }
    /* 9 palace points: the centre file's 3 are never mirrored */
    for (int i = 0; i < 24; i++)
        if (!seen[i] && !(i % 12 / 2 % 2 == 1 && i % 2 == 1))
            fail_msg("perspective %d orientation %d (bucket %d, mirror %d) never seen", i / 12, i % 12,
                     i % 12 / 2, i % 2);
    assert_true(checks > 5000);
    free(pos);
    free(s);
    nnue_free(net);
}

/* One kernel set against the plain one, on the accumulators and outputs
 * of random games and on the extremes: int16 lanes that wrap both ways,
 * and values beyond both ends of the clip. */
static void check_kernels_equal_plain(const NnueKernels *k, const NnueNet *net, Position *pos)
{
    uint64_t rng = 99;
    alignas(64) int16_t a[COLOR_NB][NNUE_HIDDEN], b[COLOR_NB][NNUE_HIDDEN];
    for (int game = 0; game < 8; game++) {
        assert_true(pos_set_fen(pos, START_FEN, NULL, 0));
        for (int ply = 0; ply < 150; ply++) {
            for (int p = 0; p < COLOR_NB; p++) {
                nnue_refresh(net, pos, p, a[p], &NnuePlain);
                nnue_refresh(net, pos, p, b[p], k);
                assert_memory_equal(a[p], b[p], sizeof a[p]);
            }
            for (int bucket = 0; bucket < NNUE_OUT_BUCKETS; bucket++)
                assert_int_equal(nnue_output(net, a[pos->side], a[!pos->side], bucket, &NnuePlain),
                                 nnue_output(net, b[pos->side], b[!pos->side], bucket, k));
            Move m = random_legal(pos, &rng);
            if (!m)
                break;
            pos_do_move(pos, m);
        }
    }
    alignas(64) int16_t big[NNUE_HIDDEN], out_a[NNUE_HIDDEN], out_b[NNUE_HIDDEN];
    for (int i = 0; i < NNUE_HIDDEN; i++)
        big[i] = (int16_t)(i % 2 ? 32767 - i : -32768 + i);
    int rows[3] = {0, 5, NNUE_INPUTS - 1};
    NnuePlain.update(out_a, big, net->ft_w, rows, 3, rows + 1, 2);
    k->update(out_b, big, net->ft_w, rows, 3, rows + 1, 2);
    assert_memory_equal(out_a, out_b, sizeof out_a);
    int wrapped = 0;
    for (int i = 0; i < NNUE_HIDDEN; i++)
        wrapped += (big[i] > 0) != (out_a[i] > 0);
    assert_true(wrapped > 0); /* the extremes did wrap */
    NnuePlain.update(out_a, big, net->ft_w, NULL, 0, rows, 3);
    k->update(out_b, big, net->ft_w, NULL, 0, rows, 3);
    assert_memory_equal(out_a, out_b, sizeof out_a);
    /* every value of the clip's edges and beyond, against the largest weights */
    alignas(64) int16_t w[2 * NNUE_HIDDEN], edge[NNUE_HIDDEN];
    static const int16_t edges[] = {-32768, -256, -1, 0, 1, 254, 255, 256, 32767};
    for (int i = 0; i < NNUE_HIDDEN; i++)
        edge[i] = edges[i % (sizeof edges / sizeof edges[0])];
    for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
        w[i] = (int16_t)(i % 3 == 0 ? -NNUE_OUT_W_MAX : i % 3 == 1 ? NNUE_OUT_W_MAX : (int)rng_below(&rng, 255) - 127);
    assert_int_equal(NnuePlain.output(big, out_a, net->out_w[0]), k->output(big, out_a, net->out_w[0]));
    assert_int_equal(NnuePlain.output(edge, big, w), k->output(edge, big, w));
    assert_int_equal(NnuePlain.output(big, edge, w), k->output(big, edge, w));
    /* SCReLU: the same edges against its largest weights, and every unit at
     * the top with every weight at the bound (a sum past int32) */
    for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
        w[i] = (int16_t)(i % 3 == 0 ? -NNUE_OUT_W_MAX_SCRELU : i % 3 == 1 ? NNUE_OUT_W_MAX_SCRELU
                                                                         : (int)rng_below(&rng, 255) - 127);
    assert_true(NnuePlain.output_sq(edge, big, w) == k->output_sq(edge, big, w));
    assert_true(NnuePlain.output_sq(big, edge, w) == k->output_sq(big, edge, w));
    assert_true(NnuePlain.output_sq(big, out_a, net->out_w[0]) == k->output_sq(big, out_a, net->out_w[0]));
    alignas(64) int16_t top[NNUE_HIDDEN];
    for (int i = 0; i < NNUE_HIDDEN; i++)
        top[i] = NNUE_QA + i % 2;
    for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
        w[i] = NNUE_OUT_W_MAX_SCRELU;
    int64_t most = (int64_t)2 * NNUE_HIDDEN * NNUE_QA * NNUE_QA * NNUE_OUT_W_MAX_SCRELU;
    assert_true(most > INT32_MAX);
    assert_true(NnuePlain.output_sq(top, top, w) == most);
    assert_true(k->output_sq(top, top, w) == most);
    for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
        w[i] = -NNUE_OUT_W_MAX_SCRELU;
    assert_true(k->output_sq(top, top, w) == -most);
}

/* The SCReLU output by its definition: (crelu(x)^2 * w) summed, divided by
 * QA, plus the bias, scaled to centipawns. */
static void test_nnue_screlu_output(void **state)
{
    (void)state;
    NnueNet *net = random_net(8);
    net->activation = NNUE_SCRELU;
    Position pos;
    uint64_t rng = 5;
    assert_true(pos_set_fen(&pos, START_FEN, NULL, 0));
    alignas(64) int16_t acc[COLOR_NB][NNUE_HIDDEN];
    for (int ply = 0; ply < 60; ply++) {
        for (int p = 0; p < COLOR_NB; p++)
            nnue_refresh(net, &pos, p, acc[p], &NnuePlain);
        int bucket = nnue_out_bucket(&pos);
        int64_t sum = 0;
        for (int h = 0; h < 2; h++)
            for (int k = 0; k < NNUE_HIDDEN; k++) {
                int64_t v = acc[h ? !pos.side : pos.side][k];
                v = v < 0 ? 0 : v > NNUE_QA ? NNUE_QA : v;
                sum += v * v * net->out_w[bucket][h * NNUE_HIDDEN + k];
            }
        int64_t cp = (sum / NNUE_QA + net->out_b[bucket]) * NNUE_SCALE / (NNUE_QA * NNUE_QB_SCRELU);
        cp = cp > NNUE_EVAL_MAX ? NNUE_EVAL_MAX : cp < -NNUE_EVAL_MAX ? -NNUE_EVAL_MAX : cp;
        assert_int_equal(nnue_evaluate_full(net, &pos), (int)cp);
        /* and it is not the clipped ReLU's */
        if (ply == 0) {
            net->activation = NNUE_CRELU;
            assert_int_not_equal(nnue_evaluate_full(net, &pos), (int)cp);
            net->activation = NNUE_SCRELU;
        }
        Move m = random_legal(&pos, &rng);
        if (!m)
            break;
        pos_do_move(&pos, m);
    }
    nnue_free(net);
}

/* Every kernel set this build has and this CPU runs equals the plain one. */
static void test_nnue_simd_equals_plain(void **state)
{
    (void)state;
    NnueNet *net = random_net(7);
    Position *pos = malloc(sizeof *pos);
    assert_non_null(pos);
    const NnueKernels *sets[] = {NnueSse2, NnueAvx2, NnueNeon};
    int tested = 0;
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        if (nnue_kernels_supported(sets[i])) {
            net->activation = NNUE_CRELU;
            check_kernels_equal_plain(sets[i], net, pos);
            net->activation = NNUE_SCRELU; /* random_net's weights are within its bound */
            check_kernels_equal_plain(sets[i], net, pos);
            tested++;
        }
    free(pos);
    nnue_free(net);
#if defined(__x86_64__) || defined(__aarch64__)
    assert_true(tested >= 1); /* SSE2 at least on every x86-64 CPU, NEON on every AArch64 one */
#else
    if (!tested)
        skip();
#endif
}

/* The choice at run time: AVX2 where the CPU has it, whatever the build's
 * ARCH (the portable build included), else SSE2 on x86-64; NEON on
 * AArch64. */
static void test_nnue_kernels_chosen_by_cpu(void **state)
{
    (void)state;
    const NnueKernels *k = nnue_kernels();
    assert_true(nnue_kernels_supported(k));
    assert_false(nnue_kernels_supported(NULL));
#if defined(__x86_64__)
    __builtin_cpu_init();
    assert_non_null(NnueSse2);
    assert_non_null(NnueAvx2); /* built in every x86-64 build */
    if (__builtin_cpu_supports("avx2")) {
        assert_ptr_equal(k, NnueAvx2);
        assert_string_equal(k->name, "avx2");
    } else {
        assert_ptr_equal(k, NnueSse2);
        assert_string_equal(k->name, "sse2");
    }
    assert_null(NnueNeon);
#elif defined(__aarch64__)
    assert_null(NnueSse2);
    assert_null(NnueAvx2);
    assert_non_null(NnueNeon);
    assert_ptr_equal(k, NnueNeon);
    assert_string_equal(k->name, "neon");
#endif
}

static void test_nnue_features(void **state)
{
    (void)state;
    Position pos;
    assert_true(pos_set_fen(&pos, START_FEN, NULL, 0));
    int f[2][NNUE_MAX_ACTIVE];
    /* the start position is symmetric: each side sees the same inputs */
    int n0 = nnue_features(&pos, RED, f[0]), n1 = nnue_features(&pos, BLACK, f[1]);
    assert_int_equal(n0, 32);
    assert_int_equal(n1, 32);
    int sorted[2][NNUE_HIDDEN] = {{0}};
    for (int i = 0; i < 32; i++) {
        assert_in_range(f[0][i], 0, NNUE_INPUTS - 1);
        sorted[0][f[0][i] % 256]++;
        sorted[1][f[1][i] % 256]++;
    }
    assert_memory_equal(sorted[0], sorted[1], sizeof sorted[0]);
    /* king buckets: the centre of the back rank is bucket 1, not mirrored;
     * a king right of centre is mirrored into the left file's bucket */
    assert_int_equal(nnue_king_orient(RED, make_square(4, 0)), 1 * 2 + 0);
    assert_int_equal(nnue_king_orient(RED, make_square(5, 1)), 2 * 2 + 1);
    assert_int_equal(nnue_king_orient(RED, make_square(3, 1)), 2 * 2 + 0);
    assert_int_equal(nnue_king_orient(BLACK, make_square(4, 9)), 1 * 2 + 0);
    assert_int_equal(nnue_king_orient(BLACK, make_square(3, 7)), 4 * 2 + 0);
}

const struct CMUnitTest *nnue_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nnue_features),
        cmocka_unit_test(test_nnue_incremental_equals_refresh),
        cmocka_unit_test(test_nnue_simd_equals_plain),
        cmocka_unit_test(test_nnue_screlu_output),
        cmocka_unit_test(test_nnue_kernels_chosen_by_cpu),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
