/* The cmocka test groups, one per module; tests/main.c runs them all. */
#ifndef CHUHAN_TESTS_H
#define CHUHAN_TESTS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "engine/util/rng.h" /* rng_next: the randomised tests' generator */

/* Each module's tests; main.c runs them as one cmocka group. */
const struct CMUnitTest *util_tests(size_t *count);
const struct CMUnitTest *bitboard_tests(size_t *count);
const struct CMUnitTest *position_tests(size_t *count);
const struct CMUnitTest *movegen_tests(size_t *count);
const struct CMUnitTest *rules_tests(size_t *count);
const struct CMUnitTest *notation_tests(size_t *count);
const struct CMUnitTest *book_tests(size_t *count);
const struct CMUnitTest *movepick_tests(size_t *count);
const struct CMUnitTest *search_tests(size_t *count);
const struct CMUnitTest *uci_tests(size_t *count);
const struct CMUnitTest *ucci_tests(size_t *count);
const struct CMUnitTest *cecp_tests(size_t *count);
const struct CMUnitTest *limits_tests(size_t *count);
const struct CMUnitTest *search_limits_tests(size_t *count);
const struct CMUnitTest *cli_tests(size_t *count);
const struct CMUnitTest *match_referee_tests(size_t *count);
const struct CMUnitTest *match_tests(size_t *count);
const struct CMUnitTest *texel_tests(size_t *count);
const struct CMUnitTest *fuzz_tests(size_t *count);
const struct CMUnitTest *layers_tests(size_t *count);
const struct CMUnitTest *cluster_tests(size_t *count);
const struct CMUnitTest *nnue_tests(size_t *count);
const struct CMUnitTest *nnue_file_tests(size_t *count);
const struct CMUnitTest *nnue_train_tests(size_t *count);
const struct CMUnitTest *datagen_tests(size_t *count);
const struct CMUnitTest *analyze_tests(size_t *count);
const struct CMUnitTest *skill_tests(size_t *count);
const struct CMUnitTest *tunables_tests(size_t *count);
const struct CMUnitTest *spsa_tests(size_t *count);
const struct CMUnitTest *inputs_tests(size_t *count);
const struct CMUnitTest *outputs_tests(size_t *count);

/* Where the test data lives (tests/data, or $CHUHAN_DATA). */
const char *test_data_path(const char *name);
/* The engine binary under test ($CHUHAN_BIN, default ./chuhan). */
const char *test_engine_path(void);
/* Run a shell command, its standard output and error into out; its exit
 * status (-1 if it did not exit). */
int test_run(const char *cmd, char *out, size_t len);
/* Write n bytes of data to path, replacing it; a failure fails the test. */
void test_write_file(const char *path, const void *data, size_t n);

#endif
