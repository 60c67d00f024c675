#include "pages.h"

#include <stdlib.h>
#include <string.h>

/* WebAssembly has one linear memory that only grows, and emscripten's
 * mmap cannot unmap part of a mapping (the trimming of pages_posix.c): the
 * blocks come from the C heap, which reuses what is freed.  There are no
 * huge pages to align to. */
static size_t rounded(size_t bytes) { return (bytes + 63) / 64 * 64; }

void *pages_alloc(size_t bytes, bool huge)
{
    (void)huge;
    if (bytes == 0)
        return NULL;
    void *p = aligned_alloc(64, rounded(bytes));
    if (p)
        memset(p, 0, rounded(bytes));
    return p;
}

void pages_free(void *p, size_t bytes)
{
    (void)bytes;
    free(p);
}
