/* Iterative deepening: one thread's searches of the root at depth 1, 2, 3 ...,
 * each in an aspiration window around the score before, with the main
 * thread deciding when to stop (time, mate found, a forced move).  The
 * search of one node is in search.c; the root moves' order and lines in
 * root.c. */
#include "search_private.h"

#include <stdlib.h>
#include <string.h>

#include "tunable_list.h"

void search_iterate(SearchThread *th)
{
    static const int skip_size[20] = {1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4};
    static const int skip_phase[20] = {0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7};
    SearchShared *sh = th->shared;
    bool main_thread = th->id == 0;

    memset(th->stack, 0, sizeof th->stack);
    for (int i = 0; i < MAX_PLY + 10; i++) {
        th->stack[i].ply = i - 4;
        th->stack[i].static_eval = VALUE_NONE;
        th->stack[i].cont_hist = &th->cont_history[NO_PIECE][0];
        if (i >= 4 && i - 4 < MAX_PLY + 2)
            th->stack[i].pv = th->pv_table[i - 4];
    }
    th->nmp_min_ply = 0;
    th->root_top = th->pos.top;
    if (sh->net)
        nnue_reset(&th->nnue, sh->net, &th->pos);
    th->completed_depth = 0;
    th->seldepth = 0;
    if (th->root_count == 0) {
        /* No legal move: the side to move has lost (mate or stalemate). */
        if (main_thread && sh->on_info) {
            SearchInfo info;
            memset(&info, 0, sizeof info);
            info.score = mated_in(0);
            info.bound = TT_BOUND_EXACT;
            info.time_ms = tm_elapsed(&sh->tm, now_ms());
            sh->on_info(sh->ctx, &info);
        }
        return;
    }

    int multipv = min_int(sh->multipv, th->root_count);
    int max_depth = sh->limits.depth > 0 ? min_int(sh->limits.depth, MAX_PLY - 4) : MAX_PLY - 4;
    int best_value = -VALUE_INFINITE;
    double best_move_instability = 0;
    Move last_best = MOVE_NONE;
    int depth_score[MAX_PLY]; /* the main thread's best score of each completed depth */

    for (th->root_depth = 1; th->root_depth <= max_depth && !search_stopped(th); th->root_depth++) {
        /* Lazy SMP: helpers skip some depths, so that threads spread over
         * several depths and fill the table for each other. */
        if (!main_thread) {
            int i = (th->id - 1) % 20;
            if (th->root_depth > 1 && ((th->root_depth + skip_phase[i]) / skip_size[i]) % 2)
                continue;
        }
        if (main_thread)
            best_move_instability *= 0.5;
        for (int i = 0; i < th->root_count; i++)
            th->root_moves[i].previous_score = th->root_moves[i].score;

        for (th->pv_index = 0; th->pv_index < multipv && !search_stopped(th); th->pv_index++) {
            th->seldepth = 0;
            int alpha = -VALUE_INFINITE, beta = VALUE_INFINITE, delta = ASPIRATION_DELTA;
            RootMove *cur = &th->root_moves[th->pv_index];
            if (th->root_depth >= ASPIRATION_MIN_DEPTH && cur->average_score != -VALUE_INFINITE) {
                int prev = cur->average_score;
                delta = ASPIRATION_DELTA + abs(prev) / 64;
                alpha = max_int(prev - delta, -VALUE_INFINITE);
                beta = min_int(prev + delta, VALUE_INFINITE);
            }
            int failed_high = 0;
            for (;;) {
                int d = max_int(1, th->root_depth - failed_high);
                th->pv_table[0][0] = MOVE_NONE;
                best_value = search_root(th, alpha, beta, d);
                search_sort_root_moves(th->root_moves, th->pv_index, th->root_count);
                if (search_stopped(th))
                    break;
                int bound = best_value <= alpha ? TT_BOUND_UPPER : best_value >= beta ? TT_BOUND_LOWER : TT_BOUND_EXACT;
                if (main_thread && bound != TT_BOUND_EXACT && multipv == 1
                    && tm_elapsed(&sh->tm, now_ms()) > 3000)
                    search_report(th, 1, th->root_depth, bound);
                if (best_value <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = max_int(best_value - delta, -VALUE_INFINITE);
                    failed_high = 0;
                } else if (best_value >= beta) {
                    beta = min_int(best_value + delta, VALUE_INFINITE);
                    failed_high++;
                } else {
                    break;
                }
                delta += delta / 3;
            }
            search_sort_root_moves(th->root_moves, 0, th->pv_index + 1);
        }
        if (search_stopped(th))
            break;
        th->completed_depth = th->root_depth;
        if (!main_thread)
            continue;

        search_report(th, multipv, th->root_depth, TT_BOUND_EXACT);

        /* Stop on a mate within the asked number of moves. */
        best_value = th->root_moves[0].score;
        if (sh->limits.mate && best_value >= VALUE_MATE_IN_MAX_PLY
            && VALUE_MATE - best_value <= 2 * sh->limits.mate)
            search_stop_when_allowed(sh);

        /* A proven mate, either way, searched well past its length: deeper
         * iterations will not change it. */
        if (sh->tm.use_time && is_mate_score(best_value)
            && th->root_depth >= 2 * (VALUE_MATE - abs(best_value)) + 10)
            search_stop_when_allowed(sh);

        /* A soft node limit: the move and its score come from one whole
         * iteration (training data wants both to agree). */
        if (sh->limits.soft_nodes && search_nodes(sh) >= sh->limits.soft_nodes)
            search_stop_when_allowed(sh);

        /* Time: stop early when the best move is stable, later when not. */
        if (th->root_moves[0].move != last_best)
            best_move_instability += 1.0;
        last_best = th->root_moves[0].move;
        depth_score[th->root_depth] = best_value;
        if (sh->tm.use_time && !sh->limits.movetime && !search_stopped(th)) {
            int drop = th->root_depth > 3 ? depth_score[th->root_depth - 3] - best_value : 0;
            uint64_t nodes = atomic_load_explicit(&th->nodes, memory_order_relaxed);
            double share = nodes ? (double)th->root_moves[0].effort / (double)nodes : 1.0;
            double factor = tm_stop_factor(best_move_instability, drop, share);
            int64_t elapsed = tm_elapsed(&sh->tm, now_ms());
            bool forced = th->root_count == 1;
            if (forced || elapsed > (int64_t)((double)sh->tm.optimum * factor))
                search_stop_when_allowed(sh);
        }
    }
}
