/* Limits on what the engine is asked to search: clocks and the Move
 * Overhead, a stop at once, bounded Hash and Threads, deep searches
 * clamped, numbers of any size in go/level/time.  The protocol cases drive
 * the engine binary through pipes, so that the sanitizer builds (make
 * SANITIZE=... test) check the engine itself. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/board/movegen.h"
#include "engine/engine.h"
#include "limits_util.h"
#include "pipe.h"
#include "search/threads.h"
#include "search/timeman.h"
#include "search/tt.h"
#include "tests.h"

static EngineProc ep;

/* ---- clocks ---- */

/* The Move Overhead is kept back from every clock, by one rule for every
 * front-end, but never more than half of a move's fair share of the time
 * left: at go time 50 movestogo 1 three overheads of 30 ms once left a
 * think of 1 ms. */
static void test_overhead_fair_share(void **state)
{
    (void)state;
    static const int64_t times[] = {20, 50, 100, 300, 1000, 5000, 60000};
    static const int mtgs[] = {0, 1, 2, 5, 40};
    static const int64_t overheads[] = {0, 30, 100, 1000, 5000};
    for (size_t a = 0; a < sizeof times / sizeof times[0]; a++)
        for (size_t c = 0; c < sizeof mtgs / sizeof mtgs[0]; c++)
            for (size_t d = 0; d < sizeof overheads / sizeof overheads[0]; d++) {
                SearchLimits lim;
                limits_clear(&lim);
                lim.time[BLACK] = times[a];
                lim.movestogo = mtgs[c];
                TimeMan tm;
                tm_init(&tm, &lim, BLACK, overheads[d], 0);
                int64_t mtg = mtgs[c] ? mtgs[c] : 35, fair = times[a] / mtg;
                /* at least 40% of the fair share is thought, at most the clock less the overhead kept */
                if (tm.optimum < fair * 4 / 10 - 1 || tm.maximum > times[a])
                    fail_msg("time %lld movestogo %d overhead %lld: optimum %lld maximum %lld (fair share %lld)",
                             (long long)times[a], mtgs[c], (long long)overheads[d], (long long)tm.optimum,
                             (long long)tm.maximum, (long long)fair);
            }
    /* the case reported: UCCI go time 50 movestogo 1, Move Overhead 30 */
    SearchLimits lim;
    limits_clear(&lim);
    lim.time[RED] = 50;
    lim.movestogo = 1;
    TimeMan tm;
    tm_init(&tm, &lim, RED, 30, 0);
    if (tm.optimum < 15)
        fail_msg("go time 50 movestogo 1: %lld ms to think", (long long)tm.optimum);
    /* a long clock keeps the whole overhead */
    lim.time[RED] = 60000;
    lim.movestogo = 0;
    tm_init(&tm, &lim, RED, 30, 0);
    assert_true(tm.optimum == (60000 - 30 * 35) / 35);
}

/* When to stop after an iteration: longer for a best move that keeps
 * changing, for a falling score and for a best move that took a small
 * share of the root's nodes; shorter for the opposites; always bounded. */
static void test_stop_factor(void **state)
{
    (void)state;
    double steady = tm_stop_factor(0, 0, 0.8);
    assert_true(steady > 0.5 && steady < 1.2);
    assert_true(tm_stop_factor(1.5, 0, 0.8) > steady);
    assert_true(tm_stop_factor(100, 0, 0.8) == tm_stop_factor(1000, 0, 0.8)); /* capped */
    assert_true(tm_stop_factor(0, 60, 0.8) > steady);
    assert_true(tm_stop_factor(0, -60, 0.8) < steady);
    assert_true(tm_stop_factor(0, 30000, 0.8) == tm_stop_factor(0, 1000, 0.8));   /* a mate found against */
    assert_true(tm_stop_factor(0, -30000, 0.8) == tm_stop_factor(0, -1000, 0.8)); /* or for */
    assert_true(tm_stop_factor(0, 0, 0.98) < steady);
    assert_true(tm_stop_factor(0, 0, 0.4) > steady);
    /* shares outside 0..1 (a search stopped between the counts) are clamped */
    assert_true(tm_stop_factor(0, 0, 7.0) == tm_stop_factor(0, 0, 1.0));
    assert_true(tm_stop_factor(0, 0, -1.0) == tm_stop_factor(0, 0, 0.0));
    double lo = tm_stop_factor(0, -30000, 1.0), hi = tm_stop_factor(1000, 30000, 0.0);
    assert_true(lo > 0.3 && hi < 6.0);
}

/* An engine that thinks every move to its maximum, and is 15 ms late each
 * time besides, still keeps a reserve of its clock under an increment:
 * the lowest time left after a move stays above half an increment, over
 * a game far longer than any real one.  (Without the reserve the clock
 * ran down to nothing at 5+0.05, and a late stop lost on time.) */
static void test_clock_reserve(void **state)
{
    (void)state;
    static const int64_t bases[] = {5000, 10000, 60000, 300};
    static const int64_t incs[] = {50, 100, 1000, 100};
    for (size_t k = 0; k < sizeof bases / sizeof bases[0]; k++) {
        int64_t clock = bases[k], lowest = clock;
        for (int move = 0; move < 300; move++) {
            SearchLimits lim;
            limits_clear(&lim);
            lim.time[RED] = clock;
            lim.inc[RED] = incs[k];
            TimeMan tm;
            tm_init(&tm, &lim, RED, 30, 0);
            clock -= tm.maximum + 15;
            if (clock < lowest)
                lowest = clock;
            clock += incs[k];
        }
        if (lowest < incs[k] / 2)
            fail_msg("%lld+%lld: the clock fell to %lld ms", (long long)bases[k], (long long)incs[k], (long long)lowest);
    }
}

/* Each go after its position answers with a bestmove within 6 s, having
 * said what it was told to say. */
typedef struct {
    const char *position, *go, *want;
} GoCase;

static void expect_go_answers(const GoCase *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ep_send(&ep, "position %s", cases[i].position);
        ep_send(&ep, "%s", cases[i].go);
        const char *l = ep_expect(&ep, "bestmove", 6000 * ep_slow(), ep.log, sizeof ep.log);
        if (!l) {
            ep_send(&ep, "stop");
            fail_msg("'%s': no bestmove within 6 s", cases[i].go);
        }
        limits_expect_in_log(&ep, cases[i].want);
        ep.log[0] = 0;
    }
}

/* UCI go with a clock, but not the mover's: a message, and a move within
 * a budget drawn from what was given (it searched until stop). */
static void test_go_other_clock_uci(void **state)
{
    (void)state;
    static const GoCase cases[] = {
        {"startpos", "go btime 2000", "info string go: no wtime"},
        {"startpos", "go winc 300", "info string go: no wtime"},
        {"startpos", "go binc 300 btime 1000", "info string go: no wtime"},
        {"startpos moves h2e2", "go wtime 2000 winc 100", "info string go: no btime"},
    };
    expect_go_answers(cases, sizeof cases / sizeof cases[0]);
}

/* The same in UCCI (times in seconds): "go opptime 2" once searched until
 * stop, and "go increment 0.3" too. */
static void test_go_other_clock_ucci(void **state)
{
    (void)state;
    static const GoCase cases[] = {
        {"startpos", "go opptime 2", "no 'time' for the side to move; searching as with time 2.000 increment 0.000"},
        {"startpos", "go increment 0.3", "searching as with time 0.300 increment 0.300"},
        {"startpos", "go oppincrement 0.3 opptime 1", "searching as with time 1.000 increment 0.300"},
        /* with a depth, an increment alone is only ignored */
        {"startpos", "go depth 3 increment 0.3", "'increment' without 'time'"},
    };
    expect_go_answers(cases, sizeof cases / sizeof cases[0]);
}

/* A search stopped before depth 1 completes (here by a node limit of 1;
 * a stop or xboard's ? take the same way out) plays the table's move, or
 * the best of a one-ply look, never the first move generated (a0a1 from
 * the start). */
static void test_stop_before_depth_one(void **state)
{
    (void)state;
    /* an empty table: the one-ply look takes the hanging rook */
    ep_send(&ep, "position fen 3aka3/9/9/9/9/r8/9/9/9/R2K5 w");
    ep_send(&ep, "go nodes 1");
    const char *l = ep_want(&ep, "bestmove", LIMITS_WAIT_MS);
    if (strncmp(l, "bestmove a0a4", 13))
        fail_msg("a rook hangs, and the move is '%s'", l);
    /* from the start, with nothing in the table: not the first generated move */
    ep_send(&ep, "ucinewgame");
    ep_send(&ep, "position startpos");
    ep_send(&ep, "go nodes 1");
    l = ep_want(&ep, "bestmove", LIMITS_WAIT_MS);
    if (!strncmp(l, "bestmove a0a1", 13) || !strncmp(l, "bestmove a0a2", 13))
        fail_msg("the first move generated: '%s'", l);
    /* the table's move when it has one: that of a search just made */
    ep_send(&ep, "go depth 7");
    l = ep_want(&ep, "bestmove", LIMITS_WAIT_MS);
    char deep[16], quick[16];
    assert_int_equal(sscanf(l, "bestmove %15s", deep), 1);
    ep_send(&ep, "go nodes 1");
    l = ep_want(&ep, "bestmove", LIMITS_WAIT_MS);
    assert_int_equal(sscanf(l, "bestmove %15s", quick), 1);
    if (strcmp(deep, quick))
        fail_msg("stopped at once after a depth 7 search that chose %s, it played %s", deep, quick);
}

/* A node limit with a move time or a clock: whichever comes first ends
 * the search.  With one thread the node count is exact and once never
 * looked at the clock, so a node limit out of reach searched on past the
 * time (for ever, but for the stop). */
static void test_nodes_and_time(void **state)
{
    (void)state;
    static const struct {
        const char *go;
        long at_least, at_most; /* ms */
    } cases[] = {
        {"go nodes 2000000000 movetime 300", 200, 2000},
        {"go movetime 300 nodes 2000000000", 200, 2000},
        {"go nodes 2000000000 wtime 3000 btime 3000", 1, 2000},
        {"go nodes 2000 movetime 60000", 0, 2000}, /* the nodes first */
    };
    ep_send(&ep, "setoption name Threads value 1");
    ep_send(&ep, "position startpos");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ep_send(&ep, "isready");
        ep_want(&ep, "readyok", LIMITS_WAIT_MS);
        long t0 = now_ms();
        ep_send(&ep, "%s", cases[i].go);
        const char *l = ep_expect(&ep, "bestmove", (int)(cases[i].at_most * ep_slow()), ep.log, sizeof ep.log);
        long took = now_ms() - t0;
        if (!l) {
            ep_send(&ep, "stop");
            ep_want(&ep, "bestmove", LIMITS_WAIT_MS);
            fail_msg("'%s': no bestmove within %ld ms", cases[i].go, cases[i].at_most * ep_slow());
        }
        if (took < cases[i].at_least)
            fail_msg("'%s': a bestmove after %ld ms", cases[i].go, took);
        ep_assert_legal_reply(l, "bestmove", NULL, NULL, NULL);
    }
}

/* ---- a race found by fuzzing ---- */

/* stop, then go at once: the stopped search's bestmove must not be taken
 * for the new search's (engine/protocol/ucci.c cmd_go resets `reported` before
 * engine_go waits for the stopped search, whose callback then sets it, and
 * the main loop waits for the new, endless search on the next command). */
static void test_ucci_stop_then_go(void **state)
{
    (void)state;
    for (int i = 0; i < 3; i++) {
        ep_send(&ep, "go");
        ep_send(&ep, "stop");
        ep_send(&ep, "go infinite");
        ep_send(&ep, "isready");
        ep.log[0] = 0;
        if (!ep_expect(&ep, "readyok", 5000, ep.log, sizeof ep.log))
            fail_msg("stop then go: isready not answered (the engine waits for its endless search):\n%.2000s",
                     ep.log);
        ep_send(&ep, "stop");
        ep_want(&ep, "bestmove", LIMITS_WAIT_MS);
    }
}

/* ---- the engine API ---- */

/* The engine API: a game of MAX_GAME_PLY plies is the most; a search from
 * there still has its MAX_PLY of room. */
static Move api_best;
static void api_bestmove(void *ctx, Move best, Move ponder)
{
    (void)ctx;
    (void)ponder;
    api_best = best;
}

static void test_engine_api_limits(void **state)
{
    (void)state;
    EngineCallbacks cb = {NULL, api_bestmove, NULL, NULL};
    char err[256];
    Engine *e = engine_new(&cb, err, sizeof err);
    assert_non_null(e);
    char *game = limits_horse_shuffle(MAX_GAME_PLY + 1);
    const char **moves = limits_xmalloc(sizeof *moves * (MAX_GAME_PLY + 1));
    char *save = NULL;
    int n = 0;
    for (char *t = strtok_r(game, " ", &save); t; t = strtok_r(NULL, " ", &save))
        moves[n++] = t;
    assert_int_equal(n, MAX_GAME_PLY + 1);
    assert_false(engine_set_position(e, NULL, moves, MAX_GAME_PLY + 1, false, err, sizeof err));
    assert_non_null(strstr(err, "too many moves"));
    assert_int_equal(engine_position(e)->top, 0);
    assert_true(engine_set_position(e, NULL, moves, MAX_GAME_PLY, false, err, sizeof err));
    assert_int_equal(pos_game_ply(engine_position(e)), MAX_GAME_PLY);
    /* no more moves may be pushed: the search needs its room */
    Move m = parse_move(engine_position(e), "h0g2", false);
    assert_int_not_equal(m, MOVE_NONE);
    assert_false(engine_push_move(e, m));
    assert_true(engine_set_option(e, "OwnBook", "false", err, sizeof err));
    SearchLimits lim;
    limits_clear(&lim);
    lim.depth = 1000; /* clamped */
    lim.nodes = 20000;
    api_best = MOVE_NONE;
    engine_go(e, &lim);
    engine_wait(e);
    assert_int_not_equal(api_best, MOVE_NONE);
    assert_true(pos_pseudo_legal(engine_position(e), api_best) && pos_legal(engine_position(e), api_best));

    /* Hash and Threads: out of range or beyond the machine, refused with a
     * reason, the old value kept */
    static const char *const bad_hash[] = {"0", "-1", "1048577", "99999999999999999999999", "12x", "", "1e3"};
    char value[64];
    for (size_t i = 0; i < sizeof bad_hash / sizeof bad_hash[0]; i++) {
        err[0] = 0;
        if (engine_set_option(e, "Hash", bad_hash[i], err, sizeof err))
            fail_msg("Hash '%s' accepted", bad_hash[i]);
        assert_true(err[0] != 0);
        assert_string_equal(engine_get_option(e, "Hash", value, sizeof value), "16");
    }
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    long long phys_mb = (long long)pages * page >> 20;
    if (phys_mb > 0 && phys_mb < TT_MAX_MB) {
        snprintf(value, sizeof value, "%lld", phys_mb);
        assert_false(engine_set_option(e, "Hash", value, err, sizeof err));
        if (!strstr(err, "memory"))
            fail_msg("Hash of all the memory: '%s'", err);
        assert_string_equal(engine_get_option(e, "Hash", value, sizeof value), "16");
    }
    static const char *const bad_threads[] = {"0", "-3", "1025", "4294967297", "99999999999999999999999", "two"};
    for (size_t i = 0; i < sizeof bad_threads / sizeof bad_threads[0]; i++) {
        if (engine_set_option(e, "Threads", bad_threads[i], err, sizeof err))
            fail_msg("Threads '%s' accepted", bad_threads[i]);
        assert_string_equal(engine_get_option(e, "Threads", value, sizeof value), "1");
    }
    assert_true(engine_set_option(e, "Threads", "3", err, sizeof err));
    assert_true(engine_set_option(e, "Hash", "2", err, sizeof err));
    limits_clear(&lim);
    lim.depth = 3;
    api_best = MOVE_NONE;
    engine_go(e, &lim);
    engine_wait(e);
    assert_int_not_equal(api_best, MOVE_NONE);
    engine_free(e);
    free(moves);
    free(game);
}

/* ---- bounded Hash and Threads through the protocols ---- */

static void test_hash_threads_uci(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "setoption name Hash value 1048577",        "setoption name Hash value 99999999999999999999999",
        "setoption name Hash value -5",             "setoption name Threads value 1025",
        "setoption name Threads value 0",           "setoption name Threads value 18446744073709551617",
        "setoption name MultiPV value 99999999999", "setoption name Move Overhead value -1",
        "setoption name BookDepth value 1e9",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ep_send(&ep, "%s", bad[i]);
        limits_sync_uci(&ep);
        if (!strstr(ep.log, "info string"))
            fail_msg("'%s' was not refused:\n%s", bad[i], ep.log);
    }
    ep_send(&ep, "setoption name Threads value 2");
    ep_send(&ep, "go depth 3");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", LIMITS_WAIT_MS), "bestmove", NULL, NULL, NULL);
}

/* UCCI: a value out of range is refused with its reason and the range, as
 * UCI refuses it, never clamped; 0 keeps its UCCI meaning (the default
 * size, one thread per processor). */
static void test_hash_threads_ucci(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "setoption threads -1",          "setoption threads 1025",
        "setoption threads 99999999999999999999999", "setoption hashsize -5",
        "setoption hashsize 1048577",    "setoption hashsize 99999999999999999999999",
        "setoption drawmargin 99999999999999999999", "setoption drawmargin -1",
        "setoption resignmargin -99999999999999999999", "setoption resignmargin 99",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ep_send(&ep, "%s", bad[i]);
        limits_sync_uci(&ep);
        if (!strstr(ep.log, "info message setoption ") || !strstr(ep.log, "must be a number from ")
            || !strstr(ep.log, "; unchanged"))
            fail_msg("'%s' was not refused with its range:\n%s", bad[i], ep.log);
    }
    static const char *const good[] = {"setoption threads 0", "setoption threads 2", "setoption hashsize 0",
                                       "setoption hashsize 1", "setoption drawmargin 1000",
                                       "setoption resignmargin 100"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        ep_send(&ep, "%s", good[i]);
        limits_sync_uci(&ep);
        if (strstr(ep.log, "info message"))
            fail_msg("'%s' was refused:\n%s", good[i], ep.log);
    }
    ep_send(&ep, "go depth 3");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", LIMITS_WAIT_MS), "bestmove", NULL, NULL, NULL);
}

/* xboard: memory and cores out of range are refused as CECP asks, with
 * Error (bad value): command, the range on the debug channel. */
static void test_hash_threads_xboard(void **state)
{
    (void)state;
    static const char *const bad[] = {"memory 0",  "memory -1", "memory 99999999999999999999",
                                      "cores 0",   "cores -3",  "cores 1025"};
    int ping = 0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char want[64];
        ep_send(&ep, "%s", bad[i]);
        limits_sync_xboard(&ep, ++ping);
        snprintf(want, sizeof want, "Error (bad value): %s", bad[i]);
        if (!log_has_line(ep.log, want) || !strstr(ep.log, "must be a number from 1 to "))
            fail_msg("'%s' was not refused:\n%s", bad[i], ep.log);
    }
    ep_send(&ep, "memory x");
    ep_send(&ep, "cores");
    limits_sync_xboard(&ep, ++ping);
    limits_expect_in_log(&ep, "Error (bad arguments): memory x");
    limits_expect_in_log(&ep, "Error (bad arguments): cores");
    ep_send(&ep, "memory 1");
    ep_send(&ep, "cores 2");
    limits_sync_xboard(&ep, ++ping);
    if (strstr(ep.log, "Error"))
        fail_msg("memory 1 / cores 2 refused:\n%s", ep.log);
    ep_send(&ep, "new");
    ep_send(&ep, "sd 3");
    ep_send(&ep, "h2e2");
    ep_want(&ep, "move ", LIMITS_WAIT_MS);
}

/* ---- no unbounded depth ---- */

/* Kings only: every depth is quick, so that the clamp at MAX_PLY - 4 is
 * reached well within the wait. */
#define BARE_FEN "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"

/* Every "info depth D" in ep.log has D at most max. */
static void assert_depths_at_most(int max)
{
    for (const char *p = ep.log; (p = strstr(p, "info depth ")); p++) {
        int d = atoi(p + 11);
        if (d > max)
            fail_msg("a search reached depth %d (at most %d)", d, max);
    }
}

static void test_deep_search_uci(void **state)
{
    (void)state;
    ep_send(&ep, "position fen " BARE_FEN);
    ep_send(&ep, "go depth 1000");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", LIMITS_WAIT_MS), "bestmove", BARE_FEN, NULL, NULL);
    assert_depths_at_most(MAX_PLY - 4);
    assert_non_null(strstr(ep.log, "info depth 252 "));
    ep_send(&ep, "go mate 1000");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", LIMITS_WAIT_MS), "bestmove", BARE_FEN, NULL, NULL);
    assert_depths_at_most(MAX_PLY - 4);
}

static void test_deep_search_ucci(void **state)
{
    (void)state;
    ep_send(&ep, "position fen " BARE_FEN);
    ep_send(&ep, "go depth 1000");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", LIMITS_WAIT_MS), "bestmove", BARE_FEN, NULL, NULL);
    assert_depths_at_most(MAX_PLY - 4);
}

static void test_deep_search_xboard(void **state)
{
    (void)state;
    ep_send(&ep, "setboard " BARE_FEN);
    ep_send(&ep, "sd 1000");
    ep_send(&ep, "post");
    ep_send(&ep, "go");
    ep_want(&ep, "move ", LIMITS_WAIT_MS);
    for (const char *p = ep.log; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
        if (*p >= '0' && *p <= '9' && atoi(p) > MAX_PLY - 4)
            fail_msg("a search reached depth %d", atoi(p));
}

/* ---- numbers of any size ---- */

/* A go that must end by itself soon, and one that must end on stop. */
static void go_ends(const char *go, const char *fen)
{
    ep_send(&ep, "%s", go);
    long t0 = now_ms();
    const char *l = ep_want(&ep, "bestmove", LIMITS_WAIT_MS);
    if (now_ms() - t0 > 5000L * ep_slow())
        fail_msg("'%s' took %ld ms", go, now_ms() - t0);
    ep_assert_legal_reply(l, "bestmove", fen, NULL, NULL);
}

static void go_stops(const char *go, const char *fen)
{
    ep_send(&ep, "%s", go);
    usleep(200 * 1000);
    ep_send(&ep, "isready");
    ep_want(&ep, "readyok", LIMITS_WAIT_MS);
    if (strstr(ep.log, "bestmove"))
        fail_msg("'%s' ended by itself:\n%s", go, ep.log);
    ep_send(&ep, "stop");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", LIMITS_WAIT_MS), "bestmove", fen, NULL, NULL);
}

static void test_numbers_uci(void **state)
{
    (void)state;
    ep_send(&ep, "position startpos");
    go_ends("go nodes -5", NULL);
    go_ends("go movetime -1", NULL);
    go_ends("go depth -7", NULL);
    go_ends("go wtime -1000 btime -1000", NULL);
    go_ends("go wtime 0 btime 0 winc 0 binc 0", NULL);
    go_ends("go wtime -99999999999999999999 btime 5 winc -99999999999999999999 movestogo -99999999999", NULL);
    go_ends("go wtime 100 btime 100 movestogo 99999999999999999999", NULL);
    go_ends("go wtime 300 winc 99999999999999999999", NULL);
    go_stops("go nodes 99999999999999999999999", NULL);
    go_stops("go nodes 18446744073709551615", NULL);
    go_stops("go movetime 99999999999999999999", NULL);
    go_stops("go movetime 9223372036854775807", NULL);
    go_stops("go wtime 99999999999999999999 btime 99999999999999999999 winc 99999999999999999999 "
             "binc 99999999999999999999",
             NULL);
    go_stops("go wtime 9223372036854775807 winc 9223372036854775807 movestogo 1", NULL);
    ep_send(&ep, "setoption name Move Overhead value 5000");
    go_ends("go wtime 10 btime 10", NULL);
    go_stops("go movetime 99999999999999999999", NULL);
}

static void test_numbers_ucci(void **state)
{
    (void)state;
    ep_send(&ep, "position startpos");
    go_ends("go time -5 opptime -5", NULL);
    go_ends("go time 0 increment 0", NULL);
    go_ends("go time -99999999999999999999.5 increment 99999999999999999999", NULL);
    go_ends("go nodes -1", NULL);
    go_ends("go time 0.2 movestogo 99999999999999999999", NULL);
    go_stops("go time 99999999999999999999", NULL);
    go_stops("go time 9223372036854775.807 increment 0.999999999999", NULL);
    go_stops("go nodes 99999999999999999999999", NULL);
    ep_send(&ep, "setoption usemillisec true");
    go_ends("go time -9223372036854775808", NULL);
    go_stops("go time 9223372036854775807 increment 9223372036854775807", NULL);
    ep_send(&ep, "go time 1e999");
    limits_sync_uci(&ep);
    limits_expect_in_log(&ep, "info message go: 'time' needs a time");
}

static void test_numbers_xboard(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "level 99999999999 99999999999 99999999999", "level 0 1e308 1e308",   "level 0 99999999999999999999:99 0",
        "st 1e308",                                  "st nan",                "st -1",
        "sd 99999999999999999999",                   "sd -5",                 "time 99999999999999999999",
        "time -99999999999999999999",                "otim -99999999999999999999",
        "protover 99999999999999999999",             "ping 99999999999999999999",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        ep_send(&ep, "%s", lines[i]);
    limits_sync_xboard(&ep, 6);
    /* a clock of minus a lot: the engine moves at once */
    ep_send(&ep, "new");
    ep_send(&ep, "level 0 1 0");
    ep_send(&ep, "time -99999999999999999999");
    ep_send(&ep, "otim 100");
    long t0 = now_ms();
    ep_send(&ep, "h2e2");
    ep_want(&ep, "move ", LIMITS_WAIT_MS);
    if (now_ms() - t0 > 5000L * ep_slow())
        fail_msg("with its clock at minus a lot the engine took %ld ms", now_ms() - t0);
    /* a clock of plus a lot: it thinks until told to move */
    ep_send(&ep, "new");
    ep_send(&ep, "level 0 99999999999 99999999999");
    ep_send(&ep, "time 99999999999999999999");
    ep_send(&ep, "otim 99999999999999999999");
    ep_send(&ep, "h2e2");
    usleep(300 * 1000);
    ep_send(&ep, "?");
    ep_want(&ep, "move ", LIMITS_WAIT_MS);
}

/* The time manager: any clock, however large or small, gives times of at
 * least 1 ms and never more than the clock holds (or the fixed time). */
static void test_time_manager_extremes(void **state)
{
    (void)state;
    /* the protocols clamp clocks to 2^40 ms (xboard: 2^40 cs, about 2^43.3 ms) */
    static const int64_t times[] = {-1, 0, 1, 50, 1000, (int64_t)1 << 40, (int64_t)1 << 44};
    static const int64_t incs[] = {-1, 0, 10, (int64_t)1 << 40};
    static const int mtgs[] = {0, 1, 2, 40, 10000};
    static const int64_t overheads[] = {0, 30, 5000};
    for (size_t a = 0; a < sizeof times / sizeof times[0]; a++)
        for (size_t b = 0; b < sizeof incs / sizeof incs[0]; b++)
            for (size_t c = 0; c < sizeof mtgs / sizeof mtgs[0]; c++)
                for (size_t d = 0; d < sizeof overheads / sizeof overheads[0]; d++) {
                    SearchLimits lim;
                    limits_clear(&lim);
                    lim.time[RED] = times[a];
                    lim.inc[RED] = incs[b];
                    lim.movestogo = mtgs[c];
                    TimeMan tm;
                    tm_init(&tm, &lim, RED, overheads[d], 1000);
                    if (times[a] < 0)
                        continue; /* no clock: no time limit */
                    /* (a clock of a few ms may leave maximum at 0: stop at once) */
                    if (tm.optimum < 1 || tm.maximum < 0 || (times[a] >= 100000 && tm.maximum < tm.optimum)
                        || (times[a] > 1 && tm.maximum > times[a]))
                        fail_msg("time %lld inc %lld mtg %d overhead %lld: optimum %lld maximum %lld",
                                 (long long)times[a], (long long)incs[b], mtgs[c], (long long)overheads[d],
                                 (long long)tm.optimum, (long long)tm.maximum);
                }
    SearchLimits lim;
    limits_clear(&lim);
    lim.movetime = (int64_t)1 << 40;
    TimeMan tm;
    tm_init(&tm, &lim, BLACK, 5000, 0);
    assert_true(tm.optimum == lim.movetime - 5000 && tm.maximum == tm.optimum);
    lim.movetime = 1;
    tm_init(&tm, &lim, BLACK, 5000, 0);
    assert_true(tm.optimum == 1 && tm.maximum == 1);
}

/* A test on the engine under test, started by setup in one protocol. */
#define PROTO_TEST(f, setup) cmocka_unit_test_prestate_setup_teardown(f, setup, limits_teardown, &ep)

const struct CMUnitTest *search_limits_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_manager_extremes),
        cmocka_unit_test(test_overhead_fair_share),
        cmocka_unit_test(test_clock_reserve),
        cmocka_unit_test(test_stop_factor),
        PROTO_TEST(test_go_other_clock_uci, limits_setup_uci),
        PROTO_TEST(test_go_other_clock_ucci, limits_setup_ucci),
        PROTO_TEST(test_stop_before_depth_one, limits_setup_uci),
        PROTO_TEST(test_nodes_and_time, limits_setup_uci),
        cmocka_unit_test(test_engine_api_limits),
        PROTO_TEST(test_ucci_stop_then_go, limits_setup_ucci),
        PROTO_TEST(test_hash_threads_uci, limits_setup_uci),
        PROTO_TEST(test_hash_threads_ucci, limits_setup_ucci),
        PROTO_TEST(test_hash_threads_xboard, limits_setup_xboard),
        PROTO_TEST(test_deep_search_uci, limits_setup_uci),
        PROTO_TEST(test_deep_search_ucci, limits_setup_ucci),
        PROTO_TEST(test_deep_search_xboard, limits_setup_xboard),
        PROTO_TEST(test_numbers_uci, limits_setup_uci),
        PROTO_TEST(test_numbers_ucci, limits_setup_ucci),
        PROTO_TEST(test_numbers_xboard, limits_setup_xboard),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
