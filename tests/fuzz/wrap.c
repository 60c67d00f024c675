/* Linked into the libFuzzer binaries only (-Wl,--wrap=...): the engine
 * that each protocol input starts gets a 1 MB hash table that stays mapped
 * from one input to the next, and at most 2 search threads, whatever the
 * options ask; and the built-in book, read-only, is loaded once for all
 * inputs.  An execution then costs a fraction of a millisecond instead of
 * the allocation and clearing of the default 16 MB table and the unpacking
 * of the book.  Sizes out of range still go to the real functions, for
 * their error messages. */
#include "book/book.h"
#include "search/threads.h"
#include "search/tt.h"

bool __real_tt_resize(TT *tt, size_t size_mb, int threads, char *err, size_t errlen);
bool __wrap_tt_resize(TT *tt, size_t size_mb, int threads, char *err, size_t errlen);
void __real_tt_free(TT *tt);
void __wrap_tt_free(TT *tt);
bool __real_pool_resize(ThreadPool *pool, int threads, char *err, size_t errlen);
bool __wrap_pool_resize(ThreadPool *pool, int threads, char *err, size_t errlen);
Book *__real_book_load_default(char *err, size_t errlen);
Book *__wrap_book_load_default(char *err, size_t errlen);
void __real_book_free(Book *book);
void __wrap_book_free(Book *book);

#define TABLE_BYTES (1u << 20)
static TTCluster table[TABLE_BYTES / sizeof(TTCluster)] __attribute__((aligned(64)));
static TT *owner; /* the one engine using the table (one input at a time) */

bool __wrap_tt_resize(TT *tt, size_t size_mb, int threads, char *err, size_t errlen)
{
    if (size_mb < 1 || size_mb > TT_MAX_MB || (owner && owner != tt))
        return __real_tt_resize(tt, size_mb, threads, err, errlen);
    if (tt->table && tt->table != table)
        __real_tt_free(tt);
    owner = tt;
    tt->table = table;
    tt->bytes = TABLE_BYTES;
    tt->clusters = TABLE_BYTES / sizeof(TTCluster);
    tt_clear(tt, threads);
    return true;
}

void __wrap_tt_free(TT *tt)
{
    if (tt->table != table) {
        __real_tt_free(tt);
        return;
    }
    owner = NULL;
    tt->table = NULL;
    tt->clusters = 0;
    tt->bytes = 0;
}

bool __wrap_pool_resize(ThreadPool *pool, int threads, char *err, size_t errlen)
{
    if (threads > 2 && threads <= MAX_THREADS)
        threads = 2;
    return __real_pool_resize(pool, threads, err, errlen);
}

static Book *default_book;

Book *__wrap_book_load_default(char *err, size_t errlen)
{
    if (!default_book)
        default_book = __real_book_load_default(err, errlen);
    return default_book;
}

void __wrap_book_free(Book *book)
{
    if (book != default_book)
        __real_book_free(book);
}

/* Each engine's search threads take a few MB each (SearchThread) from
 * pages_alloc, and the kernel's faulting in of fresh pages was most of an
 * execution of the protocol targets.  Freed blocks are kept here (a few)
 * and handed out again, zeroed as the real function's are.  Not under
 * AddressSanitizer, where a block that was given back is better unmapped,
 * so that a use after free faults. */
#include <string.h>

#include "search/pages.h"

void *__real_pages_alloc(size_t bytes, bool huge);
void *__wrap_pages_alloc(size_t bytes, bool huge);
void __real_pages_free(void *p, size_t bytes);
void __wrap_pages_free(void *p, size_t bytes);

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUZZ_ASAN 1
#endif
#endif

#ifdef FUZZ_ASAN
void *__wrap_pages_alloc(size_t bytes, bool huge) { return __real_pages_alloc(bytes, huge); }
void __wrap_pages_free(void *p, size_t bytes) { __real_pages_free(p, bytes); }
#else
enum { KEPT_MAX = 4 };
static struct {
    void *p;
    size_t bytes;
} kept[KEPT_MAX];
static int nkept;

void *__wrap_pages_alloc(size_t bytes, bool huge)
{
    for (int i = 0; i < nkept; i++)
        if (kept[i].bytes == bytes) {
            void *p = kept[i].p;
            kept[i] = kept[--nkept];
            memset(p, 0, bytes);
            return p;
        }
    return __real_pages_alloc(bytes, huge);
}

void __wrap_pages_free(void *p, size_t bytes)
{
    if (p && bytes <= (16u << 20) && nkept < KEPT_MAX) {
        kept[nkept].p = p;
        kept[nkept].bytes = bytes;
        nkept++;
        return;
    }
    __real_pages_free(p, bytes);
}
#endif
