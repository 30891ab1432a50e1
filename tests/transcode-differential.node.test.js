// Differential fuzzing of wirepack/transcode against JavaScript itself (Node only): the README
// says JSON input is read as JSON.parse reads it and written as pack()/encode() write its value,
// and JSON output is JSON.stringify(decode(x)). Seeded mutations check those claims on inputs
// nobody wrote by hand.
//
// JSON input: JSON texts (the fixtures, and generated ones with numbers, escapes, surrogates,
// `__proto__` and integer-like keys) with characters replaced, inserted, deleted, spliced or cut.
//   - JSON.parse of the text (made well-formed: a string input is read as TextEncoder's UTF-8)
//     accepts it exactly when transcode does, to MessagePack and to CBOR, from the string and from
//     its UTF-8 alike (the same bytes or the same error);
//   - accepted: decoding the result gives JSON.parse's value (escaped lone surrogates U+FFFD, -0
//     as 0 in MessagePack), the bytes are pack()'s / encode()'s of that value wherever its objects
//     keep the text's key order (no duplicate or integer-like keys), validate accepts it, and back
//     to JSON it is JSON.stringify of the value;
//   - rejected: a DecodeError with a code and an offset inside the input's UTF-8, the same for
//     both output formats and from validate, `incomplete` exactly for TRUNCATED;
//   - two accepted texts, a line each, read with `multiple` (NDJSON): their two values.
// Binary input: messages wirepack, msgpackr and cbor-x wrote (fixtures, generated values with
// 64-bit integers, binary, undefined, Dates; CBOR with indefinite lengths too), mutated as the
// decoder fuzz mutates them (tests/helpers/diff.js).
//   - JSON output that succeeds is JSON.stringify(decode(x)) (BigInts as their digits), and
//     decode(x) succeeds; with random output options too (indent, several values a line each,
//     bytes), against JSON.stringify(v, null, indent) of each decoded value;
//   - where decode(x) gives only JSON values, JSON output succeeds, or fails with NON_JSON at the
//     head of a binary, extension, tag or simple value, or of a key that is an array or map (judged
//     on the wire: a member a later duplicate key replaces counts too);
//   - MessagePack <-> CBOR that succeeds decodes to decode(x)'s value (-0 as 0 in MessagePack, as
//     pack() writes it), and decode(x) succeeds;
//   - find of a random path of decode(x)'s value (or one past it) gives the value there, where no
//     map on the way has two keys of one property name (find takes the first, decoding the last);
//   - validate agrees with that conversion (error and offset) where well-formedness decides (not
//     UNMAPPABLE, and not ill-formed UTF-8, which validate alone refuses), and what decode(x) reads
//     validates, unless it is ill-formed UTF-8, a malformed timestamp or an extension (msgpackr's
//     records and structured clone read the items after theirs, which plain MessagePack does not).
// Found on its first runs (December 2026): keys of ill-formed UTF-8 that decode to one name were
// written twice, MessagePack extension type 0 with data was NON_JSON / UNMAPPABLE where decode()
// reads it as undefined, and in Node, byte strings decoded as views were not Buffer.prototype
// objects while joined chunks were (node:assert told them apart: tests/api.node.test.js).
//
// TC_FUZZ_ITERATIONS=<n> mutations per part (default 10000), TC_FUZZ_SEED=<n> (default 0x7c0de).
import { describe, test, expect } from 'vitest';
import { isDeepStrictEqual } from 'node:util';
import * as msgpackr from 'msgpackr';
import * as cborx from 'cbor-x';
import { pack, unpack, unpackMultiple, Unpackr } from 'wirepack';
import { encode as cborEncode, decode as cborDecode, decodeMultiple as cborDecodeMultiple, Encoder as CborEncoder, Decoder as CborDecoder } from 'wirepack/cbor';
import { transcode, validate, find } from './helpers/transcode.js';
import { rng, hex, concat } from './helpers/bytes.js';
import { mutate } from './helpers/diff.js';
import small from '../bench/fixtures/sample-small.json?raw';
import medium from '../bench/fixtures/sample-medium.json?raw';
import datatypes from '../bench/fixtures/sample-datatypes.json?raw';
import numbers from '../bench/fixtures/numbers.json?raw';
import example4 from '../bench/fixtures/example4.json?raw';

const ITERATIONS = Number(process.env.TC_FUZZ_ITERATIONS ?? 10000);
const SEED = Number(process.env.TC_FUZZ_SEED ?? 0x7c0de);
const TIMEOUT = 30_000 + ITERATIONS * 2;
const FIXTURES = [small, medium, datatypes, numbers, example4];

/** Outcome of a call: its value, or its error. @template T @param {() => T} f */
function attempt(f) {
  try {
    return { ok: /** @type {const} */ (true), v: f(), e: /** @type {any} */ (null) };
  } catch (e) {
    return { ok: /** @type {const} */ (false), v: /** @type {T | undefined} */ (undefined), e: /** @type {any} */ (e) };
  }
}
/** @param {{ok: boolean, v?: any, e?: any}} r */
const sig = (r) => (r.ok ? (typeof r.v === 'string' ? r.v : hex(r.v)) : `${r.e.code}@${r.e.offset}`);

/** Failures by kind, each with its shortest input. */
class Failures {
  constructor() { /** @type {Map<string, {count: number, input: string, detail: string}>} */ this.kinds = new Map(); }
  /** @param {string} kind @param {string} input @param {unknown} detail */
  add(kind, input, detail) {
    const f = this.kinds.get(kind);
    const d = JSON.stringify(detail).slice(0, 400);
    if (!f) this.kinds.set(kind, { count: 1, input, detail: d });
    else {
      f.count++;
      if (input.length < f.input.length) { f.input = input; f.detail = d; }
    }
  }
  report() {
    return [...this.kinds].map(([k, f]) => `${k} (${f.count}x): ${f.input.slice(0, 300)} ${f.detail}`);
  }
}

/* ------------------------------------------------------------------ JSON input */

const NUMS = ['0', '-0', '1', '-1', '0.5', '1e400', '-1e400', '1e-400', '4294967295', '4294967296', '-2147483648', '-2147483649',
  '9007199254740993', '18446744073709551615', '18446744073709551616', '123456789012345678901234567890', '0.1',
  '2.2250738585072011e-308', '4.9e-324', '1.7976931348623157e308', '1E2', '1e+2', '1.5e-7', '3.0', '-0.0', '0e0', '1e21', '123e-20'];
const STRS = ['""', '"a"', '"\\u0000"', '"\\ud800"', '"\\udc00\\ud800"', '"\\ud83d\\ude00"', '"é日😀"', '"\\n\\t\\"\\\\\\/"', '"__proto__"',
  '"constructor"', '"1"', '"0"', '"-1"', '"4294967295"', '"01"', '"a\\u00e9b"'];
const ALPHABET = [...'[]{}:,"\\/ \t\n\r0123456789-+.eEtrufalsn', 'é', '日', '😀', '\u0000', '\u001f', '\u007f', '\u2028', '\ud800', '\udc00',
  '\ufeff', '\\u', '\\ud800', '0x'];

/** @param {() => number} rand */
function jsonTexts(rand) {
  const int = (/** @type {number} */ n) => Math.floor(rand() * n);
  /** @template T @param {T[]} xs */
  const pick = (xs) => xs[int(xs.length)];
  /** @param {number} d @returns {string} */
  const gen = (d) => {
    const r = rand();
    if (d > 4 || r < 0.3) return pick(NUMS);
    if (r < 0.45) return pick(STRS);
    if (r < 0.5) return pick(['true', 'false', 'null']);
    const n = int(5), xs = [];
    if (r < 0.75) {
      for (let i = 0; i < n; i++) xs.push(gen(d + 1));
      return '[' + xs.join(pick([',', ' , ', ',\n'])) + ']';
    }
    for (let i = 0; i < n; i++) xs.push(pick(STRS) + pick([':', ' : ']) + gen(d + 1));
    return '{' + xs.join(',') + '}';
  };
  /** @param {string} s */
  const mutateText = (s) => {
    for (let k = 1 + int(3); k > 0; k--) {
      const i = int(s.length + 1);
      switch (int(7)) {
        case 0: s = s.slice(0, i) + pick(ALPHABET) + s.slice(i + 1); break;
        case 1: s = s.slice(0, i) + pick(ALPHABET) + s.slice(i); break;
        case 2: s = s.slice(0, i) + s.slice(i + 1 + int(3)); break;
        case 3: s = s.slice(0, i); break;
        case 4: { const m = int(s.length + 1); s = s.slice(0, i) + s.slice(m, m + int(12)) + s.slice(i); break; }
        case 5: s = s.slice(0, i) + pick(NUMS) + s.slice(i); break;
        default: break;
      }
    }
    return s;
  };
  return () => {
    const base = rand() < 0.3 ? pick(FIXTURES) : gen(0);
    return rand() < 0.1 ? base : mutateText(base);
  };
}

/**
 * v with leaf() applied to every value that is no array, Map or plain object, and to every
 * property name (the containers copied; a `__proto__` key stays an own property).
 * @param {any} v @param {(x: any) => any} leaf @returns {any}
 */
function mapLeaves(v, leaf) {
  if (Array.isArray(v)) return v.map((x) => mapLeaves(x, leaf));
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [mapLeaves(k, leaf), mapLeaves(x, leaf)]));
  if (v !== null && typeof v === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(v))) {
    const o = Object.create(Object.getPrototypeOf(v));
    for (const k of Object.keys(v)) Object.defineProperty(o, leaf(k), { value: mapLeaves(v[k], leaf), enumerable: true, writable: true, configurable: true });
    return o;
  }
  return leaf(v);
}
/** JSON.parse's value as the encoders see it: strings well-formed (lone surrogates U+FFFD), and
 * without negZero -0 as 0 (MessagePack). */
const wellFormed = (/** @type {any} */ v, negZero = true) =>
  mapLeaves(v, (x) => (typeof x === 'string' ? x.toWellFormed() : !negZero && Object.is(x, -0) ? 0 : x));
/** -0 as 0, as pack() writes it. */
const noNegativeZero = (/** @type {any} */ v) => mapLeaves(v, (x) => (Object.is(x, -0) ? 0 : x));

/** Does JSON.parse reorder an object of this CBOR (duplicate or integer-like keys)? */
function reorders(/** @type {Uint8Array} */ cb) {
  let i = 0;
  const arg = (/** @type {number} */ ai) => {
    if (ai < 24) return ai;
    let x = 0;
    for (let k = 1 << (ai - 24); k > 0; k--) x = x * 256 + cb[i++];
    return x;
  };
  /** @returns {boolean} */
  const item = () => {
    const b = cb[i++], mt = b >> 5, ai = b & 31;
    if (mt === 7) { if (ai >= 25 && ai <= 27) i += 1 << (ai - 24); return false; }
    const n = arg(ai);
    if (mt === 2 || mt === 3) { i += n; return false; }
    let found = false;
    if (mt === 4) { for (let k = 0; k < n; k++) found = item() || found; }
    if (mt === 5) {
      const seen = new Set();
      for (let k = 0; k < n; k++) {
        const len = arg(cb[i++] & 31);
        const key = new TextDecoder().decode(cb.subarray(i, i + len));
        i += len;
        if ((/^(0|[1-9][0-9]*)$/.test(key) && Number(key) < 4294967295) || seen.has(key)) found = true;
        seen.add(key);
        found = item() || found;
      }
    }
    return found;
  };
  return item();
}

function fuzzJson() {
  const rand = rng(SEED);
  const next = jsonTexts(rand);
  const failures = new Failures();
  const counts = { accepted: 0, rejected: 0 };
  for (let it = 0; it < ITERATIONS; it++) {
    const text = next();
    const bytes = new TextEncoder().encode(text);
    const ref = attempt(() => JSON.parse(text.toWellFormed()));
    const mp = attempt(() => /** @type {Uint8Array} */ (transcode(text, { from: 'json', to: 'msgpack' })));
    const mpBytes = attempt(() => /** @type {Uint8Array} */ (transcode(bytes, { from: 'json', to: 'msgpack' })));
    const cb = attempt(() => /** @type {Uint8Array} */ (transcode(text, { from: 'json', to: 'cbor' })));
    const val = validate(text, { format: 'json' });
    const add = (/** @type {string} */ kind, /** @type {unknown} */ detail) => failures.add(kind, JSON.stringify(text), detail);
    if (sig(mp) !== sig(mpBytes)) add('string and UTF-8 differ', [sig(mp), sig(mpBytes)]);
    if (!ref.ok) {
      counts.rejected++;
      if (mp.ok || cb.ok) { add('accepted what JSON.parse rejects', [sig(mp), sig(cb)]); continue; }
      if (typeof mp.e.code !== 'string' || !(mp.e.offset >= 0 && mp.e.offset <= bytes.length)) add('error without code or offset inside', String(mp.e));
      if (sig(mp) !== sig(cb)) add('MessagePack and CBOR errors differ', [sig(mp), sig(cb)]);
      if (val.valid || `${val.error.code}@${val.error.offset}` !== sig(mp)) add('validate differs', [val.valid || sig({ ok: false, e: val.error }), sig(mp)]);
      if ((mp.e.code === 'TRUNCATED') !== (mp.e.incomplete === true)) add('incomplete without TRUNCATED or the reverse', sig(mp));
      continue;
    }
    counts.accepted++;
    if (!mp.ok || !cb.ok) { add('rejected what JSON.parse accepts', [sig(mp), sig(cb)]); continue; }
    if (!val.valid) add('validate rejects what JSON.parse accepts', sig({ ok: false, e: val.error }));
    if (!isDeepStrictEqual(unpack(mp.v), wellFormed(ref.v, false))) add('MessagePack value', hex(mp.v));
    if (!isDeepStrictEqual(cborDecode(cb.v), wellFormed(ref.v))) add('CBOR value', hex(cb.v));
    if (!reorders(cb.v)) {
      if (hex(mp.v) !== hex(pack(ref.v))) add('MessagePack bytes are not pack(JSON.parse(text))', [hex(mp.v), hex(pack(ref.v))]);
      if (hex(cb.v) !== hex(cborEncode(ref.v))) add('CBOR bytes are not encode(JSON.parse(text))', [hex(cb.v), hex(cborEncode(ref.v))]);
    }
    const want = JSON.stringify(wellFormed(ref.v));
    for (const [from, b] of /** @type {const} */ ([['msgpack', mp.v], ['cbor', cb.v]])) {
      const back = attempt(() => transcode(b, { from, to: 'json' }));
      if (back.ok ? back.v !== want : want !== undefined) add(`${from} back to JSON is not JSON.stringify`, [sig(back), want]);
    }
    // several texts, a line each (NDJSON), where JSON.parse accepts each: their values in turn
    if (rand() < 0.2) {
      const more = next();
      const second = attempt(() => JSON.parse(more.toWellFormed()));
      if (second.ok) {
        const lines = text + '\n' + more;
        const many = attempt(() => unpackMultiple(/** @type {Uint8Array} */ (transcode(lines, { from: 'json', to: 'msgpack', multiple: true }))));
        if (!many.ok || !isDeepStrictEqual(many.v, [wellFormed(ref.v, false), wellFormed(second.v, false)])) failures.add('NDJSON values', JSON.stringify(lines), sig(many));
      }
    }
  }
  return { counts, failures };
}

/* ------------------------------------------------------------------ binary input */

const SCALARS = [0, -0, 1, -1, 0.5, 255, 256, 65535, 65536, -32, -33, -128, -129, 2 ** 31, -(2 ** 31), 2 ** 32, 2 ** 53, -(2 ** 53), 1e300,
  NaN, Infinity, -Infinity, 2n ** 63n, 2n ** 64n - 1n, -(2n ** 63n), 'a', '', 'é日😀', 'x'.repeat(40), '1', '__proto__', true, false, null,
  undefined, new Uint8Array([1, 2]), new Date(0)];
const KEYS = ['a', 'b', '1', '0', '-1', 'x y', '__proto__', 'é'];

/** @param {'msgpack' | 'cbor'} format */
function binaryCorpus(format) {
  const rand = rng(SEED ^ (format === 'msgpack' ? 0x3333 : 0x4444));
  const int = (/** @type {number} */ n) => Math.floor(rand() * n);
  /** @param {number} d @returns {unknown} */
  const gen = (d) => {
    const r = rand();
    if (d > 3 || r < 0.45) return SCALARS[int(SCALARS.length)];
    if (r < 0.7) return Array.from({ length: int(5) }, () => gen(d + 1));
    /** @type {Record<string, unknown>} */
    const o = {};
    for (let i = int(5); i > 0; i--) Object.defineProperty(o, KEYS[int(KEYS.length)], { value: gen(d + 1), enumerable: true, writable: true, configurable: true });
    return o;
  };
  const mpr = new msgpackr.Packr({ useRecords: false });
  const cx = new cborx.Encoder({ useRecords: false });
  const indefinite = new CborEncoder({ indefiniteLengths: true });
  /** @type {Uint8Array[]} */
  const out = FIXTURES.map((t) => (format === 'msgpack' ? pack(JSON.parse(t)) : cborEncode(JSON.parse(t))));
  for (let i = 0; i < 300; i++) {
    const v = gen(0);
    if (format === 'msgpack') out.push(rand() < 0.5 ? pack(v) : mpr.pack(v));
    else out.push(rand() < 0.4 ? cborEncode(v) : rand() < 0.5 ? cx.encode(v) : indefinite.encode(v));
  }
  return out;
}

const BIG = '\u0000big:';
/** JSON.stringify with BigInts as their digits (as transcode writes 64-bit integers). */
function stringify(/** @type {unknown} */ v, /** @type {number} */ indent = 0) {
  const s = JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? BIG + x + BIG : x), indent || undefined);
  return s === undefined ? s : s.replace(/"\\u0000big:(-?\d+)\\u0000big:"/g, '$1');
}
/** Only values JSON has (and BigInts; undefined below the top)? */
function jsonOnly(/** @type {unknown} */ v, top = true) {
  if (v === undefined) return !top;
  if (v === null || ['boolean', 'number', 'string', 'bigint'].includes(typeof v)) return true;
  if (Array.isArray(v)) return v.every((x) => jsonOnly(x, false));
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const o = /** @type {Record<string, unknown>} */ (v);
    return Object.keys(o).every((k) => jsonOnly(o[k], false));
  }
  return false;
}
/** Is the byte a head JSON has no form for (binary, extension, tag, simple value), or one of an
 * array or map (which JSON has, but not as a key)? */
function nonJsonHead(/** @type {'msgpack' | 'cbor'} */ format, /** @type {number} */ b) {
  if (format === 'msgpack') return (b >= 0xc4 && b <= 0xc9) || (b >= 0xd4 && b <= 0xd8) || (b >= 0x80 && b <= 0x9f) || (b >= 0xdc && b <= 0xdf);
  const major = b >> 5;
  return major === 2 || major === 4 || major === 5 || major === 6 || (major === 7 && !(b >= 0xf4 && b <= 0xf7) && !(b >= 0xf9 && b <= 0xfb));
}
/** Decoders that keep maps as Maps with their keys' own types (to count a map's distinct keys). */
const TYPED = { msgpack: new Unpackr({ mapsAsObjects: false, useRecords: false }), cbor: new CborDecoder({ mapsAsObjects: false, useRecords: false }) };
/** A map's entry count from its head (MessagePack; CBOR definite), or -1 (CBOR indefinite). */
function mapCount(/** @type {'msgpack' | 'cbor'} */ format, /** @type {Uint8Array} */ b) {
  const h = b[0];
  const be = (/** @type {number} */ n) => { let x = 0; for (let i = 1; i <= n; i++) x = x * 256 + b[i]; return x; };
  if (format === 'msgpack') return h <= 0x8f ? h & 15 : h === 0xde ? be(2) : be(4);
  const ai = h & 31;
  return ai < 24 ? ai : ai === 31 ? -1 : be(1 << (ai - 24));
}
/**
 * A path into v (property names and array indices, through plain objects and arrays), the value
 * there, and whether a map on the way has two keys of one property name (where find takes the
 * first and decoding keeps the last, as README says), told from the map's wire count.
 * @param {'msgpack' | 'cbor'} format @param {Uint8Array} bytes @param {unknown} v @param {() => number} rand
 */
function randomPath(format, bytes, v, rand) {
  /** @type {(string | number)[]} */
  const path = [];
  let cur = v;
  while (cur !== null && typeof cur === 'object' && rand() < 0.8) {
    const isArray = Array.isArray(cur);
    if (!isArray && Object.getPrototypeOf(cur) !== Object.prototype) break;
    const o = /** @type {Record<string, unknown>} */ (cur);
    const keys = Object.keys(o);
    if (keys.length === 0) break;
    if (!isArray) {
      const range = /** @type {[number, number]} */ (find(bytes, path, { format, range: true }));
      const map = bytes.subarray(range[0], range[1]);
      const typed = /** @type {Map<unknown, unknown>} */ (TYPED[format].decode(map));
      const names = new Set([...typed.keys()].map((k) => String(k)));
      // (past such a map find's path leads elsewhere than decoding's: the walk stops there)
      if (mapCount(format, map) !== names.size) return { path, value: cur, duplicate: true };
    }
    const k = keys[Math.floor(rand() * keys.length)];
    if (rand() < 0.05) { path.push(isArray ? keys.length : 'absent'); return { path, value: undefined, duplicate: false }; }
    path.push(isArray ? Number(k) : k);
    cur = o[k];
  }
  return { path, value: cur, duplicate: false };
}
/** Ways decoding refuses what is well-formed MessagePack or CBOR (what extensions and tags mean). */
const MEANING = ['BAD_TIMESTAMP', 'BAD_RECORD', 'UNKNOWN_RECORD', 'BAD_BUNDLE', 'BAD_EXTENSION', 'BAD_REFERENCE', 'BAD_TAG'];

/** @param {'msgpack' | 'cbor'} format */
function fuzzBinary(format) {
  const rand = rng(SEED ^ (format === 'msgpack' ? 0x1357 : 0x2468));
  const corpus = binaryCorpus(format);
  const decode = format === 'msgpack' ? unpack : cborDecode;
  const decodeMultiple = format === 'msgpack' ? unpackMultiple : cborDecodeMultiple;
  const other = format === 'msgpack' ? 'cbor' : 'msgpack';
  const decodeOther = format === 'msgpack' ? cborDecode : unpack;
  const failures = new Failures();
  const counts = { decoded: 0, json: 0, [other]: 0, find: 0 };
  for (let it = 0; it < ITERATIONS; it++) {
    const src = corpus[Math.floor(rand() * corpus.length)];
    const bytes = rand() < 0.05 ? src : Uint8Array.from(mutate(src, rand, format, corpus).bytes);
    const add = (/** @type {string} */ kind, /** @type {unknown} */ detail) => failures.add(kind, hex(bytes), detail);
    const d = attempt(() => decode(bytes));
    const j = attempt(() => /** @type {string} */ (transcode(bytes, { from: format, to: 'json' })));
    const o = attempt(() => /** @type {Uint8Array} */ (transcode(bytes, { from: format, to: other })));
    const val = validate(bytes, { format });
    if (d.ok) counts.decoded++;
    if (j.ok) counts.json++;
    if (o.ok) counts[other]++;
    for (const r of [j, o]) {
      if (!r.ok && (typeof r.e.code !== 'string' || !(r.e.offset >= 0 && r.e.offset <= bytes.length))) add('error without code or offset inside', String(r.e));
    }
    if (j.ok) {
      if (!d.ok) add('JSON written where decode() throws', [j.v, sig(d)]);
      else if (j.v !== stringify(d.v)) add('JSON is not JSON.stringify(decode(x))', [j.v, stringify(d.v)]);
    } else if (d.ok && jsonOnly(d.v) && !(j.e.code === 'NON_JSON' && nonJsonHead(format, bytes[j.e.offset]))) {
      add('no JSON for a value JSON has', sig(j));
    }
    if (o.ok) {
      const back = attempt(() => decodeOther(o.v));
      if (!d.ok) add(`${other} written where decode() throws`, [hex(o.v), sig(d)]);
      else if (!back.ok) add(`${other} output does not decode`, [hex(o.v), sig(back)]);
      else if (!isDeepStrictEqual(back.v, other === 'msgpack' ? noNegativeZero(d.v) : d.v)) add(`${other} output decodes to another value`, hex(o.v));
    }
    if (!o.ok && o.e.code !== 'UNMAPPABLE' && o.e.code !== 'BAD_UTF8' && !(!val.valid && val.error.code === 'BAD_UTF8')) {
      if (val.valid || `${val.error.code}@${val.error.offset}` !== sig(o)) add('validate differs from the conversion', [val.valid || sig({ ok: false, e: val.error }), sig(o)]);
    }
    const extension = !o.ok && o.e.code === 'UNMAPPABLE';
    if (d.ok && !val.valid && !['BAD_UTF8', 'BAD_TIMESTAMP'].includes(val.error.code) && !extension) add('decodes but does not validate', sig({ ok: false, e: val.error }));
    if (!d.ok && val.valid && !extension && !MEANING.includes(d.e.code)) add('validates but does not decode', sig(d));
    // find: the value at a path of the decoded value (messages with no extension or tag)
    if (d.ok && o.ok) {
      const { path, value, duplicate } = randomPath(format, bytes, d.v, rand);
      const found = attempt(() => find(bytes, path, { format }));
      counts.find++;
      if (!found.ok) add('find throws', [path, sig(found)]);
      else if (!duplicate && !isDeepStrictEqual(found.v, value)) add('find is not the decoded value at its path', [path, String(found.v), String(value)]);
    }
    // the output options: indentation, several values (one a line), bytes instead of a string
    const indent = Math.floor(rand() * 4) === 0 ? Math.floor(rand() * 11) : 0;
    const several = rand() < 0.25;
    const input = several ? concat(bytes, corpus[Math.floor(rand() * corpus.length)]) : bytes;
    const ds = attempt(() => (several ? decodeMultiple(input) : [decode(input)]));
    const js = attempt(() => transcode(input, { from: format, to: 'json', indent, multiple: several, as: rand() < 0.5 ? 'bytes' : 'string' }));
    const addWith = (/** @type {string} */ kind, /** @type {unknown} */ detail) => failures.add(kind, hex(input), detail);
    if (js.ok && ds.ok) {
      const text = typeof js.v === 'string' ? js.v : new TextDecoder().decode(js.v);
      const want = ds.v.map((x) => stringify(x, indent) + (several ? '\n' : '')).join('');
      if (text !== want) addWith('JSON with options is not JSON.stringify(decode(x), null, indent)', [indent, several, text.slice(0, 200), want.slice(0, 200)]);
    } else if (js.ok) addWith('JSON with options written where decode() throws', [indent, several, sig(ds)]);
    else if (!ds.ok) {
      // (both refuse; one value alone fails as above)
    } else if (ds.v.every((x) => jsonOnly(x)) && !(js.e.code === 'NON_JSON' && nonJsonHead(format, input[js.e.offset]))) {
      addWith('no JSON with options for values JSON has', [indent, several, sig(js)]);
    }
  }
  return { counts, failures };
}

describe('wirepack/transcode against JSON.parse, JSON.stringify and the decoders', () => {
  test('JSON input: accepted as JSON.parse accepts it, written as pack()/encode() write its value', { timeout: TIMEOUT }, () => {
    const { counts, failures } = fuzzJson();
    console.log(`transcode fuzz, JSON input (seed ${SEED}, ${ITERATIONS} texts): ${JSON.stringify(counts)}`);
    expect(failures.report()).toEqual([]);
    // the mutations reach both sides
    expect(Math.min(counts.accepted, counts.rejected)).toBeGreaterThan(ITERATIONS / 10);
  });
  test.each(/** @type {const} */ (['msgpack', 'cbor']))('%s input: JSON output is JSON.stringify(decode(x)); the other format decodes alike; validate agrees', { timeout: TIMEOUT }, (format) => {
    const { counts, failures } = fuzzBinary(format);
    console.log(`transcode fuzz, ${format} input (seed ${SEED}, ${ITERATIONS} messages): ${JSON.stringify(counts)}`);
    expect(failures.report()).toEqual([]);
    expect(counts.json).toBeGreaterThan(ITERATIONS / 10);
    expect(counts.decoded).toBeLessThan(ITERATIONS * 0.9);
  });
});

