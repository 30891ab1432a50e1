// @ts-check
/**
 * wirepack/transcode: MessagePack, CBOR and JSON text converted into one another in C, on the
 * bytes (no JavaScript values are built); validate and find without decoding. The C code is a
 * wasm module of its own (build/wirepack-transcode.wasm, csrc/transcode/), loaded by the entry
 * files transcode.node.js / transcode.browser.js; the main codec only serves find() when it
 * returns a decoded value.
 */
import { DecodeError } from './errors.js';
import { tcRuntime as runtime, releaseTranscodeMemory } from './transcode-runtime.js';
import { unpack, unpackMultiple } from './api.js';
import { decode as cborDecode, decodeMultiple as cborDecodeMultiple } from './cbor.js';

/** @typedef {'msgpack' | 'cbor' | 'json'} Format */

/**
 * @typedef {object} TranscodeOptions
 * @property {Format} from input format
 * @property {Format} to output format
 * @property {boolean} [multiple] a stream of values: concatenated MessagePack/CBOR, or JSON
 *   values separated by whitespace (NDJSON); the output is the concatenation
 * @property {boolean} [lines] JSON output: a newline after every value (NDJSON; default: with `multiple`)
 * @property {number | string} [indent] JSON output: spaces per level (as JSON.stringify's third
 *   argument: a number up to 10, or a string of spaces)
 * @property {boolean} [diag] JSON output as diagnostic notation (RFC 8949 section 8): for CBOR
 *   the text wirepack/cbor's `diagnose()` gives (`h'..'`, tags, `[_ ..]`, `1.0`, `undefined`);
 *   MessagePack extensions as `ext(T, h'..')`
 * @property {'string' | 'bytes'} [as] JSON output as a string (default) or UTF-8 bytes
 * @property {boolean} [wireOrder] JSON output: map keys in wire order, duplicates kept (faster
 *   for maps JSON.stringify(decode(x)) would reorder; see README)
 * @property {number} [maxDepth] nesting limit (default 1000)
 */

/** @type {Record<string, number>} */
const FORMATS = { msgpack: 0, cbor: 1, json: 2 };
const F_MULTIPLE = 1, F_LINES = 2, F_DIAG = 4, F_WIRE_ORDER = 16, F_UTF16_IN = 0x100, F_STRING_OUT = 0x200;

/** @param {unknown} f @param {string} what @returns {number} */
function formatId(f, what) {
  const id = typeof f === 'string' ? FORMATS[f] : undefined;
  if (id === undefined) throw new TypeError(`wirepack/transcode: ${what} must be 'msgpack', 'cbor' or 'json'`);
  return id;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const utf16Decoder = new TextDecoder('utf-16le');

/** @param {number | string | undefined} indent */
function indentOf(indent) {
  if (indent === undefined) return 0;
  if (typeof indent === 'number') return Math.max(0, Math.min(10, Math.floor(indent)));
  if (typeof indent === 'string' && /^ {0,10}$/.test(indent)) return indent.length;
  throw new TypeError('wirepack/transcode: indent must be a number or a string of spaces');
}

/**
 * Convert between MessagePack, CBOR and JSON text, entirely in C.
 *
 * JSON output is byte for byte `JSON.stringify(decode(input))` for JSON-representable data;
 * see README "Transcoding" for the policy on values JSON cannot hold (NaN and Infinity are
 * null, undefined members are left out, binary/extensions/tags throw NON_JSON, 64-bit integers
 * keep their exact digits). JSON input is strict RFC 8259 with correctly rounded numbers.
 *
 * @param {Uint8Array | string} input bytes (or, for JSON input, a string: error offsets then
 *   count its UTF-8 bytes)
 * @param {TranscodeOptions} options
 * @returns {Uint8Array | string} a string for JSON output unless `as: 'bytes'`
 */
export function transcode(input, options) {
  if (options === null || typeof options !== 'object') throw new TypeError('wirepack/transcode: transcode(input, {from, to}) needs options');
  const from = formatId(options.from, 'from');
  const to = formatId(options.to, 'to');
  if (from === 2 && to === 2) {
    // JSON -> JSON (re-indent, validate, normalise numbers): through MessagePack
    const mp = /** @type {Uint8Array} */ (transcode(input, { from: 'json', to: 'msgpack', multiple: options.multiple, maxDepth: options.maxDepth }));
    return transcode(mp, { ...options, from: 'msgpack' });
  }
  const r = runtime();
  let flags = 0;
  let len;
  if (typeof input === 'string') {
    // a string goes in as UTF-16 (a copy, no encoding in JavaScript); C makes it UTF-8
    len = input.length;
    r.reserve(len * 5 + 16);
    if (r.nb !== null) r.nb.ucs2Write(input, r.base, 2 * len);
    else {
      const u16 = new Uint16Array(r.x.memory.buffer, r.base, len);
      for (let i = 0; i < len; i++) u16[i] = input.charCodeAt(i);
    }
    flags |= F_UTF16_IN;
  } else {
    len = r.put(input, 0);
  }
  const wantString = to === 2 && options.as !== 'bytes';
  if (wantString) flags |= F_STRING_OUT;
  if (options.multiple) flags |= F_MULTIPLE;
  if (options.lines ?? options.multiple) flags |= F_LINES;
  if (options.diag) flags |= F_DIAG;
  if (options.wireOrder) flags |= F_WIRE_ORDER;
  const indent = indentOf(options.indent);
  const maxDepth = options.maxDepth ?? 0;
  let outCap = 0;
  let code;
  for (;;) {
    code = r.x.tcw_transcode(len, from, to, to === 2 ? flags : flags & (F_MULTIPLE | F_UTF16_IN), indent, maxDepth, outCap);
    r.refresh();
    // indentation can outgrow the bound: retry with more room
    if (code === 301 && indent > 0 && outCap < 0x7fffffff) {
      outCap = Math.min(0x7fffffff, Math.max(outCap * 4, len * 64 + 65536));
      continue;
    }
    break;
  }
  const R = r.u32, res = r.res;
  if (code === 403 && typeof input !== 'string') {
    // a map whose decoded object JSON.stringify writes in another order (integer-like keys
    // first) or with fewer members (duplicate keys): check the rest in C with wire order (same
    // errors as ever), then let JSON.stringify of the decoded value write it
    transcode(input, { ...options, wireOrder: true });
    const exact = stringifyDecoded(input, from, options, indent);
    return options.as === 'bytes' ? encoder.encode(exact) : exact;
  }
  if (code !== 0) {
    const e = r.error(code, R[res + 3]);
    releaseTranscodeMemory(r, r.u8.length);
    throw e;
  }
  const start = R[res], end = start + R[res + 1];
  /** @type {Uint8Array | string} */
  let out;
  let written = end;
  if (wantString) {
    // ASCII output: latin1; else C left a UTF-16 copy (both much faster than UTF-8 decoding),
    // unless memory had no room for one (u16 1)
    const u16 = R[res + 6], units = R[res + 7];
    if (u16 > 1) written = u16 + 2 * units;
    if (r.nb !== null) {
      const nb = r.nb;
      out = u16 === 0 ? nb.latin1Slice(start, end) : u16 === 1 ? nb.utf8Slice(start, end) : nb.ucs2Slice(u16, u16 + 2 * units);
    } else {
      out = u16 > 1 ? utf16Decoder.decode(r.u8.subarray(u16, u16 + 2 * units)) : decoder.decode(r.u8.subarray(start, end));
    }
  } else {
    out = r.u8.slice(start, end);
  }
  releaseTranscodeMemory(r, written);
  return out;
}

/**
 * JSON.stringify of the decoded value(s), as `transcode` writes them (64-bit integers, which
 * decode to BigInts, as their digits).
 * @param {Uint8Array} input @param {number} from @param {TranscodeOptions} options @param {number} indent
 * @returns {string}
 */
function stringifyDecoded(input, from, options, indent) {
  /** @type {unknown[]} */
  let values;
  if (options.multiple) values = /** @type {unknown[]} */ (from === 0 ? unpackMultiple(input) : cborDecodeMultiple(input));
  else values = [from === 0 ? unpack(input) : cborDecode(input)];
  const lines = options.lines ?? options.multiple;
  let out = '';
  for (const v of values) out += stringifyExact(v, indent) + (lines ? '\n' : '');
  return out;
}

/**
 * JSON.stringify(v, null, indent), and BigInts (which it refuses) as their digits, as C writes
 * them. For what decode() returns once C has found it JSON-representable: null, booleans,
 * numbers, BigInts, strings, arrays and plain objects.
 * @param {unknown} v @param {number} indent
 * @returns {string}
 */
function stringifyExact(v, indent) {
  try {
    return /** @type {string} */ (JSON.stringify(v, null, indent || undefined));
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
  }
  const gap = ' '.repeat(indent);
  /** @param {unknown} x @param {string} at indentation of x's line @returns {string | undefined} */
  const write = (x, at) => {
    if (x === null) return 'null';
    switch (typeof x) {
      case 'bigint': return String(x);
      case 'number': return Number.isFinite(x) ? String(x) : 'null';
      case 'string': case 'boolean': return JSON.stringify(x);
      case 'object': break;
      default: return undefined; // undefined: left out of objects, null in arrays
    }
    const inner = at + gap;
    const open = gap ? '\n' + inner : '', sep = gap ? ',\n' + inner : ',', close = gap ? '\n' + at : '';
    /** @type {string[]} */
    const parts = [];
    if (Array.isArray(x)) {
      for (const item of x) parts.push(write(item, inner) ?? 'null');
      return parts.length ? '[' + open + parts.join(sep) + close + ']' : '[]';
    }
    const o = /** @type {Record<string, unknown>} */ (x);
    for (const k of Object.keys(o)) {
      const s = write(o[k], inner);
      if (s !== undefined) parts.push(JSON.stringify(k) + (gap ? ': ' : ':') + s);
    }
    return parts.length ? '{' + open + parts.join(sep) + close + '}' : '{}';
  };
  return /** @type {string} */ (write(v, ''));
}

/**
 * @typedef {object} ValidateOptions
 * @property {Format} format
 * @property {boolean} [multiple] a stream of values (see transcode)
 * @property {number} [maxDepth]
 */

/**
 * Is the input well-formed, within the depth limit, with valid UTF-8 strings? Nothing is built.
 * @param {Uint8Array | string} input
 * @param {ValidateOptions} options
 * @returns {{valid: true} | {valid: false, error: DecodeError}}
 */
export function validate(input, options) {
  const format = formatId(options && options.format, 'format');
  const r = runtime();
  const len = r.put(input, 0);
  const code = r.x.tcw_validate(len, format, options.multiple ? F_MULTIPLE : 0, options.maxDepth ?? 0);
  r.refresh();
  /** @type {{valid: true} | {valid: false, error: DecodeError}} */
  const result = code === 0 ? { valid: true } : { valid: false, error: r.error(code, r.u32[r.res + 3]) };
  // (its scratch, after the input, holds the frames of the values open at once)
  releaseTranscodeMemory(r, r.base + len);
  return result;
}

/** @typedef {(string | number)[] | string} Path a list of keys and indexes, or a JSON Pointer ('/a/0/b') */

/**
 * @typedef {object} FindOptions
 * @property {Format} [format] default 'msgpack'
 * @property {boolean} [range] return the value's byte range [start, end) instead of the value
 */

/** @param {Path} path @returns {(string | number)[]} */
function steps(path) {
  if (Array.isArray(path)) return path;
  if (typeof path !== 'string') throw new TypeError('wirepack/transcode: a path is an array of keys and indexes, or a JSON Pointer');
  if (path === '') return [];
  if (path[0] !== '/') throw new TypeError('wirepack/transcode: a JSON Pointer starts with /');
  return path.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * The byte range [start, end) of the value at `path`, or null when there is none, and the
 * runtime whose arena holds the input (the caller releases it: releaseTranscodeMemory).
 * @param {Uint8Array | string} input @param {Path} path @param {number} format
 * @returns {{r: import('./transcode-runtime.js').TcRuntime, range: [number, number] | null}}
 */
function findRange(input, path, format) {
  const list = steps(path);
  const r = runtime();
  /** @type {(number | Uint8Array)[]} */
  const enc = [];
  let words = 0;
  for (const s of list) {
    if (typeof s === 'number') {
      if (!Number.isInteger(s) || s < 0 || s >= 0xffffffff) throw new TypeError('wirepack/transcode: an index must be an integer >= 0');
      enc.push(s);
      words += 1;
    } else {
      const b = encoder.encode(String(s));
      enc.push(b);
      words += 2 + ((b.length + 3) >> 2);
    }
  }
  let len = typeof input === 'string' ? input.length * 3 : input.length;
  r.reserve(len + 8 + words * 4);
  len = r.put(input, words * 4 + 8);
  let w = ((r.base + len + 3) & ~3) >> 2;
  for (const e of enc) {
    if (typeof e === 'number') r.u32[w++] = e;
    else {
      r.u32[w++] = 0xffffffff;
      r.u32[w++] = e.length;
      r.u8.set(e, w * 4);
      w += (e.length + 3) >> 2;
    }
  }
  const code = r.x.tcw_find(len, format, words, list.length);
  r.refresh();
  if (code === 401 || code === 0) return { r, range: code === 0 ? [r.u32[r.res + 6], r.u32[r.res + 7]] : null };
  const e = r.error(code, r.u32[r.res + 3]);
  releaseTranscodeMemory(r, r.base + len);
  throw e;
}

/**
 * The value at `path` (keys and indexes, or a JSON Pointer), found by skipping over everything
 * else: only that value is decoded. undefined when the path leads nowhere; with `range: true`,
 * its byte range [start, end) in the input (in UTF-8 bytes for a string input), or null.
 * Map keys match by the property name decoding gives them (the key 1 by `1` or `'1'`, null by
 * `'null'`); a duplicate key: the first one.
 * @param {Uint8Array | string} input
 * @param {Path} path
 * @param {FindOptions} [options]
 * @returns {unknown}
 */
export function find(input, path, options = {}) {
  const format = formatId(options.format ?? 'msgpack', 'format');
  const { r, range } = findRange(input, path, format);
  const slice = range === null || options.range ? null : r.u8.slice(r.base + range[0], r.base + range[1]);
  releaseTranscodeMemory(r, r.base + (typeof input === 'string' ? 3 * input.length : input.length));
  if (options.range) return range;
  if (slice === null) return undefined;
  if (format === 0) return unpack(slice);
  if (format === 1) return cborDecode(slice);
  return JSON.parse(decoder.decode(slice));
}

/**
 * json-pack style: the value under `key` of the map at the top of the input (or at `path`).
 * @param {Uint8Array | string} input @param {string} key @param {FindOptions & {path?: Path}} [options]
 */
export function findKey(input, key, options = {}) {
  return find(input, [...steps(options.path ?? []), String(key)], options);
}

/**
 * json-pack style: element `index` of the array at the top of the input (or at `path`).
 * @param {Uint8Array | string} input @param {number} index @param {FindOptions & {path?: Path}} [options]
 */
export function findIndex(input, index, options = {}) {
  return find(input, [...steps(options.path ?? []), index], options);
}

/**
 * A number as JavaScript's String(v) writes it, computed in C (Schubfach): for tests.
 * NaN and infinities give 'null', as in JSON.
 * @param {number} v
 */
export function formatNumber(v) {
  const r = runtime();
  const n = r.x.tcw_f64(v);
  r.refresh();
  const p = r.x.tcw_num();
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(r.u8[p + i]);
  return s;
}

export { DecodeError };
export { initTranscode, initTranscodeSync, isTranscodeInitialized } from './transcode-runtime.js';
