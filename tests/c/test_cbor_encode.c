/*
 * test_cbor_encode.c: table-driven tests of wp_cbor_encode: encode tape -> exact bytes for every
 * entry type at every head boundary (majors 0..7), 64-bit integers with and without
 * WP_CBOR_DETERMINISTIC, preferred float serialization (and WP_CBOR_FLOAT64) against an
 * independent oracle, tags, simple values, deterministic map key order (RFC 8949 4.2.1) at every
 * level, WP_CBOR_INDEFINITE (9f/bf ... ff; DETERMINISTIC wins), output-buffer limits, malformed
 * tapes and a too-small or NULL scratch.
 */
#include <float.h>
#include <math.h>
#include "test_util.h"

#pragma GCC diagnostic ignored "-Wmissing-field-initializers" /* tables leave trailing fields zero */

#define DET WP_CBOR_DETERMINISTIC
#define F64 WP_CBOR_FLOAT64
#define IND WP_CBOR_INDEFINITE
#define TAG(t, p) ((uint32_t)(t) | ((uint32_t)(p) << 8))
#define ESC WP_LEN_ESCAPE

/* Encode t with flags; expect WP_OK and exactly the bytes of want. */
static int check_encode(const tu_etape *t, uint32_t flags, const tu_buf *want) {
    tu_buf got = { 0 };
    wp_encoder e;
    wp_err rc = tu_cbor_encode(t, flags, &got, &e);
    int ok = 1;
    CHECK_ERR(rc, WP_OK);
    if (rc != WP_OK) ok = 0;
    else {
        ok = CHECK_BYTES(got.p, got.len, want->p, want->len);
        CHECK_EQ_U(e.out_len, want->len);
        CHECK(want->len <= wp_encode_out_bound(t->len), "bound %u < %u", wp_encode_out_bound(t->len), want->len);
    }
    tu_buf_free(&got);
    return ok;
}

/* ===================================================================== heads and scalars */

enum kind { K_NIL, K_FALSE, K_TRUE, K_UNDEF, K_INT, K_UINT, K_I64, K_U64, K_N64, K_F32, K_STR, K_BIN, K_RAW,
            K_ARR, K_MAP, K_TAG, K_SIMPLE, K_STR_ESC, K_ARR_ESC, K_MAP_ESC, K_TAG_ESC };

typedef struct hcase {
    enum kind kind;
    uint64_t v;        /* value (as uint64 bits), length, count, tag or simple value */
    const char *hex;   /* expected head (default flags); for STR/BIN/RAW/ARR/MAP/TAG a body follows */
    const char *det;   /* expected with WP_CBOR_DETERMINISTIC (NULL: same) */
    double f;          /* F32 value */
    const char *f64;   /* expected with WP_CBOR_FLOAT64 (NULL: same) */
} hcase;

#define H(k, val, h) { .kind = k, .v = (uint64_t)(val), .hex = h }
#define HD(k, val, h, d) { .kind = k, .v = (uint64_t)(val), .hex = h, .det = d }

static const hcase hcases[] = {
    H(K_NIL, 0, "f6"), H(K_FALSE, 0, "f4"), H(K_TRUE, 0, "f5"), H(K_UNDEF, 0, "f7"),
    /* major 0 via UINT */
    H(K_UINT, 0, "00"), H(K_UINT, 23, "17"), H(K_UINT, 24, "1818"), H(K_UINT, 255, "18ff"), H(K_UINT, 256, "190100"),
    H(K_UINT, 65535, "19ffff"), H(K_UINT, 65536, "1a00010000"), H(K_UINT, 0xffffffffu, "1affffffff"),
    /* majors 0 and 1 via INT */
    H(K_INT, 0, "00"), H(K_INT, 23, "17"), H(K_INT, 24, "1818"), H(K_INT, 255, "18ff"), H(K_INT, 256, "190100"),
    H(K_INT, 65535, "19ffff"), H(K_INT, 65536, "1a00010000"), H(K_INT, INT32_MAX, "1a7fffffff"),
    H(K_INT, -1, "20"), H(K_INT, -24, "37"), H(K_INT, -25, "3818"), H(K_INT, -256, "38ff"), H(K_INT, -257, "390100"),
    H(K_INT, -65536, "39ffff"), H(K_INT, -65537, "3a00010000"), H(K_INT, INT32_MIN, "3a7fffffff"),
    /* 64-bit entries: the 8-byte head by default, the shortest head when deterministic */
    HD(K_U64, 0, "1b0000000000000000", "00"), HD(K_U64, 23, "1b0000000000000017", "17"),
    HD(K_U64, 24, "1b0000000000000018", "1818"), HD(K_U64, 255, "1b00000000000000ff", "18ff"),
    HD(K_U64, 256, "1b0000000000000100", "190100"), HD(K_U64, 65535, "1b000000000000ffff", "19ffff"),
    HD(K_U64, 65536, "1b0000000000010000", "1a00010000"), HD(K_U64, 0xffffffffull, "1b00000000ffffffff", "1affffffff"),
    H(K_U64, 0x100000000ull, "1b0000000100000000"), H(K_U64, UINT64_MAX, "1bffffffffffffffff"),
    HD(K_I64, 0, "1b0000000000000000", "00"), HD(K_I64, 5, "1b0000000000000005", "05"),
    HD(K_I64, -1, "3b0000000000000000", "20"), HD(K_I64, -24, "3b0000000000000017", "37"),
    HD(K_I64, -25, "3b0000000000000018", "3818"), HD(K_I64, -256, "3b00000000000000ff", "38ff"),
    HD(K_I64, -257, "3b0000000000000100", "390100"), HD(K_I64, -65537, "3b0000000000010000", "3a00010000"),
    HD(K_I64, -0x100000000ll, "3b00000000ffffffff", "3affffffff"), H(K_I64, -0x100000001ll, "3b0000000100000000"),
    H(K_I64, INT64_MIN, "3b7fffffffffffffff"), H(K_I64, INT64_MAX, "1b7fffffffffffffff"),
    H(K_I64, 0x100000000ll, "1b0000000100000000"),
    HD(K_N64, 0, "3b0000000000000000", "20"), HD(K_N64, 23, "3b0000000000000017", "37"),
    HD(K_N64, 0xffffffffull, "3b00000000ffffffff", "3affffffff"), H(K_N64, 0x8000000000000000ull, "3b8000000000000000"),
    H(K_N64, UINT64_MAX, "3bffffffffffffffff"),
    /* major 2 / 3: byte and text strings at every head boundary (body follows) */
    H(K_STR, 0, "60"), H(K_STR, 1, "61"), H(K_STR, 23, "77"), H(K_STR, 24, "7818"), H(K_STR, 255, "78ff"),
    H(K_STR, 256, "790100"), H(K_STR, 65535, "79ffff"), H(K_STR, 65536, "7a00010000"), H(K_STR, 100001, "7a000186a1"),
    H(K_STR_ESC, 3, "63"), H(K_STR_ESC, 40, "7828"),
    H(K_BIN, 0, "40"), H(K_BIN, 23, "57"), H(K_BIN, 24, "5818"), H(K_BIN, 255, "58ff"), H(K_BIN, 256, "590100"),
    H(K_BIN, 65535, "59ffff"), H(K_BIN, 65536, "5a00010000"),
    H(K_RAW, 0, ""), H(K_RAW, 5, ""), H(K_RAW, 70000, ""),
    /* major 4 / 5: items follow (NIL; maps: UINT keys in order, NIL values) */
    H(K_ARR, 0, "80"), H(K_ARR, 23, "97"), H(K_ARR, 24, "9818"), H(K_ARR, 255, "98ff"), H(K_ARR, 256, "990100"),
    H(K_ARR, 65535, "99ffff"), H(K_ARR, 65536, "9a00010000"),
    H(K_MAP, 0, "a0"), H(K_MAP, 23, "b7"), H(K_MAP, 24, "b818"), H(K_MAP, 255, "b8ff"), H(K_MAP, 256, "b90100"),
    H(K_MAP, 65535, "b9ffff"), H(K_MAP, 65536, "ba00010000"),
    /* counts that only fit the escape word: the head alone */
    H(K_ARR_ESC, 2, "82"), H(K_ARR_ESC, 0xffffff, "9a00ffffff"), H(K_ARR_ESC, 0xffffffffu, "9affffffff"),
    H(K_MAP_ESC, 0x1000000, "ba01000000"), H(K_MAP_ESC, 0xffffffffu, "baffffffff"),
    /* major 6: tags (a NIL follows) */
    H(K_TAG, 0, "c0"), H(K_TAG, 23, "d7"), H(K_TAG, 24, "d818"), H(K_TAG, 255, "d8ff"), H(K_TAG, 256, "d90100"),
    H(K_TAG, 55799, "d9d9f7"), H(K_TAG, 65535, "d9ffff"), H(K_TAG, 65536, "da00010000"), H(K_TAG, 0xfffffe, "da00fffffe"),
    H(K_TAG_ESC, 0xffffff, "da00ffffff"), H(K_TAG_ESC, 0xffffffffull, "daffffffff"),
    H(K_TAG_ESC, 0x100000000ull, "db0000000100000000"), H(K_TAG_ESC, UINT64_MAX, "dbffffffffffffffff"),
    H(K_TAG_ESC, 1, "c1"),
    /* major 7: simple values */
    H(K_SIMPLE, 0, "e0"), H(K_SIMPLE, 16, "f0"), H(K_SIMPLE, 19, "f3"), H(K_SIMPLE, 20, "f4"), H(K_SIMPLE, 23, "f7"),
    H(K_SIMPLE, 32, "f820"), H(K_SIMPLE, 255, "f8ff"),
    /* F32: fa as the host chose; deterministic: the shortest exact form; WP_CBOR_FLOAT64: fb */
    { .kind = K_F32, .f = 1.5, .hex = "fa3fc00000", .det = "f93e00", .f64 = "fb3ff8000000000000" },
    { .kind = K_F32, .f = 0.0, .hex = "fa00000000", .det = "f90000", .f64 = "fb0000000000000000" },
    { .kind = K_F32, .f = -0.0, .hex = "fa80000000", .det = "f98000", .f64 = "fb8000000000000000" },
    { .kind = K_F32, .f = 100000.0, .hex = "fa47c35000", .f64 = "fb40f86a0000000000" },
    { .kind = K_F32, .f = (double)0.1f, .hex = "fa3dcccccd", .f64 = "fb3fb99999a0000000" },
    { .kind = K_F32, .f = INFINITY, .hex = "fa7f800000", .det = "f97c00", .f64 = "fb7ff0000000000000" },
};

static uint8_t body_byte(uint32_t i) { return (uint8_t)(0x20 + (i * 7) % 90); }

static void build_h(const hcase *c, tu_etape *t, tu_buf *want, uint32_t lead, uint32_t flags) {
    for (uint32_t i = 0; i < lead; i++) { tu_et_tag(t, WP_E_NIL, 0); tu_buf_u8(want, 0xf6); }
    const char *hex = c->hex;
    if ((flags & DET) && c->det) hex = c->det;
    if ((flags & F64) && c->f64) hex = c->f64;
    tu_buf_hex(want, hex);
    uint32_t n = (uint32_t)c->v;
    uint8_t *body = NULL;
    if (c->kind == K_STR || c->kind == K_BIN || c->kind == K_RAW || c->kind == K_STR_ESC) {
        body = (uint8_t *)malloc(n ? n : 1);
        for (uint32_t i = 0; i < n; i++) body[i] = body_byte(i);
        tu_buf_bytes(want, body, n);
    }
    switch (c->kind) {
    case K_NIL: tu_et_tag(t, WP_E_NIL, 0); break;
    case K_FALSE: tu_et_tag(t, WP_E_FALSE, 0); break;
    case K_TRUE: tu_et_tag(t, WP_E_TRUE, 0); break;
    case K_UNDEF: tu_et_tag(t, WP_E_UNDEF, 0); break;
    case K_INT: tu_et_int(t, (int32_t)(int64_t)c->v); break;
    case K_UINT: tu_et_uint(t, (uint32_t)c->v); break;
    case K_I64: tu_et_64(t, WP_E_I64, c->v); break;
    case K_U64: tu_et_64(t, WP_E_U64, c->v); break;
    case K_N64: tu_et_64(t, WP_E_N64, c->v); break;
    case K_F32: tu_et_f32(t, (float)c->f); break;
    case K_STR: tu_et_blob(t, WP_E_STR, body, n); break;
    case K_BIN: tu_et_blob(t, WP_E_BIN, body, n); break;
    case K_RAW: tu_et_blob(t, WP_E_RAW, body, n); break;
    case K_STR_ESC: tu_et_tag(t, WP_E_STR, ESC); tu_et_word(t, n); tu_et_bytes(t, body, n); break;
    case K_ARR:
        tu_et_len(t, WP_E_ARR, n);
        for (uint32_t i = 0; i < n; i++) { tu_et_tag(t, WP_E_NIL, 0); tu_buf_u8(want, 0xf6); }
        break;
    case K_MAP:
        tu_et_len(t, WP_E_MAP, n);
        for (uint32_t i = 0; i < n; i++) {
            tu_et_uint(t, i);
            tu_et_tag(t, WP_E_NIL, 0);
            if (i < 24) tu_buf_u8(want, i);
            else if (i < 256) { tu_buf_u8(want, 0x18); tu_buf_be(want, i, 1); }
            else if (i < 65536) { tu_buf_u8(want, 0x19); tu_buf_be(want, i, 2); }
            else { tu_buf_u8(want, 0x1a); tu_buf_be(want, i, 4); }
            tu_buf_u8(want, 0xf6);
        }
        break;
    case K_ARR_ESC: tu_et_tag(t, WP_E_ARR, ESC); tu_et_word(t, n); break;
    case K_MAP_ESC: tu_et_tag(t, WP_E_MAP, ESC); tu_et_word(t, n); break;
    case K_TAG:
        tu_et_tag(t, WP_E_TAG, n);
        tu_et_tag(t, WP_E_NIL, 0); tu_buf_u8(want, 0xf6);
        break;
    case K_TAG_ESC:
        tu_et_tag(t, WP_E_TAG, ESC); tu_et_word(t, (uint32_t)c->v); tu_et_word(t, (uint32_t)(c->v >> 32));
        tu_et_tag(t, WP_E_NIL, 0); tu_buf_u8(want, 0xf6);
        break;
    case K_SIMPLE: tu_et_tag(t, WP_E_SIMPLE, n); break;
    }
    free(body);
}

static void test_heads(void) {
    static const uint32_t fl[] = { 0, DET, F64, DET | F64 };
    for (size_t i = 0; i < sizeof hcases / sizeof hcases[0]; i++) {
        const hcase *c = &hcases[i];
        for (uint32_t lead = 0; lead < 2; lead++) {
            for (size_t k = 0; k < 4; k++) {
                tu_case("encode kind %d v %llu f %g lead %u flags %u -> %s", (int)c->kind, (unsigned long long)c->v, c->f,
                        lead, fl[k], (fl[k] & DET) && c->det ? c->det : c->hex);
                tu_etape t = { 0 };
                tu_buf want = { 0 };
                build_h(c, &t, &want, lead, fl[k]);
                check_encode(&t, fl[k], &want);
                tu_et_free(&t);
                tu_buf_free(&want);
                tu_end();
            }
        }
    }
}

/* ===================================================================== floats */

/* Independent oracle of preferred serialization: the shortest of float16/32/64 that keeps the
 * value; NaN as f9 7e00, infinities as float16. */
static int half_of(double v, uint16_t *h) {
    if (v != v) { *h = 0x7e00; return 1; }
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    double a = fabs(v);
    if (isinf(a)) { *h = sign | 0x7c00; return 1; }
    if (a == 0) { *h = sign; return 1; }
    if (a > 65504.0) return 0;
    if (a < 0x1p-14) {
        double m = a * 0x1p24;
        if (m != floor(m)) return 0;
        *h = sign | (uint16_t)m;
        return 1;
    }
    int e;
    double m = ldexp(frexp(a, &e), 11); /* a = m * 2^(e - 11), m in [1024, 2048) */
    if (m != floor(m)) return 0;
    *h = (uint16_t)(sign | (uint16_t)((e - 1 + 15) << 10) | (uint16_t)((uint32_t)m - 1024));
    return 1;
}
static double half_value(uint16_t h) {
    int e = (h >> 10) & 31, m = h & 1023;
    double v;
    if (e == 0) v = ldexp(m, -24);
    else if (e == 31) v = m ? NAN : INFINITY;
    else v = ldexp(m + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}
/* the next double after v toward +inf (up) or -inf (no libm: run.sh does not link -lm with gcc) */
static double next_double(double v, int up) {
    if (v != v) return v;
    if (v == 0) return up ? 0x1p-1074 : -0x1p-1074;
    uint64_t bits;
    memcpy(&bits, &v, 8);
    if ((v > 0) == (up != 0)) bits++; else bits--;
    memcpy(&v, &bits, 8);
    return v;
}

static void oracle_f64(tu_buf *b, double v, uint32_t flags) {
    uint64_t bits;
    memcpy(&bits, &v, 8);
    if (!(flags & F64)) {
        uint16_t h;
        if (half_of(v, &h)) { tu_buf_u8(b, 0xf9); tu_buf_be(b, h, 2); return; }
        if (fabs(v) <= FLT_MAX && (double)(float)v == v) {
            float f = (float)v;
            uint32_t fb;
            memcpy(&fb, &f, 4);
            tu_buf_u8(b, 0xfa); tu_buf_be(b, fb, 4);
            return;
        }
    }
    tu_buf_u8(b, 0xfb); tu_buf_be(b, bits, 8);
}

typedef struct { double v; const char *hex; } fcase;
static const fcase fcases[] = {
    { 0.0, "f90000" }, { -0.0, "f98000" }, { 1.0, "f93c00" }, { 1.5, "f93e00" }, { -4.0, "f9c400" },
    { 65504.0, "f97bff" }, { 65505.0, "fa477fe100" }, { 65520.0, "fa477ff000" }, { 100000.0, "fa47c35000" },
    { 1.1, "fb3ff199999999999a" }, { -4.1, "fbc010666666666666" },
    { 5.960464477539063e-8, "f90001" }, { 0.00006103515625, "f90400" }, { 0x1p-25, "fa33000000" },
    { 0x3ffp-24, "f903ff" }, { 0x1.8p-24, "fa33c00000" },
    { INFINITY, "f97c00" }, { -INFINITY, "f9fc00" }, { NAN, "f97e00" }, { -NAN, "f97e00" },
    { 3.4028234663852886e+38, "fa7f7fffff" }, { 3.4028235677973366e+38, "fb47effffff0000000" } /* rounds to inf as float32 */,
    { 1.0e+300, "fb7e37e43c8800759c" }, { 1363896240.5, "fb41d452d9ec200000" }, { 0x1p-149, "fa00000001" },
    { 0x1p-150, "fb3690000000000000" }, { 0x1p-1074, "fb0000000000000001" }, { 4294967296.0, "fa4f800000" },
    { 0.1, "fb3fb999999999999a" }, { (double)0.1f, "fa3dcccccd" }, { 0.5, "f93800" }, { 0.333251953125, "f93555" },
};

static void test_floats(void) {
    for (size_t i = 0; i < sizeof fcases / sizeof fcases[0]; i++) {
        for (uint32_t flags = 0; flags < 4; flags++) {
            const fcase *c = &fcases[i];
            tu_case("F64 %.17g flags %u", c->v, flags);
            for (uint32_t lead = 0; lead < 2; lead++) {
                tu_etape t = { 0 };
                tu_buf want = { 0 }, o = { 0 };
                for (uint32_t k = 0; k < lead; k++) { tu_et_tag(&t, WP_E_NIL, 0); tu_buf_u8(&want, 0xf6); }
                tu_et_f64(&t, c->v);
                if (flags & F64) {
                    uint64_t bits;
                    memcpy(&bits, &c->v, 8);
                    tu_buf_u8(&want, 0xfb); tu_buf_be(&want, bits, 8);
                } else tu_buf_hex(&want, c->hex);
                check_encode(&t, flags, &want);
                /* the oracle agrees with the table */
                oracle_f64(&o, c->v, flags);
                CHECK_BYTES(o.p, o.len, want.p + lead, want.len - lead);
                tu_et_free(&t);
                tu_buf_free(&want);
                tu_buf_free(&o);
            }
            tu_end();
        }
    }

    /* every float16 value; random float32 values and their neighbours; random doubles */
    for (uint32_t flags = 0; flags <= F64; flags += F64) {
        tu_case("all 65536 float16 patterns as F64 flags %u", flags);
        tu_etape t = { 0 };
        tu_buf want = { 0 };
        for (uint32_t h = 0; h < 65536; h++) {
            double v = half_value((uint16_t)h);
            tu_et_f64(&t, v);
            if (flags & F64) oracle_f64(&want, v, flags);
            else if (v != v) tu_buf_hex(&want, "f97e00");
            else { tu_buf_u8(&want, 0xf9); tu_buf_be(&want, h, 2); }
        }
        check_encode(&t, flags, &want);
        tu_et_free(&t);
        tu_buf_free(&want);
        tu_end();

        tu_case("200000 random float32 / float64 values (and neighbours) flags %u", flags);
        tu_rng rng = { 7 + flags };
        for (int round = 0; round < 4; round++) {
            t.len = 0;
            want.len = 0;
            for (int i = 0; i < 50000; i++) {
                double v;
                uint64_t r = tu_rand(&rng);
                switch (i % 5) {
                case 0: { uint32_t fb = (uint32_t)r; float f; memcpy(&f, &fb, 4); v = f; break; }
                case 1: memcpy(&v, &r, 8); break;
                case 2: v = next_double(half_value((uint16_t)r), (int)((r >> 32) & 1)); break;
                case 3: { uint32_t fb = (uint32_t)r; float f; memcpy(&f, &fb, 4); v = next_double((double)f, f < 0); break; }
                default: v = ldexp((double)(r >> 53), (int)(r % 80) - 40); break; /* small integers scaled */
                }
                tu_et_f64(&t, v);
                oracle_f64(&want, v, flags);
            }
            check_encode(&t, flags, &want);
        }
        tu_et_free(&t);
        tu_buf_free(&want);
        tu_end();
    }
}

/* ===================================================================== number runs */

/* What writeNumber puts on the tape for v: an integer when it is a uint32 or an int32 (and not
 * -0, which CBOR writes as a float), else a float. */
static void oracle_number(tu_buf *b, double v, uint32_t flags) {
    if (v == v && v >= -2147483648.0 && v <= 4294967295.0 && v == (double)(int64_t)v && !(v == 0 && signbit(v))) {
        int64_t x = (int64_t)v;
        uint32_t major = x < 0 ? 1 : 0;
        uint64_t a = x < 0 ? (uint64_t)(-1 - x) : (uint64_t)x;
        if (a < 24) tu_buf_u8(b, (major << 5) | (uint32_t)a);
        else if (a <= 0xff) { tu_buf_u8(b, (major << 5) | 24); tu_buf_be(b, a, 1); }
        else if (a <= 0xffff) { tu_buf_u8(b, (major << 5) | 25); tu_buf_be(b, a, 2); }
        else { tu_buf_u8(b, (major << 5) | 26); tu_buf_be(b, a, 4); }
    } else {
        oracle_f64(b, v, flags);
    }
}

/* A WP_E_NUMS run of vals after `lead` NILs (the run's doubles start at an even word). */
static void nums_tape(tu_etape *t, tu_buf *want, const double *vals, uint32_t count, uint32_t lead, uint32_t flags) {
    for (uint32_t k = 0; k < lead; k++) { tu_et_tag(t, WP_E_NIL, 0); tu_buf_u8(want, 0xf6); }
    uint32_t at = t->len;
    tu_et_tag(t, WP_E_NUMS, count);
    while (t->len < ((at + 2) & ~1u)) tu_et_word(t, 0);
    for (uint32_t k = 0; k < count; k++) {
        uint64_t bits;
        memcpy(&bits, &vals[k], 8);
        tu_et_word(t, (uint32_t)bits);
        tu_et_word(t, (uint32_t)(bits >> 32));
        oracle_number(want, vals[k], flags);
    }
}

static void test_number_runs(void) {
    static const double edges[] = { 0, -0.0, 1, 23, 24, 255, 256, 65535, 65536, 4294967295.0, 4294967296.0, -1, -24,
        -25, -256, -257, -65536, -65537, -2147483648.0, -2147483649.0, 0.5, -0.5, 1.5, -2.5, 0.25, 4294967295.5,
        -2147483648.5, 65504, 100000, 0.1, 1e300, 0x1p-149, 0x1p-1074, INFINITY, -INFINITY, NAN };
    const uint32_t ne = (uint32_t)(sizeof edges / sizeof edges[0]);
    for (uint32_t flags = 0; flags <= F64; flags += F64) {
        for (uint32_t lead = 0; lead < 2; lead++) {
            tu_case("NUMS: integer edges, shortest floats, flags %u, lead %u", flags, lead);
            tu_etape t = { 0 };
            tu_buf want = { 0 };
            nums_tape(&t, &want, edges, ne, lead, flags);
            check_encode(&t, flags, &want);
            tu_et_free(&t);
            tu_buf_free(&want);
            tu_end();
        }
        tu_case("NUMS: every integer in -70000..70000 and each half step, random integral doubles, flags %u", flags);
        {
            tu_etape t = { 0 };
            tu_buf want = { 0 };
            double vals[100];
            uint32_t k = 0;
            for (int32_t x = -70000; x <= 70000; x++) {
                vals[k++] = x;
                vals[k++] = x + 0.5;
                if (k == 100) { nums_tape(&t, &want, vals, k, (uint32_t)x & 1, flags); k = 0; }
            }
            tu_rng rng = { 43 + flags };
            for (int i = 0; i < 100000; i++) {
                /* the 21 low mantissa bits clear (the integer test reads the bits), an exponent near
                 * the integer range most of the time */
                uint64_t r = tu_rand(&rng) & ~(uint64_t)0x1fffff;
                if (i % 4) r = (r & 0x800fffffffffffffull) | ((uint64_t)(1013 + tu_below(&rng, 40)) << 52);
                memcpy(&vals[k++], &r, 8);
                if (k == 100) { nums_tape(&t, &want, vals, k, (uint32_t)i & 1, flags); k = 0; }
            }
            if (k) nums_tape(&t, &want, vals, k, 0, flags);
            check_encode(&t, flags, &want);
            tu_et_free(&t);
            tu_buf_free(&want);
            tu_end();
        }
        tu_case("NUMS: 50000 random values in runs, flags %u", flags);
        tu_rng rng = { 11 + flags };
        tu_etape t = { 0 };
        tu_buf want = { 0 };
        double vals[100];
        for (int run = 0; run < 500; run++) {
            uint32_t count = 1 + (uint32_t)(tu_rand(&rng) % 100);
            for (uint32_t k = 0; k < count; k++) {
                uint64_t r = tu_rand(&rng);
                switch (k % 4) {
                case 0: memcpy(&vals[k], &r, 8); break;
                case 1: { uint32_t fb = (uint32_t)r; float f; memcpy(&f, &fb, 4); vals[k] = f; break; }
                case 2: vals[k] = (double)(int32_t)(uint32_t)r / (double)(1u << (r >> 59)); break;
                default: vals[k] = (double)(int64_t)(r >> 30) - 8589934592.0; break;
                }
            }
            nums_tape(&t, &want, vals, count, (uint32_t)(tu_rand(&rng) & 1), flags);
        }
        check_encode(&t, flags, &want);
        tu_et_free(&t);
        tu_buf_free(&want);
        tu_end();
    }
    /* deterministic and indefinite-length encoding count items: the host never sends runs then */
    for (uint32_t flags = DET; flags <= IND; flags += IND - DET) {
        tu_case("NUMS with flags %u: a bad tape", flags);
        uint32_t w[4] = { TAG(WP_E_NUMS, 1), 0, 0, 0x3ff00000u };
        uint32_t cap = wp_encode_out_bound(4), sw = wp_cbor_scratch_words(4);
        uint8_t *out = (uint8_t *)malloc(cap);
        uint32_t *scratch = (uint32_t *)malloc(sw * 4u);
        wp_encoder e;
        memset(&e, 0, sizeof e);
        e.tape = w; e.tape_len = 4; e.out = out; e.out_cap = cap;
        CHECK_ERR(wp_cbor_encode(&e, flags, scratch, sw), WP_ERR_BAD_TAPE);
        free(out);
        free(scratch);
        tu_end();
    }
}

/* ===================================================================== simple values, bad */

typedef struct { const char *name; uint32_t w[8]; uint32_t n; uint32_t off; uint32_t out_len; } bcase;
static const bcase bad_cases[] = {
    { "SIMPLE 24", { TAG(WP_E_SIMPLE, 24) }, 1, 0, 0 },
    { "SIMPLE 25", { TAG(WP_E_SIMPLE, 25) }, 1, 0, 0 },
    { "SIMPLE 28", { TAG(WP_E_SIMPLE, 28) }, 1, 0, 0 },
    { "SIMPLE 31", { TAG(WP_E_SIMPLE, 31) }, 1, 0, 0 },
    { "SIMPLE 256", { TAG(WP_E_SIMPLE, 256) }, 1, 0, 0 },
    { "SIMPLE 0xffffff", { TAG(WP_E_SIMPLE, 0xffffff) }, 1, 0, 0 },
    { "SIMPLE 24 after NIL", { WP_E_NIL, TAG(WP_E_SIMPLE, 24) }, 2, 1, 1 },
    { "EXT (no CBOR form)", { TAG(WP_E_EXT, 1), 1, 0 }, 3, 0, 0 },
    { "DATE (no CBOR form)", { WP_E_DATE, 0, 0, 0 }, 4, 0, 0 },
    { "BADDATE (no CBOR form)", { WP_E_BADDATE }, 1, 0, 0 },
    { "unknown tag 0x7f", { 0x7f }, 1, 0, 0 },
    { "unknown tag 0xff", { WP_E_TRUE, 0xff }, 2, 1, 1 },
    { "INT without its word", { WP_E_INT }, 1, 0, 0 },
    { "UINT without its word", { WP_E_NIL, WP_E_UINT }, 2, 1, 1 },
    { "I64 with one word", { WP_E_I64, 1 }, 2, 0, 0 },
    { "U64 without words", { WP_E_U64 }, 1, 0, 0 },
    { "N64 with one word", { WP_E_NIL, WP_E_N64, 5 }, 3, 1, 1 },
    { "F64 without words", { WP_E_F64 }, 1, 0, 0 },
    { "F64 missing the hi word", { WP_E_F64, 0, 0 }, 3, 0, 0 },
    { "F64 at an odd word missing hi", { WP_E_NIL, WP_E_F64, 0 }, 3, 1, 1 },
    { "F32 without its word", { WP_E_F32 }, 1, 0, 0 },
    { "STR length past the end", { TAG(WP_E_STR, 5), 0x64636261 }, 2, 0, 0 },
    { "STR escape without length word", { TAG(WP_E_STR, ESC) }, 1, 0, 0 },
    { "STR escape length past the end", { TAG(WP_E_STR, ESC), 5, 0 }, 3, 0, 0 },
    { "BIN past the end", { WP_E_TRUE, TAG(WP_E_BIN, 9), 0, 0 }, 4, 1, 1 },
    { "RAW past the end", { TAG(WP_E_RAW, 4) }, 1, 0, 0 },
    { "ARR escape without count", { TAG(WP_E_ARR, ESC) }, 1, 0, 0 },
    { "MAP escape without count", { WP_E_NIL, TAG(WP_E_MAP, ESC) }, 2, 1, 1 },
    { "NUMS run past the end", { TAG(WP_E_NUMS, 2), 0, 0, 0 }, 4, 0, 0 },
    { "NUMS count near 2^24", { TAG(WP_E_NUMS, 0xfffffe), 0, 0, 0 }, 4, 0, 0 },
    { "TAG escape without words", { TAG(WP_E_TAG, ESC) }, 1, 0, 0 },
    { "TAG escape with one word", { TAG(WP_E_TAG, ESC), 7 }, 2, 0, 0 },
    { "bad entry inside a map", { TAG(WP_E_MAP, 1), TAG(WP_E_SIMPLE, 30), WP_E_NIL }, 3, 1, 1 },
    { "bad entry after a tag", { TAG(WP_E_TAG, 1), 0x40 }, 2, 1, 1 },
};

static void test_bad_tapes(void) {
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        static const uint32_t bfl[] = { 0, DET, IND };
        for (size_t fi = 0; fi < 3; fi++) {
            uint32_t flags = bfl[fi];
            const bcase *c = &bad_cases[i];
            tu_case("bad tape: %s flags %u", c->name, flags);
            uint32_t *w = (uint32_t *)malloc(c->n * 4u); /* exact size: ASan sees over-reads */
            memcpy(w, c->w, c->n * 4u);
            uint32_t cap = wp_encode_out_bound(c->n), sw = wp_cbor_scratch_words(c->n);
            uint8_t *out = (uint8_t *)malloc(cap);
            uint32_t *scratch = (uint32_t *)malloc(sw * 4u);
            wp_encoder e;
            memset(&e, 0, sizeof e);
            e.tape = w; e.tape_len = c->n; e.out = out; e.out_cap = cap;
            wp_err rc = wp_cbor_encode(&e, flags, scratch, sw);
            CHECK_ERR(rc, WP_ERR_BAD_TAPE);
            CHECK_EQ_U(e.err.code, WP_ERR_BAD_TAPE);
            CHECK_EQ_U(e.err.offset, c->off);
            CHECK_EQ_U(e.out_len, c->out_len);
            free(w);
            free(out);
            free(scratch);
            tu_end();
        }
    }
}

/* Lengths within 3 of 2^32 must not wrap the words check. Isolated: a miss is a wild memcpy. */
typedef struct { const char *name; uint32_t w[2]; uint32_t flags; } wcase;
static const wcase wrap_cases[] = {
    { "STR escape length 0xfffffffd", { TAG(WP_E_STR, ESC), 0xfffffffdu } },
    { "BIN escape length 0xffffffff", { TAG(WP_E_BIN, ESC), 0xffffffffu } },
    { "RAW escape length 0xfffffffe", { TAG(WP_E_RAW, ESC), 0xfffffffeu } },
    { "STR escape length 0xfffffffd (deterministic)", { TAG(WP_E_STR, ESC), 0xfffffffdu }, DET },
    { "BIN escape length 0xffffffff (deterministic)", { TAG(WP_E_BIN, ESC), 0xffffffffu }, DET },
};
static int wrap_child(void *arg) {
    const wcase *c = (const wcase *)arg;
    uint32_t *w = (uint32_t *)malloc(8);
    memcpy(w, c->w, 8);
    uint8_t *out = (uint8_t *)malloc(64);
    uint32_t sw = wp_cbor_scratch_words(2);
    uint32_t *scratch = (uint32_t *)malloc(sw * 4u);
    wp_encoder e;
    memset(&e, 0, sizeof e);
    e.tape = w; e.tape_len = 2; e.out = out; e.out_cap = 64;
    wp_err rc = wp_cbor_encode(&e, c->flags, scratch, sw);
    free(scratch);
    int ok = rc == WP_ERR_BAD_TAPE && e.err.offset == 0 && e.out_len == 0;
    if (!ok) fprintf(stderr, "  child: rc %s offset %u out_len %u\n", wp_err_name(rc), e.err.offset, e.out_len);
    free(w);
    free(out);
    return ok;
}
static void test_length_wrap(void) {
    for (size_t i = 0; i < sizeof wrap_cases / sizeof wrap_cases[0]; i++) {
        tu_case("bad tape (isolated): %s -> BAD_TAPE", wrap_cases[i].name);
        CHECK(tu_run_isolated(wrap_child, (void *)&wrap_cases[i]), "encoder crashed or did not report BAD_TAPE");
        tu_end();
    }
}

/* ===================================================================== deterministic maps */

/* A value tree: written to an encode tape, and encoded by an independent oracle (insertion order
 * and 8-byte 64-bit heads by default; sorted keys and shortest heads when deterministic). */
enum { V_UINT, V_NINT, V_INT, V_F64, V_STR, V_BIN, V_ARR, V_MAP, V_TAG, V_SIMPLE, V_FALSE, V_TRUE, V_NIL, V_UNDEF };
typedef struct val {
    int k;
    uint64_t u;      /* V_UINT value, V_NINT n (value -1 - n), V_TAG number, V_SIMPLE value */
    int32_t i;       /* V_INT */
    double d;        /* V_F64 */
    const char *s;   /* V_STR / V_BIN bytes (n of them) */
    uint32_t n;      /* bytes, items or pairs */
    struct val **kids;
} val;

static val *g_vals;
static uint32_t g_nvals, g_capvals;
static val **g_ptrs;
static uint32_t g_nptrs, g_capptrs;
static char *g_chars;
static uint32_t g_nchars;

static void v_reset(void) { g_nvals = 0; g_nptrs = 0; g_nchars = 0; }
static val *nv(int k) {
    if (g_nvals == g_capvals) { fprintf(stderr, "value pool full\n"); exit(2); }
    val *v = &g_vals[g_nvals++];
    memset(v, 0, sizeof *v);
    v->k = k;
    return v;
}
static val **nkids(uint32_t n) {
    if (g_nptrs + n > g_capptrs) { fprintf(stderr, "pointer pool full\n"); exit(2); }
    val **p = &g_ptrs[g_nptrs];
    g_nptrs += n;
    return p;
}
static val *v_uint(uint64_t u) { val *v = nv(V_UINT); v->u = u; return v; }
static val *v_nint(uint64_t n) { val *v = nv(V_NINT); v->u = n; return v; }
static val *v_int(int32_t i) { val *v = nv(V_INT); v->i = i; return v; }
static val *v_f64(double d) { val *v = nv(V_F64); v->d = d; return v; }
static val *v_str(const char *s) { val *v = nv(V_STR); v->s = s; v->n = (uint32_t)strlen(s); return v; }
static val *v_strf(const char *fmt, unsigned a) {
    if (g_nchars + 32 > 4000000) { fprintf(stderr, "char pool full\n"); exit(2); }
    char *s = g_chars + g_nchars;
    int n = snprintf(s, 32, fmt, a);
    g_nchars += (uint32_t)n + 1;
    return v_str(s);
}
static val *v_simple(int k) { return nv(k); }
static val *v_tag(uint64_t tag, val *x) { val *v = nv(V_TAG); v->u = tag; v->n = 1; v->kids = nkids(1); v->kids[0] = x; return v; }
static val *v_arr(uint32_t n) { val *v = nv(V_ARR); v->n = n; v->kids = nkids(n); return v; }
static val *v_map(uint32_t n) { val *v = nv(V_MAP); v->n = n; v->kids = nkids(2 * n); return v; }
static val *v_arr1(val *a) { val *v = v_arr(1); v->kids[0] = a; return v; }
static val *v_map1(val *k, val *x) { val *v = v_map(1); v->kids[0] = k; v->kids[1] = x; return v; }

static void v_tape(const val *v, tu_etape *t) {
    switch (v->k) {
    case V_UINT: if (v->u <= 0xffffffffu) tu_et_uint(t, (uint32_t)v->u); else tu_et_64(t, WP_E_U64, v->u); break;
    case V_NINT: if (v->u <= 0x7fffffffu) tu_et_int(t, (int32_t)(-1 - (int64_t)v->u)); else tu_et_64(t, WP_E_N64, v->u); break;
    case V_INT: tu_et_int(t, v->i); break;
    case V_F64: tu_et_f64(t, v->d); break;
    case V_STR: tu_et_blob(t, WP_E_STR, v->s, v->n); break;
    case V_BIN: tu_et_blob(t, WP_E_BIN, v->s, v->n); break;
    case V_ARR: tu_et_len(t, WP_E_ARR, v->n); for (uint32_t i = 0; i < v->n; i++) v_tape(v->kids[i], t); break;
    case V_MAP: tu_et_len(t, WP_E_MAP, v->n); for (uint32_t i = 0; i < 2 * v->n; i++) v_tape(v->kids[i], t); break;
    case V_TAG:
        if (v->u < ESC) tu_et_tag(t, WP_E_TAG, (uint32_t)v->u);
        else { tu_et_tag(t, WP_E_TAG, ESC); tu_et_word(t, (uint32_t)v->u); tu_et_word(t, (uint32_t)(v->u >> 32)); }
        v_tape(v->kids[0], t);
        break;
    case V_SIMPLE: tu_et_tag(t, WP_E_SIMPLE, (uint32_t)v->u); break;
    case V_FALSE: tu_et_tag(t, WP_E_FALSE, 0); break;
    case V_TRUE: tu_et_tag(t, WP_E_TRUE, 0); break;
    case V_NIL: tu_et_tag(t, WP_E_NIL, 0); break;
    default: tu_et_tag(t, WP_E_UNDEF, 0); break;
    }
}

static void o_head(tu_buf *b, uint32_t major, uint64_t v, int eight) {
    uint32_t m = major << 5;
    if (eight) { tu_buf_u8(b, m | 27); tu_buf_be(b, v, 8); }
    else if (v < 24) tu_buf_u8(b, m | (uint32_t)v);
    else if (v <= 0xff) { tu_buf_u8(b, m | 24); tu_buf_be(b, v, 1); }
    else if (v <= 0xffff) { tu_buf_u8(b, m | 25); tu_buf_be(b, v, 2); }
    else if (v <= 0xffffffffu) { tu_buf_u8(b, m | 26); tu_buf_be(b, v, 4); }
    else { tu_buf_u8(b, m | 27); tu_buf_be(b, v, 8); }
}

typedef struct { tu_buf k, kv; uint32_t order; } entry;
static int entry_cmp(const void *a, const void *b) {
    const entry *x = (const entry *)a, *y = (const entry *)b;
    uint32_t m = x->k.len < y->k.len ? x->k.len : y->k.len;
    int c = m ? memcmp(x->k.p, y->k.p, m) : 0;
    if (!c) c = x->k.len < y->k.len ? -1 : x->k.len > y->k.len;
    if (!c) c = x->order < y->order ? -1 : 1; /* stable */
    return c;
}

/* det: 0 insertion order, 1 deterministic, 2 indefinite-length arrays and maps */
static void v_enc(const val *v, tu_buf *b, int det) {
    if (det == 2 && (v->k == V_ARR || v->k == V_MAP)) {
        tu_buf_u8(b, v->k == V_ARR ? 0x9f : 0xbf);
        for (uint32_t i = 0; i < (v->k == V_ARR ? v->n : 2 * v->n); i++) v_enc(v->kids[i], b, det);
        tu_buf_u8(b, 0xff);
        return;
    }
    int shortest = det == 1;
    switch (v->k) {
    case V_UINT: o_head(b, 0, v->u, !shortest && v->u > 0xffffffffu); break;
    case V_NINT: o_head(b, 1, v->u, !shortest && v->u > 0x7fffffffu); break;
    case V_INT: if (v->i >= 0) o_head(b, 0, (uint64_t)v->i, 0); else o_head(b, 1, (uint64_t)(-1 - (int64_t)v->i), 0); break;
    case V_F64: oracle_f64(b, v->d, 0); break;
    case V_STR: o_head(b, 3, v->n, 0); tu_buf_bytes(b, v->s, v->n); break;
    case V_BIN: o_head(b, 2, v->n, 0); tu_buf_bytes(b, v->s, v->n); break;
    case V_ARR: o_head(b, 4, v->n, 0); for (uint32_t i = 0; i < v->n; i++) v_enc(v->kids[i], b, det); break;
    case V_MAP: {
        o_head(b, 5, v->n, 0);
        if (det != 1) { for (uint32_t i = 0; i < 2 * v->n; i++) v_enc(v->kids[i], b, det); break; }
        entry *e = (entry *)calloc(v->n ? v->n : 1, sizeof *e);
        for (uint32_t i = 0; i < v->n; i++) {
            v_enc(v->kids[2 * i], &e[i].k, det);
            tu_buf_bytes(&e[i].kv, e[i].k.p, e[i].k.len);
            v_enc(v->kids[2 * i + 1], &e[i].kv, det);
            e[i].order = i;
        }
        qsort(e, v->n, sizeof *e, entry_cmp);
        for (uint32_t i = 0; i < v->n; i++) {
            tu_buf_bytes(b, e[i].kv.p, e[i].kv.len);
            tu_buf_free(&e[i].k);
            tu_buf_free(&e[i].kv);
        }
        free(e);
        break;
    }
    case V_TAG: o_head(b, 6, v->u, 0); v_enc(v->kids[0], b, det); break;
    case V_SIMPLE: if (v->u < 24) tu_buf_u8(b, 0xe0 | (uint32_t)v->u); else { tu_buf_u8(b, 0xf8); tu_buf_u8(b, (uint32_t)v->u); } break;
    case V_FALSE: tu_buf_u8(b, 0xf4); break;
    case V_TRUE: tu_buf_u8(b, 0xf5); break;
    case V_NIL: tu_buf_u8(b, 0xf6); break;
    default: tu_buf_u8(b, 0xf7); break;
    }
}

/* Encode v with and without WP_CBOR_DETERMINISTIC and with WP_CBOR_INDEFINITE; compare with the
 * oracle (and with `hex` for the deterministic bytes when given). DETERMINISTIC wins over
 * INDEFINITE. */
static int check_val(const val *v, const char *hex) {
    tu_etape t = { 0 };
    tu_buf want = { 0 }, plain = { 0 }, ind = { 0 };
    v_tape(v, &t);
    v_enc(v, &want, 1);
    v_enc(v, &plain, 0);
    v_enc(v, &ind, 2);
    int ok = 1;
    if (hex) {
        tu_buf h = { 0 };
        tu_buf_hex(&h, hex);
        ok &= CHECK_BYTES(want.p, want.len, h.p, h.len); /* the oracle itself */
        tu_buf_free(&h);
    }
    ok &= check_encode(&t, DET, &want);
    ok &= check_encode(&t, 0, &plain);
    ok &= check_encode(&t, IND, &ind);
    ok &= check_encode(&t, DET | IND, &want);
    tu_et_free(&t);
    tu_buf_free(&want);
    tu_buf_free(&plain);
    tu_buf_free(&ind);
    return ok;
}

static void shuffle(tu_rng *r, uint32_t *p, uint32_t n) {
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = tu_below(r, i);
        uint32_t x = p[i - 1]; p[i - 1] = p[j]; p[j] = x;
    }
}

/* random value for deterministic tests: maps at every level, keys of every kind */
static val *rand_val(tu_rng *r, int depth) {
    uint32_t p = tu_below(r, depth > 3 ? 60 : 100);
    if (p < 10) return v_uint(tu_below(r, 3) ? tu_below(r, 300) : tu_rand(r) >> tu_below(r, 64));
    if (p < 18) return v_nint(tu_below(r, 2) ? tu_below(r, 300) : tu_rand(r) >> tu_below(r, 64));
    if (p < 24) return v_int((int32_t)(uint32_t)tu_rand(r) >> tu_below(r, 32));
    if (p < 30) {
        static const double fv[] = { 0.0, -0.0, 1.5, 100000.0, 1.1, 65504.0, 1e300, -4.1, 0.5 };
        return v_f64(tu_below(r, 3) ? fv[tu_below(r, 9)] : (double)(int32_t)tu_rand(r) / 8.0);
    }
    if (p < 45) return v_strf(tu_below(r, 4) ? "%c" : "k%u", tu_below(r, 4) ? 'a' + tu_below(r, 26) : tu_below(r, 1000));
    if (p < 48) return v_simple(V_FALSE + (int)tu_below(r, 4));
    if (p < 52) { val *v = nv(V_SIMPLE); v->u = tu_below(r, 2) ? tu_below(r, 20) : 32 + tu_below(r, 224); return v; }
    if (p < 58) { static const uint64_t tg[] = { 0, 1, 2, 24, 255, 256, 55799, 0xffffff, 0x100000000ull };
                  return v_tag(tg[tu_below(r, 9)], rand_val(r, depth + 1)); }
    if (p < 72) {
        uint32_t n = tu_below(r, 5);
        val *a = v_arr(n);
        for (uint32_t i = 0; i < n; i++) a->kids[i] = rand_val(r, depth + 1);
        return a;
    }
    uint32_t n = tu_below(r, 8) == 0 ? 24 + tu_below(r, 10) : tu_below(r, 6);
    val *m = v_map(n);
    for (uint32_t i = 0; i < n; i++) {
        m->kids[2 * i] = rand_val(r, depth + 2); /* keys: any kind, shallower */
        m->kids[2 * i + 1] = rand_val(r, depth + 1);
    }
    return m;
}

static void test_deterministic(void) {
    g_capvals = 400000; g_vals = (val *)malloc(g_capvals * sizeof *g_vals);
    g_capptrs = 800000; g_ptrs = (val **)malloc(g_capptrs * sizeof *g_ptrs);
    g_chars = (char *)malloc(4000000);
    tu_rng rng = { 2024 };

    /* RFC 8949 4.2.1: 10, 100, -1, "z", "aa", [100], [-1], false */
    tu_case("RFC 8949 4.2.1 key order, 300 permutations");
    {
        static const char *const want_kv[] = { "0a", "1864", "20", "617a", "626161", "811864", "8120", "f4" };
        uint32_t perm[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
        for (int round = 0; round < 300; round++) {
            if (round == 1) for (uint32_t i = 0; i < 8; i++) perm[i] = 7 - i;
            else if (round > 1) shuffle(&rng, perm, 8);
            v_reset();
            val *m = v_map(8);
            for (uint32_t i = 0; i < 8; i++) {
                val *k;
                switch (perm[i]) {
                case 0: k = v_uint(10); break;
                case 1: k = v_uint(100); break;
                case 2: k = v_int(-1); break;
                case 3: k = v_str("z"); break;
                case 4: k = v_str("aa"); break;
                case 5: k = v_arr1(v_uint(100)); break;
                case 6: k = v_arr1(v_int(-1)); break;
                default: k = v_simple(V_FALSE); break;
                }
                m->kids[2 * i] = k;
                m->kids[2 * i + 1] = v_uint(perm[i]);
            }
            char hex[128] = "a8";
            for (int i = 0; i < 8; i++) {
                strcat(hex, want_kv[i]);
                char vv[4];
                snprintf(vv, sizeof vv, "%02x", i);
                strcat(hex, vv);
            }
            if (!check_val(m, hex)) break;
        }
    }
    tu_end();

    typedef struct { const char *name; const char *hex; } fixed;
    static const fixed fixed_cases[] = {
        { "nested maps sorted at every level", "a2 6161 81 a2 6178 02 6179 01 6162 a2 6161 02 617a 01" },
        { "maps as keys of maps", "a2 a1 6161 00 02 a2 6161 02 6162 01 01" },
        { "tagged keys", "a4 03 6179 c0 6161 617a c1 05 6178 db 0000000100000000 00 f6" },
        { "float keys by their preferred encodings", "a3 f9 3e00 01 fa 47c35000 02 fb 3ff199999999999a 03" },
        { "duplicate keys keep their order", "a3 01 02 01 01 61 61 00" },
    };
    for (size_t fi = 0; fi < sizeof fixed_cases / sizeof fixed_cases[0]; fi++) {
        tu_case("deterministic: %s", fixed_cases[fi].name);
        v_reset();
        val *m;
        switch (fi) {
        case 0: {
            val *inner1 = v_map(2);
            inner1->kids[0] = v_str("z"); inner1->kids[1] = v_uint(1);
            inner1->kids[2] = v_str("a"); inner1->kids[3] = v_uint(2);
            val *inner2 = v_map(2);
            inner2->kids[0] = v_str("y"); inner2->kids[1] = v_uint(1);
            inner2->kids[2] = v_str("x"); inner2->kids[3] = v_uint(2);
            m = v_map(2);
            m->kids[0] = v_str("b"); m->kids[1] = inner1;
            m->kids[2] = v_str("a"); m->kids[3] = v_arr1(inner2);
            break;
        }
        case 1: {
            val *k1 = v_map(2);
            k1->kids[0] = v_str("b"); k1->kids[1] = v_uint(1);
            k1->kids[2] = v_str("a"); k1->kids[3] = v_uint(2);
            m = v_map(2);
            m->kids[0] = k1; m->kids[1] = v_uint(1);
            m->kids[2] = v_map1(v_str("a"), v_uint(0)); m->kids[3] = v_uint(2);
            break;
        }
        case 2:
            m = v_map(4);
            m->kids[0] = v_tag(1, v_uint(5)); m->kids[1] = v_str("x");
            m->kids[2] = v_uint(3); m->kids[3] = v_str("y");
            m->kids[4] = v_tag(0x100000000ull, v_uint(0)); m->kids[5] = nv(V_NIL);
            m->kids[6] = v_tag(0, v_str("a")); m->kids[7] = v_str("z");
            break;
        case 3:
            m = v_map(3);
            m->kids[0] = v_f64(1.1); m->kids[1] = v_uint(3);
            m->kids[2] = v_f64(100000.0); m->kids[3] = v_uint(2);
            m->kids[4] = v_f64(1.5); m->kids[5] = v_uint(1);
            break;
        default:
            m = v_map(3);
            m->kids[0] = v_str("a"); m->kids[1] = v_uint(0);
            m->kids[2] = v_uint(1); m->kids[3] = v_uint(2);
            m->kids[4] = v_uint(1); m->kids[5] = v_uint(1);
            break;
        }
        check_val(m, fixed_cases[fi].hex);
        tu_end();
    }

    tu_case("deterministic: 1000 random trees with maps at every level");
    for (int round = 0; round < 1000; round++) {
        v_reset();
        if (!check_val(rand_val(&rng, 0), NULL)) { fprintf(stderr, "  round %d\n", round); break; }
    }
    tu_end();

    tu_case("deterministic: map of 10^4 keys in random order -> sorted (top level, nested, map values)");
    for (int shape = 0; shape < 3; shape++) {
        v_reset();
        uint32_t n = 10000;
        uint32_t *perm = (uint32_t *)malloc(n * 4u);
        for (uint32_t i = 0; i < n; i++) perm[i] = i;
        shuffle(&rng, perm, n);
        val *m = v_map(n);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t k = perm[i];
            val *key;
            switch (k % 4) {
            case 0: key = v_uint((uint64_t)k * 2654435761u); break;
            case 1: key = v_nint(k); break;
            case 2: key = v_strf("key%u", k); break;
            default: key = v_arr1(v_uint(k)); break;
            }
            m->kids[2 * i] = key;
            m->kids[2 * i + 1] = shape == 2 ? v_map1(v_strf("z%u", k), v_map1(v_uint(k), v_uint(i))) : v_uint(i);
        }
        val *top = m;
        if (shape == 1) {
            top = v_arr(3);
            top->kids[0] = v_uint(1);
            top->kids[1] = v_map1(v_str("big"), m);
            top->kids[2] = v_str("end");
        }
        if (!check_val(top, NULL)) fprintf(stderr, "  shape %d\n", shape);
        free(perm);
    }
    tu_end();

    free(g_vals);
    free(g_ptrs);
    free(g_chars);
}

/* ===================================================================== indefinite lengths */

typedef struct { const char *name; const char *ind; const char *ind_det; const char *ind_f64; } icase;
static const icase icases[] = {
    { "empty array", "9fff", "80", NULL },
    { "empty map", "bfff", "a0", NULL },
    { "nested array", "9f 01 9f 02 03 ff bf ff ff", "83 01 82 02 03 a0", NULL },
    { "nested maps", "bf 6162 9fff 6161 bf 01 9f f5 ff ff ff", "a2 6161 a1 01 81 f5 6162 80", NULL },
    { "tagged array", "c1 9f f6 ff", "c1 81 f6", NULL },
    { "escaped count, float, string", "9f f93e00 6178 ff", "82 f93e00 6178", "9f fb3ff8000000000000 6178 ff" },
    { "64-bit entry keeps its 8-byte head", "9f 1b0000000000000005 ff", "81 05", NULL },
    { "two top-level arrays", "9f 01 ff 9f 02 ff", "81 01 81 02", NULL },
    { "strings stay definite", "9f 5f ff", "81 5f", NULL }, /* RAW 5f: bytes as they are */
};

static void build_icase(size_t i, tu_etape *t) {
    switch (i) {
    case 0: tu_et_len(t, WP_E_ARR, 0); break;
    case 1: tu_et_len(t, WP_E_MAP, 0); break;
    case 2:
        tu_et_len(t, WP_E_ARR, 3); tu_et_int(t, 1);
        tu_et_len(t, WP_E_ARR, 2); tu_et_int(t, 2); tu_et_int(t, 3);
        tu_et_len(t, WP_E_MAP, 0);
        break;
    case 3:
        tu_et_len(t, WP_E_MAP, 2);
        tu_et_blob(t, WP_E_STR, "b", 1); tu_et_len(t, WP_E_ARR, 0);
        tu_et_blob(t, WP_E_STR, "a", 1); tu_et_len(t, WP_E_MAP, 1); tu_et_uint(t, 1);
        tu_et_len(t, WP_E_ARR, 1); tu_et_tag(t, WP_E_TRUE, 0);
        break;
    case 4: tu_et_tag(t, WP_E_TAG, 1); tu_et_len(t, WP_E_ARR, 1); tu_et_tag(t, WP_E_NIL, 0); break;
    case 5:
        tu_et_tag(t, WP_E_ARR, ESC); tu_et_word(t, 2); tu_et_f64(t, 1.5); tu_et_blob(t, WP_E_STR, "x", 1);
        break;
    case 6: tu_et_len(t, WP_E_ARR, 1); tu_et_64(t, WP_E_U64, 5); break;
    case 7:
        tu_et_len(t, WP_E_ARR, 1); tu_et_int(t, 1);
        tu_et_len(t, WP_E_ARR, 1); tu_et_int(t, 2);
        break;
    default: tu_et_len(t, WP_E_ARR, 1); tu_et_blob(t, WP_E_RAW, "\x5f", 1); break;
    }
}

static void test_indefinite(void) {
    for (size_t i = 0; i < sizeof icases / sizeof icases[0]; i++) {
        static const uint32_t fl[] = { IND, IND | DET, IND | F64 };
        for (size_t k = 0; k < 3; k++) {
            const icase *c = &icases[i];
            tu_case("WP_CBOR_INDEFINITE: %s flags %u", c->name, fl[k]);
            const char *hex = k == 0 ? c->ind : k == 1 ? c->ind_det : c->ind_f64 ? c->ind_f64 : c->ind;
            tu_etape t = { 0 };
            tu_buf want = { 0 };
            build_icase(i, &t);
            tu_buf_hex(&want, hex);
            check_encode(&t, fl[k], &want);
            tu_et_free(&t);
            tu_buf_free(&want);
            tu_end();
        }
    }
}

/* ===================================================================== output full, scratch */

static void build_sample(tu_etape *t, int which) {
    static uint8_t big[300];
    for (int i = 0; i < 300; i++) big[i] = (uint8_t)i;
    switch (which) {
    case 0: tu_et_tag(t, WP_E_NIL, 0); break;
    case 1: tu_et_f64(t, 3.25); break;
    case 2: tu_et_f64(t, 1.1); break;
    case 3:
        tu_et_len(t, WP_E_ARR, 5);
        tu_et_int(t, -70000); tu_et_blob(t, WP_E_STR, big, 40); tu_et_64(t, WP_E_U64, 7);
        tu_et_blob(t, WP_E_BIN, big, 300); tu_et_64(t, WP_E_N64, 1ull << 40);
        break;
    case 4:
        for (int i = 0; i < 40; i++) tu_et_tag(t, WP_E_TRUE, 0);
        break;
    case 5: /* maps to sort, nested, with tags */
        tu_et_len(t, WP_E_MAP, 3);
        tu_et_blob(t, WP_E_STR, "zz", 2); tu_et_tag(t, WP_E_TAG, 1); tu_et_f64(t, 1.1);
        tu_et_int(t, -5); tu_et_len(t, WP_E_MAP, 2);
        tu_et_blob(t, WP_E_STR, "b", 1); tu_et_tag(t, WP_E_SIMPLE, 99);
        tu_et_blob(t, WP_E_STR, "a", 1); tu_et_blob(t, WP_E_BIN, big, 30);
        tu_et_tag(t, WP_E_TAG, ESC); tu_et_word(t, 1); tu_et_word(t, 1); tu_et_int(t, 0);
        tu_et_blob(t, WP_E_RAW, "\x82\x01\x02", 3);
        break;
    default: /* many small strings */
        for (int i = 0; i < 30; i++) tu_et_blob(t, WP_E_STR, big + i, (uint32_t)i);
        break;
    }
}

static void test_output_full(void) {
    for (int which = 0; which < 7; which++) {
        static const uint32_t ofl[] = { 0, DET, IND };
        for (size_t fi = 0; fi < 3; fi++) {
            uint32_t flags = ofl[fi];
            tu_case("output full: sample %d flags %u at every capacity", which, flags);
            tu_etape t = { 0 };
            tu_buf ref = { 0 };
            wp_encoder e;
            build_sample(&t, which);
            CHECK_ERR(tu_cbor_encode(&t, flags, &ref, &e), WP_OK);
            uint32_t actual = ref.len, bound = wp_encode_out_bound(t.len), sw = wp_cbor_scratch_words(t.len);
            CHECK(actual <= bound);
            uint32_t *scratch = (uint32_t *)malloc(sw * 4u);
            for (uint32_t cap = 0; cap <= bound + 1; cap++) {
                uint8_t *exact = (uint8_t *)malloc(cap ? cap : 1);
                memset(&e, 0, sizeof e);
                e.tape = t.w; e.tape_len = t.len; e.out = exact; e.out_cap = cap;
                wp_err rc = wp_cbor_encode(&e, flags, scratch, sw);
                if (cap < actual) CHECK_ERR(rc, WP_ERR_OUTPUT_FULL);
                if (cap >= bound) CHECK_ERR(rc, WP_OK);
                if (rc == WP_OK) {
                    CHECK_BYTES(exact, e.out_len, ref.p, ref.len);
                } else {
                    CHECK_ERR(rc, WP_ERR_OUTPUT_FULL);
                    CHECK(e.needed >= actual && e.needed > cap, "cap %u: needed %u (actual %u)", cap, e.needed, actual);
                    CHECK(e.out_len <= cap, "cap %u: out_len %u", cap, e.out_len);
                    if (!(flags & DET))
                        CHECK(e.out_len <= actual && memcmp(exact, ref.p, e.out_len) == 0, "cap %u prefix", cap);
                    uint32_t need = e.needed;
                    uint8_t *again = (uint8_t *)malloc(need);
                    memset(&e, 0, sizeof e);
                    e.tape = t.w; e.tape_len = t.len; e.out = again; e.out_cap = need;
                    CHECK_ERR(wp_cbor_encode(&e, flags, scratch, sw), WP_OK);
                    CHECK_BYTES(again, e.out_len, ref.p, ref.len);
                    free(again);
                }
                free(exact);
                uint8_t *canary = (uint8_t *)malloc((size_t)cap + 64);
                memset(canary, 0xa5, (size_t)cap + 64);
                memset(&e, 0, sizeof e);
                e.tape = t.w; e.tape_len = t.len; e.out = canary; e.out_cap = cap;
                (void)wp_cbor_encode(&e, flags, scratch, sw);
                int clean = 1;
                for (uint32_t k = cap; k < cap + 64; k++) if (canary[k] != 0xa5) clean = 0;
                CHECK(clean, "cap %u: write past out_cap", cap);
                free(canary);
            }
            free(scratch);
            tu_et_free(&t);
            tu_buf_free(&ref);
            tu_end();
        }
    }
}

/* A tape whose deterministic encoding needs much scratch: n nested maps, each with a long string
 * key, wrapping a map of many keys. */
static void build_scratch_heavy(tu_etape *t, int which) {
    static char big[200];
    memset(big, 'q', sizeof big);
    if (which == 0) {
        for (int i = 0; i < 300; i++) { tu_et_len(t, WP_E_MAP, 2); tu_et_int(t, i); tu_et_blob(t, WP_E_STR, big, 150);
                                        tu_et_int(t, -i); }
        /* the innermost value: 500 keys in reverse order */
        tu_et_len(t, WP_E_MAP, 500);
        for (int i = 499; i >= 0; i--) { tu_et_int(t, i); tu_et_blob(t, WP_E_BIN, big, 3); }
        for (int i = 0; i < 300; i++) tu_et_tag(t, WP_E_NIL, 0);
    } else if (which == 1) {
        for (int i = 0; i < 2000; i++) tu_et_len(t, WP_E_ARR, 1); /* one frame per word */
        tu_et_tag(t, WP_E_NIL, 0);
    } else {
        for (int i = 0; i < 1000; i++) tu_et_len(t, WP_E_MAP, 1); /* maps as keys of maps */
        tu_et_tag(t, WP_E_NIL, 0);
        for (int i = 0; i < 1000; i++) tu_et_tag(t, WP_E_TRUE, 0);
    }
}

/* A NULL scratch: documented as unused without WP_CBOR_DETERMINISTIC, and an error with it. Run
 * isolated: the pointer arithmetic on the scratch must not be undefined behaviour (UBSan). */
typedef struct { uint32_t flags; } ncase;
static int null_scratch_child(void *arg) {
    const ncase *c = (const ncase *)arg;
    tu_etape t = { 0 };
    build_sample(&t, 5);
    uint32_t cap = wp_encode_out_bound(t.len);
    uint8_t *out = (uint8_t *)malloc(cap);
    wp_encoder e;
    memset(&e, 0, sizeof e);
    e.tape = t.w; e.tape_len = t.len; e.out = out; e.out_cap = cap;
    wp_err rc = wp_cbor_encode(&e, c->flags, NULL, 0);
    int ok = (c->flags & (DET | IND)) ? rc != WP_OK && e.err.code == rc : rc == WP_OK;
    if (!ok) fprintf(stderr, "  child: rc %s\n", wp_err_name(rc));
    free(out);
    tu_et_free(&t);
    return ok;
}

static void test_scratch(void) {
    static const ncase nc[] = { { 0 }, { DET }, { IND } };
    for (size_t i = 0; i < sizeof nc / sizeof nc[0]; i++) {
        tu_case("NULL scratch, flags %u: %s, no undefined behaviour (isolated)", nc[i].flags,
                (nc[i].flags & (DET | IND)) ? "an error" : "unused");
        CHECK(tu_run_isolated(null_scratch_child, (void *)&nc[i]), "crashed, sanitizer report or wrong result");
        tu_end();
    }
    for (int which = 0; which < 4; which++) {
        tu_case("scratch: sample %d, one word short / exact (deterministic, indefinite)", which);
        tu_etape t = { 0 };
        if (which < 3) build_scratch_heavy(&t, which);
        else build_sample(&t, 5);
        tu_buf ref = { 0 };
        wp_encoder e;
        CHECK_ERR(tu_cbor_encode(&t, DET, &ref, &e), WP_OK); /* exact-size heap scratch */
        uint32_t sw = wp_cbor_scratch_words(t.len), cap = wp_encode_out_bound(t.len);
        CHECK(sw > 1);
        uint8_t *out = (uint8_t *)malloc(cap);
        for (int k = 1; k < 5; k++) {
            uint32_t sflags = k < 3 ? DET : IND;
            uint32_t scap = (k & 1) ? sw - 1 : sw;
            uint32_t *scratch = (uint32_t *)malloc((size_t)scap * 4);
            memset(out, 0xa5, cap);
            memset(&e, 0, sizeof e);
            e.tape = t.w; e.tape_len = t.len; e.out = out; e.out_cap = cap;
            wp_err rc = wp_cbor_encode(&e, sflags, scratch, scap);
            if (k & 1) {
                CHECK(rc != WP_OK, "scratch %u of %u words accepted", scap, sw);
                CHECK_ERR(e.err.code, rc);
                int untouched = 1;
                for (uint32_t i = 0; i < cap; i++) if (out[i] != 0xa5) untouched = 0;
                CHECK(untouched, "output written with a too-small scratch");
            } else {
                CHECK_ERR(rc, WP_OK);
                if (sflags == DET) CHECK_BYTES(out, e.out_len, ref.p, ref.len);
            }
            /* without WP_CBOR_DETERMINISTIC the scratch is not used: a short one is fine */
            memset(&e, 0, sizeof e);
            e.tape = t.w; e.tape_len = t.len; e.out = out; e.out_cap = cap;
            CHECK_ERR(wp_cbor_encode(&e, 0, scratch, scap), WP_OK);
            free(scratch);
        }
        free(out);
        tu_buf_free(&ref);
        tu_et_free(&t);
        tu_end();
    }
}

/* ===================================================================== cbor-x's bundled strings */

/* WP_E_CBOR_BOFF writes 1a and four bytes that the next WP_E_CBOR_BHERE fills with the distance
 * from that 1a to where BHERE stands (cbor-x's offset to a bundle's strings); with two open, BHERE
 * fills the older one (a new bundle's offset is written before the previous bundle's strings).
 * js/src/cbor.js writes them only with neither deterministic nor indefiniteLengths. */
static void bundle_tape(tu_etape *t, int two) {
    tu_et_tag(t, WP_E_TAG, 0xdff9); tu_et_len(t, WP_E_ARR, 2); tu_et_tag(t, WP_E_CBOR_BOFF, 0);
    tu_et_len(t, WP_E_ARR, two ? 2 : 1);
    tu_et_tag(t, WP_E_TAG, 15); tu_et_uint(t, 4);
    if (two) {
        /* the second string opens a new bundle, which carries the first one's strings */
        tu_et_tag(t, WP_E_TAG, 0xdff9); tu_et_len(t, WP_E_ARR, 4); tu_et_tag(t, WP_E_CBOR_BOFF, 0);
        tu_et_tag(t, WP_E_CBOR_BHERE, 0); tu_et_blob(t, WP_E_STR, "", 0); tu_et_blob(t, WP_E_STR, "abcd", 4);
        tu_et_tag(t, WP_E_TAG, 15); tu_et_uint(t, 4);
        tu_et_tag(t, WP_E_CBOR_BHERE, 0); tu_et_blob(t, WP_E_STR, "", 0); tu_et_blob(t, WP_E_STR, "wxyz", 4);
    } else {
        tu_et_tag(t, WP_E_CBOR_BHERE, 0); tu_et_blob(t, WP_E_STR, "", 0); tu_et_blob(t, WP_E_STR, "abcd", 4);
    }
}

static void test_bundles(void) {
    static const char *const want[2] = {
        "d9dff9 82 1a00000008 81 cf04 60 6461626364",
        /* (cbor-x reads it back as ["abcd", "wxyz"]: tests/cbor-bundle.test.js) */
        "d9dff9 82 1a00000011 82 cf04 d9dff9 84 1a0000000d 60 6461626364 cf04 60 647778797a",
    };
    for (int two = 0; two < 2; two++) {
        tu_case("bundle offsets (%s)", two ? "two bundles" : "one bundle");
        tu_etape t = { 0 };
        tu_buf w = { 0 };
        bundle_tape(&t, two);
        tu_buf_hex(&w, want[two]);
        check_encode(&t, 0, &w);
        /* a BHERE with no open BOFF writes nothing and fills nothing */
        tu_et_tag(&t, WP_E_CBOR_BHERE, 0);
        check_encode(&t, 0, &w);
        /* and the decoder reads the encoder's bytes */
        tu_dec x;
        wp_tables tb;
        wp_tables_reset(&tb);
        CHECK_ERR(tu_cbor_decode(&x, &tb, w.p, w.len, 0), WP_OK);
        tu_dec_free(&x);
        tu_et_free(&t); tu_buf_free(&w);
        tu_end();
    }
}

/* ===================================================================== main */

int main(void) {
    test_heads();
    test_floats();
    test_number_runs();
    test_bad_tapes();
    test_length_wrap();
    test_deterministic();
    test_indefinite();
    test_output_full();
    test_scratch();
    test_bundles();
    tu_check_str16(0);
    tu_check_keys(0);
    tu_check_str16(WP_CBOR_DETERMINISTIC);
    tu_check_keys(WP_CBOR_DETERMINISTIC);
    tu_check_str16(WP_CBOR_INDEFINITE);
    tu_check_keys(WP_CBOR_INDEFINITE);
    return tu_finish();
}
