/* The root moves of one thread's search: the legal moves (those of
 * searchmoves), kept in order of their scores, their lines reported, and
 * the thread whose best move the pool plays.  The iterative deepening that
 * scores them is in iterate.c. */
#include "search_private.h"

#include <string.h>

#include "engine/board/movegen.h"
#include "vote.h"

void search_init_root(SearchThread *th)
{
    const SearchLimits *lim = &th->shared->limits;
    Move moves[MAX_MOVES];
    int n = gen_legal(&th->pos, moves);
    th->root_count = 0;
    for (int i = 0; i < n; i++) {
        bool wanted = lim->nsearchmoves == 0;
        for (int k = 0; k < lim->nsearchmoves && !wanted; k++)
            wanted = lim->searchmoves[k] == moves[i];
        if (!wanted)
            continue;
        RootMove *rm = &th->root_moves[th->root_count++];
        memset(rm, 0, sizeof *rm);
        rm->move = moves[i];
        rm->score = rm->previous_score = rm->average_score = -VALUE_INFINITE;
        rm->pv[0] = moves[i];
        rm->pv_len = 1;
    }
}

/* Stable sort of root moves [from, to) by score, best first. */
void search_sort_root_moves(RootMove *rm, int from, int to)
{
    for (int i = from + 1; i < to; i++) {
        RootMove tmp = rm[i];
        int j = i;
        for (; j > from && (rm[j - 1].score < tmp.score
                            || (rm[j - 1].score == tmp.score && rm[j - 1].previous_score < tmp.previous_score));
             j--)
            rm[j] = rm[j - 1];
        rm[j] = tmp;
    }
}

void search_report(SearchThread *th, int multipv, int depth, int bound_of_first)
{
    SearchShared *sh = th->shared;
    if (!sh->on_info)
        return;
    SearchInfo info;
    uint64_t nodes = search_nodes(sh);
    int64_t elapsed = tm_elapsed(&sh->tm, now_ms());
    int hashfull = tt_hashfull(sh->tt);
    for (int i = 0; i < multipv; i++) {
        const RootMove *rm = &th->root_moves[i];
        bool updated = rm->score != -VALUE_INFINITE;
        if (!updated && depth == 1)
            continue;
        info.depth = updated ? depth : max_int(1, depth - 1);
        info.seldepth = max_int(rm->seldepth, info.depth);
        info.multipv = i + 1;
        info.score = updated ? rm->score : rm->previous_score;
        info.bound = i == 0 ? bound_of_first : TT_BOUND_EXACT;
        info.nodes = nodes;
        info.time_ms = elapsed;
        info.hashfull = hashfull;
        info.pv_len = rm->pv_len;
        memcpy(info.pv, rm->pv, sizeof(Move) * (size_t)rm->pv_len);
        sh->on_info(sh->ctx, &info);
    }
}

SearchThread *search_best_thread(SearchShared *sh)
{
    if (sh->thread_count == 1 || sh->multipv > 1 || sh->limits.depth)
        return sh->threads[0];
    Ballot ballots[MAX_THREADS];
    for (int i = 0; i < sh->thread_count; i++) {
        const SearchThread *th = sh->threads[i];
        bool voting = th->root_count && th->completed_depth;
        ballots[i] = (Ballot){voting ? th->root_moves[0].move : MOVE_NONE, th->root_moves[0].score,
                              th->completed_depth};
    }
    return sh->threads[search_vote(ballots, sh->thread_count)];
}
