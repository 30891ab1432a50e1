// Packed CBOR (draft-ietf-cbor-packed) as cbor-x 1.6.9 writes and reads it: with `pack: true`,
// strings longer than 3 characters met at least twice (counted in the order cbor-x counts them)
// go into a table, tag 51 [values, prefixes, suffixes, rump]; in the rump the i-th string is the
// simple value i (i < 16) or tag 6 with (i - 16) / 2 (even i) or (15 - i) / 2 (odd i, negative).
// Decoding also takes cbor-x's prefix (225-255, 28704-32767, ...) and suffix (216-223, ...) tags.
//
// cbor-x's plain maps (records off) have 16-bit heads, wirepack's the shortest; so byte-exact
// checks use records (cbor-x's `new Encoder()` default) or values without plain objects.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import * as cborx from 'cbor-x';
import { decode, Encoder, Decoder, Tag, Simple, DecodeError } from 'wirepack/cbor';
import { hex, fromHex } from './helpers/bytes.js';

import example4 from './vectors/example4.json';
import twitter from './vectors/example-twitter.json';
import sampleLarge from '../bench/fixtures/sample-large.json';
import strings from '../bench/fixtures/strings.json';

const RUNS = { numRuns: 200 };
const FIXTURES = { example4, twitter, sampleLarge, strings };
// few distinct strings, so that they repeat
const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'épsilon', '🍺🍺', 'abc', 'abcd', 'x', '');
const str = fc.oneof(word, fc.string({ minLength: 4, maxLength: 6 }));
const key = fc.constantFrom('name', 'kind', 'id', 'a', 'value', 'long-ish key');
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, str, str, fc.integer(), fc.boolean(), fc.constant(null), tie('a'), tie('o')),
  a: fc.array(tie('v'), { maxLength: 8 }),
  o: fc.dictionary(key, tie('v'), { maxKeys: 4, noNullPrototype: true }),
})).v;
const noObjects = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, str, str, fc.integer(), tie('a')),
  a: fc.array(tie('v'), { maxLength: 10 }),
})).v;

/** The strings of the packed table at the start of `bytes` (d8 33 84 ...), or null. */
function tableOf(bytes) {
  if (hex(bytes.subarray(0, 3)) !== 'd83384') return null;
  return new Decoder({ useRecords: false }).decodeMultiple(bytes.subarray(3))[0];
}

describe('pack: true', () => {
  test('exact bytes: a table of the repeated strings, references in the rump', () => {
    const v = { hello: 'world', items: ['world', 'world2', 'world2', 'xyzw', 'xyzw', 'world'] };
    const want = 'd833848365776f726c6466776f726c64326478797a778080' +
      'd9dfff8419e000826568656c6c6f656974656d73e086e0e1e1e2e2e0';
    expect(hex(new Encoder({ pack: true }).encode(v))).toBe(want);
    expect(hex(new cborx.Encoder({ pack: true }).encode(v))).toBe(want);
    expect(decode(fromHex(want))).toEqual(v);
    // nothing repeated: no table at all
    expect(hex(new Encoder({ pack: true }).encode(['abcd', 'efgh']))).toBe('8264616263646465666768');
  });

  test('more than 16 strings: tag 6 references, even and odd', () => {
    const v = [];
    for (let i = 0; i < 40; i++) v.push('str' + i + '!', 'str' + i + '!');
    const ours = new Encoder({ pack: true, useRecords: false }).encode(v);
    expect(hex(ours)).toBe(hex(new cborx.Encoder({ pack: true, useRecords: false }).encode(v)));
    // string 16 is c6 00, string 17 is c6 20 (-1), string 18 is c6 01
    expect(hex(ours)).toContain('c600c600c620c620c601c601');
    expect(decode(ours)).toEqual(v);
    expect(cborx.decode(ours)).toEqual(v);
  });

  test('fast-check: byte-exact with cbor-x (records, and values without plain objects)', () => {
    const e = new Encoder({ pack: true }), c = new cborx.Encoder({ pack: true });
    const e2 = new Encoder({ pack: true, useRecords: false }), c2 = new cborx.Encoder({ pack: true, useRecords: false });
    fc.assert(fc.property(value, noObjects, (v, w) => {
      expect(hex(e.encode(v))).toBe(hex(c.encode(v)));
      expect(hex(e2.encode(w))).toBe(hex(c2.encode(w)));
    }), RUNS);
  });

  test('fast-check: plain maps (records off): the same table as cbor-x; both decode both', () => {
    const e = new Encoder({ pack: true, useRecords: false }), c = new cborx.Encoder({ pack: true, useRecords: false });
    fc.assert(fc.property(value, (v) => {
      const ours = e.encode(v), theirs = c.encode(v);
      expect(tableOf(ours)).toEqual(tableOf(theirs));
      expect(decode(ours)).toEqual(v);
      expect(decode(theirs)).toEqual(v);
      expect(new Decoder({ codegen: false, useRecords: false }).decode(theirs)).toEqual(v);
      expect(cborx.decode(ours)).toEqual(v);
    }), RUNS);
  });

  test('plain maps (records off): keys of the table are references too, as cbor-x writes them', () => {
    // (keys were written whole until the map path was chosen after the table: example4 took
    // 5,846 bytes packed, cbor-x's 4,734)
    const v = [{ alpha: 'value1', beta: 'value2' }, { alpha: 'value1', beta: 'value3' }];
    const ours = new Encoder({ pack: true, useRecords: false }).encode(v);
    expect(hex(ours)).toBe('d833848365616c7068616676616c7565316462657461808082a2e0e1e26676616c756532a2e0e1e26676616c756533');
    // cbor-x's bytes, but for its map heads (b9 00 nn: 2 bytes more than a head under 24
    // entries, 1 more under 256; float64: its float forms)
    const heads = (x) => (Array.isArray(x) ? x.reduce((n, y) => n + heads(y), 0)
      : x !== null && typeof x === 'object' ? Object.values(x).reduce((n, y) => n + heads(y), Object.keys(x).length < 24 ? 2 : Object.keys(x).length < 256 ? 1 : 0) : 0);
    for (const w of [v, example4, twitter, sampleLarge]) {
      const theirs = new cborx.Encoder({ pack: true, useRecords: false }).encode(w);
      expect(new Encoder({ pack: true, useRecords: false, float64: true }).encode(w).length).toBe(theirs.length - heads(w));
    }
    fc.assert(fc.property(value, (w) => {
      const theirs = new cborx.Encoder({ pack: true, useRecords: false }).encode(w);
      expect(new Encoder({ pack: true, useRecords: false, float64: true }).encode(w).length).toBe(theirs.length - heads(w));
    }), RUNS);
  });

  test('packed strings as map keys decode as property names', () => {
    const v = [{ name: 'alpha', kind: 'x' }, { name: 'beta', kind: 'y' }, { name: 'alpha' }];
    const theirs = new cborx.Encoder({ pack: true, useRecords: false }).encode(v);
    // the keys are simple values e0/e2 in the rump
    expect(hex(theirs)).toContain('b90002e0e2e16178');
    expect(decode(theirs)).toEqual(v);
    expect(new Decoder({ mapsAsObjects: false }).decode(theirs)).toEqual(v.map((o) => new Map(Object.entries(o))));
  });

  test.each(Object.keys(FIXTURES))('fixture %s: byte-exact (records, float64) and both directions', (name) => {
    const v = FIXTURES[name];
    const ours = new Encoder({ pack: true, float64: true }).encode(v);
    expect(hex(ours)).toBe(hex(new cborx.Encoder({ pack: true }).encode(v)));
    expect(new Decoder().decode(ours)).toEqual(v);
    expect(new cborx.Decoder().decode(ours)).toEqual(v);
    const theirs = new cborx.Encoder({ pack: true, useRecords: false }).encode(v);
    expect(decode(theirs)).toEqual(v);
    expect(cborx.decode(new Encoder({ pack: true, useRecords: false }).encode(v))).toEqual(v);
  });

  test('maxPrivatePackedValues limits the table (as cbor-x)', () => {
    const v = ['aaaa', 'bbbb', 'cccc', 'aaaa', 'bbbb', 'cccc'];
    const ours = new Encoder({ pack: true, maxPrivatePackedValues: 2 }).encode(v);
    expect(hex(ours)).toBe(hex(new cborx.Encoder({ pack: true, maxPrivatePackedValues: 2 }).encode(v)));
    expect(tableOf(ours)).toEqual(['aaaa', 'bbbb']);
    expect(decode(ours)).toEqual(v);
  });
});

describe('decoding packed CBOR', () => {
  test('prefix and suffix tags (cbor-x numbering: prefixes from tag 225 = index 1)', () => {
    // 51 [["aaaa"], ["P0", "P1"], ["S0"], [e0, 225("x"), 216("y")]]
    const bytes = fromHex('d83384' + '8164' + '61616161' + '82625030625031' + '8162' + '5330' + '83e0d8e16178d8d86179');
    const want = ['aaaa', 'P1x', 'yS0'];
    expect(decode(bytes)).toEqual(want);
    expect(cborx.decode(bytes)).toEqual(want);
    // arrays and maps combine too
    const arr = fromHex('d83384' + '8164' + '61616161' + '8280820102' + '80' + 'd8e1820304');
    expect(decode(arr)).toEqual([1, 2, 3, 4]);
    expect(cborx.decode(arr)).toEqual([1, 2, 3, 4]);
  });

  test('two- and four-byte prefix and suffix tags, and what cannot be joined: BAD_REFERENCE (cbor-x makes something of it)', () => {
    const enc = (x) => hex(new cborx.Encoder({ useRecords: false }).encode(x));
    const table = (prefixes, suffixes, rump) => fromHex('d83384' + enc(['v0']) + prefixes + suffixes + rump);
    const pre = enc(Array.from({ length: 40 }, (_, i) => `p${i}-`)), suf = enc(Array.from({ length: 12 }, (_, i) => `-s${i}`));
    // tags 225-255 and 28704-32767: prefixes 1-31 and 32-4095; 216-223 and 27647-28671: suffixes 0-7 and 8-1032
    for (const [rump, want] of [['d8ff6178', 'p31-x'], ['d970206178', 'p32-x'], ['d970276178', 'p39-x'], ['d8df6178', 'x-s7'],
      ['d96bff6178', 'x-s8'], ['d96c026178', 'x-s11']]) {
      expect(decode(table(pre, suf, rump)), rump).toBe(want);
      expect(cborx.decode(table(pre, suf, rump)), rump).toBe(want);
    }
    // the 4-byte ones: prefix 4096 (tag 1879052288) and suffix 1024 (tag 1811940352)
    const big = (n, s) => enc(Array.from({ length: n }, (_, i) => (i === n - 1 ? s : '')));
    expect(decode(table(big(4097, 'P-'), '80', 'da700010006178'))).toBe('P-x');
    expect(decode(table('80', big(1025, '-S'), 'da6c0004006178'))).toBe('x-S');
    expect(cborx.decode(table(big(4097, 'P-'), '80', 'da700010006178'))).toBe('P-x');
    // maps as objects join; byte strings are joined (cbor-x makes an object of their indices)
    const obj = table(enc([null, { a: 1 }]), '80', 'd8e1a1616202'); // (tag 225 is prefix 1)
    expect(decode(obj)).toEqual({ a: 1, b: 2 });
    expect(cborx.decode(obj)).toEqual({ a: 1, b: 2 });
    const bytes = table('82f6420102', '80', 'd8e1420304'); // prefixes [null, h'0102']
    expect([...decode(bytes)]).toEqual([1, 2, 3, 4]);
    expect(cborx.decode(bytes)).toEqual({ 0: 3, 1: 4 });
    // no such prefix or suffix, a table that is no array, or kinds that do not join: each of these
    // cbor-x decodes to what the comment says (or throws a TypeError), wirepack throws BAD_REFERENCE
    const bad = [
      [table(pre, suf, 'd970606178'), { 0: 'x' }], // prefix 64 of 40
      [table(pre, suf, 'd96c106178'), 'xundefined'], // suffix 17 of 12
      [table(pre, suf, 'd8e18101'), 'p1-1'], // a string prefix, an array rump
      [table(pre, suf, 'd8e1a1616101'), 'p1-[object Object]'],
      [table('f6', suf, 'd8e16178'), TypeError], // prefixes: null
      [table(pre, 'f7', 'd8d86178'), TypeError],
      [table(enc([null, [1]]), '80', 'd8e16178'), [1, 'x']], // an array prefix, a string rump
    ];
    for (const [b, theirs] of bad) {
      if (theirs === TypeError) expect(() => cborx.decode(b)).toThrow(TypeError);
      else expect(cborx.decode(b)).toEqual(theirs);
      let err = null;
      try { decode(b); } catch (e) { err = e; }
      expect(err, hex(b)).toBeInstanceOf(DecodeError);
      expect(err.code).toBe('BAD_REFERENCE');
    }
    // (and the next call works)
    expect(decode(table(pre, suf, 'd8e16178'))).toBe('p1-x');
  });

  test('the table may be used before the rump by the prefixes/suffixes themselves, and nests', () => {
    // outer table ["outer"], inner table ["inner"] shadows index 0 inside
    const bytes = fromHex('d83384' + '81656f75746572' + '80' + '80' + '82e0' + 'd83384' + '8165696e6e6572' + '80' + '80' + 'e0');
    expect(decode(bytes)).toEqual(['outer', 'inner']);
    expect(cborx.decode(bytes)).toEqual(['outer', 'inner']);
  });

  test('without a table: simple values stay Simple (cbor-x throws), tag 6 is a Tag (as cbor-x)', () => {
    expect(decode(fromHex('e0'))).toEqual(new Simple(0));
    expect(() => cborx.decode(fromHex('e0'))).toThrow();
    expect(decode(fromHex('c600'))).toEqual(new Tag(0, 6));
    expect(cborx.decode(fromHex('c600'))).toEqual(new cborx.Tag(0, 6));
    // an index past the table: a Simple for simple values (unassigned ones decode to Simple);
    // for tag 6, which can only be a reference, BAD_REFERENCE (cbor-x gives undefined, losing
    // the value silently; as a map key it was BAD_REFERENCE already)
    const t = 'd83384' + '8164' + '61616161' + '80' + '80';
    expect(decode(fromHex(t + '82e0e5'))).toEqual(['aaaa', new Simple(5)]);
    expect(cborx.decode(fromHex(t + '82c605e0'))).toEqual([undefined, 'aaaa']);
    for (const ref of ['c605', 'c601', 'c620', 'c61864']) {
      expect(() => decode(fromHex(t + '82' + ref + 'e0')), ref).toThrow(expect.objectContaining({ name: 'DecodeError', code: 'BAD_REFERENCE' }));
    }
    // (tag 6(0) is entry 16, the first after the 16 that simple values 0-15 name)
    let t17 = 'd83384' + '91';
    for (let i = 0; i < 17; i++) t17 += '62' + hex(new TextEncoder().encode(`v${String.fromCharCode(97 + i)}`));
    t17 += '8080';
    expect(decode(fromHex(t17 + '82c600ef'))).toEqual(['vq', 'vp']);
    expect(() => decode(fromHex(t17 + '81c620'))).toThrow(expect.objectContaining({ code: 'BAD_REFERENCE' })); // entry 17
  });

  test('malformed tables are errors', () => {
    expect(() => decode(fromHex('d8338381616180' + '80'))).toThrow(/4 element array/); // 3 elements
    expect(() => decode(fromHex('d833848080808001'.slice(0, 14)))).toThrow(); // truncated
    expect(() => decode(fromHex('d83384808080e0'))).toThrow(/4 element array/); // empty values
  });

  test('packed references as map keys: as cbor-x reads them, where C interns them as the table strings and where it leaves them', () => {
    const nameKind = 'd83384' + '82646e616d65646b696e64' + '80' + '80';
    let tab18 = 'd83384' + '92';
    for (let i = 0; i < 18; i++) tab18 += '63' + hex(new TextEncoder().encode(`k${String(i).padStart(2, '0')}`));
    tab18 += '8080';
    const cases = [
      [nameKind + 'a2e001e102', { name: 1, kind: 2 }],
      [nameKind + 'bfe101e002ff', { kind: 1, name: 2 }],
      [nameKind + 'a2e0016478797a7702', { name: 1, xyzw: 2 }],
      [nameKind + '81a1e1a1e0f6', [{ kind: { name: null } }]],
      [nameKind + '82a2e001e102a2e003e104', [{ name: 1, kind: 2 }, { name: 3, kind: 4 }]],
      [tab18 + 'a3c60001c62002ef03', { k16: 1, k17: 2, k15: 3 }],
      [tab18 + 'a1c6180001', { k16: 1 }],
      [tab18 + 'a1d8060001', { k16: 1 }], // tag 6 in two bytes: the host resolves it
      // after a nested item, the table is the inner one's followed by the outer's (cbor-x): e0 is "x"
      [nameKind + '82' + 'd83384816178808000' + 'a1e001', [0, { x: 1 }]],
      ['d8338481646e616d658080d8338481646b696e648080a1e001', { kind: 1 }], // in a nested item
      [nameKind + 'a1e0a1e1a1e0e1', { name: { kind: { name: 'kind' } } }],
      ['d8339f82646e616d65646b696e648080a1e001ff', { name: 1 }], // an indefinite packed array (cbor-x: an error)
      // after a packed item, the last table stays for the rest of the call: an object, as cbor-x
      ['82' + nameKind + '00' + 'a2e101e002', [0, { kind: 1, name: 2 }]],
      // packed items one after the other: each its own table, and past a shorter one the one before
      ['82' + nameKind + 'a1e001' + 'd83384' + '81646b696e64' + '8080' + 'a1e002', [{ name: 1 }, { kind: 2 }]],
      ['82' + nameKind + '00' + 'd83384' + '816178' + '8080' + 'a2e001e102', [0, { x: 1, kind: 2 }]],
      // a table led by a number, and one with a map in it (its key a reference to the table before)
      ['d83384' + '8201646e616d65' + '8080' + 'a2e101e002', { name: 1, 1: 2 }],
    ];
    for (const [h, want] of cases) {
      const bytes = fromHex(h);
      if (h.startsWith('d8339f')) expect(() => cborx.decode(bytes)).toThrow(/4 element array/);
      else expect(cborx.decode(bytes), h).toEqual(want);
      expect(decode(bytes), h).toEqual(want);
      expect(new Decoder({ useRecords: false, codegen: false }).decode(bytes), h).toEqual(want);
      expect(new Decoder({ useRecords: false, maxDepth: 4000 }).decode(fromHex('81'.repeat(1100) + h)), h).toEqual(
        new Array(1100).fill(0).reduce((v) => [v], want));
    }
    // a table of 140 strings: C keeps the first 128 (WP_PK_MAX), the host resolves the others
    let big = 'd83384' + '988c';
    for (let i = 0; i < 140; i++) big += '64' + hex(new TextEncoder().encode(`s${String(i).padStart(3, '0')}`));
    big += '8080' + 'a4' + 'e5' + '01' + 'c63837' + '02' + 'c61839' + '03' + 'c63839' + '04';
    const bigWant = { s005: 1, s127: 2, s130: 3, s131: 4 };
    expect(cborx.decode(fromHex(big))).toEqual(bigWant);
    expect(decode(fromHex(big))).toEqual(bigWant);
    // an 8-byte integer under tag 6 is no index (cbor-x: an error), nor a reference past the table
    for (const h of [tab18 + 'a1c63b000000000000000001', nameKind + 'a1e201']) {
      expect(() => decode(fromHex(h)), h).toThrow();
      expect(() => cborx.decode(fromHex(h)), h).toThrow();
    }
  });

  test('a decodeTag that decides tag 6 itself gets the references that are map keys too', () => {
    let h = 'd83384' + '92';
    for (let i = 0; i < 18; i++) h += '63' + hex(new TextEncoder().encode(`k${String(i).padStart(2, '0')}`));
    h += '8080' + 'a2c60001e002';
    class Sixes extends Decoder {
      /** @param {number} tag @param {any} value @param {any} reader */
      decodeTag(tag, value, reader) {
        return tag === 6 ? `six ${value}` : super.decodeTag(tag, value, reader);
      }
    }
    expect(new Sixes({ useRecords: false }).decode(fromHex(h))).toEqual({ 'six 0': 1, k00: 2 });
    expect(decode(fromHex(h))).toEqual({ k16: 1, k00: 2 });
  });

  test('sharedValues (cbor-x option): references without a table', () => {
    const d = new Decoder({ sharedValues: ['shared0', 'shared1'] });
    expect(d.decode(fromHex('82e0e1'))).toEqual(['shared0', 'shared1']);
  });
});

describe('shared packed values (sharedValues, findCommonStringsToPack)', () => {
  const shared = ['shared string', 'another shared', 'x'];

  test('sharedValues: strings of the list are references to their index, as cbor-x writes them', () => {
    const v = ['shared string', ['x', 'another shared', 'not shared'], 'shared string'];
    const ours = new Encoder({ sharedValues: shared, useRecords: false }).encode(v);
    expect(hex(ours)).toBe('83e083e2e16a6e6f7420736861726564e0');
    expect(hex(ours)).toBe(hex(new cborx.Encoder({ sharedValues: shared, useRecords: false }).encode(v)));
    expect(new Decoder({ sharedValues: shared }).decode(ours)).toEqual(v);
    expect(new cborx.Decoder({ sharedValues: shared }).decode(ours)).toEqual(v);
    // without the list, the references are simple values
    expect(decode(ours)[0]).toEqual(new Simple(0));
  });

  test('sharedValues with pack: after the private values (tag 6 from index 16), as a Decoder with pack reads them', () => {
    const v = ['shared string', 'abcd', 'abcd', 'another shared'];
    const ours = new Encoder({ sharedValues: shared, pack: true, useRecords: false }).encode(v);
    // 51([["abcd"], [], [], [6(0), simple(0), simple(0), 6(-1)]])
    expect(hex(ours)).toBe('d833848164616263648080' + '84c600e0e0c620');
    expect(new Decoder({ sharedValues: shared, pack: true }).decode(ours)).toEqual(v);
    expect(new cborx.Decoder({ sharedValues: shared, pack: true }).decode(ours)).toEqual(v);
  });

  test.each([false, true])('findCommonStringsToPack (pack: %s): byte-exact with cbor-x over a sequence, and decodable', (pack) => {
    const ours = new Encoder({ pack, useRecords: true }), theirs = new cborx.Encoder({ pack, useRecords: true });
    const finishOurs = ours.findCommonStringsToPack(), finishTheirs = theirs.findCommonStringsToPack();
    for (let i = 0; i < 20; i++) {
      const v = { shouldShare: 'same each time', shouldShare2: 'same each time 2', shouldntShare: 'different each time ' + i, list: ['same each time', 'word' + (i % 3)] };
      if (i === 10) {
        finishOurs({ threshold: 5 });
        finishTheirs({ threshold: 5 });
        expect(ours.sharedValues).toEqual(theirs.sharedValues);
        expect(ours.sharedValues).toContain('same each time');
        expect(ours.sharedValues).not.toContain('different each time 3');
      }
      const bytes = ours.encode(v);
      expect(hex(bytes), `message ${i}`).toBe(hex(theirs.encode(v)));
      expect(ours.decode(bytes)).toEqual(v);
      expect(theirs.decode(bytes)).toEqual(v);
      expect(new Decoder({ sharedValues: ours.sharedValues, pack }).decode(bytes)).toEqual(v);
      if (i >= 10) expect(bytes.length).toBeLessThan(new Encoder({ pack, useRecords: true }).encode(v).length);
    }
  });

  test('findCommonStringsToPack with bundleStrings: the bundles\' strings are counted as cbor-x counts them, and a shared one is still written as a string', () => {
    // cbor-x counts each message's two joined bundle strings ('' and 'abcdefghabcd' here), so
    // they become shared values too; a bundle equal to one is then written as it is (cbor-x: a
    // reference to itself, read back as '')
    const ours = new Encoder({ bundleStrings: true, useRecords: false }), theirs = new cborx.Encoder({ bundleStrings: true, useRecords: false });
    const finishOurs = ours.findCommonStringsToPack(), finishTheirs = theirs.findCommonStringsToPack();
    const v = { a: 'abcd', b: 'efgh', c: 'abcd' };
    for (let i = 0; i < 6; i++) expect(hex(ours.encode(v))).toBe(hex(theirs.encode(v)).replace('b90003', 'a3'));
    finishOurs({ threshold: 4 });
    finishTheirs({ threshold: 4 });
    expect(ours.sharedValues).toEqual(theirs.sharedValues);
    expect(ours.sharedValues).toContain('abcdefghabcd');
    for (const w of [v, ['abcd', 'efgh', 'abcd', 'wxyz'], { s: 'abcdefgh', t: 'abcd' }, ['abcdef', 'ghabcd']]) {
      const bytes = ours.encode(w);
      expect(ours.decode(bytes)).toEqual(w);
      expect(new cborx.Decoder({ sharedValues: ours.sharedValues, useRecords: false }).decode(bytes)).toEqual(w);
    }
  });

  test('sharedValues as map keys: objects (records off), from cbor-x and from wirepack, as cbor-x reads them', () => {
    const keys = ['name', 'text', 'id'];
    const v = [{ name: 'a', id: 1, other: { text: 't', name: 'name' } }, 'text', { x: { id: 2 } }];
    const theirs = new cborx.Encoder({ sharedValues: keys, useRecords: false }).encode(v);
    expect(hex(theirs)).toContain('b90003e06161');
    const d = new Decoder({ sharedValues: keys, useRecords: false });
    expect(d.decode(theirs)).toEqual(v);
    expect(new Decoder({ sharedValues: keys, useRecords: false, codegen: false }).decode(theirs)).toEqual(v);
    const e = new Encoder({ sharedValues: keys, useRecords: false });
    expect(e.decode(e.encode(v))).toEqual(v);
    expect(d.decode(e.encode(v))).toEqual(v);
    // nested past the depth where the reader stops recursing
    let deep = { name: 'leaf' };
    for (let i = 0; i < 1500; i++) deep = { id: deep };
    const deepBytes = fromHex('a1e2'.repeat(1500) + 'a1e0646c656166');
    expect(new Decoder({ sharedValues: keys, useRecords: false, maxDepth: 2000 }).decode(deepBytes)).toEqual(deep);
    // without the shared values, the keys are simple values: a Map
    expect(new Decoder({ useRecords: false }).decode(theirs)[0]).toBeInstanceOf(Map);
  });

  test('a packed reference as a map key that refers to nothing: BAD_REFERENCE (not a key "[object Object]")', () => {
    // 51([["abcd"], [], [], {simple(0): 1, simple(5): 2}]), and {simple(0): 1, simple(5): 2} with one shared value
    const inPacked = fromHex('d833848164616263648080a2e001e502'), bare = fromHex('a2e001e502');
    for (const [bytes, opts] of [[inPacked, { useRecords: false }], [bare, { sharedValues: ['q'], useRecords: false }], [inPacked, { useRecords: false, codegen: false }]]) {
      let err;
      try { new Decoder(opts).decode(bytes); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(DecodeError);
      expect(err.code).toBe('BAD_REFERENCE');
      expect(new Decoder(opts).decode(fromHex('a1e001'))).toEqual(opts.sharedValues ? { q: 1 } : new Map([[new Simple(0), 1]]));
    }
    expect(decode(fromHex('d833848164616263648080a1e001'))).toEqual({ abcd: 1 });
    // the same past the depth where the reader stops recursing
    expect(() => new Decoder({ sharedValues: ['id'], useRecords: false, maxDepth: 2000 }).decode(fromHex('a1e0'.repeat(1000) + 'a1e501')))
      .toThrow(expect.objectContaining({ code: 'BAD_REFERENCE' }));
  });

  test('shared values loaded by getStructures: simple-value references before any tag 6, and after the private ones with pack', () => {
    const shared = ['alpha', 'beta', 'gamma'];
    // without pack: numbered from 0 (simple values); a Decoder that only has getStructures asks
    // for them at the first reference (a simple value read as Simple before)
    let saved = null;
    const plain = new Encoder({ sharedValues: shared, useRecords: false, saveStructures: (s) => { saved = s; } });
    const bytes = plain.encode(['beta', 'alpha', 'gamma', 'other']);
    expect(hex(bytes)).toBe('84e1e0e2656f74686572');
    saved = saved || { structures: [], packedValues: shared };
    let asked = 0;
    const d = new Decoder({ getStructures: () => { asked++; return saved; }, useRecords: false });
    expect(d.decode(bytes)).toEqual(['beta', 'alpha', 'gamma', 'other']);
    expect(d.decode(bytes)).toEqual(['beta', 'alpha', 'gamma', 'other']);
    expect(new cborx.Decoder({ getStructures: () => saved, useRecords: false }).decode(bytes)).toEqual(['beta', 'alpha', 'gamma', 'other']);
    // asked at most once in a call, however many references find nothing
    asked = 0;
    const none = new Decoder({ getStructures: () => { asked++; return { structures: [] }; }, useRecords: false });
    expect(none.decode(fromHex('83e0e1e2'))).toEqual([new Simple(0), new Simple(1), new Simple(2)]);
    expect(asked).toBe(1);
    // with pack: after the 16 private values, on the first call as on the next
    let packedSaved = null;
    const packing = new Encoder({ pack: true, sharedValues: shared, structures: [], saveStructures: (s) => { packedSaved = s; } });
    const v = { list: ['gamma', 'beta', 'alpha', 'gamma'], again: 'beta' };
    const pb = packing.encode(v);
    const loader = new Decoder({ pack: true, getStructures: () => packedSaved });
    expect(loader.decode(pb)).toEqual(v);
    expect(loader.decode(pb)).toEqual(v);
    expect(new Decoder({ pack: true, sharedValues: shared, structures: packedSaved.structures }).decode(pb)).toEqual(v);
  });

  test('findCommonStringsToPack: new values follow the shared values already there, and are saved with the structures', () => {
    let saved = null, saves = 0;
    const e = new Encoder({ sharedValues: ['first'], saveStructures: (s) => { saved = s; saves++; }, getStructures: () => saved, useRecords: false });
    const finish = e.findCommonStringsToPack();
    for (let i = 0; i < 6; i++) e.encode(['common', 'first', 'rare' + i]);
    finish();
    expect(e.sharedValues).toEqual(['first', 'common']);
    expect(saved.packedValues).toEqual(['first', 'common']);
    const bytes = e.encode(['common', 'first', 'rare']);
    expect(saves).toBe(1); // (once, by the function: not again after the next encode)
    expect(hex(bytes)).toBe('83e1e064726172' + '65');
    expect(new Decoder({ sharedValues: ['first', 'common'] }).decode(bytes)).toEqual(['common', 'first', 'rare']);
    // another encoder that loads them decodes with them, before it has encoded anything
    const loader = new Encoder({ saveStructures: () => {}, getStructures: () => saved, useRecords: false });
    expect(loader.decode(bytes)).toEqual(['common', 'first', 'rare']);
    // counting stopped: a third call of encode adds nothing
    for (let i = 0; i < 6; i++) e.encode(['later']);
    finish();
    expect(e.sharedValues).toEqual(['first', 'common']);
  });
});
