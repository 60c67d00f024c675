/* A job of one process: the build without MPI (comm.h). */
#include "comm.h"

bool comm_init(int *argc, char ***argv, char *err, size_t errlen)
{
    (void)argc, (void)argv, (void)err, (void)errlen;
    return true;
}

int comm_rank(void) { return 0; }
int comm_size(void) { return 1; }
const char *comm_name(void) { return "one process"; }

bool comm_send(int to, int channel, int type, const void *data, size_t len)
{
    (void)to, (void)channel, (void)type, (void)data, (void)len;
    return false;
}

int comm_pending(int to)
{
    (void)to;
    return 0;
}

void comm_give_up(int to) { (void)to; }

long comm_poll(int channel, int *from, int *type, void *buf, size_t cap)
{
    (void)channel, (void)from, (void)type, (void)buf, (void)cap;
    return -1;
}

void comm_finish(bool clean) { (void)clean; }
