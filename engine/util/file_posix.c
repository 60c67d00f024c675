#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"

bool file_make_dir(const char *path) { return mkdir(path, 0777) == 0 || errno == EEXIST; }

bool file_read(const char *path, const char *what, size_t max, unsigned char **data, size_t *len, char *err,
               size_t errlen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return err_set(err, errlen, "cannot open %s %s: %s", what, path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return err_set(err, errlen, "%s %s is not a regular file", what, path);
    }
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
