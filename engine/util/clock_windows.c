/* Windows: the performance counter, monotonic like CLOCK_MONOTONIC. */
#include "clock.h"

#include <windows.h>

int64_t now_us(void)
{
    static int64_t freq; /* fixed at boot: the same value in every thread */
    LARGE_INTEGER t;
    if (!freq) {
        LARGE_INTEGER f;
        QueryPerformanceFrequency(&f);
        freq = f.QuadPart;
    }
    QueryPerformanceCounter(&t);
    /* seconds and remainder apart: t * 1000000 would overflow after days */
    return t.QuadPart / freq * 1000000 + t.QuadPart % freq * 1000000 / freq;
}

int64_t now_ms(void) { return now_us() / 1000; }
