/* chuhan datagen --pgn: the records of recorded games, each from a
 * position of its game that is not in check and before a quiet move, with
 * the game's result and one game-start mark a game; a run stopped early and
 * resumed writes the same records as one that was not; what was appended
 * after the progress note is cut back; a note of another PGN file, or data
 * without a note, is refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/tools/nnue_data.h"
#include "engine/board/movegen.h"
#include "tests.h"

#define MAX_TEST_GAMES 12
#define TEST_PLIES 30

/* A game written to a test PGN, with what datagen may keep of it. */
typedef struct {
    int n;                       /* positions (plies played) */
    NnueRecord key[TEST_PLIES];  /* each ply's position, packed */
    bool candidate[TEST_PLIES];  /* past the skipped plies, not in check, a quiet move played */
} TestGame;

enum { WRITE_GOOD, WRITE_ILLEGAL, WRITE_NO_RESULT };

/* Random legal moves from the start; kind says how the record ends. */
static void write_game(FILE *f, TestGame *g, uint64_t *rng, const char *result, int kind, int skip)
{
    Position *pos = malloc(sizeof *pos);
    assert_non_null(pos);
    assert_true(pos_set_fen(pos, START_FEN, NULL, 0));
    fprintf(f, "[Event \"datagen test\"]\n[Result \"%s\"]\n\n", kind == WRITE_NO_RESULT ? "*" : result);
    memset(g, 0, sizeof *g);
    for (int ply = 0; ply < TEST_PLIES; ply++) {
        Move list[MAX_MOVES];
        int m = gen_legal(pos, list);
        if (!m)
            break;
        Move move = list[rng_below(rng, (uint64_t)m)];
        nnue_record_pack(&g->key[ply], pos, 0, 0);
        g->candidate[ply] = ply >= skip && !pos_in_check(pos) && !pos_is_capture(pos, move);
        g->n = ply + 1;
        char text[8];
        move_str(move, text, false);
        fprintf(f, "%s%s", ply ? " " : "", text);
        pos_do_move(pos, move);
    }
    if (kind == WRITE_ILLEGAL)
        fprintf(f, " e0e5"); /* no king moves five points */
    fprintf(f, " %s\n\n", kind == WRITE_NO_RESULT ? "*" : result);
    free(pos);
}

/* The ply of game g whose position r holds, from ply `from` on; -1 if none. */
static int find_ply(const TestGame *g, const NnueRecord *r, int from)
{
    for (int ply = from; ply < g->n; ply++)
        if (!memcmp(g->key[ply].b, r->b, 28) && (g->key[ply].b[31] & 1) == (r->b[31] & 1))
            return ply;
    return -1;
}

static void temp_path(char *out, size_t len, const char *name)
{
    snprintf(out, len, "/tmp/chuhan-test-dgpgn-%ld-%s", (long)getpid(), name);
}

static void remove_data(const char *path)
{
    char note[600];
    snprintf(note, sizeof note, "%s.progress", path);
    unlink(path);
    unlink(note);
}

static int datagen(const char *pgn, const char *data, const char *extra, char *out, size_t len)
{
    char cmd[1600];
    snprintf(cmd, sizeof cmd, "%s datagen --pgn %s --out %s --nodes 300 %s", test_engine_path(), pgn, data, extra);
    return test_run(cmd, out, len);
}

static NnueRecord *read_data(const char *path, size_t *n)
{
    char err[256];
    size_t good;
    NnueRecord *r = nnue_data_read(path, false, n, &good, err, sizeof err);
    if (!r)
        fail_msg("%s: %s", path, err);
    return r;
}

static long long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* ngames good games with results, written to path. */
static void write_pgn(const char *path, TestGame *games, int ngames, uint64_t seed)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < ngames; i++)
        write_game(f, &games[i], &seed, i % 3 == 0 ? "1-0" : i % 3 == 1 ? "0-1" : "1/2-1/2", WRITE_GOOD, 8);
    fclose(f);
}

static void test_datagen_pgn_keeps_quiet_positions(void **state)
{
    (void)state;
    char pgn[256], data[256], out[8192];
    temp_path(pgn, sizeof pgn, "a.pgn");
    temp_path(data, sizeof data, "a.bin");
    remove_data(data);
    TestGame games[4];
    uint64_t rng = 17;
    FILE *f = fopen(pgn, "w");
    assert_non_null(f);
    write_game(f, &games[0], &rng, "1-0", WRITE_GOOD, 6);
    write_game(f, &games[1], &rng, "0-1", WRITE_ILLEGAL, 6);
    write_game(f, &games[2], &rng, "1-0", WRITE_NO_RESULT, 6);
    write_game(f, &games[3], &rng, "1/2-1/2", WRITE_GOOD, 6);
    fclose(f);
    if (datagen(pgn, data, "--skip-plies 6 --threads 2", out, sizeof out) != 0)
        fail_msg("%s", out);
    if (!strstr(out, "done (the file's games are exhausted)")
        || !strstr(out, "from 4 games (2 with positions, 0 with none kept, 1 failed to replay, 1 without a result)"))
        fail_msg("%s", out);
    size_t n;
    NnueRecord *r = read_data(data, &n);
    /* game 1's records, then game 4's, each beginning with the mark */
    const TestGame *kept[2] = {&games[0], &games[3]};
    const int red_result[2] = {1, 0};
    int game = -1, ply = 0, marks = 0;
    for (size_t i = 0; i < n; i++) {
        if (r[i].b[31] & 2) {
            marks++;
            game++;
            ply = 0;
        }
        assert_in_range(game, 0, 1);
        int at = find_ply(kept[game], &r[i], ply);
        if (at < 0)
            fail_msg("record %zu is no later position of game %d", i, game ? 4 : 1);
        /* past the skipped plies, not in check, not before a capture */
        assert_true(kept[game]->candidate[at]);
        assert_int_equal(nnue_record_red_result(&r[i]), red_result[game]);
        NnueSample s;
        assert_true(nnue_record_unpack(&r[i], &s));
        assert_in_range(s.score + 30000, 1, 59999);
        ply = at + 1;
    }
    assert_int_equal(marks, 2);
    assert_int_equal(game, 1);
    assert_true(r[0].b[31] & 2);
    free(r);
    remove_data(data);
    unlink(pgn);
}

static void test_datagen_pgn_resumes_exactly(void **state)
{
    (void)state;
    char pgn[256], whole[256], parts[256], out[8192];
    temp_path(pgn, sizeof pgn, "b.pgn");
    temp_path(whole, sizeof whole, "whole.bin");
    temp_path(parts, sizeof parts, "parts.bin");
    remove_data(whole);
    remove_data(parts);
    TestGame games[10];
    write_pgn(pgn, games, 10, 23);
    if (datagen(pgn, whole, "--threads 2", out, sizeof out) != 0 || !strstr(out, "exhausted"))
        fail_msg("%s", out);
    size_t nwhole, nfirst, nparts;
    NnueRecord *all = read_data(whole, &nwhole);
    /* stopped by its target after a few games... */
    if (datagen(pgn, parts, "--threads 1 --positions 25", out, sizeof out) != 0 || !strstr(out, "target is reached"))
        fail_msg("%s", out);
    NnueRecord *first = read_data(parts, &nfirst);
    assert_true(nfirst >= 25 && nfirst < nwhole);
    /* ...then a whole frame appended whose note was never written (a kill
     * between the two): it must not come back as duplicates */
    char err[256];
    long long noted = file_size(parts);
    if (!nnue_data_append(parts, first, nfirst, err, sizeof err))
        fail_msg("%s", err);
    long long appended = file_size(parts) - noted;
    if (datagen(pgn, parts, "--threads 2", out, sizeof out) != 0 || !strstr(out, "exhausted"))
        fail_msg("%s", out);
    char dropped[128];
    snprintf(dropped, sizeof dropped, "dropping %lld bytes appended after its progress note", appended);
    if (!strstr(out, dropped))
        fail_msg("no '%s': %s", dropped, out);
    NnueRecord *resumed = read_data(parts, &nparts);
    /* the same records in the same order: nothing lost, nothing twice */
    assert_int_equal(nparts, nwhole);
    assert_memory_equal(resumed, all, nwhole * sizeof *all);
    int marks = 0;
    for (size_t i = 0; i < nparts; i++)
        marks += (resumed[i].b[31] & 2) != 0;
    assert_int_equal(marks, 10);
    /* done: a further run adds nothing */
    if (datagen(pgn, parts, "--threads 1", out, sizeof out) != 0 || !strstr(out, "exhausted"))
        fail_msg("%s", out);
    free(resumed);
    resumed = read_data(parts, &nparts);
    assert_int_equal(nparts, nwhole);
    free(all);
    free(first);
    free(resumed);
    remove_data(whole);
    remove_data(parts);
    unlink(pgn);
}

static void test_datagen_pgn_cuts_back_to_its_note(void **state)
{
    (void)state;
    char pgn[256], data[256], out[8192];
    temp_path(pgn, sizeof pgn, "c.pgn");
    temp_path(data, sizeof data, "c.bin");
    remove_data(data);
    TestGame games[3];
    write_pgn(pgn, games, 3, 5);
    if (datagen(pgn, data, "--threads 1 --positions 5", out, sizeof out) != 0)
        fail_msg("%s", out);
    long long noted = file_size(data);
    assert_true(noted > 0);
    /* a partial frame: the start of an append that was killed */
    FILE *f = fopen(data, "ab");
    assert_non_null(f);
    fwrite("\x28\xb5\x2f\xfd\x00\x11", 1, 6, f);
    fclose(f);
    if (datagen(pgn, data, "--threads 1 --positions 5", out, sizeof out) != 0)
        fail_msg("%s", out);
    assert_non_null(strstr(out, "dropping 6 bytes appended after its progress note"));
    assert_non_null(strstr(out, "already holds"));
    assert_int_equal(file_size(data), noted);
    /* a file shorter than its note: damaged, refused, left as it is */
    assert_int_equal(truncate(data, noted - 1), 0);
    if (datagen(pgn, data, "--threads 1 --positions 100", out, sizeof out) == 0 || !strstr(out, "damaged"))
        fail_msg("a data file shorter than its note: %s", out);
    assert_int_equal(file_size(data), noted - 1);
    remove_data(data);
    unlink(pgn);
}

static void test_datagen_pgn_refuses_other_data(void **state)
{
    (void)state;
    char pgn[256], other[256], data[256], selfplay[256], cmd[1200], out[8192];
    temp_path(pgn, sizeof pgn, "d.pgn");
    temp_path(other, sizeof other, "e.pgn");
    temp_path(data, sizeof data, "d.bin");
    temp_path(selfplay, sizeof selfplay, "selfplay.bin");
    remove_data(data);
    remove_data(selfplay);
    TestGame games[3];
    write_pgn(pgn, games, 2, 9);
    write_pgn(other, games, 3, 10);
    if (datagen(pgn, data, "--threads 1 --positions 5", out, sizeof out) != 0)
        fail_msg("%s", out);
    long long size = file_size(data);
    /* the note is of another PGN file: refused, the data left as it is */
    if (datagen(other, data, "--threads 1", out, sizeof out) == 0 || !strstr(out, "is the progress of"))
        fail_msg("a note of another PGN file: %s", out);
    assert_int_equal(file_size(data), size);
    /* self-play appending to PGN data: refused */
    snprintf(cmd, sizeof cmd, "%s datagen --out %s --positions 100 --nodes 200 --threads 1", test_engine_path(), data);
    if (test_run(cmd, out, sizeof out) == 0 || !strstr(out, "has a progress note"))
        fail_msg("self-play on PGN data: %s", out);
    assert_int_equal(file_size(data), size);
    /* self-play data has no note: --pgn refuses it */
    snprintf(cmd, sizeof cmd, "%s datagen --out %s --positions 10 --nodes 200 --threads 1 --seed 3",
             test_engine_path(), selfplay);
    if (test_run(cmd, out, sizeof out) != 0)
        fail_msg("%s", out);
    size = file_size(selfplay);
    assert_true(size > 0);
    if (datagen(pgn, selfplay, "--threads 1", out, sizeof out) == 0 || !strstr(out, "no progress note"))
        fail_msg("--pgn on self-play data: %s", out);
    assert_int_equal(file_size(selfplay), size);
    remove_data(data);
    remove_data(selfplay);
    unlink(pgn);
    unlink(other);
}

const struct CMUnitTest *datagen_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_datagen_pgn_keeps_quiet_positions),
        cmocka_unit_test(test_datagen_pgn_resumes_exactly),
        cmocka_unit_test(test_datagen_pgn_cuts_back_to_its_note),
        cmocka_unit_test(test_datagen_pgn_refuses_other_data),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
