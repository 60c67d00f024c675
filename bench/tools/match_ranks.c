/* A match over the ranks of an MPI job (match_private.h): rank 0 hands
 * out the games and records them, the other ranks play what they are
 * given.  Each rank has a relay thread that takes its messages (on the
 * match's channel of engine/cluster/comm.h) and, on the other ranks, says
 * every second that the rank is alive. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/cluster/comm.h"
#include "engine/util/clock.h"
#include "match_private.h"

enum {
    MR_ASK = 1, /* a rank to rank 0: int32 worker wants a game */
    MR_GAME,    /* rank 0 to a rank: GameReply */
    MR_RESULT,  /* a rank to rank 0: RecordHead, then the PGN text */
    MR_DONE,    /* a rank to rank 0: it has finished; text: why it could not play, or nothing */
    MR_ALIVE,   /* a rank to rank 0, every second */
    MR_STOP,    /* rank 0 to a rank: stop asking (rank 0 failed) */
};

#define NO_GAME (-1)
#define WAIT_GAME (-2) /* none now: a game may come back from a rank given up */
#define ALIVE_MS 1000
#define RETRY_MS 100

typedef struct {
    int32_t worker, pad;
    int64_t game;
} GameReply;

typedef struct {
    int64_t index;
    int32_t red, black, result, term;
    char reason[384];
    int64_t timed_moves[2], late_moves[2], late_worst_ms[2], low_ms[2];
    int32_t clocked[2];
} RecordHead;

struct MatchRanks {
    Match *m;
    int rank, size;
    pthread_t relay;
    bool relay_started;
    atomic_bool quit;
    pthread_mutex_t lock; /* guards what follows */
    pthread_cond_t changed;
    bool stop; /* rank 0 said stop, or failed */
    bool ended;
    /* rank 0 */
    int *owner;     /* by game: the rank that plays it (0 here, -1 not given) */
    bool *finished; /* by game */
    long *requeue;  /* games of ranks given up, to play again */
    long nrequeue;
    long open;        /* games given to other ranks, not finished */
    int64_t *heard;   /* by rank */
    bool *done;       /* by rank: finished, or given up */
    long *played;     /* by rank: games recorded */
    int ndone;
    /* the other ranks: the answer for each worker */
    int nworkers;
    long *reply;
    bool *has_reply;
    void *buf; /* COMM_MAX_MESSAGE, the relay's */
};

static void nap_ms(long ms) { nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000L}, NULL); }

/* ---- rank 0 ---- */

/* A game for rank `rank` (r->lock held). */
static long give(MatchRanks *r, int rank)
{
    Match *m = r->m;
    long g = NO_GAME;
    if (r->stop || match_stopped(m))
        return NO_GAME;
    if (r->nrequeue)
        g = r->requeue[--r->nrequeue];
    else
        g = match_take_game(m);
    if (g >= 0) {
        r->owner[g] = rank;
        if (rank)
            r->open++;
        return g;
    }
    return r->open ? WAIT_GAME : NO_GAME;
}

/* A rank not heard from: its unfinished games are played again (r->lock
 * held). */
static void give_up(MatchRanks *r, int rank)
{
    long again = 0;
    for (long g = 0; g < r->m->total; g++)
        if (r->owner[g] == rank && !r->finished[g]) {
            r->owner[g] = -1;
            r->requeue[r->nrequeue++] = g;
            r->open--;
            again++;
        }
    r->done[rank] = true;
    r->ndone++;
    comm_give_up(rank);
    fprintf(stderr, "match: rank %d silent for %d s: given up; %ld of its games are played again\n", rank,
            MATCH_RANK_SILENT_MS / 1000, again);
    pthread_cond_broadcast(&r->changed);
}

static void take_result(MatchRanks *r, int from, const char *msg, long len)
{
    RecordHead h;
    if (len < (long)sizeof h)
        return;
    memcpy(&h, msg, sizeof h);
    pthread_mutex_lock(&r->lock);
    bool mine = h.index >= 0 && h.index < r->m->total && r->owner[h.index] == from && !r->finished[h.index];
    if (mine) {
        r->finished[h.index] = true;
        r->open--;
        r->played[from]++;
    }
    pthread_mutex_unlock(&r->lock);
    if (!mine)
        return; /* a game given to another rank meanwhile */
    GameRecord rec;
    memset(&rec, 0, sizeof rec);
    rec.index = (long)h.index;
    rec.red = h.red;
    rec.black = h.black;
    rec.result = (GameResult)h.result;
    rec.term = h.term >= 0 && h.term < TERM_NB ? (Termination)h.term : TERM_CRASH;
    memcpy(rec.reason, h.reason, sizeof rec.reason);
    rec.reason[sizeof rec.reason - 1] = 0;
    for (int c = 0; c < 2; c++) {
        rec.timed_moves[c] = (long)h.timed_moves[c];
        rec.late_moves[c] = (long)h.late_moves[c];
        rec.late_worst_ms[c] = h.late_worst_ms[c];
        rec.low_ms[c] = h.low_ms[c];
        rec.clocked[c] = h.clocked[c] != 0;
    }
    size_t n = (size_t)len - sizeof h;
    rec.pgn.s = malloc(n + 1);
    if (rec.pgn.s) {
        memcpy(rec.pgn.s, msg + sizeof h, n);
        rec.pgn.s[n] = 0;
        rec.pgn.len = n;
        rec.pgn.cap = n + 1;
    } else {
        rec.pgn.oom = true;
    }
    match_record_game(r->m, &rec);
    free(rec.pgn.s);
    pthread_mutex_lock(&r->lock);
    pthread_cond_broadcast(&r->changed);
    pthread_mutex_unlock(&r->lock);
}

static void relay_root(MatchRanks *r)
{
    int from, type;
    long len;
    while ((len = comm_poll(COMM_MATCH, &from, &type, r->buf, COMM_MAX_MESSAGE)) >= 0) {
        if (from <= 0 || from >= r->size)
            continue;
        pthread_mutex_lock(&r->lock);
        bool gone = r->done[from];
        r->heard[from] = now_ms();
        pthread_mutex_unlock(&r->lock);
        if (gone)
            continue; /* finished, or given up: what it still says does not count */
        if (type == MR_ASK && len == (long)sizeof(int32_t)) {
            GameReply rep = {*(int32_t *)r->buf, 0, 0};
            pthread_mutex_lock(&r->lock);
            rep.game = give(r, from);
            pthread_mutex_unlock(&r->lock);
            comm_send(from, COMM_MATCH, MR_GAME, &rep, sizeof rep);
        } else if (type == MR_RESULT) {
            take_result(r, from, r->buf, len);
        } else if (type == MR_DONE) {
            if (len > 0)
                fprintf(stderr, "match: rank %d: %.*s\n", from, (int)len, (const char *)r->buf);
            pthread_mutex_lock(&r->lock);
            r->done[from] = true;
            r->ndone++;
            pthread_cond_broadcast(&r->changed);
            pthread_mutex_unlock(&r->lock);
        }
    }
    int64_t now = now_ms();
    pthread_mutex_lock(&r->lock);
    for (int k = 1; k < r->size; k++)
        if (!r->done[k] && now - r->heard[k] > MATCH_RANK_SILENT_MS)
            give_up(r, k);
    pthread_mutex_unlock(&r->lock);
}

/* ---- the other ranks ---- */

static void relay_rank(MatchRanks *r, int64_t *alive_ms)
{
    int from, type;
    long len;
    while ((len = comm_poll(COMM_MATCH, &from, &type, r->buf, COMM_MAX_MESSAGE)) >= 0) {
        if (from != 0)
            continue;
        pthread_mutex_lock(&r->lock);
        if (type == MR_GAME && len == (long)sizeof(GameReply)) {
            GameReply rep;
            memcpy(&rep, r->buf, sizeof rep);
            if (rep.worker >= 0 && rep.worker < r->nworkers) {
                r->reply[rep.worker] = (long)rep.game;
                r->has_reply[rep.worker] = true;
            }
        } else if (type == MR_STOP) {
            r->stop = true;
        }
        pthread_cond_broadcast(&r->changed);
        pthread_mutex_unlock(&r->lock);
    }
    int64_t now = now_ms();
    if (now - *alive_ms >= ALIVE_MS) {
        comm_send(0, COMM_MATCH, MR_ALIVE, NULL, 0);
        *alive_ms = now;
    }
}

static void *relay_main(void *arg)
{
    MatchRanks *r = arg;
    int64_t alive_ms = 0;
    while (!atomic_load(&r->quit)) {
        if (r->rank == 0)
            relay_root(r);
        else
            relay_rank(r, &alive_ms);
        nap_ms(1);
    }
    return NULL;
}

/* ---- both ---- */

static void ranks_free(MatchRanks *r)
{
    pthread_mutex_destroy(&r->lock);
    pthread_cond_destroy(&r->changed);
    free(r->owner);
    free(r->finished);
    free(r->requeue);
    free(r->heard);
    free(r->done);
    free(r->played);
    free(r->reply);
    free(r->has_reply);
    free(r->buf);
    free(r);
}

bool match_ranks_begin(Match *m, int nworkers, char *err, size_t errlen)
{
    if (comm_size() < 2)
        return true;
    MatchRanks *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    r->m = m;
    r->rank = comm_rank();
    r->size = comm_size();
    r->nworkers = nworkers;
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->changed, NULL);
    size_t total = (size_t)m->total, size = (size_t)r->size;
    r->buf = malloc(COMM_MAX_MESSAGE);
    bool ok = r->buf != NULL;
    if (r->rank == 0) {
        r->owner = malloc(sizeof(int) * total);
        r->finished = calloc(total, sizeof(bool));
        r->requeue = malloc(sizeof(long) * total);
        r->heard = malloc(sizeof(int64_t) * size);
        r->done = calloc(size, sizeof(bool));
        r->played = calloc(size, sizeof(long));
        ok = ok && r->owner && r->finished && r->requeue && r->heard && r->done && r->played;
        for (size_t g = 0; ok && g < total; g++)
            r->owner[g] = -1;
        for (size_t k = 0; ok && k < size; k++)
            r->heard[k] = now_ms();
    } else {
        r->reply = calloc((size_t)nworkers, sizeof(long));
        r->has_reply = calloc((size_t)nworkers, sizeof(bool));
        ok = ok && r->reply && r->has_reply;
    }
    if (!ok || pthread_create(&r->relay, NULL, relay_main, r)) {
        ranks_free(r);
        snprintf(err, errlen, "out of memory for the match's ranks");
        return false;
    }
    r->relay_started = true;
    m->ranks = r;
    return true;
}

long match_ranks_next(Match *m, Worker *w)
{
    MatchRanks *r = m->ranks;
    for (;;) {
        long g;
        if (r->rank == 0) {
            pthread_mutex_lock(&r->lock);
            g = give(r, 0);
            pthread_mutex_unlock(&r->lock);
        } else {
            int32_t worker = w->index;
            pthread_mutex_lock(&r->lock);
            r->has_reply[worker] = false;
            bool stop = r->stop;
            pthread_mutex_unlock(&r->lock);
            if (stop || !comm_send(0, COMM_MATCH, MR_ASK, &worker, sizeof worker))
                return NO_GAME;
            pthread_mutex_lock(&r->lock);
            while (!r->has_reply[worker] && !r->stop)
                pthread_cond_wait(&r->changed, &r->lock);
            g = r->has_reply[worker] ? r->reply[worker] : NO_GAME;
            pthread_mutex_unlock(&r->lock);
        }
        if (g != WAIT_GAME)
            return g;
        nap_ms(RETRY_MS);
    }
}

void match_ranks_finished(Match *m, GameRecord *rec)
{
    MatchRanks *r = m->ranks;
    if (r->rank == 0) {
        pthread_mutex_lock(&r->lock);
        r->finished[rec->index] = true;
        r->played[0]++;
        pthread_mutex_unlock(&r->lock);
        match_record_game(m, rec);
        return;
    }
    size_t n = rec->pgn.oom || !rec->pgn.s ? 0 : rec->pgn.len;
    char *msg = malloc(sizeof(RecordHead) + n);
    if (!msg)
        return;
    RecordHead h;
    memset(&h, 0, sizeof h);
    h.index = rec->index;
    h.red = rec->red;
    h.black = rec->black;
    h.result = (int32_t)rec->result;
    h.term = (int32_t)rec->term;
    memcpy(h.reason, rec->reason, sizeof h.reason);
    for (int c = 0; c < 2; c++) {
        h.timed_moves[c] = rec->timed_moves[c];
        h.late_moves[c] = rec->late_moves[c];
        h.late_worst_ms[c] = rec->late_worst_ms[c];
        h.low_ms[c] = rec->low_ms[c];
        h.clocked[c] = rec->clocked[c];
    }
    memcpy(msg, &h, sizeof h);
    if (n)
        memcpy(msg + sizeof h, rec->pgn.s, n);
    /* A full queue means rank 0 is not taking messages: it will give this
     * rank up and have the game played again. */
    comm_send(0, COMM_MATCH, MR_RESULT, msg, sizeof h + n);
    free(msg);
}

void match_ranks_end(Match *m, const char *failure)
{
    MatchRanks *r = m->ranks;
    if (!r)
        return;
    if (r->rank == 0) {
        if (failure)
            for (int k = 1; k < r->size; k++)
                comm_send(k, COMM_MATCH, MR_STOP, NULL, 0);
        pthread_mutex_lock(&r->lock);
        if (failure)
            r->stop = true;
        /* Every rank's DONE comes after its last result. */
        while (r->ndone < r->size - 1)
            pthread_cond_wait(&r->changed, &r->lock);
        pthread_mutex_unlock(&r->lock);
        FILE *out = m->cfg->out;
        if (out && !failure) {
            fprintf(out, "\nGames played by the %d ranks:", r->size);
            for (int k = 0; k < r->size; k++)
                fprintf(out, " %ld", r->played[k]);
            fprintf(out, "\n");
        }
    } else {
        comm_send(0, COMM_MATCH, MR_DONE, failure ? failure : "", failure ? strlen(failure) : 0);
    }
    atomic_store(&r->quit, true);
    pthread_join(r->relay, NULL);
    m->ranks = NULL;
    ranks_free(r);
}
