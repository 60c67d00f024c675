#include "matebench.h"

/* The suite: "FEN ; PLIES ; NAME", PLIES > 0 when the side to move mates,
 * < 0 when it is mated.  The issue examples are the positions after the
 * move Chuhan played; "game N-k" is a master game (CCPD, CC BY 4.0) k
 * plies before its final mate, with the mate length a long search found
 * (bench/RESULTS.md says how the suite was made). */
const char *const MateSuite[] = {
    "1rb1kar2/4a4/n3b3c/3R4p/4C1p2/5R3/PnP1P1P1P/N2AB1N2/9/2BA1K3 w - - 1 2 ; 3 ; example 1 after g7g9",
};
const int MateSuiteCount = (int)(sizeof MateSuite / sizeof MateSuite[0]);
