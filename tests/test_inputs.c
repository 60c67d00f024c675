/* What a GUI or a user hands the engine, through the real binary: positions
 * from the rule books (pawns where no game brings them) accepted with a
 * note in every protocol and in the judge, while boards that break the
 * pieces' own moves stay refused; input files that are not regular files
 * (a FIFO with no writer, /dev/stdin, a directory) refused at once with a
 * reason, and every reason for a bad net or bad data readable text. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "eval/nnue/nnue.h"
#include "bench/tools/nnue_data.h"

#include "limits_util.h"
#include "pipe.h"
#include "tests.h"

static EngineProc ep;

/* ---- positions from the rule books ---- */

/* The WXF rule book's diagram 71: a black pawn on i7, behind its starting
 * rank; red's king chases the d-file pawn and loses by the rules. */
#define DIAGRAM_71 "3a2b1r/4ak3/8p/7P1/9/9/9/B2NN3B/3K5/4p4 w"
#define DIAGRAM_71_MOVES "d1e1 e0d0 e1d1 d0e0 d1e1 e0d0 e1d1"
#define PAWN_NOTE "black pawn on i7 stands behind its starting rank"
/* An unreachable pawn (c0) with the kings facing: refused all the same. */
#define FACING_FEN "4k4/9/9/9/9/9/9/9/9/2P1K4 w"

/* UCI and UCCI alike: the position with a note (prefix: the protocol's
 * message lines), searched from; a bad board refused, the last position
 * kept. */
static void position_with_note(const char *prefix)
{
    char want[128];
    snprintf(want, sizeof want, "%s " PAWN_NOTE, prefix);
    ep_send(&ep, "position fen " DIAGRAM_71 " moves d1e1");
    limits_sync_uci(&ep);
    if (!log_has_line(ep.log, want))
        fail_msg("no '%s':\n%.2000s", want, ep.log);
    ep_send(&ep, "go depth 4");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", LIMITS_WAIT_MS), "bestmove", DIAGRAM_71, "d1e1", NULL);
    ep_send(&ep, "position fen " FACING_FEN);
    limits_sync_uci(&ep);
    snprintf(want, sizeof want, "%s ", prefix);
    if (!log_has_line(ep.log, want) || !strstr(ep.log, "the kings face each other"))
        fail_msg("facing kings not refused:\n%.2000s", ep.log);
    ep_send(&ep, "go depth 3");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", LIMITS_WAIT_MS), "bestmove", DIAGRAM_71, "d1e1", NULL);
}

static void test_rulebook_position_uci(void **state)
{
    (void)state;
    position_with_note("info string");
}

static void test_rulebook_position_ucci(void **state)
{
    (void)state;
    position_with_note("info message");
}

static void test_rulebook_position_xboard(void **state)
{
    (void)state;
    ep_send(&ep, "force");
    ep_send(&ep, "setboard " DIAGRAM_71);
    limits_sync_xboard(&ep, 1);
    if (log_has_line(ep.log, "tellusererror") || !log_has_line(ep.log, "# " PAWN_NOTE))
        fail_msg("setboard of diagram 71:\n%.2000s", ep.log);
    ep_send(&ep, "sd 3");
    ep_send(&ep, "go");
    ep_assert_legal_reply(ep_want(&ep, "move ", LIMITS_WAIT_MS), "move", DIAGRAM_71, NULL, NULL);
    ep_send(&ep, "force");
    ep_send(&ep, "setboard " FACING_FEN);
    ep_want(&ep, "tellusererror Illegal position", LIMITS_WAIT_MS);
}

/* The judge rules on the diagram as the book does; the note goes to
 * standard error, the verdict's two lines stay as they were. */
static void test_rulebook_position_judge(void **state)
{
    (void)state;
    char cmd[512], out[2048];
    snprintf(cmd, sizeof cmd, "{ %s judge --rule axf '" DIAGRAM_71 "' " DIAGRAM_71_MOVES " 2>/dev/null; }",
             test_engine_path());
    assert_int_equal(test_run(cmd, out, sizeof out), 0);
    if (strncmp(out, "result: win\nreason: ", 20) || strchr(strchr(out + 20, '\n') + 1, '\n'))
        fail_msg("judge of diagram 71: '%s'", out);
    snprintf(cmd, sizeof cmd, "{ %s judge --rule axf '" DIAGRAM_71 "' " DIAGRAM_71_MOVES " 2>&1 >/dev/null; }",
             test_engine_path());
    assert_int_equal(test_run(cmd, out, sizeof out), 0);
    if (strncmp(out, "judge: note: " PAWN_NOTE, strlen("judge: note: " PAWN_NOTE)))
        fail_msg("judge's note: '%s'", out);
    snprintf(cmd, sizeof cmd, "%s judge '" FACING_FEN "'", test_engine_path());
    assert_int_equal(test_run(cmd, out, sizeof out), 1);
    if (!strstr(out, "the kings face each other"))
        fail_msg("judge of facing kings: '%s'", out);
}

/* ---- inputs that are not regular files ---- */

static void remove_inputs(const char *dir)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A scratch folder with a FIFO (no writer), a directory, an empty file and
 * a net that is one whole zstd frame of nothing; its path into dir. */
static void make_inputs(char *dir, size_t len)
{
    snprintf(dir, len, "/tmp/chuhan-inputs-%ld", (long)getpid());
    char path[300];
    remove_inputs(dir); /* left by a test that failed */
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(path, sizeof path, "%s/fifo", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    snprintf(path, sizeof path, "%s/dir", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/empty", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fclose(f);
    unsigned char frame[64];
    size_t n = ZSTD_compress(frame, sizeof frame, "", 0, 3);
    assert_false(ZSTD_isError(n));
    snprintf(path, sizeof path, "%s/nothing.nnue", dir);
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(frame, 1, n, f), n);
    fclose(f);
}

/* Text a user can read: printable ASCII and line ends, some of it. */
static void assert_text(const char *what, const char *s)
{
    size_t letters = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (!(isprint(*p) || *p == '\n'))
            fail_msg("%s: byte 0x%02x in '%s'", what, *p, s);
        letters += isalpha(*p) != 0;
    }
    if (letters < 10)
        fail_msg("%s: no reason in '%s'", what, s);
}

/* The library's own readers: every failure says why, in text. */
static void test_input_reasons(void **state)
{
    (void)state;
    char dir[256], path[300], err[512];
    make_inputs(dir, sizeof dir);
    static const struct {
        const char *name, *reason;
    } nets[] = {
        {"fifo", "not a regular file but a FIFO"},
        {"dir", "not a regular file but a directory"},
        {"empty", "the file is empty"},
        {"nothing.nnue", "the compressed data holds nothing"},
        {"missing", "cannot open"},
    };
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, nets[i].name);
        memset(err, 0xA5, sizeof err);
        err[sizeof err - 1] = 0;
        NnueNet *net = nnue_load_file(path, err, sizeof err);
        assert_null(net);
        assert_text(path, err);
        if (!strstr(err, nets[i].reason))
            fail_msg("net %s: '%s', expected '%s'", path, err, nets[i].reason);
    }
    static const struct {
        const char *name, *reason;
        bool missing_ok;
    } data[] = {
        {"fifo", "not a regular file but a FIFO", false},
        {"fifo", "not a regular file but a FIFO", true},
        {"dir", "not a regular file but a directory", false},
        {"dir", "not a regular file but a directory", true},
        {"empty", "holds no training data (an empty file)", false},
        {"nothing.nnue", "holds no training data", false},
        {"missing", "cannot open", false},
    };
    for (size_t i = 0; i < sizeof data / sizeof data[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, data[i].name);
        memset(err, 0xA5, sizeof err);
        err[sizeof err - 1] = 0;
        size_t n = 1, good = 1;
        NnueRecord *r = nnue_data_read(path, data[i].missing_ok, &n, &good, err, sizeof err);
        assert_null(r);
        assert_int_equal(n, 0);
        assert_text(path, err);
        if (!strstr(err, data[i].reason))
            fail_msg("data %s: '%s', expected '%s'", path, err, data[i].reason);
    }
    /* allowed to be missing or empty (datagen resuming): no reason, no error */
    static const char *const nothing_yet[] = {"missing", "empty"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, nothing_yet[i]);
        memset(err, 0xA5, sizeof err);
        size_t n, good;
        assert_null(nnue_data_read(path, true, &n, &good, err, sizeof err));
        assert_string_equal(err, "");
    }
    remove_inputs(dir);
}

/* The command line: refused at once (under a timeout that a FIFO read
 * would reach), status 1, the reason on standard error in text; a bench
 * with a bad net prints nothing on standard output and runs nothing. */
static void test_input_commands(void **state)
{
    (void)state;
    char dir[256], cmd[1024], out[4096];
    make_inputs(dir, sizeof dir);
    static const struct {
        const char *args, *reason;
    } cases[] = {
        {"eval --net %s/fifo", "not a regular file but a FIFO"},
        {"eval --net /dev/stdin", "not a regular file"},
        {"eval --net %s/nothing.nnue", "the compressed data holds nothing"},
        {"bench --evalfile %s/fifo", "not a regular file but a FIFO"},
        {"bench --evalfile %s/empty", "the file is empty"},
        {"bench --evalfile %s/nothing.nnue", "the compressed data holds nothing"},
        {"train --data %s/fifo --out %s/out.nnue", "not a regular file but a FIFO"},
        {"train --data /dev/stdin --out %s/out.nnue", "not a regular file"},
        {"train --data %s/dir --out %s/out.nnue", "not a regular file but a directory"},
        {"train --data %s/empty --out %s/out.nnue", "holds no training data (an empty file)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char args[512];
        if (!strncmp(cases[i].args + strcspn(cases[i].args, " ") + 1, "--data /dev/stdin", 17))
            snprintf(args, sizeof args, cases[i].args, dir);
        else
            snprintf(args, sizeof args, cases[i].args, dir, dir);
        /* standard input a pipe whose writer stays (and is not waited
         * for): /dev/stdin is a FIFO that a read would block on */
        snprintf(cmd, sizeof cmd, "{ (sleep 30 >/dev/null 2>&1 &) | timeout -s KILL 20 %s %s 2>/dev/null; }",
                 test_engine_path(), args);
        long t0 = now_ms();
        int status = test_run(cmd, out, sizeof out);
        if (status != 1 || now_ms() - t0 > 10000L * ep_slow())
            fail_msg("'%s': status %d after %ld ms", args, status, now_ms() - t0);
        if (!strncmp(args, "bench", 5) && out[0])
            fail_msg("'%s' printed on standard output: '%.300s'", args, out);
        snprintf(cmd, sizeof cmd, "{ (sleep 30 >/dev/null 2>&1 &) | timeout -s KILL 20 %s %s 2>&1 >/dev/null; }",
                 test_engine_path(), args);
        test_run(cmd, out, sizeof out);
        assert_text(args, out);
        if (!strstr(out, cases[i].reason))
            fail_msg("'%s': '%s', expected '%s'", args, out, cases[i].reason);
        if (!strncmp(args, "bench", 5) && strstr(out, "keeping"))
            fail_msg("'%s' says it keeps an evaluation: '%s'", args, out);
    }
    remove_inputs(dir);
}

/* EvalFile in each protocol: a FIFO or /dev/stdin refused at once with the
 * reason, and the engine goes on reading the GUI's commands. */
static void eval_file_refused(const char *set_fifo, const char *set_stdin, const char *sync, const char *answer)
{
    char dir[256], line[512];
    make_inputs(dir, sizeof dir);
    snprintf(line, sizeof line, set_fifo, dir);
    ep_send(&ep, "%s", line);
    ep_send(&ep, "%s", set_stdin);
    ep_send(&ep, "%s", sync);
    ep_want(&ep, answer, 10000 * ep_slow());
    if (!strstr(ep.log, "not a regular file but a FIFO") || !strstr(ep.log, "/dev/stdin: not a regular file"))
        fail_msg("EvalFile not refused:\n%.2000s", ep.log);
    remove_inputs(dir);
}

static void test_eval_file_fifo_uci(void **state)
{
    (void)state;
    eval_file_refused("setoption name EvalFile value %s/fifo", "setoption name EvalFile value /dev/stdin",
                      "isready", "readyok");
    ep_send(&ep, "go depth 2");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", LIMITS_WAIT_MS), "bestmove", NULL, NULL, NULL);
}

static void test_eval_file_fifo_ucci(void **state)
{
    (void)state;
    eval_file_refused("setoption evalfile %s/fifo", "setoption evalfile /dev/stdin", "isready", "readyok");
    ep_send(&ep, "go depth 2");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", LIMITS_WAIT_MS), "bestmove", NULL, NULL, NULL);
}

static void test_eval_file_fifo_xboard(void **state)
{
    (void)state;
    eval_file_refused("option EvalFile=%s/fifo", "option EvalFile=/dev/stdin", "ping 7", "pong 7");
    assert_non_null(strstr(ep.log, "Error (bad value)"));
}

#define PROTO_TEST(f, setup) cmocka_unit_test_prestate_setup_teardown(f, setup, limits_teardown, &ep)

const struct CMUnitTest *inputs_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        PROTO_TEST(test_rulebook_position_uci, limits_setup_uci),
        PROTO_TEST(test_rulebook_position_ucci, limits_setup_ucci),
        PROTO_TEST(test_rulebook_position_xboard, limits_setup_xboard),
        cmocka_unit_test(test_rulebook_position_judge),
        cmocka_unit_test(test_input_reasons),
        cmocka_unit_test(test_input_commands),
        PROTO_TEST(test_eval_file_fifo_uci, limits_setup_uci),
        PROTO_TEST(test_eval_file_fifo_ucci, limits_setup_ucci),
        PROTO_TEST(test_eval_file_fifo_xboard, limits_setup_xboard),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
