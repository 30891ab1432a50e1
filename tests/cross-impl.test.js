// Cross-implementation checks: wirepack <-> msgpackr (both directions), and wirepack's bytes
// against @msgpack/msgpack, which also always writes the smallest form.
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import * as msgpackr from 'msgpackr';
import { encode as mpEncode, decode as mpDecode } from '@msgpack/msgpack';
import { pack, unpack, encode, decode, Packr } from 'wirepack';
import * as cborx from 'cbor-x';
import { encode as cborEncode, Encoder as CborEncoder } from 'wirepack/cbor';
import { hex, expectSameBytes } from './helpers/bytes.js';
import { canon } from './helpers/canon.js';

import example from './vectors/example.json';
import example2 from './vectors/example2.json';
import example3 from './vectors/example3.json';
import example4 from './vectors/example4.json';
import example5 from './vectors/example5.json';
import strings2 from './vectors/strings2.json';
import floats from './vectors/floats.json';
import sampleLarge from './vectors/sample-large.json';
import twitter from './vectors/example-twitter.json';

const RUNS = { numRuns: 300 };
const mrPlain = new msgpackr.Packr({ useRecords: false });
const same = (got, want) => expect(canon(got)).toEqual(canon(want, { negZeroIsZero: true }));

// msgpackr renames a '__proto__' key to '__proto_', so keep it out of cross-implementation data.
const key = fc.string({ maxLength: 12 }).filter((k) => k !== '__proto__');
const safeDate = fc.date({ noInvalidDate: true, min: new Date(-8.64e15), max: new Date(8.64e15) });
const bigint64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n });
const jsonLeaf = fc.oneof(
  fc.constant(null), fc.boolean(), fc.integer(), fc.integer({ min: -300, max: 70000 }), fc.maxSafeInteger(),
  fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }),
);
const tree = (leaf) => fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 20 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 20, noNullPrototype: true }),
})).value;
const jsonLike = tree(jsonLeaf);
const withExtras = tree(fc.oneof(jsonLeaf, safeDate, fc.uint8Array({ maxLength: 80 }), bigint64));

describe('wirepack pack -> msgpackr unpack', () => {
  test('JSON-like', () => {
    fc.assert(fc.property(jsonLike, (v) => { same(msgpackr.unpack(pack(v)), v); }), RUNS);
  });
  test('with Dates, Uint8Arrays, BigInts', () => {
    fc.assert(fc.property(withExtras, (v) => { same(msgpackr.unpack(pack(v)), v); }), RUNS);
  });
});

describe('objects whose prototype is an array (Object.create([1, 2]))', () => {
  // msgpackr and cbor-x write what has Array for its constructor as the array of its (inherited)
  // elements; wirepack wrote an empty map (MessagePack) and an indefinite array (CBOR)
  // (no maps inside: msgpackr and cbor-x write map headers wider than the smallest form)
  const values = () => {
    const own = Object.create([1, 'two', [3]]);
    own.extra = 'not an element';
    const empty = Object.create([]);
    const deep = Object.create([Object.create([4, 5])]);
    return [Object.create([1, 2]), own, empty, deep, [Object.create([null, true])]];
  };
  test('MessagePack: the bytes msgpackr writes, under five option sets', () => {
    for (const v of values()) {
      expect(hex(pack(v))).toBe(hex(msgpackr.pack(v)));
      for (const opts of [{}, { useRecords: false }, { moreTypes: true }, { structuredClone: true }, { bundleStrings: true }]) {
        expect(hex(new Packr(opts).pack(v)), JSON.stringify(opts)).toBe(hex(new msgpackr.Packr(opts).pack(v)));
      }
    }
    // inside a map, and as a map's value: the same values decoded
    const v = { inner: Object.create([1, { a: 2 }]) };
    expect(unpack(pack(v))).toEqual(msgpackr.unpack(msgpackr.pack(v)));
    expect(unpack(pack(v))).toEqual({ inner: [1, { a: 2 }] });
  });
  test('CBOR: the bytes cbor-x writes', () => {
    for (const v of values()) {
      expect(hex(cborEncode(v))).toBe(hex(cborx.encode(v)));
      expect(hex(new CborEncoder({ useRecords: false, deterministic: true }).encode(v))).toBe(hex(cborEncode(v)));
    }
  });
  test('an array-like length that no array has is no array: a map of own keys', () => {
    const odd = Object.create([1, 2]);
    odd.length = -1;
    expect(unpack(pack(odd))).toEqual({ length: -1 });
  });
});

describe('msgpackr pack -> wirepack unpack', () => {
  test('JSON-like (pack and Packr({useRecords:false}))', () => {
    fc.assert(fc.property(jsonLike, (v) => {
      same(unpack(msgpackr.pack(v)), v);
      same(unpack(mrPlain.pack(v)), v);
    }), RUNS);
  });
  test('with Dates, Uint8Arrays, BigInts', () => {
    fc.assert(fc.property(withExtras, (v) => {
      same(unpack(msgpackr.pack(v)), v);
      same(decode(mrPlain.pack(v)), v);
    }), RUNS);
  });
  test('msgpackr float32 and undefined', () => {
    const p32 = new msgpackr.Packr({ useRecords: false, useFloat32: msgpackr.FLOAT32_OPTIONS.ALWAYS });
    fc.assert(fc.property(fc.array(fc.double({ noNaN: true })), (a) => {
      const b = p32.pack(a);
      expect(canon(unpack(b))).toEqual(canon(msgpackr.unpack(b)));
    }), RUNS);
    expect(unpack(msgpackr.pack([undefined, 1]))).toEqual([undefined, 1]);
  });
});

describe('same bytes as @msgpack/msgpack (smallest forms everywhere)', () => {
  // @msgpack/msgpack writes safe integers outside int32/uint32 as 64-bit ints where
  // msgpackr and wirepack write float64; keep those out.
  const tame = (v) => {
    if (typeof v === 'number') return Number.isSafeInteger(v) && (v >= 2 ** 32 || v < -(2 ** 31)) ? 0.5 : v;
    if (Array.isArray(v)) return v.map(tame);
    if (v && typeof v === 'object' && !(v instanceof Date) && !(v instanceof Uint8Array)) {
      const o = {};
      for (const k of Object.keys(v)) o[k] = tame(v[k]);
      return o;
    }
    return v;
  };
  const noBig = tree(fc.oneof(jsonLeaf, safeDate, fc.uint8Array({ maxLength: 300 }), fc.string({ maxLength: 300 })));
  test('random values', () => {
    fc.assert(fc.property(noBig, (raw) => {
      const v = tame(raw);
      const ours = pack(v);
      expectSameBytes(ours, mpEncode(v));
      same(mpDecode(ours), v);
    }), RUNS);
  });
});

const fixtures = { example, example2, example3, example4, example5, strings2, floats, 'sample-large': sampleLarge, 'example-twitter': twitter };

describe('fixtures', () => {
  test('are loaded', () => {
    expect(Object.keys(example4).length).toBeGreaterThan(3);
    expect(JSON.stringify(twitter).length).toBeGreaterThan(13000);
    expect(Array.isArray(floats) || typeof floats === 'object').toBe(true);
  });
  test.each(Object.entries(fixtures))('%s', (name, doc) => {
    const ours = pack(doc);
    // byte-exact against @msgpack/msgpack (these documents hold no safe integers >= 2^32)
    expectSameBytes(ours, mpEncode(doc), name);
    expectSameBytes(encode(doc), ours, name + ' encode()');
    // no larger than msgpackr's output
    expect(ours.length).toBeLessThanOrEqual(msgpackr.pack(doc).length);
    // decoders agree both ways
    expect(unpack(ours)).toEqual(doc);
    expect(msgpackr.unpack(ours)).toEqual(doc);
    expect(unpack(msgpackr.pack(doc))).toEqual(doc);
    expect(unpack(mrPlain.pack(doc))).toEqual(doc);
    expect(unpack(mpEncode(doc))).toEqual(doc);
    // and once more, after other documents went through the decoder
    expect(unpack(ours)).toEqual(doc);
  });
});

describe('arrays of numbers (their leading numbers packed as one run)', () => {
  const mrVar = new msgpackr.Packr({ useRecords: false, variableMapSize: true });
  const edges = [0, -0, 1, 127, 128, 255, 256, 65535, 65536, 4294967295, 4294967296, -1, -32, -33, -128, -129,
    -32768, -32769, -2147483648, -2147483649, 0.5, -0.5, NaN, Infinity, -Infinity, 1e300, 2 ** 53, -(2 ** 53), 5e-324,
    // fractions with few mantissa bits (C tests the low bits first), and just outside the integer range
    1.5, -2.5, 0.25, 4294967295.5, -2147483648.5, 2 ** 32, 0.1];
  test('every form msgpackr chooses, at every length, and runs that stop at a non-number', () => {
    for (let n = 0; n <= edges.length; n++) {
      const a = edges.slice(0, n);
      expectSameBytes(pack(a), mrVar.pack(a), 'edges ' + n);
      expectSameBytes(pack({ a, b: [a, 'x'] }), mrVar.pack({ a, b: [a, 'x'] }), 'nested ' + n);
      for (const odd of ['s', undefined, null, true, 1n, [1]]) {
        const b = [...a, odd, 7, 8.5];
        expectSameBytes(pack(b), mrVar.pack(b), `edges ${n} then ${String(odd)}`);
      }
    }
  });
  test('fast-check: arrays of doubles and integers', () => {
    fc.assert(fc.property(fc.array(fc.oneof(fc.double(), fc.integer(), fc.maxSafeInteger()), { maxLength: 40 }), (a) => {
      expectSameBytes(pack(a), mrVar.pack(a), 'array');
    }), { numRuns: 300 });
  });
});
