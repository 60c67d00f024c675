/* One fuzz target as a libFuzzer binary: built once per target with
 * -DFUZZ_TARGET=fuzz_<name> (make fuzz).  A broken property aborts, so that
 * libFuzzer keeps the input as a crash. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/util/charset.h"
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
    /* The engine's big blocks (the Engine, a front-end's state: hundreds of
     * KB, little of it touched) straight from mmap, whose pages come zeroed
     * and are faulted in only where touched: glibc's threshold otherwise
     * rises after the first free, and calloc then clears them from the heap
     * in every execution.  (In a build without AddressSanitizer, wrap.c
     * serves blocks this big itself, whatever the heap holds.) */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    /* One converter of each table open for the whole run: the PGN reader
     * opens and closes its own for each input, and glibc unloads a
     * character set's module (dlclose) when its last converter closes, so
     * that each input loaded it again: a third of a PGN execution. */
    static CharsetConv *kept[CHARSET_NB][CHARSET_TABLES] __attribute__((used)); /* reachable: no leak */
    for (int cs = 0; cs < CHARSET_NB; cs++)
        for (int k = 0; k < CHARSET_TABLES; k++)
            kept[cs][k] = charset_open((Charset)cs, k);
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
