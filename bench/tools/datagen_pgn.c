/* chuhan datagen --pgn: training records from recorded games (see
 * datagen_pgn.h). */
#include "datagen_pgn.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datagen.h"
#include "engine/cluster/comm.h"
#include "engine/engine.h"
#include "engine/records/pgn.h"
#include "engine/util/args.h"
#include "engine/util/clock.h"
#include "engine/util/error.h"
#include "engine/util/file.h"
#include "engine/util/host.h"
#include "engine/util/outfile.h"
#include "nnue_data.h"
#include "search/score.h"
#include "search/threads.h"

/* Records are appended a few thousand at a time: the frames compress
 * well, and a kill costs at most that much work done again. */
#define FLUSH_RECORDS 8192
#define NOTE_HEADER "chuhan datagen --pgn progress"
#define NOTE_MAX 4096
#define NAME_MAX_LEN 256

/* What the progress note says: the data file holds the records of the
 * first `games` games of the PGN file, `positions` of them in `bytes`. */
typedef struct {
    long games, positions;
    long long bytes, pgn_bytes;
    char pgn_name[NAME_MAX_LEN];
} Note;

/* How a game of the file ended up. */
enum { PG_KEPT, PG_BAD, PG_NO_RESULT };

/* A game searched, waiting for the games before it (the reorder buffer:
 * game i lives in slot i % window). */
typedef struct {
    long index; /* the game's number in the file, 1 for the first */
    bool ready;
    int kind, n;
    NnueRecord *recs; /* malloc'd by the worker, freed once in order */
} Slot;

typedef struct {
    const char *out, *pgn, *eval_file; /* eval_file NULL: the engine's default evaluation */
    long target, nodes, threads, skip_plies;
    char *note_path;
    Note note; /* as last written */
    pthread_mutex_t lock;
    pthread_cond_t room; /* a slot was freed, or the run stops */
    PgnReader *reader;
    Slot *slots;
    long window;
    long read;    /* games taken from the file, the noted ones included */
    long ordered; /* games whose records are in order: in the file or pending */
    NnueRecord *pending;
    size_t npending;
    long written; /* positions in the file */
    long start_count, this_run;
    long kept, empty, bad, no_result; /* this run's games, by what became of them */
    bool done, exhausted, read_failed, failed;
    char err[512];
} PgnGen;

typedef struct {
    PgnGen *g;
    DatagenSearch search;
    Position *pos;
    Move *moves;
    int nmoves;
    char fen[FEN_MAX];
} Worker;

/* ---- the progress note ---- */

static bool note_write(const char *path, const Note *n, char *err, size_t errlen)
{
    OutFile o;
    if (!outfile_begin(&o, path, err, errlen))
        return false;
    fprintf(o.f, NOTE_HEADER "\ngames %ld\npositions %ld\nbytes %lld\npgn-bytes %lld\npgn %s\n", n->games,
            n->positions, n->bytes, n->pgn_bytes, n->pgn_name);
    return outfile_commit(&o, err, errlen);
}

static bool parse_count(const char *text, long long *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(text, &end, 10);
    if (errno || end == text || *end || x < 0 || *text < '0' || *text > '9')
        return false;
    *v = x;
    return true;
}

/* Each line "KEY VALUE"; false with what is wrong. */
static bool note_parse(char *text, Note *n, const char **what)
{
    char *next = text;
    long long games = -1, positions = -1, bytes = -1, pgn_bytes = -1;
    bool named = false;
    for (int k = 0; *next; k++) {
        char *line = next, *end = strchr(line, '\n');
        if (!end) {
            *what = "a line cut short";
            return false;
        }
        *end = 0;
        next = end + 1;
        if (!k) {
            if (strcmp(line, NOTE_HEADER)) {
                *what = "no '" NOTE_HEADER "' line";
                return false;
            }
            continue;
        }
        char *value = strchr(line, ' ');
        if (!value) {
            *what = "a line without a value";
            return false;
        }
        *value++ = 0;
        long long *dest = !strcmp(line, "games")       ? &games
                          : !strcmp(line, "positions") ? &positions
                          : !strcmp(line, "bytes")     ? &bytes
                          : !strcmp(line, "pgn-bytes") ? &pgn_bytes
                                                       : NULL;
        if (dest && !parse_count(value, dest)) {
            *what = "a count that is not a number";
            return false;
        } else if (!dest && !strcmp(line, "pgn")) {
            snprintf(n->pgn_name, sizeof n->pgn_name, "%s", value);
            named = true;
        } else if (!dest) {
            *what = "an unknown line";
            return false;
        }
    }
    if (games < 0 || positions < 0 || bytes < 0 || pgn_bytes < 0 || !named || games > LONG_MAX ||
        positions > LONG_MAX) {
        *what = "a line missing";
        return false;
    }
    n->games = (long)games;
    n->positions = (long)positions;
    n->bytes = bytes;
    n->pgn_bytes = pgn_bytes;
    return true;
}

/* *have false (and true returned) when there is no note. */
static bool note_read(const char *path, Note *n, bool *have, char *err, size_t errlen)
{
    struct stat st;
    *have = false;
    if (stat(path, &st) != 0)
        return errno == ENOENT ? true : err_set(err, errlen, "%s: %s", path, strerror(errno));
    unsigned char *data;
    size_t len;
    if (!file_read(path, "progress note", NOTE_MAX, &data, &len, err, errlen))
        return false;
    char *text = malloc(len + 1);
    if (!text) {
        free(data);
        return err_set(err, errlen, "out of memory");
    }
    memcpy(text, data, len);
    text[len] = 0;
    free(data);
    memset(n, 0, sizeof *n);
    const char *what = "";
    bool ok = strlen(text) == len && note_parse(text, n, &what);
    free(text);
    if (!ok)
        return err_set(err, errlen, "%s is not a progress note of chuhan datagen --pgn (%s)", path,
                       *what ? what : "a NUL byte");
    *have = true;
    return true;
}

bool datagen_pgn_note_absent(const char *out, char *err, size_t errlen)
{
    size_t len = strlen(out) + sizeof ".progress";
    char *path = malloc(len);
    if (!path)
        return err_set(err, errlen, "out of memory");
    snprintf(path, len, "%s.progress", out);
    struct stat st;
    bool absent = stat(path, &st) != 0;
    if (!absent)
        err_set(err, errlen,
                "%s has a progress note (%s): its records come from a PGN file, and the next datagen --pgn "
                "would cut off what self-play appended: write self-play data to another file",
                out, path);
    free(path);
    return absent;
}

/* ---- the writer (under the lock) ---- */

/* Append the pending records, then write the note; false (and the run
 * failed) with the reason in g->err. */
static bool flush_locked(PgnGen *g)
{
    if (g->failed)
        return false;
    if (g->npending) {
        if (!nnue_data_append(g->out, g->pending, g->npending, g->err, sizeof g->err)) {
            g->failed = true;
            return false;
        }
        g->written += (long)g->npending;
        g->npending = 0;
    }
    Note n = g->note;
    struct stat st;
    if (stat(g->out, &st) == 0)
        n.bytes = (long long)st.st_size;
    else if (errno != ENOENT || g->written) {
        snprintf(g->err, sizeof g->err, "%s: %s", g->out, strerror(errno));
        g->failed = true;
        return false;
    }
    n.games = g->ordered;
    n.positions = g->written;
    if (!note_write(g->note_path, &n, g->err, sizeof g->err)) {
        g->failed = true;
        return false;
    }
    g->note = n;
    return true;
}

/* Move the games that are next in file order to the pending records. */
static void drain_locked(PgnGen *g)
{
    for (;;) {
        Slot *s = &g->slots[(g->ordered + 1) % g->window];
        if (g->failed || !s->ready || s->index != g->ordered + 1)
            break;
        /* the trainer holds out whole games: it finds where each begins */
        if (s->n) {
            nnue_record_mark_game_start(&s->recs[0]);
            memcpy(g->pending + g->npending, s->recs, sizeof *s->recs * (size_t)s->n);
        }
        g->npending += (size_t)s->n;
        g->this_run += s->n;
        g->ordered++;
        if (s->kind == PG_KEPT)
            (s->n ? g->kept++ : g->empty++);
        else
            (s->kind == PG_BAD ? g->bad++ : g->no_result++);
        free(s->recs);
        *s = (Slot){0};
        if (g->start_count + g->this_run >= g->target)
            g->done = true;
        if (g->npending >= FLUSH_RECORDS)
            flush_locked(g);
    }
    pthread_cond_broadcast(&g->room);
}

/* ---- the workers ---- */

/* The next game of the file, replayed into w (under the lock): its number,
 * or 0 when the run stops.  *kind says whether it is to be searched. */
static long take_game_locked(Worker *w, int *kind, int *red_result)
{
    PgnGen *g = w->g;
    /* the reorder buffer is full while an early game is still searched */
    while (!g->done && !g->failed && g->read >= g->ordered + g->window)
        pthread_cond_wait(&g->room, &g->lock);
    if (g->done || g->failed)
        return 0;
    const PgnGame *game;
    char why[256];
    int k = pgn_next(g->reader, &game, why, sizeof why);
    if (k <= 0) {
        if (k < 0) {
            g->read_failed = true;
            snprintf(g->err, sizeof g->err, "%s: %s", g->pgn, why);
        } else {
            g->exhausted = true;
        }
        g->done = true;
        pthread_cond_broadcast(&g->room);
        return 0;
    }
    long index = ++g->read;
    *kind = PG_BAD;
    if (pgn_replay(game, w->pos, w->moves, MAX_GAME_PLY, &w->nmoves, why, sizeof why) == PGN_OK) {
        int r = pgn_result(game);
        const char *fen = pgn_tag(game, "FEN");
        if (r == PGN_UNKNOWN) {
            *kind = PG_NO_RESULT;
        } else if (pos_set_fen(w->pos, fen && *fen ? fen : START_FEN, why, sizeof why)) {
            pos_fen(w->pos, w->fen);
            *red_result = r == PGN_RED_WINS ? 1 : r == PGN_BLACK_WINS ? -1 : 0;
            *kind = PG_KEPT;
        }
    }
    return index;
}

/* Search the game's positions into recs (room for w->nmoves); how many
 * were kept, or -1 if the engine does not take the game. */
static int search_game(Worker *w, Engine *e, NnueRecord *recs, int red_result)
{
    PgnGen *g = w->g;
    char err[256];
    engine_new_game(e); /* each game from a clear table: its records do not depend on the worker */
    if (!engine_set_position(e, w->fen, NULL, 0, false, err, sizeof err))
        return -1;
    EngineLimits limits;
    limits_clear(&limits);
    limits.soft_nodes = (uint64_t)g->nodes;
    limits.nodes = (uint64_t)g->nodes * DATAGEN_NODES_CAP;
    int n = 0;
    for (int ply = 0; ply < w->nmoves; ply++) {
        const Position *pos = engine_position(e);
        Move played = w->moves[ply];
        if (ply >= g->skip_plies && !pos_in_check(pos) && !pos_is_capture(pos, played)) {
            w->search.score = 0;
            w->search.best = MOVE_NONE;
            engine_go(e, &limits);
            engine_wait(e);
            int score = w->search.score;
            if (w->search.best && !pos_is_capture(pos, w->search.best) && !score_is_mate(score) && !score_is_rule_win(score))
                nnue_record_pack(&recs[n++], pos, score, pos->side == RED ? red_result : -red_result);
        }
        if (!engine_push_move(e, played))
            break;
    }
    return n;
}

static void fail(PgnGen *g, const char *why)
{
    pthread_mutex_lock(&g->lock);
    if (!g->failed)
        snprintf(g->err, sizeof g->err, "%s", why);
    g->failed = true;
    pthread_cond_broadcast(&g->room);
    pthread_mutex_unlock(&g->lock);
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    PgnGen *g = w->g;
    char err[256];
    EngineCallbacks cb = datagen_callbacks(&w->search);
    Engine *e = engine_new(&cb, err, sizeof err);
    w->pos = malloc(sizeof *w->pos);
    w->moves = malloc(sizeof *w->moves * MAX_GAME_PLY);
    if (!e || !w->pos || !w->moves || !engine_set_option(e, "OwnBook", "false", err, sizeof err)
        || (g->eval_file && !engine_set_option(e, "EvalFile", g->eval_file, err, sizeof err))) {
        fail(g, !e || (w->pos && w->moves) ? err : "out of memory");
    } else {
        for (;;) {
            int kind, red_result = 0;
            pthread_mutex_lock(&g->lock);
            long index = take_game_locked(w, &kind, &red_result);
            pthread_mutex_unlock(&g->lock);
            if (!index)
                break;
            NnueRecord *recs = NULL;
            int n = 0;
            if (kind == PG_KEPT) {
                if (!(recs = malloc(sizeof *recs * (size_t)(w->nmoves + 1)))) {
                    fail(g, "out of memory");
                    break;
                }
                if ((n = search_game(w, e, recs, red_result)) < 0) {
                    kind = PG_BAD;
                    n = 0;
                }
            }
            pthread_mutex_lock(&g->lock);
            g->slots[index % g->window] = (Slot){index, true, kind, n, recs};
            drain_locked(g);
            pthread_mutex_unlock(&g->lock);
        }
    }
    free(w->pos);
    free(w->moves);
    engine_free(e);
    return NULL;
}

/* ---- the run ---- */

static const char *base_name(const char *path)
{
    const char *b = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\')
            b = p + 1;
    return b;
}

/* The PGN file opened, and the data file taken up where its note says
 * (what was appended after the note cut off, the noted games skipped). */
static bool prepare(PgnGen *g, char *err, size_t errlen)
{
    if (!strcmp(g->pgn, "-"))
        return err_set(err, errlen, "--pgn: a run on standard input could not be resumed: give a file");
    const char *name = base_name(g->pgn);
    if (strlen(name) >= NAME_MAX_LEN || strchr(name, '\n'))
        return err_set(err, errlen, "--pgn: the file's name is too long or holds a line break");
    if (!(g->reader = pgn_open_file(g->pgn, PGN_ENC_AUTO, err, errlen)))
        return false;
    struct stat st;
    if (stat(g->pgn, &st) != 0)
        return err_set(err, errlen, "%s: %s", g->pgn, strerror(errno));
    long long pgn_bytes = (long long)st.st_size;
    Note note;
    bool have_note;
    if (!note_read(g->note_path, &note, &have_note, err, errlen))
        return false;
    long long out_bytes = stat(g->out, &st) == 0 ? (long long)st.st_size : 0;
    if (!have_note) {
        if (out_bytes > 0)
            return err_set(err, errlen,
                           "%s holds data but no progress note (%s): it is self-play data, or not this tool's; "
                           "give another --out",
                           g->out, g->note_path);
        g->note = (Note){.pgn_bytes = pgn_bytes};
        snprintf(g->note.pgn_name, sizeof g->note.pgn_name, "%s", name);
        /* written before any record, so that a run killed in its first
         * append leaves a file that the next run cuts back */
        return note_write(g->note_path, &g->note, err, errlen);
    }
    if (strcmp(note.pgn_name, name) || note.pgn_bytes != pgn_bytes)
        return err_set(err, errlen, "%s is the progress of %s (%lld bytes), not of %s (%lld bytes): give another --out",
                       g->note_path, note.pgn_name, note.pgn_bytes, name, pgn_bytes);
    if (out_bytes < note.bytes)
        return err_set(err, errlen, "%s: %lld bytes, fewer than the %lld its progress note says: damaged (remove it "
                       "and its note to start again)", g->out, out_bytes, note.bytes);
    if (out_bytes > note.bytes) {
        fprintf(stderr, "datagen: %s: dropping %lld bytes appended after its progress note\n", g->out,
                out_bytes - note.bytes);
        if (truncate(g->out, (off_t)note.bytes) != 0)
            return err_set(err, errlen, "%s: cannot cut it back: %s", g->out, strerror(errno));
    }
    size_t count = 0, good = 0;
    if (note.bytes > 0) {
        NnueRecord *recs = nnue_data_read(g->out, false, &count, &good, err, errlen);
        if (!recs)
            return false;
        free(recs);
    }
    if ((long long)good != note.bytes || count != (size_t)note.positions)
        return err_set(err, errlen, "%s: %zu positions in %zu bytes of whole frames, but its progress note says %ld in "
                       "%lld: damaged (remove it and its note to start again)", g->out, count, good, note.positions,
                       note.bytes);
    for (long i = 0; i < note.games; i++) {
        const PgnGame *game;
        char why[256];
        int k = pgn_next(g->reader, &game, why, sizeof why);
        if (k <= 0)
            return err_set(err, errlen, "%s: %s after %ld games, but the progress note says %ld were done", g->pgn,
                           k < 0 ? why : "it ends", i, note.games);
    }
    g->note = note;
    g->read = g->ordered = note.games;
    g->start_count = g->written = note.positions;
    return true;
}

static void progress_line(PgnGen *g, int64_t t0)
{
    pthread_mutex_lock(&g->lock);
    long made = g->this_run, total = g->start_count + g->this_run, games = g->ordered;
    pthread_mutex_unlock(&g->lock);
    double s = (double)(now_ms() - t0) / 1000.0, rate = made / (s > 0 ? s : 1);
    printf("datagen: %ld positions (%ld this run), %ld games of %s done, %.1f pos/s, ETA %.0f min\n", total, made,
           games, g->pgn, rate, rate > 0 ? (g->target - total) / rate / 60 : 0.0);
    fflush(stdout);
}

static int run(PgnGen *g)
{
    if (g->start_count >= g->target) {
        printf("datagen: %s already holds %ld positions (target %ld), from %ld games of %s\n", g->out,
               g->start_count, g->target, g->ordered, g->pgn);
        return 0;
    }
    g->window = 4 * g->threads;
    g->slots = calloc((size_t)g->window, sizeof *g->slots);
    g->pending = malloc(sizeof *g->pending * (FLUSH_RECORDS + MAX_GAME_PLY));
    Worker *workers = calloc((size_t)g->threads, sizeof *workers);
    pthread_t *tids = calloc((size_t)g->threads, sizeof *tids);
    int status = 1, started = 0;
    if (!g->slots || !g->pending || !workers || !tids) {
        fprintf(stderr, "datagen: out of memory\n");
        goto out;
    }
    printf("datagen: %s: %ld positions there from %ld games of %s, target %ld; positions from ply %ld, %ld nodes "
           "per move, %ld threads, evaluation %s\n",
           g->out, g->start_count, g->ordered, g->pgn, g->target, g->skip_plies, g->nodes, g->threads,
           !g->eval_file ? "the engine's default" : *g->eval_file ? g->eval_file : "hand-written");
    fflush(stdout);
    int64_t t0 = now_ms();
    datagen_catch_signals(true);
    for (int i = 0; i < g->threads; i++) {
        workers[i] = (Worker){.g = g};
        if (pthread_create(&tids[i], NULL, worker_main, &workers[i]) != 0)
            break;
        started++;
    }
    for (int k = 0; started; k++) {
        usleep(250000);
        pthread_mutex_lock(&g->lock);
        if (datagen_interrupted() && !g->done) {
            g->done = true;
            pthread_cond_broadcast(&g->room);
            printf("datagen: stopping: the games being searched are finished and written\n");
            fflush(stdout);
        }
        bool stop = g->done || g->failed;
        pthread_mutex_unlock(&g->lock);
        if (stop)
            break;
        if (k % 40 == 39)
            progress_line(g, t0);
    }
    for (int i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    datagen_catch_signals(false);
    double s = (double)(now_ms() - t0) / 1000.0, cpu = host_cpu_seconds();
    if (!started)
        snprintf(g->err, sizeof g->err, "cannot start a thread");
    else if (!g->failed && (g->npending || g->ordered != g->note.games))
        flush_locked(g);
    if (started && !g->failed) {
        long total = g->start_count + g->this_run;
        const char *why = g->read_failed ? "the PGN file cannot be read on"
                          : total >= g->target ? "the target is reached"
                          : g->exhausted ? "the file's games are exhausted"
                                         : "stopped";
        printf("datagen: done (%s): %ld positions in %s from %ld games of %s; this run %ld positions from %ld games "
               "(%ld with positions, %ld with none kept, %ld failed to replay, %ld without a result) in %.1f s: %.1f "
               "pos/s; %.1f CPU s, %.1f pos per CPU second\n",
               why, g->written, g->out, g->ordered, g->pgn, g->this_run, g->kept + g->empty + g->bad + g->no_result,
               g->kept, g->empty, g->bad, g->no_result, s, g->this_run / (s > 0 ? s : 1), cpu,
               g->this_run / (cpu > 0 ? cpu : 1));
    }
    status = g->failed || g->read_failed || !started;
    if (status)
        fprintf(stderr, "datagen: %s\n", g->err);
out:
    for (long i = 0; g->slots && i < g->window; i++)
        free(g->slots[i].recs);
    free(g->slots);
    free(g->pending);
    free(workers);
    free(tids);
    return status;
}

int datagen_pgn_cli(int argc, char **argv)
{
    PgnGen g = {.lock = PTHREAD_MUTEX_INITIALIZER, .room = PTHREAD_COND_INITIALIZER, .target = 100000,
                .nodes = 5000, .skip_plies = 8};
    long cpus = host_cpus();
    g.threads = cpus < 1 ? 1 : cpus > MAX_THREADS ? MAX_THREADS : cpus;
    const ArgOption opts[] = {
        ARG_TEXT("--pgn", &g.pgn),
        ARG_TEXT("--out", &g.out),
        ARG_TEXT("--evalfile", &g.eval_file),
        ARG_LONG("--positions", &g.target, 0, 1000000000),
        ARG_LONG("--nodes", &g.nodes, 1, 1000000000),
        ARG_LONG("--threads", &g.threads, 1, MAX_THREADS),
        ARG_LONG("--skip-plies", &g.skip_plies, 0, MAX_GAME_PLY),
    };
    const ArgSpec spec = {"datagen --pgn", opts, sizeof opts / sizeof opts[0], NULL, 0};
    char why[ARGS_WHY_MAX];
    if (!args_read(&spec, argc, argv, NULL, why, sizeof why))
        return datagen_usage(why);
    if (comm_size() > 1) {
        /* one writer puts the games in file order, and the note counts
         * them: the ranks of a job would each need the file's reader */
        if (!comm_rank())
            fprintf(stderr, "datagen: --pgn runs in one process (its records are appended in the games' order "
                            "by one writer): run it without mpirun, with --threads for the cores\n");
        return 1;
    }
    if (!g.out || !g.pgn)
        return datagen_usage("datagen: --out and --pgn are required");
    char err[512];
    size_t len = strlen(g.out) + sizeof ".progress";
    if (!(g.note_path = malloc(len))) {
        fprintf(stderr, "datagen: out of memory\n");
        return 1;
    }
    snprintf(g.note_path, len, "%s.progress", g.out);
    int status = 1;
    if (!outfile_check(g.out, err, sizeof err) || !prepare(&g, err, sizeof err))
        fprintf(stderr, "datagen: %s\n", err);
    else
        status = run(&g);
    pgn_close(g.reader);
    free(g.note_path);
    return status;
}
