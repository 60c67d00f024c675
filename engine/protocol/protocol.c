#include "protocol.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void out_init(Output *out, FILE *f)
{
    out->f = f;
    pthread_mutex_init(&out->lock, NULL);
}

void out_destroy(Output *out) { pthread_mutex_destroy(&out->lock); }

void out_line(Output *out, const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&out->lock);
    va_start(ap, fmt);
    vfprintf(out->f, fmt, ap);
    va_end(ap);
    fputc('\n', out->f);
    fflush(out->f);
    pthread_mutex_unlock(&out->lock);
}

bool read_line(FILE *in, char *buf, size_t cap, bool *too_long)
{
    size_t n = 0;
    int ch;
    bool any = false;
    *too_long = false;
    while ((ch = getc(in)) != EOF) {
        any = true;
        if (ch == '\n')
            break;
        if (ch == '\0')
            continue;
        if (n + 1 < cap)
            buf[n++] = (char)ch;
        else
            *too_long = true;
    }
    if (n && buf[n - 1] == '\r')
        n--;
    buf[n] = 0;
    return any;
}

int tokenize(char *line, char **tokens, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\r\v\f", &save); t && n < max; t = strtok_r(NULL, " \t\r\v\f", &save))
        tokens[n++] = t;
    return n;
}

int protocol_main(FILE *in, FILE *out_file)
{
    static char line[LINE_MAX_BYTES];
    Output out;
    out_init(&out, out_file);
    bool too_long;
    int status = 0;
    /* The first non-empty line names the protocol: ucci, xboard, or uci;
     * UCI serves anything else, taking that line as its first command. */
    while (read_line(in, line, sizeof line, &too_long)) {
        if (too_long) {
            /* refused like any other line: the next one names the protocol */
            out_line(&out, "info string input line longer than %d bytes ignored", LINE_MAX_BYTES - 1);
            continue;
        }
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            continue;
        size_t n = strcspn(p, " \t\r\v\f");
        if (n == 4 && !strncmp(p, "ucci", 4))
            status = ucci_main(in, &out, line);
        else if (n == 6 && !strncmp(p, "xboard", 6))
            status = cecp_main(in, &out, line);
        else
            status = uci_main(in, &out, line); /* "uci", or a UCI command */
        break;
    }
    out_destroy(&out);
    return status;
}
