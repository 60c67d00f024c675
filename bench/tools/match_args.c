/* The arguments of `chuhan match` into a MatchConfig, and its usage. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/rules/rules.h"
#include "engine/util/error.h"
#include "engine/util/num.h"
#include "match_private.h"

void match_config_default(MatchConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->games = 2;
    cfg->concurrency = 1;
    cfg->rule = RULE_CXA;
    cfg->sixty_plies = 120;
    cfg->repeats = 3;
    cfg->notation = NOTATION_UCI;
    cfg->seed = 1;
    cfg->sprt_params = (SprtParams){0, 5, 0.05, 0.05};
    snprintf(cfg->event, sizeof cfg->event, "chuhan match");
    cfg->out = stdout;
}

static void default_limits(MatchLimits *l)
{
    memset(l, 0, sizeof *l);
    l->margin_ms = 200;
    l->timeout_ms = 60000;
}

/* One key=value word of --engine or --each. */
static bool engine_word(EngineSpec *e, const char *w, char *err, size_t errlen)
{
    const char *eq = strchr(w, '=');
    if (!eq)
        return err_set(err, errlen, "engine setting '%s' is not key=value", w);
    size_t k = (size_t)(eq - w);
    const char *v = eq + 1;
    long n;
#define KEY(s) (k == strlen(s) && !strncmp(w, s, k))
    if (KEY("cmd")) {
        if (!*v || strlen(v) >= sizeof e->cmd)
            return err_set(err, errlen, "cmd= must name a command (under %zu bytes)", sizeof e->cmd);
        snprintf(e->cmd, sizeof e->cmd, "%s", v);
    } else if (KEY("name")) {
        snprintf(e->name, sizeof e->name, "%s", v);
    } else if (KEY("dir")) {
        snprintf(e->dir, sizeof e->dir, "%s", v);
    } else if (KEY("proto")) {
        if (!strcasecmp(v, "uci"))
            e->proto = PROTO_UCI;
        else if (!strcasecmp(v, "ucci"))
            e->proto = PROTO_UCCI;
        else
            return err_set(err, errlen, "proto must be uci or ucci, not '%s'", v);
    } else if (k > 7 && !strncmp(w, "option.", 7)) {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(k - 7), w + 7);
        int i = 0;
        while (i < e->noptions && strcmp(e->options[i].name, name))
            i++;
        if (i == ME_MAX_OPTIONS)
            return err_set(err, errlen, "at most %d options per engine", ME_MAX_OPTIONS);
        if (i == e->noptions)
            e->noptions++;
        snprintf(e->options[i].name, sizeof e->options[i].name, "%s", name);
        snprintf(e->options[i].value, sizeof e->options[i].value, "%s", v);
    } else if (KEY("tc")) {
        if (!strcasecmp(v, "inf") || !strcasecmp(v, "none")) {
            e->limits.clock = false;
        } else if (!me_parse_tc(v, &e->limits))
            return err_set(err, errlen, "tc must be [moves/]seconds[+increment], e.g. 40/60+0.6, not '%s'", v);
    } else if (KEY("st")) { /* seconds per move, as cutechess */
        double s;
        if (!num_parse_double(v, 0, 1e6, &s) || !(s > 0))
            return err_set(err, errlen, "st must be seconds per move, not '%s'", v);
        e->limits.movetime_ms = (int64_t)(s * 1000 + 0.5);
    } else if (KEY("movetime")) {
        if (!num_parse(v, 1, 100000000, &n))
            return err_set(err, errlen, "movetime must be milliseconds, not '%s'", v);
        e->limits.movetime_ms = n;
    } else if (KEY("depth")) {
        if (!num_parse(v, 1, 1000, &n))
            return err_set(err, errlen, "depth must be a number from 1, not '%s'", v);
        e->limits.depth = (int)n;
    } else if (KEY("nodes")) {
        if (!num_parse(v, 1, LONG_MAX, &n))
            return err_set(err, errlen, "nodes must be a positive number, not '%s'", v);
        e->limits.nodes = (uint64_t)n;
    } else if (KEY("timemargin")) {
        if (!num_parse(v, 0, 100000000, &n))
            return err_set(err, errlen, "timemargin must be milliseconds, not '%s'", v);
        e->limits.margin_ms = n;
    } else if (KEY("timeout")) {
        if (!num_parse(v, 1, 100000000, &n))
            return err_set(err, errlen, "timeout must be milliseconds, not '%s'", v);
        e->limits.timeout_ms = n;
    } else {
        return err_set(err, errlen, "unknown engine setting '%.*s' (cmd, name, dir, proto, option.NAME, tc, st, "
                                 "movetime, depth, nodes, timemargin, timeout)", (int)k, w);
    }
#undef KEY
    return true;
}

/* key=value words of --resign / --draw */
static bool kv_long(const char *w, const char *key, long lo, long hi, long *out, bool *matched)
{
    size_t k = strlen(key);
    if (strncmp(w, key, k) || w[k] != '=')
        return true;
    *matched = true;
    return num_parse(w + k + 1, lo, hi, out);
}

/* ---- the options' readers (engine/util/args.h) ---- */

/* --engine: its words, checked now (so that the reason names the option)
 * and applied after --each, which may come later. */
static bool read_engine(const char *const *w, int n, void *dest, char *why, size_t len)
{
    MatchArgs *a = dest;
    if (a->nengines == MATCH_MAX_ENGINES)
        return err_set(why, len, "at most %d engines", MATCH_MAX_ENGINES);
    EngineSpec *scratch = &a->scratch;
    memset(scratch, 0, sizeof *scratch);
    for (int k = 0; k < n; k++)
        if (!engine_word(scratch, w[k], why, len))
            return false;
    a->engine[a->nengines] = w;
    a->nwords[a->nengines++] = n;
    return true;
}

static bool read_each(const char *const *w, int n, void *dest, char *why, size_t len)
{
    MatchArgs *a = dest;
    EngineSpec *scratch = &a->scratch;
    memset(scratch, 0, sizeof *scratch);
    for (int k = 0; k < n; k++) {
        if (a->neach == MATCH_MAX_EACH)
            return err_set(why, len, "at most %d settings", MATCH_MAX_EACH);
        if (!engine_word(scratch, w[k], why, len))
            return false;
        a->each[a->neach++] = w[k];
    }
    return true;
}

static bool read_sprt(const char *const *w, int n, void *dest, char *why, size_t len)
{
    MatchArgs *a = dest;
    if (!sprt_parse(w, n, &a->cfg->sprt_params, why, len))
        return false;
    a->cfg->sprt = true;
    return true;
}

static bool read_adjudication(const char *const *w, int n, MatchConfig *cfg, bool resign, char *why, size_t len)
{
    long mc = 0, sc = 0, mn = 0, two = 0;
    for (int k = 0; k < n; k++) {
        bool matched = false, ok = kv_long(w[k], "movecount", 1, 10000, &mc, &matched)
                                 && kv_long(w[k], "score", 0, 100000, &sc, &matched);
        if (resign) {
            if (!strcmp(w[k], "twosided=true") || !strcmp(w[k], "twosided=false")) {
                two = w[k][9] == 't';
                matched = true;
            }
        } else {
            ok = ok && kv_long(w[k], "movenumber", 0, 100000, &mn, &matched);
        }
        if (!ok || !matched)
            return err_set(why, len, "bad setting '%.100s' (%s)", w[k],
                           resign ? "movecount=N score=CP [twosided=true]" : "movenumber=N movecount=N score=CP");
    }
    if (mc <= 0)
        return err_set(why, len, "needs movecount=N");
    if (resign) {
        cfg->resign_movecount = (int)mc;
        cfg->resign_score = (int)(sc ? sc : 1000);
        cfg->resign_twosided = two;
    } else {
        cfg->draw_movecount = (int)mc;
        cfg->draw_score = (int)sc;
        cfg->draw_movenumber = (int)mn;
    }
    return true;
}

static bool read_resign(const char *const *w, int n, void *dest, char *why, size_t len)
{
    return read_adjudication(w, n, ((MatchArgs *)dest)->cfg, true, why, len);
}

static bool read_draw(const char *const *w, int n, void *dest, char *why, size_t len)
{
    return read_adjudication(w, n, ((MatchArgs *)dest)->cfg, false, why, len);
}

static bool read_rule(const char *text, void *dest)
{
    int r = rules_parse(text);
    if (r < 0)
        return false;
    *(int *)dest = r;
    return true;
}

size_t match_arg_options(MatchArgs *a, MatchConfig *cfg, ArgOption *opts)
{
    memset(a, 0, sizeof *a);
    a->cfg = cfg;
    a->games = cfg->games;
    a->concurrency = cfg->concurrency;
    a->book_plies = cfg->book_plies;
    a->sixty = cfg->sixty_plies;
    a->repeats = cfg->repeats;
    a->maxmoves = cfg->maxmoves;
    const ArgOption table[MATCH_ARG_OPTIONS] = {
        ARG_WORDS("--engine", a, 1, read_engine),
        ARG_WORDS("--each", a, 1, read_each),
        ARG_WORDS("--sprt", a, 0, read_sprt),
        ARG_WORDS("--resign", a, 0, read_resign),
        ARG_WORDS("--draw", a, 0, read_draw),
        ARG_FLAG("--quiet", &cfg->quiet, true),
        ARG_FLAG("--openings-random", &cfg->openings_random, true),
        ARG_LONG("--games", &a->games, 1, 100000000),
        ARG_LONG("--concurrency", &a->concurrency, 1, 256),
        ARG_TEXT("--openings", &a->openings),
        ARG_LONG("--book-plies", &a->book_plies, 0, 200),
        ARG_TEXT("--book", &a->book),
        ARG_CUSTOM("--rule", &cfg->rule, read_rule, "a rule: cxa, axf or draw"),
        ARG_LONG("--sixty", &a->sixty, 0, 100000),
        ARG_LONG("--repeats", &a->repeats, 2, 100),
        ARG_TEXT("--pgn", &a->pgn),
        ARG_CUSTOM("--notation", &cfg->notation, notation_parse_write_format,
                   "a notation: uci, iccs, wxf, chinese or chinese-simplified"),
        ARG_U64("--seed", &cfg->seed, 0, UINT64_MAX),
        ARG_LONG("--maxmoves", &a->maxmoves, 0, 100000),
        ARG_TEXT("--event", &a->event),
    };
    memcpy(opts, table, sizeof table);
    return MATCH_ARG_OPTIONS;
}

/* A file's name into a field of the config: false when it does not fit
 * (a cut name would be another file). */
static bool copy_path(char *dst, size_t size, const char *src, const char *what, char *err, size_t errlen)
{
    if (!src)
        return true;
    if (strlen(src) >= size)
        return err_set(err, errlen, "match: %s: a name under %zu bytes", what, size);
    snprintf(dst, size, "%s", src);
    return true;
}

bool match_args_finish(MatchArgs *a, const char *tool, char *err, size_t errlen)
{
    MatchConfig *cfg = a->cfg;
    cfg->games = a->games;
    cfg->concurrency = (int)a->concurrency;
    cfg->book_plies = (int)a->book_plies;
    cfg->sixty_plies = (int)a->sixty;
    cfg->repeats = (int)a->repeats;
    cfg->maxmoves = (int)a->maxmoves;
    if (!copy_path(cfg->openings, sizeof cfg->openings, a->openings, "--openings", err, errlen)
        || !copy_path(cfg->book, sizeof cfg->book, a->book, "--book", err, errlen)
        || !copy_path(cfg->pgn, sizeof cfg->pgn, a->pgn, "--pgn", err, errlen))
        return false;
    if (a->event)
        snprintf(cfg->event, sizeof cfg->event, "%s", a->event);
    int ne = a->nengines;
    if (ne < 2)
        return err_set(err, errlen, "%s: a match needs at least two --engine", tool);
    cfg->nengines = ne;
    char why[256];
    for (int e = 0; e < ne; e++) {
        EngineSpec *s = &cfg->engines[e];
        memset(s, 0, sizeof *s);
        default_limits(&s->limits);
        for (int k = 0; k < a->neach; k++)
            if (!engine_word(s, a->each[k], why, sizeof why))
                return err_set(err, errlen, "%s: engine %d: %s", tool, e + 1, why);
        for (int k = 0; k < a->nwords[e]; k++)
            if (!engine_word(s, a->engine[e][k], why, sizeof why))
                return err_set(err, errlen, "%s: engine %d: %s", tool, e + 1, why);
        if (!s->cmd[0])
            return err_set(err, errlen, "%s: engine %d has no cmd=", tool, e + 1);
        const MatchLimits *l = &s->limits;
        if (!l->clock && !l->movetime_ms && !l->depth && !l->nodes)
            return err_set(err, errlen, "%s: engine %d has no limit: give tc=, movetime=, depth= or nodes= (--each)",
                           tool, e + 1);
        if (!s->name[0]) {
            const char *b = strrchr(s->cmd, '/');
            snprintf(s->name, sizeof s->name, "%.*s", (int)strcspn(b ? b + 1 : s->cmd, " "), b ? b + 1 : s->cmd);
        }
    }
    for (int x = 0; x < ne; x++)
        for (int y = x + 1; y < ne; y++)
            if (!strcmp(cfg->engines[x].name, cfg->engines[y].name)) {
                /* tell them apart in the PGN */
                char old[64];
                memcpy(old, cfg->engines[y].name, sizeof old);
                snprintf(cfg->engines[y].name, sizeof cfg->engines[y].name, "%.56s-%u", old, (unsigned)(y + 1) % 100u);
            }
    if (cfg->sprt && ne != 2)
        return err_set(err, errlen, "%s: --sprt needs exactly two engines", tool);
    return true;
}

bool match_parse_args(int argc, char **argv, MatchConfig *cfg, char *err, size_t errlen)
{
    MatchArgs *a = malloc(sizeof *a);
    if (!a)
        return err_set(err, errlen, "match: out of memory");
    ArgOption opts[MATCH_ARG_OPTIONS + 1];
    size_t n = match_arg_options(a, cfg, opts);
    opts[n++] = (ArgOption)ARG_FLAG("--resume", &cfg->resume, true);
    const ArgSpec spec = {"match", opts, n, NULL, 0};
    bool ok = args_read(&spec, argc, argv, NULL, err, errlen) && match_args_finish(a, "match", err, errlen);
    if (ok && cfg->resume && !cfg->pgn[0])
        ok = err_set(err, errlen, "match: --resume goes on from the --pgn file: name one");
    free(a);
    return ok;
}

int match_usage(void)
{
    fprintf(stderr,
            "usage: chuhan match --engine cmd=CMD [name=NAME] [proto=uci|ucci] [dir=DIR] [option.X=V ...]\n"
            "                    --engine ... [--engine ...] --each tc=40/60+0.6|movetime=MS|depth=N|nodes=N ...\n"
            "                    --games N [options]\n"
            "Engines (any setting also with --each, for all of them):\n"
            "  cmd=CMD            the command, run by /bin/sh; name=NAME for the PGN; dir=DIR to run it in\n"
            "  proto=uci|ucci     the protocol (default uci: ranks 0-9, as Pikafish); option.X=V: setoption\n"
            "  tc=[M/]S[+I]       a clock: S seconds (+I per move) for M moves (or the game); st=S seconds per move\n"
            "  movetime=MS depth=N nodes=N   fixed limits per move (with or without a clock)\n"
            "  timemargin=MS      overrun of the clock or movetime before a time forfeit (default 200)\n"
            "  timeout=MS         longest wait for a move without a clock, and for the handshake (default 60000)\n"
            "Match:\n"
            "  --games N          games per pair of engines (default 2); each opening is played with both colours\n"
            "  --concurrency N    games at once, each with its own engine processes (default 1)\n"
            "  --openings FILE    openings: lines 'FEN [moves m1 m2 ...]', EPD lines or 'startpos moves ...'\n"
            "  --openings-random  take them in a random order (by --seed) rather than in turn\n"
            "  --book-plies N     play N plies from the opening book (--book FILE, default the built-in one)\n"
            "  --rule cxa|axf|draw  repetition rules of the referee (default cxa); --repeats N occurrences (3)\n"
            "  --sixty PLIES      plies without capture that draw (default 120, 0 disables)\n"
            "  --resign movecount=N score=CP [twosided=true]   adjudicate a loss after N moves at or below -CP\n"
            "  --draw movenumber=N movecount=N score=CP   adjudicate a draw when both scores stay within CP\n"
            "  --maxmoves N       adjudicate a draw after N moves each\n"
            "  --pgn FILE         write the games; --notation uci|chinese|chinese-simplified|wxf|iccs (uci)\n"
            "  --resume           go on from the games in the --pgn file (a match cut short; the same arguments)\n"
            "  --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05   stop when the SPRT decides (two engines)\n"
            "  --seed N           for the book openings and --openings-random (default 1)\n"
            "  --event NAME, --quiet (no line per game)\n"
            "Engines should not play their own book moves: give option.OwnBook=false to Chuhan.\n");
    return 2;
}
