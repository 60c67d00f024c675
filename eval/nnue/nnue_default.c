/* The net built into the binary (see nnue.h): the file named here is
 * embedded whole, so that the engine needs no data file at run time.  The
 * lineage of the nets and how each was made: eval/nets/README.md. */
#include "nnue.h"

#include "engine/util/embed.h"
#include "engine/util/error.h"

/* bench/tools/net-generation.sh reads this line to find the current default. */
#define NNUE_DEFAULT_FILE "eval/nets/gen3.nnue"

EMBED_FILE(chuhan_default_net, NNUE_DEFAULT_FILE);

const char *nnue_default_name(void) { return NNUE_DEFAULT_FILE; }

NnueNet *nnue_load_default(char *err, size_t errlen)
{
    size_t size = (size_t)(chuhan_default_net_end - chuhan_default_net_start);
    if (size == 0)
        return err_set(err, errlen, "no net was built into this binary"), NULL;
    return nnue_load_memory(chuhan_default_net_start, size, err, errlen);
}
