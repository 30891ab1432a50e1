/*
 * tc_api.c: the public TRANSCODE entry points of wirepack.h: wp_transcode, wp_validate,
 * wp_find, sizes and error names.
 */
#include "tc_internal.h"

const char *wp_tc_err_name(wp_err code) {
    switch ((int)code) {
    case 120: return "JSON_SYNTAX";
    case 121: return "BAD_UTF8";
    case 400: return "NON_JSON";
    case 401: return "NOT_FOUND";
    case 402: return "UNMAPPABLE";
    case 403: return "KEY_ORDER";
    case 0: return "OK";
    case 100: return "TRUNCATED";
    case 101: return "RESERVED_BYTE";
    case 102: return "TRAILING_DATA";
    case 103: return "BAD_TIMESTAMP";
    case 110: return "RESERVED_AI";
    case 111: return "BREAK";
    case 112: return "BAD_CHUNK";
    case 113: return "BAD_SIMPLE";
    case 200: return "DEPTH";
    case 201: return "LIMIT";
    case 301: return "OUTPUT_FULL";
    case 303: return "SCRATCH";
    default: return "UNKNOWN";
    }
}

uint32_t wp_transcode_out_bound(uint32_t from, uint32_t to, uint32_t len) {
    uint64_t b;
    if (to == WP_FMT_JSON) b = (uint64_t)len * 8 + 64;
    else if (from == WP_FMT_MSGPACK) b = (uint64_t)len * 2 + 16;
    else b = (uint64_t)len * 3 + 16;
    return b > 0xFFFFFFF0ull ? 0xFFFFFFF0u : (uint32_t)b;
}

uint32_t wp_transcode_scratch_words(uint32_t len, uint32_t max_depth) {
    uint64_t d = wp_effective_depth(max_depth, len);
    uint64_t w = d * TC_FRAME_WORDS + (uint64_t)len + 16;
    return w > 0xFFFFFFF0ull ? 0xFFFFFFF0u : (uint32_t)w;
}

/* Split scratch into frames and fixups. */
static bool tc_job_init(tc_job *j, const uint8_t *in, uint32_t len, uint32_t max_depth, uint32_t *scratch,
                        uint32_t cap) {
    __builtin_memset(j, 0, sizeof *j);
    j->in = in;
    j->len = len;
    j->max_depth = wp_effective_depth(max_depth, len);
    uint32_t fw = j->max_depth * TC_FRAME_WORDS;
    if (cap < fw) return false;
    j->st = (tc_frame *)scratch;
    j->st_cap = j->max_depth;
    j->fix = scratch + fw;
    j->fix_cap = (cap - fw) / 2;
    return true;
}

WP_INLINE uint32_t tc_skip_json_ws(const uint8_t *in, uint32_t p, uint32_t len) {
    while (p < len && (in[p] == ' ' || in[p] == '\n' || in[p] == '\r' || in[p] == '\t')) p++;
    return p;
}

/* Out of room: with a sink, flush the finished bytes, move the unfinished tail to the front and
 * grow if still needed; without one, the call fails with OUTPUT_FULL. */
bool tc_room_slow(tc_out *o, uint32_t n) {
    if (o->flush && !o->full) {
        uint32_t k = o->keep == TC_KEEP_ALL ? o->len : o->keep;
        if (k) {
            uint8_t *p = o->flush(o->user, o->p, k, 0, &o->cap);
            if (!p) goto fail;
            o->p = p;
            o->flushed += k;
            __builtin_memmove(o->p, o->p + k, o->len - k);
            o->len -= k;
            if (o->keep != TC_KEEP_ALL) o->keep = 0;
        }
        if (n <= o->cap - o->len) return true;
        uint64_t need = (uint64_t)o->len + n;
        if (need > 0xFFFFFFF0u) goto fail;
        uint8_t *p = o->flush(o->user, o->p, 0, (uint32_t)need, &o->cap);
        if (!p || n > o->cap - o->len) goto fail;
        o->p = p;
        return true;
    }
fail:
    o->full = true;
    return false;
}

wp_err wp_transcode(wp_transcoder *t) {
    tc_job j;
    t->out_len = 0;
    t->end = 0;
    t->nvalues = 0;
    t->err.code = WP_OK;
    t->err.offset = 0;
    if (!tc_job_init(&j, t->in, t->len, t->max_depth, t->scratch, t->scratch_cap)) {
        t->err.code = WP_ERR_SCRATCH;
        return WP_ERR_SCRATCH;
    }
    j.o.p = t->out;
    j.o.cap = t->out_cap;
    if (t->flush) { j.o.flush = t->flush; j.o.user = t->flush_user; }
    j.indent = t->indent;
    j.flags = t->flags;
    bool multi = t->flags & WP_TC_MULTIPLE;
    bool json_in = t->from == WP_FMT_JSON;
    uint64_t flushed_at_value = 0;
    for (;;) {
        if (json_in) {
            j.pos = tc_skip_json_ws(j.in, j.pos, j.len);
        }
        if (j.pos >= j.len && (t->nvalues > 0 || multi)) break;
        const uint32_t vstart = j.pos;
        /* binary output is final as it is written (until a fixup: tc_bin_value), so a sink may
         * take all of it; JSON output says itself what is final */
        if (t->to != WP_FMT_JSON) j.o.keep = TC_KEEP_ALL;
        int ok;
        if (t->to == WP_FMT_JSON) {
            if (json_in) { j.err = WP_ERR_BAD_TAPE; j.err_off = 0; ok = 0; }
            else if (t->flags & WP_TC_DIAG) ok = tc_bin_to_diag(&j, t->from == WP_FMT_CBOR);
            else ok = tc_bin_to_json(&j, t->from == WP_FMT_CBOR);
            if (ok && (t->flags & WP_TC_LINES)) {
                j.o.keep = j.o.len;
                if (tc_room(&j.o, 1)) tc_put(&j.o, '\n'); else ok = 0;
            }
        } else if (json_in) {
            ok = j.o.flush ? tc_json_to_bin_counted(&j, t->to == WP_FMT_CBOR) : tc_json_to_bin(&j, t->to == WP_FMT_CBOR);
        } else if (t->from == t->to) {
            /* same format: validate and copy */
            uint32_t s = j.pos;
            ok = tc_bin_skip(&j, t->from == WP_FMT_CBOR, 1);
            /* (through a sink in pieces, so that its block need not grow to the value's size) */
            for (uint32_t n = j.pos - s; ok && n;) {
                uint32_t k = j.o.flush && n > 65536 ? 65536 : n;
                if (!tc_room(&j.o, k)) { ok = 0; break; }
                tc_puts(&j.o, j.in + s, k);
                s += k;
                n -= k;
            }
        } else {
            ok = tc_bin_to_bin(&j, t->from == WP_FMT_CBOR);
        }
        t->out = j.o.p;
        t->out_cap = j.o.cap;
        if (!ok && j.err == WP_ERR_SCRATCH) {
            /* the value opened more containers than the fixups hold ((len + 16) / 2, from
             * wp_transcode_scratch_words): each takes two bytes at least, so it is not well
             * formed, and the check alone, from its start, finds its own error (unclosed ones
             * are TRUNCATED, not a scratch failure) */
            tc_job c = j;
            c.pos = vstart;
            c.err = WP_OK;
            if (!(json_in ? tc_json_skip(&c) : tc_bin_skip(&c, t->from == WP_FMT_CBOR, 0))) {
                j.err = c.err;
                j.err_off = c.err_off;
            }
        }
        if (!ok) {
            /* out_len: the end of the last complete value in out (bytes since flushed shift it) */
            uint64_t moved = j.o.flushed - flushed_at_value;
            t->out_len = moved >= t->out_len ? 0 : t->out_len - (uint32_t)moved;
            if (j.o.full && j.err == WP_OK) {
                j.err = WP_ERR_OUTPUT_FULL;
                j.err_off = j.pos;
            }
            t->err.code = j.err;
            t->err.offset = j.err_off;
            return j.err;
        }
        t->nvalues++;
        t->end = j.pos;
        t->out_len = j.o.len;
        flushed_at_value = j.o.flushed;
        if (t->flags & WP_TC_FIRST) break;
        if (!multi) {
            if (json_in) j.pos = tc_skip_json_ws(j.in, j.pos, j.len);
            if (j.pos < j.len) {
                t->err.code = WP_ERR_TRAILING_DATA;
                t->err.offset = j.pos;
                return WP_ERR_TRAILING_DATA;
            }
            break;
        }
    }
    return WP_OK;
}

wp_err wp_validate(const uint8_t *in, uint32_t len, uint32_t format, uint32_t flags, uint32_t max_depth,
                   uint32_t *scratch, uint32_t scratch_cap, wp_error *err) {
    tc_job j;
    err->code = WP_OK;
    err->offset = 0;
    if (!tc_job_init(&j, in, len, max_depth, scratch, scratch_cap)) return err->code = WP_ERR_SCRATCH;
    bool multi = flags & WP_TC_MULTIPLE;
    uint32_t n = 0;
    for (;;) {
        if (format == WP_FMT_JSON) j.pos = tc_skip_json_ws(in, j.pos, len);
        if (j.pos >= len && (n > 0 || multi)) break;
        int ok = format == WP_FMT_JSON ? tc_json_skip(&j) : tc_bin_skip(&j, format == WP_FMT_CBOR, 1);
        if (!ok) { err->code = j.err; err->offset = j.err_off; return j.err; }
        n++;
        if (!multi) {
            if (format == WP_FMT_JSON) j.pos = tc_skip_json_ws(in, j.pos, len);
            if (j.pos < len) { err->code = WP_ERR_TRAILING_DATA; err->offset = j.pos; return err->code; }
            break;
        }
    }
    return WP_OK;
}

/* ------------------------------------------------------------------ find */

#pragma GCC diagnostic ignored "-Woverride-init" /* (both compilers: see tc_json_out.c) */
/* Extra bytes after the first of each MessagePack head (fixed sizes; 0xFF: variable) */
static const uint8_t tc_mp_fixed[256] = {
    [0xc0] = 0, [0xc2] = 0, [0xc3] = 0, [0xcc] = 1, [0xcd] = 2, [0xce] = 4, [0xcf] = 8,
    [0xd0] = 1, [0xd1] = 2, [0xd2] = 4, [0xd3] = 8, [0xca] = 4, [0xcb] = 8,
    [0xd4] = 2, [0xd5] = 3, [0xd6] = 5, [0xd7] = 9, [0xd8] = 17,
    [0xc1] = 0xFF, [0xc4 ... 0xc9] = 0xFF, [0xd9 ... 0xdf] = 0xFF};

/* Skips `count` MessagePack values from j->pos with one counter of items still to skip: no
 * stack, no UTF-8 check (find only needs the extent; the value found is checked when it is
 * decoded). Any declared count larger than the bytes left is truncation. */
static int tc_mp_skip_fast(tc_job *j, uint64_t count) {
    const uint8_t *in = j->in;
    uint64_t pos = j->pos, len = j->len, rem = count;
    while (rem) {
        if (rem > len - pos) return tc_fail(j, WP_ERR_TRUNCATED, (uint32_t)(pos < len ? pos : len));
        uint32_t b = in[pos];
        rem--;
        if (b < 0x80 || b >= 0xe0) { pos++; continue; }
        if (b >= 0xa0 && b <= 0xbf) { pos += 1 + (b & 31); if (pos > len) goto trunc; continue; }
        if (b <= 0x8f) { rem += 2u * (b & 15); pos++; continue; }
        if (b <= 0x9f) { rem += b & 15; pos++; continue; }
        uint32_t f = tc_mp_fixed[b];
        if (f != 0xFF) { pos += 1 + f; if (pos > len) goto trunc; continue; }
        if (b == 0xc1) return tc_fail(j, WP_ERR_RESERVED_BYTE, (uint32_t)pos);
        uint32_t h = (b == 0xc4 || b == 0xc7 || b == 0xd9) ? 1 : (b == 0xc5 || b == 0xc8 || b == 0xda || b == 0xdc || b == 0xde) ? 2 : 4;
        if (pos + 1 + h > len) goto trunc;
        uint64_t n = h == 1 ? in[pos + 1] : h == 2 ? wp_be16(in + pos + 1) : wp_be32(in + pos + 1);
        if (b == 0xdc || b == 0xdd) { rem += n; pos += 1 + h; continue; }
        if (b == 0xde || b == 0xdf) { rem += 2 * n; pos += 1 + h; continue; }
        pos += 1 + h + n + (b >= 0xc7 && b <= 0xc9 ? 1 : 0);
        if (pos > len) goto trunc;
    }
    j->pos = (uint32_t)pos;
    return 1;
trunc:
    return tc_fail(j, WP_ERR_TRUNCATED, (uint32_t)len);
}

/* The same for CBOR; indefinite-length items go to the general skip (they need a stack). */
static int tc_cb_skip_fast(tc_job *j, uint64_t count) {
    const uint8_t *in = j->in;
    uint64_t len = j->len, rem = count;
    while (rem) {
        uint64_t pos = j->pos;
        if (rem > len - pos) return tc_fail(j, WP_ERR_TRUNCATED, (uint32_t)(pos < len ? pos : len));
        uint32_t b = in[pos], mt = b >> 5, ai = b & 31;
        rem--;
        if (ai == 31) {
            if (!tc_bin_skip(j, 1, 0)) return 0;
            continue;
        }
        uint64_t arg;
        bool indef;
        j->pos = (uint32_t)pos + 1;
        if (mt == 7) {
            if (ai >= 28) return tc_fail(j, WP_ERR_RESERVED_AI, (uint32_t)pos);
            if (ai == 24) {
                if (pos + 2 > len) goto trunc;
                if (in[pos + 1] < 32) return tc_fail(j, WP_ERR_BAD_SIMPLE, (uint32_t)pos);
            }
            uint32_t extra = ai < 24 ? 0 : ai == 24 ? 1 : ai == 25 ? 2 : ai == 26 ? 4 : 8;
            if (pos + 1 + extra > len) goto trunc;
            j->pos = (uint32_t)(pos + 1 + extra);
            continue;
        }
        if (!tc_cb_arg(j, ai, (uint32_t)pos, &arg, &indef)) return 0;
        switch (mt) {
        case 2: case 3:
            if (arg > len - j->pos) goto trunc;
            j->pos += (uint32_t)arg;
            break;
        case 4: rem += arg; break;
        case 5: rem += 2 * arg; break;
        case 6: rem += 1; break;
        default: break;
        }
    }
    return 1;
trunc:
    return tc_fail(j, WP_ERR_TRUNCATED, (uint32_t)len);
}

/* skip one value at j->pos */
static int tc_skip(tc_job *j, uint32_t format) {
    if (format == WP_FMT_JSON) {
        j->pos = tc_skip_json_ws(j->in, j->pos, j->len);
        return tc_json_skip(j);
    }
    return format == WP_FMT_CBOR ? tc_cb_skip_fast(j, 1) : tc_mp_skip_fast(j, 1);
}

/* A key that is a canonical decimal integer below 2^32 - 1: its value. */
static bool tc_key_index(const uint8_t *k, uint32_t n, uint32_t *out) {
    if (n == 0 || n > 10 || (k[0] == '0' && n > 1)) return false;
    uint64_t v = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (k[i] < '0' || k[i] > '9') return false;
        v = v * 10 + (k[i] - '0');
    }
    if (v >= 0xFFFFFFFFull) return false;
    *out = (uint32_t)v;
    return true;
}

static const uint8_t tc_fffd[3] = { 0xEF, 0xBF, 0xBD }; /* U+FFFD in UTF-8 */

/* Does s[0..n), read as the decoders read it (each maximal invalid UTF-8 subpart as U+FFFD),
 * go on with t[*at..tn)? *at moves past the part when it does. */
static bool tc_name_part(const uint8_t *s, uint32_t n, const uint8_t *t, uint32_t tn, uint32_t *at) {
    uint32_t i = 0;
    for (;;) {
        uint32_t ok = tc_utf8_check(s + i, n - i);
        if (ok > tn - *at || !tc_memeq(s + i, t + *at, ok)) return false;
        *at += ok;
        i += ok;
        if (i == n) return true;
        uint32_t skip = 1; /* (set: s[i] starts an invalid sequence; gcc cannot see it) */
        tc_utf8_seq(s + i, n - i, &skip);
        if (3 > tn - *at || !tc_memeq(t + *at, tc_fffd, 3)) return false;
        *at += 3;
        i += skip;
    }
}

/* Is the map key at j->pos named t[0..tn), the property name decode() gives it? Strings by
 * their text (ill-formed UTF-8 as U+FFFD, which only a name holding U+FFFD can match: fffd),
 * CBOR text chunks joined, numbers, booleans, null and undefined by String() (the key 1 is
 * "1"). j->pos moves after the key. */
static int tc_find_key(tc_job *j, int cbor, const uint8_t *t, uint32_t tn, bool fffd, bool *eq) {
    uint32_t ks = j->pos;
    tc_val k;
    *eq = false;
    if (!(cbor ? tc_cb_read(j, &k) : tc_mp_read(j, &k))) return 0;
    if (k.kind == K_STR) {
        uint32_t at = 0;
        if ((uint32_t)k.u == tn && tc_memeq(k.s, t, tn)) *eq = true;
        else if (fffd && tc_name_part(k.s, (uint32_t)k.u, t, tn, &at)) *eq = at == tn;
        return 1;
    }
    if (k.kind == K_STR_CHUNKS) {
        uint32_t at = 0;
        bool same = true;
        for (;;) {
            if (j->pos >= j->len) return tc_fail(j, WP_ERR_TRUNCATED, ks);
            uint32_t b = j->in[j->pos];
            if (b == 0xff) { j->pos++; break; }
            if ((b >> 5) != 3 || (b & 31) == 31) return tc_fail(j, WP_ERR_BAD_CHUNK, j->pos);
            tc_val c = { 0 }; /* (a chunk that reads is a text string; gcc cannot see it) */
            if (!tc_cb_read(j, &c)) return 0;
            if (same) same = tc_name_part(c.s, (uint32_t)c.u, t, tn, &at);
        }
        *eq = same && at == tn;
        return 1;
    }
    if (k.kind <= K_F64) {
        char nb[32];
        uint32_t n = tc_scalar_name(&k, nb);
        *eq = n == tn && tc_memeq((const uint8_t *)nb, t, tn);
        return 1;
    }
    j->pos = ks;
    return tc_skip(j, cbor ? WP_FMT_CBOR : WP_FMT_MSGPACK);
}

/* Does the JSON string at j->pos equal key? j->pos moves after it. */
static int tc_json_key_eq(tc_job *j, const uint8_t *key, uint32_t klen, bool *eq) {
    uint32_t s = j->pos;
    if (!tc_json_skip(j)) return 0;
    uint32_t e = j->pos - 1; /* closing quote */
    const uint8_t *raw = j->in + s + 1;
    uint32_t rn = e - s - 1;
    bool esc = false;
    for (uint32_t i = 0; i < rn; i++) if (raw[i] == '\\') { esc = true; break; }
    if (!esc) { *eq = rn == klen && tc_memeq(raw, key, klen); return 1; }
    /* escaped key: transcode it to MessagePack into a small buffer and compare the bytes */
    uint8_t buf[1024 + 8];
    tc_job k;
    __builtin_memset(&k, 0, sizeof k);
    k.in = j->in; k.len = j->len; k.pos = s; k.max_depth = 1;
    k.o.p = buf; k.o.cap = sizeof buf;
    if (rn > 1024 || !tc_json_to_bin(&k, 0)) { *eq = false; return 1; }
    uint32_t h = buf[0] >= 0xa0 && buf[0] <= 0xbf ? 1 : buf[0] == 0xd9 ? 2 : 3;
    *eq = k.o.len - h == klen && tc_memeq(buf + h, key, klen);
    return 1;
}

wp_err wp_find(const uint8_t *in, uint32_t len, uint32_t format, const wp_path_step *path, uint32_t nsteps,
               uint32_t *scratch, uint32_t scratch_cap, uint32_t *start, uint32_t *end, wp_error *err) {
    tc_job j;
    err->code = WP_OK;
    err->offset = 0;
    if (!tc_job_init(&j, in, len, 0, scratch, scratch_cap)) return err->code = WP_ERR_SCRATCH;
    j.pos = 0;
    for (uint32_t s = 0; s < nsteps; s++) {
        const wp_path_step *st = &path[s];
        uint32_t vstart = j.pos;
        if (format == WP_FMT_JSON) {
            j.pos = tc_skip_json_ws(in, j.pos, len);
            vstart = j.pos;
            if (j.pos >= len) goto trunc;
            uint8_t c = in[j.pos];
            uint32_t index = st->index;
            bool bykey = st->key != 0;
            const uint8_t *name = st->key;
            uint32_t nlen = st->key_len;
            char digits[12];
            if (bykey && c == '[' && tc_key_index(st->key, st->key_len, &index)) bykey = false;
            /* an index step on an object: the key its digits name (obj[5] is obj["5"]) */
            if (!bykey && c == '{') { nlen = tc_u64_dec(index, digits); name = (const uint8_t *)digits; bykey = true; }
            if (bykey ? c != '{' : c != '[') goto notfound;
            j.pos = tc_skip_json_ws(in, j.pos + 1, len);
            if (j.pos >= len) goto trunc;
            if (in[j.pos] == (bykey ? '}' : ']')) goto notfound;
            uint32_t idx = 0, found = 0xFFFFFFFFu;
            for (;;) {
                if (bykey) {
                    bool eq;
                    if (j.pos >= len || in[j.pos] != '"') { j.err = WP_ERR_JSON_SYNTAX; j.err_off = j.pos; goto fail; }
                    if (!tc_json_key_eq(&j, name, nlen, &eq)) goto fail;
                    j.pos = tc_skip_json_ws(in, j.pos, len);
                    if (j.pos >= len) goto trunc;
                    if (in[j.pos] != ':') { j.err = WP_ERR_JSON_SYNTAX; j.err_off = j.pos; goto fail; }
                    j.pos = tc_skip_json_ws(in, j.pos + 1, len);
                    if (eq) { found = j.pos; break; } /* the first match (json-pack's findKey) */
                } else if (idx == index) {
                    found = j.pos;
                    break;
                }
                if (!tc_skip(&j, format)) goto fail;
                idx++;
                j.pos = tc_skip_json_ws(in, j.pos, len);
                if (j.pos >= len) goto trunc;
                if (in[j.pos] == ',') { j.pos = tc_skip_json_ws(in, j.pos + 1, len); continue; }
                if (in[j.pos] == (bykey ? '}' : ']')) break;
                j.err = WP_ERR_JSON_SYNTAX; j.err_off = j.pos; goto fail;
            }
            if (found == 0xFFFFFFFFu) goto notfound;
            j.pos = found;
            continue;
        }
        /* binary */
        tc_val v = { 0 }; /* (each kind sets the fields it uses; gcc cannot see it) */
        int cbor = format == WP_FMT_CBOR;
        for (;;) {
            if (!(cbor ? tc_cb_read(&j, &v) : tc_mp_read(&j, &v))) goto fail;
            if (v.kind != K_TAG) break;
        }
        bool indef = v.kind == K_ARR_INDEF || v.kind == K_MAP_INDEF;
        bool ismap = v.kind == K_MAP || v.kind == K_MAP_INDEF;
        bool isarr = v.kind == K_ARR || v.kind == K_ARR_INDEF;
        uint32_t index = st->index;
        bool bykey = st->key != 0;
        const uint8_t *name = st->key;
        uint32_t nlen = st->key_len;
        char digits[12];
        if (bykey && isarr && tc_key_index(st->key, st->key_len, &index)) bykey = false;
        /* an index step on a map: the key its digits name (obj[5] is obj["5"]: the key 5 too) */
        if (!bykey && ismap) { nlen = tc_u64_dec(index, digits); name = (const uint8_t *)digits; bykey = true; }
        if (bykey ? !ismap : !isarr) goto notfound;
        bool fffd = false; /* the name holds U+FFFD: keys with ill-formed UTF-8 may be named so */
        for (uint32_t i = 0; bykey && i + 3 <= nlen && !fffd; i++) fffd = tc_memeq(name + i, tc_fffd, 3);
        uint64_t n = v.u;
        uint32_t found = 0xFFFFFFFFu;
        if (!bykey && !indef) {
            /* an index into a definite array: skip the elements before it in one go */
            if (index >= n) goto notfound;
            if (index && !(cbor ? tc_cb_skip_fast(&j, index) : tc_mp_skip_fast(&j, index))) goto fail;
            found = j.pos;
            n = 0;
        }
        for (uint64_t i = 0; found == 0xFFFFFFFFu && (indef || i < n); i++) {
            if (indef) {
                if (j.pos >= len) goto trunc;
                if (in[j.pos] == 0xff) break;
            }
            if (bykey) {
                bool eq;
                if (!tc_find_key(&j, cbor, name, nlen, fffd, &eq)) goto fail;
                /* the first match: the rest of the map is not read (json-pack's findKey) */
                if (eq) { found = j.pos; break; }
                if (!tc_skip(&j, format)) goto fail;
            } else {
                if (i == index) { found = j.pos; break; }
                if (!tc_skip(&j, format)) goto fail;
            }
        }
        (void)vstart;
        if (found == 0xFFFFFFFFu) goto notfound;
        j.pos = found;
    }
    /* the value's extent */
    {
        if (format == WP_FMT_JSON) j.pos = tc_skip_json_ws(in, j.pos, len);
        uint32_t s0 = j.pos;
        if (!tc_skip(&j, format)) goto fail;
        *start = s0;
        *end = j.pos;
        return WP_OK;
    }
notfound:
    err->code = WP_ERR_NOT_FOUND;
    err->offset = j.pos;
    return err->code;
trunc:
    err->code = WP_ERR_TRUNCATED;
    err->offset = j.pos;
    return err->code;
fail:
    err->code = j.err;
    err->offset = j.err_off;
    return err->code;
}
