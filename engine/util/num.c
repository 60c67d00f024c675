#include "num.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

/* Blanks after the number, then the end. */
static bool only_blanks(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    return !*p;
}

bool num_parse(const char *text, long min, long max, long *out)
{
    if (!text)
        return false;
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || errno == ERANGE || !only_blanks(end) || v < min || v > max)
        return false;
    *out = v;
    return true;
}

bool num_parse_u64(const char *text, uint64_t *out)
{
    if (!text)
        return false;
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    if (!isdigit((unsigned char)*p)) /* strtoull would take "-1" as 2^64 - 1 */
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 10);
    if (errno == ERANGE || !only_blanks(end))
        return false;
    *out = v;
    return true;
}

bool num_parse_double(const char *text, double min, double max, double *out)
{
    if (!text)
        return false;
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || errno == ERANGE || !only_blanks(end) || !(v >= min && v <= max))
        return false;
    *out = v;
    return true;
}

bool num_clamp(const char *text, int64_t min, int64_t max, int64_t *out)
{
    if (!text || !*text)
        return false;
    const char *p = text;
    if (*p == '-' || *p == '+')
        p++;
    if (!*p)
        return false;
    for (const char *q = p; *q; q++)
        if (!isdigit((unsigned char)*q))
            return false;
    errno = 0;
    long long v = strtoll(text, NULL, 10);
    if (errno == ERANGE)
        v = text[0] == '-' ? min : max;
    *out = v < min ? min : v > max ? max : v;
    return true;
}
