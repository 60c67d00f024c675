/* One explicit initialisation of the read-only tables (bitboards, magics,
 * zobrist keys).  Call once before anything else; calling again is harmless. */
#ifndef CHUHAN_INIT_H
#define CHUHAN_INIT_H

#define CHUHAN_NAME "Chuhan"
#define CHUHAN_VERSION "0.1"

void chuhan_init(void);

#endif
