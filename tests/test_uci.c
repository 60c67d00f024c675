/* The UCI front-end, driven through pipes like a GUI: the handshake, games
 * of position/go, every go mode, and malformed input that must be answered
 * with an info string while the engine keeps serving. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/board/movegen.h"
#include "pipe.h"
#include "tests.h"

static EngineProc ep;

/* Most tests search: the book would answer their opening positions. */
/* The engine is up when it answers isready: the tests' clocks start then
 * (mpirun takes a while to start the ranks: make test-mpi). */
static int start(bool book)
{
    if (!ep_start_engine(&ep))
        return -1;
    if (!book)
        ep_send(&ep, "setoption name OwnBook value false");
    ep_send(&ep, "isready");
    return ep_expect(&ep, "readyok", 5000 * ep_slow(), NULL, 0) ? 0 : -1;
}

static int setup(void **state)
{
    (void)state;
    return start(false);
}

static int setup_with_book(void **state)
{
    (void)state;
    return start(true);
}

static int teardown(void **state)
{
    (void)state;
    ep_send(&ep, "quit");
    return ep_finish(&ep, 5000) == 0 ? 0 : -1;
}

static void test_handshake(void **state)
{
    (void)state;
    ep_send(&ep, "uci");
    ep_want(&ep, "uciok", 5000);
    assert_non_null(strstr(ep.log, "id name Chuhan"));
    static const char *const options[] = {"Threads", "Hash", "Clear Hash", "MultiPV", "Ponder", "Move Overhead",
                                          "UCI_ShowWDL", "Repetition Rule", "Sixty Move Rule", "OwnBook",
                                          "BookFile", "BookDepth", "BookVariety", "Skill Level",
                                          "UCI_LimitStrength", "UCI_Elo", "Debug Log File"};
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        char want[64];
        snprintf(want, sizeof want, "option name %s type", options[i]);
        if (!strstr(ep.log, want))
            fail_msg("no '%s' in:\n%s", want, ep.log);
    }
    ep_send(&ep, "isready");
    ep_want(&ep, "readyok", 5000);
}

static void test_position_moves_and_go_depth(void **state)
{
    (void)state;
    const char *moves = "h2e2 h9g7 h0g2 i9h9";
    ep_send(&ep, "ucinewgame");
    ep_send(&ep, "position startpos moves %s", moves);
    ep_send(&ep, "go depth 6");
    const char *l = ep_want(&ep, "bestmove", 20000);
    ep_assert_legal_reply(l, "bestmove", START_FEN, moves, NULL);
    assert_non_null(strstr(ep.log, "info depth 6 "));
    assert_non_null(strstr(ep.log, " score cp "));
    assert_non_null(strstr(ep.log, " nodes "));
    assert_non_null(strstr(ep.log, " nps "));
    assert_non_null(strstr(ep.log, " hashfull "));
    assert_non_null(strstr(ep.log, " time "));
    assert_non_null(strstr(ep.log, " pv "));
    /* the bare "fen" form and 'r' for Red */
    ep_send(&ep, "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1 moves b2e2");
    ep_send(&ep, "go depth 3");
    l = ep_want(&ep, "bestmove", 20000);
    ep_assert_legal_reply(l, "bestmove", START_FEN, "b2e2", NULL);
}

static void test_go_movetime(void **state)
{
    (void)state;
    ep_send(&ep, "position startpos");
    long t0 = now_ms();
    ep_send(&ep, "go movetime 300");
    const char *l = ep_want(&ep, "bestmove", 5000);
    long dt = now_ms() - t0;
    ep_assert_legal_reply(l, "bestmove", START_FEN, NULL, NULL);
    assert_true(dt >= 250);
    assert_true(dt < 2000L * ep_slow());
}

static void test_go_infinite_and_stop(void **state)
{
    (void)state;
    ep_send(&ep, "position startpos moves h2e2");
    ep_send(&ep, "go infinite");
    /* nothing but info until stop */
    const char *l = ep_read_line(&ep, 500);
    assert_non_null(l);
    assert_true(!strncmp(l, "info", 4));
    l = ep_expect(&ep, "bestmove", 600, NULL, 0);
    assert_null(l);
    /* a second go while thinking is refused, not queued behind the first */
    ep_send(&ep, "go depth 3");
    ep_send(&ep, "isready");
    ep_want(&ep, "readyok", 2000);
    assert_non_null(strstr(ep.log, "info string go: already searching"));
    long t0 = now_ms();
    ep_send(&ep, "stop");
    l = ep_want(&ep, "bestmove", 2000);
    assert_true(now_ms() - t0 < 1000L * ep_slow());
    ep_assert_legal_reply(l, "bestmove", START_FEN, "h2e2", NULL);
}

static void test_tiny_clock(void **state)
{
    (void)state;
    ep_send(&ep, "position startpos moves h2e2 h9g7");
    long t0 = now_ms();
    ep_send(&ep, "go wtime 150 btime 150 winc 0 binc 0");
    const char *l = ep_want(&ep, "bestmove", 3000);
    long dt = now_ms() - t0;
    ep_assert_legal_reply(l, "bestmove", START_FEN, "h2e2 h9g7", NULL);
    if (dt >= 150L * ep_slow())
        fail_msg("bestmove after %ld ms on a 150 ms clock", dt);
    /* and a normal clock with increment */
    ep_send(&ep, "go wtime 2000 btime 2000 winc 100 binc 100 movestogo 10");
    l = ep_want(&ep, "bestmove", 3000);
    ep_assert_legal_reply(l, "bestmove", START_FEN, "h2e2 h9g7", NULL);
}

static void test_ponder_and_ponderhit(void **state)
{
    (void)state;
    ep_send(&ep, "setoption name Ponder value true");
    ep_send(&ep, "position startpos moves h2e2 h9g7");
    ep_send(&ep, "go ponder wtime 1000 btime 1000");
    assert_null(ep_expect(&ep, "bestmove", 1200, NULL, 0)); /* pondering never ends by itself */
    ep_send(&ep, "ponderhit");
    const char *l = ep_want(&ep, "bestmove", 3000);
    ep_assert_legal_reply(l, "bestmove", START_FEN, "h2e2 h9g7", NULL);
}

/* A pondering search waits for the ponder hit however it would end: a
 * node limit or a mate found did send the move at once. */
static void test_ponder_with_nodes_and_mate(void **state)
{
    (void)state;
    static const char *const gos[] = {"go ponder nodes 3000", "go ponder mate 1"};
    static const char *const fens[] = {"startpos moves h2e2 h9g7", "fen 3k5/9/9/9/9/9/9/4R4/9/4K4 w - - 0 1"};
    for (int i = 0; i < 2; i++) {
        ep_send(&ep, "position %s", fens[i]);
        ep_send(&ep, "%s", gos[i]);
        if (ep_expect(&ep, "bestmove", 700, NULL, 0))
            fail_msg("%s: bestmove before the ponder hit", gos[i]);
        ep_send(&ep, "ponderhit");
        ep_want(&ep, "bestmove", 3000);
    }
}

/* "go depth infinite" (some GUIs send it) searches until stop. */
static void test_go_depth_infinite(void **state)
{
    (void)state;
    ep_send(&ep, "position startpos");
    ep_send(&ep, "go depth infinite");
    static char log[8192];
    log[0] = 0;
    assert_null(ep_expect(&ep, "bestmove", 500, log, sizeof log));
    assert_false(log_has_line(log, "info string go"));
    ep_send(&ep, "stop");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", 3000), "bestmove", NULL, NULL, NULL);
}

static void test_no_legal_move(void **state)
{
    (void)state;
    ep_send(&ep, "position fen 5k3/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1");
    ep_send(&ep, "go depth 5");
    const char *l = ep_want(&ep, "bestmove", 5000);
    assert_string_equal(l, "bestmove (none)");
    assert_non_null(strstr(ep.log, "score mate 0"));
}

/* A win by the repetition rules is a mate at its distance, not "cp 29999":
 * Red's cannon chases Black's chariot round (FS-01 of the rule cases), and
 * Black's b7a7 completes the cycle that Red broke the rules with. */
#define CHASE_FEN "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1"
#define CHASE_MOVES "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2"

static void test_rule_win_is_a_mate(void **state)
{
    (void)state;
    ep_send(&ep, "position fen " CHASE_FEN " moves " CHASE_MOVES);
    ep_send(&ep, "go depth 6");
    const char *l = ep_want(&ep, "bestmove", 10000);
    assert_string_equal(l, "bestmove b7a7");
    if (!strstr(ep.log, "depth 6 seldepth 6 multipv 1 score mate 1 ") || strstr(ep.log, "score cp"))
        fail_msg("the rule win is not reported as mate 1:\n%s", ep.log);
    /* and the side that must vary sees itself lost as soon as it repeats */
    ep_send(&ep, "position fen " CHASE_FEN " moves " CHASE_MOVES " b7a7");
    ep_send(&ep, "go depth 4 searchmoves b2a2");
    ep_want(&ep, "bestmove", 10000);
    if (!strstr(ep.log, "score mate -1 "))
        fail_msg("the forbidden repetition is not reported as mate -1:\n%s", ep.log);
}

static void test_multipv_and_wdl(void **state)
{
    (void)state;
    ep_send(&ep, "setoption name MultiPV value 3");
    ep_send(&ep, "setoption name UCI_ShowWDL value true");
    ep_send(&ep, "position startpos");
    ep_send(&ep, "go depth 5");
    ep_want(&ep, "bestmove", 10000);
    assert_non_null(strstr(ep.log, "multipv 3"));
    assert_non_null(strstr(ep.log, " wdl "));
    ep_send(&ep, "setoption name MultiPV value 1");
    ep_send(&ep, "setoption name UCI_ShowWDL value false");
    ep_send(&ep, "isready");
    ep_want(&ep, "readyok", 5000);
}

static const char *const MALFORMED[] = {
    "position startpos moves h2e2 h2e2",
    "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves z9z9",
    "fen",
    "go wtime abc",
    "go searchmoves z9z9",
    "go mate x",
    "setoption value 5",
    "setoption name Hash value abc",
    "setoption name Hash value 0",
    "setoption name Hash value 99999999999999999999",
    "setoption name Threads value 100000",
    "setoption name MultiPV value -1",
    "setoption name Ponder value maybe",
    "setoption name UCI_ShowWDL value yes",
    "setoption name Repetition Rule value chess",
    "posit1on startpos",
};
_Static_assert(EP_BAD_COMMANDS_NB + sizeof MALFORMED / sizeof MALFORMED[0] >= 25, "a good many malformed commands");

static void test_malformed_commands(void **state)
{
    (void)state;
    ep_send(&ep, "position startpos moves h2e2");
    ep_check_malformed(&ep, &EP_UCI, EP_BAD_COMMANDS, EP_BAD_COMMANDS_NB);
    ep_check_malformed(&ep, &EP_UCI, MALFORMED, sizeof MALFORMED / sizeof MALFORMED[0]);

    /* the last good position is still there, and go works */
    ep_send(&ep, "d");
    ep_want(&ep, "Fen:", 5000);
    assert_non_null(strstr(ep.log, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"));
    ep_send(&ep, "go depth 4");
    const char *l = ep_want(&ep, "bestmove", 10000);
    ep_assert_legal_reply(l, "bestmove", START_FEN, "h2e2", NULL);
    /* an unknown go parameter is reported and the search still runs */
    ep_send(&ep, "go sideways depth 2");
    l = ep_want(&ep, "bestmove", 10000);
    assert_non_null(strstr(ep.log, "info string go: unknown parameter 'sideways'"));
}

static void test_long_game_position(void **state)
{
    (void)state;
    /* a position command with hundreds of moves (repeating horse moves) */
    static char cmd[16384];
    strcpy(cmd, "position startpos moves");
    for (int i = 0; i < 100; i++)
        strcat(cmd, " h0g2 h9g7 g2h0 g7h9");
    ep_send(&ep, "%s", cmd);
    ep_send(&ep, "go depth 3");
    const char *l = ep_want(&ep, "bestmove", 10000);
    ep_assert_legal_reply(l, "bestmove", START_FEN, NULL, NULL);
}

/* A game from the start: book moves with an info string, until the game
 * leaves the book; then the search takes over. */
static void test_book_moves(void **state)
{
    (void)state;
    static char moves[4096];
    moves[0] = 0;
    int book_moves = 0;
    bool searched = false;
    for (int ply = 0; ply < 40 && !searched; ply++) {
        ep_send(&ep, "position startpos%s%s", moves[0] ? " moves" : "", moves);
        ep_send(&ep, "go wtime 5000 btime 5000");
        const char *l = ep_want(&ep, "bestmove", 10000);
        char move[16];
        assert_int_equal(sscanf(l, "bestmove %15s", move), 1);
        ep_assert_legal_reply(l, "bestmove", START_FEN, moves, NULL);
        if (strstr(ep.log, "info string book ")) {
            assert_null(strstr(ep.log, "info depth"));
            book_moves++;
        } else {
            assert_non_null(strstr(ep.log, "info depth"));
            searched = true;
        }
        strcat(moves, " ");
        strcat(moves, move);
    }
    assert_true(book_moves >= 4);
    assert_true(searched);
    /* a broken book file: a clear message, and the engine plays on */
    ep_send(&ep, "setoption name BookFile value /nonexistent/book.bin");
    ep_send(&ep, "position startpos");
    ep_send(&ep, "go depth 3");
    const char *l = ep_want(&ep, "bestmove", 10000);
    assert_non_null(strstr(ep.log, "info string book /nonexistent/book.bin"));
    ep_assert_legal_reply(l, "bestmove", START_FEN, NULL, NULL);
    /* OwnBook off: the start position is searched */
    ep_send(&ep, "setoption name BookFile value <built-in>");
    ep_send(&ep, "setoption name OwnBook value false");
    ep_send(&ep, "go depth 3");
    ep_want(&ep, "bestmove", 10000);
    assert_null(strstr(ep.log, "info string book"));
}

/* ---- UCI_Variant: the variant mode of cutechess and Fairy-Stockfish ---- */

/* A move written with ranks 1-10, legal after fen + moves (also 1-10). */
static Move legal_rank1(const char *fen, const char *moves, const char *move)
{
    static Position pos;
    assert_true(pos_set_fen(&pos, fen, NULL, 0));
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        Move m = parse_move(&pos, t, true);
        assert_int_not_equal(m, MOVE_NONE);
        pos_do_move(&pos, m);
    }
    return parse_move(&pos, move, true);
}

/* Black's king d9 has one move, d9d8: "d10d9" with ranks 1-10. */
#define LONE_KING_FEN "3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1"

/* The bestmove line's move must read exactly so, and its ponder move (if
 * any) be legal after it when read with the same rank numbering. */
static void assert_best_ponder(const char *line, const char *best, bool rank1)
{
    char b[16] = "", p[16] = "";
    assert_true(sscanf(line, "bestmove %15s ponder %15s", b, p) >= 1);
    assert_string_equal(b, best);
    if (!*p)
        return;
    static Position pos;
    assert_true(pos_set_fen(&pos, LONE_KING_FEN, NULL, 0));
    pos_do_move(&pos, parse_move(&pos, b, rank1));
    if (parse_move(&pos, p, rank1) == MOVE_NONE)
        fail_msg("ponder move '%s' is not legal after %s (ranks %s)", p, b, rank1 ? "1-10" : "0-9");
}

static void test_uci_variant(void **state)
{
    (void)state;
    ep_send(&ep, "uci");
    ep_want(&ep, "uciok", 5000);
    assert_non_null(strstr(ep.log, "option name UCI_Variant type combo default xiangqi var xiangqi\n"));
    /* never set: ranks 0-9 */
    ep_send(&ep, "position fen " LONE_KING_FEN);
    ep_send(&ep, "go depth 3");
    assert_best_ponder(ep_want(&ep, "bestmove", 5000), "d9d8", false);
    assert_non_null(strstr(ep.log, " pv d9d8"));
    /* a bad value is refused and changes nothing */
    ep_send(&ep, "setoption name UCI_Variant value chess");
    ep_send(&ep, "go depth 3");
    assert_best_ponder(ep_want(&ep, "bestmove", 5000), "d9d8", false);
    assert_non_null(strstr(ep.log, "info string UCI_Variant must be xiangqi"));
    /* set: ranks 1-10 out... */
    ep_send(&ep, "setoption name UCI_Variant value xiangqi");
    ep_send(&ep, "go depth 3");
    assert_best_ponder(ep_want(&ep, "bestmove", 5000), "d10d9", true);
    assert_non_null(strstr(ep.log, " pv d10d9"));
    /* ...and in: position moves, searchmoves, ponder */
    const char *moves = "h3e3 h10g8 h1g3 i10h10";
    ep_send(&ep, "position startpos moves %s", moves);
    ep_send(&ep, "go depth 5 searchmoves b1c3 i1h1");
    const char *l = ep_want(&ep, "bestmove", 20000);
    char best[16] = "", ponder[16] = "";
    assert_true(sscanf(l, "bestmove %15s ponder %15s", best, ponder) >= 1);
    if (strcmp(best, "b1c3") && strcmp(best, "i1h1"))
        fail_msg("bestmove '%s' outside searchmoves", best);
    assert_int_not_equal(legal_rank1(START_FEN, moves, best), MOVE_NONE);
    if (*ponder) {
        char after[256];
        snprintf(after, sizeof after, "%s %s", moves, best);
        assert_int_not_equal(legal_rank1(START_FEN, after, ponder), MOVE_NONE);
    }
    /* every PV move is in the 1-10 form */
    const char *pv = strstr(ep.log, " pv ");
    assert_non_null(pv);
    char first_pv[16];
    assert_int_equal(sscanf(pv, " pv %15s", first_pv), 1);
    assert_int_not_equal(legal_rank1(START_FEN, moves, first_pv), MOVE_NONE);
    /* a 0-9 move list means other points now: h2e2 moves nothing */
    ep_send(&ep, "position startpos moves h2e2");
    ep_send(&ep, "isready");
    ep_want(&ep, "readyok", 5000);
    assert_non_null(strstr(ep.log, "info string position: illegal move 'h2e2'"));
    /* ucinewgame keeps the mode */
    ep_send(&ep, "ucinewgame");
    ep_send(&ep, "position fen " LONE_KING_FEN);
    ep_send(&ep, "go depth 2");
    assert_best_ponder(ep_want(&ep, "bestmove", 5000), "d10d9", true);
}


/* Debug Log File: a file that cannot be opened is refused with the reason;
 * one that can holds every line of the session, in and out, exactly, each
 * with its time and direction; an empty name turns it off. */
static void test_debug_log(void **state)
{
    (void)state;
    ep_send(&ep, "setoption name Debug Log File value /nonexistent-chuhan-dir/x.log");
    ep_send(&ep, "isready");
    ep_want(&ep, "readyok", 5000);
    assert_true(log_has_line(ep.log, "info string Debug Log File: cannot open '/nonexistent-chuhan-dir/x.log': "
                                     "No such file or directory"));
    char path[] = "/tmp/chuhan-debug-log-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    ep_send(&ep, "setoption name Debug Log File value %s", path);
    static const char *const script[] = {"isready", "ucinewgame", "position startpos moves h2e2 h9g7", "",
                                         "go depth 3", "frobnicate", "isready", "setoption name MultiPV value 2",
                                         "go depth 2", "setoption name Debug Log File value"};
    static char got[1 << 16], want_in[4096], in[1 << 16], out[1 << 16];
    got[0] = want_in[0] = 0;
    size_t n = sizeof script / sizeof script[0];
    for (size_t i = 0; i < n; i++) {
        ep_send(&ep, "%s", script[i]);
        size_t used = strlen(want_in);
        snprintf(want_in + used, sizeof want_in - used, "%s\n", script[i]);
        const char *until = !strcmp(script[i], "isready") ? "readyok" : !strncmp(script[i], "go", 2) ? "bestmove" : NULL;
        if (until && !ep_expect(&ep, until, 20000, got, sizeof got))
            fail_msg("no %s; got:\n%s", until, got);
    }
    /* the log is off: this is not in it */
    ep_send(&ep, "isready");
    ep_want(&ep, "readyok", 5000);
    dlog_split(path, in, sizeof in, out, sizeof out);
    unlink(path);
    if (strcmp(in, want_in))
        fail_msg("lines read, logged:\n%s\nsent:\n%s", in, want_in);
    if (strcmp(out, got))
        fail_msg("lines written, logged:\n%s\nread by the GUI:\n%s", out, got);
    assert_non_null(strstr(out, "info string unknown command 'frobnicate'\n"));
    assert_non_null(strstr(out, " multipv 2 "));
}

const struct CMUnitTest *uci_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_handshake, setup, teardown),
        cmocka_unit_test_setup_teardown(test_position_moves_and_go_depth, setup, teardown),
        cmocka_unit_test_setup_teardown(test_go_movetime, setup, teardown),
        cmocka_unit_test_setup_teardown(test_go_infinite_and_stop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tiny_clock, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ponder_and_ponderhit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ponder_with_nodes_and_mate, setup, teardown),
        cmocka_unit_test_setup_teardown(test_go_depth_infinite, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_legal_move, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rule_win_is_a_mate, setup, teardown),
        cmocka_unit_test_setup_teardown(test_multipv_and_wdl, setup, teardown),
        cmocka_unit_test_setup_teardown(test_malformed_commands, setup, teardown),
        cmocka_unit_test_setup_teardown(test_long_game_position, setup, teardown),
        cmocka_unit_test_setup_teardown(test_book_moves, setup_with_book, teardown),
        cmocka_unit_test_setup_teardown(test_uci_variant, setup, teardown),
        cmocka_unit_test_setup_teardown(test_debug_log, setup, teardown),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
