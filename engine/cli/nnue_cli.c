/* chuhan eval and chuhan train (see cli.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "engine/util/args.h"
#include "engine/util/clock.h"
#include "engine/util/host.h"
#include "engine/util/outfile.h"
#include "eval/eval.h"
#include "eval/nnue/nnue.h"
#include "bench/tools/nnue_data.h"
#include "bench/tools/nnue_train.h"

int nnue_eval_cli(int argc, char **argv)
{
    const char *net_path = NULL;
    char fen[512] = "";
    const char *words[64];
    int nwords = 0;
    const ArgOption opts[] = {ARG_TEXT("--net", &net_path)};
    const ArgSpec spec = {"eval", opts, sizeof opts / sizeof opts[0], words, 64};
    char why[ARGS_WHY_MAX];
    if (!args_read(&spec, argc, argv, &nwords, why, sizeof why)) {
        fprintf(stderr, "%s%susage: chuhan eval [--net FILE] [FEN]   (default: the built-in net, the start position)\n", why,
                *why ? "\n" : "");
        return 2;
    }
    for (int i = 0; i < nwords; i++) {
        size_t n = strlen(fen);
        snprintf(fen + n, sizeof fen - n, "%s%s", n ? " " : "", words[i]);
    }
    Position pos;
    char err[512];
    if (!pos_set_fen(&pos, *fen ? fen : START_FEN, err, sizeof err)) {
        fprintf(stderr, "eval: bad FEN: %s\n", err);
        return 1;
    }
    char text[FEN_MAX];
    pos_fen(&pos, text);
    int hce = evaluate(&pos);
    printf("position     %s\n", text);
    printf("hand-written %+d cp (%s to move's view), %+d for red\n", hce, color_name(pos.side),
           pos.side == RED ? hce : -hce);
    /* without --net, the net built into the binary */
    NnueNet *net = net_path ? nnue_load_file(net_path, err, sizeof err) : nnue_load_default(err, sizeof err);
    if (!net) {
        fprintf(stderr, "eval: net %s: %s\n", net_path ? net_path : "<built-in>", err);
        return 1;
    }
    /* as the search sees it: drawish material scaled down */
    int v = eval_static(net, &pos);
    printf("net          %+d cp (%s to move's view), %+d for red  [%s, %s, output bucket %d, %s kernels]\n", v,
           color_name(pos.side), pos.side == RED ? v : -v, net_path ? net_path : nnue_default_name(),
           nnue_arch(net->activation), nnue_out_bucket(&pos), nnue_kernels()->name);
    nnue_free(net);
    return 0;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int train_usage(const char *why)
{
    if (why && *why)
        fprintf(stderr, "%s\n", why);
    fprintf(stderr,
            "usage: chuhan train --data FILE [--data FILE ...] --out NET [options]\n"
            "  train a net on chuhan datagen files; NET is written in the engine's format (EvalFile),\n"
            "  with NET.card (its recipe) and NET.ckpt (a checkpoint after every epoch)\n"
            "  --epochs N        total epochs (default 10; with --resume, those left)\n"
            "  --batch N         positions per Adam step (default 16384)\n"
            "  --lr X            Adam's step size (default 0.001)\n"
            "  --lr-decay X      the step size is multiplied by X after every epoch (default 1)\n"
            "  --lr-drop N       after N epochs the step size is cut tenfold (default 0: never)\n"
            "  --init NET        start from this net's weights (a warm start) instead of random ones\n"
            "  --lambda X        weight of the search score against the game result (default 0.75)\n"
            "  --threads N       (default: every core)\n"
            "  --validation X    fraction of the games held out to measure the loss (default 0.05)\n"
            "  --resume          start from NET.ckpt\n"
            "  --no-mirror       do not also train on every position mirrored left-right\n"
            "  --factorize       also train a row per piece and point shared by every king bucket\n"
            "                    (folded into the buckets' rows in NET; --resume needs the same)\n"
            "  --screlu          layer 2 squares its clipped inputs (" NNUE_ARCH_SCRELU "; --init and\n"
            "                    --resume need a net or checkpoint of the same)\n"
            "  --seed N          initial weights and shuffles (default 1)\n"
            "  --note TEXT       a line for the card (e.g. the datagen command)\n");
    return 2;
}

int nnue_train_cli(int argc, char **argv)
{
    const char *data[64], *out = NULL, *note = "", *init = NULL;
    int ndata = 0;
    long epochs = 10, batch = 16384, threads = host_cpus(), lr_drop = 0;
    double lr = 0.001, lambda = 0.75, validation = 0.05, lr_decay = 1;
    uint64_t seed = 1;
    bool resume = false, mirror = true, factorize = false, screlu = false;
    if (threads < 1)
        threads = 1;
    const ArgOption opts[] = {
        ARG_LIST("--data", data, &ndata, 64),
        ARG_TEXT("--out", &out),
        ARG_TEXT("--note", &note),
        ARG_TEXT("--init", &init),
        ARG_LONG("--lr-drop", &lr_drop, 0, 100000),
        ARG_LONG("--epochs", &epochs, 1, 100000),
        ARG_LONG("--batch", &batch, 1, 1 << 24),
        ARG_LONG("--threads", &threads, 1, 256),
        ARG_DOUBLE("--lr", &lr, 1e-7, 1),
        ARG_DOUBLE("--lr-decay", &lr_decay, 0.01, 1),
        ARG_DOUBLE("--lambda", &lambda, 0, 1),
        ARG_DOUBLE("--validation", &validation, 0, 0.5),
        ARG_U64("--seed", &seed, 0, UINT64_MAX),
        ARG_FLAG("--resume", &resume, true),
        ARG_FLAG("--no-mirror", &mirror, false),
        ARG_FLAG("--factorize", &factorize, true),
        ARG_FLAG("--screlu", &screlu, true),
    };
    const ArgSpec spec = {"train", opts, sizeof opts / sizeof opts[0], NULL, 0};
    char bad[ARGS_WHY_MAX];
    if (!args_read(&spec, argc, argv, NULL, bad, sizeof bad))
        return train_usage(bad);
    if (!ndata || !out)
        return train_usage(argc ? (ndata ? "train: --out is required" : "train: --data is required") : NULL);
    /* every file it will write (the net, its checkpoint and card): a new
     * file or a regular one, checked before any work */
    for (int i = 0; i < 3; i++) {
        char name[1100], why[1300];
        snprintf(name, sizeof name, "%s%s", out, i == 0 ? "" : i == 1 ? ".ckpt" : ".card");
        if (!outfile_check(name, why, sizeof why)) {
            fprintf(stderr, "train: %s\n", why);
            return 2;
        }
    }
    /* every file's records, one array */
    NnueRecord *all = NULL;
    size_t total = 0, per_file[64];
    char err[512];
    for (int i = 0; i < ndata; i++) {
        size_t n, good;
        NnueRecord *r = nnue_data_read(data[i], false, &n, &good, err, sizeof err);
        if (!r && n == 0 && err[0]) {
            fprintf(stderr, "train: %s\n", err);
            free(all);
            return 1;
        }
        NnueRecord *bigger = realloc(all, (total + n) * sizeof *all + 1);
        if (!bigger) {
            fprintf(stderr, "train: out of memory\n");
            free(r);
            free(all);
            return 1;
        }
        all = bigger;
        if (n)
            memcpy(all + total, r, n * sizeof *r);
        per_file[i] = n;
        total += n;
        free(r);
    }
    /* the held-out part: every k-th game, so that it spans every file and
     * shares no game (whose positions are alike) with the training part */
    size_t k = validation > 0 ? (size_t)(1 / validation + 0.5) : 0, nval = 0, ntrain = 0;
    NnueRecord *train = malloc(total * sizeof *train + 1), *val = malloc(total * sizeof *val + 1);
    if (!train || !val) {
        fprintf(stderr, "train: out of memory\n");
        return 1;
    }
    size_t groups = nnue_data_split_games(all, total, k, train, &ntrain, val, &nval);
    free(all);
    if (ntrain == 0) {
        fprintf(stderr, "train: no positions in the data\n");
        return 1;
    }
    NnueTrainParams p = {lambda, lr, (int)batch, (int)threads, seed, mirror, lr_decay, (int)lr_drop, factorize, screlu};
    NnueTrainer *t = nnue_trainer_new(&p);
    if (!t) {
        fprintf(stderr, "train: out of memory\n");
        return 1;
    }
    char ckpt[1100], card[1100];
    snprintf(ckpt, sizeof ckpt, "%s.ckpt", out);
    snprintf(card, sizeof card, "%s.card", out);

    if (resume && !nnue_trainer_load(t, ckpt, err, sizeof err)) {
        fprintf(stderr, "train: %s\n", err);
        nnue_trainer_free(t);
        return 1;
    }
    if (init && !resume) {
        NnueNet *parent = nnue_load_file(init, err, sizeof err);
        if (!parent) {
            fprintf(stderr, "train: --init %s: %s\n", init, err);
            nnue_trainer_free(t);
            return 1;
        }
        bool same = nnue_trainer_init_from(t, parent, err, sizeof err);
        nnue_free(parent);
        if (!same) {
            fprintf(stderr, "train: --init %s: %s\n", init, err);
            nnue_trainer_free(t);
            return 1;
        }
    }
    const char *arch = nnue_arch(nnue_trainer_net(t)->activation);
    printf("train: %zu positions (%zu training, %zu validation from every %zu-th of %zu game groups), %s, batch %ld, "
           "lr %g, lambda %g, %ld threads%s%s%s%s%s\n",
           total, ntrain, nval, k, groups, arch, batch, lr, lambda, threads, mirror ? ", mirrored too" : "",
           factorize ? ", factorized" : "",
           resume ? ", resumed" : "", init && !resume ? ", from " : "", init && !resume ? init : "");
    fflush(stdout);
    int64_t t0 = now_us();
    double train_loss = 0, val_loss = 0;
    char history[4096] = ""; /* this run's losses, for the card */
    if (init && !resume && nval) {
        /* the parent's own loss on this split: what the training has to beat */
        val_loss = nnue_float_loss(nnue_trainer_net(t), val, nval, lambda);
        printf("epoch 0/%ld: validation loss %.6f (%s)\n", epochs, val_loss, base_name(init));
        fflush(stdout);
        snprintf(history, sizeof history, "parent %.6f", val_loss);
    }
    while (nnue_trainer_epoch_count(t) < epochs) {
        int64_t e0 = now_us();
        train_loss = nnue_train_epoch(t, train, ntrain);
        val_loss = nval ? nnue_float_loss(nnue_trainer_net(t), val, nval, lambda) : train_loss;
        double s = (double)(now_us() - e0) * 1e-6;
        printf("epoch %d/%ld: train loss %.6f, validation loss %.6f, %.1f s, %.0f pos/s\n",
               nnue_trainer_epoch_count(t), epochs, train_loss, val_loss, s, (mirror ? 2 : 1) * ntrain / (s > 0 ? s : 1));
        fflush(stdout);
        size_t used = strlen(history);
        snprintf(history + used, sizeof history - used, "%sepoch %d %.6f/%.6f", used ? ", " : "",
                 nnue_trainer_epoch_count(t), train_loss, val_loss);
        if (!nnue_trainer_save(t, ckpt, err, sizeof err))
            fprintf(stderr, "train: %s\n", err);
    }
    double secs = (double)(now_us() - t0) * 1e-6;
    NnueNet *net = nnue_alloc();
    bool ok = net != NULL;
    if (ok) {
        nnue_float_quantize(nnue_trainer_net(t), net);
        ok = nnue_save_file(net, out, err, sizeof err);
        if (!ok)
            fprintf(stderr, "train: %s\n", err);
    }
    FILE *c = ok ? outfile_open(card, err, sizeof err) : NULL;
    if (ok && !c)
        fprintf(stderr, "train: %s\n", err);
    if (c) {
        /* file names only: the card travels with the net, the data's
         * folder is the machine's */
        fprintf(c, "net          %s\narchitecture %s\n", base_name(out), arch);
        for (int i = 0; i < ndata; i++)
            fprintf(c, "data         %s (%zu positions)\n", base_name(data[i]), per_file[i]);
        fprintf(c, "positions    %zu (%zu training, %zu validation)\n", total, ntrain, nval);
        fprintf(c, "parent       %s\n", init ? base_name(init) : "none (random weights)");
        fprintf(c, "validation   every %zu-th of %zu groups of whole games\n", k, groups);
        fprintf(c, "epochs       %d (batch %ld, lr %g decaying by %g an epoch, cut tenfold after epoch %ld, lambda %g, "
                   "seed %llu, %s%s)\n",
                nnue_trainer_epoch_count(t), batch, lr, lr_decay, lr_drop, lambda, (unsigned long long)seed,
                mirror ? "each position also mirrored" : "no mirroring",
                factorize ? ", king buckets factorized" : "");
        fprintf(c, "final loss   train %.6f, validation %.6f\n", train_loss, val_loss);
        if (*history)
            fprintf(c, "loss         train/validation: %s\n", history);
        fprintf(c, "time         %.1f s this run, %ld threads\n", secs, threads);
        if (*note)
            fprintf(c, "note         %s\n", note);
        fclose(c);
    }
    if (ok)
        printf("train: wrote %s (%s) and %s\n", out, arch, card);
    nnue_free(net);
    nnue_trainer_free(t);
    free(train);
    free(val);
    return ok ? 0 : 1;
}
