/* The soak: two engine processes play each other over UCI as a GUI drives
 * them, with pondering and random traffic, counting every failure (see
 * soak.c). */
#ifndef CHUHAN_BENCH_SOAK_H
#define CHUHAN_BENCH_SOAK_H

/* chuhan soak ...: the arguments after "soak"; the exit status (0: no
 * failure). */
int soak_cli(int argc, char **argv);

#endif
