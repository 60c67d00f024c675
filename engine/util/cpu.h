/* The instruction set the binary was built for, checked before main: a
 * build for x86-64-bmi2 (x86-64-v3: BMI2, AVX2...) or x86-64-popcnt
 * (x86-64-v2) started on a CPU without it says so and exits with status 1,
 * where it would otherwise die of an illegal instruction at its first use.
 * The check's file is compiled for plain x86-64 (the Makefile), so that it
 * runs on any x86-64 CPU; CHUHAN_ARCH names the build's ARCH.  An AArch64
 * build (armv8-a, the baseline every AArch64 CPU has) needs no check. */
#ifndef CHUHAN_UTIL_CPU_H
#define CHUHAN_UTIL_CPU_H

#include <stdbool.h>

/* The build's ARCH ("x86-64-bmi2", "native"...). */
const char *cpu_arch(void);
/* Does this CPU run the build's instructions?  (always, for native,
 * x86-64 and off x86; a fresh look each call) */
bool cpu_supported(void);

#endif
