/* chuhan book: build an opening book from game records, or look a position
 * up in one.
 *
 *   chuhan book build -o OUT [--max-ply N] [--min-games N] [--min-score X]
 *                     [--encoding E] FILE...
 *   chuhan book probe [--book FILE] FEN|startpos [moves M...] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "book/book.h"
#include "cli.h"
#include "engine/board/movegen.h"
#include "engine/records/notation.h"
#include "engine/util/args.h"
#include "engine/util/clock.h"
#include "engine/util/outfile.h"

static int usage(const char *why)
{
    if (why && *why)
        fprintf(stderr, "%s\n", why);
    fprintf(stderr,
            "usage: chuhan book build -o OUT [--max-ply N] [--min-games N] [--min-score X] [--encoding E] FILE...\n"
            "       chuhan book probe [--book FILE] FEN|startpos [moves UCI...]\n"
            "FILE: PGN records, plain or .pgn.zst; E: auto (default), utf-8, gbk, big5\n");
    return 2;
}

/* Seconds on the program's clock, with microseconds. */
static double now(void) { return (double)now_us() * 1e-6; }

static bool read_encoding(const char *text, void *enc) { return pgn_parse_encoding(text, enc); }

static int build(int argc, char **argv)
{
    BookOptions opt;
    book_options_default(&opt);
    opt.progress = stderr;
    opt.rejects = stderr;
    const char *out = NULL;
    long max_ply = opt.max_ply, min_games = opt.min_games;
    const ArgOption opts[] = {
        ARG_TEXT("-o", &out),
        ARG_LONG("--max-ply", &max_ply, 1, MAX_GAME_PLY),
        ARG_LONG("--min-games", &min_games, 1, 1000000),
        ARG_DOUBLE("--min-score", &opt.min_score, 0, 1),
        ARG_CUSTOM("--encoding", &opt.encoding, read_encoding, "an encoding: auto, utf-8, gbk or big5"),
    };
    /* the files are gathered at the front of argv, which they never overtake */
    const char **files = (const char **)argv;
    int nfiles;
    const ArgSpec spec = {"book build", opts, sizeof opts / sizeof opts[0], files, argc};
    char why[ARGS_WHY_MAX];
    if (!args_read(&spec, argc, argv, &nfiles, why, sizeof why))
        return usage(why);
    if (!out || !nfiles)
        return usage(argc ? (out ? "book build: no FILE to read" : "book build: -o OUT is required") : NULL);
    opt.max_ply = (int)max_ply;
    opt.min_games = (int)min_games;
    if (!outfile_check(out, why, sizeof why)) { /* before the games are read */
        fprintf(stderr, "book: %s\n", why);
        return 2;
    }
    double t0 = now();
    BookBuilder *b = book_builder_new(&opt);
    if (!b) {
        fprintf(stderr, "book: out of memory\n");
        return 2;
    }
    char err[300];
    for (int i = 0; i < nfiles; i++)
        if (!book_builder_add_file(b, files[i], err, sizeof err)) {
            fprintf(stderr, "book: %s\n", err);
            book_builder_free(b);
            return 2;
        }
    if (!book_builder_write(b, out, err, sizeof err)) {
        fprintf(stderr, "book: %s\n", err);
        book_builder_free(b);
        return 2;
    }
    const BookBuildStats *s = book_builder_stats(b);
    long rejected = 0;
    for (int e = 0; e < PGN_ERR_NB; e++)
        rejected += s->rejected[e];
    printf("files           %ld\n", s->files);
    printf("games read      %ld\n", s->games_read);
    printf("games used      %ld (%ld without a result: counted as played, not scored)\n", s->games_used,
           s->unknown_results);
    printf("games rejected  %ld\n", rejected);
    for (int e = 1; e < PGN_ERR_NB; e++)
        if (s->rejected[e])
            printf("  %-28s %ld\n", pgn_error_name((PgnReplayError)e), s->rejected[e]);
    printf("settings        max ply %d, min games %d, min score %.2f\n", opt.max_ply, opt.min_games, opt.min_score);
    printf("moves counted   %ld\n", s->samples);
    printf("positions       %ld\n", s->positions);
    printf("entries         %ld\n", s->entries);
    printf("size            %zu bytes\n", s->bytes);
    printf("time            %.2f s\n", now() - t0);
    printf("written         %s\n", out);
    book_builder_free(b);
    return 0;
}

static int probe(int argc, char **argv)
{
    const char *path = NULL;
    const ArgOption opts[] = {ARG_TEXT("--book", &path)};
    const char **words = (const char **)argv; /* gathered at its front, as in build() */
    int nwords;
    const ArgSpec spec = {"book probe", opts, sizeof opts / sizeof opts[0], words, argc};
    char why[ARGS_WHY_MAX];
    if (!args_read(&spec, argc, argv, &nwords, why, sizeof why))
        return usage(why);
    if (!nwords)
        return usage(argc ? "book probe: no position (a FEN or startpos)" : NULL);
    char fen[512] = "";
    int i = 0;
    for (; i < nwords && strcmp(words[i], "moves"); i++) {
        if (strlen(fen) + strlen(words[i]) + 2 > sizeof fen)
            return usage("book probe: the FEN is too long");
        if (*fen)
            strcat(fen, " ");
        strcat(fen, words[i]);
    }
    if (!strcmp(fen, "startpos"))
        strcpy(fen, START_FEN);
    Position *pos = malloc(sizeof *pos);
    if (!pos) {
        fprintf(stderr, "book: out of memory\n");
        return 2;
    }
    char err[300];
    if (!pos_set_fen(pos, fen, err, sizeof err)) {
        snprintf(why, sizeof why, "book: bad FEN: %s", err);
        usage(why);
        free(pos);
        return 2;
    }
    for (i += i < nwords; i < nwords; i++) { /* moves after "moves" */
        Move m = notation_read(pos, words[i], NOTATION_AUTO, err, sizeof err);
        if (m == MOVE_NONE || pos_room(pos) < 1) {
            fprintf(stderr, "book: %s\n", m ? "too many moves" : err);
            free(pos);
            return 2;
        }
        pos_do_move(pos, m);
    }
    Book *book = path ? book_load_file(path, err, sizeof err) : book_load_default(err, sizeof err);
    if (!book) {
        fprintf(stderr, "book: %s\n", err);
        free(pos);
        return 2;
    }
    printf("book: %s, %zu entries, %zu positions\n", path ? path : "default (built in)", book_entries(book),
           book_positions(book));
    BookMove moves[MAX_MOVES];
    double t0 = now();
    int n = book_probe(book, pos, moves, MAX_MOVES);
    double us = (now() - t0) * 1e6;
    if (n == 0) {
        printf("the position is not in the book\n");
    } else {
        uint64_t total = 0;
        for (int k = 0; k < n; k++)
            total += moves[k].weight;
        printf("%-6s %-12s %7s %7s %7s %7s %6s %7s %6s\n", "move", "chinese", "games", "wins", "draws", "losses",
               "score", "weight", "share");
        for (int k = 0; k < n; k++) {
            const BookMove *m = &moves[k];
            char uci[8], zh[NOTATION_MAX];
            move_str(m->move, uci, false);
            notation_write(pos, m->move, NOTATION_CHINESE, zh);
            uint32_t known = m->wins + m->draws + m->losses;
            /* a Chinese move is four characters of two columns each */
            printf("%-6s %s%4s %7u %7u %7u %7u %5.1f%% %7u %5.1f%%\n", uci, zh, "", known, m->wins, m->draws,
                   m->losses, known ? 100.0 * (m->wins + 0.5 * m->draws) / known : 0.0, m->weight,
                   total ? 100.0 * m->weight / (double)total : 0.0);
        }
    }
    printf("probe time: %.1f us\n", us);
    book_free(book);
    free(pos);
    return 0;
}

int book_cli(int argc, char **argv)
{
    if (argc < 1)
        return usage(NULL);
    if (!strcmp(argv[0], "build"))
        return build(argc - 1, argv + 1);
    if (!strcmp(argv[0], "probe"))
        return probe(argc - 1, argv + 1);
    if (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))
        return usage(NULL);
    char why[ARGS_WHY_MAX];
    snprintf(why, sizeof why, "book: unknown command '%.100s' (build or probe)", argv[0]);
    return usage(why);
}
