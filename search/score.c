#include "score.h"

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

int score_mate_in(int score)
{
    int plies = score_mate_plies(score);
    return plies > 0 ? (plies + 1) / 2 : plies / 2;
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
