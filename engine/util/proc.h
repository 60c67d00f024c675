/* A child process spoken to through pipes, line by line: its standard
 * input and output are ours, its standard error is left to ours.  It runs
 * in a process group of its own (killing it kills what it started, a
 * shell's children too), and every exchange is bounded: a write must be
 * taken within its time, a read waits no longer than its deadline, and a
 * line longer than PROC_LINE_MAX bytes is dropped whole; so a child that
 * floods, stalls or dies never hangs the parent.  Used by the match runner,
 * the soak and the tests that drive the engine as a GUI does.
 *
 * The first proc_start makes SIGPIPE ignored in the whole program: a write
 * to a child that has gone must fail, not kill the parent.
 *
 * POSIX only (proc_posix.c).  On Windows (proc_windows.c) no child is
 * started: proc_unavailable says why, and the tools built on it (the match
 * runner, the soak) refuse to run there with that message. */
#ifndef CHUHAN_UTIL_PROC_H
#define CHUHAN_UTIL_PROC_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifndef PROC_LINE_MAX
/* Longest line kept.  Settable at build time only so that the fuzz target
 * of the reader can run the same code at a small scale (tests/README.md,
 * Fuzzing). */
#define PROC_LINE_MAX 65536
#endif

/* The splitting of a child's output into lines, apart from any file (so
 * that it can be tested and fuzzed on its own): bytes go in through
 * proc_lines_room and proc_lines_added, whole lines come out of
 * proc_lines_next.  A line over PROC_LINE_MAX bytes is dropped whole,
 * however its bytes arrive. */
typedef struct {
    char buf[2 * PROC_LINE_MAX];
    size_t start, len; /* unread bytes: buf[start .. start + len) */
    bool discarding;   /* inside a line too long to keep */
    char line[PROC_LINE_MAX + 1]; /* the last line taken, without its end */
} ProcLines;

/* Empty, as before any byte. */
void proc_lines_reset(ProcLines *l);
/* Where the next bytes go, and how many fit (always at least one: an
 * unfinished line too long to keep is dropped to make room). */
char *proc_lines_room(ProcLines *l, size_t *room);
/* n bytes (at most the room given) were written there. */
void proc_lines_added(ProcLines *l, size_t n);
/* The next whole line into l->line (a trailing CR taken off, NUL bytes and
 * tabs as spaces): false when no whole line is buffered. */
bool proc_lines_next(ProcLines *l);

typedef struct {
    pid_t pid; /* 0: none started */
    int to_fd, from_fd;
    bool eof;         /* its output has ended */
    bool reaped;      /* it has exited and wait_status holds how */
    int wait_status;
    ProcLines out;    /* its output; out.line: the last line read */
} Proc;

/* NULL where children can be started; otherwise why not, for a message. */
const char *proc_unavailable(void);

/* Start argv[0] (a path) with argv (NULL-terminated).  False with the
 * reason; a Proc that was running is killed first. */
bool proc_start(Proc *p, const char *const argv[], char *err, size_t errlen);
/* Started, not yet killed or reaped. */
bool proc_alive(const Proc *p);

/* Write all of data within timeout_ms.  False when the child has closed
 * its input, exited, or stopped reading for that long. */
bool proc_write(Proc *p, const void *data, size_t len, int64_t timeout_ms);
/* One line, printf-style (the newline is added), within timeout_ms. */
bool proc_vprintf(Proc *p, int64_t timeout_ms, const char *fmt, va_list ap);

/* The next line before the deadline (now_ms() time): 1 with the line in
 * p->out.line (a trailing CR taken off, NUL bytes and tabs as spaces), 0 when
 * the deadline passed, -1 when the output has ended. */
int proc_read_line(Proc *p, int64_t deadline);

/* Close our end of its input (the child reads end of file). */
void proc_close_input(Proc *p);
/* Wait until it exits or the deadline passes, reading and dropping what it
 * writes meanwhile; true when it has exited (p->wait_status says how). */
bool proc_wait(Proc *p, int64_t deadline);
/* Kill its process group, reap it and close the pipes. */
void proc_kill(Proc *p);
/* How it ended, for messages: "exit status 1", "killed by signal 9",
 * "running". */
const char *proc_exit_text(const Proc *p, char *buf, size_t len);
/* It has been reaped after exiting with status 0. */
bool proc_exited_ok(const Proc *p);

#endif
