// Encoding with indefinite lengths (the `indefiniteLengths` option): arrays and maps are written
// as 9f/bf ... ff, at every level, and decode back to the same values.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { Encoder, decode, diagnose } from 'wirepack/cbor';

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

  test('random JSON-like values round-trip', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => {
      const b = indef.encode(v);
      expect(JSON.stringify(decode(b))).toBe(JSON.stringify(v));
    }), { numRuns: 300 });
  });
});
