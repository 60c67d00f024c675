/* `chuhan match --resume`: a match cut short (a killed runner, a machine
 * that went away) goes on from its PGN.  The runner writes its games in
 * game order, so the file holds games 1..K whole, perhaps followed by half
 * of game K+1; the games are recounted (results, pairs, SPRT), anything
 * after the last whole game is cut off, and play goes on from game K+1
 * with the openings that game would have had.  The same arguments must be
 * given: the engines' names, colours and time controls are checked against
 * each game's tags. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/util/error.h"
#include "engine/util/file.h"
#include "engine/util/outfile.h"
#include "match_private.h"

/* A PGN file of games can be large, but not this large. */
#define RESUME_MAX_BYTES ((size_t)1 << 31)

typedef struct {
    char round[24], red[64], black[64], result[16], tc[200];
} Tags;

/* The value of a tag line `[Name "value"]` (escapes undone) into out;
 * false when the line is not a tag of that name or the value is too long. */
static bool tag_value(const char *line, size_t len, const char *name, char *out, size_t outlen)
{
    size_t nl = strlen(name);
    if (len < nl + 4 || line[0] != '[' || strncmp(line + 1, name, nl) || line[nl + 1] != ' ' || line[nl + 2] != '"')
        return false;
    size_t k = 0;
    for (size_t i = nl + 3; i < len; i++) {
        char c = line[i];
        if (c == '"')
            break;
        if (c == '\\' && i + 1 < len)
            c = line[++i];
        if (k + 1 >= outlen)
            return false;
        out[k++] = c;
    }
    out[k] = 0;
    return true;
}

/* One whole record from text[*at]: its tags read and *at moved past it.
 * 0 when no whole record begins there (the end, or a record cut short),
 * -1 when what is there is not a record as the runner writes them. */
static int next_record(const char *text, size_t len, size_t *at, Tags *t)
{
    memset(t, 0, sizeof *t);
    size_t p = *at;
    if (p >= len)
        return 0;
    if (text[p] != '[')
        return -1;
    /* the tags, a line each, to the blank line */
    while (p < len && text[p] == '[') {
        const char *nl = memchr(text + p, '\n', len - p);
        if (!nl)
            return 0;
        size_t n = (size_t)(nl - (text + p));
        const char *line = text + p;
        if (!tag_value(line, n, "Round", t->round, sizeof t->round)
            && !tag_value(line, n, "Red", t->red, sizeof t->red)
            && !tag_value(line, n, "Black", t->black, sizeof t->black)
            && !tag_value(line, n, "Result", t->result, sizeof t->result))
            tag_value(line, n, "TimeControl", t->tc, sizeof t->tc);
        p += n + 1;
    }
    if (p >= len)
        return 0;
    if (text[p] != '\n')
        return -1;
    /* the moves end with the result and a blank line; none is inside them */
    const char *end = NULL;
    for (size_t i = p + 1; i + 1 < len; i++)
        if (text[i] == '\n' && text[i + 1] == '\n') {
            end = text + i;
            break;
        }
    if (!end)
        return 0;
    size_t rl = strlen(t->result);
    if (!rl || (size_t)(end - text) < rl || memcmp(end - rl, t->result, rl))
        return -1;
    *at = (size_t)(end - text) + 2;
    return 1;
}

/* The PGN's games counted into m as if just played (the caller's
 * match_count_game); their number. */
static bool recount(Match *m, const char *text, size_t len, size_t *whole, long *ngames, char *err, size_t errlen)
{
    const MatchConfig *cfg = m->cfg;
    size_t at = 0;
    long g = 0;
    for (;;) {
        Tags t;
        int k = next_record(text, len, &at, &t);
        if (k < 0)
            return err_set(err, errlen, "game %ld of the file is not a record as this runner writes them", g + 1);
        if (k == 0)
            break;
        if (g >= m->total)
            return err_set(err, errlen, "it holds more than the %ld games of this match", m->total);
        char want[24];
        snprintf(want, sizeof want, "%ld", g + 1);
        if (strcmp(t.round, want))
            return err_set(err, errlen, "its game %ld is round '%s', not %s: a match stopped by an SPRT verdict "
                                        "has nothing to resume", g + 1, t.round, want);
        int pair = (int)((g / 2) % m->npairs);
        int a = m->pairs[pair][0], b = m->pairs[pair][1];
        int red = g % 2 ? b : a, black = g % 2 ? a : b;
        if (strcmp(t.red, cfg->engines[red].name) || strcmp(t.black, cfg->engines[black].name))
            return err_set(err, errlen, "its game %ld is %s against %s; this match's is %s against %s: "
                                        "resume with the same engines in the same order",
                           g + 1, t.red, t.black, cfg->engines[red].name, cfg->engines[black].name);
        char tc[200];
        if (strcmp(m->tc_text[red], m->tc_text[black]))
            snprintf(tc, sizeof tc, "%s / %s", m->tc_text[red], m->tc_text[black]);
        else
            snprintf(tc, sizeof tc, "%s", m->tc_text[red]);
        if (strcmp(t.tc, tc))
            return err_set(err, errlen, "its game %ld was played at '%s'; this match's is at '%s'", g + 1, t.tc, tc);
        GameResult r = !strcmp(t.result, "1-0")       ? GAME_RED_WINS
                       : !strcmp(t.result, "0-1")     ? GAME_BLACK_WINS
                       : !strcmp(t.result, "1/2-1/2") ? GAME_DRAW
                                                      : GAME_ONGOING;
        if (r == GAME_ONGOING)
            return err_set(err, errlen, "its game %ld has no result ('%s')", g + 1, t.result);
        match_count_game(m, g, red, black, r);
        g++;
        *whole = at;
    }
    *ngames = g;
    return true;
}

bool match_resume(Match *m, char *err, size_t errlen)
{
    const MatchConfig *cfg = m->cfg;
    char why[512];
    unsigned char *data = NULL;
    size_t len = 0;
    if (!file_read(cfg->pgn, NULL, RESUME_MAX_BYTES, &data, &len, why, sizeof why)) {
        if (errno != ENOENT)
            return err_set(err, errlen, "--resume %s: %s", cfg->pgn, why);
        /* nothing to resume: a new match */
        m->pgn = outfile_open(cfg->pgn, why, sizeof why);
        return m->pgn ? true : err_set(err, errlen, "--pgn: %s", why);
    }
    size_t whole = 0;
    long games = 0;
    bool ok = recount(m, (const char *)data, len, &whole, &games, why, sizeof why);
    if (!ok) {
        free(data);
        return err_set(err, errlen, "--resume %s: %s", cfg->pgn, why);
    }
    if (whole < len) {
        /* half a game at the end: the file is replaced by its whole games */
        OutFile o;
        if (!outfile_begin(&o, cfg->pgn, why, sizeof why)) {
            free(data);
            return err_set(err, errlen, "--resume %s: %s", cfg->pgn, why);
        }
        if (fwrite(data, 1, whole, o.f) != whole) {
            int e = errno;
            outfile_abort(&o);
            free(data);
            return err_set(err, errlen, "--resume %s: %s", cfg->pgn, strerror(e ? e : EIO));
        }
        if (!outfile_commit(&o, why, sizeof why)) {
            free(data);
            return err_set(err, errlen, "--resume %s: %s", cfg->pgn, why);
        }
    }
    free(data);
    m->pgn = outfile_append(cfg->pgn, why, sizeof why);
    if (!m->pgn)
        return err_set(err, errlen, "--pgn: %s", why);
    m->next = m->next_write = games;
    m->res->resumed = games;
    if (cfg->out && games)
        fprintf(cfg->out, "Resumed %ld game%s from %s%s\n", games, games == 1 ? "" : "s", cfg->pgn,
                whole < len ? " (the unfinished record after them cut off)" : "");
    return true;
}
