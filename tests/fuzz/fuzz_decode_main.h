/*
 * fuzz_decode_main.h: the body shared by fuzz_msgpack_decode.c and fuzz_cbor_decode.c
 * (define FZ_FORMAT before including).
 *
 * Input: one configuration byte C, then (MessagePack only) one feature byte X, then (when bit 7
 * of C is set) one limits byte L, then the bytes to decode.
 *   C: bit 0 WP_DEC_MAPS_AS_OBJECTS, bit 1 WP_DEC_MULTIPLE, bit 2 WP_DEC_NO_INTERN,
 *      bit 3 WP_DEC_TAG_F32, bits 4-6 max_depth (0, 1, 2, 3, 5, 16, 100, 0xFFFFFFFF),
 *      bit 7 policy limits.
 *   X (msgpackr's extension semantics, as the JS Unpackr sets them):
 *      bit 0 a record table (d->records, WP_REC_SLOTS words); after every call it must be exactly
 *            as before (the decoder undoes the call's definitions);
 *      bit 1 with bit 0: the table starts with shared structures (one- and two-byte ids, high
 *            byte 0 and not, negative ids), else all zero;
 *      bit 2 an extension config with msgpackr's prefix types (0x65 Error, 0x69 structured-clone
 *            id, 0x73 Set, 0x78 RegExp: "any" size);
 *      bit 3 user extensions in the config too: prefix 0x10 (any size), 0x01 (fixext 1 only);
 *            raw (always EXT) 0x00, 0xff (the timestamp type) and 0x20;
 *      bit 4 WP_DEC_BUNDLES (ext 0x62 and 0xc1 are bundled strings);
 *      bit 5 WP_DEC_REC_STRICT;
 *      bits 6-7 d->ends: none, 1 word, 3 words, or one per input byte (enough).
 *   L: bits 0-4 set max_array, max_map, max_str, max_bin, max_ext to 1 + 2 * (L >> 5), the
 *      others stay 0 (none).
 * An input of odd length (all of it, C included) is decoded with WP_DEC_VCACHE, one whose length
 * has bit 3 set with WP_DEC_UTF8_HOST (CBOR also: bit 1 WP_DEC_CBOR_DATES, bit 2 WP_DEC_CBOR_RECS,
 * bit 4 WP_DEC_CBOR_SHARED, bit 5 WP_DEC_CBOR_PACKED).
 * The tables persist across inputs and are reset every FZ_RESET_EVERY runs into one of four
 * states (see fuzz_common.h); every 1024 runs their internal consistency is checked.
 */
#include "fuzz_common.h"

/* Shared structures for X bit 1: (slot, table word) pairs. */
static const uint32_t fz_shared_recs[][2] = {
    { 0, 3 },                                  /* 0x40: 2 fields */
    { 1, 1 },                                  /* 0x41: no fields */
    { 2, 2 | WP_REC_HB0 },                     /* 0x42 00: 1 field; 0x42 h: two-byte ids */
    { 34, 4 | WP_REC_HB0 },                    /* 0x62 00: 3 fields */
};

static void fz_set_features(uint32_t x, uint32_t len) {
    fz_recs_on = (x & 1u) != 0;
    if (fz_recs_on) {
        static int preloaded = -1;
        int want = (x & 2u) != 0;
        if (preloaded != want) {
            memset(fz_recs_init, 0, sizeof fz_recs_init);
            if (want) {
                for (size_t k = 0; k < sizeof fz_shared_recs / sizeof fz_shared_recs[0]; k++)
                    fz_recs_init[fz_shared_recs[k][0]] = fz_shared_recs[k][1];
                fz_recs_init[fz_rec_slot(2, 1)] = 3;   /* 0x42 01: id -34, 2 fields */
                fz_recs_init[fz_rec_slot(34, 1)] = 1;  /* 0x62 01: id 66, no fields */
                fz_recs_init[fz_rec_slot(34, 255)] = 2; /* 0x62 ff: id 8194, 1 field */
                fz_recs_init[fz_rec_slot(2, 255)] = 2; /* 0x42 ff: id -8162, 1 field */
            }
            preloaded = want;
        }
        memcpy(fz_recs, fz_recs_init, sizeof fz_recs);
    }
    fz_xc_on = (x & 0x0cu) != 0;
    memset(&fz_xc, 0, sizeof fz_xc);
    if (x & 4u) {
        fz_setbit(fz_xc.any, 0x65); fz_setbit(fz_xc.any, 0x69); fz_setbit(fz_xc.any, 0x73); fz_setbit(fz_xc.any, 0x78);
    }
    if (x & 8u) {
        fz_setbit(fz_xc.any, 0x10); fz_setbit(fz_xc.fix1, 0x01);
        fz_setbit(fz_xc.raw, 0x00); fz_setbit(fz_xc.raw, 0xff); fz_setbit(fz_xc.raw, 0x20);
    }
    static const uint32_t caps[4] = { 0, 1, 3, 0 };
    fz_ends_cap = (x >> 6) == 3 ? len + 1 : caps[x >> 6];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > (1u << 24)) return 0;
    fz_tables_tick();
    uint32_t cfg = data[0];
    uint32_t flags = cfg & 0x0fu;
    if (size & 1u) flags |= WP_DEC_VCACHE; /* (no config bit is free: half the inputs, by length) */
    if (FZ_FORMAT == FZ_CBOR && (size & 2u)) flags |= WP_DEC_CBOR_DATES; /* (the same way) */
    if (FZ_FORMAT == FZ_CBOR && (size & 4u)) flags |= WP_DEC_CBOR_RECS;
    if (size & 8u) flags |= WP_DEC_UTF8_HOST;
    if (FZ_FORMAT == FZ_CBOR && (size & 16u)) flags |= WP_DEC_CBOR_SHARED;
    if (FZ_FORMAT == FZ_CBOR && (size & 32u)) flags |= WP_DEC_CBOR_PACKED;
    /* (msgpack-javascript's rules: MessagePack, by the same bits) */
    if (FZ_FORMAT == FZ_MSGPACK && (size & 2u)) flags |= WP_DEC_MP_STRICT_KEYS;
    if (FZ_FORMAT == FZ_MSGPACK && (size & 4u)) flags |= WP_DEC_MP_RAW_STRINGS;
    if (FZ_FORMAT == FZ_MSGPACK && (size & 16u)) flags |= WP_DEC_MP_NO_INT64_KEYS;
    if (FZ_FORMAT == FZ_MSGPACK && (size & 32u)) flags |= WP_DEC_MP_C1_UNDEFINED; /* (json-pack's undefined) */
    uint32_t max_depth = fz_depths[(cfg >> 4) & 7u];
    size_t skip = 1;
    uint32_t feat = 0;
    if (FZ_FORMAT == FZ_MSGPACK) {
        if (size < 2) return 0;
        feat = data[1];
        skip = 2;
        if (feat & 0x10u) flags |= WP_DEC_BUNDLES;
        if (feat & 0x20u) flags |= WP_DEC_REC_STRICT;
    }
    memset(fz_limits, 0, sizeof fz_limits);
    if (cfg & 0x80u) {
        if (size < skip + 1) return 0;
        uint32_t lim = data[skip];
        for (int k = 0; k < FZ_NLIM; k++) if (lim & (1u << k)) fz_limits[k] = 1 + 2 * (lim >> 5);
        skip++;
    }
    if (FZ_FORMAT == FZ_MSGPACK) fz_set_features(feat, (uint32_t)(size - skip));
    fz_dec x;
    fz_check_decode(&x, FZ_FORMAT, data + skip, (uint32_t)(size - skip), flags, max_depth);
    fz_dec_free(&x);
    if (fz_runs % 1024 == 0) fz_tables_check();
    return 0;
}
