/* Training data for the net by self-play: games at a fixed node count per
 * move, one game per thread, openings from the built-in book plus a few
 * random plies, refereed by the rules (match_referee.h), each kept
 * position written with its search score and the game's result
 * (nnue_data.h).  It appends to its file and resumes: the target is
 * the file's total. */
#ifndef CHUHAN_BENCH_DATAGEN_H
#define CHUHAN_BENCH_DATAGEN_H

#include <stdbool.h>

#include "engine/engine.h"

/* The hard node cap of a search, in soft limits (--nodes). */
#define DATAGEN_NODES_CAP 8

/* chuhan datagen [options]: the arguments after "datagen"; the exit
 * status.  With --pgn the records come from recorded games instead
 * (datagen_pgn.h). */
int datagen_cli(int argc, char **argv);
/* why (if any), then the usage, on stderr (rank 0 only); status 2. */
int datagen_usage(const char *why);

/* What a data worker keeps of its engine's last search: the score of the
 * last whole iteration and the move played.  The callbacks report into s. */
typedef struct {
    int score;
    Move best;
} DatagenSearch;
EngineCallbacks datagen_callbacks(DatagenSearch *s);
/* While caught (on), Ctrl-C and kill end a run cleanly: the games in hand
 * are finished and written, then the run stops (datagen_interrupted turns
 * true); off gives the signals their default action back. */
void datagen_catch_signals(bool on);
bool datagen_interrupted(void);

#endif
