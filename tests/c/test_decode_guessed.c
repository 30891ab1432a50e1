/*
 * test_decode_guessed.c: the decoders' loop over the entries of a guessed map (wp_mp_pairs), and
 * the MessagePack decoder's record guess (a definition's keys compared with the shape its id's
 * last definition had, wp_rec_guess), are shortcuts, so they must give exactly what the item
 * loop and interning give: the same tape, strings, end, error
 * code and error offset, on every prefix and on every one-byte change of messages that reach it.
 *
 * Each input is decoded twice with fresh tables, with the shortcut and without it
 * (wp_test_no_shortcuts, csrc/wp_internal.h), and the two results are compared word for word. */
#include "test_util.h"

static wp_tables TA, TB;

typedef wp_err (*decode_fn)(wp_decoder *, wp_tables *);

static uint32_t recs_a[WP_REC_SLOTS], recs_b[WP_REC_SLOTS];

/* Both ways over in[0..len): equal results, or a failed check naming what differs. Returns
 * whether they were equal. The tables carry over between calls (each side its own), as the
 * guesses do between the messages of a stream. */
static uint32_t max_str; /* the string limit of both ways (0: none) */

static int same_both_ways(decode_fn fn, const uint8_t *in, uint32_t len, uint32_t flags, const char *what, uint32_t at) {
    tu_dec a, b;
    uint32_t *ra = flags & 0x80000000u ? recs_a : NULL, *rb = flags & 0x80000000u ? recs_b : NULL;
    flags &= 0x7fffffffu;
    wp_test_no_shortcuts = false;
    tu_decode_fn(&a, &TA, fn, in, len, flags, 0, max_str, ra);
    wp_test_no_shortcuts = true;
    tu_decode_fn(&b, &TB, fn, in, len, flags, 0, max_str, rb);
    wp_test_no_shortcuts = false;
    int ok = CHECK(a.rc == b.rc, "%s %u flags %x: %s, item loop %s", what, at, flags, wp_err_name(a.rc), wp_err_name(b.rc)) &&
             CHECK(a.d.err.offset == b.d.err.offset, "%s %u flags %x: offset %u, item loop %u", what, at, flags, a.d.err.offset, b.d.err.offset) &&
             CHECK(a.d.tape_len == b.d.tape_len, "%s %u flags %x: tape %u words, item loop %u", what, at, flags, a.d.tape_len, b.d.tape_len) &&
             CHECK(memcmp(a.d.tape, b.d.tape, (size_t)a.d.tape_len * 4) == 0, "%s %u flags %x: tapes differ", what, at, flags) &&
             CHECK(a.d.ascii_len == b.d.ascii_len && memcmp(a.d.ascii, b.d.ascii, a.d.ascii_len) == 0, "%s %u: ASCII areas differ", what, at) &&
             CHECK(a.d.utf16_len == b.d.utf16_len && memcmp(a.d.utf16, b.d.utf16, (size_t)a.d.utf16_len * 2) == 0, "%s %u: UTF-16 areas differ", what, at) &&
             CHECK(a.d.end == b.d.end && a.d.nvalues == b.d.nvalues, "%s %u: end %u/%u values %u/%u", what, at, a.d.end, b.d.end, a.d.nvalues, b.d.nvalues) &&
             CHECK(TA.nkeys == TB.nkeys && TA.nshapes == TB.nshapes, "%s %u: tables differ", what, at);
    tu_dec_free(&a);
    tu_dec_free(&b);
    return ok;
}

/* ------------------------------------------------------------------ MessagePack */

static void mp_str(tu_buf *b, const char *s) {
    uint32_t n = (uint32_t)strlen(s);
    if (n < 32) tu_buf_u8(b, 0xa0 | n);
    else { tu_buf_u8(b, 0xd9); tu_buf_u8(b, n); }
    tu_buf_bytes(b, s, n);
}

/* Keys of 1 to 16 bytes (the shortcut's) and one of 17 (past it), and values of every kind the
 * shortcut writes (each int form, floats, nil, booleans, short and str8 strings, ASCII or not,
 * in and out of the value cache's lengths) and some it stops at (containers, bin, ext, 64-bit
 * ints, str16). Maps 1-2 teach the guess; the shortcut takes maps 3 on. */
static void mp_message(tu_buf *b, int variant) {
    static const char *const keys[] = { "a", "id", "name", "kind", "count", "enabled", "created", "labels_x",
                                        "ratio", "f32", "u8", "u16", "u32", "i8", "i16", "i32",
                                        "sixteen_bytes_ok", "seventeen_bytes_x", "neg", "big", "arr", "obj", "bin" };
    const uint32_t nkeys = sizeof keys / sizeof keys[0];
    const uint32_t nmaps = 5;
    tu_buf_u8(b, 0x90 | nmaps);
    for (uint32_t m = 0; m < nmaps; m++) {
        tu_buf_u8(b, 0xde);
        tu_buf_be(b, nkeys, 2);
        for (uint32_t k = 0; k < nkeys; k++) {
            /* variant 1: map 4 has another key at position 9 (a miss mid-map) */
            if (variant == 1 && m == 3 && k == 9) mp_str(b, "other");
            else mp_str(b, keys[k]);
            switch (k) {
            case 0: tu_buf_u8(b, m & 1 ? 0x3f : 0x00); break;
            case 1: tu_buf_u8(b, 0x40 + m); break;                 /* a record id when records are on */
            case 2: mp_str(b, m & 1 ? "caf\xc3\xa9 au lait" : "short"); break;
            case 3: mp_str(b, "abc"); break;                        /* under the value cache's lengths */
            case 4: tu_buf_u8(b, 0x7f); break;
            case 5: tu_buf_u8(b, m & 1 ? 0xc3 : 0xc2); break;
            case 6: tu_buf_u8(b, 0xc0); break;
            case 7: mp_str(b, "a string of forty bytes, well over 32..."); break;
            case 8: tu_buf_u8(b, 0xcb); tu_buf_be(b, 0x3ff8000000000000ull + m, 8); break;
            case 9: tu_buf_u8(b, 0xca); tu_buf_be(b, 0x3fc00000u + m, 4); break;
            case 10: tu_buf_u8(b, 0xcc); tu_buf_u8(b, 200 + m); break;
            case 11: tu_buf_u8(b, 0xcd); tu_buf_be(b, 60000 + m, 2); break;
            case 12: tu_buf_u8(b, 0xce); tu_buf_be(b, 4000000000u + m, 4); break;
            case 13: tu_buf_u8(b, 0xd0); tu_buf_u8(b, 0x80 + m); break;
            case 14: tu_buf_u8(b, 0xd1); tu_buf_be(b, 0x8000 + m, 2); break;
            case 15: tu_buf_u8(b, 0xd2); tu_buf_be(b, 0x80000000u + m, 4); break;
            case 16: mp_str(b, "\xe4\xb8\xad\xe6\x96\x87 and a longer tail of ASCII text"); break;
            case 17: tu_buf_u8(b, 0xda); tu_buf_be(b, 3, 2); tu_buf_bytes(b, "s16", 3); break;
            case 18: tu_buf_u8(b, 0xe0 + m); break;
            case 19: tu_buf_u8(b, m & 1 ? 0xcf : 0xd3); tu_buf_be(b, 0x0102030405060708ull, 8); break;
            case 20: tu_buf_u8(b, 0x92); tu_buf_u8(b, 0x01); tu_buf_u8(b, 0xc0); break;
            case 21: tu_buf_u8(b, 0x81); mp_str(b, "x"); tu_buf_u8(b, m); break;
            default: tu_buf_u8(b, 0xc4); tu_buf_u8(b, 2); tu_buf_u8(b, 0xaa); tu_buf_u8(b, 0xbb); break;
            }
        }
    }
}

/* bytes that end or change what the shortcut takes: other kinds, lengths at its bounds */
static const uint8_t mp_mutations[] = { 0x00, 0x40, 0x81, 0xa0, 0xb0, 0xb1, 0xc1, 0xcb, 0xd4, 0xd9, 0xdb, 0xff };

/* b both ways under flags, from fresh tables: the whole message twice (the second time with the
 * guesses of the first), every prefix, and (muts not NULL) every byte changed to each of muts. */
static void all_both_ways(decode_fn fn, const tu_buf *b, uint32_t flags, const uint8_t *muts, size_t nmuts) {
    wp_tables_reset(&TA);
    wp_tables_reset(&TB);
    memset(recs_a, 0, sizeof recs_a);
    memset(recs_b, 0, sizeof recs_b);
    same_both_ways(fn, b->p, b->len, flags, "whole", 0);
    same_both_ways(fn, b->p, b->len, flags, "whole again", 0);
    for (uint32_t n = 0; n < b->len; n++)
        if (!same_both_ways(fn, b->p, n, flags, "prefix", n)) break;
    if (muts == NULL) return;
    uint8_t *m = malloc(b->len);
    int bad = 0;
    for (uint32_t i = 0; i < b->len && !bad; i++) {
        for (size_t v = 0; v < nmuts && !bad; v++) {
            memcpy(m, b->p, b->len);
            if (m[i] == muts[v]) continue;
            m[i] = muts[v];
            bad = !same_both_ways(fn, m, b->len, flags, "byte changed at", i);
        }
    }
    free(m);
}

static void check_message(decode_fn fn, const tu_buf *b, const char *name, const uint8_t *muts, size_t nmuts, uint32_t extra_flags) {
    /* (flags, string limit): the limit of 300 lets the shortcut run and fails declared lengths
     * past it, both ways alike */
    static const uint32_t flag_sets[][2] = {
        { WP_DEC_MAPS_AS_OBJECTS | WP_DEC_VCACHE, 0 },
        { WP_DEC_MAPS_AS_OBJECTS | WP_DEC_TAG_F32 | WP_DEC_MULTIPLE, 300 },
        { WP_DEC_MAPS_AS_OBJECTS | WP_DEC_VCACHE | 0x80000000u, 0 }, /* with a (empty) record table */
        { WP_DEC_VCACHE, 0 },
    };
    for (size_t f = 0; f < sizeof flag_sets / sizeof flag_sets[0]; f++) {
        max_str = flag_sets[f][1];
        const uint32_t flags = flag_sets[f][0] | (f == 1 ? extra_flags : 0);
        tu_case("%s flags %x limit %u: whole, every prefix, (every byte changed,) both ways", name, flags, max_str);
        /* (every byte changed: under the first two flag sets, which differ the most; the run
         * takes seconds under the sanitizers) */
        all_both_ways(fn, b, flags, f < 2 ? muts : NULL, nmuts);
        tu_end();
    }
}

static void plain_maps(tu_buf *b, int cbor, uint32_t nmaps, uint32_t nkeys);
static void check_reached(decode_fn fn, const tu_buf *b, const char *name);

/* A msgpackr record definition (d4 72 id, or d5 72 id 0 for a two-byte id of high byte 0): its
 * keys, then small integers as its values. */
static void mp_recdef(tu_buf *b, uint32_t id, int two_byte, const char *const *keys, uint32_t nk, uint32_t v) {
    tu_buf_u8(b, two_byte ? 0xd5 : 0xd4);
    tu_buf_u8(b, 0x72);
    tu_buf_u8(b, id);
    if (two_byte) tu_buf_u8(b, 0);
    tu_buf_u8(b, 0x90 | nk);
    for (uint32_t k = 0; k < nk; k++) mp_str(b, keys[k]);
    for (uint32_t k = 0; k < nk; k++) tu_buf_u8(b, (v + k) & 0x3f);
}

/* Record definitions that repeat (the second of each is compared with the first's shape, the
 * record guess), one that reuses an id and count with other keys (a miss), keys of 16 and 17
 * bytes, a two-byte id, a reference, and a definition within 16 bytes of the end. */
static void mp_records(tu_buf *b) {
    static const char *const k3[] = { "one", "two", "seventeen_bytes_x" };
    static const char *const k3b[] = { "one", "two", "three" };
    static const char *const k2[] = { "sixteen_bytes_ok", "x" };
    static const char *const k1[] = { "z" };
    tu_buf_u8(b, 0x9a);
    mp_recdef(b, 0x40, 0, k3, 3, 1);
    mp_recdef(b, 0x40, 0, k3, 3, 4);
    tu_buf_u8(b, 0x40); tu_buf_u8(b, 7); tu_buf_u8(b, 8); tu_buf_u8(b, 9);
    mp_recdef(b, 0x41, 0, k2, 2, 10);
    mp_recdef(b, 0x40, 0, k3b, 3, 12);
    mp_recdef(b, 0x40, 0, k3, 3, 15);
    mp_recdef(b, 0x41, 0, k2, 2, 18);
    mp_recdef(b, 0x42, 1, k2, 2, 20);
    mp_recdef(b, 0x42, 1, k2, 2, 22);
    mp_recdef(b, 0x43, 0, k1, 1, 24);
}

/* The record guess gives what interning the keys gives (same_both_ways: the shortcuts off turn
 * it off), under string limits that keep or refuse the 17-byte key, over every prefix and
 * one-byte change; and it is reached. */
static void test_mp_records(void) {
    tu_buf b = { 0 };
    mp_records(&b);
    static const uint32_t limits[] = { 0, 300, 16 };
    for (size_t l = 0; l < sizeof limits / sizeof limits[0]; l++) {
        max_str = limits[l];
        tu_case("MessagePack record definitions, limit %u: whole, every prefix, every byte changed, both ways", max_str);
        all_both_ways(wp_msgpack_decode, &b, WP_DEC_MAPS_AS_OBJECTS | WP_DEC_VCACHE | 0x80000000u, mp_mutations, sizeof mp_mutations);
        tu_end();
    }
    max_str = 0;
    /* reached: with fresh tables, the second definition of each of 0x40, 0x41 and the two-byte
     * 0x42 (0x40's third and fourth miss: same id and count, other keys); decoded again, with
     * the guesses of the first pass, all nine definitions but those two; none with the
     * shortcuts off */
    tu_case("MessagePack record definitions: the record guess is reached");
    static const struct { uint32_t max_str; bool off; uint32_t want1, want2; } runs[] = {
        { 0, false, 3, 7 },
        { 0, true, 0, 0 },
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        wp_tables_reset(&TA);
        memset(recs_a, 0, sizeof recs_a);
        wp_test_no_shortcuts = runs[i].off;
        for (int pass = 0; pass < 2; pass++) {
            tu_dec x;
            wp_test_rec_guesses = 0;
            CHECK_ERR(tu_decode_fn(&x, &TA, wp_msgpack_decode, b.p, b.len, WP_DEC_MAPS_AS_OBJECTS, 0, runs[i].max_str, recs_a), WP_OK);
            const uint32_t want = pass ? runs[i].want2 : runs[i].want1;
            CHECK(wp_test_rec_guesses == want, "run %zu pass %d: %u guessed, want %u", i, pass, wp_test_rec_guesses, want);
            tu_dec_free(&x);
        }
        wp_test_no_shortcuts = false;
    }
    tu_end();
    tu_buf_free(&b);
}
static void cb_head(tu_buf *b, uint32_t major, uint64_t v);
static void cb_text(tu_buf *b, const char *s);

static void test_mp(void) {
    tu_buf b = { 0 };
    mp_message(&b, 0);
    check_message(wp_msgpack_decode, &b, "MessagePack maps of every value kind", mp_mutations, sizeof mp_mutations, 0);
    b.len = 0;
    mp_message(&b, 1);
    check_message(wp_msgpack_decode, &b, "MessagePack maps, a key missed mid-map", mp_mutations, sizeof mp_mutations, 0);
    b.len = 0;
    plain_maps(&b, 0, 6, 5);
    check_message(wp_msgpack_decode, &b, "MessagePack maps of small ints", mp_mutations, sizeof mp_mutations, 0);
    check_reached(wp_msgpack_decode, &b, "MessagePack");
    tu_buf_free(&b);
    test_mp_records();
}


/* ------------------------------------------------------------------ CBOR */

static void cb_head(tu_buf *b, uint32_t major, uint64_t v) {
    if (v < 24) tu_buf_u8(b, (major << 5) | (uint32_t)v);
    else if (v < 0x100) { tu_buf_u8(b, (major << 5) | 24); tu_buf_u8(b, (uint32_t)v); }
    else if (v < 0x10000) { tu_buf_u8(b, (major << 5) | 25); tu_buf_be(b, v, 2); }
    else if (v < 0x100000000ull) { tu_buf_u8(b, (major << 5) | 26); tu_buf_be(b, v, 4); }
    else { tu_buf_u8(b, (major << 5) | 27); tu_buf_be(b, v, 8); }
}

static void cb_text(tu_buf *b, const char *s) {
    uint32_t n = (uint32_t)strlen(s);
    cb_head(b, 3, n);
    tu_buf_bytes(b, s, n);
}

/* As mp_message, in CBOR: the shortcut's heads and some it stops at (8-byte heads, tags, bytes,
 * containers, half and single floats, simple values). Variant 1: a key missed mid-map; variant 2:
 * the maps indefinite (never guessed) between definite ones. */
static void cb_message(tu_buf *b, int variant) {
    static const char *const keys[] = { "a", "id", "name", "kind", "count", "enabled", "created", "labels_x",
                                        "ratio", "u8", "u16", "u32", "n8", "n16", "undef", "none",
                                        "sixteen_bytes_ok", "seventeen_bytes_x", "neg", "big", "arr", "obj", "bin", "tagged", "half" };
    const uint32_t nkeys = sizeof keys / sizeof keys[0];
    const uint32_t nmaps = 5;
    cb_head(b, 4, nmaps);
    for (uint32_t m = 0; m < nmaps; m++) {
        const int indef = variant == 2 && m == 3;
        if (indef) tu_buf_u8(b, 0xbf);
        else cb_head(b, 5, nkeys);
        for (uint32_t k = 0; k < nkeys; k++) {
            if (variant == 1 && m == 3 && k == 9) cb_text(b, "other");
            else cb_text(b, keys[k]);
            switch (k) {
            case 0: tu_buf_u8(b, m & 1 ? 0x17 : 0x00); break;
            case 1: cb_head(b, 0, 24 + m); break;
            case 2: cb_text(b, m & 1 ? "caf\xc3\xa9 au lait" : "short"); break;
            case 3: cb_text(b, "abc"); break;
            case 4: cb_head(b, 1, m); break;
            case 5: tu_buf_u8(b, m & 1 ? 0xf5 : 0xf4); break;
            case 6: tu_buf_u8(b, 0xf6); break;
            case 7: cb_text(b, "a string of forty bytes, well over 32..."); break;
            case 8: tu_buf_u8(b, 0xfb); tu_buf_be(b, 0x3ff8000000000000ull + m, 8); break;
            case 9: tu_buf_u8(b, 0x18); tu_buf_u8(b, 200 + m); break;
            case 10: tu_buf_u8(b, 0x19); tu_buf_be(b, 60000 + m, 2); break;
            case 11: tu_buf_u8(b, 0x1a); tu_buf_be(b, m & 1 ? 4000000000u + m : 70000 + m, 4); break;
            case 12: tu_buf_u8(b, 0x38); tu_buf_u8(b, 0x80 + m); break;
            case 13: tu_buf_u8(b, 0x39); tu_buf_be(b, 0x8000 + m, 2); break;
            case 14: tu_buf_u8(b, 0xf7); break;
            case 15: tu_buf_u8(b, 0x3a); tu_buf_be(b, 0x80000000u + m, 4); break;
            case 16: cb_text(b, "\xe4\xb8\xad\xe6\x96\x87 and a longer tail of ASCII text"); break;
            case 17: tu_buf_u8(b, 0x79); tu_buf_be(b, 3, 2); tu_buf_bytes(b, "s16", 3); break;
            case 18: tu_buf_u8(b, 0x20 + m); break;
            case 19: cb_head(b, m & 1 ? 1 : 0, 0x0102030405060708ull); break;
            case 20: tu_buf_u8(b, 0x82); tu_buf_u8(b, 0x01); tu_buf_u8(b, 0xf6); break;
            case 21: tu_buf_u8(b, 0xa1); cb_text(b, "x"); tu_buf_u8(b, m); break;
            case 22: tu_buf_u8(b, 0x42); tu_buf_u8(b, 0xaa); tu_buf_u8(b, 0xbb); break;
            case 23: tu_buf_u8(b, 0xc1); tu_buf_u8(b, 0x1a); tu_buf_be(b, 1700000000u + m, 4); break;
            default: tu_buf_u8(b, m & 1 ? 0xf9 : 0xfa); tu_buf_be(b, m & 1 ? 0x3c00u : 0x3fc00000u, m & 1 ? 2 : 4); break;
            }
        }
        if (indef) tu_buf_u8(b, 0xff);
    }
}

static const uint8_t cb_mutations[] = { 0x00, 0x38, 0x5f, 0x60, 0x70, 0x71, 0x78, 0x81, 0xa1, 0xbf, 0xd8, 0xfb, 0xff };

static void test_cbor(void) {
    tu_buf b = { 0 };
    for (int v = 0; v < 3; v++) {
        b.len = 0;
        cb_message(&b, v);
        check_message(wp_cbor_decode, &b, v == 0 ? "CBOR maps of every value kind" : v == 1 ? "CBOR maps, a key missed mid-map" : "CBOR maps, one indefinite",
                      cb_mutations, sizeof cb_mutations, WP_DEC_CBOR_DATES | WP_DEC_CBOR_RECS);
    }
    b.len = 0;
    plain_maps(&b, 1, 6, 5);
    check_message(wp_cbor_decode, &b, "CBOR maps of small ints", cb_mutations, sizeof cb_mutations, 0);
    check_reached(wp_cbor_decode, &b, "CBOR");
    tu_buf_free(&b);
}

/* ------------------------------------------------------------------ both formats */

/* Maps where every entry is the shortcut's (keys "k0".., small integers), in an array: each map
 * whole in one call, ended by its last value (WP_PAIRS_DONE), as the last item of the message
 * or before more. */
static void plain_maps(tu_buf *b, int cbor, uint32_t nmaps, uint32_t nkeys) {
    if (cbor) cb_head(b, 4, nmaps);
    else { tu_buf_u8(b, 0xdc); tu_buf_be(b, nmaps, 2); }
    for (uint32_t m = 0; m < nmaps; m++) {
        if (cbor) cb_head(b, 5, nkeys);
        else tu_buf_u8(b, 0x80 | nkeys);
        for (uint32_t k = 0; k < nkeys; k++) {
            char key[12]; /* ("k" and up to 10 digits) */
            snprintf(key, sizeof key, "k%u", k);
            if (cbor) cb_text(b, key);
            else mp_str(b, key);
            tu_buf_u8(b, (m + k) % 24);
        }
    }
}

/* The shortcut is reached in plain_maps(6, 5): maps 3 to 6 are guessed as they open (maps 1 and
 * 2 closed with their shape, at their size and depth), and it takes all 5 entries of each
 * (without the decoders' slack, not the last map's last 4: their keys are within 16 bytes of the
 * end, and it reads keys as two words); not under a string limit below 255 bytes, nor with the
 * shortcuts off. */
static void check_reached(decode_fn fn, const tu_buf *b, const char *name) {
    tu_case("%s: the guessed maps' entries go through the shortcut", name);
    static const struct { uint32_t max_str; bool off; uint32_t want; } runs[] = {
        { 0, false, WP_DEC_SLACK ? 4u * 5u : 3u * 5u + 1u },
        { 254, false, 0 },
        { 0, true, 0 },
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        tu_dec x;
        wp_tables_reset(&TA);
        wp_test_pairs = 0;
        wp_test_no_shortcuts = runs[i].off;
        CHECK_ERR(tu_decode_fn(&x, &TA, fn, b->p, b->len, WP_DEC_MAPS_AS_OBJECTS, 0, runs[i].max_str, NULL), WP_OK);
        wp_test_no_shortcuts = false;
        CHECK(wp_test_pairs == runs[i].want, "run %zu: %u entries, want %u", i, wp_test_pairs, runs[i].want);
        tu_dec_free(&x);
    }
    tu_end();
}

int main(void) {
    test_mp();
    test_cbor();
    return tu_finish();
}
