/* Windows: the same promises with the C runtime and MoveFileEx.  There
 * are no symbolic links, FIFOs or sockets to fear on the usual paths; a
 * path that is something other than a regular file (a directory) is
 * refused, and the temporary file is created exclusively. */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <windows.h>

#include "error.h"
#include "outfile_private.h"

bool outfile_check(const char *path, char *err, size_t errlen)
{
    struct _stati64 st;
    if (!path || !*path)
        return err_set(err, errlen, "no output file named");
    if (_stati64(path, &st) != 0) {
        if (errno != ENOENT)
            return err_set(err, errlen, "cannot write %s: %s", path, strerror(errno));
        /* a new file: its folder must be there, or the work done before
         * the first write would be lost */
        char dir[4096];
        outfile_folder(path, dir, sizeof dir);
        if (_stati64(dir, &st) != 0) {
            int e = errno;
            err_set(err, errlen, "cannot write %s: folder %s: %s", path, dir, strerror(e));
            errno = e; /* for a caller with its own words */
            return false;
        }
        if (!(st.st_mode & _S_IFDIR))
            return err_set(err, errlen, "cannot write %s: %s is not a folder", path, dir);
        return true;
    }
    if (st.st_mode & _S_IFREG)
        return true;
    return err_set(err, errlen, "%s is %s: only a new file or a regular file is written (refused)", path,
                   st.st_mode & _S_IFDIR ? "a directory" : "not a regular file");
}

bool outfile_begin(OutFile *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    if (!outfile_check(path, err, errlen))
        return false;
    size_t len = strlen(path);
    o->path = strdup(path);
    o->tmp = malloc(len + 32);
    if (!o->path || !o->tmp) {
        outfile_abort(o);
        return err_set(err, errlen, "out of memory");
    }
    int fd = -1;
    for (unsigned k = 0; fd < 0 && k < 100; k++) {
        snprintf(o->tmp, len + 32, "%s.tmp.%lu.%u", path, (unsigned long)GetCurrentProcessId(), k);
        fd = _open(o->tmp, _O_CREAT | _O_EXCL | _O_WRONLY | _O_BINARY, _S_IREAD | _S_IWRITE);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int e = errno;
        free(o->tmp);
        o->tmp = NULL;
        outfile_abort(o);
        return err_set(err, errlen, "cannot write %s: %s", path, strerror(e));
    }
    o->f = _fdopen(fd, "wb");
    if (!o->f) {
        int e = errno;
        _close(fd);
        outfile_abort(o);
        return err_set(err, errlen, "cannot write %s: %s", path, strerror(e));
    }
    return true;
}

bool outfile_commit(OutFile *o, char *err, size_t errlen)
{
    bool ok = o->f && !ferror(o->f);
    if (o->f && fclose(o->f) != 0)
        ok = false;
    o->f = NULL;
    char why[512];
    if (ok && !outfile_check(o->path, why, sizeof why)) {
        err_set(err, errlen, "%s", why);
        outfile_abort(o);
        return false;
    }
    /* rename() will not replace a file on Windows */
    if (ok && !MoveFileExA(o->tmp, o->path, MOVEFILE_REPLACE_EXISTING))
        ok = false;
    if (!ok)
        err_set(err, errlen, "cannot write %s (Windows error %lu)", o->path, (unsigned long)GetLastError());
    else {
        free(o->tmp);
        o->tmp = NULL;
    }
    outfile_abort(o);
    return ok;
}

static FILE *open_regular(const char *path, const char *mode, char *err, size_t errlen)
{
    if (!outfile_check(path, err, errlen))
        return NULL;
    FILE *f = fopen(path, mode);
    if (!f)
        err_set(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return f;
}

FILE *outfile_open(const char *path, char *err, size_t errlen) { return open_regular(path, "w", err, errlen); }

/* binary: a log gets the same bytes, LF line ends, as on Linux */
FILE *outfile_append(const char *path, char *err, size_t errlen) { return open_regular(path, "ab", err, errlen); }
