/* Training data for the net: positions with a search score and the game's
 * result, 32 bytes each, in files of concatenated zstd frames (one frame
 * per batch written, so that a file grows by appending and a generator
 * that was stopped loses at most the frame it was writing).
 *
 * A record: the occupied points (90 bits in 12 bytes, little-endian, point
 * 0 first), the pieces on them in point order (a 4-bit piece code each, 32
 * at most: 16 bytes), the score (int16, centipawns, the side to move's
 * view), the result (0: the side to move lost, 1: draw, 2: won) and the
 * side to move (bit 0: 0 red, 1 black; bit 1: the first record of its game,
 * so that a trainer can hold out whole games). */
#ifndef CHUHAN_NNUE_DATA_H
#define CHUHAN_NNUE_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/board/position.h"
#include "eval/nnue/nnue.h"

#define NNUE_RECORD_BYTES 32
typedef struct {
    uint8_t b[NNUE_RECORD_BYTES];
} NnueRecord;

/* A record unpacked: what the trainer reads. */
typedef struct {
    uint8_t side, n;     /* side to move; pieces on the board */
    uint8_t king[COLOR_NB];
    uint8_t sq[NNUE_MAX_ACTIVE], pc[NNUE_MAX_ACTIVE];
    int16_t score;       /* side to move's view */
    int8_t result;       /* -1, 0, 1: side to move's view */
} NnueSample;

/* result: -1 lost, 0 draw, 1 won, from the side to move's view. */
void nnue_record_pack(NnueRecord *r, const Position *pos, int score, int result);
/* Mark r as the first record of its game. */
static inline void nnue_record_mark_game_start(NnueRecord *r) { r->b[31] |= 2; }
/* The result from Red's view (-1, 0, 1) of a packed record. */
static inline int nnue_record_red_result(const NnueRecord *r)
{
    int result = r->b[30] - 1;
    return r->b[31] & 1 ? -result : result;
}
/* False if the record is not a legal-looking position (no king, too many
 * pieces, a bad code). */
bool nnue_record_unpack(const NnueRecord *r, NnueSample *s);
/* The same position with its files mirrored (xiangqi is left-right
 * symmetric: the trainer sees every position both ways). */
void nnue_sample_mirror(NnueSample *s);
/* The active inputs of perspective p: the same as nnue_features() of the
 * position the record holds. */
int nnue_sample_features(const NnueSample *s, int p, int out[NNUE_MAX_ACTIVE]);
static inline int nnue_sample_bucket(const NnueSample *s)
{
    int n = s->n - 2;
    return n >= 24 ? 3 : n / 8;
}

/* Split records into training and validation by whole games: a game
 * starts at a record marked as its first, or where the result from Red's
 * view changes (files written before the mark: every record of a game has
 * the same, so a group of such records is one or more whole games).  Every
 * k-th group (k >= 2) goes to val, the rest to train (k == 0: none held
 * out); both arrays must hold n records.  Returns the number of groups. */
size_t nnue_data_split_games(const NnueRecord *recs, size_t n, size_t k, NnueRecord *train, size_t *ntrain,
                             NnueRecord *val, size_t *nval);

/* Append n records to path as one frame (the file is created if needed);
 * false with the reason, at once for a path that is not a new or regular
 * file (engine/util/outfile.h). */
bool nnue_data_append(const char *path, const NnueRecord *recs, size_t n, char *err, size_t errlen);
/* Every record of the whole frames of path (*count of them, malloc'd; NULL,
 * *count 0 and err "" for an empty or missing file when missing_ok).
 * *good_bytes: where the last whole frame ends (a stopped writer may leave a
 * partial frame after it).  NULL with the reason in err when the file is
 * not a regular file (file_open_regular), cannot be read, is not data or
 * holds no record. */
NnueRecord *nnue_data_read(const char *path, bool missing_ok, size_t *count, size_t *good_bytes, char *err,
                           size_t errlen);

#endif
