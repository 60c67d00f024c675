/* The command line: bad arguments refused with the usage, --help and
 * --version, and the tools' outputs written only to new or regular files. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pipe.h"
#include "tests.h"

/* ---- the command line ---- */

/* Bad arguments: the usage on standard error, nothing on standard output,
 * status 2, and nothing done (no book written). */
static void test_cli_bad_arguments(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "perft --suite tests/data/perft.txt --max-nodes -5",
        "perft --suite tests/data/perft.txt --max-nodes",
        "perft --suite tests/data/perft.txt --max-nodes x",
        "perft --suite tests/data/perft.txt junk",
        "perft --suite",
        "perft 0",
        "bench 3 --rule nope",
        "bench --rule",
        "bench 3 4",
        "book build -o /tmp/chuhan-cli-test.book --min-score nan tests/data/ccpd-master-games.pgn.zst",
        "book build -o /tmp/chuhan-cli-test.book --min-score 2 tests/data/ccpd-master-games.pgn.zst",
        "book build -o /tmp/chuhan-cli-test.book --max-ply -1 tests/data/ccpd-master-games.pgn.zst",
        "book build -o /tmp/chuhan-cli-test.book --min-score",
        "book probe --book",
        "perft 3 nofen",
        "judge --rule nope startpos",
        "judge --repeats x startpos",
        "magics x",
        "magics 1 2",
        "pgn convert --to nope x",
        "texel --nope",
        "texel --epochs x y",
        "tune --nope",
        "match --games x",
        "match --nope",
        "smp 2 x",
        "soak --games x",
    };
    char cmd[1024], out[4096];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        unlink("/tmp/chuhan-cli-test.book");
        snprintf(cmd, sizeof cmd, "{ %s %s 2>/dev/null; }", test_engine_path(), bad[i]);
        int status = test_run(cmd, out, sizeof out);
        if (status != 2 || out[0])
            fail_msg("'%s': status %d, standard output '%.300s'", bad[i], status, out);
        snprintf(cmd, sizeof cmd, "{ %s %s 2>&1 >/dev/null; }", test_engine_path(), bad[i]);
        test_run(cmd, out, sizeof out);
        if (!strstr(out, "usage: chuhan"))
            fail_msg("'%s': no usage on standard error: '%.300s'", bad[i], out);
        if (access("/tmp/chuhan-cli-test.book", F_OK) == 0)
            fail_msg("'%s' wrote a book", bad[i]);
    }
}

/* Bad arguments to every tool (each reads them with the one reader,
 * engine/util/args.h), and an unknown command: the first line on standard
 * error is the reason, naming the word; nothing on standard output,
 * status 2, no file. */
static void test_cli_bad_argument_reasons(void **state)
{
    (void)state;
    static const char *const OUT = "/tmp/chuhan-cli-args.out";
    static const struct {
        const char *args, *first_line;
    } bad[] = {
        {"train --data x --out %s --epochs -1", "train: --epochs: '-1' is not a number from 1 to 100000"},
        {"train --data x --out %s --lr nan", "train: --lr: 'nan' is not a number from 1e-07 to 1"},
        {"train --data x --out %s --lambda 2", "train: --lambda: '2' is not a number from 0 to 1"},
        {"train --data x --out %s --batch 0", "train: --batch: '0' is not a number from 1 to 16777216"},
        {"train --data x --out %s --validation 1.5", "train: --validation: '1.5' is not a number from 0 to 0.5"},
        {"train --data x --out %s --threads 1e3", "train: --threads: '1e3' is not a number from 1 to 256"},
        {"train --data x --out %s --bogus 1", "train: unknown option '--bogus'"},
        {"train --data x --out %s --seed", "train: --seed needs a value"},
        {"train --data x", "train: --out is required"},
        {"datagen --out %s --threads 100000", "datagen: --threads: '100000' is not a number from 1 to 1024"},
        {"datagen --out %s --positions -1", "datagen: --positions: '-1' is not a number from 0 to 1000000000"},
        {"datagen --out %s --nodes nan", "datagen: --nodes: 'nan' is not a number from 1 to 1000000000"},
        {"datagen --out %s --threads 0", "datagen: --threads: '0' is not a number from 1 to 1024"},
        {"datagen --out %s --max-plies abc", "datagen: --max-plies: 'abc' is not a number from 1 to 4096"},
        {"datagen --out %s --seed -1", "datagen: --seed: '-1' is not a number from 0 to 18446744073709551615"},
        {"datagen --out %s --frob", "datagen: unknown option '--frob'"},
        {"datagen --out %s extra", "datagen: unexpected argument 'extra'"},
        {"datagen --out", "datagen: --out needs a value"},
        {"datagen --pgn x --out %s --book-plies 3", "datagen --pgn: unknown option '--book-plies'"},
        {"datagen --pgn x --out %s --skip-plies -1", "datagen --pgn: --skip-plies: '-1' is not a number from 0 to 4096"},
        {"datagen --out %s --skip-plies 3", "datagen: unknown option '--skip-plies'"},
        {"datagen --out %s --pgn", "datagen --pgn: --pgn needs a value"},
        {"eval --nets x", "eval: unknown option '--nets'"},
        {"eval --net", "eval: --net needs a value"},
        {"book build -o %s --min-score nan x.pgn", "book build: --min-score: 'nan' is not a number from 0 to 1"},
        {"book build -o %s --max-ply 0x10 x.pgn", "book build: --max-ply: '0x10' is not a number from 1 to 4096"},
        {"book build -o %s --encoding latin1 x.pgn",
         "book build: --encoding: 'latin1' is not an encoding: auto, utf-8, gbk or big5"},
        {"book build -o %s --frob x.pgn", "book build: unknown option '--frob'"},
        {"book build -o", "book build: -o needs a value"},
        {"book probe --book", "book probe: --book needs a value"},
        {"book probe --frob startpos", "book probe: unknown option '--frob'"},
        {"book frob", "book: unknown command 'frob' (build or probe)"},
        {"texel -o %s --epochs x y.pgn", "texel: --epochs: 'x' is not a number from 0 to 10000000"},
        {"texel -o %s --keep inf y.pgn", "texel: --keep: 'inf' is not a number from 1e-09 to 1"},
        {"texel -o %s --nope y.pgn", "texel: unknown option '--nope'"},
        {"texel -o %s y.pgn --from", "texel: --from needs a value"},
        {"tune -o %s --nope y.pgn", "texel: unknown option '--nope'"}, /* texel's old name */
        {"frobnicate", "chuhan: unknown command 'frobnicate'"},
        {"bench 3 --rule nope", "bench: --rule: 'nope' is not a rule: cxa, axf or draw"},
        {"bench 65", "bench: DEPTH: '65' is not a number from 1 to 64"},
        {"perft 0", "perft: DEPTH: '0' is not a number from 1 to 20"},
        {"perft --suite tests/data/perft.txt --max-nodes x", "perft: --max-nodes: 'x' is not a number from 0 to "
                                                             "18446744073709551615"},
        {"smp 2 x", "smp: MS: 'x' is not a number from 50 to 600000"},
        {"matebench --nodes 0", "matebench: --nodes: '0' is not a number from 1 to 18446744073709551615"},
        {"wdl --svg %s --every 0 x.pgn", "wdl: --every: '0' is not a number from 1 to 1000"},
        {"wdl --svg %s --nope x.pgn", "wdl: unknown option '--nope'"},
        {"analyze --output %s --time nan x.pgn", "analyze: --time: 'nan' is not a number from 1 to 86400000"},
        {"analyze --output %s --depth -1 x.pgn", "analyze: --depth: '-1' is not a number from 1 to 200"},
        {"analyze --output %s --multipv 9 x.pgn", "analyze: --multipv: '9' is not a number from 1 to 8"},
        {"analyze --output %s --nodes 0 x.pgn", "analyze: --nodes: '0' is not a number from 1 to 18446744073709551615"},
        {"analyze --output %s --frob x.pgn", "analyze: unknown option '--frob'"},
        {"analyze x.pgn --output", "analyze: --output needs a value"},
        {"analyze --output %s --time 5 --depth 3 x.pgn", "analyze: give one of --time, --depth, --nodes"},
        {"soak --games nan", "soak: --games: 'nan' is not a number from 1 to 100000000"},
        {"soak --threads -1", "soak: --threads: '-1' is not a number from 1 to 1024"},
        {"soak --hang 99", "soak: --hang: '99' is not a number from 100 to 100000000"},
        {"soak --tc inf", "soak: --tc: 'inf' is not BASE[+INC] in seconds (BASE from 0.001, both at most 1000000)"},
        {"soak --frob", "soak: unknown option '--frob'"},
        {"soak --engine", "soak: --engine needs a value"},
        {"spsa --out %s --iterations nan", "spsa: --iterations: 'nan' is not a number from 1 to 100000000"},
        {"spsa --out %s --pairs -1", "spsa: --pairs: '-1' is not a number from 1 to 100000"},
        {"spsa --out %s --rate 1001", "spsa: --rate: '1001' is not a number from 1e-06 to 1000"},
        {"spsa --out %s --frob", "spsa: unknown option '--frob'"},
        {"spsa --out %s --every", "spsa: --every needs a value"},
        {"spsa --out %s --games 4", "spsa: --games: not an spsa option (--pairs sets the games of an iteration)"},
        {"judge --repeats nan startpos", "judge: --repeats: 'nan' is not a number from 2 to 100"},
        {"judge --repeats 101 startpos", "judge: --repeats: '101' is not a number from 2 to 100"},
        {"judge --sixty -1 startpos", "judge: --sixty: '-1' is not a number from 0 to 100000"},
        {"judge --rule nope startpos", "judge: --rule: 'nope' is not a rule: cxa, axf or draw"},
        {"judge --frob startpos", "judge: unknown option '--frob'"},
        {"judge startpos --rule", "judge: --rule needs a value"},
        {"pgn convert --to nope x.pgn",
         "pgn convert: --to: 'nope' is not a notation: uci, iccs, wxf, chinese, chinese-simplified or san"},
        {"pgn check --encoding nan x.pgn", "pgn check: --encoding: 'nan' is not an encoding: auto, utf-8, gbk or big5"},
        {"pgn check --to iccs x.pgn", "pgn check: unknown option '--to'"},
        {"pgn convert x.pgn --encoding", "pgn convert: --encoding needs a value"},
        {"pgn convert x.pgn", "pgn convert: --to is required"},
        {"pgn frob", "pgn: unknown command 'frob' (convert or check)"},
        {"magics nan", "magics: SEED: 'nan' is not a number from 0 to 18446744073709551615"},
        {"magics -1", "magics: SEED: '-1' is not a number from 0 to 18446744073709551615"},
        {"magics 18446744073709551616", "magics: SEED: '18446744073709551616' is not a number from 0 to "
                                        "18446744073709551615"},
        {"magics --frob", "magics: unknown option '--frob'"},
        {"magics 1 2", "magics: too many arguments (at most 1): '2'"},
        {"match --pgn %s --games nan", "match: --games: 'nan' is not a number from 1 to 100000000"},
        {"match --pgn %s --games -1", "match: --games: '-1' is not a number from 1 to 100000000"},
        {"match --pgn %s --concurrency 257", "match: --concurrency: '257' is not a number from 1 to 256"},
        {"match --pgn %s --frob", "match: unknown option '--frob'"},
        {"match --pgn", "match: --pgn needs a value"},
        {"match --pgn %s --engine", "match: --engine needs a value"},
        {"match --pgn %s --sprt elo0=nan", "match: --sprt: expected key=number, not 'elo0=nan'"},
        {"match --pgn %s --engine cmd=a --engine cmd=b --each depth=1 --games 2 3", "match: unexpected argument '3'"},
        {"match --pgn %s --engine cmd=a --engine cmd=b --each depth=0",
         "match: --each: depth must be a number from 1, not '0'"},
        {"match --resume --engine cmd=a --engine cmd=b --each depth=1", "match: --resume goes on from the --pgn file: name one"},
    };
    char args[512], cmd[1024], out[8192];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        unlink(OUT);
        snprintf(args, sizeof args, bad[i].args, OUT);
        snprintf(cmd, sizeof cmd, "{ %s %s 2>/dev/null; }", test_engine_path(), args);
        int status = test_run(cmd, out, sizeof out);
        if (status != 2 || out[0])
            fail_msg("'%s': status %d, standard output '%.300s'", args, status, out);
        snprintf(cmd, sizeof cmd, "{ %s %s 2>&1 >/dev/null; }", test_engine_path(), args);
        test_run(cmd, out, sizeof out);
        size_t n = strlen(bad[i].first_line);
        if (strncmp(out, bad[i].first_line, n) || out[n] != '\n')
            fail_msg("'%s': standard error begins '%.300s', not '%s'", args, out, bad[i].first_line);
        if (!strstr(out + n, "usage: chuhan"))
            fail_msg("'%s': no usage after the reason: '%.300s'", args, out);
        if (access(OUT, F_OK) == 0)
            fail_msg("'%s' wrote %s", args, OUT);
    }
}

/* --help lists every command on standard output, status 0; --version
 * names the release, the build's ARCH and the system. */
static void test_cli_help_and_version(void **state)
{
    (void)state;
    static const char *const commands[] = {"perft", "bench", "smp", "magics", "judge", "book", "pgn", "match", "texel",
                                           "tune",  "soak", "matebench", "analyze", "wdl", "eval", "datagen", "train", "--version"};
    char cmd[1024], out[8192];
    snprintf(cmd, sizeof cmd, "{ %s --help 2>/dev/null; }", test_engine_path());
    assert_int_equal(test_run(cmd, out, sizeof out), 0);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        char want[64];
        snprintf(want, sizeof want, "chuhan %s", commands[i]);
        if (!strstr(out, want))
            fail_msg("--help does not list '%s': '%.2000s'", want, out);
    }
    snprintf(cmd, sizeof cmd, "{ %s --version 2>/dev/null; }", test_engine_path());
    assert_int_equal(test_run(cmd, out, sizeof out), 0);
    if (strncmp(out, "Chuhan 0.", 9) || !strstr(out, ", Linux)\n"))
        fail_msg("--version: '%s'", out);
}

/* The tools write only a new file or a regular one: a device, a FIFO, a
 * directory or a symbolic link named as the output (book build, texel,
 * datagen, train, analyze, match --pgn, the Debug Log File option) is refused with the reason and left as it
 * was (book build -o /dev/null once replaced the device with a file). */
static void test_outputs_only_regular_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/chuhan-out-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char fifo[128], link[128], target[128], sub[128], fresh[128], regular[128], cmd[2048], out[4096];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(link, sizeof link, "%s/link", dir);
    snprintf(target, sizeof target, "%s/target", dir);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    snprintf(fresh, sizeof fresh, "%s/new.book", dir);
    snprintf(regular, sizeof regular, "%s/old.book", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    FILE *f = fopen(target, "w");
    assert_non_null(f);
    fputs("keep\n", f);
    fclose(f);
    assert_int_equal(symlink(target, link), 0);
    assert_int_equal(mkdir(sub, 0700), 0);
    f = fopen(regular, "w");
    assert_non_null(f);
    fputs("old\n", f);
    fclose(f);
    const char *refused[] = {"/dev/null", fifo, link, sub};
    const char *pgn = test_data_path("ccpd-master-games.pgn.zst");
    for (size_t i = 0; i < 4; i++) {
        static const char *const tools[] = {"book build --max-ply 2 -o %s %s", "texel --epochs 1 -o %s %s",
                                            "datagen --positions 10 --threads 1 --out %s", "train --data %2$s --out %1$s"};
        for (size_t t = 0; t < 4; t++) {
            char args[600];
            snprintf(args, sizeof args, tools[t], refused[i], pgn);
            /* at once: a tool that waited on the FIFO would be stopped by timeout */
            snprintf(cmd, sizeof cmd, "timeout %d %s %s", 60 * ep_slow(), test_engine_path(), args);
            int status = test_run(cmd, out, sizeof out);
            if (status == 0 || !strstr(out, "refused"))
                fail_msg("'%s': status %d, '%.500s'", args, status, out);
        }
    }
    /* analyze --output to a FIFO: refused */
    snprintf(cmd, sizeof cmd, "%s analyze --depth 1 --output %s %s", test_engine_path(), fifo, pgn);
    if (test_run(cmd, out, sizeof out) == 0 || !strstr(out, "refused"))
        fail_msg("analyze --output to a FIFO: '%.500s'", out);
    /* the Debug Log File option on a device, a FIFO, a link: refused with an info string */
    snprintf(cmd, sizeof cmd,
             "printf 'uci\nsetoption name Debug Log File value /dev/null\nsetoption name Debug Log File value %s\n"
             "setoption name Debug Log File value %s\nisready\n' | %s",
             fifo, link, test_engine_path());
    test_run(cmd, out, sizeof out);
    char *p = out;
    for (int k = 0; k < 3; k++, p++)
        if (!(p = strstr(p, "info string Debug Log File: ")) || !strstr(p, "refused"))
            fail_msg("Debug Log File on a device, a FIFO or a link: not refused:\n%.1500s", out);
    /* match --pgn to a link: refused before any game */
    snprintf(cmd, sizeof cmd, "%s match --engine cmd=%s --engine cmd=%s --each depth=1 --games 2 --pgn %s",
             test_engine_path(), test_engine_path(), test_engine_path(), link);
    if (test_run(cmd, out, sizeof out) == 0 || !strstr(out, "refused"))
        fail_msg("match --pgn to a symbolic link: '%.500s'", out);
    /* each left as it was */
    struct stat st;
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(lstat(sub, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    f = fopen(target, "r");
    assert_non_null(f);
    assert_non_null(fgets(out, sizeof out, f));
    fclose(f);
    assert_string_equal(out, "keep\n");
    /* a new path and a regular file are written (the latter replaced whole) */
    const char *good[] = {fresh, regular};
    for (size_t i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "%s book build --max-ply 2 -o %s %s", test_engine_path(), good[i], pgn);
        if (test_run(cmd, out, sizeof out) != 0)
            fail_msg("book build -o %s: '%.500s'", good[i], out);
        assert_int_equal(lstat(good[i], &st), 0);
        assert_true(S_ISREG(st.st_mode) && st.st_size > 100);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

const struct CMUnitTest *cli_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_help_and_version),
        cmocka_unit_test(test_cli_bad_arguments),
        cmocka_unit_test(test_cli_bad_argument_reasons),
        cmocka_unit_test(test_outputs_only_regular_files),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
