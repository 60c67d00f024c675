/* Limits that protect the engine: bounded input lines, bounded move lists,
 * bounded Hash and Threads, deep searches clamped, numbers of any size in
 * go/level/time, book files that are not books.  The protocol
 * cases drive the engine binary through pipes, so that the sanitizer builds
 * (make SANITIZE=... test) check the engine itself. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/board/movegen.h"
#include "engine/engine.h"
#include "engine/protocol/protocol.h"
#include "pipe.h"
#include "search/threads.h"
#include "search/timeman.h"
#include "search/tt.h"
#include "tests.h"

static EngineProc ep;

__attribute__((returns_nonnull)) static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        abort();
    return p;
}

/* Generous: the sanitizer builds run several times slower. */
#define WAIT_MS 30000

static int start_engine(const char *hello)
{
    if (!ep_start_engine(&ep))
        return -1;
    if (hello)
        ep_send(&ep, "%s", hello);
    return 0;
}

static int setup_uci(void **state)
{
    (void)state;
    if (start_engine("uci"))
        return -1;
    ep_send(&ep, "setoption name OwnBook value false");
    return 0;
}

static int setup_ucci(void **state)
{
    (void)state;
    if (start_engine("ucci"))
        return -1;
    ep_send(&ep, "setoption usebook false");
    return 0;
}

static int setup_xboard(void **state)
{
    (void)state;
    if (start_engine("xboard"))
        return -1;
    ep_send(&ep, "protover 2");
    ep_send(&ep, "option OwnBook=0");
    return 0;
}

static int setup_bare(void **state)
{
    (void)state;
    return start_engine(NULL);
}

static int teardown(void **state)
{
    (void)state;
    ep_send(&ep, "quit");
    return ep_finish(&ep, 10000) == 0 ? 0 : -1;
}

/* Lines up to one starting with either prefix. */
static const char *expect_either(const char *a, const char *b, int timeout_ms)
{
    ep.log[0] = 0;
    long deadline = now_ms() + timeout_ms;
    for (;;) {
        long left = deadline - now_ms();
        const char *l = ep_read_line(&ep, left > 0 ? (int)left : 0);
        if (!l) {
            fail_msg("no '%s' or '%s' within %d ms; got:\n%.4000s", a, b, timeout_ms, ep.log);
            return NULL;
        }
        size_t n = strlen(ep.log);
        snprintf(ep.log + n, sizeof ep.log - n, "%s\n", l);
        if (!strncmp(l, a, strlen(a)) || !strncmp(l, b, strlen(b)))
            return l;
    }
}

static void expect_in_log(const char *text)
{
    if (!strstr(ep.log, text))
        fail_msg("expected '%s' in:\n%.4000s", text, ep.log);
}

/* UCI: isready answered, and what came before it. */
static void sync_uci(void)
{
    ep_send(&ep, "isready");
    ep_want(&ep, "readyok", WAIT_MS);
}

/* xboard: ping answered. */
static void sync_xboard(int n)
{
    char want[32];
    ep_send(&ep, "ping %d", n);
    snprintf(want, sizeof want, "pong %d", n);
    ep_want(&ep, want, WAIT_MS);
}

/* A legal game of n plies from the start: horses out and back. */
static char *horse_shuffle(int plies)
{
    static const char *const cycle[4] = {"h0g2", "h9g7", "g2h0", "g7h9"};
    char *s = xmalloc((size_t)plies * 5 + 1);
    size_t len = 0;
    for (int i = 0; i < plies; i++)
        len += (size_t)sprintf(s + len, "%s%s", i ? " " : "", cycle[i % 4]);
    s[len] = 0;
    return s;
}

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
    char *s = xmalloc(size + 2);
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
    sync_uci();
    expect_in_log("info string input line longer than");
    ep_send(&ep, "d");
    ep_want(&ep, "Fen:", WAIT_MS);
    expect_in_log("Fen: " START_FEN);
    ep_send(&ep, "go depth 2");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", WAIT_MS), "bestmove", NULL, NULL, NULL);
}

static void test_long_line_ucci(void **state)
{
    (void)state;
    char *s = big_line("position startpos moves h2e2", 1 << 20);
    ep_send_raw(&ep, s, strlen(s));
    free(s);
    sync_uci();
    expect_in_log("info message input line longer than");
    ep_send(&ep, "go depth 2");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", WAIT_MS), "bestmove", NULL, NULL, NULL);
}

static void test_long_line_xboard(void **state)
{
    (void)state;
    char *s = big_line("setboard 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", 1 << 20);
    ep_send_raw(&ep, s, strlen(s));
    free(s);
    sync_xboard(1);
    expect_in_log("Error (line too long)");
    ep_send(&ep, "force");
    ep_send(&ep, "usermove h2e2"); /* the start position is still the game */
    sync_xboard(2);
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
        if (start_engine(NULL))
            fail_msg("cannot start the engine");
        ep_send_raw(&ep, cases[i].session, strlen(cases[i].session));
        if (!ep_expect(&ep, cases[i].want, WAIT_MS / 6, ep.log, sizeof ep.log))
            fail_msg("'%s' sent with CR line ends: no '%s'", cases[i].session, cases[i].want);
        ep_finish(&ep, WAIT_MS);
    }
}

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

/* UCI go with a clock, but not the mover's: a message, and a move within
 * a budget drawn from what was given (it searched until stop). */
static void test_go_other_clock_uci(void **state)
{
    (void)state;
    static const struct {
        const char *fen, *go, *want;
    } cases[] = {
        {"startpos", "go btime 2000", "info string go: no wtime"},
        {"startpos", "go winc 300", "info string go: no wtime"},
        {"startpos", "go binc 300 btime 1000", "info string go: no wtime"},
        {"startpos moves h2e2", "go wtime 2000 winc 100", "info string go: no btime"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ep_send(&ep, "position %s", cases[i].fen);
        ep_send(&ep, "%s", cases[i].go);
        const char *l = ep_expect(&ep, "bestmove", 6000 * ep_slow(), ep.log, sizeof ep.log);
        if (!l) {
            ep_send(&ep, "stop");
            fail_msg("'%s': no bestmove within 6 s", cases[i].go);
        }
        expect_in_log(cases[i].want);
        ep.log[0] = 0;
    }
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
    const char *l = ep_want(&ep, "bestmove", WAIT_MS);
    if (strncmp(l, "bestmove a0a4", 13))
        fail_msg("a rook hangs, and the move is '%s'", l);
    /* from the start, with nothing in the table: not the first generated move */
    ep_send(&ep, "ucinewgame");
    ep_send(&ep, "position startpos");
    ep_send(&ep, "go nodes 1");
    l = ep_want(&ep, "bestmove", WAIT_MS);
    if (!strncmp(l, "bestmove a0a1", 13) || !strncmp(l, "bestmove a0a2", 13))
        fail_msg("the first move generated: '%s'", l);
    /* the table's move when it has one: that of a search just made */
    ep_send(&ep, "go depth 7");
    l = ep_want(&ep, "bestmove", WAIT_MS);
    char deep[16], quick[16];
    assert_int_equal(sscanf(l, "bestmove %15s", deep), 1);
    ep_send(&ep, "go nodes 1");
    l = ep_want(&ep, "bestmove", WAIT_MS);
    assert_int_equal(sscanf(l, "bestmove %15s", quick), 1);
    if (strcmp(deep, quick))
        fail_msg("stopped at once after a depth 7 search that chose %s, it played %s", deep, quick);
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
    ep_want(&ep, "Fen:", WAIT_MS);
    if (!strstr(ep.log, "Fen: " START_FEN) || !strstr(ep.log, "input line longer than"))
        fail_msg("a first line of 300 KB was not refused (engine/main.c passes it on cut short, "
                 "without its too_long flag):\n%.4000s",
                 ep.log);
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
        ep_want(&ep, "bestmove", WAIT_MS);
    }
}

/* ---- bounded move lists ---- */

static void test_position_moves_uci(void **state)
{
    (void)state;
    char *game = horse_shuffle(MAX_GAME_PLY);
    char *line = xmalloc(strlen(game) * 2 + 64);
    /* the longest game a position may hold: accepted, and searched */
    sprintf(line, "position startpos moves %s\n", game);
    ep_send_raw(&ep, line, strlen(line));
    ep_send(&ep, "d");
    ep_want(&ep, "Fen:", WAIT_MS);
    expect_in_log("Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 4096 2049");
    ep_send(&ep, "go depth 3");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", WAIT_MS), "bestmove", NULL, game, NULL);
    /* one move more: refused, the game kept */
    sprintf(line, "position startpos moves %s h0g2\n", game);
    ep_send_raw(&ep, line, strlen(line));
    sync_uci();
    expect_in_log("too many moves (4097; at most 4096)");
    /* more words than a line may hold: refused before parsing */
    sprintf(line, "position startpos moves %s %s\n", game, game);
    ep_send_raw(&ep, line, strlen(line));
    sync_uci();
    expect_in_log("too many words on one line");
    ep_send(&ep, "d");
    ep_want(&ep, "Fen:", WAIT_MS);
    expect_in_log("w - - 4096 2049");
    /* searchmoves and a go line with every move many times over */
    size_t n = (size_t)sprintf(line, "go depth 2 searchmoves");
    for (int i = 0; i < 300; i++)
        n += (size_t)sprintf(line + n, " h0g2 h0i2");
    line[n++] = '\n';
    ep_send_raw(&ep, line, n);
    const char *l = ep_want(&ep, "bestmove", WAIT_MS);
    if (strcmp(l, "bestmove h0g2") && strcmp(l, "bestmove h0i2"))
        fail_msg("searchmoves h0g2 h0i2 answered '%s'", l);
    free(line);
    free(game);
}

static void test_position_moves_ucci(void **state)
{
    (void)state;
    char *game = horse_shuffle(MAX_GAME_PLY + 1);
    char *line = xmalloc(strlen(game) + 64);
    sprintf(line, "position startpos moves %s\n", game);
    ep_send_raw(&ep, line, strlen(line));
    sync_uci();
    expect_in_log("too many moves (4097; at most 4096)");
    /* a probe of a game longer than a position holds */
    sprintf(line, "probe startpos moves %s\n", game);
    ep_send_raw(&ep, line, strlen(line));
    ep_want(&ep, "pophash", WAIT_MS);
    expect_in_log("info message probe: illegal move");
    /* banmoves: at most every legal move, however many are named */
    size_t n = (size_t)sprintf(line, "banmoves");
    for (int i = 0; i < 300; i++)
        n += (size_t)sprintf(line + n, " h0g2 h0i2");
    line[n++] = '\n';
    ep_send_raw(&ep, line, n);
    ep_send(&ep, "go depth 2");
    const char *l = ep_want(&ep, "bestmove", WAIT_MS);
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
    char *all = xmalloc(cap);
    for (int i = 0; i < MAX_GAME_PLY + 1; i++)
        n += (size_t)sprintf(all + n, "usermove %s\n", cycle[i % 4]);
    ep_send_raw(&ep, all, n);
    free(all);
    sync_xboard(3);
    const char *refusal = strstr(ep.log, "Illegal move");
    if (!refusal || strncmp(refusal, "Illegal move (the game is too long): h0g2", 41)
        || strstr(refusal + 1, "Illegal move"))
        fail_msg("only move 4097 should be refused:\n%.4000s", ep.log);
    /* the game goes on: after an undo the engine moves, or claims the
     * repetition draw that the horse moves are */
    ep_send(&ep, "undo");
    ep_send(&ep, "sd 2");
    ep_send(&ep, "go");
    expect_either("move ", "1/2-1/2", WAIT_MS);
    ep_send(&ep, "new");
    ep_send(&ep, "go");
    ep_want(&ep, "move ", WAIT_MS);
}

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
    char *game = horse_shuffle(MAX_GAME_PLY + 1);
    const char **moves = xmalloc(sizeof *moves * (MAX_GAME_PLY + 1));
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
        sync_uci();
        if (!strstr(ep.log, "info string"))
            fail_msg("'%s' was not refused:\n%s", bad[i], ep.log);
    }
    ep_send(&ep, "setoption name Threads value 2");
    ep_send(&ep, "go depth 3");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", WAIT_MS), "bestmove", NULL, NULL, NULL);
}

static void test_hash_threads_ucci(void **state)
{
    (void)state;
    ep_send(&ep, "setoption hashsize 99999999999999999999999");
    sync_uci();
    expect_in_log("info message setoption hashsize");
    ep_send(&ep, "setoption threads 99999999999999999999999"); /* clamped to the maximum, 1024 */
    ep_send(&ep, "setoption threads 2");
    ep_send(&ep, "setoption hashsize -1"); /* 0 and below: the default size */
    ep_send(&ep, "setoption drawmargin 99999999999999999999");
    ep_send(&ep, "setoption resignmargin -99999999999999999999");
    ep_send(&ep, "go depth 3");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", WAIT_MS), "bestmove", NULL, NULL, NULL);
}

static void test_hash_threads_xboard(void **state)
{
    (void)state;
    /* memory N is clamped to the Hash maximum, which is beyond this machine */
    ep_send(&ep, "memory 99999999999999999999");
    sync_xboard(4);
    expect_in_log("Error (bad value)");
    ep_send(&ep, "memory x");
    ep_send(&ep, "cores");
    sync_xboard(5);
    expect_in_log("Error (bad arguments): memory x");
    expect_in_log("Error (bad arguments): cores");
    ep_send(&ep, "memory -3"); /* clamped: 1 MB */
    ep_send(&ep, "cores 2");
    ep_send(&ep, "new");
    ep_send(&ep, "sd 3");
    ep_send(&ep, "h2e2");
    ep_want(&ep, "move ", WAIT_MS);
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
    ep_assert_legal_reply(ep_want(&ep, "bestmove", WAIT_MS), "bestmove", BARE_FEN, NULL, NULL);
    assert_depths_at_most(MAX_PLY - 4);
    assert_non_null(strstr(ep.log, "info depth 252 "));
    ep_send(&ep, "go mate 1000");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", WAIT_MS), "bestmove", BARE_FEN, NULL, NULL);
    assert_depths_at_most(MAX_PLY - 4);
}

static void test_deep_search_ucci(void **state)
{
    (void)state;
    ep_send(&ep, "position fen " BARE_FEN);
    ep_send(&ep, "go depth 1000");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", WAIT_MS), "bestmove", BARE_FEN, NULL, NULL);
    assert_depths_at_most(MAX_PLY - 4);
}

static void test_deep_search_xboard(void **state)
{
    (void)state;
    ep_send(&ep, "setboard " BARE_FEN);
    ep_send(&ep, "sd 1000");
    ep_send(&ep, "post");
    ep_send(&ep, "go");
    ep_want(&ep, "move ", WAIT_MS);
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
    const char *l = ep_want(&ep, "bestmove", WAIT_MS);
    if (now_ms() - t0 > 5000L * ep_slow())
        fail_msg("'%s' took %ld ms", go, now_ms() - t0);
    ep_assert_legal_reply(l, "bestmove", fen, NULL, NULL);
}

static void go_stops(const char *go, const char *fen)
{
    ep_send(&ep, "%s", go);
    usleep(200 * 1000);
    ep_send(&ep, "isready");
    ep_want(&ep, "readyok", WAIT_MS);
    if (strstr(ep.log, "bestmove"))
        fail_msg("'%s' ended by itself:\n%s", go, ep.log);
    ep_send(&ep, "stop");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", WAIT_MS), "bestmove", fen, NULL, NULL);
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
    sync_uci();
    expect_in_log("info message go: 'time' needs a time");
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
    sync_xboard(6);
    /* a clock of minus a lot: the engine moves at once */
    ep_send(&ep, "new");
    ep_send(&ep, "level 0 1 0");
    ep_send(&ep, "time -99999999999999999999");
    ep_send(&ep, "otim 100");
    long t0 = now_ms();
    ep_send(&ep, "h2e2");
    ep_want(&ep, "move ", WAIT_MS);
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
    ep_want(&ep, "move ", WAIT_MS);
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
    expect_in_log("info string book");
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
    expect_in_log("info string book");
}

/* ---- option values ---- */

/* A path of len characters whose first 1023 name a real file (the
 * built-in book's source): cut short, it would load. */
static char *long_book_path(size_t len)
{
    char *s = xmalloc(len + 1);
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
    sync_uci();
    expect_in_log("refused");
    if (strstr(ep.log, "info string book"))
        fail_msg("the long BookFile was cut short and loaded:\n%.2000s", ep.log);
    ep_send(&ep, "setoption name Repetition Rule value %s", path);
    sync_uci();
    expect_in_log("refused");
    /* a value of exactly 1023 characters is taken */
    path[ENGINE_VALUE_MAX - 1] = 0;
    ep_send(&ep, "setoption name BookFile value %s", path);
    ep_send(&ep, "setoption name OwnBook value true");
    ep_send(&ep, "position startpos");
    ep_send(&ep, "go depth 3");
    ep_want(&ep, "bestmove", WAIT_MS);
    expect_in_log("info string book ");
    if (strstr(ep.log, "refused"))
        fail_msg("a value of 1023 characters refused:\n%.2000s", ep.log);
    free(path);
}

static void test_long_option_values_ucci(void **state)
{
    (void)state;
    char *path = long_book_path(1500);
    ep_send(&ep, "setoption bookfiles %s", path);
    sync_uci();
    expect_in_log("refused");
    ep.log[0] = 0;
    ep_send(&ep, "setoption name BookFile value %s", path);
    sync_uci();
    expect_in_log("refused");
    free(path);
}

static void test_long_option_values_xboard(void **state)
{
    (void)state;
    char *path = long_book_path(1500);
    ep_send(&ep, "option BookFile=%s", path);
    sync_xboard(1);
    expect_in_log("refused");
    free(path);
}

/* BookFile empty (no value, an empty one, "<empty>"): no book, in UCI and
 * UCCI, whatever OwnBook or usebook say after it; <built-in> brings the
 * built-in book back. */
static void book_or_search(const char *book_text, bool want_book)
{
    ep_send(&ep, "position startpos");
    ep_send(&ep, "go depth 3");
    ep_want(&ep, "bestmove", WAIT_MS);
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
    if (start_engine(hello))
        fail_msg("cannot start the engine");
    ep_send_raw(&ep, session, strlen(session));
    ep_send(&ep, "%s", sync);
    ep.log[0] = 0;
    if (!ep_expect(&ep, want, WAIT_MS, ep.log, sizeof ep.log))
        fail_msg("%s: no '%s'", hello, want);
    for (const char *p = ep.log; *p; p++)
        if (((unsigned char)*p < 32 && *p != '\n') || *p == 127)
            fail_msg("%s: a control character (%d) in a reply:\n%.3000s", hello, *p, ep.log);
    if (!strchr(ep.log, '?'))
        fail_msg("%s: the bad lines were not answered:\n%.3000s", hello, ep.log);
    ep_send(&ep, "quit");
    ep_finish(&ep, WAIT_MS);
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

/* ---- the command line ---- */

/* Bad arguments: the usage on standard error, nothing on standard output,
 * status 2, and nothing done (no book written). */
static void test_cli_bad_arguments(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "perft --suite tests/data/perft.txt --max-nodes -5",
        "perft --suite tests/data/perft.txt --max-nodes",
        "perft --suite tests/data/perft.txt --max-nodes x",
        "perft --suite tests/data/perft.txt junk",
        "perft --suite",
        "perft 0",
        "bench 3 --rule nope",
        "bench --rule",
        "bench 3 4",
        "book build -o /tmp/chuhan-cli-test.book --min-score nan tests/data/ccpd-master-games.pgn.zst",
        "book build -o /tmp/chuhan-cli-test.book --min-score 2 tests/data/ccpd-master-games.pgn.zst",
        "book build -o /tmp/chuhan-cli-test.book --max-ply -1 tests/data/ccpd-master-games.pgn.zst",
        "book build -o /tmp/chuhan-cli-test.book --min-score",
        "book probe --book",
        "perft 3 nofen",
        "judge --rule nope startpos",
        "judge --repeats x startpos",
        "magics x",
        "magics 1 2",
        "pgn convert --to nope x",
        "tune --nope",
        "tune --epochs x y",
        "match --games x",
        "match --nope",
        "smp 2 x",
        "soak --games x",
    };
    char cmd[1024], out[4096];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        unlink("/tmp/chuhan-cli-test.book");
        snprintf(cmd, sizeof cmd, "{ %s %s 2>/dev/null; }", test_engine_path(), bad[i]);
        int status = test_run(cmd, out, sizeof out);
        if (status != 2 || out[0])
            fail_msg("'%s': status %d, standard output '%.300s'", bad[i], status, out);
        snprintf(cmd, sizeof cmd, "{ %s %s 2>&1 >/dev/null; }", test_engine_path(), bad[i]);
        test_run(cmd, out, sizeof out);
        if (!strstr(out, "usage: chuhan"))
            fail_msg("'%s': no usage on standard error: '%.300s'", bad[i], out);
        if (access("/tmp/chuhan-cli-test.book", F_OK) == 0)
            fail_msg("'%s' wrote a book", bad[i]);
    }
}

/* The tools write only a new file or a regular one: a device, a FIFO, a
 * directory or a symbolic link named as the output (book build, tune,
 * datagen, train, analyze, match --pgn, the Debug Log File option) is refused with the reason and left as it
 * was (book build -o /dev/null once replaced the device with a file). */
static void test_outputs_only_regular_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/chuhan-out-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char fifo[128], link[128], target[128], sub[128], fresh[128], regular[128], cmd[2048], out[4096];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(link, sizeof link, "%s/link", dir);
    snprintf(target, sizeof target, "%s/target", dir);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    snprintf(fresh, sizeof fresh, "%s/new.book", dir);
    snprintf(regular, sizeof regular, "%s/old.book", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    FILE *f = fopen(target, "w");
    assert_non_null(f);
    fputs("keep\n", f);
    fclose(f);
    assert_int_equal(symlink(target, link), 0);
    assert_int_equal(mkdir(sub, 0700), 0);
    f = fopen(regular, "w");
    assert_non_null(f);
    fputs("old\n", f);
    fclose(f);
    const char *refused[] = {"/dev/null", fifo, link, sub};
    const char *pgn = test_data_path("ccpd-master-games.pgn.zst");
    for (size_t i = 0; i < 4; i++) {
        static const char *const tools[] = {"book build --max-ply 2 -o %s %s", "tune --epochs 1 -o %s %s",
                                            "datagen --positions 10 --threads 1 --out %s", "train --data %2$s --out %1$s"};
        for (size_t t = 0; t < 4; t++) {
            char args[600];
            snprintf(args, sizeof args, tools[t], refused[i], pgn);
            snprintf(cmd, sizeof cmd, "%s %s", test_engine_path(), args);
            int status = test_run(cmd, out, sizeof out);
            if (status == 0 || !strstr(out, "refused"))
                fail_msg("'%s': status %d, '%.500s'", args, status, out);
        }
    }
    /* analyze --output to a FIFO: refused */
    snprintf(cmd, sizeof cmd, "%s analyze --depth 1 --output %s %s", test_engine_path(), fifo, pgn);
    if (test_run(cmd, out, sizeof out) == 0 || !strstr(out, "refused"))
        fail_msg("analyze --output to a FIFO: '%.500s'", out);
    /* the Debug Log File option on a device, a FIFO, a link: refused with an info string */
    snprintf(cmd, sizeof cmd,
             "printf 'uci\nsetoption name Debug Log File value /dev/null\nsetoption name Debug Log File value %s\n"
             "setoption name Debug Log File value %s\nisready\n' | %s",
             fifo, link, test_engine_path());
    test_run(cmd, out, sizeof out);
    char *p = out;
    for (int k = 0; k < 3; k++, p++)
        if (!(p = strstr(p, "info string Debug Log File: ")) || !strstr(p, "refused"))
            fail_msg("Debug Log File on a device, a FIFO or a link: not refused:\n%.1500s", out);
    /* match --pgn to a link: refused before any game */
    snprintf(cmd, sizeof cmd, "%s match --engine cmd=%s --engine cmd=%s --each depth=1 --games 2 --pgn %s",
             test_engine_path(), test_engine_path(), test_engine_path(), link);
    if (test_run(cmd, out, sizeof out) == 0 || !strstr(out, "refused"))
        fail_msg("match --pgn to a symbolic link: '%.500s'", out);
    /* each left as it was */
    struct stat st;
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(lstat(sub, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    f = fopen(target, "r");
    assert_non_null(f);
    assert_non_null(fgets(out, sizeof out, f));
    fclose(f);
    assert_string_equal(out, "keep\n");
    /* a new path and a regular file are written (the latter replaced whole) */
    const char *good[] = {fresh, regular};
    for (size_t i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "%s book build --max-ply 2 -o %s %s", test_engine_path(), good[i], pgn);
        if (test_run(cmd, out, sizeof out) != 0)
            fail_msg("book build -o %s: '%.500s'", good[i], out);
        assert_int_equal(lstat(good[i], &st), 0);
        assert_true(S_ISREG(st.st_mode) && st.st_size > 100);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

const struct CMUnitTest *limits_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_line),
        cmocka_unit_test(test_cr_line_ends),
        cmocka_unit_test(test_control_chars_echo),
        cmocka_unit_test(test_cli_bad_arguments),
        cmocka_unit_test(test_outputs_only_regular_files),
        cmocka_unit_test(test_time_manager_extremes),
        cmocka_unit_test(test_overhead_fair_share),
        cmocka_unit_test_setup_teardown(test_go_other_clock_uci, setup_uci, teardown),
        cmocka_unit_test_setup_teardown(test_stop_before_depth_one, setup_uci, teardown),
        cmocka_unit_test(test_engine_api_limits),
        cmocka_unit_test_setup_teardown(test_long_line_uci, setup_uci, teardown),
        cmocka_unit_test_setup_teardown(test_long_line_ucci, setup_ucci, teardown),
        cmocka_unit_test_setup_teardown(test_long_line_xboard, setup_xboard, teardown),
        cmocka_unit_test_setup_teardown(test_long_first_line, setup_bare, teardown),
        cmocka_unit_test_setup_teardown(test_ucci_stop_then_go, setup_ucci, teardown),
        cmocka_unit_test_setup_teardown(test_position_moves_uci, setup_uci, teardown),
        cmocka_unit_test_setup_teardown(test_position_moves_ucci, setup_ucci, teardown),
        cmocka_unit_test_setup_teardown(test_game_length_xboard, setup_xboard, teardown),
        cmocka_unit_test_setup_teardown(test_hash_threads_uci, setup_uci, teardown),
        cmocka_unit_test_setup_teardown(test_hash_threads_ucci, setup_ucci, teardown),
        cmocka_unit_test_setup_teardown(test_hash_threads_xboard, setup_xboard, teardown),
        cmocka_unit_test_setup_teardown(test_deep_search_uci, setup_uci, teardown),
        cmocka_unit_test_setup_teardown(test_deep_search_ucci, setup_ucci, teardown),
        cmocka_unit_test_setup_teardown(test_deep_search_xboard, setup_xboard, teardown),
        cmocka_unit_test_setup_teardown(test_numbers_uci, setup_uci, teardown),
        cmocka_unit_test_setup_teardown(test_numbers_ucci, setup_ucci, teardown),
        cmocka_unit_test_setup_teardown(test_numbers_xboard, setup_xboard, teardown),
        cmocka_unit_test_setup_teardown(test_book_file_device, setup_uci, teardown),
        cmocka_unit_test_setup_teardown(test_book_file_fifo, setup_uci, teardown),
        cmocka_unit_test_setup_teardown(test_long_option_values_uci, setup_uci, teardown),
        cmocka_unit_test_setup_teardown(test_long_option_values_ucci, setup_ucci, teardown),
        cmocka_unit_test_setup_teardown(test_long_option_values_xboard, setup_xboard, teardown),
        cmocka_unit_test_setup_teardown(test_book_file_empty_uci, setup_uci, teardown),
        cmocka_unit_test_setup_teardown(test_book_file_empty_ucci, setup_ucci, teardown),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
