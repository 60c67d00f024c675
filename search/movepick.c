#include "movepick.h"

#include "engine/board/movegen.h"
#include "eval/eval.h"
#include "tunable_list.h"

enum {
    STAGE_TT,
    STAGE_CAPTURE_INIT,
    STAGE_GOOD_CAPTURE,
    STAGE_KILLER0,
    STAGE_KILLER1,
    STAGE_COUNTER,
    STAGE_QUIET_INIT,
    STAGE_QUIET,
    STAGE_BAD_CAPTURE,
    STAGE_EVASION_TT,
    STAGE_EVASION_INIT,
    STAGE_EVASION,
    STAGE_QS_TT,
    STAGE_QS_INIT,
    STAGE_QS_CAPTURE,
    STAGE_QS_CHECK_INIT,
    STAGE_QS_CHECK,
    STAGE_DONE
};

static bool usable(const Position *pos, Move m) { return m != MOVE_NONE && pos_pseudo_legal(pos, m); }

void mp_init(MovePicker *mp, const SearchThread *th, Move tt_move, const Move killers[2], Move counter,
             ContHist *const cont[2])
{
    const Position *pos = &th->pos;
    mp->pos = pos;
    mp->th = th;
    mp->cont[0] = cont[0];
    mp->cont[1] = cont[1];
    mp->killers[0] = killers[0];
    mp->killers[1] = killers[1];
    mp->counter = counter;
    mp->tt_move = usable(pos, tt_move) ? tt_move : MOVE_NONE;
    mp->stage = pos_in_check(pos) ? STAGE_EVASION_TT : STAGE_TT;
    if (!mp->tt_move)
        mp->stage++;
    mp->bad_end = 0;
}

void mp_init_qs(MovePicker *mp, const SearchThread *th, Move tt_move, bool checks)
{
    const Position *pos = &th->pos;
    mp->pos = pos;
    mp->th = th;
    mp->killers[0] = mp->killers[1] = mp->counter = MOVE_NONE;
    mp->cont[0] = mp->cont[1] = NULL;
    bool in_check = pos_in_check(pos);
    mp->qs_checks = checks && !in_check;
    mp->tt_move = usable(pos, tt_move) && (in_check || mp->qs_checks || pos_is_capture(pos, tt_move)) ? tt_move
                                                                                                      : MOVE_NONE;
    mp->stage = in_check ? STAGE_EVASION_TT : STAGE_QS_TT;
    if (!mp->tt_move)
        mp->stage++;
    mp->bad_end = 0;
}

static inline int mvv_lva(const MovePicker *mp, Move m)
{
    const Position *pos = mp->pos;
    int victim = piece_type(pos->board[move_to(m)]);
    int attacker = pos->board[move_from(m)];
    return SeeValue[victim] * 8 - SeeValue[piece_type(attacker)] / 16
         + mp->th->capture_history[attacker][move_to(m)][victim] / 8;
}

static inline int quiet_score(const MovePicker *mp, Move m)
{
    int from = move_from(m), to = move_to(m), pc = mp->pos->board[from];
    int score = mp->th->history[mp->pos->side][from * SQUARE_NB + to];
    if (mp->cont[0])
        score += (*mp->cont[0])[pc][to] + (*mp->cont[1])[pc][to];
    return score;
}

/* The best-scored move from cur up to end, the first of equals. */
static int best_index(const MovePicker *mp, int end)
{
    int best = mp->cur;
    for (int i = mp->cur + 1; i < end; i++)
        if (mp->scores[i] > mp->scores[best])
            best = i;
    return best;
}

static void swap_moves(MovePicker *mp, int i, int j)
{
    Move m = mp->moves[i];
    int sc = mp->scores[i];
    mp->moves[i] = mp->moves[j];
    mp->scores[i] = mp->scores[j];
    mp->moves[j] = m;
    mp->scores[j] = sc;
}

/* Bring the best-scored remaining move to position cur. */
static Move pick_best(MovePicker *mp)
{
    swap_moves(mp, best_index(mp, mp->end), mp->cur);
    return mp->moves[mp->cur++];
}

/* The quiet moves scored at limit or above (and the first move, whatever
 * its score) to the front, in generation order; the others behind them.
 * The front is sorted as it is used (next_sorted), since a cutoff often
 * comes after a few moves. */
static void partition_quiets(MovePicker *mp, int limit)
{
    int sorted = mp->cur;
    for (int i = mp->cur + 1; i < mp->end; i++)
        if (mp->scores[i] >= limit)
            swap_moves(mp, i, ++sorted);
    mp->sorted_end = mp->end > mp->cur ? sorted + 1 : mp->cur;
}

/* The best of the front's remaining moves, the first of equals, to
 * position cur (the ones before it shift up one, keeping their order). */
static Move next_sorted(MovePicker *mp)
{
    int best = best_index(mp, mp->sorted_end);
    Move m = mp->moves[best];
    int sc = mp->scores[best];
    for (int j = best; j > mp->cur; j--) {
        mp->moves[j] = mp->moves[j - 1];
        mp->scores[j] = mp->scores[j - 1];
    }
    mp->moves[mp->cur] = m;
    mp->scores[mp->cur] = sc;
    return mp->moves[mp->cur++];
}

static bool is_special(const MovePicker *mp, Move m)
{
    return m == mp->tt_move || m == mp->killers[0] || m == mp->killers[1] || m == mp->counter;
}

Move mp_next(MovePicker *mp, bool skip_quiets)
{
    const Position *pos = mp->pos;
    for (;;) {
        switch (mp->stage) {
        case STAGE_TT:
        case STAGE_EVASION_TT:
        case STAGE_QS_TT:
            mp->stage++;
            return mp->tt_move;

        case STAGE_CAPTURE_INIT:
        case STAGE_QS_INIT:
            mp->cur = 0;
            mp->end = gen_captures(pos, mp->moves);
            for (int i = 0; i < mp->end; i++)
                mp->scores[i] = mvv_lva(mp, mp->moves[i]);
            mp->stage++;
            break;

        case STAGE_GOOD_CAPTURE:
            while (mp->cur < mp->end) {
                Move m = pick_best(mp);
                if (m == mp->tt_move)
                    continue;
                if (pos_see_ge(pos, m, -mp->scores[mp->cur - 1] / 32))
                    return m;
                mp->bad[mp->bad_end++] = m;
            }
            mp->stage++;
            break;

        case STAGE_KILLER0:
        case STAGE_KILLER1:
        case STAGE_COUNTER: {
            int stage = mp->stage++;
            Move m = stage == STAGE_COUNTER ? mp->counter : mp->killers[stage - STAGE_KILLER0];
            if (stage >= STAGE_KILLER1 && m == mp->killers[0])
                break;
            if (stage == STAGE_COUNTER && m == mp->killers[1])
                break;
            if (!skip_quiets && m != mp->tt_move && usable(pos, m) && !pos_is_capture(pos, m))
                return m;
            break;
        }

        case STAGE_QUIET_INIT:
            if (!skip_quiets) {
                mp->cur = 0;
                mp->end = gen_quiets(pos, mp->moves);
                for (int i = 0; i < mp->end; i++)
                    mp->scores[i] = quiet_score(mp, mp->moves[i]);
                partition_quiets(mp, QUIET_SORT_LIMIT);
            } else {
                mp->cur = mp->end = mp->sorted_end = 0;
            }
            mp->stage++;
            break;

        case STAGE_QUIET:
            while (!skip_quiets && mp->cur < mp->end) {
                Move m = mp->cur < mp->sorted_end ? next_sorted(mp) : mp->moves[mp->cur++];
                if (!is_special(mp, m))
                    return m;
            }
            mp->cur = 0;
            mp->stage++;
            break;

        case STAGE_BAD_CAPTURE:
            if (mp->cur < mp->bad_end)
                return mp->bad[mp->cur++];
            mp->stage = STAGE_DONE;
            break;

        case STAGE_EVASION_INIT:
            mp->cur = 0;
            mp->end = gen_evasions(pos, mp->moves);
            for (int i = 0; i < mp->end; i++) {
                Move m = mp->moves[i];
                mp->scores[i] = pos_is_capture(pos, m) ? (1 << 20) + mvv_lva(mp, m) : quiet_score(mp, m);
            }
            mp->stage++;
            break;

        case STAGE_EVASION:
        case STAGE_QS_CAPTURE:
            while (mp->cur < mp->end) {
                Move m = pick_best(mp);
                if (m != mp->tt_move)
                    return m;
            }
            mp->stage = mp->stage == STAGE_QS_CAPTURE && mp->qs_checks ? STAGE_QS_CHECK_INIT : STAGE_DONE;
            break;

        case STAGE_QS_CHECK_INIT: {
            int n = gen_quiet_checks(pos, mp->moves);
            mp->cur = mp->end = 0;
            for (int i = 0; i < n; i++)
                if (mp->moves[i] != mp->tt_move)
                    mp->moves[mp->end++] = mp->moves[i];
            mp->stage++;
            break;
        }

        case STAGE_QS_CHECK:
            if (mp->cur < mp->end)
                return mp->moves[mp->cur++];
            mp->stage = STAGE_DONE;
            break;

        default:
            return MOVE_NONE;
        }
    }
}
