// Decoding msgpackr's extensions (issue 5, decode side): records, bundled strings, prefix
// extensions, structured clone, user extensions, msgpackr's defaults, and every malformed form of
// them as a table of inputs with their error code and offset. Cross-checks against msgpackr's
// own bytes and its decoder.
import { describe, test, expect } from 'vitest';
import * as msgpackr from 'msgpackr';
import { pack, unpack, unpackMultiple, Unpackr, DecodeError, addExtension, ExtData } from 'wirepack';
import { encode as cborEncode, decode as cborDecode, addExtension as cborAddExtension } from 'wirepack/cbor';
import { hex, fromHex, concat } from './helpers/bytes.js';

const errorOf = (fn) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DecodeError);
    return e;
  }
  throw new Error('expected a DecodeError');
};
const GOOD = fromHex('82a161c3a16292c0c2');
const stillWorks = () => expect(unpack(GOOD)).toEqual({ a: true, b: [null, false] });

describe('msgpackr defaults', () => {
  const bytes = msgpackr.pack({ a: 1, b: [1, { c: 2 }] });
  test('new Unpackr() decodes maps as Maps, as msgpackr does; useRecords: false gives objects', () => {
    const mine = new Unpackr().unpack(bytes);
    expect(mine).toBeInstanceOf(Map);
    expect(mine).toEqual(new msgpackr.Unpackr().unpack(bytes));
    expect(new Unpackr({}).unpack(bytes)).toBeInstanceOf(Map);
    expect(new Unpackr({ useRecords: false }).unpack(bytes)).toEqual({ a: 1, b: [1, { c: 2 }] });
    expect(new Unpackr({ mapsAsObjects: true }).unpack(bytes)).toEqual({ a: 1, b: [1, { c: 2 }] });
    expect(unpack(bytes)).toEqual(msgpackr.unpack(bytes));
  });
  test('records are objects whatever mapsAsObjects says', () => {
    const recs = new msgpackr.Packr().pack([{ a: 1, b: 2 }, { a: 3, b: 4 }]);
    expect(hex(recs)).toBe('92d4724092a161a162010240' + '0304');
    for (const u of [new Unpackr(), new Unpackr({ mapsAsObjects: false }), new Unpackr({ useRecords: false })]) {
      expect(u.unpack(recs)).toEqual([{ a: 1, b: 2 }, { a: 3, b: 4 }]);
    }
    expect(unpack(recs)).toEqual(msgpackr.unpack(recs));
  });
  test('unpack(source, end) and unpack(source, {start, end}) decode part of the source', () => {
    const two = concat(msgpackr.pack([1, 2]), msgpackr.pack('x'));
    expect(unpack(two, 3)).toEqual([1, 2]);
    expect(unpack(two, { start: 3 })).toBe('x');
    expect(unpack(two, { start: 3, end: 5 })).toBe('x');
    expect(errorOf(() => unpack(two)).code).toBe('TRAILING_DATA');
    // a start that is no offset is an error (a subarray from -1 read the last byte: 'x' here
    // decoded as 120)
    for (const start of [-1, -3, 1.5]) expect(() => unpack(two, { start })).toThrow(RangeError);
    expect(unpack(two, { start: 0, end: 3 })).toEqual([1, 2]);
  });
});

describe('records', () => {
  test('msgpackr record streams of many shapes, one-byte and two-byte ids', () => {
    const many = Array.from({ length: 300 }, (_, i) => ({ ['k' + (i % 150)]: i, x: { y: i, ['z' + (i % 7)]: [i] } }));
    for (const opts of [{}, { maxOwnStructures: 100 }, { maxOwnStructures: 500 }, { useRecords: false }]) {
      const b = new msgpackr.Packr(opts).pack(many);
      expect(unpack(b)).toEqual(many);
      expect(new Unpackr({ codegen: false }).unpack(b)).toEqual(new msgpackr.Unpackr({}).unpack(b));
    }
  });
  test('shared structures: the same structures array on both sides', () => {
    const structures = [];
    const packr = new msgpackr.Packr({ structures });
    const data = [{ name: 'a', id: 1 }, { name: 'b', id: 2, extra: true }];
    const b1 = packr.pack(data);
    expect(structures.length).toBeGreaterThan(0);
    const mine = new Unpackr({ structures: structures.map((s) => s.slice()) });
    expect(mine.unpack(b1)).toEqual(data);
    expect(mine.unpack(packr.pack({ name: 'c', id: 3 }))).toEqual({ name: 'c', id: 3 });
    // without the structures, a shared record id is just the integer
    expect(unpack(packr.pack({ name: 'c', id: 3 }).subarray(0, 1))).toBe(packr.pack({ name: 'c', id: 3 })[0]);
  });
  test('getStructures is called for an undefined record id, then decoding retries', () => {
    const structures = [];
    const packr = new msgpackr.Packr({ structures, saveStructures() {} });
    const b = packr.pack({ p: 1, q: 'x' });
    let calls = 0;
    const u = new Unpackr({ getStructures() { calls++; return structures.map((s) => s.slice()); } });
    expect(u.unpack(b)).toEqual({ p: 1, q: 'x' });
    expect(calls).toBe(1);
    expect(u.unpack(b)).toEqual({ p: 1, q: 'x' });
    expect(calls).toBe(1); // loaded now
    // an integer 0x40-0x7f that is not a record: structures are looked up, then it is the integer
    expect(u.unpack(fromHex('7f'))).toBe(127);
  });
  test('sequential: definitions stay for the following messages', () => {
    const p = new msgpackr.Packr({ sequential: true });
    const msgs = [{ a: 1, b: 2 }, { a: 3, b: 4 }, { c: 5 }, { a: 6, b: 7 }].map((v) => p.pack(v));
    expect(msgs[1].length).toBeLessThan(msgs[0].length); // the second refers to the first's record
    const u = new Unpackr({ sequential: true });
    expect(msgs.map((m) => u.unpack(m))).toEqual([{ a: 1, b: 2 }, { a: 3, b: 4 }, { c: 5 }, { a: 6, b: 7 }]);
    // a fresh, non-sequential decoder does not know the record of the second message
    expect(errorOf(() => unpack(msgs[1])).code).toBe('TRAILING_DATA'); // 0x40 is the integer 64, then 2 bytes more
    // unpackMultiple keeps definitions across the values of one call (msgpackr's sequential read)
    expect(new Unpackr().unpackMultiple(concat(...msgs))).toEqual([{ a: 1, b: 2 }, { a: 3, b: 4 }, { c: 5 }, { a: 6, b: 7 }]);
  });
  test('a failed call forgets the definitions it made', () => {
    const u = new Unpackr({ sequential: true });
    const def = fromHex('d4724091a161' + '01'); // defines 0x40 = {a}, then {a: 1}
    expect(errorOf(() => u.unpack(concat(def, '91'))).code).toBe('TRAILING_DATA');
    expect(u.unpack(fromHex('40'))).toBe(64); // not defined
    expect(u.unpack(def)).toEqual({ a: 1 });
    expect(u.unpack(fromHex('4002'))).toEqual({ a: 2 }); // defined now (sequential)
    expect(new Unpackr().unpack(fromHex('40'))).toBe(64); // per-decoder
  });
  test('record keys become strings as msgpackr makes them; __proto__ stays an own property', () => {
    const b = fromHex('d4724093a9' + hex(new TextEncoder().encode('__proto__')) + '01c0' + '070809');
    const v = unpack(b);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['1', '__proto__', 'null']); // integer-like keys come first in JS
    expect(Object.getOwnPropertyDescriptor(v, '__proto__').value).toBe(7);
    expect(v[1]).toBe(8);
    for (let i = 0; i < 5; i++) expect(Object.getOwnPropertyDescriptor(new Unpackr().unpack(b), '__proto__').value).toBe(7); // generated constructor too
    expect(errorOf(() => unpack(fromHex('d472409180c0'))).code).toBe('BAD_RECORD'); // a map as a key
    expect(new Unpackr({ allowArraysInMapKeys: true }).unpack(fromHex('d472409192010203'))).toEqual({ '1,2': 3 });
  });
  test('keys C cannot intern (long, non-string) take the general path with the same result', () => {
    const long = 'k'.repeat(80);
    const vals = [{ [long]: 1, b: 2 }, { [long]: 3, b: 4 }];
    const b = new msgpackr.Packr().pack(vals);
    expect(unpack(b)).toEqual(vals);
    expect(new Unpackr({ codegen: false }).unpack(b)).toEqual(vals);
    const mixed = fromHex('92d4724092a161' + '05' + '0102' + '400304'); // keys ["a", 5]
    expect(unpack(mixed)).toEqual([{ a: 1, 5: 2 }, { a: 3, 5: 4 }]);
  });
  test('a definition\'s keys are one level deeper, whether C interns them or not (found by fuzzing)', () => {
    const u = new Unpackr({ maxDepth: 1 });
    for (const h of ['d4724091a16101', 'd4724091d941' + '6b'.repeat(65) + '01', 'd47240910101']) {
      expect([h.slice(0, 12), errorOf(() => u.unpack(fromHex(h))).code, errorOf(() => u.unpack(fromHex(h))).offset]).toEqual([h.slice(0, 12), 'DEPTH', 3]);
    }
    expect(new Unpackr({ maxDepth: 2 }).unpack(fromHex('d4724091a16101'))).toEqual({ a: 1 });
  });
  test('found by fuzzing: key errors name the definition; maxArrayLength applies to interned keys', () => {
    const e = errorOf(() => unpack(fromHex('92c0d472409191c001')));
    expect([e.code, e.offset]).toEqual(['BAD_RECORD', 2]);
    const u = new Unpackr({ maxArrayLength: 1, useRecords: false });
    for (const h of ['d4724092a161a1620102', 'd4724092a161d941' + '6b'.repeat(65) + '0102']) {
      const l = errorOf(() => u.unpack(fromHex(h)));
      expect([l.code, l.offset]).toEqual(['LIMIT', 3]);
    }
  });
  test('records nested deeper than the recursive reader goes', () => {
    let b = '01';
    for (let i = 0; i < 600; i++) b = '40' + b;
    const v = new Unpackr({ maxDepth: 2000 }).unpack(fromHex('d4724091a161' + b));
    let depth = 0;
    for (let o = v; typeof o === 'object'; o = o.a) depth++;
    expect(depth).toBe(601);
  });
});

describe('bundled strings', () => {
  const strings = Array.from({ length: 4000 }, (_, i) => (i % 3 ? 'latin string ' + i : 'ünïcödé ' + i + ' ✓'));
  test('msgpackr bundles, with and without records, one and several bundles', () => {
    for (const opts of [{ bundleStrings: true }, { bundleStrings: true, useRecords: false }]) {
      for (const v of [{ hello: 'world!!', k: ['abcdé', 'xxxxyyyy'] }, strings, { list: strings.slice(0, 50), m: { deep: strings.slice(50, 60) } }]) {
        const b = new msgpackr.Packr(opts).pack(v);
        expect(unpack(b)).toEqual(msgpackr.unpack(b));
        expect(new Unpackr().unpack(b)).toEqual(new msgpackr.Unpackr().unpack(b));
      }
    }
  });
  test('bundles in a sequence of messages', () => {
    const p = new msgpackr.Packr({ bundleStrings: true });
    const msgs = [{ s: 'aaaaa' }, { s: 'bbbbbbb', t: 'cccc' }, ['dddddd', 'eéeee']].map((v) => p.pack(v));
    expect(unpackMultiple(concat(...msgs))).toEqual([{ s: 'aaaaa' }, { s: 'bbbbbbb', t: 'cccc' }, ['dddddd', 'eéeee']]);
    const ranges = [];
    unpackMultiple(concat(...msgs), (v, start, end) => { ranges.push([start, end]); });
    let at = 0;
    expect(ranges).toEqual(msgs.map((m) => [at, (at += m.length)]));
  });
});

describe('prefix and built-in extensions', () => {
  test('moreTypes values from msgpackr', () => {
    const p = new msgpackr.Packr({ moreTypes: true });
    const err = new RangeError('out', { cause: { why: 1 } });
    const agg = new AggregateError([new Error('x')], 'many');
    const vals = [new Set([1, 'a', [2]]), /a+b/gu, err, agg, new Error('plain'), new Float64Array([1.5, -2]), new Int16Array([-1, 2]),
      new BigUint64Array([2n ** 64n - 1n]), new ArrayBuffer(5), new DataView(new ArrayBuffer(3)), 2n ** 100n, -(2n ** 70n) - 3n, undefined];
    for (const v of vals) {
      const got = unpack(p.pack(v));
      const peer = msgpackr.unpack(p.pack(v));
      expect(Object.prototype.toString.call(got)).toBe(Object.prototype.toString.call(peer));
      if (v instanceof Error) {
        expect([got.name, got.message, got.cause]).toEqual([peer.name, peer.message, peer.cause]);
        expect(got).toBeInstanceOf(v.constructor);
      } else if (v instanceof DataView || v instanceof ArrayBuffer) {
        expect(got.byteLength).toBe(v.byteLength);
      } else {
        expect(got).toEqual(peer);
      }
    }
    expect(unpack(p.pack(agg)).errors[0].message).toBe('x');
    // found by fuzzing: an AggregateError whose errors are not an array is malformed
    expect(errorOf(() => unpack(fromHex('d4650094ae4167677265676174654572726f72a0c001'))).code).toBe('BAD_EXTENSION');
    expect(unpack(fromHex('d4650093ae4167677265676174654572726f72a0c0')).errors).toEqual([]);
  });
  test('structured clone: cycles and shared identity', () => {
    const p = new msgpackr.Packr({ structuredClone: true });
    const shared = { s: 1 };
    const o = { list: [shared, shared], map: new Map([['k', shared]]), set: new Set([shared]) };
    o.self = o;
    o.list.push(o.list);
    for (const u of [new Unpackr(), new Unpackr({ mapsAsObjects: true }), new Unpackr({ codegen: false })]) {
      const v = u.unpack(p.pack(o));
      const peer = (u.mapsAsObjects ? new msgpackr.Unpackr({ mapsAsObjects: true }) : new msgpackr.Unpackr()).unpack(p.pack(o));
      expect(v.map instanceof Map).toBe(peer.map instanceof Map);
      if (!(v.map instanceof Map)) v.map = new Map(Object.entries(v.map));
      expect(v.self).toBe(v);
      expect(v.list[0]).toBe(v.list[1]);
      expect(v.list[2]).toBe(v.list);
      expect(v.map.get('k')).toBe(v.list[0]);
      expect([...v.set][0]).toBe(v.list[0]);
    }
    expect(errorOf(() => new Unpackr({ structuredClone: false }).unpack(p.pack(o))).code).toBe('BAD_EXTENSION');
    expect(errorOf(() => unpack(fromHex('d67000000009'))).code).toBe('BAD_REFERENCE');
  });
  test('ext type 0 of any size is undefined (msgpackr)', () => {
    for (const h of ['d40000', 'd40005', 'd5000102', 'c70000', 'c7020000ff']) expect(unpack(fromHex(h))).toBe(undefined);
  });
  test('an unknown extension is ExtData with its bytes (a view of the input, as msgpackr)', () => {
    const input = fromHex('d6430a0b0c0d');
    const v = unpack(input);
    expect(v).toBeInstanceOf(ExtData);
    expect([v.type, hex(v.data)]).toEqual([0x43, '0a0b0c0d']);
    expect(v.data.buffer).toBe(input.buffer);
  });
});

describe('user extensions (addExtension)', () => {
  class Point { constructor(x, y) { this.x = x; this.y = y; } }
  class Tagged { constructor(v) { this.v = v; } }
  test('unpack(data) and read(value), with msgpackr bytes', () => {
    const pt = { Class: Point, type: 0x31, pack: (p) => new Uint8Array([p.x, p.y]), unpack: (d) => new Point(d[0], d[1]) };
    const tg = { Class: Tagged, type: 0x32, write: (t) => [t.v], read: (a) => new Tagged(a[0]) };
    msgpackr.addExtension(pt);
    msgpackr.addExtension(tg);
    addExtension(pt);
    addExtension(tg);
    const b = msgpackr.pack([new Point(3, 4), new Tagged('x'), new Tagged({ deep: new Point(1, 2) })]);
    const v = unpack(b);
    expect(v[0]).toBeInstanceOf(Point);
    expect(v[0]).toEqual(new Point(3, 4));
    expect(v[1]).toEqual(new Tagged('x'));
    expect(v[2].v.deep).toEqual(new Point(1, 2));
  });

  test('an extension that calls unpack and pack inside unpack (msgpackr README pattern) leaves the outer decode intact', () => {
    class Box { constructor(inner) { this.inner = inner; } }
    // the inner value's tape is larger than its bytes (2,000 small integers), and the outer
    // message goes on after it: a nested call must not reuse the outer call's wasm arena
    addExtension({ Class: Box, type: 0x33, pack: (b) => pack(b.inner), unpack: (d) => new Box(unpack(pack(unpack(d)))) });
    // cbor-x's README form: encode(instance, encode) writes the item through the callback
    cborAddExtension({ Class: Box, tag: 40999, encode: (b, enc) => { enc(cborEncode(b.inner)); }, decode: (d) => new Box(cborDecode(cborEncode(cborDecode(d)))) });
    const inner = Array.from({ length: 2000 }, (_, i) => i % 100);
    const v = [new Box(inner), 'after the extension', { k: 'v', n: [1.5, 2.5] }, 12345, new Box([new Box('nested twice')]), 'tail'];
    for (const [enc, dec] of [[pack, unpack], [cborEncode, cborDecode]]) {
      const out = dec(enc(v));
      expect(out[0]).toBeInstanceOf(Box);
      expect(out[0].inner).toEqual(inner);
      expect(out.slice(1, 4)).toEqual(['after the extension', { k: 'v', n: [1.5, 2.5] }, 12345]);
      expect(out[4].inner[0].inner).toBe('nested twice');
      expect(out[5]).toBe('tail');
      // and the next call works as usual
      expect(dec(enc({ a: [1, 'b'] }))).toEqual({ a: [1, 'b'] });
    }
  });
});

// Malformed msgpackr extensions: each input, its error code and the offset reported.
const BAD = [
  ['d47240', 'TRUNCATED', 0],            // definition without keys
  ['d4724001', 'BAD_RECORD', 0],         // keys not an array
  ['d4724092a161', 'TRUNCATED', 3],      // keys cut short: the keys array is what is cut
  ['d4724091a161', 'TRUNCATED', 0],      // no values: the record is cut
  ['91d4724092a161a16201', 'TRUNCATED', 1],
  ['d5724000', 'TRUNCATED', 0],          // two-byte definition without keys
  ['92d572600091a161016005', 'UNKNOWN_RECORD', 9], // 0x60 then high byte 5: not defined
  ['92d572600091a1610160', 'TRUNCATED', 9],        // high byte missing
  ['c1', 'RESERVED_BYTE', 0],
  ['d66200000002c105a3616263a0', 'BAD_BUNDLE', 0], // bundle offset inside its own data
  ['d66200000064c105', 'TRUNCATED', 0],          // bundle past the end: it may still come
  ['d66200000006c105a3616263a0', 'BAD_BUNDLE', 6], // takes 5 units of a 0-unit string
  ['d66200000006c1fba3616263a0', 'BAD_BUNDLE', 6], // takes 5 units of a 3-unit string
  ['d66200000006c1c3a3616263a0', 'BAD_BUNDLE', 6], // count not an integer
  ['d66200000006c101c0a0', 'BAD_BUNDLE', 0],      // bundle is not two strings
  ['d66200000006c101a161', 'TRUNCATED', 0],       // second bundle string missing
  ['d66200000004a0a0', 'BAD_BUNDLE', 6],          // the value runs into its bundle
  ['d6620000000692c0d928' + '78'.repeat(40) + 'a0', 'BAD_BUNDLE', 8], // found by fuzzing: was TAPE_FULL
  ['d66200000006d906a0a078787878', 'BAD_BUNDLE', 6], // a string's bytes reach into the bundle's strings
  ['d66200000006c406a0a078787878', 'BAD_BUNDLE', 6], // a binary's bytes do
  ['d66200000007c70501a0a0787878', 'BAD_BUNDLE', 6], // an extension's data does
  ['d67000000001', 'BAD_REFERENCE', 2],           // pointer to no id
  ['d4730001', 'BAD_EXTENSION', 2],               // Set of a non-array
  ['d47800920001', 'BAD_EXTENSION', 2],           // RegExp of [0, 1]
  ['d4780092a15ba0', 'BAD_EXTENSION', 2],         // invalid RegExp source "["
  ['d4650090', 'BAD_EXTENSION', 2],               // Error of []
  ['c70274ff00', 'BAD_EXTENSION', 3],             // unknown typed array code
  ['c7047405000000', 'BAD_EXTENSION', 3],         // Int32Array of 3 bytes
  ['d473', 'TRUNCATED', 0],
  ['d47300', 'TRUNCATED', 3],                     // Set without its array
];

describe('malformed msgpackr extensions: code and offset', () => {
  test('a bundle reference of -3 takes the first string', () => {
    expect(unpack(fromHex('d66200000006c1fda3616263a0'))).toBe('abc');
  });
  test.each(BAD)('%s -> %s at %i', (h, code, offset) => {
    for (const u of [new Unpackr(), new Unpackr({ codegen: false }), new Unpackr({ sequential: true })]) {
      const e = errorOf(() => u.unpack(fromHex(h)));
      expect([e.code, e.offset]).toEqual([code, offset]);
      expect(e.incomplete).toBe(code === 'TRUNCATED');
    }
    stillWorks();
  });
  test('every prefix of a record stream, a bundle and a structured clone is TRUNCATED, never wrong', () => {
    const inputs = [
      new msgpackr.Packr().pack([{ a: 1, b: 'x' }, { a: 2, b: 'y' }]),
      new msgpackr.Packr({ bundleStrings: true }).pack({ hello: 'world!!', k: ['abcdé', 'xxxxyyyy'] }),
      new msgpackr.Packr({ structuredClone: true, moreTypes: true }).pack((() => { const o = { s: new Set([1]) }; o.o = o; return o; })()),
    ];
    for (const b of inputs) {
      for (let n = 0; n < b.length; n++) {
        const e = errorOf(() => unpack(b.subarray(0, n)));
        expect([n, e.code, e.incomplete]).toEqual([n, 'TRUNCATED', true]);
      }
      stillWorks();
    }
  });
});
