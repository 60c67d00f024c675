/* Basic types shared by every module: colours, pieces, squares, moves. */
#ifndef CHUHAN_TYPES_H
#define CHUHAN_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef unsigned __int128 Bitboard; /* bit s = square s, squares 0..89 */
typedef uint64_t Key;
typedef uint16_t Move;

enum { RED, BLACK, COLOR_NB };

/* Piece types, ordered roughly by value so that comparisons read naturally. */
enum {
    NO_PIECE_TYPE,
    PAWN,
    ADVISOR,
    ELEPHANT,
    HORSE,
    CANNON,
    ROOK,
    KING,
    PIECE_TYPE_NB
};

/* A piece is colour * 8 + type; 0 is the empty point. */
enum { NO_PIECE = 0, PIECE_NB = 16 };

#define FILE_NB 9
#define RANK_NB 10
#define SQUARE_NB 90

/* Moves a legal position can have: 2x17 rooks, 2x17 cannons, 2x8 horses,
 * 2x4 elephants, 2x2 advisors (one palace), 4 king, 5x3 pawns < 128. */
#define MAX_MOVES 128

/* A move is 16 bits: from (7 bits) | to (7 bits) << 7.  Xiangqi has no
 * promotions or special moves, so the two spare bits stay zero. */
#define MOVE_NONE ((Move)0)
#define MOVE_NULL ((Move)(1 | 1 << 7))

static inline int make_piece(int c, int pt) { return c << 3 | pt; }
static inline int piece_type(int pc) { return pc & 7; }
static inline int piece_color(int pc) { return pc >> 3; }

static inline int make_square(int file, int rank) { return rank * FILE_NB + file; }
static inline int sq_rank(int s) { return s / FILE_NB; }
static inline int sq_file(int s) { return s % FILE_NB; }

static inline Move make_move(int from, int to) { return (Move)(from | to << 7); }
static inline int move_from(Move m) { return m & 0x7F; }
static inline int move_to(Move m) { return m >> 7 & 0x7F; }

#endif
