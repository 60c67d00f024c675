/* chuhan pgn: convert game records to another notation, or check them.
 *
 *   chuhan pgn convert --to uci|iccs|wxf|chinese|chinese-simplified|san [--encoding E] FILE...
 *   chuhan pgn check [--encoding E] FILE...
 *
 * FILE may be plain PGN or .pgn.zst, "-" for standard input.  Converted
 * records go to standard output in UTF-8 with their tags; a record that
 * cannot be replayed goes to standard error with the reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "engine/records/notation.h"
#include "engine/records/pgn.h"
#include "engine/records/pgn_files.h"
#include "engine/util/args.h"

static int usage(const char *why)
{
    if (why && *why)
        fprintf(stderr, "%s\n", why);
    fprintf(stderr,
            "usage: chuhan pgn convert --to uci|iccs|wxf|chinese|chinese-simplified|san [--encoding E] FILE...\n"
            "       chuhan pgn check [--encoding E] FILE...\n"
            "FILE: PGN or .pgn.zst ('-' for standard input); E: auto (default), utf-8, gbk, big5\n");
    return 2;
}

/* Write the replayed record in the chosen notation. */
static bool write_record(FILE *out, const PgnGame *g, Position *pos, const Move *moves, int n, NotationFormat fmt)
{
    for (int i = 0; i < g->ntags; i++)
        pgn_write_tag(out, g->tags[i].name,
                !strcmp(g->tags[i].name, "Format") ? notation_format_name(fmt) : g->tags[i].value);
    fputc('\n', out);
    char err[160];
    const char *fen = pgn_tag(g, "FEN");
    if (!pos_set_fen(pos, fen && *fen ? fen : START_FEN, err, sizeof err))
        return false;
    int col = 0;
    for (int i = 0; i < n; i++) {
        char text[NOTATION_MAX];
        int ply = pos_game_ply(pos);
        if (!notation_write(pos, moves[i], fmt, text))
            return false;
        if (pos->side == RED)
            col += fprintf(out, "%s%d. %s", col ? "\n" : "", ply / 2 + 1, text);
        else if (i == 0)
            col += fprintf(out, "%d... %s", ply / 2 + 1, text);
        else
            col += fprintf(out, " %s", text);
        pos_do_move(pos, moves[i]);
    }
    const char *res = *g->termination ? g->termination : pgn_tag(g, "Result");
    fprintf(out, "%s%s\n\n", col ? "\n" : "", res && *res ? res : "*");
    return true;
}

static bool read_encoding(const char *text, void *enc) { return pgn_parse_encoding(text, enc); }

int pgn_cli(int argc, char **argv)
{
    if (argc < 1)
        return usage(NULL);
    bool convert = !strcmp(argv[0], "convert");
    if (!convert && strcmp(argv[0], "check")) {
        char why[160];
        snprintf(why, sizeof why, "pgn: unknown command '%.100s' (convert or check)", argv[0]);
        return usage(!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h") ? NULL : why);
    }
    NotationFormat fmt = NOTATION_AUTO;
    PgnEncoding enc = PGN_ENC_AUTO;
    const ArgOption opts[] = {
        ARG_CUSTOM("--to", &fmt, notation_parse_write_format, "a notation: uci, iccs, wxf, chinese, chinese-simplified or san"),
        ARG_CUSTOM("--encoding", &enc, read_encoding, "an encoding: auto, utf-8, gbk or big5"),
    };
    /* the files, gathered at the front of argv + 1, which they never overtake */
    char **files = argv + 1;
    int nfiles;
    /* check has no --to: it is refused as any unknown option */
    const ArgSpec spec = {convert ? "pgn convert" : "pgn check", convert ? opts : opts + 1, convert ? 2 : 1,
                          (const char **)files, argc - 1};
    char why[ARGS_WHY_MAX];
    if (!args_read(&spec, argc - 1, files, &nfiles, why, sizeof why))
        return usage(why);
    if (convert && fmt == NOTATION_AUTO)
        return usage("pgn convert: --to is required");
    if (!nfiles) {
        snprintf(why, sizeof why, "%s: no FILE to read", spec.tool);
        return usage(why);
    }

    Position *pos = malloc(sizeof *pos);
    Move *moves = malloc(sizeof(Move) * MAX_GAME_PLY);
    if (!pos || !moves) {
        fprintf(stderr, "pgn: out of memory\n");
        free(pos);
        free(moves);
        return 2;
    }
    long good = 0, rejected[PGN_ERR_NB] = {0};
    int status = 0;
    char err[256];
    PgnFiles it;
    pgn_files_start(&it, files, nfiles, enc, pos, moves, MAX_GAME_PLY, err, sizeof err);
    for (PgnFilesEvent ev; (ev = pgn_files_next(&it)) != PGN_FILES_END;)
        switch (ev) {
        case PGN_FILES_OPEN_FAILED:
            fprintf(stderr, "pgn: %s\n", err);
            status = 2;
            break;
        case PGN_FILES_READ_FAILED:
            fprintf(stderr, "pgn: %s: %s\n", it.path, err);
            status = 2;
            break;
        case PGN_FILES_REJECTED:
            rejected[it.error]++;
            fprintf(stderr, "%s:%ld: record %ld: %s\n", it.path, it.game->line, it.game->index, err);
            break;
        case PGN_FILES_RECORD:
            good++;
            if (convert && !write_record(stdout, it.game, pos, moves, it.nmoves, fmt)) {
                fprintf(stderr, "%s:%ld: record %ld: cannot write it\n", it.path, it.game->line, it.game->index);
                status = 2;
            }
            break;
        case PGN_FILES_END:
            break;
        }
    long games = it.records;
    long bad = games - good;
    FILE *report = convert ? stderr : stdout;
    fprintf(report, "%ld records, %ld replayed, %ld rejected", games, good, bad);
    for (int e = 1; e < PGN_ERR_NB; e++)
        if (rejected[e])
            fprintf(report, ", %ld %s", rejected[e], pgn_error_name((PgnReplayError)e));
    fputc('\n', report);
    free(pos);
    free(moves);
    return status ? status : bad ? 1 : 0;
}
