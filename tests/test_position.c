/* FEN in and out: good FENs in every accepted form, and bad ones each
 * rejected with their own reason, leaving the position untouched. */
#include <stdio.h>
#include <string.h>

#include "engine/board/movegen.h"
#include "tests.h"

static Position pos;

static void test_start_position(void **state)
{
    (void)state;
    char err[160], fen[FEN_MAX];
    assert_true(pos_set_fen(&pos, START_FEN, err, sizeof err));
    pos_fen(&pos, fen);
    assert_string_equal(fen, START_FEN);
    assert_int_equal(popcount(pos.occupied), 32);
    assert_int_equal(pos.side, RED);
    assert_false(pos_in_check(&pos));
    assert_int_equal(pos.king_sq[RED], make_square(4, 0));
    assert_int_equal(pos.king_sq[BLACK], make_square(4, 9));
    assert_int_equal(pos_piece_on(&pos, make_square(1, 2)), make_piece(RED, CANNON));
    assert_int_equal(pos_piece_on(&pos, make_square(1, 9)), make_piece(BLACK, HORSE));
    assert_true(pos_key(&pos) == pos_compute_key(&pos));
}

/* The repetition scan: earlier occurrences of a position with the same
 * side to move, within the window that a capture or a null move closes. */
static void play(const char *moves)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        Move m = parse_move(&pos, t, false);
        assert_true(m != MOVE_NONE);
        pos_do_move(&pos, m);
    }
}

static void test_occurrences(void **state)
{
    (void)state;
    char err[160];
    int earliest, latest;
    assert_true(pos_set_fen(&pos, START_FEN, err, sizeof err));
    assert_int_equal(pos_occurrences(&pos, pos.top, &earliest, &latest), 0);
    assert_int_equal(earliest, -1);
    assert_int_equal(latest, -1);
    play("h2e2 h9g7 e2h2 g7h9"); /* back to the start */
    assert_int_equal(pos_occurrences(&pos, pos.top, &earliest, &latest), 1);
    assert_int_equal(earliest, 0);
    assert_int_equal(latest, 0);
    play("h2e2");
    assert_int_equal(pos_occurrences(&pos, pos.top, &earliest, &latest), 1);
    assert_int_equal(earliest, 1);
    play("h9g7 e2h2 g7h9");
    assert_int_equal(pos_occurrences(&pos, pos.top, &earliest, &latest), 2);
    assert_int_equal(earliest, 0);
    assert_int_equal(latest, 4);
    /* an earlier state is asked about by its index */
    assert_int_equal(pos_occurrences(&pos, 4, &earliest, &latest), 1);
    assert_int_equal(latest, 0);
    /* a null move closes the window: the side to move changes, and nothing
     * before it can be the same game line */
    pos_do_null(&pos);
    pos_do_null(&pos);
    assert_int_equal(pos_occurrences(&pos, pos.top, &earliest, &latest), 0);
    pos_undo_null(&pos);
    pos_undo_null(&pos);
    /* a capture closes it too: the cannons trade, and the count starts again */
    play("h2h9 i9h9 b2h2 h9i9 h2b2 i9h9");
    assert_int_equal(pos.top, 14);
    assert_int_equal(pos_occurrences(&pos, pos.top, &earliest, &latest), 1);
    assert_int_equal(earliest, 10);
}

static void test_accepted_forms(void **state)
{
    (void)state;
    char err[160], fen[FEN_MAX];
    static const char *const same_as_start[] = {
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1",
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w 0 1",
        "  rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -  ",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0",
    };
    for (size_t i = 0; i < sizeof same_as_start / sizeof same_as_start[0]; i++) {
        assert_true(pos_set_fen(&pos, same_as_start[i], err, sizeof err));
        pos_fen(&pos, fen);
        assert_string_equal(fen, START_FEN);
    }
    assert_true(pos_set_fen(&pos, "4k4/9/9/9/9/9/9/9/9/3K5 b - - 37 20", err, sizeof err));
    pos_fen(&pos, fen);
    assert_string_equal(fen, "4k4/9/9/9/9/9/9/9/9/3K5 b - - 37 20");
    assert_int_equal(pos_state(&pos)->rule60, 37);
    assert_int_equal(pos_game_ply(&pos), 39);
    /* every point a pawn can reach: its starting points, the same files a
     * rank on, and anywhere across the river */
    static const char *const pawn_points[] = {
        "4k4/9/9/9/9/9/P1P1P1P1P/9/9/3K5 w", "4k4/9/9/9/9/P1P1P1P1P/9/9/9/3K5 w",
        "4k4/9/9/9/PPPPP4/9/9/9/9/3K5 w",    "1PPP1k3/9/9/9/9/9/9/9/9/3K5 w",
        "4k4/9/9/p1p1p1p1p/9/9/9/9/9/3K5 w", "4k4/9/9/9/p1p1p1p1p/9/9/9/9/3K5 w",
        "4k4/9/9/9/9/ppppp4/9/9/9/3K5 w",    "4k4/9/9/9/9/9/9/9/9/ppp2K3 w",
    };
    for (size_t i = 0; i < sizeof pawn_points / sizeof pawn_points[0]; i++)
        if (!pos_set_fen(&pos, pawn_points[i], err, sizeof err))
            fail_msg("FEN '%s' refused: %s", pawn_points[i], err);
}

static void test_round_trip_perft_positions(void **state)
{
    (void)state;
    FILE *f = fopen(test_data_path("perft.txt"), "r");
    assert_non_null(f);
    char line[1024], err[160], fen[FEN_MAX];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        *strchr(line, ';') = 0;
        assert_true(pos_set_fen(&pos, line, err, sizeof err));
        pos_fen(&pos, fen);
        Position copy;
        assert_true(pos_set_fen(&copy, fen, err, sizeof err));
        assert_memory_equal(copy.board, pos.board, sizeof pos.board);
        assert_true(pos_key(&copy) == pos_key(&pos));
        n++;
    }
    fclose(f);
    assert_true(n >= 18);
}

typedef struct {
    const char *fen;
    const char *reason; /* a part of the expected message */
} BadFen;

#define BOARD_OK "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"

static const BadFen BAD[] = {
    {"", "empty FEN"},
    {"   \t ", "empty FEN"},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w", "only 9 ranks"},
    {"rnbakabnr/9/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "too many ranks"},
    {BOARD_OK "/ w", "too many ranks"},
    {"rnbakabn/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "rank 9 has 8 points"},
    {"rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "rank 9 has more than 9 points"},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", "rank 0 has 8 points"},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/7/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "rank 4 has 7 points"},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w", "invalid character 'X'"},
    {"rnbakabnr/0/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "invalid character '0'"},
    {"rnbakabnr/45/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "two digits in a row"},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w", "red has no king"},
    {"rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "black has no king"},
    {"4k4/9/9/9/9/9/9/9/4K4/3K5 w", "red has 2 kings"},
    {"4k4/9/9/9/9/9/9/9/R8/RR1K5 w", "red has 3 rooks"},
    {"4k4/9/9/PPPPP4/P8/9/9/9/9/3K5 w", "red has 6 pawns"},
    {"4k4/9/9/9/9/9/9/9/C8/CC1K5 w", "red has 3 cannons"},
    {"3nk4/9/9/9/9/9/9/9/9/3K1nn2 w", "black has 3 horses"},
    {"3ak4/4a4/5a3/9/9/9/9/9/9/3K5 w", "black has 3 advisors"},
    {"2b1k1b2/9/4b4/9/9/9/9/9/9/3K5 w", "black has 3 elephants"},
    {"4k4/9/9/9/9/9/9/9/9/K8 w", "red king on a0 is outside its palace"},
    {"4k4/9/9/9/9/9/9/9/9/2K6 w", "red king on c0 is outside its palace"},
    {"9/9/9/4k4/9/9/9/9/9/3K5 w", "black king on e6 is outside its palace"},
    {"4k4/9/9/9/9/9/9/9/9/2AK5 w", "red advisor on c0 is outside its palace"},
    {"4k4/9/9/9/9/9/9/A8/9/3K5 w", "red advisor on a2 is outside its palace"},
    {"4k4/9/9/9/4B4/9/9/9/9/3K5 w", "red elephant on e5 has crossed the river"},
    {"4k4/9/9/9/9/4b4/9/9/9/3K5 w", "black elephant on e4 has crossed the river"},
    /* an unreachable pawn is accepted, but not the rest of a bad board */
    {"4k4/9/9/9/9/9/9/9/9/2P1K4 w", "the kings face each other on the e-file"},
    {"4k4/9/9/9/9/9/9/9/4R3P/3K5 w", "black is in check but it is red's move"},
    {"p3k4/9/9/9/9/9/9/9/9/2K6 w", "red king on c0 is outside its palace"},
    {"4k4/9/9/9/9/9/9/A8/P8/3K5 w", "red advisor on a2 is outside its palace"},
    {"4k4/9/9/9/4B4/9/1P7/9/9/3K5 w", "red elephant on e5 has crossed the river"},
    {"4k4/9/9/PPPPP4/P8/9/9/9/P8/3K5 w", "red has 7 pawns"},
    {"4k4/9/9/9/9/9/9/9/9/4K4 w", "the kings face each other on the e-file"},
    {"4k4/9/9/9/9/9/9/9/4R4/3K5 w", "black is in check but it is red's move"},
    {"3k5/9/9/9/9/9/9/9/4r4/4K4 b", "red is in check but it is black's move"},
    {"4k4/9/9/9/9/9/9/9/9/3K5 x", "side to move must be"},
    {BOARD_OK " w KQkq - 0 1", "field 3 must be '-'"},
    {BOARD_OK " w - e3 0 1", "field 4 must be '-'"},
    {BOARD_OK " w - - abc 1", "halfmove clock 'abc'"},
    {BOARD_OK " w - - -5 1", "halfmove clock '-5'"},
    {BOARD_OK " w - - 5000 1", "halfmove clock '5000'"},
    {BOARD_OK " w - - 0 one", "fullmove number 'one'"},
    {BOARD_OK " w - - 0 1 extra", "unexpected text after the move counters"},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR\x01 w", "invalid character '?'"},
};
_Static_assert(sizeof BAD / sizeof BAD[0] >= 30, "a good many bad FENs");

static void test_bad_fens(void **state)
{
    (void)state;
    char err[160], fen[FEN_MAX];
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        assert_true(pos_set_fen(&pos, START_FEN, err, sizeof err));
        err[0] = 0;
        bool ok = pos_set_fen(&pos, BAD[i].fen, err, sizeof err);
        if (ok || !strstr(err, BAD[i].reason))
            fail_msg("FEN '%s': %s, message '%s', expected '%s'", BAD[i].fen, ok ? "accepted" : "rejected", err,
                     BAD[i].reason);
        /* the position is untouched */
        pos_fen(&pos, fen);
        assert_string_equal(fen, START_FEN);
        assert_true(pos_key(&pos) == pos_compute_key(&pos));
    }
}

/* Pawns where no game brings them (behind their starting rank, or this
 * side of the river off the pawn files), as rule books and composed
 * problems place them: accepted, the position whole, with a note naming
 * the pawn; pawns where a game brings them give no note. */
static void test_unreachable_pawns(void **state)
{
    (void)state;
    static const BadFen ODD[] = {
        {"4k4/9/9/9/9/9/9/9/9/2PK5 w", "red pawn on c0 stands behind its starting rank"},
        {"p3k4/9/9/9/9/9/9/9/9/3K5 w", "black pawn on a9 stands behind its starting rank"},
        {"4k4/9/9/9/9/9/9/9/P8/3K5 w", "red pawn on a1 stands behind its starting rank"},
        {"4k4/9/9/9/9/9/9/8P/9/3K5 w", "red pawn on i2 stands behind its starting rank"},
        {"4k4/9/8p/9/9/9/9/9/9/3K5 w", "black pawn on i7 stands behind its starting rank"},
        {"4k4/9/9/9/9/9/1P7/9/9/3K5 w", "red pawn on b3: a pawn this side of the river"},
        {"4k4/9/9/9/9/7P1/9/9/9/3K5 w", "red pawn on h4: a pawn this side of the river"},
        {"4k4/9/9/3p5/9/9/9/9/9/3K5 b", "black pawn on d6: a pawn this side of the river"},
        {"4k4/9/9/9/5p3/9/9/9/9/3K5 w", "black pawn on f5: a pawn this side of the river"},
        /* the WXF rule book's diagram 71: a black pawn on i7 */
        {"3a2b1r/4ak3/8p/7P1/9/9/9/B2NN3B/3K5/4p4 w", "black pawn on i7 stands behind its starting rank"},
    };
    char err[160], note[256], fen[FEN_MAX];
    for (size_t i = 0; i < sizeof ODD / sizeof ODD[0]; i++) {
        err[0] = note[0] = 0;
        if (!pos_set_fen(&pos, ODD[i].fen, err, sizeof err))
            fail_msg("FEN '%s' refused: %s", ODD[i].fen, err);
        assert_true(pos_key(&pos) == pos_compute_key(&pos));
        if (!pos_unreachable_pawn(&pos, note, sizeof note) || !strstr(note, ODD[i].reason))
            fail_msg("FEN '%s': note '%s', expected '%s'", ODD[i].fen, note, ODD[i].reason);
        /* the board reads back as given, and the pawn moves as a pawn does */
        pos_fen(&pos, fen);
        assert_true(!strncmp(fen, ODD[i].fen, strcspn(ODD[i].fen, " ")));
        assert_true(count_legal(&pos) > 0);
    }
    static const char *const USUAL[] = {
        START_FEN,
        "4k4/9/9/9/1P7/9/9/9/9/3K5 w", /* across the river: any file */
        "2P1k4/9/9/9/9/9/9/9/9/3K5 w", /* at the far end */
        "4k4/9/9/9/9/9/9/9/9/3K1p3 w", /* a black pawn on red's back rank */
        "4k4/9/9/9/9/9/P8/9/9/3K5 w",  /* on its starting point */
    };
    for (size_t i = 0; i < sizeof USUAL / sizeof USUAL[0]; i++) {
        assert_true(pos_set_fen(&pos, USUAL[i], err, sizeof err));
        if (pos_unreachable_pawn(&pos, note, sizeof note))
            fail_msg("FEN '%s': a note for pawns a game reaches: %s", USUAL[i], note);
    }
}

static void test_too_long_fen(void **state)
{
    (void)state;
    char fen[400], err[160];
    snprintf(fen, sizeof fen, "%s w - - 0 1", START_FEN);
    memset(fen + strlen(fen), ' ', 300);
    fen[sizeof fen - 1] = 0;
    memcpy(fen + 390, "garbage", 7);
    assert_false(pos_set_fen(&pos, fen, err, sizeof err));
    assert_non_null(strstr(err, "FEN too long"));
}

static void test_move_text(void **state)
{
    (void)state;
    char text[8];
    assert_true(pos_set_fen(&pos, START_FEN, NULL, 0));
    Move m = parse_move(&pos, "h2e2", false);
    assert_int_equal(m, make_move(make_square(7, 2), make_square(4, 2)));
    move_str(m, text, false);
    assert_string_equal(text, "h2e2");
    move_str(m, text, true);
    assert_string_equal(text, "h3e3");
    assert_int_equal(parse_move(&pos, "h3e3", true), m);
    assert_int_equal(parse_move(&pos, "a0a2", true), MOVE_NONE); /* no rank 0 in 1-10 */
    assert_int_equal(parse_move(&pos, "a1a3", true), make_move(0, 18));
    assert_int_equal(parse_move(&pos, "h2e3", false), MOVE_NONE);
    assert_int_equal(parse_move(&pos, "h2e2x", false), MOVE_NONE);
    assert_int_equal(parse_move(&pos, "z9e2", false), MOVE_NONE);
    assert_int_equal(parse_move(&pos, "h7e7", false), MOVE_NONE); /* black's cannon */
    assert_int_equal(parse_move(&pos, "", false), MOVE_NONE);
    assert_int_equal(parse_move(&pos, "b2b9", false), make_move(19, 82)); /* cannon takes horse */
    move_str(MOVE_NONE, text, false);
    assert_string_equal(text, "(none)");
}

const struct CMUnitTest *position_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_position), cmocka_unit_test(test_accepted_forms), cmocka_unit_test(test_occurrences),
        cmocka_unit_test(test_round_trip_perft_positions), cmocka_unit_test(test_bad_fens),
        cmocka_unit_test(test_unreachable_pawns),
        cmocka_unit_test(test_too_long_fen), cmocka_unit_test(test_move_text),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
