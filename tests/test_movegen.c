/* Move generation: the perft references, make/unmake restoring everything
 * with an exact incremental key, and every generator against a naive
 * point-by-point one over random games. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/perft.h"
#include "engine/board/movegen.h"
#include "tests.h"

static Position pos;

static void test_perft_references(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    int bad = perft_suite(test_data_path("perft.txt"), 3000000, out);
    fclose(out);
    if (bad)
        fail_msg("perft mismatches:\n%s", text);
    /* every position was checked at several depths */
    int checks = 0;
    for (char *p = text; (p = strstr(p, "ok   ")); p++)
        checks++;
    free(text);
    assert_int_equal(bad, 0);
    assert_true(checks >= 18 * 3);
}

/* Walk the tree: after each move the incremental key equals the key from
 * scratch; after each unmake the position is bit for bit what it was. */
static void walk(Position *p, int depth, long *nodes)
{
    if (depth == 0)
        return;
    Move moves[MAX_MOVES];
    int n = gen_legal(p, moves);
    for (int i = 0; i < n; i++) {
        static Position before[8];
        memcpy(&before[depth], p, offsetof(Position, st));
        StateInfo st_before = *pos_state(p);
        int top = p->top;
        pos_do_move(p, moves[i]);
        (*nodes)++;
        assert_true(pos_key(p) == pos_compute_key(p));
        walk(p, depth - 1, nodes);
        pos_undo_move(p);
        assert_int_equal(p->top, top);
        assert_memory_equal(&before[depth], p, offsetof(Position, st));
        assert_memory_equal(&st_before, pos_state(p), sizeof st_before);
    }
}

static void test_make_unmake_restores(void **state)
{
    (void)state;
    static const char *const fens[] = {
        START_FEN,
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    };
    long nodes = 0;
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        assert_true(pos_set_fen(&pos, fens[i], NULL, 0));
        walk(&pos, 3, &nodes);
    }
    assert_true(nodes > 100000);
}

/* ---- a naive generator: point by point, legality by the definition ---- */

static bool naive_attacked(const uint8_t *board, int s, int by)
{
    Bitboard occ = 0;
    for (int t = 0; t < SQUARE_NB; t++)
        if (board[t])
            occ |= SquareBB[t];
    for (int t = 0; t < SQUARE_NB; t++) {
        int pc = board[t];
        if (!pc || piece_color(pc) != by)
            continue;
        Bitboard att = 0;
        switch (piece_type(pc)) {
        case ROOK: att = slow_rook_attacks(t, occ); break;
        case CANNON: att = slow_cannon_attacks(t, occ); break;
        case HORSE: att = slow_horse_moves(t, occ); break;
        case KING: att = slow_rook_attacks(t, occ) & FileBB[sq_file(t)]; break; /* flying general */
        case PAWN: {
            int fwd = by == RED ? 9 : -9;
            bool crossed = by == RED ? sq_rank(t) >= 5 : sq_rank(t) <= 4;
            if (t + fwd == s && s >= 0 && s < SQUARE_NB)
                return true;
            if (crossed && sq_rank(s) == sq_rank(t) && abs(s - t) == 1)
                return true;
            break;
        }
        default: break;
        }
        if (bb_test(att, s))
            return true;
    }
    return false;
}

static bool in_palace(int c, int s) { return bb_test(PalaceBB[c], s); }

static int naive_legal(const Position *p, Move *out)
{
    int us = p->side, n = 0;
    Bitboard occ = p->occupied;
    for (int s = 0; s < SQUARE_NB; s++) {
        int pc = p->board[s];
        if (!pc || piece_color(pc) != us)
            continue;
        for (int t = 0; t < SQUARE_NB; t++) {
            int victim = p->board[t];
            if (t == s || (victim && piece_color(victim) == us))
                continue;
            int df = abs(sq_file(t) - sq_file(s)), dr = abs(sq_rank(t) - sq_rank(s));
            bool ok = false;
            switch (piece_type(pc)) {
            case ROOK: ok = bb_test(slow_rook_attacks(s, occ), t); break;
            case CANNON:
                ok = victim ? bb_test(slow_cannon_attacks(s, occ), t) : bb_test(slow_rook_attacks(s, occ), t);
                break;
            case HORSE: ok = bb_test(slow_horse_moves(s, occ), t); break;
            case ELEPHANT: ok = bb_test(slow_elephant_moves(s, occ), t); break;
            case ADVISOR: ok = df == 1 && dr == 1 && in_palace(us, t); break;
            case KING: ok = df + dr == 1 && in_palace(us, t); break;
            case PAWN: {
                int fwd = us == RED ? 1 : -1;
                bool crossed = us == RED ? sq_rank(s) >= 5 : sq_rank(s) <= 4;
                ok = (df == 0 && sq_rank(t) - sq_rank(s) == fwd) || (crossed && dr == 0 && df == 1);
                break;
            }
            default: break;
            }
            if (!ok)
                continue;
            uint8_t board[SQUARE_NB];
            memcpy(board, p->board, sizeof board);
            board[t] = board[s];
            board[s] = NO_PIECE;
            int ksq = -1;
            for (int k = 0; k < SQUARE_NB; k++)
                if (board[k] == make_piece(us, KING))
                    ksq = k;
            if (!naive_attacked(board, ksq, !us))
                out[n++] = make_move(s, t);
        }
    }
    return n;
}

static int cmp_moves(const void *a, const void *b) { return (int)*(const Move *)a - (int)*(const Move *)b; }

static void check_generators(Position *p)
{
    Move legal[MAX_MOVES], naive[SQUARE_NB * 4], pseudo[MAX_MOVES], caps[MAX_MOVES], quiets[MAX_MOVES];
    int nl = gen_legal(p, legal), nn = naive_legal(p, naive);
    qsort(legal, (size_t)nl, sizeof(Move), cmp_moves);
    qsort(naive, (size_t)nn, sizeof(Move), cmp_moves);
    if (nl != nn || memcmp(legal, naive, (size_t)nl * sizeof(Move))) {
        char fen[FEN_MAX];
        pos_fen(p, fen);
        fail_msg("legal moves differ from the naive generator in %s (%d vs %d)", fen, nl, nn);
    }
    assert_int_equal(count_legal(p), nl);
    if (pos_in_check(p)) {
        Move ev[MAX_MOVES];
        assert_int_equal(gen_evasions(p, ev), nl);
    }
    int np = gen_pseudo(p, pseudo), nc = gen_captures(p, caps), nq = gen_quiets(p, quiets);
    assert_int_equal(np, nc + nq);
    for (int i = 0; i < nc; i++)
        assert_true(pos_is_capture(p, caps[i]));
    for (int i = 0; i < nq; i++)
        assert_false(pos_is_capture(p, quiets[i]));
    /* pos_pseudo_legal agrees with the generator on every from/to pair */
    bool in_pseudo[SQUARE_NB][SQUARE_NB];
    memset(in_pseudo, 0, sizeof in_pseudo);
    for (int i = 0; i < np; i++)
        in_pseudo[move_from(pseudo[i])][move_to(pseudo[i])] = true;
    for (int f = 0; f < SQUARE_NB; f++)
        for (int t = 0; t < SQUARE_NB; t++)
            assert_int_equal(pos_pseudo_legal(p, make_move(f, t)), in_pseudo[f][t]);
    /* pos_gives_check agrees with making the move */
    Position *mp = (Position *)p;
    for (int i = 0; i < nl; i++) {
        bool predicted = pos_gives_check(p, legal[i]);
        pos_do_move(mp, legal[i]);
        bool actual = pos_in_check(mp);
        pos_undo_move(mp);
        if (predicted != actual) {
            char fen[FEN_MAX], text[8];
            pos_fen(p, fen);
            move_str(legal[i], text, false);
            fail_msg("pos_gives_check(%s) in %s says %d", text, fen, predicted);
        }
    }
    /* gen_quiet_checks: the quiet moves that give check, in gen_quiets' order */
    Move checks[MAX_MOVES], expected[MAX_MOVES];
    int nqc = gen_quiet_checks(p, checks), ne = 0;
    for (int i = 0; i < nq; i++)
        if (pos_gives_check(p, quiets[i]))
            expected[ne++] = quiets[i];
    assert_int_equal(nqc, ne);
    assert_memory_equal(checks, expected, (size_t)ne * sizeof(Move));
    /* pos_legal agrees with the legal list */
    int nlegal = 0;
    for (int i = 0; i < np; i++)
        nlegal += pos_legal(p, pseudo[i]);
    assert_int_equal(nlegal, nl);
}

static void test_generators_match_naive(void **state)
{
    (void)state;
    static const char *const fens[] = {
        START_FEN,
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
        "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
        "r1bakab1r/9/1c2c4/p3p3p/2p3p2/2P3P2/P3P3P/1C2C4/9/R1BAKAB1R w - - 0 1",
    };
    uint64_t rng = 2026;
    long nodes = 0, in_check = 0;
    for (int game = 0; game < 120; game++) {
        assert_true(pos_set_fen(&pos, fens[game % 6], NULL, 0));
        for (int ply = 0; ply < 120; ply++) {
            check_generators(&pos);
            nodes++;
            in_check += pos_in_check(&pos);
            Move moves[MAX_MOVES];
            int n = gen_legal(&pos, moves);
            if (!n)
                break;
            /* prefer captures now and then so that games thin out */
            Move m = moves[rng_next(&rng) % (uint64_t)n];
            for (int k = 0; k < n && rng_next(&rng) % 3 == 0; k++)
                if (pos_is_capture(&pos, moves[k]))
                    m = moves[k];
            /* and checks in every other game, so that evasions are many */
            if (game % 2)
                for (int k = 0; k < n; k++)
                    if (rng_next(&rng) % 4 == 0 && pos_gives_check(&pos, moves[k]))
                        m = moves[k];
            pos_do_move(&pos, m);
        }
    }
    assert_true(nodes > 8000);
    assert_true(in_check > 600); /* evasions compared on hundreds of checks */
}

static void test_gives_check_by_capture(void **state)
{
    (void)state;
    /* a rook taking a rook gives check along the file */
    assert_true(pos_set_fen(&pos, "4k4/9/9/9/4r4/9/9/9/9/3KR4 w - - 0 1", NULL, 0));
    assert_true(pos_gives_check(&pos, parse_move(&pos, "e0e5", false)));
    assert_false(pos_gives_check(&pos, parse_move(&pos, "e0f0", false)));
    /* a cannon taking a rook next to the king does not check (no screen) */
    assert_true(pos_set_fen(&pos, "2ba1a3/r3k4/2n1b2n1/p1p1p1p1p/9/6P2/P1P5P/cC1C5/c3KR3/3A1AB2 b - - 1 6", NULL, 0));
    assert_false(pos_gives_check(&pos, parse_move(&pos, "a1f1", false)));
}

static void test_no_move_positions(void **state)
{
    (void)state;
    Move moves[MAX_MOVES];
    /* stalemate: red king d0 boxed in by the e1 rook, not in check */
    assert_true(pos_set_fen(&pos, "5k3/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1", NULL, 0));
    assert_false(pos_in_check(&pos));
    assert_int_equal(gen_legal(&pos, moves), 0);
    assert_int_equal(count_legal(&pos), 0);
    assert_int_equal(perft(&pos, 1), 0);
    /* checkmate: the f0 rook checks along rank 0 as well */
    assert_true(pos_set_fen(&pos, "5k3/9/9/9/9/9/9/9/4r4/3K1r3 w - - 0 1", NULL, 0));
    assert_true(pos_in_check(&pos));
    assert_int_equal(gen_legal(&pos, moves), 0);
    assert_int_equal(gen_evasions(&pos, moves), 0);
    assert_int_equal(count_legal(&pos), 0);
}

const struct CMUnitTest *movegen_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_references),
        cmocka_unit_test(test_make_unmake_restores),
        cmocka_unit_test(test_generators_match_naive),
        cmocka_unit_test(test_gives_check_by_capture),
        cmocka_unit_test(test_no_move_positions),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
