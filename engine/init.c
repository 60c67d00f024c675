#include "init.h"

#include <pthread.h>

#include "engine/board/bitboard.h"
#include "engine/board/position.h"
#include "eval/eval.h"
#include "search/search.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init_all(void)
{
    bb_init();
    zobrist_init();
    eval_init();
    search_init();
}

void chuhan_init(void) { pthread_once(&once, init_all); }
