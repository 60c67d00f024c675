/* Alpha-beta search.  The numbered steps of search() each say why they are
 * there; their tunables are in search/tunable_list.h.  search() and qsearch()
 * share their inline helpers and read best side by side, in one
 * translation unit; the iterative deepening that calls them at the root is
 * iterate.c, the root moves are kept by root.c. */
#include "search_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/board/movegen.h"
#include "engine/rules/rules.h"
#include "engine/util/coop.h"
#include "eval/eval.h"
#include "movepick.h"
#include "tunable_list.h"

static int Reductions[64][64];

void search_init(void)
{
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++)
            Reductions[d][m] = (int)(LMR_BASE + log(d) * log(m) / LMR_DIV);
}

static inline int reduction(int depth, int move_count)
{
    return Reductions[depth < 63 ? depth : 63][move_count < 63 ? move_count : 63];
}

/* ---- helpers ---- */

/* Moves made by the search also move the net's accumulators (when a net
 * evaluates), and the evaluation is the net's or the hand-written one. */
static inline void do_move(SearchThread *th, Move m)
{
    if (th->shared->net)
        nnue_push(&th->nnue, &th->pos, m);
    pos_do_move(&th->pos, m);
}
static inline void undo_move(SearchThread *th)
{
    if (th->shared->net)
        nnue_pop(&th->nnue);
    pos_undo_move(&th->pos);
}
static inline void do_null(SearchThread *th)
{
    if (th->shared->net)
        nnue_push_null(&th->nnue);
    pos_do_null(&th->pos);
}
static inline void undo_null(SearchThread *th)
{
    if (th->shared->net)
        nnue_pop(&th->nnue);
    pos_undo_null(&th->pos);
}
static inline int static_evaluation(SearchThread *th)
{
    return th->shared->net ? eval_scale_drawish(&th->pos, nnue_evaluate(&th->nnue, &th->pos)) : evaluate(&th->pos);
}

uint64_t search_nodes(const SearchShared *sh)
{
    uint64_t n = 0;
    for (int i = 0; i < sh->thread_count; i++)
        n += atomic_load_explicit(&sh->threads[i]->nodes, memory_order_relaxed);
    return n;
}

void search_clear_with(SearchThread *th, void (*zero)(void *p, size_t bytes))
{
    zero(&th->history, sizeof th->history);
    zero(th->counter_moves, sizeof th->counter_moves);
    zero(th->capture_history, sizeof th->capture_history);
    zero(th->cont_history, sizeof th->cont_history);
    zero(&th->corr, sizeof th->corr);
}

static void zero_bytes(void *p, size_t bytes) { memset(p, 0, bytes); }

void search_clear(SearchThread *th) { search_clear_with(th, zero_bytes); }

static inline void update_history(int16_t *h, int bonus)
{
    *h = (int16_t)(*h + bonus - *h * abs(bonus) / HISTORY_MAX);
}

static inline int history_bonus(int depth) { return min_int(16 * depth * depth + 32 * depth, HISTORY_BONUS_MAX); }

/* The continuation histories after the previous move and the one before. */
static inline void update_cont(ContHist *const cont[2], int pc, int to, int bonus)
{
    update_history(&(*cont[0])[pc][to], bonus);
    update_history(&(*cont[1])[pc][to], bonus);
}

static void update_pv(Move *pv, Move move, const Move *child)
{
    *pv++ = move;
    while (child && *child)
        *pv++ = *child++;
    *pv = MOVE_NONE;
}

static void check_time(SearchThread *th)
{
    coop_point(); /* where threads are fibers (engine/util/coop.h), the others' turn */
    SearchShared *sh = th->shared;
    if (sh->limits.nodes && search_nodes(sh) >= sh->limits.nodes)
        search_stop_when_allowed(sh);
    if (atomic_load_explicit(&sh->pondering, memory_order_relaxed))
        return;
    if (sh->tm.use_time && tm_elapsed(&sh->tm, now_ms()) >= sh->tm.maximum)
        atomic_store(&sh->stop, true);
}

/* Count a node; the main thread looks at the clock now and then.  Under a
 * node limit with several threads every thread adds up all the threads'
 * counts at every 64th node of its own, so that "go nodes 500" with 2
 * threads does not run on for a thousand nodes on each, nor a helper for
 * as long as the main thread waits for a core. */
static inline void count_node(SearchThread *th)
{
    uint64_t n = atomic_load_explicit(&th->nodes, memory_order_relaxed) + 1;
    atomic_store_explicit(&th->nodes, n, memory_order_relaxed);
    SearchShared *sh = th->shared;
    if (th->id == 0) {
        if (sh->limits.nodes && sh->thread_count == 1) {
            /* The count is exact here; a clock or a move time given with
             * the node limit still ends the search, whichever comes first. */
            if (n >= sh->limits.nodes)
                search_stop_when_allowed(sh);
            else if ((++th->calls & 1023) == 0)
                check_time(th); /* the clock, when one is given too; where threads are fibers, the others' turn */
        } else if ((++th->calls & (sh->limits.nodes ? 63 : 1023)) == 0) {
            check_time(th);
        }
    } else if (sh->limits.nodes && (++th->calls & 63) == 0 && search_nodes(sh) >= sh->limits.nodes) {
        search_stop_when_allowed(sh);
    }
}

/* The single place where a repetition is scored: the current position
 * occurred before, with the same side to move and no capture or null move
 * between.  The cycle is ruled at its first recurrence by the repetition
 * rules: the side that broke them loses by a score just short of mate, an
 * allowed or mutual cycle is a draw.  A cycle inside the tree is ruled from
 * the latest occurrence; one that reaches into the game history from the
 * earliest in the window, as a referee would see it. */
static int repetition_value(SearchThread *th, int ply)
{
    Position *pos = &th->pos;
    int earliest, latest;
    if (!pos_occurrences(pos, pos->top, &earliest, &latest))
        return VALUE_NONE;
    int prev = latest >= th->root_top ? latest : earliest;
    int rule = th->shared->rule;
    if (rule == RULE_DRAW)
        return VALUE_DRAW;
    switch (rules_cycle_verdict(pos, prev, rule)) {
    case VERDICT_WIN: return VALUE_RULE_WIN - ply;
    case VERDICT_LOSS: return -VALUE_RULE_WIN + ply;
    default: return VALUE_DRAW;
    }
}

/* Scores that depend on the path (a repetition ruled against one side) must
 * not be stored: another path to the same position may not repeat. */
static inline bool path_dependent(int v)
{
    return v != VALUE_NONE && abs(v) >= VALUE_RULE_IN_MAX_PLY && abs(v) < VALUE_MATE_IN_MAX_PLY;
}

/* A value for the node before any search: the search was stopped, the
 * line is too deep, the position repeats, or the 60-move rule draws (unless
 * the move that reached the count left no legal move: mate or stalemate,
 * a loss either way, as the referee rules).  VALUE_NONE otherwise. */
static int early_value(SearchThread *th, int ply, bool in_check)
{
    Position *pos = &th->pos;
    const SearchShared *sh = th->shared;
    if (search_stopped(th))
        return 0;
    if (ply >= MAX_PLY - 2)
        return in_check ? 0 : static_evaluation(th);
    int rep = repetition_value(th, ply);
    if (rep != VALUE_NONE)
        return rep;
    if (sh->sixty_move_plies && pos_state(pos)->rule60 >= sh->sixty_move_plies)
        return count_legal(pos) == 0 ? mated_in(ply) : VALUE_DRAW;
    return VALUE_NONE;
}

/* The evaluation fades as the 60-move rule comes near, so that the side
 * ahead looks for a capture in time. */
static inline int damped(int eval, const Position *pos, const SearchShared *sh)
{
    if (!sh->sixty_move_plies)
        return eval;
    return eval * (2 * sh->sixty_move_plies - pos_state(pos)->rule60) / (2 * sh->sixty_move_plies);
}

/* The table's value for the node, VALUE_NONE if none may be used.  Near
 * the 60-move limit none may: the entry may come from the same position at
 * a lower count, searched with the draw out of its reach and scored with a
 * less faded evaluation, and a stale value would answer the node, move its
 * evaluation and decide its pruning.  Its move and raw evaluation do not
 * depend on the count and are still used. */
static inline int tt_usable_value(TTData *tte, int ply, const Position *pos, const SearchShared *sh)
{
    int rule60 = pos_state(pos)->rule60;
    if (sh->sixty_move_plies && rule60 >= sh->sixty_move_plies - TT_RULE60_MARGIN)
        return VALUE_NONE;
    int v = value_from_tt(tte->value, ply, rule60, sh->sixty_move_plies);
    tte->bound = bound_from_tt(tte->value, v, tte->bound);
    return tte->bound == TT_BOUND_NONE ? VALUE_NONE : v;
}

/* Zugzwang is common in xiangqi endings: allow the null move only to a side
 * with a rook, or with two of horse and cannon. */
static bool null_move_safe(const Position *pos)
{
    int us = pos->side;
    return pos_pieces(pos, us, ROOK) || popcount(pos_pieces(pos, us, HORSE) | pos_pieces(pos, us, CANNON)) >= 2;
}

/* ---- quiescence ---- */

/* depth 0 is the first ply of quiescence, where quiet checks are tried
 * too: a quiet move that mates at once is common in xiangqi (a rook or a
 * cannon onto the king's file), and a search that sees only captures
 * misses it one ply from the horizon. */
static int qsearch(SearchThread *th, Stack *ss, int alpha, int beta, int depth, bool pv_node)
{
    Position *pos = &th->pos;
    SearchShared *sh = th->shared;
    int ply = ss->ply;
    count_node(th);
    if (pv_node) {
        /* cleared before any return: a parent appends this line to its own */
        ss->pv[0] = MOVE_NONE;
        if (ply + 1 > th->seldepth)
            th->seldepth = ply + 1;
    }
    bool in_check = pos_in_check(pos);
    int early = early_value(th, ply, in_check);
    if (early != VALUE_NONE)
        return early;

    Key key = pos_key(pos);
    TTData tte;
    bool tt_hit = tt_probe(sh->tt, key, &tte);
    int tt_value = tt_hit ? tt_usable_value(&tte, ply, pos, sh) : VALUE_NONE;
    Move tt_move = tt_hit ? tte.move : MOVE_NONE;
    if (!pv_node && tt_hit && tt_value != VALUE_NONE
        && (tte.bound & (tt_value >= beta ? TT_BOUND_LOWER : TT_BOUND_UPPER)))
        return tt_value;

    int best_value, static_eval, raw_eval = VALUE_NONE;
    if (in_check) {
        best_value = static_eval = -VALUE_INFINITE;
    } else {
        raw_eval = tt_hit && tte.eval != VALUE_NONE ? tte.eval : static_evaluation(th);
        CorrKeys ck = corr_keys(pos);
        best_value = static_eval = corr_apply(&th->corr, pos->side, &ck, damped(raw_eval, pos, sh));
        if (tt_value != VALUE_NONE && (tte.bound & (tt_value > best_value ? TT_BOUND_LOWER : TT_BOUND_UPPER)))
            best_value = tt_value;
        /* Stand pat: the side to move need not capture. */
        if (best_value >= beta) {
            if (!tt_hit)
                tt_store(sh->tt, key, value_to_tt(best_value, ply), false, TT_BOUND_LOWER, -1, MOVE_NONE, raw_eval);
            return best_value;
        }
        if (best_value > alpha)
            alpha = best_value;
    }

    bool checks = depth >= 0 && !in_check;
    MovePicker mp;
    mp_init_qs(&mp, th, tt_move, checks);
    Move best_move = MOVE_NONE, move;
    int move_count = 0;
    while ((move = mp_next(&mp, false)) != MOVE_NONE) {
        if (!pos_legal(pos, move))
            continue;
        move_count++;
        if (!in_check) {
            /* Delta pruning: even winning the piece leaves us below alpha. */
            int check = -1; /* gives check: asked only when it matters */
            int victim = piece_type(pos->board[move_to(move)]);
            if (static_eval + SeeValue[victim] + QS_DELTA_MARGIN <= alpha && !(check = pos_gives_check(pos, move)))
                continue;
            /* Moves that lose material are not worth a look here, but for
             * the checks of the first ply: the exchange counts on pieces
             * that may not move (the king facing the other, a pinned
             * defender), and a mate often offers the checking piece. */
            if (!pos_see_ge(pos, move, 0)
                && (depth < 0 || !(check < 0 ? pos_gives_check(pos, move) : check)))
                continue;
        }
        ss->current_move = move;
        ss->moved_piece = pos->board[move_from(move)];
        ss->cont_hist = &th->cont_history[ss->moved_piece][move_to(move)];
        tt_prefetch(sh->tt, pos_key_after(pos, move));
        do_move(th, move);
        int value = -qsearch(th, ss + 1, -beta, -alpha, depth - 1, pv_node);
        undo_move(th);
        if (search_stopped(th))
            return 0;
        if (value > best_value) {
            best_value = value;
            if (value > alpha) {
                best_move = move;
                if (pv_node)
                    update_pv(ss->pv, move, (ss + 1)->pv);
                if (value >= beta)
                    break;
                alpha = value;
            }
        }
    }
    /* No legal move: mated (in xiangqi, stalemate loses too). */
    if (in_check && move_count == 0)
        return mated_in(ply);

    if (path_dependent(best_value))
        tt_store(sh->tt, key, VALUE_NONE, pv_node, TT_BOUND_NONE, -TT_DEPTH_OFFSET, best_move, raw_eval);
    else
        tt_store(sh->tt, key, value_to_tt(best_value, ply), pv_node,
                 best_value >= beta ? TT_BOUND_LOWER : TT_BOUND_UPPER, in_check || checks ? 0 : -1, best_move, raw_eval);
    return best_value;
}

/* ---- main search ---- */

static int search(SearchThread *th, Stack *ss, int alpha, int beta, int depth, bool cut_node, bool pv_node)
{
    Position *pos = &th->pos;
    SearchShared *sh = th->shared;
    int ply = ss->ply;
    bool root = ply == 0;

    if (depth <= 0)
        return qsearch(th, ss, alpha, beta, 0, pv_node);

    count_node(th);
    if (pv_node && ply + 1 > th->seldepth)
        th->seldepth = ply + 1;
    if (pv_node)
        ss->pv[0] = MOVE_NONE;
    bool in_check = pos_in_check(pos);

    if (!root) {
        /* Step 1. Stop, draw and depth limits. */
        int early = early_value(th, ply, in_check);
        if (early != VALUE_NONE)
            return early;

        /* Step 2. Mate distance pruning: no line can beat a mate already found. */
        alpha = max_int(mated_in(ply), alpha);
        beta = min_int(mate_in(ply + 1), beta);
        if (alpha >= beta)
            return alpha;
    }

    (ss + 1)->killers[0] = (ss + 1)->killers[1] = MOVE_NONE;
    /* the child's count before any move: the null move's subtree is on this path too */
    (ss + 1)->double_extensions = ss->double_extensions;
    Move prev_move = (ss - 1)->current_move;

    /* Step 3. Transposition table: a deep enough entry answers a non-PV node. */
    Key key = pos_key(pos);
    TTData tte;
    bool tt_hit = tt_probe(sh->tt, key, &tte);
    int tt_value = tt_hit ? tt_usable_value(&tte, ply, pos, sh) : VALUE_NONE;
    Move tt_move = root ? th->root_moves[th->pv_index].move : tt_hit ? tte.move : MOVE_NONE;
    Move excluded = ss->excluded;
    if (excluded) /* the table speaks for the node with every move */
        tt_hit = false, tt_value = VALUE_NONE, tt_move = MOVE_NONE;
    bool tt_pv = pv_node || (tt_hit && tte.pv);
    if (!pv_node && tt_hit && tte.depth >= depth && tt_value != VALUE_NONE
        && (tte.bound & (tt_value >= beta ? TT_BOUND_LOWER : TT_BOUND_UPPER))) {
        /* A fail-high by a quiet TT move still teaches the histories. */
        if (tt_move && tt_value >= beta && !pos_is_capture(pos, tt_move) && pos_pseudo_legal(pos, tt_move))
            update_history(&th->history[pos->side][move_from(tt_move) * SQUARE_NB + move_to(tt_move)],
                           history_bonus(depth));
        return tt_value;
    }

    /* Step 4. Static evaluation, corrected by what searches of like
     * positions found. */
    int static_eval, eval, raw_eval = VALUE_NONE, uncorrected = VALUE_NONE;
    CorrKeys ck = {0, {0, 0}};
    bool improving = false;
    if (in_check) {
        static_eval = eval = ss->static_eval = VALUE_NONE;
    } else {
        raw_eval = tt_hit && tte.eval != VALUE_NONE ? tte.eval : static_evaluation(th);
        ck = corr_keys(pos);
        uncorrected = damped(raw_eval, pos, sh);
        ss->static_eval = eval = static_eval = corr_apply(&th->corr, pos->side, &ck, uncorrected);
        if (tt_value != VALUE_NONE && (tte.bound & (tt_value > eval ? TT_BOUND_LOWER : TT_BOUND_UPPER)))
            eval = tt_value;
        if (!tt_hit && !excluded)
            tt_store(sh->tt, key, VALUE_NONE, tt_pv, TT_BOUND_NONE, -TT_DEPTH_OFFSET, MOVE_NONE, raw_eval);
        int prev = (ss - 2)->static_eval;
        improving = prev == VALUE_NONE ? true : static_eval > prev;
    }

    if (!pv_node && !in_check && !excluded) {
        /* Step 5. Reverse futility: far above beta at low depth, a quiet
         * position will stay above it. */
        if (depth <= RFP_MAX_DEPTH && eval - RFP_MARGIN * (depth - improving) >= beta && eval < VALUE_RULE_IN_MAX_PLY
            && beta > -VALUE_RULE_IN_MAX_PLY)
            return (eval + beta) / 2;

        /* Step 6. Null move: if passing still beats beta, a real move will. */
        if (prev_move != MOVE_NULL && depth >= NMP_MIN_DEPTH && eval >= beta && static_eval >= beta
            && ply >= th->nmp_min_ply && beta > -VALUE_RULE_IN_MAX_PLY && null_move_safe(pos)) {
            int r = NMP_BASE_R + depth / NMP_DEPTH_DIV + min_int((eval - beta) / NMP_EVAL_DIV, 3);
            ss->current_move = MOVE_NULL;
            ss->moved_piece = NO_PIECE;
            ss->cont_hist = &th->cont_history[NO_PIECE][0];
            do_null(th);
            int value = -search(th, ss + 1, -beta, -beta + 1, depth - r, !cut_node, false);
            undo_null(th);
            if (search_stopped(th))
                return 0;
            if (value >= beta) {
                if (value >= VALUE_RULE_IN_MAX_PLY)
                    value = beta; /* no unproven mates from a pass */
                if (depth < NMP_VERIFY_DEPTH)
                    return value;
                /* Deep cutoffs are verified by a real search, with no null
                 * moves for the side to move near the top of it (a
                 * verification inside another keeps the outer one's
                 * restriction when it ends). */
                int outer_min_ply = th->nmp_min_ply;
                th->nmp_min_ply = ply + 3 * (depth - r) / 4;
                int v = search(th, ss, beta - 1, beta, depth - r, false, false);
                th->nmp_min_ply = outer_min_ply;
                if (v >= beta)
                    return value;
            }
        }
    }

    /* Step 7. Internal iterative reduction: no TT move at a node that needs
     * one suggests it was not worth a deep search before. */
    if ((pv_node || cut_node) && depth >= IIR_MIN_DEPTH && !tt_move)
        depth--;

    /* Step 8. The moves. */
    MovePicker mp;
    Move counter = prev_move && prev_move != MOVE_NULL
                     ? th->counter_moves[(ss - 1)->moved_piece][move_to(prev_move)]
                     : MOVE_NONE;
    ContHist *const cont[2] = {(ss - 1)->cont_hist, (ss - 2)->cont_hist};
    if (!root)
        mp_init(&mp, th, tt_move, ss->killers, counter, cont);
    Move quiets[64], captures[32];
    int nquiets = 0, ncaptures = 0;
    int best_value = -VALUE_INFINITE, move_count = 0;
    Move best_move = MOVE_NONE, move;
    bool skip_quiets = false;
    int root_index = th->pv_index;

    for (;;) {
        if (root)
            move = root_index < th->root_count ? th->root_moves[root_index++].move : MOVE_NONE;
        else
            move = mp_next(&mp, skip_quiets);
        if (move == MOVE_NONE)
            break;
        if (move == excluded || (!root && !pos_legal(pos, move)))
            continue;
        move_count++;
        bool capture = pos_is_capture(pos, move);
        bool gives_check = pos_gives_check(pos, move);
        int moved_piece = pos->board[move_from(move)];
        int new_depth = depth - 1;
        int hist = capture ? 0
                           : th->history[pos->side][move_from(move) * SQUARE_NB + move_to(move)]
                                 + (*cont[0])[moved_piece][move_to(move)] + (*cont[1])[moved_piece][move_to(move)];

        /* Step 9. Shallow pruning of moves unlikely to matter.  No guard
         * for little material: the null move's (null_move_safe) is about
         * zugzwang, where passing would be best, and says nothing about
         * whether a late quiet move is worth a search; without it the
         * bench has 12% fewer nodes and a match did not lose. */
        if (!root && best_value > -VALUE_RULE_IN_MAX_PLY) {
            int lmr_depth = max_int(new_depth - reduction(depth, move_count), 0);
            if (!capture && !gives_check) {
                if (move_count >= (LMP_BASE + depth * depth) / (2 - improving))
                    skip_quiets = true;
                if (skip_quiets)
                    continue;
                if (!in_check && lmr_depth < FUTILITY_MAX_DEPTH
                    && static_eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * lmr_depth <= alpha)
                    continue;
                if (lmr_depth < HISTORY_PRUNE_DEPTH && hist < -HISTORY_PRUNE_MARGIN * depth)
                    continue;
                if (!pos_see_ge(pos, move, -SEE_QUIET_MARGIN * lmr_depth * lmr_depth))
                    continue;
            } else if (depth < 7 && !gives_check && !pos_see_ge(pos, move, -SEE_CAPTURE_MARGIN * depth)) {
                continue;
            }
        }

        /* Step 10. Extensions.  Singular: when the TT move beats every
         * other move by a margin in a shallow search without it, it is
         * the only good move here and deserves a deeper look; two plies
         * deeper outside the PV when it beats them by far (a few times on
         * a path at most, or the search would never end).  When other
         * moves come within the margin, the TT move is not alone: one ply
         * less where its value already beats beta or the node is expected
         * to cut anyway.  Check: a sound check may change everything;
         * but a checking TT move that the singular test found not
         * singular gets no check extension either (extending it lost
         * 46 +/- 17 Elo over 1208 games, bench/RESULTS.md). */
        int extension = 0;
        if (!root && move == tt_move && !excluded && depth >= SE_MIN_DEPTH && tt_value != VALUE_NONE
            && abs(tt_value) < VALUE_RULE_IN_MAX_PLY && (tte.bound & TT_BOUND_LOWER)
            && tte.depth >= depth - SE_TT_DEPTH_MARGIN && ply < 2 * th->root_depth) {
            int singular_beta = tt_value - SE_BETA_PER_DEPTH * depth;
            ss->excluded = move;
            int v = search(th, ss, singular_beta - 1, singular_beta, (depth - 1) / 2, cut_node, false);
            ss->excluded = MOVE_NONE;
            if (search_stopped(th))
                return 0;
            if (v < singular_beta)
                extension = 1 + (!pv_node && v < singular_beta - SE_DOUBLE_MARGIN
                                 && ss->double_extensions < SE_DOUBLE_MAX);
            else if (singular_beta >= beta)
                return singular_beta; /* several moves beat beta: cut */
            else if (tt_value >= beta || cut_node)
                extension = -1; /* other moves are good too: this one needs less */
        } else if (gives_check && ply < 2 * th->root_depth && (depth <= 4 || pos_see_ge(pos, move, 0))) {
            extension = 1;
        }
        new_depth += extension;
        (ss + 1)->double_extensions = ss->double_extensions + (extension >= 2);

        ss->current_move = move;
        ss->moved_piece = moved_piece;
        ss->cont_hist = &th->cont_history[moved_piece][move_to(move)];
        tt_prefetch(sh->tt, pos_key_after(pos, move));
        uint64_t nodes_before = atomic_load_explicit(&th->nodes, memory_order_relaxed);
        do_move(th, move);

        int value;
        /* Step 11. Late-move reductions: late quiet moves rarely matter. */
        if (depth >= 2 && move_count > 1 + (pv_node ? 1 : 0) && (!capture || !tt_pv)) {
            int r = reduction(depth, move_count);
            r += !pv_node;
            r += cut_node;
            r -= improving;
            r -= tt_pv;
            if (capture)
                r -= 1;
            r -= hist / LMR_HISTORY_DIV;
            int d = reduced_depth(new_depth, r);
            value = -search(th, ss + 1, -(alpha + 1), -alpha, d, true, false);
            if (value > alpha && d < new_depth)
                value = -search(th, ss + 1, -(alpha + 1), -alpha, new_depth, !cut_node, false);
        } else if (!pv_node || move_count > 1) {
            value = -search(th, ss + 1, -(alpha + 1), -alpha, new_depth, !cut_node, false);
        } else {
            value = alpha + 1; /* first move of a PV node: full window below */
        }
        /* Step 12. Principal variation search: full window for the first
         * move and for moves that beat alpha. */
        if (pv_node && (move_count == 1 || (value > alpha && (root || value < beta)))) {
            (ss + 1)->pv[0] = MOVE_NONE;
            value = -search(th, ss + 1, -beta, -alpha, new_depth, false, true);
        }
        undo_move(th);
        if (search_stopped(th))
            return 0;

        if (root) {
            RootMove *rm = NULL;
            for (int i = 0; i < th->root_count; i++)
                if (th->root_moves[i].move == move)
                    rm = &th->root_moves[i];
            rm->effort += atomic_load_explicit(&th->nodes, memory_order_relaxed) - nodes_before;
            rm->average_score = rm->average_score == -VALUE_INFINITE ? value : (2 * value + rm->average_score) / 3;
            if (move_count == 1 || value > alpha) {
                rm->score = value;
                rm->seldepth = th->seldepth;
                rm->pv[0] = move;
                int n = 1;
                for (const Move *p = (ss + 1)->pv; p && *p && n < MAX_PLY - 1; p++)
                    rm->pv[n++] = *p;
                rm->pv_len = n;
            } else {
                rm->score = -VALUE_INFINITE;
            }
        }

        if (value > best_value) {
            best_value = value;
            if (value > alpha) {
                best_move = move;
                if (pv_node && !root)
                    update_pv(ss->pv, move, (ss + 1)->pv);
                if (value >= beta)
                    break;
                alpha = value;
            }
        }
        if (move != best_move) {
            if (capture && ncaptures < 32)
                captures[ncaptures++] = move;
            else if (!capture && nquiets < 64)
                quiets[nquiets++] = move;
        }
    }

    /* Step 13. No legal move: mated, whether in check or not (stalemate
     * loses in xiangqi). */
    if (move_count == 0)
        return excluded ? alpha : mated_in(ply);

    /* Step 14. Teach the histories what cut. */
    if (best_move && best_value >= beta) {
        int bonus = history_bonus(depth);
        int us = pos->side;
        if (!pos_is_capture(pos, best_move)) {
            if (ss->killers[0] != best_move) {
                ss->killers[1] = ss->killers[0];
                ss->killers[0] = best_move;
            }
            if (prev_move && prev_move != MOVE_NULL)
                th->counter_moves[(ss - 1)->moved_piece][move_to(prev_move)] = best_move;
            update_history(&th->history[us][move_from(best_move) * SQUARE_NB + move_to(best_move)], bonus);
            update_cont(cont, pos->board[move_from(best_move)], move_to(best_move), bonus);
            for (int i = 0; i < nquiets; i++) {
                update_history(&th->history[us][move_from(quiets[i]) * SQUARE_NB + move_to(quiets[i])], -bonus);
                update_cont(cont, pos->board[move_from(quiets[i])], move_to(quiets[i]), -bonus);
            }
        } else {
            int pc = pos->board[move_from(best_move)];
            update_history(&th->capture_history[pc][move_to(best_move)][piece_type(pos->board[move_to(best_move)])],
                           bonus);
        }
        for (int i = 0; i < ncaptures; i++) {
            int pc = pos->board[move_from(captures[i])];
            update_history(&th->capture_history[pc][move_to(captures[i])][piece_type(pos->board[move_to(captures[i])])],
                           -bonus);
        }
    }

    /* Step 15. Teach the correction history how far the evaluation was
     * off, when the result says so: not a capture's gain, not a bound on
     * the wrong side of the evaluation, not a decided score. */
    if (!in_check && !excluded && !(best_move && pos_is_capture(pos, best_move))
        && abs(best_value) < VALUE_RULE_IN_MAX_PLY && !(best_value >= beta && best_value <= static_eval)
        && !(!best_move && best_value >= static_eval))
        corr_update(&th->corr, pos->side, &ck, best_value - uncorrected, depth);

    /* Step 16. Remember the result. */
    if (excluded)
        ; /* a search without one move says nothing the table may keep */
    else if (path_dependent(best_value))
        tt_store(sh->tt, key, VALUE_NONE, tt_pv, TT_BOUND_NONE, -TT_DEPTH_OFFSET, best_move, raw_eval);
    else if (!root || th->pv_index == 0)
        tt_store(sh->tt, key, value_to_tt(best_value, ply), tt_pv,
                 best_value >= beta                ? TT_BOUND_LOWER
                 : pv_node && best_move != MOVE_NONE ? TT_BOUND_EXACT
                                                     : TT_BOUND_UPPER,
                 depth, best_move, raw_eval);
    return best_value;
}

int search_root(SearchThread *th, int alpha, int beta, int depth)
{
    return search(th, th->stack + 4, alpha, beta, depth, false, true);
}
