/* chuhan spsa: SPSA tuning of the search's tunables by matches (spsa.h).
 * The arithmetic first (pure, seeded), then the arguments, the check that
 * the engine has the tunables, and the loop of matches. */
#include "spsa.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/util/clock.h"
#include "engine/util/error.h"
#include "engine/util/num.h"
#include "engine/util/outfile.h"
#include "engine/util/proc.h"
#include "engine/util/rng.h"

/* Spall's exponents, the ones his 1998 guidelines give. */
#define SPSA_ALPHA 0.602
#define SPSA_GAMMA 0.101

/* ---- the arithmetic ---- */

void spsa_init(Spsa *s, long iterations, double rate, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->iterations = iterations > 0 ? iterations : 1;
    s->rate = rate;
    s->rng = seed ^ 0x53505341ULL; /* "SPSA": a stream apart from the match's */
}

bool spsa_add(Spsa *s, const char *name, double value, int min, int max, double step, char *err, size_t errlen)
{
    if (s->n == SPSA_MAX_PARAMS)
        return err_set(err, errlen, "at most %d parameters", SPSA_MAX_PARAMS);
    if (strlen(name) >= TUNABLE_NAME_MAX)
        return err_set(err, errlen, "parameter name '%s' is too long", name);
    if (min > max || !(step > 0))
        return err_set(err, errlen, "%s: the range %d..%d or the step %g is bad", name, min, max, step);
    if (!(value >= min && value <= max))
        return err_set(err, errlen, "%s: %g is outside %d..%d", name, value, min, max);
    SpsaParam *p = &s->p[s->n++];
    snprintf(p->name, sizeof p->name, "%s", name);
    p->value = value;
    p->min = min;
    p->max = max;
    p->step = step;
    p->sign = 1;
    return true;
}

static double clamp(double v, int min, int max) { return v < min ? min : v > max ? max : v; }

static int rounded(double v, int min, int max) { return (int)lround(clamp(v, min, max)); }

double spsa_c(const Spsa *s, int i) { return s->p[i].step / pow((double)(s->k + 1), SPSA_GAMMA); }

void spsa_perturb(Spsa *s, int *plus, int *minus)
{
    for (int i = 0; i < s->n; i++) {
        SpsaParam *p = &s->p[i];
        p->sign = rng_next(&s->rng) & 1 ? 1 : -1;
        double c = spsa_c(s, i);
        plus[i] = rounded(p->value + c * p->sign, p->min, p->max);
        minus[i] = rounded(p->value - c * p->sign, p->min, p->max);
    }
}

void spsa_update(Spsa *s, double result)
{
    double k = (double)(s->k + 1), big_a = (double)s->iterations / 10;
    /* a_k / c_k, with a = rate * step^2 * (A + 1)^alpha, c = step */
    double gain = s->rate * pow((big_a + 1) / (big_a + k), SPSA_ALPHA) * pow(k, SPSA_GAMMA);
    for (int i = 0; i < s->n; i++) {
        SpsaParam *p = &s->p[i];
        p->value = clamp(p->value + gain * p->step * result * p->sign, p->min, p->max);
    }
    s->k++;
}

int spsa_value(const Spsa *s, int i) { return rounded(s->p[i].value, s->p[i].min, s->p[i].max); }

/* ---- the arguments ---- */

static int spsa_usage(void)
{
    fprintf(stderr,
            "usage: chuhan spsa --engine cmd=CMD [option.X=V ...] --each nodes=N|tc=..|movetime=..|depth=..\n"
            "                   --iterations N [options]\n"
            "SPSA tuning of the search's tunables: each iteration plays game pairs of the engine with the\n"
            "tuned values perturbed up (theta+) against down (theta-) and moves them by the result.  Run it\n"
            "from an SPSA build (make SPSA=1), whose tunables the engine, the same build, must list.\n"
            "  --engine ...       the engine, once, as for chuhan match (proto uci); it plays with\n"
            "                     OwnBook=false unless an option.OwnBook says otherwise\n"
            "  --each ...         the limits of a move, as for chuhan match (nodes=N is the usual)\n"
            "  --iterations N     SPSA iterations (the gains are planned for N)\n"
            "  --pairs N          game pairs (both colours of one opening) per iteration (default 1)\n"
            "  --params A,B,...   the tunables to tune (default all; --list shows them)\n"
            "  --rate R           the first iteration moves by R steps per unit of result (default 1)\n"
            "  --start FILE       start from 'name value' lines (as --out writes), not the defaults\n"
            "  --every N          print the values every N iterations (default 10)\n"
            "  --out FILE         write the final values there, 'name value' lines\n"
            "  --list             the tunables: name, default, min, max, step\n"
            "  --concurrency N, --seed N, --book-plies N (default 8), --openings FILE, --book FILE, --rule,\n"
            "  --sixty, --repeats, --maxmoves, --resign, --draw: as for chuhan match (openings from a file\n"
            "                     are taken in a random order, a new one each iteration)\n");
    return 2;
}

static int find_tunable(const TunableInfo *t, int n, const char *name, size_t len)
{
    for (int i = 0; i < n; i++)
        if (strlen(t[i].name) == len && !strncasecmp(t[i].name, name, len))
            return i;
    return -1;
}

/* --params A,B,C: indices into the tunables, each once. */
static bool parse_params(const char *list, const TunableInfo *t, int n, SpsaConfig *cfg, char *err, size_t errlen)
{
    cfg->ntuned = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        int i = find_tunable(t, n, p, len);
        if (i < 0)
            return err_set(err, errlen, "spsa: --params: no tunable '%.*s' (--list shows them)", (int)len, p);
        for (int j = 0; j < cfg->ntuned; j++)
            if (cfg->tuned[j] == i)
                return err_set(err, errlen, "spsa: --params: %s twice", t[i].name);
        cfg->tuned[cfg->ntuned++] = i;
        p += len + (p[len] == ',');
    }
    if (!cfg->ntuned)
        return err_set(err, errlen, "spsa: --params: name at least one tunable");
    return true;
}

/* A match's option that an iteration sets itself. */
static bool not_spsa(const char *const *w, int n, void *dest, char *why, size_t len)
{
    (void)w, (void)n, (void)dest;
    return err_set(why, len, "not an spsa option (--pairs sets the games of an iteration)");
}

/* A file's name into a field of the config. */
static bool copy_name(char *dst, size_t size, const char *src, const char *what, char *err, size_t errlen)
{
    if (!src)
        return true;
    if (!*src || strlen(src) >= size)
        return err_set(err, errlen, "spsa: %s must name a file (under %zu bytes)", what, size);
    snprintf(dst, size, "%s", src);
    return true;
}

static bool spec_has_option(const EngineSpec *e, const char *name)
{
    for (int i = 0; i < e->noptions; i++)
        if (!strcasecmp(e->options[i].name, name))
            return true;
    return false;
}

/* spsa's own options, then the match's (the first of a name is the one read). */
#define SPSA_OWN_OPTIONS 12

/* The options once read (args_read), into cfg; false with the reason. */
static bool spsa_finish(MatchArgs *a, const TunableInfo *tunables, int ntunables, const char *params, SpsaConfig *cfg,
                        char *err, size_t errlen)
{
    if (ntunables <= 0)
        return err_set(err, errlen, "spsa: this build has no search tunables: build it with make SPSA=1 and run its "
                                    "chuhan spsa (build/...-spsa/chuhan)");
    if (cfg->list)
        return true;
    for (int i = 0; i < ntunables && i < SPSA_MAX_PARAMS; i++)
        cfg->tuned[cfg->ntuned++] = i;
    if (params && !parse_params(params, tunables, ntunables, cfg, err, errlen))
        return false;
    if (a->nengines != 1)
        return err_set(err, errlen, "spsa: give the engine once: --engine cmd=CMD ... (theta+ and theta- are both it)");
    if (!cfg->iterations)
        return err_set(err, errlen, "spsa: --iterations N is needed");
    /* theta+ and theta- are the one engine */
    a->engine[1] = a->engine[0];
    a->nwords[1] = a->nwords[0];
    a->nengines = 2;
    bool openings = a->openings != NULL;
    if (a->book_plies < 0)
        a->book_plies = openings ? 0 : 8;
    if (!match_args_finish(a, "spsa", err, errlen))
        return false;
    MatchConfig *m = &cfg->match;
    if (m->engines[0].proto != PROTO_UCI)
        return err_set(err, errlen, "spsa: the engine must speak UCI (its tunables are set by name)");
    for (int j = 0; j < cfg->ntuned; j++)
        if (spec_has_option(&m->engines[0], tunables[cfg->tuned[j]].name))
            return err_set(err, errlen, "spsa: option.%s is tuned here: leave it out of --params to fix it",
                           tunables[cfg->tuned[j]].name);
    int own_book = !spec_has_option(&m->engines[0], "OwnBook");
    if (m->engines[0].noptions + cfg->ntuned + own_book > ME_MAX_OPTIONS)
        return err_set(err, errlen, "spsa: too many options: %d given and %d tuned, at most %d in all",
                       m->engines[0].noptions, cfg->ntuned, ME_MAX_OPTIONS - own_book);
    for (int e = 0; e < 2; e++) {
        EngineSpec *s = &m->engines[e];
        snprintf(s->name, sizeof s->name, "%s", e ? "theta-" : "theta+");
        if (own_book) {
            snprintf(s->options[s->noptions].name, sizeof s->options[0].name, "OwnBook");
            snprintf(s->options[s->noptions++].value, sizeof s->options[0].value, "false");
        }
    }
    m->openings_random = openings; /* a new order each iteration, by its seed */
    m->games = 2L * cfg->pairs;
    m->quiet = true;
    return true;
}

bool spsa_parse_args(int argc, char **argv, const TunableInfo *tunables, int ntunables, SpsaConfig *cfg, char *err,
                     size_t errlen)
{
    memset(cfg, 0, sizeof *cfg);
    match_config_default(&cfg->match);
    MatchArgs *a = malloc(sizeof *a);
    if (!a)
        return err_set(err, errlen, "spsa: out of memory");
    long pairs = 1;
    const char *params = NULL, *out = NULL, *start = NULL;
    cfg->rate = 1;
    cfg->every = 10;
    ArgOption opts[SPSA_OWN_OPTIONS + MATCH_ARG_OPTIONS];
    const ArgOption own[SPSA_OWN_OPTIONS] = {
        ARG_LONG("--iterations", &cfg->iterations, 1, 100000000),
        ARG_LONG("--pairs", &pairs, 1, 100000),
        ARG_TEXT("--params", &params),
        ARG_DOUBLE("--rate", &cfg->rate, 1e-6, 1000),
        ARG_LONG("--every", &cfg->every, 1, 100000000),
        ARG_TEXT("--out", &out),
        ARG_TEXT("--start", &start),
        ARG_FLAG("--list", &cfg->list, true),
        ARG_WORDS("--games", NULL, 0, not_spsa),
        ARG_WORDS("--sprt", NULL, 0, not_spsa),
        ARG_WORDS("--pgn", NULL, 0, not_spsa),
        ARG_WORDS("--openings-random", NULL, 0, not_spsa),
    };
    memcpy(opts, own, sizeof own);
    size_t n = SPSA_OWN_OPTIONS + match_arg_options(a, &cfg->match, opts + SPSA_OWN_OPTIONS);
    a->book_plies = -1; /* not given: 8, or none with --openings */
    const ArgSpec spec = {"spsa", opts, n, NULL, 0};
    bool ok = args_read(&spec, argc, argv, NULL, err, errlen);
    cfg->pairs = (int)pairs;
    ok = ok && copy_name(cfg->out, sizeof cfg->out, out, "--out", err, errlen)
         && copy_name(cfg->start, sizeof cfg->start, start, "--start", err, errlen)
         && spsa_finish(a, tunables, ntunables, params, cfg, err, errlen);
    /* the values' file, checked before the iterations rather than after them */
    char why[512];
    if (ok && !cfg->list && cfg->out[0] && !outfile_check(cfg->out, why, sizeof why))
        ok = err_set(err, errlen, "spsa: --out: %s", why);
    free(a);
    return ok;
}

/* ---- start values, the engine's check, the loop ---- */

/* "name value" lines (# comments and blank lines skipped) into the values
 * of the tunables they name; false with the file's line that is bad. */
static bool read_start(const char *path, const TunableInfo *t, int n, double *values, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return err_set(err, errlen, "--start %s: cannot open it", path);
    char line[256];
    bool ok = true;
    for (int no = 1; ok && fgets(line, sizeof line, f); no++) {
        char name[TUNABLE_NAME_MAX + 1], value[64], extra[2];
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p || *p == '#')
            continue;
        int got = sscanf(p, "%32s %63s %1s", name, value, extra);
        int i = got >= 1 ? find_tunable(t, n, name, strlen(name)) : -1;
        long v;
        if (got != 2 || (!strchr(line, '\n') && !feof(f)))
            ok = err_set(err, errlen, "--start %s:%d: not a 'name value' line", path, no);
        else if (i < 0)
            ok = err_set(err, errlen, "--start %s:%d: no tunable '%s'", path, no, name);
        else if (!num_parse(value, t[i].min, t[i].max, &v))
            ok = err_set(err, errlen, "--start %s:%d: %s must be from %d to %d, not '%s'", path, no, t[i].name,
                         t[i].min, t[i].max, value);
        else
            values[i] = (double)v;
    }
    if (ok && ferror(f))
        ok = err_set(err, errlen, "--start %s: read error", path);
    fclose(f);
    return ok;
}

/* The engine lists each tuned tunable as a spin option of the same range:
 * otherwise its setoption would be refused game after game, unseen, and
 * the run would tune nothing. */
static bool check_engine(const EngineSpec *spec, const TunableInfo *t, const SpsaConfig *cfg, char *err,
                         size_t errlen)
{
    Proc proc = {0};
    if (!me_spawn(spec, &proc, err, errlen))
        return false;
    bool listed[SPSA_MAX_PARAMS] = {false}, ok = false;
    int64_t deadline = now_ms() + spec->limits.timeout_ms;
    /* an engine that writes before reading (or exits) may have refused the
     * write and still have answered: its lines are read either way */
    bool sent = proc_write(&proc, "uci\n", 4, 5000);
    while (proc_read_line(&proc, deadline) > 0) {
        const char *l = proc.out.line;
        if (!strcmp(l, "uciok")) {
            ok = true;
            break;
        }
        MeOption o;
        if (!me_parse_option(l, &o) || strcmp(o.type, "spin") || !o.has_min || !o.has_max)
            continue;
        for (int j = 0; j < cfg->ntuned; j++) {
            const TunableInfo *ti = &t[cfg->tuned[j]];
            if (!strcmp(ti->name, o.name) && o.min == ti->min && o.max == ti->max)
                listed[j] = true;
        }
    }
    if (sent)
        proc_write(&proc, "quit\n", 5, 1000);
    proc_close_input(&proc);
    proc_wait(&proc, now_ms() + 2000);
    proc_kill(&proc);
    if (!ok)
        return err_set(err, errlen, "'%s' did not answer uci with uciok", spec->cmd);
    for (int j = 0; j < cfg->ntuned; j++)
        if (!listed[j])
            return err_set(err, errlen, "'%s' does not list %s as a spin option from %d to %d: is it this tuning "
                           "build (make SPSA=1)?", spec->cmd, t[cfg->tuned[j]].name, t[cfg->tuned[j]].min,
                           t[cfg->tuned[j]].max);
    return true;
}

static void print_values(FILE *out, const Spsa *s)
{
    for (int i = 0; i < s->n; i++)
        fprintf(out, "%s %d\n", s->p[i].name, spsa_value(s, i));
    fflush(out);
}

/* theta+ and theta- as the engines' options, after the spec's own. */
static void set_engines(MatchConfig *m, const SpsaConfig *cfg, const Spsa *s, const int *plus, const int *minus)
{
    for (int e = 0; e < 2; e++) {
        EngineSpec *spec = &m->engines[e];
        *spec = cfg->match.engines[e];
        for (int i = 0; i < s->n; i++) {
            snprintf(spec->options[spec->noptions].name, sizeof spec->options[0].name, "%s", s->p[i].name);
            snprintf(spec->options[spec->noptions++].value, sizeof spec->options[0].value, "%d",
                     e ? minus[i] : plus[i]);
        }
    }
}

/* The iterations; false with the reason when a match cannot be played.
 * games: those played. */
static bool run(const SpsaConfig *cfg, Spsa *s, long *games, char *err, size_t errlen)
{
    MatchConfig *m = malloc(sizeof *m);
    MatchResult *res = malloc(sizeof *res);
    bool ok = m && res;
    if (!ok)
        err_set(err, errlen, "out of memory");
    int plus[SPSA_MAX_PARAMS], minus[SPSA_MAX_PARAMS];
    long w = 0, d = 0, l = 0, pt[PENTA_N] = {0}; /* all iterations' games and pairs, theta+'s view */
    int64_t t0 = now_ms();
    while (ok && s->k < cfg->iterations) {
        spsa_perturb(s, plus, minus);
        *m = cfg->match;
        m->seed = cfg->match.seed + (uint64_t)s->k; /* new openings each iteration */
        m->out = NULL;
        set_engines(m, cfg, s, plus, minus);
        if (!(ok = match_run(m, res, err, errlen)))
            break;
        const long *r = res->wdl[0][1], *p = res->penta[0][1];
        *games += res->games;
        w += r[0], d += r[1], l += r[2];
        for (int k = 0; k < PENTA_N; k++)
            pt[k] += p[k];
        double pairs = res->games ? (double)res->games / 2 : 1;
        double result = (double)(r[0] - r[2]) / pairs;
        spsa_update(s, result);
        /* the pairs by theta+'s points over each, times 2: [0-2] */
        printf("iteration %ld/%ld: theta+ vs theta- W %ld D %ld L %ld, ptnml %ld %ld %ld %ld %ld, result %+.2f "
               "(games %ld: W %ld D %ld L %ld, ptnml %ld %ld %ld %ld %ld, %.0f s)\n",
               s->k, cfg->iterations, r[0], r[1], r[2], p[0], p[1], p[2], p[3], p[4], result, *games, w, d, l, pt[0],
               pt[1], pt[2], pt[3], pt[4], (double)(now_ms() - t0) / 1000);
        if (s->k % cfg->every == 0 && s->k < cfg->iterations) {
            printf("values after %ld iterations:\n", s->k);
            print_values(stdout, s);
        }
        fflush(stdout);
    }
    free(m);
    free(res);
    return ok;
}

static bool write_values(const char *path, const Spsa *s, char *err, size_t errlen)
{
    OutFile o;
    if (!outfile_begin(&o, path, err, errlen))
        return false;
    print_values(o.f, s);
    return outfile_commit(&o, err, errlen);
}

int spsa_cli(int argc, char **argv)
{
    if (proc_unavailable()) {
        fprintf(stderr, "chuhan spsa: %s\n", proc_unavailable());
        return 2;
    }
    int nt = tunables_count();
    TunableInfo tunables[SPSA_MAX_PARAMS];
    for (int i = 0; i < nt; i++)
        tunables[i] = *tunables_info(i);
    if (argc == 0)
        return spsa_usage();
    SpsaConfig *cfg = malloc(sizeof *cfg);
    Spsa *s = malloc(sizeof *s);
    int status = 1;
    char err[600];
    if (!cfg || !s) {
        fprintf(stderr, "spsa: out of memory\n");
        goto out;
    }
    if (!spsa_parse_args(argc, argv, tunables, nt, cfg, err, sizeof err)) {
        if (*err)
            fprintf(stderr, "%s\n", err);
        status = spsa_usage();
        goto out;
    }
    if (cfg->list) {
        for (int i = 0; i < nt; i++)
            printf("%s %d %d %d %d\n", tunables[i].name, tunables[i].def, tunables[i].min, tunables[i].max,
                   tunables[i].step);
        status = 0;
        goto out;
    }
    double start[SPSA_MAX_PARAMS];
    for (int i = 0; i < nt; i++)
        start[i] = tunables[i].def;
    if (cfg->start[0] && !read_start(cfg->start, tunables, nt, start, err, sizeof err)) {
        fprintf(stderr, "spsa: %s\n", err);
        goto out;
    }
    spsa_init(s, cfg->iterations, cfg->rate, cfg->match.seed);
    for (int j = 0; j < cfg->ntuned; j++) {
        const TunableInfo *t = &tunables[cfg->tuned[j]];
        if (!spsa_add(s, t->name, start[cfg->tuned[j]], t->min, t->max, t->step, err, sizeof err)) {
            fprintf(stderr, "spsa: %s\n", err);
            goto out;
        }
    }
    if (!check_engine(&cfg->match.engines[0], tunables, cfg, err, sizeof err)) {
        fprintf(stderr, "spsa: %s\n", err);
        goto out;
    }
    printf("SPSA: %d tunables, %ld iterations of %d game pairs, rate %g, seed %llu\n", s->n, cfg->iterations,
           cfg->pairs, cfg->rate, (unsigned long long)cfg->match.seed);
    fflush(stdout);
    long games = 0;
    bool ok = run(cfg, s, &games, err, sizeof err);
    if (!ok)
        fprintf(stderr, "spsa: %s\n", err);
    printf("values after %ld iterations (%ld games):\n", s->k, games);
    print_values(stdout, s);
    if (cfg->out[0] && !write_values(cfg->out, s, err, sizeof err)) {
        fprintf(stderr, "spsa: --out: %s\n", err);
        ok = false;
    }
    status = ok ? 0 : 1;
out:
    free(cfg);
    free(s);
    return status;
}
