/*
 * test_roundtrip.c: decode -> (decode tape converted to an encode tape) -> encode must give back
 * the canonical (smallest-form) bytes, for hand-written messages and ~2000 pseudo-random ones;
 * and single-byte mutations of every message must decode to WP_OK or a defined error, with
 * well-formed tapes, rolled-back tables, and a stable re-encoding (ASan/UBSan watch the reads).
 */
#include <math.h>
#include "test_util.h"

static wp_tables T;

/* ===================================================================== canonical writer */

static void w_uint(tu_buf *b, uint64_t v) {
    if (v < 0x80) tu_buf_u8(b, (uint32_t)v);
    else if (v <= 0xff) { tu_buf_u8(b, 0xcc); tu_buf_be(b, v, 1); }
    else if (v <= 0xffff) { tu_buf_u8(b, 0xcd); tu_buf_be(b, v, 2); }
    else if (v <= 0xffffffffu) { tu_buf_u8(b, 0xce); tu_buf_be(b, v, 4); }
    else { tu_buf_u8(b, 0xcf); tu_buf_be(b, v, 8); }
}
static void w_int(tu_buf *b, int64_t v) {
    if (v >= 0) { w_uint(b, (uint64_t)v); return; }
    if (v >= -32) tu_buf_u8(b, (uint32_t)(v & 0xff));
    else if (v >= -128) { tu_buf_u8(b, 0xd0); tu_buf_be(b, (uint64_t)v, 1); }
    else if (v >= -32768) { tu_buf_u8(b, 0xd1); tu_buf_be(b, (uint64_t)v, 2); }
    else if (v >= INT32_MIN) { tu_buf_u8(b, 0xd2); tu_buf_be(b, (uint64_t)v, 4); }
    else { tu_buf_u8(b, 0xd3); tu_buf_be(b, (uint64_t)v, 8); }
}
static void w_hdr(tu_buf *b, int kind, uint32_t n) { /* 0 str, 1 bin, 2 arr, 3 map */
    static const uint8_t fix[4] = { 0xa0, 0, 0x90, 0x80 }, fixmax[4] = { 32, 0, 16, 16 };
    static const uint8_t b8[4] = { 0xd9, 0xc4, 0, 0 }, b16[4] = { 0xda, 0xc5, 0xdc, 0xde }, b32[4] = { 0xdb, 0xc6, 0xdd, 0xdf };
    if (kind != 1 && n < fixmax[kind]) tu_buf_u8(b, fix[kind] | n);
    else if (kind <= 1 && n <= 0xff) { tu_buf_u8(b, b8[kind]); tu_buf_be(b, n, 1); }
    else if (n <= 0xffff) { tu_buf_u8(b, b16[kind]); tu_buf_be(b, n, 2); }
    else { tu_buf_u8(b, b32[kind]); tu_buf_be(b, n, 4); }
}
static void w_ext(tu_buf *b, uint8_t type, const uint8_t *data, uint32_t n) {
    switch (n) {
    case 1: tu_buf_u8(b, 0xd4); break;
    case 2: tu_buf_u8(b, 0xd5); break;
    case 4: tu_buf_u8(b, 0xd6); break;
    case 8: tu_buf_u8(b, 0xd7); break;
    case 16: tu_buf_u8(b, 0xd8); break;
    default:
        if (n <= 0xff) { tu_buf_u8(b, 0xc7); tu_buf_be(b, n, 1); }
        else if (n <= 0xffff) { tu_buf_u8(b, 0xc8); tu_buf_be(b, n, 2); }
        else { tu_buf_u8(b, 0xc9); tu_buf_be(b, n, 4); }
    }
    tu_buf_u8(b, type);
    tu_buf_bytes(b, data, n);
}
static void w_date(tu_buf *b, int64_t sec, uint32_t nsec) {
    if (nsec == 0 && sec >= 0 && sec <= 0xffffffffll) { tu_buf_hex(b, "d6 ff"); tu_buf_be(b, (uint64_t)sec, 4); }
    else if (sec >= 0 && sec < (1ll << 34)) { tu_buf_hex(b, "d7 ff"); tu_buf_be(b, ((uint64_t)nsec << 34) | (uint64_t)sec, 8); }
    else { tu_buf_hex(b, "c7 0c ff"); tu_buf_be(b, nsec, 4); tu_buf_be(b, (uint64_t)sec, 8); }
}

/* ===================================================================== random generator */

static const char *const vocab[] = {
    "id", "name", "x", "y", "z", "type", "value", "items", "tags", "created", "a", "b", "c", "",
    "\xc3\xa9t\xc3\xa9", "\xe6\x97\xa5\xe6\x9c\xac", "key_with_a_longer_name_0123456789", "__proto__", "constructor",
    "k1", "k2", "k3", "k4", "k5", "data", "meta", "ok", "err", "n", "list",
};

static uint32_t rand_len(tu_rng *r) {
    uint32_t p = tu_below(r, 1000);
    if (p < 700) return tu_below(r, 11);
    if (p < 900) return 11 + tu_below(r, 30);
    if (p < 995) return 41 + tu_below(r, 260);
    return 65530 + tu_below(r, 12); /* around the str16/str32 boundary */
}

static void gen_string(tu_rng *r, tu_buf *b, uint32_t want) {
    tu_buf s = { 0 };
    int ascii = tu_below(r, 3) != 0;
    while (s.len < want) {
        uint32_t cp;
        if (ascii) cp = 0x20 + tu_below(r, 0x5f);
        else {
            switch (tu_below(r, 4)) {
            case 0: cp = tu_below(r, 0x80); break;
            case 1: cp = 0x80 + tu_below(r, 0x800 - 0x80); break;
            case 2: cp = 0x800 + tu_below(r, 0x10000 - 0x800); if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd; break;
            default: cp = 0x10000 + tu_below(r, 0x100000); break;
            }
        }
        tu_buf_cp(&s, cp);
    }
    w_hdr(b, 0, s.len);
    tu_buf_bytes(b, s.p, s.len);
    tu_buf_free(&s);
}

static double rand_double(tu_rng *r) {
    switch (tu_below(r, 8)) {
    case 0: return INFINITY;
    case 1: return -INFINITY;
    case 2: return NAN;
    case 3: return -0.0;
    case 4: return 1e20 * (double)(1 + tu_below(r, 1000));
    default: { /* non-integral */
        double d = (double)(int32_t)(uint32_t)tu_rand(r) / 1024.0;
        if (d == floor(d)) d += 0.5;
        return d;
    }
    }
}

static void gen_value(tu_rng *r, tu_buf *b, int depth);

static void gen_key(tu_rng *r, tu_buf *b, int depth) {
    uint32_t p = tu_below(r, 100);
    if (p < 70) {
        const char *k = vocab[tu_below(r, sizeof vocab / sizeof vocab[0])];
        w_hdr(b, 0, (uint32_t)strlen(k));
        tu_buf_bytes(b, k, (uint32_t)strlen(k));
    } else if (p < 90) gen_string(r, b, tu_below(r, 12));
    else if (p < 95) gen_string(r, b, 60 + tu_below(r, 20)); /* around WP_KEY_MAX_BYTES */
    else gen_value(r, b, depth + 1);                         /* any value as a key */
}

static void gen_value(tu_rng *r, tu_buf *b, int depth) {
    uint32_t p = tu_below(r, depth >= 6 ? 60 : 100);
    if (p < 4) { tu_buf_u8(b, 0xc0); return; }
    if (p < 8) { tu_buf_u8(b, tu_below(r, 2) ? 0xc3 : 0xc2); return; }
    if (p < 25) {
        int64_t v;
        switch (tu_below(r, 10)) {
        case 0: v = (int64_t)tu_below(r, 128); break;
        case 1: v = -1 - (int64_t)tu_below(r, 32); break;
        case 2: v = 128 + (int64_t)tu_below(r, 128); break;
        case 3: v = 256 + (int64_t)tu_below(r, 65536 - 256); break;
        case 4: v = 65536 + (int64_t)(tu_rand(r) % (4294967296ll - 65536)); break;
        case 5: v = -33 - (int64_t)tu_below(r, 96); break;
        case 6: v = -129 - (int64_t)tu_below(r, 32768 - 129 + 1); break;
        case 7: v = -32769 - (int64_t)(tu_rand(r) % (2147483648ll - 32769 + 1)); break;
        case 8: { uint64_t u = 4294967296ull + tu_rand(r) % (UINT64_MAX - 4294967296ull) ; w_uint(b, u); return; }
        default: v = (int64_t)INT32_MIN - 1 - (int64_t)(tu_rand(r) % ((uint64_t)INT64_MAX - 2147483648ull)); break;
        }
        w_int(b, v);
        return;
    }
    if (p < 30) { /* float64 (never an integral value in int32/uint32 range: those canonicalize) */
        double d = rand_double(r);
        uint64_t bits;
        memcpy(&bits, &d, 8);
        tu_buf_u8(b, 0xcb); tu_buf_be(b, bits, 8);
        return;
    }
    if (p < 33) { /* float32: any value (tagged F32 never joins a number run) */
        uint32_t bits = (uint32_t)tu_rand(r);
        if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffff)) bits = 0x7fc00000u; /* one NaN */
        tu_buf_u8(b, 0xca); tu_buf_be(b, bits, 4);
        return;
    }
    if (p < 45) { gen_string(r, b, rand_len(r)); return; }
    if (p < 48) {
        uint32_t n = tu_below(r, 20) == 0 ? 256 + tu_below(r, 300) : tu_below(r, 40);
        if (tu_below(r, 400) == 0) n = 65536 + tu_below(r, 10);
        w_hdr(b, 1, n);
        for (uint32_t i = 0; i < n; i++) tu_buf_u8(b, (uint32_t)tu_rand(r));
        return;
    }
    if (p < 52) {
        static const uint32_t fixed[] = { 1, 2, 4, 8, 16 };
        uint32_t n = tu_below(r, 2) ? fixed[tu_below(r, 5)] : tu_below(r, 300);
        uint8_t type = (uint8_t)tu_below(r, 255); /* never 0xff (timestamps) */
        uint8_t data[300];
        for (uint32_t i = 0; i < n; i++) data[i] = (uint8_t)tu_rand(r);
        if (tu_below(r, 8) == 0) { type = 0; n = 1; data[0] = 0; } /* undefined */
        w_ext(b, type, data, n);
        return;
    }
    if (p < 55) {
        if (tu_below(r, 10) == 0) { tu_buf_hex(b, "d4 ff ff"); return; }
        int64_t sec;
        switch (tu_below(r, 4)) {
        case 0: sec = (int64_t)tu_below(r, 0xffffffffu); break;
        case 1: sec = 4294967296ll + (int64_t)(tu_rand(r) % (17179869184ull - 4294967296ull)); break;
        case 2: sec = -(int64_t)(tu_rand(r) % 8640000000000ull) - 1; break;
        default: sec = 17179869184ll + (int64_t)(tu_rand(r) % (8640000000000ull - 17179869184ull)); break;
        }
        uint32_t nsec = tu_below(r, 2) ? 0 : tu_below(r, 1000) * 1000000u;
        w_date(b, sec, nsec);
        return;
    }
    if (p < 58) { tu_buf_hex(b, "d4 00 00"); return; }
    if (p < 60) { /* array of numbers (a run) */
        uint32_t n = 2 + tu_below(r, 20);
        w_hdr(b, 2, n);
        for (uint32_t i = 0; i < n; i++) {
            if (tu_below(r, 4) == 0) {
                double d = rand_double(r);
                uint64_t bits;
                memcpy(&bits, &d, 8);
                tu_buf_u8(b, 0xcb); tu_buf_be(b, bits, 8);
            } else w_int(b, (int64_t)(int32_t)(uint32_t)tu_rand(r) >> tu_below(r, 32));
        }
        return;
    }
    if (p < 80) {
        uint32_t n = tu_below(r, 6) == 0 ? tu_below(r, 20) : tu_below(r, 5);
        w_hdr(b, 2, n);
        for (uint32_t i = 0; i < n; i++) gen_value(r, b, depth + 1);
        return;
    }
    uint32_t n = tu_below(r, 8) == 0 ? tu_below(r, 20) : tu_below(r, 5);
    w_hdr(b, 3, n);
    for (uint32_t i = 0; i < n; i++) {
        gen_key(r, b, depth);
        gen_value(r, b, depth + 1);
    }
}

/* ===================================================================== tape converter */

typedef struct conv {
    const wp_decoder *d;
    const wp_tables *t;
    const uint32_t *w;
    uint32_t n, i, ai, ui, depth;
    tu_etape *out;
    char err[160];
} conv;

static int cv_fail(conv *c, const char *what) {
    if (!c->err[0]) snprintf(c->err, sizeof c->err, "%s at tape word %u", what, c->i);
    return 0;
}
static int cv_word(conv *c, uint32_t *v) {
    if (c->i >= c->n) return cv_fail(c, "tape ends early");
    *v = c->w[c->i++];
    return 1;
}
static int cv_len(conv *c, uint32_t word, uint32_t *len) {
    *len = word >> 8;
    if (*len == WP_LEN_ESCAPE) return cv_word(c, len);
    return 1;
}
static int cv_f64(conv *c, uint32_t tag_at, double *v) {
    uint32_t at = (tag_at + 2) & ~1u;
    if (at + 2 > c->n) return cv_fail(c, "f64 past the tape");
    memcpy(v, &c->w[at], 8);
    c->i = at + 2;
    return 1;
}
static void cv_utf16_to_utf8(const uint16_t *u, uint32_t n, tu_buf *s, conv *c) {
    for (uint32_t k = 0; k < n; k++) {
        uint32_t cp = tu_u16_cp(u, n, &k);
        if (cp == TU_LONE_SURROGATE) {
            cv_fail(c, "lone surrogate in utf16 area");
            cp = u[k];
        }
        tu_buf_cp(s, cp);
    }
}
static void cv_date(conv *c, double ms) {
    if (ms != ms || fabs(ms) > 8.64e15) { tu_et_tag(c->out, WP_E_BADDATE, 0); return; }
    double sec = floor(ms / 1000.0);
    double nsec = (ms - sec * 1000.0) * 1e6;
    tu_et_date(c->out, (int64_t)sec, (uint32_t)nsec);
}
static void cv_number(conv *c, double v) {
    if (v == floor(v) && !(v == 0 && signbit(v)) && v >= -2147483648.0 && v < 4294967296.0) {
        if (v < 0) tu_et_int(c->out, (int32_t)v);
        else tu_et_uint(c->out, (uint32_t)v);
    } else tu_et_f64(c->out, v);
}

static int cv_value(conv *c);

/* coverage counters, printed with TU_STATS=1 */
static unsigned long g_tags[64], g_codes[400], g_maxlen;

static int cv_string_entry(conv *c, uint32_t word, int key_only) {
    uint32_t tag = word & 0xff, len;
    g_tags[tag & 63]++;
    if (tag == WP_T_KEY) {
        uint32_t id = word >> 8;
        if (id >= c->t->nkeys) return cv_fail(c, "KEY id out of range");
        tu_et_blob(c->out, WP_E_STR, c->t->key_pool + c->t->key_off[id], c->t->key_len[id]);
        return 1;
    }
    if (tag == WP_T_STRA) {
        if (!cv_len(c, word, &len)) return 0;
        if (len > c->d->ascii_len - c->ai) return cv_fail(c, "STRA past the ascii area");
        tu_et_blob(c->out, WP_E_STR, c->d->ascii + c->ai, len);
        c->ai += len;
        return 1;
    }
    if (tag == WP_T_STRU) {
        if (!cv_len(c, word, &len)) return 0;
        if (len > c->d->utf16_len - c->ui) return cv_fail(c, "STRU past the utf16 area");
        tu_buf s = { 0 };
        cv_utf16_to_utf8(c->d->utf16 + c->ui, len, &s, c);
        tu_et_blob(c->out, WP_E_STR, s.p, s.len);
        tu_buf_free(&s);
        c->ui += len;
        return 1;
    }
    if (key_only) return cv_fail(c, "OBJ key is not a string entry");
    return -1;
}

static int cv_value(conv *c) {
    uint32_t at = c->i, word, v, len, off;
    if (!cv_word(c, &word)) return 0;
    uint32_t tag = word & 0xff;
    double f;
    if (tag != WP_T_STRA && tag != WP_T_STRU && tag != WP_T_KEY) g_tags[tag & 63]++;
    switch (tag) {
    case WP_T_NIL: tu_et_tag(c->out, WP_E_NIL, 0); return 1;
    case WP_T_FALSE: tu_et_tag(c->out, WP_E_FALSE, 0); return 1;
    case WP_T_TRUE: tu_et_tag(c->out, WP_E_TRUE, 0); return 1;
    case WP_T_UNDEF: tu_et_tag(c->out, WP_E_UNDEF, 0); return 1;
    case WP_T_INT: tu_et_int(c->out, (int32_t)word >> 8); return 1;
    case WP_T_I32: if (!cv_word(c, &v)) return 0; tu_et_int(c->out, (int32_t)v); return 1;
    case WP_T_U32: if (!cv_word(c, &v)) return 0; tu_et_uint(c->out, v); return 1;
    case WP_T_U64: case WP_T_I64: {
        uint32_t lo, hi;
        if (!cv_word(c, &lo) || !cv_word(c, &hi)) return 0;
        tu_et_64(c->out, tag == WP_T_U64 ? WP_E_U64 : WP_E_I64, (uint64_t)hi << 32 | lo);
        return 1;
    }
    case WP_T_F64: if (!cv_f64(c, at, &f)) return 0; tu_et_f64(c->out, f); return 1;
    case WP_T_F32: {
        if (!cv_f64(c, at, &f)) return 0;
        float g = (float)f;
        if ((double)g != f && f == f) return cv_fail(c, "F32 entry is not a float32 value");
        tu_et_f32(c->out, g);
        return 1;
    }
    case WP_T_DATE: if (!cv_f64(c, at, &f)) return 0; cv_date(c, f); return 1;
    case WP_T_STRA: case WP_T_STRU: case WP_T_KEY: return cv_string_entry(c, word, 0);
    case WP_T_BIN: case WP_T_EXT:
        if (!cv_word(c, &len) || !cv_word(c, &off)) return 0;
        if (off > c->d->len || len > c->d->len - off) return cv_fail(c, "BIN/EXT bytes outside the input");
        if (tag == WP_T_BIN) tu_et_blob(c->out, WP_E_BIN, c->d->in + off, len);
        else tu_et_ext(c->out, word >> 8, c->d->in + off, len);
        return 1;
    case WP_T_NUMRUN:
    case WP_T_SCALARRUN: {
        if (!cv_len(c, word, &len)) return 0;
        uint32_t p = (c->i + 1) & ~1u;
        if (p > c->n || len > (c->n - p) / 2) return cv_fail(c, "NUMRUN past the tape");
        tu_et_len(c->out, WP_E_ARR, len);
        uint32_t specials = 0;
        for (uint32_t k = 0; k < len; k++) {
            uint32_t lo = c->w[p + 2 * k], hi = c->w[p + 2 * k + 1];
            if (tag == WP_T_SCALARRUN && hi == WP_RUN_NAN_HI && lo != 0) {
                specials++;
                if (!tu_et_run_special(c->out, lo, 0)) return cv_fail(c, "SCALARRUN special out of range");
                continue;
            }
            memcpy(&f, &c->w[p + 2 * k], 8);
            if (tag == WP_T_SCALARRUN && f != f && (lo != 0 || hi != WP_RUN_NAN_HI)) return cv_fail(c, "SCALARRUN NaN not canonical");
            cv_number(c, f);
        }
        if (tag == WP_T_SCALARRUN && specials == 0) return cv_fail(c, "SCALARRUN without a special");
        c->i = p + 2 * len;
        return 1;
    }
    case WP_T_ARR: case WP_T_MAP: case WP_T_OBJ: {
        if (!cv_len(c, word, &len)) return 0;
        if (++c->depth > 2000) return cv_fail(c, "too deep");
        tu_et_len(c->out, tag == WP_T_ARR ? WP_E_ARR : WP_E_MAP, len);
        for (uint32_t k = 0; k < len; k++) {
            if (tag == WP_T_OBJ) {
                /* a string, or a scalar that becomes a property name (a number, nil, a boolean,
                 * undefined: msgpackr coerces them), re-encoded as it came */
                if (c->i >= c->n) return cv_fail(c, "tape ends early");
                const uint32_t kt = c->w[c->i] & 0xff;
                if (kt == WP_T_KEY || kt == WP_T_STRA || kt == WP_T_STRU) {
                    if (!cv_word(c, &word)) return 0;
                    if (cv_string_entry(c, word, 1) != 1) return 0;
                } else if (kt <= WP_T_I64 || kt == WP_T_F32 || kt == WP_T_UNDEF) {
                    if (!cv_value(c)) return 0;
                } else {
                    return cv_fail(c, "OBJ key that cannot be a property name");
                }
            } else if (tag == WP_T_MAP) {
                if (!cv_value(c)) return 0;
            }
            if (!cv_value(c)) return 0;
        }
        c->depth--;
        return 1;
    }
    case WP_T_SHAPED: {
        uint32_t sid = word >> 8;
        if (sid >= c->t->nshapes) return cv_fail(c, "shape id out of range");
        uint32_t n = c->t->shape_len[sid];
        const uint32_t *ids = c->t->shape_pool + c->t->shape_off[sid];
        if (++c->depth > 2000) return cv_fail(c, "too deep");
        tu_et_len(c->out, WP_E_MAP, n);
        for (uint32_t k = 0; k < n; k++) {
            if (!cv_word(c, &word)) return 0;
            if (word != (WP_T_KEY | ids[k] << 8)) return cv_fail(c, "SHAPED key word differs from the shape");
            cv_string_entry(c, word, 1);
            if (!cv_value(c)) return 0;
        }
        c->depth--;
        return 1;
    }
    default:
        return cv_fail(c, "unknown decode tag");
    }
}

/* Convert the whole decode tape (d->nvalues top-level values) into `out`; checks that every word
 * and every string-area unit is consumed. Returns 1 on success, else 0 with c->err set. */
static int convert(const wp_decoder *d, const wp_tables *t, tu_etape *out, char *err, size_t errsz) {
    conv c;
    memset(&c, 0, sizeof c);
    c.d = d; c.t = t; c.w = d->tape; c.n = d->tape_len; c.out = out;
    int ok = 1;
    for (uint32_t v = 0; v < d->nvalues && ok; v++) ok = cv_value(&c);
    if (ok && c.i != c.n) ok = cv_fail(&c, "tape words left over");
    if (ok && c.ai != d->ascii_len) ok = cv_fail(&c, "ascii area not consumed exactly");
    if (ok && c.ui != d->utf16_len) ok = cv_fail(&c, "utf16 area not consumed exactly");
    if (c.err[0]) ok = 0;
    snprintf(err, errsz, "%s", c.err);
    return ok;
}

/* decode -> convert -> encode; returns the decode error, fills `out` on success. */
static wp_err reencode(const uint8_t *in, uint32_t len, uint32_t flags, uint32_t max_depth, tu_buf *out,
                       int *conv_ok, tu_dec *keep) {
    tu_dec x;
    wp_err rc = tu_decode_ex(&x, &T, in, len, flags, max_depth);
    *conv_ok = 1;
    out->len = 0;
    if (rc == WP_OK) {
        tu_etape et = { 0 };
        char err[160];
        if (!convert(&x.d, &T, &et, err, sizeof err)) {
            *conv_ok = 0;
            CHECK(0, "bad tape: %s", err);
        } else {
            wp_encoder e;
            wp_err erc = tu_encode(&et, out, &e);
            if (erc != WP_OK) { *conv_ok = 0; CHECK_ERR(erc, WP_OK); }
        }
        tu_et_free(&et);
    }
    if (keep) *keep = x;
    else tu_dec_free(&x);
    return rc;
}

/* ===================================================================== tests */

static const char *const fixed_msgs[] = {
    "c0", "c2", "c3", "00", "7f", "ff", "e0", "cc 80", "cd 01 00", "ce 00 01 00 00", "ce ff ff ff ff",
    "d0 df", "d1 ff 7f", "d2 ff ff 7f ff", "d2 80 00 00 00", "cf 00 00 00 01 00 00 00 00", "d3 ff ff ff ff 7f ff ff ff",
    "ca 3f c0 00 00", "cb 3f b9 99 99 99 99 99 9a", "cb 80 00 00 00 00 00 00 00",
    "a0", "a3 61 62 63", "a2 c3 a9", "a4 f0 9f 98 80", "c4 00", "c4 02 01 02",
    "d4 01 aa", "d5 02 aa bb", "d8 7f 000102030405060708090a0b0c0d0e0f", "c7 03 05 61 62 63", "c7 00 05",
    "d4 00 00", "d4 ff ff", "d6 ff 00 00 00 00", "d7 ff 003d090000000001", "c7 0c ff 00000000 ffffffffffffffff",
    "90", "80", "91 c0", "92 01 02", "93 01 cb 3ff8000000000000 ff", "92 c0 92 01 02",
    "82 a1 61 01 a1 62 02", "92 82 a1 61 01 a1 62 02 82 a1 61 03 a1 62 04", "82 a1 61 01 02 03",
    "81 c0 92 01 a3 61 62 63", "82 a1 61 81 a1 62 01 a1 63 91 81 a1 62 02",
    "83 a2 69 64 cd 04 d2 a4 6e 61 6d 65 a5 41 6c 69 63 65 a4 74 61 67 73 92 a1 78 a2 c3 a9",
    "dc 00 10 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f",
    ("de 00 10 a1 61 00 a1 62 01 a1 63 02 a1 64 03 a1 65 04 a1 66 05 a1 67 06 a1 68 07"
     " a1 69 08 a1 6a 09 a1 6b 0a a1 6c 0b a1 6d 0c a1 6e 0d a1 6f 0e a1 70 0f"),
};

typedef struct msg { uint8_t *p; uint32_t len; } msg;

static msg *g_msgs;
static uint32_t g_nmsgs;

static void add_msg(const uint8_t *p, uint32_t len) {
    g_msgs = (msg *)realloc(g_msgs, (g_nmsgs + 1) * sizeof *g_msgs);
    g_msgs[g_nmsgs].p = (uint8_t *)malloc(len);
    memcpy(g_msgs[g_nmsgs].p, p, len);
    g_msgs[g_nmsgs].len = len;
    g_nmsgs++;
}

static void build_messages(void) {
    tu_buf b = { 0 };
    for (size_t i = 0; i < sizeof fixed_msgs / sizeof fixed_msgs[0]; i++) {
        b.len = 0;
        tu_buf_hex(&b, fixed_msgs[i]);
        add_msg(b.p, b.len);
    }
    /* big containers: a 65536-number run (array32), a map16 of 300 keys, a long str32 */
    b.len = 0;
    w_hdr(&b, 2, 65536);
    for (uint32_t i = 0; i < 65536; i++) w_int(&b, (int64_t)(i % 200) - 100);
    add_msg(b.p, b.len);
    b.len = 0;
    w_hdr(&b, 3, 300);
    for (uint32_t i = 0; i < 300; i++) {
        char k[8];
        int kl = snprintf(k, sizeof k, "f%u", i);
        w_hdr(&b, 0, (uint32_t)kl);
        tu_buf_bytes(&b, k, (uint32_t)kl);
        w_int(&b, i);
    }
    add_msg(b.p, b.len);
    b.len = 0;
    w_hdr(&b, 2, 17);
    for (int i = 0; i < 17; i++) tu_buf_u8(&b, 0xc0);
    add_msg(b.p, b.len);
    /* pseudo-random messages */
    tu_rng r = { 0x5eed };
    for (int i = 0; i < 2000; i++) {
        b.len = 0;
        gen_value(&r, &b, 0);
        add_msg(b.p, b.len);
    }
    tu_buf_free(&b);
}

static const uint32_t rt_flags[] = {
    WP_DEC_MAPS_AS_OBJECTS | WP_DEC_TAG_F32,
    WP_DEC_TAG_F32,
    WP_DEC_MAPS_AS_OBJECTS | WP_DEC_TAG_F32 | WP_DEC_NO_INTERN,
};

static void test_roundtrip(void) {
    tu_buf out = { 0 };
    for (uint32_t m = 0; m < g_nmsgs; m++) {
        if (m % 500 == 0) wp_tables_reset(&T); /* run both with fresh and with filling tables */
        tu_case("roundtrip message %u (%u bytes)", m, g_msgs[m].len);
        for (size_t f = 0; f < sizeof rt_flags / sizeof rt_flags[0]; f++) {
            int conv_ok;
            wp_err rc = reencode(g_msgs[m].p, g_msgs[m].len, rt_flags[f], 0, &out, &conv_ok, NULL);
            if (!CHECK(rc == WP_OK, "flags %u: decode %s", rt_flags[f], wp_err_name(rc))) break;
            if (!conv_ok) break;
            if (!CHECK_BYTES(out.p, out.len, g_msgs[m].p, g_msgs[m].len)) {
                fprintf(stderr, "  message %u flags %u: ", m, rt_flags[f]);
                tu_fprint_hex(stderr, g_msgs[m].p, g_msgs[m].len, 80);
                fputc('\n', stderr);
                break;
            }
        }
        /* WP_DEC_MULTIPLE over the message three times */
        {
            uint32_t n = g_msgs[m].len;
            uint8_t *tri = (uint8_t *)malloc(3u * n);
            for (int k = 0; k < 3; k++) memcpy(tri + k * n, g_msgs[m].p, n);
            int conv_ok;
            wp_err rc = reencode(tri, 3 * n, WP_DEC_MAPS_AS_OBJECTS | WP_DEC_TAG_F32 | WP_DEC_MULTIPLE, 0, &out, &conv_ok, NULL);
            CHECK_ERR(rc, WP_OK);
            if (rc == WP_OK && conv_ok) CHECK_BYTES(out.p, out.len, tri, 3 * n);
            free(tri);
        }
        tu_end();
    }
    tu_buf_free(&out);
}

static int defined_error(wp_err e) {
    switch (e) {
    case WP_OK: case WP_ERR_TRUNCATED: case WP_ERR_RESERVED_BYTE: case WP_ERR_TRAILING_DATA:
    case WP_ERR_BAD_TIMESTAMP: case WP_ERR_DEPTH:
        return 1;
    default: /* TAPE_FULL must not happen with the documented bounds; LIMIT is not used by decode */
        return 0;
    }
}

static void mutate_one(const uint8_t *src, uint32_t len, uint32_t pos, uint8_t val, uint32_t cut,
                       uint32_t flags, uint32_t max_depth, uint32_t m) {
    uint8_t *p = (uint8_t *)malloc(len ? len : 1);
    memcpy(p, src, len);
    if (pos < len) p[pos] = val;
    if (cut < len) len = cut;
    uint32_t keys = T.nkeys, shapes = T.nshapes;
    int conv_ok;
    tu_buf once = { 0 }, twice = { 0 };
    tu_dec x;
    wp_err rc = reencode(p, len, flags, max_depth, &once, &conv_ok, &x);
    g_codes[rc < 400 ? rc : 399]++;
    int ok = CHECK(defined_error(rc), "msg %u pos %u val %02x flags %u: %s", m, pos, val, flags, wp_err_name(rc));
    ok &= CHECK(x.d.err.code == rc && x.d.err.offset <= len, "offset %u len %u", x.d.err.offset, len);
    ok &= CHECK(x.d.tape_len <= x.d.tape_cap && x.d.ascii_len <= len && x.d.utf16_len <= len);
    if (rc == WP_OK) {
        ok &= CHECK(x.d.end == len && (x.d.nvalues == 1 || (flags & WP_DEC_MULTIPLE)), "end %u nvalues %u", x.d.end, x.d.nvalues);
        ok &= conv_ok;
        if (conv_ok) {
            /* the canonical re-encoding is a fixed point */
            int ok2;
            wp_err rc2 = reencode(once.p, once.len, flags & ~(uint32_t)WP_DEC_MULTIPLE, 0, &twice, &ok2, NULL);
            if (flags & WP_DEC_MULTIPLE) {
                ok &= CHECK(rc2 == WP_OK || (rc2 == WP_ERR_TRAILING_DATA && x.d.nvalues > 1), "re-decode %s", wp_err_name(rc2));
            } else {
                ok &= CHECK(rc2 == WP_OK, "re-decode of the re-encoding: %s", wp_err_name(rc2));
                if (rc2 == WP_OK && ok2) ok &= CHECK_BYTES(twice.p, twice.len, once.p, once.len);
            }
        }
    } else {
        ok &= CHECK(x.d.end <= x.d.err.offset || x.d.err.code == WP_ERR_TRAILING_DATA, "end %u", x.d.end);
        if (x.d.nvalues == 0) {
            ok &= CHECK(T.nkeys == keys && T.nshapes == shapes, "tables rolled back: keys %u->%u shapes %u->%u",
                        keys, T.nkeys, shapes, T.nshapes);
        }
    }
    if (!ok) {
        fprintf(stderr, "  mutated input: ");
        tu_fprint_hex(stderr, p, len, 80);
        fputc('\n', stderr);
    }
    tu_dec_free(&x);
    tu_buf_free(&once);
    tu_buf_free(&twice);
    free(p);
}

static void test_mutations(void) {
    static const uint8_t interesting[] = { 0x00, 0x01, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc4, 0xc7,
                                           0xc9, 0xca, 0xcb, 0xcf, 0xd3, 0xd4, 0xd7, 0xd8, 0xd9, 0xdb, 0xdc, 0xdd,
                                           0xde, 0xdf, 0xe0, 0xfe, 0xff };
    static const uint32_t flag_sets[] = {
        WP_DEC_MAPS_AS_OBJECTS | WP_DEC_TAG_F32,
        WP_DEC_MAPS_AS_OBJECTS | WP_DEC_TAG_F32 | WP_DEC_MULTIPLE,
        WP_DEC_TAG_F32,
        WP_DEC_MAPS_AS_OBJECTS | WP_DEC_TAG_F32 | WP_DEC_NO_INTERN,
    };
    tu_rng r = { 0xfeed };
    wp_tables_reset(&T);
    for (uint32_t m = 0; m < g_nmsgs; m++) {
        const msg *g = &g_msgs[m];
        if (g->len > 20000) continue; /* the big ones are covered by the roundtrip */
        tu_case("mutations of message %u (%u bytes)", m, g->len);
        if (m % 300 == 0) wp_tables_reset(&T);
        unsigned before = tu_case_fails;
        if (m < sizeof fixed_msgs / sizeof fixed_msgs[0]) {
            /* hand-written messages: every position x every interesting byte */
            for (uint32_t pos = 0; pos < g->len && tu_case_fails == before; pos++)
                for (size_t v = 0; v < sizeof interesting && tu_case_fails == before; v++)
                    mutate_one(g->p, g->len, pos, interesting[v], UINT32_MAX, flag_sets[(pos + v) % 4], 0, m);
        } else {
            for (int k = 0; k < 12 && tu_case_fails == before; k++) {
                uint32_t pos = tu_below(&r, g->len);
                uint8_t val = tu_below(&r, 2) ? (uint8_t)tu_rand(&r) : interesting[tu_below(&r, sizeof interesting)];
                uint32_t cut = tu_below(&r, 6) == 0 ? tu_below(&r, g->len + 1) : UINT32_MAX;
                uint32_t depth = tu_below(&r, 8) == 0 ? 1 + tu_below(&r, 4) : 0;
                mutate_one(g->p, g->len, pos, val, cut, flag_sets[tu_below(&r, 4)], depth, m);
            }
        }
        tu_end();
    }
}

int main(void) {
    build_messages();
    test_roundtrip();
    test_mutations();
    if (getenv("TU_STATS")) {
        for (uint32_t m = 0; m < g_nmsgs; m++) if (g_msgs[m].len > g_maxlen) g_maxlen = g_msgs[m].len;
        fprintf(stderr, "messages %u (largest %lu bytes)\ntape tags seen:", g_nmsgs, g_maxlen);
        for (int i = 0; i < 64; i++) if (g_tags[i]) fprintf(stderr, " %d:%lu", i, g_tags[i]);
        fprintf(stderr, "\nmutation results:");
        for (int i = 0; i < 400; i++) if (g_codes[i]) fprintf(stderr, " %s:%lu", wp_err_name((wp_err)i), g_codes[i]);
        fputc('\n', stderr);
    }
    for (uint32_t m = 0; m < g_nmsgs; m++) free(g_msgs[m].p);
    free(g_msgs);
    return tu_finish();
}
