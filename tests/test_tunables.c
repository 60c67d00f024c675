/* The search's tunables (search/tunables.h).  The normal build has none:
 * no list, every set refused, the engine's options as they were.  The
 * SPSA build (make SPSA=1; make test-spsa runs this group there) lists
 * them as UCI spin options (and to xboard and UCCI), refuses unknown names
 * and values out of range, and a set changes what the search does, the
 * defaults giving back the search of the normal build. */
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"
#include "search/tunables.h"
#include "tests.h"

/* The engine's options before any tunable: the same in both builds. */
static const char *const OPTION_NAMES[] = {"Threads", "Hash", "Clear Hash", "MultiPV", "Ponder", "Move Overhead",
                                           "UCI_ShowWDL", "Repetition Rule", "Sixty Move Rule", "OwnBook",
                                           "BookFile", "BookDepth", "BookVariety", "EvalFile", "Skill Level",
                                           "UCI_LimitStrength", "UCI_Elo", "Debug Log File"};
#define OPTION_NAMES_NB ((int)(sizeof OPTION_NAMES / sizeof OPTION_NAMES[0]))

static Engine *new_engine(void)
{
    char err[256];
    Engine *e = engine_new(NULL, err, sizeof err);
    if (!e)
        fail_msg("engine_new: %s", err);
    return e;
}

/* The engine binary's `uci` answer, into out. */
static void uci_listing(char *out, size_t len)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "printf 'uci\\nquit\\n' | %s", test_engine_path());
    assert_int_equal(test_run(cmd, out, len), 0);
    assert_non_null(strstr(out, "uciok"));
}

static int count_lines(const char *text, const char *start)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, start)); p++)
        n += p == text || p[-1] == '\n';
    return n;
}

static void test_tunables_options_first(void **state)
{
    (void)state;
    /* the options of the normal build come first, in order, in either build */
    for (int i = 0; i < OPTION_NAMES_NB; i++)
        assert_string_equal(engine_option(i)->name, OPTION_NAMES[i]);
    assert_int_equal(engine_option_count(), OPTION_NAMES_NB + tunables_count());
}

#ifndef CHUHAN_SPSA

static void test_tunables_none_in_normal_build(void **state)
{
    (void)state;
    assert_int_equal(tunables_count(), 0);
    assert_null(tunables_info(0));
    assert_int_equal(tunables_find("RFP_MARGIN"), -1);
    char err[256];
    assert_false(tunables_set("RFP_MARGIN", 85, err, sizeof err));
    assert_non_null(strstr(err, "not an SPSA build"));
    assert_null(engine_find_option("RFP_MARGIN"));
    assert_null(engine_option(OPTION_NAMES_NB));
    Engine *e = new_engine();
    assert_false(engine_set_option(e, "RFP_MARGIN", "90", err, sizeof err));
    assert_string_equal(err, "unknown option 'RFP_MARGIN'");
    engine_free(e);
    /* and the binary's uci lists the same options, the variant's one more */
    char out[16384];
    uci_listing(out, sizeof out);
    assert_int_equal(count_lines(out, "option name "), OPTION_NAMES_NB + 1);
    assert_null(strstr(out, "RFP_MARGIN"));
}

#else

static void test_tunables_listed(void **state)
{
    (void)state;
    int n = tunables_count();
    assert_true(n >= 20 && n <= TUNABLES_MAX);
    for (int i = 0; i < n; i++) {
        const TunableInfo *t = tunables_info(i);
        assert_true(t->min <= t->def && t->def <= t->max && t->step > 0);
        assert_int_equal(tunables_value(i), t->def);
        assert_int_equal(tunables_find(t->name), i);
        const OptionInfo *o = engine_option(OPTION_NAMES_NB + i);
        assert_string_equal(o->name, t->name);
        assert_int_equal(o->type, OPT_SPIN);
        assert_int_equal(o->min, t->min);
        assert_int_equal(o->max, t->max);
        char def[16];
        snprintf(def, sizeof def, "%d", t->def);
        assert_string_equal(o->def, def);
    }
    assert_null(tunables_info(n));
    char out[16384];
    uci_listing(out, sizeof out);
    assert_int_equal(count_lines(out, "option name "), OPTION_NAMES_NB + n + 1);
    assert_non_null(strstr(out, "\noption name RFP_MARGIN type spin default 85 min 40 max 160\n"));
}

static void test_tunables_refused(void **state)
{
    (void)state;
    char err[256], buf[32];
    int i = tunables_find("RFP_MARGIN");
    assert_true(i >= 0);
    const TunableInfo *t = tunables_info(i);
    assert_false(tunables_set("NO_SUCH_TUNABLE", 1, err, sizeof err));
    assert_string_equal(err, "no search tunable 'NO_SUCH_TUNABLE'");
    assert_false(tunables_set("RFP_MARGIN", t->min - 1, err, sizeof err));
    assert_string_equal(err, "RFP_MARGIN must be from 40 to 160, not 39");
    assert_false(tunables_set("RFP_MARGIN", t->max + 1, err, sizeof err));
    assert_int_equal(tunables_value(i), t->def);
    Engine *e = new_engine();
    assert_false(engine_set_option(e, "RFP_MARGIN", "161", err, sizeof err));
    assert_string_equal(err, "RFP_MARGIN must be a whole number from 40 to 160, not '161'");
    assert_false(engine_set_option(e, "RFP_MARGIN", "9O", err, sizeof err));
    assert_false(engine_set_option(e, "RFP_MARGIN", NULL, err, sizeof err));
    assert_string_equal(engine_get_option(e, "rfp_margin", buf, sizeof buf), "85");
    /* names are case-insensitive, as every option's */
    assert_true(engine_set_option(e, "rfp_margin", "160", err, sizeof err));
    assert_string_equal(engine_get_option(e, "RFP_MARGIN", buf, sizeof buf), "160");
    assert_int_equal(tunables_value(i), 160);
    tunables_reset();
    assert_int_equal(tunables_value(i), 85);
    engine_free(e);
}

/* The other front-ends reach the tunables too: xboard lists them as
 * features and sets them by `option`, UCCI by the UCI form of setoption,
 * each refusing a value out of range with the range. */
static void test_tunables_other_protocols(void **state)
{
    (void)state;
    char cmd[1024], out[16384];
    snprintf(cmd, sizeof cmd, "printf 'xboard\\nprotover 2\\noption RFP_MARGIN=161\\nquit\\n' | %s",
             test_engine_path());
    assert_int_equal(test_run(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "feature option=\"RFP_MARGIN -spin 85 40 160\"\n"));
    for (int i = 0; i < tunables_count(); i++) {
        const TunableInfo *t = tunables_info(i);
        char want[128];
        snprintf(want, sizeof want, "feature option=\"%s -spin %d %d %d\"\n", t->name, t->def, t->min, t->max);
        if (!strstr(out, want))
            fail_msg("xboard features without %s", want);
    }
    assert_non_null(strstr(out, "Error (bad value): option RFP_MARGIN=161\n"));
    assert_non_null(strstr(out, "RFP_MARGIN must be a whole number from 40 to 160, not '161'"));
    snprintf(cmd, sizeof cmd,
             "printf 'ucci\\nsetoption name RFP_MARGIN value 161\\n"
             "setoption name RFP_MARGIN value 90\\nquit\\n' | %s",
             test_engine_path());
    assert_int_equal(test_run(cmd, out, sizeof out), 0);
    assert_int_equal(count_lines(out, "info message setoption"), 1);
    assert_non_null(
        strstr(out, "info message setoption RFP_MARGIN: RFP_MARGIN must be a whole number from 40 to 160, not '161'\n"));
}

/* A set changes the search; the defaults give back its node count. */
static void test_tunables_change_search(void **state)
{
    (void)state;
    char err[256];
    Engine *e = new_engine();
    tunables_reset();
    uint64_t base = engine_bench_search(e, 9, NULL);
    static const struct {
        const char *name, *value;
    } sets[] = {{"RFP_MARGIN", "40"}, {"LMR_DIV_X100", "120"}, {"FUTILITY_BASE", "250"}, {"ASPIRATION_DELTA", "5"}};
    for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
        if (!engine_set_option(e, sets[k].name, sets[k].value, err, sizeof err))
            fail_msg("%s: %s", sets[k].name, err);
        uint64_t nodes = engine_bench_search(e, 9, NULL);
        if (nodes == base)
            fail_msg("%s=%s: the same %llu nodes", sets[k].name, sets[k].value, (unsigned long long)nodes);
        tunables_reset();
        assert_int_equal(engine_bench_search(e, 9, NULL), base);
    }
    engine_free(e);
}

#endif

const struct CMUnitTest *tunables_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tunables_options_first),
#ifndef CHUHAN_SPSA
        cmocka_unit_test(test_tunables_none_in_normal_build),
#else
        cmocka_unit_test(test_tunables_listed),
        cmocka_unit_test(test_tunables_refused),
        cmocka_unit_test(test_tunables_change_search),
        cmocka_unit_test(test_tunables_other_protocols),
#endif
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
