/* Training data for the net by self-play: games at a fixed node count per
 * move, one game per thread, openings from the built-in book plus a few
 * random plies, refereed by the rules (match_referee.h), each kept
 * position written with its search score and the game's result
 * (nnue_data.h).  It appends to its file and resumes: the target is
 * the file's total. */
#ifndef CHUHAN_BENCH_DATAGEN_H
#define CHUHAN_BENCH_DATAGEN_H

/* chuhan datagen [options]: the arguments after "datagen"; the exit
 * status. */
int datagen_cli(int argc, char **argv);

#endif
