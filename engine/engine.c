/* The engine: options, game position, and the search driven through the
 * thread pool. */
#include "engine.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "eval/eval.h"
#include "movegen.h"
#include "search/threads.h"

enum {
    O_THREADS,
    O_HASH,
    O_CLEAR_HASH,
    O_MULTIPV,
    O_PONDER,
    O_MOVE_OVERHEAD,
    O_SHOW_WDL,
    O_SIXTY_MOVE,
    O_NB
};

static const OptionInfo OPTIONS[O_NB] = {
    [O_THREADS] = {"Threads", OPT_SPIN, "1", 1, MAX_THREADS, {NULL}},
    [O_HASH] = {"Hash", OPT_SPIN, "16", 1, TT_MAX_MB, {NULL}},
    [O_CLEAR_HASH] = {"Clear Hash", OPT_BUTTON, "", 0, 0, {NULL}},
    [O_MULTIPV] = {"MultiPV", OPT_SPIN, "1", 1, MAX_MOVES, {NULL}},
    [O_PONDER] = {"Ponder", OPT_CHECK, "false", 0, 0, {NULL}},
    [O_MOVE_OVERHEAD] = {"Move Overhead", OPT_SPIN, "30", 0, 5000, {NULL}},
    [O_SHOW_WDL] = {"UCI_ShowWDL", OPT_CHECK, "false", 0, 0, {NULL}},
    [O_SIXTY_MOVE] = {"Sixty Move Rule", OPT_CHECK, "true", 0, 0, {NULL}},
};

struct Engine {
    EngineCallbacks cb;
    Position root;    /* the game: FEN and moves played */
    Position scratch; /* where a new game is built before it replaces root */
    TT tt;
    ThreadPool *pool;
    SearchShared shared;
    long value[O_NB]; /* spin and check options */
    /* bench: a silent search records its move here */
    Move bench_move;
};

int engine_option_count(void) { return O_NB; }
const OptionInfo *engine_option(int i) { return i >= 0 && i < O_NB ? &OPTIONS[i] : NULL; }

static int option_index(const char *name)
{
    for (int i = 0; i < O_NB; i++)
        if (!strcasecmp(OPTIONS[i].name, name))
            return i;
    return -1;
}

const OptionInfo *engine_find_option(const char *name)
{
    int i = option_index(name);
    return i < 0 ? NULL : &OPTIONS[i];
}

Engine *engine_new(const EngineCallbacks *cb, char *err, size_t errlen)
{
    Engine *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (cb)
        e->cb = *cb;
    for (int i = 0; i < O_NB; i++)
        e->value[i] = OPTIONS[i].type == OPT_CHECK ? !strcmp(OPTIONS[i].def, "true") : atol(OPTIONS[i].def);
    pos_set_fen(&e->root, START_FEN, NULL, 0);
    if (!tt_resize(&e->tt, (size_t)e->value[O_HASH], 1, err, errlen) || !(e->pool = pool_new(1, err, errlen))) {
        tt_free(&e->tt);
        free(e);
        return NULL;
    }
    return e;
}

void engine_free(Engine *e)
{
    if (!e)
        return;
    engine_stop(e);
    engine_wait(e);
    pool_free(e->pool);
    tt_free(&e->tt);
    free(e);
}

/* Strict number parsing: all of the text, within [min, max]. */
static bool parse_long(const char *text, long min, long max, long *out)
{
    while (isspace((unsigned char)*text))
        text++;
    if (!*text)
        return false;
    errno = 0;
    char *end;
    long v = strtol(text, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    if (*end || errno == ERANGE || v < min || v > max)
        return false;
    *out = v;
    return true;
}

bool engine_set_option(Engine *e, const char *name, const char *value, char *err, size_t errlen)
{
    int i = option_index(name);
    if (i < 0) {
        snprintf(err, errlen, "unknown option '%s'", name);
        return false;
    }
    const OptionInfo *o = &OPTIONS[i];
    long v = 0;
    switch (o->type) {
    case OPT_SPIN:
        if (!value || !parse_long(value, o->min, o->max, &v)) {
            snprintf(err, errlen, "%s must be a whole number from %ld to %ld, not '%s'", o->name, o->min, o->max,
                     value ? value : "");
            return false;
        }
        break;
    case OPT_CHECK:
        if (value && !strcasecmp(value, "true"))
            v = 1;
        else if (value && !strcasecmp(value, "false"))
            v = 0;
        else {
            snprintf(err, errlen, "%s must be true or false, not '%s'", o->name, value ? value : "");
            return false;
        }
        break;
    default:
        break;
    }
    if ((i == O_THREADS || i == O_HASH || i == O_CLEAR_HASH) && engine_searching(e)) {
        snprintf(err, errlen, "%s cannot change during a search; send it after bestmove", o->name);
        return false;
    }
    switch (i) {
    case O_THREADS:
        if (!pool_resize(e->pool, (int)v, err, errlen))
            return false;
        break;
    case O_HASH:
        if (!tt_resize(&e->tt, (size_t)v, pool_size(e->pool), err, errlen))
            return false;
        break;
    case O_CLEAR_HASH:
        tt_clear(&e->tt, pool_size(e->pool));
        return true;
    default:
        break;
    }
    e->value[i] = v;
    return true;
}

const char *engine_get_option(Engine *e, const char *name, char *buf, size_t len)
{
    int i = option_index(name);
    if (i < 0)
        return NULL;
    if (OPTIONS[i].type == OPT_CHECK)
        snprintf(buf, len, "%s", e->value[i] ? "true" : "false");
    else if (OPTIONS[i].type == OPT_SPIN)
        snprintf(buf, len, "%ld", e->value[i]);
    else
        snprintf(buf, len, "%s", OPTIONS[i].def);
    return buf;
}

bool engine_set_position(Engine *e, const char *fen, const char *const *moves, int nmoves, bool rank1, char *err,
                         size_t errlen)
{
    char why[160];
    if (engine_searching(e)) {
        engine_stop(e);
        engine_wait(e);
    }
    if (nmoves > MAX_GAME_PLY) {
        snprintf(err, errlen, "too many moves (%d; at most %d)", nmoves, MAX_GAME_PLY);
        return false;
    }
    if (!pos_set_fen(&e->scratch, fen ? fen : START_FEN, why, sizeof why)) {
        snprintf(err, errlen, "bad FEN: %s", why);
        return false;
    }
    for (int i = 0; i < nmoves; i++) {
        Move m = parse_move(&e->scratch, moves[i], rank1);
        if (m == MOVE_NONE) {
            snprintf(err, errlen, "illegal move '%.16s' (move %d of the list)", moves[i], i + 1);
            return false;
        }
        pos_do_move(&e->scratch, m);
    }
    pos_copy(&e->root, &e->scratch);
    return true;
}

bool engine_push_move(Engine *e, Move m)
{
    engine_wait(e);
    if (pos_room(&e->root) <= MAX_PLY || !pos_pseudo_legal(&e->root, m) || !pos_legal(&e->root, m))
        return false;
    pos_do_move(&e->root, m);
    return true;
}

bool engine_pop_move(Engine *e)
{
    engine_wait(e);
    if (e->root.top == 0)
        return false;
    pos_undo_move(&e->root);
    return true;
}

const Position *engine_position(const Engine *e) { return &e->root; }

void engine_new_game(Engine *e)
{
    if (engine_searching(e))
        engine_stop(e);
    engine_wait(e);
    tt_clear(&e->tt, pool_size(e->pool));
    for (int i = 0; i < pool_size(e->pool); i++)
        search_clear(pool_thread(e->pool, i));
}

static void on_bestmove(void *ctx, Move best, Move ponder)
{
    Engine *e = ctx;
    if (e->cb.bestmove)
        e->cb.bestmove(e->cb.ctx, best, ponder);
}

static void prepare(Engine *e, const SearchLimits *limits)
{
    SearchShared *sh = &e->shared;
    sh->tt = &e->tt;
    sh->limits = *limits;
    if (sh->limits.depth > MAX_PLY - 4)
        sh->limits.depth = MAX_PLY - 4;
    sh->multipv = (int)e->value[O_MULTIPV];
    sh->rule = 0;
    sh->sixty_move_plies = e->value[O_SIXTY_MOVE] ? 120 : 0;
    atomic_store(&sh->stop, false);
    atomic_store(&sh->pondering, limits->ponder);
    atomic_store(&sh->stop_on_ponderhit, false);
    tm_init(&sh->tm, &sh->limits, e->root.side, e->value[O_MOVE_OVERHEAD], now_ms());
    sh->on_info = e->cb.info;
    sh->ctx = e->cb.ctx;
    tt_new_search(&e->tt);
}

void engine_go(Engine *e, const SearchLimits *limits)
{
    engine_wait(e);
    prepare(e, limits);
    pool_start(e->pool, &e->shared, &e->root, on_bestmove, e);
}

void engine_stop(Engine *e) { pool_stop(e->pool); }
void engine_ponderhit(Engine *e) { pool_ponderhit(e->pool); }
void engine_wait(Engine *e) { pool_wait(e->pool); }
bool engine_searching(Engine *e) { return pool_busy(e->pool); }

int engine_eval(Engine *e) { return evaluate(&e->root); }

static void bench_bestmove(void *ctx, Move best, Move ponder)
{
    (void)ponder;
    ((Engine *)ctx)->bench_move = best;
}

uint64_t engine_bench_search(Engine *e, int depth, Move *best)
{
    engine_new_game(e);
    SearchLimits limits;
    limits_clear(&limits);
    limits.depth = depth;
    prepare(e, &limits);
    e->shared.on_info = NULL;
    pool_start(e->pool, &e->shared, &e->root, bench_bestmove, e);
    pool_wait(e->pool);
    if (best)
        *best = e->bench_move;
    return search_nodes(&e->shared);
}
