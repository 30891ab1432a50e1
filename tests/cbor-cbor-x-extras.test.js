// cbor-x options the first CBOR pass left out: skipFunction, useTimestamp32 and setSizeLimits
// (lead, issue 5). Each is checked against cbor-x on the same value.
import { describe, test, expect } from 'vitest';
import * as cborx from 'cbor-x';
import { encode, decode, Encoder, Decoder, DecodeError, Tag, setSizeLimits, addExtension } from 'wirepack/cbor';
import { hex, fromHex } from './helpers/bytes.js';

describe('cbor-x extras', () => {
  test("addExtension with cbor-x's README contract: encode(instance, encode) writes the item", () => {
    class Temperature { constructor(c) { this.celsius = c; } }
    const ext = { Class: Temperature, tag: 43311, encode(t, enc) { enc([t.celsius, 'C']); }, decode(item) { return new Temperature(item[0]); } };
    addExtension(ext);
    cborx.addExtension(ext);
    const v = { now: new Temperature(21.5), list: [new Temperature(-3)] };
    // (map headers and float widths differ from cbor-x's as documented; the tags do not)
    expect(hex(encode(new Temperature(-3)))).toBe(hex(cborx.encode(new Temperature(-3))));
    const there = cborx.decode(encode(v));
    expect([there.now.celsius, there.list[0].celsius]).toEqual([21.5, -3]);
    const back = decode(cborx.encode(v));
    expect(back.now).toBeInstanceOf(Temperature);
    expect([back.now.celsius, back.list[0].celsius]).toEqual([21.5, -3]);
    // an extension that returns its item instead of calling encode
    class Celsius { constructor(c) { this.c = c; } }
    addExtension({ Class: Celsius, tag: 43312, encode: (x) => x.c, decode: (c) => new Celsius(c) });
    expect(hex(encode(new Celsius(7)))).toBe('d9a93007');
    expect(decode(encode(new Celsius(7)))).toEqual(new Celsius(7));
  });

  test('skipFunction leaves out function-valued properties (records and maps)', () => {
    const v = { a: 1, f() {}, b: 'x', nested: { g: () => 1, c: 2 } };
    for (const useRecords of [false, true]) {
      const mine = new Encoder({ skipFunction: true, useRecords }).encode(v);
      const peer = new cborx.Encoder({ skipFunction: true, useRecords }).encode(v);
      expect(new cborx.Encoder({ useRecords }).decode(mine)).toEqual(new cborx.Encoder({ useRecords }).decode(peer));
      expect(new Encoder({ useRecords }).decode(mine)).toEqual({ a: 1, b: 'x', nested: { c: 2 } });
    }
    const proto = JSON.parse('{"__proto__": 5, "f": 1}');
    const out = decode(new Encoder({ skipFunction: true, useRecords: false }).encode(proto));
    expect(Object.getOwnPropertyDescriptor(out, '__proto__').value).toBe(5);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
  test('useTimestamp32 drops milliseconds for dates in 0..2^32 s', () => {
    const d = new Date(1700000000123);
    const mine = new Encoder({ useTimestamp32: true, useRecords: false }).encode(d);
    expect(decode(mine).getTime()).toBe(1700000000000);
    expect(cborx.decode(mine).getTime()).toBe(cborx.decode(new cborx.Encoder({ useTimestamp32: true }).encode(d)).getTime());
    expect(decode(new Encoder({ useTimestamp32: true }).encode(new Date(-1500))).getTime()).toBe(-1500); // out of range: kept
    expect(decode(encode(d)).getTime()).toBe(1700000000123);
  });
  test('setSizeLimits applies to every Decoder, including ones made before', () => {
    const before = new Decoder({ mapsAsObjects: true });
    const arr = encode([1, 2, 3, 4]);
    const map = encode({ a: 1, b: 2, c: 3 });
    expect(decode(arr)).toEqual([1, 2, 3, 4]);
    try {
      setSizeLimits({ maxArraySize: 3, maxMapSize: 2 });
      for (const dec of [(b) => decode(b), (b) => before.decode(b), (b) => new Decoder().decode(b)]) {
        for (const b of [arr, map]) {
          let err;
          try { dec(b); } catch (e) { err = e; }
          expect(err).toBeInstanceOf(DecodeError);
          expect(err.code).toBe('LIMIT');
        }
        expect(dec(encode([1, 2, 3]))).toEqual([1, 2, 3]);
      }
    } finally {
      setSizeLimits({ maxArraySize: 2 ** 32 - 1, maxMapSize: 2 ** 32 - 1, maxObjectSize: 2 ** 32 - 1 });
    }
    expect(decode(arr)).toEqual([1, 2, 3, 4]);
  });
});

describe('an extension for a typed-array tag', () => {
  // (last in this file: extensions cannot be removed)
  test('takes the tag from the typed array the decoder would make', () => {
    const bytes = new Uint8Array([0x82, 0xd8, 0x44, 0x42, 1, 2, 0xd8, 0x40, 0x41, 3]); // [68(h'0102'), 64(h'03')]
    const before = decode(bytes);
    expect(before[0]).toBeInstanceOf(Uint8ClampedArray);
    expect(Array.from(before[0])).toEqual([1, 2]);
    addExtension({ Class: class Never {}, tag: 68, encode: () => null, decode: (b) => `68 over ${b.length} bytes` });
    const after = decode(bytes);
    expect(after[0]).toBe('68 over 2 bytes');
    expect(after[1]).toBeInstanceOf(Uint8Array);
    expect(Array.from(after[1])).toEqual([3]);
  });
});

describe('an extension for tag 1', () => {
  // (last in this file, after the typed-array one: extensions cannot be removed)
  test('gets the number that C would otherwise have made a Date', () => {
    const bytes = new Uint8Array([0x82, 0xc1, 0x1a, 0x55, 0xe3, 0x26, 0xa2, 0xc1, 0xf9, 0x3e, 0x00]); // [1(1440949922), 1(1.5)]
    const before = decode(bytes);
    expect(before.map((d) => d instanceof Date && d.getTime())).toEqual([1440949922000, 1500]);
    addExtension({ Class: class Never2 {}, tag: 1, encode: () => null, decode: (n) => `1 over ${n}` });
    expect(decode(bytes)).toEqual(['1 over 1440949922', '1 over 1.5']);
  });
});

describe('Errors and RegExps: tag 27 (a generic object), as cbor-x writes them', () => {
  test('the bytes of cbor-x, and each side reads the other (cbor-x\'s own test "structured cloning: types")', () => {
    for (const v of [new Error('test'), new TypeError('t'), /ab+c/gi, /x/, [new RangeError('r'), /y/m]]) {
      expect(hex(encode(v))).toBe(hex(cborx.encode(v)));
      expect(hex(new Encoder({ structuredClone: true }).encode(v))).toBe(hex(new cborx.Encoder({ structuredClone: true }).encode(v)));
    }
    const e = decode(cborx.encode(new Error('test')));
    expect(e).toBeInstanceOf(Error);
    expect(e.message).toBe('test');
    const re = decode(cborx.encode(/te(s)t/gi));
    expect(re).toBeInstanceOf(RegExp);
    expect([re.source, re.flags]).toEqual(['te(s)t', 'gi']);
    const back = cborx.decode(encode({ error: new Error('x'), re: /z/g }));
    expect(back.error.message).toBe('x');
    expect(back.re.flags).toBe('g');
  });

  test('the standard Error classes come back as themselves; another name ending in Error is an Error of that name', () => {
    for (const E of [Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError]) {
      const e = decode(encode(new E('m')));
      expect(e.constructor).toBe(E);
      expect(e.message).toBe('m');
    }
    class CustomError extends Error {}
    const c = new CustomError('c');
    c.name = 'CustomError';
    const d = decode(encode(c));
    expect(d.constructor).toBe(Error);
    expect(d.name).toBe('CustomError');
    expect(d.message).toBe('c');
  });

  test('a cause, and AggregateError\'s errors, go in a third element that cbor-x reads as the constructor\'s options', () => {
    const withCause = new Error('outer', { cause: { code: 7 } });
    const bytes = encode(withCause);
    expect(decode(bytes).cause).toEqual({ code: 7 });
    expect(cborx.decode(bytes).cause).toEqual({ code: 7 });
    const agg = decode(encode(new AggregateError([new TypeError('a'), 1], 'agg')));
    expect(agg).toBeInstanceOf(AggregateError);
    expect(agg.message).toBe('agg');
    expect(agg.errors[0]).toBeInstanceOf(TypeError);
    expect(agg.errors[1]).toBe(1);
  });

  test('the options element decoded as a Map (new Decoder(), maps as Maps) still gives the cause and errors (cbor-x loses them)', () => {
    const bytes = new Encoder({ useRecords: false }).encode(new TypeError('outer', { cause: 5 }));
    expect(hex(bytes)).toBe('d81b8369547970654572726f72656f75746572a165636175736505');
    const e = new Decoder().decode(bytes);
    expect(e).toBeInstanceOf(TypeError);
    expect(e.cause).toBe(5);
    expect(new cborx.Decoder().decode(bytes).cause).toBe(undefined);
    const agg = new Decoder().decode(new Encoder({ useRecords: false }).encode(new AggregateError([1, 2], 'agg', { cause: 'c' })));
    expect(agg).toBeInstanceOf(AggregateError);
    expect(agg.errors).toEqual([1, 2]);
    expect(agg.cause).toBe('c');
    // only those two keys are taken, whatever else the Map holds
    const other = new Decoder().decode(fromHex('d81b83654572726f72616da2695f5f70726f746f5f5fa16178016563617573656163'));
    expect(other.cause).toBe('c');
    expect(Object.getPrototypeOf(other)).toBe(Error.prototype);
    expect(Object.keys(other)).toEqual([]);
    // a cause that refers back to the Error (structuredClone), read with Maps
    const self = new TypeError('self');
    self.cause = self;
    const back = new Decoder({ structuredClone: true }).decode(new Encoder({ structuredClone: true }).encode(self));
    expect(back.cause).toBe(back);
  });

  test('other generic objects, and malformed ones, stay Tags (nothing is looked up by name)', () => {
    for (const h of ['d81b8263466f6f01', 'd81b8266526567457870615b', 'd81b81f6', 'd81b01', 'd81b8366526567457870616101', 'd81b826b636f6e7374727563746f7201']) {
      const v = decode(fromHex(h));
      expect(v, h).toBeInstanceOf(Tag);
      expect(v.tag).toBe(27);
      expect(hex(encode(v))).toBe(h);
    }
  });
});

// cbor-x writes an object no extension takes that is iterable as an indefinite-length array of
// its values, refuses an async iterable or a Blob (iteratorNotHandled: encodeAsAsyncIterable
// reads them), and calls toJSON only with useToJSON. wirepack wrote all of them as maps of their
// own properties: a generator became {}, its values lost.
describe('iterables, async iterables, Blobs and useToJSON, as cbor-x encodes them', () => {
  class Coll {
    constructor() { this.items = [1, 'two']; this.size = 2; }
    *[Symbol.iterator]() { yield* this.items; }
  }
  class WithJSON {
    constructor() { this.x = 1; }
    toJSON() { return { j: 1 }; }
  }
  class Both {
    constructor() { this.x = 1; }
    toJSON() { return 'j'; }
    *[Symbol.iterator]() { yield 9; }
  }
  const makers = {
    'a collection class': () => new Coll(),
    'a generator': () => (function* () { yield 1; yield 'a'; yield { k: [2] }; })(),
    'a String object': () => new String('ab'),
    'an iterable with toJSON': () => new Both(),
    'nested in objects and arrays': () => ({ a: new Coll(), b: [new Coll(), (function* () { yield 2; })()] }),
    'a class with toJSON': () => new WithJSON(),
  };
  const optionSets = [{}, { useRecords: false }, { useRecords: true }, { useToJSON: true }, { useToJSON: true, useRecords: false }, { structuredClone: true }];
  test.each(Object.keys(makers))('%s: the bytes of cbor-x, read back', (name) => {
    const make = makers[name];
    for (const opts of optionSets) {
      const ours = new Encoder({ ...opts }).encode(make());
      // (variableMapSize: cbor-x's maps without records have 16-bit heads otherwise, a
      // documented difference; cbor-x adds to the options it is given, hence the copies)
      expect(hex(ours), JSON.stringify(opts)).toBe(hex(new cborx.Encoder({ ...opts, variableMapSize: true }).encode(make())));
      expect(new Decoder({ ...opts }).decode(ours)).toEqual(new cborx.Decoder({ ...opts }).decode(ours));
    }
    expect(decode(encode(make()))).toEqual(cborx.decode(cborx.encode(make())));
  });
  test('the values, with definite lengths under deterministic, and through indefiniteLengths', () => {
    const gen = () => (function* () { yield { b: 1, a: 2 }; yield new Coll(); })();
    expect(hex(new Encoder({ deterministic: true }).encode(gen()))).toBe(hex(new Encoder({ deterministic: true }).encode([{ a: 2, b: 1 }, [1, 'two']])));
    expect(hex(new Encoder({ deterministic: true }).encode(gen()))).toBe('82a26161026162018201637477' + '6f');
    expect(hex(new Encoder({ indefiniteLengths: true, useRecords: false }).encode(gen()))).toBe('9fbf616201616102ff9f016374776fffff');
    expect(decode(encode({ g: gen() }))).toEqual({ g: [{ b: 1, a: 2 }, [1, 'two']] });
  });
  test('an async iterable or a Blob is an Error with iteratorNotHandled, as in cbor-x; the next encode works', () => {
    const values = [(async function* () { yield 1; })(), { nested: [(async function* () {})()] }];
    if (typeof Blob === 'function') values.push(new Blob(['ab']), { b: new Blob([]) });
    for (const v of values) {
      for (const opts of [{}, { useRecords: false }]) {
        let err;
        try { new Encoder(opts).encode(v); } catch (e) { err = e; }
        expect(err).toBeInstanceOf(Error);
        expect(err.iteratorNotHandled).toBe(true);
        expect(() => new cborx.Encoder(opts).encode(v)).toThrow(err.message);
      }
      expect(hex(encode({ a: 1 }))).toBe('a1616101');
    }
  });
});
