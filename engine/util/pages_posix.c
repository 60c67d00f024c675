#include "pages.h"

#include <stdint.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

/* Whole pages; a huge block is mapped HUGE_PAGE larger and trimmed to a
 * 2 MB aligned start, so that pages_free unmaps the rounded size from the
 * start in either case. */
static size_t rounded(size_t bytes) { return (bytes + 4095) / 4096 * 4096; }

void *pages_alloc(size_t bytes, bool huge)
{
    if (bytes == 0)
        return NULL;
    size_t size = rounded(bytes);
    bool aligned = huge && bytes >= HUGE_PAGE;
    size_t map = aligned ? size + HUGE_PAGE : size;
    char *p = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    if (!aligned)
        return p;
    char *start = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (start > p)
        munmap(p, (size_t)(start - p));
    if (start + size < p + map)
        munmap(start + size, (size_t)(p + map - (start + size)));
#ifdef MADV_HUGEPAGE
    madvise(start, size, MADV_HUGEPAGE); /* a hint: huge pages where the OS gives them */
#endif
    return start;
}

void pages_free(void *p, size_t bytes)
{
    if (p && bytes)
        munmap(p, rounded(bytes));
}
