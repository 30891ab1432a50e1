// CBOR shared references (tags 28/29, the structuredClone option): identity and cycles survive,
// references are numbered in the order of their shareable first occurrences, and bad references
// are errors.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { Encoder, decode, diagnose, DecodeError } from 'wirepack/cbor';
import * as cborx from 'cbor-x';

const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const fromHex = (h) => new Uint8Array(h.match(/../g).map((x) => parseInt(x, 16)));
const sc = new Encoder({ structuredClone: true });

describe('structuredClone', () => {
  test('exact bytes: the first occurrence is shareable, later ones refer to it', () => {
    const a = { x: 1 };
    expect(hex(sc.encode([a, a, [a]]))).toBe('83d81ca1617801d81d0081d81d00');
    expect(diagnose(sc.encode([a, a, [a]]))).toBe('[28({"x": 1}), 29(0), [29(0)]]');
    // objects met once are written plainly, with nothing reserved
    expect(hex(sc.encode({ plain: [1, 2] }))).toBe(hex(new Encoder({ useRecords: false }).encode({ plain: [1, 2] })));
  });

  test('indexes follow the order of first occurrences, whatever order the references come in', () => {
    const a = [1], b = [2];
    const bytes = sc.encode([a, b, b, a]);
    expect(diagnose(bytes)).toBe('[28([1]), 28([2]), 29(1), 29(0)]');
    const back = decode(bytes);
    expect(back[0]).toBe(back[3]);
    expect(back[1]).toBe(back[2]);
    expect(back[0]).not.toBe(back[1]);
  });

  test('cycles through objects, arrays and Maps', () => {
    const o = { name: 'c' };
    o.self = o;
    o.list = [o, { up: o }];
    const back = decode(sc.encode(o));
    expect(back.name).toBe('c');
    expect(back.self).toBe(back);
    expect(back.list[0]).toBe(back);
    expect(back.list[1].up).toBe(back);
    const m = new Map();
    m.set('me', m);
    const mb = decode(sc.encode(m));
    expect(mb).toBeInstanceOf(Map);
    expect(mb.get('me')).toBe(mb);
    const arr = [];
    arr.push(arr, arr);
    const ab = decode(sc.encode(arr));
    expect(ab[0]).toBe(ab);
    expect(ab[1]).toBe(ab);
  });

  test('random DAGs keep their identity structure', () => {
    fc.assert(fc.property(fc.array(fc.nat(5), { minLength: 1, maxLength: 30 }), (picks) => {
      const pool = Array.from({ length: 6 }, (_, i) => ({ id: i }));
      const v = picks.map((i) => pool[i]);
      const back = decode(sc.encode(v));
      for (let i = 0; i < v.length; i++) {
        expect(back[i]).toEqual(v[i]);
        for (let j = 0; j < v.length; j++) expect(back[i] === back[j]).toBe(v[i] === v[j]);
      }
    }), { numRuns: 200 });
  });

  test('decodes cbor-x structuredClone output (useRecords: false)', () => {
    const o = { name: 'c', tags: ['a'] };
    o.self = o;
    const back = decode(new cborx.Encoder({ structuredClone: true, useRecords: false }).encode(o));
    expect(back.self).toBe(back);
    expect(back.tags).toEqual(['a']);
  });

  test('a reference to nothing shareable, or to a value still being built, is an error', () => {
    for (const h of ['d81d00', '82d81c01d81d01', 'd81cd81d00', '81d81d6161']) {
      expect(() => decode(fromHex(h)), h).toThrow(DecodeError);
      try { decode(fromHex(h)); } catch (e) { expect(e.code).toBe('BAD_REFERENCE'); }
    }
    // and the next call works
    expect(decode(fromHex('82d81c01d81d00'))).toEqual([1, 1]);
  });
});
