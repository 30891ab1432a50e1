/* wp_tables.c: interning of map keys and map shapes across calls, in caller-owned tables.
 * Open addressing with linear probing; ids are dense and assigned in order, so undoing the
 * newest insertions in reverse order keeps every probe chain intact.
 *
 * Probing is bounded: an entry is only ever stored within WP_PROBE_MAX slots of its hash's
 * slot, so a lookup looks at no more than that many, and a key or shape that finds neither
 * itself nor a free slot there is not interned (WP_NO_ID, as when a table is full: it decodes
 * the way any key does that is not interned). The hashes are fixed, so an input can bring keys
 * chosen to share a slot; unbounded, each such key probed the whole cluster the others made
 * (up to WP_MAX_KEYS slots): a 1 MB message of 100,000 such keys took 5-6x the time of one of
 * ordinary keys, and the time grew with the input (hostile-input amplification). */
#include "wp_internal.h"

#define WP_PROBE_MAX 64u

#ifdef WP_TEST_COUNTERS
uint32_t wp_test_probes_max;
#define WP_TEST_PROBED(left) (wp_test_probes_max = WP_PROBE_MAX - (left) + 1u > wp_test_probes_max ? WP_PROBE_MAX - (left) + 1u : wp_test_probes_max)
#else
#define WP_TEST_PROBED(left) ((void)0)
#endif

/* A word-at-a-time multiply-xorshift hash; keys are at most WP_KEY_MAX_BYTES long. */
static uint32_t wp_hash_bytes(const uint8_t *s, uint32_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    uint32_t i = 0;
    for (; i + 8 <= n; i += 8) {
        h = (h ^ wp_load_u64(s + i)) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    if (i < n) {
        /* the last bytes without a byte loop: overlapping loads (n is in the seed, so lengths
         * that share bytes still hash apart) */
        uint64_t tail;
        if (n >= 8) tail = wp_load_u64(s + n - 8);
        else if (n >= 4) tail = (uint64_t)wp_load_u32(s) | ((uint64_t)wp_load_u32(s + n - 4) << 32);
        else tail = (uint64_t)s[0] | ((uint64_t)s[n >> 1] << 8) | ((uint64_t)s[n - 1] << 16);
        h = (h ^ tail) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    h *= 0xc4ceb9fe1a85ec53ull;
    return (uint32_t)(h ^ (h >> 29));
}

static uint32_t wp_hash_words(const uint32_t *w, uint32_t n) {
    uint32_t h = 2166136261u ^ n;
    for (uint32_t i = 0; i < n; i++) h = (h ^ w[i]) * 16777619u;
    return h ^ (h >> 15);
}

void wp_tables_reset(wp_tables *t) {
    t->nkeys = t->key_pool_used = 0;
    t->nshapes = t->shape_pool_used = 0;
    __builtin_memset(t->key_slot, 0, sizeof t->key_slot);
    __builtin_memset(t->shape_slot, 0, sizeof t->shape_slot);
    __builtin_memset(t->shape_pred, 0, sizeof t->shape_pred);
    __builtin_memset(t->shape_last, 0, sizeof t->shape_last);
    __builtin_memset(t->rec_last, 0, sizeof t->rec_last);
    t->vc_next = t->vc_looks = t->vc_hits = t->vc_skip = 0;
    __builtin_memset(t->vc_len, 0, sizeof t->vc_len);
}

static bool wp_bytes_eq(const uint8_t *a, const uint8_t *b, uint32_t n) {
    if (n >= 8) {
        uint32_t i = 0;
        for (; i + 8 <= n; i += 8) if (wp_load_u64(a + i) != wp_load_u64(b + i)) return false;
        return i == n || wp_load_u64(a + n - 8) == wp_load_u64(b + n - 8);
    }
    if (n >= 4) return wp_load_u32(a) == wp_load_u32(b) && wp_load_u32(a + n - 4) == wp_load_u32(b + n - 4);
    for (uint32_t i = 0; i < n; i++) if (a[i] != b[i]) return false;
    return true;
}

/* Keys of up to 16 bytes: the bytes as two little-endian words a and b, zero past n. Hashing and
 * comparing them takes no branch on the length (varying key lengths mispredicted the byte-wise
 * paths: interning was 38% of a native example4 decode). */
static uint32_t wp_hash_short(uint64_t a, uint64_t b, uint32_t n) {
    /* One layer of products, side by side (three chained multiplies were the latency of every
     * short key's lookup): a product's bits 51-63 depend on every bit of its input, its bits
     * 32-44 only on bits 0-44, so those are folded onto these before the top half is taken (the
     * slot is the low bits of the result). */
    uint64_t h = (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full) ^ ((uint64_t)(n + 1u) * 0x165667B19E3779F9ull);
    h ^= h >> 19;
    return (uint32_t)(h >> 32);
}

static uint32_t wp_key_insert(wp_tables *t, uint32_t i, uint32_t h, const uint8_t *s, uint32_t n) {
    if (t->nkeys >= WP_MAX_KEYS || n > WP_KEY_POOL_BYTES - t->key_pool_used) return WP_NO_ID;
    uint32_t id = t->nkeys++;
    t->key_off[id] = t->key_pool_used;
    t->key_len[id] = n;
    t->key_hash[id] = h;
    wp_copy(t->key_pool + t->key_pool_used, s, n); /* memcpy is an out-of-line memory.copy in wasm */
    t->key_pool_used += n;
    t->key_slot[i] = (uint16_t)(id + 1);
    return id;
}

uint32_t wp_key_intern_short(wp_tables *t, uint64_t a, uint64_t b, const uint8_t *s, uint32_t n) {
    uint32_t h = wp_hash_short(a, b, n);
    uint64_t m0 = wp_key_lo_mask(n), m1 = wp_key_hi_mask(n);
    uint32_t mask = WP_KEY_HASH_SLOTS - 1;
    for (uint32_t i = h & mask, left = WP_PROBE_MAX; left; i = (i + 1) & mask, left--) {
        WP_TEST_PROBED(left);
        uint32_t slot = t->key_slot[i];
        if (slot == 0) return wp_key_insert(t, i, h, s, n);
        uint32_t id = slot - 1;
        if (t->key_hash[id] == h && t->key_len[id] == n) {
            const uint8_t *k = t->key_pool + t->key_off[id]; /* 16 readable: the pool's slack */
            if ((((wp_load_u64(k) ^ a) & m0) | ((wp_load_u64(k + 8) ^ b) & m1)) == 0) return id;
        }
    }
    return WP_NO_ID;
}

uint32_t wp_key_intern(wp_tables *t, const uint8_t *s, uint32_t n) {
    if (n <= 16) {
        /* the two words by overlapping loads inside s[0..n): a zeroed buffer and memcpy (in
         * wasm a memory.copy, an out-of-line call) made this path, taken by every short key in
         * the last 16 bytes of an input, cost as much as the rest of a small map's decode */
        uint64_t a, b = 0;
        if (n >= 8) {
            a = wp_load_u64(s);
            if (n > 8) b = wp_load_u64(s + n - 8) >> (8u * (16u - n));
        } else if (n >= 4) {
            a = (uint64_t)wp_load_u32(s) | ((uint64_t)wp_load_u32(s + n - 4) << (8u * (n - 4u)));
        } else if (n) {
            a = (uint64_t)s[0] | ((uint64_t)s[n >> 1] << (8u * (n >> 1))) | ((uint64_t)s[n - 1] << (8u * (n - 1u)));
        } else {
            a = 0;
        }
        return wp_key_intern_short(t, a, b, s, n);
    }
    if (n > WP_KEY_MAX_BYTES) return WP_NO_ID;
    uint32_t h = wp_hash_bytes(s, n);
    uint32_t mask = WP_KEY_HASH_SLOTS - 1;
    for (uint32_t i = h & mask, left = WP_PROBE_MAX; left; i = (i + 1) & mask, left--) {
        WP_TEST_PROBED(left);
        uint32_t slot = t->key_slot[i];
        if (slot == 0) return wp_key_insert(t, i, h, s, n);
        uint32_t id = slot - 1;
        if (t->key_hash[id] == h && t->key_len[id] == n && wp_bytes_eq(t->key_pool + t->key_off[id], s, n))
            return id;
    }
    return WP_NO_ID;
}

#ifdef WP_TEST_COUNTERS
/* The keys' words as wp_key_intern makes them (s has n bytes, n <= 16; else the long hash). */
uint32_t wp_test_key_home(const uint8_t *s, uint32_t n) {
    if (n > 16) return wp_hash_bytes(s, n) & (WP_KEY_HASH_SLOTS - 1);
    uint8_t w[16] = { 0 };
    __builtin_memcpy(w, s, n);
    return wp_hash_short(wp_load_u64(w), wp_load_u64(w + 8), n) & (WP_KEY_HASH_SLOTS - 1);
}

uint32_t wp_test_shape_home(const uint32_t *ids, uint32_t n) { return wp_hash_words(ids, n) & (WP_SHAPE_HASH_SLOTS - 1); }
#endif

bool wp_key_equals(const wp_tables *t, uint32_t id, const uint8_t *s, uint32_t n) {
    return t->key_len[id] == n && wp_bytes_eq(t->key_pool + t->key_off[id], s, n);
}

uint32_t wp_shape_intern(wp_tables *t, const uint32_t *ids, uint32_t n) {
    if (n > WP_SHAPE_MAX_KEYS) return WP_NO_ID;
    uint32_t h = wp_hash_words(ids, n);
    uint32_t mask = WP_SHAPE_HASH_SLOTS - 1;
    for (uint32_t i = h & mask, left = WP_PROBE_MAX; left; i = (i + 1) & mask, left--) {
        WP_TEST_PROBED(left);
        uint32_t slot = t->shape_slot[i];
        if (slot == 0) {
            if (t->nshapes >= WP_MAX_SHAPES || n > WP_SHAPE_POOL_WORDS - t->shape_pool_used) return WP_NO_ID;
            uint32_t id = t->nshapes++;
            t->shape_off[id] = t->shape_pool_used;
            t->shape_len[id] = n;
            t->shape_hash[id] = h;
            for (uint32_t k = 0; k < n; k++) t->shape_pool[t->shape_pool_used + k] = ids[k];
            t->shape_pool_used += n;
            t->shape_slot[i] = (uint16_t)(id + 1);
            return id;
        }
        uint32_t id = slot - 1;
        if (t->shape_hash[id] == h && t->shape_len[id] == n) {
            const uint32_t *w = t->shape_pool + t->shape_off[id];
            uint32_t k = 0;
            while (k < n && w[k] == ids[k]) k++;
            if (k == n) return id;
        }
    }
    return WP_NO_ID;
}

static void wp_slot_clear(uint16_t *slots, uint32_t mask, uint32_t h, uint32_t id) {
    for (uint32_t i = h & mask, left = WP_PROBE_MAX; left; i = (i + 1) & mask, left--) {
        if (slots[i] == id + 1) { slots[i] = 0; return; }
        if (slots[i] == 0) return; /* not reachable for a present id */
    }
}

void wp_tables_rollback(wp_tables *t, uint32_t nkeys, uint32_t nshapes) {
    while (t->nshapes > nshapes) {
        uint32_t id = --t->nshapes;
        wp_slot_clear(t->shape_slot, WP_SHAPE_HASH_SLOTS - 1, t->shape_hash[id], id);
        t->shape_pool_used = t->shape_off[id];
    }
    while (t->nkeys > nkeys) {
        uint32_t id = --t->nkeys;
        wp_slot_clear(t->key_slot, WP_KEY_HASH_SLOTS - 1, t->key_hash[id], id);
        t->key_pool_used = t->key_off[id];
    }
}

__attribute__((noinline)) uint64_t wp_vc_put(wp_tables *tb, const uint8_t *s, uint32_t n) {
    if (tb->vc_skip) {
        tb->vc_skip--;
        return 0;
    }
    uint64_t a, b, c = 0, e = 0;
    if (n < 8u) {
        a = wp_load_u32(s);
        b = wp_load_u32(s + n - 4u);
    } else {
        a = wp_load_u64(s);
        b = wp_load_u64(s + n - 8u);
        if (n > 16u) {
            c = wp_load_u64(s + 8u);
            e = wp_load_u64(s + n - 16u);
        }
    }
    if ((a | b | c | e) & 0x8080808080808080ull) return 0;
    uint64_t h = (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full) ^ (c * 0x165667B19E3779F9ull) ^
                 (e * 0x27D4EB2F165667C5ull) ^ ((uint64_t)n * 0xFF51AFD7ED558CCDull);
    /* (a product's low bits depend only on its input's low bits: mixed, so that the doorkeeper's
     * low 32 bits depend on every byte, as the slot's top 10 do) */
    h ^= h >> 32;
    h *= 0xD6E8FEB86659FD93ull;
    h ^= h >> 32;
    const uint32_t slot = (uint32_t)(h >> 54); /* WP_VC_SLOTS: the top 10 bits */
    uint8_t *k = tb->vc_bytes + slot * WP_VC_MAX;
    bool hit = tb->vc_len[slot] == n;
    if (hit) {
        if (n < 8u) hit = wp_load_u32(k) == (uint32_t)a && wp_load_u32(k + n - 4u) == (uint32_t)b;
        else hit = wp_load_u64(k) == a && wp_load_u64(k + n - 8u) == b &&
                   (n <= 16u || (wp_load_u64(k + 8u) == c && wp_load_u64(k + n - 16u) == e));
    }
    if (++tb->vc_looks == WP_VC_WINDOW) {
        if (tb->vc_hits + hit < WP_VC_MIN_HITS) tb->vc_skip = WP_VC_SKIP;
        tb->vc_looks = tb->vc_hits = 0;
    } else {
        tb->vc_hits += hit;
    }
    if (hit) {
        tb->vc_used[slot] = tb->vc_call;
    } else {
        /* the second time running that these bytes come to this slot: a string seen once (most
         * of a document's distinct values) only leaves its hash there, and is written as usual */
        const uint32_t sig = (uint32_t)h | 1u;
        if (tb->vc_seen[slot] != sig) {
            tb->vc_seen[slot] = sig;
            return 0;
        }
        /* (nor over bytes an entry of this call names, nor once the stamps run out) */
        if (tb->vc_used[slot] == tb->vc_call || tb->vc_next >= WP_VC_STAMP_MAX) return 0;
        tb->vc_used[slot] = tb->vc_call;
        wp_copy(k, s, n);
        tb->vc_len[slot] = (uint8_t)n;
        tb->vc_stamp[slot] = ++tb->vc_next;
    }
    /* (the tag word is never 0: WP_T_VSTR is not) */
    return (uint64_t)(WP_T_VSTR | ((slot | (n << 10)) << 8)) | ((uint64_t)tb->vc_stamp[slot] << 32);
}
