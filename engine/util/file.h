/* Input files, refused unless they are regular files (a FIFO would block, a
 * device never end): the POSIX way opens without blocking and checks what
 * it opened (file_posix.c), the Windows way checks the path, then opens it
 * in binary (file_windows.c). */
#ifndef CHUHAN_UTIL_FILE_H
#define CHUHAN_UTIL_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The one way inputs are opened: path for reading (binary), refused at
 * once unless it is a regular file (a FIFO with no writer would block for
 * ever, /dev/stdin take a GUI's later commands, a device never end).  NULL
 * with the reason in err, naming the file as "WHAT PATH" ("book x.book"),
 * or not at all when what is NULL (the caller names it); errno is ENOENT
 * after a missing file. */
FILE *file_open_regular(const char *path, const char *what, char *err, size_t errlen);

/* The whole file, opened as above, into *data (malloc'd, the caller frees
 * it) and *len; false with the reason, the file named as above. */
bool file_read(const char *path, const char *what, size_t max, unsigned char **data, size_t *len, char *err,
               size_t errlen);

#ifndef _WIN32
#include <sys/types.h>
/* What a file that is not a regular one is, in words ("a FIFO", "a
 * directory", "a symbolic link"...), from its st_mode: the one wording of
 * the reasons inputs and outputs are refused with. */
const char *file_kind(mode_t mode);
#endif

/* Make the directory path unless one is there; false when it cannot
 * (errno says why: ENOTDIR when a file or anything else has the name). */
bool file_make_dir(const char *path);

#endif
