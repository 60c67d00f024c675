#define _GNU_SOURCE /* O_CLOEXEC, O_NOFOLLOW */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "file.h"
#include "outfile_private.h"

static bool refuse(const char *path, mode_t mode, char *err, size_t errlen)
{
    return err_set(err, errlen, "%s is %s: only a new file or a regular file is written (refused)", path,
                   file_kind(mode));
}

bool outfile_check(const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (!path || !*path)
        return err_set(err, errlen, "no output file named");
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT)
            return err_set(err, errlen, "cannot write %s: %s", path, strerror(errno));
        /* a new file: its folder must be there, or the work done before
         * the first write would be lost */
        char dir[4096];
        outfile_folder(path, dir, sizeof dir);
        if (stat(dir, &st) != 0) {
            int e = errno;
            err_set(err, errlen, "cannot write %s: folder %s: %s", path, dir, strerror(e));
            errno = e; /* for a caller with its own words */
            return false;
        }
        if (!S_ISDIR(st.st_mode))
            return err_set(err, errlen, "cannot write %s: %s is not a folder", path, dir);
        return true;
    }
    return S_ISREG(st.st_mode) ? true : refuse(path, st.st_mode, err, errlen);
}

/* An unnamed file in the folder of path (Linux's O_TMPFILE): a tool killed
 * before its commit (Ctrl-C, kill, a crash) leaves nothing behind, since
 * the file has a name only from the commit.  -1 where the system or the
 * file system has no such files, or where /proc, through which the file
 * gets its name, is missing. */
static int open_unnamed(const char *path)
{
#ifdef O_TMPFILE
    char dir[4096], self[64];
    outfile_folder(path, dir, sizeof dir);
    int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    if (fd < 0)
        return -1;
    snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
    if (access(self, F_OK) != 0) {
        close(fd);
        return -1;
    }
    return fd;
#else
    (void)path;
    return -1;
#endif
}

bool outfile_begin(OutFile *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    if (!outfile_check(path, err, errlen))
        return false;
    o->path = strdup(path);
    if (!o->path) {
        outfile_abort(o);
        return err_set(err, errlen, "out of memory");
    }
    int fd = open_unnamed(path);
    if (fd < 0) {
        /* a named temporary file: what an interrupted tool leaves */
        size_t len = strlen(path);
        o->tmp = malloc(len + 16);
        if (!o->tmp) {
            outfile_abort(o);
            return err_set(err, errlen, "out of memory");
        }
        /* a fresh name: an existing PATH.tmp (a link, a device) is never opened */
        snprintf(o->tmp, len + 16, "%s.tmp.XXXXXX", path);
        fd = mkstemp(o->tmp);
        if (fd < 0) {
            int e = errno;
            free(o->tmp);
            o->tmp = NULL;
            outfile_abort(o);
            return err_set(err, errlen, "cannot write %s: %s", path, strerror(e));
        }
        /* mkstemp makes it private (0600); the file gets the usual mode */
        mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask);
    }
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        int e = errno;
        close(fd);
        outfile_abort(o);
        return err_set(err, errlen, "cannot write %s: %s", path, strerror(e));
    }
    return true;
}

/* The unnamed file of o, written, named beside o->path (o->tmp), to be
 * renamed over it: the one moment, two system calls long, when a killed
 * tool would leave it.  0, or the errno value. */
static int name_unnamed(OutFile *o)
{
    size_t len = strlen(o->path) + 48;
    if (!(o->tmp = malloc(len)))
        return ENOMEM;
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", fileno(o->f));
    for (unsigned k = 0; k < 100; k++) {
        snprintf(o->tmp, len, "%s.tmp.%ld.%u", o->path, (long)getpid(), k);
        if (linkat(AT_FDCWD, self, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW) == 0)
            return 0;
        if (errno != EEXIST)
            break;
    }
    int e = errno;
    free(o->tmp);
    o->tmp = NULL;
    return e;
}

bool outfile_commit(OutFile *o, char *err, size_t errlen)
{
    bool ok = o->f && !ferror(o->f);
    int e = ok ? 0 : o->f ? outfile_write_error(o->f) : EIO;
    if (ok && fflush(o->f) != 0) {
        ok = false;
        e = errno;
    }
    if (ok && !o->tmp && (e = name_unnamed(o)) != 0)
        ok = false;
    if (o->f && fclose(o->f) != 0 && ok) {
        ok = false;
        e = errno;
    }
    o->f = NULL;
    /* the path may have become something else since it was checked */
    char why[512];
    if (ok && !outfile_check(o->path, why, sizeof why)) {
        err_set(err, errlen, "%s", why);
        outfile_abort(o);
        return false;
    }
    if (ok && rename(o->tmp, o->path) != 0) {
        ok = false;
        e = errno;
    }
    if (!ok)
        err_set(err, errlen, "cannot write %s: %s", o->path, strerror(e));
    else {
        free(o->tmp); /* renamed: nothing to remove */
        o->tmp = NULL;
    }
    outfile_abort(o);
    return ok;
}

static FILE *open_regular(const char *path, bool append, char *err, size_t errlen);

FILE *outfile_open(const char *path, char *err, size_t errlen) { return open_regular(path, false, err, errlen); }

FILE *outfile_append(const char *path, char *err, size_t errlen) { return open_regular(path, true, err, errlen); }

static FILE *open_regular(const char *path, bool append, char *err, size_t errlen)
{
    if (!outfile_check(path, err, errlen))
        return NULL;
    /* no link followed, no wait on a FIFO put there since the check */
    int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (append ? O_APPEND : 0), 0666);
    if (fd < 0) {
        int e = errno;
        err_set(err, errlen, "cannot write %s: %s", path, e == ELOOP ? "it is a symbolic link" : strerror(e));
        errno = e; /* for a caller with its own words */
        return NULL;
    }
    struct stat st;
    memset(&st, 0, sizeof st);
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        refuse(path, st.st_mode, err, errlen);
        return NULL;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    FILE *f = append ? fdopen(fd, "a") : ftruncate(fd, 0) == 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        err_set(err, errlen, "cannot write %s: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}
