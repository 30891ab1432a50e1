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
    WP_ERR_BAD_RECORD = 104,     /* record definition (ext 0x72) not followed by an array of keys */
    WP_ERR_UNKNOWN_RECORD = 105, /* a two-byte record id (or, with WP_DEC_REC_STRICT, any id) not defined */
    WP_ERR_BAD_BUNDLE = 106,     /* bundled strings (ext 0x62): bad offset, bad strings, or a reference past them */
    WP_ERR_BAD_KEY = 107,        /* with WP_DEC_MP_STRICT_KEYS: a map key that is neither a string nor a number */
    WP_ERR_RESERVED_AI = 110,    /* CBOR: additional information 28-30, or 31 where no indefinite form exists */
    WP_ERR_BREAK = 111,          /* CBOR: 0xff outside an indefinite-length item (or after a lone map key) */
    WP_ERR_BAD_CHUNK = 112,      /* CBOR: a chunk of an indefinite string of the wrong type or indefinite */
    WP_ERR_BAD_SIMPLE = 113,     /* CBOR: f8 followed by a value below 32 */
    WP_ERR_RESERVED_TAG = 114,   /* CBOR: a tag number >= 2^64 - 3 * 2^16 (wirepack's decoder uses that range
                                    for markers on the tape; RFC 8949 leaves it unassigned, 2^64 - 1 invalid) */
    WP_ERR_DEPTH = 200,          /* nesting deeper than max_depth */
    WP_ERR_LIMIT = 201,          /* a declared length above a configured maximum */
    WP_ERR_TAPE_FULL = 300,      /* caller's tape or string area too small (never with sizes from wp_decode_bounds) */
    WP_ERR_OUTPUT_FULL = 301,    /* encode output too small: wp_encoder.needed says how many bytes */
    WP_ERR_SCRATCH = 303,        /* CBOR encode scratch missing or too small: needed says how many words */
    WP_ERR_BAD_TAPE = 302,       /* malformed encode tape (a host bug) */
    WP_ERR_HOLE = 304            /* the input's holes (wp_decoder.holes) are not exactly binary payloads
                                    the decode skipped, or a bundle's strings were to be read: decode
                                    again with every byte (the input may still be well formed) */
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
#define WP_SHAPE_PRED_SLOTS 1024u
#define WP_SHAPE_LAST_SLOTS 256u
#define WP_REC_LAST_SLOTS 256u
#define WP_VC_SLOTS 1024u
#define WP_VC_MIN 4u
#define WP_VC_MAX 32u
#define WP_VC_STAMP_MAX 0x7fffffffu
#define WP_VC_WINDOW 256u
#define WP_VC_MIN_HITS 32u
#define WP_VC_SKIP 4096u

typedef struct wp_tables {
    uint32_t nkeys, key_pool_used;
    uint32_t key_off[WP_MAX_KEYS];   /* offset of key bytes in key_pool */
    uint32_t key_len[WP_MAX_KEYS];
    uint32_t key_hash[WP_MAX_KEYS];
    uint16_t key_slot[WP_KEY_HASH_SLOTS]; /* id + 1, 0 = empty */
    uint8_t key_pool[WP_KEY_POOL_BYTES + 16u]; /* + 16: short keys are read as two words */

    uint32_t nshapes, shape_pool_used;
    uint32_t shape_off[WP_MAX_SHAPES]; /* offset of key ids in shape_pool */
    uint32_t shape_len[WP_MAX_SHAPES];
    uint32_t shape_hash[WP_MAX_SHAPES];
    uint16_t shape_slot[WP_SHAPE_HASH_SLOTS];
    uint32_t shape_pool[WP_SHAPE_POOL_WORDS];

    /* The shape (id + 1 in bits 0-14, 0: none) the last map with the same context closed with,
     * and bit 15 when the map before it had it too: a map's keys are then compared with that
     * shape's keys before any is hashed (a guess: a wrong or stale one only costs the
     * comparison). MessagePack decoding. */
    uint16_t shape_pred[WP_SHAPE_PRED_SLOTS];
    /* The same by a map's size and depth alone (the context before its first key): a map's first
     * key is then compared with that shape's before it is hashed, and its entries are taken by
     * the decoders' guessed-pairs loops from the first. */
    uint16_t shape_last[WP_SHAPE_LAST_SLOTS];
    /* The shape (id + 1, 0: none) the last MessagePack record definition (msgpackr's) with the
     * same record slot and number of keys interned: a definition's keys are compared with that
     * shape's before any is hashed (messages that define their records again define the same
     * keys under the same ids). A guess: a wrong or stale one only costs the comparison. (CBOR's
     * records defined where they appear do not use it: see wp_cbor.c, wp_cbor_crec_scan.) */
    uint16_t rec_last[WP_REC_LAST_SLOTS];

    /* The value cache (WP_DEC_VCACHE): a direct-mapped table of short ASCII string values. A
     * slot holds the bytes last written there (vc_len of them, 0: none) and the stamp they got
     * then, from a counter that only grows until wp_tables_reset. A VSTR entry names the slot and
     * the stamp, so a host that keeps a (stamp, string) pair per slot makes each such string once
     * while it stays in its slot, and an entry it kept from before (a call that failed, or one it
     * stopped reading) can never match. A slot that a call has named in a VSTR entry keeps its
     * bytes until the call ends (each decode counts itself in vc_call), so that a host can read
     * the bytes of any entry of the call it is reading. The decoder stops writing slots once the counter reaches
     * WP_VC_STAMP_MAX: reset the tables before then. It also stops for WP_VC_SKIP strings after a
     * window of WP_VC_WINDOW lookups found fewer than WP_VC_MIN_HITS of them (distinct values
     * then cost no more than a comparison). */
    uint32_t vc_next, vc_looks, vc_hits, vc_skip, vc_call;
    uint32_t vc_stamp[WP_VC_SLOTS];
    uint32_t vc_used[WP_VC_SLOTS]; /* the call (vc_call) that last read or wrote the slot */
    uint32_t vc_seen[WP_VC_SLOTS]; /* the hash (| 1) of the last bytes that came to the slot and missed */
    uint8_t vc_len[WP_VC_SLOTS];
    uint8_t vc_bytes[WP_VC_SLOTS * WP_VC_MAX];
} wp_tables;

void wp_tables_reset(wp_tables *t);

/* ===================================================================== PUBLIC: decode */

enum {
    WP_DEC_MAPS_AS_OBJECTS = 1u << 0, /* string-keyed maps become objects (OBJ / SHAPED tape) */
    WP_DEC_MULTIPLE = 1u << 1,        /* decode values until the input ends */
    WP_DEC_NO_INTERN = 1u << 2,       /* do not intern keys or shapes */
    WP_DEC_TAG_F32 = 1u << 3,         /* float32 values as F32 entries (never in number runs) */
    WP_DEC_REC_STRICT = 1u << 4,      /* an undefined one-byte record id fails (UNKNOWN_RECORD) instead of
                                         being the integer 0x40-0x7f (lets a host load structures, then retry) */
    WP_DEC_BUNDLES = 1u << 5,         /* ext 0x62 and 0xc1 are msgpackr's bundled strings */
    WP_DEC_VCACHE = 1u << 6,          /* ASCII string values of WP_VC_MIN..WP_VC_MAX bytes go through the
                                         tables' value cache as VSTR entries (see wp_tables) */
    WP_DEC_CBOR_DATES = 1u << 7,      /* CBOR tag 1 over a number that fits 32 bits or a float (not an F32
                                         entry) is one DATE entry: its ms as wp_cbor_secs_to_ms computes them */
    WP_DEC_CBOR_RECS = 1u << 8,       /* CBOR tag 0xdfff over [id, keys, ...values], keys internable text as
                                         many as the values: one CREC entry, then the values (WP_T_CREC) */
    WP_DEC_UTF8_HOST = 1u << 9,       /* a string value or key of WP_UTF8_HOST_MIN bytes or more that is not
                                         ASCII is a STR8 entry: its UTF-8 bytes, in the input, for the host
                                         to decode (a host whose own UTF-8 decoder is faster than the
                                         transcode into the UTF-16 area; valid or not: the host replaces
                                         ill-formed sequences as TextDecoder does, as the transcode would) */
    WP_DEC_CBOR_SHARED = 1u << 10,    /* the host has shared packed values: CBOR simple values 0-15 and tag 6
                                         as map keys stand for strings everywhere, as inside a packed item
                                         (the map stays an object; the host resolves them) */
    WP_DEC_CBOR_PACKED = 1u << 11,    /* the host resolves packed references (simple 0-15, tag 6) against the
                                         values table of their packed item (tag 51) as cbor-x does: such a
                                         reference as a map key to one of the table's leading text strings is
                                         interned as that string (a KEY entry), while one packed item is open */
    WP_DEC_MP_STRICT_KEYS = 1u << 12, /* MessagePack: a map key that is not a string or a number (nil, a
                                         boolean, a binary, a container, an extension) fails with
                                         WP_ERR_BAD_KEY at its first byte (@msgpack/msgpack's rule) */
    WP_DEC_MP_RAW_STRINGS = 1u << 13, /* MessagePack: string values (not map keys, nor the keys of a record
                                         definition) are BIN entries, their
                                         bytes as they are, under max_bin (@msgpack/msgpack's rawStrings) */
    WP_DEC_MP_NO_INT64_KEYS = 1u << 14, /* with WP_DEC_MP_STRICT_KEYS: uint64 and int64 keys (0xcf, 0xd3) fail
                                         too (a host that reads them as BigInts: no property names) */
    WP_DEC_MP_C1_UNDEFINED = 1u << 15 /* MessagePack: the reserved byte 0xc1, outside bundled strings, is
                                         undefined (an UNDEF entry; as a map key it names the property
                                         'undefined', as d4 00 00 does): json-pack writes undefined so */
};

/* The shortest string WP_DEC_UTF8_HOST hands to the host: shorter ones are transcoded, and made into
 * strings a chunk of the UTF-16 area at a time. Node 24, 50 strings of mixed-script text each,
 * utf8Slice per string against the transcode: 0.47x at 20 bytes, 0.84x at 32, 1.04x at 48, 1.17x
 * at 64, 1.41x at 70, 2.5x at 250. */
#define WP_UTF8_HOST_MIN 64u

/* MessagePack records (msgpackr's record extension). A record table has WP_REC_SLOTS words, one
 * per record id: 0 = undefined, else (number of fields + 1) | WP_REC_HB0 when references to it
 * carry a second (high) byte. One-byte ids 0x40-0x7f use slots 0-63; a two-byte id (first byte
 * 0x40|s, high byte h != 0) uses wp_rec_slot(s, h). Definitions made during a call are undone
 * before it returns, so the table a caller loads is the table it gets back. */
#define WP_REC_SLOTS 16416u
#define WP_REC_HB0 0x80000000u
#define WP_RECDEF_HB0 0x100000u

/* How extension types decode, as 256-bit sets (bit t of word t/32). "Prefix" extensions wrap the
 * value after them (msgpackr's Error 0x65, Set 0x73, RegExp 0x78, structured-clone id 0x69, and
 * user extensions with read()); "raw" types are left to the host even where the core has a
 * meaning for them (a host extension registered for the timestamp type -1, or for type 0). */
typedef struct wp_ext_config {
    uint32_t any[8];   /* prefix, of any size */
    uint32_t fix1[8];  /* prefix only as fixext 1 (d4 t xx) */
    uint32_t raw[8];   /* always an EXT entry */
} wp_ext_config;

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
    uint32_t *records;           /* MessagePack: WP_REC_SLOTS words (NULL: no records, 0x40-0x7f are ints) */
    const wp_ext_config *ext;    /* MessagePack: extension handling (NULL: none prefix, none raw) */
    uint32_t *ends;              /* with WP_DEC_MULTIPLE: ends_cap words for the end offset of each value (or NULL) */
    uint32_t ends_cap;
    /* Input bytes the caller did not provide (NULL, 0: none): nholes (offset, length) pairs in
     * increasing order, each to be exactly the payload of a binary item (a MessagePack bin or
     * extension, but not of type 0 or -1 or one the decoder interprets: a record definition, a
     * bundle; a CBOR byte string of definite length), which the decoders skip without reading. The call
     * fails with WP_ERR_HOLE when a hole is not met as such a payload, and at any bundle (whose
     * strings lie out of order); the caller then decodes again with every byte. So a host may
     * leave large binaries out of the copy it decodes from by guessing where they lie, and an
     * OK result never depends on the guess or on the bytes in the holes. */
    const uint32_t *holes;
    uint32_t nholes;
    /* out */
    uint32_t tape_len, ascii_len, utf16_len;
    uint32_t end;                /* input offset after the last complete value */
    uint32_t nvalues;            /* top-level values decoded */
    uint32_t depth_seen;         /* deepest nesting of non-empty containers on the tape */
    uint32_t keys_before, shapes_before; /* ids at or above these are new in this call */
    uint32_t holes_seen;         /* holes met so far (the call is OK only with all nholes) */
    wp_error err;
} wp_decoder;

#define WP_DEFAULT_MAX_DEPTH 1000u

/* WP_DEC_SLACK: bytes past the end of the input (in[len]) that the decoders may read, and past
 * the end of the ASCII area (ascii[ascii_cap]) that they may write, so that the strings and keys
 * of up to 16 bytes at the very end of a message are read and copied as two 8-byte words like all
 * the others (at the end of a small message, that is most of them). 0 unless the build defines
 * it; the wasm build defines 16 and lays out its arena to match (wp_wasm.c). With slack, every
 * caller provides that many bytes after both: readable after the input (bytes read there are
 * masked off, never interpreted) and writable after the ASCII area (never part of a string). */
#ifndef WP_DEC_SLACK
#define WP_DEC_SLACK 0u
#endif

/* Sizes that always suffice for an input of len bytes (tape words, ascii bytes, utf16 units,
 * stack words for max_depth). The tape bound is 2 words per input byte plus a constant (with
 * WP_DEC_MP_RAW_STRINGS, 3: wp_cbor_tape_words(len)); ascii_cap = len and utf16_cap = len always
 * suffice. */
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
    const uint16_t *units; /* the UTF-16 units of the STR16 entries, units_len of them (0, NULL: none) */
    uint32_t units_len;
    const uint8_t *utf8;   /* the UTF-8 of the STRU8 entries, utf8_len bytes (0, NULL: none) */
    uint32_t utf8_len;
    const uint32_t *keys;  /* the STR entries the KEY entries refer to, keys_len words (0, NULL: none) */
    uint32_t keys_len;
    uint32_t keys_words;   /* the words of the entries the KEY entries refer to, summed over the
                              references (the output bound counts them; a tape referring to more
                              is BAD_TAPE) */
    uint32_t out_len;      /* bytes written */
    uint32_t needed;       /* on WP_ERR_OUTPUT_FULL: a size that suffices */
    wp_error err;          /* offset = tape word index for BAD_TAPE */
    uint32_t ext_len;      /* the bytes the XBIN entries leave for the host, summed (the output
                              bound counts them; a tape with more is BAD_TAPE); 0: none */
} wp_encoder;

/* A size that always suffices for the output of an encode tape of n words, plus 3 bytes per unit
 * of e->units and 1 per byte of e->utf8 when the tape has STR16 or STRU8 entries, 5 per word
 * of e->keys_words when it has KEY entries and e->ext_len with XBIN entries (wp_encode_out_need). */
uint32_t wp_encode_out_bound(uint32_t tape_words);
/* wp_encode_out_bound of e's tape plus its units, UTF-8, key words and ext_len (UINT32_MAX if that
 * does not fit 32 bits). */
uint32_t wp_encode_out_need(const wp_encoder *e);

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
    WP_CBOR_INDEFINITE = 1u << 2,    /* arrays and maps with indefinite lengths (not with DETERMINISTIC) */
    WP_CBOR_F64_ENTRIES = 1u << 3    /* F64 entries always as float64, F32 entries as float32 (the host
                                        chose the width: cbor-x's useFloat32 and alwaysUseFloat) */
};

/* Scratch words wp_cbor_encode needs for a tape of n words (deterministic map sorting), with no
 * STR16, STRU8 or KEY entries; wp_cbor_scratch_need counts e's units, UTF-8, key words and ext_len too
 * (UINT32_MAX if that does not fit). */
uint32_t wp_cbor_scratch_words(uint32_t tape_words);
uint32_t wp_cbor_scratch_need(const wp_encoder *e);

/* CBOR from an encode tape. Preferred serialization: the shortest head for every argument, the
 * shortest float that keeps the value (NaN and infinities as float16). scratch:
 * wp_cbor_scratch_need(e) words (used with WP_CBOR_DETERMINISTIC or WP_CBOR_INDEFINITE). */
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
    WP_T_OBJ = 15,    /* P = n; n (key, value) pairs, every key a string (KEY, STRA or STRU) or a
                         number/boolean/nil/undefined that becomes a property name (msgpackr and
                         cbor-x coerce them), or (CBOR) what stands for a string: a packed
                         reference once a packed item has opened in the call or with
                         WP_DEC_CBOR_SHARED, a bundled string */
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
    WP_T_PAD = 26,    /* no value: skip this word (before a SHAPED header of an indefinite map) */
    /* MessagePack extensions that shape the values after them */
    WP_T_RECDEF = 27, /* P = record slot (| WP_RECDEF_HB0: defined with high byte 0); next word: the
                         input offset of the definition; the keys (an array) follow, then a REC entry */
    WP_T_REC = 28,    /* P = record slot; the record's field values follow (as many as it has keys) */
    WP_T_EXTP = 29,   /* P = type (as uint8); next words: length, input offset; then the wrapped value */
    WP_T_BUNDLE = 30, /* bundled strings: two string entries follow, then the wrapped value */
    WP_T_BREF = 31,   /* P = signed 24-bit n; next word: start unit. n units of bundle string 2 (n > 0), else
                         -n units of string 1 (keys from an ASCII string 2 are KEY entries instead) */
    WP_T_RECDEFS = 32, /* P as RECDEF; next word: the interned shape id of the keys; then a REC entry */
    WP_T_SCALARRUN = 33, /* P = n; n aligned f64 values: an array of numbers and null, false, true (and,
                           in CBOR, undefined), at least one of each kind. Those four are NaNs whose high
                           word is WP_RUN_NAN_HI and whose low word is a wp_run_special; a number that is
                           NaN has low word 0. (NUMRUN when the array holds numbers only.) */
    WP_T_VSTR = 34,   /* P = slot (bits 0-9) | length (bits 10-15); next word: stamp. An ASCII string
                         value whose bytes are the value cache's at that slot (WP_DEC_VCACHE) */
    WP_T_CREC = 35,   /* CBOR (WP_DEC_CBOR_RECS): a record defined where it appears, tag 0xdfff over
                         [0xe000 + P, keys, ...values] whose keys are text C interned: next word the
                         shape id of the keys; then the values, one per key */
    WP_T_STR8 = 36    /* P = length in bytes; next word: the bytes' offset in the input. A string that
                         is not ASCII, as UTF-8 for the host to decode (WP_DEC_UTF8_HOST) */
};

/* The non-numbers of a SCALARRUN. */
#define WP_RUN_NAN_HI 0x7ff80000u
enum wp_run_special { WP_RUN_NULL = 1, WP_RUN_FALSE = 2, WP_RUN_TRUE = 3, WP_RUN_UNDEF = 4 };

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
    WP_E_PAD = 21,    /* nothing: a word the host reserved and did not need (both formats) */
    /* MessagePack only (msgpackr's records, bundled strings and structured clone) */
    WP_E_UINT8 = 22,  /* cc P: uint8 form of P (0..255); records mode writes 0x40..0x7f so */
    WP_E_REC = 23,    /* record id: byte P & 0xff; when bit 16 of P is set, then byte (P >> 8) & 0xff */
    WP_E_RECDEF = 24, /* record definition header: d4 72 b0, or d5 72 b0 b1 (P as REC); keys follow */
    WP_E_PREFIX = 25, /* d4 P 00: a one-byte extension of type P that reads the value after it */
    WP_E_EXT4 = 26,   /* d6 P, then the next word as big-endian uint32 (0x69 id, 0x70 pointer) */
    WP_E_BYTE = 27,   /* the byte P & 0xff as it is (0xc1 before a bundled string's length) */
    WP_E_BUNDLE = 28  /* bundled strings (ext 0x62), P = op, one more word (ignored): 0 = d6 62 and
                         a 4-byte reference to fill; 1 = c8 LLLL 62 and a new reference, the open
                         one now pointing after it (two STR entries follow, then op 2); 2 = close
                         the c8 ext (fill LLLL); 3 = the open reference points here (two STR
                         entries follow). A reference holds the byte distance from its own first
                         byte to the strings. */,
    WP_E_NUMS = 29,   /* P = n (< 0xFFFFFF): n aligned f64 follow (as WP_E_F64's), each written as
                         msgpackr writes a JS number with no float32 option: a whole number in
                         0..2^32-1 (and -0) as the smallest unsigned form, in -2^31..-1 as the
                         smallest signed form, anything else float64 (MessagePack only) */
    WP_E_STR16 = 30,  /* P = n UTF-16 code units (0xFFFFFF: next word): a string whose units are the
                         next n of the encoder's `units` (strings of the tape take them in order),
                         written as UTF-8 as TextEncoder writes it (an unpaired surrogate: U+FFFD) */
    WP_E_STRU8 = 31,  /* P = n UTF-16 code units (0xFFFFFF: next word): a string whose UTF-8 is the
                         next bytes of the encoder's `utf8` that encode n units (a 4-byte sequence
                         is 2 units, any other 1), in tape order; a sequence cut by n: BAD_TAPE */
    WP_E_KEY = 32,    /* P = a word offset into the encoder's `keys`, where a STR entry (no length
                         escape) is: that string (the host writes a map key there once and refers to
                         it from then on) */
    WP_E_XBIN = 33,   /* P = 0; next word: n; one more word, which the encoder writes: a binary value
                         whose n bytes the host copies into the output itself: the encoder writes its
                         header (MessagePack bin, CBOR major type 2), the output offset of the n bytes
                         into that word, and skips them (it never writes or reads them). The n of the
                         tape's XBIN entries add up to at most the encoder's ext_len; not in the
                         tracked CBOR encoder (deterministic or indefinite: it moves bytes). */
    /* CBOR only: cbor-x's bundled strings (tag 0xdff9) */
    WP_E_CBOR_BOFF = 40,  /* 1a and a 4-byte offset to fill (the next BHERE fills it) */
    WP_E_CBOR_BHERE = 41  /* nothing written: the older open BOFF (of at most two) gets the distance from its 1a byte to here */
};

#define WP_LEN_ESCAPE 0xFFFFFFu

/* ===================================================================== TRANSCODE */

/* csrc/transcode/ (a separate wasm module and the native library): conversions between
 * MessagePack, CBOR and JSON text on the bytes, without building values or a tape; validation
 * and path lookup without decoding. Same conventions: caller-owned memory, explicit stacks,
 * errors as codes plus byte offsets. */

typedef enum wp_format { WP_FMT_MSGPACK = 0, WP_FMT_CBOR = 1, WP_FMT_JSON = 2 } wp_format;

/* Error codes of the transcode functions, in the ranges above. */
#define WP_ERR_JSON_SYNTAX ((wp_err)120) /* JSON input not RFC 8259 (offset: the first bad byte) */
#define WP_ERR_BAD_UTF8 ((wp_err)121)    /* invalid UTF-8 in a string (JSON input, validate) */
#define WP_ERR_NON_JSON ((wp_err)400)    /* a value JSON cannot hold (policy below) */
#define WP_ERR_NOT_FOUND ((wp_err)401)   /* wp_find: the path does not lead to a value */
#define WP_ERR_UNMAPPABLE ((wp_err)402)  /* MessagePack <-> CBOR: a value with no counterpart */
#define WP_ERR_KEY_ORDER ((wp_err)403)   /* to JSON: a map whose decoded object JSON.stringify would
                                            write in another order (integer-like keys not first
                                            and ascending) or with fewer members (duplicate keys);
                                            offset: the map. WP_TC_WIRE_ORDER writes it as it is. */

/* wp_err_name plus the codes above. */
const char *wp_tc_err_name(wp_err code);

enum {
    WP_TC_MULTIPLE = 1u << 0, /* convert/validate values until the input ends: concatenated
                                 MessagePack or CBOR, whitespace-separated JSON (NDJSON) */
    WP_TC_LINES = 1u << 1,    /* JSON output: a newline after every top-level value (NDJSON) */
    WP_TC_DIAG = 1u << 2,     /* JSON output as diagnostic notation (RFC 8949 8, indefinite
                                 lengths as in 8.1), for CBOR as wirepack/cbor's diagnose()
                                 writes it: h'..', N(..), [_ 1], (_ "a"), 1.0, simple(N), ...;
                                 MessagePack extensions ext(T, h'..') (csrc/transcode/tc_diag.c) */
    WP_TC_FIRST = 1u << 3,    /* convert the first value only; t->end says where it ended */
    WP_TC_WIRE_ORDER = 1u << 4 /* JSON output: keys in wire order, duplicates kept (no KEY_ORDER) */
};

typedef struct wp_transcoder {
    /* in */
    const uint8_t *in;
    uint32_t len;
    uint32_t from, to;     /* wp_format */
    uint32_t flags;        /* WP_TC_* */
    uint32_t indent;       /* JSON output: spaces per level, 0 compact (as JSON.stringify's space) */
    uint32_t max_depth;    /* 0: WP_DEFAULT_MAX_DEPTH */
    uint8_t *out;
    uint32_t out_cap;      /* wp_transcode_out_bound() always suffices when indent is 0, without
                              WP_TC_DIAG (diagnostic notation can write 11 bytes for a one-byte
                              item, simple(14),: use the flush sink) */
    uint32_t *scratch;     /* wp_transcode_scratch_words() words */
    uint32_t scratch_cap;
    /* out */
    uint32_t out_len;
    uint32_t end;          /* input offset after the last complete value */
    uint32_t nvalues;      /* top-level values converted */
    wp_error err;          /* OUTPUT_FULL: retry with a larger output (indentation) */
    /*
     * Optional output sink (NULL: the output must fit in out). When out fills,
     * the transcoder calls flush(flush_user, out, n, need, &out_cap) twice over: first with the
     * n > 0 finished bytes at the start of out to write (need 0; return out), then, if the
     * unfinished tail moved to the front still leaves too little room, with n = 0 and need, the
     * capacity wanted: return a buffer of at least need bytes that holds out's first bytes (as
     * realloc does) and set out_cap. NULL fails the call with OUTPUT_FULL (bytes already given
     * to flush stay written). t->out and t->out_cap are updated; out_len bytes remain unflushed
     * (after a failure: the complete values among them; a failing value may be partly flushed).
     * Binary output goes to the sink as it is written, so out can stay small whatever the
     * value's size: JSON input is read twice for it (a first pass counts every container's
     * entries, so that heads are written exact, and finds any error before output), and a
     * value with CBOR indefinite-length containers is held in out until it ends.
     */
    uint8_t *(*flush)(void *user, uint8_t *out, uint32_t n, uint32_t need, uint32_t *out_cap);
    void *flush_user;
} wp_transcoder;

/*
 * wp_transcode: one value (or, with WP_TC_MULTIPLE, every value) from one format to another.
 *  - To JSON: byte for byte JSON.stringify(decode(x)) for JSON-representable data; numbers as
 *    JavaScript prints them (shortest round trip, Schubfach; -0 as 0). Policy for the rest:
 *    NaN and +-Infinity: null; undefined: null in arrays, member left out in maps, NON_JSON at
 *    the top level; 64-bit integers (BigInt when decoded): exact digits; map keys that are
 *    numbers, booleans or null: their JavaScript property names (other keys: NON_JSON);
 *    binary, extensions (timestamps too), CBOR tags and simple values: NON_JSON; invalid
 *    UTF-8: U+FFFD per maximal subpart (as TextDecoder). A map that JSON.stringify of the
 *    decoded object would write differently (integer-like keys not first in ascending order,
 *    or duplicate keys, compared by their property names: -20 and "-20" are one) fails with
 *    KEY_ORDER (the JavaScript API then falls back to JSON.stringify(decode(x))); with
 *    WP_TC_WIRE_ORDER keys are written in wire order.
 *  - From JSON: strict RFC 8259, correctly rounded doubles (Clinger, Eisel-Lemire, then the C
 *    library's strtod), UTF-8 checked; written as wirepack's encoders write JSON.parse(text):
 *    integers in [-2^31, 2^32) as integers, other numbers float64 (MessagePack) or the
 *    shortest exact float (CBOR; -0 too, which is 0 in MessagePack), lone surrogate escapes as
 *    U+FFFD.
 *  - MessagePack <-> CBOR: the same data model value (see csrc/transcode/tc_bin.c); values
 *    without a counterpart fail with UNMAPPABLE. Same format in and out: validated copy.
 */
wp_err wp_transcode(wp_transcoder *t);
uint32_t wp_transcode_out_bound(uint32_t from, uint32_t to, uint32_t len);
uint32_t wp_transcode_scratch_words(uint32_t len, uint32_t max_depth);

/* Well-formed, within max_depth, valid UTF-8 strings: without building anything. flags:
 * WP_TC_MULTIPLE. scratch: wp_transcode_scratch_words(len, max_depth) words. */
wp_err wp_validate(const uint8_t *in, uint32_t len, uint32_t format, uint32_t flags, uint32_t max_depth,
                   uint32_t *scratch, uint32_t scratch_cap, wp_error *err);

/* One step of a path: a map key (key != NULL, UTF-8 bytes) or an array index. A key step
 * that meets an array is taken as an index when the key is a decimal integer (JSON Pointer);
 * an index step that meets a map names the key of its digits (JavaScript's obj[5]). Map keys
 * match by the property name decode() gives them: strings by their text (ill-formed UTF-8 as
 * U+FFFD, CBOR text chunks joined), numbers, booleans, null and undefined by String() (the
 * key 1 is "1", 1.5 is "1.5"). */
typedef struct wp_path_step {
    const uint8_t *key;
    uint32_t key_len;
    uint32_t index;
} wp_path_step;

/* The byte range [*start, *end) of the value at path, skipping (not decoding) everything else.
 * A duplicate key: the first one (json-pack's findKey; decoding keeps the last), so nothing
 * after a match is read. NOT_FOUND when a step does not apply. scratch:
 * wp_transcode_scratch_words(len, 0) words (nesting is limited to WP_DEFAULT_MAX_DEPTH). */
wp_err wp_find(const uint8_t *in, uint32_t len, uint32_t format, const wp_path_step *path, uint32_t nsteps,
               uint32_t *scratch, uint32_t scratch_cap, uint32_t *start, uint32_t *end, wp_error *err);

/* A double as JavaScript's String(v) writes it (NaN and infinities: "null", as in JSON);
 * out needs 25 bytes. Returns the length. */
uint32_t wp_json_f64(double v, char *out);

/* ===================================================================== END TRANSCODE */

#ifdef __cplusplus
}
#endif
#endif /* WIREPACK_H */
