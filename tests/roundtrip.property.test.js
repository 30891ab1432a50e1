// Property tests: unpack(pack(x)) gives back x for random values.
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import { pack, unpack, Packr, Unpackr } from 'wirepack';
import { hex } from './helpers/bytes.js';
import { canon } from './helpers/canon.js';

const RUNS = { numRuns: 300 };
const roundtrip = (v, u = null) => (u ? u.unpack(pack(v)) : unpack(pack(v)));
// what wirepack gives back: -0 packs as integer 0 (msgpackr behaviour)
const expectRoundtrip = (v, got) => expect(canon(got)).toEqual(canon(v, { negZeroIsZero: true }));

const wellFormedString = fc.string({ unit: 'binary', maxLength: 80 });
const anyString = fc.oneof(
  fc.string({ maxLength: 40 }), // mostly ASCII
  wellFormedString,
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: fc.constantFrom('a', 'é', '€', '🍺', '\u0000', '\uffff'), maxLength: 200 }),
);
const safeDate = fc.date({ noInvalidDate: true, min: new Date(-8.64e15), max: new Date(8.64e15) });
const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const uint64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
const leaf = fc.oneof(
  fc.constant(null), fc.constant(undefined), fc.boolean(),
  fc.integer(), fc.maxSafeInteger(), fc.double(), fc.integer({ min: -40, max: 300 }),
  anyString, safeDate, fc.uint8Array({ maxLength: 70 }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }),
);
const { value: anyValue } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 20 }),
  object: fc.dictionary(fc.string({ maxLength: 12 }), tie('value'), { maxKeys: 20, noNullPrototype: true }),
}));

describe('round trips', () => {
  test('JSON values', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => {
      expectRoundtrip(v, roundtrip(v));
    }), RUNS);
  });

  test('objects (fc.object)', () => {
    fc.assert(fc.property(fc.object({ maxDepth: 3 }), (v) => {
      // fc.object may hold values msgpack has no type for; keep the JSON-ish part
      const j = JSON.parse(JSON.stringify(v));
      expectRoundtrip(j, roundtrip(j));
    }), RUNS);
  });

  test('nested values of every supported type', () => {
    fc.assert(fc.property(anyValue, (v) => {
      expectRoundtrip(v, roundtrip(v));
    }), RUNS);
  });

  test('well-formed unicode strings are exact (incl. astral)', () => {
    fc.assert(fc.property(anyString, (s) => {
      const b = pack(s);
      // header + the UTF-8 bytes, nothing else
      expect(hex(b).endsWith(hex(new TextEncoder().encode(s)))).toBe(true);
      expect(unpack(b)).toBe(s);
    }), RUNS);
  });

  test('lone surrogates are written as U+FFFD, like TextEncoder', () => {
    const withLone = fc.string({ unit: fc.constantFrom('a', '\ud800', '\udc00', '\udbff', '\udfff', '\ud83c\udf7a', '€'), maxLength: 40 });
    fc.assert(fc.property(withLone, (s) => {
      const enc = new TextEncoder().encode(s);
      expect(hex(pack(s)).endsWith(hex(enc))).toBe(true);
      expect(unpack(pack(s))).toBe(new TextDecoder().decode(enc));
      expect(unpack(pack({ [s]: 1 }))).toEqual({ [new TextDecoder().decode(enc)]: 1 });
    }), RUNS);
    expect(unpack(pack('\ud800'))).toBe('\ufffd');
    expect(hex(pack('a\udc00b'))).toBe('a561efbfbd62');
  });

  test('strings on both sides of the lengths where the encoder changes path, alone and in a document', () => {
    // the JS UTF-8 loop ends at 64 characters in Node and 1024 elsewhere; past 128 (Node) or 512
    // (browsers) characters of a call, strings of 16+ characters go to one native encode instead
    const units = ['a', 'é', '日', '\ud83c\udf7a', '\ud800', '\udc00', 'Z'];
    const te = new TextEncoder(), td = new TextDecoder();
    fc.assert(fc.property(fc.constantFrom(15, 16, 63, 64, 65, 255, 256, 257, 1023, 1024, 1025, 3000), fc.array(fc.constantFrom(...units), { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 6 }),
      (len, parts, lead) => {
        let s = '';
        for (let i = 0; s.length < len; i++) s += parts[i % parts.length];
        s = s.slice(0, len);
        const enc = te.encode(s);
        expect(hex(pack(s)).endsWith(hex(enc))).toBe(true);
        // the same string after `lead` others, so that it is past the thresholds of a call
        const doc = [...Array.from({ length: lead }, (_, i) => s.slice(i, i + 200)), s];
        const back = unpack(pack(doc));
        expect(back).toEqual(doc.map((x) => td.decode(te.encode(x))));
      }), RUNS);
  });

  test('integers', () => {
    fc.assert(fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.integer({ min: -200, max: 70000 })), (n) => {
      expect(roundtrip(n)).toBe(n === 0 ? 0 : n);
    }), RUNS);
  });

  test('doubles incl. NaN, ±Infinity; -0 comes back as 0 (msgpackr packs -0 as 00)', () => {
    fc.assert(fc.property(fc.double(), (d) => {
      const got = roundtrip(d);
      if (Number.isNaN(d)) expect(got).toBeNaN();
      else expect(got).toBe(Object.is(d, -0) ? 0 : d);
    }), RUNS);
    expect(Object.is(roundtrip(-0), 0)).toBe(true);
  });

  test('Dates (millisecond precision, full range)', () => {
    fc.assert(fc.property(safeDate, (d) => {
      const got = roundtrip(d);
      expect(got).toBeInstanceOf(Date);
      expect(got.getTime()).toBe(d.getTime());
    }), RUNS);
    expect(roundtrip(new Date(NaN)).getTime()).toBeNaN();
  });

  test('Uint8Arrays (and views into larger buffers)', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), fc.nat(20), (u, off) => {
      const big = new Uint8Array(u.length + off + 5).fill(0xee);
      big.set(u, off);
      const view = big.subarray(off, off + u.length);
      for (const x of [u, view]) {
        const got = roundtrip(x);
        expect(got).toBeInstanceOf(Uint8Array);
        expect(hex(got)).toBe(hex(u));
      }
    }), RUNS);
  });

  test('BigInts in int64/uint64 range', () => {
    const asBig = new Unpackr({ mapsAsObjects: true, int64AsType: 'bigint' });
    fc.assert(fc.property(fc.oneof(int64, uint64, fc.bigInt({ min: -300n, max: 300n })), (b) => {
      expect(roundtrip(b, asBig)).toBe(b);
      expect(roundtrip(b)).toBe(b); // 'bigint' is the default
      expect(roundtrip([b, { b }], asBig)).toEqual([b, { b }]);
    }), RUNS);
  });

  test('BigInts with int64AsType number / string / auto', () => {
    const num = new Unpackr({ mapsAsObjects: true, int64AsType: 'number' });
    const str = new Unpackr({ mapsAsObjects: true, int64AsType: 'string' });
    const auto = new Unpackr({ mapsAsObjects: true, int64AsType: 'auto' });
    fc.assert(fc.property(fc.oneof(int64, uint64), (b) => {
      const p = pack(b);
      expect(num.unpack(p)).toBe(Number(b));
      expect(str.unpack(p)).toBe(b.toString());
      const inSafe = b >= -(2n ** 53n) && b <= 2n ** 53n;
      expect(auto.unpack(p)).toBe(inSafe ? Number(b) : b);
    }), RUNS);
  });
});

describe('Maps', () => {
  const mapKey = fc.oneof(
    fc.string({ maxLength: 10 }), fc.integer(), fc.integer({ min: -5, max: 5 }), fc.boolean(), fc.constant(null),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
  );
  const mapOf = fc.array(fc.tuple(mapKey, fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.boolean())), { maxLength: 25 }).map((e) => new Map(e));

  test('mapsAsObjects: false gives Maps with keys of any type', () => {
    const u = new Unpackr({ mapsAsObjects: false });
    fc.assert(fc.property(mapOf, (m) => {
      const got = u.unpack(pack(m));
      expect(got).toBeInstanceOf(Map);
      expect(canon(got)).toEqual(canon(m));
      // nested map in an array: also a Map
      const nested = u.unpack(pack([m, { a: m }]));
      expect(nested[0]).toBeInstanceOf(Map);
      expect(nested[1]).toBeInstanceOf(Map);
      expect(canon(nested[1].get('a'))).toEqual(canon(m));
    }), RUNS);
  });

  test('default options: keys that are strings, numbers, booleans or null make an object (coerced to property names, as msgpackr), any other key a Map', () => {
    const binKey = fc.uint8Array({ maxLength: 3 }).map((b) => (typeof Buffer === 'function' ? Buffer.from(b) : b));
    const mixed = fc.array(fc.tuple(fc.oneof(mapKey, binKey), fc.oneof(fc.integer(), fc.string({ maxLength: 5 }))), { maxLength: 12 }).map((e) => new Map(e));
    fc.assert(fc.property(fc.oneof(mapOf, mixed), (m) => {
      const got = roundtrip(m);
      const coercible = [...m.keys()].every((k) => k === null || typeof k !== 'object');
      if (coercible) {
        expect(got instanceof Map).toBe(false);
        expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
        // (-0 packs as 0, as in msgpackr; its property name is "0" either way)
        expect(canon(got)).toEqual(canon(Object.fromEntries([...m].map(([k, v]) => [String(k), v]))));
      } else {
        expect(got).toBeInstanceOf(Map);
        expect(canon(got)).toEqual(canon(m, { negZeroIsZero: true }));
      }
    }), RUNS);
  });

  test('a Packr instance round-trips like the free functions', () => {
    const p = new Packr({ useRecords: false });
    const u = new Unpackr({ mapsAsObjects: true });
    fc.assert(fc.property(anyValue, (v) => {
      const b = p.pack(v);
      expect(hex(b)).toBe(hex(pack(v)));
      expectRoundtrip(v, u.unpack(b));
    }), { numRuns: 150 });
  });
});
