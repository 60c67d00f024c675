/* The opening book: building from game records, the file format, probing. */
#include "book.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "engine/board/movegen.h"
#include "engine/util/error.h"
#include "engine/util/outfile.h"
#include "engine/util/rng.h"

#define BOOK_MAGIC "CHUHANBK"
#define BOOK_VERSION 1u
#define HEADER_SIZE 64
#define ENTRY_BYTES 30 /* key 8, move 2, weight/wins/draws/losses 4 each */
#define MAX_BOOK_ENTRIES ((uint64_t)1 << 28)
#define ZSTD_LEVEL 19

typedef struct {
    Move move;
    uint32_t weight, wins, draws, losses;
} Entry;

struct Book {
    size_t n, positions;
    Key *keys;      /* sorted */
    Entry *entries; /* entries[i] belongs to keys[i]; best first within a key */
};

/* ---- little-endian fields and the checksum ---- */

static uint64_t rd64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}
static uint32_t rd32(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t rd16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static void wr64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static void wr32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static void wr16(unsigned char *p, uint16_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

/* A 64-bit checksum: words mixed by multiply and rotate, then avalanched. */
static uint64_t checksum(const unsigned char *p, size_t n)
{
    const uint64_t K1 = 0x9E3779B97F4A7C15ULL, K2 = 0xC2B2AE3D27D4EB4FULL, K3 = 0x165667B19E3779F9ULL;
    uint64_t h = K3 ^ (uint64_t)n * K1;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = rd64(p + i) * K2;
        w = w << 31 | w >> 33;
        h ^= w * K1;
        h = (h << 27 | h >> 37) * K1 + K3;
    }
    uint64_t tail = 0;
    for (size_t k = n; k > i; k--)
        tail = tail << 8 | p[k - 1];
    h ^= (tail * K2 << 31 | (tail * K2) >> 33) * K1;
    h ^= h >> 33;
    h *= K2;
    h ^= h >> 29;
    h *= K3;
    h ^= h >> 32;
    return h;
}

/* ---- loading ---- */

static Book *load_fail(Book *b, char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static Book *load_fail(Book *b, char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    book_free(b);
    return NULL;
}

Book *book_load_memory(const void *data, size_t size, char *err, size_t errlen)
{
    const unsigned char *p = data;
    if (!p || size == 0)
        return load_fail(NULL, err, errlen, "not a book: no data");
    if (size < HEADER_SIZE)
        return load_fail(NULL, err, errlen, "truncated book: %zu bytes, less than its %d-byte header", size,
                         HEADER_SIZE);
    if (memcmp(p, BOOK_MAGIC, 8))
        return load_fail(NULL, err, errlen, "not a Chuhan book (no CHUHANBK magic)");
    if (rd64(p + 56) != checksum(p, 56))
        return load_fail(NULL, err, errlen, "corrupt book: the header checksum does not match");
    uint32_t version = rd32(p + 8), hsize = rd32(p + 12);
    if (version != BOOK_VERSION)
        return load_fail(NULL, err, errlen, "book format version %u is not supported (this build reads %u)", version,
                         BOOK_VERSION);
    if (hsize != HEADER_SIZE)
        return load_fail(NULL, err, errlen, "corrupt book: header size %u", hsize);
    uint64_t count = rd64(p + 16), csize = rd64(p + 24);
    if (count > MAX_BOOK_ENTRIES)
        return load_fail(NULL, err, errlen, "corrupt book: %llu entries", (unsigned long long)count);
    if (csize > size - HEADER_SIZE)
        return load_fail(NULL, err, errlen, "truncated book: %zu bytes, the header says %llu", size,
                         (unsigned long long)(csize + HEADER_SIZE));
    if (csize < size - HEADER_SIZE)
        return load_fail(NULL, err, errlen, "corrupt book: %llu unexpected bytes after the data",
                         (unsigned long long)(size - HEADER_SIZE - csize));
    if (checksum(p + HEADER_SIZE, (size_t)csize) != rd64(p + 48))
        return load_fail(NULL, err, errlen, "corrupt book: the data checksum does not match");
    size_t raw = (size_t)count * ENTRY_BYTES;
    unsigned long long content = ZSTD_getFrameContentSize(p + HEADER_SIZE, (size_t)csize);
    if (content != raw)
        return load_fail(NULL, err, errlen, "corrupt book: the compressed data does not hold %llu entries",
                         (unsigned long long)count);
    Book *b = calloc(1, sizeof *b);
    unsigned char *payload = malloc(raw ? raw : 1);
    if (!b || !payload) {
        free(payload);
        return load_fail(b, err, errlen, "out of memory");
    }
    size_t got = ZSTD_decompress(payload, raw, p + HEADER_SIZE, (size_t)csize);
    if (ZSTD_isError(got) || got != raw) {
        free(payload);
        return load_fail(b, err, errlen, "corrupt book: %s",
                         ZSTD_isError(got) ? ZSTD_getErrorName(got) : "short data");
    }
    b->n = (size_t)count;
    b->keys = malloc(b->n * sizeof *b->keys + 1);
    b->entries = malloc(b->n * sizeof *b->entries + 1);
    if (!b->keys || !b->entries) {
        free(payload);
        return load_fail(b, err, errlen, "out of memory");
    }
    const unsigned char *kcol = payload, *mcol = kcol + 8 * b->n, *wcol = mcol + 2 * b->n;
    const unsigned char *win = wcol + 4 * b->n, *draw = win + 4 * b->n, *loss = draw + 4 * b->n;
    Key key = 0;
    bool bad = false;
    for (size_t i = 0; i < b->n; i++) {
        Key d = rd64(kcol + 8 * i);
        if (i > 0 && key + d < key)
            bad = true; /* keys must not wrap: they are sorted */
        key += d;
        b->keys[i] = key;
        if (i == 0 || key != b->keys[i - 1])
            b->positions++;
        Entry *e = &b->entries[i];
        e->move = rd16(mcol + 2 * i);
        e->weight = rd32(wcol + 4 * i);
        e->wins = rd32(win + 4 * i);
        e->draws = rd32(draw + 4 * i);
        e->losses = rd32(loss + 4 * i);
        if (move_from(e->move) >= SQUARE_NB || move_to(e->move) >= SQUARE_NB || move_from(e->move) == move_to(e->move))
            bad = true;
    }
    free(payload);
    if (bad)
        return load_fail(b, err, errlen, "corrupt book: entries out of order or not moves");
    return b;
}

#define BOOK_FILE_MAX ((off_t)1 << 30) /* 1 GB: far more than any real book */

Book *book_load_file(const char *path, char *err, size_t errlen)
{
    /* Only a regular file of sane size: a FIFO would block the open, a
     * device never end. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return load_fail(NULL, err, errlen, "cannot open book %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return load_fail(NULL, err, errlen, "book %s is not a regular file", path);
    }
    if (st.st_size > BOOK_FILE_MAX) {
        close(fd);
        return load_fail(NULL, err, errlen, "book %s is too large (%lld bytes)", path, (long long)st.st_size);
    }
    size_t size = (size_t)st.st_size, len = 0;
    unsigned char *data = malloc(size ? size : 1);
    if (!data) {
        close(fd);
        return load_fail(NULL, err, errlen, "out of memory");
    }
    while (len < size) {
        ssize_t n = read(fd, data + len, size - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int e = n < 0 ? errno : EIO;
            free(data);
            close(fd);
            return load_fail(NULL, err, errlen, "cannot read book %s: %s", path, strerror(e));
        }
        len += (size_t)n;
    }
    close(fd);
    char why[200];
    Book *b = book_load_memory(data, len, why, sizeof why);
    free(data);
    if (!b)
        err_set(err, errlen, "%s: %s", path, why);
    return b;
}

void book_free(Book *book)
{
    if (!book)
        return;
    free(book->keys);
    free(book->entries);
    free(book);
}

size_t book_entries(const Book *book) { return book ? book->n : 0; }
size_t book_positions(const Book *book) { return book ? book->positions : 0; }

/* ---- probing ---- */

int book_probe(const Book *book, const Position *pos, BookMove *out, int max)
{
    if (!book || book->n == 0 || max <= 0)
        return 0;
    Key key = pos_key(pos);
    size_t lo = 0, hi = book->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (book->keys[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    int n = 0;
    for (size_t i = lo; i < book->n && book->keys[i] == key; i++) {
        const Entry *e = &book->entries[i];
        if (!pos_pseudo_legal(pos, e->move) || !pos_legal(pos, e->move))
            continue;
        BookMove bm = {e->move, e->weight, e->wins, e->draws, e->losses};
        /* insert by weight, best first (a built book is in this order already) */
        int j = n < max ? n++ : max;
        while (j > 0 && out[j - 1].weight < bm.weight) {
            if (j < max)
                out[j] = out[j - 1];
            j--;
        }
        if (j < max)
            out[j] = bm;
    }
    return n;
}

Move book_choose(const Book *book, const Position *pos, bool best_only, uint64_t *rng_state)
{
    BookMove moves[MAX_MOVES];
    int n = book_probe(book, pos, moves, MAX_MOVES);
    if (n == 0)
        return MOVE_NONE;
    if (best_only || n == 1 || !rng_state)
        return moves[0].move;
    uint64_t total = 0;
    for (int i = 0; i < n; i++)
        total += moves[i].weight;
    if (total == 0)
        return moves[0].move;
    uint64_t r = rng_below(rng_state, total);
    for (int i = 0; i < n; i++) {
        if (r < moves[i].weight)
            return moves[i].move;
        r -= moves[i].weight;
    }
    return moves[0].move;
}

/* ---- building ---- */

enum { R_WIN, R_DRAW, R_LOSS, R_UNKNOWN };

typedef struct {
    Key key;
    Move move;
    uint8_t result; /* for the player of the move */
} Sample;

struct BookBuilder {
    BookOptions opt;
    BookBuildStats stats;
    Sample *samples;
    size_t nsamples, cap;
    Position *pos;
    Move *moves;
    bool line_open; /* a progress line without its newline yet */
};

void book_options_default(BookOptions *opt)
{
    opt->max_ply = 30;
    opt->min_games = 3;
    opt->min_score = 0.25;
    opt->encoding = PGN_ENC_AUTO;
    opt->progress = NULL;
    opt->rejects = NULL;
}

BookBuilder *book_builder_new(const BookOptions *opt)
{
    BookBuilder *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    if (opt)
        b->opt = *opt;
    else
        book_options_default(&b->opt);
    b->pos = malloc(sizeof *b->pos);
    b->moves = malloc(MAX_GAME_PLY * sizeof *b->moves);
    if (!b->pos || !b->moves) {
        book_builder_free(b);
        return NULL;
    }
    return b;
}

void book_builder_free(BookBuilder *b)
{
    if (!b)
        return;
    free(b->samples);
    free(b->pos);
    free(b->moves);
    free(b);
}

const BookBuildStats *book_builder_stats(const BookBuilder *b) { return &b->stats; }

bool book_builder_add_game(BookBuilder *b, const char *fen, const Move *moves, int n, int result, char *err,
                           size_t errlen)
{
    char why[160];
    if (!pos_set_fen(b->pos, fen ? fen : START_FEN, why, sizeof why))
        return err_set(err, errlen, "bad FEN: %s", why);
    int limit = n < b->opt.max_ply ? n : b->opt.max_ply;
    if (limit > pos_room(b->pos))
        limit = pos_room(b->pos);
    if (b->nsamples + (size_t)(limit > 0 ? limit : 0) > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1 << 16;
        while (cap < b->nsamples + (size_t)limit)
            cap *= 2;
        Sample *s = realloc(b->samples, cap * sizeof *s);
        if (!s)
            return err_set(err, errlen, "out of memory");
        b->samples = s;
        b->cap = cap;
    }
    size_t first = b->nsamples;
    for (int i = 0; i < limit; i++) {
        Move m = moves[i];
        if (!pos_pseudo_legal(b->pos, m) || !pos_legal(b->pos, m)) {
            b->nsamples = first;
            char text[8];
            move_str(m, text, false);
            return err_set(err, errlen, "ply %d: %s is not a legal move", i + 1, text);
        }
        int us = b->pos->side;
        uint8_t r = R_UNKNOWN;
        if (result == PGN_DRAW)
            r = R_DRAW;
        else if (result == PGN_RED_WINS)
            r = us == RED ? R_WIN : R_LOSS;
        else if (result == PGN_BLACK_WINS)
            r = us == BLACK ? R_WIN : R_LOSS;
        Sample s = {pos_key(b->pos), m, r};
        b->samples[b->nsamples++] = s;
        pos_do_move(b->pos, m);
    }
    b->stats.samples += limit;
    return true;
}

static void progress(BookBuilder *b, const char *name, bool done)
{
    if (!b->opt.progress)
        return;
    b->line_open = !done;
    const BookBuildStats *s = &b->stats;
    fprintf(b->opt.progress, "\rbook: %s: %ld games read, %ld used, %ld moves counted%s", name ? name : "input",
            s->games_read, s->games_used, s->samples, done ? "\n" : "");
    fflush(b->opt.progress);
}

bool book_builder_add_pgn(BookBuilder *b, PgnReader *reader, const char *name, char *err, size_t errlen)
{
    const PgnGame *g;
    int k;
    char why[256];
    b->stats.files++;
    while ((k = pgn_next(reader, &g, why, sizeof why)) > 0) {
        int n;
        b->stats.games_read++;
        PgnReplayError e = pgn_replay(g, b->pos, b->moves, MAX_GAME_PLY, &n, why, sizeof why);
        if (e == PGN_OK) {
            int result = pgn_result(g);
            if (!book_builder_add_game(b, pgn_tag(g, "FEN"), b->moves, n, result, why, sizeof why))
                e = PGN_ERR_MOVE; /* cannot happen after a replay, but say so if it does */
            else {
                b->stats.games_used++;
                b->stats.unknown_results += result == PGN_UNKNOWN;
            }
        }
        if (e != PGN_OK) {
            b->stats.rejected[e]++;
            if (b->opt.rejects && b->line_open && b->opt.rejects == b->opt.progress) {
                fputc('\n', b->opt.rejects);
                b->line_open = false;
            }
            if (b->opt.rejects)
                fprintf(b->opt.rejects, "%s:%ld: record %ld rejected: %s\n", name ? name : "input", g->line,
                        g->index, why);
        }
        if (b->stats.games_read % 1000 == 0)
            progress(b, name, false);
    }
    progress(b, name, true);
    if (k < 0)
        return err_set(err, errlen, "%s: %s", name ? name : "input", why);
    return true;
}

bool book_builder_add_file(BookBuilder *b, const char *path, char *err, size_t errlen)
{
    PgnReader *r = pgn_open_file(path, b->opt.encoding, err, errlen);
    if (!r)
        return false;
    bool ok = book_builder_add_pgn(b, r, path, err, errlen);
    pgn_close(r);
    return ok;
}

static int sample_order(const void *a, const void *b)
{
    const Sample *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (int)x->move - (int)y->move;
}

typedef struct {
    Key key;
    Entry e;
} KeyedEntry;

static int entry_order(const void *a, const void *b)
{
    const KeyedEntry *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->e.weight != y->e.weight)
        return x->e.weight > y->e.weight ? -1 : 1;
    return (int)x->e.move - (int)y->e.move;
}

bool book_builder_finish(BookBuilder *b, void **data, size_t *size, char *err, size_t errlen)
{
    *data = NULL;
    *size = 0;
    if (b->nsamples)
        qsort(b->samples, b->nsamples, sizeof *b->samples, sample_order);
    KeyedEntry *ents = malloc((b->nsamples ? b->nsamples : 1) * sizeof *ents);
    if (!ents)
        return err_set(err, errlen, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < b->nsamples;) {
        size_t j = i;
        uint32_t count[4] = {0};
        while (j < b->nsamples && b->samples[j].key == b->samples[i].key && b->samples[j].move == b->samples[i].move)
            count[b->samples[j++].result]++;
        uint32_t games = (uint32_t)(j - i), known = count[R_WIN] + count[R_DRAW] + count[R_LOSS];
        double score = known ? (count[R_WIN] + 0.5 * count[R_DRAW]) / known : 0.0;
        if (games >= (uint32_t)(b->opt.min_games > 0 ? b->opt.min_games : 1) && known > 0 &&
            score >= b->opt.min_score) {
            KeyedEntry *k = &ents[n++];
            k->key = b->samples[i].key;
            k->e.move = b->samples[i].move;
            k->e.wins = count[R_WIN];
            k->e.draws = count[R_DRAW];
            k->e.losses = count[R_LOSS];
            k->e.weight = 2 * count[R_WIN] + count[R_DRAW];
        }
        i = j;
    }
    if (n)
        qsort(ents, n, sizeof *ents, entry_order);
    size_t raw = n * ENTRY_BYTES;
    unsigned char *payload = malloc(raw ? raw : 1);
    size_t bound = ZSTD_compressBound(raw);
    unsigned char *out = malloc(HEADER_SIZE + bound);
    if (!payload || !out) {
        free(ents);
        free(payload);
        free(out);
        return err_set(err, errlen, "out of memory");
    }
    unsigned char *kcol = payload, *mcol = kcol + 8 * n, *wcol = mcol + 2 * n;
    unsigned char *win = wcol + 4 * n, *draw = win + 4 * n, *loss = draw + 4 * n;
    long positions = 0;
    for (size_t i = 0; i < n; i++) {
        wr64(kcol + 8 * i, ents[i].key - (i ? ents[i - 1].key : 0));
        wr16(mcol + 2 * i, ents[i].e.move);
        wr32(wcol + 4 * i, ents[i].e.weight);
        wr32(win + 4 * i, ents[i].e.wins);
        wr32(draw + 4 * i, ents[i].e.draws);
        wr32(loss + 4 * i, ents[i].e.losses);
        positions += i == 0 || ents[i].key != ents[i - 1].key;
    }
    free(ents);
    size_t csize = ZSTD_compress(out + HEADER_SIZE, bound, payload, raw, ZSTD_LEVEL);
    free(payload);
    if (ZSTD_isError(csize)) {
        free(out);
        return err_set(err, errlen, "zstd: %s", ZSTD_getErrorName(csize));
    }
    uint64_t sum = checksum(out + HEADER_SIZE, csize);
    memset(out, 0, HEADER_SIZE);
    memcpy(out, BOOK_MAGIC, 8);
    wr32(out + 8, BOOK_VERSION);
    wr32(out + 12, HEADER_SIZE);
    wr64(out + 16, n);
    wr64(out + 24, csize);
    wr32(out + 32, (uint32_t)b->opt.max_ply);
    wr32(out + 36, (uint32_t)b->opt.min_games);
    wr64(out + 40, (uint64_t)b->stats.games_used);
    wr64(out + 48, sum);
    wr64(out + 56, checksum(out, 56));
    b->stats.positions = positions;
    b->stats.entries = (long)n;
    b->stats.bytes = HEADER_SIZE + csize;
    *data = out;
    *size = HEADER_SIZE + csize;
    return true;
}

bool book_builder_write(BookBuilder *b, const char *path, char *err, size_t errlen)
{
    void *data;
    size_t size;
    if (!book_builder_finish(b, &data, &size, err, errlen))
        return false;
    /* a new file or a regular one, replaced whole; anything else refused */
    OutFile out;
    bool ok = outfile_begin(&out, path, err, errlen);
    if (ok && fwrite(data, 1, size, out.f) != size) {
        err_set(err, errlen, "cannot write %s: %s", path, strerror(errno));
        outfile_abort(&out);
        ok = false;
    } else if (ok) {
        ok = outfile_commit(&out, err, errlen);
    }
    free(data);
    return ok;
}
