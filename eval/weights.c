/* The evaluation weights as text (see weights.h). */
#include "weights.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine/util/embed.h"
#include "engine/util/error.h"

EMBED_FILE(chuhan_default_weights, "eval/weights.txt");

/* Filled once by weights_init (chuhan_init), read-only afterwards. */
EvalParams DefaultEvalParams;

typedef struct {
    const char *name;
    int offset, size; /* in Score slots */
} Field;

#define SLOTS(f) (int)(offsetof(EvalParams, f) / sizeof(Score)), (int)(sizeof(((EvalParams *)0)->f) / sizeof(Score))

/* Every weight but psqt[NO_PIECE_TYPE], which no piece uses. */
static const Field FIELDS[] = {
    {"piece_value", SLOTS(piece_value)},
    {"psqt.pawn", SLOTS(psqt[PAWN])},
    {"psqt.advisor", SLOTS(psqt[ADVISOR])},
    {"psqt.elephant", SLOTS(psqt[ELEPHANT])},
    {"psqt.horse", SLOTS(psqt[HORSE])},
    {"psqt.cannon", SLOTS(psqt[CANNON])},
    {"psqt.rook", SLOTS(psqt[ROOK])},
    {"psqt.king", SLOTS(psqt[KING])},
    {"rook_mobility", SLOTS(rook_mobility)},
    {"horse_mobility", SLOTS(horse_mobility)},
    {"cannon_mobility", SLOTS(cannon_mobility)},
    {"elephant_mobility", SLOTS(elephant_mobility)},
    {"advisor_mobility", SLOTS(advisor_mobility)},
    {"missing_advisor", SLOTS(missing_advisor)},
    {"missing_elephant", SLOTS(missing_elephant)},
    {"cannon_on_king_file", SLOTS(cannon_on_king_file)},
    {"empty_cannon", SLOTS(empty_cannon)},
    {"rook_on_king_file", SLOTS(rook_on_king_file)},
    {"horse_near_palace", SLOTS(horse_near_palace)},
    {"king_exposed", SLOTS(king_exposed)},
    {"crossed_pawns", SLOTS(crossed_pawns)},
    {"hanging", SLOTS(hanging)},
    {"rook_pair_vs_none", SLOTS(rook_pair_vs_none)},
    {"tempo", SLOTS(tempo)},
};
#define FIELD_NB ((int)(sizeof FIELDS / sizeof FIELDS[0]))
_Static_assert(sizeof(EvalParams) % sizeof(Score) == 0, "EvalParams holds Scores only");

/* ---- writing ---- */

bool weights_write(FILE *out, const EvalParams *params, const char *comment)
{
    fprintf(out, "# Evaluation weights (eval/weights.h): the engine's are eval/weights.txt,\n"
                 "# built into the binary; `chuhan texel` writes them.\n");
    for (const char *p = comment; p && *p;) {
        const char *nl = strchr(p, '\n');
        int len = nl ? (int)(nl - p) : (int)strlen(p);
        fprintf(out, "# %.*s\n", len, p);
        p += len + (nl != NULL);
    }
    fprintf(out, "# Each value is mg/eg centipawns; a psqt table is ten ranks of nine\n"
                 "# files, rank 0 (the own back rank) first, from Red's side.\n");
    const Score *base = (const Score *)params;
    for (int f = 0; f < FIELD_NB; f++) {
        const Field *fd = &FIELDS[f];
        bool rows = fd->size > FILE_NB;
        fprintf(out, "\n%s", fd->name);
        for (int i = 0; i < fd->size; i++) {
            char v[24];
            Score s = base[fd->offset + i];
            snprintf(v, sizeof v, "%d/%d", mg_value(s), eg_value(s));
            if (rows) /* a row of nine, in columns */
                fprintf(out, "%s %9s", i % FILE_NB ? "" : "\n", v);
            else
                fprintf(out, " %s", v);
        }
        fputc('\n', out);
    }
    return !ferror(out);
}

/* ---- reading ---- */

typedef struct {
    const char *p;
    int line;
    const char *name;
    char *err;
    size_t errlen;
} Reader;

/* The next word (into buf), comments and blanks skipped; false at the end. */
static bool next_word(Reader *r, char *buf, size_t len)
{
    for (;;) {
        while (isspace((unsigned char)*r->p))
            r->line += *r->p++ == '\n';
        if (*r->p != '#')
            break;
        while (*r->p && *r->p != '\n')
            r->p++;
    }
    if (!*r->p)
        return false;
    size_t n = 0;
    while (*r->p && !isspace((unsigned char)*r->p)) {
        if (n + 1 < len)
            buf[n++] = *r->p;
        r->p++;
    }
    buf[n] = 0;
    return true;
}

static bool fail(Reader *r, const char *what, const char *word)
{
    return err_set(r->err, r->errlen, "%s:%d: %s%s%s%s", r->name, r->line, what, word ? " '" : "", word ? word : "",
                   word ? "'" : "");
}

/* "mg/eg", each a whole number from -32768 to 32767. */
static bool parse_value(const char *word, Score *out)
{
    long v[2];
    const char *p = word;
    for (int k = 0; k < 2; k++) {
        char *end;
        errno = 0;
        v[k] = strtol(p, &end, 10);
        if (end == p || errno || v[k] < -32768 || v[k] > 32767 || *end != (k ? 0 : '/'))
            return false;
        p = end + 1;
    }
    *out = S(v[0], v[1]);
    return true;
}

bool weights_parse(const char *text, const char *name, EvalParams *out, char *err, size_t errlen)
{
    Reader r = {text, 1, name, err, errlen};
    bool seen[FIELD_NB] = {false};
    memset(out, 0, sizeof *out);
    char word[64];
    bool have = next_word(&r, word, sizeof word);
    while (have) {
        const Field *fd = NULL;
        for (int f = 0; f < FIELD_NB && !fd; f++)
            if (!strcmp(FIELDS[f].name, word))
                fd = &FIELDS[f];
        if (!fd)
            return fail(&r, "unknown weight", word);
        if (seen[fd - FIELDS])
            return fail(&r, "a second time:", word);
        seen[fd - FIELDS] = true;
        int n = 0, line = r.line;
        while ((have = next_word(&r, word, sizeof word)) && (isdigit((unsigned char)word[0]) || word[0] == '-')) {
            if (n == fd->size)
                return fail(&r, "a value too many for", fd->name);
            if (!parse_value(word, (Score *)out + fd->offset + n))
                return fail(&r, "not mg/eg (whole numbers from -32768 to 32767):", word);
            n++;
        }
        if (n < fd->size) {
            char what[96];
            r.line = line; /* where the short list starts */
            snprintf(what, sizeof what, "%d values where %d belong to", n, fd->size);
            return fail(&r, what, fd->name);
        }
    }
    for (int f = 0; f < FIELD_NB; f++)
        if (!seen[f])
            return fail(&r, "missing:", FIELDS[f].name);
    return true;
}

bool weights_read_file(const char *path, EvalParams *out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return err_set(err, errlen, "%s: %s", path, strerror(errno));
    size_t cap = 1 << 20;
    char *text = malloc(cap);
    size_t n = text ? fread(text, 1, cap - 1, f) : 0;
    bool bad = ferror(f) || n == cap - 1;
    fclose(f);
    if (!text)
        return err_set(err, errlen, "out of memory");
    bool ok;
    if (bad) {
        ok = err_set(err, errlen, "%s: cannot read it (or larger than 1 MB)", path);
    } else {
        text[n] = 0;
        ok = weights_parse(text, path, out, err, errlen);
    }
    free(text);
    return ok;
}

bool weights_init(char *err, size_t errlen)
{
    return weights_parse((const char *)chuhan_default_weights_start, "eval/weights.txt (built in)", &DefaultEvalParams,
                         err, errlen);
}
