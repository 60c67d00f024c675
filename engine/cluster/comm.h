/* The processes of one job: this one's rank among them, and messages
 * between them.  Two files make this one interface: comm_mpi.c over MPI
 * (built with make MPI=1, and started by mpirun) and comm_none.c, a job of
 * one process (every other build).  Nothing else includes <mpi.h> or knows
 * which one is built.
 *
 * Messages are typed bytes on a channel, sent without waiting and polled for:
 * nobody ever blocks on another process, so that a rank that dies or hangs
 * costs its peers a timeout, never their own life.  The ranks run the same
 * build, so a struct travels as its bytes.  MPI's state is the process's:
 * so is this module's, set by comm_init and guarded by a lock after it;
 * any thread may send and poll. */
#ifndef CHUHAN_COMM_H
#define CHUHAN_COMM_H

#include <stdbool.h>
#include <stddef.h>

#define COMM_MAX_MESSAGE (1 << 20) /* longest message, bytes */
#define COMM_MAX_PENDING 256       /* sends to one rank not yet taken before more are refused */

/* The channels: each user of comm has its own, and a message stays in
 * MPI until its own user polls for it. */
enum { COMM_CLUSTER = 1, COMM_MATCH = 2, COMM_DATAGEN = 3 };

/* Join the job when an MPI launcher started this process (mpirun), else,
 * and always in a build without MPI, be a job of one.  False with the
 * reason when MPI does not start. */
bool comm_init(int *argc, char ***argv, char *err, size_t errlen);
int comm_rank(void);
int comm_size(void);
/* The transport in words, e.g. "Open MPI v4.1.4" or "one process". */
const char *comm_name(void);

/* Send a message of a type (its user's) with len bytes (a few less than
 * COMM_MAX_MESSAGE: the type travels with them) to rank `to` on a channel, without waiting: they are
 * copied.  Between two ranks the messages of a channel arrive in the order
 * they were sent.  False, and the message dropped, when `to` is lost (a
 * send to it failed, or it was given up) or has more than
 * COMM_MAX_PENDING sends not yet taken (it does not keep up). */
bool comm_send(int to, int channel, int type, const void *data, size_t len);
/* Sends to rank `to` not yet taken. */
int comm_pending(int to);
/* Give up on rank `to` (it died or hangs): nothing more is sent to it. */
void comm_give_up(int to);
/* Take the next message that has arrived on a channel, from any rank, into
 * buf (cap bytes, at least COMM_MAX_MESSAGE): its length, with *from and
 * *type; -1 when none has arrived. */
long comm_poll(int channel, int *from, int *type, void *buf, size_t cap);

/* Leave the job: when clean, after the last sends are taken (a second at
 * most), as every rank does at its end; otherwise (a peer is lost or did
 * not answer) by ending the whole job.  A job of one just returns. */
void comm_finish(bool clean);

#endif
