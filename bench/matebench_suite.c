#include "matebench.h"

/* The suite: "FEN ; PLIES ; NAME", PLIES > 0 when the side to move mates,
 * < 0 when it is mated.  The six examples of mates Chuhan walked into in
 * games against other engines, after the move it played (the mating side
 * to move), and four of them one move later (the mated side to move); and
 * positions of master games (CCPD, CC BY 4.0) a few plies before their
 * final mate, kept where a long search proved a mate.  PLIES is the
 * shortest mate those searches found (bench/RESULTS.md says how). */
const char *const MateSuite[] = {
    "1rb1kar2/4a4/n3b3c/3R4p/4C1p2/5R3/PnP1P1P1P/N2AB1N2/9/2BA1K3 w - - 1 2 ; 3 ; example 1 after g7g9",
    "2bakab2/4n4/4c4/p2R5/4C3p/9/P3P3r/c1N1B3N/4A4/4KAB2 w - - 1 2 ; 3 ; example 2 after i6i5",
    "2b1kab2/3ra4/2n6/p1R5p/1Rp6/6P2/P1r1c3P/B3C4/4N4/3AKAB2 b - - 0 1 ; 7 ; example 3 after b0b5",
    "2b1kaR2/3raP3/2n1b4/p7p/P1p2n3/4p3P/4c4/2C1C4/3rN4/1R1AKAB2 b - - 1 1 ; 9 ; example 4 after b2b0",
    "r1bak1b2/4a4/3Rc4/p3C1p1p/1n4c2/2B5P/P3P1P2/5R3/4A3r/1N1AK1B2 w - - 0 2 ; 7 ; example 5 after g1i1",
    "2bak1b2/4ar3/2n1c4/p3p1p1p/2P6/9/P3crP1P/2NNB1C2/4A4/1RBAK2R1 b - - 0 1 ; 7 ; example 6 after c4c5",
    "3a1a3/2R3P2/3ck4/p7p/6n2/6B2/P2rN3P/1C7/4A4/4KAB2 w - - 32 55 ; 3 ; master game, ply 108",
    "2ba2R2/4ak3/n8/p5N1p/2p6/6P2/P3P3P/9/5r3/1cBAKAB2 b - - 0 21 ; -6 ; master game, ply 41",
    "4R1b2/C4k3/1N1ab4/p3p3p/9/7r1/P3P1ccP/6N2/5p3/2BAKABR1 b - - 2 31 ; -14 ; master game, ply 61",
    "4kab2/4a4/9/C3p4/2b5P/6N2/3n5/3AB4/c3K4/3n1AB2 b - - 5 41 ; 11 ; master game, ply 81",
    "r3kab2/9/3Cb4/CR1N4p/9/9/P6rc/4B4/4A1n2/2BA1K3 w - - 0 32 ; 7 ; master game, ply 62",
    "3k5/4a4/2r6/9/9/9/9/3AR4/4p4/3K5 w - - 11 81 ; -6 ; master game, ply 160",
    "4kab2/4a4/4c4/4N3p/1R7/5r3/8P/4p4/9/4K4 b - - 12 56 ; 3 ; master game, ply 111",
    "1r3ab2/3k3R1/1c1Nba3/C7p/2pPp4/P5B2/2P5P/N4C1n1/4A1r2/4KA1Rc b - - 15 29 ; -10 ; master game, ply 57",
    "2b1ka3/4a4/1c2b4/p3p4/1C2P4/5R3/P2r4P/R1N6/4A4/2BA1K1rc w - - 1 26 ; -10 ; master game, ply 50",
    "2b2a1R1/4k4/n2ab4/1rN3p1p/p3N4/2P3P2/P3P3P/3CC4/4A4/2BAK1B2 w - - 1 20 ; 3 ; master game, ply 38",
    "3k1a3/9/5a3/6C2/2cN3P1/1pB6/2n1C4/9/4A4/4KAB1c w - - 4 46 ; 11 ; master game, ply 90",
    "C1baka3/3nc1r2/4R4/p7p/2p6/5R3/P1c5P/4B4/4A4/2BA1K3 w - - 6 27 ; 1 ; master game, ply 52",
    "4k4/9/2N1b2Rn/p2r2p1p/4c4/6P2/P7P/B3C4/4A4/1r1AK1B2 w - - 0 30 ; 3 ; master game, ply 58",
    "2ba3R1/8C/4ka1R1/p4P2n/9/9/Pc2c3P/B3r4/3rA4/3NKA3 w - - 10 39 ; 3 ; master game, ply 76",
    "4kaR2/9/3a1r3/p8/9/3Nc1pp1/8P/4B4/4ANn2/2BAK4 b - - 6 41 ; 5 ; master game, ply 81",
    "3rkab2/2R1aR3/6N2/p7p/4p1P2/4cn3/P3r3P/5A3/9/3A1KB2 b - - 5 35 ; 5 ; master game, ply 69",
    "3R5/9/4ka3/3N5/2b2C2p/6B2/6rnc/8B/4A4/4KA3 w - - 3 58 ; 5 ; master game, ply 114",
    "3k2b2/9/4b4/p8/6P2/9/1n7/3ABp3/4p4/3K5 b - - 3 62 ; 3 ; master game, ply 123",
    "2b2R3/1R7/b3k4/p5p1p/9/9/P7P/9/2C1A4/2B1K1Br1 w - - 5 47 ; 7 ; master game, ply 92",
    "r2a1ab2/8r/1cR1bkn2/pC4p1p/4C4/6P2/P1p1Pc2P/R5N2/9/2BAKAB2 w - - 4 15 ; 5 ; master game, ply 28",
    "2R3b2/C2kacN2/9/p1p1p1p1p/9/6P2/5C2P/2N1B4/4A4/2BAK4 w - - 1 32 ; 7 ; master game, ply 62",
    "3k1aN1C/4a4/1n2N4/4n4/3c5/9/1c3p3/7CB/4A4/2BK1A3 w - - 1 52 ; 9 ; master game, ply 102",
    "1rb1kar2/4a4/n3b3c/3R4p/4C1p2/3R5/PnP1P1P1P/N2AB1N2/9/2BA1K3 b - - 2 2 ; -2 ; example 1 after g7g9 f4d4",
    "2bakab2/4n4/4c4/p2R5/4C3p/9/P3P3r/c1N1B3N/4A4/3K1AB2 b - - 2 2 ; -2 ; example 2 after i6i5 e0d0",
    "2b1kab2/3ra4/2n6/p1R5p/1Rp6/6P2/P3c3P/B3C4/4N4/2rAKAB2 w - - 1 2 ; -6 ; example 3 after b0b5 c3c0",
    "2ba1kb2/4ar3/2n1c4/p3p1p1p/2P6/9/P3crP1P/2NNB1C2/4A4/1RBAK2R1 w - - 1 2 ; -6 ; example 6 after c4c5 e9f9",
};
const int MateSuiteCount = (int)(sizeof MateSuite / sizeof MateSuite[0]);
