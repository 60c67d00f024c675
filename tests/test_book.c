/* The opening book: build and probe round trip with counts checked against
 * the games, the format's error checks (truncated, corrupted), the embedded
 * default book, probing from several threads, and the command line. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "book/book.h"
#include "engine/board/movegen.h"
#include "engine/records/notation.h"
#include "engine/util/clock.h"
#include "tests.h"

static Position pos;

static void set_fen(const char *fen)
{
    char err[160];
    if (!pos_set_fen(&pos, fen, err, sizeof err))
        fail_msg("bad FEN %s: %s", fen, err);
}

static const char SMALL_GAMES[] =
    "[Result \"1-0\"]\n1. h2e2 h9g7 2. h0g2 1-0\n\n"
    "[Result \"0-1\"]\n1. h2e2 h9g7 2. b0c2 0-1\n\n"
    "[Result \"1/2-1/2\"]\n1. 炮二平五 馬２進３ 1/2-1/2\n\n"
    "[Result \"1-0\"]\n1. C8.6 h9g7 1-0\n\n"
    "[Result \"*\"]\n1. h2e2 h9g7 2. h0g2 *\n\n"
    "[Result \"1-0\"]\n1. h2e2 h9g7 2. h2h9 1-0\n\n"; /* no piece on h2: rejected */

static BookBuilder *small_builder(int min_games, double min_score, int max_ply)
{
    BookOptions opt;
    book_options_default(&opt);
    opt.min_games = min_games;
    opt.min_score = min_score;
    opt.max_ply = max_ply;
    BookBuilder *b = book_builder_new(&opt);
    assert_non_null(b);
    char err[256];
    PgnReader *r = pgn_open_memory(SMALL_GAMES, sizeof SMALL_GAMES - 1, PGN_ENC_AUTO, err, sizeof err);
    assert_non_null(r);
    assert_true(book_builder_add_pgn(b, r, "small", err, sizeof err));
    pgn_close(r);
    return b;
}

static Book *finish_and_load(BookBuilder *b, void **data, size_t *size)
{
    char err[256];
    assert_true(book_builder_finish(b, data, size, err, sizeof err));
    Book *book = book_load_memory(*data, *size, err, sizeof err);
    if (!book)
        fail_msg("%s", err);
    return book;
}

static const BookMove *find(const BookMove *moves, int n, const char *uci)
{
    for (int i = 0; i < n; i++) {
        char s[8];
        move_str(moves[i].move, s, false);
        if (!strcmp(s, uci))
            return &moves[i];
    }
    return NULL;
}

static void expect_move(const BookMove *moves, int n, const char *uci, unsigned w, unsigned d, unsigned l)
{
    const BookMove *m = find(moves, n, uci);
    if (!m)
        fail_msg("%s is not in the book here", uci);
    if (m->wins != w || m->draws != d || m->losses != l)
        fail_msg("%s: %u/%u/%u, expected %u/%u/%u", uci, m->wins, m->draws, m->losses, w, d, l);
    assert_int_equal(m->weight, 2 * w + d);
}

/* A handful of games: every count as the games say. */
static void test_book_small_roundtrip(void **state)
{
    (void)state;
    BookBuilder *b = small_builder(1, 0.0, 30);
    const BookBuildStats *st = book_builder_stats(b);
    assert_int_equal(st->games_read, 6);
    assert_int_equal(st->games_used, 5);
    assert_int_equal(st->rejected[PGN_ERR_MOVE], 1);
    assert_int_equal(st->unknown_results, 1);
    void *data;
    size_t size;
    Book *book = finish_and_load(b, &data, &size);
    assert_int_equal(st->bytes, size);
    assert_int_equal(book_entries(book), (size_t)st->entries);
    assert_int_equal(book_positions(book), (size_t)st->positions);

    BookMove moves[MAX_MOVES];
    set_fen(START_FEN);
    int n = book_probe(book, &pos, moves, MAX_MOVES);
    assert_int_equal(n, 2);
    /* h2e2: won, lost, drawn, and once without a result (counted, not scored) */
    expect_move(moves, n, "h2e2", 1, 1, 1);
    expect_move(moves, n, "b2d2", 1, 0, 0); /* C8.6: red's cannon on file 8 (b) to file 6 (d) */
    assert_int_equal(moves[0].move, parse_move(&pos, "h2e2", false)); /* best first */
    pos_do_move(&pos, parse_move(&pos, "h2e2", false));
    n = book_probe(book, &pos, moves, MAX_MOVES);
    assert_int_equal(n, 2);
    expect_move(moves, n, "h9g7", 1, 0, 1); /* for Black: won game 2, lost game 1 */
    expect_move(moves, n, "b9c7", 0, 1, 0);
    pos_do_move(&pos, parse_move(&pos, "h9g7", false));
    n = book_probe(book, &pos, moves, MAX_MOVES);
    assert_int_equal(n, 2);
    expect_move(moves, n, "h0g2", 1, 0, 0); /* plus game 5, without a result */
    expect_move(moves, n, "b0c2", 0, 0, 1);
    pos_do_move(&pos, parse_move(&pos, "h0g2", false));
    assert_int_equal(book_probe(book, &pos, moves, MAX_MOVES), 0);
    assert_int_equal(book_choose(book, &pos, true, NULL), MOVE_NONE);
    book_free(book);

    /* the same games give the same bytes */
    BookBuilder *b2 = small_builder(1, 0.0, 30);
    void *data2;
    size_t size2;
    char err[200];
    assert_true(book_builder_finish(b2, &data2, &size2, err, sizeof err));
    assert_int_equal(size, size2);
    assert_memory_equal(data, data2, size);
    free(data2);
    book_builder_free(b2);
    free(data);
    book_builder_free(b);

    /* the filters: two games at least, a score of 40% at least, two plies */
    b = small_builder(2, 0.4, 2);
    book = finish_and_load(b, &data, &size);
    set_fen(START_FEN);
    n = book_probe(book, &pos, moves, MAX_MOVES);
    assert_int_equal(n, 1); /* b2d2 was played once */
    expect_move(moves, n, "h2e2", 1, 1, 1);
    pos_do_move(&pos, moves[0].move);
    n = book_probe(book, &pos, moves, MAX_MOVES);
    assert_int_equal(n, 1); /* b9c7 was played once; h9g7 scores 50% */
    pos_do_move(&pos, moves[0].move);
    assert_int_equal(book_probe(book, &pos, moves, MAX_MOVES), 0); /* beyond the ply limit */
    book_free(book);
    free(data);
    book_builder_free(b);
}

/* book_choose: the best move, or moves in proportion to their weights. */
static void test_book_choose(void **state)
{
    (void)state;
    BookBuilder *b = small_builder(1, 0.0, 30);
    void *data;
    size_t size;
    Book *book = finish_and_load(b, &data, &size);
    set_fen(START_FEN);
    Move best = parse_move(&pos, "h2e2", false), other = parse_move(&pos, "b2d2", false);
    assert_int_equal(book_choose(book, &pos, true, NULL), best);
    uint64_t rng = 12345;
    int count_best = 0, count_other = 0;
    for (int i = 0; i < 10000; i++) {
        Move m = book_choose(book, &pos, false, &rng);
        count_best += m == best;
        count_other += m == other;
    }
    assert_int_equal(count_best + count_other, 10000);
    /* weights 3 and 2: 60% and 40% */
    assert_in_range(count_best, 5600, 6400);
    book_free(book);
    free(data);
    book_builder_free(b);
}

/* Counts against the games themselves, over the first thousand master games. */
static void test_book_counts_match_games(void **state)
{
    (void)state;
    char err[256];
    BookOptions opt;
    book_options_default(&opt);
    opt.min_games = 1;
    opt.min_score = 0.0;
    opt.max_ply = 12;
    BookBuilder *b = book_builder_new(&opt);
    assert_non_null(b);
    PgnReader *r = pgn_open_file(test_data_path("ccpd-master-games.pgn.zst"), PGN_ENC_AUTO, err, sizeof err);
    assert_non_null(r);
    /* the games, replayed here, and fed to the builder one by one */
    static Position replay;
    static Move moves[MAX_GAME_PLY];
    enum { GAMES = 1000 };
    static Move first[GAMES][2];
    static int result[GAMES];
    int used = 0;
    const PgnGame *g;
    while (used < GAMES && pgn_next(r, &g, err, sizeof err) > 0) {
        int n;
        if (pgn_replay(g, &replay, moves, MAX_GAME_PLY, &n, err, sizeof err) != PGN_OK || n < 2)
            continue;
        result[used] = pgn_result(g);
        first[used][0] = moves[0];
        first[used][1] = moves[1];
        assert_true(book_builder_add_game(b, pgn_tag(g, "FEN"), moves, n, result[used], err, sizeof err));
        used++;
    }
    pgn_close(r);
    assert_int_equal(used, GAMES);
    void *data;
    size_t size;
    Book *book = finish_and_load(b, &data, &size);
    /* every first move and every reply, counted by hand */
    BookMove bm[MAX_MOVES];
    set_fen(START_FEN);
    int n = book_probe(book, &pos, bm, MAX_MOVES);
    long total = 0;
    for (int i = 0; i < n; i++) {
        unsigned w = 0, d = 0, l = 0;
        for (int k = 0; k < GAMES; k++)
            if (first[k][0] == bm[i].move) {
                w += result[k] == PGN_RED_WINS;
                d += result[k] == PGN_DRAW;
                l += result[k] == PGN_BLACK_WINS;
            }
        assert_int_equal(bm[i].wins, w);
        assert_int_equal(bm[i].draws, d);
        assert_int_equal(bm[i].losses, l);
        total += w + d + l;
        if (i > 0)
            assert_true(bm[i - 1].weight >= bm[i].weight);
        pos_do_move(&pos, bm[i].move);
        BookMove reply[MAX_MOVES];
        int nr = book_probe(book, &pos, reply, MAX_MOVES);
        for (int j = 0; j < nr; j++) {
            unsigned rw = 0, rd = 0, rl = 0;
            for (int k = 0; k < GAMES; k++)
                if (first[k][0] == bm[i].move && first[k][1] == reply[j].move) {
                    rw += result[k] == PGN_BLACK_WINS;
                    rd += result[k] == PGN_DRAW;
                    rl += result[k] == PGN_RED_WINS;
                }
            assert_int_equal(reply[j].wins, rw);
            assert_int_equal(reply[j].draws, rd);
            assert_int_equal(reply[j].losses, rl);
        }
        pos_undo_move(&pos);
    }
    long known = 0;
    for (int k = 0; k < GAMES; k++)
        known += result[k] != PGN_UNKNOWN;
    assert_int_equal(total, known);
    book_free(book);
    free(data);
    book_builder_free(b);
}

static char *write_temp(const void *data, size_t size, const char *name)
{
    static char path[4][256];
    static int k;
    char *p = path[k++ & 3];
    snprintf(p, sizeof path[0], "/tmp/chuhan-test-%d-%s", (int)getpid(), name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
    return p;
}

/* A truncated or corrupted book is refused with a reason, never loaded. */
static void test_book_truncated_and_corrupted(void **state)
{
    (void)state;
    BookBuilder *b = small_builder(1, 0.0, 30);
    void *data;
    size_t size;
    char err[256];
    assert_true(book_builder_finish(b, &data, &size, err, sizeof err));
    unsigned char *bytes = data;
    /* the whole file loads */
    const char *path = write_temp(bytes, size, "whole.book");
    Book *book = book_load_file(path, err, sizeof err);
    assert_non_null(book);
    book_free(book);
    /* truncated files, at every length */
    for (size_t len = 0; len < size; len++) {
        err[0] = 0;
        path = write_temp(bytes, len, "cut.book");
        book = book_load_file(path, err, sizeof err);
        if (book)
            fail_msg("a book cut to %zu of %zu bytes loaded", len, size);
        assert_true(strstr(err, len >= 64 ? "truncated" : len ? "truncated" : "no data") != NULL);
        remove(path);
    }
    /* every single bit flipped */
    unsigned char *copy = malloc(size);
    assert_non_null(copy);
    for (size_t i = 0; i < size; i++)
        for (int bit = 0; bit < 8; bit++) {
            memcpy(copy, bytes, size);
            copy[i] ^= (unsigned char)(1 << bit);
            err[0] = 0;
            book = book_load_memory(copy, size, err, sizeof err);
            if (book)
                fail_msg("a book with bit %d of byte %zu flipped loaded", bit, i);
            assert_true(err[0] != 0);
        }
    /* one flip through a file, for the message */
    memcpy(copy, bytes, size);
    copy[size - 3] ^= 0x10;
    path = write_temp(copy, size, "flip.book");
    book = book_load_file(path, err, sizeof err);
    assert_null(book);
    assert_non_null(strstr(err, "corrupt"));
    remove(path);
    /* trailing bytes, garbage, a missing file */
    unsigned char *longer = malloc(size + 1);
    assert_non_null(longer);
    memcpy(longer, bytes, size);
    longer[size] = 0;
    assert_null(book_load_memory(longer, size + 1, err, sizeof err));
    assert_null(book_load_memory("not a book at all, just some text that is long enough for a header.....", 70,
                                 err, sizeof err));
    assert_non_null(strstr(err, "not a Chuhan book"));
    assert_null(book_load_file("/nonexistent/chuhan.book", err, sizeof err));
    assert_non_null(strstr(err, "cannot open"));
    remove(write_temp("", 0, "whole.book"));
    free(longer);
    free(copy);
    free(data);
    book_builder_free(b);
}

/* The book built into the binary. */
static void test_book_default(void **state)
{
    (void)state;
    char err[256];
    Book *book = book_load_default(err, sizeof err);
    if (!book)
        fail_msg("%s", err);
    assert_true(book_entries(book) > 10000);
    set_fen(START_FEN);
    BookMove moves[MAX_MOVES];
    int n = book_probe(book, &pos, moves, MAX_MOVES);
    assert_true(n >= 5);
    assert_int_equal(moves[0].move, parse_move(&pos, "h2e2", false)); /* 炮二平五, the masters' favourite */
    for (int i = 0; i < n; i++) {
        assert_true(pos_legal(&pos, moves[i].move));
        assert_true(moves[i].wins + moves[i].draws + moves[i].losses >= 1);
        assert_int_equal(moves[i].weight, 2 * moves[i].wins + moves[i].draws);
    }
    /* a line of book moves, then out of the book */
    uint64_t rng = 99;
    int plies = 0;
    Move m;
    while ((m = book_choose(book, &pos, false, &rng)) != MOVE_NONE && plies < 100) {
        assert_true(pos_pseudo_legal(&pos, m) && pos_legal(&pos, m));
        pos_do_move(&pos, m);
        plies++;
    }
    assert_true(plies >= 4 && plies <= 30);
    /* probing takes microseconds */
    set_fen(START_FEN);
    pos_do_move(&pos, parse_move(&pos, "h2e2", false));
    int64_t t0 = now_us();
    long found = 0;
    for (int i = 0; i < 100000; i++)
        found += book_probe(book, &pos, moves, MAX_MOVES);
    double us = (double)(now_us() - t0) / 100000;
    print_message("default book: %zu entries, %zu positions; probe %.2f us\n", book_entries(book),
                  book_positions(book), us);
    assert_true(found >= 100000);
    assert_true(us < 100); /* generous: sanitizer builds are slow */
    book_free(book);
}

typedef struct {
    const Book *book;
    const char *fen;
    BookMove moves[MAX_MOVES];
    int n;
    bool same;
} ProbeJob;

static void *probe_thread(void *arg)
{
    ProbeJob *job = arg;
    Position *p = malloc(sizeof *p);
    if (!p || !pos_set_fen(p, job->fen, NULL, 0)) {
        free(p);
        return NULL;
    }
    job->same = true;
    for (int i = 0; i < 20000; i++) {
        BookMove moves[MAX_MOVES];
        int n = book_probe(job->book, p, moves, MAX_MOVES);
        job->same &= n == job->n;
        for (int k = 0; k < n && k < job->n; k++)
            job->same &= moves[k].move == job->moves[k].move && moves[k].weight == job->moves[k].weight &&
                         moves[k].wins == job->moves[k].wins && moves[k].draws == job->moves[k].draws &&
                         moves[k].losses == job->moves[k].losses;
    }
    free(p);
    return NULL;
}

/* One loaded book, probed from several threads at once. */
static void test_book_threads(void **state)
{
    (void)state;
    char err[256];
    Book *book = book_load_default(err, sizeof err);
    assert_non_null(book);
    static const char *const fens[] = {
        START_FEN,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
    };
    ProbeJob jobs[4];
    pthread_t threads[4];
    for (int i = 0; i < 4; i++) {
        jobs[i].book = book;
        jobs[i].fen = fens[i];
        jobs[i].same = false;
        set_fen(fens[i]);
        jobs[i].n = book_probe(book, &pos, jobs[i].moves, MAX_MOVES);
        assert_true(jobs[i].n > 0);
    }
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&threads[i], NULL, probe_thread, &jobs[i]), 0);
    for (int i = 0; i < 4; i++) {
        pthread_join(threads[i], NULL);
        assert_true(jobs[i].same);
    }
    book_free(book);
}

/* `chuhan ARGS`, what it writes (the caller frees it). */
static char *run(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s", test_engine_path(), args);
    char *out = malloc(1 << 16);
    assert_non_null(out);
    test_run(cmd, out, 1 << 16);
    return out;
}

/* The command line: probe the built-in book; build a book and probe it. */
static void test_book_cli(void **state)
{
    (void)state;
    char *out = run("book probe startpos");
    if (!strstr(out, "h2e2") || !strstr(out, "炮二平五"))
        fail_msg("book probe startpos said:\n%s", out);
    free(out);
    out = run("book probe rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    if (!strstr(out, "h9g7") || !strstr(out, "馬８進７"))
        fail_msg("book probe after h2e2 said:\n%s", out);
    free(out);

    char pgn_path[256], book_path[256], args[700];
    snprintf(pgn_path, sizeof pgn_path, "/tmp/chuhan-test-%d-small.pgn", (int)getpid());
    snprintf(book_path, sizeof book_path, "/tmp/chuhan-test-%d-small.book", (int)getpid());
    FILE *f = fopen(pgn_path, "w");
    assert_non_null(f);
    fputs(SMALL_GAMES, f);
    fclose(f);
    snprintf(args, sizeof args, "book build -o %s --max-ply 10 --min-games 1 --min-score 0 %s", book_path, pgn_path);
    out = run(args);
    if (!strstr(out, "games read      6") || !strstr(out, "games rejected  1") || !strstr(out, "entries"))
        fail_msg("book build said:\n%s", out);
    free(out);
    snprintf(args, sizeof args, "book probe --book %s startpos", book_path);
    out = run(args);
    if (!strstr(out, "h2e2") || !strstr(out, "b2d2") || strstr(out, "c3c4"))
        fail_msg("book probe --book said:\n%s", out);
    free(out);
    /* a broken book file: a clear error */
    f = fopen(book_path, "r+b");
    assert_non_null(f);
    fseek(f, 70, SEEK_SET);
    fputc(0x5A, f);
    fclose(f);
    out = run(args);
    if (!strstr(out, "corrupt"))
        fail_msg("a corrupted book: %s", out);
    free(out);
    remove(pgn_path);
    remove(book_path);

    /* pgn convert: records in another notation, rejected ones on stderr */
    f = fopen(pgn_path, "w");
    assert_non_null(f);
    fputs("[Event \"一\"]\n\n1. 炮二平五 馬８進７ 2. 馬二進三 1-0\n\n[Event \"二\"]\n\n1. 炮二平五 卒５退１ *\n", f);
    fclose(f);
    snprintf(args, sizeof args, "pgn convert --to wxf %s", pgn_path);
    out = run(args);
    if (!strstr(out, "[Event \"一\"]") || !strstr(out, "1. C2.5 H8+7") || !strstr(out, "2. H2+3") ||
        !strstr(out, "record 2") || strstr(out, "[Event \"二\"]"))
        fail_msg("pgn convert said:\n%s", out);
    free(out);
    snprintf(args, sizeof args, "pgn convert --to uci %s", pgn_path);
    out = run(args);
    if (!strstr(out, "1. h2e2 h9g7") || !strstr(out, "2. h0g2"))
        fail_msg("pgn convert said:\n%s", out);
    free(out);
    remove(pgn_path);
}

const struct CMUnitTest *book_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_book_small_roundtrip),
        cmocka_unit_test(test_book_choose),
        cmocka_unit_test(test_book_counts_match_games),
        cmocka_unit_test(test_book_truncated_and_corrupted),
        cmocka_unit_test(test_book_default),
        cmocka_unit_test(test_book_threads),
        cmocka_unit_test(test_book_cli),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
