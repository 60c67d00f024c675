/* Strength levels (Skill Level, UCI_LimitStrength, UCI_Elo) through the
 * engine API: every level legal and taking a mate in one, weak levels
 * varying, no forbidden repetition, the pick itself, UCI_Elo's range and
 * its mapping onto the ladder; and through the three protocols, a weaker
 * level's search that ends by itself holding its move until stop or
 * ponderhit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/board/movegen.h"
#include "engine/engine.h"
#include "engine/rules/rules.h"
#include "engine/skill.h"
#include "limits_util.h"
#include "search_util.h"
#include "tests.h"

static void set_level(Engine *e, int level)
{
    char err[256], text[8];
    snprintf(text, sizeof text, "%d", level);
    if (!engine_set_option(e, "Skill Level", text, err, sizeof err))
        fail_msg("Skill Level %d: %s", level, err);
}

static void go_nodes(Engine *e, uint64_t nodes)
{
    EngineLimits lim;
    limits_clear(&lim);
    lim.nodes = nodes;
    cap.bestmoves = 0;
    engine_go(e, &lim);
    engine_wait(e);
    assert_int_equal(cap.bestmoves, 1);
}

/* Every level plays legal moves through a game's opening and middle
 * game, the engine's position taking each one. */
static void test_skill_levels_play_legal_moves(void **state)
{
    (void)state;
    Engine *e = new_engine();
    char err[256];
    for (int level = 0; level <= 20; level++) {
        set_level(e, level);
        engine_new_game(e);
        assert_true(engine_set_position(e, NULL, NULL, 0, false, err, sizeof err));
        for (int ply = 0; ply < 24; ply++) {
            go_nodes(e, 3000);
            if (cap.best == MOVE_NONE)
                break; /* the game is over */
            Position pos;
            pos_copy(&pos, engine_position(e));
            if (!pos_pseudo_legal(&pos, cap.best) || !pos_legal(&pos, cap.best))
                fail_msg("level %d plays an illegal move at ply %d", level, ply);
            assert_true(engine_push_move(e, cap.best));
        }
    }
    engine_free(e);
}

/* A weak level varies its moves where full strength does not, and the
 * variety grows as the level falls: it is weakened, not random. */
static void test_skill_weak_levels_vary(void **state)
{
    (void)state;
    Engine *e = new_engine();
    const char *fen = START_FEN;
    int distinct[21] = {0};
    char err[256];
    for (int level = 0; level <= 20; level += 10) {
        set_level(e, level);
        Move seen[64];
        for (int i = 0; i < 40; i++) {
            engine_new_game(e);
            assert_true(engine_set_position(e, fen, NULL, 0, false, err, sizeof err));
            go_nodes(e, 3000);
            int k = 0;
            while (k < distinct[level] && seen[k] != cap.best)
                k++;
            if (k == distinct[level])
                seen[distinct[level]++] = cap.best;
        }
    }
    printf("distinct moves in 40 searches: level 0 %d, level 10 %d, level 20 %d\n", distinct[0], distinct[10],
           distinct[20]);
    assert_int_equal(distinct[20], 1);
    assert_true(distinct[0] >= 3);
    assert_true(distinct[0] >= distinct[10]);
    engine_free(e);
}

/* Every level takes a mate in one, a quiet one included. */
static void test_skill_levels_mate_in_one(void **state)
{
    (void)state;
    Engine *e = new_engine();
    /* a0a9 or a0d0 mate; and a cannon mate with a rook for a screen */
    static const char *const fens[] = {"3k5/8R/9/9/9/9/9/9/9/R3K4 w - - 0 1",
                                       "3rkr3/9/9/9/4P4/9/9/1C7/9/4K4 w - - 0 1",
                                       "3k5/9/9/9/9/9/9/9/1R7/R3K4 w - - 0 1"};
    char err[256];
    for (int level = 0; level <= 20; level++) {
        set_level(e, level);
        for (size_t f = 0; f < sizeof fens / sizeof fens[0]; f++)
            for (int rep = 0; rep < 4; rep++) {
                engine_new_game(e);
                assert_true(engine_set_position(e, fens[f], NULL, 0, false, err, sizeof err));
                go_nodes(e, 2000);
                Position pos;
                pos_copy(&pos, engine_position(e));
                assert_true(pos_pseudo_legal(&pos, cap.best) && pos_legal(&pos, cap.best));
                pos_do_move(&pos, cap.best);
                if (count_legal(&pos) != 0)
                    fail_msg("level %d misses the mate in one of %s", level, fens[f]);
            }
    }
    engine_free(e);
}

/* Does the last move of pos repeat a position into a cycle the rules
 * (rules_cycle_judge, from the earliest occurrence since the last
 * capture, as a referee sees it) forbid to the side that played it? */
static bool repeats_forbidden(Position *pos, int rule)
{
    int prev, latest;
    RulesCycle cycle;
    return pos_occurrences(pos, pos->top, &prev, &latest) && rules_cycle_judge(pos, prev, rule, &cycle) == VERDICT_WIN;
}

/* No level repeats into a cycle the rules forbid it, where full strength
 * can avoid one: the repetition cases with the violator to move. */
static void test_skill_levels_never_forbidden_repetition(void **state)
{
    (void)state;
    static RepCase cases[160];
    int n = load_cases(cases, 160);
    Engine *e = new_engine();
    char err[256];
    assert_true(engine_set_option(e, "Repetition Rule", "axf", err, sizeof err));
    int checked = 0, could = 0;
    static Position pos;
    for (int i = 0; i < n; i++) {
        const RepCase *c = &cases[i];
        if (c->soft || c->violator < 0)
            continue;
        int k = c->nmoves - 1;
        while (k >= 0 && mover(c, k) != c->violator)
            k--;
        set_level(e, 20);
        search_case(e, c, k, 6, MOVE_NONE);
        pos_copy(&pos, engine_position(e));
        pos_do_move(&pos, cap.best);
        if (repeats_forbidden(&pos, RULE_AXF))
            continue; /* forced to: every alternative is mated */
        /* a forbidden repetition is one move away */
        Move moves[MAX_MOVES];
        int nm = gen_legal(engine_position(e), moves);
        bool tempting = false;
        for (int m = 0; m < nm && !tempting; m++) {
            pos_copy(&pos, engine_position(e));
            pos_do_move(&pos, moves[m]);
            tempting = repeats_forbidden(&pos, RULE_AXF);
        }
        could += tempting;
        for (int level = 0; level < 20; level += 3) {
            set_level(e, level);
            for (int rep = 0; rep < 3; rep++) {
                search_case(e, c, k, 6, MOVE_NONE);
                pos_copy(&pos, engine_position(e));
                pos_do_move(&pos, cap.best);
                if (repeats_forbidden(&pos, RULE_AXF))
                    fail_msg("%s: level %d repeats into a forbidden cycle", c->id, level);
                checked++;
            }
        }
    }
    printf("strength levels: %d searches in repetition cases (%d with a forbidden repetition one move away), "
           "none forbidden\n", checked, could);
    assert_true(checked >= 500);
    assert_true(could >= 20);
    engine_free(e);
}


/* The pick itself, on lines that offer a forbidden repetition as the best
 * (a shallow search may not see the cycle): never played. */
static void test_skill_pick_refuses_forbidden_repetition(void **state)
{
    (void)state;
    static const char *const moves[] = {"h4h5", "i5i7", "g6g7", "i7i6", "h5h6", "i6i5",
                                        "g7g5", "i5i7", "h6h7", "i7i6", "g5g6", "i6i5"};
    static Position pos;
    assert_true(pos_set_fen(&pos, "2b1ka1P1/4a4/b8/p5R2/8c/7R1/P1p3p2/3rBn3/N2C2n1C/3K1NB2 w - - 0 1", NULL, 0));
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
        pos_do_move(&pos, parse_move(&pos, moves[i], false));
    /* h7h5 repeats the position after h4h5: red's chase of the cannon */
    Move repeat = parse_move(&pos, "h7h5", false), other = parse_move(&pos, "g6g7", false);
    assert_true(repeat && other);
    pos_do_move(&pos, repeat);
    assert_true(repeats_forbidden(&pos, RULE_AXF));
    pos_undo_move(&pos);
    uint64_t rng = 1;
    for (int level = 0; level < 20; level++)
        for (int rep = 0; rep < 20; rep++) {
            SkillLines lines;
            skill_clear(&lines);
            lines.move[0] = repeat, lines.score[0] = 10, lines.depth[0] = 5;
            lines.move[1] = other, lines.score[1] = 0, lines.depth[1] = 5;
            Move ponder = MOVE_NONE;
            Move m = skill_pick(level, &pos, &lines, repeat, &ponder, RULE_AXF, &rng);
            assert_int_equal(m, other);
            /* with no other line, another legal move */
            lines.move[1] = MOVE_NONE;
            m = skill_pick(level, &pos, &lines, repeat, &ponder, RULE_AXF, &rng);
            assert_int_not_equal(m, repeat);
            assert_true(pos_pseudo_legal(&pos, m) && pos_legal(&pos, m));
        }
    /* full strength plays what the search chose */
    SkillLines none;
    skill_clear(&none);
    Move ponder = MOVE_NONE;
    assert_int_equal(skill_pick(SKILL_MAX, &pos, &none, repeat, &ponder, RULE_AXF, &rng), repeat);
}

/* UCI_Elo maps onto the levels by the ladder: rising, the ends fixed. */
static void test_skill_elo_mapping(void **state)
{
    (void)state;
    assert_true(skill_from_elo(SKILL_ELO_MIN) == 0 && skill_full(skill_from_elo(SKILL_ELO_MAX)));
    double prev = -1;
    for (int elo = SKILL_ELO_MIN; elo <= SKILL_ELO_MAX; elo += 10) {
        double level = skill_from_elo(elo);
        assert_true(level >= prev && level >= 0 && level <= SKILL_MAX);
        assert_true(abs(skill_elo(level) - elo) <= 1);
        prev = level;
    }
}

/* UCI_Elo is refused outside its range, saying the range; inside, with
 * UCI_LimitStrength, it plays weaker than full strength (it varies). */
static void test_skill_elo_range(void **state)
{
    (void)state;
    Engine *e = new_engine();
    char err[256], want[64];
    const OptionInfo *elo = engine_find_option("UCI_Elo");
    assert_non_null(elo);
    assert_true(elo->min > 0 && elo->min < elo->max);
    snprintf(want, sizeof want, "from %ld to %ld", elo->min, elo->max);
    assert_false(engine_set_option(e, "UCI_Elo", "0", err, sizeof err));
    assert_non_null(strstr(err, want));
    assert_false(engine_set_option(e, "UCI_Elo", "99999", err, sizeof err));
    assert_non_null(strstr(err, want));
    assert_false(engine_set_option(e, "Skill Level", "21", err, sizeof err));
    assert_non_null(strstr(err, "from 0 to 20"));
    assert_false(engine_set_option(e, "Skill Level", "-1", err, sizeof err));
    char text[16];
    snprintf(text, sizeof text, "%ld", elo->min);
    assert_true(engine_set_option(e, "UCI_Elo", text, err, sizeof err));
    assert_true(engine_set_option(e, "UCI_LimitStrength", "true", err, sizeof err));
    const char *fen = START_FEN;
    Move first = MOVE_NONE;
    bool varied = false;
    for (int i = 0; i < 40 && !varied; i++) {
        engine_new_game(e);
        assert_true(engine_set_position(e, fen, NULL, 0, false, err, sizeof err));
        go_nodes(e, 3000);
        if (i == 0)
            first = cap.best;
        varied = cap.best != first;
    }
    assert_true(varied);
    engine_free(e);
}

/* ---- under infinite and ponder, through the protocols ---- */

static EngineProc ep;

/* The levels tried: the weakest, middling, the strongest short of full,
 * and a rating (as UCCI and xboard name the options, the same). */
static const char *const LEVELS[][2] = {
    {"Skill Level", "1"}, {"Skill Level", "10"}, {"Skill Level", "19"}, {"UCI_Elo", "1500"}};
#define LEVELS_NB (sizeof LEVELS / sizeof LEVELS[0])

/* Long enough for a weak level's capped search to have ended by itself. */
#define HOLD_MS 400

/* UCI: set level i (a rating turns UCI_LimitStrength on, a level off). */
static void uci_level(size_t i)
{
    bool elo = !strcmp(LEVELS[i][0], "UCI_Elo");
    ep_send(&ep, "setoption name UCI_LimitStrength value %s", elo ? "true" : "false");
    ep_send(&ep, "setoption name Skill Level value %s", elo ? "20" : LEVELS[i][1]);
    if (elo)
        ep_send(&ep, "setoption name UCI_Elo value %s", LEVELS[i][1]);
}

/* Nothing but searching after the go just sent: after HOLD_MS the sync
 * command is answered (the lines before it, into ep.log, hold no line
 * starting with move_prefix), then release brings the move. */
static void holds_until(const char *what, const char *sync, const char *sync_answer, const char *move_prefix,
                        const char *release)
{
    usleep(HOLD_MS * 1000);
    ep_send(&ep, "%s", sync);
    ep_want(&ep, sync_answer, LIMITS_WAIT_MS);
    if (log_has_line(ep.log, move_prefix))
        fail_msg("%s: a move before '%s':\n%.2000s", what, release, ep.log);
    ep_send(&ep, "%s", release);
    ep_assert_legal_reply(ep_want(&ep, move_prefix, LIMITS_WAIT_MS), move_prefix, NULL,
                          strstr(what, "ponder") ? "h2e2 h9g7" : NULL, NULL);
}

static void test_levels_hold_uci(void **state)
{
    (void)state;
    char what[96];
    for (size_t i = 0; i < LEVELS_NB; i++) {
        uci_level(i);
        ep_send(&ep, "position startpos");
        ep_send(&ep, "go infinite");
        snprintf(what, sizeof what, "%s %s, go infinite", LEVELS[i][0], LEVELS[i][1]);
        holds_until(what, "isready", "readyok", "bestmove", "stop");
        ep_send(&ep, "position startpos moves h2e2 h9g7");
        ep_send(&ep, "go ponder wtime 60000 btime 60000");
        snprintf(what, sizeof what, "%s %s, go ponder", LEVELS[i][0], LEVELS[i][1]);
        holds_until(what, "isready", "readyok", "bestmove", "ponderhit");
    }
}

static void test_levels_hold_ucci(void **state)
{
    (void)state;
    static const char *const gos[] = {"go infinite", "go", "go depth infinite"};
    char what[96];
    for (size_t i = 0; i < LEVELS_NB; i++) {
        bool elo = !strcmp(LEVELS[i][0], "UCI_Elo");
        ep_send(&ep, "setoption limitstrength %s", elo ? "true" : "false");
        ep_send(&ep, "setoption skilllevel %s", elo ? "20" : LEVELS[i][1]);
        if (elo)
            ep_send(&ep, "setoption elo %s", LEVELS[i][1]);
        ep_send(&ep, "position startpos");
        ep_send(&ep, "%s", gos[i % 3]);
        snprintf(what, sizeof what, "%s %s, %s", LEVELS[i][0], LEVELS[i][1], gos[i % 3]);
        holds_until(what, "isready", "readyok", "bestmove", "stop");
        ep_send(&ep, "position startpos moves h2e2 h9g7");
        ep_send(&ep, "go ponder time 60 opptime 60");
        snprintf(what, sizeof what, "%s %s, go ponder", LEVELS[i][0], LEVELS[i][1]);
        holds_until(what, "isready", "readyok", "bestmove", "ponderhit");
    }
}

/* xboard: analysis at a weaker level goes on until exit (the periodic
 * update '.' is answered only while it does). */
static void test_levels_hold_xboard(void **state)
{
    (void)state;
    int ping = 0;
    for (size_t i = 0; i < LEVELS_NB; i++) {
        bool elo = !strcmp(LEVELS[i][0], "UCI_Elo");
        ep_send(&ep, "option UCI_LimitStrength=%d", elo);
        ep_send(&ep, "option Skill Level=%s", elo ? "20" : LEVELS[i][1]);
        if (elo)
            ep_send(&ep, "option UCI_Elo=%s", LEVELS[i][1]);
        ep_send(&ep, "new");
        ep_send(&ep, "force");
        ep_send(&ep, "analyze");
        usleep(HOLD_MS * 1000);
        ep_send(&ep, ".");
        limits_sync_xboard(&ep, ++ping);
        if (!log_has_line(ep.log, "stat01: "))
            fail_msg("%s %s: the analysis ended by itself:\n%.2000s", LEVELS[i][0], LEVELS[i][1], ep.log);
        ep_send(&ep, "exit");
    }
}

#define PROTO_TEST(f, setup) cmocka_unit_test_prestate_setup_teardown(f, setup, limits_teardown, &ep)

const struct CMUnitTest *skill_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skill_levels_play_legal_moves),
        cmocka_unit_test(test_skill_weak_levels_vary),
        cmocka_unit_test(test_skill_levels_mate_in_one),
        cmocka_unit_test(test_skill_levels_never_forbidden_repetition),
        cmocka_unit_test(test_skill_pick_refuses_forbidden_repetition),
        cmocka_unit_test(test_skill_elo_mapping),
        cmocka_unit_test(test_skill_elo_range),
        PROTO_TEST(test_levels_hold_uci, limits_setup_uci),
        PROTO_TEST(test_levels_hold_ucci, limits_setup_ucci),
        PROTO_TEST(test_levels_hold_xboard, limits_setup_xboard),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
