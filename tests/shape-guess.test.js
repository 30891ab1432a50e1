// MessagePack and CBOR maps whose shape C guesses from their first key: after interning a map's first key,
// the decoder takes the shape that the last map of as many keys starting with that key (at that
// depth) had, once two maps in a row had it, and compares the map's further keys with that
// shape's keys instead of hashing them.
// The guess table is small and shared (slots collide), and the key and shape tables it points
// into are emptied or rolled back between calls, so every guess is checked: these tests decode
// maps that agree with a guess in every way but one, and compare keys, their order and values.
import { describe, test, expect } from 'vitest';
import { pack, unpack, unpackMultiple, Unpackr, DecodeError } from 'wirepack';
import * as msgpackr from 'msgpackr';
import { Encoder as CborEncoder, decode as cborDecode, decodeMultiple as cborDecodeMultiple, Decoder as CborDecoder } from 'wirepack/cbor';
import { hex } from './helpers/bytes.js';

/** The value back, with its keys in the same order at every level. */
const same = (back, value) => {
  expect(back).toEqual(value);
  const walk = (a, b) => {
    if (Array.isArray(b)) b.forEach((x, i) => walk(a[i], x));
    else if (b && typeof b === 'object') {
      expect(Object.keys(a)).toEqual(Object.keys(b));
      for (const k of Object.keys(b)) walk(a[k], b[k]);
    }
  };
  walk(back, value);
};

const obj = (keys, base = 0) => Object.fromEntries(keys.map((k, i) => [k, base + i]));

const join = (parts) => parts.reduce((a, b) => new Uint8Array([...a, ...b]));
const cborEncoder = new CborEncoder({ useRecords: false });
/** Both formats' decoders guess (MessagePack maps, CBOR definite maps): the same cases for each. */
const FORMATS = [
  { name: 'MessagePack', encode: pack, decode: unpack, decodeMultiple: unpackMultiple },
  { name: 'CBOR', encode: (v) => cborEncoder.encode(v), decode: cborDecode, decodeMultiple: cborDecodeMultiple },
];

describe.each(FORMATS)('$name maps decoded against a guessed shape', ({ encode, decode, decodeMultiple }) => {
  test('many first keys with the same tail: every map keeps its own first key (slots collide)', () => {
    // 300 first keys share 1,024 slots with n and depth: some share a slot, and a guess whose
    // first key is not this map's must not be taken
    for (const n of [1, 2, 3, 5]) {
      const tail = ['x', 'y', 'z', 'w'].slice(0, n - 1);
      const maps = Array.from({ length: 300 }, (_, i) => obj([`first${i}`, ...tail], i * 10));
      same(decode(encode(maps)), maps);
      same(decode(encode(maps.slice().reverse())), maps.slice().reverse());
      // one map per message: the guesses carry over from call to call
      for (const m of maps) same(decode(encode(m)), m);
      same(decodeMultiple(join(maps.map((m) => encode(m)))), maps);
    }
  });

  test('the same first key and size, the other keys different: alternating, permuted, one key changed', () => {
    const shapes = [['id', 'a', 'b', 'c'], ['id', 'a', 'c', 'b'], ['id', 'b', 'a', 'c'], ['id', 'a', 'b', 'd'], ['id', 'x', 'y', 'z']];
    const maps = [];
    for (let i = 0; i < 200; i++) maps.push(obj(shapes[(i * 7) % shapes.length], i));
    same(decode(encode(maps)), maps);
    for (const m of maps) same(decode(encode({ m })), { m });
    // a guess is taken once its slot has seen the same shape twice: repeat one shape, then break
    // it with keys of the same lengths (only their bytes differ)
    const A = obj(['id', 'a', 'b', 'c'], 1), B = obj(['id', 'x', 'y', 'z'], 5), C = obj(['id', 'a', 'y', 'c'], 9);
    const runs = [A, A, A, B, B, B, A, C, C, C, A, B];
    same(decode(encode(runs)), runs);
    for (const m of runs) same(decode(encode(m)), m);
  });

  test('keys of every length (a guessed key longer than 16 bytes is interned and compared by id)', () => {
    const keys = Array.from({ length: 40 }, (_, i) => 'k'.repeat(i + 1));
    const maps = [];
    for (let i = 0; i < 40; i++) maps.push(obj(['first', ...keys.slice(i, i + 3)], i), obj(['first', ...keys.slice(i, i + 2), keys[(i + 5) % 40]], i));
    same(decode(encode(maps)), maps);
    for (const m of maps) same(decode(encode(m)), m); // the last keys end the input (fewer than 16 bytes after them)
  });

  test('UTF-8 keys, and keys that agree with the guess in their first 8 or 16 bytes only', () => {
    const a = { lead: 1, 'clé-äöü': 2, '鍵': 3, '0123456789abcdefX': 4, '01234567Y': 5 };
    const b = { lead: 1, 'clé-äöü': 2, '鍵': 3, '0123456789abcdefZ': 4, '01234567Q': 5 };
    for (let i = 0; i < 4; i++) {
      same(decode(encode([a, b, a, b])), [a, b, a, b]);
      same(decode(encode(b)), b);
      same(decode(encode(a)), a);
    }
  });

  test('a failed call (its new keys and shapes rolled back) does not leave a guess that misleads the next', () => {
    const good = { first: 1, second: 2, third: 3 };
    same(decode(encode(good)), good);
    same(decode(encode(good)), good);
    // a message whose maps make new shapes after "first" (one repeated, so its slot trusts it),
    // then ends too soon
    const bad = encode([{ first: 1, other: 2, more: 3 }, { first: 1, other: 2, more: 3 }, { first: 1, again: 2, newer: 3 }, 'x'.repeat(40)]).slice(0, -5);
    let err = null;
    try {
      decode(bad);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DecodeError);
    expect(err.incomplete).toBe(true);
    // the rolled-back shapes' ids are taken again by other shapes
    const next = [{ first: 9, zz: 8, yy: 7 }, { first: 1, other: 2, more: 3 }, { first: 1, again: 2, newer: 3 }, good, good];
    same(decode(encode(next)), next);
    same(decode(encode(good)), good);
  });
});

describe('MessagePack maps decoded against a guessed shape', () => {
  test('nested maps at several depths, and maps whose keys are not all strings', () => {
    const inner = (i) => ({ kind: 'leaf', v: i, w: [i, { kind: 'deeper', v: -i - 1 }] });
    const doc = { kind: 'root', items: Array.from({ length: 50 }, (_, i) => ({ kind: 'item', v: i, child: inner(i) })) };
    same(unpack(pack(doc)), doc);
    // a map with a key that cannot be a property name (bytes) stays a Map between objects of the
    // same first key and size; one with an integer key is an object of that key coerced
    const bin = typeof Buffer === 'function' ? Buffer.from([2]) : new Uint8Array([2]);
    const m = new Map([['kind', 1], [bin, 'two']]);
    const back = unpack(pack([{ kind: 1, 2: 'x' }, m, { kind: 1, 2: 'y' }, m]));
    expect(back).toEqual([{ kind: 1, 2: 'x' }, m, { kind: 1, 2: 'y' }, m]);
    expect(back[1]).toBeInstanceOf(Map);
    expect([...back[3].keys()]).toEqual(['kind', bin]);
    const n = new Map([['kind', 1], [2, 'two']]);
    expect(unpack(pack([{ kind: 1, 2: 'x' }, n, { kind: 1, 2: 'y' }, n]))).toEqual([{ kind: 1, 2: 'x' }, { kind: 1, 2: 'two' }, { kind: 1, 2: 'y' }, { kind: 1, 2: 'two' }]);
  });

  test('a map whose first key is a bundled string (msgpackr bundleStrings) gets no guess from its second key', () => {
    // the guess for [x, w, y] would match this map's x and y at positions 1 and 2 if it were taken
    // at x: its first key (a bundled string, not compared) must rule the guess out
    const packr = new msgpackr.Packr({ bundleStrings: true, useRecords: false });
    const plain = { x: 1, w: 2, y: 3 };
    const bundled = { bundledFirstKey: 4, x: 5, y: 6 };
    for (let i = 0; i < 3; i++) {
      same(unpack(pack(plain)), plain);
      same(unpack(packr.pack(bundled)), bundled);
      same(unpack(packr.pack([plain, bundled, plain, bundled])), [plain, bundled, plain, bundled]);
    }
  });

  test('an Unpackr decoding Maps and one with useRecords: false give the same maps, which encode to the same bytes', () => {
    const maps = Array.from({ length: 20 }, (_, i) => obj(['id', `k${i % 3}`, 'z'], i));
    const bytes = pack(maps);
    const asMaps = new Unpackr({ mapsAsObjects: false }).unpack(bytes);
    expect(asMaps.map((m) => Object.fromEntries(m))).toEqual(maps);
    same(new Unpackr({ useRecords: false }).unpack(bytes), maps);
    expect(hex(pack(unpack(bytes)))).toBe(hex(bytes));
  });
});

describe('CBOR maps decoded against a guessed shape', () => {
  const encode = (v) => cborEncoder.encode(v);
  const indef = new CborEncoder({ useRecords: false, indefiniteLengths: true });

  test('indefinite maps with the keys of a guessed shape, and maps with integer or non-string keys', () => {
    const m = obj(['id', 'a', 'b'], 3);
    const same3 = [m, m, m];
    same(cborDecode(encode(same3)), same3);
    // the same keys in an indefinite map (no guess) and an indefinite map inside a definite one
    same(cborDecode(indef.encode(same3)), same3);
    same(cborDecodeMultiple(join([encode(m), indef.encode(m), encode(m), indef.encode({ id: m, a: 1, b: 2 })])), [m, m, m, { id: m, a: 1, b: 2 }]);
    // an integer key and a binary key where the guess's key is: Maps with those keys, in order
    const withInt = new Map([['id', 1], [7, 2], ['b', 3]]);
    const withBin = new Map([['id', 1], [new Uint8Array([97]), 2], ['b', 3]]);
    const back = cborDecode(encode([m, m, withInt, m, withBin, m]));
    expect(back[2]).toBeInstanceOf(Map);
    expect([...back[2]]).toEqual([['id', 1], [7, 2], ['b', 3]]);
    expect(back[4]).toBeInstanceOf(Map);
    expect([...back[4].keys()][1]).toEqual(new Uint8Array([97]));
    same([back[0], back[1], back[3], back[5]], [m, m, m, m]);
  });

  test('a Decoder that makes Maps and the objects decode agree, and re-encode to the same bytes', () => {
    const maps = Array.from({ length: 20 }, (_, i) => obj(['id', `k${i % 3}`, 'z'], i));
    const bytes = encode(maps);
    const asMaps = new CborDecoder({ mapsAsObjects: false }).decode(bytes);
    expect(asMaps.map((x) => Object.fromEntries(x))).toEqual(maps);
    same(cborDecode(bytes), maps);
    expect(hex(encode(cborDecode(bytes)))).toBe(hex(bytes));
  });
});
