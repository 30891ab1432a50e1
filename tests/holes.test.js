// Holes: a large input's long binaries are not copied into wasm memory for the decode (js/src/holes.js
// finds them, C checks each is a binary it skips: csrc/wirepack.h, wp_decoder.holes). Whatever the
// walk guesses, the values and the errors are those of a decode of every byte: here they are
// compared with decodes that copy every byte (the runtime's thresholds raised out of reach), and the
// memory where the holes lie is checked to be untouched when the walk found them.
import { afterEach, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { Packr, Unpackr, addExtension, pack, unpack, unpackMultiple } from 'wirepack';
import { Decoder, Encoder, decode, encode } from 'wirepack/cbor';
import { runtime } from '../js/src/runtime.js';
import { DecodeError } from '../js/src/errors.js';
import { HOLES_MAX, HOLE_INPUT_MIN, HOLE_MIN, findHoles } from '../js/src/holes.js';
import { canon } from './helpers/canon.js';

/** @param {number} n @param {number} seed */
function bytesOf(n, seed) {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed * 7 + (i >> 8)) & 255;
  return b;
}

/** @param {Uint8Array} a @param {Uint8Array} b */
function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const FORMATS = [
  { name: 'MessagePack', enc: (/** @type {any} */ v) => pack(v), dec: (/** @type {Uint8Array} */ b) => unpack(b) },
  { name: 'CBOR', enc: (/** @type {any} */ v) => encode(v), dec: (/** @type {Uint8Array} */ b) => decode(b) },
];

/** Run f with every input searched for holes of at least `min` bytes (or with none searched). */
function withHoles(/** @type {number} */ inputMin, /** @type {number} */ min, /** @type {() => any} */ f) {
  const rt = runtime();
  rt.holeInputMin = inputMin;
  rt.holeMin = min;
  try {
    return f();
  } finally {
    rt.holeInputMin = HOLE_INPUT_MIN;
    rt.holeMin = HOLE_MIN;
  }
}
const noHoles = (/** @type {() => any} */ f) => withHoles(Infinity, Infinity, f);
const allHoles = (/** @type {() => any} */ f) => withHoles(0, 1, f);

/**
 * A form of v that toEqual compares quickly: binaries and typed arrays as their type, length and
 * a hash of their bytes (canon spells bytes out, and walks a typed array's elements as keys); Sets
 * and objects of other classes as their class and entries; the rest as canon has it.
 * @param {any} v
 * @returns {any}
 */
function digest(v, seen = new Map()) {
  if (v === null || typeof v !== 'object') return canon(v);
  if (seen.has(v)) return { ref: seen.get(v) };
  seen.set(v, seen.size);
  if (ArrayBuffer.isView(v)) {
    const b = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    let h = 2166136261;
    for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i], 16777619);
    return { view: v instanceof Uint8Array ? 'Uint8Array' : v.constructor.name, n: b.length, h: h >>> 0 };
  }
  if (v instanceof Date) return canon(v);
  if (Array.isArray(v)) return v.map((x) => digest(x, seen));
  if (v instanceof Map) return { map: [...v].map(([k, x]) => [digest(k, seen), digest(x, seen)]) };
  if (v instanceof Set) return { set: [...v].map((x) => digest(x, seen)) };
  if (v instanceof Error) return { error: v.name, message: v.message };
  const proto = Object.getPrototypeOf(v);
  return { cls: proto === Object.prototype || proto === null ? '' : proto.constructor.name, obj: Object.keys(v).map((k) => [k, digest(v[k], seen)]) };
}

/** The result of f: its value or the error it threw (code, offset, incomplete). */
function outcome(/** @type {() => any} */ f) {
  try {
    return { value: digest(f()) };
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return { error: [e.code, e.offset, e.incomplete] };
  }
}

afterEach(() => {
  const rt = runtime();
  expect(rt.holeInputMin).toBe(HOLE_INPUT_MIN);
});

/** A large document: binaries of 20-100 KB in arrays, maps and records, among other values. */
function largeDoc() {
  const items = [];
  for (let i = 0; i < 12; i++) {
    items.push({ id: i, name: `item ${i}`, when: new Date(1.6e12 + i), data: bytesOf(20000 + i * 7000, i), small: bytesOf(i, i), tags: ['a', 'b'] });
  }
  return { kind: 'blobs', items, tail: [bytesOf(HOLE_MIN, 99), 'é€🍺', 1.5, -3] };
}

describe('large inputs: binaries left out of the copy', () => {
  for (const { name, enc, dec } of FORMATS) {
    test(`${name}: the same values, and the holes' memory untouched`, () => {
      const doc = largeDoc();
      const bytes = enc(doc);
      expect(bytes.length).toBeGreaterThan(HOLE_INPUT_MIN);
      const rt = runtime();
      // memory where the input goes, marked: what the decode copies replaces the mark
      expect(rt.reserve(bytes.length)).toBe(true);
      rt.u8.fill(0xee, rt.base, rt.base + bytes.length);
      const back = dec(bytes);
      const mem = runtime().u8, base = runtime().base;
      expect(runtime()).toBe(rt);
      // every binary of at least HOLE_MIN bytes was a hole (its memory still marked); the rest copied
      const found = new Uint32Array(2 * HOLES_MAX);
      const n = findHoles(bytes, name === 'CBOR', HOLE_MIN, found, 0);
      expect(n).toBe(13);
      for (let i = 0; i < n; i++) {
        const at = found[2 * i], len = found[2 * i + 1];
        expect(len).toBeGreaterThanOrEqual(HOLE_MIN);
        expect([mem[base + at], mem[base + at + (len >> 1)], mem[base + at + len - 1]]).toEqual([0xee, 0xee, 0xee]);
        expect(mem[base + at - 1]).toBe(bytes[at - 1]); // (the binary's head, copied)
        expect(mem[base + at + len]).toBe(bytes[at + len]);
      }
      for (const [i, item] of back.items.entries()) {
        expect(sameBytes(item.data, doc.items[i].data)).toBe(true);
        expect(sameBytes(item.small, doc.items[i].small)).toBe(true);
      }
      expect(sameBytes(back.tail[0], doc.tail[0])).toBe(true);
      expect(digest(back)).toEqual(digest(doc));
      // the bytes around the holes were copied: the first byte of the input is there
      expect(mem[base]).toBe(bytes[0]);
    });

    test(`${name}: the same values as a decode of every byte, binaries copied or as views`, () => {
      const bytes = enc(largeDoc());
      expect(digest(dec(bytes))).toEqual(digest(noHoles(() => dec(bytes))));
    });

    test(`${name}: a cut-short or padded input fails as a decode of every byte fails`, () => {
      const bytes = enc(largeDoc());
      for (const cut of [bytes.length - 1, bytes.length - 5, Math.floor(bytes.length * 0.7), 200000]) {
        const part = bytes.subarray(0, cut);
        const got = outcome(() => dec(part));
        expect(got.error).toBeDefined();
        expect(got).toEqual(noHoles(() => outcome(() => dec(part))));
      }
      const padded = new Uint8Array(bytes.length + 1);
      padded.set(bytes);
      expect(outcome(() => dec(padded))).toEqual(noHoles(() => outcome(() => dec(padded))));
      // and the next call works
      expect(digest(dec(bytes))).toEqual(digest(largeDoc()));
    });
  }

  test(`more than ${HOLES_MAX} binaries: the first ${HOLES_MAX} are holes, the rest copied`, () => {
    const v = Array.from({ length: HOLES_MAX + 40 }, (_, i) => bytesOf(HOLE_MIN + i, i));
    for (const { enc, dec } of FORMATS) {
      const back = dec(enc(v));
      expect(back.length).toBe(v.length);
      for (let i = 0; i < v.length; i++) expect(sameBytes(back[i], v[i])).toBe(true);
    }
  });

  test('copyBuffers: copies of the caller\'s bytes, never of the holes\' memory', () => {
    const doc = largeDoc();
    const bytes = pack(doc);
    const back = new Unpackr({ copyBuffers: true, mapsAsObjects: true }).unpack(bytes);
    for (const [i, item] of back.items.entries()) {
      expect(item.data.buffer).not.toBe(bytes.buffer);
      expect(sameBytes(item.data, doc.items[i].data)).toBe(true);
    }
  });
});

describe('what the walk cannot know: C decides, the values stay right', () => {
  test('MessagePack records, shared structures, bundled strings, prefix extensions, structured clone', () => {
    const doc = largeDoc();
    const structures = /** @type {any[]} */ ([]);
    const options = [
      { useRecords: true },
      { structures, useRecords: true },
      { bundleStrings: true },
      { structuredClone: true },
      { moreTypes: true },
    ];
    const shared = { blob: bytesOf(30000, 3) };
    const v = { ...doc, set: new Set([bytesOf(40000, 1), 'x']), again: shared, same: shared };
    for (const o of options) {
      const p = new Packr(o);
      const bytes = p.pack(o.structuredClone ? v : { ...v, set: [...v.set] });
      const u = new Unpackr(o);
      const got = outcome(() => u.unpack(bytes));
      expect(got.value).toBeDefined();
      expect(got).toEqual(noHoles(() => outcome(() => new Unpackr(o).unpack(bytes))));
    }
  });

  test('MessagePack extensions over long data: a user type\'s, typed arrays', () => {
    class Blob2 { constructor(/** @type {Uint8Array} */ b) { this.b = b; } }
    addExtension({ Class: Blob2, type: 0x31, pack: (/** @type {Blob2} */ x) => x.b, unpack: (/** @type {Uint8Array} */ b) => new Blob2(b.slice()) });
    const f64 = new Float64Array(10000).map((_, i) => i / 7);
    const v = [new Blob2(bytesOf(50000, 1)), bytesOf(50000, 2), new Blob2(bytesOf(300000, 3)), f64, new Date(5)];
    const bytes = new Packr({ moreTypes: true }).pack(v);
    // the extensions' data are holes too (msgpackr's typed arrays: type 0x74), the Date's not
    expect(findHoles(bytes, false, HOLE_MIN, new Uint32Array(2 * HOLES_MAX), 0)).toBe(4);
    const back = unpack(bytes);
    expect(sameBytes(back[0].b, v[0].b) && sameBytes(back[1], v[1]) && sameBytes(back[2].b, v[2].b)).toBe(true);
    expect(back[3]).toBeInstanceOf(Float64Array);
    expect(sameBytes(new Uint8Array(back[3].buffer, back[3].byteOffset, back[3].byteLength), new Uint8Array(f64.buffer))).toBe(true);
    expect(back[4]).toEqual(new Date(5));
  });

  test('CBOR records, packed values, bundles, typed arrays, indefinite byte strings, tags', () => {
    const doc = largeDoc();
    const v = {
      ...doc,
      f64: new Float64Array(5000).map((_, i) => i / 3),
      u8: bytesOf(70000, 4),
      big: 2n ** 70n,
      tagged: [bytesOf(20000, 5)],
    };
    for (const o of [{}, { useRecords: true }, { pack: true }, { bundleStrings: true }, { useRecords: true, bundleStrings: true }]) {
      const bytes = new Encoder(o).encode(v);
      const got = outcome(() => new Decoder(o).decode(bytes));
      expect(got.value).toBeDefined();
      expect(got).toEqual(noHoles(() => outcome(() => new Decoder(o).decode(bytes))));
    }
    // an indefinite byte string of long chunks (not holes), then a definite one (a hole)
    const chunk = bytesOf(HOLE_MIN, 6);
    const parts = [Uint8Array.of(0x82, 0x5f, 0x59, chunk.length >> 8, chunk.length & 255), chunk, Uint8Array.of(0x59, chunk.length >> 8, chunk.length & 255), chunk, Uint8Array.of(0xff, 0x5a, 0, 4, 0, 0), bytesOf(1 << 18, 7)];
    const ind = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (ind.set(p, at), at + p.length), 0);
    const back = decode(ind);
    expect(back[0].length).toBe(2 * chunk.length);
    expect(sameBytes(back[0].subarray(chunk.length), chunk)).toBe(true);
    expect(sameBytes(back[1], bytesOf(1 << 18, 7))).toBe(true);
  });

  test('holes the walk guessed wrong: C refuses them, the input is copied whole and decoded again', () => {
    const rt = runtime();
    const doc = { s: 'x'.repeat(50000), t: 'é'.repeat(30000), b: bytesOf(40000, 1), n: [1, 2, 3] };
    for (const { enc, dec } of FORMATS) {
      const bytes = enc(doc);
      const want = outcome(() => dec(bytes));
      /** @type {[number, number][][]} wrong guesses: inside a string, a binary and more, in reverse order */
      const guesses = [[[10, 1000]], [[bytes.length - 40003, 40003]], [[bytes.length - 20, 5], [20, 5]], [[0, 3]]];
      for (const guess of guesses) {
        rt.findHoles = (_b, _cbor, _min, out, at) => {
          guess.forEach(([o, n], i) => { out[at + 2 * i] = o; out[at + 2 * i + 1] = n; });
          return guess.length;
        };
        try {
          expect(rt.reserve(bytes.length)).toBe(true);
          rt.u8.fill(0xee, rt.base, rt.base + bytes.length);
          expect(withHoles(0, 1, () => outcome(() => dec(bytes)))).toEqual(want);
        } finally {
          rt.findHoles = findHoles;
        }
      }
    }
  });

  test('a sequence of values (unpackMultiple), one cut short at the end', () => {
    const one = pack(largeDoc());
    const two = new Uint8Array(2 * one.length - 3);
    two.set(one);
    two.set(one.subarray(0, one.length - 3), one.length);
    expect(outcome(() => unpackMultiple(two))).toEqual(noHoles(() => outcome(() => unpackMultiple(two))));
    const whole = new Uint8Array(2 * one.length);
    whole.set(one);
    whole.set(one, one.length);
    expect(digest(unpackMultiple(whole))).toEqual(digest([largeDoc(), largeDoc()]));
  });
});

describe('every binary a hole (small inputs too): the same outcome as a decode of every byte', () => {
  const leaf = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.double(), fc.string({ maxLength: 20 }),
    fc.uint8Array({ maxLength: 40 }), fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }));
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 8 }),
    object: fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 8, noNullPrototype: true }),
  }));

  for (const { name, enc, dec } of FORMATS) {
    test(`${name}: values`, () => {
      fc.assert(fc.property(value, (v) => {
        const bytes = enc(v);
        expect(allHoles(() => outcome(() => dec(bytes)))).toEqual(outcome(() => dec(bytes)));
      }), { numRuns: 300 });
    });

    test(`${name}: values with bytes changed (hostile)`, () => {
      fc.assert(fc.property(value, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), (v, edits) => {
        const bytes = enc(v).slice();
        for (const [at, b] of edits) bytes[at % bytes.length] = b;
        expect(allHoles(() => outcome(() => dec(bytes)))).toEqual(noHoles(() => outcome(() => dec(bytes))));
      }), { numRuns: 500 });
    });
  }
});
