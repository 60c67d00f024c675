/* The search through the engine API: mates found with the right score, no
 * legal move scored as a loss, legal best moves, whole self-play games, and
 * the bench signature. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/matebench.h"
#include "engine/board/movegen.h"
#include "engine/engine.h"
#include "engine/engine_private.h"
#include "engine/util/clock.h"
#include "eval/eval.h"
#include "search/search_private.h"
#include "search/tt.h"
#include "search_util.h"
#include "tests.h"

static void search_depth(Engine *e, const char *fen, int depth)
{
    char err[256];
    if (!engine_set_position(e, fen, NULL, 0, false, err, sizeof err))
        fail_msg("%s: %s", fen, err);
    EngineLimits lim;
    limits_clear(&lim);
    lim.depth = depth;
    cap.have_info = false;
    cap.bestmoves = 0;
    engine_go(e, &lim);
    engine_wait(e);
    assert_int_equal(cap.bestmoves, 1);
}

/* Play the line and check that it ends with the side to move mated. */
static void assert_pv_mates(const char *fen, const EngineInfo *info, int plies)
{
    static Position pos;
    assert_true(pos_set_fen(&pos, fen, NULL, 0));
    assert_true(info->pv_len >= plies);
    for (int i = 0; i < plies; i++) {
        assert_true(pos_pseudo_legal(&pos, info->pv[i]) && pos_legal(&pos, info->pv[i]));
        pos_do_move(&pos, info->pv[i]);
    }
    Move moves[MAX_MOVES];
    assert_int_equal(gen_legal(&pos, moves), 0);
    assert_true(pos_in_check(&pos));
}

static void test_mate_in_one(void **state)
{
    (void)state;
    Engine *e = new_engine();
    /* a0a9 (rank 9) or a0d0 (d-file) mate: the i8 rook holds rank 8 and
     * the red king the e-file */
    const char *fen = "3k5/8R/9/9/9/9/9/9/9/R3K4 w - - 0 1";
    search_depth(e, fen, 4);
    assert_int_equal(score_mate_plies(cap.last.score), 1);
    assert_int_equal(cap.best, cap.last.pv[0]);
    assert_pv_mates(fen, &cap.last, 1);
    engine_free(e);
}

static void test_mate_in_two(void **state)
{
    (void)state;
    Engine *e = new_engine();
    /* The red king holds the d-file; one rook takes a rank, the other mates
     * on the next; no mate in one exists. */
    const char *fen = "4k4/9/9/9/9/9/8p/9/1R7/R2K5 w - - 0 1";
    search_depth(e, fen, 8);
    assert_int_equal(score_mate_plies(cap.last.score), 3);
    assert_pv_mates(fen, &cap.last, 3);
    /* the defender, after a0a8, sees itself mated in two plies */
    search_depth(e, "4k4/R8/9/9/9/9/8p/9/1R7/3K5 b - - 1 1", 6);
    assert_int_equal(score_mate_plies(cap.last.score), -2);
    engine_free(e);
}

static void test_no_legal_move_is_a_loss(void **state)
{
    (void)state;
    Engine *e = new_engine();
    /* Red to move with no legal move, not in check: lost */
    search_depth(e, "5k3/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1", 5);
    assert_int_equal(cap.best, MOVE_NONE);
    assert_true(cap.have_info);
    assert_true(score_is_mate(cap.last.score) && cap.last.score < 0);
    assert_int_equal(score_mate_plies(cap.last.score), 0);
    /* and the winning side finds the stalemating move as a mate in one:
     * b1b8 or a0a8 leave the d9 king no move */
    search_depth(e, "3k5/9/9/9/9/9/9/9/1R7/R3K4 w - - 0 1", 4);
    assert_int_equal(score_mate_plies(cap.last.score), 1);
    engine_free(e);
}

static void test_bestmove_legal_in_bench_positions(void **state)
{
    (void)state;
    Engine *e = new_engine();
    for (int i = 0; i < BenchCount; i++) {
        search_depth(e, BenchFens[i], 4);
        if (!pos_pseudo_legal(engine_position(e), cap.best) || !pos_legal(engine_position(e), cap.best))
            fail_msg("illegal best move in %s", BenchFens[i]);
        assert_true(cap.have_info && cap.last.pv_len >= 1 && cap.last.pv[0] == cap.best);
    }
    engine_free(e);
}

static void test_nodes_limit(void **state)
{
    (void)state;
    Engine *e = new_engine();
    char err[256];
    assert_true(engine_set_position(e, NULL, NULL, 0, false, err, sizeof err));
    EngineLimits lim;
    limits_clear(&lim);
    lim.nodes = 5000;
    engine_go(e, &lim);
    engine_wait(e);
    assert_true(cap.have_info);
    assert_true(cap.last.nodes <= 5000);
    assert_true(pos_legal(engine_position(e), cap.best));
    engine_free(e);
}

/* A soft node limit ends the search at the end of the iteration that passed
 * it: the move is the last whole iteration's, and the search is exactly a
 * search to that depth (one thread is deterministic). */
static void test_soft_nodes_limit(void **state)
{
    (void)state;
    char err[256];
    Engine *e = new_engine();
    assert_true(engine_set_position(e, NULL, NULL, 0, false, err, sizeof err));
    EngineLimits lim;
    limits_clear(&lim);
    lim.soft_nodes = 20000;
    cap.have_info = false;
    engine_go(e, &lim);
    engine_wait(e);
    assert_true(cap.have_info);
    EngineInfo soft = cap.last;
    Move soft_best = cap.best;
    assert_true(soft.nodes >= 20000);
    assert_int_equal(soft.bound, BOUND_EXACT);
    assert_int_equal(soft.pv[0], soft_best);
    engine_free(e);
    /* the same search to that depth, from a fresh engine */
    e = new_engine();
    search_depth(e, START_FEN, soft.depth);
    assert_int_equal(cap.last.nodes, soft.nodes);
    assert_int_equal(cap.best, soft_best);
    /* and one depth less had not yet passed the limit */
    engine_free(e);
    e = new_engine();
    search_depth(e, START_FEN, soft.depth - 1);
    assert_true(cap.last.nodes < 20000);
    engine_free(e);
}

/* With several threads the node limit holds too: no depth is reported as
 * completed long after the threads together passed it. */
static void test_nodes_limit_threads(void **state)
{
    (void)state;
    Engine *e = new_engine();
    char err[256];
    assert_true(engine_set_option(e, "Threads", "2", err, sizeof err));
    for (int i = 0; i < BenchCount; i += 4) {
        assert_true(engine_set_position(e, BenchFens[i], NULL, 0, false, err, sizeof err));
        EngineLimits lim;
        limits_clear(&lim);
        lim.nodes = 300;
        cap.have_info = false;
        cap.bestmoves = 0;
        engine_go(e, &lim);
        engine_wait(e);
        assert_int_equal(cap.bestmoves, 1);
        assert_true(pos_legal(engine_position(e), cap.best));
        if (cap.have_info && cap.last.nodes > 300 + 512)
            fail_msg("%s: a depth completed at %llu nodes under a limit of 300", BenchFens[i],
                     (unsigned long long)cap.last.nodes);
    }
    engine_free(e);
}

/* Whole games of the engine against itself by fixed depth: every move
 * legal, the game ends by the rules or the ply limit. */
static void test_self_play(void **state)
{
    (void)state;
    static const char *const openings[] = {"h2e2 h9g7", "b2e2 b9c7", "c3c4 g6g5"};
    Engine *e = new_engine();
    char err[256];
    for (int g = 0; g < 3; g++) {
        static char moves[4096][6];
        const char *argv[4096];
        int n = 0;
        char buf[64];
        snprintf(buf, sizeof buf, "%s", openings[g]);
        for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
            snprintf(moves[n], sizeof moves[n], "%s", t);
            argv[n] = moves[n];
            n++;
        }
        for (int ply = 0; ply < 160; ply++) {
            if (!engine_set_position(e, NULL, argv, n, false, err, sizeof err))
                fail_msg("game %d ply %d: %s", g, ply, err);
            const Position *pos = engine_position(e);
            Move legal[MAX_MOVES];
            if (gen_legal(pos, legal) == 0 || pos_state(pos)->rule60 >= 120)
                break;
            EngineLimits lim;
            limits_clear(&lim);
            lim.depth = 5;
            engine_go(e, &lim);
            engine_wait(e);
            if (!pos_pseudo_legal(pos, cap.best) || !pos_legal(pos, cap.best))
                fail_msg("game %d ply %d: illegal move from the search", g, ply);
            move_str(cap.best, moves[n], false);
            argv[n] = moves[n];
            n++;
        }
        assert_true(n > 20);
    }
    engine_free(e);
}

static void test_bench_deterministic(void **state)
{
    (void)state;
    FILE *sink = fopen("/dev/null", "w");
    double nps;
    uint64_t a = bench_run(6, NULL, sink, &nps), b = bench_run(6, NULL, sink, &nps);
    fclose(sink);
    assert_true(a > 1000);
    assert_true(a == b);
}

/* The whole bench gives the signature pinned in bench/bench.h. */
static void test_bench_signature(void **state)
{
    (void)state;
    FILE *sink = fopen("/dev/null", "w");
    assert_non_null(sink);
    double nps;
    uint64_t nodes = bench_run(BENCH_DEPTH, NULL, sink, &nps);
    fclose(sink);
    if (nodes != BENCH_NODES)
        fail_msg("bench: %llu nodes, the signature is %llu (bench/bench.h)", (unsigned long long)nodes,
                 (unsigned long long)BENCH_NODES);
}

/* ---- repetition rules in the search, from the cases of cases.txt ---- */

static void test_search_obeys_repetition_rules(void **state)
{
    (void)state;
    static RepCase cases[160];
    int n = load_cases(cases, 160);
    assert_true(n >= 100);
    Engine *e = new_engine();
    char err[256];
    /* the cases follow the Asian/World federations' books */
    assert_true(engine_set_option(e, "Repetition Rule", "axf", err, sizeof err));
    int varied = 0, kept = 0, forced = 0;
    for (int i = 0; i < n; i++) {
        const RepCase *c = &cases[i];
        if (c->soft || c->violator < 0)
            continue;
        /* The violator about to complete the forbidden cycle again varies,
         * unless every other move is mated. */
        int k = c->nmoves - 1;
        while (k >= 0 && mover(c, k) != c->violator)
            k--;
        assert_true(k >= 0);
        search_case(e, c, k, 6, MOVE_NONE);
        Move repeat = parse_move(engine_position(e), c->moves[k], false);
        assert_int_not_equal(repeat, MOVE_NONE);
        if (cap.best == repeat) {
            /* allowed only when every other move loses to mate */
            Move others[MAX_MOVES];
            int no = gen_legal(engine_position(e), others), m = 0;
            for (int t = 0; t < no; t++)
                if (others[t] != repeat)
                    others[m++] = others[t];
            if (m == 0) { /* the only legal move */
                forced++;
                goto keep;
            }
            EngineLimits lim;
            limits_clear(&lim);
            lim.depth = 6;
            lim.nsearchmoves = m;
            memcpy(lim.searchmoves, others, sizeof(Move) * (size_t)m);
            engine_go(e, &lim);
            engine_wait(e);
            if (!score_is_mate(cap.last.score) || cap.last.score > 0)
                fail_msg("%s: %s repeats %s though %d scores %d", c->id, c->violator == RED ? "red" : "black",
                         c->moves[k], cap.best, cap.last.score);
            forced++;
        } else {
            varied++;
        }
    keep:;
        /* The other side, whose opponent must vary, keeps repeating: the
         * repetition wins for it, so the search scores at least that. */
        int j = c->nmoves - 1;
        while (j >= 0 && mover(c, j) == c->violator)
            j--;
        assert_true(j >= 0);
        search_case(e, c, j, 6, MOVE_NONE);
        if (cap.last.score < 0 || !(score_is_mate(cap.last.score) || score_is_rule_win(cap.last.score)))
            fail_msg("%s: the side whose opponent must vary scores %d, not a rule win", c->id, cap.last.score);
        Move rep2 = parse_move(engine_position(e), c->moves[j], false);
        if (cap.best != rep2) {
            /* another move must be at least as good: a mate or a rule win */
            int best = cap.last.score;
            search_case(e, c, j, 6, rep2);
            assert_true(best >= cap.last.score);
        }
        kept++;
    }
    printf("repetition cases: %d varied, %d forced to repeat (every alternative mated), %d kept repeating\n",
           varied, forced, kept);
    assert_true(varied + forced >= 60);
    engine_free(e);
}

static void test_mate_on_the_last_ply(void **state)
{
    (void)state;
    Engine *e = new_engine();
    char err[256];
    /* e2d2 mates (the red king holds the e-file) as the count reaches 120 */
    assert_true(engine_set_position(e, "3k5/9/9/9/9/9/9/4R4/9/4K4 w - - 119 80", NULL, 0, false, err, sizeof err));
    EngineLimits lim;
    limits_clear(&lim);
    lim.depth = 4;
    engine_go(e, &lim);
    engine_wait(e);
    assert_int_equal(score_mate_plies(cap.last.score), 1);
    engine_free(e);
}

/* Stalemate loses in xiangqi, on the 120th ply too, as the referee rules
 * (no legal move is judged before the 60-move rule): c7d7 or c7c8 leaves
 * the black king no move (d8 taken by the pawn, e9 facing the red king);
 * any other move draws. */
static void test_stalemate_on_the_last_ply(void **state)
{
    (void)state;
    Engine *e = new_engine();
    search_depth(e, "3k5/9/2P6/9/9/9/9/9/9/4K4 w - - 119 80", 4);
    assert_int_equal(score_mate_plies(cap.last.score), 1);
    char best[8];
    move_str(cap.best, best, false);
    if (strcmp(best, "c7d7") && strcmp(best, "c7c8"))
        fail_msg("played %s, not a stalemating move", best);
    engine_free(e);
}

/* A late move's reduced search: never deeper than the unreduced one, never
 * below one ply unless the unreduced one is. */
static void test_reduced_depth(void **state)
{
    (void)state;
    for (int new_depth = -1; new_depth <= 30; new_depth++)
        for (int r = -3; r <= 12; r++) {
            int d = reduced_depth(new_depth, r);
            assert_true(d <= new_depth);
            if (new_depth >= 1)
                assert_true(d >= 1);
            if (new_depth - r >= 1 && r >= 0)
                assert_int_equal(d, new_depth - r);
        }
    assert_int_equal(reduced_depth(0, 2), 0); /* an extension of -1 at depth 2 */
    assert_int_equal(reduced_depth(5, 7), 1);
}

/* A mate from the table that would land after the 60-move rule draws is a
 * win not proven in time: the best ordinary score, in neither decisive
 * band (it was once read as a rule win at minus 1743 plies, "mate -872"). */
static void test_table_mate_beyond_the_sixty_move_limit(void **state)
{
    (void)state;
    for (int sign = -1; sign <= 1; sign += 2) {
        int stored = value_to_tt(sign * mate_in(61), 3); /* mate 61 plies from the node */
        int late = value_from_tt(stored, 3, 70, 120);    /* 50 plies left */
        int early = value_from_tt(stored, 3, 50, 120);   /* 70 left */
        assert_int_equal(early, sign * mate_in(61));
        assert_int_equal(value_from_tt(stored, 3, 119, 0), sign * mate_in(61)); /* no rule */
        assert_int_equal(late, sign * (VALUE_RULE_IN_MAX_PLY - 1));
        assert_false(score_is_mate(late) || score_is_rule_win(late) || score_is_decisive(late));
        assert_true(sign * late > EVAL_MAX);
        /* such a value may be a draw: a win bounds from above only, a loss from below */
        int keep = sign > 0 ? TT_BOUND_UPPER : TT_BOUND_LOWER;
        assert_int_equal(bound_from_tt(stored, late, TT_BOUND_EXACT), keep);
        assert_int_equal(bound_from_tt(stored, late, keep), keep);
        assert_int_equal(bound_from_tt(stored, late, TT_BOUND_EXACT ^ keep), TT_BOUND_NONE);
        assert_int_equal(bound_from_tt(stored, early, TT_BOUND_LOWER), TT_BOUND_LOWER);
        assert_int_equal(bound_from_tt(stored, early, TT_BOUND_UPPER), TT_BOUND_UPPER);
    }
    assert_int_equal(bound_from_tt(300, 300, TT_BOUND_LOWER), TT_BOUND_LOWER);
    assert_int_equal(bound_from_tt(VALUE_NONE, VALUE_NONE, TT_BOUND_NONE), TT_BOUND_NONE);
    /* the rule-win band ends at a rule win on the root's move */
    assert_true(score_is_rule_win(VALUE_RULE_WIN) && score_is_rule_win(-VALUE_RULE_WIN + 5));
    assert_false(score_is_rule_win(VALUE_RULE_WIN + 1) || score_is_rule_win(VALUE_MATE_IN_MAX_PLY - 1));
    assert_int_equal(score_rule_win_plies(VALUE_MATE_IN_MAX_PLY - 1), 0);
    assert_int_equal(score_rule_win_plies(-(VALUE_RULE_WIN - 7)), -7);
}

static void test_sixty_move_rule_in_search(void **state)
{
    /* (a mate on the 120th ply is still a mate: see test_mate_on_the_last_ply) */
    (void)state;
    Engine *e = new_engine();
    char err[256];
    /* A won rook ending, but the 60-move count stands at 119 plies: the
     * next move can be neither a capture nor mate, so the game is drawn
     * after it. */
    assert_true(engine_set_position(e, "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 119 80", NULL, 0, false, err, sizeof err));
    EngineLimits lim;
    limits_clear(&lim);
    lim.depth = 8;
    engine_go(e, &lim);
    engine_wait(e);
    assert_int_equal(cap.last.score, 0);
    /* with the rule off, the rook wins */
    assert_true(engine_set_option(e, "Sixty Move Rule", "false", err, sizeof err));
    engine_go(e, &lim);
    engine_wait(e);
    assert_true(cap.last.score > 300);
    engine_free(e);
}

/* Fill the table with lies: every position within plies of pos whose count
 * is still near the limit (no capture on the way) is a deep exact win of
 * 20 pawns for the side to move, with its true evaluation. */
static void store_lies(TT *tt, Position *pos, int plies)
{
    if (pos_state(pos)->rule60 < 100)
        return;
    tt_store(tt, pos_key(pos), 2000, false, TT_BOUND_EXACT, 100, MOVE_NONE, evaluate(pos));
    if (plies == 0)
        return;
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    for (int i = 0; i < n; i++) {
        pos_do_move(pos, moves[i]);
        store_lies(tt, pos, plies - 1);
        pos_undo_move(pos);
    }
}

/* Near the 60-move limit the table's values may not be used: they may come
 * from the same positions at a lower count, searched with the draw out of
 * their reach and scored with a less faded evaluation.  A horse and a pawn
 * against two advisors ten plies short of the limit: a table that lies
 * about every position of the first three plies changes nothing. */
static void test_no_table_values_near_the_sixty_move_limit(void **state)
{
    (void)state;
    const char *late = "3k5/4a4/3a5/9/9/9/4P4/9/4A4/1H2K4 w - - 110 80";
    Engine *e = new_engine();
    /* the lies carry the hand-written evaluation as their static one: the
     * search must evaluate alike, or the eval field alone tells them apart */
    char err[256];
    assert_true(engine_set_option(e, "EvalFile", "", err, sizeof err));
    engine_new_game(e);
    search_depth(e, late, 9);
    EngineInfo fresh = cap.last;
    Move fresh_best = cap.best;
    engine_new_game(e);
    static Position pos;
    assert_true(pos_set_fen(&pos, late, NULL, 0));
    store_lies(engine_table(e), &pos, 3);
    search_depth(e, late, 9);
    printf("count 110: %d (%llu nodes) with a clean table, %d (%llu nodes) with one that lies\n", fresh.score,
           (unsigned long long)fresh.nodes, cap.last.score, (unsigned long long)cap.last.nodes);
    assert_int_equal(cap.last.score, fresh.score);
    assert_int_equal(cap.best, fresh_best);
    engine_free(e);
}

/* ---- the transposition table ---- */

static void tt_open(TT *tt)
{
    char err[128];
    memset(tt, 0, sizeof *tt);
    if (!tt_resize(tt, 1, 1, err, sizeof err))
        fail_msg("tt_resize: %s", err);
}

/* Iterations reach MAX_PLY - 4 and extensions go deeper: such an entry
 * must read back deep (at the most an entry can say), never wrapped round
 * to a shallow or quiescence depth. */
static void test_tt_depth_does_not_wrap(void **state)
{
    (void)state;
    static TT tt;
    tt_open(&tt);
    TTData d;
    const int depths[] = {MAX_PLY - 4, MAX_PLY + 10, TT_DEPTH_MAX, TT_DEPTH_MAX + 1, 247, 248, 1, 0, -1,
                          -TT_DEPTH_OFFSET};
    for (int i = 0; i < (int)(sizeof depths / sizeof depths[0]); i++) {
        Key key = 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1);
        tt_store(&tt, key, 17, false, TT_BOUND_LOWER, depths[i], make_move(3, 12), 5);
        assert_true(tt_probe(&tt, key, &d));
        int want = depths[i] > TT_DEPTH_MAX ? TT_DEPTH_MAX : depths[i];
        assert_int_equal(d.depth, want);
        assert_int_equal(d.value, 17);
        assert_int_equal(d.bound, TT_BOUND_LOWER);
    }
    tt_free(&tt);
}

/* A deeper entry of this search is kept over a shallow store, but takes
 * the shallow store's move: it is the latest best move of the node. */
static void test_tt_kept_entry_takes_the_new_move(void **state)
{
    (void)state;
    static TT tt;
    tt_open(&tt);
    TTData d;
    Key key = 0x0123456789ABCDEFULL;
    Move a = make_move(10, 19), b = make_move(20, 29);
    tt_store(&tt, key, 120, true, TT_BOUND_LOWER, 20, a, 30);
    tt_store(&tt, key, -50, false, TT_BOUND_UPPER, 3, b, 31);
    assert_true(tt_probe(&tt, key, &d));
    assert_int_equal(d.depth, 20);
    assert_int_equal(d.value, 120);
    assert_int_equal(d.bound, TT_BOUND_LOWER);
    assert_true(d.pv);
    assert_int_equal(d.move, b);
    /* a store without a move leaves the move alone */
    tt_store(&tt, key, -60, false, TT_BOUND_UPPER, 2, MOVE_NONE, 31);
    assert_true(tt_probe(&tt, key, &d));
    assert_int_equal(d.depth, 20);
    assert_int_equal(d.move, b);
    /* an exact entry replaces it whatever its depth */
    tt_store(&tt, key, 7, false, TT_BOUND_EXACT, 2, a, 31);
    assert_true(tt_probe(&tt, key, &d));
    assert_int_equal(d.depth, 2);
    assert_int_equal(d.move, a);
    tt_free(&tt);
}

/* search_clear and search_clear_with (the fuzz harness's way) clear the
 * same tables, all of them, and nothing else. */
static size_t zeroed_bytes;
static void zero_and_count(void *p, size_t bytes)
{
    memset(p, 0, bytes);
    zeroed_bytes += bytes;
}

static void test_search_clear_lists_every_history_once(void **state)
{
    (void)state;
    SearchThread *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    memset(a, 0xA5, sizeof *a);
    memset(b, 0xA5, sizeof *b);
    search_clear(a);
    zeroed_bytes = 0;
    search_clear_with(b, zero_and_count);
    assert_memory_equal(a, b, sizeof *a);
    size_t tables = sizeof a->history + sizeof a->counter_moves + sizeof a->capture_history + sizeof a->cont_history
                  + sizeof a->corr;
    assert_int_equal(zeroed_bytes, tables);
    /* every byte of the five tables is zero, and those are all the zeroes */
    size_t zeros = 0;
    for (size_t i = 0; i < sizeof *a; i++)
        zeros += ((const unsigned char *)a)[i] == 0;
    assert_int_equal(zeros, tables);
    assert_int_equal(a->history[0][0], 0);
    assert_int_equal(a->cont_history[PIECE_NB - 1][SQUARE_NB - 1][0][0], 0);
    assert_int_equal(a->corr.nonpawn[BLACK][BLACK][CORR_SIZE - 1], 0);
    free(a);
    free(b);
}

/* ---- correction history ---- */

static CorrKeys keys_of(const char *fen)
{
    Position pos;
    char err[128];
    assert_true(pos_set_fen(&pos, fen, err, sizeof err));
    return corr_keys(&pos);
}

/* The pawn key follows the pawns alone, each side's piece key that side's
 * other pieces alone. */
static void test_corr_keys_follow_their_pieces(void **state)
{
    (void)state;
    CorrKeys start = keys_of(START_FEN);
    /* a red cannon moved: red's piece key changes, the others do not */
    CorrKeys cannon = keys_of("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    assert_int_equal(cannon.pawn, start.pawn);
    assert_int_not_equal(cannon.nonpawn[RED], start.nonpawn[RED]);
    assert_int_equal(cannon.nonpawn[BLACK], start.nonpawn[BLACK]);
    /* a black pawn moved: the pawn key changes, neither piece key */
    CorrKeys pawn = keys_of("rnbakabnr/9/1c5c1/p1p3p1p/4p4/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 2");
    assert_int_not_equal(pawn.pawn, start.pawn);
    assert_int_equal(pawn.nonpawn[RED], start.nonpawn[RED]);
    assert_int_equal(pawn.nonpawn[BLACK], start.nonpawn[BLACK]);
    /* mirrored sets of pieces are not one entry: each side's key is its own */
    assert_int_not_equal(start.nonpawn[RED], start.nonpawn[BLACK]);
}

/* Repeated results pull the evaluation of like positions towards them, for
 * the side to move that saw them only, and never by more than the cap. */
static void test_corr_moves_the_evaluation_within_bounds(void **state)
{
    (void)state;
    CorrHist *ch = calloc(1, sizeof *ch);
    assert_non_null(ch);
    CorrKeys k = keys_of(START_FEN);
    assert_int_equal(corr_apply(ch, RED, &k, 100), 100);
    for (int i = 0; i < 200; i++)
        corr_update(ch, RED, &k, 40, 10);
    int moved = corr_apply(ch, RED, &k, 100);
    assert_in_range(moved, 138, 140); /* 40 cp off, learnt to within the rounding */
    assert_int_equal(corr_apply(ch, BLACK, &k, 100), 100);
    /* a shallow result moves it less than a deep one */
    CorrHist *deep = malloc(sizeof *deep);
    assert_non_null(deep);
    memcpy(deep, ch, sizeof *ch);
    corr_update(ch, RED, &k, -200, 3);
    corr_update(deep, RED, &k, -200, 12);
    int after_shallow = corr_apply(ch, RED, &k, 100), after_deep = corr_apply(deep, RED, &k, 100);
    assert_true(after_deep < after_shallow && after_shallow < moved);
    /* far off results saturate at CORR_MAX a table */
    for (int i = 0; i < 200; i++)
        corr_update(ch, RED, &k, -5000, 20);
    assert_int_equal(corr_apply(ch, RED, &k, 0), -CORR_MAX / CORR_GRAIN);
    /* the corrected value stays within the evaluation's range */
    assert_int_equal(corr_apply(ch, RED, &k, -EVAL_MAX + 10), -EVAL_MAX);
    free(ch);
    free(deep);
}

/* ---- several threads (Lazy SMP) ---- */

static void test_threads_search_and_stop(void **state)
{
    (void)state;
    Engine *e = new_engine();
    char err[256];
    for (int threads = 2; threads <= 4; threads += 2) {
        char v[12];
        snprintf(v, sizeof v, "%d", threads);
        assert_true(engine_set_option(e, "Threads", v, err, sizeof err));
        for (int i = 0; i < BenchCount; i += 8) {
            search_depth(e, BenchFens[i], 7);
            assert_true(pos_pseudo_legal(engine_position(e), cap.best) && pos_legal(engine_position(e), cap.best));
        }
        /* an infinite search stops promptly */
        assert_true(engine_set_position(e, NULL, NULL, 0, false, err, sizeof err));
        EngineLimits lim;
        limits_clear(&lim);
        lim.infinite = true;
        cap.bestmoves = 0;
        engine_go(e, &lim);
        usleep(300 * 1000);
        assert_int_equal(cap.bestmoves, 0);
        int64_t t0 = now_ms();
        engine_stop(e);
        engine_wait(e);
        assert_true(now_ms() - t0 < 2000); /* generous: the test machine may be loaded */
        assert_int_equal(cap.bestmoves, 1);
        assert_true(pos_legal(engine_position(e), cap.best));
        /* the nodes of all threads are counted */
        assert_true(cap.last.nodes > 0);
    }
    engine_free(e);
}

static void test_threads_and_hash_change_between_searches(void **state)
{
    (void)state;
    Engine *e = new_engine();
    char err[256];
    static const char *const settings[][2] = {{"Threads", "3"}, {"Hash", "32"}, {"Threads", "1"}, {"Hash", "1"},
                                              {"Threads", "2"}, {"Hash", "64"}, {"Clear Hash", NULL}};
    for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++) {
        if (!engine_set_option(e, settings[i][0], settings[i][1], err, sizeof err))
            fail_msg("%s: %s", settings[i][0], err);
        char buf[32];
        if (settings[i][1])
            assert_string_equal(engine_get_option(e, settings[i][0], buf, sizeof buf), settings[i][1]);
        search_depth(e, BenchFens[i], 6);
        assert_true(pos_legal(engine_position(e), cap.best));
    }
    /* out of range: refused with a reason, the old value kept */
    assert_false(engine_set_option(e, "Threads", "0", err, sizeof err));
    assert_false(engine_set_option(e, "Threads", "1025", err, sizeof err));
    assert_false(engine_set_option(e, "Hash", "0", err, sizeof err));
    assert_false(engine_set_option(e, "Hash", "100000000", err, sizeof err));
    char buf[32];
    assert_string_equal(engine_get_option(e, "Threads", buf, sizeof buf), "2");
    assert_string_equal(engine_get_option(e, "Hash", buf, sizeof buf), "64");
    /* during a search the pool and the table stay as they are */
    EngineLimits lim;
    limits_clear(&lim);
    lim.infinite = true;
    engine_go(e, &lim);
    assert_false(engine_set_option(e, "Threads", "4", err, sizeof err));
    assert_non_null(strstr(err, "during a search"));
    engine_stop(e);
    engine_wait(e);
    engine_free(e);
}

/* The mate bench on a tiny suite: the two true mates are seen (the mated
 * side's and the mating side's), the mate claimed one ply too short is not,
 * and the percentiles say so; a bad suite line is refused. */
static void test_matebench_tiny_suite(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "1rb1kar2/4a4/n3b3c/3R4p/4C1p2/3R5/PnP1P1P1P/N2AB1N2/9/2BA1K3 b - - 2 2 ; -2 ; mated in 1",
        "1rb1ka1r1/4a4/n3b3c/3R4p/4C1p2/3R5/PnP1P1P1P/N2AB1N2/9/2BA1K3 w - - 3 3 ; 1 ; mate in 1",
        "1rb1kar2/4a4/n3b3c/3R4p/4C1p2/5R3/PnP1P1P1P/N2AB1N2/9/2BA1K3 w - - 1 2 ; 1 ; a mate in 2 is no mate in 1",
    };
    MateCase cases[3];
    char err[160];
    for (int i = 0; i < 3; i++)
        assert_true(matebench_parse(lines[i], &cases[i], err, sizeof err));
    assert_int_equal(cases[0].plies, -2);
    assert_string_equal(cases[1].name, "mate in 1");
    MateSummary sum;
    assert_true(matebench_run(cases, 3, 20000, NULL, &sum));
    assert_int_equal(sum.count, 3);
    assert_int_equal(sum.found, 2);
    assert_true(sum.median > 0 && sum.median < 20000);
    assert_true(sum.p75 == UINT64_MAX); /* the third is not found */
    assert_true(sum.total_nodes >= 20000);
    /* the mate in 2 is seen when it is what is asked */
    cases[2].plies = 3;
    assert_true(matebench_run(cases + 2, 1, 2000000, NULL, &sum));
    assert_int_equal(sum.found, 1);
    assert_false(matebench_parse("1rb1kar2/4a4/n3b3c/3R4p/4C1p2/5R3/PnP1P1P1P/N2AB1N2/9/2BA1K3 w - - 1 2", &cases[0],
                                 err, sizeof err));
    assert_false(matebench_parse("x ; 0", &cases[0], err, sizeof err));
    assert_false(matebench_parse("x ; two", &cases[0], err, sizeof err));
}

const struct CMUnitTest *search_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mate_in_one),
        cmocka_unit_test(test_mate_in_two),
        cmocka_unit_test(test_matebench_tiny_suite),
        cmocka_unit_test(test_no_legal_move_is_a_loss),
        cmocka_unit_test(test_bestmove_legal_in_bench_positions),
        cmocka_unit_test(test_nodes_limit), cmocka_unit_test(test_soft_nodes_limit),
        cmocka_unit_test(test_nodes_limit_threads),
        cmocka_unit_test(test_self_play),
        cmocka_unit_test(test_bench_deterministic),
        cmocka_unit_test(test_bench_signature),
        cmocka_unit_test(test_search_obeys_repetition_rules),
        cmocka_unit_test(test_sixty_move_rule_in_search),
        cmocka_unit_test(test_mate_on_the_last_ply),
        cmocka_unit_test(test_stalemate_on_the_last_ply),
        cmocka_unit_test(test_reduced_depth),
        cmocka_unit_test(test_table_mate_beyond_the_sixty_move_limit),
        cmocka_unit_test(test_no_table_values_near_the_sixty_move_limit),
        cmocka_unit_test(test_tt_depth_does_not_wrap),
        cmocka_unit_test(test_tt_kept_entry_takes_the_new_move),
        cmocka_unit_test(test_search_clear_lists_every_history_once),
        cmocka_unit_test(test_corr_keys_follow_their_pieces),
        cmocka_unit_test(test_corr_moves_the_evaluation_within_bounds),
        cmocka_unit_test(test_threads_search_and_stop),
        cmocka_unit_test(test_threads_and_hash_change_between_searches),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
