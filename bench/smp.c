#include "smp.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "engine/engine.h"
#include "engine/util/args.h"
#include "engine/util/clock.h"
#include "engine/util/num.h"

typedef struct {
    pthread_mutex_t lock;
    EngineInfo last;
} SmpCapture;

static void smp_info(void *ctx, const EngineInfo *info)
{
    SmpCapture *c = ctx;
    pthread_mutex_lock(&c->lock);
    if (info->multipv <= 1)
        c->last = *info;
    pthread_mutex_unlock(&c->lock);
}

/* One search of fen; returns its wall time in ms and the last info. */
static int64_t timed_search(Engine *e, SmpCapture *cap, const char *fen, const EngineLimits *lim)
{
    char err[256];
    engine_new_game(e);
    engine_set_position(e, fen, NULL, 0, false, err, sizeof err);
    memset(&cap->last, 0, sizeof cap->last);
    int64_t t0 = now_ms();
    engine_go(e, lim);
    engine_wait(e);
    return now_ms() - t0;
}

int smp_cli(int argc, char **argv)
{
    SmpCapture cap = {.lock = PTHREAD_MUTEX_INITIALIZER};
    EngineCallbacks cb = {smp_info, NULL, NULL, &cap};
    char err[256], tv[16];
    Engine *e = engine_new(&cb, err, sizeof err);
    if (!e || !engine_set_option(e, "Hash", "64", err, sizeof err)
        || !engine_set_option(e, "OwnBook", "false", err, sizeof err)) {
        fprintf(stderr, "smp: %s\n", err);
        engine_free(e);
        return 1;
    }
    /* Under mpirun -np N (ranks > 1): one rank against all N, each with
     * THREADS threads; otherwise one thread against THREADS. */
    int ranks = engine_ranks(e);
    long threads = ranks > 1 ? 1 : 2, ms = 2000, depth = 14, positions = 12;
    long *targets[] = {&threads, &ms, &depth, &positions};
    const long lo[] = {ranks > 1 ? 1 : 2, 50, 1, 1}, hi[] = {1024, 600000, 60, 1000};
    static const char *const NAMES[] = {"THREADS", "MS", "DEPTH", "POSITIONS"};
    const long default_threads = threads;
    const char *words[4];
    int nwords;
    const ArgSpec spec = {"smp", NULL, 0, words, 4};
    char why[ARGS_WHY_MAX];
    bool ok = args_read(&spec, argc, argv, &nwords, why, sizeof why);
    for (int i = 0; ok && i < nwords; i++)
        if (!num_parse(words[i], lo[i], hi[i], targets[i])) {
            snprintf(why, sizeof why, "smp: %s: '%.100s' is not a number from %ld to %ld", NAMES[i], words[i], lo[i],
                     hi[i]);
            ok = false;
        }
    if (!ok) {
        fprintf(stderr, "%s%susage: chuhan smp [THREADS=%ld] [MS=2000] [DEPTH=14] [POSITIONS=12]\n", why,
                *why ? "\n" : "", default_threads);
        engine_free(e);
        return 2;
    }
    if (positions > BenchCount)
        positions = BenchCount;
    uint64_t nodes[2] = {0, 0};
    int64_t ttd[2] = {0, 0};
    long counts[2] = {ranks > 1 ? threads : 1, threads};
    const char *what[2] = {ranks > 1 ? "1R" : "1T", ranks > 1 ? "NR" : "NT"};
    printf("%ld positions: %ld ms each for nodes/second, depth %ld for time to depth\n", positions, ms, depth);
    if (ranks > 1)
        printf("1R: rank 0 alone, NR: all %d ranks; %ld thread%s each\n", ranks, threads, threads > 1 ? "s" : "");
    char head[4][16];
    for (int k = 0; k < 2; k++) {
        snprintf(head[k], sizeof head[k], "nodes %s", what[k]);
        snprintf(head[2 + k], sizeof head[2 + k], "ms@d %s", what[k]);
    }
    printf("%-4s %12s %12s %6s   %9s %9s %6s\n", "pos", head[0], head[1], "ratio", head[2], head[3], "ratio");
    for (long p = 0; p < positions; p++) {
        uint64_t n[2];
        int64_t t[2];
        for (int k = 0; k < 2; k++) {
            snprintf(tv, sizeof tv, "%ld", counts[k]);
            engine_set_option(e, "Threads", tv, err, sizeof err);
            engine_use_ranks(e, k == 1);
            EngineLimits lim;
            limits_clear(&lim);
            lim.movetime = ms;
            timed_search(e, &cap, BenchFens[p], &lim);
            n[k] = cap.last.nodes;
            limits_clear(&lim);
            lim.depth = (int)depth;
            t[k] = timed_search(e, &cap, BenchFens[p], &lim);
            nodes[k] += n[k];
            ttd[k] += t[k];
        }
        printf("%-4ld %12llu %12llu %6.2f   %9lld %9lld %6.2f\n", p + 1, (unsigned long long)n[0],
               (unsigned long long)n[1], n[0] ? (double)n[1] / (double)n[0] : 0.0, (long long)t[0], (long long)t[1],
               t[1] ? (double)t[0] / (double)t[1] : 0.0);
        fflush(stdout);
    }
    engine_free(e);
    printf("===========================\n");
    if (ranks > 1) {
        printf("ranks                        : %d, %ld thread%s each\n", ranks, threads, threads > 1 ? "s" : "");
        printf("nodes/second, %d ranks / 1    : %.2f\n", ranks, nodes[0] ? (double)nodes[1] / (double)nodes[0] : 0.0);
        printf("time to depth %ld, 1 / %d ranks: %.2f\n", depth, ranks,
               ttd[1] ? (double)ttd[0] / (double)ttd[1] : 0.0);
        return 0;
    }
    printf("threads                      : %ld\n", threads);
    printf("nodes/second, %ld threads / 1 : %.2f\n", threads, nodes[0] ? (double)nodes[1] / (double)nodes[0] : 0.0);
    printf("time to depth %ld, 1 / %ld    : %.2f\n", depth, threads, ttd[1] ? (double)ttd[0] / (double)ttd[1] : 0.0);
    return 0;
}
