/* What the two systems' outfile modules share (outfile.h): giving up a
 * replacement, its temporary file removed; a new file's folder; the check
 * of standard output at the end of a tool. */
#include "outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outfile_private.h"

void outfile_abort(OutFile *o)
{
    if (o->f)
        fclose(o->f);
    if (o->tmp)
        remove(o->tmp);
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
}

int outfile_write_error(FILE *f)
{
    clearerr(f);
    errno = 0;
    if (fputc(0, f) == EOF || fflush(f) != 0)
        return errno ? errno : EIO;
    return EIO;
}

static bool is_separator(char c)
{
#ifdef _WIN32
    return c == '/' || c == '\\';
#else
    return c == '/';
#endif
}

void outfile_folder(const char *path, char *dir, size_t len)
{
    size_t cut = strlen(path);
    while (cut > 0 && !is_separator(path[cut - 1]))
        cut--;
    /* the separator goes unless the folder is a root ("/x", "C:\x") */
    if (cut > 1 && !(cut == 3 && path[1] == ':'))
        cut--;
    if (cut == 0)
        snprintf(dir, len, ".");
    else
        snprintf(dir, len, "%.*s", (int)cut, path);
}

int outfile_finish_stdout(const char *tool, int status)
{
    /* a full disk shows only here when the output was buffered: the
     * earlier writes' errors are kept in the stream's error flag */
    errno = 0;
    bool flushed = fflush(stdout) == 0;
    int e = errno;
    bool ok = flushed && !ferror(stdout);
    if (fclose(stdout) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (ok)
        return status;
    fprintf(stderr, "%s: cannot write standard output: %s\n", tool,
            e ? strerror(e) : "a write failed");
    return status > 1 ? status : 2;
}
