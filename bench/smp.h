/* SMP scaling: nodes per second and time to a fixed depth, one thread
 * against N, on the bench positions in one run; under mpirun -np N (a
 * build with MPI=1), one rank against all N. */
#ifndef CHUHAN_BENCH_SMP_H
#define CHUHAN_BENCH_SMP_H

/* chuhan smp [THREADS] [MS] [DEPTH] [POSITIONS]: the arguments after
 * "smp"; the exit status. */
int smp_cli(int argc, char **argv);

#endif
