#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"

bool file_make_dir(const char *path)
{
    if (mkdir(path, 0777) == 0)
        return true;
    /* what is there must be a folder: files are written into it */
    struct stat st;
    int e = errno;
    if (e == EEXIST && stat(path, &st) == 0 && !S_ISDIR(st.st_mode))
        e = ENOTDIR;
    errno = e;
    return e == EEXIST;
}

const char *file_kind(mode_t mode)
{
    return S_ISLNK(mode)    ? "a symbolic link"
           : S_ISDIR(mode)  ? "a directory"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISSOCK(mode) ? "a socket"
                            : "something other than a file";
}

/* A descriptor of path, open for reading, when it is a regular file;
 * -1 with err.  Opened without blocking, so that a FIFO with no writer is
 * seen for what it is at once; reads of a regular file never block. */
static int open_regular(const char *path, const char *what, struct stat *st, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        if (what)
            err_set(err, errlen, "cannot open %s %s: %s", what, path, strerror(e));
        else
            err_set(err, errlen, "cannot open: %s", strerror(e));
        errno = e;
        return -1;
    }
    int got = fstat(fd, st);
    if (got != 0 || !S_ISREG(st->st_mode)) {
        const char *kind = got == 0 ? file_kind(st->st_mode) : "of an unknown kind";
        close(fd);
        if (what)
            err_set(err, errlen, "%s %s is not a regular file but %s", what, path, kind);
        else
            err_set(err, errlen, "not a regular file but %s", kind);
        errno = EINVAL;
        return -1;
    }
    return fd;
}

FILE *file_open_regular(const char *path, const char *what, char *err, size_t errlen)
{
    struct stat st;
    int fd = open_regular(path, what, &st, err, errlen);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        err_set(err, errlen, "out of memory");
    }
    return f;
}

bool file_read(const char *path, const char *what, size_t max, unsigned char **data, size_t *len, char *err,
               size_t errlen)
{
    struct stat st;
    int fd = open_regular(path, what, &st, err, errlen);
    if (fd < 0)
        return false;
    if ((unsigned long long)st.st_size > max) {
        close(fd);
        return err_set(err, errlen, "%s %s is too large (%lld bytes)", what, path, (long long)st.st_size);
    }
    size_t size = (size_t)st.st_size, got = 0;
    unsigned char *buf = malloc(size ? size : 1);
    if (!buf) {
        close(fd);
        return err_set(err, errlen, "out of memory");
    }
    while (got < size) {
        ssize_t n = read(fd, buf + got, size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int e = n < 0 ? errno : EIO;
            free(buf);
            close(fd);
            return err_set(err, errlen, "cannot read %s %s: %s", what, path, strerror(e));
        }
        got += (size_t)n;
    }
    close(fd);
    *data = buf;
    *len = got;
    return true;
}
