/* The move picker's quiet moves: best history first among those above the
 * sorting limit (the first generated move among them whatever its score),
 * equals in generation order, then the rest; compared with a whole
 * insertion sort of the generated list, over many positions and random
 * histories. */
#include <stdlib.h>
#include <string.h>

#include "engine/board/movegen.h"
#include "engine/util/rng.h"
#include "search/movepick.h"
#include "search/search_private.h"
#include "search/tunable_list.h"
#include "tests.h"

/* The order the picker promises: a stable insertion sort, best first, of
 * the first move and every later one scored at limit or above, the others
 * swapped behind them as they are met. */
static void reference_order(Move *moves, int *scores, int n)
{
    for (int i = 1, sorted = 0; i < n; i++)
        if (scores[i] >= QUIET_SORT_LIMIT) {
            Move m = moves[i];
            int sc = scores[i];
            moves[i] = moves[++sorted];
            scores[i] = scores[sorted];
            int j = sorted;
            for (; j > 0 && scores[j - 1] < sc; j--) {
                moves[j] = moves[j - 1];
                scores[j] = scores[j - 1];
            }
            moves[j] = m;
            scores[j] = sc;
        }
}

static void test_quiet_order(void **state)
{
    (void)state;
    static const char *const fens[] = {
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "r1bakab1r/9/1c2c4/p3p3p/2p3p2/2P3P2/P3P3P/1C2C4/9/R1BAKAB1R b - - 0 1",
        "3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1",
    };
    SearchThread *th = calloc(1, sizeof *th);
    assert_non_null(th);
    ContHist *const cont[2] = {&th->cont_history[NO_PIECE][0], &th->cont_history[NO_PIECE][0]}; /* all zero */
    const Move none[2] = {MOVE_NONE, MOVE_NONE};
    uint64_t rng = 41;
    int checked = 0;
    for (int round = 0; round < 200; round++) {
        assert_true(pos_set_fen(&th->pos, fens[round % 4], NULL, 0));
        /* histories of every kind: ties, both sides of the limit, extremes */
        for (int i = 0; i < SQUARE_NB * SQUARE_NB; i++) {
            int kind = (int)(rng_next(&rng) % 4);
            int v = kind == 0   ? 0
                    : kind == 1 ? QUIET_SORT_LIMIT + ((int)(rng_next(&rng) % 8) - 4) * 1000
                                : (int)(rng_next(&rng) % 32768) - 16384;
            th->history[th->pos.side][i] = (int16_t)v;
        }
        Move expected[MAX_MOVES];
        int scores[MAX_MOVES];
        int n = gen_quiets(&th->pos, expected);
        for (int i = 0; i < n; i++)
            scores[i] = th->history[th->pos.side][move_from(expected[i]) * SQUARE_NB + move_to(expected[i])];
        reference_order(expected, scores, n);

        MovePicker mp;
        mp_init(&mp, th, MOVE_NONE, none, MOVE_NONE, cont);
        int k = 0;
        for (Move m; (m = mp_next(&mp, false)) != MOVE_NONE;)
            if (!pos_is_capture(&th->pos, m)) {
                assert_true(k < n);
                assert_int_equal(m, expected[k]);
                k++;
            }
        assert_int_equal(k, n);
        checked += n;
    }
    assert_true(checked > 4000);
    free(th);
}

/* Late-move pruning mid-way: the quiet moves stop at once, the bad
 * captures still come. */
static void test_skip_quiets_stops_the_quiets(void **state)
{
    (void)state;
    SearchThread *th = calloc(1, sizeof *th);
    assert_non_null(th);
    ContHist *const cont[2] = {&th->cont_history[NO_PIECE][0], &th->cont_history[NO_PIECE][0]};
    const Move none[2] = {MOVE_NONE, MOVE_NONE};
    assert_true(pos_set_fen(&th->pos, "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", NULL, 0));
    MovePicker mp;
    mp_init(&mp, th, MOVE_NONE, none, MOVE_NONE, cont);
    int quiets = 0;
    bool skip = false;
    for (Move m; (m = mp_next(&mp, skip)) != MOVE_NONE;) {
        if (skip)
            assert_true(pos_is_capture(&th->pos, m));
        else if (!pos_is_capture(&th->pos, m) && ++quiets == 3)
            skip = true;
    }
    assert_int_equal(quiets, 3);
    free(th);
}

const struct CMUnitTest *movepick_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quiet_order),
        cmocka_unit_test(test_skip_quiets_stops_the_quiets),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
