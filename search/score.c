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

bool score_is_decisive(int score) { return score_is_mate(score) || score_is_rule_win(score); }

int score_decisive_in(int score)
{
    int plies = score_is_mate(score) ? score_mate_plies(score) : score_rule_win_plies(score);
    return plies > 0 ? (plies + 1) / 2 : -((1 - plies) / 2);
}
