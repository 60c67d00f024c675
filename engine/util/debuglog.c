#include "debuglog.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "outfile.h"

void dlog_init(DebugLog *log)
{
    pthread_mutex_init(&log->lock, NULL);
    log->f = NULL;
    log->path[0] = 0;
}

void dlog_destroy(DebugLog *log)
{
    if (log->f)
        fclose(log->f);
    log->f = NULL;
    pthread_mutex_destroy(&log->lock);
}

bool dlog_open(DebugLog *log, const char *path, char *err, size_t errlen)
{
    FILE *f = NULL;
    if (*path) {
        if (strlen(path) >= DLOG_PATH_MAX) {
            snprintf(err, errlen, "Debug Log File: the file name is too long");
            return false;
        }
        /* a new file or a regular one only: never a device, FIFO or link */
        char why[512];
        errno = 0;
        if (!outfile_check(path, why, sizeof why)) {
            if (errno == ENOENT) /* no folder: said as a GUI expects of a file it cannot open */
                snprintf(err, errlen, "Debug Log File: cannot open '%s': %s", path, strerror(ENOENT));
            else
                snprintf(err, errlen, "Debug Log File: %s", why);
            return false;
        }
        f = outfile_append(path, why, sizeof why);
        if (!f) {
            snprintf(err, errlen, "Debug Log File: cannot open '%s': %s", path, strerror(errno));
            return false;
        }
    }
    pthread_mutex_lock(&log->lock);
    FILE *old = log->f;
    log->f = f;
    snprintf(log->path, sizeof log->path, "%s", path);
    pthread_mutex_unlock(&log->lock);
    if (old)
        fclose(old);
    return true;
}

const char *dlog_path(DebugLog *log, char *buf, size_t len)
{
    pthread_mutex_lock(&log->lock);
    snprintf(buf, len, "%s", log->path);
    pthread_mutex_unlock(&log->lock);
    return buf;
}

void dlog_line(DebugLog *log, bool in, const char *line)
{
    pthread_mutex_lock(&log->lock);
    if (log->f) {
        struct timespec ts;
        struct tm tm;
        clock_gettime(CLOCK_REALTIME, &ts);
        gmtime_r(&ts.tv_sec, &tm);
        char stamp[32];
        strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &tm);
        fprintf(log->f, "%s.%03ld %s %s\n", stamp, ts.tv_nsec / 1000000, in ? ">>" : "<<", line);
        fflush(log->f);
    }
    pthread_mutex_unlock(&log->lock);
}
