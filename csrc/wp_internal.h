/*
 * wp_internal.h: private helpers shared by the codecs. Every load, store and bounds check on
 * raw bytes goes through the small inline functions here, so the format code never does its
 * own pointer arithmetic.
 */
#ifndef WP_INTERNAL_H
#define WP_INTERNAL_H

#include <stdbool.h>
#include "wirepack.h"

#define wp_likely(x) __builtin_expect(!!(x), 1)
#define wp_unlikely(x) __builtin_expect(!!(x), 0)
#define WP_INLINE static inline __attribute__((always_inline))

/* ------------------------------------------------------------------ big-endian loads/stores */

WP_INLINE uint16_t wp_be16(const uint8_t *p) { return (uint16_t)((p[0] << 8) | p[1]); }
WP_INLINE void wp_put_be16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
#if defined(__wasm_simd128__)
/* wasm has no byte swap: a 4- or 8-byte swap would be a dozen shifts and masks (or as many byte
 * loads), so the bytes are reversed by one swizzle in a vector register instead. */
#include <wasm_simd128.h>
#define WP_REV8 wasm_i8x16_const(7, 6, 5, 4, 3, 2, 1, 0, 8, 9, 10, 11, 12, 13, 14, 15)
#define WP_REV4 wasm_i8x16_const(3, 2, 1, 0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
WP_INLINE uint32_t wp_be32(const uint8_t *p) {
    return (uint32_t)wasm_i32x4_extract_lane(wasm_i8x16_swizzle(wasm_v128_load32_zero(p), WP_REV4), 0);
}
WP_INLINE uint64_t wp_be64(const uint8_t *p) {
    return (uint64_t)wasm_i64x2_extract_lane(wasm_i8x16_swizzle(wasm_v128_load64_zero(p), WP_REV8), 0);
}
WP_INLINE void wp_put_be32(uint8_t *p, uint32_t v) {
    wasm_v128_store32_lane(p, wasm_i8x16_swizzle(wasm_i32x4_make((int32_t)v, 0, 0, 0), WP_REV4), 0);
}
WP_INLINE void wp_put_be64(uint8_t *p, uint64_t v) {
    wasm_v128_store64_lane(p, wasm_i8x16_swizzle(wasm_i64x2_make((int64_t)v, 0), WP_REV8), 0);
}
#else
WP_INLINE uint32_t wp_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
WP_INLINE uint64_t wp_be64(const uint8_t *p) { return ((uint64_t)wp_be32(p) << 32) | wp_be32(p + 4); }
WP_INLINE void wp_put_be32(uint8_t *p, uint32_t v) { v = __builtin_bswap32(v); __builtin_memcpy(p, &v, 4); }
WP_INLINE void wp_put_be64(uint8_t *p, uint64_t v) { v = __builtin_bswap64(v); __builtin_memcpy(p, &v, 8); }
#endif
/* v's bytes, lowest first (UTF-8 built in a word) */
WP_INLINE void wp_store_le32(uint8_t *p, uint32_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    __builtin_memcpy(p, &v, 4);
#else
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
#endif
}
WP_INLINE uint64_t wp_load_u64(const uint8_t *p) { uint64_t v; __builtin_memcpy(&v, p, 8); return v; }
WP_INLINE uint32_t wp_load_u32(const uint8_t *p) { uint32_t v; __builtin_memcpy(&v, p, 4); return v; }
WP_INLINE double wp_f64_from_bits(uint64_t b) { double d; __builtin_memcpy(&d, &b, 8); return d; }
WP_INLINE uint64_t wp_bits_from_f64(double d) { uint64_t b; __builtin_memcpy(&b, &d, 8); return b; }
WP_INLINE float wp_f32_from_bits(uint32_t b) { float f; __builtin_memcpy(&f, &b, 4); return f; }

/* ------------------------------------------------------------------ test counters
 * The native unit tests count what the decoders' shortcuts take, to check that their inputs
 * reach them, and turn the shortcuts off, to compare with the item loops alone
 * (tests/c/run.sh defines WP_TEST_COUNTERS; the library never does). */
#ifdef WP_TEST_COUNTERS
extern uint32_t wp_test_pairs;       /* map entries wp_mp_pairs (and the CBOR one) took */
extern uint32_t wp_test_rec_guesses; /* MessagePack record definitions whose keys were the guess's */
extern bool wp_test_no_shortcuts;    /* set: the decoders take none (the item loop alone) */
extern uint32_t wp_test_probes_max;  /* most slots one key or shape lookup looked at (wp_tables.c) */
/* The slot a key's (a shape's) probing starts at: to build keys that share one. */
uint32_t wp_test_key_home(const uint8_t *s, uint32_t n);
uint32_t wp_test_shape_home(const uint32_t *ids, uint32_t n);
extern uint32_t wp_test_tc_key_compares; /* most keys one insert into a JSON output map's key
                                           * table compared bytes with (transcode/tc_json_out.c) */
uint32_t wp_test_tc_key_hash(const uint8_t *s, uint32_t n);
#define WP_TEST_COUNT(counter, n) ((counter) += (n))
#define WP_TEST_SHORTCUTS_OFF wp_test_no_shortcuts
#else
#define WP_TEST_COUNT(counter, n) ((void)0)
#define WP_TEST_SHORTCUTS_OFF false
#endif

/* ------------------------------------------------------------------ input reader */

typedef struct wp_reader {
    const uint8_t *base;
    uint32_t pos, len;
} wp_reader;

/* Bytes left after pos. */
WP_INLINE uint32_t wp_rd_left(const wp_reader *r) { return r->len - r->pos; }
WP_INLINE bool wp_rd_has(const wp_reader *r, uint32_t n) { return n <= r->len - r->pos; }
WP_INLINE const uint8_t *wp_rd_at(const wp_reader *r, uint32_t off) { return r->base + off; }
WP_INLINE const uint8_t *wp_rd_ptr(const wp_reader *r) { return r->base + r->pos; }
/* Bytes readable at input offset off (off <= len): the rest of the input and the decoders' slack
 * after it (WP_DEC_SLACK), for the reads of short strings and keys as two 8-byte words. */
WP_INLINE uint32_t wp_rd_readable(const wp_reader *r, uint32_t off) { return r->len - off + WP_DEC_SLACK; }

/* ------------------------------------------------------------------ tape writer */

typedef struct wp_tape {
    uint32_t *w;
    uint32_t len, cap;
} wp_tape;

WP_INLINE bool wp_tape_room(const wp_tape *t, uint32_t words) { return words <= t->cap - t->len; }
WP_INLINE void wp_tape_put(wp_tape *t, uint32_t word) { t->w[t->len++] = word; }
WP_INLINE void wp_tape_tagp(wp_tape *t, uint32_t tag, uint32_t payload) { t->w[t->len++] = tag | (payload << 8); }
/* A tag with a length payload; lengths >= WP_LEN_ESCAPE go in the next word. */
WP_INLINE void wp_tape_tag_len(wp_tape *t, uint32_t tag, uint32_t n) {
    if (wp_likely(n < WP_LEN_ESCAPE)) {
        t->w[t->len++] = tag | (n << 8);
    } else {
        t->w[t->len++] = tag | (WP_LEN_ESCAPE << 8);
        t->w[t->len++] = n;
    }
}
/* Tag word followed by an f64 at the next 8-byte aligned word pair. */
WP_INLINE void wp_tape_f64(wp_tape *t, uint32_t tag, double v) {
    t->w[t->len] = tag;
    uint32_t at = (t->len + 2) & ~1u;
    if (at != t->len + 1) t->w[t->len + 1] = 0;
    __builtin_memcpy(&t->w[at], &v, 8);
    t->len = at + 2;
}
/* The aligned f64 slot for the word after index i (for runs). */
WP_INLINE uint32_t wp_tape_align2(uint32_t i) { return (i + 1) & ~1u; }

/* ------------------------------------------------------------------ output writer (encode) */

typedef struct wp_out {
    uint8_t *p;
    uint32_t len, cap;
} wp_out;

WP_INLINE bool wp_out_room(const wp_out *o, uint32_t n) { return n <= o->cap - o->len; }
WP_INLINE void wp_out_u8(wp_out *o, uint32_t b) { o->p[o->len++] = (uint8_t)b; }
WP_INLINE void wp_out_u8_be16(wp_out *o, uint32_t b, uint32_t v) { o->p[o->len] = (uint8_t)b; wp_put_be16(o->p + o->len + 1, v); o->len += 3; }
WP_INLINE void wp_out_u8_be32(wp_out *o, uint32_t b, uint32_t v) { o->p[o->len] = (uint8_t)b; wp_put_be32(o->p + o->len + 1, v); o->len += 5; }
WP_INLINE void wp_out_u8_be64(wp_out *o, uint32_t b, uint64_t v) { o->p[o->len] = (uint8_t)b; wp_put_be64(o->p + o->len + 1, v); o->len += 9; }
/* An integer of size class c (0: in the first byte; 1, 2, 3: 1, 2 or 4 payload bytes after it) as
 * one 8-byte store of the first byte and the payload's low bytes in big-endian order, then its
 * length: no branch on the size (a chain of tests mispredicts on mixed integers). For class 0
 * the first byte is or-ed with the payload's low byte. Needs 8 bytes of room. */
WP_INLINE void wp_out_int_class(wp_out *o, uint32_t first, uint32_t payload, uint32_t c) {
    static const uint8_t shift[4] = { 24, 24, 16, 0 }, up[4] = { 0, 8, 8, 8 }, len[4] = { 1, 2, 3, 5 };
    const uint64_t word = (uint64_t)first | ((uint64_t)(__builtin_bswap32(payload) >> shift[c]) << up[c]);
    __builtin_memcpy(o->p + o->len, &word, 8);
    o->len += len[c];
}

/* Whether a number of a run (WP_E_NUMS, the f64 bits) is written as an integer: a uint32 or an
 * int32 value, as writeNumber decides; *v then holds it (-0 counts as 0). A double under 2^32 in
 * magnitude with any of its 21 low mantissa bits set has a fraction: one test answers for most
 * floats, without the conversions (and without a sign test, which mispredicts half the time on
 * mixed floats). The rest is read from the exponent and the mantissa: in wasm, a saturating
 * float-to-integer conversion and the conversion back cost more than these integer operations
 * (an encode of integer runs 13-15% faster). */
WP_INLINE bool wp_run_int(uint64_t bits, int64_t *v) {
    if (wp_likely((bits & 0x1fffffu) != 0)) return false;
    const uint32_t hi = (uint32_t)(bits >> 32);
    const uint32_t sh = ((hi >> 20) & 0x7ffu) - 1023u; /* the exponent: wraps below 1 */
    if (sh > 31u) {
        *v = 0;
        return (bits << 1) == 0; /* +-0; else below 1, 2^32 or more, NaN or infinite */
    }
    const uint32_t fr = 52u - sh; /* fraction bits: zero in an integer */
    const uint64_t m = (bits & 0xfffffffffffffull) | (1ull << 52);
    const int64_t mag = (int64_t)(m >> fr);
    const int64_t neg = -(int64_t)(hi >> 31); /* 0 or -1 */
    *v = (mag ^ neg) - neg;
    return ((m & ((1ull << fr) - 1u)) == 0) & (mag <= 0xffffffffll - (neg & 0x7fffffffll));
}

/* Copy n bytes between non-overlapping buffers. Short copies (most keys and strings) use
 * overlapping 8/4-byte loads and stores that stay inside both buffers: in wasm, memcpy is
 * memory.copy, which engines run as an out-of-line call costing more than a 16-byte copy. */
WP_INLINE void wp_store_u64(uint8_t *p, uint64_t v) { __builtin_memcpy(p, &v, 8); }
WP_INLINE void wp_store_u32(uint8_t *p, uint32_t v) { __builtin_memcpy(p, &v, 4); }
WP_INLINE void wp_copy(uint8_t *d, const uint8_t *s, uint32_t n) {
    if (n >= 8) {
        if (n > 64) { __builtin_memcpy(d, s, n); return; }
        uint64_t last = wp_load_u64(s + n - 8);
        for (uint32_t i = 0; i + 8 < n; i += 8) wp_store_u64(d + i, wp_load_u64(s + i));
        wp_store_u64(d + n - 8, last);
    } else if (n >= 4) {
        uint32_t a = wp_load_u32(s), b = wp_load_u32(s + n - 4);
        wp_store_u32(d, a);
        wp_store_u32(d + n - 4, b);
    } else if (n) {
        uint8_t a = s[0], b = s[n >> 1], c = s[n - 1];
        d[0] = a; d[n >> 1] = b; d[n - 1] = c;
    }
}
WP_INLINE void wp_out_bytes(wp_out *o, const void *src, uint32_t n) { wp_copy(o->p + o->len, (const uint8_t *)src, n); o->len += n; }

/* ------------------------------------------------------------------ strings (wp_utf8.c) */

/* True when all n bytes are ASCII. */
bool wp_is_ascii(const uint8_t *s, uint32_t n);
/* Decode UTF-8 to UTF-16 with WHATWG replacement (U+FFFD per maximal invalid subpart, exactly
 * like TextDecoder). out must hold n units. Returns the number of units written. */
uint32_t wp_utf8_to_utf16(const uint8_t *s, uint32_t n, uint16_t *out);
/* The UTF-8 length of n UTF-16 units as TextEncoder encodes them (an unpaired surrogate is
 * U+FFFD, 3 bytes): at most 3n. */
uint32_t wp_utf16_utf8_len(const uint16_t *s, uint32_t n);
/* The bytes of the UTF-8 at s (avail bytes) that encode n UTF-16 units (a 4-byte sequence
 * encodes 2, any other lead byte 1), or UINT32_MAX when avail ends first or a 4-byte sequence
 * straddles n units. */
uint32_t wp_utf8_span_units(const uint8_t *s, uint32_t avail, uint32_t n);
/* Whether all n UTF-16 units are ASCII, writing them to out as bytes when they are (out holds n
 * bytes; its contents are unspecified when not). */
bool wp_utf16_ascii_narrow(const uint16_t *s, uint32_t n, uint8_t *out);
/* Encode n UTF-16 units as UTF-8 as TextEncoder does; returns the bytes written, which is
 * wp_utf16_utf8_len(s, n). out holds that plus 12 bytes, which it may overwrite (blocks of units
 * are written as whole vectors or words). */
uint32_t wp_utf16_to_utf8(const uint16_t *s, uint32_t n, uint8_t *out);

/* The count of a tape entry with payload p: p, or (p == WP_LEN_ESCAPE) the word at *next, which
 * it then steps over; false when that word is past the tape's n words. */
WP_INLINE bool wp_enc_count(const uint32_t *w, uint32_t n, uint32_t p, uint32_t *next, uint32_t *cnt) {
    *cnt = p;
    if (p != WP_LEN_ESCAPE) return true;
    if (*next >= n) return false;
    *cnt = w[(*next)++];
    return true;
}

/* Writes the header of a string of len UTF-8 bytes (each format its own). */
typedef void (*wp_str_hdr_fn)(wp_out *o, uint32_t len);

/* Where the STR16, STRU8 and KEY entries of an encode call have got to in e's units and UTF-8,
 * and the words of e's keys they referred to. */
typedef struct wp_str_pos {
    uint32_t units, bytes, keys;
} wp_str_pos;

/* The string of a KEY entry (payload p): the STR entry at word p of e's keys, counted against
 * e->keys_words. Sets *len and returns its bytes; NULL for a bad tape. */
WP_INLINE const uint32_t *wp_enc_key(const wp_encoder *e, uint32_t p, wp_str_pos *pos, uint32_t *len) {
    if (p >= e->keys_len) return 0;
    const uint32_t h = e->keys[p], n = h >> 8;
    const uint32_t words = 1u + n / 4u + ((n & 3u) != 0);
    if ((h & 0xffu) != WP_E_STR || n == WP_LEN_ESCAPE || words > e->keys_len - p) return 0;
    if (words > e->keys_words - pos->keys) return 0;
    pos->keys += words;
    *len = n;
    return e->keys + p + 1;
}

/* An XBIN entry of the encode tape w (n words; payload p, its length word at *i): its length,
 * with *i past its two words and *xleft less it; UINT32_MAX for a bad tape (p not 0, a word
 * missing, or more than the XBIN bytes left of e->ext_len). */
WP_INLINE uint32_t wp_enc_xbin(const uint32_t *w, uint32_t n, uint32_t *i, uint32_t p, uint32_t *xleft) {
    if (p != 0 || n - *i < 2u) return UINT32_MAX;
    const uint32_t len = w[*i];
    if (len > *xleft) return UINT32_MAX;
    *xleft -= len;
    *i += 2u;
    return len;
}

/* After an XBIN's header (its words end before i): the output offset of its bytes into the
 * entry's last word, the one word of a tape the encoder writes (the host's tape is writable
 * memory), and the bytes skipped for the host to fill. */
WP_INLINE void wp_enc_xbin_skip(const uint32_t *w, uint32_t i, wp_out *o, uint32_t len) {
    ((uint32_t *)(uintptr_t)w)[i - 1u] = o->len;
    o->len += len;
}

/* A STR16 or STRU8 entry (tag) of the encode tape w (n words; payload p, the next word at *i),
 * after the header hdr writes. STR16: the next of e's units, as UTF-8; most strings are ASCII,
 * written in one pass under the header of their unit count, and only one that turns out not to
 * be is measured and written again. STRU8: the bytes of e's UTF-8 that encode its units.
 * 0 when written (*i and *pos past it), 1 for a bad tape (the strings left are too short, or a
 * 4-byte sequence straddles a STRU8 count), 2 when o has no room (neither moved). */
WP_INLINE int wp_enc_str_ext(const wp_encoder *e, const uint32_t *w, uint32_t n, uint32_t *i, uint32_t tag,
                             uint32_t p, wp_str_pos *pos, wp_out *o, wp_str_hdr_fn hdr) {
    uint32_t cnt, next = *i;
    if (!wp_enc_count(w, n, p, &next, &cnt)) return 1;
    if (tag == WP_E_STR16) {
        if (cnt > e->units_len - pos->units) return 1;
        if (3u * (uint64_t)cnt + 16u > o->cap - o->len) return 2;
        const uint32_t at = o->len;
        hdr(o, cnt);
        if (cnt) {
            const uint16_t *s = e->units + pos->units;
            if (wp_utf16_ascii_narrow(s, cnt, o->p + o->len)) {
                o->len += cnt;
            } else {
                o->len = at;
                hdr(o, wp_utf16_utf8_len(s, cnt));
                o->len += wp_utf16_to_utf8(s, cnt, o->p + o->len);
            }
        }
        pos->units += cnt;
    } else {
        const uint32_t left = e->utf8_len - pos->bytes;
        uint32_t len = 0;
        if (cnt) {
            if (left == 0) return 1;
            len = wp_utf8_span_units(e->utf8 + pos->bytes, left, cnt);
            if (len == UINT32_MAX) return 1;
        }
        if ((uint64_t)len + 16u > o->cap - o->len) return 2;
        hdr(o, len);
        if (len) wp_out_bytes(o, e->utf8 + pos->bytes, len);
        pos->bytes += len;
    }
    *i = next;
    return 0;
}

/* ------------------------------------------------------------------ interning (wp_tables.c) */

#define WP_NO_ID 0xFFFFFFFFu
/* The key id of bytes s[0..n), interning it when new. WP_NO_ID when too long, when the table is
 * full, or when the slots near its hash are (bounded probing: wp_tables.c). */
uint32_t wp_key_intern(wp_tables *t, const uint8_t *s, uint32_t n);
/* wp_key_intern for a key at s with `avail` bytes readable from s (its own and what follows it
 * in the input): keys of up to 16 bytes are then read as two words at once. */
uint32_t wp_key_intern_short(wp_tables *t, uint64_t a, uint64_t b, const uint8_t *s, uint32_t n);
WP_INLINE uint64_t wp_key_lo_mask(uint32_t n) { return n >= 8u ? ~0ull : (1ull << (n * 8u)) - 1u; }
WP_INLINE uint64_t wp_key_hi_mask(uint32_t n) { return n <= 8u ? 0 : n >= 16u ? ~0ull : (1ull << ((n - 8u) * 8u)) - 1u; }
WP_INLINE uint32_t wp_key_intern_at(wp_tables *t, const uint8_t *s, uint32_t n, uint32_t avail) {
    if (n <= 16u && avail >= 16u)
        return wp_key_intern_short(t, wp_load_u64(s) & wp_key_lo_mask(n), wp_load_u64(s + 8) & wp_key_hi_mask(n), s, n);
    return wp_key_intern(t, s, n);
}
/* Whether key id's bytes are s[0..n) (n bytes readable at s). */
bool wp_key_equals(const wp_tables *t, uint32_t id, const uint8_t *s, uint32_t n);
/* Whether key id's bytes are s[0..n), for n <= 16 with 16 bytes readable at s (the pool has 16
 * bytes of slack after every key). */
WP_INLINE bool wp_key_is_short(const wp_tables *t, uint32_t id, const uint8_t *s, uint32_t n) {
    const uint8_t *k = t->key_pool + t->key_off[id];
    return t->key_len[id] == n &&
           (((wp_load_u64(k) ^ wp_load_u64(s)) & wp_key_lo_mask(n)) | ((wp_load_u64(k + 8) ^ wp_load_u64(s + 8)) & wp_key_hi_mask(n))) == 0;
}
/* Whether key id's bytes are s[0..n), `avail` bytes readable at s (at least n). */
WP_INLINE bool wp_key_is_at(const wp_tables *t, uint32_t id, const uint8_t *s, uint32_t n, uint32_t avail) {
    return n <= 16u && avail >= 16u ? wp_key_is_short(t, id, s, n) : wp_key_equals(t, id, s, n);
}
/* The slot of wp_tables.rec_last for the definitions of record id `id` with n keys. */
WP_INLINE uint32_t wp_rec_last_slot(uint32_t id, uint32_t n) { return ((id * 0x9E3779B1u) ^ (n * 0x85EBCA6Bu)) >> 24; }
_Static_assert(WP_REC_LAST_SLOTS == 256u, "wp_rec_last_slot takes the top 8 bits");
/* The slot of wp_tables.shape_pred for a map of n entries at depth sp whose first key is `first`:
 * records in an array, and the messages of a stream, tend to repeat the shape of the last map
 * with the same first key, size and depth. */
WP_INLINE uint32_t wp_pred_slot(uint32_t first, uint32_t n, uint32_t sp) {
    return ((first * 0x9E3779B1u) ^ (n * 0x85EBCA6Bu) ^ (sp * 0xC2B2AE35u)) >> 22;
}
_Static_assert(WP_SHAPE_PRED_SLOTS == 1024u, "wp_pred_slot takes the top 10 bits");
_Static_assert(WP_MAX_SHAPES < 0x7fffu, "a predicted shape id + 1 fits the 15 bits below the trust bit");

/* The shape id of key ids ids[0..n), interning it when new. WP_NO_ID when the table is full or
 * the slots near its hash are. */
uint32_t wp_shape_intern(wp_tables *t, const uint32_t *ids, uint32_t n);
/* Forget keys with id >= nkeys and shapes with id >= nshapes (undo a failed call). */
void wp_tables_rollback(wp_tables *t, uint32_t nkeys, uint32_t nshapes);

/* ------------------------------------------------------------------ shared decode steps */

/* The depth limit in force: the default for 0, and never more than the input could nest (so
 * frame space stays proportional to the input, whatever limit a caller passes). */
WP_INLINE uint32_t wp_effective_depth(uint32_t max_depth, uint32_t len) {
    if (max_depth == 0) max_depth = WP_DEFAULT_MAX_DEPTH;
    return max_depth > len + 1u ? len + 1u : max_depth;
}

/* Words of record-definition undo log a decode of len bytes may need (a definition takes at
 * least 4 bytes and logs 2 words). */
WP_INLINE uint32_t wp_rec_undo_words(uint32_t len) { return len / 2u + 4u; }

/* msgpackr's structuredClone gives an id to a record's keys array when it writes that array
 * twice in a message (a definition, then the same keys defined again after their record id was
 * reused): the first definition's keys come as d6 69 <id> then the array, the second's as the
 * pointer d6 70 <id>. The decoder remembers where each such id's array is (wp_mp_sc_keys: the
 * input offset of its head, which gives its key count and tells whether it is still open): a table
 * indexed by id for ids below wp_sc_dense(len) (msgpackr numbers ids from 1 in a message, and
 * each takes 6 bytes of it), and WP_SC_SPILL pairs for others. Word 0: 0 until the call's first
 * id (the table is then cleared), else 1 + the pairs used. */
#define WP_SC_SPILL 16u
WP_INLINE uint32_t wp_sc_dense(uint32_t len) { return len / 6u + 1u; }
WP_INLINE uint32_t wp_rec_sc_words(uint32_t len) { return 1u + 2u * WP_SC_SPILL + wp_sc_dense(len); }

/* Is n above a policy limit (0 = none)? */
WP_INLINE bool wp_over(uint32_t n, uint32_t limit) { return limit != 0 && n > limit; }

/* Words per decoder frame (both formats reserve this many per level of max_depth). */
#define WP_FRAME_WORDS 7u
enum { FR_ARR = 1u, FR_MAP = 2u, FR_ALL_STR = 4u, FR_ALL_INTERNED = 8u, FR_INDEF = 16u, FR_TAG = 32u, FR_RECDEF = 64u };

/* Element i of a SCALARRUN at tape word `at` that is a NaN: special (a wp_run_special), or 0 for
 * the number NaN (canonical, apart from the specials' NaNs). */
WP_INLINE void wp_run_put(wp_tape *t, uint32_t at, uint32_t i, uint32_t special) {
    uint32_t *e = &t->w[at + 2u * i];
    e[0] = special;
    e[1] = WP_RUN_NAN_HI;
}

/* What a format's tiny() returns for a byte that is not a one-byte integer a run always takes. */
#define WP_NOT_TINY INT32_MIN

/* The bytes of the element at p when a number run can take it (a number; nil, false, true and,
 * in CBOR, undefined: 1), else 0; size and special are the format's readers. An array is tried as
 * a run when its first two elements are such (not when the second already ends the run: [time,
 * {...}] and the like). */
WP_INLINE uint32_t wp_run_elem_size(const uint8_t *p, uint32_t (*size)(const uint8_t *), uint32_t (*special)(uint32_t)) {
    const uint32_t sz = size(p);
    return sz ? sz : special(p[0]) != 0;
}

/* An element that must not go into a number run (wp_run_try). */
WP_INLINE bool wp_run_reject(uint32_t b, uint32_t f32, const uint32_t *recs, bool strict) {
    return (f32 && b == f32) || (recs && b - 0x40u < 0x40u && (strict || recs[b & 0x3f]));
}

/* If the n elements at r->pos are all numbers, or numbers and the format's specials (nil, false,
 * true; CBOR: undefined), and complete, write them as a NUMRUN (numbers only) or a SCALARRUN and
 * advance; else write nothing the tape keeps and return false. Each element is read once: its
 * value goes to the tape as it is scanned (the caller made room for 2n + 4 words; a run given up
 * leaves words past t->len, which the next entries overwrite). Not in a run: a float32 (first
 * byte f32, when not 0) that is to stay a float32 entry, and (MessagePack, recs not NULL) a byte
 * 0x40-0x7f that names a defined record, or may (strict). Numbers first, then, from the first
 * non-number, numbers and specials: one loop for both made the C decode of a float-heavy
 * document 12-22% slower in wasm. A run whose first element is a one-byte integer (tiny) takes
 * such integers before the other checks, in a loop of its own: wasm C decode of arrays of small
 * integers 1.39-1.65x, numbers.json 1.13-1.29x (both formats, both module orders), floats and
 * the fixtures within ±3%; with that check in the one loop, arrays of floats were 18-23% slower
 * (MessagePack), and a loop for a tiny prefix only cost CBOR floats 8-10%. (+1.1 KB of wasm.)
 * The elements end before `end` (where an open bundle's strings start; at or past r->len: none):
 * a run that would not is given up, and read item by item the item that crosses fails
 * BAD_BUNDLE, as it does where the flags make no run. size, num, special and tiny are the
 * format's own readers, always inline and constant here, so they stay inlined in its loops (a
 * number reader called out of line made float-heavy decoding 20% slower). */
WP_INLINE bool wp_run_try(wp_reader *r, wp_tape *t, uint32_t n, uint32_t (*size)(const uint8_t *),
                          double (*num)(const uint8_t *), uint32_t (*special)(uint32_t),
                          int32_t (*tiny)(uint32_t), uint32_t f32, const uint32_t *recs, bool strict, uint32_t end) {
    const uint32_t hdr = t->len, hw = n < WP_LEN_ESCAPE ? 1u : 2u;
    const uint32_t at = wp_tape_align2(hdr + hw);
    double *f = (double *)(void *)&t->w[at];
    const uint8_t *const base = r->base;
    const uint32_t len = end < r->len ? end : r->len;
    uint32_t p = r->pos, i = 0, specials = 0;
    /* the element at q by the format's readers: its number into f[i], p past it; a non-number
     * ends the loop (break), a rejected or cut one gives the run up. (A macro: the two loops must
     * stay two loops, see above.) */
#define WP_RUN_NUMBER(q)                                           \
    if (wp_run_reject((q)[0], f32, recs, strict)) return false;   \
    const uint32_t sz = size(q);                                   \
    if (sz == 0) break;                                            \
    if (sz > len - p) return false;                                \
    f[i] = num(q);                                                 \
    p += sz
    if (p < len && tiny(base[p]) != WP_NOT_TINY) {
        for (; i < n; i++) {
            if (p >= len) return false;
            const uint8_t *q = base + p;
            const int32_t v = tiny(q[0]);
            if (v != WP_NOT_TINY) { f[i] = (double)v; p++; continue; }
            WP_RUN_NUMBER(q);
        }
    } else {
        for (; i < n; i++) {
            if (p >= len) return false;
            const uint8_t *q = base + p;
            WP_RUN_NUMBER(q);
        }
    }
#undef WP_RUN_NUMBER
    if (i < n) {
        const uint32_t numbers = i;
        for (; i < n; i++) {
            if (p >= len) return false;
            const uint8_t *q = base + p;
            if (wp_run_reject(q[0], f32, recs, strict)) return false;
            const uint32_t sz = size(q);
            if (sz == 0) {
                const uint32_t s = special(q[0]);
                if (!s) return false;
                wp_run_put(t, at, i, s);
                specials++;
                p++;
                continue;
            }
            if (sz > len - p) return false;
            const double v = num(q);
            if (v != v) wp_run_put(t, at, i, 0);
            else f[i] = v;
            p += sz;
        }
        /* a SCALARRUN: its NaNs take the canonical form (low word 0), apart from the specials;
         * those after the first special already have it */
        for (uint32_t k = 0; k < numbers; k++)
            if (f[k] != f[k]) wp_run_put(t, at, k, 0);
    }
    wp_tape_tag_len(t, specials ? WP_T_SCALARRUN : WP_T_NUMRUN, n);
    if (at != t->len) t->w[t->len] = 0;
    t->len = at + 2u * n;
    r->pos = p;
    return true;
}

/* Output bytes that always suffice for a tape of tape_words words, before its strings, key words
 * and XBIN bytes (the public wp_encode_out_bound is this, in 32 bits). */
WP_INLINE uint64_t wp_enc_bound(uint32_t tape_words) { return (uint64_t)tape_words * 5u + 16u; }

/* wp_encode_out_need (wirepack.h), inline: the wasm exports call it once per encode. */
WP_INLINE uint32_t wp_enc_out_need(const wp_encoder *e) {
    uint64_t need = wp_enc_bound(e->tape_len) + 3u * (uint64_t)e->units_len + e->utf8_len +
                    5u * (uint64_t)e->keys_words + e->ext_len;
    return need > UINT32_MAX ? UINT32_MAX : (uint32_t)need;
}

/* Tape words that always suffice for a decode of len bytes (MessagePack, CBOR); the public
 * wp_decode_tape_words and wp_cbor_tape_words are these. */
WP_INLINE uint32_t wp_mp_tape_words(uint32_t len) { return len * 2u + 8u; }
WP_INLINE uint32_t wp_cb_tape_words(uint32_t len) { return len * 3u + 8u; }
/* MessagePack with WP_DEC_MP_RAW_STRINGS: an empty string (one byte) is a BIN entry (three words) */
WP_INLINE uint32_t wp_mp_tape_words_for(uint32_t len, uint32_t flags) {
    return (flags & WP_DEC_MP_RAW_STRINGS) ? wp_cb_tape_words(len) : wp_mp_tape_words(len);
}

/* Words of the decode stack that hold the MessagePack decoder's bundle state (wp_msgpack.c). */
#define WP_BST_WORDS 8u
/* Words of the decode stack that hold where the strings of the open packed item's values table
 * lie (wp_cbor.c, wp_cb_pk_scan): two words, then an offset and a length for each of up to
 * WP_PK_MAX strings. */
#define WP_PK_MAX 128u
#define WP_PK_WORDS (2u + 2u * WP_PK_MAX)

/* Stack words a decode of len bytes needs for max_depth (frames, shape-key scratch, the bundle
 * state, the packed table's strings, the undo log): inline for the per-call set-up, which runs
 * once per message; wp_decode_stack_words is this. */
WP_INLINE uint32_t wp_stack_words(uint32_t max_depth, uint32_t len) {
    max_depth = wp_effective_depth(max_depth, len);
    uint64_t keys = (uint64_t)max_depth * (WP_SHAPE_MAX_KEYS + 1u);
    if (keys > len) keys = len;
    return max_depth * WP_FRAME_WORDS + (uint32_t)keys + 8u + WP_BST_WORDS + WP_PK_WORDS + wp_rec_undo_words(len) + wp_rec_sc_words(len);
}

/* Write the string s[0..n) as STRA (ascii area) or STRU (utf16 area). */
WP_INLINE bool wp_put_string(wp_decoder *d, wp_tape *t, const uint8_t *s, uint32_t n, bool host) {
    if (wp_is_ascii(s, n)) {
        if (n > d->ascii_cap - d->ascii_len) return false;
        wp_copy(d->ascii + d->ascii_len, s, n);
        d->ascii_len += n;
        wp_tape_tag_len(t, WP_T_STRA, n);
    } else if (host && n >= WP_UTF8_HOST_MIN && (d->flags & WP_DEC_UTF8_HOST)) {
        /* (s is in the input; three words, where the input's n + 1 bytes at least have two each) */
        wp_tape_tag_len(t, WP_T_STR8, n);
        wp_tape_put(t, (uint32_t)(s - d->in));
    } else {
        if (n > d->utf16_cap - d->utf16_len) return false;
        uint32_t units = wp_utf8_to_utf16(s, n, d->utf16 + d->utf16_len);
        d->utf16_len += units;
        wp_tape_tag_len(t, WP_T_STRU, units);
    }
    return true;
}
/* A string value s[0..n) (WP_VC_MIN <= n <= WP_VC_MAX) through the value cache (wp_tables): a
 * VSTR entry when it is ASCII and the cache is on, its slot then holding exactly these bytes
 * (written there now, with a new stamp, unless they were already): returned as the entry's two
 * words (the first low), for the caller to put on the tape; 0 otherwise (the caller writes it as
 * usual). (It is not given the tape: a decoder's tape passed to a function that is not inlined
 * lives in wasm memory, not in locals, and every entry of the decode then loads and stores its
 * length there.) Reads only s[0..n): four overlapping windows cover it (two below 8 bytes,
 * two up to 16), and two strings of one length are equal when all their windows are. The windows
 * are loaded once for the ASCII test, the hash and the comparison: the keys' wp_is_ascii,
 * wp_hash_bytes and wp_bytes_eq in their place made a sample-small decode 11-15% slower in C. */
uint64_t wp_vc_put(wp_tables *tb, const uint8_t *s, uint32_t n);
_Static_assert(WP_VC_SLOTS == 1024u && WP_VC_MAX < 64u, "wp_vc_put: a slot in 10 bits, a length in 6");

/* wp_put_string for a string with `avail` bytes readable at s (WP_DEC_SLACK past the input's end
 * included): one of at most 16 bytes, with 16 readable and 16 bytes of room in the ASCII area
 * (its slack included), is checked and copied as two 8-byte words (the bytes written past it are
 * overwritten by the next string, or never read). */
WP_INLINE bool wp_put_string_in(wp_decoder *d, wp_tape *t, const uint8_t *s, uint32_t n, uint32_t avail) {
    const uint32_t room = d->ascii_cap - d->ascii_len;
    if (n <= 16u && avail >= 16u && room + WP_DEC_SLACK >= 16u && (WP_DEC_SLACK == 0u || n <= room)) {
        const uint64_t a = wp_load_u64(s), b = wp_load_u64(s + 8);
        if ((((a & wp_key_lo_mask(n)) | (b & wp_key_hi_mask(n))) & 0x8080808080808080ull) == 0) {
            uint8_t *o = d->ascii + d->ascii_len;
            wp_store_u64(o, a);
            wp_store_u64(o + 8, b);
            d->ascii_len += n;
            wp_tape_tag_len(t, WP_T_STRA, n);
            return true;
        }
    }
    return wp_put_string(d, t, s, n, true);
}

/* A string value s[0..n) (`avail` bytes readable at s): through the value cache when `vcache`
 * (WP_DEC_VCACHE, and not a map key) and its length is one the cache keeps, else as
 * wp_put_string_in writes it. False: no room (WP_ERR_TAPE_FULL). */
WP_INLINE bool wp_put_value_string(wp_decoder *d, wp_tables *tb, wp_tape *t, const uint8_t *s, uint32_t n, uint32_t avail, bool vcache) {
    if (vcache && n - WP_VC_MIN <= WP_VC_MAX - WP_VC_MIN) {
        const uint64_t e = wp_vc_put(tb, s, n);
        if (e != 0) {
            wp_tape_put(t, (uint32_t)e);
            wp_tape_put(t, (uint32_t)(e >> 32));
            return true;
        }
    }
    return wp_put_string_in(d, t, s, n, avail);
}


/* One open container (or CBOR tag) on a decoder's explicit stack. */
typedef struct wp_frame {
    uint32_t remaining; /* items left (definite): n for arrays, 2n for maps, 1 for tags */
    uint32_t count;     /* CBOR: items done in an indefinite container (a definite one's: wp_cb_done); MessagePack maps: the shape guess (id + 1; 0: none) */
    uint32_t hdr;       /* tape index of the header word to patch (maps) */
    uint32_t n;         /* declared entries */
    uint32_t kstart;    /* start of this map's key ids in the key scratch */
    uint32_t flags;     /* FR_* */
    uint32_t start;     /* input offset of the container's first byte */
} wp_frame;

_Static_assert(sizeof(wp_frame) == WP_FRAME_WORDS * 4, "frames fill the reserved words");

/* wp_cbor_encode's two forms: without, and with, WP_CBOR_DETERMINISTIC or WP_CBOR_INDEFINITE. */
wp_err wp_cbor_encode_flat(wp_encoder *e, uint32_t flags);
wp_err wp_cbor_encode_tracked(wp_encoder *e, uint32_t flags, uint32_t *scratch, uint32_t scratch_cap);

/* Reset a decoder's outputs at the start of a call. */
WP_INLINE void wp_dec_reset(wp_decoder *d, const wp_tables *tb) {
    d->tape_len = 0;
    d->ascii_len = d->utf16_len = 0;
    d->end = 0;
    d->nvalues = 0;
    d->depth_seen = 0;
    d->holes_seen = 0;
    d->keys_before = tb->nkeys;
    d->shapes_before = tb->nshapes;
    d->err.code = WP_OK;
    d->err.offset = 0;
}

/* The n bytes at input offset off of a binary or extension, skipped unread: false when they are
 * not the next hole exactly but reach past that hole's start (wirepack.h, wp_decoder.holes).
 * Called only when the decoder has holes. */
/* Whether bytes before `end` (from where the last skipped hole ended) reach into the next hole,
 * without skipping it: for bytes C reads that are only sometimes an item of their own. */
WP_INLINE bool wp_hole_reached(const wp_decoder *d, uint32_t end) {
    return d->holes_seen < d->nholes && end > d->holes[2u * d->holes_seen];
}

WP_INLINE bool wp_hole_skip(wp_decoder *d, uint32_t off, uint32_t n) {
    const uint32_t i = d->holes_seen;
    if (i >= d->nholes || (uint64_t)off + n <= d->holes[2 * i]) return true;
    if (d->holes[2 * i] != off || d->holes[2 * i + 1] != n) return false;
    d->holes_seen = i + 1;
    return true;
}

/* End a failed call: forget the key and shape ids added after the last complete top-level value
 * (keep_*), and record the error. */
WP_INLINE wp_err wp_dec_fail(wp_decoder *d, wp_tables *tb, uint32_t tape_len, wp_err err, uint32_t offset,
                             uint32_t keep_keys, uint32_t keep_shapes) {
    wp_tables_rollback(tb, keep_keys, keep_shapes);
    d->tape_len = tape_len;
    d->err.code = err;
    d->err.offset = offset;
    return err;
}

/* Patch the header word of a map that has just closed: SHAPED when every key is interned and a
 * shape id is available, OBJ when every key is a string (and objects are wanted), else MAP.
 * Returns the word written: callers test it from there, not from the tape (a load of the word
 * just stored with a byte store cannot be forwarded from the store buffer: the stall was a sixth
 * of the C decode of a one-entry map). */
WP_INLINE uint32_t wp_map_close(wp_tape *t, wp_tables *tb, uint32_t hdr, uint32_t n, uint32_t flags,
                                bool as_objects, const uint32_t *kids, uint32_t nkids) {
    uint32_t tag = WP_T_MAP;
    if (as_objects && (flags & FR_ALL_STR)) {
        tag = WP_T_OBJ;
        if ((flags & FR_ALL_INTERNED) && n <= WP_SHAPE_MAX_KEYS && nkids == n) {
            uint32_t sid = wp_shape_intern(tb, kids, n);
            if (sid != WP_NO_ID && sid < WP_LEN_ESCAPE) {
                const uint32_t w = WP_T_SHAPED | (sid << 8);
                t->w[hdr] = w;
                return w;
            }
        }
    }
    const uint32_t w = (t->w[hdr] & ~0xffu) | tag;
    t->w[hdr] = w;
    return w;
}

/* ------------------------------------------------------------------ guessed pairs (both decoders)
 * The entries of a map whose shape the decoder guessed (wp_guess_open as the map opens, else
 * wp_guess_first after its first key), in a loop of their own
 * (wp_mp_pairs, wp_cb_pairs): each key compared with the guess's key at its position, each value
 * of the common kinds (a scalar, a string) written at once. The item loops keep more values live
 * than the engine has registers for, so each of their items goes through stack slots; a loop of
 * its own over the entries keeps them in registers. It stops before anything it does not take (a
 * key other than the guess's, a container, a tag or extension, an input or tape that ends, ...),
 * which the item loop then decodes as it would have: so it never fails, and a stop costs little.
 * The C decode alone in wasm of 100 maps of 10 entries: 1.45x.
 * (They are noinline for clang, which optimizes them apart from the item loop; wasm-opt -O3 then
 * inlines them back, as it does every function with one caller (build.sh), so in the shipped wasm
 * each is a loop inside its decoder's function. Kept out of line there too (wasm-opt -ocimfs=0,
 * which also leaves wp_cbor_decode a call of its export), the C decode alone measured 0.96-1.02
 * on the other MessagePack and CBOR decodes, 0.87 on the CBOR stream chunk and 1.05 on MessagePack
 * records (old / new time, 3 processes).) */

/* Where a pairs loop stopped: at a key, at a value (its key taken), or after the map's last
 * value (the item loop's item_done closes the map). */
enum { WP_PAIRS_KEY, WP_PAIRS_VALUE, WP_PAIRS_DONE };

/* A pairs loop's state, in and out: input offset, tape length, key scratch top, and the map's
 * items left (even at a key). */
typedef struct wp_pairs {
    uint32_t pos, tlen, ktop, remaining;
} wp_pairs;

/* A pairs loop's value step: the value at *at when it is one of the kinds the format's loop
 * takes, complete: written, *at moved past it, true; else false with nothing written. opts:
 * WP_PV_* (the decoder's flags that matter). */
typedef bool (*wp_pairs_value_fn)(wp_decoder *d, wp_tables *tb, wp_tape *t, const uint8_t *in, uint32_t len, uint32_t *at,
                                  uint32_t opts);
enum { WP_PV_VCACHE = 1u, WP_PV_F32 = 2u, WP_PV_RECS = 4u };

/* The pairs loop of both decoders (each calls it with constants, so the value step is inlined):
 * from p->pos, a key of a map guessed as g, its k-th (p->remaining its items left, even), while
 * the keys are the guess's (one-byte heads key_base + n, n <= 16): KEY words, key ids into
 * kscratch (below kcap), values. */
WP_INLINE uint32_t wp_pairs_run(wp_decoder *d, wp_tables *tb, wp_pairs *p, uint32_t *w, uint32_t tcap, uint32_t g,
                                uint32_t *kscratch, uint32_t kcap, uint32_t k, uint32_t key_base, wp_pairs_value_fn value,
                                uint32_t opts) {
    const uint8_t *const in = d->in;
    const uint32_t len = d->len;
    const uint32_t *const pool = tb->shape_pool + tb->shape_off[g - 1u];
    uint32_t pos = p->pos, rem = p->remaining, ktop = p->ktop;
    wp_tape t = { w, p->tlen, tcap };
    bool done = false;
#ifdef WP_TEST_COUNTERS
    const uint32_t k0 = k;
#endif
    for (;;) {
        /* the key: the guess's */
        if (pos >= len || t.cap - t.len < 16u || ktop >= kcap) break;
        const uint32_t n = in[pos] - key_base;
        if (n > 0x10u) break;
        if (n > len - pos - 1u || len - pos - 1u + WP_DEC_SLACK < 16u) break;
        const uint32_t pid = pool[k];
        if (!wp_key_is_short(tb, pid, in + pos + 1u, n)) break;
        wp_tape_tagp(&t, WP_T_KEY, pid);
        kscratch[ktop++] = pid;
        k++;
        rem--;
        pos += 1u + n;
        /* its value */
        if (!value(d, tb, &t, in, len, &pos, opts)) break;
        /* the map's last value: item_done closes it */
        if (rem == 1u) { done = true; break; }
        rem--;
    }
    WP_TEST_COUNT(wp_test_pairs, k - k0);
    p->pos = pos;
    p->tlen = t.len;
    p->ktop = ktop;
    p->remaining = rem;
    /* (a stop at a key leaves an even count of items, at a value an odd one) */
    return done ? WP_PAIRS_DONE : (rem & 1u) ? WP_PAIRS_VALUE : WP_PAIRS_KEY;
}

/* ------------------------------------------------------------------ shape guesses (both decoders)
 * After a map's first key is interned, the decoder guesses its shape: the one that the last maps
 * of as many entries starting with that key, at that depth, closed with (wp_tables.shape_pred,
 * trusted once two maps in a row closed with it). Each further key is compared with the guess's
 * key at its position instead of hashed; a map whose keys all matched closes as that shape. */

/* The guess for a map of n entries at depth sp whose first key is `first`: shape id + 1, or 0
 * (the slot is shared, so the shape must have n keys and this first key). */
WP_INLINE uint32_t wp_guess_first(const wp_tables *tb, uint32_t first, uint32_t n, uint32_t sp) {
    const uint32_t e = tb->shape_pred[wp_pred_slot(first, n, sp)], g = e & 0x7fffu;
    return (e & 0x8000u) && g - 1u < tb->nshapes && tb->shape_len[g - 1u] == n && tb->shape_pool[tb->shape_off[g - 1u]] == first
               ? g : 0u;
}

/* The slot of wp_tables.shape_last for a map of n entries at depth sp. */
WP_INLINE uint32_t wp_last_slot(uint32_t n, uint32_t sp) { return ((n * 0x9E3779B1u) ^ (sp * 0x85EBCA6Bu)) >> 24; }
_Static_assert(WP_SHAPE_LAST_SLOTS == 256u, "wp_last_slot takes the top 8 bits");

/* The guess for a map of n entries at depth sp as it opens, before its first key: the shape the
 * last maps of as many entries at that depth closed with, once two in a row did (shape id + 1),
 * else 0. (Maps of several shapes of one size at one depth, as in records of many shapes, never
 * make two in a row often enough to cost their first keys a comparison.) */
WP_INLINE uint32_t wp_guess_open(const wp_tables *tb, uint32_t n, uint32_t sp) {
    const uint32_t e = tb->shape_last[wp_last_slot(n, sp)], g = e & 0x7fffu;
    return (e & 0x8000u) && g - 1u < tb->nshapes && tb->shape_len[g - 1u] == n ? g : 0u;
}

/* A map of n entries at depth sp closed as shape s (id + 1): its slot of shape_last learns it. */
WP_INLINE void wp_learn_last(wp_tables *tb, uint32_t n, uint32_t sp, uint32_t s) {
    uint16_t *e = &tb->shape_last[wp_last_slot(n, sp)];
    *e = (uint16_t)((*e & 0x7fffu) == s ? s | 0x8000u : s);
}

/* The id of key s[0..n) (avail bytes readable at s) at position k of a map guessed as g (shape
 * id + 1): the guess's key when its bytes are these (keys of up to 16 bytes, compared), else the
 * key interned (WP_NO_ID when it cannot be). An id other than the guess's ends the guess. */
WP_INLINE uint32_t wp_guess_key(wp_tables *tb, uint32_t g, uint32_t k, const uint8_t *s, uint32_t n, uint32_t avail, bool *miss) {
    const uint32_t pid = tb->shape_pool[tb->shape_off[g - 1u] + k];
    if (n <= 16u && avail >= 16u && wp_key_is_short(tb, pid, s, n)) return pid;
    const uint32_t id = wp_key_intern_at(tb, s, n, avail);
    *miss = id != pid;
    return id;
}

/* Close map frame f (its key ids kids[0..nkids), at depth sp) guessed as g (shape id + 1; 0: no
 * guess): as the guess when every key matched it, else by wp_map_close; a map that closes as a
 * shape that way (every key interned, the first at kids[0]) teaches its slot that shape. Either
 * way, a map that closes as a shape teaches shape_last. */
WP_INLINE void wp_map_close_guessed(wp_tape *t, wp_tables *tb, const wp_frame *f, uint32_t g, bool as_objects,
                                    const uint32_t *kids, uint32_t nkids, uint32_t sp) {
    if (g && (f->flags & FR_ALL_INTERNED) && nkids == f->n) {
        t->w[f->hdr] = WP_T_SHAPED | ((g - 1u) << 8);
        wp_learn_last(tb, f->n, sp, g);
        return;
    }
    const uint32_t hw = wp_map_close(t, tb, f->hdr, f->n, f->flags, as_objects, kids, nkids);
    if ((hw & 0xffu) != WP_T_SHAPED) return;
    uint16_t *e = &tb->shape_pred[wp_pred_slot(kids[0], f->n, sp)];
    const uint32_t s = (hw >> 8) + 1u;
    *e = (uint16_t)((*e & 0x7fffu) == s ? s | 0x8000u : s);
    wp_learn_last(tb, f->n, sp, s);
}

#endif /* WP_INTERNAL_H */
