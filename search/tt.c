#include "tt.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/util/host.h"
#include "engine/util/pages.h"
#include "tt_share.h"

static inline uint64_t pack(Move move, int value, int eval, int depth, int bound, bool pv, uint8_t gen)
{
    if (depth > TT_DEPTH_MAX)
        depth = TT_DEPTH_MAX;
    if (depth < -TT_DEPTH_OFFSET)
        depth = -TT_DEPTH_OFFSET;
    return (uint64_t)move | (uint64_t)(uint16_t)(int16_t)value << 16 | (uint64_t)(uint16_t)(int16_t)eval << 32
         | (uint64_t)(uint8_t)(depth + TT_DEPTH_OFFSET) << 48 | (uint64_t)(bound & 3) << 56 | (uint64_t)pv << 58
         | (uint64_t)(gen & 31) << 59;
}

static inline int entry_depth(uint64_t d) { return (int)(uint8_t)(d >> 48) - TT_DEPTH_OFFSET; }
static inline int entry_gen(uint64_t d) { return (int)(d >> 59); }

typedef struct {
    char *start;
    size_t len;
} ClearJob;

static void *clear_part(void *arg)
{
    ClearJob *job = arg;
    memset(job->start, 0, job->len);
    return NULL;
}

void tt_clear(TT *tt, int threads)
{
    if (!tt->table)
        return;
    if (threads < 1)
        threads = 1;
    if (threads > 64)
        threads = 64;
    /* Small tables are not worth the threads. */
    if (tt->bytes < ((size_t)64 << 20))
        threads = 1;
    pthread_t tid[64];
    bool started[64] = {false};
    ClearJob jobs[64];
    size_t chunk = tt->bytes / (size_t)threads;
    for (int i = 0; i < threads; i++) {
        jobs[i].start = (char *)tt->table + chunk * (size_t)i;
        jobs[i].len = i == threads - 1 ? tt->bytes - chunk * (size_t)i : chunk;
    }
    for (int i = 1; i < threads; i++)
        started[i] = pthread_create(&tid[i], NULL, clear_part, &jobs[i]) == 0;
    clear_part(&jobs[0]);
    for (int i = 1; i < threads; i++) {
        if (started[i])
            pthread_join(tid[i], NULL);
        else
            clear_part(&jobs[i]); /* no thread: do its part here */
    }
    tt->generation = 0;
}

void tt_free(TT *tt)
{
    pages_free(tt->table, tt->bytes);
    tt->table = NULL;
    tt->clusters = 0;
    tt->bytes = 0;
}

bool tt_resize(TT *tt, size_t size_mb, int threads, char *err, size_t errlen)
{
    if (size_mb < 1 || size_mb > TT_MAX_MB) {
        snprintf(err, errlen, "Hash must be from 1 to %d MB", TT_MAX_MB);
        return false;
    }
    size_t bytes = size_mb << 20;
    size_t phys = host_memory();
    if (phys && bytes > phys / 10 * 9) {
        snprintf(err, errlen, "Hash %zu MB is more than this machine's memory allows (%zu MB in all)", size_mb,
                 phys >> 20);
        return false;
    }
    if (tt->table && bytes == tt->bytes)
        return true;
    void *mem = pages_alloc(bytes, true);
    if (!mem) {
        snprintf(err, errlen, "cannot allocate %zu MB for the hash table", size_mb);
        return false;
    }
    pages_free(tt->table, tt->bytes);
    tt->table = mem;
    tt->bytes = bytes;
    tt->clusters = bytes / sizeof(TTCluster);
    tt_clear(tt, threads);
    return true;
}

void tt_new_search(TT *tt) { tt->generation = (uint8_t)((tt->generation + 1) & 31); }

bool tt_probe(const TT *tt, Key key, TTData *out)
{
    TTCluster *cl = tt_cluster(tt, key);
    for (int i = 0; i < TT_CLUSTER_SIZE; i++) {
        uint64_t data = atomic_load_explicit(&cl->entry[i].data, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&cl->entry[i].check, memory_order_relaxed);
        if ((check ^ data) != key || data == 0)
            continue;
        out->move = (Move)(data & 0xFFFF);
        out->value = (int16_t)(uint16_t)(data >> 16);
        out->eval = (int16_t)(uint16_t)(data >> 32);
        out->depth = entry_depth(data);
        out->bound = (int)(data >> 56) & 3;
        out->pv = (data >> 58) & 1;
        return true;
    }
    return false;
}

/* Where in its cluster an entry for key goes: the entry of the same
 * position (*old its data), or else the least worth keeping (*old 0). */
static TTEntry *slot(const TT *tt, Key key, uint64_t *old)
{
    TTCluster *cl = tt_cluster(tt, key);
    TTEntry *replace = &cl->entry[0];
    int worst = 1 << 30;
    *old = 0;
    for (int i = 0; i < TT_CLUSTER_SIZE; i++) {
        TTEntry *e = &cl->entry[i];
        uint64_t data = atomic_load_explicit(&e->data, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&e->check, memory_order_relaxed);
        if ((check ^ data) == key && data) {
            *old = data;
            return e;
        }
        /* Prefer to replace shallow entries of older searches. */
        int age = (tt->generation - entry_gen(data)) & 31;
        int worth = data ? entry_depth(data) - 8 * age : -(1 << 20);
        if (worth < worst) {
            worst = worth;
            replace = e;
        }
    }
    return replace;
}

static inline void write_entry(TTEntry *e, Key key, uint64_t data)
{
    atomic_store_explicit(&e->data, data, memory_order_relaxed);
    atomic_store_explicit(&e->check, key ^ data, memory_order_relaxed);
}

void tt_store(TT *tt, Key key, int value, bool pv, int bound, int depth, Move move, int eval)
{
    uint64_t old;
    TTEntry *replace = slot(tt, key, &old);
    if (old) {
        /* Same position: keep a deeper entry unless this one is exact,
         * but give it the newer move: the one just searched is the best
         * this search knows of. */
        if (!move)
            move = (Move)(old & 0xFFFF);
        if (bound != TT_BOUND_EXACT && depth + 4 < entry_depth(old) && entry_gen(old) == tt->generation) {
            if (move != (Move)(old & 0xFFFF))
                write_entry(replace, key, (old & ~(uint64_t)0xFFFF) | move);
            return;
        }
    }
    uint64_t data = pack(move, value, eval, depth, bound, pv, tt->generation);
    write_entry(replace, key, data);
    if (tt->share)
        tt_share_offer(tt->share, key, data, depth);
}

void tt_merge(TT *tt, const TTRecord *r)
{
    uint64_t old;
    TTEntry *e = slot(tt, r->key, &old);
    if (old && entry_depth(old) >= entry_depth(r->data))
        return;
    uint64_t data = r->data;
    if (old && !(data & 0xFFFF))
        data |= old & 0xFFFF; /* keep the move known here */
    /* Its age is this table's. */
    write_entry(e, r->key, (data & ~((uint64_t)31 << 59)) | (uint64_t)(tt->generation & 31) << 59);
}

int tt_hashfull(const TT *tt)
{
    int used = 0;
    uint64_t n = tt->clusters < 250 ? tt->clusters : 250;
    for (uint64_t c = 0; c < n; c++)
        for (int i = 0; i < TT_CLUSTER_SIZE; i++) {
            uint64_t data = atomic_load_explicit(&tt->table[c].entry[i].data, memory_order_relaxed);
            used += data && entry_gen(data) == tt->generation;
        }
    return n ? (int)(used * 1000 / (n * TT_CLUSTER_SIZE)) : 0;
}
