/* What the protocol front-ends share: bounded line reading, output that
 * the search thread and the input thread can both write, tokenising, and
 * the pick of a protocol from the first command. */
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
} Output;

void out_init(Output *out, FILE *f);
void out_destroy(Output *out);
/* One whole line (a newline is added), written and flushed under the lock. */
void out_line(Output *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Read a line without its end-of-line into buf.  False at end of input.  A
 * line longer than cap - 1 bytes is cut there, the rest is skipped and
 * *too_long set; NUL bytes are dropped. */
bool read_line(FILE *in, char *buf, size_t cap, bool *too_long);

/* Split a line into whitespace-separated tokens, in place. */
int tokenize(char *line, char **tokens, int max);

/* Serve the protocol named by the first command (uci, ucci, xboard) on
 * in/out until quit or end of input.  Returns the exit status. */
int protocol_main(FILE *in, FILE *out);

/* Each front-end: serve until quit, starting with first_line. */
int uci_main(FILE *in, Output *out, char *first_line);  /* engine/protocol/uci.c */
int ucci_main(FILE *in, Output *out, char *first_line); /* engine/protocol/ucci.c */
int cecp_main(FILE *in, Output *out, char *first_line); /* engine/protocol/cecp.c */

#endif
