#include "protocol.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/util/num.h"
#include "engine/util/text.h"

void out_init(Output *out, FILE *f)
{
    out->f = f;
    out->log = NULL;
    pthread_mutex_init(&out->lock, NULL);
}

void out_destroy(Output *out) { pthread_mutex_destroy(&out->lock); }

void out_set_log(Output *out, DebugLog *log)
{
    pthread_mutex_lock(&out->lock);
    out->log = log;
    pthread_mutex_unlock(&out->lock);
}

void out_log_in(Output *out, const char *line)
{
    pthread_mutex_lock(&out->lock);
    if (out->log)
        dlog_line(out->log, true, line);
    pthread_mutex_unlock(&out->lock);
}

void out_line(Output *out, const char *fmt, ...)
{
    /* Every line goes out through text_clean: whatever of the input a
     * message quotes (a bad option name, a move, a path, an engine's
     * error), no control character reaches the GUI's console. */
    char small[1024], *line = small;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof small) {
        line = malloc((size_t)n + 1);
        if (line) {
            va_start(ap, fmt);
            vsnprintf(line, (size_t)n + 1, fmt, ap);
            va_end(ap);
        } else {
            line = small; /* out of memory: the line cut short */
        }
    }
    text_clean(line);
    pthread_mutex_lock(&out->lock);
    fputs(line, out->f);
    fputc('\n', out->f);
    fflush(out->f);
    if (out->log)
        dlog_line(out->log, false, line);
    pthread_mutex_unlock(&out->lock);
    if (line != small)
        free(line);
}

bool proto_read_line(FILE *in, char *buf, size_t cap, bool *too_long)
{
    size_t n = 0;
    int ch;
    bool any = false;
    *too_long = false;
    while ((ch = getc(in)) != EOF) {
        any = true;
        /* CR, LF and CR LF all end a line (the LF of a CR LF then ends an
         * empty one, which every reader skips): waiting to see whether an
         * LF follows a CR would block on a GUI that sends CR alone */
        if (ch == '\n' || ch == '\r')
            break;
        if (ch == '\0')
            continue;
        if (n + 1 < cap)
            buf[n++] = (char)ch;
        else
            *too_long = true;
    }
    buf[n] = 0;
    return any;
}

int proto_tokenize(char *line, char **tokens, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\r\v\f", &save); t && n < max; t = strtok_r(NULL, " \t\r\v\f", &save))
        tokens[n++] = t;
    return n;
}

bool in_open(Input *in, FILE *f, const char *first_line, Output *out, const char *refusal)
{
    in->f = f;
    in->out = out;
    in->refusal = refusal;
    in->first = first_line;
    in->line = malloc(LINE_MAX_BYTES);
    in->tok = malloc(sizeof(char *) * MAX_TOKENS);
    if (in->line && in->tok)
        return true;
    in_close(in);
    return false;
}

void in_close(Input *in)
{
    free(in->line);
    free(in->tok);
    in->line = NULL;
    in->tok = NULL;
}

int in_next(Input *in)
{
    for (;;) {
        bool too_long = false;
        if (in->first) {
            snprintf(in->line, LINE_MAX_BYTES, "%s", in->first);
            in->first = NULL;
        } else if (!proto_read_line(in->f, in->line, LINE_MAX_BYTES, &too_long)) {
            return 0;
        }
        out_log_in(in->out, in->line);
        if (too_long) {
            out_line(in->out, "%s input line longer than %d bytes ignored", in->refusal, LINE_MAX_BYTES - 1);
            continue;
        }
        int n = proto_tokenize(in->line, in->tok, MAX_TOKENS);
        if (n == MAX_TOKENS)
            out_line(in->out, "%s too many words on one line (at most %d); ignored", in->refusal, MAX_TOKENS - 1);
        else if (n)
            return n;
    }
}

bool proto_join(char **tok, int from, int to, char *out, size_t len)
{
    size_t used = 0;
    out[0] = 0;
    for (int i = from; i < to; i++) {
        if (used >= len)
            return false;
        used += (size_t)snprintf(out + used, len - used, "%s%s", i > from ? " " : "", tok[i]);
    }
    return used < len;
}

static bool word_is(const char *word, const char *keyword, bool nocase)
{
    return nocase ? !strcasecmp(word, keyword) : !strcmp(word, keyword);
}

bool proto_position_words(char **tok, int n, int start, bool nocase, char *fen, size_t fenlen, const char **fenp,
                          int *moves_at, char *err, size_t errlen)
{
    int i = start;
    fen[0] = 0;
    *fenp = NULL;
    if (i < n && word_is(tok[i], "startpos", nocase)) {
        i++;
    } else if (i < n && word_is(tok[i], "fen", nocase)) {
        int first = ++i;
        while (i < n && !word_is(tok[i], "moves", nocase))
            i++;
        if (!proto_join(tok, first, i, fen, fenlen)) {
            snprintf(err, errlen, "the FEN is too long");
            return false;
        }
        if (!*fen) {
            snprintf(err, errlen, "'fen' needs a FEN");
            return false;
        }
        *fenp = fen;
    } else {
        snprintf(err, errlen, "expected 'startpos' or 'fen'");
        return false;
    }
    *moves_at = n;
    if (i < n) {
        if (!word_is(tok[i], "moves", nocase)) {
            char shown[65];
            snprintf(err, errlen, "unexpected '%s'", text_printable(shown, sizeof shown, tok[i]));
            return false;
        }
        *moves_at = i + 1;
    }
    return true;
}

int proto_option_words(char **tok, int n, int start, bool nocase, char *name, size_t namelen, char *value,
                       size_t valuelen, bool *has_value)
{
    int i = start;
    int first = i;
    while (i < n && !word_is(tok[i], "value", nocase))
        i++;
    bool fits = proto_join(tok, first, i, name, namelen);
    *has_value = i < n;
    fits &= proto_join(tok, i + 1, n, value, valuelen);
    return !fits ? -1 : *name != 0;
}

bool proto_clock_fallback(EngineLimits *lim, int us)
{
    int them = !us;
    bool other_limit = lim->infinite || lim->movetime || lim->depth || lim->nodes || lim->mate;
    if (other_limit || lim->time[us] >= 0 || (lim->time[them] < 0 && lim->inc[us] < 0 && lim->inc[them] < 0))
        return false;
    if (lim->inc[us] < 0)
        lim->inc[us] = lim->inc[them] >= 0 ? lim->inc[them] : 0;
    lim->time[us] = lim->time[them] >= 0 ? lim->time[them] : lim->inc[us];
    return true;
}

bool proto_go_number(Output *out, const char *refusal, char **tok, int n, int *i, int64_t min, int64_t max,
                     int64_t *value)
{
    if (*i + 1 < n && num_clamp(tok[*i + 1], min, max, value)) {
        (*i)++;
        return true;
    }
    char shown[65];
    out_line(out, "%s go: '%s' needs a number", refusal, text_printable(shown, sizeof shown, tok[*i]));
    return false;
}

void proto_pv_text(const EngineInfo *info, bool rank1, char *out)
{
    size_t n = 0;
    out[0] = 0;
    for (int i = 0; i < info->pv_len && n + 8 < PV_TEXT_MAX; i++) {
        char m[8];
        move_str(info->pv[i], m, rank1);
        n += (size_t)snprintf(out + n, PV_TEXT_MAX - n, " %s", m);
    }
}
