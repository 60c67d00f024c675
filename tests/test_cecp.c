/* The CECP (xboard) front-end, driven through pipes like XBoard: feature
 * negotiation, games of usermove/move with the clock, setboard, undo and
 * remove, ping/pong, analysis, pondering, claims made only when the rules
 * end the game, and malformed lines answered with "Error (...)" or
 * "Illegal move" while the engine keeps serving. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/board/movegen.h"
#include "pipe.h"
#include "tests.h"

static EngineProc ep;
static Position game; /* the game as the test (the GUI) sees it */

/* ping and wait for its pong: everything sent before has been served. */
static void sync_engine(void)
{
    if (!EP_CECP.sync(&ep))
        fail_msg("no pong %d; got:\n%s", ep.pings, ep.log);
}

static void assert_no_claim(const char *log)
{
    if (log_has_line(log, "1-0") || log_has_line(log, "0-1") || log_has_line(log, "1/2-1/2"))
        fail_msg("unexpected claim in:\n%s", log);
}

static void set_game(const char *fen) { assert_true(pos_set_fen(&game, fen, NULL, 0)); }

static void play(const char *text)
{
    Move m = parse_move(&game, text, false);
    if (m == MOVE_NONE)
        fail_msg("'%s' is not legal in the test's game", text);
    pos_do_move(&game, m);
}

/* Our move: the first legal one, sent as usermove. */
static void user_move(void)
{
    Move moves[MAX_MOVES];
    assert_true(gen_legal(&game, moves) > 0);
    char text[8];
    move_str(moves[0], text, false);
    play(text);
    ep_send(&ep, "usermove %s", text);
}

/* The engine's next move: legal in the game, which it then joins. */
static void engine_move(int timeout_ms, char out[8])
{
    const char *l = ep_want(&ep, "move ", timeout_ms);
    char text[8] = "";
    assert_int_equal(sscanf(l, "move %7s", text), 1);
    play(text);
    if (out)
        memcpy(out, text, sizeof text);
}

static int setup(void **state)
{
    (void)state;
    if (!ep_start_engine(&ep))
        return -1;
    ep_send(&ep, "xboard");
    ep_send(&ep, "protover 2");
    if (!ep_expect(&ep, "feature done=1", 5000 * ep_slow(), NULL, 0))
        return -1;
    ep_send(&ep, "option OwnBook=0"); /* the book would answer the openings */
    ep_send(&ep, "new");
    ep_send(&ep, "variant xiangqi");
    set_game(START_FEN);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    ep_send(&ep, "quit");
    return ep_finish(&ep, 5000) == 0 ? 0 : -1;
}

#define ROOK_FEN "3aka3/9/9/9/9/r8/9/9/9/R2K5 w - - 0 1"   /* a0a4 wins a rook */
#define MATE_FEN "3k5/8R/9/9/9/9/9/9/R8/4K4 w - - 0 1"     /* a1a9 and a1d1 mate */
#define CHECKS_FEN "4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1"    /* rook checks on ranks 9 and 8 */
#define KINGS_FEN "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"

static void test_cecp_features(void **state)
{
    (void)state;
    ep_send(&ep, "quit");
    assert_int_equal(ep_finish(&ep, 5000), 0);
    assert_true(ep_start_engine(&ep));
    ep_send(&ep, "xboard");
    ep_send(&ep, "protover 2");
    ep_want(&ep, "feature done=1", 5000);
    static const char *const want[] = {
        "variants=\"xiangqi\"", "setboard=1", "usermove=1", "ping=1", "memory=1", "smp=1", "myname=\"Chuhan ",
        "sigint=0", "analyze=1", "feature option=\"OwnBook -check 1\"",
        "feature option=\"Repetition Rule -combo *cxa /// axf /// draw\"", "feature done=0",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(ep.log, want[i]))
            fail_msg("no '%s' in:\n%s", want[i], ep.log);
    /* done=1 comes last, after every feature */
    assert_null(strstr(strstr(ep.log, "feature done=1"), "feature option"));
    /* the GUI's answers and settings: silent */
    ep_send(&ep, "accepted setboard");
    ep_send(&ep, "accepted usermove");
    ep_send(&ep, "rejected smp");
    ep_send(&ep, "memory 32");
    ep_send(&ep, "cores 1");
    ep_send(&ep, "option Sixty Move Rule=1");
    ep_send(&ep, "option Clear Hash");
    ep_send(&ep, "new");
    ep_send(&ep, "variant xiangqi");
    ep_send(&ep, "random");
    ep_send(&ep, "computer");
    ep_send(&ep, "hard");
    ep_send(&ep, "easy");
    ep_send(&ep, "post");
    ep_send(&ep, "nopost");
    sync_engine();
    if (strstr(ep.log, "Error") || strstr(ep.log, "Illegal") || strstr(ep.log, "tellusererror"))
        fail_msg("unexpected error:\n%s", ep.log);
}

static void test_cecp_game(void **state)
{
    (void)state;
    ep_send(&ep, "level 40 0:20 0");
    ep_send(&ep, "post");
    /* the engine plays Black: four moves each */
    for (int i = 0; i < 4; i++) {
        ep_send(&ep, "time 500"); /* centiseconds */
        ep_send(&ep, "otim 500");
        user_move();
        engine_move(10000, NULL);
        assert_no_claim(ep.log);
        /* thinking output: ply score time nodes pv, before the move */
        int ply, score, cs;
        long long nodes;
        char pv[16];
        const char *l = ep.log;
        bool seen = false;
        for (; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
            if (sscanf(l, "%d %d %d %lld %15s", &ply, &score, &cs, &nodes, pv) == 5 && ply >= 1 && nodes > 0)
                seen = true;
        if (!seen)
            fail_msg("no thinking output before the move:\n%s", ep.log);
    }
    /* force mode: moves for both sides, no reply, no claim */
    ep_send(&ep, "force");
    user_move();
    user_move();
    sync_engine();
    assert_false(log_has_line(ep.log, "move "));
    assert_no_claim(ep.log);
    /* go: the engine takes the side to move (Red) */
    ep_send(&ep, "go");
    engine_move(10000, NULL);
    /* and plays on when we reply */
    user_move();
    engine_move(10000, NULL);
    /* move now */
    ep_send(&ep, "level 0 5 0");
    ep_send(&ep, "time 30000");
    ep_send(&ep, "otim 30000");
    ep_send(&ep, "st 30");
    user_move();
    long t0 = now_ms();
    ep_send(&ep, "?");
    engine_move(5000, NULL);
    assert_true(now_ms() - t0 < 3000L * ep_slow());
    /* a result ends the game: no more moves */
    ep_send(&ep, "result 1/2-1/2 {Draw agreed}");
    user_move();
    sync_engine();
    assert_false(log_has_line(ep.log, "move "));
}

static void test_cecp_time_controls(void **state)
{
    (void)state;
    ep_send(&ep, "force");
    /* a fixed time per move */
    ep_send(&ep, "st 1");
    long t0 = now_ms();
    ep_send(&ep, "go");
    engine_move(5000, NULL);
    long dt = now_ms() - t0;
    if (dt < 500 || dt > 1500L * ep_slow())
        fail_msg("st 1: moved after %ld ms", dt);
    /* a depth limit */
    ep_send(&ep, "force");
    ep_send(&ep, "level 0 10 0");
    ep_send(&ep, "sd 2");
    ep_send(&ep, "post");
    ep_send(&ep, "go");
    engine_move(10000, NULL);
    assert_false(log_has_line(ep.log, "3 "));
    /* a nearly flagged clock: the move comes in time */
    ep_send(&ep, "force");
    ep_send(&ep, "new");
    set_game(START_FEN);
    ep_send(&ep, "level 40 0:02 0");
    ep_send(&ep, "time 30");
    ep_send(&ep, "otim 200");
    user_move();
    t0 = now_ms();
    engine_move(2000, NULL);
    dt = now_ms() - t0;
    if (dt >= 300L * ep_slow())
        fail_msg("0.3 s on the clock: moved after %ld ms", dt);
    /* an increment clock in seconds with a fraction */
    ep_send(&ep, "level 0 0:03 0.5");
    ep_send(&ep, "time 300");
    ep_send(&ep, "otim 300");
    user_move();
    t0 = now_ms();
    engine_move(3000, NULL);
    assert_true(now_ms() - t0 < 2000L * ep_slow());
}

static void test_cecp_setboard_undo_remove(void **state)
{
    (void)state;
    char m[8];
    ep_send(&ep, "force");
    ep_send(&ep, "setboard " ROOK_FEN);
    set_game(ROOK_FEN);
    ep_send(&ep, "level 0 1 0");
    ep_send(&ep, "sd 6");
    ep_send(&ep, "go");
    engine_move(10000, m);
    assert_string_equal(m, "a0a4");
    /* undo: back to the set position, Red to move again */
    ep_send(&ep, "force");
    ep_send(&ep, "undo");
    set_game(ROOK_FEN);
    ep_send(&ep, "go");
    engine_move(10000, m);
    assert_string_equal(m, "a0a4");
    /* remove: two plies back */
    ep_send(&ep, "force");
    ep_send(&ep, "setboard " ROOK_FEN);
    set_game(ROOK_FEN);
    ep_send(&ep, "usermove a0a1");
    ep_send(&ep, "usermove a4a1");
    ep_send(&ep, "remove");
    ep_send(&ep, "go");
    engine_move(10000, m);
    assert_string_equal(m, "a0a4");
    /* XBoard's FEN letters (H, E) and a Black-to-move position */
    ep_send(&ep, "force");
    ep_send(&ep, "setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RHEAKAEHR b - - 1 1");
    set_game("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    ep_send(&ep, "sd 3");
    ep_send(&ep, "go");
    engine_move(10000, NULL);
    /* an illegal position: refused, and so is every move until a good one */
    ep_send(&ep, "force");
    ep_send(&ep, "setboard 9/9/9");
    ep_want(&ep, "tellusererror Illegal position", 5000);
    ep_send(&ep, "usermove a0a4");
    ep_want(&ep, "Illegal move", 5000);
    ep_send(&ep, "go");
    ep_want(&ep, "Error (command not legal now): go", 5000);
    ep_send(&ep, "undo");
    ep_want(&ep, "Error (command not legal now): undo", 5000);
    ep_send(&ep, "setboard " ROOK_FEN);
    set_game(ROOK_FEN);
    ep_send(&ep, "go");
    engine_move(10000, m);
    assert_string_equal(m, "a0a4");
    /* undo with nothing to undo */
    ep_send(&ep, "force");
    ep_send(&ep, "setboard " ROOK_FEN);
    ep_send(&ep, "undo");
    ep_want(&ep, "Error (command not legal now): undo", 5000);
}

static void test_cecp_ping_while_thinking(void **state)
{
    (void)state;
    ep_send(&ep, "st 1");
    user_move();
    ep_send(&ep, "ping 77");
    const char *l = ep_want(&ep, "pong 77", 5000);
    assert_string_equal(l, "pong 77");
    /* the move came first */
    const char *mv = strstr(ep.log, "\nmove ") ? strstr(ep.log, "\nmove ") + 1 : strncmp(ep.log, "move ", 5) ? NULL : ep.log;
    if (!mv)
        fail_msg("pong before the move:\n%s", ep.log);
    assert_true(mv < strstr(ep.log, "pong 77"));
    char text[16];
    assert_int_equal(sscanf(mv, "move %15s", text), 1);
    play(text);
    /* a long think: the pong waits for the move, and "?" is still served */
    ep_send(&ep, "st 30");
    user_move();
    ep_send(&ep, "ping 78");
    assert_null(ep_expect(&ep, "pong 78", 500, NULL, 0));
    ep_send(&ep, "?");
    engine_move(3000, NULL);
    ep_want(&ep, "pong 78", 3000);
    /* a new game while thinking: the old move never comes */
    user_move();
    ep_send(&ep, "new");
    sync_engine();
    assert_null(ep_expect(&ep, "move ", 1500, NULL, 0));
}

/* Hundreds of pings while the engine thinks: every one answered, in
 * order, after the move, and the search not cut short by them (a queue of
 * 16 once dropped the 17th and forced an unsearched move). */
static void test_cecp_many_pings(void **state)
{
    (void)state;
    ep_send(&ep, "st 1");
    int64_t start = now_ms();
    user_move();
    enum { PINGS = 400 };
    for (int i = 1; i <= PINGS; i++)
        ep_send(&ep, "ping %d", 1000 + i);
    char mv[8];
    engine_move(10000 * ep_slow(), mv);
    int64_t took = now_ms() - start;
    if (took < 500)
        fail_msg("the move came after %lld ms of a 1 s search: the pings cut it short", (long long)took);
    for (int i = 1; i <= PINGS; i++) {
        char want[32];
        snprintf(want, sizeof want, "pong %d", 1000 + i);
        const char *l = ep_want(&ep, "pong", 5000 * ep_slow());
        if (strcmp(l, want))
            fail_msg("'%s' where '%s' was due", l, want);
    }
    sync_engine();
}

static void test_cecp_analyze(void **state)
{
    (void)state;
    ep_send(&ep, "post");
    ep_send(&ep, "analyze");
    int ply, score, cs;
    long long nodes;
    const char *l;
    bool seen = false;
    long t0 = now_ms();
    while (!seen && now_ms() - t0 < 3000L * ep_slow() && (l = ep_read_line(&ep, 1000)))
        seen = sscanf(l, "%d %d %d %lld", &ply, &score, &cs, &nodes) == 4 && ply >= 1;
    assert_true(seen);
    ep_send(&ep, ".");
    ep_want(&ep, "stat01: ", 5000);
    /* moves and undo in analysis: accepted, and the analysis goes on */
    ep_send(&ep, "usermove h2e2");
    ep_send(&ep, "usermove h9g7");
    ep_send(&ep, "undo");
    sync_engine();
    assert_null(strstr(ep.log, "Illegal"));
    assert_null(strstr(ep.log, "Error"));
    ep_send(&ep, "usermove h2h9");
    ep_want(&ep, "Illegal move: h2h9", 5000);
    ep_send(&ep, "exit");
    sync_engine();
    /* nothing after exit, and never a move */
    assert_null(ep_read_line(&ep, 500));
    assert_false(log_has_line(ep.log, "move "));
    /* after analysis the engine still plays: h2e2 is in its game */
    set_game(START_FEN);
    play("h2e2");
    ep_send(&ep, "st 1");
    user_move();
    ep_send(&ep, "go");
    engine_move(5000, NULL);
}

static void test_cecp_ponder(void **state)
{
    (void)state;
    ep_send(&ep, "hard");
    ep_send(&ep, "post");
    ep_send(&ep, "level 0 1 0");
    ep_send(&ep, "time 1000");
    ep_send(&ep, "otim 1000");
    user_move();
    engine_move(10000, NULL);
    /* the move it ponders on */
    const char *l = ep_want(&ep, "Hint: ", 5000);
    char hint[16];
    assert_int_equal(sscanf(l, "Hint: %15s", hint), 1);
    assert_int_not_equal(parse_move(&game, hint, false), MOVE_NONE);
    /* pondering: thinking output on our time, no move */
    assert_null(ep_expect(&ep, "move ", 500, NULL, 0));
    /* the predicted move: a ponder hit */
    play(hint);
    ep_send(&ep, "time 900");
    ep_send(&ep, "usermove %s", hint);
    engine_move(10000, NULL);
    /* another move than predicted: a ponder miss */
    l = ep_want(&ep, "Hint: ", 5000);
    assert_int_equal(sscanf(l, "Hint: %15s", hint), 1);
    Move moves[MAX_MOVES];
    int n = gen_legal(&game, moves);
    char text[8] = "";
    for (int i = 0; i < n; i++) {
        move_str(moves[i], text, false);
        if (strcmp(text, hint))
            break;
    }
    play(text);
    ep_send(&ep, "usermove %s", text);
    engine_move(10000, NULL);
    /* easy: no more pondering; the game goes on */
    ep_send(&ep, "easy");
    user_move();
    engine_move(10000, NULL);
    sync_engine();
    assert_no_claim(ep.log);
}

static void test_cecp_claims(void **state)
{
    (void)state;
    char m[8];
    /* the engine mates, then claims */
    ep_send(&ep, "force");
    ep_send(&ep, "setboard " MATE_FEN);
    set_game(MATE_FEN);
    ep_send(&ep, "st 1");
    ep_send(&ep, "go");
    engine_move(10000, m);
    assert_int_equal(count_legal(&game), 0); /* a1a9 or a1d1 */
    const char *l = ep_want(&ep, "1-0 {", 5000);
    assert_string_equal(l, "1-0 {Red mates}");
    ep_send(&ep, "result 1-0 {Red mates}");
    /* the opponent mates the engine: it claims the loss, and does not move */
    ep_send(&ep, "force");
    ep_send(&ep, "setboard " MATE_FEN);
    ep_send(&ep, "playother");
    ep_send(&ep, "usermove a1a9");
    l = ep_want(&ep, "1-0 {", 5000);
    assert_string_equal(l, "1-0 {Red mates}");
    sync_engine();
    assert_false(log_has_line(ep.log, "move "));
    /* Red checks perpetually: at the third occurrence Black wins (CXA) */
    static const char *const checks[] = {"a1a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9"};
    ep_send(&ep, "force");
    ep_send(&ep, "setboard " CHECKS_FEN);
    set_game(CHECKS_FEN);
    for (int i = 0; i < 9; i++) {
        ep_send(&ep, "usermove %s", checks[i]);
        play(checks[i]);
        if (i == 4) { /* second occurrence only: no claim yet, the engine moves */
            ep_send(&ep, "go");
            engine_move(10000, m);
            assert_string_equal(m, "e9e8"); /* the only move */
            assert_no_claim(ep.log);
            ep_send(&ep, "force");
            ep_send(&ep, "undo");
            pos_undo_move(&game);
        }
    }
    sync_engine();
    assert_no_claim(ep.log); /* force mode: no claims */
    ep_send(&ep, "go");
    l = ep_want(&ep, "0-1 {", 5000);
    if (!strstr(l, "perpetual check"))
        fail_msg("claim: '%s'", l);
    sync_engine();
    assert_false(log_has_line(ep.log, "move "));
    /* both sides idle: a draw at the third occurrence */
    static const char *const kings[] = {"e0e1", "d9d8", "e1e0", "d8d9", "e0e1", "d9d8", "e1e0"};
    ep_send(&ep, "new");
    ep_send(&ep, "force");
    ep_send(&ep, "setboard " KINGS_FEN);
    set_game(KINGS_FEN);
    for (int i = 0; i < 7; i++) {
        ep_send(&ep, "usermove %s", kings[i]);
        play(kings[i]);
    }
    ep_send(&ep, "go"); /* Black to move: d8d9 would repeat the start a third time */
    engine_move(10000, m);
    l = ep_read_line(&ep, 1000);
    if (!strcmp(m, "d8d9")) {
        if (!l || strncmp(l, "1/2-1/2 {", 9))
            fail_msg("no draw claim after %s: '%s'", m, l ? l : "(nothing)");
    } else {
        assert_true(!l || strncmp(l, "1/2-1/2", 7));
    }
    /* the same with the draw rule set: still a draw, no win claimed */
    ep_send(&ep, "new");
    ep_send(&ep, "option Repetition Rule=draw");
    ep_send(&ep, "force");
    ep_send(&ep, "setboard " CHECKS_FEN);
    for (int i = 0; i < 9; i++)
        ep_send(&ep, "usermove %s", checks[i]);
    ep_send(&ep, "go");
    l = ep_want(&ep, "1/2-1/2 {", 5000);
    assert_true(!strncmp(l, "1/2-1/2 {", 9));
}

static const char *const MALFORMED[] = {
    "foo",
    "usermove",
    "usermove z9z9",
    "usermove h2h8",
    "h2h8",
    "i9i0",
    "level",
    "level x",
    "level 40 abc 0",
    "level 40 5 x",
    "level 40 5",
    "st",
    "st abc",
    "st -1",
    "sd",
    "sd x",
    "time",
    "time x",
    "otim 1.5",
    "memory abc",
    "cores",
    "protover x",
    "variant chess",
    "variant",
    "option Nonexistent=3",
    "option Hash=abc",
    "option Repetition Rule=chess",
    "undo",
    "remove",
    "\x01\x02\x03",
    "edit",
};
_Static_assert(sizeof MALFORMED / sizeof MALFORMED[0] >= 25, "a good many malformed commands");

/* A win by the repetition rules is posted as a mate, 100000 + moves: Red's
 * cannon chases Black's chariot round (FS-01 of the rule cases) and Black's
 * b7a7 completes the cycle Red broke the rules with. */
static void test_cecp_rule_win_is_a_mate(void **state)
{
    (void)state;
    static const char *const fen = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1";
    static const char *const line[] = {"c2a2", "a7b7", "a2b2", "b7a7", "b2a2", "a7b7", "a2b2"};
    ep_send(&ep, "force");
    ep_send(&ep, "setboard %s", fen);
    set_game(fen);
    for (int i = 0; i < 7; i++) {
        ep_send(&ep, "usermove %s", line[i]);
        play(line[i]);
    }
    ep_send(&ep, "post");
    ep_send(&ep, "sd 6");
    ep_send(&ep, "go");
    char m[8];
    engine_move(10000, m);
    assert_string_equal(m, "b7a7");
    int ply, score, cs;
    long long nodes;
    char pv[16];
    bool seen = false;
    for (const char *l = ep.log; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (sscanf(l, "%d %d %d %lld %15s", &ply, &score, &cs, &nodes, pv) == 5 && ply == 6) {
            assert_int_equal(score, 100001);
            seen = true;
        }
    if (!seen)
        fail_msg("no depth 6 thinking line:\n%s", ep.log);
}

/* Debug Log File as an xboard option: every line in and out while on. */
static void test_cecp_debug_log(void **state)
{
    (void)state;
    char path[] = "/tmp/chuhan-debug-log-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    ep_send(&ep, "option Debug Log File=%s", path);
    sync_engine();
    static char in[1 << 16], out[1 << 16], want_in[256], want_out[1 << 16];
    /* what sync_engine sent and read after the option took effect */
    snprintf(want_in, sizeof want_in, "ping %d\n", ep.pings);
    snprintf(want_out, sizeof want_out, "%s", ep.log);
    ep_send(&ep, "option Debug Log File=");
    sync_engine();
    dlog_split(path, in, sizeof in, out, sizeof out);
    unlink(path);
    strncat(want_in, "option Debug Log File=\n", sizeof want_in - strlen(want_in) - 1);
    assert_string_equal(in, want_in);
    assert_string_equal(out, want_out);
}

static void test_cecp_malformed(void **state)
{
    (void)state;
    ep_check_malformed(&ep, &EP_CECP, MALFORMED, sizeof MALFORMED / sizeof MALFORMED[0]);
    /* a bad setboard, then a good game */
    ep_send(&ep, "setboard");
    ep_want(&ep, "tellusererror Illegal position", 5000);
    ep_send(&ep, "new");
    ep_send(&ep, "st 1");
    user_move();
    engine_move(5000, NULL);
}

const struct CMUnitTest *cecp_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_cecp_features, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cecp_game, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cecp_time_controls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cecp_setboard_undo_remove, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cecp_ping_while_thinking, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cecp_many_pings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cecp_analyze, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cecp_ponder, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cecp_claims, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cecp_rule_win_is_a_mate, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cecp_malformed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cecp_debug_log, setup, teardown),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
