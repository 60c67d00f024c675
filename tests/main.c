/* Test runner: every test of every group runs, however many there are,
 * and the exit status says whether any failed. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

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

int test_run(const char *cmd, char *out, size_t len)
{
    char full[2048];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    FILE *p = popen(full, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = 0;
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

typedef const struct CMUnitTest *(*TestList)(size_t *count);

int main(int argc, char **argv)
{
    static const TestList lists[] = {util_tests,   bitboard_tests, position_tests, movegen_tests, rules_tests,
                                     notation_tests, book_tests,  search_tests,   uci_tests,     ucci_tests,
                                     cecp_tests,   match_tests,  tune_tests,     limits_tests,  fuzz_tests,
                                     layers_tests};
    char err[300];
    if (!chuhan_init(err, sizeof err)) {
        fprintf(stderr, "chuhan-tests: %s\n", err);
        return 1;
    }
    size_t n = 0, count[sizeof lists / sizeof lists[0]];
    const struct CMUnitTest *group[sizeof lists / sizeof lists[0]];
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        group[i] = lists[i](&count[i]);
        n += count[i];
    }
    struct CMUnitTest *all = malloc(n * sizeof *all);
    if (!all) {
        fprintf(stderr, "chuhan-tests: out of memory\n");
        return 1;
    }
    n = 0;
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        for (size_t j = 0; j < count[i]; j++)
            all[n++] = group[i][j];
    if (argc > 1)
        cmocka_set_test_filter(argv[1]); /* e.g. "test_perft*" */
    int failed = _cmocka_run_group_tests("chuhan", all, n, NULL, NULL);
    free(all);
    return failed ? 1 : 0;
}
