/*
 * test_msgpackr_ext.c: the decoder's msgpackr extensions (records, bundled strings, prefix
 * extensions, per-value ends) at the tape level: the entries written, every malformed form as a
 * table of (input, code, offset), and the record table coming back exactly as loaded.
 */
#include "test_util.h"

static wp_tables T;
static uint32_t RECS[WP_REC_SLOTS];
static wp_ext_config XC;

static uint32_t *g_ends;
static uint32_t g_ends_cap;

static void prefix_bit(uint32_t *set, uint32_t t) { set[t >> 5] |= 1u << (t & 31u); }

/* Decode hex with records, msgpackr's prefix types and bundles on. */
static wp_err dec(tu_dec *x, const char *hex, uint32_t flags) {
    tu_buf b = { 0 };
    tu_buf_hex(&b, hex);
    memset(x, 0, sizeof *x);
    /* tu_decode_ex fills the decoder and runs it; records/ext must be set first, so run by hand */
    uint32_t len = b.len;
    x->in = (uint8_t *)malloc(len + WP_DEC_SLACK ? len + WP_DEC_SLACK : 1);
    if (len) memcpy(x->in, b.p, len);
    uint32_t tw = wp_decode_tape_words(len), sw = wp_decode_stack_words(0, len);
    x->tape64 = (uint64_t *)malloc(((size_t)tw + 1) / 2 * 8);
    wp_decoder *d = &x->d;
    d->in = x->in; d->len = len; d->flags = flags | WP_DEC_MAPS_AS_OBJECTS | WP_DEC_BUNDLES;
    d->tape = (uint32_t *)(void *)x->tape64; d->tape_cap = tw;
    d->ascii = (uint8_t *)malloc(len + WP_DEC_SLACK ? len + WP_DEC_SLACK : 1); d->ascii_cap = len;
    d->utf16 = (uint16_t *)malloc(len ? 2u * len : 2); d->utf16_cap = len;
    d->stack = (uint32_t *)malloc((size_t)sw * 4); d->stack_cap = sw;
    d->records = RECS;
    d->ext = &XC;
    d->ends = g_ends;
    d->ends_cap = g_ends_cap;
    x->rc = wp_msgpack_decode(d, &T);
    tu_buf_free(&b);
    return x->rc;
}

/* Decode, check the code, free. */
#define EXPECT_RC(hex, flags, rc) do { tu_dec x_; CHECK_ERR(dec(&x_, hex, flags), rc); tu_dec_free(&x_); } while (0)

static int table_is_zero(void) {
    for (uint32_t i = 0; i < WP_REC_SLOTS; i++) if (RECS[i]) return 0;
    return 1;
}

/* Tags of the tape, in order, as a compact list for comparison. */
static uint32_t tags(const tu_dec *x, uint32_t *out, uint32_t cap) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < x->d.tape_len && n < cap;) {
        uint32_t w = x->d.tape[i], tag = tu_tag(w);
        out[n++] = tag;
        switch (tag) {
        case WP_T_EXTP: case WP_T_EXT: case WP_T_BIN: i += 3; break;
        case WP_T_BREF: case WP_T_RECDEFS: case WP_T_RECDEF: case WP_T_I32: case WP_T_U32: i += 2; break;
        case WP_T_F64: i = ((i + 2) & ~1u) + 2; break;
        default: i += 1; break;
        }
    }
    return n;
}

/* A bundled string's count (after 0xc1) in every 32-bit integer form: msgpackr writes the count
 * as the smallest integer (cc/cd for Latin strings of 128 or more, d0/d1 negative for the others,
 * whose strings are bundle string 1); its 32-bit forms read the same. */
static void test_bundle_counts(void) {
    static const struct { const char *count; int32_t n; uint32_t s1, s2; } C[] = {
        { "cc80", 128, 0, 128 }, { "cd0100", 256, 0, 256 }, { "ce00000100", 256, 0, 256 },
        { "d080", -128, 128, 0 }, { "d1ff00", -256, 256, 0 }, { "d2ffffff00", -256, 256, 0 },
    };
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        tu_case("a bundled string of %d units, count %s", C[i].n, C[i].count);
        char *hex;
        size_t cap;
        FILE *f = open_memstream(&hex, &cap);
        /* d6 62 <offset from the data to the strings>, c1 <count>, string 1 (é...), string 2 (x...) */
        fprintf(f, "d662%08xc1%s", (unsigned)(4 + 1 + strlen(C[i].count) / 2), C[i].count);
        uint32_t b1 = 2 * C[i].s1;
        if (b1 == 0) fprintf(f, "a0"); else fprintf(f, "da%04x", b1);
        for (uint32_t k = 0; k < C[i].s1; k++) fprintf(f, "c3a9");
        if (C[i].s2 == 0) fprintf(f, "a0"); else if (C[i].s2 < 256) fprintf(f, "d9%02x", C[i].s2); else fprintf(f, "da%04x", C[i].s2);
        for (uint32_t k = 0; k < C[i].s2; k++) fprintf(f, "78");
        fclose(f);
        tu_dec x;
        CHECK_ERR(dec(&x, hex, 0), WP_OK);
        uint32_t tg[8];
        uint32_t n = tags(&x, tg, 8);
        CHECK(n == 4 && tg[0] == WP_T_BUNDLE && tg[3] == WP_T_BREF, "a bundle and one reference (n=%u)", n);
        if (n == 4) CHECK_EQ_I((int32_t)x.d.tape[3] >> 8, C[i].n);
        CHECK(x.d.end == x.d.len, "end %u of %u", x.d.end, x.d.len);
        tu_dec_free(&x);
        free(hex);
        tu_end();
    }
}

static void test_records(void) {
    tu_case("records");
    tu_dec x;
    uint32_t tg[32], n;
    /* [{a:1,b:2},{a:3,b:4}] from msgpackr: an interned definition (RECDEFS), then a reference */
    CHECK_ERR(dec(&x, "92d4724092a161a162010240" "0304", 0), WP_OK);
    n = tags(&x, tg, 32);
    uint32_t want1[] = { WP_T_ARR, WP_T_RECDEFS, WP_T_REC, WP_T_INT, WP_T_INT, WP_T_REC, WP_T_INT, WP_T_INT };
    CHECK(n == 8 && memcmp(tg, want1, sizeof want1) == 0, "tags (n=%u)", n);
    CHECK(table_is_zero(), "definitions undone after the call");
    tu_dec_free(&x);
    /* a key that is not a string: the keys go on the tape (RECDEF + the array) */
    CHECK_ERR(dec(&x, "d472409205a16101" "02", 0), WP_OK);
    n = tags(&x, tg, 32);
    uint32_t want2[] = { WP_T_RECDEF, WP_T_ARR, WP_T_INT, WP_T_STRA, WP_T_REC, WP_T_INT, WP_T_INT };
    CHECK(n == 7 && memcmp(tg, want2, sizeof want2) == 0, "tags (n=%u)", n);
    CHECK(table_is_zero(), "undone");
    tu_dec_free(&x);
    /* a loaded table is used and left as it was; 0x41 undefined stays an integer */
    RECS[0] = 2; /* one field */
    CHECK_ERR(dec(&x, "924005" "41", 0), WP_OK);
    n = tags(&x, tg, 32);
    uint32_t want3[] = { WP_T_ARR, WP_T_REC, WP_T_INT, WP_T_INT };
    CHECK(n == 4 && memcmp(tg, want3, sizeof want3) == 0, "tags (n=%u)", n);
    CHECK(tu_pay(x.d.tape[3]) == 0x41, "0x41 is the integer");
    tu_dec_free(&x);
    /* redefining a loaded slot inside a call is undone too */
    CHECK_ERR(dec(&x, "92d4724092a161a1620102" "400304", 0), WP_OK);
    CHECK(RECS[0] == 2, "slot 0 restored to %u", RECS[0]);
    tu_dec_free(&x);
    /* strict: an undefined one-byte id fails, a defined one does not */
    CHECK_ERR(dec(&x, "924005" "41", WP_DEC_REC_STRICT), WP_ERR_UNKNOWN_RECORD);
    CHECK(x.d.err.offset == 3, "offset %u", x.d.err.offset);
    tu_dec_free(&x);
    /* number runs never swallow a record reference */
    CHECK_ERR(dec(&x, "92400501", 0), WP_OK);
    CHECK(tu_tag(x.d.tape[0]) == WP_T_ARR, "not a NUMRUN");
    tu_dec_free(&x);
    RECS[0] = 0;
    CHECK(table_is_zero(), "clean");
    /* two-byte ids: slot 32 defined with high byte 0, then 0x60 0x00 and 0x60 0x01 */
    CHECK_ERR(dec(&x, "93d572600091a16101" "600002" "600103", 0), WP_ERR_UNKNOWN_RECORD);
    CHECK(x.d.err.offset == 12, "offset %u", x.d.err.offset);
    CHECK(table_is_zero(), "undone after a failure");
    tu_dec_free(&x);
    tu_end();
}

/* msgpackr's structuredClone gives a record's keys array an id when it writes it twice: d6 69 id
 * before the keys, d6 70 id (a pointer) as the keys of a later definition. */
static void test_record_key_ids(void) {
    tu_case("record keys with a structured-clone id, and pointers to them");
    tu_dec x;
    uint32_t tg[32], n;
    /* [{a:1},{b:2},{c:3},{a:4}] with structuredClone and maxOwnStructures 2, as msgpackr writes it */
    CHECK_ERR(dec(&x, "94d47240d6690000000191a16101d4724191a16202d4724091a16303d47241d6700000000104", 0), WP_OK);
    n = tags(&x, tg, 32);
    /* the first definition's keys are a value (RECDEF, then the prefix extension and the array);
     * the pointer is a value too (an EXT for the host to resolve), and its record has one field */
    uint32_t want[] = { WP_T_ARR, WP_T_RECDEF, WP_T_EXTP, WP_T_ARR, WP_T_STRA, WP_T_REC, WP_T_INT,
                        WP_T_RECDEFS, WP_T_REC, WP_T_INT, WP_T_RECDEFS, WP_T_REC, WP_T_INT,
                        WP_T_RECDEF, WP_T_EXT, WP_T_REC, WP_T_INT };
    CHECK(n == sizeof want / sizeof want[0] && memcmp(tg, want, sizeof want) == 0, "tags (n=%u)", n);
    CHECK(x.d.end == x.d.len, "end %u of %u", x.d.end, x.d.len);
    CHECK(table_is_zero(), "undone");
    tu_dec_free(&x);
    /* two fields, a 16-bit keys head, and the pointer read after a message that had other ids */
    CHECK_ERR(dec(&x, "93d47240d66900000002dc0002a161a1620102d4724191a16303d47240d67000000002" "0506", 0), WP_OK);
    n = tags(&x, tg, 32);
    CHECK(n >= 4 && tg[n - 3] == WP_T_REC && tg[n - 2] == WP_T_INT && tg[n - 1] == WP_T_INT, "two fields (n=%u)", n);
    tu_dec_free(&x);
    /* ids the table does not index (past len/6): the spill pairs */
    CHECK_ERR(dec(&x, "92d47240d669ffffff0191a16101d47241d670ffffff0102", 0), WP_OK);
    tu_dec_free(&x);
    /* more such ids than the spill holds: the ones past it are not remembered, and a pointer to
     * one of them is BAD_RECORD; a pointer to one it holds still reads */
    for (uint32_t last = 0; last <= WP_SC_SPILL; last += WP_SC_SPILL) {
        char hex[2048];
        int at = 0;
        for (uint32_t i = 0; i <= WP_SC_SPILL; i++) at += sprintf(hex + at, "d47200d669f00000%02x91a16101", (unsigned)i);
        sprintf(hex + at, "d47201d670f00000%02x07", (unsigned)last);
        CHECK_ERR(dec(&x, hex, WP_DEC_MULTIPLE), last < WP_SC_SPILL ? WP_OK : WP_ERR_BAD_RECORD);
        if (last == WP_SC_SPILL) CHECK(x.d.err.offset == (uint32_t)at / 2u, "offset %u", x.d.err.offset);
        CHECK(table_is_zero(), "undone");
        tu_dec_free(&x);
    }
    /* a pointer names what its id was given last, as msgpackr reads it (found by the JS fuzz
     * differential, seed 31337): the id given to keys, then to a map (the pointer is no keys:
     * BAD_RECORD at its definition, where the host's .map threw a TypeError) or to an array of
     * two (a record of two fields); an id given to an array value only (a record of its length) */
    CHECK_ERR(dec(&x, "93d47240d6690000000191a16101d66900000001a0d47241d6700000000102", 0), WP_ERR_BAD_RECORD);
    CHECK(x.d.err.offset == 21, "offset %u", x.d.err.offset);
    CHECK(table_is_zero(), "undone");
    tu_dec_free(&x);
    CHECK_ERR(dec(&x, "93d47240d6690000000191a16101d6690000000192a178a179d47241d670000000010203", 0), WP_OK);
    n = tags(&x, tg, 32);
    CHECK(n >= 3 && tg[n - 3] == WP_T_REC && tg[n - 2] == WP_T_INT && tg[n - 1] == WP_T_INT, "two fields (n=%u)", n);
    CHECK(x.d.end == x.d.len, "end %u of %u", x.d.end, x.d.len);
    tu_dec_free(&x);
    CHECK_ERR(dec(&x, "92d6690000000392a178a179d47240d670000000030203", 0), WP_OK);
    CHECK(x.d.end == x.d.len, "end %u of %u", x.d.end, x.d.len);
    tu_dec_free(&x);
    /* an id given to no array (a string, or nothing: the input ends) names no keys */
    CHECK_ERR(dec(&x, "92d66900000003a178d47240d6700000000302", 0), WP_ERR_BAD_RECORD);
    tu_dec_free(&x);
    /* a pointer to the array the definition is inside (still open: msgpackr reads its empty
     * placeholder, no keys): BAD_RECORD at the definition, where C took the array's length as the
     * key count and read on (TRUNCATED, or values of another layout; found by the JS fuzz
     * differential, seed 7070707 on Node 24); the same array once closed names its two keys; and
     * the keys array of a definition with an id, still being read */
    CHECK_ERR(dec(&x, "d669000000029301" "d47240d67000000002" "0203", 0), WP_ERR_BAD_RECORD);
    CHECK(x.d.err.offset == 8, "offset %u", x.d.err.offset);
    CHECK(table_is_zero(), "undone");
    tu_dec_free(&x);
    CHECK_ERR(dec(&x, "92d6690000000292a178a179" "d47240d670000000020203", 0), WP_OK);
    CHECK(x.d.end == x.d.len, "end %u of %u", x.d.end, x.d.len);
    tu_dec_free(&x);
    CHECK_ERR(dec(&x, "d47240d6690000000192" "d47241d67000000001" "01" "a178", 0), WP_ERR_BAD_RECORD);
    CHECK(x.d.err.offset == 10, "offset %u", x.d.err.offset);
    CHECK(table_is_zero(), "undone");
    tu_dec_free(&x);
    tu_end();
}

static void test_bundles(void) {
    tu_case("bundles");
    tu_dec x;
    uint32_t tg[32], n;
    /* {hello:"world!!", k:["abcdé","xxxxyyyy"]} from msgpackr (records on) */
    CHECK_ERR(dec(&x, "d4724092d6620000000fc105a16bc10792c1fbc108a661626364c3a9b468656c6c6f776f726c6421217878787879797979", 0), WP_OK);
    n = tags(&x, tg, 32);
    /* RECDEF, keys array: BUNDLE (2 strings), BREF "hello", "k"; REC; BREF; array of 2 BREFs */
    uint32_t want[] = { WP_T_RECDEF, WP_T_ARR, WP_T_BUNDLE, WP_T_STRU, WP_T_STRA, WP_T_BREF, WP_T_STRA, WP_T_REC,
                        WP_T_BREF, WP_T_ARR, WP_T_BREF, WP_T_BREF };
    CHECK(n == 12 && memcmp(tg, want, sizeof want) == 0, "tags (n=%u)", n);
    CHECK(x.d.end == x.d.len, "continues after the bundle: end %u of %u", x.d.end, x.d.len);
    tu_dec_free(&x);
    /* {hello: "world", abcd: 1}: keys from the ASCII bundle string are interned (KEY); the map with
     * the bundle in a key position is an OBJ (keys read as values), still string-keyed */
    CHECK_ERR(dec(&x, "82d6620000000bc105c105c10401a0ae68656c6c6f776f726c6461626364", 0), WP_OK);
    n = tags(&x, tg, 32);
    uint32_t want2[] = { WP_T_OBJ, WP_T_BUNDLE, WP_T_STRA, WP_T_STRA, WP_T_KEY, WP_T_BREF, WP_T_KEY, WP_T_INT };
    CHECK(n == 8 && memcmp(tg, want2, sizeof want2) == 0, "tags (n=%u)", n);
    CHECK(x.d.end == x.d.len, "end %u", x.d.end);
    tu_dec_free(&x);
    tu_end();
    /* a number run in a bundle's value ends before the bundle's strings (at byte 9), as items read
     * one by one do: [1, 0xa0a0 (whose bytes are the strings), 1.5f] fails at the float after them
     * whether float32 may be in a run or not (WP_DEC_TAG_F32) */
    static const char *const crossing[] = { "d66200000007 93 01 cda0a0 ca3fc00000", "d66200000007 93 01 cda0a0 02" };
    for (int i = 0; i < 2; i++) {
        for (int f32 = 0; f32 < 2; f32++) {
            tu_case("a run that would cross a bundle's strings: %s, f32 %d", crossing[i], f32);
            CHECK_ERR(dec(&x, crossing[i], f32 ? WP_DEC_TAG_F32 : 0), WP_ERR_BAD_BUNDLE);
            CHECK_EQ_U(x.d.err.offset, 11);
            tu_dec_free(&x);
            tu_end();
        }
    }
    tu_case("a run before a bundle's strings");
    CHECK_ERR(dec(&x, "d66200000008 93 01 02 03 a0 a0", 0), WP_OK);
    n = tags(&x, tg, 32); /* (tags() does not skip a run's numbers: only the first four count) */
    CHECK(n >= 4 && tg[0] == WP_T_BUNDLE && tg[3] == WP_T_NUMRUN, "tags (n=%u): %u %u %u %u", n, tg[0], tg[1], tg[2], tg[3]);
    tu_dec_free(&x);
    tu_end();
}

static void test_prefix(void) {
    tu_case("prefix extensions and ends");
    tu_dec x;
    uint32_t tg[16], n;
    CHECK_ERR(dec(&x, "d473009101", 0), WP_OK); /* Set [1] */
    n = tags(&x, tg, 16);
    CHECK(n == 3 && tg[0] == WP_T_EXTP && tg[1] == WP_T_ARR && tg[2] == WP_T_INT, "tags (n=%u)", n);
    CHECK(tu_pay(x.d.tape[0]) == 0x73, "type");
    tu_dec_free(&x);
    EXPECT_RC("d4320091c0", 0, WP_ERR_TRAILING_DATA); /* 0x32 not a prefix type: an ext, then more */
    prefix_bit(XC.fix1, 0x32);
    EXPECT_RC("d4320091c0", 0, WP_OK);
    EXPECT_RC("c701320091c0", 0, WP_ERR_TRAILING_DATA); /* read() extensions only as fixext 1 */
    XC.fix1[1] = 0;
    /* ext type 0 of any size: undefined; the timestamp type left raw when the host asks */
    CHECK_ERR(dec(&x, "d5000102", 0), WP_OK);
    CHECK(tu_tag(x.d.tape[0]) == WP_T_UNDEF, "undefined");
    tu_dec_free(&x);
    prefix_bit(XC.raw, 0xff);
    CHECK_ERR(dec(&x, "d6ff00000001", 0), WP_OK);
    CHECK(tu_tag(x.d.tape[0]) == WP_T_EXT, "raw timestamp");
    tu_dec_free(&x);
    XC.raw[7] = 0;
    CHECK_ERR(dec(&x, "d6ff00000001", 0), WP_OK);
    CHECK(tu_tag(x.d.tape[0]) == WP_T_DATE, "timestamp");
    tu_dec_free(&x);
    /* the end of each value in multiple mode, records and bundles included */
    uint32_t ends[8] = { 0 };
    g_ends = ends;
    g_ends_cap = 8;
    CHECK_ERR(dec(&x, "01" "d4724091a16102" "4005" "d66200000006c1fda3616263a0" "c0", WP_DEC_MULTIPLE), WP_OK);
    CHECK(x.d.nvalues == 5, "values %u", x.d.nvalues);
    CHECK(ends[0] == 1 && ends[1] == 8 && ends[2] == 10 && ends[3] == 23 && ends[4] == 24, "ends %u %u %u %u %u",
          ends[0], ends[1], ends[2], ends[3], ends[4]);
    tu_dec_free(&x);
    g_ends = 0;
    g_ends_cap = 0;
    tu_end();
}

/* Malformed msgpackr extensions: input, code, offset (mpack-style table). */
static const struct { const char *hex; wp_err code; uint32_t offset; } BAD[] = {
    { "d47240", WP_ERR_TRUNCATED, 0 },
    { "d4724001", WP_ERR_BAD_RECORD, 0 },
    { "d4724092a161", WP_ERR_TRUNCATED, 3 },
    { "d4724091a161", WP_ERR_TRUNCATED, 0 },
    { "91d4724092a161a16201", WP_ERR_TRUNCATED, 1 },
    { "d5724000", WP_ERR_TRUNCATED, 0 },
    { "92d572600091a161016005", WP_ERR_UNKNOWN_RECORD, 9 },
    { "92d572600091a1610160", WP_ERR_TRUNCATED, 9 },
    { "c1", WP_ERR_RESERVED_BYTE, 0 },
    { "d66200000002c105a3616263a0", WP_ERR_BAD_BUNDLE, 0 },
    { "d66200000064c105", WP_ERR_TRUNCATED, 0 },
    { "d66200000006c105a3616263a0", WP_ERR_BAD_BUNDLE, 6 },
    { "d66200000006c1fba3616263a0", WP_ERR_BAD_BUNDLE, 6 },
    { "d66200000006c1c3a3616263a0", WP_ERR_BAD_BUNDLE, 6 },
    { "d66200000006c1", WP_ERR_TRUNCATED, 0 },
    /* counts cut short by the bundle's strings, and counts past them (positive: string 2) */
    { "d66200000006c1cca0a0", WP_ERR_BAD_BUNDLE, 6 }, { "d66200000007c1cd01a0a0", WP_ERR_BAD_BUNDLE, 6 },
    { "d66200000008c1ce0000a0a0", WP_ERR_BAD_BUNDLE, 6 }, { "d66200000006c1d0a0a0", WP_ERR_BAD_BUNDLE, 6 },
    { "d66200000007c1d1ffa0a0", WP_ERR_BAD_BUNDLE, 6 }, { "d66200000008c1d2ffffa0a0", WP_ERR_BAD_BUNDLE, 6 },
    { "d66200000007c1cc01a0a0", WP_ERR_BAD_BUNDLE, 6 }, { "d66200000007c1d07fa0a0", WP_ERR_BAD_BUNDLE, 6 },
    { "d66200000006c101c0a0", WP_ERR_BAD_BUNDLE, 0 },
    { "d66200000006c101a161", WP_ERR_TRUNCATED, 0 },
    { "d66200000004a0a0", WP_ERR_BAD_BUNDLE, 6 },
    /* a value that runs into its bundle's strings (found by fuzzing: decoded those bytes twice) */
    { "d6620000000692c0d90478787878a0", WP_ERR_BAD_BUNDLE, 8 },
    /* a string's, a binary's, an extension's bytes that reach into the bundle's strings: the
     * item is the error, before its bytes are read */
    { "d66200000006d906a0a078787878", WP_ERR_BAD_BUNDLE, 6 },
    { "d66200000006c406a0a078787878", WP_ERR_BAD_BUNDLE, 6 },
    { "d66200000007c70501a0a0787878", WP_ERR_BAD_BUNDLE, 6 },
    /* record keys with a structured-clone id (test_record_key_ids): a pointer to no keys with an
     * id, an id with no array after it, and each cut */
    { "d47240d6700000000101", WP_ERR_BAD_RECORD, 0 },
    { "92d47240d6690000000291a16101d47241d6700000000102", WP_ERR_BAD_RECORD, 14 },
    { "d47240d6690000000101", WP_ERR_BAD_RECORD, 0 },
    { "d47240d669000000", WP_ERR_TRUNCATED, 0 }, { "d47240d66900000001", WP_ERR_TRUNCATED, 0 },
    { "d47240d66900000001dc00", WP_ERR_TRUNCATED, 0 }, { "d47240d66900000001dd000000", WP_ERR_TRUNCATED, 0 },
    { "d47240d6690000000192a161", WP_ERR_TRUNCATED, 9 },
    { "d473", WP_ERR_TRUNCATED, 0 },
    { "d47300", WP_ERR_TRUNCATED, 3 },
    { "91d47300", WP_ERR_TRUNCATED, 0 }, /* inside an array: the array is what is cut */
};

static void test_bad(void) {
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        tu_case("malformed msgpackr extension %s", BAD[i].hex);
        tu_dec x;
        wp_err rc = dec(&x, BAD[i].hex, 0);
        CHECK(rc == BAD[i].code && x.d.err.offset == BAD[i].offset, "%s: got %s at %u, want %s at %u", BAD[i].hex,
              wp_err_name(rc), x.d.err.offset, wp_err_name(BAD[i].code), BAD[i].offset);
        CHECK(table_is_zero(), "%s: table restored", BAD[i].hex);
        tu_dec_free(&x);
        tu_end();
    }
}

int main(void) {
    wp_tables_reset(&T);
    memset(&XC, 0, sizeof XC);
    prefix_bit(XC.any, 0x65);
    prefix_bit(XC.any, 0x69);
    prefix_bit(XC.any, 0x73);
    prefix_bit(XC.any, 0x78);
    test_records();
    test_record_key_ids();
    test_bundles();
    test_bundle_counts();
    test_prefix();
    test_bad();
    return tu_finish();
}
