/*
 * fuzz_transcode.c: csrc/transcode/ (wp_transcode, wp_validate, wp_find) on any input.
 *
 * Input: a configuration byte, with bit 7 a second one, then the bytes to convert.
 *   byte 0: bits 0-1 the input format, bits 2-3 the output format (0 MessagePack, 1 CBOR, 2 and
 *     3 JSON; JSON to JSON, which the API does not offer, becomes JSON to MessagePack), bit 4
 *     WP_TC_MULTIPLE, bit 5 WP_TC_FIRST (alone) or WP_TC_LINES (with MULTIPLE), bit 6 the output
 *     through a flush sink instead of one block, bit 7 byte 1 follows.
 *   byte 1: bits 0-2 indent, bit 3 WP_TC_DIAG, bit 4 WP_TC_WIRE_ORDER, bits 5-7 max_depth
 *     (0, 1, 2, 4, 8, 16, 64, 512).
 * Every call gets exact-size heap blocks (ASan sees any access past them). Checked:
 *   - the result is OK or a documented error (never SCRATCH, BAD_TAPE or TAPE_FULL; OUTPUT_FULL
 *     only with indentation or WP_TC_DIAG, since wp_transcode_out_bound suffices without them),
 *     err mirrors it,
 *     error offsets lie within the input, the output within its block, `end` within the input
 *     and at its end for one value;
 *   - the flush sink (blocks of 1 and 7 bytes, grown only as asked) gives the same error and
 *     the same bytes (on an error, the complete values' bytes, or more);
 *   - wp_validate of the input agrees with the conversion (the error and its offset) where the
 *     conversion's outcome depends on well-formedness alone (not NON_JSON, UNMAPPABLE,
 *     KEY_ORDER, OUTPUT_FULL, and not JSON read into CBOR or JSON, as tests/c/test_transcode.c),
 *     apart from ill-formed UTF-8 in binary input, which validate rejects and a conversion
 *     replaces, and malformed timestamps, which diagnostic notation shows: the conversion then
 *     succeeds or fails further on;
 *   - a conversion that succeeds converts back, and there and back again is a fixed point after
 *     one round (-0, U+FFFD, and 64-bit integers written as JSON digits that read back as
 *     doubles, settle in the first). (Not for several values written as JSON without LINES:
 *     they run together, as JSON.stringify's would: 1 then 2 reads back as 12.)
 *   - MessagePack or CBOR to JSON gives the same text as through the other binary format, when
 *     the value converts to it (the same data model value; not in diagnostic notation, which
 *     shows how CBOR wrote it: (_ h'01', h'02')), ill-formed UTF-8 included: replaced as
 *     decode() replaces it, the chunks of an indefinite text string one by one;
 *   - wp_find with a path drawn from the input's length: OK or a documented error, a found
 *     range inside the input, and of a valid input, a range that validates alone (the whole
 *     input for the empty path).
 */
#include "fuzz_common.h"

/* ------------------------------------------------------------------ calls */

typedef struct tc_res {
    wp_err e;
    uint32_t off;  /* error offset */
    uint8_t *out;  /* malloc'd, out_len bytes used */
    uint32_t out_len, end, nvalues;
} tc_res;

static const char *fmt_name(uint32_t f) { return f == WP_FMT_MSGPACK ? "msgpack" : f == WP_FMT_CBOR ? "cbor" : "json"; }

/* the flush sink: collects flushed bytes, grows the block to exactly `need` */
typedef struct sink { fz_buf got; } sink;
static uint8_t *sink_flush(void *user, uint8_t *buf, uint32_t n, uint32_t need, uint32_t *cap) {
    sink *s = (sink *)user;
    if (n) fz_buf_put(&s->got, buf, n);
    if (need > *cap) {
        uint8_t *nb = (uint8_t *)realloc(buf, need);
        if (!nb) abort();
        *cap = need;
        return nb;
    }
    return buf;
}

/* One wp_transcode of in[0..len) into a block of wp_transcode_out_bound bytes (sink_cap 0), or
 * through a flush sink starting from a block of sink_cap bytes. */
static tc_res run(const uint8_t *src, uint32_t len, uint32_t from, uint32_t to, uint32_t flags, uint32_t indent,
                  uint32_t max_depth, uint32_t sink_cap) {
    uint8_t *in = (uint8_t *)malloc(len ? len : 1);
    if (!in) abort();
    if (len) memcpy(in, src, len);
    const uint32_t sw = wp_transcode_scratch_words(len, max_depth);
    wp_transcoder t;
    memset(&t, 0, sizeof t);
    t.in = in; t.len = len; t.from = from; t.to = to; t.flags = flags; t.indent = indent; t.max_depth = max_depth;
    t.out_cap = sink_cap ? sink_cap : wp_transcode_out_bound(from, to, len);
    t.out = (uint8_t *)malloc(t.out_cap ? t.out_cap : 1);
    t.scratch = (uint32_t *)malloc((size_t)(sw ? sw : 1) * 4);
    t.scratch_cap = sw;
    if (!t.out || !t.scratch) abort();
    sink s = {{0}};
    if (sink_cap) { t.flush = sink_flush; t.flush_user = &s; }
    const wp_err e = wp_transcode(&t);
    const char *name = wp_tc_err_name(e);
    FZ_CHECK(strcmp(name, "UNKNOWN") != 0, "%s -> %s: undocumented error %d", fmt_name(from), fmt_name(to), (int)e);
    FZ_CHECK(e != WP_ERR_SCRATCH && e != WP_ERR_TAPE_FULL && (int)e != 302, "%s -> %s: internal error %s", fmt_name(from), fmt_name(to), name);
    FZ_CHECK(t.err.code == e, "err.code %d, returned %d", (int)t.err.code, (int)e);
    FZ_CHECK(e == WP_OK || t.err.offset <= len, "%s at %u past the input (%u bytes)", name, t.err.offset, len);
    FZ_CHECK(t.out_len <= t.out_cap, "out_len %u past the block (%u)", t.out_len, t.out_cap);
    FZ_CHECK(sink_cap || indent || (flags & WP_TC_DIAG) || e != WP_ERR_OUTPUT_FULL, "%s -> %s: OUTPUT_FULL within wp_transcode_out_bound (%u bytes in)",
             fmt_name(from), fmt_name(to), len);
    if (e == WP_OK) {
        FZ_CHECK(t.end <= len, "end %u past the input", t.end);
        if (!(flags & (WP_TC_MULTIPLE | WP_TC_FIRST))) FZ_CHECK(t.end == len || from == WP_FMT_JSON, "one value ends at %u of %u", t.end, len);
        if (!(flags & WP_TC_MULTIPLE)) FZ_CHECK(t.nvalues == 1, "%u values without MULTIPLE", t.nvalues);
    }
    tc_res r = { e, e == WP_OK ? 0 : t.err.offset, NULL, 0, t.end, t.nvalues };
    if (sink_cap) {
        fz_buf_put(&s.got, t.out, t.out_len);
        free(t.out);
        r.out = s.got.p;
        r.out_len = (uint32_t)s.got.len;
    } else {
        r.out = t.out;
        r.out_len = t.out_len;
    }
    free(in);
    free(t.scratch);
    return r;
}

static wp_err validate(const uint8_t *src, uint32_t len, uint32_t fmt, uint32_t flags, uint32_t max_depth, uint32_t *off) {
    uint8_t *in = (uint8_t *)malloc(len ? len : 1);
    const uint32_t sw = wp_transcode_scratch_words(len, max_depth);
    uint32_t *scratch = (uint32_t *)malloc((size_t)(sw ? sw : 1) * 4);
    if (!in || !scratch) abort();
    if (len) memcpy(in, src, len);
    wp_error err;
    const wp_err e = wp_validate(in, len, fmt, flags & WP_TC_MULTIPLE, max_depth, scratch, sw, &err);
    FZ_CHECK(err.code == e, "validate: err.code %d, returned %d", (int)err.code, (int)e);
    FZ_CHECK(e != WP_ERR_SCRATCH && strcmp(wp_tc_err_name(e), "UNKNOWN") != 0, "validate %s: error %d", fmt_name(fmt), (int)e);
    FZ_CHECK(e == WP_OK || err.offset <= len, "validate: offset %u past %u bytes", err.offset, len);
    *off = e == WP_OK ? 0 : err.offset;
    free(in);
    free(scratch);
    return e;
}

static int same_bytes(const tc_res *a, const tc_res *b) {
    return a->out_len == b->out_len && (a->out_len == 0 || memcmp(a->out, b->out, a->out_len) == 0);
}

static void dump(const char *what, const uint8_t *p, uint32_t n) {
    fprintf(stderr, "%s (%u bytes):", what, n);
    for (uint32_t i = 0; i < n && i < 96; i++) fprintf(stderr, " %02x", p[i]);
    fputc('\n', stderr);
}

/* ------------------------------------------------------------------ find */

static const char *const find_keys[] = { "a", "b", "id", "0", "1", "x", "" };

static void check_find(const uint8_t *src, uint32_t len, uint32_t fmt) {
    const uint32_t nsteps = len % 3;
    wp_path_step path[2];
    for (uint32_t k = 0; k < nsteps; k++) {
        const uint32_t sel = (len / 3 + 5 * k) % 10;
        if (sel < 7) {
            path[k].key = (const uint8_t *)find_keys[sel];
            path[k].key_len = (uint32_t)strlen(find_keys[sel]);
            path[k].index = 0;
        } else {
            path[k].key = NULL;
            path[k].key_len = 0;
            path[k].index = sel - 7;
        }
    }
    uint8_t *in = (uint8_t *)malloc(len ? len : 1);
    const uint32_t sw = wp_transcode_scratch_words(len, 0); /* (wp_find has the default depth) */
    uint32_t *scratch = (uint32_t *)malloc((size_t)(sw ? sw : 1) * 4);
    if (!in || !scratch) abort();
    if (len) memcpy(in, src, len);
    uint32_t start = 0, end = 0;
    wp_error err;
    const wp_err e = wp_find(in, len, fmt, path, nsteps, scratch, sw, &start, &end, &err);
    FZ_CHECK(e != WP_ERR_SCRATCH && strcmp(wp_tc_err_name(e), "UNKNOWN") != 0, "find %s: error %d", fmt_name(fmt), (int)e);
    FZ_CHECK(e == WP_OK || err.offset <= len, "find: offset %u past %u bytes", err.offset, len);
    if (e == WP_OK) {
        FZ_CHECK(start < end && end <= len, "find: range [%u, %u) of %u bytes", start, end, len);
        uint32_t voff;
        if (validate(src, len, fmt, 0, 0, &voff) == WP_OK) {
            const wp_err ve = validate(src + start, end - start, fmt, 0, 0, &voff);
            FZ_CHECK(ve == WP_OK, "find (%u steps): the range [%u, %u) of a valid %s input does not validate alone: %s at %u",
                     nsteps, start, end, fmt_name(fmt), wp_tc_err_name(ve), voff);
            /* (JSON: whitespace around the one value) */
            if (nsteps == 0 && fmt != WP_FMT_JSON) FZ_CHECK(start == 0 && end == len, "find, empty path: [%u, %u) of %u", start, end, len);
        }
    }
    free(in);
    free(scratch);
}

/* ------------------------------------------------------------------ entry */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > (1u << 20)) return 0;
    const uint32_t c0 = data[0];
    uint32_t c1 = 0, head = 1;
    if (c0 & 0x80) {
        if (size < 2) return 0;
        c1 = data[1];
        head = 2;
    }
    const uint8_t *src = data + head;
    const uint32_t len = (uint32_t)(size - head);
    const uint32_t from = (c0 & 3) > 2 ? WP_FMT_JSON : (c0 & 3);
    uint32_t to = ((c0 >> 2) & 3) > 2 ? WP_FMT_JSON : ((c0 >> 2) & 3);
    if (from == WP_FMT_JSON && to == WP_FMT_JSON) to = WP_FMT_MSGPACK;
    uint32_t flags = 0;
    if (c0 & 0x10) flags |= WP_TC_MULTIPLE;
    if (c0 & 0x20) flags |= (flags & WP_TC_MULTIPLE) ? WP_TC_LINES : WP_TC_FIRST;
    const uint32_t indent = c1 & 7;
    if (c1 & 0x08) flags |= WP_TC_DIAG;
    if (c1 & 0x10) flags |= WP_TC_WIRE_ORDER;
    static const uint32_t depths[8] = { 0, 1, 2, 4, 8, 16, 64, 512 };
    const uint32_t max_depth = depths[c1 >> 5];
    const int sinked = (c0 & 0x40) != 0;

    tc_res r = run(src, len, from, to, flags, indent, max_depth, 0);

    /* the flush sink gives the same outcome */
    if (sinked && r.e != WP_ERR_OUTPUT_FULL) {
        static const uint32_t caps[2] = { 1, 7 };
        for (int i = 0; i < 2; i++) {
            tc_res s = run(src, len, from, to, flags, indent, max_depth, caps[i]);
            FZ_CHECK(s.e == r.e, "sink %u: %s, without a sink %s", caps[i], wp_tc_err_name(s.e), wp_tc_err_name(r.e));
            if (r.e == WP_OK) {
                FZ_CHECK(same_bytes(&s, &r), "sink %u: other bytes", caps[i]);
            } else {
                FZ_CHECK(s.off == r.off, "sink %u: error at %u, without a sink at %u", caps[i], s.off, r.off);
                FZ_CHECK(s.out_len >= r.out_len && (r.out_len == 0 || memcmp(s.out, r.out, r.out_len) == 0),
                         "sink %u: the complete values are not a prefix", caps[i]);
            }
            free(s.out);
        }
    }

    /* validate agrees where well-formedness decides */
    if (!(flags & WP_TC_FIRST) && (to == WP_FMT_MSGPACK || from != WP_FMT_JSON) && r.e != WP_ERR_NON_JSON &&
        r.e != WP_ERR_UNMAPPABLE && r.e != WP_ERR_KEY_ORDER && r.e != WP_ERR_OUTPUT_FULL) {
        uint32_t voff;
        const wp_err v = validate(src, len, from, flags, max_depth, &voff);
        if (r.e != v && (v == WP_ERR_BAD_UTF8 || (v == WP_ERR_BAD_TIMESTAMP && (flags & WP_TC_DIAG)))) {
            /* validate rejects ill-formed UTF-8, which a conversion of binary input replaces
             * (U+FFFD, as TextDecoder), and timestamps of a size or nanoseconds no timestamp
             * has, which diagnostic notation shows as ext(-1, h'..'): the conversion then
             * succeeds or fails further on */
            FZ_CHECK(r.e == WP_OK || r.off >= voff, "%s -> %s: %s at %u, before validate's %s at %u", fmt_name(from), fmt_name(to),
                     wp_tc_err_name(r.e), r.off, wp_tc_err_name(v), voff);
        } else {
            if (v != r.e || voff != r.off) dump("input", src, len);
            FZ_CHECK(v == r.e, "%s -> %s: %s at %u, validate %s at %u", fmt_name(from), fmt_name(to), wp_tc_err_name(r.e), r.off,
                     wp_tc_err_name(v), voff);
            FZ_CHECK(voff == r.off, "%s -> %s: %s at %u, validate at %u", fmt_name(from), fmt_name(to), wp_tc_err_name(r.e), r.off, voff);
        }
    }

    /* there and back: a fixed point after one round */
    const int separated = to != WP_FMT_JSON || !(flags & WP_TC_MULTIPLE) || (flags & WP_TC_LINES);
    if (r.e == WP_OK && from != to && !(flags & (WP_TC_DIAG | WP_TC_FIRST)) && indent == 0 && separated) {
        const uint32_t rt_flags = (flags & WP_TC_MULTIPLE) | (from == WP_FMT_JSON ? WP_TC_WIRE_ORDER | WP_TC_LINES : 0);
        const uint32_t fw_flags = (flags & (WP_TC_MULTIPLE | WP_TC_LINES)) | (to == WP_FMT_JSON ? WP_TC_WIRE_ORDER : 0);
        tc_res b1 = run(r.out, r.out_len, to, from, rt_flags, 0, max_depth, 0);
        if (b1.e != WP_OK) dump("input", src, len), dump("output", r.out, r.out_len);
        FZ_CHECK(b1.e == WP_OK, "%s -> %s -> %s: back: %s at %u", fmt_name(from), fmt_name(to), fmt_name(from), wp_tc_err_name(b1.e), b1.off);
        tc_res c2 = run(b1.out, b1.out_len, from, to, fw_flags, 0, max_depth, 0);
        FZ_CHECK(c2.e == WP_OK, "there and back and there: %s", wp_tc_err_name(c2.e));
        tc_res b2 = run(c2.out, c2.out_len, to, from, rt_flags, 0, max_depth, 0);
        FZ_CHECK(b2.e == WP_OK, "back again: %s", wp_tc_err_name(b2.e));
        tc_res c3 = run(b2.out, b2.out_len, from, to, fw_flags, 0, max_depth, 0);
        FZ_CHECK(c3.e == WP_OK, "there again: %s", wp_tc_err_name(c3.e));
        if (!same_bytes(&c3, &c2)) dump("input", src, len), dump("round 2", c2.out, c2.out_len), dump("round 3", c3.out, c3.out_len);
        FZ_CHECK(same_bytes(&c3, &c2), "%s <-> %s: not a fixed point after one round", fmt_name(from), fmt_name(to));
        free(b1.out); free(c2.out); free(b2.out); free(c3.out);
    }

    /* to JSON through the other binary format: the same text */
    if (r.e == WP_OK && from != WP_FMT_JSON && to == WP_FMT_JSON && !(flags & (WP_TC_FIRST | WP_TC_DIAG))) {
        const uint32_t other = from == WP_FMT_MSGPACK ? WP_FMT_CBOR : WP_FMT_MSGPACK;
        tc_res x = run(src, len, from, other, flags & WP_TC_MULTIPLE, 0, max_depth, 0);
        if (x.e == WP_OK) {
            /* (through the sink when indented: the bound does not cover indentation, and the
             * other format's input, and so its bound, may be smaller) */
            tc_res j = run(x.out, x.out_len, other, WP_FMT_JSON, flags, indent, max_depth, indent ? 7 : 0);
            /* (KEY_ORDER also means "no room for the key table": the JS API then decodes, and
             * the other format's input, and so its scratch, may be smaller; a map of 51 keys
             * has a table through CBOR and none through MessagePack) */
            if (j.e != WP_ERR_KEY_ORDER) {
                if (j.e != WP_OK || !same_bytes(&j, &r)) dump("input", src, len), dump("json", r.out, r.out_len), dump("via", j.out, j.out_len);
                FZ_CHECK(j.e == WP_OK, "%s -> %s -> json: %s (direct: OK)", fmt_name(from), fmt_name(other), wp_tc_err_name(j.e));
                FZ_CHECK(same_bytes(&j, &r), "%s -> json and %s -> %s -> json differ", fmt_name(from), fmt_name(from), fmt_name(other));
            }
            free(j.out);
        }
        free(x.out);
    }

    check_find(src, len, from);
    free(r.out);
    return 0;
}
