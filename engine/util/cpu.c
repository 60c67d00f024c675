#include "cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CHUHAN_ARCH
#define CHUHAN_ARCH "native"
#endif

const char *cpu_arch(void) { return CHUHAN_ARCH; }

/* Off x86 (AArch64: ARCH=armv8-a or native) the build asks nothing the
 * architecture's baseline lacks, so there is nothing to check; the x86
 * builtins below exist only for x86 targets. */
#if defined(__x86_64__) || defined(__i386__)
bool cpu_supported(void)
{
    __builtin_cpu_init();
    if (!strcmp(CHUHAN_ARCH, "x86-64-bmi2"))
        /* x86-64-v3's instructions the build uses, by name: the level
         * names are not known to every compiler's builtin (clang 14) */
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("bmi")
               && __builtin_cpu_supports("fma") && __builtin_cpu_supports("popcnt");
    if (!strcmp(CHUHAN_ARCH, "x86-64-popcnt"))
        return __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("ssse3");
    return true;
}
#else
bool cpu_supported(void) { return true; }
#endif

/* Before main and before any code built for the newer instructions. */
__attribute__((constructor)) static void cpu_check(void)
{
    if (cpu_supported())
        return;
    fprintf(stderr,
            "chuhan: this binary is built for %s (%s), which this CPU does not have.\n"
            "chuhan: use the portable build (x86-64) instead: the file without \"bmi2\" in its name,\n"
            "chuhan: or build from source with: make ARCH=x86-64 (or plain make: this machine's own)\n",
            CHUHAN_ARCH,
            !strcmp(CHUHAN_ARCH, "x86-64-bmi2") ? "x86-64-v3: BMI2, AVX2, FMA; Intel Haswell, AMD Excavator or later"
                                                : "x86-64-v2: POPCNT, SSE4.2; Intel Nehalem, AMD Bulldozer or later");
    exit(1);
}
