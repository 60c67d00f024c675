/* The judge: a game replayed from text and ruled on by the repetition
 * rules, mate/stalemate and the 60-move rule (rules_judge_game), and
 * `chuhan judge`, its command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/board/movegen.h"
#include "engine/util/args.h"
#include "rules.h"

/* Why the text is not a legal move here. */
static void explain_illegal(const Position *pos, const char *text, char *err, size_t len)
{
    int n = 0;
    int from = parse_square(text, false, &n);
    int to = from >= 0 ? parse_square(text + n, false, &n) : -1;
    if (from < 0 || to < 0 || text[n]) {
        snprintf(err, len, "not a move in UCI form like h2e2 (files a-i, ranks 0-9)");
        return;
    }
    int pc = pos->board[from];
    if (!pc) {
        snprintf(err, len, "there is no piece on %.2s", text);
        return;
    }
    if (piece_color(pc) != pos->side) {
        snprintf(err, len, "the %s on %.2s is %s's, but %s is to move", piece_type_name(piece_type(pc)), text,
                 color_name(piece_color(pc)), color_name(pos->side));
        return;
    }
    Move m = make_move(from, to);
    if (!pos_pseudo_legal(pos, m)) {
        snprintf(err, len, "the %s on %.2s cannot move to %s", piece_type_name(piece_type(pc)), text, text + 2);
        return;
    }
    snprintf(err, len, "it would leave %s's king in check or facing the other king", color_name(pos->side));
}

int rules_judge_game(Position *pos, const char *fen, char *const *moves, int nmoves, int rule,
                     int sixty_move_limit, int min_repeats, Verdict *verdict, char *reason,
                     size_t reason_len, char *err, size_t err_len)
{
    char why[200];
    if (!fen || !strcmp(fen, "startpos"))
        fen = START_FEN;
    if (!pos_set_fen(pos, fen, why, sizeof why)) {
        snprintf(err, err_len, "bad FEN: %s", why);
        return -1;
    }
    for (int i = 0; i < nmoves; i++) {
        if (pos_room(pos) <= RULES_STACK_NEED + MAX_PLY) {
            snprintf(err, err_len, "too many moves (at most %d)", i);
            return -1;
        }
        Move m = parse_move(pos, moves[i], false);
        if (m == MOVE_NONE) {
            explain_illegal(pos, moves[i], why, sizeof why);
            snprintf(err, err_len, "illegal move %d '%s' (%s to move): %s", i + 1, moves[i],
                     color_name(pos->side), why);
            return -1;
        }
        pos_do_move(pos, m);
    }
    *verdict = rules_judge_at(pos, rule, sixty_move_limit, min_repeats, reason, reason_len);
    return 0;
}

/* ---- chuhan judge ---- */

static int judge_usage(const char *why)
{
    if (why && *why)
        fprintf(stderr, "%s\n", why);
    fprintf(stderr,
            "usage: chuhan judge [--rule axf|cxa|draw] [--repeats N] [--sixty PLIES] FEN|startpos [moves ...]\n"
            "  FEN as one argument or as its space-separated fields; moves in UCI form, ranks 0-9 (h2e2).\n"
            "  --rule: the rule book (default axf, the Asian/World federations' rules that the published\n"
            "  repetition test cases follow; cxa is the Chinese association's, the engine's default).\n"
            "  Prints 'result: win|loss|draw|none' for the side to move after the last move, then\n"
            "  'reason: ...'.  --repeats: occurrences of the final position needed to rule (default 2,\n"
            "  the first recurrence; a referee uses 3).  --sixty: plies without capture for the\n"
            "  60-move rule (default 120, 0 disables).\n");
    return 2;
}

static bool read_rule(const char *text, void *dest)
{
    int r = rules_parse(text);
    if (r < 0)
        return false;
    *(int *)dest = r;
    return true;
}

int rules_judge_cli(int argc, char **argv)
{
    int rule = RULE_AXF;
    long repeats = 2, sixty = 120;
    const ArgOption opts[] = {
        ARG_CUSTOM("--rule", &rule, read_rule, "a rule: cxa, axf or draw"),
        ARG_LONG("--repeats", &repeats, 2, 100),
        ARG_LONG("--sixty", &sixty, 0, 100000),
    };
    /* the FEN's fields and the moves, gathered at the front of argv, which they never overtake */
    int nwords;
    const ArgSpec spec = {"judge", opts, sizeof opts / sizeof opts[0], (const char **)argv, argc};
    char why[ARGS_WHY_MAX];
    if (!args_read(&spec, argc, argv, &nwords, why, sizeof why))
        return judge_usage(why);
    if (!nwords)
        return judge_usage(argc ? "judge: no FEN or startpos" : NULL);
    argc = nwords;
    int i = 0;

    /* The FEN: one argument with spaces, "startpos", or the board field
     * followed by the fields that are not moves. */
    char fen[512];
    snprintf(fen, sizeof fen, "%s", argv[i++]);
    if (!strchr(fen, ' ') && strcmp(fen, "startpos")) {
        for (int k = 0; k < 5 && i < argc && !looks_like_move(argv[i]) && strcmp(argv[i], "moves"); k++, i++) {
            size_t len = strlen(fen);
            snprintf(fen + len, sizeof fen - len, " %s", argv[i]);
        }
    }
    if (i < argc && !strcmp(argv[i], "moves"))
        i++;

    Position *pos = malloc(sizeof *pos);
    if (!pos) {
        fprintf(stderr, "judge: out of memory\n");
        return 1;
    }
    Verdict v = VERDICT_NONE;
    char reason[320], err[320];
    int status = 0;
    if (rules_judge_game(pos, fen, argv + i, argc - i, rule, (int)sixty, (int)repeats, &v, reason, sizeof reason, err,
                         sizeof err)) {
        fprintf(stderr, "judge: %s\n", err);
        status = 1;
    } else {
        /* The position as given, for a note on pawns no game puts there
         * (stderr: the verdict on stdout stays two lines for scripts). */
        char note[256];
        if (pos_set_fen(pos, strcmp(fen, "startpos") ? fen : START_FEN, NULL, 0)
            && pos_unreachable_pawn(pos, note, sizeof note))
            fprintf(stderr, "judge: note: %s\n", note);
        printf("result: %s\nreason: %s\n", rules_verdict_name(v), reason);
    }
    free(pos);
    return status;
}
