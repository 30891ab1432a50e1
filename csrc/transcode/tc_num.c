/*
 * tc_num.c: numbers between binary doubles and decimal text, exactly as JavaScript does.
 *
 * Output: Schubfach (R. Giulietti, "The Schubfach way to render doubles", 2020; the algorithm of
 * Java's Double.toString since JDK 19) finds the shortest decimal in the rounding interval, the
 * closest one when several are as short, the even one on a tie: the digits ECMAScript's
 * Number::toString asks for. wp_json_f64 then lays them out with JavaScript's thresholds
 * (plain notation for 1e-7 < |x| < 1e21, else d.ddde+X), -0 as 0.
 *
 * Input: the Clinger fast path, then Eisel-Lemire (D. Lemire, "Number Parsing at a Gigabyte
 * per Second", 2021) with a 128-bit table, and an exact big-integer comparison (tc_bigcmp.c)
 * for the rare inputs Eisel-Lemire cannot decide (more than 19 significant digits, or an
 * ambiguous product).
 */
#include "tc_internal.h"
#include "tc_tables.h"

/* ------------------------------------------------------------------ double -> shortest digits */

typedef unsigned __int128 tc_u128;

WP_INLINE uint64_t tc_mulhi(uint64_t a, uint64_t b) { return (uint64_t)(((tc_u128)a * b) >> 64); }
WP_INLINE int tc_flog10pow2(int q) { return (int)(((int64_t)q * 661971961083LL) >> 41); }
WP_INLINE int tc_flog10threeq(int q) { return (int)(((int64_t)q * 661971961083LL - 274743187321LL) >> 41); }
WP_INLINE int tc_flog2pow10(int e) { return (int)(((int64_t)e * 913124641741LL) >> 38); }

/* floor(g * cp / 2^127), rounded to odd (section 9 of the paper) */
WP_INLINE uint64_t tc_rop(uint64_t g1, uint64_t g0, uint64_t cp) {
    uint64_t x1 = tc_mulhi(g0, cp);
    uint64_t y0 = g1 * cp;
    uint64_t y1 = tc_mulhi(g1, cp);
    uint64_t z = (y0 >> 1) + x1;
    uint64_t vbp = y1 + (z >> 63);
    return vbp | (((z & 0x7FFFFFFFFFFFFFFFull) + 0x7FFFFFFFFFFFFFFFull) >> 63);
}

/* v = c 2^q (c > 0): shortest f, e with v's rounding interval holding f 10^e */
static void tc_schubfach(int q, uint64_t c, int dk, uint64_t *f, int *e) {
    uint64_t out = c & 1;
    uint64_t cb = c << 2, cbr = cb + 2, cbl;
    int k;
    if (c != (1ull << 52) || q == -1074) {
        cbl = cb - 2;
        k = tc_flog10pow2(q);
    } else {
        cbl = cb - 1;
        k = tc_flog10threeq(q);
    }
    int h = q + tc_flog2pow10(-k) + 2;
    uint64_t g1 = tc_g[(k - TC_K_MIN) * 2], g0 = tc_g[(k - TC_K_MIN) * 2 + 1];
    uint64_t vb = tc_rop(g1, g0, cb << h);
    uint64_t vbl = tc_rop(g1, g0, cbl << h);
    uint64_t vbr = tc_rop(g1, g0, cbr << h);
    uint64_t s = vb >> 2;
    if (s >= 10) { /* Java: s >= 100 (it wants two digits); JavaScript wants the shortest */
        uint64_t sp10 = 10 * tc_mulhi(s, 115292150460684698ull << 4);
        uint64_t tp10 = sp10 + 10;
        bool upin = vbl + out <= sp10 << 2;
        bool wpin = (tp10 << 2) + out <= vbr;
        if (upin != wpin) { *f = upin ? sp10 : tp10; *e = k; return; }
    }
    uint64_t t = s + 1;
    bool uin = vbl + out <= s << 2;
    bool win = (t << 2) + out <= vbr;
    if (uin != win) { *f = uin ? s : t; *e = k + dk; return; }
    uint64_t cmp = vb - ((s + t) << 1);
    *f = ((int64_t)cmp < 0 || (cmp == 0 && (s & 1) == 0)) ? s : t;
    *e = k + dk;
}

static const char tc_digits2[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Writes the decimal digits of v (v > 0) ending at end; returns the count. */
WP_INLINE uint32_t tc_utoa_back(uint64_t v, char *end) {
    char *p = end;
    while (v >= 100) {
        uint32_t r = (uint32_t)(v % 100);
        v /= 100;
        p -= 2;
        p[0] = tc_digits2[r * 2];
        p[1] = tc_digits2[r * 2 + 1];
    }
    if (v >= 10) {
        p -= 2;
        p[0] = tc_digits2[v * 2];
        p[1] = tc_digits2[v * 2 + 1];
    } else {
        *--p = (char)('0' + v);
    }
    return (uint32_t)(end - p);
}

uint32_t tc_u64_dec(uint64_t v, char *out) {
    char buf[24];
    if (v == 0) { out[0] = '0'; return 1; }
    uint32_t n = tc_utoa_back(v, buf + 24);
    __builtin_memcpy(out, buf + 24 - n, n);
    return n;
}

uint32_t tc_i64_dec(int64_t v, char *out) {
    if (v < 0) { out[0] = '-'; return 1 + tc_u64_dec(0 - (uint64_t)v, out + 1); }
    return tc_u64_dec((uint64_t)v, out);
}

/* The shortest digits of finite non-zero |v|: digits into dig, returns their count; *point is
 * the decimal exponent n of ECMAScript's Number::toString (value = 0.d1d2... * 10^n). */
uint32_t tc_shortest(double v, char *dig, int *point) {
    uint64_t bits = wp_bits_from_f64(v);
    uint64_t t = bits & ((1ull << 52) - 1);
    int bq = (int)((bits >> 52) & 0x7FF);
    uint64_t f;
    int e;
    if (bq != 0) {
        int mq = 1074 + 1 - bq;
        uint64_t c = (1ull << 52) | t;
        if (mq > 0 && mq < 53 && ((c >> mq) << mq) == c) {
            f = c >> mq;
            e = 0;
        } else {
            tc_schubfach(-mq, c, 0, &f, &e);
        }
    } else {
        /* subnormal (Java's Double.toString renders t < 3 with two digits; JavaScript wants
         * the shortest: 5e-324, 1e-323) */
        tc_schubfach(-1074, t, 0, &f, &e);
    }
    /* strip trailing zeros */
    while (f % 10 == 0) { f /= 10; e++; }
    char buf[24];
    uint32_t n = tc_utoa_back(f, buf + 24);
    __builtin_memcpy(dig, buf + 24 - n, n);
    *point = e + (int)n;
    return n;
}

uint32_t wp_json_f64(double v, char *out) {
    uint64_t bits = wp_bits_from_f64(v);
    if (((bits >> 52) & 0x7FF) == 0x7FF) {
        /* NaN and infinities: JSON.stringify writes null */
        __builtin_memcpy(out, "null", 4);
        return 4;
    }
    if ((bits << 1) == 0) { out[0] = '0'; return 1; }
    char *p = out;
    if (bits >> 63) *p++ = '-';
    /* small integers: the common case */
    double a = bits >> 63 ? -v : v;
    if (a < 9007199254740992.0 && a == (double)(uint64_t)a) {
        return (uint32_t)(p - out) + tc_u64_dec((uint64_t)a, p);
    }
    char dig[20];
    int n;
    int k = (int)tc_shortest(v, dig, &n);
    if (k <= n && n <= 21) {
        __builtin_memcpy(p, dig, (size_t)k);
        p += k;
        for (int i = k; i < n; i++) *p++ = '0';
    } else if (0 < n && n <= 21) {
        __builtin_memcpy(p, dig, (size_t)n);
        p += n;
        *p++ = '.';
        __builtin_memcpy(p, dig + n, (size_t)(k - n));
        p += k - n;
    } else if (-6 < n && n <= 0) {
        *p++ = '0';
        *p++ = '.';
        for (int i = 0; i < -n; i++) *p++ = '0';
        __builtin_memcpy(p, dig, (size_t)k);
        p += k;
    } else {
        *p++ = dig[0];
        if (k > 1) {
            *p++ = '.';
            __builtin_memcpy(p, dig + 1, (size_t)(k - 1));
            p += k - 1;
        }
        *p++ = 'e';
        int x = n - 1;
        if (x < 0) { *p++ = '-'; x = -x; } else *p++ = '+';
        p += tc_u64_dec((uint64_t)x, p);
    }
    return (uint32_t)(p - out);
}

/* ------------------------------------------------------------------ decimal -> double */

static const double tc_exact_p10[23] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Eisel-Lemire: w 10^q (w != 0) as the bits of a double; false when undecided. */
static bool tc_eisel_lemire(uint64_t w, int q, uint64_t *out, bool force) {
    if (q < TC_Q5_MIN) { *out = 0; return true; }
    if (q > TC_Q5_MAX) { *out = 0x7FF0000000000000ull; return true; }
    int lz = __builtin_clzll(w);
    w <<= lz;
    uint32_t idx = (uint32_t)(q - TC_Q5_MIN) * 2;
    tc_u128 first = (tc_u128)w * tc_pow5[idx];
    uint64_t hi = (uint64_t)(first >> 64), lo = (uint64_t)first;
    const uint64_t mask = 0xFFFFFFFFFFFFFFFFull >> 55;
    if ((hi & mask) == mask) {
        tc_u128 second = (tc_u128)w * tc_pow5[idx + 1];
        uint64_t shi = (uint64_t)(second >> 64);
        lo += shi;
        if (shi > lo) hi++;
        if (!force && lo == 0xFFFFFFFFFFFFFFFFull && (q < -27 || q > 55)) return false;
    }
    uint64_t upper = hi >> 63;
    int shift = (int)upper + 64 - 52 - 3;
    uint64_t m = hi >> shift;
    int p2 = (int)((((152170 + 65536) * q) >> 16) + 63) + (int)upper - lz + 1023;
    if (p2 <= 0) {
        if (-p2 + 1 >= 64) { *out = 0; return true; }
        m >>= -p2 + 1;
        m += m & 1;
        m >>= 1;
        p2 = m < (1ull << 52) ? 0 : 1;
        *out = (m & ((1ull << 52) - 1)) | ((uint64_t)p2 << 52);
        return true;
    }
    if (lo <= 1 && q >= -4 && q <= 23 && (m & 3) == 1) {
        if ((m << shift) == hi) m &= ~1ull;
    }
    m += m & 1;
    m >>= 1;
    if (m >= (2ull << 52)) { m = 1ull << 52; p2++; }
    m &= ~(1ull << 52);
    if (p2 >= 0x7FF) { *out = 0x7FF0000000000000ull; return true; }
    *out = m | ((uint64_t)p2 << 52);
    return true;
}

double tc_dec_fallback(const char *s, uint32_t n);

/* Bits of a double within a few ulps of w 10^q (w != 0): a start for the exact fallback. */
uint64_t tc_f64_guess(uint64_t w, int q) {
    uint64_t bits;
    if (w == 0) return 0;
    tc_eisel_lemire(w, q, &bits, true);
    return bits;
}

/* The double nearest to the decimal w 10^q; s[0..n) is the whole number text, for the fallback.
 * many: more than 19 significant digits (w holds the first 19). */
double tc_decimal_to_f64(uint64_t w, int q, bool neg, bool many, const char *s, uint32_t n) {
    double d;
    if (!many) {
        if (w == 0) return neg ? -0.0 : 0.0;
        if (w <= (1ull << 53) && q >= -22 && q <= 22) {
            d = (double)w;
            d = q < 0 ? d / tc_exact_p10[-q] : d * tc_exact_p10[q];
            return neg ? -d : d;
        }
        uint64_t bits;
        if (tc_eisel_lemire(w, q, &bits, false)) {
            d = wp_f64_from_bits(bits);
            return neg ? -d : d;
        }
    } else {
        /* w and w + 1 bracket the value: when both round the same way, that is the answer */
        uint64_t b1, b2;
        if (tc_eisel_lemire(w, q, &b1, false) && tc_eisel_lemire(w + 1, q, &b2, false) && b1 == b2) {
            d = wp_f64_from_bits(b1);
            return neg ? -d : d;
        }
    }
    return tc_dec_fallback(s, n);
}
