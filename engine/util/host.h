/* The machine the program runs on: what the OS tells of it, asked the
 * POSIX way (host_posix.c) or the Windows way (host_windows.c). */
#ifndef CHUHAN_UTIL_HOST_H
#define CHUHAN_UTIL_HOST_H

#include <stdbool.h>
#include <stddef.h>

/* The logical CPUs this process may run on (its affinity), at least 1. */
int host_cpus(void);
/* Physical memory in bytes; 0 when the OS does not say. */
size_t host_memory(void);
/* CPU seconds this process has used, user and system, all threads. */
double host_cpu_seconds(void);
/* The path of this program's binary into buf; false when unknown. */
bool host_self_path(char *buf, size_t len);
/* Call fn when the process is asked to terminate (SIGTERM), without
 * breaking off a blocking read of the input. */
void host_on_terminate(void (*fn)(int));

#endif
