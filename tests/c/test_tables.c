/*
 * test_tables.c: the key and shape tables' bounded probing (csrc/wp_tables.c). Their hashes are
 * fixed, so an input can bring keys (and so shapes) chosen to share a slot; each lookup looks at
 * no more than WP_PROBE_MAX slots, and what finds neither itself nor a free slot there is not
 * interned (WP_NO_ID). Unbounded, every such key probed the cluster the others had made.
 */
#include "test_util.h"

#define PROBE_MAX 64u /* WP_PROBE_MAX, csrc/wp_tables.c */
#define NCOLL 300u

static wp_tables T;
static char keys[NCOLL][9];

/* n keys of 8 letters whose probing starts at slot `home` (brute force over a counter). */
static void colliding_keys(uint32_t n, uint32_t home) {
    static const char al[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    uint32_t found = 0;
    for (uint64_t x = 0; found < n; x++) {
        char k[9];
        uint64_t y = x;
        for (int i = 0; i < 8; i++) { k[i] = al[y % 62u]; y /= 62u; }
        k[8] = 0;
        if (wp_test_key_home((const uint8_t *)k, 8) == home) memcpy(keys[found++], k, 9);
    }
}

static uint32_t intern(const char *k) { return wp_key_intern(&T, (const uint8_t *)k, (uint32_t)strlen(k)); }

int main(void) {
    const uint32_t home = 77;
    colliding_keys(NCOLL, home);

    tu_case("keys that share a slot: the first %u are interned, the rest are not", PROBE_MAX);
    {
        wp_tables_reset(&T);
        wp_test_probes_max = 0;
        uint32_t ids[NCOLL], interned = 0;
        for (uint32_t i = 0; i < NCOLL; i++) {
            ids[i] = intern(keys[i]);
            if (ids[i] != WP_NO_ID) interned++;
        }
        CHECK_EQ_U(interned, PROBE_MAX);
        CHECK_EQ_U(T.nkeys, PROBE_MAX);
        CHECK(wp_test_probes_max <= PROBE_MAX, "a lookup probed %u slots", wp_test_probes_max);
        for (uint32_t i = 0; i < PROBE_MAX; i++) CHECK_EQ_U(ids[i], i);
        /* found again; the others still not interned, and no lookup looks further */
        wp_test_probes_max = 0;
        for (uint32_t i = 0; i < NCOLL; i++) CHECK_EQ_U(intern(keys[i]), i < PROBE_MAX ? i : WP_NO_ID);
        CHECK(wp_test_probes_max <= PROBE_MAX, "a lookup probed %u slots", wp_test_probes_max);
        CHECK_EQ_U(T.nkeys, PROBE_MAX);
    }
    tu_end();

    tu_case("other keys intern as before, also where the cluster's slots lie");
    {
        uint32_t before = T.nkeys, n = 0;
        char k[16];
        for (uint32_t i = 0; i < 200; i++) {
            snprintf(k, sizeof k, "field-%u", i);
            uint32_t id = intern(k);
            CHECK(id != WP_NO_ID, "%s not interned", k);
            CHECK_EQ_U(intern(k), id);
            n++;
        }
        CHECK_EQ_U(T.nkeys, before + n);
    }
    tu_end();

    tu_case("a rollback frees the cluster's slots");
    {
        wp_tables_reset(&T);
        for (uint32_t i = 0; i < 10; i++) CHECK_EQ_U(intern(keys[i]), i);
        wp_tables_rollback(&T, 0, 0);
        CHECK_EQ_U(T.nkeys, 0);
        uint32_t interned = 0;
        for (uint32_t i = 10; i < NCOLL; i++) interned += intern(keys[i]) != WP_NO_ID;
        CHECK_EQ_U(interned, PROBE_MAX);
    }
    tu_end();

    tu_case("shapes that share a slot: the first %u are interned, the rest are not", PROBE_MAX);
    {
        wp_tables_reset(&T);
        wp_test_probes_max = 0;
        uint32_t want = wp_test_shape_home((const uint32_t[]){ 1, 2 }, 2), found = 0, interned = 0;
        for (uint32_t a = 0; a < 4096 && found < NCOLL; a++) {
            for (uint32_t b = 0; b < 4096 && found < NCOLL; b++) {
                const uint32_t ids[2] = { a, b };
                if (wp_test_shape_home(ids, 2) != want) continue;
                found++;
                uint32_t id = wp_shape_intern(&T, ids, 2);
                if (id != WP_NO_ID) {
                    interned++;
                    CHECK_EQ_U(wp_shape_intern(&T, ids, 2), id);
                }
            }
        }
        CHECK_EQ_U(found, NCOLL);
        CHECK_EQ_U(interned, PROBE_MAX);
        CHECK(wp_test_probes_max <= PROBE_MAX, "a lookup probed %u slots", wp_test_probes_max);
    }
    tu_end();

    tu_case("a message of such keys decodes, each key as interned or as a string");
    {
        /* [{k0: 0}, {k1: 1}, ...]: maps of one entry, keys sharing a slot */
        tu_buf b = { 0 };
        tu_buf_u8(&b, 0xdc);
        tu_buf_be(&b, NCOLL, 2);
        for (uint32_t i = 0; i < NCOLL; i++) {
            tu_buf_u8(&b, 0x81);
            tu_buf_u8(&b, 0xa8);
            tu_buf_bytes(&b, keys[i], 8);
            tu_buf_u8(&b, i & 0x7f);
        }
        for (int pass = 0; pass < 2; pass++) {
            wp_test_probes_max = 0;
            tu_dec x;
            CHECK_ERR(tu_decode(&x, &T, b.p, b.len, WP_DEC_MAPS_AS_OBJECTS), WP_OK);
            CHECK(wp_test_probes_max <= PROBE_MAX, "pass %d: a lookup probed %u slots", pass, wp_test_probes_max);
            uint32_t nkey = 0, nstr = 0;
            for (uint32_t i = 0; i < x.d.tape_len; i++) {
                uint32_t tag = tu_tag(x.d.tape[i]);
                nkey += tag == WP_T_KEY;
                nstr += tag == WP_T_STRA;
            }
            CHECK(nkey + nstr >= NCOLL, "pass %d: %u keys, %u strings", pass, nkey, nstr);
            CHECK(nkey <= PROBE_MAX + 1, "pass %d: %u interned keys", pass, nkey);
            tu_dec_free(&x);
        }
        tu_buf_free(&b);
    }
    tu_end();

    return tu_finish();
}
