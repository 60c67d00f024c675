/* Placeholder until this tool lands. */
#include <stdio.h>

#include "engine/cli.h"

int cli_book(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "not built yet\n");
    return 2;
}
