/* Private to search/: the scores' scale, what the threads of one search
 * share, and one thread's state.  The layers above see search.h. */
#ifndef CHUHAN_SEARCH_PRIVATE_H
#define CHUHAN_SEARCH_PRIVATE_H

#include <pthread.h>
#include <stdatomic.h>

#include "corr.h"
#include "search.h"
#include "threads.h"
#include "timeman.h"
#include "tt.h"

/* ---- scores ---- */
#define VALUE_DRAW 0
#define VALUE_MATE 32000
#define VALUE_INFINITE 32001
#define VALUE_NONE 32002
#define VALUE_MATE_IN_MAX_PLY (VALUE_MATE - MAX_PLY)
/* A side that breaks a repetition rule loses by a score just short of mate. */
#define VALUE_RULE_WIN 30000
#define VALUE_RULE_IN_MAX_PLY (VALUE_RULE_WIN - MAX_PLY)

static inline int mate_in(int ply) { return VALUE_MATE - ply; }
static inline int mated_in(int ply) { return -VALUE_MATE + ply; }
static inline bool is_mate_score(int v) { return v >= VALUE_MATE_IN_MAX_PLY || v <= -VALUE_MATE_IN_MAX_PLY; }

/* Mate scores go into the table relative to the node, and come out
 * relative to the root again. */
static inline int value_to_tt(int v, int ply)
{
    if (v >= VALUE_MATE_IN_MAX_PLY)
        return v + ply;
    if (v <= -VALUE_MATE_IN_MAX_PLY)
        return v - ply;
    return v;
}

/* A mate from the table is kept only if it lands before the 60-move rule
 * draws the game (limit 0: no such rule); otherwise it is the best score
 * short of a decisive one (neither a mate nor a rule win, whose bands lie
 * above it). */
static inline int value_from_tt(int v, int ply, int rule60, int limit)
{
    if (v == VALUE_NONE)
        return VALUE_NONE;
    if (v >= VALUE_MATE_IN_MAX_PLY) {
        if (limit && VALUE_MATE - v > limit - rule60)
            return VALUE_RULE_IN_MAX_PLY - 1; /* a win, but maybe not in time: the best ordinary score */
        return v - ply;
    }
    if (v <= -VALUE_MATE_IN_MAX_PLY) {
        if (limit && VALUE_MATE + v > limit - rule60)
            return -VALUE_RULE_IN_MAX_PLY + 1;
        return v + ply;
    }
    return v;
}

/* The bound that still holds for a value read by value_from_tt.  A mate cut
 * down to the best ordinary score (not in time for the 60-move rule) may
 * be a draw instead: a win so cut bounds the truth from above only, a loss
 * from below only; any other value keeps its bound.  Read as exact, such a
 * value would pass the guards of reverse futility and the null move. */
static inline int bound_from_tt(int stored, int read, int bound)
{
    if (stored >= VALUE_MATE_IN_MAX_PLY && read < VALUE_MATE_IN_MAX_PLY)
        return bound & TT_BOUND_UPPER;
    if (stored != VALUE_NONE && stored <= -VALUE_MATE_IN_MAX_PLY && read > -VALUE_MATE_IN_MAX_PLY)
        return bound & TT_BOUND_LOWER;
    return bound;
}

/* The depth of a move's reduced search: at least one ply, so that a late
 * move is not left to quiescence, but never deeper than the unreduced
 * search (an extension of -1 can leave that at 0 plies). */
static inline int reduced_depth(int new_depth, int r)
{
    int d = new_depth - r < 1 ? 1 : new_depth - r;
    return d < new_depth ? d : new_depth;
}

typedef struct {
    Move move;
    int score, previous_score, average_score;
    int seldepth;
    int pv_len;
    uint64_t effort; /* nodes this thread spent under the move, all depths */
    Move pv[MAX_PLY];
} RootMove;

/* What every thread of one search shares: the table, the limits, the stop
 * flag, the output callbacks. */
typedef struct SearchShared {
    TT *tt;
    SearchLimits limits;
    TimeMan tm;
    int multipv;
    int rule;              /* repetition rule set (engine/rules/rules.h) */
    int sixty_move_plies;  /* 0: no 60-move rule */
    const NnueNet *net;    /* NULL: the hand-written evaluation */
    atomic_bool stop;      /* every thread stops at its next node */
    atomic_bool stop_asked; /* pool_stop: an infinite search may report */
    atomic_bool pondering; /* the main thread may not stop on time */
    atomic_bool stop_on_ponderhit; /* time ran out while pondering */
    void (*on_info)(void *ctx, const SearchInfo *info);
    void *ctx;
    struct SearchThread **threads;
    int thread_count;
} SearchShared;

/* Continuation history: how good a quiet move (piece, to) has been after a
 * given earlier move, indexed [piece][to] of that earlier move. */
typedef int16_t ContHist[PIECE_NB][SQUARE_NB];

typedef struct {
    Move *pv;
    int ply;
    Move current_move;
    int moved_piece;
    ContHist *cont_hist; /* the table for the move made at this ply */
    Move excluded;       /* singular-extension search: the move left out */
    int static_eval;
    int double_extensions; /* on the path to this ply */
    Move killers[2];
} Stack;

typedef int16_t History[COLOR_NB][SQUARE_NB * SQUARE_NB];

typedef struct SearchThread {
    int id;
    SearchShared *shared;
    Position pos;
    int root_top; /* pos.top at the root */
    RootMove root_moves[MAX_MOVES];
    int root_count;
    int pv_index;
    int root_depth, completed_depth, seldepth;
    int nmp_min_ply; /* no null move above this ply (verification) */
    atomic_uint_fast64_t nodes; /* written by this thread only */
    uint64_t calls;
    History history;
    Move counter_moves[PIECE_NB][SQUARE_NB];
    int16_t capture_history[PIECE_NB][SQUARE_NB][PIECE_TYPE_NB];
    ContHist cont_history[PIECE_NB][SQUARE_NB]; /* [0][0]: after a null move or at the root */
    CorrHist corr; /* how far the evaluation missed, by pawns and pieces */
    Stack stack[MAX_PLY + 10];
    Move pv_table[MAX_PLY + 2][MAX_PLY + 2];
    NnueStack nnue; /* follows pos from the root when the net evaluates */
} SearchThread;

static inline int min_int(int a, int b) { return a < b ? a : b; }
static inline int max_int(int a, int b) { return a > b ? a : b; }

/* Stop the search now, or at the ponder hit while pondering (the move may
 * not be sent before it, whatever ended the search: time, a node limit,
 * a mate found).  A ponder hit (pool_ponderhit) clears pondering
 * and then reads stop_on_ponderhit; here the order is the reverse, so with
 * sequentially consistent atomics at least one side sees the other's
 * write: a hit between this thread's two reads of pondering stops it here. */
static inline void search_stop_when_allowed(SearchShared *sh)
{
    if (atomic_load(&sh->pondering)) {
        atomic_store(&sh->stop_on_ponderhit, true);
        if (atomic_load(&sh->pondering))
            return;
    }
    atomic_store(&sh->stop, true);
}

/* The search was told to stop (time, nodes, "stop"): unwind. */
static inline bool search_stopped(const SearchThread *th)
{
    return atomic_load_explicit(&th->shared->stop, memory_order_relaxed);
}

/* Search the root of th->pos to depth in the window (alpha, beta) with
 * search() (search.c), the root's stack and line set up by search_iterate. */
int search_root(SearchThread *th, int alpha, int beta, int depth);

/* Clear the histories (new game). */
void search_clear(SearchThread *th);
/* The same, each table zeroed by zero(p, bytes): the one list of what a new
 * game clears, for a caller that zeroes memory its own way (the fuzz
 * harness gives whole pages back). */
void search_clear_with(SearchThread *th, void (*zero)(void *p, size_t bytes));
/* Run the iterative deepening of one thread over th->pos; fills
 * th->root_moves.  Thread 0 also manages time (iterate.c). */
void search_iterate(SearchThread *th);
/* Total nodes of all threads of a search. */
uint64_t search_nodes(const SearchShared *sh);
/* The thread whose best move the pool plays (a vote across threads). */
SearchThread *search_best_thread(SearchShared *sh);
/* The legal root moves (filtered by searchmoves), into th->root_moves (root.c). */
void search_init_root(SearchThread *th);
/* Stable sort of root moves [from, to) by score, best first. */
void search_sort_root_moves(RootMove *rm, int from, int to);
/* The lines of the first multipv root moves to the search's on_info, at
 * depth (a move not yet searched at it: its line of the depth before); the
 * first line's bound is bound_of_first. */
void search_report(SearchThread *th, int multipv, int depth, int bound_of_first);

/* Thread i of a pool (threads.c), for the tests that look inside. */
SearchThread *pool_thread(ThreadPool *pool, int i);

#endif
