/* Windows: no child processes.  The match runner and the soak drive
 * engines through pipes with deadlines, process groups and kills (the
 * POSIX module); on Windows the GUIs that load Chuhan run its games, so
 * those two tools are refused there with this message, and everything
 * below answers as for a child that could not be started. */
#include "proc.h"

#include <stdio.h>

#include "error.h"

static const char WHY[] = "not available in the Windows build: it starts engines as child processes, "
                          "which only the Linux build does (run it on Linux, or play the engines in a GUI)";

const char *proc_unavailable(void) { return WHY; }

bool proc_start(Proc *p, const char *const argv[], char *err, size_t errlen)
{
    (void)argv;
    p->pid = 0;
    p->to_fd = p->from_fd = -1;
    return err_set(err, errlen, "%s", WHY);
}

bool proc_alive(const Proc *p)
{
    (void)p;
    return false;
}

bool proc_write(Proc *p, const void *data, size_t len, int64_t timeout_ms)
{
    (void)p, (void)data, (void)len, (void)timeout_ms;
    return false;
}

bool proc_vprintf(Proc *p, int64_t timeout_ms, const char *fmt, va_list ap)
{
    (void)p, (void)timeout_ms, (void)fmt, (void)ap;
    return false;
}

int proc_read_line(Proc *p, int64_t deadline)
{
    (void)p, (void)deadline;
    return -1;
}

void proc_close_input(Proc *p) { (void)p; }

bool proc_wait(Proc *p, int64_t deadline)
{
    (void)p, (void)deadline;
    return true;
}

void proc_kill(Proc *p) { (void)p; }

const char *proc_exit_text(const Proc *p, char *buf, size_t len)
{
    (void)p;
    snprintf(buf, len, "never started");
    return buf;
}

bool proc_exited_ok(const Proc *p)
{
    (void)p;
    return false;
}
