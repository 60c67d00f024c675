/* Memory for the big blocks of a search (the hash table, each thread's
 * state), taken from the OS with mmap and given back with munmap, so that a
 * smaller Hash or fewer Threads frees the memory at once (pages_posix.c;
 * on Windows VirtualAlloc, with large pages when the user may lock pages:
 * pages_windows.c): malloc would keep
 * freed multi-MB blocks in its heap, and an engine left running for days in
 * a GUI that changes its options would hold the largest size it ever had
 * (and more, fragmented).  The pages come zeroed. */
#ifndef CHUHAN_UTIL_PAGES_H
#define CHUHAN_UTIL_PAGES_H

#include <stdbool.h>
#include <stddef.h>

/* bytes of zeroed memory aligned to 64 bytes (2 MB, with the huge-page hint,
 * when huge and at least 2 MB); NULL when the OS refuses. */
void *pages_alloc(size_t bytes, bool huge);
/* Give back a block from pages_alloc of that many bytes; NULL is ignored. */
void pages_free(void *p, size_t bytes);

#endif
