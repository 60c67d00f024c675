/* The fuzz targets: each takes one input and checks what must
 * hold for it, returning NULL when all is well or a one-line description
 * of the broken property.  tests/fuzz/libfuzzer.c wraps one of them as a
 * libFuzzer target (make fuzz); the test suite replays the seed corpora and
 * the regression inputs through the same functions (tests/test_fuzz.c). */
#ifndef CHUHAN_TESTS_FUZZ_H
#define CHUHAN_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

typedef const char *(*FuzzFn)(const uint8_t *data, size_t size);

/* FEN, then one byte per move to play: pos_set_fen, the FEN round trip,
 * keys, legal moves, make/unmake, notation round trips, the rules. */
const char *fuzz_fen(const uint8_t *data, size_t size);
/* Protocol lines fed to a live engine through its front-end (after "uci",
 * "ucci" or "xboard"), from memory; a final isready must be answered. */
const char *fuzz_uci(const uint8_t *data, size_t size);
const char *fuzz_ucci(const uint8_t *data, size_t size);
const char *fuzz_cecp(const uint8_t *data, size_t size);
/* PGN text (or zstd data): pgn_next, pgn_replay, notation round trips. */
const char *fuzz_pgn(const uint8_t *data, size_t size);
/* The first byte picks how the rest becomes a book: as it is, with its
 * checksums made right, or built from the data (entries of real positions,
 * or games through the book builder); then loads and probes it. */
const char *fuzz_book(const uint8_t *data, size_t size);

/* The match runner's reader of engine output (engine/util/proc.h,
 * ProcLines): a stream of lines, short and far over PROC_LINE_MAX, cut into
 * reads anywhere; every short line comes out whole, no long one, and
 * nothing is written outside the reader. */
const char *fuzz_reader(const uint8_t *data, size_t size);

typedef struct {
    const char *name;
    FuzzFn fn;
} FuzzTarget;

/* Every target by name, NULL-terminated. */
extern const FuzzTarget FUZZ_TARGETS[];

/* One-time set-up (chuhan_init); harmless to call again. */
void fuzz_init(void);

#endif
