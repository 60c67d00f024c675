/* Private to engine/: what the cluster reaches inside an Engine that
 * serves another rank (engine_rank.c hands it over). */
#ifndef CHUHAN_ENGINE_PRIVATE_H
#define CHUHAN_ENGINE_PRIVATE_H

#include "engine.h"
#include "search/threads.h"

TT *engine_table(Engine *e);
ThreadPool *engine_threads(Engine *e);

#endif
