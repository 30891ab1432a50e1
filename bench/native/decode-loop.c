/* decode-loop: time and profile one decoder call natively, on one input, with no JS around it.
 *
 *   build/native/decode-loop FILE [-M|-C] [--flags=N] [--iters=N] [--records=n0,n1,...]
 *
 * Decodes FILE (one MessagePack or CBOR value, or with WP_DEC_MULTIPLE in --flags a sequence)
 * --iters times into buffers sized by the public bounds and prints the mean time per call and
 * the tape's size. --flags is wp_decoder.flags (wirepack.h: 1 maps as objects, 32 bundled
 * strings, 64 the value cache, ...; default 1). --records gives MessagePack record slots 0, 1,
 * ... that many fields each, as an Unpackr's structures do (msgpackr's records with structures
 * kept by the Packr: the bundled-strings benchmark); without it the table is empty, and the
 * definitions in the input fill it (as each wasm call starts). Run it under `perf record` to see where the
 * C time of a row goes (bench/README.md). Built by build.sh with the native library. */
#include "wirepack.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static wp_tables tables;
static uint32_t records[WP_REC_SLOTS];

int main(int argc, char **argv) {
    const char *path = NULL;
    int cbor = 0;
    uint32_t flags = WP_DEC_MAPS_AS_OBJECTS;
    long iters = 100000;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-M")) cbor = 0;
        else if (!strcmp(a, "-C")) cbor = 1;
        else if (!strncmp(a, "--flags=", 8)) flags = (uint32_t)strtoul(a + 8, NULL, 0);
        else if (!strncmp(a, "--iters=", 8)) iters = atol(a + 8);
        else if (!strncmp(a, "--records=", 10)) {
            const char *p = a + 10;
            for (uint32_t slot = 0; *p && slot < 64; slot++) {
                char *end;
                unsigned long n = strtoul(p, &end, 10);
                if (end == p || n > 0xfffff) { fprintf(stderr, "decode-loop: bad --records\n"); return 2; }
                records[slot] = (uint32_t)n + 1u;
                p = *end == ',' ? end + 1 : end;
            }
        } else if (a[0] != '-' && !path) path = a;
        else { fprintf(stderr, "usage: decode-loop FILE [-M|-C] [--flags=N] [--iters=N] [--records=n0,n1,...]\n"); return 2; }
    }
    if (!path || iters < 1) { fprintf(stderr, "decode-loop: no input file\n"); return 2; }
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 1; }
    if (fseek(f, 0, SEEK_END) != 0) { perror(path); return 1; }
    long size = ftell(f);
    rewind(f);
    if (size < 0 || size > 0x7fffffffL) { fprintf(stderr, "decode-loop: bad input size\n"); return 1; }
    uint32_t len = (uint32_t)size;
    uint8_t *in = malloc((size_t)len + WP_DEC_SLACK + 1);
    if (!in || fread(in, 1, len, f) != len) { fprintf(stderr, "decode-loop: cannot read %s\n", path); return 1; }
    fclose(f);
    memset(in + len, 0, WP_DEC_SLACK + 1);
    uint32_t tw = cbor ? wp_cbor_tape_words(len) : wp_decode_tape_words(len);
    uint32_t sw = wp_decode_stack_words(0, len);
    uint64_t *tape = malloc(((size_t)tw + 1) / 2 * 8);
    uint8_t *ascii = malloc((size_t)len + WP_DEC_SLACK + 1);
    uint16_t *utf16 = malloc(2 * (size_t)len + 2);
    uint32_t *stack = malloc((size_t)sw * 4);
    uint32_t *ends = malloc(((size_t)len + 1) * 4);
    if (!tape || !ascii || !utf16 || !stack || !ends) { perror("malloc"); return 1; }
    wp_tables_reset(&tables);
    wp_decoder d;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < iters; i++) {
        memset(&d, 0, sizeof d);
        d.in = in; d.len = len; d.flags = flags;
        d.tape = (uint32_t *)(void *)tape; d.tape_cap = tw;
        d.ascii = ascii; d.ascii_cap = len;
        d.utf16 = utf16; d.utf16_cap = len;
        d.stack = stack; d.stack_cap = sw;
        d.ends = ends; d.ends_cap = len + 1;
        /* (MessagePack always has the record table, as in wasm: a message's own definitions go
         * there, and bytes 0x40-0x7f are records only where a slot is defined) */
        if (!cbor) d.records = records;
        wp_err rc = cbor ? wp_cbor_decode(&d, &tables) : wp_msgpack_decode(&d, &tables);
        if (rc != WP_OK) { fprintf(stderr, "decode-loop: %s at byte %u\n", wp_err_name(rc), d.err.offset); return 1; }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / (double)iters;
    printf("%.1f ns/call (%u bytes, %.3f ns/byte): tape %u words, ascii %u bytes, utf16 %u units\n", ns, len,
           ns / (len ? len : 1), d.tape_len, d.ascii_len, d.utf16_len);
    return 0;
}
