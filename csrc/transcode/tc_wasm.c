/*
 * tc_wasm.c: the exports of build/wirepack-transcode.wasm (a module of its own, so the main
 * codec stays small), and its per-call arena. Natively this file is empty.
 *
 * The host writes the input at the arena base (tcw_reserve makes room), then makes one call;
 * results go to a static array (tcw_result):
 *   [0] output ptr [1] output bytes [2] error code [3] error offset [4] end offset
 *   [5] values [6] found start [7] found end
 * (tcw_transcode of a string's JSON: [6] 0 ASCII output, 1 UTF-8 output the host decodes, else
 * the address of its UTF-16 copy, [7] that copy's units)
 */
#ifdef __wasm__
#include <wasm_simd128.h>
#include "tc_internal.h"

#define TC_EXPORT(name) __attribute__((export_name(name)))

extern unsigned char __heap_base;
static uint32_t g_res[8];
static char g_num[32];

WP_INLINE uintptr_t tc_align(uintptr_t p, uintptr_t a) { return (p + a - 1) & ~(a - 1); }
WP_INLINE uintptr_t tc_base(void) { return tc_align((uintptr_t)&__heap_base, 16); }

static bool tc_reach(uint64_t end) {
    uint64_t have = (uint64_t)__builtin_wasm_memory_size(0) * 65536u;
    if (end <= have) return true;
    if (end > 0xFFFF0000ull) return false;
    uint64_t pages = (end - have + 65535u) / 65536u;
    return __builtin_wasm_memory_grow(0, (size_t)pages) != (size_t)-1;
}

/* Room for output from out: `want` bytes, or else as much as memory can still grow to (halving
 * while the engine refuses, down to `least`); 0 when not even `least` fits. An input whose
 * bound (8x for JSON output) is out of reach may well need far less. */
static uint64_t tc_out_room(uint64_t out, uint64_t want, uint64_t least) {
    const uint64_t top = 0xFFFF0000ull;
    if (out + least > top) return 0;
    uint64_t cap = want < top - out ? want : top - out;
    for (;;) {
        if (tc_reach(out + cap)) return cap;
        if (cap <= least) return 0;
        cap = cap / 2 > least ? cap / 2 : least;
    }
}

TC_EXPORT("tcw_result") uint32_t *tcw_result(void) { return g_res; }
TC_EXPORT("tcw_num") char *tcw_num(void) { return g_num; }

/* Room for `bytes` from the arena base; returns the base (0: memory cannot grow). */
TC_EXPORT("tcw_reserve") uint32_t tcw_reserve(uint32_t bytes) {
    uint64_t base = tc_base();
    if (!tc_reach(base + (uint64_t)bytes)) return 0;
    return (uint32_t)base;
}

/* UTF-16 (a JavaScript string, lone surrogates as U+FFFD like TextEncoder) -> UTF-8 */
static uint32_t tc_utf16_to_utf8(const uint16_t *s, uint32_t n, uint8_t *o) {
    uint8_t *p = o;
    uint32_t i = 0;
    while (i < n) {
        /* 16 ASCII units at a time (SIMD: test, narrow to bytes, one store), then 4 */
        while (i + 16 <= n) {
            v128_t a = wasm_v128_load(s + i), b = wasm_v128_load(s + i + 8);
            if (wasm_v128_any_true(wasm_v128_and(wasm_v128_or(a, b), wasm_u16x8_splat(0xFF80)))) break;
            wasm_v128_store(p, wasm_u8x16_narrow_i16x8(a, b));
            p += 16; i += 16;
        }
        while (i + 4 <= n) {
            uint64_t v;
            __builtin_memcpy(&v, s + i, 8);
            if (v & 0xFF80FF80FF80FF80ull) break;
            p[0] = (uint8_t)s[i]; p[1] = (uint8_t)s[i + 1]; p[2] = (uint8_t)s[i + 2]; p[3] = (uint8_t)s[i + 3];
            p += 4; i += 4;
        }
        if (i >= n) break;
        uint32_t c = s[i++];
        if (c < 0x80) { *p++ = (uint8_t)c; continue; }
        if (c < 0x800) { p[0] = (uint8_t)(0xC0 | (c >> 6)); p[1] = (uint8_t)(0x80 | (c & 0x3F)); p += 2; continue; }
        if (c >= 0xD800 && c <= 0xDFFF) {
            if (c <= 0xDBFF && i < n && s[i] >= 0xDC00 && s[i] <= 0xDFFF) {
                uint32_t cp = 0x10000 + ((c - 0xD800) << 10) + (s[i++] - 0xDC00);
                p[0] = (uint8_t)(0xF0 | (cp >> 18)); p[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
                p[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F)); p[3] = (uint8_t)(0x80 | (cp & 0x3F));
                p += 4;
                continue;
            }
            c = 0xFFFD;
        }
        p[0] = (uint8_t)(0xE0 | (c >> 12)); p[1] = (uint8_t)(0x80 | ((c >> 6) & 0x3F)); p[2] = (uint8_t)(0x80 | (c & 0x3F));
        p += 3;
    }
    return (uint32_t)(p - o);
}

static bool tc_is_ascii(const uint8_t *s, uint32_t n) {
    uint64_t acc = 0;
    uint32_t i = 0;
    v128_t vacc = wasm_i8x16_splat(0);
    for (; i + 16 <= n; i += 16) vacc = wasm_v128_or(vacc, wasm_v128_load(s + i));
    if (wasm_i8x16_bitmask(vacc)) return false;
    for (; i + 8 <= n; i += 8) { uint64_t v; __builtin_memcpy(&v, s + i, 8); acc |= v; }
    for (; i < n; i++) acc |= s[i];
    return (acc & 0x8080808080808080ull) == 0;
}

/* Valid UTF-8 (our own JSON output) -> UTF-16 */
static uint32_t tc_utf8_to_utf16(const uint8_t *s, uint32_t n, uint16_t *o) {
    uint32_t i = 0, k = 0;
    while (i < n) {
        /* 16 ASCII bytes at a time (SIMD: test, widen, two stores), then 8 */
        while (i + 16 <= n) {
            v128_t v = wasm_v128_load(s + i);
            if (wasm_i8x16_bitmask(v)) break;
            wasm_v128_store(o + k, wasm_u16x8_extend_low_u8x16(v));
            wasm_v128_store(o + k + 8, wasm_u16x8_extend_high_u8x16(v));
            k += 16; i += 16;
        }
        while (i + 8 <= n) {
            uint64_t v;
            __builtin_memcpy(&v, s + i, 8);
            if (v & 0x8080808080808080ull) break;
            for (int t = 0; t < 8; t++) o[k + t] = s[i + t];
            k += 8; i += 8;
        }
        if (i >= n) break;
        uint32_t c = s[i];
        if (c < 0x80) { o[k++] = (uint16_t)c; i++; }
        else if (c < 0xE0) { o[k++] = (uint16_t)(((c & 0x1F) << 6) | (s[i + 1] & 0x3F)); i += 2; }
        else if (c < 0xF0) { o[k++] = (uint16_t)(((c & 0x0F) << 12) | ((s[i + 1] & 0x3F) << 6) | (s[i + 2] & 0x3F)); i += 3; }
        else {
            uint32_t cp = ((c & 0x07) << 18) | ((s[i + 1] & 0x3F) << 12) | ((s[i + 2] & 0x3F) << 6) | (s[i + 3] & 0x3F);
            cp -= 0x10000;
            o[k++] = (uint16_t)(0xD800 | (cp >> 10));
            o[k++] = (uint16_t)(0xDC00 | (cp & 0x3FF));
            i += 4;
        }
    }
    return k;
}

#define TCW_UTF16_IN 0x100u  /* the input is len UTF-16 units (a string), not bytes */
#define TCW_STRING_OUT 0x200u /* JSON output for a string: res[6] = 0 when ASCII, else the
                               * address of a UTF-16 copy and res[7] its units (1: no room
                               * for one) */

/* Input: len bytes (or UTF-16 units) at the base. Arena: [input] ([UTF-8 of a UTF-16 input])
 * [scratch] [output out_cap (0: the bound)] ([UTF-16 output]). */
TC_EXPORT("tcw_transcode")
uint32_t tcw_transcode(uint32_t len, uint32_t from, uint32_t to, uint32_t flags, uint32_t indent,
                       uint32_t max_depth, uint32_t out_cap) {
    uint64_t in = tc_base();
    if (flags & TCW_UTF16_IN) {
        uint64_t u8 = tc_align(in + 2ull * len, 8);
        if (!tc_reach(u8 + 3ull * len)) {
            g_res[2] = WP_ERR_LIMIT;
            g_res[3] = 0;
            return WP_ERR_LIMIT;
        }
        uint32_t n = tc_utf16_to_utf8((const uint16_t *)(uintptr_t)in, len, (uint8_t *)(uintptr_t)u8);
        in = u8;
        len = n;
    }
    uint64_t scratch = tc_align(in + len, 8);
    uint64_t sw = wp_transcode_scratch_words(len, max_depth);
    uint64_t out = tc_align(scratch + sw * 4, 8);
    uint64_t want = out_cap ? out_cap : wp_transcode_out_bound(from, to, len);
    uint64_t room = tc_out_room(out, want, 65536);
    if (!room) {
        g_res[2] = WP_ERR_LIMIT;
        g_res[3] = 0;
        return WP_ERR_LIMIT;
    }
    out_cap = (uint32_t)room;
    wp_transcoder t;
    __builtin_memset(&t, 0, sizeof t);
    t.in = (const uint8_t *)(uintptr_t)in;
    t.len = len;
    t.from = from;
    t.to = to;
    t.flags = flags;
    t.indent = indent;
    t.max_depth = max_depth;
    t.out = (uint8_t *)(uintptr_t)out;
    t.out_cap = out_cap;
    t.scratch = (uint32_t *)(uintptr_t)scratch;
    t.scratch_cap = (uint32_t)sw;
    t.flags = flags & 0xFFu;
    wp_err e = wp_transcode(&t);
    /* out of room in less than was asked for: the memory's limit, not the caller's */
    if (e == WP_ERR_OUTPUT_FULL && room < want) e = WP_ERR_LIMIT;
    g_res[0] = (uint32_t)out;
    g_res[1] = t.out_len;
    g_res[2] = e;
    g_res[3] = t.err.offset;
    g_res[4] = t.end;
    g_res[5] = t.nvalues;
    g_res[6] = 0;
    g_res[7] = 0;
    if (e == WP_OK && (flags & TCW_STRING_OUT) && !tc_is_ascii(t.out, t.out_len)) {
        uint64_t u16 = tc_align(out + t.out_len, 8);
        /* no room for a UTF-16 copy: 1 (no address) says the host decodes the UTF-8 itself */
        if (!tc_reach(u16 + 2ull * t.out_len)) {
            g_res[6] = 1;
            return e;
        }
        g_res[6] = (uint32_t)u16;
        g_res[7] = tc_utf8_to_utf16(t.out, t.out_len, (uint16_t *)(uintptr_t)u16);
    }
    return e;
}

TC_EXPORT("tcw_validate")
uint32_t tcw_validate(uint32_t len, uint32_t format, uint32_t flags, uint32_t max_depth) {
    uint64_t in = tc_base();
    uint64_t scratch = tc_align(in + len, 8);
    uint64_t sw = wp_transcode_scratch_words(len, max_depth);
    if (!tc_reach(scratch + sw * 4)) { g_res[2] = WP_ERR_LIMIT; g_res[3] = 0; return WP_ERR_LIMIT; }
    wp_error err;
    wp_err e = wp_validate((const uint8_t *)(uintptr_t)in, len, format, flags, max_depth,
                           (uint32_t *)(uintptr_t)scratch, (uint32_t)sw, &err);
    g_res[2] = e;
    g_res[3] = err.offset;
    return e;
}

#define TC_MAX_STEPS 256u
static wp_path_step g_steps[TC_MAX_STEPS];

/* Input: len bytes at the base, then (at the next 4-byte boundary) the path: per step one word
 * (0xFFFFFFFF: a key, else the index), for keys a word with the length and the bytes padded
 * to 4. path_words: its size. */
TC_EXPORT("tcw_find")
uint32_t tcw_find(uint32_t len, uint32_t format, uint32_t path_words, uint32_t nsteps) {
    uint64_t in = tc_base();
    uint64_t path = tc_align(in + len, 4);
    uint64_t scratch = tc_align(path + (uint64_t)path_words * 4, 8);
    uint64_t sw = wp_transcode_scratch_words(len, 0);
    if (nsteps > TC_MAX_STEPS || !tc_reach(scratch + sw * 4)) { g_res[2] = WP_ERR_LIMIT; g_res[3] = 0; return WP_ERR_LIMIT; }
    const uint32_t *pw = (const uint32_t *)(uintptr_t)path;
    uint32_t w = 0;
    for (uint32_t i = 0; i < nsteps; i++) {
        if (pw[w] == 0xFFFFFFFFu) {
            g_steps[i].key_len = pw[w + 1];
            g_steps[i].key = (const uint8_t *)(pw + w + 2);
            g_steps[i].index = 0;
            w += 2 + (pw[w + 1] + 3) / 4;
        } else {
            g_steps[i].key = 0;
            g_steps[i].key_len = 0;
            g_steps[i].index = pw[w];
            w += 1;
        }
    }
    wp_error err;
    uint32_t s = 0, e2 = 0;
    wp_err e = wp_find((const uint8_t *)(uintptr_t)in, len, format, g_steps, nsteps,
                       (uint32_t *)(uintptr_t)scratch, (uint32_t)sw, &s, &e2, &err);
    g_res[2] = e;
    g_res[3] = err.offset;
    g_res[6] = s;
    g_res[7] = e2;
    return e;
}

/* String(v) for a double, into tcw_num(); returns the length. */
TC_EXPORT("tcw_f64") uint32_t tcw_f64(double v) { return wp_json_f64(v, g_num); }

#endif
