/* The engine API: one Engine owns the game, the options, the opening book,
 * the transposition table and the search threads.  The protocol front-ends
 * only parse text and call these; the engine reports back through the
 * callbacks, from a search thread.  Nothing of how the search works is
 * here: its limits and its lines of thinking (search/search.h), what its
 * scores mean (search/score.h), and what the table holds for a position. */
#ifndef CHUHAN_ENGINE_H
#define CHUHAN_ENGINE_H

#include "engine/board/position.h"
#include "engine/util/debuglog.h"
#include "search/score.h"
#include "search/search.h"

typedef struct Engine Engine;

typedef SearchLimits EngineLimits; /* what one go asks for; limits_clear() empties it */
typedef SearchInfo EngineInfo;     /* one line of thinking */

typedef struct {
    void (*info)(void *ctx, const EngineInfo *info);
    void (*bestmove)(void *ctx, Move best, Move ponder);
    void (*message)(void *ctx, const char *text); /* one line, e.g. a book move or a warning */
    void *ctx;
} EngineCallbacks;

typedef enum { OPT_SPIN, OPT_CHECK, OPT_COMBO, OPT_BUTTON, OPT_STRING } OptionType;

typedef struct {
    const char *name;
    OptionType type;
    const char *def; /* default as text */
    long min, max;   /* spin */
    const char *vars[8]; /* combo values, NULL-terminated */
} OptionInfo;

Engine *engine_new(const EngineCallbacks *cb, char *err, size_t errlen);
void engine_free(Engine *e);

/* Options, by their UCI names (case-insensitive). */
int engine_option_count(void);
const OptionInfo *engine_option(int i);
const OptionInfo *engine_find_option(const char *name);
/* The longest option value, its end included: a longer one is refused
 * (never cut short), by the engine and by every front-end. */
#define ENGINE_VALUE_MAX 1024

/* Set an option from text; false with a reason if the name or value is bad. */
bool engine_set_option(Engine *e, const char *name, const char *value, char *err, size_t errlen);
/* The current value of an option as text (into buf), NULL if unknown. */
const char *engine_get_option(Engine *e, const char *name, char *buf, size_t len);

/* The log of the protocol's lines that Debug Log File turns on: the
 * front-end writes every line it reads and writes to it (out_set_log). */
DebugLog *engine_debug_log(Engine *e);

/* The rules the engine plays by, as its options set them. */
typedef struct {
    int rule;             /* repetition rule set (engine/rules/rules.h) */
    int sixty_move_plies; /* 0: no 60-move rule */
} EngineRules;
EngineRules engine_rules(const Engine *e);

/* Set the game: a FEN (NULL for the start position) and moves from it, in
 * UCI text (ranks 1-10 when rank1).  On error the old game is kept. */
bool engine_set_position(Engine *e, const char *fen, const char *const *moves, int nmoves, bool rank1, char *err,
                         size_t errlen);
/* Play one more move in the game; false if illegal. */
bool engine_push_move(Engine *e, Move m);
/* Take back the last move of the game; false if there is none. */
bool engine_pop_move(Engine *e);
const Position *engine_position(const Engine *e);
/* Write moves in messages with ranks 1-10 (a UCI GUI in variant mode). */
void engine_set_rank1(Engine *e, bool rank1);

void engine_new_game(Engine *e);
/* Start thinking; returns at once.  The best move comes by callback. */
void engine_go(Engine *e, const EngineLimits *limits);
void engine_stop(Engine *e);
void engine_ponderhit(Engine *e);
/* Wait until the running search (if any) has reported its move. */
void engine_wait(Engine *e);
bool engine_searching(Engine *e);
/* A search is running and has not stopped: it may need stop or ponderhit to
 * end.  (A stopped search is only reporting its move: engine_wait ends it.) */
bool engine_thinking(Engine *e);

/* What the transposition table holds for a position (UCCI probe): the
 * move, if legal there, and the value as a bound of the given depth. */
typedef struct {
    Move move;  /* MOVE_NONE: none */
    int value;  /* a score (search/score.h) */
    int depth;
    Bound bound;
} EngineProbe;
/* pos NULL: the game's position.  Safe during a search. */
bool engine_probe(Engine *e, const Position *pos, EngineProbe *out);

/* The ranks of the MPI job that search with this engine (mpirun -np N
 * chuhan: N on rank 0; otherwise 1), and whether they do: on by default;
 * off, this rank searches alone (the comparisons of chuhan smp). */
int engine_ranks(const Engine *e);
void engine_use_ranks(Engine *e, bool on);
/* On a rank other than 0: serve rank 0's engine with an Engine of this
 * rank (engine/cluster/cluster.h, cluster_serve) until rank 0 ends the
 * job; the exit status. */
int engine_serve_rank(void);

/* Static evaluation of the current position, side to move's view. */
int engine_eval(Engine *e);

/* Search a position to a fixed depth with one thread and a cleared table,
 * silently; returns the nodes searched (the bench). */
uint64_t engine_bench_search(Engine *e, int depth, Move *best);

#endif
