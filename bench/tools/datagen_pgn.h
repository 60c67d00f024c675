/* chuhan datagen --pgn: training records from recorded games, a second
 * source beside self-play.  Each game of the file whose result is known is
 * replayed; from ply --skip-plies on, every position not in check whose
 * move in the game is not a capture is searched as self-play searches (the
 * soft node limit and its cap, one search thread per worker) and kept with
 * the search's score and the game's result when the move found is not a
 * capture and the score is not a mate or a rule win.
 *
 * Games are taken in file order and their records appended in file order
 * (a game done early waits for those before it), so that the file always
 * holds the records of the first G games, and nothing else.  After each
 * append a progress note beside the file (OUT.progress, replaced whole)
 * says G, the file's size and the PGN file's name and size: a later run
 * cuts back what was appended after the last note, then goes on with game
 * G + 1.  Under mpirun with more than one rank it is refused. */
#ifndef CHUHAN_BENCH_DATAGEN_PGN_H
#define CHUHAN_BENCH_DATAGEN_PGN_H

#include <stdbool.h>
#include <stddef.h>

/* chuhan datagen --pgn FILE ...: the arguments after "datagen"; the exit
 * status. */
int datagen_pgn_cli(int argc, char **argv);

/* False, with the reason, when out has a progress note (its records come
 * from a PGN file: self-play appending to it would be cut back by the next
 * --pgn run). */
bool datagen_pgn_note_absent(const char *out, char *err, size_t errlen);

#endif
