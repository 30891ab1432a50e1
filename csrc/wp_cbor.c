/*
 * wp_cbor.c: CBOR (RFC 8949) -> decode tape, and encode tape -> CBOR.
 *
 * The decoder mirrors wp_msgpack.c: one loop over items, a switch on the first byte for the
 * common heads of values and on the major type for the rest, an explicit stack of frames (arrays,
 * maps, tags), lengths checked against the bytes left before anything is written, and the same
 * tape entries, so the host builds values with the same code.
 * The encoder is one pass over the encode tape; with WP_CBOR_DETERMINISTIC it keeps a stack of
 * open containers and sorts each map's entries by their encoded keys when the map closes.
 */
#include "wp_internal.h"

/* ===================================================================== decode */

uint32_t wp_cbor_tape_words(uint32_t len) { return wp_cb_tape_words(len); }


/* Additional-information byte counts: 24 -> 1, 25 -> 2, 26 -> 4, 27 -> 8. */
static const uint8_t wp_ai_bytes[4] = { 1, 2, 4, 8 };

/* Read the head at r->pos: major type, argument, head length. Returns WP_OK, TRUNCATED,
 * RESERVED_AI, or WP_ERR_BREAK with *indef set for ai 31 (the caller decides its meaning). */
WP_INLINE wp_err wp_cbor_head(const wp_reader *r, uint32_t *major, uint64_t *arg, uint32_t *hl, bool *indef) {
    uint32_t ib = r->base[r->pos];
    uint32_t ai = ib & 31u;
    *major = ib >> 5;
    *indef = false;
    if (ai < 24) { *arg = ai; *hl = 1; return WP_OK; }
    if (ai == 31) { *indef = true; *arg = 0; *hl = 1; return WP_OK; }
    if (ai > 27) return WP_ERR_RESERVED_AI;
    uint32_t nb = wp_ai_bytes[ai - 24];
    if (!wp_rd_has(r, 1 + nb)) return WP_ERR_TRUNCATED;
    const uint8_t *p = wp_rd_ptr(r) + 1;
    switch (nb) {
    case 1: *arg = p[0]; break;
    case 2: *arg = wp_be16(p); break;
    case 4: *arg = wp_be32(p); break;
    default: *arg = wp_be64(p); break;
    }
    *hl = 1 + nb;
    return WP_OK;
}

/* IEEE half -> double. */
static double wp_half_to_double(uint32_t h) {
    uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    double v;
    if (exp == 0) v = (double)man * (1.0 / 16777216.0); /* man * 2^-24 */
    else if (exp == 31) v = man ? __builtin_nan("") : __builtin_inf();
    else {
        v = (double)(man | 0x400);
        int e = (int)exp - 25;
        while (e > 0) { v *= 2.0; e--; }
        while (e < 0) { v *= 0.5; e++; }
    }
    return (h & 0x8000) ? -v : v;
}

/* JavaScript's Math.round (the nearest integer, halves up), without libm: floor by truncation,
 * exact below 2^52; NaN, the infinities and larger magnitudes are returned as they are (all
 * integers past 2^52). */
static double wp_js_round(double x) {
    if (!(x > -4503599627370496.0 && x < 4503599627370496.0)) return x;
    double f = (double)(int64_t)x;
    if (f > x) f -= 1.0;
    return (x - f >= 0.5) ? f + 1.0 : f;
}

/* Epoch seconds (tag 1) -> ms, as cbor.js's secondsToMs: the rounded product, moved by one ms
 * when that gives back s exactly (0.001-step values whose product rounded the other way). */
static double wp_cbor_secs_to_ms(double s) {
    double m = wp_js_round(s * 1000.0);
    if (m / 1000.0 == s) return m;
    if ((m - 1.0) / 1000.0 == s) return m - 1.0;
    if ((m + 1.0) / 1000.0 == s) return m + 1.0;
    return m;
}

/* Bytes of the number whose head is b (integers that fit 32 bits and floats), 0 for anything
 * else: one table load (a switch here was an out-of-line call per element in number runs). */
static const uint8_t wp_cbor_numsz[256] = {
    [0x00 ... 0x17] = 1, [0x18] = 2, [0x19] = 3, [0x1a] = 5,
    [0x20 ... 0x37] = 1, [0x38] = 2, [0x39] = 3, [0x3a] = 5,
    [0xf9] = 3, [0xfa] = 5, [0xfb] = 9,
};
WP_INLINE uint32_t wp_cbor_num_size(const uint8_t *p) { return wp_cbor_numsz[p[0]]; }

WP_INLINE double wp_cbor_num_at(const uint8_t *p) {
    uint32_t b = p[0];
    if (b == 0xfb) return wp_f64_from_bits(wp_be64(p + 1)); /* (JavaScript's numbers: most runs of floats) */
    if (b <= 0x17) return (double)b;
    if (b >= 0x20 && b <= 0x37) return -1.0 - (double)(b - 0x20);
    switch (b) {
    case 0x18: return (double)p[1];
    case 0x19: return (double)wp_be16(p + 1);
    case 0x1a: return (double)wp_be32(p + 1);
    case 0x38: return -1.0 - (double)p[1];
    case 0x39: return -1.0 - (double)wp_be16(p + 1);
    case 0x3a: return -1.0 - (double)wp_be32(p + 1);
    case 0xf9: return wp_half_to_double(wp_be16(p + 1));
    case 0xfa: return (double)wp_f32_from_bits(wp_be32(p + 1));
    default: return wp_f64_from_bits(wp_be64(p + 1));
    }
}

/* false, true, null and undefined (f4..f7), which a run may hold besides numbers. */
WP_INLINE uint32_t wp_cbor_run_special(uint32_t b) {
    static const uint8_t sp[4] = { WP_RUN_FALSE, WP_RUN_TRUE, WP_RUN_NULL, WP_RUN_UNDEF };
    return b - 0xf4u < 4u ? sp[b - 0xf4u] : 0;
}

/* A one-byte integer (unsigned 0-23, negative -1..-24) as its value, else WP_NOT_TINY. */
WP_INLINE int32_t wp_cbor_tiny(uint32_t b) { return b < 0x18u ? (int32_t)b : b - 0x20u < 0x18u ? -1 - (int32_t)(b - 0x20u) : WP_NOT_TINY; }

/* If the n items at r->pos are all numbers, false, true, null or undefined (and complete before
 * `end`, where an open bundle's strings start), write a NUMRUN (numbers only) or a SCALARRUN
 * and advance. Inlined into the decoder, as the MessagePack run reader is into its own: the C
 * decode in wasm of the varied floats document 1.22x, of short arrays of numbers 1.12x, for
 * 1.5 KB of code. */
WP_INLINE bool wp_cbor_try_numrun(wp_reader *r, wp_tape *t, uint32_t n, bool f32_tagged, uint32_t end) {
    return wp_run_try(r, t, n, wp_cbor_num_size, wp_cbor_num_at, wp_cbor_run_special, wp_cbor_tiny, f32_tagged ? 0xfau : 0u, 0, false, end);
}

/* The entry of an unsigned integer (major 0) whose argument fits 32 bits: INT while it fits the
 * payload's 24 bits, else U32. */
WP_INLINE void wp_cb_put_uint(wp_tape *t, uint32_t v) {
    if (v < 0x800000u) wp_tape_tagp(t, WP_T_INT, v);
    else { wp_tape_put(t, WP_T_U32); wp_tape_put(t, v); }
}

/* The entry of a negative integer (major 1, -1 - a) whose argument a fits 32 bits: INT, I32, or
 * below -2^31 an F64 (a number, as cbor-x gives it). */
WP_INLINE void wp_cb_put_nint(wp_tape *t, uint32_t a) {
    if (a < 0x800000u) wp_tape_tagp(t, WP_T_INT, (uint32_t)(-1 - (int32_t)a) & 0xffffffu);
    else if (a < 0x80000000u) { wp_tape_put(t, WP_T_I32); wp_tape_put(t, (uint32_t)(-1 - (int32_t)a)); }
    else wp_tape_f64(t, WP_T_F64, -1.0 - (double)a);
}

/* The n >= 2 elements at r->pos (at most the bytes left) as one number run, when the first two
 * are elements a run may hold: WP_CB_RUN when written, WP_CB_ITEMS when they are to be read item
 * by item, WP_CB_FULL when the tape has no room for the run. */
enum { WP_CB_ITEMS, WP_CB_RUN, WP_CB_FULL };
WP_INLINE int wp_cbor_run_probe(wp_reader *r, wp_tape *t, uint32_t n, bool f32_tagged, uint32_t end) {
    const uint32_t s0 = wp_run_elem_size(wp_rd_ptr(r), wp_cbor_num_size, wp_cbor_run_special);
    if (!s0) return WP_CB_ITEMS;
    const uint32_t q = r->pos + s0;
    if (q >= r->len || !wp_run_elem_size(r->base + q, wp_cbor_num_size, wp_cbor_run_special)) return WP_CB_ITEMS;
    if (!wp_tape_room(t, 2u * n + 4u)) return WP_CB_FULL;
    return wp_cbor_try_numrun(r, t, n, f32_tagged, end) ? WP_CB_RUN : WP_CB_ITEMS;
}

/* Indefinite string at r->pos (after its 0x5f/0x7f head): chunks of the same major type until
 * the break. Byte strings: BINC with (length, offset) per chunk. Text: one STRU (each chunk
 * transcoded on its own, as RFC 8949 requires each chunk to be valid UTF-8). */
WP_INLINE wp_err wp_cbor_indef_string(wp_decoder *d, wp_reader *r, wp_tape *t, uint32_t major, uint32_t *eoff) {
    uint32_t hdr = t->len;
    uint32_t chunks = 0, units = 0;
    wp_tape_put(t, (major == 2 ? WP_T_BINC : WP_T_STRU) | (WP_LEN_ESCAPE << 8));
    wp_tape_put(t, 0);
    uint32_t sstart = r->pos - 1;
    uint32_t total = 0; /* bytes so far, for the policy limits */
    for (;;) {
        *eoff = r->pos;
        if (!wp_rd_has(r, 1)) { *eoff = sstart; return WP_ERR_TRUNCATED; }
        if (r->base[r->pos] == 0xff) { r->pos++; break; }
        uint32_t cm, hl;
        uint64_t arg;
        bool indef;
        wp_err e = wp_cbor_head(r, &cm, &arg, &hl, &indef);
        if (e != WP_OK) return e;
        if (cm != major || indef) return WP_ERR_BAD_CHUNK;
        if (arg > wp_rd_left(r) - hl) return WP_ERR_TRUNCATED;
        if (wp_over(total + (uint32_t)arg, major == 2 ? d->max_bin : d->max_str)) { *eoff = sstart; return WP_ERR_LIMIT; }
        total += (uint32_t)arg;
        uint32_t n = (uint32_t)arg;
        const uint8_t *s = wp_rd_ptr(r) + hl;
        if (major == 2) {
            if (!wp_tape_room(t, 4)) return WP_ERR_TAPE_FULL;
            wp_tape_put(t, n);
            wp_tape_put(t, r->pos + hl);
        } else {
            if (n > d->utf16_cap - d->utf16_len) return WP_ERR_TAPE_FULL;
            uint32_t u = wp_utf8_to_utf16(s, n, d->utf16 + d->utf16_len);
            d->utf16_len += u;
            units += u;
        }
        chunks++;
        r->pos += hl + n;
    }
    t->w[hdr + 1] = major == 2 ? chunks : units;
    return WP_OK;
}

#define FAIL(c, off) do { err = (c); eoff = (off); goto fail; } while (0)

/* Whether the item whose first byte is b is that byte alone: small integers and simple values,
 * empty strings, arrays and maps. */
WP_INLINE bool wp_cb_one_byte(uint32_t b) {
    const uint32_t m = b >> 5, ai = b & 31u;
    return ai < 24u && (m <= 1u || m == 7u || (m != 6u && ai == 0u));
}

/* The items a frame has read. Only indefinite containers count them (count); a definite one has
 * read its n items (2n for a map) less those remaining, so that closing an item updates one word
 * of its frame. */
WP_INLINE uint32_t wp_cb_done(const wp_frame *f) {
    if (f->flags & FR_INDEF) return f->count;
    return ((f->flags & FR_MAP) ? 2u * f->n : f->n) - f->remaining;
}

/* cbor-x's record and packed-CBOR tags. Their tables must be known before the items after them
 * are read, but the host builds a tag's value after its item; so the decoder puts a marker tag
 * (WP_CBOR_MARK_*: tag numbers at the top of the 64-bit range, written only in the long form)
 * around the elements the host must see first: the keys of a record definition (tag 0xdfff,
 * [id, keys, ...values]) and the tables of a packed item (tag 51, [values, prefixes, suffixes,
 * rump]). Frame flags for these live in the high bits (clear of the shared FR_* flags). */
#define FR_CB_RECTAG (1u << 24)   /* tag 0xdfff: its item, if an array, is a record definition */
#define FR_CB_RECARR (1u << 25)   /* the definition's array; kstart holds the id (or NO_ID) */
#define FR_CB_PACKTAG (1u << 26)  /* tag 51 */
#define FR_CB_PACKARR (1u << 27)  /* the packed item's array */
#define FR_CB_DEFSTAG (1u << 28)  /* tag 0xdffe: [firstId, keys..., value]: definitions, then a value */
#define FR_CB_BUNDTAG (1u << 29)  /* tag 0xdff9: cbor-x's bundled strings */
#define FR_CB_BUNDARR (1u << 30)  /* its array: [offset, (previous bundle's two strings,) value] */
/* bits 8-22 of a definite map's flags: the shape guessed from its first key (id + 1; 0: none) */
#define FR_CB_GUESS_SHIFT 8u
#define FR_CB_GUESS (0x7fffu << FR_CB_GUESS_SHIFT)
_Static_assert((FR_CB_GUESS & (FR_ARR | FR_MAP | FR_ALL_STR | FR_ALL_INTERNED | FR_INDEF | FR_TAG | FR_RECDEF | FR_CB_RECTAG |
                               FR_CB_RECARR | FR_CB_PACKTAG | FR_CB_PACKARR | FR_CB_DEFSTAG | FR_CB_BUNDTAG | FR_CB_BUNDARR)) == 0,
               "the guess bits are free");
#define WP_CBOR_MARK_BUNDLE_LO 0xfffd0000u /* marker tag 0xffffffff_fffd0000 around [s0, s1, offset] */
#define WP_CBOR_MARK_REC_HI 0xffffffffu   /* marker tag 0xffffffff_ffff0000 | record id (16 bits) */
#define WP_CBOR_MARK_REC_LO 0xffff0000u
#define WP_CBOR_MARK_PACK_LO 0xfffe0000u  /* marker tag 0xffffffff_fffe0000 | element (0..2) */
#define WP_CBOR_NO_ID 0xffffffffu

/* The record id (0..0xffff) of the first element of a record definition at r's position: an
 * unsigned integer, or a float of a whole value, as cbor-x writes ids with alwaysUseFloat (and
 * reads any number there); else WP_CBOR_NO_ID. */
WP_INLINE uint32_t wp_cb_def_id(const wp_reader *r) {
    uint32_t m, h;
    uint64_t a;
    bool indef;
    if (wp_cbor_head(r, &m, &a, &h, &indef) != WP_OK || indef) return WP_CBOR_NO_ID;
    if (m == 0) return a <= 0xffffu ? (uint32_t)a : WP_CBOR_NO_ID;
    if (m != 7 || h < 3) return WP_CBOR_NO_ID; /* (h: f9, fa, fb, whose bytes the head found in the input) */
    const double v = wp_cbor_num_at(wp_rd_ptr(r));
    return v >= 0.0 && v <= 65535.0 && v == (double)(uint32_t)v ? (uint32_t)v : WP_CBOR_NO_ID;
}

/* cbor-x's record defined where it appears, tag 0xdfff over [0xe000 + id, [keys], ...values]:
 * when the item at `at` is a definite array of 3 to WP_SHAPE_MAX_KEYS + 2 items (within
 * maxArrayLength, and so is the shorter array of keys) whose first is a record id (0xe000 +
 * 0..8191) and whose second is a definite array of as many complete text strings as there are
 * values, each within maxStrLength and
 * interned, the interned shape of those keys, with the id, the count and where the values start;
 * else WP_NO_ID (keys interned before the one that failed stay interned, as a map's do). The
 * keys are hashed every time: compared first with the shape the id's last definition had, as
 * MessagePack's are (wp_rec_guess), they decoded example4 through new Encoder() 1.17x faster in C,
 * but the stream chunk (one definition in a hundred messages) 0.965-0.975x in every form tried,
 * from what the change did to the item loop's compiled code. */
static uint32_t wp_cbor_crec_scan(const wp_reader *r, uint32_t at, const wp_decoder *d, wp_tables *tb, uint32_t *kids,
                                  uint32_t kcap, uint32_t *id, uint32_t *nk, uint32_t *values) {
    wp_reader q = { r->base, at, r->len };
    uint32_t m, h;
    uint64_t a;
    bool indef;
    if (!wp_rd_has(&q, 1) || wp_cbor_head(&q, &m, &a, &h, &indef) != WP_OK || m != 4 || indef) return WP_NO_ID;
    if (a < 3 || a - 2 > WP_SHAPE_MAX_KEYS || a - 2 > kcap || wp_over((uint32_t)a, d->max_array)) return WP_NO_ID;
    const uint32_t n = (uint32_t)a - 2u;
    q.pos += h;
    if (!wp_rd_has(&q, 1) || wp_cbor_head(&q, &m, &a, &h, &indef) != WP_OK || m != 0 || a < 0xe000u || a > 0xe000u + 8191u) return WP_NO_ID;
    *id = (uint32_t)a - 0xe000u;
    q.pos += h;
    if (!wp_rd_has(&q, 1) || wp_cbor_head(&q, &m, &a, &h, &indef) != WP_OK || m != 4 || indef || a != n) return WP_NO_ID;
    q.pos += h;
    for (uint32_t k = 0; k < n; k++) {
        if (!wp_rd_has(&q, 1) || wp_cbor_head(&q, &m, &a, &h, &indef) != WP_OK || m != 3 || indef) return WP_NO_ID;
        if (a > wp_rd_left(&q) - h || wp_over((uint32_t)a, d->max_str)) return WP_NO_ID;
        const uint32_t s = q.pos + h;
        kids[k] = wp_key_intern_at(tb, wp_rd_at(&q, s), (uint32_t)a, wp_rd_readable(r, s));
        if (kids[k] == WP_NO_ID) return WP_NO_ID;
        q.pos = s + (uint32_t)a;
    }
    *nk = n;
    *values = q.pos;
    return wp_shape_intern(tb, kids, n);
}

/* Packed references as map keys. In a packed item (tag 51 [values, prefixes, suffixes, rump]) a
 * reference (simple 0-15: entry 0-15 of the values table; tag 6 over an integer i: entry 16 + 2i,
 * or 16 - 2i - 1 for i < 0) stands for a table entry, which the host resolves against the values
 * its marker brought (TapeReader: decodeSimple, packedRef). A map keyed by references was built
 * key by key there. With WP_DEC_CBOR_PACKED (the host's references are the built-in ones), while
 * exactly one packed item is open, its values table read, and no bundle, a reference as a map key
 * to one of the table's leading text strings is interned as that string instead, so the map gets
 * a shape like one keyed by text. The host's table then is that array (past its length come
 * entries from before, which this never resolves); nested packed items, and what follows one in
 * an outer item's rump, keep their references.
 *
 * The stack's last WP_PK_WORDS words (wp_cb_pk): [0] where the values table of the packed item
 * opened last starts, [1] the entries found there (WP_PK_UNREAD: not looked for yet), then the
 * offset and length of each. Set as a packed item opens, and read at its first reference that is
 * a key, which comes after the table (wp_cb_pk_scan). [0] is WP_PK_NONE for a packed item opened
 * in another one (the host's table after it could be either's, or a mix) and where the table's
 * marker would not fit below maxDepth (the host does not get it), so that none resolves until
 * the next packed item outside any other. */
#define WP_PK_NONE 0xffffffffu
#define WP_PK_UNREAD 0xfffffffeu
#define WP_PK_SEEN 0x80000000u /* in the decoder's count of open packed items: one has opened */

WP_INLINE uint32_t *wp_cb_pk(const wp_decoder *d) { return d->stack + d->stack_cap - WP_PK_WORDS; }

/* The values table at `at`, if it is a definite array of definite text strings only (and so
 * holds no map key, which may then be read only after it): where its first WP_PK_MAX strings lie,
 * as offset and length pairs in ent, and their count; else 0. Reads heads only, within the input,
 * each byte once per packed item, and fails nothing: the item loop has read and checked the table
 * already (a key comes after it). */
static uint32_t wp_cb_pk_scan(const wp_reader *r, uint32_t at, uint32_t *ent) {
    wp_reader q = { r->base, at, r->len };
    uint32_t m, h;
    uint64_t a;
    bool indef;
    if (!wp_rd_has(&q, 1) || wp_cbor_head(&q, &m, &a, &h, &indef) != WP_OK || m != 4 || indef || a > wp_rd_left(&q)) return 0;
    const uint32_t n = (uint32_t)a;
    q.pos += h;
    for (uint32_t k = 0; k < n; k++) {
        if (!wp_rd_has(&q, 1) || wp_cbor_head(&q, &m, &a, &h, &indef) != WP_OK || m != 3 || indef || a > wp_rd_left(&q) - h) return 0;
        if (k < WP_PK_MAX) {
            ent[2u * k] = q.pos + h;
            ent[2u * k + 1u] = (uint32_t)a;
        }
        q.pos += h + (uint32_t)a;
    }
    return n < WP_PK_MAX ? n : WP_PK_MAX;
}

/* Whether a bundle (tag 0xdff9) whose content starts at `at` is a map key that stands for a
 * string: its value, the last element of [offset, value] or [offset, s0', s1', value], is text,
 * a bundled string (tag 14 or 15) or a key cbor-x coerces to a property name (a number, false,
 * true, null, undefined), as every bundle cbor-x writes before a key is. Reads heads only, within
 * the input, and fails nothing (the item loop reads them again): a form it does not follow is no
 * such key, so the map is a Map, which loses no key whatever the value turns out to be. (Taken
 * for a string key unread, a bundle around 3(4) made the map an object with a Tag for a key: the
 * host then threw BAD_REFERENCE, where a map with that key unbundled is a Map.) */
static bool wp_cb_bundle_key(const wp_reader *r, uint32_t at) {
    wp_reader q = { r->base, at, r->len };
    uint32_t m, h;
    uint64_t a;
    bool indef;
    if (!wp_rd_has(&q, 1) || wp_cbor_head(&q, &m, &a, &h, &indef) != WP_OK || m != 4 || indef || (a != 2 && a != 4)) return false;
    const uint32_t n = (uint32_t)a;
    q.pos += h;
    for (uint32_t k = 0; k + 1 < n; k++) {
        if (!wp_rd_has(&q, 1) || wp_cbor_head(&q, &m, &a, &h, &indef) != WP_OK || indef) return false;
        if (k == 0 ? m != 0 : ((m != 2 && m != 3) || a > wp_rd_left(&q) - h)) return false;
        q.pos += h + (k == 0 ? 0u : (uint32_t)a);
    }
    if (!wp_rd_has(&q, 1)) return false;
    const uint32_t b = *wp_rd_ptr(&q);
    if ((b >> 5) <= 1u || (b >> 5) == 3u || (b >= 0xf4u && b <= 0xf7u) || (b >= 0xf9u && b <= 0xfbu) || b == 0xceu || b == 0xcfu) return true;
    return b == 0xd8u && wp_rd_has(&q, 2) && (wp_rd_ptr(&q)[1] == 14u || wp_rd_ptr(&q)[1] == 15u);
}

/* The values-table entry that the packed reference at `start` (first byte b) stands for, and its
 * size: simple 0-15 (e0..ef), or tag 6 in one byte (c6) over an integer with a head of up to 5
 * bytes. WP_PK_NONE for anything else (it takes the general way). */
WP_INLINE uint32_t wp_cb_pk_index(const wp_reader *r, uint32_t start, uint32_t b, uint32_t *size) {
    if (b - 0xe0u < 16u) {
        *size = 1u;
        return b - 0xe0u;
    }
    if (b != 0xc6u) return WP_PK_NONE;
    wp_reader q = { r->base, start + 1u, r->len };
    uint32_t m, h;
    uint64_t a;
    bool indef;
    if (!wp_rd_has(&q, 1) || wp_cbor_head(&q, &m, &a, &h, &indef) != WP_OK || m > 1u || indef || h > 5u || a >= WP_PK_MAX) return WP_PK_NONE;
    *size = 1u + h;
    return 16u + 2u * (uint32_t)a + m;
}

/* wp_pairs_run's value step for CBOR (opts: WP_PV_VCACHE): the item loop's frequent heads that
 * are not containers (integers with heads of up to 5 bytes, text with a one-byte length, false,
 * true, null, undefined, float64). */
WP_INLINE bool wp_cb_pair_value(wp_decoder *d, wp_tables *tb, wp_tape *t, const uint8_t *in, uint32_t len, uint32_t *at,
                                uint32_t opts) {
    const uint32_t pos = *at;
    if (pos >= len) return false;
    const uint32_t b = in[pos];
    const uint8_t *q = in + pos;
    const uint32_t left = len - pos;
    uint32_t size;
    if (b <= 0x17u) {
        wp_tape_tagp(t, WP_T_INT, b);
        size = 1u;
    } else if (b - 0x60u <= 0x18u) {
        const uint32_t hl = b == 0x78u ? 2u : 1u;
        if (left < hl) return false;
        const uint32_t sn = b == 0x78u ? q[1] : b - 0x60u;
        if (sn > left - hl) return false;
        if (!wp_put_value_string(d, tb, t, q + hl, sn, left - hl + WP_DEC_SLACK, (opts & WP_PV_VCACHE) != 0)) return false;
        size = hl + sn;
    } else {
        switch (b) {
        case 0x18: if (left < 2u) return false; wp_cb_put_uint(t, q[1]); size = 2u; break;
        case 0x19: if (left < 3u) return false; wp_cb_put_uint(t, wp_be16(q + 1)); size = 3u; break;
        case 0x1a: if (left < 5u) return false; wp_cb_put_uint(t, wp_be32(q + 1)); size = 5u; break;
        case 0x20 ... 0x37: wp_cb_put_nint(t, b - 0x20u); size = 1u; break;
        case 0x38: if (left < 2u) return false; wp_cb_put_nint(t, q[1]); size = 2u; break;
        case 0x39: if (left < 3u) return false; wp_cb_put_nint(t, wp_be16(q + 1)); size = 3u; break;
        case 0xf4: wp_tape_put(t, WP_T_FALSE); size = 1u; break;
        case 0xf5: wp_tape_put(t, WP_T_TRUE); size = 1u; break;
        case 0xf6: wp_tape_put(t, WP_T_NIL); size = 1u; break;
        case 0xf7: wp_tape_put(t, WP_T_UNDEF); size = 1u; break;
        case 0xfb:
            if (left < 9u) return false;
            wp_tape_f64(t, WP_T_F64, wp_f64_from_bits(wp_be64(q + 1)));
            size = 9u;
            break;
        default: return false;
        }
    }
    *at = pos + size;
    return true;
}

/* wp_pairs_run for CBOR (a definite map): keys are text of at most 16 bytes in a one-byte head.
 * No bundle or packed item is open (the caller checks). */
static __attribute__((noinline)) uint32_t wp_cb_pairs(wp_decoder *d, wp_tables *tb, wp_pairs *p, uint32_t *w, uint32_t tcap,
                                                      uint32_t g, uint32_t *kscratch, uint32_t kcap, uint32_t k, uint32_t opts) {
    return wp_pairs_run(d, tb, p, w, tcap, g, kscratch, kcap, k, 0x60u, wp_cb_pair_value, opts);
}

wp_err wp_cbor_decode(wp_decoder *d, wp_tables *tb) {
    wp_reader r = { d->in, 0, d->len };
    wp_tape t = { d->tape, 0, d->tape_cap };
    uint32_t max_depth = wp_effective_depth(d->max_depth, d->len);
    const bool intern = (d->flags & WP_DEC_NO_INTERN) == 0;
    const bool vcache = (d->flags & WP_DEC_VCACHE) != 0;
    /* These three are read from d where they are tested (d->flags never changes during a call),
     * not kept in locals: V8's first-call compiler (Liftoff) holds a copy of every local at each
     * branch target, and with them as locals the function had 61 where it now has 56, and its
     * first call took 1.16 MB of compiler memory against 0.89 MB (build.sh: about 16 us a page in
     * this VM). The C alone measured the same (bench/ab.js --mode=c: 0.98-1.01x); `intern` and
     * `vcache` read so made small decodes 5-10% slower, and stay. #undef'd after the function. */
#define as_objects ((d->flags & WP_DEC_MAPS_AS_OBJECTS) != 0)
#define multiple ((d->flags & WP_DEC_MULTIPLE) != 0)
#define f32_tagged ((d->flags & WP_DEC_TAG_F32) != 0)
    wp_err err = WP_OK;
    uint32_t eoff = 0;
    uint32_t keep_keys = tb->nkeys, keep_shapes = tb->nshapes;
    /* where the current bundle's strings start, and the previous bundle's (0: none). Items lie
     * before the current bundle's strings, and a previous bundle's strings are exactly the two
     * elements a new bundle skips, so no byte is both a bundle string and an item (and string
     * memory stays bounded by the input). */
    uint32_t bundle_s = 0, bundle_prev_s = 0;

    wp_dec_reset(d, tb);
    if (vcache) tb->vc_call++; /* (slots this call uses are kept until it ends: wp_vc_put) */

    if (d->stack_cap < wp_stack_words(max_depth, d->len)) FAIL(WP_ERR_TAPE_FULL, 0);
    wp_frame *fr = (wp_frame *)(void *)d->stack;
    uint32_t *kscratch = d->stack + max_depth * WP_FRAME_WORDS;
    uint32_t kcap = d->stack_cap - max_depth * WP_FRAME_WORDS - WP_PK_WORDS;
    uint32_t ktop = 0, sp = 0;
    /* open tag-51 arrays, | WP_PK_SEEN once one has opened in this call: packed references may
     * be map keys (and the shortcuts that test for 0 stay off for the rest of the call) */
    uint32_t packed_open = 0;
    uint32_t bundle_end = 0;  /* after the strings of the last bundle of this top-level item (0: none) */

    if (d->len == 0) FAIL(WP_ERR_TRUNCATED, 0);

    for (;;) {
        uint32_t start = r.pos;
        /* input ends between items: the innermost open item is what is cut */
        if (wp_unlikely(!wp_rd_has(&r, 1))) FAIL(WP_ERR_TRUNCATED, sp ? fr[sp - 1].start : start);
        if (wp_unlikely(!wp_tape_room(&t, 6))) FAIL(WP_ERR_TAPE_FULL, start);
        if (wp_unlikely(bundle_s && start >= bundle_s)) FAIL(WP_ERR_BAD_BUNDLE, start);
        wp_frame *top = sp ? &fr[sp - 1] : 0;
        uint32_t b = r.base[start];

        /* ------------------------------------------------ break */
        if (b == 0xff) {
            if (!top || !(top->flags & FR_INDEF)) FAIL(WP_ERR_BREAK, start);
            if ((top->flags & FR_MAP) && (top->count & 1u)) FAIL(WP_ERR_BREAK, start);
            r.pos++;
            uint32_t n = (top->flags & FR_MAP) ? top->count / 2 : top->count;
            t.w[top->hdr + 1] = n;
            if ((top->flags & FR_MAP) && n == 0) {
                /* bf ff: the same entry as a0 (no shape for the empty map) */
                t.w[top->hdr] = (as_objects ? WP_T_OBJ : WP_T_MAP) | (WP_LEN_ESCAPE << 8);
            } else if (top->flags & FR_MAP) {
                const uint32_t hw = wp_map_close(&t, tb, top->hdr, n, top->flags, as_objects, kscratch + top->kstart, ktop - top->kstart);
                if ((hw & 0xffu) == WP_T_SHAPED) {
                    /* the count word is not needed: the shape header moves into it */
                    t.w[top->hdr + 1] = hw;
                    t.w[top->hdr] = WP_T_PAD;
                }
                ktop = top->kstart;
            }
            if (top->flags & FR_CB_PACKARR) packed_open--;
            sp--;
            goto item_done;
        }

        /* elements of cbor-x's bundles, record definitions and packed items (one test for all three) */
        if (top && (top->flags & (FR_CB_BUNDARR | FR_CB_RECARR | FR_CB_PACKARR))) {
            if (top->flags & FR_CB_BUNDARR) {
                /* cbor-x's bundled strings, tag 0xdff9 [offset, (s0', s1',) value]: the offset (from
                 * its own first byte) points at two strings; the host gets them, in a marker tag
                 * [s0, s1, offset], before the value. A previous bundle's strings (elements 1 and 2
                 * of a 4-element array) were read through its own offset: skipped. */
                uint32_t bm, bh = 0; /* (set when be is WP_OK; gcc cannot see it) */
                uint64_t ba = 0;
                bool bi;
                wp_err be = wp_cbor_head(&r, &bm, &ba, &bh, &bi);
                if (wp_cb_done(top) == 0 && be == WP_OK && bm == 0 && !bi) {
                    uint64_t bp = (uint64_t)start + ba;
                    if (bp < (uint64_t)start + bh || (bundle_end && bp < bundle_end)) FAIL(WP_ERR_BAD_BUNDLE, start);
                    /* (strings past the end: the input is cut short, as a stream's chunk may be) */
                    if (bp > r.len) FAIL(WP_ERR_TRUNCATED, start);
                    wp_reader br = r;
                    br.pos = (uint32_t)bp;
                    uint32_t sp0[2], sn[2];
                    for (int k = 0; k < 2; k++) {
                        if (!wp_rd_has(&br, 1)) FAIL(WP_ERR_TRUNCATED, start);
                        uint32_t sm, sh;
                        uint64_t sa;
                        bool si;
                        wp_err se = wp_cbor_head(&br, &sm, &sa, &sh, &si);
                        if (se != WP_OK) FAIL(se, br.pos);
                        if (si || (sm != 2 && sm != 3)) FAIL(WP_ERR_BAD_BUNDLE, br.pos);
                        if (sa > wp_rd_left(&br) - sh) FAIL(WP_ERR_TRUNCATED, start);
                        sp0[k] = br.pos + sh;
                        sn[k] = (uint32_t)sa;
                        br.pos += sh + (uint32_t)sa;
                    }
                    if (sp + 2 > max_depth) FAIL(WP_ERR_DEPTH, start);
                    if (!wp_tape_room(&t, 16)) FAIL(WP_ERR_TAPE_FULL, start);
                    wp_tape_tagp(&t, WP_T_TAG, WP_LEN_ESCAPE); wp_tape_put(&t, WP_CBOR_MARK_BUNDLE_LO); wp_tape_put(&t, WP_CBOR_MARK_REC_HI);
                    wp_tape_tagp(&t, WP_T_ARR, 3);
                    for (int k = 0; k < 2; k++) {
                        if (!wp_put_string(d, &t, r.base + sp0[k], sn[k], true)) FAIL(WP_ERR_TAPE_FULL, start);
                    }
                    wp_frame *f = &fr[sp++];
                    f->remaining = 1; f->count = 0; f->hdr = 0; f->n = 1; f->kstart = ktop; f->flags = FR_TAG; f->start = start;
                    f = &fr[sp++];
                    f->remaining = 1; f->count = 2; f->hdr = 0; f->n = 3; f->kstart = ktop; f->flags = FR_ARR; f->start = start;
                    if (sp > d->depth_seen) d->depth_seen = sp;
                    top = f;
                    bundle_end = br.pos;
                    bundle_prev_s = bundle_s;
                    bundle_s = (uint32_t)bp;
                } else if (wp_cb_done(top) == 0) {
                    /* element 0 is no offset: no bundle, an ordinary array whose elements are all
                     * values (elements 1 and 2 were skipped as a previous bundle's strings, so a
                     * value of them came back as null, which a bundle's array then refused) */
                    top->flags &= ~FR_CB_BUNDARR;
                } else if (top->n == 4 && (wp_cb_done(top) == 1 || wp_cb_done(top) == 2)) {
                    if (be != WP_OK) FAIL(be, start);
                    /* the previous bundle's strings, which its offset pointed at */
                    if (wp_cb_done(top) == 1 && bundle_prev_s && start != bundle_prev_s) FAIL(WP_ERR_BAD_BUNDLE, start);
                    if (bi || (bm != 2 && bm != 3)) FAIL(WP_ERR_BAD_BUNDLE, start);
                    if (ba > wp_rd_left(&r) - bh) FAIL(WP_ERR_TRUNCATED, start);
                    r.pos = start + bh + (uint32_t)ba;
                    wp_tape_put(&t, WP_T_NIL);
                    goto item_done;
                }
            }
            if (top->flags & (FR_CB_RECARR | FR_CB_PACKARR)) {
                /* an element of a record definition or packed item: a marker before those the host
                 * must see first (see FR_CB_RECTAG) */
                uint32_t lo = 0;
                bool mark = false;
                if (top->flags & FR_CB_RECARR) {
                    /* 0xdfff: element 1 is the keys of id (element 0); 0xdffe (FR_CB_DEFSTAG on the
                     * array too, definite arrays only): elements 1..n-2 define ids firstId + 0, 1, ...,
                     * except items of one byte (an empty key array; anything else of one byte
                     * defines nothing), which cannot pay for a marker's 3 tape words */
                    bool defs = (top->flags & FR_CB_DEFSTAG) != 0;
                    const uint32_t done = wp_cb_done(top);
                    if (done == 0) {
                        top->kstart = wp_cb_def_id(&r);
                    } else if (top->kstart != WP_CBOR_NO_ID && (defs ? done + 1 < top->n && !wp_cb_one_byte(b) && top->kstart + done - 1 <= 0xffffu : done == 1)) {
                        lo = WP_CBOR_MARK_REC_LO | (top->kstart + done - 1);
                        mark = true;
                    }
                } else if (wp_cb_done(top) < 3) {
                    lo = WP_CBOR_MARK_PACK_LO | wp_cb_done(top);
                    mark = true;
                }
                if (mark && sp < max_depth) {
                    if (!wp_tape_room(&t, 10)) FAIL(WP_ERR_TAPE_FULL, start);
                    wp_tape_tagp(&t, WP_T_TAG, WP_LEN_ESCAPE); wp_tape_put(&t, lo); wp_tape_put(&t, WP_CBOR_MARK_REC_HI);
                    wp_frame *f = &fr[sp++];
                    if (sp > d->depth_seen) d->depth_seen = sp;
                    f->remaining = 1; f->count = 0; f->hdr = 0; f->n = 1; f->kstart = ktop; f->flags = FR_TAG; f->start = start;
                    top = f;
                }
            }
        }

        /* (a definite map's items left start at 2n: the keys are read when the count left is even) */
        bool is_key = top && (top->flags & FR_MAP) && (((top->flags & FR_INDEF) ? top->count : top->remaining) & 1u) == 0;
        if (is_key && (top->flags & FR_CB_GUESS) && (top->flags & (FR_ALL_INTERNED | FR_INDEF)) == FR_ALL_INTERNED &&
            bundle_s == 0 && packed_open == 0 && d->max_str - 1u >= 0xfeu && !WP_TEST_SHORTCUTS_OFF) {
            /* a guessed map: its entries out of this loop while they are the common kinds */
            wp_pairs pr = { r.pos, t.len, ktop, top->remaining };
            const uint32_t st = wp_cb_pairs(d, tb, &pr, t.w, t.cap, (top->flags >> FR_CB_GUESS_SHIFT) & 0x7fffu, kscratch, kcap,
                                            ktop - top->kstart, vcache ? WP_PV_VCACHE : 0u);
            /* a guess from the map's opening whose first key is not this one: none (the key is
             * hashed without being compared again) */
            if (pr.ktop == top->kstart) top->flags &= ~FR_CB_GUESS;
            r.pos = pr.pos;
            t.len = pr.tlen;
            ktop = pr.ktop;
            top->remaining = pr.remaining;
            if (st == WP_PAIRS_DONE) goto item_done;
            start = r.pos;
            if (wp_unlikely(!wp_rd_has(&r, 1))) FAIL(WP_ERR_TRUNCATED, top->start);
            if (wp_unlikely(!wp_tape_room(&t, 6))) FAIL(WP_ERR_TAPE_FULL, start);
            b = r.base[start];
            if (st == WP_PAIRS_VALUE) is_key = false;
            else if (b == 0xff) FAIL(WP_ERR_BREAK, start); /* (the loop head's check: the map is definite) */
        }
        uint32_t kat = 0, kn = 0, kend = 0; /* a key to intern: its text at kat, kn bytes; the key's end */
        if (is_key && b - 0x60u <= 0x18u && intern) {
            /* a text key of up to 255 bytes (the interned ones are at most 64): interned, and in
             * a definite map its value next, without the way round the loop (the map's count of
             * items left is even: a value follows) */
            uint32_t n = b - 0x60u, hl1 = 1;
            if (n == 0x18u) {
                if (!wp_rd_has(&r, 2)) FAIL(WP_ERR_TRUNCATED, start);
                n = r.base[start + 1];
                hl1 = 2;
            }
            const uint32_t avail = r.len - start - hl1;
            if (wp_over(n, d->max_str)) FAIL(WP_ERR_LIMIT, start);
            if (n > avail) FAIL(WP_ERR_TRUNCATED, start);
            if (wp_unlikely(bundle_s && start + hl1 + n > bundle_s)) FAIL(WP_ERR_BAD_BUNDLE, start);
            kat = start + hl1;
            kn = n;
            kend = kat + n;
        } else if (wp_unlikely(packed_open == (WP_PK_SEEN | 1u)) && is_key && intern && bundle_s == 0 && (d->flags & WP_DEC_CBOR_PACKED)) {
            /* a packed reference to a string of the open item's values table (see WP_PK_NONE);
             * tag 6 only where the general way has depth for its frame */
            uint32_t size = 0; /* (set when i is an index; gcc cannot see it) */
            const uint32_t i = wp_cb_pk_index(&r, start, b, &size);
            uint32_t *const pk = wp_cb_pk(d);
            if (pk[1] == WP_PK_UNREAD) pk[1] = pk[0] == WP_PK_NONE ? 0 : wp_cb_pk_scan(&r, pk[0], pk + 2);
            if (i < pk[1] && (size == 1u || sp < max_depth)) {
                kat = pk[2u + 2u * i];
                kn = pk[3u + 2u * i];
                kend = start + size;
            }
        }
        if (kend) {
            const uint8_t *s = r.base + kat;
            const uint32_t n = kn;
            const uint32_t guess = (top->flags >> FR_CB_GUESS_SHIFT) & 0x7fffu; /* shape id + 1, 0: none */
            uint32_t id;
            if (guess && (top->flags & FR_ALL_INTERNED)) {
                bool miss = false;
                id = wp_guess_key(tb, guess, ktop - top->kstart, s, n, wp_rd_readable(&r, kat), &miss);
                if (miss) top->flags &= ~FR_CB_GUESS; /* for the rest of the map */
            } else {
                id = wp_key_intern_at(tb, s, n, wp_rd_readable(&r, kat));
            }
            if (id != WP_NO_ID) {
                /* the first key of a definite map: its guess (indefinite maps take none) */
                if (ktop == top->kstart && !(top->flags & (FR_INDEF | FR_CB_GUESS)) && as_objects && top->n <= WP_SHAPE_MAX_KEYS)
                    top->flags |= wp_guess_first(tb, id, top->n, sp) << FR_CB_GUESS_SHIFT;
                wp_tape_tagp(&t, WP_T_KEY, id);
                if (top->flags & FR_ALL_INTERNED) {
                    if (ktop < kcap && wp_cb_done(top) / 2 < WP_SHAPE_MAX_KEYS) kscratch[ktop++] = id;
                    else top->flags &= ~(uint32_t)FR_ALL_INTERNED;
                }
                r.pos = kend;
                if (top->flags & FR_INDEF) goto item_done;
                top->remaining--;
                start = r.pos;
                if (wp_unlikely(!wp_rd_has(&r, 1))) FAIL(WP_ERR_TRUNCATED, top->start);
                if (wp_unlikely(!wp_tape_room(&t, 6))) FAIL(WP_ERR_TAPE_FULL, start);
                if (wp_unlikely(bundle_s && start >= bundle_s)) FAIL(WP_ERR_BAD_BUNDLE, start);
                b = r.base[start];
                is_key = false;
            }
            /* (else the key takes the general way below: a string or a reference, the map not
             * all interned) */
        }
        /* ------------------------------------------------ the frequent heads, one dispatch
         * A value (a key of another kind changes its map's flags: the general way) whose head is
         * one of the common short forms: the general way's checks, in its order, without the
         * head's decode and the switch on its major type. Indefinite and 8-byte heads, empty
         * containers, tags, byte strings and the arrays of cbor-x's tags take the general way.
         * The C decode alone in wasm, old and new alternating in one process: the fluentd message
         * (100 to a call) 1.25-1.38x, deep-wide 1.17-1.23x, the varied small messages 1.03-1.19x;
         * 3 KB of code. */
        if (!is_key) {
            uint32_t n, hl1;
            switch (b) {
            case 0x00 ... 0x17: wp_tape_tagp(&t, WP_T_INT, b); r.pos = start + 1; goto item_done;
            case 0x18:
                if (!wp_rd_has(&r, 2)) FAIL(WP_ERR_TRUNCATED, start);
                wp_cb_put_uint(&t, r.base[start + 1]); r.pos = start + 2; goto item_done;
            case 0x19:
                if (!wp_rd_has(&r, 3)) FAIL(WP_ERR_TRUNCATED, start);
                wp_cb_put_uint(&t, wp_be16(r.base + start + 1)); r.pos = start + 3; goto item_done;
            case 0x1a:
                if (!wp_rd_has(&r, 5)) FAIL(WP_ERR_TRUNCATED, start);
                wp_cb_put_uint(&t, wp_be32(r.base + start + 1)); r.pos = start + 5; goto item_done;
            case 0x20 ... 0x37: wp_cb_put_nint(&t, b - 0x20u); r.pos = start + 1; goto item_done;
            case 0x38:
                if (!wp_rd_has(&r, 2)) FAIL(WP_ERR_TRUNCATED, start);
                wp_cb_put_nint(&t, r.base[start + 1]); r.pos = start + 2; goto item_done;
            case 0x39:
                if (!wp_rd_has(&r, 3)) FAIL(WP_ERR_TRUNCATED, start);
                wp_cb_put_nint(&t, wp_be16(r.base + start + 1)); r.pos = start + 3; goto item_done;
            case 0x60 ... 0x77: n = b - 0x60u; hl1 = 1; goto cb_text;
            case 0x78:
                if (!wp_rd_has(&r, 2)) FAIL(WP_ERR_TRUNCATED, start);
                n = r.base[start + 1]; hl1 = 2;
                goto cb_text;
            case 0x81 ... 0x97:
                if (top && (top->flags & (FR_CB_RECTAG | FR_CB_DEFSTAG | FR_CB_BUNDTAG | FR_CB_PACKTAG))) break;
                n = b - 0x80u;
                goto cb_arr;
            case 0xa1 ... 0xb7:
                n = b - 0xa0u;
                if (wp_over(n, d->max_map)) FAIL(WP_ERR_LIMIT, start);
                if (sp >= max_depth) FAIL(WP_ERR_DEPTH, start);
                r.pos = start + 1;
                {
                    wp_frame *f = &fr[sp++];
                    if (sp > d->depth_seen) d->depth_seen = sp;
                    f->hdr = t.len; f->count = 0; f->n = n; f->kstart = ktop; f->start = start;
                    /* (the shape guessed as it opens: its first key is compared, not hashed) */
                    f->flags = FR_MAP | FR_ALL_STR | FR_ALL_INTERNED |
                               (as_objects && intern ? wp_guess_open(tb, n, sp) << FR_CB_GUESS_SHIFT : 0u);
                    f->remaining = 2 * n;
                }
                wp_tape_tag_len(&t, WP_T_MAP, n);
                continue;
            case 0xf4: wp_tape_put(&t, WP_T_FALSE); r.pos = start + 1; goto item_done;
            case 0xf5: wp_tape_put(&t, WP_T_TRUE); r.pos = start + 1; goto item_done;
            case 0xf6: wp_tape_put(&t, WP_T_NIL); r.pos = start + 1; goto item_done;
            case 0xf7: wp_tape_put(&t, WP_T_UNDEF); r.pos = start + 1; goto item_done;
            case 0xfb:
                if (!wp_rd_has(&r, 9)) FAIL(WP_ERR_TRUNCATED, start);
                wp_tape_f64(&t, WP_T_F64, wp_f64_from_bits(wp_be64(r.base + start + 1)));
                r.pos = start + 9;
                goto item_done;
            default: break;
            }
            goto cb_general;
        cb_text:
            r.pos = start + hl1;
            if (wp_over(n, d->max_str)) FAIL(WP_ERR_LIMIT, start);
            if (n > r.len - r.pos) FAIL(WP_ERR_TRUNCATED, start);
            if (bundle_s && r.pos + n > bundle_s) FAIL(WP_ERR_BAD_BUNDLE, start); /* into the bundle's strings */
            if (!wp_put_value_string(d, tb, &t, wp_rd_ptr(&r), n, wp_rd_readable(&r, r.pos), vcache)) FAIL(WP_ERR_TAPE_FULL, start);
            r.pos += n;
            goto item_done;
        cb_arr:
            if (wp_over(n, d->max_array)) FAIL(WP_ERR_LIMIT, start);
            if (sp >= max_depth) FAIL(WP_ERR_DEPTH, start);
            r.pos = start + 1;
            if (n >= 2 && n <= r.len - r.pos) {
                const int run = wp_cbor_run_probe(&r, &t, n, f32_tagged, bundle_s ? bundle_s : UINT32_MAX);
                if (run == WP_CB_FULL) FAIL(WP_ERR_TAPE_FULL, start);
                if (run == WP_CB_RUN) goto item_done;
            }
            {
                wp_frame *f = &fr[sp++];
                if (sp > d->depth_seen) d->depth_seen = sp;
                f->hdr = t.len; f->count = 0; f->n = n; f->kstart = ktop; f->start = start;
                f->flags = FR_ARR;
                f->remaining = n;
            }
            wp_tape_tag_len(&t, WP_T_ARR, n);
            continue;
        }
    cb_general:;
        uint32_t major, hl;
        uint64_t arg;
        bool indef;
        {
            wp_err e = wp_cbor_head(&r, &major, &arg, &hl, &indef);
            if (e != WP_OK) FAIL(e, start);
        }
        uint32_t left = wp_rd_left(&r) - hl;
        /* keys: text strings are interned; numbers, booleans, null and undefined can become
         * property names (cbor-x coerces them), so the map can still be an object; any other key
         * (bytes, arrays, maps, tags, simple values) makes it a Map */
        if (is_key && major != 3) {
            uint32_t ai = b & 31u;
            bool coercible = major <= 1 || (major == 7 && ((ai >= 20 && ai <= 23) || (ai >= 25 && ai <= 27)));
            /* once a packed item has opened in this call (the host keeps the last table to the
             * call's end, as cbor-x: WP_PK_SEEN), or anywhere with shared packed values, packed
             * references (simple 0-15, tag 6) stand for strings */
            if ((packed_open || (d->flags & WP_DEC_CBOR_SHARED)) && ((major == 7 && ai < 16) || (major == 6 && arg == 6))) coercible = true;
            /* and inside a bundle, bundled strings (tags 14, 15) */
            if (major == 6 && ((bundle_end && (arg == 14 || arg == 15)) || (arg == 0xdff9u && wp_cb_bundle_key(&r, start + hl)))) coercible = true;
            top->flags &= coercible ? ~(uint32_t)FR_ALL_INTERNED : ~(uint32_t)(FR_ALL_STR | FR_ALL_INTERNED);
        }

        switch (major) {
        case 0:
            if (indef) FAIL(WP_ERR_RESERVED_AI, start);
            /* 8-byte heads stay 64-bit entries (BigInt by default, as cbor-x), whatever the value */
            if (hl == 9) { wp_tape_put(&t, WP_T_U64); wp_tape_put(&t, (uint32_t)arg); wp_tape_put(&t, (uint32_t)(arg >> 32)); }
            else wp_cb_put_uint(&t, (uint32_t)arg); /* hl < 9: arg < 2^32 */
            break;
        case 1:
            if (indef) FAIL(WP_ERR_RESERVED_AI, start);
            if (hl == 9) {
                /* 8-byte heads: I64 (two's complement of -1 - arg) or, beyond int64, N64 */
                uint64_t v = arg < 0x8000000000000000ull ? ~arg : arg;
                wp_tape_put(&t, arg < 0x8000000000000000ull ? WP_T_I64 : WP_T_N64);
                wp_tape_put(&t, (uint32_t)v); wp_tape_put(&t, (uint32_t)(v >> 32));
            } else {
                wp_cb_put_nint(&t, (uint32_t)arg); /* hl < 9: arg < 2^32 */
            }
            break;
        case 2:
            r.pos = start + hl;
            if (indef) {
                wp_err e = wp_cbor_indef_string(d, &r, &t, 2, &eoff);
                if (e != WP_OK) { err = e; goto fail; }
                goto item_done;
            }
            if (wp_over(arg > 0xffffffffu ? 0xffffffffu : (uint32_t)arg, d->max_bin)) FAIL(WP_ERR_LIMIT, start);
            if (arg > left) FAIL(WP_ERR_TRUNCATED, start);
            if (wp_unlikely(d->nholes != 0) && !wp_hole_skip(d, r.pos, (uint32_t)arg)) FAIL(WP_ERR_HOLE, start);
            wp_tape_put(&t, WP_T_BIN); wp_tape_put(&t, (uint32_t)arg); wp_tape_put(&t, r.pos);
            r.pos += (uint32_t)arg;
            goto item_done;
        case 3: {
            r.pos = start + hl;
            if (indef) {
                wp_err e = wp_cbor_indef_string(d, &r, &t, 3, &eoff);
                if (e != WP_OK) { err = e; goto fail; }
                if (is_key) top->flags &= ~(uint32_t)FR_ALL_INTERNED;
                goto item_done;
            }
            if (wp_over(arg > 0xffffffffu ? 0xffffffffu : (uint32_t)arg, d->max_str)) FAIL(WP_ERR_LIMIT, start);
            if (arg > left) FAIL(WP_ERR_TRUNCATED, start);
            if (bundle_s && (uint64_t)r.pos + arg > bundle_s) FAIL(WP_ERR_BAD_BUNDLE, start); /* into the bundle's strings */
            uint32_t n = (uint32_t)arg;
            const uint8_t *s = wp_rd_ptr(&r);
            /* keys the way above did not intern (longer heads, interning off or failed) */
            if (is_key) top->flags &= ~(uint32_t)FR_ALL_INTERNED;
            if (!wp_put_value_string(d, tb, &t, s, n, wp_rd_readable(&r, r.pos), vcache && !is_key)) FAIL(WP_ERR_TAPE_FULL, start);
            r.pos += n;
            goto item_done;
        }
        case 4:
        case 5: {
            bool is_map = major == 5;
            /* a count beyond what the input could hold is caught when the input runs out (no
             * memory depends on it), so an earlier error in the items is still reported */
            if (!indef && wp_over(arg > 0xffffffffu ? 0xffffffffu : (uint32_t)arg, is_map ? d->max_map : d->max_array)) FAIL(WP_ERR_LIMIT, start);
            if (!indef && arg > (is_map ? 0x7fffffffu : 0xffffffffu)) FAIL(WP_ERR_TRUNCATED, start);
            if (sp >= max_depth) FAIL(WP_ERR_DEPTH, start);
            r.pos = start + hl;
            uint32_t n = (uint32_t)arg;
            if (!indef && n == 0) {
                /* tag 51 over [] opens a packed item as over [_ ] (below), so that the keys after
                 * it read the same either way (found by fuzz_cbor_encode_det: a simple-value key
                 * made a Map after 51([]) and an object after 51([_ ])) */
                if (!is_map && top && (top->flags & FR_TAG) && (top->flags & FR_CB_PACKTAG) && wp_cb_done(top) == 0)
                    packed_open |= WP_PK_SEEN;
                wp_tape_tagp(&t, is_map ? (as_objects ? WP_T_OBJ : WP_T_MAP) : WP_T_ARR, 0);
                goto item_done;
            }
            /* (the array of a record definition, packed item or bundle is read item by item
             * whatever it holds: its elements have meanings a number run would lose) */
            const bool marked = top && (top->flags & (FR_CB_RECTAG | FR_CB_DEFSTAG | FR_CB_BUNDTAG | FR_CB_PACKTAG)) && wp_cb_done(top) == 0;
            if (!is_map && !indef && !marked && n >= 2 && n <= left) {
                const int run = wp_cbor_run_probe(&r, &t, n, f32_tagged, bundle_s ? bundle_s : UINT32_MAX);
                if (run == WP_CB_FULL) FAIL(WP_ERR_TAPE_FULL, start);
                if (run == WP_CB_RUN) goto item_done;
            }
            wp_frame *f = &fr[sp++];
            if (sp > d->depth_seen) d->depth_seen = sp;
            f->hdr = t.len;
            f->count = 0;
            f->n = n;
            f->kstart = ktop;
            f->start = start;
            f->flags = is_map ? (FR_MAP | FR_ALL_STR | FR_ALL_INTERNED) : FR_ARR;
            if (is_map && !indef && as_objects && intern && n <= WP_SHAPE_MAX_KEYS) f->flags |= wp_guess_open(tb, n, sp) << FR_CB_GUESS_SHIFT;
            if (!is_map && top && (top->flags & FR_TAG) && wp_cb_done(top) == 0) {
                if (top->flags & FR_CB_RECTAG) { f->flags |= FR_CB_RECARR; f->kstart = WP_CBOR_NO_ID; }
                else if ((top->flags & FR_CB_DEFSTAG) && !indef) { f->flags |= FR_CB_RECARR | FR_CB_DEFSTAG; f->kstart = WP_CBOR_NO_ID; }
                else if ((top->flags & FR_CB_BUNDTAG) && !indef) f->flags |= FR_CB_BUNDARR;
                else if (top->flags & FR_CB_PACKTAG) {
                    /* its values table (element 0) starts next; the host gets it first when its
                     * marker fits below maxDepth (see WP_PK_NONE; none in another packed item) */
                    f->flags |= FR_CB_PACKARR;
                    uint32_t *const pk = wp_cb_pk(d);
                    pk[0] = (packed_open & ~WP_PK_SEEN) == 0 && sp < max_depth ? r.pos : WP_PK_NONE;
                    pk[1] = WP_PK_UNREAD;
                    packed_open = (packed_open + 1u) | WP_PK_SEEN;
                }
            }
            if (indef) {
                f->flags |= FR_INDEF;
                f->remaining = 0;
                wp_tape_put(&t, (is_map ? WP_T_MAP : WP_T_ARR) | (WP_LEN_ESCAPE << 8));
                wp_tape_put(&t, 0); /* the count, patched at the break */
            } else {
                f->remaining = is_map ? 2 * n : n;
                wp_tape_tag_len(&t, is_map ? WP_T_MAP : WP_T_ARR, n);
            }
            continue;
        }
        case 6: {
            if (indef) FAIL(WP_ERR_RESERVED_AI, start);
            /* the marker range: an input tag there would read as a marker (a record definition,
             * a packed table, a bundle) and its own meaning would be lost */
            if (wp_unlikely((arg >> 32) == WP_CBOR_MARK_REC_HI && (uint32_t)arg >= WP_CBOR_MARK_BUNDLE_LO)) FAIL(WP_ERR_RESERVED_TAG, start);
            if (sp >= max_depth) FAIL(WP_ERR_DEPTH, start);
            if (arg == 1 && (d->flags & WP_DEC_CBOR_DATES) && !bundle_s && left > 0) {
                /* an epoch-seconds Date over a number the host gets as a number whatever its
                 * int64 option (heads of up to 32 bits; floats, unless f32 values are F32
                 * entries): one DATE entry, as the built-in decodeTag would make it. Anything
                 * else, or a number cut short, takes the general way (a tag, then its item). */
                const uint8_t *v = wp_rd_at(&r, start + hl);
                uint32_t vn = wp_cbor_num_size(v);
                if (vn && vn <= left && !(v[0] == 0xfa && f32_tagged)) {
                    wp_tape_f64(&t, WP_T_DATE, wp_cbor_secs_to_ms(wp_cbor_num_at(v)));
                    r.pos = start + hl + vn;
                    goto item_done;
                }
            }
            if (arg == 0xdfffu && (d->flags & WP_DEC_CBOR_RECS) && intern && !bundle_s && !packed_open && sp + 4u < max_depth) {
                /* cbor-x's record defined where it appears: when its keys are text C interns,
                 * one CREC entry names the id and the keys' shape, and the values follow in the
                 * frames the general way would use (a tag, then its array, the keys read: the
                 * same depth for everything inside). Anything else, a limit or the input cut
                 * short included, takes the general way, which reports it as usual (the depth
                 * test above leaves the general way no depth error in what this skips). */
                uint32_t rid, nk, vat;
                const uint32_t sid = wp_cbor_crec_scan(&r, start + hl, d, tb, kscratch + ktop, kcap - ktop, &rid, &nk, &vat);
                if (sid != WP_NO_ID) {
                    wp_tape_tagp(&t, WP_T_CREC, rid);
                    wp_tape_put(&t, sid);
                    wp_frame *f = &fr[sp++];
                    f->remaining = 1; f->count = 0; f->hdr = 0; f->n = 1; f->kstart = ktop; f->flags = FR_TAG; f->start = start;
                    f = &fr[sp++];
                    f->remaining = nk; f->count = 0; f->hdr = 0; f->n = nk + 2u; f->kstart = ktop; f->flags = FR_ARR; f->start = start + hl;
                    if (sp > d->depth_seen) d->depth_seen = sp;
                    r.pos = vat;
                    continue;
                }
            }
            if (wp_unlikely((arg == 14 || arg == 15) && bundle_end && d->max_str)) {
                /* a string of a cbor-x bundle: its length (UTF-16 units, the unsigned integer
                 * after the tag) is a string's length like any other, under maxStrLength */
                wp_reader q = { r.base, start + hl, r.len };
                uint32_t qm, qh;
                uint64_t qa;
                bool qi;
                if (wp_rd_has(&q, 1) && wp_cbor_head(&q, &qm, &qa, &qh, &qi) == WP_OK && qm == 0 && !qi && qa > d->max_str) FAIL(WP_ERR_LIMIT, start);
            }
            if (arg < WP_LEN_ESCAPE) wp_tape_tagp(&t, WP_T_TAG, (uint32_t)arg);
            else { wp_tape_tagp(&t, WP_T_TAG, WP_LEN_ESCAPE); wp_tape_put(&t, (uint32_t)arg); wp_tape_put(&t, (uint32_t)(arg >> 32)); }
            r.pos = start + hl;
            wp_frame *f = &fr[sp++];
            if (sp > d->depth_seen) d->depth_seen = sp;
            f->remaining = 1; f->count = 0; f->hdr = 0; f->n = 1; f->kstart = ktop; f->flags = FR_TAG; f->start = start;
            if (arg == 0xdfffu) f->flags |= FR_CB_RECTAG;
            else if (arg == 0xdffeu) f->flags |= FR_CB_DEFSTAG;
            else if (arg == 0xdff9u) {
                if (d->nholes) FAIL(WP_ERR_HOLE, start); /* (a bundle's strings lie out of order) */
                f->flags |= FR_CB_BUNDTAG;
            }
            else if (arg == 51u) f->flags |= FR_CB_PACKTAG;
            continue;
        }
        default: { /* 7 */
            if (indef) FAIL(WP_ERR_BREAK, start); /* unreachable: 0xff handled above */
            uint32_t ai = b & 31u;
            const uint8_t *p = wp_rd_ptr(&r) + 1;
            if (ai < 20) wp_tape_tagp(&t, WP_T_SIMPLE, ai);
            else if (ai == 20) wp_tape_put(&t, WP_T_FALSE);
            else if (ai == 21) wp_tape_put(&t, WP_T_TRUE);
            else if (ai == 22) wp_tape_put(&t, WP_T_NIL);
            else if (ai == 23) wp_tape_put(&t, WP_T_UNDEF);
            else if (ai == 24) {
                if (arg < 32) FAIL(WP_ERR_BAD_SIMPLE, start);
                wp_tape_tagp(&t, WP_T_SIMPLE, (uint32_t)arg);
            } else if (ai == 25) wp_tape_f64(&t, WP_T_F64, wp_half_to_double(wp_be16(p)));
            else if (ai == 26) wp_tape_f64(&t, f32_tagged ? WP_T_F32 : WP_T_F64, (double)wp_f32_from_bits(wp_be32(p)));
            else wp_tape_f64(&t, WP_T_F64, wp_f64_from_bits(wp_be64(p)));
            break;
        }
        }
        r.pos = start + hl;

    item_done:
        while (sp) {
            wp_frame *f = &fr[sp - 1];
            if (wp_unlikely(f->flags & FR_INDEF)) {
                f->count++;
                uint32_t entries = (f->flags & FR_MAP) ? (f->count + 1) / 2 : f->count;
                if (wp_over(entries, (f->flags & FR_MAP) ? d->max_map : d->max_array)) FAIL(WP_ERR_LIMIT, f->start);
                break;
            }
            if (--f->remaining) break;
            if (f->flags & FR_MAP) {
                wp_map_close_guessed(&t, tb, f, (f->flags >> FR_CB_GUESS_SHIFT) & 0x7fffu, as_objects, kscratch + f->kstart, ktop - f->kstart, sp);
                ktop = f->kstart;
            }
            if (f->flags & FR_CB_PACKARR) packed_open--;
            sp--;
        }
        if (sp == 0) {
            if (bundle_end) {
                /* the item ends before its last bundle's strings; the next starts after them */
                if (r.pos >= bundle_end) FAIL(WP_ERR_BAD_BUNDLE, r.pos);
                r.pos = bundle_end;
                bundle_end = 0;
                bundle_s = bundle_prev_s = 0;
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
    return WP_OK;

fail:
    /* sizes from the bounds never run out, except when bytes are read both as a bundle's strings
     * and as items (a malformed bundle the checks above did not catch first) */
    if (err == WP_ERR_TAPE_FULL && bundle_s) err = WP_ERR_BAD_BUNDLE;
    return wp_dec_fail(d, tb, t.len, err, eoff, keep_keys, keep_shapes);
}
#undef as_objects
#undef multiple
#undef f32_tagged

/* ===================================================================== encode */

WP_INLINE void wp_cbor_head_out(wp_out *o, uint32_t major, uint64_t v) {
    uint32_t m = major << 5;
    if (v < 24) wp_out_u8(o, m | (uint32_t)v);
    else if (v <= 0xff) { wp_out_u8(o, m | 24); wp_out_u8(o, (uint32_t)v); }
    else if (v <= 0xffff) wp_out_u8_be16(o, m | 25, (uint32_t)v);
    else if (v <= 0xffffffffu) wp_out_u8_be32(o, m | 26, (uint32_t)v);
    else wp_out_u8_be64(o, m | 27, v);
}

/* An integer in [-2^31, 2^32) as its shortest head (major 0 or 1): -24..23 is the head byte
 * alone, and the other sizes take no branch on their sign or size. Needs 8 bytes of room. */
WP_INLINE void wp_cbor_int32_out(wp_out *o, int64_t v) {
    if ((uint64_t)(v + 24) < 48u) { /* -24..23: the head byte alone */
        wp_out_u8(o, v >= 0 ? (uint32_t)v : (uint32_t)(31 - v));
        return;
    }
    static const uint8_t ai[4] = { 0, 24, 25, 26 };
    const uint32_t neg = (uint32_t)((uint64_t)v >> 63);
    const uint32_t a = (uint32_t)v ^ (0u - neg); /* the argument: v, or -1 - v */
    const uint32_t c = (uint32_t)(a > 23u) + (uint32_t)(a > 255u) + (uint32_t)(a > 65535u);
    wp_out_int_class(o, (neg << 5) | ai[c], a, c);
}

/* float32 bits -> float16 bits when the value is exactly representable. */
static bool wp_f16_exact(uint32_t f, uint32_t *h) {
    uint32_t sign = (f >> 16) & 0x8000u;
    int32_t exp = (int32_t)((f >> 23) & 0xffu);
    uint32_t man = f & 0x7fffffu;
    if (exp == 0xff) { *h = man ? 0x7e00u : (sign | 0x7c00u); return true; }
    if (exp == 0) {
        if (man == 0) { *h = sign; return true; }
        return false; /* float32 subnormals are far below float16's range */
    }
    int32_t e = exp - 127;
    if (e > 15 || e < -24) return false;
    if (e >= -14) {
        if (man & 0x1fffu) return false;
        *h = sign | ((uint32_t)(e + 15) << 10) | (man >> 13);
        return true;
    }
    uint32_t full = 0x800000u | man;
    uint32_t s = (uint32_t)(-(e + 1)); /* 14..23 */
    if (full & ((1u << s) - 1)) return false;
    *h = sign | (full >> s);
    return true;
}

/* A double that is not shortened by the test in wp_cbor_double: float16 or float32 when one keeps
 * the value (NaN as float16), else float64. */
static void wp_cbor_double_short(wp_out *o, double v, uint64_t bits) {
    float f = (float)v;
    if ((double)f == v || v != v) {
        uint32_t fb;
        __builtin_memcpy(&fb, &f, 4);
        uint32_t h;
        if (wp_f16_exact(fb, &h)) { wp_out_u8(o, 0xf9); wp_put_be16(o->p + o->len, h); o->len += 2; return; }
        wp_out_u8_be32(o, 0xfa, fb);
        return;
    }
    wp_out_u8_be64(o, 0xfb, bits);
}

/* A double in preferred serialization: the shortest of float16/32/64 that keeps the value, NaN
 * and infinities as float16. (Integers reach the encoder as INT/UINT/I64/U64 entries; a JS
 * number outside the 32-bit range is a float, as cbor-x and msgpackr treat it.) A finite double
 * with any of its 29 low mantissa bits set is no float32 (nor float16): most full-precision
 * values take that one test, inline, and skip the conversions. */
WP_INLINE void wp_cbor_double(wp_out *o, double v, bool float64) {
    const uint64_t bits = wp_bits_from_f64(v);
    if (float64 || ((bits & 0x1fffffffu) != 0 && ((bits >> 52) & 0x7ffu) != 0x7ffu)) wp_out_u8_be64(o, 0xfb, bits);
    else wp_cbor_double_short(o, v, bits);
}

/* The head of a text string of len UTF-8 bytes (for wp_enc_str_ext). */
WP_INLINE void wp_cbor_str_hdr(wp_out *o, uint32_t len) { wp_cbor_head_out(o, 3, len); }

uint32_t wp_cbor_scratch_words(uint32_t tape_words) {
    /* frames (4 words per container) + entry starts and sort indexes (4 per item) + a copy
     * of the output (wp_encode_out_bound bytes) */
    return tape_words * 8u + wp_encode_out_bound(tape_words) / 4u + 24u;
}

uint32_t wp_cbor_scratch_need(const wp_encoder *e) {
    /* the copy of the output grows as wp_encode_out_need does: by the UTF-8 of the units (3
     * bytes each at most) and the strings of the KEY entries (5 bytes a word at most) */
    uint64_t need = (uint64_t)wp_cbor_scratch_words(e->tape_len) +
                    (3u * (uint64_t)e->units_len + e->utf8_len + 5u * (uint64_t)e->keys_words + e->ext_len + 3u) / 4u;
    return need > UINT32_MAX ? UINT32_MAX : (uint32_t)need;
}

typedef struct wp_eframe {
    uint32_t remaining; /* items left in this container */
    uint32_t map;       /* 1 for a map that is sorted when it closes */
    uint32_t estart;    /* index of its first entry in the entry list */
    uint32_t kstart;    /* output offset where the current key began */
} wp_eframe;

/* Sort the entries of a closed map by their key bytes and rewrite them in that order.
 * starts[0..n) are output offsets of the keys; keyend[i] where key i ends; the map body ends
 * at o->len. idx and tmp are scratch index arrays of n words; copy holds the body. */
static void wp_cbor_sort_map(wp_out *o, const uint32_t *starts, const uint32_t *keyend, uint32_t n,
                             uint32_t *idx, uint32_t *tmp, uint8_t *copy) {
    for (uint32_t i = 0; i < n; i++) idx[i] = i;
    /* bottom-up merge sort: O(n log n) comparisons, stable */
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = lo + width < n ? lo + width : n;
            uint32_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            uint32_t a = lo, b = mid, k = lo;
            while (a < mid && b < hi) {
                uint32_t ia = idx[a], ib = idx[b];
                uint32_t la = keyend[ia] - starts[ia], lb = keyend[ib] - starts[ib];
                uint32_t m = la < lb ? la : lb;
                const uint8_t *pa = o->p + starts[ia], *pb = o->p + starts[ib];
                int c = 0;
                for (uint32_t j = 0; j < m && c == 0; j++) c = (int)pa[j] - (int)pb[j];
                if (c == 0) c = la < lb ? -1 : (la > lb ? 1 : 0);
                tmp[k++] = c <= 0 ? idx[a++] : idx[b++];
            }
            while (a < mid) tmp[k++] = idx[a++];
            while (b < hi) tmp[k++] = idx[b++];
        }
        for (uint32_t i = 0; i < n; i++) idx[i] = tmp[i];
    }
    uint32_t body = starts[0], total = o->len - body, w = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t e = idx[i];
        uint32_t end = e + 1 < n ? starts[e + 1] : o->len;
        __builtin_memcpy(copy + w, o->p + starts[e], end - starts[e]);
        w += end - starts[e];
    }
    __builtin_memcpy(o->p + body, copy, total);
}

/* The encode loop, made twice by wp_cbor_encode: with `track` constant false (the common case:
 * no container stack, none of its tests in the loop) and true (deterministic or indefinite). */
WP_INLINE wp_err wp_cbor_encode_with(wp_encoder *e, uint32_t flags, uint32_t *scratch, uint32_t scratch_cap, const bool track) {
    const uint32_t *w = e->tape;
    const uint32_t n = e->tape_len;
    wp_out o = { e->out, 0, e->out_cap };
    const bool det = track && (flags & WP_CBOR_DETERMINISTIC) != 0;
    const bool f64 = (flags & WP_CBOR_FLOAT64) != 0;
    const bool f64e = f64 || (!det && (flags & WP_CBOR_F64_ENTRIES) != 0);
    uint32_t i = 0;
    wp_str_pos spos = { 0, 0, 0 }; /* what the STR16 / STRU8 / KEY entries so far took */
    uint32_t xleft = e->ext_len;   /* what XBIN entries may still leave for the host */
    e->err.code = WP_OK;
    e->err.offset = 0;
    e->needed = 0;

    /* with a container stack (deterministic or indefinite): frames, then entry key starts and
     * ends, then sort indexes, then a copy area; pointers into scratch only when it is used */
    const bool indef = track && !det && (flags & WP_CBOR_INDEFINITE) != 0;
    if (track && (!scratch || scratch_cap < wp_cbor_scratch_need(e))) {
        e->err.code = WP_ERR_SCRATCH;
        e->needed = wp_cbor_scratch_need(e);
        e->out_len = 0;
        return WP_ERR_SCRATCH;
    }
    wp_eframe *fr = track ? (wp_eframe *)(void *)scratch : 0;
    uint32_t sp = 0, ne = 0;
    uint32_t boff = 0, boff_prev = 0; /* output offsets of open bundle offsets' 4 bytes (0: none) */
    bool tag_pending = false; /* the previous entry was a tag: its item continues the key */
    uint32_t *starts = track ? scratch + 4u * n + 4u : 0;
    uint32_t *keyend = track ? starts + n + 1u : 0;
    uint32_t *idx = track ? keyend + n + 1u : 0;
    uint32_t *tmp = track ? idx + n + 1u : 0;
    uint8_t *copy = track ? (uint8_t *)(tmp + n + 1u) : 0;

    while (i < n) {
        uint32_t at = i;
        uint32_t word = w[i++];
        uint32_t tag = word & 0xffu, p = word >> 8;
        const uint32_t *src; /* the bytes of a STR, BIN, RAW or KEY entry */
        uint32_t len;
        bool item = true; /* this entry completes an item (false for headers and tags) */
        if (tag == WP_E_PAD) continue; /* writes nothing, changes nothing */
        if (tag == WP_E_CBOR_BHERE) {
            /* the older open offset first: a new bundle's offset is written before the strings
             * of the previous one (cbor-x's order) */
            uint32_t *slot = boff_prev != 0 ? &boff_prev : &boff;
            if (*slot != 0) { wp_put_be32(o.p + *slot, o.len - (*slot - 1)); *slot = 0; }
            continue;
        }
        if (det && sp && !tag_pending && fr[sp - 1].map && ((fr[sp - 1].remaining & 1u) == 0)) {
            fr[sp - 1].kstart = o.len; /* a key starts here */
        }
        tag_pending = tag == WP_E_TAG;
        if (!wp_out_room(&o, 16)) goto full;
        switch (tag) {
        case WP_E_NIL: wp_out_u8(&o, 0xf6); break;
        case WP_E_FALSE: wp_out_u8(&o, 0xf4); break;
        case WP_E_TRUE: wp_out_u8(&o, 0xf5); break;
        case WP_E_UNDEF: wp_out_u8(&o, 0xf7); break;
        case WP_E_INT:
            if (i >= n) goto bad;
            wp_cbor_int32_out(&o, (int32_t)w[i++]);
            break;
        case WP_E_UINT:
            if (i >= n) goto bad;
            wp_cbor_int32_out(&o, w[i++]);
            break;
        case WP_E_NUMS: {
            /* a run of numbers, each as writeNumber would write it: an integer when it is a
             * uint32 or an int32 (not -0), else a float (shortest, as WP_E_F64). The host sends
             * runs only without deterministic or indefinite-length encoding, which count items. */
            if (track) goto bad;
            uint32_t a = (at + 2) & ~1u;
            if (a > n || p > (n - a) / 2u) goto bad;
            if (!wp_out_room(&o, 9u * p + 16u)) goto full;
            const uint32_t *src = w + a;
            for (uint32_t k = 0; k < p; k++, src += 2) {
                uint64_t bits = ((uint64_t)src[1] << 32) | src[0];
                int64_t v;
                if (wp_run_int(bits, &v) && bits != 0x8000000000000000ull) wp_cbor_int32_out(&o, v);
                else wp_cbor_double(&o, wp_f64_from_bits(bits), f64e);
            }
            i = a + 2u * p;
            break;
        }
        case WP_E_I64:
        case WP_E_U64:
        case WP_E_N64: {
            if (n - i < 2) goto bad;
            uint64_t v = ((uint64_t)w[i + 1] << 32) | w[i];
            i += 2;
            /* BigInts: the 8-byte head (so they decode back as BigInts, as with cbor-x),
             * except in deterministic mode, which wants the shortest head */
            uint32_t major = 0;
            if (tag == WP_E_N64) major = 1;
            else if (tag == WP_E_I64 && (int64_t)v < 0) { major = 1; v = ~v; }
            if (det) wp_cbor_head_out(&o, major, v);
            else wp_out_u8_be64(&o, (major << 5) | 27, v);
            break;
        }
        case WP_E_F64: {
            uint32_t a = (at + 2) & ~1u;
            if (a + 2 > n) goto bad;
            uint64_t bits = ((uint64_t)w[a + 1] << 32) | w[a];
            wp_cbor_double(&o, wp_f64_from_bits(bits), f64e);
            i = a + 2;
            break;
        }
        case WP_E_F32:
            if (i >= n) goto bad;
            /* a float32 the host chose: as it is, except that deterministic encoding wants the
             * shortest form (and one NaN), and float64 mode wants 64 bits */
            if (f64 || det) wp_cbor_double(&o, (double)wp_f32_from_bits(w[i]), f64);
            else wp_out_u8_be32(&o, 0xfa, w[i]);
            i++;
            break;
        case WP_E_KEY:
            /* a string in e's keys: as a STR entry's bytes, from there */
            src = wp_enc_key(e, p, &spos, &len);
            if (!src) goto bad;
            tag = WP_E_STR;
            goto bytes;
        case WP_E_STR:
        case WP_E_BIN:
        case WP_E_RAW: {
            len = p;
            if (len == WP_LEN_ESCAPE) {
                if (i >= n) goto bad;
                len = w[i++];
            }
            uint32_t words = len / 4 + ((len & 3) != 0); /* no wrap near 2^32 */
            if (words > n - i) goto bad;
            src = &w[i];
            i += words;
        bytes:
            if (!wp_out_room(&o, len + 16)) goto full;
            if (tag == WP_E_STR) wp_cbor_head_out(&o, 3, len);
            else if (tag == WP_E_BIN) wp_cbor_head_out(&o, 2, len);
            wp_out_bytes(&o, src, len);
            break;
        }
        case WP_E_XBIN:
            len = wp_enc_xbin(w, n, &i, p, &xleft);
            if (len == UINT32_MAX || track) goto bad; /* (the tracked encoder moves bytes) */
            if (!wp_out_room(&o, len) || o.cap - o.len - len < 16) goto full;
            wp_cbor_head_out(&o, 2, len);
            wp_enc_xbin_skip(w, i, &o, len);
            break;
        case WP_E_STR16:
        case WP_E_STRU8: {
            int r = wp_enc_str_ext(e, w, n, &i, tag, p, &spos, &o, wp_cbor_str_hdr);
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
            if (indef) {
                wp_out_u8(&o, tag == WP_E_ARR ? 0x9f : 0xbf);
                if (len == 0) { wp_out_u8(&o, 0xff); break; }
            } else {
                wp_cbor_head_out(&o, tag == WP_E_ARR ? 4 : 5, len);
            }
            if (track && len > 0) {
                if (sp >= n + 1) goto bad;
                fr[sp].remaining = tag == WP_E_MAP ? 2 * len : len;
                fr[sp].map = tag == WP_E_MAP;
                fr[sp].estart = ne;
                fr[sp].kstart = o.len;
                sp++;
                item = false;
            }
            break;
        }
        case WP_E_TAG: {
            uint64_t tv = p;
            if (p == WP_LEN_ESCAPE) {
                if (n - i < 2) goto bad;
                tv = ((uint64_t)w[i + 1] << 32) | w[i];
                i += 2;
            }
            wp_cbor_head_out(&o, 6, tv);
            item = false; /* the tagged item that follows completes it */
            break;
        }
        case WP_E_CBOR_BOFF:
            wp_out_u8_be32(&o, 0x1a, 0);
            if (boff != 0) boff_prev = boff;
            boff = o.len - 4;
            break;
        case WP_E_SIMPLE:
            if (p > 255 || (p >= 24 && p < 32)) goto bad;
            if (p < 24) wp_out_u8(&o, 0xe0 | p);
            else { wp_out_u8(&o, 0xf8); wp_out_u8(&o, p); }
            break;
        default:
            goto bad;
        }
        if (track && item) {
            /* this completes an item of the innermost container; close the ones it completes */
            while (sp) {
                wp_eframe *f = &fr[sp - 1];
                if (det && f->map && (f->remaining & 1u) == 0) {
                    /* a key just ended */
                    starts[ne] = f->kstart;
                    keyend[ne] = o.len;
                    ne++;
                }
                if (--f->remaining) break;
                if (indef) {
                    if (!wp_out_room(&o, 1)) goto full;
                    wp_out_u8(&o, 0xff);
                } else if (f->map) {
                    uint32_t cnt = ne - f->estart;
                    wp_cbor_sort_map(&o, starts + f->estart, keyend + f->estart, cnt, idx, tmp, copy);
                    ne = f->estart;
                }
                sp--;
            }
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

/* The two forms of the encoder in functions of their own (the wasm build exports each: wp_wasm.c). */
wp_err wp_cbor_encode_flat(wp_encoder *e, uint32_t flags) { return wp_cbor_encode_with(e, flags, 0, 0, false); }
wp_err wp_cbor_encode_tracked(wp_encoder *e, uint32_t flags, uint32_t *scratch, uint32_t scratch_cap) {
    return wp_cbor_encode_with(e, flags, scratch, scratch_cap, true);
}

wp_err wp_cbor_encode(wp_encoder *e, uint32_t flags, uint32_t *scratch, uint32_t scratch_cap) {
    if (flags & (WP_CBOR_DETERMINISTIC | WP_CBOR_INDEFINITE)) return wp_cbor_encode_tracked(e, flags, scratch, scratch_cap);
    return wp_cbor_encode_flat(e, flags);
}
