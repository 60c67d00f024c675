#include "perft.h"

#include <stdlib.h>
#include <string.h>

#include "engine/board/movegen.h"
#include "engine/util/args.h"
#include "engine/util/clock.h"
#include "engine/util/num.h"

static double now_seconds(void) { return (double)now_us() * 1e-6; }

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = 0;
    size_t k = strspn(s, " \t");
    memmove(s, s + k, strlen(s + k) + 1);
}

bool perft_parse_case(const char *line, PerftCase *pc, char *err, size_t errlen)
{
    char buf[1024];
    if (err && errlen)
        err[0] = 0;
    snprintf(buf, sizeof buf, "%s", line);
    trim(buf);
    if (!buf[0] || buf[0] == '#')
        return false;
    memset(pc, 0, sizeof *pc);
    int field = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ";", &save); tok; tok = strtok_r(NULL, ";", &save), field++) {
        trim(tok);
        if (field == 0) {
            snprintf(pc->fen, sizeof pc->fen, "%s", tok);
        } else if (tok[0] == 'D' && tok[1] >= '1' && tok[1] <= '9') {
            char *end;
            long d = strtol(tok + 1, &end, 10);
            if (d < 1 || d > 15 || *end != ' ') {
                snprintf(err, errlen, "bad depth field '%s'", tok);
                return false;
            }
            pc->expected[d] = strtoull(end + 1, NULL, 10);
            if (d > pc->max_depth)
                pc->max_depth = (int)d;
        } else if (!strncmp(tok, "id=", 3)) {
            snprintf(pc->id, sizeof pc->id, "%s", tok + 3);
        }
    }
    if (!pc->fen[0]) {
        snprintf(err, errlen, "no FEN");
        return false;
    }
    return true;
}

void perft_divide(Position *pos, int depth, FILE *out)
{
    double t0 = now_seconds();
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        char text[8];
        pos_do_move(pos, moves[i]);
        uint64_t count = perft(pos, depth - 1);
        pos_undo_move(pos);
        move_str(moves[i], text, false);
        fprintf(out, "%s: %llu\n", text, (unsigned long long)count);
        total += count;
    }
    double dt = now_seconds() - t0;
    fprintf(out, "\nnodes %llu\ntime %.3f s\nnps %.0f\n", (unsigned long long)total, dt,
            dt > 0 ? (double)total / dt : 0.0);
}

int perft_suite(const char *path, uint64_t max_nodes, FILE *out)
{
    FILE *f = fopen(path, "r");
    Position *pos = malloc(sizeof *pos);
    if (!f || !pos) {
        if (f)
            fclose(f);
        free(pos);
        return -1;
    }
    char line[1024], err[160];
    int bad = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        PerftCase pc;
        lineno++;
        if (!perft_parse_case(line, &pc, err, sizeof err)) {
            if (err[0]) {
                fprintf(out, "line %d: %s\n", lineno, err);
                bad++;
            }
            continue;
        }
        if (!pos_set_fen(pos, pc.fen, err, sizeof err)) {
            fprintf(out, "FAIL %s: bad FEN: %s\n", pc.id, err);
            bad++;
            continue;
        }
        for (int d = 1; d <= pc.max_depth; d++) {
            if (!pc.expected[d] || (max_nodes && pc.expected[d] > max_nodes))
                continue;
            double t0 = now_seconds();
            uint64_t got = perft(pos, d);
            double dt = now_seconds() - t0;
            bool ok = got == pc.expected[d];
            bad += !ok;
            fprintf(out, "%s %s depth %d: %llu (expected %llu) %.2f s\n", ok ? "ok  " : "FAIL", pc.id, d,
                    (unsigned long long)got, (unsigned long long)pc.expected[d], dt);
            fflush(out);
        }
    }
    fclose(f);
    free(pos);
    return bad;
}

static int perft_usage(const char *why)
{
    if (why && *why)
        fprintf(stderr, "%s\n", why);
    fprintf(stderr, "usage: chuhan perft DEPTH [FEN]\n"
                    "       chuhan perft --suite FILE [--max-nodes N]\n");
    return 2;
}

int perft_cli(int argc, char **argv)
{
    const char *suite = NULL;
    uint64_t max_nodes = 0;
    const ArgOption opts[] = {ARG_TEXT("--suite", &suite), ARG_U64("--max-nodes", &max_nodes, 0, UINT64_MAX)};
    /* DEPTH and the FEN's words, gathered at the front of argv, which they never overtake */
    const char **words = (const char **)argv;
    int nwords;
    const ArgSpec spec = {"perft", opts, sizeof opts / sizeof opts[0], words, argc};
    char why[ARGS_WHY_MAX];
    if (!args_read(&spec, argc, argv, &nwords, why, sizeof why))
        return perft_usage(why);
    if (suite) {
        if (nwords) {
            snprintf(why, sizeof why, "perft: --suite takes no DEPTH or FEN: '%.100s'", words[0]);
            return perft_usage(why);
        }
        int bad = perft_suite(suite, max_nodes, stdout);
        if (bad < 0) {
            fprintf(stderr, "perft: cannot read %s\n", suite);
            return 2;
        }
        printf("%s: %d mismatch%s\n", bad ? "FAILED" : "all match", bad, bad == 1 ? "" : "es");
        return bad ? 1 : 0;
    }
    if (max_nodes)
        return perft_usage("perft: --max-nodes goes with --suite");
    if (nwords < 1)
        return perft_usage(argc ? "perft: no DEPTH" : NULL);
    long depth;
    if (!num_parse(words[0], 1, 20, &depth)) {
        snprintf(why, sizeof why, "perft: DEPTH: '%.100s' is not a number from 1 to 20", words[0]);
        return perft_usage(why);
    }
    char fen[512] = START_FEN;
    if (nwords > 1) {
        fen[0] = 0;
        for (int i = 1; i < nwords; i++) {
            if (strlen(fen) + strlen(words[i]) + 2 > sizeof fen)
                break;
            if (i > 1)
                strcat(fen, " ");
            strcat(fen, words[i]);
        }
        if (!strcmp(fen, "startpos"))
            strcpy(fen, START_FEN);
    }
    Position *pos = malloc(sizeof *pos);
    char err[160];
    if (!pos || !pos_set_fen(pos, fen, err, sizeof err)) {
        if (!pos) {
            fprintf(stderr, "perft: out of memory\n");
            return 2;
        }
        snprintf(why, sizeof why, "perft: bad FEN: %s", err);
        free(pos);
        return perft_usage(why);
    }
    perft_divide(pos, (int)depth, stdout);
    free(pos);
    return 0;
}
