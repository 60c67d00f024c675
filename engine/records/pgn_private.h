/* Private to the PGN reader: its state and growable buffers (pgn.c), the
 * decoding of a record's bytes to UTF-8 (pgn_encoding.c), and the parsing
 * of its games (pgn_game.c). */
#ifndef CHUHAN_PGN_PRIVATE_H
#define CHUHAN_PGN_PRIVATE_H

#include <zstd.h>

#include "engine/util/charset.h"
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

/* The index of the first character at or after i that is not a blank (a
 * space, a tab, a byte order mark, an ideographic space). */
size_t pgn_skip_blank(const char *s, size_t n, size_t i);
/* A tag line ("[Name ..."): its name (namelen 0 if none); false if the
 * line is no tag line. */
bool pgn_tag_line(const char *s, size_t n, const char **name, size_t *namelen);

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if none. */
size_t pgn_utf8_seq(const unsigned char *s, size_t n);

typedef struct {
    PgnEncoding forced; /* AUTO: detect each record's */
    PgnEncoding sticky; /* the last encoding detected */
    CharsetConv *cd[PGN_ENC_NB][CHARSET_TABLES]; /* opened when first used */
    bool cd_tried[PGN_ENC_NB][CHARSET_TABLES];
    Buf scratch;
} PgnDecoder;

void pgn_decoder_init(PgnDecoder *d, PgnEncoding forced);
void pgn_decoder_free(PgnDecoder *d);
/* The raw record rec (lines, each ending in '\n') as UTF-8 lines into
 * text; *enc the record's encoding, *bad_lines how many lines were not in
 * it.  False when out of memory. */
bool pgn_decode_record(PgnDecoder *d, const Buf *rec, Buf *text, PgnEncoding *enc, int *bad_lines);

/* ---- the reader (pgn.c) ---- */

typedef struct {
    size_t name, value;
} TagOff;

struct PgnReader {
    /* input */
    FILE *file;
    bool own_file;
    const unsigned char *in;
    size_t in_len, in_pos;
    unsigned char *in_buf;
    bool in_eof;
    ZSTD_DStream *zds; /* NULL: plain input */
    size_t zlast;      /* last ZSTD_decompressStream() return: 0 at a frame's end */
    /* bytes waiting to be split into lines */
    Buf data;
    size_t data_pos;
    bool data_eof;
    long line_no;
    /* the raw record, and the line that starts the next one */
    Buf rec;
    Buf carry;
    bool have_carry;
    long carry_line, rec_line;
    /* the record as UTF-8 text, and how far the games in it are read */
    Buf text;
    size_t text_pos;
    long text_line;
    PgnDecoder dec;
    PgnEncoding rec_enc;
    int rec_bad;
    /* the current game */
    Buf arena;
    TagOff *tagoff;
    PgnTag *tags;
    int ntags, tagcap;
    size_t *moveoff;
    const char **moves;
    int nmoves, movecap;
    size_t termination;
    PgnGame game;
    long games;
    bool failed;
    char failure[256];
};

/* The next game of the record's text into r->game: 1, 0 when the text is
 * used up, -1 out of memory (pgn_game.c). */
int pgn_parse_game(PgnReader *r);

#endif
