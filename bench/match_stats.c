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

/* Per-game variance of the score. */
static double score_variance(long w, long d, long l, double s)
{
    double n = (double)(w + d + l);
    return ((double)w * (1 - s) * (1 - s) + (double)d * (0.5 - s) * (0.5 - s) + (double)l * s * s) / n;
}

void match_elo(long w, long d, long l, EloEstimate *out)
{
    memset(out, 0, sizeof *out);
    long n = w + d + l;
    out->games = n;
    out->los = 0.5;
    if (n <= 0)
        return;
    double s = ((double)w + 0.5 * (double)d) / (double)n;
    out->score = s;
    out->draw_ratio = (double)d / (double)n;
    out->elo = elo_from_score(s);
    double sd = sqrt(score_variance(w, d, l, s) / (double)n);
    const double z95 = 1.959963984540054;
    double lo = s - z95 * sd, hi = s + z95 * sd;
    if (lo <= 0 || hi >= 1)
        out->elo_error = INFINITY;
    else
        out->elo_error = (elo_from_score(hi) - elo_from_score(lo)) / 2;
    if (w + l > 0)
        out->los = 0.5 * (1 + erf((double)(w - l) / sqrt(2.0 * (double)(w + l))));
}

double sprt_llr(long w, long d, long l, const SprtParams *p)
{
    long n = w + d + l;
    if (n <= 0)
        return 0;
    double s = ((double)w + 0.5 * (double)d) / (double)n;
    double var = score_variance(w, d, l, s);
    if (var <= 0)
        return 0;
    double s0 = score_from_elo(p->elo0), s1 = score_from_elo(p->elo1);
    return (double)n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var);
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
            snprintf(err, errlen, "--sprt: expected key=number, not '%s'", words[i]);
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
            snprintf(err, errlen, "--sprt: unknown parameter '%.*s' (elo0, elo1, alpha, beta)", (int)k, words[i]);
            return false;
        }
    }
    if (!(p->alpha > 0 && p->alpha < 0.5 && p->beta > 0 && p->beta < 0.5)) {
        snprintf(err, errlen, "--sprt: alpha and beta must lie between 0 and 0.5");
        return false;
    }
    if (!(p->elo1 > p->elo0)) {
        snprintf(err, errlen, "--sprt: elo1 must be greater than elo0");
        return false;
    }
    return true;
}
