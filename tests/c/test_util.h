/*
 * test_util.h: tiny shared helpers for the native C unit tests (header only, no framework).
 *
 * A test binary groups its checks into cases (tu_case / tu_end). A case passes when none of its
 * checks failed. tu_finish() prints the closing line "N passed, M failed" and returns the exit
 * status. Failing checks print file:line, the case name and a message to stderr.
 *
 * Also here: hex parsing, a decode harness that sizes every buffer from the public bounds and
 * copies the input into an exact-size heap block (so ASan sees any over-read), an encode-tape
 * builder, a byte-buffer builder and a fork-isolated runner for cases that may crash.
 */
#ifndef WP_TEST_UTIL_H
#define WP_TEST_UTIL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wirepack.h"
#include "wp_internal.h"

/* ------------------------------------------------------------------ cases and checks */

static unsigned tu_passed, tu_failed, tu_case_fails, tu_in_case;
static char tu_case_name[160];

static inline void tu_case(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tu_case_name, sizeof tu_case_name, fmt, ap);
    va_end(ap);
    tu_case_fails = 0;
    tu_in_case = 1;
}

static inline void tu_end(void) {
    if (!tu_in_case) return;
    if (tu_case_fails) tu_failed++;
    else tu_passed++;
    tu_in_case = 0;
}

static inline int tu_check(int ok, const char *file, int line, const char *expr, const char *fmt, ...) {
    if (ok) return 1;
    tu_case_fails++;
    if (!tu_in_case) { tu_failed++; }
    fprintf(stderr, "FAIL %s:%d [%s] %s", file, line, tu_in_case ? tu_case_name : "-", expr);
    if (fmt && *fmt) {
        va_list ap;
        va_start(ap, fmt);
        fputs(": ", stderr);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
    }
    fputc('\n', stderr);
    return 0;
}

/* CHECK(cond) or CHECK(cond, "fmt", args...); evaluates to 1 when cond holds. */
#define CHECK(cond, ...) tu_check(!!(cond), __FILE__, __LINE__, #cond, "" __VA_ARGS__)
#define CHECK_EQ_U(a, b) do { unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
    tu_check(a_ == b_, __FILE__, __LINE__, #a " == " #b, "got %llu (0x%llx), want %llu (0x%llx)", a_, a_, b_, b_); } while (0)
#define CHECK_EQ_I(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); \
    tu_check(a_ == b_, __FILE__, __LINE__, #a " == " #b, "got %lld, want %lld", a_, b_); } while (0)
#define CHECK_ERR(got, want) do { wp_err g_ = (got), w_ = (want); \
    tu_check(g_ == w_, __FILE__, __LINE__, #got " == " #want, "got %s (%d), want %s (%d)", \
             wp_err_name(g_), (int)g_, wp_err_name(w_), (int)w_); } while (0)

static inline int tu_finish(void) {
    tu_end();
    printf("%u passed, %u failed\n", tu_passed, tu_failed);
    return tu_failed ? 1 : 0;
}

/* ------------------------------------------------------------------ byte buffers and hex */

typedef struct tu_buf {
    uint8_t *p;
    uint32_t len, cap;
} tu_buf;

static inline void tu_buf_reserve(tu_buf *b, uint32_t extra) {
    if (b->len + extra <= b->cap) return;
    uint32_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra) cap *= 2;
    b->p = (uint8_t *)realloc(b->p, cap);
    if (!b->p) { perror("realloc"); exit(2); }
    b->cap = cap;
}
static inline void tu_buf_u8(tu_buf *b, uint32_t v) { tu_buf_reserve(b, 1); b->p[b->len++] = (uint8_t)v; }
static inline void tu_buf_bytes(tu_buf *b, const void *s, uint32_t n) {
    tu_buf_reserve(b, n);
    if (n) memcpy(b->p + b->len, s, n);
    b->len += n;
}
static inline void tu_buf_be(tu_buf *b, uint64_t v, int nbytes) {
    for (int i = nbytes - 1; i >= 0; i--) tu_buf_u8(b, (uint32_t)(v >> (8 * i)));
}
static inline void tu_buf_free(tu_buf *b) { free(b->p); b->p = 0; b->len = b->cap = 0; }

static inline int tu_hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Append the bytes of a hex string (spaces ignored) to b. */
static inline void tu_buf_hex(tu_buf *b, const char *hex) {
    int hi = -1;
    for (const char *s = hex; *s; s++) {
        int v = tu_hexval((unsigned char)*s);
        if (v < 0) {
            if (*s != ' ' && *s != '\n' && *s != '_') { fprintf(stderr, "bad hex: %s\n", hex); exit(2); }
            continue;
        }
        if (hi < 0) hi = v;
        else { tu_buf_u8(b, (uint32_t)(hi << 4 | v)); hi = -1; }
    }
    if (hi >= 0) { fprintf(stderr, "odd hex: %s\n", hex); exit(2); }
}

static inline void tu_fprint_hex(FILE *f, const uint8_t *p, uint32_t n, uint32_t max) {
    for (uint32_t i = 0; i < n && i < max; i++) fprintf(f, "%02x", p[i]);
    if (n > max) fprintf(f, "...(%u bytes)", n);
}

/* Check that got[0..gn) equals want[0..wn), printing both (and the first difference) if not. */
#define CHECK_BYTES(got, gn, want, wn) tu_check_bytes(__FILE__, __LINE__, (got), (gn), (want), (wn))
static inline int tu_check_bytes(const char *file, int line, const uint8_t *got, uint32_t gn,
                          const uint8_t *want, uint32_t wn) {
    uint32_t i = 0;
    while (i < gn && i < wn && got[i] == want[i]) i++;
    if (i == gn && i == wn) return 1;
    tu_check(0, file, line, "bytes equal", "lengths got %u want %u, first difference at %u", gn, wn, i);
    uint32_t from = i > 8 ? i - 8 : 0;
    fprintf(stderr, "  got  [%u..]: ", from);
    tu_fprint_hex(stderr, got + (from < gn ? from : gn), gn > from ? gn - from : 0, 40);
    fprintf(stderr, "\n  want [%u..]: ", from);
    tu_fprint_hex(stderr, want + (from < wn ? from : wn), wn > from ? wn - from : 0, 40);
    fputc('\n', stderr);
    return 0;
}

/* ------------------------------------------------------------------ decode harness */

/* Holes for the next tu_decode_fn calls (wirepack.h, wp_decoder.holes; NULL, 0: none). */
static const uint32_t *tu_holes;
static uint32_t tu_nholes;

typedef struct tu_dec {
    wp_decoder d;
    uint8_t *in;        /* exact-size copy of the input */
    uint64_t *tape64;   /* 8-byte aligned tape storage */
    wp_err rc;
} tu_dec;

/* Decode in[0..len) with fn (wp_msgpack_decode or wp_cbor_decode) and buffers sized by the public
 * bounds, with a string limit (0: none) and a record table (or NULL). Free with tu_dec_free. */
static inline wp_err tu_decode_fn(tu_dec *x, wp_tables *t, wp_err (*fn)(wp_decoder *, wp_tables *), const uint8_t *in,
                                  uint32_t len, uint32_t flags, uint32_t max_depth, uint32_t max_str, uint32_t *recs) {
    memset(x, 0, sizeof *x);
    x->in = (uint8_t *)malloc(len + WP_DEC_SLACK ? len + WP_DEC_SLACK : 1); /* (the decoders' slack: wirepack.h) */
    if (len) memcpy(x->in, in, len);
#if WP_DEC_SLACK > 0 /* (gcc warns of a memset of length 0 in the build without slack) */
    memset(x->in + len, 0xa5, WP_DEC_SLACK); /* (slack bytes that are not zeros: masked off, never read as data) */
#endif
    uint32_t tw = fn == wp_cbor_decode || (flags & WP_DEC_MP_RAW_STRINGS) ? wp_cbor_tape_words(len) : wp_decode_tape_words(len);
    x->tape64 = (uint64_t *)malloc(((size_t)tw + 1) / 2 * 8);
    uint32_t sw = wp_decode_stack_words(max_depth, len);
    wp_decoder *d = &x->d;
    d->in = x->in;
    d->len = len;
    d->flags = flags;
    d->max_depth = max_depth;
    d->max_str = max_str;
    d->records = recs;
    d->holes = tu_holes;
    d->nholes = tu_nholes;
    d->tape = (uint32_t *)(void *)x->tape64;
    d->tape_cap = tw;
    d->ascii = (uint8_t *)malloc(len + WP_DEC_SLACK ? len + WP_DEC_SLACK : 1);
    d->ascii_cap = len;
    d->utf16 = (uint16_t *)malloc(len ? 2u * len : 2);
    d->utf16_cap = len;
    d->stack = (uint32_t *)malloc((size_t)sw * 4);
    d->stack_cap = sw;
    if (!x->in || !x->tape64 || !d->ascii || !d->utf16 || !d->stack) { perror("malloc"); exit(2); }
    x->rc = fn(d, t);
    return x->rc;
}

/* Decode MessagePack in[0..len) with buffers sized by the public bounds. Free with tu_dec_free. */
static inline wp_err tu_decode_ex(tu_dec *x, wp_tables *t, const uint8_t *in, uint32_t len, uint32_t flags,
                           uint32_t max_depth) {
    return tu_decode_fn(x, t, wp_msgpack_decode, in, len, flags, max_depth, 0, NULL);
}

static inline wp_err tu_decode(tu_dec *x, wp_tables *t, const uint8_t *in, uint32_t len, uint32_t flags) {
    return tu_decode_ex(x, t, in, len, flags, 0);
}

static inline void tu_dec_free(tu_dec *x) {
    free(x->in);
    free(x->tape64);
    free(x->d.ascii);
    free(x->d.utf16);
    free(x->d.stack);
    memset(x, 0, sizeof *x);
}

/* The f64 of a tape entry whose tag word is at index i (at the next aligned word pair). */
static inline double tu_tape_f64_at(const uint32_t *w, uint32_t i) {
    uint32_t at = (i + 2) & ~1u;
    double v;
    memcpy(&v, &w[at], 8);
    return v;
}
static inline uint32_t tu_tag(uint32_t word) { return word & 0xffu; }
static inline uint32_t tu_pay(uint32_t word) { return word >> 8; }
static inline int32_t tu_spay(uint32_t word) { return (int32_t)word >> 8; } /* signed 24-bit payload */

static inline int tu_same_f64(double a, double b) {
    if (a != a && b != b) return 1;
    uint64_t x, y;
    memcpy(&x, &a, 8);
    memcpy(&y, &b, 8);
    return x == y;
}

/* ------------------------------------------------------------------ encode tape builder */

typedef struct tu_etape {
    uint32_t *w;
    uint32_t len, cap;
} tu_etape;

static inline void tu_et_word(tu_etape *t, uint32_t v) {
    if (t->len == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 64;
        t->w = (uint32_t *)realloc(t->w, (size_t)t->cap * 4);
        if (!t->w) { perror("realloc"); exit(2); }
    }
    t->w[t->len++] = v;
}
static inline void tu_et_tag(tu_etape *t, uint32_t tag, uint32_t payload) { tu_et_word(t, tag | (payload << 8)); }
/* A tag with a length payload, escaping lengths >= WP_LEN_ESCAPE into the next word. */
static inline void tu_et_len(tu_etape *t, uint32_t tag, uint32_t n) {
    if (n < WP_LEN_ESCAPE) tu_et_tag(t, tag, n);
    else { tu_et_tag(t, tag, WP_LEN_ESCAPE); tu_et_word(t, n); }
}
static inline void tu_et_bytes(tu_etape *t, const void *s, uint32_t n) {
    uint32_t words = (n + 3) / 4;
    uint32_t at = t->len;
    for (uint32_t i = 0; i < words; i++) tu_et_word(t, 0);
    if (n) memcpy(&t->w[at], s, n);
}
/* A special of a SCALARRUN (its NaN's low word, WP_RUN_*) as its own encode-tape entry; 0 when
 * lo names none (undefined only where undef_ok: CBOR). */
static inline int tu_et_run_special(tu_etape *t, uint32_t lo, int undef_ok) {
    if (lo == WP_RUN_NULL) tu_et_tag(t, WP_E_NIL, 0);
    else if (lo == WP_RUN_FALSE) tu_et_tag(t, WP_E_FALSE, 0);
    else if (lo == WP_RUN_TRUE) tu_et_tag(t, WP_E_TRUE, 0);
    else if (lo == WP_RUN_UNDEF && undef_ok) tu_et_tag(t, WP_E_UNDEF, 0);
    else return 0;
    return 1;
}
static inline void tu_et_int(tu_etape *t, int32_t v) { tu_et_tag(t, WP_E_INT, 0); tu_et_word(t, (uint32_t)v); }
static inline void tu_et_uint(tu_etape *t, uint32_t v) { tu_et_tag(t, WP_E_UINT, 0); tu_et_word(t, v); }
static inline void tu_et_64(tu_etape *t, uint32_t tag, uint64_t v) {
    tu_et_tag(t, tag, 0); tu_et_word(t, (uint32_t)v); tu_et_word(t, (uint32_t)(v >> 32));
}
static inline void tu_et_f64(tu_etape *t, double d) {
    uint64_t b;
    memcpy(&b, &d, 8);
    tu_et_tag(t, WP_E_F64, 0);
    if (t->len & 1u) tu_et_word(t, 0xdeadbeefu); /* pad to the next even word (content ignored) */
    tu_et_word(t, (uint32_t)b);
    tu_et_word(t, (uint32_t)(b >> 32));
}
static inline void tu_et_f32(tu_etape *t, float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    tu_et_tag(t, WP_E_F32, 0);
    tu_et_word(t, b);
}
/* STR, BIN, RAW */
static inline void tu_et_blob(tu_etape *t, uint32_t tag, const void *s, uint32_t n) { tu_et_len(t, tag, n); tu_et_bytes(t, s, n); }
static inline void tu_et_ext(tu_etape *t, uint32_t type, const void *s, uint32_t n) {
    tu_et_tag(t, WP_E_EXT, type & 0xffu); tu_et_word(t, n); tu_et_bytes(t, s, n);
}
static inline void tu_et_date(tu_etape *t, int64_t sec, uint32_t nsec) {
    tu_et_tag(t, WP_E_DATE, 0);
    tu_et_word(t, (uint32_t)(uint64_t)sec);
    tu_et_word(t, (uint32_t)((uint64_t)sec >> 32));
    tu_et_word(t, nsec);
}
static inline void tu_et_free(tu_etape *t) { free(t->w); t->w = 0; t->len = t->cap = 0; }

/* Encode a tape (its STR16 entries reading nunits units, copied into an exact-size heap block)
 * into a fresh exact-size buffer of wp_encode_out_need bytes (ASan sees any access past either). */
/* The strings of STR16 / STRU8 entries, as the encoder gets them. */
typedef struct tu_strs {
    const uint16_t *units;
    uint32_t nunits;
    const uint8_t *utf8;
    uint32_t nutf8;
    const uint32_t *keys; /* the key area of KEY entries, nkeys words; keys_words as wp_encoder's */
    uint32_t nkeys;
    uint32_t keys_words;
} tu_strs;

/* An exact-size heap copy of n bytes at p (ASan sees any read past it); NULL when n is 0. */
static inline void *tu_heap_copy(const void *p, size_t n) {
    if (!n) return 0;
    void *c = malloc(n);
    if (!c) { perror("malloc"); exit(2); }
    memcpy(c, p, n);
    return c;
}

/* Point e at exact-size heap copies of the strings and keys (free with tu_strs_free). */
static inline void tu_strs_set(wp_encoder *e, const tu_strs *x) {
    if (!x) return;
    e->units = (const uint16_t *)tu_heap_copy(x->units, (size_t)x->nunits * 2);
    e->units_len = x->nunits;
    e->utf8 = (const uint8_t *)tu_heap_copy(x->utf8, x->nutf8);
    e->utf8_len = x->nutf8;
    e->keys = (const uint32_t *)tu_heap_copy(x->keys, (size_t)x->nkeys * 4);
    e->keys_len = x->nkeys;
    e->keys_words = x->keys_words;
}
static inline void tu_strs_free(wp_encoder *e) {
    free((void *)e->units);
    free((void *)e->utf8);
    free((void *)e->keys);
    e->units = 0;
    e->utf8 = 0;
    e->keys = 0;
}

static inline wp_err tu_encode_units(const tu_etape *t, const tu_strs *strs, tu_buf *out, wp_encoder *e) {
    memset(e, 0, sizeof *e);
    e->tape = t->w;
    e->tape_len = t->len;
    tu_strs_set(e, strs);
    uint32_t cap = wp_encode_out_need(e);
    uint8_t *p = (uint8_t *)malloc(cap ? cap : 1);
    e->out = p;
    e->out_cap = cap;
    wp_err rc = wp_msgpack_encode(e);
    out->len = 0;
    tu_buf_bytes(out, p, e->out_len);
    free(p);
    tu_strs_free(e);
    return rc;
}

/* Encode a tape into a fresh exact-size buffer of wp_encode_out_bound bytes. */
static inline wp_err tu_encode(const tu_etape *t, tu_buf *out, wp_encoder *e) {
    return tu_encode_units(t, 0, out, e);
}

/* Append the UTF-8 of code point cp (the plain textbook form, to check the codecs against). */
static inline void tu_buf_cp(tu_buf *b, uint32_t cp) {
    if (cp < 0x80) tu_buf_u8(b, cp);
    else if (cp < 0x800) { tu_buf_u8(b, 0xc0 | cp >> 6); tu_buf_u8(b, 0x80 | (cp & 0x3f)); }
    else if (cp < 0x10000) { tu_buf_u8(b, 0xe0 | cp >> 12); tu_buf_u8(b, 0x80 | (cp >> 6 & 0x3f)); tu_buf_u8(b, 0x80 | (cp & 0x3f)); }
    else {
        tu_buf_u8(b, 0xf0 | cp >> 18); tu_buf_u8(b, 0x80 | (cp >> 12 & 0x3f));
        tu_buf_u8(b, 0x80 | (cp >> 6 & 0x3f)); tu_buf_u8(b, 0x80 | (cp & 0x3f));
    }
}

/* An unpaired surrogate, for tu_u16_cp. */
#define TU_LONE_SURROGATE 0x110000u

/* The code point at u[*k] of n units: a surrogate pair is one (*k then steps onto its second
 * unit), an unpaired surrogate TU_LONE_SURROGATE. */
static inline uint32_t tu_u16_cp(const uint16_t *u, uint32_t n, uint32_t *k) {
    uint32_t cp = u[*k];
    if (cp >= 0xd800 && cp <= 0xdbff && *k + 1 < n && u[*k + 1] >= 0xdc00 && u[*k + 1] <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (u[*k + 1] - 0xdc00);
        (*k)++;
    } else if (cp >= 0xd800 && cp <= 0xdfff) {
        cp = TU_LONE_SURROGATE;
    }
    return cp;
}

/* UTF-8 of n UTF-16 units, the slow obvious way (code point by code point; an unpaired
 * surrogate is U+FFFD), to check wp_utf16_to_utf8 against. */
static inline void tu_ref_utf8(tu_buf *b, const uint16_t *s, uint32_t n) {
    for (uint32_t k = 0; k < n; k++) {
        uint32_t cp = tu_u16_cp(s, n, &k);
        tu_buf_cp(b, cp == TU_LONE_SURROGATE ? 0xfffd : cp);
    }
}

/* The UTF-16 strings the STR16 tests encode: kind k (0..TU_U16_KINDS-1) of n units, into s. */
#define TU_U16_KINDS 12
static inline void tu_u16_kind(uint16_t *s, uint32_t n, uint32_t k) {
    for (uint32_t i = 0; i < n; i++) s[i] = (uint16_t)(0x21 + (i * 7 + k) % 94);
    if (n == 0) return;
    switch (k) {
    case 0: break;                                          /* ASCII */
    case 1: s[n - 1] = 0xe9; break;                         /* 2-byte last (in the tail block) */
    case 2: s[0] = 0x20ac; break;                           /* 3-byte first */
    case 3: s[n / 2] = 0x7f; s[(n - 1) / 2] = 0x80; break;  /* 0x7f ASCII, 0x80 not */
    case 4: for (uint32_t i = 0; i + 1 < n; i += 2) { s[i] = 0xd83c; s[i + 1] = 0xdf7a; } break; /* pairs */
    case 5: s[n - 1] = 0xd83c; break;                       /* lone high last */
    case 6: s[0] = 0xdf7a; break;                           /* lone low first */
    case 7: s[0] = 0xd83c; if (n > 1) s[1] = 0xd83c; break; /* high high */
    case 8: if (n > 1) { s[n - 2] = 0xdf7a; s[n - 1] = 0xd83c; } break; /* reversed pair */
    case 9: for (uint32_t i = 0; i < n; i++) s[i] = 0xff; break;        /* Latin-1, 2 bytes each */
    case 10: s[n - 1] = 0x800; break;                       /* the smallest 3-byte */
    case 11: s[n - 1] = 0xffff; if (n > 8) s[8] = 0x7ff; break; /* the largest BMP; the largest 2-byte */
    }
}

static inline int tu_run_isolated(int (*fn)(void *), void *arg) {
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); return 0; }
    if (pid == 0) _exit(fn(arg) ? 0 : 1);
    int st = 0;
    if (waitpid(pid, &st, 0) != pid) return 0;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* ------------------------------------------------------------------ deterministic PRNG */

typedef struct tu_rng { uint64_t s; } tu_rng;
static inline uint64_t tu_rand(tu_rng *r) { /* splitmix64 */
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static inline uint32_t tu_below(tu_rng *r, uint32_t n) { return n ? (uint32_t)(tu_rand(r) % n) : 0; }

/* ------------------------------------------------------------------ CBOR harness */

/* As tu_decode_ex, for wp_cbor_decode: the tape sized by wp_cbor_tape_words, the other buffers by
 * the same public bounds (ascii and utf16 = len, stack = wp_decode_stack_words). */
static inline wp_err tu_cbor_decode_ex(tu_dec *x, wp_tables *t, const uint8_t *in, uint32_t len, uint32_t flags,
                                       uint32_t max_depth) {
    return tu_decode_fn(x, t, wp_cbor_decode, in, len, flags, max_depth, 0, NULL);
}

static inline wp_err tu_cbor_decode(tu_dec *x, wp_tables *t, const uint8_t *in, uint32_t len, uint32_t flags) {
    return tu_cbor_decode_ex(x, t, in, len, flags, 0);
}

/* wp_cbor_encode of a tape (STR16 units as tu_encode_units) into a fresh buffer of
 * wp_encode_out_need bytes, with an exact-size heap scratch of wp_cbor_scratch_need words (ASan
 * sees any write past either). */
static inline wp_err tu_cbor_encode_units(const tu_etape *t, const tu_strs *strs, uint32_t flags, tu_buf *out, wp_encoder *e) {
    memset(e, 0, sizeof *e);
    e->tape = t->w;
    e->tape_len = t->len;
    tu_strs_set(e, strs);
    uint32_t cap = wp_encode_out_need(e);
    uint8_t *p = (uint8_t *)malloc(cap ? cap : 1);
    uint32_t sw = wp_cbor_scratch_need(e);
    uint32_t *scratch = (uint32_t *)malloc((size_t)sw * 4);
    if (!p || !scratch) { perror("malloc"); exit(2); }
    e->out = p;
    e->out_cap = cap;
    wp_err rc = wp_cbor_encode(e, flags, scratch, sw);
    out->len = 0;
    tu_buf_bytes(out, p, e->out_len <= cap ? e->out_len : cap);
    free(p);
    free(scratch);
    tu_strs_free(e);
    return rc;
}
static inline wp_err tu_cbor_encode(const tu_etape *t, uint32_t flags, tu_buf *out, wp_encoder *e) {
    return tu_cbor_encode_units(t, 0, flags, out, e);
}

/* ------------------------------------------------------------------ STR16 / STRU8 entries (both encoders) */

/* Encode with MessagePack (flags < 0) or CBOR (flags: WP_CBOR_*). */
static inline wp_err tu_encode_fmt(int64_t flags, const tu_etape *t, const tu_strs *strs, tu_buf *out, wp_encoder *e) {
    if (flags < 0) return tu_encode_units(t, strs, out, e);
    return tu_cbor_encode_units(t, strs, (uint32_t)flags, out, e);
}

/* STR16 and STRU8 entries against the same strings as STR entries of their UTF-8 (tu_ref_utf8): every kind
 * of string at every length 0..70 (the 8-unit blocks, the overlapping tail block, the scalar
 * path), as a map key and value with the units of all entries back to back, so that a pair split
 * across two entries must stay two U+FFFD; then the escape form, bad tapes and a full output. */
static inline void tu_check_str16(int64_t flags) {
    const char *fmt = flags < 0 ? "msgpack" : "cbor";
    uint16_t s[72], units[4 * 72];
    for (uint32_t k = 0; k < TU_U16_KINDS; k++) {
        for (uint32_t n = 0; n <= 70; n++) {
            tu_case("%s flags %lld: STR16 kind %u, %u units, as key, value and element", fmt, (long long)flags, k, n);
            tu_u16_kind(s, n, k);
            tu_buf ref = { 0 }, got = { 0 }, want = { 0 };
            tu_ref_utf8(&ref, s, n);
            tu_etape t16 = { 0 }, t8 = { 0 }, tu8 = { 0 };
            uint32_t u = 0;
            /* {s: [s, 7, s], "k": s} with the same units 4 times */
            /* the same tape three ways: STR (the reference), STR16, STRU8 (its bytes: each string's
             * own UTF-8, back to back) */
            tu_etape *all[3] = { &t8, &t16, &tu8 };
            static const uint32_t tags[3] = { WP_E_STR, WP_E_STR16, WP_E_STRU8 };
            for (int v = 0; v < 3; v++) {
                tu_etape *t = all[v];
#define TU_S_ENTRY() (v == 0 ? tu_et_blob(t, WP_E_STR, ref.p, ref.len) : tu_et_len(t, tags[v], n))
                tu_et_len(t, WP_E_MAP, 2);
                TU_S_ENTRY();
                tu_et_len(t, WP_E_ARR, 3);
                TU_S_ENTRY();
                tu_et_int(t, 7);
                TU_S_ENTRY();
                tu_et_blob(t, WP_E_STR, "k", 1);
                TU_S_ENTRY();
#undef TU_S_ENTRY
            }
            tu_buf bytes = { 0 };
            for (int r = 0; r < 4; r++, u += n) {
                memcpy(units + u, s, (size_t)n * 2);
                tu_buf_bytes(&bytes, ref.p, ref.len);
            }
            wp_encoder e;
            CHECK_ERR(tu_encode_fmt(flags, &t8, 0, &want, &e), WP_OK);
            tu_strs x16 = { .units = units, .nunits = u }, xu8 = { .utf8 = bytes.p, .nutf8 = bytes.len };
            CHECK_ERR(tu_encode_fmt(flags, &t16, &x16, &got, &e), WP_OK);
            CHECK_BYTES(got.p, got.len, want.p, want.len);
            CHECK_ERR(tu_encode_fmt(flags, &tu8, &xu8, &got, &e), WP_OK);
            CHECK_BYTES(got.p, got.len, want.p, want.len);
            tu_et_free(&t16); tu_et_free(&t8); tu_et_free(&tu8);
            tu_buf_free(&bytes);
            tu_buf_free(&ref); tu_buf_free(&got); tu_buf_free(&want);
            tu_end();
        }
    }
    {
        tu_case("%s flags %lld: a surrogate pair split across two STR16 entries is two U+FFFD; the escape forms", fmt, (long long)flags);
        const uint16_t pair[] = { 'a', 0xd83c, 0xdf7a, 'b', 'x', 'y', 'z' };
        const uint8_t a_fffd[] = { 'a', 0xef, 0xbf, 0xbd }, fffd_b[] = { 0xef, 0xbf, 0xbd, 'b' };
        tu_etape t16 = { 0 }, t8 = { 0 };
        tu_buf got = { 0 }, want = { 0 };
        tu_et_len(&t16, WP_E_ARR, 3); tu_et_len(&t8, WP_E_ARR, 3);
        tu_et_len(&t16, WP_E_STR16, 2); tu_et_blob(&t8, WP_E_STR, a_fffd, 4);
        tu_et_len(&t16, WP_E_STR16, 2); tu_et_blob(&t8, WP_E_STR, fffd_b, 4);
        tu_et_tag(&t16, WP_E_STR16, WP_LEN_ESCAPE); tu_et_word(&t16, 3); tu_et_blob(&t8, WP_E_STR, "xyz", 3);
        wp_encoder e;
        CHECK_ERR(tu_encode_fmt(flags, &t8, 0, &want, &e), WP_OK);
        tu_strs x16 = { .units = pair, .nunits = 7 };
        CHECK_ERR(tu_encode_fmt(flags, &t16, &x16, &got, &e), WP_OK);
        CHECK_BYTES(got.p, got.len, want.p, want.len);
        /* STRU8: the escape form, and a 4-byte sequence (2 units) at the end of a string */
        tu_etape tu8 = { 0 }, tr = { 0 };
        const uint8_t beer[] = { 'x', 0xf0, 0x9f, 0x8d, 0xba, 'y', 'z' };
        tu_et_len(&tu8, WP_E_ARR, 2); tu_et_len(&tr, WP_E_ARR, 2);
        tu_et_tag(&tu8, WP_E_STRU8, WP_LEN_ESCAPE); tu_et_word(&tu8, 3); tu_et_blob(&tr, WP_E_STR, beer, 5);
        tu_et_len(&tu8, WP_E_STRU8, 2); tu_et_blob(&tr, WP_E_STR, beer + 5, 2);
        CHECK_ERR(tu_encode_fmt(flags, &tr, 0, &want, &e), WP_OK);
        tu_strs xu8 = { .utf8 = beer, .nutf8 = 7 };
        CHECK_ERR(tu_encode_fmt(flags, &tu8, &xu8, &got, &e), WP_OK);
        CHECK_BYTES(got.p, got.len, want.p, want.len);
        tu_et_free(&tu8); tu_et_free(&tr);
        tu_et_free(&t16); tu_et_free(&t8);
        tu_buf_free(&got); tu_buf_free(&want);
        tu_end();
    }
    /* bad tapes: BAD_TAPE at the entry, nothing read past the units (ASan: exact-size copies) */
    static const struct { const char *name; uint32_t w[4]; uint32_t words, units, at; int u8; } bad[] = {
        { "STR16 count past the units", { WP_E_STR16 | (4u << 8) }, 1, 3, 0, 0 },
        { "STR16 with no units at all", { WP_E_STR16 | (1u << 8) }, 1, 0, 0, 0 },
        { "second STR16 past the units left", { WP_E_ARR | (2u << 8), WP_E_STR16 | (2u << 8), WP_E_STR16 | (2u << 8) }, 3, 3, 2, 0 },
        { "STR16 escape without its count word", { WP_E_STR16 | (WP_LEN_ESCAPE << 8) }, 1, 3, 0, 0 },
        { "STR16 escape count past the units", { WP_E_STR16 | (WP_LEN_ESCAPE << 8), 0xffffffffu }, 2, 3, 0, 0 },
        { "STRU8 count past the bytes", { WP_E_STRU8 | (4u << 8) }, 1, 3, 0, 1 },
        { "STRU8 with no bytes at all", { WP_E_STRU8 | (1u << 8) }, 1, 0, 0, 1 },
        { "second STRU8 past the bytes left", { WP_E_ARR | (2u << 8), WP_E_STRU8 | (2u << 8), WP_E_STRU8 | (2u << 8) }, 3, 3, 2, 1 },
        { "STRU8 escape without its count word", { WP_E_STRU8 | (WP_LEN_ESCAPE << 8) }, 1, 3, 0, 1 },
        { "STRU8 escape count past the bytes", { WP_E_STRU8 | (WP_LEN_ESCAPE << 8), 0xffffffffu }, 2, 3, 0, 1 },
        { "STRU8 count ending inside a 4-byte sequence", { WP_E_STRU8 | (1u << 8) }, 1, 4, 0, 2 },
        { "STRU8 lead byte of 3 with 2 bytes left", { WP_E_STRU8 | (1u << 8) }, 1, 2, 0, 3 },
    };
    const uint16_t abc[] = { 'a', 'b', 'c' };
    const uint8_t abc8[] = { 'a', 'b', 'c' }, beer4[] = { 0xf0, 0x9f, 0x8d, 0xba }, euro2[] = { 0xe2, 0x82 };
    for (size_t c = 0; c < sizeof bad / sizeof bad[0]; c++) {
        tu_case("%s flags %lld: %s -> BAD_TAPE", fmt, (long long)flags, bad[c].name);
        tu_etape t = { 0 };
        for (uint32_t k = 0; k < bad[c].words; k++) tu_et_word(&t, bad[c].w[k]);
        tu_buf got = { 0 };
        wp_encoder e;
        const uint8_t *b8 = bad[c].u8 == 1 ? abc8 : bad[c].u8 == 2 ? beer4 : euro2;
        tu_strs x = bad[c].u8 ? (tu_strs){ .utf8 = b8, .nutf8 = bad[c].units } : (tu_strs){ .units = abc, .nunits = bad[c].units };
        CHECK_ERR(tu_encode_fmt(flags, &t, &x, &got, &e), WP_ERR_BAD_TAPE);
        CHECK_EQ_U(e.err.offset, bad[c].at);
        tu_et_free(&t);
        tu_buf_free(&got);
        tu_end();
    }
    if (flags < 0) {
        tu_case("msgpack: STR16 output full reports wp_encode_out_need, which then suffices");
        uint16_t many[200];
        for (int k = 0; k < 200; k++) many[k] = (uint16_t)(k % 3 ? 'q' : 0x20ac);
        tu_etape t = { 0 };
        tu_et_len(&t, WP_E_STR16, 200);
        uint8_t out[1024];
        wp_encoder e;
        memset(&e, 0, sizeof e);
        e.tape = t.w; e.tape_len = t.len; e.units = many; e.units_len = 200;
        uint32_t need = wp_encode_out_need(&e);
        CHECK(need <= sizeof out && need >= 3 + 200 + 2 * 67, "need %u", need);
        e.out = out; e.out_cap = 100;
        CHECK_ERR(wp_msgpack_encode(&e), WP_ERR_OUTPUT_FULL);
        CHECK_EQ_U(e.needed, need);
        e.out_cap = need;
        CHECK_ERR(wp_msgpack_encode(&e), WP_OK);
        CHECK_EQ_U(e.out_len, 3 + 200 + 2 * 67);
        tu_et_free(&t);
        tu_end();

        tu_case("msgpack: STRU8 output full reports wp_encode_out_need, which then suffices");
        uint8_t text[300];
        for (int k = 0; k < 300; k++) text[k] = (uint8_t)('a' + k % 26);
        tu_etape t8 = { 0 };
        tu_et_len(&t8, WP_E_STRU8, 300);
        memset(&e, 0, sizeof e);
        e.tape = t8.w; e.tape_len = t8.len; e.utf8 = text; e.utf8_len = 300;
        need = wp_encode_out_need(&e);
        CHECK(need <= sizeof out && need >= 3 + 300, "need %u", need);
        e.out = out; e.out_cap = 100;
        CHECK_ERR(wp_msgpack_encode(&e), WP_ERR_OUTPUT_FULL);
        CHECK_EQ_U(e.needed, need);
        e.out_cap = need;
        CHECK_ERR(wp_msgpack_encode(&e), WP_OK);
        CHECK_EQ_U(e.out_len, 3 + 300);
        CHECK_BYTES(out + 3, 300, text, 300);
        tu_et_free(&t8);
        tu_end();
    }
}

/* ------------------------------------------------------------------ KEY entries (both encoders) */

/* KEY entries against the same strings as STR entries: keys of 0..40 bytes (ASCII and not) in a
 * key area of exact size, each referred to twice (as a map key, and as a value), in every mode
 * (deterministic CBOR sorts maps by the keys' bytes); then the bad references, and a full output. */
static inline void tu_check_keys(int64_t flags) {
    const char *fmt = flags < 0 ? "msgpack" : "cbor";
    tu_case("%s flags %lld: KEY entries of 0..40 bytes = STR entries", fmt, (long long)flags);
    tu_etape area = { 0 }, tk = { 0 }, ts = { 0 };
    uint32_t at[41], words = 0;
    uint8_t text[41];
    for (uint32_t n = 0; n <= 40; n++) {
        for (uint32_t b = 0; b < n; b++) text[b] = (uint8_t)('a' + (n * 7 + b) % 26);
        if (n % 3 == 1 && n > 1) { text[0] = 0xc3; text[1] = 0xa9; } /* an e-acute first */
        at[n] = area.len;
        tu_et_blob(&area, WP_E_STR, text, n);
        words += area.len - at[n];
    }
    tu_et_len(&tk, WP_E_MAP, 41);
    tu_et_len(&ts, WP_E_MAP, 41);
    for (uint32_t r = 0; r < 41; r++) {
        /* keys in an order unlike their sorted one, each value another key */
        uint32_t n = (r * 17) % 41, v = (r * 5 + 3) % 41;
        tu_et_tag(&tk, WP_E_KEY, at[n]);
        tu_et_tag(&tk, WP_E_KEY, at[v]);
        tu_et_blob(&ts, WP_E_STR, (const uint8_t *)&area.w[at[n] + 1], area.w[at[n]] >> 8);
        tu_et_blob(&ts, WP_E_STR, (const uint8_t *)&area.w[at[v] + 1], area.w[at[v]] >> 8);
    }
    /* every key is referred to once as a key and once as a value: twice its words in all */
    tu_strs x = { .keys = area.w, .nkeys = area.len, .keys_words = 2 * words };
    tu_buf got = { 0 }, want = { 0 };
    wp_encoder e;
    CHECK_ERR(tu_encode_fmt(flags, &ts, 0, &want, &e), WP_OK);
    CHECK_ERR(tu_encode_fmt(flags, &tk, &x, &got, &e), WP_OK);
    CHECK_BYTES(got.p, got.len, want.p, want.len);
    tu_end();

    /* bad references: BAD_TAPE at the entry, nothing read outside the area (ASan: exact-size copy) */
    static const struct { const char *name; uint32_t w[3]; uint32_t words, at, area_words, keys_words; } bad[] = {
        { "KEY at the end of the area", { WP_E_KEY | (6u << 8) }, 1, 0, 6, 100 },
        { "KEY past the area", { WP_E_KEY | (0xfffffeu << 8) }, 1, 0, 6, 100 },
        { "KEY with no area", { WP_E_KEY }, 1, 0, 0, 100 },
        { "KEY at a word that is not a STR entry", { WP_E_KEY | (4u << 8) }, 1, 0, 6, 100 },
        { "KEY at a STR entry with a length escape", { WP_E_KEY | (5u << 8) }, 1, 0, 6, 100 },
        { "KEY at a STR entry running past the area", { WP_E_KEY | (3u << 8) }, 1, 0, 6, 100 },
        { "KEY past the keys_words counted", { WP_E_ARR | (2u << 8), WP_E_KEY, WP_E_KEY }, 3, 2, 6, 3 },
    };
    /* the area: "abcdef" (3 words), a STR claiming 9 bytes with one word left... */
    const uint32_t area6[6] = { WP_E_STR | (6u << 8), 0x64636261u, 0x6665u, WP_E_STR | (9u << 8), WP_E_INT, WP_E_STR | (WP_LEN_ESCAPE << 8) };
    for (size_t c = 0; c < sizeof bad / sizeof bad[0]; c++) {
        tu_case("%s flags %lld: %s -> BAD_TAPE", fmt, (long long)flags, bad[c].name);
        tu_etape t = { 0 };
        for (uint32_t k = 0; k < bad[c].words; k++) tu_et_word(&t, bad[c].w[k]);
        tu_strs xb = { .keys = area6, .nkeys = bad[c].area_words, .keys_words = bad[c].keys_words };
        tu_buf out = { 0 };
        CHECK_ERR(tu_encode_fmt(flags, &t, &xb, &out, &e), WP_ERR_BAD_TAPE);
        CHECK_EQ_U(e.err.offset, bad[c].at);
        tu_et_free(&t);
        tu_buf_free(&out);
        tu_end();
    }
    {
        tu_case("%s flags %lld: one KEY entry, counted exactly, is written", fmt, (long long)flags);
        tu_etape t = { 0 };
        tu_et_tag(&t, WP_E_KEY, 0);
        tu_strs xb = { .keys = area6, .nkeys = 6, .keys_words = 3 };
        tu_buf out = { 0 };
        CHECK_ERR(tu_encode_fmt(flags, &t, &xb, &out, &e), WP_OK);
        CHECK_BYTES(out.p, out.len, flags < 0 ? (const uint8_t *)"\xa6" "abcdef" : (const uint8_t *)"\x66" "abcdef", 7);
        tu_et_free(&t);
        tu_buf_free(&out);
        tu_end();
    }
    if (flags < 0) {
        tu_case("msgpack: KEY output full reports wp_encode_out_need, which then suffices");
        /* 40 KEY entries of a 40-byte key in a tape of 41 words: the bound must count the key words */
        tu_etape t = { 0 };
        tu_et_len(&t, WP_E_ARR, 40);
        for (int k = 0; k < 40; k++) tu_et_tag(&t, WP_E_KEY, at[40]);
        CHECK_EQ_U(area.len - at[40], 11);
        const uint32_t kw = 40 * 11;
        uint8_t out[4096];
        memset(&e, 0, sizeof e);
        e.tape = t.w; e.tape_len = t.len; e.keys = area.w; e.keys_len = area.len; e.keys_words = kw;
        uint32_t need = wp_encode_out_need(&e);
        CHECK(need <= sizeof out && need >= 3 + 40 * 42, "need %u", need);
        e.out = out; e.out_cap = 100;
        CHECK_ERR(wp_msgpack_encode(&e), WP_ERR_OUTPUT_FULL);
        CHECK_EQ_U(e.needed, need);
        e.out_cap = need;
        CHECK_ERR(wp_msgpack_encode(&e), WP_OK);
        CHECK_EQ_U(e.out_len, 3 + 40 * 42);
        tu_et_free(&t);
        tu_end();
    }
    tu_et_free(&area); tu_et_free(&tk); tu_et_free(&ts);
    tu_buf_free(&got); tu_buf_free(&want);
}

#endif /* WP_TEST_UTIL_H */
