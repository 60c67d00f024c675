/* chuhan spsa (bench/tools/spsa.h): the SPSA arithmetic on a made-up objective
 * whose optimum is known (it gets there, stays within range, and a seed
 * gives the same run), the arguments refused with a reason, and the command
 * as the binary runs it: refused by the normal build, a short real run in
 * the SPSA build (make test-spsa). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/tools/spsa.h"
#include "tests.h"

/* A made-up objective: the closer each value to its optimum, in steps, the
 * stronger.  A game of a against b is won by a with the logistic
 * probability of the difference, never drawn. */
typedef struct {
    double opt[3];
} Objective;

static double strength(const Objective *o, const Spsa *s, const int *v)
{
    double f = 0;
    for (int i = 0; i < s->n; i++) {
        double d = (v[i] - o->opt[i]) / (4 * s->p[i].step);
        f -= d * d;
    }
    return f;
}

/* One SPSA iteration of pairs game pairs, the games drawn from rng. */
static void iterate(Spsa *s, const Objective *o, int pairs, uint64_t *rng)
{
    int plus[SPSA_MAX_PARAMS], minus[SPSA_MAX_PARAMS];
    spsa_perturb(s, plus, minus);
    for (int i = 0; i < s->n; i++) {
        assert_true(plus[i] >= s->p[i].min && plus[i] <= s->p[i].max);
        assert_true(minus[i] >= s->p[i].min && minus[i] <= s->p[i].max);
    }
    double p = 1 / (1 + exp(-(strength(o, s, plus) - strength(o, s, minus))));
    int score = 0;
    for (int g = 0; g < 2 * pairs; g++)
        score += rng_unit(rng) < p ? 1 : -1;
    spsa_update(s, (double)score / pairs);
}

static void start(Spsa *s, long iterations, uint64_t seed)
{
    char err[128];
    spsa_init(s, iterations, 1.0, seed);
    assert_true(spsa_add(s, "MARGIN", 120, 50, 400, 15, err, sizeof err));
    assert_true(spsa_add(s, "DELTA", 10, 5, 60, 3, err, sizeof err));
    assert_true(spsa_add(s, "DEPTH", 9, 1, 12, 1, err, sizeof err));
}

static void test_spsa_finds_optimum(void **state)
{
    (void)state;
    static Spsa s;
    const Objective o = {{220, 30, 4}};
    start(&s, 400, 7);
    double before[3];
    for (int i = 0; i < 3; i++)
        before[i] = fabs(s.p[i].value - o.opt[i]) / s.p[i].step;
    uint64_t rng = 11;
    for (int k = 0; k < 400; k++)
        iterate(&s, &o, 4, &rng);
    assert_int_equal(s.k, 400);
    for (int i = 0; i < 3; i++) {
        double after = fabs(s.p[i].value - o.opt[i]) / s.p[i].step;
        /* from 5 to 12 steps away to within 2.5 */
        if (!(after < 2.5 && after < before[i] / 2))
            fail_msg("%s: %.1f steps from the optimum (%.1f at the start), at %.1f", s.p[i].name, after, before[i],
                     s.p[i].value);
    }
}

static void test_spsa_clamps(void **state)
{
    (void)state;
    static Spsa s;
    const Objective o = {{1000, -50, 4}}; /* beyond the ranges: 400 and 5 */
    start(&s, 200, 3);
    uint64_t rng = 5;
    for (int k = 0; k < 200; k++) {
        iterate(&s, &o, 2, &rng);
        for (int i = 0; i < s.n; i++)
            assert_true(s.p[i].value >= s.p[i].min && s.p[i].value <= s.p[i].max);
    }
    assert_int_equal(spsa_value(&s, 0), 400);
    assert_int_equal(spsa_value(&s, 1), 5);
}

static void test_spsa_seeded(void **state)
{
    (void)state;
    static Spsa a, b, c;
    const Objective o = {{220, 30, 4}};
    start(&a, 50, 42);
    start(&b, 50, 42);
    start(&c, 50, 43);
    uint64_t ra = 1, rb = 1, rc = 1;
    for (int k = 0; k < 50; k++) {
        iterate(&a, &o, 1, &ra);
        iterate(&b, &o, 1, &rb);
        iterate(&c, &o, 1, &rc);
    }
    bool differ = false;
    for (int i = 0; i < 3; i++) {
        assert_true(a.p[i].value == b.p[i].value);
        differ |= a.p[i].value != c.p[i].value;
    }
    assert_true(differ);
}

/* The gains: c_1 is the step, c_k falls as k^-0.101; the first update
 * moves by rate * step * result, later ones by less. */
static void test_spsa_gains(void **state)
{
    (void)state;
    static Spsa s;
    char err[128];
    spsa_init(&s, 100, 2.0, 1);
    assert_true(spsa_add(&s, "X", 100, 0, 1000, 10, err, sizeof err));
    assert_true(fabs(spsa_c(&s, 0) - 10) < 1e-12);
    int plus, minus;
    spsa_perturb(&s, &plus, &minus);
    assert_int_equal(plus - 100, 10 * s.p[0].sign);
    assert_int_equal(minus - 100, -10 * s.p[0].sign);
    int sign = s.p[0].sign;
    spsa_update(&s, 0.5);
    assert_true(fabs(s.p[0].value - (100 + 2.0 * 10 * 0.5 * sign)) < 1e-9);
    assert_true(fabs(spsa_c(&s, 0) - 10 / pow(2, 0.101)) < 1e-12);
    double v = s.p[0].value;
    spsa_perturb(&s, &plus, &minus);
    spsa_update(&s, 0.5);
    double moved = fabs(s.p[0].value - v);
    /* a_2 / c_2: (A + 1) / (A + 2) = 11 / 12 to the 0.602, times 2^0.101 */
    assert_true(fabs(moved - 2.0 * 10 * 0.5 * pow(11.0 / 12, 0.602) * pow(2, 0.101)) < 1e-9);
    /* refusals */
    assert_false(spsa_add(&s, "Y", 5, 10, 20, 1, err, sizeof err));
    assert_string_equal(err, "Y: 5 is outside 10..20");
    assert_false(spsa_add(&s, "Y", 15, 10, 20, 0, err, sizeof err));
}

/* ---- the arguments ---- */

static const TunableInfo TUNABLES[] = {
    {"RFP_MARGIN", "85", 85, 40, 160, 8},
    {"NMP_BASE_R", "3", 3, 1, 6, 1},
    {"QS_DELTA_MARGIN", "180", 180, 50, 400, 15},
};

/* Parse a line of words (split at spaces). */
static bool parse(const char *line, int ntunables, SpsaConfig *cfg, char *err, size_t errlen)
{
    static char buf[1024];
    char *argv[64];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *t = strtok(buf, " "); t && argc < 64; t = strtok(NULL, " "))
        argv[argc++] = t;
    return spsa_parse_args(argc, argv, TUNABLES, ntunables, cfg, err, errlen);
}

static void test_spsa_args(void **state)
{
    (void)state;
    static SpsaConfig cfg;
    char err[512];
    if (!parse("--engine cmd=./chuhan option.Hash=8 --each nodes=2000 --iterations 40 --pairs 3 --params "
               "QS_DELTA_MARGIN,rfp_margin --seed 9 --concurrency 2 --out /tmp/x",
               3, &cfg, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(cfg.iterations, 40);
    assert_int_equal(cfg.pairs, 3);
    assert_int_equal(cfg.match.games, 6);
    assert_int_equal(cfg.match.concurrency, 2);
    assert_int_equal(cfg.match.seed, 9);
    assert_int_equal(cfg.match.book_plies, 8);
    assert_int_equal(cfg.match.nengines, 2);
    assert_int_equal(cfg.ntuned, 2);
    assert_int_equal(cfg.tuned[0], 2);
    assert_int_equal(cfg.tuned[1], 0);
    assert_string_equal(cfg.out, "/tmp/x");
    for (int e = 0; e < 2; e++) {
        const EngineSpec *s = &cfg.match.engines[e];
        assert_string_equal(s->name, e ? "theta-" : "theta+");
        assert_string_equal(s->cmd, "./chuhan");
        assert_int_equal(s->limits.nodes, 2000);
        assert_int_equal(s->noptions, 2);
        assert_string_equal(s->options[1].name, "OwnBook");
        assert_string_equal(s->options[1].value, "false");
    }
    /* all of them by default; the book plies as given */
    assert_true(parse("--engine cmd=e --each nodes=10 --iterations 1 --book-plies 0", 3, &cfg, err, sizeof err));
    assert_int_equal(cfg.ntuned, 3);
    assert_int_equal(cfg.match.book_plies, 0);

    static const struct {
        const char *line, *why;
    } bad[] = {
        {"--engine cmd=e --each nodes=10", "--iterations N is needed"},
        {"--each nodes=10 --iterations 5", "give the engine once"},
        {"--engine cmd=e --engine cmd=f --each nodes=10 --iterations 5", "give the engine once"},
        {"--engine cmd=e --iterations 5", "engine 1 has no limit"},
        {"--engine cmd=e --each nodes=10 --iterations 0", "spsa: --iterations: '0' is not a number from 1 to 100000000"},
        {"--engine cmd=e --each nodes=10 --iterations 5 --pairs two", "spsa: --pairs: 'two' is not a number from 1 to 100000"},
        {"--engine cmd=e --each nodes=10 --iterations 5 --rate 0", "spsa: --rate: '0' is not a number from 1e-06 to 1000"},
        {"--engine cmd=e --each nodes=10 --iterations 5 --params RFP_MARGIN,LMP", "--params: no tunable 'LMP'"},
        {"--engine cmd=e --each nodes=10 --iterations 5 --params NMP_BASE_R,NMP_BASE_R", "NMP_BASE_R twice"},
        {"--engine cmd=e --each nodes=10 --iterations 5 --params ,", "--params: no tunable ''"},
        {"--engine cmd=e --each nodes=10 --iterations 5 --games 10", "spsa: --games: not an spsa option"},
        {"--engine cmd=e --each nodes=10 --iterations 5 --sprt elo0=0", "spsa: --sprt: not an spsa option"},
        {"--engine cmd=e --each nodes=10 --iterations 5 --pairs", "spsa: --pairs needs a value"},
        {"--engine cmd=e --each nodes=10 --iterations 5 --bogus 1", "spsa: unknown option '--bogus'"},
        {"--engine cmd=e --each nodes=10 --iterations 5 --pairs 1 2", "spsa: unexpected argument '2'"},
        {"--engine cmd=e --each nodes=10 --iterations 5 --rate nan", "spsa: --rate: 'nan' is not a number"},
        {"--engine cmd=e --each nodes=10 --iterations 5 --seed -1", "spsa: --seed: '-1' is not a number"},
        {"--engine cmd=e --each nodes=10 --iterations 5 --concurrency 0", "spsa: --concurrency: '0' is not"},
        {"--engine cmd=e colour=red --each nodes=10 --iterations 5", "spsa: --engine: unknown engine setting"},
        {"--engine cmd=e --each nodes=10 --iterations 5 --out /nonexistent/v.txt",
         "spsa: --out: cannot write /nonexistent/v.txt: folder /nonexistent: No such file or directory"},
        {"--engine cmd=e --each nodes=10 --iterations 5 --out /dev/null", "spsa: --out: /dev/null is a character device"},
        {"--engine cmd=e proto=ucci --each nodes=10 --iterations 5", "must speak UCI"},
        {"--engine cmd=e option.RFP_MARGIN=90 --each nodes=10 --iterations 5", "option.RFP_MARGIN is tuned here"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        if (parse(bad[i].line, 3, &cfg, err, sizeof err) || !strstr(err, bad[i].why))
            fail_msg("'%s': wanted '%s', got '%s'", bad[i].line, bad[i].why, err);
    }
    /* a tunable fixed by an option when it is not tuned is fine */
    assert_true(parse("--engine cmd=e option.RFP_MARGIN=90 --each nodes=10 --iterations 5 --params NMP_BASE_R", 3,
                      &cfg, err, sizeof err));
    /* a build without tunables says which build to use */
    assert_false(parse("--engine cmd=e --each nodes=10 --iterations 5", 0, &cfg, err, sizeof err));
    assert_non_null(strstr(err, "make SPSA=1"));
}

/* ---- the command ---- */

static void test_spsa_cli(void **state)
{
    (void)state;
    char cmd[2048], out[16384];
    snprintf(cmd, sizeof cmd, "%s spsa --engine cmd=%s --each nodes=500 --iterations 0", test_engine_path(),
             test_engine_path());
    assert_int_equal(test_run(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "spsa: "));
    assert_non_null(strstr(out, "usage: chuhan spsa"));
#ifndef CHUHAN_SPSA
    snprintf(cmd, sizeof cmd, "%s spsa --engine cmd=%s --each nodes=500 --iterations 1", test_engine_path(),
             test_engine_path());
    assert_int_equal(test_run(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "this build has no search tunables"));
#else
    /* an engine without the tunables is found out before any game */
    snprintf(cmd, sizeof cmd, "%s spsa --engine 'cmd=echo uciok' --each nodes=500 --iterations 1", test_engine_path());
    assert_int_equal(test_run(cmd, out, sizeof out), 1);
    assert_non_null(strstr(out, "does not list ASPIRATION_DELTA as a spin option from 5 to 60"));
    /* a short real run: two iterations of one pair, two tunables */
    snprintf(cmd, sizeof cmd,
             "%s spsa --engine cmd=%s --each nodes=300 --iterations 2 --params RFP_MARGIN,NMP_BASE_R --seed 3 "
             "--maxmoves 40",
             test_engine_path(), test_engine_path());
    int status = test_run(cmd, out, sizeof out);
    if (status != 0)
        fail_msg("status %d:\n%s", status, out);
    assert_non_null(strstr(out, "iteration 2/2: theta+ vs theta- W "));
    /* the iteration's one pair, by theta+'s points over it: a single 1 among the five counts */
    const char *it = strstr(out, "iteration 2/2: ");
    const char *pt = it ? strstr(it, ", ptnml ") : NULL;
    assert_non_null(pt);
    long c[5];
    assert_int_equal(sscanf(pt, ", ptnml %ld %ld %ld %ld %ld", &c[0], &c[1], &c[2], &c[3], &c[4]), 5);
    assert_int_equal(c[0] + c[1] + c[2] + c[3] + c[4], 1);
    assert_non_null(strstr(out, "values after 2 iterations (4 games):\nRFP_MARGIN "));
    assert_non_null(strstr(out, "\nNMP_BASE_R "));
#endif
}

const struct CMUnitTest *spsa_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spsa_finds_optimum), cmocka_unit_test(test_spsa_clamps),
        cmocka_unit_test(test_spsa_seeded),        cmocka_unit_test(test_spsa_gains),
        cmocka_unit_test(test_spsa_args),          cmocka_unit_test(test_spsa_cli),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
