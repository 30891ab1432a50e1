/*
 * test_cbor_decode.c: table-driven tests of wp_cbor_decode (QCBOR / mpack style): every RFC 8949
 * Appendix A example -> exact tape entries (flags 0 and WP_DEC_MAPS_AS_OBJECTS), extra well-formed
 * forms (integer widths, tags, simple values, indefinite items), the not-well-formed inputs of
 * RFC 8949 Appendix F.1 (+ more) -> error code and offset, every proper prefix of a set of items
 * -> TRUNCATED at the innermost cut item, depth limits, trailing data, WP_DEC_MULTIPLE, and
 * rollback of the key/shape tables after failed decodes.
 *
 * Expected tapes are written in a small notation, one token per word or entry:
 *   NAME or NAME:P   a tag word with payload P (decimal/hex, negative for INT, ESC = 0xFFFFFF)
 *   #N               a raw word (lengths, offsets, lo/hi halves)
 *   F:V              an f64 at the next 8-byte aligned word pair (pad word 0 first if needed);
 *                    V as strtod reads it (inf, -inf, nan, -0, 0x1p-24, ...)
 */
#include <math.h>
#include "test_util.h"

/* the tables below leave trailing fields to their zero defaults */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

static wp_tables T; /* large: static */
#define O WP_DEC_MAPS_AS_OBJECTS

/* ===================================================================== expected tapes */

typedef struct xtape {
    uint32_t w[160];
    uint8_t f[160]; /* 1: first word of an f64 pair */
    uint32_t n;
} xtape;

static const struct { const char *name; uint32_t tag; } tag_names[] = {
    { "NIL", WP_T_NIL }, { "FALSE", WP_T_FALSE }, { "TRUE", WP_T_TRUE }, { "INT", WP_T_INT },
    { "I32", WP_T_I32 }, { "U32", WP_T_U32 }, { "F64", WP_T_F64 }, { "U64", WP_T_U64 }, { "I64", WP_T_I64 },
    { "STRA", WP_T_STRA }, { "STRU", WP_T_STRU }, { "KEY", WP_T_KEY }, { "BIN", WP_T_BIN }, { "ARR", WP_T_ARR },
    { "MAP", WP_T_MAP }, { "OBJ", WP_T_OBJ }, { "SHAPED", WP_T_SHAPED }, { "EXT", WP_T_EXT },
    { "DATE", WP_T_DATE }, { "NUMRUN", WP_T_NUMRUN }, { "F32", WP_T_F32 }, { "UNDEF", WP_T_UNDEF },
    { "N64", WP_T_N64 }, { "TAG", WP_T_TAG }, { "SIMPLE", WP_T_SIMPLE }, { "BINC", WP_T_BINC },
    { "PAD", WP_T_PAD }, { "SCALARRUN", WP_T_SCALARRUN }, { "CREC", WP_T_CREC },
};

static void xt_word(xtape *x, uint32_t w, uint8_t f) {
    if (x->n >= sizeof x->w / sizeof x->w[0]) { fprintf(stderr, "xtape too long\n"); exit(2); }
    x->f[x->n] = f;
    x->w[x->n++] = w;
}

static void xt_parse(const char *spec, xtape *x) {
    x->n = 0;
    const char *s = spec;
    char tok[64];
    while (*s) {
        while (*s == ' ') s++;
        if (!*s) break;
        size_t k = 0;
        while (*s && *s != ' ' && k + 1 < sizeof tok) tok[k++] = *s++;
        tok[k] = 0;
        if (tok[0] == '#') {
            xt_word(x, (uint32_t)strtoul(tok + 1, NULL, 0), 0);
        } else if (tok[0] == 'R' && tok[1] == 'S' && tok[2] == ':') {
            /* a SCALARRUN element that is not a number: its word pair exactly (RS:0: the NaN number) */
            if (x->n & 1u) xt_word(x, 0, 0);
            xt_word(x, (uint32_t)strtoul(tok + 3, NULL, 0), 0);
            xt_word(x, WP_RUN_NAN_HI, 0);
        } else if (tok[0] == 'F' && tok[1] == ':') {
            double v = strtod(tok + 2, NULL);
            uint64_t b;
            memcpy(&b, &v, 8);
            if (x->n & 1u) xt_word(x, 0, 0);
            xt_word(x, (uint32_t)b, 1);
            xt_word(x, (uint32_t)(b >> 32), 2);
        } else {
            char *colon = strchr(tok, ':');
            uint32_t p = 0;
            if (colon) {
                *colon = 0;
                if (strcmp(colon + 1, "ESC") == 0) p = WP_LEN_ESCAPE;
                else p = (uint32_t)strtol(colon + 1, NULL, 0) & 0xffffffu;
            }
            size_t i;
            for (i = 0; i < sizeof tag_names / sizeof tag_names[0]; i++)
                if (strcmp(tag_names[i].name, tok) == 0) break;
            if (i == sizeof tag_names / sizeof tag_names[0]) { fprintf(stderr, "bad token %s in %s\n", tok, spec); exit(2); }
            xt_word(x, tag_names[i].tag | p << 8, 0);
        }
    }
}

/* Compare the decoder's tape with the expected notation (f64 pairs compared as values, any NaN
 * equal to any NaN). */
#define CHECK_XTAPE(d, spec) check_xtape(__FILE__, __LINE__, (d), (spec))
static int check_xtape(const char *file, int line, const wp_decoder *d, const char *spec) {
    xtape x;
    xt_parse(spec, &x);
    int ok = tu_check(d->tape_len == x.n, file, line, "tape length", "got %u words, want %u (%s)", d->tape_len, x.n, spec);
    for (uint32_t i = 0; i < x.n && i < d->tape_len && ok; i++) {
        if (x.f[i] == 1 && i + 1 < d->tape_len) {
            double g, w;
            memcpy(&g, &d->tape[i], 8);
            memcpy(&w, &x.w[i], 8);
            ok = tu_check(tu_same_f64(g, w), file, line, "f64 word pair", "words %u..%u: got %.17g want %.17g", i, i + 1, g, w);
            i++;
        } else {
            ok = tu_check(d->tape[i] == x.w[i], file, line, "tape word", "word %u: got 0x%08x want 0x%08x (%s)", i,
                          d->tape[i], x.w[i], spec);
        }
    }
    if (!ok) {
        fprintf(stderr, "  got tape:");
        for (uint32_t i = 0; i < d->tape_len && i < 40; i++) fprintf(stderr, " %08x", d->tape[i]);
        fprintf(stderr, "\n");
    }
    return ok;
}

/* ===================================================================== RFC 8949 Appendix A */

typedef struct acase {
    const char *hex;
    const char *want;     /* tape with flags 0 (NULL: expect err) */
    const char *want_obj; /* tape with WP_DEC_MAPS_AS_OBJECTS (NULL: same as want) */
    const char *ascii;    /* expected ascii area (NULL: empty) */
    uint16_t u16[12];     /* expected utf16 area, nu16 units */
    uint32_t nu16;
    const char *keys;     /* expected key table after the decode, '|' separated (NULL: none) */
    wp_err err;
    uint32_t eoff;
} acase;

/* The hex strings of tests/vectors/cbor/appendix_a.json, in its order (82 examples). */
static const acase appendix_a[] = {
    { "00", "INT:0" },
    { "01", "INT:1" },
    { "0a", "INT:10" },
    { "17", "INT:23" },
    { "1818", "INT:24" },
    { "1819", "INT:25" },
    { "1864", "INT:100" },
    { "1903e8", "INT:1000" },
    { "1a000f4240", "INT:1000000" },
    { "1b000000e8d4a51000", "U64 #0xd4a51000 #0xe8" },
    { "1bffffffffffffffff", "U64 #0xffffffff #0xffffffff" },
    { "c249010000000000000000", "TAG:2 BIN #9 #2" },                 /* bignum: tag + byte string */
    { "3bffffffffffffffff", "N64 #0xffffffff #0xffffffff" },         /* -2^64 */
    { "c349010000000000000000", "TAG:3 BIN #9 #2" },
    { "20", "INT:-1" },
    { "29", "INT:-10" },
    { "3863", "INT:-100" },
    { "3903e7", "INT:-1000" },
    { "f90000", "F64 F:0.0" },
    { "f98000", "F64 F:-0.0" },
    { "f93c00", "F64 F:1.0" },
    { "fb3ff199999999999a", "F64 F:1.1" },
    { "f93e00", "F64 F:1.5" },
    { "f97bff", "F64 F:65504.0" },
    { "fa47c35000", "F64 F:100000.0" },
    { "fa7f7fffff", "F64 F:3.4028234663852886e+38" },
    { "fb7e37e43c8800759c", "F64 F:1.0e+300" },
    { "f90001", "F64 F:5.960464477539063e-8" },                     /* smallest half subnormal */
    { "f90400", "F64 F:0.00006103515625" },                         /* smallest half normal */
    { "f9c400", "F64 F:-4.0" },
    { "fbc010666666666666", "F64 F:-4.1" },
    { "f97c00", "F64 F:inf" },
    { "f97e00", "F64 F:nan" },
    { "f9fc00", "F64 F:-inf" },
    { "fa7f800000", "F64 F:inf" },
    { "fa7fc00000", "F64 F:nan" },
    { "faff800000", "F64 F:-inf" },
    { "fb7ff0000000000000", "F64 F:inf" },
    { "fb7ff8000000000000", "F64 F:nan" },
    { "fbfff0000000000000", "F64 F:-inf" },
    { "f4", "FALSE" },
    { "f5", "TRUE" },
    { "f6", "NIL" },
    { "f7", "UNDEF" },
    { "f0", "SIMPLE:16" },
    /* simple(24) is an RFC 7049 example; RFC 8949 3.3 makes f8 00..f8 1f not well-formed */
    { "f818", NULL, .err = WP_ERR_BAD_SIMPLE, .eoff = 0 },
    { "f8ff", "SIMPLE:255" },
    { "c074323031332d30332d32315432303a30343a30305a", "TAG:0 STRA:20", .ascii = "2013-03-21T20:04:00Z" },
    { "c11a514b67b0", "TAG:1 U32 #1363896240" },
    { "c1fb41d452d9ec200000", "TAG:1 F64 F:1363896240.5" },         /* f64 at words 2..3, no pad */
    { "d74401020304", "TAG:23 BIN #4 #2" },
    { "d818456449455446", "TAG:24 BIN #5 #3" },
    { "d82076687474703a2f2f7777772e6578616d706c652e636f6d", "TAG:32 STRA:22", .ascii = "http://www.example.com" },
    { "40", "BIN #0 #1" },
    { "4401020304", "BIN #4 #1" },
    { "60", "STRA:0" },
    { "6161", "STRA:1", .ascii = "a" },
    { "6449455446", "STRA:4", .ascii = "IETF" },
    { "62225c", "STRA:2", .ascii = "\"\\" },
    { "62c3bc", "STRU:1", .u16 = { 0xfc }, .nu16 = 1 },
    { "63e6b0b4", "STRU:1", .u16 = { 0x6c34 }, .nu16 = 1 },
    { "64f0908591", "STRU:2", .u16 = { 0xd800, 0xdd51 }, .nu16 = 2 },
    { "80", "ARR:0" },
    { "83010203", "NUMRUN:3 F:1 F:2 F:3" },
    /* one-byte integers first (their own loop): each boundary, then two-byte heads and a float */
    { "87173718183818002037", "NUMRUN:7 F:23 F:-24 F:24 F:-25 F:0 F:-1 F:-24" },
    { "8320f93e0001", "NUMRUN:3 F:-1 F:1.5 F:1" },
    { "8401f5f620", "SCALARRUN:4 F:1 RS:3 RS:1 F:-1" },
    { "8301820203820405", "ARR:3 INT:1 NUMRUN:2 F:2 F:3 NUMRUN:2 F:4 F:5" },
    { "98190102030405060708090a0b0c0d0e0f101112131415161718181819",
      "NUMRUN:25 F:1 F:2 F:3 F:4 F:5 F:6 F:7 F:8 F:9 F:10 F:11 F:12 F:13 F:14 F:15 F:16 F:17 F:18 F:19 F:20"
      " F:21 F:22 F:23 F:24 F:25" },
    { "a0", "MAP:0", "OBJ:0" },
    { "a201020304", "MAP:2 INT:1 INT:2 INT:3 INT:4", "OBJ:2 INT:1 INT:2 INT:3 INT:4" }, /* integer keys coerce */
    { "a26161016162820203", "MAP:2 KEY:0 INT:1 KEY:1 NUMRUN:2 F:2 F:3", "SHAPED:0 KEY:0 INT:1 KEY:1 NUMRUN:2 F:2 F:3",
      .keys = "a|b" },
    { "826161a161626163", "ARR:2 STRA:1 MAP:1 KEY:0 STRA:1", "ARR:2 STRA:1 SHAPED:0 KEY:0 STRA:1", .ascii = "ac",
      .keys = "b" },
    { "a56161614161626142616361436164614461656145",
      "MAP:5 KEY:0 STRA:1 KEY:1 STRA:1 KEY:2 STRA:1 KEY:3 STRA:1 KEY:4 STRA:1",
      "SHAPED:0 KEY:0 STRA:1 KEY:1 STRA:1 KEY:2 STRA:1 KEY:3 STRA:1 KEY:4 STRA:1", .ascii = "ABCDE", .keys = "a|b|c|d|e" },
    /* indefinite-length items */
    { "5f42010243030405ff", "BINC:ESC #2 #2 #2 #3 #5" },             /* chunks (length, input offset) */
    { "7f657374726561646d696e67ff", "STRU:ESC #9",                   /* one STRU, even when ASCII */
      .u16 = { 's', 't', 'r', 'e', 'a', 'm', 'i', 'n', 'g' }, .nu16 = 9 },
    { "9fff", "ARR:ESC #0" },
    { "9f018202039f0405ffff", "ARR:ESC #3 INT:1 NUMRUN:2 F:2 F:3 ARR:ESC #2 INT:4 INT:5" },
    { "9f01820203820405ff", "ARR:ESC #3 INT:1 NUMRUN:2 F:2 F:3 NUMRUN:2 F:4 F:5" },
    { "83018202039f0405ff", "ARR:3 INT:1 NUMRUN:2 F:2 F:3 ARR:ESC #2 INT:4 INT:5" },
    { "83019f0203ff820405", "ARR:3 INT:1 ARR:ESC #2 INT:2 INT:3 NUMRUN:2 F:4 F:5" },
    { "9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff",
      "ARR:ESC #25 INT:1 INT:2 INT:3 INT:4 INT:5 INT:6 INT:7 INT:8 INT:9 INT:10 INT:11 INT:12 INT:13 INT:14"
      " INT:15 INT:16 INT:17 INT:18 INT:19 INT:20 INT:21 INT:22 INT:23 INT:24 INT:25" },
    /* indefinite maps: MAP/OBJ keep (header, count); SHAPED is PAD then the shape header */
    { "bf61610161629f0203ffff", "MAP:ESC #2 KEY:0 INT:1 KEY:1 ARR:ESC #2 INT:2 INT:3",
      "PAD SHAPED:0 KEY:0 INT:1 KEY:1 ARR:ESC #2 INT:2 INT:3", .keys = "a|b" },
    { "826161bf61626163ff", "ARR:2 STRA:1 MAP:ESC #1 KEY:0 STRA:1", "ARR:2 STRA:1 PAD SHAPED:0 KEY:0 STRA:1",
      .ascii = "ac", .keys = "b" },
    { "bf6346756ef563416d7421ff", "MAP:ESC #2 KEY:0 TRUE KEY:1 INT:-2", "PAD SHAPED:0 KEY:0 TRUE KEY:1 INT:-2",
      .keys = "Fun|Amt" },
};

/* More well-formed items: integer widths at the tape-form boundaries, non-shortest heads, tags,
 * simple values, floats, indefinite strings and maps, keys of every kind, WP_DEC_TAG_F32. */
static const acase extra_ok[] = {
    /* major 0: INT below 2^23, then U32, then U64 */
    { "1a007fffff", "INT:0x7fffff" },
    { "1a00800000", "U32 #0x800000" },
    { "1affffffff", "U32 #0xffffffff" },
    { "1b0000000100000000", "U64 #0 #1" },
    { "1b7fffffffffffffff", "U64 #0xffffffff #0x7fffffff" },
    { "1b8000000000000000", "U64 #0 #0x80000000" },
    /* major 1: INT down to -2^23, I32 down to -2^31, F64 down to -2^32 (4-byte heads are numbers);
     * 8-byte heads: I64 down to -2^63, then N64 */
    { "3a007fffff", "INT:-0x800000" },
    { "3a00800000", "I32 #0xff7fffff" },                             /* -0x800001 */
    { "3a7fffffff", "I32 #0x80000000" },                             /* INT32_MIN */
    { "3a80000000", "F64 F:-2147483649" },                          /* -2^31 - 1: a number */
    { "3affffffff", "F64 F:-4294967296" },                          /* -2^32: a number */
    { "3b7fffffffffffffff", "I64 #0 #0x80000000" },                  /* INT64_MIN */
    { "3b00000000ffffffff", "I64 #0 #0xffffffff" },                  /* -2^32 from an 8-byte head */
    { "c1 3a80000000", "TAG:1 F64 F:-2147483649" },
    { "3b8000000000000000", "N64 #0 #0x80000000" },                  /* -1 - 2^63 */
    /* non-shortest heads are well-formed and decode by value */
    { "1800", "INT:0" }, { "190000", "INT:0" }, { "1a00000005", "INT:5" }, { "3900ff", "INT:-256" },
    /* ... except 8-byte integer heads: always 64-bit entries (BigInts), whatever the value */
    { "1b0000000000000005", "U64 #5 #0" }, { "3b0000000000000000", "I64 #0xffffffff #0xffffffff" },
    { "1b00000000ffffffff", "U64 #0xffffffff #0" }, { "3b000000007fffffff", "I64 #0x80000000 #0xffffffff" },
    { "5800", "BIN #0 #2" }, { "790001 61", "STRA:1", .ascii = "a" }, { "9a00000001 f6", "ARR:1 NIL" },
    { "b800", "MAP:0", "OBJ:0" }, { "d90001 f6", "TAG:1 NIL" },
    /* tags: P up to 0xfffffe, 0xffffff and above via the escape (lo, hi) */
    { "d8ff f6", "TAG:255 NIL" }, { "d9ffff f6", "TAG:65535 NIL" },
    { "da00fffffe f6", "TAG:0xfffffe NIL" },
    { "da00ffffff f6", "TAG:ESC #0xffffff #0 NIL" },
    { "daffffffff f6", "TAG:ESC #0xffffffff #0 NIL" },
    { "db0000000100000000 f6", "TAG:ESC #0 #1 NIL" },
    { "dbfffffffffffcffff f6", "TAG:ESC #0xfffcffff #0xffffffff NIL" }, /* 2^64 - 3 * 2^16 and up: RESERVED_TAG */
    { "d9d9f7 c1 c2 40", "TAG:55799 TAG:1 TAG:2 BIN #0 #6" },          /* nested tags */
    /* cbor-x's bundle tag over an array whose element 0 is no offset: no bundle, every element a
     * value (elements 1 and 2 came back as null, skipped as a previous bundle's strings) */
    { "d9dff9 84 60 40 40 00", "TAG:57337 ARR:4 STRA:0 BIN #0 #6 BIN #0 #7 INT:0" },
    { "d9dff9 84 60 f6 f6 00", "TAG:57337 ARR:4 STRA:0 NIL NIL INT:0" },
    /* two bundles in one message: the second's array of 4 carries the first one's strings (read
     * through the first one's offset, skipped here), then its own first reference */
    { "d9dff9 82 1a00000011 82 cf04 d9dff9 84 1a0000000d 60 6461626364 cf04 60 647778797a",
      "TAG:57337 ARR:2 TAG:ESC #0xfffd0000 #0xffffffff ARR:3 STRA:0 STRA:4 INT:17 ARR:2 TAG:15 INT:4 "
      "TAG:57337 ARR:4 TAG:ESC #0xfffd0000 #0xffffffff ARR:3 STRA:0 STRA:4 INT:13 NIL NIL TAG:15 INT:4", .ascii = "abcdwxyz" },
    /* cbor-x's record definitions (0xdffe): a marker before each key array of two bytes or more;
     * none before items of one byte, which cannot pay for its three words (22 of them once
     * overran the tape's bound: a fuzz finding) */
    { "d9dffe 85 19e000 00 f6 81 6161 01", "TAG:57342 ARR:5 INT:57344 INT:0 NIL TAG:ESC #0xffffe002 #0xffffffff ARR:1 STRA:1 INT:1", .ascii = "a" },
    /* cbor-x's alwaysUseFloat writes a record's id as a float: a whole one gets the marker too
     * (keys first, so that the values may refer to the record); a fraction, none */
    { "d9dfff 83 fb40ec000000000000 81 6161 01", "TAG:57343 ARR:3 F64 F:57344 TAG:ESC #0xffffe000 #0xffffffff ARR:1 STRA:1 INT:1", .ascii = "a" },
    { "d9dfff 83 f97b00 81 6161 01", "TAG:57343 ARR:3 F64 F:57344 TAG:ESC #0xffffe000 #0xffffffff ARR:1 STRA:1 INT:1", .ascii = "a" },
    { "d9dfff 83 fb40ec001000000000 81 6161 01", "TAG:57343 ARR:3 F64 F:57344.5 ARR:1 STRA:1 INT:1", .ascii = "a" },
    { "d9dffe 96 00 00000000000000000000 0000000000000000000000", "TAG:57342 ARR:22 INT:0 INT:0 INT:0 INT:0 INT:0 INT:0 INT:0 INT:0 INT:0 INT:0 INT:0 INT:0 INT:0 INT:0 INT:0 INT:0 INT:0 INT:0 INT:0 INT:0 INT:0 INT:0" },
    { "c1 fa47c35000", "TAG:1 F64 F:100000.0" },
    { "82 c1 01 02", "ARR:2 TAG:1 INT:1 INT:2" },                     /* a tag keeps the array out of runs */
    /* simple values */
    { "e0", "SIMPLE:0" }, { "f3", "SIMPLE:19" }, { "f820", "SIMPLE:32" }, { "f8fe", "SIMPLE:254" },
    /* floats: half subnormals, -0, large half, NaN payloads, float32 subnormal */
    { "f903ff", "F64 F:0x3ffp-24" }, { "f98001", "F64 F:-0x1p-24" }, { "f9fbff", "F64 F:-65504" },
    { "f97c01", "F64 F:nan" }, { "f9fe00", "F64 F:nan" }, { "f93555", "F64 F:0x1.554p-2" },
    { "fa00000001", "F64 F:0x1p-149" }, { "fb0000000000000001", "F64 F:0x1p-1074" },
    { "fa80000000", "F64 F:-0.0" },
    /* number runs: every numeric head form; a 1b/3b element or a non-number keeps it an ARR */
    { "88 17 1818 190100 1a00010000 37 3818 390100 3a00010000",
      "NUMRUN:8 F:23 F:24 F:256 F:65536 F:-24 F:-25 F:-257 F:-65537" },
    { "83 f93e00 fa47c35000 fb3ff199999999999a", "NUMRUN:3 F:1.5 F:100000 F:1.1" },
    { "82 01 1b0000000000000002", "ARR:2 INT:1 U64 #2 #0" },
    { "82 01 3b0000000000000002", "ARR:2 INT:1 I64 #0xfffffffd #0xffffffff" },
    /* false, true, null and undefined join a run (a SCALARRUN: each a NaN whose low word says
     * which, a NaN number canonical), and can start one when the second element can be in it */
    { "82 01 f6", "SCALARRUN:2 F:1 RS:1" },
    { "85 01 f4 f5 f6 f7", "SCALARRUN:5 F:1 RS:2 RS:3 RS:1 RS:4" },
    { "83 f97e01 f6 fb7ff8000000000001", "SCALARRUN:3 RS:0 RS:1 RS:0" },  /* NaN payloads dropped */
    { "83 f97e01 fb7ff8000000000001 01", "NUMRUN:3 F:nan F:nan F:1" },      /* numbers only: as read */
    { "82 f6 01", "SCALARRUN:2 RS:1 F:1" },
    { "84 f5 f4 f6 f7", "SCALARRUN:4 RS:3 RS:2 RS:1 RS:4" },
    { "83 f7 f97e00 f5", "SCALARRUN:3 RS:4 RS:0 RS:3" },
    { "82 f6 60", "ARR:2 NIL STRA:0" },                                      /* the second ends it */
    { "83 f5 01 60", "ARR:3 TRUE INT:1 STRA:0" },                            /* given up at the third */
    { "81 f6", "ARR:1 NIL" },
    { "83 01 f6 e0", "ARR:3 INT:1 NIL SIMPLE:0" },                          /* another simple value */
    { "83 01 f6 60", "ARR:3 INT:1 NIL STRA:0" },
    { "81 01", "ARR:1 INT:1" },
    { "82 3affffffff 01", "NUMRUN:2 F:-4294967296 F:1" },
    /* indefinite strings */
    { "5fff", "BINC:ESC #0" },
    { "5f40ff", "BINC:ESC #1 #0 #2" },
    { "5f 5800 41aa ff", "BINC:ESC #2 #0 #3 #1 #4" },
    { "7fff", "STRU:ESC #0" },
    { "7f 6161 60 62c3a9 ff", "STRU:ESC #2", .u16 = { 'a', 0xe9 }, .nu16 = 2 },
    { "7f 61c3 61a9 ff", "STRU:ESC #2", .u16 = { 0xfffd, 0xfffd }, .nu16 = 2 }, /* chunks transcoded alone */
    { "82 7f6161ff 6162", "ARR:2 STRU:ESC #1 STRA:1", .ascii = "b", .u16 = { 'a' }, .nu16 = 1 },
    /* maps: key kinds decide MAP / OBJ / SHAPED. Text keys are interned; numbers, booleans, null
     * and undefined keys (coerced to property names by the host) keep an OBJ; tags, byte strings,
     * arrays, maps and other simple values make a MAP */
    { "a1 c1 01 02", "MAP:1 TAG:1 INT:1 INT:2" },                      /* tagged key */
    { "a1 a1 01 02 03", "MAP:1 MAP:1 INT:1 INT:2 INT:3", "MAP:1 OBJ:1 INT:1 INT:2 INT:3" }, /* map as a key */
    { "a1 820102 03", "MAP:1 NUMRUN:2 F:1 F:2 INT:3" },               /* array as a key */
    { "a1 f4 01", "MAP:1 FALSE INT:1", "OBJ:1 FALSE INT:1" },
    { "a1 f5 01", "MAP:1 TRUE INT:1", "OBJ:1 TRUE INT:1" },
    { "a1 f6 01", "MAP:1 NIL INT:1", "OBJ:1 NIL INT:1" },
    { "a1 f7 01", "MAP:1 UNDEF INT:1", "OBJ:1 UNDEF INT:1" },
    { "a1 f93e00 01", "MAP:1 F64 F:1.5 INT:1", "OBJ:1 F64 F:1.5 INT:1" },
    { "a1 fa47c35000 01", "MAP:1 F64 F:100000 INT:1", "OBJ:1 F64 F:100000 INT:1" },
    { "a1 fb3ff199999999999a 01", "MAP:1 F64 F:1.1 INT:1", "OBJ:1 F64 F:1.1 INT:1" },
    { "a1 3a80000000 01", "MAP:1 F64 F:-2147483649 INT:1", "OBJ:1 F64 F:-2147483649 INT:1" },
    { "a1 1b0000000000000005 01", "MAP:1 U64 #5 #0 INT:1", "OBJ:1 U64 #5 #0 INT:1" },
    { "a1 3bffffffffffffffff 01", "MAP:1 N64 #0xffffffff #0xffffffff INT:1", "OBJ:1 N64 #0xffffffff #0xffffffff INT:1" },
    { "a1 e0 01", "MAP:1 SIMPLE:0 INT:1" },                            /* other simple values: MAP */
    { "a1 f820 01", "MAP:1 SIMPLE:32 INT:1" },
    { "a2 01 02 c1 03 04", "MAP:2 INT:1 INT:2 TAG:1 INT:3 INT:4" },
    { "a2 6161 01 f6 02", "MAP:2 KEY:0 INT:1 NIL INT:2", "OBJ:2 KEY:0 INT:1 NIL INT:2", .keys = "a" },
    { "a1 40 01", "MAP:1 BIN #0 #2 INT:1" },                           /* byte string key */
    { "a1 5fff 01", "MAP:1 BINC:ESC #0 INT:1" },
    { "a1 6161 c1 01", "MAP:1 KEY:0 TAG:1 INT:1", "SHAPED:0 KEY:0 TAG:1 INT:1", .keys = "a" },
    { "a1 7f6161ff 01", "MAP:1 STRU:ESC #1 INT:1", "OBJ:1 STRU:ESC #1 INT:1", .u16 = { 'a' }, .nu16 = 1 },
    { "a2 6161 01 7f6162ff 02", "MAP:2 KEY:0 INT:1 STRU:ESC #1 INT:2", "OBJ:2 KEY:0 INT:1 STRU:ESC #1 INT:2",
      .u16 = { 'b' }, .nu16 = 1, .keys = "a" },
    { "a2 6161 01 02 03", "MAP:2 KEY:0 INT:1 INT:2 INT:3", "OBJ:2 KEY:0 INT:1 INT:2 INT:3", .keys = "a" },
    { "a1 62c3a9 01", "MAP:1 KEY:0 INT:1", "SHAPED:0 KEY:0 INT:1", .keys = "\xc3\xa9" },
    { "bf ff", "MAP:ESC #0", "OBJ:ESC #0" },                            /* like a0: no shape */
    { "bf 01 02 ff", "MAP:ESC #1 INT:1 INT:2", "OBJ:ESC #1 INT:1 INT:2" },
    { "bf 40 02 ff", "MAP:ESC #1 BIN #0 #2 INT:2" },
    { "bf 6161 01 02 03 ff", "MAP:ESC #2 KEY:0 INT:1 INT:2 INT:3", "OBJ:ESC #2 KEY:0 INT:1 INT:2 INT:3", .keys = "a" },
    { "bf 7f6161ff 01 ff", "MAP:ESC #1 STRU:ESC #1 INT:1", "OBJ:ESC #1 STRU:ESC #1 INT:1", .u16 = { 'a' }, .nu16 = 1 },
    { "bf 6161 bf 6162 01 ff ff", "MAP:ESC #1 KEY:0 MAP:ESC #1 KEY:1 INT:1", "PAD SHAPED:1 KEY:0 PAD SHAPED:0 KEY:1 INT:1",
      .keys = "a|b" },
    { "9f bf ff bf ff ff", "ARR:ESC #2 MAP:ESC #0 MAP:ESC #0", "ARR:ESC #2 OBJ:ESC #0 OBJ:ESC #0" },
    { "c1 bf 6161 f6 ff", "TAG:1 MAP:ESC #1 KEY:0 NIL", "TAG:1 PAD SHAPED:0 KEY:0 NIL", .keys = "a" },
    /* text keys with a one-byte length head (78 n) are interned like short ones, in definite and
     * indefinite maps; longer heads (79..7b) and keys over 64 bytes are strings (the map no shape) */
    { "a1 7801 61 01", "MAP:1 KEY:0 INT:1", "SHAPED:0 KEY:0 INT:1", .keys = "a" },
    { "a2 7801 61 01 7800 f6", "MAP:2 KEY:0 INT:1 KEY:1 NIL", "SHAPED:0 KEY:0 INT:1 KEY:1 NIL", .keys = "a|" },
    { "bf 7801 61 01 ff", "MAP:ESC #1 KEY:0 INT:1", "PAD SHAPED:0 KEY:0 INT:1", .keys = "a" },
    { "a1 790001 61 01", "MAP:1 STRA:1 INT:1", "OBJ:1 STRA:1 INT:1", .ascii = "a" },
    { "a2 6161 01 7a00000001 62 02", "MAP:2 KEY:0 INT:1 STRA:1 INT:2", "OBJ:2 KEY:0 INT:1 STRA:1 INT:2", .ascii = "b", .keys = "a" },
    { "a1 7841 61616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161 61 01",
      "MAP:1 STRA:65 INT:1", "OBJ:1 STRA:65 INT:1", .ascii = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" },
    /* a key and its value taken in one step: the value of every kind after it */
    { "a4 6161 a1 6162 f5 6163 81 f4 6164 c1 00 6165 7f ff", "MAP:4 KEY:0 MAP:1 KEY:1 TRUE KEY:2 ARR:1 FALSE KEY:3 TAG:1 INT:0 KEY:4 STRU:ESC #0",
      "SHAPED:1 KEY:0 SHAPED:0 KEY:1 TRUE KEY:2 ARR:1 FALSE KEY:3 TAG:1 INT:0 KEY:4 STRU:ESC #0", .keys = "a|b|c|d|e" },
};

static void check_areas(const acase *c, const wp_decoder *d) {
    uint32_t al = c->ascii ? (uint32_t)strlen(c->ascii) : 0;
    CHECK_EQ_U(d->ascii_len, al);
    if (d->ascii_len == al && al) CHECK(memcmp(d->ascii, c->ascii, al) == 0, "ascii area");
    CHECK_EQ_U(d->utf16_len, c->nu16);
    for (uint32_t i = 0; i < c->nu16 && i < d->utf16_len; i++)
        CHECK(d->utf16[i] == c->u16[i], "utf16 unit %u: got %04x want %04x", i, d->utf16[i], c->u16[i]);
    uint32_t nk = 0;
    if (c->keys) {
        const char *s = c->keys;
        for (;;) {
            const char *e = strchr(s, '|');
            uint32_t kl = e ? (uint32_t)(e - s) : (uint32_t)strlen(s);
            if (nk < T.nkeys) {
                CHECK(T.key_len[nk] == kl && memcmp(T.key_pool + T.key_off[nk], s, kl) == 0, "key %u is %.*s", nk,
                      (int)kl, s);
            }
            nk++;
            if (!e) break;
            s = e + 1;
        }
    }
    CHECK_EQ_U(T.nkeys, nk);
}

static void run_acase(const char *set, size_t idx, const acase *c) {
    tu_buf b = { 0 };
    tu_buf_hex(&b, c->hex);
    for (int mode = 0; mode < 2; mode++) {
        uint32_t flags = mode ? O : 0;
        tu_case("%s[%zu] '%s' flags %u", set, idx, c->hex, flags);
        wp_tables_reset(&T);
        tu_dec x;
        wp_err rc = tu_cbor_decode(&x, &T, b.p, b.len, flags);
        if (!c->want) {
            CHECK_ERR(rc, c->err);
            CHECK_EQ_U(x.d.err.offset, c->eoff);
            CHECK_EQ_U(x.d.nvalues, 0);
        } else {
            CHECK_ERR(rc, WP_OK);
            if (rc == WP_OK) {
                CHECK_EQ_U(x.d.nvalues, 1);
                CHECK_EQ_U(x.d.end, b.len);
                CHECK_XTAPE(&x.d, mode && c->want_obj ? c->want_obj : c->want);
                check_areas(c, &x.d);
                if (!mode) CHECK_EQ_U(T.nshapes, 0); /* shapes only for objects */
            }
        }
        tu_dec_free(&x);
        tu_end();
    }
    tu_buf_free(&b);
}

/* WP_DEC_TAG_F32 and WP_DEC_NO_INTERN variants. */
typedef struct { const char *hex; uint32_t flags; const char *want; } fcase;
static const fcase flag_cases[] = {
    { "fa47c35000", WP_DEC_TAG_F32, "F32 F:100000" },
    { "fa7fc00000", WP_DEC_TAG_F32, "F32 F:nan" },
    { "f93e00", WP_DEC_TAG_F32, "F64 F:1.5" },                        /* half stays F64 */
    { "fb3ff8000000000000", WP_DEC_TAG_F32, "F64 F:1.5" },
    { "82 01 fa3fc00000", WP_DEC_TAG_F32, "ARR:2 INT:1 F32 F:1.5" },   /* float32 keeps it out of runs */
    { "82 01 fa3fc00000", 0, "NUMRUN:2 F:1 F:1.5" },
    { "82 01 f93e00", WP_DEC_TAG_F32, "NUMRUN:2 F:1 F:1.5" },
    { "a2 6161 01 6162 02", O | WP_DEC_NO_INTERN, "OBJ:2 STRA:1 INT:1 STRA:1 INT:2" },
    { "bf 6161 01 6162 02 ff", O | WP_DEC_NO_INTERN, "OBJ:ESC #2 STRA:1 INT:1 STRA:1 INT:2" },
    { "a2 6161 01 6162 02", WP_DEC_NO_INTERN, "MAP:2 STRA:1 INT:1 STRA:1 INT:2" },
    /* tag 1 over float seconds: the millisecond whose seconds they are (as cbor.js's secondsToMs),
     * also where s * 1000 rounds to the next one (the Dates 4415317949128069 and -4479166911176097
     * ms, written as ms / 1000) */
    { "c1 f93e00", WP_DEC_CBOR_DATES, "DATE F:1500" },
    { "c1 fb42901015d4eb2047", WP_DEC_CBOR_DATES, "DATE F:4415317949128069" },
    { "c1 fbc2904b8c9c4b2063", WP_DEC_CBOR_DATES, "DATE F:-4479166911176097" },
};

static void test_flag_cases(void) {
    tu_buf b = { 0 };
    for (size_t i = 0; i < sizeof flag_cases / sizeof flag_cases[0]; i++) {
        const fcase *c = &flag_cases[i];
        tu_case("flags %u '%s'", c->flags, c->hex);
        b.len = 0;
        tu_buf_hex(&b, c->hex);
        wp_tables_reset(&T);
        tu_dec x;
        CHECK_ERR(tu_cbor_decode(&x, &T, b.p, b.len, c->flags), WP_OK);
        if (x.rc == WP_OK) CHECK_XTAPE(&x.d, c->want);
        if (c->flags & WP_DEC_NO_INTERN) { CHECK_EQ_U(T.nkeys, 0); CHECK_EQ_U(T.nshapes, 0); }
        tu_dec_free(&x);
        tu_end();
    }
    tu_buf_free(&b);
}

/* Maps of 256 string keys are SHAPED, 257 OBJ (definite and indefinite); strings at every head
 * boundary (ascii and non-ascii). */
static void test_sizes(void) {
    tu_buf b = { 0 };
    tu_dec x;
    for (int indef = 0; indef < 2; indef++) {
        for (uint32_t n = 256; n <= 257; n++) {
            tu_case("%s map of %u string keys", indef ? "indefinite" : "definite", n);
            wp_tables_reset(&T);
            b.len = 0;
            if (indef) tu_buf_u8(&b, 0xbf);
            else { tu_buf_u8(&b, 0xb9); tu_buf_be(&b, n, 2); }
            for (uint32_t i = 0; i < n; i++) {
                char k[8];
                int kl = snprintf(k, sizeof k, "k%u", i);
                tu_buf_u8(&b, 0x60 | (uint32_t)kl);
                tu_buf_bytes(&b, k, (uint32_t)kl);
                tu_buf_u8(&b, 0xf6);
            }
            if (indef) tu_buf_u8(&b, 0xff);
            CHECK_ERR(tu_cbor_decode(&x, &T, b.p, b.len, O), WP_OK);
            uint32_t h = indef ? 2 : 1;
            CHECK_EQ_U(x.d.tape_len, h + 2 * n);
            if (n == 256) {
                if (indef) { CHECK_EQ_U(x.d.tape[0], WP_T_PAD); CHECK_EQ_U(x.d.tape[1], WP_T_SHAPED); }
                else CHECK_EQ_U(x.d.tape[0], WP_T_SHAPED);
                CHECK_EQ_U(T.nshapes, 1);
            } else {
                if (indef) { CHECK_EQ_U(x.d.tape[0], WP_T_OBJ | WP_LEN_ESCAPE << 8); CHECK_EQ_U(x.d.tape[1], n); }
                else CHECK_EQ_U(x.d.tape[0], WP_T_OBJ | n << 8);
                CHECK_EQ_U(T.nshapes, 0);
            }
            CHECK_EQ_U(x.d.tape[h], WP_T_KEY);
            CHECK_EQ_U(x.d.tape[h + 2 * (n - 1)], WP_T_KEY | (n - 1) << 8);
            tu_dec_free(&x);
            tu_end();
        }
    }
    static const uint32_t lens[] = { 0, 1, 23, 24, 255, 256, 65535, 65536, 100000 };
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        for (int kind = 0; kind < 3; kind++) { /* ascii text, non-ascii text, bytes */
            uint32_t n = lens[i];
            if (kind == 1 && (n & 1)) n++;
            tu_case("string len %u kind %d", n, kind);
            b.len = 0;
            uint32_t m = kind == 2 ? 0x40 : 0x60;
            if (n < 24) tu_buf_u8(&b, m | n);
            else if (n <= 0xff) { tu_buf_u8(&b, m | 24); tu_buf_be(&b, n, 1); }
            else if (n <= 0xffff) { tu_buf_u8(&b, m | 25); tu_buf_be(&b, n, 2); }
            else { tu_buf_u8(&b, m | 26); tu_buf_be(&b, n, 4); }
            uint32_t hl = b.len;
            for (uint32_t k = 0; k < n; k++) {
                if (kind == 1) tu_buf_u8(&b, (k & 1) ? 0x80 + (k / 2) % 64 : 0xd0);
                else tu_buf_u8(&b, 'a' + k % 26);
            }
            CHECK_ERR(tu_cbor_decode(&x, &T, b.p, b.len, 0), WP_OK);
            if (x.rc == WP_OK) {
                if (kind == 2) {
                    CHECK_EQ_U(x.d.tape_len, 3);
                    CHECK_EQ_U(x.d.tape[0], WP_T_BIN);
                    CHECK_EQ_U(x.d.tape[1], n);
                    CHECK_EQ_U(x.d.tape[2], hl);
                } else if (kind == 0 || n == 0) {
                    CHECK_EQ_U(x.d.tape_len, 1);
                    CHECK_EQ_U(x.d.tape[0], WP_T_STRA | n << 8);
                    CHECK(n == 0 || memcmp(x.d.ascii, b.p + hl, n) == 0);
                } else {
                    CHECK_EQ_U(x.d.tape_len, 1);
                    CHECK_EQ_U(x.d.tape[0], WP_T_STRU | (n / 2) << 8);
                    int same = 1;
                    for (uint32_t k = 0; k < n / 2 && k < x.d.utf16_len; k++)
                        if (x.d.utf16[k] != 0x400 + k % 64) same = 0;
                    CHECK(same && x.d.utf16_len == n / 2, "utf16 content");
                }
            }
            tu_dec_free(&x);
            tu_end();
        }
    }
    tu_buf_free(&b);
}

/* ===================================================================== not well-formed */

typedef struct { char hex[64]; uint32_t flags; wp_err err; uint32_t off; } ecase;
static ecase *g_err;
static uint32_t g_nerr, g_caperr;

static void add_err(const char *hex, wp_err err, uint32_t off) {
    if (g_nerr == g_caperr) {
        g_caperr = g_caperr ? 2 * g_caperr : 256;
        g_err = (ecase *)realloc(g_err, g_caperr * sizeof *g_err);
    }
    ecase *c = &g_err[g_nerr++];
    snprintf(c->hex, sizeof c->hex, "%s", hex);
    c->flags = 0;
    c->err = err;
    c->off = off;
}

/* RFC 8949 Appendix F.1, in its order, with the code and offset this decoder reports. */
static const struct { const char *hex; wp_err err; uint32_t off; } appendix_f[] = {
    /* end of input in a head */
    { "18", WP_ERR_TRUNCATED, 0 }, { "19", WP_ERR_TRUNCATED, 0 }, { "1a", WP_ERR_TRUNCATED, 0 },
    { "1b", WP_ERR_TRUNCATED, 0 }, { "1901", WP_ERR_TRUNCATED, 0 }, { "1a0102", WP_ERR_TRUNCATED, 0 },
    { "1b01020304050607", WP_ERR_TRUNCATED, 0 }, { "38", WP_ERR_TRUNCATED, 0 }, { "58", WP_ERR_TRUNCATED, 0 },
    { "78", WP_ERR_TRUNCATED, 0 }, { "98", WP_ERR_TRUNCATED, 0 }, { "9a01ff00", WP_ERR_TRUNCATED, 0 },
    { "b8", WP_ERR_TRUNCATED, 0 }, { "d8", WP_ERR_TRUNCATED, 0 }, { "f8", WP_ERR_TRUNCATED, 0 },
    { "f900", WP_ERR_TRUNCATED, 0 }, { "fa0000", WP_ERR_TRUNCATED, 0 }, { "fb000000", WP_ERR_TRUNCATED, 0 },
    /* definite-length strings with short data */
    { "41", WP_ERR_TRUNCATED, 0 }, { "61", WP_ERR_TRUNCATED, 0 }, { "5affffffff00", WP_ERR_TRUNCATED, 0 },
    { "5bffffffffffffffff010203", WP_ERR_TRUNCATED, 0 }, { "7affffffff00", WP_ERR_TRUNCATED, 0 },
    { "7b7fffffffffffffff010203", WP_ERR_TRUNCATED, 0 },
    /* definite-length maps and arrays not closed with enough items */
    { "81", WP_ERR_TRUNCATED, 0 }, { "818181818181818181", WP_ERR_TRUNCATED, 8 }, { "8200", WP_ERR_TRUNCATED, 0 },
    { "a1", WP_ERR_TRUNCATED, 0 }, { "a20102", WP_ERR_TRUNCATED, 0 }, { "a100", WP_ERR_TRUNCATED, 0 },
    { "a2000000", WP_ERR_TRUNCATED, 0 },
    /* tag number not followed by tag content */
    { "c0", WP_ERR_TRUNCATED, 0 },
    /* indefinite-length strings not closed by a break */
    { "5f4100", WP_ERR_TRUNCATED, 0 }, { "7f6100", WP_ERR_TRUNCATED, 0 },
    /* indefinite-length maps and arrays not closed by a break */
    { "9f", WP_ERR_TRUNCATED, 0 }, { "9f0102", WP_ERR_TRUNCATED, 0 }, { "bf", WP_ERR_TRUNCATED, 0 },
    { "bf01020102", WP_ERR_TRUNCATED, 0 }, { "819f", WP_ERR_TRUNCATED, 1 }, { "9f8000", WP_ERR_TRUNCATED, 0 },
    { "9f9f9f9f9fffffffff", WP_ERR_TRUNCATED, 0 }, { "9f819f819f9fffffff", WP_ERR_TRUNCATED, 0 },
    /* reserved additional information values */
    { "1c", WP_ERR_RESERVED_AI, 0 }, { "1d", WP_ERR_RESERVED_AI, 0 }, { "1e", WP_ERR_RESERVED_AI, 0 },
    { "3c", WP_ERR_RESERVED_AI, 0 }, { "3d", WP_ERR_RESERVED_AI, 0 }, { "3e", WP_ERR_RESERVED_AI, 0 },
    { "5c", WP_ERR_RESERVED_AI, 0 }, { "5d", WP_ERR_RESERVED_AI, 0 }, { "5e", WP_ERR_RESERVED_AI, 0 },
    { "7c", WP_ERR_RESERVED_AI, 0 }, { "7d", WP_ERR_RESERVED_AI, 0 }, { "7e", WP_ERR_RESERVED_AI, 0 },
    { "9c", WP_ERR_RESERVED_AI, 0 }, { "9d", WP_ERR_RESERVED_AI, 0 }, { "9e", WP_ERR_RESERVED_AI, 0 },
    { "bc", WP_ERR_RESERVED_AI, 0 }, { "bd", WP_ERR_RESERVED_AI, 0 }, { "be", WP_ERR_RESERVED_AI, 0 },
    { "dc", WP_ERR_RESERVED_AI, 0 }, { "dd", WP_ERR_RESERVED_AI, 0 }, { "de", WP_ERR_RESERVED_AI, 0 },
    { "fc", WP_ERR_RESERVED_AI, 0 }, { "fd", WP_ERR_RESERVED_AI, 0 }, { "fe", WP_ERR_RESERVED_AI, 0 },
    /* reserved two-byte encodings of simple values */
    { "f800", WP_ERR_BAD_SIMPLE, 0 }, { "f801", WP_ERR_BAD_SIMPLE, 0 }, { "f818", WP_ERR_BAD_SIMPLE, 0 },
    { "f81f", WP_ERR_BAD_SIMPLE, 0 },
    /* indefinite-length string chunks not of the correct type */
    { "5f00ff", WP_ERR_BAD_CHUNK, 1 }, { "5f21ff", WP_ERR_BAD_CHUNK, 1 }, { "5f6100ff", WP_ERR_BAD_CHUNK, 1 },
    { "5f80ff", WP_ERR_BAD_CHUNK, 1 }, { "5fa0ff", WP_ERR_BAD_CHUNK, 1 }, { "5fc000ff", WP_ERR_BAD_CHUNK, 1 },
    { "5fe0ff", WP_ERR_BAD_CHUNK, 1 }, { "7f4100ff", WP_ERR_BAD_CHUNK, 1 },
    /* indefinite-length string chunks not definite length */
    { "5f5f4100ffff", WP_ERR_BAD_CHUNK, 1 }, { "7f7f6100ffff", WP_ERR_BAD_CHUNK, 1 },
    /* break on its own outside an indefinite-length item */
    { "ff", WP_ERR_BREAK, 0 },
    /* break in a definite-length array or map or a tag */
    { "81ff", WP_ERR_BREAK, 1 }, { "8200ff", WP_ERR_BREAK, 2 }, { "a1ff", WP_ERR_BREAK, 1 },
    { "a1ff00", WP_ERR_BREAK, 1 }, { "a100ff", WP_ERR_BREAK, 2 }, { "a20000ff", WP_ERR_BREAK, 3 },
    { "9f81ff", WP_ERR_BREAK, 2 }, { "9f829f819f9fffffffff", WP_ERR_BREAK, 9 },
    /* break in an indefinite-length map in a value position */
    { "bf00ff", WP_ERR_BREAK, 2 }, { "bf000000ff", WP_ERR_BREAK, 4 },
    /* major types 0, 1, 6 with additional information 31 */
    { "1f", WP_ERR_RESERVED_AI, 0 }, { "3f", WP_ERR_RESERVED_AI, 0 }, { "df", WP_ERR_RESERVED_AI, 0 },
};

static void build_err_cases(void) {
    char h[64];
    for (size_t i = 0; i < sizeof appendix_f / sizeof appendix_f[0]; i++)
        add_err(appendix_f[i].hex, appendix_f[i].err, appendix_f[i].off);
    /* reserved AI 28..30 for every major type: alone, in an array, as a map key and value, in a
     * tag, as a chunk of an indefinite string, with trailing bytes */
    for (uint32_t major = 0; major < 8; major++) {
        for (uint32_t ai = 28; ai <= 30; ai++) {
            uint32_t ib = major << 5 | ai;
            snprintf(h, sizeof h, "%02x", ib); add_err(h, WP_ERR_RESERVED_AI, 0);
            snprintf(h, sizeof h, "%02x0000000000000000", ib); add_err(h, WP_ERR_RESERVED_AI, 0);
            snprintf(h, sizeof h, "8200%02x", ib); add_err(h, WP_ERR_RESERVED_AI, 2);
            snprintf(h, sizeof h, "9f00%02xff", ib); add_err(h, WP_ERR_RESERVED_AI, 2);
            snprintf(h, sizeof h, "a1%02x00", ib); add_err(h, WP_ERR_RESERVED_AI, 1);
            snprintf(h, sizeof h, "a16161%02x", ib); add_err(h, WP_ERR_RESERVED_AI, 3);
            snprintf(h, sizeof h, "c1%02x", ib); add_err(h, WP_ERR_RESERVED_AI, 1);
            snprintf(h, sizeof h, "5f4100%02xff", ib); add_err(h, WP_ERR_RESERVED_AI, 3); /* head read first */
        }
    }
    /* ai 31 on majors 0, 1, 6; and as a chunk head of another major */
    static const char *const ai31[] = { "1f", "3f", "df" };
    for (int i = 0; i < 3; i++) {
        snprintf(h, sizeof h, "%s", ai31[i]); add_err(h, WP_ERR_RESERVED_AI, 0);
        snprintf(h, sizeof h, "9f%sff", ai31[i]); add_err(h, WP_ERR_RESERVED_AI, 1);
        snprintf(h, sizeof h, "a1%s00", ai31[i]); add_err(h, WP_ERR_RESERVED_AI, 1);
        snprintf(h, sizeof h, "c1c2%s", ai31[i]); add_err(h, WP_ERR_RESERVED_AI, 2);
        snprintf(h, sizeof h, "5f%sff", ai31[i]); add_err(h, WP_ERR_BAD_CHUNK, 1);
    }
    /* f8 00 .. f8 1f */
    for (uint32_t v = 0; v < 32; v++) {
        snprintf(h, sizeof h, "f8%02x", v); add_err(h, WP_ERR_BAD_SIMPLE, 0);
        snprintf(h, sizeof h, "8201f8%02x", v); add_err(h, WP_ERR_BAD_SIMPLE, 2);
        snprintf(h, sizeof h, "a1f8%02x01", v); add_err(h, WP_ERR_BAD_SIMPLE, 1);
    }
    /* text keys: a head or a value cut off, a break for a value */
    add_err("a1 78", WP_ERR_TRUNCATED, 1);
    add_err("a1 7802 61", WP_ERR_TRUNCATED, 1);
    add_err("a1 7801 61", WP_ERR_TRUNCATED, 0);
    add_err("82 00 a1 6161", WP_ERR_TRUNCATED, 2);
    add_err("bf 7801 61", WP_ERR_TRUNCATED, 0);
    add_err("bf 7801 61 ff", WP_ERR_BREAK, 4);
    add_err("a1 6161 ff", WP_ERR_BREAK, 3);
    /* breaks */
    add_err("ff00", WP_ERR_BREAK, 0);
    add_err("c1ff", WP_ERR_BREAK, 1);
    add_err("9fc1ffff", WP_ERR_BREAK, 2);          /* after a tag inside an indefinite array */
    add_err("bf01ff", WP_ERR_BREAK, 2);            /* lone key */
    add_err("bf616101 6162ff", WP_ERR_BREAK, 6);
    add_err("bf c101 ff", WP_ERR_BREAK, 3);
    add_err("bf 9fff ff", WP_ERR_BREAK, 3);        /* lone container key */
    add_err("9f 81ff ff", WP_ERR_BREAK, 2);
    add_err("9f a1 01 ff", WP_ERR_BREAK, 3);
    add_err("82 9fff ff", WP_ERR_BREAK, 3);
    add_err("5f ff ff", WP_ERR_TRAILING_DATA, 2);  /* one break too many: a complete value first */
    add_err("9fff ff", WP_ERR_TRAILING_DATA, 2);
    /* chunks */
    add_err("5f 4100 6100 ff", WP_ERR_BAD_CHUNK, 3);
    add_err("7f 6100 4100 ff", WP_ERR_BAD_CHUNK, 3);
    add_err("7f 9f ff ff", WP_ERR_BAD_CHUNK, 1);
    add_err("7f f6 ff", WP_ERR_BAD_CHUNK, 1);
    add_err("7f 5f ff ff", WP_ERR_BAD_CHUNK, 1);
    add_err("82 5f 40 7f ff", WP_ERR_BAD_CHUNK, 3);
    add_err("5f 42 00", WP_ERR_TRUNCATED, 1);      /* chunk bytes run out: the chunk is cut */
    add_err("5f 5a ffffffff", WP_ERR_TRUNCATED, 1);
    add_err("5f 5b ffffffffffffffff", WP_ERR_TRUNCATED, 1);
    add_err("5f 59", WP_ERR_TRUNCATED, 1);         /* chunk head cut */
    add_err("5f", WP_ERR_TRUNCATED, 0);
    add_err("5f 40", WP_ERR_TRUNCATED, 0);         /* ends between chunks: the string is cut */
    add_err("81 5f 40", WP_ERR_TRUNCATED, 1);
    /* 8-byte lengths 2^32 .. 2^64-1: TRUNCATED at the head, nothing sized from them */
    static const char *const big[] = { "0000000100000000", "0000000100000001", "00000001ffffffff", "7fffffffffffffff",
                                       "8000000000000000", "ffffffffffffffff" };
    static const char *const heads[] = { "9b", "bb", "5b", "7b" };
    for (int hi = 0; hi < 4; hi++) {
        for (int bi = 0; bi < 6; bi++) {
            snprintf(h, sizeof h, "%s%s", heads[hi], big[bi]); add_err(h, WP_ERR_TRUNCATED, 0);
            snprintf(h, sizeof h, "%s%s000102", heads[hi], big[bi]); add_err(h, WP_ERR_TRUNCATED, 0);
            snprintf(h, sizeof h, "8201%s%s", heads[hi], big[bi]); add_err(h, WP_ERR_TRUNCATED, 2);
            snprintf(h, sizeof h, "a1%s%sf6", heads[hi], big[bi]); add_err(h, WP_ERR_TRUNCATED, 1);
            snprintf(h, sizeof h, "9f%s%sff", heads[hi], big[bi]); add_err(h, WP_ERR_TRUNCATED, 1);
        }
    }
    /* 32-bit counts beyond the input: TRUNCATED at the container when the input runs out */
    add_err("9affffffff", WP_ERR_TRUNCATED, 0);
    add_err("9affffffff 00 01 02", WP_ERR_TRUNCATED, 0);
    add_err("baffffffff 00 01 02", WP_ERR_TRUNCATED, 0);
    add_err("ba80000000 00 01", WP_ERR_TRUNCATED, 0);
    add_err("ba7fffffff 00 01", WP_ERR_TRUNCATED, 0);
    add_err("9b00000000ffffffff 00", WP_ERR_TRUNCATED, 0);
    add_err("9affffffff 00 1c", WP_ERR_RESERVED_AI, 6); /* an error in the items is still reported */
    add_err("ba7fffffff 00 ff", WP_ERR_BREAK, 6);
    add_err("5affffffff", WP_ERR_TRUNCATED, 0);
    add_err("7a00000002 61", WP_ERR_TRUNCATED, 0);
    /* trailing data */
    add_err("00 00", WP_ERR_TRAILING_DATA, 1);
    add_err("8100 00", WP_ERR_TRAILING_DATA, 2);
    add_err("c100 ff", WP_ERR_TRAILING_DATA, 2);
    add_err("a0 1c", WP_ERR_TRAILING_DATA, 1);     /* single value: trailing data found first */
    add_err("9f00ff 00", WP_ERR_TRAILING_DATA, 3);
    add_err("f90000 00", WP_ERR_TRAILING_DATA, 3);
}

static void test_errors(void) {
    build_err_cases();
    tu_buf b = { 0 };
    for (uint32_t i = 0; i < g_nerr; i++) {
        const ecase *c = &g_err[i];
        for (int mode = 0; mode < 2; mode++) {
            uint32_t flags = mode ? O : 0;
            tu_case("not well-formed '%s' flags %u -> %s@%u", c->hex, flags, wp_err_name(c->err), c->off);
            b.len = 0;
            tu_buf_hex(&b, c->hex);
            wp_tables_reset(&T);
            tu_dec x;
            wp_err rc = tu_cbor_decode(&x, &T, b.p, b.len, flags);
            CHECK_ERR(rc, c->err);
            CHECK_ERR(x.d.err.code, c->err);
            CHECK_EQ_U(x.d.err.offset, c->off);
            CHECK_EQ_U(x.d.nvalues, c->err == WP_ERR_TRAILING_DATA ? 1 : 0);
            if (c->err == WP_ERR_TRAILING_DATA) CHECK_EQ_U(x.d.end, c->off);
            else CHECK_EQ_U(T.nkeys, 0);
            tu_dec_free(&x);
            tu_end();
        }
    }
    tu_buf_free(&b);
    free(g_err);
}

/* ===================================================================== truncation */

/* Spans of a well-formed item: [start, end) and the enclosing item (-1 at the top). Indefinite
 * strings are containers of their chunks; tags contain their item. */
typedef struct { uint32_t start, end; int parent; } span;

static uint32_t sp_parse(const uint8_t *p, uint32_t len, uint32_t pos, int parent, span *s, uint32_t *ns) {
    uint32_t start = pos, ib = p[pos], major = ib >> 5, ai = ib & 31;
    uint64_t arg = ai;
    uint32_t hl = 1;
    if (ai >= 24 && ai <= 27) {
        uint32_t nb = 1u << (ai - 24);
        arg = 0;
        for (uint32_t k = 0; k < nb; k++) arg = arg << 8 | p[pos + 1 + k];
        hl += nb;
    }
    int me = (int)(*ns)++;
    s[me].start = start;
    s[me].parent = parent;
    pos += hl;
    if (major == 2 || major == 3) {
        if (ai == 31) {
            while (p[pos] != 0xff) pos = sp_parse(p, len, pos, me, s, ns);
            pos++;
        } else pos += (uint32_t)arg;
    } else if (major == 4 || major == 5) {
        uint64_t items = major == 5 ? 2 * arg : arg;
        if (ai == 31) {
            while (p[pos] != 0xff) pos = sp_parse(p, len, pos, me, s, ns);
            pos++;
        } else {
            for (uint64_t k = 0; k < items; k++) pos = sp_parse(p, len, pos, me, s, ns);
        }
    } else if (major == 6) {
        pos = sp_parse(p, len, pos, me, s, ns);
    }
    s[me].end = pos;
    return pos;
}

/* The offset the decoder must report for the prefix of n bytes: the innermost item holding byte
 * n is cut, unless it starts at n (the input ends between items): then its enclosing item. */
static uint32_t sp_expected(const span *s, uint32_t ns, uint32_t n) {
    int best = -1;
    for (uint32_t i = 0; i < ns; i++)
        if (s[i].start <= n && n < s[i].end && (best < 0 || s[i].start >= s[best].start)) best = (int)i;
    if (best < 0) return 0;
    if (s[best].start < n) return s[best].start;
    return s[best].parent >= 0 ? s[s[best].parent].start : n;
}

static const char *const prefix_items[] = {
    "1b000000e8d4a51000", "3bffffffffffffffff", "c249010000000000000000", "fb3ff199999999999a", "fa47c35000",
    "f93c00", "f8ff", "c074323031332d30332d32315432303a30343a30305a", "c1fb41d452d9ec200000",
    "d82076687474703a2f2f7777772e6578616d706c652e636f6d", "4401020304", "64f0908591", "8301820203820405",
    "98190102030405060708090a0b0c0d0e0f101112131415161718181819", "a201020304", "a26161016162820203",
    "826161a161626163", "a56161614161626142616361436164614461656145", "5f42010243030405ff",
    "7f657374726561646d696e67ff", "9f018202039f0405ffff", "9f01820203820405ff", "83018202039f0405ff",
    "83019f0203ff820405", "bf61610161629f0203ffff", "826161bf61626163ff", "bf6346756ef563416d7421ff",
    /* deeper mixes */
    "d9d9f7 a3 6161 c1 9f 01 5f 4101 40 ff 7f 6161 62c3a9 ff ff 6162 bf 01 82 f93e00 1bffffffffffffffff ff 80 c2 43 010203",
    "9f 9f 9f 81 81 a1 c1 01 c2 02 ff ff ff",
    "a2 a1 0102 03 82 fb3ff199999999999a 3a80000000 bf ff",
    "85 dbfffffffffffcffff f6 f8 20 e0 3b8000000000000000 78 18 6162636465666768696a6b6c6d6e6f707172737475767778",
    /* keys with one-byte length heads, and values after keys, in definite and indefinite maps */
    "82 a2 7801 61 a1 7803 616263 f6 6162 bf 7802 6364 01 6165 6166 ff a1 6167 9f 6168 ff",
};

static void test_prefixes(void) {
    tu_buf b = { 0 };
    span *s = (span *)malloc(4096 * sizeof *s);
    for (size_t m = 0; m < sizeof prefix_items / sizeof prefix_items[0]; m++) {
        b.len = 0;
        tu_buf_hex(&b, prefix_items[m]);
        uint32_t ns = 0;
        uint32_t end = sp_parse(b.p, b.len, 0, -1, s, &ns);
        for (int mode = 0; mode < 2; mode++) {
            uint32_t flags = mode ? O : 0;
            tu_case("every prefix of '%s' flags %u", prefix_items[m], flags);
            CHECK_EQ_U(end, b.len);
            wp_tables_reset(&T);
            tu_dec x;
            CHECK_ERR(tu_cbor_decode(&x, &T, b.p, b.len, flags), WP_OK); /* the whole item is valid */
            tu_dec_free(&x);
            uint32_t keys = T.nkeys, shapes = T.nshapes, kpool = T.key_pool_used, spool = T.shape_pool_used;
            for (uint32_t n = 0; n < b.len; n++) {
                wp_err rc = tu_cbor_decode(&x, &T, b.p, n, flags);
                uint32_t want = sp_expected(s, ns, n);
                int ok = CHECK(rc == WP_ERR_TRUNCATED && x.d.err.offset == want, "prefix %u: got %s@%u want TRUNCATED@%u",
                               n, wp_err_name(rc), x.d.err.offset, want);
                CHECK_EQ_U(x.d.nvalues, 0);
                CHECK(T.nkeys == keys && T.nshapes == shapes && T.key_pool_used == kpool && T.shape_pool_used == spool,
                      "prefix %u: tables changed", n);
                tu_dec_free(&x);
                if (!ok) break;
            }
            tu_end();
        }
    }
    /* WP_DEC_MULTIPLE: a cut inside the 3rd item fails with the complete ones counted; a cut at an
     * item boundary is a shorter, valid sequence */
    tu_case("WP_DEC_MULTIPLE prefixes of a sequence");
    {
        b.len = 0;
        tu_buf_hex(&b, "01 826161 f6 bf 6161 9f 02 ff ff c1 1a 00010000");
        static const uint32_t starts[] = { 0, 1, 5, 12 };
        wp_tables_reset(&T);
        for (uint32_t n = 1; n <= b.len; n++) {
            tu_dec x;
            wp_err rc = tu_cbor_decode(&x, &T, b.p, n, O | WP_DEC_MULTIPLE);
            uint32_t complete = 0;
            while (complete < 4 && (complete == 3 ? b.len : starts[complete + 1]) <= n) complete++;
            uint32_t boundary = complete == 4 || starts[complete] == n;
            if (boundary) {
                CHECK(rc == WP_OK, "prefix %u: %s", n, wp_err_name(rc));
            } else {
                CHECK(rc == WP_ERR_TRUNCATED, "prefix %u: %s", n, wp_err_name(rc));
            }
            CHECK_EQ_U(x.d.nvalues, complete);
            CHECK_EQ_U(x.d.end, complete ? (complete == 4 ? b.len : starts[complete]) : 0);
            tu_dec_free(&x);
        }
    }
    tu_end();
    free(s);
    tu_buf_free(&b);
}

/* ===================================================================== bundles and number runs */

/* The flags that decide whether an array is read as a number run (WP_DEC_TAG_F32 keeps float32
 * out of runs) must not change what a bundle reads: a bundle's own array is never a run, and a
 * run inside its value ends before the bundle's strings, as items read one by one do. */
static void test_bundle_runs(void) {
    static const struct { const char *hex; wp_err err; uint32_t off; } cases[] = {
        { "d9dff9 83 00 00 00", WP_ERR_BAD_BUNDLE, 4 },               /* offset 0: before its own end */
        { "d9dff9 83 01 00 fa7f800000", WP_ERR_BAD_BUNDLE, 5 },       /* (a fuzz finding, reduced) */
        { "d9dff9 82 04 83 01 19 6060 02", WP_ERR_BAD_BUNDLE, 10 },    /* the run would cross the strings */
        { "d9dff9 82 05 83 01 02 03 60 60", WP_OK, 0 },                /* a run before them */
        { "d9dff9 82 05 83 01 02 fa3fc00000 60 60", WP_ERR_BAD_BUNDLE, 9 },
        /* a bundle's array of 4 (elements 1 and 2: the previous bundle's strings) */
        { "d9dff9 84 1a00000008 60 60 01 60 60", WP_OK, 0 },             /* (none before it: any two strings) */
        { "d9dff9 84 1a00000008 f6 f6 01 60 60", WP_ERR_BAD_BUNDLE, 9 },  /* no strings */
        { "d9dff9 84 1a00000009 7f ff 60 01 60 60", WP_ERR_BAD_BUNDLE, 9 }, /* an indefinite one */
        { "d9dff9 84 1a00000007 78ff 60 60", WP_ERR_TRUNCATED, 9 },        /* one past the end */
        { "d9dff9 84 1a00000007 1c 00 60 60", WP_ERR_RESERVED_AI, 9 },      /* a malformed head */
        /* strings past the end of the input: cut short (a stream's chunk), not a bad bundle */
        { "d9dff9 82 1a00000020 60", WP_ERR_TRUNCATED, 4 },
        /* the second bundle's element 1 is not where the first one's offset pointed */
        { "d9dff9 82 1a00000012 82 cf04 d9dff9 84 1a0000000e f6 60 6461626364 cf04 60 647778797a", WP_ERR_BAD_BUNDLE, 21 },
        { "d9dff9 82 1a00000011 82 cf04 d9dff9 84 1a0000000d 60 6461626364 cf04 60 647778797a", WP_OK, 0 },
    };
    static const uint32_t flag_sets[] = { 0, O, WP_DEC_TAG_F32, O | WP_DEC_TAG_F32, WP_DEC_NO_INTERN | WP_DEC_TAG_F32 };
    tu_buf b = { 0 };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (size_t k = 0; k < sizeof flag_sets / sizeof flag_sets[0]; k++) {
            tu_case("bundle '%s' flags %u -> %s@%u", cases[i].hex, flag_sets[k], wp_err_name(cases[i].err), cases[i].off);
            b.len = 0;
            tu_buf_hex(&b, cases[i].hex);
            wp_tables_reset(&T);
            tu_dec x;
            CHECK_ERR(tu_cbor_decode(&x, &T, b.p, b.len, flag_sets[k]), cases[i].err);
            if (cases[i].err != WP_OK) CHECK_EQ_U(x.d.err.offset, cases[i].off);
            tu_dec_free(&x);
            tu_end();
        }
    }
    /* every cut of two bundles in one message is TRUNCATED (a stream then waits for more): cuts
     * after a bundle's offset leave its strings out (a stream decoder found that one BAD_BUNDLE) */
    tu_case("every prefix of two bundles is TRUNCATED");
    b.len = 0;
    tu_buf_hex(&b, "d9dff9 82 1a00000011 82 cf04 d9dff9 84 1a0000000d 60 6461626364 cf04 60 647778797a");
    for (uint32_t n = 0; n < b.len; n++) {
        wp_tables_reset(&T);
        tu_dec x;
        const wp_err rc = tu_cbor_decode(&x, &T, b.p, n, O);
        CHECK(rc == WP_ERR_TRUNCATED, "prefix %u: got %s@%u", n, wp_err_name(rc), x.d.err.offset);
        tu_dec_free(&x);
    }
    tu_end();
    tu_buf_free(&b);
}

/* ===================================================================== depth */

static void test_depth(void) {
    tu_buf b = { 0 };
    tu_dec x;
    typedef struct { const char *hex; uint32_t max_depth; wp_err err; uint32_t off; } dcase;
    static const dcase cases[] = {
        { "81 81 81 f6", 3, WP_OK, 0 },
        { "81 81 81 81 f6", 3, WP_ERR_DEPTH, 3 },
        { "81 81 81 80", 3, WP_ERR_DEPTH, 3 },          /* an empty 4th array still nests */
        { "81 81 81 a0", 3, WP_ERR_DEPTH, 3 },
        { "81 81 81 9fff", 3, WP_ERR_DEPTH, 3 },
        { "81 81 81 c1 00", 3, WP_ERR_DEPTH, 3 },       /* a tag is a level */
        { "c1 c1 c1 00", 3, WP_OK, 0 },
        { "c1 c1 c1 c1 00", 3, WP_ERR_DEPTH, 3 },
        { "9f 9f 9f ff ff ff", 3, WP_OK, 0 },
        { "9f 9f 9f 9f ff ff ff ff", 3, WP_ERR_DEPTH, 3 },
        { "81 81 82 01 02", 3, WP_OK, 0 },              /* a number run is a level */
        { "81 81 81 82 01 02", 3, WP_ERR_DEPTH, 3 },
        { "a1 6161 a1 6162 a1 6163 f6", 3, WP_OK, 0 },
        { "a1 6161 a1 6162 a1 6163 a1 6164 f6", 3, WP_ERR_DEPTH, 9 },
        { "a1 81 81 81 f6 f6", 3, WP_ERR_DEPTH, 3 },    /* a key nests too */
        { "82 81 81 f6 81 81 f6", 3, WP_OK, 0 },        /* siblings do not add up */
        { "5f 41 00 ff", 0, WP_OK, 0 },                 /* chunks are not levels */
        { "81 5f 41 00 ff", 1, WP_OK, 0 },
        { "81 f6", 1, WP_OK, 0 },
        { "81 81 f6", 1, WP_ERR_DEPTH, 1 },
        { "f6", 1, WP_OK, 0 },
        { "c1 f6", 1, WP_OK, 0 },
        { "c1 81 f6", 1, WP_ERR_DEPTH, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const dcase *c = &cases[i];
        tu_case("depth '%s' max %u", c->hex, c->max_depth);
        b.len = 0;
        tu_buf_hex(&b, c->hex);
        wp_tables_reset(&T);
        wp_err rc = tu_cbor_decode_ex(&x, &T, b.p, b.len, O, c->max_depth);
        CHECK_ERR(rc, c->err);
        if (c->err != WP_OK) CHECK_EQ_U(x.d.err.offset, c->off);
        tu_dec_free(&x);
        tu_end();
    }

    tu_case("default depth: 1000 nested 81 ok, 1001 -> DEPTH");
    for (uint32_t n = 1000; n <= 1001; n++) {
        b.len = 0;
        for (uint32_t i = 0; i < n; i++) tu_buf_u8(&b, 0x81);
        tu_buf_u8(&b, 0xf6);
        wp_err rc = tu_cbor_decode(&x, &T, b.p, b.len, 0);
        CHECK_ERR(rc, n == 1000 ? WP_OK : WP_ERR_DEPTH);
        if (rc == WP_ERR_DEPTH) CHECK_EQ_U(x.d.err.offset, WP_DEFAULT_MAX_DEPTH);
        tu_dec_free(&x);
    }
    tu_end();

    static const uint8_t deep[] = { 0x81, 0x9f, 0xc1, 0xa1, 0xbf, 0xd9 };
    for (size_t k = 0; k < sizeof deep; k++) {
        tu_case("10^6 nested 0x%02x with the default depth -> DEPTH, no crash", deep[k]);
        uint32_t n = 1000000;
        uint8_t *p = (uint8_t *)malloc(n);
        memset(p, deep[k], n);
        uint32_t step = 1;
        if (deep[k] == 0xd9) { /* 2-byte tag numbers: d9 d9 d9 ... is tag 0xd9d9 of tag 0xd9d9 ... */
            step = 3;
        }
        for (uint32_t flags = 0; flags <= O; flags += O) {
            wp_tables_reset(&T);
            wp_err rc = tu_cbor_decode(&x, &T, p, n, flags);
            CHECK_ERR(rc, WP_ERR_DEPTH);
            CHECK_EQ_U(x.d.err.offset, step * WP_DEFAULT_MAX_DEPTH);
            CHECK_EQ_U(T.nkeys, 0);
            tu_dec_free(&x);
        }
        free(p);
        tu_end();
    }

    tu_case("10^6 bytes of 'bf 60' (indefinite maps keyed by \"\") -> DEPTH, tables rolled back");
    {
        uint32_t n = 1000000;
        uint8_t *p = (uint8_t *)malloc(n);
        for (uint32_t i = 0; i < n; i++) p[i] = (i & 1) ? 0x60 : 0xbf;
        wp_tables_reset(&T);
        wp_err rc = tu_cbor_decode(&x, &T, p, n, O);
        CHECK_ERR(rc, WP_ERR_DEPTH);
        CHECK_EQ_U(x.d.err.offset, 2 * WP_DEFAULT_MAX_DEPTH);
        CHECK_EQ_U(T.nkeys, 0);
        tu_dec_free(&x);
        free(p);
    }
    tu_end();
    tu_buf_free(&b);
}

/* ===================================================================== multiple values */

static void test_multiple(void) {
    tu_buf b = { 0 };
    tu_dec x;

    tu_case("WP_DEC_MULTIPLE decodes a sequence of items");
    b.len = 0;
    tu_buf_hex(&b, "01 6161 820102 f6 a0 9f ff c1 00 5f ff");
    wp_tables_reset(&T);
    CHECK_ERR(tu_cbor_decode(&x, &T, b.p, b.len, WP_DEC_MULTIPLE), WP_OK);
    CHECK_EQ_U(x.d.nvalues, 8);
    CHECK_EQ_U(x.d.end, b.len);
    CHECK_XTAPE(&x.d, "INT:1 STRA:1 NUMRUN:2 F:1 F:2 NIL MAP:0 ARR:ESC #0 TAG:1 INT:0 BINC:ESC #0");
    tu_dec_free(&x);
    tu_end();

    tu_case("WP_DEC_MULTIPLE stops at the error; end and nvalues count complete values");
    typedef struct { const char *hex; wp_err err; uint32_t off, nvalues, end; } mcase;
    static const mcase mc[] = {
        { "01 02 82 01", WP_ERR_TRUNCATED, 2, 2, 2 },
        { "01 02 1c 03", WP_ERR_RESERVED_AI, 2, 2, 2 },
        { "01 ff", WP_ERR_BREAK, 1, 1, 1 },
        { "9fff ff", WP_ERR_BREAK, 2, 1, 2 },
        { "f6 f8 10", WP_ERR_BAD_SIMPLE, 1, 1, 1 },
        { "f6 5f 00 ff", WP_ERR_BAD_CHUNK, 2, 1, 1 },
        { "a1 6161 01 a1 6162", WP_ERR_TRUNCATED, 4, 1, 4 },
        { "c1", WP_ERR_TRUNCATED, 0, 0, 0 },
    };
    for (size_t i = 0; i < sizeof mc / sizeof mc[0]; i++) {
        b.len = 0;
        tu_buf_hex(&b, mc[i].hex);
        wp_tables_reset(&T);
        CHECK_ERR(tu_cbor_decode(&x, &T, b.p, b.len, O | WP_DEC_MULTIPLE), mc[i].err);
        CHECK_EQ_U(x.d.err.offset, mc[i].off);
        CHECK_EQ_U(x.d.nvalues, mc[i].nvalues);
        CHECK_EQ_U(x.d.end, mc[i].end);
        tu_dec_free(&x);
    }
    tu_end();

    tu_case("WP_DEC_MULTIPLE: keys of complete values survive a later failure");
    b.len = 0;
    tu_buf_hex(&b, "a1 6161 01 bf 6162 02 ff a2 6163 01 6164");
    wp_tables_reset(&T);
    CHECK_ERR(tu_cbor_decode(&x, &T, b.p, b.len, O | WP_DEC_MULTIPLE), WP_ERR_TRUNCATED);
    CHECK_EQ_U(x.d.nvalues, 2);
    CHECK_EQ_U(x.d.end, 9);
    CHECK_EQ_U(T.nkeys, 2);
    CHECK_EQ_U(T.nshapes, 2);
    tu_dec_free(&x);
    b.len = 0;
    tu_buf_hex(&b, "a1 6163 01");
    CHECK_ERR(tu_cbor_decode(&x, &T, b.p, b.len, O), WP_OK);
    CHECK_XTAPE(&x.d, "SHAPED:2 KEY:2 INT:1");
    tu_dec_free(&x);
    tu_end();

    tu_case("single mode: trailing data after a value, its keys kept");
    b.len = 0;
    tu_buf_hex(&b, "a1 6161 01 00");
    wp_tables_reset(&T);
    CHECK_ERR(tu_cbor_decode(&x, &T, b.p, b.len, O), WP_ERR_TRAILING_DATA);
    CHECK_EQ_U(x.d.err.offset, 4);
    CHECK_EQ_U(x.d.end, 4);
    CHECK_EQ_U(x.d.nvalues, 1);
    CHECK_EQ_U(T.nkeys, 1);
    tu_dec_free(&x);
    tu_end();

    tu_case("empty input -> TRUNCATED at 0 (single and multiple)");
    CHECK_ERR(tu_cbor_decode(&x, &T, (const uint8_t *)"", 0, 0), WP_ERR_TRUNCATED);
    CHECK_EQ_U(x.d.err.offset, 0);
    tu_dec_free(&x);
    CHECK_ERR(tu_cbor_decode(&x, &T, (const uint8_t *)"", 0, WP_DEC_MULTIPLE), WP_ERR_TRUNCATED);
    tu_dec_free(&x);
    tu_end();
    tu_buf_free(&b);
}

/* ===================================================================== rollback */

typedef struct { uint32_t nkeys, nshapes, kpool, spool; } tsnap;
static tsnap snap(void) { tsnap s = { T.nkeys, T.nshapes, T.key_pool_used, T.shape_pool_used }; return s; }
static int same_snap(tsnap a, tsnap b) {
    return a.nkeys == b.nkeys && a.nshapes == b.nshapes && a.kpool == b.kpool && a.spool == b.spool;
}

static void test_rollback(void) {
    tu_buf b = { 0 };
    tu_dec x;
    static const char *const bad[] = {
        "82 a1 6162 01 a1 6163",                  /* complete inner shape, then truncation */
        "82 bf 6162 01 6163 02 ff 1c",            /* complete indefinite SHAPED map, then reserved ai */
        "9f a1 6178 01 bf 6179 ff ff ff",         /* ... then a break in an indefinite map value position */
        "82 a1 6164 01 5f 6100 ff",               /* ... then a bad chunk */
        "82 a2 6165 01 6166 02 f8 00",            /* ... then a bad simple */
        "82 a1 6167 01 1f",
        "a1 6168 a1 6169 81 81 81 81 f6",         /* depth with max 4 */
        "a1 616a bf 616b 01 616c",
        "c1 a1 616d ff",                        /* break in a definite map */
    };
    tu_case("failed decodes leave the key/shape tables as before");
    wp_tables_reset(&T);
    b.len = 0;
    tu_buf_hex(&b, "a1 6161 01");
    CHECK_ERR(tu_cbor_decode(&x, &T, b.p, b.len, O), WP_OK);
    tu_dec_free(&x);
    CHECK_EQ_U(T.nkeys, 1);
    CHECK_EQ_U(T.nshapes, 1);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tsnap before = snap();
        b.len = 0;
        tu_buf_hex(&b, bad[i]);
        wp_err rc = tu_cbor_decode_ex(&x, &T, b.p, b.len, O, 4);
        CHECK(rc != WP_OK, "'%s' decoded", bad[i]);
        CHECK(same_snap(before, snap()), "'%s' (%s): tables changed", bad[i], wp_err_name(rc));
        CHECK_EQ_U(x.d.keys_before, 1);
        tu_dec_free(&x);
    }
    /* the rolled-back ids are free again and lookups still work */
    b.len = 0;
    tu_buf_hex(&b, "a2 617a 01 6161 02");
    CHECK_ERR(tu_cbor_decode(&x, &T, b.p, b.len, O), WP_OK);
    CHECK_XTAPE(&x.d, "SHAPED:1 KEY:1 INT:1 KEY:0 INT:2");
    tu_dec_free(&x);
    b.len = 0;
    tu_buf_hex(&b, "bf 6161 03 ff");
    CHECK_ERR(tu_cbor_decode(&x, &T, b.p, b.len, O), WP_OK);
    CHECK_XTAPE(&x.d, "PAD SHAPED:0 KEY:0 INT:3");
    tu_dec_free(&x);
    tu_end();
    tu_buf_free(&b);
}

/* ===================================================================== caller buffers */

static void test_caller_buffers(void) {
    tu_case("CBOR: buffers below the bounds -> TAPE_FULL, never written past");
    static const char *const msgs[] = { "84 63616263 62c3a9 820102 5f4101ff", "a1 6161 f6", "7f 62c3a9 ff" };
    for (size_t m = 0; m < sizeof msgs / sizeof msgs[0]; m++) {
        tu_buf b = { 0 };
        tu_buf_hex(&b, msgs[m]);
        uint32_t len = b.len;
        for (int which = 0; which < 5; which++) {
            uint32_t tw = wp_cbor_tape_words(len), sw = wp_decode_stack_words(0, len);
            uint32_t ac = len, uc = len;
            if (which == 0) sw -= 1;
            if (which == 1) tw = 3;
            if (which == 2) ac = 2;
            if (which == 3) uc = 0;
            /* which 4: the bounds themselves */
            wp_decoder d;
            memset(&d, 0, sizeof d);
            uint64_t *tape = (uint64_t *)malloc(((size_t)tw + 1) / 2 * 8);
            uint8_t *ascii = (uint8_t *)malloc(ac + 1 + WP_DEC_SLACK); /* (the decoders' slack: wirepack.h) */
            uint16_t *utf16 = (uint16_t *)malloc(2u * uc + 2);
            uint32_t *stack = (uint32_t *)malloc((size_t)sw * 4);
            uint8_t *in = (uint8_t *)malloc(len + WP_DEC_SLACK);
            memcpy(in, b.p, len);
            d.in = in; d.len = len; d.flags = O | WP_DEC_NO_INTERN;
            d.tape = (uint32_t *)(void *)tape; d.tape_cap = tw;
            d.ascii = ascii; d.ascii_cap = ac;
            d.utf16 = utf16; d.utf16_cap = uc;
            d.stack = stack; d.stack_cap = sw;
            wp_tables_reset(&T);
            wp_err rc = wp_cbor_decode(&d, &T);
            static const uint32_t need_ascii[] = { 3, 1, 0 }, need_utf16[] = { 1, 0, 1 };
            int expect_full = which == 0 || which == 1 || (which == 2 && need_ascii[m] > 2) ||
                              (which == 3 && need_utf16[m] > 0);
            CHECK(rc == (expect_full ? WP_ERR_TAPE_FULL : WP_OK), "msg %zu which %d: %s", m, which, wp_err_name(rc));
            CHECK(d.tape_len <= tw && d.ascii_len <= ac && d.utf16_len <= uc, "which %d", which);
            free(tape); free(ascii); free(utf16); free(stack); free(in);
        }
        tu_buf_free(&b);
    }
    tu_end();
}

/* ===================================================================== the two ways of a head */

/* A value's head of a frequent form (small integers, short text, short arrays and maps, simple
 * values, float64) has a dispatch of its own; a map key of any kind, with interning off, takes the
 * general way. Every head byte, followed by payloads of every length up to 24 bytes from several
 * patterns, as the element of [item] and as the key of {item: 0}: the same entries, or the same
 * error at the same offset (both put the item at offset 1). */
static void test_two_ways(void) {
    static const uint8_t pats[][24] = {
        { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },
        { 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a' },
        { 0x18, 0x20, 0x19, 0x01, 0x02, 0x1a, 0x00, 0x80, 0x00, 0x01, 0x78, 0x03, 'a', 'b', 'c', 0x62, 0xc3, 0xa9, 0xf5, 0xf6, 0xfb, 0x3f, 0xf0, 0x00 },
        { 0x39, 0xff, 0xff, 0x3a, 0x80, 0x00, 0x00, 0x00, 0x38, 0x17, 0x80, 0xa0, 0x9f, 0x01, 0xff, 0xbf, 0x61, 0x6b, 0x02, 0xff, 0xf7, 0xf4, 0xc1, 0x02 },
        { 0x82, 0x01, 0x02, 0xa1, 0x61, 0x6b, 0x81, 0x01, 0xd9, 0xe0, 0x00, 0x81, 0x01, 0x1b, 0, 0, 0, 1, 0, 0, 0, 0, 0x62, 0xe2 },
        { 0xe2, 0x82, 0xac, 0xff, 0xfe, 0xed, 0xa0, 0xa0, 0x80, 0x20, 0x37, 0x38, 0x00, 0x19, 0x00, 0x00, 0x1a, 0x7f, 0xff, 0xff, 0xff, 0xfa, 0x3f, 0x80 },
    };
    tu_case("each head as a value and as a key");
    for (uint32_t b = 0; b < 256; b++) {
        for (size_t pi = 0; pi < sizeof pats / sizeof pats[0]; pi++) {
            for (uint32_t L = 0; L <= 24; L++) {
                uint8_t a[32], k[32];
                a[0] = 0x81; k[0] = 0xa1;
                a[1] = k[1] = (uint8_t)b;
                memcpy(a + 2, pats[pi], L);
                memcpy(k + 2, pats[pi], L);
                tu_dec x, y;
                wp_tables_reset(&T);
                wp_err ea = tu_cbor_decode(&x, &T, a, 2 + L, WP_DEC_NO_INTERN);
                uint32_t item = 1 + L; /* the item's bytes */
                if (ea == WP_ERR_TRAILING_DATA) {
                    item = x.d.err.offset - 1;
                    ea = WP_OK;
                }
                wp_err ek;
                wp_tables_reset(&T);
                if (ea == WP_OK) {
                    k[1 + item] = 0x00; /* the key's value */
                    ek = tu_cbor_decode(&y, &T, k, 2 + item, WP_DEC_NO_INTERN);
                    int same = ek == WP_OK && y.d.tape_len == x.d.tape_len + 1;
                    for (uint32_t i = 1; same && i < x.d.tape_len; i++) same = x.d.tape[i] == y.d.tape[i];
                    same = same && x.d.ascii_len == y.d.ascii_len && x.d.utf16_len == y.d.utf16_len &&
                           memcmp(x.d.ascii, y.d.ascii, x.d.ascii_len) == 0 && memcmp(x.d.utf16, y.d.utf16, 2u * x.d.utf16_len) == 0;
                    CHECK(same, "head %02x pattern %zu length %u: [item] and {item: 0} differ (key: %s)", b, pi, L, wp_err_name(ek));
                } else {
                    ek = tu_cbor_decode(&y, &T, k, 2 + L, WP_DEC_NO_INTERN);
                    CHECK(ek == ea && y.d.err.offset == x.d.err.offset, "head %02x pattern %zu length %u: value %s at %u, key %s at %u",
                          b, pi, L, wp_err_name(ea), x.d.err.offset, wp_err_name(ek), y.d.err.offset);
                }
                tu_dec_free(&x);
                tu_dec_free(&y);
            }
        }
    }
    tu_end();
}

/* ===================================================================== records in C */

/* Whether x's tape has a CREC entry (walking entry by entry would need the whole tape grammar:
 * a word whose low byte is CREC and whose next word is a shape id of the tables is enough here,
 * where no other word of these tapes can look like one). */
static int has_crec(const tu_dec *x) {
    for (uint32_t i = 0; i + 1 < x->d.tape_len; i++)
        if ((x->d.tape[i] & 0xffu) == WP_T_CREC && x->d.tape[i + 1] < T.nshapes) return 1;
    return 0;
}

static void test_crec(void) {
    const uint32_t R = O | WP_DEC_CBOR_RECS;
    tu_case("WP_DEC_CBOR_RECS: a record defined where it appears, its keys interned -> CREC");
    static const struct { const char *hex; const char *want; } ok[] = {
        { "d9dfff 83 19e000 81 6161 01", "CREC:0 #0 INT:1" },
        /* the last id, two keys, a value that is itself a record (shape 1 is [a]: the inner keys) */
        { "d9dfff 84 19ffff 82 6162 6161 02 d9dfff 83 19e001 81 6161 03", "CREC:8191 #0 INT:2 CREC:1 #1 INT:3" },
        /* inside an array, and the same keys twice: one shape */
        { "82 d9dfff 83 19e002 81 6161 04 d9dfff 83 19e003 81 6161 05", "ARR:2 CREC:2 #0 INT:4 CREC:3 #0 INT:5" },
    };
    tu_buf b = { 0 };
    tu_dec x, y;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        wp_tables_reset(&T);
        b.len = 0;
        tu_buf_hex(&b, ok[i].hex);
        CHECK_ERR(tu_cbor_decode(&x, &T, b.p, b.len, R), WP_OK);
        CHECK_XTAPE(&x.d, ok[i].want);
        tu_dec_free(&x);
    }
    tu_case("WP_DEC_CBOR_RECS: anything else is decoded as without the flag");
    static const char *const other[] = {
        "d9dfff 83 05 81 6161 01",               /* an id below 0xe000 */
        "d9dfff 83 1a00010000 81 6161 01",       /* above 0xffff */
        "d9dfff 83 3900ff 81 6161 01",           /* negative */
        "d9dfff 83 19e000 81 01 01",             /* a key that is not text */
        "d9dfff 83 19e000 81 4161 01",           /* bytes */
        "d9dfff 84 19e000 81 6161 01 02",        /* more values than keys */
        "d9dfff 82 19e000 81 6161",              /* fewer */
        "d9dfff 82 19e000 80",                   /* no keys */
        "d9dfff 9f 19e000 81 6161 01 ff",        /* an indefinite array */
        "d9dfff 83 19e000 9f 6161 ff 01",        /* indefinite keys */
        "d9dfff 83 19e000 81 7f 6161 ff 01",     /* an indefinite key */
        "d9dfff 83 19e000 a1 6161 01 01",        /* keys that are a map */
        "d9dfff 83 19e000 81 78 41 " "61616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161" " 01", /* a key too long to intern */
        "d9dfff 83 19e000 81 6161",              /* cut short: the value */
        "d9dfff 83 19e000 81 62 61",             /* inside a key */
        "d9dfff 83 19e0",                        /* inside the id */
        "d9dfff 83",                             /* after the array head */
    };
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        for (uint32_t depth = 0; depth <= 6; depth++) {
            b.len = 0;
            tu_buf_hex(&b, other[i]);
            wp_tables_reset(&T);
            wp_err ea = tu_cbor_decode_ex(&x, &T, b.p, b.len, R, depth);
            wp_tables_reset(&T);
            wp_err eb = tu_cbor_decode_ex(&y, &T, b.p, b.len, O, depth);
            CHECK(ea == eb && x.d.err.offset == y.d.err.offset, "'%s' depth %u: %s at %u, without the flag %s at %u", other[i], depth,
                  wp_err_name(ea), x.d.err.offset, wp_err_name(eb), y.d.err.offset);
            CHECK(!has_crec(&x), "'%s' depth %u: a CREC entry", other[i], depth);
            if (ea == WP_OK) {
                int same = x.d.tape_len == y.d.tape_len;
                for (uint32_t k = 0; same && k < x.d.tape_len; k++) same = x.d.tape[k] == y.d.tape[k];
                CHECK(same, "'%s' depth %u: another tape", other[i], depth);
            }
            tu_dec_free(&x);
            tu_dec_free(&y);
        }
    }
    tu_case("WP_DEC_CBOR_RECS: the same outcome as without it at every depth limit and every cut");
    static const char *const cut[] = { "82 d9dfff 84 19e000 82 6161 6162 81 01 a1 6163 02 03", "d9dfff 83 19e000 81 6161 d9dfff 83 19e001 81 6162 07" };
    for (size_t i = 0; i < sizeof cut / sizeof cut[0]; i++) {
        b.len = 0;
        tu_buf_hex(&b, cut[i]);
        for (uint32_t len = 1; len <= b.len; len++) {
            for (uint32_t depth = 1; depth <= 7; depth++) {
                wp_tables_reset(&T);
                wp_err ea = tu_cbor_decode_ex(&x, &T, b.p, len, R, depth);
                int crec = has_crec(&x);
                wp_tables_reset(&T);
                wp_err eb = tu_cbor_decode_ex(&y, &T, b.p, len, O, depth);
                CHECK(ea == eb && x.d.err.offset == y.d.err.offset && x.d.nvalues == y.d.nvalues, "'%s' [0, %u) depth %u: %s at %u, without the flag %s at %u",
                      cut[i], len, depth, wp_err_name(ea), x.d.err.offset, wp_err_name(eb), y.d.err.offset);
                /* (the records were made CREC entries wherever the depth leaves room) */
                if (ea == WP_OK && depth >= 6) CHECK(crec, "'%s' depth %u: no CREC entry", cut[i], depth);
                tu_dec_free(&x);
                tu_dec_free(&y);
            }
        }
    }
    tu_buf_free(&b);
    tu_end();
}

/* ===================================================================== main */

/* WP_DEC_CBOR_SHARED: packed references (simple 0-15, tag 6) as map keys keep a map an object
 * outside packed items too (the host resolves them with its shared values); other keys that are
 * no strings still make it a Map, and without the flag references do. */
static void test_shared_keys(void) {
    tu_case("WP_DEC_CBOR_SHARED: packed references as map keys outside a packed item");
    static const struct { const char *hex; uint32_t flags; uint32_t want; } cases[] = {
        { "a2 e0 01 c6 00 02", WP_DEC_CBOR_SHARED, WP_T_OBJ },
        { "a2 e0 01 c6 00 02", 0, WP_T_MAP },
        { "a2 ef 01 6161 02", WP_DEC_CBOR_SHARED, WP_T_OBJ },
        { "a1 f0 01", WP_DEC_CBOR_SHARED, WP_T_MAP },    /* simple 16: no reference */
        { "a1 c7 00 01", WP_DEC_CBOR_SHARED, WP_T_MAP }, /* tag 7: no reference */
        { "a1 41 61 01", WP_DEC_CBOR_SHARED, WP_T_MAP }, /* bytes */
    };
    tu_buf b = { 0 };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tu_dec x;
        wp_tables_reset(&T);
        b.len = 0;
        tu_buf_hex(&b, cases[i].hex);
        CHECK_ERR(tu_cbor_decode(&x, &T, b.p, b.len, O | cases[i].flags), WP_OK);
        CHECK((x.d.tape[0] & 0xffu) == cases[i].want, "case %zu: tape starts with %u, want %u", i, x.d.tape[0] & 0xffu, cases[i].want);
        tu_dec_free(&x);
    }
    tu_buf_free(&b);
    tu_end();
}

/* Packed references as map keys, interned in C as the strings of the open packed item's values
 * table (wp_cb_pk_scan, WP_DEC_CBOR_PACKED): the rump's map has the tape of the same map keyed by text (same key ids,
 * same shape); where the host's table could be another (a reference past the strings, a table
 * not led by strings, nested packed items and what follows them, the table's own items, other
 * forms of tag 6) the references stay, and no key is interned; depth is as the general way's. */
#define PK_NAME_KIND "d833 84 82 646e616d65 646b696e64 80 80 "
#define PK_TAB18 "d833 84 92636b3030636b3031636b3032636b3033636b3034636b3035636b3036636b3037636b3038636b3039" \
                 "636b3130636b3131636b3132636b3133636b3134636b3135636b3136636b3137 80 80 "
static void test_packed_keys(void) {
    static const struct { const char *packed, *plain; } same[] = {
        { PK_NAME_KIND "a2 e0 01 e1 02", "a2 646e616d65 01 646b696e64 02" },
        { PK_NAME_KIND "bf e1 01 e0 02 ff", "bf 646b696e64 01 646e616d65 02 ff" },
        { PK_NAME_KIND "a2 e0 01 6478797a77 02", "a2 646e616d65 01 6478797a77 02" },
        { PK_NAME_KIND "81 a1 e1 a1 e0 f6", "81 a1 646b696e64 a1 646e616d65 f6" },
        { PK_TAB18 "a3 c6 00 01 c6 20 02 ef 03", "a3 636b3136 01 636b3137 02 636b3135 03" },
        { PK_TAB18 "a1 c6 18 00 01", "a1 636b3136 01" }, /* a longer head of the integer */
    };
    tu_buf b = { 0 }, p = { 0 };
    tu_dec x, y;
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        tu_case("packed keys '%s'", same[i].packed);
        b.len = p.len = 0;
        tu_buf_hex(&b, same[i].packed);
        tu_buf_hex(&p, same[i].plain);
        wp_tables_reset(&T);
        CHECK_ERR(tu_cbor_decode(&y, &T, p.p, p.len, O), WP_OK);
        wp_tables_reset(&T);
        CHECK_ERR(tu_cbor_decode(&x, &T, b.p, b.len, O | WP_DEC_CBOR_PACKED), WP_OK);
        const uint32_t n = y.d.tape_len;
        CHECK(x.d.tape_len >= n && memcmp(x.d.tape + x.d.tape_len - n, y.d.tape, n * 4u) == 0, "the rump's tape is the plain map's");
        tu_dec_free(&x);
        tu_dec_free(&y);
        tu_end();
    }
    static const char *const kept[] = {
        PK_NAME_KIND "a1 e2 01",                                         /* past the table */
        "d833 84 82 01 646e616d65 80 80 a1 e1 01",                      /* a table led by a number */
        PK_NAME_KIND "82 d833 84 81 6178 80 80 00 a1 e0 01",            /* after a nested packed item */
        "d833 84 81 646e616d65 80 80 d833 84 81 646b696e64 80 80 a1 e0 01", /* in a nested one */
        "d833 84 82 646e616d65 a1 e0 01 80 80 00",                      /* in the table itself */
        PK_TAB18 "a1 d8 06 00 01",                                       /* tag 6 in two bytes */
        PK_TAB18 "a1 c6 3b 0000000000000000 01",                         /* an 8-byte integer head */
        PK_NAME_KIND "a2 e0 01 e1 02",                                   /* without the flag (below) */
        "d833 9f 82 646e616d65 646b696e64 80 80 a1 e0 01 ff",           /* indefinite: resolved */
    };
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        tu_case("packed keys kept '%s'", kept[i]);
        b.len = 0;
        tu_buf_hex(&b, kept[i]);
        wp_tables_reset(&T);
        const size_t nk = sizeof kept / sizeof kept[0];
        CHECK_ERR(tu_cbor_decode(&x, &T, b.p, b.len, i + 2 == nk ? O : O | WP_DEC_CBOR_PACKED), WP_OK);
        CHECK_EQ_U(T.nkeys, i + 1 == nk ? 1u : 0u);
        tu_dec_free(&x);
        tu_end();
    }
    /* after a packed item closes, references as keys still stand for strings (the host keeps the
     * last table to the call's end, as cbor-x): the map stays an object, its key a reference */
    tu_case("packed keys after the packed item");
    b.len = 0;
    tu_buf_hex(&b, "82 " PK_NAME_KIND "00 a1 e0 01");
    wp_tables_reset(&T);
    CHECK_ERR(tu_cbor_decode(&x, &T, b.p, b.len, O | WP_DEC_CBOR_PACKED), WP_OK);
    CHECK(x.d.tape_len >= 3 && (x.d.tape[x.d.tape_len - 3] & 0xffu) == WP_T_OBJ && (x.d.tape[x.d.tape_len - 2] & 0xffu) == WP_T_SIMPLE,
          "an object keyed by simple(0): tape ends %08x %08x %08x", x.d.tape[x.d.tape_len - 3], x.d.tape[x.d.tape_len - 2], x.d.tape[x.d.tape_len - 1]);
    tu_dec_free(&x);
    tu_end();
    /* tag 51, its array, the table's marker and array: depth 4; the rump's array and map 3 and 4,
     * and a tag 6 key would be 5 */
    static const struct { const char *hex; wp_err err; uint32_t off; } depth[] = {
        { PK_NAME_KIND "81 a1 e0 01", WP_OK, 0 },
        { PK_TAB18 "81 a1 c6 00 01", WP_ERR_DEPTH, 80 },
        { PK_TAB18 "a1 c6 00 01", WP_OK, 0 },
    };
    for (size_t i = 0; i < sizeof depth / sizeof depth[0]; i++) {
        tu_case("packed keys depth '%s'", depth[i].hex);
        b.len = 0;
        tu_buf_hex(&b, depth[i].hex);
        wp_tables_reset(&T);
        CHECK_ERR(tu_cbor_decode_ex(&x, &T, b.p, b.len, O | WP_DEC_CBOR_PACKED, 4), depth[i].err);
        if (depth[i].err != WP_OK) CHECK_EQ_U(x.d.err.offset, depth[i].off);
        tu_dec_free(&x);
        tu_end();
    }
    tu_buf_free(&b);
    tu_buf_free(&p);
}

/* The tape bound (wp_cbor_tape_words) under every tag whose array elements may get a marker (a
 * record definition, definitions, a bundle, a packed item): arrays of 64 copies of each item of
 * one byte, after each first element of one byte, with every CBOR flag that changes what the
 * decoder writes. None may run out of tape (a fuzz finding: the definitions tag over 22 zeros). */
/* Whether an item is its first byte b alone (wp_cbor.c's wp_cb_one_byte, which is private). */
static int one_byte_item(uint32_t b) {
    const uint32_t m = b >> 5, ai = b & 31u;
    return ai < 24u && (m <= 1u || m == 7u || (m != 6u && ai == 0u));
}

static void test_marker_tape_bound(void) {
    static const char *const tags[] = { "d9dfff", "d9dffe", "d9dff9", "d833", "c6", "d9dff8" };
    static const uint32_t flag_sets[] = { 0, WP_DEC_MAPS_AS_OBJECTS, WP_DEC_CBOR_RECS | WP_DEC_CBOR_DATES,
                                          WP_DEC_CBOR_SHARED | WP_DEC_CBOR_PACKED, WP_DEC_NO_INTERN | WP_DEC_TAG_F32 };
    tu_buf b = { 0 };
    tu_dec x;
    uint32_t runs = 0;
    for (size_t k = 0; k < sizeof tags / sizeof tags[0]; k++) {
        for (uint32_t first = 0; first < 256; first += 0x17) {
            for (uint32_t item = 0; item < 256; item++) {
                if (!one_byte_item(item) || !one_byte_item(first)) continue;
                for (size_t f = 0; f < sizeof flag_sets / sizeof flag_sets[0]; f++) {
                    b.len = 0;
                    tu_buf_hex(&b, tags[k]);
                    tu_buf_hex(&b, "98 41");
                    tu_buf_u8(&b, first);
                    for (int j = 0; j < 64; j++) tu_buf_u8(&b, item);
                    wp_tables_reset(&T);
                    wp_err rc = tu_decode_fn(&x, &T, wp_cbor_decode, b.p, (uint32_t)b.len, flag_sets[f], 0, 0, NULL);
                    if (rc == WP_ERR_TAPE_FULL) {
                        tu_case("tag %s over [%02x, 64 x %02x], flags %x", tags[k], first, item, flag_sets[f]);
                        CHECK(rc != WP_ERR_TAPE_FULL, "TAPE_FULL with tape words from the bound");
                        tu_end();
                    }
                    tu_dec_free(&x);
                    runs++;
                }
            }
        }
    }
    tu_case("marker tape bound: %u decodes", runs);
    CHECK(runs > 1000);
    tu_end();
    tu_buf_free(&b);
}

int main(void) {
    test_marker_tape_bound();
    for (size_t i = 0; i < sizeof appendix_a / sizeof appendix_a[0]; i++) run_acase("appendix A", i, &appendix_a[i]);
    for (size_t i = 0; i < sizeof extra_ok / sizeof extra_ok[0]; i++) run_acase("extra", i, &extra_ok[i]);
    test_flag_cases();
    test_sizes();
    test_errors();
    test_bundle_runs();
    test_prefixes();
    test_depth();
    test_multiple();
    test_rollback();
    test_caller_buffers();
    test_two_ways();
    test_crec();
    test_shared_keys();
    test_packed_keys();
    return tu_finish();
}
