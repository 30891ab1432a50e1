// msgpackr's Packr options on the encode side, byte for byte against msgpackr 2.1.4 (with
// variableMapSize: wirepack always writes the smallest map header, msgpackr map16 without it):
// Map keys of any type, toJSON, skipValues, encodeUndefinedAsNil, useTimestamp32,
// mapAsEmptyObject / setAsEmptyObject, coercibleKeyAsNumber, onInvalidDate, writeFunction,
// useBuffer, RESERVE_START_SPACE, and extensions added with addExtension (and their precedence
// over toJSON and the built-in types).
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import * as msgpackr from 'msgpackr';
import { Packr, Unpackr, addExtension, pack, unpack } from 'wirepack';
import { hex, concat } from './helpers/bytes.js';
import { canon } from './helpers/canon.js';

const mrBytes = (opts, v) => hex(new msgpackr.Packr({ variableMapSize: true, ...opts }).pack(v));
const wpBytes = (opts, v) => hex(new Packr(opts).pack(v));
const both = (opts, v) => expect(wpBytes(opts, v)).toBe(mrBytes(opts, v));
const PLAIN = { useRecords: false };
const same = (got, want) => expect(canon(got)).toEqual(canon(want, { negZeroIsZero: true }));
const key = fc.string({ maxLength: 8 }).filter((k) => k !== '__proto__');
const leaf = fc.oneof(fc.constant(null), fc.constant(undefined), fc.boolean(), fc.integer({ min: -100, max: 200 }),
  fc.double({ noNaN: true }), fc.string({ maxLength: 12 }));
const doc = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 8 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 6, noNullPrototype: true }),
})).value;

describe('Map keys of any type', () => {
  test('numbers, objects, arrays, null, booleans as keys, and the bytes of msgpackr', () => {
    const m = new Map([[1, 'a'], ['1', 'b'], [null, 0], [true, [1]], [[1, 2], { x: 1 }], [{ k: 1 }, 2], [2.5, 3], [10n, 4]]);
    both(PLAIN, m);
    both({}, m);
    expect(wpBytes(PLAIN, new Map([[1, 2], [null, true]]))).toBe('820102c0c3');
    const back = new msgpackr.Unpackr({ mapsAsObjects: false }).unpack(new Packr(PLAIN).pack(m));
    expect([...back.keys()].slice(0, 3)).toEqual([1, '1', null]);
  });

  test('decoded with maps as objects: keys that are numbers, booleans, nil or undefined become property names, as msgpackr makes them; other keys give a Map', () => {
    // (undefined keys are in api.test.js: this file gives type-0 extensions to a class of its own)
    const m = new Map([[1, 'a'], ['b', 2], [null, 0], [true, [1]], [2.5, 3], [-7, 4], [2n ** 64n - 1n, 6]]);
    const bytes = new msgpackr.Packr(PLAIN).pack(m);
    for (const u of [new Unpackr({ mapsAsObjects: true }), new Unpackr({ mapsAsObjects: true, codegen: false })]) {
      const got = u.unpack(bytes);
      expect(got).toEqual(new msgpackr.Unpackr({ mapsAsObjects: true }).unpack(bytes));
      expect(Object.keys(got)).toEqual(['1', 'b', 'null', 'true', '2.5', '-7', '18446744073709551615']);
    }
    expect(unpack(bytes)).toEqual(msgpackr.unpack(bytes));
    // (no key is coerced into a Map's)
    expect([...new Unpackr({ mapsAsObjects: false }).unpack(bytes).keys()]).toEqual([...m.keys()]);
    // a key that is no property name: a Map (msgpackr throws)
    const binKeyed = pack(new Map([['a', 1], [new Uint8Array([1]), 2]]));
    expect(() => msgpackr.unpack(binKeyed)).toThrow();
    expect(unpack(binKeyed)).toBeInstanceOf(Map);
  });

  test('allowArraysInMapKeys with maps as objects: keys that are arrays of primitives are their comma-joined text, as msgpackr makes them', () => {
    const m = new Map([[[1, 2, 3], 1], [[1, 2, ['foo', 3.14]], 2], ['plain', 3], [4, 4]]);
    const bytes = new msgpackr.Packr(PLAIN).pack(m);
    const opts = { mapsAsObjects: true, allowArraysInMapKeys: true };
    const want = { '1,2,3': 1, '1,2,foo,3.14': 2, plain: 3, 4: 4 };
    expect(new msgpackr.Unpackr(opts).unpack(bytes)).toEqual(want);
    expect(new Unpackr(opts).unpack(bytes)).toEqual(want);
    expect(new Unpackr({ ...opts, codegen: false }).unpack(bytes)).toEqual(want);
    // deeper than the recursion-safe depth (the iterative builder)
    let deep = bytes;
    for (let i = 0; i < 500; i++) deep = concat([0x91], deep);
    let v = new Unpackr(opts).unpack(deep);
    for (let i = 0; i < 500; i++) v = v[0];
    expect(v).toEqual(want);
    // an array key with an array two levels in, or an object: the Map stays (msgpackr throws)
    const deeper = new msgpackr.Packr(PLAIN).pack(new Map([[[1, [2, [3]]], 1]]));
    expect(new Unpackr(opts).unpack(deeper)).toBeInstanceOf(Map);
    // without the option, or with maps as Map, array keys keep the Map
    expect(new Unpackr({ mapsAsObjects: true }).unpack(bytes)).toBeInstanceOf(Map);
    expect(new Unpackr({ allowArraysInMapKeys: true }).unpack(bytes)).toBeInstanceOf(Map);
  });

  test('mapAsEmptyObject and setAsEmptyObject', () => {
    const v = [new Map([[1, 2]]), new Set([1])];
    both({ mapAsEmptyObject: true, setAsEmptyObject: true }, v);
    both({ ...PLAIN, mapAsEmptyObject: true, setAsEmptyObject: true }, v);
    expect(wpBytes({ ...PLAIN, mapAsEmptyObject: true, setAsEmptyObject: true }, v)).toBe('928080');
    both({ setAsEmptyObject: true, moreTypes: true }, new Set([1]));
  });
});

describe('toJSON (useToJSON)', () => {
  class Money {
    constructor(v) { this.cents = v; }
    toJSON() { return { amount: this.cents / 100 }; }
  }
  class Raw { constructor() { this.a = 1; } }
  test('class instances with toJSON are packed through it; plain objects are not', () => {
    const v = [new Money(250), new Raw(), { toJSON: 'field', z: 1 }];
    both({}, v);
    both(PLAIN, v);
    expect(wpBytes(PLAIN, new Money(250))).toBe('81a6616d6f756e74cb4004000000000000');
  });

  test('useToJSON: false packs the instance\'s own properties', () => {
    both({ useToJSON: false }, new Money(1));
    expect(wpBytes({ ...PLAIN, useToJSON: false }, new Money(1))).toBe('81a563656e747301');
  });

  test('a toJSON returning the object itself does not loop', () => {
    class Self { constructor() { this.q = 1; } toJSON() { return this; } }
    both(PLAIN, new Self());
  });

  test('subclasses of built-ins with their own toJSON use it; Dates and byte views keep their forms', () => {
    class MySet extends Set { toJSON() { return 'set!'; } }
    class MyErr extends Error { toJSON() { return { err: this.message }; } }
    class MyDate extends Date {}
    class MyBytes extends Uint8Array { toJSON() { return 'bytes!'; } }
    class MyRe extends RegExp { toJSON() { return 're'; } }
    const v = [new MySet([1]), new MyErr('m'), new MyDate(0), new MyBytes(2), new MyRe('x')];
    both(PLAIN, v);
    both({ moreTypes: true }, v.filter((x) => !(x instanceof MyBytes)));
    // (a typed array subclass with moreTypes: its built-in class's code, 1, where msgpackr writes
    // 255, which no decoder reads: msgpack-moretypes.test.js)
    expect(wpBytes({ moreTypes: true }, new MyBytes(2))).toBe('c70374010000');
    expect(mrBytes({ moreTypes: true }, new MyBytes(2))).toBe('c70374ff0000');
    expect(wpBytes(PLAIN, new MySet([1]))).toBe('a4736574' + '21');
  });
});

describe('undefined, functions, Dates', () => {
  test('encodeUndefinedAsNil', () => {
    const v = [undefined, { a: undefined }, () => 1];
    both({ encodeUndefinedAsNil: true }, v);
    expect(wpBytes({ ...PLAIN, encodeUndefinedAsNil: true }, v)).toBe('93c081a161c0c0');
    expect(wpBytes(PLAIN, [undefined])).toBe('91d40000');
  });

  test('writeFunction', () => {
    const writeFunction = (f) => 'fn:' + f.name;
    function named() {}
    both({ writeFunction }, [named, { f: named }]);
    expect(wpBytes({ ...PLAIN, writeFunction }, named)).toBe('a8666e3a6e616d6564');
  });

  test('useTimestamp32: whole seconds, milliseconds dropped, only within 0..2^32 s', () => {
    const dates = [new Date(0), new Date(1500), new Date(4294967295999), new Date(4294967296000), new Date(-1500), new Date(1e15 + 7)];
    both({ useTimestamp32: true }, dates);
    both({}, dates);
    expect(wpBytes({ ...PLAIN, useTimestamp32: true }, new Date(1500))).toBe('d6ff00000001');
    expect(wpBytes(PLAIN, new Date(1500))).toBe('d7ff7735940000000001');
  });

  test('invalid Dates and onInvalidDate', () => {
    both(PLAIN, new Date(NaN));
    expect(wpBytes(PLAIN, new Date(NaN))).toBe('d4ffff');
    const onInvalidDate = () => 'invalid';
    both({ ...PLAIN, onInvalidDate }, [new Date(NaN), new Date(3000)]);
    expect(wpBytes({ ...PLAIN, onInvalidDate }, new Date(NaN))).toBe('a7696e76616c6964');
  });

  test('property: random Dates in the timestamp range, with and without useTimestamp32', () => {
    fc.assert(fc.property(fc.array(fc.date({ noInvalidDate: true, min: new Date(-1e14), max: new Date(1e14) }), { maxLength: 10 }), (ds) => {
      both({}, ds);
      both({ useTimestamp32: true }, ds);
    }), { numRuns: 200 });
  });
});

describe('map options (maps only, as msgpackr: records ignore them)', () => {
  test('skipValues leaves entries with those values out', () => {
    const v = { a: 1, b: undefined, c: null, d: 0, e: '' };
    const skipValues = [undefined, null];
    both({ ...PLAIN, skipValues }, v);
    expect(wpBytes({ ...PLAIN, skipValues }, v)).toBe('83a16101a16400a165a0');
    both({ ...PLAIN, skipValues: [0, ''] }, v);
    // with records on, objects are records and keep every entry (msgpackr's behavior)
    both({ skipValues }, v);
  });

  test('coercibleKeyAsNumber', () => {
    const v = { 1: 'a', b: 'b', '': 'c', '1e3': 'd', ' 2 ': 'e', '-0': 'f', NaN: 'g' };
    both({ ...PLAIN, coercibleKeyAsNumber: true }, v);
    expect(wpBytes({ ...PLAIN, coercibleKeyAsNumber: true }, { 7: 1, x: 2 })).toBe('820701a17802');
  });

  test('variableMapSize is accepted (wirepack map headers always take the smallest form)', () => {
    const v = { a: 1 };
    expect(wpBytes({ ...PLAIN, variableMapSize: true }, v)).toBe('81a16101');
    expect(wpBytes({ ...PLAIN, variableMapSize: false }, v)).toBe('81a16101');
    expect(hex(new msgpackr.Packr(PLAIN).pack(v))).toBe('de0001a16101');
  });

  test('property: every map option, against msgpackr', () => {
    fc.assert(fc.property(doc, (v) => {
      for (const opts of [
        { ...PLAIN, skipValues: [undefined] }, { ...PLAIN, coercibleKeyAsNumber: true }, { ...PLAIN, encodeUndefinedAsNil: true },
        { skipValues: [null], coercibleKeyAsNumber: true }, { encodeUndefinedAsNil: true },
      ]) both(opts, v);
    }), { numRuns: 200 });
  });
});

describe('useBuffer and RESERVE_START_SPACE', () => {
  test('results are written into the given buffer while it has room', () => {
    const buf = new Uint8Array(64);
    const p = new Packr(PLAIN);
    p.useBuffer(buf);
    const a = p.pack({ a: 1 });
    const b = p.pack([1, 2, 3]);
    expect(a.buffer).toBe(buf.buffer);
    expect(hex(a)).toBe('81a16101');
    expect(a.byteOffset).toBe(0);
    expect(b.byteOffset).toBe(8);
    expect(hex(buf.subarray(8, 12))).toBe('93010203');
    const big = p.pack('x'.repeat(100));
    expect(big.buffer).not.toBe(buf.buffer);
    expect(hex(big).slice(0, 4)).toBe('d964');
  });

  test('offset: where the last result written into the buffer ends (msgpackr\'s offset, in its buffer)', () => {
    const p = new Packr(PLAIN);
    expect(p.offset).toBe(0);
    const buf = new Uint8Array(64);
    p.useBuffer(buf);
    for (const v of [{ a: 1 }, [1, 2, 3], 'abc']) {
      const r = p.pack(v);
      expect(r.buffer).toBe(buf.buffer);
      expect(p.offset).toBe(r.byteOffset + r.length);
    }
    p.useBuffer(new Uint8Array(64));
    expect(p.offset).toBe(0);
  });

  test('RESERVE_START_SPACE reserves bytes before the value', () => {
    const b = new Packr(PLAIN).pack({ a: 1 }, 2048 + 3);
    expect(hex(b)).toBe('000000' + '81a16101');
    const m = new msgpackr.Packr({ ...PLAIN, variableMapSize: true }).pack({ a: 1 }, 2048 + 3);
    expect(hex(m.subarray(3))).toBe('81a16101');
    expect(m.length).toBe(b.length);
    // the free pack takes it too, as msgpackr's (it was dropped)
    expect(hex(pack({ a: 1 }, 2048 + 2))).toBe('0000' + '81a16101');
    expect(hex(msgpackr.pack('x', 2048 + 2).subarray(2))).toBe(hex(pack('x', 2048 + 2).subarray(2)));
    expect(pack('x', 2048 + 2).length).toBe(4);
  });
});

describe('extensions (addExtension)', () => {
  class Point { constructor(x, y) { this.x = x; this.y = y; } }
  class Tagged { constructor(v) { this.v = v; } toJSON() { return 'json wins?'; } }
  class Temp { constructor(c) { this.c = c; } }
  class Shh extends Set {}
  const pointExt = {
    Class: Point, type: 0x30,
    pack: (p) => new Uint8Array([p.x, p.y]),
    unpack: (d) => new Point(d[0], d[1]),
  };
  const taggedExt = { Class: Tagged, type: 0x31, write: (t) => [t.v], read: (a) => new Tagged(a[0]) };
  const tempExt = { Class: Temp, type: 0, write: (t) => ({ celsius: t.c }), read: (o) => new Temp(o.celsius) };
  const shhExt = { Class: Shh, type: 0x32, write: (s) => [...s].length, read: (n) => new Shh(Array.from({ length: n }, (_, i) => i)) };
  for (const ext of [pointExt, taggedExt, tempExt, shhExt]) {
    addExtension(ext);
    msgpackr.addExtension(ext);
  }

  test('a callable object whose prototype is an extension\'s class goes through the extension, as in msgpackr (plain functions do not)', () => {
    const callable = function () { return 1; };
    Object.setPrototypeOf(callable, Point.prototype);
    callable.x = 3;
    callable.y = 4;
    both(PLAIN, [callable, () => 0]);
    expect(wpBytes(PLAIN, callable)).toBe('d5300304');
    expect(unpack(pack(callable))).toEqual(new Point(3, 4));
  });

  test('pack: the bytes become the payload of an extension of that type', () => {
    both(PLAIN, new Point(1, 2));
    expect(wpBytes(PLAIN, new Point(1, 2))).toBe('d5300102');
    both({}, [new Point(3, 4), { p: new Point(5, 6) }]);
  });

  test('write: a one-byte prefix extension (d4 type 00) then the value written; type 0: no prefix', () => {
    expect(wpBytes(PLAIN, new Tagged('v'))).toBe('d4310091a176');
    both(PLAIN, [new Tagged(1), new Temp(20)]);
    expect(wpBytes(PLAIN, new Temp(20))).toBe('81a763656c7369757314');
    both({}, [new Tagged({ a: 1 }), new Temp(-1)]);
  });

  test('an extension wins over toJSON and over the built-in types (a Set subclass)', () => {
    both(PLAIN, [new Tagged(2), new Shh([1, 2])]);
    expect(wpBytes(PLAIN, new Shh([1, 2]))).toBe('d4320002');
    both({ moreTypes: true }, new Shh([7]));
  });

  test('round trips through both decoders', () => {
    const v = [new Point(1, 2), new Tagged('t'), new Shh([0, 1])];
    const bytes = new Packr().pack(v);
    const m = new msgpackr.Unpackr().unpack(bytes);
    expect(m[0]).toEqual(new Point(1, 2));
    expect(m[1]).toEqual(new Tagged('t'));
    expect(m[2]).toEqual(new Shh([0, 1]));
    const w = new Unpackr().unpack(bytes);
    expect(w[0]).toEqual(new Point(1, 2));
    expect(w[1]).toEqual(new Tagged('t'));
    expect(w[2]).toEqual(new Shh([0, 1]));
    const back = unpack(pack(new Point(9, 8)));
    expect(back).toEqual(new Point(9, 8));
  });

  test('pack(value, allocateForWrite, pack): bytes and nested values in order', () => {
    class Wrapped { constructor(inner) { this.inner = inner; } }
    const ext = {
      Class: Wrapped, type: 0x33,
      pack(w, allocateForWrite, packValue) {
        const { target, position } = allocateForWrite(3);
        target[position] = 0xd4;
        target[position + 1] = 0x33;
        target[position + 2] = 0;
        packValue(w.inner);
      },
      read: (v) => new Wrapped(v),
    };
    addExtension(ext);
    msgpackr.addExtension(ext);
    both(PLAIN, new Wrapped([1, 'a']));
    expect(wpBytes(PLAIN, new Wrapped([1, 'a']))).toBe('d433009201a161');
  });
});

describe('msgpackr pack -> wirepack unpack with these options', () => {
  test('property: documents packed by msgpackr with the options read back', () => {
    fc.assert(fc.property(doc, (v) => {
      const clean = JSON.parse(JSON.stringify(v === undefined ? null : v, (k, x) => (x === undefined ? null : x)));
      for (const opts of [{ ...PLAIN, encodeUndefinedAsNil: true }, { encodeUndefinedAsNil: true }]) {
        // (as msgpackr's: a default Unpackr reads plain maps as Maps; with useRecords: false, objects)
        same(new Unpackr(opts).unpack(new msgpackr.Packr(opts).pack(clean)), clean);
      }
    }), { numRuns: 100 });
  });

  test('and wirepack\'s own round trip', () => {
    fc.assert(fc.property(doc, (v) => {
      const p = new Packr({ encodeUndefinedAsNil: true, useTimestamp32: true });
      const clean = JSON.parse(JSON.stringify(v === undefined ? null : v, (k, x) => (x === undefined ? null : x)));
      same(p.unpack(p.pack(clean)), clean);
    }), { numRuns: 100 });
  });
});
