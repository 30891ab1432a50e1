/*
 * test_holes.c: input bytes the caller leaves out (wirepack.h, wp_decoder.holes). Each case is
 * an input, the holes given with it, and the result: OK (the tape then equals the one decoding
 * the whole input gives, with every hole's bytes changed first) or WP_ERR_HOLE at an offset.
 */
#include "test_util.h"

static wp_tables T;

typedef struct hole_case {
    int cbor;
    const char *hex;
    uint32_t nholes;
    uint32_t holes[6];
    wp_err err;
    uint32_t off;
} hole_case;

static const hole_case cases[] = {
    /* MessagePack: [bin8 "abc", 1] */
    { 0, "92 c4 03 616263 01", 1, { 3, 3 }, WP_OK, 0 },
    { 0, "92 c4 03 616263 01", 0, { 0 }, WP_OK, 0 },
    { 0, "92 c4 03 616263 01", 1, { 4, 2 }, WP_ERR_HOLE, 1 },       /* starts inside the binary */
    { 0, "92 c4 03 616263 01", 1, { 3, 2 }, WP_ERR_HOLE, 1 },       /* shorter than it */
    { 0, "92 c4 03 616263 01", 1, { 3, 4 }, WP_ERR_HOLE, 1 },       /* longer (takes the 01) */
    { 0, "92 c4 03 616263 01", 1, { 6, 1 }, WP_ERR_HOLE, 7 },       /* no binary there: met at the end */
    { 0, "92 c4 03 616263 01", 1, { 0, 1 }, WP_ERR_TRUNCATED, 0 }, /* the first byte (changed: c8, an ext 16 cut short) */
    /* bin16 and bin32, two holes, and one binary left in */
    { 0, "94 c5 0002 6162 c4 01 63 c6 00000003 646566 c0", 2, { 4, 2, 14, 3 }, WP_OK, 0 },
    { 0, "94 c5 0002 6162 c4 01 63 c6 00000003 646566 c0", 1, { 14, 3 }, WP_OK, 0 },
    { 0, "94 c5 0002 6162 c4 01 63 c6 00000003 646566 c0", 2, { 14, 3, 4, 2 }, WP_ERR_HOLE, 18 }, /* out of order */
    /* a map value; a string is no binary */
    { 0, "81 a1 6b c4 02 0102", 1, { 5, 2 }, WP_OK, 0 },
    { 0, "92 a3 616263 01", 1, { 2, 3 }, WP_ERR_HOLE, 6 },
    /* an extension's bytes, left to the host, may be a hole; not those of type 0 (00 is
     * undefined) or -1 (a timestamp), which C reads */
    { 0, "92 c7 02 05 0102 01", 1, { 4, 2 }, WP_OK, 0 },
    { 0, "92 d4 05 aa 01", 1, { 3, 1 }, WP_OK, 0 },
    { 0, "92 d4 00 00 01", 1, { 3, 1 }, WP_ERR_HOLE, 5 },
    { 0, "92 d4 00 01 01", 1, { 3, 1 }, WP_ERR_HOLE, 5 },
    { 0, "92 d6 ff 00000001 01", 1, { 3, 4 }, WP_ERR_HOLE, 8 },
    /* a bundle (bundled strings, 62) with holes: decode again whole */
    { 0, "d6 62 00000005 c0 a0 a0", 1, { 7, 1 }, WP_ERR_HOLE, 0 },
    /* CBOR: [h'616263', 1] */
    { 1, "82 43 616263 01", 1, { 2, 3 }, WP_OK, 0 },
    { 1, "82 43 616263 01", 1, { 2, 2 }, WP_ERR_HOLE, 1 },
    { 1, "82 43 616263 01", 1, { 3, 2 }, WP_ERR_HOLE, 1 },
    { 1, "82 58 03 616263 01", 1, { 3, 3 }, WP_OK, 0 },
    /* a tagged byte string (a typed array: tag 64) */
    { 1, "82 d8 40 43 616263 01", 1, { 4, 3 }, WP_OK, 0 },
    /* a text string, and an indefinite byte string's chunk, are no holes */
    { 1, "82 63 616263 01", 1, { 2, 3 }, WP_ERR_HOLE, 6 },
    { 1, "82 5f 43 616263 ff 01", 1, { 3, 3 }, WP_ERR_HOLE, 8 },
    /* cbor-x's bundle tag with holes (here over an array that is no bundle) */
    { 1, "d9 dff9 84 60 41 aa 40 00", 1, { 6, 1 }, WP_ERR_HOLE, 0 },
};

static void run_case(const hole_case *c) {
    tu_buf b = { 0 }, g = { 0 };
    tu_buf_hex(&b, c->hex);
    /* the reference: the whole input, no holes */
    tu_dec ref, x;
    wp_err (*fn)(wp_decoder *, wp_tables *) = c->cbor ? wp_cbor_decode : wp_msgpack_decode;
    const uint32_t flags = c->cbor ? 0 : WP_DEC_BUNDLES; /* (as the JS Unpackr decodes) */
    wp_tables_reset(&T);
    tu_holes = NULL;
    tu_nholes = 0;
    wp_err r0 = tu_decode_fn(&ref, &T, fn, b.p, (uint32_t)b.len, flags, 0, 0, NULL);
    CHECK_ERR(r0, WP_OK);
    /* the holes' bytes changed: what C reads of them would show */
    tu_buf_hex(&g, c->hex);
    for (uint32_t k = 0; k < c->nholes; k++)
        for (uint32_t j = c->holes[2 * k]; j < c->holes[2 * k] + c->holes[2 * k + 1] && j < g.len; j++) g.p[j] ^= 0x5a;
    tu_holes = c->holes;
    tu_nholes = c->nholes;
    wp_err rc = tu_decode_fn(&x, &T, fn, g.p, (uint32_t)g.len, flags, 0, 0, NULL);
    tu_holes = NULL;
    tu_nholes = 0;
    CHECK_ERR(rc, c->err);
    if (c->err == WP_OK) {
        CHECK_EQ_U(x.d.holes_seen, c->nholes);
        CHECK_EQ_U(x.d.tape_len, ref.d.tape_len);
        CHECK(memcmp(x.d.tape, ref.d.tape, 4u * ref.d.tape_len) == 0, "the tape differs from the whole input's");
        CHECK_EQ_U(x.d.ascii_len, ref.d.ascii_len);
    } else {
        CHECK_EQ_U(x.d.err.offset, c->off);
    }
    tu_dec_free(&ref);
    tu_dec_free(&x);
    tu_buf_free(&b);
    tu_buf_free(&g);
}

int main(void) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const hole_case *c = &cases[i];
        tu_case("%s '%s' %u holes -> %s@%u", c->cbor ? "cbor" : "msgpack", c->hex, c->nholes, wp_err_name(c->err), c->off);
        run_case(c);
        tu_end();
    }
    return tu_finish();
}
