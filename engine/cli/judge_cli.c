/* chuhan judge: the referee's ruling on a game given on the command line
 * (rules_judge_game, engine/rules/judge.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "engine/board/movegen.h"
#include "engine/rules/rules.h"
#include "engine/util/args.h"

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

int judge_cli(int argc, char **argv)
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
