/*
 * tc_json_in.c: JSON text (strict RFC 8259) -> MessagePack or CBOR, as wirepack's encoders
 * write JSON.parse(text): numbers that are integers in [-2^31, 2^32) as integers, other
 * numbers as float64 (MessagePack) or the shortest exact float (CBOR; -0 too, which is 0 in
 * MessagePack); keys in input order
 * (a duplicate key is written twice: decoding keeps the last value, like JSON.parse).
 *
 * Strict: no BOM, no comments, no trailing commas, no leading zeros or '+', no unescaped
 * control characters, valid UTF-8 (errors BAD_UTF8 at the first bad byte), nothing but
 * whitespace after the value (TRAILING_DATA) unless WP_TC_MULTIPLE. Lone surrogate escapes
 * become U+FFFD (as TextEncoder does with the string JSON.parse returns).
 */
#include "tc_internal.h"

/* 1: whitespace */
static const uint8_t tc_ws[256] = {[' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1};

WP_INLINE uint32_t tc_skip_ws(const uint8_t *in, uint32_t pos, uint32_t len) {
    while (pos < len && tc_ws[in[pos]]) pos++;
    return pos;
}

WP_INLINE int tc_hex4(const uint8_t *p, uint32_t *out) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        uint32_t c = p[i], d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') d = (c | 0x20) - 'a' + 10;
        else return 0;
        v = (v << 4) | d;
    }
    *out = v;
    return 1;
}

/* Scans the string whose opening quote is at j->pos. On success *end is the offset of the
 * closing quote, *esc whether it holds escapes, *outlen its UTF-8 length after unescaping. */
WP_INLINE int tc_scan_str(tc_job *j, uint32_t *end, bool *esc, uint32_t *outlen) {
    const uint8_t *in = j->in;
    uint32_t len = j->len, p = j->pos + 1, n = 0;
    bool e = false;
    for (;;) {
        /* plain ASCII run, 8 bytes at a time */
        while (p + 8 <= len) {
            uint64_t v = wp_load_u64(in + p);
            uint64_t lt = (v - 0x2020202020202020ull) & ~v;
            uint64_t q = v ^ 0x2222222222222222ull, bs = v ^ 0x5C5C5C5C5C5C5C5Cull;
            uint64_t hq = (q - 0x0101010101010101ull) & ~q;
            uint64_t hb = (bs - 0x0101010101010101ull) & ~bs;
            uint64_t m = (lt | hq | hb | v) & 0x8080808080808080ull;
            if (m != 0) {
                /* jump to the first special byte (the lowest flag is exact; little-endian) */
                uint32_t k = (uint32_t)__builtin_ctzll(m) >> 3;
                p += k; n += k;
                break;
            }
            p += 8; n += 8;
        }
        if (p >= len) return tc_fail(j, WP_ERR_TRUNCATED, j->len);
        uint32_t c = in[p];
        if (c == '"') break;
        if (c < 0x20) return tc_fail(j, WP_ERR_JSON_SYNTAX, p);
        if (c == '\\') {
            e = true;
            if (p + 1 >= len) return tc_fail(j, WP_ERR_TRUNCATED, j->len);
            uint32_t x = in[p + 1];
            switch (x) {
            case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
                p += 2; n += 1; continue;
            case 'u': {
                uint32_t u, u2;
                if (p + 6 > len) {
                    /* a non-hex digit before the end is a syntax error, else the input ended */
                    for (uint32_t q = p + 2; q < len; q++) {
                        uint32_t h = in[q] | 0x20;
                        if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f'))) return tc_fail(j, WP_ERR_JSON_SYNTAX, p);
                    }
                    return tc_fail(j, WP_ERR_TRUNCATED, j->len);
                }
                if (!tc_hex4(in + p + 2, &u)) return tc_fail(j, WP_ERR_JSON_SYNTAX, p);
                p += 6;
                if (u >= 0xD800 && u <= 0xDBFF && p + 6 <= len && in[p] == '\\' && in[p + 1] == 'u' &&
                    tc_hex4(in + p + 2, &u2) && u2 >= 0xDC00 && u2 <= 0xDFFF) {
                    p += 6; n += 4; continue;
                }
                n += u < 0x80 ? 1 : u < 0x800 ? 2 : 3; /* lone surrogates: U+FFFD, 3 bytes */
                continue;
            }
            default: return tc_fail(j, WP_ERR_JSON_SYNTAX, p);
            }
        }
        if (c < 0x80) { p++; n++; continue; }
        uint32_t skip, k = tc_utf8_seq(in + p, len - p, &skip);
        if (!k) return tc_fail(j, WP_ERR_BAD_UTF8, p);
        p += k; n += k;
    }
    *end = p; *esc = e; *outlen = n;
    return 1;
}

/* Unescapes the string body in[from..to) (already checked) into out. */
static void tc_unescape(const uint8_t *in, uint32_t p, uint32_t to, uint8_t *out) {
    while (p < to) {
        uint32_t c = in[p];
        if (c != '\\') { *out++ = (uint8_t)c; p++; continue; }
        uint32_t x = in[p + 1];
        p += 2;
        switch (x) {
        case 'b': *out++ = '\b'; break;
        case 'f': *out++ = '\f'; break;
        case 'n': *out++ = '\n'; break;
        case 'r': *out++ = '\r'; break;
        case 't': *out++ = '\t'; break;
        case 'u': {
            uint32_t u = 0, u2; /* (its digits were checked by the scan; gcc cannot see it) */
            tc_hex4(in + p, &u);
            p += 4;
            if (u >= 0xD800 && u <= 0xDBFF && p + 6 <= to && in[p] == '\\' && in[p + 1] == 'u' &&
                tc_hex4(in + p + 2, &u2) && u2 >= 0xDC00 && u2 <= 0xDFFF) {
                p += 6;
                uint32_t cp = 0x10000 + ((u - 0xD800) << 10) + (u2 - 0xDC00);
                *out++ = (uint8_t)(0xF0 | (cp >> 18));
                *out++ = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
                *out++ = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
                *out++ = (uint8_t)(0x80 | (cp & 0x3F));
                break;
            }
            if (u >= 0xD800 && u <= 0xDFFF) u = 0xFFFD;
            if (u < 0x80) *out++ = (uint8_t)u;
            else if (u < 0x800) { *out++ = (uint8_t)(0xC0 | (u >> 6)); *out++ = (uint8_t)(0x80 | (u & 0x3F)); }
            else {
                *out++ = (uint8_t)(0xE0 | (u >> 12));
                *out++ = (uint8_t)(0x80 | ((u >> 6) & 0x3F));
                *out++ = (uint8_t)(0x80 | (u & 0x3F));
            }
            break;
        }
        default: *out++ = (uint8_t)x; /* " \ / */
        }
    }
}

/* A string at j->pos: written (when o != NULL) as a text string; j->pos after the quote. */
WP_INLINE int tc_json_string(tc_job *j, tc_out *o, int cbor) {
    uint32_t end, n;
    bool esc;
    if (!tc_scan_str(j, &end, &esc, &n)) return 0;
    if (o) {
        if (!tc_room(o, n + 5)) return 0;
        tc_w_str_head(o, cbor, n);
        if (!esc) tc_puts(o, j->in + j->pos + 1, n);
        else { tc_unescape(j->in, j->pos + 1, end, o->p + o->len); o->len += n; }
    }
    j->pos = end + 1;
    return 1;
}

/* A number at j->pos (checked against the grammar); *d its value. */
WP_INLINE int tc_json_number(tc_job *j, double *d, bool *is_u32, uint32_t *u) {
    const uint8_t *in = j->in;
    uint32_t len = j->len, p = j->pos, start = p;
    bool neg = false, many = false;
    uint64_t w = 0;
    int nd = 0, dropped = 0, frac = 0;
    if (in[p] == '-') { neg = true; p++; }
    if (p >= len) return tc_fail(j, WP_ERR_TRUNCATED, j->len);
    if (in[p] == '0') {
        p++;
    } else if (in[p] >= '1' && in[p] <= '9') {
        while (p < len && (uint32_t)(in[p] - '0') < 10) {
            uint32_t dg = in[p] - '0';
            if (nd < 19) { w = w * 10 + dg; nd++; }
            else { dropped++; if (dg) many = true; }
            p++;
        }
    } else {
        return tc_fail(j, WP_ERR_JSON_SYNTAX, p);
    }
    bool plain = true;
    if (p < len && in[p] == '.') {
        plain = false;
        p++;
        if (p >= len) return tc_fail(j, WP_ERR_TRUNCATED, j->len);
        if ((uint32_t)(in[p] - '0') >= 10) return tc_fail(j, WP_ERR_JSON_SYNTAX, p);
        while (p < len && (uint32_t)(in[p] - '0') < 10) {
            uint32_t dg = in[p] - '0';
            if (w == 0 && dg == 0) frac++;
            else if (nd < 19) { w = w * 10 + dg; nd++; frac++; }
            else if (dg) many = true;
            p++;
        }
    }
    int ex = 0;
    if (p < len && (in[p] | 0x20) == 'e') {
        plain = false;
        p++;
        bool eneg = false;
        if (p < len && (in[p] == '+' || in[p] == '-')) { eneg = in[p] == '-'; p++; }
        if (p >= len) return tc_fail(j, WP_ERR_TRUNCATED, j->len);
        if ((uint32_t)(in[p] - '0') >= 10) return tc_fail(j, WP_ERR_JSON_SYNTAX, p);
        while (p < len && (uint32_t)(in[p] - '0') < 10) {
            if (ex < 100000) ex = ex * 10 + (in[p] - '0');
            p++;
        }
        if (eneg) ex = -ex;
    }
    j->pos = p;
    if (plain && nd <= 10 && !dropped) {
        if (!neg && w <= 0xFFFFFFFFull) { *is_u32 = true; *u = (uint32_t)w; *d = (double)w; return 1; }
        *is_u32 = false;
        *d = neg ? -(double)w : (double)w;
        return 1;
    }
    *is_u32 = false;
    *d = tc_decimal_to_f64(w, ex - frac + dropped, neg, many, (const char *)in + start, p - start);
    return 1;
}

WP_INLINE int tc_lit(tc_job *j, const char *s, uint32_t n) {
    if (j->len - j->pos < n) {
        /* a prefix of the literal: truncated; anything else: syntax */
        for (uint32_t i = 0; j->pos + i < j->len; i++)
            if (j->in[j->pos + i] != (uint8_t)s[i]) return tc_fail(j, WP_ERR_JSON_SYNTAX, j->pos + i);
        return tc_fail(j, WP_ERR_TRUNCATED, j->len);
    }
    for (uint32_t i = 0; i < n; i++)
        if (j->in[j->pos + i] != (uint8_t)s[i]) return tc_fail(j, WP_ERR_JSON_SYNTAX, j->pos + i);
    j->pos += n;
    return 1;
}

/* Containers of unknown size got a 1-byte head; those that closed with more entries than a
 * 1-byte head holds kept a fixup (offset, count | map bit); the others are tombstones
 * (TC_FIX_DONE). One backward pass makes room for the longer heads, moving every byte after
 * the first long head at most once. Returns the new length (room was checked by the caller). */
uint32_t tc_compact_buf(uint8_t *p, uint32_t from, uint32_t len, const uint32_t *fix, uint32_t nfix, int cbor) {
    (void)from;
    uint32_t grow = 0;
    for (uint32_t i = 0; i < nfix; i++) {
        uint32_t cm = fix[2 * i + 1];
        if (cm != TC_FIX_DONE) grow += tc_coll_head_size(cbor, cm & 0x7FFFFFFF) - 1;
    }
    if (!grow) return len;
    uint32_t r = len, w = len + grow;
    for (uint32_t i = nfix; i-- > 0;) {
        uint32_t cm = fix[2 * i + 1];
        if (cm == TC_FIX_DONE) continue;
        uint32_t at = fix[2 * i], n = cm & 0x7FFFFFFF;
        uint32_t seg = r - (at + 1);
        w -= seg;
        if (seg) __builtin_memmove(p + w, p + at + 1, seg);
        uint32_t hs = tc_coll_head_size(cbor, n);
        w -= hs;
        tc_w_coll_head(p + w, cbor, cm >> 31, n);
        r = at;
        if (w == r) break;
    }
    return len + grow;
}

/* One JSON value -> binary (o == NULL: check only). */
WP_INLINE int tc_json_value(tc_job *j, tc_out *o, int cbor) {
    const uint8_t *in = j->in;
    uint32_t len = j->len;
    uint32_t depth = 0;
    uint32_t out_start = o ? o->len : 0;
    j->nfix = 0;
    j->big = 0;
    for (;;) {
        /* ---- a value */
        j->pos = tc_skip_ws(in, j->pos, len);
        if (j->pos >= len) return tc_fail(j, WP_ERR_TRUNCATED, j->len);
        uint32_t c = in[j->pos];
        if (c == '[' || c == '{') {
            bool map = c == '{';
            uint32_t start = j->pos;
            j->pos = tc_skip_ws(in, j->pos + 1, len);
            if (j->pos >= len) return tc_fail(j, WP_ERR_TRUNCATED, j->len);
            if (in[j->pos] == (map ? '}' : ']')) {
                j->pos++;
                if (o) {
                    if (!tc_room(o, 1)) return 0;
                    tc_put(o, cbor ? (map ? 0xa0 : 0x80) : (map ? 0x80 : 0x90));
                }
                goto after;
            }
            if (depth >= j->max_depth || depth >= j->st_cap) return tc_fail(j, WP_ERR_DEPTH, start);
            tc_frame *f = &j->st[depth++];
            f->kind = map ? TC_MAP : TC_ARR;
            f->done = 0;
            f->rem = j->nfix;
            if (o) {
                if (j->cnt) {
                    /* counted first (tc_json_to_bin_counted): the exact head */
                    if (j->ncnt >= j->cnt_cap) return tc_fail(j, WP_ERR_SCRATCH, start);
                    uint32_t n = j->cnt[j->ncnt++];
                    if (!tc_room(o, 5)) return 0;
                    tc_w_coll_head(o->p + o->len, cbor, map, n);
                    o->len += tc_coll_head_size(cbor, n);
                } else {
                    if (!tc_room(o, 1)) return 0;
                    if (j->nfix >= j->fix_cap) return tc_fail(j, WP_ERR_SCRATCH, start);
                    j->fix[2 * j->nfix] = o->len;
                    j->fix[2 * j->nfix + 1] = TC_FIX_DONE;
                    j->nfix++;
                    o->len += 1;
                }
            } else if (j->cnt) {
                /* the counting pass: this container's slot, filled when it closes */
                if (j->ncnt >= j->cnt_cap) return tc_fail(j, WP_ERR_SCRATCH, start);
                f->rem = j->ncnt++;
            }
            if (map) goto key;
            continue;
        } else if (c == '"') {
            if (!tc_json_string(j, o, cbor)) return 0;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            double d; bool isu; uint32_t u;
            if (!tc_json_number(j, &d, &isu, &u)) return 0;
            if (o) {
                if (!tc_room(o, 9)) return 0;
                if (isu) tc_w_u32(o, cbor, u);
                else tc_w_number(o, cbor, d);
            }
        } else if (c == 't') {
            if (!tc_lit(j, "true", 4)) return 0;
            if (o) { if (!tc_room(o, 1)) return 0; tc_put(o, cbor ? 0xf5 : 0xc3); }
        } else if (c == 'f') {
            if (!tc_lit(j, "false", 5)) return 0;
            if (o) { if (!tc_room(o, 1)) return 0; tc_put(o, cbor ? 0xf4 : 0xc2); }
        } else if (c == 'n') {
            if (!tc_lit(j, "null", 4)) return 0;
            if (o) { if (!tc_room(o, 1)) return 0; tc_put(o, cbor ? 0xf6 : 0xc0); }
        } else {
            return tc_fail(j, WP_ERR_JSON_SYNTAX, j->pos);
        }
    after:
        /* ---- after a value: separator or close, possibly several levels */
        for (;;) {
            if (!depth) {
                if (o && j->big) {
                    /* the long heads' room now (later writes could take what it had at close) */
                    if (!tc_room(o, j->big)) return 0;
                    o->len = tc_compact_buf(o->p, out_start, o->len, j->fix, j->nfix, cbor);
                }
                j->nfix = 0;
                return 1;
            }
            tc_frame *f = &j->st[depth - 1];
            f->done++;
            j->pos = tc_skip_ws(in, j->pos, len);
            if (j->pos >= len) return tc_fail(j, WP_ERR_TRUNCATED, j->len);
            c = in[j->pos];
            if (c == ',') {
                j->pos++;
                if (f->kind == TC_MAP) goto key;
                break;
            }
            if (c != (f->kind == TC_MAP ? '}' : ']')) return tc_fail(j, WP_ERR_JSON_SYNTAX, j->pos);
            j->pos++;
            if (o && !j->cnt) {
                bool map = f->kind == TC_MAP;
                if (tc_coll_head_size(cbor, f->done) == 1) tc_w_coll_head(o->p + j->fix[2 * f->rem], cbor, map, f->done);
                else {
                    j->fix[2 * f->rem + 1] = f->done | (map ? 0x80000000u : 0);
                    j->big += tc_coll_head_size(cbor, f->done) - 1;
                    if (!tc_room(o, j->big)) return 0;
                }
            } else if (!o && j->cnt) j->cnt[f->rem] = f->done;
            depth--;
        }
        continue;
    key:
        j->pos = tc_skip_ws(in, j->pos, len);
        if (j->pos >= len) return tc_fail(j, WP_ERR_TRUNCATED, j->len);
        if (in[j->pos] != '"') return tc_fail(j, WP_ERR_JSON_SYNTAX, j->pos);
        if (!tc_json_string(j, o, cbor)) return 0;
        j->pos = tc_skip_ws(in, j->pos, len);
        if (j->pos >= len) return tc_fail(j, WP_ERR_TRUNCATED, j->len);
        if (in[j->pos] != ':') return tc_fail(j, WP_ERR_JSON_SYNTAX, j->pos);
        j->pos++;
    }
}

/* The job is copied to a local whose address never escapes, so that the compiler keeps its
 * fields (position, output length) in registers: stores of output bytes through a uint8_t
 * pointer could otherwise alias them and force a reload after every byte. One copy per output
 * format, each a function of its own (TC_OWN_FUNCTION). */
static TC_OWN_FUNCTION int tc_json_to_mp(tc_job *j) {
    tc_job l = *j;
    int r = tc_json_value(&l, &l.o, 0);
    *j = l;
    return r;
}
static TC_OWN_FUNCTION int tc_json_to_cbor(tc_job *j) {
    tc_job l = *j;
    int r = tc_json_value(&l, &l.o, 1);
    *j = l;
    return r;
}
int tc_json_to_bin(tc_job *j, int cbor) { return cbor ? tc_json_to_cbor(j) : tc_json_to_mp(j); }
/* Through a sink: a counting pass first (tc_json_skip, which checks the whole value, so that the
 * errors are those of tc_json_to_bin), then the conversion with exact heads: no fixups to wait
 * for, so a sink takes the output as it is written, whatever the nesting. The counts go in the
 * fixups' area (2 words a fixup there: at least as many words as the value has containers). */
int tc_json_to_bin_counted(tc_job *j, int cbor) {
    tc_job c = *j;
    c.cnt = j->fix;
    c.cnt_cap = 2 * j->fix_cap;
    c.ncnt = 0;
    if (!tc_json_skip(&c)) {
        j->err = c.err;
        j->err_off = c.err_off;
        j->pos = c.pos;
        return 0;
    }
    j->cnt = c.cnt;
    j->cnt_cap = c.ncnt;
    j->ncnt = 0;
    j->o.keep = TC_KEEP_ALL;
    int r = tc_json_to_bin(j, cbor);
    j->cnt = NULL;
    return r;
}
TC_OWN_FUNCTION int tc_json_skip(tc_job *j) {
    tc_job l = *j;
    int r = tc_json_value(&l, NULL, 0);
    *j = l;
    return r;
}
