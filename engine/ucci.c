/* Placeholder until this front-end lands: serve UCI instead. */
#include "protocol.h"

int ucci_main(FILE *in, Output *out, char *first_line) { return uci_main(in, out, first_line); }
