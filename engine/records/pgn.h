/* A reader of xiangqi game records in PGN form.
 *
 * Records stream from a file, a FILE* or a memory buffer; zstd-compressed
 * input (a .pgn.zst, recognised by its magic number) is decompressed on the
 * fly.  Text in UTF-8, GBK (read as GB18030, its superset) or Big5 is
 * converted to UTF-8 (iconv, or the Windows code pages); with PGN_ENC_AUTO each record's encoding is
 * told by which reading yields Chinese move notation, and a line that does
 * not decode in the record's encoding is tried in the others (a GBK tag in a
 * Big5 file), then decoded with U+FFFD for the bad bytes.
 *
 * The reader understands tags (values may hold unescaped quotes, as in the
 * CCPD records), move numbers (1. 1... 1．), comments {...} and ;..., '%'
 * escape lines, variations (...) (skipped), NAGs $n, and result tokens
 * (1-0 0-1 1/2-1/2 *), and splits Chinese moves written without spaces.
 * Move tokens are kept as text; pgn_replay() plays them with notation_read(). */
#ifndef CHUHAN_PGN_H
#define CHUHAN_PGN_H

#include <stdio.h>

#include "engine/board/position.h"

typedef enum { PGN_ENC_AUTO, PGN_ENC_UTF8, PGN_ENC_GBK, PGN_ENC_BIG5, PGN_ENC_NB } PgnEncoding;

typedef struct PgnReader PgnReader;

typedef struct {
    const char *name, *value; /* UTF-8, value unescaped */
} PgnTag;

/* One record, valid until the next pgn_next() or pgn_close(). */
typedef struct {
    const PgnTag *tags;
    int ntags;
    const char *const *moves; /* move tokens as written (UTF-8), numbers and comments removed */
    int nmoves;
    const char *termination;  /* the result token that ended the moves, "" if none */
    long index;               /* 1 for the first record of the input */
    long line;                /* line of the input where the record starts */
    PgnEncoding encoding;     /* what the record was decoded from */
    int bad_lines;            /* lines decoded in another encoding or with U+FFFD */
} PgnGame;

/* Open for reading; path "-" is standard input.  NULL with a reason in err
 * on failure.  A stream given to pgn_open_stream stays the caller's; memory
 * given to pgn_open_memory must outlive the reader. */
PgnReader *pgn_open_file(const char *path, PgnEncoding enc, char *err, size_t errlen);
PgnReader *pgn_open_stream(FILE *f, PgnEncoding enc, char *err, size_t errlen);
PgnReader *pgn_open_memory(const void *data, size_t size, PgnEncoding enc, char *err, size_t errlen);
void pgn_close(PgnReader *r);

/* The next record: 1 and *game set, 0 at the end, -1 on an error that stops
 * the reading (I/O, corrupt or truncated zstd data, a record over 64 MB),
 * with the reason in err. */
int pgn_next(PgnReader *r, const PgnGame **game, char *err, size_t errlen);

/* A tag's value, or NULL. */
const char *pgn_tag(const PgnGame *g, const char *name);
/* Write a tag line, `[Name "value"]`, its quotes and backslashes escaped. */
void pgn_write_tag(FILE *out, const char *name, const char *value);

enum { PGN_RED_WINS, PGN_DRAW, PGN_BLACK_WINS, PGN_UNKNOWN };
/* The result: the Result tag, or the result token when the tag is missing
 * or says nothing. */
int pgn_result(const PgnGame *g);

/* Why a record could not be replayed. */
typedef enum {
    PGN_OK,
    PGN_ERR_NO_MOVES,   /* a record with no moves at all */
    PGN_ERR_FEN,        /* the FEN tag is not a position */
    PGN_ERR_MOVE,       /* a move that cannot be read or is not legal */
    PGN_ERR_AFTER_END,  /* moves after checkmate or stalemate */
    PGN_ERR_TOO_LONG,   /* more moves than a Position holds */
    PGN_ERR_NB
} PgnReplayError;
const char *pgn_error_name(PgnReplayError e);

/* Set pos to the record's FEN tag (or the start position) and play its
 * moves; the moves are also written to moves (room for max, may be NULL).
 * On an error pos holds the position before the bad move, *nmoves the moves
 * played, and err says which move and why. */
PgnReplayError pgn_replay(const PgnGame *g, Position *pos, Move *moves, int max, int *nmoves, char *err,
                          size_t errlen);

/* Encoding names: "auto", "utf-8"/"utf8", "gbk"/"gb2312"/"gb18030"/"cp936",
 * "big5"/"cp950".  False if unknown. */
bool pgn_parse_encoding(const char *name, PgnEncoding *enc);

#endif
