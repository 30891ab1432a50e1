/* wp_utf8.c: ASCII detection and UTF-8 -> UTF-16 transcoding with WHATWG replacement. */
#include "wp_internal.h"

bool wp_is_ascii(const uint8_t *s, uint32_t n) {
    uint32_t i = 0;
    uint64_t acc = 0;
    for (; i + 8 <= n; i += 8) acc |= wp_load_u64(s + i);
    for (; i < n; i++) acc |= s[i];
    return (acc & 0x8080808080808080ull) == 0;
}

uint32_t wp_utf8_to_utf16(const uint8_t *s, uint32_t n, uint16_t *out) {
    uint32_t i = 0, o = 0;
    while (i < n) {
        uint32_t b = s[i];
        if (b < 0x80) {
            out[o++] = (uint16_t)b;
            i++;
            continue;
        }
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
            out[o++] = 0xFFFD;
            i++;
            continue;
        }
        uint32_t j = i + 1;
        bool ok = true;
        for (uint32_t k = 0; k < need; k++, j++) {
            if (j >= n || s[j] < lo || s[j] > hi) { ok = false; break; }
            cp = (cp << 6) | (s[j] & 0x3F);
            lo = 0x80; hi = 0xBF;
        }
        if (!ok) {
            out[o++] = 0xFFFD; /* the offending byte (if any) is examined again */
            i = j;
            continue;
        }
        if (cp >= 0x10000) {
            cp -= 0x10000;
            out[o++] = (uint16_t)(0xD800 | (cp >> 10));
            out[o++] = (uint16_t)(0xDC00 | (cp & 0x3FF));
        } else {
            out[o++] = (uint16_t)cp;
        }
        i = j;
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

uint32_t wp_utf16_utf8_len(const uint16_t *s, uint32_t n) {
    uint32_t i = 0, len = 0;
    while (i < n) {
        if (i + 8 <= n && wp_u16x8_ascii(s + i)) { i += 8; len += 8; continue; }
        uint32_t c = wp_u16_at(s, i);
        if (c < 0x80u) { len += 1; i += 1; }
        else if (c < 0x800u) { len += 2; i += 1; }
        else if (wp_u16_pair(s, i, n)) { len += 4; i += 2; }
        else { len += 3; i += 1; } /* BMP, or an unpaired surrogate as U+FFFD */
    }
    return len;
}

uint32_t wp_utf16_to_utf8(const uint16_t *s, uint32_t n, uint8_t *out) {
    uint32_t i = 0, o = 0;
    while (i < n) {
        if (i + 8 <= n && wp_u16x8_ascii(s + i)) { wp_u16x8_narrow(s + i, out + o); i += 8; o += 8; continue; }
        uint32_t c = wp_u16_at(s, i);
        if (c < 0x80u) {
            out[o++] = (uint8_t)c;
            i += 1;
        } else if (c < 0x800u) {
            out[o] = (uint8_t)(0xc0u | (c >> 6));
            out[o + 1] = (uint8_t)(0x80u | (c & 0x3fu));
            o += 2;
            i += 1;
        } else if (wp_u16_pair(s, i, n)) {
            uint32_t cp = 0x10000u + ((c - 0xd800u) << 10) + (wp_u16_at(s, i + 1) - 0xdc00u);
            out[o] = (uint8_t)(0xf0u | (cp >> 18));
            out[o + 1] = (uint8_t)(0x80u | ((cp >> 12) & 0x3fu));
            out[o + 2] = (uint8_t)(0x80u | ((cp >> 6) & 0x3fu));
            out[o + 3] = (uint8_t)(0x80u | (cp & 0x3fu));
            o += 4;
            i += 2;
        } else {
            if ((c & 0xf800u) == 0xd800u) c = 0xfffdu; /* unpaired surrogate */
            out[o] = (uint8_t)(0xe0u | (c >> 12));
            out[o + 1] = (uint8_t)(0x80u | ((c >> 6) & 0x3fu));
            out[o + 2] = (uint8_t)(0x80u | (c & 0x3fu));
            o += 3;
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
