/*
 * tc_json_out.c: MessagePack or CBOR -> JSON text, byte for byte JSON.stringify(decode(x)) for
 * JSON-representable data. One pass, no tape, an explicit stack of open containers.
 *
 * Policy for values JSON cannot hold (documented in wirepack.h, TRANSCODE):
 *  - NaN and +-Infinity: null (as JSON.stringify); -0: 0.
 *  - undefined: null in arrays, the member is left out in maps (as JSON.stringify); a top-level
 *    undefined fails with NON_JSON.
 *  - 64-bit integers (MessagePack uint64/int64, CBOR integers beyond 2^53): their exact decimal
 *    digits (JSON.stringify would throw on the BigInt that decode returns).
 *  - map keys that are numbers, booleans or null: the property name JavaScript gives them;
 *    keys of other types fail with NON_JSON.
 *  - binary, extensions (timestamps included), CBOR tags and simple values: NON_JSON.
 *  - invalid UTF-8 in strings: U+FFFD per maximal invalid subpart (as TextDecoder).
 */
#include "tc_internal.h"

/* Escape class of each byte: 0 copy, 1 short escape, 2 \u00XX, 3 non-ASCII */
/* (ranges first, then the bytes they include that differ: an intended override, which gcc
 * calls -Woverride-init and clang -Winitializer-overrides, and both accept under this name) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
static const uint8_t tc_esc[256] = {
    [0 ... 0x1F] = 2, ['\b'] = 1, ['\f'] = 1, ['\n'] = 1, ['\r'] = 1, ['\t'] = 1,
    ['"'] = 1, ['\\'] = 1, [0x80 ... 0xFF] = 3};
#pragma GCC diagnostic pop

uint32_t tc_utf8_check(const uint8_t *s, uint32_t n) {
    uint32_t i = 0;
    while (i < n) {
        if (i + 8 <= n && (wp_load_u64(s + i) & 0x8080808080808080ull) == 0) { i += 8; continue; }
        if (s[i] < 0x80) { i++; continue; }
        uint32_t skip, k = tc_utf8_seq(s + i, n - i, &skip);
        if (!k) return i;
        i += k;
    }
    return n;
}

/* A JSON string literal of UTF-8 bytes s[0..n); room for 6n + 2 must have been checked. */
static uint8_t *tc_json_str_p(uint8_t *p, const uint8_t *s, uint32_t n) {
    *p++ = '"';
    uint32_t i = 0;
    while (i < n) {
        /* 8 plain ASCII bytes at a time */
        while (i + 8 <= n) {
            uint64_t v = wp_load_u64(s + i);
            /* bytes < 0x20, '"', '\\' or >= 0x80 */
            uint64_t lt = (v - 0x2020202020202020ull) & ~v;
            uint64_t q = v ^ 0x2222222222222222ull, bs = v ^ 0x5C5C5C5C5C5C5C5Cull;
            uint64_t hasq = (q - 0x0101010101010101ull) & ~q;
            uint64_t hasb = (bs - 0x0101010101010101ull) & ~bs;
            uint64_t m = (lt | hasq | hasb | v) & 0x8080808080808080ull;
            /* the 8 bytes are copied either way; only those before the first special byte count */
            __builtin_memcpy(p, s + i, 8);
            if (m != 0) {
                uint32_t k = (uint32_t)__builtin_ctzll(m) >> 3;
                p += k;
                i += k;
                break;
            }
            p += 8;
            i += 8;
        }
        if (i >= n) break;
        uint32_t c = s[i];
        switch (tc_esc[c]) {
        case 0: *p++ = (uint8_t)c; i++; break;
        case 1:
            p[0] = '\\';
            p[1] = c == '\b' ? 'b' : c == '\f' ? 'f' : c == '\n' ? 'n' : c == '\r' ? 'r' : c == '\t' ? 't' : (uint8_t)c;
            p += 2; i++;
            break;
        case 2:
            __builtin_memcpy(p, "\\u00", 4);
            p[4] = (uint8_t)tc_hex[c >> 4];
            p[5] = (uint8_t)tc_hex[c & 15];
            p += 6; i++;
            break;
        default: {
            /* runs of common 2- and 3-byte characters (no surrogates, no overlongs) */
            while (i + 3 <= n) {
                uint32_t c0 = s[i], c1 = s[i + 1], c2 = s[i + 2];
                if (((c0 >= 0xE1 && c0 <= 0xEC) || c0 == 0xEE || c0 == 0xEF) && (c1 & 0xC0) == 0x80 && (c2 & 0xC0) == 0x80) {
                    p[0] = (uint8_t)c0; p[1] = (uint8_t)c1; p[2] = (uint8_t)c2;
                    p += 3; i += 3;
                } else if (c0 >= 0xC2 && c0 <= 0xDF && (c1 & 0xC0) == 0x80) {
                    p[0] = (uint8_t)c0; p[1] = (uint8_t)c1;
                    p += 2; i += 2;
                } else break;
            }
            if (i >= n || s[i] < 0x80) break;
            uint32_t skip, k = tc_utf8_seq(s + i, n - i, &skip);
            if (k) {
                __builtin_memcpy(p, s + i, k);
                p += k; i += k;
            } else {
                p[0] = 0xEF; p[1] = 0xBF; p[2] = 0xBD;
                p += 3; i += skip;
            }
        }
        }
    }
    *p++ = '"';
    return p;
}
WP_INLINE void tc_json_str(tc_out *o, const uint8_t *s, uint32_t n) { o->len = (uint32_t)(tc_json_str_p(o->p + o->len, s, n) - o->p); }


enum { V_SCALAR, V_OPEN, V_UNDEF, V_ERR };

/* Writes an indefinite CBOR text string (chunks from j->pos up to the break). */
WP_INLINE int tc_cb_chunks_json(tc_job *j, uint32_t start) {
    /* total size first, for the room check */
    uint32_t p = j->pos, total = 0;
    for (;;) {
        if (p >= j->len) return tc_fail(j, WP_ERR_TRUNCATED, start);
        uint32_t b = j->in[p];
        if (b == 0xff) break;
        if ((b >> 5) != 3 || (b & 31) == 31) return tc_fail(j, WP_ERR_BAD_CHUNK, p);
        j->pos = p + 1;
        uint64_t n; bool indef;
        if (!tc_cb_arg(j, b & 31, p, &n, &indef)) return 0;
        if (n > j->len - j->pos) return tc_fail(j, WP_ERR_TRUNCATED, p);
        p = j->pos + (uint32_t)n;
        total += (uint32_t)n;
    }
    /* (the opening quote, 6 bytes a byte at most, and the two quotes tc_json_str writes around
     * the chunk being written before they are dropped) */
    if (!tc_room64(&j->o, 6 * (uint64_t)total + 3)) return 0;
    tc_put(&j->o, '"');
    p = j->pos = start + 1;
    for (;;) {
        uint32_t b = j->in[p];
        if (b == 0xff) break;
        j->pos = p + 1;
        uint64_t n = 0; bool indef = false; /* (set: the chunks were checked before; gcc cannot see it) */
        tc_cb_arg(j, b & 31, p, &n, &indef);
        /* each chunk on its own (RFC 8949: chunks are whole UTF-8 sequences) */
        uint32_t before = j->o.len;
        tc_json_str(&j->o, j->in + j->pos, (uint32_t)n);
        /* drop the quotes tc_json_str added */
        __builtin_memmove(j->o.p + before, j->o.p + before + 1, j->o.len - before - 2);
        j->o.len -= 2;
        p = j->pos + (uint32_t)n;
    }
    tc_put(&j->o, '"');
    j->pos = p + 1;
    return 1;
}

/* The property name JavaScript gives a key that is not a string: String() of what decode()
 * returns (64-bit integers are BigInts: their digits). 0 for kinds that are no JSON key.
 * buf: 32 bytes. */
__attribute__((noinline)) uint32_t tc_scalar_name(const tc_val *v, char *buf) {
    switch (v->kind) {
    case K_NIL: __builtin_memcpy(buf, "null", 4); return 4;
    case K_FALSE: __builtin_memcpy(buf, "false", 5); return 5;
    case K_TRUE: __builtin_memcpy(buf, "true", 4); return 4;
    case K_UNDEF: __builtin_memcpy(buf, "undefined", 9); return 9;
    case K_UINT: return tc_u64_dec(v->u, buf);
    case K_NEG: buf[0] = '-'; return 1 + tc_u64_dec(v->u, buf + 1);
    case K_INT64:
        if (v->d == 1) return tc_i64_dec((int64_t)v->u, buf);
        if (v->d == 2) {
            /* CBOR -1 - u, u up to 2^64 - 1 */
            buf[0] = '-';
            if (v->u == 0xFFFFFFFFFFFFFFFFull) { __builtin_memcpy(buf + 1, "18446744073709551616", 20); return 21; }
            return 1 + tc_u64_dec(v->u + 1, buf + 1);
        }
        return tc_u64_dec(v->u, buf);
    case K_F64:
        if (v->d != v->d) { __builtin_memcpy(buf, "NaN", 3); return 3; }
        if (__builtin_isinf(v->d)) {
            if (v->d < 0) { __builtin_memcpy(buf, "-Infinity", 9); return 9; }
            __builtin_memcpy(buf, "Infinity", 8);
            return 8;
        }
        return wp_json_f64(v->d, buf);
    default: return 0;
    }
}

/* Writes a scalar value (not a container, string or key). */
WP_INLINE int tc_write_scalar(tc_job *j, tc_val *v) {
    tc_out *o = &j->o;
    if (!tc_room(o, 32)) return 0;
    switch (v->kind) {
    case K_NIL: tc_puts(o, "null", 4); break;
    case K_FALSE: tc_puts(o, "false", 5); break;
    case K_TRUE: tc_puts(o, "true", 4); break;
    case K_UINT: o->len += tc_u64_dec(v->u, (char *)o->p + o->len); break;
    case K_NEG: tc_put(o, '-'); o->len += tc_u64_dec(v->u, (char *)o->p + o->len); break;
    case K_INT64:
        if (v->d == 1) o->len += tc_i64_dec((int64_t)v->u, (char *)o->p + o->len);
        else if (v->d == 2) {
            /* CBOR -1 - u, u up to 2^64 - 1 */
            tc_put(o, '-');
            if (v->u == 0xFFFFFFFFFFFFFFFFull) tc_puts(o, "18446744073709551616", 20);
            else o->len += tc_u64_dec(v->u + 1, (char *)o->p + o->len);
        } else o->len += tc_u64_dec(v->u, (char *)o->p + o->len);
        break;
    case K_F64:
        o->len += wp_json_f64(v->d, (char *)o->p + o->len);
        break;
    default: /* (undefined: left out or null by the caller; the rest has no JSON form) */
        return tc_fail(j, WP_ERR_NON_JSON, v->start);
    }
    return 1;
}

/* The size of the value at j->pos when it is undefined, else 0 (peek, for members to leave out).
 * MessagePack: extension type 0 of any size, whole in the input (decode() reads it as undefined). */
WP_INLINE uint32_t tc_peek_undef(tc_job *j, int cbor) {
    uint32_t p = j->pos;
    if (p >= j->len) return 0;
    uint32_t b = j->in[p], avail = j->len - p;
    if (cbor) return b == 0xf7;
    if (b >= 0xd4 && b <= 0xd8) {
        uint32_t size = 2 + (1u << (b - 0xd4));
        return size <= avail && j->in[p + 1] == 0 ? size : 0;
    }
    if (b < 0xc7 || b > 0xc9) return 0;
    uint32_t h = b == 0xc7 ? 1 : b == 0xc8 ? 2 : 4;
    if (avail < 2 + h || j->in[p + 1 + h] != 0) return 0;
    uint32_t n = h == 1 ? j->in[p + 1] : h == 2 ? wp_be16(j->in + p + 1) : wp_be32(j->in + p + 1);
    return avail - 2 - h >= n ? 2 + h + n : 0;
}

/* ------------------------------------------------------------------ key order checks */

/* The bytes and length of the string key whose head is at off (re-read for comparisons; the
 * head was read successfully before, so only its form is decoded here). */
WP_INLINE bool tc_key_at(const uint8_t *in, uint32_t off, int cbor, const uint8_t **s, uint32_t *n) {
    const uint8_t *p = in + off;
    uint32_t b = p[0];
    if (cbor) {
        uint32_t ai = b & 31;
        if ((b >> 5) != 3) return false;
        if (ai < 24) { *n = ai; *s = p + 1; }
        else if (ai == 24) { *n = p[1]; *s = p + 2; }
        else if (ai == 25) { *n = wp_be16(p + 1); *s = p + 3; }
        else if (ai == 26) { *n = wp_be32(p + 1); *s = p + 5; }
        else if (ai == 27) { *n = (uint32_t)wp_be64(p + 1); *s = p + 9; }
        else return false;
        return true;
    }
    if (b >= 0xa0 && b <= 0xbf) { *n = b & 31; *s = p + 1; }
    else if (b == 0xd9) { *n = p[1]; *s = p + 2; }
    else if (b == 0xda) { *n = wp_be16(p + 1); *s = p + 3; }
    else if (b == 0xdb) { *n = wp_be32(p + 1); *s = p + 5; }
    else return false;
    return true;
}

/* The property name of the key that is no string whose head is at off (read again for a
 * comparison, when hashes are equal), written to buf (32 bytes); 0 if it has none. */
__attribute__((noinline)) /* (a cold path: kept out of the converter's loop) */
static uint32_t tc_key_other_name(const tc_job *j, uint32_t off, int cbor, char *buf) {
    tc_job t = *j;
    t.pos = off;
    t.err = WP_OK;
    tc_val v;
    if (!(cbor ? tc_cb_read(&t, &v) : tc_mp_read(&t, &v))) return 0;
    return tc_scalar_name(&v, buf);
}

/* Is the key whose head is at off named ks[0..n)? (its bytes, or its property name) */
WP_INLINE bool tc_key_named(const tc_job *j, uint32_t off, int cbor, const uint8_t *ks, uint32_t n) {
    const uint8_t *s2;
    uint32_t n2;
    if (tc_key_at(j->in, off, cbor, &s2, &n2)) return n2 == n && tc_memeq(s2, ks, n);
    char nb[32];
    n2 = tc_key_other_name(j, off, cbor, nb);
    return n2 && n2 == n && tc_memeq((const uint8_t *)nb, ks, n);
}

/* A key hash from the length and every byte (equal hashes are confirmed by comparing the
 * bytes). Long keys' middles count too: hashed from their ends alone, keys that differed only
 * there all hashed alike, and a map of them made the duplicate check quadratic (20,000 such keys,
 * 560 KB: 47 s to JSON). Every byte is read, so *high gets the high bits of all of them (nonzero:
 * the key is not ASCII) at no further cost. */
WP_INLINE uint32_t tc_key_hash(const uint8_t *s, uint32_t n, uint64_t *high) {
    uint64_t a, b, any;
    if (n >= 8) {
        a = wp_load_u64(s);
        b = wp_load_u64(s + n - 8);
        any = a | b;
        for (uint32_t i = 8; i + 8 < n; i += 8) {
            uint64_t w = wp_load_u64(s + i);
            any |= w;
            a = (a ^ w) * 0xff51afd7ed558ccdull;
            a ^= a >> 29;
        }
    }
    else if (n >= 4) {
        uint32_t x, y;
        __builtin_memcpy(&x, s, 4);
        __builtin_memcpy(&y, s + n - 4, 4);
        a = x; b = y;
        any = a | b;
    } else { a = n ? (uint64_t)s[0] | ((uint64_t)s[n / 2] << 8) | ((uint64_t)s[n - 1] << 16) : 0; b = 0; any = a; }
    *high = any & 0x8080808080808080ull;
    uint64_t h = ((a * 0x9E3779B97F4A7C15ull) ^ b ^ n) * 0xC2B2AE3D27D4EB4Full;
    return (uint32_t)(h >> 32);
}

/* An array index as a property name: "0" or [1-9][0-9]* up to 2^32 - 2; *idx its value + 1. */
WP_INLINE bool tc_index_key(const uint8_t *s, uint32_t n, uint32_t *idx1) {
    if (n == 0 || n > 10 || s[0] < '0' || s[0] > '9' || (s[0] == '0' && n > 1)) return false;
    uint64_t v = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        v = v * 10 + (s[i] - '0');
    }
    if (v > 4294967294ull) return false;
    *idx1 = (uint32_t)v + 1;
    return true;
}

/* Keys probed at most per insert into a hashed table, and keys of the same hash compared at most
 * per insert into a linear one: beyond, the map reports KEY_ORDER (the host decodes it instead).
 * At a load of 1/2 or less, random keys probe 41 slots at most in a map of 10^6 of them; keys
 * chosen to share a slot (the hash is fixed) no longer make each insert compare with all of the
 * others. */
#define TC_KEY_PROBES 64u
#define TC_KEY_SAME_HASH 16u

#ifdef WP_TEST_COUNTERS
uint32_t wp_test_tc_key_compares; /* most keys one insert compared bytes with */
uint32_t wp_test_tc_key_hash(const uint8_t *s, uint32_t n) { uint64_t high; return tc_key_hash(s, n, &high); }
#define TC_TEST_COMPARED(k) (wp_test_tc_key_compares = (k) > wp_test_tc_key_compares ? (k) : wp_test_tc_key_compares)
#else
#define TC_TEST_COMPARED(k) ((void)0)
#endif

/* Open a map's key table (n entries; 0xFFFFFFFF: indefinite): linear up to 16 keys, hashed
 * above (2n slots or more). No room: the table stays off and the first string key reports
 * KEY_ORDER (the host falls back to decoding). */
WP_INLINE void tc_keys_open(tc_job *j, tc_frame *f, uint32_t n) {
    uint32_t avail = 2 * j->fix_cap - j->nfix;
    uint32_t want;
    f->last = 0;
    f->kcap = 0;
    f->kbase = j->nfix;
    f->seen_lo = f->seen_hi = 0;
    if (n != 0xFFFFFFFFu && n <= 16) want = n;
    else if (n != 0xFFFFFFFFu) {
        if (2ull * n > avail) { f->kcap = 0xFFFFFFFFu; return; }
        want = 32;
        while (want < 2ull * n) want *= 2;
        f->kind |= TC_HASHED;
    } else want = avail / 2 < 256 ? avail / 2 : 256;
    uint32_t words = (f->kind & TC_HASHED) ? want : 2 * want; /* linear: offset and hash per key */
    if (words > avail) { f->kcap = 0xFFFFFFFFu; return; } /* marks "no table" */
    f->kcap = want;
    if (f->kind & TC_HASHED) __builtin_memset(j->fix + f->kbase, 0xFF, want * 4u);
    j->nfix += words;
}

/* Records a key by its name ks[0..n) in the map's table: 1, or 0 when the name is there already
 * or the table is full or off (KEY_ORDER). */
WP_INLINE int tc_key_insert(tc_job *j, tc_frame *f, const uint8_t *ks, uint32_t n, uint32_t off, uint32_t nkeys, int cbor) {
    if (f->kcap == 0xFFFFFFFFu) return 0;
    uint32_t *t = j->fix + f->kbase;
    uint64_t high;
    uint32_t hash = tc_key_hash(ks, n, &high);
    /* ill-formed UTF-8 decodes to U+FFFD: keys unequal in bytes can name one property, which
     * JSON.stringify writes once (the host decodes such a map); only keys that are not ASCII
     * are checked */
    if (high && tc_utf8_check(ks, n) != n) return 0;
    if (!(f->kind & TC_HASHED)) {
        if (nkeys >= f->kcap) return 0; /* indefinite map past its linear table */
        /* a 64-bit filter of the hashes seen: most keys skip the comparisons */
        uint32_t bit = hash & 63;
        uint32_t *word = bit < 32 ? &f->seen_lo : &f->seen_hi;
        bool maybe = (*word >> (bit & 31)) & 1;
        *word |= 1u << (bit & 31);
        for (uint32_t i = 0, same = 0; maybe && i < nkeys; i++) {
            if (t[2 * i] == 0xFFFFFFFFu || t[2 * i + 1] != hash) continue;
            if (++same > TC_KEY_SAME_HASH) return 0;
            TC_TEST_COMPARED(same);
            if (tc_key_named(j, t[2 * i], cbor, ks, n)) return 0;
        }
        t[2 * nkeys] = off;
        t[2 * nkeys + 1] = hash;
        return 1;
    }
    uint32_t mask = f->kcap - 1, h = hash & mask;
    for (uint32_t probes = 0; t[h] != 0xFFFFFFFFu; h = (h + 1) & mask) {
        if (++probes > TC_KEY_PROBES) return 0;
        TC_TEST_COMPARED(probes);
        if (tc_key_named(j, t[h], cbor, ks, n)) return 0;
    }
    t[h] = off;
    return 1;
}

/* A key that is no string and no index: by its property name (-20 and "-20" are one property,
 * which JSON.stringify writes once). Chunked text: KEY_ORDER (the host decodes). */
__attribute__((noinline)) /* (rare: kept out of the converter's loop) */
static int tc_key_other(tc_job *j, tc_frame *f, const tc_val *v, uint32_t off, uint32_t nkeys, int cbor) {
    if (v->kind == K_STR_CHUNKS) return 0;
    if (v->kind > K_F64) return 1; /* no JSON key: NON_JSON follows */
    char nb[32];
    uint32_t n = tc_scalar_name(v, nb);
    return tc_key_insert(j, f, (const uint8_t *)nb, n, off, nkeys, cbor);
}

/* Checks the key just read (v, head at off): 1 fine, 0 KEY_ORDER (or no room to check). */
WP_INLINE int tc_key_check(tc_job *j, tc_frame *f, const tc_val *v, uint32_t off, uint32_t nkeys, int cbor) {
    uint32_t idx1 = 0;
    /* linear tables: one slot per key, empty unless the key is stored below */
    if (!(f->kind & TC_HASHED) && f->kcap != 0xFFFFFFFFu && nkeys < f->kcap) j->fix[f->kbase + 2 * nkeys] = 0xFFFFFFFFu;
    bool is_idx = false;
    if (v->kind == K_STR) is_idx = tc_index_key(v->s, (uint32_t)v->u, &idx1);
    else if ((v->kind == K_UINT || (v->kind == K_INT64 && v->d != 2)) && v->u <= 4294967294ull) {
        /* (64-bit forms too: uint64 5 and int64 5 decode to 5n, whose name "5" is an index) */
        is_idx = true;
        idx1 = (uint32_t)v->u + 1;
    }
    else if (v->kind == K_F64 && v->d >= 0 && v->d <= 4294967294.0 && v->d == (double)(uint32_t)v->d) {
        is_idx = true;
        idx1 = (uint32_t)v->d + 1;
    }
    if (is_idx) {
        /* integer-like keys must come first, ascending (which also rules out duplicates) */
        if ((f->kind & TC_NONIDX) || idx1 <= f->last) return 0;
        f->last = idx1;
        return 1;
    }
    f->kind |= TC_NONIDX;
    if (v->kind != K_STR) return tc_key_other(j, f, v, off, nkeys, cbor);
    return tc_key_insert(j, f, v->s, (uint32_t)v->u, off, nkeys, cbor);
}

WP_INLINE int tc_bin_to_json_impl(tc_job *j, int cbor) {
    uint32_t depth = 0;
    tc_val v = { 0 }; /* (each kind sets the fields it uses; gcc cannot see it) */
    tc_out *o = &j->o;
    bool check_keys = !(j->flags & WP_TC_WIRE_ORDER);
    j->nfix = 0;
    for (;;) {
        bool is_key = false;
        o->keep = o->len; /* what is written so far is final (the undo below stays within one step) */
        if (depth) {
            tc_frame *f = &j->st[depth - 1];
            bool closing;
            if (f->kind & TC_INDEF) {
                closing = j->pos < j->len && j->in[j->pos] == 0xff;
                if (closing) {
                    if ((f->kind & TC_MAP) && (f->done & 1)) return tc_fail(j, WP_ERR_BREAK, j->pos);
                    j->pos++;
                }
            } else closing = f->rem == 0;
            if (closing) {
                bool any = f->done != 0;
                if (any && j->indent && !tc_indent(j, depth - 1)) return 0;
                if (!tc_room(o, 1)) return 0;
                tc_put(o, (f->kind & TC_MAP) ? '}' : ']');
                j->nfix = f->ktop; /* free the key table */
                depth--;
                if (!depth) return 1;
                continue;
            }
            f->rem--;
            if (f->kind & TC_MAP) {
                if ((f->done & 1) == 0) {
                    is_key = true;
                } else {
                    f->done++;
                    goto value;
                }
            }
            /* key or array element: separator */
            if (f->done) { if (!tc_room(o, 1)) return 0; tc_put(o, ','); }
            if (j->indent && !tc_indent(j, depth)) return 0;
            f->done++;
            if (is_key) {
                uint32_t kstart = j->pos;
                if (!(cbor ? tc_cb_read(j, &v) : tc_mp_read(j, &v))) return 0;
                if (v.kind == K_BREAK) return tc_fail(j, WP_ERR_BREAK, kstart);
                if (check_keys && !tc_key_check(j, f, &v, kstart, (f->done - 1) / 2 + f->skipped, cbor)) {
                    /* the map starts before its first key: report the key's offset */
                    return tc_fail(j, WP_ERR_KEY_ORDER, kstart);
                }
                /* keys JSON has (strings, and numbers, booleans, null and undefined as their
                 * property names), checked before the value is looked at: a container's items,
                 * a tag's item and a chunked byte string's chunks follow their head, where the
                 * undefined check below would take one of them for the member's value */
                _Static_assert(K_NIL == 0 && K_STR_CHUNKS == 9 && K_ARR == 10 && K_MAP_INDEF == 13, "the kinds a JSON key can have come first");
                if (v.kind > K_STR_CHUNKS) return tc_fail(j, WP_ERR_NON_JSON, kstart);
                /* members whose value is undefined are left out, as JSON.stringify does (a
                 * string's chunks are written first, to find the value, and undone with it) */
                const uint64_t key_at = o->flushed + o->len; /* (flushing moves bytes, not this) */
                uint32_t skip; /* the undefined value's size, or 0 */
                if (v.kind == K_STR_CHUNKS) {
                    if (!tc_cb_chunks_json(j, v.start)) return 0;
                    skip = tc_peek_undef(j, cbor);
                } else if ((skip = tc_peek_undef(j, cbor)) == 0) {
                    if (v.kind == K_STR) {
                        if (!tc_room64(o, 6 * (uint64_t)(uint32_t)v.u + 2 + 2)) return 0;
                        tc_json_str(o, v.s, (uint32_t)v.u);
                    } else {
                        /* a number, boolean, null or undefined key: its property name, quoted */
                        if (!tc_room(o, 34)) return 0;
                        tc_put(o, '"');
                        o->len += tc_scalar_name(&v, (char *)o->p + o->len); /* (K_NIL..K_F64: named) */
                        tc_put(o, '"');
                    }
                }
                if (skip) {
                    f->done -= 1;
                    /* undo the key, and the separator and indentation written before it */
                    uint32_t undo = (uint32_t)(o->flushed + o->len - key_at) + (f->done ? 1 : 0) + (j->indent ? 1 + depth * j->indent : 0);
                    o->len -= undo;
                    j->pos += skip;
                    f->rem--;
                    f->skipped++;
                    continue;
                }
                if (!tc_room(o, 2)) return 0;
                tc_put(o, ':');
                if (j->indent) tc_put(o, ' ');
                continue;
            }
        }
    value:
        if (!(cbor ? tc_cb_read(j, &v) : tc_mp_read(j, &v))) return 0;
        switch (v.kind) {
        case K_STR:
            if (!tc_room64(o, 6 * (uint64_t)(uint32_t)v.u + 2)) return 0;
            tc_json_str(o, v.s, (uint32_t)v.u);
            break;
        case K_STR_CHUNKS:
            if (!tc_cb_chunks_json(j, v.start)) return 0;
            break;
        case K_ARR: case K_MAP: case K_ARR_INDEF: case K_MAP_INDEF: {
            bool map = v.kind == K_MAP || v.kind == K_MAP_INDEF;
            bool indef = v.kind == K_ARR_INDEF || v.kind == K_MAP_INDEF;
            if (!tc_room(o, 2)) return 0;
            tc_put(o, map ? '{' : '[');
            if (!indef && v.u == 0) { tc_put(o, map ? '}' : ']'); break; }
            if (depth >= j->max_depth || depth >= j->st_cap) return tc_fail(j, WP_ERR_DEPTH, v.start);
            tc_frame *f = &j->st[depth++];
            f->kind = (map ? TC_MAP : TC_ARR) | (indef ? TC_INDEF : 0);
            f->rem = tc_items(map, v.u);
            f->done = 0;
            f->skipped = 0;
            f->ktop = j->nfix;
            if (map && check_keys) tc_keys_open(j, f, indef ? 0xFFFFFFFFu : (uint32_t)v.u);
            continue;
        }
        case K_BREAK:
            return tc_fail(j, WP_ERR_BREAK, v.start);
        case K_UNDEF:
            if (depth) {
                /* in arrays (members were left out above) */
                if (!tc_room(o, 4)) return 0;
                tc_puts(o, "null", 4);
                break;
            }
            return tc_fail(j, WP_ERR_NON_JSON, v.start);
        default:
            if (!tc_write_scalar(j, &v)) return 0;
        }
        if (!depth) return 1;
    }
}

/* As in tc_json_in.c: a local copy of the job keeps its fields in registers (output byte stores
 * could alias them through the job pointer). One specialised copy per input format, each a
 * function of its own (TC_OWN_FUNCTION). */
static TC_OWN_FUNCTION int tc_mp_to_json(tc_job *j) {
    tc_job l = *j;
    int r = tc_bin_to_json_impl(&l, 0);
    *j = l;
    return r;
}
static TC_OWN_FUNCTION int tc_cbor_to_json(tc_job *j) {
    tc_job l = *j;
    int r = tc_bin_to_json_impl(&l, 1);
    *j = l;
    return r;
}
int tc_bin_to_json(tc_job *j, int cbor) { return cbor ? tc_cbor_to_json(j) : tc_mp_to_json(j); }
