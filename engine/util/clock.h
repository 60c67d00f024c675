/* The one clock of the program: monotonic, so that a change of the wall
 * clock never makes a search think for ever or lose on time. */
#ifndef CHUHAN_UTIL_CLOCK_H
#define CHUHAN_UTIL_CLOCK_H

#include <stdint.h>

int64_t now_ms(void);
int64_t now_us(void);

#endif
