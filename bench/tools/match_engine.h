/* An engine process for the match runner, spoken to by UCI (ranks 0-9, the
 * Pikafish dialect) or UCCI (the xqbase specification): started by
 * /bin/sh -c CMD as a child process (engine/util/proc.h: its own process
 * group, pipes, every read and write bounded in length and time), so an
 * engine that does not answer in time, exits, or stops reading is
 * reported, never waited on for ever.  One MatchEngine belongs to one
 * thread. */
#ifndef CHUHAN_MATCH_ENGINE_H
#define CHUHAN_MATCH_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/util/proc.h"

#define ME_MAX_OPTIONS 32

typedef enum { PROTO_UCI, PROTO_UCCI } MatchProto;

/* Limits of a move: a clock (tc=moves/seconds+increment), a fixed time, a
 * depth, a node count; any of them together. */
typedef struct {
    bool clock;
    int moves;          /* moves per period (0: the whole game) */
    int64_t base_ms, inc_ms;
    int64_t movetime_ms; /* 0: none */
    int depth;           /* 0: none */
    uint64_t nodes;      /* 0: none */
    int64_t margin_ms;   /* time a move may overrun the clock or movetime (default 200) */
    int64_t timeout_ms;  /* longest wait for a move without a clock, and for the handshake (default 60000) */
} MatchLimits;

typedef struct {
    char name[64];
    char cmd[1024];
    char dir[512]; /* working directory, "" for the runner's */
    MatchProto proto;
    int noptions;
    struct {
        char name[64], value[256];
    } options[ME_MAX_OPTIONS];
    MatchLimits limits;
} EngineSpec;

typedef enum {
    ME_OK,        /* a move (or nobestmove) came */
    ME_TIMEOUT,   /* no answer before the deadline */
    ME_DEAD,      /* the engine exited, closed its output or stopped reading */
} MeStatus;

/* What the engine said for one move. */
typedef struct {
    char move[16];  /* the bestmove token ("" for nobestmove or none given) */
    bool nobestmove;
    bool has_score;
    int score;      /* centipawns from the mover's side; mates as +-(100000 - plies or moves) */
    int mate;       /* moves to mate as the engine said (+ mates, - is mated), 0 if not a mate score */
    int depth;
    int64_t elapsed_ms;
} MeReply;

/* What one "go" says: the side to move and both clocks. */
typedef struct {
    int side;                  /* RED or BLACK (engine/board/types.h) */
    int64_t time_ms[2], inc_ms[2];
    int movestogo;             /* 0: not sent */
} MeClock;

typedef struct MatchEngine MatchEngine;

MatchEngine *me_new(const EngineSpec *spec);
/* Quit (or kill) the process and free. */
void me_free(MatchEngine *e);

/* Start the process and do the handshake: uci/uciok (ucci/ucciok), the
 * options, isready/readyok.  False with the reason (the process killed). */
bool me_start(MatchEngine *e, char *err, size_t errlen);
/* Only the process, started as me_start starts it (in the spec's dir, by
 * /bin/sh -c), for a caller that speaks to it itself: false with the
 * reason. */
bool me_spawn(const EngineSpec *spec, Proc *proc, char *err, size_t errlen);
bool me_running(const MatchEngine *e);
/* A new game: ucinewgame (UCI), then isready/readyok.  False if the engine
 * does not answer (it is then killed). */
bool me_new_game(MatchEngine *e, char *err, size_t errlen);
/* Search the position fen (NULL: the start position) after the moves (UCI
 * text, space-separated, may be empty) under the limits of the engine's
 * spec (clock: both clocks, for a clock limit).  Waits for bestmove until
 * the clock (or movetime) runs out plus the margin, or the timeout; on
 * ME_TIMEOUT the engine is told to stop and, if it does not answer within
 * a second, killed. */
MeStatus me_go(MatchEngine *e, const char *fen, const char *moves, const MeClock *clock, MeReply *out);
/* quit, then kill if it does not exit within a second. */
void me_quit(MatchEngine *e);
void me_kill(MatchEngine *e);
/* How the process ended, for messages: "exit status 1", "killed by signal 9"
 * or "running". */
const char *me_exit_text(const MatchEngine *e);

/* One option line of a handshake: "option name N type T ..." (UCI) or
 * "option N type T ..." (UCCI), with a spin's "min" and "max" if given.
 * False for a line that is not one (no "option", no name, a name too
 * long). */
typedef struct {
    char name[64], type[8];
    long min, max;
    bool has_min, has_max;
} MeOption;
bool me_parse_option(const char *line, MeOption *out);

/* Parse a "tc=40/60+0.6" value (moves/seconds+increment; "60+0.6", "60",
 * "40/60") into l.  False if malformed. */
bool me_parse_tc(const char *text, MatchLimits *l);
/* The limits as PGN TimeControl text: "40/60+0.6", "movetime=50", ... */
void me_limits_text(const MatchLimits *l, char *out, size_t len);

#endif
