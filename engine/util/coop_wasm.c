/* The fibers of engine/util/coop.h.  Not thread-safe and not meant to be:
 * this file is compiled only into the single-thread WebAssembly build,
 * where one thread runs everything.  The set of fibers is the process's
 * own, as its threads would be, hence the one static Scheduler. */
#include "coop.h"

#include <emscripten.h>
#include <emscripten/fiber.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

/* Every fiber's C stack: main()'s 8 MB, and a search thread's (search/threads.c asks 8 MB).  The
 * size a creator sets in its pthread_attr_t cannot be read back here: emscripten's pthread stubs
 * of a build without threads keep none (pthread_attr_getstacksize gives 0), and a fiber on a
 * stack of 0 bytes writes its frames over whatever the heap holds below it. */
#define FIBER_STACK (8u << 20)
#define ASYNCIFY_STACK (1u << 20)  /* a fiber's unwound call stack: deep in a search */
#define SLICE_MS 20.0              /* the search's turn between two coop_points that yield */

typedef struct Fiber {
    emscripten_fiber_t ctx;
    void *(*fn)(void *);
    void *arg, *ret;
    bool done;
    const void *waiting_on; /* a condition variable or a fiber (join); NULL: runnable */
    void *stack, *astack;
    struct Fiber *next; /* the ring of the fibers, the scheduler's among them */
} Fiber;

typedef struct {
    Fiber sched; /* the context main() started in, which runs the scheduler */
    Fiber *current, *last;
    bool pause_asked; /* by a coop_point: let the event loop in before the next turn */
    double last_yield;
} Scheduler;

static Scheduler S;

/* Let the worker's event loop run, so that the page's messages are
 * delivered (webinput_push): at once, through a message port, which no
 * timer clamps; or, with wait_ms, until the next message (the worker's
 * script calls chuhanWake) or that many milliseconds. */
EM_ASYNC_JS(void, coop_js_pause, (int wait_ms), {
    await new Promise(function(resolve) {
        if (wait_ms > 0) {
            Module["chuhanWake"] = resolve;
            setTimeout(resolve, wait_ms);
        } else {
            var channel = new MessageChannel();
            channel.port1.onmessage = function() { resolve(); };
            channel.port2.postMessage(0);
        }
    });
    Module["chuhanWake"] = null;
});

/* Back to the scheduler; returns when this fiber's turn comes again. */
static void yield_turn(void)
{
    Fiber *self = S.current;
    emscripten_fiber_swap(&self->ctx, &S.sched.ctx);
}

static void wake(const void *what, bool all)
{
    Fiber *f = &S.sched;
    do {
        if (f->waiting_on == what) {
            f->waiting_on = NULL;
            if (!all)
                return;
        }
        f = f->next;
    } while (f != &S.sched);
}

static void fiber_main(void *arg)
{
    Fiber *f = arg;
    f->ret = f->fn(f->arg);
    f->done = true;
    wake(f, true);
    for (;;) /* never chosen again: its joiner frees it */
        yield_turn();
}

static Fiber *fiber_new(void *(*fn)(void *), void *arg, size_t stack)
{
    Fiber *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->stack = aligned_alloc(16, stack);
    f->astack = malloc(ASYNCIFY_STACK);
    if (!f->stack || !f->astack) {
        free(f->stack);
        free(f->astack);
        free(f);
        return NULL;
    }
    f->fn = fn;
    f->arg = arg;
    emscripten_fiber_init(&f->ctx, fiber_main, f, f->stack, stack, f->astack, ASYNCIFY_STACK);
    f->next = S.sched.next;
    S.sched.next = f;
    return f;
}

static void fiber_free(Fiber *f)
{
    Fiber *p = &S.sched;
    while (p->next != f)
        p = p->next;
    p->next = f->next;
    free(f->stack);
    free(f->astack);
    free(f);
}

typedef struct {
    int (*fn)(int, char **);
    int argc;
    char **argv;
    int status;
} MainCall;

static void *main_fiber(void *arg)
{
    MainCall *call = arg;
    call->status = call->fn(call->argc, call->argv);
    return NULL;
}

int coop_main(int (*fn)(int, char **), int argc, char **argv)
{
    static char sched_astack[ASYNCIFY_STACK];
    emscripten_fiber_init_from_current_context(&S.sched.ctx, sched_astack, sizeof sched_astack);
    S.sched.next = &S.sched;
    S.sched.waiting_on = &S.sched; /* the scheduler is never a fiber's turn */
    S.current = S.last = &S.sched;
    MainCall call = {fn, argc, argv, 1};
    Fiber *first = fiber_new(main_fiber, &call, FIBER_STACK);
    if (!first)
        return 1;
    while (!first->done) {
        Fiber *f = S.last->next;
        while (f != S.last && (f->done || f->waiting_on))
            f = f->next;
        if (f->done || f->waiting_on) { /* nothing can run until a message comes */
            coop_js_pause(50);
            continue;
        }
        S.current = S.last = f;
        emscripten_fiber_swap(&S.sched.ctx, &f->ctx);
        S.current = &S.sched;
        if (S.pause_asked) {
            S.pause_asked = false;
            coop_js_pause(0);
        }
    }
    fiber_free(first);
    return call.status;
}

void coop_point(void)
{
    if (emscripten_get_now() - S.last_yield < SLICE_MS)
        return;
    S.pause_asked = true;
    yield_turn();
    S.last_yield = emscripten_get_now();
}

int coop_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    (void)attr; /* its stack size is lost (FIBER_STACK) */
    Fiber *f = fiber_new(fn, arg, FIBER_STACK);
    if (!f)
        return EAGAIN;
    *thread = (pthread_t)f;
    return 0;
}

int coop_join(pthread_t thread, void **ret)
{
    Fiber *f = (Fiber *)thread;
    while (!f->done) {
        S.current->waiting_on = f;
        yield_turn();
    }
    if (ret)
        *ret = f->ret;
    fiber_free(f);
    return 0;
}

int coop_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex)
{
    pthread_mutex_unlock(mutex);
    S.current->waiting_on = cond;
    yield_turn();
    pthread_mutex_lock(mutex);
    return 0;
}

int coop_cond_signal(pthread_cond_t *cond)
{
    wake(cond, false);
    return 0;
}

int coop_cond_broadcast(pthread_cond_t *cond)
{
    wake(cond, true);
    return 0;
}
