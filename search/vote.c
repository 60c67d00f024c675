#include "vote.h"

#include <stdint.h>

#include "search_private.h"

int search_vote(const Ballot *b, int n)
{
    int min_score = VALUE_INFINITE;
    for (int i = 0; i < n; i++)
        if (b[i].move && b[i].depth && b[i].score < min_score)
            min_score = b[i].score;
    int64_t votes[MAX_MOVES] = {0};
    Move moves[MAX_MOVES];
    int nmoves = 0;
    for (int i = 0; i < n; i++) {
        if (!b[i].move || !b[i].depth)
            continue;
        int k = 0;
        while (k < nmoves && moves[k] != b[i].move)
            k++;
        if (k == nmoves)
            moves[nmoves++] = b[i].move;
        votes[k] += (int64_t)(b[i].score - min_score + 14) * b[i].depth;
    }
    int best = 0;
    int64_t best_votes = -1;
    for (int i = 0; i < n; i++) {
        if (!b[i].move || !b[i].depth)
            continue;
        int score = b[i].score, best_score = b[best].score;
        int k = 0;
        while (moves[k] != b[i].move)
            k++;
        /* A shorter proven mate always wins the vote. */
        if (best_score >= VALUE_MATE_IN_MAX_PLY || score >= VALUE_MATE_IN_MAX_PLY) {
            if (score > best_score) {
                best = i;
                best_votes = votes[k];
            }
        } else if (votes[k] > best_votes) {
            best = i;
            best_votes = votes[k];
        }
    }
    return best;
}
