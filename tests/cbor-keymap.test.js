// cbor-x's keyMap: property names (of objects and of Map keys) are written as shorter keys
// (numbers for SenML, RFC 8428), and mapped back on decoding. As cbor-x: a keyMap turns records
// off (unless useRecords: true) and makes maps decode as objects; Maps keep tag 259 and stay Maps.
//
// cbor-x (with records off) writes every object with a 16-bit map head (b9 00 nn); wirepack
// writes the shortest head (a3 for 3 entries), so byte-exact checks use Maps or useRecords: true,
// and objects are compared entry by entry (decoded without the keyMap, as Maps).
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import * as cborx from 'cbor-x';
import { encode, decode, Encoder, Decoder, Tag } from 'wirepack/cbor';
import { hex, fromHex } from './helpers/bytes.js';

import example4 from './vectors/example4.json';
import twitter from './vectors/example-twitter.json';

const RUNS = { numRuns: 200 };
const senmlKeys = { bs: -6, bv: -5, bu: -4, bt: -3, bn: -2, bver: -1, n: 0, u: 1, v: 2, vs: 3, vb: 4, s: 5, t: 6, ut: 7, vd: 8 };
const senml = [
  { bn: '/3303/0/5700', bt: 1278887, v: 35.5 },
  { t: 10, v: 34 },
  { t: 20, v: 33 },
  { t: 30, v: 32 },
  { t: 40, v: 31 },
  { t: 50, v: 30 },
];

/** Every map as a Map with its keys as written (no keyMap, no records). */
const raw = (bytes) => new Decoder({ mapsAsObjects: false, useRecords: false }).decode(bytes);

// data whose keys are mostly in the keyMap
const mappedKey = fc.constantFrom(...Object.keys(senmlKeys), 'other', 'x');
const leaf = fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.boolean(), fc.constant(null), fc.double({ noNaN: true }).filter((x) => !Object.is(x, -0)));
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, leaf, tie('o'), tie('o'), tie('a'), tie('m')),
  a: fc.array(tie('v'), { maxLength: 5 }),
  o: fc.dictionary(mappedKey, tie('v'), { maxKeys: 6, noNullPrototype: true }),
  m: fc.array(fc.tuple(mappedKey, tie('v')), { maxLength: 4 }).map((e) => new Map(e)),
})).v;

describe('keyMap', () => {
  test("cbor-x's SenML example: mapped keys, the same entries as cbor-x, decodes back", () => {
    const ours = new Encoder({ keyMap: senmlKeys }).encode(senml);
    const theirs = new cborx.Encoder({ keyMap: senmlKeys }).encode(senml);
    // cbor-x: a 3-byte map head per object (b9 00 0n) and 35.5 as float64; wirepack: a0+n, f9 5070
    expect(theirs.length - ours.length).toBe(6 * 2 + 6);
    expect(raw(ours)).toEqual(raw(theirs));
    expect([...raw(ours)[0].keys()]).toEqual([-2, -3, 2]);
    expect(new Decoder({ keyMap: senmlKeys }).decode(ours)).toEqual(senml);
    expect(new Decoder({ keyMap: senmlKeys }).decode(theirs)).toEqual(senml);
    expect(new cborx.Decoder({ keyMap: senmlKeys }).decode(ours)).toEqual(senml);
    // exact bytes of the first object: a3, -2 '/3303/0/5700', -3 1278887, 2 35.5 (preferred float)
    expect(hex(new Encoder({ keyMap: senmlKeys }).encode(senml[0]))).toBe('a3216c2f333330332f302f35373030221a001383a702f95070');
  });

  test('Maps: keys mapped, tag 259 kept; byte-exact with cbor-x', () => {
    const m = new Map([['bn', 'x'], ['t', 1], ['unmapped', 2], [99, 3]]);
    const ours = new Encoder({ keyMap: senmlKeys }).encode(m);
    expect(hex(ours)).toBe(hex(new cborx.Encoder({ keyMap: senmlKeys }).encode(m)));
    expect(hex(ours)).toBe('d90103a4216178060168756e6d6170706564021863' + '03');
    const back = new Decoder({ keyMap: senmlKeys }).decode(ours);
    expect(back).toBeInstanceOf(Map);
    expect(back).toEqual(m);
    expect(new cborx.Decoder({ keyMap: senmlKeys }).decode(ours)).toEqual(m);
  });

  test('fast-check: wirepack -> cbor-x and cbor-x -> wirepack, the same entries both ways', () => {
    const we = new Encoder({ keyMap: senmlKeys }), ce = new cborx.Encoder({ keyMap: senmlKeys });
    const wd = new Decoder({ keyMap: senmlKeys }), cd = new cborx.Decoder({ keyMap: senmlKeys });
    fc.assert(fc.property(value, (v) => {
      const ours = we.encode(v), theirs = ce.encode(v);
      expect(raw(ours)).toEqual(raw(theirs));
      expect(wd.decode(theirs)).toEqual(v);
      expect(cd.decode(ours)).toEqual(v);
      expect(wd.decode(ours)).toEqual(v);
    }), RUNS);
  });

  test('useRecords: true with a keyMap: record keys are mapped, byte-exact with cbor-x', () => {
    const opts = { keyMap: senmlKeys, useRecords: true };
    const ints = senml.map((o) => ({ ...o, v: Math.round(o.v) }));
    const ours = new Encoder(opts).encode(ints);
    expect(hex(ours)).toBe(hex(new cborx.Encoder(opts).encode(ints)));
    expect(new Decoder(opts).decode(ours)).toEqual(ints);
    expect(new cborx.Decoder(opts).decode(ours)).toEqual(ints);
    fc.assert(fc.property(fc.array(fc.dictionary(mappedKey, fc.integer(), { maxKeys: 4, noNullPrototype: true }), { maxLength: 8 }), (v) => {
      const bytes = new Encoder(opts).encode(v);
      expect(hex(bytes)).toBe(hex(new cborx.Encoder(opts).encode(v)));
      expect(new Decoder(opts).decode(bytes)).toEqual(v);
    }), RUNS);
  });

  test('fixtures through a keyMap of their own keys', () => {
    for (const doc of [example4, twitter]) {
      const keys = new Set();
      JSON.stringify(doc, (k, v) => { if (k) keys.add(k); return v; });
      const keyMap = Object.fromEntries([...keys].map((k, i) => [k, i]));
      const ours = new Encoder({ keyMap }).encode(doc);
      expect(raw(ours)).toEqual(raw(new cborx.Encoder({ keyMap }).encode(doc)));
      expect(new Decoder({ keyMap }).decode(ours)).toEqual(doc);
      expect(new cborx.Decoder({ keyMap }).decode(ours)).toEqual(doc);
      expect(ours.length).toBeLessThan(encode(doc).length);
    }
  });

  test('decoding: unmapped keys stay; keys that cannot be property names keep the map a Map', () => {
    const d = new Decoder({ keyMap: senmlKeys });
    // {-2: "a", 99: 1, "x": 2}
    expect(d.decode(fromHex('a3216161186301617802'))).toEqual({ bn: 'a', 99: 1, x: 2 });
    // a byte-string key: a Map (cbor-x throws: it cannot make a property name of it)
    const m = d.decode(fromHex('a24161010602'));
    expect(m).toBeInstanceOf(Map);
    const keys = [...m.keys()];
    expect(keys[0]).toBeInstanceOf(Uint8Array);
    expect([...keys[0]]).toEqual([0x61]);
    expect(keys[1]).toBe('t');
    // inside Sets, Tags, arrays and records
    const v = d.decode(new Encoder({ keyMap: senmlKeys }).encode([new Set([{ t: 1 }]), new Tag({ v: 2 }, 4000)]));
    expect(v).toEqual([new Set([{ t: 1 }]), new Tag({ v: 2 }, 4000)]);
    // without a keyMap the numbers are the keys
    expect(decode(new Encoder({ keyMap: senmlKeys }).encode({ t: 1 }))).toEqual({ 6: 1 });
  });

  test('with structuredClone: shared values stay one value, Maps from tag 259 stay Maps, and cycles come back (no stack overflow)', () => {
    const options = { keyMap: { name: 'n', id: 'i' }, structuredClone: true };
    const inner = new Map([['', 0], [0, null], ['name', 'm']]);
    const set = new Set([new Map([[0, [{ name: inner }]]])]);
    const o = { name: 'o', id: 1 };
    o.self = o;
    const m = new Map([[1, o]]);
    m.set('me', m);
    o.m = m;
    const value = { a: inner, again: inner, s: set, s2: set, o };
    const bytes = new Encoder({ ...options }).encode(value);
    for (const back of [new Decoder({ ...options }).decode(bytes), new Decoder({ ...options }).decode(new cborx.Encoder({ ...options }).encode(value))]) {
      expect(back.a).toBeInstanceOf(Map);
      expect([...back.a]).toEqual([['', 0], [0, null], ['name', 'm']]);
      expect(back.again).toBe(back.a);
      expect(back.s2).toBe(back.s);
      const deep = [...back.s][0].get(0)[0].name;
      expect(deep).toBeInstanceOf(Map);
      expect(deep).toBe(back.a);
      expect(back.o.self).toBe(back.o);
      expect(back.o.name).toBe('o');
      expect(back.o.m).toBeInstanceOf(Map);
      expect(back.o.m.get('me')).toBe(back.o.m);
      expect(back.o.m.get(1)).toBe(back.o);
    }
  });

  test('mapsAsObjects: false does not stop a keyMap from tagging Maps 259 (maps decode as objects under a keyMap), as cbor-x', () => {
    const m = new Map([['', new Map([[1, 2]])], [0, 0]]);
    const options = { keyMap: { name: 'n' }, mapsAsObjects: false };
    const bytes = new Encoder({ ...options }).encode(m);
    expect(hex(bytes)).toBe(hex(new cborx.Encoder({ ...options }).encode(m)));
    const back = new Decoder({ ...options }).decode(bytes);
    expect(back).toBeInstanceOf(Map);
    expect([...back.keys()]).toEqual(['', 0]);
    expect(back.get('')).toBeInstanceOf(Map);
  });

  test('decodeMultiple maps keys of every item', () => {
    const e = new Encoder({ keyMap: senmlKeys });
    const bytes = new Uint8Array([...e.encode({ t: 1 }), ...e.encode([{ v: 2 }])]);
    const d = new Decoder({ keyMap: senmlKeys });
    expect(d.decodeMultiple(bytes)).toEqual([{ t: 1 }, [{ v: 2 }]]);
    const seen = [];
    d.decodeMultiple(bytes, (x) => { seen.push(x); });
    expect(seen).toEqual([{ t: 1 }, [{ v: 2 }]]);
  });
});

// cbor-x's experimental `_keyMap` (undocumented there, but public methods of its Encoder and
// Decoder): mapEncode writes the plain objects of an array as Maps with mapped keys (tag 259),
// mapDecode turns them back into objects. Unlike cbor-x, elements that are not plain objects are
// written as they are (cbor-x made a number, a Date or a Map an empty Map: data lost).
describe('_keyMap (mapEncode / mapDecode)', () => {
  const km = { name: 1, value: 2 };
  const rows = [{ name: 'a', value: 1 }, { name: 'b', value: 2, extra: 3 }, {}];

  test('byte-exact with cbor-x both ways, and each decodes the other', () => {
    const ours = new Encoder({ _keyMap: km }).mapEncode(rows);
    const theirs = new cborx.Encoder({ _keyMap: km }).mapEncode(rows);
    expect(hex(ours)).toBe(hex(theirs));
    // [259({1: "a", 2: 1}), ...]
    expect(hex(ours).startsWith('83d90103a201616102' + '01')).toBe(true);
    expect(new Decoder({ _keyMap: km }).mapDecode(theirs)).toEqual(rows);
    expect(new Encoder({ _keyMap: km }).mapDecode(ours)).toEqual(rows);
    expect(new cborx.Decoder({ _keyMap: km }).mapDecode(ours)).toEqual(rows);
    // decode alone gives the Maps as written (records off, tag 259 keeps Maps)
    expect(new Decoder({ _keyMap: km }).decode(ours)[0]).toEqual(new Map([[1, 'a'], [2, 1]]));
  });

  test('the key helpers match cbor-x', () => {
    for (const L of [{ Encoder, Decoder }, cborx]) {
      const e = new L.Encoder({ _keyMap: km, keyMap: { t: 6 } });
      expect(e.encodeKeys({ name: 'x', other: 1 })).toEqual(new Map([[1, 'x'], ['other', 1]]));
      expect(e.decodeKeys(new Map([[2, 'v'], ['z', 0]]))).toEqual({ value: 'v', z: 0 });
      expect(e.decodeKeys([1, 2])).toEqual([1, 2]);
      expect(e.encodeKey('t')).toBe(6);
      expect(e.decodeKey(6)).toBe('t');
      expect(e.decodeKey(7)).toBe(7);
      const d = new L.Decoder({ keyMap: { t: 6 } });
      expect(d.encodeKey('t')).toBe(6);
      expect(d.encodeKey('u')).toBe('u');
      // without _keyMap they do nothing
      expect(d.encodeKeys({ t: 1 })).toEqual({ t: 1 });
      const m = new Map([[6, 1]]);
      expect(d.decodeKeys(m)).toBe(m);
    }
  });

  test('without _keyMap, mapEncode and mapDecode are encode and decode', () => {
    const e = new Encoder({ useRecords: false });
    expect(hex(e.mapEncode(rows))).toBe(hex(e.encode(rows)));
    expect(new Decoder({ mapsAsObjects: true }).mapDecode(e.encode(rows))).toEqual(rows);
    expect(e.mapDecode(e.encode(rows))).toEqual(rows);
    // (cbor-x writes 16-bit map heads with records off: see the top of this file)
    expect(raw(new Encoder({ useRecords: false }).mapEncode(rows))).toEqual(raw(new cborx.Encoder({ useRecords: false }).mapEncode(rows)));
  });

  test('what is not a plain object is written as it is (cbor-x: an empty Map), and only the top array is mapped', () => {
    const when = new Date(86400000);
    const v = [5, 'x', null, when, [{ name: 1 }], new Map([['k', 1]]), { name: { value: 2 } }];
    const e = new Encoder({ _keyMap: km });
    const back = e.mapDecode(e.mapEncode(v));
    // the Map element comes back an object, as every Map of the array (cbor-x's rule); the nested
    // object keeps its own key (only the array's elements are mapped)
    expect(back).toEqual([5, 'x', null, when, [{ name: 1 }], { k: 1 }, { name: { value: 2 } }]);
    expect(new Encoder({ _keyMap: km }).mapEncode(7)).toEqual(new Encoder({ _keyMap: km }).encode(7));
  });

  test('__proto__ and constructor keys are own properties; keys no property name can be keep the Map', () => {
    const e = new Encoder({ _keyMap: { __proto__: null, constructor: 3, polluted: 4 } });
    const row = JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1}');
    const back = e.mapDecode(e.mapEncode([row]))[0];
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toEqual(['__proto__', 'constructor']);
    expect(back.__proto__).toEqual({ polluted: true });
    expect(({}).polluted).toBeUndefined();
    const m = new Map([[new Uint8Array([1]), 2]]);
    expect(new Decoder({ _keyMap: km }).decodeKeys(m)).toBe(m);
  });
});
