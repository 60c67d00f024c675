/* chuhan match: engine-vs-engine matches (see match.h).
 *
 * Threads: one worker per concurrent game, each with its own engine
 * processes and referee; they share only the Match below, under its lock:
 * the next game to play, the results, the PGN output and the game lines. */
#include "match.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "book/book.h"
#include "engine/board/movegen.h"
#include "engine/cli.h"
#include "engine/rules/rules.h"
#include "engine/util/clock.h"
#include "engine/util/error.h"
#include "engine/util/num.h"
#include "engine/util/rng.h"

static const char *const TerminationNames[TERM_NB] = {
    "checkmate",     "stalemate",      "perpetual",  "repetition draw", "60-move rule",
    "game too long", "resign adjudication", "draw adjudication", "move limit", "time forfeit",
    "illegal move",  "no move",        "crash",      "stall",
};

const char *match_termination_name(Termination t) { return t >= 0 && t < TERM_NB ? TerminationNames[t] : "?"; }

/* The PGN Termination tag of each. */
static const char *const TerminationTag[TERM_NB] = {
    "normal",         "normal",       "rules infraction", "normal",           "normal",
    "normal",         "adjudication", "adjudication",     "adjudication",     "time forfeit",
    "rules infraction", "rules infraction", "abandoned",  "stalled connection",
};

/* ---- a growing text buffer ---- */

typedef struct {
    char *s;
    size_t len, cap;
    bool oom;
} Text;

static void text_add(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_add(Text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || t->oom)
        return;
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 256;
        while (cap < t->len + (size_t)n + 1)
            cap *= 2;
        char *s = realloc(t->s, cap);
        if (!s) {
            t->oom = true;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

static void text_clear(Text *t)
{
    t->len = 0;
    if (t->s)
        t->s[0] = 0;
}

/* ---- configuration ---- */

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

/* ---- openings ---- */

typedef struct {
    char fen[FEN_MAX]; /* "" for the start position */
    int nmoves;
    Move *moves;
} Opening;

static bool is_number(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

/* A line of an openings file: "FEN [moves m1 m2 ...]", an EPD line
 * ("board side - - opcode ...;"), or "startpos [moves ...]". */
static bool parse_opening(char *line, Referee *ref, Opening *o, char *err, size_t errlen)
{
    char *tok[4096 + 16];
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\r\n", &save); t && n < (int)(sizeof tok / sizeof tok[0]);
         t = strtok_r(NULL, " \t\r\n", &save))
        tok[n++] = t;
    if (n == 0)
        return err_set(err, errlen, "empty");
    char fen[256] = "";
    int i = 1;
    if (strcmp(tok[0], "startpos")) {
        snprintf(fen, sizeof fen, "%s", tok[0]);
        /* side, then the optional fields that are '-' or numbers */
        if (i < n && strlen(tok[i]) == 1 && strchr("wrbWRB", tok[i][0])) {
            size_t len = strlen(fen);
            snprintf(fen + len, sizeof fen - len, " %s", tok[i++]);
            for (int k = 0; k < 4 && i < n && (!strcmp(tok[i], "-") || is_number(tok[i])); k++) {
                len = strlen(fen);
                snprintf(fen + len, sizeof fen - len, " %s", tok[i++]);
            }
        }
    }
    char why[256];
    if (!referee_reset(ref, fen[0] ? fen : NULL, why, sizeof why))
        return err_set(err, errlen, "bad FEN: %s", why);
    /* skip EPD operations up to "moves" */
    while (i < n && strcmp(tok[i], "moves"))
        i++;
    o->nmoves = 0;
    o->moves = NULL;
    if (i < n) {
        i++;
        o->moves = malloc(sizeof(Move) * (size_t)(n - i + 1));
        if (!o->moves)
            return err_set(err, errlen, "out of memory");
        for (; i < n; i++) {
            Move m = referee_parse(ref, tok[i]);
            char reason[64];
            bool illegal;
            if (m == MOVE_NONE || (referee_play(ref, m, &illegal, reason, sizeof reason), illegal)) {
                free(o->moves);
                o->moves = NULL;
                return err_set(err, errlen, "move '%s' is not legal", tok[i]);
            }
            if (referee_end(ref) != END_NONE) {
                free(o->moves);
                o->moves = NULL;
                return err_set(err, errlen, "the game is over after move '%s'", tok[i]);
            }
            o->moves[o->nmoves++] = m;
        }
    }
    if (fen[0]) {
        /* the FEN as the referee writes it, "" when it is the start position */
        char norm[FEN_MAX], std_start[FEN_MAX];
        if (!referee_reset(ref, fen, why, sizeof why))
            return err_set(err, errlen, "bad FEN: %s", why);
        pos_fen(referee_position(ref), norm);
        referee_reset(ref, NULL, why, sizeof why);
        pos_fen(referee_position(ref), std_start);
        snprintf(o->fen, sizeof o->fen, "%s", strcmp(norm, std_start) ? norm : "");
    } else {
        o->fen[0] = 0;
    }
    return true;
}

static bool load_openings(const char *path, Opening **out, int *count, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return err_set(err, errlen, "openings: cannot open %s: %s", path, strerror(errno));
    Referee *ref = referee_new(RULE_DRAW, 0, 3);
    char *line = malloc(1 << 16);
    Opening *v = NULL;
    int n = 0, cap = 0, lineno = 0;
    bool ok = ref && line;
    if (!ok)
        err_set(err, errlen, "out of memory");
    while (ok && fgets(line, 1 << 16, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            ok = err_set(err, errlen, "openings: %s:%d: line too long", path, lineno);
            break;
        }
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == '\n' || *p == '\r' || !*p)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            Opening *nv = realloc(v, sizeof *nv * (size_t)cap);
            if (!nv) {
                ok = err_set(err, errlen, "out of memory");
                break;
            }
            v = nv;
        }
        char why[300];
        if (!parse_opening(p, ref, &v[n], why, sizeof why)) {
            ok = err_set(err, errlen, "openings: %s:%d: %s", path, lineno, why);
            break;
        }
        n++;
    }
    if (ok && ferror(f))
        ok = err_set(err, errlen, "openings: cannot read %s", path);
    if (ok && n == 0)
        ok = err_set(err, errlen, "openings: no positions in %s", path);
    fclose(f);
    free(line);
    referee_free(ref);
    if (!ok) {
        for (int i = 0; i < n; i++)
            free(v[i].moves);
        free(v);
        return false;
    }
    *out = v;
    *count = n;
    return true;
}

/* ---- the match ---- */

typedef struct {
    long index;      /* game number from 0 */
    int red, black;  /* engine indices */
    GameResult result;
    Termination term;
    char reason[384];
    Text pgn;
} GameRecord;

typedef struct Match {
    const MatchConfig *cfg;
    Opening *openings;
    int nopenings;
    int *order; /* opening order (a permutation with --openings-random) */
    Book *book;
    int npairs;
    int pairs[MATCH_MAX_ENGINES * (MATCH_MAX_ENGINES - 1) / 2][2];
    long total;
    char date[16];
    char tc_text[MATCH_MAX_ENGINES][96];

    pthread_mutex_t lock; /* guards everything below */
    long next;
    bool stop;
    MatchResult *res;
    FILE *pgn;
    char **pending; /* finished PGN records not yet written, by game index */
    long next_write;
    bool pgn_error;
    int64_t t0;
} Match;

typedef struct {
    Match *m;
    MatchEngine *eng[MATCH_MAX_ENGINES]; /* this worker's own processes, started when first needed */
    Referee *ref;
    Text moves; /* UCI moves so far, for the position command */
    pthread_t thread;
    bool started;
} Worker;

static void result_text(GameResult r, char *out)
{
    strcpy(out, r == GAME_RED_WINS ? "1-0" : r == GAME_BLACK_WINS ? "0-1" : r == GAME_DRAW ? "1/2-1/2" : "*");
}

/* A PGN tag value with quotes and backslashes escaped. */
static void tag(Text *t, const char *name, const char *value)
{
    text_add(t, "[%s \"", name);
    for (const char *p = value; *p; p++)
        text_add(t, "%s%c", *p == '"' || *p == '\\' ? "\\" : "", *p);
    text_add(t, "\"]\n");
}

static void comment_text(char *out, size_t len, const char *s)
{
    size_t n = 0;
    for (; *s && n + 1 < len; s++)
        out[n++] = *s == '{' ? '(' : *s == '}' ? ')' : *s;
    out[n] = 0;
}

/* The opening of game g (its index among the openings). */
static void game_opening(Match *m, long g, Opening *o, Move *buf, int bufmax)
{
    long k = (g / 2) / m->npairs;
    o->fen[0] = 0;
    o->nmoves = 0;
    o->moves = buf;
    if (m->nopenings) {
        const Opening *src = &m->openings[m->order[k % m->nopenings]];
        snprintf(o->fen, sizeof o->fen, "%s", src->fen);
        for (int i = 0; i < src->nmoves && i < bufmax; i++)
            buf[o->nmoves++] = src->moves[i];
    }
    if (m->book && m->cfg->book_plies > 0) {
        /* the book's random choice, from a generator of this opening alone */
        Position *pos = malloc(sizeof *pos);
        if (!pos)
            return;
        char why[128];
        if (pos_set_fen(pos, o->fen[0] ? o->fen : START_FEN, why, sizeof why)) {
            for (int i = 0; i < o->nmoves; i++)
                pos_do_move(pos, o->moves[i]);
            uint64_t rng = m->cfg->seed * 0x9E3779B97F4A7C15ULL ^ (uint64_t)k * 0xD1B54A32D192ED03ULL;
            rng_next(&rng);
            for (int p = 0; p < m->cfg->book_plies && o->nmoves < bufmax; p++) {
                Move mv = book_choose(m->book, pos, false, &rng);
                if (mv == MOVE_NONE)
                    break;
                pos_do_move(pos, mv);
                buf[o->nmoves++] = mv;
            }
        }
        free(pos);
    }
}

static void score_comment(const MeReply *r, char *out, size_t len)
{
    char sc[32] = "";
    if (r->has_score) {
        if (r->mate)
            snprintf(sc, sizeof sc, "%sM%d/%d ", r->mate > 0 ? "+" : "-", abs(r->mate), r->depth);
        else
            snprintf(sc, sizeof sc, "%+.2f/%d ", r->score / 100.0, r->depth);
    }
    snprintf(out, len, "%s%.3fs", sc, (double)r->elapsed_ms / 1000.0);
}

static bool ensure_engine(Worker *w, int e, char *why, size_t len)
{
    if (!w->eng[e]) {
        w->eng[e] = me_new(&w->m->cfg->engines[e]);
        if (!w->eng[e])
            return err_set(why, len, "out of memory");
    }
    if (!me_running(w->eng[e]) && !me_start(w->eng[e], why, len))
        return false;
    return me_new_game(w->eng[e], why, len);
}

/* Play game g; fills rec. */
static void play_game(Worker *w, long g, GameRecord *rec)
{
    Match *m = w->m;
    const MatchConfig *cfg = m->cfg;
    int pair = (int)((g / 2) % m->npairs);
    int a = m->pairs[pair][0], b = m->pairs[pair][1];
    bool swap = g % 2;
    int side_engine[2] = {swap ? b : a, swap ? a : b};
    rec->index = g;
    rec->red = side_engine[RED];
    rec->black = side_engine[BLACK];
    rec->result = GAME_ONGOING;
    rec->reason[0] = 0;
    text_clear(&rec->pgn);

    static const int OPENING_MAX = 512;
    Move obuf[512];
    Opening op;
    game_opening(m, g, &op, obuf, OPENING_MAX);
    char why[320];
    referee_reset(w->ref, op.fen[0] ? op.fen : NULL, why, sizeof why);
    text_clear(&w->moves);
    Text mv = {0}; /* PGN move text */
    char start_fen[FEN_MAX];
    pos_fen(referee_position(w->ref), start_fen);
    int start_side = referee_position(w->ref)->side;
    int start_move = referee_position(w->ref)->fen_ply / 2 + 1;

    GameResult result = GAME_ONGOING;
    Termination term = TERM_CHECKMATE;
    int ply = 0; /* moves played in this game, opening included */

#define MOVE_NUMBER_PREFIX(side, first)                                                                       \
    do {                                                                                                      \
        int num_ = start_move + (ply + (start_side == BLACK)) / 2;                                          \
        if ((side) == RED)                                                                                    \
            text_add(&mv, "%s%d. ", mv.len ? " " : "", num_);                                                 \
        else if (first)                                                                                       \
            text_add(&mv, "%s%d... ", mv.len ? " " : "", num_);                                               \
        else                                                                                                  \
            text_add(&mv, " ");                                                                               \
    } while (0)

    /* the opening moves */
    for (int i = 0; i < op.nmoves && result == GAME_ONGOING; i++) {
        const Position *pos = referee_position(w->ref);
        char nt[NOTATION_MAX], uci[8];
        notation_write(pos, op.moves[i], cfg->notation, nt);
        move_str(op.moves[i], uci, false);
        int side = pos->side;
        MOVE_NUMBER_PREFIX(side, i == 0);
        text_add(&mv, "%s", nt);
        text_add(&w->moves, "%s%s", w->moves.len ? " " : "", uci);
        bool illegal;
        result = referee_play(w->ref, op.moves[i], &illegal, rec->reason, sizeof rec->reason);
        ply++;
        if (i == op.nmoves - 1)
            text_add(&mv, " {opening}");
    }
    if (result != GAME_ONGOING) {
        RefereeEnd end = referee_end(w->ref);
        term = end == END_CHECKMATE ? TERM_CHECKMATE : end == END_STALEMATE ? TERM_STALEMATE
             : end == END_REPETITION_LOSS ? TERM_PERPETUAL : end == END_SIXTY ? TERM_SIXTY
             : end == END_TOO_LONG ? TERM_TOO_LONG : TERM_REPETITION;
    }

    /* both engines ready for a new game */
    for (int c = 0; c < 2 && result == GAME_ONGOING; c++) {
        char e_why[300];
        if (!ensure_engine(w, side_engine[c], e_why, sizeof e_why)) {
            result = c == RED ? GAME_BLACK_WINS : GAME_RED_WINS;
            term = TERM_CRASH;
            snprintf(rec->reason, sizeof rec->reason, "%s could not start a game: %s",
                     cfg->engines[side_engine[c]].name, e_why);
        }
    }

    int64_t time_left[2], inc[2];
    int side_moves[2] = {0, 0};
    int resign_run[2] = {0, 0}, draw_run[2] = {0, 0};
    int last_score[2] = {0, 0};
    bool have_score[2] = {false, false};
    for (int c = 0; c < 2; c++) {
        const MatchLimits *l = &cfg->engines[side_engine[c]].limits;
        time_left[c] = l->clock ? l->base_ms : 0;
        inc[c] = l->clock ? l->inc_ms : 0;
        if (l->clock && l->base_ms == 0)
            time_left[c] = l->inc_ms; /* increment-only: the first move gets one increment */
    }
    bool first_engine_move = true;
    while (result == GAME_ONGOING) {
        const Position *pos = referee_position(w->ref);
        int stm = pos->side, e = side_engine[stm];
        const EngineSpec *spec = &cfg->engines[e];
        const MatchLimits *l = &spec->limits;
        MeClock clock = {.side = stm};
        for (int c = 0; c < 2; c++) {
            clock.time_ms[c] = time_left[c];
            clock.inc_ms[c] = inc[c];
        }
        if (l->clock && l->moves)
            clock.movestogo = l->moves - side_moves[stm] % l->moves;
        MeReply reply;
        MeStatus st = me_go(w->eng[e], op.fen[0] ? op.fen : NULL, w->moves.s ? w->moves.s : "", &clock, &reply);
        int winner = stm == RED ? BLACK : RED;
        GameResult lose = winner == RED ? GAME_RED_WINS : GAME_BLACK_WINS;
        const char *who = stm == RED ? "red" : "black";
        if (st == ME_DEAD) {
            result = lose;
            term = TERM_CRASH;
            snprintf(rec->reason, sizeof rec->reason, "%s (%s) disconnects: %s", who, spec->name,
                     me_exit_text(w->eng[e]));
            break;
        }
        bool timed = l->clock || l->movetime_ms;
        if (st == ME_TIMEOUT) {
            result = lose;
            term = timed ? TERM_TIME : TERM_STALL;
            if (timed)
                snprintf(rec->reason, sizeof rec->reason, "%s (%s) loses on time", who, spec->name);
            else
                snprintf(rec->reason, sizeof rec->reason, "%s (%s) gave no move within %lld ms", who, spec->name,
                         (long long)l->timeout_ms);
            break;
        }
        if (l->clock) {
            if (reply.elapsed_ms > time_left[stm] + l->margin_ms) {
                result = lose;
                term = TERM_TIME;
                snprintf(rec->reason, sizeof rec->reason, "%s (%s) loses on time (%lld ms used, %lld left)", who,
                         spec->name, (long long)reply.elapsed_ms, (long long)time_left[stm]);
                break;
            }
            time_left[stm] -= reply.elapsed_ms;
            if (time_left[stm] < 0)
                time_left[stm] = 0;
            time_left[stm] += inc[stm];
            side_moves[stm]++;
            if (l->moves && side_moves[stm] % l->moves == 0)
                time_left[stm] += l->base_ms;
        } else if (l->movetime_ms && reply.elapsed_ms > l->movetime_ms + l->margin_ms) {
            result = lose;
            term = TERM_TIME;
            snprintf(rec->reason, sizeof rec->reason, "%s (%s) loses on time (%lld ms for a %lld ms move)", who,
                     spec->name, (long long)reply.elapsed_ms, (long long)l->movetime_ms);
            break;
        }
        if (reply.nobestmove || !reply.move[0] || !strcmp(reply.move, "(none)") || !strcmp(reply.move, "0000")) {
            result = lose;
            term = TERM_NO_MOVE;
            snprintf(rec->reason, sizeof rec->reason, "%s (%s) gives no move in a position with legal moves", who,
                     spec->name);
            break;
        }
        Move move = referee_parse(w->ref, reply.move);
        if (move == MOVE_NONE) {
            char shown[20];
            comment_text(shown, sizeof shown, reply.move);
            result = lose;
            term = TERM_ILLEGAL;
            snprintf(rec->reason, sizeof rec->reason, "%s (%s) plays an illegal move: %s", who, spec->name, shown);
            break;
        }
        char nt[NOTATION_MAX], cm[64];
        notation_write(pos, move, cfg->notation, nt);
        score_comment(&reply, cm, sizeof cm);
        MOVE_NUMBER_PREFIX(stm, first_engine_move && op.nmoves == 0);
        first_engine_move = false;
        text_add(&mv, "%s {%s}", nt, cm);
        text_add(&w->moves, "%s%s", w->moves.len ? " " : "", reply.move);
        bool illegal;
        result = referee_play(w->ref, move, &illegal, rec->reason, sizeof rec->reason);
        ply++;
        if (result != GAME_ONGOING) {
            RefereeEnd end = referee_end(w->ref);
            term = end == END_CHECKMATE ? TERM_CHECKMATE : end == END_STALEMATE ? TERM_STALEMATE
                 : end == END_REPETITION_LOSS ? TERM_PERPETUAL : end == END_SIXTY ? TERM_SIXTY
                 : end == END_TOO_LONG ? TERM_TOO_LONG : TERM_REPETITION;
            break;
        }
        /* adjudication by the engines' scores */
        have_score[stm] = reply.has_score;
        last_score[stm] = reply.score;
        if (cfg->resign_movecount) {
            bool down = reply.has_score && reply.score <= -cfg->resign_score;
            resign_run[stm] = down ? resign_run[stm] + 1 : 0;
            bool agreed = !cfg->resign_twosided
                       || (have_score[!stm] && last_score[!stm] >= cfg->resign_score && resign_run[!stm] == 0);
            if (resign_run[stm] >= cfg->resign_movecount && agreed) {
                result = lose;
                term = TERM_RESIGN;
                snprintf(rec->reason, sizeof rec->reason, "%s (%s) resigns: score %d for %d moves (adjudication)",
                         who, spec->name, reply.score, resign_run[stm]);
                break;
            }
        }
        if (cfg->draw_movecount) {
            bool level = reply.has_score && abs(reply.score) <= cfg->draw_score;
            draw_run[stm] = level ? draw_run[stm] + 1 : 0;
            int number = start_move + (ply + (start_side == BLACK)) / 2;
            if (number >= cfg->draw_movenumber && draw_run[RED] >= cfg->draw_movecount
                && draw_run[BLACK] >= cfg->draw_movecount) {
                result = GAME_DRAW;
                term = TERM_DRAW_ADJ;
                snprintf(rec->reason, sizeof rec->reason, "draw by adjudication: scores within %d for %d moves",
                         cfg->draw_score, cfg->draw_movecount);
                break;
            }
        }
        if (cfg->maxmoves && referee_plies(w->ref) >= 2 * cfg->maxmoves) {
            result = GAME_DRAW;
            term = TERM_MAXMOVES;
            snprintf(rec->reason, sizeof rec->reason, "draw by the move limit (%d moves)", cfg->maxmoves);
            break;
        }
    }
#undef MOVE_NUMBER_PREFIX
    rec->result = result;
    rec->term = term;

    /* the record */
    char res[8], round[24], tc[200];
    result_text(result, res);
    snprintf(round, sizeof round, "%ld", g + 1);
    Text *t = &rec->pgn;
    tag(t, "Game", "Chinese Chess");
    tag(t, "Event", cfg->event);
    tag(t, "Site", "?");
    tag(t, "Date", m->date);
    tag(t, "Round", round);
    tag(t, "Red", cfg->engines[rec->red].name);
    tag(t, "Black", cfg->engines[rec->black].name);
    tag(t, "Result", res);
    if (op.fen[0])
        tag(t, "FEN", start_fen);
    if (strcmp(m->tc_text[rec->red], m->tc_text[rec->black]))
        snprintf(tc, sizeof tc, "%s / %s", m->tc_text[rec->red], m->tc_text[rec->black]);
    else
        snprintf(tc, sizeof tc, "%s", m->tc_text[rec->red]);
    tag(t, "TimeControl", tc);
    char plies[24];
    snprintf(plies, sizeof plies, "%d", referee_plies(w->ref));
    tag(t, "PlyCount", plies);
    tag(t, "Termination", TerminationTag[term]);
    tag(t, "TerminationDetails", rec->reason);
    char cmt[400];
    comment_text(cmt, sizeof cmt, rec->reason);
    text_add(t, "\n");
    /* wrap the move text at about 80 columns */
    const char *p = mv.s ? mv.s : "";
    size_t col = 0;
    while (*p) {
        /* a token: a comment {...} whole, or a word; a move number stays with its move */
        const char *q = p;
        if (*q == '{') {
            const char *e = strchr(q, '}');
            q = e ? e + 1 : q + strlen(q);
        } else {
            while (*q && *q != ' ')
                q++;
            if (q > p && q[-1] == '.' && *q == ' ' && q[1] && q[1] != '{')
                for (q++; *q && *q != ' ';)
                    q++;
        }
        size_t n = (size_t)(q - p), width = 0;
        for (size_t i = 0; i < n; i++) /* columns: a wide (non-ASCII) character counts two */
            width += ((unsigned char)p[i] & 0xC0) == 0x80 ? 0 : (unsigned char)p[i] < 0x80 ? 1 : 2;
        if (col && col + 1 + width > 79) {
            text_add(t, "\n");
            col = 0;
        } else if (col) {
            text_add(t, " ");
            col++;
        }
        text_add(t, "%.*s", (int)n, p);
        col += width;
        p = q;
        while (*p == ' ')
            p++;
    }
    text_add(t, "%s{%s} %s\n\n", col ? "\n" : "", cmt, res);
    free(mv.s);
}

static void progress_line(Match *m, const GameRecord *rec)
{
    const MatchConfig *cfg = m->cfg;
    MatchResult *r = m->res;
    if (!cfg->out || cfg->quiet)
        return;
    char res[8];
    result_text(rec->result, res);
    int a = rec->red < rec->black ? rec->red : rec->black, b = rec->red < rec->black ? rec->black : rec->red;
    const long *s = r->wdl[a][b];
    EloEstimate el;
    match_elo(s[0], s[1], s[2], &el);
    char sprt[64] = "";
    if (cfg->sprt)
        snprintf(sprt, sizeof sprt, ", LLR %.2f", r->llr);
    fprintf(cfg->out, "[%ld/%ld] %s vs %s: %s (%s) | %s vs %s: W %ld D %ld L %ld, Elo %+.1f +/- %.1f%s\n", r->games,
            m->total, cfg->engines[rec->red].name, cfg->engines[rec->black].name, res, rec->reason,
            cfg->engines[a].name, cfg->engines[b].name, s[0], s[1], s[2], el.elo == 0 ? 0.0 : el.elo, el.elo_error, sprt);
    fflush(cfg->out);
}

static void record_game(Match *m, GameRecord *rec)
{
    MatchResult *r = m->res;
    pthread_mutex_lock(&m->lock);
    r->games++;
    r->terminations[rec->term]++;
    int red = rec->red, black = rec->black;
    if (rec->result == GAME_RED_WINS) {
        r->red_wins++;
        r->wdl[red][black][0]++;
        r->wdl[black][red][2]++;
    } else if (rec->result == GAME_BLACK_WINS) {
        r->black_wins++;
        r->wdl[black][red][0]++;
        r->wdl[red][black][2]++;
    } else {
        r->draws++;
        r->wdl[red][black][1]++;
        r->wdl[black][red][1]++;
    }
    if (m->cfg->sprt) {
        const long *s = r->wdl[0][1];
        r->llr = sprt_llr(s[0], s[1], s[2], &m->cfg->sprt_params);
        /* the first verdict stands: games already running when it came are counted, not re-judged */
        if (r->verdict == SPRT_CONTINUE) {
            r->verdict = sprt_verdict(r->llr, &m->cfg->sprt_params);
            r->verdict_games = r->games;
            r->verdict_llr = r->llr;
        }
        if (r->verdict != SPRT_CONTINUE)
            m->stop = true;
    }
    progress_line(m, rec);
    /* the PGN, in game order */
    if (m->pgn) {
        m->pending[rec->index] = rec->pgn.oom ? NULL : rec->pgn.s;
        if (rec->pgn.oom)
            m->pgn_error = true;
        rec->pgn.s = NULL;
        rec->pgn.len = rec->pgn.cap = 0;
        rec->pgn.oom = false;
        while (m->next_write < m->total && m->pending[m->next_write]) {
            if (fputs(m->pending[m->next_write], m->pgn) == EOF)
                m->pgn_error = true;
            free(m->pending[m->next_write]);
            m->pending[m->next_write] = NULL;
            m->next_write++;
        }
        fflush(m->pgn);
    }
    pthread_mutex_unlock(&m->lock);
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Match *m = w->m;
    GameRecord rec = {0};
    for (;;) {
        pthread_mutex_lock(&m->lock);
        bool done = m->stop || m->next >= m->total;
        long g = done ? -1 : m->next++;
        pthread_mutex_unlock(&m->lock);
        if (done)
            break;
        play_game(w, g, &rec);
        record_game(m, &rec);
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
    for (int e = 0; e < cfg->nengines; e++)
        me_limits_text(&cfg->engines[e].limits, m->tc_text[e], sizeof m->tc_text[e]);
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    strftime(m->date, sizeof m->date, "%Y.%m.%d", &tmv);

    if (cfg->openings[0]) {
        if (!(ok = load_openings(cfg->openings, &m->openings, &m->nopenings, err, errlen)))
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
        m->pgn = fopen(cfg->pgn, "w");
        m->pending = calloc((size_t)m->total, sizeof *m->pending);
        if (!m->pgn || !m->pending) {
            ok = err_set(err, errlen, "cannot write %s: %s", cfg->pgn, m->pgn ? "out of memory" : strerror(errno));
            goto out;
        }
    }

    nworkers = cfg->concurrency < 1 ? 1 : cfg->concurrency;
    if (nworkers > m->total)
        nworkers = (int)m->total;
    workers = calloc((size_t)nworkers, sizeof *workers);
    if (!workers) {
        ok = err_set(err, errlen, "out of memory");
        goto out;
    }
    for (int i = 0; i < nworkers; i++) {
        workers[i].m = m;
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
    res->seconds = (double)(now_ms() - m->t0) / 1000.0;
    if (m->pgn) {
        /* games skipped after an SPRT verdict leave gaps: write the rest in order */
        for (long i = m->next_write; i < m->total; i++)
            if (m->pending[i]) {
                if (fputs(m->pending[i], m->pgn) == EOF)
                    m->pgn_error = true;
                free(m->pending[i]);
                m->pending[i] = NULL;
            }
        if (m->pgn_error || fflush(m->pgn)) {
            ok = err_set(err, errlen, "error writing %s", cfg->pgn);
        }
    }
out:
    if (workers)
        for (int i = 0; i < nworkers; i++)
            worker_free(&workers[i]);
    free(workers);
    if (m->pgn && fclose(m->pgn) && ok)
        ok = err_set(err, errlen, "error writing %s", cfg->pgn);
    if (m->pending)
        for (long i = 0; i < m->total; i++)
            free(m->pending[i]);
    free(m->pending);
    for (int i = 0; i < m->nopenings; i++)
        free(m->openings[i].moves);
    free(m->openings);
    free(m->order);
    book_free(m->book);
    pthread_mutex_destroy(&m->lock);
    free(m);
    return ok;
}

/* ---- the summary ---- */

static void elo_text(const EloEstimate *e, char *out, size_t len)
{
    if (e->games == 0)
        snprintf(out, len, "no games");
    else if (isinf(e->elo))
        snprintf(out, len, "Elo %s", e->elo > 0 ? "+inf" : "-inf");
    else if (isinf(e->elo_error))
        snprintf(out, len, "Elo %+.1f +/- inf", e->elo == 0 ? 0.0 : e->elo);
    else
        snprintf(out, len, "Elo %+.1f +/- %.1f", e->elo == 0 ? 0.0 : e->elo, e->elo_error);
}

void match_print_summary(FILE *out, const MatchConfig *cfg, const MatchResult *res)
{
    if (!out)
        return;
    fprintf(out, "\nFinished %ld games in %.1f s (red wins %ld, black wins %ld, draws %ld)\n", res->games,
            res->seconds, res->red_wins, res->black_wins, res->draws);
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
            EloEstimate e;
            match_elo(s[0], s[1], s[2], &e);
            char et[64];
            elo_text(&e, et, sizeof et);
            fprintf(out, "%s vs %s: %ld games, W %ld D %ld L %ld, score %.1f%%, %s (95%%), LOS %.1f%%, draw ratio %.1f%%\n",
                    cfg->engines[a].name, cfg->engines[b].name, e.games, s[0], s[1], s[2], 100 * e.score, et,
                    100 * e.los, 100 * e.draw_ratio);
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
        fprintf(out, "SPRT (elo0 %.1f, elo1 %.1f, alpha %.3f, beta %.3f): LLR %.2f (bounds %.2f, %.2f): %s%s\n",
                cfg->sprt_params.elo0, cfg->sprt_params.elo1, cfg->sprt_params.alpha, cfg->sprt_params.beta, res->llr,
                lo, hi, v, when);
    }
    fprintf(out, "Endings:");
    bool any = false;
    for (int t = 0; t < TERM_NB; t++)
        if (res->terminations[t]) {
            fprintf(out, "%s %ld %s", any ? "," : "", res->terminations[t], TerminationNames[t]);
            any = true;
        }
    fprintf(out, "%s\n", any ? "" : " none");
    fflush(out);
}

/* ---- chuhan match ---- */

static int match_usage(void)
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

int cli_match(int argc, char **argv)
{
    if (argc == 0)
        return match_usage();
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
        if (!strcmp(err, "help"))
            status = match_usage();
        else {
            fprintf(stderr, "match: %s\n", err);
            status = 2;
        }
        goto out;
    }
    if (!match_run(cfg, res, err, sizeof err)) {
        fprintf(stderr, "match: %s\n", err);
        if (res->games)
            match_print_summary(stdout, cfg, res);
        goto out;
    }
    match_print_summary(stdout, cfg, res);
    status = 0;
out:
    free(cfg);
    free(res);
    return status;
}
