#include "score.h"

#include <math.h>

#include "engine/board/bitboard.h"
#include "search_private.h"

bool score_is_mate(int score) { return is_mate_score(score); }

int score_mate_plies(int score)
{
    if (score >= VALUE_MATE_IN_MAX_PLY)
        return VALUE_MATE - score;
    if (score <= -VALUE_MATE_IN_MAX_PLY)
        return -(VALUE_MATE + score);
    return 0;
}

bool score_is_rule_win(int score)
{
    return !is_mate_score(score) && (score >= VALUE_RULE_IN_MAX_PLY || score <= -VALUE_RULE_IN_MAX_PLY);
}

int score_rule_win_plies(int score)
{
    if (score >= VALUE_RULE_IN_MAX_PLY)
        return VALUE_RULE_WIN - score;
    if (score <= -VALUE_RULE_IN_MAX_PLY)
        return -(VALUE_RULE_WIN + score);
    return 0;
}

int score_mate_in(int score)
{
    int plies = score_mate_plies(score);
    return plies > 0 ? (plies + 1) / 2 : plies / 2;
}

bool score_is_decisive(int score) { return score_is_mate(score) || score_is_rule_win(score); }

int score_decisive_in(int score)
{
    int plies = score_is_mate(score) ? score_mate_plies(score) : score_rule_win_plies(score);
    return plies > 0 ? (plies + 1) / 2 : -((1 - plies) / 2);
}

int score_material(const Position *pos) { return popcount(pos->occupied) - 2; }

void score_wdl(int score, int material, int wdl[3])
{
    (void)material;
    if (score_is_mate(score) || score_is_rule_win(score)) {
        wdl[0] = score > 0 ? 1000 : 0;
        wdl[1] = 0;
        wdl[2] = score > 0 ? 0 : 1000;
        return;
    }
    /* a logistic model fitted by eye to engine self-play: 50% wins at
     * about +2.5 pawns */
    double a = 250, b = 80;
    double w = 1000 / (1 + exp((a - score) / b));
    double l = 1000 / (1 + exp((a + score) / b));
    wdl[0] = (int)(w + 0.5);
    wdl[2] = (int)(l + 0.5);
    wdl[1] = 1000 - wdl[0] - wdl[2];
}

int score_expected(int score, int material)
{
    int wdl[3];
    score_wdl(score, material, wdl);
    return wdl[0] + wdl[1] / 2;
}
