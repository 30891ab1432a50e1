/*
 * test_vcache.c: the value cache (WP_DEC_VCACHE, wp_tables.vc_*): which string values become
 * VSTR entries and when, what the slot then holds, stamps, the doorkeeper, the window that turns
 * the cache off for distinct values, the stamp limit, and both decoders.
 */
#include "test_util.h"

#define VC (WP_DEC_MAPS_AS_OBJECTS | WP_DEC_VCACHE)

static wp_tables T;

/* MessagePack of the array [s] (s of n < 256 bytes). */
static uint32_t mp_arr1(uint8_t *out, const char *s, uint32_t n) {
    uint32_t k = 0;
    out[k++] = 0x91;
    if (n < 32) out[k++] = (uint8_t)(0xa0 | n);
    else { out[k++] = 0xd9; out[k++] = (uint8_t)n; }
    memcpy(out + k, s, n);
    return k + n;
}

/* Decode [s] with flags; the string's entry is the tape's second word (after the ARR header). */
static uint32_t str_entry(const char *s, uint32_t n, uint32_t flags, uint32_t *stamp, wp_err *rc) {
    uint8_t in[300];
    tu_dec x;
    *rc = tu_decode(&x, &T, in, mp_arr1(in, s, n), flags);
    uint32_t w = x.d.tape[1];
    *stamp = x.d.tape_len > 2 ? x.d.tape[2] : 0;
    tu_dec_free(&x);
    return w;
}

static void fill(char *s, uint32_t n, uint32_t seed) {
    for (uint32_t i = 0; i < n; i++) s[i] = (char)('a' + (seed * 7u + i * 13u + (seed >> 3)) % 26u);
}

int main(void) {
    char s[64];
    uint32_t st, st2;
    wp_err rc;

    tu_case("only ASCII values of WP_VC_MIN..WP_VC_MAX bytes, and the second time they come");
    for (uint32_t n = 0; n <= 40; n++) {
        wp_tables_reset(&T);
        fill(s, n, n);
        uint32_t w1 = str_entry(s, n, VC, &st, &rc);
        CHECK(rc == WP_OK);
        CHECK(tu_tag(w1) == WP_T_STRA, "n=%u: the first time as usual (tag %u)", n, tu_tag(w1));
        uint32_t w2 = str_entry(s, n, VC, &st, &rc);
        uint32_t w3 = str_entry(s, n, VC, &st2, &rc);
        if (n >= WP_VC_MIN && n <= WP_VC_MAX) {
            CHECK(tu_tag(w2) == WP_T_VSTR && tu_tag(w3) == WP_T_VSTR, "n=%u", n);
            uint32_t slot = tu_pay(w2) & 1023u;
            CHECK((tu_pay(w2) >> 10) == n);
            CHECK(w3 == w2 && st2 == st && st == 1u);
            CHECK(T.vc_len[slot] == n && memcmp(T.vc_bytes + slot * WP_VC_MAX, s, n) == 0);
        } else {
            CHECK(tu_tag(w2) == WP_T_STRA && tu_tag(w3) == WP_T_STRA, "n=%u", n);
        }
        CHECK(tu_tag(str_entry(s, n, WP_DEC_MAPS_AS_OBJECTS, &st, &rc)) == WP_T_STRA); /* off */
    }
    wp_tables_reset(&T);
    memcpy(s, "caf\xc3\xa9 au lait", 12);
    for (int i = 0; i < 3; i++) CHECK(tu_tag(str_entry(s, 12, VC, &st, &rc)) == WP_T_STRU);
    tu_end();

    tu_case("a string one byte apart anywhere is another string: new bytes, new stamp");
    for (uint32_t n = WP_VC_MIN; n <= WP_VC_MAX; n++) {
        for (uint32_t at = 0; at < n; at++) {
            wp_tables_reset(&T);
            fill(s, n, 5);
            str_entry(s, n, VC, &st, &rc);
            uint32_t w = str_entry(s, n, VC, &st, &rc);
            CHECK(tu_tag(w) == WP_T_VSTR);
            s[at] ^= 1;
            str_entry(s, n, VC, &st2, &rc); /* (its first time) */
            uint32_t w2 = str_entry(s, n, VC, &st2, &rc);
            if (tu_tag(w2) == WP_T_VSTR) {
                uint32_t slot = tu_pay(w2) & 1023u;
                CHECK(st2 != st, "n=%u at=%u", n, at);
                CHECK(memcmp(T.vc_bytes + slot * WP_VC_MAX, s, n) == 0);
            } else {
                CHECK(0, "n=%u at=%u: tag %u", n, at, tu_tag(w2));
            }
        }
    }
    tu_end();

    tu_case("stamps only grow; none are written at WP_VC_STAMP_MAX, and what is there still hits");
    wp_tables_reset(&T);
    fill(s, 10, 1);
    str_entry(s, 10, VC, &st, &rc);
    uint32_t w = str_entry(s, 10, VC, &st, &rc);
    CHECK(tu_tag(w) == WP_T_VSTR);
    T.vc_next = WP_VC_STAMP_MAX;
    fill(s, 11, 2);
    str_entry(s, 11, VC, &st2, &rc);
    CHECK(tu_tag(str_entry(s, 11, VC, &st2, &rc)) == WP_T_STRA);
    fill(s, 10, 1);
    CHECK(str_entry(s, 10, VC, &st2, &rc) == w && st2 == st);
    wp_tables_reset(&T);
    CHECK(T.vc_next == 0 && T.vc_skip == 0);
    tu_end();

    tu_case("a window of distinct values turns the cache off for WP_VC_SKIP strings, then it looks again");
    wp_tables_reset(&T);
    for (uint32_t i = 0; i < WP_VC_WINDOW; i++) {
        fill(s, 12, i);
        snprintf(s, 12, "v%08u", i);
        str_entry(s, 12, VC, &st, &rc);
    }
    CHECK(T.vc_skip == WP_VC_SKIP);
    fill(s, 9, 3);
    for (int i = 0; i < 3; i++) CHECK(tu_tag(str_entry(s, 9, VC, &st, &rc)) == WP_T_STRA);
    CHECK(T.vc_skip == WP_VC_SKIP - 3u);
    T.vc_skip = 0;
    CHECK(tu_tag(str_entry(s, 9, VC, &st, &rc)) == WP_T_STRA); /* (the doorkeeper's first sighting) */
    CHECK(tu_tag(str_entry(s, 9, VC, &st, &rc)) == WP_T_VSTR);
    /* a window of repeated values keeps it on */
    wp_tables_reset(&T);
    for (uint32_t i = 0; i < 2 * WP_VC_WINDOW; i++) str_entry(s, 9, VC, &st, &rc);
    CHECK(T.vc_skip == 0);
    tu_end();

    tu_case("a slot named by an entry of a call keeps its bytes until that call ends");
    {
        /* two strings of one slot (found by decoding each twice in tables of their own) */
        char a[16], b[16];
        uint32_t want = UINT32_MAX, found = 0;
        for (uint32_t i = 0; i < 100000 && !found; i++) {
            char t[16];
            snprintf(t, sizeof t, "str-%07u", i);
            wp_tables save = T; /* (T is not touched: str_entry decodes into T) */
            wp_tables_reset(&T);
            str_entry(t, 11, VC, &st, &rc);
            uint32_t e = str_entry(t, 11, VC, &st, &rc);
            T = save;
            uint32_t slot = tu_pay(e) & 1023u;
            if (want == UINT32_MAX) { want = slot; memcpy(a, t, 12); }
            else if (slot == want) { memcpy(b, t, 12); found = 1; }
        }
        CHECK(found);
        wp_tables_reset(&T);
        str_entry(a, 11, VC, &st, &rc);
        CHECK(tu_tag(str_entry(a, 11, VC, &st, &rc)) == WP_T_VSTR); /* a in the slot */
        CHECK(tu_tag(str_entry(b, 11, VC, &st2, &rc)) == WP_T_STRA); /* b seen once */
        /* [a, b]: a's entry names the slot, so b (seen before: it would be written now) is not */
        uint8_t in[64];
        uint32_t k = 0;
        in[k++] = 0x92;
        in[k++] = 0xab; memcpy(in + k, a, 11); k += 11;
        in[k++] = 0xab; memcpy(in + k, b, 11); k += 11;
        tu_dec x;
        CHECK(tu_decode(&x, &T, in, k, VC) == WP_OK);
        CHECK(tu_tag(x.d.tape[1]) == WP_T_VSTR && x.d.tape[2] == st);
        CHECK(tu_tag(x.d.tape[3]) == WP_T_STRA);
        CHECK(memcmp(T.vc_bytes + want * WP_VC_MAX, a, 11) == 0);
        tu_dec_free(&x);
        /* the next call may */
        CHECK(tu_tag(str_entry(b, 11, VC, &st2, &rc)) == WP_T_VSTR && st2 != st);
        CHECK(memcmp(T.vc_bytes + want * WP_VC_MAX, b, 11) == 0);
    }
    tu_end();

    tu_case("CBOR: text values (not keys) the same way");
    wp_tables_reset(&T);
    {
        /* {"k": "abcdef"} and ["abcdef"] */
        static const uint8_t m[] = { 0xa1, 0x61, 'k', 0x66, 'a', 'b', 'c', 'd', 'e', 'f' };
        static const uint8_t a[] = { 0x81, 0x66, 'a', 'b', 'c', 'd', 'e', 'f' };
        tu_dec x;
        CHECK(tu_cbor_decode(&x, &T, a, sizeof a, VC) == WP_OK);
        CHECK(tu_tag(x.d.tape[1]) == WP_T_STRA);
        tu_dec_free(&x);
        CHECK(tu_cbor_decode(&x, &T, a, sizeof a, VC) == WP_OK);
        CHECK(tu_tag(x.d.tape[1]) == WP_T_VSTR && x.d.tape[2] == 1u);
        tu_dec_free(&x);
        CHECK(tu_cbor_decode(&x, &T, m, sizeof m, VC) == WP_OK);
        int vstr = 0, key = 0;
        for (uint32_t i = 0; i < x.d.tape_len; i++) {
            vstr += tu_tag(x.d.tape[i]) == WP_T_VSTR;
            key += tu_tag(x.d.tape[i]) == WP_T_KEY;
        }
        CHECK(vstr == 1 && key == 1);
        tu_dec_free(&x);
    }
    tu_end();

    return tu_finish();
}
