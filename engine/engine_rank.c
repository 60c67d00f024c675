/* The Engine of a rank other than 0 of an MPI job: what the cluster, a
 * layer below the engine API, may do with it (ClusterEngine,
 * engine/cluster/cluster.h), passed in to cluster_serve. */
#include "engine.h"

#include "engine/cluster/cluster.h"
#include "engine_private.h"

static Engine *make(const ClusterCallbacks *cb, char *err, size_t errlen)
{
    EngineCallbacks ecb = {cb->info, cb->bestmove, cb->message, cb->ctx};
    return engine_new(&ecb, err, errlen);
}

static bool set_position(Engine *e, const char *fen, char *err, size_t errlen)
{
    return engine_set_position(e, fen, NULL, 0, false, err, errlen);
}

static const ClusterEngine RANK_ENGINE = {
    .make = make,
    .free = engine_free,
    .set_option = engine_set_option,
    .set_position = set_position,
    .push_move = engine_push_move,
    .new_game = engine_new_game,
    .go = engine_go,
    .stop = engine_stop,
    .wait = engine_wait,
    .table = engine_table,
    .threads = engine_threads,
};

int engine_serve_rank(void) { return cluster_serve(&RANK_ENGINE); }
