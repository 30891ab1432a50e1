// Prototype safety: '__proto__', 'constructor' and 'prototype' keys are plain own data properties,
// never setters into the prototype chain, on the first decode and on later (cached-shape) decodes.
import { describe, test, expect, afterEach } from 'vitest';
import { pack, unpack, Unpackr, Packr } from 'wirepack';
import { Encoder as CborEncoder, Decoder as CborDecoder, decode as cborDecode } from 'wirepack/cbor';
import { encode as mmEncode, decode as mmDecode } from 'wirepack/msgpack';
import { hex, fromHex, utf8 } from './helpers/bytes.js';

const str = (s) => {
  const b = utf8(s);
  if (b.length > 31) throw new Error('fixstr only');
  return hex([0xa0 | b.length]) + hex(b);
};
const POLLUTED = '81' + str('polluted') + 'c3'; // {polluted: true}
const PROTO_MSG = fromHex('81' + str('__proto__') + POLLUTED); // {__proto__: {polluted: true}}

afterEach(() => {
  // nothing may leak into Object.prototype
  expect({}.polluted).toBe(undefined);
  expect(Object.prototype.hasOwnProperty('polluted')).toBe(false);
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  expect({}.constructor).toBe(Object);
});

function expectOwnData(obj, key, checkValue) {
  expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
  expect(Object.prototype.hasOwnProperty.call(obj, key)).toBe(true);
  expect(Object.prototype.propertyIsEnumerable.call(obj, key)).toBe(true);
  const d = Object.getOwnPropertyDescriptor(obj, key);
  expect('value' in d).toBe(true); // a data property, not an accessor
  expect(d.get).toBe(undefined);
  expect(d.writable && d.configurable && d.enumerable).toBe(true);
  checkValue(d.value);
}
const isPolluted = (v) => {
  expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  expect(Object.keys(v)).toEqual(['polluted']);
  expect(v.polluted).toBe(true);
};

test('the test message is what it says', () => {
  expect(hex(PROTO_MSG)).toBe('81a95f5f70726f746f5f5f81a8706f6c6c75746564c3');
});

describe.each([1, 2, 3])('decode #%s (later ones hit cached keys and shapes)', () => {
  test('top-level __proto__ key', () => {
    const r = unpack(PROTO_MSG);
    expectOwnData(r, '__proto__', isPolluted);
    expect(r.polluted).toBe(undefined);
    expect(Object.keys(r)).toEqual(['__proto__']);
    expect(JSON.stringify(r)).toBe('{"__proto__":{"polluted":true}}');
  });

  test('nested __proto__ key, in maps and arrays', () => {
    const r = unpack(fromHex('82' + str('a') + '01' + str('b') + '92c0' + '81' + str('__proto__') + POLLUTED));
    expect(r.a).toBe(1);
    expect(r.b[0]).toBe(null);
    expectOwnData(r.b[1], '__proto__', isPolluted);
    expect(r.b[1].polluted).toBe(undefined);
    const deep = unpack(fromHex('81' + str('x') + '81' + str('y') + '81' + str('__proto__') + POLLUTED));
    expectOwnData(deep.x.y, '__proto__', isPolluted);
  });

  test('__proto__ with a non-object value and next to other keys', () => {
    const r = unpack(fromHex('83' + str('a') + '01' + str('__proto__') + '91c3' + str('z') + 'a0'));
    expect(Object.keys(r)).toEqual(['a', '__proto__', 'z']);
    expectOwnData(r, '__proto__', (v) => expect(v).toEqual([true]));
    expect(r.a).toBe(1);
    expect(r.z).toBe('');
    expect(Array.isArray(r)).toBe(false);
    const n = unpack(fromHex('81' + str('__proto__') + 'c0'));
    expectOwnData(n, '__proto__', (v) => expect(v).toBe(null));
  });

  test("'constructor' and 'prototype' keys", () => {
    const r = unpack(fromHex('82' + str('constructor') + '81' + str('prototype') + POLLUTED + str('prototype') + POLLUTED));
    expectOwnData(r, 'constructor', (v) => expectOwnData(v, 'prototype', isPolluted));
    expectOwnData(r, 'prototype', isPolluted);
    expect(Object.keys(r)).toEqual(['constructor', 'prototype']);
    const c = unpack(fromHex('81' + str('constructor') + '01'));
    expectOwnData(c, 'constructor', (v) => expect(v).toBe(1));
  });

  test('a map of 20 keys including __proto__', () => {
    const keys = Array.from({ length: 19 }, (_, i) => 'key' + i);
    keys.splice(10, 0, '__proto__');
    let h = 'de0014';
    keys.forEach((k, i) => { h += str(k) + (k === '__proto__' ? POLLUTED : hex([i])); });
    const r = unpack(fromHex(h));
    expect(Object.keys(r)).toEqual(keys);
    expectOwnData(r, '__proto__', isPolluted);
    keys.forEach((k, i) => { if (k !== '__proto__') expect(r[k]).toBe(i); });
    expect(r.polluted).toBe(undefined);
    // the same keys again in a different order
    const rev = [...keys].reverse();
    let h2 = 'de0014';
    rev.forEach((k) => { h2 += str(k) + (k === '__proto__' ? POLLUTED : 'c0'); });
    const r2 = unpack(fromHex(h2));
    expect(Object.keys(r2)).toEqual(rev);
    expectOwnData(r2, '__proto__', isPolluted);
  });

  test('an array of many same-shape objects with __proto__ (shape reuse within one message)', () => {
    const one = '82' + str('id') + '07' + str('__proto__') + POLLUTED;
    const r = unpack(fromHex('dc0020' + one.repeat(32)));
    expect(r.length).toBe(32);
    for (const o of r) {
      expectOwnData(o, '__proto__', isPolluted);
      expect(o.id).toBe(7);
      expect(o.polluted).toBe(undefined);
    }
    expect(r[0].__proto__).not.toBe(r[1].__proto__); // separate objects
  });

  test('next to a long key (> 64 bytes: not interned)', () => {
    const long = 'L'.repeat(80);
    const r = unpack(fromHex('82' + 'd950' + hex(utf8(long)) + '01' + str('__proto__') + POLLUTED));
    expect(Object.keys(r)).toEqual([long, '__proto__']);
    expectOwnData(r, '__proto__', isPolluted);
    const r2 = unpack(fromHex('82' + str('__proto__') + POLLUTED + 'd950' + hex(utf8(long)) + '01'));
    expectOwnData(r2, '__proto__', isPolluted);
    expect(r2[long]).toBe(1);
  });

  test('in a map of 300 keys (too many for one shape)', () => {
    const keys = Array.from({ length: 299 }, (_, i) => 'k' + i);
    keys.splice(150, 0, '__proto__');
    let h = 'de012c';
    keys.forEach((k) => { h += str(k) + (k === '__proto__' ? POLLUTED : 'c3'); });
    const r = unpack(fromHex(h));
    expect(Object.keys(r)).toEqual(keys);
    expectOwnData(r, '__proto__', isPolluted);
    expect(r.k0).toBe(true);
  });

  test('deep inside a deeply nested message (> 400 levels)', () => {
    const depth = 600;
    const r = unpack(fromHex('91'.repeat(depth) + '82' + str('__proto__') + POLLUTED + str('a') + '01'));
    let o = r;
    for (let i = 0; i < depth; i++) o = o[0];
    expectOwnData(o, '__proto__', isPolluted);
    expect(o.a).toBe(1);
    const m = unpack(fromHex('91'.repeat(depth) + '82' + str('__proto__') + POLLUTED + 'd950' + hex(utf8('L'.repeat(80))) + '01'));
    let p = m;
    for (let i = 0; i < depth; i++) p = p[0];
    expectOwnData(p, '__proto__', isPolluted);
  });

  test('mapsAsObjects: false gives a Map with the key', () => {
    const u = new Unpackr({ mapsAsObjects: false });
    const m = u.unpack(PROTO_MSG);
    expect(m).toBeInstanceOf(Map);
    expect([...m.keys()]).toEqual(['__proto__']);
    const inner = m.get('__proto__');
    expect(inner).toBeInstanceOf(Map);
    expect(inner.get('polluted')).toBe(true);
    expect(m.polluted).toBe(undefined);
  });

  test('a map with a key that is no property name (bytes) and __proto__ becomes a Map', () => {
    const m = unpack(fromHex('82' + 'c40101' + '02' + str('__proto__') + POLLUTED));
    expect(m).toBeInstanceOf(Map);
    expect([...m.values()][0]).toBe(2);
    isPolluted(m.get('__proto__'));
  });

  test('a map with a number key (coerced, as msgpackr does) and __proto__: an own property', () => {
    const m = unpack(fromHex('82' + '01' + '02' + str('__proto__') + POLLUTED));
    expectOwnData(m, '__proto__', isPolluted);
    expect(Object.keys(m)).toEqual(['1', '__proto__']);
    expect(m[1]).toBe(2);
  });
});

describe('packing an own __proto__ property', () => {
  test('JSON.parse object round-trips with no data loss', () => {
    const src = JSON.parse('{"__proto__":1}');
    expect(Object.keys(src)).toEqual(['__proto__']);
    const b = pack(src);
    expect(hex(b)).toBe('81' + str('__proto__') + '01');
    for (let i = 0; i < 2; i++) {
      const r = unpack(b);
      expectOwnData(r, '__proto__', (v) => expect(v).toBe(1));
    }
  });
  test('nested and with object value', () => {
    const src = JSON.parse('{"a":[{"__proto__":{"polluted":true},"b":2}],"constructor":{"prototype":{"polluted":true}}}');
    const r = unpack(pack(src));
    expect(JSON.stringify(r)).toBe(JSON.stringify(src));
    expectOwnData(r.a[0], '__proto__', isPolluted);
    expect(r.a[0].b).toBe(2);
    expectOwnData(r, 'constructor', (v) => expectOwnData(v, 'prototype', isPolluted));
  });
});

describe('packing while Object.prototype has an enumerable property', () => {
  // plain objects are walked with for-in only while Object.prototype has no enumerable
  // property: an inherited key must never be packed
  test('only own keys are packed, in both formats', async () => {
    const { encode } = await import('wirepack/cbor');
    const { Packr } = await import('wirepack');
    const src = { a: 1, nested: { b: [2, { c: 3 }] } };
    // records too (a fresh Packr each time, so each starts with no structures)
    const { Encoder } = await import('wirepack/cbor');
    const all = () => [hex(pack(src)), hex(encode(src)), hex(new Packr({ structures: [] }).pack(src)),
      hex(new Encoder({ useRecords: true }).encode(src))];
    const clean = all();
    const proto = /** @type {any} */ (Object.prototype);
    proto.inherited = 'leak';
    try {
      expect(all()).toEqual(clean);
      expect(unpack(pack(src))).toEqual(src);
    } finally {
      delete proto.inherited;
    }
    expect(all()).toEqual(clean);
  });
});

describe('objects whose own prototype has enumerable properties', () => {
  // for-in lists the prototype's enumerable keys too (Object.prototype's aside, which the
  // encoders check once a call): a record's values must be its own keys' only, or it has more
  // values than keys, which no one reads back. msgpackr and cbor-x write the own keys (msgpackr
  // writes what toJSON returns where there is one, as a URL's).
  class WithProtoKeys {
    constructor() { this.own = 2; }
  }
  /** @type {any} */ (WithProtoKeys.prototype).inh = 1;
  const cases = [
    ['Object.create', () => Object.assign(Object.create({ inh: 1, also: [3] }), { own: 2 }), { own: 2 }],
    ['a class whose prototype has a data property', () => new WithProtoKeys(), { own: 2 }],
    ['a URL (enumerable accessors on its prototype, no own keys)', () => new URL('http://x/'), 'http://x/'],
  ];
  test.each(cases)('%s: MessagePack records', (_name, make, mp) => {
    for (const opts of [{}, { structures: [] }, { useRecords: true, sequential: true }]) {
      const packr = new Packr(opts);
      const bytes = packr.pack([make(), make()]);
      const back = new Unpackr(opts).unpack(bytes);
      expect(back).toEqual([mp, mp]);
      // the same bytes as a plain object of the own keys
      if (typeof mp === 'object') expect(hex(bytes)).toBe(hex(new Packr(opts).pack([{ ...make() }, { ...make() }])));
    }
  });
  test.each(cases)('%s: CBOR records', async (_name, make) => {
    for (const opts of [{}, { useRecords: true, pack: true }, { useRecords: true, structuredClone: true }, { keyMap: { own: 'o' } }]) {
      const bytes = new CborEncoder(opts).encode([make(), make()]);
      const back = new CborDecoder(opts).decode(bytes);
      expect(back).toEqual([{ ...make() }, { ...make() }]);
      expect(hex(bytes)).toBe(hex(new CborEncoder(opts).encode([{ ...make() }, { ...make() }])));
    }
  });
  test.each(cases)('%s: maps', (_name, make, mp) => {
    expect(unpack(pack(make()))).toEqual(mp);
    expect(cborDecode(new CborEncoder({ useRecords: false }).encode(make()))).toEqual({ ...make() });
    expect(mmDecode(mmEncode(make()))).toEqual({ ...make() });
  });
});

// The first object of a shape never seen before is built another way (in dictionary mode, then
// given its prototype) than later ones (keyed stores, then a generated constructor): every one of
// them must be the same plain object, whatever its keys.
describe.each([true, false])('first and later objects of a new shape alike (codegen %s)', (codegen) => {
  let uniq = 0;
  test.each([
    ['plain keys', (u) => ({ [`a${u}`]: 1, [`b${u}`]: 'x', [`c${u}`]: [true] })],
    ['integer-like keys after names', (u) => ({ [`n${u}`]: 1, 7: 'seven', 1: 'one', [`m${u}`]: null })],
    ['__proto__, constructor and prototype', (u) => ({ [`k${u}`]: 0, ['__proto__']: { polluted: true }, constructor: 'c', prototype: 'p' })],
  ])('%s', (_name, make) => {
    const u = `${codegen}${++uniq}${Date.now()}`;
    const value = make(u);
    const bytes = pack([value, value, value, value]);
    const d = new Unpackr({ mapsAsObjects: true, codegen });
    for (const round of [0, 1, 2]) {
      const r = d.unpack(bytes);
      for (const o of r) {
        expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
        expect(Object.keys(o)).toEqual(Object.keys(value));
        expect(JSON.stringify(o)).toBe(JSON.stringify(value));
        for (const k of Object.keys(value)) expectOwnData(o, k, (v) => expect(v).toEqual(value[k]));
        expect(o.polluted).toBe(undefined);
      }
      if (round === 0) expect(r[0]).not.toBe(r[1]);
    }
  });
});

// Paths that build objects their own way, each with its own guard (JS coverage of December 2026
// found none of these guards run by any test).
describe('__proto__ keys on the rarer paths', () => {
  const evil = () => JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
  const check = (o) => {
    expect(Object.keys(o)).toEqual(['__proto__', 'a']);
    expectOwnData(o, '__proto__', isPolluted);
    expect(o.polluted).toBe(undefined);
  };

  test('CBOR records that are shareable values (structuredClone with records: a placeholder filled after)', () => {
    const x = evil(), y = evil();
    x.self = x;
    y.self = y;
    const bytes = new CborEncoder({ structuredClone: true, useRecords: true }).encode([x, y, x, y]);
    expect(hex(bytes)).toContain('d81cd9dfff'); // 28(0xdfff(...)): a record defined inside a shareable
    expect(hex(bytes)).toContain('d81cd9e000'); // 28(0xe000(...)): and one used inside another
    for (const d of [new CborDecoder({ structuredClone: true, useRecords: true }).decode(bytes), cborDecode(bytes)]) {
      for (const o of d) {
        expect(Object.keys(o)).toEqual(['__proto__', 'a', 'self']);
        expectOwnData(o, '__proto__', isPolluted);
        expect(o.self).toBe(o);
      }
      expect([d[2], d[3]]).toEqual([d[0], d[1]]);
      expect(d[2]).toBe(d[0]);
    }
  });

  test('CBOR records defined where they appear, first and later uses', () => {
    const bytes = new CborEncoder({ useRecords: true }).encode([evil(), evil(), evil()]);
    for (const codegen of [true, false]) {
      for (const o of new CborDecoder({ useRecords: true, codegen }).decode(bytes)) check(o);
    }
  });

  test('MessagePack array keys joined into a property name (allowArraysInMapKeys)', () => {
    const bytes = new Packr({ useRecords: false }).pack(new Map([[['__proto__'], { polluted: true }], ['a', 1]]));
    check(new Unpackr({ useRecords: false, allowArraysInMapKeys: true, mapsAsObjects: true }).unpack(bytes));
  });

  test('a MessagePack object that refers to itself (structuredClone: its placeholder filled after)', () => {
    const x = evil();
    x.self = x;
    for (const useRecords of [true, false]) {
      const bytes = new Packr({ structuredClone: true, useRecords }).pack(x);
      expect(hex(bytes).slice(0, 12)).toBe('d66900000001'); // (the id that the pointer at the end refers to)
      const d = new Unpackr({ structuredClone: true, useRecords, mapsAsObjects: true }).unpack(bytes);
      expect(Object.keys(d)).toEqual(['__proto__', 'a', 'self']);
      expectOwnData(d, '__proto__', isPolluted);
      expect(d.self).toBe(d);
    }
  });

  test("wirepack/msgpack's mapKeyConverter", () => {
    check(mmDecode(mmEncode(evil()), { mapKeyConverter: (k) => String(k) }));
  });
});
