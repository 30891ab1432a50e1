/*
 * tc_bigcmp.c: the correct fallback of decimal -> double for the rare inputs Eisel-Lemire does
 * not decide (more than 19 significant digits, or an ambiguous product): exact big-integer
 * comparison of the decimal with the halfway point between two neighbouring doubles.
 *
 * The decimal keeps its first 780 significant digits plus a sticky non-zero digit for any
 * non-zero digit dropped: 767 significant digits decide the rounding of any double, so the
 * sticky digit only breaks exact ties the right way.
 */
#include "tc_internal.h"

#define TC_BIG_LIMBS 320u /* 10240 bits */
typedef struct tc_big {
    uint32_t n;
    uint32_t w[TC_BIG_LIMBS];
} tc_big;

static void tc_big_mul_small(tc_big *b, uint32_t m) {
    uint64_t carry = 0;
    for (uint32_t i = 0; i < b->n; i++) {
        uint64_t t = (uint64_t)b->w[i] * m + carry;
        b->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry && b->n < TC_BIG_LIMBS) b->w[b->n++] = (uint32_t)carry;
}

static void tc_big_add_small(tc_big *b, uint32_t a) {
    uint64_t carry = a;
    for (uint32_t i = 0; i < b->n && carry; i++) {
        uint64_t t = (uint64_t)b->w[i] + carry;
        b->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry && b->n < TC_BIG_LIMBS) b->w[b->n++] = (uint32_t)carry;
}

static void tc_big_pow5(tc_big *b, uint32_t e) {
    while (e >= 13) { tc_big_mul_small(b, 1220703125u); e -= 13; }
    static const uint32_t p5[13] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625, 48828125, 244140625};
    if (e) tc_big_mul_small(b, p5[e]);
}

static void tc_big_shl(tc_big *b, uint32_t s) {
    uint32_t limbs = s / 32, bits = s % 32;
    if (b->n == 0) return;
    if (bits) {
        uint32_t carry = 0;
        for (uint32_t i = 0; i < b->n; i++) {
            uint32_t v = b->w[i];
            b->w[i] = (v << bits) | carry;
            carry = v >> (32 - bits);
        }
        if (carry && b->n < TC_BIG_LIMBS) b->w[b->n++] = carry;
    }
    if (limbs) {
        if (b->n + limbs > TC_BIG_LIMBS) limbs = TC_BIG_LIMBS - b->n;
        __builtin_memmove(b->w + limbs, b->w, b->n * 4);
        __builtin_memset(b->w, 0, limbs * 4);
        b->n += limbs;
    }
}

static int tc_big_cmp(const tc_big *a, const tc_big *b) {
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (uint32_t i = a->n; i-- > 0;)
        if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

/* digits d[0..nd) (no leading zeros) times 10^e, compared with (2m + 1) 2^(f - 1) */
static int tc_cmp_half(const char *d, uint32_t nd, int e, uint64_t m, int f, tc_big *a, tc_big *b) {
    a->n = 0;
    uint32_t i = 0;
    while (i < nd) {
        uint32_t chunk = 0, mul = 1;
        for (uint32_t k = 0; k < 9 && i < nd; k++, i++) { chunk = chunk * 10 + (uint32_t)(d[i] - '0'); mul *= 10; }
        if (a->n == 0) { if (chunk) { a->w[0] = chunk; a->n = 1; } }
        else { tc_big_mul_small(a, mul); tc_big_add_small(a, chunk); }
    }
    uint64_t h = 2 * m + 1;
    b->n = 0;
    b->w[b->n++] = (uint32_t)h;
    if (h >> 32) b->w[b->n++] = (uint32_t)(h >> 32);
    int p2a = 0, p2b = f - 1;
    if (e >= 0) { tc_big_pow5(a, (uint32_t)e); p2a += e; }
    else { tc_big_pow5(b, (uint32_t)-e); p2b -= e; }
    if (p2a > p2b) tc_big_shl(a, (uint32_t)(p2a - p2b));
    else tc_big_shl(b, (uint32_t)(p2b - p2a));
    return tc_big_cmp(a, b);
}

double tc_dec_fallback(const char *s, uint32_t n) {
    char dig[800];
    uint32_t nd = 0, i = 0;
    int ex = 0;
    bool neg = false, seen = false, point = false, sticky = false;
    if (s[0] == '-') { neg = true; i++; }
    for (; i < n; i++) {
        char c = s[i];
        if (c == '.') { point = true; continue; }
        if (c == 'e' || c == 'E') break;
        if (!seen && c == '0') { if (point) ex--; continue; }
        seen = true;
        if (nd < 780) { dig[nd++] = c; if (point) ex--; }
        else { if (c != '0') sticky = true; if (!point) ex++; }
    }
    if (sticky) { dig[nd++] = '1'; ex--; }
    if (i < n) {
        i++;
        bool en = false;
        if (s[i] == '+' || s[i] == '-') { en = s[i] == '-'; i++; }
        int e2 = 0;
        for (; i < n; i++) if (e2 < 100000) e2 = e2 * 10 + (s[i] - '0');
        ex += en ? -e2 : e2;
    }
    while (nd > 0 && dig[nd - 1] == '0') { nd--; ex++; }
    double zero = neg ? -0.0 : 0.0;
    if (nd == 0) return zero;
    /* decimal exponent of the leading digit */
    int lead = ex + (int)nd - 1;
    if (lead > 309) return neg ? -__builtin_inf() : __builtin_inf();
    if (lead < -325) return zero;
    /* a first guess from the leading 19 digits (within a few ulps), then exact steps */
    uint64_t w = 0;
    uint32_t k = nd < 19 ? nd : 19;
    for (uint32_t t = 0; t < k; t++) w = w * 10 + (uint64_t)(dig[t] - '0');
    int q = ex + (int)(nd - k);
    uint64_t bits = tc_f64_guess(w, q);
    tc_big a, b;
    for (int iter = 0; iter < 8; iter++) {
        if (bits >= 0x7FF0000000000000ull) break;
        uint64_t m, e2 = bits >> 52;
        int f;
        if (e2 == 0) { m = bits & ((1ull << 52) - 1); f = -1074; }
        else { m = (bits & ((1ull << 52) - 1)) | (1ull << 52); f = (int)e2 - 1075; }
        /* compare with the halfway point above: (2m + 1) 2^(f - 1) */
        int c = tc_cmp_half(dig, nd, ex, m, f, &a, &b);
        if (c > 0 || (c == 0 && (m & 1))) { bits++; continue; }
        /* and with the halfway point below */
        if (bits == 0) break;
        uint64_t pb = bits - 1, pm, pe = pb >> 52;
        int pf;
        if (pe == 0) { pm = pb & ((1ull << 52) - 1); pf = -1074; }
        else { pm = (pb & ((1ull << 52) - 1)) | (1ull << 52); pf = (int)pe - 1075; }
        int c2 = tc_cmp_half(dig, nd, ex, pm, pf, &a, &b);
        if (c2 < 0 || (c2 == 0 && (m & 1))) { bits = pb; continue; }
        break;
    }
    double r = wp_f64_from_bits(bits);
    return neg ? -r : r;
}
