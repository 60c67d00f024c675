/* chuhan judge: replay a game and rule on its end by the repetition rules,
 * mate/stalemate and the 60-move rule. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cli.h"
#include "engine/util/num.h"
#include "rules.h"

static int judge_usage(void)
{
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

int cli_judge(int argc, char **argv)
{
    int rule = RULE_AXF;
    long repeats = 2, sixty = 120;
    int i = 0;
    for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
        const char *opt = argv[i];
        if (!strcmp(opt, "--help"))
            return judge_usage();
        if (i + 1 >= argc) {
            fprintf(stderr, "judge: option %s needs a value\n", opt);
            return 2;
        }
        const char *val = argv[++i];
        if (!strcmp(opt, "--rule")) {
            if ((rule = rules_parse(val)) < 0) {
                fprintf(stderr, "judge: unknown rule set '%s' (use cxa, axf or draw)\n", val);
                return 2;
            }
        } else if (!strcmp(opt, "--repeats")) {
            if (!num_parse(val, 2, 100, &repeats)) {
                fprintf(stderr, "judge: --repeats must be a number from 2 to 100, not '%s'\n", val);
                return 2;
            }
        } else if (!strcmp(opt, "--sixty")) {
            if (!num_parse(val, 0, 100000, &sixty)) {
                fprintf(stderr, "judge: --sixty must be a number of plies (0 disables), not '%s'\n", val);
                return 2;
            }
        } else {
            fprintf(stderr, "judge: unknown option %s\n", opt);
            return judge_usage();
        }
    }
    if (i >= argc)
        return judge_usage();

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
        printf("result: %s\nreason: %s\n", rules_verdict_name(v), reason);
    }
    free(pos);
    return status;
}
