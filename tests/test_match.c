/* The match runner: real matches between Chuhan processes (UCI, and UCCI
 * through a small translating script) checked through their PGN, and
 * engines that misbehave: an illegal move, a crash, a stall, a time
 * forfeit, a flood of output, a failed handshake.  The referee and the
 * statistics are tested in test_match_referee.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/tools/match.h"
#include "engine/board/movegen.h"
#include "engine/records/pgn.h"
#include "engine/rules/rules.h"
#include "tests.h"

/* ---- real matches ---- */

static char tmpdir[256];

static int make_tmpdir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/chuhan-match-test-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
    (void)state;
    char cmd[320];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *tmp_path(const char *name)
{
    static char buf[4][512];
    static int k;
    char *out = buf[k++ & 3];
    snprintf(out, sizeof buf[0], "%s/%s", tmpdir, name);
    return out;
}

static void write_script(const char *name, const char *text)
{
    const char *path = tmp_path(name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, 0755), 0);
}

static void engine(MatchConfig *cfg, const char *cmd, const char *name)
{
    EngineSpec *e = &cfg->engines[cfg->nengines++];
    memset(e, 0, sizeof *e);
    snprintf(e->cmd, sizeof e->cmd, "%s", cmd);
    snprintf(e->name, sizeof e->name, "%s", name);
    e->limits.margin_ms = 200;
    e->limits.timeout_ms = 20000;
}

static void chuhan(MatchConfig *cfg, const char *name, int depth)
{
    engine(cfg, test_engine_path(), name);
    EngineSpec *e = &cfg->engines[cfg->nengines - 1];
    e->limits.depth = depth;
    e->noptions = 1;
    snprintf(e->options[0].name, sizeof e->options[0].name, "OwnBook");
    snprintf(e->options[0].value, sizeof e->options[0].value, "false");
}

typedef struct {
    int records;
    long wdl[2][3]; /* per engine 0/1 by name, from the PGN */
    int term_count;
    char details[16][200];
} PgnCheck;

/* Re-read a match's PGN: every record replays legally, its tags agree. */
static void check_pgn(const char *path, const MatchConfig *cfg, PgnCheck *out)
{
    memset(out, 0, sizeof *out);
    char err[256];
    PgnReader *r = pgn_open_file(path, PGN_ENC_AUTO, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    const PgnGame *g;
    int k;
    static Position pos;
    static Move moves[MAX_GAME_PLY];
    while ((k = pgn_next(r, &g, err, sizeof err)) > 0) {
        int n;
        PgnReplayError e = pgn_replay(g, &pos, moves, MAX_GAME_PLY, &n, err, sizeof err);
        if (e == PGN_ERR_NO_MOVES) { /* an engine that lost before its first move */
            const char *fen = pgn_tag(g, "FEN");
            assert_true(pos_set_fen(&pos, fen ? fen : START_FEN, err, sizeof err));
            n = 0;
        } else if (e != PGN_OK) {
            fail_msg("record %ld does not replay: %s", g->index, err);
        }
        const char *red = pgn_tag(g, "Red"), *black = pgn_tag(g, "Black"), *plies = pgn_tag(g, "PlyCount");
        const char *term = pgn_tag(g, "Termination"), *details = pgn_tag(g, "TerminationDetails");
        assert_non_null(red);
        assert_non_null(black);
        assert_non_null(term);
        assert_non_null(details);
        assert_non_null(plies);
        assert_int_equal(atoi(plies), n);
        int ri = !strcmp(red, cfg->engines[0].name) ? 0 : 1, bi = !ri;
        assert_string_equal(ri ? cfg->engines[1].name : cfg->engines[0].name, red);
        assert_string_equal(bi ? cfg->engines[1].name : cfg->engines[0].name, black);
        int res = pgn_result(g);
        assert_int_not_equal(res, PGN_UNKNOWN);
        if (res == PGN_RED_WINS) {
            out->wdl[ri][0]++;
            out->wdl[bi][2]++;
        } else if (res == PGN_BLACK_WINS) {
            out->wdl[bi][0]++;
            out->wdl[ri][2]++;
        } else {
            out->wdl[ri][1]++;
            out->wdl[bi][1]++;
        }
        /* a checkmate must be one: no legal move, and the side to move lost */
        if (!strncmp(details, "checkmate", 9)) {
            assert_int_equal(count_legal(&pos), 0);
            assert_true(pos_in_check(&pos));
            assert_int_equal(res, pos.side == RED ? PGN_BLACK_WINS : PGN_RED_WINS);
        }
        if (out->records < 16)
            snprintf(out->details[out->records], sizeof out->details[0], "%s", details);
        out->records++;
    }
    if (k < 0)
        fail_msg("%s", err);
    pgn_close(r);
}

static void run_match(MatchConfig *cfg, MatchResult *res)
{
    char err[512];
    cfg->out = NULL;
    if (!match_run(cfg, res, err, sizeof err))
        fail_msg("match: %s", err);
}

/* The pairs of a against b agree with their games: mirrored for b, every
 * game in a pair or counted apart, and the pairs' points those of their
 * games (all of them when every pair is complete). */
static void check_pairs(const MatchResult *res, int a, int b)
{
    const long *p = res->penta[a][b], *s = res->wdl[a][b];
    long pairs = 0, half = 0;
    for (int k = 0; k < PENTA_N; k++) {
        assert_int_equal(res->penta[b][a][PENTA_N - 1 - k], p[k]);
        pairs += p[k];
        half += k * p[k];
    }
    long u = res->unpaired[a][b];
    assert_int_equal(res->unpaired[b][a], u);
    assert_true(u >= 0);
    assert_int_equal(2 * pairs + u, s[0] + s[1] + s[2]);
    long games_half = 2 * s[0] + s[1]; /* a's points, times 2 */
    assert_true(half <= games_half && games_half - half <= 2 * u);
}

static void test_match_chuhan_vs_chuhan(void **state)
{
    (void)state;
    static MatchConfig cfg;
    static MatchResult res;
    match_config_default(&cfg);
    cfg.nengines = 0;
    chuhan(&cfg, "Alpha", 2);
    chuhan(&cfg, "Beta", 3);
    cfg.games = 4;
    cfg.concurrency = 2;
    cfg.book_plies = 6;
    cfg.seed = 7;
    snprintf(cfg.pgn, sizeof cfg.pgn, "%s", tmp_path("cc.pgn"));
    run_match(&cfg, &res);
    const long *s = res.wdl[0][1];
    assert_int_equal(res.games, 4);
    assert_int_equal(s[0] + s[1] + s[2], 4);
    assert_int_equal(res.wdl[1][0][0], s[2]);
    assert_int_equal(res.wdl[1][0][2], s[0]);
    assert_int_equal(res.red_wins + res.black_wins + res.draws, 4);
    /* two games at once may finish out of order: still two whole pairs */
    check_pairs(&res, 0, 1);
    assert_int_equal(penta_pairs(res.penta[0][1]), 2);
    assert_int_equal(res.unpaired[0][1], 0);
    /* no engine failed */
    for (int t = TERM_TIME; t < TERM_NB; t++)
        assert_int_equal(res.terminations[t], 0);
    PgnCheck pc;
    check_pgn(cfg.pgn, &cfg, &pc);
    assert_int_equal(pc.records, 4);
    for (int k = 0; k < 3; k++) {
        assert_int_equal(pc.wdl[0][k], s[k]);
        assert_int_equal(pc.wdl[1][k], res.wdl[1][0][k]);
    }

    /* Chuhan speaking UCCI against Chuhan speaking UCI */
    match_config_default(&cfg);
    cfg.nengines = 0;
    chuhan(&cfg, "ChuhanUCCI", 2);
    cfg.engines[0].proto = PROTO_UCCI;
    snprintf(cfg.engines[0].options[0].name, sizeof cfg.engines[0].options[0].name, "usebook");
    chuhan(&cfg, "ChuhanUCI", 2);
    cfg.games = 2;
    cfg.book_plies = 4;
    snprintf(cfg.pgn, sizeof cfg.pgn, "%s", tmp_path("ucci-chuhan.pgn"));
    run_match(&cfg, &res);
    assert_int_equal(res.games, 2);
    for (int t = TERM_TIME; t < TERM_NB; t++)
        if (res.terminations[t])
            fail_msg("a game of Chuhan's UCCI ended by %s", match_termination_name(t));
    check_pgn(cfg.pgn, &cfg, &pc);
    assert_int_equal(pc.records, 2);

    /* the same in Chinese notation, UCCI through a translating script, under a clock */
    char script[2048];
    snprintf(script, sizeof script,
             "#!/bin/sh\n"
             "# a UCCI engine made of Chuhan's UCI\n"
             "log='%s'\n"
             "dir=$(mktemp -d) || exit 1\n"
             "mkfifo \"$dir/in\" \"$dir/out\" || exit 1\n"
             "'%s' < \"$dir/in\" > \"$dir/out\" &\n"
             "exec 3> \"$dir/in\" 4< \"$dir/out\"\n"
             "rm -rf \"$dir\"\n"
             "echo 'setoption name OwnBook value false' >&3\n"
             "while IFS= read -r line; do\n"
             "  echo \"$line\" >> \"$log\"\n"
             "  case \"$line\" in\n"
             "    ucci) echo 'id name FakeUCCI'; echo 'option usemillisec type check default false'; echo ucciok;;\n"
             "    isready) echo isready >&3; while IFS= read -r r <&4; do [ \"$r\" = readyok ] && break; done;"
             " echo readyok;;\n"
             "    position*) echo \"$line\" >&3;;\n"
             "    go*) echo 'go depth 2' >&3;\n"
             "      while IFS= read -r r <&4; do case \"$r\" in\n"
             "        info*) echo \"$r\" | sed 's/score cp/score/';;\n"
             "        bestmove*) echo \"$r\"; break;; esac; done;;\n"
             "    quit) echo quit >&3; echo bye; exit 0;;\n"
             "  esac\n"
             "done\n",
             tmp_path("ucci.log"), test_engine_path());
    write_script("ucci.sh", script);
    match_config_default(&cfg);
    cfg.nengines = 0;
    engine(&cfg, tmp_path("ucci.sh"), "FakeUCCI");
    cfg.engines[0].proto = PROTO_UCCI;
    chuhan(&cfg, "Chuhan", 2);
    for (int e = 0; e < 2; e++) {
        cfg.engines[e].limits.clock = true;
        cfg.engines[e].limits.base_ms = 20000;
        cfg.engines[e].limits.inc_ms = 100;
        cfg.engines[e].limits.depth = 0;
    }
    cfg.engines[1].limits.depth = 2;
    cfg.games = 2;
    cfg.book_plies = 4;
    cfg.notation = NOTATION_CHINESE;
    snprintf(cfg.pgn, sizeof cfg.pgn, "%s", tmp_path("ucci.pgn"));
    run_match(&cfg, &res);
    assert_int_equal(res.games, 2);
    for (int t = TERM_TIME; t < TERM_NB; t++)
        if (res.terminations[t])
            fail_msg("a UCCI game ended by %s", match_termination_name(t));
    check_pgn(cfg.pgn, &cfg, &pc);
    assert_int_equal(pc.records, 2);
    for (int k = 0; k < 3; k++)
        assert_int_equal(pc.wdl[0][k], res.wdl[0][1][k]);
    /* what the UCCI engine was told */
    FILE *f = fopen(tmp_path("ucci.log"), "r");
    assert_non_null(f);
    static char log[1 << 20];
    size_t n = fread(log, 1, sizeof log - 1, f);
    log[n] = 0;
    fclose(f);
    assert_non_null(strstr(log, "ucci\n"));
    assert_non_null(strstr(log, "setoption usemillisec true\n"));
    assert_non_null(strstr(log, "position fen "));
    assert_non_null(strstr(log, "go time "));
    assert_non_null(strstr(log, " increment 100 opptime "));
    assert_non_null(strstr(log, "quit\n"));
}

/* Three engines round-robin, three games at once: every pair plays its
 * games, and each pair's score is the mirror of the other side's. */
static void test_match_round_robin(void **state)
{
    (void)state;
    static MatchConfig cfg;
    static MatchResult res;
    match_config_default(&cfg);
    cfg.nengines = 0;
    chuhan(&cfg, "One", 1);
    chuhan(&cfg, "Two", 2);
    chuhan(&cfg, "Three", 1);
    cfg.games = 2;
    cfg.concurrency = 3;
    cfg.book_plies = 4;
    run_match(&cfg, &res);
    assert_int_equal(res.games, 6);
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            const long *s = res.wdl[a][b];
            if (a == b) {
                assert_int_equal(s[0] + s[1] + s[2], 0);
                continue;
            }
            assert_int_equal(s[0] + s[1] + s[2], 2);
            assert_int_equal(s[0], res.wdl[b][a][2]);
            assert_int_equal(s[1], res.wdl[b][a][1]);
            /* its two games are one opening with the colours reversed: one pair */
            check_pairs(&res, a, b);
            assert_int_equal(penta_pairs(res.penta[a][b]), 1);
            assert_int_equal(res.unpaired[a][b], 0);
        }
}

/* A much stronger engine: the SPRT decides long before the games run out. */
static void test_match_sprt_stops(void **state)
{
    (void)state;
    static MatchConfig cfg;
    static MatchResult res;
    match_config_default(&cfg);
    cfg.nengines = 0;
    chuhan(&cfg, "Deep", 5);
    chuhan(&cfg, "Shallow", 1);
    cfg.games = 200;
    cfg.concurrency = 2;
    cfg.book_plies = 8;
    cfg.sprt = true;
    cfg.sprt_params = (SprtParams){0, 200, 0.05, 0.05};
    run_match(&cfg, &res);
    printf("  sprt: %ld games, W %ld D %ld L %ld, LLR %.2f\n", res.games, res.wdl[0][1][0], res.wdl[0][1][1],
           res.wdl[0][1][2], res.llr);
    assert_int_equal(res.verdict, SPRT_ACCEPT_H1);
    assert_true(res.games < 100);
    double lo, hi;
    sprt_bounds(&cfg.sprt_params, &lo, &hi);
    assert_true(res.verdict_llr >= hi); /* one more game may have been running when it stopped */
    assert_true(res.verdict_games <= res.games && res.verdict_games >= res.games - 1);
    const long *s = res.wdl[0][1];
    assert_int_equal(s[0] + s[1] + s[2], res.games);
    assert_true(s[0] > s[2]);
    /* stopped early, a game may be left without its pair: counted apart,
     * and the LLR is that of the pairs */
    check_pairs(&res, 0, 1);
    assert_true(penta_pairs(res.penta[0][1]) > 0);
    assert_true(res.llr == sprt_llr_penta(res.penta[0][1], &cfg.sprt_params));
    EloEstimate e;
    match_elo_of(&res, 0, 1, &e);
    assert_int_equal(e.pairs, penta_pairs(res.penta[0][1]));
    assert_true(e.elo > 0);
}

/* A misbehaving engine against Chuhan: every game goes to Chuhan, ended
 * the way expected, and the match plays on. */
static void bad_engine_match(const char *script_name, const char *script, Termination want, const char *detail,
                             int games, int64_t movetime, int64_t timeout)
{
    static MatchConfig cfg;
    static MatchResult res;
    write_script(script_name, script);
    match_config_default(&cfg);
    cfg.nengines = 0;
    chuhan(&cfg, "Chuhan", 1);
    engine(&cfg, tmp_path(script_name), "Bad");
    cfg.engines[1].limits.depth = 1;
    cfg.engines[1].limits.timeout_ms = timeout;
    if (movetime) {
        cfg.engines[1].limits.depth = 0;
        cfg.engines[1].limits.movetime_ms = movetime;
        cfg.engines[1].limits.margin_ms = 50;
    }
    cfg.games = games;
    cfg.concurrency = 2;
    snprintf(cfg.pgn, sizeof cfg.pgn, "%s", tmp_path("bad.pgn"));
    run_match(&cfg, &res);
    assert_int_equal(res.games, games);
    if (res.wdl[0][1][0] != games || res.terminations[want] != games)
        fail_msg("%s: Chuhan won %ld of %d games, %ld ended by %s", script_name, res.wdl[0][1][0], games,
                 res.terminations[want], match_termination_name(want));
    PgnCheck pc;
    check_pgn(cfg.pgn, &cfg, &pc);
    assert_int_equal(pc.records, games);
    for (int i = 0; i < pc.records && i < 16; i++)
        if (!strstr(pc.details[i], detail))
            fail_msg("%s: game %d ended '%s', expected '%s'", script_name, i + 1, pc.details[i], detail);
}

#define HANDSHAKE                                                                                            \
    "#!/bin/sh\n"                                                                                            \
    "while IFS= read -r line; do\n"                                                                          \
    "  case \"$line\" in\n"                                                                                  \
    "    uci) echo 'id name Bad'; echo uciok;;\n"                                                            \
    "    isready) echo readyok;;\n"                                                                          \
    "    quit) exit 0;;\n"

static void test_match_illegal_move(void **state)
{
    (void)state;
    bad_engine_match("illegal.sh", HANDSHAKE "    go*) echo 'info depth 1 score cp 5'; echo 'bestmove a0a0';;\n"
                                             "  esac\ndone\n",
                     TERM_ILLEGAL, "illegal move: a0a0", 2, 0, 5000);
}

static void test_match_crash(void **state)
{
    (void)state;
    /* exits when asked to move: every game is lost, and the engine restarted for the next */
    bad_engine_match("crash.sh", HANDSHAKE "    go*) exit 3;;\n  esac\ndone\n", TERM_CRASH, "disconnects: exit status 3",
                     4, 0, 5000);
}

static void test_match_stall(void **state)
{
    (void)state;
    /* a second: the timeout also bounds the script's start and handshake,
     * which took over 300 ms once on a loaded machine */
    bad_engine_match("stall.sh", HANDSHAKE "  esac\ndone\n", TERM_STALL, "no move within 1000 ms", 2, 0, 1000);
}

static void test_match_chatter(void **state)
{
    (void)state;
    /* talks without end and never moves: a stall all the same */
    bad_engine_match("chatter.sh", HANDSHAKE "    go*) while :; do echo 'info string still thinking'; done;;\n  esac\ndone\n",
                     TERM_STALL, "no move within 1000 ms", 2, 0, 1000);
}

static void test_match_time_forfeit(void **state)
{
    (void)state;
    bad_engine_match("slow.sh", HANDSHAKE "    go*) sleep 0.4; echo 'bestmove a0a1';;\n  esac\ndone\n", TERM_TIME,
                     "loses on time", 2, 100, 5000);
}

/* A move over the time left by less than the margin is not forfeited but
 * counted, with the game's lowest clock, and the summary says so. */
static void test_match_late_move_counted(void **state)
{
    (void)state;
    static MatchConfig cfg;
    static MatchResult res;
    write_script("late.sh", HANDSHAKE "    go*) n=$((n+1)); if [ $n = 1 ]; then sleep 0.3; echo 'bestmove h2e2';"
                                      " else echo 'bestmove a0a0'; fi;;\n  esac\ndone\n");
    match_config_default(&cfg);
    cfg.nengines = 0;
    engine(&cfg, tmp_path("late.sh"), "Late"); /* red in the one game */
    cfg.engines[0].limits.clock = true;
    cfg.engines[0].limits.base_ms = 100;
    cfg.engines[0].limits.inc_ms = 2000;
    cfg.engines[0].limits.margin_ms = 2000;
    chuhan(&cfg, "Chuhan", 1);
    cfg.games = 1;
    run_match(&cfg, &res);
    assert_int_equal(res.games, 1);
    assert_int_equal(res.terminations[TERM_ILLEGAL], 1); /* the second move, a0a0 */
    assert_int_equal(res.timed_moves[0], 2);
    assert_int_equal(res.late_moves[0], 1);
    assert_in_range(res.late_worst_ms[0], 150, 2000); /* 300 ms asleep on a 100 ms clock */
    assert_int_equal(res.clock_games[0], 1);
    assert_true(res.low_median_ms[0] == -res.late_worst_ms[0]);
    assert_true(res.low_p01_ms[0] == res.low_median_ms[0]);
    assert_int_equal(res.timed_moves[1], 0); /* Chuhan plays by depth */
    assert_int_equal(res.clock_games[1], 0);

    char text[2048] = "";
    FILE *f = fmemopen(text, sizeof text - 1, "w");
    assert_non_null(f);
    match_print_summary(f, &cfg, &res);
    fclose(f);
    char want[160];
    snprintf(want, sizeof want, "Time of Late: 2 moves, 1 over the time left by at most the 2000 ms margin (worst +%lld ms)",
             (long long)res.late_worst_ms[0]);
    if (!strstr(text, want))
        fail_msg("summary without '%s':\n%s", want, text);
    assert_null(strstr(text, "Time of Chuhan"));
}

static void test_match_flood(void **state)
{
    (void)state;
    /* a 300 kB line, binary junk, then a move that does not exist */
    bad_engine_match("flood.sh",
                     HANDSHAKE "    go*) head -c 300000 /dev/zero | tr '\\000' x; echo; printf 'info \\001\\002\\n';"
                               " echo 'bestmove zz99';;\n  esac\ndone\n",
                     TERM_ILLEGAL, "illegal move: zz99", 2, 0, 5000);
}

static void test_match_long_lines(void **state)
{
    (void)state;
    /* lines over the 64 kB a line may have, one after another (one such
     * pair crashed the runner), each read whole or in pieces: every one
     * dropped, the move after them read (and refused) */
    bad_engine_match("long-lines.sh",
                     HANDSHAKE "    go*) for n in 70000 70000 100000 130000 65537 300000; do"
                               " head -c $n /dev/zero | tr '\\000' x; echo; done;"
                               " echo 'bestmove zz99';;\n  esac\ndone\n",
                     TERM_ILLEGAL, "illegal move: zz99", 2, 0, 5000);
}

static void test_match_no_handshake(void **state)
{
    (void)state;
    static MatchConfig cfg;
    static MatchResult res;
    write_script("mute.sh", "#!/bin/sh\nexit 0\n");
    match_config_default(&cfg);
    cfg.nengines = 0;
    chuhan(&cfg, "Chuhan", 1);
    engine(&cfg, tmp_path("mute.sh"), "Mute");
    cfg.engines[1].limits.depth = 1;
    cfg.out = NULL;
    char err[512];
    assert_false(match_run(&cfg, &res, err, sizeof err));
    assert_non_null(strstr(err, "Mute"));
    assert_non_null(strstr(err, "uciok"));
    /* a command that does not exist */
    snprintf(cfg.engines[1].cmd, sizeof cfg.engines[1].cmd, "%s", tmp_path("no-such-engine"));
    assert_false(match_run(&cfg, &res, err, sizeof err));
}

/* The options given are checked against those the engine lists before a
 * game: an engine that ignored a setoption it does not take would play
 * the whole match with its defaults.  Names are case-insensitive and may
 * have spaces (UCI); a spin takes a whole number in its range, a check
 * true or false.  A match that passes plays. */
static void test_match_options_checked(void **state)
{
    (void)state;
    static MatchConfig cfg;
    static MatchResult res;
    write_script("opts.sh", "#!/bin/sh\n"
                            "while IFS= read -r line; do\n"
                            "  case \"$line\" in\n"
                            "    uci) echo 'id name Opts'; echo 'option name Move Overhead type spin default 30 min 0 max 5000';\n"
                            "      echo 'option name Flag type check default false'; echo uciok;;\n"
                            "    ucci) echo 'option hashsize type spin min 0 max 1024 default 16'; echo ucciok;;\n"
                            "    isready) echo readyok;;\n"
                            "    quit) exit 0;;\n"
                            "  esac\n"
                            "done\n");
    static const struct {
        bool ucci;
        const char *name, *value, *want;
    } bad[] = {
        {false, "Nope", "1", "lists no option 'Nope' (its options: Move Overhead, Flag)"},
        {false, "Move", "10", "lists no option 'Move'"},
        {false, "Move Overhead", "5001", "option Move Overhead=5001: the engine takes a whole number from 0 to 5000"},
        {false, "move overhead", "-1", "a whole number from 0 to 5000"},
        {false, "Move Overhead", "10ms", "a whole number from 0 to 5000"},
        {false, "Flag", "yes", "option Flag=yes: the engine takes true or false"},
        {true, "hashsize", "2048", "option hashsize=2048: the engine takes a whole number from 0 to 1024"},
        {true, "Hash", "16", "lists no option 'Hash' (its options: hashsize)"},
    };
    char err[512];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        match_config_default(&cfg);
        cfg.nengines = 0;
        chuhan(&cfg, "Chuhan", 1);
        engine(&cfg, tmp_path("opts.sh"), "Opts");
        EngineSpec *e = &cfg.engines[1];
        e->proto = bad[i].ucci ? PROTO_UCCI : PROTO_UCI;
        e->limits.depth = 1;
        e->noptions = 2;
        snprintf(e->options[0].name, sizeof e->options[0].name, "%s", bad[i].ucci ? "hashsize" : "flag");
        snprintf(e->options[0].value, sizeof e->options[0].value, "%s", bad[i].ucci ? "64" : "TRUE");
        snprintf(e->options[1].name, sizeof e->options[1].name, "%s", bad[i].name);
        snprintf(e->options[1].value, sizeof e->options[1].value, "%s", bad[i].value);
        cfg.out = NULL;
        err[0] = 0;
        assert_false(match_run(&cfg, &res, err, sizeof err));
        if (!strstr(err, bad[i].want) || !strstr(err, "Opts"))
            fail_msg("option %s=%s: '%s', wanted '%s'", bad[i].name, bad[i].value, err, bad[i].want);
    }
    /* Chuhan's own, a name with a space in another case: the match plays */
    match_config_default(&cfg);
    cfg.nengines = 0;
    chuhan(&cfg, "A", 1);
    chuhan(&cfg, "B", 1);
    EngineSpec *b = &cfg.engines[1];
    snprintf(b->options[1].name, sizeof b->options[1].name, "move overhead");
    snprintf(b->options[1].value, sizeof b->options[1].value, "10");
    b->noptions = 2;
    cfg.games = 2;
    run_match(&cfg, &res);
    assert_int_equal(res.games, 2);
}

static void test_match_openings_file(void **state)
{
    (void)state;
    static MatchConfig cfg;
    static MatchResult res;
    const char *path = tmp_path("openings.epd");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("# two openings\n"
          "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - bm h2e2; id \"start\";\n"
          "startpos moves h2e2 h9g7\n",
          f);
    assert_int_equal(fclose(f), 0);
    match_config_default(&cfg);
    cfg.nengines = 0;
    chuhan(&cfg, "A", 1);
    chuhan(&cfg, "B", 1);
    cfg.games = 4;
    snprintf(cfg.openings, sizeof cfg.openings, "%s", path);
    snprintf(cfg.pgn, sizeof cfg.pgn, "%s", tmp_path("openings.pgn"));
    run_match(&cfg, &res);
    assert_int_equal(res.games, 4);
    PgnCheck pc;
    check_pgn(cfg.pgn, &cfg, &pc);
    assert_int_equal(pc.records, 4);
    /* games 3 and 4 start with the two opening moves */
    f = fopen(cfg.pgn, "r");
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    const char *g3 = strstr(text, "[Round \"3\"]");
    assert_non_null(g3);
    assert_non_null(strstr(g3, "1. h2e2 h9g7 {opening}"));

    /* a bad openings file stops the match before it starts */
    f = fopen(path, "w");
    fputs("startpos moves h2e2 h2e2\n", f);
    fclose(f);
    char err[256];
    cfg.out = NULL;
    assert_false(match_run(&cfg, &res, err, sizeof err));
    assert_non_null(strstr(err, "not legal"));
}

static size_t read_text(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = 0;
    fclose(f);
    return n;
}

/* --resume: a match cut after three games and half of the fourth goes on
 * from game 4 with the openings it would have had, counts all six, and
 * leaves a PGN of six whole records; a finished match resumes to nothing;
 * a file of another match is refused with the reason. */
static void test_match_resume(void **state)
{
    (void)state;
    static MatchConfig cfg;
    static MatchResult res;
    static char full[1 << 20], cut[1 << 20], after[1 << 20];
    match_config_default(&cfg);
    cfg.nengines = 0;
    chuhan(&cfg, "Red1", 1);
    chuhan(&cfg, "Blue2", 2);
    cfg.games = 6;
    cfg.book_plies = 6;
    cfg.seed = 11;
    cfg.sprt = true;
    snprintf(cfg.pgn, sizeof cfg.pgn, "%s", tmp_path("full.pgn"));
    run_match(&cfg, &res);
    assert_int_equal(res.games, 6);
    assert_int_equal(res.resumed, 0);
    size_t n = read_text(cfg.pgn, full, sizeof full);

    /* three whole games and half of the fourth */
    const char *g4 = strstr(full, "[Round \"4\"]");
    assert_non_null(g4);
    const char *half = strstr(g4, "\n\n") + 40;
    size_t three = (size_t)(g4 - full);
    test_write_file(tmp_path("cut.pgn"), full, (size_t)(half - full));
    snprintf(cfg.pgn, sizeof cfg.pgn, "%s", tmp_path("cut.pgn"));
    cfg.resume = true;
    run_match(&cfg, &res);
    assert_int_equal(res.games, 6);
    assert_int_equal(res.resumed, 3);
    check_pairs(&res, 0, 1);
    assert_int_equal(penta_pairs(res.penta[0][1]), 3);
    /* the endings are those of the games played here */
    long ended = 0;
    for (int t = 0; t < TERM_NB; t++)
        ended += res.terminations[t];
    assert_int_equal(ended, 3);
    PgnCheck pc;
    check_pgn(cfg.pgn, &cfg, &pc);
    assert_int_equal(pc.records, 6);
    for (int k = 0; k < 3; k++)
        assert_int_equal(pc.wdl[0][k], res.wdl[0][1][k]);
    assert_true(fabs(res.llr - match_llr_of(&res, &cfg.sprt_params)) < 1e-12);
    /* the first three games kept as they were, then the same games go on */
    size_t m = read_text(cfg.pgn, cut, sizeof cut);
    assert_true(m > three);
    assert_memory_equal(cut, full, three);
    for (int g = 4; g <= 6; g++) {
        char tag[32];
        snprintf(tag, sizeof tag, "[Round \"%d\"]", g);
        const char *a = strstr(full, tag), *b = strstr(cut, tag);
        assert_non_null(a);
        assert_non_null(b);
        /* the opening's six plies, and the colours */
        const char *ma = strstr(a, "\n\n") + 2, *mb = strstr(b, "\n\n") + 2;
        const char *ea = strstr(ma, "{opening}");
        assert_non_null(ea);
        assert_memory_equal(ma, mb, (size_t)(ea - ma));
        assert_memory_equal(strstr(a, "[Red "), strstr(b, "[Red "), 30);
    }
    (void)n;

    /* a finished match: nothing to play, the file unchanged */
    run_match(&cfg, &res);
    assert_int_equal(res.games, 6);
    assert_int_equal(res.resumed, 6);
    assert_int_equal(read_text(cfg.pgn, after, sizeof after), m);
    assert_memory_equal(after, cut, m);

    /* another match's file, or not a PGN of this runner: refused, the file untouched */
    char err[512];
    cfg.out = NULL;
    snprintf(cfg.engines[1].name, sizeof cfg.engines[1].name, "Green3");
    assert_false(match_run(&cfg, &res, err, sizeof err));
    assert_non_null(strstr(err, "same engines"));
    snprintf(cfg.engines[1].name, sizeof cfg.engines[1].name, "Blue2");
    cfg.engines[1].limits.depth = 3;
    assert_false(match_run(&cfg, &res, err, sizeof err));
    assert_non_null(strstr(err, "played at"));
    cfg.engines[1].limits.depth = 2;
    cfg.games = 2;
    assert_false(match_run(&cfg, &res, err, sizeof err));
    assert_non_null(strstr(err, "more than the 2 games"));
    cfg.games = 6;
    test_write_file(tmp_path("junk.pgn"), "hello\n", 6);
    snprintf(cfg.pgn, sizeof cfg.pgn, "%s", tmp_path("junk.pgn"));
    assert_false(match_run(&cfg, &res, err, sizeof err));
    assert_non_null(strstr(err, "not a record"));
    assert_int_equal(read_text(cfg.pgn, after, sizeof after), 6);
    assert_int_equal(read_text(tmp_path("cut.pgn"), after, sizeof after), m);

    /* a missing file: a new match */
    snprintf(cfg.pgn, sizeof cfg.pgn, "%s", tmp_path("new.pgn"));
    cfg.games = 2;
    run_match(&cfg, &res);
    assert_int_equal(res.games, 2);
    assert_int_equal(res.resumed, 0);
    check_pgn(cfg.pgn, &cfg, &pc);
    assert_int_equal(pc.records, 2);
}

const struct CMUnitTest *match_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_match_chuhan_vs_chuhan, make_tmpdir, remove_tmpdir),
        cmocka_unit_test(test_match_round_robin),
        cmocka_unit_test(test_match_sprt_stops),
        cmocka_unit_test_setup_teardown(test_match_illegal_move, make_tmpdir, remove_tmpdir),
        cmocka_unit_test_setup_teardown(test_match_crash, make_tmpdir, remove_tmpdir),
        cmocka_unit_test_setup_teardown(test_match_stall, make_tmpdir, remove_tmpdir),
        cmocka_unit_test_setup_teardown(test_match_chatter, make_tmpdir, remove_tmpdir),
        cmocka_unit_test_setup_teardown(test_match_time_forfeit, make_tmpdir, remove_tmpdir),
        cmocka_unit_test_setup_teardown(test_match_late_move_counted, make_tmpdir, remove_tmpdir),
        cmocka_unit_test_setup_teardown(test_match_flood, make_tmpdir, remove_tmpdir),
        cmocka_unit_test_setup_teardown(test_match_long_lines, make_tmpdir, remove_tmpdir),
        cmocka_unit_test_setup_teardown(test_match_no_handshake, make_tmpdir, remove_tmpdir),
        cmocka_unit_test_setup_teardown(test_match_options_checked, make_tmpdir, remove_tmpdir),
        cmocka_unit_test_setup_teardown(test_match_openings_file, make_tmpdir, remove_tmpdir),
        cmocka_unit_test_setup_teardown(test_match_resume, make_tmpdir, remove_tmpdir),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
