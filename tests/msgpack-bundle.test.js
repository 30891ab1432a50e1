// msgpackr's bundleStrings on the encode side: strings of 4..4095 characters are written as
// 0xc1 and their length (negative for non-Latin strings), and their text goes into two joined
// strings after the message, found through ext 0x62 whose 4-byte reference is the byte distance
// to them (further bundles: an ext16 holding the next reference and the previous strings).
// Bytes are compared with msgpackr 2.1.4 (variableMapSize, as wirepack always writes the
// smallest map header), and both decoders read the bytes of the other.
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import * as msgpackr from 'msgpackr';
import { Packr, Unpackr, unpack } from 'wirepack';
import { hex } from './helpers/bytes.js';
import { canon } from './helpers/canon.js';

const mrBytes = (opts, v) => hex(new msgpackr.Packr({ variableMapSize: true, ...opts }).pack(v));
const wpBytes = (opts, v) => hex(new Packr(opts).pack(v));
const both = (opts, v) => expect(wpBytes(opts, v)).toBe(mrBytes(opts, v));
const same = (got, want) => expect(canon(got)).toEqual(canon(want, { negZeroIsZero: true }));
const B = { bundleStrings: true };
const BP = { bundleStrings: true, useRecords: false };
const utf8hex = (s) => hex(new TextEncoder().encode(s));

describe('exact bytes', () => {
  test('one bundle: d6 62 reference, c1 + lengths, the strings after the value', () => {
    const v = ['hello', 'wörld', 'ab'];
    const bytes = wpBytes(BP, v);
    // 93, d6 62 [0x0b: the byte distance from the reference to the strings] c1 05 c1 fb a2 'ab',
    // then the non-Latin strings and the Latin ones
    expect(bytes).toBe('93' + 'd662' + '0000000b' + 'c105' + 'c1fb' + 'a26162' + 'a6' + utf8hex('wörld') + 'a5' + utf8hex('hello'));
    both(BP, v);
    both(B, v);
    same(new msgpackr.Unpackr(BP).unpack(new Packr(BP).pack(v)), v);
  });

  test('short, long and top-level strings are not bundled', () => {
    expect(wpBytes(BP, 'hello')).toBe('a568656c6c6f');
    const long = 'x'.repeat(0x1000);
    both(BP, ['abc', long, 'x'.repeat(0xfff)]);
    expect(wpBytes(BP, ['abc'])).toBe('91a3616263');
  });

  test('with records: keys are bundled too, and lengths 0x40..0x7f take the uint8 form', () => {
    const v = [{ name: 'x'.repeat(0x50), value: 'ok' }, { name: 'yyyy', value: 'zz' }];
    both(B, v);
    expect(wpBytes(B, v)).toContain('c1cc50');
    same(new msgpackr.Unpackr(B).unpack(new Packr(B).pack(v)), v);
  });

  test('maps: bundled keys', () => {
    both(BP, { longer: 'value', k: 'v' });
  });

  test('more than 0x5500 characters: further bundles (ext16 with the previous strings)', () => {
    const strs = [];
    for (let i = 0; i < 3000; i++) strs.push('str' + i + (i % 3 ? 'é' : '') + (i % 7 ? '' : '𝄞'));
    both(BP, strs);
    both(B, strs);
    const bytes = wpBytes(BP, strs);
    expect(bytes.match(/c8....62/g).length).toBeGreaterThan(0);
    same(new msgpackr.Unpackr(BP).unpack(new Packr(BP).pack(strs)), strs);
    const big = Array.from({ length: 40 }, (_, i) => String.fromCharCode(65 + (i % 26)).repeat(4000));
    both(BP, big);
    same(new msgpackr.Unpackr(BP).unpack(new Packr(BP).pack(big)), big);
  });

  test('with structuredClone: ids inserted between a reference and its strings', () => {
    const o = { k: 'shared!' };
    const strs = Array.from({ length: 2500 }, (_, i) => 'value' + i);
    const v = [o, 'text1', o, strs, [o, { w: 'wwww' }], 'tail'];
    for (const opts of [{ ...B, structuredClone: true }, { ...BP, structuredClone: true }]) {
      both(opts, v);
      const back = new msgpackr.Unpackr(opts).unpack(new Packr(opts).pack(v));
      expect(back[0]).toBe(back[2]);
      expect(back[3]).toEqual(strs);
      expect(back[5]).toBe('tail');
    }
  });

  test('lone surrogates become U+FFFD in both (the length counts UTF-16 units)', () => {
    const v = ['ab\ud800cd', 'x\udfffyz'];
    both(BP, v);
  });
});

describe('records defined again in every message', () => {
  test('the same slot with the same keys, other keys of the same count, more keys', () => {
    const msgs = [
      [{ alpha: 'xxxx', bravo: 1 }, { alpha: 'yyyy', bravo: 2 }],
      [{ alpha: 'zzzz', bravo: 3 }],
      [{ alpha: 'xxxx', charlie: 4 }],
      [{ alphaa: 'xxxx', bravo: 5 }],
      [{ bravo: 6, alpha: 'xxxx' }],
      [{ alpha: 'xxxx', bravo: 7, charlie: 8 }],
      [{ alpha: 'xxxx' }, { alpha: 'xxxx', bravo: 9 }],
      [{ alpha: 'xxxx', bravo: 10 }],
    ];
    const dec = new Unpackr(B);
    for (let round = 0; round < 2; round++) {
      for (const v of msgs) {
        const bytes = new msgpackr.Packr(B).pack(v);
        const got = dec.unpack(bytes);
        expect(got).toEqual(v);
        expect(got.map((o) => Object.keys(o))).toEqual(v.map((o) => Object.keys(o)));
        expect(unpack(bytes)).toEqual(v);
      }
    }
  });
});

describe('property', () => {
  const str = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: 'grapheme', maxLength: 10 }),
    fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ minLength: 60, maxLength: 300 }));
  const key = fc.string({ maxLength: 10 }).filter((k) => k !== '__proto__');
  const doc = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, str, fc.integer(), fc.constant(null), tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 10 }),
    object: fc.dictionary(key, tie('value'), { maxKeys: 5, noNullPrototype: true }),
  })).value;

  test('wirepack bytes = msgpackr bytes, and msgpackr reads them', () => {
    fc.assert(fc.property(doc, (v) => {
      both(B, v);
      both(BP, v);
      same(new msgpackr.Unpackr(B).unpack(new Packr(B).pack(v)), v);
    }), { numRuns: 300 });
  });

  test('large arrays of strings (several bundles)', () => {
    fc.assert(fc.property(fc.array(fc.string({ minLength: 4, maxLength: 600 }), { minLength: 50, maxLength: 300 }), (v) => {
      both(BP, v);
    }), { numRuns: 20 });
  });

  test('msgpackr pack -> wirepack unpack (decoder side)', () => {
    fc.assert(fc.property(doc, (v) => {
      same(new Unpackr(B).unpack(new msgpackr.Packr(B).pack(v)), v);
      same(new Unpackr(BP).unpack(new msgpackr.Packr(BP).pack(v)), v);
    }), { numRuns: 200 });
  });

  test('one decoder, many messages: each defines its records again, in the same slots', () => {
    // (a slot remembers the shape of its last definition: the keys must be compared, not trusted)
    const dec = new Unpackr(B);
    fc.assert(fc.property(fc.array(doc, { minLength: 1, maxLength: 6 }), (vs) => {
      for (const v of vs) {
        const bytes = new msgpackr.Packr(B).pack(v);
        same(dec.unpack(bytes), v);
        same(unpack(bytes), v);
      }
    }), { numRuns: 200 });
  });

  test('wirepack round trip', () => {
    fc.assert(fc.property(doc, (v) => {
      const p = new Packr(B);
      same(p.unpack(p.pack(v)), v);
    }), { numRuns: 200 });
  });
});

describe('extensions of the bundle type that are not bundles', () => {
  // a map key that is an extension of type 0x62 but shorter than a bundle (4 bytes) is an
  // extension key like any other: the map comes back as a Map with it, never as an object whose
  // key is "[object Object]" (found by fuzz_msgpack_decode; C took any 0x62 key for a bundle)
  test.each([
    ['ext8 of 1 byte', '81c7016200a3616263'],
    ['ext8 of 3 bytes', '81c703620a0b0ca3616263'],
    ['fixext2', '81d5620a0ba3616263'],
  ])('%s as a key', (_name, h) => {
    const bytes = Uint8Array.from(h.match(/../g).map((x) => parseInt(x, 16)));
    const other = bytes.slice();
    other[h.startsWith('81c7') ? 3 : 2] = 0x63; // the same with type 0x63
    const v = new Unpackr({ useRecords: false }).unpack(bytes);
    expect(v).toBeInstanceOf(Map);
    const [[k, x]] = [...v];
    expect(x).toBe('abc');
    expect(k.type).toBe(0x62);
    const w = new Unpackr({ useRecords: false }).unpack(other);
    expect(w).toBeInstanceOf(Map);
    expect([...w][0][0].type).toBe(0x63);
    expect([...k.data]).toEqual([...[...w][0][0].data]);
  });
});
