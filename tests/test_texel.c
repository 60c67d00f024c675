/* The Texel tuner: the evaluation's linear trace reproduces evaluate() exactly,
 * the weights file reads back as written (and eval/weights.txt as built),
 * and a short tuning run on a sample of the master games lowers the error,
 * the same way every time and for any thread count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/tools/texel.h"
#include "engine/records/pgn.h"
#include "eval/eval.h"
#include "eval/weights.h"
#include "tests.h"

/* The value the trace says, by the evaluation's own integer arithmetic. */
static int trace_value(const EvalTrace *t, const EvalParams *p)
{
    Score total = 0;
    for (int i = 0; i < EVAL_PARAM_SLOTS; i++)
        total += t->coef[i] * *eval_param_slot((EvalParams *)p, i);
    int v = (mg_value(total) * t->phase + eg_value(total) * (PHASE_MAX - t->phase)) / PHASE_MAX;
    int scale = t->scale[v > 0 ? RED : BLACK];
    if (scale < 64)
        v = v * scale / 64;
    v = v > EVAL_MAX ? EVAL_MAX : v < -EVAL_MAX ? -EVAL_MAX : v;
    return t->side == RED ? v : -v;
}

static void test_texel_trace_matches_eval(void **state)
{
    (void)state;
    char err[256];
    PgnReader *r = pgn_open_file(test_data_path("ccpd-master-games.pgn.zst"), PGN_ENC_AUTO, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    static Position pos;
    static Move moves[MAX_GAME_PLY];
    static EvalTrace tr;
    /* some weights made up, so that every slot counts with a value of its own */
    static EvalParams odd;
    for (int i = 0; i < EVAL_PARAM_SLOTS; i++)
        *eval_param_slot(&odd, i) = S((i * 37) % 101 - 50, (i * 53) % 89 - 44);
    const PgnGame *g;
    int games = 0, positions = 0;
    while (games < 60 && pgn_next(r, &g, err, sizeof err) > 0) {
        int n;
        if (pgn_replay(g, &pos, moves, MAX_GAME_PLY, &n, err, sizeof err) != PGN_OK)
            continue;
        games++;
        const char *fen = pgn_tag(g, "FEN");
        assert_true(pos_set_fen(&pos, fen && *fen ? fen : START_FEN, err, sizeof err));
        for (int i = 0; i <= n; i++) {
            if (i)
                pos_do_move(&pos, moves[i - 1]);
            int v = evaluate_trace(&pos, &DefaultEvalParams, &tr);
            assert_int_equal(v, evaluate(&pos));
            assert_int_equal(trace_value(&tr, &DefaultEvalParams), v);
            assert_int_equal(evaluate_trace(&pos, &odd, &tr), evaluate_with(&pos, &odd));
            assert_int_equal(trace_value(&tr, &odd), evaluate_with(&pos, &odd));
            positions++;
        }
    }
    pgn_close(r);
    assert_int_equal(games, 60);
    assert_true(positions > 3000);
}

static bool same_params(const EvalParams *a, const EvalParams *b) { return !memcmp(a, b, sizeof *a); }

/* Write p as the weights file, read it back. */
static bool round_trip(const EvalParams *p, EvalParams *back, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_true(weights_write(f, p, "a test\nof two lines"));
    assert_int_equal(fclose(f), 0);
    bool ok = weights_parse(text, "test", back, err, errlen);
    free(text);
    return ok;
}

static void test_weights_file(void **state)
{
    (void)state;
    static EvalParams back, other;
    char err[256];
    /* the engine's weights, and weights with every value its own (but the
     * psqt of no piece, which the file leaves out), come back the same */
    if (!round_trip(&DefaultEvalParams, &back, err, sizeof err))
        fail_msg("%s", err);
    assert_true(same_params(&back, &DefaultEvalParams));
    for (int i = 0; i < EVAL_PARAM_SLOTS; i++)
        *eval_param_slot(&other, i) = S(i % 2000 - 1000, 7 * i % 3001 - 1500);
    memset(other.psqt[NO_PIECE_TYPE], 0, sizeof other.psqt[NO_PIECE_TYPE]);
    if (!round_trip(&other, &back, err, sizeof err))
        fail_msg("%s", err);
    assert_true(same_params(&back, &other));

    /* broken files are refused with the line and the word */
    static const struct {
        const char *text, *why;
    } BAD[] = {
        {"tempo 1/2\nnonsense 1/2\n", "test:2: unknown weight 'nonsense'"},
        {"# c\n\ntempo 1/\n", "test:3: not mg/eg"},
        {"tempo 1/2 3/4\n", "a value too many for 'tempo'"},
        {"tempo 1/2\ntempo 1/2\n", "test:2: a second time: 'tempo'"},
        {"tempo 99999/0\n", "not mg/eg"},
        {"hanging 1/1 2/2\ntempo 1/2\n", "test:1: 2 values where 8 belong to 'hanging'"},
        {"tempo 1/2\n", "missing: 'piece_value'"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        err[0] = 0;
        assert_false(weights_parse(BAD[i].text, "test", &back, err, sizeof err));
        if (!strstr(err, BAD[i].why))
            fail_msg("'%s': expected '%s', got '%s'", BAD[i].text, BAD[i].why, err);
    }

    /* the file the engine was built from reads as the built-in weights, and
     * the hand-set starting point of the tuning reads */
    char path[600];
    snprintf(path, sizeof path, "%s/../../eval/weights.txt", test_data_path(""));
    if (!weights_read_file(path, &back, err, sizeof err))
        fail_msg("%s", err);
    assert_true(same_params(&back, &DefaultEvalParams));
    if (!weights_read_file(test_data_path("handset-weights.txt"), &back, err, sizeof err))
        fail_msg("%s", err);
    assert_false(weights_read_file("/nonexistent/weights.txt", &back, err, sizeof err));
}

/* Tune a little on the first games, from material values alone; the
 * written file and the errors. */
static void texel_sample(int threads, char *text, size_t textlen, double *e0, double *e1, double *v0, double *v1)
{
    TexelOptions opt;
    texel_options_default(&opt);
    opt.max_positions = 30000;
    opt.epochs = 40;
    opt.lr = 2.0;
    opt.threads = threads;
    opt.seed = 3;
    opt.keep = 0.5;
    TexelData *d = texel_data_new(&opt);
    assert_non_null(d);
    char err[256];
    if (!texel_data_add_file(d, test_data_path("ccpd-master-games.pgn.zst"), err, sizeof err))
        fail_msg("%s", err);
    const TexelDataStats *st = texel_data_stats(d);
    assert_int_equal(st->train + st->validation, 30000);
    assert_true(st->validation > 1000 && st->validation < 6000);
    assert_true(st->skipped_book > 0 && st->skipped_noisy > 0 && st->skipped_sampling > 0);
    /* from material alone, so that the test does not depend on eval/weights.txt */
    static EvalParams p;
    memset(&p, 0, sizeof p);
    static const int material[PIECE_TYPE_NB] = {0, 100, 200, 200, 400, 450, 900, 0};
    for (int pt = PAWN; pt < KING; pt++)
        p.piece_value[pt] = S(material[pt], material[pt]);
    double k = texel_fit_k(d, &p);
    assert_true(k > 1e-4 && k < 0.05);
    /* K is a minimum */
    *e0 = texel_error(d, &p, k, false);
    assert_true(*e0 <= texel_error(d, &p, k * 1.2, false));
    assert_true(*e0 <= texel_error(d, &p, k / 1.2, false));
    *v0 = texel_error(d, &p, k, true);
    *e1 = texel_fit(d, &p, k);
    *v1 = texel_error(d, &p, k, true);
    FILE *f = fmemopen(text, textlen, "w");
    assert_non_null(f);
    assert_true(weights_write(f, &p, "sample"));
    fclose(f);
    texel_data_free(d);
}

static void test_texel_sample(void **state)
{
    (void)state;
    static char a[1 << 16], b[1 << 16];
    double e0, e1, v0, v1, f0, f1, w0, w1;
    texel_sample(1, a, sizeof a, &e0, &e1, &v0, &v1);
    printf("  texel sample: training error %.6f -> %.6f, validation %.6f -> %.6f\n", e0, e1, v0, v1);
    assert_true(e1 < e0 - 0.002);
    assert_true(v1 < v0);
    texel_sample(2, b, sizeof b, &f0, &f1, &w0, &w1);
    assert_true(e0 == f0 && e1 == f1 && v0 == w0 && v1 == w1);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "\npsqt.horse\n"));
    assert_true(strcmp(a, "") != 0);
}

const struct CMUnitTest *texel_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_texel_trace_matches_eval),
        cmocka_unit_test(test_weights_file),
        cmocka_unit_test(test_texel_sample),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
