/* Linked into the libFuzzer binaries only (-Wl,--wrap=...): what makes one
 * protocol input cost a fraction of a millisecond instead of several, with
 * the same behaviour as far as the input can tell.
 *
 * - The engine of each input gets a 256 kB hash table that stays in place
 *   from one input to the next, whatever Hash says (4,096 clusters: room
 *   for more than the searches of one input store, see FUZZ_NODES; the
 *   table's code is the same at any number of clusters; a quarter of the
 *   smallest real table, a quarter of the clearing), and at most 2 search
 *   threads, whatever the options ask.  Sizes out of range still go to the
 *   real functions, for their error messages.
 * - The built-in book and the built-in net, read-only, are loaded once for
 *   all inputs (loading the net took 98% of an execution: 73 `ucci`
 *   executions a second before, 4,200 after).
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
 *   and many inputs do not search.  A thread state is cleared by giving
 *   its pages back (zero_pages), so that only those a search touches again
 *   are zeroed, not all 1,237.
 * - Big heap blocks and joined threads are kept for the next input (below).
 * Each of these was found by profiling (perf) the fast build. */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "book/book.h"
#include "engine/engine.h"
#include "eval/nnue/nnue.h"
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
void __wrap_search_clear(SearchThread *th);
void __real_engine_go(Engine *e, const SearchLimits *limits);
void __wrap_engine_go(Engine *e, const SearchLimits *limits);
NnueNet *__real_nnue_load_default(char *err, size_t errlen);
NnueNet *__wrap_nnue_load_default(char *err, size_t errlen);
void __real_nnue_free(NnueNet *net);
void __wrap_nnue_free(NnueNet *net);
Book *__real_book_load_default(char *err, size_t errlen);
Book *__wrap_book_load_default(char *err, size_t errlen);
void __real_book_free(Book *book);
void __wrap_book_free(Book *book);
void *__real_pages_alloc(size_t bytes, bool huge);
void *__wrap_pages_alloc(size_t bytes, bool huge);
void __real_pages_free(void *p, size_t bytes);
void __wrap_pages_free(void *p, size_t bytes);

/* ---- searches ---- */

/* Zero a block of whole pages (pages_alloc's: a thread state) by giving its
 * pages back: the next touch of each maps a zeroed page, so that only the
 * pages a search wrote (a few dozen of a thread state's 1,237 after a short
 * one) cost anything, where a memset wrote all of them. */
static void zero_pages(void *p, size_t bytes)
{
    if (madvise(p, (bytes + 4095) & ~(size_t)4095, MADV_DONTNEED))
        memset(p, 0, bytes);
}

#define FUZZ_NODES 100

void __wrap_engine_go(Engine *e, const SearchLimits *limits)
{
    SearchLimits lim = *limits;
    if (!lim.nodes || lim.nodes > FUZZ_NODES)
        lim.nodes = FUZZ_NODES;
    __real_engine_go(e, &lim);
}

/* Zero bytes at p: the whole pages inside given back (zero_pages), the
 * rest written. */
static void zero_range(void *p, size_t bytes)
{
    char *start = p, *end = start + bytes;
    char *first = (char *)(((uintptr_t)start + 4095) & ~(uintptr_t)4095);
    char *last = (char *)((uintptr_t)end & ~(uintptr_t)4095);
    if (last <= first) {
        memset(start, 0, bytes);
        return;
    }
    memset(start, 0, (size_t)(first - start));
    zero_pages(first, (size_t)(last - first));
    memset(last, 0, (size_t)(end - last));
}

/* A thread state that no search has touched since it was zeroed (pool_start
 * sets shared) has its histories clear already: a new game is cheap.  One
 * that a search touched has the tables search_clear clears (the histories,
 * 4.2 MB) zeroed page by page, as zero_pages does. */
void __wrap_search_clear(SearchThread *th)
{
    if (!th->shared)
        return;
    search_clear_with(th, zero_range);
}

/* ---- the hash table ---- */

#define TABLE_BYTES (256u << 10)
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
            zero_pages(th, sizeof *th);
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

static NnueNet *default_net;

NnueNet *__wrap_nnue_load_default(char *err, size_t errlen)
{
    if (!default_net)
        default_net = __real_nnue_load_default(err, errlen);
    return default_net;
}

void __wrap_nnue_free(NnueNet *net)
{
    if (net != default_net)
        __real_nnue_free(net);
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
                zero_pages(p, bytes);
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

/* ---- big heap blocks (malloc, calloc, realloc, free) ----
 * Each input allocates the same big blocks (the Engine, 700 KB; a
 * front-end's line buffers, 256 KB each; scratch Positions, 350 KB).  From
 * glibc they came either from the heap, calloc clearing all of them (a
 * sixth of a UCCI execution), or from a new mapping each time (its pages
 * faulted in, then unmapped).  Here a block from 128 kB up is a mapping of
 * its own: calloc's a new one, whose pages come zero and are faulted in
 * only where touched (the Engine: a few of its 172), unmapped when freed;
 * malloc's is one freed earlier of the same size, kept mapped, its old
 * contents left as malloc may.  Not under AddressSanitizer,
 * whose allocator must see every block to find overflows and uses after
 * free. */

void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_realloc(void *p, size_t size);
void __real_free(void *p);
void __wrap_free(void *p);

#ifndef FUZZ_ASAN
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>


enum { BIG_MIN = 128 * 1024, BIG_LIVE = 64, BIG_KEPT = 16 };
typedef struct {
    void *p;
    size_t bytes; /* as asked; the mapping is rounded up to pages */
    bool zeroed;  /* calloc's: unmapped when freed, not kept */
} BigBlock;
static BigBlock live[BIG_LIVE], spare_blocks[BIG_KEPT];
static int nlive, nspare_blocks;
static pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t big_map_size(size_t bytes) { return (bytes + 4095) & ~(size_t)4095; }

/* A block of bytes (zero: a new mapping), recorded as live; NULL when there
 * is no room to record it (the caller then asks glibc). */
static void *big_alloc(size_t bytes, bool zero)
{
    void *p = NULL;
    pthread_mutex_lock(&big_lock);
    if (nlive < BIG_LIVE) {
        for (int i = 0; !zero && i < nspare_blocks; i++)
            if (spare_blocks[i].bytes == bytes) {
                p = spare_blocks[i].p;
                spare_blocks[i] = spare_blocks[--nspare_blocks];
                break;
            }
        if (!p) {
            p = mmap(NULL, big_map_size(bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED)
                p = NULL;
        }
        if (p)
            live[nlive++] = (BigBlock){p, bytes, zero};
    }
    pthread_mutex_unlock(&big_lock);
    return p;
}

/* The size of a live big block, taken off the live list when take (0: not
 * one of ours); *zeroed: calloc's. */
static size_t big_find(void *p, bool take, bool *zeroed)
{
    size_t bytes = 0;
    if (!p || (uintptr_t)p % 4096)
        return 0; /* ours are page-aligned: a quick test */
    pthread_mutex_lock(&big_lock);
    for (int i = 0; i < nlive; i++)
        if (live[i].p == p) {
            bytes = live[i].bytes;
            *zeroed = live[i].zeroed;
            if (take)
                live[i] = live[--nlive];
            break;
        }
    pthread_mutex_unlock(&big_lock);
    return bytes;
}

static void big_release(void *p, size_t bytes, bool zeroed)
{
    pthread_mutex_lock(&big_lock);
    if (!zeroed && nspare_blocks < BIG_KEPT) {
        spare_blocks[nspare_blocks++] = (BigBlock){p, bytes, false};
        p = NULL;
    }
    pthread_mutex_unlock(&big_lock);
    if (p)
        munmap(p, big_map_size(bytes));
}

void *__wrap_malloc(size_t size)
{
    void *p = size >= BIG_MIN ? big_alloc(size, false) : NULL;
    return p ? p : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
    size_t bytes;
    void *p = NULL;
    if (!__builtin_mul_overflow(n, size, &bytes) && bytes >= BIG_MIN)
        p = big_alloc(bytes, true);
    return p ? p : __real_calloc(n, size);
}

void __wrap_free(void *p)
{
    bool zeroed = false;
    size_t bytes = big_find(p, true, &zeroed);
    if (bytes)
        big_release(p, bytes, zeroed);
    else
        __real_free(p);
}

void *__wrap_realloc(void *p, size_t size)
{
    bool zeroed = false;
    size_t bytes = big_find(p, false, &zeroed);
    if (!bytes)
        return __real_realloc(p, size);
    void *q = __wrap_malloc(size ? size : 1);
    if (q) {
        memcpy(q, p, bytes < size ? bytes : size);
        __wrap_free(p);
    }
    return q;
}
#else
void *__wrap_malloc(size_t size) { return __real_malloc(size); }
void *__wrap_calloc(size_t n, size_t size) { return __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t size) { return __real_realloc(p, size); }
void __wrap_free(void *p) { __real_free(p); }
#endif

/* ---- threads (pthread_create, pthread_join) ----
 * The xboard front-end starts a game thread for each session, a twentieth
 * of an execution.  A thread that is joined is kept, asleep, and runs the
 * next function it is given: created with a stack at least as big as any
 * the engine asks for, it runs every function as a new thread would (no
 * thread-local state in the engine).  Threads asked for with attributes it
 * cannot honour (detached, a bigger stack) are real ones. */

#include <pthread.h>

int __real_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);
int __real_pthread_join(pthread_t t, void **ret);
int __wrap_pthread_join(pthread_t t, void **ret);

enum { SPARES_MAX = 32 };
#define SPARE_STACK (8u << 20) /* the search threads' (search/threads.c) */
typedef struct {
    pthread_t tid;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    void *(*fn)(void *);
    void *arg, *ret;
    int state; /* 0 asleep, 1 running fn, 2 fn returned, not yet joined */
    bool taken; /* between a create and its join */
} Spare;
static Spare spares[SPARES_MAX];
static int nspares;
static pthread_mutex_t spares_lock = PTHREAD_MUTEX_INITIALIZER;

static void *spare_main(void *arg)
{
    Spare *s = arg;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (s->state != 1)
            pthread_cond_wait(&s->cond, &s->lock);
        pthread_mutex_unlock(&s->lock);
        void *ret = s->fn(s->arg);
        pthread_mutex_lock(&s->lock);
        s->ret = ret;
        s->state = 2;
        pthread_cond_broadcast(&s->cond);
    }
    return NULL;
}

/* An idle spare thread, taken; a new one if none is idle; NULL if none can
 * be had. */
static Spare *spare_take(void)
{
    Spare *s = NULL;
    pthread_mutex_lock(&spares_lock);
    for (int i = 0; i < nspares && !s; i++)
        if (!spares[i].taken)
            s = &spares[i];
    if (!s && nspares < SPARES_MAX) {
        Spare *n = &spares[nspares];
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, SPARE_STACK);
        pthread_mutex_init(&n->lock, NULL);
        pthread_cond_init(&n->cond, NULL);
        n->state = 0;
        if (__real_pthread_create(&n->tid, &attr, spare_main, n) == 0) {
            nspares++;
            s = n;
        } else {
            pthread_mutex_destroy(&n->lock);
            pthread_cond_destroy(&n->cond);
        }
        pthread_attr_destroy(&attr);
    }
    if (s)
        s->taken = true;
    pthread_mutex_unlock(&spares_lock);
    return s;
}

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    if (attr) {
        int detach = PTHREAD_CREATE_JOINABLE;
        size_t stack = 0;
        pthread_attr_getdetachstate(attr, &detach);
        pthread_attr_getstacksize(attr, &stack);
        if (detach != PTHREAD_CREATE_JOINABLE || stack > SPARE_STACK)
            return __real_pthread_create(t, attr, fn, arg);
    }
    Spare *s = spare_take();
    if (!s)
        return __real_pthread_create(t, attr, fn, arg);
    pthread_mutex_lock(&s->lock);
    s->fn = fn;
    s->arg = arg;
    s->state = 1;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
    *t = s->tid;
    return 0;
}

int __wrap_pthread_join(pthread_t t, void **ret)
{
    Spare *s = NULL;
    pthread_mutex_lock(&spares_lock);
    for (int i = 0; i < nspares && !s; i++)
        if (spares[i].taken && pthread_equal(spares[i].tid, t))
            s = &spares[i];
    pthread_mutex_unlock(&spares_lock);
    if (!s)
        return __real_pthread_join(t, ret);
    pthread_mutex_lock(&s->lock);
    while (s->state != 2)
        pthread_cond_wait(&s->cond, &s->lock);
    if (ret)
        *ret = s->ret;
    s->state = 0;
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_lock(&spares_lock);
    s->taken = false;
    pthread_mutex_unlock(&spares_lock);
    return 0;
}
