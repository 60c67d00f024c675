/* chuhan datagen: self-play training data (see datagen.h). */
#include "datagen.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "book/book.h"
#include "datagen_pgn.h"
#include "datagen_ranks.h"
#include "engine/cluster/comm.h"
#include "engine/board/movegen.h"
#include "engine/engine.h"
#include "engine/rules/rules.h"
#include "engine/util/args.h"
#include "engine/util/clock.h"
#include "engine/util/host.h"
#include "engine/util/outfile.h"
#include "engine/util/rng.h"
#include "match_referee.h"
#include "nnue_data.h"
#include "search/threads.h"

/* A game is adjudicated when both sides' searches agree that one side is
 * this far ahead for ADJ_PLIES plies in a row (it saves the long mop-ups,
 * whose positions teach little), and drawn after MAX_GAME_PLIES. */
#define ADJ_SCORE 2000
#define ADJ_PLIES 6
/* Past DRAW_ADJ_PLY, a game whose searches stay within DRAW_ADJ_SCORE of
 * level for DRAW_ADJ_PLIES plies is drawn: the shuffles that end by the
 * 60-move rule teach nothing their first plies did not. */
#define DRAW_ADJ_PLY 100
#define DRAW_ADJ_SCORE 10
#define DRAW_ADJ_PLIES 20
#define FLUSH_RECORDS 8192

typedef struct {
    const char *out;
    const char *eval_file; /* NULL: the engine's default evaluation */
    long target, nodes, threads, book_plies, random_plies, max_plies;
    uint64_t seed;
    const Book *book;
    pthread_mutex_t lock;
    NnueRecord *pending;
    size_t npending;
    long written, start_count, games, this_run;
    bool failed, done;
    char err[512];
    /* under mpirun (datagen_ranks.h): this process's rank; rank 0 owns the
     * file and root; the others send their records, with the games they
     * come from */
    int rank;
    DgrRoot *root;
    long unsent_games;
    long own, own_games; /* positions and games of this process */
} Datagen;

typedef struct {
    Datagen *dg;
    int id;
    DatagenSearch search;
} Worker;

/* Ctrl-C or kill: the games in hand end, what is kept is written. */
static volatile sig_atomic_t interrupted;
static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

void datagen_catch_signals(bool on)
{
    signal(SIGINT, on ? on_signal : SIG_DFL);
    signal(SIGTERM, on ? on_signal : SIG_DFL);
}

bool datagen_interrupted(void) { return interrupted; }

static void on_info(void *ctx, const EngineInfo *info)
{
    DatagenSearch *s = ctx;
    if (info->multipv <= 1 && info->bound == BOUND_EXACT && info->pv_len > 0)
        s->score = info->score;
}

static void on_bestmove(void *ctx, Move best, Move ponder)
{
    (void)ponder;
    ((DatagenSearch *)ctx)->best = best;
}

EngineCallbacks datagen_callbacks(DatagenSearch *s) { return (EngineCallbacks){on_info, on_bestmove, NULL, s}; }

/* Write the pending records as one frame (under the lock). */
static void flush_locked(Datagen *dg)
{
    if (!dg->npending || dg->failed)
        return;
    if (dg->rank) {
        bool lost;
        if (dgr_send(dg->pending, dg->npending, dg->unsent_games, &lost)) {
            dg->written += (long)dg->npending;
            dg->npending = 0;
            dg->unsent_games = 0;
        } else if (lost) {
            dg->failed = true;
            snprintf(dg->err, sizeof dg->err, "rank 0 is gone: the records cannot be sent");
        } /* else rank 0 does not keep up: sent with the next game's */
        return;
    }
    if (!nnue_data_append(dg->out, dg->pending, dg->npending, dg->err, sizeof dg->err))
        dg->failed = true;
    else
        dg->written += (long)dg->npending;
    dg->npending = 0;
}

/* One game; its kept positions, results filled in, go to dg->pending. */
static void play_game(Worker *w, Engine *e, Referee *ref, uint64_t *rng, NnueRecord *recs)
{
    Datagen *dg = w->dg;
    char err[256], reason[128];
    referee_reset(ref, NULL, err, sizeof err);
    engine_new_game(e);
    engine_set_position(e, NULL, NULL, 0, false, err, sizeof err);
    GameResult result = GAME_ONGOING;
    /* the opening: book moves, then random ones, none of them kept */
    for (int i = 0; i < dg->book_plies + dg->random_plies && result == GAME_ONGOING; i++) {
        const Position *pos = referee_position(ref);
        Move m = i < dg->book_plies && dg->book ? book_choose(dg->book, pos, false, rng) : MOVE_NONE;
        if (!m) {
            Move list[MAX_MOVES];
            int n = gen_legal(pos, list);
            if (!n)
                return;
            m = list[rng_below(rng, (uint64_t)n)];
            if (i < dg->book_plies)
                i = dg->book_plies; /* out of book: the random plies */
        }
        result = referee_play(ref, m, NULL, reason, sizeof reason);
        engine_push_move(e, m);
    }
    int n = 0, adj_side = -1, adj_count = 0, level_count = 0;
    EngineLimits limits;
    limits_clear(&limits);
    /* the iteration that passes --nodes is finished (its move and score
     * agree), within a hard cap for the rare iteration that explodes */
    limits.soft_nodes = (uint64_t)dg->nodes;
    limits.nodes = (uint64_t)dg->nodes * DATAGEN_NODES_CAP;
    while (result == GAME_ONGOING) {
        const Position *pos = referee_position(ref);
        if (referee_plies(ref) >= dg->max_plies) {
            result = GAME_DRAW;
            break;
        }
        w->search.score = 0;
        w->search.best = MOVE_NONE;
        engine_go(e, &limits);
        engine_wait(e);
        if (!w->search.best)
            break;
        int score = w->search.score;
        bool decided = score_is_mate(score) || score_is_rule_win(score);
        if (!pos_in_check(pos) && !pos_is_capture(pos, w->search.best) && !decided && n < MAX_GAME_PLY)
            nnue_record_pack(&recs[n++], pos, score, 0);
        /* adjudication by agreement, in Red's view */
        int red = pos->side == RED ? score : -score;
        int side = red >= ADJ_SCORE || (decided && red > 0) ? RED : red <= -ADJ_SCORE || (decided && red < 0) ? BLACK : -1;
        adj_count = side >= 0 && side == adj_side ? adj_count + 1 : side >= 0;
        adj_side = side;
        level_count = !decided && abs(score) <= DRAW_ADJ_SCORE ? level_count + 1 : 0;
        result = referee_play(ref, w->search.best, NULL, reason, sizeof reason);
        if (result == GAME_ONGOING && adj_count >= ADJ_PLIES)
            result = adj_side == RED ? GAME_RED_WINS : GAME_BLACK_WINS;
        if (result == GAME_ONGOING && level_count >= DRAW_ADJ_PLIES && referee_plies(ref) >= DRAW_ADJ_PLY)
            result = GAME_DRAW;
        if (!engine_push_move(e, w->search.best))
            break;
    }
    if (result == GAME_ONGOING)
        return; /* cut short: nothing kept */
    int red_result = result == GAME_RED_WINS ? 1 : result == GAME_BLACK_WINS ? -1 : 0;
    for (int i = 0; i < n; i++)
        recs[i].b[30] = (uint8_t)((recs[i].b[31] == RED ? red_result : -red_result) + 1);
    /* the trainer holds out whole games: it finds where each begins */
    if (n)
        nnue_record_mark_game_start(&recs[0]);
    pthread_mutex_lock(&dg->lock);
    for (int i = 0; i < n && dg->npending < FLUSH_RECORDS * 2; i++)
        dg->pending[dg->npending++] = recs[i];
    dg->this_run += n;
    dg->games++;
    dg->unsent_games++;
    dg->own += n;
    dg->own_games++;
    /* the other ranks send each game as it ends: rank 0 counts them */
    if (dg->npending >= FLUSH_RECORDS || (dg->rank && dg->npending))
        flush_locked(dg);
    if (dg->start_count + dg->this_run >= dg->target)
        dg->done = true;
    pthread_mutex_unlock(&dg->lock);
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Datagen *dg = w->dg;
    char err[256];
    EngineCallbacks cb = datagen_callbacks(&w->search);
    Engine *e = engine_new(&cb, err, sizeof err);
    Referee *ref = referee_new(RULE_CXA, 120, 3);
    NnueRecord *recs = malloc(sizeof *recs * MAX_GAME_PLY);
    uint64_t rng = dg->seed ^ (0x9E3779B97F4A7C15ULL * (uint64_t)(w->id + 1));
    /* under mpirun each rank plays its own games: no search of the job's */
    if (e)
        engine_use_ranks(e, false);
    if (!e || !ref || !recs || !engine_set_option(e, "OwnBook", "false", err, sizeof err)
        || (dg->eval_file && !engine_set_option(e, "EvalFile", dg->eval_file, err, sizeof err))) {
        pthread_mutex_lock(&dg->lock);
        dg->failed = true;
        snprintf(dg->err, sizeof dg->err, "%s", e ? err : "cannot start an engine");
        pthread_mutex_unlock(&dg->lock);
    } else {
        for (;;) {
            pthread_mutex_lock(&dg->lock);
            bool stop = dg->done || dg->failed;
            pthread_mutex_unlock(&dg->lock);
            if (stop)
                break;
            play_game(w, e, ref, &rng, recs);
        }
    }
    free(recs);
    referee_free(ref);
    engine_free(e);
    return NULL;
}

/* Rank 0: records another rank sent, with the games they come from. */
static void take_records(void *ctx, const NnueRecord *recs, size_t n, long games)
{
    Datagen *dg = ctx;
    pthread_mutex_lock(&dg->lock);
    for (size_t i = 0; i < n; i++) {
        if (dg->npending == FLUSH_RECORDS * 2)
            flush_locked(dg);
        if (dg->npending < FLUSH_RECORDS * 2)
            dg->pending[dg->npending++] = recs[i];
    }
    dg->this_run += (long)n;
    dg->games += games;
    if (dg->npending >= FLUSH_RECORDS)
        flush_locked(dg);
    if (dg->start_count + dg->this_run >= dg->target)
        dg->done = true;
    pthread_mutex_unlock(&dg->lock);
}

static double cpu_seconds(void)
{
    return host_cpu_seconds();
}

/* Rank 0: what the file holds counts toward the target; a partly
 * written last frame goes. */
static bool resume(Datagen *dg, char *err, size_t errlen)
{
    size_t have, good;
    NnueRecord *old = nnue_data_read(dg->out, true, &have, &good, err, errlen);
    free(old);
    struct stat st;
    if (!old && have == 0 && err[0] && stat(dg->out, &st) == 0 && st.st_size > 0)
        return false;
    if (stat(dg->out, &st) == 0 && (size_t)st.st_size > good) {
        fprintf(stderr, "datagen: %s: dropping %zu bytes of a partly written frame\n", dg->out,
                (size_t)st.st_size - good);
        if (truncate(dg->out, (off_t)good) != 0) {
            snprintf(err, errlen, "%s: cannot cut the partial frame: %s", dg->out, strerror(errno));
            return false;
        }
    }
    dg->start_count = dg->written = (long)have;
    return true;
}

/* Play until the target (rank 0) or until rank 0 says stop (the other
 * ranks); the exit status. */
static int run(Datagen *dg)
{
    char err[512];
    if (!dg->rank && dg->start_count >= dg->target) {
        printf("datagen: %s already holds %ld positions (target %ld)\n", dg->out, dg->start_count, dg->target);
        if (dg->root) {
            DgrFigures none = {0};
            dg->done = true;
            dgr_root_finish(dg->root, take_records, dg, &none, stdout);
            flush_locked(dg);
        }
        return 0;
    }
    Book *book = book_load_default(err, sizeof err);
    if (!book && !dg->rank)
        fprintf(stderr, "datagen: no book (%s); random openings only\n", err);
    dg->book = book;
    dg->pending = malloc(sizeof *dg->pending * FLUSH_RECORDS * 2);
    Worker *workers = calloc((size_t)dg->threads, sizeof *workers);
    pthread_t *tids = calloc((size_t)dg->threads, sizeof *tids);
    if (!dg->pending || !workers || !tids) {
        fprintf(stderr, "datagen: out of memory\n");
        return 1;
    }
    if (!dg->rank) {
        printf("datagen: %s: %ld positions there, target %ld; %ld nodes per move, %ld threads%s, seed %llu, "
               "evaluation %s\n",
               dg->out, dg->start_count, dg->target, dg->nodes, dg->threads, dg->root ? " a rank" : "",
               (unsigned long long)dg->seed,
               !dg->eval_file ? "the engine's default" : *dg->eval_file ? dg->eval_file : "hand-written");
        if (dg->root)
            printf("datagen: %d ranks\n", comm_size());
        fflush(stdout);
    }
    int64_t t0 = now_ms();
    int started = 0;
    datagen_catch_signals(true);
    for (int i = 0; i < dg->threads; i++) {
        workers[i] = (Worker){dg, i, {0, MOVE_NONE}};
        if (pthread_create(&tids[i], NULL, worker_main, &workers[i]) == 0)
            started++;
        else
            break;
    }
    /* the progress line, every few seconds, until the workers are done;
     * the ranks' messages taken all along */
    for (int k = 0; started; k++) {
        usleep(250000);
        if (dg->root)
            dgr_root_poll(dg->root, take_records, dg);
        else if (dg->rank && dgr_stop_heard()) {
            pthread_mutex_lock(&dg->lock);
            dg->done = true;
            pthread_mutex_unlock(&dg->lock);
        }
        pthread_mutex_lock(&dg->lock);
        if (datagen_interrupted() && !dg->done) {
            dg->done = true;
            if (!dg->rank)
                printf("datagen: stopping: the games being played are finished and written\n");
            fflush(stdout);
        }
        bool stop = dg->done || dg->failed;
        long made = dg->this_run, games = dg->games, total = dg->start_count + dg->this_run;
        pthread_mutex_unlock(&dg->lock);
        if (stop)
            break;
        if (k % 40 == 39 && !dg->rank) {
            double s = (double)(now_ms() - t0) / 1000.0, rate = made / (s > 0 ? s : 1);
            printf("datagen: %ld positions (%ld this run), %ld games, %.1f pos/s (%.1f per thread), ETA %.0f min\n",
                   total, made, games, rate, rate / started, rate > 0 ? (dg->target - total) / rate / 60 : 0.0);
            fflush(stdout);
        }
    }
    for (int i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    double s = (double)(now_ms() - t0) / 1000.0;
    /* on a shared machine the wall clock says little: the CPU time too */
    double cpu = cpu_seconds();
    DgrFigures fig = {.positions = dg->own, .games = dg->own_games, .cpu_s = cpu, .wall_s = s};
    pthread_mutex_lock(&dg->lock);
    flush_locked(dg);
    if (dg->rank) {
        /* what rank 0 could not take yet goes now, while it waits for it */
        for (int64_t until = now_ms() + DGR_SILENT_MS / 2; dg->npending && !dg->failed && now_ms() < until;) {
            pthread_mutex_unlock(&dg->lock);
            usleep(20000);
            dgr_stop_heard();
            pthread_mutex_lock(&dg->lock);
            flush_locked(dg);
        }
        snprintf(fig.err, sizeof fig.err, "%.200s", dg->failed ? dg->err : dg->npending ? "records not sent" : "");
        pthread_mutex_unlock(&dg->lock);
        dgr_send_done(&fig);
    } else {
        pthread_mutex_unlock(&dg->lock);
        if (dg->root) {
            fig.positions = dg->own;
            fig.games = dg->own_games;
            cpu = dgr_root_finish(dg->root, take_records, dg, &fig, stdout);
            s = (double)(now_ms() - t0) / 1000.0;
            started *= comm_size(); /* every rank runs as many threads */
        }
        pthread_mutex_lock(&dg->lock);
        flush_locked(dg);
        pthread_mutex_unlock(&dg->lock);
        printf("datagen: done: %ld positions in %s (%ld this run, %ld games) in %.1f s: %.1f pos/s, %.1f per thread; "
               "%.1f CPU s, %.1f pos per CPU second\n",
               dg->written, dg->out, dg->this_run, dg->games, s, dg->this_run / (s > 0 ? s : 1),
               dg->this_run / (s > 0 ? s : 1) / (started ? started : 1), cpu, dg->this_run / (cpu > 0 ? cpu : 1));
    }
    datagen_catch_signals(false);
    book_free(book);
    free(dg->pending);
    free(workers);
    free(tids);
    if (dg->failed) {
        fprintf(stderr, "datagen: %s%s\n", dg->rank ? "a rank: " : "", dg->err);
        return 1;
    }
    return 0;
}

int datagen_usage(const char *why)
{
    if (comm_rank())
        return 2; /* rank 0 says it */
    if (why && *why)
        fprintf(stderr, "%s\n", why);
    fprintf(stderr,
            "usage: chuhan datagen --out FILE [--positions N] [--nodes N] [--threads N] [--book-plies N]\n"
            "                      [--random-plies N] [--max-plies N] [--seed N] [--evalfile NET]\n"
            "       chuhan datagen --pgn GAMES --out FILE [--skip-plies N] [--positions N] [--nodes N]\n"
            "                      [--threads N] [--evalfile NET]\n"
            "  self-play games at N nodes per move (default 5000: the iteration that passes N is finished,\n"
            "  within 8 N), one game per thread (default: every core, at most 1024),\n"
            "  openings from the built-in book (8 plies) then random plies (4), until FILE holds\n"
            "  --positions positions (default 100000); appends, and resumes where it stopped;\n"
            "  --evalfile: the evaluation that plays (a net file, <built-in>, or \"\" for the hand-written one)\n"
            "  under mpirun -np N (make MPI=1): every rank plays, rank 0 writes FILE\n"
            "  --pgn: the recorded games of GAMES (.pgn or .pgn.zst) instead, in file order: from ply --skip-plies\n"
            "  (default 8) each position not in check whose move in the game is no capture is searched, and kept\n"
            "  with the game's result when the search's move is no capture; FILE.progress notes the games done,\n"
            "  so that a run resumes exactly; one process (not under mpirun)\n");
    return 2;
}

int datagen_cli(int argc, char **argv)
{
    Datagen dg = {.lock = PTHREAD_MUTEX_INITIALIZER, .target = 100000, .nodes = 5000, .book_plies = 8,
                  .random_plies = 4, .max_plies = 400};
    long cpus = host_cpus();
    dg.threads = cpus < 1 ? 1 : cpus > MAX_THREADS ? MAX_THREADS : cpus;
    dg.seed = (uint64_t)now_us();
    /* recorded games: another source, with options of its own */
    for (int i = 0; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--pgn"))
            return datagen_pgn_cli(argc, argv);
    const ArgOption opts[] = {
        ARG_TEXT("--out", &dg.out),
        ARG_TEXT("--evalfile", &dg.eval_file),
        ARG_U64("--seed", &dg.seed, 0, UINT64_MAX),
        ARG_LONG("--positions", &dg.target, 0, 1000000000),
        ARG_LONG("--nodes", &dg.nodes, 1, 1000000000),
        ARG_LONG("--threads", &dg.threads, 1, MAX_THREADS),
        ARG_LONG("--book-plies", &dg.book_plies, 0, 1000000000),
        ARG_LONG("--random-plies", &dg.random_plies, 0, 1000000000),
        ARG_LONG("--max-plies", &dg.max_plies, 1, MAX_GAME_PLY),
    };
    const ArgSpec spec = {"datagen", opts, sizeof opts / sizeof opts[0], NULL, 0};
    char why[ARGS_WHY_MAX];
    if (!args_read(&spec, argc, argv, NULL, why, sizeof why))
        return datagen_usage(why);
    if (!dg.out)
        return datagen_usage(argc ? "datagen: --out is required" : NULL);
    dg.rank = comm_rank();
    char err[512];
    if (dg.rank) {
        /* another rank: no file; it plays until rank 0 says stop */
        dg.target = LONG_MAX;
        dg.seed ^= 0xD1B54A32D192ED03ULL * (uint64_t)dg.rank;
    } else if (!outfile_check(dg.out, err, sizeof err) || !datagen_pgn_note_absent(dg.out, err, sizeof err)
               || !resume(&dg, err, sizeof err)) {
        /* the file: a new one or a regular one only (outfile_check), then resumed */
        fprintf(stderr, "datagen: %s\n", err);
        if (comm_size() > 1)
            dgr_stop_all();
        return 1;
    }
    if (!dg.rank && comm_size() > 1 && !(dg.root = dgr_root_new())) {
        fprintf(stderr, "datagen: out of memory\n");
        return 1;
    }
    int status = run(&dg);
    dgr_root_free(dg.root);
    return status;
}

