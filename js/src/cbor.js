// @ts-check
/**
 * CBOR (RFC 8949) with cbor-x's names and meanings. The C core decodes CBOR into the same tape
 * as MessagePack and encodes the same encode tape, so the value builder and walker are shared;
 * this module adds what is CBOR's own: tags, simple values, and the types they carry.
 */
import { Unpackr, TapeReader } from './decode.js';
import { Packr, Tape, writeBytes, writeHeader } from './encode.js';
import { diagnose } from './diagnose.js';

export { DecodeError } from './errors.js';
export { init, initSync, isInitialized } from './runtime.js';
export { diagnose };

const NodeBuffer = /** @type {typeof Buffer | undefined} */ (globalThis.Buffer);

// Encode tags (csrc/wirepack.h)
const E_U64 = 9, E_I64 = 8, E_BIN = 11, E_ARR = 12, E_MAP = 13, E_TAG = 18, E_SIMPLE = 19, E_N64 = 20;
const E_F64 = 6, E_UINT = 5, E_PAD = 21;
const ESC = 0xffffff;
// CBOR encoder flags
const DETERMINISTIC = 1, FLOAT64 = 2, INDEFINITE = 4;

/** A tagged value of a tag wirepack does not interpret; encodes back to the same tag. */
export class Tag {
  /**
   * @param {any} value
   * @param {number | bigint} tag
   */
  constructor(value, tag) {
    /** @type {any} */
    this.value = value;
    /** @type {number | bigint} */
    this.tag = tag;
  }
}

/** An unassigned CBOR simple value (0..19, 32..255); encodes back to the same value. */
export class Simple {
  /** @param {number} value */
  constructor(value) {
    /** @type {number} */
    this.value = value;
  }
}

/**
 * @typedef {object} Extension
 * @property {Function} [Class] values of this class encode with this tag
 * @property {number} tag
 * @property {(value: any, encode: (v: unknown) => Uint8Array) => unknown} [encode] what goes
 *   inside the tag for a value of Class
 * @property {(item: any) => unknown} [decode] the value for the tagged item
 */

/** @type {Map<number, Extension>} */
const extensionsByTag = new Map();
/** @type {Map<Function, Extension>} */
const extensionsByClass = new Map();

/**
 * Add a custom tag (cbor-x's addExtension): values of `Class` encode as `tag` wrapping
 * `encode(value)`, and items with that tag decode through `decode(item)`.
 * @param {Extension} extension
 */
export function addExtension(extension) {
  if (typeof extension.tag !== 'number') throw new TypeError('wirepack: addExtension needs a numeric tag');
  if (extension.decode) extensionsByTag.set(extension.tag, extension);
  if (extension.Class && extension.encode) extensionsByClass.set(extension.Class, extension);
}

/* ------------------------------------------------------------------ typed arrays (RFC 8746) */

/** @type {Array<[number, any, number]>} tag, constructor, element bytes (little-endian tags) */
const TYPED_LE = [
  [64, Uint8Array, 1], [68, Uint8ClampedArray, 1], [69, Uint16Array, 2], [70, Uint32Array, 4],
  [71, typeof BigUint64Array !== 'undefined' ? BigUint64Array : null, 8], [72, Int8Array, 1],
  [77, Int16Array, 2], [78, Int32Array, 4], [79, typeof BigInt64Array !== 'undefined' ? BigInt64Array : null, 8],
  [85, Float32Array, 4], [86, Float64Array, 8],
];
/** @type {Map<any, number>} constructor -> tag */
const typedTagOf = new Map();
/** @type {Map<number, [any, number]>} tag -> [constructor, element bytes]; BE tags too */
const typedByTag = new Map();
for (const [tag, C, size] of TYPED_LE) {
  if (!C) continue;
  typedTagOf.set(C, tag);
  typedByTag.set(tag, [C, size]);
  if (size > 1) typedByTag.set(tag - 4, [C, size]); // the big-endian twin (e bit clear)
}

/**
 * @param {number} tag
 * @param {Uint8Array} bytes
 */
function typedFromBytes(tag, bytes) {
  const entry = typedByTag.get(tag);
  if (!entry) return undefined;
  const [C, size] = entry;
  if (bytes.length % size !== 0) return undefined;
  const ab = new ArrayBuffer(bytes.length);
  const u8 = new Uint8Array(ab);
  u8.set(bytes);
  const bigEndian = size > 1 && ((tag - 64) & 4) === 0;
  if (bigEndian) {
    for (let i = 0; i < u8.length; i += size) u8.subarray(i, i + size).reverse();
  }
  return new C(ab);
}

/**
 * Epoch seconds (possibly fractional) to the millisecond whose seconds value it is: s * 1000
 * can be off by one unit in the last place, so step to the neighbour that divides back exactly.
 * @param {number} s
 */
function secondsToMs(s) {
  const m = Math.round(s * 1000);
  if (m / 1000 === s) return m;
  if ((m - 1) / 1000 === s) return m - 1;
  if ((m + 1) / 1000 === s) return m + 1;
  return m;
}

/* ------------------------------------------------------------------ bignums */

/** @param {Uint8Array} bytes big-endian magnitude */
function bigFromBytes(bytes) {
  let v = 0n;
  for (let i = 0; i < bytes.length; i++) v = (v << 8n) | BigInt(bytes[i]);
  return v;
}

/** @param {bigint} v non-negative */
function bytesFromBig(v) {
  let hex = v.toString(16);
  if (hex.length & 1) hex = '0' + hex;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

/* ------------------------------------------------------------------ decoder */

/**
 * @typedef {import('./decode.js').UnpackOptions} DecoderOptions
 */

/** A CBOR decoder with options (cbor-x's Decoder). */
export class Decoder extends Unpackr {
  /** @param {Readonly<DecoderOptions>} [options] */
  constructor(options) {
    super(options);
    this.cbor = true;
  }

  /**
   * Decode one CBOR item.
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @returns {any}
   */
  decode(source) {
    return this.unpack(source);
  }

  /**
   * Decode a CBOR sequence (RFC 8742). Returns the items, or calls forEach(item) for each and
   * stops when it returns false.
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @param {(value: any) => unknown} [forEach]
   * @returns {any[] | undefined}
   */
  decodeMultiple(source, forEach) {
    return this.unpackMultiple(source, forEach && ((v) => forEach(v)));
  }

  /**
   * @param {number | bigint} tag
   * @param {any} value
   * @param {TapeReader} _reader
   * @returns {any}
   */
  decodeTag(tag, value, _reader) {
    if (typeof tag === 'number') {
      const ext = extensionsByTag.get(tag);
      if (ext && ext.decode) return ext.decode(value);
      switch (tag) {
        case 0: if (typeof value === 'string') return new Date(value); break;
        case 1:
          if (typeof value === 'number') return new Date(secondsToMs(value));
          if (typeof value === 'bigint') return new Date(Number(value) * 1000);
          break;
        case 2: if (value instanceof Uint8Array) return this.bignum(bigFromBytes(value)); break;
        case 3: if (value instanceof Uint8Array) return this.bignum(-1n - bigFromBytes(value)); break;
        case 258: if (Array.isArray(value)) return new Set(value); break;
        case 259: if (value instanceof Map) return value; break;
        case 55799: return value;
        default:
          if (tag >= 64 && tag <= 87 && value instanceof Uint8Array) {
            const typed = typedFromBytes(tag, value);
            if (typed !== undefined) return typed;
          }
      }
    }
    return new Tag(value, tag);
  }

  /** @param {bigint} v */
  bignum(v) {
    switch (this.int64AsType) {
      case 'number': return Number(v);
      case 'string': return v.toString();
      case 'auto': return v >= -9007199254740992n && v <= 9007199254740992n ? Number(v) : v;
      default: return v;
    }
  }

  /** @param {number} value */
  decodeSimple(value) {
    return new Simple(value);
  }
}

/* ------------------------------------------------------------------ encoder */

/**
 * @typedef {object} CborEncoderOptions
 * @property {boolean} [deterministic] RFC 8949 4.2.1 core deterministic encoding: the shortest
 *   forms and map keys sorted by their encoded bytes (the way to get canonical bytes)
 * @property {boolean} [float64] always write floats as float64
 * @property {boolean} [structuredClone] keep shared identity and cycles: an object met again
 *   is written as a reference (tag 29) to its first occurrence, which is marked shareable
 *   (tag 28), as cbor-x's option of that name
 * @property {boolean} [useSelfDescribedHeader] start every encoding with the self-describe tag
 *   55799 (d9 d9f7), as cbor-x's option of that name
 * @property {boolean} [indefiniteLengths] write arrays and maps with indefinite lengths (9f/bf
 *   ... ff); ignored with `deterministic`, which requires definite lengths
 * @property {boolean} [tagUint8Array] tag Uint8Arrays with 64 (default true, as cbor-x; Buffers
 *   are always plain byte strings)
 * @property {boolean} [useTag259ForMaps] wrap Maps in tag 259 (default true, as cbor-x)
 * @property {number} [useFloat32] FLOAT32_OPTIONS, as for MessagePack
 * @property {number} [maxDepth] maximum nesting (default 1000)
 */

const TWO63 = 1n << 63n, TWO64 = 1n << 64n;

/** A CBOR encoder with options (cbor-x's Encoder). */
export class Encoder extends Packr {
  /** @param {Readonly<CborEncoderOptions>} [options] */
  constructor(options) {
    super(options);
    const o = options || {};
    this.deterministic = o.deterministic === true;
    this.float64 = o.float64 === true;
    // as cbor-x: tag Uint8Arrays only where Buffer exists (so that plain byte strings, which
    // decode to Buffers there, stay distinguishable); browsers decode bytes to Uint8Array anyway
    this.tagUint8Array = o.tagUint8Array === undefined ? NodeBuffer !== undefined : o.tagUint8Array;
    this.useTag259ForMaps = o.useTag259ForMaps !== false;
    this.indefiniteLengths = o.indefiniteLengths === true;
    this.useSelfDescribedHeader = o.useSelfDescribedHeader === true;
    this.structuredClone = o.structuredClone === true;
    this.cborFlags = (this.deterministic ? DETERMINISTIC : 0) | (this.float64 ? FLOAT64 : 0) | (this.indefiniteLengths ? INDEFINITE : 0);
  }

  /**
   * Encode a value as CBOR (a Buffer in Node, a Uint8Array elsewhere).
   * @param {unknown} value
   * @returns {Uint8Array}
   */
  encode(value) {
    return this.pack(value);
  }

  /**
   * Before the top-level value: the self-describe tag when asked for.
   * @param {Tape} T
   */
  writePrefix(T) {
    if (this.structuredClone) T.refs = new Map();
    if (this.useSelfDescribedHeader) this.writeTag(T, 55799);
  }

  /**
   * structuredClone: objects met more than once get tag 28 at their first occurrence (in the
   * word reserved there) and their references the index of that occurrence in tape order.
   * @param {Tape} T
   */
  finishTape(T) {
    const refs = T.refs;
    if (!refs) return;
    T.refs = null;
    const shared = [];
    for (const rec of refs.values()) if (rec.uses.length > 0) shared.push(rec);
    shared.sort((a, b) => a.pos - b.pos);
    for (let i = 0; i < shared.length; i++) {
      const rec = shared[i];
      T.u32[rec.pos] = E_TAG | (28 << 8);
      for (const at of rec.uses) T.u32[at] = i;
    }
  }

  /**
   * structuredClone: a reference for an object already written (true), or note its first
   * occurrence behind a reserved word (false).
   * @param {Tape} T @param {object} o
   */
  writeRef(T, o) {
    const refs = /** @type {Map<object, {pos: number, uses: number[]}>} */ (T.refs);
    const rec = refs.get(o);
    if (T.p + 4 > T.cap) T.grow(4);
    if (rec !== undefined) {
      T.u32[T.p] = E_TAG | (29 << 8);
      T.u32[T.p + 1] = E_UINT;
      rec.uses.push(T.p + 2); // the index, known once the walk is over
      T.u32[T.p + 2] = 0;
      T.p += 3;
      return true;
    }
    refs.set(o, { pos: T.p, uses: [] });
    T.u32[T.p++] = E_PAD;
    return false;
  }
  /**
   * Numbers as for MessagePack, except -0, which CBOR can carry exactly (f9 8000).
   * @param {Tape} T @param {number} v
   */
  writeNumber(T, v) {
    if (v === 0 && 1 / v < 0) {
      if (T.p + 4 > T.cap) T.grow(4);
      const p = T.p, a = (p + 2) & ~1;
      T.u32[p] = E_F64;
      T.f64[a >> 1] = v;
      T.p = a + 2;
      return;
    }
    super.writeNumber(T, v);
  }

  /** @param {Tape} T @param {number | bigint} tag */
  writeTag(T, tag) {
    if (T.p + 4 > T.cap) T.grow(4);
    if (typeof tag === 'number' && tag < ESC) {
      T.u32[T.p++] = E_TAG | (tag << 8);
      return;
    }
    const v = BigInt(tag);
    T.u32[T.p] = E_TAG | (ESC << 8);
    T.u32[T.p + 1] = Number(v & 0xffffffffn);
    T.u32[T.p + 2] = Number((v >> 32n) & 0xffffffffn);
    T.p += 3;
  }

  /** @param {Tape} T @param {bigint} v */
  writeBigInt(T, v) {
    if (T.p + 4 > T.cap) T.grow(4);
    /** @param {number} tag @param {bigint} u */
    const put = (tag, u) => {
      T.u32[T.p] = tag;
      T.u32[T.p + 1] = Number(u & 0xffffffffn);
      T.u32[T.p + 2] = Number(u >> 32n);
      T.p += 3;
    };
    if (v >= 0n && v < TWO64) put(E_U64, v);
    else if (v < 0n && v >= -TWO63) put(E_I64, BigInt.asUintN(64, v));
    else if (v < 0n && v >= -TWO64) put(E_N64, -1n - v);
    else if (v >= 0n) {
      this.writeTag(T, 2);
      writeBytes(T, E_BIN, 0, bytesFromBig(v));
    } else {
      this.writeTag(T, 3);
      writeBytes(T, E_BIN, 0, bytesFromBig(-1n - v));
    }
  }

  /** @param {Tape} T @param {object} o @param {number} depth */
  writeObject(T, o, depth) {
    if (T.refs && this.writeRef(T, o)) return;
    if (Array.isArray(o)) {
      super.writeObject(T, o, depth);
      return;
    }
    const proto = Object.getPrototypeOf(o);
    if (proto === Object.prototype || proto === null) {
      this.writeMap(T, /** @type {Record<string, unknown>} */ (o), depth);
      return;
    }
    const ext = extensionsByClass.get(o.constructor);
    if (ext && ext.encode) {
      this.writeTag(T, ext.tag);
      this.write(T, ext.encode(o, (v) => this.encode(v)), depth);
      return;
    }
    if (o instanceof Date) {
      this.writeTag(T, 1);
      // epoch seconds: an integer when whole (it goes out as an integer), else a float, as
      // cbor-x writes them; an invalid Date gives NaN, which decodes back to an invalid Date
      this.write(T, o.getTime() / 1000, depth);
      return;
    }
    if (o instanceof Tag) {
      this.writeTag(T, o.tag);
      this.write(T, o.value, depth);
      return;
    }
    if (o instanceof Simple) {
      if (T.p + 1 > T.cap) T.grow(1);
      T.u32[T.p++] = E_SIMPLE | ((o.value & 0xff) << 8);
      return;
    }
    if (o instanceof Set) {
      this.writeTag(T, 258);
      writeHeader(T, E_ARR, o.size);
      for (const v of o) this.write(T, v, depth);
      return;
    }
    if (o instanceof Map) {
      if (this.useTag259ForMaps) this.writeTag(T, 259);
      writeHeader(T, E_MAP, o.size);
      for (const [k, v] of o) {
        this.write(T, k, depth);
        this.write(T, v, depth);
      }
      return;
    }
    if (ArrayBuffer.isView(o)) {
      const bytes = new Uint8Array(o.buffer, o.byteOffset, o.byteLength);
      if (o instanceof Uint8Array && (o.constructor === Uint8Array ? !this.tagUint8Array : NodeBuffer !== undefined && NodeBuffer.isBuffer(o))) {
        writeBytes(T, E_BIN, 0, bytes);
        return;
      }
      const tag = typedTagOf.get(o.constructor);
      if (tag !== undefined) this.writeTag(T, tag);
      writeBytes(T, E_BIN, 0, bytes);
      return;
    }
    if (o instanceof ArrayBuffer) {
      writeBytes(T, E_BIN, 0, new Uint8Array(o));
      return;
    }
    this.writeMap(T, /** @type {Record<string, unknown>} */ (o), depth);
  }
}


const defaultEncoder = new Encoder();
const defaultDecoder = new Decoder();

/**
 * Encode a value as CBOR with default options.
 * @param {unknown} value
 * @returns {Uint8Array}
 */
export function encode(value) {
  return defaultEncoder.encode(value);
}

/**
 * Decode one CBOR item with default options.
 * @param {Uint8Array | ArrayBuffer | DataView} source
 * @returns {any}
 */
export function decode(source) {
  return defaultDecoder.decode(source);
}

/**
 * Decode a CBOR sequence with default options.
 * @param {Uint8Array | ArrayBuffer | DataView} source
 * @param {(value: any) => unknown} [forEach]
 * @returns {any[] | undefined}
 */
export function decodeMultiple(source, forEach) {
  return defaultDecoder.decodeMultiple(source, forEach);
}
