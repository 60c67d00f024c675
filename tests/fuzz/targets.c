/* The fuzz targets: what each input goes through, and the properties
 * checked on the way (see fuzz.h); the reader's target is in reader.c.  A broken property is returned as text;
 * the libFuzzer wrapper aborts on it, the test suite fails on it.  Plain C:
 * built into the libFuzzer binaries (make fuzz) and into the test suite. */
#define _GNU_SOURCE
#include "fuzz.h"
#include "fuzz_private.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zstd.h>

#include "book/book.h"
#include "engine/board/movegen.h"
#include "engine/init.h"
#include "engine/protocol/cecp.h"
#include "engine/protocol/ucci.h"
#include "engine/protocol/uci.h"
#include "engine/records/notation.h"
#include "engine/records/pgn.h"
#include "engine/rules/rules.h"
#include "eval/eval.h"

/* ---- shared by the targets' files (fuzz_private.h) ---- */

const char *fuzz_failed(const char *fmt, ...)
{
    static char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return msg;
}

/* ---- positions: checks shared by the FEN, PGN and book targets ---- */

static const NotationFormat FORMATS[] = {NOTATION_UCI, NOTATION_ICCS, NOTATION_WXF, NOTATION_CHINESE,
                                         NOTATION_CHINESE_SC};

/* Every legal move of pos: pseudo-legal and legal by the single-move tests,
 * make/unmake restores the key, the key stays equal to one computed from
 * scratch, gives_check agrees with the checkers, and each notation of the
 * mask (bit i: FORMATS[i]) writes a text that reads back as the same move. */
static const char *check_moves(Position *pos, unsigned notations)
{
    Move legal[MAX_MOVES], pseudo[MAX_MOVES];
    int n = gen_legal(pos, legal);
    if (n < 0 || n > MAX_MOVES)
        return fuzz_failed("gen_legal returned %d", n);
    if (count_legal(pos) != n)
        return fuzz_failed("count_legal %d, gen_legal %d", count_legal(pos), n);
    int np = gen_pseudo(pos, pseudo);
    if (np < n || np > MAX_MOVES)
        return fuzz_failed("gen_pseudo %d moves, gen_legal %d", np, n);
    if (pos_in_check(pos) && gen_evasions(pos, pseudo) != n)
        return fuzz_failed("gen_evasions disagrees with gen_legal in check");
    Key key = pos_key(pos);
    for (int i = 0; i < n; i++) {
        Move m = legal[i];
        char text[NOTATION_MAX];
        move_str(m, text, false);
        if (!pos_pseudo_legal(pos, m) || !pos_legal(pos, m))
            return fuzz_failed("legal move %s fails pos_pseudo_legal/pos_legal", text);
        if (parse_move(pos, text, false) != m)
            return fuzz_failed("parse_move does not read back %s", text);
        char text1[NOTATION_MAX];
        move_str(m, text1, true);
        if (parse_move(pos, text1, true) != m)
            return fuzz_failed("parse_move (ranks 1-10) does not read back %s", text1);
        bool gives = pos_gives_check(pos, m);
        (void)pos_see_ge(pos, m, 0);
        for (size_t f = 0; f < sizeof FORMATS / sizeof FORMATS[0]; f++)
            if (notations >> f & 1) {
                char out[NOTATION_MAX];
                if (!notation_write(pos, m, FORMATS[f], out))
                    return fuzz_failed("notation_write(%s) refuses the legal move %s", notation_format_name(FORMATS[f]),
                                  text);
                char why[160];
                Move back = notation_read(pos, out, FORMATS[f], why, sizeof why);
                if (back != m)
                    return fuzz_failed("%s '%s' of %s reads back as %d: %s", notation_format_name(FORMATS[f]), out, text,
                                  back, why);
                if (notation_read(pos, out, NOTATION_AUTO, NULL, 0) != m)
                    return fuzz_failed("%s '%s' of %s is not read back by auto", notation_format_name(FORMATS[f]), out,
                                  text);
            }
        if (pos_room(pos) < 1)
            continue;
        pos_do_move(pos, m);
        if (pos_key(pos) != pos_compute_key(pos))
            return fuzz_failed("the key after %s is not the key computed from scratch", text);
        if (pos_in_check(pos) != gives)
            return fuzz_failed("pos_gives_check(%s) = %d, but the position after it is%s in check", text, gives,
                          pos_in_check(pos) ? "" : " not");
        pos_undo_move(pos);
        if (pos_key(pos) != key)
            return fuzz_failed("unmaking %s does not restore the key", text);
    }
    return NULL;
}

/* ---- FEN ---- */

const char *fuzz_fen(const uint8_t *data, size_t size)
{
    static Position pos, copy;
    char fen[1024], err[160], out[FEN_MAX], out2[FEN_MAX];
    size_t len = 0;
    while (len < size && data[len] != '\n')
        len++;
    const uint8_t *choices = data + len + (len < size);
    size_t nchoices = size - (size_t)(choices - data);
    if (len >= sizeof fen)
        len = sizeof fen - 1;
    memcpy(fen, data, len);
    fen[len] = 0;

    pos_set_fen(&pos, START_FEN, NULL, 0);
    Key start = pos_key(&pos);
    err[0] = 0;
    if (!pos_set_fen(&pos, fen, err, sizeof err)) {
        if (!err[0])
            return fuzz_failed("a FEN refused without a reason");
        if (pos_key(&pos) != start)
            return fuzz_failed("a refused FEN changed the position");
        return NULL;
    }
    if (pos_key(&pos) != pos_compute_key(&pos))
        return fuzz_failed("the key of the FEN is not the key computed from scratch");
    pos_fen(&pos, out);
    if (strlen(out) >= FEN_MAX)
        return fuzz_failed("pos_fen wrote %zu bytes", strlen(out));
    if (!pos_set_fen(&copy, out, err, sizeof err))
        return fuzz_failed("pos_fen's own FEN '%s' is refused: %s", out, err);
    pos_fen(&copy, out2);
    if (strcmp(out, out2) || pos_key(&copy) != pos_key(&pos))
        return fuzz_failed("FEN round trip: '%s' then '%s'", out, out2);
    (void)evaluate(&pos);
    const char *bad = check_moves(&pos, ~0u);
    if (bad)
        return bad;

    /* A game from here: each byte picks a legal move; the rules judge each
     * position as a referee does, and the game ends at their first verdict. */
    char reason[256];
    for (size_t i = 0; i < nchoices && i < 100; i++) {
        Move legal[MAX_MOVES];
        int n = gen_legal(&pos, legal);
        if (n == 0 || pos_room(&pos) <= MAX_PLY)
            break;
        pos_do_move(&pos, legal[choices[i] % n]);
        if (pos_key(&pos) != pos_compute_key(&pos))
            return fuzz_failed("the key after move %zu is not the key computed from scratch", i + 1);
        int rule = choices[i] / 128 ? RULE_AXF : RULE_CXA;
        Bitboard chased;
        (void)rules_classify_last(&pos, rule, &chased);
        Key before = pos_key(&pos);
        int top = pos.top;
        Verdict v = rules_judge_at(&pos, rule, 120, 2, reason, sizeof reason);
        if (pos_key(&pos) != before || pos.top != top)
            return fuzz_failed("rules_judge_at changed the position");
        if (v < VERDICT_NONE || v > VERDICT_LOSS)
            return fuzz_failed("rules_judge_at gave verdict %d", (int)v);
        (void)evaluate(&pos);
        if (v != VERDICT_NONE)
            break;
    }
    if (nchoices)
        return check_moves(&pos, 0);
    return NULL;
}

/* ---- protocols ---- */

/* Lines that would make the engine take a lot of memory or threads, or read
 * special files (a FIFO blocks for ever), are left out of the input: a Hash,
 * memory, Threads or cores line with a number over 16, and a book line with
 * a path. */
static bool line_allowed(const char *line, size_t len)
{
    char *low = malloc(len + 1);
    if (!low)
        return false;
    for (size_t i = 0; i < len; i++)
        low[i] = (char)tolower((unsigned char)line[i]);
    low[len] = 0; /* (the line has no NUL bytes left) */
    bool ok = !strstr(low, "/dev") && !strstr(low, "/proc") && !strstr(low, "/sys")
              && !(strstr(low, "book") && memchr(line, '/', len));
    if (ok && (strstr(low, "hash") || strstr(low, "memory") || strstr(low, "thread") || strstr(low, "cores")))
        for (size_t i = 0; i < len && ok; i++)
            if (isdigit((unsigned char)line[i])) {
                long v = 0;
                while (i < len && isdigit((unsigned char)line[i])) {
                    if (v <= 16)
                        v = v * 10 + (line[i] - '0');
                    i++;
                }
                ok = v <= 16;
            }
    free(low);
    return ok;
}

/* Is the first word of the line (as the front-ends split it) word? */
static bool first_word_is(const char *line, size_t len, const char *word)
{
    static const char SPACE[] = " \t\r\v\f";
    size_t i = 0, w = strlen(word);
    while (i < len && strchr(SPACE, line[i]) && line[i])
        i++;
    return len - i >= w && !memcmp(line + i, word, w) && (i + w == len || (line[i + w] && strchr(SPACE, line[i + w])));
}

/* The input after hello, without NUL bytes and the lines left out, then
 * sync (NULL: none): a command that must be answered with sync_reply, as
 * must every one in the input, unless a quit came first. */
static const char *fuzz_protocol(const uint8_t *data, size_t size, int (*serve)(FILE *, Output *, const char *),
                                 const char *hello, const char *sync, const char *sync_reply)
{
    size_t cap = strlen(hello) + size + (sync ? strlen(sync) : 0) + 4;
    char *text = malloc(cap);
    if (!text)
        return NULL;
    size_t len = (size_t)sprintf(text, "%s\n", hello);
    int syncs = 0;
    bool quit = false;
    for (size_t i = 0; i < size;) {
        size_t start = len;
        /* lines end at LF or CR, as the front-ends read them */
        while (i < size && data[i] != '\n' && data[i] != '\r') {
            if (data[i])
                text[len++] = (char)data[i];
            i++;
        }
        i++; /* the line end */
        const char *line = text + start;
        size_t n = len - start;
        if (!line_allowed(line, n)) {
            len = start;
            continue;
        }
        if (sync && !quit)
            syncs += first_word_is(line, n, sync);
        quit |= first_word_is(line, n, "quit");
        text[len++] = '\n';
    }
    if (sync && !quit) {
        len += (size_t)sprintf(text + len, "%s\n", sync);
        syncs++;
    }

    FILE *in = fmemopen(text, len, "r");
    char *out_text = NULL;
    size_t out_len = 0;
    FILE *out = open_memstream(&out_text, &out_len);
    const char *bad = NULL;
    if (in && out) {
        Output o;
        out_init(&o, out);
        serve(in, &o, NULL); /* the front-end reads hello as its first command */
        out_destroy(&o);
        fflush(out);
        int replies = 0;
        for (char *p = out_text; sync && p && *p;) {
            char *eol = strchr(p, '\n');
            size_t n = eol ? (size_t)(eol - p) : strlen(p);
            replies += n == strlen(sync_reply) && !memcmp(p, sync_reply, n);
            p = eol ? eol + 1 : p + n;
        }
        if (sync && replies != syncs)
            bad = fuzz_failed("%d '%s' lines answered with %d '%s'", syncs, sync, replies, sync_reply);
    }
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    free(out_text);
    free(text);
    return bad;
}

const char *fuzz_uci(const uint8_t *data, size_t size) { return fuzz_protocol(data, size, uci_serve, "uci", "isready", "readyok"); }

const char *fuzz_ucci(const uint8_t *data, size_t size)
{
    return fuzz_protocol(data, size, ucci_serve, "ucci", "isready", "readyok");
}

/* xboard: a pong comes after the engine's own move, and at the end of the
 * input the engine stops without moving, so no reply is required. */
const char *fuzz_cecp(const uint8_t *data, size_t size) { return fuzz_protocol(data, size, cecp_serve, "xboard", NULL, NULL); }

/* ---- PGN and notation ---- */

/* A record replays, and its moves read back the same a second time; with
 * moves_too, every legal move at its end is checked as well, in the
 * notations of the mask (check_moves). */
static const char *check_record(const PgnGame *g, bool moves_too, unsigned notations)
{
    static Position pos, again;
    static Move moves[MAX_GAME_PLY + MAX_PLY + 1];
    int n = -1;
    char err[256];
    (void)pgn_tag(g, "Event");
    int result = pgn_result(g);
    if (result < PGN_RED_WINS || result > PGN_UNKNOWN)
        return fuzz_failed("pgn_result %d", result);
    PgnReplayError e = pgn_replay(g, &pos, moves, (int)(sizeof moves / sizeof moves[0]), &n, err, sizeof err);
    if (e < PGN_OK || e >= PGN_ERR_NB || !pgn_error_name(e))
        return fuzz_failed("pgn_replay returned %d", (int)e);
    if (n < 0 || n > g->nmoves)
        return fuzz_failed("pgn_replay played %d of %d moves", n, g->nmoves);
    if (e == PGN_OK && n != g->nmoves)
        return fuzz_failed("pgn_replay succeeded after %d of %d moves", n, g->nmoves);
    if (e == PGN_ERR_FEN || (e == PGN_ERR_NO_MOVES && n))
        return NULL;
    /* the same moves again; at the end every legal move through one
     * notation (one per record, in turn) */
    const char *fen = pgn_tag(g, "FEN");
    if (!pos_set_fen(&again, fen && *fen ? fen : START_FEN, err, sizeof err))
        return fuzz_failed("the FEN pgn_replay accepted is refused: %s", err);
    for (int i = 0; i < n; i++) {
        if (notation_read(&again, g->moves[i], NOTATION_AUTO, NULL, 0) != moves[i])
            return fuzz_failed("move %d '%.40s' reads differently a second time", i + 1, g->moves[i]);
        pos_do_move(&again, moves[i]);
    }
    if (pos_key(&again) != pos_key(&pos))
        return fuzz_failed("replaying the moves again ends elsewhere");
    return moves_too ? check_moves(&again, notations) : NULL;
}

const char *fuzz_pgn(const uint8_t *data, size_t size)
{
    /* as the tools read records (the encoding told per record), then in an
     * encoding named from the first byte */
    PgnEncoding encs[2] = {PGN_ENC_AUTO, size ? (PgnEncoding)(1 + data[0] % 3) : PGN_ENC_UTF8};
    for (int k = 0; k < 2; k++) {
        char err[256];
        PgnReader *r = pgn_open_memory(data, size, encs[k], err, sizeof err);
        if (!r)
            continue;
        const PgnGame *g;
        long records = 0;
        int got;
        while (records < 64 && (got = pgn_next(r, &g, err, sizeof err)) == 1) {
            records++;
            if (g->index != records)
                return pgn_close(r), fuzz_failed("record %ld has index %ld", records, g->index);
            /* the move checks at the end of the first record only: they
             * were half of an execution, done again for every record of
             * an input, where the FEN target does them on any position;
             * one notation, named by the last byte */
            const char *bad = k == 0 ? check_record(g, records == 1, 1u << (size ? data[size - 1] % 5 : 0)) : NULL;
            if (bad)
                return pgn_close(r), bad;
        }
        pgn_close(r);
    }
    return NULL;
}

/* ---- book ---- */

static uint64_t rd64le(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void wr64le(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void wr32le(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The book format's checksum (book/book.h): 64-bit words mixed by multiply
 * and rotate, the tail folded in, then avalanched.  fuzz_init checks it on
 * the built-in book, so that a change of the format is noticed here. */
static uint64_t book_checksum(const uint8_t *p, size_t n)
{
    const uint64_t A = 0x9E3779B97F4A7C15ULL, B = 0xC2B2AE3D27D4EB4FULL, C = 0x165667B19E3779F9ULL;
    uint64_t h = C ^ (uint64_t)n * A;
    size_t i;
    for (i = 0; i + 8 <= n; i += 8) {
        uint64_t w = rd64le(p + i) * B;
        h ^= (w << 31 | w >> 33) * A;
        h = (h << 27 | h >> 37) * A + C;
    }
    uint64_t t = 0;
    for (size_t k = n; k > i; k--)
        t = t << 8 | p[k - 1];
    t *= B;
    h ^= (t << 31 | t >> 33) * A;
    h ^= h >> 33;
    h *= B;
    h ^= h >> 29;
    h *= C;
    h ^= h >> 32;
    return h;
}

/* Make a 64-byte header plus data right: its checksums. */
static void seal_book(uint8_t *b, size_t size)
{
    wr64le(b + 48, book_checksum(b + 64, size - 64));
    wr64le(b + 56, book_checksum(b, 56));
}

/* The probes every loaded book must survive: the start position and the
 * positions of a short line, every move returned legal and best first. */
static const char *probe_book(const Book *book, const uint8_t *line, size_t n)
{
    static Position pos;
    pos_set_fen(&pos, START_FEN, NULL, 0);
    uint64_t rng = n ? line[0] : 0;
    for (size_t i = 0;; i++) {
        BookMove moves[MAX_MOVES];
        int k = book_probe(book, &pos, moves, MAX_MOVES);
        if (k < 0 || k > MAX_MOVES)
            return fuzz_failed("book_probe returned %d", k);
        for (int j = 0; j < k; j++) {
            if (!pos_pseudo_legal(&pos, moves[j].move) || !pos_legal(&pos, moves[j].move))
                return fuzz_failed("book_probe gave an illegal move");
            if (j && moves[j].weight > moves[j - 1].weight)
                return fuzz_failed("book_probe's moves are not best first");
        }
        BookMove few[2];
        if (book_probe(book, &pos, few, 2) != (k < 2 ? k : 2) || (k && few[0].weight != moves[0].weight))
            return fuzz_failed("book_probe with room for 2 disagrees");
        Move c = book_choose(book, &pos, false, &rng);
        if ((c == MOVE_NONE) != (k == 0) || (c && (!pos_pseudo_legal(&pos, c) || !pos_legal(&pos, c))))
            return fuzz_failed("book_choose gave %d with %d book moves", c, k);
        if (i >= n || i >= 32)
            break;
        Move legal[MAX_MOVES];
        int nl = gen_legal(&pos, legal);
        if (nl == 0)
            break;
        pos_do_move(&pos, k && line[i] < 128 ? moves[line[i] % k].move : legal[line[i] % nl]);
    }
    return NULL;
}

/* Entries of real positions: a line from the start picked by the data,
 * (key, move) for each ply with weights from the data; a book of them in
 * the file format, which must load and give the moves back. */
static const char *book_from_line(const uint8_t *data, size_t size)
{
    static Position pos;
    enum { MAXE = 64 };
    struct {
        Key key;
        Move move;
        uint32_t w[4];
    } e[MAXE], t;
    int ne = 0;
    pos_set_fen(&pos, START_FEN, NULL, 0);
    for (size_t i = 0; i + 1 < size && ne < MAXE; i += 2) {
        Move legal[MAX_MOVES];
        int nl = gen_legal(&pos, legal);
        if (nl == 0)
            break;
        Move m = legal[data[i] % nl];
        e[ne].key = pos_key(&pos);
        e[ne].move = m;
        e[ne].w[0] = data[i + 1] & 0x80 ? 0xFFFFFFFFu - data[i + 1] : data[i + 1];
        e[ne].w[1] = data[i + 1] & 7;
        e[ne].w[2] = data[i + 1] >> 3 & 7;
        e[ne].w[3] = data[i + 1] >> 6;
        /* a position seen again keeps its first move only */
        bool dup = false;
        for (int j = 0; j < ne; j++)
            dup |= e[j].key == e[ne].key && e[j].move == m;
        ne += !dup;
        pos_do_move(&pos, m);
    }
    for (int i = 1; i < ne; i++) /* sorted by key */
        for (int j = i; j > 0 && e[j - 1].key > e[j].key; j--)
            t = e[j], e[j] = e[j - 1], e[j - 1] = t;
    size_t raw = (size_t)ne * 30;
    uint8_t payload[MAXE * 30 + 1];
    Key prev = 0;
    for (int i = 0; i < ne; i++) {
        wr64le(payload + 8 * i, e[i].key - prev);
        prev = e[i].key;
        payload[8 * ne + 2 * i] = (uint8_t)e[i].move;
        payload[8 * ne + 2 * i + 1] = (uint8_t)(e[i].move >> 8);
        for (int c = 0; c < 4; c++)
            wr32le(payload + 10 * ne + 4 * (ne * c + i), e[i].w[c]);
    }
    size_t bound = ZSTD_compressBound(raw);
    uint8_t *book = calloc(1, 64 + bound);
    if (!book)
        return NULL;
    size_t csize = ZSTD_compress(book + 64, bound, payload, raw, 1);
    if (ZSTD_isError(csize)) {
        free(book);
        return fuzz_failed("ZSTD_compress: %s", ZSTD_getErrorName(csize));
    }
    memcpy(book, "CHUHANBK", 8);
    wr32le(book + 8, 1);
    wr32le(book + 12, 64);
    wr64le(book + 16, (uint64_t)ne);
    wr64le(book + 24, csize);
    seal_book(book, 64 + csize);
    char err[256];
    Book *b = book_load_memory(book, 64 + csize, err, sizeof err);
    free(book);
    if (!b)
        return fuzz_failed("a well-formed book of %d entries is refused: %s", ne, err);
    const char *bad = NULL;
    if (book_entries(b) != (size_t)ne)
        bad = fuzz_failed("book of %d entries loads %zu", ne, book_entries(b));
    /* each entry's move comes back at its position */
    pos_set_fen(&pos, START_FEN, NULL, 0);
    for (size_t i = 0; !bad && i + 1 < size && i / 2 < MAXE; i += 2) {
        Move legal[MAX_MOVES];
        int nl = gen_legal(&pos, legal);
        if (nl == 0)
            break;
        Move m = legal[data[i] % nl];
        BookMove moves[MAX_MOVES];
        int k = book_probe(b, &pos, moves, MAX_MOVES), found = 0;
        for (int j = 0; j < k; j++)
            found |= moves[j].move == m;
        if (!found)
            bad = fuzz_failed("ply %zu: the book's move is not probed back", i / 2 + 1);
        pos_do_move(&pos, m);
    }
    if (!bad)
        bad = probe_book(b, data, size);
    book_free(b);
    return bad;
}

/* Games picked by the data through the book builder (every move kept),
 * finished, loaded and probed: the builder's books must load. */
static const char *book_from_builder(const uint8_t *data, size_t size)
{
    static Position pos;
    BookOptions opt;
    book_options_default(&opt);
    opt.min_games = 1;
    opt.min_score = 0;
    opt.max_ply = 1 + (size ? data[0] % 40 : 0);
    BookBuilder *bb = book_builder_new(&opt);
    if (!bb)
        return NULL;
    Move moves[64];
    char err[256];
    const char *bad = NULL;
    size_t i = 1;
    for (int game = 0; game < 4 && i < size && !bad; game++) {
        int n = 0;
        pos_set_fen(&pos, START_FEN, NULL, 0);
        int result = data[i++] % 4;
        for (; i < size && data[i] != 0xFF && n < 64; i++) {
            Move legal[MAX_MOVES];
            int nl = gen_legal(&pos, legal);
            if (nl == 0)
                break;
            moves[n++] = legal[data[i] % nl];
            pos_do_move(&pos, moves[n - 1]);
        }
        i++;
        if (!book_builder_add_game(bb, NULL, moves, n, result, err, sizeof err))
            bad = fuzz_failed("book_builder_add_game refuses a legal game: %s", err);
    }
    void *book = NULL;
    size_t bsize = 0;
    if (!bad && !book_builder_finish(bb, &book, &bsize, err, sizeof err))
        bad = fuzz_failed("book_builder_finish: %s", err);
    book_builder_free(bb);
    if (bad)
        return bad;
    Book *b = book_load_memory(book, bsize, err, sizeof err);
    free(book);
    if (!b)
        return fuzz_failed("a built book is refused: %s", err);
    bad = probe_book(b, data, size);
    book_free(b);
    return bad;
}

const char *fuzz_book(const uint8_t *data, size_t size)
{
    if (size == 0)
        return NULL;
    const uint8_t *rest = data + 1;
    size_t n = size - 1;
    char err[256];
    switch (data[0] % 4) {
    case 0:
    case 1: {
        /* the bytes as they are (0), or with the checksums made right (1) */
        uint8_t *copy = malloc(n ? n : 1);
        if (!copy)
            return NULL;
        memcpy(copy, rest, n);
        if (data[0] % 4 == 1 && n >= 64)
            seal_book(copy, n);
        Book *b = book_load_memory(copy, n, err, sizeof err);
        free(copy);
        if (!b)
            return err[0] ? NULL : "a book refused without a reason";
        const char *bad = probe_book(b, rest, n < 64 ? n : 64);
        book_free(b);
        return bad;
    }
    case 2:
        return book_from_line(rest, n);
    default:
        return book_from_builder(rest, n);
    }
}

/* ---- set-up ---- */

extern const unsigned char chuhan_default_book_start[]; /* book/default_book.c */

void fuzz_init(void)
{
    char err[300];
    if (!chuhan_init(err, sizeof err)) {
        fprintf(stderr, "fuzz: %s\n", err);
        abort();
    }
    /* the checksum above must be the format's: true of the built-in book */
    if (book_checksum(chuhan_default_book_start, 56) != rd64le(chuhan_default_book_start + 56)) {
        fprintf(stderr, "fuzz: book_checksum does not match the book format any more (book/book.c)\n");
        abort();
    }
}

const FuzzTarget FUZZ_TARGETS[] = {
    {"fen", fuzz_fen},   {"uci", fuzz_uci},   {"ucci", fuzz_ucci}, {"cecp", fuzz_cecp},
    {"pgn", fuzz_pgn},   {"book", fuzz_book}, {"reader", fuzz_reader}, {NULL, NULL},
};
