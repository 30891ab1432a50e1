// CBOR round trips (fast-check) and cross-decoding against cbor-x in both directions.
//
// cbor-x behaviours taken as the reference (cbor-x 1.6.9, plain `encode`/`decode` and
// new Encoder({ useRecords: false }), which write the same bytes):
//   - Uint8Array: tag 64 where Node's Buffer exists, a plain byte string elsewhere (cbor-x's
//     tagUint8Array default); a Buffer is always a plain byte string; byte strings decode to
//     Buffer in Node and Uint8Array elsewhere, tag 64 to Uint8Array.
//   - other typed arrays: RFC 8746 little-endian tags (68 Uint8ClampedArray, 69/70/71 Uint16/32/
//     BigUint64, 72 Int8, 77/78/79 Int16/32/BigInt64, 85/86 Float32/64); Set: tag 258; Map: tag 259.
//   - Date: tag 1, epoch seconds.  BigInt beyond 64 bits: tags 2/3.
//   - BigInt within 64 bits: an 8-byte head (1b/3b), and every 8-byte head decodes to BigInt.
//   - -0 (a plain number) is written as the integer 0.
// Where wirepack's contract differs from cbor-x (preferred float serialization, the deterministic
// encoder's shortest BigInt heads, Simple values, indefinite strings, Maps with non-string keys
// decoded by cbor-x into objects), the comparison avoids the difference or states it exactly;
// see the notes at each place.
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import * as cborx from 'cbor-x';
import { encode, decode, Encoder, Decoder, Tag } from 'wirepack/cbor';
import { hex } from './helpers/bytes.js';
import { ccanon, expectedRoundtrip, asWrittenByCborx } from './helpers/cbor.js';

import example4 from './vectors/example4.json';
import twitter from './vectors/example-twitter.json';

const RUNS = { numRuns: 300 };
const HAS_BUFFER = typeof globalThis.Buffer === 'function';
const cxPlain = new cborx.Encoder({ useRecords: false });
const deterministic = new Encoder({ deterministic: true });

const roundtrip = (v, enc = null) => decode(enc ? enc.encode(v) : encode(v));
const expectRoundtrip = (v, got) => expect(ccanon(got)).toEqual(ccanon(expectedRoundtrip(v)));
// deterministic encodings sort map keys (compare entries regardless of order) and write BigInts
// with the shortest head (small ones come back as numbers)
const expectSameUnordered = (v, got) =>
  expect(ccanon(got, { sortKeys: true })).toEqual(ccanon(expectedRoundtrip(v, { deterministic: true }), { sortKeys: true }));

// ------------------------------------------------------------------ generators
const anyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: fc.constantFrom('a', 'é', '€', '🍺', '\u0000', '\uffff', '\ud7ff', '\ue000'), maxLength: 100 }),
);
// cbor-x (like msgpackr) renames a '__proto__' key; keep it out of cross-implementation data.
const crossKey = fc.string({ maxLength: 12 }).filter((k) => k !== '__proto__');
const MS_RANGE = 8.64e15;
const anyDate = fc.date({ noInvalidDate: true, min: new Date(-MS_RANGE), max: new Date(MS_RANGE) });
// cbor-x decodes tag 1 with Math.round(seconds * 1000), exact to about 4e15 ms; and it reads an
// 8-byte integer head as a BigInt, which its Date extension cannot multiply: whole seconds beyond
// 2^32 fail in cbor-x. Cross-implementation dates stay inside both limits.
const crossDate = fc.date({ noInvalidDate: true, min: new Date(-4e12), max: new Date(4e12) });
const bigint = fc.oneof(
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n - 1n }),
  fc.bigInt({ min: -(2n ** 200n), max: 2n ** 200n }),
  fc.bigInt({ min: -(2n ** 54n), max: 2n ** 54n }),
);
const typedArray = fc.oneof(
  fc.int8Array({ maxLength: 20 }), fc.uint8ClampedArray({ maxLength: 20 }),
  fc.int16Array({ maxLength: 20 }), fc.uint16Array({ maxLength: 20 }),
  fc.int32Array({ maxLength: 20 }), fc.uint32Array({ maxLength: 20 }),
  fc.float32Array({ maxLength: 20 }), fc.float64Array({ maxLength: 20 }),
  fc.bigInt64Array({ maxLength: 10 }), fc.bigUint64Array({ maxLength: 10 }),
);
const nonStringKey = fc.oneof(
  fc.integer(), fc.integer({ min: -30, max: 30 }), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null),
  fc.array(fc.integer({ min: -5, max: 300 }), { maxLength: 3 }),
);
const mapOf = (value, key = fc.oneof(nonStringKey, fc.string({ maxLength: 8 })), firstKey = nonStringKey) =>
  fc.tuple(firstKey, value, fc.array(fc.tuple(key, value), { maxLength: 10 }))
    .map(([k0, v0, rest]) => new Map([[k0, v0], ...rest]));
const setOf = (value) => fc.array(value, { maxLength: 10 }).map((a) => new Set(a));

const jsonLeaf = fc.oneof(
  fc.constant(null), fc.boolean(), fc.integer(), fc.integer({ min: -300, max: 70000 }), fc.maxSafeInteger(),
  fc.double(), anyString,
);
const tree = (leaf, { key = fc.string({ maxLength: 12 }), maps = false, sets = false } = {}) =>
  fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf, tie('array'), tie('object'),
      ...(maps ? [tie('map')] : []), ...(sets ? [tie('set')] : []),
    ),
    array: fc.array(tie('value'), { maxLength: 12 }),
    object: fc.dictionary(key, tie('value'), { maxKeys: 12, noNullPrototype: true }),
    map: mapOf(tie('value')),
    set: setOf(fc.oneof(jsonLeaf, tie('array'))),
  })).value;

const everyLeaf = fc.oneof(
  jsonLeaf, fc.constant(undefined), anyDate, bigint, fc.uint8Array({ maxLength: 70 }), typedArray,
);

// ------------------------------------------------------------------ wirepack round trips
describe('round trips', () => {
  test('JSON values', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => {
      expectRoundtrip(v, roundtrip(v));
      expectSameUnordered(v, roundtrip(v, deterministic));
    }), RUNS);
  });

  test('every number, exactly (-0, NaN, infinities, integral doubles beyond 2^53 stay numbers)', () => {
    fc.assert(fc.property(fc.oneof(fc.double(), fc.integer(), fc.maxSafeInteger(), fc.double({ min: 2 ** 52, max: 2 ** 70 })), (n) => {
      const back = roundtrip(n);
      expect(typeof back).toBe('number');
      expect(Object.is(back, n)).toBe(true);
    }), { numRuns: 1000 });
    for (const n of [2 ** 53, 2 ** 60, -(2 ** 60), 2 ** 64, -(2 ** 64), 2 ** 63 + 2 ** 11, 1e19, -1e19, 1e300, Number.MAX_VALUE, 5e-324]) {
      const back = roundtrip(n);
      expect([typeof back, back], String(n)).toEqual(['number', n]);
    }
  });

  test('BigInt: comes back as the same BigInt, any size (8-byte heads, then bignums)', () => {
    fc.assert(fc.property(bigint, (b) => {
      expect(roundtrip(b)).toBe(b);
    }), { numRuns: 1000 });
  });

  test('Dates, to the millisecond, over the whole Date range', () => {
    fc.assert(fc.property(anyDate, (d) => {
      const back = roundtrip(d);
      expect(back).toBeInstanceOf(Date);
      expect(back.getTime()).toBe(d.getTime());
    }), { numRuns: 2000 });
    for (const ms of [0, 1, -1, 999, -999, 1000, -1000, 1363896240500, 8.64e15, -8.64e15, 8.64e15 - 1, -8.64e15 + 1, 4294967295000, 4294967296000, -4294967296000, 4401059755860314]) {
      expect(roundtrip(new Date(ms)).getTime(), String(ms)).toBe(ms);
    }
    const bad = roundtrip(new Date(NaN));
    expect(bad).toBeInstanceOf(Date);
    expect(bad.getTime()).toBeNaN();
  });

  test('Uint8Array and Buffer come back as bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (u8) => {
      const b = encode(u8);
      // tag 64 where Buffer exists (Node), as cbor-x; a plain byte string in browsers
      expect(hex(b.subarray(0, 2)) === 'd840').toBe(HAS_BUFFER);
      const back = decode(b);
      expect(back).toBeInstanceOf(Uint8Array);
      expect(back.constructor).toBe(Uint8Array);
      expect(hex(back)).toBe(hex(u8));
    }), RUNS);
    if (HAS_BUFFER) {
      const buf = globalThis.Buffer.from([1, 2, 3]);
      expect(hex(encode(buf))).toBe('43010203');
      expect(hex(roundtrip(buf))).toBe('010203');
    }
  });

  test('typed arrays keep their class and contents (also at odd input offsets)', () => {
    fc.assert(fc.property(typedArray, fc.string({ maxLength: 3 }), (ta, pad) => {
      expect(ccanon(roundtrip(ta))).toEqual(ccanon(ta));
      // after a string of odd length the payload is unaligned in the input
      const back = roundtrip([pad, ta, pad]);
      expect(ccanon(back)).toEqual(ccanon([pad, ta, pad]));
    }), RUNS);
    // views into a larger buffer: only the view is written
    const base = new Uint16Array([1, 2, 3, 4, 5]);
    const view = new Uint16Array(base.buffer, 2, 3);
    expect(ccanon(roundtrip(view))).toEqual(ccanon(new Uint16Array([2, 3, 4])));
  });

  test('Sets', () => {
    fc.assert(fc.property(setOf(fc.oneof(jsonLeaf, fc.array(fc.integer(), { maxLength: 3 }))), (s) => {
      const back = roundtrip(s);
      expect(back).toBeInstanceOf(Set);
      expect(ccanon(back)).toEqual(ccanon(s));
    }), RUNS);
  });

  test('Maps with only string keys stay Maps (tag 259); without the tag they are objects', () => {
    const m = new Map([['a', 1], ['b', [2]]]);
    expect(hex(encode(m))).toBe('d90103a26161016162' + '8102');
    expect(ccanon(roundtrip(m))).toEqual(ccanon(m));
    expect(ccanon(roundtrip(m, deterministic))).toEqual(ccanon(m));
    expect(ccanon(decode(new Uint8Array([0xd9, 0x01, 0x03, 0xa0])))).toEqual(ccanon(new Map()));
    const plain = roundtrip(m, new Encoder({ useTag259ForMaps: false }));
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(plain).toEqual({ a: 1, b: [2] });
  });

  test('Maps with non-string keys', () => {
    fc.assert(fc.property(mapOf(jsonLeaf), (m) => {
      const back = roundtrip(m);
      expect(back).toBeInstanceOf(Map);
      expect(ccanon(back)).toEqual(ccanon(m));
    }), RUNS);
  });

  test('undefined, alone, in arrays and as object values', () => {
    expect(hex(encode(undefined))).toBe('f7');
    expect(roundtrip(undefined)).toBe(undefined);
    expect(ccanon(roundtrip([undefined, 1, undefined]))).toEqual(ccanon([undefined, 1, undefined]));
    const o = roundtrip({ a: undefined, b: 1 });
    expect(Object.keys(o)).toEqual(['a', 'b']);
    expect(o.a).toBe(undefined);
  });

  test('Tags round-trip; tag 55799 is ignored', () => {
    const t = roundtrip(new Tag('x', 99999));
    expect(t).toBeInstanceOf(Tag);
    expect([t.tag, t.value]).toEqual([99999, 'x']);
    expect(hex(encode(new Tag([1, 'a'], 1000)))).toBe('d903e8820161' + '61');
    // tag numbers from 2^24 - 2 (past the tape's inline field) to 2^64 - 1, numbers and BigInts:
    // the shortest head (cbor-x writes tags of 2^32 and more as their low 32 bits)
    const big = [[0xfffffe, 'da00fffffe'], [0xffffff, 'da00ffffff'], [0x1000000, 'da01000000'], [0xffffffff, 'daffffffff'],
      [2 ** 32, 'db0000000100000000'], [2 ** 53 - 1, 'db001fffffffffffff'], [2n ** 32n, 'db0000000100000000'],
      [2n ** 63n, 'db8000000000000000'], [2n ** 64n - 1n, 'dbffffffffffffffff']];
    for (const [t, head] of big) expect(hex(encode(new Tag('x', t))), String(t)).toBe(head + '6178');
    expect(decode(new Uint8Array([0xd9, 0xd9, 0xf7, 0x01]))).toBe(1);
  });

  test("'__proto__' keys become own data properties", () => {
    const v = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    const back = roundtrip(v);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toEqual(['__proto__', 'a']);
    expect(({}).polluted).toBe(undefined);
    expect(back.polluted).toBe(undefined);
  });

  // large random trees (a few MB of CBOR over the runs): several seconds, more than the default 5 s
  test('nested values of every supported type', { timeout: 60000 }, () => {
    fc.assert(fc.property(tree(everyLeaf, { maps: true, sets: true }), (v) => {
      expectRoundtrip(v, roundtrip(v));
      expectSameUnordered(v, roundtrip(v, deterministic));
      expectRoundtrip(v, new Decoder().decode(new Encoder({ float64: true }).encode(v)));
    }), RUNS);
  });

  test('well-formed strings are exact UTF-8', () => {
    fc.assert(fc.property(anyString, (s) => {
      const b = encode(s);
      expect(hex(b).endsWith(hex(new TextEncoder().encode(s)))).toBe(true);
      expect(decode(b)).toBe(s);
    }), RUNS);
  });
});

// ------------------------------------------------------------------ cross-implementation
// Values both libraries agree on: no Simple, no '__proto__' keys, dates in cbor-x's exact range.
const crossLeaf = fc.oneof(
  jsonLeaf, fc.constant(undefined), crossDate, bigint, fc.uint8Array({ maxLength: 70 }), typedArray,
);
const crossValue = tree(crossLeaf, { key: crossKey, sets: true });
// Maps: cbor-x decodes an untagged map with non-string keys into an object (keys stringified);
// Maps are compared in their own test below.
// cbor-x reads the 8-byte heads of wirepack's default BigInts as BigInts, and the deterministic
// encoder's shorter heads (BigInts in [-2^32, 2^32)) as numbers: both compare exactly.
const cxSame = (got, want) => expect(ccanon(got)).toEqual(ccanon(expectedRoundtrip(want)));

describe('cross-decoding with cbor-x', () => {
  test('wirepack encode -> cbor-x decode', () => {
    fc.assert(fc.property(crossValue, (v) => {
      cxSame(cborx.decode(encode(v)), v);
      const det = cborx.decode(deterministic.encode(v));
      expect(ccanon(det, { sortKeys: true })).toEqual(ccanon(expectedRoundtrip(v, { deterministic: true }), { sortKeys: true }));
    }), RUNS);
  }, 60000); // fast-check over nested values: slow on a busy 2-core machine

  test('cbor-x encode -> wirepack decode', () => {
    fc.assert(fc.property(crossValue, (v) => {
      const a = cborx.encode(v);
      const b = cxPlain.encode(v);
      expect(hex(a)).toBe(hex(b));
      expectRoundtrip(asWrittenByCborx(v), decode(a));
    }), RUNS);
  }, 60000); // fast-check over nested values: slow on a busy 2-core machine

  test('Maps, both directions', () => {
    // integer and string keys only: cbor-x cannot turn other keys into object properties
    const intOrString = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.string({ maxLength: 8 }).filter((k) => k !== '__proto__'));
    fc.assert(fc.property(mapOf(jsonLeaf, intOrString, fc.integer({ min: -1000, max: 1000 })), (m) => {
      fc.pre(new Set([...m.keys()].map(String)).size === m.size);
      // cbor-x writes tag 259 for every Map: wirepack decodes that to a Map
      const fromCx = decode(cborx.encode(m));
      expect(fromCx).toBeInstanceOf(Map);
      expect(ccanon(fromCx)).toEqual(ccanon(asWrittenByCborx(m)));
      // wirepack tags Maps with 259 by default: cbor-x reads them as Maps
      const back = cborx.decode(encode(m));
      expect(back).toBeInstanceOf(Map);
      expect(ccanon(back)).toEqual(ccanon(m));
      // without the tag, cbor-x turns the integer keys into property names
      const untagged = cborx.decode(new Encoder({ useTag259ForMaps: false }).encode(m));
      expect(ccanon(untagged)).toEqual(ccanon(Object.fromEntries([...m].map(([k, x]) => [String(k), x]))));
    }), RUNS);
  });

  test('a string-keyed Map written by cbor-x (tag 259) decodes to a Map', () => {
    const m = new Map([['a', 1], ['b', [2]]]);
    const bytes = cborx.encode(m);
    expect(hex(bytes).startsWith('d90103')).toBe(true);
    expect(ccanon(decode(bytes))).toEqual(ccanon(m));
  });

  test('byte strings and typed arrays: the same tags as cbor-x', () => {
    const u8 = new Uint8Array([1, 2, 3]);
    // cbor-x tags a Uint8Array with 64 only where Node's Buffer exists
    expect(hex(encode(u8))).toBe(hex(cborx.encode(u8)));
    expect(hex(encode(u8))).toBe(HAS_BUFFER ? 'd84043010203' : '43010203');
    for (const ta of [
      new Uint8ClampedArray([1, 2]), new Int8Array([-1, 2]), new Uint16Array([1, 0xffff]), new Int16Array([-2, 3]),
      new Uint32Array([1, 2 ** 32 - 1]), new Int32Array([-1, 5]), new Float32Array([1.5, -0]), new Float64Array([Math.PI, NaN]),
      new BigInt64Array([-1n, 2n ** 63n - 1n]), new BigUint64Array([2n ** 64n - 1n, 0n]), new Uint16Array(0),
    ]) {
      expect(hex(encode(ta)), ta.constructor.name).toBe(hex(cborx.encode(ta)));
      expect(ccanon(cborx.decode(encode(ta)))).toEqual(ccanon(ta));
      expect(ccanon(decode(cborx.encode(ta)))).toEqual(ccanon(ta));
    }
  });

  test('typed array subclasses: the tag of the built-in class they extend, as cbor-x (a Uint8Array subclass none)', () => {
    class Vec extends Float32Array {}
    class Deeper extends Vec {}
    class Bytes extends Uint8Array {}
    class Clamped extends Uint8ClampedArray {}
    for (const ta of [new Vec([1.5, -2]), new Deeper([3]), new Bytes([1, 2]), new Clamped([7]), new DataView(new ArrayBuffer(2))]) {
      expect(hex(encode(ta)), ta.constructor.name).toBe(hex(cborx.encode(ta)));
    }
    expect(hex(encode(new Vec([1.5])))).toBe('d855440000c03f');
    const back = decode(encode([new Vec([1.5]), new Clamped([7])]));
    expect(back.map((b) => b.constructor)).toEqual([Float32Array, Uint8ClampedArray]);
  });

  test('a SharedArrayBuffer: a byte string of its bytes, as an ArrayBuffer (cbor-x writes {}, and they are lost)', () => {
    if (typeof SharedArrayBuffer !== 'function') return; // (a page that is not cross-origin isolated)
    const sab = new SharedArrayBuffer(2);
    new Uint8Array(sab).set([7, 8]);
    expect(hex(cborx.encode(sab))).toBe('b90000');
    expect(hex(encode(sab))).toBe('420708');
    expect(hex(encode(new ArrayBuffer(2)))).toBe('420000');
  });

  test('Float16Array: tag 84 (80 big-endian) where the runtime has one (cbor-x writes an array of its numbers); a Tag elsewhere', () => {
    const le = new Uint8Array([0xd8, 84, 0x46, 0x00, 0x3e, 0x00, 0xc0, 0xff, 0x7b]); // 1.5, -2, 65504
    const be = new Uint8Array([0xd8, 80, 0x46, 0x3e, 0x00, 0xc0, 0x00, 0x7b, 0xff]);
    const F16 = /** @type {any} */ (globalThis).Float16Array;
    if (typeof F16 === 'function') {
      expect(hex(encode(new F16([1.5, -2, 65504])))).toBe(hex(le));
      for (const bytes of [le, be]) {
        const back = decode(bytes);
        expect(back).toBeInstanceOf(F16);
        expect([...back]).toEqual([1.5, -2, 65504]);
      }
      expect(cborx.decode(encode(new F16([1.5])))).toBeInstanceOf(cborx.Tag); // (cbor-x: a Tag, lossless)
    } else {
      for (const bytes of [le, be]) {
        const back = decode(bytes);
        expect(back).toBeInstanceOf(Tag);
        expect(hex(encode(back))).toBe(hex(bytes));
      }
    }
  });

  test('typed arrays are views of the input when aligned and in machine order (as cbor-x), else copies', () => {
    const body = new Uint8Array(new Float64Array([1.5, -2]).buffer);
    // [null, 86(h'..')]: the float64 payload starts at byte 5 (misaligned): a copy
    const misaligned = new Uint8Array([0x82, 0xf6, 0xd8, 0x56, 0x50, ...body]);
    const [, a] = decode(misaligned);
    expect(a).toBeInstanceOf(Float64Array);
    expect(Array.from(a)).toEqual([1.5, -2]);
    expect(a.buffer).not.toBe(misaligned.buffer);
    // [_ null, null, null, null, 86(h'..')]: the payload starts at byte 8: a view
    const aligned = new Uint8Array(32);
    aligned.set([0x9f, 0xf6, 0xf6, 0xf6, 0xf6, 0xd8, 0x56, 0x50]);
    aligned.set(body, 8);
    aligned[24] = 0xff;
    const got = decode(aligned.subarray(0, 25));
    expect(Array.from(got[4])).toEqual([1.5, -2]);
    expect(got[4].buffer).toBe(aligned.buffer);
    const copied = new Decoder({ copyBuffers: true }).decode(aligned.subarray(0, 25));
    expect(Array.from(copied[4])).toEqual([1.5, -2]);
    expect(copied[4].buffer).not.toBe(aligned.buffer);
    // big-endian float64 (tag 82): a copy, with the bytes swapped
    expect(Array.from(decode(new Uint8Array([0xd8, 0x52, 0x48, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0])))).toEqual([1.5]);
  });

  test('typed-array tags (64-87) read from the tape directly = through decodeTag', () => {
    // a Decoder whose decodeTag is overridden takes the general way (the bytes as a Buffer or
    // Uint8Array, then decodeTag); the default one makes the typed array from the tape's entry
    class ThroughDecodeTag extends Decoder {
      decodeTag(tag, value, reader) {
        return super.decodeTag(tag, value, reader);
      }
    }
    const head = (major, n) => (n < 24 ? [(major << 5) | n] : [(major << 5) | 24, n]);
    const item = fc.record({
      tag: fc.integer({ min: 62, max: 89 }),
      bytes: fc.uint8Array({ maxLength: 40 }),
      pad: fc.integer({ min: 0, max: 9 }),
      copyBuffers: fc.boolean(),
    });
    fc.assert(fc.property(item, ({ tag, bytes, pad, copyBuffers }) => {
      // [text of `pad` bytes, tag(bytes)]: pad moves the payload's offset in the input
      const input = new Uint8Array([0x82, ...head(3, pad), ...new Array(pad).fill(0x61), ...(tag < 24 ? [0xc0 | tag] : [0xd8, tag]), ...head(2, bytes.length), ...bytes]);
      const fast = new Decoder({ copyBuffers }).decode(input)[1];
      const slow = new ThroughDecodeTag({ copyBuffers }).decode(input)[1];
      expect(Object.getPrototypeOf(fast)).toBe(Object.getPrototypeOf(slow));
      expect(ccanon(fast)).toEqual(ccanon(slow));
      const viewOf = (x) => ArrayBuffer.isView(x) && x.buffer === input.buffer;
      expect(viewOf(fast)).toBe(viewOf(slow));
      if (ArrayBuffer.isView(fast)) expect(fast.byteOffset).toBe(slow.byteOffset);
    }), { numRuns: 2000 });
  });

  test('tag 1 (epoch seconds) over a number: the Date C makes = the one decodeTag makes', () => {
    // the default Decoder lets C turn tag 1 over a number of up to 32 bits, or a float, into a
    // Date entry; one whose decodeTag is overridden gets the number and calls secondsToMs
    class ThroughDecodeTag extends Decoder {
      decodeTag(tag, value, reader) {
        return super.decodeTag(tag, value, reader);
      }
    }
    const be = (n, v) => Array.from({ length: n }, (_, i) => Number((BigInt(v) >> BigInt(8 * (n - 1 - i))) & 0xffn));
    const f64 = (x) => { const b = new DataView(new ArrayBuffer(8)); b.setFloat64(0, x); return [0xfb, ...new Uint8Array(b.buffer)]; };
    const f32 = (x) => { const b = new DataView(new ArrayBuffer(4)); b.setFloat32(0, x); return [0xfa, ...new Uint8Array(b.buffer)]; };
    const intHead = (major, v) => (v < 24n ? [(major << 5) | Number(v)] : v < 256n ? [(major << 5) | 24, ...be(1, v)] : v < 65536n ? [(major << 5) | 25, ...be(2, v)] : v < 2n ** 32n ? [(major << 5) | 26, ...be(4, v)] : [(major << 5) | 27, ...be(8, v)]);
    const number = fc.oneof(
      fc.double().map(f64),
      // whole milliseconds (what Dates are), where s * 1000 can round away from them
      fc.maxSafeInteger().map((ms) => f64(ms / 1000)),
      fc.integer({ min: -(2 ** 31), max: 2 ** 31 }).map((ms) => f64(ms / 1000)),
      fc.float().map(f32),
      fc.integer({ min: 0, max: 0xffff }).map((h) => [0xf9, h >> 8, h & 0xff]),
      fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map((v) => intHead(0, v)),
      fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map((v) => intHead(1, v)),
      fc.constantFrom([0x1a, 0xff, 0xff, 0xff, 0xff], [0x3a, 0x7f, 0xff, 0xff, 0xff], [0x3a, 0x80, 0, 0, 0], [0xfb, 0x41, 0xd5, 0x78, 0xc9, 0xa8, 0x9f, 0xbe, 0x77]),
      // seconds whose product by 1000 rounds one past the millisecond (secondsToMs moves back)
      fc.constantFrom(-4399114247887222 / 1000, 4491800617641486 / 1000, -4477287190159.02, 4401548927291.322).map(f64),
    );
    const options = fc.constantFrom({}, { useFloat32: 3 }, { int64AsType: 'string' }, { int64AsType: 'bigint' });
    fc.assert(fc.property(number, options, fc.boolean(), (num, opts, asKey) => {
      // the Date alone, and as a map key (a Map, keys not all text) next to a text key
      const input = new Uint8Array(asKey ? [0xa2, 0x61, 0x61, 0x01, 0xc1, ...num, 0x02] : [0x82, 0xc1, ...num, 0x01]);
      const fast = new Decoder(opts).decode(input);
      const slow = new ThroughDecodeTag(opts).decode(input);
      const pick = (x) => (asKey ? [...x.keys()][1] : x[0]);
      const [a, b] = [pick(fast), pick(slow)];
      expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b));
      if (a instanceof Date) expect(Object.is(a.getTime(), b.getTime())).toBe(true);
      else expect(a).toEqual(b);
    }), { numRuns: 3000 });
    // and cut short after the tag, or inside the number: the same error either way
    for (const cut of [[0xc1], [0xc1, 0x1a, 0x55], [0xc1, 0xfb, 0x41, 0xd5], [0xc1, 0xf9, 0x7c]]) {
      const errorOf = (D) => { try { new D().decode(new Uint8Array(cut)); } catch (e) { return [e.code, e.offset, e.incomplete]; } return null; };
      expect(errorOf(Decoder)).toEqual(errorOf(ThroughDecodeTag));
      expect(errorOf(Decoder)).not.toBeNull();
    }
  });

  test('Dates, BigInts and Sets: the same tags as cbor-x', () => {
    // cbor-x's bytes for every Date: c1 1a ssssssss for whole seconds in [0, 2^32) (below 2^16 s
    // too, where the head is not the shortest), else float64 (negative and later seconds, and
    // milliseconds; NaN for an invalid Date), whatever float options say; with useTimestamp32,
    // milliseconds dropped in [0, 2^32) s. Deterministic encoding: the shortest forms.
    const ms = [0, 1000, 65535000, 65536000, 1363896240000, 1363896240001, 4294967295000, 4294967296000, -1000, -1, 1.5, NaN];
    for (const o of [{}, { useTimestamp32: true }, { float64: true }, { useFloat32: 1 }]) {
      for (const t of ms) expect(hex(new Encoder({ ...o, useRecords: false }).encode(new Date(t))), `${t} ${JSON.stringify(o)}`).toBe(hex(new cborx.Encoder({ ...o, useRecords: false }).encode(new Date(t))));
    }
    expect(hex(encode(new Date(0)))).toBe('c11a00000000');
    expect(hex(new Encoder({ deterministic: true }).encode(new Date(0)))).toBe('c100');
    expect(hex(new Encoder({ deterministic: true }).encode(new Date(-1000)))).toBe('c120');
    expect(hex(new Encoder({ deterministic: true }).encode(new Date(1500)))).toBe('c1f93e00');
    // BigInts beyond 64 bits: tags 2/3 with the minimal big-endian magnitude
    for (const b of [2n ** 64n, -(2n ** 64n) - 1n, 2n ** 100n, -(2n ** 100n)]) expect(hex(encode(b))).toBe(hex(cborx.encode(b)));
    // BigInts within 64 bits: 8-byte heads whatever the value, as cbor-x
    for (const b of [0n, 1n, -1n, 2n ** 32n - 1n, -(2n ** 32n), 2n ** 63n, -(2n ** 63n) - 1n, 2n ** 64n - 1n]) {
      expect(hex(encode(b)), String(b)).toBe(hex(cborx.encode(b)));
      expect(cborx.decode(encode(b)), String(b)).toBe(b);
      expect(decode(cborx.encode(b)), String(b)).toBe(b);
    }
    expect(hex(encode(new Set([1, 'a'])))).toBe(hex(cborx.encode(new Set([1, 'a']))));
  });

  test('documented differences from cbor-x', () => {
    // cbor-x writes -2^64 as tag 3 (its 64-bit range check is off by one); it fits major type 1
    expect(hex(encode(-(2n ** 64n)))).toBe('3bffffffffffffffff');
    expect(hex(cborx.encode(-(2n ** 64n)))).toBe('c348ffffffffffffffff');
    expect(decode(cborx.encode(-(2n ** 64n)))).toBe(-(2n ** 64n));
    // BigInts within 64 bits: both write an 8-byte head by default and read every 8-byte head as
    // a BigInt; wirepack's deterministic encoder writes the shortest head (RFC 8949 4.2.1), so a
    // small BigInt comes back from it as a number (from either decoder)
    expect(hex(encode(1n))).toBe('1b0000000000000001');
    expect(hex(cborx.encode(1n))).toBe('1b0000000000000001');
    expect(decode(cborx.encode(1n))).toBe(1n);
    expect(cborx.decode(new Uint8Array([0x1b, 0, 0, 0, 0, 0, 0, 0, 1]))).toBe(1n);
    expect(hex(deterministic.encode(1n))).toBe('01');
    expect(decode(deterministic.encode(1n))).toBe(1);
    expect(cborx.decode(deterministic.encode(1n))).toBe(1);
    // numbers: cbor-x writes -0 as the integer 0 (wirepack: f98000), and integers in
    // [-2^32, -2^31) with 4-byte heads (wirepack: floats); 4-byte heads decode to numbers
    expect(hex(cborx.encode(-0))).toBe('00');
    expect(hex(encode(-0))).toBe('f98000');
    expect(hex(cborx.encode(-(2 ** 32)))).toBe('3affffffff');
    expect(hex(encode(-(2 ** 32)))).toBe('facf800000');
    for (const n of [-(2 ** 32), -(2 ** 31) - 1, -(2 ** 31), 2 ** 32 - 1]) {
      expect(decode(cborx.encode(n)), String(n)).toBe(n);
      expect(cborx.decode(encode(n)), String(n)).toBe(n);
    }
    // cbor-x writes every non-integral number as float64; wirepack the shortest exact float
    expect(hex(encode(1.5))).toBe('f93e00');
    expect(hex(cborx.encode(1.5))).toBe('fb3ff8000000000000');
    // cbor-x throws on simple values and indefinite-length strings; wirepack decodes them
    expect(() => cborx.decode(new Uint8Array([0xf0]))).toThrow();
    expect(() => cborx.decode(new Uint8Array([0x7f, 0x61, 0x61, 0xff]))).toThrow();
    expect(decode(new Uint8Array([0x7f, 0x61, 0x61, 0xff]))).toBe('a');
    // a map with an integer key: both make an object with the key as a property name
    expect(cborx.decode(new Uint8Array([0xa1, 0x01, 0x02]))).toEqual({ 1: 2 });
    expect(decode(new Uint8Array([0xa1, 0x01, 0x02]))).toEqual({ 1: 2 });
    // a key with no property-name form: cbor-x throws, wirepack gives a Map
    expect(() => cborx.decode(new Uint8Array([0xa1, 0x81, 0x01, 0x02]))).toThrow();
    expect(decode(new Uint8Array([0xa1, 0x81, 0x01, 0x02]))).toBeInstanceOf(Map);
  });
});

describe('fixtures (tests/vectors)', () => {
  test.each([['example4.json', example4], ['example-twitter.json', twitter]])('%s', (_name, doc) => {
    const bytes = encode(doc);
    expect(decode(bytes)).toEqual(doc);
    expect(ccanon(decode(bytes))).toEqual(ccanon(doc));
    // wirepack writes numbers beyond 32 bits as floats, so cbor-x reads numbers back
    expect(ccanon(cborx.decode(bytes))).toEqual(ccanon(doc));
    expect(ccanon(decode(cborx.encode(doc)))).toEqual(ccanon(doc));
    expect(ccanon(decode(cxPlain.encode(doc)))).toEqual(ccanon(doc));
    const det = deterministic.encode(doc);
    expect(ccanon(decode(det), { sortKeys: true })).toEqual(ccanon(doc, { sortKeys: true }));
    expect(hex(deterministic.encode(decode(det)))).toBe(hex(det));
    expect(ccanon(new Decoder().decode(new Encoder({ float64: true }).encode(doc)))).toEqual(ccanon(doc));
  });
});

// An array's leading numbers go to C as one run (not with deterministic or indefinite-length
// encoding, nor alwaysUseFloat / useFloat32); each must come out as the number alone would.
describe('arrays of numbers (their leading numbers as one run)', () => {
  const edges = [0, -0, 1, 23, 24, 255, 256, 65535, 65536, 4294967295, 4294967296, -1, -24, -25, -256, -257,
    -65536, -65537, -2147483648, -2147483649, 0.5, -0.5, 1.5, -2.5, 0.25, 4294967295.5, -2147483648.5, 65504,
    100000, 0.1, 1e300, 5e-324, 2 ** 53, NaN, Infinity, -Infinity];
  const cat = (parts) => parts.map((b) => hex(b)).join('');
  const head = (n) => (n < 24 ? (0x80 | n).toString(16) : '98' + n.toString(16).padStart(2, '0'));
  const encoders = [['encode', { encode }], ['float64', new Encoder({ float64: true })], ['deterministic', deterministic],
    ['records', new Encoder({ useRecords: true })], ['alwaysUseFloat', new Encoder({ alwaysUseFloat: true })]];
  test.each(encoders)('%s: every length, and runs cut by each kind of non-number', (_name, enc) => {
    for (let n = 0; n <= edges.length; n++) {
      const a = edges.slice(0, n);
      expect(hex(enc.encode(a)), 'edges ' + n).toBe(head(n) + cat(a.map((x) => enc.encode(x))));
      for (const odd of ['s', undefined, null, true, 1n, [1]]) {
        const b = [...a, odd, 7, 8.5];
        expect(hex(enc.encode(b)), `edges ${n} then ${String(odd)}`).toBe(head(b.length) + cat(b.map((x) => enc.encode(x))));
      }
    }
  });
  test('fast-check: arrays of doubles and integers, as the numbers alone', () => {
    fc.assert(fc.property(fc.array(fc.oneof(fc.double(), fc.integer(), fc.maxSafeInteger()), { maxLength: 40 }), (a) => {
      expect(hex(encode(a))).toBe(head(a.length) + cat(a.map((x) => encode(x))));
    }), { numRuns: 300 });
  });
});
