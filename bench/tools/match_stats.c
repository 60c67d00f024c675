/* Elo, LOS and SPRT from match results (see match_stats.h). */
#include "match_stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double elo_from_score(double s)
{
    if (s <= 0)
        return -INFINITY;
    if (s >= 1)
        return INFINITY;
    return -400.0 * log10(1.0 / s - 1.0);
}

double score_from_elo(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

/* A distribution of scores: value x[i] (points per game, 0..1) seen
 * n[i] times; its mean and central moments. */
typedef struct {
    double n, mean, var, m3, m4;
} Moments;

static Moments moments(const double *x, const long *n, int k)
{
    Moments m = {0};
    double sum = 0;
    for (int i = 0; i < k; i++) {
        m.n += (double)n[i];
        sum += (double)n[i] * x[i];
    }
    if (m.n <= 0)
        return m;
    m.mean = sum / m.n;
    for (int i = 0; i < k; i++) {
        double d = x[i] - m.mean, d2 = d * d;
        m.var += (double)n[i] * d2;
        m.m3 += (double)n[i] * d2 * d;
        m.m4 += (double)n[i] * d2 * d2;
    }
    m.var /= m.n;
    m.m3 /= m.n;
    m.m4 /= m.n;
    return m;
}

static const double Z95 = 1.959963984540054; /* the normal quantile of 0.975 */
static const double NELO_PER_T = 800 / M_LN10; /* nElo of a t-value (Elo / score slope at 1/2, doubled) */

static const double TRI_X[3] = {1, 0.5, 0};
static const double PENTA_X[PENTA_N] = {0, 0.25, 0.5, 0.75, 1};

/* The Elo and nElo with their 95% intervals from a distribution of
 * samples, each the mean score of games_per_sample games (1: single
 * games, 2: pairs).
 *
 * Elo: the score's interval mean +- z sqrt(var / n), mapped to Elo; half
 * its width is the error.  nElo: t = (mean - 1/2) / sqrt(var) is the
 * t-value per sample; a pair's score has half the variance of a game's,
 * so per game it is t / sqrt(2) for pairs.  Its standard error is
 * sqrt(var_t / n), var_t = 1 - t skew + t^2 (excess kurtosis + 2) / 4 (the
 * delta method, as fishtest's raw statistics page computes it: exact to
 * first order also far from t = 0). */
static void estimate(const Moments *m, int games_per_sample, EloEstimate *out)
{
    double s = m->mean;
    out->score = s;
    out->elo = elo_from_score(s);
    double sd = sqrt(m->var / m->n);
    double lo = s - Z95 * sd, hi = s + Z95 * sd;
    /* no spread seen (all draws, all pairs even) says nothing of the
     * error, which is not zero: unbounded, as at a score of 0 or 1 */
    if (lo <= 0 || hi >= 1 || m->var <= 0)
        out->elo_error = INFINITY;
    else
        out->elo_error = (elo_from_score(hi) - elo_from_score(lo)) / 2;
    if (m->var <= 0) {
        out->nelo = s > 0.5 ? INFINITY : s < 0.5 ? -INFINITY : 0;
        out->nelo_error = INFINITY;
        return;
    }
    double t = (s - 0.5) / sqrt(m->var);
    double skew = m->m3 / (m->var * sqrt(m->var)), exkurt = m->m4 / (m->var * m->var) - 3;
    double var_t = 1 - t * skew + 0.25 * t * t * (exkurt + 2);
    if (var_t < 0) /* rounding only: var_t is a variance */
        var_t = 0;
    double per_game = sqrt((double)games_per_sample);
    out->nelo = NELO_PER_T * t / per_game;
    out->nelo_error = NELO_PER_T * Z95 * sqrt(var_t / m->n) / per_game;
}

void match_elo(long w, long d, long l, EloEstimate *out)
{
    memset(out, 0, sizeof *out);
    long n = w + d + l;
    out->games = n;
    out->los = 0.5;
    if (n <= 0)
        return;
    long c[3] = {w, d, l};
    Moments m = moments(TRI_X, c, 3);
    estimate(&m, 1, out);
    out->draw_ratio = (double)d / (double)n;
    if (w + l > 0)
        out->los = 0.5 * (1 + erf((double)(w - l) / sqrt(2.0 * (double)(w + l))));
}

long penta_pairs(const long penta[PENTA_N])
{
    long n = 0;
    for (int k = 0; k < PENTA_N; k++)
        n += penta[k];
    return n;
}

void match_elo_penta(const long penta[PENTA_N], EloEstimate *out)
{
    memset(out, 0, sizeof *out);
    long n = penta_pairs(penta);
    out->pairs = n;
    out->games = 2 * n;
    out->los = 0.5;
    if (n <= 0)
        return;
    Moments m = moments(PENTA_X, penta, PENTA_N);
    estimate(&m, 2, out);
    /* LOS: the probability that the true score is above 1/2, the mean
     * being normal with the pairs' variance */
    if (m.var > 0)
        out->los = 0.5 * erfc(-(m.mean - 0.5) / sqrt(2 * m.var / m.n));
    else
        out->los = m.mean > 0.5 ? 1 : m.mean < 0.5 ? 0 : 0.5;
}

int match_pair_game(unsigned char *slots, long g, int half_points)
{
    /* a slot: 0 empty; 1 + 3 * (which game) + its half points while the
     * other is awaited; DONE once both are in */
    enum { DONE = 7 };
    if (g < 0 || half_points < 0 || half_points > 2)
        return -1;
    unsigned char *slot = &slots[g / 2];
    int which = (int)(g % 2);
    if (*slot == 0) {
        *slot = (unsigned char)(1 + 3 * which + half_points);
        return -1;
    }
    if (*slot == DONE || (*slot - 1) / 3 == which)
        return -1;
    int first = (*slot - 1) % 3;
    *slot = DONE;
    return first + half_points;
}

/* The GSPRT's log-likelihood ratio with the normal approximation
 * (Van den Bergh): each sample's score is normal with the observed
 * variance, and its mean is s0 under H0, s1 under H1, so that
 * LLR = n (s1 - s0) (2 mean - s0 - s1) / (2 var), n samples. */
static double llr_of(const Moments *m, const SprtParams *p)
{
    if (m->n <= 0 || m->var <= 0)
        return 0;
    double s0 = score_from_elo(p->elo0), s1 = score_from_elo(p->elo1);
    return m->n * (s1 - s0) * (2 * m->mean - s0 - s1) / (2 * m->var);
}

double sprt_llr(long w, long d, long l, const SprtParams *p)
{
    long c[3] = {w, d, l};
    Moments m = moments(TRI_X, c, 3);
    return llr_of(&m, p);
}

/* Half a pair of each outcome added to the counts that the variance is
 * taken from (the mean stays the counts'): a handful of pairs gives a
 * variance far below the true one (two pairs of 1.5 and 2 points: 0.016
 * against the 0.05 of real matches), and the normal approximation's LLR
 * would pass a bound within four games.  Past a few dozen pairs the prior
 * weighs little. */
#define PENTA_VAR_PRIOR 0.5

double sprt_llr_penta(const long penta[PENTA_N], const SprtParams *p)
{
    /* a pair's score per game has the expectation of a game's, so the
     * same s0, s1 apply; n is the pairs, var the pairs' */
    Moments m = moments(PENTA_X, penta, PENTA_N);
    if (m.n <= 0)
        return 0;
    double n = 0, sum = 0, var = 0;
    for (int k = 0; k < PENTA_N; k++) {
        n += (double)penta[k] + PENTA_VAR_PRIOR;
        sum += ((double)penta[k] + PENTA_VAR_PRIOR) * PENTA_X[k];
    }
    for (int k = 0; k < PENTA_N; k++)
        var += ((double)penta[k] + PENTA_VAR_PRIOR) * (PENTA_X[k] - sum / n) * (PENTA_X[k] - sum / n);
    m.var = var / n;
    return llr_of(&m, p);
}

void sprt_bounds(const SprtParams *p, double *lower, double *upper)
{
    *lower = log(p->beta / (1 - p->alpha));
    *upper = log((1 - p->beta) / p->alpha);
}

SprtVerdict sprt_verdict(double llr, const SprtParams *p)
{
    double lo, hi;
    sprt_bounds(p, &lo, &hi);
    if (llr >= hi)
        return SPRT_ACCEPT_H1;
    if (llr <= lo)
        return SPRT_ACCEPT_H0;
    return SPRT_CONTINUE;
}

bool sprt_parse(const char *const *words, int n, SprtParams *p, char *err, size_t errlen)
{
    *p = (SprtParams){0, 5, 0.05, 0.05};
    for (int i = 0; i < n; i++) {
        const char *eq = strchr(words[i], '=');
        char *end;
        double v = eq ? strtod(eq + 1, &end) : 0;
        if (!eq || !eq[1] || *end || !isfinite(v)) {
            snprintf(err, errlen, "expected key=number, not '%.100s'", words[i]);
            return false;
        }
        size_t k = (size_t)(eq - words[i]);
        if (k == 4 && !strncmp(words[i], "elo0", 4))
            p->elo0 = v;
        else if (k == 4 && !strncmp(words[i], "elo1", 4))
            p->elo1 = v;
        else if (k == 5 && !strncmp(words[i], "alpha", 5))
            p->alpha = v;
        else if (k == 4 && !strncmp(words[i], "beta", 4))
            p->beta = v;
        else {
            snprintf(err, errlen, "unknown parameter '%.*s' (elo0, elo1, alpha, beta)", (int)k, words[i]);
            return false;
        }
    }
    if (!(p->alpha > 0 && p->alpha < 0.5 && p->beta > 0 && p->beta < 0.5)) {
        snprintf(err, errlen, "alpha and beta must lie between 0 and 0.5");
        return false;
    }
    if (!(p->elo1 > p->elo0)) {
        snprintf(err, errlen, "elo1 must be greater than elo0");
        return false;
    }
    return true;
}
