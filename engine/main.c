/* The command line: with no arguments the engine serves a protocol on
 * stdin, the one its first command names; otherwise the first argument
 * names a tool. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/perft.h"
#include "cli.h"
#include "engine/board/movegen.h"
#include "engine/protocol/cecp.h"
#include "engine/protocol/ucci.h"
#include "engine/protocol/uci.h"
#include "engine/util/num.h"
#include "init.h"

static int usage(void)
{
    fprintf(stderr,
            "usage: chuhan                      serve UCI/UCCI/xboard on stdin\n"
            "       chuhan perft DEPTH [FEN]    leaf count per root move and in all\n"
            "       chuhan perft --suite FILE [--max-nodes N]   check a perft reference file\n"
            "       chuhan bench [DEPTH] [--rule R]  search the bench positions; the node count is the signature\n"
            "       chuhan smp [THREADS] [MS] [DEPTH] [POSITIONS]  SMP scaling: nodes/s and time to depth, 1 vs N threads\n"
            "       chuhan magics [SEED]        print a freshly generated magic table\n"
            "       chuhan match --engine cmd=CMD [name=N] [proto=uci|ucci] [option.X=V] --engine ... --each tc=..|movetime=..|depth=..|nodes=.. --games N [...]\n"
            "                                   play engines against each other under the xiangqi rules (--help for all options)\n"
            "       chuhan tune [options] FILE...   fit the evaluation weights to game results (--help for the options)\n"
            "       chuhan soak [--games N] [--tc BASE+INC] [...]   self-play with pondering and GUI traffic; counts crashes,\n"
            "                                   hangs, illegal moves and time losses (--help for the options)\n");
    return 2;
}

int cli_perft(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[0], "--suite")) {
        uint64_t max_nodes = 0;
        if (argc >= 4 && !strcmp(argv[2], "--max-nodes") && !num_parse_u64(argv[3], &max_nodes)) {
            fprintf(stderr, "perft: --max-nodes must be a number, not '%s'\n", argv[3]);
            return 2;
        }
        int bad = perft_suite(argv[1], max_nodes, stdout);
        if (bad < 0) {
            fprintf(stderr, "perft: cannot read %s\n", argv[1]);
            return 2;
        }
        printf("%s: %d mismatch%s\n", bad ? "FAILED" : "all match", bad, bad == 1 ? "" : "es");
        return bad ? 1 : 0;
    }
    if (argc < 1)
        return usage();
    long depth;
    if (!num_parse(argv[0], 1, 20, &depth)) {
        fprintf(stderr, "perft: depth must be a number from 1 to 20, not '%s'\n", argv[0]);
        return 2;
    }
    char fen[512] = START_FEN;
    if (argc > 1) {
        fen[0] = 0;
        for (int i = 1; i < argc; i++) {
            if (strlen(fen) + strlen(argv[i]) + 2 > sizeof fen)
                break;
            if (i > 1)
                strcat(fen, " ");
            strcat(fen, argv[i]);
        }
        if (!strcmp(fen, "startpos"))
            strcpy(fen, START_FEN);
    }
    static Position pos;
    char err[160];
    if (!pos_set_fen(&pos, fen, err, sizeof err)) {
        fprintf(stderr, "perft: bad FEN: %s\n", err);
        return 2;
    }
    perft_divide(&pos, (int)depth, stdout);
    return 0;
}

int cli_magics(int argc, char **argv)
{
    uint64_t seed = 20261129;
    if (argc > 0 && !num_parse_u64(argv[0], &seed)) {
        fprintf(stderr, "magics: the seed must be a number, not '%s'\n", argv[0]);
        return 2;
    }
    return magic_generate(seed, stdout) ? 1 : 0;
}

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} COMMANDS[] = {
    {"perft", cli_perft}, {"magics", cli_magics}, {"bench", cli_bench}, {"smp", cli_smp}, {"judge", cli_judge},
    {"book", cli_book},   {"pgn", cli_pgn},       {"match", cli_match}, {"tune", cli_tune},
    {"soak", cli_soak},
};

/* Serve the protocol the first non-empty line names: ucci, xboard, or UCI,
 * which takes anything else as its first command. */
static int serve(FILE *in, FILE *out_file)
{
    char *line = malloc(LINE_MAX_BYTES);
    if (!line) {
        fprintf(stderr, "chuhan: out of memory\n");
        return 1;
    }
    Output out;
    out_init(&out, out_file);
    bool too_long;
    int status = 0;
    while (proto_read_line(in, line, LINE_MAX_BYTES, &too_long)) {
        if (too_long) {
            /* refused like any other line: the next one names the protocol */
            out_line(&out, "info string input line longer than %d bytes ignored", LINE_MAX_BYTES - 1);
            continue;
        }
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            continue;
        size_t n = strcspn(p, " \t\r\v\f");
        if (n == 4 && !strncmp(p, "ucci", 4))
            status = ucci_serve(in, &out, line);
        else if (n == 6 && !strncmp(p, "xboard", 6))
            status = cecp_serve(in, &out, line);
        else
            status = uci_serve(in, &out, line); /* "uci", or a UCI command */
        break;
    }
    out_destroy(&out);
    free(line);
    return status;
}

int main(int argc, char **argv)
{
    chuhan_init();
    if (argc < 2)
        return serve(stdin, stdout);
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (!strcmp(argv[1], COMMANDS[i].name))
            return COMMANDS[i].run(argc - 2, argv + 2);
    return usage();
}
