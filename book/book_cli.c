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

#include "book.h"
#include "engine/board/movegen.h"
#include "engine/records/notation.h"
#include "engine/util/clock.h"
#include "engine/util/num.h"
#include "engine/util/outfile.h"

static int usage(void)
{
    fprintf(stderr,
            "usage: chuhan book build -o OUT [--max-ply N] [--min-games N] [--min-score X] [--encoding E] FILE...\n"
            "       chuhan book probe [--book FILE] FEN|startpos [moves UCI...]\n"
            "FILE: PGN records, plain or .pgn.zst; E: auto (default), utf-8, gbk, big5\n");
    return 2;
}

/* Seconds on the program's clock, with microseconds. */
static double now(void) { return (double)now_us() * 1e-6; }

static int build(int argc, char **argv)
{
    BookOptions opt;
    book_options_default(&opt);
    opt.progress = stderr;
    opt.rejects = stderr;
    const char *out = NULL;
    int i = 0;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        long v;
        if (i + 1 >= argc)
            return usage();
        if (!strcmp(argv[i], "-o")) {
            out = argv[++i];
        } else if (!strcmp(argv[i], "--max-ply")) {
            if (!num_parse(argv[++i], 1, MAX_GAME_PLY, &v))
                return usage();
            opt.max_ply = (int)v;
        } else if (!strcmp(argv[i], "--min-games")) {
            if (!num_parse(argv[++i], 1, 1000000, &v))
                return usage();
            opt.min_games = (int)v;
        } else if (!strcmp(argv[i], "--min-score")) {
            if (!num_parse_double(argv[++i], 0, 1, &opt.min_score))
                return usage();
        } else if (!strcmp(argv[i], "--encoding")) {
            if (!pgn_parse_encoding(argv[++i], &opt.encoding))
                return usage();
        } else {
            return usage();
        }
    }
    if (!out || i >= argc)
        return usage();
    char why[512];
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
    for (; i < argc; i++)
        if (!book_builder_add_file(b, argv[i], err, sizeof err)) {
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
    int i = 0;
    if (i + 1 < argc && !strcmp(argv[i], "--book")) {
        path = argv[i + 1];
        i += 2;
    }
    if (i >= argc)
        return usage();
    char fen[512] = "";
    for (; i < argc && strcmp(argv[i], "moves"); i++) {
        if (strlen(fen) + strlen(argv[i]) + 2 > sizeof fen)
            return usage();
        if (*fen)
            strcat(fen, " ");
        strcat(fen, argv[i]);
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
        fprintf(stderr, "book: bad FEN: %s\n", err);
        usage();
        free(pos);
        return 2;
    }
    for (i += i < argc; i < argc; i++) { /* moves after "moves" */
        Move m = notation_read(pos, argv[i], NOTATION_AUTO, err, sizeof err);
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
        return usage();
    if (!strcmp(argv[0], "build"))
        return build(argc - 1, argv + 1);
    if (!strcmp(argv[0], "probe"))
        return probe(argc - 1, argv + 1);
    return usage();
}
