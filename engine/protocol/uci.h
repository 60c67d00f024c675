/* The UCI front-end (see uci.c). */
#ifndef CHUHAN_UCI_H
#define CHUHAN_UCI_H

#include "protocol.h"

/* Serve UCI on in/out until quit or the end of input, starting with
 * first_line (already read, or NULL).  Returns the exit status. */
int uci_serve(FILE *in, Output *out, const char *first_line);

#endif
