/* chuhan texel: load the records, fit, write the weights file. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "engine/util/args.h"
#include "engine/util/clock.h"
#include "engine/util/outfile.h"
#include "bench/tools/texel.h"
#include "eval/weights.h"

static double seconds_since(int64_t t0_us) { return (double)(now_us() - t0_us) * 1e-6; }

static int texel_usage(const char *why)
{
    if (why && *why)
        fprintf(stderr, "%s\n", why);
    fprintf(stderr,
            "usage: chuhan texel [options] FILE...   fit the evaluation weights to the results of PGN records\n"
            "  -o FILE            write the weights here (default eval/weights.txt; '-' standard output)\n"
            "  --from FILE        start from the weights of this file (default: the ones built in)\n"
            "  --epochs N         Adam steps over all positions (default 400)\n"
            "  --lr X             step size in centipawns (default 1.0)\n"
            "  --lambda X         L2 pull towards the starting weights (default 0)\n"
            "  --k X              sigmoid scale (default: fitted first)\n"
            "  --skip-plies N     skip the first N plies of each game, the book phase (default 16)\n"
            "  --keep X           keep this fraction of the quiet positions (default 1)\n"
            "  --max-positions N  stop loading after N positions (default: no limit)\n"
            "  --validation X     fraction of the games held out to measure the error (default 0.1)\n"
            "  --no-symmetry      tune the psqt points and their mirror images apart\n"
            "  --no-material      keep piece_value as it is\n"
            "  --threads N        (default 1; the result does not depend on it)\n"
            "  --report-every N   a progress line every N epochs (default 25)\n"
            "  --seed N           (default 1)\n"
            "  --encoding E       of the records (default auto)\n");
    return 2;
}

static bool read_encoding(const char *text, void *enc) { return pgn_parse_encoding(text, enc); }

int texel_cli(int argc, char **argv)
{
    TexelOptions opt;
    texel_options_default(&opt);
    opt.progress = stderr;
    const char *out_path = "eval/weights.txt", *from = NULL;
    const char *files[256];
    int nfiles = 0;
    char cmdline[1024] = "chuhan texel";
    for (int i = 0; i < argc; i++) {
        size_t used = strlen(cmdline);
        snprintf(cmdline + used, sizeof cmdline - used, " %s", argv[i]);
    }
    long epochs = opt.epochs, skip_plies = opt.skip_plies, report_every = opt.report_every, threads = opt.threads;
    const ArgOption opts[] = {
        ARG_TEXT("-o", &out_path),
        ARG_TEXT("--from", &from),
        ARG_LONG("--epochs", &epochs, 0, 10000000),
        ARG_DOUBLE("--lr", &opt.lr, 1e-6, 1e4),
        ARG_DOUBLE("--lambda", &opt.lambda, 0, 1e6),
        ARG_DOUBLE("--k", &opt.k, 1e-6, 10),
        ARG_LONG("--skip-plies", &skip_plies, 0, MAX_GAME_PLY),
        ARG_DOUBLE("--keep", &opt.keep, 1e-9, 1),
        ARG_LONG("--max-positions", &opt.max_positions, 0, LONG_MAX > 4000000000L ? 4000000000L : LONG_MAX),
        ARG_DOUBLE("--validation", &opt.validation, 0, 0.9),
        ARG_LONG("--report-every", &report_every, 1, 10000000),
        ARG_LONG("--threads", &threads, 1, TEXEL_MAX_THREADS),
        ARG_U64("--seed", &opt.seed, 0, UINT64_MAX),
        ARG_CUSTOM("--encoding", &opt.encoding, read_encoding, "an encoding: auto, utf-8, gbk or big5"),
        ARG_FLAG("--no-symmetry", &opt.symmetric, false),
        ARG_FLAG("--no-material", &opt.fit_material, false),
    };
    const ArgSpec spec = {"texel", opts, sizeof opts / sizeof opts[0], files, 256};
    char bad[ARGS_WHY_MAX];
    if (!args_read(&spec, argc, argv, &nfiles, bad, sizeof bad))
        return texel_usage(bad);
    if (nfiles == 0)
        return texel_usage(argc ? "texel: no FILE to read" : NULL);
    opt.epochs = (int)epochs;
    opt.skip_plies = (int)skip_plies;
    opt.report_every = (int)report_every;
    opt.threads = (int)threads;
    char why0[512];
    if (strcmp(out_path, "-") && !outfile_check(out_path, why0, sizeof why0)) { /* before the work */
        fprintf(stderr, "texel: %s\n", why0);
        return 2;
    }

    char err[512];
    EvalParams params = DefaultEvalParams;
    if (from && !weights_read_file(from, &params, err, sizeof err)) {
        fprintf(stderr, "texel: %s\n", err);
        return 1;
    }
    int64_t t0 = now_us();
    TexelData *d = texel_data_new(&opt);
    if (!d) {
        fprintf(stderr, "texel: out of memory\n");
        return 1;
    }
    int status = 1;
    for (int i = 0; i < nfiles; i++)
        if (!texel_data_add_file(d, files[i], err, sizeof err)) {
            fprintf(stderr, "texel: %s\n", err);
            goto out;
        }
    const TexelDataStats *st = texel_data_stats(d);
    int used, weights = texel_data_weights(d, &used);
    fprintf(stderr,
            "texel: %ld games (%ld rejected, %ld without a result); %ld positions seen, %ld in the book phase, "
            "%ld not quiet, %ld left out by sampling\n"
            "texel: %ld training and %ld validation positions, %d weights (%d mg/eg pairs in use), %.1f MB, loaded in "
            "%.1f s\n",
            st->games, st->games_rejected, st->games_no_result, st->positions_seen, st->skipped_book,
            st->skipped_noisy, st->skipped_sampling, st->train, st->validation, weights, used,
            (double)st->bytes / 1e6, seconds_since(t0));
    if (st->train == 0) {
        fprintf(stderr, "texel: no positions to tune on\n");
        goto out;
    }
    double k = opt.k > 0 ? opt.k : texel_fit_k(d, &params);
    double e0 = texel_error(d, &params, k, false), v0 = texel_error(d, &params, k, true);
    fprintf(stderr, "texel: K = %.6f%s; start: training error %.6f, validation error %.6f\n", k,
            opt.k > 0 ? " (given)" : " (fitted)", e0, v0);
    double e1 = texel_fit(d, &params, k);
    double v1 = texel_error(d, &params, k, true);
    fprintf(stderr, "texel: done in %.1f s: training error %.6f -> %.6f, validation error %.6f -> %.6f\n",
            seconds_since(t0), e0, e1, v0, v1);

    char comment[2048];
    snprintf(comment, sizeof comment,
             "%s\n"
             "%ld training positions (%ld validation) from %ld games; K = %.6f;\n"
             "training error %.6f -> %.6f, validation error %.6f -> %.6f (integer weights).",
             cmdline, st->train, st->validation, st->games, k, e0, e1, v0, v1);
    /* "-": standard output; else a new file or a regular one, replaced
       whole (written aside, then renamed); anything else is refused */
    FILE *out = stdout;
    OutFile of;
    char why[512];
    if (strcmp(out_path, "-")) {
        if (!outfile_begin(&of, out_path, why, sizeof why)) {
            fprintf(stderr, "texel: %s\n", why);
            goto out;
        }
        out = of.f;
    }
    bool written = weights_write(out, &params, comment);
    if (out != stdout) {
        if (!written) {
            fprintf(stderr, "texel: cannot write %s\n", out_path);
            outfile_abort(&of);
            goto out;
        }
        if (!outfile_commit(&of, why, sizeof why)) {
            fprintf(stderr, "texel: %s\n", why);
            goto out;
        }
        fprintf(stderr, "texel: wrote %s\n", out_path);
    } else if (!written || fflush(stdout)) {
        fprintf(stderr, "texel: cannot write the output\n");
        goto out;
    }
    status = 0;
out:
    texel_data_free(d);
    return status;
}
