#include "file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <direct.h>
#include <sys/stat.h>

#include "error.h"

bool file_make_dir(const char *path) { return _mkdir(path) == 0 || errno == EEXIST; }

bool file_read(const char *path, const char *what, size_t max, unsigned char **data, size_t *len, char *err,
               size_t errlen)
{
    struct _stati64 st;
    if (_stati64(path, &st) != 0)
        return err_set(err, errlen, "cannot open %s %s: %s", what, path, strerror(errno));
    if (!(st.st_mode & _S_IFREG))
        return err_set(err, errlen, "%s %s is not a regular file", what, path);
    if ((unsigned long long)st.st_size > max)
        return err_set(err, errlen, "%s %s is too large (%lld bytes)", what, path, (long long)st.st_size);
    FILE *f = fopen(path, "rb");
    if (!f)
        return err_set(err, errlen, "cannot open %s %s: %s", what, path, strerror(errno));
    size_t size = (size_t)st.st_size;
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
