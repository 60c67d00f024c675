/* Bitboards on the 90-point board (square = rank * 9 + file) and the attack
 * tables of every piece.
 *
 * Sliders (rook, cannon) are looked up per line: the rank index is the rank's
 * seven inner bits taken by a shift; the file index gathers the file's inner
 * bits with a per-square magic multiply (or PEXT when built with USE_PEXT).
 * Each lookup returns the rook's attacks and the cannon's captures together.
 * Horse and elephant moves depend on four neighbouring points (legs or eyes),
 * gathered by one 64-bit window and a fixed magic (or PEXT).
 *
 * Tables are built once by bb_init() and read-only afterwards. */
#ifndef CHUHAN_BITBOARD_H
#define CHUHAN_BITBOARD_H

#include <stdio.h>

#include "types.h"

#ifdef USE_PEXT
#include <immintrin.h>
#endif

extern Bitboard SquareBB[SQUARE_NB];
extern Bitboard FileBB[FILE_NB];
extern Bitboard RankBB[RANK_NB];
extern Bitboard BoardBB;                    /* all 90 points */
extern Bitboard HalfBB[COLOR_NB];           /* a colour's own side of the river */
extern Bitboard PalaceBB[COLOR_NB];
extern Bitboard AdvisorPointsBB[COLOR_NB];  /* the 5 points an advisor can stand on */
extern Bitboard ElephantPointsBB[COLOR_NB]; /* the 7 points an elephant can stand on */
extern Bitboard PawnPointsBB[COLOR_NB];     /* the points a pawn can reach in play */

extern Bitboard KingMoves[SQUARE_NB];
extern Bitboard AdvisorMoves[SQUARE_NB];
extern Bitboard PawnMoves[COLOR_NB][SQUARE_NB];     /* targets of a pawn of colour c on s */
extern Bitboard PawnAttackers[COLOR_NB][SQUARE_NB]; /* where a pawn of colour c attacks s from */
extern Bitboard HorseMoves[SQUARE_NB][16];          /* by the occupancy of the 4 legs */
extern Bitboard HorseAttackers[SQUARE_NB][16];      /* by the occupancy of s's 4 diagonal points */
extern Bitboard ElephantMoves[SQUARE_NB][16];       /* by the occupancy of the 4 eyes */
extern Bitboard BetweenBB[SQUARE_NB][SQUARE_NB];    /* strictly between, same rank or file */
extern Bitboard LineBB[SQUARE_NB];                  /* rank and file of s, without s */
extern Bitboard AttackSpanBB[SQUARE_NB];            /* LineBB and the 4 diagonal points: what decides s's attackers */

typedef struct {
    uint16_t rook, cannon; /* 9-bit rank patterns */
} RankAttack;
typedef struct {
    Bitboard rook, cannon;
} FileAttack;

extern RankAttack RankAttacks[FILE_NB][128];
extern FileAttack FileAttacks[SQUARE_NB][256];
extern Bitboard FileMask[SQUARE_NB]; /* inner points of s's file, without s */
extern uint64_t FileFoldMask[SQUARE_NB];

/* Magic numbers, found by magic_generate() and committed in magic.c. */
extern const uint64_t FileMagics[SQUARE_NB];
extern const uint64_t OrthLegMagic, DiagLegMagic;
#define FILE_MAGIC_SHIFT 56
#define LEG_MAGIC_SHIFT 60
#define ORTH_WINDOW_MASK 0x80A02ULL   /* window bits of s-9, s-1, s+1, s+9 */
#define DIAG_WINDOW_MASK 0x140005ULL  /* window bits of s-10, s-8, s+8, s+10 */

void bb_init(void);

/* ---- bit operations ---- */

static inline int popcount(Bitboard b)
{
    return __builtin_popcountll((uint64_t)b) + __builtin_popcountll((uint64_t)(b >> 64));
}

static inline int lsb(Bitboard b)
{
    uint64_t lo = (uint64_t)b;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}

static inline int pop_lsb(Bitboard *b)
{
    int s = lsb(*b);
    *b &= *b - 1;
    return s;
}

static inline bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }
static inline bool bb_test(Bitboard b, int s) { return (b & SquareBB[s]) != 0; }

/* Iterate the squares of a bitboard, low half then high half, without
 * 128-bit arithmetic in the loop. */
#define BB_FOR_EACH(bb, sq, ...)                                               \
    do {                                                                       \
        uint64_t bb_lo_ = (uint64_t)(bb), bb_hi_ = (uint64_t)((bb) >> 64);    \
        while (bb_lo_) {                                                       \
            int sq = __builtin_ctzll(bb_lo_);                                  \
            bb_lo_ &= bb_lo_ - 1;                                              \
            __VA_ARGS__                                                        \
        }                                                                      \
        while (bb_hi_) {                                                       \
            int sq = 64 + __builtin_ctzll(bb_hi_);                             \
            bb_hi_ &= bb_hi_ - 1;                                              \
            __VA_ARGS__                                                        \
        }                                                                      \
    } while (0)

/* ---- index functions ---- */

static inline unsigned rank_index(int s, Bitboard occ)
{
    return (unsigned)(occ >> (sq_rank(s) * FILE_NB + 1)) & 0x7F;
}

static inline uint64_t file_fold(int s, Bitboard occ)
{
    Bitboard m = occ & FileMask[s];
    return (uint64_t)m ^ (uint64_t)(m >> 64);
}

static inline unsigned file_index(int s, Bitboard occ)
{
#ifdef USE_PEXT
    return (unsigned)_pext_u64(file_fold(s, occ), FileFoldMask[s]);
#else
    return (unsigned)((file_fold(s, occ) * FileMagics[s]) >> FILE_MAGIC_SHIFT);
#endif
}

/* 64-bit window of the occupancy: bit i is square s - 10 + i. */
static inline uint64_t window(int s, Bitboard occ)
{
    return (uint64_t)((occ << 10) >> s);
}

static inline unsigned orth_index(int s, Bitboard occ)
{
#ifdef USE_PEXT
    return (unsigned)_pext_u64(window(s, occ), ORTH_WINDOW_MASK);
#else
    return (unsigned)(((window(s, occ) & ORTH_WINDOW_MASK) * OrthLegMagic) >> LEG_MAGIC_SHIFT);
#endif
}

static inline unsigned diag_index(int s, Bitboard occ)
{
#ifdef USE_PEXT
    return (unsigned)_pext_u64(window(s, occ), DIAG_WINDOW_MASK);
#else
    return (unsigned)(((window(s, occ) & DIAG_WINDOW_MASK) * DiagLegMagic) >> LEG_MAGIC_SHIFT);
#endif
}

/* ---- attacks ---- */

static inline Bitboard rank_pattern(int s, unsigned pattern)
{
    return (Bitboard)pattern << (sq_rank(s) * FILE_NB);
}

static inline Bitboard rook_attacks(int s, Bitboard occ)
{
    return rank_pattern(s, RankAttacks[sq_file(s)][rank_index(s, occ)].rook)
         | FileAttacks[s][file_index(s, occ)].rook;
}

/* Cannon captures: the first point beyond the first screen on each line.  An
 * edge point may be included while empty: intersect with the pieces. */
static inline Bitboard cannon_attacks(int s, Bitboard occ)
{
    return rank_pattern(s, RankAttacks[sq_file(s)][rank_index(s, occ)].cannon)
         | FileAttacks[s][file_index(s, occ)].cannon;
}

/* Rook attacks and cannon captures from one pair of lookups. */
static inline void line_attacks(int s, Bitboard occ, Bitboard *rook, Bitboard *cannon)
{
    const RankAttack *ra = &RankAttacks[sq_file(s)][rank_index(s, occ)];
    const FileAttack *fa = &FileAttacks[s][file_index(s, occ)];
    *rook = rank_pattern(s, ra->rook) | fa->rook;
    *cannon = rank_pattern(s, ra->cannon) | fa->cannon;
}

static inline Bitboard horse_moves(int s, Bitboard occ) { return HorseMoves[s][orth_index(s, occ)]; }
static inline Bitboard horse_attackers(int s, Bitboard occ) { return HorseAttackers[s][diag_index(s, occ)]; }
static inline Bitboard elephant_moves(int s, Bitboard occ) { return ElephantMoves[s][diag_index(s, occ)]; }

/* The leg of a horse on horse that reaches target: the point next to it,
 * a step toward target along the longer side of the move. */
static inline int horse_leg(int horse, int target)
{
    int dr = sq_rank(target) - sq_rank(horse);
    if (dr == 2 || dr == -2)
        return horse + (dr > 0 ? FILE_NB : -FILE_NB);
    return horse + (sq_file(target) > sq_file(horse) ? 1 : -1);
}

/* Reference implementations walking the board point by point: used to fill
 * the tables and by the tests to check them. */
Bitboard slow_rook_attacks(int s, Bitboard occ);
Bitboard slow_cannon_attacks(int s, Bitboard occ);
Bitboard slow_horse_moves(int s, Bitboard occ);
Bitboard slow_horse_attackers(int s, Bitboard occ);
Bitboard slow_elephant_moves(int s, Bitboard occ);

/* Find magic numbers from a seed and write them as C source (magic.c's
 * table).  Returns 0 on success. */
int magic_generate(uint64_t seed, FILE *out);
/* Check a set of file magics: every occupancy of every square's mask must
 * index an entry whose rook and cannon attacks agree.  Returns the first bad
 * square, or -1 when all are collision-free. */
int magic_verify_file(const uint64_t magics[SQUARE_NB]);
/* Check a leg magic: the 16 patterns of the window mask map to 16 indices. */
bool magic_verify_leg(uint64_t magic, uint64_t mask);

#endif
