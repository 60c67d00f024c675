#include "charset.h"

#include <errno.h>
#include <iconv.h>
#include <stdlib.h>

static const char *const NAMES[CHARSET_NB][CHARSET_TABLES] = {
    [CHARSET_GBK] = {"GB18030", "GBK", NULL},
    [CHARSET_BIG5] = {"BIG5", "CP950", "BIG5-HKSCS"},
};

struct CharsetConv {
    iconv_t cd;
};

CharsetConv *charset_open(Charset cs, int table)
{
    if ((unsigned)cs >= CHARSET_NB || table < 0 || table >= CHARSET_TABLES || !NAMES[cs][table])
        return NULL;
    iconv_t cd = iconv_open("UTF-8", NAMES[cs][table]);
    if (cd == (iconv_t)-1)
        return NULL;
    CharsetConv *c = malloc(sizeof *c);
    if (!c) {
        iconv_close(cd);
        return NULL;
    }
    c->cd = cd;
    return c;
}

void charset_close(CharsetConv *c)
{
    if (!c)
        return;
    iconv_close(c->cd);
    free(c);
}

int charset_decode(CharsetConv *c, const char **in, size_t *inleft, char **out, size_t *outleft)
{
    iconv(c->cd, NULL, NULL, NULL, NULL);
    char *i = (char *)*in; /* iconv's prototype wants it writable; it is only read */
    size_t rc = iconv(c->cd, &i, inleft, out, outleft);
    *in = i;
    if (rc != (size_t)-1)
        return CHARSET_DONE;
    return errno == E2BIG ? CHARSET_FULL : CHARSET_BAD;
}
