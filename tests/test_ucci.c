/* The UCCI front-end, driven through pipes like a UCCI GUI: the handshake,
 * banmoves, go with the clock in seconds and milliseconds, probe/pophash,
 * draws and resignation, quit/bye, and malformed lines answered with an
 * "info message" while the engine keeps serving. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/board/movegen.h"
#include "pipe.h"
#include "tests.h"

static EngineProc ep;

/* The engine in UCCI mode, its book off so that searches are searched. */
static int setup(void **state)
{
    (void)state;
    if (!ep_start_engine(&ep))
        return -1;
    ep_send(&ep, "ucci");
    if (!ep_expect(&ep, "ucciok", 5000 * ep_slow(), NULL, 0))
        return -1;
    ep_send(&ep, "setoption usebook false");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    ep_send(&ep, "quit");
    return ep_finish(&ep, 5000) == 0 ? 0 : -1;
}

/* Red's rook a0 takes the hanging black rook on a4: the obvious move. */
#define ROOK_FEN "3aka3/9/9/9/9/r8/9/9/9/R2K5 w - - 0 1"

static void test_ucci_handshake(void **state)
{
    (void)state;
    ep_send(&ep, "ucci");
    ep_want(&ep, "ucciok", 5000);
    assert_non_null(strstr(ep.log, "id name Chuhan"));
    static const char *const options[] = {
        "option usemillisec type check", "option hashsize type spin", "option threads type spin",
        "option ponder type check",      "option usebook type check", "option bookfiles type string",
        "option newgame type button",    "option offerdraw type check default false",
        "option acceptdraw type check default true", "option resign type check default false",
        "option repetitionrule type combo var cxa var axf var draw default cxa",
    };
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (!strstr(ep.log, options[i]))
            fail_msg("no '%s' in:\n%s", options[i], ep.log);
    ep_send(&ep, "isready");
    ep_want(&ep, "readyok", 5000);
    /* the UCI names are not what a UCCI engine offers */
    assert_null(strstr(ep.log, "option name"));
}

static void test_ucci_banmoves(void **state)
{
    (void)state;
    char move[16];
    ep_send(&ep, "position fen " ROOK_FEN);
    ep_send(&ep, "go depth 6");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", 20000), "bestmove", ROOK_FEN, NULL, move);
    assert_string_equal(move, "a0a4");
    /* banned, it is not played, at any depth */
    for (int depth = 1; depth <= 6; depth += 5) {
        ep_send(&ep, "banmoves a0a4");
        ep_send(&ep, "go depth %d", depth);
        ep_assert_legal_reply(ep_want(&ep, "bestmove", 20000), "bestmove", ROOK_FEN, NULL, move);
        assert_string_not_equal(move, "a0a4");
        assert_null(strstr(ep.log, "pv a0a4"));
    }
    /* several banned moves, one of them illegal (reported, the rest kept) */
    ep_send(&ep, "banmoves a0a4 a0a1 z9z9");
    ep_send(&ep, "go depth 4");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", 20000), "bestmove", ROOK_FEN, NULL, move);
    assert_non_null(strstr(ep.log, "info message banmoves: 'z9z9'"));
    assert_string_not_equal(move, "a0a4");
    assert_string_not_equal(move, "a0a1");
    /* the next position clears them */
    ep_send(&ep, "position fen " ROOK_FEN);
    ep_send(&ep, "go depth 4");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", 20000), "bestmove", ROOK_FEN, NULL, move);
    assert_string_equal(move, "a0a4");
    /* every legal move banned: nobestmove, at once */
    ep_send(&ep, "position fen 3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1"); /* only d9d8 */
    ep_send(&ep, "banmoves d9d8");
    ep_send(&ep, "go depth 5");
    const char *l = ep_want(&ep, "nobestmove", 5000);
    assert_string_equal(l, "nobestmove");
    assert_null(strstr(ep.log, "bestmove d9d8"));
}

static void test_ucci_go_time(void **state)
{
    (void)state;
    char move[16];
    /* milliseconds */
    ep_send(&ep, "setoption usemillisec true");
    ep_send(&ep, "position startpos moves h2e2 h9g7");
    long t0 = now_ms();
    ep_send(&ep, "go time 1500 increment 0 opptime 1500 oppincrement 0");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", 5000), "bestmove", START_FEN, "h2e2 h9g7", move);
    long dt = now_ms() - t0;
    if (dt >= 1500L * ep_slow())
        fail_msg("bestmove after %ld ms on a 1500 ms clock", dt);
    assert_non_null(strstr(ep.log, "info depth "));
    assert_non_null(strstr(ep.log, " score "));
    assert_non_null(strstr(ep.log, " pv "));
    assert_non_null(strstr(ep.log, "info time "));
    /* a tiny clock */
    t0 = now_ms();
    ep_send(&ep, "go time 150 opptime 60000");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", 3000), "bestmove", START_FEN, "h2e2 h9g7", move);
    dt = now_ms() - t0;
    if (dt >= 150L * ep_slow())
        fail_msg("bestmove after %ld ms on a 150 ms clock", dt);
    /* seconds (the protocol's default unit); fractions accepted */
    ep_send(&ep, "setoption usemillisec false");
    t0 = now_ms();
    ep_send(&ep, "go time 1 movestogo 5 opptime 1 oppmovestogo 5");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", 3000), "bestmove", START_FEN, "h2e2 h9g7", move);
    dt = now_ms() - t0;
    if (dt >= 1000L * ep_slow())
        fail_msg("bestmove after %ld ms on a 1 s clock", dt);
    t0 = now_ms();
    ep_send(&ep, "go time 0.4 increment 0.1");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", 3000), "bestmove", START_FEN, "h2e2 h9g7", move);
    assert_true(now_ms() - t0 < 400L * ep_slow());
    /* nodes, and infinite until stop */
    ep_send(&ep, "go nodes 20000");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", 10000), "bestmove", START_FEN, "h2e2 h9g7", move);
    ep_send(&ep, "go infinite");
    assert_null(ep_expect(&ep, "bestmove", 500, NULL, 0));
    ep_send(&ep, "stop");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", 2000), "bestmove", START_FEN, "h2e2 h9g7", move);
}

static void test_ucci_ponder(void **state)
{
    (void)state;
    char move[16];
    ep_send(&ep, "setoption usemillisec true");
    ep_send(&ep, "setoption ponder true");
    ep_send(&ep, "position startpos moves h2e2 h9g7");
    ep_send(&ep, "go ponder time 1000 opptime 1000");
    assert_null(ep_expect(&ep, "bestmove", 1200, NULL, 0)); /* pondering never ends by itself */
    ep_send(&ep, "ponderhit");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", 3000), "bestmove", START_FEN, "h2e2 h9g7", move);
    /* a missed ponder: stop, then the real position */
    ep_send(&ep, "go ponder time 1000 opptime 1000");
    ep_send(&ep, "stop");
    ep_want(&ep, "bestmove", 3000);
    ep_send(&ep, "position startpos moves h2e2 b9c7");
    ep_send(&ep, "go time 500 opptime 500");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", 3000), "bestmove", START_FEN, "h2e2 b9c7", move);
}

static void test_ucci_probe(void **state)
{
    (void)state;
    char move[16], want[64];
    ep_send(&ep, "position fen " ROOK_FEN);
    ep_send(&ep, "go depth 7");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", 20000), "bestmove", ROOK_FEN, NULL, move);
    /* the game position, then the same position named */
    ep_send(&ep, "probe");
    const char *l = ep_want(&ep, "pophash", 5000);
    snprintf(want, sizeof want, "pophash bestmove %s ", move);
    if (strncmp(l, want, strlen(want)) || !strstr(l, " depth "))
        fail_msg("probe: '%s'", l);
    assert_true(strstr(l, "lowerbound") || strstr(l, "upperbound"));
    char first[256];
    snprintf(first, sizeof first, "%s", l);
    ep_send(&ep, "probe fen " ROOK_FEN);
    l = ep_want(&ep, "pophash", 5000);
    assert_string_equal(l, first);
    /* a position the search reached: after the best move */
    ep_send(&ep, "probe fen " ROOK_FEN " moves %s", move);
    l = ep_want(&ep, "pophash", 5000);
    assert_true(!strncmp(l, "pophash", 7));
    /* a position never searched: a bare pophash */
    ep_send(&ep, "probe fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    l = ep_want(&ep, "pophash", 5000);
    assert_string_equal(l, "pophash");
    /* a bad probe: a message and a bare pophash */
    ep_send(&ep, "probe fen " ROOK_FEN " moves a0a9 a9a0");
    l = ep_want(&ep, "pophash", 5000);
    assert_string_equal(l, "pophash");
    assert_non_null(strstr(ep.log, "info message probe: illegal move"));
    /* probing while thinking is answered at once */
    ep_send(&ep, "go infinite");
    ep_send(&ep, "probe");
    ep_want(&ep, "pophash", 2000);
    assert_false(!strncmp(ep.log, "bestmove", 8) || strstr(ep.log, "\nbestmove"));
    ep_send(&ep, "stop");
    ep_want(&ep, "bestmove", 2000);
}

static void test_ucci_draw_and_resign(void **state)
{
    (void)state;
    char move[16];
    const char *kings = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 30";
    /* a draw offered in a dead draw is accepted (acceptdraw is on) */
    ep_send(&ep, "position fen %s", kings);
    ep_send(&ep, "go draw depth 5");
    const char *l = ep_want(&ep, "bestmove", 10000);
    ep_assert_legal_reply(l, "bestmove", kings, NULL, move);
    assert_non_null(strstr(l, " draw"));
    ep_send(&ep, "go depth 5");
    assert_null(strstr(ep_want(&ep, "bestmove", 10000), "draw"));
    ep_send(&ep, "setoption acceptdraw false");
    ep_send(&ep, "go draw depth 5");
    assert_null(strstr(ep_want(&ep, "bestmove", 10000), "draw"));
    /* nor accepted when the engine is winning */
    ep_send(&ep, "setoption acceptdraw true");
    ep_send(&ep, "position fen " ROOK_FEN);
    ep_send(&ep, "go draw depth 5");
    assert_null(strstr(ep_want(&ep, "bestmove", 10000), "draw"));
    /* the offer comes with ponderhit draw too */
    ep_send(&ep, "position fen %s", kings);
    ep_send(&ep, "go ponder depth 4");
    ep_send(&ep, "ponderhit draw");
    assert_non_null(strstr(ep_want(&ep, "bestmove", 10000), " draw"));

    /* offered by the engine after three level searches in a row */
    ep_send(&ep, "setoption offerdraw true");
    static const char *const line[] = {"", " moves e0e1 d9d8", " moves e0e1 d9d8 e1e0 d8d9"};
    for (int i = 0; i < 3; i++) {
        ep_send(&ep, "position fen %s%s", kings, line[i]);
        ep_send(&ep, "go depth 4");
        l = ep_want(&ep, "bestmove", 10000);
        if ((strstr(l, " draw") != NULL) != (i == 2))
            fail_msg("search %d: '%s'", i + 1, l);
    }
    ep_send(&ep, "setoption offerdraw false");

    /* resignation: off by default, then on */
    const char *lost = "3k5/9/9/9/9/9/1rr6/9/9/4K4 w - - 0 1";
    ep_send(&ep, "position fen %s", lost);
    ep_send(&ep, "go depth 6");
    assert_null(strstr(ep_want(&ep, "bestmove", 10000), "resign"));
    ep_send(&ep, "setoption resign true");
    ep_send(&ep, "go depth 6");
    l = ep_want(&ep, "bestmove", 10000);
    ep_assert_legal_reply(l, "bestmove", lost, NULL, move);
    assert_non_null(strstr(l, " resign"));
    /* never in a won position */
    ep_send(&ep, "position fen " ROOK_FEN);
    ep_send(&ep, "go depth 5");
    assert_null(strstr(ep_want(&ep, "bestmove", 10000), "resign"));
}

/* A win by the repetition rules in ElephantEye's band, 9900 less the plies
 * to it: Red's cannon chases Black's chariot round (FS-01 of the rule
 * cases), and Black's b7a7 completes the cycle Red broke the rules with. */
static void test_ucci_rule_win_score(void **state)
{
    (void)state;
    ep_send(&ep, "position fen 2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1 moves c2a2 "
                 "a7b7 a2b2 b7a7 b2a2 a7b7 a2b2");
    ep_send(&ep, "go depth 6");
    assert_string_equal(ep_want(&ep, "bestmove", 10000), "bestmove b7a7");
    if (!strstr(ep.log, "info depth 6 score 9899 pv b7a7"))
        fail_msg("no rule win one ply away:\n%s", ep.log);
}

static void test_ucci_no_move_depth0_and_idle_stop(void **state)
{
    (void)state;
    /* checkmated: nobestmove */
    ep_send(&ep, "position fen 5k3/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1");
    ep_send(&ep, "go depth 5");
    assert_string_equal(ep_want(&ep, "nobestmove", 5000), "nobestmove");
    assert_null(strstr(ep.log, "bestmove (none)"));
    /* depth 0: the static evaluation and no move */
    ep_send(&ep, "position startpos");
    ep_send(&ep, "go depth 0");
    ep_want(&ep, "nobestmove", 5000);
    assert_non_null(strstr(ep.log, "info depth 0 score "));
    /* a stop that crosses the reply is ignored: one reply per go */
    ep_send(&ep, "stop");
    ep_send(&ep, "isready");
    ep_want(&ep, "readyok", 5000);
    assert_null(strstr(ep.log, "bestmove"));
    /* a refused go, after answered ones, leaves the GUI waiting: its stop
     * is answered with nobestmove */
    ep_send(&ep, "go depth abc");
    ep_want(&ep, "info message go: 'depth' needs a number", 5000);
    ep_send(&ep, "stop");
    ep_want(&ep, "nobestmove", 5000);
    /* "go depth infinite" (as some GUIs send) searches until stop */
    ep_send(&ep, "go depth infinite");
    static char log[8192];
    log[0] = 0;
    assert_null(ep_expect(&ep, "bestmove", 500, log, sizeof log));
    assert_false(log_has_line(log, "info message go"));
    ep_send(&ep, "stop");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", 5000), "bestmove", NULL, NULL, NULL);
    /* a stop with no go at all: nobestmove, so that a confused GUI never waits */
    ep_send(&ep, "quit");
    assert_int_equal(ep_finish(&ep, 5000), 0);
    assert_true(ep_start_engine(&ep));
    ep_send(&ep, "ucci");
    ep_send(&ep, "stop");
    ep_want(&ep, "nobestmove", 5000);
}

static void test_ucci_quit_bye(void **state)
{
    (void)state;
    ep_send(&ep, "isready");
    ep_want(&ep, "readyok", 5000);
    /* quit during a search: it stops, says bye and exits */
    ep_send(&ep, "position startpos");
    ep_send(&ep, "go infinite");
    ep_send(&ep, "quit");
    ep_want(&ep, "bye", 5000);
    assert_int_equal(ep_finish(&ep, 5000), 0);
    /* the teardown's quit goes nowhere: start another for it */
    assert_true(ep_start_engine(&ep));
    ep_send(&ep, "ucci");
    ep_want(&ep, "ucciok", 5000);
}

static const char *const MALFORMED[] = {
    "banmoves z9z9",
    "banmoves h2",
    "go time",
    "go time abc",
    "go time 1.2.3",
    "go time 5 increment -",
    "go movestogo x",
    "setoption hashsize abc",
    "setoption hashsize 99999999999999999999",
    "setoption threads many",
    "setoption usebook maybe",
    "setoption usemillisec 2",
    "setoption drawmargin x",
    "setoption repetitionrule chess",
    "setoption promotion true",
    "probe fen",
    "probe fen 4k4/9/9/9/9/9/9/9/9/4K4 w",
    "uci",
};
_Static_assert(EP_BAD_COMMANDS_NB + sizeof MALFORMED / sizeof MALFORMED[0] >= 25, "a good many malformed commands");

static void test_ucci_malformed(void **state)
{
    (void)state;
    ep_send(&ep, "position startpos moves h2e2");
    ep_check_malformed(&ep, &EP_UCCI, EP_BAD_COMMANDS, EP_BAD_COMMANDS_NB);
    ep_check_malformed(&ep, &EP_UCCI, MALFORMED, sizeof MALFORMED / sizeof MALFORMED[0]);
    /* the last good position is kept, and go works */
    char move[16];
    ep_send(&ep, "go depth 4");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", 10000), "bestmove", START_FEN, "h2e2", move);
    /* go while thinking is refused, not queued */
    ep_send(&ep, "go infinite");
    ep_send(&ep, "go depth 1");
    ep_send(&ep, "isready");
    ep_want(&ep, "readyok", 5000);
    assert_non_null(strstr(ep.log, "info message go: still thinking"));
    ep_send(&ep, "stop");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", 2000), "bestmove", START_FEN, "h2e2", move);
    assert_null(ep_expect(&ep, "bestmove", 300, NULL, 0));
}

/* The first command picks the protocol: anything but ucci and xboard is UCI. */

/* Debug Log File in UCCI's words (debuglogfile): refused with the reason,
 * then every line in and out until it is turned off. */
static void test_ucci_debug_log(void **state)
{
    (void)state;
    ep_send(&ep, "setoption debuglogfile /nonexistent-chuhan-dir/x.log");
    ep_send(&ep, "isready");
    ep_want(&ep, "readyok", 5000);
    assert_true(log_has_line(ep.log, "info message setoption debuglogfile: Debug Log File: cannot open "
                                     "'/nonexistent-chuhan-dir/x.log': No such file or directory"));
    char path[] = "/tmp/chuhan-debug-log-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    ep_send(&ep, "setoption debuglogfile %s", path);
    ep_send(&ep, "position fen %s", ROOK_FEN);
    ep_send(&ep, "go depth 3");
    ep_want(&ep, "bestmove", 20000);
    static char got[1 << 16], in[1 << 16], out[1 << 16];
    snprintf(got, sizeof got, "%s", ep.log);
    ep_send(&ep, "setoption debuglogfile");
    ep_send(&ep, "isready");
    ep_want(&ep, "readyok", 5000);
    dlog_split(path, in, sizeof in, out, sizeof out);
    unlink(path);
    char want_in[256];
    snprintf(want_in, sizeof want_in, "position fen %s\ngo depth 3\nsetoption debuglogfile\n", ROOK_FEN);
    assert_string_equal(in, want_in);
    assert_string_equal(out, got);
    assert_non_null(strstr(out, "bestmove a0a4"));
}

static void test_protocol_dispatch(void **state)
{
    (void)state;
    ep_send(&ep, "quit");
    assert_int_equal(ep_finish(&ep, 5000), 0);
    assert_true(ep_start_engine(&ep));
    ep_send(&ep, "isready"); /* a UCI command first */
    ep_want(&ep, "readyok", 5000);
    ep_send(&ep, "uci");
    ep_want(&ep, "uciok", 5000);
    ep_send(&ep, "quit");
    assert_int_equal(ep_finish(&ep, 5000), 0);
    assert_true(ep_start_engine(&ep));
    ep_send_raw(&ep, "\n", 1); /* an empty line first */
    ep_send(&ep, "   ucci  ");
    ep_want(&ep, "ucciok", 5000);
}

const struct CMUnitTest *ucci_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_ucci_handshake, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ucci_banmoves, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ucci_go_time, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ucci_ponder, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ucci_probe, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ucci_draw_and_resign, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ucci_rule_win_score, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ucci_no_move_depth0_and_idle_stop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ucci_quit_bye, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ucci_malformed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ucci_debug_log, setup, teardown),
        cmocka_unit_test_setup_teardown(test_protocol_dispatch, setup, teardown),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
