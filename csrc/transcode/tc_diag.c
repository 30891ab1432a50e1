/*
 * tc_diag.c: MessagePack or CBOR -> diagnostic notation (RFC 8949 section 8; indefinite
 * lengths as in section 8.1). For CBOR, byte for byte what wirepack/cbor's diagnose() writes
 * (js/src/diagnose.js; tests/transcode.test.js compares them), so the CLI's --diag, the
 * transcode API's diag option and diagnose() agree:
 *
 *   integers exact (64-bit ones too); floats with a fraction always (1.0, -0.0, 1.0e+300),
 *   NaN, Infinity, -Infinity; h'0102'; text JSON-quoted in ASCII, every other code unit as
 *   \uXXXX (UTF-16, invalid UTF-8 as U+FFFD per maximal subpart, as TextDecoder);
 *   [1, 2], {1: 2, "a": 3} (keys of any kind, as written); 1(..) tags; false, true, null,
 *   undefined, simple(16); indefinite lengths [_ 1, 2], {_ "a": 1}, (_ h'01', h'02'),
 *   (_ "a", "b"), and empty [_ ], {_ }, ''_, ""_.
 *
 * MessagePack has the same notation, plus ext(T, h'..') for extensions (timestamps included:
 * the notation shows how the value is written). With indentation (t->indent), the items of
 * arrays and maps go on lines of their own as in indented JSON; chunks stay on one line.
 *
 * Well-formedness is checked by the same readers as the other converters, with the same
 * errors and offsets (the fuzz target compares them with wp_validate).
 */
#include "tc_internal.h"

/* A text string: room for 6n + 2 must have been checked (a byte gives 6 at most: \u00XX, or
 * \ufffd for an invalid one; 4-byte sequences give 12). */
static void tc_diag_str(tc_out *o, const uint8_t *s, uint32_t n) {
    uint8_t *p = o->p + o->len;
    *p++ = '"';
    uint32_t i = 0;
    while (i < n) {
        uint32_t b = s[i], cp;
        if (b < 0x80) {
            i++;
            if (b >= 0x20 && b < 0x7f && b != '"' && b != '\\') { *p++ = (uint8_t)b; continue; }
            uint8_t e = b == '"' ? '"' : b == '\\' ? '\\' : b == '\b' ? 'b' : b == '\t' ? 't' : b == '\n' ? 'n'
                      : b == '\f' ? 'f' : b == '\r' ? 'r' : 0;
            if (e) { *p++ = '\\'; *p++ = e; continue; }
            cp = b;
        } else {
            uint32_t skip = 1; /* (set when k is 0; gcc cannot see it) */
            uint32_t k = tc_utf8_seq(s + i, n - i, &skip);
            if (!k) { cp = 0xFFFD; i += skip; }
            else {
                cp = k == 2 ? (b & 0x1F) : k == 3 ? (b & 0x0F) : (b & 0x07);
                for (uint32_t m = 1; m < k; m++) cp = (cp << 6) | (s[i + m] & 0x3F);
                i += k;
            }
        }
        if (cp >= 0x10000) {
            /* a surrogate pair, as JavaScript strings hold it */
            uint32_t hi = 0xD800 + ((cp - 0x10000) >> 10), lo = 0xDC00 + (cp & 0x3FF);
            *p++ = '\\'; *p++ = 'u';
            for (int sh = 12; sh >= 0; sh -= 4) *p++ = (uint8_t)tc_hex[(hi >> sh) & 15];
            cp = lo;
        }
        *p++ = '\\'; *p++ = 'u';
        for (int sh = 12; sh >= 0; sh -= 4) *p++ = (uint8_t)tc_hex[(cp >> sh) & 15];
    }
    *p++ = '"';
    o->len = (uint32_t)(p - o->p);
}

/* h'..': room for 2n + 3 must have been checked */
static void tc_diag_hex(tc_out *o, const uint8_t *s, uint32_t n) {
    uint8_t *p = o->p + o->len;
    *p++ = 'h'; *p++ = '\'';
    for (uint32_t i = 0; i < n; i++) { *p++ = (uint8_t)tc_hex[s[i] >> 4]; *p++ = (uint8_t)tc_hex[s[i] & 15]; }
    *p++ = '\'';
    o->len = (uint32_t)(p - o->p);
}

/* A float: JavaScript's shortest round trip with a fraction always (1.0, 1.0e+21). */
static void tc_diag_f64(tc_out *o, double d) {
    if (d != d) { tc_puts(o, "NaN", 3); return; }
    if (__builtin_isinf(d)) { if (d < 0) tc_put(o, '-'); tc_puts(o, "Infinity", 8); return; }
    if (d == 0) { if (__builtin_signbit(d)) tc_put(o, '-'); tc_puts(o, "0.0", 3); return; }
    char *q = (char *)o->p + o->len;
    uint32_t n = wp_json_f64(d, q), e = 0;
    while (e < n && q[e] != 'e') e++;
    bool frac = false;
    for (uint32_t i = 0; i < e; i++) frac |= q[i] == '.';
    if (!frac) {
        __builtin_memmove(q + e + 2, q + e, n - e);
        q[e] = '.';
        q[e + 1] = '0';
        n += 2;
    }
    o->len += n;
}

/* A value that is not a container, tag or chunked string (room checked here). */
static int tc_diag_scalar(tc_job *j, const tc_val *v) {
    tc_out *o = &j->o;
    switch (v->kind) {
    case K_STR:
        if (!tc_room64(o, 6 * (uint64_t)(uint32_t)v->u + 2)) return 0;
        tc_diag_str(o, v->s, (uint32_t)v->u);
        return 1;
    case K_BIN:
        if (!tc_room64(o, 2 * (uint64_t)(uint32_t)v->u + 3)) return 0;
        tc_diag_hex(o, v->s, (uint32_t)v->u);
        return 1;
    case K_UNDEF:
        /* (MessagePack's extension type 0 other than d4 00 00 and c7 01 00 00 shows as written) */
        if (j->in[v->start] == 0xf7 || (v->u == 1 && v->s[0] == 0)) break;
        /* fall through */
    case K_EXT:
        if (!tc_room64(o, 2 * (uint64_t)(uint32_t)v->u + 3 + 18)) return 0;
        tc_puts(o, "ext(", 4);
        o->len += tc_i64_dec(v->x, (char *)o->p + o->len);
        tc_puts(o, ", ", 2);
        tc_diag_hex(o, v->s, (uint32_t)v->u);
        tc_put(o, ')');
        return 1;
    default: break;
    }
    if (!tc_room(o, 40)) return 0;
    switch (v->kind) {
    case K_F64: tc_diag_f64(o, v->d); break;
    case K_SIMPLE:
        tc_puts(o, "simple(", 7);
        o->len += tc_u64_dec(v->u, (char *)o->p + o->len);
        tc_put(o, ')');
        break;
    default: {
        /* integers (64-bit ones too), null, booleans, undefined: as their property names */
        uint32_t n = tc_scalar_name(v, (char *)o->p + o->len);
        if (!n) return tc_fail(j, WP_ERR_UNMAPPABLE, v->start); /* (no other kinds come here) */
        o->len += n;
    }
    }
    return 1;
}

/* The chunks of an indefinite string (major 2 or 3) after its head, up to the break:
 * (_ h'01', h'02'), (_ "a", "b"); none: ''_ or ""_ ((_ ) would not say which kind). */
static int tc_diag_chunks(tc_job *j, uint32_t start, uint32_t major) {
    tc_out *o = &j->o;
    if (!tc_room(o, 3)) return 0;
    tc_puts(o, "(_ ", 3);
    bool first = true;
    for (;;) {
        if (j->pos >= j->len) return tc_fail(j, WP_ERR_TRUNCATED, start);
        if (j->in[j->pos] == 0xff) { j->pos++; break; }
        uint32_t cs = j->pos;
        /* a chunk is a definite string of the same major type: anything else is BAD_CHUNK at
         * it, before its head is read (as validation and the decoder say, whatever follows) */
        if ((j->in[cs] >> 5) != major || (j->in[cs] & 31) == 31) return tc_fail(j, WP_ERR_BAD_CHUNK, cs);
        tc_val c;
        if (!tc_cb_read(j, &c)) return 0;
        if (!first) { if (!tc_room(o, 2)) return 0; tc_puts(o, ", ", 2); }
        first = false;
        if (!tc_diag_scalar(j, &c)) return 0;
    }
    if (!tc_room(o, 1)) return 0;
    if (first) {
        o->len -= 3; /* (the "(_ " of this step: flushing keeps what the step wrote) */
        tc_puts(o, major == 2 ? "''_" : "\"\"_", 3);
    } else {
        tc_put(o, ')');
    }
    return 1;
}

TC_OWN_FUNCTION int tc_bin_to_diag(tc_job *j, int cbor) {
    uint32_t depth = 0, level = 0; /* frames; open arrays and maps (indentation: tags do not count) */
    tc_val v = { 0 }; /* (each kind sets the fields it uses; gcc cannot see it) */
    tc_out *o = &j->o;
    for (;;) {
        o->keep = o->len; /* what is written so far is final (the undo in tc_diag_chunks stays within one step) */
        if (depth) {
            tc_frame *f = &j->st[depth - 1];
            if (f->kind == TC_TAG) {
                if (f->rem == 0) {
                    if (!tc_room(o, 1)) return 0;
                    tc_put(o, ')');
                    depth--;
                    if (!depth) return 1;
                    continue;
                }
                f->rem = 0; /* its one item follows, without a separator */
                goto value;
            }
            bool closing, map = f->kind & TC_MAP, indef = f->kind & TC_INDEF;
            if (indef) {
                closing = j->pos < j->len && j->in[j->pos] == 0xff;
                if (closing) {
                    if (map && (f->done & 1)) return tc_fail(j, WP_ERR_BREAK, j->pos);
                    j->pos++;
                }
            } else closing = f->rem == 0;
            if (closing) {
                level--;
                if (f->done && j->indent) { if (!tc_indent(j, level)) return 0; }
                if (!tc_room(o, 2)) return 0;
                if (!f->done && indef) tc_put(o, ' '); /* [_ ] */
                tc_put(o, map ? '}' : ']');
                depth--;
                if (!depth) return 1;
                continue;
            }
            if (!indef) f->rem--;
            if (!tc_room(o, 2)) return 0;
            if (map && (f->done & 1)) tc_puts(o, ": ", 2);
            else if (j->indent) {
                if (f->done) tc_put(o, ',');
                if (!tc_indent(j, level)) return 0;
            } else if (f->done) tc_puts(o, ", ", 2);
            else if (indef) tc_put(o, ' '); /* [_ 1 */
            f->done++;
        }
    value:
        if (!(cbor ? tc_cb_read(j, &v) : tc_mp_read(j, &v))) return 0;
        switch (v.kind) {
        case K_ARR: case K_MAP: case K_ARR_INDEF: case K_MAP_INDEF: {
            bool map = v.kind == K_MAP || v.kind == K_MAP_INDEF;
            bool indef = v.kind == K_ARR_INDEF || v.kind == K_MAP_INDEF;
            if (!tc_room(o, 2)) return 0;
            tc_put(o, map ? '{' : '[');
            if (indef) tc_put(o, '_');
            else if (v.u == 0) { tc_put(o, map ? '}' : ']'); break; }
            if (depth >= j->max_depth || depth >= j->st_cap) return tc_fail(j, WP_ERR_DEPTH, v.start);
            tc_frame *f = &j->st[depth++];
            level++;
            f->kind = (map ? TC_MAP : TC_ARR) | (indef ? TC_INDEF : 0);
            f->rem = indef ? 0 : tc_items(map, v.u);
            f->done = 0;
            continue;
        }
        case K_TAG:
            if (!tc_room(o, 21)) return 0;
            o->len += tc_u64_dec(v.u, (char *)o->p + o->len);
            tc_put(o, '(');
            if (!tc_open_tag(j, &depth, v.start)) return 0;
            continue;
        case K_STR_CHUNKS:
            if (!tc_diag_chunks(j, v.start, 3)) return 0;
            break;
        case K_BIN_CHUNKS:
            if (!tc_diag_chunks(j, v.start, 2)) return 0;
            break;
        case K_BREAK:
            return tc_fail(j, WP_ERR_BREAK, v.start);
        default:
            if (!tc_diag_scalar(j, &v)) return 0;
        }
        if (!depth) return 1;
    }
}
