#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/engine.h"
#include "engine/util/args.h"
#include "engine/util/clock.h"
#include "engine/util/host.h"
#include "engine/util/num.h"
#include "eval/nnue/nnue.h"

/* Openings, middlegames and endings, both sides to move.  Changing this
 * list changes the signature. */
const char *const BenchFens[] = {
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 2 2",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
    "r1bakab1r/9/1c2c4/p3p3p/2p3p2/2P3P2/P3P3P/1C2C4/9/R1BAKAB1R w - - 0 1",
    "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "2bakab2/3r5/2n1c2c1/p1R1p1p2/7np/2P2CP2/P2rP3P/2N1C1N2/4A4/2B1KAB1R w - - 0 1",
    "2bak3r/4a4/4b1n2/P2rp3p/2p1c1p2/4R4/N3P3R/4BC1C1/N3A4/4KAB2 w - - 0 1",
    "2bak4/4a4/4b3n/p3p4/4n3p/4R4/Pr2P4/4BC1C1/3rA4/R3KAB2 w - - 0 1",
    "1rb1kabr1/4a1c2/1cn6/pRp1pR2p/7n1/2P2p3/P3P1P1P/C1N1C1N2/4A4/3AK1B2 w - - 0 1",
    "2bakab2/9/4c3n/p1prp3R/9/2P6/P3P1c1P/2N1BC2B/4A4/3AK4 w - - 0 1",
    "2bakab2/6c2/2C3c2/p1N1p3p/1R1P5/5r3/P2CP1n1P/4B1p2/4A4/4KAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "2b1ka1P1/4a4/b8/p5R2/8c/7R1/P1p3p2/3rBn3/N2C2n1C/3K1NB2 w - - 0 1",
    "3akabC1/9/4b4/r3p4/p1p6/4P4/P1P5n/NCr1B4/4A4/R2AK1B2 w - - 0 1",
    "3akab2/9/4b3r/8c/p8/7R1/P8/9/4A4/r1BAK3R w - - 0 1",
    "5c3/8R/4k2P1/3P5/5P3/6P2/5pN2/5A3/4CK3/6rn1 w - - 0 1",
    "4ka3/2R1a4/C8/p7p/1P5n1/9/4n4/4B4/9/4K1B2 w - - 0 1",
    "4ka3/4a4/3Pb4/2p1r3p/2b6/2R6/1n7/4B4/4A4/4KAB2 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "3k2b1r/4a4/5a2b/3PP4/7P1/9/9/B4N2B/5K3/4p4 w - - 0 1",
    "4k4/7n1/9/4pR3/9/9/4P4/9/9/4K4 w - - 0 1",
    "3aka3/7R1/7c1/9/9/9/9/9/4A4/3AK1p2 b - - 0 1",
    "4k4/4c4/9/4p4/9/9/3rn4/3NR4/4K4/9 b - - 0 1",
};
const int BenchCount = (int)(sizeof BenchFens / sizeof BenchFens[0]);

static double cpu_seconds(void)
{
    return host_cpu_seconds();
}

uint64_t bench_run(int depth, const char *rule, FILE *out, double *nps)
{
    return bench_run_eval(depth, rule, NULL, out, nps);
}

uint64_t bench_run_eval(int depth, const char *rule, const char *eval_file, FILE *out, double *nps)
{
    char err[600];
    /* A net that cannot be loaded ends the bench before it runs: its
     * figures would be the hand-written evaluation's under the net's name. */
    if (eval_file && *eval_file) {
        NnueNet *net = nnue_load_file(eval_file, err, sizeof err);
        if (!net) {
            fprintf(stderr, "bench: --evalfile %s: %s; the bench is not run\n", eval_file, err);
            return 0;
        }
        nnue_free(net);
    }
    Engine *e = engine_new(NULL, err, sizeof err);
    if (!e) {
        fprintf(stderr, "bench: %s\n", err);
        return 0;
    }
    if (rule && !engine_set_option(e, "Repetition Rule", rule, err, sizeof err)) {
        fprintf(stderr, "bench: %s\n", err);
        engine_free(e);
        return 0;
    }
    if (eval_file && !engine_set_option(e, "EvalFile", eval_file, err, sizeof err)) {
        fprintf(stderr, "bench: %s\n", err);
        engine_free(e);
        return 0;
    }
    uint64_t total = 0;
    int64_t start = now_ms();
    double cpu0 = cpu_seconds();
    for (int i = 0; i < BenchCount; i++) {
        if (!engine_set_position(e, BenchFens[i], NULL, 0, false, err, sizeof err)) {
            fprintf(stderr, "bench: position %d: %s\n", i + 1, err);
            engine_free(e);
            return 0;
        }
        Move best;
        uint64_t nodes = engine_bench_search(e, depth, &best);
        char m[8];
        move_str(best, m, false);
        fprintf(out, "Position %2d/%d: %-6s %10llu nodes\n", i + 1, BenchCount, m, (unsigned long long)nodes);
        total += nodes;
    }
    int64_t elapsed = now_ms() - start;
    double cpu = cpu_seconds() - cpu0;
    /* the kernels matter whenever a net evaluates: the default one too */
    char evalfile[1100];
    bool net = *engine_get_option(e, "EvalFile", evalfile, sizeof evalfile) != 0;
    engine_free(e);
    *nps = (double)total * 1000.0 / (double)(elapsed > 0 ? elapsed : 1);
    fprintf(out, "===========================\n");
    fprintf(out, "Total time (ms) : %lld\n", (long long)elapsed);
    fprintf(out, "Nodes/second    : %.0f\n", *nps);
    /* on a loaded machine the wall clock undercounts: per CPU second too */
    fprintf(out, "Nodes/CPU second: %.0f\n", (double)total / (cpu > 0 ? cpu : 1e-3));
    if (net)
        fprintf(out, "Net kernels     : %s\n", nnue_kernels()->name);
    fprintf(out, "Nodes searched  : %llu\n", (unsigned long long)total);
    return total;
}

static bool read_rule(const char *text, void *rule)
{
    if (strcasecmp(text, "cxa") && strcasecmp(text, "axf") && strcasecmp(text, "draw"))
        return false;
    *(const char **)rule = text;
    return true;
}

int bench_cli(int argc, char **argv)
{
    int depth = BENCH_DEPTH;
    const char *rule = NULL, *eval_file = NULL, *words[1];
    int nwords;
    const ArgOption opts[] = {
        ARG_CUSTOM("--rule", &rule, read_rule, "a rule: cxa, axf or draw"),
        ARG_TEXT("--evalfile", &eval_file),
    };
    const ArgSpec spec = {"bench", opts, sizeof opts / sizeof opts[0], words, 1};
    char why[ARGS_WHY_MAX];
    long d = depth;
    bool ok = args_read(&spec, argc, argv, &nwords, why, sizeof why);
    if (ok && nwords && !num_parse(words[0], 1, 64, &d)) {
        snprintf(why, sizeof why, "bench: DEPTH: '%.100s' is not a number from 1 to 64", words[0]);
        ok = false;
    }
    if (!ok) {
        fprintf(stderr, "%s%susage: chuhan bench [DEPTH] [--rule cxa|axf|draw] [--evalfile NET]\n", why,
                *why ? "\n" : "");
        return 2;
    }
    depth = (int)d;
    double nps;
    return bench_run_eval(depth, rule, eval_file, stdout, &nps) ? 0 : 1;
}
