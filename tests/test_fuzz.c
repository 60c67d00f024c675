/* The fuzz targets' seed and regression inputs (tests/fuzz) replayed
 * through the same target functions as the libFuzzer binaries, each in a
 * child process of its own, so that the test suite (and its sanitizer
 * builds) checks every input ever kept. */
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/util/clock.h"
#include "fuzz/fuzz.h"
#include "tests.h"

/* Generous: the sanitizer builds run several times slower. */
#define WAIT_MS 30000

/* A seed of the uci target that sets the Debug Log File option to this
 * relative name: the file must appear in the scratch folder, and only there. */
#define LOG_SEED "debug-log-file"
#define LOG_NAME "fuzz-debug-log.txt"

/* Run one input in a child process, so that a crash or a hang (a protocol
 * input that never ends) fails the test with its name instead of taking
 * the whole suite down, in the folder scratch (an input may name a file to
 * write): NULL if all is well, else why not. */
static const char *run_isolated(FuzzFn fn, const uint8_t *data, size_t size, const char *scratch, char *why,
                                size_t whylen)
{
    int fds[2];
    if (pipe(fds))
        return "pipe failed";
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return "fork failed";
    if (pid == 0) {
        close(fds[0]);
        const char *bad = chdir(scratch) ? "chdir to the scratch folder failed" : fn(data, size);
        if (bad && write(fds[1], bad, strlen(bad)) < 0)
            _exit(3);
        _exit(bad ? 1 : 0);
    }
    close(fds[1]);
    int status = 0;
    long deadline = now_ms() + WAIT_MS;
    pid_t r;
    while ((r = waitpid(pid, &status, WNOHANG)) == 0 && now_ms() < deadline)
        usleep(2000);
    if (r == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        close(fds[0]);
        snprintf(why, whylen, "no end after %d ms (a hang)", WAIT_MS);
        return why;
    }
    ssize_t n = read(fds[0], why, whylen - 1);
    close(fds[0]);
    why[n > 0 ? n : 0] = 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return NULL;
    if (WIFSIGNALED(status))
        snprintf(why, whylen, "killed by signal %d", WTERMSIG(status));
    else if (!why[0])
        snprintf(why, whylen, "exit status %d", WEXITSTATUS(status));
    return why;
}

/* Remove the folder dir and the files in it (the inputs make no
 * subfolders): the number of entries that could not be removed. */
static int remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 1;
    int left = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        left += unlink(path) != 0;
    }
    closedir(d);
    return left + (rmdir(dir) != 0);
}

static void test_fuzz_inputs(void **state)
{
    (void)state;
    const char *root = getenv("CHUHAN_FUZZ");
    if (!root || !*root)
        root = "tests/fuzz";
    fuzz_init();
    char scratch[] = "/tmp/chuhan-fuzz-test-XXXXXX";
    assert_non_null(mkdtemp(scratch));
    int files = 0, failures = 0, log_seeds = 0;
    for (const FuzzTarget *t = FUZZ_TARGETS; t->name; t++)
        for (int kind = 0; kind < 2; kind++) {
            char dir[512];
            snprintf(dir, sizeof dir, "%s/%s/%s", root, kind ? "regress" : "corpus", t->name);
            DIR *d = opendir(dir);
            if (!d) {
                if (!kind)
                    fail_msg("no seed corpus %s", dir);
                continue;
            }
            struct dirent *de;
            while ((de = readdir(d))) {
                char path[1024], why[512];
                snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
                struct stat st;
                if (de->d_name[0] == '.' || stat(path, &st) || !S_ISREG(st.st_mode))
                    continue;
                FILE *f = fopen(path, "rb");
                assert_non_null(f);
                uint8_t *data = malloc((size_t)st.st_size + 1);
                assert_non_null(data);
                size_t n = fread(data, 1, (size_t)st.st_size, f);
                fclose(f);
                const char *bad = run_isolated(t->fn, data, n, scratch, why, sizeof why);
                log_seeds += !kind && !strcmp(t->name, "uci") && !strcmp(de->d_name, LOG_SEED);
                free(data);
                if (bad) {
                    print_message("fuzz-%s %s: %s\n", t->name, path, bad);
                    failures++;
                }
                files++;
            }
            closedir(d);
        }
    /* what the inputs wrote stayed in the scratch folder, which goes */
    char log[sizeof scratch + sizeof LOG_NAME + 1];
    snprintf(log, sizeof log, "%s/%s", scratch, LOG_NAME);
    struct stat st;
    bool logged = stat(log, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
    bool leaked = stat(LOG_NAME, &st) == 0;
    int left = remove_tree(scratch);
    if (failures)
        fail_msg("%d of %d fuzz inputs fail (listed above)", failures, files);
    assert_true(files >= 30);
    assert_int_equal(log_seeds, 1);
    assert_true(logged);
    assert_false(leaked);
    assert_int_equal(left, 0);
}

const struct CMUnitTest *fuzz_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fuzz_inputs),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
