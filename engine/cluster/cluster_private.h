/* Private to the cluster (cluster.c for rank 0, cluster_rank.c for the
 * other ranks, cluster_share.c for the table entries all ranks exchange):
 * the messages and what both sides share. */
#ifndef CHUHAN_CLUSTER_PRIVATE_H
#define CHUHAN_CLUSTER_PRIVATE_H

#include <stdint.h>

#include "cluster.h"
#include "comm.h"
#include "search/tt_share.h"

/* The messages on the cluster's channel (comm.h), by type.  Rank 0 to
 * the others: OPTION, NEWGAME, GO, STOP, END.  The others to rank 0:
 * HELLO, STATUS, RESULT, TEXT, BYE.  Every rank to every other: TT. */
enum {
    CM_HELLO = 1, /* Hello: this rank serves */
    CM_OPTION,    /* "name\0value\0" */
    CM_NEWGAME,   /* nothing */
    CM_GO,        /* GoMessage, of its moves only as many as it has */
    CM_STOP,      /* uint32_t: the search */
    CM_TT,        /* TTRecord[] */
    CM_STATUS,    /* Status: the nodes of a running search */
    CM_RESULT,    /* Result: a finished search */
    CM_TEXT,      /* a line to report (an error on that rank) */
    CM_END,       /* nothing: the job ends */
    CM_BYE,       /* nothing: the answer to END */
};

/* The ranks run one build: rank 0 checks it by the messages' version and
 * the sizes of what travels as bytes. */
#define CLUSTER_VERSION 1
typedef struct {
    uint32_t version, limits, result, position;
} Hello;
#define CLUSTER_HELLO ((Hello){CLUSTER_VERSION, sizeof(SearchLimits), sizeof(SearchResult), sizeof(Position)})

typedef struct {
    uint32_t id;
    SearchLimits limits;
    char fen[FEN_MAX]; /* the game's first position */
    int32_t nmoves;
    Move moves[MAX_GAME_PLY]; /* the game's moves from it */
} GoMessage;

typedef struct {
    uint32_t id;
    uint64_t nodes;
} Status;

typedef struct {
    uint32_t id;
    uint64_t nodes;
    SearchResult r;
} Result;

/* The table entries a rank sends: taken from its table's share, batched,
 * sent to every other rank that keeps up; the depth threshold moves so
 * that each rank receives about CLUSTER_INBOUND entries a second in all. */
#define CLUSTER_INBOUND 65536  /* entries a second a rank receives, at most about */
#define CLUSTER_MIN_DEPTH 5    /* the lowest depth threshold */
#define CLUSTER_BATCH 240      /* entries a message (3840 bytes: MPI's eager sends) */
#define CLUSTER_BATCH_MS 5     /* a batch waits no longer */
#define CLUSTER_TT_PENDING 32  /* batches to one rank not yet taken before it is skipped */
typedef struct {
    TTShare *share;
    TTRecord batch[CLUSTER_BATCH];
    int count;
    int64_t first_ms;      /* when the batch began */
    int64_t window_ms;     /* the threshold's window began */
    uint64_t window_start; /* entries queued then */
    uint64_t sent, received;
} Exchange;

bool exchange_init(Exchange *x);
void exchange_free(Exchange *x);
/* Send what the table has queued, when a batch is full or old enough, to
 * every other rank not in skip (NULL: none); and move the threshold. */
void exchange_send(Exchange *x, const bool *skip);
/* A CM_TT message: merge its entries into tt. */
void exchange_merge(Exchange *x, TT *tt, const void *msg, long len);

/* Sleep about 1 ms: how often the ranks look for messages. */
void cluster_nap(void);
/* A warning when `threads` search threads would share fewer cores (the
 * ones this process may run on: mpirun binds each rank to a core unless
 * told --bind-to none), into text; false when there are enough. */
bool cluster_cores_warning(long threads, char *text, size_t len);

#endif
