/* The net's data and trainer: records hold what the inference sees; data
 * files append, read back whole frames and survive a partial one;
 * chuhan datagen writes, resumes and keeps only legal records; the
 * trainer's float forward pass equals the engine's inference within the
 * quantisation error; a short training run lowers the loss; a checkpoint
 * resumes the same run exactly. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/board/movegen.h"
#include "eval/eval.h"
#include "eval/nnue/nnue.h"
#include "bench/tools/nnue_data.h"
#include "bench/tools/nnue_train.h"
#include "tests.h"

/* Positions of random games (every 3rd ply), with the hand-written
 * evaluation as score and its sign as result. */
static NnueRecord *random_records(size_t n, uint64_t seed, Position **positions)
{
    NnueRecord *r = malloc(n * sizeof *r);
    Position *pos = malloc(sizeof *pos);
    assert_non_null(r);
    assert_non_null(pos);
    if (positions)
        *positions = malloc(n * sizeof **positions);
    size_t k = 0;
    while (k < n) {
        assert_true(pos_set_fen(pos, START_FEN, NULL, 0));
        for (int ply = 0; ply < 150 && k < n; ply++) {
            Move list[MAX_MOVES];
            int m = gen_legal(pos, list);
            if (!m)
                break;
            pos_do_move(pos, list[rng_below(&seed, (uint64_t)m)]);
            if (ply % 3 == 2) {
                int v = evaluate(pos);
                nnue_record_pack(&r[k], pos, v, v > 100 ? 1 : v < -100 ? -1 : 0);
                if (positions)
                    pos_copy(&(*positions)[k], pos);
                k++;
            }
        }
    }
    free(pos);
    return r;
}

static void test_nnue_records_match_positions(void **state)
{
    (void)state;
    Position *pos;
    NnueRecord *r = random_records(400, 11, &pos);
    for (int i = 0; i < 400; i++) {
        NnueSample s;
        assert_true(nnue_record_unpack(&r[i], &s));
        assert_int_equal(s.side, pos[i].side);
        assert_int_equal(s.score, evaluate(&pos[i]));
        assert_int_equal(nnue_sample_bucket(&s), nnue_out_bucket(&pos[i]));
        for (int p = 0; p < COLOR_NB; p++) {
            int a[NNUE_MAX_ACTIVE], b[NNUE_MAX_ACTIVE];
            int na = nnue_sample_features(&s, p, a), nb = nnue_features(&pos[i], p, b);
            assert_int_equal(na, nb);
            assert_memory_equal(a, b, sizeof a[0] * (size_t)na);
        }
    }
    /* mirrored: the start position is its own mirror image, and twice
     * mirrored is the same */
    Position start;
    assert_true(pos_set_fen(&start, START_FEN, NULL, 0));
    NnueRecord sr;
    NnueSample a, b;
    nnue_record_pack(&sr, &start, 0, 0);
    assert_true(nnue_record_unpack(&sr, &a));
    b = a;
    nnue_sample_mirror(&b);
    for (int p = 0; p < COLOR_NB; p++) {
        int fa[NNUE_MAX_ACTIVE], fb[NNUE_MAX_ACTIVE], seen[NNUE_INPUTS / 8 + 1] = {0};
        int n = nnue_sample_features(&a, p, fa);
        assert_int_equal(nnue_sample_features(&b, p, fb), n);
        for (int i = 0; i < n; i++)
            seen[fa[i] / 8] |= 1 << (fa[i] % 8);
        for (int i = 0; i < n; i++)
            assert_true(seen[fb[i] / 8] >> (fb[i] % 8) & 1);
    }
    assert_true(nnue_record_unpack(&r[5], &a));
    b = a;
    nnue_sample_mirror(&b);
    assert_memory_not_equal(a.sq, b.sq, a.n);
    nnue_sample_mirror(&b);
    assert_memory_equal(&a, &b, sizeof a);
    /* a record that is not a position */
    NnueRecord bad = r[0];
    memset(bad.b, 0, 12);
    NnueSample s;
    assert_false(nnue_record_unpack(&bad, &s));
    free(pos);
    free(r);
}

static void test_nnue_data_files(void **state)
{
    (void)state;
    char path[256], err[256];
    snprintf(path, sizeof path, "/tmp/chuhan-test-data-%ld.bin", (long)getpid());
    unlink(path);
    size_t n, good;
    assert_null(nnue_data_read(path, true, &n, &good, err, sizeof err));
    assert_int_equal(n, 0);
    NnueRecord *r = random_records(3000, 12, NULL);
    assert_true(nnue_data_append(path, r, 1000, err, sizeof err));
    assert_true(nnue_data_append(path, r + 1000, 2000, err, sizeof err));
    NnueRecord *back = nnue_data_read(path, false, &n, &good, err, sizeof err);
    assert_non_null(back);
    assert_int_equal(n, 3000);
    assert_memory_equal(back, r, 3000 * sizeof *r);
    free(back);
    /* a writer stopped in the middle of a frame: the whole frames stay */
    size_t whole = good;
    assert_true(nnue_data_append(path, r, 500, err, sizeof err));
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    assert_int_equal(truncate(path, size - 40), 0);
    back = nnue_data_read(path, false, &n, &good, err, sizeof err);
    assert_int_equal(n, 3000);
    assert_int_equal(good, whole);
    free(back);
    /* not data at all */
    f = fopen(path, "wb");
    fputs("hello, not zstd\n", f);
    fclose(f);
    assert_null(nnue_data_read(path, false, &n, &good, err, sizeof err));
    assert_non_null(strstr(err, "not training data"));
    unlink(path);
    /* a FIFO (with a reader, so that a plain open would not block but
     * write into it) is refused at once, and nothing goes into it */
    assert_int_equal(mkfifo(path, 0600), 0);
    int reader = open(path, O_RDONLY | O_NONBLOCK);
    assert_true(reader >= 0);
    err[0] = 0;
    assert_false(nnue_data_append(path, r, 10, err, sizeof err));
    if (!strstr(err, "is a FIFO") || !strstr(err, "refused"))
        fail_msg("append to a FIFO: '%s'", err);
    char byte;
    assert_true(read(reader, &byte, 1) <= 0);
    close(reader);
    unlink(path);
    free(r);
}

static void test_nnue_datagen_resumes(void **state)
{
    (void)state;
    char path[256], cmd[1024], out[8192], err[256];
    snprintf(path, sizeof path, "/tmp/chuhan-test-datagen-%ld.bin", (long)getpid());
    unlink(path);
    snprintf(cmd, sizeof cmd, "%s datagen --out %s --positions 60 --nodes 400 --threads 1 --seed 5",
             test_engine_path(), path);
    if (test_run(cmd, out, sizeof out) != 0)
        fail_msg("%s", out);
    size_t n1, n2, good;
    NnueRecord *first = nnue_data_read(path, false, &n1, &good, err, sizeof err);
    assert_non_null(first);
    assert_true(n1 >= 60);
    /* a partial frame left by a stopped run is dropped, then more comes */
    FILE *f = fopen(path, "ab");
    fwrite("\x28\xb5\x2f\xfd\x00\x11", 1, 6, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s datagen --out %s --positions %zu --nodes 400 --threads 1 --seed 6",
             test_engine_path(), path, n1 + 40);
    if (test_run(cmd, out, sizeof out) != 0)
        fail_msg("%s", out);
    assert_non_null(strstr(out, "dropping 6 bytes"));
    NnueRecord *all = nnue_data_read(path, false, &n2, &good, err, sizeof err);
    assert_non_null(all);
    assert_true(n2 >= n1 + 40);
    assert_memory_equal(all, first, n1 * sizeof *first);
    int results[3] = {0};
    for (size_t i = 0; i < n2; i++) {
        NnueSample s;
        assert_true(nnue_record_unpack(&all[i], &s));
        assert_in_range(s.result + 1, 0, 2);
        results[s.result + 1]++;
        /* no decided (mate) scores are kept */
        assert_in_range(s.score + 30000, 1, 59999);
    }
    free(first);
    free(all);
    unlink(path);
}

static NnueTrainParams small_params(int threads)
{
    return (NnueTrainParams){0.75, 0.002, 256, threads, 42, true, 0.9, 0, false, false};
}

/* The trainer's float net after an epoch against the engine's inference of
 * its quantised form, for either activation. */
static void trainer_matches_inference(bool screlu)
{
    Position *pos;
    NnueRecord *r = random_records(600, 13, &pos);
    NnueTrainParams p = small_params(2);
    p.screlu = screlu;
    double qb = screlu ? NNUE_QB_SCRELU : NNUE_QB;
    NnueTrainer *t = nnue_trainer_new(&p);
    assert_non_null(t);
    nnue_train_epoch(t, r, 600); /* weights that have moved */
    NnueNet *net = nnue_alloc();
    nnue_float_quantize(nnue_trainer_net(t), net);
    assert_int_equal(net->activation, screlu ? NNUE_SCRELU : NNUE_CRELU);
    double worst = 0, widest = 0;
    const NnueFloat *fl = nnue_trainer_net(t);
    for (int i = 0; i < 600; i++) {
        NnueSample s;
        assert_true(nnue_record_unpack(&r[i], &s));
        double f = nnue_float_forward(fl, &s) * NNUE_SCALE;
        int q = nnue_evaluate_full(net, &pos[i]);
        /* the rounding's bound: each layer-1 sum is off by at most
         * (inputs + 1) / (2 QA), each output weight by 1 / (2 QB), the
         * bias by 1 / (2 QA QB); the engine truncates to a centipawn
         * (SCReLU: the square's error is at most (2a + da) da, and the
         * division of the sum by QA truncates up to one unit) */
        double bound = 1.0 / (2.0 * NNUE_QA * qb) + (screlu ? 1.0 / (NNUE_QA * qb) : 0);
        for (int h = 0; h < 2; h++) {
            int feats[NNUE_MAX_ACTIVE], n = nnue_sample_features(&s, h ? !s.side : s.side, feats);
            for (int k = 0; k < NNUE_HIDDEN; k++) {
                double acc = fl->ft_b[k];
                for (int j = 0; j < n; j++)
                    acc += fl->ft_w[(size_t)feats[j] * NNUE_HIDDEN + k];
                double a = acc < 0 ? 0 : acc > 1 ? 1 : acc;
                double w = fabs(fl->out_w[nnue_sample_bucket(&s) * 2 * NNUE_HIDDEN + h * NNUE_HIDDEN + k]);
                double da = (n + 1) / (2.0 * NNUE_QA);
                double act = screlu ? a * a : a, dact = screlu ? (2 * a + da) * da : da;
                bound += act / (2.0 * qb) + (w + 1.0 / (2.0 * qb)) * dact;
            }
        }
        bound = bound * NNUE_SCALE + 1;
        double d = fabs(f - q);
        worst = d > worst ? d : worst;
        widest = bound > widest ? bound : widest;
        /* and in practice (a wrong perspective or scale is far off) */
        if (d > bound || d > 15)
            fail_msg("position %d: trainer %.2f, engine %d, bound %.2f", i, f, q, bound);
    }
    print_message("trainer vs engine (%s): largest difference %.2f cp (bounds up to %.2f)\n",
                  nnue_arch(net->activation), worst, widest);
    nnue_free(net);
    nnue_trainer_free(t);
    free(pos);
    free(r);
}

/* Every weight of two float nets the same (their layers need not be one
 * block: the factorizer's first layer is its own). */
static void assert_float_nets_equal(const NnueFloat *a, const NnueFloat *b)
{
    assert_memory_equal(a->ft_w, b->ft_w, (size_t)NNUE_INPUTS * NNUE_HIDDEN * sizeof(float));
    assert_memory_equal(a->ft_b, b->ft_b, NNUE_HIDDEN * sizeof(float));
    assert_memory_equal(a->out_w, b->out_w, NNUE_OUT_BUCKETS * 2 * NNUE_HIDDEN * sizeof(float));
    assert_memory_equal(a->out_b, b->out_b, NNUE_OUT_BUCKETS * sizeof(float));
}

/* Six epochs on n records take the loss below 0.6 of what it was. */
static void trains_down(NnueTrainer *t, const NnueRecord *r, size_t n, double lambda, const char *what)
{
    double before = nnue_float_loss(nnue_trainer_net(t), r, n, lambda);
    for (int e = 0; e < 6; e++)
        nnue_train_epoch(t, r, n);
    double after = nnue_float_loss(nnue_trainer_net(t), r, n, lambda);
    print_message("%s: loss %.5f -> %.5f\n", what, before, after);
    assert_true(after < 0.6 * before);
}

static void test_nnue_trainer_matches_inference(void **state)
{
    (void)state;
    trainer_matches_inference(false);
    trainer_matches_inference(true);
}

/* SCReLU training: it learns; a warm start needs a parent of the same
 * activation, and a checkpoint resumes only a run of the same one. */
static void test_nnue_screlu_training(void **state)
{
    (void)state;
    char path[256], err[256];
    snprintf(path, sizeof path, "/tmp/chuhan-test-screlu-%ld", (long)getpid());
    NnueRecord *r = random_records(2000, 14, NULL);
    NnueTrainParams ps = small_params(2), pc = small_params(2);
    ps.screlu = true;
    NnueTrainer *s = nnue_trainer_new(&ps), *c = nnue_trainer_new(&pc);
    assert_non_null(s);
    assert_non_null(c);
    trains_down(s, r, 2000, ps.lambda, "screlu");
    NnueNet *net = nnue_alloc();
    nnue_float_quantize(nnue_trainer_net(s), net);
    for (int b = 0; b < NNUE_OUT_BUCKETS; b++)
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
            assert_true(abs(net->out_w[b][i]) <= NNUE_OUT_W_MAX_SCRELU);
    assert_false(nnue_trainer_init_from(c, net, err, sizeof err));
    assert_non_null(strstr(err, NNUE_ARCH_SCRELU));
    NnueTrainer *s2 = nnue_trainer_new(&ps);
    assert_true(nnue_trainer_init_from(s2, net, err, sizeof err));
    assert_true(nnue_trainer_save(s, path, err, sizeof err));
    assert_false(nnue_trainer_load(c, path, err, sizeof err));
    assert_non_null(strstr(err, "resume with --screlu"));
    assert_true(nnue_trainer_load(s2, path, err, sizeof err));
    assert_true(nnue_train_epoch(s, r, 2000) == nnue_train_epoch(s2, r, 2000));
    assert_true(nnue_trainer_save(c, path, err, sizeof err));
    assert_false(nnue_trainer_load(s2, path, err, sizeof err));
    unlink(path);
    nnue_free(net);
    nnue_trainer_free(s);
    nnue_trainer_free(s2);
    nnue_trainer_free(c);
    free(r);
}

static void test_nnue_training_lowers_loss(void **state)
{
    (void)state;
    NnueRecord *r = random_records(2000, 14, NULL);
    NnueTrainParams p = small_params(2);
    NnueTrainer *t = nnue_trainer_new(&p);
    assert_non_null(t);
    trains_down(t, r, 2000, p.lambda, "clipped ReLU");
    nnue_trainer_free(t);
    free(r);
}

static void test_nnue_checkpoint_resumes(void **state)
{
    (void)state;
    char path[256], err[256];
    snprintf(path, sizeof path, "/tmp/chuhan-test-ckpt-%ld", (long)getpid());
    NnueRecord *r = random_records(800, 15, NULL);
    NnueTrainParams p = small_params(1);
    NnueTrainer *a = nnue_trainer_new(&p), *b = nnue_trainer_new(&p);
    assert_non_null(a);
    assert_non_null(b);
    nnue_train_epoch(a, r, 800);
    assert_true(nnue_trainer_save(a, path, err, sizeof err));
    assert_true(nnue_trainer_load(b, path, err, sizeof err));
    assert_int_equal(nnue_trainer_epoch_count(b), 1);
    double la = nnue_train_epoch(a, r, 800), lb = nnue_train_epoch(b, r, 800);
    assert_true(la == lb);
    NnueFloat *fa = nnue_trainer_net(a), *fb = nnue_trainer_net(b);
    assert_float_nets_equal(fa, fb);
    /* not a checkpoint */
    FILE *f = fopen(path, "wb");
    fputs("nope", f);
    fclose(f);
    assert_false(nnue_trainer_load(b, path, err, sizeof err));
    unlink(path);
    nnue_trainer_free(a);
    nnue_trainer_free(b);
    free(r);
}

/* Games as datagen writes them: each a run of records, its first marked,
 * the result from Red's view the same throughout; the split never puts
 * one game on both sides, and holds out about one game in k. */
static void test_nnue_validation_by_game(void **state)
{
    (void)state;
    enum { GAMES = 200, K = 5 };
    NnueRecord *pool = random_records(4000, 21, NULL), *recs = malloc(4000 * sizeof *recs);
    int *game = malloc(4000 * sizeof *game);
    assert_non_null(recs);
    assert_non_null(game);
    uint64_t rng = 7;
    size_t n = 0;
    for (int g = 0; g < GAMES && n < 4000; g++) {
        int len = 1 + (int)rng_below(&rng, 30), red = (int)rng_below(&rng, 3) - 1;
        for (int i = 0; i < len && n < 4000; i++, n++) {
            recs[n] = pool[n];
            int side = recs[n].b[31] & 1;
            recs[n].b[30] = (uint8_t)((side == RED ? red : -red) + 1);
            game[n] = g;
            if (i == 0)
                nnue_record_mark_game_start(&recs[n]);
        }
    }
    NnueRecord *tr = malloc(n * sizeof *tr), *va = malloc(n * sizeof *va);
    size_t ntr, nva;
    for (int marked = 1; marked >= 0; marked--) {
        if (!marked) /* records written before the mark: runs of one result */
            for (size_t i = 0; i < n; i++)
                recs[i].b[31] &= 1;
        size_t groups = nnue_data_split_games(recs, n, K, tr, &ntr, va, &nva);
        assert_int_equal(ntr + nva, n);
        if (marked)
            assert_int_equal(groups, GAMES);
        else
            assert_true(groups > GAMES / 3 && groups <= GAMES);
        /* which games each side holds: none in both */
        char side_of[GAMES] = {0};
        for (size_t i = 0, t = 0, v = 0; i < n; i++) {
            bool in_val = v < nva && !memcmp(&va[v], &recs[i], sizeof *va);
            if (in_val)
                v++;
            else
                assert_memory_equal(&tr[t++], &recs[i], sizeof *tr);
            char mine = in_val ? 'v' : 't';
            assert_true(side_of[game[i]] == 0 || side_of[game[i]] == mine);
            side_of[game[i]] = mine;
        }
        int held = 0;
        for (int g = 0; g < GAMES; g++)
            held += side_of[g] == 'v';
        assert_true(held >= GAMES / K / 3 && held <= GAMES / K * 2);
        /* the records unpack as before: the mark is not the side */
        NnueSample s;
        assert_true(nnue_record_unpack(&recs[0], &s));
        assert_int_equal(s.side, recs[0].b[31] & 1);
    }
    assert_int_equal(nnue_data_split_games(recs, n, 0, tr, &ntr, va, &nva) > 0, 1);
    assert_int_equal(nva, 0);
    free(tr);
    free(va);
    free(game);
    free(recs);
    free(pool);
}

/* A warm start: a trainer started from a net gives that net back when
 * quantised, and evaluates like the engine within the rounding bound. */
static void test_nnue_init_from_net(void **state)
{
    (void)state;
    Position *pos;
    NnueRecord *r = random_records(300, 23, &pos);
    NnueTrainParams p = small_params(1);
    NnueTrainer *a = nnue_trainer_new(&p), *b = nnue_trainer_new(&(NnueTrainParams){0.75, 0.002, 256, 1, 99, true, 1, 0, false, false});
    assert_non_null(a);
    assert_non_null(b);
    nnue_train_epoch(a, r, 300);
    NnueNet *na = nnue_alloc(), *nb = nnue_alloc();
    nnue_float_quantize(nnue_trainer_net(a), na);
    char err[256];
    assert_true(nnue_trainer_init_from(b, na, err, sizeof err));
    nnue_float_quantize(nnue_trainer_net(b), nb);
    assert_memory_equal(na->ft_w, nb->ft_w, sizeof na->ft_w);
    assert_memory_equal(na->ft_b, nb->ft_b, sizeof na->ft_b);
    assert_memory_equal(na->out_w, nb->out_w, sizeof na->out_w);
    for (int k = 0; k < NNUE_OUT_BUCKETS; k++)
        assert_true(abs(na->out_b[k] - nb->out_b[k]) <= 1);
    for (int i = 0; i < 300; i++) {
        NnueSample s;
        assert_true(nnue_record_unpack(&r[i], &s));
        double f = nnue_float_forward(nnue_trainer_net(b), &s) * NNUE_SCALE;
        int q = nnue_evaluate_full(na, &pos[i]);
        if (fabs(f - q) > 15)
            fail_msg("position %d: warm-started trainer %.2f, engine %d", i, f, q);
    }
    /* and it trains on from there: the loss of the data it learnt from
     * does not jump back to a random net's */
    double from = nnue_float_loss(nnue_trainer_net(b), r, 300, 0.75);
    NnueTrainer *fresh = nnue_trainer_new(&p);
    assert_true(from < nnue_float_loss(nnue_trainer_net(fresh), r, 300, 0.75));
    nnue_trainer_free(fresh);
    nnue_free(na);
    nnue_free(nb);
    nnue_trainer_free(a);
    nnue_trainer_free(b);
    free(pos);
    free(r);
}

/* The king-bucket factorizer: what a bucket learns reaches the same piece
 * on the same point in every other bucket (a bucket no position reached
 * moves with the rest, where without it it stays as drawn), a warm start
 * gives the parent back exactly, it learns, and its checkpoint resumes
 * the same run and is refused by a run without it (and the other way). */
static void test_nnue_factorizer(void **state)
{
    (void)state;
    char path[256], err[256];
    snprintf(path, sizeof path, "/tmp/chuhan-test-fact-%ld", (long)getpid());
    NnueRecord *r = random_records(800, 31, NULL);
    /* an input the data has, and the same piece and point in a bucket it has not */
    static bool used[NNUE_INPUTS];
    memset(used, 0, sizeof used);
    for (int i = 0; i < 800; i++) {
        NnueSample s;
        assert_true(nnue_record_unpack(&r[i], &s));
        for (int m = 0; m < 2; m++) {
            for (int p = 0; p < COLOR_NB; p++) {
                int f[NNUE_MAX_ACTIVE], n = nnue_sample_features(&s, p, f);
                for (int k = 0; k < n; k++)
                    used[f[k]] = true;
            }
            nnue_sample_mirror(&s);
        }
    }
    const int per = NNUE_PIECE_CLASSES * SQUARE_NB;
    int seen = -1, unseen = -1;
    for (int i = 0; i < NNUE_INPUTS && unseen < 0; i++)
        for (int b = 0; used[i] && b < NNUE_KING_BUCKETS && unseen < 0; b++)
            if (!used[b * per + i % per])
                seen = i, unseen = b * per + i % per;
    assert_true(unseen >= 0);
    NnueTrainParams pf = small_params(2), pp = small_params(2);
    pf.factorize = true;
    NnueTrainer *f = nnue_trainer_new(&pf), *plain = nnue_trainer_new(&pp);
    assert_non_null(f);
    assert_non_null(plain);
    /* the same draw of weights: the shared rows start at zero */
    assert_float_nets_equal(nnue_trainer_net(f), nnue_trainer_net(plain));
    float row0[NNUE_HIDDEN], seen0[NNUE_HIDDEN];
    memcpy(row0, nnue_trainer_net(f)->ft_w + (size_t)unseen * NNUE_HIDDEN, sizeof row0);
    memcpy(seen0, nnue_trainer_net(f)->ft_w + (size_t)seen * NNUE_HIDDEN, sizeof seen0);
    double before = nnue_float_loss(nnue_trainer_net(f), r, 800, pf.lambda);
    nnue_train_epoch(f, r, 800);
    nnue_train_epoch(plain, r, 800);
    const float *uf = nnue_trainer_net(f)->ft_w + (size_t)unseen * NNUE_HIDDEN;
    const float *up = nnue_trainer_net(plain)->ft_w + (size_t)unseen * NNUE_HIDDEN;
    const float *sf = nnue_trainer_net(f)->ft_w + (size_t)seen * NNUE_HIDDEN;
    assert_memory_equal(up, row0, sizeof row0);
    int moved = 0;
    for (int k = 0; k < NNUE_HIDDEN; k++) {
        moved += uf[k] != row0[k];
        /* the unseen row moved by the shared row alone, which the seen row holds too */
        if (fabsf((uf[k] - row0[k]) - (sf[k] - seen0[k])) > 0.05f && fabsf(sf[k]) < 1.9f)
            fail_msg("hidden %d: unseen row moved %g, seen row %g", k, uf[k] - row0[k], sf[k] - seen0[k]);
    }
    assert_true(moved > NNUE_HIDDEN / 2);
    for (int e = 0; e < 5; e++)
        nnue_train_epoch(f, r, 800);
    double after = nnue_float_loss(nnue_trainer_net(f), r, 800, pf.lambda);
    print_message("factorized: loss %.5f -> %.5f\n", before, after);
    assert_true(after < 0.6 * before);
    /* checkpoints */
    NnueTrainer *g = nnue_trainer_new(&pf);
    assert_non_null(g);
    assert_true(nnue_trainer_save(f, path, err, sizeof err));
    assert_true(nnue_trainer_load(g, path, err, sizeof err));
    assert_float_nets_equal(nnue_trainer_net(f), nnue_trainer_net(g));
    assert_true(nnue_train_epoch(f, r, 800) == nnue_train_epoch(g, r, 800));
    assert_float_nets_equal(nnue_trainer_net(f), nnue_trainer_net(g));
    assert_false(nnue_trainer_load(plain, path, err, sizeof err));
    assert_non_null(strstr(err, "with the factorizer"));
    assert_true(nnue_trainer_save(plain, path, err, sizeof err));
    assert_false(nnue_trainer_load(g, path, err, sizeof err));
    assert_non_null(strstr(err, "without the factorizer"));
    unlink(path);
    /* a warm start: the parent exactly */
    NnueNet *na = nnue_alloc(), *nb = nnue_alloc();
    nnue_float_quantize(nnue_trainer_net(plain), na);
    assert_true(nnue_trainer_init_from(g, na, err, sizeof err));
    nnue_float_quantize(nnue_trainer_net(g), nb);
    assert_memory_equal(na->ft_w, nb->ft_w, sizeof na->ft_w);
    assert_memory_equal(na->out_w, nb->out_w, sizeof na->out_w);
    nnue_free(na);
    nnue_free(nb);
    nnue_trainer_free(f);
    nnue_trainer_free(g);
    nnue_trainer_free(plain);
    free(r);
}

/* A generation (bench/tools/net-generation.sh) cut short after its data goes on
 * where it stopped: the data is not played again (no record twice), the
 * net is trained from the default one on every data file (the master games'
 * too), the gate is played and not played again, and a net that has not
 * passed it stays out of the nets folder. */
static void test_net_generation_resumes(void **state)
{
    (void)state;
    char dir[256], cmd[2048], out[32768], work[512] = "", data[600], err[256];
    snprintf(dir, sizeof dir, "/tmp/chuhan-test-gen-%ld", (long)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s/nets", dir, dir);
    assert_int_equal(system(cmd), 0);
    const char *small = "--positions 300 --nodes 100 --threads 1 --epochs 1 --gate depth=1 --games 2";
    snprintf(cmd, sizeof cmd, "bash bench/tools/net-generation.sh --engine %s --data-dir %s/data --nets %s/nets %s --step data",
             test_engine_path(), dir, dir, small);
    if (test_run(cmd, out, sizeof out) != 0)
        fail_msg("%s", out);
    const char *w = strstr(out, "work folder ");
    assert_non_null(w);
    sscanf(w + 12, "%511[^;]", work);
    snprintf(data, sizeof data, "%s/selfplay-n100.bin", work);
    size_t before, after, good;
    free(nnue_data_read(data, false, &before, &good, err, sizeof err));
    assert_true(before >= 300);
    assert_null(strstr(out, "[2/3]"));
    /* recorded games rescored (datagen --pgn) go into DATA/master; a copy stands in for them */
    snprintf(cmd, sizeof cmd, "mkdir -p %s/data/master && cp %s %s/data/master/master-n100.bin", dir, data, dir);
    assert_int_equal(system(cmd), 0);
    /* the rest of the generation */
    snprintf(cmd, sizeof cmd, "bash bench/tools/net-generation.sh --engine %s --data-dir %s/data --nets %s/nets %s",
             test_engine_path(), dir, dir, small);
    if (test_run(cmd, out, sizeof out) != 0)
        fail_msg("%s", out);
    assert_non_null(strstr(out, "already holds"));
    free(nnue_data_read(data, false, &after, &good, err, sizeof err));
    assert_int_equal(after, before);
    assert_non_null(strstr(out, "train: 2 data files"));
    assert_non_null(strstr(out, "[3/3] gate"));
    assert_non_null(strstr(out, "did not pass"));
    assert_null(strstr(out, "Resumed"));
    /* a warm start says the parent's loss on the held-out games before any step, and its card keeps it */
    char warm[2048];
    snprintf(warm, sizeof warm, "%s train --data %s --data %s/data/master/master-n100.bin --out %s/warm.nnue --init %s "
             "--epochs 1 --validation 0.5 --threads 1 && cat %s/warm.nnue.card",
             test_engine_path(), data, dir, dir, nnue_default_name(), dir);
    if (test_run(warm, out, sizeof out) != 0)
        fail_msg("%s", out);
    const char *zero = strstr(out, "epoch 0/1: validation loss ");
    assert_non_null(zero);
    double parent_loss = atof(zero + strlen("epoch 0/1: validation loss "));
    assert_true(parent_loss > 0 && parent_loss < 0.25);
    assert_non_null(strstr(out, "train/validation: parent 0."));
    /* run again: nothing is trained or played twice, the gate's games are counted from its PGN */
    if (test_run(cmd, out, sizeof out) != 0)
        fail_msg("%s", out);
    assert_non_null(strstr(out, "trained already"));
    assert_non_null(strstr(out, "Resumed 2 games"));
    assert_non_null(strstr(out, "did not pass"));
    char net_path[600];
    snprintf(net_path, sizeof net_path, "%s/%s.nnue", work, strrchr(work, '/') + 1);
    NnueNet *net = nnue_load_file(net_path, err, sizeof err);
    if (!net)
        fail_msg("%s: %s", net_path, err);
    nnue_free(net);
    snprintf(cmd, sizeof cmd, "test -z \"$(ls %s/nets)\"", dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

const struct CMUnitTest *nnue_train_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nnue_records_match_positions), cmocka_unit_test(test_nnue_data_files),
        cmocka_unit_test(test_nnue_datagen_resumes),         cmocka_unit_test(test_nnue_trainer_matches_inference),
        cmocka_unit_test(test_nnue_training_lowers_loss),    cmocka_unit_test(test_nnue_checkpoint_resumes),
        cmocka_unit_test(test_nnue_validation_by_game),      cmocka_unit_test(test_nnue_init_from_net),
        cmocka_unit_test(test_nnue_factorizer),             cmocka_unit_test(test_nnue_screlu_training),             cmocka_unit_test(test_net_generation_resumes),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
