#include "text.h"

#include <stdio.h>

char *text_printable(char *dst, size_t cap, const char *src)
{
    if (!cap)
        return dst;
    snprintf(dst, cap, "%s", src);
    return text_clean(dst);
}

char *text_clean(char *s)
{
    for (char *p = s; *p; p++)
        if ((unsigned char)*p < 32 || (unsigned char)*p == 127)
            *p = '?';
    return s;
}
