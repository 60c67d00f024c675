/* One explicit initialisation of the read-only tables (bitboards, magics,
 * zobrist keys, the built-in evaluation weights).  Call before anything
 * else; calling again is harmless.  False, with the reason, when the
 * built-in weights do not read (a broken build): nothing else works then. */
#ifndef CHUHAN_INIT_H
#define CHUHAN_INIT_H

#include <stdbool.h>
#include <stddef.h>

#define CHUHAN_NAME "Chuhan"
#define CHUHAN_VERSION "0.1" /* the release; the Makefile reads it from here */

/* The version as built: the release, then the commit when not a tagged
 * one ("0.1+g1a2b3c4"); what --version, id name and myname say. */
const char *chuhan_version(void);
/* The build's ARCH and system, for --version ("x86-64-bmi2, Windows"). */
const char *chuhan_build_info(void);

bool chuhan_init(char *err, size_t errlen);

#endif
