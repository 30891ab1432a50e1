// CBOR sequences (RFC 8742) through decodeMultiple, against cbor-x 1.6.9's decodeMultiple:
// the items in order, or a callback per item (stopped by returning false); a truncated last item
// throws a DecodeError with incomplete: true, the items before it (`values`) and where it starts
// (`lastPosition`), as cbor-x's error has. Records and packed tables defined by an item hold for
// the items after it (as cbor-x).
//
// One difference: when the first item is already truncated, cbor-x's error has `values`
// undefined; wirepack's has [] (and always a `values` array, also with a callback).
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import * as cborx from 'cbor-x';
import { encode, decodeMultiple, Encoder, Decoder, DecodeError, Tag } from 'wirepack/cbor';
import { concat, hex, fromHex } from './helpers/bytes.js';

import example4 from './vectors/example4.json';
import twitter from './vectors/example-twitter.json';

const RUNS = { numRuns: 200 };
const item = fc.oneof(
  fc.integer(), fc.string({ maxLength: 10 }), fc.boolean(), fc.constant(null), fc.double({ noNaN: true }).filter((x) => !Object.is(x, -0)),
  fc.array(fc.integer(), { maxLength: 4 }),
  fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.integer(), { maxKeys: 3, noNullPrototype: true }),
);

/** The error a call throws (or null). */
function thrown(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return null;
}

describe('decodeMultiple', () => {
  test('items in order; with a callback, one call per item, stopped by false (as cbor-x)', () => {
    const bytes = fromHex('01' + '02' + '6161' + '820304');
    expect(decodeMultiple(bytes)).toEqual([1, 2, 'a', [3, 4]]);
    expect(new Decoder().decodeMultiple(bytes)).toEqual([1, 2, 'a', [3, 4]]);
    const ours = [], theirs = [];
    expect(decodeMultiple(bytes, (v, ...rest) => { ours.push([v, rest.length]); return v !== 'a'; })).toBe(undefined);
    cborx.decodeMultiple(bytes, (v, ...rest) => { theirs.push([v, rest.length]); return v !== 'a'; });
    expect(ours).toEqual(theirs);
    expect(ours).toEqual([[1, 0], [2, 0], ['a', 0]]);
  });

  test('fast-check: sequences written by cbor-x and by wirepack, both ways', () => {
    fc.assert(fc.property(fc.array(item, { minLength: 1, maxLength: 8 }), (vs) => {
      const theirs = concat(...vs.map((v) => cborx.encode(v)));
      const ours = concat(...vs.map((v) => encode(v)));
      expect(decodeMultiple(theirs)).toEqual(vs);
      expect(decodeMultiple(ours)).toEqual(vs);
      expect(cborx.decodeMultiple(ours)).toEqual(vs);
      const seen = [];
      decodeMultiple(theirs, (v) => { seen.push(v); });
      expect(seen).toEqual(vs);
    }), RUNS);
  });

  test('fast-check: a truncated last item: incomplete, values and lastPosition as cbor-x', () => {
    fc.assert(fc.property(fc.array(item, { minLength: 1, maxLength: 6 }), fc.nat(), (vs, k) => {
      const parts = vs.map((v) => cborx.encode(v));
      const bytes = concat(...parts);
      const cut = k % bytes.length; // 0..length-1: somewhere before the end
      // the item the cut falls in, and where it starts
      let start = 0, n = 0;
      while (start + parts[n].length <= cut) start += parts[n++].length;
      const cutBytes = bytes.subarray(0, cut);
      if (cut === start && cut > 0) {
        expect(decodeMultiple(cutBytes)).toEqual(vs.slice(0, n));
        return;
      }
      const err = thrown(() => decodeMultiple(cutBytes));
      const ref = thrown(() => cborx.decodeMultiple(cutBytes));
      expect(err).toBeInstanceOf(DecodeError);
      expect(err.incomplete).toBe(true);
      expect(ref.incomplete).toBe(true);
      expect(err.code).toBe('TRUNCATED');
      expect(err.lastPosition).toBe(start);
      expect(err.lastPosition).toBe(ref.lastPosition);
      expect(err.values).toEqual(vs.slice(0, n));
      if (n > 0) expect(err.values).toEqual(ref.values);
      // with a callback, the complete items were reported before the error
      const seen = [];
      const err2 = thrown(() => decodeMultiple(cutBytes, (v) => { seen.push(v); }));
      expect(err2.incomplete).toBe(true);
      expect(seen).toEqual(vs.slice(0, n));
    }), RUNS);
  });

  test('empty input is incomplete; a malformed item is not', () => {
    const empty = thrown(() => decodeMultiple(new Uint8Array(0)));
    expect(empty).toBeInstanceOf(DecodeError);
    expect(empty.incomplete).toBe(true);
    expect(thrown(() => cborx.decodeMultiple(new Uint8Array(0))).incomplete).toBe(true);
    const bad = thrown(() => decodeMultiple(fromHex('0102ff')));
    expect(bad).toBeInstanceOf(DecodeError);
    expect(bad.incomplete).toBe(false);
    expect(bad.values).toEqual([1, 2]);
    expect(bad.lastPosition).toBe(2);
  });

  test('records defined by an item hold for the items after it (cbor-x sequential streams)', () => {
    const c = new cborx.Encoder({ sequential: true });
    const vs = [{ a: 1, b: 2 }, { a: 3, b: 4 }, [{ a: 5, b: 6 }, { c: 7 }], { c: 8 }];
    const bytes = concat(...vs.map((v) => c.encode(v)));
    expect(hex(bytes)).toContain('d9e000820304'); // the second item only refers to record 0
    expect(new Decoder().decodeMultiple(bytes)).toEqual(vs);
    expect(decodeMultiple(bytes)).toEqual(vs);
    const seen = [];
    new Decoder().decodeMultiple(bytes, (v) => { seen.push(v); });
    expect(seen).toEqual(vs);
    // a truncated reference item still reports the items before it
    const err = thrown(() => decodeMultiple(bytes.subarray(0, bytes.length - 1)));
    expect(err.incomplete).toBe(true);
    expect(err.values).toEqual(vs.slice(0, 3));
  });

  test('records written by new Encoder() (defined again in every item) and fixtures', () => {
    const items = [example4, twitter, { a: 1 }, [{ a: 2 }]];
    const ours = concat(...items.map((v) => new Encoder().encode(v)));
    const theirs = concat(...items.map((v) => new cborx.Encoder().encode(v)));
    expect(hex(concat(...items.map((v) => new Encoder({ float64: true }).encode(v))))).toBe(hex(theirs));
    expect(decodeMultiple(theirs)).toEqual(items);
    expect(cborx.decodeMultiple(ours)).toEqual(items);
  });

  test('a bundle holds for its own item only: a later item\'s reference (tag 15) with no bundle is a Tag, as cbor-x reads it (it was BAD_BUNDLE)', () => {
    const first = new Encoder({ bundleStrings: true }).encode({ s: 'bundled string one' });
    const bytes = concat(first, fromHex('a16173cf04'));
    const want = [{ s: 'bundled string one' }, new Map([['s', new Tag(4, 15)]])];
    expect(new cborx.Decoder({}).decodeMultiple(bytes)).toEqual(want);
    expect(new Decoder({}).decodeMultiple(bytes)).toEqual(want);
  });

  test('a packed table defined by an item holds for the items after it (as cbor-x)', () => {
    const bytes = concat(new cborx.Encoder({ pack: true }).encode(['aaaa', 'aaaa']), fromHex('e0'));
    expect(cborx.decodeMultiple(bytes)).toEqual([['aaaa', 'aaaa'], 'aaaa']);
    expect(decodeMultiple(bytes)).toEqual([['aaaa', 'aaaa'], 'aaaa']);
  });
});
