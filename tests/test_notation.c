/* Notations and game records: every notation round-trips over every legal
 * move of positions with doubled pieces and tandem pawns; the readers accept
 * the variants found in records; PGN in UTF-8, GBK, Big5 and zstd; and the
 * CCPD master games replay legally (at least 99.9% of them). */
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "engine/board/movegen.h"
#include "engine/records/notation.h"
#include "engine/records/pgn.h"
#include "tests.h"

static Position pos;

static const NotationFormat FORMATS[] = {NOTATION_UCI,     NOTATION_ICCS,       NOTATION_WXF,
                                         NOTATION_CHINESE, NOTATION_CHINESE_SC, NOTATION_SAN};
#define NFORMATS (sizeof FORMATS / sizeof FORMATS[0])

/* Positions with like pieces sharing files (each also with Black to move). */
static const char *const TANDEM_FENS[] = {
    START_FEN,
    /* two rooks, horses, cannons on one file each; three pawns on one file */
    "3k2n1r/9/4PcnC1/2N1P4/1R2Pc3/p7r/p8/p1N4C1/1R7/4K4 w - - 0 1",
    /* four red pawns on one file, five black pawns on one file */
    "r4k3/4P4/4P4/P3P4/4P4/6p2/6p2/6p2/6p2/3K2p2 w - - 0 1",
    /* pawns on two files: three and two */
    "5k3/9/2P6/2P3P2/2P3P2/1p5p1/1p5p1/7p1/9/3K5 w - - 0 1",
    /* pawns on two files: two and two, and a single one */
    "4k4/9/P7P/P3P3P/9/2p3p2/2p1p4/4p4/9/3K5 w - - 0 1",
    /* advisors and elephants sharing a file */
    "5ab2/4k4/5a3/9/6b2/2B6/9/3A5/9/1NBA1K3 w - - 0 1",
    /* advisors off their points, where the direction does not tell them apart */
    "2bak4/3a5/9/9/2b6/9/9/9/3A1K3/3A5 w - - 0 1",
    /* five red pawns on one file */
    "2nP5/3P1k3/2nP5/3P5/3P5/9/9/9/4K4/1R7 w - - 0 1",
    /* two cannons on one file, only one free to move sideways */
    "5k3/9/9/9/2CP5/9/9/2C6/9/4K4 w - - 0 1",
    /* middlegames */
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
};

static void set_fen(const char *fen)
{
    char err[160];
    if (!pos_set_fen(&pos, fen, err, sizeof err))
        fail_msg("bad FEN %s: %s", fen, err);
}

/* A file number (一..九 or １..９) at t? */
static bool is_number(const char *t)
{
    static const char *const NUMBERS[] = {"一", "二", "三", "四", "五", "六", "七", "八", "九",
                                          "１", "２", "３", "４", "５", "６", "７", "８", "９"};
    for (size_t i = 0; i < sizeof NUMBERS / sizeof NUMBERS[0]; i++)
        if (!strncmp(t, NUMBERS[i], 3))
            return true;
    return false;
}

/* Every legal move of pos: written in each notation, read back (as that
 * notation and as AUTO) to the same move, and no two moves written alike. */
static int roundtrip_position(const Position *p, long features[8])
{
    Move moves[MAX_MOVES];
    int n = gen_legal(p, moves);
    static char text[NFORMATS][MAX_MOVES][NOTATION_MAX];
    for (size_t f = 0; f < NFORMATS; f++) {
        for (int i = 0; i < n; i++) {
            char err[200];
            char *t = text[f][i];
            assert_true(notation_write(p, moves[i], FORMATS[f], t));
            Move back = notation_read(p, t, FORMATS[f], err, sizeof err);
            if (back != moves[i]) {
                char uci[8], fen[FEN_MAX];
                move_str(moves[i], uci, false);
                pos_fen(p, fen);
                fail_msg("%s: %s written '%s' reads back as %d (%s)", fen, uci, t, back, err);
            }
            Move back_auto = notation_read(p, t, NOTATION_AUTO, err, sizeof err);
            if (back_auto != moves[i])
                fail_msg("'%s' read with auto-detection: %s", t, err);
            for (int j = 0; j < i; j++)
                if (!strcmp(text[f][j], t))
                    fail_msg("two moves written as '%s'", t);
            if (FORMATS[f] == NOTATION_CHINESE) {
                features[0] += !strncmp(t, "前", 3);
                features[1] += !strncmp(t, "後", 3);
                features[2] += !strncmp(t, "中", 3);
                features[3] += !strncmp(t, "二", 3) || !strncmp(t, "五", 3); /* ordinals of 4-5 pawns */
                /* place + file number: pawns on two files */
                features[4] += (!strncmp(t, "前", 3) || !strncmp(t, "後", 3) || !strncmp(t, "中", 3)) &&
                               is_number(t + 3);
            }
            if (FORMATS[f] == NOTATION_WXF)
                features[5] += t[0] == '+' || t[0] == '-' || (t[0] >= '1' && t[0] <= '9');
        }
    }
    return n;
}

static void test_notation_roundtrip_tandem(void **state)
{
    (void)state;
    long moves = 0, positions = 0, features[8] = {0};
    for (size_t i = 0; i < sizeof TANDEM_FENS / sizeof TANDEM_FENS[0]; i++) {
        for (int side = 0; side < 2; side++) {
            char fen[256], err[160];
            snprintf(fen, sizeof fen, "%s", TANDEM_FENS[i]);
            char *w = strstr(fen, " w ");
            assert_non_null(w);
            w[1] = side ? 'b' : 'w';
            if (!pos_set_fen(&pos, fen, err, sizeof err)) /* e.g. the side not to move in check */
                continue;
            positions++;
            moves += roundtrip_position(&pos, features);
        }
    }
    assert_true(positions >= 18);
    assert_true(moves >= 500);
    /* the special forms all occurred */
    assert_true(features[0] > 0 && features[1] > 0 && features[2] > 0 && features[3] > 0 && features[4] > 0);
    assert_true(features[5] > 0);
}

/* Random games: the round trip in whatever positions arise. */
static void test_notation_roundtrip_random(void **state)
{
    (void)state;
    uint64_t seed = 20261129;
    long moves = 0, features[8] = {0};
    for (int game = 0; game < 40; game++) {
        set_fen(game % 2 ? START_FEN : TANDEM_FENS[1 + game % 10]);
        for (int ply = 0; ply < 120; ply++) {
            Move list[MAX_MOVES];
            int n = gen_legal(&pos, list);
            if (n == 0)
                break;
            moves += roundtrip_position(&pos, features);
            pos_do_move(&pos, list[rng_next(&seed) % (uint64_t)n]);
        }
    }
    assert_true(moves > 50000);
}

static Move read_ok(const char *text)
{
    char err[200] = "";
    Move m = notation_read(&pos, text, NOTATION_AUTO, err, sizeof err);
    if (m == MOVE_NONE)
        fail_msg("'%s' not read: %s", text, err);
    return m;
}

static void expect(const char *text, const char *uci)
{
    char got[8];
    move_str(read_ok(text), got, false);
    if (strcmp(got, uci))
        fail_msg("'%s' read as %s, expected %s", text, got, uci);
}

static void expect_written(const char *uci, NotationFormat fmt, const char *text)
{
    char out[NOTATION_MAX];
    Move m = parse_move(&pos, uci, false);
    assert_int_not_equal(m, MOVE_NONE);
    assert_true(notation_write(&pos, m, fmt, out));
    if (strcmp(out, text))
        fail_msg("%s written as '%s', expected '%s'", uci, out, text);
}

static void expect_error(const char *text, const char *word)
{
    char err[200] = "";
    Move m = notation_read(&pos, text, NOTATION_AUTO, err, sizeof err);
    if (m != MOVE_NONE)
        fail_msg("'%s' should not read as a move", text);
    if (!*err || (word && !strstr(err, word)))
        fail_msg("'%s': reason '%s' (expected one mentioning '%s')", text, err, word ? word : "");
}

static void test_notation_standard_forms(void **state)
{
    (void)state;
    set_fen(START_FEN);
    expect_written("h2e2", NOTATION_CHINESE, "炮二平五");
    expect_written("h2e2", NOTATION_WXF, "C2.5");
    expect_written("h2e2", NOTATION_ICCS, "H2-E2");
    expect_written("h2e2", NOTATION_UCI, "h2e2");
    expect_written("h0g2", NOTATION_CHINESE_SC, "马二进三");
    expect_written("i0i2", NOTATION_CHINESE, "車一進二");
    expect_written("g0e2", NOTATION_CHINESE, "相三進五");
    expect_written("f0e1", NOTATION_WXF, "A4+5");
    for (const char *const *t = (const char *const[]){"炮二平五", "炮2平5", "砲二平五", "炮２平５", "C2.5", "C2=5",
                                                       "c2.5", "H2-E2", "h2-e2", "h2e2", " 炮二平五 ", "炮二平五!",
                                                       NULL};
         *t; t++)
        expect(*t, "h2e2");
    pos_do_move(&pos, read_ok("h2e2"));
    expect_written("h9g7", NOTATION_CHINESE, "馬８進７");
    expect_written("h9g7", NOTATION_CHINESE_SC, "马８进７");
    expect_written("h9g7", NOTATION_WXF, "H8+7");
    expect("馬8進7", "h9g7");
    expect("马８进７", "h9g7");
    expect("馬八進七", "h9g7"); /* Chinese numerals for Black are accepted too */
    expect("將５進１", "e9e8");
    expect("K5+1", "e9e8");
}

static void test_notation_tandem_reading(void **state)
{
    (void)state;
    /* red rooks b1 b5, horses c2 c6, cannons h2 h7, pawns e5 e6 e7 */
    set_fen(TANDEM_FENS[1]);
    expect("前車進一", "b5b6");
    expect("車前進一", "b5b6"); /* the piece before its place, as some records write */
    expect("後車進一", "b1b2");
    expect("后车进一", "b1b2");
    expect("R+.9", "b5a5");
    expect("R-+1", "b1b2");
    expect("前兵平四", "e7f7");
    expect("中兵平四", "e6f6");
    expect("後兵平六", "e5d5");
    expect("二兵平四", "e6f6");
    expect("P+.4", "e7f7");
    expect("P5.4", "e6f6"); /* WXF: the middle pawn by its file */
    expect("P-.6", "e5d5");
    expect_written("e6f6", NOTATION_CHINESE, "中兵平四");
    expect_written("e6f6", NOTATION_WXF, "P5.4");
    expect_written("b1b2", NOTATION_CHINESE, "後車進一");
    expect_written("b1b2", NOTATION_WXF, "R-+1");
    expect_error("車八進一", "ambiguous"); /* both rooks can */
    expect_error("前炮平五", NULL);        /* h7e7: the black horse on g7 is in the way */

    /* four red pawns on the e-file, five black pawns on the g-file */
    set_fen(TANDEM_FENS[2]);
    expect("一兵平四", "e8f8");
    expect("四兵平六", "e5d5");
    expect("++.4", "e8f8");
    expect("P+.4", "e7f7");
    expect("P-.4", "e6f6");
    expect("--.4", "e5f5");
    expect_written("e7f7", NOTATION_CHINESE, "二兵平四");
    expect_written("e7f7", NOTATION_WXF, "P+.4");
    pos_do_move(&pos, read_ok("e5d5"));
    expect("一卒平６", "g0f0");
    expect("三卒平６", "g2f2");
    expect("五卒平８", "g4h4");
    expect("P7.6", "g2f2");
    expect("--.8", "g4h4");
    expect_written("g2f2", NOTATION_CHINESE, "三卒平６");
    expect_written("g2f2", NOTATION_WXF, "P7.6");

    /* pawns on two files: c5 c6 c7 and g5 g6 */
    set_fen(TANDEM_FENS[3]);
    expect("前七平六", "c7d7");
    expect("中七平六", "c6d6");
    expect("後三平四", "g5f5");
    expect("7+.6", "c7d7");
    expect("77.6", "c6d6");
    expect("3-.4", "g5f5");
    expect_written("c7d7", NOTATION_CHINESE, "前七平六");
    expect_written("c6d6", NOTATION_WXF, "77.6");

    /* advisors and elephants on one file: the direction tells them apart */
    set_fen(TANDEM_FENS[5]);
    expect_written("d0e1", NOTATION_CHINESE, "仕六進五");
    expect_written("d2e1", NOTATION_CHINESE, "仕六退五");
    expect_written("c4e2", NOTATION_CHINESE, "相七退五");
    expect("前仕退五", "d2e1");
}

/* Records name one of two pieces on a file by the file when only one can
 * make the move (炮七平四). */
static void test_notation_file_disambiguation(void **state)
{
    (void)state;
    set_fen(TANDEM_FENS[8]); /* red cannons c2 and c5, pawn d5 in the way of the front one */
    expect("炮七平四", "c2f2");
    expect("C7.4", "c2f2");
    expect("後炮平四", "c2f2");
    expect_written("c2f2", NOTATION_CHINESE, "後炮平四");
    expect_error("前炮平四", "no red cannon can move so");
    expect_error("炮七進一", "ambiguous");
    expect("前炮進一", "c5c6");
}

static void test_notation_errors(void **state)
{
    (void)state;
    set_fen(START_FEN);
    expect_error("", NULL);
    expect_error("炮", NULL);
    expect_error("炮二平", NULL);
    expect_error("馬二平三", "no red horse can move so");
    expect_error("兵五退一", NULL);
    expect_error("炮二進八", NULL);
    expect_error("炮十平五", NULL);
    expect_error("車五進一", "no red rook on file 5");
    expect_error("h2e9", NULL);
    expect_error("h9h8", "not red's");
    expect_error("e5e6", "no piece");
    expect_error("Z2.5", NULL);
    expect_error("C2.0", NULL);
    expect_error("\xE7\x82", "UTF-8");
    expect_error("炮二平五炮二平五炮二平五炮二平五炮二平五炮二平五", NULL);
    /* a move that would leave the kings facing */
    set_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    expect_error("帥六平五", "illegal");
    /* random bytes and mutations never crash, and what reads is legal */
    set_fen(START_FEN);
    uint64_t seed = 7;
    static const char *const seeds[] = {"炮二平五", "C2.5", "H2-E2", "h2e2", "前七平六", "++.4"};
    for (int i = 0; i < 20000; i++) {
        char buf[24];
        snprintf(buf, sizeof buf, "%s", seeds[i % 6]);
        size_t len = strlen(buf);
        int edits = 1 + (int)(rng_next(&seed) % 3);
        for (int e = 0; e < edits; e++) {
            unsigned char v = (unsigned char)rng_next(&seed);
            buf[rng_next(&seed) % len] = (char)(v ? v : '+');
        }
        char err[200];
        Move m = notation_read(&pos, buf, NOTATION_AUTO, err, sizeof err);
        if (m != MOVE_NONE)
            assert_true(pos_pseudo_legal(&pos, m) && pos_legal(&pos, m));
        else
            assert_true(err[0] != 0);
    }
}

/* ---- PGN ---- */

static const char SAMPLE_TRADITIONAL[] =
    "[Game \"Chinese Chess\"]\n"
    "[Event \"測試 \"引號\" 賽\"]\n"
    "[Round \"第一輪\"]\n"
    "[Red \"甲\"]\n"
    "[Black \"乙\"]\n"
    "[Result \"1-0\"]\n"
    "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n"
    "\n"
    "{開局 (中炮)} 1. 炮二平五 馬８進７ ; 屏風馬\n"
    "2. 馬二進三 (2. 兵七進一 {變} 卒７進１ (2... 車９進１)) 車９平８ $1\n"
    "3. 車一平二 卒７進１\n"
    "1-0\n"
    "\n"
    "[Game \"Chinese Chess\"]\n"
    "[Event \"第二局\"]\n"
    "[Result \"0-1\"]\n"
    "\n"
    "1. 兵七進一 炮８平５ 2. 炮二平五 馬８進７ 0-1\n";

static const char SAMPLE_SIMPLIFIED[] =
    "[Game \"Chinese Chess\"]\n"
    "[Event \"测试 \"引号\" 赛\"]\n"
    "[Round \"第一轮\"]\n"
    "[Red \"甲\"]\n"
    "[Black \"乙\"]\n"
    "[Result \"1-0\"]\n"
    "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n"
    "\n"
    "{开局 (中炮)} 1. 炮二平五 马８进７ ; 屏风马\n"
    "2. 马二进三 (2. 兵七进一 {变} 卒７进１ (2... 车９进１)) 车９平８ $1\n"
    "3. 车一平二 卒７进１\n"
    "1-0\n"
    "\n"
    "[Game \"Chinese Chess\"]\n"
    "[Event \"第二局\"]\n"
    "[Result \"0-1\"]\n"
    "\n"
    "1. 兵七进一 炮８平５ 2. 炮二平五 马８进７ 0-1\n";

static const char *const SAMPLE_MOVES[2] = {"h2e2 h9g7 h0g2 i9h9 i0h0 g6g5", "c3c4 h7e7 h2e2 h9g7"};

/* Convert UTF-8 text with iconv (the test's own use of it). */
static char *to_encoding(const char *text, const char *enc, size_t *outlen)
{
    iconv_t cd = iconv_open(enc, "UTF-8");
    assert_true(cd != (iconv_t)-1);
    size_t inleft = strlen(text), cap = inleft * 2 + 16, room = cap;
    char *out = malloc(cap), *o = out, *in = (char *)text;
    assert_non_null(out);
    assert_true(iconv(cd, &in, &inleft, &o, &room) != (size_t)-1);
    iconv_close(cd);
    *outlen = cap - room;
    return out;
}

static void check_sample_games(PgnReader *r, PgnEncoding expected, const char *event1)
{
    const PgnGame *g;
    char err[256];
    for (int k = 0; k < 2; k++) {
        assert_int_equal(pgn_next(r, &g, err, sizeof err), 1);
        assert_int_equal(g->encoding, expected);
        assert_int_equal(g->index, k + 1);
        if (k == 0) {
            assert_string_equal(pgn_tag(g, "Event"), event1);
            assert_string_equal(pgn_tag(g, "Red"), "甲");
            assert_int_equal(pgn_result(g), PGN_RED_WINS);
            assert_int_equal(g->line, 1);
        } else {
            assert_int_equal(pgn_result(g), PGN_BLACK_WINS);
            assert_string_equal(g->termination, "0-1");
        }
        Move moves[16];
        int n;
        PgnReplayError e = pgn_replay(g, &pos, moves, 16, &n, err, sizeof err);
        if (e != PGN_OK)
            fail_msg("game %d: %s", k + 1, err);
        char line[128] = "";
        for (int i = 0; i < n; i++) {
            char uci[8];
            move_str(moves[i], uci, false);
            if (i)
                strcat(line, " ");
            strcat(line, uci);
        }
        assert_string_equal(line, SAMPLE_MOVES[k]);
    }
    assert_int_equal(pgn_next(r, &g, err, sizeof err), 0);
}

static void test_pgn_encodings(void **state)
{
    (void)state;
    char err[256];
    struct {
        const char *text, *iconv_name, *event;
        PgnEncoding enc;
    } cases[] = {
        {SAMPLE_TRADITIONAL, "UTF-8", "測試 \"引號\" 賽", PGN_ENC_UTF8},
        {SAMPLE_SIMPLIFIED, "UTF-8", "测试 \"引号\" 赛", PGN_ENC_UTF8},
        {SAMPLE_SIMPLIFIED, "GBK", "测试 \"引号\" 赛", PGN_ENC_GBK},
        {SAMPLE_TRADITIONAL, "BIG5", "測試 \"引號\" 賽", PGN_ENC_BIG5},
        {SAMPLE_TRADITIONAL, "GBK", "測試 \"引號\" 賽", PGN_ENC_GBK}, /* traditional characters in GBK */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len;
        char *bytes = to_encoding(cases[i].text, cases[i].iconv_name, &len);
        /* detected */
        PgnReader *r = pgn_open_memory(bytes, len, PGN_ENC_AUTO, err, sizeof err);
        assert_non_null(r);
        check_sample_games(r, cases[i].enc, cases[i].event);
        pgn_close(r);
        /* named */
        r = pgn_open_memory(bytes, len, cases[i].enc, err, sizeof err);
        assert_non_null(r);
        check_sample_games(r, cases[i].enc, cases[i].event);
        pgn_close(r);
        free(bytes);
    }
}

/* A Big5 file with a GBK Round tag (as in the CCPD records): the file is
 * still read as Big5 and its moves replay. */
static void test_pgn_mixed_tag_encoding(void **state)
{
    (void)state;
    size_t n1, n2, n3;
    char *head = to_encoding("[Game \"Chinese Chess\"]\n[Event \"測試\"]\n", "BIG5", &n1);
    char *round = to_encoding("[Round \"第一轮\"]\n[Site \"赛区\"]\n", "GBK", &n2);
    char *rest = to_encoding("[Result \"1-0\"]\n\n1. 炮二平五 馬８進７\n2. 馬二進三 車９平８\n1-0\n", "BIG5", &n3);
    char *all = malloc(n1 + n2 + n3);
    assert_non_null(all);
    memcpy(all, head, n1);
    memcpy(all + n1, round, n2);
    memcpy(all + n1 + n2, rest, n3);
    char err[256];
    PgnReader *r = pgn_open_memory(all, n1 + n2 + n3, PGN_ENC_AUTO, err, sizeof err);
    assert_non_null(r);
    const PgnGame *g;
    assert_int_equal(pgn_next(r, &g, err, sizeof err), 1);
    assert_int_equal(g->encoding, PGN_ENC_BIG5);
    assert_string_equal(pgn_tag(g, "Event"), "測試");
    assert_non_null(pgn_tag(g, "Round"));
    assert_true(strlen(pgn_tag(g, "Round")) > 0);
    int n;
    assert_int_equal(pgn_replay(g, &pos, NULL, 0, &n, err, sizeof err), PGN_OK);
    assert_int_equal(n, 4);
    assert_int_equal(pgn_next(r, &g, err, sizeof err), 0);
    pgn_close(r);
    free(head);
    free(round);
    free(rest);
    free(all);
}

static void test_pgn_tokens(void **state)
{
    (void)state;
    static const char text[] =
        "% an escaped line\n"
        "[Event \"x\"] [Site \"y\"]\n"
        "[Format \"WXF\"]\n"
        "1.C2.5 H8+7 2. H2+3 {a comment\n over lines} R9.8 3...\n"
        "\n"
        "[Event \"no moves\"]\n"
        "[Result \"*\"]\n"
        "\n"
        "[Event \"no moves either, no result token\"]\n"
        "\n"
        "[Event \"glued and numbered\"]\n"
        "1．炮二平五馬８進７ 2.h0g2 3. 車９平８ 1/2-1/2\n"
        "1. h2e2 *\n";
    char err[256];
    PgnReader *r = pgn_open_memory(text, sizeof text - 1, PGN_ENC_AUTO, err, sizeof err);
    assert_non_null(r);
    const PgnGame *g;
    int n;
    assert_int_equal(pgn_next(r, &g, err, sizeof err), 1);
    assert_string_equal(pgn_tag(g, "Site"), "y");
    assert_int_equal(g->nmoves, 4);
    assert_int_equal(pgn_replay(g, &pos, NULL, 0, &n, err, sizeof err), PGN_OK);
    assert_int_equal(pgn_result(g), PGN_UNKNOWN);
    assert_int_equal(pgn_next(r, &g, err, sizeof err), 1);
    assert_string_equal(pgn_tag(g, "Event"), "no moves");
    assert_int_equal(pgn_replay(g, &pos, NULL, 0, &n, err, sizeof err), PGN_ERR_NO_MOVES);
    assert_int_equal(pgn_next(r, &g, err, sizeof err), 1);
    assert_string_equal(pgn_tag(g, "Event"), "no moves either, no result token");
    assert_int_equal(g->nmoves, 0);
    assert_int_equal(pgn_next(r, &g, err, sizeof err), 1);
    assert_int_equal(g->nmoves, 4);
    assert_int_equal(pgn_replay(g, &pos, NULL, 0, &n, err, sizeof err), PGN_OK);
    assert_int_equal(pgn_result(g), PGN_DRAW);
    /* moves after a result token make a game of their own */
    assert_int_equal(pgn_next(r, &g, err, sizeof err), 1);
    assert_int_equal(g->ntags, 0);
    assert_int_equal(g->nmoves, 1);
    assert_int_equal(pgn_next(r, &g, err, sizeof err), 0);
    pgn_close(r);

    /* a move after mate, and an illegal move, are told apart */
    static const char bad[] = "1. h2e2 h9g7 2. h2h9\n\n"
                              "[FEN \"3k5/9/3RR4/9/9/9/9/9/9/5K3 b - - 0 1\"]\n1... d9d8\n";
    r = pgn_open_memory(bad, sizeof bad - 1, PGN_ENC_AUTO, err, sizeof err);
    assert_non_null(r);
    assert_int_equal(pgn_next(r, &g, err, sizeof err), 1);
    assert_int_equal(pgn_replay(g, &pos, NULL, 0, &n, err, sizeof err), PGN_ERR_MOVE);
    assert_non_null(strstr(err, "move 2"));
    assert_int_equal(n, 2);
    assert_int_equal(pgn_next(r, &g, err, sizeof err), 1);
    assert_int_equal(pgn_replay(g, &pos, NULL, 0, &n, err, sizeof err), PGN_ERR_AFTER_END);
    assert_non_null(strstr(err, "checkmated"));
    pgn_close(r);
}

static void test_pgn_zstd(void **state)
{
    (void)state;
    size_t len = strlen(SAMPLE_TRADITIONAL), bound = ZSTD_compressBound(len);
    char *z = malloc(bound);
    assert_non_null(z);
    size_t zlen = ZSTD_compress(z, bound, SAMPLE_TRADITIONAL, len, 3);
    assert_false(ZSTD_isError(zlen));
    char err[256];
    PgnReader *r = pgn_open_memory(z, zlen, PGN_ENC_AUTO, err, sizeof err);
    assert_non_null(r);
    check_sample_games(r, PGN_ENC_UTF8, "測試 \"引號\" 賽");
    pgn_close(r);
    /* through a FILE* too */
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fwrite(z, 1, zlen, f), zlen);
    rewind(f);
    r = pgn_open_stream(f, PGN_ENC_AUTO, err, sizeof err);
    assert_non_null(r);
    check_sample_games(r, PGN_ENC_UTF8, "測試 \"引號\" 賽");
    pgn_close(r);
    fclose(f);
    /* truncated and corrupted: an error, not a crash or a silent end */
    for (size_t cut = 4; cut < zlen; cut += 7) {
        r = pgn_open_memory(z, cut, PGN_ENC_AUTO, err, sizeof err);
        assert_non_null(r);
        const PgnGame *g;
        int k;
        while ((k = pgn_next(r, &g, err, sizeof err)) > 0)
            ;
        assert_int_equal(k, -1);
        assert_true(strstr(err, "zstd") != NULL);
        pgn_close(r);
    }
    z[zlen / 2] ^= 0x55;
    r = pgn_open_memory(z, zlen, PGN_ENC_AUTO, err, sizeof err);
    const PgnGame *g;
    int k;
    while ((k = pgn_next(r, &g, err, sizeof err)) > 0)
        ;
    pgn_close(r);
    free(z);
}

/* The CCPD master games (Big5, zstd): at least 99.9% replay legally to the
 * end; each rejected record is reported with its reason.  Every move is
 * also written back in Chinese and read again, and in every notation for
 * one game in eight. */
static void test_pgn_master_games(void **state)
{
    (void)state;
    char err[256];
    const char *path = test_data_path("ccpd-master-games.pgn.zst");
    PgnReader *r = pgn_open_file(path, PGN_ENC_AUTO, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    static Position replay;
    static Move moves[MAX_GAME_PLY];
    const PgnGame *g;
    long games = 0, good = 0, plies = 0, same_text = 0, rejected[PGN_ERR_NB] = {0}, big5 = 0;
    int k;
    while ((k = pgn_next(r, &g, err, sizeof err)) > 0) {
        int n;
        games++;
        big5 += g->encoding == PGN_ENC_BIG5;
        PgnReplayError e = pgn_replay(g, &replay, moves, MAX_GAME_PLY, &n, err, sizeof err);
        if (e != PGN_OK) {
            assert_true(err[0] != 0);
            rejected[e]++;
            print_message("rejected: record %ld (line %ld): %s\n", g->index, g->line, err);
            continue;
        }
        good++;
        const char *fen = pgn_tag(g, "FEN");
        set_fen(fen && *fen ? fen : START_FEN);
        for (int i = 0; i < n; i++) {
            char text[NOTATION_MAX];
            for (size_t f = 0; f < NFORMATS; f++) {
                if (FORMATS[f] != NOTATION_CHINESE && games % 8)
                    continue;
                assert_true(notation_write(&pos, moves[i], FORMATS[f], text));
                if (notation_read(&pos, text, FORMATS[f], err, sizeof err) != moves[i])
                    fail_msg("record %ld ply %d: '%s' does not read back: %s", g->index, i + 1, text, err);
                if (FORMATS[f] == NOTATION_CHINESE)
                    same_text += !strcmp(text, g->moves[i]);
            }
            pos_do_move(&pos, moves[i]);
        }
        plies += n;
    }
    if (k < 0)
        fail_msg("%s: %s", path, err);
    pgn_close(r);
    print_message("%ld records, %ld replayed (%ld plies), %ld rejected: %ld no moves, %ld bad move, %ld after the "
                  "end; %.2f%% of the moves written as recorded\n",
                  games, good, plies, games - good, rejected[PGN_ERR_NO_MOVES], rejected[PGN_ERR_MOVE],
                  rejected[PGN_ERR_AFTER_END], 100.0 * same_text / (plies ? plies : 1));
    assert_int_equal(games, 28121);
    assert_int_equal(big5, games);
    assert_true(good * 1000 >= games * 999);
    assert_true(plies > 2000000);
    /* the standard form is what the records mostly use */
    assert_true(same_text * 100 >= plies * 98);
}


/* ---- algebraic notation (SAN) of cutechess and Fairy-Stockfish ---- */

static void expect_san(const char *fen, const char *uci, const char *san)
{
    char err[200], out[NOTATION_MAX];
    set_fen(fen);
    Move m = parse_move(&pos, uci, false);
    assert_int_not_equal(m, MOVE_NONE);
    assert_true(notation_write(&pos, m, NOTATION_SAN, out));
    assert_string_equal(out, san);
    if (notation_read(&pos, san, NOTATION_AUTO, err, sizeof err) != m)
        fail_msg("'%s' does not read back as %s: %s", san, uci, err);
}

static void test_notation_san(void **state)
{
    (void)state;
    expect_san(START_FEN, "h2e2", "Che3"); /* both cannons reach e3 */
    expect_san(START_FEN, "b0c2", "Nc3");
    expect_san(START_FEN, "c3c4", "c5");
    expect_san(START_FEN, "g0e2", "Bge3"); /* both elephants reach e3 */
    expect_san("r2k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", "a0a9", "Rxa10+");
    expect_san("3k5/8R/9/9/9/9/9/9/9/R3K4 w - - 0 1", "a0a9", "Ra10#");
    char err[200];
    set_fen(START_FEN);
    /* the other readings: E and H, P, the long form, a needless file */
    assert_int_equal(notation_read(&pos, "Hc3", NOTATION_SAN, err, sizeof err), parse_move(&pos, "b0c2", false));
    assert_int_equal(notation_read(&pos, "Pc5", NOTATION_SAN, err, sizeof err), parse_move(&pos, "c3c4", false));
    assert_int_equal(notation_read(&pos, "Ch3-e3", NOTATION_AUTO, err, sizeof err), parse_move(&pos, "h2e2", false));
    assert_int_equal(notation_read(&pos, "Ege3", NOTATION_AUTO, err, sizeof err), parse_move(&pos, "g0e2", false));
    /* refused, saying why */
    assert_int_equal(notation_read(&pos, "Ce3", NOTATION_SAN, err, sizeof err), MOVE_NONE);
    assert_non_null(strstr(err, "fits 2 legal moves"));
    assert_int_equal(notation_read(&pos, "Re5", NOTATION_SAN, err, sizeof err), MOVE_NONE);
    assert_non_null(strstr(err, "not a legal move"));
    assert_int_equal(notation_read(&pos, "Ce11", NOTATION_SAN, err, sizeof err), MOVE_NONE);
}

/* The move tokens of the first record of a PGN file (or text). */
static int pgn_tokens(const char *path, const char *text, char tokens[][NOTATION_MAX], int max, int *plies)
{
    char err[256];
    PgnReader *r = path ? pgn_open_file(path, PGN_ENC_AUTO, err, sizeof err)
                        : pgn_open_memory(text, strlen(text), PGN_ENC_AUTO, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    const PgnGame *g;
    assert_int_equal(pgn_next(r, &g, err, sizeof err), 1);
    static Position p;
    static Move moves[MAX_GAME_PLY];
    if (pgn_replay(g, &p, moves, MAX_GAME_PLY, plies, err, sizeof err) != PGN_OK)
        fail_msg("%s", err);
    int n = g->nmoves < max ? g->nmoves : max;
    for (int i = 0; i < n; i++)
        snprintf(tokens[i], NOTATION_MAX, "%s", g->moves[i]);
    pgn_close(r);
    return n;
}

/* A cutechess PGN ([Variant "xiangqi"], SAN with ranks 1-10, comments)
 * reads, and pgn convert --to san writes its moves back as they were,
 * directly and by way of UCI. */
static void test_pgn_cutechess_san_roundtrip(void **state)
{
    (void)state;
    static char in[MAX_GAME_PLY][NOTATION_MAX], back[MAX_GAME_PLY][NOTATION_MAX];
    static char out[1 << 17], uci[1 << 17];
    const char *fixture = test_data_path("cutechess-xiangqi.pgn");
    int plies = 0, plies2 = 0;
    int n = pgn_tokens(fixture, NULL, in, MAX_GAME_PLY, &plies);
    assert_int_equal(n, 109);
    assert_int_equal(plies, 109);
    assert_string_equal(in[0], "Che3");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "(%s pgn convert --to san %s 2>/dev/null)", test_engine_path(), fixture);
    assert_int_equal(test_run(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "[Variant \"xiangqi\"]"));
    assert_int_equal(pgn_tokens(NULL, out, back, MAX_GAME_PLY, &plies2), n);
    for (int i = 0; i < n; i++)
        if (strcmp(in[i], back[i]))
            fail_msg("move %d: '%s' written back as '%s'", i + 1, in[i], back[i]);
    /* to UCI and back */
    char tmp[] = "/tmp/chuhan-san-XXXXXX";
    int fd = mkstemp(tmp);
    assert_true(fd >= 0);
    snprintf(cmd, sizeof cmd, "(%s pgn convert --to uci %s 2>/dev/null)", test_engine_path(), fixture);
    assert_int_equal(test_run(cmd, uci, sizeof uci), 0);
    assert_non_null(strstr(uci, "1. h2e2 h9g7"));
    assert_int_equal(write(fd, uci, strlen(uci)), (ssize_t)strlen(uci));
    close(fd);
    snprintf(cmd, sizeof cmd, "(%s pgn convert --to san %s 2>/dev/null)", test_engine_path(), tmp);
    assert_int_equal(test_run(cmd, out, sizeof out), 0);
    unlink(tmp);
    assert_int_equal(pgn_tokens(NULL, out, back, MAX_GAME_PLY, &plies2), n);
    for (int i = 0; i < n; i++)
        assert_string_equal(in[i], back[i]);
}

const struct CMUnitTest *notation_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_notation_standard_forms),
        cmocka_unit_test(test_notation_tandem_reading),
        cmocka_unit_test(test_notation_file_disambiguation),
        cmocka_unit_test(test_notation_errors),
        cmocka_unit_test(test_notation_roundtrip_tandem),
        cmocka_unit_test(test_notation_roundtrip_random),
        cmocka_unit_test(test_pgn_encodings),
        cmocka_unit_test(test_pgn_mixed_tag_encoding),
        cmocka_unit_test(test_pgn_tokens),
        cmocka_unit_test(test_pgn_zstd),
        cmocka_unit_test(test_pgn_master_games),
        cmocka_unit_test(test_notation_san),
        cmocka_unit_test(test_pgn_cutechess_san_roundtrip),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
