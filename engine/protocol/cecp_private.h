/* Private to the CECP front-end: its state, shared by the command parser
 * (cecp.c, which also runs the threads) and the game controller
 * (cecp_game.c, which owns the game, the clock and the searches). */
#ifndef CHUHAN_CECP_PRIVATE_H
#define CHUHAN_CECP_PRIVATE_H

#include <stdatomic.h>

#include "protocol.h"

typedef enum { S_NONE, S_THINK, S_PONDER, S_ANALYZE } SearchKind;

/* XBoard's clock as the GUI sets it. */
typedef struct {
    int mps;                /* moves per time control (level), 0: the whole game */
    int sd;                 /* depth limit, 0: none */
    int64_t base_ms, inc_ms; /* level */
    int64_t st_ms;          /* fixed time per move (st), 0: none */
    int64_t time_ms, otim_ms; /* the clocks as time and otim last said */
} CecpClock;

typedef struct {
    Engine *engine;
    Output *out;

    /* Hand-over of input lines (reader -> game thread) and of search
     * results (search thread -> game thread), under lock. */
    pthread_mutex_t lock;
    pthread_cond_t wake;  /* the game thread: a line, a result or the end */
    pthread_cond_t space; /* the reader: the inbox is free */
    char *rbuf, *inbox, *work; /* three line buffers of LINE_MAX_BYTES */
    bool inbox_full, inbox_too_long, eof, done;
    bool result_ready;
    Move result_best, result_ponder;
    int info_depth; /* the last thinking line, for '.' */
    int64_t info_time;
    uint64_t info_nodes;

    /* Read by the search thread's callbacks. */
    atomic_int kind; /* SearchKind of the running search */
    atomic_bool post, debug;

    /* Game state: the game thread only. */
    bool force, game_over, bad_position, analyzing, ponder_on;
    int engine_side;
    char ponder_text[8]; /* the move pondered on, pushed on the game */
    int64_t think_start;
    CecpClock clock;
    Position *scratch; /* a copy of the game for the rules */
    char (*pongs)[24]; /* pings answered once the engine's move is out, */
    size_t npongs, cap_pongs; /* as many as come: none dropped, none forcing the move */
    char *tok[MAX_TOKENS]; /* the words of the line being served */
    char echo[80];         /* the command line, for error messages */
} Cecp;

/* "Error (type): <the command>" (cecp.c). */
void cecp_error(Cecp *x, const char *type);

/* ---- the game controller (cecp_game.c) ---- */

/* The engine, reporting to the controller; false with the reason. */
bool game_open(Cecp *x, char *err, size_t errlen);
/* Stop any search and free the engine. */
void game_close(Cecp *x);
/* The search's move has come (the game thread): played, announced, judged. */
void game_result(Cecp *x);
/* Answer the pings held back, unless the engine thinks on its move. */
void game_flush_pongs(Cecp *x);

void game_new(Cecp *x);
void game_setboard(Cecp *x, const char *fen);
void game_usermove(Cecp *x, const char *text);
void game_undo(Cecp *x, int plies);
void game_force(Cecp *x);
void game_go(Cecp *x);
void game_playother(Cecp *x);
void game_move_now(Cecp *x); /* ? */
void game_ping(Cecp *x, const char *id);
void game_over(Cecp *x); /* result */
void game_ponder(Cecp *x, bool on); /* hard, easy */
void game_analyze(Cecp *x);
void game_exit(Cecp *x);
void game_stat(Cecp *x); /* . */
/* An engine option, set between searches (the engine moves now if it
 * thinks on its move; analysis goes on after it). */
void game_set_option(Cecp *x, const char *name, const char *value);

#endif
