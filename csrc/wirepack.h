/*
 * wirepack.h: the one public header of the wirepack C core.
 *
 * The core turns MessagePack bytes into a "tape" (a flat array of 32-bit words that a host,
 * here the JS wrapper, turns into values without calling back into C), and turns an encode
 * tape (written by the host) into MessagePack bytes. All memory is owned by the caller: the
 * core never allocates. Errors are an enum plus the byte offset where decoding stopped.
 *
 * Sections: PUBLIC (stable API), TAPE FORMAT (the contract with the host).
 */
#ifndef WIREPACK_H
#define WIREPACK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ===================================================================== PUBLIC: errors */

/* Error codes, in numbered ranges: 1xx malformed or truncated input, 2xx limits,
 * 3xx caller errors (buffers too small, bad encode tape). 0 is success. */
typedef enum wp_err {
    WP_OK = 0,
    WP_ERR_TRUNCATED = 100,      /* input ends inside a value (or a length runs past the end) */
    WP_ERR_RESERVED_BYTE = 101,  /* 0xc1, never used by MessagePack */
    WP_ERR_TRAILING_DATA = 102,  /* bytes left after the value (single-value decode) */
    WP_ERR_BAD_TIMESTAMP = 103,  /* timestamp extension of an impossible size or nanoseconds >= 1e9 */
    WP_ERR_RESERVED_AI = 110,    /* CBOR: additional information 28-30, or 31 where no indefinite form exists */
    WP_ERR_BREAK = 111,          /* CBOR: 0xff outside an indefinite-length item (or after a lone map key) */
    WP_ERR_BAD_CHUNK = 112,      /* CBOR: a chunk of an indefinite string of the wrong type or indefinite */
    WP_ERR_BAD_SIMPLE = 113,     /* CBOR: f8 followed by a value below 32 */
    WP_ERR_DEPTH = 200,          /* nesting deeper than max_depth */
    WP_ERR_LIMIT = 201,          /* a declared length above a configured maximum */
    WP_ERR_TAPE_FULL = 300,      /* caller's tape or string area too small (never with sizes from wp_decode_bounds) */
    WP_ERR_OUTPUT_FULL = 301,    /* encode output too small: wp_encoder.needed says how many bytes */
    WP_ERR_SCRATCH = 303,        /* CBOR encode scratch missing or too small: needed says how many words */
    WP_ERR_BAD_TAPE = 302        /* malformed encode tape (a host bug) */
} wp_err;

typedef struct wp_error {
    wp_err code;
    uint32_t offset; /* byte offset in the input where the error was found */
} wp_error;

/* Short stable name for an error code ("TRUNCATED", "RESERVED_BYTE", ...). */
const char *wp_err_name(wp_err code);

/* ===================================================================== PUBLIC: tables */

/* Keys and shapes are interned across calls in caller-owned tables. A key is a string map key
 * of at most WP_KEY_MAX_BYTES bytes; a shape is the sequence of key ids of one map. Ids are
 * assigned in order; a failed decode removes the ids it added after the last complete top-level
 * value, so a host that mirrors the tables syncs the id ranges of calls that decoded a value. When a table is full, maps fall back to
 * un-interned forms (still correct); wp_tables_reset empties both tables. */
#define WP_KEY_MAX_BYTES 64u
#define WP_MAX_KEYS 4096u
#define WP_KEY_HASH_SLOTS 8192u
#define WP_KEY_POOL_BYTES (WP_MAX_KEYS * 32u)
#define WP_MAX_SHAPES 4096u
#define WP_SHAPE_MAX_KEYS 256u
#define WP_SHAPE_HASH_SLOTS 8192u
#define WP_SHAPE_POOL_WORDS (WP_MAX_SHAPES * 16u)

typedef struct wp_tables {
    uint32_t nkeys, key_pool_used;
    uint32_t key_off[WP_MAX_KEYS];   /* offset of key bytes in key_pool */
    uint32_t key_len[WP_MAX_KEYS];
    uint32_t key_hash[WP_MAX_KEYS];
    uint16_t key_slot[WP_KEY_HASH_SLOTS]; /* id + 1, 0 = empty */
    uint8_t key_pool[WP_KEY_POOL_BYTES];

    uint32_t nshapes, shape_pool_used;
    uint32_t shape_off[WP_MAX_SHAPES]; /* offset of key ids in shape_pool */
    uint32_t shape_len[WP_MAX_SHAPES];
    uint32_t shape_hash[WP_MAX_SHAPES];
    uint16_t shape_slot[WP_SHAPE_HASH_SLOTS];
    uint32_t shape_pool[WP_SHAPE_POOL_WORDS];
} wp_tables;

void wp_tables_reset(wp_tables *t);

/* ===================================================================== PUBLIC: decode */

enum {
    WP_DEC_MAPS_AS_OBJECTS = 1u << 0, /* string-keyed maps become objects (OBJ / SHAPED tape) */
    WP_DEC_MULTIPLE = 1u << 1,        /* decode values until the input ends */
    WP_DEC_NO_INTERN = 1u << 2,       /* do not intern keys or shapes */
    WP_DEC_TAG_F32 = 1u << 3          /* float32 values as F32 entries (never in number runs) */
};

typedef struct wp_decoder {
    /* in */
    const uint8_t *in;
    uint32_t len;
    uint32_t flags;
    uint32_t max_depth;          /* 0 means WP_DEFAULT_MAX_DEPTH */
    /* Policy limits on declared lengths (0 = none): above them decoding fails with WP_ERR_LIMIT
     * at the item's first byte. Memory never depends on them: lengths are always checked against
     * the bytes left. Strings include map keys; CBOR indefinite items count their chunks' total
     * (strings) or their entries (arrays, maps) as they go. */
    uint32_t max_array, max_map, max_str, max_bin, max_ext;
    uint32_t *tape;              /* tape_cap words, 8-byte aligned */
    uint32_t tape_cap;
    uint8_t *ascii;              /* ascii_cap bytes: joined ASCII strings */
    uint32_t ascii_cap;
    uint16_t *utf16;             /* utf16_cap units: joined non-ASCII strings as UTF-16 */
    uint32_t utf16_cap;
    uint32_t *stack;             /* stack_cap words of scratch: frames and key ids */
    uint32_t stack_cap;
    /* out */
    uint32_t tape_len, ascii_len, utf16_len;
    uint32_t end;                /* input offset after the last complete value */
    uint32_t nvalues;            /* top-level values decoded */
    uint32_t depth_seen;         /* deepest nesting of non-empty containers on the tape */
    uint32_t keys_before, shapes_before; /* ids at or above these are new in this call */
    wp_error err;
} wp_decoder;

#define WP_DEFAULT_MAX_DEPTH 1000u

/* Sizes that always suffice for an input of len bytes (tape words, ascii bytes, utf16 units,
 * stack words for max_depth). The tape bound is 2 words per input byte plus a constant;
 * ascii_cap = len and utf16_cap = len always suffice. */
uint32_t wp_decode_tape_words(uint32_t len);
uint32_t wp_decode_stack_words(uint32_t max_depth, uint32_t len);

/* Decode MessagePack into the tape. Returns d->err.code. */
wp_err wp_msgpack_decode(wp_decoder *d, wp_tables *t);

/* ===================================================================== PUBLIC: encode */

typedef struct wp_encoder {
    const uint32_t *tape;  /* encode tape, tape_len words */
    uint32_t tape_len;
    uint8_t *out;
    uint32_t out_cap;
    uint32_t out_len;      /* bytes written */
    uint32_t needed;       /* on WP_ERR_OUTPUT_FULL: a size that suffices */
    wp_error err;          /* offset = tape word index for BAD_TAPE */
} wp_encoder;

/* A size that always suffices for the output of an encode tape of n words. */
uint32_t wp_encode_out_bound(uint32_t tape_words);

wp_err wp_msgpack_encode(wp_encoder *e);

/* ===================================================================== PUBLIC: CBOR */

/* CBOR (RFC 8949) into the same tape. Tags become TAG entries before their item, simple values
 * SIMPLE, indefinite-length items the same entries as definite ones (indefinite byte strings:
 * BINC; indefinite text strings: one STRU). Tapes for CBOR need wp_cbor_tape_words(len). */
wp_err wp_cbor_decode(wp_decoder *d, wp_tables *t);
uint32_t wp_cbor_tape_words(uint32_t len);

enum {
    WP_CBOR_DETERMINISTIC = 1u << 0, /* RFC 8949 4.2.1: map keys sorted by their encodings */
    WP_CBOR_FLOAT64 = 1u << 1,       /* always write floats as float64 */
    WP_CBOR_INDEFINITE = 1u << 2     /* arrays and maps with indefinite lengths (not with DETERMINISTIC) */
};

/* Scratch words wp_cbor_encode needs for a tape of n words (deterministic map sorting). */
uint32_t wp_cbor_scratch_words(uint32_t tape_words);

/* CBOR from an encode tape. Preferred serialization: the shortest head for every argument, the
 * shortest float that keeps the value (NaN and infinities as float16). scratch:
 * wp_cbor_scratch_words(tape_len) words (used with WP_CBOR_DETERMINISTIC or WP_CBOR_INDEFINITE). */
wp_err wp_cbor_encode(wp_encoder *e, uint32_t flags, uint32_t *scratch, uint32_t scratch_cap);

/* ===================================================================== TAPE FORMAT */

/* Decode tape: each entry starts with a word whose low 8 bits are the tag and whose high 24
 * bits are a payload P. A length payload of 0xFFFFFF means "the length is in the next word".
 * f64 values sit at the next 8-byte-aligned word pair after the tag (one pad word if needed).
 * Strings are not on the tape: ASCII strings are appended to the ascii area and others (as
 * UTF-16) to the utf16 area, in tape order, so the host keeps a cursor in each. */
enum wp_dtag {
    WP_T_NIL = 0, WP_T_FALSE = 1, WP_T_TRUE = 2,
    WP_T_INT = 3,     /* P is a signed 24-bit integer */
    WP_T_I32 = 4,     /* next word: int32 */
    WP_T_U32 = 5,     /* next word: uint32 */
    WP_T_F64 = 6,     /* aligned f64 */
    WP_T_U64 = 7,     /* next words: lo, hi */
    WP_T_I64 = 8,     /* next words: lo, hi (two's complement) */
    WP_T_STRA = 9,    /* P = length (ascii area) */
    WP_T_STRU = 10,   /* P = length in UTF-16 units (utf16 area) */
    WP_T_KEY = 11,    /* P = interned key id (always one word) */
    WP_T_BIN = 12,    /* next words: length, offset of the bytes in the input */
    WP_T_ARR = 13,    /* P = n; n values follow */
    WP_T_MAP = 14,    /* P = n; n (key, value) pairs follow, keys of any type */
    WP_T_OBJ = 15,    /* P = n; n (key, value) pairs, every key a string (KEY, STRA or STRU) or, in
                         CBOR, a number/boolean/null/undefined that becomes a property name */
    WP_T_SHAPED = 16, /* P = shape id; for each key of the shape: one KEY word, then the value */
    WP_T_EXT = 17,    /* P = type (0..255, as uint8); next word: length; next: input offset */
    WP_T_DATE = 18,   /* aligned f64: ms since epoch (NaN: msgpackr's invalid-date form) */
    WP_T_NUMRUN = 19, /* P = n; n aligned f64 values: an array of n numbers */
    WP_T_F32 = 20,    /* aligned f64 holding a float32 value (only with WP_DEC_TAG_F32) */
    WP_T_UNDEF = 21,  /* d4 00 00 in MessagePack, f7 in CBOR: undefined */
    /* CBOR only */
    WP_T_N64 = 22,    /* next words: lo, hi of n; the value is -1 - n (n >= 2^63) */
    WP_T_TAG = 23,    /* P = tag (WP_LEN_ESCAPE: next words lo, hi); the tagged item follows */
    WP_T_SIMPLE = 24, /* P = simple value (other than false/true/null/undefined) */
    WP_T_BINC = 25,   /* indefinite byte string: P = chunks (escape); per chunk: length, offset */
    WP_T_PAD = 26     /* no value: skip this word (before a SHAPED header of an indefinite map) */
};

/* Encode tape: same word layout (tag in the low 8 bits, payload above). */
enum wp_etag {
    WP_E_NIL = 0, WP_E_FALSE = 1, WP_E_TRUE = 2,
    WP_E_UNDEF = 3,   /* written as fixext1 type 0 data 0 (msgpackr's undefined) */
    WP_E_INT = 4,     /* next word int32: smallest integer form */
    WP_E_UINT = 5,    /* next word uint32: smallest integer form */
    WP_E_F64 = 6,     /* aligned f64: float64 */
    WP_E_F32 = 7,     /* next word: float32 bits */
    WP_E_I64 = 8,     /* lo, hi: int64, always the 64-bit form (d3; CBOR: 8-byte head), so it
                         decodes back as a BigInt; CBOR deterministic mode: the shortest head */
    WP_E_U64 = 9,     /* lo, hi: uint64 (cf; CBOR as I64) */
    WP_E_STR = 10,    /* P = byte length (0xFFFFFF: next word); UTF-8 bytes follow, padded to 4 */
    WP_E_BIN = 11,    /* as STR */
    WP_E_ARR = 12,    /* P = n (0xFFFFFF: next word) */
    WP_E_MAP = 13,    /* P = n pairs */
    WP_E_EXT = 14,    /* P = type as uint8; next word: length; bytes follow, padded */
    WP_E_DATE = 15,   /* next words: seconds lo, seconds hi (int64), nanoseconds */
    WP_E_BADDATE = 16,/* msgpackr's invalid Date: d4 ff ff */
    WP_E_RAW = 17,    /* P = length (0xFFFFFF: next word); bytes copied as they are, padded */
    /* CBOR only */
    WP_E_TAG = 18,    /* P = tag (0xFFFFFF: next words lo, hi); the tagged item follows */
    WP_E_SIMPLE = 19, /* P = simple value */
    WP_E_N64 = 20,    /* next words lo, hi of n: the integer -1 - n */
    WP_E_PAD = 21     /* nothing: a word the host reserved and did not need (both formats) */
};

#define WP_LEN_ESCAPE 0xFFFFFFu

#ifdef __cplusplus
}
#endif
#endif /* WIREPACK_H */
