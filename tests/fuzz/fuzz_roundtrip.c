/*
 * fuzz_roundtrip.c: decode, rebuild an encode tape from the decode tape, encode, decode again
 * and compare, for MessagePack and CBOR.
 *
 * Input: one configuration byte, then the bytes to decode.
 *   bit 0 format (0 MessagePack, 1 CBOR), bit 1 WP_DEC_MAPS_AS_OBJECTS, bit 2 WP_DEC_NO_INTERN,
 *   bit 3 WP_DEC_TAG_F32, bit 4 WP_DEC_MULTIPLE, bit 5 WP_CBOR_FLOAT64 and bit 6
 *   WP_CBOR_INDEFINITE (CBOR, for the plain encode), bit 7 max_depth 4 (else the default).
 *   An input of odd length decodes with WP_DEC_VCACHE.
 *
 * Checks, for an input that decodes: the encode tape encodes without error into
 * wp_encode_out_bound bytes; the output decodes with the same flags to the same values
 * (value for value: numbers as JS numbers, F32 entries apart in MessagePack, strings as UTF-16,
 * byte strings concatenated);
 * encoding the second tape gives the same bytes as the first encode (CBOR: after at most one more
 * round, as float widths settle). CBOR also: the
 * WP_CBOR_DETERMINISTIC encoding passes the RFC 8949 4.2.1 checks, decodes, and re-encodes
 * deterministically to the same bytes (after at most one more round when a 64-bit integer in a
 * shortest head came back as a number), and the second tape gives the same bytes too.
 * Inputs with timestamps whose milliseconds exceed 2^53 are skipped (not rebuildable).
 */
#include "fuzz_common.h"

/* Encode an encode tape into a fresh exact-size buffer; traps unless WP_OK. */
static void rt_encode(int fmt, const fz_etape *et, uint32_t cflags, fz_buf *out) {
    uint32_t cap = wp_encode_out_bound(et->len);
    uint8_t *p = (uint8_t *)malloc(cap ? cap : 1);
    wp_encoder e;
    memset(&e, 0, sizeof e);
    e.tape = et->w;
    e.tape_len = et->len;
    e.out = p;
    e.out_cap = cap;
    wp_err rc;
    if (fmt == FZ_CBOR) {
        uint32_t sw = wp_cbor_scratch_words(et->len);
        uint32_t *scratch = (uint32_t *)malloc((size_t)sw * 4);
        rc = wp_cbor_encode(&e, cflags, scratch, sw);
        free(scratch);
    } else {
        rc = wp_msgpack_encode(&e);
    }
    FZ_CHECK(rc == WP_OK, "%s encode (flags %x) of a rebuilt tape: %s at %u", fz_fmt_name(fmt), cflags,
             wp_err_name(rc), e.err.offset);
    FZ_CHECK(e.out_len <= cap);
    out->len = 0;
    fz_buf_put(out, p, e.out_len);
    free(p);
}

/* Decode bytes (copied to an exact-size block), walk, canonicalize and rebuild. Traps unless OK. */
static void rt_decode(int fmt, const fz_buf *bytes, uint32_t flags, uint32_t max_depth, uint32_t nvalues,
                      int f32num, fz_buf *canon, fz_etape *et, const char *what) {
    uint8_t *in = (uint8_t *)malloc(bytes->len ? bytes->len : 1);
    if (bytes->len) memcpy(in, bytes->p, bytes->len);
    fz_dec x;
    wp_err rc = fz_decode(&x, fmt, in, (uint32_t)bytes->len, flags, max_depth);
    FZ_CHECK(rc == WP_OK, "%s: decoding the %s output fails: %s at %u", fz_fmt_name(fmt), what, wp_err_name(rc),
             x.d.err.offset);
    FZ_CHECK(x.d.nvalues == nvalues, "%s: %u values, want %u", what, x.d.nvalues, nvalues);
    fz_walk wk = { 0 };
    wk.d = &x.d;
    wk.fmt = fmt;
    wk.limit = x.d.tape_len;
    wk.canon = canon;
    wk.et = et;
    wk.f32_as_number = f32num;
    canon->len = 0;
    et->len = 0;
    fz_walk_values(&wk, nvalues, x.eff_depth);
    FZ_CHECK(wk.i == x.d.tape_len && wk.ai == x.d.ascii_len && wk.ui == x.d.utf16_len);
    FZ_CHECK(!wk.skip);
    fz_dec_free(&x);
    free(in);
}

static void rt_same(const fz_buf *a, const fz_buf *b, const char *what) {
    if (a->len == b->len && memcmp(a->p, b->p, a->len) == 0) return;
    size_t i = 0;
    while (i < a->len && i < b->len && a->p[i] == b->p[i]) i++;
    FZ_CHECK(0, "%s differ (lengths %zu and %zu, first difference at %zu)", what, a->len, b->len, i);
}

static void rt_check_det(const fz_buf *out, uint32_t nvalues) {
    uint32_t pos = 0;
    for (uint32_t v = 0; v < nvalues; v++) fz_cbor_check_det(out->p, (uint32_t)out->len, &pos);
    FZ_CHECK(pos == out->len, "det: %zu bytes after %u values", out->len - pos, nvalues);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > (1u << 24)) return 0;
    fz_tables_tick();
    uint32_t cfg = data[0];
    int fmt = (cfg & 1u) ? FZ_CBOR : FZ_MSGPACK;
    uint32_t flags = ((cfg & 2u) ? WP_DEC_MAPS_AS_OBJECTS : 0) | ((cfg & 4u) ? WP_DEC_NO_INTERN : 0) |
                     ((cfg & 8u) ? WP_DEC_TAG_F32 : 0) | ((cfg & 16u) ? WP_DEC_MULTIPLE : 0) |
                     ((size & 1u) ? WP_DEC_VCACHE : 0); /* (no config bit is free: half the inputs, by length) */
    uint32_t cflags = fmt == FZ_CBOR ? (((cfg & 32u) ? WP_CBOR_FLOAT64 : 0) | ((cfg & 64u) ? WP_CBOR_INDEFINITE : 0)) : 0;
    uint32_t max_depth = (cfg & 128u) ? 4 : 0;
    /* CBOR writes every float in its shortest exact width, so an F64 can come back as F32 (with
     * WP_DEC_TAG_F32) and, with WP_CBOR_FLOAT64, an F32 as F64: compare them as numbers */
    int f32num = fmt == FZ_CBOR;

    fz_dec x;
    wp_err rc = fz_decode(&x, fmt, data + 1, (uint32_t)(size - 1), flags, max_depth);
    if (rc != WP_OK) { fz_dec_free(&x); return 0; }
    fz_buf c1 = { 0 }, c2 = { 0 }, c3 = { 0 }, out1 = { 0 }, out2 = { 0 }, det1 = { 0 }, det2 = { 0 };
    fz_etape et1 = { 0 }, et2 = { 0 }, et3 = { 0 };
    fz_walk wk = { 0 };
    wk.d = &x.d;
    wk.fmt = fmt;
    wk.limit = x.d.tape_len;
    wk.canon = &c1;
    wk.et = &et1;
    wk.f32_as_number = f32num;
    fz_walk_values(&wk, x.d.nvalues, x.eff_depth);
    FZ_CHECK(wk.i == x.d.tape_len && wk.ai == x.d.ascii_len && wk.ui == x.d.utf16_len);
    uint32_t nv = x.d.nvalues;
    uint32_t dflags = flags | (nv > 1 ? WP_DEC_MULTIPLE : 0);
    fz_dec_free(&x);
    if (wk.skip) goto done;

    /* encode, decode, compare; encode again, compare bytes */
    rt_encode(fmt, &et1, cflags, &out1);
    rt_decode(fmt, &out1, dflags, max_depth, nv, f32num, &c2, &et2, "first encode");
    rt_same(&c1, &c2, "values after a round trip");
    rt_encode(fmt, &et2, cflags, &out2);
    if (fmt == FZ_CBOR && (out1.len != out2.len || memcmp(out1.p, out2.p, out1.len) != 0)) {
        /* CBOR may need one more step: an F32 written as float64 (WP_CBOR_FLOAT64) comes back as
         * a number, an F64 that fits float32 comes back as F32 (WP_DEC_TAG_F32) */
        rt_decode(fmt, &out2, dflags, max_depth, nv, f32num, &c3, &et3, "second encode");
        rt_same(&c1, &c3, "values after two round trips");
        rt_encode(fmt, &et3, cflags, &out1);
    }
    rt_same(&out1, &out2, "bytes of the last two encodes");

    if (fmt == FZ_CBOR) {
        /* deterministic: well-formed as RFC 8949 4.2.1 says, and a fixed point */
        rt_encode(fmt, &et1, WP_CBOR_DETERMINISTIC, &det1);
        rt_check_det(&det1, nv);
        rt_decode(fmt, &det1, dflags, max_depth, nv, 1, &c3, &et3, "deterministic encode");
        rt_encode(fmt, &et3, WP_CBOR_DETERMINISTIC, &det2);
        rt_check_det(&det2, nv);
        if (det1.len != det2.len || memcmp(det1.p, det2.p, det1.len) != 0) {
            /* one more step when a class changed: 64-bit integers in shortest heads come back as
             * numbers (then written as floats), float widths settle as in the plain case */
            rt_decode(fmt, &det2, dflags, max_depth, nv, 1, &c3, &et3, "second deterministic encode");
            rt_encode(fmt, &et3, WP_CBOR_DETERMINISTIC, &out2);
            rt_same(&det2, &out2, "second and third deterministic encodes");
        } else if (!(cflags & WP_CBOR_FLOAT64)) {
            /* (not with WP_CBOR_FLOAT64: an integral F32 comes back as an F64, rebuilt as an integer) */
            rt_encode(fmt, &et2, WP_CBOR_DETERMINISTIC, &det2);
            rt_same(&det1, &det2, "deterministic encodes of the input and of the round-tripped value");
        }
    }
done:
    fz_buf_free(&c1); fz_buf_free(&c2); fz_buf_free(&c3);
    fz_buf_free(&out1); fz_buf_free(&out2); fz_buf_free(&det1); fz_buf_free(&det2);
    free(et1.w); free(et2.w); free(et3.w);
    return 0;
}
