/* Private to the PGN reader: its growable buffers, and the decoding of a
 * record's bytes to UTF-8 (pgn_encoding.c) that pgn.c calls. */
#ifndef CHUHAN_PGN_PRIVATE_H
#define CHUHAN_PGN_PRIVATE_H

#include <iconv.h>

#include "pgn.h"

typedef struct {
    char *p;
    size_t len, cap;
} Buf;

/* Room for extra more bytes and a NUL; false when out of memory. */
bool buf_reserve(Buf *b, size_t extra);
/* Append n bytes, NUL-terminated; false when out of memory. */
bool buf_add(Buf *b, const void *data, size_t n);
void buf_free(Buf *b);

/* A tag line ("[Name ..."): its name (namelen 0 if none); false if the
 * line is no tag line. */
bool pgn_tag_line(const char *s, size_t n, const char **name, size_t *namelen);

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if none. */
size_t pgn_utf8_seq(const unsigned char *s, size_t n);

#define ICONV_ALTS 3 /* iconv tables tried for one encoding */

typedef struct {
    PgnEncoding forced; /* AUTO: detect each record's */
    PgnEncoding sticky; /* the last encoding detected */
    iconv_t cd[PGN_ENC_NB][ICONV_ALTS];
    bool cd_tried[PGN_ENC_NB][ICONV_ALTS];
    Buf scratch;
} PgnDecoder;

void pgn_decoder_init(PgnDecoder *d, PgnEncoding forced);
void pgn_decoder_free(PgnDecoder *d);
/* The raw record rec (lines, each ending in '\n') as UTF-8 lines into
 * text; *enc the record's encoding, *bad_lines how many lines were not in
 * it.  False when out of memory. */
bool pgn_decode_record(PgnDecoder *d, const Buf *rec, Buf *text, PgnEncoding *enc, int *bad_lines);

#endif
