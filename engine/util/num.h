/* Numbers from text, read the two ways the program needs.
 *
 * Strict, for command-line arguments and option values: the whole text is
 * one number within [min, max] (blanks around it allowed), anything else
 * is refused, so that a typo is reported instead of read as 0 or cut short.
 *
 * Clamping, for the numbers of the protocols ("go movetime
 * 99999999999999999999"): an optional sign and digits only, and a value
 * beyond [min, max] is saturated to the bound, since a GUI that asks for
 * more than any clock holds means "as much as there is". */
#ifndef CHUHAN_UTIL_NUM_H
#define CHUHAN_UTIL_NUM_H

#include <stdbool.h>
#include <stdint.h>

bool num_parse(const char *text, long min, long max, long *out);
bool num_parse_u64(const char *text, uint64_t *out);
bool num_parse_double(const char *text, double min, double max, double *out);

bool num_clamp(const char *text, int64_t min, int64_t max, int64_t *out);

#endif
