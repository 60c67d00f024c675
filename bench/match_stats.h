/* Match statistics: the Elo difference with its error bar, the likelihood
 * of superiority, and the sequential probability ratio test, from the
 * wins, draws and losses of one engine against another (the trinomial
 * model, logistic Elo: expected score 1 / (1 + 10^(-elo / 400))). */
#ifndef CHUHAN_MATCH_STATS_H
#define CHUHAN_MATCH_STATS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    long games;
    double score;      /* points per game, 0..1 */
    double draw_ratio; /* draws per game */
    double elo;        /* +-INFINITY when every game was won (lost) */
    double elo_error;  /* half the width of the 95% interval, in Elo (INFINITY if unbounded) */
    double los;        /* likelihood of superiority, 0..1 */
} EloEstimate;

void match_elo(long wins, long draws, long losses, EloEstimate *out);

/* The logistic Elo of a score and the score of an Elo difference. */
double elo_from_score(double score);
double score_from_elo(double elo);

typedef struct {
    double elo0, elo1;  /* H0: elo = elo0, H1: elo = elo1 */
    double alpha, beta; /* false-positive and false-negative rates */
} SprtParams;

typedef enum { SPRT_CONTINUE, SPRT_ACCEPT_H0, SPRT_ACCEPT_H1 } SprtVerdict;

/* The log-likelihood ratio of H1 against H0 after these games
 * (the generalised SPRT, normal approximation of the trinomial model);
 * 0 while there is no variance to estimate (no games, or all alike). */
double sprt_llr(long wins, long draws, long losses, const SprtParams *p);
/* The bounds: lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha). */
void sprt_bounds(const SprtParams *p, double *lower, double *upper);
SprtVerdict sprt_verdict(double llr, const SprtParams *p);
/* Parse "elo0=0 elo1=5 alpha=0.05 beta=0.05" words (any order, each
 * optional: defaults 0, 5, 0.05, 0.05).  False with a reason. */
bool sprt_parse(const char *const *words, int n, SprtParams *p, char *err, size_t errlen);

#endif
