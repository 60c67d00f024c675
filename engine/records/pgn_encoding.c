/* The text of a PGN record: its raw lines decoded to UTF-8.  Each
 * record's encoding is told (unless the caller names one) by which reading
 * yields Chinese move notation: UTF-8 when the bytes are valid UTF-8,
 * otherwise GBK (read as GB18030) or Big5, whichever reads more notation
 * characters and fails on fewer lines; a file's records tend to share one
 * encoding, so the last one decided is tried first.  A line that does not
 * decode in the record's encoding is tried in the others (a GBK tag in a
 * Big5 file), then decoded with U+FFFD for the bad bytes. */
#include <string.h>

#include "pgn_private.h"

/* Length of the valid UTF-8 sequence at s, or 0 if it is not one. */
size_t pgn_utf8_seq(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    size_t len;
    unsigned min;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, min = 0x10000;
    else
        return 0;
    if (len > n)
        return 0;
    unsigned cp = c & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

static bool utf8_valid(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        if (u[i] < 0x80) {
            i++;
            continue;
        }
        size_t k = pgn_utf8_seq(u + i, n - i);
        if (!k)
            return false;
        i += k;
    }
    return true;
}

static bool utf8_lossy(const char *s, size_t n, Buf *out)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t k = pgn_utf8_seq(u + i, n - i);
        if (!buf_add(out, k ? s + i : "\xEF\xBF\xBD", k ? k : 3))
            return false;
        i += k ? k : 1;
    }
    return true;
}

static CharsetConv *get_cd(PgnDecoder *r, PgnEncoding enc, int k)
{
    if (enc != PGN_ENC_GBK && enc != PGN_ENC_BIG5)
        return NULL;
    if (!r->cd_tried[enc][k]) {
        r->cd_tried[enc][k] = true;
        r->cd[enc][k] = charset_open(enc == PGN_ENC_GBK ? CHARSET_GBK : CHARSET_BIG5, k);
    }
    return r->cd[enc][k];
}

/* Convert with cd, appending to out.  0 done, 1 the input is not in this
 * encoding (out left as it was), -1 out of memory.  With lossy, bad bytes
 * become U+FFFD instead. */
static int convert(CharsetConv *cd, const char *s, size_t n, Buf *out, bool lossy)
{
    size_t start = out->len;
    const char *in = s;
    size_t left = n;
    while (left > 0) {
        if (!buf_reserve(out, left * 2 + 16))
            return -1;
        char *o = out->p + out->len;
        size_t room = out->cap - out->len - 1;
        int rc = charset_decode(cd, &in, &left, &o, &room);
        out->len = (size_t)(o - out->p);
        if (rc != CHARSET_BAD)
            continue;
        if (!lossy) {
            out->len = start;
            out->p[out->len] = 0;
            return 1;
        }
        if (!buf_add(out, "\xEF\xBF\xBD", 3))
            return -1;
        in++, left--;
    }
    out->p[out->len] = 0;
    return 0;
}

/* Decode one line in enc (trying its alternative tables); 0, 1 not this
 * encoding, -1 out of memory. */
static int decode_as(PgnDecoder *r, PgnEncoding enc, const char *s, size_t n, Buf *out)
{
    if (enc == PGN_ENC_UTF8) {
        if (!utf8_valid(s, n))
            return 1;
        return buf_add(out, s, n) ? 0 : -1;
    }
    for (int k = 0; k < CHARSET_TABLES; k++) {
        CharsetConv *cd = get_cd(r, enc, k);
        if (!cd)
            continue;
        int rc = convert(cd, s, n, out, false);
        if (rc <= 0)
            return rc;
    }
    return 1;
}

/* Code points that make up Chinese move notation (both character sets). */
static bool notation_char(unsigned cp)
{
    switch (cp) {
    case 0x8ECA: case 0x8F66: case 0x99AC: case 0x9A6C: case 0x70AE: case 0x7832: /* 車车馬马炮砲 */
    case 0x76F8: case 0x8C61: case 0x4ED5: case 0x58EB: case 0x5E25: case 0x5E05: /* 相象仕士帥帅 */
    case 0x5C07: case 0x5C06: case 0x5175: case 0x5352: case 0x9032: case 0x8FDB: /* 將将兵卒進进 */
    case 0x9000: case 0x5E73: /* 退平 */
        return true;
    default:
        return false;
    }
}

/* Count non-ASCII code points and notation characters in UTF-8 text. */
static void count_chars(const char *s, size_t n, long *wide, long *notation)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        if (u[i] < 0x80) {
            i++;
            continue;
        }
        size_t k = pgn_utf8_seq(u + i, n - i);
        if (!k) {
            i++;
            continue;
        }
        (*wide)++;
        if (k == 3 && notation_char((unsigned)(u[i] & 0x0F) << 12 | (unsigned)(u[i + 1] & 0x3F) << 6 |
                                    (u[i + 2] & 0x3F)))
            (*notation)++;
        i += k;
    }
}

static bool has_high_bytes(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80)
            return true;
    return false;
}

/* How well does enc read the record's move text?  Lines that fail cost
 * much; Chinese notation characters score.  *clean: no line failed and most
 * wide characters were notation.  -1 out of memory in *oom. */
static long score_encoding(PgnDecoder *r, const Buf *rec, PgnEncoding enc, bool *clean, bool *oom)
{
    long score = 0, failed = 0, wide = 0, notation = 0;
    const char *s = rec->p, *end = s + rec->len;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t n = (size_t)(nl - s);
        const char *name;
        size_t nlen;
        bool tag = pgn_tag_line(s, n, &name, &nlen);
        if (has_high_bytes(s, n)) {
            r->scratch.len = 0;
            int rc = decode_as(r, enc, s, n, &r->scratch);
            if (rc < 0) {
                *oom = true;
                return 0;
            }
            if (rc > 0)
                failed++;
            else if (!tag)
                count_chars(r->scratch.p, r->scratch.len, &wide, &notation);
        }
        s = nl + 1;
    }
    *clean = failed == 0 && notation > 0 && notation * 2 >= wide;
    score = notation * 4 - failed * 100;
    return score;
}

/* Decide the record's encoding (AUTO). */
static PgnEncoding detect(PgnDecoder *r, const Buf *rec, bool *oom)
{
    if (utf8_valid(rec->p, rec->len))
        return PGN_ENC_UTF8;
    bool clean = false;
    if (r->sticky == PGN_ENC_GBK || r->sticky == PGN_ENC_BIG5) {
        score_encoding(r, rec, r->sticky, &clean, oom);
        if (clean || *oom)
            return r->sticky;
    }
    long gbk = score_encoding(r, rec, PGN_ENC_GBK, &clean, oom);
    long big5 = score_encoding(r, rec, PGN_ENC_BIG5, &clean, oom);
    if (big5 > gbk)
        return PGN_ENC_BIG5;
    if (gbk > big5)
        return PGN_ENC_GBK;
    return r->sticky == PGN_ENC_BIG5 ? PGN_ENC_BIG5 : PGN_ENC_GBK;
}

void pgn_decoder_init(PgnDecoder *d, PgnEncoding forced)
{
    memset(d, 0, sizeof *d);
    d->forced = forced;
    d->sticky = PGN_ENC_AUTO;
    for (int e = 0; e < PGN_ENC_NB; e++)
        for (int k = 0; k < CHARSET_TABLES; k++)
            d->cd[e][k] = NULL;
}

void pgn_decoder_free(PgnDecoder *d)
{
    for (int e = 0; e < PGN_ENC_NB; e++)
        for (int k = 0; k < CHARSET_TABLES; k++)
            charset_close(d->cd[e][k]);
    buf_free(&d->scratch);
}

bool pgn_decode_record(PgnDecoder *r, const Buf *rec, Buf *text, PgnEncoding *rec_enc, int *bad_lines)
{
    bool oom = false;
    PgnEncoding enc = r->forced != PGN_ENC_AUTO ? r->forced : detect(r, rec, &oom);
    if (oom)
        return false;
    if (r->forced == PGN_ENC_AUTO && enc != PGN_ENC_UTF8)
        r->sticky = enc;
    *rec_enc = enc;
    *bad_lines = 0;
    text->len = 0;
    if (!buf_reserve(text, rec->len + 1))
        return false;
    text->p[0] = 0;
    const char *s = rec->p, *end = s + rec->len;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t n = (size_t)(nl - s);
        int rc = has_high_bytes(s, n) ? decode_as(r, enc, s, n, text) : (buf_add(text, s, n) ? 0 : -1);
        if (rc > 0) /* not in the record's encoding: another one, or U+FFFD */
            (*bad_lines)++;
        for (int alt = PGN_ENC_UTF8; rc > 0 && alt < PGN_ENC_NB; alt++)
            if (alt != (int)enc)
                rc = decode_as(r, (PgnEncoding)alt, s, n, text);
        if (rc > 0) {
            CharsetConv *cd = get_cd(r, enc, 0);
            rc = !cd ? (utf8_lossy(s, n, text) ? 0 : -1) : convert(cd, s, n, text, true);
        }
        if (rc < 0 || !buf_add(text, "\n", 1))
            return false;
        s = nl + 1;
    }
    return true;
}
