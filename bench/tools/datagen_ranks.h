/* chuhan datagen over the ranks of an MPI job (mpirun -np N chuhan
 * datagen ...).  Every rank plays self-play games with its own threads;
 * rank 0 alone owns the file: the other ranks stream it their records, a
 * message a game, and rank 0 appends them with its own, so resuming, the
 * target and the progress line are those of one process.  When the file
 * holds the target, rank 0 says stop and waits for each rank's last games
 * and its figures; a rank not heard from for DGR_SILENT_MS is given up
 * (its unsent games are lost, nothing else).  In a job of one process
 * (every build without MPI) none of this runs. */
#ifndef CHUHAN_BENCH_DATAGEN_RANKS_H
#define CHUHAN_BENCH_DATAGEN_RANKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "nnue_data.h"

#define DGR_SILENT_MS 30000 /* a rank says it is alive every second */

/* What a rank made, sent with its last message. */
typedef struct {
    long positions, games;
    double cpu_s, wall_s;
    char err[256]; /* why it stopped early, or "" */
} DgrFigures;

/* ---- the other ranks ---- */

/* Send records to rank 0 (the games they come from: games).  False when
 * they could not go now (rank 0 does not keep up: keep them and try again)
 * or ever (*lost set: rank 0 is gone). */
bool dgr_send(const NnueRecord *recs, size_t n, long games, bool *lost);
/* Whether rank 0 has said stop; says this rank is alive (at most once a
 * second).  Call it often. */
bool dgr_stop_heard(void);
/* The rank's last message. */
void dgr_send_done(const DgrFigures *fig);

/* ---- rank 0 ---- */

typedef struct DgrRoot DgrRoot;
/* What rank 0 does with the records that arrive. */
typedef void (*DgrTake)(void *ctx, const NnueRecord *recs, size_t n, long games);

DgrRoot *dgr_root_new(void);
/* Tell every other rank to stop, without waiting (rank 0 fails). */
void dgr_stop_all(void);
void dgr_root_free(DgrRoot *r);
/* Take what has arrived; give up ranks silent too long. */
void dgr_root_poll(DgrRoot *r, DgrTake take, void *ctx);
/* Tell every rank to stop, take their last records and figures (waiting
 * for each at most until it has been silent DGR_SILENT_MS), and print a
 * line a rank to out; the CPU seconds of all ranks. */
double dgr_root_finish(DgrRoot *r, DgrTake take, void *ctx, const DgrFigures *own, FILE *out);

#endif
