/* chuhan magics: a magic table found from a seed (magic_generate,
 * engine/board/magic.c), printed as C. */
#include <stdio.h>

#include "cli.h"
#include "engine/board/bitboard.h"
#include "engine/util/args.h"
#include "engine/util/num.h"

int magic_cli(int argc, char **argv)
{
    uint64_t seed = 20261129;
    const char *words[1];
    int nwords;
    const ArgSpec spec = {"magics", NULL, 0, words, 1};
    char why[ARGS_WHY_MAX];
    bool ok = args_read(&spec, argc, argv, &nwords, why, sizeof why);
    if (ok && nwords && !num_parse_u64(words[0], &seed)) {
        snprintf(why, sizeof why, "magics: SEED: '%.100s' is not a number from 0 to %llu", words[0],
                 (unsigned long long)UINT64_MAX);
        ok = false;
    }
    if (!ok) {
        fprintf(stderr, "%s%susage: chuhan magics [SEED]\n", why, *why ? "\n" : "");
        return 2;
    }
    return magic_generate(seed, stdout) ? 1 : 0;
}
