/* Error messages for the caller.  A function that can fail takes a buffer
 * (err, errlen) and writes why into it; NULL or 0 bytes: not wanted. */
#ifndef CHUHAN_UTIL_ERROR_H
#define CHUHAN_UTIL_ERROR_H

#include <stdbool.h>
#include <stddef.h>

/* Write the message into err (truncated to errlen) and return false, so
 * that a failing function can end with `return err_set(err, errlen, ...)`. */
bool err_set(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
