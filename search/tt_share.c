#include "tt_share.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

/* A ring under a mutex: offers come only from stores at or above the
 * threshold, some thousands a second, so the lock is rarely contended. */
struct TTShare {
    atomic_int depth;
    pthread_mutex_t lock;
    TTRecord *ring;
    int capacity, head, count; /* the oldest at head */
    uint64_t queued, dropped;
};

TTShare *tt_share_new(int capacity, int min_depth)
{
    TTShare *s = calloc(1, sizeof *s);
    if (!s || capacity < 1 || !(s->ring = malloc(sizeof(TTRecord) * (size_t)capacity))) {
        free(s);
        return NULL;
    }
    s->capacity = capacity;
    atomic_init(&s->depth, min_depth);
    pthread_mutex_init(&s->lock, NULL);
    return s;
}

void tt_share_free(TTShare *s)
{
    if (!s)
        return;
    pthread_mutex_destroy(&s->lock);
    free(s->ring);
    free(s);
}

void tt_share_set_depth(TTShare *s, int depth) { atomic_store_explicit(&s->depth, depth, memory_order_relaxed); }
int tt_share_depth(const TTShare *s) { return atomic_load_explicit(&s->depth, memory_order_relaxed); }

void tt_share_offer(TTShare *s, Key key, uint64_t data, int depth)
{
    if (depth < atomic_load_explicit(&s->depth, memory_order_relaxed))
        return;
    pthread_mutex_lock(&s->lock);
    if (s->count == s->capacity) {
        s->dropped++;
    } else {
        s->ring[(s->head + s->count) % s->capacity] = (TTRecord){key, data};
        s->count++;
        s->queued++;
    }
    pthread_mutex_unlock(&s->lock);
}

int tt_share_take(TTShare *s, TTRecord *out, int max)
{
    pthread_mutex_lock(&s->lock);
    int n = s->count < max ? s->count : max;
    for (int i = 0; i < n; i++)
        out[i] = s->ring[(s->head + i) % s->capacity];
    s->head = (s->head + n) % s->capacity;
    s->count -= n;
    pthread_mutex_unlock(&s->lock);
    return n;
}

TTShareStats tt_share_stats(TTShare *s)
{
    pthread_mutex_lock(&s->lock);
    TTShareStats st = {s->queued, s->dropped};
    pthread_mutex_unlock(&s->lock);
    return st;
}
