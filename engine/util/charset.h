/* The Chinese character sets of game records, decoded to UTF-8: with
 * iconv (charset_posix.c) or with the Windows code pages through
 * MultiByteToWideChar (charset_windows.c).  Each set has up to
 * CHARSET_TABLES tables, tried in turn by the caller: they differ in the
 * extensions they know (GB18030 and GBK / code page 54936 and 936; Big5,
 * CP950, Big5-HKSCS / code page 950). */
#ifndef CHUHAN_UTIL_CHARSET_H
#define CHUHAN_UTIL_CHARSET_H

#include <stddef.h>

typedef enum { CHARSET_GBK, CHARSET_BIG5, CHARSET_NB } Charset;

#define CHARSET_TABLES 3
enum { CHARSET_DONE, CHARSET_BAD, CHARSET_FULL };

typedef struct CharsetConv CharsetConv;

/* A decoder of cs by its table-th table; NULL when the system has none. */
CharsetConv *charset_open(Charset cs, int table);
void charset_close(CharsetConv *c);

/* Decode the *inleft bytes at *in into the *outleft bytes at *out,
 * advancing all four past what was done (the sets are stateless: each call
 * starts afresh).  CHARSET_DONE when all the input is decoded;
 * CHARSET_BAD when the bytes at *in are no character of the set (or end
 * inside one); CHARSET_FULL when the output has no room for the next. */
int charset_decode(CharsetConv *c, const char **in, size_t *inleft, char **out, size_t *outleft);

#endif
