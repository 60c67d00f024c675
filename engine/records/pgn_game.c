/* A PGN record's games, from its UTF-8 text: tags, move numbers, comments,
 * variations (skipped), NAGs, results, Chinese moves run together; then
 * what a game says (tags, result) and its replay. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/board/movegen.h"
#include "engine/util/error.h"
#include "notation.h"
#include "pgn_private.h"

static void game_reset(PgnReader *r)
{
    r->arena.len = 0;
    r->ntags = r->nmoves = 0;
    r->termination = 0;
    buf_add(&r->arena, "", 1); /* offset 0: the empty string */
}

static size_t arena_add(PgnReader *r, const char *s, size_t n, bool *oom)
{
    size_t off = r->arena.len;
    if (!buf_add(&r->arena, s, n) || !buf_add(&r->arena, "", 1))
        *oom = true;
    return off;
}

static void add_tag(PgnReader *r, const char *name, size_t nlen, const char *value, size_t vlen, bool *oom)
{
    if (r->ntags == r->tagcap) {
        int cap = r->tagcap ? r->tagcap * 2 : 16;
        TagOff *t = realloc(r->tagoff, (size_t)cap * sizeof *t);
        if (!t) {
            *oom = true;
            return;
        }
        r->tagoff = t;
        r->tagcap = cap;
    }
    TagOff *t = &r->tagoff[r->ntags++];
    t->name = arena_add(r, name, nlen, oom);
    /* unescape \" and \\ */
    t->value = r->arena.len;
    for (size_t i = 0; i < vlen; i++) {
        if (value[i] == '\\' && i + 1 < vlen && (value[i + 1] == '"' || value[i + 1] == '\\'))
            i++;
        if (!buf_add(&r->arena, value + i, 1))
            *oom = true;
    }
    if (!buf_add(&r->arena, "", 1))
        *oom = true;
}

static void add_move(PgnReader *r, const char *s, size_t n, bool *oom)
{
    if (r->nmoves == r->movecap) {
        int cap = r->movecap ? r->movecap * 2 : 256;
        size_t *m = realloc(r->moveoff, (size_t)cap * sizeof *m);
        if (!m) {
            *oom = true;
            return;
        }
        r->moveoff = m;
        r->movecap = cap;
    }
    r->moveoff[r->nmoves++] = arena_add(r, s, n, oom);
}

static bool has_tag(PgnReader *r, const char *name, size_t nlen)
{
    for (int i = 0; i < r->ntags; i++) {
        const char *t = r->arena.p + r->tagoff[i].name;
        if (strlen(t) == nlen && !memcmp(t, name, nlen))
            return true;
    }
    return false;
}

/* A tag at s[i] == '['; returns the index after it. */
static size_t parse_tag(PgnReader *r, const char *s, size_t n, size_t i, bool *oom)
{
    size_t e = i;
    while (e < n && s[e] != '\n')
        e++;
    i++;
    while (i < e && (s[i] == ' ' || s[i] == '\t'))
        i++;
    size_t name = i;
    while (i < e && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-'))
        i++;
    size_t nlen = i - name;
    while (i < e && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i < e && s[i] == '"') {
        size_t v = ++i;
        /* the closing quote is the one followed by ']' and then the end of
         * the line or another tag: values may hold unescaped quotes */
        for (size_t j = v; j < e; j++) {
            if (s[j] == '\\' && j + 1 < e) {
                j++;
                continue;
            }
            if (s[j] != '"')
                continue;
            size_t k = j + 1;
            while (k < e && (s[k] == ' ' || s[k] == '\t'))
                k++;
            if (k >= e || s[k] != ']')
                continue;
            size_t after = pgn_skip_blank(s, e, k + 1);
            if (after < e && s[after] != '[')
                continue;
            if (nlen)
                add_tag(r, s + name, nlen, s + v, j - v, oom);
            return k + 1;
        }
        /* no proper end: the rest of the line, less a trailing "] */
        size_t end = e;
        while (end > v && (s[end - 1] == ' ' || s[end - 1] == '\t' || s[end - 1] == '\r'))
            end--;
        if (end > v && s[end - 1] == ']')
            end--;
        if (end > v && s[end - 1] == '"')
            end--;
        if (nlen)
            add_tag(r, s + name, nlen, s + v, end - v, oom);
        return e;
    }
    size_t v = i, end = i;
    while (end < e && s[end] != ']')
        end++;
    size_t vend = end;
    while (vend > v && (s[vend - 1] == ' ' || s[vend - 1] == '\t'))
        vend--;
    if (nlen)
        add_tag(r, s + name, nlen, s + v, vend - v, oom);
    return end < e ? end + 1 : e;
}

static bool is_result(const char *t, size_t n)
{
    static const char *const RESULTS[] = {"1-0", "0-1", "1/2-1/2", "\xC2\xBD-\xC2\xBD", "0.5-0.5", "*",
                                          "紅勝", "红胜", "黑勝", "黑胜", "和棋", "和局"};
    for (size_t i = 0; i < sizeof RESULTS / sizeof RESULTS[0]; i++)
        if (strlen(RESULTS[i]) == n && !memcmp(RESULTS[i], t, n))
            return true;
    return false;
}

/* Does a token end at s[i]? */
static size_t delimiter(const char *s, size_t n, size_t i)
{
    switch (s[i]) {
    case ' ': case '\t': case '\n': case '\r': case '\f': case '\v':
    case '{': case '}': case '(': case ')': case '[': case ']': case ';':
        return 1;
    default:
        if (i + 3 <= n && !memcmp(s + i, "\xE3\x80\x80", 3))
            return 3;
        return 0;
    }
}

static bool wxf_digit_shape(const char *t, size_t n)
{
    return n == 4 && t[0] >= '1' && t[0] <= '9' && ((t[1] >= '1' && t[1] <= '9') || t[1] == '+' || t[1] == '-') &&
           strchr(".=+-", t[2]) && t[2] && t[3] >= '1' && t[3] <= '9';
}

/* Strip a leading move number ("12." "12..." "12．" "12、"): the start of
 * the move in t, or n when the token is nothing but a number. */
static size_t move_number(const char *t, size_t n)
{
    size_t j = 0;
    while (j < n) {
        if (isdigit((unsigned char)t[j]))
            j++;
        else if (j + 3 <= n && (unsigned char)t[j] == 0xEF && (unsigned char)t[j + 1] == 0xBC &&
                 (unsigned char)t[j + 2] >= 0x90 && (unsigned char)t[j + 2] <= 0x99) /* ０..９ */
            j += 3;
        else
            break;
    }
    size_t k = j;
    while (k < n) {
        if (t[k] == '.')
            k++;
        else if (k + 3 <= n && (!memcmp(t + k, "\xEF\xBC\x8E", 3) /* ． */ || !memcmp(t + k, "\xE2\x80\xA6", 3) /* … */
                                || !memcmp(t + k, "\xE3\x80\x81", 3) /* 、 */ || !memcmp(t + k, "\xE3\x80\x82", 3) /* 。 */))
            k += 3;
        else
            break;
    }
    if (j == 0 && k == n)
        return n; /* "..." alone */
    if (j == 0 || wxf_digit_shape(t, n))
        return 0;
    if (k == n)
        return n;
    return k > j ? k : 0;
}

static void add_moves(PgnReader *r, const char *t, size_t n, bool *oom)
{
    /* Chinese moves written without spaces: split every four characters */
    if ((unsigned char)t[0] >= 0x80) {
        size_t cps = 0, bounds[64];
        bool wide = true;
        for (size_t i = 0; i < n && wide;) {
            size_t k = pgn_utf8_seq((const unsigned char *)t + i, n - i);
            if (!k || k == 1) {
                wide = false;
                break;
            }
            if (cps % 4 == 0 && cps / 4 < 64)
                bounds[cps / 4] = i;
            cps++;
            i += k;
        }
        if (wide && cps > 4 && cps % 4 == 0 && cps / 4 <= 64) {
            for (size_t m = 0; m < cps / 4; m++) {
                size_t b = bounds[m], e = m + 1 < cps / 4 ? bounds[m + 1] : n;
                add_move(r, t + b, e - b, oom);
            }
            return;
        }
    }
    add_move(r, t, n, oom);
}

/* Parse the next game from the text; 1 if there was one, 0 if none is left,
 * -1 out of memory. */
int pgn_parse_game(PgnReader *r)
{
    const char *s = r->text.p;
    size_t n = r->text.len, i = r->text_pos;
    bool oom = false, moves = false, any = false;
    bool line_start = i == 0 || s[i - 1] == '\n';
    long line = r->text_line, start_line = line;
    game_reset(r);
    while (i < n && !oom) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n') {
            i++, line++;
            line_start = true;
            continue;
        }
        size_t b = pgn_skip_blank(s, n, i);
        if (b > i || c == '\r') {
            i = b > i ? b : i + 1;
            continue;
        }
        if (c == '%' && line_start) {
            while (i < n && s[i] != '\n')
                i++;
            continue;
        }
        line_start = false;
        if (!any)
            start_line = line;
        if (c == '[') {
            const char *name;
            size_t nlen;
            pgn_tag_line(s + i, n - i, &name, &nlen);
            if (moves || (any && has_tag(r, name, nlen)))
                break; /* the next game's tags */
            i = parse_tag(r, s, n, i, &oom);
            any = true;
            continue;
        }
        if (c == '{') {
            while (i < n && s[i] != '}')
                line += s[i++] == '\n';
            i += i < n;
            continue;
        }
        if (c == ';') {
            while (i < n && s[i] != '\n')
                i++;
            continue;
        }
        if (c == '(') {
            int depth = 0;
            while (i < n) {
                char ch = s[i];
                if (ch == '{') {
                    while (i < n && s[i] != '}')
                        line += s[i++] == '\n';
                } else if (ch == ';') {
                    while (i < n && s[i] != '\n')
                        i++;
                    continue;
                } else if (ch == '(') {
                    depth++;
                } else if (ch == ')' && --depth == 0) {
                    i++;
                    break;
                } else if (ch == '\n') {
                    line++;
                }
                i += i < n;
            }
            continue;
        }
        if (c == ')' || c == '}' || c == ']') {
            i++;
            continue;
        }
        if (c == '$') {
            i++;
            while (i < n && isdigit((unsigned char)s[i]))
                i++;
            continue;
        }
        size_t t = i;
        while (i < n && !delimiter(s, n, i))
            i++;
        size_t len = i - t;
        if (is_result(s + t, len)) {
            r->termination = arena_add(r, s + t, len, &oom);
            any = true;
            break;
        }
        size_t k = move_number(s + t, len);
        if (k < len) {
            add_moves(r, s + t + k, len - k, &oom);
            moves = true;
        }
        any = true;
    }
    r->text_pos = i;
    r->text_line = line;
    if (oom)
        return -1;
    if (!any)
        return 0;
    /* pointers into the arena, now that it no longer moves */
    if (r->ntags > 0) {
        PgnTag *t = realloc(r->tags, (size_t)r->tagcap * sizeof *t);
        if (!t)
            return -1;
        r->tags = t;
        for (int j = 0; j < r->ntags; j++) {
            r->tags[j].name = r->arena.p + r->tagoff[j].name;
            r->tags[j].value = r->arena.p + r->tagoff[j].value;
        }
    }
    if (r->nmoves > 0) {
        const char **m = realloc(r->moves, (size_t)r->movecap * sizeof *m);
        if (!m)
            return -1;
        r->moves = m;
        for (int j = 0; j < r->nmoves; j++)
            r->moves[j] = r->arena.p + r->moveoff[j];
    }
    PgnGame *g = &r->game;
    g->tags = r->ntags ? r->tags : NULL;
    g->ntags = r->ntags;
    g->moves = r->nmoves ? r->moves : NULL;
    g->nmoves = r->nmoves;
    g->termination = r->arena.p + r->termination;
    g->index = ++r->games;
    g->line = start_line;
    g->encoding = r->rec_enc;
    g->bad_lines = r->rec_bad;
    return 1;
}

/* ---- queries and replay ---- */

const char *pgn_tag(const PgnGame *g, const char *name)
{
    for (int i = 0; i < g->ntags; i++)
        if (!strcmp(g->tags[i].name, name))
            return g->tags[i].value;
    return NULL;
}

void pgn_write_tag(FILE *out, const char *name, const char *value)
{
    fprintf(out, "[%s \"", name);
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', out);
        fputc(*p, out);
    }
    fputs("\"]\n", out);
}

static int result_of(const char *s)
{
    if (!s)
        return PGN_UNKNOWN;
    while (*s == ' ')
        s++;
    if (!strncmp(s, "1-0", 3) || !strcmp(s, "紅勝") || !strcmp(s, "红胜"))
        return PGN_RED_WINS;
    if (!strncmp(s, "0-1", 3) || !strcmp(s, "黑勝") || !strcmp(s, "黑胜"))
        return PGN_BLACK_WINS;
    if (!strncmp(s, "1/2-1/2", 7) || !strncmp(s, "\xC2\xBD-\xC2\xBD", 5) || !strncmp(s, "0.5-0.5", 7) ||
        !strcmp(s, "和棋") || !strcmp(s, "和局"))
        return PGN_DRAW;
    return PGN_UNKNOWN;
}

int pgn_result(const PgnGame *g)
{
    int res = result_of(pgn_tag(g, "Result"));
    return res != PGN_UNKNOWN ? res : result_of(g->termination);
}

const char *pgn_error_name(PgnReplayError e)
{
    static const char *const NAMES[PGN_ERR_NB] = {
        "ok", "no moves", "bad FEN", "unreadable or illegal move", "moves after the end of the game",
        "too many moves",
    };
    return (int)e >= 0 && e < PGN_ERR_NB ? NAMES[e] : "?";
}

/* An error for the caller (engine/util/error.h), then the error code e. */
#define replay_fail(e, ...) (err_set(__VA_ARGS__), (e))

PgnReplayError pgn_replay(const PgnGame *g, Position *pos, Move *moves, int max, int *nmoves, char *err,
                          size_t errlen)
{
    int played = 0;
    if (nmoves)
        *nmoves = 0;
    const char *fen = pgn_tag(g, "FEN");
    char why[200];
    if (!fen || !*fen)
        fen = START_FEN;
    if (!pos_set_fen(pos, fen, why, sizeof why))
        return replay_fail(PGN_ERR_FEN, err, errlen, "bad FEN tag: %s", why);
    if (g->nmoves == 0)
        return replay_fail(PGN_ERR_NO_MOVES, err, errlen, "the record has no moves");
    for (int i = 0; i < g->nmoves; i++) {
        int ply = pos_game_ply(pos);
        if (pos_room(pos) < 1)
            return replay_fail(PGN_ERR_TOO_LONG, err, errlen, "more than %d moves", played);
        Move m = notation_read(pos, g->moves[i], NOTATION_AUTO, why, sizeof why);
        if (m == MOVE_NONE) {
            const char *side = pos->side == RED ? "red" : "black";
            if (count_legal(pos) == 0)
                return replay_fail(PGN_ERR_AFTER_END, err, errlen, "move %d (%s) '%s' comes after %s is %s", ply / 2 + 1,
                                   side, g->moves[i], side, pos_in_check(pos) ? "checkmated" : "stalemated");
            return replay_fail(PGN_ERR_MOVE, err, errlen, "move %d (%s): %s", ply / 2 + 1, side, why);
        }
        if (moves && played < max)
            moves[played] = m;
        pos_do_move(pos, m);
        played++;
        if (nmoves)
            *nmoves = played;
    }
    return PGN_OK;
}

/* ---- names ---- */

static const struct {
    const char *name;
    PgnEncoding enc;
} ENCODING_NAMES[] = {
    {"auto", PGN_ENC_AUTO}, {"utf-8", PGN_ENC_UTF8}, {"utf8", PGN_ENC_UTF8},     {"gbk", PGN_ENC_GBK},
    {"gb2312", PGN_ENC_GBK}, {"gb18030", PGN_ENC_GBK}, {"cp936", PGN_ENC_GBK},   {"big5", PGN_ENC_BIG5},
    {"cp950", PGN_ENC_BIG5},
};

bool pgn_parse_encoding(const char *name, PgnEncoding *enc)
{
    for (size_t i = 0; i < sizeof ENCODING_NAMES / sizeof ENCODING_NAMES[0]; i++)
        if (!strcasecmp(name, ENCODING_NAMES[i].name)) {
            *enc = ENCODING_NAMES[i].enc;
            return true;
        }
    return false;
}
