/*
 * examples/c/transcode.c: the wirepack C library (build/native/libwirepack.a, header
 * csrc/wirepack.h) from C. Build and run:
 *
 *   bash build.sh
 *   cc -Icsrc examples/c/transcode.c build/native/libwirepack.a -o /tmp/wp-example && /tmp/wp-example
 *
 * JSON text -> MessagePack, MessagePack -> indented JSON and CBOR, validation, a path lookup
 * without decoding, and the MessagePack decoder's tape. All memory belongs to the caller.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wirepack.h"

static void hexdump(const char *label, const uint8_t *p, uint32_t n) {
    printf("%s (%u bytes):", label, n);
    for (uint32_t i = 0; i < n; i++) printf(" %02x", p[i]);
    printf("\n");
}

/* Converts in[0..len) from one format to another into a malloc'd buffer. */
static uint8_t *convert(const uint8_t *in, uint32_t len, wp_format from, wp_format to, uint32_t indent, uint32_t *out_len) {
    wp_transcoder t;
    memset(&t, 0, sizeof t);
    t.in = in;
    t.len = len;
    t.from = from;
    t.to = to;
    t.indent = indent;
    t.out_cap = wp_transcode_out_bound(from, to, len) * (indent ? 8 : 1); /* indentation may need more */
    t.out = malloc(t.out_cap);
    t.scratch_cap = wp_transcode_scratch_words(len, 0);
    t.scratch = malloc(t.scratch_cap * 4u);
    if (wp_transcode(&t) != WP_OK) {
        fprintf(stderr, "transcode failed: %s at byte %u\n", wp_tc_err_name(t.err.code), t.err.offset);
        exit(1);
    }
    free(t.scratch);
    *out_len = t.out_len;
    return t.out;
}

int main(void) {
    const char *json = "{\"name\": \"wirepack\", \"tags\": [\"msgpack\", \"cbor\"], \"pi\": 3.141592653589793, \"n\": -7}";
    uint32_t len = (uint32_t)strlen(json);

    /* 1. JSON -> MessagePack, then -> CBOR and back to (indented) JSON */
    uint32_t mp_len, cb_len, js_len;
    uint8_t *mp = convert((const uint8_t *)json, len, WP_FMT_JSON, WP_FMT_MSGPACK, 0, &mp_len);
    hexdump("msgpack", mp, mp_len);
    uint8_t *cb = convert(mp, mp_len, WP_FMT_MSGPACK, WP_FMT_CBOR, 0, &cb_len);
    hexdump("cbor", cb, cb_len);
    uint8_t *js = convert(cb, cb_len, WP_FMT_CBOR, WP_FMT_JSON, 2, &js_len);
    printf("json:\n%.*s\n", (int)js_len, (const char *)js);

    /* 2. validate: a truncated message names the offset */
    uint32_t sw = wp_transcode_scratch_words(mp_len, 0);
    uint32_t *scratch = malloc(sw * 4u);
    wp_error err;
    printf("validate(full): %s\n", wp_tc_err_name(wp_validate(mp, mp_len, WP_FMT_MSGPACK, 0, 0, scratch, sw, &err)));
    wp_validate(mp, mp_len - 1, WP_FMT_MSGPACK, 0, 0, scratch, sw, &err);
    printf("validate(truncated): %s at byte %u\n", wp_tc_err_name(err.code), err.offset);

    /* 3. find tags[1] without decoding anything else */
    wp_path_step path[] = {{(const uint8_t *)"tags", 4, 0}, {NULL, 0, 1}};
    uint32_t start, end;
    if (wp_find(mp, mp_len, WP_FMT_MSGPACK, path, 2, scratch, sw, &start, &end, &err) == WP_OK)
        hexdump("tags[1] is the bytes", mp + start, end - start);

    /* 4. numbers as JavaScript prints them */
    char num[32];
    double samples[] = {0.1 + 0.2, 1e21, 1e-7, 5e-324, -0.0};
    for (unsigned i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        uint32_t n = wp_json_f64(samples[i], num);
        printf("String(%.17g) = %.*s\n", samples[i], (int)n, num);
    }

    /* 5. the MessagePack decoder's tape (what the JavaScript wrapper turns into values) */
    static wp_tables tables; /* large: keep it off the stack */
    wp_tables_reset(&tables);
    wp_decoder d;
    memset(&d, 0, sizeof d);
    d.in = mp;
    d.len = mp_len;
    d.tape_cap = wp_decode_tape_words(mp_len);
    d.tape = malloc(d.tape_cap * 4u);
    d.ascii_cap = d.utf16_cap = mp_len;
    d.ascii = malloc(mp_len);
    d.utf16 = malloc(mp_len * 2u);
    d.stack_cap = wp_decode_stack_words(0, mp_len);
    d.stack = malloc(d.stack_cap * 4u);
    if (wp_msgpack_decode(&d, &tables) == WP_OK) {
        printf("tape: %u words, first entry tag %u; ascii area \"%.*s\"\n", d.tape_len, d.tape[0] & 0xff,
               (int)d.ascii_len, (const char *)d.ascii);
    }
    free(d.tape); free(d.ascii); free(d.utf16); free(d.stack);
    free(scratch); free(mp); free(cb); free(js);
    return 0;
}
