/* Test runner: every group runs, and the exit status counts the failures. */
#include <stdio.h>
#include <stdlib.h>

#include "engine/init.h"
#include "tests.h"

const char *test_data_path(const char *name)
{
    static char buf[4][512];
    static int k;
    const char *dir = getenv("CHUHAN_DATA");
    char *out = buf[k++ & 3];
    snprintf(out, sizeof buf[0], "%s/%s", dir && *dir ? dir : "tests/data", name);
    return out;
}

const char *test_engine_path(void)
{
    const char *bin = getenv("CHUHAN_BIN");
    return bin && *bin ? bin : "./chuhan";
}

typedef const struct CMUnitTest *(*TestList)(size_t *count);

int main(int argc, char **argv)
{
    static const TestList lists[] = {bitboard_tests, position_tests, movegen_tests,
                                     rules_tests,    notation_tests, book_tests,
                                     search_tests,   uci_tests,      ucci_tests,
                                     cecp_tests,     match_tests,    tune_tests,
                                     limits_tests,   layers_tests};
    static struct CMUnitTest all[512];
    size_t n = 0;
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        size_t k;
        const struct CMUnitTest *t = lists[i](&k);
        for (size_t j = 0; j < k && n < sizeof all / sizeof all[0]; j++)
            all[n++] = t[j];
    }
    char err[300];
    if (!chuhan_init(err, sizeof err)) {
        fprintf(stderr, "chuhan-tests: %s\n", err);
        return 1;
    }
    if (argc > 1)
        cmocka_set_test_filter(argv[1]); /* e.g. "test_perft*" */
    return _cmocka_run_group_tests("chuhan", all, n, NULL, NULL) ? 1 : 0;
}
