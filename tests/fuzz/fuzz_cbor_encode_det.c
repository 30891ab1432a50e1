/*
 * fuzz_cbor_encode_det.c: the encoders, from host-written encode tapes.
 *
 * Input: one configuration byte, then bytes.
 *   bit 7 set, "raw tape": the bytes are the tape words (little-endian), and bits 0-6 times 512
 *     the encoder's ext_len (the bytes XBIN entries may leave for the host). wp_msgpack_encode and
 *     wp_cbor_encode (plain, INDEFINITE, FLOAT64, DETERMINISTIC) must return OK or BAD_TAPE with
 *     an exact-size output block of wp_encode_out_bound bytes and an exact-size scratch, and OK,
 *     BAD_TAPE or OUTPUT_FULL into a smaller block, with `needed` then sufficing; SCRATCH with a
 *     scratch one word short (deterministic, indefinite).
 *   bit 7 clear, "structured": the bytes drive a generator of one well-formed value (a tree of
 *     every encode entry kind, valid UTF-8 strings, PAD words and RAW items), written as a tape
 *     three times: as generated, with every map's entries in reverse order, and reversed with
 *     every string as a KEY entry referring to a key area (the "KEY tape").
 *     - CBOR, WP_CBOR_DETERMINISTIC: the first two give the same bytes (unless a map has equal
 *       keys), the KEY tape those of the second, and they pass the RFC 8949 4.2.1 checks, decode,
 *       and are a fixed point of decode -> rebuild -> deterministic encode after one step
 *       (numbers become JS numbers);
 *     - plain CBOR (bits 0-1: INDEFINITE, FLOAT64), or with bit 4 MessagePack (a tree of
 *       MessagePack entries then: EXT and DATE, no TAG/SIMPLE/N64): the KEY tape gives the bytes
 *       of the reversed one (with exactly wp_encode_out_need bytes and wp_cbor_scratch_need
 *       words); the output decodes to one value, and decode -> rebuild -> encode is a fixed
 *       point after one step, value for value and byte for byte.
 *   bit 2 WP_DEC_MAPS_AS_OBJECTS and bit 3 WP_DEC_TAG_F32 for the decodes.
 */
#include "fuzz_common.h"

/* ------------------------------------------------------------------ input reader */

typedef struct gen { const uint8_t *p; size_t n, i; uint32_t nodes; int msgpack; } gen;
static uint32_t g8(gen *g) { return g->i < g->n ? g->p[g->i++] : 0; }
static uint32_t g32(gen *g) { uint32_t v = 0; for (int k = 0; k < 4; k++) v = v << 8 | g8(g); return v; }
static uint64_t g64(gen *g) { uint64_t hi = g32(g); return hi << 32 | g32(g); }

/* ------------------------------------------------------------------ value tree */

typedef struct node {
    uint32_t tag;        /* WP_E_* */
    uint32_t p;          /* payload: ext type, simple value, small tag */
    uint64_t v;          /* numbers, tag values, date seconds */
    uint32_t ns;         /* date nanoseconds */
    uint8_t *bytes;      /* STR/BIN/EXT/RAW */
    uint32_t len;        /* bytes, or children */
    struct node **kids;  /* ARR: len items; MAP: 2*len (key, value); TAG: 1 */
    uint32_t pad_before; /* PAD words before this entry */
} node;

static const char *const utf8_pieces[] = { "a", "Z", "0", " ", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xef\xbf\xbd", "\x7f", "\xc2\x80", "~" };
/* single items in their shortest (deterministic) form */
typedef struct raw_item { const char *s; uint32_t n; } raw_item;
static const raw_item cbor_raw[] = { { "\xf6", 1 }, { "\x00", 1 }, { "\x17", 1 }, { "\x18\x18", 2 }, { "\x61\x61", 2 },
                                     { "\x40", 1 }, { "\x80", 1 }, { "\xa0", 1 }, { "\x39\x01\x00", 3 } };
static const raw_item mp_raw[] = { { "\xc0", 1 }, { "\x00", 1 }, { "\x7f", 1 }, { "\xa1\x61", 2 }, { "\x90", 1 },
                                   { "\x80", 1 }, { "\xc4\x00", 2 } };

static node *gen_node(gen *g, uint32_t depth) {
    node *n = (node *)calloc(1, sizeof *n);
    if (!n) abort();
    g->nodes++;
    uint32_t sel = g8(g);
    n->pad_before = (sel & 0xe0) == 0xe0 ? 1 + (g8(g) & 1) : 0;
    uint32_t kind = sel % 23;
    if (depth >= 8 || g->nodes > 1500 || g->i >= g->n) kind = kind % 9; /* scalars only */
    if (g->msgpack && (kind == 17 || kind == 18 || kind == 19)) kind = 0; /* CBOR only */
    switch (kind) {
    case 0: n->tag = WP_E_NIL; break;
    case 1: n->tag = (sel & 0x10) ? WP_E_TRUE : WP_E_FALSE; break;
    case 2: n->tag = WP_E_UNDEF; break;
    case 3: n->tag = WP_E_INT; n->v = (uint32_t)(int32_t)(int8_t)g8(g); if (sel & 0x10) n->v = g32(g); break;
    case 4: n->tag = WP_E_UINT; n->v = g8(g); if (sel & 0x10) n->v = g32(g); break;
    case 5: { /* F64: random bits or a few values of each float width */
        static const double pick[] = { 0.0, -0.0, 1.0, 0.5, 1.5, 65504.0, 65505.0, 1e-7, 5.960464477539063e-8, 3.4028234663852886e38,
                                       1e300, 0.1, -2.0, 4294967296.0, 1.0 / 3.0, 2.5e-5 };
        uint64_t b = g64(g);
        double d;
        memcpy(&d, &b, 8);
        if (sel & 0x10) d = pick[b & 15];
        if (d != d && (sel & 0x8)) d = __builtin_nan("");
        n->tag = WP_E_F64; memcpy(&n->v, &d, 8);
        break;
    }
    case 6: { /* F32: random bits or one of a few */
        static const float pick[] = { 0.0f, -0.0f, 1.0f, 0.5f, 65504.0f, 1e-7f, 3.0e38f, 0.1f };
        uint32_t b = g32(g);
        if (sel & 0x10) memcpy(&b, &pick[b & 7], 4);
        n->tag = WP_E_F32; n->v = b;
        break;
    }
    case 7: n->tag = WP_E_I64; n->v = g64(g); break;
    case 8: n->tag = WP_E_U64; n->v = (sel & 0x10) ? g8(g) : g64(g); break;
    case 9: case 10: { /* STR: valid UTF-8 */
        n->tag = WP_E_STR;
        uint32_t pieces = g8(g) % 40;
        if (pieces > 30) pieces = 30 + g8(g);
        fz_buf b = { 0 };
        for (uint32_t k = 0; k < pieces; k++) { const char *s = utf8_pieces[g8(g) % 11]; fz_buf_put(&b, s, strlen(s)); }
        n->bytes = b.p; n->len = (uint32_t)b.len;
        break;
    }
    case 11: case 15: { /* BIN / EXT */
        uint32_t len = g8(g);
        if (len > 64) len = (len & 63) == 0 ? 300 : len & 15;
        n->tag = kind == 11 ? WP_E_BIN : WP_E_EXT;
        if (!g->msgpack && kind == 15) n->tag = WP_E_BIN; /* no EXT in CBOR */
        n->p = g8(g);
        if (n->tag == WP_E_EXT && n->p == 0xff) n->p = 0xfe; /* type -1 is the timestamp */
        if (n->tag == WP_E_EXT && n->p == 0 && len == 1) len = 2; /* d4 00 00 is undefined */
        n->bytes = (uint8_t *)malloc(len ? len : 1);
        for (uint32_t k = 0; k < len; k++) n->bytes[k] = (uint8_t)g8(g);
        n->len = len;
        break;
    }
    case 12: case 13: case 14: { /* ARR / MAP */
        n->tag = kind == 12 || kind == 14 ? WP_E_ARR : WP_E_MAP;
        uint32_t cnt = g8(g) % 9;
        if ((sel & 0x30) == 0x30) cnt = g8(g) % 40;
        n->len = cnt;
        uint32_t items = n->tag == WP_E_MAP ? 2 * cnt : cnt;
        n->kids = (node **)calloc(items ? items : 1, sizeof *n->kids);
        for (uint32_t k = 0; k < items; k++) n->kids[k] = gen_node(g, depth + 1);
        break;
    }
    case 16: { /* DATE (msgpack) or a second string kind */
        if (g->msgpack) {
            n->tag = (sel & 0x10) ? WP_E_BADDATE : WP_E_DATE;
            n->v = (sel & 0x8) ? g64(g) : g32(g);
            n->ns = g32(g) % 1000000000u;
            if (g8(g) & 1) n->ns = (n->ns / 1000000u) * 1000000u;
        } else {
            n->tag = WP_E_STR; n->len = 0; n->bytes = 0;
        }
        break;
    }
    case 17: { /* TAG (CBOR) */
        n->tag = WP_E_TAG;
        n->v = (sel & 0x10) ? g64(g) : g8(g);
        /* tags of 2^64 - 3 * 2^16 and up do not decode (RESERVED_TAG: the decoder's marker range) */
        if (n->v >= 0xfffffffffffd0000ull) n->v -= 0x30000u;
        n->len = 1;
        n->kids = (node **)calloc(1, sizeof *n->kids);
        n->kids[0] = gen_node(g, depth + 1);
        break;
    }
    case 18: { /* SIMPLE (CBOR) */
        uint32_t s = g8(g);
        if (s >= 20 && s < 32) s -= 20; /* 20-23 have their own entries, 24-31 do not exist */
        n->tag = WP_E_SIMPLE; n->p = s;
        break;
    }
    case 19: n->tag = WP_E_N64; n->v = g64(g) | 0x8000000000000000ull; break;
    case 20: { /* RAW: one complete item */
        raw_item r = g->msgpack ? mp_raw[g8(g) % 7] : cbor_raw[g8(g) % 9];
        n->tag = WP_E_RAW;
        n->bytes = (uint8_t *)malloc(r.n);
        memcpy(n->bytes, r.s, r.n);
        n->len = r.n;
        break;
    }
    default: n->tag = WP_E_INT; n->v = (uint32_t)-(int32_t)g8(g); break;
    }
    return n;
}

static void free_node(node *n) {
    uint32_t items = n->tag == WP_E_MAP ? 2 * n->len : (n->tag == WP_E_ARR || n->tag == WP_E_TAG) ? n->len : 0;
    for (uint32_t k = 0; k < items; k++) free_node(n->kids[k]);
    free(n->kids);
    free(n->bytes);
    free(n);
}

/* Where emit_to puts strings as KEY entries: their STR entries in area, kw the words referred to. */
typedef struct key_area { fz_etape area; uint32_t kw; } key_area;

/* Write a tree as a tape; reverse: every map's entries in reverse order; with ka, every string
 * (without a length escape) as a KEY entry referring to its STR entry, written into ka's area. */
static void emit_to(fz_etape *t, const node *n, int reverse, key_area *ka) {
    for (uint32_t k = 0; k < n->pad_before; k++) fz_et_tag(t, WP_E_PAD, 0);
    if (ka && n->tag == WP_E_STR && n->len < WP_LEN_ESCAPE && ka->area.len < WP_LEN_ESCAPE) {
        uint32_t at = ka->area.len;
        fz_et_len(&ka->area, WP_E_STR, n->len);
        fz_et_bytes(&ka->area, n->bytes, n->len);
        ka->kw += ka->area.len - at;
        fz_et_tag(t, WP_E_KEY, at);
        return;
    }
    switch (n->tag) {
    case WP_E_NIL: case WP_E_FALSE: case WP_E_TRUE: case WP_E_UNDEF: case WP_E_BADDATE:
        fz_et_tag(t, n->tag, 0); break;
    case WP_E_INT: case WP_E_UINT: case WP_E_F32: fz_et_tag(t, n->tag, 0); fz_et_word(t, (uint32_t)n->v); break;
    case WP_E_F64: { double d; memcpy(&d, &n->v, 8); fz_et_f64(t, d); break; }
    case WP_E_I64: case WP_E_U64: case WP_E_N64: fz_et_64(t, n->tag, n->v); break;
    case WP_E_STR: case WP_E_BIN: case WP_E_RAW: fz_et_len(t, n->tag, n->len); fz_et_bytes(t, n->bytes, n->len); break;
    case WP_E_EXT: fz_et_tag(t, WP_E_EXT, n->p); fz_et_word(t, n->len); fz_et_bytes(t, n->bytes, n->len); break;
    case WP_E_DATE: fz_et_tag(t, WP_E_DATE, 0); fz_et_word(t, (uint32_t)n->v); fz_et_word(t, (uint32_t)(n->v >> 32)); fz_et_word(t, n->ns); break;
    case WP_E_SIMPLE: fz_et_tag(t, WP_E_SIMPLE, n->p); break;
    case WP_E_TAG:
        if (n->v < WP_LEN_ESCAPE) fz_et_tag(t, WP_E_TAG, (uint32_t)n->v);
        else { fz_et_tag(t, WP_E_TAG, WP_LEN_ESCAPE); fz_et_word(t, (uint32_t)n->v); fz_et_word(t, (uint32_t)(n->v >> 32)); }
        emit_to(t, n->kids[0], reverse, ka);
        break;
    case WP_E_ARR:
        fz_et_len(t, WP_E_ARR, n->len);
        for (uint32_t k = 0; k < n->len; k++) emit_to(t, n->kids[k], reverse, ka);
        break;
    case WP_E_MAP:
        fz_et_len(t, WP_E_MAP, n->len);
        for (uint32_t k = 0; k < n->len; k++) {
            uint32_t e = reverse ? n->len - 1 - k : k;
            emit_to(t, n->kids[2 * e], reverse, ka);
            emit_to(t, n->kids[2 * e + 1], reverse, ka);
        }
        break;
    default: FZ_CHECK(0, "generator tag %u", n->tag);
    }
}
static void emit(fz_etape *t, const node *n, int reverse) { emit_to(t, n, reverse, 0); }

/* ------------------------------------------------------------------ encode / decode helpers */

/* Encode (with ka: its area as the encoder's keys, in an exact-size copy) into an exact-size
 * block of cap bytes (UINT32_MAX: wp_encode_out_need), with a scratch of wp_cbor_scratch_need. */
/* The ext_len of the encodes of raw mode (0 in structured mode, whose tapes have no XBIN). */
static uint32_t g_ext_len;

static wp_err enc_keys(int fmt, const uint32_t *w, uint32_t n, const key_area *ka, uint32_t cflags, uint32_t cap,
                       fz_buf *out, uint32_t *needed) {
    wp_encoder e;
    memset(&e, 0, sizeof e);
    e.tape = w;
    e.tape_len = n;
    e.ext_len = g_ext_len;
    uint32_t *keys = 0;
    if (ka && ka->area.len) {
        keys = (uint32_t *)malloc((size_t)ka->area.len * 4);
        memcpy(keys, ka->area.w, (size_t)ka->area.len * 4);
        e.keys = keys;
        e.keys_len = ka->area.len;
        e.keys_words = ka->kw;
    }
    if (cap == UINT32_MAX) cap = wp_encode_out_need(&e);
    uint8_t *p = (uint8_t *)malloc(cap ? cap : 1);
    e.out = p;
    e.out_cap = cap;
    wp_err rc;
    if (fmt == FZ_CBOR) {
        uint32_t sw = wp_cbor_scratch_need(&e);
        FZ_CHECK(ka || g_ext_len || sw == wp_cbor_scratch_words(n));
        uint32_t *scratch = (uint32_t *)malloc((size_t)sw * 4 + 4);
        rc = wp_cbor_encode(&e, cflags, scratch, sw);
        free(scratch);
    } else {
        rc = wp_msgpack_encode(&e);
    }
    free(keys);
    FZ_CHECK(e.err.code == rc);
    FZ_CHECK(e.out_len <= cap, "out_len %u > cap %u", e.out_len, cap);
    if (rc == WP_ERR_BAD_TAPE) FZ_CHECK(e.err.offset < n, "BAD_TAPE at word %u of %u", e.err.offset, n);
    if (needed) *needed = e.needed;
    if (out) { out->len = 0; fz_buf_put(out, p, e.out_len); }
    free(p);
    return rc;
}
static wp_err enc(int fmt, const uint32_t *w, uint32_t n, uint32_t cflags, uint32_t cap, fz_buf *out, uint32_t *needed) {
    return enc_keys(fmt, w, n, 0, cflags, cap, out, needed);
}

/* Decode (exact-size copy), walk with JS-number rebuild; traps unless one value decodes. */
static int dec_rebuild(int fmt, const fz_buf *bytes, uint32_t dflags, fz_buf *canon, fz_etape *et, const char *what) {
    uint8_t *in = (uint8_t *)malloc(bytes->len ? bytes->len : 1);
    if (bytes->len) memcpy(in, bytes->p, bytes->len);
    fz_dec x;
    wp_err rc = fz_decode(&x, fmt, in, (uint32_t)bytes->len, dflags, 0);
    FZ_CHECK(rc == WP_OK, "%s: %s output does not decode: %s at %u", fz_fmt_name(fmt), what, wp_err_name(rc), x.d.err.offset);
    fz_walk wk = { 0 };
    wk.d = &x.d;
    wk.fmt = fmt;
    wk.limit = x.d.tape_len;
    wk.canon = canon;
    wk.et = et;
    wk.f32_as_number = 1;
    canon->len = 0;
    et->len = 0;
    fz_walk_values(&wk, 1, x.eff_depth);
    FZ_CHECK(wk.i == x.d.tape_len);
    fz_dec_free(&x);
    free(in);
    return !wk.skip; /* 0: a date the rebuild cannot express exactly */
}

static void same(const fz_buf *a, const fz_buf *b, const char *what) {
    if (a->len == b->len && memcmp(a->p, b->p, a->len) == 0) return;
    size_t i = 0;
    while (i < a->len && i < b->len && a->p[i] == b->p[i]) i++;
    FZ_CHECK(0, "%s differ (lengths %zu and %zu, first difference at %zu)", what, a->len, b->len, i);
}

/* Does the deterministic output have two equal keys in one map? (Then entry order may differ.) */
static int has_equal_keys(const node *n, int fmt, uint32_t det) {
    uint32_t items = n->tag == WP_E_MAP ? 2 * n->len : (n->tag == WP_E_ARR || n->tag == WP_E_TAG) ? n->len : 0;
    for (uint32_t k = 0; k < items; k++) if (has_equal_keys(n->kids[k], fmt, det)) return 1;
    if (n->tag != WP_E_MAP) return 0;
    fz_buf *keys = (fz_buf *)calloc(n->len ? n->len : 1, sizeof *keys);
    int eq = 0;
    for (uint32_t k = 0; k < n->len && !eq; k++) {
        fz_etape t = { 0 };
        emit(&t, n->kids[2 * k], 0);
        FZ_CHECK(enc(fmt, t.w, t.len, det, wp_encode_out_bound(t.len), &keys[k], 0) == WP_OK);
        free(t.w);
        for (uint32_t j = 0; j < k && !eq; j++) eq = keys[j].len == keys[k].len && memcmp(keys[j].p, keys[k].p, keys[k].len) == 0;
    }
    for (uint32_t k = 0; k < n->len; k++) fz_buf_free(&keys[k]);
    free(keys);
    return eq;
}

/* ------------------------------------------------------------------ modes */

static void raw_mode(uint32_t cfg, const uint8_t *data, size_t size) {
    uint32_t n = (uint32_t)(size / 4);
    g_ext_len = (cfg & 0x7fu) * 512u;
    uint32_t *w = (uint32_t *)malloc(n ? (size_t)n * 4 : 1); /* exact: ASan sees reads past word n */
    if (n) memcpy(w, data, (size_t)n * 4);
    static const uint32_t variants[] = { 0, WP_CBOR_INDEFINITE, WP_CBOR_FLOAT64, WP_CBOR_DETERMINISTIC,
                                         WP_CBOR_DETERMINISTIC | WP_CBOR_FLOAT64 | WP_CBOR_INDEFINITE };
    for (int fmt = 0; fmt < 2; fmt++) {
        for (unsigned v = 0; v < (fmt == FZ_CBOR ? 5u : 1u); v++) {
            uint32_t cf = variants[v], bound = wp_encode_out_bound(n) + g_ext_len, needed = 0;
            wp_err rc = enc(fmt, w, n, cf, bound, 0, 0);
            FZ_CHECK(rc == WP_OK || rc == WP_ERR_BAD_TAPE, "%s encode (flags %x) of a raw tape into the bound: %s",
                     fz_fmt_name(fmt), cf, wp_err_name(rc));
            /* a smaller block: OK, BAD_TAPE or OUTPUT_FULL, and `needed` suffices */
            uint32_t small = (uint32_t)((size ? data[size - 1] : 0) & 0x7f) * bound / 128;
            wp_err r2 = enc(fmt, w, n, cf, small, 0, &needed);
            FZ_CHECK(r2 == WP_OK || r2 == WP_ERR_BAD_TAPE || r2 == WP_ERR_OUTPUT_FULL, "small block: %s", wp_err_name(r2));
            if (r2 == WP_ERR_OUTPUT_FULL) {
                FZ_CHECK(needed > small, "OUTPUT_FULL with needed %u <= cap %u", needed, small);
                wp_err r3 = enc(fmt, w, n, cf, needed, 0, 0);
                FZ_CHECK(r3 == rc, "with `needed` (%u) bytes: %s, with the bound: %s", needed, wp_err_name(r3), wp_err_name(rc));
            }
            if (r2 != WP_ERR_OUTPUT_FULL && rc == WP_OK) FZ_CHECK(r2 == WP_OK);
            if (fmt == FZ_CBOR && (cf & (WP_CBOR_DETERMINISTIC | WP_CBOR_INDEFINITE))) {
                /* a scratch one word short: SCRATCH, nothing written, `needed` the words */
                uint32_t sw = wp_cbor_scratch_words(n) - 1;
                uint32_t *scratch = (uint32_t *)malloc((size_t)sw * 4);
                uint8_t *p = (uint8_t *)malloc(bound);
                wp_encoder e;
                memset(&e, 0, sizeof e);
                e.tape = w; e.tape_len = n; e.out = p; e.out_cap = bound;
                wp_err r4 = wp_cbor_encode(&e, cf, scratch, sw);
                FZ_CHECK(r4 == WP_ERR_SCRATCH && e.out_len == 0 && e.needed == sw + 1, "short scratch: %s", wp_err_name(r4));
                FZ_CHECK(wp_cbor_encode(&e, cf, 0, 0) == WP_ERR_SCRATCH);
                free(scratch);
                free(p);
            }
        }
    }
    free(w);
    g_ext_len = 0;
}

static void structured_mode(uint32_t cfg, const uint8_t *data, size_t size) {
    static const uint32_t plain_flags[4] = { 0, WP_CBOR_INDEFINITE, WP_CBOR_FLOAT64, WP_CBOR_INDEFINITE | WP_CBOR_FLOAT64 };
    uint32_t dflags = ((cfg & 4u) ? WP_DEC_MAPS_AS_OBJECTS : 0) | ((cfg & 8u) ? WP_DEC_TAG_F32 : 0);
    int fmt = (cfg & 16u) ? FZ_MSGPACK : FZ_CBOR;
    gen g = { data, size, 0, 0, fmt == FZ_MSGPACK };
    node *root = gen_node(&g, 0);
    fz_etape ta = { 0 }, tb = { 0 }, t2 = { 0 }, t3 = { 0 }, tk = { 0 };
    emit(&ta, root, 0);
    emit(&tb, root, 1);
    /* the same tape with its strings as KEY entries (the reversed order, for deterministic CBOR) */
    key_area ka = { { 0 }, 0 };
    emit_to(&tk, root, 1, &ka);
    fz_buf o1 = { 0 }, o2 = { 0 }, o3 = { 0 }, c1 = { 0 }, c2 = { 0 };

    if (fmt == FZ_CBOR) {
        /* deterministic: map order does not matter, RFC 8949 4.2.1 form, a fixed point */
        uint32_t det = WP_CBOR_DETERMINISTIC;
        FZ_CHECK(enc(FZ_CBOR, ta.w, ta.len, det, wp_encode_out_bound(ta.len), &o1, 0) == WP_OK, "det encode");
        FZ_CHECK(enc(FZ_CBOR, tb.w, tb.len, det, wp_encode_out_bound(tb.len), &o2, 0) == WP_OK, "det encode (reversed)");
        if (!has_equal_keys(root, FZ_CBOR, det)) same(&o1, &o2, "deterministic encodes of a value with its maps in two orders");
        FZ_CHECK(enc_keys(FZ_CBOR, tk.w, tk.len, &ka, det, UINT32_MAX, &o3, 0) == WP_OK, "det encode (KEY entries)");
        same(&o2, &o3, "deterministic encodes with strings as STR and as KEY entries");
        uint32_t pos = 0;
        fz_cbor_check_det(o1.p, (uint32_t)o1.len, &pos);
        FZ_CHECK(pos == o1.len, "det: %zu bytes after the value", o1.len - pos);
        /* the fixed point holds for what a rebuild can express (not dates, not values the decoder
         * wraps in its markers, such as cbor-x record, packed and bundle tags) */
        if (dec_rebuild(FZ_CBOR, &o1, dflags, &c1, &t2, "deterministic")) {
            FZ_CHECK(enc(FZ_CBOR, t2.w, t2.len, det, wp_encode_out_bound(t2.len), &o2, 0) == WP_OK);
            pos = 0;
            fz_cbor_check_det(o2.p, (uint32_t)o2.len, &pos);
            /* (no value comparison here: the rebuild turns integral floats into integers, which
             * changes the encoded keys and so the order of map entries) */
            if (dec_rebuild(FZ_CBOR, &o2, dflags, &c2, &t3, "deterministic (second)")) {
                FZ_CHECK(enc(FZ_CBOR, t3.w, t3.len, det, wp_encode_out_bound(t3.len), &o3, 0) == WP_OK);
                same(&o2, &o3, "second and third deterministic encodes");
            }
        }
    }

    /* plain (CBOR: bits 0-1 choose INDEFINITE / FLOAT64): value for value, then byte for byte */
    uint32_t cf = fmt == FZ_CBOR ? plain_flags[cfg & 3u] : 0;
    FZ_CHECK(enc(fmt, tb.w, tb.len, cf, wp_encode_out_bound(tb.len), &o1, 0) == WP_OK, "%s encode", fz_fmt_name(fmt));
    FZ_CHECK(enc_keys(fmt, tk.w, tk.len, &ka, cf, UINT32_MAX, &o2, 0) == WP_OK, "%s encode (KEY entries)", fz_fmt_name(fmt));
    same(&o1, &o2, "encodes with strings as STR and as KEY entries");
    FZ_CHECK(enc(fmt, ta.w, ta.len, cf, wp_encode_out_bound(ta.len), &o1, 0) == WP_OK, "%s encode", fz_fmt_name(fmt));
    if (dec_rebuild(fmt, &o1, dflags, &c1, &t2, "first")) {
        FZ_CHECK(enc(fmt, t2.w, t2.len, cf, wp_encode_out_bound(t2.len), &o2, 0) == WP_OK);
        FZ_CHECK(dec_rebuild(fmt, &o2, dflags, &c2, &t3, "second"));
        same(&c1, &c2, "values after round trips");
        FZ_CHECK(enc(fmt, t3.w, t3.len, cf, wp_encode_out_bound(t3.len), &o3, 0) == WP_OK);
        same(&o2, &o3, "second and third encodes");
    }

    free_node(root);
    free(ta.w); free(tb.w); free(t2.w); free(t3.w); free(tk.w); free(ka.area.w);
    fz_buf_free(&o1); fz_buf_free(&o2); fz_buf_free(&o3); fz_buf_free(&c1); fz_buf_free(&c2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > (1u << 20)) return 0;
    fz_tables_tick();
    uint32_t cfg = data[0];
    if (cfg & 0x80u) raw_mode(cfg, data + 1, size - 1);
    else structured_mode(cfg, data + 1, size - 1);
    return 0;
}
