// cbor-x 1.6.9's Encoder/Decoder options, checked against cbor-x with the same options:
// useTag259ForMaps, useSelfDescribedHeader, tagUint8Array, alwaysUseFloat, useFloat32
// (FLOAT32_OPTIONS), mapsAsObjects and the record-related defaults of Decoder/decode.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import * as cborx from 'cbor-x';
import {
  encode, decode, Encoder, Decoder, FLOAT32_OPTIONS, NEVER, ALWAYS, DECIMAL_ROUND, DECIMAL_FIT, roundFloat32,
} from 'wirepack/cbor';
import { hex, fromHex } from './helpers/bytes.js';

import floats from './vectors/floats.json';
import numbers from '../bench/fixtures/numbers.json';

const RUNS = { numRuns: 300 };
const HAS_BUFFER = typeof globalThis.Buffer === 'function';
const stringMap = fc.array(fc.tuple(fc.string({ maxLength: 5 }), fc.integer()), { maxLength: 5 }).map((e) => new Map(e));
const anyMap = fc.array(fc.tuple(fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), fc.oneof(fc.integer(), fc.string({ maxLength: 5 }))), { maxLength: 5 }).map((e) => new Map(e));
// numbers cbor-x and wirepack write alike once the float width is chosen for them (no -0: cbor-x
// writes it as the integer 0; no integers in -2^32..-2^31-1, which cbor-x writes as integers and
// wirepack as floats)
const number = fc.oneof(
  fc.integer(), fc.integer({ min: 0, max: 0xffffffff }),
  fc.double({ noNaN: true }), fc.double({ noNaN: true, min: -1e6, max: 1e6 }),
  fc.float({ noNaN: true }).map((x) => x), fc.integer({ min: -1e6, max: 1e6 }).map((x) => x / 100),
).filter((x) => !Object.is(x, -0) && !(Number.isInteger(x) && x < -2147483648 && x >= -4294967296));

describe('maps and records defaults', () => {
  test('decode/encode are plain; new Decoder() gives Maps, useRecords: false objects (as cbor-x)', () => {
    const bytes = fromHex('a1616101');
    expect(decode(bytes)).toEqual({ a: 1 });
    expect(cborx.decode(bytes)).toEqual({ a: 1 });
    expect(new Decoder().decode(bytes)).toEqual(new Map([['a', 1]]));
    expect(new cborx.Decoder().decode(bytes)).toEqual(new Map([['a', 1]]));
    expect(new Decoder({ useRecords: false }).decode(bytes)).toEqual({ a: 1 });
    expect(new cborx.Decoder({ useRecords: false }).decode(bytes)).toEqual({ a: 1 });
    expect(new Decoder({ mapsAsObjects: true }).decode(bytes)).toEqual({ a: 1 });
    expect(new Decoder({ useRecords: false, mapsAsObjects: false }).decode(bytes)).toEqual(new Map([['a', 1]]));
  });

  test('useTag259ForMaps: every combination writes what cbor-x writes', () => {
    const opts = [{}, { useRecords: false }, { useTag259ForMaps: true }, { useTag259ForMaps: false },
      { useRecords: false, useTag259ForMaps: false }, { useRecords: true, useTag259ForMaps: true },
      { mapsAsObjects: true }, { mapsAsObjects: false, useRecords: false }];
    const maps = [new Map([['a', 1]]), new Map([[1, 2], ['b', new Map()]]), [new Map([[true, null]])]];
    for (const o of opts) {
      for (const m of maps) expect(hex(new Encoder(o).encode(m)), JSON.stringify(o)).toBe(hex(new cborx.Encoder(o).encode(m)));
    }
    expect(hex(new Encoder().encode(new Map([['a', 1]])))).toBe('a1616101');
    expect(hex(encode(new Map([['a', 1]])))).toBe('d90103a1616101');
  });

  test('fast-check: Maps round-trip through each side with cbor-x\'s pairing of options', () => {
    fc.assert(fc.property(anyMap, stringMap, (m, s) => {
      // records on: no tag 259, and the decoder gives Maps anyway
      expect(new Decoder().decode(new Encoder().encode(m))).toEqual(m);
      expect(new cborx.Decoder().decode(new Encoder().encode(s))).toEqual(s);
      // records off: tag 259 keeps string-keyed Maps apart from objects
      expect(decode(encode(s))).toEqual(s);
      expect(cborx.decode(encode(s))).toEqual(s);
      expect(decode(cborx.encode(s))).toEqual(s);
    }), RUNS);
  });
});

describe('Dates and the float options', () => {
  test('useFloat32 and alwaysUseFloat leave a Date\'s seconds exact (a float32 lost its milliseconds)', () => {
    for (const ms of [33771872, 1733554800123, -1, -86400000, 0, 8.64e15]) {
      for (const options of [{ useFloat32: FLOAT32_OPTIONS.ALWAYS }, { useFloat32: FLOAT32_OPTIONS.DECIMAL_ROUND }, { useFloat32: FLOAT32_OPTIONS.DECIMAL_FIT }, { alwaysUseFloat: true }]) {
        const bytes = new Encoder(options).encode(new Date(ms));
        expect(decode(bytes).getTime(), `${ms} ${JSON.stringify(options)}`).toBe(ms);
        expect(cborx.decode(bytes).getTime()).toBe(ms);
      }
    }
  });
});

describe('encodeUndefinedAsNil', () => {
  test('undefined as null (f6), as the option says; cbor-x\'s types have it and its encoder writes f7 (README)', () => {
    const v = [undefined, { a: undefined }];
    expect(hex(new Encoder({ encodeUndefinedAsNil: true, useRecords: false }).encode(v))).toBe('82f6a16161f6');
    expect(hex(new Encoder({ useRecords: false }).encode(v))).toBe('82f7a16161f7');
    expect(hex(new cborx.Encoder({ encodeUndefinedAsNil: true, useRecords: false, variableMapSize: true }).encode(v))).toBe('82f7a16161f7');
  });
});

describe('largeBigIntToFloat', () => {
  test('BigInts beyond the 64-bit forms (cbor-x counts -2^64 among them) become the nearest double; the others stay integers', () => {
    const enc = new Encoder({ largeBigIntToFloat: true });
    for (const v of [2n ** 64n, -(2n ** 64n), -(2n ** 64n) - 1n, 2n ** 70n, 3n ** 50n, -(3n ** 50n)]) {
      const bytes = enc.encode(v);
      expect(decode(bytes), String(v)).toBe(Number(v));
      expect(cborx.decode(bytes)).toBe(Number(v));
      expect(decode(new cborx.Encoder({ largeBigIntToFloat: true }).encode(v))).toBe(Number(v));
    }
    for (const v of [2n ** 64n - 1n, -(2n ** 63n), 5n]) expect(decode(enc.encode(v)), String(v)).toBe(v);
    // without it: exact
    expect(decode(new Encoder().encode(2n ** 70n))).toBe(2n ** 70n);
  });
});

describe('the MessagePack method names the classes inherit', () => {
  test('pack/unpack and unpackMultiple of an Encoder and a Decoder are CBOR, as encode/decode(Multiple), keyMap included', () => {
    const value = { alpha: 'beta', list: [{ alpha: 1 }, { alpha: 2 }] };
    for (const options of [{}, { keyMap: { alpha: 'a' } }, { pack: true }, { useRecords: true }, { structuredClone: true }]) {
      const enc = new Encoder({ ...options, mapsAsObjects: true });
      const dec = new Decoder({ ...options, mapsAsObjects: true });
      const bytes = enc.pack(value);
      expect(hex(bytes)).toBe(hex(new Encoder({ ...options, mapsAsObjects: true }).encode(value)));
      for (const d of [enc, dec]) {
        expect(d.unpack(bytes), JSON.stringify(options)).toEqual(value);
        expect(d.unpackMultiple(new Uint8Array([...bytes, ...bytes])), JSON.stringify(options)).toEqual([value, value]);
        const got = [];
        d.unpackMultiple(bytes, (v) => { got.push(v); });
        expect(got).toEqual([value]);
      }
    }
  });
});

describe('useSelfDescribedHeader', () => {
  test('d9 d9f7 before everything (also before a packed table), as cbor-x', () => {
    for (const o of [{ useSelfDescribedHeader: true }, { useSelfDescribedHeader: true, useRecords: false },
      { useSelfDescribedHeader: true, pack: true }]) {
      for (const v of [{ a: 1 }, ['aaaa', 'aaaa'], 1, 'x']) {
        const bytes = new Encoder(o).encode(v);
        expect(hex(bytes).slice(0, 6)).toBe('d9d9f7');
        if (typeof v !== 'object' || Array.isArray(v) || o.useRecords !== false) expect(hex(bytes)).toBe(hex(new cborx.Encoder(o).encode(v)));
        expect(new Decoder(o).decode(bytes)).toEqual(v);
        expect(cborx.decode(bytes)).toEqual(v);
      }
    }
  });
});

describe('tagUint8Array', () => {
  test('default (tag 64 where Buffer exists), true and false: the bytes cbor-x writes', () => {
    const u8 = new Uint8Array([1, 2, 3]);
    for (const o of [{}, { tagUint8Array: true }, { tagUint8Array: false }]) {
      expect(hex(new Encoder(o).encode(u8))).toBe(hex(new cborx.Encoder(o).encode(u8)));
      expect(hex(new Encoder({ ...o, useRecords: false }).encode([u8]))).toBe(hex(new cborx.Encoder({ ...o, useRecords: false }).encode([u8])));
    }
    expect(hex(new Encoder().encode(u8))).toBe(HAS_BUFFER ? 'd84043010203' : '43010203');
    expect(hex(new Encoder({ tagUint8Array: false }).encode(u8))).toBe('43010203');
    expect(hex(new Encoder({ tagUint8Array: true }).encode(u8))).toBe('d84043010203');
    const back = decode(fromHex('d84043010203'));
    expect(back.constructor).toBe(Uint8Array);
    expect([...back]).toEqual([1, 2, 3]);
  });
});

describe('float options', () => {
  test('FLOAT32_OPTIONS and its constants are cbor-x\'s', () => {
    expect({ ...FLOAT32_OPTIONS }).toEqual({ ...cborx.FLOAT32_OPTIONS });
    expect([NEVER, ALWAYS, DECIMAL_ROUND, DECIMAL_FIT]).toEqual([cborx.NEVER, cborx.ALWAYS, cborx.DECIMAL_ROUND, cborx.DECIMAL_FIT]);
    for (const x of [0.1, 1.23456789, 3.4e38, 7.99, -123.456]) expect(roundFloat32(Math.fround(x))).toBe(cborx.roundFloat32(Math.fround(x)));
  });

  const variants = [
    { alwaysUseFloat: true }, { useFloat32: ALWAYS }, { useFloat32: DECIMAL_ROUND }, { useFloat32: DECIMAL_FIT },
    { alwaysUseFloat: true, useFloat32: DECIMAL_FIT }, { alwaysUseFloat: true, useFloat32: ALWAYS },
  ];

  test.each(variants.map((o) => [JSON.stringify(o), o]))('%s: byte-exact, and decodes as cbor-x decodes', (_name, o) => {
    const ours = new Encoder({ ...o, useRecords: false }), theirs = new cborx.Encoder({ ...o, useRecords: false });
    const wd = new Decoder({ ...o, useRecords: false }), cd = new cborx.Decoder({ ...o, useRecords: false });
    fc.assert(fc.property(fc.array(number, { maxLength: 8 }), (v) => {
      const bytes = ours.encode(v);
      expect(hex(bytes)).toBe(hex(theirs.encode(v)));
      expect(wd.decode(bytes)).toEqual(cd.decode(bytes));
      expect(wd.decode(theirs.encode(v))).toEqual(cd.decode(bytes));
    }), RUNS);
    for (const doc of [floats, numbers]) {
      const bytes = ours.encode(doc);
      expect(hex(bytes)).toBe(hex(theirs.encode(doc)));
      expect(wd.decode(bytes)).toEqual(cd.decode(bytes));
    }
  });

  test('exact forms: alwaysUseFloat writes integers as floats; DECIMAL_FIT keeps float64 when digits would be lost', () => {
    expect(hex(new Encoder({ alwaysUseFloat: true, useRecords: false }).encode([1, 0.5]))).toBe('82fb3ff0000000000000fb3fe0000000000000');
    expect(hex(new Encoder({ useFloat32: ALWAYS }).encode(0.1))).toBe('fa3dcccccd');
    expect(hex(new Encoder({ useFloat32: DECIMAL_FIT }).encode(0.1))).toBe('fa3dcccccd');
    // 1 + 2^-23 is a float32, but its decimal digits do not fit: float64, as cbor-x (wirepack's
    // default, shortest-exact serialization, would write it as float32)
    expect(hex(new Encoder({ useFloat32: DECIMAL_FIT }).encode(1.0000001192092896))).toBe('fb3ff0000020000000');
    expect(hex(new Encoder().encode(1.0000001192092896))).toBe('fa3f800001');
    // DECIMAL_ROUND on decoding: float32 values come back rounded to their decimal digits
    expect(new Decoder({ useFloat32: DECIMAL_ROUND }).decode(fromHex('fa3dcccccd'))).toBe(0.1);
    expect(decode(fromHex('fa3dcccccd'))).toBe(Math.fround(0.1));
  });
});

describe('decode(source, end)', () => {
  test("the item in the first end bytes of a larger buffer, as cbor-x reads it (its 'replace data' test), or {start, end}", () => {
    const one = encode({ data: [{ a: 1, name: 'one' }, { a: 2, name: 'two' }] });
    const two = encode({ data: [{ foo: 7 }] });
    const b = new Uint8Array(800);
    b.set(one);
    expect(decode(b, one.length)).toEqual(cborx.decode(b, one.length));
    expect(new Decoder({ mapsAsObjects: true }).decode(b, one.length)).toEqual({ data: [{ a: 1, name: 'one' }, { a: 2, name: 'two' }] });
    b.set(two);
    expect(decode(b, two.length)).toEqual({ data: [{ foo: 7 }] });
    expect(new Encoder().decode(b, two.length)).toEqual(new cborx.Encoder().decode(b, two.length));
    // (without the end, the zero bytes after the item are trailing data)
    expect(() => decode(b)).toThrow(/end of buffer not reached|Trailing/i);
    const both = new Uint8Array([...one, ...two]);
    expect(decode(both, { start: one.length })).toEqual({ data: [{ foo: 7 }] });
    expect(decode(both, { start: 0, end: one.length })).toEqual(decode(one));
  });
});
