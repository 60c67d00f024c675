/* Net files: the header, the checksum and the zstd frame (see nnue.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "engine/util/error.h"
#include "engine/util/file.h"
#include "engine/util/outfile.h"
#include "nnue.h"

#define MAGIC "CHUHNNUE"
#define ARCH_LEN 32
#define HEADER_BYTES (8 + 4 + ARCH_LEN + 4 * 4 + 8)
#define PAYLOAD_BYTES                                                                                            \
    ((size_t)NNUE_INPUTS * NNUE_HIDDEN * 2 + NNUE_HIDDEN * 2 + NNUE_OUT_BUCKETS * 2 * NNUE_HIDDEN * 2            \
     + NNUE_OUT_BUCKETS * 4)
#define FILE_BYTES (HEADER_BYTES + PAYLOAD_BYTES)
/* the largest file read whole into memory before it is checked */
#define MAX_COMPRESSED (64u << 20)

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> 8 * i);
}
static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void put16(unsigned char *p, int16_t v)
{
    p[0] = (unsigned char)((uint16_t)v & 0xFF);
    p[1] = (unsigned char)((uint16_t)v >> 8);
}
static int16_t get16(const unsigned char *p) { return (int16_t)(uint16_t)(p[0] | p[1] << 8); }

bool nnue_save_file(const NnueNet *net, const char *path, char *err, size_t errlen)
{
    unsigned char *raw = malloc(FILE_BYTES);
    if (!raw)
        return err_set(err, errlen, "out of memory");
    unsigned char *p = raw + HEADER_BYTES;
    for (size_t i = 0; i < (size_t)NNUE_INPUTS * NNUE_HIDDEN; i++, p += 2)
        put16(p, net->ft_w[i]);
    for (int i = 0; i < NNUE_HIDDEN; i++, p += 2)
        put16(p, net->ft_b[i]);
    for (int b = 0; b < NNUE_OUT_BUCKETS; b++)
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++, p += 2)
            put16(p, net->out_w[b][i]);
    for (int b = 0; b < NNUE_OUT_BUCKETS; b++, p += 4)
        put32(p, (uint32_t)net->out_b[b]);
    memcpy(raw, MAGIC, 8);
    put32(raw + 8, NNUE_FILE_VERSION);
    memset(raw + 12, 0, ARCH_LEN);
    const char *arch = nnue_arch(net->activation);
    memcpy(raw + 12, arch, strlen(arch));
    put32(raw + 12 + ARCH_LEN, NNUE_INPUTS);
    put32(raw + 16 + ARCH_LEN, NNUE_HIDDEN);
    put32(raw + 20 + ARCH_LEN, NNUE_OUT_BUCKETS);
    put32(raw + 24 + ARCH_LEN, (uint32_t)PAYLOAD_BYTES);
    uint64_t sum = fnv1a(raw + HEADER_BYTES, PAYLOAD_BYTES);
    put32(raw + 28 + ARCH_LEN, (uint32_t)sum);
    put32(raw + 32 + ARCH_LEN, (uint32_t)(sum >> 32));

    size_t cap = ZSTD_compressBound(FILE_BYTES);
    void *z = malloc(cap);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    bool ok = false;
    if (z && cc) {
        ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 19);
        ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
        size_t n = ZSTD_compress2(cc, z, cap, raw, FILE_BYTES);
        if (ZSTD_isError(n)) {
            err_set(err, errlen, "zstd: %s", ZSTD_getErrorName(n));
        } else {
            /* a new file or a regular one, replaced whole; anything else refused */
            OutFile of;
            if (outfile_begin(&of, path, err, errlen)) {
                if (fwrite(z, 1, n, of.f) != n) {
                    err_set(err, errlen, "cannot write %s: %s", path, strerror(errno));
                    outfile_abort(&of);
                } else {
                    ok = outfile_commit(&of, err, errlen);
                }
            }
        }
    } else {
        err_set(err, errlen, "out of memory");
    }
    ZSTD_freeCCtx(cc);
    free(z);
    free(raw);
    return ok;
}

/* Decompress one frame into raw[FILE_BYTES]; its length, or 0 with err. */
static size_t decompress(const void *data, size_t size, unsigned char *raw, char *err, size_t errlen)
{
    if (size < 4 || get32(data) != ZSTD_MAGICNUMBER)
        return err_set(err, errlen, "not a Chuhan net: not zstd-compressed"), 0;
    ZSTD_DCtx *dc = ZSTD_createDCtx();
    if (!dc)
        return err_set(err, errlen, "out of memory"), 0;
    ZSTD_inBuffer in = {data, size, 0};
    ZSTD_outBuffer out = {raw, FILE_BYTES, 0};
    size_t r;
    do {
        r = ZSTD_decompressStream(dc, &out, &in);
    } while (!ZSTD_isError(r) && r != 0 && in.pos < in.size && out.pos < out.size);
    ZSTD_freeDCtx(dc);
    if (ZSTD_isError(r))
        return err_set(err, errlen, "corrupted: %s", ZSTD_getErrorName(r)), 0;
    if (r != 0 && out.pos < out.size)
        return err_set(err, errlen, "truncated: the compressed data ends early (%zu bytes)", size), 0;
    if (r != 0)
        return err_set(err, errlen, "not a Chuhan net: larger than a %s net", NNUE_ARCH), 0;
    /* a whole frame of nothing: 0 is this function's failure, so say why */
    if (out.pos == 0)
        return err_set(err, errlen, "truncated: the compressed data holds nothing"), 0;
    return out.pos;
}

NnueNet *nnue_load_memory(const void *data, size_t size, char *err, size_t errlen)
{
    unsigned char *raw = malloc(FILE_BYTES);
    if (!raw)
        return err_set(err, errlen, "out of memory"), NULL;
    NnueNet *net = NULL;
    size_t n = decompress(data, size, raw, err, errlen);
    if (!n)
        goto done;
    if (n < 12 || memcmp(raw, MAGIC, 8)) {
        err_set(err, errlen, "not a Chuhan net: bad magic");
        goto done;
    }
    if (get32(raw + 8) != NNUE_FILE_VERSION) {
        err_set(err, errlen, "net format version %u; this engine reads version %d", get32(raw + 8),
                NNUE_FILE_VERSION);
        goto done;
    }
    if (n < HEADER_BYTES) {
        err_set(err, errlen, "truncated: the header ends early");
        goto done;
    }
    char arch[ARCH_LEN + 1];
    memcpy(arch, raw + 12, ARCH_LEN);
    arch[ARCH_LEN] = 0;
    for (char *c = arch; *c; c++)
        if (*c < 32 || *c > 126)
            *c = '?';
    int activation = !strcmp(arch, NNUE_ARCH_SCRELU) ? NNUE_SCRELU : NNUE_CRELU;
    if (strcmp(arch, nnue_arch(activation)) || get32(raw + 12 + ARCH_LEN) != NNUE_INPUTS
        || get32(raw + 16 + ARCH_LEN) != NNUE_HIDDEN || get32(raw + 20 + ARCH_LEN) != NNUE_OUT_BUCKETS
        || get32(raw + 24 + ARCH_LEN) != PAYLOAD_BYTES) {
        err_set(err, errlen, "wrong architecture: the net is '%s' (%u inputs, %u hidden, %u outputs); this engine "
                "reads '%s' and '%s'", arch, get32(raw + 12 + ARCH_LEN), get32(raw + 16 + ARCH_LEN),
                get32(raw + 20 + ARCH_LEN), NNUE_ARCH, NNUE_ARCH_SCRELU);
        goto done;
    }
    if (n < FILE_BYTES) {
        err_set(err, errlen, "truncated: %zu bytes of net, %zu expected", n, (size_t)FILE_BYTES);
        goto done;
    }
    uint64_t sum = get32(raw + 28 + ARCH_LEN) | (uint64_t)get32(raw + 32 + ARCH_LEN) << 32;
    if (fnv1a(raw + HEADER_BYTES, PAYLOAD_BYTES) != sum) {
        err_set(err, errlen, "corrupted: the checksum does not match");
        goto done;
    }
    if (!(net = nnue_alloc())) {
        err_set(err, errlen, "out of memory");
        goto done;
    }
    net->activation = activation;
    const unsigned char *p = raw + HEADER_BYTES;
    for (size_t i = 0; i < (size_t)NNUE_INPUTS * NNUE_HIDDEN; i++, p += 2)
        net->ft_w[i] = get16(p);
    for (int i = 0; i < NNUE_HIDDEN; i++, p += 2)
        net->ft_b[i] = get16(p);
    for (int b = 0; b < NNUE_OUT_BUCKETS; b++)
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++, p += 2) {
            net->out_w[b][i] = get16(p);
            if (abs(net->out_w[b][i]) > nnue_out_w_max(activation)) {
                err_set(err, errlen, "corrupted: output weight %d out of range (at most %d)", net->out_w[b][i],
                        nnue_out_w_max(activation));
                nnue_free(net);
                net = NULL;
                goto done;
            }
        }
    for (int b = 0; b < NNUE_OUT_BUCKETS; b++, p += 4) {
        net->out_b[b] = (int32_t)get32(p);
        if (net->out_b[b] > NNUE_OUT_B_MAX || net->out_b[b] < -NNUE_OUT_B_MAX) {
            err_set(err, errlen, "corrupted: output bias out of range");
            nnue_free(net);
            net = NULL;
            goto done;
        }
    }
done:
    free(raw);
    return net;
}

NnueNet *nnue_load_file(const char *path, char *err, size_t errlen)
{
    FILE *f = file_open_regular(path, NULL, err, errlen);
    if (!f)
        return NULL;
    unsigned char *buf = malloc(MAX_COMPRESSED);
    if (!buf) {
        fclose(f);
        return err_set(err, errlen, "out of memory"), NULL;
    }
    size_t n = fread(buf, 1, MAX_COMPRESSED, f);
    bool bad = ferror(f), big = n == MAX_COMPRESSED && fgetc(f) != EOF;
    fclose(f);
    NnueNet *net = NULL;
    if (bad)
        err_set(err, errlen, "cannot read: %s", strerror(errno));
    else if (big)
        err_set(err, errlen, "not a Chuhan net: larger than %u MB", MAX_COMPRESSED >> 20);
    else if (n == 0)
        err_set(err, errlen, "truncated: the file is empty");
    else
        net = nnue_load_memory(buf, n, err, errlen);
    free(buf);
    return net;
}
