/* The neural evaluation: features and the lazy accumulator stack (see
 * nnue.h; the arithmetic is in nnue_kernels.c). */
#include "nnue.h"

#include <stdlib.h>
#include <string.h>

#include "engine/util/pages.h"

NnueNet *nnue_alloc(void)
{
    return pages_alloc(sizeof(NnueNet), false); /* zeroed, 64-byte aligned */
}

void nnue_free(NnueNet *net) { pages_free(net, sizeof *net); }

int nnue_king_orient(int p, int king_sq)
{
    int r = sq_rank(king_sq), f = sq_file(king_sq);
    if (p == BLACK)
        r = RANK_NB - 1 - r;
    /* a king outside its palace (no legal position has one) is taken to
     * the nearest palace point */
    r = r > 2 ? 2 : r;
    f = f < 3 ? 3 : f > 5 ? 5 : f;
    int mirror = f > 4;
    if (mirror)
        f = FILE_NB - 1 - f;
    return (r * 2 + (f - 3)) * 2 + mirror;
}

int nnue_features(const Position *pos, int p, int out[NNUE_MAX_ACTIVE])
{
    int orient = nnue_king_orient(p, pos->king_sq[p]), n = 0;
    BB_FOR_EACH(pos->occupied, s, {
        if (n < NNUE_MAX_ACTIVE)
            out[n++] = nnue_feature(p, orient, pos->board[s], s);
    });
    return n;
}

/* ---- evaluation ---- */

void nnue_refresh(const NnueNet *net, const Position *pos, int p, int16_t out[NNUE_HIDDEN], const NnueKernels *k)
{
    int f[NNUE_MAX_ACTIVE];
    int n = nnue_features(pos, p, f);
    k->update(out, net->ft_b, net->ft_w, f, n, NULL, 0);
}

int nnue_output(const NnueNet *net, const int16_t *us, const int16_t *them, int bucket, const NnueKernels *k)
{
    int64_t sum = net->activation == NNUE_SCRELU ? k->output_sq(us, them, net->out_w[bucket]) / NNUE_QA
                                                 : k->output(us, them, net->out_w[bucket]);
    int64_t v = (sum + net->out_b[bucket]) * NNUE_SCALE / (NNUE_QA * nnue_qb(net->activation));
    return v > NNUE_EVAL_MAX ? NNUE_EVAL_MAX : v < -NNUE_EVAL_MAX ? -NNUE_EVAL_MAX : (int)v;
}

int nnue_evaluate_full(const NnueNet *net, const Position *pos)
{
    alignas(64) int16_t acc[COLOR_NB][NNUE_HIDDEN];
    const NnueKernels *k = nnue_kernels();
    for (int p = 0; p < COLOR_NB; p++)
        nnue_refresh(net, pos, p, acc[p], k);
    return nnue_output(net, acc[pos->side], acc[!pos->side], nnue_out_bucket(pos), k);
}

void nnue_reset(NnueStack *s, const NnueNet *net, const Position *pos)
{
    s->net = net;
    s->k = nnue_kernels();
    s->top = 0;
    NnueAcc *a = &s->acc[0];
    a->n = 0;
    for (int p = 0; p < COLOR_NB; p++) {
        nnue_refresh(net, pos, p, a->v[p], s->k);
        a->computed[p] = 1;
        a->king_moved[p] = 0;
    }
}

void nnue_push(NnueStack *s, const Position *pos, Move m)
{
    NnueAcc *a = &s->acc[++s->top];
    int from = move_from(m), to = move_to(m), pc = pos->board[from], cap = pos->board[to];
    a->computed[RED] = a->computed[BLACK] = 0;
    a->king_moved[RED] = a->king_moved[BLACK] = 0;
    if (piece_type(pc) == KING)
        a->king_moved[piece_color(pc)] = 1;
    a->pc[0] = (uint8_t)pc, a->from[0] = (uint8_t)from, a->to[0] = (uint8_t)to;
    a->n = 1;
    if (cap != NO_PIECE) {
        a->pc[1] = (uint8_t)cap, a->from[1] = (uint8_t)to, a->to[1] = SQUARE_NB;
        a->n = 2;
    }
}

void nnue_push_null(NnueStack *s)
{
    NnueAcc *a = &s->acc[++s->top];
    a->computed[RED] = a->computed[BLACK] = 0;
    a->king_moved[RED] = a->king_moved[BLACK] = 0;
    a->n = 0;
}

const int16_t *nnue_accumulator(NnueStack *s, const Position *pos, int p)
{
    NnueAcc *top = &s->acc[s->top];
    if (top->computed[p])
        return top->v[p];
    /* the last computed ply, unless this side's king moved since */
    int i = s->top;
    while (!s->acc[i].computed[p]) {
        if (s->acc[i].king_moved[p] || i == 0) {
            nnue_refresh(s->net, pos, p, top->v[p], s->k);
            top->computed[p] = 1;
            return top->v[p];
        }
        i--;
    }
    /* the king has stood still since ply i: one orientation for all */
    int orient = nnue_king_orient(p, pos->king_sq[p]);
    for (int j = i + 1; j <= s->top; j++) {
        NnueAcc *a = &s->acc[j];
        int add[2], sub[2], na = 0, ns = 0;
        for (int c = 0; c < a->n; c++) {
            sub[ns++] = nnue_feature(p, orient, a->pc[c], a->from[c]);
            if (a->to[c] < SQUARE_NB)
                add[na++] = nnue_feature(p, orient, a->pc[c], a->to[c]);
        }
        s->k->update(a->v[p], s->acc[j - 1].v[p], s->net->ft_w, add, na, sub, ns);
        a->computed[p] = 1;
    }
    return top->v[p];
}

int nnue_evaluate(NnueStack *s, const Position *pos)
{
    const int16_t *us = nnue_accumulator(s, pos, pos->side);
    const int16_t *them = nnue_accumulator(s, pos, !pos->side);
    return nnue_output(s->net, us, them, nnue_out_bucket(pos), s->k);
}
