/* What the protocol front-ends share: bounded line reading, output that
 * the search thread and the input thread can both write, commands split
 * into words, and the pieces of text every protocol parses or prints alike
 * (a position, an option's name and value, a number after a keyword, a
 * principal variation).  Picking a protocol from the first command is
 * done above the front-ends (engine/cli/main.c). */
#ifndef CHUHAN_PROTOCOL_H
#define CHUHAN_PROTOCOL_H

#include <pthread.h>
#include <stdio.h>

#include "engine/engine.h"

#define LINE_MAX_BYTES (256 * 1024) /* longer input lines are cut and reported */
#define MAX_TOKENS (MAX_GAME_PLY + 64)

typedef struct {
    FILE *f;
    pthread_mutex_t lock;
    DebugLog *log; /* NULL: none (the engine's, while it lives) */
} Output;

void out_init(Output *out, FILE *f);
void out_destroy(Output *out);
/* Log every line written, and read (in_next, out_log_in), to log (NULL:
 * stop logging: before the engine that owns it is freed). */
void out_set_log(Output *out, DebugLog *log);
/* A line read by the front-end, to the log. */
void out_log_in(Output *out, const char *line);
/* One whole line (a newline is added), its control characters as '?' (text_clean:
 * what a message quotes of the input cannot reach the GUI raw), written and
 * flushed under the lock. */
void out_line(Output *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Read a line without its end-of-line (CR, LF or CR LF; the LF of a CR LF
 * ends an empty line) into buf.  False at end of input.  A
 * line longer than cap - 1 bytes is cut there, the rest is skipped and
 * *too_long set; NUL bytes are dropped. */
bool proto_read_line(FILE *in, char *buf, size_t cap, bool *too_long);

/* Split a line into whitespace-separated words, in place. */
int proto_tokenize(char *line, char **tokens, int max);

/* The commands of a line-per-command protocol (UCI, UCCI), as words. */
typedef struct {
    FILE *f;
    Output *out;
    const char *refusal; /* what starts the reply to a refused line: "info string" */
    const char *first;   /* the first line, already read by the caller (NULL: none) */
    char *line;          /* LINE_MAX_BYTES */
    char **tok;          /* MAX_TOKENS */
} Input;

/* False when out of memory. */
bool in_open(Input *in, FILE *f, const char *first_line, Output *out, const char *refusal);
void in_close(Input *in);
/* The words of the next command into in->tok: their count, 0 at the end
 * of input.  A line too long or of too many words is refused (a reply
 * with in->refusal) and skipped, as are empty lines. */
int in_next(Input *in);

/* tok[from .. to) joined by single spaces into out; false when it had to
 * be cut to fit len. */
bool proto_join(char **tok, int from, int to, char *out, size_t len);

/* "startpos [moves ...]" or "fen <FEN> [moves ...]" from tok[start]
 * (keywords in any case when nocase): the FEN into fen (*fenp NULL for the
 * start position) and the index of the first move into *moves_at.  False
 * with the reason. */
bool proto_position_words(char **tok, int n, int start, bool nocase, char *fen, size_t fenlen, const char **fenp,
                          int *moves_at, char *err, size_t errlen);

/* "<name words> [value <value words>]" from tok[start], after the word
 * "name" (the keyword in any case when nocase): 1, 0 when no name is
 * given, -1 when the name or the value is too long for its buffer (refused,
 * never cut short). */
int proto_option_words(char **tok, int n, int start, bool nocase, char *name, size_t namelen, char *value,
                       size_t valuelen, bool *has_value);

/* The number after the go parameter tok[*i] (clamped into [min, max]), *i
 * moved onto it; when there is none, "<refusal> go: 'PARAMETER' needs a
 * number" to out and false. */
bool proto_go_number(Output *out, const char *refusal, char **tok, int n, int *i, int64_t min, int64_t max,
                     int64_t *value);

/* A clock given, but not the mover's (the opponent's only, or only
 * increments), and nothing else to end the search: searching until stop
 * would hang the game.  The mover takes the opponent's clock, or one
 * increment as its clock; true when it did (the front-end says so). */
bool proto_clock_fallback(EngineLimits *lim, int us);

/* Room for the text of any principal variation. */
#define PV_TEXT_MAX (MAX_PLY * 6 + 8)
/* The moves of info's principal variation, each after a space (ranks 1-10
 * when rank1), into out of PV_TEXT_MAX bytes. */
void proto_pv_text(const EngineInfo *info, bool rank1, char *out);

#endif
