/*
 * fuzz_common.h: shared pieces of the libFuzzer targets in tests/fuzz/ (header only).
 *
 *   - FZ_CHECK: abort (__builtin_trap) with a message on any invariant violation;
 *   - persistent key/shape tables, reset every FZ_RESET_EVERY runs, refilled to one of four
 *     states (empty, key count nearly full, key pool nearly full, shape table nearly full);
 *   - fz_decode: one decode with every buffer sized by the public bounds, each in its own
 *     exact-size heap block (ASan sees any write or read past it);
 *   - fz_walk: validates a decode tape entry by entry against the documented TAPE FORMAT and,
 *     optionally, writes a canonical form of the values (for value-for-value comparison) and an
 *     encode tape that re-creates them (for round trips);
 *   - fz_check_decode: every invariant of one decode call (see the comment there);
 *   - fz_cbor_check_det: RFC 8949 4.2.1 checks of deterministic CBOR output.
 *
 * The first input byte is a configuration byte in every target (see each target), so each
 * finding reproduces from its file alone, apart from the table state noted above.
 */
#ifndef WP_FUZZ_COMMON_H
#define WP_FUZZ_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wirepack.h"
#include "wp_internal.h"

/* ------------------------------------------------------------------ failing */

#define FZ_CHECK(cond, ...) do { if (!(cond)) { \
    fprintf(stderr, "\nINVARIANT FAILED %s:%d: %s: ", __FILE__, __LINE__, #cond); \
    fprintf(stderr, "" __VA_ARGS__); fputc('\n', stderr); fflush(stderr); __builtin_trap(); } } while (0)

/* ------------------------------------------------------------------ growable buffers */

typedef struct fz_buf { uint8_t *p; size_t len, cap; } fz_buf;

static inline void fz_buf_reserve(fz_buf *b, size_t extra) {
    if (b->len + extra <= b->cap) return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra) cap *= 2;
    b->p = (uint8_t *)realloc(b->p, cap);
    if (!b->p) abort();
    b->cap = cap;
}
static inline void fz_buf_put(fz_buf *b, const void *s, size_t n) {
    fz_buf_reserve(b, n);
    if (n) memcpy(b->p + b->len, s, n);
    b->len += n;
}
static inline void fz_buf_u8(fz_buf *b, uint32_t v) { uint8_t c = (uint8_t)v; fz_buf_put(b, &c, 1); }
static inline void fz_buf_u32(fz_buf *b, uint32_t v) { fz_buf_put(b, &v, 4); }
static inline void fz_buf_u64(fz_buf *b, uint64_t v) { fz_buf_put(b, &v, 8); }
static inline void fz_buf_free(fz_buf *b) { free(b->p); memset(b, 0, sizeof *b); }

/* Encode tape under construction. */
typedef struct fz_etape { uint32_t *w; uint32_t len, cap; } fz_etape;

static inline void fz_et_word(fz_etape *t, uint32_t v) {
    if (t->len == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 256;
        t->w = (uint32_t *)realloc(t->w, (size_t)t->cap * 4);
        if (!t->w) abort();
    }
    t->w[t->len++] = v;
}
static inline void fz_et_tag(fz_etape *t, uint32_t tag, uint32_t p) { fz_et_word(t, tag | (p << 8)); }
static inline void fz_et_len(fz_etape *t, uint32_t tag, uint32_t n) {
    if (n < WP_LEN_ESCAPE) fz_et_tag(t, tag, n);
    else { fz_et_tag(t, tag, WP_LEN_ESCAPE); fz_et_word(t, n); }
}
static inline void fz_et_bytes(fz_etape *t, const void *s, uint32_t n) {
    uint32_t at = t->len, words = (n + 3) / 4;
    for (uint32_t i = 0; i < words; i++) fz_et_word(t, 0);
    if (n) memcpy(&t->w[at], s, n);
}
static inline void fz_et_f64(fz_etape *t, double v) {
    uint64_t b;
    memcpy(&b, &v, 8);
    fz_et_tag(t, WP_E_F64, 0);
    if (t->len & 1u) fz_et_word(t, 0xdeadbeefu);
    fz_et_word(t, (uint32_t)b);
    fz_et_word(t, (uint32_t)(b >> 32));
}
/* A JS number as the JS encoder writes it (encode.js writeNumber): uint32 and int32 values as
 * UINT / INT, anything else (and -0) as F64. */
static inline void fz_et_number(fz_etape *t, double v) {
    if (v == v && v == floor(v) && v >= -2147483648.0 && v <= 4294967295.0 && !(v == 0 && signbit(v))) {
        if (v >= 0) { fz_et_tag(t, WP_E_UINT, 0); fz_et_word(t, (uint32_t)v); }
        else { fz_et_tag(t, WP_E_INT, 0); fz_et_word(t, (uint32_t)(int32_t)v); }
    } else {
        fz_et_f64(t, v);
    }
}
static inline void fz_et_64(fz_etape *t, uint32_t tag, uint64_t v) {
    fz_et_tag(t, tag, 0); fz_et_word(t, (uint32_t)v); fz_et_word(t, (uint32_t)(v >> 32));
}

/* ------------------------------------------------------------------ tables */

static wp_tables fz_tables;
static unsigned long fz_runs;
static unsigned fz_resets;
#ifndef FZ_RESET_EVERY
#define FZ_RESET_EVERY 4096u
#endif

/* Reset the tables and put them in one of four states, in turn. */
static inline void fz_tables_refill(unsigned mode) {
    wp_tables *t = &fz_tables;
    wp_tables_reset(t);
    char k[80];
    switch (mode & 3u) {
    case 0: break;
    case 1: /* key count 6 short of full */
        for (uint32_t i = 0; i < WP_MAX_KEYS - 6; i++) {
            int n = snprintf(k, sizeof k, "~k%u", i);
            FZ_CHECK(wp_key_intern(t, (const uint8_t *)k, (uint32_t)n) == i);
        }
        break;
    case 2: /* key pool 130 bytes short of full: 64-byte keys */
        for (uint32_t i = 0; WP_KEY_POOL_BYTES - t->key_pool_used >= 64 + 130; i++) {
            memset(k, '~', 64);
            snprintf(k, sizeof k, "~p%u", i);
            k[strlen(k)] = '~';
            FZ_CHECK(wp_key_intern(t, (const uint8_t *)k, 64) == i);
        }
        break;
    default: { /* shapes 5 short of full, shape pool nearly full: shapes of 16 key ids */
        for (uint32_t i = 0; i < 64; i++) {
            int n = snprintf(k, sizeof k, "~s%u", i);
            FZ_CHECK(wp_key_intern(t, (const uint8_t *)k, (uint32_t)n) == i);
        }
        uint32_t ids[16];
        for (uint32_t s = 0; s < WP_MAX_SHAPES - 5; s++) {
            for (uint32_t j = 0; j < 16; j++) ids[j] = (j * 5u) & 63u;
            ids[0] = s & 63u; ids[1] = (s >> 6) & 63u; /* distinct for every s */
            FZ_CHECK(wp_shape_intern(t, ids, 16) == s);
        }
        break;
    }
    }
}

/* Called at the start of every run: the periodic reset. */
static inline void fz_tables_tick(void) {
    if (fz_runs++ % FZ_RESET_EVERY == 0) fz_tables_refill(fz_resets++);
}

/* Every key and shape can be found again under its own id (probe chains intact after rollbacks),
 * and counts and pool use are consistent. */
static inline void fz_tables_check(void) {
    wp_tables *t = &fz_tables;
    FZ_CHECK(t->nkeys <= WP_MAX_KEYS && t->nshapes <= WP_MAX_SHAPES);
    FZ_CHECK(t->key_pool_used <= WP_KEY_POOL_BYTES && t->shape_pool_used <= WP_SHAPE_POOL_WORDS);
    uint32_t nk = t->nkeys, ns = t->nshapes;
    for (uint32_t id = 0; id < nk; id++) {
        FZ_CHECK(t->key_off[id] + t->key_len[id] <= t->key_pool_used);
        uint32_t got = wp_key_intern(t, t->key_pool + t->key_off[id], t->key_len[id]);
        FZ_CHECK(got == id, "key %u found as %u", id, got);
    }
    for (uint32_t id = 0; id < ns; id++) {
        FZ_CHECK(t->shape_off[id] + t->shape_len[id] <= t->shape_pool_used);
        uint32_t got = wp_shape_intern(t, t->shape_pool + t->shape_off[id], t->shape_len[id]);
        FZ_CHECK(got == id, "shape %u found as %u", id, got);
    }
    FZ_CHECK(t->nkeys == nk && t->nshapes == ns);
    uint32_t used = 0;
    for (uint32_t i = 0; i < WP_KEY_HASH_SLOTS; i++) if (t->key_slot[i]) { used++; FZ_CHECK(t->key_slot[i] <= nk); }
    FZ_CHECK(used == nk, "%u key slots used for %u keys", used, nk);
    used = 0;
    for (uint32_t i = 0; i < WP_SHAPE_HASH_SLOTS; i++) if (t->shape_slot[i]) { used++; FZ_CHECK(t->shape_slot[i] <= ns); }
    FZ_CHECK(used == ns, "%u shape slots used for %u shapes", used, ns);
}

/* ------------------------------------------------------------------ decode harness */

enum { FZ_MSGPACK = 0, FZ_CBOR = 1 };

typedef struct fz_dec {
    wp_decoder d;
    uint32_t eff_depth;
    wp_err rc;
    uint32_t *ends;          /* d.ends, with FZ_ENDS_CANARY words after ends_cap */
    uint8_t *in;             /* d.in: a copy of the input with the decoders' slack after it (wirepack.h) */
} fz_dec;

/* MessagePack extension semantics (msgpackr's records, bundled strings, prefix extensions), in
 * force for fz_decode of MessagePack (the decode target sets them per input; others leave them
 * off):
 *   fz_recs_on: d->records = fz_recs, a WP_REC_SLOTS table that must equal fz_recs_init after
 *     every call (definitions made during a call are undone before it returns);
 *   fz_xc_on: d->ext = &fz_xc;
 *   fz_ends_cap: 0 = d->ends NULL, else an ends array of that many words (canaries after it). */
static uint32_t fz_recs[WP_REC_SLOTS];
static uint32_t fz_recs_init[WP_REC_SLOTS];
static int fz_recs_on;
static wp_ext_config fz_xc;
static int fz_xc_on;
static uint32_t fz_ends_cap;
#define FZ_ENDS_CANARY 4u
#define FZ_CANARY 0xA5A5A5A5u

/* msgpackr's record slot for first byte 0x40|s and high byte h (csrc/wp_msgpack.c wp_rec_slot). */
static inline uint32_t fz_rec_slot(uint32_t s, uint32_t h) {
    uint32_t id = s + (h << 5);
    return (s >= 32 || id == 0) ? id : 8224u + id;
}
static inline int fz_bit(const uint32_t *set, uint32_t t) { return (int)((set[t >> 5] >> (t & 31u)) & 1u); }
static inline void fz_setbit(uint32_t *set, uint32_t t) { set[t >> 5] |= 1u << (t & 31u); }

static const uint32_t fz_depths[8] = { 0, 1, 2, 3, 5, 16, 100, 0xFFFFFFFFu };

/* Decode in[0..len) (the caller's block must end exactly at in + len). */
/* Policy limits, in this order: max_array, max_map, max_str, max_bin, max_ext (0 = none). */
enum { FZ_LIM_ARR, FZ_LIM_MAP, FZ_LIM_STR, FZ_LIM_BIN, FZ_LIM_EXT, FZ_NLIM };
static uint32_t fz_limits[FZ_NLIM]; /* in force for fz_decode */
/* Holes in the input of the next fz_decode calls (wirepack.h, wp_decoder.holes; NULL, 0: none). */
static const uint32_t *fz_holes;
static uint32_t fz_nholes;

static inline int fz_any_limit(void) {
    for (int k = 0; k < FZ_NLIM; k++) if (fz_limits[k]) return 1;
    return 0;
}

static inline wp_err fz_decode(fz_dec *x, int fmt, const uint8_t *in, uint32_t len, uint32_t flags, uint32_t max_depth) {
    memset(x, 0, sizeof *x);
    wp_decoder *d = &x->d;
    d->max_array = fz_limits[FZ_LIM_ARR];
    d->max_map = fz_limits[FZ_LIM_MAP];
    d->max_str = fz_limits[FZ_LIM_STR];
    d->max_bin = fz_limits[FZ_LIM_BIN];
    d->max_ext = fz_limits[FZ_LIM_EXT];
    d->holes = fz_holes;
    d->nholes = fz_nholes;
    uint32_t tw = fmt == FZ_CBOR || (flags & WP_DEC_MP_RAW_STRINGS) ? wp_cbor_tape_words(len) : wp_decode_tape_words(len);
    uint32_t sw = wp_decode_stack_words(max_depth, len);
    /* (a copy of exactly the input and its slack: the sanitizers catch any read past them) */
    x->in = (uint8_t *)malloc((size_t)len + WP_DEC_SLACK ? (size_t)len + WP_DEC_SLACK : 1);
    if (!x->in) abort();
    if (len) memcpy(x->in, in, len);
    memset(x->in + len, 0xa5, WP_DEC_SLACK); /* (not zeros: bytes read there are masked off) */
    d->in = x->in;
    d->len = len;
    d->flags = flags;
    d->max_depth = max_depth;
    d->tape = (uint32_t *)malloc((size_t)tw * 4);
    d->tape_cap = tw;
    d->ascii = (uint8_t *)malloc((size_t)len + WP_DEC_SLACK ? (size_t)len + WP_DEC_SLACK : 1);
    d->ascii_cap = len;
    d->utf16 = (uint16_t *)malloc(len ? 2u * (size_t)len : 2);
    d->utf16_cap = len;
    d->stack = (uint32_t *)malloc((size_t)sw * 4);
    d->stack_cap = sw;
    if (!d->tape || !d->ascii || !d->utf16 || !d->stack) abort();
    x->eff_depth = wp_effective_depth(max_depth, len);
    const int mp = fmt == FZ_MSGPACK;
    if (mp && fz_recs_on) d->records = fz_recs;
    if (mp && fz_xc_on) d->ext = &fz_xc;
    if (mp && fz_ends_cap) {
        x->ends = (uint32_t *)malloc((size_t)(fz_ends_cap + FZ_ENDS_CANARY) * 4);
        if (!x->ends) abort();
        for (uint32_t k = 0; k < fz_ends_cap + FZ_ENDS_CANARY; k++) x->ends[k] = FZ_CANARY;
        d->ends = x->ends;
        d->ends_cap = fz_ends_cap;
    }
    x->rc = fmt == FZ_CBOR ? wp_cbor_decode(d, &fz_tables) : wp_msgpack_decode(d, &fz_tables);
    if (d->records)
        FZ_CHECK(memcmp(fz_recs, fz_recs_init, sizeof fz_recs) == 0, "record table changed by a call (%s)", wp_err_name(x->rc));
    if (x->ends) {
        /* one end offset per complete top-level value, increasing, the last one d->end; nothing
         * written past the values or past ends_cap */
        uint32_t m = d->nvalues < fz_ends_cap ? d->nvalues : fz_ends_cap;
        for (uint32_t k = 0; k < m; k++) {
            FZ_CHECK(x->ends[k] > (k ? x->ends[k - 1] : 0) && x->ends[k] <= len, "ends[%u] = %u (prev %u, len %u)",
                     k, x->ends[k], k ? x->ends[k - 1] : 0, len);
        }
        if (d->nvalues && d->nvalues <= fz_ends_cap)
            FZ_CHECK(x->ends[d->nvalues - 1] == d->end, "ends[%u] = %u, end %u", d->nvalues - 1, x->ends[d->nvalues - 1], d->end);
        for (uint32_t k = m; k < fz_ends_cap + FZ_ENDS_CANARY; k++)
            FZ_CHECK(x->ends[k] == FZ_CANARY, "ends[%u] written (%u values, cap %u)", k, d->nvalues, fz_ends_cap);
    }
    return x->rc;
}

static inline void fz_dec_free(fz_dec *x) {
    free(x->d.tape); free(x->d.ascii); free(x->d.utf16); free(x->d.stack); free(x->ends); free(x->in);
    memset(x, 0, sizeof *x);
}

/* ------------------------------------------------------------------ tape walker */

typedef struct fz_walk {
    /* in */
    const wp_decoder *d;      /* tape, areas, input */
    int fmt;
    uint32_t limit;           /* words of the tape that may be read */
    fz_buf *canon;            /* canonical values (or 0) */
    fz_etape *et;             /* encode tape (or 0) */
    int f32_as_number;        /* canonical: F32 as a plain number */
    /* out */
    uint32_t i, ai, ui;       /* tape, ascii and utf16 cursors */
    uint32_t depth;           /* deepest container nesting, every container and tag counted */
    int skip;                 /* a value the encode tape cannot express (round trip skipped) */
    uint32_t nf32;            /* F32 entries seen */
    int over;                 /* an item above fz_limits */
    int over_unsure;          /* an item that may be above them (STRU: bytes unknown; DATE) */
    uint32_t nolim;           /* CBOR: sp + 1 of the bundle marker the walk is in (0: none); the
                               * marker's [s0, s1, offset] are the bundle's, not values: no limits */
    int cb_bundle;            /* CBOR: a bundle marker was met in this top-level value */
    int cb_packed;            /* CBOR: a packed item (tag 51) was met in this call */
    /* MessagePack records: the table as the walk has it (fz_recs_init plus this call's
     * definitions); bundled strings: units in each bundle string and how many were taken */
    uint32_t *recs;
    /* record keys with msgpackr's structuredClone id (d6 69 id before them): id -> key count, for
     * a later definition whose keys are a pointer (d6 70 id) to them; the id of the keys being read */
    uint32_t sc_id[256], sc_nk[256], nsc, sc_pending;
    int sc_open;
    int bundle_on;
    uint32_t bu1, bu2, bp1, bp2;
    /* BIN entries, and EXT and EXTP entries but of types 0 and -1 (offset, length pairs), when
     * bins is set: up to bins_cap of them (what may be holes: wirepack.h, wp_decoder.holes) */
    uint32_t *bins;
    uint32_t nbins, bins_cap;
    int bundles_met;          /* a bundle (MessagePack), a bundle marker or tag 0xdff9 (CBOR) was met */
} fz_walk;

/* Keep the bytes of an entry that may be a hole (BIN, and EXT and EXTP but of types 0 and -1) in
 * the walk's list, when it keeps one. */
static inline void fz_note_bin(fz_walk *x, uint32_t off, uint32_t n) {
    if (!x->bins || x->nbins >= x->bins_cap) return;
    x->bins[2 * x->nbins] = off;
    x->bins[2 * x->nbins + 1] = n;
    x->nbins++;
}

typedef struct fz_wframe {
    uint32_t remaining;       /* items left: n (arrays), 2n (maps), 1 (tags) */
    uint32_t kind;            /* WP_T_ARR, WP_T_MAP, WP_T_OBJ, WP_T_SHAPED, WP_T_TAG; MessagePack
                                 records: WP_T_RECDEF (2 items: the keys, then the REC entry),
                                 WP_T_REC (the fields); wrappers (no nesting level, the wrapped
                                 item is a key when the wrapper was): WP_T_EXTP (1), WP_T_BUNDLE
                                 (3: the two bundle strings, then the value) */
    uint32_t sid, k;          /* SHAPED: shape id, keys seen; RECDEF: slot, number of keys */
    uint32_t all_str;         /* maps: every key so far may name a property */
    uint32_t key;             /* wrappers: at a key position */
    uint32_t hb;              /* RECDEF: defined with high byte 0 */
} fz_wframe;

/* A structuredClone id given to a value: a later pointer may name that value as a record's keys,
 * n of them when it is an array (record keys, or another array: C's wp_mp_sc_note); none when it
 * is not (n == UINT32_MAX: the id is forgotten). */
static inline void fz_sc_set(fz_walk *x, uint32_t id, uint32_t n) {
    uint32_t i = 0;
    while (i < x->nsc && x->sc_id[i] != id) i++;
    if (n == UINT32_MAX) {
        if (i < x->nsc) {
            x->nsc--;
            x->sc_id[i] = x->sc_id[x->nsc];
            x->sc_nk[i] = x->sc_nk[x->nsc];
        }
        return;
    }
    if (i == x->nsc) {
        if (x->nsc == 256) return; /* (a pointer to it then finds none, which the walk reports) */
        x->nsc++;
    }
    x->sc_id[i] = id;
    x->sc_nk[i] = n;
}

/* An array (or run) of n items met inside the EXTP 0x69 that holds a record's keys: the keys,
 * whose count the definition and a later pointer to their id take. */
static inline void fz_sc_keys(fz_walk *x, fz_wframe *fr, size_t sp, uint32_t n) {
    if (!x->sc_open || sp < 2 || fr[sp - 1].kind != WP_T_EXTP || fr[sp - 2].kind != WP_T_RECDEF || fr[sp - 2].remaining != 2) return;
    x->sc_open = 0;
    fr[sp - 2].k = n;
    fz_sc_set(x, x->sc_pending, n);
}

static inline int fz_wrapper(uint32_t kind) { return kind == WP_T_EXTP || kind == WP_T_BUNDLE; }
static inline int fz_counts(uint32_t kind) { return !fz_wrapper(kind); } /* a nesting level */

static inline double fz_f64_at(const uint32_t *w, uint32_t at) { double v; memcpy(&v, &w[at], 8); return v; }

static inline void fz_canon_num(fz_buf *c, uint8_t kind, double v) {
    if (!c) return;
    if (v != v) v = __builtin_nan("");
    uint64_t b;
    memcpy(&b, &v, 8);
    fz_buf_u8(c, kind);
    fz_buf_u64(c, b);
}
static inline void fz_canon_big(fz_buf *c, int neg, uint64_t m) { /* value: neg ? -1 - m : m */
    if (!c) return;
    fz_buf_u8(c, neg ? 'b' : 'B');
    fz_buf_u64(c, m);
}
static inline void fz_canon_units(fz_buf *c, const uint16_t *u, uint32_t n) {
    if (!c) return;
    fz_buf_u8(c, 'S'); fz_buf_u32(c, n); fz_buf_put(c, u, (size_t)n * 2);
}
static inline void fz_canon_ascii(fz_buf *c, const uint8_t *s, uint32_t n) {
    if (!c) return;
    fz_buf_u8(c, 'S'); fz_buf_u32(c, n);
    for (uint32_t i = 0; i < n; i++) { uint16_t u = s[i]; fz_buf_put(c, &u, 2); }
}

/* UTF-16 (as the decoder writes it: never a lone surrogate) -> UTF-8 bytes. */
static inline void fz_utf16_to_utf8(fz_buf *o, const uint16_t *u, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        uint32_t c = u[i];
        if (c >= 0xD800 && c <= 0xDBFF) {
            FZ_CHECK(i + 1 < n && u[i + 1] >= 0xDC00 && u[i + 1] <= 0xDFFF, "lone high surrogate in utf16 area");
            c = 0x10000 + ((c - 0xD800) << 10) + (u[i + 1] - 0xDC00);
            i++;
        } else {
            FZ_CHECK(!(c >= 0xDC00 && c <= 0xDFFF), "lone low surrogate in utf16 area");
        }
        if (c < 0x80) fz_buf_u8(o, c);
        else if (c < 0x800) { fz_buf_u8(o, 0xC0 | (c >> 6)); fz_buf_u8(o, 0x80 | (c & 0x3F)); }
        else if (c < 0x10000) { fz_buf_u8(o, 0xE0 | (c >> 12)); fz_buf_u8(o, 0x80 | ((c >> 6) & 0x3F)); fz_buf_u8(o, 0x80 | (c & 0x3F)); }
        else { fz_buf_u8(o, 0xF0 | (c >> 18)); fz_buf_u8(o, 0x80 | ((c >> 12) & 0x3F)); fz_buf_u8(o, 0x80 | ((c >> 6) & 0x3F)); fz_buf_u8(o, 0x80 | (c & 0x3F)); }
    }
}

/* Read a tape length payload (escape: next word). */
static inline uint32_t fz_len(fz_walk *x, uint32_t word) {
    uint32_t p = word >> 8;
    if (p != WP_LEN_ESCAPE) return p;
    FZ_CHECK(x->i < x->limit, "escaped length past the tape end");
    return x->d->tape[x->i++];
}

/* Record an item of length n against limit k. */
static inline void fz_lim(fz_walk *x, int k, uint32_t n) {
    if (x->nolim) return;
    if (fz_limits[k] && n > fz_limits[k]) x->over = 1;
}

/* Push a frame onto the walk's stack (fz_walk_values: fr, sp, fcap), growing it when full. */
#define FZ_PUSH(...) do { \
        if (sp == fcap) { fcap *= 2; fr = (fz_wframe *)realloc(fr, fcap * sizeof *fr); if (!fr) abort(); } \
        fz_wframe f_ = __VA_ARGS__; \
        fr[sp++] = f_; \
    } while (0)

/* Walk nvalues top-level values from the tape start. Traps on any malformed entry. */
static inline void fz_walk_values(fz_walk *x, uint32_t nvalues, uint32_t max_depth) {
    const wp_decoder *d = x->d;
    const uint32_t *w = d->tape;
    const int cbor = x->fmt == FZ_CBOR;
    const int as_obj = (d->flags & WP_DEC_MAPS_AS_OBJECTS) != 0;
    const int intern = (d->flags & WP_DEC_NO_INTERN) == 0;
    const int f32t = (d->flags & WP_DEC_TAG_F32) != 0;
    const wp_tables *tb = &fz_tables;
    fz_buf *c = x->canon;
    fz_etape *et = x->et;
    fz_buf tmp = { 0 };
    size_t fcap = 64, sp = 0;
    fz_wframe *fr = (fz_wframe *)malloc(fcap * sizeof *fr);
    uint16_t kunits[WP_KEY_MAX_BYTES];
    x->i = x->ai = x->ui = 0;
    x->depth = 0;
    x->skip = 0;
    x->nf32 = 0;
    x->over = x->over_unsure = 0;
    x->nolim = 0;
    x->cb_bundle = 0;
    x->cb_packed = 0;
    x->bundle_on = 0;
    x->bu1 = x->bu2 = x->bp1 = x->bp2 = 0;
    x->recs = 0;
    x->nsc = 0;
    x->sc_open = 0;
    if (!cbor && d->records) {
        x->recs = (uint32_t *)malloc(sizeof fz_recs);
        if (!x->recs) abort();
        memcpy(x->recs, fz_recs_init, sizeof fz_recs);
    }
    size_t dsp = 0;          /* frames that are a nesting level */
    for (uint32_t v = 0; v < nvalues;) {
        FZ_CHECK(x->i < x->limit, "tape ends inside value %u (word %u of %u)", v, x->i, x->limit);
        uint32_t at = x->i;
        uint32_t word = w[x->i++];
        uint32_t tag = word & 0xffu, p = word >> 8;
        fz_wframe *top = sp ? &fr[sp - 1] : 0;
        const size_t sp0 = sp;
        const uint32_t ai0 = x->ai, ui0 = x->ui;
        fz_wframe *mf = top;     /* the map whose key this item is (below any key wrappers) */
        int is_key = 0;
        if (top && fz_wrapper(top->kind)) {
            if (top->key && (top->kind == WP_T_EXTP || top->remaining == 1)) {
                size_t j = sp;
                while (j && fz_wrapper(fr[j - 1].kind)) j--;
                FZ_CHECK(j > 0, "key wrapper outside a map");
                mf = &fr[j - 1];
                is_key = 1;
            }
        } else if (top) {
            is_key = top->kind != WP_T_ARR && top->kind != WP_T_TAG && top->kind != WP_T_REC &&
                     top->kind != WP_T_RECDEF && (top->remaining & 1u) == 0;
        }
        int container = 0;       /* pushed a frame */
        if (tag == WP_T_PAD) {
            FZ_CHECK(cbor, "PAD in a MessagePack tape");
            FZ_CHECK(x->i < x->limit && (w[x->i] & 0xffu) == WP_T_SHAPED, "PAD not before SHAPED (word %u)", at);
            continue;
        }
        if (mf && mf->kind == WP_T_SHAPED && is_key) {
            FZ_CHECK(tag == WP_T_KEY, "SHAPED key %u is tag %u", mf->k, tag);
            uint32_t want = tb->shape_pool[tb->shape_off[mf->sid] + mf->k];
            FZ_CHECK(p == want, "SHAPED key %u: id %u, shape says %u", mf->k, p, want);
            mf->k++;
        }
        if (top && top->kind == WP_T_BUNDLE && top->remaining >= 2)
            FZ_CHECK(tag == WP_T_STRA || tag == WP_T_STRU, "bundle string %u is tag %u (word %u)", 4 - top->remaining, tag, at);
        if (top && top->kind == WP_T_RECDEF) {
            /* (or msgpackr's structuredClone id before them, or a pointer to keys with an id) */
            if (top->remaining == 2) FZ_CHECK(tag == WP_T_ARR || tag == WP_T_NUMRUN || tag == WP_T_SCALARRUN || (tag == WP_T_EXTP && p == 0x69) || (tag == WP_T_EXT && p == 0x70),
                                              "record keys of tag %u (word %u)", tag, at);
            else FZ_CHECK(tag == WP_T_REC && p == top->sid, "after the keys of record slot %u: tag %u p %u (word %u)", top->sid, tag, p, at);
        }
        if (is_key) {
            /* a bundled string reference is a string; the bundle before it keeps the map's keys
             * strings (the value it wraps is the key) */
            int str = tag == WP_T_KEY || tag == WP_T_STRA || tag == WP_T_STRU || tag == WP_T_STR8 || tag == WP_T_BREF || tag == WP_T_BUNDLE;
            /* numbers, booleans, nil, undefined: property names (msgpackr and cbor-x coerce them) */
            int coercible = (tag == WP_T_INT || tag == WP_T_I32 || tag == WP_T_U32 || tag == WP_T_U64 ||
                                     tag == WP_T_I64 || tag == WP_T_N64 || tag == WP_T_F64 || tag == WP_T_F32 ||
                                     tag == WP_T_FALSE || tag == WP_T_TRUE || tag == WP_T_NIL || tag == WP_T_UNDEF);
            /* once a packed item (tag 51) has opened in the call, packed references (simple 0-15,
             * tag 6) stand for the packed values (the host keeps the last table to the call's
             * end, as cbor-x), which the decoder may let be property names, and anywhere with
             * WP_DEC_CBOR_SHARED (the host's shared values): either an object or a Map is then right */
            const int packed_ref = cbor && !coercible && ((tag == WP_T_SIMPLE && p < 16) || (tag == WP_T_TAG && p == 6)) &&
                                   (x->cb_packed || (d->flags & WP_DEC_CBOR_SHARED));
            /* cbor-x's bundled strings (tags 14, 15) once a bundle is open stand for strings: the
             * decoder keeps the map an object for them; its bundle tag (0xdff9) stands for one when
             * the bundle's value does (wp_cb_bundle_key: text, a bundled string or a coercible key),
             * which the model does not follow: either an object or a Map is then right */
            int bundle_key = cbor && tag == WP_T_TAG && x->cb_bundle && (p == 14 || p == 15);
            const int bundle_tag_key = cbor && tag == WP_T_TAG && p == 0xdff9u;
            if (!str && !coercible && !bundle_key) mf->all_str = 0;
            if (!cbor && (d->flags & WP_DEC_MP_STRICT_KEYS)) {
                /* strings and numbers only (int64 ones not with WP_DEC_MP_NO_INT64_KEYS) */
                const int num = tag == WP_T_INT || tag == WP_T_I32 || tag == WP_T_U32 || tag == WP_T_F64 || tag == WP_T_F32 ||
                                ((tag == WP_T_U64 || tag == WP_T_I64) && !(d->flags & WP_DEC_MP_NO_INT64_KEYS));
                FZ_CHECK(tag == WP_T_KEY || tag == WP_T_STRA || tag == WP_T_STRU || tag == WP_T_STR8 || tag == WP_T_BREF || tag == WP_T_BUNDLE || num,
                         "strict keys: a key of tag %u (word %u)", tag, at);
            }
            if (mf->kind == WP_T_OBJ) FZ_CHECK(str || coercible || packed_ref || bundle_key || bundle_tag_key, "OBJ key of tag %u p %u (word %u)", tag, p, at);
        } else {
            FZ_CHECK(tag != WP_T_KEY, "KEY outside a key position (word %u)", at);
            /* raw strings: no string value (bundles and records, which read their strings
             * themselves, aside) */
            if (!cbor && (d->flags & WP_DEC_MP_RAW_STRINGS) && !(d->flags & WP_DEC_BUNDLES) && !d->records)
                FZ_CHECK(tag != WP_T_STRA && tag != WP_T_STRU && tag != WP_T_STR8 && tag != WP_T_VSTR, "raw strings: a string value of tag %u (word %u)", tag, at);
        }
        switch (tag) {
        case WP_T_NIL: if (c) fz_buf_u8(c, 'N'); if (et) fz_et_tag(et, WP_E_NIL, 0); break;
        case WP_T_FALSE: if (c) fz_buf_u8(c, 'F'); if (et) fz_et_tag(et, WP_E_FALSE, 0); break;
        case WP_T_TRUE: if (c) fz_buf_u8(c, 'T'); if (et) fz_et_tag(et, WP_E_TRUE, 0); break;
        case WP_T_UNDEF:
            /* MessagePack: an extension of type 0 (any size with an extension config) */
            if (!cbor && fz_limits[FZ_LIM_EXT]) x->over_unsure = 1;
            if (c) fz_buf_u8(c, 'U');
            if (et) fz_et_tag(et, WP_E_UNDEF, 0);
            break;
        case WP_T_INT: {
            int32_t iv = (int32_t)word >> 8;
            fz_canon_num(c, 'D', (double)iv);
            if (et) fz_et_number(et, (double)iv);
            break;
        }
        case WP_T_I32:
        case WP_T_U32: {
            FZ_CHECK(x->i < x->limit, "I32/U32 past the end");
            uint32_t u = w[x->i++];
            fz_canon_num(c, 'D', tag == WP_T_I32 ? (double)(int32_t)u : (double)u);
            if (et) fz_et_number(et, tag == WP_T_I32 ? (double)(int32_t)u : (double)u);
            break;
        }
        case WP_T_F64:
        case WP_T_F32:
        case WP_T_DATE: {
            uint32_t a = (at + 2) & ~1u;
            FZ_CHECK(a + 2 <= x->limit, "f64 past the end (word %u)", at);
            FZ_CHECK(a == at + 1 || w[at + 1] == 0, "pad word not zero");
            double dv = fz_f64_at(w, a);
            x->i = a + 2;
            if (tag == WP_T_F32) {
                FZ_CHECK(f32t, "F32 without WP_DEC_TAG_F32");
                x->nf32++;
                float f = (float)dv;
                FZ_CHECK(dv != dv || (double)f == dv, "F32 entry not a float32 value");
                fz_canon_num(c, x->f32_as_number ? 'D' : 'f', dv);
                if (et) {
                    uint32_t fb;
                    memcpy(&fb, &f, 4);
                    fz_et_tag(et, WP_E_F32, 0); fz_et_word(et, fb);
                }
            } else if (tag == WP_T_F64) {
                fz_canon_num(c, 'D', dv);
                if (et) fz_et_number(et, dv);
            } else if (cbor) {
                /* tag 1 over a number, made a Date by C (WP_DEC_CBOR_DATES): rebuilt as tag 1
                 * over its seconds, which decode to the same ms while s = ms / 1000 keeps every
                 * millisecond apart (below 2^42 s) */
                FZ_CHECK(d->flags & WP_DEC_CBOR_DATES, "DATE in a CBOR tape without WP_DEC_CBOR_DATES");
                FZ_CHECK(dv != dv || dv == floor(dv), "CBOR DATE ms not an integer: %.17g", dv);
                fz_canon_num(c, 'd', dv);
                if (et) {
                    if (!(fabs(dv) < 4.0e15)) x->skip = 1;
                    else { fz_et_tag(et, WP_E_TAG, 1); fz_et_number(et, dv / 1000.0); }
                }
            } else {
                if (fz_limits[FZ_LIM_EXT] && fz_limits[FZ_LIM_EXT] < 12) x->over_unsure = 1;
                fz_canon_num(c, 'd', dv);
                if (et) {
                    if (dv != dv) fz_et_tag(et, WP_E_BADDATE, 0);
                    else if (fabs(dv) >= 9007199254740992.0) x->skip = 1; /* ms not exact: cannot rebuild */
                    else {
                        FZ_CHECK(dv == floor(dv), "DATE ms not an integer: %.17g", dv);
                        double s = floor(dv / 1000.0);
                        double rem = dv - s * 1000.0;
                        if (rem < 0) { s -= 1; rem += 1000; }
                        if (rem >= 1000) { s += 1; rem -= 1000; }
                        int64_t sec = (int64_t)s;
                        uint32_t ns = (uint32_t)rem * 1000000u;
                        fz_et_tag(et, WP_E_DATE, 0);
                        fz_et_word(et, (uint32_t)(uint64_t)sec);
                        fz_et_word(et, (uint32_t)((uint64_t)sec >> 32));
                        fz_et_word(et, ns);
                    }
                }
            }
            break;
        }
        case WP_T_U64:
        case WP_T_I64:
        case WP_T_N64: {
            FZ_CHECK(x->limit - x->i >= 2, "64-bit entry past the end");
            uint64_t u = (uint64_t)w[x->i] | ((uint64_t)w[x->i + 1] << 32);
            x->i += 2;
            if (tag == WP_T_U64) fz_canon_big(c, 0, u);
            else if (tag == WP_T_I64) fz_canon_big(c, (int64_t)u < 0, (int64_t)u < 0 ? ~u : u);
            else { FZ_CHECK(cbor && u >= 0x8000000000000000ull, "bad N64"); fz_canon_big(c, 1, u); }
            if (et) fz_et_64(et, tag == WP_T_U64 ? WP_E_U64 : tag == WP_T_I64 ? WP_E_I64 : WP_E_N64, u);
            break;
        }
        case WP_T_STRA: {
            uint32_t n = fz_len(x, word);
            FZ_CHECK(n <= d->ascii_len - x->ai, "STRA of %u past the ascii area (%u of %u)", n, x->ai, d->ascii_len);
            const uint8_t *s = d->ascii + x->ai;
            for (uint32_t k = 0; k < n; k++) FZ_CHECK(s[k] < 0x80, "non-ASCII byte in the ascii area");
            x->ai += n;
            fz_lim(x, FZ_LIM_STR, n);
            fz_canon_ascii(c, s, n);
            if (et) { fz_et_len(et, WP_E_STR, n); fz_et_bytes(et, s, n); }
            break;
        }
        case WP_T_STRU: {
            uint32_t n = fz_len(x, word);
            FZ_CHECK(n <= d->utf16_len - x->ui, "STRU of %u past the utf16 area", n);
            const uint16_t *u = d->utf16 + x->ui;
            x->ui += n;
            fz_lim(x, FZ_LIM_STR, n); /* units <= bytes */
            if (fz_limits[FZ_LIM_STR]) x->over_unsure = 1;
            fz_canon_units(c, u, n);
            tmp.len = 0;
            fz_utf16_to_utf8(&tmp, u, n); /* also checks for lone surrogates */
            if (et) { fz_et_len(et, WP_E_STR, (uint32_t)tmp.len); fz_et_bytes(et, tmp.p, (uint32_t)tmp.len); }
            break;
        }
        case WP_T_STR8: {
            /* (WP_DEC_UTF8_HOST) a string that is not ASCII, as its bytes in the input: checked as
             * the host would make it (U+FFFD for ill-formed bytes, as the transcode) */
            uint32_t n = fz_len(x, word);
            FZ_CHECK(d->flags & WP_DEC_UTF8_HOST, "STR8 without WP_DEC_UTF8_HOST");
            FZ_CHECK(x->i < x->limit, "STR8 past the end");
            const uint32_t off = w[x->i++];
            FZ_CHECK(n >= WP_UTF8_HOST_MIN, "STR8 of %u bytes", n);
            FZ_CHECK(off <= d->len && n <= d->len - off, "STR8 %u@%u outside the input (%u)", n, off, d->len);
            const uint8_t *s = d->in + off;
            FZ_CHECK(!wp_is_ascii(s, n), "STR8 of ASCII bytes");
            fz_lim(x, FZ_LIM_STR, n);
            uint16_t *u = malloc((size_t)n * 2u);
            FZ_CHECK(u != NULL, "out of memory");
            const uint32_t units = wp_utf8_to_utf16(s, n, u);
            fz_canon_units(c, u, units);
            tmp.len = 0;
            fz_utf16_to_utf8(&tmp, u, units);
            free(u);
            if (et) { fz_et_len(et, WP_E_STR, (uint32_t)tmp.len); fz_et_bytes(et, tmp.p, (uint32_t)tmp.len); }
            break;
        }
        case WP_T_VSTR: {
            /* a value-cache string: its slot still holds it, with the entry's stamp (a slot an
             * entry of the call names is never written again in that call) */
            const uint32_t slot = p & 1023u, n = p >> 10;
            FZ_CHECK(d->flags & WP_DEC_VCACHE, "VSTR without WP_DEC_VCACHE");
            FZ_CHECK(n >= WP_VC_MIN && n <= WP_VC_MAX, "VSTR of %u bytes", n);
            FZ_CHECK(x->i < x->limit, "VSTR past the end");
            const uint32_t stamp = w[x->i++];
            FZ_CHECK(stamp != 0 && stamp <= tb->vc_next, "VSTR stamp %u (next %u)", stamp, tb->vc_next);
            FZ_CHECK(tb->vc_len[slot] == n && tb->vc_stamp[slot] == stamp, "VSTR slot %u: %u bytes, stamp %u; the entry says %u, %u",
                     slot, tb->vc_len[slot], tb->vc_stamp[slot], n, stamp);
            const uint8_t *s = tb->vc_bytes + slot * WP_VC_MAX;
            for (uint32_t k = 0; k < n; k++) FZ_CHECK(s[k] < 0x80, "non-ASCII byte in a VSTR slot");
            fz_lim(x, FZ_LIM_STR, n);
            fz_canon_ascii(c, s, n);
            if (et) { fz_et_len(et, WP_E_STR, n); fz_et_bytes(et, s, n); }
            break;
        }
        case WP_T_KEY: {
            FZ_CHECK(intern, "KEY with WP_DEC_NO_INTERN");
            FZ_CHECK(p < tb->nkeys, "KEY id %u >= nkeys %u", p, tb->nkeys);
            const uint8_t *s = tb->key_pool + tb->key_off[p];
            uint32_t n = tb->key_len[p];
            FZ_CHECK(n <= WP_KEY_MAX_BYTES);
            fz_lim(x, FZ_LIM_STR, n);
            if (c) { uint32_t u = wp_utf8_to_utf16(s, n, kunits); fz_canon_units(c, kunits, u); }
            if (et) { fz_et_len(et, WP_E_STR, n); fz_et_bytes(et, s, n); }
            break;
        }
        case WP_T_BIN: {
            FZ_CHECK(x->limit - x->i >= 2, "BIN past the end");
            uint32_t n = w[x->i], off = w[x->i + 1];
            x->i += 2;
            FZ_CHECK(off <= d->len && n <= d->len - off, "BIN %u@%u outside the input (%u)", n, off, d->len);
            fz_note_bin(x, off, n);
            fz_lim(x, FZ_LIM_BIN, n);
            if (c) { fz_buf_u8(c, 'Y'); fz_buf_u32(c, n); fz_buf_put(c, d->in + off, n); }
            if (et) { fz_et_len(et, WP_E_BIN, n); fz_et_bytes(et, d->in + off, n); }
            break;
        }
        case WP_T_BINC: {
            FZ_CHECK(cbor && p == WP_LEN_ESCAPE, "bad BINC header");
            uint32_t chunks = fz_len(x, word);
            FZ_CHECK(chunks <= (x->limit - x->i) / 2, "BINC chunks past the end");
            tmp.len = 0;
            for (uint32_t k = 0; k < chunks; k++) {
                uint32_t n = w[x->i], off = w[x->i + 1];
                x->i += 2;
                FZ_CHECK(off <= d->len && n <= d->len - off, "BINC chunk outside the input");
                fz_buf_put(&tmp, d->in + off, n);
            }
            fz_lim(x, FZ_LIM_BIN, (uint32_t)tmp.len);
            if (c) { fz_buf_u8(c, 'Y'); fz_buf_u32(c, (uint32_t)tmp.len); fz_buf_put(c, tmp.p, tmp.len); }
            if (et) { fz_et_len(et, WP_E_BIN, (uint32_t)tmp.len); fz_et_bytes(et, tmp.p, (uint32_t)tmp.len); }
            break;
        }
        case WP_T_EXT: {
            FZ_CHECK(!cbor, "EXT in a CBOR tape");
            FZ_CHECK(x->limit - x->i >= 2, "EXT past the end");
            uint32_t n = w[x->i], off = w[x->i + 1];
            x->i += 2;
            const int rec_keys = top && top->kind == WP_T_RECDEF && top->remaining == 2;
            if (rec_keys) {
                /* keys that are a pointer to keys with a structuredClone id (d6 70 id): C reads
                 * the id (never a hole: the host makes none of a fixext's bytes) */
                FZ_CHECK(p == 0x70 && n == 4 && off + 4u <= d->len, "record keys in an EXT of type %u (length %u)", p, n);
                const uint32_t id = wp_be32(d->in + off);
                uint32_t i = 0;
                while (i < x->nsc && x->sc_id[i] != id) i++;
                FZ_CHECK(i < x->nsc, "record keys: a pointer to id %u, which no keys had", id);
                top->k = x->sc_nk[i];
            }
            FZ_CHECK(p <= 0xff, "EXT type %u", p);
            FZ_CHECK(off <= d->len && n <= d->len - off, "EXT outside the input");
            if (p != 0 && p != 0xff && !rec_keys) fz_note_bin(x, off, n);
            {
                const wp_ext_config *xc = d->ext;
                int raw = xc && fz_bit(xc->raw, p);
                FZ_CHECK(p != 0xff || raw, "timestamp ext left as EXT");
                FZ_CHECK(p != 0 || raw || !xc, "type 0 left as EXT with an extension config (any type 0 is undefined)");
                FZ_CHECK(!xc || !fz_bit(xc->any, p), "prefix type %u left as EXT", p);
                FZ_CHECK(!(p == 0x62 && n >= 4 && (d->flags & WP_DEC_BUNDLES) && !raw), "bundle (ext 0x62 of %u bytes) left as EXT", n);
            }
            fz_lim(x, FZ_LIM_EXT, n);
            if (c) { fz_buf_u8(c, 'X'); fz_buf_u8(c, p); fz_buf_u32(c, n); fz_buf_put(c, d->in + off, n); }
            if (et) { fz_et_tag(et, WP_E_EXT, p); fz_et_word(et, n); fz_et_bytes(et, d->in + off, n); }
            break;
        }
        case WP_T_NUMRUN:
        case WP_T_SCALARRUN: {
            uint32_t n = fz_len(x, word);
            uint32_t a = (x->i + 1) & ~1u;
            FZ_CHECK(n >= 2, "NUMRUN of %u", n);
            if (top && top->kind == WP_T_RECDEF) top->k = n;
            fz_sc_keys(x, fr, sp, n);
            fz_lim(x, FZ_LIM_ARR, n);
            FZ_CHECK(a <= x->limit && n <= (x->limit - a) / 2, "NUMRUN past the end");
            FZ_CHECK(a == x->i || w[x->i] == 0, "NUMRUN pad not zero");
            if (dsp + 1 > x->depth) x->depth = (uint32_t)dsp + 1;
            if (c) { fz_buf_u8(c, 'A'); fz_buf_u32(c, n); }
            if (et) fz_et_len(et, WP_E_ARR, n);
            uint32_t specials = 0;
            for (uint32_t k = 0; k < n; k++) {
                uint32_t lo = w[a + 2 * k], hi = w[a + 2 * k + 1];
                if (tag == WP_T_SCALARRUN && hi == WP_RUN_NAN_HI && lo != 0) {
                    /* null, false, true (CBOR: undefined): as their own entries would be */
                    FZ_CHECK(lo <= WP_RUN_TRUE || (cbor && lo == WP_RUN_UNDEF), "SCALARRUN special %u", lo);
                    specials++;
                    static const char canon[5] = { 0, 'N', 'F', 'T', 'U' };
                    static const uint32_t etag[5] = { 0, WP_E_NIL, WP_E_FALSE, WP_E_TRUE, WP_E_UNDEF };
                    if (c) fz_buf_u8(c, (uint8_t)canon[lo]);
                    if (et) fz_et_tag(et, etag[lo], 0);
                    continue;
                }
                double dv = fz_f64_at(w, a + 2 * k);
                FZ_CHECK(tag != WP_T_SCALARRUN || dv == dv || (lo == 0 && hi == WP_RUN_NAN_HI), "SCALARRUN NaN not canonical");
                fz_canon_num(c, 'D', dv);
                if (et) fz_et_number(et, dv);
            }
            FZ_CHECK(tag == WP_T_NUMRUN ? specials == 0 : specials > 0, "run of tag %u with %u specials", tag, specials);
            x->i = a + 2 * n;
            break;
        }
        case WP_T_ARR:
        case WP_T_MAP:
        case WP_T_OBJ: {
            uint32_t n = fz_len(x, word);
            if (tag == WP_T_OBJ) FZ_CHECK(as_obj, "OBJ without WP_DEC_MAPS_AS_OBJECTS");
            if (tag != WP_T_ARR) FZ_CHECK(n <= 0x7fffffffu, "map of %u pairs", n);
            if (top && top->kind == WP_T_RECDEF) top->k = n;
            if (tag == WP_T_ARR) fz_sc_keys(x, fr, sp, n);
            fz_lim(x, tag == WP_T_ARR ? FZ_LIM_ARR : FZ_LIM_MAP, n);
            if (c) { fz_buf_u8(c, tag == WP_T_ARR ? 'A' : tag == WP_T_MAP ? 'M' : 'O'); fz_buf_u32(c, n); }
            if (et) fz_et_len(et, tag == WP_T_ARR ? WP_E_ARR : WP_E_MAP, n);
            if (dsp + 1 > x->depth) x->depth = (uint32_t)dsp + 1;
            if (n == 0) {
                if (tag == WP_T_MAP) FZ_CHECK(!as_obj, "empty MAP with WP_DEC_MAPS_AS_OBJECTS");
                break;
            }
            FZ_PUSH({ tag == WP_T_ARR ? n : 2 * n, tag, 0, 0, 1, 0, 0 });
            dsp++;
            container = 1;
            break;
        }
        case WP_T_SHAPED: {
            FZ_CHECK(as_obj && intern, "SHAPED without objects and interning");
            FZ_CHECK(p < tb->nshapes, "SHAPED id %u >= nshapes %u", p, tb->nshapes);
            uint32_t n = tb->shape_len[p];
            FZ_CHECK(n <= WP_SHAPE_MAX_KEYS);
            fz_lim(x, FZ_LIM_MAP, n);
            if (c) { fz_buf_u8(c, 'O'); fz_buf_u32(c, n); }
            if (et) fz_et_len(et, WP_E_MAP, n);
            if (dsp + 1 > x->depth) x->depth = (uint32_t)dsp + 1;
            if (n == 0) break;
            FZ_PUSH({ 2 * n, WP_T_SHAPED, p, 0, 1, 0, 0 });
            dsp++;
            container = 1;
            break;
        }
        case WP_T_TAG: {
            FZ_CHECK(cbor, "TAG in a MessagePack tape");
            uint64_t tv = p;
            if (p == WP_LEN_ESCAPE) {
                FZ_CHECK(x->limit - x->i >= 2, "TAG past the end");
                tv = (uint64_t)w[x->i] | ((uint64_t)w[x->i + 1] << 32);
                x->i += 2;
                FZ_CHECK(tv >= WP_LEN_ESCAPE, "escaped tag %llu", (unsigned long long)tv);
            }
            if (c) { fz_buf_u8(c, 'G'); fz_buf_u64(c, tv); }
            /* tags from 2^64 - 3 * 2^16 up are the decoder's own markers around cbor-x record
             * definitions, packed tables and bundles: a rebuild cannot express them */
            if (tv >= 0xfffffffffffd0000ull) x->skip = 1;
            /* cbor-x's bundle tag over an array that was no bundle (its first element no unsigned
             * integer) stays a tag; its rebuild may be one: an integral float or a small bignum
             * there comes back as an unsigned integer (values are JS numbers), which makes the
             * rebuilt tag a bundle whose offset points anywhere (found by fuzz_roundtrip:
             * d9dff9 84 60 40 01 d9dff9 84 f95d84 40 40 00, where 353.0 became 353). Over
             * anything but an array it rebuilds as it was. The same holds for cbor-x's record
             * definition tag (0xdfff over [id, keys, ...values]), whose id an integral float
             * becomes (d91cf9 84 60 40 01 d9dfff 84 f95d84 40 40 00). */
            if ((tv == 0xdff9u || tv == 0xdfffu) && x->i < x->limit) {
                const uint32_t k = w[x->i] & 0xffu;
                if (k == WP_T_ARR || k == WP_T_NUMRUN || k == WP_T_SCALARRUN) x->skip = 1;
            }
            /* the bundle marker: a bundle is open for the rest of this value (cb_bundle), and
             * its [s0, s1, offset] are not values (nolim, set below with its frame) */
            const int bundle_marker = tv == 0xfffffffffffd0000ull;
            if (bundle_marker) x->cb_bundle = 1;
            if (bundle_marker || tv == 0xdff9u) x->bundles_met = 1;
            if (tv == 51) x->cb_packed = 1;
            /* in a bundle, tags 14 and 15 over an unsigned integer are strings of that many units */
            if (x->cb_bundle && (tv == 14 || tv == 15) && x->i < x->limit) {
                uint32_t nw = w[x->i], nt = nw & 0xffu;
                if (nt == WP_T_INT && !(nw & 0x80000000u)) fz_lim(x, FZ_LIM_STR, nw >> 8);
                else if (nt == WP_T_U32 && x->i + 1 < x->limit) fz_lim(x, FZ_LIM_STR, w[x->i + 1]);
                else if (nt == WP_T_U64 && x->i + 2 < x->limit) fz_lim(x, FZ_LIM_STR, w[x->i + 2] ? UINT32_MAX : w[x->i + 1]);
            }
            if (et) {
                if (tv < WP_LEN_ESCAPE) fz_et_tag(et, WP_E_TAG, (uint32_t)tv);
                else { fz_et_tag(et, WP_E_TAG, WP_LEN_ESCAPE); fz_et_word(et, (uint32_t)tv); fz_et_word(et, (uint32_t)(tv >> 32)); }
            }
            if (dsp + 1 > x->depth) x->depth = (uint32_t)dsp + 1;
            FZ_PUSH({ 1, WP_T_TAG, 0, 0, 1, 0, 0 });
            if (bundle_marker && !x->nolim) x->nolim = (uint32_t)sp;
            dsp++;
            container = 1;
            break;
        }
        case WP_T_SIMPLE:
            FZ_CHECK(cbor, "SIMPLE in a MessagePack tape");
            FZ_CHECK(p < 20 || (p >= 32 && p <= 255), "SIMPLE %u", p);
            if (c) { fz_buf_u8(c, 's'); fz_buf_u8(c, p); }
            if (et) fz_et_tag(et, WP_E_SIMPLE, p);
            break;
        case WP_T_RECDEF: {
            FZ_CHECK(!cbor && x->recs, "RECDEF without a record table");
            uint32_t slot = p & 0xfffffu, hb = (p & WP_RECDEF_HB0) != 0;
            FZ_CHECK((p & ~(0xfffffu | WP_RECDEF_HB0)) == 0 && slot < WP_REC_SLOTS, "RECDEF payload %x", p);
            FZ_CHECK(x->i < x->limit, "RECDEF past the end");
            uint32_t def_at = w[x->i++];
            FZ_CHECK(def_at + 4u <= x->d->len, "RECDEF offset %u (input %u bytes)", def_at, x->d->len);
            /* d4 72 id (one byte) or d5 72 id high: an extension of 1 or 2 bytes */
            fz_lim(x, FZ_LIM_EXT, (hb || slot >= 64) ? 2 : 1);
            if (c) { fz_buf_u8(c, 'r'); fz_buf_u32(c, slot); }
            if (et) x->skip = 1;
            if (dsp + 1 > x->depth) x->depth = (uint32_t)dsp + 1;
            FZ_PUSH({ 2, WP_T_RECDEF, slot, 0, 1, 0, hb });
            dsp++;
            container = 1;
            break;
        }
        case WP_T_RECDEFS: {
            /* a definition whose keys are an interned shape: the shape id, then the REC entry */
            FZ_CHECK(!cbor && x->recs, "RECDEFS without a record table");
            FZ_CHECK(intern, "RECDEFS with WP_DEC_NO_INTERN");
            uint32_t slot = p & 0xfffffu, hb = (p & WP_RECDEF_HB0) != 0;
            FZ_CHECK((p & ~(0xfffffu | WP_RECDEF_HB0)) == 0 && slot < WP_REC_SLOTS, "RECDEFS payload %x", p);
            FZ_CHECK(x->i < x->limit, "RECDEFS past the end");
            uint32_t sid = w[x->i++];
            FZ_CHECK(sid < tb->nshapes, "RECDEFS shape %u >= nshapes %u", sid, tb->nshapes);
            uint32_t nk = tb->shape_len[sid];
            FZ_CHECK(nk >= 1 && nk <= WP_SHAPE_MAX_KEYS, "RECDEFS shape of %u keys", nk);
            fz_lim(x, FZ_LIM_EXT, (hb || slot >= 64) ? 2 : 1);
            fz_lim(x, FZ_LIM_ARR, nk);
            for (uint32_t k = 0; k < nk; k++) fz_lim(x, FZ_LIM_STR, tb->key_len[tb->shape_pool[tb->shape_off[sid] + k]]);
            if (c) { fz_buf_u8(c, 'r'); fz_buf_u32(c, slot); fz_buf_u32(c, nk); }
            if (et) x->skip = 1;
            if (dsp + 1 > x->depth) x->depth = (uint32_t)dsp + 1;
            FZ_PUSH({ 1, WP_T_RECDEF, slot, nk, 1, 0, hb });
            dsp++;
            container = 1;
            break;
        }
        case WP_T_CREC: {
            /* a CBOR record defined where it appears, its keys interned (WP_DEC_CBOR_RECS): the
             * shape id, then one value per key (in the input: a tag and its array, two levels) */
            FZ_CHECK(cbor && (d->flags & WP_DEC_CBOR_RECS), "CREC without WP_DEC_CBOR_RECS");
            FZ_CHECK(intern, "CREC with WP_DEC_NO_INTERN");
            FZ_CHECK(p < 8192u, "CREC id %u", p);
            FZ_CHECK(x->i < x->limit, "CREC past the end");
            uint32_t sid = w[x->i++];
            FZ_CHECK(sid < tb->nshapes, "CREC shape %u >= nshapes %u", sid, tb->nshapes);
            uint32_t nk = tb->shape_len[sid];
            FZ_CHECK(nk >= 1 && nk <= WP_SHAPE_MAX_KEYS, "CREC shape of %u keys", nk);
            fz_lim(x, FZ_LIM_ARR, nk + 2u);
            for (uint32_t k = 0; k < nk; k++) fz_lim(x, FZ_LIM_STR, tb->key_len[tb->shape_pool[tb->shape_off[sid] + k]]);
            if (c) { fz_buf_u8(c, 'c'); fz_buf_u32(c, p); fz_buf_u32(c, nk); }
            if (et) x->skip = 1;
            if (dsp + 2 > x->depth) x->depth = (uint32_t)dsp + 2;
            FZ_PUSH({ nk, WP_T_REC, p, 0, 1, 0, 0 });
            dsp++;
            container = 1;
            break;
        }
        case WP_T_REC: {
            FZ_CHECK(!cbor && x->recs, "REC without a record table");
            FZ_CHECK(p < WP_REC_SLOTS, "REC slot %u", p);
            if (c) { fz_buf_u8(c, 'R'); fz_buf_u32(c, p); }
            if (et) x->skip = 1;
            if (top && top->kind == WP_T_RECDEF && top->remaining == 1) {
                /* the definition: its keys are read; the record follows in the same level */
                x->recs[p] = (top->k + 1u) | (top->hb ? WP_REC_HB0 : 0u);
                top->kind = WP_T_REC; /* no fields: completes now (remaining 1) */
                if (top->k) {
                    top->remaining = top->k;
                    container = 1;
                }
                break;
            }
            uint32_t e = x->recs[p];
            FZ_CHECK(e != 0, "REC of undefined slot %u (word %u)", p, at);
            uint32_t nf = (e & ~WP_REC_HB0) - 1u;
            if (nf == 0) break;
            if (dsp + 1 > x->depth) x->depth = (uint32_t)dsp + 1;
            FZ_PUSH({ nf, WP_T_REC, p, 0, 1, 0, 0 });
            dsp++;
            container = 1;
            break;
        }
        case WP_T_EXTP: {
            FZ_CHECK(!cbor && d->ext, "EXTP without an extension config");
            FZ_CHECK(x->limit - x->i >= 2, "EXTP past the end");
            uint32_t n = w[x->i], off = w[x->i + 1];
            x->i += 2;
            const int rec_keys = top && top->kind == WP_T_RECDEF && top->remaining == 2;
            if (rec_keys) {
                /* a record's keys with a structuredClone id (d6 69 id, which C reads): the array
                 * comes next */
                FZ_CHECK(p == 0x69 && n == 4 && off + 4u <= d->len, "record keys in an EXTP of type %u (length %u)", p, n);
                x->sc_open = 1;
                x->sc_pending = wp_be32(d->in + off);
            } else if (p == 0x69 && n == 4 && d->records && off + 4u <= d->len) {
                /* an id given to any other value: its count when that value (read from its
                 * head in the input) is an array, else none */
                const uint32_t q = off + 4u;
                uint32_t nk = UINT32_MAX;
                if (q < d->len) {
                    const uint32_t a = d->in[q], left = d->len - q;
                    if (a >= 0x90 && a <= 0x9f) nk = a & 0x0fu;
                    else if (a == 0xdc && left >= 3) nk = wp_be16(d->in + q + 1);
                    else if (a == 0xdd && left >= 5) nk = wp_be32(d->in + q + 1);
                }
                fz_sc_set(x, wp_be32(d->in + off), nk);
            }
            FZ_CHECK(p <= 0xff, "EXTP type %u", p);
            FZ_CHECK(fz_bit(d->ext->any, p) || (fz_bit(d->ext->fix1, p) && n == 1), "EXTP of type %u (length %u) not prefix", p, n);
            FZ_CHECK(off <= d->len && n <= d->len - off, "EXTP outside the input");
            /* (C reads a structured-clone id with records on: no hole) */
            if (p != 0 && p != 0xff && !rec_keys && !(p == 0x69 && n == 4 && d->records)) fz_note_bin(x, off, n);
            fz_lim(x, FZ_LIM_EXT, n);
            if (c) { fz_buf_u8(c, 'P'); fz_buf_u8(c, p); fz_buf_u32(c, n); fz_buf_put(c, d->in + off, n); }
            if (et) x->skip = 1;
            FZ_PUSH({ 1, WP_T_EXTP, 0, 0, 1, (uint32_t)is_key, 0 });
            container = 1;
            break;
        }
        case WP_T_BUNDLE: {
            FZ_CHECK(!cbor && (d->flags & WP_DEC_BUNDLES), "BUNDLE without WP_DEC_BUNDLES");
            /* an extension of 4 or more bytes */
            if (fz_limits[FZ_LIM_EXT]) x->over_unsure = 1;
            if (c) fz_buf_u8(c, 'W');
            if (et) x->skip = 1;
            x->bundle_on = 1;
            x->bundles_met = 1;
            x->bu1 = x->bu2 = x->bp1 = x->bp2 = 0;
            FZ_PUSH({ 3, WP_T_BUNDLE, 0, 0, 1, (uint32_t)is_key, 0 });
            container = 1;
            break;
        }
        case WP_T_BREF: {
            FZ_CHECK(!cbor && x->bundle_on, "BREF without a bundle (word %u)", at);
            int32_t n = (int32_t)(p << 8) >> 8;
            FZ_CHECK(x->i < x->limit, "BREF past the end");
            uint32_t at0 = w[x->i++];
            /* string 2 is taken in order (keys from it are KEY entries: they move its start on
             * without a BREF); string 1 only by BREF entries */
            if (n > 0) {
                FZ_CHECK(at0 >= x->bp2 && at0 <= x->bu2 && (uint32_t)n <= x->bu2 - at0, "BREF %d at %u past bundle string 2 (%u used of %u)", n, at0, x->bp2, x->bu2);
                x->bp2 = at0 + (uint32_t)n;
            } else {
                FZ_CHECK(at0 == x->bp1 && (uint32_t)-n <= x->bu1 - at0, "BREF %d at %u past bundle string 1 (%u used of %u)", n, at0, x->bp1, x->bu1);
                x->bp1 = at0 + (uint32_t)-n;
            }
            if (c) { fz_buf_u8(c, 'w'); fz_buf_u32(c, (uint32_t)n); }
            if (et) x->skip = 1;
            break;
        }
        default:
            FZ_CHECK(0, "unknown tape tag %u at word %u", tag, at);
        }
        /* the two strings of a bundle: their lengths in UTF-16 units */
        if (sp0 && sp0 == sp && fr[sp0 - 1].kind == WP_T_BUNDLE && fr[sp0 - 1].remaining >= 2) {
            uint32_t units = (x->ai - ai0) + (x->ui - ui0);
            if (fr[sp0 - 1].remaining == 3) x->bu1 = units; else x->bu2 = units;
        }
        if (container) continue;
        /* an item is complete: close the containers it completes */
        while (sp) {
            fz_wframe *f = &fr[sp - 1];
            if (--f->remaining) break;
            if (f->kind == WP_T_MAP && as_obj) FZ_CHECK(!f->all_str, "MAP whose keys are all strings, with objects on");
            if (f->kind == WP_T_SHAPED) FZ_CHECK(f->k == fz_tables.shape_len[f->sid]);
            FZ_CHECK(f->kind != WP_T_RECDEF, "record definition of slot %u ends without its REC entry", f->sid);
            if (fz_counts(f->kind)) dsp--;
            if (x->nolim == sp) x->nolim = 0;
            sp--;
        }
        if (sp == 0) {
            v++;
            x->bundle_on = 0;
            x->cb_bundle = 0;
        }
    }
    FZ_CHECK(x->depth <= max_depth, "nesting %u deeper than max_depth %u", x->depth, max_depth);
    free(fr);
    free(x->recs);
    x->recs = 0;
    fz_buf_free(&tmp);
}
#undef FZ_PUSH

/* ------------------------------------------------------------------ decode invariants */

static inline int fz_err_allowed(int fmt, wp_err e, uint32_t flags) {
    switch (e) {
    case WP_OK: case WP_ERR_TRUNCATED: case WP_ERR_TRAILING_DATA: case WP_ERR_DEPTH: case WP_ERR_LIMIT:
        return 1;
    case WP_ERR_BAD_RECORD:
        return fmt == FZ_MSGPACK && fz_recs_on;
    case WP_ERR_UNKNOWN_RECORD:
        return fmt == FZ_MSGPACK && fz_recs_on;
    case WP_ERR_BAD_BUNDLE:
        /* MessagePack: with bundles on; CBOR: cbor-x's bundles (tag 0xdff9) are always read */
        return fmt == FZ_CBOR || (flags & WP_DEC_BUNDLES);
    case WP_ERR_RESERVED_BYTE:
        /* (0xc1 is MessagePack's only reserved byte: undefined with WP_DEC_MP_C1_UNDEFINED) */
        return fmt == FZ_MSGPACK && !(flags & WP_DEC_MP_C1_UNDEFINED);
    case WP_ERR_BAD_TIMESTAMP:
        return fmt == FZ_MSGPACK;
    case WP_ERR_BAD_KEY:
        return fmt == FZ_MSGPACK && (flags & WP_DEC_MP_STRICT_KEYS);
    case WP_ERR_RESERVED_AI: case WP_ERR_BREAK: case WP_ERR_BAD_CHUNK: case WP_ERR_BAD_SIMPLE:
    case WP_ERR_RESERVED_TAG:
        return fmt == FZ_CBOR;
    default:
        return 0;
    }
}

static inline const char *fz_fmt_name(int fmt) { return fmt == FZ_CBOR ? "cbor" : "msgpack"; }

/*
 * One decode of in[0..len) with every invariant checked:
 *  - the result is WP_OK or an error code the format defines (never TAPE_FULL with the public
 *    bounds), and d->err agrees; offsets, lengths and depth within their caps;
 *  - OK: the whole input is consumed, nvalues is 1 (or >= 1 with WP_DEC_MULTIPLE), and the tape
 *    walks cleanly: exactly tape_len words, ascii_len bytes and utf16_len units;
 *  - error: nvalues is 0 and the tables are as before the call, or (a complete value before the
 *    error: WP_DEC_MULTIPLE or TRAILING_DATA) the complete values walk cleanly, and decoding
 *    just in[0..end) again succeeds, adds no key or shape, and gives the same tape words;
 *  - decoding the same input again (the tables now hold its keys) gives the same result, the
 *    same tape and adds nothing (idempotence; catches broken probe chains after rollbacks);
 *  - the same input with the other map/intern/f32 flags fails or succeeds the same way, at the
 *    same offset;
 *  - with policy limits (fz_limits): no item on the tape is above one, and without the limits the
 *    result is the same (same tape), unless the result was LIMIT: then, if the input decodes
 *    without limits, some item is above a limit.
 * Returns the result; x keeps the decode (the caller frees it).
 */
/* The canonical values of the first nvalues values of a decode (read at once: with
 * WP_DEC_VCACHE, the bytes of VSTR entries are in slots the next call may write). */
static inline void fz_canon_of(const fz_dec *y, int fmt, uint32_t nvalues, fz_buf *out) {
    fz_walk w = { 0 };
    w.d = &y->d;
    w.fmt = fmt;
    w.limit = y->d.tape_len;
    w.canon = out;
    fz_walk_values(&w, nvalues, y->eff_depth);
}

/* Whether decode y gives the values the first one did: its tape's first `words` words are the
 * same, or with WP_DEC_VCACHE (where strings seen again become VSTR entries, or the other way
 * round once the cache turns itself off) the same canonical values (c0: the first one's). */
static inline int fz_same_values(const fz_dec *y, const wp_decoder *d, uint32_t words, int fmt, uint32_t flags,
                                 const fz_buf *c0) {
    if (!(flags & WP_DEC_VCACHE)) return y->d.tape_len >= words && memcmp(y->d.tape, d->tape, (size_t)words * 4) == 0;
    fz_buf c1 = { 0 };
    fz_canon_of(y, fmt, y->d.nvalues, &c1);
    int same = c1.len == c0->len && (c1.len == 0 || memcmp(c1.p, c0->p, c1.len) == 0);
    fz_buf_free(&c1);
    return same;
}

/* Holes (wirepack.h, wp_decoder.holes), after an OK decode x of in[0..len): its binaries' bytes
 * (BIN entries, and EXT and EXTP but of types 0 and -1) left out (changed in the copy decoded,
 * so that reading them would show) give the same values, or WP_ERR_HOLE exactly when a bundle
 * was met; so does a subset of them. Holes that are not exactly binaries (one moved, one made
 * longer, one where no binary is; the choice from len) give an error or, where C met none of
 * their bytes, the same values: never others. The holes' bytes are put back in the copy before
 * the values are compared (BIN entries canonicalize as their bytes). */
#define FZ_HOLES_MAX 64u
static inline void fz_holes_decode(const fz_dec *x, int fmt, const uint8_t *in, uint32_t len, uint32_t flags,
                                   uint32_t max_depth, const fz_buf *c0, const uint32_t *holes, uint32_t nh, int must,
                                   int bundles) {
    uint8_t *g = (uint8_t *)malloc(len ? len : 1);
    if (!g) abort();
    if (len) memcpy(g, in, len);
    for (uint32_t k = 0; k < nh; k++)
        for (uint32_t j = holes[2 * k]; j < holes[2 * k] + holes[2 * k + 1] && j < len; j++) g[j] ^= 0x5a;
    fz_holes = holes;
    fz_nholes = nh;
    fz_dec y;
    wp_err r2 = fz_decode(&y, fmt, g, len, flags, max_depth);
    fz_holes = NULL;
    fz_nholes = 0;
    const char *fn = fz_fmt_name(fmt);
    if (must) FZ_CHECK(bundles ? r2 == WP_ERR_HOLE : r2 == WP_OK, "%s: with its binaries as holes (%s): %s@%u", fn,
                       bundles ? "bundles" : "no bundle", wp_err_name(r2), y.d.err.offset);
    if (r2 == WP_OK) {
        FZ_CHECK(y.d.holes_seen == nh && y.d.nvalues == x->d.nvalues && y.d.end == x->d.end);
        if (len) memcpy(y.in, in, len); /* (the bytes back, for the BIN entries' values) */
        FZ_CHECK(((flags & WP_DEC_VCACHE) || y.d.tape_len == x->d.tape_len) && fz_same_values(&y, &x->d, x->d.tape_len, fmt, flags, c0),
                 "%s: OK with %u holes but other values (first hole %u+%u)", fn, nh, holes[0], holes[1]);
    } else if (r2 == WP_ERR_HOLE) {
        FZ_CHECK(y.d.nvalues == 0 || (flags & WP_DEC_MULTIPLE) || y.d.nvalues == 1);
    }
    fz_dec_free(&y);
    free(g);
}

static inline void fz_check_holes(const fz_dec *x, int fmt, const uint8_t *in, uint32_t len, uint32_t flags,
                                  uint32_t max_depth, const fz_buf *c0, const fz_walk *w) {
    /* (w: the first walk of x's tape, which collected its BIN entries; walked again after other
     * decodes, VSTR entries would name value cache slots those wrote) */
    const uint32_t *bins = w->bins;
    uint32_t holes[2 * FZ_HOLES_MAX + 2], nh = 0;
    for (uint32_t k = 0; k < w->nbins; k++) {
        if (bins[2 * k + 1] == 0) continue;
        /* (in input order, apart) */
        FZ_CHECK(nh == 0 || bins[2 * k] >= holes[2 * nh - 2] + holes[2 * nh - 1], "BIN entries out of input order");
        holes[2 * nh] = bins[2 * k];
        holes[2 * nh + 1] = bins[2 * k + 1];
        nh++;
    }
    if (nh == 0) return;
    fz_holes_decode(x, fmt, in, len, flags, max_depth, c0, holes, nh, 1, w->bundles_met);
    /* every other binary */
    uint32_t sub[2 * FZ_HOLES_MAX], ns = 0;
    for (uint32_t k = len & 1u; k < nh; k += 2) { sub[2 * ns] = holes[2 * k]; sub[2 * ns + 1] = holes[2 * k + 1]; ns++; }
    if (ns) fz_holes_decode(x, fmt, in, len, flags, max_depth, c0, sub, ns, 1, w->bundles_met);
    /* one hole wrong */
    uint32_t k = (len >> 1) % nh;
    uint32_t o = holes[2 * k], n = holes[2 * k + 1];
    switch ((len >> 2) & 3u) {
    case 0: if (n > 1) { holes[2 * k] = o + 1; holes[2 * k + 1] = n - 1; } break;
    case 1: if (o + n < len && (k + 1 == nh || o + n < holes[2 * k + 2])) holes[2 * k + 1] = n + 1; break;
    case 2: if (n > 1) holes[2 * k + 1] = n - 1; break;
    default: {
        /* one byte that is no binary's, added in order */
        uint32_t p = (len * 7u + 3u) % len, at = 0;
        while (at < nh && holes[2 * at] + holes[2 * at + 1] <= p) at++;
        if (at < nh && holes[2 * at] <= p) break; /* (inside a binary) */
        memmove(holes + 2 * at + 2, holes + 2 * at, (size_t)(nh - at) * 8);
        holes[2 * at] = p;
        holes[2 * at + 1] = 1;
        nh++;
        break;
    }
    }
    fz_holes_decode(x, fmt, in, len, flags, max_depth, c0, holes, nh, 0, w->bundles_met);
}

static inline wp_err fz_check_decode(fz_dec *x, int fmt, const uint8_t *in, uint32_t len, uint32_t flags, uint32_t max_depth) {
    wp_tables *tb = &fz_tables;
    uint32_t k0 = tb->nkeys, s0 = tb->nshapes;
    wp_err rc = fz_decode(x, fmt, in, len, flags, max_depth);
    const wp_decoder *d = &x->d;
    const char *fn = fz_fmt_name(fmt);
    FZ_CHECK(fz_err_allowed(fmt, rc, flags), "%s: result %s (%d)", fn, wp_err_name(rc), (int)rc);
    FZ_CHECK(d->err.code == rc);
    FZ_CHECK(d->tape_len <= d->tape_cap, "tape_len %u > cap %u", d->tape_len, d->tape_cap);
    FZ_CHECK(d->ascii_len <= d->ascii_cap && d->utf16_len <= d->utf16_cap);
    FZ_CHECK(d->end <= len && d->err.offset <= len, "end %u offset %u len %u", d->end, d->err.offset, len);
    FZ_CHECK(d->depth_seen <= x->eff_depth, "depth_seen %u > %u", d->depth_seen, x->eff_depth);
    FZ_CHECK(d->keys_before == k0 && d->shapes_before == s0);
    FZ_CHECK(tb->nkeys >= k0 && tb->nshapes >= s0, "ids below the call's start were removed");
    FZ_CHECK(tb->nkeys <= WP_MAX_KEYS && tb->nshapes <= WP_MAX_SHAPES);
    if ((flags & WP_DEC_NO_INTERN)) FZ_CHECK(tb->nkeys == k0 && tb->nshapes == s0, "NO_INTERN interned");

    fz_walk wk = { 0 };
    fz_buf c0 = { 0 }; /* (with WP_DEC_VCACHE: the values, for the decodes below) */
    wk.d = d;
    wk.fmt = fmt;
    wk.limit = d->tape_len;
    if (flags & WP_DEC_VCACHE) wk.canon = &c0;
    uint32_t bins[2 * FZ_HOLES_MAX];
    wk.bins = bins;
    wk.bins_cap = FZ_HOLES_MAX;
    if (rc == WP_OK) {
        FZ_CHECK(d->end == len, "OK but end %u != len %u", d->end, len);
        FZ_CHECK(d->nvalues >= 1);
        if (!(flags & WP_DEC_MULTIPLE)) FZ_CHECK(d->nvalues == 1, "nvalues %u", d->nvalues);
        fz_walk_values(&wk, d->nvalues, x->eff_depth);
        FZ_CHECK(wk.i == d->tape_len, "tape walk ends at %u of %u", wk.i, d->tape_len);
        FZ_CHECK(wk.ai == d->ascii_len && wk.ui == d->utf16_len, "areas: ascii %u/%u utf16 %u/%u",
                 wk.ai, d->ascii_len, wk.ui, d->utf16_len);
        FZ_CHECK(!wk.over, "%s: OK with an item above a policy limit", fn);
    } else if (d->nvalues == 0) {
        FZ_CHECK(tb->nkeys == k0 && tb->nshapes == s0, "%s %s with no complete value: keys %u->%u shapes %u->%u",
                 fn, wp_err_name(rc), k0, tb->nkeys, s0, tb->nshapes);
        FZ_CHECK(d->end == 0);
    } else {
        FZ_CHECK((flags & WP_DEC_MULTIPLE) || (rc == WP_ERR_TRAILING_DATA && d->nvalues == 1),
                 "%s with %u values without WP_DEC_MULTIPLE", wp_err_name(rc), d->nvalues);
        FZ_CHECK(d->end > 0 && d->end <= len);
        fz_walk_values(&wk, d->nvalues, x->eff_depth);
        FZ_CHECK(wk.ai <= d->ascii_len && wk.ui <= d->utf16_len);
        FZ_CHECK(!wk.over, "%s: a complete value with an item above a policy limit", fn);
        /* the complete values alone: same tape, nothing new in the tables */
        uint32_t k1 = tb->nkeys, s1 = tb->nshapes;
        uint8_t *pre = (uint8_t *)malloc(d->end);
        memcpy(pre, in, d->end);
        fz_dec y;
        wp_err r2 = fz_decode(&y, fmt, pre, d->end, flags | (d->nvalues > 1 ? WP_DEC_MULTIPLE : 0), max_depth);
        FZ_CHECK(r2 == WP_OK, "%s: prefix [0,%u) of a failed call gives %s", fn, d->end, wp_err_name(r2));
        FZ_CHECK(y.d.nvalues == d->nvalues, "prefix values %u vs %u", y.d.nvalues, d->nvalues);
        FZ_CHECK(tb->nkeys == k1 && tb->nshapes == s1, "%s: the prefix of a failed call added ids: keys %u->%u shapes %u->%u",
                 fn, k1, tb->nkeys, s1, tb->nshapes);
        if (x->eff_depth == y.eff_depth) {
            if (!(flags & WP_DEC_VCACHE)) FZ_CHECK(y.d.tape_len == wk.i, "prefix tape %u words vs %u", y.d.tape_len, wk.i);
            FZ_CHECK(fz_same_values(&y, d, wk.i, fmt, flags, &c0), "prefix tape differs");
        }
        fz_dec_free(&y);
        free(pre);
    }

    /* idempotence: again, with the tables as this call left them */
    {
        uint32_t k1 = tb->nkeys, s1 = tb->nshapes;
        fz_dec y;
        wp_err r2 = fz_decode(&y, fmt, in, len, flags, max_depth);
        FZ_CHECK(r2 == rc && y.d.err.offset == d->err.offset, "%s: second decode %s@%u vs %s@%u", fn,
                 wp_err_name(r2), y.d.err.offset, wp_err_name(rc), d->err.offset);
        FZ_CHECK(tb->nkeys == k1 && tb->nshapes == s1, "%s: second decode added ids: keys %u->%u shapes %u->%u",
                 fn, k1, tb->nkeys, s1, tb->nshapes);
        FZ_CHECK(y.d.nvalues == d->nvalues && y.d.end == d->end);
        if (rc == WP_OK) {
            FZ_CHECK((flags & WP_DEC_VCACHE) || y.d.tape_len == d->tape_len, "%s: second decode gives another tape", fn);
            FZ_CHECK(fz_same_values(&y, d, d->tape_len, fmt, flags, &c0), "%s: second decode gives another tape", fn);
            FZ_CHECK((flags & WP_DEC_VCACHE) || y.d.ascii_len == d->ascii_len);
            FZ_CHECK(y.d.utf16_len == d->utf16_len);
        }
        fz_dec_free(&y);
    }

    if (rc == WP_OK) fz_check_holes(x, fmt, in, len, flags, max_depth, &c0, &wk);

    /* limits: without them, the same outcome, or they were the reason (LIMIT) */
    if (fz_any_limit()) {
        uint32_t saved[FZ_NLIM];
        memcpy(saved, fz_limits, sizeof saved);
        memset(fz_limits, 0, sizeof fz_limits);
        fz_dec y;
        wp_err r2 = fz_decode(&y, fmt, in, len, flags, max_depth);
        memcpy(fz_limits, saved, sizeof saved);
        if (rc != WP_ERR_LIMIT) {
            FZ_CHECK(r2 == rc && y.d.err.offset == d->err.offset && y.d.nvalues == d->nvalues,
                     "%s: with limits %s@%u, without %s@%u", fn, wp_err_name(rc), d->err.offset, wp_err_name(r2), y.d.err.offset);
            if (rc == WP_OK)
                FZ_CHECK(((flags & WP_DEC_VCACHE) || y.d.tape_len == d->tape_len) && fz_same_values(&y, d, d->tape_len, fmt, flags, &c0),
                         "%s: limits that did not apply changed the tape", fn);
        } else {
            FZ_CHECK(r2 != WP_ERR_LIMIT);
            FZ_CHECK(y.d.nvalues >= d->nvalues, "%s: LIMIT after %u values, %u without limits", fn, d->nvalues, y.d.nvalues);
            if (r2 == WP_OK) {
                /* some item of the full decode must be above a limit */
                fz_walk w2 = { 0 };
                w2.d = &y.d;
                w2.fmt = fmt;
                w2.limit = y.d.tape_len;
                fz_walk_values(&w2, y.d.nvalues, y.eff_depth);
                FZ_CHECK(w2.over || w2.over_unsure, "%s: LIMIT at %u, but no item is above a limit", fn, d->err.offset);
            }
        }
        fz_dec_free(&y);
    }

    /* the other flags: same outcome */
    {
        uint32_t k1 = tb->nkeys, s1 = tb->nshapes;
        uint32_t f2 = flags ^ (WP_DEC_MAPS_AS_OBJECTS | WP_DEC_NO_INTERN | WP_DEC_TAG_F32 | (fmt == FZ_CBOR ? WP_DEC_CBOR_DATES | WP_DEC_CBOR_RECS : 0u));
        fz_dec y;
        wp_err r2 = fz_decode(&y, fmt, in, len, f2, max_depth);
        FZ_CHECK(r2 == rc && y.d.err.offset == d->err.offset && y.d.nvalues == d->nvalues && y.d.end == d->end,
                 "%s: flags %x give %s@%u, flags %x give %s@%u", fn, flags, wp_err_name(rc), d->err.offset, f2,
                 wp_err_name(r2), y.d.err.offset);
        if (r2 == WP_OK) {
            fz_walk w2 = { 0 };
            w2.d = &y.d;
            w2.fmt = fmt;
            w2.limit = y.d.tape_len;
            fz_walk_values(&w2, y.d.nvalues, y.eff_depth);
            FZ_CHECK(w2.i == y.d.tape_len && w2.ai == y.d.ascii_len && w2.ui == y.d.utf16_len);
        }
        if (r2 != WP_OK && y.d.nvalues == 0) FZ_CHECK(tb->nkeys == k1 && tb->nshapes == s1);
        fz_dec_free(&y);
    }
    fz_buf_free(&c0);
    return rc;
}

/* ------------------------------------------------------------------ deterministic CBOR checks */

static inline int fz_f16_exact_of_double(double v) {
    float f = (float)v;
    if ((double)f != v) return 0;
    uint32_t b;
    memcpy(&b, &f, 4);
    uint32_t exp = (b >> 23) & 0xff, man = b & 0x7fffff;
    if (exp == 0) return man == 0;
    int e = (int)exp - 127;
    if (e > 15 || e < -24) return 0;
    if (e >= -14) return (man & 0x1fff) == 0;
    uint32_t full = 0x800000u | man, s = (uint32_t)(-(e + 1));
    return (full & ((1u << s) - 1)) == 0;
}

static inline double fz_half(uint32_t h) {
    uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    double v = exp == 0 ? ldexp(man, -24) : exp == 31 ? (man ? NAN : INFINITY) : ldexp(man | 0x400, (int)exp - 25);
    return (h & 0x8000) ? -v : v;
}

/* Check that out[*pos..] starts with one item in RFC 8949 4.2.1 deterministic form (shortest
 * heads, definite lengths, shortest floats with NaN as f97e00, map keys in increasing bytewise
 * order); advances *pos. Iterative with an explicit stack (depth is input-driven). */
static inline void fz_cbor_check_det(const uint8_t *out, uint32_t len, uint32_t *pos) {
    typedef struct { uint32_t remaining, map, prev_start, prev_len, key_start; } fr_t;
    size_t cap = 64, sp = 0;
    fr_t *fr = (fr_t *)malloc(cap * sizeof *fr);
    uint32_t p = *pos;
    for (;;) {
        FZ_CHECK(p < len, "det: truncated at %u", p);
        uint32_t item_start = p;
        fr_t *top = sp ? &fr[sp - 1] : 0;
        int is_key = top && top->map && (top->remaining & 1u) == 0;
        if (is_key) top->key_start = p;
        uint32_t ib = out[p++], major = ib >> 5, ai = ib & 31;
        FZ_CHECK(ai < 28, "det: ai %u at %u", ai, item_start);
        uint64_t arg = ai;
        if (ai >= 24) {
            uint32_t nb = 1u << (ai - 24);
            FZ_CHECK(len - p >= nb, "det: head truncated");
            arg = 0;
            for (uint32_t k = 0; k < nb; k++) arg = arg << 8 | out[p + k];
            p += nb;
            if (major != 7) {
                uint64_t minv = ai == 24 ? 24 : ai == 25 ? 0x100 : ai == 26 ? 0x10000 : 0x100000000ull;
                FZ_CHECK(arg >= minv, "det: head of %02x not shortest at %u", ib, item_start);
            }
        }
        int container = 0;
        switch (major) {
        case 2: case 3:
            FZ_CHECK(arg <= len - p, "det: string truncated");
            p += (uint32_t)arg;
            break;
        case 4: case 5:
            if (arg) {
                if (sp == cap) { cap *= 2; fr = (fr_t *)realloc(fr, cap * sizeof *fr); if (!fr) abort(); }
                fr_t f = { (uint32_t)(major == 5 ? 2 * arg : arg), major == 5, 0, 0, 0 };
                FZ_CHECK(arg <= len, "det: container count");
                fr[sp++] = f;
                container = 1;
            }
            break;
        case 6:
            if (sp == cap) { cap *= 2; fr = (fr_t *)realloc(fr, cap * sizeof *fr); if (!fr) abort(); }
            { fr_t f = { 1, 0, 0, 0, 0 }; fr[sp++] = f; }
            container = 1;
            break;
        case 7:
            if (ai == 24) FZ_CHECK(arg >= 32, "det: simple %llu in two bytes", (unsigned long long)arg);
            else if (ai == 25) {
                double v = fz_half((uint32_t)arg);
                if (v != v) FZ_CHECK(arg == 0x7e00, "det: NaN f9%04x not f97e00", (unsigned)arg);
            } else if (ai == 26) {
                uint32_t b = (uint32_t)arg;
                float f;
                memcpy(&f, &b, 4);
                FZ_CHECK(f == f, "det: NaN as float32 at %u", item_start);
                FZ_CHECK(!fz_f16_exact_of_double((double)f), "det: fa%08x fits float16 at %u", b, item_start);
            } else if (ai == 27) {
                double v;
                memcpy(&v, &arg, 8);
                FZ_CHECK(v == v, "det: NaN as float64 at %u", item_start);
                FZ_CHECK((double)(float)v != v, "det: fb%016llx fits float32 at %u", (unsigned long long)arg, item_start);
            }
            break;
        default: break;
        }
        if (container) continue;
        while (sp) {
            fr_t *f = &fr[sp - 1];
            if (f->map && (f->remaining & 1u) == 0) {
                /* a key just ended: compare with the previous key of this map */
                uint32_t ks = f->key_start, kl = p - ks;
                if (f->prev_len) {
                    uint32_t m = kl < f->prev_len ? kl : f->prev_len;
                    int cmp = memcmp(out + f->prev_start, out + ks, m);
                    if (cmp == 0) cmp = f->prev_len < kl ? -1 : f->prev_len > kl ? 1 : 0;
                    FZ_CHECK(cmp <= 0, "det: map keys out of order at %u", ks);
                }
                f->prev_start = ks;
                f->prev_len = kl;
            }
            if (--f->remaining) break;
            sp--;
        }
        if (sp == 0) break;
    }
    *pos = p;
    free(fr);
}

#endif /* WP_FUZZ_COMMON_H */
