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

/* A rule win ply p plies from the root is VALUE_RULE_WIN - p: the band
 * ends at VALUE_RULE_WIN, well below the mates. */
bool score_is_rule_win(int score)
{
    return (score >= VALUE_RULE_IN_MAX_PLY && score <= VALUE_RULE_WIN)
           || (score <= -VALUE_RULE_IN_MAX_PLY && score >= -VALUE_RULE_WIN);
}

int score_rule_win_plies(int score)
{
    if (!score_is_rule_win(score))
        return 0;
    return score > 0 ? VALUE_RULE_WIN - score : -(VALUE_RULE_WIN + score);
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

/* Fitted by chuhan wdl (bench/tools/wdl.c) to the master games of
 * tests/data/ccpd-master-games.pgn.zst: the first 3000 games, every 6th
 * position from ply 12 scored by a 2000-node search, 42,673 positions
 * (bench/tools/README.md, Win, draw and loss); log-loss per position
 * 0.922, against 1.408 for the curve fitted by eye before, {250, 0, 80, 0}. */
const WdlModel WDL_MODEL = {281.2, -1.97, 106.2, 5.99};

void wdl_probabilities(const WdlModel *model, int score, int material, double *win, double *loss)
{
    double a = model->a0 + model->a1 * material, b = model->b0 + model->b1 * material;
    if (b < 1)
        b = 1;
    *win = 1 / (1 + exp((a - score) / b));
    *loss = 1 / (1 + exp((a + score) / b));
}

void score_wdl(int score, int material, int wdl[3])
{
    if (score_is_mate(score) || score_is_rule_win(score)) {
        wdl[0] = score > 0 ? 1000 : 0;
        wdl[1] = 0;
        wdl[2] = score > 0 ? 0 : 1000;
        return;
    }
    double w, l;
    wdl_probabilities(&WDL_MODEL, score, material, &w, &l);
    wdl[0] = (int)(1000 * w + 0.5);
    wdl[2] = (int)(1000 * l + 0.5);
    if (wdl[0] + wdl[2] > 1000)
        wdl[2] = 1000 - wdl[0];
    wdl[1] = 1000 - wdl[0] - wdl[2];
}

int score_expected(int score, int material)
{
    int wdl[3];
    score_wdl(score, material, wdl);
    return wdl[0] + wdl[1] / 2;
}
