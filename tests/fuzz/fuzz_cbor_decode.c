/* fuzz_cbor_decode.c: libFuzzer target for wp_cbor_decode (see fuzz_decode_main.h). */
#define FZ_FORMAT FZ_CBOR
#include "fuzz_decode_main.h"
