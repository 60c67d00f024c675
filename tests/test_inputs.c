/* What a GUI or a user hands the engine, through the real binary: positions
 * from the rule books (pawns where no game brings them) accepted with a
 * note in every protocol and in the judge, while boards that break the
 * pieces' own moves stay refused. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "limits_util.h"
#include "pipe.h"
#include "tests.h"

static EngineProc ep;

/* ---- positions from the rule books ---- */

/* The WXF rule book's diagram 71: a black pawn on i7, behind its starting
 * rank; red's king chases the d-file pawn and loses by the rules. */
#define DIAGRAM_71 "3a2b1r/4ak3/8p/7P1/9/9/9/B2NN3B/3K5/4p4 w"
#define DIAGRAM_71_MOVES "d1e1 e0d0 e1d1 d0e0 d1e1 e0d0 e1d1"
#define PAWN_NOTE "black pawn on i7 stands behind its starting rank"
/* An unreachable pawn (c0) with the kings facing: refused all the same. */
#define FACING_FEN "4k4/9/9/9/9/9/9/9/9/2P1K4 w"

/* UCI and UCCI alike: the position with a note (prefix: the protocol's
 * message lines), searched from; a bad board refused, the last position
 * kept. */
static void position_with_note(const char *prefix)
{
    char want[128];
    snprintf(want, sizeof want, "%s " PAWN_NOTE, prefix);
    ep_send(&ep, "position fen " DIAGRAM_71 " moves d1e1");
    limits_sync_uci(&ep);
    if (!log_has_line(ep.log, want))
        fail_msg("no '%s':\n%.2000s", want, ep.log);
    ep_send(&ep, "go depth 4");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", LIMITS_WAIT_MS), "bestmove", DIAGRAM_71, "d1e1", NULL);
    ep_send(&ep, "position fen " FACING_FEN);
    limits_sync_uci(&ep);
    snprintf(want, sizeof want, "%s ", prefix);
    if (!log_has_line(ep.log, want) || !strstr(ep.log, "the kings face each other"))
        fail_msg("facing kings not refused:\n%.2000s", ep.log);
    ep_send(&ep, "go depth 3");
    ep_assert_legal_reply(ep_want(&ep, "bestmove", LIMITS_WAIT_MS), "bestmove", DIAGRAM_71, "d1e1", NULL);
}

static void test_rulebook_position_uci(void **state)
{
    (void)state;
    position_with_note("info string");
}

static void test_rulebook_position_ucci(void **state)
{
    (void)state;
    position_with_note("info message");
}

static void test_rulebook_position_xboard(void **state)
{
    (void)state;
    ep_send(&ep, "force");
    ep_send(&ep, "setboard " DIAGRAM_71);
    limits_sync_xboard(&ep, 1);
    if (log_has_line(ep.log, "tellusererror") || !log_has_line(ep.log, "# " PAWN_NOTE))
        fail_msg("setboard of diagram 71:\n%.2000s", ep.log);
    ep_send(&ep, "sd 3");
    ep_send(&ep, "go");
    ep_assert_legal_reply(ep_want(&ep, "move ", LIMITS_WAIT_MS), "move", DIAGRAM_71, NULL, NULL);
    ep_send(&ep, "force");
    ep_send(&ep, "setboard " FACING_FEN);
    ep_want(&ep, "tellusererror Illegal position", LIMITS_WAIT_MS);
}

/* The judge rules on the diagram as the book does; the note goes to
 * standard error, the verdict's two lines stay as they were. */
static void test_rulebook_position_judge(void **state)
{
    (void)state;
    char cmd[512], out[2048];
    snprintf(cmd, sizeof cmd, "{ %s judge --rule axf '" DIAGRAM_71 "' " DIAGRAM_71_MOVES " 2>/dev/null; }",
             test_engine_path());
    assert_int_equal(test_run(cmd, out, sizeof out), 0);
    if (strncmp(out, "result: win\nreason: ", 20) || strchr(strchr(out + 20, '\n') + 1, '\n'))
        fail_msg("judge of diagram 71: '%s'", out);
    snprintf(cmd, sizeof cmd, "{ %s judge --rule axf '" DIAGRAM_71 "' " DIAGRAM_71_MOVES " 2>&1 >/dev/null; }",
             test_engine_path());
    assert_int_equal(test_run(cmd, out, sizeof out), 0);
    if (strncmp(out, "judge: note: " PAWN_NOTE, strlen("judge: note: " PAWN_NOTE)))
        fail_msg("judge's note: '%s'", out);
    snprintf(cmd, sizeof cmd, "%s judge '" FACING_FEN "'", test_engine_path());
    assert_int_equal(test_run(cmd, out, sizeof out), 1);
    if (!strstr(out, "the kings face each other"))
        fail_msg("judge of facing kings: '%s'", out);
}

#define PROTO_TEST(f, setup) cmocka_unit_test_prestate_setup_teardown(f, setup, limits_teardown, &ep)

const struct CMUnitTest *inputs_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        PROTO_TEST(test_rulebook_position_uci, limits_setup_uci),
        PROTO_TEST(test_rulebook_position_ucci, limits_setup_ucci),
        PROTO_TEST(test_rulebook_position_xboard, limits_setup_xboard),
        cmocka_unit_test(test_rulebook_position_judge),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
