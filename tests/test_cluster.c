/* The parts of the cluster that work in one process: the table entries a
 * table offers and another merges, the vote among searches, and a job of
 * one (every build without MPI).  The cluster itself runs under mpirun:
 * make test-mpi. */
#include <stdlib.h>
#include <string.h>

#include "engine/cluster/comm.h"
#include "engine/engine.h"
#include "search/score.h"
#include "search/tt.h"
#include "search/tt_share.h"
#include "search/vote.h"
#include "tests.h"

static void test_tt_share_offers_deep_entries(void **state)
{
    (void)state;
    TT tt;
    memset(&tt, 0, sizeof tt);
    char err[128];
    assert_true(tt_resize(&tt, 1, 1, err, sizeof err));
    TTShare *share = tt_share_new(4, 6);
    assert_non_null(share);
    tt.share = share;
    Move m = make_move(1, 10);
    tt_store(&tt, 0x1234567ULL, 30, false, TT_BOUND_EXACT, 5, m, 12); /* too shallow */
    tt_store(&tt, 0x7654321ULL, -40, true, TT_BOUND_LOWER, 6, m, 7);
    tt_store(&tt, 0xABCDEF1ULL, 50, false, TT_BOUND_UPPER, 9, MOVE_NONE, 3);
    TTRecord out[8];
    assert_int_equal(tt_share_take(share, out, 8), 2);
    assert_int_equal(out[0].key, 0x7654321ULL);
    assert_int_equal(out[1].key, 0xABCDEF1ULL);
    assert_int_equal(tt_share_take(share, out, 8), 0);
    /* a deeper threshold keeps the depth 6 store out */
    tt_share_set_depth(share, 7);
    assert_int_equal(tt_share_depth(share), 7);
    tt_store(&tt, 0x1111ULL, 1, false, TT_BOUND_EXACT, 6, m, 0);
    assert_int_equal(tt_share_take(share, out, 8), 0);
    /* a full queue drops and counts */
    for (int i = 0; i < 6; i++)
        tt_store(&tt, 0x2000ULL + (Key)i * 0x10001ULL, i, false, TT_BOUND_EXACT, 8, m, 0);
    TTShareStats st = tt_share_stats(share);
    assert_int_equal(st.queued, 2 + 4);
    assert_int_equal(st.dropped, 2);
    assert_int_equal(tt_share_take(share, out, 8), 4);
    tt.share = NULL;
    tt_share_free(share);
    tt_free(&tt);
}

static void test_tt_merge_keeps_the_deeper(void **state)
{
    (void)state;
    TT from, into;
    memset(&from, 0, sizeof from);
    memset(&into, 0, sizeof into);
    char err[128];
    assert_true(tt_resize(&from, 1, 1, err, sizeof err) && tt_resize(&into, 1, 1, err, sizeof err));
    TTShare *share = tt_share_new(16, 0);
    from.share = share;
    Move m = make_move(3, 12), other = make_move(4, 13);
    Key key = 0x5555AAAA1234ULL;
    tt_store(&from, key, 77, true, TT_BOUND_EXACT, 8, m, 21);
    TTRecord r;
    assert_int_equal(tt_share_take(share, &r, 1), 1);
    /* into another table, with that table's age */
    tt_new_search(&into);
    tt_new_search(&into);
    tt_merge(&into, &r);
    TTData d;
    assert_true(tt_probe(&into, key, &d));
    assert_int_equal(d.move, m);
    assert_int_equal(d.value, 77);
    assert_int_equal(d.eval, 21);
    assert_int_equal(d.depth, 8);
    assert_int_equal(d.bound, TT_BOUND_EXACT);
    assert_true(d.pv);
    /* a shallower entry of the same position does not replace it */
    tt_store(&from, key, -5, false, TT_BOUND_UPPER, 4, other, 0);
    assert_int_equal(tt_share_take(share, &r, 1), 1);
    tt_merge(&into, &r);
    assert_true(tt_probe(&into, key, &d));
    assert_int_equal(d.depth, 8);
    assert_int_equal(d.move, m);
    /* a deeper one does, keeping the move known here when it has none */
    TT tmp;
    memset(&tmp, 0, sizeof tmp);
    assert_true(tt_resize(&tmp, 1, 1, err, sizeof err));
    tmp.share = share;
    tt_store(&tmp, key, 123, false, TT_BOUND_LOWER, 12, MOVE_NONE, 5);
    TTRecord deeper;
    assert_int_equal(tt_share_take(share, &deeper, 1), 1);
    tmp.share = NULL;
    tt_free(&tmp);
    tt_merge(&into, &deeper);
    assert_true(tt_probe(&into, key, &d));
    assert_int_equal(d.depth, 12);
    assert_int_equal(d.value, 123);
    assert_int_equal(d.move, m);
    /* merged entries are not offered again */
    into.share = share;
    tt_merge(&into, &deeper);
    assert_int_equal(tt_share_take(share, &r, 1), 0);
    into.share = from.share = NULL;
    tt_share_free(share);
    tt_free(&from);
    tt_free(&into);
}

static void test_vote(void **state)
{
    (void)state;
    Move a = make_move(1, 10), b = make_move(2, 11), c = make_move(3, 12);
    /* two searches back b, one a little deeper backs a */
    Ballot b1[] = {{a, 20, 12}, {b, 20, 11}, {b, 18, 11}};
    assert_int_equal(b1[search_vote(b1, 3)].move, b);
    /* a much better score at the same depth wins alone */
    Ballot b2[] = {{a, 10, 10}, {b, 200, 10}, {a, 12, 10}};
    assert_int_equal(b2[search_vote(b2, 3)].move, b);
    /* a search without a move or a depth does not vote; ballot 0 wins when none does */
    Ballot b3[] = {{a, 0, 0}, {MOVE_NONE, 500, 20}, {c, 900, 0}};
    assert_int_equal(search_vote(b3, 3), 0);
    Ballot b4[] = {{a, 0, 0}, {c, 30, 5}};
    assert_int_equal(search_vote(b4, 2), 1);
    /* a proven mate wins over any number of votes, the shorter mate first */
    int mate3 = 0, mate5 = 0;
    for (int s = 32000; s > 30000 && (!mate3 || !mate5); s--)
        if (score_is_mate(s) && score_mate_plies(s) == 3)
            mate3 = s;
        else if (score_is_mate(s) && score_mate_plies(s) == 5)
            mate5 = s;
    assert_true(mate3 && mate5);
    Ballot b5[] = {{a, 100, 30}, {a, 100, 30}, {b, mate5, 6}, {c, mate3, 4}};
    assert_int_equal(b5[search_vote(b5, 4)].move, c);
}

static void test_job_of_one(void **state)
{
    (void)state;
    /* not started by mpirun (and in a build without MPI): a job of one */
    assert_int_equal(comm_size(), 1);
    assert_int_equal(comm_rank(), 0);
    char buf[64];
    int from, type;
    assert_false(comm_send(0, COMM_CLUSTER, 1, "x", 1));
    assert_int_equal(comm_poll(COMM_CLUSTER, &from, &type, buf, sizeof buf), -1);
    assert_int_equal(comm_pending(0), 0);
    char err[128];
    Engine *e = engine_new(NULL, err, sizeof err);
    assert_non_null(e);
    assert_int_equal(engine_ranks(e), 1);
    engine_use_ranks(e, false); /* nothing to turn off */
    assert_int_equal(engine_ranks(e), 1);
    engine_free(e);
}

const struct CMUnitTest *cluster_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tt_share_offers_deep_entries),
        cmocka_unit_test(test_tt_merge_keeps_the_deeper),
        cmocka_unit_test(test_vote),
        cmocka_unit_test(test_job_of_one),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
