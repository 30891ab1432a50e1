// wirepack/msgpack against @msgpack/msgpack itself: the same bytes for every value and option,
// the same values (and the same kind of error) for every input, the same ExtensionCodec, stream
// and error API. Where wirepack/msgpack differs on purpose (its module comment lists it), the
// tests below say so.
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import * as lib from '@msgpack/msgpack';
import * as ours from 'wirepack/msgpack';
import { Packr, Unpackr, unpack, DecodeError as WirepackDecodeError } from 'wirepack';
import { hex, fromHex } from './helpers/bytes.js';

const RUNS = { numRuns: 400 };
const u8 = (...b) => new Uint8Array(b);

// well-formed strings only: for unpaired surrogates the library writes WTF-8 below 50 characters
// and U+FFFD above (wirepack: U+FFFD, as TextEncoder)
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: fc.constantFrom('a', 'é', '€', '🍺', '\u0000'), maxLength: 300 }),
);
const number = fc.oneof(
  fc.integer(), fc.maxSafeInteger(), fc.double(), fc.integer({ min: -40, max: 300 }),
  fc.constantFrom(2 ** 32, 2 ** 32 - 1, -(2 ** 31), -(2 ** 31) - 1, 2 ** 53 - 1, -(2 ** 53) + 1, 2 ** 53, -0, NaN, Infinity),
);
const date = fc.oneof(
  fc.date({ noInvalidDate: true, min: new Date(-8.64e15), max: new Date(8.64e15) }),
  fc.integer({ min: 0, max: 2 ** 34 + 10 }).map((s) => new Date(s * 1000)),
  fc.constant(new Date(NaN)),
);
const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 70 }),
  fc.int16Array({ maxLength: 10 }), fc.float64Array({ maxLength: 4 }),
  fc.uint8Array({ maxLength: 10 }).map((b) => new DataView(b.buffer)),
);
// objects the library writes as the map of their own enumerable keys
const other = fc.constantFrom(new Map([['a', 1]]), new Set([1]), new Error('x'), /re/g, new ArrayBuffer(4), Object.assign(new String('ab')), new (class P { constructor() { this.q = 1; } })());
const leaf = fc.oneof(fc.constant(null), fc.constant(undefined), fc.boolean(), number, text, date, bytes, other);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 20 }),
  object: fc.dictionary(fc.string({ maxLength: 12 }), tie('value'), { maxKeys: 20 }),
}));
const bigints = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }), number, text, tie('a')),
  a: fc.array(tie('v'), { maxLength: 8 }),
})).v;

const OPTIONS = [undefined, { sortKeys: true }, { ignoreUndefined: true }, { forceFloat32: true }, { forceIntegerToFloat: true },
  { forceIntegerToFloat: true, forceFloat32: true }, { useBigInt64: true }, { sortKeys: true, ignoreUndefined: true, maxDepth: 7 }];

/** ExtData of either module as a plain record (the classes differ), through arrays and objects. */
const norm = (v) => {
  if (v instanceof lib.ExtData || v instanceof ours.ExtData) return { extType: v.type, data: v.data };
  if (Array.isArray(v)) return v.map(norm);
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const o = {};
    for (const k of Object.keys(v)) Object.defineProperty(o, k, { value: norm(v[k]), enumerable: true, writable: true, configurable: true });
    return o;
  }
  return v;
};
/**
 * Deep equality, but Dates within a millisecond of each other are equal: for a timestamp below the
 * millisecond wirepack's Date is the floor of the instant, the library's sec * 1e3 + nsec / 1e6
 * in doubles (rounded, then truncated toward zero by the Date: 2147483647 s + 999999999 ns is
 * the next second there).
 */
const similar = (x, y) => {
  if (x instanceof Date && y instanceof Date) return Object.is(x.getTime(), y.getTime()) || Math.abs(x.getTime() - y.getTime()) <= 1;
  if (ArrayBuffer.isView(x) || ArrayBuffer.isView(y)) return ArrayBuffer.isView(x) && ArrayBuffer.isView(y) && Object.getPrototypeOf(x) === Object.getPrototypeOf(y) && hex(x) === hex(y);
  if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return Object.is(x, y);
  if (Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) return false;
  const kx = Object.keys(x), ky = Object.keys(y);
  return kx.length === ky.length && kx.every((k, i) => k === ky[i] && similar(x[k], y[k]));
};
/**
 * Whether the byte at `at` heads an array or map whose declared count is more than the bytes
 * left (each element takes one at least): wirepack reports that input as truncated there, where
 * the library reads on and may fail on a malformed element first.
 */
const countPastEnd = (input, at) => {
  const c = input[at], left = input.length - at;
  if ((c >= 0x80 && c <= 0x8f) || (c >= 0x90 && c <= 0x9f)) return (c & 0xf) * (c < 0x90 ? 2 : 1) > left - 1;
  const wide = c === 0xdd || c === 0xdf, head = wide ? 5 : 3;
  if (!(c === 0xdc || c === 0xde || wide) || left < head) return false;
  const n = wide ? ((input[at + 1] << 24) | (input[at + 2] << 16) | (input[at + 3] << 8) | input[at + 4]) >>> 0 : (input[at + 1] << 8) | input[at + 2];
  return n * (c === 0xde || c === 0xdf ? 2 : 1) > left - head;
};
/** The library's result or its error, as a comparable record. */
const run = (f) => {
  try {
    return { value: norm(f()) };
  } catch (e) {
    return { error: e instanceof RangeError ? 'RangeError' : e instanceof lib.DecodeError || e instanceof ours.DecodeError ? 'DecodeError' : 'Error', message: e.message, offset: e.offset };
  }
};

describe('encode: the bytes @msgpack/msgpack writes', () => {
  test('random values, every option', () => {
    fc.assert(fc.property(value, fc.constantFrom(...OPTIONS), (v, o) => {
      const a = run(() => hex(ours.encode(v, o))), b = run(() => hex(lib.encode(v, o)));
      if (b.error) expect(a.error).toBe(b.error);
      else expect(a).toEqual(b);
    }), RUNS);
  });
  test('BigInts with useBigInt64 (and without: an error, as in the library)', () => {
    fc.assert(fc.property(bigints, (v) => {
      expect(hex(ours.encode(v, { useBigInt64: true }))).toBe(hex(lib.encode(v, { useBigInt64: true })));
    }), RUNS);
    expect(() => ours.encode(1n)).toThrow('Unrecognized object: [object BigInt]');
    expect(() => lib.encode(1n)).toThrow('Unrecognized object: [object BigInt]');
    // outside 64 bits: a RangeError (the library wraps the value: data lost)
    expect(() => ours.encode(2n ** 64n, { useBigInt64: true })).toThrow(RangeError);
  });
  test('each integer and float form at its edges', () => {
    const edges = [0, 127, 128, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1, -1, -32, -33, -128, -129, -32768, -32769, -(2 ** 31), -(2 ** 31) - 1, -(2 ** 53) + 1, 0.5, -0, 1e300, 2 ** 64];
    for (const o of OPTIONS) for (const n of edges) expect(hex(ours.encode(n, o)), `${n} ${JSON.stringify(o)}`).toBe(hex(lib.encode(n, o)));
    // arrays of numbers (wirepack's number runs) too, the 64-bit ones among them
    for (const o of OPTIONS) expect(hex(ours.encode(edges, o))).toBe(hex(lib.encode(edges, o)));
  });
  test('undefined is nil; no msgpackr extension, no toJSON', () => {
    expect(hex(ours.encode(undefined))).toBe('c0');
    // (json-pack's rules, which the shared walk also has, are not options here)
    expect(hex(ours.encode([undefined, 2 ** 40], { undefinedC1: true, wideIntegers: false }))).toBe('92c0cf0000010000000000');
    const withToJSON = new (class { constructor() { this.a = 2; } toJSON() { return 1; } })();
    expect(hex(ours.encode(withToJSON))).toBe(hex(lib.encode(withToJSON)));
    expect(hex(ours.encode(withToJSON))).toBe('81a16102');
    expect(() => lib.encode({ f: () => 1 })).toThrow('Unrecognized object: [object Function]');
    expect(() => ours.encode({ f: () => 1 })).toThrow('Unrecognized object: [object Function]');
    expect(() => ours.encode(Symbol('s'))).toThrow('Unrecognized object: [object Symbol]');
    for (const v of [new Set([1]), new Map([[1, 2]]), new Error('e'), /x/, new Int32Array([1, -1]), new ArrayBuffer(2)]) {
      expect(hex(ours.encode(v))).toBe(hex(lib.encode(v)));
    }
  });
  test('maxDepth: the same limit and message', () => {
    let deep = [1];
    for (let i = 0; i < 99; i++) deep = [deep];
    expect(hex(ours.encode(deep.slice(0, 0)))).toBe('90');
    expect(() => lib.encode(deep)).toThrow('Too deep objects in depth 101');
    expect(() => ours.encode(deep)).toThrow('Too deep objects in depth 101');
    expect(hex(ours.encode(deep[0]))).toBe(hex(lib.encode(deep[0])));
    expect(hex(ours.encode({ a: { b: {} } }, { maxDepth: 3 }))).toBe(hex(lib.encode({ a: { b: {} } }, { maxDepth: 3 })));
    // (a value past the limit fails even when it is empty, or the top value when the limit is 0)
    expect(() => lib.encode({ a: { b: {} } }, { maxDepth: 2 })).toThrow('Too deep objects in depth 3');
    expect(() => ours.encode({ a: { b: {} } }, { maxDepth: 2 })).toThrow('Too deep objects in depth 3');
    expect(() => ours.encode(1, { maxDepth: 0 })).toThrow('Too deep objects in depth 1');
    expect(() => ours.encode({ a: { b: { c: 1 } } }, { maxDepth: 3 })).toThrow('Too deep objects in depth 4');
  });
  test('a plain Uint8Array, fresh for each call, from encode and encodeSharedRef', () => {
    const enc = new ours.Encoder();
    const a = enc.encode({ a: 1 }), b = enc.encodeSharedRef({ a: 1 });
    expect(Object.getPrototypeOf(a)).toBe(Uint8Array.prototype);
    expect(Object.getPrototypeOf(b)).toBe(Uint8Array.prototype);
    expect(a.buffer === b.buffer && a.byteOffset === b.byteOffset).toBe(false);
    expect(hex(a)).toBe('81a16101');
    // large results too (a binary of its own in the result, a result past the slab)
    const big = { bin: new Uint8Array(100000).fill(7), s: 'é'.repeat(5000), n: Array.from({ length: 3000 }, (_, i) => i * 1.5) };
    const out = enc.encode(big);
    expect(Object.getPrototypeOf(out)).toBe(Uint8Array.prototype);
    expect(hex(out)).toBe(hex(lib.encode(big)));
  });
  test('options objects: read again when they change', () => {
    const o = { sortKeys: false };
    expect(hex(ours.encode({ b: 1, a: 2 }, o))).toBe('82a16201a16102');
    o.sortKeys = true;
    expect(hex(ours.encode({ b: 1, a: 2 }, o))).toBe('82a16102a16201');
  });
});

describe('decode: the values @msgpack/msgpack reads', () => {
  test('what it writes, with and without useBigInt64', () => {
    fc.assert(fc.property(value, fc.boolean(), (v, big) => {
      const data = lib.encode(v);
      const o = big ? { useBigInt64: true } : undefined;
      const theirs = run(() => lib.decode(data, o));
      // (a __proto__ key is an error there, an own property here: below)
      if (theirs.error !== undefined && /__proto__/.test(theirs.message)) return;
      expect(ours.decode(data, o)).toStrictEqual(lib.decode(data, o));
    }), RUNS);
  });
  test('mutated and random bytes: the same value, or an error of the same class', () => {
    let compared = 0;
    fc.assert(fc.property(value, fc.array(fc.tuple(fc.nat(), fc.nat(255)), { maxLength: 3 }), fc.nat(), fc.boolean(), (v, edits, cut, big) => {
      const data = lib.encode(v).slice();
      for (const [at, b] of edits) if (data.length) data[at % data.length] = b;
      const input = data.subarray(0, cut % 4 === 0 ? cut % (data.length + 1) : data.length);
      // string values as bytes on both sides: for ill-formed UTF-8 the library's own decoder
      // (below 200 bytes) makes other characters than TextDecoder's U+FFFD, which wirepack follows
      const o = { rawStrings: true, useBigInt64: big };
      const a = run(() => ours.decode(input, o)), b = run(() => lib.decode(input, o));
      // (wirepack finds a bad key before the input ends, a container's count past the input's end
      // before a malformed element, and refuses a timestamp's nanoseconds of
      // 10^9 or more, which the library takes)
      if (a.error === 'DecodeError' && /neither a string nor a number/.test(a.message) && b.error) return;
      if (a.error === 'RangeError' && b.error === 'DecodeError' && countPastEnd(input, a.offset)) return; // (and a count past the input's end)
      if (b.error && /__proto__/.test(b.message)) return;
      if (a.error === 'DecodeError' && /timestamp/.test(a.message) && b.error !== 'DecodeError') return;
      if (b.value !== undefined && JSON.stringify(b.value, (k, x) => (typeof x === 'bigint' ? `${x}` : x)).includes('\ufffd')) return;
      if (a.value !== undefined && JSON.stringify(a.value, (k, x) => (typeof x === 'bigint' ? `${x}` : x)).includes('\ufffd')) return; // (an ill-formed key)
      if (b.error) expect(a.error).toBe(b.error);
      else if (!similar(a.value, b.value)) expect(a.value).toStrictEqual(b.value);
      compared++;
    }), { numRuns: 2000 });
    expect(compared).toBeGreaterThan(1500);
  });
  test('extensions: every type to the codec, ExtData when it has no decoder (msgpackr types included)', () => {
    for (const h of ['d40000', 'd57301c0', 'd4720140', 'd6620000000a', 'c70574000102030405', 'c70069', 'd8ff' + '00'.repeat(16)]) {
      const data = fromHex(h);
      const x = run(() => ours.decode(data)), y = run(() => lib.decode(data));
      expect([x.error, x.value], h).toStrictEqual([y.error, y.value]);
    }
    // 0xc1 is no bundled-string reference here, and 0x40..0x7f are integers after any records
    new Unpackr({ structures: [['a']] }).unpack(new Packr({ structures: [['a']] }).pack({ a: 1 }));
    expect(ours.decode(u8(0x92, 0x40, 0x7f))).toEqual([0x40, 0x7f]);
    expect(() => ours.decode(u8(0xc1))).toThrow(ours.DecodeError);
    // and msgpackr's decoding is as it was after them
    expect(unpack(u8(0xd4, 0x73, 0x00, 0x91, 0x01))).toBeInstanceOf(Set);
    expect(unpack(u8(0xd4, 0, 0))).toBe(undefined);
  });
  test('timestamps: every size, the edges of each, and bad sizes', () => {
    for (const ms of [0, 1, -1, 4294967295000, 4294967296000, 2 ** 34 * 1000 - 1, 2 ** 34 * 1000, -8.64e15, 8.64e15, 1700000000123]) {
      const data = lib.encode(new Date(ms));
      expect(ours.decode(data)).toStrictEqual(lib.decode(data));
    }
    expect(run(() => ours.decode(fromHex('d5ff0000'))).error).toBe('DecodeError');
    expect(run(() => lib.decode(fromHex('d5ff0000'))).error).toBe('DecodeError');
  });
  test('map keys: strings and numbers; others a DecodeError; __proto__ an own property', () => {
    expect(ours.decode(lib.encode({ 1: 'a', b: 2 }))).toStrictEqual(lib.decode(lib.encode({ 1: 'a', b: 2 })));
    expect(ours.decode(u8(0x82, 0x01, 0x02, 0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 0x03))).toStrictEqual({ 1: 2, 1.5: 3 });
    for (const h of ['81c001', '81c301', '8190c0', '8180c0', '81c40101c0', '81d4010101']) {
      const e = run(() => ours.decode(fromHex(h)));
      expect(e.error, h).toBe('DecodeError');
      expect(run(() => lib.decode(fromHex(h))).error, h).toBe('DecodeError');
    }
    // int64 keys: numbers, or (useBigInt64) BigInts, which are no property names
    expect(ours.decode(fromHex('81cf000000010000000001'))).toStrictEqual({ 4294967296: 1 });
    expect(run(() => ours.decode(fromHex('81cf000000010000000001'), { useBigInt64: true })).error).toBe('DecodeError');
    const o = ours.decode(fromHex('81a95f5f70726f746f5f5f81a17801'));
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(Object.keys(o)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(o, '__proto__').value).toEqual({ x: 1 });
    expect({}.x).toBe(undefined);
  });
  test('mapKeyConverter takes every key', () => {
    const data = lib.encode({ a: 1, 2: { b: [3] } });
    const conv = (k) => `k${typeof k}:${k}`;
    expect(ours.decode(data, { mapKeyConverter: conv })).toStrictEqual(lib.decode(data, { mapKeyConverter: conv }));
    const odd = fromHex('82c001c302'); // nil and true keys
    expect(ours.decode(odd, { mapKeyConverter: conv })).toStrictEqual(lib.decode(odd, { mapKeyConverter: conv }));
  });
  test('rawStrings: string values as bytes, keys as strings', () => {
    const data = lib.encode({ a: 'x', b: ['é', 1], c: { d: 'e' } });
    expect(ours.decode(data, { rawStrings: true })).toStrictEqual(lib.decode(data, { rawStrings: true }));
    expect(() => ours.decode(lib.encode('abc'), { rawStrings: true, maxBinLength: 2 })).toThrow(ours.DecodeError);
  });
  test('limits: a DecodeError', () => {
    for (const [k, v] of [['maxStrLength', 'abc'], ['maxBinLength', u8(1, 2, 3)], ['maxArrayLength', [1, 2, 3]], ['maxMapLength', { a: 1, b: 2, c: 3 }], ['maxExtLength', new lib.ExtData(1, u8(1, 2, 3))]]) {
      const data = lib.encode(v);
      expect(run(() => ours.decode(data, { [k]: 2 })).error, k).toBe('DecodeError');
      expect(run(() => lib.decode(data, { [k]: 2 })).error, k).toBe('DecodeError');
      expect(norm(ours.decode(data, { [k]: 3 }))).toStrictEqual(norm(lib.decode(data, { [k]: 3 })));
    }
    // null is no limit, as the library's ?? takes it
    const all = { maxStrLength: null, maxBinLength: null, maxArrayLength: null, maxMapLength: null, maxExtLength: null };
    const mixed = lib.encode({ s: 'abc', b: u8(1, 2, 3), a: [1, 2, 3], t: new Date(1.5e12 + 1) });
    expect(norm(ours.decode(mixed, all))).toStrictEqual(norm(lib.decode(mixed, all)));
    // an extension's data is under maxBinLength too (the timestamp's 8 bytes included)
    for (const [v, n] of [[new Date(1.5e12 + 1), 8], [new Date(1.5e12), 4], [new lib.ExtData(1, u8(1, 2, 3)), 3]]) {
      const data = lib.encode(v);
      for (const o of [{ maxBinLength: n - 1 }, { maxBinLength: n - 1, maxExtLength: n }, { maxBinLength: n, maxExtLength: n - 1 }]) {
        expect(run(() => lib.decode(data, o)).error, JSON.stringify(o)).toBe('DecodeError');
        expect(run(() => ours.decode(data, o)).error, JSON.stringify(o)).toBe('DecodeError');
      }
      expect(norm(ours.decode(data, { maxBinLength: n, maxExtLength: n }))).toStrictEqual(norm(lib.decode(data, { maxBinLength: n, maxExtLength: n })));
    }
  });
  test('binaries are views of the input, as the library gives them', () => {
    const data = lib.encode({ b: u8(1, 2, 3) });
    const b = ours.decode(data).b;
    expect(Object.getPrototypeOf(b)).toBe(Uint8Array.prototype);
    expect(b.buffer).toBe(data.buffer);
    expect(ours.decode([0xc4, 1, 7])).toStrictEqual(u8(7)); // an array of numbers as input, as the library takes it
    expect(ours.decode(new Uint8Array([0x92, 1, 2]).buffer)).toEqual([1, 2]);
  });
});

describe('errors', () => {
  test('truncated input: a RangeError with wirepack\'s fields', () => {
    const data = lib.encode({ a: [1, 'xyz', 2 ** 40], b: new Date(5) });
    for (let n = 0; n < data.length; n++) {
      let e;
      try { ours.decode(data.subarray(0, n)); } catch (x) { e = x; }
      expect(e, `${n}`).toBeInstanceOf(RangeError);
      expect(e.incomplete).toBe(true);
      expect(e.code).toBe('TRUNCATED');
      expect(() => lib.decode(data.subarray(0, n))).toThrow(RangeError);
    }
  });
  test('bytes after the value: a RangeError naming them', () => {
    expect(() => lib.decode(u8(1, 2, 3))).toThrow('Extra 2 of 3 byte(s) found at buffer[1]');
    expect(() => ours.decode(u8(1, 2, 3))).toThrow('Extra 2 of 3 byte(s) found at buffer[1]');
  });
  test('malformed input: the DecodeError class the module exports, which is wirepack\'s too; the next call works', () => {
    let e;
    try { ours.decode(u8(0x91, 0xc1)); } catch (x) { e = x; }
    expect(e).toBeInstanceOf(ours.DecodeError);
    expect(e).toBeInstanceOf(WirepackDecodeError);
    expect(e.name).toBe('DecodeError');
    expect(ours.DecodeError.name).toBe('DecodeError');
    expect(e.offset).toBe(1);
    expect(ours.decode(u8(0x91, 1))).toEqual([1]);
  });
  test('errors thrown by extensions pass through', () => {
    const codec = new ours.ExtensionCodec();
    codec.register({ type: 1, encode: () => null, decode: () => { throw new TypeError('mine'); } });
    expect(() => ours.decode(u8(0xd4, 1, 0), { extensionCodec: codec })).toThrow(TypeError);
    expect(ours.decode(u8(0x01))).toBe(1);
  });
});

describe('ExtensionCodec', () => {
  /** The library README's example: Set and Map as extensions 0 and 1, their contents encoded
   * with the same codec. */
  const withCodec = (m) => {
    const codec = new m.ExtensionCodec();
    codec.register({ type: 0, encode: (o) => (o instanceof Set ? m.encode([...o], { extensionCodec: codec }) : null), decode: (d) => new Set(m.decode(d, { extensionCodec: codec })) });
    codec.register({ type: 1, encode: (o) => (o instanceof Map ? m.encode([...o], { extensionCodec: codec }) : null), decode: (d) => new Map(m.decode(d, { extensionCodec: codec })) });
    return codec;
  };
  test('custom types: the same bytes and values', () => {
    const a = withCodec(ours), b = withCodec(lib);
    const v = { s: new Set([1, 'a', [2]]), m: new Map([['k', new Set([3])], [4, { d: new Date(7) }]]), plain: [1, { x: 2 }] };
    const bytesOurs = ours.encode(v, { extensionCodec: a });
    expect(hex(bytesOurs)).toBe(hex(lib.encode(v, { extensionCodec: b })));
    expect(ours.decode(bytesOurs, { extensionCodec: a })).toStrictEqual(lib.decode(bytesOurs, { extensionCodec: b }));
  });
  test('context, BigInt through an extension, the timestamp replaced', () => {
    const written = [];
    for (const m of [ours, lib]) {
      const codec = new m.ExtensionCodec();
      codec.register({ type: 5, encode: (o, ctx) => (typeof o === 'bigint' ? (ctx.seen++, new TextEncoder().encode(o.toString())) : null), decode: (d, t, ctx) => (ctx.seen++, BigInt(new TextDecoder().decode(d))) });
      codec.register({ type: -1, encode: (o) => (o instanceof Date ? m.encodeTimeSpecToTimestamp(m.encodeDateToTimeSpec(o)) : null), decode: (d) => m.decodeTimestampToTimeSpec(d) });
      const ctx = { seen: 0 };
      const data = m.encode([12345678901234567890n, new Date(1500)], { extensionCodec: codec, context: ctx });
      written.push(hex(data));
      expect(m.decode(data, { extensionCodec: codec, context: ctx })).toStrictEqual([12345678901234567890n, { sec: 1, nsec: 500000000 }]);
      expect(ctx.seen).toBe(2);
    }
    expect(written[0]).toBe(written[1]);
  });
  test('an ExtData of the module is written as its extension; the timestamp helpers agree with the library\'s', () => {
    expect(hex(ours.encode([new ours.ExtData(3, u8(1, 2))]))).toBe('91d5030102');
    expect(ours.decode(u8(0xd5, 3, 1, 2))).toStrictEqual(new ours.ExtData(3, u8(1, 2)));
    for (const ms of [0, 1500, -1, 2 ** 33 * 1000, -(2 ** 40), NaN]) {
      const d = new Date(ms);
      expect(hex(ours.encodeTimestampExtension(d))).toBe(hex(lib.encodeTimestampExtension(d)));
      expect(ours.encodeDateToTimeSpec(d)).toEqual(lib.encodeDateToTimeSpec(d));
      const payload = lib.encodeTimestampExtension(d);
      expect(ours.decodeTimestampToTimeSpec(payload)).toEqual(lib.decodeTimestampToTimeSpec(payload));
      expect(ours.decodeTimestampExtension(payload)).toStrictEqual(lib.decodeTimestampExtension(payload));
    }
    expect(ours.EXT_TIMESTAMP).toBe(lib.EXT_TIMESTAMP);
    expect(ours.encodeTimestampExtension(1)).toBe(null);
  });
});

describe('decodeMulti and the stream decoders', () => {
  const values = [1, 'two', { three: [3] }, new Date(4), u8(5), null, 2 ** 40];
  const all = new Uint8Array(values.flatMap((v) => [...lib.encode(v)]));
  /** async iterable of chunks of `size` bytes */
  async function* chunks(data, size) {
    for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
  }
  const collect = async (gen) => { const out = []; for await (const v of gen) out.push(v); return out; };
  test('decodeMulti', () => {
    expect([...ours.decodeMulti(all)]).toStrictEqual([...lib.decodeMulti(all)]);
    expect([...ours.decodeMulti(u8())]).toEqual([]);
    // the values before an error first, then the error
    const got = [];
    expect(() => { for (const v of ours.decodeMulti(u8(1, 2, 0x92, 3))) got.push(v); }).toThrow(RangeError);
    expect(got).toEqual([1, 2]);
  });
  test('decodeMultiStream, split at every size', async () => {
    for (const size of [1, 2, 3, 7, 1000]) {
      expect(await collect(ours.decodeMultiStream(chunks(all, size)))).toStrictEqual(await collect(lib.decodeMultiStream(chunks(all, size))));
    }
  });
  test('decodeArrayStream, split at every size; a ReadableStream too', async () => {
    const arr = lib.encode(values);
    for (const size of [1, 2, 5, 1000]) {
      expect(await collect(ours.decodeArrayStream(chunks(arr, size)))).toStrictEqual(values.map((v) => lib.decode(lib.encode(v))));
    }
    const big = lib.encode(Array.from({ length: 70000 }, (_, i) => i));
    const stream = new ReadableStream({ start(c) { for (let i = 0; i < big.length; i += 4096) c.enqueue(big.subarray(i, i + 4096)); c.close(); } });
    const got = await collect(ours.decodeArrayStream(stream));
    expect(got.length).toBe(70000);
    expect(got[69999]).toBe(69999);
    await expect(collect(ours.decodeArrayStream(chunks(u8(0x81, 1, 2), 1)))).rejects.toThrow('Unrecognized array type byte: 0x81');
    await expect(collect(ours.decodeArrayStream(chunks(u8(0x92, 1), 1)))).rejects.toThrow(RangeError);
    await expect(collect(ours.decodeArrayStream(chunks(u8(0x91, 1, 2), 3)))).rejects.toThrow(RangeError);
  });
  test('decodeArrayStream: 16- and 32-bit array heads split across chunks, and a stream that ends inside one', async () => {
    const long = Array.from({ length: 20 }, (_, i) => i);
    const a16 = lib.encode(long);
    const a32 = u8(0xdd, 0, 0, 0, 3, 1, 2, 3);
    expect(a16[0]).toBe(0xdc);
    for (const size of [1, 2, 3, 4]) {
      expect(await collect(ours.decodeArrayStream(chunks(a16, size))), `by ${size}`).toStrictEqual(long);
      expect(await collect(ours.decodeArrayStream(chunks(a32, size))), `by ${size}`).toStrictEqual([1, 2, 3]);
      // an empty array, then bytes (the stream is read up to the chunk that holds the first)
      const length = Math.min(8, Math.ceil(4 / size) * size);
      expect(await collect(ours.decodeArrayStream(chunks(u8(0xdc, 0, 0, 0xdd, 0, 0, 0, 0), size))).catch((e) => e.message), `by ${size}`)
        .toBe(`Extra ${length - 3} of ${length} byte(s) found at buffer[3]`);
    }
    for (const cut of [u8(0xdc), u8(0xdc, 0), u8(0xdd, 0, 0, 0)]) {
      for (const size of [1, 2]) {
        const error = await collect(ours.decodeArrayStream(chunks(cut, size))).catch((e) => e);
        expect(error, `${cut} by ${size}`).toBeInstanceOf(RangeError);
        expect(error.message).toBe(`Insufficient data: the stream ended inside an array header at byte ${cut.length}`);
      }
    }
  });
  test('decodeArrayStream and decodeAsync name the byte where the extra bytes start, for every split', async () => {
    // [input, where the array (decodeArrayStream) or the value (decodeAsync) ends]
    const arrays = [
      [u8(0x92, 1, 2, 3), 3],
      [u8(0x92, 1, 0xa3, 0x61, 0x62, 0x63, 5, 6), 6],
      [u8(0x91, 0xa3, 0x61, 0x62, 0x63, 0xc1), 5], // a malformed value after the array
      [u8(0x90, 1), 1],
    ];
    const ones = [
      [u8(0xa2, 0x61, 0x62, 1, 2), 3],
      [u8(0x92, 1, 2, 0xc1), 3],
    ];
    /** @param {Uint8Array} input @param {number} end @param {number} size */
    const extra = (input, end, size) => {
      // (the stream is read up to the chunk that holds the first extra byte)
      const length = Math.min(input.length, Math.ceil((end + 1) / size) * size);
      return `Extra ${length - end} of ${length} byte(s) found at buffer[${end}]`;
    };
    for (const [input, end] of arrays) {
      for (let size = 1; size <= input.length; size++) {
        await expect(collect(ours.decodeArrayStream(chunks(input, size))), `${input} by ${size}`).rejects.toThrow(extra(input, end, size));
      }
    }
    for (const [input, end] of ones) {
      for (let size = 1; size <= input.length; size++) {
        await expect(ours.decodeAsync(chunks(input, size)), `${input} by ${size}`).rejects.toThrow(extra(input, end, size));
      }
    }
  });
  test('decodeAsync: one value; RangeError when cut short or followed by more', async () => {
    const one = lib.encode({ a: values });
    for (const size of [1, 4, 1000]) expect(await ours.decodeAsync(chunks(one, size))).toStrictEqual(await lib.decodeAsync(chunks(one, size)));
    await expect(ours.decodeAsync(chunks(one.subarray(0, 5), 2))).rejects.toThrow(RangeError);
    await expect(lib.decodeAsync(chunks(one.subarray(0, 5), 2))).rejects.toThrow(RangeError);
    await expect(ours.decodeAsync(chunks(u8(1, 2), 1))).rejects.toThrow('Extra 1 of 2 byte(s) found at buffer[1]');
    await expect(ours.decodeAsync(chunks(u8(1, 2), 2))).rejects.toThrow(/^Extra/);
    await expect(ours.decodeAsync(chunks(u8(1, 2), 2))).rejects.toThrow(RangeError);
    await expect(ours.decodeAsync(chunks(u8(), 1))).rejects.toThrow(RangeError);
    await expect(ours.decodeAsync(chunks(u8(0x91, 0xc1), 1))).rejects.toThrow(ours.DecodeError);
  });
});

describe('the module', () => {
  test('exports what @msgpack/msgpack exports', () => {
    for (const k of Object.keys(lib)) expect(ours, k).toHaveProperty(k);
    expect(typeof ours.ExtensionCodec.defaultCodec.tryToEncode).toBe('function');
  });
});
