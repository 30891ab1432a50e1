/*
 * test_decode.c: table-driven tests of wp_msgpack_decode (tape entries, containers, number runs,
 * key/shape interning, errors and their offsets, limits, rollback) and of the UTF-8 transcoder.
 */
#include <math.h>
#include "test_util.h"

static wp_tables T; /* large: static */

/* ===================================================================== scalars */

#define ERRV 0xffu /* tag value meaning "expect an error" */

typedef struct scase {
    const char *hex;
    uint32_t flags;
    uint32_t tag;        /* expected tag of the single entry (ERRV: expect err) */
    int64_t v;           /* INT/I32/U32/I64/U64 value; STRA/STRU/BIN/EXT length */
    double f;            /* F64/F32/DATE value */
    uint32_t off, type;  /* BIN/EXT input offset, EXT type */
    const char *s;       /* STRA expected bytes */
    uint16_t u16[8];     /* STRU expected units (v of them) */
    wp_err err;
    uint32_t eoff;
} scase;

#define S_INT(h, val) { .hex = h, .tag = WP_T_INT, .v = val }
#define S_TAG(h, t, val) { .hex = h, .tag = t, .v = val }
#define S_F(h, t, val) { .hex = h, .tag = t, .f = val }
#define S_FF(h, fl, t, val) { .hex = h, .flags = fl, .tag = t, .f = val }
#define S_ERR(h, e, o) { .hex = h, .tag = ERRV, .err = e, .eoff = o }

static const scase scalar_cases[] = {
    /* nil, booleans */
    S_TAG("c0", WP_T_NIL, 0), S_TAG("c2", WP_T_FALSE, 0), S_TAG("c3", WP_T_TRUE, 0),
    /* positive / negative fixint */
    S_INT("00", 0), S_INT("01", 1), S_INT("7f", 127), S_INT("ff", -1), S_INT("e0", -32), S_INT("f0", -16),
    /* uint8 / uint16 / int8 / int16 -> INT with the signed 24-bit payload */
    S_INT("cc 00", 0), S_INT("cc 7f", 127), S_INT("cc 80", 128), S_INT("cc ff", 255),
    S_INT("cd 00 00", 0), S_INT("cd 01 00", 256), S_INT("cd ff ff", 65535),
    S_INT("d0 00", 0), S_INT("d0 7f", 127), S_INT("d0 80", -128), S_INT("d0 ff", -1),
    S_INT("d1 80 00", -32768), S_INT("d1 7f ff", 32767), S_INT("d1 ff 7f", -129),
    /* uint32 -> U32, int32 -> I32 (the decoder keeps the wire width) */
    S_TAG("ce 00 00 00 00", WP_T_U32, 0), S_TAG("ce 00 01 00 00", WP_T_U32, 65536),
    S_TAG("ce 80 00 00 00", WP_T_U32, 2147483648ll), S_TAG("ce ff ff ff ff", WP_T_U32, 4294967295ll),
    S_TAG("d2 80 00 00 00", WP_T_I32, INT32_MIN), S_TAG("d2 ff ff ff ff", WP_T_I32, -1),
    S_TAG("d2 7f ff ff ff", WP_T_I32, INT32_MAX), S_TAG("d2 00 00 00 05", WP_T_I32, 5),
    /* uint64 / int64 -> lo, hi */
    S_TAG("cf 00 00 00 00 00 00 00 01", WP_T_U64, 1),
    S_TAG("cf 01 02 03 04 05 06 07 08", WP_T_U64, 0x0102030405060708ll),
    S_TAG("cf ff ff ff ff ff ff ff ff", WP_T_U64, -1), /* compared as uint64 */
    S_TAG("d3 ff ff ff ff ff ff ff ff", WP_T_I64, -1),
    S_TAG("d3 80 00 00 00 00 00 00 00", WP_T_I64, INT64_MIN),
    S_TAG("d3 7f ff ff ff ff ff ff ff", WP_T_I64, INT64_MAX),
    S_TAG("d3 00 00 00 00 00 00 00 00", WP_T_I64, 0),
    /* floats */
    S_F("ca 3f c0 00 00", WP_T_F64, 1.5), S_F("ca bf 80 00 00", WP_T_F64, -1.0),
    S_F("ca 3d cc cc cd", WP_T_F64, (double)0.1f), S_F("ca 7f 80 00 00", WP_T_F64, INFINITY),
    S_F("ca 7f c0 00 00", WP_T_F64, NAN),
    S_FF("ca 3f c0 00 00", WP_DEC_TAG_F32, WP_T_F32, 1.5),
    S_FF("ca 3d cc cc cd", WP_DEC_TAG_F32, WP_T_F32, (double)0.1f),
    S_F("cb 3f f8 00 00 00 00 00 00", WP_T_F64, 1.5), S_F("cb 3f b9 99 99 99 99 99 9a", WP_T_F64, 0.1),
    S_F("cb 80 00 00 00 00 00 00 00", WP_T_F64, -0.0), S_F("cb ff f0 00 00 00 00 00 00", WP_T_F64, -INFINITY),
    S_FF("cb 3f f8 00 00 00 00 00 00", WP_DEC_TAG_F32, WP_T_F64, 1.5), /* float64 stays F64 */
    /* ASCII strings -> STRA (bytes in the ascii area), every header form */
    { .hex = "a0", .tag = WP_T_STRA, .v = 0, .s = "" },
    { .hex = "a3 61 62 63", .tag = WP_T_STRA, .v = 3, .s = "abc" },
    { .hex = "d9 03 61 62 63", .tag = WP_T_STRA, .v = 3, .s = "abc" },
    { .hex = "da 00 03 61 62 63", .tag = WP_T_STRA, .v = 3, .s = "abc" },
    { .hex = "db 00 00 00 03 61 62 63", .tag = WP_T_STRA, .v = 3, .s = "abc" },
    { .hex = "d9 00", .tag = WP_T_STRA, .v = 0, .s = "" },
    { .hex = "a1 7f", .tag = WP_T_STRA, .v = 1, .s = "\x7f" },
    { .hex = "a1 00", .tag = WP_T_STRA, .v = 1, .s = "" }, /* NUL byte: length 1 checked below */
    /* non-ASCII strings -> STRU (UTF-16 units) */
    { .hex = "a2 c3 a9", .tag = WP_T_STRU, .v = 1, .u16 = { 0x00e9 } },
    { .hex = "a3 e2 82 ac", .tag = WP_T_STRU, .v = 1, .u16 = { 0x20ac } },
    { .hex = "a4 f0 9f 98 80", .tag = WP_T_STRU, .v = 2, .u16 = { 0xd83d, 0xde00 } },
    { .hex = "a5 61 c3 a9 62 63", .tag = WP_T_STRU, .v = 4, .u16 = { 'a', 0xe9, 'b', 'c' } },
    { .hex = "d9 02 c3 a9", .tag = WP_T_STRU, .v = 1, .u16 = { 0x00e9 } },
    { .hex = "a2 c0 80", .tag = WP_T_STRU, .v = 2, .u16 = { 0xfffd, 0xfffd } },
    { .hex = "a1 80", .tag = WP_T_STRU, .v = 1, .u16 = { 0xfffd } },
    { .hex = "a1 ff", .tag = WP_T_STRU, .v = 1, .u16 = { 0xfffd } },
    /* bin -> BIN length, input offset of the bytes */
    { .hex = "c4 00", .tag = WP_T_BIN, .v = 0, .off = 2 },
    { .hex = "c4 03 01 02 03", .tag = WP_T_BIN, .v = 3, .off = 2 },
    { .hex = "c5 00 02 aa bb", .tag = WP_T_BIN, .v = 2, .off = 3 },
    { .hex = "c6 00 00 00 01 aa", .tag = WP_T_BIN, .v = 1, .off = 5 },
    /* ext -> EXT type (as uint8), length, input offset */
    { .hex = "d4 01 aa", .tag = WP_T_EXT, .type = 1, .v = 1, .off = 2 },
    { .hex = "d5 02 aa bb", .tag = WP_T_EXT, .type = 2, .v = 2, .off = 2 },
    { .hex = "d6 7f 01 02 03 04", .tag = WP_T_EXT, .type = 127, .v = 4, .off = 2 },
    { .hex = "d7 80 01 02 03 04 05 06 07 08", .tag = WP_T_EXT, .type = 0x80, .v = 8, .off = 2 },
    { .hex = "d8 fe 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f", .tag = WP_T_EXT, .type = 0xfe, .v = 16, .off = 2 },
    S_TAG("d4 00 00", WP_T_UNDEF, 0),                               /* msgpackr / notepack undefined */
    S_TAG("c7 01 00 00", WP_T_UNDEF, 0),                            /* same ext in the ext8 form */
    { .hex = "d4 00 01", .tag = WP_T_EXT, .type = 0, .v = 1, .off = 2 },
    { .hex = "d5 00 00 00", .tag = WP_T_EXT, .type = 0, .v = 2, .off = 2 },
    { .hex = "c7 00 00", .tag = WP_T_EXT, .type = 0, .v = 0, .off = 3 },
    { .hex = "c7 00 05", .tag = WP_T_EXT, .type = 5, .v = 0, .off = 3 },
    { .hex = "c7 03 05 61 62 63", .tag = WP_T_EXT, .type = 5, .v = 3, .off = 3 },
    { .hex = "c7 01 fe 61", .tag = WP_T_EXT, .type = 0xfe, .v = 1, .off = 3 },
    { .hex = "c8 00 02 07 aa bb", .tag = WP_T_EXT, .type = 7, .v = 2, .off = 4 },
    { .hex = "c9 00 00 00 01 09 aa", .tag = WP_T_EXT, .type = 9, .v = 1, .off = 6 },
    { .hex = "c9 00 00 00 00 81", .tag = WP_T_EXT, .type = 0x81, .v = 0, .off = 6 },
    /* timestamps (ext type -1) -> DATE ms */
    S_F("d6 ff 00 00 00 00", WP_T_DATE, 0.0),
    S_F("d6 ff 00 00 00 01", WP_T_DATE, 1000.0),
    S_F("d6 ff ff ff ff ff", WP_T_DATE, 4294967295000.0),     /* 32-bit seconds are unsigned */
    S_F("d7 ff 003d090000000001", WP_T_DATE, 1001.0),         /* sec 1, nsec 1e6 */
    S_F("d7 ff 0000000400000001", WP_T_DATE, 1000.0),         /* sec 1, nsec 1: floored */
    S_F("d7 ff ee6b27fc00000000", WP_T_DATE, 999.0),          /* nsec 999999999 floored */
    S_F("d7 ff 00000003ffffffff", WP_T_DATE, 17179869183000.0), /* 34-bit max seconds */
    S_F("c7 0c ff 00000000 ffffffffffffffff", WP_T_DATE, -1000.0),
    S_F("c7 0c ff 1dcd6500 ffffffffffffffff", WP_T_DATE, -500.0),
    S_F("c7 0c ff 000f423f ffffffffffffffff", WP_T_DATE, -1000.0), /* -1 s + 0.999999 ms */
    S_F("c7 0c ff 0016e360 fffffffffffffffe", WP_T_DATE, -1999.0), /* -2 s + 1.5 ms */
    S_F("c7 0c ff 00000000 0000000400000000", WP_T_DATE, 17179869184000.0),
    S_F("c7 04 ff 00 00 00 01", WP_T_DATE, 1000.0),          /* ext8 forms are accepted */
    S_F("c7 08 ff 003d090000000001", WP_T_DATE, 1001.0),
    S_F("c8 00 04 ff 00 00 00 02", WP_T_DATE, 2000.0),
    S_F("d4 ff ff", WP_T_DATE, NAN),                          /* msgpackr's invalid Date */
    S_ERR("d4 ff 00", WP_ERR_BAD_TIMESTAMP, 0),
    S_ERR("d4 ff fe", WP_ERR_BAD_TIMESTAMP, 0),
    S_ERR("d5 ff 00 00", WP_ERR_BAD_TIMESTAMP, 0),
    S_ERR("d8 ff 00000000000000000000000000000000", WP_ERR_BAD_TIMESTAMP, 0),
    S_ERR("c7 00 ff", WP_ERR_BAD_TIMESTAMP, 0),
    S_ERR("c7 03 ff 00 00 00", WP_ERR_BAD_TIMESTAMP, 0),
    S_ERR("c7 0b ff 0000000000000000000000", WP_ERR_BAD_TIMESTAMP, 0),
    S_ERR("c7 0d ff 00000000000000000000000000", WP_ERR_BAD_TIMESTAMP, 0),
    S_ERR("d7 ff ee6b280000000000", WP_ERR_BAD_TIMESTAMP, 0),  /* 64-bit, nsec = 1e9 */
    S_ERR("d7 ff ffffffffffffffff", WP_ERR_BAD_TIMESTAMP, 0),  /* 64-bit, nsec = 2^30-1 */
    S_ERR("c7 0c ff 3b9aca00 0000000000000000", WP_ERR_BAD_TIMESTAMP, 0), /* 96-bit, nsec = 1e9 */
    S_ERR("c7 0c ff ffffffff 0000000000000000", WP_ERR_BAD_TIMESTAMP, 0),
    S_ERR("92 c0 d5 ff 00 00", WP_ERR_BAD_TIMESTAMP, 2),       /* nested: offset of the ext */
    S_ERR("81 a1 61 d4 ff 01", WP_ERR_BAD_TIMESTAMP, 3),
};

static void run_scalar(const scase *c) {
    tu_buf b = { 0 };
    tu_buf_hex(&b, c->hex);
    wp_tables_reset(&T);
    tu_dec x;
    wp_err rc = tu_decode(&x, &T, b.p, b.len, c->flags);
    const uint32_t *w = x.d.tape;
    if (c->tag == ERRV) {
        CHECK_ERR(rc, c->err);
        CHECK_ERR(x.d.err.code, c->err);
        CHECK_EQ_U(x.d.err.offset, c->eoff);
        CHECK_EQ_U(x.d.nvalues, 0);
        goto done;
    }
    CHECK_ERR(rc, WP_OK);
    if (rc != WP_OK) goto done;
    CHECK_EQ_U(x.d.err.code, WP_OK);
    CHECK_EQ_U(x.d.nvalues, 1);
    CHECK_EQ_U(x.d.end, b.len);
    CHECK_EQ_U(tu_tag(w[0]), c->tag);
    uint32_t want_words = 1, want_ascii = 0, want_utf16 = 0;
    switch (c->tag) {
    case WP_T_NIL: case WP_T_FALSE: case WP_T_TRUE: case WP_T_UNDEF:
        CHECK_EQ_U(w[0], c->tag);
        break;
    case WP_T_INT:
        CHECK_EQ_I(tu_spay(w[0]), c->v);
        break;
    case WP_T_I32:
        want_words = 2;
        CHECK_EQ_U(tu_pay(w[0]), 0);
        CHECK_EQ_I((int32_t)w[1], c->v);
        break;
    case WP_T_U32:
        want_words = 2;
        CHECK_EQ_U(tu_pay(w[0]), 0);
        CHECK_EQ_U(w[1], (uint32_t)c->v);
        break;
    case WP_T_U64: case WP_T_I64:
        want_words = 3;
        CHECK_EQ_U(tu_pay(w[0]), 0);
        CHECK_EQ_U(w[1], (uint32_t)(uint64_t)c->v);        /* lo */
        CHECK_EQ_U(w[2], (uint32_t)((uint64_t)c->v >> 32)); /* hi */
        break;
    case WP_T_F64: case WP_T_F32: case WP_T_DATE: {
        want_words = 4; /* tag, pad, f64 at words 2..3 */
        CHECK_EQ_U(tu_pay(w[0]), 0);
        double got = tu_tape_f64_at(w, 0);
        CHECK(tu_same_f64(got, c->f), "got %.17g want %.17g", got, c->f);
        break;
    }
    case WP_T_STRA:
        want_ascii = (uint32_t)c->v;
        CHECK_EQ_U(tu_pay(w[0]), c->v);
        if (x.d.ascii_len == c->v && c->v && c->s[0]) CHECK(memcmp(x.d.ascii, c->s, (size_t)c->v) == 0);
        if (c->v == 1 && !c->s[0]) CHECK_EQ_U(x.d.ascii[0], 0);
        break;
    case WP_T_STRU:
        want_utf16 = (uint32_t)c->v;
        CHECK_EQ_U(tu_pay(w[0]), c->v);
        for (uint32_t i = 0; i < c->v && i < x.d.utf16_len; i++) CHECK_EQ_U(x.d.utf16[i], c->u16[i]);
        break;
    case WP_T_BIN:
        want_words = 3;
        CHECK_EQ_U(tu_pay(w[0]), 0);
        CHECK_EQ_U(w[1], c->v);
        CHECK_EQ_U(w[2], c->off);
        break;
    case WP_T_EXT:
        want_words = 3;
        CHECK_EQ_U(tu_pay(w[0]), c->type);
        CHECK_EQ_U(w[1], c->v);
        CHECK_EQ_U(w[2], c->off);
        break;
    }
    CHECK_EQ_U(x.d.tape_len, want_words);
    CHECK_EQ_U(x.d.ascii_len, want_ascii);
    CHECK_EQ_U(x.d.utf16_len, want_utf16);
done:
    tu_dec_free(&x);
    tu_buf_free(&b);
}

/* Strings at every header boundary, generated: fixstr 0/31, str8 32/255, str16 256/65535,
 * str32 65536, ASCII and non-ASCII (2-byte chars). */
static void test_string_sizes(void) {
    static const uint32_t lens[] = { 0, 1, 31, 32, 255, 256, 65535, 65536, 100000 };
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        for (int nonascii = 0; nonascii < 2; nonascii++) {
            uint32_t n = lens[i];
            if (nonascii && (n & 1)) n++; /* whole 2-byte characters */
            tu_case("string len %u %s", n, nonascii ? "utf8" : "ascii");
            tu_buf b = { 0 };
            if (n < 32) tu_buf_u8(&b, 0xa0 | n);
            else if (n <= 0xff) { tu_buf_u8(&b, 0xd9); tu_buf_be(&b, n, 1); }
            else if (n <= 0xffff) { tu_buf_u8(&b, 0xda); tu_buf_be(&b, n, 2); }
            else { tu_buf_u8(&b, 0xdb); tu_buf_be(&b, n, 4); }
            uint32_t hl = b.len;
            for (uint32_t k = 0; k < n; k++) {
                if (nonascii) tu_buf_u8(&b, (k & 1) ? 0x80 + (k / 2) % 64 : 0xd0);
                else tu_buf_u8(&b, 'a' + k % 26);
            }
            wp_tables_reset(&T);
            tu_dec x;
            wp_err rc = tu_decode(&x, &T, b.p, b.len, 0);
            CHECK_ERR(rc, WP_OK);
            if (rc == WP_OK) {
                CHECK_EQ_U(x.d.tape_len, 1);
                if (!nonascii || n == 0) {
                    CHECK_EQ_U(x.d.tape[0], WP_T_STRA | n << 8);
                    CHECK_EQ_U(x.d.ascii_len, n);
                    CHECK(n == 0 || memcmp(x.d.ascii, b.p + hl, n) == 0);
                } else {
                    CHECK_EQ_U(x.d.tape[0], WP_T_STRU | (n / 2) << 8);
                    CHECK_EQ_U(x.d.utf16_len, n / 2);
                    int same = 1;
                    for (uint32_t k = 0; k < n / 2 && k < x.d.utf16_len; k++)
                        if (x.d.utf16[k] != 0x400 + k % 64) same = 0;
                    CHECK(same, "utf16 content");
                }
            }
            tu_dec_free(&x);
            tu_buf_free(&b);
            tu_end();
        }
    }
}

/* ===================================================================== containers */

static wp_err dec_hex(tu_dec *x, const char *hex, uint32_t flags, tu_buf *b) {
    b->len = 0;
    tu_buf_hex(b, hex);
    return tu_decode(x, &T, b->p, b->len, flags);
}

/* Compare the whole tape to expected words (use only for tapes without f64 entries). */
#define CHECK_TAPE(x, ...) do { static const uint32_t want_[] = { __VA_ARGS__ }; \
    uint32_t n_ = (uint32_t)(sizeof want_ / sizeof want_[0]); \
    CHECK_EQ_U((x)->d.tape_len, n_); \
    for (uint32_t i_ = 0; i_ < n_ && i_ < (x)->d.tape_len; i_++) \
        if (!CHECK((x)->d.tape[i_] == want_[i_], "word %u: got 0x%08x want 0x%08x", i_, (x)->d.tape[i_], want_[i_])) break; \
} while (0)

#define W(tag, p) ((uint32_t)(tag) | ((uint32_t)(p) << 8))

static void check_f64_word(const tu_dec *x, uint32_t at, double want) {
    double got;
    memcpy(&got, &x->d.tape[at], 8);
    CHECK(tu_same_f64(got, want), "f64 at word %u: got %.17g want %.17g", at, got, want);
}

static void test_arrays(void) {
    tu_buf b = { 0 };
    tu_dec x;

    tu_case("array of mixed scalars");
    wp_tables_reset(&T);
    CHECK_ERR(dec_hex(&x, "93 c0 a1 61 c3", 0, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_ARR, 3), WP_T_NIL, W(WP_T_STRA, 1), WP_T_TRUE);
    CHECK_EQ_U(x.d.ascii_len, 1);
    CHECK_EQ_U(x.d.ascii[0], 'a');
    tu_dec_free(&x);
    tu_end();

    tu_case("nested arrays");
    CHECK_ERR(dec_hex(&x, "92 91 c0 90", 0, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_ARR, 2), W(WP_T_ARR, 1), WP_T_NIL, W(WP_T_ARR, 0));
    tu_dec_free(&x);
    tu_end();

    tu_case("array16 / array32 headers");
    CHECK_ERR(dec_hex(&x, "dc 00 02 c0 a0", 0, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_ARR, 2), WP_T_NIL, W(WP_T_STRA, 0));
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "dd 00 00 00 01 c3", 0, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_ARR, 1), WP_T_TRUE);
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "dc 00 00", 0, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_ARR, 0));
    tu_dec_free(&x);
    tu_end();

    tu_case("strings in tape order fill ascii and utf16 areas");
    CHECK_ERR(dec_hex(&x, "94 a2 68 69 a2 c3 a9 a1 21 a3 e2 82 ac", 0, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_ARR, 4), W(WP_T_STRA, 2), W(WP_T_STRU, 1), W(WP_T_STRA, 1), W(WP_T_STRU, 1));
    CHECK_EQ_U(x.d.ascii_len, 3);
    CHECK(memcmp(x.d.ascii, "hi!", 3) == 0);
    CHECK_EQ_U(x.d.utf16_len, 2);
    CHECK_EQ_U(x.d.utf16[0], 0xe9);
    CHECK_EQ_U(x.d.utf16[1], 0x20ac);
    tu_dec_free(&x);
    tu_end();

    tu_case("number run: ints and floats");
    CHECK_ERR(dec_hex(&x, "93 01 cb 3ff8000000000000 ff", 0, &b), WP_OK);
    CHECK_EQ_U(x.d.tape_len, 8);
    CHECK_EQ_U(x.d.tape[0], W(WP_T_NUMRUN, 3));
    CHECK_EQ_U(x.d.tape[1], 0); /* pad */
    check_f64_word(&x, 2, 1.0);
    check_f64_word(&x, 4, 1.5);
    check_f64_word(&x, 6, -1.0);
    tu_dec_free(&x);
    tu_end();

    tu_case("number run: every numeric form");
    CHECK_ERR(dec_hex(&x, "9b 7f e0 cc ff cd ffff ce ffffffff d0 80 d1 8000 d2 80000000 ca 3fc00000"
                          " cb bff0000000000000 00", 0, &b), WP_OK);
    {
        static const double want[] = { 127, -32, 255, 65535, 4294967295.0, -128, -32768, -2147483648.0, 1.5, -1.0, 0 };
        CHECK_EQ_U(x.d.tape[0], W(WP_T_NUMRUN, 11));
        CHECK_EQ_U(x.d.tape_len, 2 + 2 * 11);
        for (uint32_t i = 0; i < 11; i++) check_f64_word(&x, 2 + 2 * i, want[i]);
    }
    tu_dec_free(&x);
    tu_end();

    tu_case("number run nested at an odd word: pad then aligned values");
    CHECK_ERR(dec_hex(&x, "92 c0 92 01 02", 0, &b), WP_OK);
    CHECK_EQ_U(x.d.tape_len, 8);
    CHECK_EQ_U(x.d.tape[0], W(WP_T_ARR, 2));
    CHECK_EQ_U(x.d.tape[1], WP_T_NIL);
    CHECK_EQ_U(x.d.tape[2], W(WP_T_NUMRUN, 2));
    CHECK_EQ_U(x.d.tape[3], 0);
    check_f64_word(&x, 4, 1);
    check_f64_word(&x, 6, 2);
    tu_dec_free(&x);
    tu_end();

    tu_case("number run nested at an even word: no pad");
    CHECK_ERR(dec_hex(&x, "93 c0 c0 92 01 02", 0, &b), WP_OK);
    CHECK_EQ_U(x.d.tape_len, 8);
    CHECK_EQ_U(x.d.tape[3], W(WP_T_NUMRUN, 2));
    check_f64_word(&x, 4, 1);
    check_f64_word(&x, 6, 2);
    tu_dec_free(&x);
    tu_end();

    tu_case("array16 of 20 numbers is a run");
    {
        b.len = 0;
        tu_buf_hex(&b, "dc 00 14");
        for (int i = 0; i < 20; i++) tu_buf_u8(&b, (uint32_t)i);
        CHECK_ERR(tu_decode(&x, &T, b.p, b.len, 0), WP_OK);
        CHECK_EQ_U(x.d.tape[0], W(WP_T_NUMRUN, 20));
        CHECK_EQ_U(x.d.tape_len, 2 + 40);
        for (int i = 0; i < 20; i++) check_f64_word(&x, 2 + 2 * (uint32_t)i, i);
        tu_dec_free(&x);
    }
    tu_end();

    tu_case("scalar run: nil, false and true join a run of numbers");
    CHECK_ERR(dec_hex(&x, "96 01 c3 c2 c0 cb 7ff8000000000001 cb 3ff8000000000000", 0, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_SCALARRUN, 6), 0, 0, 0x3ff00000u, WP_RUN_TRUE, WP_RUN_NAN_HI, WP_RUN_FALSE, WP_RUN_NAN_HI,
               WP_RUN_NULL, WP_RUN_NAN_HI, 0, WP_RUN_NAN_HI /* a NaN number: canonical, low word 0 */, 0, 0x3ff80000u);
    tu_dec_free(&x);
    /* numbers only: a NUMRUN, NaN as read */
    CHECK_ERR(dec_hex(&x, "92 01 cb 7ff8000000000001", 0, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_NUMRUN, 2), 0, 0, 0x3ff00000u, 1, 0x7ff80000u);
    tu_dec_free(&x);
    /* 0xc1 (reserved; a bundle reference) and strings are not scalars: an ARR */
    CHECK_ERR(dec_hex(&x, "93 01 c0 a0", 0, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_ARR, 3), W(WP_T_INT, 1), WP_T_NIL, W(WP_T_STRA, 0));
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "92 01 c1", 0, &b), WP_ERR_RESERVED_BYTE);
    tu_dec_free(&x);
    /* cut inside a run after a scalar: the array is what is cut */
    CHECK_ERR(dec_hex(&x, "93 01 c0", 0, &b), WP_ERR_TRUNCATED);
    tu_dec_free(&x);
    tu_end();

    tu_case("scalar run: one that starts with nil, false or true");
    CHECK_ERR(dec_hex(&x, "92 c0 05", 0, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_SCALARRUN, 2), 0, WP_RUN_NULL, WP_RUN_NAN_HI, 0, 0x40140000u);
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "93 c3 c2 c0", 0, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_SCALARRUN, 3), 0, WP_RUN_TRUE, WP_RUN_NAN_HI, WP_RUN_FALSE, WP_RUN_NAN_HI, WP_RUN_NULL, WP_RUN_NAN_HI);
    tu_dec_free(&x);
    tu_end();

    tu_case("not a run: uint64 element");
    CHECK_ERR(dec_hex(&x, "92 01 cf 0000000000000002", 0, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_ARR, 2), W(WP_T_INT, 1), WP_T_U64, 2, 0);
    tu_dec_free(&x);
    tu_end();

    tu_case("not a run: int64 element");
    CHECK_ERR(dec_hex(&x, "92 01 d3 ffffffffffffffff", 0, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_ARR, 2), W(WP_T_INT, 1), WP_T_I64, 0xffffffffu, 0xffffffffu);
    tu_dec_free(&x);
    tu_end();

    tu_case("not a run: string element");
    CHECK_ERR(dec_hex(&x, "92 01 a1 61", 0, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_ARR, 2), W(WP_T_INT, 1), W(WP_T_STRA, 1));
    tu_dec_free(&x);
    tu_end();

    tu_case("not a run: one element, or a first element neither a number nor nil/false/true");
    CHECK_ERR(dec_hex(&x, "91 05", 0, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_ARR, 1), W(WP_T_INT, 5));
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "91 c0", 0, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_ARR, 1), WP_T_NIL);
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "92 a0 05", 0, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_ARR, 2), W(WP_T_STRA, 0), W(WP_T_INT, 5));
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "92 c0 a0", 0, &b), WP_OK); /* the second element ends it */
    CHECK_TAPE(&x, W(WP_T_ARR, 2), WP_T_NIL, W(WP_T_STRA, 0));
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "93 c3 05 a0", 0, &b), WP_OK); /* given up at the third */
    CHECK_TAPE(&x, W(WP_T_ARR, 3), WP_T_TRUE, W(WP_T_INT, 5), W(WP_T_STRA, 0));
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "92 05 90", 0, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_ARR, 2), W(WP_T_INT, 5), W(WP_T_ARR, 0));
    tu_dec_free(&x);
    tu_end();

    tu_case("WP_DEC_TAG_F32: float32 keeps an array out of runs");
    CHECK_ERR(dec_hex(&x, "92 01 ca 3fc00000", WP_DEC_TAG_F32, &b), WP_OK);
    CHECK_EQ_U(x.d.tape_len, 6);
    CHECK_EQ_U(x.d.tape[0], W(WP_T_ARR, 2));
    CHECK_EQ_U(x.d.tape[1], W(WP_T_INT, 1));
    CHECK_EQ_U(x.d.tape[2], WP_T_F32);
    check_f64_word(&x, 4, 1.5);
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "92 01 ca 3fc00000", 0, &b), WP_OK);
    CHECK_EQ_U(x.d.tape[0], W(WP_T_NUMRUN, 2));
    check_f64_word(&x, 2, 1);
    check_f64_word(&x, 4, 1.5);
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "92 01 cb 3ff8000000000000", WP_DEC_TAG_F32, &b), WP_OK);
    CHECK_EQ_U(x.d.tape[0], W(WP_T_NUMRUN, 2));
    tu_dec_free(&x);
    tu_end();

    tu_buf_free(&b);
}

/* 'k' repeated n times as a str header + bytes */
static void put_str(tu_buf *b, const char *s, uint32_t n) {
    if (n < 32) tu_buf_u8(b, 0xa0 | n);
    else if (n <= 0xff) { tu_buf_u8(b, 0xd9); tu_buf_u8(b, n); }
    else if (n <= 0xffff) { tu_buf_u8(b, 0xda); tu_buf_be(b, n, 2); }
    else { tu_buf_u8(b, 0xdb); tu_buf_be(b, n, 4); }
    tu_buf_bytes(b, s, n);
}

static void test_maps(void) {
    tu_buf b = { 0 };
    tu_dec x;
    const uint32_t O = WP_DEC_MAPS_AS_OBJECTS;

    tu_case("string-keyed map -> SHAPED with KEY words");
    wp_tables_reset(&T);
    CHECK_ERR(dec_hex(&x, "82 a1 61 01 a1 62 02", O, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_SHAPED, 0), W(WP_T_KEY, 0), W(WP_T_INT, 1), W(WP_T_KEY, 1), W(WP_T_INT, 2));
    CHECK_EQ_U(T.nkeys, 2);
    CHECK_EQ_U(T.nshapes, 1);
    CHECK_EQ_U(x.d.keys_before, 0);
    CHECK_EQ_U(x.d.shapes_before, 0);
    CHECK_EQ_U(x.d.ascii_len, 0);
    CHECK_EQ_U(T.key_len[0], 1);
    CHECK_EQ_U(T.key_pool[T.key_off[0]], 'a');
    CHECK_EQ_U(T.key_pool[T.key_off[1]], 'b');
    CHECK_EQ_U(T.shape_len[0], 2);
    CHECK_EQ_U(T.shape_pool[T.shape_off[0]], 0);
    CHECK_EQ_U(T.shape_pool[T.shape_off[0] + 1], 1);
    tu_dec_free(&x);
    tu_end();

    tu_case("same map again: same shape, key table reused (no new keys)");
    CHECK_ERR(dec_hex(&x, "82 a1 61 05 a1 62 06", O, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_SHAPED, 0), W(WP_T_KEY, 0), W(WP_T_INT, 5), W(WP_T_KEY, 1), W(WP_T_INT, 6));
    CHECK_EQ_U(x.d.keys_before, 2);
    CHECK_EQ_U(x.d.shapes_before, 1);
    CHECK_EQ_U(T.nkeys, 2);
    CHECK_EQ_U(T.nshapes, 1);
    tu_dec_free(&x);
    tu_end();

    tu_case("same shape twice in one message, other key order is another shape");
    CHECK_ERR(dec_hex(&x, "93 82 a1 61 01 a1 62 02 82 a1 61 03 a1 62 04 82 a1 62 05 a1 61 06", O, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_ARR, 3),
               W(WP_T_SHAPED, 0), W(WP_T_KEY, 0), W(WP_T_INT, 1), W(WP_T_KEY, 1), W(WP_T_INT, 2),
               W(WP_T_SHAPED, 0), W(WP_T_KEY, 0), W(WP_T_INT, 3), W(WP_T_KEY, 1), W(WP_T_INT, 4),
               W(WP_T_SHAPED, 1), W(WP_T_KEY, 1), W(WP_T_INT, 5), W(WP_T_KEY, 0), W(WP_T_INT, 6));
    CHECK_EQ_U(T.nkeys, 2);
    CHECK_EQ_U(T.nshapes, 2);
    CHECK_EQ_U(x.d.shapes_before, 1);
    tu_dec_free(&x);
    tu_end();

    tu_case("nested maps: inner shape interned first");
    wp_tables_reset(&T);
    CHECK_ERR(dec_hex(&x, "82 a1 61 81 a1 62 01 a1 63 91 81 a1 62 02", O, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_SHAPED, 1), W(WP_T_KEY, 0), W(WP_T_SHAPED, 0), W(WP_T_KEY, 1), W(WP_T_INT, 1),
               W(WP_T_KEY, 2), W(WP_T_ARR, 1), W(WP_T_SHAPED, 0), W(WP_T_KEY, 1), W(WP_T_INT, 2));
    CHECK_EQ_U(T.nkeys, 3);
    CHECK_EQ_U(T.nshapes, 2);
    CHECK_EQ_U(T.shape_len[1], 2);
    CHECK_EQ_U(T.shape_pool[T.shape_off[1]], 0);
    CHECK_EQ_U(T.shape_pool[T.shape_off[1] + 1], 2);
    tu_dec_free(&x);
    tu_end();

    tu_case("number, nil, boolean keys -> OBJ (property names); other keys -> MAP");
    wp_tables_reset(&T);
    CHECK_ERR(dec_hex(&x, "82 a1 61 01 02 03", O, &b), WP_OK);
    CHECK_EQ_U(x.d.tape_len, 5);
    CHECK_EQ_U(x.d.tape[0], W(WP_T_OBJ, 2));
    CHECK(tu_tag(x.d.tape[1]) == WP_T_KEY || tu_tag(x.d.tape[1]) == WP_T_STRA, "string key entry");
    CHECK_EQ_U(x.d.tape[2], W(WP_T_INT, 1));
    CHECK_EQ_U(x.d.tape[3], W(WP_T_INT, 2));
    CHECK_EQ_U(x.d.tape[4], W(WP_T_INT, 3));
    CHECK_EQ_U(T.nshapes, 0);
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "81 c0 c3", O, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_OBJ, 1), WP_T_NIL, WP_T_TRUE);
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "82 c3 c2 d4 00 00 01", O, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_OBJ, 2), WP_T_TRUE, WP_T_FALSE, WP_T_UNDEF, W(WP_T_INT, 1));
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "81 c4 01 07 c3", O, &b), WP_OK);
    CHECK_EQ_U(x.d.tape[0], W(WP_T_MAP, 1));
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "81 91 01 c3", O, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_MAP, 1), W(WP_T_ARR, 1), W(WP_T_INT, 1), WP_T_TRUE);
    tu_dec_free(&x);
    tu_end();

    tu_case("key of 64 bytes is interned, 65 bytes -> OBJ with a STRA key");
    {
        char k[70];
        memset(k, 'k', sizeof k);
        wp_tables_reset(&T);
        b.len = 0;
        tu_buf_u8(&b, 0x81); put_str(&b, k, WP_KEY_MAX_BYTES); tu_buf_u8(&b, 0x01);
        CHECK_ERR(tu_decode(&x, &T, b.p, b.len, O), WP_OK);
        CHECK_TAPE(&x, W(WP_T_SHAPED, 0), W(WP_T_KEY, 0), W(WP_T_INT, 1));
        CHECK_EQ_U(T.key_len[0], WP_KEY_MAX_BYTES);
        tu_dec_free(&x);
        b.len = 0;
        tu_buf_u8(&b, 0x81); put_str(&b, k, WP_KEY_MAX_BYTES + 1); tu_buf_u8(&b, 0x01);
        CHECK_ERR(tu_decode(&x, &T, b.p, b.len, O), WP_OK);
        CHECK_TAPE(&x, W(WP_T_OBJ, 1), W(WP_T_STRA, WP_KEY_MAX_BYTES + 1), W(WP_T_INT, 1));
        CHECK_EQ_U(x.d.ascii_len, WP_KEY_MAX_BYTES + 1);
        CHECK(memcmp(x.d.ascii, k, WP_KEY_MAX_BYTES + 1) == 0);
        CHECK_EQ_U(T.nkeys, 1);
        CHECK_EQ_U(T.nshapes, 1);
        tu_dec_free(&x);
        /* one long key among short ones: OBJ, short keys still KEY words */
        b.len = 0;
        tu_buf_hex(&b, "83 a1 61 01");
        put_str(&b, k, 66); tu_buf_u8(&b, 0x02);
        tu_buf_hex(&b, "a1 62 03");
        CHECK_ERR(tu_decode(&x, &T, b.p, b.len, O), WP_OK);
        CHECK_TAPE(&x, W(WP_T_OBJ, 3), W(WP_T_KEY, 1), W(WP_T_INT, 1), W(WP_T_STRA, 66), W(WP_T_INT, 2),
                   W(WP_T_KEY, 2), W(WP_T_INT, 3));
        tu_dec_free(&x);
    }
    tu_end();

    tu_case("non-ASCII keys: short is interned (UTF-8 bytes), long is STRU");
    {
        wp_tables_reset(&T);
        CHECK_ERR(dec_hex(&x, "81 a2 c3 a9 01", O, &b), WP_OK);
        CHECK_TAPE(&x, W(WP_T_SHAPED, 0), W(WP_T_KEY, 0), W(WP_T_INT, 1));
        CHECK_EQ_U(T.key_len[0], 2);
        CHECK_EQ_U(T.key_pool[T.key_off[0]], 0xc3);
        tu_dec_free(&x);
        char k[80];
        for (int i = 0; i < 80; i += 2) { k[i] = (char)0xc3; k[i + 1] = (char)0xa9; }
        b.len = 0;
        tu_buf_u8(&b, 0x81); put_str(&b, k, 80); tu_buf_u8(&b, 0x01);
        CHECK_ERR(tu_decode(&x, &T, b.p, b.len, O), WP_OK);
        CHECK_TAPE(&x, W(WP_T_OBJ, 1), W(WP_T_STRU, 40), W(WP_T_INT, 1));
        CHECK_EQ_U(x.d.utf16_len, 40);
        tu_dec_free(&x);
    }
    tu_end();

    tu_case("WP_DEC_UTF8_HOST: non-ASCII strings of WP_UTF8_HOST_MIN bytes or more as STR8 (offset in the input)");
    {
        const uint32_t H = O | WP_DEC_UTF8_HOST;
        char s[300];
        for (int i = 0; i < 300; i += 2) { s[i] = (char)0xc3; s[i + 1] = (char)0xa9; }
        /* a key and a value of 80 bytes (d9 50 headers at offsets 1 and 83): their bytes at 3 and 85 */
        b.len = 0;
        tu_buf_u8(&b, 0x81); put_str(&b, s, 80); put_str(&b, s, 80);
        CHECK_ERR(tu_decode(&x, &T, b.p, b.len, H), WP_OK);
        CHECK_TAPE(&x, W(WP_T_OBJ, 1), W(WP_T_STR8, 80), 3, W(WP_T_STR8, 80), 85);
        CHECK_EQ_U(x.d.utf16_len, 0);
        tu_dec_free(&x);
        /* one byte under the minimum: transcoded; at it: STR8 */
        b.len = 0;
        tu_buf_u8(&b, 0x92); put_str(&b, s, WP_UTF8_HOST_MIN - 2); put_str(&b, s, WP_UTF8_HOST_MIN);
        CHECK_ERR(tu_decode(&x, &T, b.p, b.len, H), WP_OK);
        CHECK_TAPE(&x, W(WP_T_ARR, 2), W(WP_T_STRU, (WP_UTF8_HOST_MIN - 2) / 2), W(WP_T_STR8, WP_UTF8_HOST_MIN), 1 + 2 + WP_UTF8_HOST_MIN - 2 + 2);
        tu_dec_free(&x);
        /* ASCII stays in the ASCII area; ill-formed UTF-8 is the host's to replace, as the rest */
        char a[100], bad[100];
        memset(a, 'x', sizeof a);
        memset(bad, 0xff, sizeof bad);
        b.len = 0;
        tu_buf_u8(&b, 0x92); put_str(&b, a, 100); put_str(&b, bad, 100);
        CHECK_ERR(tu_decode(&x, &T, b.p, b.len, H), WP_OK);
        CHECK_TAPE(&x, W(WP_T_ARR, 2), W(WP_T_STRA, 100), W(WP_T_STR8, 100), 1 + 2 + 100 + 2);
        tu_dec_free(&x);
        /* a str16 of 300 bytes */
        b.len = 0;
        put_str(&b, s, 300);
        CHECK_ERR(tu_decode(&x, &T, b.p, b.len, H), WP_OK);
        CHECK_TAPE(&x, W(WP_T_STR8, 300), 3);
        tu_dec_free(&x);
    }
    tu_end();

    tu_case("without WP_DEC_MAPS_AS_OBJECTS -> MAP, no shapes");
    wp_tables_reset(&T);
    CHECK_ERR(dec_hex(&x, "82 a1 61 01 a1 62 02", 0, &b), WP_OK);
    CHECK_EQ_U(x.d.tape_len, 5);
    CHECK_EQ_U(x.d.tape[0], W(WP_T_MAP, 2));
    CHECK(tu_tag(x.d.tape[1]) == WP_T_KEY || tu_tag(x.d.tape[1]) == WP_T_STRA);
    CHECK_EQ_U(x.d.tape[2], W(WP_T_INT, 1));
    CHECK(tu_tag(x.d.tape[3]) == WP_T_KEY || tu_tag(x.d.tape[3]) == WP_T_STRA);
    CHECK_EQ_U(x.d.tape[4], W(WP_T_INT, 2));
    CHECK_EQ_U(T.nshapes, 0);
    tu_dec_free(&x);
    tu_end();

    tu_case("empty map: OBJ with the flag, MAP without");
    CHECK_ERR(dec_hex(&x, "80", O, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_OBJ, 0));
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "80", 0, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_MAP, 0));
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "de 00 00", O, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_OBJ, 0));
    tu_dec_free(&x);
    tu_end();

    tu_case("WP_DEC_NO_INTERN: OBJ with STRA keys, tables untouched");
    wp_tables_reset(&T);
    CHECK_ERR(dec_hex(&x, "82 a1 61 01 a1 62 02", O | WP_DEC_NO_INTERN, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_OBJ, 2), W(WP_T_STRA, 1), W(WP_T_INT, 1), W(WP_T_STRA, 1), W(WP_T_INT, 2));
    CHECK_EQ_U(x.d.ascii_len, 2);
    CHECK(memcmp(x.d.ascii, "ab", 2) == 0);
    CHECK_EQ_U(T.nkeys, 0);
    CHECK_EQ_U(T.nshapes, 0);
    tu_dec_free(&x);
    tu_end();

    tu_case("map16 header, keys of every str form");
    wp_tables_reset(&T);
    CHECK_ERR(dec_hex(&x, "de 00 03 a1 61 01 d9 01 62 02 da 00 01 63 03", O, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_SHAPED, 0), W(WP_T_KEY, 0), W(WP_T_INT, 1), W(WP_T_KEY, 1), W(WP_T_INT, 2),
               W(WP_T_KEY, 2), W(WP_T_INT, 3));
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "df 00 00 00 01 db 00 00 00 01 61 c0", O, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_SHAPED, 1), W(WP_T_KEY, 0), WP_T_NIL);
    tu_dec_free(&x);
    tu_end();

    tu_case("map of 256 keys is SHAPED, 257 keys is OBJ of KEY words");
    for (uint32_t n = 256; n <= 257; n++) {
        wp_tables_reset(&T);
        b.len = 0;
        tu_buf_u8(&b, 0xde); tu_buf_be(&b, n, 2);
        for (uint32_t i = 0; i < n; i++) {
            char k[8];
            int kl = snprintf(k, sizeof k, "k%u", i);
            put_str(&b, k, (uint32_t)kl);
            tu_buf_u8(&b, 0xc0);
        }
        CHECK_ERR(tu_decode(&x, &T, b.p, b.len, O), WP_OK);
        CHECK_EQ_U(x.d.tape_len, 1 + 2 * n);
        CHECK_EQ_U(x.d.tape[0], n == 256 ? W(WP_T_SHAPED, 0) : W(WP_T_OBJ, n));
        CHECK_EQ_U(x.d.tape[1], W(WP_T_KEY, 0));
        CHECK_EQ_U(x.d.tape[2 * n - 1], W(WP_T_KEY, n - 1));
        CHECK_EQ_U(T.nshapes, n == 256 ? 1 : 0);
        tu_dec_free(&x);
    }
    tu_end();

    tu_buf_free(&b);
}

/* ===================================================================== truncation */

static const char *const trunc_msgs[] = {
    "c0", "01", "cc ff", "cd 01 00", "ce 00 01 00 00", "cf 0000000000000001", "d0 80", "d1 8000",
    "d2 80000000", "d3 ffffffffffffffff", "ca 3fc00000", "cb 3ff8000000000000",
    "a3 61 62 63", "d9 03 61 62 63", "da 00 03 61 62 63", "db 00 00 00 03 61 62 63", "a2 c3 a9",
    "c4 02 aa bb", "c5 00 02 aa bb", "c6 00 00 00 02 aa bb",
    "d4 01 aa", "d5 01 aa bb", "d6 01 01020304", "d7 01 0102030405060708",
    "d8 01 000102030405060708090a0b0c0d0e0f", "c7 02 05 aa bb", "c8 00 02 05 aa bb", "c9 00 00 00 02 05 aa bb",
    "d6 ff 00000001", "d7 ff 003d090000000001", "c7 0c ff 00000000 ffffffffffffffff", "d4 ff ff",
    "92 01 02", "93 c0 a1 61 c3", "dc 00 02 01 02", "dd 00 00 00 02 c0 c0", "92 91 c0 90",
    "93 01 cb 3ff8000000000000 ff",
    "82 a1 61 01 a1 62 02", "de 00 01 d9 01 61 c0", "df 00 00 00 01 a1 61 91 81 a1 62 c3",
    "81 c0 92 01 a3 61 62 63", "82 a1 61 81 a1 62 01 a1 63 91 81 a1 62 02",
};

typedef struct { const char *hex; uint32_t flags; uint32_t off; } trunc_case;
static const trunc_case trunc_offsets[] = {
    { "", 0, 0 },
    { "92", 0, 0 },                   /* header claims more elements than bytes left */
    { "92 01", 0, 0 },                /* 2 elements declared, 1 byte left */
    { "93 01 c0 a1", 0, 3 },          /* not a run; str header at 3 */
    { "92 01 a3 61", 0, 2 },          /* string header at 2 runs past the end */
    { "82 a1 61 01 a1", 0, 4 },       /* key header at 4 */
    { "82 a1 61 01 a1 62", 0, 0 },    /* value missing: the innermost open map (at 0) is cut */
    { "92 91 01", 0, 0 },             /* 2nd element missing: the outer array is cut */
    { "92 92 01", 0, 1 },             /* the inner array is cut */
    { "82 a1 61", 0, 0 },             /* 2 pairs need >= 4 bytes */
    { "dd 00 00 00 01", 0, 0 },
    { "cb 3f f8", 0, 0 },
    { "91 cb 3f f8", 0, 1 },
    { "81 d9", 0, 0 },                /* 1 pair needs >= 2 bytes */
    { "81 d9 05", 0, 1 },             /* str8 key runs past the end */
    { "81 da 00 05", 0, 1 },
    { "81 db 00 00 00 05 61", 0, 1 },
    { "c0 92 01", WP_DEC_MULTIPLE, 1 },
    { "c0 92 c0 a2 61", WP_DEC_MULTIPLE, 3 },
    { "01 02 92 01", WP_DEC_MULTIPLE, 2 },
};

static void test_truncation(void) {
    tu_buf b = { 0 };
    tu_dec x;
    for (size_t m = 0; m < sizeof trunc_msgs / sizeof trunc_msgs[0]; m++) {
        tu_case("prefixes of %s", trunc_msgs[m]);
        b.len = 0;
        tu_buf_hex(&b, trunc_msgs[m]);
        for (uint32_t flags = 0; flags <= (WP_DEC_MAPS_AS_OBJECTS | WP_DEC_MULTIPLE); flags++) {
            wp_tables_reset(&T);
            CHECK_ERR(tu_decode(&x, &T, b.p, b.len, flags), WP_OK); /* the whole message is valid */
            CHECK_EQ_U(x.d.end, b.len);
            tu_dec_free(&x);
            for (uint32_t n = 0; n < b.len; n++) {
                uint32_t before = T.nkeys, sbefore = T.nshapes;
                wp_err rc = tu_decode(&x, &T, b.p, n, flags);
                if (!CHECK(rc == WP_ERR_TRUNCATED, "prefix %u flags %u: %s", n, flags, wp_err_name(rc))) {
                    tu_dec_free(&x);
                    break;
                }
                CHECK(x.d.err.offset <= n, "offset %u within prefix %u", x.d.err.offset, n);
                CHECK_EQ_U(x.d.nvalues, 0);
                CHECK_EQ_U(T.nkeys, before);
                CHECK_EQ_U(T.nshapes, sbefore);
                tu_dec_free(&x);
            }
        }
        tu_end();
    }
    for (size_t i = 0; i < sizeof trunc_offsets / sizeof trunc_offsets[0]; i++) {
        const trunc_case *c = &trunc_offsets[i];
        tu_case("truncated '%s' flags %u -> offset %u", c->hex, c->flags, c->off);
        b.len = 0;
        tu_buf_hex(&b, c->hex);
        wp_tables_reset(&T);
        CHECK_ERR(tu_decode(&x, &T, b.p, b.len, c->flags), WP_ERR_TRUNCATED);
        CHECK_EQ_U(x.d.err.offset, c->off);
        tu_dec_free(&x);
        tu_end();
    }
    tu_buf_free(&b);
}

/* ===================================================================== other errors */

typedef struct { const char *hex; uint32_t flags; wp_err err; uint32_t off; } err_case;
static const err_case err_cases[] = {
    /* reserved byte 0xc1 */
    { "c1", 0, WP_ERR_RESERVED_BYTE, 0 },
    { "c1 00 00 00 00 00 00 00 00", 0, WP_ERR_RESERVED_BYTE, 0 },
    { "91 c1", 0, WP_ERR_RESERVED_BYTE, 1 },
    { "92 01 c1", 0, WP_ERR_RESERVED_BYTE, 2 },
    { "93 01 02 c1", 0, WP_ERR_RESERVED_BYTE, 3 },
    { "81 c1 01", WP_DEC_MAPS_AS_OBJECTS, WP_ERR_RESERVED_BYTE, 1 },  /* as a key */
    { "81 a1 61 c1", WP_DEC_MAPS_AS_OBJECTS, WP_ERR_RESERVED_BYTE, 3 },
    { "82 a1 61 01 a1 62 c1", 0, WP_ERR_RESERVED_BYTE, 6 },
    { "92 91 91 c1 c0", 0, WP_ERR_RESERVED_BYTE, 3 },
    { "c0 c1", WP_DEC_MULTIPLE, WP_ERR_RESERVED_BYTE, 1 },
    { "c0 c1", 0, WP_ERR_TRAILING_DATA, 1 },  /* single value: trailing data is found first */
    /* huge declared lengths: truncated at the header, nothing sized from the length */
    { "dc ff ff", 0, WP_ERR_TRUNCATED, 0 },
    { "dd ff ff ff ff", 0, WP_ERR_TRUNCATED, 0 },
    { "dd ff ff ff ff c0 c0 c0", 0, WP_ERR_TRUNCATED, 0 },
    { "de ff ff", 0, WP_ERR_TRUNCATED, 0 },
    { "df ff ff ff ff", 0, WP_ERR_TRUNCATED, 0 },
    { "df 80 00 00 00 c0 c0", WP_DEC_MAPS_AS_OBJECTS, WP_ERR_TRUNCATED, 0 },
    { "c6 ff ff ff ff", 0, WP_ERR_TRUNCATED, 0 },
    { "c6 ff ff ff ff 00", 0, WP_ERR_TRUNCATED, 0 },
    { "db ff ff ff ff", 0, WP_ERR_TRUNCATED, 0 },
    { "db ff ff ff fb 61 62 63 64 65", 0, WP_ERR_TRUNCATED, 0 },
    { "c9 ff ff ff ff 01", 0, WP_ERR_TRUNCATED, 0 },
    { "c9 ff ff ff ff ff 00", 0, WP_ERR_TRUNCATED, 0 },
    { "c5 ff ff", 0, WP_ERR_TRUNCATED, 0 },
    { "da ff ff", 0, WP_ERR_TRUNCATED, 0 },
    { "c8 ff ff 01", 0, WP_ERR_TRUNCATED, 0 },
    { "91 dd ff ff ff ff", 0, WP_ERR_TRUNCATED, 1 },
    { "81 db ff ff ff ff c0", WP_DEC_MAPS_AS_OBJECTS, WP_ERR_TRUNCATED, 1 }, /* as a key */
    { "81 db ff ff ff ff c0", 0, WP_ERR_TRUNCATED, 1 },
    /* trailing data */
    { "c0 c0", 0, WP_ERR_TRAILING_DATA, 1 },
    { "91 01 02", 0, WP_ERR_TRAILING_DATA, 2 },
    { "92 01 02 03", 0, WP_ERR_TRAILING_DATA, 3 },
    { "a1 61 00", 0, WP_ERR_TRAILING_DATA, 2 },
    { "81 a1 61 01 ff", WP_DEC_MAPS_AS_OBJECTS, WP_ERR_TRAILING_DATA, 4 },
    /* WP_DEC_MP_STRICT_KEYS (msgpack-javascript's rule): each key that is no string or number,
     * at its first byte, in objects and Maps alike, in the guessed-map path too */
#define SK (WP_DEC_MP_STRICT_KEYS | WP_DEC_MAPS_AS_OBJECTS)
    { "81 c0 01", SK, WP_ERR_BAD_KEY, 1 },
    { "81 c2 01", SK, WP_ERR_BAD_KEY, 1 },
    { "81 c3 01", SK, WP_ERR_BAD_KEY, 1 },
    { "81 c4 01 00 01", SK, WP_ERR_BAD_KEY, 1 },
    { "81 90 01", SK, WP_ERR_BAD_KEY, 1 },
    { "81 80 01", SK, WP_ERR_BAD_KEY, 1 },
    { "81 d4 00 00 01", SK, WP_ERR_BAD_KEY, 1 },
    { "81 c7 00 05 01", SK, WP_ERR_BAD_KEY, 1 },
    { "82 a1 61 01 c0 02", SK, WP_ERR_BAD_KEY, 4 },
    { "82 a1 61 01 c0 02", WP_DEC_MP_STRICT_KEYS, WP_ERR_BAD_KEY, 4 },
    { "92 82 a1 61 01 a1 62 02 82 a1 61 01 90 02", SK, WP_ERR_BAD_KEY, 12 }, /* after a guessed key */
    { "81 cf 00 00 00 01 00 00 00 00 01", SK | WP_DEC_MP_NO_INT64_KEYS, WP_ERR_BAD_KEY, 1 },
    { "81 d3 ff ff ff ff 00 00 00 00 01", SK | WP_DEC_MP_NO_INT64_KEYS, WP_ERR_BAD_KEY, 1 },
    { "81 c0", SK, WP_ERR_TRUNCATED, 0 },          /* (the map's count past the input's end, at its header) */
    { "81 c0 01 02", SK, WP_ERR_BAD_KEY, 1 },      /* before the trailing byte */
    { "81 a1 61 01 00", SK, WP_ERR_TRAILING_DATA, 4 },
    { "81 c1 01", SK | WP_DEC_MP_C1_UNDEFINED, WP_ERR_BAD_KEY, 1 }, /* (undefined is no string or number) */
#undef SK
    /* WP_DEC_MP_C1_UNDEFINED (json-pack's undefined): 0xc1 is one byte, and stays reserved without it */
    { "92 c1", WP_DEC_MP_C1_UNDEFINED, WP_ERR_TRUNCATED, 0 },
    { "c1 c1", WP_DEC_MP_C1_UNDEFINED, WP_ERR_TRAILING_DATA, 1 },
    { "92 01 c1", 0, WP_ERR_RESERVED_BYTE, 2 },
};

static void test_errors(void) {
    tu_buf b = { 0 };
    tu_dec x;
    for (size_t i = 0; i < sizeof err_cases / sizeof err_cases[0]; i++) {
        const err_case *c = &err_cases[i];
        tu_case("error '%s' flags %u -> %s@%u", c->hex, c->flags, wp_err_name(c->err), c->off);
        b.len = 0;
        tu_buf_hex(&b, c->hex);
        wp_tables_reset(&T);
        wp_err rc = tu_decode(&x, &T, b.p, b.len, c->flags);
        CHECK_ERR(rc, c->err);
        CHECK_ERR(x.d.err.code, c->err);
        CHECK_EQ_U(x.d.err.offset, c->off);
        if (c->err == WP_ERR_TRUNCATED && c->off == 0) CHECK_EQ_U(x.d.tape_len, 0);
        if (c->err == WP_ERR_TRAILING_DATA) {
            CHECK_EQ_U(x.d.nvalues, 1);
            CHECK_EQ_U(x.d.end, c->off);
        }
        tu_dec_free(&x);
        tu_end();
    }
    tu_buf_free(&b);
}

/* ===================================================================== msgpack-javascript's rules */

/* WP_DEC_MP_STRICT_KEYS takes strings and numbers of every form as keys; WP_DEC_MP_RAW_STRINGS
 * makes string values (not keys) BIN entries of their bytes, under max_bin, in a tape of
 * wp_cbor_tape_words(len) (an empty string is one byte and three words). */
static void test_library_rules(void) {
    tu_buf b = { 0 };
    tu_dec x;
    static const char *const keys_ok[] = {
        "81 a1 61 01", "81 00 01", "81 7f 01", "81 e0 01", "81 cc ff 01", "81 cd ff ff 01", "81 ce ff ff ff ff 01",
        "81 d0 80 01", "81 d1 80 00 01", "81 d2 80 00 00 00 01", "81 ca 3f c0 00 00 01", "81 cb 3f f8 00 00 00 00 00 00 01",
        "81 cf 00 00 00 01 00 00 00 00 01", "81 d3 ff ff ff ff 00 00 00 00 01", "81 d9 01 61 01", "81 da 00 01 61 01",
    };
    for (size_t i = 0; i < sizeof keys_ok / sizeof keys_ok[0]; i++) {
        tu_case("strict keys: '%s' decodes", keys_ok[i]);
        b.len = 0;
        tu_buf_hex(&b, keys_ok[i]);
        wp_tables_reset(&T);
        CHECK_ERR(tu_decode(&x, &T, b.p, b.len, WP_DEC_MP_STRICT_KEYS | WP_DEC_MAPS_AS_OBJECTS), WP_OK);
        tu_dec_free(&x);
        tu_end();
    }
    /* 0xc1 as undefined: a value (alone, in arrays, in runs of numbers, in maps and guessed maps),
     * and a key that names the property 'undefined' (an UNDEF entry, as d4 00 00 as a key) */
    static const char *const c1_ok[] = {
        "c1", "93 c1 c1 c1", "93 01 02 c1", "94 01 c1 02 03", "81 a1 61 c1", "92 82 a1 61 c1 a1 62 01 82 a1 61 c1 a1 62 c1", "81 c1 01",
    };
    for (size_t i = 0; i < sizeof c1_ok / sizeof c1_ok[0]; i++) {
        tu_case("0xc1 as undefined: '%s' decodes, each 0xc1 one UNDEF entry", c1_ok[i]);
        b.len = 0;
        tu_buf_hex(&b, c1_ok[i]);
        uint32_t want = 0;
        for (size_t k = 0; k < b.len; k++) want += b.p[k] == 0xc1;
        wp_tables_reset(&T);
        CHECK_ERR(tu_decode(&x, &T, b.p, b.len, WP_DEC_MP_C1_UNDEFINED | WP_DEC_MAPS_AS_OBJECTS), WP_OK);
        uint32_t undefs = 0;
        /* (every word: these tapes hold no payload word whose low byte could read as UNDEF) */
        for (uint32_t k = 0; k < x.d.tape_len; k++) undefs += (x.d.tape[k] & 0xffu) == WP_T_UNDEF;
        CHECK_EQ_U(undefs, want);
        tu_dec_free(&x);
        tu_end();
    }
    /* raw strings: values BIN (offset, length), keys still strings; every string form */
    tu_case("raw strings: values are BIN entries, keys KEY");
    b.len = 0;
    tu_buf_hex(&b, "84 a1 61 a0 a1 62 d9 02 78 79 a1 63 92 a1 7a da 00 01 e9 a1 64 c4 01 07");
    wp_tables_reset(&T);
    CHECK_ERR(tu_decode(&x, &T, b.p, b.len, WP_DEC_MP_RAW_STRINGS | WP_DEC_MAPS_AS_OBJECTS), WP_OK);
    {
        const uint32_t *w = x.d.tape;
        uint32_t bins = 0, strs = 0;
        for (uint32_t i = 0; i < x.d.tape_len; i++) {
            uint32_t tag = w[i] & 0xffu;
            if (tag == WP_T_BIN) { bins++; i += 2; }
            else if (tag == WP_T_STRA || tag == WP_T_STRU || tag == WP_T_VSTR || tag == WP_T_STR8) strs++;
        }
        CHECK_EQ_U(bins, 5); /* "", "xy", "z", "\xe9" (as bytes, ill-formed or not), the binary */
        CHECK_EQ_U(strs, 0);
    }
    tu_dec_free(&x);
    tu_end();
    tu_case("raw strings: a tape of empty strings fits the bound");
    b.len = 0;
    tu_buf_hex(&b, "dc 01 00");
    for (int i = 0; i < 256; i++) tu_buf_hex(&b, "a0");
    wp_tables_reset(&T);
    CHECK_ERR(tu_decode(&x, &T, b.p, b.len, WP_DEC_MP_RAW_STRINGS), WP_OK);
    CHECK(x.d.tape_len <= wp_cbor_tape_words(b.len), "tape %u words", x.d.tape_len);
    CHECK(x.d.tape_len > wp_decode_tape_words(b.len), "tape %u words: the MessagePack bound would not do", x.d.tape_len);
    tu_dec_free(&x);
    tu_end();
    tu_buf_free(&b);
}

/* ===================================================================== depth */

static void test_depth(void) {
    tu_buf b = { 0 };
    tu_dec x;
    typedef struct { const char *hex; uint32_t max_depth; wp_err err; uint32_t off; } dcase;
    static const dcase cases[] = {
        { "91 91 91 c0", 3, WP_OK, 0 },
        { "91 91 91 91 c0", 3, WP_ERR_DEPTH, 3 },
        { "91 91 90", 3, WP_OK, 0 },
        { "91 91 91 90", 3, WP_ERR_DEPTH, 3 },             /* an empty 4th array still nests */
        { "91 91 91 80", 3, WP_ERR_DEPTH, 3 },             /* an empty 4th map too */
        { "91 91 92 01 02", 3, WP_OK, 0 },                 /* a number run counts as a level */
        { "91 91 91 92 01 02", 3, WP_ERR_DEPTH, 3 },
        { "81 a1 61 81 a1 62 81 a1 63 c0", 3, WP_OK, 0 },
        { "81 a1 61 81 a1 62 81 a1 63 81 a1 64 c0", 3, WP_ERR_DEPTH, 9 },
        { "91 81 01 91 c0", 3, WP_OK, 0 },
        { "91 81 01 91 91 c0", 3, WP_ERR_DEPTH, 4 },
        { "81 91 91 91 c0 c0", 3, WP_ERR_DEPTH, 3 },      /* a non-string key nests too */
        { "81 91 91 c0 91 91 c0", 3, WP_OK, 0 },
        { "92 91 91 c0 91 91 c0", 3, WP_OK, 0 },           /* siblings do not add up */
        { "91 c0", 1, WP_OK, 0 },
        { "91 91 c0", 1, WP_ERR_DEPTH, 1 },
        { "c0", 1, WP_OK, 0 },
        { "dc 00 01 dc 00 01 91 c0", 2, WP_ERR_DEPTH, 6 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const dcase *c = &cases[i];
        tu_case("depth '%s' max %u", c->hex, c->max_depth);
        b.len = 0;
        tu_buf_hex(&b, c->hex);
        wp_tables_reset(&T);
        wp_err rc = tu_decode_ex(&x, &T, b.p, b.len, WP_DEC_MAPS_AS_OBJECTS, c->max_depth);
        CHECK_ERR(rc, c->err);
        if (c->err != WP_OK) CHECK_EQ_U(x.d.err.offset, c->off);
        tu_dec_free(&x);
        tu_end();
    }

    tu_case("default depth: 1000 nested arrays ok, 1001 -> DEPTH");
    for (uint32_t n = 1000; n <= 1001; n++) {
        b.len = 0;
        for (uint32_t i = 0; i < n; i++) tu_buf_u8(&b, 0x91);
        tu_buf_u8(&b, 0xc0);
        wp_err rc = tu_decode(&x, &T, b.p, b.len, 0);
        CHECK_ERR(rc, n == 1000 ? WP_OK : WP_ERR_DEPTH);
        if (rc == WP_ERR_DEPTH) CHECK_EQ_U(x.d.err.offset, WP_DEFAULT_MAX_DEPTH);
        tu_dec_free(&x);
    }
    tu_end();

    tu_case("10^6 nested 0x91 with the default depth -> DEPTH, no crash");
    {
        uint32_t n = 1000000;
        uint8_t *p = (uint8_t *)malloc(n);
        memset(p, 0x91, n);
        wp_err rc = tu_decode(&x, &T, p, n, WP_DEC_MAPS_AS_OBJECTS);
        CHECK_ERR(rc, WP_ERR_DEPTH);
        CHECK_EQ_U(x.d.err.offset, WP_DEFAULT_MAX_DEPTH);
        tu_dec_free(&x);
        memset(p, 0x81, n); /* maps with map keys */
        rc = tu_decode(&x, &T, p, n, WP_DEC_MAPS_AS_OBJECTS);
        CHECK_ERR(rc, WP_ERR_DEPTH); /* maps as keys of maps */
        CHECK_EQ_U(x.d.err.offset, WP_DEFAULT_MAX_DEPTH);
        tu_dec_free(&x);
        free(p);
    }
    tu_end();

    tu_case("10^6 nested 0x81 0xa0 (map with an empty-string key) -> DEPTH");
    {
        uint32_t n = 1000000;
        uint8_t *p = (uint8_t *)malloc(n);
        for (uint32_t i = 0; i < n; i++) p[i] = (i & 1) ? 0xa0 : 0x81;
        wp_err rc = tu_decode(&x, &T, p, n, WP_DEC_MAPS_AS_OBJECTS);
        CHECK_ERR(rc, WP_ERR_DEPTH);
        CHECK_EQ_U(x.d.err.offset, 2 * WP_DEFAULT_MAX_DEPTH);
        tu_dec_free(&x);
        free(p);
    }
    tu_end();

    typedef struct { const char *hex; uint32_t seen; } scase2;
    static const scase2 seen[] = {
        { "c0", 0 }, { "90", 0 }, { "80", 0 }, { "91 c0", 1 }, { "91 91 c0", 2 }, { "91 91 90", 2 },
        { "92 01 02", 0 }, { "91 92 01 02", 1 }, { "92 91 91 c0 c0", 3 },
        { "82 a1 61 91 c0 a1 62 c0", 2 }, { "81 a1 61 81 a1 62 91 c0", 3 }, { "93 91 c0 91 91 c0 c0", 3 },
    };
    for (size_t i = 0; i < sizeof seen / sizeof seen[0]; i++) {
        tu_case("depth_seen '%s' = %u", seen[i].hex, seen[i].seen);
        b.len = 0;
        tu_buf_hex(&b, seen[i].hex);
        CHECK_ERR(tu_decode(&x, &T, b.p, b.len, WP_DEC_MAPS_AS_OBJECTS), WP_OK);
        CHECK_EQ_U(x.d.depth_seen, seen[i].seen);
        tu_dec_free(&x);
        tu_end();
    }
    tu_buf_free(&b);
}

/* max_depth so large that max_depth * WP_FRAME_WORDS wraps in 32 bits: with a stack sized by
 * wp_decode_stack_words the decoder must still stay inside it (decode, or fail cleanly). Run in a
 * child process: the failure mode is a heap overflow. */
static int depth_wrap_child(void *arg) {
    (void)arg;
    uint32_t md = (uint32_t)((1ull << 32) / WP_FRAME_WORDS) + 1u;
    uint8_t in[201];
    memset(in, 0x91, 200);
    in[200] = 0xc0;
    tu_dec x;
    wp_err rc = tu_decode_ex(&x, &T, in, sizeof in, 0, md);
    int ok = rc == WP_OK || rc == WP_ERR_TAPE_FULL || rc == WP_ERR_LIMIT;
    if (!ok) fprintf(stderr, "  child: rc %s\n", wp_err_name(rc));
    tu_dec_free(&x);
    return ok;
}

static void test_depth_wrap(void) {
    tu_case("huge max_depth (max_depth * WP_FRAME_WORDS wraps): no overflow of the stack (isolated)");
    wp_tables_reset(&T);
    CHECK(tu_run_isolated(depth_wrap_child, NULL), "decoder crashed: stack sized by wp_decode_stack_words overflowed");
    tu_end();
}

/* ===================================================================== multiple values */

static void test_multiple(void) {
    tu_buf b = { 0 };
    tu_dec x;

    tu_case("WP_DEC_MULTIPLE decodes several values");
    wp_tables_reset(&T);
    CHECK_ERR(dec_hex(&x, "01 a1 61 92 01 02 c0 80", WP_DEC_MULTIPLE, &b), WP_OK);
    CHECK_EQ_U(x.d.nvalues, 5);
    CHECK_EQ_U(x.d.end, 8);
    CHECK_EQ_U(x.d.tape_len, 10);
    CHECK_EQ_U(x.d.tape[0], W(WP_T_INT, 1));
    CHECK_EQ_U(x.d.tape[1], W(WP_T_STRA, 1));
    CHECK_EQ_U(x.d.tape[2], W(WP_T_NUMRUN, 2));
    CHECK_EQ_U(x.d.tape[8], WP_T_NIL);
    CHECK_EQ_U(x.d.tape[9], W(WP_T_MAP, 0));
    tu_dec_free(&x);
    tu_end();

    tu_case("WP_DEC_MULTIPLE with one value");
    CHECK_ERR(dec_hex(&x, "c3", WP_DEC_MULTIPLE, &b), WP_OK);
    CHECK_EQ_U(x.d.nvalues, 1);
    CHECK_EQ_U(x.d.end, 1);
    tu_dec_free(&x);
    tu_end();

    tu_case("WP_DEC_MULTIPLE stops at the error; end and nvalues count complete values");
    CHECK_ERR(dec_hex(&x, "01 02 92 01", WP_DEC_MULTIPLE, &b), WP_ERR_TRUNCATED);
    CHECK_EQ_U(x.d.nvalues, 2);
    CHECK_EQ_U(x.d.end, 2);
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "01 02 c1 03", WP_DEC_MULTIPLE, &b), WP_ERR_RESERVED_BYTE);
    CHECK_EQ_U(x.d.err.offset, 2);
    CHECK_EQ_U(x.d.nvalues, 2);
    CHECK_EQ_U(x.d.end, 2);
    tu_dec_free(&x);
    tu_end();

    tu_case("single mode: trailing data after a value");
    CHECK_ERR(dec_hex(&x, "01 02", 0, &b), WP_ERR_TRAILING_DATA);
    CHECK_EQ_U(x.d.err.offset, 1);
    CHECK_EQ_U(x.d.end, 1);
    CHECK_EQ_U(x.d.nvalues, 1);
    tu_dec_free(&x);
    tu_end();
    tu_buf_free(&b);
}

/* ===================================================================== rollback and tables */

static void test_rollback(void) {
    tu_buf b = { 0 };
    tu_dec x;
    const uint32_t O = WP_DEC_MAPS_AS_OBJECTS;

    tu_case("failed decode leaves the tables as before");
    wp_tables_reset(&T);
    CHECK_ERR(dec_hex(&x, "81 a1 61 01", O, &b), WP_OK);
    tu_dec_free(&x);
    CHECK_EQ_U(T.nkeys, 1);
    CHECK_EQ_U(T.nshapes, 1);
    {
        uint32_t pool = T.key_pool_used, spool = T.shape_pool_used;
        /* new keys, a new complete inner shape, then truncation */
        CHECK_ERR(dec_hex(&x, "82 a1 62 81 a1 63 01 a1 64", O, &b), WP_ERR_TRUNCATED);
        CHECK_EQ_U(x.d.keys_before, 1);
        CHECK_EQ_U(T.nkeys, 1);
        CHECK_EQ_U(T.nshapes, 1);
        CHECK_EQ_U(T.key_pool_used, pool);
        CHECK_EQ_U(T.shape_pool_used, spool);
        tu_dec_free(&x);
        CHECK_ERR(dec_hex(&x, "92 81 a1 7a 01 c1", O, &b), WP_ERR_RESERVED_BYTE);
        CHECK_EQ_U(T.nkeys, 1);
        CHECK_EQ_U(T.nshapes, 1);
        tu_dec_free(&x);
        CHECK_ERR(dec_hex(&x, "92 81 a1 7a 01 d4 ff 00", O, &b), WP_ERR_BAD_TIMESTAMP);
        CHECK_EQ_U(T.nkeys, 1);
        CHECK_EQ_U(T.nshapes, 1);
        tu_dec_free(&x);
    }
    /* the rolled-back ids are free again and lookups still work */
    CHECK_ERR(dec_hex(&x, "82 a1 7a 01 a1 61 02", O, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_SHAPED, 1), W(WP_T_KEY, 1), W(WP_T_INT, 1), W(WP_T_KEY, 0), W(WP_T_INT, 2));
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "81 a1 61 03", O, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_SHAPED, 0), W(WP_T_KEY, 0), W(WP_T_INT, 3));
    tu_dec_free(&x);
    tu_end();

    tu_case("WP_DEC_MULTIPLE: keys of complete values survive a later failure");
    wp_tables_reset(&T);
    CHECK_ERR(dec_hex(&x, "81 a1 61 01 81 a1 62 02 82 a1 63 01 a1 64", O | WP_DEC_MULTIPLE, &b), WP_ERR_TRUNCATED);
    CHECK_EQ_U(x.d.nvalues, 2);
    CHECK_EQ_U(x.d.end, 8);
    CHECK_EQ_U(T.nkeys, 2);   /* a, b kept; c, d rolled back */
    CHECK_EQ_U(T.nshapes, 2);
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "81 a1 63 01", O, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_SHAPED, 2), W(WP_T_KEY, 2), W(WP_T_INT, 1));
    tu_dec_free(&x);
    CHECK_ERR(dec_hex(&x, "81 a1 62 01", O, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_SHAPED, 1), W(WP_T_KEY, 1), W(WP_T_INT, 1));
    tu_dec_free(&x);
    tu_end();

    tu_case("single mode trailing data: the complete value's ids are kept (documented)");
    wp_tables_reset(&T);
    CHECK_ERR(dec_hex(&x, "81 a1 61 01 c0", O, &b), WP_ERR_TRAILING_DATA);
    CHECK_EQ_U(x.d.nvalues, 1);
    CHECK_EQ_U(T.nkeys, 1);
    tu_dec_free(&x);
    tu_end();

    tu_case("many rollbacks keep the probe chains intact");
    wp_tables_reset(&T);
    {
        tu_rng rng = { 42 };
        uint32_t committed = 0;
        char k[16];
        for (int round = 0; round < 300; round++) {
            /* a map of 5 new keys, complete (kept) or truncated (rolled back) */
            int keep = (int)tu_below(&rng, 2);
            b.len = 0;
            tu_buf_u8(&b, 0x85);
            for (int i = 0; i < 5; i++) {
                int kl = snprintf(k, sizeof k, "r%d_%d", round, i);
                put_str(&b, k, (uint32_t)kl);
                tu_buf_u8(&b, 0x01);
            }
            uint32_t len = keep ? b.len : b.len - 1;
            wp_err rc = tu_decode(&x, &T, b.p, len, O);
            CHECK_ERR(rc, keep ? WP_OK : WP_ERR_TRUNCATED);
            if (keep) committed += 5;
            CHECK_EQ_U(T.nkeys, committed);
            tu_dec_free(&x);
        }
        /* every committed key is found again with its id, without adding keys */
        uint32_t id = 0;
        for (uint32_t i = 0; i < T.nkeys; i++) {
            uint8_t buf[70];
            uint32_t kl = T.key_len[i];
            buf[0] = (uint8_t)(0x81);
            buf[1] = (uint8_t)(0xa0 | kl);
            memcpy(buf + 2, T.key_pool + T.key_off[i], kl);
            buf[2 + kl] = 0xc0;
            uint32_t before = T.nkeys;
            if (tu_decode(&x, &T, buf, 3 + kl, O) == WP_OK && x.d.tape[1] == W(WP_T_KEY, i)) id++;
            CHECK_EQ_U(T.nkeys, before);
            tu_dec_free(&x);
        }
        CHECK_EQ_U(id, T.nkeys);
    }
    tu_end();
    tu_buf_free(&b);
}

static void test_table_full(void) {
    tu_buf b = { 0 };
    tu_dec x;
    const uint32_t O = WP_DEC_MAPS_AS_OBJECTS;
    char k[16];

    tu_case("more than WP_MAX_KEYS distinct keys: decode succeeds, maps fall back to OBJ");
    wp_tables_reset(&T);
    {
        uint32_t next = 0;
        /* 50 maps of 100 new keys each: 5000 > 4096 */
        for (int m = 0; m < 50; m++) {
            b.len = 0;
            tu_buf_hex(&b, "de 00 64");
            for (int i = 0; i < 100; i++) {
                int kl = snprintf(k, sizeof k, "k%05u", next++);
                put_str(&b, k, (uint32_t)kl);
                tu_buf_u8(&b, 0x01);
            }
            wp_err rc = tu_decode(&x, &T, b.p, b.len, O);
            CHECK_ERR(rc, WP_OK);
            if (rc == WP_OK) {
                uint32_t first = (uint32_t)m * 100;
                uint32_t tag = tu_tag(x.d.tape[0]);
                if (first + 100 <= WP_MAX_KEYS) {
                    CHECK_EQ_U(tag, WP_T_SHAPED);
                    CHECK_EQ_U(x.d.tape[1], W(WP_T_KEY, first));
                } else {
                    CHECK_EQ_U(x.d.tape[0], W(WP_T_OBJ, 100));
                    /* keys that fit are KEY words, the rest STRA */
                    for (uint32_t i = 0; i < 100; i++) {
                        uint32_t kw = x.d.tape[1 + 2 * i];
                        if (first + i < WP_MAX_KEYS) CHECK_EQ_U(kw, W(WP_T_KEY, first + i));
                        else CHECK_EQ_U(kw, W(WP_T_STRA, 6));
                    }
                }
            }
            tu_dec_free(&x);
        }
        CHECK_EQ_U(T.nkeys, WP_MAX_KEYS);
        /* an already interned key still resolves to its id when the table is full */
        CHECK_ERR(dec_hex(&x, "81 a6 6b 30 30 30 30 30 c0", O, &b), WP_OK);
        CHECK_EQ_U(x.d.tape_len, 3);
        CHECK_EQ_U(tu_tag(x.d.tape[0]), WP_T_SHAPED);
        CHECK_EQ_U(x.d.tape[1], W(WP_T_KEY, 0));
        tu_dec_free(&x);
        CHECK_ERR(dec_hex(&x, "81 a3 6e 65 77 c0", O, &b), WP_OK);
        CHECK_TAPE(&x, W(WP_T_OBJ, 1), W(WP_T_STRA, 3), WP_T_NIL);
        tu_dec_free(&x);
        CHECK_EQ_U(T.nkeys, WP_MAX_KEYS);
    }
    tu_end();

    tu_case("wp_tables_reset empties both tables");
    wp_tables_reset(&T);
    CHECK_EQ_U(T.nkeys, 0);
    CHECK_EQ_U(T.nshapes, 0);
    CHECK_EQ_U(T.key_pool_used, 0);
    CHECK_EQ_U(T.shape_pool_used, 0);
    CHECK_ERR(dec_hex(&x, "81 a6 6b 30 30 30 30 31 c0", O, &b), WP_OK);
    CHECK_TAPE(&x, W(WP_T_SHAPED, 0), W(WP_T_KEY, 0), WP_T_NIL);
    CHECK_EQ_U(T.nkeys, 1);
    tu_dec_free(&x);
    tu_end();

    tu_case("key pool full before WP_MAX_KEYS (64-byte keys)");
    wp_tables_reset(&T);
    {
        char kk[WP_KEY_MAX_BYTES];
        uint32_t total = 0, max_keys = WP_KEY_POOL_BYTES / WP_KEY_MAX_BYTES; /* 2048 */
        for (int m = 0; m < 25; m++) {
            b.len = 0;
            tu_buf_hex(&b, "de 00 64");
            for (int i = 0; i < 100; i++) {
                memset(kk, 'x', sizeof kk);
                snprintf(kk, sizeof kk, "%05u", total++);
                kk[5] = 'x';
                put_str(&b, kk, WP_KEY_MAX_BYTES);
                tu_buf_u8(&b, 0xc2);
            }
            wp_err rc = tu_decode(&x, &T, b.p, b.len, O);
            CHECK_ERR(rc, WP_OK);
            tu_dec_free(&x);
        }
        CHECK_EQ_U(T.nkeys, max_keys);
        CHECK_EQ_U(T.key_pool_used, WP_KEY_POOL_BYTES);
    }
    tu_end();

    tu_case("more than WP_MAX_SHAPES distinct shapes: fall back to OBJ with KEY words");
    wp_tables_reset(&T);
    {
        uint32_t shapes = 0, objs = 0;
        for (uint32_t i = 0; i < 70 && shapes + objs < WP_MAX_SHAPES + 200; i++) {
            for (uint32_t j = 0; j < 70; j++) {
                if (i == j) continue;
                uint8_t buf[16] = { 0x82, 0xa3, 'a', (uint8_t)('0' + i / 10), (uint8_t)('0' + i % 10), 0xc0,
                                    0xa3, 'a', (uint8_t)('0' + j / 10), (uint8_t)('0' + j % 10), 0xc3 };
                wp_err rc = tu_decode(&x, &T, buf, 11, O);
                CHECK_ERR(rc, WP_OK);
                if (tu_tag(x.d.tape[0]) == WP_T_SHAPED) {
                    shapes++;
                } else {
                    objs++;
                    CHECK_EQ_U(x.d.tape[0], W(WP_T_OBJ, 2));
                    CHECK_EQ_U(tu_tag(x.d.tape[1]), WP_T_KEY);
                    CHECK_EQ_U(tu_tag(x.d.tape[3]), WP_T_KEY);
                    CHECK(shapes == WP_MAX_SHAPES, "OBJ only once the shape table is full");
                }
                tu_dec_free(&x);
            }
        }
        CHECK_EQ_U(shapes, WP_MAX_SHAPES);
        CHECK(objs > 0);
        CHECK_EQ_U(T.nshapes, WP_MAX_SHAPES);
        wp_tables_reset(&T);
        CHECK_EQ_U(T.nshapes, 0);
    }
    tu_end();
    tu_buf_free(&b);
}

/* ===================================================================== caller errors */

static void test_caller_buffers(void) {
    tu_case("buffers below the bounds -> TAPE_FULL, never written past");
    static const char *const msgs[] = { "93 a3 61 62 63 a2 c3 a9 92 01 02", "81 a1 61 c0" };
    for (size_t m = 0; m < 2; m++) {
        tu_buf b = { 0 };
        tu_buf_hex(&b, msgs[m]);
        uint32_t len = b.len;
        for (int which = 0; which < 4; which++) {
            uint32_t tw = wp_decode_tape_words(len), sw = wp_decode_stack_words(0, len);
            uint32_t ac = len, uc = len;
            /* too small by one: stack; tiny tape; ascii 0; utf16 0 */
            if (which == 0) sw -= 1;
            if (which == 1) tw = 3;
            if (which == 2) ac = m == 0 ? 2 : 0;
            if (which == 3) uc = 0;
            wp_decoder d;
            memset(&d, 0, sizeof d);
            uint64_t *tape = (uint64_t *)malloc(((size_t)tw + 1) / 2 * 8);
            uint8_t *ascii = (uint8_t *)malloc(ac + 1 + WP_DEC_SLACK); /* (the decoders' slack: wirepack.h) */
            uint16_t *utf16 = (uint16_t *)malloc(2u * uc + 2);
            uint32_t *stack = (uint32_t *)malloc((size_t)sw * 4);
            uint8_t *in = (uint8_t *)malloc(len + WP_DEC_SLACK);
            memcpy(in, b.p, len);
            d.in = in; d.len = len; d.flags = WP_DEC_MAPS_AS_OBJECTS | WP_DEC_NO_INTERN;
            d.tape = (uint32_t *)(void *)tape; d.tape_cap = tw;
            d.ascii = ascii; d.ascii_cap = ac;
            d.utf16 = utf16; d.utf16_cap = uc;
            d.stack = stack; d.stack_cap = sw;
            wp_tables_reset(&T);
            wp_err rc = wp_msgpack_decode(&d, &T);
            int expect_full = which == 0 || which == 1 || which == 2 || (which == 3 && m == 0);
            CHECK_ERR(rc, expect_full ? WP_ERR_TAPE_FULL : WP_OK);
            CHECK(d.tape_len <= tw && d.ascii_len <= ac && d.utf16_len <= uc, "which %d", which);
            free(tape); free(ascii); free(utf16); free(stack); free(in);
        }
        tu_buf_free(&b);
    }
    tu_end();
}

/* ===================================================================== UTF-8 */

typedef struct { const char *hex; uint16_t want[12]; uint32_t n; } u8case;
static const u8case utf8_cases[] = {
    { "", { 0 }, 0 },
    { "41 42 43", { 'A', 'B', 'C' }, 3 },
    { "00 7f", { 0, 0x7f }, 2 },
    { "c2 80", { 0x80 }, 1 },
    { "df bf", { 0x7ff }, 1 },
    { "e0 a0 80", { 0x800 }, 1 },
    { "ef bf bf", { 0xffff }, 1 },
    { "ed 9f bf", { 0xd7ff }, 1 },
    { "ee 80 80", { 0xe000 }, 1 },
    { "f0 90 80 80", { 0xd800, 0xdc00 }, 2 },
    { "f0 9f 8d 95", { 0xd83c, 0xdf55 }, 2 },       /* valid 4-byte -> surrogate pair */
    { "f4 8f bf bf", { 0xdbff, 0xdfff }, 2 },
    { "c0 80", { 0xfffd, 0xfffd }, 2 },             /* overlong */
    { "c1 bf", { 0xfffd, 0xfffd }, 2 },
    { "e0 80 80", { 0xfffd, 0xfffd, 0xfffd }, 3 },  /* overlong 3-byte */
    { "f0 80 80 80", { 0xfffd, 0xfffd, 0xfffd, 0xfffd }, 4 },
    { "ed a0 80", { 0xfffd, 0xfffd, 0xfffd }, 3 },  /* surrogate */
    { "ed bf bf", { 0xfffd, 0xfffd, 0xfffd }, 3 },
    { "f0 9f 8d", { 0xfffd }, 1 },                  /* truncated at the end: one FFFD */
    { "f0 9f", { 0xfffd }, 1 },
    { "e2 82", { 0xfffd }, 1 },
    { "c3", { 0xfffd }, 1 },
    { "f0 9f 8d 41", { 0xfffd, 'A' }, 2 },
    { "f4 90 80 80", { 0xfffd, 0xfffd, 0xfffd, 0xfffd }, 4 }, /* above U+10FFFF */
    { "f5 80 80 80", { 0xfffd, 0xfffd, 0xfffd, 0xfffd }, 4 },
    { "ff fe", { 0xfffd, 0xfffd }, 2 },
    { "e2 28 a1", { 0xfffd, 0x28, 0xfffd }, 3 },
    { "80 41", { 0xfffd, 'A' }, 2 },
    { "c3 a9 c3", { 0xe9, 0xfffd }, 2 },
    { "e2 82 ac e2 82", { 0x20ac, 0xfffd }, 2 },
    { "61 f0 9f 98 80 62", { 'a', 0xd83d, 0xde00, 'b' }, 4 },
    { "c2 c2 80", { 0xfffd, 0x80 }, 2 },
    { "e1 80 e1 80 80", { 0xfffd, 0x1000 }, 2 },
};

static void test_utf8(void) {
    for (size_t i = 0; i < sizeof utf8_cases / sizeof utf8_cases[0]; i++) {
        const u8case *c = &utf8_cases[i];
        tu_case("utf8 '%s'", c->hex);
        tu_buf b = { 0 };
        tu_buf_hex(&b, c->hex);
        uint8_t *in = (uint8_t *)malloc(b.len ? b.len : 1);
        if (b.len) memcpy(in, b.p, b.len);
        uint16_t *out = (uint16_t *)malloc(b.len ? 2u * b.len : 2); /* exactly n units */
        uint32_t n = wp_utf8_to_utf16(in, b.len, out);
        CHECK_EQ_U(n, c->n);
        for (uint32_t k = 0; k < n && k < c->n; k++) CHECK(out[k] == c->want[k], "unit %u: %04x want %04x", k, out[k], c->want[k]);
        /* ascii detection agrees */
        int ascii = 1;
        for (uint32_t k = 0; k < b.len; k++) if (b.p[k] & 0x80) ascii = 0;
        CHECK_EQ_U(wp_is_ascii(in, b.len), ascii);
        free(in);
        free(out);
        tu_buf_free(&b);
        tu_end();
    }

    /* The same sequences inside ASCII text, at every offset of a 16-byte block and with text
     * after them: the blocks of 16 bytes widened at once stop at each of them. */
    for (size_t i = 0; i < sizeof utf8_cases / sizeof utf8_cases[0]; i++) {
        const u8case *c = &utf8_cases[i];
        tu_case("utf8 '%s' inside ASCII text", c->hex);
        tu_buf b = { 0 };
        tu_buf_hex(&b, c->hex);
        static const uint32_t after[] = { 0, 1, 15, 16, 40 };
        for (uint32_t pre = 0; pre <= 33; pre++) {
            for (size_t q = 0; q < sizeof after / sizeof after[0]; q++) {
                const uint32_t post = after[q], len = pre + (uint32_t)b.len + post;
                uint8_t *in = (uint8_t *)malloc(len + 1u);
                memset(in, 'a', pre);
                if (b.len) memcpy(in + pre, b.p, b.len);
                memset(in + pre + b.len, 'b', post);
                uint16_t *out = (uint16_t *)malloc(len ? 2u * len : 2u); /* exactly len units */
                const uint32_t n = wp_utf8_to_utf16(in, len, out);
                bool ok = n == pre + c->n + post;
                CHECK_EQ_U(n, pre + c->n + post);
                for (uint32_t k = 0; ok && k < n; k++) {
                    const uint16_t want = k < pre ? 'a' : k < pre + c->n ? c->want[k - pre] : 'b';
                    ok = CHECK(out[k] == want, "pre %u post %u unit %u: %04x want %04x", pre, post, k, out[k], want);
                }
                bool ascii = true;
                for (uint32_t k = 0; k < b.len; k++) if (b.p[k] & 0x80) ascii = false;
                CHECK_EQ_U(wp_is_ascii(in, len), ascii);
                free(in);
                free(out);
                if (!ok) break;
            }
        }
        tu_buf_free(&b);
        tu_end();
    }

    tu_case("wp_is_ascii at every position of a 40-byte buffer");
    {
        uint8_t *s = (uint8_t *)malloc(40);
        for (uint32_t len = 0; len <= 40; len++) {
            for (uint32_t pos = 0; pos < len; pos++) {
                memset(s, 'a', 40);
                s[pos] = 0x80;
                if (!CHECK(!wp_is_ascii(s, len), "len %u pos %u", len, pos)) break;
            }
            memset(s, 0x7f, 40);
            CHECK(wp_is_ascii(s, len));
            if (len < 40) { s[len] = 0xff; CHECK(wp_is_ascii(s, len), "byte past n ignored"); }
        }
        free(s);
    }
    tu_end();
}

/* ===================================================================== main */

/* Key interning: a key found through the two-word path (16 bytes readable after it) and through
 * the byte-safe path (at the end of the input) gets one id, whatever follows it; keys that
 * differ in any byte, or only in length, get different ids. */
static void test_key_intern_paths(void) {
    static wp_tables tb;
    wp_tables_reset(&tb);
    tu_case("key interning: short-key word path = byte path");
    uint8_t buf[48];
    for (uint32_t n = 0; n <= 20; n++) {
        uint8_t key[20];
        for (uint32_t i = 0; i < n; i++) key[i] = (uint8_t)('a' + (i * 7 + n) % 26);
        /* the byte path first: the key at the very end of a heap block of its own size */
        uint8_t *end = malloc(n ? n : 1);
        memcpy(end, key, n);
        uint32_t id = wp_key_intern(&tb, end, n);
        free(end);
        CHECK(id != WP_NO_ID, "n=%u", n);
        /* the word path, with different garbage after the key each time */
        for (int g = 0; g < 3; g++) {
            memset(buf, g == 0 ? 0 : g == 1 ? 0xff : 'a', sizeof buf);
            memcpy(buf, key, n);
            CHECK_EQ_U(wp_key_intern_at(&tb, buf, n, sizeof buf), id);
        }
        /* one byte changed: another key */
        if (n) {
            memcpy(buf, key, n);
            buf[n - 1] ^= 1;
            uint32_t other = wp_key_intern_at(&tb, buf, n, sizeof buf);
            CHECK(other != id && other != WP_NO_ID, "n=%u", n);
        }
    }
    /* the same bytes, one shorter: another key (the length is part of the hash and the compare) */
    memset(buf, 'q', sizeof buf);
    CHECK(wp_key_intern_at(&tb, buf, 9, sizeof buf) != wp_key_intern_at(&tb, buf, 8, sizeof buf));
    tu_end();
}

int main(void) {
    test_key_intern_paths();
    for (size_t i = 0; i < sizeof scalar_cases / sizeof scalar_cases[0]; i++) {
        tu_case("scalar '%s' flags %u", scalar_cases[i].hex, scalar_cases[i].flags);
        run_scalar(&scalar_cases[i]);
        tu_end();
    }
    test_string_sizes();
    test_arrays();
    test_maps();
    test_truncation();
    test_errors();
    test_library_rules();
    test_depth();
    test_depth_wrap();
    test_multiple();
    test_rollback();
    test_table_full();
    test_caller_buffers();
    test_utf8();
    return tu_finish();
}
