#define _GNU_SOURCE /* sched_getaffinity */
#include "host.h"

#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

int host_cpus(void)
{
#ifndef __EMSCRIPTEN__ /* a browser tells only the count (navigator.hardwareConcurrency) */
    cpu_set_t set;
    if (!sched_getaffinity(0, sizeof set, &set) && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

size_t host_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (size_t)pages * (size_t)page : 0;
}

double host_cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec
           + ru.ru_stime.tv_usec * 1e-6;
}

bool host_self_path(char *buf, size_t len)
{
    ssize_t n = len > 1 ? readlink("/proc/self/exe", buf, len - 1) : -1;
    if (n <= 0)
        return false;
    buf[n] = 0;
    return true;
}

void host_on_terminate(void (*fn)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sa.sa_flags = SA_RESTART; /* the protocol's read of its input goes on */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
}
