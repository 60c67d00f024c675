/* The job over MPI (comm.h), built with make MPI=1.  Point-to-point
 * messages only, each sent with MPI_Isend from a copy and completed by
 * MPI_Test whenever the module is called; arrivals are found by
 * MPI_Iprobe.  No call waits on a peer: MPI_ERRORS_RETURN turns a failed
 * send into a lost rank instead of the default end of the job, and a peer
 * that stops taking messages fills its COMM_MAX_PENDING and no more. */
#include "comm.h"

#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/util/clock.h"
#include "engine/util/error.h"

typedef struct {
    MPI_Request req;
    int to;
    void *data;
} Send;

/* MPI is initialised once per process, so this state is the process's:
 * written by comm_init before any other thread exists, then under lock
 * (MPI_THREAD_SERIALIZED: one MPI call at a time). */
static struct {
    pthread_mutex_t lock;
    bool active; /* MPI_Init done, MPI_Finalize not yet */
    int rank, size;
    Send *sends;
    int nsends, cap;
    int *pending; /* by rank */
    bool *lost;   /* by rank: a send to it failed, or given up */
    char name[64];
} C = {.lock = PTHREAD_MUTEX_INITIALIZER, .size = 1, .name = "one process"};

/* Started by an MPI launcher: Open MPI's mpirun, a PMI (MPICH's hydra) or
 * PMIx (srun --mpi=pmix) one. */
static const char *const LAUNCH_VARS[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"};

bool comm_init(int *argc, char ***argv, char *err, size_t errlen)
{
    bool launched = false;
    for (size_t i = 0; i < sizeof LAUNCH_VARS / sizeof LAUNCH_VARS[0]; i++)
        launched |= getenv(LAUNCH_VARS[i]) != NULL;
    if (!launched || C.active)
        return true;
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
        return err_set(err, errlen, "MPI_Init_thread failed");
    if (provided < MPI_THREAD_SERIALIZED) {
        MPI_Finalize();
        return err_set(err, errlen, "this MPI does not allow calls from several threads (MPI_THREAD_SERIALIZED)");
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &C.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &C.size);
    C.pending = calloc((size_t)C.size, sizeof *C.pending);
    C.lost = calloc((size_t)C.size, sizeof *C.lost);
    if (!C.pending || !C.lost) {
        MPI_Abort(MPI_COMM_WORLD, 1);
        return err_set(err, errlen, "out of memory");
    }
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(version, &len);
    version[strcspn(version, ",\n")] = 0; /* "Open MPI v4.1.4, package: ..." */
    snprintf(C.name, sizeof C.name, "%.63s", version);
    /* The engines a rank starts (chuhan match) are no ranks. */
    for (size_t i = 0; i < sizeof LAUNCH_VARS / sizeof LAUNCH_VARS[0]; i++)
        unsetenv(LAUNCH_VARS[i]);
    C.active = true;
    return true;
}

int comm_rank(void) { return C.rank; }
int comm_size(void) { return C.size; }
const char *comm_name(void) { return C.name; }

/* Complete the sends that are done; a failed one loses its rank. */
static void progress(void)
{
    for (int i = 0; i < C.nsends;) {
        Send *s = &C.sends[i];
        int done = 0;
        if (MPI_Test(&s->req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
            C.lost[s->to] = true;
            done = 1;
        }
        if (!done) {
            i++;
            continue;
        }
        C.pending[s->to]--;
        free(s->data);
        C.sends[i] = C.sends[--C.nsends];
    }
}

/* On the wire a message is its type, 4 bytes, then its data; the channel
 * is the MPI tag. */
#define HEADER 4

bool comm_send(int to, int channel, int type, const void *data, size_t len)
{
    if (to < 0 || to >= C.size || to == C.rank || channel < 0 || len > COMM_MAX_MESSAGE - HEADER)
        return false;
    pthread_mutex_lock(&C.lock);
    bool ok = false;
    if (!C.active)
        goto out;
    progress();
    if (C.lost[to] || C.pending[to] >= COMM_MAX_PENDING)
        goto out;
    if (C.nsends == C.cap) {
        int cap = C.cap ? 2 * C.cap : 64;
        Send *grown = realloc(C.sends, sizeof *grown * (size_t)cap);
        if (!grown)
            goto out;
        C.sends = grown;
        C.cap = cap;
    }
    char *copy = malloc(HEADER + len);
    if (!copy)
        goto out;
    int32_t t = type;
    memcpy(copy, &t, HEADER);
    if (len)
        memcpy(copy + HEADER, data, len);
    Send *s = &C.sends[C.nsends];
    if (MPI_Isend(copy, (int)(HEADER + len), MPI_BYTE, to, channel, MPI_COMM_WORLD, &s->req) != MPI_SUCCESS) {
        C.lost[to] = true;
        free(copy);
        goto out;
    }
    s->to = to;
    s->data = copy;
    C.nsends++;
    C.pending[to]++;
    ok = true;
out:
    pthread_mutex_unlock(&C.lock);
    return ok;
}

int comm_pending(int to)
{
    pthread_mutex_lock(&C.lock);
    int n = C.active && to >= 0 && to < C.size ? (progress(), C.pending[to]) : 0;
    pthread_mutex_unlock(&C.lock);
    return n;
}

void comm_give_up(int to)
{
    pthread_mutex_lock(&C.lock);
    if (C.active && to >= 0 && to < C.size)
        C.lost[to] = true;
    pthread_mutex_unlock(&C.lock);
}

long comm_poll(int channel, int *from, int *type, void *buf, size_t cap)
{
    long len = -1;
    pthread_mutex_lock(&C.lock);
    if (!C.active)
        goto out;
    progress();
    int flag = 0, count = 0;
    MPI_Status st;
    if (MPI_Iprobe(MPI_ANY_SOURCE, channel, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS || !flag)
        goto out;
    MPI_Get_count(&st, MPI_BYTE, &count);
    bool fits = count >= HEADER && (size_t)count <= cap;
    /* One that is not ours (no header, or too long) is taken and dropped. */
    char *into = fits ? buf : malloc(count > 0 ? (size_t)count : 1);
    if (!into || MPI_Recv(into, count, MPI_BYTE, st.MPI_SOURCE, channel, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
                     != MPI_SUCCESS
        || !fits) {
        if (!fits)
            free(into);
        goto out;
    }
    int32_t t;
    memcpy(&t, buf, HEADER);
    memmove(buf, (char *)buf + HEADER, (size_t)count - HEADER);
    *from = st.MPI_SOURCE;
    *type = t;
    len = count - HEADER;
out:
    pthread_mutex_unlock(&C.lock);
    return len;
}

void comm_finish(bool clean)
{
    pthread_mutex_lock(&C.lock);
    if (!C.active) {
        pthread_mutex_unlock(&C.lock);
        return;
    }
    int64_t deadline = now_ms() + 1000;
    for (progress(); clean && C.nsends && now_ms() < deadline; progress()) {
        pthread_mutex_unlock(&C.lock);
        nanosleep(&(struct timespec){0, 1000000}, NULL);
        pthread_mutex_lock(&C.lock);
    }
    if (!clean || C.nsends) {
        fflush(NULL);
        MPI_Abort(MPI_COMM_WORLD, 1); /* ends every rank, this one too */
    }
    C.active = false;
    MPI_Finalize();
    for (int i = 0; i < C.nsends; i++)
        free(C.sends[i].data);
    free(C.sends);
    free(C.pending);
    free(C.lost);
    C.sends = NULL;
    C.pending = NULL;
    C.lost = NULL;
    pthread_mutex_unlock(&C.lock);
}
