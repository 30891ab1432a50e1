// The value cache: short ASCII string values of small inputs come from C as VSTR entries (a slot
// of C's direct-mapped cache and the stamp its bytes got), and the JS keeps one (stamp, string)
// pair per slot. Whatever C wrote to a slot since, and whatever calls the JS did not finish
// reading, a decoded string is always the one in the input: checked with strings that share a
// slot (found with the same hash as csrc/wp_tables.c), across table resets (C's stamps start
// again), after calls that threw or stopped early, and through every reader.
import { describe, test, expect } from 'vitest';
import { pack, unpack, unpackMultiple, Unpackr, Packr, addExtension } from 'wirepack';
import { encode, decode, Decoder, Encoder } from 'wirepack/cbor';

const text = (n, seed) => {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(97 + ((seed * 7 + i * 13 + (seed >> 3)) % 26));
  return s;
};

// wp_vc_put's slot for an ASCII string of 4..32 bytes (little-endian windows, 64-bit products)
const M = (1n << 64n) - 1n;
const K = [0x9E3779B97F4A7C15n, 0xC2B2AE3D27D4EB4Fn, 0x165667B19E3779F9n, 0x27D4EB2F165667C5n, 0xFF51AFD7ED558CCDn];
const word = (s, at, bytes) => {
  let v = 0n;
  for (let i = bytes - 1; i >= 0; i--) v = (v << 8n) | BigInt(s.charCodeAt(at + i));
  return v;
};
const slotOf = (s) => {
  const n = s.length;
  let a, b, c = 0n, e = 0n;
  if (n < 8) { a = word(s, 0, 4); b = word(s, n - 4, 4); } else {
    a = word(s, 0, 8); b = word(s, n - 8, 8);
    if (n > 16) { c = word(s, 8, 8); e = word(s, n - 16, 8); }
  }
  let h = ((a * K[0]) & M) ^ ((b * K[1]) & M) ^ ((c * K[2]) & M) ^ ((e * K[3]) & M) ^ ((BigInt(n) * K[4]) & M);
  h ^= h >> 32n;
  h = (h * 0xD6E8FEB86659FD93n) & M;
  h ^= h >> 32n;
  return Number(h >> 54n);
};
/** count strings `prefix + i` that share a slot with `s` */
const sameSlot = (s, count, make) => {
  const want = slotOf(s), out = [];
  for (let i = 0; out.length < count; i++) {
    const t = make(i);
    if (t !== s && slotOf(t) === want) out.push(t);
  }
  return out;
};

/** a map with `n` keys no earlier call had: past 3,840 keys C empties its tables before the next call */
let fresh = 0;
const manyKeys = (n) => {
  const o = {};
  for (let i = 0; i < n; i++) o[`k${fresh++}_${i}`] = i;
  return o;
};

describe('value cache', () => {
  test('every length and both formats, decoded again and again', () => {
    for (let round = 0; round < 4; round++) {
      for (let n = 0; n <= 40; n++) {
        const v = [text(n, n), { a: text(n, n + 1), b: [text(n, n + 2), 'é' + text(n, 3)] }];
        expect(unpack(pack(v))).toEqual(v);
        expect(decode(encode(v))).toEqual(v);
      }
    }
  });

  test('strings that share a slot replace each other: each decodes as itself', () => {
    const base = 'hello world';
    const rivals = [base, ...sameSlot(base, 5, (i) => `rival${i}`.padEnd(11, '.'))];
    expect(new Set(rivals.map(slotOf)).size).toBe(1);
    for (let round = 0; round < 4; round++) {
      for (const s of rivals) {
        for (let k = 0; k < 3; k++) {
          expect(unpack(pack([s]))[0]).toBe(s);
          expect(decode(encode([s]))[0]).toBe(s);
        }
      }
      // interleaved: each one's bytes go to the slot on its second sighting in a row, never after
      for (let k = 0; k < 3; k++) for (const s of rivals) expect(unpack(pack({ s })).s).toBe(s);
    }
  });

  test('strings of one slot in one message, in every order, after each was cached', () => {
    const base = 'shared-slot';
    const rivals = [base, ...sameSlot(base, 3, (i) => `x${i}`.padEnd(11, '_'))];
    for (let round = 0; round < 3; round++) {
      for (const s of rivals) for (let k = 0; k < 2; k++) unpack(pack([s])); // each in the slot in turn
      for (let i = 0; i < rivals.length; i++) {
        const msg = [...rivals.slice(i), ...rivals.slice(0, i), ...rivals];
        for (let k = 0; k < 3; k++) {
          expect(unpack(pack(msg))).toEqual(msg);
          expect(decode(encode(msg))).toEqual(msg);
        }
      }
    }
  });

  test('a string cached in a call the JS stopped reading, then in one message with its rival', () => {
    for (const [enc, dec, multi] of [[pack, unpack, unpackMultiple], [encode, decode, (b, f) => new Decoder().decodeMultiple(b, f)]]) {
      const [a, b] = sameSlot('never-used', 2, (i) => `${enc === pack ? 'm' : 'c'}${i}`.padEnd(10, '#'));
      // a's bytes go to the slot in a call whose values after the first are never read
      multi(new Uint8Array([...enc('first'), ...enc([a]), ...enc([a])]), () => false);
      expect(dec(enc([b]))[0]).toBe(b); // b seen once
      // a is in the slot, which the JS has not seen; b would go there now, but a's entry names it
      for (let k = 0; k < 3; k++) expect(dec(enc([a, b]))).toEqual([a, b]);
    }
  });

  test('thousands of distinct strings, each repeated (slots reused many times)', () => {
    for (let i = 0; i < 6000; i++) {
      const s = text(4 + (i % 29), i) + i;
      const msg = pack([s, i]);
      for (let k = 0; k < 3; k++) expect(unpack(msg)[0]).toBe(s);
    }
  });

  test('after C empties its tables (its stamps start again), a slot cached before is not trusted', () => {
    const a = 'alpha-value';
    const [b] = sameSlot(a, 1, (i) => `b${i}`.padEnd(11, '-'));
    for (const [enc, dec] of [[pack, unpack], [encode, decode]]) {
      dec(enc(manyKeys(4000)));
      expect(dec(enc([a]))[0]).toBe(a); // (the tables are emptied first: stamps from 1)
      expect(dec(enc([a]))[0]).toBe(a); // a's bytes in the slot, stamp 1
      expect(dec(enc([a]))[0]).toBe(a);
      dec(enc(manyKeys(4000)));
      expect(dec(enc([b]))[0]).toBe(b); // emptied again
      expect(dec(enc([b]))[0]).toBe(b); // b's bytes in the same slot, stamp 1 again
      expect(dec(enc([b]))[0]).toBe(b);
    }
  });

  test('calls that stop early or throw leave nothing wrong behind', () => {
    const a = 'first-string';
    const rivals = sameSlot(a, 3, (i) => `other-${i}`.padEnd(12, '!'));
    // unpackMultiple stopped after its first value: C cached what the JS never read
    const seq = new Uint8Array([...pack(a), ...rivals.flatMap((s) => [...pack([s, s, s])])]);
    for (let k = 0; k < 3; k++) {
      let seen = 0;
      unpackMultiple(seq, () => { seen++; return false; });
      expect(seen).toBe(1);
      for (const s of [a, ...rivals]) expect(unpack(pack([s]))[0]).toBe(s);
    }
    // an extension that throws after the strings before it were cached
    addExtension({ type: 0x31, Class: class Boom {}, pack: () => new Uint8Array([1]), unpack: () => { throw new Error('boom'); } });
    const boom = new Uint8Array([0x93, ...pack(rivals[0]).slice(0), ...pack(rivals[1]), 0xd4, 0x31, 0x01]);
    for (let k = 0; k < 3; k++) {
      expect(() => unpack(boom)).toThrow('boom');
      for (const s of [a, ...rivals]) expect(unpack(pack({ s })).s).toBe(s);
    }
  });

  test('through generated and eval-free builders, records, and the deep reader', () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({ id: i, status: ['active', 'inactive', 'pending'][i % 3], tag: text(8, i % 5) }));
    const eval_ = new Unpackr({ useRecords: false });
    const noEval = new Unpackr({ useRecords: false, codegen: false });
    const rec = new Packr({ useRecords: true }), recU = new Unpackr({ useRecords: true });
    const cbRec = new Encoder({ useRecords: true }), cbRecD = new Decoder({ useRecords: true });
    for (let k = 0; k < 80; k++) { // (builders are generated after some uses)
      const b = pack(rows);
      expect(eval_.unpack(b)).toEqual(rows);
      expect(noEval.unpack(b)).toEqual(rows);
      expect(recU.unpack(rec.pack(rows))).toEqual(rows);
      expect(cbRecD.decode(cbRec.encode(rows))).toEqual(rows);
    }
    let deep = ['leaf-value'];
    for (let i = 0; i < 500; i++) deep = [deep, 'level-string'];
    for (let k = 0; k < 3; k++) {
      expect(unpack(pack(deep))).toEqual(deep);
      expect(decode(encode(deep))).toEqual(deep);
    }
  });

  test('inputs past 4 KB decode as before (the cache is for small inputs)', () => {
    const big = Array.from({ length: 400 }, (_, i) => ({ s: ['red', 'green-ish', 'blue-value'][i % 3], t: text(20, i) }));
    for (let k = 0; k < 3; k++) {
      expect(unpack(pack(big))).toEqual(big);
      expect(decode(encode(big))).toEqual(big);
    }
  });
});
