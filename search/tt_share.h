/* What a transposition table offers to the tables of other processes (the
 * ranks of a cluster): the entries stored at or above a depth, queued by
 * the search threads as they store them (tt_store), and taken in batches
 * by whoever sends them (the engine's cluster).  A bounded queue: when it
 * is full an offer is dropped and counted.  One process never makes one;
 * its table's share is NULL. */
#ifndef CHUHAN_TT_SHARE_H
#define CHUHAN_TT_SHARE_H

#include <stdint.h>

#include "tt.h"

/* Room for capacity entries; offers below min_depth are not taken. */
TTShare *tt_share_new(int capacity, int min_depth);
void tt_share_free(TTShare *s);

/* The threshold: entries of at least this depth are offered. */
void tt_share_set_depth(TTShare *s, int depth);
int tt_share_depth(const TTShare *s);

/* Queue an entry just stored (data packed as in tt.h) when depth is at
 * least the threshold.  Any thread. */
void tt_share_offer(TTShare *s, Key key, uint64_t data, int depth);
/* Take up to max queued entries, oldest first; their count. */
int tt_share_take(TTShare *s, TTRecord *out, int max);

/* Counts since the share was made: entries queued, and dropped for want of
 * room. */
typedef struct {
    uint64_t queued, dropped;
} TTShareStats;
TTShareStats tt_share_stats(TTShare *s);

#endif
