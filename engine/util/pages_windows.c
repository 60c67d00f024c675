/* Windows: VirtualAlloc and VirtualFree.  A huge block is asked for in
 * large pages first, which Windows grants only to a user holding "Lock
 * pages in memory" (SeLockMemoryPrivilege, given in the local security
 * policy): the privilege is switched on once, and when it is missing or
 * the large pages cannot be had the block comes in normal pages.  Either
 * way the memory is zeroed and 64 KB aligned. */
#include "pages.h"

#include <windows.h>

static size_t large_page(void)
{
    static LONG state; /* 0 not tried, 1 usable, 2 not */
    LONG s = InterlockedCompareExchange(&state, 0, 0);
    if (!s) {
        s = 2;
        HANDLE token;
        TOKEN_PRIVILEGES tp = {.PrivilegeCount = 1};
        tp.Privileges[0].Attributes = SE_PRIVILEGE_ENABLED;
        if (GetLargePageMinimum() && OpenProcessToken(GetCurrentProcess(), TOKEN_ADJUST_PRIVILEGES, &token)) {
            /* AdjustTokenPrivileges "succeeds" without the privilege: the
             * last error tells */
            if (LookupPrivilegeValueA(NULL, "SeLockMemoryPrivilege", &tp.Privileges[0].Luid)
                && AdjustTokenPrivileges(token, FALSE, &tp, 0, NULL, NULL) && GetLastError() == ERROR_SUCCESS)
                s = 1;
            CloseHandle(token);
        }
        InterlockedExchange(&state, s);
    }
    return s == 1 ? GetLargePageMinimum() : 0;
}

void *pages_alloc(size_t bytes, bool huge)
{
    if (bytes == 0)
        return NULL;
    size_t large = huge ? large_page() : 0;
    if (large && bytes >= large) {
        size_t size = (bytes + large - 1) / large * large;
        void *p = VirtualAlloc(NULL, size, MEM_RESERVE | MEM_COMMIT | MEM_LARGE_PAGES, PAGE_READWRITE);
        if (p)
            return p;
    }
    return VirtualAlloc(NULL, bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}

void pages_free(void *p, size_t bytes)
{
    if (p && bytes)
        VirtualFree(p, 0, MEM_RELEASE);
}
