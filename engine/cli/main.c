/* The command line: with no arguments the engine serves a protocol on
 * stdin, the one its first command names; otherwise the first argument
 * names a tool.  Under mpirun (a build with MPI=1) rank 0 does that, and
 * the other ranks serve its engine (engine/cluster/cluster.h); a match is
 * played by every rank, each its share of the games. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/tools/analyze.h"
#include "bench/bench.h"
#include "bench/tools/datagen.h"
#include "bench/tools/match.h"
#include "bench/matebench.h"
#include "bench/perft.h"
#include "bench/smp.h"
#include "bench/tools/soak.h"
#include "bench/tools/spsa.h"
#include "bench/tools/wdl.h"
#include "cli.h"
#include "engine/cluster/cluster.h"
#include "engine/cluster/comm.h"
#include "engine/engine.h"
#include "engine/init.h"
#include "engine/protocol/cecp.h"
#include "engine/protocol/ucci.h"
#include "engine/protocol/uci.h"
#include "engine/util/coop.h"
#include "engine/util/outfile.h"
#ifdef __EMSCRIPTEN__
#include "engine/util/webinput.h"
#endif

static const char USAGE[] =
    "usage: chuhan                      serve UCI, UCCI or xboard (CECP) on stdin: the first command names it\n"
    "       chuhan perft DEPTH [FEN]    leaf count per root move and in all\n"
    "       chuhan perft --suite FILE [--max-nodes N]   check a perft reference file\n"
    "       chuhan bench [DEPTH] [--rule R] [--evalfile NET]  search the bench positions; the node count is the signature\n"
    "       chuhan matebench [--nodes N] [--file SUITE]  nodes to see each mate of a suite (median, 75th percentile)\n"
    "       chuhan smp [THREADS] [MS] [DEPTH] [POSITIONS]  SMP scaling: nodes/s and time to depth, 1 vs N threads\n"
    "       chuhan magics [SEED]        print a freshly generated magic table\n"
    "       chuhan judge [--rule R] FEN|startpos [moves ...]   the referee's ruling on a game (--help for all)\n"
    "       chuhan book build|probe ... build an opening book from PGN files, or show a position's book moves\n"
    "       chuhan pgn convert|check ...  convert PGN records between notations and to UTF-8, or check them\n"
    "       chuhan match --engine cmd=CMD [name=N] [proto=uci|ucci] [option.X=V] --engine ... --each tc=..|movetime=..|depth=..|nodes=.. --games N [...]\n"
    "                                   play engines against each other under the xiangqi rules (--help for all options)\n"
    "       chuhan texel [options] FILE...  fit the evaluation weights to game results, the Texel tuner\n"
    "                                   (--help for the options; chuhan tune is its old name)\n"
    "       chuhan spsa --engine cmd=CMD --each nodes=N --iterations N [...]   SPSA tuning of the search's\n"
    "                                   tunables by matches, in an SPSA build (make SPSA=1; --help for all)\n"
    "       chuhan analyze [--time MS|--depth D|--nodes N] [--threads T] [--multipv K] [--graph DIR] FILE...\n"
    "                                   annotated PGN: scores, ?! ? ?? by expected score lost, better moves\n"
    "       chuhan wdl [--games N] [--nodes N] [--svg FILE] FILE...   fit the WDL model to game results\n"
    "       chuhan soak [--games N] [--tc BASE+INC] [...]   self-play with pondering and GUI traffic; counts crashes,\n"
    "                                   hangs, illegal moves and time losses (--help for the options)\n"
    "       chuhan eval [--net FILE] [FEN]   the hand-written and the net's evaluation of a position\n"
    "       chuhan datagen --out FILE [...]  self-play training data for the net (--help for the options)\n"
    "       chuhan train --data FILE... --out NET [...]  train a net (--help for the options)\n"
    "       chuhan --version            the version and build (ARCH, system)\n"
    "       chuhan --help               this list\n"
    "Each command without its arguments (or with --help) shows its own usage.  On Windows, match, soak and\n"
    "spsa are not available (they start engines as child processes: use the Linux build).\n";

static int usage(void)
{
    fputs(USAGE, stderr);
    return 2;
}

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    bool every_rank; /* in an MPI job, every rank runs it (else rank 0 alone) */
} COMMANDS[] = {
    {"perft", perft_cli, false}, {"magics", magic_cli, false}, {"bench", bench_cli, false},
    {"smp", smp_cli, false},     {"judge", judge_cli, false}, {"book", book_cli, false},
    {"pgn", pgn_cli, false},     {"match", match_cli, true},  {"texel", texel_cli, false},
    {"soak", soak_cli, false},   {"matebench", matebench_cli, false}, {"datagen", datagen_cli, true},
    {"eval", nnue_eval_cli, false}, {"train", nnue_train_cli, false},
    {"analyze", analyze_cli, false}, {"wdl", wdl_cli, false},   {"spsa", spsa_cli, false},
    {"tune", texel_cli, false}, /* texel's old name: scripts may use it */
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

/* The command line's job in one process, or this rank's part of it. */
static int run(int argc, char **argv)
{
    int n = (int)(sizeof COMMANDS / sizeof COMMANDS[0]), i = 0;
    while (argc >= 2 && i < n && strcmp(argv[1], COMMANDS[i].name))
        i++;
    if (comm_rank() > 0) {
        int status = argc >= 2 && i < n && COMMANDS[i].every_rank ? COMMANDS[i].run(argc - 2, argv + 2) : 0;
        int served = engine_serve_rank(); /* until rank 0 ends the job */
        return status ? status : served;
    }
    if (argc < 2) {
#ifdef __EMSCRIPTEN__
        /* in a web page the lines come from the worker's messages */
        char err[200];
        FILE *in = webinput_open(err, sizeof err);
        if (!in) {
            fprintf(stderr, "chuhan: %s\n", err);
            return 1;
        }
        int status = serve(in, stdout);
        fclose(in);
        return status;
#else
        return serve(stdin, stdout);
#endif
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        fputs(USAGE, stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("%s %s (%s)\n", CHUHAN_NAME, chuhan_version(), chuhan_build_info());
        return 0;
    }
    if (i < n) /* what the tool printed must have reached its reader */
        return outfile_finish_stdout(COMMANDS[i].name, COMMANDS[i].run(argc - 2, argv + 2));
    fprintf(stderr, "chuhan: unknown command '%.100s'\n", argv[1]);
    return usage();
}

static int chuhan_main(int argc, char **argv)
{
    char err[300];
    if (!comm_init(&argc, &argv, err, sizeof err)) {
        fprintf(stderr, "chuhan: %s\n", err);
        return 1;
    }
    if (!chuhan_init(err, sizeof err)) {
        fprintf(stderr, "chuhan: %s\n", err);
        comm_finish(false);
        return 1;
    }
    int status = run(argc, argv);
    bool clean = comm_rank() > 0 || cluster_end_job();
    comm_finish(clean);
    return status;
}

/* Where threads are fibers (the single-thread WebAssembly build,
 * engine/util/coop.h), the program runs as the first of them. */
int main(int argc, char **argv) { return coop_main(chuhan_main, argc, argv); }
