/* What the search tests share: an engine whose callbacks capture the
 * last line and the move (test_search.c, test_skill.c), and the
 * repetition cases of tests/data/cases.txt. */
#ifndef CHUHAN_TESTS_SEARCH_UTIL_H
#define CHUHAN_TESTS_SEARCH_UTIL_H

#include <pthread.h>

#include "engine/engine.h"

typedef struct {
    pthread_mutex_t lock;
    EngineInfo last; /* the last line of multipv 1 */
    bool have_info;
    Move best, ponder;
    int bestmoves;
} Capture;

extern Capture cap;

/* An engine reporting to cap, its book off. */
Engine *new_engine(void);

typedef struct {
    char id[32], fen[128];
    char moves[64][6];
    int nmoves;
    int violator; /* RED, BLACK, or -1 (draw) */
    bool soft;
} RepCase;

/* The cases of cases.txt (at most max): their count. */
int load_cases(RepCase *out, int max);
/* Search the case's start position with the first k moves played (only:
 * that move alone, MOVE_NONE: all). */
void search_case(Engine *e, const RepCase *c, int k, int depth, Move only);
/* Who plays move i of a case: the FEN's side, then alternately. */
int mover(const RepCase *c, int i);

#endif
