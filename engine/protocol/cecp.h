/* The CECP (xboard) front-end (see cecp.c). */
#ifndef CHUHAN_CECP_H
#define CHUHAN_CECP_H

#include "protocol.h"

/* Serve CECP on in/out until quit or the end of input, starting with
 * first_line (already read, or NULL).  Returns the exit status. */
int cecp_serve(FILE *in, Output *out, const char *first_line);

#endif
