/* The openings of a match: read from a file of FEN, EPD or "startpos
 * moves" lines, or drawn from the opening book, one per pair of games. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/rules/rules.h"
#include "engine/util/error.h"
#include "engine/util/rng.h"
#include "match_private.h"

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

bool match_load_openings(const char *path, Opening **out, int *count, char *err, size_t errlen)
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

/* The opening of game g (its index among the openings). */
void match_game_opening(const Match *m, long g, Opening *o, Move *buf, int bufmax)
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
