/* The PGN record of a match game, as `chuhan match --pgn` writes it, and
 * the growing text it is written into. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "match_private.h"

/* The PGN Termination tag of each. */
static const char *const TerminationTag[TERM_NB] = {
    "normal",         "normal",       "rules infraction", "normal",           "normal",
    "normal",         "adjudication", "adjudication",     "adjudication",     "time forfeit",
    "rules infraction", "rules infraction", "abandoned",  "stalled connection",
};

void match_text_add(Text *t, const char *fmt, ...)
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

void match_text_clear(Text *t)
{
    t->len = 0;
    if (t->s)
        t->s[0] = 0;
}

void match_result_text(GameResult r, char *out)
{
    strcpy(out, r == GAME_RED_WINS ? "1-0" : r == GAME_BLACK_WINS ? "0-1" : r == GAME_DRAW ? "1/2-1/2" : "*");
}

/* A PGN tag value with quotes and backslashes escaped. */
static void tag(Text *t, const char *name, const char *value)
{
    match_text_add(t, "[%s \"", name);
    for (const char *p = value; *p; p++)
        match_text_add(t, "%s%c", *p == '"' || *p == '\\' ? "\\" : "", *p);
    match_text_add(t, "\"]\n");
}

void match_comment_text(char *out, size_t len, const char *s)
{
    size_t n = 0;
    for (; *s && n + 1 < len; s++)
        out[n++] = *s == '{' ? '(' : *s == '}' ? ')' : *s;
    out[n] = 0;
}

void match_game_pgn(const Match *m, GameRecord *rec, const char *start_fen, int nplies, const char *moves)
{
    const MatchConfig *cfg = m->cfg;
    char res[8], round[24], tc[200];
    match_result_text(rec->result, res);
    snprintf(round, sizeof round, "%ld", rec->index + 1);
    Text *t = &rec->pgn;
    tag(t, "Game", "Chinese Chess");
    tag(t, "Event", cfg->event);
    tag(t, "Site", "?");
    tag(t, "Date", m->date);
    tag(t, "Round", round);
    tag(t, "Red", cfg->engines[rec->red].name);
    tag(t, "Black", cfg->engines[rec->black].name);
    tag(t, "Result", res);
    if (start_fen)
        tag(t, "FEN", start_fen);
    if (strcmp(m->tc_text[rec->red], m->tc_text[rec->black]))
        snprintf(tc, sizeof tc, "%s / %s", m->tc_text[rec->red], m->tc_text[rec->black]);
    else
        snprintf(tc, sizeof tc, "%s", m->tc_text[rec->red]);
    tag(t, "TimeControl", tc);
    char plies[24];
    snprintf(plies, sizeof plies, "%d", nplies);
    tag(t, "PlyCount", plies);
    tag(t, "Termination", TerminationTag[rec->term]);
    tag(t, "TerminationDetails", rec->reason);
    char cmt[400];
    match_comment_text(cmt, sizeof cmt, rec->reason);
    match_text_add(t, "\n");
    /* wrap the move text at about 80 columns */
    const char *p = moves;
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
            match_text_add(t, "\n");
            col = 0;
        } else if (col) {
            match_text_add(t, " ");
            col++;
        }
        match_text_add(t, "%.*s", (int)n, p);
        col += width;
        p = q;
        while (*p == ' ')
            p++;
    }
    match_text_add(t, "%s{%s} %s\n\n", col ? "\n" : "", cmt, res);
}
