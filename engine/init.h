/* One explicit initialisation of the read-only tables (bitboards, magics,
 * zobrist keys, the built-in evaluation weights).  Call before anything
 * else; calling again is harmless.  False, with the reason, when the
 * built-in weights do not read (a broken build): nothing else works then. */
#ifndef CHUHAN_INIT_H
#define CHUHAN_INIT_H

#include <stdbool.h>
#include <stddef.h>

#define CHUHAN_NAME "Chuhan"
#define CHUHAN_VERSION "0.1"

bool chuhan_init(char *err, size_t errlen);

#endif
