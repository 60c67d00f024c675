#include "args.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "num.h"

/* A word that names an option: "-x" or "--x", but not "-" (a file: standard
 * input) nor "-5" or "-.5" (a number, which a tool may take as a word). */
static bool is_option(const char *w)
{
    return w[0] == '-' && w[1] && w[1] != '.' && !isdigit((unsigned char)w[1]);
}

/* Decimal notation only: strtod would also take "nan", "inf" and hex. */
static bool decimal_text(const char *t)
{
    for (; *t; t++)
        if (!isdigit((unsigned char)*t) && !isspace((unsigned char)*t) && !strchr("+-.eE", *t))
            return false;
    return true;
}

static const ArgOption *find(const ArgSpec *spec, const char *name)
{
    for (size_t i = 0; i < spec->noptions; i++)
        if (!strcmp(spec->options[i].name, name))
            return &spec->options[i];
    return NULL;
}

/* Store one option's value; false with the reason. */
static bool store(const char *tool, const ArgOption *o, const char *v, char *why, size_t len)
{
    switch (o->kind) {
    case ARG_KIND_FLAG:
        *(bool *)o->dest = o->flag_value;
        return true;
    case ARG_KIND_LONG: {
        long x;
        if (num_parse(v, o->lmin, o->lmax, &x)) {
            *(long *)o->dest = x;
            return true;
        }
        snprintf(why, len, "%s: %s: '%.100s' is not a number from %ld to %ld", tool, o->name, v, o->lmin, o->lmax);
        return false;
    }
    case ARG_KIND_U64: {
        uint64_t x;
        if (num_parse_u64(v, &x) && x >= o->umin && x <= o->umax) {
            *(uint64_t *)o->dest = x;
            return true;
        }
        snprintf(why, len, "%s: %s: '%.100s' is not a number from %" PRIu64 " to %" PRIu64, tool, o->name, v,
                 o->umin, o->umax);
        return false;
    }
    case ARG_KIND_DOUBLE: {
        double x;
        if (decimal_text(v) && num_parse_double(v, o->dmin, o->dmax, &x)) {
            *(double *)o->dest = x;
            return true;
        }
        snprintf(why, len, "%s: %s: '%.100s' is not a number from %g to %g", tool, o->name, v, o->dmin, o->dmax);
        return false;
    }
    case ARG_KIND_TEXT:
        *(const char **)o->dest = v;
        return true;
    case ARG_KIND_LIST:
        if (*o->count >= o->lmax) {
            snprintf(why, len, "%s: %s: at most %ld", tool, o->name, o->lmax);
            return false;
        }
        ((const char **)o->dest)[(*o->count)++] = v;
        return true;
    case ARG_KIND_CUSTOM:
        if (o->parse(v, o->dest))
            return true;
        snprintf(why, len, "%s: %s: '%.100s' is not %s", tool, o->name, v, o->expect);
        return false;
    case ARG_KIND_WORDS:
        break; /* read by words() */
    }
    snprintf(why, len, "%s: %s: an option of no known kind", tool, o->name);
    return false;
}

/* An option of several words: those after argv[*i] up to the next one
 * that begins with "--"; *i moves past them. */
static bool words(const char *tool, const ArgOption *o, int argc, char **argv, int *i, char *why, size_t len)
{
    int first = *i + 1, n = 0;
    while (first + n < argc && strncmp(argv[first + n], "--", 2))
        n++;
    *i += n;
    if (n < o->lmin) {
        if (o->lmin == 1)
            snprintf(why, len, "%s: %s needs a value", tool, o->name);
        else
            snprintf(why, len, "%s: %s needs %ld values", tool, o->name, o->lmin);
        return false;
    }
    char reason[ARGS_WHY_MAX];
    reason[0] = 0;
    if (o->words((const char *const *)argv + first, n, o->dest, reason, sizeof reason))
        return true;
    snprintf(why, len, "%s: %s: %s", tool, o->name, *reason ? reason : "refused");
    return false;
}

bool args_read(const ArgSpec *spec, int argc, char **argv, int *nrest, char *why, size_t len)
{
    int n = 0;
    bool options_end = false;
    if (len)
        why[0] = 0;
    if (nrest)
        *nrest = 0;
    for (int i = 0; i < argc; i++) {
        const char *w = argv[i];
        if (!options_end && !strcmp(w, "--")) {
            options_end = true; /* what follows is words, even "-x" */
            continue;
        }
        const ArgOption *o = options_end || !is_option(w) ? NULL : find(spec, w);
        if (!options_end && is_option(w) && !o) {
            if (strcmp(w, "--help") && strcmp(w, "-h"))
                snprintf(why, len, "%s: unknown option '%.100s'", spec->tool, w);
            return false;
        }
        if (!o) {
            if (n >= spec->rest_max) {
                if (spec->rest_max)
                    snprintf(why, len, "%s: too many arguments (at most %d): '%.100s'", spec->tool, spec->rest_max, w);
                else
                    snprintf(why, len, "%s: unexpected argument '%.100s'", spec->tool, w);
                return false;
            }
            spec->rest[n++] = w;
            if (nrest)
                *nrest = n;
            continue;
        }
        if (o->kind == ARG_KIND_WORDS) {
            if (!words(spec->tool, o, argc, argv, &i, why, len))
                return false;
            continue;
        }
        const char *v = NULL;
        if (o->kind != ARG_KIND_FLAG) {
            if (i + 1 >= argc) {
                snprintf(why, len, "%s: %s needs a value", spec->tool, o->name);
                return false;
            }
            v = argv[++i];
        }
        if (!store(spec->tool, o, v, why, len))
            return false;
    }
    return true;
}
