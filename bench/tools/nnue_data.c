/* Training data records and files (see nnue_data.h). */
#include "nnue_data.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "engine/util/error.h"
#include "engine/util/file.h"
#include "engine/util/outfile.h"

void nnue_record_pack(NnueRecord *r, const Position *pos, int score, int result)
{
    memset(r, 0, sizeof *r);
    int n = 0;
    BB_FOR_EACH(pos->occupied, s, {
        if (n < NNUE_MAX_ACTIVE) {
            r->b[s >> 3] |= (uint8_t)(1u << (s & 7));
            r->b[12 + n / 2] |= (uint8_t)(pos->board[s] << (n & 1 ? 4 : 0));
            n++;
        }
    });
    score = score > 32767 ? 32767 : score < -32767 ? -32767 : score;
    r->b[28] = (uint8_t)((uint16_t)(int16_t)score & 0xFF);
    r->b[29] = (uint8_t)((uint16_t)(int16_t)score >> 8);
    r->b[30] = (uint8_t)(result + 1);
    r->b[31] = (uint8_t)pos->side;
}

bool nnue_record_unpack(const NnueRecord *r, NnueSample *s)
{
    int n = 0, kings = 0;
    s->king[RED] = s->king[BLACK] = 0;
    for (int sq = 0; sq < SQUARE_NB; sq++) {
        if (!(r->b[sq >> 3] >> (sq & 7) & 1))
            continue;
        if (n >= NNUE_MAX_ACTIVE)
            return false;
        int pc = r->b[12 + n / 2] >> (n & 1 ? 4 : 0) & 15;
        if (piece_type(pc) == NO_PIECE_TYPE)
            return false;
        if (piece_type(pc) == KING) {
            s->king[piece_color(pc)] = (uint8_t)sq;
            kings |= 1 << piece_color(pc);
        }
        s->sq[n] = (uint8_t)sq;
        s->pc[n] = (uint8_t)pc;
        n++;
    }
    if (kings != 3 || r->b[30] > 2 || r->b[31] > 3 || (r->b[11] >> 2))
        return false;
    s->n = (uint8_t)n;
    s->score = (int16_t)(uint16_t)(r->b[28] | r->b[29] << 8);
    s->result = (int8_t)(r->b[30] - 1);
    s->side = r->b[31] & 1;
    return true;
}

void nnue_sample_mirror(NnueSample *s)
{
    for (int i = 0; i < s->n; i++)
        s->sq[i] = (uint8_t)(s->sq[i] - 2 * sq_file(s->sq[i]) + FILE_NB - 1);
    for (int c = 0; c < COLOR_NB; c++)
        s->king[c] = (uint8_t)(s->king[c] - 2 * sq_file(s->king[c]) + FILE_NB - 1);
}

int nnue_sample_features(const NnueSample *s, int p, int out[NNUE_MAX_ACTIVE])
{
    int orient = nnue_king_orient(p, s->king[p]);
    for (int i = 0; i < s->n; i++)
        out[i] = nnue_feature(p, orient, s->pc[i], s->sq[i]);
    return s->n;
}

size_t nnue_data_split_games(const NnueRecord *recs, size_t n, size_t k, NnueRecord *train, size_t *ntrain,
                             NnueRecord *val, size_t *nval)
{
    size_t groups = 0;
    *ntrain = *nval = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || (recs[i].b[31] & 2) || nnue_record_red_result(&recs[i]) != nnue_record_red_result(&recs[i - 1]))
            groups++;
        if (k && groups % k == 0)
            val[(*nval)++] = recs[i];
        else
            train[(*ntrain)++] = recs[i];
    }
    return groups;
}

bool nnue_data_append(const char *path, const NnueRecord *recs, size_t n, char *err, size_t errlen)
{
    if (!n)
        return true;
    size_t bytes = n * sizeof *recs, cap = ZSTD_compressBound(bytes);
    void *z = malloc(cap);
    if (!z)
        return err_set(err, errlen, "out of memory");
    size_t m = ZSTD_compress(z, cap, recs, bytes, 3);
    bool ok = false;
    if (ZSTD_isError(m)) {
        err_set(err, errlen, "zstd: %s", ZSTD_getErrorName(m));
    } else {
        /* a new or regular file only, checked on the opened file: a FIFO
         * put there since datagen began is refused, never waited on */
        FILE *f = outfile_append(path, err, errlen);
        if (f) {
            errno = 0;
            bool written = fwrite(z, 1, m, f) == m && fflush(f) == 0;
            int e = errno;
            if (fclose(f) != 0 && written) {
                written = false;
                e = errno;
            }
            if (written)
                ok = true;
            else
                err_set(err, errlen, "cannot write %s: %s", path, e ? strerror(e) : "a write failed");
        }
    }
    free(z);
    return ok;
}

NnueRecord *nnue_data_read(const char *path, bool missing_ok, size_t *count, size_t *good_bytes, char *err,
                           size_t errlen)
{
    *count = 0;
    *good_bytes = 0;
    err_set(err, errlen, "%s", "");
    char why[256];
    FILE *f = file_open_regular(path, NULL, why, sizeof why);
    if (!f) {
        if (missing_ok && errno == ENOENT)
            return NULL;
        return err_set(err, errlen, "%s: %s", path, why), NULL;
    }
    ZSTD_DCtx *dc = ZSTD_createDCtx();
    size_t in_cap = ZSTD_DStreamInSize(), cap = 1 << 16, used = 0;
    unsigned char *in_buf = malloc(in_cap), *out = malloc(cap);
    size_t consumed = 0, frame_used = 0; /* bytes of the file read; records of whole frames */
    bool in_frame = false, failed = false;
    if (!dc || !in_buf || !out) {
        err_set(err, errlen, "out of memory");
        failed = true;
    }
    size_t got;
    while (!failed && (got = fread(in_buf, 1, in_cap, f)) > 0) {
        ZSTD_inBuffer in = {in_buf, got, 0};
        while (in.pos < in.size) {
            if (cap - used < (1 << 16)) {
                unsigned char *bigger = realloc(out, cap * 2);
                if (!bigger) {
                    err_set(err, errlen, "out of memory");
                    failed = true;
                    break;
                }
                out = bigger;
                cap *= 2;
            }
            ZSTD_outBuffer ob = {out, cap, used};
            size_t r = ZSTD_decompressStream(dc, &ob, &in);
            used = ob.pos;
            if (ZSTD_isError(r)) {
                /* a stopped writer's partial frame reads as garbage only
                 * at the end: keep what came before */
                if (!in_frame && !used) {
                    err_set(err, errlen, "%s is not training data: %s", path, ZSTD_getErrorName(r));
                    failed = true;
                }
                goto done;
            }
            in_frame = r != 0;
            if (r == 0) {
                *good_bytes = consumed + in.pos;
                frame_used = used;
            }
        }
        consumed += got;
    }
    if (!failed && ferror(f)) {
        err_set(err, errlen, "cannot read %s: %s", path, strerror(errno));
        failed = true;
    }
done:
    fclose(f);
    ZSTD_freeDCtx(dc);
    free(in_buf);
    if (failed) {
        free(out);
        return NULL;
    }
    *count = frame_used / NNUE_RECORD_BYTES;
    if (!*count) {
        free(out);
        /* every NULL says why, but where missing_ok allows nothing yet (a
         * missing file, an empty one, a first frame cut short) */
        if (!missing_ok)
            err_set(err, errlen, "%s holds no training data (%s)", path,
                    consumed ? "no whole frame of records" : "an empty file");
        return NULL;
    }
    return (NnueRecord *)out;
}
