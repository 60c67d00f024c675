/* chuhan analyze: game records searched move by move and written back as
 * annotated PGN (bench/tools/README.md, Game analysis).
 *
 *   chuhan analyze [--time MS | --depth D | --nodes N] [--threads T] [--hash MB]
 *                  [--multipv K] [--encoding E] [--graph DIR] [--output FILE] FILE...
 *
 * Each position of each game is searched; the score after every move is
 * written as a comment ({+0.35/12}: pawns for Red, depth; #3 / #-2 a mate
 * in so many moves, R5 / R-2 a win by the repetition rules in so many
 * plies, for Red / for Black), and a move that
 * costs the mover expected score (the WDL model, search/score.h) gets a
 * NAG: $6 (?!) from ANALYZE_INACCURACY, $2 (?) from ANALYZE_MISTAKE, $4
 * (??) from ANALYZE_BLUNDER, with the engine's best line as a variation.
 * Moves are written in the notation of the input (Chinese records in
 * Chinese).  A comment before the moves sums up each side's inaccuracies,
 * mistakes and blunders.  With --graph, DIR/game-N.svg plots Red's
 * expected score over the game with the mistakes marked. */
#ifndef CHUHAN_ANALYZE_H
#define CHUHAN_ANALYZE_H

/* Losses of expected score (per mille) from which a move is marked. */
#define ANALYZE_INACCURACY 50
#define ANALYZE_MISTAKE 100
#define ANALYZE_BLUNDER 200

/* The arguments after "analyze"; the exit status (0: every game analysed,
 * 1: some record could not be read or replayed, 2: bad usage or I/O). */
int analyze_cli(int argc, char **argv);

#endif
