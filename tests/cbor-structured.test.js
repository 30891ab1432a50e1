// CBOR shared references (tags 28/29, the structuredClone option): identity and cycles survive,
// references are numbered in the order of their shareable first occurrences, and bad references
// are errors.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { Encoder, Decoder, Tag, decode, decodeMultiple, decodeIter, diagnose, DecodeError, addExtension } from 'wirepack/cbor';
import * as cborx from 'cbor-x';

const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const fromHex = (h) => new Uint8Array(h.match(/../g).map((x) => parseInt(x, 16)));
// (records off: the tags 28/29 around plain maps; with records, as new Encoder({ structuredClone:
// true }) writes them by default, below)
const sc = new Encoder({ structuredClone: true, useRecords: false });

describe('structuredClone', () => {
  test('a sequence of values: each value\'s references (tag 29) count its own shareables (the second value got the first one\'s, as in cbor-x)', () => {
    const s1 = new Set([1]), s2 = new Set([2]);
    const e = new Encoder({ structuredClone: true });
    const parts = [e.encode([s1, s1]), e.encode([s2, s2]), e.encode({ x: s1, y: [s1] })];
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (bytes.set(p, at), at + p.length), 0);
    const check = (out) => {
      expect(out).toHaveLength(3);
      expect(out[0][0]).toBe(out[0][1]);
      expect(out[1][0]).toBe(out[1][1]);
      expect([...out[1][0]]).toEqual([2]);
      expect(out[2].x).toBe(out[2].y[0]);
      expect([...out[2].x]).toEqual([1]);
      expect(out[2].x).not.toBe(out[0][0]);
    };
    check(decodeMultiple(bytes));
    check(new Decoder({ structuredClone: true }).decodeMultiple(bytes));
    const each = [];
    new Decoder({ structuredClone: true }).decodeMultiple(bytes, (v) => { each.push(v); });
    check(each);
    check([...decodeIter([bytes.subarray(0, 5), bytes.subarray(5)], { structuredClone: true })]);
  });

  test('exact bytes: the first occurrence is shareable, later ones refer to it', () => {
    const a = { x: 1 };
    expect(hex(sc.encode([a, a, [a]]))).toBe('83d81ca1617801d81d0081d81d00');
    expect(diagnose(sc.encode([a, a, [a]]))).toBe('[28({"x": 1}), 29(0), [29(0)]]');
    // objects met once are written plainly, with nothing reserved
    expect(hex(sc.encode({ plain: [1, 2] }))).toBe(hex(new Encoder({ useRecords: false }).encode({ plain: [1, 2] })));
  });

  test('with records (the default of new Encoder, as cbor-x): the same options\' Decoder gives objects and Maps back, cycles and all', () => {
    const o = { name: 'c', list: [] };
    o.self = o;
    o.list.push(o, { up: o });
    const m = new Map([['me', o]]);
    m.set('self', m);
    const v = { o, m, again: o };
    const enc = new Encoder({ structuredClone: true });
    expect(enc.useRecords).toBe(true);
    const bytes = enc.encode(v);
    const theirs = new cborx.Encoder({ structuredClone: true }).encode(v);
    for (const b of [bytes, theirs]) {
      for (const back of [new Decoder({ structuredClone: true }).decode(b), new cborx.Decoder({ structuredClone: true }).decode(b), enc.decode(b)]) {
        expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
        expect(back.o.self).toBe(back.o);
        expect(back.o.list[1].up).toBe(back.o);
        expect(back.again).toBe(back.o);
        expect(back.m).toBeInstanceOf(Map);
        expect(back.m.get('me')).toBe(back.o);
      }
      // (cbor-x's decoder gives {} for a reference from a Map to itself)
      for (const back of [new Decoder({ structuredClone: true }).decode(b), enc.decode(b)]) expect(back.m.get('self')).toBe(back.m);
    }
  });

  test('more than 65,535 shared values: indexes of 32 bits (cbor-x wraps its 16-bit ones), read as written', () => {
    const objs = Array.from({ length: 70000 }, (_, i) => ({ i }));
    const v = [...objs, ...objs];
    const mine = sc.encode(v);
    expect(hex(mine.subarray(mine.length - 7))).toBe('d81d1a0001116f'); // the last: 29(69999)
    const back = sc.decode(mine);
    expect(back.length).toBe(140000);
    for (let k = 0; k < 70000; k += 997) expect(back[70000 + k]).toBe(back[k]);
    expect(back[139999]).toBe(back[69999]);
    expect(back[139999].i).toBe(69999);
    // cbor-x's own bytes name object 69999 - 65536 at the last reference: read as they are written
    const theirs = new cborx.Encoder({ structuredClone: true, useRecords: false }).encode(v);
    const read = sc.decode(theirs);
    expect(read[139999]).toBe(read[69999 - 65536]);
    expect(new cborx.Encoder({ structuredClone: true, useRecords: false }).decode(theirs)[139999].i).toBe(69999 - 65536);
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

  test('with deterministic: maps are walked in key order, so shareables come before their references (the bytes were unreadable)', () => {
    const det = new Encoder({ structuredClone: true, deterministic: true });
    const d = { x: 1 };
    // met first under "b", which sorts after "a": 28 must go with "a"
    expect(hex(det.encode({ b: d, a: d }))).toBe('a26161d81ca16178016162d81d00');
    const back = new Decoder({ structuredClone: true, mapsAsObjects: true }).decode(det.encode({ b: d, a: d }));
    expect(back.a).toBe(back.b);
    // random objects and Maps with string, integer and other simple keys, shared values anywhere
    const key = fc.oneof(fc.string({ maxLength: 4 }).filter((k) => k !== '__proto__'), fc.integer({ min: -300, max: 70000 }), fc.constantFrom(true, false, null, undefined, -0),
      fc.double(), fc.float(), fc.integer({ min: -70000, max: 70000 }).map((i) => i / 64), fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), fc.maxSafeInteger(),
      fc.constantFrom(65504, 65505, 5.960464477539063e-8, 6.103515625e-5, 2 ** 32, -(2 ** 32), 2n ** 64n, -(2n ** 64n), 2n ** 64n - 1n));
    // (a BigInt and a number of the same 32-bit integer are one key in the bytes: the first is kept)
    const same = (k) => ((typeof k === 'bigint' && k >= -(2n ** 32n) && k < 2n ** 32n) || (typeof k === 'number' && Number.isInteger(k) && Math.abs(k) < 2 ** 32) ? `n${k}` : `${typeof k}${String(k)}`);
    const one = (entries) => entries.filter(([k], i) => entries.findIndex(([j]) => same(j) === same(k)) === i);
    fc.assert(fc.property(fc.array(fc.tuple(key, fc.nat(4)), { minLength: 1, maxLength: 12 }).map(one), fc.boolean(), (entries, asMap) => {
      const pool = Array.from({ length: 5 }, (_, i) => ({ id: i }));
      const v = asMap ? new Map(entries.map(([k, i]) => [k, [pool[i]]])) : Object.fromEntries(entries.map(([k, i]) => [String(k), pool[i]]));
      const got = new Decoder({ structuredClone: true, mapsAsObjects: !asMap }).decode(det.encode(v));
      const vals = asMap ? [...v.values()].map((x) => x[0]) : Object.values(v);
      const keys = asMap ? [...v.keys()] : Object.keys(v);
      const back = keys.map((k) => (asMap ? (got.has(k) ? got.get(k) : got.get(Number(k)))[0] : got[k]));
      for (let i = 0; i < vals.length; i++) {
        expect(back[i] instanceof Map ? back[i].get('id') : back[i].id).toBe(vals[i].id);
        for (let j = 0; j < vals.length; j++) expect(back[i] === back[j]).toBe(vals[i] === vals[j]);
      }
    }), { numRuns: 1000 });
    // the number options change a key's bytes (float32, floats for integers and large BigInts,
    // float64): whatever they are, the walk's order is the bytes' (order-free check by id)
    const numbers = fc.oneof(fc.double(), fc.float(), fc.integer({ min: -70000, max: 70000 }).map((i) => i / 64), fc.integer(),
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), fc.constantFrom(2n ** 64n, -(2n ** 64n), 2 ** 32, -(2 ** 31) - 1));
    const numberOptions = fc.record({ useFloat32: fc.constantFrom(0, 1, 3), alwaysUseFloat: fc.boolean(), largeBigIntToFloat: fc.boolean(), float64: fc.boolean(), useRecords: fc.boolean() });
    fc.assert(fc.property(numberOptions, fc.array(fc.tuple(numbers, fc.nat(4)), { minLength: 1, maxLength: 12 }), (o, entries) => {
      const pool = Array.from({ length: 5 }, (_, i) => ({ id: i }));
      const enc = new Encoder({ ...o, structuredClone: true, deterministic: true });
      const got = [...new Decoder({ structuredClone: true, mapsAsObjects: false }).decode(enc.encode(new Map(entries.map(([k, i]) => [k, [pool[i]]])))).values()].map((x) => x[0]);
      const id = (x) => (x instanceof Map ? x.get('id') : x.id);
      for (const a of got) for (const b of got) expect(a === b).toBe(id(a) === id(b));
    }), { numRuns: 500 });
    expect(() => new Encoder({ useFloat32: 4, structuredClone: true, deterministic: true }).encode(new Map([[0.5, d], [1.5, d]]))).toThrow(/DECIMAL_FIT/);
    // keys whose order is C's alone are refused rather than written unreadable
    expect(() => det.encode(new Map([[[1], d]]))).toThrow(/deterministic encoding with structuredClone or records/);
    expect(() => det.encode(new Map([[{}, d]]))).toThrow(/deterministic encoding with structuredClone or records/);
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

  test('a shared Tag that contains itself round-trips, and decodes as cbor-x writes and reads it', () => {
    const t = new Tag(undefined, 1234);
    t.value = [t, 'x', { t }];
    const check = (v) => {
      expect(v).toBeInstanceOf(Tag);
      expect(v.tag).toBe(1234);
      expect(v.value[0]).toBe(v);
      expect(v.value[1]).toBe('x');
      expect(v.value[2].t).toBe(v);
    };
    const xt = new cborx.Tag(undefined, 1234);
    xt.value = [xt, 'x', { t: xt }];
    for (const bytes of [sc.encode(t), new cborx.Encoder({ structuredClone: true }).encode(xt)]) {
      check(decode(bytes));
      check(new Decoder({ codegen: false, mapsAsObjects: true }).decode(bytes));
      // cbor-x reads it the same way
      const x = cborx.decode(bytes);
      expect(x.value[0]).toBe(x);
    }
    // the reference as the tag's whole content, in a map, in tag 14 (cbor-x's bundle slice, no
    // bundle here)
    for (const [h, inner] of [
      ['d81cd904d2d81d00', (v) => v.value],
      ['d81cd904d2a16161d81d00', (v) => v.value.a],
      ['d81cce81d81d00', (v) => v.value[0]],
    ]) {
      const v = decode(fromHex(h)), x = cborx.decode(fromHex(h));
      expect(v, h).toBeInstanceOf(Tag);
      expect(inner(v), h).toBe(v);
      expect(inner(x), h).toBe(x);
    }
    // a tag that becomes something else than a Tag, referenced while it is being built: its
    // content is read again with the references taking the first object, whose fields the second
    // read fills (cbor-x's way); an object that cannot take them (frozen) is BAD_REFERENCE, and
    // the next call works
    class Wrapping extends Decoder {
      decodeTag(tag, value, reader) {
        return tag === 1234 ? { wrapped: value } : tag === 1235 ? Object.freeze({ wrapped: value }) : super.decodeTag(tag, value, reader);
      }
    }
    const wrapped = new Wrapping().decode(fromHex('d81cd904d282d81d0062c3a9'));
    expect(Object.keys(wrapped)).toEqual(['wrapped']);
    expect(wrapped.wrapped[0]).toBe(wrapped);
    expect(wrapped.wrapped[1]).toBe('\u00e9');
    let err;
    try { new Wrapping().decode(fromHex('d81cd904d381d81d00')); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(DecodeError);
    expect(err.code).toBe('BAD_REFERENCE');
    expect(new Wrapping().decode(fromHex('d904d281f5'))).toEqual({ wrapped: [true] });
    expect(decode(fromHex('82d81c01d81d00'))).toEqual([1, 1]);
  });

  test('values read again inside values read again: resolved a few levels deep, and hostile nesting fails in linear time', () => {
    // depth n: 28(27(["Error", "m", {cause: ...}])) around an array of references to each level;
    // each level's content is read again, which reads every level inside it again: 2^n reads
    // without a bound (n = 40 would not finish)
    const nested = (n) => {
      let h = '';
      for (let i = 0; i < n; i++) h += 'd81c' + 'd81b83' + '654572726f72' + '616d' + 'a1656361757365';
      h += n < 24 ? (0x80 + n).toString(16) : '98' + n.toString(16).padStart(2, '0');
      for (let i = 0; i < n; i++) h += 'd81d' + (i < 24 ? i.toString(16).padStart(2, '0') : '18' + i.toString(16).padStart(2, '0'));
      return fromHex(h);
    };
    const v = decode(nested(3));
    expect(v).toBeInstanceOf(Error);
    expect(v.cause.cause.cause).toEqual([v, v.cause, v.cause.cause]);
    expect(v.cause.cause.cause[0]).toBe(v);
    let err;
    try { decode(nested(40)); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(DecodeError);
    expect(err.code).toBe('BAD_REFERENCE');
    expect(decode(fromHex('82d81c01d81d00'))).toEqual([1, 1]);
  });

  test('an extension instance that refers to itself (cbor-x\'s own test): the content read again, as cbor-x does', () => {
    class Extended {}
    addExtension({
      Class: Extended, tag: 301,
      decode(data) { const e = new Extended(); e.value = data[0]; e.string = data[1]; return e; },
      encode(instance, enc) { return enc([instance.value, instance.string]); },
    });
    const instance = new Extended();
    instance.value = instance;
    instance.string = 'hi there: an ASCII string long enough to be sliced';
    const data = { extended: instance, list: [instance, { again: instance }] };
    for (const d of [new Decoder({ structuredClone: true, mapsAsObjects: true }), new Decoder({ structuredClone: true, mapsAsObjects: true, codegen: false })]) {
      const out = d.decode(new Encoder({ structuredClone: true }).encode(data));
      expect(out.extended).toBeInstanceOf(Extended);
      expect(out.extended.value).toBe(out.extended);
      expect(out.extended.string).toBe(instance.string);
      expect(out.list[0]).toBe(out.extended);
      expect(out.list[1].again).toBe(out.extended);
    }
  });

  test('28(28(x)): both indices name x, also while x is built (as cbor-x reads them)', () => {
    // (28(28({a: 29(0)})) threw BAD_REFERENCE: the outer index was not yet anything)
    const cases = [
      ['d81cd81ca16161d81d00', (v) => v.a === v],
      ['83d81cd81ca16161d81d01d81d00d81d01', ([m, r0, r1]) => m.a === m && r0 === m && r1 === m],
      // three deep, references to each index from inside, and one after
      ['82d81cd81cd81c83d81d00d81d01d81d02d81d01', ([a, x]) => a.length === 3 && a.every((e) => e === a) && x === a],
    ];
    for (const [h, holds] of cases) {
      for (const dec of [decode, (b) => new Decoder({ codegen: false, mapsAsObjects: true }).decode(b), (b) => cborx.decode(b)]) {
        expect(holds(dec(fromHex(h))), h).toBe(true);
      }
    }
    // an index that is not there yet is still an error, and the next call works
    expect(() => decode(fromHex('d81cd81c81d81d02'))).toThrow(DecodeError);
    expect(decode(fromHex('d81cd81c81d81d01'))[0]).toBeInstanceOf(Array);
  });

  test('a shared Map is one Map whichever way tags 28 and 259 nest', () => {
    // 28(259(map)) as cbor-x writes a shared Map with useTag259ForMaps, and 259(28(map))
    for (const h of ['82d81cd90103a16161d81d00d81d00', '82d90103d81ca16161d81d00d81d00']) {
      for (const dec of [decode, (b) => new Decoder({ codegen: false }).decode(b)]) {
        const [m, again] = dec(fromHex(h));
        expect(m, h).toBeInstanceOf(Map);
        expect(again, h).toBe(m);
        expect(m.get('a'), h).toBe(m);
      }
    }
  });

  // (found by the differential fuzz: a shareable record tag that made no record came back as a
  // plain object with the Tag's fields, copied into the record's placeholder)
  test('a shareable record tag that makes no record is that value, as cbor-x decodes it', () => {
    const decoders = [decode, (b) => new Decoder().decode(b), (b) => new Decoder({ codegen: false }).decode(b)];
    for (const dec of decoders) {
      for (const [h, tag, value] of [
        ['d81cd9f003a10102', 0xf003, { 1: 2 }], // record tag over a map
        ['d81cd9f00380', 0xf003, []], // over an array, record 0x1003 never defined
        ['d81cd9e0008102', 0xe000, [2]],
        ['d81cd9dfff01', 0xdfff, 1], // an inline definition of no array (cbor-x reads 1 as its length)
      ]) {
        const v = dec(fromHex(h));
        expect(v, h).toBeInstanceOf(Tag);
        expect(v.tag, h).toBe(tag);
        // the same value as the tag without tag 28 around it
        expect(v, h).toEqual(dec(fromHex(h.slice(4))));
        if (dec === decode) {
          expect(v, h).toEqual(new Tag(value, tag));
          if (value !== 1) expect(cborx.decode(fromHex(h)), h).toEqual(new Tag(value, tag));
        }
      }
      // shared: both references are the Tag itself
      const [a, b] = dec(fromHex('82d81cd9f003a10102d81d00'));
      expect(a).toBeInstanceOf(Tag);
      expect(b).toBe(a);
      // a record still becomes one object that references inside it reach (a cycle)
      const r = dec(fromHex('d81cd9dfff8319e000816161d81d00'));
      expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
      expect(r.a).toBe(r);
      // a reference inside such a Tag reaches the Tag itself, as cbor-x decodes it: an id with no
      // keys as the tag opens makes the Tag first
      for (const [h, tag] of [['d81cd9f00381d81d00', 0xf003], ['d81cd9e00081d81d00', 0xe000]]) {
        const t = dec(fromHex(h));
        expect(t, h).toBeInstanceOf(Tag);
        expect(t.tag, h).toBe(tag);
        expect(t.value, h).toHaveLength(1);
        expect(t.value[0], h).toBe(t);
        if (dec === decode) {
          const x = cborx.decode(fromHex(h));
          expect(x.value[0], h).toBe(x);
        }
      }
      expect(dec(fromHex('82d81c01d81d00'))).toEqual([1, 1]);
    }
  });

  test('record keys that are a reference to the array the definition is inside: BAD_RECORD (the items read so far were the keys)', () => {
    const decoders = [decode, (b) => new Decoder().decode(b), (b) => new Decoder({ codegen: false }).decode(b), (b) => new Decoder({ keyMap: { a: 'x' } }).decode(b)];
    for (const dec of decoders) {
      // 28([1, 2, 0xdfff([0xe000, 29(0), 'a', 'b'])]): the keys were [1, 2] ({1: 'a', 2: 'b'}; cbor-x
      // {undefined: 'b'}); 28([0xdfff([0xe000, 29(0)]), 1]): no keys yet ([{}, 1], as cbor-x)
      for (const h of ['d81c830102d9dfff8419e000d81d0061616162', 'd81c82d9dfff8219e000d81d0001',
        // the same through a definitions tag (0xdffe) and the legacy record tag (105)
        'd81c8201d9dffe8319e000d81d0080', 'd81c8201d86984190100d81d000102']) {
        expect(() => dec(fromHex(h)), h).toThrow(expect.objectContaining({ name: 'DecodeError', code: 'BAD_RECORD' }));
      }
      // keys that refer to a finished array are keys
      expect(dec(fromHex('82d81c82616b616cd9dfff8419e000d81d000102'))).toEqual([['k', 'l'], { k: 1, l: 2 }]);
      expect(decode(fromHex('a1616101'))).toEqual({ a: 1 }); // (the next call works)
    }
  });
});
