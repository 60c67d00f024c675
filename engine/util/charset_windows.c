/* Windows has no iconv: each character is decoded by MultiByteToWideChar
 * with the code page (MB_ERR_INVALID_CHARS: a byte sequence the code page
 * does not define fails instead of becoming '?'), one at a time so that a
 * bad one is found where it is, then written as UTF-8 here. */
#include "charset.h"

#include <stdlib.h>
#include <windows.h>

static const UINT PAGES[CHARSET_NB][CHARSET_TABLES] = {
    [CHARSET_GBK] = {54936, 936, 0}, /* GB18030, GBK */
    [CHARSET_BIG5] = {950, 0, 0},
};

struct CharsetConv {
    UINT page;
};

CharsetConv *charset_open(Charset cs, int table)
{
    if ((unsigned)cs >= CHARSET_NB || table < 0 || table >= CHARSET_TABLES || !PAGES[cs][table]
        || !IsValidCodePage(PAGES[cs][table]))
        return NULL;
    CharsetConv *c = malloc(sizeof *c);
    if (c)
        c->page = PAGES[cs][table];
    return c;
}

void charset_close(CharsetConv *c) { free(c); }

/* Bytes of the character that starts at s (n left): 1, 2, or 4 (GB18030's
 * four-byte sequences: a digit second); 0 when it cannot start one. */
static size_t char_len(UINT page, const unsigned char *s, size_t n)
{
    if (s[0] < 0x80)
        return 1;
    if (s[0] == 0x80 || s[0] == 0xFF || n < 2)
        return 0;
    if (page == 54936 && s[1] >= 0x30 && s[1] <= 0x39)
        return n >= 4 ? 4 : 0;
    return 2;
}

static size_t utf8_put(unsigned cp, char *o)
{
    if (cp < 0x80)
        return o[0] = (char)cp, 1;
    if (cp < 0x800)
        return o[0] = (char)(0xC0 | cp >> 6), o[1] = (char)(0x80 | (cp & 0x3F)), 2;
    if (cp < 0x10000)
        return o[0] = (char)(0xE0 | cp >> 12), o[1] = (char)(0x80 | (cp >> 6 & 0x3F)),
               o[2] = (char)(0x80 | (cp & 0x3F)), 3;
    return o[0] = (char)(0xF0 | cp >> 18), o[1] = (char)(0x80 | (cp >> 12 & 0x3F)),
           o[2] = (char)(0x80 | (cp >> 6 & 0x3F)), o[3] = (char)(0x80 | (cp & 0x3F)), 4;
}

int charset_decode(CharsetConv *c, const char **in, size_t *inleft, char **out, size_t *outleft)
{
    while (*inleft > 0) {
        const unsigned char *s = (const unsigned char *)*in;
        size_t len = char_len(c->page, s, *inleft);
        if (!len)
            return CHARSET_BAD;
        WCHAR w[2];
        int nw = len == 1 ? (w[0] = s[0], 1)
                          : MultiByteToWideChar(c->page, MB_ERR_INVALID_CHARS, *in, (int)len, w, 2);
        if (nw < 1)
            return CHARSET_BAD;
        unsigned cp = w[0];
        if (nw == 2 && w[0] >= 0xD800 && w[0] < 0xDC00 && w[1] >= 0xDC00 && w[1] < 0xE000)
            cp = 0x10000 + ((w[0] - 0xD800u) << 10) + (w[1] - 0xDC00u);
        else if (nw != 1 || (cp >= 0xD800 && cp < 0xE000))
            return CHARSET_BAD;
        char buf[4];
        size_t k = utf8_put(cp, buf);
        if (k > *outleft)
            return CHARSET_FULL;
        for (size_t i = 0; i < k; i++)
            (*out)[i] = buf[i];
        *out += k, *outleft -= k;
        *in += len, *inleft -= len;
    }
    return CHARSET_DONE;
}
