/* The cluster on rank 0 (cluster.h): what its engine broadcasts, and the
 * courier, a thread that takes every message that arrives (the other
 * ranks' nodes, results, reports and table entries), watches that each
 * searching rank is heard from, and sends this rank's table entries. */
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cluster_private.h"
#include "engine/util/clock.h"
#include "engine/util/host.h"
#include "search/vote.h"

typedef struct {
    bool started;     /* it has said hello: it is waited for */
    int64_t heard_ms; /* its last message */
    bool silent;      /* not heard from, or no answer to a stop: left out until it speaks */
    bool lost;        /* another build, or a send to it failed: left out for good */
    uint64_t nodes;   /* in the running search */
    bool answered;    /* its result for the running search is in */
    Result result;
} Peer;

struct Cluster {
    TT *tt;
    ThreadPool *pool;
    ClusterCallbacks cb;
    int size;
    Exchange x;
    pthread_t courier;
    atomic_bool quit;
    pthread_mutex_t lock; /* guards what follows */
    bool on;              /* the other ranks search with this one */
    bool searching;       /* from cluster_go to the end of cluster_collect */
    bool vote;            /* the search votes (one line, no depth limit: as the threads) */
    bool one_line;        /* MultiPV 1 */
    int64_t answer_ms;    /* how long the results are waited for */
    uint32_t id;          /* the running (or last) search */
    int64_t go_ms;
    bool announced;
    Peer *peers; /* by rank; [0] unused */
    Position *scratch;
    GoMessage *go;
    void *buf; /* COMM_MAX_MESSAGE, the courier's */
};

/* The cluster belongs to the first engine made on rank 0 (the protocol's):
 * MPI is the process's, and so is the claim on it.  SIGTERM is how the
 * MPI runtime ends a job (mpirun does, a second before SIGKILL, when a
 * rank dies); the handler only raises this flag. */
static atomic_bool claimed;
static volatile sig_atomic_t terminated;
/* The ranks left out when the cluster was detached (by rank; NULL: none
 * known): the end of the job waits for them only CLUSTER_BYE_SILENT_MS.
 * Written by cluster_detach, read by cluster_end_job, both on the thread
 * that ends the program. */
static bool *left_out;

static void on_sigterm(int sig)
{
    (void)sig;
    terminated = 1;
}

static void say(Cluster *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(Cluster *c, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (c->cb.message)
        c->cb.message(c->cb.ctx, text);
}

/* Send to every rank not lost; one that refuses is silent from now. */
static void broadcast(Cluster *c, int type, const void *data, size_t len)
{
    for (int r = 1; r < c->size; r++) {
        pthread_mutex_lock(&c->lock);
        bool lost = c->peers[r].lost;
        pthread_mutex_unlock(&c->lock);
        if (lost || comm_send(r, COMM_CLUSTER, type, data, len))
            continue;
        pthread_mutex_lock(&c->lock);
        bool was = c->peers[r].silent;
        c->peers[r].silent = true;
        pthread_mutex_unlock(&c->lock);
        if (!was)
            say(c, "cluster: rank %d does not take messages; searching on without it", r);
    }
}

/* ---- the courier ---- */

static void take(Cluster *c, int from, int type, const void *msg, long len)
{
    if (from <= 0 || from >= c->size)
        return;
    int64_t now = now_ms();
    pthread_mutex_lock(&c->lock);
    Peer *p = &c->peers[from];
    p->heard_ms = now;
    p->started = true;
    bool back = p->silent && !p->lost;
    if (back)
        p->silent = false;
    pthread_mutex_unlock(&c->lock);
    if (back)
        say(c, "cluster: rank %d answers again", from);
    switch (type) {
    case CM_HELLO:
        if (len != (long)sizeof(Hello) || memcmp(msg, &CLUSTER_HELLO, sizeof(Hello))) {
            pthread_mutex_lock(&c->lock);
            p->lost = p->silent = true;
            pthread_mutex_unlock(&c->lock);
            say(c, "cluster: rank %d runs another build of chuhan; left out", from);
        }
        break;
    case CM_TT:
        /* Only while this rank searches: between searches the table may be
         * cleared or resized. */
        pthread_mutex_lock(&c->lock);
        if (c->searching)
            exchange_merge(&c->x, c->tt, msg, len);
        pthread_mutex_unlock(&c->lock);
        break;
    case CM_STATUS:
        if (len == (long)sizeof(Status)) {
            const Status *s = msg;
            pthread_mutex_lock(&c->lock);
            if (s->id == c->id && !p->answered)
                p->nodes = s->nodes;
            pthread_mutex_unlock(&c->lock);
        }
        break;
    case CM_RESULT:
        if (len == (long)sizeof(Result)) {
            const Result *r = msg;
            pthread_mutex_lock(&c->lock);
            if (r->id == c->id) {
                p->result = *r;
                p->nodes = r->nodes;
                p->answered = true;
            }
            pthread_mutex_unlock(&c->lock);
        }
        break;
    case CM_TEXT:
        if (len > 0) {
            char text[400];
            snprintf(text, sizeof text, "%.*s", (int)len, (const char *)msg);
            say(c, "rank %d: %s", from, text);
        }
        break;
    default:
        break;
    }
}

/* The job is being ended under us: play what the search has, and go. */
static void terminate(Cluster *c)
{
    say(c, "cluster: the MPI runtime is ending the job (a rank died, or mpirun was stopped)");
    pthread_mutex_lock(&c->lock);
    bool searching = c->searching;
    for (int r = 1; r < c->size; r++)
        c->peers[r].silent = true;
    pthread_mutex_unlock(&c->lock);
    if (searching) {
        pool_stop(c->pool);
        int64_t deadline = now_ms() + 500;
        for (;;) {
            pthread_mutex_lock(&c->lock);
            searching = c->searching;
            pthread_mutex_unlock(&c->lock);
            if (!searching || now_ms() > deadline)
                break;
            cluster_nap();
        }
    }
    fflush(NULL);
    _exit(1);
}

static void *courier_main(void *arg)
{
    Cluster *c = arg;
    bool *skip = malloc(sizeof(bool) * (size_t)c->size);
    while (!atomic_load(&c->quit)) {
        if (terminated)
            terminate(c);
        int from, type;
        long len;
        while ((len = comm_poll(COMM_CLUSTER, &from, &type, c->buf, COMM_MAX_MESSAGE)) >= 0)
            take(c, from, type, c->buf, len);
        int64_t now = now_ms();
        int quiet[16], nquiet = 0;
        pthread_mutex_lock(&c->lock);
        for (int r = 1; r < c->size; r++) {
            Peer *p = &c->peers[r];
            if (c->searching && p->started && !p->silent && !p->answered && now - p->heard_ms > CLUSTER_SILENT_MS) {
                p->silent = true;
                if (nquiet < 16)
                    quiet[nquiet++] = r;
            }
            if (skip)
                skip[r] = p->silent || p->lost;
        }
        pthread_mutex_unlock(&c->lock);
        for (int i = 0; i < nquiet; i++)
            say(c, "cluster: rank %d silent for %d ms; searching on without it", quiet[i], CLUSTER_SILENT_MS);
        if (skip)
            skip[0] = true;
        exchange_send(&c->x, skip);
        cluster_nap();
    }
    free(skip);
    return NULL;
}

/* ---- rank 0's engine ---- */

/* What cluster_attach made, and the claim. */
static void release(Cluster *c)
{
    if (c) {
        exchange_free(&c->x);
        pthread_mutex_destroy(&c->lock);
        free(c->peers);
        free(c->scratch);
        free(c->go);
        free(c->buf);
        free(c);
    }
    atomic_store(&claimed, false);
}

Cluster *cluster_attach(TT *tt, ThreadPool *pool, const ClusterCallbacks *cb, char *err, size_t errlen)
{
    if (comm_size() < 2 || comm_rank() != 0 || atomic_exchange(&claimed, true))
        return NULL;
    Cluster *c = calloc(1, sizeof *c);
    if (c) {
        c->tt = tt;
        c->pool = pool;
        c->cb = *cb;
        c->size = comm_size();
        c->on = true;
        pthread_mutex_init(&c->lock, NULL);
        c->peers = calloc((size_t)c->size, sizeof *c->peers);
        c->scratch = malloc(sizeof *c->scratch);
        c->go = malloc(sizeof *c->go);
        c->buf = malloc(COMM_MAX_MESSAGE);
    }
    if (!c || !c->peers || !c->scratch || !c->go || !c->buf || !exchange_init(&c->x)) {
        snprintf(err, errlen, "out of memory for the cluster");
        goto fail;
    }
    int64_t now = now_ms();
    for (int r = 1; r < c->size; r++)
        c->peers[r].heard_ms = now;
    if (pthread_create(&c->courier, NULL, courier_main, c)) {
        snprintf(err, errlen, "cannot start the cluster's thread");
        goto fail;
    }
    host_on_terminate(on_sigterm);
    return c;
fail:
    release(c);
    return NULL;
}

void cluster_detach(Cluster *c)
{
    if (!c)
        return;
    atomic_store(&c->quit, true);
    pthread_join(c->courier, NULL);
    free(left_out);
    left_out = calloc((size_t)c->size, sizeof *left_out);
    for (int r = 1; r < c->size && left_out; r++)
        left_out[r] = c->peers[r].silent || c->peers[r].lost;
    c->tt->share = NULL;
    release(c);
}

int cluster_size(const Cluster *c) { return c ? c->size : 1; }

void cluster_use(Cluster *c, bool on)
{
    if (!c)
        return;
    pthread_mutex_lock(&c->lock);
    c->on = on;
    pthread_mutex_unlock(&c->lock);
}

bool cluster_in_use(const Cluster *c) { return c && c->on; }

void cluster_option(Cluster *c, const char *name, const char *value)
{
    /* The book is rank 0's: the others never play from it. */
    if (!c || !strncasecmp(name, "Book", 4) || !strcasecmp(name, "OwnBook"))
        return;
    char msg[1400];
    size_t n = strlen(name), v = value ? strlen(value) : 0;
    if (n + v + 2 > sizeof msg)
        return;
    memcpy(msg, name, n + 1);
    memcpy(msg + n + 1, value ? value : "", v + 1);
    broadcast(c, CM_OPTION, msg, n + v + 2);
    char text[256];
    if (!strcasecmp(name, "Threads") && value && cluster_cores_warning(atol(value), text, sizeof text))
        say(c, "rank 0: %s", text);
}

void cluster_new_game(Cluster *c)
{
    if (c)
        broadcast(c, CM_NEWGAME, NULL, 0);
}

void cluster_go(Cluster *c, const Position *root, SearchLimits *limits, const SearchSettings *settings)
{
    int multipv = settings->multipv;
    bool clock = !limits->infinite && (limits->movetime > 0 || limits->time[root->side] >= 0);
    if (!c || !c->on)
        return;
    if (!c->announced) {
        c->announced = true;
        say(c, "cluster: %d ranks (%s)", c->size, comm_name());
    }
    /* The game as its first position and its moves. */
    GoMessage *g = c->go;
    Position *pos = c->scratch;
    pos_copy(pos, root);
    g->nmoves = pos->top;
    for (int i = 0; i < pos->top; i++)
        g->moves[i] = pos->st[i + 1].move;
    while (pos->top)
        pos_undo_move(pos);
    pos_fen(pos, g->fen);
    /* Rank 0 keeps the clock and tells the others when to stop: they
     * search without one, to a depth, a mate or a share of the nodes. */
    g->limits = *limits;
    g->limits.time[RED] = g->limits.time[BLACK] = g->limits.inc[RED] = g->limits.inc[BLACK] = -1;
    g->limits.movestogo = 0;
    g->limits.movetime = 0;
    g->limits.infinite = g->limits.ponder = false;
    if (limits->nodes) {
        uint64_t share = limits->nodes / (uint64_t)c->size;
        g->limits.nodes = share ? share : 1;
        limits->nodes = limits->nodes - share * (uint64_t)(c->size - 1);
    }
    int64_t now = now_ms();
    pthread_mutex_lock(&c->lock);
    g->id = ++c->id;
    c->searching = true;
    c->tt->share = c->x.share; /* this search's deep entries go to the others */
    c->vote = multipv <= 1 && !limits->depth;
    c->one_line = multipv <= 1;
    c->answer_ms = clock ? (settings->move_overhead / 2 > 5 ? settings->move_overhead / 2 : 5) : CLUSTER_ANSWER_MS;
    c->go_ms = now;
    for (int r = 1; r < c->size; r++) {
        Peer *p = &c->peers[r];
        p->nodes = 0;
        p->answered = false;
        if (!p->silent)
            p->heard_ms = now;
    }
    pthread_mutex_unlock(&c->lock);
    broadcast(c, CM_GO, g, offsetof(GoMessage, moves) + sizeof(Move) * (size_t)g->nmoves);
}

uint64_t cluster_nodes(Cluster *c)
{
    uint64_t n = 0;
    if (!c)
        return 0;
    pthread_mutex_lock(&c->lock);
    if (c->searching)
        for (int r = 1; r < c->size; r++)
            n += c->peers[r].nodes;
    pthread_mutex_unlock(&c->lock);
    return n;
}

void cluster_collect(Cluster *c, Move *best, Move *ponder)
{
    if (!c)
        return;
    pthread_mutex_lock(&c->lock);
    bool searching = c->searching;
    uint32_t id = c->id;
    pthread_mutex_unlock(&c->lock);
    if (!searching)
        return;
    broadcast(c, CM_STOP, &id, sizeof id);

    pthread_mutex_lock(&c->lock);
    int64_t wait = c->answer_ms;
    pthread_mutex_unlock(&c->lock);
    int64_t deadline = now_ms() + wait;
    for (;;) {
        bool all = true;
        pthread_mutex_lock(&c->lock);
        for (int r = 1; r < c->size; r++)
            all &= c->peers[r].answered || !c->peers[r].started || c->peers[r].silent || c->peers[r].lost;
        pthread_mutex_unlock(&c->lock);
        if (all || terminated || now_ms() >= deadline)
            break;
        cluster_nap();
    }

    SearchResult played; /* rank 0's, then the winner's */
    pool_result(c->pool, &played);
    int n = c->size;
    Ballot *ballots = malloc(sizeof(Ballot) * (size_t)n);
    uint64_t nodes = pool_nodes(c->pool);
    int late[16], nlate = 0;
    pthread_mutex_lock(&c->lock);
    for (int r = 1; r < n; r++) {
        Peer *p = &c->peers[r];
        /* Late on a clock is only late; a second without an answer is silence. */
        if (!p->answered && p->started && !p->silent && !p->lost && wait >= CLUSTER_ANSWER_MS) {
            p->silent = true;
            if (nlate < 16)
                late[nlate++] = r;
        }
        nodes += p->nodes;
        if (ballots)
            ballots[r] = p->answered ? (Ballot){p->result.r.move, p->result.r.score, p->result.r.depth}
                                     : (Ballot){MOVE_NONE, 0, 0};
    }
    bool vote = c->vote, one_line = c->one_line;
    c->searching = false;
    c->tt->share = NULL;
    pthread_mutex_unlock(&c->lock);
    for (int i = 0; i < nlate; i++)
        say(c, "cluster: rank %d did not answer the stop within %d ms; its vote is left out", late[i],
            CLUSTER_ANSWER_MS);
    int w = 0;
    if (ballots && vote && *best) {
        ballots[0] = (Ballot){played.move, played.score, played.depth};
        w = search_vote(ballots, n);
    }
    free(ballots);
    const SearchResult *r = &played;
    if (w) {
        pthread_mutex_lock(&c->lock);
        played = c->peers[w].result.r;
        pthread_mutex_unlock(&c->lock);
        *best = r->move;
        *ponder = r->ponder;
    }
    /* The line of the move played, with the nodes of every rank: the
     * GUI's last word on the search. */
    if (c->cb.info && one_line && *best && r->depth > 0) {
        SearchInfo info;
        memset(&info, 0, sizeof info);
        info.depth = r->depth;
        info.seldepth = r->seldepth > r->depth ? r->seldepth : r->depth;
        info.multipv = 1;
        info.score = r->score;
        info.bound = BOUND_EXACT;
        info.nodes = nodes;
        info.time_ms = now_ms() - c->go_ms;
        info.hashfull = tt_hashfull(c->tt);
        info.pv_len = r->pv_len;
        memcpy(info.pv, r->pv, sizeof(Move) * (size_t)r->pv_len);
        c->cb.info(c->cb.ctx, &info);
    }
}

/* ---- the end of the job ---- */

bool cluster_end_job(void)
{
    int n = comm_size();
    if (n < 2)
        return true;
    bool *bye = calloc((size_t)n, sizeof *bye);
    void *buf = malloc(COMM_MAX_MESSAGE);
    if (!bye || !buf) {
        free(bye);
        free(buf);
        return false;
    }
    int left = n - 1;
    bool quiet = false, unreachable = false;
    for (int r = 1; r < n; r++) {
        quiet |= left_out && left_out[r];
        if (!comm_send(r, COMM_CLUSTER, CM_END, NULL, 0)) {
            fprintf(stderr, "chuhan: rank %d cannot be reached (it died or hangs)\n", r);
            unreachable = true;
        }
    }
    /* A rank left out is waited for less; one that cannot be reached, not
     * at all: the job cannot end cleanly. */
    int64_t start = now_ms(), wait = unreachable ? 0 : quiet ? CLUSTER_BYE_SILENT_MS : CLUSTER_BYE_MS;
    while (left > 0 && !terminated && now_ms() - start < wait) {
        int from, type;
        long len;
        while ((len = comm_poll(COMM_CLUSTER, &from, &type, buf, COMM_MAX_MESSAGE)) >= 0)
            if (type == CM_BYE && from > 0 && from < n && !bye[from]) {
                bye[from] = true;
                left--;
            }
        if (left)
            cluster_nap();
    }
    if (terminated)
        fprintf(stderr, "chuhan: the MPI runtime ended the job (a rank died, or mpirun was stopped)\n");
    else if (!unreachable)
        for (int r = 1; r < n; r++)
            if (!bye[r])
                fprintf(stderr, "chuhan: rank %d did not answer the end of the job%s\n", r,
                        left_out && left_out[r] ? " (it was left out: it died or hangs)" : "");
    free(bye);
    free(buf);
    free(left_out);
    left_out = NULL;
    return left == 0 && !terminated && !unreachable;
}
