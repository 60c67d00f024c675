/* A file read whole into memory, refused unless it is a regular file of at
 * most max bytes (a FIFO would block, a device never end): the POSIX way
 * opens without blocking and checks what it opened (file_posix.c), the
 * Windows way checks the path, then reads it in binary (file_windows.c). */
#ifndef CHUHAN_UTIL_FILE_H
#define CHUHAN_UTIL_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* *data (malloc'd, the caller frees it) and *len; false with the reason,
 * naming the file as "WHAT PATH" ("book x.book"). */
bool file_read(const char *path, const char *what, size_t max, unsigned char **data, size_t *len, char *err,
               size_t errlen);

/* Make the directory path unless it is there; false (errno says why) when
 * it cannot. */
bool file_make_dir(const char *path);

#endif
