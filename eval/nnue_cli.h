/* The net's command-line tools. */
#ifndef CHUHAN_NNUE_CLI_H
#define CHUHAN_NNUE_CLI_H

/* chuhan eval [--net FILE] [FEN]: both evaluations of a position. */
int nnue_eval_cli(int argc, char **argv);
/* chuhan train --data FILE... --out NET [...]: train a net; the exit status. */
int nnue_train_cli(int argc, char **argv);

#endif
