/*
 * tc_bin.c: MessagePack <-> CBOR, and skipping a value without output (validate, find).
 *
 * Each value becomes what wirepack's encoder for the other format writes for the value the
 * decoder returns: numbers (floats included) that are integers in [-2^31, 2^32) as integers,
 * other floats as float64 (MessagePack) or the shortest exact float (CBOR; -0 too, which is 0
 * in MessagePack); 64-bit integers
 * (MessagePack uint64/int64, CBOR 8-byte heads) keep a 64-bit form; binary <-> byte strings;
 * undefined <-> undefined; CBOR indefinite items become definite (a text string's chunks joined,
 * each that is not UTF-8 on its own replaced as the decoders replace it). Values with no counterpart
 * fail with WP_ERR_UNMAPPABLE: MessagePack extensions other than undefined, CBOR tags, simple
 * values other than false/true/null/undefined, and CBOR integers below -2^63.
 */
#include "tc_internal.h"

/* Length of s[0..n) with each maximal invalid UTF-8 subpart replaced by U+FFFD (3 bytes, as
 * TextDecoder and the decoders replace); written to out when it is not NULL. */
static uint64_t tc_utf8_repl(const uint8_t *s, uint32_t n, uint8_t *out) {
    uint32_t i = 0;
    uint64_t len = 0;
    for (;;) {
        uint32_t ok = tc_utf8_check(s + i, n - i);
        if (out) __builtin_memcpy(out + len, s + i, ok);
        len += ok;
        i += ok;
        if (i == n) return len;
        uint32_t skip = 1; /* (set: s[i] starts an invalid sequence; gcc cannot see it) */
        tc_utf8_seq(s + i, n - i, &skip);
        if (out) { out[len] = 0xEF; out[len + 1] = 0xBF; out[len + 2] = 0xBD; }
        len += 3;
        i += skip;
    }
}

/* Total length of the chunks of an indefinite string whose first chunk is at j->pos. For text
 * (rep not NULL) also the length once each chunk that is not valid UTF-8 on its own has been
 * replaced (*rep; *bad when some chunk is): the decoders decode chunk by chunk, so the chunks
 * e2 82 and ac are two U+FFFD, not the joined bytes' U+20AC. */
static int tc_chunks_len(tc_job *j, uint32_t start, uint32_t mt, uint32_t *total, uint64_t *rep, bool *bad) {
    uint32_t p = j->pos, save = j->pos;
    uint64_t t = 0, r = 0;
    bool any = false;
    for (;;) {
        if (p >= j->len) return tc_fail(j, WP_ERR_TRUNCATED, start);
        uint32_t b = j->in[p];
        if (b == 0xff) break;
        if ((b >> 5) != mt || (b & 31) == 31) return tc_fail(j, WP_ERR_BAD_CHUNK, p);
        j->pos = p + 1;
        uint64_t n; bool indef;
        if (!tc_cb_arg(j, b & 31, p, &n, &indef)) return 0;
        if (n > j->len - j->pos) return tc_fail(j, WP_ERR_TRUNCATED, p);
        if (rep) {
            if (tc_utf8_check(j->in + j->pos, (uint32_t)n) == n) r += n;
            else { r += tc_utf8_repl(j->in + j->pos, (uint32_t)n, NULL); any = true; }
        }
        p = j->pos + (uint32_t)n;
        t += n;
    }
    j->pos = save;
    *total = (uint32_t)t;
    if (rep) { *rep = r; *bad = any; }
    return 1;
}

/* copies the chunks (already checked) to out, each replaced as tc_utf8_repl does when repl is
 * set (room for the replaced length checked); j->pos after the break */
static void tc_chunks_copy(tc_job *j, tc_out *o, bool repl) {
    uint32_t p = j->pos;
    for (;;) {
        uint32_t b = j->in[p];
        if (b == 0xff) break;
        j->pos = p + 1;
        uint64_t n = 0; bool indef = false; /* (set: the chunks were checked before; gcc cannot see it) */
        tc_cb_arg(j, b & 31, p, &n, &indef);
        if (o && repl) o->len += (uint32_t)tc_utf8_repl(j->in + j->pos, (uint32_t)n, o->p + o->len);
        else if (o) tc_puts(o, j->in + j->pos, (uint32_t)n);
        p = j->pos + (uint32_t)n;
    }
    j->pos = p + 1;
}

/* One value: from one binary format to the other (o != NULL), or skipped (o == NULL). */
static int tc_bin_value(tc_job *j, int cbor_in, tc_out *o, int check_utf8) {
    int cbor_out = !cbor_in;
    uint32_t depth = 0, out_start = o ? o->len : 0;
    tc_val v = { 0 }; /* (each kind sets the fields it uses; gcc cannot see it) */
    j->nfix = 0;
    j->big = 0;
    for (;;) {
        if (depth) {
            tc_frame *f = &j->st[depth - 1];
            bool closing;
            if (f->kind & TC_INDEF) {
                closing = j->pos < j->len && j->in[j->pos] == 0xff;
                if (closing) {
                    if ((f->kind & TC_MAP) && (f->done & 1)) return tc_fail(j, WP_ERR_BREAK, j->pos);
                    j->pos++;
                    if (o) {
                        bool map = f->kind & TC_MAP;
                        uint32_t cnt = map ? f->done / 2 : f->done;
                        if (tc_coll_head_size(cbor_out, cnt) == 1) tc_w_coll_head(o->p + j->fix[2 * f->rem], cbor_out, map, cnt);
                        else {
                            j->fix[2 * f->rem + 1] = cnt | (map ? 0x80000000u : 0);
                            j->big += tc_coll_head_size(cbor_out, cnt) - 1;
                            if (!tc_room(o, j->big)) return 0;
                        }
                    }
                }
            } else closing = f->rem == 0;
            if (closing) {
                depth--;
                if (!depth) break;
                continue;
            }
            if (!(f->kind & TC_INDEF)) f->rem--;
            f->done++;
        }
        if (!(cbor_in ? tc_cb_read(j, &v) : tc_mp_read(j, &v))) return 0;
        if (o && !tc_room(o, 16)) return 0;
        switch (v.kind) {
        case K_NIL: if (o) tc_put(o, cbor_out ? 0xf6 : 0xc0); break;
        case K_FALSE: if (o) tc_put(o, cbor_out ? 0xf4 : 0xc2); break;
        case K_TRUE: if (o) tc_put(o, cbor_out ? 0xf5 : 0xc3); break;
        case K_UNDEF:
            if (o) { if (cbor_out) tc_put(o, 0xf7); else { tc_put(o, 0xd4); tc_put(o, 0); tc_put(o, 0); } }
            break;
        case K_UINT:
            if (o) {
                if (v.u <= 0xFFFFFFFFull) tc_w_u32(o, cbor_out, (uint32_t)v.u);
                else if (cbor_out) tc_w_head(o, 1, 0, v.u);
                else tc_w_number(o, 0, (double)v.u);
            }
            break;
        case K_NEG:
            if (o) {
                if (v.u <= 0x80000000ull) tc_w_neg32(o, cbor_out, (uint32_t)v.u);
                else if (cbor_out) tc_w_head(o, 1, 1, v.u - 1);
                else tc_w_number(o, 0, -(double)v.u);
            }
            break;
        case K_INT64:
            if (o) {
                if (cbor_out) {
                    /* from MessagePack: d = 0 uint64, 1 int64 */
                    uint64_t u = v.u;
                    bool neg = v.d == 1 && (int64_t)u < 0;
                    tc_put(o, neg ? 0x3b : 0x1b);
                    wp_put_be64(o->p + o->len, neg ? (uint64_t)(-1 - (int64_t)u) : u);
                    o->len += 8;
                } else if (v.d == 2) {
                    /* CBOR -1 - u */
                    if (v.u > 0x7FFFFFFFFFFFFFFFull) return tc_fail(j, WP_ERR_UNMAPPABLE, v.start);
                    tc_put(o, 0xd3);
                    wp_put_be64(o->p + o->len, (uint64_t)(-1 - (int64_t)v.u));
                    o->len += 8;
                } else {
                    tc_put(o, 0xcf);
                    wp_put_be64(o->p + o->len, v.u);
                    o->len += 8;
                }
            }
            break;
        case K_F64: if (o) tc_w_number(o, cbor_out, v.d); break;
        case K_STR: case K_BIN: {
            uint32_t n = (uint32_t)v.u;
            if (v.kind == K_STR && check_utf8) {
                uint32_t bad = tc_utf8_check(v.s, n);
                if (bad != n) return tc_fail(j, WP_ERR_BAD_UTF8, (uint32_t)(v.s - j->in) + bad);
            }
            if (o) {
                if (!tc_room(o, n + 9)) return 0;
                if (v.kind == K_STR) tc_w_str_head(o, cbor_out, n);
                else if (cbor_out) tc_w_head(o, 1, 2, n);
                else if (n < 0x100) { tc_put(o, 0xc4); tc_put(o, n); }
                else if (n < 0x10000) { tc_put(o, 0xc5); wp_put_be16(o->p + o->len, n); o->len += 2; }
                else { tc_put(o, 0xc6); wp_put_be32(o->p + o->len, n); o->len += 4; }
                tc_puts(o, v.s, n);
            }
            break;
        }
        case K_STR_CHUNKS: case K_BIN_CHUNKS: {
            uint32_t total;
            uint64_t rep = 0;
            bool str = v.kind == K_STR_CHUNKS, bad = false;
            /* (the replaced length only when converting: validation fails ill-formed chunks) */
            if (!tc_chunks_len(j, v.start, str ? 3 : 2, &total, str && o ? &rep : NULL, &bad)) return 0;
            if (o) {
                /* text: the chunks joined, each ill-formed one replaced as the decoders do */
                if (!tc_room64(o, (str ? rep : total) + 9)) return 0;
                if (str) tc_w_str_head(o, 0, (uint32_t)rep);
                else if (total < 0x100) { tc_put(o, 0xc4); tc_put(o, total); }
                else if (total < 0x10000) { tc_put(o, 0xc5); wp_put_be16(o->p + o->len, total); o->len += 2; }
                else { tc_put(o, 0xc6); wp_put_be32(o->p + o->len, total); o->len += 4; }
                tc_chunks_copy(j, o, bad);
            } else {
                uint32_t p = j->pos;
                tc_chunks_copy(j, NULL, false);
                if (str && check_utf8) {
                    /* each chunk on its own */
                    while (j->in[p] != 0xff) {
                        j->pos = p + 1;
                        uint64_t n = 0; bool indef = false; /* (set: the chunks were checked before; gcc cannot see it) */
                        tc_cb_arg(j, j->in[p] & 31, p, &n, &indef);
                        uint32_t at = tc_utf8_check(j->in + j->pos, (uint32_t)n);
                        if (at != n) return tc_fail(j, WP_ERR_BAD_UTF8, j->pos + at);
                        p = j->pos + (uint32_t)n;
                    }
                    j->pos = p + 1;
                }
            }
            break;
        }
        case K_ARR: case K_MAP: case K_ARR_INDEF: case K_MAP_INDEF: {
            bool map = v.kind == K_MAP || v.kind == K_MAP_INDEF;
            bool indef = v.kind == K_ARR_INDEF || v.kind == K_MAP_INDEF;
            if (o) {
                if (indef) {
                    if (j->nfix >= j->fix_cap) return tc_fail(j, WP_ERR_SCRATCH, v.start);
                    j->fix[2 * j->nfix] = o->len;
                    j->fix[2 * j->nfix + 1] = TC_FIX_DONE;
                    o->len += 1;
                    /* a sink takes nothing more of this value: flushing would move the bytes
                     * that the fixups point at (the value is final once compacted) */
                    o->keep = 0;
                } else {
                    tc_w_coll_head(o->p + o->len, cbor_out, map, (uint32_t)v.u);
                    o->len += tc_coll_head_size(cbor_out, (uint32_t)v.u);
                }
            }
            if (!indef && v.u == 0) break;
            if (depth >= j->max_depth || depth >= j->st_cap) return tc_fail(j, WP_ERR_DEPTH, v.start);
            tc_frame *f = &j->st[depth++];
            f->kind = (map ? TC_MAP : TC_ARR) | (indef ? TC_INDEF : 0);
            f->rem = indef ? j->nfix : tc_items(map, v.u);
            if (indef && o) j->nfix++;
            f->done = 0;
            continue;
        }
        case K_BREAK: return tc_fail(j, WP_ERR_BREAK, v.start);
        case K_TAG:
            if (o) return tc_fail(j, WP_ERR_UNMAPPABLE, v.start);
            /* (validation: a chain of tags that decoding fails with DEPTH does not validate) */
            if (!tc_open_tag(j, &depth, v.start)) return 0;
            continue;
        case K_SIMPLE:
            if (o) return tc_fail(j, WP_ERR_UNMAPPABLE, v.start);
            break;
        case K_EXT:
            if (o) return tc_fail(j, WP_ERR_UNMAPPABLE, v.start);
            if (v.x == -1 && !(v.u == 4 || v.u == 8 || v.u == 12)) return tc_fail(j, WP_ERR_BAD_TIMESTAMP, v.start);
            break;
        default: return tc_fail(j, WP_ERR_UNMAPPABLE, v.start);
        }
        if (!depth) break;
    }
    if (o && j->big) {
        /* the long heads need their room now: what was written after a fixup could take the
         * room it had when its container closed (a sink, or an out_cap below the bound) */
        if (!tc_room(o, j->big)) return 0;
        o->len = tc_compact_buf(o->p, out_start, o->len, j->fix, j->nfix, cbor_out);
    }
    j->nfix = 0;
    return 1;
}

int tc_bin_to_bin(tc_job *j, int from_cbor) { return tc_bin_value(j, from_cbor, &j->o, 0); }
int tc_bin_skip(tc_job *j, int cbor, int check_utf8) { return tc_bin_value(j, cbor, NULL, check_utf8); }
