/* fuzz_msgpack_decode.c: libFuzzer target for wp_msgpack_decode (see fuzz_decode_main.h). */
#define FZ_FORMAT FZ_MSGPACK
#include "fuzz_decode_main.h"
