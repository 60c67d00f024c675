/* chuhan datagen over the ranks of an MPI job (datagen_ranks.h), on the
 * datagen channel of engine/cluster/comm.h. */
#include "datagen_ranks.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/cluster/comm.h"
#include "engine/util/clock.h"

enum {
    DG_RECORDS = 1, /* a rank to rank 0: int64 games, then the records */
    DG_ALIVE,       /* a rank to rank 0, every second */
    DG_DONE,        /* a rank to rank 0: DgrFigures, its last message */
    DG_STOP,        /* rank 0 to a rank: the file holds the target */
};

#define ALIVE_MS 1000
#define GAMES_BYTES sizeof(int64_t)

/* ---- the other ranks ---- */

bool dgr_send(const NnueRecord *recs, size_t n, long games, bool *lost)
{
    static unsigned char msg[COMM_MAX_MESSAGE / 2];
    *lost = false;
    size_t most = (sizeof msg - GAMES_BYTES) / sizeof *recs;
    while (n) {
        size_t k = n < most ? n : most;
        int64_t g = games;
        memcpy(msg, &g, GAMES_BYTES);
        memcpy(msg + GAMES_BYTES, recs, k * sizeof *recs);
        if (comm_pending(0) >= COMM_MAX_PENDING)
            return false;
        if (!comm_send(0, COMM_DATAGEN, DG_RECORDS, msg, GAMES_BYTES + k * sizeof *recs)) {
            *lost = true;
            return false;
        }
        recs += k;
        n -= k;
        games = 0; /* counted with the first part */
    }
    return true;
}

bool dgr_stop_heard(void)
{
    static int64_t last_alive;
    static bool stop;
    static unsigned char buf[COMM_MAX_MESSAGE];
    int from, type;
    while (comm_poll(COMM_DATAGEN, &from, &type, buf, sizeof buf) >= 0)
        if (from == 0 && type == DG_STOP)
            stop = true;
    int64_t now = now_ms();
    if (now - last_alive >= ALIVE_MS) {
        comm_send(0, COMM_DATAGEN, DG_ALIVE, NULL, 0);
        last_alive = now;
    }
    return stop;
}

void dgr_send_done(const DgrFigures *fig)
{
    comm_send(0, COMM_DATAGEN, DG_DONE, fig, sizeof *fig);
}

/* ---- rank 0 ---- */

struct DgrRoot {
    int size;
    int64_t *heard;  /* by rank: when last heard from */
    bool *done;      /* by rank: its last message came, or it was given up */
    bool *given_up;  /* by rank */
    DgrFigures *fig; /* by rank */
    long *taken;     /* by rank: records taken */
    unsigned char *buf;
};

DgrRoot *dgr_root_new(void)
{
    DgrRoot *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->size = comm_size();
    size_t n = (size_t)r->size;
    r->heard = calloc(n, sizeof *r->heard);
    r->done = calloc(n, sizeof *r->done);
    r->given_up = calloc(n, sizeof *r->given_up);
    r->fig = calloc(n, sizeof *r->fig);
    r->taken = calloc(n, sizeof *r->taken);
    r->buf = malloc(COMM_MAX_MESSAGE);
    if (!r->heard || !r->done || !r->given_up || !r->fig || !r->taken || !r->buf) {
        dgr_root_free(r);
        return NULL;
    }
    int64_t now = now_ms();
    for (int k = 0; k < r->size; k++)
        r->heard[k] = now;
    r->done[0] = true; /* rank 0 reports for itself */
    return r;
}

void dgr_stop_all(void)
{
    for (int k = 1; k < comm_size(); k++)
        comm_send(k, COMM_DATAGEN, DG_STOP, NULL, 0);
}

void dgr_root_free(DgrRoot *r)
{
    if (!r)
        return;
    free(r->heard);
    free(r->done);
    free(r->given_up);
    free(r->fig);
    free(r->taken);
    free(r->buf);
    free(r);
}

void dgr_root_poll(DgrRoot *r, DgrTake take, void *ctx)
{
    int from, type;
    long len;
    while ((len = comm_poll(COMM_DATAGEN, &from, &type, r->buf, COMM_MAX_MESSAGE)) >= 0) {
        if (from <= 0 || from >= r->size || r->given_up[from])
            continue;
        r->heard[from] = now_ms();
        if (type == DG_RECORDS && len >= (long)GAMES_BYTES) {
            int64_t games;
            memcpy(&games, r->buf, GAMES_BYTES);
            size_t n = ((size_t)len - GAMES_BYTES) / sizeof(NnueRecord);
            /* the bytes are copied out: a record buffer aligned as the caller expects */
            NnueRecord *recs = malloc(n ? n * sizeof *recs : 1);
            if (!recs)
                continue;
            memcpy(recs, r->buf + GAMES_BYTES, n * sizeof *recs);
            take(ctx, recs, n, (long)games);
            r->taken[from] += (long)n;
            free(recs);
        } else if (type == DG_DONE && len == (long)sizeof(DgrFigures)) {
            memcpy(&r->fig[from], r->buf, sizeof(DgrFigures));
            r->fig[from].err[sizeof r->fig[from].err - 1] = 0;
            r->done[from] = true;
        }
    }
    int64_t now = now_ms();
    for (int k = 1; k < r->size; k++)
        if (!r->done[k] && now - r->heard[k] > DGR_SILENT_MS) {
            r->done[k] = r->given_up[k] = true;
            comm_give_up(k);
            fprintf(stderr, "datagen: rank %d silent for %d s: given up (%ld of its positions were taken)\n", k,
                    DGR_SILENT_MS / 1000, r->taken[k]);
        }
}

double dgr_root_finish(DgrRoot *r, DgrTake take, void *ctx, const DgrFigures *own, FILE *out)
{
    for (int k = 1; k < r->size; k++)
        if (!r->done[k])
            comm_send(k, COMM_DATAGEN, DG_STOP, NULL, 0);
    for (;;) {
        dgr_root_poll(r, take, ctx);
        bool all = true;
        for (int k = 1; k < r->size; k++)
            all = all && r->done[k];
        if (all)
            break;
        nanosleep(&(struct timespec){0, 20 * 1000000L}, NULL);
    }
    r->fig[0] = *own;
    r->taken[0] = own->positions;
    long games = 0, taken = 0;
    double cpu = 0;
    for (int k = 0; k < r->size; k++) {
        const DgrFigures *f = &r->fig[k];
        if (r->given_up[k])
            fprintf(out, "datagen: rank %d: given up; %ld positions taken\n", k, r->taken[k]);
        else
            fprintf(out, "datagen: rank %d: %ld positions, %ld games, %.1f CPU s, %.1f pos per CPU second%s%s\n", k,
                    r->taken[k], f->games, f->cpu_s, f->cpu_s > 0 ? r->taken[k] / f->cpu_s : 0.0,
                    f->err[0] ? "; stopped: " : "", f->err);
        games += f->games;
        taken += r->taken[k];
        cpu += f->cpu_s;
    }
    fprintf(out, "datagen: %d ranks: %ld positions, %ld games, %.1f pos per CPU second\n", r->size, taken, games,
            cpu > 0 ? taken / cpu : 0.0);
    fflush(out);
    return cpu;
}
