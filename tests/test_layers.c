/* make check-layers (tests/check-layers.sh): the tree keeps its layers,
 * and an include that climbs is caught, named with its file and line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests.h"

/* Run the script on root: its exit status, its output into out. */
static int check_layers(const char *root, char *out, size_t len)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "sh '%s' '%s'", test_data_path("../check-layers.sh"), root);
    return test_run(cmd, out, len);
}

static void put_file(const char *root, const char *path, const char *text)
{
    char full[600], dir[600];
    snprintf(full, sizeof full, "%s/%s", root, path);
    snprintf(dir, sizeof dir, "%s", full);
    for (char *s = strchr(dir + strlen(root) + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = 0;
        mkdir(dir, 0700);
        *s = '/';
    }
    FILE *f = fopen(full, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_layers(void **state)
{
    (void)state;
    char out[4096];
    /* the tree itself */
    if (check_layers(".", out, sizeof out) != 0)
        fail_msg("check-layers fails on the tree:\n%s", out);

    /* a tree whose board includes the search, and whose engine API reaches
     * into the search's private header */
    char root[] = "/tmp/chuhan-layers-XXXXXX";
    assert_non_null(mkdtemp(root));
    put_file(root, "engine/board/position.c", "#include \"position.h\"\n#include \"engine/util/error.h\"\n");
    put_file(root, "engine/board/movegen.c", "#include \"movegen.h\"\n\n#include \"search/search.h\"\n");
    put_file(root, "engine/engine.c", "#include \"engine.h\"\n#include \"search/search_private.h\"\n");
    put_file(root, "search/search.c", "#include \"search_private.h\"\n#include \"eval/eval.h\"\n");
    assert_int_equal(check_layers(root, out, sizeof out), 1);
    assert_non_null(strstr(out, "engine/board/movegen.c:3: includes \"search/search.h\""));
    assert_non_null(strstr(out, "engine/engine.c:2: includes \"search/search_private.h\": private to search/"));
    /* what goes down, and a folder's own private header, pass */
    assert_null(strstr(out, "position.c"));
    assert_null(strstr(out, "search/search.c"));

    /* the folders inside folders are layers of their own: the net below
     * the evaluation, the cluster below the engine API, the tools above
     * the benchmarks, the command line above them all; folders side by
     * side (the records and the net) include neither the other */
    put_file(root, "eval/nnue/nnue.c", "#include \"nnue.h\"\n#include \"eval/eval.h\"\n");
    put_file(root, "eval/eval.c", "#include \"eval/nnue/nnue.h\"\n#include \"engine/records/pgn.h\"\n");
    put_file(root, "engine/cluster/cluster.c", "#include \"search/threads.h\"\n#include \"engine/engine.h\"\n");
    put_file(root, "engine/engine_rank.c", "#include \"engine/cluster/cluster.h\"\n");
    put_file(root, "bench/bench.c", "#include \"engine/engine.h\"\n#include \"bench/tools/match.h\"\n");
    put_file(root, "bench/tools/match.c", "#include \"bench/bench.h\"\n#include \"engine/cli/cli.h\"\n");
    put_file(root, "engine/cli/main.c", "#include \"bench/tools/match.h\"\n#include \"engine/cluster/comm.h\"\n");
    put_file(root, "engine/nowhere/x.c", "#include \"engine/util/error.h\"\n");
    assert_int_equal(check_layers(root, out, sizeof out), 1);
    static const char *const climbs[] = {
        "eval/nnue/nnue.c:2: includes \"eval/eval.h\": eval/ is not below eval/nnue/",
        "eval/eval.c:2: includes \"engine/records/pgn.h\": engine/records/ is not below eval/",
        "engine/cluster/cluster.c:2: includes \"engine/engine.h\": engine/ is not below engine/cluster/",
        "bench/bench.c:2: includes \"bench/tools/match.h\": bench/tools/ is not below bench/",
        "bench/tools/match.c:2: includes \"engine/cli/cli.h\": engine/cli/ is not below bench/tools/",
        "engine/nowhere/x.c:1: includes \"engine/util/error.h\": engine/nowhere/ is in no layer",
    };
    for (size_t i = 0; i < sizeof climbs / sizeof climbs[0]; i++)
        if (!strstr(out, climbs[i]))
            fail_msg("check-layers does not say '%s':\n%s", climbs[i], out);
    assert_null(strstr(out, "eval/eval.c:1"));
    assert_null(strstr(out, "engine/cluster/cluster.c:1"));
    assert_null(strstr(out, "engine/engine_rank.c"));
    assert_null(strstr(out, "bench/bench.c:1"));
    assert_null(strstr(out, "bench/tools/match.c:1"));
    assert_null(strstr(out, "engine/cli/main.c"));

    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

const struct CMUnitTest *layers_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layers),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
