// RFC 8949 Appendix A (the examples, from github.com/cbor/test-vectors): every example decodes
// to its value, and every `roundtrip: true` example is re-encoded to the same bytes by the
// default and by the deterministic encoder (with the documented JavaScript exceptions below).
import { describe, test, expect } from 'vitest';
import * as cborx from 'cbor-x';
import { encode, decode, Encoder, Decoder, Tag, Simple, DecodeError } from 'wirepack/cbor';
import { fromHex, hex } from './helpers/bytes.js';
import { parseAppendixA, ccanon } from './helpers/cbor.js';
import raw from './vectors/cbor/appendix_a.json?raw';

const VECTORS = parseAppendixA(raw);
const deterministic = new Encoder({ deterministic: true });

// Excluded from byte-exact re-encoding: JavaScript has one number type and cannot tell 1.0 from
// 1, so a float vector whose value is integral and in the int32/uint32 range decodes to a number
// that the encoder (rightly) writes as an integer head; these cannot round-trip. What they are
// re-encoded as (the preferred integer) is checked separately below. Integral floats outside that
// range (3.4028234663852886e38, 1e300) are written as floats and do round-trip.
const INTEGRAL_FLOATS = {
  f90000: '00', // 0.0
  f93c00: '01', // 1.0
  f97bff: '19ffe0', // 65504.0
  fa47c35000: '1a000186a0', // 100000.0
  f9c400: '23', // -4.0
};
// 0("2013-03-21T20:04:00Z") decodes to a Date, and Dates are written as tag 1 (epoch seconds).
// {1: 2, 3: 4} decodes to an object whose integer keys became property names (cbor-x's
// coercion), so it re-encodes with text keys; decoded with mapsAsObjects: false it is a Map,
// which re-encodes to the same bytes without tag 259 (see the test below).
const REENCODED = {
  c074323031332d30332d32315432303a30343a30305a: 'c11a514b67b0',
  a201020304: 'a2613102613304',
};
const no259 = new Encoder({ useTag259ForMaps: false });
const no259det = new Encoder({ useTag259ForMaps: false, deterministic: true });
// RFC 7049 listed simple(24) as f8 18; RFC 8949 (3.3) made every f8 xx with xx < 32 not
// well-formed. The test-vectors file still has the RFC 7049 example.
const NOT_WELL_FORMED_IN_8949 = new Set(['f818']);

test('the vector file is complete', () => {
  expect(VECTORS.length).toBe(82);
  expect(VECTORS.filter((v) => v.hasDecoded).length).toBeGreaterThan(50);
  // 8-byte heads (1b/3b) and bignums (c2/c3) decode to BigInt, whatever their value
  expect(VECTORS.filter((v) => typeof v.decoded === 'bigint').map((v) => [v.hex, v.decoded])).toEqual([
    ['1b000000e8d4a51000', 1000000000000n], ['1bffffffffffffffff', 2n ** 64n - 1n],
    ['c249010000000000000000', 2n ** 64n], ['3bffffffffffffffff', -(2n ** 64n)],
    ['c349010000000000000000', -(2n ** 64n) - 1n],
  ]);
  // the float vectors excluded from byte-exact re-encoding are exactly the roundtrip ones whose
  // value is an integer in the int32/uint32 range
  const integralFloats = VECTORS.filter((v) => v.roundtrip && /^f[9ab]/.test(v.hex) && typeof v.decoded === 'number' &&
    Number.isInteger(v.decoded) && !Object.is(v.decoded, -0) && v.decoded >= -(2 ** 31) && v.decoded < 2 ** 32).map((v) => v.hex);
  expect(integralFloats.sort()).toEqual(Object.keys(INTEGRAL_FLOATS).sort());
});

describe('decode: examples with a JSON value', () => {
  test.each(VECTORS.filter((v) => v.hasDecoded).map((v) => [v.hex, v]))('%s', (_h, v) => {
    const got = decode(fromHex(v.hex));
    expect(ccanon(got)).toEqual(ccanon(v.decoded));
    // the same through a Decoder instance (maps as objects: cbor-x's rule gives Maps without options)
    expect(ccanon(new Decoder({ useRecords: false }).decode(fromHex(v.hex)))).toEqual(ccanon(v.decoded));
  });

  test('integers: numbers up to 4-byte heads, BigInt for 8-byte heads (as cbor-x), both signs', () => {
    expect(decode(fromHex('1b000000e8d4a51000'))).toBe(1000000000000n);
    expect(decode(fromHex('1b0000000000000005'))).toBe(5n);
    expect(decode(fromHex('1b001fffffffffffff'))).toBe(2n ** 53n - 1n);
    expect(decode(fromHex('3b001ffffffffffffe'))).toBe(-(2n ** 53n) + 1n);
    expect(new Decoder({ int64AsType: 'auto' }).decode(fromHex('1b001fffffffffffff'))).toBe(2 ** 53 - 1);
    expect(new Decoder({ int64AsType: 'number' }).decode(fromHex('3b0000000080000000'))).toBe(-2147483649);
    expect(decode(fromHex('1bffffffffffffffff'))).toBe(2n ** 64n - 1n);
    expect(decode(fromHex('3bffffffffffffffff'))).toBe(-(2n ** 64n));
    expect(decode(fromHex('1b0000000000000000'))).toBe(0n);
    expect(decode(fromHex('3b0000000000000000'))).toBe(-1n);
    expect(new Decoder({ int64AsType: 'string' }).decode(fromHex('1b0000000000000005'))).toBe('5');
    expect(new Decoder({ int64AsType: 'auto' }).decode(fromHex('1bffffffffffffffff'))).toBe(2n ** 64n - 1n);
    // 1/2/4-byte heads are numbers over their whole range, both signs
    expect(decode(fromHex('1a ffffffff'))).toBe(2 ** 32 - 1);
    expect(decode(fromHex('1a 80000000'))).toBe(2 ** 31);
    expect(decode(fromHex('3a 7fffffff'))).toBe(-(2 ** 31));
    expect(decode(fromHex('39 ffff'))).toBe(-65536);
    expect(decode(fromHex('3a 80000000'))).toBe(-(2 ** 31) - 1);
    expect(decode(fromHex('3a ffffffff'))).toBe(-(2 ** 32));
  });

  test('bignums (tags 2 and 3) follow int64AsType as 8-byte heads do; int64AsNumber leaves them BigInts, as cbor-x', () => {
    const big = fromHex('c249010000000000000000'); // 2^64
    const neg = fromHex('c3420100'); // -257
    const over = fromHex('c24720000000000001'); // 2^53 + 1
    const read = (options) => [big, neg, over].map((b) => new Decoder(options).decode(b));
    expect(read({})).toEqual([2n ** 64n, -257n, 2n ** 53n + 1n]);
    expect(read({ int64AsType: 'number' })).toEqual([2 ** 64, -257, 2 ** 53]);
    // (cbor-x's int64AsNumber is for 8-byte heads: bignums stay exact BigInts, as cbor-x reads them)
    expect(read({ int64AsNumber: true })).toEqual([2n ** 64n, -257n, 2n ** 53n + 1n]);
    expect(read({ int64AsNumber: true })).toEqual([big, neg, over].map((b) => new cborx.Decoder({ int64AsNumber: true }).decode(b)));
    expect(read({ int64AsType: 'string' })).toEqual(['18446744073709551616', '-257', '9007199254740993']);
    expect(read({ int64AsType: 'auto' })).toEqual([2n ** 64n, -257, 2n ** 53n + 1n]);
  });

  test('-0.0 is -0', () => {
    expect(Object.is(decode(fromHex('f98000')), -0)).toBe(true);
    expect(Object.is(decode(fromHex('fa80000000')), -0)).toBe(true);
    expect(Object.is(decode(fromHex('fb8000000000000000')), -0)).toBe(true);
  });

  test('maps with string keys are plain objects', () => {
    const o = decode(fromHex('a26161016162820203'));
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(o).toEqual({ a: 1, b: [2, 3] });
  });
});

describe('decode: examples given only in diagnostic notation', () => {
  const diagOnly = VECTORS.filter((v) => !v.hasDecoded && !NOT_WELL_FORMED_IN_8949.has(v.hex));

  test.each(diagOnly.map((v) => [v.hex, v.diagnostic]))('%s (%s) decodes without throwing', (h) => {
    expect(() => decode(fromHex(h))).not.toThrow();
  });

  test('infinities and NaN, in every width', () => {
    for (const h of ['f97c00', 'fa7f800000', 'fb7ff0000000000000']) expect(decode(fromHex(h))).toBe(Infinity);
    for (const h of ['f9fc00', 'faff800000', 'fbfff0000000000000']) expect(decode(fromHex(h))).toBe(-Infinity);
    for (const h of ['f97e00', 'fa7fc00000', 'fb7ff8000000000000']) expect(decode(fromHex(h))).toBeNaN();
  });

  test('undefined', () => {
    expect(decode(fromHex('f7'))).toBe(undefined);
    expect(decode(fromHex('82f7f6'))).toEqual([undefined, null]);
  });

  test('simple values', () => {
    for (const [h, n] of [['f0', 16], ['f8ff', 255], ['f820', 32], ['e0', 0], ['f3', 19]]) {
      const s = decode(fromHex(h));
      expect(s, h).toBeInstanceOf(Simple);
      expect(s.value, h).toBe(n);
    }
  });

  test('tags 0 and 1 are Dates', () => {
    const t0 = decode(fromHex('c074323031332d30332d32315432303a30343a30305a'));
    expect(t0).toBeInstanceOf(Date);
    expect(t0.getTime()).toBe(Date.UTC(2013, 2, 21, 20, 4, 0));
    const t1 = decode(fromHex('c11a514b67b0'));
    expect(t1).toBeInstanceOf(Date);
    expect(t1.getTime()).toBe(1363896240000);
    const t1f = decode(fromHex('c1fb41d452d9ec200000'));
    expect(t1f).toBeInstanceOf(Date);
    expect(t1f.getTime()).toBe(1363896240500);
  });

  test('tags 2 and 3 are BigInts', () => {
    expect(decode(fromHex('c249010000000000000000'))).toBe(2n ** 64n);
    expect(decode(fromHex('c349010000000000000000'))).toBe(-(2n ** 64n) - 1n);
    // within 64 bits (not preferred, but well-formed): still BigInt, as the tag asks
    expect(decode(fromHex('c24101'))).toBe(1n);
    expect(decode(fromHex('c240'))).toBe(0n);
    expect(decode(fromHex('c34100'))).toBe(-1n);
  });

  test('other tags: Tag objects', () => {
    const t23 = decode(fromHex('d74401020304'));
    expect(t23).toBeInstanceOf(Tag);
    expect(t23.tag).toBe(23);
    expect(t23.value).toBeInstanceOf(Uint8Array);
    expect(hex(t23.value)).toBe('01020304');
    const t24 = decode(fromHex('d818456449455446'));
    expect(t24).toBeInstanceOf(Tag);
    expect(t24.tag).toBe(24);
    expect(hex(t24.value)).toBe('6449455446');
    const t32 = decode(fromHex('d82076687474703a2f2f7777772e6578616d706c652e636f6d'));
    expect(t32).toBeInstanceOf(Tag);
    expect(t32.tag).toBe(32);
    expect(t32.value).toBe('http://www.example.com');
  });

  test('byte strings, definite and indefinite', () => {
    const empty = decode(fromHex('40'));
    expect(empty).toBeInstanceOf(Uint8Array);
    expect(empty.length).toBe(0);
    expect(hex(decode(fromHex('4401020304')))).toBe('01020304');
    const joined = decode(fromHex('5f42010243030405ff'));
    expect(joined).toBeInstanceOf(Uint8Array);
    expect(hex(joined)).toBe('0102030405');
  });

  test('a map with integer keys: property names by default (cbor-x), a Map with mapsAsObjects: false', () => {
    const o = decode(fromHex('a201020304'));
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(o).toEqual({ 1: 2, 3: 4 });
    const m = new Decoder({ mapsAsObjects: false }).decode(fromHex('a201020304'));
    expect(ccanon(m)).toEqual(ccanon(new Map([[1, 2], [3, 4]])));
    expect(hex(no259.encode(m))).toBe('a201020304');
    // booleans, null and floats are coerced too; keys that have no property-name form give a Map
    expect(decode(fromHex('a3f93e0001f50af602'))).toEqual({ '1.5': 1, true: 10, null: 2 });
    expect(decode(fromHex('a1410101'))).toBeInstanceOf(Map);
    expect(decode(fromHex('a181010102'.slice(0, 8)))).toBeInstanceOf(Map);
    expect(decode(fromHex('a1f001'))).toBeInstanceOf(Map);
  });

  test('f8 18 (simple(24) in RFC 7049) is not well-formed in RFC 8949', () => {
    let err;
    try {
      decode(fromHex('f818'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DecodeError);
    expect([err.code, err.offset]).toEqual(['BAD_SIMPLE', 0]);
  });
});

describe('re-encoding: roundtrip examples give the same bytes', () => {
  const rt = VECTORS.filter((v) => v.roundtrip && !NOT_WELL_FORMED_IN_8949.has(v.hex) && !(v.hex in INTEGRAL_FLOATS));
  test.each(rt.map((v) => [v.hex, REENCODED[v.hex] ?? v.hex]))('%s -> %s', (h, want) => {
    const value = decode(fromHex(h));
    expect(hex(encode(value)), 'default encoder').toBe(want);
    expect(hex(deterministic.encode(value)), 'deterministic: true').toBe(want);
    expect(hex(new Encoder({ useRecords: false }).encode(value)), 'new Encoder({ useRecords: false })').toBe(want);
    if (value instanceof Map) {
      expect(hex(no259.encode(value)), 'useTag259ForMaps: false').toBe(h);
      expect(hex(no259det.encode(value)), 'useTag259ForMaps: false, deterministic').toBe(h);
    }
  });

  test('integral float examples (excluded above) are re-encoded as the preferred integer', () => {
    for (const [h, want] of Object.entries(INTEGRAL_FLOATS)) {
      const value = decode(fromHex(h));
      expect(typeof value, h).toBe('number');
      expect(hex(encode(value)), h).toBe(want);
      expect(hex(deterministic.encode(value)), h).toBe(want);
    }
  });

  test('examples that are not preferred serialization get the preferred form', () => {
    const cases = {
      fa7f800000: 'f97c00', fa7fc00000: 'f97e00', faff800000: 'f9fc00',
      fb7ff0000000000000: 'f97c00', fb7ff8000000000000: 'f97e00', fbfff0000000000000: 'f9fc00',
      '5f42010243030405ff': '450102030405',
      '7f657374726561646d696e67ff': '6973747265616d696e67',
      '9fff': '80',
      '9f018202039f0405ffff': '8301820203820405',
      '9f01820203820405ff': '8301820203820405',
      '83018202039f0405ff': '8301820203820405',
      '83019f0203ff820405': '8301820203820405',
      '9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff': '98190102030405060708090a0b0c0d0e0f101112131415161718181819',
      bf61610161629f0203ffff: 'a26161016162820203',
      '826161bf61626163ff': '826161a161626163',
      bf6346756ef563416d7421ff: 'a26346756ef563416d7421',
    };
    // deterministic encoding also sorts the keys: "Amt" (63 41..) before "Fun" (63 46..)
    const sorted = { bf6346756ef563416d7421ff: 'a263416d74216346756ef5' };
    for (const [from, to] of Object.entries(cases)) {
      const v = decode(fromHex(from));
      expect(hex(encode(v)), from).toBe(to);
      expect(hex(deterministic.encode(v)), from).toBe(sorted[from] ?? to);
    }
  });
});
