/* Text from outside shown back safely. */
#ifndef CHUHAN_UTIL_TEXT_H
#define CHUHAN_UTIL_TEXT_H

#include <stddef.h>

/* src copied into dst (at most cap - 1 bytes and a NUL) with every control
 * character as '?': a bad command echoed in an error message must not
 * carry terminal escapes or line breaks into the reply.  Returns dst. */
char *text_printable(char *dst, size_t cap, const char *src);
/* The same in place: every control character of s as '?'.  Returns s. */
char *text_clean(char *s);

#endif
