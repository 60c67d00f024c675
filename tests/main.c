/* Test runner: every test of every group runs, however many there are,
 * and the exit status says whether any failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

void test_write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
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

/* Is name one of the comma-separated list? */
static bool in_list(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (n == len && !strncmp(p, name, len))
            return true;
        p += n + (p[n] == ',');
    }
    return false;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        TestList list;
    } lists[] = {{"util", util_tests},
                 {"bitboard", bitboard_tests},
                 {"position", position_tests},
                 {"movegen", movegen_tests},
                 {"rules", rules_tests},
                 {"notation", notation_tests},
                 {"book", book_tests},
                 {"movepick", movepick_tests},
                 {"search", search_tests},
                 {"uci", uci_tests},
                 {"ucci", ucci_tests},
                 {"cecp", cecp_tests},
                 {"matchreferee", match_referee_tests},
                 {"match", match_tests},
                 {"texel", texel_tests},
                 {"limits", limits_tests},
                 {"searchlimits", search_limits_tests},
                 {"cli", cli_tests},
                 {"fuzz", fuzz_tests},
                 {"layers", layers_tests},
                 {"cluster", cluster_tests},
                 {"nnue", nnue_tests},
                 {"nnuefile", nnue_file_tests},
                 {"nnuetrain", nnue_train_tests},
                 {"datagen", datagen_tests},
                 {"analyze", analyze_tests},
                 {"skill", skill_tests},
                 {"tunables", tunables_tests},
                 {"spsa", spsa_tests},
                 {"inputs", inputs_tests},
                 {"outputs", outputs_tests}};
    /* chuhan-tests [--groups=uci,ucci,...] [FILTER]: those groups only
     * (make test-mpi runs the protocol groups against mpirun), the tests
     * whose names match FILTER (e.g. "test_perft*"). */
    const char *groups = NULL, *filter = NULL;
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], "--groups=", 9))
            groups = argv[i] + 9;
        else
            filter = argv[i];
    char err[300];
    if (!chuhan_init(err, sizeof err)) {
        fprintf(stderr, "chuhan-tests: %s\n", err);
        return 1;
    }
    size_t n = 0, count[sizeof lists / sizeof lists[0]];
    const struct CMUnitTest *group[sizeof lists / sizeof lists[0]];
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        group[i] = lists[i].list(&count[i]);
        if (groups && !in_list(groups, lists[i].name))
            count[i] = 0;
        n += count[i];
    }
    struct CMUnitTest *all = malloc((n ? n : 1) * sizeof *all);
    if (!all) {
        fprintf(stderr, "chuhan-tests: out of memory\n");
        return 1;
    }
    n = 0;
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        for (size_t j = 0; j < count[i]; j++)
            all[n++] = group[i][j];
    if (filter)
        cmocka_set_test_filter(filter);
    int failed = _cmocka_run_group_tests("chuhan", all, n, NULL, NULL);
    free(all);
    return failed ? 1 : 0;
}
