/* The fuzz target of the match runner's reader of engine output
 * (fuzz_reader, fuzz.h): the stream the input describes, cut into reads,
 * against a model of what the reader must give. */
#include "fuzz.h"
#include "fuzz_private.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/util/proc.h"

/* The stream the input describes, and where its reads end.  Two bytes an
 * operation: op & 7 picks it, arg sizes it.  0-2: arg bytes of the input
 * as they are; 3: a run of one byte (the next input byte), arg x
 * PROC_LINE_MAX / 64 + op long (up to four times PROC_LINE_MAX, for lines
 * over it); 4: a newline; 5: CR LF; 6: a run of arg x PROC_LINE_MAX / 255
 * bytes; 7: the bytes so far are read (a read ends here, as a pipe
 * delivers them).  The stream stops growing at four times PROC_LINE_MAX. */
#define READER_UNIT (PROC_LINE_MAX / 64)
typedef struct {
    uint8_t *bytes;
    size_t len, cap;
    size_t *cuts; /* read boundaries, ascending */
    size_t ncuts, capcuts;
} ReaderStream;

static bool stream_put(ReaderStream *s, const void *p, uint8_t fill, size_t n)
{
    if (s->len + n > s->cap) {
        size_t cap = (s->len + n) * 2;
        uint8_t *b = realloc(s->bytes, cap);
        if (!b)
            return false;
        s->bytes = b;
        s->cap = cap;
    }
    if (p)
        memcpy(s->bytes + s->len, p, n);
    else
        memset(s->bytes + s->len, fill, n);
    s->len += n;
    return true;
}

static bool stream_cut(ReaderStream *s)
{
    if (s->ncuts == s->capcuts) {
        size_t cap = s->capcuts ? s->capcuts * 2 : 64;
        size_t *c = realloc(s->cuts, cap * sizeof *c);
        if (!c)
            return false;
        s->cuts = c;
        s->capcuts = cap;
    }
    s->cuts[s->ncuts++] = s->len;
    return true;
}

/* Does got (a line the reader gave) read as the stream's line want[0..n)? */
static bool reader_line_matches(const char *got, const uint8_t *want, size_t n)
{
    if (n && want[n - 1] == '\r')
        n--;
    if (strlen(got) != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        uint8_t w = want[i] == 0 || want[i] == '\t' ? ' ' : want[i];
        if ((uint8_t)got[i] != w)
            return false;
    }
    return true;
}

/* The reader against a model: every line under PROC_LINE_MAX bytes comes
 * out whole and in order, every longer one is dropped, one of exactly
 * PROC_LINE_MAX bytes is kept when its end came in the same read or one
 * before the reader looked for room (else the reader cannot tell it from a
 * longer line, and drops it), and nothing is written outside the reader. */
const char *fuzz_reader(const uint8_t *data, size_t size)
{
    static struct {
        ProcLines l;
        uint8_t guard[256]; /* no write may reach past the reader */
    } r;
    /* kept from one input to the next: a fresh megabyte each time (mmap,
     * page faults) cost more than the rest */
    static ReaderStream s;
    if (!s.bytes && !stream_put(&s, NULL, 0, 8 * PROC_LINE_MAX))
        return "out of memory";
    s.len = s.ncuts = 0;
    const char *bad = NULL;
    /* several lines over PROC_LINE_MAX, and more than the reader's buffer
     * of twice that */
    for (size_t i = 0; i + 1 < size && !bad && s.len < 4 * PROC_LINE_MAX; i += 2) {
        uint8_t op = data[i], arg = data[i + 1];
        bool ok = true;
        switch (op & 7) {
        case 0:
        case 1:
        case 2: {
            size_t n = arg;
            if (n > size - i - 2)
                n = size - i - 2;
            ok = stream_put(&s, data + i + 2, 0, n);
            i += n;
            break;
        }
        case 3:
            ok = stream_put(&s, NULL, i + 2 < size ? data[i + 2] : 'x', (size_t)arg * READER_UNIT + op);
            i++;
            break;
        case 4:
            ok = stream_put(&s, "\n", 0, 1);
            break;
        case 5:
            ok = stream_put(&s, "\r\n", 0, 2);
            break;
        case 6:
            ok = stream_put(&s, NULL, 'a' + arg % 26, (size_t)arg * (PROC_LINE_MAX / 255));
            break;
        default:
            ok = stream_cut(&s);
            break;
        }
        if (!ok)
            bad = "out of memory";
    }
    if (!bad && !stream_cut(&s))
        bad = "out of memory";
    proc_lines_reset(&r.l);
    memset(r.guard, 0x5a, sizeof r.guard);
    size_t fed = 0, cut = 0, line_at = 0; /* line_at: where the model's next line starts */
    /* where the lines of exactly PROC_LINE_MAX bytes that a read ended
     * just before their end start (the stream holds at most five) */
    size_t cut_short[8], ncut_short = 0, next_short = 0;
    while (!bad) {
        /* as proc_read_line: every whole line out, then one read */
        while (!bad && proc_lines_next(&r.l)) {
            for (;;) {
                uint8_t *nl = memchr(s.bytes + line_at, '\n', s.len - line_at);
                if (!nl) {
                    bad = fuzz_failed("a line the stream does not have: '%.40s'", r.l.line);
                    break;
                }
                size_t n = (size_t)(nl - (s.bytes + line_at)), start = line_at;
                line_at += n + 1;
                if (line_at > fed) {
                    bad = fuzz_failed("a line given before its end was read: '%.40s'", r.l.line);
                    break;
                }
                bool dropped = n > PROC_LINE_MAX;
                if (n == PROC_LINE_MAX && next_short < ncut_short && cut_short[next_short] == start) {
                    next_short++;
                    dropped = true;
                }
                if (dropped) /* on to the next */
                    continue;
                if (!reader_line_matches(r.l.line, s.bytes + start, n)) {
                    bad = fuzz_failed("a line of %zu bytes lost or changed; got '%.40s'", n, r.l.line);
                    break;
                }
                break;
            }
        }
        if (bad || fed == s.len)
            break;
        while (s.cuts[cut] <= fed) /* the last cut is the end of the stream */
            cut++;
        size_t room;
        char *at = proc_lines_room(&r.l, &room);
        if (room == 0 || at < r.l.buf || at + room > r.l.buf + sizeof r.l.buf) {
            bad = fuzz_failed("the reader offers %zu bytes of room outside its buffer", room);
            break;
        }
        size_t n = s.cuts[cut] - fed;
        if (n > room)
            n = room;
        memcpy(at, s.bytes + fed, n);
        proc_lines_added(&r.l, n);
        fed += n;
        /* a read that ends a line of exactly PROC_LINE_MAX bytes just
         * before its newline: the reader will drop it */
        if (fed < s.len && s.bytes[fed] == '\n' && fed >= PROC_LINE_MAX
            && (fed == PROC_LINE_MAX || s.bytes[fed - PROC_LINE_MAX - 1] == '\n')
            && !memchr(s.bytes + fed - PROC_LINE_MAX, '\n', PROC_LINE_MAX)) {
            if (ncut_short == sizeof cut_short / sizeof *cut_short) {
                bad = "the model's list of cut lines is full";
                break;
            }
            cut_short[ncut_short++] = fed - PROC_LINE_MAX;
        }
    }
    /* every whole line under the limit that is left was lost */
    while (!bad) {
        uint8_t *nl = memchr(s.bytes + line_at, '\n', s.len - line_at);
        if (!nl)
            break;
        size_t n = (size_t)(nl - (s.bytes + line_at));
        bool dropped = n > PROC_LINE_MAX;
        if (n == PROC_LINE_MAX && next_short < ncut_short && cut_short[next_short] == line_at) {
            next_short++;
            dropped = true;
        }
        if (!dropped)
            bad = fuzz_failed("a line of %zu bytes never given", n);
        line_at += n + 1;
    }
    for (size_t i = 0; !bad && i < sizeof r.guard; i++)
        if (r.guard[i] != 0x5a)
            bad = "the reader wrote past its line buffer";
    return bad;
}
