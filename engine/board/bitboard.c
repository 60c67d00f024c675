/* Bitboard masks and attack tables, built once by bb_init(). */
#include "bitboard.h"

#include <stdlib.h>
#include <string.h>

Bitboard SquareBB[SQUARE_NB];
Bitboard FileBB[FILE_NB];
Bitboard RankBB[RANK_NB];
Bitboard BoardBB;
Bitboard HalfBB[COLOR_NB];
Bitboard PalaceBB[COLOR_NB];
Bitboard AdvisorPointsBB[COLOR_NB];
Bitboard ElephantPointsBB[COLOR_NB];
Bitboard PawnPointsBB[COLOR_NB];

Bitboard KingMoves[SQUARE_NB];
Bitboard AdvisorMoves[SQUARE_NB];
Bitboard PawnMoves[COLOR_NB][SQUARE_NB];
Bitboard PawnAttackers[COLOR_NB][SQUARE_NB];
Bitboard HorseMoves[SQUARE_NB][16];
Bitboard HorseAttackers[SQUARE_NB][16];
Bitboard ElephantMoves[SQUARE_NB][16];
Bitboard BetweenBB[SQUARE_NB][SQUARE_NB];
Bitboard LineBB[SQUARE_NB];
Bitboard AttackSpanBB[SQUARE_NB];

RankAttack RankAttacks[FILE_NB][128];
FileAttack FileAttacks[SQUARE_NB][256];
Bitboard FileMask[SQUARE_NB];
uint64_t FileFoldMask[SQUARE_NB];

static bool on_board(int f, int r) { return f >= 0 && f < FILE_NB && r >= 0 && r < RANK_NB; }

/* Occupancy of (f, r); off-board points read as empty. */
static bool occupied_at(Bitboard occ, int f, int r)
{
    return on_board(f, r) && bb_test(occ, make_square(f, r));
}

static void add(Bitboard *b, int f, int r)
{
    if (on_board(f, r))
        *b |= SquareBB[make_square(f, r)];
}

static const int ORTH[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
static const int DIAG[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static Bitboard slow_slider(int s, Bitboard occ, bool cannon)
{
    Bitboard att = 0;
    for (int d = 0; d < 4; d++) {
        int f = sq_file(s) + ORTH[d][0], r = sq_rank(s) + ORTH[d][1];
        bool screened = false;
        for (; on_board(f, r); f += ORTH[d][0], r += ORTH[d][1]) {
            bool occ_here = occupied_at(occ, f, r);
            if (!cannon) {
                add(&att, f, r);
                if (occ_here)
                    break;
            } else if (occ_here) {
                if (screened) {
                    add(&att, f, r);
                    break;
                }
                screened = true;
            }
        }
    }
    return att;
}

Bitboard slow_rook_attacks(int s, Bitboard occ) { return slow_slider(s, occ, false); }
Bitboard slow_cannon_attacks(int s, Bitboard occ) { return slow_slider(s, occ, true); }

Bitboard slow_horse_moves(int s, Bitboard occ)
{
    Bitboard att = 0;
    int f = sq_file(s), r = sq_rank(s);
    for (int d = 0; d < 4; d++) {
        int df = ORTH[d][0], dr = ORTH[d][1];
        if (!on_board(f + df, r + dr) || occupied_at(occ, f + df, r + dr))
            continue;
        /* two steps along d, one step across */
        add(&att, f + 2 * df + dr, r + 2 * dr + df);
        add(&att, f + 2 * df - dr, r + 2 * dr - df);
    }
    return att;
}

static int sign(int x) { return (x > 0) - (x < 0); }

Bitboard slow_horse_attackers(int s, Bitboard occ)
{
    static const int JUMPS[8][2] = {{1, 2}, {-1, 2}, {1, -2}, {-1, -2}, {2, 1}, {2, -1}, {-2, 1}, {-2, -1}};
    Bitboard att = 0;
    int f = sq_file(s), r = sq_rank(s);
    for (int j = 0; j < 8; j++) {
        int hf = f + JUMPS[j][0], hr = r + JUMPS[j][1];
        if (!on_board(hf, hr))
            continue;
        /* the horse's leg is next to the horse, on its long side */
        int lf = hf, lr = hr;
        if (abs(JUMPS[j][1]) == 2)
            lr += sign(r - hr);
        else
            lf += sign(f - hf);
        if (!occupied_at(occ, lf, lr))
            add(&att, hf, hr);
    }
    return att;
}

Bitboard slow_elephant_moves(int s, Bitboard occ)
{
    Bitboard att = 0;
    int f = sq_file(s), r = sq_rank(s);
    bool red_half = r <= 4;
    for (int d = 0; d < 4; d++) {
        int tf = f + 2 * DIAG[d][0], tr = r + 2 * DIAG[d][1];
        if (!on_board(tf, tr) || (tr <= 4) != red_half)
            continue;
        if (!occupied_at(occ, f + DIAG[d][0], r + DIAG[d][1]))
            add(&att, tf, tr);
    }
    return att;
}

/* Enumerate the 16 occupancies of the four points a window mask names, as
 * real board occupancies around s (points off the board are left out). */
static Bitboard window_pattern(int s, uint64_t mask, unsigned pattern)
{
    Bitboard occ = 0;
    int k = 0;
    for (int bit = 0; bit < 64; bit++) {
        if (!(mask >> bit & 1))
            continue;
        if (pattern >> k++ & 1) {
            int t = s - 10 + bit;
            if (t >= 0 && t < SQUARE_NB)
                occ |= SquareBB[t];
        }
    }
    return occ;
}

static void init_masks(void)
{
    for (int s = 0; s < SQUARE_NB; s++)
        SquareBB[s] = (Bitboard)1 << s;
    BoardBB = 0;
    memset(FileBB, 0, sizeof FileBB);
    memset(RankBB, 0, sizeof RankBB);
    for (int c = 0; c < COLOR_NB; c++)
        HalfBB[c] = PalaceBB[c] = AdvisorPointsBB[c] = ElephantPointsBB[c] = PawnPointsBB[c] = 0;

    for (int s = 0; s < SQUARE_NB; s++) {
        int f = sq_file(s), r = sq_rank(s);
        BoardBB |= SquareBB[s];
        FileBB[f] |= SquareBB[s];
        RankBB[r] |= SquareBB[s];
        for (int c = 0; c < COLOR_NB; c++) {
            int rr = c == RED ? r : 9 - r; /* rank from c's own side */
            if (rr <= 4)
                HalfBB[c] |= SquareBB[s];
            if (rr <= 2 && f >= 3 && f <= 5) {
                PalaceBB[c] |= SquareBB[s];
                if ((f == 4 && rr == 1) || ((f == 3 || f == 5) && (rr == 0 || rr == 2)))
                    AdvisorPointsBB[c] |= SquareBB[s];
            }
            if ((rr == 0 || rr == 4) && (f == 2 || f == 6))
                ElephantPointsBB[c] |= SquareBB[s];
            if (rr == 2 && (f == 0 || f == 4 || f == 8))
                ElephantPointsBB[c] |= SquareBB[s];
            if (rr >= 5 || ((rr == 3 || rr == 4) && f % 2 == 0))
                PawnPointsBB[c] |= SquareBB[s];
        }
    }
}

static void init_steppers(void)
{
    for (int s = 0; s < SQUARE_NB; s++) {
        int f = sq_file(s), r = sq_rank(s);
        KingMoves[s] = AdvisorMoves[s] = 0;
        for (int c = 0; c < COLOR_NB; c++) {
            if (!bb_test(PalaceBB[c], s))
                continue;
            for (int d = 0; d < 4; d++) {
                add(&KingMoves[s], f + ORTH[d][0], r + ORTH[d][1]);
                add(&AdvisorMoves[s], f + DIAG[d][0], r + DIAG[d][1]);
            }
            KingMoves[s] &= PalaceBB[c];
            AdvisorMoves[s] &= PalaceBB[c];
        }
        for (int c = 0; c < COLOR_NB; c++) {
            int fwd = c == RED ? 1 : -1;
            Bitboard b = 0;
            add(&b, f, r + fwd);
            if (!bb_test(HalfBB[c], s)) { /* crossed the river */
                add(&b, f - 1, r);
                add(&b, f + 1, r);
            }
            PawnMoves[c][s] = b;
        }
    }
    for (int c = 0; c < COLOR_NB; c++)
        for (int s = 0; s < SQUARE_NB; s++) {
            PawnAttackers[c][s] = 0;
            for (int p = 0; p < SQUARE_NB; p++)
                if (bb_test(PawnMoves[c][p], s))
                    PawnAttackers[c][s] |= SquareBB[p];
        }
}

static void init_leapers(void)
{
    for (int s = 0; s < SQUARE_NB; s++)
        for (unsigned p = 0; p < 16; p++) {
            Bitboard orth = window_pattern(s, ORTH_WINDOW_MASK, p);
            Bitboard diag = window_pattern(s, DIAG_WINDOW_MASK, p);
            /* Points of the pattern that are not true neighbours of s (the
             * window wraps around the board's edge) do not affect the
             * slow functions, so every index gets a consistent entry. */
            HorseMoves[s][orth_index(s, orth)] = slow_horse_moves(s, orth);
            HorseAttackers[s][diag_index(s, diag)] = slow_horse_attackers(s, diag);
            ElephantMoves[s][diag_index(s, diag)] = slow_elephant_moves(s, diag);
        }
}

static void init_lines(void)
{
    for (int s = 0; s < SQUARE_NB; s++) {
        int f = sq_file(s), r = sq_rank(s);
        LineBB[s] = (FileBB[f] | RankBB[r]) & ~SquareBB[s];
        /* the rook's and cannon's lines to s and the horses' legs next to it */
        AttackSpanBB[s] = LineBB[s];
        for (int df = -1; df <= 1; df += 2)
            for (int dr = -1; dr <= 1; dr += 2)
                if (f + df >= 0 && f + df < FILE_NB && r + dr >= 0 && r + dr < RANK_NB)
                    AttackSpanBB[s] |= SquareBB[make_square(f + df, r + dr)];
        FileMask[s] = FileBB[f] & ~RankBB[0] & ~RankBB[9] & ~SquareBB[s];
        FileFoldMask[s] = file_fold(s, FileMask[s]);
        for (int t = 0; t < SQUARE_NB; t++) {
            BetweenBB[s][t] = 0;
            if (t == s || !bb_test(LineBB[s], t))
                continue;
            int df = sign(sq_file(t) - f), dr = sign(sq_rank(t) - r);
            for (int x = f + df, y = r + dr; make_square(x, y) != t; x += df, y += dr)
                BetweenBB[s][t] |= SquareBB[make_square(x, y)];
        }
    }

    /* Rank patterns: compute on rank 0 with both edge points occupied, which
     * gives the rook its edge point and the cannon its edge target. */
    for (int f = 0; f < FILE_NB; f++)
        for (unsigned idx = 0; idx < 128; idx++) {
            Bitboard occ = (Bitboard)idx << 1 | SquareBB[0] | SquareBB[8];
            RankAttacks[f][idx].rook = (uint16_t)(slow_rook_attacks(f, occ) & RankBB[0]);
            RankAttacks[f][idx].cannon = (uint16_t)(slow_cannon_attacks(f, occ) & RankBB[0]);
        }

    /* File attacks by subset of the file mask, edges occupied likewise. */
    for (int s = 0; s < SQUARE_NB; s++) {
        Bitboard edges = FileBB[sq_file(s)] & (RankBB[0] | RankBB[9]);
        Bitboard sub = 0;
        do {
            Bitboard occ = sub | edges;
            FileAttack *e = &FileAttacks[s][file_index(s, sub)];
            e->rook = slow_rook_attacks(s, occ) & FileBB[sq_file(s)];
            e->cannon = slow_cannon_attacks(s, occ) & FileBB[sq_file(s)];
            sub = (sub - FileMask[s]) & FileMask[s];
        } while (sub);
    }
}

void bb_init(void)
{
    init_masks();
    init_steppers();
    init_leapers();
    init_lines();
}
