/* Limits on what the engine reads: bounded input lines (and their ends),
 * bounded move lists, option values and book files that are not books,
 * control characters never echoed raw.  The limits on what it is asked to
 * search are in test_search_limits.c.  The protocol cases drive the engine
 * binary through pipes, so that the sanitizer builds (make SANITIZE=...
 * test) check the engine itself. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/board/movegen.h"
#include "engine/engine.h"
#include "engine/protocol/protocol.h"
#include "limits_util.h"
#include "pipe.h"
#include "tests.h"

static EngineProc ep;

/* ---- bounded line length ---- */

static void test_read_line(void **state)
{
    (void)state;
    char text[64], buf[8];
    bool too_long;
    /* a line of cap - 1 bytes fits; cap bytes is cut, the rest skipped; NUL
     * bytes dropped; CR LF ends a line and an empty one; the last line
     * needs no newline */
    snprintf(text, sizeof text, "1234567\n12345678\nab%ccd\r\nlast", 0);
    size_t len = 7 + 1 + 8 + 1 + 8 + 4;
    FILE *in = fmemopen(text, len, "r");
    assert_non_null(in);
    assert_true(proto_read_line(in, buf, sizeof buf, &too_long));
    assert_false(too_long);
    assert_string_equal(buf, "1234567");
    assert_true(proto_read_line(in, buf, sizeof buf, &too_long));
    assert_true(too_long);
    assert_string_equal(buf, "1234567");
    assert_true(proto_read_line(in, buf, sizeof buf, &too_long));
    assert_false(too_long);
    assert_string_equal(buf, "abcd");
    assert_true(proto_read_line(in, buf, sizeof buf, &too_long));
    assert_string_equal(buf, "");
    assert_true(proto_read_line(in, buf, sizeof buf, &too_long));
    assert_string_equal(buf, "last");
    assert_false(proto_read_line(in, buf, sizeof buf, &too_long));
    fclose(in);
    /* a lone CR ends a line too */
    snprintf(text, sizeof text, "uci\risready\r\rgo\n");
    in = fmemopen(text, strlen(text), "r");
    assert_non_null(in);
    static const char *const lines[] = {"uci", "isready", "", "go"};
    for (int i = 0; i < 4; i++) {
        assert_true(proto_read_line(in, buf, sizeof buf, &too_long));
        assert_string_equal(buf, lines[i]);
    }
    assert_false(proto_read_line(in, buf, sizeof buf, &too_long));
    fclose(in);
    /* tokens: at most max, the rest left */
    char line[] = "a b\tc  d\re";
    char *tok[3];
    assert_int_equal(proto_tokenize(line, tok, 3), 3);
    assert_string_equal(tok[2], "c");
}

/* A line of 1 MB: refused with a message in the protocol, and the engine
 * goes on serving. */
static char *big_line(const char *head, size_t size)
{
    char *s = limits_xmalloc(size + 2);
    size_t n = strlen(head);
    memcpy(s, head, n);
    memset(s + n, ' ', size - n);
    memcpy(s + size - 4, "h9g7", 4);
    s[size] = '\n';
    s[size + 1] = 0;
    return s;
}

static void test_long_line_uci(void **state)
{
    (void)state;
    char *s = big_line("position startpos moves h2e2", 1 << 20);
    ep_send_raw(&ep, s, strlen(s));
    free(s);
    limits_sync_uci(&ep);
    limits_expect_in_log(&ep, "info string input line longer than");
    ep_send(&ep, "d");
    ep_want(&ep, "Fen:", LIMITS_WAIT_MS);
    limits_expect_in_log(&ep, "Fen: " START_FEN);
    ep_send(&ep, "go depth 2");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", LIMITS_WAIT_MS), "bestmove", NULL, NULL, NULL);
}

static void test_long_line_ucci(void **state)
{
    (void)state;
    char *s = big_line("position startpos moves h2e2", 1 << 20);
    ep_send_raw(&ep, s, strlen(s));
    free(s);
    limits_sync_uci(&ep);
    limits_expect_in_log(&ep, "info message input line longer than");
    ep_send(&ep, "go depth 2");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", LIMITS_WAIT_MS), "bestmove", NULL, NULL, NULL);
}

static void test_long_line_xboard(void **state)
{
    (void)state;
    char *s = big_line("setboard 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", 1 << 20);
    ep_send_raw(&ep, s, strlen(s));
    free(s);
    limits_sync_xboard(&ep, 1);
    limits_expect_in_log(&ep, "Error (line too long)");
    ep_send(&ep, "force");
    ep_send(&ep, "usermove h2e2"); /* the start position is still the game */
    limits_sync_xboard(&ep, 2);
    if (strstr(ep.log, "Illegal move"))
        fail_msg("the long setboard line was obeyed:\n%s", ep.log);
}

/* Commands ended by CR alone, by LF or by CR LF, in every protocol (and
 * the first line, which picks it): each is served, none joined to the next. */
static void test_cr_line_ends(void **state)
{
    (void)state;
    static const struct {
        const char *session, *want;
    } cases[] = {
        {"uci\risready\r", "readyok"},
        {"uci\r\nposition startpos moves h2e2\rd\r", "Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"},
        {"ucci\rsetoption usemillisec true\r\nisready\r", "readyok"},
        {"xboard\rprotover 2\r\nping 7\r", "pong 7"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (limits_start(&ep, NULL))
            fail_msg("cannot start the engine");
        ep_send_raw(&ep, cases[i].session, strlen(cases[i].session));
        if (!ep_expect(&ep, cases[i].want, LIMITS_WAIT_MS / 6, ep.log, sizeof ep.log))
            fail_msg("'%s' sent with CR line ends: no '%s'", cases[i].session, cases[i].want);
        ep_finish(&ep, LIMITS_WAIT_MS);
    }
}

/* The first line chooses the protocol; one that is too long must be
 * refused like any other, not obeyed cut short. */
static void test_long_first_line(void **state)
{
    (void)state;
    char *s = big_line("position startpos moves h2e2", 300 * 1024);
    ep_send_raw(&ep, s, strlen(s));
    free(s);
    ep_send(&ep, "d");
    ep_want(&ep, "Fen:", LIMITS_WAIT_MS);
    if (!strstr(ep.log, "Fen: " START_FEN) || !strstr(ep.log, "input line longer than"))
        fail_msg("a first line of 300 KB was not refused (engine/cli/main.c passes it on cut short, "
                 "without its too_long flag):\n%.4000s",
                 ep.log);
}

/* ---- bounded move lists ---- */

static void test_position_moves_uci(void **state)
{
    (void)state;
    char *game = limits_horse_shuffle(MAX_GAME_PLY);
    char *line = limits_xmalloc(strlen(game) * 2 + 64);
    /* the longest game a position may hold: accepted, and searched */
    sprintf(line, "position startpos moves %s\n", game);
    ep_send_raw(&ep, line, strlen(line));
    ep_send(&ep, "d");
    ep_want(&ep, "Fen:", LIMITS_WAIT_MS);
    limits_expect_in_log(&ep, "Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 4096 2049");
    ep_send(&ep, "go depth 3");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", LIMITS_WAIT_MS), "bestmove", NULL, game, NULL);
    /* one move more: refused, the game kept */
    sprintf(line, "position startpos moves %s h0g2\n", game);
    ep_send_raw(&ep, line, strlen(line));
    limits_sync_uci(&ep);
    limits_expect_in_log(&ep, "too many moves (4097; at most 4096)");
    /* more words than a line may hold: refused before parsing */
    sprintf(line, "position startpos moves %s %s\n", game, game);
    ep_send_raw(&ep, line, strlen(line));
    limits_sync_uci(&ep);
    limits_expect_in_log(&ep, "too many words on one line");
    ep_send(&ep, "d");
    ep_want(&ep, "Fen:", LIMITS_WAIT_MS);
    limits_expect_in_log(&ep, "w - - 4096 2049");
    /* searchmoves and a go line with every move many times over */
    size_t n = (size_t)sprintf(line, "go depth 2 searchmoves");
    for (int i = 0; i < 300; i++)
        n += (size_t)sprintf(line + n, " h0g2 h0i2");
    line[n++] = '\n';
    ep_send_raw(&ep, line, n);
    const char *l = ep_want(&ep, "bestmove", LIMITS_WAIT_MS);
    if (strcmp(l, "bestmove h0g2") && strcmp(l, "bestmove h0i2"))
        fail_msg("searchmoves h0g2 h0i2 answered '%s'", l);
    free(line);
    free(game);
}

static void test_position_moves_ucci(void **state)
{
    (void)state;
    char *game = limits_horse_shuffle(MAX_GAME_PLY + 1);
    char *line = limits_xmalloc(strlen(game) + 64);
    sprintf(line, "position startpos moves %s\n", game);
    ep_send_raw(&ep, line, strlen(line));
    limits_sync_uci(&ep);
    limits_expect_in_log(&ep, "too many moves (4097; at most 4096)");
    /* a probe of a game longer than a position holds */
    sprintf(line, "probe startpos moves %s\n", game);
    ep_send_raw(&ep, line, strlen(line));
    ep_want(&ep, "pophash", LIMITS_WAIT_MS);
    limits_expect_in_log(&ep, "info message probe: illegal move");
    /* banmoves: at most every legal move, however many are named */
    size_t n = (size_t)sprintf(line, "banmoves");
    for (int i = 0; i < 300; i++)
        n += (size_t)sprintf(line + n, " h0g2 h0i2");
    line[n++] = '\n';
    ep_send_raw(&ep, line, n);
    ep_send(&ep, "go depth 2");
    const char *l = ep_want(&ep, "bestmove", LIMITS_WAIT_MS);
    if (!strncmp(l, "bestmove h0g2", 13) || !strncmp(l, "bestmove h0i2", 13))
        fail_msg("a banned move was played: %s", l);
    free(line);
    free(game);
}

static void test_game_length_xboard(void **state)
{
    (void)state;
    static const char *const cycle[4] = {"h0g2", "h9g7", "g2h0", "g7h9"};
    ep_send(&ep, "new");
    ep_send(&ep, "force");
    /* 4096 moves in one write, then the one too many */
    size_t cap = (size_t)(MAX_GAME_PLY + 1) * 14 + 16, n = 0;
    char *all = limits_xmalloc(cap);
    for (int i = 0; i < MAX_GAME_PLY + 1; i++)
        n += (size_t)sprintf(all + n, "usermove %s\n", cycle[i % 4]);
    ep_send_raw(&ep, all, n);
    free(all);
    limits_sync_xboard(&ep, 3);
    const char *refusal = strstr(ep.log, "Illegal move");
    if (!refusal || strncmp(refusal, "Illegal move (the game is too long): h0g2", 41)
        || strstr(refusal + 1, "Illegal move"))
        fail_msg("only move 4097 should be refused:\n%.4000s", ep.log);
    /* the game goes on: after an undo the engine moves, or claims the
     * repetition draw that the horse moves are */
    ep_send(&ep, "undo");
    ep_send(&ep, "sd 2");
    ep_send(&ep, "go");
    limits_expect_either(&ep, "move ", "1/2-1/2", LIMITS_WAIT_MS);
    /* and a new game starts from nothing: `new` clears the depth limit, and
     * the default clock would have it think for half the test's wait */
    ep_send(&ep, "new");
    ep_send(&ep, "sd 2");
    ep_send(&ep, "go");
    ep_want(&ep, "move ", LIMITS_WAIT_MS);
}

/* ---- book files that are not books ---- */

/* A device that never ends and a FIFO that nobody writes: refused at once
 * (book/book.c book_load_file reads /dev/zero up to 4 GB, and blocks for
 * ever opening a FIFO). */
static void test_book_file_device(void **state)
{
    (void)state;
    ep_send(&ep, "setoption name BookFile value /dev/zero");
    long t0 = now_ms();
    ep_send(&ep, "isready");
    ep.log[0] = 0;
    const char *l = ep_expect(&ep, "readyok", 10000, ep.log, sizeof ep.log);
    if (!l || now_ms() - t0 > 3000L * ep_slow())
        fail_msg("BookFile /dev/zero: %s after %ld ms (book/book.c book_load_file reads up to 4 GB)",
                 l ? "refused" : "no answer", now_ms() - t0);
    limits_expect_in_log(&ep, "info string book");
}

static void test_book_file_fifo(void **state)
{
    (void)state;
    char fifo[64];
    snprintf(fifo, sizeof fifo, "/tmp/chuhan-fifo-%d", (int)getpid());
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    ep_send(&ep, "setoption name BookFile value %s", fifo);
    ep_send(&ep, "isready");
    ep.log[0] = 0;
    const char *l = ep_expect(&ep, "readyok", 3000, ep.log, sizeof ep.log);
    if (!l) {
        /* unblock the engine's open() so that it can quit */
        FILE *w = fopen(fifo, "w");
        if (w)
            fclose(w);
    }
    unlink(fifo);
    if (!l)
        fail_msg("BookFile naming a FIFO: no answer in 3 s (book/book.c book_load_file blocks in fopen)");
    limits_expect_in_log(&ep, "info string book");
}

/* ---- option values ---- */

/* A path of len characters whose first 1023 name a real file (the
 * built-in book's source): cut short, it would load. */
static char *long_book_path(size_t len)
{
    char *s = limits_xmalloc(len + 1);
    const char *tail = "book/default.book";
    size_t pre = ENGINE_VALUE_MAX - 1 - strlen(tail);
    for (size_t i = 0; i < pre; i += 2)
        memcpy(s + i, pre - i >= 2 ? "./" : "/", pre - i >= 2 ? 2 : 1);
    if (pre % 2)
        s[pre - 1] = '/';
    memcpy(s + pre, tail, strlen(tail));
    for (size_t i = ENGINE_VALUE_MAX - 1; i < len; i++)
        s[i] = 'x';
    s[len] = 0;
    return s;
}

/* A value over ENGINE_VALUE_MAX - 1 characters is refused with a message,
 * in every front-end and either form, never cut short and used. */
static void test_long_option_values_uci(void **state)
{
    (void)state;
    char *path = long_book_path(1500);
    ep_send(&ep, "setoption name BookFile value %s", path);
    limits_sync_uci(&ep);
    limits_expect_in_log(&ep, "refused");
    if (strstr(ep.log, "info string book"))
        fail_msg("the long BookFile was cut short and loaded:\n%.2000s", ep.log);
    ep_send(&ep, "setoption name Repetition Rule value %s", path);
    limits_sync_uci(&ep);
    limits_expect_in_log(&ep, "refused");
    /* a value of exactly 1023 characters is taken */
    path[ENGINE_VALUE_MAX - 1] = 0;
    ep_send(&ep, "setoption name BookFile value %s", path);
    ep_send(&ep, "setoption name OwnBook value true");
    ep_send(&ep, "position startpos");
    ep_send(&ep, "go depth 3");
    ep_want(&ep, "bestmove", LIMITS_WAIT_MS);
    limits_expect_in_log(&ep, "info string book ");
    if (strstr(ep.log, "refused"))
        fail_msg("a value of 1023 characters refused:\n%.2000s", ep.log);
    free(path);
}

static void test_long_option_values_ucci(void **state)
{
    (void)state;
    char *path = long_book_path(1500);
    ep_send(&ep, "setoption bookfiles %s", path);
    limits_sync_uci(&ep);
    limits_expect_in_log(&ep, "refused");
    ep.log[0] = 0;
    ep_send(&ep, "setoption name BookFile value %s", path);
    limits_sync_uci(&ep);
    limits_expect_in_log(&ep, "refused");
    free(path);
}

static void test_long_option_values_xboard(void **state)
{
    (void)state;
    char *path = long_book_path(1500);
    ep_send(&ep, "option BookFile=%s", path);
    limits_sync_xboard(&ep, 1);
    limits_expect_in_log(&ep, "refused");
    free(path);
}

/* BookFile empty (no value, an empty one, "<empty>"): no book, in UCI and
 * UCCI, whatever OwnBook or usebook say after it; <built-in> brings the
 * built-in book back. */
static void book_or_search(const char *book_text, bool want_book)
{
    ep_send(&ep, "position startpos");
    ep_send(&ep, "go depth 3");
    ep_want(&ep, "bestmove", LIMITS_WAIT_MS);
    if (want_book != (strstr(ep.log, book_text) != NULL))
        fail_msg("expected %s:\n%.2000s", want_book ? "a book move" : "a search, no book", ep.log);
}

static void test_book_file_empty_uci(void **state)
{
    (void)state;
    static const char *const empties[] = {"setoption name BookFile value", "setoption name BookFile",
                                          "setoption name BookFile value <empty>"};
    for (int i = 0; i < 3; i++) {
        ep_send(&ep, "setoption name BookFile value <built-in>");
        ep_send(&ep, "setoption name OwnBook value true");
        book_or_search("info string book ", true);
        ep_send(&ep, "%s", empties[i]);
        ep_send(&ep, "setoption name OwnBook value true");
        book_or_search("info string book ", false);
    }
}

static void test_book_file_empty_ucci(void **state)
{
    (void)state;
    ep_send(&ep, "setoption usebook true");
    book_or_search("info message book ", true);
    ep_send(&ep, "setoption bookfiles");
    ep_send(&ep, "setoption usebook true");
    book_or_search("info message book ", false);
    ep_send(&ep, "setoption bookfiles <built-in>");
    book_or_search("info message book ", true);
    ep_send(&ep, "setoption bookfiles <empty>");
    ep_send(&ep, "setoption usebook false");
    ep_send(&ep, "setoption usebook true");
    book_or_search("info message book ", false);
}

/* ---- control characters ---- */

/* Bad lines full of ESC and BEL, in every protocol: the replies quote
 * them (an option name, a value, a move, a path), never raw. */
static void check_no_control(const char *hello, const char *session, const char *sync, const char *want)
{
    if (limits_start(&ep, hello))
        fail_msg("cannot start the engine");
    ep_send_raw(&ep, session, strlen(session));
    ep_send(&ep, "%s", sync);
    ep.log[0] = 0;
    if (!ep_expect(&ep, want, LIMITS_WAIT_MS, ep.log, sizeof ep.log))
        fail_msg("%s: no '%s'", hello, want);
    for (const char *p = ep.log; *p; p++)
        if (((unsigned char)*p < 32 && *p != '\n') || *p == 127)
            fail_msg("%s: a control character (%d) in a reply:\n%.3000s", hello, *p, ep.log);
    if (!strchr(ep.log, '?'))
        fail_msg("%s: the bad lines were not answered:\n%.3000s", hello, ep.log);
    ep_send(&ep, "quit");
    ep_finish(&ep, LIMITS_WAIT_MS);
}

static void test_control_chars_echo(void **state)
{
    (void)state;
    static const char bad[] = "setoption name Hash\x1b[2J value 1\x07x\n"
                              "setoption name Hash value 9\x1bz\n"
                              "setoption name \x1b" "BookFile value /no\x07ne\n"
                              "setoption name BookFile value /x\x1by\n"
                              "position fen rnb\x1bkabnr/9 w\n"
                              "position startpos moves h2e2 \x1b[31m\n"
                              "setoption name Repetition Rule value \x1bx\n"
                              "go depth \x07\n";
    check_no_control("uci", bad, "isready", "readyok");
    static const char bad_ucci[] = "setoption hashsize \x07\n"
                                   "setoption bookfiles /x\x1by\n"
                                   "setoption usebook \x1b\n"
                                   "banmoves \x1b\n"
                                   "probe fen \x1b\n";
    char both[1024];
    snprintf(both, sizeof both, "%s%s", bad, bad_ucci);
    check_no_control("ucci", both, "isready", "readyok");
    check_no_control("xboard",
                     "protover 2\nsetboard \x1b\nusermove \x1b\x07\noption Hash=\x1b\noption \x1b=1\n"
                     "option BookFile=/x\x1by\nlevel \x1b\nsd \x07\nping \x1b\n",
                     "ping 99", "pong 99");
}

/* A test on the engine under test, started by setup in one protocol. */
#define PROTO_TEST(f, setup) cmocka_unit_test_prestate_setup_teardown(f, setup, limits_teardown, &ep)

const struct CMUnitTest *limits_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_line),
        cmocka_unit_test(test_cr_line_ends),
        cmocka_unit_test(test_control_chars_echo),
        PROTO_TEST(test_long_line_uci, limits_setup_uci),
        PROTO_TEST(test_long_line_ucci, limits_setup_ucci),
        PROTO_TEST(test_long_line_xboard, limits_setup_xboard),
        PROTO_TEST(test_long_first_line, limits_setup_bare),
        PROTO_TEST(test_position_moves_uci, limits_setup_uci),
        PROTO_TEST(test_position_moves_ucci, limits_setup_ucci),
        PROTO_TEST(test_game_length_xboard, limits_setup_xboard),
        PROTO_TEST(test_book_file_device, limits_setup_uci),
        PROTO_TEST(test_book_file_fifo, limits_setup_uci),
        PROTO_TEST(test_long_option_values_uci, limits_setup_uci),
        PROTO_TEST(test_long_option_values_ucci, limits_setup_ucci),
        PROTO_TEST(test_long_option_values_xboard, limits_setup_xboard),
        PROTO_TEST(test_book_file_empty_uci, limits_setup_uci),
        PROTO_TEST(test_book_file_empty_ucci, limits_setup_ucci),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
