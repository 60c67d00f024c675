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
