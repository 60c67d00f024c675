/* The position: pieces, side to move, zobrist key, and the stack of states
 * that make/unmake walk.  A Position also carries the game history it was
 * reached by, so that repetitions against earlier moves can be seen. */
#ifndef CHUHAN_POSITION_H
#define CHUHAN_POSITION_H

#include "bitboard.h"

#define MAX_PLY 256        /* deepest search line */
#define MAX_GAME_PLY 4096  /* moves a game may hold before the search's own */
#define FEN_MAX 128        /* longest FEN pos_fen() writes, with its NUL */

#define START_FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

typedef struct {
    Key key;
    Bitboard checkers; /* enemy pieces that give check to the side to move */
    Bitboard pinned;   /* own pieces whose leaving may expose the own king */
    Bitboard screens;  /* empty points that would make an enemy cannon give check */
    Move move;         /* the move that led here (MOVE_NONE at the root) */
    uint8_t captured;  /* piece captured by that move */
    uint16_t rule60;   /* plies since the last capture */
    uint16_t null_ply; /* plies since the last null move (or the start) */
} StateInfo;

typedef struct {
    Bitboard by_type[PIECE_TYPE_NB]; /* by_type[0]: unused */
    Bitboard by_color[COLOR_NB];
    Bitboard occupied;
    uint8_t board[SQUARE_NB];
    uint8_t king_sq[COLOR_NB];
    uint8_t side;
    int fen_ply; /* game ply of the FEN: 2 * (fullmove - 1) + (black to move) */
    int top;     /* index of the current state in st */
    StateInfo st[MAX_GAME_PLY + MAX_PLY + 1];
} Position;

/* Build the zobrist keys.  Part of chuhan_init(); the keys are fixed by a
 * constant seed, and the opening book depends on them staying so. */
void zobrist_init(void);
extern Key Zobrist[PIECE_NB][SQUARE_NB];
extern Key ZobristSide;

/* Set from a FEN.  On error returns false, writes a one-line reason to err
 * and leaves pos untouched. */
bool pos_set_fen(Position *pos, const char *fen, char *err, size_t errlen);
/* A pawn on a point no game brings it to (behind its starting rank, or
 * this side of the river off the files a, c, e, g and i), as rule books
 * and composed problems place them; pos_set_fen accepts it.  True, with a
 * one-line note naming the first such pawn, when there is one. */
bool pos_unreachable_pawn(const Position *pos, char *note, size_t notelen);
void pos_fen(const Position *pos, char out[FEN_MAX]);

/* Copy the used part of a position (its state stack up to top). */
void pos_copy(Position *dst, const Position *src);

void pos_do_move(Position *pos, Move m);
void pos_undo_move(Position *pos);
void pos_do_null(Position *pos);
void pos_undo_null(Position *pos);
/* Room left on the state stack for more moves. */
static inline int pos_room(const Position *pos)
{
    return (int)(sizeof pos->st / sizeof pos->st[0]) - 1 - pos->top;
}

/* The key computed from scratch (for tests and debugging). */
Key pos_compute_key(const Position *pos);

/* Pieces of colour c that could capture on s, with occupancy occ (the
 * king by its palace steps; the kings' facing along a file is not counted). */
Bitboard pos_attackers(const Position *pos, int s, int c, Bitboard occ);

/* Is the pseudo-legal move m legal (own king safe, kings not facing)? */
bool pos_legal(const Position *pos, Move m);
/* Is m a pseudo-legal move here (for moves from the TT or killers)? */
bool pos_pseudo_legal(const Position *pos, Move m);
/* Does the (legal) move m give check? */
bool pos_gives_check(const Position *pos, Move m);
/* Static exchange: does m win at least threshold (in SeeValue units)? */
bool pos_see_ge(const Position *pos, Move m, int threshold);
extern const int SeeValue[PIECE_TYPE_NB];

/* Would moving from -> to leave the mover's king safe? */
bool pos_king_safe_after(const Position *pos, int from, int to);

static inline const StateInfo *pos_state(const Position *pos) { return &pos->st[pos->top]; }
/* The key after move m (for prefetching the table). */
static inline Key pos_key_after(const Position *pos, Move m)
{
    int from = move_from(m), to = move_to(m), pc = pos->board[from];
    return pos->st[pos->top].key ^ ZobristSide ^ Zobrist[pc][from] ^ Zobrist[pc][to] ^ Zobrist[pos->board[to]][to];
}
static inline Key pos_key(const Position *pos) { return pos->st[pos->top].key; }
static inline bool pos_in_check(const Position *pos) { return pos->st[pos->top].checkers != 0; }
static inline Bitboard pos_pieces(const Position *pos, int c, int pt) { return pos->by_type[pt] & pos->by_color[c]; }
static inline int pos_piece_on(const Position *pos, int s) { return pos->board[s]; }
static inline bool pos_is_capture(const Position *pos, Move m) { return pos->board[move_to(m)] != NO_PIECE; }
static inline int pos_game_ply(const Position *pos) { return pos->fen_ply + pos->top; }

/* The one scan for repetitions: the earlier occurrences of the position at
 * state index k within its window (the same side to move, no capture and
 * no null move since).  Returns how many there are, with the index of the
 * earliest and of the latest (-1 for both when none). */
static inline int pos_occurrences(const Position *pos, int k, int *earliest, int *latest)
{
    const StateInfo *st = &pos->st[k];
    int window = st->rule60 < st->null_ply ? st->rule60 : st->null_ply;
    int low = k - window < 0 ? 0 : k - window, count = 0;
    *earliest = *latest = -1;
    for (int i = k - 4; i >= low; i -= 2)
        if (pos->st[i].key == st->key) {
            if (!count++)
                *latest = i;
            *earliest = i;
        }
    return count;
}

/* FEN letter of a piece: Red upper case, N for horse and B for elephant. */
char piece_char(int pc);
/* Names for messages: "horse", "red". */
const char *piece_type_name(int pt);
const char *color_name(int c);

/* UCI text of a move (ranks 0-9, or 1-10 when rank1), at least 6 bytes. */
void move_str(Move m, char *out, bool rank1);
/* Has text the shape of a move in UCI form with ranks 0-9, [a-i][0-9][a-i][0-9]
 * (legal or not)? */
bool looks_like_move(const char *text);
/* Square from text like "h2" (ranks 0-9, or 1-10 when rank1); -1 if bad.
 * Advances *len by the characters read. */
int parse_square(const char *s, bool rank1, int *len);

#endif
