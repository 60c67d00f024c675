#include "skill.h"

#include <math.h>
#include <string.h>

#include "engine/board/movegen.h"
#include "engine/rules/rules.h"
#include "engine/util/rng.h"
#include "search/score.h"

/* The ladder: the rating of every fourth level, measured by chuhan match
 * between neighbours (README.md, Strength levels; how it was run:
 * bench/RESULTS.md, The strength ladder); the levels in between are
 * interpolated.  Level 0 is the scale's anchor. */
static const int LADDER_LEVEL[] = {0, 4, 8, 10, 12, 14, 16, 20};
static const int LADDER_ELO[] = {SKILL_ELO_MIN, 1160, 1330, 1555, 1796, 2123, 2313, SKILL_ELO_MAX};
#define LADDER_NB ((int)(sizeof LADDER_LEVEL / sizeof LADDER_LEVEL[0]))

int skill_margin(double level)
{
    /* an eighth of a pawn at level 19, a pawn and a bit at level 4, and
     * below it more again: there the node budget stops falling */
    if (level >= SKILL_MAX)
        return 0;
    return (int)(5 + 7 * (SKILL_MAX - level) + (level < 4 ? 60 * (4 - level) : 0));
}

uint64_t skill_nodes(double level)
{
    /* doubling every two levels from level 4 (400 nodes) to 72,000 at
     * 19; below, the depth falls instead, but every line of depth 1 is
     * searched whole */
    return level >= SKILL_MAX ? 0 : (uint64_t)fmax(400, 100 * pow(2, level / 2));
}

void skill_limits(double level, SearchLimits *limits, int *multipv)
{
    if (skill_full(level))
        return;
    uint64_t nodes = skill_nodes(level);
    int depth = 1 + (int)level;
    if (!limits->nodes || limits->nodes > nodes)
        limits->nodes = nodes;
    if (!limits->depth || limits->depth > depth)
        limits->depth = depth;
    if (*multipv < SKILL_PV)
        *multipv = SKILL_PV;
}

void skill_clear(SkillLines *lines) { memset(lines, 0, sizeof *lines); }

void skill_note(SkillLines *lines, const SearchInfo *info)
{
    int i = info->multipv - 1;
    if (i < 0 || i >= SKILL_PV || info->pv_len < 1 || info->bound != BOUND_EXACT)
        return;
    lines->move[i] = info->pv[0];
    lines->ponder[i] = info->pv_len > 1 ? info->pv[1] : MOVE_NONE;
    lines->score[i] = info->score;
    lines->depth[i] = info->depth;
}

/* A move that leaves the opponent no legal move (mate or stalemate, both
 * a win in xiangqi), or MOVE_NONE. */
static Move mate_in_one(Position *pos)
{
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    if (pos_room(pos) < 1)
        return MOVE_NONE;
    for (int i = 0; i < n; i++) {
        pos_do_move(pos, moves[i]);
        bool mate = count_legal(pos) == 0;
        pos_undo_move(pos);
        if (mate)
            return moves[i];
    }
    return MOVE_NONE;
}

/* Does m repeat a position of the game into a cycle the rules forbid to
 * the side playing it?  Ruled as the search rules a repetition reaching
 * into the game: from the earliest occurrence since the last capture. */
static bool forbidden(Position *pos, Move m, int rule)
{
    if (rule == RULE_DRAW)
        return false;
    if (pos_room(pos) < RULES_STACK_NEED + 1)
        return true; /* cannot tell: keep to the search's choice */
    pos_do_move(pos, m);
    int prev, latest;
    bool lost = pos_occurrences(pos, pos->top, &prev, &latest)
                && rules_cycle_verdict(pos, prev, rule) == VERDICT_WIN; /* for the opponent */
    pos_undo_move(pos);
    return lost;
}

/* m, unless it repeats into a forbidden cycle (a shallow search may not
 * see all of one): then the best line, or the first legal move, that
 * does not. */
static Move keep_to_rules(Position *pos, Move m, const SkillLines *lines, Move *ponder, int rule)
{
    if (!forbidden(pos, m, rule))
        return m;
    for (int i = 0; i < SKILL_PV; i++) {
        Move alt = lines->move[i];
        if (alt && pos_pseudo_legal(pos, alt) && pos_legal(pos, alt) && !forbidden(pos, alt, rule)) {
            *ponder = lines->ponder[i];
            return alt;
        }
    }
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    for (int i = 0; i < n; i++)
        if (!forbidden(pos, moves[i], rule)) {
            *ponder = MOVE_NONE;
            return moves[i];
        }
    return m; /* every move repeats: the search's choice */
}

/* Which line to play: among those within the margin of the best, legal
 * and allowed, the closer ones more often; -1 for the search's own move. */
static int pick_line(double level, Position *pos, const SkillLines *lines, Move best, int rule, uint64_t *rng)
{
    /* The lines of the deepest depth (a line the last, unfinished depth
     * did not reach counts from the depth before). */
    int top = lines->depth[0];
    if (!lines->move[0] || lines->move[0] != best)
        return -1;
    /* A forced win or loss found: no weaker player would miss it or give
     * it away, and the margin means nothing there. */
    if (score_is_mate(lines->score[0]) || score_is_rule_win(lines->score[0]))
        return -1;
    int margin = skill_margin(level);
    double weight[SKILL_PV], total = 0;
    for (int i = 0; i < SKILL_PV; i++) {
        weight[i] = 0;
        Move m = lines->move[i];
        int loss = lines->score[0] - lines->score[i];
        if (!m || lines->depth[i] < top - 1 || loss > margin || score_is_mate(lines->score[i])
            || score_is_rule_win(lines->score[i]))
            continue;
        bool seen = false;
        for (int j = 0; j < i; j++)
            seen |= lines->move[j] == m;
        if (seen || !pos_pseudo_legal(pos, m) || !pos_legal(pos, m) || forbidden(pos, m, rule))
            continue;
        /* the closer to the best, the likelier: a line a whole margin
         * worse is picked e^3 = 20 times less often than the best (from
         * level 4 up; at level 0 only e = 2.7 times) */
        double steep = level < 4 ? 1 + level / 2 : 3;
        weight[i] = exp(-steep * loss / (margin > 0 ? margin : 1));
        total += weight[i];
    }
    if (total <= 0)
        return -1;
    double r = rng_unit(rng) * total;
    int pick = -1;
    for (int i = 0; i < SKILL_PV && (pick < 0 || r >= 0); i++)
        if (weight[i] > 0) {
            pick = i;
            r -= weight[i];
        }
    return pick;
}

Move skill_pick(double level, Position *pos, const SkillLines *lines, Move best, Move *ponder, int rule,
                uint64_t *rng)
{
    if (skill_full(level) || best == MOVE_NONE)
        return best;
    Move mate = mate_in_one(pos);
    if (mate) {
        if (mate != best)
            *ponder = MOVE_NONE;
        return mate;
    }
    int pick = pick_line(level, pos, lines, best, rule, rng);
    if (pick >= 0) {
        *ponder = lines->ponder[pick];
        return lines->move[pick];
    }
    return keep_to_rules(pos, best, lines, ponder, rule);
}

double skill_from_elo(int elo)
{
    if (elo <= LADDER_ELO[0])
        return LADDER_LEVEL[0];
    for (int i = 1; i < LADDER_NB; i++)
        if (elo <= LADDER_ELO[i])
            return LADDER_LEVEL[i - 1] + (double)(LADDER_LEVEL[i] - LADDER_LEVEL[i - 1]) * (elo - LADDER_ELO[i - 1])
                                             / (LADDER_ELO[i] - LADDER_ELO[i - 1]);
    return SKILL_MAX;
}

int skill_elo(double level)
{
    if (level <= LADDER_LEVEL[0])
        return LADDER_ELO[0];
    for (int i = 1; i < LADDER_NB; i++)
        if (level <= LADDER_LEVEL[i])
            return (int)lround(LADDER_ELO[i - 1] + (LADDER_ELO[i] - LADDER_ELO[i - 1]) * (level - LADDER_LEVEL[i - 1])
                                                       / (LADDER_LEVEL[i] - LADDER_LEVEL[i - 1]));
    return SKILL_ELO_MAX;
}
