/* Match statistics: the Elo difference with its error bar, the likelihood
 * of superiority, and the sequential probability ratio test, for one
 * engine against another; logistic Elo: expected score
 * 1 / (1 + 10^(-elo / 400)).
 *
 * Two models.  The trinomial one counts the wins, draws and losses of
 * single games.  The pentanomial one counts game pairs (one opening played
 * twice, the colours reversed) by the engine's points over the pair: 0,
 * 1/2, 1, 3/2 or 2.  The two games of a pair are not independent (an
 * opening that favours one colour gives each engine the same edge once),
 * so the pair is the unit whose variance is right; the trinomial model
 * overstates it when the openings are unbalanced.  The formulas are
 * fishtest's (Michel Van den Bergh's notes on the GSPRT and normalized
 * Elo): see match_stats.c. */
#ifndef CHUHAN_MATCH_STATS_H
#define CHUHAN_MATCH_STATS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    long games;
    long pairs;        /* the game pairs of a pentanomial estimate (games = 2 pairs); 0 for a trinomial one */
    double score;      /* points per game, 0..1 */
    double draw_ratio; /* draws per game (trinomial only) */
    double elo;        /* +-INFINITY when every game was won (lost) */
    double elo_error;  /* half the width of the 95% interval, in Elo (INFINITY if unbounded) */
    /* Normalized Elo: (score - 1/2) over the standard deviation of a
     * game's score, times 800 / ln 10, so that it is the logistic Elo of
     * small differences without draws; the games a test needs go as
     * 1 / nElo^2, whatever the draw ratio.  +-INFINITY (error INFINITY)
     * when the scores do not vary. */
    double nelo, nelo_error;
    double los;        /* likelihood of superiority, 0..1 */
} EloEstimate;

void match_elo(long wins, long draws, long losses, EloEstimate *out);

/* Pentanomial counts: penta[k] game pairs in which the engine scored k/2
 * points (0: two losses .. 4: two wins). */
#define PENTA_N 5
void match_elo_penta(const long penta[PENTA_N], EloEstimate *out);
long penta_pairs(const long penta[PENTA_N]);

/* Pairing the games of a match as they finish, in any order: games 2k and
 * 2k+1 are pair k.  slots: one zeroed byte per pair, the caller's.  g: the
 * game; half_points: the points (times 2: 0, 1, 2) in it of the engine
 * that has red in the even game.  Returns that engine's points over the
 * pair, times 2 (0..4), when g completes it; -1 while its other game is
 * not in (or when g was counted already). */
int match_pair_game(unsigned char *slots, long g, int half_points);

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
/* The same from game pairs (the pentanomial model). */
double sprt_llr_penta(const long penta[PENTA_N], const SprtParams *p);
/* The bounds: lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha). */
void sprt_bounds(const SprtParams *p, double *lower, double *upper);
SprtVerdict sprt_verdict(double llr, const SprtParams *p);
/* Parse "elo0=0 elo1=5 alpha=0.05 beta=0.05" words (any order, each
 * optional: defaults 0, 5, 0.05, 0.05).  False with a reason. */
bool sprt_parse(const char *const *words, int n, SprtParams *p, char *err, size_t errlen);

#endif
