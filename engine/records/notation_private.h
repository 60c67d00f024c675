/* Private to engine/records: the algebraic notation of cutechess and
 * Fairy-Stockfish (notation_san.c), which notation.c dispatches to. */
#ifndef CHUHAN_NOTATION_PRIVATE_H
#define CHUHAN_NOTATION_PRIVATE_H

#include "notation.h"

/* Does text (no trailing marks) look like SAN: ending in a file a-i and a
 * rank 1-10? */
bool san_shape(const char *text, size_t len);
Move san_read(const Position *pos, const char *text, size_t len, char *err, size_t errlen);
void san_write(const Position *pos, Move m, char *out);

#endif
