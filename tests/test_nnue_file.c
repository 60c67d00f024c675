/* Net files and EvalFile: a net reads back as written; a missing,
 * truncated, corrupted, foreign or wrong-architecture file each gets its
 * own reason, and the engine keeps the evaluation it had; a search with a
 * net plays legal moves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "engine/board/movegen.h"
#include "engine/engine.h"
#include "eval/eval.h"
#include "eval/nnue/nnue.h"
#include "tests.h"

static NnueNet *small_net(uint64_t seed)
{
    NnueNet *net = nnue_alloc();
    assert_non_null(net);
    for (size_t i = 0; i < sizeof net->ft_w / sizeof net->ft_w[0]; i++)
        net->ft_w[i] = (int16_t)((int)rng_below(&seed, 61) - 30);
    for (int i = 0; i < NNUE_HIDDEN; i++)
        net->ft_b[i] = (int16_t)((int)rng_below(&seed, 101));
    for (int b = 0; b < NNUE_OUT_BUCKETS; b++) {
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
            net->out_w[b][i] = (int16_t)((int)rng_below(&seed, 41) - 20);
        net->out_b[b] = (int32_t)rng_below(&seed, 2001) - 1000;
    }
    return net;
}

static void temp_path(char *out, size_t len, const char *tag)
{
    snprintf(out, len, "/tmp/chuhan-test-net-%ld-%s.nnue", (long)getpid(), tag);
}

static unsigned char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned char *buf = malloc(64 << 20);
    assert_non_null(buf);
    *n = fread(buf, 1, 64 << 20, f);
    fclose(f);
    return buf;
}

/* The file at path, decompressed, changed by edit, compressed again. */
static void rewrite(const char *path, const char *out, void (*edit)(unsigned char *raw, size_t n))
{
    size_t n;
    unsigned char *z = read_all(path, &n);
    unsigned long long size = ZSTD_getFrameContentSize(z, n);
    assert_true(size > 0 && size < (64u << 20));
    unsigned char *raw = malloc(size);
    assert_int_equal(ZSTD_decompress(raw, size, z, n), size);
    edit(raw, size);
    size_t cap = ZSTD_compressBound(size);
    unsigned char *z2 = malloc(cap);
    size_t m = ZSTD_compress(z2, cap, raw, size, 1);
    assert_false(ZSTD_isError(m));
    test_write_file(out, z2, m);
    free(z2);
    free(raw);
    free(z);
}

static void flip_payload(unsigned char *raw, size_t n) { raw[n / 2] ^= 0x40; }
static void other_arch(unsigned char *raw, size_t n)
{
    (void)n;
    memcpy(raw + 12, "xq-k6-7560x2-512-4", 18);
}
static void other_version(unsigned char *raw, size_t n)
{
    (void)n;
    raw[8] = 9;
}
static void bad_magic(unsigned char *raw, size_t n)
{
    (void)n;
    raw[0] = 'X';
}

static void expect_refused(const char *path, const char *reason)
{
    char err[512] = "";
    NnueNet *net = nnue_load_file(path, err, sizeof err);
    if (net || !strstr(err, reason))
        fail_msg("%s: expected '%s', got '%s'", path, reason, net ? "(loaded)" : err);
}

static void test_nnue_file_round_trip_and_errors(void **state)
{
    (void)state;
    char good[256], bad[256], err[512];
    temp_path(good, sizeof good, "good");
    temp_path(bad, sizeof bad, "bad");
    NnueNet *net = small_net(3);
    assert_true(nnue_save_file(net, good, err, sizeof err));
    NnueNet *back = nnue_load_file(good, err, sizeof err);
    if (!back)
        fail_msg("%s", err);
    assert_memory_equal(back->ft_w, net->ft_w, sizeof net->ft_w);
    assert_memory_equal(back->ft_b, net->ft_b, sizeof net->ft_b);
    assert_memory_equal(back->out_w, net->out_w, sizeof net->out_w);
    assert_memory_equal(back->out_b, net->out_b, sizeof net->out_b);

    expect_refused("/nonexistent/chuhan.nnue", "cannot open");
    size_t n;
    unsigned char *z = read_all(good, &n);
    test_write_file(bad, z, n / 2);
    expect_refused(bad, "truncated");
    test_write_file(bad, z, 0);
    expect_refused(bad, "truncated");
    /* a byte changed inside the compressed data: zstd's own check */
    z[n / 2] ^= 0x20;
    test_write_file(bad, z, n);
    expect_refused(bad, "corrupted");
    free(z);
    test_write_file(bad, "not a net at all\n", 17);
    expect_refused(bad, "not zstd-compressed");
    /* well-formed frames with a wrong inside */
    rewrite(good, bad, flip_payload);
    expect_refused(bad, "corrupted: the checksum does not match");
    rewrite(good, bad, other_arch);
    expect_refused(bad, "wrong architecture");
    rewrite(good, bad, other_version);
    expect_refused(bad, "format version 9");
    rewrite(good, bad, bad_magic);
    expect_refused(bad, "bad magic");
    nnue_free(back);
    assert_int_equal(net->activation, NNUE_CRELU);

    /* an SCReLU net: its architecture read back, its weights' tighter bound */
    net->activation = NNUE_SCRELU;
    assert_true(nnue_save_file(net, good, err, sizeof err));
    back = nnue_load_file(good, err, sizeof err);
    if (!back)
        fail_msg("%s", err);
    assert_int_equal(back->activation, NNUE_SCRELU);
    assert_memory_equal(back->ft_w, net->ft_w, sizeof net->ft_w);
    assert_memory_equal(back->out_w, net->out_w, sizeof net->out_w);
    nnue_free(back);
    net->out_w[2][7] = NNUE_OUT_W_MAX_SCRELU + 1;
    assert_true(nnue_save_file(net, bad, err, sizeof err));
    expect_refused(bad, "output weight 128 out of range (at most 127)");
    net->activation = NNUE_CRELU; /* the clipped ReLU's bound holds it */
    assert_true(nnue_save_file(net, bad, err, sizeof err));
    back = nnue_load_file(bad, err, sizeof err);
    if (!back)
        fail_msg("%s", err);
    assert_int_equal(back->activation, NNUE_CRELU);
    assert_int_equal(back->out_w[2][7], NNUE_OUT_W_MAX_SCRELU + 1);
    nnue_free(back);
    unlink(bad);
    unlink(good);
    nnue_free(net);
}

static void test_nnue_eval_file_option(void **state)
{
    (void)state;
    char good[256], bad[256], err[512], buf[1100];
    temp_path(good, sizeof good, "opt");
    temp_path(bad, sizeof bad, "optbad");
    NnueNet *net = small_net(5);
    assert_true(nnue_save_file(net, good, err, sizeof err));
    test_write_file(bad, "junk", 4);
    Engine *e = engine_new(NULL, err, sizeof err);
    assert_non_null(e);
    /* the default: the net built into the binary, the one eval/nets holds */
    assert_string_equal(engine_get_option(e, "EvalFile", buf, sizeof buf), "<built-in>");
    NnueNet *builtin = nnue_load_default(err, sizeof err);
    if (!builtin)
        fail_msg("%s", err);
    NnueNet *from_tree = nnue_load_file(nnue_default_name(), err, sizeof err);
    if (!from_tree)
        fail_msg("%s: %s", nnue_default_name(), err);
    assert_memory_equal(builtin, from_tree, sizeof *builtin);
    Position pos;
    assert_true(pos_set_fen(&pos, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1", NULL, 0));
    assert_true(engine_set_position(e, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
                                    NULL, 0, false, err, sizeof err));
    assert_int_equal(engine_eval(e), eval_static(builtin, &pos));
    assert_int_not_equal(engine_eval(e), evaluate(&pos));
    /* empty: the hand-written evaluation */
    assert_true(engine_set_option(e, "EvalFile", "", err, sizeof err));
    assert_string_equal(engine_get_option(e, "EvalFile", buf, sizeof buf), "");
    assert_int_equal(engine_eval(e), evaluate(&pos));
    /* refused: the reason, and the hand-written evaluation kept */
    assert_false(engine_set_option(e, "EvalFile", bad, err, sizeof err));
    assert_non_null(strstr(err, "not zstd-compressed"));
    assert_non_null(strstr(err, "keeping the hand-written evaluation"));
    assert_string_equal(engine_get_option(e, "EvalFile", buf, sizeof buf), "");
    assert_true(engine_set_option(e, "EvalFile", "<built-in>", err, sizeof err));
    assert_string_equal(engine_get_option(e, "EvalFile", buf, sizeof buf), "<built-in>");
    assert_int_equal(engine_eval(e), eval_static(builtin, &pos));
    /* material that cannot mate: the net's score is scaled down as the
     * hand-written one is (a lone horse against both advisors: 4/64) */
    Position lone;
    assert_true(pos_set_fen(&lone, "3aka3/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1", NULL, 0));
    int raw = nnue_evaluate_full(builtin, &lone), scaled = eval_static(builtin, &lone);
    assert_true(abs(scaled) <= abs(raw) / 16 + 1);
    assert_true(engine_set_option(e, "EvalFile", "", err, sizeof err));
    nnue_free(from_tree);
    nnue_free(builtin);
    /* a net */
    if (!engine_set_option(e, "EvalFile", good, err, sizeof err))
        fail_msg("%s", err);
    assert_string_equal(engine_get_option(e, "EvalFile", buf, sizeof buf), good);
    assert_int_equal(engine_eval(e), nnue_evaluate_full(net, &pos));
    /* a bad file keeps the net */
    assert_false(engine_set_option(e, "EvalFile", "/nonexistent/x.nnue", err, sizeof err));
    assert_non_null(strstr(err, "cannot open"));
    assert_non_null(strstr(err, good));
    assert_string_equal(engine_get_option(e, "EvalFile", buf, sizeof buf), good);
    assert_int_equal(engine_eval(e), nnue_evaluate_full(net, &pos));
    /* the search evaluates with it and plays a legal move */
    Move best = MOVE_NONE;
    uint64_t nodes = engine_bench_search(e, 6, &best);
    assert_true(nodes > 100);
    assert_true(pos_pseudo_legal(&pos, best) && pos_legal(&pos, best));
    /* and so do helper threads, each with its own accumulators */
    assert_true(engine_set_option(e, "Threads", "3", err, sizeof err));
    EngineLimits limits;
    limits_clear(&limits);
    limits.depth = 7;
    engine_go(e, &limits);
    engine_wait(e);
    assert_true(engine_set_option(e, "Threads", "1", err, sizeof err));
    /* empty: back to the hand-written evaluation */
    assert_true(engine_set_option(e, "EvalFile", "", err, sizeof err));
    assert_int_equal(engine_eval(e), evaluate(&pos));
    engine_free(e);
    unlink(good);
    unlink(bad);
    nnue_free(net);
}

/* The protocols say why: UCI and UCCI with an info line, xboard too. */
static void test_nnue_eval_file_protocols(void **state)
{
    (void)state;
    char cmd[1024], out[8192];
    snprintf(cmd, sizeof cmd,
             "printf 'uci\\nsetoption name EvalFile value /nonexistent/n.nnue\\nisready\\nquit\\n' | %s",
             test_engine_path());
    test_run(cmd, out, sizeof out);
    if (!strstr(out, "info string EvalFile /nonexistent/n.nnue: cannot open"))
        fail_msg("uci: %s", out);
    if (!strstr(out, "option name EvalFile type string default <built-in>"))
        fail_msg("uci options: %s", out);
    snprintf(cmd, sizeof cmd, "printf 'ucci\\nsetoption evalfile /nonexistent/n.nnue\\nisready\\nquit\\n' | %s",
             test_engine_path());
    test_run(cmd, out, sizeof out);
    if (!strstr(out, "cannot open"))
        fail_msg("ucci: %s", out);
    snprintf(cmd, sizeof cmd,
             "printf 'xboard\\nprotover 2\\noption EvalFile=/nonexistent/n.nnue\\nping 1\\nquit\\n' | %s",
             test_engine_path());
    test_run(cmd, out, sizeof out);
    if (!strstr(out, "cannot open"))
        fail_msg("xboard: %s", out);
}

const struct CMUnitTest *nnue_file_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nnue_file_round_trip_and_errors),
        cmocka_unit_test(test_nnue_eval_file_option),
        cmocka_unit_test(test_nnue_eval_file_protocols),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
