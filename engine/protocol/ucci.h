/* The UCCI front-end (see ucci.c). */
#ifndef CHUHAN_UCCI_H
#define CHUHAN_UCCI_H

#include "protocol.h"

/* Serve UCCI on in/out until quit or the end of input, starting with
 * first_line (already read, or NULL).  Returns the exit status. */
int ucci_serve(FILE *in, Output *out, const char *first_line);

#endif
