// cbor-x's bundleStrings against cbor-x 1.6.9: strings of 4 to 1023 characters are written as
// tag 14 (strings with a character above U+007F) or tag 15 (the others) around their length in
// UTF-16 units, and joined into two strings written after the value; tag 0xdff9
// [offset, (previous bundle's two strings,) first reference] opens a bundle at the first such
// string, and a new one whenever a bundle would pass 0xf000 characters. The offset is the byte
// distance from its own 1a head to the bundle's strings.
//
// Byte-exact checks use records (cbor-x's plain maps have 16-bit heads where wirepack writes the
// shortest) and integers/strings only (cbor-x writes every non-integer as float64).
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import * as cborx from 'cbor-x';
import { decode, decodeMultiple, Encoder, Decoder, Tag, DecodeError } from 'wirepack/cbor';
import { hex, fromHex, concat } from './helpers/bytes.js';

import example4 from './vectors/example4.json';
import twitter from './vectors/example-twitter.json';
import strings2 from './vectors/strings2.json';
import sampleLarge from '../bench/fixtures/sample-large.json';

const RUNS = { numRuns: 150 };
const FIXTURES = { example4, twitter, strings2, sampleLarge };
const text = fc.oneof(
  fc.string({ maxLength: 12 }), fc.string({ minLength: 4, maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('a', 'é', '€', '🍺', 'z'), minLength: 2, maxLength: 20 }),
  fc.string({ minLength: 1000, maxLength: 1100 }),
);
const key = fc.constantFrom('name', 'id', 'description', 'é-key', 'k');
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, text, text, fc.integer(), fc.boolean(), fc.constant(null), tie('a'), tie('o')),
  a: fc.array(tie('v'), { maxLength: 8 }),
  o: fc.dictionary(key, tie('v'), { maxKeys: 4, noNullPrototype: true }),
})).v;

describe('bundleStrings', () => {
  test('exact bytes (cbor-x\'s encoding of a small document)', () => {
    const v = { greeting: 'hello world', list: ['abcd', 'éèêë', 'xy', 'abcd'], n: 1 };
    const want = 'd9dfff8519e00083d9dff9821a00000018cf08cf04616ecf0b84cf04ce04627879cf040168c3a9c3a8c3aac3ab' +
      '781f6772656574696e676c69737468656c6c6f20776f726c646162636461626364';
    expect(hex(new Encoder({ bundleStrings: true }).encode(v))).toBe(want);
    expect(hex(new cborx.Encoder({ bundleStrings: true }).encode(v))).toBe(want);
    expect(decode(fromHex(want))).toEqual(v);
    expect(new Decoder({ bundleStrings: true }).decode(fromHex(want))).toEqual(v);
    // a string alone is never bundled
    expect(hex(new Encoder({ bundleStrings: true }).encode('hello'))).toBe('6568656c6c6f');
  });

  test('fast-check: byte-exact with cbor-x (records), and each decodes the other', () => {
    const e = new Encoder({ bundleStrings: true }), c = new cborx.Encoder({ bundleStrings: true });
    fc.assert(fc.property(value, (v) => {
      const ours = e.encode(v);
      expect(hex(ours)).toBe(hex(c.encode(v)));
      expect(new Decoder().decode(ours)).toEqual(v);
      expect(new cborx.Decoder({ bundleStrings: true }).decode(ours)).toEqual(v);
    }), RUNS);
  });

  test('fast-check: plain maps (bundled keys) both ways', () => {
    const e = new Encoder({ bundleStrings: true, useRecords: false }), c = new cborx.Encoder({ bundleStrings: true, useRecords: false });
    fc.assert(fc.property(value, (v) => {
      expect(decode(c.encode(v))).toEqual(v);
      expect(new Decoder({ codegen: false, useRecords: false }).decode(c.encode(v))).toEqual(v);
      expect(cborx.decode(e.encode(v))).toEqual(v);
      expect(decode(e.encode(v))).toEqual(v);
    }), RUNS);
  });

  test('many bundles in one message (more than 0xf000 characters), byte-exact', () => {
    const big = [];
    for (let i = 0; i < 3000; i++) big.push('str-' + i + '-' + 'x'.repeat(i % 50), 'é' + i + '€€€');
    const ours = new Encoder({ bundleStrings: true }).encode(big);
    expect(hex(ours)).toBe(hex(new cborx.Encoder({ bundleStrings: true }).encode(big)));
    expect(hex(ours)).toContain('d9dff9841a'); // a bundle that carries the previous one's strings
    expect(decode(ours)).toEqual(big);
    expect(cborx.decode(ours)).toEqual(big);
    // a sequence of such messages
    expect(decodeMultiple(concat(ours, ours))).toEqual([big, big]);
  });

  test.each(Object.keys(FIXTURES))('fixture %s: byte-exact (records, float64), both directions', (name) => {
    const v = FIXTURES[name];
    const ours = new Encoder({ bundleStrings: true, float64: true }).encode(v);
    expect(hex(ours)).toBe(hex(new cborx.Encoder({ bundleStrings: true }).encode(v)));
    expect(new Decoder().decode(ours)).toEqual(v);
    expect(new cborx.Decoder({ bundleStrings: true }).decode(ours)).toEqual(v);
    const plain = new cborx.Encoder({ bundleStrings: true, useRecords: false }).encode(v);
    expect(decode(plain)).toEqual(v);
    expect(cborx.decode(new Encoder({ bundleStrings: true, useRecords: false }).encode(v))).toEqual(v);
  });

  test('with pack: packed strings are references, the others are bundled (as cbor-x)', () => {
    const v = { a: ['repeated', 'repeated', 'once only', 'another one'], b: 'repeated' };
    const ours = new Encoder({ bundleStrings: true, pack: true }).encode(v);
    expect(hex(ours)).toBe(hex(new cborx.Encoder({ bundleStrings: true, pack: true }).encode(v)));
    expect(decode(ours)).toEqual(v);
  });

  test('with pack, a bundle whose strings equal a packed value is written as it is (cbor-x loses them; found by fast-check)', () => {
    // the packed table's "name" is the only bundled string: cbor-x then writes the bundle's
    // string as packed reference 0 (e0), which is that bundled string itself, and reads back ''
    for (const [v, theirs, ours] of [
      [[{ name: false }, 'name'], 'd8338481d9dff9821a00000015cf04808082d9dfff8319e00081e0f4e060e0', 'd8338481d9dff9821a00000015cf04808082d9dfff8319e00081e0f4e060646e616d65'],
      [['name', 'name'], 'd8338481d9dff9821a0000000ccf04808082e0e060e0', 'd8338481d9dff9821a0000000ccf04808082e0e060646e616d65'],
    ]) {
      for (const useRecords of [undefined, false]) {
        // (records off: the map's head differs from cbor-x's, README; the strings do not)
        const opts = { pack: true, bundleStrings: true, useRecords };
        const exact = useRecords === undefined || typeof v[0] === 'string';
        if (exact) expect(hex(new cborx.Encoder(opts).encode(v))).toBe(theirs);
        expect(new cborx.Decoder(opts).decode(new cborx.Encoder(opts).encode(v))).not.toEqual(v); // (cbor-x's loss)
        const bytes = new Encoder(opts).encode(v);
        if (exact) expect(hex(bytes)).toBe(ours);
        expect(new Decoder(opts).decode(bytes)).toEqual(v);
        expect(new Decoder({ ...opts, codegen: false }).decode(bytes)).toEqual(v);
        expect(new cborx.Decoder(opts).decode(bytes)).toEqual(v);
        // cbor-x's bytes are an error here, not a value with '' for "name"
        expect(() => new Decoder(opts).decode(fromHex(theirs))).toThrow(DecodeError);
      }
    }
    // the same with sharedValues, pack or not: bundled "abcd" and "efgh" make the bundle
    // "abcdefgh", a shared value (cbor-x: ['', ''])
    for (const opts of [{ sharedValues: ['abcdefgh'], bundleStrings: true }, { sharedValues: ['abcdefgh'], bundleStrings: true, pack: true }]) {
      for (const v of [['abcd', 'efgh'], ['abcdefgh', 'abcd', 'efgh']]) {
        const bytes = new Encoder(opts).encode(v);
        expect(new Decoder(opts).decode(bytes)).toEqual(v);
        expect(new cborx.Decoder(opts).decode(bytes)).toEqual(v);
      }
    }
    expect(new cborx.Decoder().decode(new cborx.Encoder({ sharedValues: ['abcdefgh'], bundleStrings: true }).encode(['abcd', 'efgh']))).toEqual(['', '']);
  });

  test('without a bundle, tags 14 and 15 are Tags (as cbor-x)', () => {
    expect(decode(fromHex('ce04'))).toEqual(new Tag(4, 14));
    expect(cborx.decode(fromHex('cf04'))).toEqual(new cborx.Tag(4, 15));
    expect(decode(fromHex('cf04'))).toEqual(new Tag(4, 15));
  });

  test('bad bundles are DecodeErrors', () => {
    const good = new Encoder({ bundleStrings: true }).encode(['abcd']);
    // cut inside the strings at the end: incomplete
    const cut = () => decode(good.subarray(0, good.length - 1));
    expect(cut).toThrow(DecodeError);
    let err = null;
    try { cut(); } catch (e) { err = e; }
    expect(err.incomplete).toBe(true);
    // an offset pointing back into the item itself
    const back = fromHex('d9dff9821a00000000cf04');
    expect(() => decode(back)).toThrow(DecodeError);
    // strings that are not strings
    const notStr = fromHex('d9dff9821a00000007cf040000');
    expect(() => decode(notStr)).toThrow(DecodeError);
  });

  test('a reference (tag 14 or 15) that is no count or runs past its bundle\'s string is BAD_BUNDLE (cbor-x reads a wrong string)', () => {
    // the bundle's strings are '' and 'abcd' (the offset, 7, counts from the 1a head)
    const at = (ref) => fromHex(`d9dff9821a${(7 + ref.length / 2 - 2).toString(16).padStart(8, '0')}${ref}606461626364`);
    expect(decode(at('cf04'))).toBe('abcd');
    expect(decode(at('ce00'))).toBe('');
    expect(decode(at('82cf02cf02'))).toEqual(['ab', 'cd']);
    expect(cborx.decode(at('82cf02cf02'))).toEqual(['ab', 'cd']);
    // each of these cbor-x decodes to the string in the comment, silently
    const bad = {
      cf05: 'abcd', // 5 of 4 characters
      '82cf02cf03': ['ab', 'cd'], // the second takes 3 of the 2 left
      ce01: '', // 1 of the other string's 0
      cf20: 'abc', // -1: slice(0, -1)
      cff93e00: 'a', // 1.5
      cffb7ff0000000000000: 'abcd', // Infinity
      cf40: '', // no count at all (an empty byte string): cbor-x adds it to its position as text,
      cff7: '', // and undefined; every later string of the bundle then comes out wrong
    };
    for (const [ref, theirs] of Object.entries(bad)) {
      expect(cborx.decode(at(ref))).toEqual(theirs);
      let err = null;
      try { decode(at(ref)); } catch (e) { err = e; }
      expect(err, ref).toBeInstanceOf(DecodeError);
      expect(err.code, ref).toBe('BAD_BUNDLE');
      expect(() => new Decoder({ codegen: false }).decode(at(ref)), ref).toThrow(DecodeError);
    }
    // a second bundle in the message (an array of 4: it carries the first one's strings) starts
    // its own count: 'abcd' from the first, then 4 of the second's 'wxyz', then a fifth
    const two = (last) => fromHex(`d9dff9821a0000001182cf04d9dff9841a0000000d606461626364${last}60647778797a`);
    expect(decode(two('cf04'))).toEqual(['abcd', 'wxyz']);
    expect(cborx.decode(two('cf04'))).toEqual(['abcd', 'wxyz']);
    expect(() => decode(two('cf05'))).toThrow(expect.objectContaining({ code: 'BAD_BUNDLE' }));
    // and the next call is unaffected
    expect(decode(at('cf04'))).toBe('abcd');
  });

  test('the bundle tag over an array whose first element is no offset is no bundle: every element is read as a value', () => {
    // (elements 1 and 2 of a 4-element array were skipped as a previous bundle's strings even
    // then, so a value of them came back as null, and null there was BAD_BUNDLE: found by fuzzing)
    for (const h of ['d9dff9 84 60 40 40 00', 'd9dff9 84 60 f6 f6 00', 'd9dff9 84 60 a0 80 00']) {
      const bytes = fromHex(h.replace(/ /g, ''));
      expect(decode(bytes)).toBe(0); // (the tag's value is its last element, as with a bundle)
      expect(decodeMultiple(concat(bytes, bytes))).toEqual([0, 0]);
    }
    expect(decode(fromHex('82d9dff984614101020304'))).toEqual([3, 4]); // 57337(["A", 1, 2, 3]) in an array
  });
});

describe('a bundle as a map key (found by the fuzz differential, seed 1234567)', () => {
  test('stands for a string when its value is one, or a key cbor-x coerces; else the map is a Map, as without the bundle', () => {
    // {57337([offset, 15(1)]): 2} and the bundle's strings '' and 'k': the key is 'k'
    expect(decode(fromHex('a1 d9dff9 82 1805 cf01 02 60 616b'.replace(/ /g, '')))).toEqual({ k: 2 });
    // a number: a property name, as cbor-x coerces it
    expect(decode(fromHex('a1 d9dff9 82 1804 07 02 60 60'.replace(/ /g, '')))).toEqual({ 7: 2 });
    // 3(4), an array: the key as it is, in a Map, as {3(4): 1} and {[1, 2]: 1} decode (the map
    // was made an object for the bundle, whose key then threw BAD_REFERENCE)
    const tagged = decode(fromHex('a1 d9dff9 82 1805 c304 01 60 60'.replace(/ /g, '')));
    expect(tagged).toBeInstanceOf(Map);
    expect([...tagged]).toEqual([[new Tag(4, 3), 1]]);
    expect(tagged).toEqual(decode(fromHex('a1c30401')));
    expect([...decode(fromHex('a1 d9dff9 82 1806 820102 01 60 60'.replace(/ /g, '')))]).toEqual([[[1, 2], 1]]);
  });

  test('a packed reference key that stands for no string: BAD_REFERENCE naming what it is', () => {
    // 51([[[1, 2]], [], [], {simple(0): 5}]): the key is the table's array (cbor-x: "Invalid property name type object")
    let err;
    try { decode(fromHex('d83384818201028080a1e005')); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(DecodeError);
    expect([err.code, /is none: an array/.test(err.message)]).toEqual(['BAD_REFERENCE', true]);
  });
});

describe('bundles that overlap their item (found by fuzzing; lead)', () => {
  test('an item that reaches into its bundle strings is BAD_BUNDLE, never decoded twice', () => {
    let err;
    try { decode(fromHex('d9dff982028261616162')); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(DecodeError);
    expect([err.code, err.offset]).toEqual(['BAD_BUNDLE', 6]);
    expect(decode(fromHex('a0'))).toEqual({});
  });
});
