// Encoding with indefinite lengths (the `indefiniteLengths` option): arrays and maps are written
// as 9f/bf ... ff, at every level, and decode back to the same values.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import * as cborx from 'cbor-x';
import { Encoder, Decoder, decode, diagnose } from 'wirepack/cbor';

const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const indef = new Encoder({ indefiniteLengths: true });

describe('indefiniteLengths', () => {
  test('exact bytes', () => {
    const cases = [
      [[], '9fff'],
      [{}, 'bfff'],
      [[1, [2, 3], []], '9f019f0203ff9fffff'],
      [{ a: 1, b: [2, {}] }, 'bf61610161629f02bfffffff'],
      [[[[[1]]]], '9f9f9f9f01ffffffff'],
      ['x', '6178'],
    ];
    for (const [v, want] of cases) expect(hex(indef.encode(v)), JSON.stringify(v)).toBe(want);
    expect(hex(new Encoder({ indefiniteLengths: true, tagUint8Array: false }).encode(new Uint8Array(0)))).toBe('40');
    expect(diagnose(indef.encode({ a: [1, 2] }))).toBe('{_ "a": [_ 1, 2]}');
  });

  test('deterministic encoding keeps definite lengths', () => {
    expect(hex(new Encoder({ indefiniteLengths: true, deterministic: true }).encode({ b: [1], a: 2 }))).toBe('a2616102616281' + '01');
  });

  test('with the options that write structures of their own, each decoder reads what it can', () => {
    // bundleStrings made its bundle array [offset, value] indefinite, which neither decoder read
    // (wirepack TRAILING_DATA, cbor-x "Unexpected end"): it is off with indefiniteLengths, and the
    // strings are written whole. Records and packed tables stay readable to wirepack; cbor-x reads
    // their arrays only with definite lengths (README).
    const v = [{ name: 'abcd', list: ['efgh', 'ijkl', 'efgh'], n: 1 }, { name: 'mnop', list: [], n: 2 }, 'efgh', 'efgh'];
    const plain = new Encoder({ indefiniteLengths: true, useRecords: false }).encode(v);
    for (const opts of [{ bundleStrings: true }, { bundleStrings: true, useRecords: false }]) {
      const b = new Encoder({ ...opts, indefiniteLengths: true }).encode(v);
      expect(hex(b)).toBe(hex(plain)); // (records are off with indefiniteLengths unless asked for)
      expect(new Decoder({ ...opts, mapsAsObjects: true }).decode(b), JSON.stringify(opts)).toEqual(v);
      expect(new cborx.Decoder({ ...opts, mapsAsObjects: true }).decode(b), JSON.stringify(opts)).toEqual(v);
    }
    const both = new Encoder({ bundleStrings: true, useRecords: true, indefiniteLengths: true }).encode(v);
    expect(new Decoder({ bundleStrings: true }).decode(both)).toEqual(v);
    expect(hex(both)).not.toContain('d9dff9');
    fc.assert(fc.property(fc.jsonValue(), fc.constantFrom({ bundleStrings: true }, { useRecords: true }, { pack: true }, { pack: true, bundleStrings: true },
      { structuredClone: true }, { sequential: true }, { sharedValues: ['a', 'name'] }), (x, opts) => {
      const b = new Encoder({ ...opts, indefiniteLengths: true }).encode(x);
      expect(JSON.stringify(new Decoder({ ...opts, mapsAsObjects: true }).decode(b))).toBe(JSON.stringify(x));
    }), { numRuns: 300 });
  });

  test('random JSON-like values round-trip', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => {
      const b = indef.encode(v);
      expect(JSON.stringify(decode(b))).toBe(JSON.stringify(v));
    }), { numRuns: 300 });
  });
});
