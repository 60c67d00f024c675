/* The vote that picks the move to play among several searches of one
 * position (the threads of a pool, the ranks of a cluster): each search
 * backs its best move by its completed depth and its score. */
#ifndef CHUHAN_SEARCH_VOTE_H
#define CHUHAN_SEARCH_VOTE_H

#include "engine/board/types.h"

typedef struct {
    Move move; /* MOVE_NONE: this search has no move and does not vote */
    int score; /* of the move, side to move's view (score.h) */
    int depth; /* completed; 0: none, no vote */
} Ballot;

/* The index of the winning ballot among n (n >= 1): the move with the
 * most votes, a vote weighing the score above the lowest one times the
 * depth; a shorter proven mate always wins.  Ballot 0 wins when none
 * votes. */
int search_vote(const Ballot *b, int n);

#endif
