#include "search_util.h"

#include <stdio.h>
#include <string.h>

#include "tests.h"

static void cap_info(void *ctx, const EngineInfo *info)
{
    Capture *c = ctx;
    pthread_mutex_lock(&c->lock);
    if (info->multipv <= 1) {
        c->last = *info;
        c->have_info = true;
    }
    pthread_mutex_unlock(&c->lock);
}

static void cap_bestmove(void *ctx, Move best, Move ponder)
{
    Capture *c = ctx;
    pthread_mutex_lock(&c->lock);
    c->best = best;
    c->ponder = ponder;
    c->bestmoves++;
    pthread_mutex_unlock(&c->lock);
}

Capture cap = {.lock = PTHREAD_MUTEX_INITIALIZER};

Engine *new_engine(void)
{
    char err[256];
    EngineCallbacks cb = {cap_info, cap_bestmove, NULL, &cap};
    Engine *e = engine_new(&cb, err, sizeof err);
    if (!e)
        fail_msg("engine_new: %s", err);
    assert_true(engine_set_option(e, "OwnBook", "false", err, sizeof err));
    return e;
}


int load_cases(RepCase *out, int max)
{
    FILE *f = fopen(test_data_path("cases.txt"), "r");
    assert_non_null(f);
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f) && n < max) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        RepCase *c = &out[n];
        memset(c, 0, sizeof *c);
        char *fields[8] = {NULL};
        int nf = 0;
        for (char *p = line; nf < 8;) {
            fields[nf++] = p;
            char *sep = strstr(p, " ; ");
            if (!sep)
                break;
            *sep = 0;
            p = sep + 3;
        }
        assert_true(nf >= 6);
        snprintf(c->id, sizeof c->id, "%.31s", fields[0]);
        snprintf(c->fen, sizeof c->fen, "%.127s", fields[1]);
        for (char *t = strtok(fields[2], " "); t && c->nmoves < 64; t = strtok(NULL, " "))
            snprintf(c->moves[c->nmoves++], sizeof c->moves[0], "%s", t);
        const char *v = fields[5];
        c->violator = !strncmp(v, "violator=red", 12) ? RED : !strncmp(v, "violator=black", 14) ? BLACK : -1;
        c->soft = !strncmp(c->id, "FS-21", 5) || !strncmp(c->id, "FS-22", 5)
               || (!strncmp(c->id, "WXF-05", 6) && c->id[6] >= '5');
        n++;
    }
    fclose(f);
    return n;
}

/* Search the case's start position with the first k moves played. */
void search_case(Engine *e, const RepCase *c, int k, int depth, Move only)
{
    const char *argv[64];
    for (int i = 0; i < k; i++)
        argv[i] = c->moves[i];
    char err[256];
    if (!engine_set_position(e, c->fen, argv, k, false, err, sizeof err))
        fail_msg("%s: %s", c->id, err);
    EngineLimits lim;
    limits_clear(&lim);
    lim.depth = depth;
    if (only) {
        lim.nsearchmoves = 1;
        lim.searchmoves[0] = only;
    }
    engine_go(e, &lim);
    engine_wait(e);
}

/* Who plays move i of a case: the FEN's side, then alternately. */
int mover(const RepCase *c, int i)
{
    int first = strstr(c->fen, " b") ? BLACK : RED;
    return i % 2 ? !first : first;
}

