#include "threads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/board/movegen.h"
#include "engine/util/pages.h"
#include "eval/eval.h"
#include "search_private.h"

_Static_assert((int)BOUND_UPPER == (int)TT_BOUND_UPPER && (int)BOUND_LOWER == (int)TT_BOUND_LOWER
                   && (int)BOUND_EXACT == (int)TT_BOUND_EXACT,
               "a reported bound is the table's");

typedef struct {
    pthread_t tid;
    ThreadPool *pool;
    SearchThread *th;
    bool searching; /* guarded by the pool mutex */
    bool exit;
} Worker;

struct ThreadPool {
    pthread_mutex_t mutex;
    pthread_cond_t wake;  /* a worker has work, or must exit */
    pthread_cond_t done;  /* a worker finished; the search finished */
    Worker *workers;
    SearchThread **threads;
    int count;
    bool busy; /* a search is running (until its best move is reported) */
    SearchShared shared;
    SearchResult result; /* of the last search, written before its move is reported */
    void (*on_bestmove)(void *ctx, Move best, Move ponder);
    void *ctx;
};

static void main_search(ThreadPool *pool);

static void *worker_loop(void *arg)
{
    Worker *w = arg;
    ThreadPool *pool = w->pool;
    pthread_mutex_lock(&pool->mutex);
    for (;;) {
        while (!w->searching && !w->exit)
            pthread_cond_wait(&pool->wake, &pool->mutex);
        if (w->exit)
            break;
        pthread_mutex_unlock(&pool->mutex);
        if (w->th->id == 0)
            main_search(pool);
        else
            search_iterate(w->th);
        pthread_mutex_lock(&pool->mutex);
        /* Both flags drop under one lock: a new search may be started the
         * moment busy is false. */
        w->searching = false;
        if (w->th->id == 0)
            pool->busy = false;
        pthread_cond_broadcast(&pool->done);
    }
    pthread_mutex_unlock(&pool->mutex);
    return NULL;
}

static Move ponder_move(SearchThread *th, Move best)
{
    const RootMove *rm = &th->root_moves[0];
    if (rm->pv_len >= 2)
        return rm->pv[1];
    /* Ask the table for the reply. */
    Position *pos = &th->pos;
    if (!best || pos_room(pos) < 1)
        return MOVE_NONE;
    pos_do_move(pos, best);
    TTData tte;
    Move reply = MOVE_NONE;
    if (tt_probe(th->shared->tt, pos_key(pos), &tte) && tte.move && pos_pseudo_legal(pos, tte.move)
        && pos_legal(pos, tte.move))
        reply = tte.move;
    pos_undo_move(pos);
    return reply;
}

/* A search stopped before its first iteration completed has its root
 * moves still in the order generated, the first of them a move no one
 * chose.  Put in front the table's move for the root when it is legal,
 * otherwise the best by a one-ply look (a move that mates, else the
 * evaluation after it, a move that loses its exchange last), with that
 * evaluation as its score. */
static void choose_unsearched(SearchThread *th)
{
    if (th->completed_depth > 0 || th->root_count == 0)
        return;
    Position *pos = &th->pos;
    int pick = -1, pick_score = -VALUE_INFINITE;
    TTData tte;
    Move tt_move = tt_probe(th->shared->tt, pos_key(pos), &tte) ? tte.move : MOVE_NONE;
    for (int i = 0; i < th->root_count && pos_room(pos) >= 1; i++) {
        Move m = th->root_moves[i].move;
        bool loses_material = !pos_see_ge(pos, m, 0); /* the exchange on its square */
        pos_do_move(pos, m);
        int v = count_legal(pos) == 0 ? mate_in(1) : -eval_static(th->shared->net, pos) - (loses_material ? 1000 : 0);
        pos_undo_move(pos);
        if (m == tt_move) {
            pick = i, pick_score = v;
            break;
        }
        if (v > pick_score)
            pick = i, pick_score = v;
    }
    if (pick < 0)
        return;
    RootMove chosen = th->root_moves[pick];
    memmove(&th->root_moves[1], &th->root_moves[0], sizeof chosen * (size_t)pick);
    chosen.score = pick_score;
    chosen.pv[0] = chosen.move;
    chosen.pv_len = 1;
    th->root_moves[0] = chosen;
}

/* The main thread's whole search: wake the helpers, search, wait for stop
 * when pondering or infinite, collect the helpers, report the move. */
static void main_search(ThreadPool *pool)
{
    SearchShared *sh = &pool->shared;
    SearchThread *main_th = pool->threads[0];

    pthread_mutex_lock(&pool->mutex);
    for (int i = 1; i < pool->count; i++)
        pool->workers[i].searching = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);

    search_iterate(main_th);

    /* In ponder or infinite mode the move waits for stop or ponderhit,
     * whatever ended the search itself: a depth or node cap (a weaker
     * Skill Level sets both), a mate found. */
    pthread_mutex_lock(&pool->mutex);
    while (!atomic_load(&sh->stop_asked) && (atomic_load(&sh->pondering) || sh->limits.infinite))
        pthread_cond_wait(&pool->done, &pool->mutex);
    atomic_store(&sh->stop, true);
    for (int i = 1; i < pool->count; i++)
        while (pool->workers[i].searching)
            pthread_cond_wait(&pool->done, &pool->mutex);
    pthread_mutex_unlock(&pool->mutex);

    SearchThread *best = search_best_thread(sh);
    choose_unsearched(best);
    Move move = best->root_count ? best->root_moves[0].move : MOVE_NONE;
    Move ponder = move ? ponder_move(best, move) : MOVE_NONE;
    if (best != main_th && sh->on_info && best->root_count) {
        /* Show the line of the move played when a helper's won the vote. */
        SearchInfo info;
        const RootMove *rm = &best->root_moves[0];
        memset(&info, 0, sizeof info);
        info.depth = best->completed_depth;
        info.seldepth = rm->seldepth > info.depth ? rm->seldepth : info.depth;
        info.multipv = 1;
        info.score = rm->score;
        info.bound = BOUND_EXACT;
        info.nodes = search_nodes(sh);
        info.time_ms = tm_elapsed(&sh->tm, now_ms());
        info.hashfull = tt_hashfull(sh->tt);
        info.pv_len = rm->pv_len;
        memcpy(info.pv, rm->pv, sizeof(Move) * (size_t)rm->pv_len);
        sh->on_info(sh->ctx, &info);
    }
    SearchResult *res = &pool->result;
    const RootMove *rm = &best->root_moves[0];
    res->move = move;
    res->ponder = ponder;
    res->score = best->root_count ? rm->score : 0;
    res->depth = best->root_count ? best->completed_depth : 0;
    res->seldepth = best->root_count ? rm->seldepth : 0;
    res->pv_len = best->root_count ? rm->pv_len : 0;
    memcpy(res->pv, rm->pv, sizeof(Move) * (size_t)res->pv_len);
    pool->on_bestmove(pool->ctx, move, ponder);
}

static void stop_workers(ThreadPool *pool)
{
    pthread_mutex_lock(&pool->mutex);
    for (int i = 0; i < pool->count; i++)
        pool->workers[i].exit = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
    for (int i = 0; i < pool->count; i++)
        pthread_join(pool->workers[i].tid, NULL);
    for (int i = 0; i < pool->count; i++)
        pages_free(pool->threads[i], sizeof(SearchThread));
    free(pool->workers);
    free(pool->threads);
    pool->workers = NULL;
    pool->threads = NULL;
    pool->count = 0;
}

static bool start_workers(ThreadPool *pool, int n, char *err, size_t errlen)
{
    pool->workers = calloc((size_t)n, sizeof(Worker));
    pool->threads = calloc((size_t)n, sizeof(SearchThread *));
    if (!pool->workers || !pool->threads) {
        free(pool->workers);
        free(pool->threads);
        pool->workers = NULL;
        pool->threads = NULL;
        snprintf(err, errlen, "out of memory for %d threads", n);
        return false;
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 8u << 20); /* deep recursion: 8 MB a thread */
    for (int i = 0; i < n; i++) {
        SearchThread *th = pages_alloc(sizeof(SearchThread), false);
        if (th) {
            th->id = i;
            pool->threads[i] = th;
            pool->workers[i].th = th;
            pool->workers[i].pool = pool;
        }
        if (!th || pthread_create(&pool->workers[i].tid, &attr, worker_loop, &pool->workers[i]) != 0) {
            pages_free(th, sizeof(SearchThread));
            pool->threads[i] = NULL;
            pool->count = i;
            pthread_attr_destroy(&attr);
            stop_workers(pool);
            snprintf(err, errlen, "cannot start %d threads (stopped at %d)", n, i);
            return false;
        }
        pool->count = i + 1;
    }
    pthread_attr_destroy(&attr);
    return true;
}

ThreadPool *pool_new(int threads, char *err, size_t errlen)
{
    ThreadPool *pool = calloc(1, sizeof *pool);
    if (!pool) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pthread_cond_init(&pool->done, NULL);
    if (!start_workers(pool, threads, err, errlen)) {
        pthread_mutex_destroy(&pool->mutex);
        pthread_cond_destroy(&pool->wake);
        pthread_cond_destroy(&pool->done);
        free(pool);
        return NULL;
    }
    return pool;
}

void pool_free(ThreadPool *pool)
{
    if (!pool)
        return;
    pool_stop(pool);
    pool_wait(pool);
    stop_workers(pool);
    pthread_mutex_destroy(&pool->mutex);
    pthread_cond_destroy(&pool->wake);
    pthread_cond_destroy(&pool->done);
    free(pool);
}

bool pool_resize(ThreadPool *pool, int threads, char *err, size_t errlen)
{
    if (threads < 1 || threads > MAX_THREADS) {
        snprintf(err, errlen, "Threads must be from 1 to %d", MAX_THREADS);
        return false;
    }
    pool_wait(pool);
    if (threads == pool->count)
        return true;
    int old = pool->count;
    stop_workers(pool);
    if (start_workers(pool, threads, err, errlen))
        return true;
    char ignored[128];
    start_workers(pool, old, ignored, sizeof ignored); /* back to what worked */
    return false;
}

int pool_size(const ThreadPool *pool) { return pool->count; }
SearchThread *pool_thread(ThreadPool *pool, int i) { return pool->threads[i]; }

void pool_new_game(ThreadPool *pool)
{
    pool_wait(pool);
    for (int i = 0; i < pool->count; i++)
        search_clear(pool->threads[i]);
}

void pool_start(ThreadPool *pool, TT *tt, const Position *root, const SearchLimits *limits,
                const SearchSettings *settings, const SearchReport *report)
{
    pool_wait(pool);
    SearchShared *sh = &pool->shared;
    sh->tt = tt;
    sh->limits = *limits;
    if (sh->limits.depth > MAX_PLY - 4)
        sh->limits.depth = MAX_PLY - 4;
    sh->multipv = settings->multipv;
    sh->rule = settings->rule;
    sh->sixty_move_plies = settings->sixty_move_plies;
    sh->net = settings->net;
    atomic_store(&sh->stop, false);
    atomic_store(&sh->stop_asked, false);
    atomic_store(&sh->pondering, limits->ponder);
    atomic_store(&sh->stop_on_ponderhit, false);
    tm_init(&sh->tm, &sh->limits, root->side, settings->move_overhead, now_ms());
    sh->on_info = report->info;
    sh->ctx = report->ctx;
    tt_new_search(tt);
    sh->threads = pool->threads;
    sh->thread_count = pool->count;
    for (int i = 0; i < pool->count; i++) {
        SearchThread *th = pool->threads[i];
        th->shared = sh;
        pos_copy(&th->pos, root);
        atomic_store_explicit(&th->nodes, 0, memory_order_relaxed);
        th->calls = 0;
        search_init_root(th);
    }
    pthread_mutex_lock(&pool->mutex);
    pool->on_bestmove = report->bestmove;
    pool->ctx = report->ctx;
    pool->busy = true;
    pool->workers[0].searching = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
}

void pool_stop(ThreadPool *pool)
{
    pthread_mutex_lock(&pool->mutex);
    if (pool->busy) {
        atomic_store(&pool->shared.stop_asked, true);
        atomic_store(&pool->shared.stop, true);
        pthread_cond_broadcast(&pool->done);
    }
    pthread_mutex_unlock(&pool->mutex);
}

void pool_ponderhit(ThreadPool *pool)
{
    pthread_mutex_lock(&pool->mutex);
    if (pool->busy) {
        SearchShared *sh = &pool->shared;
        atomic_store(&sh->pondering, false);
        if (atomic_load(&sh->stop_on_ponderhit))
            atomic_store(&sh->stop, true);
        pthread_cond_broadcast(&pool->done);
    }
    pthread_mutex_unlock(&pool->mutex);
}

void pool_wait(ThreadPool *pool)
{
    pthread_mutex_lock(&pool->mutex);
    while (pool->busy)
        pthread_cond_wait(&pool->done, &pool->mutex);
    pthread_mutex_unlock(&pool->mutex);
}

bool pool_busy(ThreadPool *pool)
{
    pthread_mutex_lock(&pool->mutex);
    bool busy = pool->busy;
    pthread_mutex_unlock(&pool->mutex);
    return busy;
}

bool pool_thinking(ThreadPool *pool)
{
    pthread_mutex_lock(&pool->mutex);
    /* A search that ended by itself but holds its move until stop or
     * ponderhit is still thinking, as far as the protocols can tell. */
    SearchShared *sh = &pool->shared;
    bool thinking = pool->busy && !atomic_load(&sh->stop_asked)
                    && (!atomic_load(&sh->stop) || sh->limits.infinite || atomic_load(&sh->pondering));
    pthread_mutex_unlock(&pool->mutex);
    return thinking;
}

uint64_t pool_nodes(ThreadPool *pool) { return pool->shared.threads ? search_nodes(&pool->shared) : 0; }

void pool_result(ThreadPool *pool, SearchResult *out) { *out = pool->result; }
