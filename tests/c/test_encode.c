/*
 * test_encode.c: table-driven tests of wp_msgpack_encode: every entry type at every size
 * boundary (encode tape -> expected bytes), whole tapes, output-buffer limits and malformed tapes.
 */
#include <math.h>
#include "test_util.h"

enum kind { K_NIL, K_FALSE, K_TRUE, K_UNDEF, K_BADDATE, K_INT, K_UINT, K_I64, K_U64, K_F64, K_F32,
            K_STR, K_BIN, K_RAW, K_EXT, K_ARR, K_MAP, K_DATE, K_STR_ESC, K_ARR_ESC, K_MAP_ESC };

typedef struct ecase {
    enum kind kind;
    int64_t v;         /* ints; STR/BIN/RAW/EXT length; ARR/MAP count; DATE seconds */
    double d;          /* F64 / F32 */
    uint32_t aux;      /* EXT type payload; DATE nanoseconds */
    const char *hdr;   /* expected bytes (hex), followed by the v body bytes for STR/BIN/RAW/EXT */
} ecase;

#define E(k, val, h) { .kind = k, .v = val, .hdr = h }

static const ecase cases[] = {
    E(K_NIL, 0, "c0"), E(K_FALSE, 0, "c2"), E(K_TRUE, 0, "c3"),
    E(K_UNDEF, 0, "d4 00 00"), E(K_BADDATE, 0, "d4 ff ff"),
    /* WP_E_INT: smallest form */
    E(K_INT, 0, "00"), E(K_INT, 1, "01"), E(K_INT, 127, "7f"), E(K_INT, 128, "cc 80"), E(K_INT, 255, "cc ff"),
    E(K_INT, 256, "cd 01 00"), E(K_INT, 65535, "cd ff ff"), E(K_INT, 65536, "ce 00 01 00 00"),
    E(K_INT, INT32_MAX, "ce 7f ff ff ff"),
    E(K_INT, -1, "ff"), E(K_INT, -32, "e0"), E(K_INT, -33, "d0 df"), E(K_INT, -128, "d0 80"),
    E(K_INT, -129, "d1 ff 7f"), E(K_INT, -32768, "d1 80 00"), E(K_INT, -32769, "d2 ff ff 7f ff"),
    E(K_INT, INT32_MIN, "d2 80 00 00 00"),
    /* WP_E_UINT */
    E(K_UINT, 0, "00"), E(K_UINT, 127, "7f"), E(K_UINT, 128, "cc 80"), E(K_UINT, 255, "cc ff"),
    E(K_UINT, 256, "cd 01 00"), E(K_UINT, 65535, "cd ff ff"), E(K_UINT, 65536, "ce 00 01 00 00"),
    E(K_UINT, 2147483648ll, "ce 80 00 00 00"), E(K_UINT, 4294967295ll, "ce ff ff ff ff"),
    /* WP_E_I64 / WP_E_U64: always the 64-bit form (BigInts keep their width, as msgpackr) */
    E(K_I64, 0, "d3 00 00 00 00 00 00 00 00"), E(K_I64, 5, "d3 00 00 00 00 00 00 00 05"),
    E(K_I64, -1, "d3 ff ff ff ff ff ff ff ff"), E(K_I64, 4294967296ll, "d3 00 00 00 01 00 00 00 00"),
    E(K_I64, INT64_MIN, "d3 80 00 00 00 00 00 00 00"), E(K_I64, INT64_MAX, "d3 7f ff ff ff ff ff ff ff"),
    E(K_U64, 0, "cf 00 00 00 00 00 00 00 00"), E(K_U64, 0x0102030405060708ll, "cf 01 02 03 04 05 06 07 08"),
    E(K_U64, -1, "cf ff ff ff ff ff ff ff ff"),
    /* floats */
    { .kind = K_F64, .d = 1.5, .hdr = "cb 3f f8 00 00 00 00 00 00" },
    { .kind = K_F64, .d = 0.1, .hdr = "cb 3f b9 99 99 99 99 99 9a" },
    { .kind = K_F64, .d = -0.0, .hdr = "cb 80 00 00 00 00 00 00 00" },
    { .kind = K_F64, .d = 1.0, .hdr = "cb 3f f0 00 00 00 00 00 00" }, /* never shrunk */
    { .kind = K_F64, .d = INFINITY, .hdr = "cb 7f f0 00 00 00 00 00 00" },
    { .kind = K_F64, .d = NAN, .hdr = "cb 7f f8 00 00 00 00 00 00" },
    { .kind = K_F32, .d = 1.5, .hdr = "ca 3f c0 00 00" },
    { .kind = K_F32, .d = -1.0, .hdr = "ca bf 80 00 00" },
    { .kind = K_F32, .d = 0.1, .hdr = "ca 3d cc cc cd" },
    /* str */
    E(K_STR, 0, "a0"), E(K_STR, 1, "a1"), E(K_STR, 31, "bf"), E(K_STR, 32, "d9 20"), E(K_STR, 255, "d9 ff"),
    E(K_STR, 256, "da 01 00"), E(K_STR, 65535, "da ff ff"), E(K_STR, 65536, "db 00 01 00 00"),
    E(K_STR, 100001, "db 00 01 86 a1"),
    E(K_STR_ESC, 3, "a3"), E(K_STR_ESC, 40, "d9 28"), /* the length word form, any length */
    /* bin */
    E(K_BIN, 0, "c4 00"), E(K_BIN, 1, "c4 01"), E(K_BIN, 255, "c4 ff"), E(K_BIN, 256, "c5 01 00"),
    E(K_BIN, 65535, "c5 ff ff"), E(K_BIN, 65536, "c6 00 01 00 00"),
    /* raw: bytes copied as they are */
    E(K_RAW, 0, ""), E(K_RAW, 1, ""), E(K_RAW, 5, ""), E(K_RAW, 70000, ""),
    /* array / map headers */
    E(K_ARR, 0, "90"), E(K_ARR, 15, "9f"), E(K_ARR, 16, "dc 00 10"), E(K_ARR, 65535, "dc ff ff"),
    E(K_ARR, 65536, "dd 00 01 00 00"), E(K_ARR, 0xfffffe, "dd 00 ff ff fe"),
    E(K_ARR_ESC, 0xffffff, "dd 00 ff ff ff"), E(K_ARR_ESC, 0xffffffffll, "dd ff ff ff ff"), E(K_ARR_ESC, 2, "92"),
    E(K_MAP, 0, "80"), E(K_MAP, 15, "8f"), E(K_MAP, 16, "de 00 10"), E(K_MAP, 65535, "de ff ff"),
    E(K_MAP, 65536, "df 00 01 00 00"), E(K_MAP_ESC, 0x1000000, "df 01 00 00 00"),
    /* ext: fixext for 1, 2, 4, 8, 16; ext8/16/32 otherwise */
    { .kind = K_EXT, .v = 1, .aux = 5, .hdr = "d4 05" },
    { .kind = K_EXT, .v = 2, .aux = 5, .hdr = "d5 05" },
    { .kind = K_EXT, .v = 4, .aux = 5, .hdr = "d6 05" },
    { .kind = K_EXT, .v = 8, .aux = 5, .hdr = "d7 05" },
    { .kind = K_EXT, .v = 16, .aux = 5, .hdr = "d8 05" },
    { .kind = K_EXT, .v = 0, .aux = 5, .hdr = "c7 00 05" },
    { .kind = K_EXT, .v = 3, .aux = 5, .hdr = "c7 03 05" },
    { .kind = K_EXT, .v = 5, .aux = 0x80, .hdr = "c7 05 80" },
    { .kind = K_EXT, .v = 17, .aux = 0xff, .hdr = "c7 11 ff" },
    { .kind = K_EXT, .v = 255, .aux = 1, .hdr = "c7 ff 01" },
    { .kind = K_EXT, .v = 256, .aux = 1, .hdr = "c8 01 00 01" },
    { .kind = K_EXT, .v = 65535, .aux = 1, .hdr = "c8 ff ff 01" },
    { .kind = K_EXT, .v = 65536, .aux = 0x7f, .hdr = "c9 00 01 00 00 7f" },
    /* dates: 32-bit when nsec = 0 and 0 <= sec < 2^32, 64-bit when 0 <= sec < 2^34, else 96-bit */
    { .kind = K_DATE, .v = 0, .aux = 0, .hdr = "d6 ff 00 00 00 00" },
    { .kind = K_DATE, .v = 1, .aux = 0, .hdr = "d6 ff 00 00 00 01" },
    { .kind = K_DATE, .v = 4294967295ll, .aux = 0, .hdr = "d6 ff ff ff ff ff" },
    { .kind = K_DATE, .v = 4294967296ll, .aux = 0, .hdr = "d7 ff 00 00 00 01 00 00 00 00" },
    { .kind = K_DATE, .v = 1, .aux = 1000000, .hdr = "d7 ff 00 3d 09 00 00 00 00 01" },
    { .kind = K_DATE, .v = 0, .aux = 1, .hdr = "d7 ff 00 00 00 04 00 00 00 00" },
    { .kind = K_DATE, .v = 0, .aux = 999999999, .hdr = "d7 ff ee 6b 27 fc 00 00 00 00" },
    { .kind = K_DATE, .v = 17179869183ll, .aux = 0, .hdr = "d7 ff 00 00 00 03 ff ff ff ff" },
    { .kind = K_DATE, .v = 17179869184ll, .aux = 0, .hdr = "c7 0c ff 00 00 00 00 00 00 00 04 00 00 00 00" },
    { .kind = K_DATE, .v = -1, .aux = 0, .hdr = "c7 0c ff 00 00 00 00 ff ff ff ff ff ff ff ff" },
    { .kind = K_DATE, .v = -1, .aux = 500000000, .hdr = "c7 0c ff 1d cd 65 00 ff ff ff ff ff ff ff ff" },
    { .kind = K_DATE, .v = INT64_MIN, .aux = 0, .hdr = "c7 0c ff 00 00 00 00 80 00 00 00 00 00 00 00" },
};

static uint8_t body_byte(uint32_t i) { return (uint8_t)(0x20 + (i * 7) % 90); }

/* The tape of one case (with `lead` NIL entries first, to move the entry to another word). */
static void build(const ecase *c, tu_etape *t, uint32_t lead) {
    for (uint32_t i = 0; i < lead; i++) tu_et_tag(t, WP_E_NIL, 0);
    uint32_t n = (uint32_t)c->v;
    uint8_t *body = NULL;
    if (c->kind == K_STR || c->kind == K_BIN || c->kind == K_RAW || c->kind == K_EXT || c->kind == K_STR_ESC) {
        body = (uint8_t *)malloc(n ? n : 1);
        for (uint32_t i = 0; i < n; i++) body[i] = body_byte(i);
    }
    switch (c->kind) {
    case K_NIL: tu_et_tag(t, WP_E_NIL, 0); break;
    case K_FALSE: tu_et_tag(t, WP_E_FALSE, 0); break;
    case K_TRUE: tu_et_tag(t, WP_E_TRUE, 0); break;
    case K_UNDEF: tu_et_tag(t, WP_E_UNDEF, 0); break;
    case K_BADDATE: tu_et_tag(t, WP_E_BADDATE, 0); break;
    case K_INT: tu_et_int(t, (int32_t)c->v); break;
    case K_UINT: tu_et_uint(t, (uint32_t)c->v); break;
    case K_I64: tu_et_64(t, WP_E_I64, (uint64_t)c->v); break;
    case K_U64: tu_et_64(t, WP_E_U64, (uint64_t)c->v); break;
    case K_F64: tu_et_f64(t, c->d); break;
    case K_F32: tu_et_f32(t, (float)c->d); break;
    case K_STR: tu_et_blob(t, WP_E_STR, body, n); break;
    case K_BIN: tu_et_blob(t, WP_E_BIN, body, n); break;
    case K_RAW: tu_et_blob(t, WP_E_RAW, body, n); break;
    case K_STR_ESC: tu_et_tag(t, WP_E_STR, WP_LEN_ESCAPE); tu_et_word(t, n); tu_et_bytes(t, body, n); break;
    case K_EXT: tu_et_ext(t, c->aux, body, n); break;
    case K_ARR: tu_et_len(t, WP_E_ARR, n); break;
    case K_MAP: tu_et_len(t, WP_E_MAP, n); break;
    case K_ARR_ESC: tu_et_tag(t, WP_E_ARR, WP_LEN_ESCAPE); tu_et_word(t, n); break;
    case K_MAP_ESC: tu_et_tag(t, WP_E_MAP, WP_LEN_ESCAPE); tu_et_word(t, n); break;
    case K_DATE: tu_et_date(t, c->v, c->aux); break;
    }
    free(body);
}

static void expected(const ecase *c, tu_buf *want, uint32_t lead) {
    for (uint32_t i = 0; i < lead; i++) tu_buf_u8(want, 0xc0);
    tu_buf_hex(want, c->hdr);
    if (c->kind == K_STR || c->kind == K_BIN || c->kind == K_RAW || c->kind == K_EXT || c->kind == K_STR_ESC)
        for (uint32_t i = 0; i < (uint32_t)c->v; i++) tu_buf_u8(want, body_byte(i));
}

static void test_table(void) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const ecase *c = &cases[i];
        for (uint32_t lead = 0; lead < 2; lead++) { /* the entry at an even and an odd word */
            tu_case("encode kind %d v %lld d %g aux %u (lead %u) -> %s", (int)c->kind, (long long)c->v, c->d,
                    c->aux, lead, c->hdr);
            tu_etape t = { 0 };
            tu_buf want = { 0 }, got = { 0 };
            build(c, &t, lead);
            expected(c, &want, lead);
            wp_encoder e;
            wp_err rc = tu_encode(&t, &got, &e);
            CHECK_ERR(rc, WP_OK);
            CHECK_EQ_U(e.err.code, WP_OK);
            CHECK_EQ_U(e.out_len, want.len);
            CHECK_BYTES(got.p, got.len, want.p, want.len);
            CHECK(want.len <= wp_encode_out_bound(t.len), "bound");
            tu_et_free(&t);
            tu_buf_free(&want);
            tu_buf_free(&got);
            tu_end();
        }
    }
}

/* ===================================================================== whole tapes */

static void test_sequences(void) {
    tu_etape t = { 0 };
    tu_buf got = { 0 }, want = { 0 };
    wp_encoder e;

    tu_case("array of int, str, nil");
    tu_et_len(&t, WP_E_ARR, 3); tu_et_int(&t, 1); tu_et_blob(&t, WP_E_STR, "a", 1); tu_et_tag(&t, WP_E_NIL, 0);
    CHECK_ERR(tu_encode(&t, &got, &e), WP_OK);
    tu_buf_hex(&want, "93 01 a1 61 c0");
    CHECK_BYTES(got.p, got.len, want.p, want.len);
    tu_end();

    tu_case("map with f64 values at odd and even words");
    t.len = 0; want.len = 0;
    tu_et_len(&t, WP_E_MAP, 2);                      /* word 0 */
    tu_et_blob(&t, WP_E_STR, "x", 1);                /* words 1, 2 */
    tu_et_f64(&t, 1.5);                              /* tag 3, f64 at 4..5 */
    tu_et_blob(&t, WP_E_STR, "yz", 2);               /* words 6, 7 */
    tu_et_f64(&t, -2.0);                             /* tag 8, pad 9, f64 at 10..11 */
    CHECK_EQ_U(t.len, 12);
    CHECK_ERR(tu_encode(&t, &got, &e), WP_OK);
    tu_buf_hex(&want, "82 a1 78 cb 3ff8000000000000 a2 79 7a cb c000000000000000");
    CHECK_BYTES(got.p, got.len, want.p, want.len);
    tu_end();

    tu_case("nested containers, ext, date, bin, raw");
    t.len = 0; want.len = 0;
    tu_et_len(&t, WP_E_ARR, 5);
    tu_et_len(&t, WP_E_ARR, 0);
    tu_et_ext(&t, 1, "\x01\x02\x03\x04", 4);
    tu_et_date(&t, 1, 0);
    tu_et_blob(&t, WP_E_BIN, "\xff", 1);
    tu_et_blob(&t, WP_E_RAW, "\xa2hi", 3);
    CHECK_ERR(tu_encode(&t, &got, &e), WP_OK);
    tu_buf_hex(&want, "95 90 d6 01 01020304 d6 ff 00000001 c4 01 ff a2 68 69");
    CHECK_BYTES(got.p, got.len, want.p, want.len);
    tu_end();

    tu_case("empty tape -> no bytes");
    t.len = 0;
    CHECK_ERR(tu_encode(&t, &got, &e), WP_OK);
    CHECK_EQ_U(e.out_len, 0);
    tu_end();

    tu_case("ext type payload above 0xff is masked to a uint8");
    t.len = 0; want.len = 0;
    tu_et_tag(&t, WP_E_EXT, 0x1fe); tu_et_word(&t, 1); tu_et_bytes(&t, "\x07", 1);
    CHECK_ERR(tu_encode(&t, &got, &e), WP_OK);
    tu_buf_hex(&want, "d4 fe 07");
    CHECK_BYTES(got.p, got.len, want.p, want.len);
    tu_end();

    tu_case("UTF-8 string bytes are copied unchanged");
    t.len = 0; want.len = 0;
    tu_et_blob(&t, WP_E_STR, "\xc3\xa9\xf0\x9f\x98\x80", 6);
    CHECK_ERR(tu_encode(&t, &got, &e), WP_OK);
    tu_buf_hex(&want, "a6 c3 a9 f0 9f 98 80");
    CHECK_BYTES(got.p, got.len, want.p, want.len);
    tu_end();

    tu_et_free(&t);
    tu_buf_free(&got);
    tu_buf_free(&want);
}

/* ===================================================================== output full */

static void build_sample(tu_etape *t, int which) {
    static uint8_t big[300];
    for (int i = 0; i < 300; i++) big[i] = (uint8_t)i;
    switch (which) {
    case 0: tu_et_tag(t, WP_E_NIL, 0); break;
    case 1: tu_et_f64(t, 3.25); break;
    case 2: tu_et_date(t, -1, 5); break;
    case 3:
        tu_et_len(t, WP_E_ARR, 4);
        tu_et_int(t, -70000); tu_et_blob(t, WP_E_STR, big, 40); tu_et_64(t, WP_E_U64, 7);
        tu_et_blob(t, WP_E_BIN, big, 300);
        break;
    case 4:
        for (int i = 0; i < 40; i++) tu_et_tag(t, WP_E_TRUE, 0);
        break;
    case 5:
        tu_et_len(t, WP_E_MAP, 1); tu_et_blob(t, WP_E_STR, big, 3); tu_et_ext(t, 9, big, 256);
        tu_et_blob(t, WP_E_RAW, big, 17);
        break;
    default: /* many small strings */
        for (int i = 0; i < 30; i++) tu_et_blob(t, WP_E_STR, big + i, (uint32_t)i);
        break;
    }
}

static void test_output_full(void) {
    for (int which = 0; which < 7; which++) {
        tu_case("output full: sample %d at every capacity", which);
        tu_etape t = { 0 };
        tu_buf ref = { 0 };
        wp_encoder e;
        build_sample(&t, which);
        CHECK_ERR(tu_encode(&t, &ref, &e), WP_OK);
        uint32_t actual = ref.len, bound = wp_encode_out_bound(t.len);
        CHECK(actual <= bound);
        for (uint32_t cap = 0; cap <= bound + 1; cap++) {
            /* exact-size block: ASan reports any write past out_cap */
            uint8_t *exact = (uint8_t *)malloc(cap ? cap : 1);
            memset(&e, 0, sizeof e);
            e.tape = t.w; e.tape_len = t.len; e.out = exact; e.out_cap = cap;
            e.needed = 12345;
            wp_err rc = wp_msgpack_encode(&e);
            if (cap < actual) CHECK_ERR(rc, WP_ERR_OUTPUT_FULL);
            if (cap >= bound) CHECK_ERR(rc, WP_OK);
            if (rc == WP_OK) {
                CHECK_BYTES(exact, e.out_len, ref.p, ref.len);
            } else {
                CHECK_ERR(rc, WP_ERR_OUTPUT_FULL);
                CHECK_EQ_U(e.err.code, WP_ERR_OUTPUT_FULL);
                CHECK(e.needed >= actual, "cap %u: needed %u < actual %u", cap, e.needed, actual);
                CHECK(e.needed > cap, "cap %u: needed %u must exceed the capacity", cap, e.needed);
                CHECK(e.out_len <= cap, "cap %u: out_len %u", cap, e.out_len);
                /* what was written is a prefix of the real output */
                CHECK(e.out_len <= actual && memcmp(exact, ref.p, e.out_len) == 0, "cap %u prefix", cap);
                /* retrying with `needed` succeeds */
                uint32_t need = e.needed;
                uint8_t *again = (uint8_t *)malloc(need);
                memset(&e, 0, sizeof e);
                e.tape = t.w; e.tape_len = t.len; e.out = again; e.out_cap = need;
                CHECK_ERR(wp_msgpack_encode(&e), WP_OK);
                CHECK_BYTES(again, e.out_len, ref.p, ref.len);
                free(again);
            }
            free(exact);
            /* canary variant: bytes after out_cap stay untouched */
            uint8_t *canary = (uint8_t *)malloc((size_t)cap + 64);
            memset(canary, 0xa5, (size_t)cap + 64);
            memset(&e, 0, sizeof e);
            e.tape = t.w; e.tape_len = t.len; e.out = canary; e.out_cap = cap;
            (void)wp_msgpack_encode(&e);
            int clean = 1;
            for (uint32_t k = cap; k < cap + 64; k++) if (canary[k] != 0xa5) clean = 0;
            CHECK(clean, "cap %u: write past out_cap", cap);
            free(canary);
        }
        tu_et_free(&t);
        tu_buf_free(&ref);
        tu_end();
    }
}

/* ===================================================================== malformed tapes */

#define TAG(t, p) ((uint32_t)(t) | ((uint32_t)(p) << 8))
#define ESC WP_LEN_ESCAPE

typedef struct { const char *name; uint32_t w[8]; uint32_t n; uint32_t off; uint32_t out_len; } bcase;
static const bcase bad_cases[] = {
    { "unknown tag 18", { 18 }, 1, 0, 0 },
    { "unknown tag 0xff", { 0xff }, 1, 0, 0 },
    { "unknown tag after nil", { WP_E_NIL, 0x40 }, 2, 1, 1 },
    { "unknown tag after int", { WP_E_INT, 5, TAG(99, 1) }, 3, 2, 1 },
    { "INT without its word", { WP_E_INT }, 1, 0, 0 },
    { "UINT without its word", { WP_E_NIL, WP_E_UINT }, 2, 1, 1 },
    { "I64 with one word", { WP_E_I64, 1 }, 2, 0, 0 },
    { "U64 without words", { WP_E_U64 }, 1, 0, 0 },
    { "F64 without words", { WP_E_F64 }, 1, 0, 0 },
    { "F64 missing the hi word", { WP_E_F64, 0, 0 }, 3, 0, 0 },
    { "F64 at an odd word missing hi", { WP_E_NIL, WP_E_F64, 0 }, 3, 1, 1 },
    { "F32 without its word", { WP_E_F32 }, 1, 0, 0 },
    { "STR length past the end", { TAG(WP_E_STR, 5), 0x64636261 }, 2, 0, 0 },
    { "STR length 1 without bytes", { TAG(WP_E_STR, 1) }, 1, 0, 0 },
    { "STR escape without length word", { TAG(WP_E_STR, ESC) }, 1, 0, 0 },
    { "STR escape length past the end", { TAG(WP_E_STR, ESC), 5, 0 }, 3, 0, 0 },
    { "STR huge length", { TAG(WP_E_STR, ESC), 0x7fffffff, 0 }, 3, 0, 0 },
    { "BIN past the end", { WP_E_TRUE, TAG(WP_E_BIN, 9), 0, 0 }, 4, 1, 1 },
    { "RAW past the end", { TAG(WP_E_RAW, 4) }, 1, 0, 0 },
    { "EXT without length word", { TAG(WP_E_EXT, 1) }, 1, 0, 0 },
    { "EXT bytes past the end", { TAG(WP_E_EXT, 1), 5, 0 }, 3, 0, 0 },
    { "EXT huge length", { TAG(WP_E_EXT, 1), 0xfffffff0u }, 2, 0, 0 },
    { "ARR escape without count", { TAG(WP_E_ARR, ESC) }, 1, 0, 0 },
    { "MAP escape without count", { WP_E_NIL, TAG(WP_E_MAP, ESC) }, 2, 1, 1 },
    { "DATE with two words", { WP_E_DATE, 0, 0 }, 3, 0, 0 },
    { "DATE after entries", { WP_E_NIL, WP_E_NIL, WP_E_DATE, 0, 0 }, 5, 2, 2 },
    /* (ext_len 0 here: an XBIN of any bytes has no room) */
    { "XBIN past ext_len", { WP_E_NIL, TAG(WP_E_XBIN, 0), 5, 0 }, 4, 1, 1 },
    { "XBIN with a payload", { TAG(WP_E_XBIN, 1), 0, 0 }, 3, 0, 0 },
    { "XBIN without its offset word", { TAG(WP_E_XBIN, 0), 0 }, 2, 0, 0 },
    { "XBIN without its length", { TAG(WP_E_XBIN, 0) }, 1, 0, 0 },
};

static void test_bad_tapes(void) {
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bcase *c = &bad_cases[i];
        tu_case("bad tape: %s", c->name);
        uint32_t *w = (uint32_t *)malloc(c->n * 4u); /* exact size: ASan sees over-reads */
        memcpy(w, c->w, c->n * 4u);
        uint32_t cap = wp_encode_out_bound(c->n);
        uint8_t *out = (uint8_t *)malloc(cap);
        wp_encoder e;
        memset(&e, 0, sizeof e);
        e.tape = w; e.tape_len = c->n; e.out = out; e.out_cap = cap;
        wp_err rc = wp_msgpack_encode(&e);
        CHECK_ERR(rc, WP_ERR_BAD_TAPE);
        CHECK_EQ_U(e.err.code, WP_ERR_BAD_TAPE);
        CHECK_EQ_U(e.err.offset, c->off);
        CHECK_EQ_U(e.out_len, c->out_len);
        free(w);
        free(out);
        tu_end();
    }
}

/* Lengths within 3 of 2^32 make (len + 3) / 4 wrap to 0 words: the tape check must still reject
 * them. Run in a child process: a wrong answer here is a wild memcpy. */
typedef struct { const char *name; uint32_t w[2]; } wcase;
static const wcase wrap_cases[] = {
    { "STR escape length 0xfffffffd", { TAG(WP_E_STR, ESC), 0xfffffffdu } },
    { "BIN escape length 0xffffffff", { TAG(WP_E_BIN, ESC), 0xffffffffu } },
    { "RAW escape length 0xfffffffe", { TAG(WP_E_RAW, ESC), 0xfffffffeu } },
    { "EXT length 0xfffffffd", { TAG(WP_E_EXT, 1), 0xfffffffdu } },
};

static int wrap_child(void *arg) {
    const wcase *c = (const wcase *)arg;
    uint32_t *w = (uint32_t *)malloc(8);
    memcpy(w, c->w, 8);
    uint8_t *out = (uint8_t *)malloc(64);
    wp_encoder e;
    memset(&e, 0, sizeof e);
    e.tape = w; e.tape_len = 2; e.out = out; e.out_cap = 64;
    wp_err rc = wp_msgpack_encode(&e);
    int ok = rc == WP_ERR_BAD_TAPE && e.err.offset == 0 && e.out_len == 0;
    if (!ok) fprintf(stderr, "  child: rc %s offset %u out_len %u\n", wp_err_name(rc), e.err.offset, e.out_len);
    free(w);
    free(out);
    return ok;
}

static void test_length_wrap(void) {
    for (size_t i = 0; i < sizeof wrap_cases / sizeof wrap_cases[0]; i++) {
        tu_case("bad tape (isolated): %s -> BAD_TAPE", wrap_cases[i].name);
        CHECK(tu_run_isolated(wrap_child, (void *)&wrap_cases[i]),
              "encoder crashed or did not report BAD_TAPE (length wraps (len + 3) / 4)");
        tu_end();
    }
}

/* ===================================================================== number runs */

/* What writeNumber puts on the tape for v, in MessagePack: an integer in its smallest form when it
 * is a uint32 or an int32 (-0 as 0), else a float64. */
static void mp_oracle_number(tu_buf *b, double v) {
    if (v == v && v >= -2147483648.0 && v <= 4294967295.0 && v == (double)(int64_t)v) {
        int64_t x = (int64_t)v;
        if (x >= 0) {
            if (x < 128) tu_buf_u8(b, (uint32_t)x);
            else if (x <= 0xff) { tu_buf_u8(b, 0xcc); tu_buf_be(b, (uint64_t)x, 1); }
            else if (x <= 0xffff) { tu_buf_u8(b, 0xcd); tu_buf_be(b, (uint64_t)x, 2); }
            else { tu_buf_u8(b, 0xce); tu_buf_be(b, (uint64_t)x, 4); }
        } else if (x >= -32) {
            tu_buf_u8(b, (uint32_t)x & 0xffu);
        } else if (x >= -128) { tu_buf_u8(b, 0xd0); tu_buf_be(b, (uint64_t)x, 1); }
        else if (x >= -32768) { tu_buf_u8(b, 0xd1); tu_buf_be(b, (uint64_t)x, 2); }
        else { tu_buf_u8(b, 0xd2); tu_buf_be(b, (uint64_t)x, 4); }
    } else {
        uint64_t bits;
        memcpy(&bits, &v, 8);
        tu_buf_u8(b, 0xcb);
        tu_buf_be(b, bits, 8);
    }
}

/* Runs of vals (WP_E_NUMS entries of up to 100 numbers, each after a NIL when `lead`). */
static void mp_nums_tape(tu_etape *t, tu_buf *want, const double *vals, uint32_t count, uint32_t lead) {
    for (uint32_t k = 0; k < count; k += 100) {
        uint32_t m = count - k < 100 ? count - k : 100;
        if (lead) { tu_et_tag(t, WP_E_NIL, 0); tu_buf_u8(want, 0xc0); }
        uint32_t at = t->len;
        tu_et_tag(t, WP_E_NUMS, m);
        while (t->len < ((at + 2) & ~1u)) tu_et_word(t, 0);
        for (uint32_t j = 0; j < m; j++) {
            uint64_t bits;
            memcpy(&bits, &vals[k + j], 8);
            tu_et_word(t, (uint32_t)bits);
            tu_et_word(t, (uint32_t)(bits >> 32));
            mp_oracle_number(want, vals[k + j]);
        }
    }
}

static void mp_check_nums(const double *vals, uint32_t count, uint32_t lead) {
    tu_etape t = { 0 };
    tu_buf want = { 0 }, got = { 0 };
    mp_nums_tape(&t, &want, vals, count, lead);
    wp_encoder e;
    CHECK_ERR(tu_encode(&t, &got, &e), WP_OK);
    CHECK_BYTES(got.p, got.len, want.p, want.len);
    tu_et_free(&t);
    tu_buf_free(&want);
    tu_buf_free(&got);
}

/* Number runs against the oracle: every integer near the size classes (the one-byte forms take a
 * path of their own), their halves, -0, and integral values of every exponent up to 2^33 and
 * random ones whose low mantissa bits are zero (decided from the bits, not by converting). */
static void test_number_runs(void) {
    for (uint32_t lead = 0; lead < 2; lead++) {
        tu_case("NUMS: every integer in -70000..70000 and each half step, lead %u", lead);
        uint32_t n = 0;
        double *vals = (double *)malloc(sizeof(double) * 280003);
        for (int32_t x = -70000; x <= 70000; x++) { vals[n++] = x; vals[n++] = x + 0.5; }
        vals[n++] = -0.0;
        mp_check_nums(vals, n, lead);
        tu_end();

        tu_case("NUMS: 2^k, 2^k +- 1, -2^k, +-2^k +- 0.5 for k < 34, lead %u", lead);
        n = 0;
        for (int k = 0; k < 34; k++) {
            double p = ldexp(1.0, k);
            const double d[] = { p, p - 1, p + 1, -p, -p + 1, -p - 1, p + 0.5, p - 0.5, -p + 0.5, -p - 0.5 };
            for (uint32_t j = 0; j < 10; j++) vals[n++] = d[j];
        }
        mp_check_nums(vals, n, lead);
        tu_end();

        tu_case("NUMS: 200000 random doubles with their 21 low mantissa bits clear, lead %u", lead);
        tu_rng rng = { 41 + lead };
        n = 0;
        for (int i = 0; i < 200000; i++) {
            uint64_t r = tu_rand(&rng) & ~(uint64_t)0x1fffff;
            /* an exponent near the integer range most of the time, else any */
            if (i % 4) r = (r & 0x800fffffffffffffull) | ((uint64_t)(1013 + tu_below(&rng, 40)) << 52);
            double v;
            memcpy(&v, &r, 8);
            vals[n++] = v;
        }
        mp_check_nums(vals, n, lead);
        tu_end();
        free(vals);
    }
}

/* ===================================================================== msgpackr's extensions */

typedef struct { const char *name; uint32_t w[48]; uint32_t n; const char *hex; } mcase;
static const mcase mp_cases[] = {
    { "UINT8 0x40 (records mode)", { TAG(WP_E_UINT8, 0x40) }, 1, "cc 40" },
    { "UINT8 0x7f, 0xff", { TAG(WP_E_UINT8, 0x7f), TAG(WP_E_UINT8, 0xff) }, 2, "cc 7f cc ff" },
    { "REC one byte", { TAG(WP_E_REC, 0x40), TAG(WP_E_REC, 0x7f) }, 2, "40 7f" },
    { "REC two bytes", { TAG(WP_E_REC, 0x10000u | (0x03u << 8) | 0x61u) }, 1, "61 03" },
    { "RECDEF one byte, then keys", { TAG(WP_E_RECDEF, 0x41), TAG(WP_E_ARR, 1), TAG(WP_E_STR, 1), 0x61 }, 4,
      "d4 72 41 91 a1 61" },
    { "RECDEF two bytes", { TAG(WP_E_RECDEF, 0x10000u | (0xffu << 8) | 0x7fu) }, 1, "d5 72 7f ff" },
    { "PREFIX Set then array", { TAG(WP_E_PREFIX, 0x73), TAG(WP_E_ARR, 0) }, 2, "d4 73 00 90" },
    { "EXT4 id and pointer", { TAG(WP_E_EXT4, 0x69), 0x01020304u, TAG(WP_E_EXT4, 0x70), 1 }, 4,
      "d6 69 01020304 d6 70 00000001" },
    { "BYTE c1 then a length", { TAG(WP_E_BYTE, 0xc1), WP_E_INT, (uint32_t)-5 }, 3, "c1 fb" },
    /* a run of numbers: 0, -0, 2^32-1, 2^32, -1, -2^31, -2^31-1, 0.5 (after a padding word) */
    { "NUMS: each in the form a JS number takes", { TAG(WP_E_NUMS, 8), 0, 0, 0, 0, 0x80000000u,
      0xffe00000u, 0x41efffffu, 0, 0x41f00000u, 0, 0xbff00000u, 0, 0xc1e00000u, 0x00200000u, 0xc1e00000u,
      0, 0x3fe00000u }, 18, "00 00 ce ffffffff cb 41f0000000000000 ff d2 80000000 cb c1e0000000200000 cb 3fe0000000000000" },
    /* every size class and sign edge, fractions whose 21 low mantissa bits are zero (the test that
     * sends most floats straight to cb does not catch them), out-of-range integral values, a
     * subnormal, infinity */
    { "NUMS: integer edges, short fractions, out of range", { TAG(WP_E_NUMS, 23), 0, 0x00000000u, 0xc1e00000u,
      0x00000000u, 0xc0e00020u, 0x00000000u, 0xc0e00000u, 0x00000000u, 0xc0602000u, 0x00000000u, 0xc0600000u,
      0x00000000u, 0xc0408000u, 0x00000000u, 0xc0400000u, 0x00000000u, 0xbff00000u, 0x00000000u, 0x405fc000u,
      0x00000000u, 0x40600000u, 0x00000000u, 0x406fe000u, 0x00000000u, 0x40700000u, 0x00000000u, 0x40efffe0u,
      0x00000000u, 0x40f00000u, 0xffe00000u, 0x41efffffu, 0x00000000u, 0x3ff80000u, 0x00000000u, 0xc0040000u,
      0x00000000u, 0x3fd00000u, 0xfff00000u, 0x41efffffu, 0x00100000u, 0xc1e00000u, 0x00000001u, 0x00000000u,
      0x00000000u, 0x7ff00000u, 0x8800759cu, 0xfe37e43cu }, 48,
      "d2 80000000 d2 ffff7fff d1 8000 d1 ff7f d0 80 d0 df e0 ff 7f cc 80 cc ff cd 0100 cd ffff ce 00010000 "
      "ce ffffffff cb 3ff8000000000000 cb c004000000000000 cb 3fd0000000000000 cb 41effffffff00000 "
      "cb c1e0000000100000 cb 0000000000000001 cb 7ff0000000000000 cb fe37e43c8800759c" },
    { "NUMS unaligned start", { WP_E_NIL, TAG(WP_E_NUMS, 1), 0, 0x3ff00000u }, 4, "c0 01" },
    /* a bundle: reference, then (op 3) the strings after the value; the reference is the byte
     * distance from its own first byte to the first string */
    { "BUNDLE open + end", { TAG(WP_E_BUNDLE, 0), 0, TAG(WP_E_BYTE, 0xc1), TAG(WP_E_UINT, 0), 4,
      TAG(WP_E_BUNDLE, 3), 0, TAG(WP_E_STR, 0), TAG(WP_E_STR, 4), 0x64636261 }, 10,
      "d6 62 00000006 c1 04 a0 a4 61626364" },
    /* a second bundle: c8 ext holding the new reference and the first bundle's strings */
    { "BUNDLE open, next, close, end", { TAG(WP_E_BUNDLE, 0), 0, TAG(WP_E_BUNDLE, 1), 0,
      TAG(WP_E_STR, 0), TAG(WP_E_STR, 1), 0x61, TAG(WP_E_BUNDLE, 2), 0, TAG(WP_E_BUNDLE, 3), 0, TAG(WP_E_STR, 0) }, 12,
      "d6 62 0000000c c8 0007 62 00000007 a0 a1 61 a0" },
};

static void test_msgpackr_tags(void) {
    for (size_t i = 0; i < sizeof mp_cases / sizeof mp_cases[0]; i++) {
        const mcase *c = &mp_cases[i];
        tu_case("msgpackr tag: %s", c->name);
        tu_etape t = { 0 };
        tu_buf want = { 0 }, got = { 0 };
        for (uint32_t k = 0; k < c->n; k++) tu_et_word(&t, c->w[k]);
        tu_buf_hex(&want, c->hex);
        wp_encoder e;
        CHECK_ERR(tu_encode(&t, &got, &e), WP_OK);
        CHECK_BYTES(got.p, got.len, want.p, want.len);
        CHECK(want.len <= wp_encode_out_bound(t.len), "bound");
        tu_et_free(&t);
        tu_buf_free(&want);
        tu_buf_free(&got);
        tu_end();
    }
}

static const bcase mp_bad_cases[] = {
    { "EXT4 without its word", { TAG(WP_E_EXT4, 0x70) }, 1, 0, 0 },
    { "BUNDLE without its second word", { TAG(WP_E_BUNDLE, 0) }, 1, 0, 0 },
    { "BUNDLE next with no open reference", { TAG(WP_E_BUNDLE, 1), 0 }, 2, 0, 0 },
    { "BUNDLE close with no open reference", { TAG(WP_E_BUNDLE, 2), 0 }, 2, 0, 0 },
    { "BUNDLE end with no open reference", { WP_E_NIL, TAG(WP_E_BUNDLE, 3), 0 }, 3, 1, 1 },
    { "BUNDLE end twice", { TAG(WP_E_BUNDLE, 0), 0, TAG(WP_E_BUNDLE, 3), 0, TAG(WP_E_BUNDLE, 3), 0 }, 6, 4, 6 },
    { "BUNDLE unknown op", { TAG(WP_E_BUNDLE, 4), 0 }, 2, 0, 0 },
    { "NUMS run past the tape", { TAG(WP_E_NUMS, 2), 0, 0, 0 }, 4, 0, 0 },
    { "NUMS count near 2^24", { TAG(WP_E_NUMS, 0xfffffe), 0, 0, 0 }, 4, 0, 0 },
};

static void test_msgpackr_bad_tapes(void) {
    for (size_t i = 0; i < sizeof mp_bad_cases / sizeof mp_bad_cases[0]; i++) {
        const bcase *c = &mp_bad_cases[i];
        tu_case("bad tape: %s", c->name);
        uint32_t *w = (uint32_t *)malloc(c->n * 4u);
        memcpy(w, c->w, c->n * 4u);
        uint32_t cap = wp_encode_out_bound(c->n);
        uint8_t *out = (uint8_t *)malloc(cap);
        wp_encoder e;
        memset(&e, 0, sizeof e);
        e.tape = w; e.tape_len = c->n; e.out = out; e.out_cap = cap;
        CHECK_ERR(wp_msgpack_encode(&e), WP_ERR_BAD_TAPE);
        CHECK_EQ_U(e.err.offset, c->off);
        CHECK_EQ_U(e.out_len, c->out_len);
        free(w);
        free(out);
        tu_end();
    }
}

/* wp_copy (strings into the output, ASCII into the decoder's area): every length up to past
 * its memcpy cut-off, from and into buffers of exactly that size (ASan sees any byte outside). */
static void test_copy(void) {
    tu_case("wp_copy lengths 0..80");
    for (uint32_t n = 0; n <= 80; n++) {
        uint8_t *src = malloc(n ? n : 1), *dst = malloc(n ? n : 1);
        for (uint32_t i = 0; i < n; i++) { src[i] = (uint8_t)(i * 7 + n); dst[i] = 0xee; }
        wp_copy(dst, src, n);
        CHECK(n == 0 || memcmp(dst, src, n) == 0, "n=%u", n);
        free(src);
        free(dst);
    }
    tu_end();
}

/* XBIN: the encoder writes the header, the output offset of the bytes into the entry's last
 * word, and skips them (never writes them); the XBIN bytes of a tape add up to at most ext_len;
 * the CBOR encoder's tracked form takes none. */
static void test_xbin(void) {
    for (int cbor = 0; cbor < 2; cbor++) {
        for (uint32_t xn = 0; xn < 3; xn++) {
            static const uint32_t lens[3] = { 0, 300, 70000 };
            const uint32_t len = lens[xn];
            tu_case("%s: XBIN of %u bytes between entries", cbor ? "CBOR" : "MessagePack", len);
            uint32_t w[] = { TAG(WP_E_ARR, 3), WP_E_TRUE, TAG(WP_E_XBIN, 0), len, 0xdeadbeefu, WP_E_NIL };
            wp_encoder e;
            memset(&e, 0, sizeof e);
            e.tape = w; e.tape_len = 6; e.ext_len = len;
            uint32_t cap = wp_encode_out_need(&e);
            CHECK(cap >= wp_encode_out_bound(6) + len);
            uint8_t *out = (uint8_t *)malloc(cap);
            memset(out, 0xaa, cap);
            e.out = out; e.out_cap = cap;
            wp_err rc = cbor ? wp_cbor_encode(&e, 0, 0, 0) : wp_msgpack_encode(&e);
            CHECK_ERR(rc, WP_OK);
            /* the header: MessagePack bin8/16/32, CBOR major type 2 */
            const uint32_t hl = cbor ? (len < 24 ? 1 : len < 256 ? 2 : len < 65536 ? 3 : 5) : (len < 256 ? 2 : len < 65536 ? 3 : 5);
            CHECK_EQ_U(w[4], 2 + hl);
            CHECK_EQ_U(e.out_len, 2 + hl + len + 1);
            CHECK_EQ_U(out[0], cbor ? 0x83 : 0x93);
            CHECK_EQ_U(out[1], cbor ? 0xf5 : 0xc3);
            CHECK_EQ_U(out[2], cbor ? (len < 24 ? 0x40 + len : len < 256 ? 0x58 : len < 65536 ? 0x59 : 0x5a) : (len < 256 ? 0xc4 : len < 65536 ? 0xc5 : 0xc6));
            CHECK_EQ_U(out[2 + hl + len], cbor ? 0xf6 : 0xc0);
            uint32_t untouched = 0;
            for (uint32_t i = 0; i < len; i++) untouched += out[2 + hl + i] == 0xaa;
            CHECK_EQ_U(untouched, len);
            free(out);
            tu_end();
        }
        tu_case("%s: XBIN bytes past ext_len, and the tracked encoder", cbor ? "CBOR" : "MessagePack");
        uint32_t w[] = { TAG(WP_E_ARR, 2), TAG(WP_E_XBIN, 0), 300, 0, TAG(WP_E_XBIN, 0), 300, 0 };
        wp_encoder e;
        memset(&e, 0, sizeof e);
        e.tape = w; e.tape_len = 7; e.ext_len = 599;
        uint8_t out[1024];
        e.out = out; e.out_cap = sizeof out;
        wp_err rc = cbor ? wp_cbor_encode(&e, 0, 0, 0) : wp_msgpack_encode(&e);
        CHECK_ERR(rc, WP_ERR_BAD_TAPE);
        CHECK_EQ_U(e.err.offset, 4);
        e.ext_len = 600;
        rc = cbor ? wp_cbor_encode(&e, 0, 0, 0) : wp_msgpack_encode(&e);
        CHECK_ERR(rc, WP_OK);
        CHECK_EQ_U(w[3], 4);
        CHECK_EQ_U(w[6], cbor ? 4 + 300 + 3 : 4 + 300 + 3);
        /* output one byte short of the second value's bytes */
        e.out_cap = e.out_len - 1;
        rc = cbor ? wp_cbor_encode(&e, 0, 0, 0) : wp_msgpack_encode(&e);
        CHECK_ERR(rc, WP_ERR_OUTPUT_FULL);
        if (cbor) {
            uint32_t sw = wp_cbor_scratch_need(&e); /* (ext_len still 600: XBIN is refused anyway) */
            uint32_t *scratch = (uint32_t *)malloc(sw * 4u);
            e.out_cap = sizeof out;
            for (uint32_t f = 0; f < 2; f++) {
                rc = wp_cbor_encode(&e, f ? WP_CBOR_INDEFINITE : WP_CBOR_DETERMINISTIC, scratch, sw);
                CHECK_ERR(rc, WP_ERR_BAD_TAPE);
                CHECK_EQ_U(e.err.offset, 1);
            }
            free(scratch);
        }
        tu_end();
    }
}

int main(void) {
    test_xbin();
    test_copy();
    test_table();
    test_sequences();
    test_output_full();
    test_bad_tapes();
    test_length_wrap();
    test_msgpackr_tags();
    test_msgpackr_bad_tapes();
    test_number_runs();
    tu_check_str16(-1);
    tu_check_keys(-1);
    return tu_finish();
}
