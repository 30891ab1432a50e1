/*
 * wp_wasm.c: every WebAssembly export, declared in this one place, and the per-call bump
 * arena in linear memory. Natively this file is empty: hosts call the wp_* API directly.
 *
 * The arena starts at the heap base, grows on demand and is reused by every call. The host puts
 * the input (decode) or the encode tape at the base, then makes one call, which lays out the
 * rest after it. Results are left in a static array (wpw_result) that the host reads.
 */
#ifdef __wasm__
#include "wp_internal.h"

#define WP_EXPORT(name) __attribute__((export_name(name)))

extern unsigned char __heap_base;

static wp_tables g_tables;
static wp_decoder g_dec;
static wp_encoder g_enc;
static uint32_t g_res[17];
static uint32_t g_layout[11];
/* The host's encoded map keys, which KEY entries of encode tapes refer to (wirepack.h). */
#define WP_KEY_WORDS 32768u
static uint32_t g_keys[WP_KEY_WORDS];
static uint32_t g_rec[WP_REC_SLOTS]; /* MessagePack record table (the host loads it, see wirepack.h) */
static wp_ext_config g_ext;          /* MessagePack extension handling (the host fills it) */
/* Holes in the next decode's input (wirepack.h, wp_decoder.holes): the host writes up to
 * WP_HOLES_MAX (offset, length) pairs here and passes their count to the decode call. */
#define WP_HOLES_MAX 256u
static uint32_t g_holes[2 * WP_HOLES_MAX];

WP_INLINE uintptr_t wp_align(uintptr_t p, uintptr_t a) { return (p + a - 1) & ~(a - 1); }
WP_INLINE uintptr_t wp_arena_base(void) { return wp_align((uintptr_t)&__heap_base, 16); }

/* Grow linear memory (from `have` bytes) to reach end; false when it cannot (wasm32 limit or host). */
static bool wp_arena_grow(uint64_t end, uint64_t have) {
    if (end > 0xFFFF0000ull) return false;
    uint64_t pages = (end - have + 65535u) / 65536u;
    return __builtin_wasm_memory_grow(0, (size_t)pages) != (size_t)-1;
}

/* Make linear memory reach at least end (inline: every call checks, few grow). */
WP_INLINE bool wp_arena_reach(uint64_t end) {
    uint64_t have = (uint64_t)__builtin_wasm_memory_size(0) * 65536u;
    return end <= have || wp_arena_grow(end, have);
}

WP_EXPORT("wpw_result") uint32_t *wpw_result(void) { return g_res; }
WP_EXPORT("wpw_holes") uint32_t *wpw_holes(void) { return g_holes; }

/* The highest address calls have written (or may have: an error counts all it had room for)
 * since the host last asked, which starts the count again. Linear memory never shrinks and a
 * page once written stays resident, so this bounds the memory the instance keeps, where the
 * memory's size only bounds what calls reserved: a decode reserves about 13 bytes per input byte
 * (CBOR 17) and writes 2-3. The host asks after each call once the memory is large, and replaces
 * the instance when calls have written past its limit and then stop doing so, not when the
 * reservations pass it. */
static uint64_t g_touched;
WP_INLINE void wp_touch(uint64_t end) {
    if (end > g_touched) g_touched = end;
}
WP_EXPORT("wpw_touched") uint32_t wpw_touched(void) {
    uint32_t t = g_touched > 0xFFFFFFFFull ? 0xFFFFFFFFu : (uint32_t)g_touched;
    g_touched = 0;
    return t;
}

WP_EXPORT("wpw_layout") uint32_t *wpw_layout(void) {
    g_layout[0] = (uint32_t)(uintptr_t)g_tables.key_off;
    g_layout[1] = (uint32_t)(uintptr_t)g_tables.key_len;
    g_layout[2] = (uint32_t)(uintptr_t)g_tables.key_pool;
    g_layout[3] = (uint32_t)(uintptr_t)g_tables.shape_off;
    g_layout[4] = (uint32_t)(uintptr_t)g_tables.shape_len;
    g_layout[5] = (uint32_t)(uintptr_t)g_tables.shape_pool;
    g_layout[6] = (uint32_t)wp_arena_base();
    g_layout[7] = WP_MAX_KEYS;
    g_layout[8] = (uint32_t)(uintptr_t)g_keys;
    g_layout[9] = WP_KEY_WORDS;
    g_layout[10] = (uint32_t)(uintptr_t)g_tables.vc_bytes;
    return g_layout;
}

/* Where the host writes the record table (WP_REC_SLOTS words) and the extension config. */
WP_EXPORT("wpw_records") uint32_t *wpw_records(void) { return g_rec; }
WP_EXPORT("wpw_ext_config") wp_ext_config *wpw_ext_config(void) { return &g_ext; }

static uint32_t g_generation; /* bumped whenever the tables are emptied */

WP_EXPORT("wpw_tables_reset") void wpw_tables_reset(void) {
    wp_tables_reset(&g_tables);
    g_generation++;
}
/* How full the key and shape tables are: the fullest of the tables and pools, in 1/1024ths. */
WP_INLINE uint32_t wp_tables_fill(void) {
    uint32_t k = g_tables.nkeys * 1024u / WP_MAX_KEYS;
    uint32_t s = g_tables.nshapes * 1024u / WP_MAX_SHAPES;
    uint32_t p = g_tables.shape_pool_used * 1024u / WP_SHAPE_POOL_WORDS;
    uint32_t q = g_tables.key_pool_used * 1024u / WP_KEY_POOL_BYTES;
    if (s > k) k = s;
    if (p > k) k = p;
    if (q > k) k = q;
    return k;
}
WP_EXPORT("wpw_tables_fill") uint32_t wpw_tables_fill(void) { return wp_tables_fill(); }

/* Make the arena (from its base) at least `bytes` long; returns the base, or 0 when memory
 * cannot grow that far. The host copies decode input to the base, or writes an encode tape
 * there, after making room with this call (only needed when the arena it saw is too short). */
WP_EXPORT("wpw_reserve") uint32_t wpw_reserve(uint32_t bytes) {
    uint64_t base = wp_arena_base();
    if (!wp_arena_reach(base + (uint64_t)bytes)) return 0;
    wp_touch(base + (uint64_t)bytes); /* the host writes there */
    return (uint32_t)base;
}

/* Bytes available from the arena base to the end of memory now. */
WP_EXPORT("wpw_arena_size") uint32_t wpw_arena_size(void) {
    uint64_t have = (uint64_t)__builtin_wasm_memory_size(0) * 65536u;
    return (uint32_t)(have - wp_arena_base());
}

/* Decode the len input bytes at the arena base (wpw_decode: MessagePack, wpw_cbor_decode: CBOR). Lays out the rest of the arena after them:
 *   [input len] [slack] [stack] [value ends] [ascii len] [slack] [utf16 len units] [tape 2*len+8 words (CBOR, and
 *   MessagePack with WP_DEC_MP_RAW_STRINGS: 3*len+8)]
 * (slack: WP_DEC_SLACK bytes, which the decoder may read after the input and write after the
 * ASCII area; the wasm build defines 16)
 * The tape comes last so that everything a call touches lies below its end (wpw_touched).
 * nholes: pairs in g_holes (wpw_holes) naming binary payloads the host did not copy (wirepack.h).
 * Tables fuller than `reset_fill` (1/1024ths) are emptied first; the generation in the results
 * changes when that happens, so the host drops its mirror too.
 * Results: wpw_result()
 *   [0] tape ptr [1] tape words [2] ascii ptr [3] ascii bytes [4] utf16 ptr [5] utf16 units
 *   [6] end offset [7] values [8] keys before [9] keys now [10] shapes before [11] shapes now
 *   [12] error code [13] error offset [14] deepest nesting [15] table generation
 *   [16] with WP_DEC_MULTIPLE: address of the end offsets of the values (one word each) */
/* Lay out the arena for a decode of len bytes (above) and point g_dec at it; false when memory
 * cannot grow that far (the results then say WP_ERR_LIMIT). Inlined into each export, as is
 * wp_decode_end: as calls of their own they were a fifth of the C time of a 1-byte decode, and
 * the MessagePack decode of small and medium documents is 4-9% faster without them. */
WP_INLINE bool wp_decode_begin(bool cbor, uint32_t len, uint32_t flags, uint32_t max_depth, uint32_t reset_fill, uint32_t nholes) {
    /* (and long before the value cache's stamps run out: the host drops its copy of the cache
     * with its mirror of the tables) */
    if (wp_tables_fill() > reset_fill || g_tables.vc_next > WP_VC_STAMP_MAX - (1u << 24)) wpw_tables_reset();
    g_res[15] = g_generation;
    uint64_t in = wp_arena_base();
    wp_touch(in + len); /* the host copied the input there */
    uint64_t stack = wp_align(in + len + WP_DEC_SLACK, 8); /* (the input's slack is only read) */
    uint64_t stack_words = wp_stack_words(max_depth, len);
    uint64_t ends = stack + stack_words * 4u;
    uint64_t ends_words = (flags & WP_DEC_MULTIPLE) ? (uint64_t)len + 1u : 0u;
    uint64_t ascii = ends + ends_words * 4u;
    uint64_t utf16 = wp_align(ascii + len + WP_DEC_SLACK, 8);
    uint64_t tape = wp_align(utf16 + 2ull * len, 8);
    uint64_t tape_words = cbor ? wp_cb_tape_words(len) : wp_mp_tape_words_for(len, flags);
    uint64_t end = tape + tape_words * 4u;
    if (!wp_arena_reach(end)) {
        g_res[7] = 0;
        g_res[12] = WP_ERR_LIMIT;
        g_res[13] = 0;
        return false;
    }
    g_dec.in = (const uint8_t *)(uintptr_t)in;
    g_dec.len = len;
    g_dec.max_depth = max_depth;
    g_dec.tape = (uint32_t *)(uintptr_t)tape;
    g_dec.tape_cap = (uint32_t)tape_words;
    g_dec.ascii = (uint8_t *)(uintptr_t)ascii;
    g_dec.ascii_cap = len;
    g_dec.utf16 = (uint16_t *)(uintptr_t)utf16;
    g_dec.utf16_cap = len;
    g_dec.stack = (uint32_t *)(uintptr_t)stack;
    g_dec.stack_cap = (uint32_t)stack_words;
    g_dec.flags = flags;
    g_dec.ends = ends_words ? (uint32_t *)(uintptr_t)ends : 0;
    g_dec.ends_cap = (uint32_t)ends_words;
    g_dec.records = cbor ? 0 : g_rec;
    g_dec.ext = cbor ? 0 : &g_ext;
    g_dec.holes = g_holes;
    g_dec.nholes = nholes <= WP_HOLES_MAX ? nholes : 0;
    g_res[16] = (uint32_t)ends;
    return true;
}

/* The results of the decode call that returned e (wpw_result, above). */
WP_INLINE uint32_t wp_decode_end(wp_err e) {
    /* a failed decode may have written part of an item past the tape's length */
    wp_touch((uintptr_t)g_dec.tape + 4ull * (e == WP_OK ? g_dec.tape_len : g_dec.tape_cap));
    g_res[0] = (uint32_t)(uintptr_t)g_dec.tape;
    g_res[1] = g_dec.tape_len;
    g_res[2] = (uint32_t)(uintptr_t)g_dec.ascii;
    g_res[3] = g_dec.ascii_len;
    g_res[4] = (uint32_t)(uintptr_t)g_dec.utf16;
    g_res[5] = g_dec.utf16_len;
    g_res[6] = g_dec.end;
    g_res[7] = g_dec.nvalues;
    g_res[8] = g_dec.keys_before;
    g_res[9] = g_tables.nkeys;
    g_res[10] = g_dec.shapes_before;
    g_res[11] = g_tables.nshapes;
    g_res[12] = (uint32_t)e;
    g_res[13] = g_dec.err.offset;
    g_res[14] = g_dec.depth_seen;
    return (uint32_t)e;
}

/* Policy limits for the following decode calls (0 = none). */
WP_EXPORT("wpw_set_limits") void wpw_set_limits(uint32_t max_array, uint32_t max_map, uint32_t max_str,
                                                 uint32_t max_bin, uint32_t max_ext) {
    g_dec.max_array = max_array;
    g_dec.max_map = max_map;
    g_dec.max_str = max_str;
    g_dec.max_bin = max_bin;
    g_dec.max_ext = max_ext;
}

/* Each export calls its decoder itself, so that each decoder is inlined into its own export: engines
 * compile a wasm function on its first call (V8's Liftoff, lazily) in time that grows with its
 * size and its locals, and both decoders in one function (a shared wp_decode_any) made the first
 * decode of either format take 8-9 ms to compile. */
WP_EXPORT("wpw_decode") uint32_t wpw_decode(uint32_t len, uint32_t flags, uint32_t max_depth, uint32_t reset_fill, uint32_t nholes) {
    if (!wp_decode_begin(false, len, flags, max_depth, reset_fill, nholes)) return WP_ERR_LIMIT;
    return wp_decode_end(wp_msgpack_decode(&g_dec, &g_tables));
}

WP_EXPORT("wpw_cbor_decode") uint32_t wpw_cbor_decode(uint32_t len, uint32_t flags, uint32_t max_depth, uint32_t reset_fill, uint32_t nholes) {
    if (!wp_decode_begin(true, len, flags, max_depth, reset_fill, nholes)) return WP_ERR_LIMIT;
    return wp_decode_end(wp_cbor_decode(&g_dec, &g_tables));
}

/* Point g_enc at the encode tape of `words` words at the arena base and at the strings right
 * after it (`units` UTF-16 units for STR16 entries, or else `utf8` bytes for STRU8 entries), and
 * at the key entries in g_keys (`kw` words of them referred to); returns the output address,
 * 8-aligned after the strings. */
WP_INLINE uint64_t wp_enc_begin(uint32_t words, uint32_t units, uint32_t utf8, uint32_t kw, uint32_t xlen) {
    uint64_t tape = wp_arena_base();
    uint64_t blob = tape + (uint64_t)words * 4u;
    g_res[12] = WP_ERR_OUTPUT_FULL;
    g_res[1] = 0;
    g_enc.tape = (const uint32_t *)(uintptr_t)tape;
    g_enc.tape_len = words;
    g_enc.units = (const uint16_t *)(uintptr_t)blob;
    g_enc.units_len = units;
    g_enc.utf8 = (const uint8_t *)(uintptr_t)blob;
    g_enc.utf8_len = units ? 0 : utf8;
    g_enc.keys = g_keys;
    g_enc.keys_len = WP_KEY_WORDS;
    g_enc.keys_words = kw;
    g_enc.ext_len = xlen;
    return wp_align(blob + (uint64_t)units * 2u + utf8, 8);
}

/* (wp_enc_begin, wp_enc_end and wp_enc_out_need are inlined into each encode export: as calls of
 * their own, three per encode, they were a tenth of the C time of a small encode; sample-small
 * and the fluentd message 1.11-1.12x, example4 1.04x, C alone, 3 processes.) */

/* The results of an encode call whose output went to out. (What it touched may be less than
 * out_len: the bytes XBIN entries skip are the host's to write, after the call.) */
WP_INLINE uint32_t wp_enc_end(wp_err e, uint64_t out) {
    wp_touch(out + (e == WP_OK ? g_enc.out_len : g_enc.out_cap));
    g_res[0] = (uint32_t)out;
    g_res[1] = g_enc.out_len;
    g_res[12] = (uint32_t)e;
    g_res[13] = g_enc.err.offset;
    return (uint32_t)e;
}

/* Encode the tape of `words` words at the arena base, its strings after it (wp_enc_begin); its
 * XBIN entries leave xlen bytes in all for the host to fill.
 * Results: [0] out ptr [1] out bytes [12] error code [13] error offset. */
WP_EXPORT("wpw_encode") uint32_t wpw_encode(uint32_t words, uint32_t units, uint32_t utf8, uint32_t kw, uint32_t xlen) {
    uint64_t out = wp_enc_begin(words, units, utf8, kw, xlen);
    uint64_t cap = wp_enc_out_need(&g_enc);
    if (cap == UINT32_MAX || !wp_arena_reach(out + cap)) return WP_ERR_OUTPUT_FULL;
    g_enc.out = (uint8_t *)(uintptr_t)out;
    g_enc.out_cap = (uint32_t)cap;
    return wp_enc_end(wp_msgpack_encode(&g_enc), out);
}
/* CBOR from the tape of `words` words at the arena base (and its strings, as wpw_encode); flags:
 * WP_CBOR_* without WP_CBOR_DETERMINISTIC and WP_CBOR_INDEFINITE, which wpw_cbor_encode_tracked
 * takes. Two exports, each with its form of the encoder inlined, so that an engine that compiles
 * a function on its first call (V8) compiles only the one used (in half the time). Results as
 * wpw_encode. */
WP_EXPORT("wpw_cbor_encode") uint32_t wpw_cbor_encode(uint32_t words, uint32_t flags, uint32_t units, uint32_t utf8, uint32_t kw, uint32_t xlen) {
    uint64_t out = wp_enc_begin(words, units, utf8, kw, xlen);
    uint64_t cap = wp_enc_out_need(&g_enc);
    if (flags & (WP_CBOR_DETERMINISTIC | WP_CBOR_INDEFINITE)) return g_res[12] = WP_ERR_BAD_TAPE; /* a host bug */
    if (cap == UINT32_MAX || !wp_arena_reach(out + cap)) return WP_ERR_OUTPUT_FULL;
    g_enc.out = (uint8_t *)(uintptr_t)out;
    g_enc.out_cap = (uint32_t)cap;
    return wp_enc_end(wp_cbor_encode_flat(&g_enc, flags), out);
}
/* wpw_cbor_encode with WP_CBOR_DETERMINISTIC or WP_CBOR_INDEFINITE: their scratch follows the output. */
WP_EXPORT("wpw_cbor_encode_tracked") uint32_t wpw_cbor_encode_tracked(uint32_t words, uint32_t flags, uint32_t units, uint32_t utf8, uint32_t kw) {
    uint64_t out = wp_enc_begin(words, units, utf8, kw, 0); /* (no XBIN entries: it moves bytes) */
    uint64_t cap = wp_enc_out_need(&g_enc);
    uint64_t scratch = wp_align(out + cap, 8);
    uint64_t scratch_words = wp_cbor_scratch_need(&g_enc);
    if (cap == UINT32_MAX || scratch_words == UINT32_MAX || !wp_arena_reach(scratch + scratch_words * 4u)) return WP_ERR_OUTPUT_FULL;
    g_enc.out = (uint8_t *)(uintptr_t)out;
    g_enc.out_cap = (uint32_t)cap;
    wp_touch(scratch + scratch_words * 4u);
    return wp_enc_end(wp_cbor_encode_tracked(&g_enc, flags, (uint32_t *)(uintptr_t)scratch, (uint32_t)scratch_words), out);
}

/* The n UTF-16 units at src (2-aligned) as UTF-8 at dst, as TextEncoder encodes them: the host
 * puts a long non-ASCII string of an encode tape there with Buffer#ucs2Write, which copies,
 * where Node's utf8Write transcodes a unit at a time (2-5x slower on mixed text). dst needs 3n +
 * 12 bytes that do not overlap the units. Returns the UTF-8 length, or UINT32_MAX when either
 * range is outside memory or they overlap (nothing written). */
WP_EXPORT("wpw_utf8_from_utf16") uint32_t wpw_utf8_from_utf16(uint32_t dst, uint32_t src, uint32_t n) {
    const uint64_t have = (uint64_t)__builtin_wasm_memory_size(0) * 65536u;
    const uint64_t d_end = (uint64_t)dst + 3u * (uint64_t)n + 12u, s_end = (uint64_t)src + 2u * (uint64_t)n;
    if ((src & 1u) || d_end > have || s_end > have || (dst < s_end && src < d_end)) return UINT32_MAX;
    wp_touch(d_end > s_end ? d_end : s_end);
    return wp_utf16_to_utf8((const uint16_t *)(uintptr_t)src, n, (uint8_t *)(uintptr_t)dst);
}
#else
typedef int wp_wasm_native_unit_is_empty;
#endif /* __wasm__ */
