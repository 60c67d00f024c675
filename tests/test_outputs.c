/* What the tools write, through the real binary: a path that cannot be
 * written is refused before any work (a missing folder, a file where a
 * folder must be, a directory or a device where a file must be); a write
 * that fails (a full disk) ends the tool with a non-zero status and the
 * reason, on standard output as in a file; and a file being replaced is
 * replaced whole or left as it was, never half written, even by a tool
 * interrupted while it writes. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pipe.h"
#include "tests.h"

#define FULL_DISK "No space left on device"
/* the file size limit (ulimit -f 0) fails every write to a file with
 * EFBIG, as a full disk would, without a disk to fill; SIGXFSZ ignored so
 * that the tool sees the error rather than being killed */
#define NO_ROOM "sh -c \"trap '' XFSZ; ulimit -f 0; exec %s\""
#define TOO_LARGE "File too large"

static char dir[] = "/tmp/chuhan-outputs-XXXXXX";

/* the folder of the first test that runs (any may run alone) */
static int setup(void **state)
{
    (void)state;
    return !strstr(dir, "XXXXXX") || mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *in_dir(const char *name)
{
    static char buf[4][256];
    static int k;
    char *out = buf[k++ & 3];
    snprintf(out, sizeof buf[0], "%s/%s", dir, name);
    return out;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* path holds text and nothing else */
static void assert_holds(const char *path, const char *text)
{
    char buf[256] = {0};
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    if (strcmp(buf, text))
        fail_msg("%s holds '%.200s', not '%s'", path, buf, text);
}

/* The files in folder path. */
static int count_files(const char *path)
{
    DIR *d = opendir(path);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

/* Run the tool's arguments (fmt: the engine's path first), which must
 * fail with want in what it says (stderr and stdout) and without what
 * only its work prints (work, or NULL). */
static void expect_failure(const char *cmd, const char *want, const char *work)
{
    static char out[16384];
    int status = test_run(cmd, out, sizeof out);
    if (status == 0 || !strstr(out, want) || (work && strstr(out, work)))
        fail_msg("'%s': exit %d, want '%s'%s%s:\n%.3000s", cmd, status, want, work ? " and no " : "",
                 work ? work : "", out);
}

/* ---- refused before any work ---- */

static void test_refused_before_work(void **state)
{
    (void)state;
    const char *bin = test_engine_path(), *games = test_data_path("ccpd-master-games.pgn.zst");
    const char *blunder = test_data_path("analyze-blunder.pgn");
    char cmd[2048];
    write_text(in_dir("file"), "keep\n");
    /* train: the net's folder missing, told before an epoch is trained */
    snprintf(cmd, sizeof cmd, "%s train --data %s --epochs 1 --out %s", bin, games, in_dir("none/net.nnue"));
    expect_failure(cmd, "folder " "/tmp/chuhan-outputs-", "epoch");
    expect_failure(cmd, "No such file or directory", NULL);
    /* analyze --graph: a regular file is no folder to write graphs into */
    snprintf(cmd, sizeof cmd, "%s analyze --depth 1 --graph %s %s", bin, in_dir("file"), blunder);
    expect_failure(cmd, "not a folder", "positions in");
    assert_holds(in_dir("file"), "keep\n");
    /* analyze --output in a missing folder */
    snprintf(cmd, sizeof cmd, "%s analyze --depth 1 --output %s %s", bin, in_dir("none/out.pgn"), blunder);
    expect_failure(cmd, "No such file or directory", "positions in");
    /* wdl --svg: a directory, a device, a missing folder, a file as the folder */
    const char *svgs[] = {dir, "/dev/null", in_dir("none/wdl.svg"), in_dir("file/wdl.svg")};
    const char *why[] = {"is a directory", "is a character device", "No such file or directory", "Not a directory"};
    for (int i = 0; i < 4; i++) {
        snprintf(cmd, sizeof cmd, "%s wdl --games 20 --nodes 100 --svg %s %s", bin, svgs[i], games);
        expect_failure(cmd, why[i], "positions scored");
    }
    struct stat st;
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(stat(in_dir("none"), &st), -1);
    assert_holds(in_dir("file"), "keep\n");
}

/* ---- standard output on a full disk ---- */

static void test_stdout_full_disk(void **state)
{
    (void)state;
    const char *games = test_data_path("ccpd-master-games.pgn.zst");
    char args[6][512], cmd[4096];
    snprintf(args[0], sizeof args[0], "perft 3");
    snprintf(args[1], sizeof args[1], "book probe startpos");
    snprintf(args[2], sizeof args[2], "judge startpos moves h2e2 h9g7");
    snprintf(args[3], sizeof args[3], "pgn convert --to iccs %s", test_data_path("cutechess-xiangqi.pgn"));
    snprintf(args[4], sizeof args[4], "analyze --depth 1 %s", test_data_path("analyze-blunder.pgn"));
    snprintf(args[5], sizeof args[5], "wdl --games 20 --nodes 100 %s", games);
    static const char *const tools[] = {"perft", "book", "judge", "pgn", "analyze", "wdl"};
    for (int i = 0; i < 6; i++) {
        /* stdout to the full device, stderr to the test */
        snprintf(cmd, sizeof cmd, "{ %s %s > /dev/full; }", test_engine_path(), args[i]);
        char want[128];
        snprintf(want, sizeof want, "%s: cannot write standard output: " FULL_DISK, tools[i]);
        expect_failure(cmd, want, NULL);
    }
}

/* ---- files on a full disk: an error, and the old file kept whole ---- */

static void test_files_full_disk(void **state)
{
    (void)state;
    const char *bin = test_engine_path(), *blunder = test_data_path("analyze-blunder.pgn");
    char tool[2048], cmd[2560];
    assert_int_equal(mkdir(in_dir("full"), 0700), 0);
    write_text(in_dir("full/out.pgn"), "old\n");
    write_text(in_dir("full/wdl.svg"), "old\n");
    assert_int_equal(mkdir(in_dir("full/graphs"), 0700), 0);
    write_text(in_dir("full/graphs/game-1.svg"), "old\n");
    /* analyze --output: the records are lost, the old file kept */
    snprintf(tool, sizeof tool, "%s analyze --depth 1 --output %s %s", bin, in_dir("full/out.pgn"), blunder);
    snprintf(cmd, sizeof cmd, NO_ROOM, tool);
    expect_failure(cmd, "analyze: cannot write /tmp/chuhan-outputs-", NULL);
    expect_failure(cmd, TOO_LARGE, NULL);
    assert_holds(in_dir("full/out.pgn"), "old\n");
    /* analyze --graph: the game's graph kept */
    snprintf(tool, sizeof tool, "%s analyze --depth 1 --graph %s %s", bin, in_dir("full/graphs"), blunder);
    snprintf(cmd, sizeof cmd, NO_ROOM, tool);
    expect_failure(cmd, "game-1.svg: " TOO_LARGE, NULL);
    assert_holds(in_dir("full/graphs/game-1.svg"), "old\n");
    /* wdl --svg: the old curve kept (a 4 kB stub of the new one once) */
    snprintf(tool, sizeof tool, "%s wdl --games 20 --nodes 100 --svg %s %s", bin, in_dir("full/wdl.svg"),
             test_data_path("ccpd-master-games.pgn.zst"));
    snprintf(cmd, sizeof cmd, NO_ROOM, tool);
    expect_failure(cmd, "wdl: cannot write /tmp/chuhan-outputs-", NULL);
    expect_failure(cmd, TOO_LARGE, NULL);
    assert_holds(in_dir("full/wdl.svg"), "old\n");
    /* match --pgn: written as the games end, so in place; the error told,
     * and the match stopped at the first game it could not record */
    snprintf(tool, sizeof tool, "%s match --engine cmd=%s --engine cmd=%s --each depth=1 --games 6 --pgn %s", bin, bin,
             bin, in_dir("full/match.pgn"));
    snprintf(cmd, sizeof cmd, NO_ROOM, tool);
    expect_failure(cmd, "match: cannot write /tmp/chuhan-outputs-", "[6/6]");
    expect_failure(cmd, TOO_LARGE, NULL);
    /* no temporary file left beside them */
    assert_int_equal(count_files(in_dir("full")), 4);
    assert_int_equal(count_files(in_dir("full/graphs")), 1);
    /* and with room, each replaced whole */
    snprintf(cmd, sizeof cmd, "%s analyze --depth 1 --output %s --graph %s %s", bin, in_dir("full/out.pgn"),
             in_dir("full/graphs"), blunder);
    char out[8192];
    if (test_run(cmd, out, sizeof out) != 0)
        fail_msg("'%s':\n%.2000s", cmd, out);
    struct stat st;
    assert_int_equal(stat(in_dir("full/out.pgn"), &st), 0);
    assert_true(st.st_size > 100);
    assert_int_equal(stat(in_dir("full/graphs/game-1.svg"), &st), 0);
    assert_true(st.st_size > 1000);
    assert_int_equal(count_files(in_dir("full")), 4);
}

/* ---- interrupted: the old file kept, no temporary file left ---- */

/* analyze --output, sent sig (Ctrl-C, kill) while it searches, its output
 * begun: the folder holds what it held, and nothing more. */
static void interrupt_analyze(int sig)
{
    const char *bin = test_engine_path(), *out = in_dir("stop/out.pgn"), *log = in_dir("stop.log");
    const char *blunder = test_data_path("analyze-blunder.pgn");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* the signals as a terminal gives them (a test runner may ignore them) */
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600), null = open("/dev/null", O_WRONLY);
        if (fd < 0 || null < 0 || dup2(fd, 2) < 0 || dup2(null, 1) < 0)
            _exit(127);
        execl(bin, bin, "analyze", "--time", "60000", "--output", out, blunder, (char *)NULL);
        _exit(127);
    }
    /* its progress line: the search has begun, and the output before it */
    char text[4096] = "";
    bool searching = false;
    for (int i = 0; i < 200 * ep_slow() && !searching; i++) {
        usleep(50000);
        FILE *f = fopen(log, "r");
        if (f) {
            size_t n = fread(text, 1, sizeof text - 1, f);
            text[n] = 0;
            fclose(f);
        }
        searching = strstr(text, "positions") != NULL;
    }
    kill(pid, sig);
    int status = 0;
    bool ended = false;
    for (int i = 0; i < 200 * ep_slow() && !ended; i++) {
        ended = waitpid(pid, &status, WNOHANG) == pid;
        if (!ended)
            usleep(50000);
    }
    if (!ended) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        fail_msg("analyze did not end on signal %d", sig);
    }
    if (!searching)
        fail_msg("analyze did not begin its search: '%.500s'", text);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != sig)
        fail_msg("analyze ended with status %d, not by signal %d", status, sig);
    DIR *d = opendir(in_dir("stop"));
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "out.pgn"))
            fail_msg("signal %d left %s beside the output", sig, e->d_name);
    closedir(d);
    assert_holds(out, "old\n");
}

static void test_interrupted_leaves_no_temporary(void **state)
{
    (void)state;
    assert_int_equal(mkdir(in_dir("stop"), 0700), 0);
    write_text(in_dir("stop/out.pgn"), "old\n");
    interrupt_analyze(SIGINT);
    interrupt_analyze(SIGTERM);
}

const struct CMUnitTest *outputs_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_refused_before_work, setup, NULL),
        cmocka_unit_test(test_stdout_full_disk),
        cmocka_unit_test_setup_teardown(test_files_full_disk, setup, NULL),
        cmocka_unit_test_setup_teardown(test_interrupted_leaves_no_temporary, setup, teardown),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
