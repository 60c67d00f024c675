/* Bitboard masks and attack tables against the slow reference functions;
 * the committed magic numbers are collision-free. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/board/bitboard.h"
#include "tests.h"

static void test_bit_operations(void **state)
{
    (void)state;
    Bitboard b = SquareBB[0] | SquareBB[63] | SquareBB[64] | SquareBB[89];
    assert_int_equal(popcount(b), 4);
    assert_int_equal(lsb(b), 0);
    int seen[4], n = 0;
    BB_FOR_EACH(b, s, { seen[n++] = s; });
    assert_int_equal(n, 4);
    assert_int_equal(seen[0], 0);
    assert_int_equal(seen[1], 63);
    assert_int_equal(seen[2], 64);
    assert_int_equal(seen[3], 89);
    assert_int_equal(pop_lsb(&b), 0);
    assert_int_equal(pop_lsb(&b), 63);
    assert_int_equal(pop_lsb(&b), 64);
    assert_int_equal(pop_lsb(&b), 89);
    assert_true(b == 0);
    assert_false(more_than_one(SquareBB[70]));
    assert_true(more_than_one(SquareBB[70] | SquareBB[2]));
}

static void test_masks(void **state)
{
    (void)state;
    assert_int_equal(popcount(BoardBB), 90);
    for (int c = 0; c < COLOR_NB; c++) {
        assert_int_equal(popcount(HalfBB[c]), 45);
        assert_int_equal(popcount(PalaceBB[c]), 9);
        assert_int_equal(popcount(AdvisorPointsBB[c]), 5);
        assert_int_equal(popcount(ElephantPointsBB[c]), 7);
        assert_int_equal(popcount(PawnPointsBB[c]), 55);
    }
    assert_true((HalfBB[RED] & HalfBB[BLACK]) == 0);
    for (int f = 0; f < FILE_NB; f++)
        assert_int_equal(popcount(FileBB[f]), 10);
    for (int r = 0; r < RANK_NB; r++)
        assert_int_equal(popcount(RankBB[r]), 9);
    /* e1 (square 13) is Red's palace centre */
    assert_true(bb_test(PalaceBB[RED], 13) && bb_test(AdvisorPointsBB[RED], 13));
    assert_int_equal(popcount(KingMoves[13]), 4);
    assert_int_equal(popcount(AdvisorMoves[13]), 4);
    assert_int_equal(popcount(AdvisorMoves[3]), 1); /* d0 -> e1 */
    /* a pawn before the river has one move, after it three */
    assert_int_equal(popcount(PawnMoves[RED][make_square(4, 3)]), 1);
    assert_int_equal(popcount(PawnMoves[RED][make_square(4, 5)]), 3);
    assert_int_equal(popcount(PawnMoves[RED][make_square(0, 9)]), 1);
    assert_int_equal(popcount(PawnMoves[BLACK][make_square(4, 4)]), 3);
    assert_int_equal(popcount(BetweenBB[0][81]), 8);
    assert_int_equal(popcount(BetweenBB[0][8]), 7);
    assert_true(BetweenBB[0][10] == 0);
}

static Bitboard random_occupancy(uint64_t *rng, int density)
{
    Bitboard occ = 0;
    for (int s = 0; s < SQUARE_NB; s++)
        if ((int)(rng_next(rng) % 100) < density)
            occ |= SquareBB[s];
    return occ;
}

static void test_tables_match_reference(void **state)
{
    (void)state;
    uint64_t rng = 12345;
    for (int i = 0; i < 300; i++) {
        Bitboard occ = random_occupancy(&rng, 5 + i % 60);
        for (int s = 0; s < SQUARE_NB; s++) {
            assert_true(rook_attacks(s, occ) == slow_rook_attacks(s, occ));
            assert_true((cannon_attacks(s, occ) & occ) == slow_cannon_attacks(s, occ));
            assert_true(horse_moves(s, occ) == slow_horse_moves(s, occ));
            assert_true(horse_attackers(s, occ) == slow_horse_attackers(s, occ));
            if (bb_test(ElephantPointsBB[RED] | ElephantPointsBB[BLACK], s))
                assert_true(elephant_moves(s, occ) == slow_elephant_moves(s, occ));
        }
    }
}

static void test_reverse_tables(void **state)
{
    (void)state;
    /* a horse on h attacks s exactly when s is among h's moves */
    uint64_t rng = 777;
    for (int i = 0; i < 100; i++) {
        Bitboard occ = random_occupancy(&rng, 30);
        for (int s = 0; s < SQUARE_NB; s++)
            for (int h = 0; h < SQUARE_NB; h++)
                assert_int_equal(bb_test(horse_attackers(s, occ), h), bb_test(horse_moves(h, occ), s));
    }
    for (int c = 0; c < COLOR_NB; c++)
        for (int s = 0; s < SQUARE_NB; s++)
            for (int p = 0; p < SQUARE_NB; p++)
                assert_int_equal(bb_test(PawnAttackers[c][s], p), bb_test(PawnMoves[c][p], s));
}

static void test_known_attacks(void **state)
{
    (void)state;
    /* cannon on b2 (square 19) in the start position captures b9's horse */
    Bitboard occ = 0;
    const char *start[] = {"a0", "b0", "c0", "d0", "e0", "f0", "g0", "h0", "i0", "b2", "h2", "a3", "c3",
                           "e3", "g3", "i3", "a6", "c6", "e6", "g6", "i6", "b7", "h7", "a9", "b9", "c9",
                           "d9", "e9", "f9", "g9", "h9", "i9"};
    for (size_t i = 0; i < sizeof start / sizeof start[0]; i++)
        occ |= SquareBB[make_square(start[i][0] - 'a', start[i][1] - '0')];
    assert_int_equal(popcount(occ), 32);
    Bitboard caps = cannon_attacks(make_square(1, 2), occ) & occ;
    /* b9 over the b7 cannon; across h2 on rank 2 there is no piece to take */
    assert_true(caps == SquareBB[make_square(1, 9)]);
    /* horse b0 (legs b1 empty, c0 occupied) reaches a2 and c2 */
    Bitboard hm = horse_moves(make_square(1, 0), occ);
    assert_int_equal(popcount(hm), 2);
    assert_true(bb_test(hm, make_square(0, 2)) && bb_test(hm, make_square(2, 2)));
    /* elephant c0 reaches a2 and e2 */
    assert_int_equal(popcount(elephant_moves(make_square(2, 0), occ)), 2);
    /* a blocked eye: elephant on c0 with d1 occupied only reaches a2 */
    assert_int_equal(popcount(elephant_moves(make_square(2, 0), occ | SquareBB[make_square(3, 1)])), 1);
}

static void test_magics_collision_free(void **state)
{
    (void)state;
    assert_int_equal(magic_verify_file(FileMagics), -1);
    assert_true(magic_verify_leg(OrthLegMagic, ORTH_WINDOW_MASK));
    assert_true(magic_verify_leg(DiagLegMagic, DIAG_WINDOW_MASK));
    /* and a broken table is caught */
    uint64_t bad[SQUARE_NB];
    for (int s = 0; s < SQUARE_NB; s++)
        bad[s] = FileMagics[s];
    bad[40] = 1;
    assert_int_equal(magic_verify_file(bad), 40);
    assert_false(magic_verify_leg(1, ORTH_WINDOW_MASK));
}

static void test_magic_generator(void **state)
{
    (void)state;
    /* the generator's output for another seed is itself collision-free:
     * read the numbers back from its text */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(magic_generate(99, f), 0);
    fclose(f);
    uint64_t magics[SQUARE_NB];
    int n = 0;
    for (char *p = strstr(text, "{"); p && n < SQUARE_NB; p++)
        if (p[0] == '0' && p[1] == 'x')
            magics[n++] = strtoull(p, &p, 16);
    assert_int_equal(n, SQUARE_NB);
    assert_int_equal(magic_verify_file(magics), -1);
    free(text);
}

const struct CMUnitTest *bitboard_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bit_operations),     cmocka_unit_test(test_masks),
        cmocka_unit_test(test_tables_match_reference), cmocka_unit_test(test_reverse_tables),
        cmocka_unit_test(test_known_attacks),      cmocka_unit_test(test_magics_collision_free),
        cmocka_unit_test(test_magic_generator),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
