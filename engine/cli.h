/* The command-line tools, one entry each; engine/main.c dispatches on the
 * first argument.  Each takes the arguments after its name and returns the
 * process exit status. */
#ifndef CHUHAN_CLI_H
#define CHUHAN_CLI_H

int cli_perft(int argc, char **argv);  /* engine/main.c */
int cli_magics(int argc, char **argv); /* engine/main.c */
int cli_bench(int argc, char **argv);  /* bench/bench.c */
int cli_smp(int argc, char **argv);    /* bench/smp.c */
int cli_judge(int argc, char **argv);  /* engine/rules/judge.c */
int cli_book(int argc, char **argv);   /* book/book_cli.c */
int cli_pgn(int argc, char **argv);    /* engine/records/pgn_cli.c */
int cli_match(int argc, char **argv);  /* bench/match.c */
int cli_tune(int argc, char **argv);   /* eval/tune.c */
int cli_soak(int argc, char **argv);   /* bench/soak.c */

#endif
