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
