// freezeData (msgpackr's Unpackr option): decoded arrays and plain objects are frozen, records
// included, through Maps, Sets and CBOR Tags; Maps and Sets themselves, binary values, Dates and
// other classes are not. msgpackr freezes the arrays and records it reads; wirepack freezes every
// plain object too (a map decoded as an object), so that the whole decoded tree is read-only.
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import * as msgpackr from 'msgpackr';
import { Packr, Unpackr, pack, unpack, unpackMultiple, decodeIter } from 'wirepack';
import { Encoder, Decoder, Tag, decode as cborDecode, encode as cborEncode } from 'wirepack/cbor';
import { fromHex, concat } from './helpers/bytes.js';

/**
 * msgpackr's result for the JSON value doc, with its renaming of `__proto__` keys to `__proto_`
 * undone: wirepack keeps them as own properties (README).
 */
function protoKept(doc, theirs) {
  if (Array.isArray(doc)) return doc.map((x, i) => protoKept(x, theirs[i]));
  if (doc === null || typeof doc !== 'object') return theirs;
  const o = {};
  for (const k of Object.keys(doc)) {
    Object.defineProperty(o, k, { value: protoKept(doc[k], theirs[k === '__proto__' ? '__proto_' : k]), enumerable: true, writable: true, configurable: true });
  }
  return o;
}

/** Every array and plain object reachable through arrays, objects, Maps, Sets and Tags: frozen. */
function expectDeepFrozen(v, seen = new Set()) {
  if (v === null || typeof v !== 'object' || seen.has(v)) return;
  seen.add(v);
  if (Array.isArray(v)) {
    expect(Object.isFrozen(v)).toBe(true);
    for (const x of v) expectDeepFrozen(x, seen);
  } else if (v instanceof Map) {
    for (const [k, x] of v) { expectDeepFrozen(k, seen); expectDeepFrozen(x, seen); }
  } else if (v instanceof Set) {
    for (const x of v) expectDeepFrozen(x, seen);
  } else if (v instanceof Tag) {
    expect(Object.isFrozen(v)).toBe(true);
    expectDeepFrozen(v.value, seen);
  } else if (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null) {
    expect(Object.isFrozen(v)).toBe(true);
    for (const k of Object.keys(v)) expectDeepFrozen(v[k], seen);
  }
}

/** No array or plain object reachable is frozen. */
function expectNoneFrozen(v) {
  if (v === null || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    expect(Object.isFrozen(v)).toBe(false);
    v.forEach(expectNoneFrozen);
  } else if (Object.getPrototypeOf(v) === Object.prototype) {
    expect(Object.isFrozen(v)).toBe(false);
    Object.values(v).forEach(expectNoneFrozen);
  }
}

const DOC = { list: [1, 'two', { three: [3] }], nested: { a: { b: { c: [] } } }, empty: {}, n: null };

describe('MessagePack', () => {
  test('off by default: nothing is frozen, and a freezing call leaves the next plain one alone', () => {
    expectNoneFrozen(unpack(pack(DOC)));
    const u = new Unpackr({ freezeData: true, mapsAsObjects: true });
    expectDeepFrozen(u.unpack(pack(DOC)));
    expectNoneFrozen(unpack(pack(DOC)));
    expectNoneFrozen(new Unpackr().unpack(pack(DOC)));
  });

  test('arrays, maps as objects and records, with and without generated constructors', () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({ id: i, tags: ['x', 'y'], pos: { x: i, y: 100 - i } }));
    for (const codegen of [true, false]) {
      const p = new Packr({ freezeData: true, codegen });
      const bytes = p.pack(rows);
      // (several calls: shapes get their generated constructors after a few)
      for (let i = 0; i < 5; i++) {
        const v = p.unpack(bytes);
        expect(v).toEqual(rows);
        expectDeepFrozen(v);
      }
      const plain = new Unpackr({ freezeData: true, codegen, useRecords: false });
      for (let i = 0; i < 5; i++) expectDeepFrozen(plain.unpack(pack(rows)));
    }
  });

  test('a frozen value cannot be changed (strict mode throws)', () => {
    const v = new Unpackr({ freezeData: true, mapsAsObjects: true }).unpack(pack({ a: [1] }));
    expect(() => { v.a.push(2); }).toThrow(TypeError);
    expect(() => { v.b = 1; }).toThrow(TypeError);
    expect(v).toEqual({ a: [1] });
  });

  test('Maps, Sets, binary values, Dates and Errors are not frozen, but what they hold is', () => {
    const doc = {
      m: new Map([[1, { x: [2] }], ['k', [3]]]), s: new Set([[4], { y: 5 }]), bin: new Uint8Array([1, 2, 3]),
      f64: new Float64Array([1.5]), d: new Date(5), e: new Error('boom'), re: /a/g,
    };
    const p = new Packr({ structuredClone: true, freezeData: true });
    const v = p.unpack(p.pack(doc));
    expectDeepFrozen(v);
    expect(Object.isFrozen(v.m)).toBe(false);
    v.m.set(2, 2);
    expect(Object.isFrozen(v.s)).toBe(false);
    expect(Object.isFrozen(v.bin) || Object.isFrozen(v.f64) || Object.isFrozen(v.d) || Object.isFrozen(v.e)).toBe(false);
    v.bin[0] = 9;
    v.d.setTime(6);
    expect(v.m.get(1)).toEqual({ x: [2] });
    expect(v.re.source).toBe('a');
  });

  test('cycles and shared values (structuredClone) keep their identity, frozen', () => {
    const o = { name: 'root' };
    o.self = o;
    o.kids = [o, { up: o }];
    o.map = new Map([['o', o]]);
    o.map.set('map', o.map);
    const p = new Packr({ structuredClone: true, freezeData: true });
    const v = p.unpack(p.pack(o));
    expect(v.self).toBe(v);
    expect(v.kids[0]).toBe(v);
    expect(v.kids[1].up).toBe(v);
    expect(v.map.get('map')).toBe(v.map);
    expectDeepFrozen(v);
  });

  test('__proto__ keys stay own properties, frozen', () => {
    const v = new Unpackr({ freezeData: true, mapsAsObjects: true }).unpack(fromHex('81a95f5f70726f746f5f5f81a178c3'));
    expect(Object.getOwnPropertyNames(v)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expectDeepFrozen(v);
    expect({}.x).toBe(undefined);
  });

  test('unpackMultiple, its forEach form, decodeIter: each value', async () => {
    const bytes = concat(pack([1]), pack({ a: [2] }), pack('s'));
    const u = new Unpackr({ freezeData: true, mapsAsObjects: true });
    for (const v of u.unpackMultiple(bytes)) expectDeepFrozen(v);
    const seen = [];
    u.unpackMultiple(bytes, (v) => { seen.push(v); });
    expect(seen).toEqual([[1], { a: [2] }, 's']);
    seen.forEach((v) => expectDeepFrozen(v));
    const it = [];
    for await (const v of decodeIter([bytes.subarray(0, 3), bytes.subarray(3)], { freezeData: true, mapsAsObjects: true })) it.push(v);
    expect(it).toEqual([[1], { a: [2] }, 's']);
    it.forEach((v) => expectDeepFrozen(v));
    expectNoneFrozen(unpackMultiple(bytes));
  });

  test('values packed by msgpackr with records: the same values, all frozen (msgpackr freezes its arrays and records)', () => {
    // (a key "__proto_" next to "__proto__" is one key in msgpackr's result: left out)
    const docs = fc.jsonValue({ maxDepth: 4 }).filter((d) => !JSON.stringify(d).includes('"__proto_"'));
    fc.assert(fc.property(docs, (doc) => {
      const mp = new msgpackr.Packr({ structures: [], freezeData: true });
      const bytes = mp.pack(doc);
      const theirs = mp.unpack(bytes);
      const ours = new Unpackr({ structures: mp.structures, freezeData: true }).unpack(bytes);
      expect(ours).toEqual(protoKept(doc, theirs));
      // (every array and object: a superset of what msgpackr froze)
      expectDeepFrozen(ours);
    }), { numRuns: 200 });
  });
});

describe('CBOR', () => {
  test('Decoder: arrays, objects, records and Tags; the free decode leaves them alone', () => {
    const doc = { rows: [{ a: 1, b: [2] }, { a: 3, b: [4] }], tag: new Tag([1, { t: 2 }], 1234), set: new Set([[5]]) };
    const e = new Encoder();
    const d = new Decoder({ freezeData: true });
    for (let i = 0; i < 4; i++) {
      const v = d.decode(e.encode(doc));
      expect(v).toEqual(doc);
      expectDeepFrozen(v);
    }
    expectNoneFrozen(cborDecode(cborEncode(doc)));
  });

  test('keyMap: the renamed objects are what is frozen', () => {
    const keyMap = { name: 'n', tags: 't' };
    const bytes = new Encoder({ keyMap }).encode([{ name: 'q', tags: ['x'] }, { name: 'r', tags: [] }]);
    const d = new Decoder({ keyMap, freezeData: true });
    const v = d.decode(bytes);
    expect(v).toEqual([{ name: 'q', tags: ['x'] }, { name: 'r', tags: [] }]);
    expectDeepFrozen(v);
    const all = d.decodeMultiple(concat(bytes, bytes));
    expect(all).toEqual([v, v]);
    all.forEach((x) => expectDeepFrozen(x));
  });

  test('a cyclic shared Tag (structuredClone) is frozen and keeps its cycle', () => {
    const t = new Tag(null, 1234);
    t.value = [t];
    const e = new Encoder({ structuredClone: true });
    const v = new Decoder({ freezeData: true }).decode(e.encode(t));
    expect(v).toBeInstanceOf(Tag);
    expect(v.value[0]).toBe(v);
    expectDeepFrozen(v);
  });
});
