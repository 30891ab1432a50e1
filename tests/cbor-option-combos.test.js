// Encoder option combinations against cbor-x 1.6.9: the bytes are cbor-x's (records on), or
// cbor-x's but for its 16-bit plain-map heads (records off: b9 00 nn, 2 bytes more than a head
// under 24 entries, 1 more under 256), and each side decodes the other's. A per-option test can
// miss how two options meet: `pack` with records off wrote every map key whole (1766301), which
// only the combination shows.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import * as cborx from 'cbor-x';
import { Encoder, Decoder, DecodeError } from 'wirepack/cbor';
import { hex } from './helpers/bytes.js';
import { holds } from './helpers/canon.js';

import example4 from './vectors/example4.json';
import twitter from './vectors/example-twitter.json';
import sampleLarge from '../bench/fixtures/sample-large.json';
import datatypes from '../bench/fixtures/sample-datatypes.json';

const FIXTURES = { example4, twitter, sampleLarge, datatypes };
const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'épsilon', '🍺🍺', 'abc', 'abcd', 'x', '', 'name', 'text');
const str = fc.oneof(word, fc.string({ minLength: 4, maxLength: 6 }));
const key = fc.constantFrom('name', 'kind', 'id', 'a', 'value', 'text', 'long-ish key');
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, str, str, fc.integer(), fc.boolean(), fc.constant(null), tie('a'), tie('o')),
  a: fc.array(tie('v'), { maxLength: 8 }),
  o: fc.dictionary(key, tie('v'), { maxKeys: 4, noNullPrototype: true }),
})).v;

/** The bytes cbor-x's plain-map heads add over wirepack's shortest ones. */
const heads = (x) => (Array.isArray(x) ? x.reduce((n, y) => n + heads(y), 0)
  : x !== null && typeof x === 'object' ? Object.values(x).reduce((n, y) => n + heads(y), Object.keys(x).length < 24 ? 2 : Object.keys(x).length < 256 ? 1 : 0) : 0);

// (bundleStrings with records off is left out: wirepack writes plain-map keys whole where cbor-x
// bundles them; README)
const COMBOS = [
  { pack: true }, { pack: true, useRecords: false }, { pack: true, bundleStrings: true }, { bundleStrings: true },
  { pack: true, keyMap: { name: 'n', id: 'i', text: 't' } }, { keyMap: { name: 'n', id: 'i' } },
  { pack: true, sequential: true }, { useRecords: true, sequential: true }, { pack: true, useSelfDescribedHeader: true, useRecords: false },
  { pack: true, maxPrivatePackedValues: 5, useRecords: false }, { sharedValues: ['name', 'text', 'id', 'alpha'], useRecords: false },
  { sharedValues: ['name', 'text', 'id', 'alpha'] },
];

// sharedValues given to the constructor with pack: cbor-x's encoder numbers them from 0, over its
// private values, so that its own decoder reads other values; wirepack's follow the private ones
// (README). Only that cbor-x's decoder reads wirepack's bytes is checked.
const SHARED_PACKED = { sharedValues: ['name', 'alpha'], pack: true, useRecords: false };

/**
 * One encoding both ways: as cbor-x's bytes, and each decoder reading the other's. Where cbor-x
 * loses data (a bundle equal to a packed or shared value, which it writes as a reference to
 * itself: tests/cbor-bundle.test.js), wirepack's bytes differ from its, and wirepack's decoder
 * rejects its.
 */
function check(opts, v) {
  const theirs = new cborx.Encoder({ ...opts }).encode(v);
  const ours = new Encoder({ ...opts, float64: true }).encode(v);
  const plain = opts.useRecords === false || (opts.keyMap !== undefined && opts.useRecords === undefined);
  const lossless = holds(() => expect(new cborx.Decoder({ ...opts }).decode(theirs)).toEqual(v));
  if (!lossless) {
    expect(opts.bundleStrings).toBe(true);
    expect(() => new Decoder({ ...opts }).decode(theirs)).toThrow(DecodeError);
  } else {
    if (plain) expect(ours.length).toBe(theirs.length - heads(v));
    else expect(hex(ours)).toBe(hex(theirs));
    expect(new Decoder({ ...opts }).decode(theirs)).toEqual(v);
  }
  expect(new cborx.Decoder({ ...opts }).decode(ours)).toEqual(v);
  expect(new Decoder({ ...opts }).decode(ours)).toEqual(v);
  expect(new Decoder({ ...opts, codegen: false }).decode(ours)).toEqual(v);
}

describe('encoder option combinations, as cbor-x', () => {
  test.each(COMBOS.map((o) => [JSON.stringify(o), o]))('%s: the fixtures', (_name, opts) => {
    for (const v of Object.values(FIXTURES)) check(opts, v);
  });

  test.each(COMBOS.map((o) => [JSON.stringify(o), o]))('%s: fast-check', (_name, opts) => {
    fc.assert(fc.property(value, (v) => check(opts, v)), { numRuns: 60 });
  });

  test('sharedValues with pack: cbor-x reads wirepack\'s bytes (not its own: see SHARED_PACKED)', () => {
    const read = (v) => {
      const ours = new Encoder({ ...SHARED_PACKED, float64: true }).encode(v);
      expect(new cborx.Decoder({ ...SHARED_PACKED }).decode(ours)).toEqual(v);
      expect(new Decoder({ ...SHARED_PACKED }).decode(ours)).toEqual(v);
    };
    for (const v of Object.values(FIXTURES)) read(v);
    fc.assert(fc.property(value, read), { numRuns: 60 });
    const v = [{ name: 'alpha' }, 'alpha'];
    let own;
    try {
      own = new cborx.Decoder({ ...SHARED_PACKED }).decode(new cborx.Encoder({ ...SHARED_PACKED }).encode(v));
    } catch (e) {
      own = e; // ("Unknown token 0": its private table has no value 0)
    }
    expect(own).not.toEqual(v);
  });
});
