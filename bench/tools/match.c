/* chuhan match: engine-vs-engine matches (see match.h).
 *
 * Threads: one worker per concurrent game, each with its own engine
 * processes and referee; they share only the Match (match_private.h),
 * under its lock: the next game to play, the results, the PGN output and
 * the game lines. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/cluster/comm.h"
#include "engine/util/clock.h"
#include "engine/util/error.h"
#include "engine/util/outfile.h"
#include "engine/util/proc.h"
#include "engine/util/rng.h"
#include "match_private.h"

static const char *const TerminationNames[TERM_NB] = {
    "checkmate",     "stalemate",      "perpetual",  "repetition draw", "60-move rule",
    "game too long", "resign adjudication", "draw adjudication", "move limit", "time forfeit",
    "illegal move",  "no move",        "crash",      "stall",
};

const char *match_termination_name(Termination t) { return t >= 0 && t < TERM_NB ? TerminationNames[t] : "?"; }


static void progress_line(Match *m, const GameRecord *rec)
{
    const MatchConfig *cfg = m->cfg;
    MatchResult *r = m->res;
    if (!cfg->out || cfg->quiet)
        return;
    char res[8];
    match_result_text(rec->result, res);
    int a = rec->red < rec->black ? rec->red : rec->black, b = rec->red < rec->black ? rec->black : rec->red;
    const long *s = r->wdl[a][b], *p = r->penta[a][b];
    EloEstimate el;
    match_elo_of(r, a, b, &el);
    char sprt[64] = "";
    if (cfg->sprt)
        snprintf(sprt, sizeof sprt, ", LLR %.2f", r->llr);
    fprintf(cfg->out, "[%ld/%ld] %s vs %s: %s (%s) | %s vs %s: W %ld D %ld L %ld, Elo %+.1f +/- %.1f, ptnml %ld %ld %ld %ld %ld%s\n",
            r->games, m->total, cfg->engines[rec->red].name, cfg->engines[rec->black].name, res, rec->reason,
            cfg->engines[a].name, cfg->engines[b].name, s[0], s[1], s[2], el.elo == 0 ? 0.0 : el.elo, el.elo_error,
            p[0], p[1], p[2], p[3], p[4], sprt);
    fflush(cfg->out);
}

/* A game's lowest time left, kept for the quantiles (under m->lock); out
 * of memory loses it from them. */
static void add_low(Match *m, int e, int64_t low)
{
    if (m->nlows[e] == m->caplows[e]) {
        long cap = m->caplows[e] ? 2 * m->caplows[e] : 256;
        int64_t *p = realloc(m->lows[e], sizeof *p * (size_t)cap);
        if (!p)
            return;
        m->lows[e] = p;
        m->caplows[e] = cap;
    }
    m->lows[e][m->nlows[e]++] = low;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The lowest clocks' median and 1st percentile into the result. */
static void clock_quantiles(Match *m)
{
    for (int e = 0; e < m->cfg->nengines; e++) {
        long n = m->nlows[e];
        m->res->clock_games[e] = n;
        if (n == 0)
            continue;
        qsort(m->lows[e], (size_t)n, sizeof *m->lows[e], cmp_i64);
        m->res->low_median_ms[e] = m->lows[e][n / 2];
        m->res->low_p01_ms[e] = m->lows[e][n / 100];
    }
}

void match_elo_of(const MatchResult *res, int i, int j, EloEstimate *out)
{
    if (penta_pairs(res->penta[i][j]) > 0)
        match_elo_penta(res->penta[i][j], out);
    else
        match_elo(res->wdl[i][j][0], res->wdl[i][j][1], res->wdl[i][j][2], out);
}

double match_llr_of(const MatchResult *res, const SprtParams *p)
{
    if (penta_pairs(res->penta[0][1]) > 0)
        return sprt_llr_penta(res->penta[0][1], p);
    return sprt_llr(res->wdl[0][1][0], res->wdl[0][1][1], res->wdl[0][1][2], p);
}

/* The game into its pair (under m->lock).  Game g and its partner g ^ 1
 * are one opening and one pair of engines (match_play_game); the first
 * engine of the pair, a, has red in the even game.  The games finish in
 * any order, so the first of the two waits in m->pair_slots. */
static void count_pair(Match *m, long g, int red, GameResult result)
{
    MatchResult *r = m->res;
    int pair = (int)((g / 2) % m->npairs);
    int a = m->pairs[pair][0], b = m->pairs[pair][1];
    int red_half = result == GAME_RED_WINS ? 2 : result == GAME_BLACK_WINS ? 0 : 1;
    int a_half = red == a ? red_half : 2 - red_half;
    int k = match_pair_game(m->pair_slots, g, a_half);
    if (k < 0) {
        r->unpaired[a][b]++;
        r->unpaired[b][a]++;
        return;
    }
    r->unpaired[a][b]--;
    r->unpaired[b][a]--;
    r->penta[a][b][k]++;
    r->penta[b][a][PENTA_N - 1 - k]++;
}
/* A game record could not be written (err: why): the games still to come
 * would be lost the same way, so the match stops; the first reason is
 * the one told.  Called under m->lock. */
static void pgn_failed(Match *m, int err)
{
    if (!m->pgn_error)
        m->pgn_error = err ? err : EIO;
    m->stop = true;
}


void match_count_game(Match *m, long g, int red, int black, GameResult result)
{
    MatchResult *r = m->res;
    r->games++;
    if (result == GAME_RED_WINS) {
        r->red_wins++;
        r->wdl[red][black][0]++;
        r->wdl[black][red][2]++;
    } else if (result == GAME_BLACK_WINS) {
        r->black_wins++;
        r->wdl[black][red][0]++;
        r->wdl[red][black][2]++;
    } else {
        r->draws++;
        r->wdl[red][black][1]++;
        r->wdl[black][red][1]++;
    }
    count_pair(m, g, red, result);
    if (m->cfg->sprt) {
        r->llr = match_llr_of(r, &m->cfg->sprt_params);
        /* the first verdict stands: games already running when it came are counted, not re-judged */
        if (r->verdict == SPRT_CONTINUE) {
            r->verdict = sprt_verdict(r->llr, &m->cfg->sprt_params);
            r->verdict_games = r->games;
            r->verdict_llr = r->llr;
        }
        if (r->verdict != SPRT_CONTINUE)
            m->stop = true;
    }
}

void match_record_game(Match *m, GameRecord *rec)
{
    MatchResult *r = m->res;
    pthread_mutex_lock(&m->lock);
    r->terminations[rec->term]++;
    int red = rec->red, black = rec->black;
    match_count_game(m, rec->index, red, black, rec->result);
    for (int c = 0; c < 2; c++) {
        int e = c == RED ? red : black;
        r->timed_moves[e] += rec->timed_moves[c];
        r->late_moves[e] += rec->late_moves[c];
        if (rec->late_worst_ms[c] > r->late_worst_ms[e])
            r->late_worst_ms[e] = rec->late_worst_ms[c];
        if (rec->clocked[c] && rec->timed_moves[c] > 0)
            add_low(m, e, rec->low_ms[c]);
    }
    progress_line(m, rec);
    /* the PGN, in game order */
    if (m->pgn) {
        m->pending[rec->index] = rec->pgn.oom ? NULL : rec->pgn.s;
        if (rec->pgn.oom)
            pgn_failed(m, ENOMEM);
        rec->pgn.s = NULL;
        rec->pgn.len = rec->pgn.cap = 0;
        rec->pgn.oom = false;
        while (m->next_write < m->total && m->pending[m->next_write]) {
            if (fputs(m->pending[m->next_write], m->pgn) == EOF)
                pgn_failed(m, errno);
            free(m->pending[m->next_write]);
            m->pending[m->next_write] = NULL;
            m->next_write++;
        }
        if (fflush(m->pgn) != 0)
            pgn_failed(m, errno);
    }
    pthread_mutex_unlock(&m->lock);
}

long match_take_game(Match *m)
{
    pthread_mutex_lock(&m->lock);
    long g = m->stop || m->next >= m->total ? -1 : m->next++;
    pthread_mutex_unlock(&m->lock);
    return g;
}

bool match_stopped(Match *m)
{
    pthread_mutex_lock(&m->lock);
    bool stop = m->stop;
    pthread_mutex_unlock(&m->lock);
    return stop;
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Match *m = w->m;
    GameRecord rec = {0};
    for (;;) {
        long g = m->ranks ? match_ranks_next(m, w) : match_take_game(m);
        if (g < 0)
            break;
        match_play_game(w, g, &rec);
        if (m->ranks)
            match_ranks_finished(m, &rec);
        else
            match_record_game(m, &rec);
    }
    free(rec.pgn.s);
    return NULL;
}

static void worker_free(Worker *w)
{
    for (int e = 0; e < MATCH_MAX_ENGINES; e++)
        me_free(w->eng[e]);
    referee_free(w->ref);
    free(w->moves.s);
}

bool match_run(const MatchConfig *cfg, MatchResult *res, char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);

    Match *m = calloc(1, sizeof *m);
    if (!m)
        return err_set(err, errlen, "out of memory");
    m->cfg = cfg;
    m->res = res;
    bool ok = true;
    Worker *workers = NULL;
    int nworkers = 0;
    pthread_mutex_init(&m->lock, NULL);
    for (int a = 0; a < cfg->nengines; a++)
        for (int b = a + 1; b < cfg->nengines; b++) {
            m->pairs[m->npairs][0] = a;
            m->pairs[m->npairs][1] = b;
            m->npairs++;
        }
    if (m->npairs == 0) {
        ok = err_set(err, errlen, "a match needs at least two engines");
        goto out;
    }
    m->total = cfg->games * m->npairs;
    m->pair_slots = calloc((size_t)(m->total + 1) / 2, 1);
    if (!m->pair_slots) {
        ok = err_set(err, errlen, "out of memory");
        goto out;
    }
    nworkers = cfg->concurrency < 1 ? 1 : cfg->concurrency;
    if (nworkers > m->total)
        nworkers = (int)m->total;
    if (!(ok = match_ranks_begin(m, nworkers, err, errlen)))
        goto out;
    for (int e = 0; e < cfg->nengines; e++)
        me_limits_text(&cfg->engines[e].limits, m->tc_text[e], sizeof m->tc_text[e]);
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    strftime(m->date, sizeof m->date, "%Y.%m.%d", &tmv);

    if (cfg->openings[0]) {
        if (!(ok = match_load_openings(cfg->openings, &m->openings, &m->nopenings, err, errlen)))
            goto out;
        m->order = malloc(sizeof(int) * (size_t)m->nopenings);
        if (!m->order) {
            ok = err_set(err, errlen, "out of memory");
            goto out;
        }
        for (int i = 0; i < m->nopenings; i++)
            m->order[i] = i;
        if (cfg->openings_random) {
            uint64_t rng = cfg->seed ^ 0x5851F42D4C957F2DULL;
            for (int i = m->nopenings - 1; i > 0; i--) {
                int j = (int)rng_below(&rng, (uint64_t)(i + 1));
                int t = m->order[i];
                m->order[i] = m->order[j];
                m->order[j] = t;
            }
        }
    }
    if (cfg->book_plies > 0) {
        char why[256];
        m->book = cfg->book[0] ? book_load_file(cfg->book, why, sizeof why) : book_load_default(why, sizeof why);
        if (!m->book) {
            ok = err_set(err, errlen, "book: %s", why);
            goto out;
        }
    }
    if (cfg->pgn[0]) {
        /* written as the games end: in place, and only a new or regular file */
        char why[512];
        m->pending = calloc((size_t)m->total, sizeof *m->pending);
        if (!m->pending) {
            ok = err_set(err, errlen, "out of memory");
            goto out;
        }
        if (cfg->resume) {
            if (!(ok = match_resume(m, err, errlen)))
                goto out;
        } else if (!(m->pgn = outfile_open(cfg->pgn, why, sizeof why))) {
            ok = err_set(err, errlen, "--pgn: %s", why);
            goto out;
        }
    }

    workers = calloc((size_t)nworkers, sizeof *workers);
    if (!workers) {
        ok = err_set(err, errlen, "out of memory");
        goto out;
    }
    for (int i = 0; i < nworkers; i++) {
        workers[i].m = m;
        workers[i].index = i;
        workers[i].ref = referee_new(cfg->rule, cfg->sixty_plies, cfg->repeats);
        if (!workers[i].ref) {
            ok = err_set(err, errlen, "out of memory");
            goto out;
        }
    }
    /* the first worker's engines start here: a command that does not work stops the match at once */
    for (int e = 0; e < cfg->nengines; e++) {
        char why[300];
        workers[0].eng[e] = me_new(&cfg->engines[e]);
        if (!workers[0].eng[e] || !me_start(workers[0].eng[e], why, sizeof why)) {
            ok = err_set(err, errlen, "engine %s: %s", cfg->engines[e].name, workers[0].eng[e] ? why : "out of memory");
            goto out;
        }
    }
    m->t0 = now_ms();
    for (int i = 1; i < nworkers; i++)
        workers[i].started = pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]) == 0;
    worker_main(&workers[0]);
    for (int i = 1; i < nworkers; i++)
        if (workers[i].started)
            pthread_join(workers[i].thread, NULL);
        else
            worker_main(&workers[i]); /* could not start a thread: its share is played here */
    match_ranks_end(m, NULL); /* the other ranks' last games come in */
    res->seconds = (double)(now_ms() - m->t0) / 1000.0;
    if (m->pgn) {
        /* games skipped after an SPRT verdict leave gaps: write the rest in order */
        for (long i = m->next_write; i < m->total; i++)
            if (m->pending[i]) {
                if (fputs(m->pending[i], m->pgn) == EOF)
                    pgn_failed(m, errno);
                free(m->pending[i]);
                m->pending[i] = NULL;
            }
        if (fflush(m->pgn) != 0)
            pgn_failed(m, errno);
        if (m->pgn_error)
            ok = err_set(err, errlen, "cannot write %s: %s", cfg->pgn, strerror(m->pgn_error));
    }
out:
    match_ranks_end(m, ok ? NULL : err);
    clock_quantiles(m);
    if (workers)
        for (int i = 0; i < nworkers; i++)
            worker_free(&workers[i]);
    free(workers);
    if (m->pgn && fclose(m->pgn) && ok)
        ok = err_set(err, errlen, "cannot write %s: %s", cfg->pgn, strerror(errno));
    if (m->pending)
        for (long i = 0; i < m->total; i++)
            free(m->pending[i]);
    free(m->pending);
    for (int i = 0; i < m->nopenings; i++)
        free(m->openings[i].moves);
    free(m->openings);
    free(m->order);
    free(m->pair_slots);
    book_free(m->book);
    for (int e = 0; e < MATCH_MAX_ENGINES; e++)
        free(m->lows[e]);
    pthread_mutex_destroy(&m->lock);
    free(m);
    return ok;
}

/* ---- the summary ---- */

/* "Elo +12.3 +/- 4.5" (label "Elo"), "+inf" when unbounded. */
static void value_text(const char *label, long games, double v, double err, char *out, size_t len)
{
    if (games == 0)
        snprintf(out, len, "no games");
    else if (isinf(v))
        snprintf(out, len, "%s %s", label, v > 0 ? "+inf" : "-inf");
    else if (isinf(err))
        snprintf(out, len, "%s %+.1f +/- inf", label, v == 0 ? 0.0 : v);
    else
        snprintf(out, len, "%s %+.1f +/- %.1f", label, v == 0 ? 0.0 : v, err);
}

static void elo_text(const EloEstimate *e, char *out, size_t len)
{
    value_text("Elo", e->games, e->elo, e->elo_error, out, len);
}

/* The pairs of i against j: the counts, their Elo and nElo, and the
 * games left out. */
static void print_pairs(FILE *out, const MatchConfig *cfg, const MatchResult *res, int i, int j)
{
    const long *p = res->penta[i][j];
    EloEstimate e;
    match_elo_penta(p, &e);
    fprintf(out, "%s vs %s: Pentanomial [0-2]: %ld %ld %ld %ld %ld (%ld pairs)", cfg->engines[i].name,
            cfg->engines[j].name, p[0], p[1], p[2], p[3], p[4], e.pairs);
    if (e.pairs > 0) {
        char et[64], nt[64];
        elo_text(&e, et, sizeof et);
        value_text("nElo", e.games, e.nelo, e.nelo_error, nt, sizeof nt);
        fprintf(out, ", %s, %s (95%%), LOS %.1f%%", et, nt, 100 * e.los);
    } else {
        fprintf(out, ": the Elo above is of the games");
    }
    long u = res->unpaired[i][j];
    if (u > 0)
        fprintf(out, "; %ld game%s of an incomplete pair left out", u, u == 1 ? "" : "s");
    fprintf(out, "\n");
}

void match_print_summary(FILE *out, const MatchConfig *cfg, const MatchResult *res)
{
    if (!out)
        return;
    fprintf(out, "\nFinished %ld games in %.1f s (red wins %ld, black wins %ld, draws %ld)\n", res->games,
            res->seconds, res->red_wins, res->black_wins, res->draws);
    if (res->resumed)
        fprintf(out, "Of them %ld resumed from the PGN: the endings and the clocks below are of the other %ld\n",
                res->resumed, res->games - res->resumed);
    if (cfg->nengines > 2) {
        fprintf(out, "%-4s %-24s %7s %8s %7s\n", "Rank", "Name", "Games", "Points", "Score");
        int order[MATCH_MAX_ENGINES];
        double pts[MATCH_MAX_ENGINES];
        long games[MATCH_MAX_ENGINES];
        for (int i = 0; i < cfg->nengines; i++) {
            order[i] = i;
            pts[i] = 0;
            games[i] = 0;
            for (int j = 0; j < cfg->nengines; j++) {
                pts[i] += (double)res->wdl[i][j][0] + 0.5 * (double)res->wdl[i][j][1];
                games[i] += res->wdl[i][j][0] + res->wdl[i][j][1] + res->wdl[i][j][2];
            }
        }
        for (int i = 1; i < cfg->nengines; i++)
            for (int k = i; k > 0 && pts[order[k]] > pts[order[k - 1]]; k--) {
                int t = order[k];
                order[k] = order[k - 1];
                order[k - 1] = t;
            }
        for (int i = 0; i < cfg->nengines; i++) {
            int e = order[i];
            fprintf(out, "%-4d %-24s %7ld %8.1f %6.1f%%\n", i + 1, cfg->engines[e].name, games[e], pts[e],
                    games[e] ? 100.0 * pts[e] / (double)games[e] : 0.0);
        }
    }
    for (int a = 0; a < cfg->nengines; a++)
        for (int b = a + 1; b < cfg->nengines; b++) {
            const long *s = res->wdl[a][b];
            EloEstimate g, e; /* of the games; the one given: of the pairs when there are */
            match_elo(s[0], s[1], s[2], &g);
            match_elo_of(res, a, b, &e);
            char et[64];
            elo_text(&e, et, sizeof et);
            fprintf(out, "%s vs %s: %ld games, W %ld D %ld L %ld, score %.1f%%, %s (95%%), LOS %.1f%%, draw ratio %.1f%%\n",
                    cfg->engines[a].name, cfg->engines[b].name, g.games, s[0], s[1], s[2], 100 * g.score, et,
                    100 * e.los, 100 * g.draw_ratio);
            if (g.games > 0)
                print_pairs(out, cfg, res, a, b);
        }
    if (cfg->sprt) {
        double lo, hi;
        sprt_bounds(&cfg->sprt_params, &lo, &hi);
        const char *v = res->verdict == SPRT_ACCEPT_H1 ? "H1 accepted"
                      : res->verdict == SPRT_ACCEPT_H0 ? "H0 accepted"
                                                       : "no verdict yet";
        char when[96] = "";
        if (res->verdict != SPRT_CONTINUE)
            snprintf(when, sizeof when, " after %ld games (LLR %.2f)", res->verdict_games, res->verdict_llr);
        long pairs = penta_pairs(res->penta[0][1]);
        char from[64];
        if (pairs > 0)
            snprintf(from, sizeof from, "pentanomial, %ld pair%s", pairs, pairs == 1 ? "" : "s");
        else
            snprintf(from, sizeof from, "trinomial, %ld game%s", res->games, res->games == 1 ? "" : "s");
        fprintf(out, "SPRT (elo0 %.1f, elo1 %.1f, alpha %.3f, beta %.3f): LLR %.2f (bounds %.2f, %.2f; %s): %s%s\n",
                cfg->sprt_params.elo0, cfg->sprt_params.elo1, cfg->sprt_params.alpha, cfg->sprt_params.beta, res->llr,
                lo, hi, from, v, when);
    }
    fprintf(out, "Endings:");
    bool any = false;
    for (int t = 0; t < TERM_NB; t++)
        if (res->terminations[t]) {
            fprintf(out, "%s %ld %s", any ? "," : "", res->terminations[t], TerminationNames[t]);
            any = true;
        }
    fprintf(out, "%s\n", any ? "" : " none");
    for (int e = 0; e < cfg->nengines; e++) {
        if (!res->timed_moves[e])
            continue;
        fprintf(out, "Time of %s: %ld moves, %ld over the time left by at most the %lld ms margin", cfg->engines[e].name,
                res->timed_moves[e], res->late_moves[e], (long long)cfg->engines[e].limits.margin_ms);
        if (res->late_moves[e])
            fprintf(out, " (worst +%lld ms)", (long long)res->late_worst_ms[e]);
        if (res->clock_games[e])
            fprintf(out, "; lowest clock of a game: median %lld ms, 1st percentile %lld ms",
                    (long long)res->low_median_ms[e], (long long)res->low_p01_ms[e]);
        fprintf(out, "\n");
    }
    fflush(out);
}

/* ---- chuhan match ---- */

int match_cli(int argc, char **argv)
{
    /* Under mpirun every rank runs the match (match_ranks.c); rank 0 alone
     * speaks and writes the PGN, the others only play. */
    bool root = comm_rank() == 0;
    if (proc_unavailable()) {
        fprintf(stderr, "chuhan match: %s\n", proc_unavailable());
        return 2;
    }
    if (argc == 0)
        return root ? match_usage() : 2;
    MatchConfig *cfg = calloc(1, sizeof *cfg);
    MatchResult *res = calloc(1, sizeof *res);
    int status = 1;
    char err[512];
    if (!cfg || !res) {
        fprintf(stderr, "match: out of memory\n");
        goto out;
    }
    match_config_default(cfg);
    if (!match_parse_args(argc, argv, cfg, err, sizeof err)) {
        if (!root)
            status = 2;
        else {
            if (*err)
                fprintf(stderr, "%s\n", err);
            status = match_usage();
        }
        goto out;
    }
    if (!root) {
        cfg->out = NULL;
        cfg->quiet = true;
        cfg->pgn[0] = 0;
    }
    if (!match_run(cfg, res, err, sizeof err)) {
        if (root) {
            fprintf(stderr, "match: %s\n", err);
            if (res->games)
                match_print_summary(stdout, cfg, res);
        }
        goto out;
    }
    if (root)
        match_print_summary(stdout, cfg, res);
    status = 0;
out:
    free(cfg);
    free(res);
    return status;
}
