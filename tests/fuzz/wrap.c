/* Linked into the libFuzzer binaries only (-Wl,--wrap=...): what makes one
 * protocol input cost a fraction of a millisecond instead of several, with
 * the same behaviour as far as the input can tell.
 *
 * - The engine of each input gets a 1 MB hash table that stays mapped from
 *   one input to the next, and at most 2 search threads, whatever the
 *   options ask.  Sizes out of range still go to the real functions, for
 *   their error messages.
 * - The built-in book, read-only, is loaded once for all inputs.
 * - Every search stops after at most FUZZ_NODES nodes (on top of the
 *   limits the input gives): the front-ends, not the search, are what the
 *   protocol targets test, and a node bound, unlike the clock, gives the
 *   same result for the same input every time.
 * - The thread pool of a freed engine is parked, its threads asleep, and
 *   given to the next engine that asks for as many threads: creating the
 *   threads was a tenth of an execution.
 * - The thread states (4.7 MB each) and the table are cleared only after a
 *   search has written to them (pool_start sets each thread's shared, and
 *   marks the table): clearing them was more than half of an execution,
 *   and many inputs do not search. */
#include <string.h>

#include "book/book.h"
#include "engine/engine.h"
#include "engine/util/pages.h"
#include "search/search_private.h"
#include "search/threads.h"
#include "search/tt.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUZZ_ASAN 1
#include <sanitizer/asan_interface.h>
#endif
#endif

bool __real_tt_resize(TT *tt, size_t size_mb, int threads, char *err, size_t errlen);
bool __wrap_tt_resize(TT *tt, size_t size_mb, int threads, char *err, size_t errlen);
void __real_tt_clear(TT *tt, int threads);
void __wrap_tt_clear(TT *tt, int threads);
void __real_tt_free(TT *tt);
void __wrap_tt_free(TT *tt);
ThreadPool *__real_pool_new(int threads, char *err, size_t errlen);
ThreadPool *__wrap_pool_new(int threads, char *err, size_t errlen);
void __real_pool_free(ThreadPool *pool);
void __wrap_pool_free(ThreadPool *pool);
bool __real_pool_resize(ThreadPool *pool, int threads, char *err, size_t errlen);
bool __wrap_pool_resize(ThreadPool *pool, int threads, char *err, size_t errlen);
void __real_pool_start(ThreadPool *pool, TT *tt, const Position *root, const SearchLimits *limits,
                       const SearchSettings *settings, const SearchReport *report);
void __wrap_pool_start(ThreadPool *pool, TT *tt, const Position *root, const SearchLimits *limits,
                       const SearchSettings *settings, const SearchReport *report);
void __real_search_clear(SearchThread *th);
void __wrap_search_clear(SearchThread *th);
void __real_engine_go(Engine *e, const SearchLimits *limits);
void __wrap_engine_go(Engine *e, const SearchLimits *limits);
Book *__real_book_load_default(char *err, size_t errlen);
Book *__wrap_book_load_default(char *err, size_t errlen);
void __real_book_free(Book *book);
void __wrap_book_free(Book *book);
void *__real_pages_alloc(size_t bytes, bool huge);
void *__wrap_pages_alloc(size_t bytes, bool huge);
void __real_pages_free(void *p, size_t bytes);
void __wrap_pages_free(void *p, size_t bytes);

/* ---- searches ---- */

#define FUZZ_NODES 100

void __wrap_engine_go(Engine *e, const SearchLimits *limits)
{
    SearchLimits lim = *limits;
    if (!lim.nodes || lim.nodes > FUZZ_NODES)
        lim.nodes = FUZZ_NODES;
    __real_engine_go(e, &lim);
}

/* A thread state that no search has touched since it was zeroed (pool_start
 * sets shared) has its histories clear already: a new game is cheap. */
void __wrap_search_clear(SearchThread *th)
{
    if (th->shared)
        __real_search_clear(th);
}

/* ---- the hash table ---- */

#define TABLE_BYTES (1u << 20)
static TTCluster table[TABLE_BYTES / sizeof(TTCluster)] __attribute__((aligned(64)));
static TT *owner;         /* the one engine using the table (one input at a time) */
static bool table_dirty; /* a search may have stored entries since the last clear */

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
    if (table_dirty)
        __wrap_tt_clear(tt, threads);
    tt->generation = 0; /* as tt_clear leaves it */
    return true;
}

void __wrap_tt_clear(TT *tt, int threads)
{
    if (tt->table != table) {
        __real_tt_clear(tt, threads);
        return;
    }
    memset(table, 0, TABLE_BYTES);
    tt->generation = 0; /* as tt_clear leaves it */
    table_dirty = false;
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

/* ---- the thread pool ---- */

static ThreadPool *parked; /* a freed engine's pool, idle, its threads asleep */

/* Under AddressSanitizer nothing may touch the thread states of a parked
 * pool: they are poisoned until the pool is handed out or really freed. */
static void poison_states(ThreadPool *pool, bool poison)
{
#ifdef FUZZ_ASAN
    for (int i = 0; i < pool_size(pool); i++) {
        SearchThread *th = pool_thread(pool, i);
        if (poison)
            ASAN_POISON_MEMORY_REGION(th, sizeof *th);
        else
            ASAN_UNPOISON_MEMORY_REGION(th, sizeof *th);
    }
#else
    (void)pool;
    (void)poison;
#endif
}

ThreadPool *__wrap_pool_new(int threads, char *err, size_t errlen)
{
    if (!parked || pool_size(parked) != threads)
        return __real_pool_new(threads, err, errlen);
    ThreadPool *pool = parked;
    parked = NULL;
    poison_states(pool, false);
    /* The thread states as a new pool has them: zeroed, but for the id.
     * One that pool_start never touched (it sets shared) is still so. */
    for (int i = 0; i < threads; i++) {
        SearchThread *th = pool_thread(pool, i);
        if (th->shared) {
            memset(th, 0, sizeof *th);
            th->id = i;
        }
    }
    return pool;
}

/* The pool of the last engine freed is parked (an earlier one is freed). */
void __wrap_pool_free(ThreadPool *pool)
{
    if (!pool)
        return;
    if (parked) {
        poison_states(parked, false);
        __real_pool_free(parked);
    }
    pool_stop(pool);
    pool_wait(pool);
    parked = pool;
    poison_states(pool, true);
}

bool __wrap_pool_resize(ThreadPool *pool, int threads, char *err, size_t errlen)
{
    if (threads > 2 && threads <= MAX_THREADS)
        threads = 2;
    return __real_pool_resize(pool, threads, err, errlen);
}

void __wrap_pool_start(ThreadPool *pool, TT *tt, const Position *root, const SearchLimits *limits,
                       const SearchSettings *settings, const SearchReport *report)
{
    table_dirty = true;
    __real_pool_start(pool, tt, root, limits, settings, report);
}

/* ---- the book ---- */

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

/* ---- big blocks (a Threads change) ----
 * Freed blocks are kept here (a few) and handed out again, zeroed as the
 * real function's are, instead of a new mapping each time.
 * Not under AddressSanitizer, where a block that was given back is better
 * unmapped, so that a use after free faults. */

#ifdef FUZZ_ASAN
void *__wrap_pages_alloc(size_t bytes, bool huge) { return __real_pages_alloc(bytes, huge); }
void __wrap_pages_free(void *p, size_t bytes) { __real_pages_free(p, bytes); }
#else
enum { KEPT_MAX = 4 };
static struct {
    void *p;
    size_t bytes;
    bool zero; /* all zero already */
} kept[KEPT_MAX];
static int nkept;

void *__wrap_pages_alloc(size_t bytes, bool huge)
{
    for (int i = 0; i < nkept; i++)
        if (kept[i].bytes == bytes) {
            void *p = kept[i].p;
            if (!kept[i].zero)
                memset(p, 0, bytes);
            kept[i] = kept[--nkept];
            return p;
        }
    return __real_pages_alloc(bytes, huge);
}

void __wrap_pages_free(void *p, size_t bytes)
{
    if (p && bytes <= (16u << 20) && nkept < KEPT_MAX) {
        kept[nkept].p = p;
        kept[nkept].bytes = bytes;
        /* a thread state no search touched is zero but for its id */
        SearchThread *th = p;
        kept[nkept].zero = bytes == sizeof *th && !th->shared;
        if (kept[nkept].zero)
            th->id = 0;
        nkept++;
        return;
    }
    __real_pages_free(p, bytes);
}
#endif
