/* The helpers every layer shares (engine/util): the number parsers, the
 * random generator, the text cleaning, the child processes and the
 * command-line reader. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/util/args.h"
#include "engine/util/charset.h"
#include "engine/util/clock.h"
#include "engine/util/num.h"
#include "engine/util/proc.h"
#include "engine/util/text.h"
#include "tests.h"

/* num_clamp: every number clamped into range, nothing else accepted. */
static void test_num_clamp(void **state)
{
    (void)state;
    int64_t v = 0;
    assert_true(num_clamp("99999999999999999999999", 1, 100, &v));
    assert_int_equal(v, 100);
    assert_true(num_clamp("-99999999999999999999999", -7, 100, &v));
    assert_int_equal(v, -7);
    assert_true(num_clamp("+42", 0, 100, &v));
    assert_int_equal(v, 42);
    assert_true(num_clamp("9223372036854775807", 0, INT64_MAX, &v));
    assert_true(v == INT64_MAX);
    assert_true(num_clamp("-9223372036854775808", INT64_MIN, 0, &v));
    assert_true(v == INT64_MIN);
    static const char *const bad[] = {"", "-", "+", "1e3", "12x", " 5", "0x10", "--1", "5 ", "\xd9\xa3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (num_clamp(bad[i], 0, 100, &v))
            fail_msg("num_clamp accepts '%s'", bad[i]);
    assert_false(num_clamp(NULL, 0, 1, &v));
}

/* The strict parsers: the whole text one number in range (blanks around
 * it allowed), anything else refused and the output left alone. */
static void test_num_parse(void **state)
{
    (void)state;
    long v = -1;
    assert_true(num_parse("42", 0, 100, &v));
    assert_int_equal(v, 42);
    assert_true(num_parse(" -7 ", -10, 0, &v));
    assert_int_equal(v, -7);
    static const char *const bad[] = {"", " ", "101", "-1", "4x", "1e2", "0x10", "99999999999999999999", "1 2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = -1;
        if (num_parse(bad[i], 0, 100, &v) || v != -1)
            fail_msg("num_parse accepts '%s'", bad[i]);
    }
    assert_false(num_parse(NULL, 0, 1, &v));
    uint64_t u = 0;
    assert_true(num_parse_u64("18446744073709551615", &u));
    assert_true(u == UINT64_MAX);
    assert_false(num_parse_u64("18446744073709551616", &u));
    assert_false(num_parse_u64("-1", &u));
    assert_false(num_parse_u64("7s", &u));
    double d = 0;
    assert_true(num_parse_double("0.25", 0, 1, &d));
    assert_true(d == 0.25);
    assert_false(num_parse_double("1.5", 0, 1, &d));
    assert_false(num_parse_double("nan", 0, 1, &d));
    assert_false(num_parse_double(".5x", 0, 1, &d));
}

/* SplitMix64 as published: the zobrist keys, and so the opening book,
 * depend on every bit of it. */
static void test_rng(void **state)
{
    (void)state;
    uint64_t s = 0;
    assert_true(rng_next(&s) == 0xE220A8397B1DCDAFULL);
    assert_true(rng_next(&s) == 0x6E789E6AA1B965F4ULL);
    assert_true(rng_next(&s) == 0x06C45D188009454FULL);
    s = 7;
    for (int i = 0; i < 1000; i++) {
        double u = rng_unit(&s);
        assert_true(u >= 0 && u < 1);
        assert_true(rng_below(&s, 9) < 9);
    }
}

static void test_text_printable(void **state)
{
    (void)state;
    char buf[8];
    assert_string_equal(text_printable(buf, sizeof buf, "a\x1b[2Jb"), "a?[2Jb");
    assert_string_equal(text_printable(buf, sizeof buf, "line\nbreak"), "line?br");
    assert_string_equal(text_printable(buf, sizeof buf, "\x7f"), "?");
}

/* Lines too long for the reader, arriving whole or in pieces, one after
 * another: each is dropped whole, the lines around them come out, and
 * nothing is written past the line buffer (a line over PROC_LINE_MAX that
 * arrived whole was once copied into it). */
static void test_proc_lines_long(void **state)
{
    (void)state;
    static struct {
        ProcLines l;
        char guard[PROC_LINE_MAX];
    } r;
    static char stream[800000]; /* the lines below: about 736 kB */
    size_t len = 0;
    static const size_t longs[] = {70000, PROC_LINE_MAX + 1, 100000, 130000, 300000, 70000};
    len += (size_t)sprintf(stream + len, "first\n");
    for (size_t k = 0; k < sizeof longs / sizeof longs[0]; k++) {
        memset(stream + len, 'a' + (int)k, longs[k]);
        len += longs[k];
        len += (size_t)sprintf(stream + len, "\nkept %zu\r\n", k);
    }
    /* read in pieces of every size: whole at once, as a pipe gives them (64 kB), small */
    static const size_t pieces[] = {sizeof stream, 65536, 70001, 4096, 7};
    for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
        proc_lines_reset(&r.l);
        memset(r.guard, 0x5a, sizeof r.guard);
        size_t fed = 0;
        int got = 0;
        char want[32];
        for (;;) {
            while (proc_lines_next(&r.l)) {
                if (got == 0)
                    snprintf(want, sizeof want, "first");
                else
                    snprintf(want, sizeof want, "kept %d", got - 1);
                if (strcmp(r.l.line, want))
                    fail_msg("pieces of %zu: line %d is '%.40s', not '%s'", pieces[p], got, r.l.line, want);
                got++;
            }
            if (fed == len)
                break;
            size_t room;
            char *at = proc_lines_room(&r.l, &room);
            assert_true(room > 0);
            size_t n = len - fed < room ? len - fed : room;
            n = n < pieces[p] ? n : pieces[p];
            memcpy(at, stream + fed, n);
            proc_lines_added(&r.l, n);
            fed += n;
        }
        assert_int_equal(got, 1 + (int)(sizeof longs / sizeof longs[0]));
        for (size_t i = 0; i < sizeof r.guard; i++)
            if (r.guard[i] != 0x5a)
                fail_msg("pieces of %zu: the reader wrote %zu bytes past its line buffer", pieces[p], i + 1);
    }
}

/* A child process: lines within their deadline, a line too long dropped
 * whole, a silent child timed out, its end seen, how it ended. */
static void test_proc(void **state)
{
    (void)state;
    static Proc p;
    char err[256], text[64];
    const char *argv[] = {"/bin/sh", "-c",
                          "echo one; head -c 70000 /dev/zero | tr '\\0' x; echo; printf 'two\\r\\n';"
                          " read line; echo \"got $line\"; sleep 30",
                          NULL};
    if (!proc_start(&p, argv, err, sizeof err))
        fail_msg("%s", err);
    int64_t soon = now_ms() + 5000;
    assert_int_equal(proc_read_line(&p, soon), 1);
    assert_string_equal(p.out.line, "one");
    assert_int_equal(proc_read_line(&p, soon), 1); /* the long line is gone */
    assert_string_equal(p.out.line, "two");
    assert_int_equal(proc_read_line(&p, now_ms() + 100), 0); /* it waits for us */
    assert_true(proc_write(&p, "hello\n", 6, 1000));
    assert_int_equal(proc_read_line(&p, soon), 1);
    assert_string_equal(p.out.line, "got hello");
    assert_false(proc_wait(&p, now_ms() + 50)); /* it sleeps */
    proc_kill(&p);
    assert_false(proc_alive(&p));
    assert_string_equal(proc_exit_text(&p, text, sizeof text), "killed by signal 9");

    const char *quick[] = {"/bin/sh", "-c", "exit 3", NULL};
    assert_true(proc_start(&p, quick, err, sizeof err));
    assert_int_equal(proc_read_line(&p, now_ms() + 5000), -1);
    assert_true(proc_wait(&p, now_ms() + 5000));
    assert_string_equal(proc_exit_text(&p, text, sizeof text), "exit status 3");
    assert_false(proc_write(&p, "x\n", 2, 100));

    /* a program that is not there is refused, with the reason */
    const char *none[] = {"/nonexistent/engine", NULL};
    err[0] = 0;
    assert_false(proc_start(&p, none, err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/engine"));
}

/* GBK and Big5 to UTF-8 (iconv here; the Windows code pages are checked
 * against the same records by make test-windows): 炮 and a bad byte. */
static void test_charset(void **state)
{
    (void)state;
    static const struct {
        Charset cs;
        const char *in;
    } cases[] = {{CHARSET_GBK, "a\xC5\xDA" "b"}, {CHARSET_BIG5, "a\xAC\xB6" "b"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CharsetConv *c = charset_open(cases[i].cs, 0);
        assert_non_null(c);
        char buf[16] = {0}, *o = buf;
        const char *in = cases[i].in;
        size_t left = strlen(in), room = sizeof buf - 1;
        assert_int_equal(charset_decode(c, &in, &left, &o, &room), CHARSET_DONE);
        assert_string_equal(buf, "a\xE7\x82\xAE" "b");
        /* a lead byte with no second byte: bad, where it stands */
        in = "x\xC5";
        left = 2, o = buf, room = sizeof buf - 1;
        assert_int_equal(charset_decode(c, &in, &left, &o, &room), CHARSET_BAD);
        assert_int_equal(left, 1);
        /* no room: full, nothing lost */
        in = cases[i].in, left = strlen(in), o = buf, room = 2;
        assert_int_equal(charset_decode(c, &in, &left, &o, &room), CHARSET_FULL);
        assert_int_equal(left, 3);
        charset_close(c);
    }
}

static bool parse_color(const char *text, void *dest)
{
    if (strcmp(text, "red") && strcmp(text, "black"))
        return false;
    *(int *)dest = text[0] == 'r' ? 1 : 2;
    return true;
}

/* The words of "--w": kept, unless one is "bad". */
typedef struct {
    const char *const *w;
    int n, uses;
} WordsSeen;

static bool take_words(const char *const *w, int n, void *dest, char *why, size_t len)
{
    WordsSeen *seen = dest;
    for (int i = 0; i < n; i++)
        if (!strcmp(w[i], "bad")) {
            snprintf(why, len, "word %d is bad", i + 1);
            return false;
        }
    seen->w = w;
    seen->n = n;
    seen->uses++;
    return true;
}

/* The values and words one command line gives the table below; false
 * with the reason in why. */
typedef struct {
    long n;
    uint64_t u;
    double x;
    const char *s;
    bool flag;
    const char *list[2];
    int nlist;
    int color;
    WordsSeen words;
    const char *rest[3];
    int nrest;
} ArgsSeen;

static bool read_line(const char *line, ArgsSeen *seen, char *why, size_t len)
{
    static char buf[512];
    char *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", line);
    /* words split at '|', so that a word may be empty or hold blanks */
    for (char *p = buf; *buf && argc < 32;) {
        argv[argc++] = p;
        char *bar = strchr(p, '|');
        if (!bar)
            break;
        *bar = 0;
        p = bar + 1;
    }
    memset(seen, 0, sizeof *seen);
    seen->n = -1;
    seen->x = -1;
    const ArgOption opts[] = {
        ARG_LONG("--n", &seen->n, 1, 10),
        ARG_U64("--u", &seen->u, 0, UINT64_MAX),
        ARG_DOUBLE("--x", &seen->x, 0, 0.5),
        ARG_TEXT("-s", &seen->s),
        ARG_FLAG("--flag", &seen->flag, true),
        ARG_LIST("--list", seen->list, &seen->nlist, 2),
        ARG_CUSTOM("--color", &seen->color, parse_color, "a color: red or black"),
        ARG_WORDS("--w", &seen->words, 1, take_words),
    };
    const ArgSpec spec = {"t", opts, sizeof opts / sizeof opts[0], seen->rest, 3};
    return args_read(&spec, argc, argv, &seen->nrest, why, len);
}

/* args_read: each kind of value, within its range and in decimal only,
 * and every refusal with its reason. */
static void test_args(void **state)
{
    (void)state;
    ArgsSeen a;
    char why[ARGS_WHY_MAX];
    assert_true(read_line("--n|10|--u|18446744073709551615|--x|0.5|-s||--flag|--list|a|--list|b|--color|black|"
                          "f1|-|-5",
                          &a, why, sizeof why));
    assert_int_equal(a.n, 10);
    assert_true(a.u == UINT64_MAX);
    assert_true(a.x == 0.5);
    assert_string_equal(a.s, "");
    assert_true(a.flag);
    assert_int_equal(a.nlist, 2);
    assert_string_equal(a.list[1], "b");
    assert_int_equal(a.color, 2);
    assert_int_equal(a.nrest, 3);
    assert_string_equal(a.rest[0], "f1");
    assert_string_equal(a.rest[1], "-");
    assert_string_equal(a.rest[2], "-5");
    /* blanks around a number, an exponent, a value that looks like an option */
    assert_true(read_line("--n| 7 |--x|5e-1|--u|3|-s|--n", &a, why, sizeof why));
    assert_true(a.n == 7 && a.x == 0.5 && a.u == 3);
    assert_string_equal(a.s, "--n");
    /* after "--", words only */
    assert_true(read_line("--|--n|-x", &a, why, sizeof why));
    assert_int_equal(a.nrest, 2);
    assert_string_equal(a.rest[0], "--n");
    assert_true(a.n == -1);
    assert_true(read_line("", &a, why, sizeof why));
    assert_int_equal(a.nrest, 0);
    /* several words: up to the next one that begins with "--" ("-x" and "-" are words) */
    assert_true(read_line("--w|k=v|-x|-|--n|3|f|--w|one|--|g", &a, why, sizeof why));
    assert_int_equal(a.words.uses, 2);
    assert_int_equal(a.words.n, 1);
    assert_string_equal(a.words.w[0], "one");
    assert_true(a.n == 3 && a.nrest == 2);
    assert_string_equal(a.rest[0], "f");
    assert_string_equal(a.rest[1], "g");
    assert_true(read_line("--w|a|b|c", &a, why, sizeof why));
    assert_true(a.words.n == 3 && !strcmp(a.words.w[2], "c"));

    static const struct {
        const char *line, *why;
    } bad[] = {
        {"--n|0", "t: --n: '0' is not a number from 1 to 10"},
        {"--n|11", "t: --n: '11' is not a number from 1 to 10"},
        {"--n|-1", "t: --n: '-1' is not a number from 1 to 10"},
        {"--n|", "t: --n: '' is not a number from 1 to 10"},
        {"--n|5x", "t: --n: '5x' is not a number from 1 to 10"},
        {"--n|0x5", "t: --n: '0x5' is not a number from 1 to 10"},
        {"--n|2.0", "t: --n: '2.0' is not a number from 1 to 10"},
        {"--n|99999999999999999999999", "t: --n: '99999999999999999999999' is not a number from 1 to 10"},
        {"--u|-1", "t: --u: '-1' is not a number from 0 to 18446744073709551615"},
        {"--u|18446744073709551616", "t: --u: '18446744073709551616' is not a number from 0 to 18446744073709551615"},
        {"--u|0x10", "t: --u: '0x10' is not a number from 0 to 18446744073709551615"},
        {"--x|nan", "t: --x: 'nan' is not a number from 0 to 0.5"},
        {"--x|NAN", "t: --x: 'NAN' is not a number from 0 to 0.5"},
        {"--x|inf", "t: --x: 'inf' is not a number from 0 to 0.5"},
        {"--x|-inf", "t: --x: '-inf' is not a number from 0 to 0.5"},
        {"--x|1e999", "t: --x: '1e999' is not a number from 0 to 0.5"},
        {"--x|0x0.1", "t: --x: '0x0.1' is not a number from 0 to 0.5"},
        {"--x|0.6", "t: --x: '0.6' is not a number from 0 to 0.5"},
        {"--x|-0.1", "t: --x: '-0.1' is not a number from 0 to 0.5"},
        {"--x|0.1abc", "t: --x: '0.1abc' is not a number from 0 to 0.5"},
        {"--x|", "t: --x: '' is not a number from 0 to 0.5"},
        {"--x|.", "t: --x: '.' is not a number from 0 to 0.5"},
        {"--color|green", "t: --color: 'green' is not a color: red or black"},
        {"--list|a|--list|b|--list|c", "t: --list: at most 2"},
        {"--n", "t: --n needs a value"},
        {"--flag|-s", "t: -s needs a value"},
        {"--nope", "t: unknown option '--nope'"},
        {"-q|1", "t: unknown option '-q'"},
        {"--n=5", "t: unknown option '--n=5'"},
        {"a|b|c|d", "t: too many arguments (at most 3): 'd'"},
        {"--w", "t: --w needs a value"},
        {"--w|--n|1", "t: --w needs a value"},
        {"--w|a|bad", "t: --w: word 2 is bad"},
        {"--help", ""},
        {"--n|5|-h", ""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        strcpy(why, "unset");
        if (read_line(bad[i].line, &a, why, sizeof why))
            fail_msg("'%s' accepted", bad[i].line);
        if (strcmp(why, bad[i].why))
            fail_msg("'%s': '%s', not '%s'", bad[i].line, why, bad[i].why);
    }
    /* no other words allowed: said so */
    const ArgSpec none = {"t", NULL, 0, NULL, 0};
    char *one[] = {"x"};
    assert_false(args_read(&none, 1, one, NULL, why, sizeof why));
    assert_string_equal(why, "t: unexpected argument 'x'");
}

const struct CMUnitTest *util_tests(size_t *count)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_num_clamp),
        cmocka_unit_test(test_num_parse),
        cmocka_unit_test(test_rng),
        cmocka_unit_test(test_text_printable),
        cmocka_unit_test(test_proc_lines_long),
        cmocka_unit_test(test_proc),
        cmocka_unit_test(test_charset),
        cmocka_unit_test(test_args),
    };
    *count = sizeof tests / sizeof tests[0];
    return tests;
}
