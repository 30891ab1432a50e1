/*
 * test_cbor_roundtrip.c: ~2000 pseudo-random well-formed CBOR items (nested arrays and maps,
 * definite and indefinite, non-shortest heads, tags, integers of every width, floats of every
 * width, ASCII and UTF-8 text, byte strings, simple values) are decoded, the decode tape is
 * converted back to an encode tape, encoded with WP_CBOR_DETERMINISTIC and compared with the
 * canonical encoding the generator computes alongside the wire bytes. Then ~30k single-byte
 * mutations and truncations of those items: the decoder must return WP_OK or a defined error (never
 * TAPE_FULL with buffers from the public bounds), agree with an independent well-formedness
 * checker on the code, offset, value count and end, roll the tables back on failure, and on success
 * give a tape whose deterministic re-encoding is a fixpoint (ASan/UBSan watch every access).
 *
 * Conversion semantics (what a JS host does): INT/I32/U32 -> INT/UINT, U64/I64/N64 -> the same
 * 64-bit entries (the decoder gives those for 8-byte heads only), every float (F64, F32, number-run element) -> an integer entry when it is an
 * integer in [-2^31, 2^32) other than -0, else F64. So the canonical form of an item is its
 * deterministic encoding with those numbers, where array elements that the decoder puts in a
 * number run (a definite array of >= 2 items, each an integer head of at most 4 bytes or a float;
 * float32 not with WP_DEC_TAG_F32) are numbers, not integers.
 */
#include <float.h>
#include <math.h>
#include "test_util.h"

static wp_tables T;
#define O WP_DEC_MAPS_AS_OBJECTS

/* ===================================================================== canonical pieces */

static void c_head(tu_buf *b, uint32_t major, uint64_t v) {
    uint32_t m = major << 5;
    if (v < 24) tu_buf_u8(b, m | (uint32_t)v);
    else if (v <= 0xff) { tu_buf_u8(b, m | 24); tu_buf_be(b, v, 1); }
    else if (v <= 0xffff) { tu_buf_u8(b, m | 25); tu_buf_be(b, v, 2); }
    else if (v <= 0xffffffffu) { tu_buf_u8(b, m | 26); tu_buf_be(b, v, 4); }
    else { tu_buf_u8(b, m | 27); tu_buf_be(b, v, 8); }
}

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
    double m = ldexp(frexp(a, &e), 11);
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
static int f32_exact(double v) { return v != v || isinf(v) || (fabs(v) <= FLT_MAX && (double)(float)v == v); }

/* preferred serialization of a float */
static void c_float(tu_buf *b, double v) {
    uint16_t h;
    if (half_of(v, &h)) { tu_buf_u8(b, 0xf9); tu_buf_be(b, h, 2); return; }
    if (f32_exact(v)) {
        float f = (float)v;
        uint32_t fb;
        memcpy(&fb, &f, 4);
        tu_buf_u8(b, 0xfa); tu_buf_be(b, fb, 4);
        return;
    }
    uint64_t bits;
    memcpy(&bits, &v, 8);
    tu_buf_u8(b, 0xfb); tu_buf_be(b, bits, 8);
}
static int is_int_number(double v) {
    return v == floor(v) && !(v == 0 && signbit(v)) && v >= -2147483648.0 && v < 4294967296.0;
}
/* a JS number as the converter writes it */
static void c_number(tu_buf *b, double v) {
    if (is_int_number(v)) {
        if (v >= 0) c_head(b, 0, (uint64_t)v);
        else c_head(b, 1, (uint64_t)(-1.0 - v));
    } else c_float(b, v);
}

/* a negative integer -1 - n with wire head ai: heads of at most 4 bytes decode to numbers (F64 for
 * -2^32 .. -2^31-1), 8-byte heads to 64-bit entries */
static void c_negative(tu_buf *b, uint64_t n, uint32_t ai) {
    if (ai <= 26 && n >= 0x80000000u) c_number(b, -1.0 - (double)n);
    else c_head(b, 1, n);
}

/* ===================================================================== generator */

typedef struct gen {
    tu_rng r;
    int f32mode;     /* canonical form for WP_DEC_TAG_F32 */
    uint32_t big;    /* large strings left */
} gen;

typedef struct ginfo { int num; double d; } ginfo; /* number-run element on the wire, and its value */

/* A head on the wire: the shortest, or (1 in 4) a wider form that still holds v. Returns ai. */
static uint32_t w_head(gen *g, tu_buf *b, uint32_t major, uint64_t v) {
    uint32_t m = major << 5;
    uint32_t ai;
    if (v < 24) ai = (uint32_t)v;
    else if (v <= 0xff) ai = 24;
    else if (v <= 0xffff) ai = 25;
    else if (v <= 0xffffffffu) ai = 26;
    else ai = 27;
    if (tu_below(&g->r, 4) == 0 && ai < 27) ai = (ai < 24 ? 24 : ai) + tu_below(&g->r, 28 - (ai < 24 ? 24 : ai));
    tu_buf_u8(b, m | ai);
    if (ai >= 24) tu_buf_be(b, v, 1 << (ai - 24));
    return ai;
}

static uint64_t rand_uint(gen *g) {
    static const uint64_t edge[] = { 0, 1, 23, 24, 255, 256, 65535, 65536, 0x7fffff, 0x800000, 0x7fffffff, 0x80000000u,
                                     0xffffffffu, 0x100000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                     UINT64_MAX };
    uint32_t p = tu_below(&g->r, 10);
    if (p < 3) return tu_below(&g->r, 24);
    if (p < 5) return edge[tu_below(&g->r, sizeof edge / sizeof edge[0])];
    if (p < 7) return tu_below(&g->r, 70000);
    return tu_rand(&g->r) >> tu_below(&g->r, 64);
}

static double rand_float(gen *g, uint32_t *width) {
    static const double special[] = { 0.0, -0.0, 1.0, 1.5, 65504.0, 100000.0, 1.1, INFINITY, -INFINITY, NAN,
                                      2147483648.0, -2147483648.0, 4294967296.0, -2147483649.0, 4294967295.0, 0.5,
                                      5.960464477539063e-8, 1e300, -4.1, 3.4028234663852886e+38 };
    uint64_t r = tu_rand(&g->r);
    double d;
    switch (tu_below(&g->r, 7)) {
    case 0: d = half_value((uint16_t)r); break;
    case 1: { uint32_t fb = (uint32_t)r; float f; memcpy(&f, &fb, 4); d = f; break; }
    case 2: memcpy(&d, &r, 8); break;
    case 3: d = special[r % (sizeof special / sizeof special[0])]; break;
    case 4: d = (double)((int32_t)(r % 140001) - 70000); break;
    case 5: d = (double)(int32_t)(uint32_t)r; break;
    default: d = (double)(uint32_t)r / 16.0; break;
    }
    uint16_t h;
    uint32_t minw = half_of(d, &h) ? 16 : f32_exact(d) ? 32 : 64;
    uint32_t w = minw;
    if (tu_below(&g->r, 3) == 0) w = minw == 16 ? 16u << tu_below(&g->r, 3) : minw == 32 ? 32u << tu_below(&g->r, 2) : 64;
    *width = w;
    return d;
}

static void w_float(gen *g, tu_buf *b, double d, uint32_t width) {
    if (width == 16) {
        uint16_t h;
        half_of(d, &h);
        if (d != d) { static const uint16_t nans[] = { 0x7e00, 0x7c01, 0xfe00, 0x7fff }; h = nans[tu_below(&g->r, 4)]; }
        tu_buf_u8(b, 0xf9); tu_buf_be(b, h, 2);
    } else if (width == 32) {
        float f = (float)d;
        uint32_t fb;
        memcpy(&fb, &f, 4);
        if (d != d) { static const uint32_t nans[] = { 0x7fc00000u, 0xffc00001u, 0x7f800001u }; fb = nans[tu_below(&g->r, 3)]; }
        tu_buf_u8(b, 0xfa); tu_buf_be(b, fb, 4);
    } else {
        uint64_t bits;
        memcpy(&bits, &d, 8);
        if (d != d) { static const uint64_t nans[] = { 0x7ff8000000000000ull, 0xfff0000000000001ull }; bits = nans[tu_below(&g->r, 2)]; }
        tu_buf_u8(b, 0xfb); tu_buf_be(b, bits, 8);
    }
}

static uint32_t rand_len(gen *g, int depth) {
    uint32_t p = tu_below(&g->r, 1000);
    if (p < 650) return tu_below(&g->r, 12);
    if (p < 850) return 20 + tu_below(&g->r, 8);   /* around 23/24 */
    if (p < 990) return 250 + tu_below(&g->r, 10); /* around 255/256 */
    if (depth <= 1 && g->big) { g->big--; return 65530 + tu_below(&g->r, 12); }
    return 30 + tu_below(&g->r, 200);
}


/* text (valid UTF-8, whole code points; cuts[] = code point boundaries) or bytes, about `want` bytes */
static void rand_text(gen *g, tu_buf *s, uint32_t want, int ascii_only, uint32_t *cuts, uint32_t *ncuts) {
    *ncuts = 0;
    while (s->len < want) {
        uint32_t p = tu_below(&g->r, 100), cp;
        if (ascii_only || p < 60) cp = tu_below(&g->r, 3) ? 0x20 + tu_below(&g->r, 95) : tu_below(&g->r, 128);
        else if (p < 80) cp = 0x80 + tu_below(&g->r, 0x780);
        else if (p < 95) { do cp = 0x800 + tu_below(&g->r, 0xf800); while (cp >= 0xd800 && cp <= 0xdfff); }
        else cp = 0x10000 + tu_below(&g->r, 0x100000);
        tu_buf_cp(s, cp);
        if (*ncuts < 64) cuts[(*ncuts)++] = s->len;
    }
}

static ginfo gen_item(gen *g, tu_buf *w, tu_buf *c, int depth);

/* a string item: definite or indefinite (chunks), text or bytes */
static void gen_string(gen *g, tu_buf *w, tu_buf *c, int depth, int text, int key) {
    tu_buf s = { 0 };
    uint32_t cuts[64], ncuts = 0;
    uint32_t want = key ? (tu_below(&g->r, 6) ? tu_below(&g->r, 4) : rand_len(g, 9)) : rand_len(g, depth);
    if (text) rand_text(g, &s, want, key && tu_below(&g->r, 2), cuts, &ncuts);
    else for (uint32_t i = 0; i < want; i++) tu_buf_u8(&s, (uint32_t)tu_rand(&g->r));
    uint32_t major = text ? 3 : 2;
    if (tu_below(&g->r, 5) == 0) {
        /* indefinite: chunks at code point boundaries (bytes: anywhere), some empty */
        tu_buf_u8(w, (major << 5) | 31);
        uint32_t at = 0;
        while (at < s.len || tu_below(&g->r, 4) == 0) {
            uint32_t to = at;
            if (at < s.len) {
                if (text) {
                    uint32_t k = tu_below(&g->r, ncuts + 1);
                    to = k < ncuts ? cuts[k] : s.len;
                    if (to < at) to = s.len;
                } else to = at + tu_below(&g->r, s.len - at + 1);
            }
            w_head(g, w, major, to - at);
            if (to > at) tu_buf_bytes(w, s.p + at, to - at);
            at = to;
            if (at >= s.len && tu_below(&g->r, 2)) break;
        }
        tu_buf_u8(w, 0xff);
    } else {
        w_head(g, w, major, s.len);
        tu_buf_bytes(w, s.p, s.len);
    }
    c_head(c, major, s.len);
    tu_buf_bytes(c, s.p, s.len);
    tu_buf_free(&s);
}

typedef struct kv { tu_buf k, v; uint32_t order; } kv;
static int kv_cmp(const void *a, const void *b) {
    const kv *x = (const kv *)a, *y = (const kv *)b;
    uint32_t m = x->k.len < y->k.len ? x->k.len : y->k.len;
    int r = m ? memcmp(x->k.p, y->k.p, m) : 0;
    if (!r) r = x->k.len < y->k.len ? -1 : x->k.len > y->k.len;
    if (!r) r = x->order < y->order ? -1 : 1;
    return r;
}

static ginfo gen_item(gen *g, tu_buf *w, tu_buf *c, int depth) {
    ginfo info = { 0, 0 };
    uint32_t p = tu_below(&g->r, depth >= 5 ? 62 : 100);
    if (p < 12) { /* unsigned */
        uint64_t v = rand_uint(g);
        uint32_t ai = w_head(g, w, 0, v);
        c_head(c, 0, v);
        if (ai <= 26) { info.num = 1; info.d = (double)v; }
        return info;
    }
    if (p < 20) { /* negative */
        uint64_t n = rand_uint(g);
        uint32_t ai = w_head(g, w, 1, n);
        c_negative(c, n, ai);
        if (ai <= 26) { info.num = 1; info.d = -1.0 - (double)n; }
        return info;
    }
    if (p < 30) { /* float */
        uint32_t width;
        double d = rand_float(g, &width);
        w_float(g, w, d, width);
        c_number(c, d);
        if (width != 32 || !g->f32mode) { info.num = 1; info.d = d; }
        return info;
    }
    if (p < 42) { gen_string(g, w, c, depth, 1, 0); return info; }
    if (p < 48) { gen_string(g, w, c, depth, 0, 0); return info; }
    if (p < 54) { /* simple values */
        uint32_t q = tu_below(&g->r, 6);
        uint32_t v = q < 4 ? 20 + q : q == 4 ? tu_below(&g->r, 20) : 32 + tu_below(&g->r, 224);
        if (v < 24) tu_buf_u8(w, 0xe0 | v);
        else { tu_buf_u8(w, 0xf8); tu_buf_u8(w, v); }
        tu_buf_bytes(c, w->p + w->len - (v < 24 ? 1 : 2), v < 24 ? 1 : 2);
        return info;
    }
    if (p < 62) { /* tag */
        static const uint64_t tags[] = { 0, 1, 2, 3, 23, 24, 255, 256, 55799, 65535, 65536, 0xfffffe, 0xffffff,
                                         0x1000000, 0xffffffffu, 0x100000000ull,
                                         0xfffffffffffcffffull /* the largest tag outside the reserved range */ };
        uint64_t tag = tu_below(&g->r, 2) ? tu_below(&g->r, 30) : tags[tu_below(&g->r, sizeof tags / sizeof tags[0])];
        w_head(g, w, 6, tag);
        c_head(c, 6, tag);
        gen_item(g, w, c, depth + 1);
        return info;
    }
    int is_map = p >= 80;
    uint32_t n;
    uint32_t q = tu_below(&g->r, 40);
    if (q == 0) n = 20 + tu_below(&g->r, 8);
    else if (q == 1 && depth <= 1) n = 250 + tu_below(&g->r, 10);
    else n = tu_below(&g->r, 6);
    int indef = tu_below(&g->r, 4) == 0;
    int numbers = !is_map && tu_below(&g->r, 3) == 0; /* arrays of numbers only: number runs */
    if (indef) tu_buf_u8(w, ((is_map ? 5u : 4u) << 5) | 31);
    else w_head(g, w, is_map ? 5 : 4, n);
    c_head(c, is_map ? 5 : 4, n);
    if (!is_map) {
        tu_buf *cw = (tu_buf *)calloc(n ? n : 1, sizeof *cw), *cc = (tu_buf *)calloc(n ? n : 1, sizeof *cc);
        ginfo *ci = (ginfo *)calloc(n ? n : 1, sizeof *ci);
        int all_num = 1;
        for (uint32_t i = 0; i < n; i++) {
            if (numbers) { /* an integer of at most 32 bits or a float */
                uint32_t k = tu_below(&g->r, 3);
                if (k == 0) {
                    uint64_t v = rand_uint(g) & 0xffffffffu;
                    uint32_t ai = w_head(g, &cw[i], 0, v);
                    c_head(&cc[i], 0, v);
                    ci[i].num = ai <= 26; ci[i].d = (double)v;
                } else if (k == 1) {
                    uint64_t v = tu_rand(&g->r) >> (32 + tu_below(&g->r, 32));
                    uint32_t ai = w_head(g, &cw[i], 1, v);
                    c_negative(&cc[i], v, ai);
                    ci[i].num = ai <= 26; ci[i].d = -1.0 - (double)v;
                } else {
                    uint32_t width;
                    double d = rand_float(g, &width);
                    w_float(g, &cw[i], d, width);
                    c_number(&cc[i], d);
                    ci[i].num = width != 32 || !g->f32mode; ci[i].d = d;
                }
            } else {
                ci[i] = gen_item(g, &cw[i], &cc[i], depth + 1);
            }
            if (!ci[i].num) all_num = 0;
        }
        int run = !indef && n >= 2 && all_num;
        for (uint32_t i = 0; i < n; i++) {
            tu_buf_bytes(w, cw[i].p, cw[i].len);
            if (run) c_number(c, ci[i].d);
            else tu_buf_bytes(c, cc[i].p, cc[i].len);
            tu_buf_free(&cw[i]);
            tu_buf_free(&cc[i]);
        }
        free(cw); free(cc); free(ci);
    } else {
        kv *e = (kv *)calloc(n ? n : 1, sizeof *e);
        for (uint32_t i = 0; i < n; i++) {
            tu_buf kw = { 0 };
            uint32_t kind = tu_below(&g->r, 10);
            if (kind < 6) gen_string(g, &kw, &e[i].k, depth + 1, 1, 1);
            else gen_item(g, &kw, &e[i].k, depth + 2);
            tu_buf_bytes(w, kw.p, kw.len);
            tu_buf_free(&kw);
            tu_buf_bytes(&e[i].v, e[i].k.p, e[i].k.len);
            gen_item(g, w, &e[i].v, depth + 1);
            e[i].order = i;
        }
        qsort(e, n, sizeof *e, kv_cmp);
        for (uint32_t i = 0; i < n; i++) {
            tu_buf_bytes(c, e[i].v.p, e[i].v.len);
            tu_buf_free(&e[i].k);
            tu_buf_free(&e[i].v);
        }
        free(e);
    }
    if (indef) tu_buf_u8(w, 0xff);
    return info;
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
    if (at == tag_at + 2 && c->w[tag_at + 1] != 0) return cv_fail(c, "pad word not 0");
    memcpy(v, &c->w[at], 8);
    c->i = at + 2;
    return 1;
}
static void cv_number(conv *c, double v) {
    if (is_int_number(v)) {
        if (v < 0) tu_et_int(c->out, (int32_t)v);
        else tu_et_uint(c->out, (uint32_t)v);
    } else tu_et_f64(c->out, v);
}
static void cv_utf16_to_utf8(conv *c, const uint16_t *u, uint32_t n, tu_buf *s) {
    for (uint32_t k = 0; k < n; k++) {
        uint32_t cp = tu_u16_cp(u, n, &k);
        if (cp == TU_LONE_SURROGATE) {
            cv_fail(c, "lone surrogate in the utf16 area");
            cp = u[k];
        }
        tu_buf_cp(s, cp);
    }
}

static int cv_value(conv *c);
static unsigned long g_tags[64]; /* decode tags seen, printed with TU_STATS=1 */

/* a string entry (KEY / STRA / STRU); -1 when the word is not one */
static int cv_string(conv *c, uint32_t word) {
    uint32_t tag = word & 0xff, len;
    if (tag == WP_T_KEY) {
        uint32_t id = word >> 8;
        if (id >= c->t->nkeys) return cv_fail(c, "KEY id out of range");
        tu_et_blob(c->out, WP_E_STR, c->t->key_pool + c->t->key_off[id], c->t->key_len[id]);
        return 1;
    }
    if (tag == WP_T_STRA) {
        if (!cv_len(c, word, &len)) return 0;
        if (len > c->d->ascii_len - c->ai) return cv_fail(c, "STRA past the ascii area");
        for (uint32_t k = 0; k < len; k++)
            if (c->d->ascii[c->ai + k] & 0x80) return cv_fail(c, "non-ASCII byte in the ascii area");
        tu_et_blob(c->out, WP_E_STR, c->d->ascii + c->ai, len);
        c->ai += len;
        return 1;
    }
    if (tag == WP_T_STRU) {
        if (!cv_len(c, word, &len)) return 0;
        if (len > c->d->utf16_len - c->ui) return cv_fail(c, "STRU past the utf16 area");
        tu_buf s = { 0 };
        cv_utf16_to_utf8(c, c->d->utf16 + c->ui, len, &s);
        tu_et_blob(c->out, WP_E_STR, s.p, s.len);
        tu_buf_free(&s);
        c->ui += len;
        return 1;
    }
    return -1;
}

static int cv_value(conv *c) {
    uint32_t at = c->i, word, v, len, off;
    if (!cv_word(c, &word)) return 0;
    uint32_t tag = word & 0xff;
    double f;
    g_tags[tag & 63]++;
    switch (tag) {
    case WP_T_NIL: tu_et_tag(c->out, WP_E_NIL, 0); return 1;
    case WP_T_FALSE: tu_et_tag(c->out, WP_E_FALSE, 0); return 1;
    case WP_T_TRUE: tu_et_tag(c->out, WP_E_TRUE, 0); return 1;
    case WP_T_UNDEF: tu_et_tag(c->out, WP_E_UNDEF, 0); return 1;
    case WP_T_INT: tu_et_int(c->out, (int32_t)word >> 8); return 1;
    case WP_T_I32: if (!cv_word(c, &v)) return 0; tu_et_int(c->out, (int32_t)v); return 1;
    case WP_T_U32: if (!cv_word(c, &v)) return 0; tu_et_uint(c->out, v); return 1;
    case WP_T_U64: case WP_T_I64: case WP_T_N64: {
        uint32_t lo, hi;
        if (!cv_word(c, &lo) || !cv_word(c, &hi)) return 0;
        uint64_t x = (uint64_t)hi << 32 | lo;
        if (tag == WP_T_N64 && !(x >> 63)) return cv_fail(c, "N64 below 2^63");
        tu_et_64(c->out, tag == WP_T_U64 ? WP_E_U64 : tag == WP_T_I64 ? WP_E_I64 : WP_E_N64, x);
        return 1;
    }
    case WP_T_F64: case WP_T_F32:
        if (!cv_f64(c, at, &f)) return 0;
        if (tag == WP_T_F32 && f == f && (double)(float)f != f) return cv_fail(c, "F32 entry not a float32 value");
        cv_number(c, f);
        return 1;
    case WP_T_STRA: case WP_T_STRU: case WP_T_KEY: return cv_string(c, word);
    case WP_T_BIN:
        if (!cv_word(c, &len) || !cv_word(c, &off)) return 0;
        if (off > c->d->len || len > c->d->len - off) return cv_fail(c, "BIN bytes outside the input");
        tu_et_blob(c->out, WP_E_BIN, c->d->in + off, len);
        return 1;
    case WP_T_BINC: {
        uint32_t chunks;
        if (!cv_len(c, word, &chunks)) return 0;
        tu_buf s = { 0 };
        for (uint32_t k = 0; k < chunks; k++) {
            if (!cv_word(c, &len) || !cv_word(c, &off)) { tu_buf_free(&s); return 0; }
            if (off > c->d->len || len > c->d->len - off) { tu_buf_free(&s); return cv_fail(c, "BINC chunk outside the input"); }
            tu_buf_bytes(&s, c->d->in + off, len);
        }
        tu_et_blob(c->out, WP_E_BIN, s.p, s.len);
        tu_buf_free(&s);
        return 1;
    }
    case WP_T_NUMRUN:
    case WP_T_SCALARRUN: {
        if (!cv_len(c, word, &len)) return 0;
        uint32_t p = (c->i + 1) & ~1u;
        if (p > c->n || len > (c->n - p) / 2) return cv_fail(c, "NUMRUN past the tape");
        if (len < 2) return cv_fail(c, "NUMRUN of fewer than 2 numbers");
        tu_et_len(c->out, WP_E_ARR, len);
        uint32_t specials = 0;
        for (uint32_t k = 0; k < len; k++) {
            uint32_t lo = c->w[p + 2 * k], hi = c->w[p + 2 * k + 1];
            if (tag == WP_T_SCALARRUN && hi == WP_RUN_NAN_HI && lo != 0) {
                specials++;
                if (!tu_et_run_special(c->out, lo, 1)) return cv_fail(c, "SCALARRUN special out of range");
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
    case WP_T_TAG: {
        uint64_t tg = word >> 8;
        if (tg == WP_LEN_ESCAPE) {
            uint32_t lo, hi;
            if (!cv_word(c, &lo) || !cv_word(c, &hi)) return 0;
            tg = (uint64_t)hi << 32 | lo;
            if (tg < WP_LEN_ESCAPE) return cv_fail(c, "escaped tag below 0xffffff");
            tu_et_tag(c->out, WP_E_TAG, WP_LEN_ESCAPE); tu_et_word(c->out, lo); tu_et_word(c->out, hi);
        } else tu_et_tag(c->out, WP_E_TAG, (uint32_t)tg);
        if (++c->depth > 3000) return cv_fail(c, "too deep");
        if (!cv_value(c)) return 0;
        c->depth--;
        return 1;
    }
    case WP_T_SIMPLE: {
        uint32_t sv = word >> 8;
        if (sv > 255 || (sv >= 20 && sv < 32)) return cv_fail(c, "SIMPLE value out of range");
        tu_et_tag(c->out, WP_E_SIMPLE, sv);
        return 1;
    }
    case WP_T_PAD:
        if (c->i >= c->n || (c->w[c->i] & 0xff) != WP_T_SHAPED) return cv_fail(c, "PAD not before SHAPED");
        return cv_value(c);
    case WP_T_ARR: case WP_T_MAP: case WP_T_OBJ: {
        if (!cv_len(c, word, &len)) return 0;
        if (++c->depth > 3000) return cv_fail(c, "too deep");
        tu_et_len(c->out, tag == WP_T_ARR ? WP_E_ARR : WP_E_MAP, len);
        for (uint32_t k = 0; k < len; k++) {
            if (tag == WP_T_OBJ) {
                /* OBJ keys: strings, or what a host coerces to a property name (numbers, booleans,
                 * null, undefined) */
                if (c->i >= c->n) return cv_fail(c, "tape ends early");
                uint32_t kt = c->w[c->i] & 0xff;
                if (kt == WP_T_KEY || kt == WP_T_STRA || kt == WP_T_STRU) {
                    uint32_t kw = c->w[c->i++];
                    if (cv_string(c, kw) != 1) return 0;
                } else {
                    switch (kt) {
                    case WP_T_INT: case WP_T_I32: case WP_T_U32: case WP_T_U64: case WP_T_I64: case WP_T_N64:
                    case WP_T_F64: case WP_T_F32: case WP_T_FALSE: case WP_T_TRUE: case WP_T_NIL: case WP_T_UNDEF:
                        if (!cv_value(c)) return 0;
                        break;
                    default:
                        return cv_fail(c, "OBJ key is neither a string nor a coercible scalar");
                    }
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
        if (++c->depth > 3000) return cv_fail(c, "too deep");
        tu_et_len(c->out, WP_E_MAP, n);
        for (uint32_t k = 0; k < n; k++) {
            uint32_t kw;
            if (!cv_word(c, &kw)) return 0;
            if (kw != (WP_T_KEY | ids[k] << 8)) return cv_fail(c, "SHAPED key word differs from the shape");
            cv_string(c, kw);
            if (!cv_value(c)) return 0;
        }
        c->depth--;
        return 1;
    }
    default:
        return cv_fail(c, "unknown decode tag");
    }
}

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

/* decode -> convert -> encode (deterministic unless enc_flags says otherwise). Returns the decode
 * code; *conv_ok = 0 when the tape did not convert or encode. */
static uint32_t g_enc_flags = WP_CBOR_DETERMINISTIC;
static wp_err reencode(const uint8_t *in, uint32_t len, uint32_t flags, tu_buf *out, int *conv_ok, tu_dec *keep) {
    tu_dec x;
    wp_err rc = tu_cbor_decode(&x, &T, in, len, flags);
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
            wp_err erc = tu_cbor_encode(&et, g_enc_flags, out, &e);
            if (erc != WP_OK) { *conv_ok = 0; CHECK_ERR(erc, WP_OK); }
        }
        tu_et_free(&et);
    }
    if (keep) *keep = x;
    else tu_dec_free(&x);
    return rc;
}

/* ===================================================================== reference checker */

/* Well-formedness as RFC 8949 defines it, with this decoder's error order and offsets: the first
 * problem in input order; TRUNCATED names the cut item (or, between items, the innermost open
 * container / tag / indefinite string); definite counts above 2^32-1 (maps 2^31-1) are TRUNCATED
 * at their head; nesting beyond min(1000, len + 1) is DEPTH. */
typedef struct rv { const uint8_t *p; uint32_t len, md; wp_err err; uint32_t off; } rv;

static int rv_fail(rv *v, wp_err e, uint32_t off) { v->err = e; v->off = off; return 0; }
static int rv_head(rv *v, uint32_t pos, uint32_t *major, uint64_t *arg, uint32_t *hl, int *indef) {
    uint32_t ib = v->p[pos], ai = ib & 31;
    *major = ib >> 5;
    *indef = 0;
    *hl = 1;
    *arg = ai;
    if (ai < 24) return 1;
    if (ai == 31) { *indef = 1; *arg = 0; return 1; }
    if (ai > 27) return rv_fail(v, WP_ERR_RESERVED_AI, pos);
    uint32_t nb = 1u << (ai - 24);
    if (v->len - pos < 1 + nb) return rv_fail(v, WP_ERR_TRUNCATED, pos);
    *arg = 0;
    for (uint32_t k = 0; k < nb; k++) *arg = *arg << 8 | v->p[pos + 1 + k];
    *hl = 1 + nb;
    return 1;
}
static int rv_item(rv *v, uint32_t *pos, uint32_t depth, uint32_t open) {
    if (*pos >= v->len) return rv_fail(v, WP_ERR_TRUNCATED, open);
    uint32_t start = *pos, major, hl;
    uint64_t arg;
    int indef;
    if (v->p[start] == 0xff) return rv_fail(v, WP_ERR_BREAK, start);
    if (!rv_head(v, start, &major, &arg, &hl, &indef)) return 0;
    uint64_t left = v->len - start - hl;
    uint32_t q = start + hl;
    switch (major) {
    case 0: case 1:
        if (indef) return rv_fail(v, WP_ERR_RESERVED_AI, start);
        *pos = q;
        return 1;
    case 2: case 3:
        if (!indef) {
            if (arg > left) return rv_fail(v, WP_ERR_TRUNCATED, start);
            *pos = q + (uint32_t)arg;
            return 1;
        }
        for (;;) {
            if (q >= v->len) return rv_fail(v, WP_ERR_TRUNCATED, start);
            if (v->p[q] == 0xff) { *pos = q + 1; return 1; }
            uint32_t cm, chl;
            uint64_t carg;
            int cind;
            if (!rv_head(v, q, &cm, &carg, &chl, &cind)) return 0;
            if (cm != major || cind) return rv_fail(v, WP_ERR_BAD_CHUNK, q);
            if (carg > (uint64_t)(v->len - q - chl)) return rv_fail(v, WP_ERR_TRUNCATED, q);
            q += chl + (uint32_t)carg;
        }
    case 4: case 5: {
        if (!indef && arg > (major == 5 ? 0x7fffffffu : 0xffffffffu)) return rv_fail(v, WP_ERR_TRUNCATED, start);
        if (depth >= v->md) return rv_fail(v, WP_ERR_DEPTH, start);
        if (indef) {
            uint32_t count = 0;
            for (;;) {
                if (q >= v->len) return rv_fail(v, WP_ERR_TRUNCATED, start);
                if (v->p[q] == 0xff) {
                    if (major == 5 && (count & 1)) return rv_fail(v, WP_ERR_BREAK, q);
                    *pos = q + 1;
                    return 1;
                }
                if (!rv_item(v, &q, depth + 1, start)) return 0;
                count++;
            }
        }
        uint64_t items = major == 5 ? 2 * arg : arg;
        for (uint64_t k = 0; k < items; k++)
            if (!rv_item(v, &q, depth + 1, start)) return 0;
        *pos = q;
        return 1;
    }
    case 6:
        if (indef) return rv_fail(v, WP_ERR_RESERVED_AI, start);
        if (arg >= 0xfffffffffffd0000ull) return rv_fail(v, WP_ERR_RESERVED_TAG, start); /* wirepack's marker range */
        if (depth >= v->md) return rv_fail(v, WP_ERR_DEPTH, start);
        if (!rv_item(v, &q, depth + 1, start)) return 0;
        *pos = q;
        return 1;
    default:
        if ((v->p[start] & 31) == 24 && arg < 32) return rv_fail(v, WP_ERR_BAD_SIMPLE, start);
        *pos = q;
        return 1;
    }
}
static wp_err rv_run(const uint8_t *p, uint32_t len, int multiple, uint32_t *off, uint32_t *nvalues, uint32_t *end) {
    rv v = { p, len, len + 1 < WP_DEFAULT_MAX_DEPTH ? len + 1 : WP_DEFAULT_MAX_DEPTH, WP_OK, 0 };
    *nvalues = 0;
    *end = 0;
    *off = 0;
    if (len == 0) return WP_ERR_TRUNCATED;
    uint32_t pos = 0;
    for (;;) {
        if (!rv_item(&v, &pos, 0, pos)) { *off = v.off; return v.err; }
        (*nvalues)++;
        *end = pos;
        if (pos == len) return WP_OK;
        if (!multiple) { *off = pos; return WP_ERR_TRAILING_DATA; }
    }
}

/* ===================================================================== tests */

typedef struct msg { uint8_t *p; uint32_t len; } msg;
static msg *g_msgs;
static uint32_t g_nmsgs;

static const uint32_t rt_flags[] = { 0, O, O | WP_DEC_NO_INTERN, O | WP_DEC_TAG_F32 };

static unsigned long g_rt_items, g_rt_bytes;

static void test_roundtrip(void) {
    g_msgs = (msg *)calloc(2100, sizeof *g_msgs);
    gen g0 = { { 20240601 }, 0, 6 };
    wp_tables_reset(&T);
    for (uint32_t item = 0; item < 2000; item++) {
        if (item % 250 == 0) wp_tables_reset(&T); /* run with fresh and with full tables */
        tu_case("roundtrip item %u", item);
        /* the same random choices twice: canonical forms without and with WP_DEC_TAG_F32 */
        gen g1 = g0, g2 = g0;
        g2.f32mode = 1;
        tu_buf w1 = { 0 }, c1 = { 0 }, w2 = { 0 }, c2 = { 0 };
        gen_item(&g1, &w1, &c1, 0);
        gen_item(&g2, &w2, &c2, 0);
        g0 = g1;
        CHECK(w1.len == w2.len && memcmp(w1.p, w2.p, w1.len) == 0, "generator is not deterministic");
        g_rt_items++;
        g_rt_bytes += w1.len;
        for (size_t fi = 0; fi < sizeof rt_flags / sizeof rt_flags[0]; fi++) {
            uint32_t flags = rt_flags[fi];
            const tu_buf *canon = (flags & WP_DEC_TAG_F32) ? &c2 : &c1;
            tu_buf out = { 0 };
            int conv_ok;
            tu_dec x;
            wp_err rc = reencode(w1.p, w1.len, flags, &out, &conv_ok, &x);
            if (!CHECK(rc == WP_OK, "flags %u: %s@%u", flags, wp_err_name(rc), x.d.err.offset)) {
                fprintf(stderr, "  input: "); tu_fprint_hex(stderr, w1.p, w1.len, 200); fputc('\n', stderr);
            } else {
                CHECK_EQ_U(x.d.end, w1.len);
                CHECK(x.d.tape_len <= wp_cbor_tape_words(w1.len) && x.d.ascii_len <= w1.len && x.d.utf16_len <= w1.len);
                if (conv_ok && !CHECK_BYTES(out.p, out.len, canon->p, canon->len)) {
                    if (getenv("TU_DUMP")) {
                        char fn[64];
                        snprintf(fn, sizeof fn, "/tmp/cbor_rt_%u.bin", item);
                        FILE *f = fopen(fn, "wb");
                        if (f) { fwrite(w1.p, 1, w1.len, f); fclose(f); }
                    }
                    fprintf(stderr, "  flags %u input: ", flags); tu_fprint_hex(stderr, w1.p, w1.len, 200); fputc('\n', stderr);
                }
            }
            tu_dec_free(&x);
            tu_buf_free(&out);
        }
        /* through WP_CBOR_INDEFINITE and back: the same canonical form */
        {
            tu_buf ind = { 0 }, out = { 0 };
            int ok1, ok2;
            g_enc_flags = WP_CBOR_INDEFINITE;
            wp_err rc = reencode(w1.p, w1.len, O, &ind, &ok1, NULL);
            g_enc_flags = WP_CBOR_DETERMINISTIC;
            if (rc == WP_OK && ok1) {
                wp_err rc2 = reencode(ind.p, ind.len, O, &out, &ok2, NULL);
                CHECK(rc2 == WP_OK, "indefinite re-encoding does not decode: %s", wp_err_name(rc2));
                if (rc2 == WP_OK && ok2) CHECK_BYTES(out.p, out.len, c1.p, c1.len);
            }
            tu_buf_free(&ind);
            tu_buf_free(&out);
        }
        g_msgs[g_nmsgs].p = w1.p;
        g_msgs[g_nmsgs].len = w1.len;
        g_nmsgs++;
        tu_buf_free(&c1);
        tu_buf_free(&w2);
        tu_buf_free(&c2);
        tu_end();
    }

    /* WP_DEC_MULTIPLE: sequences of 1..6 items -> the concatenated canonical forms */
    for (uint32_t s = 0; s < 100; s++) {
        tu_case("WP_DEC_MULTIPLE sequence %u", s);
        tu_buf w = { 0 }, c = { 0 };
        uint32_t k = 1 + tu_below(&g0.r, 6);
        for (uint32_t i = 0; i < k; i++) gen_item(&g0, &w, &c, 1);
        tu_buf out = { 0 };
        int conv_ok;
        tu_dec x;
        wp_err rc = reencode(w.p, w.len, O | WP_DEC_MULTIPLE, &out, &conv_ok, &x);
        CHECK_ERR(rc, WP_OK);
        CHECK_EQ_U(x.d.nvalues, k);
        if (rc == WP_OK && conv_ok) CHECK_BYTES(out.p, out.len, c.p, c.len);
        /* single mode: TRAILING_DATA right after the first item */
        if (k > 1) {
            tu_dec y;
            uint32_t off, nv, end;
            wp_err want = rv_run(w.p, w.len, 0, &off, &nv, &end);
            CHECK_ERR(tu_cbor_decode(&y, &T, w.p, w.len, O), want);
            CHECK_EQ_U(y.d.err.offset, off);
            tu_dec_free(&y);
        }
        tu_dec_free(&x);
        tu_buf_free(&out);
        tu_buf_free(&w);
        tu_buf_free(&c);
        tu_end();
    }
}

static int defined_error(wp_err e) {
    switch (e) {
    case WP_ERR_TRUNCATED: case WP_ERR_TRAILING_DATA: case WP_ERR_RESERVED_AI: case WP_ERR_BREAK:
    case WP_ERR_BAD_CHUNK: case WP_ERR_BAD_SIMPLE: case WP_ERR_RESERVED_TAG: case WP_ERR_DEPTH:
        return 1;
    default:
        return 0;
    }
}

static unsigned long g_mut_total, g_mut_ok, g_codes[8];

/* Decode one mutated input; compare with the reference checker; on success re-encode twice. */
static int check_mutant(const uint8_t *p, uint32_t len, uint32_t flags, const char *what) {
    uint32_t keys = T.nkeys, shapes = T.nshapes, kpool = T.key_pool_used, spool = T.shape_pool_used;
    tu_buf out = { 0 };
    int conv_ok;
    tu_dec x;
    wp_err rc = reencode(p, len, flags, &out, &conv_ok, &x);
    g_mut_total++;
    uint32_t off, nv, end;
    wp_err want = rv_run(p, len, (flags & WP_DEC_MULTIPLE) != 0, &off, &nv, &end);
    int ok = 1;
    ok &= CHECK(rc == WP_OK || defined_error(rc), "%s: undefined result %s", what, wp_err_name(rc));
    ok &= CHECK(rc != WP_ERR_TAPE_FULL, "%s: TAPE_FULL with buffers from the bounds", what);
    ok &= CHECK(rc == want && (rc == WP_OK || x.d.err.offset == off) && x.d.nvalues == nv && x.d.end == end,
                "%s flags %u: got %s@%u (values %u, end %u), checker says %s@%u (values %u, end %u)", what, flags,
                wp_err_name(rc), x.d.err.offset, x.d.nvalues, x.d.end, wp_err_name(want), off, nv, end);
    ok &= CHECK(x.d.tape_len <= x.d.tape_cap && x.d.ascii_len <= len && x.d.utf16_len <= len, "%s: lengths", what);
    if (rc == WP_OK) {
        g_mut_ok++;
        if (conv_ok) {
            /* the re-encoding decodes, and re-encoding settles after one more pass (a second pass
             * may still turn an array into a number run: an 8-byte head of a small integer becomes
             * a short one) */
            tu_buf again = { 0 }, third = { 0 };
            int ok2, ok3;
            wp_err rc2 = reencode(out.p, out.len, flags, &again, &ok2, NULL);
            ok &= CHECK(rc2 == WP_OK && ok2, "%s: re-encoding does not decode: %s", what, wp_err_name(rc2));
            if (rc2 == WP_OK && ok2) {
                wp_err rc3 = reencode(again.p, again.len, flags, &third, &ok3, NULL);
                ok &= CHECK(rc3 == WP_OK && ok3, "%s: second re-encoding does not decode: %s", what, wp_err_name(rc3));
                if (rc3 == WP_OK && ok3) ok &= CHECK_BYTES(third.p, third.len, again.p, again.len);
            }
            tu_buf_free(&again);
            tu_buf_free(&third);
        } else ok = 0;
    } else {
        g_codes[rc == WP_ERR_TRUNCATED ? 0 : rc == WP_ERR_TRAILING_DATA ? 1 : rc == WP_ERR_RESERVED_AI ? 2 :
                rc == WP_ERR_BREAK ? 3 : rc == WP_ERR_BAD_CHUNK ? 4 : rc == WP_ERR_BAD_SIMPLE ? 5 : 6]++;
        if (rc != WP_ERR_TRAILING_DATA && x.d.nvalues == 0)
            ok &= CHECK(T.nkeys == keys && T.nshapes == shapes && T.key_pool_used == kpool && T.shape_pool_used == spool,
                        "%s: tables not rolled back", what);
    }
    if (!ok) { fprintf(stderr, "  input: "); tu_fprint_hex(stderr, p, len, 120); fputc('\n', stderr); }
    tu_dec_free(&x);
    tu_buf_free(&out);
    return ok;
}

static void test_mutations(void) {
    static const uint8_t interesting[] = { 0x00, 0x17, 0x18, 0x1a, 0x1b, 0x1c, 0x1f, 0x3b, 0x3f, 0x40, 0x5b, 0x5f,
                                           0x60, 0x7b, 0x7f, 0x80, 0x81, 0x9b, 0x9f, 0xa0, 0xa1, 0xbb, 0xbf, 0xc0,
                                           0xc1, 0xdb, 0xdf, 0xf4, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xff };
    tu_rng r = { 99 };
    wp_tables_reset(&T);
    for (uint32_t m = 0; m < g_nmsgs; m++) {
        const msg *src = &g_msgs[m];
        tu_case("mutations of item %u (%u bytes)", m, src->len);
        uint32_t nmut = src->len > 4096 ? 3 : 13, ntrunc = 2;
        uint8_t *buf = (uint8_t *)malloc(src->len);
        char what[64];
        for (uint32_t k = 0; k < nmut + ntrunc; k++) {
            uint32_t flags = rt_flags[tu_below(&r, 4)] | (tu_below(&r, 5) == 0 ? WP_DEC_MULTIPLE : 0);
            memcpy(buf, src->p, src->len);
            uint32_t len = src->len;
            if (k < nmut) {
                uint32_t pos = tu_below(&r, src->len);
                uint32_t how = tu_below(&r, 3);
                uint8_t val = how == 0 ? (uint8_t)tu_rand(&r)
                            : how == 1 ? interesting[tu_below(&r, sizeof interesting)]
                                       : (uint8_t)(buf[pos] ^ (1u << tu_below(&r, 8)));
                snprintf(what, sizeof what, "byte %u: %02x -> %02x", pos, buf[pos], val);
                buf[pos] = val;
            } else {
                len = tu_below(&r, src->len);
                snprintf(what, sizeof what, "cut at %u", len);
            }
            if (!check_mutant(buf, len, flags, what)) break;
        }
        free(buf);
        tu_end();
        if (m % 250 == 249) wp_tables_reset(&T);
    }
}

int main(void) {
    test_roundtrip();
    test_mutations();
    if (getenv("TU_STATS"))
        fprintf(stderr, "items %lu (%lu bytes); mutants %lu, ok %lu; TRUNC %lu TRAIL %lu AI %lu BREAK %lu CHUNK %lu "
                "SIMPLE %lu DEPTH %lu\n", g_rt_items, g_rt_bytes, g_mut_total, g_mut_ok, g_codes[0], g_codes[1],
                g_codes[2], g_codes[3], g_codes[4], g_codes[5], g_codes[6]);
    if (getenv("TU_STATS")) {
        for (int i = 0; i <= WP_T_SCALARRUN; i++) fprintf(stderr, "tag %d: %lu%s", i, g_tags[i], i % 6 == 5 ? "\n" : "; ");
        fputc('\n', stderr);
    }
    for (uint32_t i = 0; i < g_nmsgs; i++) free(g_msgs[i].p);
    free(g_msgs);
    return tu_finish();
}
