#include "init.h"

#include <pthread.h>

#include "engine/board/bitboard.h"
#include "engine/board/position.h"
#include "engine/util/error.h"
#include "eval/eval.h"
#include "eval/weights.h"
#include "search/search.h"

/* Written once under pthread_once, read-only afterwards. */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool init_ok;
static char init_err[256];

static void init_all(void)
{
    bb_init();
    zobrist_init();
    init_ok = weights_init(init_err, sizeof init_err);
    eval_init();
    search_init();
}

bool chuhan_init(char *err, size_t errlen)
{
    pthread_once(&once, init_all);
    return init_ok || err_set(err, errlen, "%s", init_err);
}

/* CHUHAN_BUILD and CHUHAN_BUILD_INFO come from the Makefile. */
#ifndef CHUHAN_BUILD
#define CHUHAN_BUILD CHUHAN_VERSION
#endif
#ifndef CHUHAN_BUILD_INFO
#define CHUHAN_BUILD_INFO "unknown build"
#endif

const char *chuhan_version(void) { return CHUHAN_BUILD; }

const char *chuhan_build_info(void) { return CHUHAN_BUILD_INFO; }
