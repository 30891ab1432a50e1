/*
 * fuzz_decode_main.h: the body shared by fuzz_msgpack_decode.c and fuzz_cbor_decode.c
 * (define FZ_FORMAT before including).
 *
 * Input: one configuration byte, then the bytes to decode.
 *   bit 0 WP_DEC_MAPS_AS_OBJECTS, bit 1 WP_DEC_MULTIPLE, bit 2 WP_DEC_NO_INTERN,
 *   bit 3 WP_DEC_TAG_F32, bits 4-6 max_depth (0, 1, 2, 3, 5, 16, 100, 0xFFFFFFFF),
 *   bit 7 policy limits: a second byte L follows; its bits 0-4 set max_array, max_map, max_str,
 *   max_bin, max_ext to 1 + 2 * (L >> 5), the others stay 0 (none).
 * The tables persist across inputs and are reset every FZ_RESET_EVERY runs into one of four
 * states (see fuzz_common.h); every 1024 runs their internal consistency is checked.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > (1u << 24)) return 0;
    fz_tables_tick();
    uint32_t cfg = data[0];
    uint32_t flags = cfg & 0x0fu;
    uint32_t max_depth = fz_depths[(cfg >> 4) & 7u];
    size_t skip = 1;
    memset(fz_limits, 0, sizeof fz_limits);
    if (cfg & 0x80u) {
        if (size < 2) return 0;
        uint32_t lim = data[1];
        for (int k = 0; k < FZ_NLIM; k++) if (lim & (1u << k)) fz_limits[k] = 1 + 2 * (lim >> 5);
        skip = 2;
    }
    fz_dec x;
    fz_check_decode(&x, FZ_FORMAT, data + skip, (uint32_t)(size - skip), flags, max_depth);
    fz_dec_free(&x);
    if (fz_runs % 1024 == 0) fz_tables_check();
    return 0;
}
