/* chuhan analyze, run as a user runs it: the NAG on a known blunder, the
 * notation of the input kept (Chinese from a Big5 record), annotated PGN
 * that the PGN reader reads back move for move, and SVG graphs that
 * render (rsvg-convert) to the picture's size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/records/pgn.h"
#include "search/score.h"
#include "tests.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot read %s", path);
    static char buf[1 << 18];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* Run chuhan analyze with args into a fresh folder; the annotated PGN's
 * path into out (the folder holds the graphs as graphs/). */
static void analyze(const char *args, char *dir, size_t dirlen, char *out, size_t outlen)
{
    snprintf(dir, dirlen, "/tmp/chuhan-analyze-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(out, outlen, "%s/out.pgn", dir);
    char cmd[2048], log[8192];
    snprintf(cmd, sizeof cmd, "%s analyze --graph %s/graphs --output %s %s", test_engine_path(), dir, out, args);
    int rc = test_run(cmd, log, sizeof log);
    if (rc != 0)
        fail_msg("%s: exit %d\n%s", cmd, rc, log);
    /* the progress line and the final count */
    assert_non_null(strstr(log, "analyze: game 1/1, move "));
    assert_non_null(strstr(log, "ETA "));
}

/* The records of path replayed: their count, the moves of the first. */
static int replay_all(const char *path, int *first_moves)
{
    char err[256];
    PgnReader *r = pgn_open_file(path, PGN_ENC_AUTO, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    static Position pos;
    static Move moves[MAX_GAME_PLY];
    const PgnGame *g;
    int games = 0, k;
    while ((k = pgn_next(r, &g, err, sizeof err)) > 0) {
        int n;
        if (pgn_replay(g, &pos, moves, MAX_GAME_PLY, &n, err, sizeof err) != PGN_OK)
            fail_msg("%s: record %ld: %s", path, g->index, err);
        if (games++ == 0)
            *first_moves = n;
    }
    assert_int_equal(k, 0);
    pgn_close(r);
    return games;
}

static void cleanup(const char *dir)
{
    char cmd[600], log[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    test_run(cmd, log, sizeof log);
}

static void test_analyze_marks_the_blunder(void **state)
{
    (void)state;
    char dir[256], out[300], args[600];
    snprintf(args, sizeof args, "--depth 8 %s", test_data_path("analyze-blunder.pgn"));
    analyze(args, dir, sizeof dir, out, sizeof out);
    char *text = slurp(out);
    /* Red hangs its rook: a blunder (??), the better move shown */
    if (!strstr(text, "1. a0a5 $4 {"))
        fail_msg("no ?? on 1. a0a5:\n%s", text);
    assert_non_null(strstr(text, "(1. a0"));
    assert_non_null(strstr(text, "{Red: 0 inaccuracies, 0 mistakes, 1 blunders; Black: 0 inaccuracies"));
    assert_non_null(strstr(text, "[Annotator \"Chuhan, depth 8\"]"));
    /* Black's replies are the best moves: not marked */
    assert_null(strstr(text, "i5a5 $"));
    int n = 0;
    assert_int_equal(replay_all(out, &n), 1);
    assert_int_equal(n, 4);
    cleanup(dir);
}

/* A Big5 record in Chinese notation comes back in Chinese (UTF-8), every
 * move annotated, and reads back move for move. */
static void test_analyze_keeps_chinese_notation(void **state)
{
    (void)state;
    char dir[256], out[300], args[600];
    const char *in = test_data_path("analyze-big5.pgn");
    snprintf(args, sizeof args, "--nodes 3000 --multipv 2 %s", in);
    analyze(args, dir, sizeof dir, out, sizeof out);
    char *text = slurp(out);
    assert_non_null(strstr(text, "1. 炮二平五 "));
    assert_non_null(strstr(text, "[Red \"柳大華\"]"));
    assert_null(strstr(text, "h2e2"));
    int n_in = 0, n_out = 0;
    assert_int_equal(replay_all(in, &n_in), 1);
    assert_int_equal(replay_all(out, &n_out), 1);
    assert_int_equal(n_in, n_out);
    assert_true(n_out > 40);
    /* a score for every move */
    int comments = 0;
    for (const char *p = strchr(text, '{'); p; p = strchr(p + 1, '{'))
        comments++;
    assert_true(comments >= n_out + 1); /* and the summary */
    cleanup(dir);
}

/* A cutechess record comes back in its algebraic notation. */
static void test_analyze_keeps_san(void **state)
{
    (void)state;
    char dir[256], out[300], args[600];
    snprintf(args, sizeof args, "--nodes 2000 %s", test_data_path("cutechess-xiangqi.pgn"));
    analyze(args, dir, sizeof dir, out, sizeof out);
    char *text = slurp(out);
    assert_non_null(strstr(text, "1. Che3 "));
    assert_non_null(strstr(text, "[Variant \"xiangqi\"]"));
    int n = 0;
    assert_int_equal(replay_all(out, &n), 1);
    assert_int_equal(n, 109);
    cleanup(dir);
}

/* PNG: the width and height of its header. */
static void png_size(const char *path, unsigned *w, unsigned *h)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("no picture %s", path);
    unsigned char b[24];
    assert_int_equal(fread(b, 1, 24, f), 24);
    fclose(f);
    assert_memory_equal(b, "\x89PNG\r\n\x1a\n", 8);
    assert_memory_equal(b + 12, "IHDR", 4);
    *w = (unsigned)b[16] << 24 | (unsigned)b[17] << 16 | (unsigned)b[18] << 8 | b[19];
    *h = (unsigned)b[20] << 24 | (unsigned)b[21] << 16 | (unsigned)b[22] << 8 | b[23];
}

/* The graph renders, at its size, with the blunder marked. */
static void test_analyze_graph_renders(void **state)
{
    (void)state;
    char dir[256], out[300], args[600], cmd[1200], log[4096], svg[400], png[400];
    snprintf(args, sizeof args, "--depth 6 %s", test_data_path("analyze-blunder.pgn"));
    analyze(args, dir, sizeof dir, out, sizeof out);
    snprintf(svg, sizeof svg, "%s/graphs/game-1.svg", dir);
    snprintf(png, sizeof png, "%s/game-1.png", dir);
    char *text = slurp(svg);
    assert_non_null(strstr(text, "<svg "));
    assert_non_null(strstr(text, "fill=\"#d00\"")); /* the ?? dot */
    snprintf(cmd, sizeof cmd, "rsvg-convert '%s' -o '%s'", svg, png);
    int rc = test_run(cmd, log, sizeof log);
    if (rc != 0)
        fail_msg("%s: exit %d\n%s", cmd, rc, log);
    unsigned w, h;
    png_size(png, &w, &h);
    assert_int_equal(w, 800);
    assert_int_equal(h, 300);
    cleanup(dir);
}

/* Bad arguments are refused, saying what is wrong. */
static void test_analyze_usage(void **state)
{
    (void)state;
    char cmd[600], log[4096];
    snprintf(cmd, sizeof cmd, "%s analyze --multipv 99 x.pgn", test_engine_path());
    assert_int_equal(test_run(cmd, log, sizeof log), 2);
    assert_non_null(strstr(log, "analyze: --multipv: '99' is not a number from 1 to 8"));
    snprintf(cmd, sizeof cmd, "%s analyze --depth 3 --nodes 100 x.pgn", test_engine_path());
    assert_int_equal(test_run(cmd, log, sizeof log), 2);
    assert_non_null(strstr(log, "one of --time, --depth, --nodes"));
    snprintf(cmd, sizeof cmd, "%s analyze --depth 2 /nonexistent/x.pgn", test_engine_path());
    assert_int_equal(test_run(cmd, log, sizeof log), 2);
    assert_non_null(strstr(log, "/nonexistent/x.pgn"));
}

/* The WDL model: per mille that add up, symmetric, rising with the score,
 * likelier draws with less material, a mate certain. */
static void test_wdl_model(void **state)
{
    (void)state;
    int prev = -1;
    for (int sc = -1500; sc <= 1500; sc += 25) {
        int a[3], b[3];
        score_wdl(sc, 20, a);
        score_wdl(-sc, 20, b);
        assert_int_equal(a[0] + a[1] + a[2], 1000);
        assert_true(a[1] >= 0);
        assert_true(abs(a[0] - b[2]) <= 1);
        assert_true(a[0] >= prev);
        prev = a[0];
    }
    int few[3], many[3];
    score_wdl(0, 4, few);
    score_wdl(0, 28, many);
    assert_true(few[1] > many[1]);
    assert_int_equal(score_expected(0, 10), 500);
    assert_true(score_expected(200, 10) > 600);
}

/* chuhan wdl fits the model to master games and draws its curve. */
static void test_wdl_fit(void **state)
{
    (void)state;
    char dir[] = "/tmp/chuhan-wdl-XXXXXX", cmd[1024], log[8192], svg[300], png[300];
    assert_non_null(mkdtemp(dir));
    snprintf(svg, sizeof svg, "%s/wdl.svg", dir);
    snprintf(png, sizeof png, "%s/wdl.png", dir);
    snprintf(cmd, sizeof cmd, "%s wdl --games 60 --nodes 300 --svg %s %s", test_engine_path(), svg,
             test_data_path("ccpd-master-games.pgn.zst"));
    int rc = test_run(cmd, log, sizeof log);
    if (rc != 0)
        fail_msg("%s: exit %d\n%s", cmd, rc, log);
    assert_non_null(strstr(log, "const WdlModel WDL_MODEL = {"));
    double before = 0, after = 0;
    const char *p = strstr(log, "log-loss per position: ");
    assert_non_null(p);
    assert_int_equal(sscanf(p, "log-loss per position: %lf with the model in use, %lf fitted", &before, &after), 2);
    assert_true(after <= before && after > 0.3 && after < 1.2);
    snprintf(cmd, sizeof cmd, "rsvg-convert '%s' -o '%s'", svg, png);
    assert_int_equal(test_run(cmd, log, sizeof log), 0);
    unsigned w, h;
    png_size(png, &w, &h);
    assert_int_equal(w, 660);
    assert_int_equal(h, 400);
    cleanup(dir);
}

const struct CMUnitTest *analyze_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_analyze_marks_the_blunder),
        cmocka_unit_test(test_analyze_keeps_chinese_notation),
        cmocka_unit_test(test_analyze_keeps_san),
        cmocka_unit_test(test_analyze_graph_renders),
        cmocka_unit_test(test_analyze_usage),
        cmocka_unit_test(test_wdl_model),
        cmocka_unit_test(test_wdl_fit),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
