#include "matebench.h"

#include <ctype.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "engine/util/args.h"
#include "engine/util/clock.h"
#include "engine/util/num.h"

bool matebench_parse(const char *line, MateCase *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    const char *semi = strchr(line, ';');
    if (!semi) {
        snprintf(err, errlen, "expected 'FEN ; PLIES [; NAME]'");
        return false;
    }
    size_t len = (size_t)(semi - line);
    while (len && isspace((unsigned char)line[len - 1]))
        len--;
    while (len && isspace((unsigned char)*line))
        line++, len--;
    if (!len || len >= sizeof c->fen) {
        snprintf(err, errlen, "no FEN, or one too long");
        return false;
    }
    memcpy(c->fen, line, len);
    const char *p = semi + 1, *semi2 = strchr(p, ';');
    char num[32];
    size_t nlen = semi2 ? (size_t)(semi2 - p) : strlen(p);
    while (nlen && isspace((unsigned char)*p))
        p++, nlen--;
    while (nlen && isspace((unsigned char)p[nlen - 1]))
        nlen--;
    if (nlen == 0 || nlen >= sizeof num) {
        snprintf(err, errlen, "no mate length in plies");
        return false;
    }
    memcpy(num, p, nlen);
    num[nlen] = '\0';
    long plies;
    if (!num_parse(num, -200, 200, &plies) || plies == 0) {
        snprintf(err, errlen, "mate length '%s' is not a number of plies from -200 to 200, not 0", num);
        return false;
    }
    c->plies = (int)plies;
    if (semi2) {
        const char *n = semi2 + 1;
        while (isspace((unsigned char)*n))
            n++;
        snprintf(c->name, sizeof c->name, "%s", n);
        size_t l = strlen(c->name);
        while (l && isspace((unsigned char)c->name[l - 1]))
            c->name[--l] = '\0';
    }
    return true;
}

/* What the info callback watches for: the first correct mate score. */
typedef struct {
    int plies;
    atomic_bool found;
    _Atomic uint64_t nodes;
    _Atomic int score_plies, depth;
} Watch;

static bool correct(int want, int score)
{
    if (!score_is_mate(score))
        return false;
    int got = score_mate_plies(score);
    if (want > 0)
        return got > 0 && got <= want;
    return got <= 0;
}

static void on_info(void *ctx, const EngineInfo *info)
{
    Watch *w = ctx;
    if (info->multipv > 1 || info->bound != BOUND_EXACT || atomic_load(&w->found))
        return;
    if (correct(w->plies, info->score)) {
        atomic_store(&w->nodes, info->nodes);
        atomic_store(&w->score_plies, score_mate_plies(info->score));
        atomic_store(&w->depth, info->depth);
        atomic_store(&w->found, true);
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value with at least p of the values at or
 * below it. */
static uint64_t percentile(const uint64_t *sorted, int n, double p)
{
    int k = (int)(p * n + 0.999999);
    if (k < 1)
        k = 1;
    return sorted[k - 1];
}

static void print_nodes(FILE *out, const char *label, uint64_t v, uint64_t budget)
{
    if (v == UINT64_MAX)
        fprintf(out, "%s: > %llu (not found)\n", label, (unsigned long long)budget);
    else
        fprintf(out, "%s: %llu\n", label, (unsigned long long)v);
}

bool matebench_run(const MateCase *cases, int n, uint64_t budget, FILE *out, MateSummary *sum)
{
    char err[256];
    Watch w;
    EngineCallbacks cb = {on_info, NULL, NULL, &w};
    Engine *e = engine_new(&cb, err, sizeof err);
    if (!e) {
        if (out)
            fprintf(out, "matebench: %s\n", err);
        return false;
    }
    if (!engine_set_option(e, "OwnBook", "false", err, sizeof err)) {
        engine_free(e);
        return false;
    }
    uint64_t *nodes = malloc(sizeof *nodes * (size_t)(n > 0 ? n : 1));
    if (!nodes) {
        engine_free(e);
        return false;
    }
    memset(sum, 0, sizeof *sum);
    sum->count = n;
    int64_t start = now_ms();
    for (int i = 0; i < n; i++) {
        if (!engine_set_position(e, cases[i].fen, NULL, 0, false, err, sizeof err)) {
            if (out)
                fprintf(out, "matebench: position %d: %s\n", i + 1, err);
            free(nodes);
            engine_free(e);
            return false;
        }
        engine_new_game(e);
        w.plies = cases[i].plies;
        atomic_store(&w.found, false);
        atomic_store(&w.nodes, 0);
        EngineLimits limits;
        limits_clear(&limits);
        limits.nodes = budget;
        engine_go(e, &limits);
        /* Stop as soon as the mate is seen: the rest would be wasted. */
        while (engine_searching(e) && !atomic_load(&w.found)) {
            struct timespec ts = {0, 200000};
            nanosleep(&ts, NULL);
        }
        engine_stop(e);
        engine_wait(e);
        bool found = atomic_load(&w.found);
        nodes[i] = found ? atomic_load(&w.nodes) : UINT64_MAX;
        sum->found += found;
        sum->total_nodes += found ? nodes[i] : budget;
        if (out) {
            fprintf(out, "Mate %2d/%d: want %+4d plies  ", i + 1, n, cases[i].plies);
            if (found)
                fprintf(out, "got %+4d at depth %2d after %10llu nodes", atomic_load(&w.score_plies),
                        atomic_load(&w.depth), (unsigned long long)nodes[i]);
            else
                fprintf(out, "%-35s", "not found");
            fprintf(out, "  %s\n", cases[i].name);
        }
    }
    qsort(nodes, (size_t)n, sizeof *nodes, cmp_u64);
    sum->median = n ? percentile(nodes, n, 0.5) : UINT64_MAX;
    sum->p75 = n ? percentile(nodes, n, 0.75) : UINT64_MAX;
    free(nodes);
    engine_free(e);
    if (out) {
        fprintf(out, "===========================\n");
        fprintf(out, "Positions       : %d\n", n);
        fprintf(out, "Found in budget : %d (budget %llu nodes each)\n", sum->found, (unsigned long long)budget);
        print_nodes(out, "Median nodes    ", sum->median, budget);
        print_nodes(out, "75th percentile ", sum->p75, budget);
        fprintf(out, "Total time (ms) : %lld\n", (long long)(now_ms() - start));
    }
    return true;
}

/* The cases of a suite file, or of the built-in suite (path NULL). */
static MateCase *load_suite(const char *path, int *n)
{
    int cap = 64, count = 0;
    MateCase *cases = malloc(sizeof *cases * (size_t)cap);
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!cases || (path && !f)) {
        fprintf(stderr, "matebench: cannot read %s\n", path ? path : "the suite");
        free(cases);
        if (f)
            fclose(f);
        return NULL;
    }
    char line[512], err[160];
    for (int lineno = 1, i = 0;; lineno++) {
        const char *text;
        if (f) {
            if (!fgets(line, sizeof line, f))
                break;
            text = line;
        } else {
            if (i >= MateSuiteCount)
                break;
            text = MateSuite[i++];
        }
        const char *p = text;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p || *p == '#')
            continue;
        if (count == cap) {
            cap *= 2;
            MateCase *more = realloc(cases, sizeof *cases * (size_t)cap);
            if (!more)
                break;
            cases = more;
        }
        if (!matebench_parse(p, &cases[count], err, sizeof err)) {
            fprintf(stderr, "matebench: %s:%d: %s\n", path ? path : "built-in suite", lineno, err);
            free(cases);
            if (f)
                fclose(f);
            return NULL;
        }
        count++;
    }
    if (f)
        fclose(f);
    *n = count;
    return cases;
}

int matebench_cli(int argc, char **argv)
{
    uint64_t budget = MATEBENCH_NODES;
    const char *file = NULL;
    const ArgOption opts[] = {ARG_U64("--nodes", &budget, 1, UINT64_MAX), ARG_TEXT("--file", &file)};
    const ArgSpec spec = {"matebench", opts, sizeof opts / sizeof opts[0], NULL, 0};
    char why[ARGS_WHY_MAX];
    if (!args_read(&spec, argc, argv, NULL, why, sizeof why)) {
        fprintf(stderr,
                "%s%susage: chuhan matebench [--nodes N] [--file SUITE]\n"
                "(SUITE lines: 'FEN ; PLIES [; NAME]', PLIES > 0 when the side to move mates, < 0 when it is mated)\n",
                why, *why ? "\n" : "");
        return 2;
    }
    int n = 0;
    MateCase *cases = load_suite(file, &n);
    if (!cases)
        return 1;
    MateSummary sum;
    bool ok = matebench_run(cases, n, budget, stdout, &sum);
    free(cases);
    return ok ? 0 : 1;
}
