/* The engine: options, game position, and the search driven through the
 * thread pool; in an MPI job, rank 0's engine drives the other ranks'
 * searches through its cluster (engine/cluster/cluster.h). */
#include "engine.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "book/book.h"
#include "engine/board/movegen.h"
#include "engine/cluster/cluster.h"
#include "engine/rules/rules.h"
#include "engine/util/clock.h"
#include "engine/util/debuglog.h"
#include "engine/util/num.h"
#include "eval/eval.h"
#include "eval/nnue/nnue.h"
#include "engine_private.h"
#include "skill.h"
#include "search/threads.h"
#include "search/tunables.h"

enum {
    O_THREADS,
    O_HASH,
    O_CLEAR_HASH,
    O_MULTIPV,
    O_PONDER,
    O_MOVE_OVERHEAD,
    O_SHOW_WDL,
    O_REPETITION_RULE,
    O_SIXTY_MOVE,
    O_OWN_BOOK,
    O_BOOK_FILE,
    O_BOOK_DEPTH,
    O_BOOK_VARIETY,
    O_EVAL_FILE,
    O_SKILL_LEVEL,
    O_LIMIT_STRENGTH,
    O_ELO,
    O_DEBUG_LOG,
    O_NB
};

#define BOOK_DEFAULT_NAME "<built-in>"
#define NET_BUILTIN_NAME "<built-in>"
/* The evaluation an engine starts with: the built-in net, which passed its
 * gate against the hand-written one (eval/nets/README.md); "" would start
 * with the hand-written evaluation. */
#define EVAL_FILE_DEFAULT NET_BUILTIN_NAME

/* The largest Threads and Hash: a build for a browser lowers them to what
 * it gives (the Makefile, TARGET=wasm: one thread where the page has no
 * shared memory, a Hash that fits the memory the module may grow to). */
#ifndef ENGINE_THREADS_MAX
#define ENGINE_THREADS_MAX MAX_THREADS
#endif
#ifndef ENGINE_HASH_MAX_MB
#define ENGINE_HASH_MAX_MB TT_MAX_MB
#endif

static const OptionInfo OPTIONS[O_NB] = {
    [O_THREADS] = {"Threads", OPT_SPIN, "1", 1, ENGINE_THREADS_MAX, {NULL}},
    [O_HASH] = {"Hash", OPT_SPIN, "16", 1, ENGINE_HASH_MAX_MB, {NULL}},
    [O_CLEAR_HASH] = {"Clear Hash", OPT_BUTTON, "", 0, 0, {NULL}},
    [O_MULTIPV] = {"MultiPV", OPT_SPIN, "1", 1, MAX_MOVES, {NULL}},
    [O_PONDER] = {"Ponder", OPT_CHECK, "false", 0, 0, {NULL}},
    [O_MOVE_OVERHEAD] = {"Move Overhead", OPT_SPIN, "30", 0, 5000, {NULL}},
    [O_SHOW_WDL] = {"UCI_ShowWDL", OPT_CHECK, "false", 0, 0, {NULL}},
    [O_REPETITION_RULE] = {"Repetition Rule", OPT_COMBO, "cxa", 0, 0, {"cxa", "axf", "draw", NULL}},
    [O_SIXTY_MOVE] = {"Sixty Move Rule", OPT_CHECK, "true", 0, 0, {NULL}},
    [O_OWN_BOOK] = {"OwnBook", OPT_CHECK, "true", 0, 0, {NULL}},
    [O_BOOK_FILE] = {"BookFile", OPT_STRING, BOOK_DEFAULT_NAME, 0, 0, {NULL}},
    [O_BOOK_DEPTH] = {"BookDepth", OPT_SPIN, "30", 0, 1000, {NULL}},
    [O_BOOK_VARIETY] = {"BookVariety", OPT_CHECK, "false", 0, 0, {NULL}},
    /* <built-in>: the net built into the binary; empty: the hand-written
     * evaluation; a path: that net (eval/nets/README.md) */
    [O_EVAL_FILE] = {"EvalFile", OPT_STRING, EVAL_FILE_DEFAULT, 0, 0, {NULL}},
    [O_SKILL_LEVEL] = {"Skill Level", OPT_SPIN, "20", 0, SKILL_MAX, {NULL}},
    [O_LIMIT_STRENGTH] = {"UCI_LimitStrength", OPT_CHECK, "false", 0, 0, {NULL}},
    [O_ELO] = {"UCI_Elo", OPT_SPIN, "1000", SKILL_ELO_MIN, SKILL_ELO_MAX, {NULL}},
    [O_DEBUG_LOG] = {"Debug Log File", OPT_STRING, "", 0, 0, {NULL}},
};

struct Engine {
    EngineCallbacks cb;
    Position root;    /* the game: FEN and moves played */
    Position scratch; /* where a new game is built before it replaces root */
    TT tt;
    ThreadPool *pool;
    long value[O_NB]; /* spin and check options; combo: index of the value */
    char book_file[ENGINE_VALUE_MAX];
    Book *book;       /* NULL: none (off, or it failed to load) */
    bool book_loaded; /* book reflects book_file */
    uint64_t book_rng;
    /* bench: a silent search records its move here */
    Move bench_move;
    bool rank1; /* moves in messages with ranks 1-10 */
    Cluster *cluster; /* NULL: this process searches alone */
    char eval_file[1024]; /* EvalFile: "" for the hand-written evaluation */
    NnueNet *net;         /* the net EvalFile names; NULL: none */
    /* below full strength: the level of the running search, the lines it
     * picks from (written by the search thread's reports) */
    double skill;
    SkillLines skill_lines;
    uint64_t skill_rng;
    DebugLog log; /* the protocol's lines, when Debug Log File names a file */
};

/* The search's tunables (search/tunables.h) follow the options above as
 * spin options, index O_NB + t for tunable t: only an SPSA build (make
 * SPSA=1) has any.  Their values are the search's own, process-wide, not
 * the engine's. */
#ifdef CHUHAN_SPSA
/* SPSA build only: written once under pthread_once, read-only after. */
static OptionInfo TuneOptions[TUNABLES_MAX];
static int tune_option_count;
static pthread_once_t tune_options_once = PTHREAD_ONCE_INIT;

static void tune_options_build(void)
{
    int n = tunables_count(); /* at most TUNABLES_MAX (search/tunables.c checks) */
    for (int t = 0; t < n; t++) {
        const TunableInfo *ti = tunables_info(t);
        TuneOptions[t] = (OptionInfo){ti->name, OPT_SPIN, ti->def_text, ti->min, ti->max, {NULL}};
    }
    tune_option_count = n;
}

static int tune_options(void)
{
    pthread_once(&tune_options_once, tune_options_build);
    return tune_option_count;
}

static const OptionInfo *tune_option(int t) { return t >= 0 && t < tune_options() ? &TuneOptions[t] : NULL; }
#else
/* The normal build: no option more than OPTIONS. */
static int tune_options(void) { return 0; }
static const OptionInfo *tune_option(int t)
{
    (void)t;
    return NULL;
}
#endif

int engine_option_count(void) { return O_NB + tune_options(); }
const OptionInfo *engine_option(int i) { return i >= 0 && i < O_NB ? &OPTIONS[i] : tune_option(i - O_NB); }

static int option_index(const char *name)
{
    for (int i = 0; i < O_NB; i++)
        if (!strcasecmp(OPTIONS[i].name, name))
            return i;
    int t = tune_options() ? tunables_find(name) : -1;
    return t < 0 ? -1 : O_NB + t;
}

const OptionInfo *engine_find_option(const char *name)
{
    int i = option_index(name);
    return i < 0 ? NULL : engine_option(i);
}

static bool set_eval_file(Engine *e, const char *value, char *err, size_t errlen);

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
    e->value[O_REPETITION_RULE] = RULE_CXA;
    snprintf(e->book_file, sizeof e->book_file, "%s", BOOK_DEFAULT_NAME);
    e->book_rng = (uint64_t)now_ms();
    e->skill_rng = e->book_rng ^ 0x5eed;
    e->skill = SKILL_MAX;
    dlog_init(&e->log);
    pos_set_fen(&e->root, START_FEN, NULL, 0);
    if (!tt_resize(&e->tt, (size_t)e->value[O_HASH], 1, err, errlen) || !(e->pool = pool_new(1, err, errlen))) {
        tt_free(&e->tt);
        dlog_destroy(&e->log);
        free(e);
        return NULL;
    }
    if (errlen)
        err[0] = 0;
    ClusterCallbacks ccb = {e->cb.info, e->cb.bestmove, e->cb.message, e->cb.ctx};
    e->cluster = cluster_attach(&e->tt, e->pool, &ccb, err, errlen);
    if (!e->cluster && errlen && err[0]) {
        pool_free(e->pool);
        tt_free(&e->tt);
        dlog_destroy(&e->log);
        free(e);
        return NULL;
    }
    if (*EVAL_FILE_DEFAULT && !set_eval_file(e, EVAL_FILE_DEFAULT, err, errlen)) {
        engine_free(e);
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
    cluster_detach(e->cluster);
    pool_free(e->pool);
    tt_free(&e->tt);
    book_free(e->book);
    nnue_free(e->net);
    dlog_destroy(&e->log);
    free(e);
}

DebugLog *engine_debug_log(Engine *e) { return &e->log; }

/* Evaluate with the net EvalFile names, or by hand when it is empty.  A net
 * that cannot be loaded is refused with the reason, and the evaluation in
 * use is kept. */
static bool set_eval_file(Engine *e, const char *value, char *err, size_t errlen)
{
    const char *keep = *e->eval_file ? e->eval_file : "the hand-written evaluation";
    NnueNet *net = NULL;
    if (!strcmp(value, NET_BUILTIN_NAME)) {
        char why[400];
        if (!(net = nnue_load_default(why, sizeof why))) {
            snprintf(err, errlen, "EvalFile %s: %s; keeping %.300s", value, why, keep);
            return false;
        }
    } else if (*value) {
        char why[400];
        if (!(net = nnue_load_file(value, why, sizeof why))) {
            snprintf(err, errlen, "EvalFile %.300s: %s; keeping %.300s", value, why, keep);
            return false;
        }
    }
    nnue_free(e->net);
    e->net = net;
    snprintf(e->eval_file, sizeof e->eval_file, "%s", value);
    /* the table's evaluations were the other evaluation's */
    tt_clear(&e->tt, pool_size(e->pool));
    return true;
}

/* (Re)load the book named by BookFile (the built-in one by default).  On
 * failure the engine plays on without a book and err says why. */
static bool load_book(Engine *e, char *err, size_t errlen)
{
    book_free(e->book);
    e->book = NULL;
    e->book_loaded = true;
    if (!e->book_file[0]) /* BookFile empty: no book */
        return true;
    char why[256];
    bool builtin = !strcmp(e->book_file, BOOK_DEFAULT_NAME);
    e->book = builtin ? book_load_default(why, sizeof why) : book_load_file(e->book_file, why, sizeof why);
    if (!e->book) {
        snprintf(err, errlen, "book %.200s: %s; playing without a book", builtin ? "(built-in)" : e->book_file, why);
        return false;
    }
    return true;
}

/* A search tunable (an SPSA build's): between searches only, since the
 * search reads it without a lock. */
static bool set_tunable(Engine *e, const OptionInfo *o, const char *value, char *err, size_t errlen)
{
    long v;
    if (!value || !num_parse(value, o->min, o->max, &v)) {
        snprintf(err, errlen, "%s must be a whole number from %ld to %ld, not '%s'", o->name, o->min, o->max,
                 value ? value : "");
        return false;
    }
    if (engine_thinking(e)) {
        snprintf(err, errlen, "%s cannot change during a search; send it after bestmove", o->name);
        return false;
    }
    engine_wait(e);
    return tunables_set(o->name, v, err, errlen);
}

static bool set_option(Engine *e, const char *name, const char *value, char *err, size_t errlen)
{
    int i = option_index(name);
    if (i < 0) {
        snprintf(err, errlen, "unknown option '%s'", name);
        return false;
    }
    if (i >= O_NB)
        return set_tunable(e, engine_option(i), value, err, errlen);
    const OptionInfo *o = &OPTIONS[i];
    long v = 0;
    switch (o->type) {
    case OPT_SPIN:
        if (!value || !num_parse(value, o->min, o->max, &v)) {
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
    case OPT_COMBO:
        for (v = 0; o->vars[v] && (!value || strcasecmp(o->vars[v], value)); v++)
            ;
        if (!o->vars[v]) {
            snprintf(err, errlen, "%s must be one of %s, %s, %s; not '%s'", o->name, o->vars[0], o->vars[1],
                     o->vars[2], value ? value : "");
            return false;
        }
        break;
    case OPT_STRING:
        /* no value, an empty one and the GUIs' "<empty>" all mean none:
         * for BookFile, no book (the default names the built-in one) */
        if (!value || !strcmp(value, "<empty>"))
            value = "";
        if (strlen(value) >= sizeof e->book_file) {
            snprintf(err, errlen, "%s: a value of %zu characters is refused (at most %d)", o->name, strlen(value),
                     ENGINE_VALUE_MAX - 1);
            return false;
        }
        break;
    default:
        break;
    }
    if (i == O_THREADS || i == O_HASH || i == O_CLEAR_HASH || i == O_EVAL_FILE) {
        /* A running search keeps its pool and table; one that has stopped
         * and is reporting its move is as good as over. */
        if (engine_thinking(e)) {
            snprintf(err, errlen, "%s cannot change during a search; send it after bestmove", o->name);
            return false;
        }
        engine_wait(e);
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
    case O_EVAL_FILE:
        return set_eval_file(e, value, err, errlen);
    case O_DEBUG_LOG:
        return dlog_open(&e->log, value, err, errlen);
    case O_BOOK_FILE:
        snprintf(e->book_file, sizeof e->book_file, "%s", value);
        e->book_loaded = false;
        return load_book(e, err, errlen);
    default:
        break;
    }
    e->value[i] = v;
    if (i == O_OWN_BOOK && v && !e->book_loaded)
        return load_book(e, err, errlen);
    return true;
}

bool engine_set_option(Engine *e, const char *name, const char *value, char *err, size_t errlen)
{
    if (!set_option(e, name, value, err, errlen))
        return false;
    if (option_index(name) == O_DEBUG_LOG)
        return true; /* the log is this process's own */
    cluster_option(e->cluster, engine_option(option_index(name))->name, value);
    return true;
}

const char *engine_get_option(Engine *e, const char *name, char *buf, size_t len)
{
    int i = option_index(name);
    if (i < 0)
        return NULL;
    if (i >= O_NB)
        snprintf(buf, len, "%d", tunables_value(i - O_NB));
    else if (OPTIONS[i].type == OPT_CHECK)
        snprintf(buf, len, "%s", e->value[i] ? "true" : "false");
    else if (OPTIONS[i].type == OPT_SPIN)
        snprintf(buf, len, "%ld", e->value[i]);
    else if (OPTIONS[i].type == OPT_COMBO)
        snprintf(buf, len, "%s", OPTIONS[i].vars[e->value[i]]);
    else if (i == O_BOOK_FILE)
        snprintf(buf, len, "%s", e->book_file);
    else if (i == O_EVAL_FILE)
        snprintf(buf, len, "%s", e->eval_file);
    else if (i == O_DEBUG_LOG)
        dlog_path(&e->log, buf, len);
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
    char note[256];
    bool odd = pos_unreachable_pawn(&e->scratch, note, sizeof note);
    for (int i = 0; i < nmoves; i++) {
        Move m = parse_move(&e->scratch, moves[i], rank1);
        if (m == MOVE_NONE) {
            snprintf(err, errlen, "illegal move '%.16s' (move %d of the list)", moves[i], i + 1);
            return false;
        }
        pos_do_move(&e->scratch, m);
    }
    pos_copy(&e->root, &e->scratch);
    if (odd && e->cb.message)
        e->cb.message(e->cb.ctx, note);
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

void engine_set_rank1(Engine *e, bool rank1) { e->rank1 = rank1; }

void engine_new_game(Engine *e)
{
    if (engine_searching(e))
        engine_stop(e);
    engine_wait(e);
    tt_clear(&e->tt, pool_size(e->pool));
    pool_new_game(e->pool);
    cluster_new_game(e->cluster);
}

EngineRules engine_rules(const Engine *e)
{
    return (EngineRules){(int)e->value[O_REPETITION_RULE], e->value[O_SIXTY_MOVE] ? 120 : 0};
}

static void on_info(void *ctx, const SearchInfo *info)
{
    Engine *e = ctx;
    if (!skill_full(e->skill)) {
        /* the level's extra lines are its own, not the user's */
        skill_note(&e->skill_lines, info);
        if (info->multipv > e->value[O_MULTIPV] || !e->cb.info)
            return;
    }
    if (cluster_in_use(e->cluster)) {
        /* the nodes of every rank */
        SearchInfo all = *info;
        all.nodes += cluster_nodes(e->cluster);
        e->cb.info(e->cb.ctx, &all);
        return;
    }
    e->cb.info(e->cb.ctx, info);
}

static void on_bestmove(void *ctx, Move best, Move ponder)
{
    Engine *e = ctx;
    cluster_collect(e->cluster, &best, &ponder);
    if (!skill_full(e->skill)) {
        pos_copy(&e->scratch, &e->root);
        best = skill_pick(e->skill, &e->scratch, &e->skill_lines, best, &ponder, (int)e->value[O_REPETITION_RULE],
                          &e->skill_rng);
    }
    if (e->cb.bestmove)
        e->cb.bestmove(e->cb.ctx, best, ponder);
}

/* A search of the game under limits, reporting to report. */
static SearchSettings settings(const Engine *e)
{
    EngineRules rules = engine_rules(e);
    return (SearchSettings){(int)e->value[O_MULTIPV], rules.rule, rules.sixty_move_plies, e->value[O_MOVE_OVERHEAD],
                            e->net};
}

static void start(Engine *e, const EngineLimits *limits, const SearchSettings *s, const SearchReport *report)
{
    pool_start(e->pool, &e->tt, &e->root, limits, s, report);
}

/* The level the options ask for: UCI_Elo when strength is limited. */
static double skill_level(const Engine *e)
{
    return e->value[O_LIMIT_STRENGTH] ? skill_from_elo((int)e->value[O_ELO]) : (double)e->value[O_SKILL_LEVEL];
}

/* A book move for the game position, or MOVE_NONE: only for a normal timed
 * or limited search (not analysis, pondering or searchmoves) within
 * BookDepth plies of the game. */
static Move book_move(Engine *e, const EngineLimits *limits)
{
    if (!e->value[O_OWN_BOOK] || limits->infinite || limits->ponder || limits->nsearchmoves || limits->mate)
        return MOVE_NONE;
    if (pos_game_ply(&e->root) >= e->value[O_BOOK_DEPTH])
        return MOVE_NONE;
    if (!e->book_loaded) {
        char err[512];
        if (!load_book(e, err, sizeof err) && e->cb.message)
            e->cb.message(e->cb.ctx, err);
    }
    if (!e->book)
        return MOVE_NONE;
    return book_choose(e->book, &e->root, !e->value[O_BOOK_VARIETY], &e->book_rng);
}

void engine_go(Engine *e, const EngineLimits *limits)
{
    engine_wait(e);
    Move bm = book_move(e, limits);
    if (bm) {
        BookMove moves[MAX_MOVES];
        int n = book_probe(e->book, &e->root, moves, MAX_MOVES);
        uint32_t total = 0, weight = 0;
        for (int i = 0; i < n; i++) {
            total += moves[i].weight;
            if (moves[i].move == bm)
                weight = moves[i].weight;
        }
        char text[8], msg[160];
        move_str(bm, text, e->rank1);
        snprintf(msg, sizeof msg, "book %s (weight %u of %u, %d book moves)", text, weight, total, n);
        if (e->cb.message)
            e->cb.message(e->cb.ctx, msg);
        /* The expected reply, if the book has one, to ponder on. */
        Move ponder = MOVE_NONE;
        pos_do_move(&e->root, bm);
        ponder = book_choose(e->book, &e->root, true, NULL);
        pos_undo_move(&e->root);
        if (e->cb.bestmove)
            e->cb.bestmove(e->cb.ctx, bm, ponder);
        return;
    }
    EngineLimits mine = *limits;
    SearchSettings s = settings(e);
    e->skill = skill_level(e);
    skill_clear(&e->skill_lines);
    skill_limits(e->skill, &mine, &s.multipv);
    cluster_go(e->cluster, &e->root, &mine, &s);
    bool reports = e->cb.info || !skill_full(e->skill);
    start(e, &mine, &s, &(SearchReport){reports ? on_info : NULL, on_bestmove, e});
}

void engine_stop(Engine *e) { pool_stop(e->pool); }
void engine_ponderhit(Engine *e) { pool_ponderhit(e->pool); }
void engine_wait(Engine *e) { pool_wait(e->pool); }
bool engine_searching(Engine *e) { return pool_busy(e->pool); }
bool engine_thinking(Engine *e) { return pool_thinking(e->pool); }

int engine_eval(Engine *e) { return eval_static(e->net, &e->root); }

int engine_ranks(const Engine *e) { return cluster_size(e->cluster); }

void engine_use_ranks(Engine *e, bool on)
{
    engine_wait(e);
    cluster_use(e->cluster, on);
}

TT *engine_table(Engine *e) { return &e->tt; }
ThreadPool *engine_threads(Engine *e) { return e->pool; }

bool engine_probe(Engine *e, const Position *pos, EngineProbe *out)
{
    if (!pos)
        pos = &e->root;
    TTData d;
    if (!tt_probe(&e->tt, pos_key(pos), &d))
        return false;
    /* the move is for this position only if it is legal here */
    out->move = d.move && pos_pseudo_legal(pos, d.move) && pos_legal(pos, d.move) ? d.move : MOVE_NONE;
    out->value = d.value;
    out->depth = d.depth;
    out->bound = (Bound)d.bound;
    return true;
}

static void bench_bestmove(void *ctx, Move best, Move ponder)
{
    (void)ponder;
    ((Engine *)ctx)->bench_move = best;
}

uint64_t engine_bench_search(Engine *e, int depth, Move *best)
{
    engine_new_game(e);
    EngineLimits limits;
    limits_clear(&limits);
    limits.depth = depth;
    SearchSettings s = settings(e);
    start(e, &limits, &s, &(SearchReport){NULL, bench_bestmove, e});
    pool_wait(e->pool);
    if (best)
        *best = e->bench_move;
    return pool_nodes(e->pool);
}
