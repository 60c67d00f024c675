/* Transposition table: lock-free, shared by every search thread.
 *
 * An entry is two 64-bit words written and read with relaxed atomics:
 *
 *   data   bits  0-15  move
 *          bits 16-31  value (int16, mate scores relative to the node)
 *          bits 32-47  static evaluation (int16)
 *          bits 48-55  depth + TT_DEPTH_OFFSET
 *          bits 56-57  bound (TT_BOUND_*)
 *          bit  58     the node was on a principal variation
 *          bits 59-63  generation (search count, mod 32)
 *   check  key ^ data
 *
 * A reader accepts an entry only when check ^ data equals its key, so a read
 * torn by another thread's write is a miss, never a wrong hit; the move is
 * checked for legality before use all the same.  Four entries make one
 * 64-byte cluster, one cache line. */
#ifndef CHUHAN_TT_H
#define CHUHAN_TT_H

#include <stdatomic.h>
#include <stddef.h>

#include "engine/board/types.h"

enum { TT_BOUND_NONE, TT_BOUND_UPPER, TT_BOUND_LOWER, TT_BOUND_EXACT = TT_BOUND_UPPER | TT_BOUND_LOWER };

#define TT_DEPTH_OFFSET 8 /* stored depth = depth + 8, so quiescence depths fit */
/* The deepest depth an entry can say: deeper searches (iterations reach
 * MAX_PLY - 4, plus extensions) are stored as this deep, which only makes
 * their entries answer fewer nodes, never wrap to a shallow depth. */
#define TT_DEPTH_MAX (255 - TT_DEPTH_OFFSET)

typedef struct {
    _Atomic uint64_t check;
    _Atomic uint64_t data;
} TTEntry;

#define TT_CLUSTER_SIZE 4
typedef struct {
    TTEntry entry[TT_CLUSTER_SIZE];
} TTCluster;

_Static_assert(sizeof(TTEntry) == 16, "a TT entry is two 64-bit words");
_Static_assert(sizeof(TTCluster) == 64, "a TT cluster is one cache line");

/* An entry as it travels to another process's table (tt_share.h): the
 * position's key and the data word above. */
typedef struct {
    uint64_t key, data;
} TTRecord;

typedef struct TTShare TTShare;

typedef struct {
    TTCluster *table;
    uint64_t clusters;
    size_t bytes;
    uint8_t generation;
    TTShare *share; /* NULL (one process): what is stored stays here */
} TT;

typedef struct {
    Move move;
    int value, eval, depth, bound;
    bool pv;
} TTData;

#define TT_MAX_MB (1024 * 1024) /* 1 TB: the option's maximum; memory is checked too */

/* (Re)allocate size_mb megabytes and clear them with `threads` threads.  On
 * failure the old table stays and err says why. */
bool tt_resize(TT *tt, size_t size_mb, int threads, char *err, size_t errlen);
void tt_clear(TT *tt, int threads);
void tt_free(TT *tt);
void tt_new_search(TT *tt);

bool tt_probe(const TT *tt, Key key, TTData *out);
void tt_store(TT *tt, Key key, int value, bool pv, int bound, int depth, Move move, int eval);
/* An entry of another process's table, kept unless this one holds the
 * position at least as deep; it is not offered again. */
void tt_merge(TT *tt, const TTRecord *r);
/* Entries of this search per thousand, from a sample. */
int tt_hashfull(const TT *tt);

static inline TTCluster *tt_cluster(const TT *tt, Key key)
{
    return &tt->table[(uint64_t)(((unsigned __int128)key * tt->clusters) >> 64)];
}

static inline void tt_prefetch(const TT *tt, Key key) { __builtin_prefetch(tt_cluster(tt, key)); }

#endif
