/* One fuzz target as a libFuzzer binary: built once per target with
 * -DFUZZ_TARGET=fuzz_<name> (make fuzz).  A broken property aborts, so that
 * libFuzzer keeps the input as a crash. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

#ifndef FUZZ_TARGET
#error "build with -DFUZZ_TARGET=fuzz_<name>"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *bad = FUZZ_TARGET(data, size);
    if (bad) {
        fprintf(stderr, "fuzz: %s\n", bad);
        abort();
    }
    return 0;
}
