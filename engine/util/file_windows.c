#include "file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <direct.h>
#include <sys/stat.h>

#include "error.h"

bool file_make_dir(const char *path)
{
    if (_mkdir(path) == 0)
        return true;
    /* what is there must be a folder: files are written into it */
    struct _stati64 st;
    int e = errno;
    if (e == EEXIST && _stati64(path, &st) == 0 && !(st.st_mode & _S_IFDIR))
        e = ENOTDIR;
    errno = e;
    return e == EEXIST;
}

/* The file's size when path is a regular file; -1 with err. */
static long long regular_size(const char *path, const char *what, char *err, size_t errlen)
{
    struct _stati64 st;
    if (_stati64(path, &st) != 0) {
        int e = errno;
        if (what)
            err_set(err, errlen, "cannot open %s %s: %s", what, path, strerror(e));
        else
            err_set(err, errlen, "cannot open: %s", strerror(e));
        errno = e;
        return -1;
    }
    if (!(st.st_mode & _S_IFREG)) {
        const char *kind = st.st_mode & _S_IFDIR ? "a directory" : "a device";
        if (what)
            err_set(err, errlen, "%s %s is not a regular file but %s", what, path, kind);
        else
            err_set(err, errlen, "not a regular file but %s", kind);
        errno = EINVAL;
        return -1;
    }
    return (long long)st.st_size;
}

FILE *file_open_regular(const char *path, const char *what, char *err, size_t errlen)
{
    if (regular_size(path, what, err, errlen) < 0)
        return NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (what)
            err_set(err, errlen, "cannot open %s %s: %s", what, path, strerror(errno));
        else
            err_set(err, errlen, "cannot open: %s", strerror(errno));
    }
    return f;
}

bool file_read(const char *path, const char *what, size_t max, unsigned char **data, size_t *len, char *err,
               size_t errlen)
{
    long long bytes = regular_size(path, what, err, errlen);
    if (bytes < 0)
        return false;
    if ((unsigned long long)bytes > max)
        return err_set(err, errlen, "%s %s is too large (%lld bytes)", what, path, bytes);
    FILE *f = fopen(path, "rb");
    if (!f)
        return err_set(err, errlen, "cannot open %s %s: %s", what, path, strerror(errno));
    size_t size = (size_t)bytes;
    unsigned char *buf = malloc(size ? size : 1);
    if (!buf) {
        fclose(f);
        return err_set(err, errlen, "out of memory");
    }
    size_t got = fread(buf, 1, size, f);
    bool bad = got != size || ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return err_set(err, errlen, "cannot read %s %s: %s", what, path, got < size ? "it was cut short" : "read error");
    }
    *data = buf;
    *len = got;
    return true;
}
