// wirepack/transcode: MessagePack <-> CBOR <-> JSON in C (csrc/transcode/), validate and find.
// Every check compares with JavaScript itself (JSON.stringify / JSON.parse / String(number)) or
// with the decoders and the peers (msgpackr, cbor-x).
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import { pack, unpack } from 'wirepack';
import { encode as cborEncode, decode as cborDecode, Decoder as CborDecoder } from 'wirepack/cbor';
import { pack as mpPack } from 'msgpackr';
import twitter from '../bench/fixtures/example-twitter.json?raw';
import example4 from '../bench/fixtures/example4.json?raw';
import numbers from '../bench/fixtures/numbers.json?raw';
import datatypes from '../bench/fixtures/sample-datatypes.json?raw';
import large from '../bench/fixtures/sample-large.json?raw';
import medium from '../bench/fixtures/sample-medium.json?raw';
import small from '../bench/fixtures/sample-small.json?raw';
import strings from '../bench/fixtures/strings.json?raw';
import { transcode, validate, find, findKey, findIndex, formatNumber } from './helpers/transcode.js';
import collidingKeys from './vectors/colliding-keys.json';

const FIXTURES = { twitter, example4, numbers, datatypes, large, medium, small, strings };
const hex = (u8) => Array.from(u8, (b) => b.toString(16).padStart(2, '0')).join(' ');
const fromHex = (h) => new Uint8Array(h.trim().split(/\s+/).filter(Boolean).map((x) => parseInt(x, 16)));
const utf8 = (s) => new TextEncoder().encode(s);

describe('string input (UTF-16 made UTF-8 in C, 16 ASCII units at a time)', () => {
  test('non-ASCII at every position around the 16- and 4-unit blocks gives what TextEncoder gives', () => {
    for (const odd of ['é', '日', '😀', '\ud800', '\udc00x', '\u007f', '\u0080']) {
      for (let at = 0; at < 40; at++) {
        // raw (not escaped) in the JSON text, lone surrogates too: TextEncoder makes them U+FFFD
        const text = '"' + 'a'.repeat(at) + odd + 'b'.repeat(40 - at) + odd + 'c'.repeat(17) + '"';
        const viaString = transcode(text, { from: 'json', to: 'msgpack' });
        const viaBytes = transcode(utf8(text), { from: 'json', to: 'msgpack' });
        expect(hex(viaString)).toBe(hex(viaBytes));
      }
    }
  });
});

describe('string output (UTF-8 made UTF-16 in C, 16 ASCII bytes at a time)', () => {
  test('non-ASCII at every position around the 16- and 8-byte blocks gives JSON.stringify', () => {
    for (const odd of ['é', '‘', '日', '😀']) {
      for (let at = 0; at < 40; at++) {
        const value = { s: 'a'.repeat(at) + odd + 'b'.repeat(40 - at) + odd + 'c'.repeat(17), n: [at] };
        expect(transcode(pack(value), { from: 'msgpack', to: 'json' })).toBe(JSON.stringify(value));
      }
    }
  });
});

describe('README example and API shape', () => {
  test('{"foo": "bar"} -> msgpack is 81 a3 66 6f 6f a3 62 61 72', () => {
    expect(hex(transcode('{"foo": "bar"}', { from: 'json', to: 'msgpack' }))).toBe('81 a3 66 6f 6f a3 62 61 72');
    expect(hex(transcode(utf8('{"foo": "bar"}'), { from: 'json', to: 'msgpack' }))).toBe('81 a3 66 6f 6f a3 62 61 72');
    expect(hex(transcode('{"foo": "bar"}', { from: 'json', to: 'cbor' }))).toBe('a1 63 66 6f 6f 63 62 61 72');
  });
  test('JSON output is a string by default, bytes on request; results never alias wasm memory', () => {
    const mp = fromHex('81 a3 66 6f 6f a3 62 61 72');
    expect(transcode(mp, { from: 'msgpack', to: 'json' })).toBe('{"foo":"bar"}');
    const b = transcode(mp, { from: 'msgpack', to: 'json', as: 'bytes' });
    expect(b).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(b)).toBe('{"foo":"bar"}');
    const c = transcode(mp, { from: 'msgpack', to: 'cbor' });
    transcode(fromHex('93 01 02 03'), { from: 'msgpack', to: 'cbor' });
    expect(hex(c)).toBe('a1 63 66 6f 6f 63 62 61 72');
  });
  test('bad options throw TypeError', () => {
    expect(() => transcode('1', /** @type {any} */ ({ from: 'yaml', to: 'json' }))).toThrow(TypeError);
    expect(() => transcode('1', /** @type {any} */ ({ from: 'json' }))).toThrow(TypeError);
    expect(() => transcode(/** @type {any} */ (5), { from: 'msgpack', to: 'json' })).toThrow(TypeError);
  });
});

describe('numbers print exactly as JavaScript prints them', () => {
  test('fixed cases', () => {
    const cases = [0, -0, 1, -1, 0.1, 0.2 + 0.1, 1e21, 1e20, 1e-7, 1.5e-7, 1e-6, 5e-324, 1e-323, Number.MAX_VALUE,
      Number.MIN_VALUE, 2.2250738585072014e-308, 2 ** 53, 2 ** 53 + 2, 2 ** 60, 123456789012345680000, 1 / 3, -1e-7,
      4.35, 0.000001234, 1.7976931348623157e308, 9007199254740993, 1e23, 5e-7, 100, 1e300];
    for (const v of cases) expect(formatNumber(v), String(v)).toBe(v === 0 ? '0' : String(v));
    expect(formatNumber(NaN)).toBe('null');
    expect(formatNumber(Infinity)).toBe('null');
  });
  test('10^6 random doubles (all bit patterns and decimal-looking ones) through msgpack -> JSON', () => {
    const N = 1_000_000;
    const f = new Float64Array(N);
    const u = new Uint32Array(f.buffer);
    let seed = 12345;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let i = 0; i < N; i++) {
      u[2 * i] = next() ^ (next() << 16);
      u[2 * i + 1] = next() ^ (next() << 16);
      if (i % 4 === 1) f[i] = (next() / 2 ** 32) * 10 ** ((next() % 40) - 20);
      if (i % 4 === 2) f[i] = Math.round(next() / 1000) / 1000;
      if (i % 16 === 3) { u[2 * i] = next() % 200000; u[2 * i + 1] = 0; } // tiny subnormals: short digit strings
      if (!Number.isFinite(f[i])) f[i] = i;
    }
    // one msgpack array of float64s (cb), built by hand so that integers stay doubles too
    const mp = new Uint8Array(5 + 9 * N);
    const dv = new DataView(mp.buffer);
    mp[0] = 0xdd;
    dv.setUint32(1, N);
    for (let i = 0; i < N; i++) {
      mp[5 + 9 * i] = 0xcb;
      dv.setFloat64(6 + 9 * i, f[i]);
    }
    const got = /** @type {string} */ (transcode(mp, { from: 'msgpack', to: 'json' }));
    const want = JSON.stringify(Array.from(f));
    if (got !== want) {
      const g = got.slice(1, -1).split(','), w = want.slice(1, -1).split(',');
      const bad = g.findIndex((x, i) => x !== w[i]);
      expect(g[bad], `first mismatch at ${bad}`).toBe(w[bad]);
    }
    expect(got.length).toBe(want.length);
    // and back: JSON -> msgpack parses every one of them to the same double
    const back = unpack(/** @type {Uint8Array} */ (transcode(got, { from: 'json', to: 'msgpack' })));
    let mismatches = 0;
    for (let i = 0; i < N; i++) if (!Object.is(back[i], f[i] === 0 ? 0 : f[i])) mismatches++;
    expect(mismatches).toBe(0);
  }, 60_000);
  test('JSON numbers parse correctly rounded (hard cases vs JSON.parse)', () => {
    const cases = ['2.4703282292062327e-324', '2.4703282292062328e-324', '1.7976931348623158e308', '1.7976931348623159e308',
      '9007199254740993', '9007199254740993.0000000000000000001', '0.1000000000000000055511151231257827021181583404541015625',
      '1e-400', '-1e400', '123456789012345678901234567890e-10', '7.2057594037927933e16', '2.2250738585072011e-308',
      '2.2250738585072012e-308', '1' + '0'.repeat(400) + 'e-400', '0.' + '0'.repeat(300) + '1e300', '4.9406564584124654e-324',
      '8.98846567431158e307', '3.4028234663852886e38', '1.00000000000000011102230246251565404236316680908203125',
      '1.00000000000000011102230246251565404236316680908203124', '1.00000000000000011102230246251565404236316680908203126'];
    for (const s of cases) {
      const v = unpack(/** @type {Uint8Array} */ (transcode(s, { from: 'json', to: 'msgpack' })));
      expect(Object.is(v, JSON.parse(s)) || (v === 0 && JSON.parse(s) === 0), s).toBe(true);
    }
    // random long decimals
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let i = 0; i < 20000; i++) {
      let s = String(1 + (next() % 9));
      const n = 1 + (next() % 40);
      for (let k = 0; k < n; k++) s += String(next() % 10);
      s = s.slice(0, 1) + '.' + s.slice(1) + 'e' + ((next() % 640) - 330);
      const v = unpack(/** @type {Uint8Array} */ (transcode(s, { from: 'json', to: 'msgpack' })));
      const w = JSON.parse(s);
      if (!Object.is(v, w)) expect(v, s).toBe(w);
    }
  });
});

describe('msgpack / CBOR -> JSON is JSON.stringify(decode(x))', () => {
  test('fixtures, compact and indented', () => {
    for (const [name, text] of Object.entries(FIXTURES)) {
      const value = JSON.parse(text);
      const mp = pack(value);
      const cb = cborEncode(value);
      expect(transcode(mp, { from: 'msgpack', to: 'json' }), name).toBe(JSON.stringify(unpack(mp)));
      expect(transcode(cb, { from: 'cbor', to: 'json' }), name).toBe(JSON.stringify(cborDecode(cb)));
      expect(transcode(mp, { from: 'msgpack', to: 'json', indent: 2 }), name).toBe(JSON.stringify(unpack(mp), null, 2));
      expect(transcode(cb, { from: 'cbor', to: 'json', indent: '    ' }), name).toBe(JSON.stringify(cborDecode(cb), null, 4));
      // msgpackr's bytes too
      const mp2 = mpPack(value);
      expect(transcode(mp2, { from: 'msgpack', to: 'json' }), name).toBe(JSON.stringify(unpack(mp2)));
    }
  });
  // The duplicate-key check hashes keys into a table: keys that differ only in their middle
  // (whose hash took their ends alone) and keys chosen to share a slot (past 64 probes the map is
  // written by decoding it) give JSON.stringify's text all the same (tests/c/test_transcode.c
  // checks the work each insert does)
  test('maps of keys built to collide in the duplicate-key check', () => {
    const long = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => ['AAAAAAAA' + String(i).padStart(8, '0') + 'BBBBBBBB', i]));
    const slot = Object.fromEntries(collidingKeys.jsonKeys.map((k, i) => [k, i]));
    for (const v of [long, slot, [slot, long, { nested: slot }]]) {
      const mp = pack(v), cb = cborEncode(v);
      expect(transcode(mp, { from: 'msgpack', to: 'json' })).toBe(JSON.stringify(v));
      expect(transcode(cb, { from: 'cbor', to: 'json' })).toBe(JSON.stringify(v));
      expect(transcode(mp, { from: 'msgpack', to: 'json', wireOrder: true })).toBe(JSON.stringify(v));
      expect(transcode(mp, { from: 'msgpack', to: 'json', indent: 1 })).toBe(JSON.stringify(v, null, 1));
    }
  });
  test('policy: NaN/Infinity null, undefined dropped in objects and null in arrays, -0 as 0', () => {
    const v = { a: NaN, b: [undefined, Infinity, -Infinity, -0], c: undefined, d: 'x', e: { f: undefined } };
    for (const [bytes, from] of [[pack(v), 'msgpack'], [cborEncode(v), 'cbor']]) {
      expect(transcode(bytes, { from, to: 'json' })).toBe(JSON.stringify(v));
      expect(transcode(bytes, { from, to: 'json', indent: 1 })).toBe(JSON.stringify(v, null, 1));
    }
  });
  test('policy: non-JSON values throw NON_JSON at their offset; 64-bit integers keep their digits', () => {
    const err = (fn) => { try { fn(); } catch (e) { return [e.code, e.offset]; } return null; };
    expect(err(() => transcode(fromHex('92 01 c4 01 00'), { from: 'msgpack', to: 'json' }))).toEqual(['NON_JSON', 2]);
    expect(err(() => transcode(pack(new Date(0)), { from: 'msgpack', to: 'json' }))).toEqual(['NON_JSON', 0]);
    expect(err(() => transcode(fromHex('d4 00 00'), { from: 'msgpack', to: 'json' }))).toEqual(['NON_JSON', 0]);
    expect(err(() => transcode(fromHex('82 01 c1 02'), { from: 'cbor', to: 'json' }))).toEqual(['NON_JSON', 2]);
    expect(transcode(fromHex('92 cf ff ff ff ff ff ff ff ff d3 80 00 00 00 00 00 00 00'), { from: 'msgpack', to: 'json' }))
      .toBe('[18446744073709551615,-9223372036854775808]');
    expect(transcode(pack(2n ** 63n + 5n), { from: 'msgpack', to: 'json' })).toBe('9223372036854775813');
  });
  test('maps JSON.stringify would reorder (integer-like keys, duplicates) still match it exactly', () => {
    const cases = [
      '83 a1 62 01 a1 31 02 a1 30 03', // {"b":1,"1":2,"0":3} -> {"0":3,"1":2,"b":1}
      '83 a1 61 01 a1 62 02 a1 61 03', // duplicate "a": last value, first position
      '82 a1 61 01 a1 61 d4 00 00', // duplicate whose last value is undefined: member gone
      '92 82 a1 7a 01 a1 39 02 81 a1 61 81 a1 35 c0', // nested
    ];
    for (const h of cases) {
      const mp = fromHex(h);
      expect(transcode(mp, { from: 'msgpack', to: 'json' }), h).toBe(JSON.stringify(unpack(mp)));
      expect(transcode(mp, { from: 'msgpack', to: 'json', indent: 2 }), h).toBe(JSON.stringify(unpack(mp), null, 2));
      expect(new TextDecoder().decode(/** @type {Uint8Array} */ (transcode(mp, { from: 'msgpack', to: 'json', as: 'bytes' })))).toBe(JSON.stringify(unpack(mp)));
    }
    expect(transcode(fromHex('82 a1 62 01 a1 31 02'), { from: 'msgpack', to: 'json', wireOrder: true })).toBe('{"b":1,"1":2}');
    // CBOR with integer keys (property names)
    const cb = fromHex('a3 61 62 01 02 02 01 03');
    expect(transcode(cb, { from: 'cbor', to: 'json' })).toBe(JSON.stringify(cborDecode(cb)));
    // streams too
    const two = fromHex('82 a1 62 01 a1 31 02 81 a1 61 01');
    expect(transcode(two, { from: 'msgpack', to: 'json', multiple: true })).toBe('{"1":2,"b":1}\n{"a":1}\n');
    // policy errors are the same as without reordering
    expect(() => transcode(fromHex('82 a1 62 01 a1 31 c4 00'), { from: 'msgpack', to: 'json' })).toThrow(expect.objectContaining({ code: 'NON_JSON', offset: 6 }));
  });
  test('fast-check: hand-made maps whose keys are numbers, null, booleans, undefined, and their names', () => {
    // JavaScript keys a property by String(key): -20 and "-20" are one property, and the
    // 64-bit forms of 5 decode to 5n, whose name "5" is an array index (written first)
    /** @type {[string, string][]} key bytes as [MessagePack, CBOR] */
    const KEYS = [
      ['ec', '33'], ['a3 2d 32 30', '63 2d 32 30'], ['c0', 'f6'], ['a4 6e 75 6c 6c', '64 6e 75 6c 6c'],
      ['c3', 'f5'], ['a4 74 72 75 65', '64 74 72 75 65'], ['cb 3f f8 00 00 00 00 00 00', 'f9 3e 00'], ['a3 31 2e 35', '63 31 2e 35'],
      ['cf 00 00 00 00 00 00 00 05', '1b 00 00 00 00 00 00 00 05'], ['d3 00 00 00 00 00 00 00 05', '05'], ['a1 35', '61 35'],
      ['d3 ff ff ff ff ff ff ff fb', '3b 00 00 00 00 00 00 00 04'], ['a2 2d 35', '62 2d 35'],
      ['cb 7f f8 00 00 00 00 00 00', 'f9 7e 00'], ['a3 4e 61 4e', '63 4e 61 4e'], ['d4 00 00', 'f7'],
      ['ce ff ff ff ff', '1a ff ff ff ff'], ['ce ff ff ff fe', '1a ff ff ff fe'], ['a1 61', '61 61'], ['00', '00'],
    ];
    const entries = fc.array(fc.tuple(fc.nat(KEYS.length - 1), fc.nat(23)), { maxLength: 6 });
    fc.assert(fc.property(entries, (es) => {
      const mp = fromHex([(0x80 | es.length).toString(16), ...es.map(([k, v]) => `${KEYS[k][0]} ${v.toString(16)}`)].join(' '));
      const cb = fromHex([(0xa0 | es.length).toString(16), ...es.map(([k, v]) => `${KEYS[k][1]} ${v.toString(16)}`)].join(' '));
      expect(transcode(mp, { from: 'msgpack', to: 'json' }), hex(mp)).toBe(JSON.stringify(unpack(mp)));
      expect(transcode(cb, { from: 'cbor', to: 'json' }), hex(cb)).toBe(JSON.stringify(cborDecode(cb)));
    }), { numRuns: 1000 });
  });
  test('keys of ill-formed UTF-8 that decode to one name are one member (U+FFFD), as JSON.stringify writes them', () => {
    // 9f and c9 are unequal bytes, each one U+FFFD once decoded: one property, its last value
    for (const [h, from] of [['82 a1 9f 91 d0 80 a1 c9 90', 'msgpack'], ['82 a1 9f 01 a3 ef bf bd 02', 'msgpack'], ['a2 61 ff 18 ff 61 da 38 20', 'cbor']]) {
      const bytes = fromHex(h);
      const want = JSON.stringify(from === 'msgpack' ? unpack(bytes) : cborDecode(bytes));
      expect(want, h).toMatch(/^\{"\ufffd":[^,]*\}$/);
      expect(transcode(bytes, { from, to: 'json' }), h).toBe(want);
      expect(transcode(bytes, { from, to: 'json', indent: 2 }), h).toBe(JSON.stringify(JSON.parse(want), null, 2));
    }
  });
  test('MessagePack extension type 0 of any size is undefined, as decode() reads it (msgpackr\'s rule)', () => {
    const cases = ['d4 00 e4', 'd5 00 01 02', 'd8 00' + ' 07'.repeat(16), 'c7 00 00', 'c7 02 00 aa bb', 'c8 00 01 00 ff', 'c9 00 00 00 00 00'];
    for (const u of cases) {
      const inMap = fromHex(`82 a1 61 ${u} a1 62 92 ${u} 01`);
      expect(unpack(inMap), u).toEqual({ a: undefined, b: [undefined, 1] });
      expect(transcode(inMap, { from: 'msgpack', to: 'json' }), u).toBe('{"b":[null,1]}');
      expect(transcode(inMap, { from: 'msgpack', to: 'json', indent: 1 }), u).toBe(JSON.stringify(unpack(inMap), null, 1));
      expect(hex(/** @type {Uint8Array} */ (transcode(inMap, { from: 'msgpack', to: 'cbor' }))), u).toBe('a2 61 61 f7 61 62 82 f7 01');
      expect(() => transcode(fromHex(u), { from: 'msgpack', to: 'json' }), u).toThrow(expect.objectContaining({ code: 'NON_JSON', offset: 0 }));
    }
    // other types stay extensions: no JSON form, no CBOR counterpart
    expect(() => transcode(fromHex('92 01 d4 01 00'), { from: 'msgpack', to: 'json' })).toThrow(expect.objectContaining({ code: 'NON_JSON', offset: 2 }));
    expect(() => transcode(fromHex('92 01 c7 00 05'), { from: 'msgpack', to: 'cbor' })).toThrow(expect.objectContaining({ code: 'UNMAPPABLE', offset: 2 }));
  });
  test('fast-check: hand-made maps with integer-like and duplicate keys', () => {
    const key = fc.oneof(fc.constantFrom('0', '1', '2', '10', '01', 'a', 'b', '-1', '4294967295', '4294967294'), fc.string({ maxLength: 3 }))
      .filter((k) => k !== '__proto__');
    const entries = fc.array(fc.tuple(key, fc.oneof(fc.integer(), fc.constant(undefined), fc.string({ maxLength: 3 }))), { maxLength: 8 });
    fc.assert(fc.property(entries, (es) => {
      // build the map by hand: pack would reorder the keys the way JavaScript objects do
      const parts = [0x80 | es.length];
      const bytesOf = (x) => Array.from(pack(x));
      for (const [k, v] of es) parts.push(...bytesOf(k), ...bytesOf(v));
      const mp = new Uint8Array(parts);
      expect(transcode(mp, { from: 'msgpack', to: 'json' })).toBe(JSON.stringify(unpack(mp)));
    }), { numRuns: 500 });
  });
  test('diagnostic notation', () => {
    expect(transcode(fromHex('83 c1 43 01 02 03 f7 fa 7f c0 00 00'), { from: 'cbor', to: 'json', diag: true }))
      .toBe("[1(h'010203'), undefined, NaN]");
    expect(transcode(fromHex('92 c4 01 ff d6 05 00 00 00 01'), { from: 'msgpack', to: 'json', diag: true }))
      .toBe("[h'ff', ext(5, h'00000001')]");
  });
  test('invalid UTF-8 becomes U+FFFD as TextDecoder does', () => {
    const mp = fromHex('a6 61 ff e2 82 c3 a9');
    expect(transcode(mp, { from: 'msgpack', to: 'json' })).toBe(JSON.stringify(unpack(mp)));
  });
  test('fast-check values packed by wirepack: byte for byte JSON.stringify(unpack(x))', () => {
    const key = fc.string({ maxLength: 6 }).filter((k) => k !== '__proto__');
    const leaf = fc.oneof(fc.double(), fc.integer(), fc.string(), fc.boolean(), fc.constant(null), fc.constant(undefined),
      fc.string({ unit: 'binary' }));
    const value = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('v'), { maxLength: 5 }), fc.dictionary(key, tie('v'), { maxKeys: 5 })),
    })).v.filter((v) => v !== undefined);
    fc.assert(fc.property(value, (v) => {
      const mp = pack(v);
      expect(transcode(mp, { from: 'msgpack', to: 'json' })).toBe(JSON.stringify(unpack(mp)));
      const cb = cborEncode(v);
      expect(transcode(cb, { from: 'cbor', to: 'json' })).toBe(JSON.stringify(cborDecode(cb)));
    }), { numRuns: 400 });
  });
});

describe('round trips through every pair of formats', () => {
  const FORMATS = /** @type {const} */ (['json', 'msgpack', 'cbor']);
  /** @param {Uint8Array | string} x @param {'json'|'msgpack'|'cbor'} f */
  const decodeAs = (x, f) => (f === 'json' ? JSON.parse(typeof x === 'string' ? x : new TextDecoder().decode(x)) : f === 'msgpack' ? unpack(/** @type {Uint8Array} */ (x)) : cborDecode(/** @type {Uint8Array} */ (x)));
  /** @param {string} json */
  function allPairs(json) {
    const value = JSON.parse(json);
    const start = { json, msgpack: transcode(json, { from: 'json', to: 'msgpack' }), cbor: transcode(json, { from: 'json', to: 'cbor' }) };
    for (const a of FORMATS) {
      expect(decodeAs(start[a], a)).toEqual(value);
      for (const b of FORMATS) {
        if (a === b) continue;
        const ab = transcode(start[a], { from: a, to: b });
        expect(decodeAs(ab, b)).toEqual(value);
        // and back again: the same bytes as the direct conversion
        for (const c of FORMATS) {
          if (c === b) continue;
          const abc = transcode(ab, { from: b, to: c });
          if (c !== 'json' || a !== 'json') expect(abc).toEqual(c === a && a !== 'json' ? start[a] : transcode(start[a], { from: a, to: c }));
        }
      }
    }
    // JSON -> binary writes what the encoders write for JSON.parse(text) (no integer-like keys here)
    expect(hex(/** @type {Uint8Array} */ (start.msgpack))).toBe(hex(pack(value)));
    expect(hex(/** @type {Uint8Array} */ (start.cbor))).toBe(hex(cborEncode(value)));
  }
  test('fixtures', () => {
    for (const [name, text] of Object.entries(FIXTURES)) {
      try { allPairs(text); } catch (e) { e.message = `${name}: ${e.message}`; throw e; }
    }
  }, 60_000);
  test('fast-check JSON values', () => {
    const key = fc.string({ maxLength: 5 }).filter((k) => k !== '__proto__' && !/^(0|[1-9][0-9]*)$/.test(k));
    const value = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.string(),
        fc.string({ unit: 'binary', maxLength: 4 }), fc.boolean(), fc.constant(null),
        fc.array(tie('v'), { maxLength: 5 }), fc.dictionary(key, tie('v'), { maxKeys: 5 })),
    })).v;
    fc.assert(fc.property(value, fc.nat(3), (v, sp) => {
      const text = JSON.stringify(v, null, sp);
      allPairs(text);
    }), { numRuns: 300 });
  }, 60_000);
  test('msgpack <-> CBOR keep binary, undefined and 64-bit integers', () => {
    const v = { bin: new Uint8Array([1, 2, 3]), u: undefined, big: 2n ** 64n - 1n, neg: -(2n ** 63n), f32: 1.5 };
    const cb = transcode(pack(v), { from: 'msgpack', to: 'cbor' });
    expect(hex(/** @type {Uint8Array} */ (cb))).toBe(hex(fromHex('a5 63 62 69 6e 43 01 02 03 61 75 f7 63 62 69 67 1b ff ff ff ff ff ff ff ff 63 6e 65 67 3b 7f ff ff ff ff ff ff ff 63 66 33 32 f9 3e 00')));
    expect(hex(/** @type {Uint8Array} */ (transcode(cb, { from: 'cbor', to: 'msgpack' })))).toBe(hex(pack(v)));
  });
  test('CBOR indefinite lengths become definite', () => {
    const cb = fromHex('bf 61 61 9f 01 02 ff 61 62 7f 61 78 61 79 ff 61 63 5f 41 01 41 02 ff ff');
    const mp = transcode(cb, { from: 'cbor', to: 'msgpack' });
    const v = unpack(/** @type {Uint8Array} */ (mp));
    expect({ ...v, c: Array.from(v.c) }).toEqual({ a: [1, 2], b: 'xy', c: [1, 2] });
    expect(v.c).toBeInstanceOf(Uint8Array);
    expect(transcode(fromHex('bf 61 61 9f 01 02 ff 61 62 7f 61 78 61 79 ff ff'), { from: 'cbor', to: 'json' })).toBe('{"a":[1,2],"b":"xy"}');
  });
  test('CBOR text chunks that are not UTF-8 alone read as decode() reads them', () => {
    // decode() decodes each chunk on its own: e2 82 then ac is two U+FFFD, not the joined U+20AC
    for (const h of ['7f 62 e2 82 61 ac ff', '7f 61 e2 62 82 ac ff', '7f 62 c3 a9 61 ff 61 61 ff', '7f 64 f0 90 80 41 ff', '82 7f 62 e2 82 61 ac ff 7f 63 e2 82 ac 60 ff']) {
      const cb = fromHex(h);
      const mp = /** @type {Uint8Array} */ (transcode(cb, { from: 'cbor', to: 'msgpack' }));
      expect(unpack(mp)).toEqual(cborDecode(cb));
      expect(transcode(mp, { from: 'msgpack', to: 'json' })).toBe(JSON.stringify(cborDecode(cb)));
    }
  });
});

describe('streams', () => {
  test('NDJSON -> concatenated msgpack -> NDJSON', () => {
    const nd = '{"a":1}\n[2,3]\n"x"\n\n  null\n';
    const mp = transcode(nd, { from: 'json', to: 'msgpack', multiple: true });
    expect(hex(/** @type {Uint8Array} */ (mp))).toBe('81 a1 61 01 92 02 03 a1 78 c0');
    expect(transcode(mp, { from: 'msgpack', to: 'json', multiple: true })).toBe('{"a":1}\n[2,3]\n"x"\nnull\n');
    expect(transcode(mp, { from: 'msgpack', to: 'cbor', multiple: true })).toEqual(fromHex('a1 61 61 01 82 02 03 61 78 f6'));
    expect(() => transcode(mp, { from: 'msgpack', to: 'json' })).toThrow(expect.objectContaining({ code: 'TRAILING_DATA', offset: 4 }));
  });
});

describe('errors name the byte offset', () => {
  const cases = [
    ['[1,]', 'JSON_SYNTAX', 3], ['{"a":1,}', 'JSON_SYNTAX', 7], ['[1 2]', 'JSON_SYNTAX', 3], ['"\\u12"', 'JSON_SYNTAX', 1], ['"\\u12', 'TRUNCATED', 5],
    ['[', 'TRUNCATED', 1], ['{"a":', 'TRUNCATED', 5], ['nul', 'TRUNCATED', 3], ['"abc', 'TRUNCATED', 4], ['1 2', 'TRAILING_DATA', 2],
  ];
  test.each(cases)('%s', (input, code, offset) => {
    expect(() => transcode(input, { from: 'json', to: 'msgpack' })).toThrow(expect.objectContaining({ code, offset }));
    const r = validate(input, { format: 'json' });
    expect(r.valid).toBe(false);
    if (!r.valid) expect([r.error.code, r.error.offset]).toEqual([code, offset]);
  });
  test('invalid UTF-8 in JSON input', () => {
    const b = utf8('["ok", "xx"]');
    b[8] = 0xc0;
    expect(() => transcode(b, { from: 'json', to: 'cbor' })).toThrow(expect.objectContaining({ code: 'BAD_UTF8', offset: 8 }));
  });
  test('binary inputs', () => {
    expect(() => transcode(fromHex('92 01'), { from: 'msgpack', to: 'json' })).toThrow(expect.objectContaining({ code: 'TRUNCATED', offset: 2, incomplete: true }));
    expect(() => transcode(fromHex('91 c1'), { from: 'msgpack', to: 'cbor' })).toThrow(expect.objectContaining({ code: 'RESERVED_BYTE', offset: 1 }));
    expect(() => transcode(fromHex('81 1c'), { from: 'cbor', to: 'msgpack' })).toThrow(expect.objectContaining({ code: 'RESERVED_AI', offset: 1 }));
    expect(() => transcode(fromHex('c1 00'), { from: 'cbor', to: 'msgpack' })).toThrow(expect.objectContaining({ code: 'UNMAPPABLE', offset: 0 }));
  });
  test('more unclosed brackets than half the input: the input\'s own error, not an internal one', () => {
    // (the conversion's fixups hold (len + 16) / 2 containers, as many as well-formed input can have)
    expect(() => transcode('['.repeat(24) + '}', { from: 'json', to: 'msgpack' })).toThrow(expect.objectContaining({ code: 'JSON_SYNTAX', offset: 24 }));
    expect(() => transcode('['.repeat(30), { from: 'json', to: 'cbor' })).toThrow(expect.objectContaining({ code: 'TRUNCATED', offset: 30 }));
    expect(() => transcode(fromHex('9f '.repeat(40)), { from: 'cbor', to: 'msgpack' })).toThrow(expect.objectContaining({ code: 'TRUNCATED', offset: 40 }));
  });
  test('depth limit', () => {
    const deep = '['.repeat(20) + ']'.repeat(20);
    expect(() => transcode(deep, { from: 'json', to: 'msgpack', maxDepth: 10 })).toThrow(expect.objectContaining({ code: 'DEPTH' }));
    expect(unpack(/** @type {Uint8Array} */ (transcode(deep, { from: 'json', to: 'msgpack', maxDepth: 30 })))).toEqual(JSON.parse(deep));
  });
});

describe('validate', () => {
  test('fixtures are valid in every format; every strict prefix is not', () => {
    for (const text of [small, medium, datatypes]) {
      const value = JSON.parse(text);
      for (const [bytes, format] of [[utf8(text), 'json'], [pack(value), 'msgpack'], [cborEncode(value), 'cbor']]) {
        expect(validate(bytes, { format })).toEqual({ valid: true });
        for (let n = 0; n < bytes.length; n++) {
          const r = validate(bytes.subarray(0, n), { format });
          if (format === 'json' && text.slice(n).trim() === '') continue;
          expect(r.valid, `${format} prefix ${n}`).toBe(false);
        }
      }
    }
  });
  test('UTF-8 in binary formats', () => {
    expect(validate(fromHex('a2 c3 28'), { format: 'msgpack' })).toMatchObject({ valid: false, error: { code: 'BAD_UTF8', offset: 1 } });
    expect(validate(fromHex('62 c3 a9'), { format: 'cbor' })).toEqual({ valid: true });
    expect(validate(fromHex('01 02 03'), { format: 'cbor', multiple: true })).toEqual({ valid: true });
    expect(validate(fromHex('01 02 03'), { format: 'cbor' })).toMatchObject({ valid: false, error: { code: 'TRAILING_DATA', offset: 1 } });
  });
  test('a MessagePack map32 of 2^31 entries or more is truncated, not empty', () => {
    // (its item count wrapped to 0 in 32 bits: df 80 00 00 00 validated and converted to {})
    expect(validate(fromHex('df 80 00 00 00'), { format: 'msgpack' })).toMatchObject({ valid: false, error: { code: 'TRUNCATED', offset: 5 } });
    expect(() => transcode(fromHex('df 80 00 00 00'), { from: 'msgpack', to: 'json' })).toThrow(expect.objectContaining({ code: 'TRUNCATED' }));
    expect(() => transcode(fromHex('df 80 00 00 00'), { from: 'msgpack', to: 'cbor' })).toThrow(expect.objectContaining({ code: 'TRUNCATED' }));
  });
  test('a CBOR tag nests its item: validation fails where decoding fails with DEPTH', () => {
    for (const [tags, maxDepth] of [[1000, undefined], [1001, undefined], [5, 5], [6, 5]]) {
      const bytes = fromHex('c6 '.repeat(tags) + '00');
      let decoded = null;
      try {
        if (maxDepth === undefined) cborDecode(bytes);
        else new CborDecoder({ maxDepth }).decode(bytes);
      } catch (e) {
        decoded = e;
      }
      const r = validate(bytes, { format: 'cbor', maxDepth });
      if (decoded === null) expect(r).toEqual({ valid: true });
      else expect(r).toMatchObject({ valid: false, error: { code: 'DEPTH', offset: decoded.offset } });
    }
    expect(validate(fromHex('c6 '.repeat(1001) + '00'), { format: 'cbor' })).toMatchObject({ valid: false, error: { code: 'DEPTH', offset: 1000 } });
  });
});

describe('find without decoding', () => {
  const value = JSON.parse(twitter);
  const forms = [['msgpack', pack(value)], ['cbor', cborEncode(value)], ['json', twitter]];
  test.each(forms)('%s: every path of the fixture gives the decoded value', (format, bytes) => {
    /** @type {[(string|number)[], unknown][]} */
    const paths = [];
    const walk = (v, path) => {
      paths.push([path, v]);
      if (path.length > 4) return;
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
      else if (v && typeof v === 'object') for (const k of Object.keys(v)) walk(v[k], [...path, k]);
    };
    walk(value, []);
    expect(paths.length).toBeGreaterThan(100);
    for (const [path, v] of paths) expect(find(bytes, path, { format }), path.join('/')).toEqual(v);
    expect(find(bytes, ['statuses', 0, 'nope'], { format })).toBe(undefined);
    expect(find(bytes, ['statuses', 100000], { format })).toBe(undefined);
    expect(find(bytes, '/statuses/0/user/screen_name', { format })).toBe(value.statuses[0].user.screen_name);
    expect(findKey(bytes, 'search_metadata', { format })).toEqual(value.search_metadata);
    expect(findIndex(bytes, 1, { format, path: ['statuses'] })).toEqual(value.statuses[1]);
  });
  test('range', () => {
    const mp = pack({ a: [1, 'xyz'], b: 2 });
    const r = /** @type {[number, number]} */ (find(mp, ['a', 1], { range: true }));
    expect(unpack(mp.subarray(r[0], r[1]))).toBe('xyz');
    expect(find(mp, ['c'], { range: true })).toBe(null);
    // a duplicate key: the first one (json-pack's findKey), nothing after it is read
    const j = '{"a": [1, {"x": true}], "a": 3}';
    expect(find(j, ['a'], { format: 'json' })).toEqual([1, { x: true }]);
    expect(find(j, '/a', { format: 'json', range: true })).toEqual([6, 22]);
    expect(find(j + ' garbage', '/a', { format: 'json' })).toEqual([1, { x: true }]);
  });
});
