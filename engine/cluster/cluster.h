/* The engine across the ranks of a job (comm.h: mpirun -np N chuhan).
 * Rank 0 speaks the protocol with its Engine as in one process; the Engine
 * holds a Cluster, which broadcasts what the other ranks must know (option
 * changes, a new game, each search with its position and limits, and its
 * stop), adds their nodes to every line of thinking, and at the end of a
 * search collects their results and votes among them.  Every other rank
 * serves (cluster_serve): an Engine of its own searches what rank 0
 * searches, with its own Threads, and reports back.  All ranks send each
 * other the table entries they store above a depth threshold, in batches,
 * and merge what they receive (search/tt_share.h).
 *
 * Rank 0 never waits on a rank for long: one that has not been heard from
 * for CLUSTER_SILENT_MS, or does not answer a stop within
 * CLUSTER_ANSWER_MS, is reported and left out (until it speaks again), and
 * the move comes from the ranks that answered.  (A rank is waited for once
 * it has said hello: one still starting is not.)  At the end, a rank that
 * does not say goodbye makes rank 0 end the job by MPI_Abort.  When the MPI runtime ends
 * the job (mpirun kills every rank when one dies), rank 0 reports it, plays
 * the move of the running search, and exits.
 *
 * In a job of one (every build without MPI) nothing here is used: no
 * Engine gets a Cluster.
 *
 * The cluster sits below the engine API (engine/engine.h), on the search:
 * rank 0's engine hands it its table, its threads and its callbacks
 * (cluster_attach), and the other ranks' engine is driven through the
 * ClusterEngine the engine passes in (engine_serve_rank calls
 * cluster_serve). */
#ifndef CHUHAN_CLUSTER_H
#define CHUHAN_CLUSTER_H

#include "search/threads.h"

#define CLUSTER_SILENT_MS 1000 /* a searching rank sends its nodes every 50 ms */
#define CLUSTER_ANSWER_MS 1000 /* for the results after a stop (on a clock: see cluster_go) */
#define CLUSTER_BYE_MS 10000   /* for every rank to answer the end of the job */
#define CLUSTER_BYE_SILENT_MS 2000 /* the same when a rank was left out */

typedef struct Cluster Cluster;

/* An engine's reports (the engine API's EngineCallbacks, field for
 * field): a line of thinking, the search's move, a message. */
typedef struct {
    void (*info)(void *ctx, const SearchInfo *info);
    void (*bestmove)(void *ctx, Move best, Move ponder);
    void (*message)(void *ctx, const char *text);
    void *ctx;
} ClusterCallbacks;

/* ---- rank 0, for engine.c ---- */

/* The cluster for a new engine of rank 0 whose table is tt, pool pool, and
 * callbacks cb (copied; the cluster reports through info and message):
 * NULL in a job of one, on other ranks, and for every engine after the
 * first (the cluster is the protocol's engine's).  *err set (and NULL
 * returned) only when it cannot be made. */
Cluster *cluster_attach(TT *tt, ThreadPool *pool, const ClusterCallbacks *cb, char *err, size_t errlen);
void cluster_detach(Cluster *c);
/* Ranks in the job, and whether they search with rank 0 (on by default). */
int cluster_size(const Cluster *c);
void cluster_use(Cluster *c, bool on);
bool cluster_in_use(const Cluster *c);

/* An option changed on rank 0 (the book's are rank 0's alone). */
void cluster_option(Cluster *c, const char *name, const char *value);
void cluster_new_game(Cluster *c);
/* A search of root starts: the other ranks search it too.  *limits
 * becomes rank 0's share of them (a node limit is split among the ranks).
 * With one line (MultiPV 1) and no depth limit the ranks vote.  On a
 * clock the results are waited for only half the move overhead (the time
 * kept back for such things): a late rank's vote is left out. */
void cluster_go(Cluster *c, const Position *root, SearchLimits *limits, const SearchSettings *settings);
/* Nodes of the other ranks in the running search, as last reported. */
uint64_t cluster_nodes(Cluster *c);
/* Rank 0's search has ended with *best (from its bestmove report, on the
 * search thread): stop the other ranks, collect their results and vote;
 * *best and *ponder become the winner's, whose line is reported as info
 * when it is another rank's. */
void cluster_collect(Cluster *c, Move *best, Move *ponder);

/* ---- ranks other than 0, for engine.c ---- */

/* What such a rank does with its engine, as the engine API does it
 * (engine/engine.h): the engine passes these in, the cluster knowing no
 * more of an Engine than its name. */
struct Engine;
typedef struct {
    struct Engine *(*make)(const ClusterCallbacks *cb, char *err, size_t errlen);
    void (*free)(struct Engine *e);
    bool (*set_option)(struct Engine *e, const char *name, const char *value, char *err, size_t errlen);
    /* The game from a FEN, without moves; false with the reason. */
    bool (*set_position)(struct Engine *e, const char *fen, char *err, size_t errlen);
    bool (*push_move)(struct Engine *e, Move m);
    void (*new_game)(struct Engine *e);
    void (*go)(struct Engine *e, const SearchLimits *limits);
    void (*stop)(struct Engine *e);
    void (*wait)(struct Engine *e);
    TT *(*table)(struct Engine *e);
    ThreadPool *(*threads)(struct Engine *e);
} ClusterEngine;

/* Ranks > 0: serve rank 0's engine, with engines made and driven by eng,
 * until rank 0 ends the job; the exit status. */
int cluster_serve(const ClusterEngine *eng);

/* ---- every rank, for engine/cli/main.c ---- */

/* Rank 0, at its end: tell every rank, and wait up to CLUSTER_BYE_MS
 * (CLUSTER_BYE_SILENT_MS when one was left out) for their goodbyes; false
 * (and a message on standard error) when some did not answer.  True at
 * once in a job of one. */
bool cluster_end_job(void);

#endif
