/* The command line's front ends of the libraries below the tools: each
 * reads its words with the one argument reader (engine/util/args.h), runs
 * its library and prints; the tools above the search (bench/, bench/tools/)
 * have their commands beside them.  Each takes the arguments after its
 * command's name and returns the exit status; engine/cli/main.c picks one
 * by that name. */
#ifndef CHUHAN_CLI_H
#define CHUHAN_CLI_H

/* chuhan magics [SEED]: print a magic table found from SEED
 * (engine/board/magic.c). */
int magic_cli(int argc, char **argv);
/* chuhan judge ...: the referee's ruling on a game (engine/rules). */
int judge_cli(int argc, char **argv);
/* chuhan pgn convert|check ...: game records converted or checked
 * (engine/records). */
int pgn_cli(int argc, char **argv);
/* chuhan book build|probe ...: an opening book built from PGN files, or a
 * position's book moves (book/). */
int book_cli(int argc, char **argv);
/* chuhan eval [--net FILE] [FEN]: both evaluations of a position (eval/). */
int nnue_eval_cli(int argc, char **argv);
/* chuhan train --data FILE... --out NET [...]: train a net
 * (bench/tools/nnue_train.h). */
int nnue_train_cli(int argc, char **argv);
/* chuhan texel ... (chuhan tune, its old name): fit the evaluation's
 * weights to game results (the Texel tuner, bench/tools/texel.h). */
int texel_cli(int argc, char **argv);

#endif
