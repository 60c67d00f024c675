/* What the fuzz targets' files share (targets.c, reader.c). */
#ifndef CHUHAN_TESTS_FUZZ_PRIVATE_H
#define CHUHAN_TESTS_FUZZ_PRIVATE_H

/* A formatted failure, kept in a static buffer (one input at a time). */
const char *fuzz_failed(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
