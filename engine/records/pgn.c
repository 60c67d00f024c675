/* PGN records: input (plain or zstd), records, encodings, tokens, replay.
 *
 * Layers, bottom up:
 *   input    bytes from a FILE* or memory, zstd-decompressed when the input
 *            starts with the zstd magic number;
 *   lines    split on '\n' (a trailing '\r' dropped);
 *   records  raw lines grouped into records: a tag line after move text, or
 *            a tag line repeating a tag name, starts the next record.  This
 *            is safe on GBK and Big5 bytes: '\n' and '[' at a line start are
 *            never part of a double-byte character;
 *   text     the record decoded to UTF-8 (engine/util/charset.h), its encoding detected
 *            (pgn_encoding.c);
 *   games    tags and move tokens parsed from the UTF-8 text (pgn_game.c,
 *            with the replay). */
#include "pgn.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "engine/util/error.h"
#include "pgn_private.h"

#define IN_CHUNK ((size_t)1 << 17)
#define MAX_RECORD ((size_t)64 << 20)
#define MAX_TAG_NAMES 64

/* ---- growable byte buffers ---- */

bool buf_reserve(Buf *b, size_t extra)
{
    if (b->cap - b->len > extra)
        return true;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap - b->len <= extra)
        cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p)
        return false;
    b->p = p;
    b->cap = cap;
    return true;
}

bool buf_add(Buf *b, const void *data, size_t n)
{
    if (!buf_reserve(b, n))
        return false;
    memcpy(b->p + b->len, data, n);
    b->len += n;
    b->p[b->len] = 0; /* always room for it: reserve keeps one byte spare */
    return true;
}

void buf_free(Buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

/* An error for the caller (engine/util/error.h), then the failure value. */
#define failf(...) (err_set(__VA_ARGS__), -1)

/* ---- the reader ---- */

static PgnReader *reader_new(PgnEncoding enc, char *err, size_t errlen)
{
    if ((int)enc < 0 || enc >= PGN_ENC_NB) {
        err_set(err, errlen, "unknown encoding");
        return NULL;
    }
    PgnReader *r = calloc(1, sizeof *r);
    if (!r) {
        err_set(err, errlen, "out of memory");
        return NULL;
    }
    pgn_decoder_init(&r->dec, enc);
    return r;
}

/* Look at the first bytes: zstd or plain. */
static PgnReader *reader_start(PgnReader *r, char *err, size_t errlen)
{
    static const unsigned char ZSTD_MAGIC_BYTES[4] = {0x28, 0xB5, 0x2F, 0xFD};
    if (r->file) {
        r->in_buf = malloc(IN_CHUNK);
        if (!r->in_buf) {
            err_set(err, errlen, "out of memory");
            pgn_close(r);
            return NULL;
        }
        r->in = r->in_buf;
        r->in_len = fread(r->in_buf, 1, IN_CHUNK, r->file);
        if (r->in_len < IN_CHUNK) {
            if (ferror(r->file)) {
                err_set(err, errlen, "read error: %s", strerror(errno));
                pgn_close(r);
                return NULL;
            }
            r->in_eof = true;
        }
    }
    if (r->in_len >= 4 && !memcmp(r->in, ZSTD_MAGIC_BYTES, 4)) {
        r->zds = ZSTD_createDStream();
        if (!r->zds || ZSTD_isError(ZSTD_initDStream(r->zds))) {
            err_set(err, errlen, "cannot start the zstd decompressor");
            pgn_close(r);
            return NULL;
        }
    }
    return r;
}

PgnReader *pgn_open_stream(FILE *f, PgnEncoding enc, char *err, size_t errlen)
{
    if (!f) {
        err_set(err, errlen, "no stream");
        return NULL;
    }
    PgnReader *r = reader_new(enc, err, errlen);
    if (!r)
        return NULL;
    r->file = f;
    return reader_start(r, err, errlen);
}

PgnReader *pgn_open_file(const char *path, PgnEncoding enc, char *err, size_t errlen)
{
    if (!path || !strcmp(path, "-"))
        return pgn_open_stream(stdin, enc, err, errlen);
    FILE *f = fopen(path, "rb");
    if (!f) {
        err_set(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    PgnReader *r = reader_new(enc, err, errlen);
    if (!r) {
        fclose(f);
        return NULL;
    }
    r->file = f;
    r->own_file = true;
    return reader_start(r, err, errlen);
}

PgnReader *pgn_open_memory(const void *data, size_t size, PgnEncoding enc, char *err, size_t errlen)
{
    if (!data && size) {
        err_set(err, errlen, "no data");
        return NULL;
    }
    PgnReader *r = reader_new(enc, err, errlen);
    if (!r)
        return NULL;
    r->in = data ? data : (const unsigned char *)"";
    r->in_len = size;
    r->in_eof = true;
    return reader_start(r, err, errlen);
}

void pgn_close(PgnReader *r)
{
    if (!r)
        return;
    if (r->own_file && r->file)
        fclose(r->file);
    free(r->in_buf);
    ZSTD_freeDStream(r->zds);
    pgn_decoder_free(&r->dec);
    buf_free(&r->data);
    buf_free(&r->rec);
    buf_free(&r->carry);
    buf_free(&r->text);
    buf_free(&r->arena);
    free(r->tagoff);
    free(r->tags);
    free(r->moveoff);
    free(r->moves);
    free(r);
}

/* ---- input layer ---- */

static int raw_fill(PgnReader *r, char *err, size_t errlen)
{
    if (r->in_eof)
        return 0;
    size_t n = fread(r->in_buf, 1, IN_CHUNK, r->file);
    if (n < IN_CHUNK) {
        if (ferror(r->file))
            return failf(err, errlen, "read error: %s", strerror(errno));
        r->in_eof = true;
    }
    r->in_len = n;
    r->in_pos = 0;
    return n > 0;
}

/* Append more input bytes to r->data: 1, 0 at the end, -1 on error. */
static int data_more(PgnReader *r, char *err, size_t errlen)
{
    if (r->data_pos > 0) {
        memmove(r->data.p, r->data.p + r->data_pos, r->data.len - r->data_pos);
        r->data.len -= r->data_pos;
        r->data_pos = 0;
    }
    if (!buf_reserve(&r->data, IN_CHUNK))
        return failf(err, errlen, "out of memory");
    if (!r->zds) {
        if (r->in_pos == r->in_len) {
            int k = raw_fill(r, err, errlen);
            if (k <= 0)
                return k;
        }
        size_t n = r->in_len - r->in_pos;
        if (n > IN_CHUNK)
            n = IN_CHUNK;
        memcpy(r->data.p + r->data.len, r->in + r->in_pos, n);
        r->data.len += n;
        r->in_pos += n;
        return 1;
    }
    ZSTD_outBuffer out = {r->data.p + r->data.len, r->data.cap - r->data.len - 1, 0};
    for (;;) {
        if (r->in_pos == r->in_len && raw_fill(r, err, errlen) < 0)
            return -1;
        ZSTD_inBuffer in = {r->in, r->in_len, r->in_pos};
        size_t ret = ZSTD_decompressStream(r->zds, &out, &in);
        bool progress = in.pos != r->in_pos || out.pos > 0;
        r->in_pos = in.pos;
        if (ZSTD_isError(ret))
            return failf(err, errlen, "corrupt zstd data: %s", ZSTD_getErrorName(ret));
        if (progress)
            r->zlast = ret;
        if (out.pos > 0) {
            r->data.len += out.pos;
            return 1;
        }
        if (!progress && r->in_pos == r->in_len && r->in_eof) {
            if (r->zlast != 0)
                return failf(err, errlen, "truncated zstd data (the last frame is incomplete)");
            return 0;
        }
    }
}

/* The next line, without its '\n' (and '\r'); valid until the next call.
 * 1, 0 at the end, -1 on error. */
static int next_line(PgnReader *r, const char **line, size_t *len, char *err, size_t errlen)
{
    for (;;) {
        size_t avail = r->data.len - r->data_pos;
        char *start = avail ? r->data.p + r->data_pos : r->data.p; /* no offset on an empty buffer (NULL) */
        char *nl = avail ? memchr(start, '\n', avail) : NULL;
        if (nl || (r->data_eof && avail > 0)) {
            size_t n = nl ? (size_t)(nl - start) : avail;
            r->data_pos += nl ? n + 1 : n;
            if (n > 0 && start[n - 1] == '\r')
                n--;
            *line = start;
            *len = n;
            r->line_no++;
            return 1;
        }
        if (r->data_eof)
            return 0;
        if (avail > MAX_RECORD)
            return failf(err, errlen, "line %ld is longer than %zu MB", r->line_no + 1, MAX_RECORD >> 20);
        int k = data_more(r, err, errlen);
        if (k < 0)
            return -1;
        if (k == 0)
            r->data_eof = true;
    }
}

/* ---- records ---- */

size_t pgn_skip_blank(const char *s, size_t n, size_t i)
{
    for (;;) {
        if (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\f' || s[i] == '\v'))
            i++;
        else if (i + 3 <= n && !memcmp(s + i, "\xEF\xBB\xBF", 3)) /* byte order mark */
            i += 3;
        else if (i + 3 <= n && !memcmp(s + i, "\xE3\x80\x80", 3)) /* ideographic space (UTF-8) */
            i += 3;
        else
            return i;
    }
}

bool pgn_tag_line(const char *s, size_t n, const char **name, size_t *namelen)
{
    size_t i = pgn_skip_blank(s, n, 0);
    if (i >= n || s[i] != '[')
        return false;
    i++;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    size_t j = i;
    while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '_' || s[j] == '-'))
        j++;
    *name = s + i;
    *namelen = j - i;
    return true;
}

static bool blank_line(const char *s, size_t n) { return pgn_skip_blank(s, n, 0) == n; }

/* Gather the next raw record into r->rec: 1, 0 at the end, -1 on error. */
static int read_record(PgnReader *r, char *err, size_t errlen)
{
    char names[MAX_TAG_NAMES][24];
    int nnames = 0;
    bool moves = false, any = false;
    r->rec.len = 0;
    const char *line = NULL;
    size_t len = 0;
    long line_no = 0;
    bool carried = r->have_carry;
    for (;;) {
        if (carried) {
            line = r->carry.p;
            len = r->carry.len;
            line_no = r->carry_line;
            r->have_carry = carried = false;
        } else {
            int k = next_line(r, &line, &len, err, errlen);
            if (k < 0)
                return -1;
            if (k == 0)
                break;
            line_no = r->line_no;
        }
        const char *name;
        size_t nlen;
        bool tag = pgn_tag_line(line, len, &name, &nlen);
        if (tag) {
            bool repeat = false;
            for (int i = 0; i < nnames && !repeat; i++)
                repeat = strlen(names[i]) == nlen && !memcmp(names[i], name, nlen);
            if (moves || repeat) {
                r->carry.len = 0;
                if (!buf_add(&r->carry, line, len))
                    return failf(err, errlen, "out of memory");
                r->have_carry = true;
                r->carry_line = line_no;
                break;
            }
            if (nnames < MAX_TAG_NAMES && nlen < sizeof names[0]) {
                memcpy(names[nnames], name, nlen);
                names[nnames++][nlen] = 0;
            }
        } else if (!blank_line(line, len)) {
            moves = true;
        } else if (!any) {
            continue; /* blank lines before a record */
        }
        if (!any)
            r->rec_line = line_no;
        any = true;
        if (r->rec.len + len + 1 > MAX_RECORD)
            return failf(err, errlen, "the record at line %ld is over %zu MB", r->rec_line, MAX_RECORD >> 20);
        if (!buf_add(&r->rec, line, len) || !buf_add(&r->rec, "\n", 1))
            return failf(err, errlen, "out of memory");
    }
    return any;
}

/* ---- text ---- */

/* Decode r->rec into r->text (pgn_encoding.c). */
static int decode_record(PgnReader *r, char *err, size_t errlen)
{
    r->text_pos = 0;
    r->text_line = r->rec_line;
    if (!pgn_decode_record(&r->dec, &r->rec, &r->text, &r->rec_enc, &r->rec_bad))
        return failf(err, errlen, "out of memory");
    return 0;
}

int pgn_next(PgnReader *r, const PgnGame **game, char *err, size_t errlen)
{
    if (!r)
        return failf(err, errlen, "no reader");
    if (r->failed)
        return failf(err, errlen, "%s", r->failure);
    for (;;) {
        if (r->text.len > r->text_pos) {
            int k = pgn_parse_game(r);
            if (k > 0) {
                *game = &r->game;
                /* a record's bad lines are reported with its first game only */
                r->rec_bad = 0;
                return 1;
            }
            if (k < 0) {
                err_set(r->failure, sizeof r->failure, "out of memory");
                break;
            }
        }
        r->text.len = r->text_pos = 0;
        int k = read_record(r, r->failure, sizeof r->failure);
        if (k == 0)
            return 0;
        if (k < 0 || decode_record(r, r->failure, sizeof r->failure) < 0)
            break;
    }
    r->failed = true;
    return failf(err, errlen, "%s", r->failure);
}
