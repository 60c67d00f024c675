/* What outfile.c lends the two systems' outfile modules. */
#ifndef CHUHAN_UTIL_OUTFILE_PRIVATE_H
#define CHUHAN_UTIL_OUTFILE_PRIVATE_H

#include <stddef.h>
#include <stdio.h>

/* The folder path names its file in ("." for a bare name, "/" or "C:\\"
 * for a file at a root), into dir (cut to len). */
void outfile_folder(const char *path, char *dir, size_t len);

/* Why writes to f failed, once its error flag is set: the flag alone
 * keeps no reason, so one more byte is written to find it (f is a
 * temporary file about to be removed).  An errno value, EIO when the
 * byte goes through. */
int outfile_write_error(FILE *f);

#endif
