/* The cluster on ranks other than 0 (cluster.h): an Engine that searches
 * what rank 0 says, driven through the ClusterEngine the engine passed in
 * by the messages polled here, on the thread that called cluster_serve;
 * its search reports its result from the search thread.  The Engine is made at the first message that needs it (a rank
 * that only plays its share of a match never makes one). */
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cluster_private.h"
#include "engine/util/clock.h"

#define STATUS_MS 50 /* how often a searching rank sends its nodes */

typedef struct {
    const ClusterEngine *eng; /* what the engine passed in */
    struct Engine *e;
    bool failed; /* the Engine could not be made: said once */
    Exchange x;
    atomic_uint id;         /* the search running or last run */
    atomic_bool searching;  /* until its result is sent */
    int64_t status_ms;
} Rank;

static void tell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void tell(const char *fmt, ...)
{
    char text[400];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    comm_send(0, COMM_CLUSTER, CM_TEXT, text, n < 0 ? 0 : (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
}

static void on_message(void *ctx, const char *text)
{
    (void)ctx;
    tell("%s", text);
}

/* On the search thread, once per search. */
static void on_bestmove(void *ctx, Move best, Move ponder)
{
    (void)best, (void)ponder;
    Rank *k = ctx;
    Result res;
    memset(&res, 0, sizeof res);
    res.id = atomic_load(&k->id);
    res.nodes = pool_nodes(k->eng->threads(k->e));
    pool_result(k->eng->threads(k->e), &res.r);
    comm_send(0, COMM_CLUSTER, CM_RESULT, &res, sizeof res);
    atomic_store(&k->searching, false);
}

static bool ready(Rank *k)
{
    if (k->e || k->failed)
        return k->e != NULL;
    ClusterCallbacks cb = {NULL, on_bestmove, on_message, k};
    char err[256];
    k->e = k->eng->make(&cb, err, sizeof err);
    if (!k->e || !k->eng->set_option(k->e, "OwnBook", "false", err, sizeof err)) {
        tell("cannot start the engine: %s", err);
        k->eng->free(k->e);
        k->e = NULL;
        k->failed = true;
        return false;
    }
    k->eng->table(k->e)->share = k->x.share;
    return true;
}

/* Between searches: a late one of ours is stopped. */
static void settle(Rank *k)
{
    k->eng->stop(k->e);
    k->eng->wait(k->e);
}

/* A search that cannot run answers at once, with no move. */
static void go(Rank *k, const GoMessage *g, long len)
{
    if (len < (long)offsetof(GoMessage, moves))
        return;
    Result none;
    memset(&none, 0, sizeof none);
    none.id = g->id;
    if (g->nmoves < 0 || g->nmoves > MAX_GAME_PLY
        || len != (long)(offsetof(GoMessage, moves) + sizeof(Move) * (size_t)g->nmoves) || !ready(k)) {
        comm_send(0, COMM_CLUSTER, CM_RESULT, &none, sizeof none);
        return;
    }
    settle(k);
    char err[256], fen[FEN_MAX];
    snprintf(fen, sizeof fen, "%s", g->fen);
    bool ok = k->eng->set_position(k->e, fen, err, sizeof err);
    if (!ok)
        tell("search %u: %s", g->id, err);
    for (int i = 0; ok && i < g->nmoves; i++)
        if (!(ok = k->eng->push_move(k->e, g->moves[i])))
            tell("search %u: move %d of the game is illegal here", g->id, i + 1);
    if (!ok) {
        comm_send(0, COMM_CLUSTER, CM_RESULT, &none, sizeof none);
        return;
    }
    atomic_store(&k->id, g->id);
    atomic_store(&k->searching, true);
    k->status_ms = now_ms();
    k->eng->go(k->e, &g->limits);
}

static void set_option(Rank *k, const char *msg, long len)
{
    if (len < 2 || msg[len - 1] || !ready(k))
        return;
    const char *name = msg, *value = msg + strlen(msg) + 1;
    if (value >= msg + len)
        return;
    settle(k);
    char err[256];
    if (!k->eng->set_option(k->e, name, value, err, sizeof err))
        tell("setoption %s: %s", name, err);
    else if (!strcasecmp(name, "Threads") && cluster_cores_warning(atol(value), err, sizeof err))
        tell("%s", err);
}

int cluster_serve(const ClusterEngine *eng)
{
    Rank k;
    memset(&k, 0, sizeof k);
    k.eng = eng;
    void *buf = malloc(COMM_MAX_MESSAGE);
    if (!buf || !exchange_init(&k.x)) {
        fprintf(stderr, "chuhan: rank %d: out of memory\n", comm_rank());
        free(buf);
        return 1;
    }
    comm_send(0, COMM_CLUSTER, CM_HELLO, &CLUSTER_HELLO, sizeof(Hello));
    for (bool end = false; !end;) {
        int from, type;
        long len;
        while (!end && (len = comm_poll(COMM_CLUSTER, &from, &type, buf, COMM_MAX_MESSAGE)) >= 0) {
            if (from == 0 && type == CM_END)
                end = true;
            else if (from == 0 && type == CM_GO)
                go(&k, buf, len);
            else if (from == 0 && type == CM_STOP && len == sizeof(uint32_t)) {
                if (k.e && *(uint32_t *)buf == atomic_load(&k.id))
                    k.eng->stop(k.e);
            } else if (from == 0 && type == CM_OPTION)
                set_option(&k, buf, len);
            else if (from == 0 && type == CM_NEWGAME) {
                if (ready(&k))
                    k.eng->new_game(k.e);
            } else if (type == CM_TT && k.e)
                exchange_merge(&k.x, k.eng->table(k.e), buf, len);
        }
        int64_t now = now_ms();
        if (atomic_load(&k.searching) && now - k.status_ms >= STATUS_MS) {
            Status s = {atomic_load(&k.id), pool_nodes(k.eng->threads(k.e))};
            comm_send(0, COMM_CLUSTER, CM_STATUS, &s, sizeof s);
            k.status_ms = now;
        }
        exchange_send(&k.x, NULL);
        if (!end)
            cluster_nap();
    }
    k.eng->free(k.e); /* stops and waits for a search */
    exchange_free(&k.x);
    free(buf);
    comm_send(0, COMM_CLUSTER, CM_BYE, NULL, 0);
    return 0;
}
