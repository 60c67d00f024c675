/* The arguments of `chuhan match` into a MatchConfig, and its usage. */
#include <limits.h>
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

static int count_words(int argc, char **argv, int i)
{
    int n = 0;
    while (i + n < argc && strncmp(argv[i + n], "--", 2))
        n++;
    return n;
}

bool match_parse_args(int argc, char **argv, MatchConfig *cfg, char *err, size_t errlen)
{
    const char *each[64];
    int neach = 0;
    struct {
        int first, n;
    } eng[MATCH_MAX_ENGINES];
    int ne = 0;
    for (int i = 0; i < argc;) {
        const char *o = argv[i++];
        int nw = count_words(argc, argv, i);
        long v;
        if (!strcmp(o, "--engine")) {
            if (ne == MATCH_MAX_ENGINES)
                return err_set(err, errlen, "at most %d engines", MATCH_MAX_ENGINES);
            eng[ne].first = i;
            eng[ne].n = nw;
            ne++;
            i += nw;
            continue;
        }
        if (!strcmp(o, "--each")) {
            for (int k = 0; k < nw; k++) {
                if (neach == 64)
                    return err_set(err, errlen, "too many --each settings");
                each[neach++] = argv[i + k];
            }
            i += nw;
            continue;
        }
        if (!strcmp(o, "--sprt")) {
            if (!sprt_parse((const char *const *)argv + i, nw, &cfg->sprt_params, err, errlen))
                return false;
            cfg->sprt = true;
            i += nw;
            continue;
        }
        if (!strcmp(o, "--resign") || !strcmp(o, "--draw")) {
            bool resign = o[2] == 'r';
            long mc = 0, sc = 0, mn = 0, two = 0;
            for (int k = 0; k < nw; k++) {
                const char *w = argv[i + k];
                bool matched = false, ok = kv_long(w, "movecount", 1, 10000, &mc, &matched)
                                         && kv_long(w, "score", 0, 100000, &sc, &matched);
                if (resign) {
                    if (!strcmp(w, "twosided=true") || !strcmp(w, "twosided=false")) {
                        two = w[9] == 't';
                        matched = true;
                    }
                } else {
                    ok = ok && kv_long(w, "movenumber", 0, 100000, &mn, &matched);
                }
                if (!ok || !matched)
                    return err_set(err, errlen, "%s: bad setting '%s' (%s)", o, w,
                                resign ? "movecount=N score=CP [twosided=true]" : "movenumber=N movecount=N score=CP");
            }
            if (mc <= 0)
                return err_set(err, errlen, "%s needs movecount=N", o);
            if (resign) {
                cfg->resign_movecount = (int)mc;
                cfg->resign_score = (int)(sc ? sc : 1000);
                cfg->resign_twosided = two;
            } else {
                cfg->draw_movecount = (int)mc;
                cfg->draw_score = (int)sc;
                cfg->draw_movenumber = (int)mn;
            }
            i += nw;
            continue;
        }
        if (!strcmp(o, "--quiet")) {
            cfg->quiet = true;
            continue;
        }
        if (!strcmp(o, "--openings-random")) {
            cfg->openings_random = true;
            continue;
        }
        if (!strcmp(o, "--help") || !strcmp(o, "-h"))
            return err_set(err, errlen, "help");
        if (nw < 1)
            return err_set(err, errlen, "%s needs a value", o);
        const char *val = argv[i++];
        if (nw > 1)
            return err_set(err, errlen, "%s takes one value ('%s' is extra)", o, argv[i]);
        if (!strcmp(o, "--games")) {
            if (!num_parse(val, 1, 100000000, &v))
                return err_set(err, errlen, "--games must be a positive number");
            cfg->games = v;
        } else if (!strcmp(o, "--concurrency")) {
            if (!num_parse(val, 1, 256, &v))
                return err_set(err, errlen, "--concurrency must be from 1 to 256");
            cfg->concurrency = (int)v;
        } else if (!strcmp(o, "--openings")) {
            snprintf(cfg->openings, sizeof cfg->openings, "%s", val);
        } else if (!strcmp(o, "--book-plies")) {
            if (!num_parse(val, 0, 200, &v))
                return err_set(err, errlen, "--book-plies must be from 0 to 200");
            cfg->book_plies = (int)v;
        } else if (!strcmp(o, "--book")) {
            snprintf(cfg->book, sizeof cfg->book, "%s", val);
        } else if (!strcmp(o, "--rule")) {
            if ((cfg->rule = rules_parse(val)) < 0)
                return err_set(err, errlen, "--rule must be cxa, axf or draw, not '%s'", val);
        } else if (!strcmp(o, "--sixty")) {
            if (!num_parse(val, 0, 100000, &v))
                return err_set(err, errlen, "--sixty must be plies (0 disables)");
            cfg->sixty_plies = (int)v;
        } else if (!strcmp(o, "--repeats")) {
            if (!num_parse(val, 2, 100, &v))
                return err_set(err, errlen, "--repeats must be from 2 to 100");
            cfg->repeats = (int)v;
        } else if (!strcmp(o, "--pgn")) {
            snprintf(cfg->pgn, sizeof cfg->pgn, "%s", val);
        } else if (!strcmp(o, "--notation")) {
            if (!notation_parse_format(val, &cfg->notation) || cfg->notation == NOTATION_AUTO)
                return err_set(err, errlen, "--notation must be uci, iccs, wxf, chinese or chinese-simplified");
        } else if (!strcmp(o, "--seed")) {
            if (!num_parse_u64(val, &cfg->seed))
                return err_set(err, errlen, "--seed must be a number");
        } else if (!strcmp(o, "--maxmoves")) {
            if (!num_parse(val, 0, 100000, &v))
                return err_set(err, errlen, "--maxmoves must be a number of moves");
            cfg->maxmoves = (int)v;
        } else if (!strcmp(o, "--event")) {
            snprintf(cfg->event, sizeof cfg->event, "%s", val);
        } else {
            return err_set(err, errlen, "unknown option %s", o);
        }
    }
    if (ne < 2)
        return err_set(err, errlen, "a match needs at least two --engine");
    cfg->nengines = ne;
    for (int e = 0; e < ne; e++) {
        EngineSpec *s = &cfg->engines[e];
        memset(s, 0, sizeof *s);
        default_limits(&s->limits);
        for (int k = 0; k < neach; k++)
            if (!engine_word(s, each[k], err, errlen))
                return false;
        for (int k = 0; k < eng[e].n; k++)
            if (!engine_word(s, argv[eng[e].first + k], err, errlen))
                return false;
        if (!s->cmd[0])
            return err_set(err, errlen, "engine %d has no cmd=", e + 1);
        const MatchLimits *l = &s->limits;
        if (!l->clock && !l->movetime_ms && !l->depth && !l->nodes)
            return err_set(err, errlen, "engine %d has no limit: give tc=, movetime=, depth= or nodes= (--each)", e + 1);
        if (!s->name[0]) {
            const char *b = strrchr(s->cmd, '/');
            snprintf(s->name, sizeof s->name, "%.*s", (int)strcspn(b ? b + 1 : s->cmd, " "), b ? b + 1 : s->cmd);
        }
    }
    for (int a = 0; a < ne; a++)
        for (int b = a + 1; b < ne; b++)
            if (!strcmp(cfg->engines[a].name, cfg->engines[b].name)) {
                /* tell them apart in the PGN */
                char old[64];
                memcpy(old, cfg->engines[b].name, sizeof old);
                snprintf(cfg->engines[b].name, sizeof cfg->engines[b].name, "%.56s-%u", old, (unsigned)(b + 1) % 100u);
            }
    if (cfg->sprt && ne != 2)
        return err_set(err, errlen, "--sprt needs exactly two engines");
    return true;
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
            "  --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05   stop when the SPRT decides (two engines)\n"
            "  --seed N           for the book openings and --openings-random (default 1)\n"
            "  --event NAME, --quiet (no line per game)\n"
            "Engines should not play their own book moves: give option.OwnBook=false to Chuhan.\n");
    return 2;
}
