/* The opening book: (position key, move, weight, wins/draws/losses) entries
 * sorted by key, built from game records and stored zstd-compressed.
 *
 * File format (version 1, little-endian):
 *   0  "CHUHANBK"          magic
 *   8  u32 version (1)     12  u32 header size (64)
 *   16 u64 entry count     24 u64 compressed payload size
 *   32 u32 max ply         36 u32 min games        (how it was built)
 *   40 u64 games used
 *   48 u64 data checksum (of the compressed bytes that follow the header)
 *   56 u64 header checksum (of bytes 0-55)
 *   64 one zstd frame: the payload, column by column: key deltas (u64),
 *      moves (u16), weights, wins, draws, losses (u32 each).
 * Keys are pos_key() (zobrist, side to move included); wins, draws and
 * losses are counted for the side that plays the move.  The weight orders
 * the moves of a position and drives the random choice: 2 * wins + draws.
 *
 * A loaded Book is read-only: any number of threads may probe it at once. */
#ifndef CHUHAN_BOOK_H
#define CHUHAN_BOOK_H

#include <stdio.h>

#include "engine/board/position.h"
#include "engine/records/pgn.h"

typedef struct Book Book;

typedef struct {
    Move move;
    uint32_t weight, wins, draws, losses;
} BookMove;

/* Load a book; NULL with the reason in err if the data is not a whole,
 * uncorrupted book.  book_load_memory copies what it needs. */
Book *book_load_file(const char *path, char *err, size_t errlen);
Book *book_load_memory(const void *data, size_t size, char *err, size_t errlen);
/* The book built into the binary (book/default.book). */
Book *book_load_default(char *err, size_t errlen);
void book_free(Book *book);

/* The legal book moves of pos, best (highest weight) first; at most max
 * written to out, the number written returned (0: not in the book). */
int book_probe(const Book *book, const Position *pos, BookMove *out, int max);
/* A book move for pos: the best, or one drawn at random in proportion to
 * the weights, using and advancing *rng_state (engine/util/rng.h).
 * MOVE_NONE if the position is not in the book. */
Move book_choose(const Book *book, const Position *pos, bool best_only, uint64_t *rng_state);

size_t book_entries(const Book *book);   /* (position, move) entries */
size_t book_positions(const Book *book); /* distinct positions */

/* ---- building ---- */

typedef struct {
    int max_ply;        /* plies from the start of each game that count (default 30) */
    int min_games;      /* a move must be played in at least this many games (default 3) */
    double min_score;   /* and score at least this for its player, draws half (default 0.25) */
    PgnEncoding encoding; /* of the PGN input (default auto) */
    FILE *progress;     /* a progress line here during long work, or NULL */
    FILE *rejects;      /* each rejected record with its reason here, or NULL */
} BookOptions;

void book_options_default(BookOptions *opt);

typedef struct {
    long files, games_read, games_used, unknown_results;
    long rejected[PGN_ERR_NB]; /* by reason; rejected[PGN_OK] stays 0 */
    long samples;              /* (position, move) occurrences counted */
    long positions, entries;   /* in the finished book */
    size_t bytes;              /* size of the finished book */
} BookBuildStats;

typedef struct BookBuilder BookBuilder;

BookBuilder *book_builder_new(const BookOptions *opt);
void book_builder_free(BookBuilder *b);
/* One game from fen (NULL: the start position) with its moves and result
 * (PGN_RED_WINS, PGN_DRAW, PGN_BLACK_WINS or PGN_UNKNOWN).  False with a
 * reason if the FEN or a move is not legal. */
bool book_builder_add_game(BookBuilder *b, const char *fen, const Move *moves, int n, int result, char *err,
                           size_t errlen);
/* Every record of a PGN file (plain or .zst; NULL name: a reader already
 * open).  Records that cannot be replayed are counted by reason and skipped;
 * false only when the input cannot be read on. */
bool book_builder_add_pgn(BookBuilder *b, PgnReader *reader, const char *name, char *err, size_t errlen);
bool book_builder_add_file(BookBuilder *b, const char *path, char *err, size_t errlen);
/* The finished book as bytes (malloc'ed, the caller frees), or written to
 * a file (atomically: a temporary file renamed). */
bool book_builder_finish(BookBuilder *b, void **data, size_t *size, char *err, size_t errlen);
bool book_builder_write(BookBuilder *b, const char *path, char *err, size_t errlen);
const BookBuildStats *book_builder_stats(const BookBuilder *b);

#endif
