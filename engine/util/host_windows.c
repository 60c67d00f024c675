#include "host.h"

#include <signal.h>
#include <windows.h>

int host_cpus(void)
{
    DWORD_PTR mine, all;
    int n = 0;
    if (GetProcessAffinityMask(GetCurrentProcess(), &mine, &all))
        n = __builtin_popcountll((unsigned long long)mine);
    if (n < 1) {
        SYSTEM_INFO si;
        GetSystemInfo(&si);
        n = (int)si.dwNumberOfProcessors;
    }
    return n > 0 ? n : 1;
}

size_t host_memory(void)
{
    MEMORYSTATUSEX m = {.dwLength = sizeof m};
    return GlobalMemoryStatusEx(&m) ? (size_t)m.ullTotalPhys : 0;
}

double host_cpu_seconds(void)
{
    FILETIME created, ended, kernel, user;
    if (!GetProcessTimes(GetCurrentProcess(), &created, &ended, &kernel, &user))
        return 0;
    /* 100 ns units */
    ULONGLONG k = (ULONGLONG)kernel.dwHighDateTime << 32 | kernel.dwLowDateTime;
    ULONGLONG u = (ULONGLONG)user.dwHighDateTime << 32 | user.dwLowDateTime;
    return (double)(k + u) * 1e-7;
}

bool host_self_path(char *buf, size_t len)
{
    DWORD n = len > 1 ? GetModuleFileNameA(NULL, buf, (DWORD)len) : 0;
    return n > 0 && n < len;
}

void host_on_terminate(void (*fn)(int)) { signal(SIGTERM, fn); }
