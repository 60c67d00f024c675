/* Files the tools write (a book, weights, a match's games): only a new
 * path or a regular file is written, never whatever else a path may name.
 * A device, a FIFO, a directory, a socket or a symbolic link given as the
 * output is refused with the reason: `-o /dev/null` run as root must not
 * replace the device with a file, nor a link the file it points to.
 *
 * Two ways: outfile_begin/outfile_commit replaces the file whole (written
 * to a fresh temporary file beside it, then renamed over it: readers see
 * the old file or the new one, never half of one); outfile_open writes in
 * place (a match's games, written as they end).  On Linux the temporary
 * file has no name until the commit (O_TMPFILE, where the file system
 * has it), so that a tool killed while it writes leaves none behind. */
#ifndef CHUHAN_UTIL_OUTFILE_H
#define CHUHAN_UTIL_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* May path be written: true when a regular file is there, or nothing is
 * and its folder is; false with the reason otherwise (errno ENOENT when
 * the folder is missing). */
bool outfile_check(const char *path, char *err, size_t errlen);

typedef struct {
    FILE *f;    /* write here */
    char *path; /* the file to replace */
    char *tmp;  /* the temporary file beside it (NULL while it has no name) */
} OutFile;

/* Open a temporary file beside path for writing (binary); false with the
 * reason (path not writable, see outfile_check). */
bool outfile_begin(OutFile *o, const char *path, char *err, size_t errlen);
/* Close the temporary file and rename it over path; false with the reason
 * (the temporary file is then removed and path left as it was). */
bool outfile_commit(OutFile *o, char *err, size_t errlen);
/* Give up: close and remove the temporary file. */
void outfile_abort(OutFile *o);

/* Open path for writing in place, emptied: NULL with the reason when it
 * is not a new path or a regular file (checked again on the opened file). */
FILE *outfile_open(const char *path, char *err, size_t errlen);
/* The same, appending to what the file holds (a log). */
FILE *outfile_append(const char *path, char *err, size_t errlen);

/* The end of a tool that wrote to standard output: flushed and closed,
 * and any write that failed on the way (a full disk, a closed pipe) told
 * on stderr as "TOOL: cannot write standard output: REASON".  Returns the
 * tool's exit status, or 2 when the output was lost and it was 0 or 1:
 * a tool whose output is lost never exits as if it had succeeded. */
int outfile_finish_stdout(const char *tool, int status);

#endif
