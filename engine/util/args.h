/* The command-line tools' one argument reader, so that every tool refuses
 * a bad word alike: with the reason, before any work.
 *
 * A tool describes its options in a table (the ARG_* macros below) and
 * reads its words with args_read(): each option takes the word after it
 * as its value (so "--lambda -0.5" is a value, refused by its range);
 * numbers are decimal, whole, within their range (no "nan", "inf", hex
 * or trailing text); other words are the tool's own (files, a FEN), "-"
 * among them, and so is everything after "--".  An option of several
 * words (ARG_WORDS: "--engine cmd=X name=Y") takes those up to the next
 * word that begins with "--".
 *
 *     long epochs = 10;
 *     const ArgOption opts[] = {ARG_LONG("--epochs", &epochs, 1, 100000)};
 *     const ArgSpec spec = {"train", opts, 1, NULL, 0};
 *     char why[ARGS_WHY_MAX];
 *     if (!args_read(&spec, argc, argv, NULL, why, sizeof why))
 *         return usage(why); (prints why, if any, then the usage)
 */
#ifndef CHUHAN_UTIL_ARGS_H
#define CHUHAN_UTIL_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    ARG_KIND_FLAG,   /* no value: stores flag_value in a bool */
    ARG_KIND_LONG,   /* long within [lmin, lmax] */
    ARG_KIND_U64,    /* uint64_t within [umin, umax] */
    ARG_KIND_DOUBLE, /* double within [dmin, dmax] */
    ARG_KIND_TEXT,   /* const char *, any text (the empty one too) */
    ARG_KIND_LIST,   /* each use appends to a const char *array of lmax */
    ARG_KIND_CUSTOM, /* parse(text, dest); refused as "not <expect>" */
    ARG_KIND_WORDS,  /* words(w, n, dest, why, len) on the words up to the next "--" one, lmin at least */
} ArgKind;

typedef struct {
    const char *name; /* as typed: "--epochs", "-o" */
    ArgKind kind;
    void *dest;
    long lmin, lmax;
    uint64_t umin, umax;
    double dmin, dmax;
    bool flag_value;
    int *count; /* ARG_KIND_LIST: the entries so far */
    bool (*parse)(const char *text, void *dest);
    const char *expect; /* ARG_KIND_CUSTOM: what a value must be ("an encoding: ...") */
    /* ARG_KIND_WORDS: false with the reason, which follows "TOOL: NAME: " */
    bool (*words)(const char *const *w, int n, void *dest, char *why, size_t len);
} ArgOption;

/* The pointer casts are compound literals, so that a destination of the
 * wrong type is a compile error rather than a write of the wrong size. */
#define ARG_FLAG(n, d, v) {.name = (n), .kind = ARG_KIND_FLAG, .dest = (bool *){(d)}, .flag_value = (v)}
#define ARG_LONG(n, d, lo, hi) {.name = (n), .kind = ARG_KIND_LONG, .dest = (long *){(d)}, .lmin = (lo), .lmax = (hi)}
#define ARG_U64(n, d, lo, hi) {.name = (n), .kind = ARG_KIND_U64, .dest = (uint64_t *){(d)}, .umin = (lo), .umax = (hi)}
#define ARG_DOUBLE(n, d, lo, hi)                                                                                       \
    {.name = (n), .kind = ARG_KIND_DOUBLE, .dest = (double *){(d)}, .dmin = (lo), .dmax = (hi)}
#define ARG_TEXT(n, d) {.name = (n), .kind = ARG_KIND_TEXT, .dest = (const char **){(d)}}
#define ARG_LIST(n, arr, cnt, cap)                                                                                     \
    {.name = (n), .kind = ARG_KIND_LIST, .dest = (const char **){(arr)}, .count = (cnt), .lmax = (cap)}
#define ARG_CUSTOM(n, d, fn, what) {.name = (n), .kind = ARG_KIND_CUSTOM, .dest = (d), .parse = (fn), .expect = (what)}
#define ARG_WORDS(n, d, least, fn) {.name = (n), .kind = ARG_KIND_WORDS, .dest = (d), .lmin = (least), .words = (fn)}

typedef struct {
    const char *tool; /* begins every reason: "train", "book build" */
    const ArgOption *options;
    size_t noptions;
    const char **rest; /* the other words, in order (NULL with rest_max 0: none allowed) */
    int rest_max;
} ArgSpec;

/* Room for any reason args_read() writes (longer words are cut short). */
#define ARGS_WHY_MAX 512

/* Read argv[0 .. argc-1] by spec: each option's value stored, the other
 * words in spec->rest and their number in *nrest (when not NULL).  False
 * at the first bad word, with the reason in why ("train: --lr: 'nan' is
 * not a number from 1e-07 to 1", "train: unknown option '--x'", "train:
 * --out needs a value"), or with why empty for --help or -h, which asks
 * for the usage alone.  Values read before a bad word may have been
 * stored. */
bool args_read(const ArgSpec *spec, int argc, char **argv, int *nrest, char *why, size_t len);

#endif
