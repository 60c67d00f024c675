#define _GNU_SOURCE /* fopencookie */
#include "webinput.h"

#include <emscripten.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

struct WebInput {
    pthread_mutex_t lock;
    pthread_cond_t ready;
    char *buf;
    size_t head, len, cap; /* the bytes not yet read: buf[head .. head + len) */
};

EMSCRIPTEN_KEEPALIVE int webinput_push(WebInput *in, const char *text)
{
    size_t n = strlen(text);
    int status = 0;
    pthread_mutex_lock(&in->lock);
    if (in->head > 0) { /* what was read makes room at the front */
        memmove(in->buf, in->buf + in->head, in->len);
        in->head = 0;
    }
    if (in->len + n + 1 > in->cap) {
        size_t cap = (in->len + n + 1) * 2;
        char *grown = realloc(in->buf, cap);
        if (!grown)
            status = -1;
        else
            in->buf = grown, in->cap = cap;
    }
    if (status == 0) {
        memcpy(in->buf + in->len, text, n);
        in->buf[in->len + n] = '\n';
        in->len += n + 1;
        pthread_cond_broadcast(&in->ready);
    }
    pthread_mutex_unlock(&in->lock);
    return status;
}

/* The FILE's read: waits for bytes, never reports the end (the page may
 * post again at any time; "quit" ends the engine). */
static ssize_t queue_read(void *cookie, char *out, size_t size)
{
    WebInput *in = cookie;
    pthread_mutex_lock(&in->lock);
    while (in->len == 0)
        pthread_cond_wait(&in->ready, &in->lock);
    size_t n = in->len < size ? in->len : size;
    memcpy(out, in->buf + in->head, n);
    in->head += n;
    in->len -= n;
    pthread_mutex_unlock(&in->lock);
    return (ssize_t)n;
}

/* The script's handle to the queue, set and cleared on the worker's own
 * thread (where onmessage runs), so that no push reaches a freed queue. */
static void tell_script(WebInput *in)
{
    MAIN_THREAD_EM_ASM({
        Module["chuhanInput"] = $0;
        if ($0 && Module["chuhanFlush"])
            Module["chuhanFlush"](); /* the lines posted before it existed */
    }, in);
}

static int queue_close(void *cookie)
{
    WebInput *in = cookie;
    tell_script(NULL);
    pthread_mutex_destroy(&in->lock);
    pthread_cond_destroy(&in->ready);
    free(in->buf);
    free(in);
    return 0;
}

FILE *webinput_open(char *err, size_t errlen)
{
    WebInput *in = calloc(1, sizeof *in);
    if (!in)
        return err_set(err, errlen, "out of memory for the input queue"), NULL;
    pthread_mutex_init(&in->lock, NULL);
    pthread_cond_init(&in->ready, NULL);
    cookie_io_functions_t io = {.read = queue_read, .close = queue_close};
    FILE *f = fopencookie(in, "r", io);
    if (!f) {
        free(in);
        return err_set(err, errlen, "cannot open the input queue"), NULL;
    }
    tell_script(in);
    return f;
}
