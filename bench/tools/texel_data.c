/* The tuner's data: every quiet position of a record (not in check, no
 * capture that wins material by SEE for the side to move), past the book
 * phase, traced once: the coefficients of the weights (Red's count minus
 * Black's), the phase and the win scales.  Mirror-image psqt points share
 * one weight when opt.symmetric, so a position holds one (weight index,
 * coefficient) pair per weight it touches: about 50, 3 bytes each. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine/board/movegen.h"
#include "engine/util/error.h"
#include "engine/util/rng.h"
#include "eval/eval.h"
#include "texel_private.h"

void texel_options_default(TexelOptions *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->skip_plies = 16;
    opt->keep = 1.0;
    opt->validation = 0.1;
    opt->encoding = PGN_ENC_AUTO;
    opt->epochs = 400;
    opt->lr = 1.0;
    opt->symmetric = true;
    opt->fit_material = true;
    opt->threads = 1;
    opt->seed = 1;
    opt->report_every = 25;
}

static int mirror_sq(int s) { return make_square(FILE_NB - 1 - sq_file(s), sq_rank(s)); }

static void build_param_map(TexelData *d)
{
    const int psqt0 = (int)(offsetof(EvalParams, psqt) / sizeof(Score));
    const int pv0 = (int)(offsetof(EvalParams, piece_value) / sizeof(Score));
    int n = 0;
    for (int i = 0; i < EVAL_PARAM_SLOTS; i++)
        d->slot_param[i] = -1;
    for (int i = 0; i < EVAL_PARAM_SLOTS; i++) {
        if (i >= pv0 && i < pv0 + PIECE_TYPE_NB && !d->opt.fit_material)
            continue;
        if (d->opt.symmetric && i >= psqt0 && i < psqt0 + PIECE_TYPE_NB * SQUARE_NB) {
            int pt = (i - psqt0) / SQUARE_NB, s = (i - psqt0) % SQUARE_NB, m = mirror_sq(s);
            if (m < s) {
                d->slot_param[i] = d->slot_param[psqt0 + pt * SQUARE_NB + m];
                continue;
            }
        }
        d->slot_param[i] = (int16_t)n++;
    }
    d->nparams = n;
}

TexelData *texel_data_new(const TexelOptions *opt)
{
    TexelData *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->opt = *opt;
    build_param_map(d);
    return d;
}

void texel_data_free(TexelData *d)
{
    if (!d)
        return;
    free(d->set[0].v);
    free(d->set[1].v);
    free(d->idx);
    free(d->coef);
    free(d);
}

const TexelDataStats *texel_data_stats(const TexelData *d) { return &d->stats; }

int texel_data_weights(const TexelData *d, int *used)
{
    *used = 0;
    char *seen = calloc((size_t)d->nparams + 1, 1);
    if (seen) {
        for (size_t i = 0; i < d->ncoef; i++)
            seen[d->idx[i]] = 1;
        for (int p = 0; p < d->nparams; p++)
            *used += seen[p];
        free(seen);
    }
    return d->nparams * 2;
}

/* Quiet: not in check, and no capture that wins material for the mover. */
static bool is_quiet(const Position *pos)
{
    if (pos_in_check(pos))
        return false;
    Move caps[MAX_MOVES];
    int n = gen_captures(pos, caps);
    for (int i = 0; i < n; i++)
        if (pos_legal(pos, caps[i]) && pos_see_ge(pos, caps[i], 1))
            return false;
    return true;
}

static bool add_position(TexelData *d, const Position *pos, int result, bool validation)
{
    EvalTrace tr;
    evaluate_trace(pos, &DefaultEvalParams, &tr);
    int touched[EVAL_PARAM_SLOTS], nt = 0;
    for (int i = 0; i < EVAL_PARAM_SLOTS; i++) {
        int p = d->slot_param[i];
        if (tr.coef[i] == 0 || p < 0)
            continue;
        if (d->acc[p] == 0)
            touched[nt++] = p;
        d->acc[p] += tr.coef[i];
    }
    /* in parameter order, zero sums dropped */
    int count = 0;
    uint16_t idx[EVAL_PARAM_SLOTS];
    int8_t coef[EVAL_PARAM_SLOTS];
    bool ok = true;
    for (int k = 0; k < nt; k++) {
        int p = touched[k];
        if (d->acc[p] != 0) {
            if (d->acc[p] < -127 || d->acc[p] > 127)
                ok = false;
            idx[count] = (uint16_t)p;
            coef[count] = (int8_t)d->acc[p];
            count++;
        }
        d->acc[p] = 0;
    }
    if (!ok || count > 255)
        return true; /* cannot be stored compactly: never happens with this evaluation, skip it */
    if (d->ncoef + (size_t)count > UINT32_MAX)
        return false;
    if (d->ncoef + (size_t)count > d->capcoef) {
        size_t cap = d->capcoef ? d->capcoef * 2 : 1 << 20;
        while (cap < d->ncoef + (size_t)count)
            cap *= 2;
        uint16_t *ni = realloc(d->idx, cap * sizeof *ni);
        if (!ni)
            return false;
        d->idx = ni;
        int8_t *nc = realloc(d->coef, cap * sizeof *nc);
        if (!nc)
            return false;
        d->coef = nc;
        d->capcoef = cap;
    }
    PosSet *set = &d->set[validation];
    if (set->n == set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 1 << 16;
        TexelPos *nv = realloc(set->v, cap * sizeof *nv);
        if (!nv)
            return false;
        set->v = nv;
        set->cap = cap;
    }
    TexelPos *tp = &set->v[set->n++];
    tp->first = (uint32_t)d->ncoef;
    tp->count = (uint8_t)count;
    tp->phase = (uint8_t)tr.phase;
    tp->scale[RED] = (uint8_t)tr.scale[RED];
    tp->scale[BLACK] = (uint8_t)tr.scale[BLACK];
    tp->result = (uint8_t)result;
    memcpy(d->idx + d->ncoef, idx, (size_t)count * sizeof idx[0]);
    memcpy(d->coef + d->ncoef, coef, (size_t)count);
    d->ncoef += (size_t)count;
    if (validation)
        d->stats.validation++;
    else
        d->stats.train++;
    d->stats.bytes = d->capcoef * 3 + (d->set[0].cap + d->set[1].cap) * sizeof(TexelPos);
    return true;
}

static bool full(const TexelData *d)
{
    return d->opt.max_positions > 0 && d->stats.train + d->stats.validation >= d->opt.max_positions;
}

/* One record: its quiet positions past the book phase. */
static bool add_game(TexelData *d, const PgnGame *g, char *err, size_t errlen)
{
    long game_no = d->stats.games++;
    int n;
    char why[256];
    if (pgn_replay(g, &d->pos, d->moves, MAX_GAME_PLY, &n, why, sizeof why) != PGN_OK) {
        d->stats.games_rejected++;
        return true;
    }
    int r = pgn_result(g), result;
    if (r == PGN_RED_WINS)
        result = 2;
    else if (r == PGN_DRAW)
        result = 1;
    else if (r == PGN_BLACK_WINS)
        result = 0;
    else {
        d->stats.games_no_result++;
        return true;
    }
    uint64_t rng = d->opt.seed * 0x2545F4914F6CDD1DULL + (uint64_t)game_no;
    rng_next(&rng);
    bool validation = rng_unit(&rng) < d->opt.validation;
    const char *fen = pgn_tag(g, "FEN");
    if (!pos_set_fen(&d->pos, fen && *fen ? fen : START_FEN, why, sizeof why)) {
        d->stats.games_rejected++; /* cannot happen after a replay */
        return true;
    }
    for (int ply = 0; ply <= n && !full(d); ply++) {
        if (ply > 0)
            pos_do_move(&d->pos, d->moves[ply - 1]);
        d->stats.positions_seen++;
        if (ply < d->opt.skip_plies) {
            d->stats.skipped_book++;
            continue;
        }
        if (!is_quiet(&d->pos)) {
            d->stats.skipped_noisy++;
            continue;
        }
        if (d->opt.keep < 1.0 && rng_unit(&rng) >= d->opt.keep) {
            d->stats.skipped_sampling++;
            continue;
        }
        if (!add_position(d, &d->pos, result, validation))
            return err_set(err, errlen, "out of memory after %ld positions", d->stats.train + d->stats.validation);
    }
    return true;
}

bool texel_data_add_file(TexelData *d, const char *path, char *err, size_t errlen)
{
    PgnReader *r = pgn_open_file(path, d->opt.encoding, err, errlen);
    if (!r)
        return false;
    const PgnGame *g;
    int k = 0;
    char why[256];
    bool ok = true;
    while (!full(d) && (k = pgn_next(r, &g, why, sizeof why)) > 0) {
        if (!add_game(d, g, err, errlen)) {
            ok = false;
            break;
        }
        if (d->opt.progress && d->stats.games % 2000 == 0) {
            fprintf(d->opt.progress, "\rtexel: %s: %ld games, %ld positions", path, d->stats.games,
                    d->stats.train + d->stats.validation);
            fflush(d->opt.progress);
        }
    }
    if (ok && !full(d) && k < 0)
        ok = err_set(err, errlen, "%s: %s", path, why);
    if (d->opt.progress) {
        fprintf(d->opt.progress, "\rtexel: %s: %ld games, %ld positions\n", path, d->stats.games,
                d->stats.train + d->stats.validation);
        fflush(d->opt.progress);
    }
    pgn_close(r);
    return ok;
}
