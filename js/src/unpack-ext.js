// @ts-check
/**
 * MessagePack extensions on the decode side, with msgpackr's meanings: the built-in types
 * (Error 0x65, Set 0x73, RegExp 0x78, typed arrays 0x74, big BigInt 0x42, structured-clone id
 * 0x69 and pointer 0x70) and user extensions from addExtension. The C decoder tells "prefix"
 * extensions (which wrap the value after them) from plain ones using the config written here.
 * Every failure building a value from extension data is a DecodeError.
 */
import { DecodeError } from './errors.js';
import { ExtData, TYPED_ARRAYS, unpackExtensions } from './ext.js';

const NodeBuffer = /** @type {typeof Buffer | undefined} */ (globalThis.Buffer);

/** Built-in extensions that wrap the next value (any size). */
const PREFIX_BUILTIN = [0x65, 0x69, 0x73, 0x78];

/** syncExtConfig's versions for msgpack-javascript's decoding (an Unpackr with an extensionCodec):
 * every extension raw (an EXT entry for the codec), or every one but the timestamp (-1), which C
 * makes a Date. (The registry's versions are 0 and up; -1 is a runtime's "none yet".) */
export const EXTS_CODEC = -3, EXTS_CODEC_TS = -2;

/**
 * Write the extension config into C (csrc/wirepack.h wp_ext_config): msgpackr's, for the
 * registry's version, or msgpack-javascript's (EXTS_CODEC, EXTS_CODEC_TS).
 * @param {import('./runtime.js').Runtime} rt @param {number} version
 */
export function syncExtConfig(rt, version) {
  const any = new Uint32Array(8), fix1 = new Uint32Array(8), raw = new Uint32Array(8);
  if (version < 0) {
    raw.fill(0xffffffff);
    if (version === EXTS_CODEC_TS) raw[7] &= 0x7fffffff;
  } else {
    for (const t of PREFIX_BUILTIN) any[t >> 5] |= 1 << (t & 31);
    for (let t = 0; t < 256; t++) {
      const ext = unpackExtensions[t];
      if (ext === undefined) continue;
      any[t >> 5] &= ~(1 << (t & 31));
      if (typeof ext.unpack === 'function') raw[t >> 5] |= 1 << (t & 31);
      else if (typeof ext.read === 'function') fix1[t >> 5] |= 1 << (t & 31);
    }
  }
  const R = rt.u32, c = rt.extConfig;
  R.set(any, c);
  R.set(fix1, c + 8);
  R.set(raw, c + 16);
  rt.extVersion = version;
}

/** @param {Uint8Array} d @param {number} at */
function be32(d, at) {
  return ((d[at] << 24) | (d[at + 1] << 16) | (d[at + 2] << 8) | d[at + 3]) >>> 0;
}

/** @param {number} type @param {number} offset @param {string} why */
function bad(type, offset, why) {
  return new DecodeError('BAD_EXTENSION', offset, `Extension 0x${type.toString(16)}: ${why}`);
}

/** @type {Record<string, any>} */
const ERRORS = Object.assign(Object.create(null), {
  Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError,
});
if (typeof AggregateError === 'function') ERRORS.AggregateError = AggregateError;

/**
 * An Error of a standard class by its name (Error, TypeError, ...; no lookup on anything else), or
 * an Error given that name: what MessagePack's Error extension and CBOR's tag 27 make. An
 * AggregateError needs its errors (an array); without them it is an Error of that name.
 * @param {string} name @param {unknown} message @param {unknown} options the constructor's options
 *   ({cause}), when an object
 * @param {unknown} [errors] an AggregateError's errors
 * @returns {Error}
 */
export function errorNamed(name, message, options, errors) {
  const o = options !== null && typeof options === 'object' ? /** @type {ErrorOptions} */ (options) : undefined;
  if (name === 'AggregateError') {
    if (ERRORS.AggregateError !== undefined && Array.isArray(errors)) return new ERRORS.AggregateError(errors, /** @type {string} */ (message), o);
  } else if (ERRORS[name] !== undefined) {
    return new ERRORS[name](/** @type {string} */ (message), o);
  }
  const e = new Error(/** @type {string} */ (message), o);
  e.name = name;
  return e;
}


/** @param {any} o @param {string} k @param {unknown} v */
function setOwn(o, k, v) {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else o[k] = v;
}

/**
 * The structured-clone placeholder for the value that starts at the reader's position.
 * @param {import('./decode.js').TapeReader} r
 */
function placeholder(r) {
  const word = r.w[r.t];
  const tag = word & 0xff;
  if (tag === 13 || tag === 19 || tag === 33) return [];
  if (tag === 14) return new Map();
  if (tag === 29 && ((word >>> 8) & 0xff) === 0x73) return new Set();
  // an Error (ext 0x65, unless a user's extension reads that type) whose cause or errors refer
  // to it: an Error whose class and fields are those read (see readPrefixExt)
  if (tag === 29 && ((word >>> 8) & 0xff) === 0x65 && (unpackExtensions[0x65] === undefined || typeof unpackExtensions[0x65].read !== 'function')) return new Error();
  return {};
}

/**
 * A value wrapped by a prefix extension (EXTP on the tape): reads the wrapped value.
 * @param {number} type 0..255
 * @param {Uint8Array} data the extension's payload (a view of the caller's input)
 * @param {number} offset input offset of the payload
 * @param {import('./decode.js').TapeReader} r
 * @returns {any}
 */
export function readPrefixExt(type, data, offset, r) {
  const user = unpackExtensions[type];
  if (user !== undefined && typeof user.read === 'function') return user.read(r.v());
  switch (type) {
    case 0x69: {
      // structured clone: an id for the value that follows, which 0x70 pointers may refer to
      if (r.opts.structuredClone === false) throw bad(type, offset, 'structured clone extension is disabled');
      if (data.length < 4) throw bad(type, offset, 'id needs 4 bytes');
      const id = be32(data, data.length - 4);
      const target = placeholder(r);
      const entry = { target, used: false };
      if (id < REF_DENSE) (r.refs || (r.refs = []))[id] = entry;
      else (r.refMap || (r.refMap = new Map())).set(id, entry);
      const value = r.v();
      if (!entry.used || value === target) {
        entry.target = value;
        return value;
      }
      // the value refers to itself: fill the placeholder that those references hold
      if (target instanceof Error && value instanceof Error) {
        // (msgpackr gives a plain object with the Error's enumerable fields: none)
        Object.setPrototypeOf(target, Object.getPrototypeOf(value));
        for (const k of Object.getOwnPropertyNames(value)) Object.defineProperty(target, k, /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(value, k)));
      } else if (Array.isArray(target) && Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) target.push(value[i]);
      } else if (target instanceof Map && value instanceof Map) {
        for (const [k, v] of value) target.set(k, v);
      } else if (target instanceof Set && value instanceof Set) {
        for (const v of value) target.add(v);
      } else if (value !== null && typeof value === 'object' && !(target instanceof Map) && !(target instanceof Set) && !Array.isArray(target)) {
        for (const k of Object.keys(value)) setOwn(target, k, value[k]);
      } else {
        throw bad(type, offset, 'a value that refers to itself must be an array, map, set or object');
      }
      return target;
    }
    case 0x65: {
      const d = r.v();
      if (!Array.isArray(d) || typeof d[0] !== 'string') throw bad(type, offset, 'an Error is [name, message, cause]');
      const name = d[0];
      // msgpackr writes AggregateError as [name, message, cause, errors]; without errors (older
      // writers) they are []
      if (name === 'AggregateError' && ERRORS.AggregateError !== undefined && d.length > 3 && !Array.isArray(d[3])) throw bad(type, offset, 'AggregateError errors must be an array');
      return errorNamed(name, d[1], { cause: d[2] }, d.length > 3 ? d[3] : []);
    }
    case 0x73: {
      const d = r.v();
      if (!Array.isArray(d)) throw bad(type, offset, 'a Set is an array of its values');
      return new Set(d);
    }
    case 0x78: {
      const d = r.v();
      if (!Array.isArray(d) || typeof d[0] !== 'string') throw bad(type, offset, 'a RegExp is [source, flags]');
      try {
        return new RegExp(d[0], d[1]);
      } catch (e) {
        throw bad(type, offset, /** @type {Error} */ (e).message);
      }
    }
    default:
      // not reachable while the C config matches the registry (it is written before each call)
      throw bad(type, offset, 'extension registry changed during the call');
  }
}

/**
 * A plain extension (EXT on the tape).
 * @param {number} type 0..255
 * @param {Uint8Array} data the payload (a view of the caller's input)
 * @param {number} offset input offset of the payload
 * @param {import('./decode.js').TapeReader} r
 * @returns {any}
 */
export function readExt(type, data, offset, r) {
  const user = unpackExtensions[type];
  if (user !== undefined && typeof user.unpack === 'function') return user.unpack(data);
  switch (type) {
    case 0x70: return pointerAt(data, 0, data.length, offset, r);
    case 0x74: return typedArrayAt(data, 0, data.length, offset);
    case 0x42: return bigIntFrom(data);
    default: return new ExtData(type > 127 ? type - 256 : type, r.bytes(offset, data.length));
  }
}

/**
 * Structured-clone ids below this are kept in an array (msgpackr numbers them from 1 in each
 * message), the others in a Map: a Map of 5 x 10^5 ids took 0.7 us an insert and 0.2 a lookup.
 */
const REF_DENSE = 1 << 24;

/**
 * msgpackr's structured-clone pointer (0x70): the object of an earlier id (0x69), read from the
 * payload where it lies, with no view of it made (a message of 10^6 pointers made 10^6 Buffers).
 * @param {Uint8Array} src the bytes holding the payload @param {number} at where it starts
 * @param {number} n its length @param {number} offset input offset of the payload (for errors)
 * @param {import('./decode.js').TapeReader} r
 * @returns {any}
 */
export function pointerAt(src, at, n, offset, r) {
  if (r.opts.structuredClone === false) throw bad(0x70, offset, 'structured clone extension is disabled');
  const id = n >= 4 ? be32(src, at + n - 4) : -1;
  const entry = id < 0 ? undefined : id < REF_DENSE ? (r.refs !== null ? r.refs[id] : undefined) : r.refMap !== null ? r.refMap.get(id) : undefined;
  if (entry === undefined) throw new DecodeError('BAD_REFERENCE', offset, 'Structured clone pointer to no earlier id');
  entry.used = true;
  return entry.target;
}

/**
 * msgpackr's typed array extension (0x74): the type code, then the elements, copied into an
 * ArrayBuffer of the result's own (fresh and aligned; never a view of the input).
 * @param {Uint8Array} src the bytes holding the payload @param {number} at where it starts
 * @param {number} n its length @param {number} offset input offset of the payload (for errors)
 * @returns {any}
 */
export function typedArrayAt(src, at, n, offset) {
  if (n < 1) throw bad(0x74, offset, 'no type code');
  const code = src[at];
  /** @type {any} the class, for the codes other than ArrayBuffer (16) and DataView (17) */
  let C = null;
  if (code !== 16 && code !== 17) {
    const name = TYPED_ARRAYS[code];
    if (name === undefined) throw bad(0x74, offset, `unknown typed array code ${code}`);
    C = /** @type {any} */ (globalThis)[name];
    // (a Float16Array where the runtime has none, Node before 24: the extension as it came, which
    // packs back to the same bytes)
    if (C === undefined) {
      const data = new Uint8Array(src.buffer, src.byteOffset + at, n);
      return new ExtData(0x74, NodeBuffer ? NodeBuffer.from(data) : data.slice());
    }
  }
  // slice of a plain view: one allocation and one copy (a new Uint8Array and set() of a subarray
  // made three objects), and never a species the caller's Uint8Array subclass chose
  const buffer = new Uint8Array(src.buffer, src.byteOffset + at + 1, n - 1).slice().buffer;
  if (code === 16) return buffer;
  if (code === 17) return new DataView(buffer);
  try {
    return new C(buffer);
  } catch (e) {
    throw bad(0x74, offset, /** @type {Error} */ (e).message);
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const HEX_DIGIT = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const latin1 = new TextDecoder('latin1');

/**
 * A BigInt from big-endian two's complement bytes (msgpackr's ext 0x42).
 * @param {Uint8Array} data
 */
export function bigIntFrom(data) {
  const n = data.length;
  if (n === 0) return 0n;
  let v = magnitudeFrom(data);
  if (data[0] & 0x80) v -= 1n << BigInt(8 * n);
  return v;
}

/**
 * A non-negative BigInt from big-endian bytes, in time linear in their number: one hex string,
 * parsed once (V8 reads a power-of-two radix bit by bit). Shifting in a byte at a time made a new
 * BigInt per byte, quadratic: a CBOR bignum of 100 KB took 0.7 s to decode, one of 1 MB a minute.
 * @param {Uint8Array} data
 */
export function magnitudeFrom(data) {
  const n = data.length;
  if (n === 0) return 0n;
  if (n <= 64) {
    let hex = '0x';
    for (let i = 0; i < n; i++) hex += HEX[data[i]];
    return BigInt(hex);
  }
  // (a long one: its digits as bytes, one decode; a string built by += of a million pieces took
  // 420 ms per MB)
  const digits = new Uint8Array(2 * n + 2);
  digits[0] = 0x30;
  digits[1] = 0x78;
  for (let i = 0; i < n; i++) {
    const b = data[i];
    digits[2 * i + 2] = HEX_DIGIT[b >> 4];
    digits[2 * i + 3] = HEX_DIGIT[b & 15];
  }
  return BigInt(latin1.decode(digits));
}
