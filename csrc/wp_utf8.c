/* wp_utf8.c: ASCII detection and UTF-8 -> UTF-16 transcoding with WHATWG replacement. */
#include "wp_internal.h"

/* The mask of the bytes of s[0..16) that are not ASCII (bit k for byte k), and the 16 bytes
 * widened to 16 UTF-16 units at out; the wasm build does it with one vector load, two widening
 * stores and one bitmask. */
#if defined(__wasm_simd128__)
WP_INLINE uint32_t wp_u8x16_widen(const uint8_t *s, uint16_t *out) {
    const v128_t v = wasm_v128_load(s);
    wasm_v128_store(out, wasm_u16x8_extend_low_u8x16(v));
    wasm_v128_store(out + 8, wasm_u16x8_extend_high_u8x16(v));
    return (uint32_t)wasm_i8x16_bitmask(v);
}
/* Nonzero when one of the 16 bytes at s is not ASCII. */
WP_INLINE uint32_t wp_u8x16_high(const uint8_t *s) { return (uint32_t)wasm_i8x16_bitmask(wasm_v128_load(s)); }
/* Whether none of the 32 bytes at s has its high bit set. */
WP_INLINE bool wp_u8x32_ascii(const uint8_t *s) {
    return wasm_i8x16_bitmask(wasm_v128_or(wasm_v128_load(s), wasm_v128_load(s + 16))) == 0;
}
#else
WP_INLINE uint32_t wp_u8x16_widen(const uint8_t *s, uint16_t *out) {
    uint32_t mask = 0;
    for (uint32_t k = 0; k < 16; k++) {
        out[k] = s[k];
        mask |= (uint32_t)(s[k] >> 7) << k;
    }
    return mask;
}
WP_INLINE uint32_t wp_u8x16_high(const uint8_t *s) {
    return ((wp_load_u64(s) | wp_load_u64(s + 8)) & 0x8080808080808080ull) != 0;
}
WP_INLINE bool wp_u8x32_ascii(const uint8_t *s) {
    uint64_t acc = wp_load_u64(s) | wp_load_u64(s + 8) | wp_load_u64(s + 16) | wp_load_u64(s + 24);
    return (acc & 0x8080808080808080ull) == 0;
}
#endif

bool wp_is_ascii(const uint8_t *s, uint32_t n) {
    /* whole blocks, then the last bytes as blocks that end at n (overlapping those before) */
    if (n >= 16) {
        uint32_t i = 0;
        for (; n - i >= 32; i += 32)
            if (!wp_u8x32_ascii(s + i)) return false; /* (leaves at the first such block) */
        return ((n - i > 16 ? wp_u8x16_high(s + i) : 0u) | wp_u8x16_high(s + n - 16)) == 0;
    }
    if (n >= 8) return ((wp_load_u64(s) | wp_load_u64(s + n - 8)) & 0x8080808080808080ull) == 0;
    if (n >= 4) return ((wp_load_u32(s) | wp_load_u32(s + n - 4)) & 0x80808080u) == 0;
    uint32_t acc = 0;
    for (uint32_t k = 0; k < n; k++) acc |= s[k];
    return acc < 0x80u;
}

/* One UTF-8 sequence whose lead byte s[*i] is not ASCII, as UTF-16 at out + *o (1 or 2 units, or
 * U+FFFD for the maximal invalid subpart, whose next byte is then examined again). */
WP_INLINE void wp_utf8_sequence(const uint8_t *s, uint32_t n, uint32_t *i, uint16_t *out, uint32_t *o) {
    const uint32_t b = s[*i];
    uint32_t need, cp, lo = 0x80, hi = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) { need = 1; cp = b & 0x1F; }
    else if (b >= 0xE0 && b <= 0xEF) {
        need = 2; cp = b & 0x0F;
        if (b == 0xE0) lo = 0xA0;
        if (b == 0xED) hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        need = 3; cp = b & 0x07;
        if (b == 0xF0) lo = 0x90;
        if (b == 0xF4) hi = 0x8F;
    } else {
        out[(*o)++] = 0xFFFD;
        *i += 1;
        return;
    }
    uint32_t j = *i + 1;
    for (uint32_t k = 0; k < need; k++, j++) {
        if (j >= n || s[j] < lo || s[j] > hi) {
            out[(*o)++] = 0xFFFD;
            *i = j;
            return;
        }
        cp = (cp << 6) | (s[j] & 0x3F);
        lo = 0x80; hi = 0xBF;
    }
    if (cp >= 0x10000) {
        cp -= 0x10000;
        out[*o] = (uint16_t)(0xD800 | (cp >> 10));
        out[*o + 1] = (uint16_t)(0xDC00 | (cp & 0x3FF));
        *o += 2;
    } else {
        out[(*o)++] = (uint16_t)cp;
    }
    *i = j;
}

uint32_t wp_utf8_to_utf16(const uint8_t *s, uint32_t n, uint16_t *out) {
    uint32_t i = 0, o = 0;
    while (i < n) {
        if (n - i >= 16) {
            /* 16 bytes widened at once: all of them when ASCII, else up to the first that is not
             * (the units written past it are overwritten next). Units never outnumber bytes, so
             * o + 16 <= i + 16 <= n: the stores stay within the n units out holds. */
            const uint32_t mask = wp_u8x16_widen(s + i, out + o);
            if (mask == 0) {
                i += 16;
                o += 16;
                continue;
            }
            const uint32_t k = (uint32_t)__builtin_ctz(mask);
            i += k;
            o += k;
        } else if (s[i] < 0x80) {
            out[o++] = s[i++];
            continue;
        }
        /* sequences up to the next ASCII byte (words of Greek, Cyrillic or CJK) */
        do wp_utf8_sequence(s, n, &i, out, &o);
        while (i < n && s[i] >= 0x80);
    }
    return o;
}

/* ------------------------------------------------------------------ UTF-16 -> UTF-8 (encode) */

/* The unit at s + i, and a block of 8 units that are all ASCII (< 0x80), on every build; the
 * wasm build tests a block with one vector AND and narrows it with one instruction. */
WP_INLINE uint32_t wp_u16_at(const uint16_t *s, uint32_t i) { return s[i]; }
#if defined(__wasm_simd128__)
WP_INLINE bool wp_u16x8_ascii(const uint16_t *s) {
    return !wasm_v128_any_true(wasm_v128_and(wasm_v128_load(s), wasm_i16x8_splat((int16_t)0xff80)));
}
WP_INLINE void wp_u16x8_narrow(const uint16_t *s, uint8_t *out) {
    v128_t v = wasm_v128_load(s);
    wasm_v128_store64_lane(out, wasm_u8x16_narrow_i16x8(v, v), 0);
}
#else
WP_INLINE bool wp_u16x8_ascii(const uint16_t *s) {
    uint64_t a, b;
    __builtin_memcpy(&a, s, 8);
    __builtin_memcpy(&b, s + 4, 8);
    return ((a | b) & 0xff80ff80ff80ff80ull) == 0;
}
WP_INLINE void wp_u16x8_narrow(const uint16_t *s, uint8_t *out) {
    for (uint32_t k = 0; k < 8; k++) out[k] = (uint8_t)s[k];
}
#endif

/* Whether units i, i + 1 of s (i + 1 < n) are a surrogate pair. */
WP_INLINE bool wp_u16_pair(const uint16_t *s, uint32_t i, uint32_t n) {
    return i + 1 < n && (wp_u16_at(s, i) & 0xfc00u) == 0xd800u && (wp_u16_at(s, i + 1) & 0xfc00u) == 0xdc00u;
}

bool wp_utf16_ascii_narrow(const uint16_t *s, uint32_t n, uint8_t *out) {
    if (n < 8) {
        uint32_t any = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t c = wp_u16_at(s, i);
            any |= c;
            out[i] = (uint8_t)c;
        }
        return any < 0x80u;
    }
    uint32_t i = 0;
    for (; i + 8 <= n; i += 8) {
        if (!wp_u16x8_ascii(s + i)) return false;
        wp_u16x8_narrow(s + i, out + i);
    }
    /* the last 1..7 units: the block of the last 8 (overlapping the one before) */
    if (i < n) {
        if (!wp_u16x8_ascii(s + n - 8)) return false;
        wp_u16x8_narrow(s + n - 8, out + n - 8);
    }
    return true;
}

/* The UTF-8 of a unit c that is not a surrogate, in the low bytes of a word (first byte lowest),
 * and its length, with no branch on its size: mixed text (Greek, Cyrillic or CJK between ASCII
 * spaces and punctuation) mispredicted a branch per unit. */
WP_INLINE uint32_t wp_utf8_word(uint32_t c, uint32_t *len) {
    const uint32_t two = c >= 0x80u, three = c >= 0x800u;
    const uint32_t w2 = (0xc0u | (c >> 6)) | ((0x80u | (c & 0x3fu)) << 8);
    const uint32_t w3 = (0xe0u | (c >> 12)) | ((0x80u | ((c >> 6) & 0x3fu)) << 8) | ((0x80u | (c & 0x3fu)) << 16);
    *len = 1u + two + three;
    return three ? w3 : two ? w2 : c;
}

#if defined(__wasm_simd128__)
WP_INLINE bool wp_u16x8_any_surrogate(const uint16_t *s) {
    v128_t v = wasm_v128_and(wasm_v128_load(s), wasm_i16x8_splat((int16_t)0xf800));
    return wasm_v128_any_true(wasm_i16x8_eq(v, wasm_i16x8_splat((int16_t)0xd800)));
}
/* The UTF-8 bytes of 8 units none of which is a surrogate. */
WP_INLINE uint32_t wp_u16x8_utf8_len(const uint16_t *s) {
    v128_t v = wasm_v128_load(s);
    uint32_t two = (uint32_t)wasm_i16x8_bitmask(wasm_u16x8_ge(v, wasm_i16x8_splat(0x80)));
    uint32_t three = (uint32_t)wasm_i16x8_bitmask(wasm_u16x8_ge(v, wasm_i16x8_splat(0x800)));
    return 8u + (uint32_t)__builtin_popcount(two) + (uint32_t)__builtin_popcount(three);
}

/* Swizzle masks that gather the UTF-8 of 4 units, each in its own 32-bit lane (1 to 3 bytes,
 * first byte lowest), into consecutive bytes: row sum((length_k - 1) * 3^k) over the units k,
 * bytes 4k .. 4k + length_k - 1 in order, then 0x80 (a zero byte). Generated; the long-string
 * tests of tests/boundaries.test.js encode every row in every position (a wrong byte fails them). */
static const uint8_t wp_utf8_gather4[81][16] = {
    {0, 4, 8, 12, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 8, 12, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 8, 12, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 4, 5, 8, 12, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 5, 8, 12, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 5, 8, 12, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 4, 5, 6, 8, 12, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 5, 6, 8, 12, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 5, 6, 8, 12, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 4, 8, 9, 12, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 8, 9, 12, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 8, 9, 12, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 4, 5, 8, 9, 12, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 5, 8, 9, 12, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 5, 8, 9, 12, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 4, 5, 6, 8, 9, 12, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 5, 6, 8, 9, 12, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 5, 6, 8, 9, 12, 128, 128, 128, 128, 128, 128, 128},
    {0, 4, 8, 9, 10, 12, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 8, 9, 10, 12, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 8, 9, 10, 12, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 4, 5, 8, 9, 10, 12, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 5, 8, 9, 10, 12, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 5, 8, 9, 10, 12, 128, 128, 128, 128, 128, 128, 128},
    {0, 4, 5, 6, 8, 9, 10, 12, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 5, 6, 8, 9, 10, 12, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 128, 128, 128, 128, 128, 128},
    {0, 4, 8, 12, 13, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 8, 12, 13, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 8, 12, 13, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 4, 5, 8, 12, 13, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 5, 8, 12, 13, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 5, 8, 12, 13, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 4, 5, 6, 8, 12, 13, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 5, 6, 8, 12, 13, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 5, 6, 8, 12, 13, 128, 128, 128, 128, 128, 128, 128},
    {0, 4, 8, 9, 12, 13, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 8, 9, 12, 13, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 8, 9, 12, 13, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 4, 5, 8, 9, 12, 13, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 5, 8, 9, 12, 13, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 5, 8, 9, 12, 13, 128, 128, 128, 128, 128, 128, 128},
    {0, 4, 5, 6, 8, 9, 12, 13, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 5, 6, 8, 9, 12, 13, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 5, 6, 8, 9, 12, 13, 128, 128, 128, 128, 128, 128},
    {0, 4, 8, 9, 10, 12, 13, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 8, 9, 10, 12, 13, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 8, 9, 10, 12, 13, 128, 128, 128, 128, 128, 128, 128},
    {0, 4, 5, 8, 9, 10, 12, 13, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 5, 8, 9, 10, 12, 13, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 5, 8, 9, 10, 12, 13, 128, 128, 128, 128, 128, 128},
    {0, 4, 5, 6, 8, 9, 10, 12, 13, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 5, 6, 8, 9, 10, 12, 13, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 128, 128, 128, 128, 128},
    {0, 4, 8, 12, 13, 14, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 8, 12, 13, 14, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 8, 12, 13, 14, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 4, 5, 8, 12, 13, 14, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 5, 8, 12, 13, 14, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 5, 8, 12, 13, 14, 128, 128, 128, 128, 128, 128, 128},
    {0, 4, 5, 6, 8, 12, 13, 14, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 5, 6, 8, 12, 13, 14, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 5, 6, 8, 12, 13, 14, 128, 128, 128, 128, 128, 128},
    {0, 4, 8, 9, 12, 13, 14, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 8, 9, 12, 13, 14, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 8, 9, 12, 13, 14, 128, 128, 128, 128, 128, 128, 128},
    {0, 4, 5, 8, 9, 12, 13, 14, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 5, 8, 9, 12, 13, 14, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 5, 8, 9, 12, 13, 14, 128, 128, 128, 128, 128, 128},
    {0, 4, 5, 6, 8, 9, 12, 13, 14, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 5, 6, 8, 9, 12, 13, 14, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 5, 6, 8, 9, 12, 13, 14, 128, 128, 128, 128, 128},
    {0, 4, 8, 9, 10, 12, 13, 14, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 8, 9, 10, 12, 13, 14, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 8, 9, 10, 12, 13, 14, 128, 128, 128, 128, 128, 128},
    {0, 4, 5, 8, 9, 10, 12, 13, 14, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 5, 8, 9, 10, 12, 13, 14, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 5, 8, 9, 10, 12, 13, 14, 128, 128, 128, 128, 128},
    {0, 4, 5, 6, 8, 9, 10, 12, 13, 14, 128, 128, 128, 128, 128, 128},
    {0, 1, 4, 5, 6, 8, 9, 10, 12, 13, 14, 128, 128, 128, 128, 128},
    {0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 128, 128, 128, 128},
};
/* sum(3^k) over the set bits k of a 4-bit mask: with the masks of units of 2+ and of 3 bytes,
 * the row of wp_utf8_gather4 */
static const uint8_t wp_pow3_sum[16] = { 0, 1, 3, 4, 9, 10, 12, 13, 27, 28, 30, 31, 36, 37, 39, 40 };

/* The UTF-8 of 8 units none of which is a surrogate at out (up to 12 bytes written past it).
 * The bytes of each unit are made in its 16-bit lane, all 8 at once: the lead byte and the next
 * one in one lane, the last continuation byte in another; the two are interleaved into 32-bit
 * lanes, 4 units to a vector, each gathered by its row of wp_utf8_gather4. */
WP_INLINE uint32_t wp_u16x8_to_utf8(const uint16_t *s, uint8_t *out) {
    const v128_t v = wasm_v128_load(s);
    const v128_t is2 = wasm_u16x8_gt(v, wasm_i16x8_splat(0x7f)), is3 = wasm_u16x8_gt(v, wasm_i16x8_splat(0x7ff));
    const v128_t x6 = wasm_u16x8_shr(v, 6);
    const v128_t lo6 = wasm_v128_or(wasm_v128_and(v, wasm_i16x8_splat(0x3f)), wasm_i16x8_splat(0x80));
    const v128_t mid6 = wasm_v128_or(wasm_v128_and(x6, wasm_i16x8_splat(0x3f)), wasm_i16x8_splat(0x80));
    const v128_t lead3 = wasm_v128_or(wasm_u16x8_shr(v, 12), wasm_i16x8_splat(0xe0));
    const v128_t lead2 = wasm_v128_or(x6, wasm_i16x8_splat(0xc0)); /* (v < 0x800: below 0x100) */
    const v128_t b0 = wasm_v128_bitselect(lead3, wasm_v128_bitselect(lead2, v, is2), is3);
    const v128_t b01 = wasm_v128_or(b0, wasm_i16x8_shl(wasm_v128_bitselect(mid6, lo6, is3), 8));
    const uint32_t m2 = (uint32_t)wasm_i16x8_bitmask(is2), m3 = (uint32_t)wasm_i16x8_bitmask(is3);
    const v128_t w0 = wasm_i16x8_shuffle(b01, lo6, 0, 8, 1, 9, 2, 10, 3, 11);
    const v128_t w1 = wasm_i16x8_shuffle(b01, lo6, 4, 12, 5, 13, 6, 14, 7, 15);
    wasm_v128_store(out, wasm_i8x16_swizzle(w0, wasm_v128_load(wp_utf8_gather4[wp_pow3_sum[m2 & 15u] + wp_pow3_sum[m3 & 15u]])));
    const uint32_t o = 4u + (uint32_t)__builtin_popcount(m2 & 15u) + (uint32_t)__builtin_popcount(m3 & 15u);
    wasm_v128_store(out + o, wasm_i8x16_swizzle(w1, wasm_v128_load(wp_utf8_gather4[wp_pow3_sum[m2 >> 4] + wp_pow3_sum[m3 >> 4]])));
    return 8u + (uint32_t)__builtin_popcount(m2) + (uint32_t)__builtin_popcount(m3);
}
#else
WP_INLINE bool wp_u16x8_any_surrogate(const uint16_t *s) {
    uint32_t any = 0;
    for (uint32_t k = 0; k < 8; k++) any |= (uint32_t)((s[k] & 0xf800u) == 0xd800u);
    return any != 0;
}
WP_INLINE uint32_t wp_u16x8_utf8_len(const uint16_t *s) {
    uint32_t len = 8;
    for (uint32_t k = 0; k < 8; k++) len += (uint32_t)(s[k] >= 0x80u) + (uint32_t)(s[k] >= 0x800u);
    return len;
}
WP_INLINE uint32_t wp_u16x8_to_utf8(const uint16_t *s, uint8_t *out) {
    uint32_t o = 0;
    for (uint32_t k = 0; k < 8; k++) {
        uint32_t len;
        wp_store_le32(out + o, wp_utf8_word(s[k], &len));
        o += len;
    }
    return o;
}
#endif

uint32_t wp_utf16_utf8_len(const uint16_t *s, uint32_t n) {
    uint32_t i = 0, len = 0;
    while (i < n) {
        /* blocks of 8: ASCII, or counted at once when there is no surrogate among them */
        if (i + 8 <= n) {
            if (wp_u16x8_ascii(s + i)) { i += 8; len += 8; continue; }
            if (!wp_u16x8_any_surrogate(s + i)) { len += wp_u16x8_utf8_len(s + i); i += 8; continue; }
        }
        uint32_t c = wp_u16_at(s, i);
        if ((c & 0xf800u) != 0xd800u) { len += 1u + (uint32_t)(c >= 0x80u) + (uint32_t)(c >= 0x800u); i += 1; }
        else if (wp_u16_pair(s, i, n)) { len += 4; i += 2; }
        else { len += 3; i += 1; } /* an unpaired surrogate as U+FFFD */
    }
    return len;
}

uint32_t wp_utf16_to_utf8(const uint16_t *s, uint32_t n, uint8_t *out) {
    uint32_t i = 0, o = 0;
    while (i < n) {
        if (i + 8 <= n) {
            if (wp_u16x8_ascii(s + i)) { wp_u16x8_narrow(s + i, out + o); i += 8; o += 8; continue; }
            if (!wp_u16x8_any_surrogate(s + i)) { o += wp_u16x8_to_utf8(s + i, out + o); i += 8; continue; }
        }
        /* a block with a surrogate, or the last units: up to 8 one by one (the units before the
         * surrogate as a block, then blocks again after it, made text dense with emoji 1.4x as
         * slow) */
        const uint32_t stop = n - i > 8u ? i + 8u : n;
        while (i < stop) {
            uint32_t c = wp_u16_at(s, i), len;
            if ((c & 0xf800u) == 0xd800u) {
                if (wp_u16_pair(s, i, n)) {
                    uint32_t cp = 0x10000u + ((c - 0xd800u) << 10) + (wp_u16_at(s, i + 1) - 0xdc00u);
                    out[o] = (uint8_t)(0xf0u | (cp >> 18));
                    out[o + 1] = (uint8_t)(0x80u | ((cp >> 12) & 0x3fu));
                    out[o + 2] = (uint8_t)(0x80u | ((cp >> 6) & 0x3fu));
                    out[o + 3] = (uint8_t)(0x80u | (cp & 0x3fu));
                    o += 4;
                    i += 2;
                    continue;
                }
                c = 0xfffdu; /* unpaired surrogate */
            }
            wp_store_le32(out + o, wp_utf8_word(c, &len)); /* a word: up to 3 bytes past the UTF-8 */
            o += len;
            i += 1;
        }
    }
    return o;
}

uint32_t wp_utf8_span_units(const uint8_t *s, uint32_t avail, uint32_t n) {
    /* bytes per lead byte, by its top 4 bits: ASCII and stray continuation bytes 1, C0-DF 2,
     * E0-EF 3, F0-FF 4 (only F0-F4 occur in well-formed UTF-8) */
    static const uint8_t lead_len[16] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4 };
    uint32_t i = 0, u = 0;
    while (u < n) {
        if (n - u >= 16 && avail - i >= 16) {
            uint64_t a = wp_load_u64(s + i), b = wp_load_u64(s + i + 8);
            if (((a | b) & 0x8080808080808080ull) == 0) { i += 16; u += 16; continue; }
        }
        if (i >= avail) return UINT32_MAX;
        const uint32_t k = lead_len[s[i] >> 4];
        if (k > avail - i) return UINT32_MAX;
        i += k;
        u += k == 4 ? 2u : 1u;
    }
    return u == n ? i : UINT32_MAX;
}
