/*
 * wp_msgpack.c: MessagePack -> decode tape, and encode tape -> MessagePack.
 *
 * The decoder is one loop with a switch on the first byte and an explicit stack of frames (no
 * recursion). Declared lengths are checked against the bytes left before anything is written,
 * so no length from the input ever sizes memory: the tape is bounded by the input size.
 */
#include "wp_internal.h"

/* ===================================================================== error names */

const char *wp_err_name(wp_err code) {
    switch (code) {
    case WP_OK: return "OK";
    case WP_ERR_TRUNCATED: return "TRUNCATED";
    case WP_ERR_RESERVED_BYTE: return "RESERVED_BYTE";
    case WP_ERR_TRAILING_DATA: return "TRAILING_DATA";
    case WP_ERR_BAD_TIMESTAMP: return "BAD_TIMESTAMP";
    case WP_ERR_BAD_RECORD: return "BAD_RECORD";
    case WP_ERR_UNKNOWN_RECORD: return "UNKNOWN_RECORD";
    case WP_ERR_BAD_BUNDLE: return "BAD_BUNDLE";
    case WP_ERR_BAD_KEY: return "BAD_KEY";
    case WP_ERR_RESERVED_AI: return "RESERVED_AI";
    case WP_ERR_BREAK: return "BREAK";
    case WP_ERR_BAD_CHUNK: return "BAD_CHUNK";
    case WP_ERR_BAD_SIMPLE: return "BAD_SIMPLE";
    case WP_ERR_RESERVED_TAG: return "RESERVED_TAG";
    case WP_ERR_DEPTH: return "DEPTH";
    case WP_ERR_LIMIT: return "LIMIT";
    case WP_ERR_TAPE_FULL: return "TAPE_FULL";
    case WP_ERR_OUTPUT_FULL: return "OUTPUT_FULL";
    case WP_ERR_BAD_TAPE: return "BAD_TAPE";
    case WP_ERR_SCRATCH: return "SCRATCH";
    case WP_ERR_HOLE: return "HOLE";
    }
    return "UNKNOWN";
}

/* ===================================================================== decode */

/* Size in bytes of each scalar by first byte, for number-run scanning: 0 = not a number
 * that a run may hold (uint64/int64 stay out: they may need BigInt). */
static const uint8_t wp_num_size[256] = {
    /* 0x00-0x7f positive fixint */
    [0x00 ... 0x7f] = 1,
    [0xca] = 5, [0xcb] = 9,
    [0xcc] = 2, [0xcd] = 3, [0xce] = 5,
    [0xd0] = 2, [0xd1] = 3, [0xd2] = 5,
    [0xe0 ... 0xff] = 1,
};



uint32_t wp_decode_tape_words(uint32_t len) { return wp_mp_tape_words(len); }

uint32_t wp_decode_stack_words(uint32_t max_depth, uint32_t len) { return wp_stack_words(max_depth, len); }

/* Number at r->pos (first byte b, known numeric and complete) as a double. */
WP_INLINE double wp_num_at(const uint8_t *p) {
    uint32_t b = p[0];
    if (b < 0x80) return (double)b;
    if (b >= 0xe0) return (double)(int32_t)(int8_t)b;
    switch (b) {
    case 0xca: return (double)wp_f32_from_bits(wp_be32(p + 1));
    case 0xcb: return wp_f64_from_bits(wp_be64(p + 1));
    case 0xcc: return (double)p[1];
    case 0xcd: return (double)wp_be16(p + 1);
    case 0xce: return (double)wp_be32(p + 1);
    case 0xd0: return (double)(int8_t)p[1];
    case 0xd1: return (double)(int16_t)wp_be16(p + 1);
    default: /* 0xd2 */ return (double)(int32_t)wp_be32(p + 1);
    }
}

/* nil, false and true, which a run may hold besides numbers (wp_run_special; 0: not one). */
static const uint8_t wp_mp_special[4] = { WP_RUN_NULL, 0, WP_RUN_FALSE, WP_RUN_TRUE }; /* c0..c3 */
WP_INLINE uint32_t wp_mp_run_special(uint32_t b) { return b - 0xc0u < 4u ? wp_mp_special[b - 0xc0u] : 0; }
WP_INLINE uint32_t wp_mp_num_size(const uint8_t *p) { return wp_num_size[p[0]]; }
/* A one-byte integer that is never a record (fixints 0-63, negative fixints) as its value, else
 * WP_NOT_TINY (0x40-0x7f may name a record: wp_run_reject decides those). */
WP_INLINE int32_t wp_mp_tiny(uint32_t b) { return b < 0x40u ? (int32_t)b : b >= 0xe0u ? (int32_t)(int8_t)b : WP_NOT_TINY; }

/* wp_run_try for MessagePack: the n elements at r->pos, ending before `end` (an open bundle's
 * strings), as a NUMRUN or SCALARRUN (nil, false, true), or false. */
static bool wp_try_numrun(wp_reader *r, wp_tape *t, uint32_t n, bool f32_tagged, const uint32_t *recs, bool strict, uint32_t end) {
    return wp_run_try(r, t, n, wp_mp_num_size, wp_num_at, wp_mp_run_special, wp_mp_tiny, f32_tagged ? 0xcau : 0u, recs, strict, end);
}

/* Timestamp extension payload -> ms since the epoch (floored), or an error. (msgpackr and
 * msgpack-javascript compute sec * 1e3 + nsec / 1e6 in doubles, which rounds 2147483647 s +
 * 999999999 ns up to the next second, and let the Date truncate toward zero: the floor of the
 * exact instant is what the conformance suite lists.) */
static wp_err wp_timestamp_ms(const uint8_t *p, uint32_t n, double *ms) {
    int64_t sec;
    uint32_t nsec;
    if (n == 4) {
        sec = wp_be32(p);
        nsec = 0;
    } else if (n == 8) {
        uint64_t v = wp_be64(p);
        nsec = (uint32_t)(v >> 34);
        sec = (int64_t)(v & 0x3ffffffffull);
    } else if (n == 12) {
        nsec = wp_be32(p);
        sec = (int64_t)wp_be64(p + 4);
    } else if (n == 1 && p[0] == 0xff) {
        *ms = __builtin_nan(""); /* msgpackr's invalid Date */
        return WP_OK;
    } else {
        return WP_ERR_BAD_TIMESTAMP;
    }
    if (nsec >= 1000000000u) return WP_ERR_BAD_TIMESTAMP;
    *ms = (double)sec * 1000.0 + (double)(nsec / 1000000u);
    return WP_OK;
}

/* Record slot of msgpackr's record id for first byte 0x40|s and high byte h (two-byte ids and
 * d5 72 definitions): s >= 32 gives s + 32h; s < 32 gives the negative id -(s + 32h), whose
 * slots follow the positive range (-0 is slot 0). */
WP_INLINE uint32_t wp_rec_slot(uint32_t s, uint32_t h) {
    uint32_t id = s + (h << 5);
    return (s >= 32 || id == 0) ? id : 8224u + id;
}

WP_INLINE bool wp_bit(const uint32_t *set, uint32_t t) { return (set[t >> 5] >> (t & 31u)) & 1u; }

/* The header of the extension at start (first byte b) in a map key's place: its bytes up to and
 * with the type byte (0 when b starts no extension or the header is cut), its type and its data
 * length. */
static uint32_t wp_mp_ext_head(const wp_reader *r, uint32_t start, uint32_t b, uint32_t *type, uint32_t *n) {
    const uint8_t *q = r->base + start;
    const uint32_t left = r->len - start;
    uint32_t hl;
    if (b >= 0xd4 && b <= 0xd8) hl = 2;
    else if (b == 0xc7) hl = 3;
    else if (b == 0xc8) hl = 4;
    else if (b == 0xc9) hl = 6;
    else return 0;
    if (left < hl) return 0;
    *n = b >= 0xd4 ? 1u << (b - 0xd4) : b == 0xc7 ? q[1] : b == 0xc8 ? wp_be16(q + 1) : wp_be32(q + 1);
    *type = q[hl - 1];
    return hl;
}

/* Whether the extension at start (first byte b) is one the value path makes undefined (a type-0
 * extension that no extension of the host takes: any, as msgpackr reads them, once the host gave
 * its extension table; d4 00 00 without one): a map key msgpackr coerces to "undefined". */
static bool wp_mp_undef_ext(const wp_reader *r, uint32_t start, uint32_t b, const wp_ext_config *xc) {
    uint32_t type, n;
    const uint32_t hl = wp_mp_ext_head(r, start, b, &type, &n);
    if (hl == 0 || type != 0) return false;
    if (xc) return !(wp_bit(xc->any, 0) || (b == 0xd4 && wp_bit(xc->fix1, 0)) || wp_bit(xc->raw, 0));
    return n == 1 && r->len - start > hl && r->base[start + hl] == 0;
}

/* Where the arrays with a structuredClone id are (wp_rec_sc_words), for record keys that point to
 * one: op 0 remembers id's array at input offset nk (an id past the table, once the spill pairs
 * are used, is not remembered: a pointer to it is then BAD_RECORD, as any pointer to keys no
 * definition gave); op 2 forgets it; op 1 returns it, or UINT32_MAX when there is none or the
 * array is still open among the sp frames fr (a frame starts at its head): the definition is
 * inside it, and msgpackr then reads the keys from the empty array it fills once the array is
 * read, a record of no fields, where wirepack says BAD_RECORD. Out of the item loop (wasm-opt
 * inlines a function of one caller, build.sh): definitions with such ids are rare. */
static __attribute__((noinline)) uint32_t wp_mp_sc_keys(uint32_t *sc, uint32_t dense_n, uint32_t op, uint32_t id, uint32_t nk,
                                                       const wp_frame *fr, uint32_t sp) {
    if (op == 1) {
        const uint32_t q = wp_mp_sc_keys(sc, dense_n, 3, id, 0, 0, 0);
        for (uint32_t i = 0; i < sp && q != UINT32_MAX; i++)
            if ((fr[i].flags & FR_ARR) && fr[i].start == q) return UINT32_MAX;
        return q;
    }
    if (op == 3) op = 1; /* (the lookup alone) */
    uint32_t *const spill = sc + 1, *const dense = sc + 1 + 2u * WP_SC_SPILL;
    if (sc[0] == 0) {
        if (op == 1) return UINT32_MAX;
        __builtin_memset(dense, 0, (size_t)dense_n * 4u);
        sc[0] = 1;
    }
    if (op == 2) nk = UINT32_MAX; /* (forget: no key count) */
    if (id < dense_n) {
        if (op == 1) return dense[id] ? dense[id] - 1u : UINT32_MAX;
        dense[id] = nk + 1u; /* (0 when forgotten) */
        return nk;
    }
    const uint32_t used = sc[0] - 1u;
    for (uint32_t i = 0; i < used; i++) {
        if (spill[2u * i] != id) continue;
        if (op == 1) return spill[2u * i + 1u];
        spill[2u * i + 1u] = nk;
        return nk;
    }
    if (op != 0 || used == WP_SC_SPILL) return UINT32_MAX;
    spill[2u * used] = id;
    spill[2u * used + 1u] = nk;
    sc[0]++;
    return nk;
}

/* The length of the array whose head is at q; UINT32_MAX when q holds no array head (or a cut one). */
static uint32_t wp_mp_array_at(const wp_reader *r, uint32_t q) {
    if (q >= r->len) return UINT32_MAX;
    const uint32_t a = r->base[q], left = r->len - q;
    if (a >= 0x90 && a <= 0x9f) return a & 0x0fu;
    if (a == 0xdc && left >= 3) return wp_be16(wp_rd_at(r, q + 1u));
    if (a == 0xdd && left >= 5) return wp_be32(wp_rd_at(r, q + 1u));
    return UINT32_MAX;
}

/* A structured-clone id given to the value at q (not a definition's keys): where it is if it is
 * an array (a later d6 70 pointer may name it as keys), else none (wp_mp_sc_keys). */
static __attribute__((noinline)) void wp_mp_sc_note(const wp_reader *r, uint32_t *sc, uint32_t dense_n, uint32_t id, uint32_t q) {
    if (wp_mp_array_at(r, q) != UINT32_MAX) wp_mp_sc_keys(sc, dense_n, 0, id, q, 0, 0);
    else if (sc[0] != 0) wp_mp_sc_keys(sc, dense_n, 2, id, 0, 0, 0);
}

/* Undo the record definitions of a call (pairs of slot, old value; newest last). */
static void wp_rec_undo(uint32_t *recs, const uint32_t *undo, uint32_t n) {
    while (n >= 2) {
        n -= 2;
        recs[undo[n]] = undo[n + 1];
    }
}

/* The string at q (any str form): its length and header size. WP_OK, WP_ERR_TRUNCATED when the
 * input ends inside it, WP_ERR_BAD_BUNDLE when it is not a string. */
static wp_err wp_str_at(const wp_reader *r, uint32_t q, uint32_t *n, uint32_t *hl) {
    if (q >= r->len) return WP_ERR_TRUNCATED;
    uint32_t b = r->base[q], left = r->len - q;
    if (b >= 0xa0 && b <= 0xbf) { *n = b & 0x1f; *hl = 1; }
    else if (b == 0xd9) { if (left < 2) return WP_ERR_TRUNCATED; *n = r->base[q + 1]; *hl = 2; }
    else if (b == 0xda) { if (left < 3) return WP_ERR_TRUNCATED; *n = wp_be16(wp_rd_at(r, q + 1)); *hl = 3; }
    else if (b == 0xdb) { if (left < 5) return WP_ERR_TRUNCATED; *n = wp_be32(wp_rd_at(r, q + 1)); *hl = 5; }
    else return WP_ERR_BAD_BUNDLE;
    return *n <= left - *hl ? WP_OK : WP_ERR_TRUNCATED;
}

/* The integer at q (the count after 0xc1 in a bundled string reference): false if it is not a
 * 32-bit integer form or is cut short. */
static bool wp_int_at(const wp_reader *r, uint32_t q, int64_t *v, uint32_t *size) {
    if (q >= r->len) return false;
    uint32_t b = r->base[q], left = r->len - q;
    const uint8_t *p = wp_rd_at(r, q);
    if (b <= 0x7f) { *v = b; *size = 1; return true; }
    if (b >= 0xe0) { *v = (int8_t)b; *size = 1; return true; }
    switch (b) {
    case 0xcc: if (left < 2) return false; *v = p[1]; *size = 2; return true;
    case 0xcd: if (left < 3) return false; *v = wp_be16(p + 1); *size = 3; return true;
    case 0xce: if (left < 5) return false; *v = wp_be32(p + 1); *size = 5; return true;
    case 0xd0: if (left < 2) return false; *v = (int8_t)p[1]; *size = 2; return true;
    case 0xd1: if (left < 3) return false; *v = (int16_t)wp_be16(p + 1); *size = 3; return true;
    case 0xd2: if (left < 5) return false; *v = (int32_t)wp_be32(p + 1); *size = 5; return true;
    default: return false;
    }
}

/* A record definition's keys (nk strings from q) when they are those of shape g - 1 (the last
 * shape the definitions of this record id and number of keys interned, wp_tables.rec_last; 0:
 * none), each within max_str: where they end, else UINT32_MAX (the keys are then interned as
 * they come, which finds that shape when it is theirs). Compared, not hashed: example4 through
 * new Packr() 1.17x in the C decode alone (wasm). */
static uint32_t wp_rec_guess(const wp_reader *r, const wp_tables *tb, uint32_t q, uint32_t nk, uint32_t max_str, uint32_t g) {
    if (g - 1u >= tb->nshapes || tb->shape_len[g - 1u] != nk || WP_TEST_SHORTCUTS_OFF) return UINT32_MAX;
    const uint32_t *const ids = tb->shape_pool + tb->shape_off[g - 1u];
    for (uint32_t k = 0; k < nk; k++) {
        uint32_t sn = 0, sh = 0;
        if (wp_str_at(r, q, &sn, &sh) != WP_OK || wp_over(sn, max_str)) return UINT32_MAX;
        const uint8_t *s = wp_rd_at(r, q + sh);
        if (!wp_key_is_at(tb, ids[k], s, sn, r->len - (q + sh))) return UINT32_MAX;
        q += sh + sn;
    }
    WP_TEST_COUNT(wp_test_rec_guesses, 1u);
    return q;
}

#define FAIL(c, off) do { err = (c); eoff = (off); goto fail; } while (0)

/* The open bundle's state besides where its strings start (b_S), in WP_BST_WORDS words of the
 * caller's stack: where the value after it starts, the UTF-16 lengths of its two strings and how
 * much of each is taken, where the second string's bytes are, and whether it is ASCII. */
enum { BST_POST, BST_U1, BST_U2, BST_P1, BST_P2, BST_IN2, BST_ASCII2 };

/* The checks a string, binary or extension of n bytes at r.pos (left readable from there) passes
 * before its bytes are read, in this order: while a bundle is open (in_bundle), its bytes end
 * before the bundle's strings, as the item itself must (bytes read both ways would be decoded
 * twice); n is within the kind's limit; the input holds them. (A macro, as FAIL: a helper
 * returning the error cost 2-4% more native instructions per decode.) */
#define SPAN_CHECK(limit, in_bundle) do { \
        if (wp_unlikely(in_bundle) && n <= left && (uint64_t)r.pos + n > b_S) FAIL(WP_ERR_BAD_BUNDLE, start); \
        if (wp_over(n, (limit))) FAIL(WP_ERR_LIMIT, start); \
        if (n > left) FAIL(WP_ERR_TRUNCATED, start); \
    } while (0)

/* wp_put_string out of the item loop, for a bundle's two strings: the tape's new length, or
 * UINT32_MAX when the string does not fit. */
static __attribute__((noinline)) uint32_t wp_put_string_cold(wp_decoder *d, uint32_t *w, uint32_t len, uint32_t cap, const uint8_t *s, uint32_t n) {
    wp_tape t = { w, len, cap };
    return wp_put_string(d, &t, s, n, false) ? t.len : UINT32_MAX; /* (bundle strings are sliced by units) */
}

/* ===================================================================== guessed pairs
 * (wp_internal.h: why, and the stop protocol) */

#ifdef WP_TEST_COUNTERS
uint32_t wp_test_pairs, wp_test_rec_guesses;
bool wp_test_no_shortcuts;
#endif

/* wp_pairs_run's value step for MessagePack (opts: WP_PV_VCACHE, WP_PV_F32, WP_PV_RECS, where
 * 0x40-0x7f may name records and are left to the item loop): the scalars and the strings of a
 * one-byte length. */
WP_INLINE bool wp_mp_pair_value(wp_decoder *d, wp_tables *tb, wp_tape *t, const uint8_t *in, uint32_t len, uint32_t *at,
                                uint32_t opts) {
    const uint32_t pos = *at;
    if (pos >= len) return false;
    const uint32_t b = in[pos];
    const uint8_t *q = in + pos;
    const uint32_t left = len - pos;
    uint32_t size;
    if (b < 0x40u || b >= 0xe0u || (b < 0x80u && !(opts & WP_PV_RECS))) {
        wp_tape_tagp(t, WP_T_INT, b >= 0xe0u ? b | 0xffff00u : b);
        size = 1u;
    } else if (b - 0xa0u < 0x20u || b == 0xd9u) {
        const uint32_t hl = b == 0xd9u ? 2u : 1u;
        if (left < hl) return false;
        const uint32_t sn = b == 0xd9u ? q[1] : b & 0x1fu;
        if (sn > left - hl) return false;
        if (!wp_put_value_string(d, tb, t, q + hl, sn, left - hl + WP_DEC_SLACK, (opts & WP_PV_VCACHE) != 0)) return false;
        size = hl + sn;
    } else {
        switch (b) {
        case 0xc0: wp_tape_put(t, WP_T_NIL); size = 1u; break;
        case 0xc2: wp_tape_put(t, WP_T_FALSE); size = 1u; break;
        case 0xc3: wp_tape_put(t, WP_T_TRUE); size = 1u; break;
        case 0xca:
            if (left < 5u) return false;
            wp_tape_f64(t, (opts & WP_PV_F32) ? WP_T_F32 : WP_T_F64, (double)wp_f32_from_bits(wp_be32(q + 1)));
            size = 5u;
            break;
        case 0xcb:
            if (left < 9u) return false;
            wp_tape_f64(t, WP_T_F64, wp_f64_from_bits(wp_be64(q + 1)));
            size = 9u;
            break;
        case 0xcc: if (left < 2u) return false; wp_tape_tagp(t, WP_T_INT, q[1]); size = 2u; break;
        case 0xcd: if (left < 3u) return false; wp_tape_tagp(t, WP_T_INT, wp_be16(q + 1)); size = 3u; break;
        case 0xce: if (left < 5u) return false; wp_tape_put(t, WP_T_U32); wp_tape_put(t, wp_be32(q + 1)); size = 5u; break;
        case 0xd0: if (left < 2u) return false; wp_tape_tagp(t, WP_T_INT, (uint32_t)(int32_t)(int8_t)q[1] & 0xffffffu); size = 2u; break;
        case 0xd1: if (left < 3u) return false; wp_tape_tagp(t, WP_T_INT, (uint32_t)(int32_t)(int16_t)wp_be16(q + 1) & 0xffffffu); size = 3u; break;
        case 0xd2: if (left < 5u) return false; wp_tape_put(t, WP_T_I32); wp_tape_put(t, wp_be32(q + 1)); size = 5u; break;
        default: return false;
        }
    }
    *at = pos + size;
    return true;
}

/* wp_pairs_run for MessagePack: keys are fixstr of at most 16 bytes. */
static __attribute__((noinline)) uint32_t wp_mp_pairs(wp_decoder *d, wp_tables *tb, wp_pairs *p, uint32_t *w, uint32_t tcap,
                                                      uint32_t g, uint32_t *kscratch, uint32_t kcap, uint32_t k, uint32_t opts) {
    return wp_pairs_run(d, tb, p, w, tcap, g, kscratch, kcap, k, 0xa0u, wp_mp_pair_value, opts);
}

wp_err wp_msgpack_decode(wp_decoder *d, wp_tables *tb) {
    wp_reader r = { d->in, 0, d->len };
    wp_tape t = { d->tape, 0, d->tape_cap };
    uint32_t max_depth = wp_effective_depth(d->max_depth, d->len);
    /* The flags are read from d where they are tested (d->flags never changes during a call),
     * not kept in locals: V8's first-call compiler (Liftoff) holds a copy of every local at each
     * branch target, and with these seven as locals the function had 61 where it now has 49, and
     * its first call took 833 KB of compiler memory against 570 KB (build.sh: about 16 us a page
     * in this VM). The C alone measured the same (bench/ab.js --mode=c: 0.99-1.01x). #undef'd
     * after the function. */
#define as_objects ((d->flags & WP_DEC_MAPS_AS_OBJECTS) != 0)
#define intern ((d->flags & WP_DEC_NO_INTERN) == 0)
#define vcache ((d->flags & WP_DEC_VCACHE) != 0)
#define multiple ((d->flags & WP_DEC_MULTIPLE) != 0)
#define f32_tagged ((d->flags & WP_DEC_TAG_F32) != 0)
#define rec_strict ((d->flags & WP_DEC_REC_STRICT) != 0)
#define bundles ((d->flags & WP_DEC_BUNDLES) != 0)
#define strict_keys ((d->flags & WP_DEC_MP_STRICT_KEYS) != 0)
#define raw_strings ((d->flags & WP_DEC_MP_RAW_STRINGS) != 0)
#define c1_undefined ((d->flags & WP_DEC_MP_C1_UNDEFINED) != 0)
    uint32_t *const recs = d->records;
    const wp_ext_config *const xc = d->ext;
    wp_err err = WP_OK;
    uint32_t eoff = 0;
    /* ids that complete top-level values refer to survive a later failure (WP_DEC_MULTIPLE) */
    uint32_t keep_keys = tb->nkeys, keep_shapes = tb->nshapes;
    /* record definitions of this call, undone before returning */
    uint32_t *undo = 0, undo_cap = 0, nundo = 0;
    /* bundled strings of the current top-level value: b_S is where the open bundle's strings
     * start, UINT32_MAX while none is open (so every item checks one compare); the rest of the
     * bundle's state (BST_*) is in words of the caller's stack, read by bundled strings only. As
     * locals of the item loop they cost every decode 2-3% in wasm, bundles or not (the engine
     * keeps fewer of the loop's values in registers). */
    uint32_t b_S = UINT32_MAX;

    wp_dec_reset(d, tb);
    if (vcache) tb->vc_call++; /* (slots this call uses are kept until it ends: wp_vc_put) */

    if (d->stack_cap < wp_stack_words(max_depth, d->len)) FAIL(WP_ERR_TAPE_FULL, 0);
    wp_frame *fr = (wp_frame *)(void *)d->stack;
    uint32_t *kscratch = d->stack + max_depth * WP_FRAME_WORDS;
    undo_cap = wp_rec_undo_words(d->len);
    undo = d->stack + d->stack_cap - undo_cap;
    uint32_t *const bst = undo - WP_BST_WORDS;
    uint32_t *const sc = bst - wp_rec_sc_words(d->len);
    sc[0] = 0;
    uint32_t kcap = d->stack_cap - max_depth * WP_FRAME_WORDS - undo_cap - WP_BST_WORDS - wp_rec_sc_words(d->len);
    uint32_t ktop = 0, sp = 0;

    if (d->len == 0) FAIL(WP_ERR_TRUNCATED, 0);

    for (;;) {
        uint32_t start = r.pos;
        uint32_t n, hl, left; /* a value's length and header bytes (strings, containers, ...) */
        int32_t ext_type;
        /* input ends between items: the innermost open container is what is cut */
        if (wp_unlikely(!wp_rd_has(&r, 1))) FAIL(WP_ERR_TRUNCATED, sp ? fr[sp - 1].start : start);
        if (wp_unlikely(!wp_tape_room(&t, 6))) FAIL(WP_ERR_TAPE_FULL, start);
        uint32_t b = r.base[r.pos];
        /* values lie before the current bundle's strings (which follow the value or sit in the
         * next bundle's data): reading into them would decode those bytes twice */
        if (wp_unlikely(start >= b_S)) FAIL(WP_ERR_BAD_BUNDLE, start);
        wp_frame *top = sp ? &fr[sp - 1] : 0;
        bool is_key = top && (top->flags & FR_MAP) && (top->remaining & 1u) == 0;

        /* ------------------------------------------------ map keys that are strings */
        if (is_key) {
            if (top->count && (top->flags & FR_ALL_INTERNED) && b_S == UINT32_MAX && d->max_str - 1u >= 0xfeu &&
                !raw_strings && !WP_TEST_SHORTCUTS_OFF) {
                /* a guessed map: its entries out of this loop while they are the common kinds */
                wp_pairs pr = { r.pos, t.len, ktop, top->remaining };
                const uint32_t st = wp_mp_pairs(d, tb, &pr, t.w, t.cap, top->count, kscratch, kcap, ktop - top->kstart,
                                                (vcache ? WP_PV_VCACHE : 0u) | (f32_tagged ? WP_PV_F32 : 0u) | (recs ? WP_PV_RECS : 0u));
                /* a guess from the map's opening whose first key is not this one: none (the key
                 * is hashed without being compared again) */
                if (pr.ktop == top->kstart) top->count = 0;
                r.pos = pr.pos;
                t.len = pr.tlen;
                ktop = pr.ktop;
                top->remaining = pr.remaining;
                if (st == WP_PAIRS_DONE) goto item_done;
                start = r.pos;
                if (wp_unlikely(!wp_rd_has(&r, 1))) FAIL(WP_ERR_TRUNCATED, top->start);
                if (wp_unlikely(!wp_tape_room(&t, 6))) FAIL(WP_ERR_TAPE_FULL, start);
                b = r.base[start];
                if (st == WP_PAIRS_VALUE) goto value;
            }
            if (b >= 0xa0 && b <= 0xbf) { n = b & 0x1f; hl = 1; }
            else if (b == 0xd9) { if (!wp_rd_has(&r, 2)) FAIL(WP_ERR_TRUNCATED, start); n = r.base[start + 1]; hl = 2; }
            else if (b == 0xda) { if (!wp_rd_has(&r, 3)) FAIL(WP_ERR_TRUNCATED, start); n = wp_be16(wp_rd_at(&r, start + 1)); hl = 3; }
            else if (b == 0xdb) { if (!wp_rd_has(&r, 5)) FAIL(WP_ERR_TRUNCATED, start); n = wp_be32(wp_rd_at(&r, start + 1)); hl = 5; }
            else {
                if (b == 0xc1 && b_S != UINT32_MAX && bst[BST_ASCII2] && intern) {
                    /* a key taken from the ASCII bundle string: interned like any key, so the
                     * map keeps its shape (the bytes are in the input) */
                    int64_t v;
                    uint32_t size, id = WP_NO_ID;
                    if (wp_int_at(&r, start + 1, &v, &size) && v > 0 && (uint64_t)v <= bst[BST_U2] - bst[BST_P2] && !wp_over((uint32_t)v, d->max_str)) {
                        /* (readable without the slack here and for record keys below: wp_rd_readable at
                         * these two rare sites made every MessagePack decode 3-6% slower in wasm, by how
                         * the engine then allocated the loop's registers) */
                        id = wp_key_intern_at(tb, wp_rd_at(&r, bst[BST_IN2] + bst[BST_P2]), (uint32_t)v, r.len - (bst[BST_IN2] + bst[BST_P2]));
                    }
                    if (id != WP_NO_ID) {
                        wp_tape_tagp(&t, WP_T_KEY, id);
                        top->count = 0; /* (not compared with the map's shape guess) */
                        if (top->flags & FR_ALL_INTERNED) {
                            if (ktop < kcap && top->n <= WP_SHAPE_MAX_KEYS) kscratch[ktop++] = id;
                            else top->flags &= ~(uint32_t)FR_ALL_INTERNED;
                        }
                        bst[BST_P2] += (uint32_t)v;
                        r.pos = start + 1 + size;
                        goto item_done;
                    }
                }
                /* a bundled string reference (or the bundle before it) is still a string key: a
                 * bundle is what the extension case below takes as one (type 0x62, 4 or more
                 * bytes, not raw); any other extension is a key of its own kind (the map is a Map) */
                bool str_like = b == 0xc1 && b_S != UINT32_MAX;
                if (bundles && !str_like && (b == 0xd6 || b == 0xc7 || b == 0xc8 || b == 0xc9) && wp_rd_has(&r, 6)) {
                    uint32_t et, en;
                    wp_mp_ext_head(&r, start, b, &et, &en); /* (6 bytes are there: the whole header) */
                    str_like = et == 0x62 && en >= 4 && !(xc && wp_bit(xc->raw, 0x62));
                }
                /* numbers, nil and booleans become property names, as msgpackr coerces them (a
                 * fixint 0x40..0x7f only where no record has that id: else it is a record) */
                const bool coercible = str_like || b <= 0x3f || (b <= 0x7f && (!recs || !recs[b & 0x3fu])) || b >= 0xe0 ||
                                       b == 0xc0 || b == 0xc2 || b == 0xc3 || (b >= 0xca && b <= 0xd3) ||
                                       wp_mp_undef_ext(&r, start, b, xc) || (b == 0xc1 && c1_undefined);
                /* (strict: strings, bundled ones too, and numbers only; a fixint 0x40..0x7f
                 * where no record has that id) */
                if (strict_keys && !str_like && (!(b <= 0x3f || (b <= 0x7f && (!recs || !recs[b & 0x3fu])) || b >= 0xe0 || (b >= 0xca && b <= 0xd3)) ||
                                    ((b == 0xcf || b == 0xd3) && (d->flags & WP_DEC_MP_NO_INT64_KEYS)))) FAIL(WP_ERR_BAD_KEY, start);
                top->flags &= ~(uint32_t)(coercible ? FR_ALL_INTERNED : (FR_ALL_STR | FR_ALL_INTERNED));
                goto value;
            }
            if (wp_over(n, d->max_str)) FAIL(WP_ERR_LIMIT, start);
            if (n > wp_rd_left(&r) - hl) FAIL(WP_ERR_TRUNCATED, start);
            if (wp_unlikely((uint64_t)start + hl + n > b_S)) FAIL(WP_ERR_BAD_BUNDLE, start);
            const uint8_t *s = wp_rd_at(&r, start + hl);
            const uint32_t avail = wp_rd_readable(&r, start + hl);
            uint32_t id = WP_NO_ID;
            const uint32_t guess = top->count; /* the map's shape guess (id + 1), 0: none */
            if (guess && (top->flags & FR_ALL_INTERNED)) {
                bool miss = false;
                id = wp_guess_key(tb, guess, ktop - top->kstart, s, n, avail, &miss);
                if (miss) top->count = 0; /* for the rest of the map */
            } else if (intern) {
                id = wp_key_intern_at(tb, s, n, avail);
            }
            if (id != WP_NO_ID) {
                /* the first key: the map's guess (count) */
                if (ktop == top->kstart && top->count == 0 && as_objects && top->n <= WP_SHAPE_MAX_KEYS) top->count = wp_guess_first(tb, id, top->n, sp);
                wp_tape_tagp(&t, WP_T_KEY, id);
                if (top->flags & FR_ALL_INTERNED) {
                    if (ktop < kcap && top->n <= WP_SHAPE_MAX_KEYS) kscratch[ktop++] = id;
                    else top->flags &= ~(uint32_t)FR_ALL_INTERNED;
                }
            } else {
                top->flags &= ~(uint32_t)FR_ALL_INTERNED;
                if (!wp_put_string_in(d, &t, s, n, avail)) FAIL(WP_ERR_TAPE_FULL, start);
            }
            r.pos = start + hl + n;
            /* its value next, without the way round the loop: the key's item_done (the map's
             * count of items left was even, so a value follows) and the loop head's checks */
            top->remaining--;
            start = r.pos;
            if (wp_unlikely(!wp_rd_has(&r, 1))) FAIL(WP_ERR_TRUNCATED, top->start);
            if (wp_unlikely(!wp_tape_room(&t, 6))) FAIL(WP_ERR_TAPE_FULL, start);
            if (wp_unlikely(start >= b_S)) FAIL(WP_ERR_BAD_BUNDLE, start);
            b = r.base[start];
            goto value;
        }

    value:
        /* one dispatch on the first byte; containers, strings, binaries and extensions then share
         * their checks below, by kind, with n and hl (header bytes) set */
        switch (b) {
        case 0x00 ... 0x3f: wp_tape_tagp(&t, WP_T_INT, b); r.pos++; goto item_done;
        case 0x40 ... 0x7f:
            if (recs) {
                uint32_t slot = b & 0x3f, e = recs[slot], rh = 1;
                if (e) {
                    if (e & WP_REC_HB0) {
                        if (!wp_rd_has(&r, 2)) FAIL(WP_ERR_TRUNCATED, start);
                        uint32_t h = r.base[start + 1];
                        rh = 2;
                        if (h) {
                            slot = wp_rec_slot(slot, h);
                            e = recs[slot];
                            if (!e) FAIL(WP_ERR_UNKNOWN_RECORD, start);
                        }
                    }
                    r.pos = start + rh;
                    uint32_t nf = (e & ~WP_REC_HB0) - 1u;
                    wp_tape_tagp(&t, WP_T_REC, slot);
                    if (nf == 0) goto item_done;
                    if (nf > wp_rd_left(&r)) FAIL(WP_ERR_TRUNCATED, start);
                    if (sp >= max_depth) FAIL(WP_ERR_DEPTH, start);
                    if (sp >= d->depth_seen) d->depth_seen = sp + 1;
                    fr[sp].remaining = nf; fr[sp].count = 0; fr[sp].hdr = 0; fr[sp].n = nf; fr[sp].kstart = ktop; fr[sp].flags = FR_ARR; fr[sp].start = start;
                    sp++;
                    continue;
                }
                if (rec_strict) FAIL(WP_ERR_UNKNOWN_RECORD, start);
            }
            wp_tape_tagp(&t, WP_T_INT, b); r.pos++; goto item_done;
        case 0x80 ... 0x8f: n = b & 0x0f; hl = 1; goto map;
        case 0x90 ... 0x9f: n = b & 0x0f; hl = 1; goto arr;
        case 0xa0 ... 0xbf: n = b & 0x1f; hl = 1; goto str;
        case 0xe0 ... 0xff: wp_tape_tagp(&t, WP_T_INT, b | 0xffff00u); r.pos++; goto item_done;
        default: break;
        }
        {
            static const uint8_t need[32] = {
                /* c0 */ 1, 1, 1, 1, 2, 3, 5, 3, 4, 6, 5, 9, 2, 3, 5, 9,
                /* d0 */ 2, 3, 5, 9, 3, 4, 6, 10, 18, 2, 3, 5, 3, 5, 3, 5 };
            uint32_t h = need[b - 0xc0];
            if (!wp_rd_has(&r, h)) {
                if (b == 0xc1) FAIL(WP_ERR_RESERVED_BYTE, start);
                FAIL(WP_ERR_TRUNCATED, start);
            }
            const uint8_t *p = wp_rd_ptr(&r);
            switch (b) {
            case 0xc0: wp_tape_put(&t, WP_T_NIL); r.pos++; goto item_done;
            case 0xc1: {
                /* a bundled string: 0xc1 then a count of UTF-16 units to take from a bundle string */
                if (b_S == UINT32_MAX) {
                    if (!c1_undefined) FAIL(WP_ERR_RESERVED_BYTE, start);
                    wp_tape_put(&t, WP_T_UNDEF);
                    r.pos++;
                    goto item_done;
                }
                int64_t v;
                uint32_t size;
                if (!wp_int_at(&r, start + 1, &v, &size)) {
                    if (start + 1 >= r.len) FAIL(WP_ERR_TRUNCATED, start);
                    FAIL(WP_ERR_BAD_BUNDLE, start);
                }
                wp_tape_tagp(&t, WP_T_BREF, (uint32_t)v & 0xffffffu);
                if (v > 0) {
                    if ((uint64_t)v > bst[BST_U2] - bst[BST_P2] || v > 0x7fffff) FAIL(WP_ERR_BAD_BUNDLE, start);
                    wp_tape_put(&t, bst[BST_P2]);
                    bst[BST_P2] += (uint32_t)v;
                } else {
                    if ((uint64_t)-v > bst[BST_U1] - bst[BST_P1] || -v > 0x7fffff) FAIL(WP_ERR_BAD_BUNDLE, start);
                    wp_tape_put(&t, bst[BST_P1]);
                    bst[BST_P1] += (uint32_t)-v;
                }
                r.pos = start + 1 + size;
                goto item_done;
            }
            case 0xc2: wp_tape_put(&t, WP_T_FALSE); r.pos++; goto item_done;
            case 0xc3: wp_tape_put(&t, WP_T_TRUE); r.pos++; goto item_done;
            case 0xc4: n = p[1]; hl = 2; goto bin;
            case 0xc5: n = wp_be16(p + 1); hl = 3; goto bin;
            case 0xc6: n = wp_be32(p + 1); hl = 5; goto bin;
            case 0xc7: n = p[1]; ext_type = (int8_t)p[2]; hl = 3; goto ext;
            case 0xc8: n = wp_be16(p + 1); ext_type = (int8_t)p[3]; hl = 4; goto ext;
            case 0xc9: n = wp_be32(p + 1); ext_type = (int8_t)p[5]; hl = 6; goto ext;
            case 0xca: wp_tape_f64(&t, f32_tagged ? WP_T_F32 : WP_T_F64, (double)wp_f32_from_bits(wp_be32(p + 1))); r.pos += 5; goto item_done;
            case 0xcb: wp_tape_f64(&t, WP_T_F64, wp_f64_from_bits(wp_be64(p + 1))); r.pos += 9; goto item_done;
            case 0xcc: wp_tape_tagp(&t, WP_T_INT, p[1]); r.pos += 2; goto item_done;
            case 0xcd: wp_tape_tagp(&t, WP_T_INT, wp_be16(p + 1)); r.pos += 3; goto item_done;
            case 0xce: wp_tape_put(&t, WP_T_U32); wp_tape_put(&t, wp_be32(p + 1)); r.pos += 5; goto item_done;
            case 0xcf: wp_tape_put(&t, WP_T_U64); wp_tape_put(&t, wp_be32(p + 5)); wp_tape_put(&t, wp_be32(p + 1)); r.pos += 9; goto item_done;
            case 0xd0: wp_tape_tagp(&t, WP_T_INT, (uint32_t)(int32_t)(int8_t)p[1] & 0xffffffu); r.pos += 2; goto item_done;
            case 0xd1: wp_tape_tagp(&t, WP_T_INT, (uint32_t)(int32_t)(int16_t)wp_be16(p + 1) & 0xffffffu); r.pos += 3; goto item_done;
            case 0xd2: wp_tape_put(&t, WP_T_I32); wp_tape_put(&t, wp_be32(p + 1)); r.pos += 5; goto item_done;
            case 0xd3: wp_tape_put(&t, WP_T_I64); wp_tape_put(&t, wp_be32(p + 5)); wp_tape_put(&t, wp_be32(p + 1)); r.pos += 9; goto item_done;
            case 0xd4: n = 1; ext_type = (int8_t)p[1]; hl = 2; goto ext;
            case 0xd5: n = 2; ext_type = (int8_t)p[1]; hl = 2; goto ext;
            case 0xd6: n = 4; ext_type = (int8_t)p[1]; hl = 2; goto ext;
            case 0xd7: n = 8; ext_type = (int8_t)p[1]; hl = 2; goto ext;
            case 0xd8: n = 16; ext_type = (int8_t)p[1]; hl = 2; goto ext;
            case 0xd9: n = p[1]; hl = 2; goto str;
            case 0xda: n = wp_be16(p + 1); hl = 3; goto str;
            case 0xdb: n = wp_be32(p + 1); hl = 5; goto str;
            case 0xdc: n = wp_be16(p + 1); hl = 3; goto arr;
            case 0xdd: n = wp_be32(p + 1); hl = 5; goto arr;
            case 0xde: n = wp_be16(p + 1); hl = 3; goto map;
            default: /* 0xdf */ n = wp_be32(p + 1); hl = 5; goto map;
            }
        }
    str:
        /* (raw strings: not the keys of a record definition, the array right under its frame) */
        if (wp_unlikely(raw_strings) && !(sp >= 2 && (fr[sp - 2].flags & FR_RECDEF))) goto bin;
        left = wp_rd_left(&r) - hl;
        r.pos = start + hl;
        SPAN_CHECK(d->max_str, b_S != UINT32_MAX);
        if (!wp_put_value_string(d, tb, &t, wp_rd_ptr(&r), n, wp_rd_readable(&r, r.pos), vcache)) FAIL(WP_ERR_TAPE_FULL, start);
        r.pos += n;
        goto item_done;
    bin:
        left = wp_rd_left(&r) - hl;
        r.pos = start + hl;
        SPAN_CHECK(d->max_bin, b_S != UINT32_MAX);
        if (wp_unlikely(d->nholes != 0) && !wp_hole_skip(d, r.pos, n)) FAIL(WP_ERR_HOLE, start);
        wp_tape_put(&t, WP_T_BIN); wp_tape_put(&t, n); wp_tape_put(&t, r.pos);
        r.pos += n;
        goto item_done;
    ext:
        left = wp_rd_left(&r) - hl;
        r.pos = start + hl;
        /* (the next bundle's extension is the exception: its data holds this bundle's strings) */
        SPAN_CHECK(d->max_ext, b_S != UINT32_MAX && ext_type != 0x62);
        {
            const uint32_t et = (uint32_t)ext_type & 0xffu;
            const bool raw = xc && wp_bit(xc->raw, et);
            if (et == 0x72 && recs && hl == 2 && n <= 2 && !raw) {
                /* record definition: d4 72 id | d5 72 id high; the keys (an array), then the values */
                uint32_t s = r.base[r.pos] & 0x3fu, slot = s, hb = 0;
                if (n == 2) {
                    uint32_t h = r.base[r.pos + 1];
                    slot = wp_rec_slot(s, h);
                    hb = h == 0 ? WP_REC_HB0 : 0;
                }
                r.pos += n;
                if (!wp_rd_has(&r, 1)) FAIL(WP_ERR_TRUNCATED, start);
                uint32_t a = r.base[r.pos], nk, ah = 1, ko = 0, sc_op = 0, sc_id = 0;
                if (a == 0xd6 && xc) {
                    /* structuredClone's id before the keys, or a pointer to keys with an id
                     * (wp_rec_sc_words): read as values, as the keys array is for an unusual one */
                    if (!wp_rd_has(&r, 6)) FAIL(WP_ERR_TRUNCATED, start);
                    /* (the id is an extension's data, which the host may have left out as a hole:
                     * then again with every byte) */
                    if (wp_unlikely(d->nholes != 0) && wp_hole_reached(d, r.pos + 6u)) FAIL(WP_ERR_HOLE, start);
                    const uint32_t st = r.base[r.pos + 1];
                    sc_id = wp_be32(wp_rd_ptr(&r) + 2);
                    if (st == 0x69 && wp_bit(xc->any, 0x69)) {
                        sc_op = 1;
                        ko = 6;
                        if (!wp_rd_has(&r, 7)) FAIL(WP_ERR_TRUNCATED, start);
                        a = r.base[r.pos + 6];
                    } else if (st == 0x70 && !wp_bit(xc->any, 0x70) && !wp_bit(xc->raw, 0x70) && !wp_bit(xc->fix1, 0x70)) {
                        sc_op = 2;
                    }
                }
                if (sc_op == 2) {
                    const uint32_t q = wp_mp_sc_keys(sc, wp_sc_dense(d->len), 1, sc_id, 0, fr, sp);
                    if (q == UINT32_MAX) FAIL(WP_ERR_BAD_RECORD, start);
                    /* (an array's whole head is there: wp_mp_sc_note) */
                    const uint32_t qa = r.base[q];
                    nk = qa <= 0x9f ? qa & 0x0fu : qa == 0xdc ? wp_be16(r.base + q + 1u) : wp_be32(r.base + q + 1u);
                } else if (a >= 0x90 && a <= 0x9f) nk = a & 0x0f;
                else if (a == 0xdc) { if (!wp_rd_has(&r, ko + 3)) FAIL(WP_ERR_TRUNCATED, start); nk = wp_be16(wp_rd_ptr(&r) + ko + 1); ah = 3; }
                else if (a == 0xdd) { if (!wp_rd_has(&r, ko + 5)) FAIL(WP_ERR_TRUNCATED, start); nk = wp_be32(wp_rd_ptr(&r) + ko + 1); ah = 5; }
                else FAIL(WP_ERR_BAD_RECORD, start);
                if (sc_op == 1) wp_mp_sc_keys(sc, wp_sc_dense(d->len), 0, sc_id, r.pos + ko, 0, 0);
                if (nk > wp_rd_left(&r)) FAIL(WP_ERR_TRUNCATED, start);
                if (sp >= max_depth) FAIL(WP_ERR_DEPTH, start);
                /* the keys array is one level deeper, and an array under maxArrayLength,
                 * whichever way it is read */
                if (nk > 0 && sp + 1 >= max_depth) FAIL(WP_ERR_DEPTH, r.pos);
                if (wp_over(nk, d->max_array)) FAIL(WP_ERR_LIMIT, r.pos);
                if (intern && sc_op == 0 && nk > 0 && nk <= WP_SHAPE_MAX_KEYS && nk <= kcap - ktop) {
                    /* the usual case: keys that are short strings become an interned shape,
                     * and the tape names the shape instead of carrying the keys */
                    const uint32_t rl = wp_rec_last_slot(slot, nk);
                    uint32_t q = wp_rec_guess(&r, tb, r.pos + ah, nk, d->max_str, tb->rec_last[rl]);
                    uint32_t sid = WP_NO_ID;
                    if (q != UINT32_MAX) {
                        sid = tb->rec_last[rl] - 1u;
                    } else {
                        uint32_t k = 0;
                        q = r.pos + ah;
                        for (; k < nk; k++) {
                            uint32_t sn = 0, sh = 0;
                            if (wp_str_at(&r, q, &sn, &sh) != WP_OK || wp_over(sn, d->max_str)) break;
                            uint32_t id = wp_key_intern_at(tb, wp_rd_at(&r, q + sh), sn, r.len - (q + sh));
                            if (id == WP_NO_ID) break;
                            kscratch[ktop + k] = id;
                            q += sh + sn;
                        }
                        if (k == nk) sid = wp_shape_intern(tb, kscratch + ktop, nk);
                        if (sid != WP_NO_ID) tb->rec_last[rl] = (uint16_t)(sid + 1u);
                    }
                    /* keys that run into the open bundle's strings: the item-by-item path says
                     * BAD_BUNDLE at the first of them (its offset and error, whatever the flags) */
                    if (wp_unlikely(q > b_S)) sid = WP_NO_ID;
                    if (sid != WP_NO_ID) {
                        if (nundo + 2 > undo_cap) FAIL(WP_ERR_TAPE_FULL, start);
                        undo[nundo++] = slot;
                        undo[nundo++] = recs[slot];
                        recs[slot] = (nk + 1u) | hb;
                        wp_tape_tagp(&t, WP_T_RECDEFS, slot | (hb ? WP_RECDEF_HB0 : 0u));
                        wp_tape_put(&t, sid);
                        wp_tape_tagp(&t, WP_T_REC, slot);
                        r.pos = q;
                        if (nk > wp_rd_left(&r)) FAIL(WP_ERR_TRUNCATED, start);
                        if (sp >= d->depth_seen) d->depth_seen = sp + 1;
                        fr[sp].remaining = nk; fr[sp].count = 0; fr[sp].hdr = 0; fr[sp].n = nk; fr[sp].kstart = ktop; fr[sp].flags = FR_ARR; fr[sp].start = start;
                        sp++;
                        continue;
                    }
                }
                wp_tape_tagp(&t, WP_T_RECDEF, slot | (hb ? WP_RECDEF_HB0 : 0u));
                wp_tape_put(&t, start);
                fr[sp].remaining = 1; fr[sp].count = nk; fr[sp].hdr = hb; fr[sp].n = slot; fr[sp].kstart = ktop; fr[sp].flags = FR_RECDEF; fr[sp].start = start;
                sp++;
                continue;
            }
            if (et == 0x62 && bundles && n >= 4 && !raw) {
                /* bundled strings: the data starts with the distance to two strings (the
                 * bundle); then the value they serve follows. A bundle's strings lie past the
                 * value (the last bundle) or inside the next bundle's data, so no byte is
                 * read both as a bundle and as a value. */
                if (d->nholes) FAIL(WP_ERR_HOLE, start);
                uint32_t D = r.pos;
                uint64_t S = (uint64_t)D + wp_be32(wp_rd_ptr(&r));
                if (b_S != UINT32_MAX && (b_S < D + 4 || bst[BST_POST] > D + n)) FAIL(WP_ERR_BAD_BUNDLE, start);
                if (S < (uint64_t)D + n) FAIL(WP_ERR_BAD_BUNDLE, start);
                if (S >= r.len) FAIL(WP_ERR_TRUNCATED, start); /* the bundle is further on */
                uint32_t q = (uint32_t)S, n1 = 0, h1 = 0, n2 = 0, h2 = 0;
                wp_err se = wp_str_at(&r, q, &n1, &h1);
                if (se != WP_OK) FAIL(se, start);
                uint32_t q2 = q + h1 + n1;
                se = wp_str_at(&r, q2, &n2, &h2);
                if (se != WP_OK) FAIL(se, start);
                if (wp_over(n1, d->max_str) || wp_over(n2, d->max_str)) FAIL(WP_ERR_LIMIT, start);
                wp_tape_put(&t, WP_T_BUNDLE);
                uint32_t a0 = d->ascii_len, u0 = d->utf16_len;
                if ((t.len = wp_put_string_cold(d, t.w, t.len, t.cap, wp_rd_at(&r, q + h1), n1)) == UINT32_MAX) FAIL(WP_ERR_TAPE_FULL, start);
                bst[BST_U1] = (d->ascii_len - a0) + (d->utf16_len - u0);
                a0 = d->ascii_len; u0 = d->utf16_len;
                if ((t.len = wp_put_string_cold(d, t.w, t.len, t.cap, wp_rd_at(&r, q2 + h2), n2)) == UINT32_MAX) FAIL(WP_ERR_TAPE_FULL, start);
                bst[BST_U2] = (d->ascii_len - a0) + (d->utf16_len - u0);
                bst[BST_ASCII2] = (d->ascii_len - a0) == n2;
                bst[BST_IN2] = q2 + h2;
                bst[BST_P1] = bst[BST_P2] = 0;
                bst[BST_POST] = q2 + h2 + n2;
                b_S = q; /* (q < r.len) */
                r.pos = D + n;
                continue;
            }
            /* a structured-clone id (d6 69 <id>) gives it to the value it wraps, which a later
             * pointer (d6 70 <id>) may name as a record definition's keys, as msgpackr reads
             * them: remember its length when it is an array, and forget an earlier key count
             * of the id when it is not (C reads the id: never from a hole, as for record keys) */
            if (et == 0x69 && n == 4 && recs && xc && wp_bit(xc->any, et)) {
                if (wp_unlikely(d->nholes != 0) && wp_hole_reached(d, r.pos + 4u)) FAIL(WP_ERR_HOLE, start);
                wp_mp_sc_note(&r, sc, wp_sc_dense(d->len), wp_be32(wp_rd_ptr(&r)), r.pos + 4u);
            }
            /* the rest leave the extension's bytes to the host (type 0 is read when 1 byte
             * long: 00 is undefined), so they may be holes */
            if (wp_unlikely(d->nholes != 0) && ext_type != 0 && ext_type != -1 && !wp_hole_skip(d, r.pos, n)) FAIL(WP_ERR_HOLE, start);
            if (xc && (wp_bit(xc->any, et) || (b == 0xd4 && wp_bit(xc->fix1, et)))) {
                /* an extension that wraps the next value */
                wp_tape_tagp(&t, WP_T_EXTP, et);
                wp_tape_put(&t, n); wp_tape_put(&t, r.pos);
                r.pos += n;
                continue;
            }
            if (raw) {
                wp_tape_tagp(&t, WP_T_EXT, et);
                wp_tape_put(&t, n); wp_tape_put(&t, r.pos);
            } else if (ext_type == 0 && (xc || (n == 1 && r.base[r.pos] == 0))) {
                wp_tape_put(&t, WP_T_UNDEF); /* d4 00 00: undefined (msgpackr, notepack; msgpackr: any type 0) */
            } else if (ext_type == -1) {
                double ms;
                wp_err e = wp_timestamp_ms(wp_rd_ptr(&r), n, &ms);
                if (e != WP_OK) FAIL(e, start);
                wp_tape_f64(&t, WP_T_DATE, ms);
            } else {
                wp_tape_tagp(&t, WP_T_EXT, et);
                wp_tape_put(&t, n); wp_tape_put(&t, r.pos);
            }
            r.pos += n;
            goto item_done;
        }
    arr:
        left = wp_rd_left(&r) - hl;
        r.pos = start + hl;
        if (wp_over(n, d->max_array)) FAIL(WP_ERR_LIMIT, start);
        if (n > left) FAIL(WP_ERR_TRUNCATED, start);
        if (sp >= max_depth) FAIL(WP_ERR_DEPTH, start);
        if (n == 0) { wp_tape_tagp(&t, WP_T_ARR, 0); goto item_done; }
        const uint32_t s0 = wp_run_elem_size(r.base + r.pos, wp_mp_num_size, wp_mp_run_special);
        if (s0 && n >= 2) {
            const uint32_t q = r.pos + s0;
            /* (a second element that is a record ends the run as it starts: [time, record] and
             * the like go item by item, as [time, {...}] do) */
            if (q >= r.len || !wp_run_elem_size(r.base + q, wp_mp_num_size, wp_mp_run_special) ||
                wp_run_reject(r.base[q], 0, recs, rec_strict)) goto arr_items;
            if (!wp_tape_room(&t, 2u * n + 4u)) FAIL(WP_ERR_TAPE_FULL, start);
            if (wp_try_numrun(&r, &t, n, f32_tagged, recs, rec_strict, b_S)) goto item_done;
        }
    arr_items:
        wp_tape_tag_len(&t, WP_T_ARR, n);
        if (sp >= d->depth_seen) d->depth_seen = sp + 1;
        fr[sp].remaining = n; fr[sp].count = 0; fr[sp].hdr = 0; fr[sp].n = n; fr[sp].kstart = ktop; fr[sp].flags = FR_ARR; fr[sp].start = start;
        sp++;
        continue;
    map:
        left = wp_rd_left(&r) - hl;
        r.pos = start + hl;
        if (wp_over(n, d->max_map)) FAIL(WP_ERR_LIMIT, start);
        if (n > left / 2) FAIL(WP_ERR_TRUNCATED, start);
        if (sp >= max_depth) FAIL(WP_ERR_DEPTH, start);
        if (n == 0) { wp_tape_tagp(&t, as_objects ? WP_T_OBJ : WP_T_MAP, 0); goto item_done; }
        /* (the shape guessed as it opens: its first key is compared, not hashed) */
        fr[sp].remaining = 2 * n; fr[sp].count = as_objects && intern && n <= WP_SHAPE_MAX_KEYS ? wp_guess_open(tb, n, sp + 1) : 0;
        fr[sp].hdr = t.len; fr[sp].n = n; fr[sp].kstart = ktop;
        fr[sp].flags = FR_MAP | FR_ALL_STR | FR_ALL_INTERNED;
        fr[sp].start = start;
        wp_tape_tag_len(&t, WP_T_MAP, n); /* patched when the map closes */
        if (sp >= d->depth_seen) d->depth_seen = sp + 1;
        sp++;
        continue;

    item_done:
        while (sp) {
            wp_frame *f = &fr[sp - 1];
            if (--f->remaining) break;
            if (f->flags & FR_MAP) {
                wp_map_close_guessed(&t, tb, f, f->count, as_objects, kscratch + f->kstart, ktop - f->kstart, sp);
                ktop = f->kstart;
            } else if (f->flags & FR_RECDEF) {
                /* the keys are read: define the record, then read its values in this frame */
                uint32_t slot = f->n, nf = f->count;
                if (nundo + 2 > undo_cap || !wp_tape_room(&t, 1)) FAIL(WP_ERR_TAPE_FULL, f->start);
                undo[nundo++] = slot;
                undo[nundo++] = recs[slot];
                recs[slot] = (nf + 1u) | f->hdr;
                wp_tape_tagp(&t, WP_T_REC, slot);
                if (nf) {
                    if (nf > wp_rd_left(&r)) FAIL(WP_ERR_TRUNCATED, f->start);
                    if (sp > d->depth_seen) d->depth_seen = sp;
                    f->flags = FR_ARR; f->remaining = nf; f->n = nf; f->count = 0; f->hdr = 0;
                    break;
                }
            }
            sp--;
        }
        if (sp == 0) {
            if (b_S != UINT32_MAX) {
                /* the last bundle's strings follow the value: continue after them */
                if (r.pos > b_S) FAIL(WP_ERR_BAD_BUNDLE, b_S);
                r.pos = bst[BST_POST];
                b_S = UINT32_MAX;
            }
            if (d->ends && d->nvalues < d->ends_cap) d->ends[d->nvalues] = r.pos;
            d->nvalues++;
            d->end = r.pos;
            keep_keys = tb->nkeys;
            keep_shapes = tb->nshapes;
            if (r.pos == r.len) break;
            if (!multiple) FAIL(WP_ERR_TRAILING_DATA, r.pos);
        }
    }
    if (wp_unlikely(d->holes_seen != d->nholes)) FAIL(WP_ERR_HOLE, r.pos);
    d->tape_len = t.len;
    if (nundo) wp_rec_undo(recs, undo, nundo);
    return WP_OK;

fail:
    /* sizes from the bounds never run out, except when bytes are read both as bundle strings and
     * as values (a malformed bundle the checks above did not catch first) */
    if (err == WP_ERR_TAPE_FULL && b_S != UINT32_MAX) err = WP_ERR_BAD_BUNDLE;
    if (recs && undo) wp_rec_undo(recs, undo, nundo);
    return wp_dec_fail(d, tb, t.len, err, eoff, keep_keys, keep_shapes);
}
#undef as_objects
#undef intern
#undef vcache
#undef multiple
#undef f32_tagged
#undef rec_strict
#undef bundles
#undef strict_keys
#undef c1_undefined
#undef raw_strings

/* ===================================================================== encode */

uint32_t wp_encode_out_bound(uint32_t tape_words) { return (uint32_t)wp_enc_bound(tape_words); }

uint32_t wp_encode_out_need(const wp_encoder *e) { return wp_enc_out_need(e); }

/* An integer in [-2^31, 2^32) in its shortest form: a fixint (-32..127, most integers in data) is
 * the byte itself, and the other forms take no branch on their size or sign. Needs 8 bytes of
 * room. (The 64-bit entries are always 9 bytes.) */
WP_INLINE void wp_enc_int32(wp_out *o, int64_t v) {
    if ((uint64_t)(v + 32) < 160u) { /* a fixint, -32..127: the byte itself */
        wp_out_u8(o, (uint32_t)v & 0xffu);
        return;
    }
    /* by [negative][size class]; class 0 (a fixint) has no prefix and is the low byte itself */
    static const uint8_t prefix[2][4] = { { 0, 0xcc, 0xcd, 0xce }, { 0, 0xd0, 0xd1, 0xd2 } };
    const uint32_t u = (uint32_t)v;
    const uint32_t neg = (uint32_t)((uint64_t)v >> 63);
    /* for a negative v, ~v against 31/127/32767 is v against -32/-128/-32768 */
    const uint32_t a = u ^ (0u - neg);
    const uint32_t c = (uint32_t)(a > (127u >> (2 * neg))) + (uint32_t)(a > (255u >> neg)) + (uint32_t)(a > (65535u >> neg));
    wp_out_int_class(o, prefix[neg][c], u, c);
}

/* Header for str (kind 0), bin (1), array (2), map (3). */
WP_INLINE void wp_enc_hdr(wp_out *o, uint32_t kind, uint32_t n) {
    switch (kind) {
    case 0:
        if (n < 32) wp_out_u8(o, 0xa0 | n);
        else if (n <= 0xff) { wp_out_u8(o, 0xd9); wp_out_u8(o, n); }
        else if (n <= 0xffff) wp_out_u8_be16(o, 0xda, n);
        else wp_out_u8_be32(o, 0xdb, n);
        break;
    case 1:
        if (n <= 0xff) { wp_out_u8(o, 0xc4); wp_out_u8(o, n); }
        else if (n <= 0xffff) wp_out_u8_be16(o, 0xc5, n);
        else wp_out_u8_be32(o, 0xc6, n);
        break;
    case 2:
        if (n < 16) wp_out_u8(o, 0x90 | n);
        else if (n <= 0xffff) wp_out_u8_be16(o, 0xdc, n);
        else wp_out_u8_be32(o, 0xdd, n);
        break;
    default:
        if (n < 16) wp_out_u8(o, 0x80 | n);
        else if (n <= 0xffff) wp_out_u8_be16(o, 0xde, n);
        else wp_out_u8_be32(o, 0xdf, n);
        break;
    }
}

WP_INLINE void wp_enc_ext_hdr(wp_out *o, uint32_t type, uint32_t n) {
    switch (n) {
    case 1: wp_out_u8(o, 0xd4); break;
    case 2: wp_out_u8(o, 0xd5); break;
    case 4: wp_out_u8(o, 0xd6); break;
    case 8: wp_out_u8(o, 0xd7); break;
    case 16: wp_out_u8(o, 0xd8); break;
    default:
        if (n <= 0xff) { wp_out_u8(o, 0xc7); wp_out_u8(o, n); }
        else if (n <= 0xffff) wp_out_u8_be16(o, 0xc8, n);
        else wp_out_u8_be32(o, 0xc9, n);
    }
    wp_out_u8(o, type);
}

/* The header of a string of len UTF-8 bytes (for wp_enc_str_ext). */
WP_INLINE void wp_enc_str_hdr(wp_out *o, uint32_t len) { wp_enc_hdr(o, 0, len); }

wp_err wp_msgpack_encode(wp_encoder *e) {
    const uint32_t *w = e->tape;
    const uint32_t n = e->tape_len;
    wp_out o = { e->out, 0, e->out_cap };
    uint32_t i = 0;
    uint32_t bref = UINT32_MAX; /* output offset of the open bundle reference (WP_E_BUNDLE) */
    wp_str_pos spos = { 0, 0, 0 }; /* what the STR16 / STRU8 / KEY entries so far took */
    uint32_t xleft = e->ext_len;   /* what XBIN entries may still leave for the host */
    e->err.code = WP_OK;
    e->err.offset = 0;
    e->needed = 0;
    while (i < n) {
        uint32_t at = i;
        uint32_t word = w[i++];
        uint32_t tag = word & 0xffu, p = word >> 8;
        const uint32_t *src; /* the bytes of a STR, BIN, RAW, EXT or KEY entry */
        uint32_t len;
        if (!wp_out_room(&o, 16)) goto full;
        switch (tag) {
        case WP_E_PAD: break;
        case WP_E_NIL: wp_out_u8(&o, 0xc0); break;
        case WP_E_FALSE: wp_out_u8(&o, 0xc2); break;
        case WP_E_TRUE: wp_out_u8(&o, 0xc3); break;
        case WP_E_UNDEF: wp_out_u8(&o, 0xd4); wp_out_u8(&o, 0); wp_out_u8(&o, 0); break;
        case WP_E_BADDATE: wp_out_u8(&o, 0xd4); wp_out_u8(&o, 0xff); wp_out_u8(&o, 0xff); break;
        case WP_E_INT:
            if (i >= n) goto bad;
            wp_enc_int32(&o, (int32_t)w[i++]);
            break;
        case WP_E_UINT:
            if (i >= n) goto bad;
            wp_enc_int32(&o, w[i++]);
            break;
        case WP_E_I64:
        case WP_E_U64: {
            if (n - i < 2) goto bad;
            uint64_t v = ((uint64_t)w[i + 1] << 32) | w[i];
            i += 2;
            wp_out_u8_be64(&o, tag == WP_E_I64 ? 0xd3 : 0xcf, v);
            break;
        }
        case WP_E_F64: {
            uint32_t a = (at + 2) & ~1u;
            if (a + 2 > n) goto bad;
            uint64_t bits = ((uint64_t)w[a + 1] << 32) | w[a]; /* little-endian word order */
            wp_out_u8_be64(&o, 0xcb, bits);
            i = a + 2;
            break;
        }
        case WP_E_F32:
            if (i >= n) goto bad;
            wp_out_u8_be32(&o, 0xca, w[i++]);
            break;
        case WP_E_NUMS: {
            uint32_t a = (at + 2) & ~1u;
            if (a > n || p > (n - a) / 2u) goto bad;
            if (!wp_out_room(&o, 9u * p + 16u)) goto full;
            const uint32_t *src = w + a;
            for (uint32_t k = 0; k < p; k++, src += 2) {
                uint64_t bits = ((uint64_t)src[1] << 32) | src[0];
                int64_t v;
                if (wp_run_int(bits, &v)) wp_enc_int32(&o, v);
                else wp_out_u8_be64(&o, 0xcb, bits);
            }
            i = a + 2u * p;
            break;
        }
        case WP_E_KEY:
            /* a string in e's keys: as a STR entry's bytes, from there */
            src = wp_enc_key(e, p, &spos, &len);
            if (!src) goto bad;
            tag = WP_E_STR;
            goto bytes;
        case WP_E_STR:
        case WP_E_BIN:
        case WP_E_RAW:
        case WP_E_EXT: {
            len = p;
            if (tag == WP_E_EXT) {
                if (i >= n) goto bad;
                len = w[i++];
            } else if (len == WP_LEN_ESCAPE) {
                if (i >= n) goto bad;
                len = w[i++];
            }
            uint32_t words = len / 4 + ((len & 3) != 0); /* no wrap near 2^32 */
            if (words > n - i) goto bad;
            src = &w[i];
            i += words;
        bytes:
            if (!wp_out_room(&o, len + 16)) goto full;
            if (tag == WP_E_STR) wp_enc_hdr(&o, 0, len);
            else if (tag == WP_E_BIN) wp_enc_hdr(&o, 1, len);
            else if (tag == WP_E_EXT) wp_enc_ext_hdr(&o, p & 0xff, len);
            wp_out_bytes(&o, src, len);
            break;
        }
        case WP_E_XBIN:
            len = wp_enc_xbin(w, n, &i, p, &xleft);
            if (len == UINT32_MAX) goto bad;
            if (!wp_out_room(&o, len) || o.cap - o.len - len < 16) goto full;
            wp_enc_hdr(&o, 1, len);
            wp_enc_xbin_skip(w, i, &o, len);
            break;
        case WP_E_STR16:
        case WP_E_STRU8: {
            int r = wp_enc_str_ext(e, w, n, &i, tag, p, &spos, &o, wp_enc_str_hdr);
            if (r == 1) goto bad;
            if (r == 2) goto full;
            break;
        }
        case WP_E_ARR:
        case WP_E_MAP: {
            len = p;
            if (len == WP_LEN_ESCAPE) {
                if (i >= n) goto bad;
                len = w[i++];
            }
            wp_enc_hdr(&o, tag == WP_E_ARR ? 2 : 3, len);
            break;
        }
        case WP_E_UINT8: wp_out_u8(&o, 0xcc); wp_out_u8(&o, p); break;
        case WP_E_REC:
            wp_out_u8(&o, p);
            if (p & 0x10000u) wp_out_u8(&o, p >> 8);
            break;
        case WP_E_RECDEF:
            wp_out_u8(&o, (p & 0x10000u) ? 0xd5 : 0xd4);
            wp_out_u8(&o, 0x72);
            wp_out_u8(&o, p);
            if (p & 0x10000u) wp_out_u8(&o, p >> 8);
            break;
        case WP_E_PREFIX: wp_out_u8(&o, 0xd4); wp_out_u8(&o, p); wp_out_u8(&o, 0); break;
        case WP_E_EXT4:
            if (i >= n) goto bad;
            wp_out_u8(&o, 0xd6); wp_out_u8(&o, p);
            wp_put_be32(o.p + o.len, w[i++]); o.len += 4;
            break;
        case WP_E_BYTE: wp_out_u8(&o, p); break;
        case WP_E_BUNDLE: {
            if (i >= n) goto bad;
            i++;
            if (p == 0) {
                wp_out_u8(&o, 0xd6); wp_out_u8(&o, 0x62);
                bref = o.len;
                wp_put_be32(o.p + o.len, 0); o.len += 4;
            } else if (p == 1) {
                if (bref == UINT32_MAX) goto bad;
                wp_out_u8(&o, 0xc8); wp_out_u8(&o, 0); wp_out_u8(&o, 0); wp_out_u8(&o, 0x62);
                uint32_t at = o.len;
                wp_put_be32(o.p + at, 0); o.len += 4;
                wp_put_be32(o.p + bref, o.len - bref);
                bref = at;
            } else if (p == 2) {
                if (bref == UINT32_MAX || bref < 3 || o.len - bref > 0xffffu) goto bad;
                wp_put_be16(o.p + bref - 3, o.len - bref);
            } else if (p == 3) {
                if (bref == UINT32_MAX) goto bad;
                wp_put_be32(o.p + bref, o.len - bref);
                bref = UINT32_MAX;
            } else {
                goto bad;
            }
            break;
        }
        case WP_E_DATE: {
            if (n - i < 3) goto bad;
            int64_t sec = (int64_t)(((uint64_t)w[i + 1] << 32) | w[i]);
            uint32_t nsec = w[i + 2];
            if (nsec >= 1000000000u) goto bad;
            i += 3;
            if (nsec == 0 && sec >= 0 && sec <= 0xffffffffLL) {
                wp_out_u8(&o, 0xd6); wp_out_u8(&o, 0xff);
                wp_put_be32(o.p + o.len, (uint32_t)sec); o.len += 4;
            } else if (sec >= 0 && sec < (1LL << 34)) {
                wp_out_u8(&o, 0xd7); wp_out_u8(&o, 0xff);
                wp_put_be64(o.p + o.len, ((uint64_t)nsec << 34) | (uint64_t)sec); o.len += 8;
            } else {
                wp_out_u8(&o, 0xc7); wp_out_u8(&o, 12); wp_out_u8(&o, 0xff);
                wp_put_be32(o.p + o.len, nsec); o.len += 4;
                wp_put_be64(o.p + o.len, (uint64_t)sec); o.len += 8;
            }
            break;
        }
        default:
            goto bad;
        }
        continue;
    bad:
        e->err.code = WP_ERR_BAD_TAPE;
        e->err.offset = at;
        e->out_len = o.len;
        return WP_ERR_BAD_TAPE;
    }
    e->out_len = o.len;
    return WP_OK;
full:
    e->out_len = o.len;
    e->needed = wp_encode_out_need(e);
    e->err.code = WP_ERR_OUTPUT_FULL;
    e->err.offset = o.len;
    return WP_ERR_OUTPUT_FULL;
}
