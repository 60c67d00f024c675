/* The table entries every rank of a cluster sends the others, and the
 * little both sides of the cluster share. */
#include <stdio.h>
#include <time.h>

#include "cluster_private.h"
#include "engine/util/clock.h"
#include "engine/util/host.h"

bool exchange_init(Exchange *x)
{
    *x = (Exchange){0};
    /* a second's worth of entries at the budget */
    x->share = tt_share_new(CLUSTER_INBOUND, CLUSTER_MIN_DEPTH);
    x->window_ms = now_ms();
    return x->share != NULL;
}

void exchange_free(Exchange *x)
{
    tt_share_free(x->share);
    x->share = NULL;
}

static void flush(Exchange *x, const bool *skip)
{
    for (int r = 0; r < comm_size(); r++)
        if (r != comm_rank() && !(skip && skip[r]) && comm_pending(r) < CLUSTER_TT_PENDING)
            comm_send(r, COMM_CLUSTER, CM_TT, x->batch, sizeof(TTRecord) * (size_t)x->count);
    x->sent += (uint64_t)x->count;
    x->count = 0;
}

/* Every 100 ms: a threshold one deeper when more was queued than the
 * other ranks should receive (each depth about halves the entries), one
 * shallower when far less. */
static void adapt(Exchange *x, int64_t now)
{
    if (now - x->window_ms < 100)
        return;
    uint64_t queued = tt_share_stats(x->share).queued;
    uint64_t n = queued - x->window_start;
    uint64_t budget = (uint64_t)CLUSTER_INBOUND / (uint64_t)(comm_size() > 1 ? comm_size() - 1 : 1) / 10;
    int depth = tt_share_depth(x->share);
    if (n > budget && depth < 60)
        tt_share_set_depth(x->share, depth + 1);
    else if (n < budget / 4 && depth > CLUSTER_MIN_DEPTH)
        tt_share_set_depth(x->share, depth - 1);
    x->window_ms = now;
    x->window_start = queued;
}

void exchange_send(Exchange *x, const bool *skip)
{
    int64_t now = now_ms();
    for (;;) {
        int n = tt_share_take(x->share, x->batch + x->count, CLUSTER_BATCH - x->count);
        if (n && !x->count)
            x->first_ms = now;
        x->count += n;
        if (x->count < CLUSTER_BATCH)
            break;
        flush(x, skip);
    }
    if (x->count && now - x->first_ms >= CLUSTER_BATCH_MS)
        flush(x, skip);
    adapt(x, now);
}

void exchange_merge(Exchange *x, TT *tt, const void *msg, long len)
{
    const TTRecord *r = msg;
    long n = len / (long)sizeof(TTRecord);
    for (long i = 0; i < n; i++)
        tt_merge(tt, &r[i]);
    x->received += (uint64_t)n;
}

void cluster_nap(void) { nanosleep(&(struct timespec){0, 1000000}, NULL); }

bool cluster_cores_warning(long threads, char *text, size_t len)
{
    int cores = host_cpus();
    if (threads <= cores)
        return false;
    snprintf(text, len,
             "%ld threads on %d core%s: mpirun binds each rank to cores (run it with --bind-to none, or give "
             "each rank its cores with --map-by ppr:1:node:pe=N)",
             threads, cores, cores == 1 ? "" : "s");
    return true;
}
