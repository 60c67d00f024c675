/* The debug log (the Debug Log File option): every line a protocol reads
 * and writes, one per line of the file, as
 *   2026-12-02 07:01:11.123 >> position startpos     (read: to the engine)
 *   2026-12-02 07:01:11.125 << bestmove h2e2         (written: from it)
 * with the wall-clock time (UTC) to the millisecond.  Safe from any
 * thread; the file is appended to, so that a GUI's sessions follow each
 * other in one log. */
#ifndef CHUHAN_UTIL_DEBUGLOG_H
#define CHUHAN_UTIL_DEBUGLOG_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define DLOG_PATH_MAX 1024

typedef struct {
    pthread_mutex_t lock;
    FILE *f; /* NULL: off */
    char path[DLOG_PATH_MAX];
} DebugLog;

void dlog_init(DebugLog *log);
void dlog_destroy(DebugLog *log); /* closes the file */
/* Log to the file at path from now on (closing any other); "" turns the
 * log off.  False with the reason (the system's) when the file cannot be
 * opened for writing: the log stays as it was. */
bool dlog_open(DebugLog *log, const char *path, char *err, size_t errlen);
/* The file logged to, "" when off. */
const char *dlog_path(DebugLog *log, char *buf, size_t len);
/* One line read (in) or written (!in), without its end of line. */
void dlog_line(DebugLog *log, bool in, const char *line);

#endif
