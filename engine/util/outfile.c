/* What the two systems' outfile modules share (outfile.h): giving up a
 * replacement, its temporary file removed. */
#include "outfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void outfile_abort(OutFile *o)
{
    if (o->f)
        fclose(o->f);
    if (o->tmp)
        remove(o->tmp);
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
}
