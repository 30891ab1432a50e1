/*
 * tc_internal.h: private helpers of the transcode module (csrc/transcode/): output buffer,
 * explicit frame stack, UTF-8 checks, number conversions. Same rules as the core: no
 * allocation, no recursion, every error an enum plus a byte offset.
 */
#ifndef TC_INTERNAL_H
#define TC_INTERNAL_H

#include "../wp_internal.h"

/* ------------------------------------------------------------------ numbers (tc_num.c) */

/* Shortest round-trip digits of finite non-zero v (sign ignored); *point = decimal exponent n
 * of ECMAScript Number::toString. Returns the digit count (<= 17). */
uint32_t tc_shortest(double v, char *dig, int *point);
uint32_t tc_u64_dec(uint64_t v, char *out);
uint32_t tc_i64_dec(int64_t v, char *out);
/* The double nearest w 10^q (w: first 19 significant digits; many: more digits followed). */
double tc_decimal_to_f64(uint64_t w, int q, bool neg, bool many, const char *s, uint32_t n);
uint64_t tc_f64_guess(uint64_t w, int q);
double tc_dec_fallback(const char *s, uint32_t n);

/* memcmp(a, b, n) == 0 (the wasm build has no libc) */
WP_INLINE bool tc_memeq(const uint8_t *a, const uint8_t *b, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) if (a[i] != b[i]) return false;
    return true;
}

/* ------------------------------------------------------------------ output */

typedef struct tc_out {
    uint8_t *p;
    uint32_t len, cap;
    bool full;      /* set once a write did not fit (the call then fails with OUTPUT_FULL) */
    uint32_t keep;  /* with a sink: bytes before keep are finished and may be flushed
                       (TC_KEEP_ALL: every byte written so far; binary output) */
    uint64_t flushed; /* bytes given to the sink so far */
    uint8_t *(*flush)(void *user, uint8_t *out, uint32_t n, uint32_t need, uint32_t *cap);
    void *user;
} tc_out;

#define TC_KEEP_ALL 0xFFFFFFFFu
bool tc_room_slow(tc_out *o, uint32_t n);
WP_INLINE bool tc_room(tc_out *o, uint32_t n) {
    if (wp_likely(n <= o->cap - o->len)) return true;
    return tc_room_slow(o, n);
}
/* tc_room for a size computed in 64 bits (6 * length + 2 and the like, which would wrap around
 * in 32 for inputs of 700 MB and up, and pass a check they fail): beyond 32 bits it never fits. */
WP_INLINE bool tc_room64(tc_out *o, uint64_t n) {
    if (wp_unlikely(n > 0xFFFFFFF0u)) { o->full = true; return false; }
    return tc_room(o, (uint32_t)n);
}
WP_INLINE void tc_put(tc_out *o, uint32_t b) { o->p[o->len++] = (uint8_t)b; }
WP_INLINE void tc_puts(tc_out *o, const void *s, uint32_t n) { __builtin_memcpy(o->p + o->len, s, n); o->len += n; }

/* ------------------------------------------------------------------ half floats */

WP_INLINE double tc_half_to_f64(uint32_t h) {
    uint32_t e = (h >> 10) & 0x1F, m = h & 0x3FF;
    double v;
    if (e == 0) v = (double)m * (1.0 / 16777216.0);
    else if (e == 31) v = m ? __builtin_nan("") : __builtin_inf();
    else {
        uint64_t bits = ((uint64_t)(e - 15 + 1023) << 52) | ((uint64_t)m << 42);
        v = wp_f64_from_bits(bits);
    }
    return (h & 0x8000) ? -v : v;
}

/* ------------------------------------------------------------------ UTF-8 */

/* Length of the valid UTF-8 sequence at s[0..n) starting with a non-ASCII byte, or 0 when it
 * is not valid (WHATWG: then one U+FFFD replaces the maximal subpart, *skip bytes long). */
WP_INLINE uint32_t tc_utf8_seq(const uint8_t *s, uint32_t n, uint32_t *skip) {
    uint32_t b = s[0], need, lo = 0x80, hi = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) need = 1;
    else if (b >= 0xE0 && b <= 0xEF) { need = 2; if (b == 0xE0) lo = 0xA0; if (b == 0xED) hi = 0x9F; }
    else if (b >= 0xF0 && b <= 0xF4) { need = 3; if (b == 0xF0) lo = 0x90; if (b == 0xF4) hi = 0x8F; }
    else { *skip = 1; return 0; }
    uint32_t j = 1;
    for (uint32_t k = 0; k < need; k++, j++) {
        if (j >= n || s[j] < lo || s[j] > hi) { *skip = j; return 0; }
        lo = 0x80; hi = 0xBF;
    }
    return j;
}

/* Offset of the first invalid UTF-8 byte in s[0..n), or n when all valid. */
uint32_t tc_utf8_check(const uint8_t *s, uint32_t n);

/* ------------------------------------------------------------------ frames */

/* One open container on a converter's explicit stack (6 words). */
typedef struct tc_frame {
    uint32_t rem;   /* items left (maps: 2 per entry); 0xFFFFFFFF: indefinite (CBOR) or JSON */
    uint32_t done;  /* items written */
    uint32_t kind;  /* TC_ARR / TC_MAP, | TC_INDEF */
    /* maps -> JSON: the key checks (JSON.stringify order) */
    uint32_t kbase; /* first word of this map's key table in the scratch area */
    uint32_t kcap;  /* its slots (0: no table) */
    uint32_t last;  /* last integer-like key + 1 (0: none yet) */
    uint32_t skipped; /* members left out (undefined values) */
    uint32_t ktop;  /* key-table stack top when the map opened */
    uint32_t seen_lo, seen_hi; /* linear tables: one bit per key hash (hash & 63) seen so far */
} tc_frame;
#define TC_FRAME_WORDS 10u
enum { TC_ARR = 1u, TC_MAP = 2u, TC_INDEF = 4u, TC_TAG = 8u, TC_NONIDX = 16u, TC_HASHED = 32u };

/* ------------------------------------------------------------------ converters */

typedef struct tc_job {
    const uint8_t *in;
    uint32_t len, pos;
    tc_out o;
    tc_frame *st;
    uint32_t st_cap;      /* frames */
    uint32_t *fix;        /* JSON/indefinite -> binary: header fixups (2 words each) */
    uint32_t fix_cap, nfix;
    uint32_t big;         /* bytes the long heads of the fixups will add */
    /* JSON -> binary through a sink: the entries of every non-empty container, in the order they
     * open (written by a counting pass of tc_json_skip, read by tc_json_to_bin): heads are then
     * written exact, without fixups, and all output is final as soon as it is written */
    uint32_t *cnt;
    uint32_t cnt_cap, ncnt;
    uint32_t max_depth, indent, flags;
    uint32_t nvalues;
    wp_err err;
    uint32_t err_off;
} tc_job;

/* A converter's whole loop for one pair of formats, kept a function of its own in wasm (build.sh
 * runs wasm-opt with -ocimfs so that it does not inline such functions back into their one
 * caller): V8 compiles each wasm function on its first call, with memory that grows with the
 * function's locals times its branches, so a first JSON -> MessagePack transcode compiles that
 * converter alone, not every converter of tcw_transcode (first call 14.2 -> 3.0 ms and 596 -> 107
 * page faults in Node 20 on this VM; the converters run once per value, and the C alone measured
 * the same). */
#define TC_OWN_FUNCTION __attribute__((noinline))

/* 1 when one value was converted (job->pos after it), 0 on error (job->err). */
int tc_bin_to_json(tc_job *j, int from_cbor);
int tc_bin_to_diag(tc_job *j, int from_cbor); /* WP_TC_DIAG: diagnostic notation (tc_diag.c) */
int tc_json_to_bin(tc_job *j, int to_cbor);
int tc_json_to_bin_counted(tc_job *j, int to_cbor); /* the same, counting first (a sink's output) */
int tc_bin_to_bin(tc_job *j, int from_cbor);
/* Skip one value without output (validate, find); checks UTF-8 when check_utf8. */
int tc_bin_skip(tc_job *j, int cbor, int check_utf8);
int tc_json_skip(tc_job *j);

WP_INLINE int tc_fail(tc_job *j, wp_err e, uint32_t off) {
    if (j->err == WP_OK) { j->err = e; j->err_off = off; }
    return 0;
}

/* The items a definite container's frame counts down (a map's entries twice), saturating: a
 * MessagePack map32 of 2^31 entries or more wrapped to 0 in 32 bits and read as empty (df 80 00
 * 00 00 validated, converted to {}). No input below 4 GB holds that many items, so the input
 * runs out first, as for any other count too large for it. */
WP_INLINE uint32_t tc_items(bool map, uint64_t n) {
    const uint64_t k = map ? 2 * n : n;
    return k > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)k;
}

/* The frame of a tag's item (the tag at `at`): one item, a level deeper, as the decoders count
 * nesting, so a chain of tags meets max_depth as it does there. */
WP_INLINE int tc_open_tag(tc_job *j, uint32_t *depth, uint32_t at) {
    if (*depth >= j->max_depth || *depth >= j->st_cap) return tc_fail(j, WP_ERR_DEPTH, at);
    tc_frame *f = &j->st[(*depth)++];
    f->kind = TC_TAG;
    f->rem = 1;
    f->done = 0;
    return 1;
}

/* ------------------------------------------------------------------ text writers */

static const char tc_hex[] = "0123456789abcdef"; /* (JSON \u00XX, diagnostic h'..' and \uXXXX) */

/* newline and indentation before an item at depth d */
WP_INLINE bool tc_indent(tc_job *j, uint32_t d) {
    const uint64_t n64 = 1 + (uint64_t)d * j->indent;
    if (!tc_room64(&j->o, n64)) return false;
    const uint32_t n = (uint32_t)n64; /* (it fits: the room is there) */
    tc_out *o = &j->o;
    o->p[o->len] = '\n';
    __builtin_memset(o->p + o->len + 1, ' ', n - 1);
    o->len += n;
    return true;
}

/* ------------------------------------------------------------------ binary writers */
/* Room for the largest head (9 bytes) must have been checked. */

WP_INLINE void tc_w_head(tc_out *o, int cbor, uint32_t mt, uint64_t v) {
    /* CBOR head of major type mt with argument v, shortest form */
    uint32_t ib = mt << 5;
    (void)cbor;
    if (v < 24) tc_put(o, ib | (uint32_t)v);
    else if (v < 0x100) { tc_put(o, ib | 24); tc_put(o, (uint32_t)v); }
    else if (v < 0x10000) { tc_put(o, ib | 25); wp_put_be16(o->p + o->len, (uint32_t)v); o->len += 2; }
    else if (v < 0x100000000ull) { tc_put(o, ib | 26); wp_put_be32(o->p + o->len, (uint32_t)v); o->len += 4; }
    else { tc_put(o, ib | 27); wp_put_be64(o->p + o->len, v); o->len += 8; }
}

/* unsigned integer below 2^32 (smallest form) */
WP_INLINE void tc_w_u32(tc_out *o, int cbor, uint32_t v) {
    if (cbor) { tc_w_head(o, 1, 0, v); return; }
    if (v < 0x80) tc_put(o, v);
    else if (v < 0x100) { tc_put(o, 0xcc); tc_put(o, v); }
    else if (v < 0x10000) { tc_put(o, 0xcd); wp_put_be16(o->p + o->len, v); o->len += 2; }
    else { tc_put(o, 0xce); wp_put_be32(o->p + o->len, v); o->len += 4; }
}

/* negative integer -m, 1 <= m <= 2^31 (smallest form) */
WP_INLINE void tc_w_neg32(tc_out *o, int cbor, uint32_t m) {
    if (cbor) { tc_w_head(o, 1, 1, m - 1); return; }
    int32_t v = (int32_t)(0u - m);
    if (v >= -32) tc_put(o, (uint32_t)v & 0xff);
    else if (v >= -128) { tc_put(o, 0xd0); tc_put(o, (uint32_t)v & 0xff); }
    else if (v >= -32768) { tc_put(o, 0xd1); wp_put_be16(o->p + o->len, (uint32_t)v & 0xffff); o->len += 2; }
    else { tc_put(o, 0xd2); wp_put_be32(o->p + o->len, (uint32_t)v); o->len += 4; }
}

/* float16 bits of d when d converts exactly (NaN: 7e00) */
WP_INLINE bool tc_f16_exact(double d, uint32_t *h) {
    if (d != d) { *h = 0x7e00; return true; }
    uint64_t b = wp_bits_from_f64(d);
    uint32_t sign = (uint32_t)(b >> 48) & 0x8000;
    int e = (int)((b >> 52) & 0x7ff);
    uint64_t m = b & ((1ull << 52) - 1);
    if (e == 0x7ff) { *h = sign | 0x7c00; return true; }
    if (e == 0 && m == 0) { *h = sign; return true; }
    int ue = e - 1023;
    if (ue >= -14 && ue <= 15) {
        if (m & ((1ull << 42) - 1)) return false;
        *h = sign | ((uint32_t)(ue + 15) << 10) | (uint32_t)(m >> 42);
        return true;
    }
    if (ue < -14 && ue >= -24) {
        /* subnormal half: value = mh 2^-24 */
        uint64_t full = m | (1ull << 52);
        int shift = 52 - (ue + 24);
        if (full & ((1ull << shift) - 1)) return false;
        *h = sign | (uint32_t)(full >> shift);
        return true;
    }
    return false;
}

/* a double: MessagePack float64; CBOR the shortest float that keeps the value */
WP_INLINE void tc_w_f64(tc_out *o, int cbor, double d) {
    if (cbor) {
        uint32_t h;
        if (tc_f16_exact(d, &h)) { tc_put(o, 0xf9); wp_put_be16(o->p + o->len, h); o->len += 2; return; }
        float f = (float)d;
        if ((double)f == d) {
            uint32_t fb; __builtin_memcpy(&fb, &f, 4);
            tc_put(o, 0xfa); wp_put_be32(o->p + o->len, fb); o->len += 4; return;
        }
        tc_put(o, 0xfb);
    } else tc_put(o, 0xcb);
    wp_put_be64(o->p + o->len, wp_bits_from_f64(d));
    o->len += 8;
}

/* a JavaScript number as wirepack's encoders write it: integers in [-2^31, 2^32) as integers */
WP_INLINE void tc_w_number(tc_out *o, int cbor, double d) {
    /* (-0: 0 in MessagePack, as pack and msgpackr write it; a float in CBOR, as encode does) */
    if (d >= 0 && d < 4294967296.0 && d == (double)(uint32_t)d && !(cbor && d == 0 && __builtin_signbit(d))) tc_w_u32(o, cbor, (uint32_t)d);
    else if (d < 0 && d >= -2147483648.0 && d == (double)(int32_t)d) tc_w_neg32(o, cbor, 0u - (uint32_t)(int32_t)d);
    else tc_w_f64(o, cbor, d);
}

WP_INLINE void tc_w_str_head(tc_out *o, int cbor, uint32_t n) {
    if (cbor) { tc_w_head(o, 1, 3, n); return; }
    if (n < 32) tc_put(o, 0xa0 | n);
    else if (n < 0x100) { tc_put(o, 0xd9); tc_put(o, n); }
    else if (n < 0x10000) { tc_put(o, 0xda); wp_put_be16(o->p + o->len, n); o->len += 2; }
    else { tc_put(o, 0xdb); wp_put_be32(o->p + o->len, n); o->len += 4; }
}

/* array / map heads of n items (map: n pairs) */
WP_INLINE uint32_t tc_coll_head_size(int cbor, uint32_t n) {
    if (cbor) return n < 24 ? 1 : n < 0x100 ? 2 : n < 0x10000 ? 3 : 5;
    return n < 16 ? 1 : n < 0x10000 ? 3 : 5;
}
WP_INLINE void tc_w_coll_head(uint8_t *p, int cbor, bool map, uint32_t n) {
    if (cbor) {
        uint32_t ib = map ? 0xa0 : 0x80;
        if (n < 24) p[0] = (uint8_t)(ib | n);
        else if (n < 0x100) { p[0] = (uint8_t)(ib | 24); p[1] = (uint8_t)n; }
        else if (n < 0x10000) { p[0] = (uint8_t)(ib | 25); wp_put_be16(p + 1, n); }
        else { p[0] = (uint8_t)(ib | 26); wp_put_be32(p + 1, n); }
        return;
    }
    if (n < 16) p[0] = (uint8_t)((map ? 0x80 : 0x90) | n);
    else if (n < 0x10000) { p[0] = map ? 0xde : 0xdc; wp_put_be16(p + 1, n); }
    else { p[0] = map ? 0xdf : 0xdd; wp_put_be32(p + 1, n); }
}

/* Containers whose size is only known at their end (JSON, CBOR indefinite) get a 1-byte head
 * and a fixup; tc_compact_buf makes room for the longer heads at the end of the value. */
#define TC_FIX_DONE 0xFFFFFFFFu
uint32_t tc_compact_buf(uint8_t *p, uint32_t from, uint32_t len, const uint32_t *fix, uint32_t nfix, int cbor);

/* Kinds of a value read from the input (binary formats). */
typedef struct tc_val {
    uint32_t kind;    /* K_* */
    uint64_t u;       /* ints: magnitude (NINT: value is -1 - u for CBOR, -u for MP) ; lengths */
    double d;
    const uint8_t *s; /* strings */
    uint32_t start;   /* offset of the value's first byte */
    int32_t x;        /* MessagePack extension type */
} tc_val;
enum { K_NIL, K_FALSE, K_TRUE, K_UNDEF, K_UINT, K_NEG, K_INT64, K_F64, K_STR, K_STR_CHUNKS,
       K_ARR, K_MAP, K_ARR_INDEF, K_MAP_INDEF, K_BREAK, K_NONJSON,
       K_BIN, K_BIN_CHUNKS, K_EXT, K_TAG, K_SIMPLE };

/* The property name JavaScript gives a map key that is not a string (tc_json_out.c): String()
 * of what decode() returns; 0 for kinds that have none. buf: 32 bytes. */
uint32_t tc_scalar_name(const tc_val *v, char *buf);

/* CBOR argument after the initial byte; returns 0 on error, sets *indef for ai 31. */
WP_INLINE int tc_cb_arg(tc_job *j, uint32_t ai, uint32_t start, uint64_t *arg, bool *indef) {
    const uint8_t *in = j->in;
    uint32_t pos = j->pos, left = j->len - pos;
    *indef = false;
    if (ai < 24) { *arg = ai; return 1; }
    switch (ai) {
    case 24: if (left < 1) break; *arg = in[pos]; j->pos = pos + 1; return 1;
    case 25: if (left < 2) break; *arg = wp_be16(in + pos); j->pos = pos + 2; return 1;
    case 26: if (left < 4) break; *arg = wp_be32(in + pos); j->pos = pos + 4; return 1;
    case 27: if (left < 8) break; *arg = wp_be64(in + pos); j->pos = pos + 8; return 1;
    case 31: *indef = true; *arg = 0; return 1;
    default: return tc_fail(j, WP_ERR_RESERVED_AI, start);
    }
    return tc_fail(j, WP_ERR_TRUNCATED, start);
}


/* Read one MessagePack head. Returns 0 on error. */
WP_INLINE int tc_mp_read(tc_job *j, tc_val *v) {
    const uint8_t *in = j->in;
    uint32_t pos = j->pos, len = j->len;
    v->start = pos;
    if (pos >= len) return tc_fail(j, WP_ERR_TRUNCATED, pos);
    uint32_t b = in[pos++];
    uint32_t need = 0, n = 0;
    if (b < 0x80) { v->kind = K_UINT; v->u = b; j->pos = pos; return 1; }
    if (b >= 0xe0) { v->kind = K_NEG; v->u = 0x100 - b; j->pos = pos; return 1; }
    if (b >= 0xa0 && b <= 0xbf) { n = b & 31; goto str; }
    if (b >= 0x90 && b <= 0x9f) { v->kind = K_ARR; v->u = b & 15; j->pos = pos; return 1; }
    if (b >= 0x80 && b <= 0x8f) { v->kind = K_MAP; v->u = b & 15; j->pos = pos; return 1; }
    switch (b) {
    case 0xc0: v->kind = K_NIL; break;
    case 0xc2: v->kind = K_FALSE; break;
    case 0xc3: v->kind = K_TRUE; break;
    case 0xc1: return tc_fail(j, WP_ERR_RESERVED_BYTE, pos - 1);
    case 0xcc: need = 1; if (len - pos < need) goto trunc; v->kind = K_UINT; v->u = in[pos]; break;
    case 0xcd: need = 2; if (len - pos < need) goto trunc; v->kind = K_UINT; v->u = wp_be16(in + pos); break;
    case 0xce: need = 4; if (len - pos < need) goto trunc; v->kind = K_UINT; v->u = wp_be32(in + pos); break;
    case 0xcf: need = 8; if (len - pos < need) goto trunc; v->kind = K_INT64; v->u = wp_be64(in + pos); v->d = 0; break;
    case 0xd0: need = 1; if (len - pos < need) goto trunc; { int64_t x = (int8_t)in[pos]; v->kind = x < 0 ? K_NEG : K_UINT; v->u = x < 0 ? (uint64_t)-x : (uint64_t)x; } break;
    case 0xd1: need = 2; if (len - pos < need) goto trunc; { int64_t x = (int16_t)wp_be16(in + pos); v->kind = x < 0 ? K_NEG : K_UINT; v->u = x < 0 ? (uint64_t)-x : (uint64_t)x; } break;
    case 0xd2: need = 4; if (len - pos < need) goto trunc; { int64_t x = (int32_t)wp_be32(in + pos); v->kind = x < 0 ? K_NEG : K_UINT; v->u = x < 0 ? (uint64_t)-x : (uint64_t)x; } break;
    case 0xd3: need = 8; if (len - pos < need) goto trunc; v->kind = K_INT64; v->u = wp_be64(in + pos); v->d = 1; break;
    case 0xca: need = 4; if (len - pos < need) goto trunc; v->kind = K_F64; v->d = (double)wp_f32_from_bits(wp_be32(in + pos)); break;
    case 0xcb: need = 8; if (len - pos < need) goto trunc; v->kind = K_F64; v->d = wp_f64_from_bits(wp_be64(in + pos)); break;
    case 0xd9: if (len - pos < 1) goto trunc; n = in[pos]; pos += 1; goto str;
    case 0xda: if (len - pos < 2) goto trunc; n = wp_be16(in + pos); pos += 2; goto str;
    case 0xdb: if (len - pos < 4) goto trunc; n = wp_be32(in + pos); pos += 4; goto str;
    case 0xdc: need = 2; if (len - pos < need) goto trunc; v->kind = K_ARR; v->u = wp_be16(in + pos); break;
    case 0xdd: need = 4; if (len - pos < need) goto trunc; v->kind = K_ARR; v->u = wp_be32(in + pos); break;
    case 0xde: need = 2; if (len - pos < need) goto trunc; v->kind = K_MAP; v->u = wp_be16(in + pos); break;
    case 0xdf: need = 4; if (len - pos < need) goto trunc; v->kind = K_MAP; v->u = wp_be32(in + pos); break;
    case 0xc4: case 0xc5: case 0xc6: {
        uint32_t h = b == 0xc4 ? 1 : b == 0xc5 ? 2 : 4;
        if (len - pos < h) goto trunc;
        n = h == 1 ? in[pos] : h == 2 ? wp_be16(in + pos) : wp_be32(in + pos);
        if (len - pos - h < n) goto trunc;
        need = h + n;
        v->kind = K_BIN; v->s = in + pos + h; v->u = n;
        break;
    }
    case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8: {
        n = 1u << (b - 0xd4);
        if (len - pos < 1 + n) goto trunc;
        need = 1 + n;
        /* extension type 0 of any size decodes to undefined (msgpackr's rule, as decode()) */
        v->kind = in[pos] == 0 ? K_UNDEF : K_EXT;
        v->x = (int8_t)in[pos]; v->s = in + pos + 1; v->u = n;
        break;
    }
    case 0xc7: case 0xc8: case 0xc9: {
        uint32_t h = b == 0xc7 ? 1 : b == 0xc8 ? 2 : 4;
        if (len - pos < h + 1) goto trunc;
        n = h == 1 ? in[pos] : h == 2 ? wp_be16(in + pos) : wp_be32(in + pos);
        if (len - pos - h - 1 < n) goto trunc;
        need = h + 1 + n;
        v->kind = in[pos + h] == 0 ? K_UNDEF : K_EXT; v->x = (int8_t)in[pos + h]; v->s = in + pos + h + 1; v->u = n;
        break;
    }
    default: return tc_fail(j, WP_ERR_RESERVED_BYTE, pos - 1);
    }
    j->pos = pos + need;
    return 1;
str:
    if (len - pos < n) goto trunc;
    v->kind = K_STR;
    v->s = in + pos;
    v->u = n;
    j->pos = pos + n;
    return 1;
trunc:
    return tc_fail(j, WP_ERR_TRUNCATED, v->start);
}

/* Read one CBOR head. Tags and bytes are K_NONJSON (their extent is not skipped: the caller
 * fails on them). Indefinite text: K_STR_CHUNKS with the position of the first chunk. */
WP_INLINE int tc_cb_read(tc_job *j, tc_val *v) {
    uint32_t start = j->pos;
    v->start = start;
    if (start >= j->len) return tc_fail(j, WP_ERR_TRUNCATED, start);
    uint32_t b = j->in[j->pos++];
    uint32_t mt = b >> 5, ai = b & 31;
    uint64_t arg;
    bool indef;
    if (mt == 7) {
        switch (ai) {
        case 20: v->kind = K_FALSE; return 1;
        case 21: v->kind = K_TRUE; return 1;
        case 22: v->kind = K_NIL; return 1;
        case 23: v->kind = K_UNDEF; return 1;
        case 25: if (j->len - j->pos < 2) break; v->kind = K_F64; v->d = tc_half_to_f64(wp_be16(j->in + j->pos)); j->pos += 2; return 1;
        case 26: if (j->len - j->pos < 4) break; v->kind = K_F64; v->d = (double)wp_f32_from_bits(wp_be32(j->in + j->pos)); j->pos += 4; return 1;
        case 27: if (j->len - j->pos < 8) break; v->kind = K_F64; v->d = wp_f64_from_bits(wp_be64(j->in + j->pos)); j->pos += 8; return 1;
        case 31: v->kind = K_BREAK; return 1;
        case 24:
            if (j->len - j->pos < 1) break;
            if (j->in[j->pos] < 32) return tc_fail(j, WP_ERR_BAD_SIMPLE, start);
            v->u = j->in[j->pos++];
            v->kind = K_SIMPLE; return 1;
        case 28: case 29: case 30: return tc_fail(j, WP_ERR_RESERVED_AI, start);
        default: v->kind = K_SIMPLE; v->u = ai; return 1;
        }
        return tc_fail(j, WP_ERR_TRUNCATED, start);
    }
    if (!tc_cb_arg(j, ai, start, &arg, &indef)) return 0;
    if (indef && (mt < 2 || mt == 6)) return tc_fail(j, WP_ERR_RESERVED_AI, start);
    switch (mt) {
    case 0:
        /* 8-byte heads: K_INT64 (a 64-bit form in MessagePack; exact digits in JSON) */
        v->kind = ai == 27 ? K_INT64 : K_UINT; v->u = arg; v->d = 0; return 1;
    case 1:
        /* -1 - arg */
        if (ai == 27) { v->kind = K_INT64; v->u = arg; v->d = 2; return 1; }
        v->kind = K_NEG; v->u = arg + 1; return 1;
    case 2:
        if (indef) { v->kind = K_BIN_CHUNKS; return 1; }
        if (arg > j->len - j->pos) return tc_fail(j, WP_ERR_TRUNCATED, start);
        v->kind = K_BIN; v->s = j->in + j->pos; v->u = arg; j->pos += (uint32_t)arg; return 1;
    case 3:
        if (indef) { v->kind = K_STR_CHUNKS; return 1; }
        if (arg > j->len - j->pos) return tc_fail(j, WP_ERR_TRUNCATED, start);
        v->kind = K_STR; v->s = j->in + j->pos; v->u = arg; j->pos += (uint32_t)arg; return 1;
    case 4:
        v->kind = indef ? K_ARR_INDEF : K_ARR; v->u = arg;
        if (!indef && arg > j->len - j->pos) return tc_fail(j, WP_ERR_TRUNCATED, start);
        return 1;
    case 5:
        v->kind = indef ? K_MAP_INDEF : K_MAP; v->u = arg;
        if (!indef && arg > (j->len - j->pos) / 2) return tc_fail(j, WP_ERR_TRUNCATED, start);
        return 1;
    default: /* 6: tag (the tagged item follows) */
        v->kind = K_TAG; v->u = arg; return 1;
    }
}


#endif
