// @ts-check
/**
 * CBOR (RFC 8949) with cbor-x's names and meanings. The C core decodes CBOR into the same tape
 * as MessagePack and encodes the same encode tape, so the value builder and walker are shared;
 * this module adds what is CBOR's own: tags, simple values, and the types they carry.
 */
import { Unpackr, TapeReader, Shape, roundFloat32, canCodegen, objectLiteral, sameKeys, put64, freezeDecoded, NOT_A_RECORD, F_CBOR_DATES, F_CBOR_RECS, F_CBOR_SHARED, F_CBOR_PACKED, MARK_FIRST_LO } from './decode.js';
import {
  Packr, Tape, IdQueue, isArrayLike, writeBytes, writeHeader, writeString, writeF64, FLOAT32_OPTIONS, E_RAW, writeRaw, SharedBuffer,
  CBOR_DETERMINISTIC as DETERMINISTIC, CBOR_FLOAT64 as FLOAT64, CBOR_INDEFINITE as INDEFINITE, CBOR_F64_ENTRIES as F64_ENTRIES,
} from './encode.js';
import { diagnose } from './diagnose.js';
import { DecodeError } from './errors.js';
import { errorNamed, magnitudeFrom } from './unpack-ext.js';
import { forgetLimits } from './runtime.js';
import { encodeAsIterableWith, encodeAsAsyncIterableWith } from './iterators.js';

export { DecodeError };
export { init, initSync, isInitialized } from './runtime.js';
export { diagnose, FLOAT32_OPTIONS, roundFloat32 };

/** cbor-x's module constants and no-ops: no addon (the codec is wasm everywhere), no source kept
 * between calls, and the defaults of the free functions. */
export const isNativeAccelerationEnabled = false;
export const REUSE_BUFFER_MODE = 512;
export const useRecords = false;
export const mapsAsObjects = true;
export function clearSource() {}

/** cbor-x's process-wide size limits (setSizeLimits); 0 = none beyond each Decoder's own. */
const sizeLimits = { version: 0, maxArraySize: 0, maxMapSize: 0, maxObjectSize: 0 };

/**
 * cbor-x's name for what setSizeLimits takes.
 * @typedef {{maxArraySize?: number, maxMapSize?: number, maxObjectSize?: number}} SizeLimitOptions
 */
/**
 * cbor-x's name for the options of Encoder and Decoder (an Encoder takes both: it decodes too).
 * @typedef {CborEncoderOptions & DecoderOptions} Options
 */
/** @typedef {import('./encode.js').EncodedBytes} EncodedBytes */

/**
 * cbor-x's setSizeLimits: the largest arrays and maps (objects) any Decoder accepts from now on.
 * Above them decoding throws DecodeError('LIMIT') at the item (cbor-x throws a plain Error).
 * @param {SizeLimitOptions} limits
 */
export function setSizeLimits(limits) {
  if (limits.maxArraySize) sizeLimits.maxArraySize = limits.maxArraySize;
  if (limits.maxMapSize) sizeLimits.maxMapSize = limits.maxMapSize;
  if (limits.maxObjectSize) sizeLimits.maxObjectSize = limits.maxObjectSize;
  sizeLimits.version++;
}
export const { NEVER, ALWAYS, DECIMAL_ROUND, DECIMAL_FIT } = FLOAT32_OPTIONS;

const NodeBuffer = /** @type {typeof Buffer | undefined} */ (globalThis.Buffer);

// Encode tags (csrc/wirepack.h)
const E_U64 = 9, E_I64 = 8, E_BIN = 11, E_ARR = 12, E_MAP = 13, E_TAG = 18, E_SIMPLE = 19, E_N64 = 20;
const E_F64 = 6, E_UINT = 5, E_INT = 4, E_PAD = 21, E_BOFF = 40, E_BHERE = 41;
const ESC = 0xffffff;

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
 * @property {Function} [Class] values of this class encode with this tag (instances of a subclass
 *   too: a value takes the first extension, the latest added first, whose Class it is an instance
 *   of, unless Object, Array or Map is its constructor)
 * @property {number} tag
 * @property {(value: any, encode: (v: unknown) => void) => unknown} [encode] writes what goes
 *   inside the tag for a value of Class by calling `encode(item)` once (as cbor-x); when it
 *   does not call it, its return value is the item
 * @property {(item: any) => unknown} [decode] the value for the tagged item
 */

/** @type {Map<number, Extension>} */
const extensionsByTag = new Map();
/**
 * The extensions with a Class and an encode, the latest added first: a value goes through the
 * first whose Class it is an instance of (a subclass's instances, an Array subclass's included),
 * as cbor-x finds them, unless its constructor is Object, Array or Map, which cbor-x writes
 * before it looks.
 * @type {Extension[]}
 */
const classExtensions = [];

/**
 * Add a custom tag (cbor-x's addExtension): values of `Class` (and of its subclasses, as in
 * cbor-x) encode as `tag` wrapping `encode(value)`, and items with that tag decode through
 * `decode(item)`.
 * @param {Extension} extension
 */
export function addExtension(extension) {
  if (typeof extension.tag !== 'number') throw new TypeError('wirepack: addExtension needs a numeric tag');
  if (extension.decode) extensionsByTag.set(extension.tag, extension);
  if (typeof extension.Class === 'function' && extension.encode) {
    // (the same Class again replaces its extension, which cbor-x's list of classes shadows)
    const i = classExtensions.findIndex((e) => e.Class === extension.Class);
    if (i >= 0) classExtensions.splice(i, 1);
    classExtensions.unshift(extension);
  }
}

/**
 * The first extension (classExtensions' order) whose Class o is an instance of.
 * @param {object} o
 * @returns {Extension | undefined}
 */
function classExtension(o) {
  for (let i = 0; i < classExtensions.length; i++) {
    const e = classExtensions[i];
    if (o instanceof /** @type {Function} */ (e.Class)) return e;
  }
  return undefined;
}

/* ------------------------------------------------------------------ typed arrays (RFC 8746) */

/** @type {Array<[number, any, number]>} tag, constructor, element bytes (little-endian tags) */
const TYPED_LE = [
  [64, Uint8Array, 1], [68, Uint8ClampedArray, 1], [69, Uint16Array, 2], [70, Uint32Array, 4],
  [71, typeof BigUint64Array !== 'undefined' ? BigUint64Array : null, 8], [72, Int8Array, 1],
  [77, Int16Array, 2], [78, Int32Array, 4], [79, typeof BigInt64Array !== 'undefined' ? BigInt64Array : null, 8],
  [84, /** @type {any} */ (globalThis).Float16Array || null, 2], [85, Float32Array, 4], [86, Float64Array, 8],
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

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The tag of a view whose class has none of its own: a subclass's is the built-in typed array's
 * it extends, as cbor-x finds it (instanceof), but for Uint8Array's, which cbor-x tags only as
 * itself; a DataView has none.
 * @param {ArrayBufferView} o
 * @returns {number | undefined}
 */
function typedTagOfSubclass(o) {
  for (const [tag, C] of TYPED_LE) if (C !== null && tag !== 64 && o instanceof C) return tag;
  return undefined;
}

/**
 * @param {number} tag
 * @param {Uint8Array} bytes the byte string (a view of the input unless copyBuffers)
 * @param {boolean} copy always a fresh ArrayBuffer (else, as cbor-x, a view of the input when
 *   the byte order is the machine's and the offset is aligned)
 */
function typedFromBytes(tag, bytes, copy) {
  const entry = typedByTag.get(tag);
  if (!entry) return undefined;
  const [C, size] = entry;
  if (bytes.length % size !== 0) return undefined;
  if (!copy && (size === 1 || (((tag - 64) & 4) !== 0) === LITTLE_ENDIAN) && bytes.byteOffset % size === 0) {
    return new C(bytes.buffer, bytes.byteOffset, bytes.length / size);
  }
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

/** @param {bigint} v non-negative */
function bytesFromBig(v) {
  let hex = v.toString(16);
  if (hex.length & 1) hex = '0' + hex;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

/* ------------------------------------------------------------------ Errors (tag 27) */

/**
 * An Error's options (tag 27's third element) decoded as a Map: its cause and errors, the only
 * fields the Error takes (a plain object, so that no key of the Map reaches a prototype).
 * @param {Map<unknown, unknown>} m
 * @returns {{cause?: unknown, errors?: unknown}}
 */
function errorOptions(m) {
  /** @type {{cause?: unknown, errors?: unknown}} */
  const o = {};
  if (m.has('cause')) o.cause = m.get('cause');
  if (m.has('errors')) o.errors = m.get('errors');
  return o;
}

/* ------------------------------------------------------------------ records, packing */

/**
 * Record keys that are a shareable array (tag 28) still being filled, through a reference (tag
 * 29) from inside it: the definition is in that array, and its keys would be the items read so
 * far (cbor-x's, its placeholder). BAD_RECORD, as MessagePack's pointer to such keys
 * (wp_msgpack.c wp_mp_sc_keys).
 * @param {TapeReader | null | undefined} reader (none when user code calls decodeTag) @param {unknown} keys
 */
function openKeys(reader, keys) {
  if (reader && reader.building && Array.isArray(keys) && reader.building.has(keys)) {
    throw new DecodeError('BAD_RECORD', 0, 'Record keys that are the array the definition is inside (a reference to it while it is being read)');
  }
}

// cbor-x's record extension (github.com/kriszyp/cbor-records) and Packed CBOR
// (draft-ietf-cbor-packed), as cbor-x 1.6.9 writes and reads them.
const LEGACY_RECORD = 105;          // [id, keys, ...values], read after its item (as cbor-x)
const RECORD_DEFINITIONS = 0xdffe;  // [firstId, keys0, keys1, ..., value]
const RECORD_INLINE = 0xdfff;       // [id, keys, ...values]: defines id, and is the first record
const RECORD_FIRST = 0xe000;        // tags 0xe000 + id (id 0..8191): [...values] of record id
const SHARED_DATA_TAG = 0x53687264; // 'Shrd': the version of saved structures
const PACKED_TABLE = 51, PACKED_REF = 6;
/** Marker tags wp_cbor.c puts around the keys of a record definition (low 16 bits: its id)
 * and around the three tables of a packed item (low bits: element 0..2), so that they reach
 * decodeTag before the items after them are built. Real tags this high are not interpreted. */
const MARK_REC_LO = 0xffff0000, MARK_PACK_LO = 0xfffe0000, MARK_BUNDLE_LO = MARK_FIRST_LO;
/** cbor-x's bundled strings: tag 0xdff9 [offset, ...], tags 14 (non-Latin) and 15 (Latin) n. */
const BUNDLE_TAG = 0xdff9, BUNDLE_MAX = 0xf000;
const NON_LATIN = /[\u0080-\uFFFF]/;

/**
 * A property name as cbor-x makes it (safeKey), except that `__proto__` stays `__proto__` (an own
 * data property; cbor-x renames it `__proto_`): strings, numbers, booleans, BigInts, null and
 * undefined become their text; anything else cannot be a property name.
 * @param {unknown} k
 * @returns {string}
 */
function propKey(k) {
  if (typeof k === 'string') return k;
  if (typeof k === 'number' || typeof k === 'boolean' || typeof k === 'bigint') return k.toString();
  if (k == null) return k + '';
  throw new DecodeError('BAD_RECORD', 0, 'Invalid property name type ' + typeof k);
}

/** @param {Record<string, unknown>} o @param {string} k @param {unknown} v */
function setProp(o, k, v) {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else o[k] = v;
}

/**
 * Whether every key of m can be a property name (propKey): a string, number, boolean, BigInt,
 * null or undefined.
 * @param {Map<any, any>} m
 */
function propertyKeys(m) {
  for (const k of m.keys()) {
    const t = typeof k;
    if (k !== null && k !== undefined && t !== 'string' && t !== 'number' && t !== 'boolean' && t !== 'bigint') return false;
  }
  return true;
}

/**
 * The key a property name is written as under key map km (cbor-x's encodeKey): km's, or the name.
 * @param {Record<string, any> | null} km @param {any} key
 */
function mappedKey(km, key) {
  return km !== null && Object.prototype.hasOwnProperty.call(km, key) ? km[key] : key;
}

/**
 * mapped key -> property name of a key map.
 * @param {Record<string, any>} km
 * @returns {Map<any, string>}
 */
function reverseKeys(km) {
  const rev = new Map();
  for (const [k, v] of Object.entries(km)) rev.set(v, k);
  return rev;
}

/**
 * What a Decoder and an Encoder share for cbor-x's experimental `_keyMap` (mapEncode, mapDecode):
 * the map, and its reverse once made.
 * @typedef {{ _keyMap: Record<string, any> | null, _mapKey: Map<any, string> | null, decodeKeys(map: any): any }} KeyMapped
 */

/**
 * cbor-x's encodeKeys: a plain object as a Map whose keys are mapped (the Map is then written with
 * tag 259). Anything else is kept as it is, where cbor-x made it a Map of its own enumerable
 * properties (an empty one for a number, a Date or a Map).
 * @param {KeyMapped} self @param {any} rec
 * @returns {any}
 */
function encodeKeysOf(self, rec) {
  const km = self._keyMap;
  if (km === null || rec === null || typeof rec !== 'object') return rec;
  const proto = Object.getPrototypeOf(rec);
  if (proto !== Object.prototype && proto !== null) return rec;
  const m = new Map();
  for (const [k, v] of Object.entries(rec)) m.set(mappedKey(km, k), v);
  return m;
}

/**
 * cbor-x's decodeKeys: a Map as an object whose keys are mapped back; anything else, and a Map with
 * a key that cannot be a property name, is kept as it is. `__proto__` becomes an own property.
 * @param {KeyMapped} self @param {any} map
 * @returns {any}
 */
function decodeKeysOf(self, map) {
  if (self._keyMap === null || !(map instanceof Map) || !propertyKeys(map)) return map;
  const rev = self._mapKey || (self._mapKey = reverseKeys(self._keyMap));
  /** @type {Record<string, unknown>} */
  const o = {};
  for (const [k, v] of map) setProp(o, propKey(rev.has(k) ? rev.get(k) : k), v);
  return o;
}

/**
 * cbor-x's mapDecode after its decode: when the item is an array, each element through decodeKeys
 * (what mapEncode wrote as Maps become objects again).
 * @param {KeyMapped} self @param {any} v
 * @returns {any}
 */
function mapDecoded(self, v) {
  return self._keyMap !== null && Array.isArray(v) ? v.map((r) => self.decodeKeys(r)) : v;
}

/**
 * A packed item's prefix or suffix joined to its rump (tags 216-255, 27647-32767 and the 4-byte
 * ones): strings, byte strings, arrays and maps (objects, or Maps), each with one of its own kind,
 * as cbor-x's combine joins the strings, arrays and objects it can. Anything else is malformed:
 * cbor-x joins a string to an array's or an object's text ('p1-[object Object]'), a prefix it
 * does not have makes an object of a string's characters, and two byte strings an object of
 * their indices.
 * @param {unknown} a @param {unknown} b
 * @returns {unknown}
 */
function combine(a, b) {
  if (typeof a === 'string') {
    if (typeof b === 'string') return a + b;
  } else if (Array.isArray(a)) {
    if (Array.isArray(b)) return a.concat(b);
  } else if (a instanceof Uint8Array) {
    if (b instanceof Uint8Array) {
      if (NodeBuffer !== undefined && NodeBuffer.isBuffer(a)) return NodeBuffer.concat([a, b]);
      const r = new Uint8Array(a.length + b.length);
      r.set(a);
      r.set(b, a.length);
      return r;
    }
  } else if (a instanceof Map) {
    if (b instanceof Map) return new Map([...a, ...b]);
  } else if (isPlainObject(a) && isPlainObject(b)) {
    return Object.assign({}, a, b);
  }
  throw new DecodeError('BAD_REFERENCE', 0, `A packed prefix or suffix and its rump that cannot be joined (${kindOf(a)} and ${kindOf(b)})`);
}

/** @param {unknown} o */
function isPlainObject(o) {
  return typeof o === 'object' && o !== null && Object.getPrototypeOf(o) === Object.prototype;
}

/** @param {unknown} v */
function kindOf(v) {
  return v === NO_AFFIX ? 'no such prefix or suffix' : v === null ? 'null' : Array.isArray(v) ? 'an array' : v instanceof Uint8Array ? 'bytes'
    : v instanceof Map ? 'a Map' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** What affix() gives for an index its table does not have. */
const NO_AFFIX = Symbol('no affix');

/**
 * Entry i of a packed item's prefixes or suffixes (element 1 or 2 of its table), NO_AFFIX when
 * the table is no array (it may be anything: null, a number) or has no entry i.
 * @param {unknown} list @param {number} i
 */
function affix(list, i) {
  return Array.isArray(list) && i < list.length ? list[i] : NO_AFFIX;
}

/** Objects of one record in one call after which its builder is generated whatever other calls did. */
const RECORD_CODEGEN_IN_CALL = 8;
/** Key lists a Decoder keeps builders for (all dropped when full: a stream of new lists). */
const RECORD_BUILDERS_MAX = 1024;

/**
 * @typedef {object} RecordBuilder the builder of one key list, shared by equal lists
 * @property {number} seen calls (and record ids) that met it
 * @property {string[]} keys
 * @property {((vals: any[], from: number) => Record<string, unknown>) | null} fn
 * @property {Shape} [shape] builds its objects from the tape (tapeRecord), made on first use
 */
/**
 * @typedef {object} RecordSlot a record id within one call
 * @property {any[]} keys the keys it had when the slot was made
 * @property {number} uses objects built by record() while no other call had met its keys
 * @property {RecordBuilder} b
 */
/** Key lists that cannot have a builder (a key that is not a string). */
const NO_BUILDER = /** @type {RecordBuilder} */ ({ seen: 0, fn: null, keys: [] });

/**
 * A builder for one record's objects (objectLiteral), key i's value read from vals[from + i].
 * @param {string[]} keys
 */
function compileRecord(keys) {
  return /** @type {(vals: any[], from: number) => Record<string, unknown>} */ (new Function('v', 'f', 'return' + objectLiteral(keys, (i) => 'v[f+' + i + ']')));
}

/**
 * The packed table of shared values: after the private ones (maxPrivatePackedValues) with the
 * `pack` option, where the encoder numbers them.
 * @param {Decoder} d @param {any[]} values
 * @returns {any[]}
 */
const sharedTable = (d, values) => (d.packOption ? new Array(d.maxPrivatePackedValues || 16).concat(values) : values);

/** The state of one decode call (records defined so far, the packed table). */
class DecodeState {
  /** @param {Decoder} d */
  constructor(d) {
    /** record id -> keys; a Decoder's `structures` when it has them (they persist, as cbor-x) */
    /** @type {any[]} */
    this.recs = d.structures || [];
    /** packed values (simple 0-15, tag 6) with `prefixes` and `suffixes` */
    /** @type {any} */
    this.packed = d.sharedValues ? sharedTable(d, d.sharedValues) : null;
    /** getShared was asked for packed values in this call (packedOrShared) */
    this.sharedAsked = false;
    /** Maps that stay Maps under keyMap (tag 259) */
    /** @type {WeakSet<Map<any, any>> | null} */
    this.keep = null;
    /** the shared-data object of a saved structures file, completed by its tag 0xdffe */
    /** @type {any} */
    this.shrd = null;
    /** bundled strings in effect: [non-Latin, Latin] and how much of each is used */
    /** @type {string[] | null} */
    this.bundle = null;
    this.b0 = 0;
    this.b1 = 0;
    /** record id -> the builder of its keys in this call (#slotFor) */
    /** @type {RecordSlot[] | null} */
    this.rslots = null;
    /** the keys of the record tapeRecord built last, and their shape: a chunk of a stream
     * refers to one record message after message (the stream chunk's decode 1.04x, paired, 6
     * processes). Keys are a fresh array for every definition in the call (defineCrec, record),
     * so the same array is the same record. */
    /** @type {any[] | null} */
    this.lastKeys = null;
    /** @type {Shape | null} */
    this.lastShape = null;
  }
}

/* ------------------------------------------------------------------ decoder */

/**
 * @typedef {import('./decode.js').UnpackOptions & {
 *   keyMap?: Record<string, any>,
 *   _keyMap?: Record<string, any>,
 *   sharedValues?: any[],
 *   pack?: boolean,
 *   maxPrivatePackedValues?: number,
 *   bundleStrings?: boolean,
 * }} DecoderOptions
 */

/** A CBOR decoder with options (cbor-x's Decoder). */
export class Decoder extends Unpackr {
  /** @param {Readonly<DecoderOptions>} [options] */
  constructor(options) {
    let o = options;
    // cbor-x: a keyMap turns records off and maps into objects (unless useRecords is set)
    // (and so does cbor-x's experimental _keyMap, which mapEncode and mapDecode apply instead)
    if (o && (o.keyMap || o._keyMap) && !o.useRecords) o = { ...o, useRecords: false, mapsAsObjects: true };
    super(o);
    this.cbor = true;
    /** bignums (tags 2, 3): as int64AsType says when given; cbor-x's int64AsNumber, which gives
     * it 'number', is for 8-byte heads only (cbor-x keeps bignums BigInts, exact) */
    /** @type {string} */
    this.bignumAs = (o && o.int64AsType) || 'bigint';
    /** @type {boolean} */
    this.packOption = !!(o && o.pack);
    /** @type {Record<string, any> | null} */
    this.keyMap = (o && o.keyMap) || null;
    /** value -> key, for keyMap @type {Map<any, any> | null} */
    this.mapKey = null;
    if (this.keyMap) {
      this.mapKey = reverseKeys(this.keyMap);
      // maps arrive as Maps (keys keep their types) and are turned into objects after
      this.flags &= ~1;
    }
    /** cbor-x's experimental key map for mapDecode / decodeKeys (and their encoding side) */
    /** @type {Record<string, any> | null} */
    this._keyMap = (o && o._keyMap) || null;
    /** its reverse, made when first needed @type {Map<any, string> | null} */
    this._mapKey = null;
    /** @type {(() => any) | null} cbor-x's getShared */
    this.getShared = (o && (/** @type {any} */ (o).getShared || o.getStructures)) || null;
    /** @type {any[] | undefined} */
    this.sharedValues = o && o.sharedValues;
    /** @type {number | undefined} */
    this.maxPrivatePackedValues = o && o.maxPrivatePackedValues;
    /** the state of the decode call in progress (saved and restored around nested calls) */
    /** @type {DecodeState | null} */
    this.st = null;
    /** records defined (CREC entries) while there is no state yet: id, builder, ... (npend
     * entries), made part of the state when the call needs one (state()), dropped with the call */
    /** @type {any[]} */
    this.pend = [];
    this.npend = 0;
    /** setSizeLimits version these limits reflect; this Decoder's own limits */
    this.limitsVersion = 0;
    /** @type {number[] | undefined} */
    this.ownLimits = undefined;
  }

  /** Bring this Decoder's array and map limits in line with setSizeLimits. */
  applySizeLimits() {
    if (this.ownLimits === undefined) this.ownLimits = [this.maxArrayLength, this.maxMapLength];
    const [arr, map] = this.ownLimits;
    const lim = (/** @type {number} */ own, /** @type {number[]} */ ...globals) => Math.min(own, ...globals.map((g) => g || Infinity));
    this.maxArrayLength = lim(arr, sizeLimits.maxArraySize);
    this.maxMapLength = lim(map, sizeLimits.maxMapSize, sizeLimits.maxObjectSize);
    this.limitsVersion = sizeLimits.version;
    forgetLimits(); // the limits C holds may be this Decoder's old ones
  }

  /** @returns {DecodeState} */
  state() {
    if (this.st !== null) return this.st;
    const st = (this.st = new DecodeState(this));
    if (this.npend !== 0) {
      // the definitions made before the state, in order, as crecShape makes them with one
      const p = this.pend, n = this.npend;
      this.npend = 0;
      for (let i = 0; i < n; i += 2) this.defineCrec(st, p[i], p[i + 1]);
    }
    return st;
  }

  /** A sequence's next value: the bundle of the value before is out of scope (a reference of
   * this one, tag 14 or 15 with no bundle of its own, was read against it: BAD_BUNDLE where
   * cbor-x gives the Tag). The packed table stays, as in cbor-x (cbor-sequence.test.js). */
  nextValue() {
    const st = this.st;
    if (st === null) return;
    st.bundle = null;
    st.b0 = st.b1 = 0;
  }

  /** The start of a call: the outer call's (if any) pending definitions made part of its state. */
  enterCall() {
    if (this.npend !== 0) this.state();
    const saved = this.st;
    this.st = null;
    return saved;
  }

  /** @param {DecodeState | null} saved */
  leaveCall(saved) {
    this.st = saved;
    this.npend = 0;
  }

  /**
   * Decode one CBOR item.
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @param {number | {start?: number, end?: number}} [end] cbor-x's end offset (the item is in
   *   source's first `end` bytes), or {start, end}: decode only that part of source
   * @returns {any}
   */
  decode(source, end) {
    if (this.limitsVersion !== sizeLimits.version) this.applySizeLimits();
    const saved = this.enterCall();
    try {
      const v = super.unpack(source, end);
      return this.mapKey === null ? v : this.unmapped(v);
    } finally {
      this.leaveCall(saved);
    }
  }

  /**
   * Decode a CBOR sequence (RFC 8742). Returns the items, or calls forEach(item) for each and
   * stops when it returns false. Records defined by an item stay defined for the items after
   * it (as cbor-x). A truncated last item throws a DecodeError with `incomplete`, the items
   * before it (`values`) and where it starts (`lastPosition`).
   * @overload
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @returns {any[]}
   */
  /**
   * @overload
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @param {(value: any) => unknown} forEach
   * @returns {void}
   */
  /**
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @param {(value: any) => unknown} [forEach]
   * @returns {any[] | void}
   */
  decodeMultiple(source, forEach) {
    if (this.limitsVersion !== sizeLimits.version) this.applySizeLimits();
    const saved = this.enterCall();
    try {
      if (this.mapKey === null) return super.unpackMultiple(source, /** @type {any} */ (forEach && ((v) => forEach(v))));
      /** @type {any[] | undefined} */
      const out = /** @type {any} */ (super.unpackMultiple(source, /** @type {any} */ (forEach && ((v) => forEach(this.unmapped(v))))));
      return out && out.map((v) => this.unmapped(v));
    } catch (e) {
      if (this.mapKey !== null && e instanceof DecodeError && e.values) e.values = e.values.map((v) => this.unmapped(v));
      throw e;
    } finally {
      this.leaveCall(saved);
    }
  }

  /**
   * decode under the MessagePack name this class inherits (cbor-x's Decoder has none): the same
   * CBOR decode, keyMap and nested calls included.
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @param {number | {start?: number, end?: number}} [end]
   * @returns {any}
   */
  unpack(source, end) {
    return this.decode(source, end);
  }

  /**
   * decodeMultiple under its inherited MessagePack name (forEach is given each item alone).
   * @overload
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @returns {any[]}
   */
  /**
   * @overload
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @param {(value: any, start: number, end: number) => unknown} forEach
   * @returns {void}
   */
  /**
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @param {(value: any, start: number, end: number) => unknown} [forEach]
   * @returns {any[] | void}
   */
  unpackMultiple(source, forEach) {
    return this.decodeMultiple(source, /** @type {any} */ (forEach));
  }

  /**
   * freezeData: a decoded item, frozen with its Tags; under keyMap, after the renaming (unmapped).
   * @param {any} value
   * @returns {any}
   */
  freezeValue(value) {
    return this.mapKey === null ? freezeDecoded(value, Tag) : value;
  }

  /**
   * keyMap: a decoded item with its keys mapped back (unmapKeys), then frozen under freezeData.
   * @param {any} v
   * @returns {any}
   */
  unmapped(v) {
    const u = this.unmapKeys(v);
    return this.freezeData === true ? freezeDecoded(u, Tag) : u;
  }

  /**
   * keyMap: a key as it was before mapping (cbor-x's decodeKey).
   * @param {any} k
   */
  decodeKey(k) {
    return (this.mapKey !== null && this.mapKey.get(k)) || k;
  }

  /**
   * keyMap: the key a property name is written as (cbor-x's encodeKey).
   * @param {any} key
   */
  encodeKey(key) {
    return mappedKey(this.keyMap, key);
  }

  /**
   * cbor-x's experimental `_keyMap`: a plain object as a Map with its keys mapped (anything else
   * as it is).
   * @param {any} rec
   * @returns {any}
   */
  encodeKeys(rec) {
    return encodeKeysOf(this, rec);
  }

  /**
   * cbor-x's experimental `_keyMap`: a Map as an object with its keys mapped back (anything else,
   * and a Map with a key no property name can be, as it is).
   * @param {any} map
   * @returns {any}
   */
  decodeKeys(map) {
    return decodeKeysOf(this, map);
  }

  /**
   * cbor-x's experimental `_keyMap` decoding: decode, and when the item is an array, each of its
   * elements through decodeKeys (what mapEncode wrote as Maps become objects again).
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @param {number | {start?: number, end?: number}} [end] as decode
   * @returns {any}
   */
  mapDecode(source, end) {
    return mapDecoded(this, this.decode(source, end));
  }

  /**
   * keyMap: maps (which arrive as Maps) become objects with their keys mapped back; Maps from
   * tag 259 stay Maps; a map with a key that cannot be a property name stays a Map. Each value
   * is visited once (`seen`: what it became), so that shared values (structuredClone) stay one
   * value and cycles end; containers that stay what they are change in place.
   * @param {any} v
   * @param {Map<object, any>} [seen]
   * @returns {any}
   */
  unmapKeys(v, seen = new Map()) {
    if (v === null || typeof v !== 'object') return v;
    const done = seen.get(v);
    if (done !== undefined) return done;
    if (Array.isArray(v)) {
      seen.set(v, v);
      for (let i = 0; i < v.length; i++) v[i] = this.unmapKeys(v[i], seen);
      return v;
    }
    if (v instanceof Map) {
      const keep = this.st !== null && this.st.keep !== null && this.st.keep.has(v);
      const entries = [...v];
      if (!keep && this.mapsAsObjects && propertyKeys(v)) {
        /** @type {Record<string, unknown>} */
        const o = {};
        seen.set(v, o);
        for (const [k, x] of entries) setProp(o, propKey(this.decodeKey(k)), this.unmapKeys(x, seen));
        return o;
      }
      seen.set(v, v);
      v.clear();
      for (const [k, x] of entries) v.set(keep ? k : this.decodeKey(k), this.unmapKeys(x, seen));
      return v;
    }
    if (v instanceof Set) {
      seen.set(v, v);
      const items = [...v];
      v.clear();
      for (const x of items) v.add(this.unmapKeys(x, seen));
      return v;
    }
    seen.set(v, v);
    if (v instanceof Tag) {
      v.value = this.unmapKeys(v.value, seen);
      return v;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto === Object.prototype || proto === null) {
      for (const k of Object.keys(v)) v[k] = this.unmapKeys(v[k], seen);
    }
    return v;
  }

  /**
   * Whether Decoder#decodeTag's own handling decides what `tag` becomes: no extension has the
   * tag, and decodeTag is not overridden (the tape fast paths below stand in for it).
   * @param {number} tag
   * @returns {boolean}
   */
  tagIsBuiltIn(tag) {
    return (extensionsByTag.size === 0 || !extensionsByTag.has(tag)) && this.decodeTag === builtInDecodeTag;
  }

  /**
   * A record (tag 0xe000 + id) whose array of values, as many as its keys, is next on the tape:
   * the object, built by the record's shape (decode.js Shape: a generated literal, or the
   * eval-free path) from the values on the tape, with no array in between. NOT_A_RECORD, for
   * decodeTag to handle, when an extension has the tag, decodeTag is overridden, a keyMap is
   * set, the id has no keys yet, or the array is not exactly as long as they are.
   * @param {number} tag
   * @param {TapeReader} r
   * @returns {any}
   */
  tapeRecord(tag, r) {
    if (!this.tagIsBuiltIn(tag) || this.mapKey !== null) return NOT_A_RECORD;
    const id = tag - RECORD_FIRST;
    // (an id not defined yet is left to decodeTag, which loads shared structures for it once)
    const st = this.state();
    const keys = st.recs[id];
    if (keys === st.lastKeys && (r.w[r.t] >>> 8) === keys.length) {
      r.t++;
      return /** @type {Shape} */ (st.lastShape).build(r);
    }
    // no keys as the tag opens (recordUndefined): a Tag, even when its content defines the id
    // (cbor-x decides as the tag opens)
    if (!Array.isArray(keys) && !this.getShared) return new Tag(r.v(), tag);
    if (!Array.isArray(keys) || (r.w[r.t] >>> 8) !== keys.length) return NOT_A_RECORD;
    const b = this.#slotFor(st, id, keys).b;
    if (b === NO_BUILDER) return NOT_A_RECORD; // keys that are not all strings: record() converts them
    const shape = b.shape || (b.shape = new Shape(b.keys, true));
    st.lastKeys = keys;
    st.lastShape = shape;
    r.t++; // the array's header
    return shape.build(r);
  }

  /**
   * What C may build itself for this Decoder (decode.js runDecode): Dates from tag 1 over a
   * number when decodeTag decides tag 1, records defined where they appear when tapeInline
   * would build them (no keyMap, decodeTag deciding tag 0xdfff), packed references as map keys
   * resolved to the strings of their packed item's table (decodeTag deciding tag 6); and whether
   * packed references are strings as map keys outside packed items too (sharedValues).
   * @returns {number}
   */
  cDecodeFlags() {
    const shared = this.sharedValues ? F_CBOR_SHARED : 0;
    // (tagIsBuiltIn for both tags, its decodeTag test made once)
    if (this.decodeTag !== builtInDecodeTag) return shared;
    const noExtensions = extensionsByTag.size === 0;
    return shared | (noExtensions || !extensionsByTag.has(1) ? F_CBOR_DATES : 0) |
      (this.mapKey === null && (noExtensions || !extensionsByTag.has(RECORD_INLINE)) ? F_CBOR_RECS : 0) |
      (noExtensions || !extensionsByTag.has(PACKED_REF) ? F_CBOR_PACKED : 0);
  }

  /**
   * A record defined where it appears whose keys C interned as shape `sid` (a CREC entry, for
   * what tapeInline does with the keys as strings): the id defined with a fresh copy of the
   * keys and its slot in this call set for the references after it (tapeRecord), now or, while
   * the call has no state, when it needs one (state()); and the shape that builds the object
   * from the values next on the tape.
   * @param {number} id @param {number} sid @param {TapeReader} r
   * @returns {Shape}
   */
  crecShape(id, sid, r) {
    const rt = r.rt;
    /** @type {RecordBuilder | undefined} */
    let b = rt.crecBuilders[sid];
    if (b === undefined) {
      const shape = r.recordShapeOf(sid);
      b = rt.crecBuilders[sid] = { seen: 0, fn: null, keys: shape.keys, shape };
    }
    if (this.st === null && !this.structures) {
      // no state yet, and the call's ids are its own (no structures): the definition waits
      // until the call needs its state, which a message that only defines its records never
      // does (a state, its two tables, the copy of the keys and a slot for every message of
      // new Encoder() were a fifth of decoding small ones)
      const p = this.pend, n = this.npend;
      p[n] = id;
      p[n + 1] = b;
      this.npend = n + 2;
    } else {
      this.defineCrec(this.state(), id, b);
    }
    return /** @type {Shape} */ (b.shape);
  }

  /**
   * Record `id` defined in st with a fresh copy of builder b's keys.
   * @param {DecodeState} st @param {number} id @param {RecordBuilder} b
   */
  defineCrec(st, id, b) {
    const keys = b.keys.slice();
    st.recs[id] = keys;
    (st.rslots || (st.rslots = []))[id] = { keys, uses: 0, b };
  }

  /**
   * A record defined where it first appears (tag 0xdfff over [id, keys, ...values], what
   * `new Encoder()` writes for every first object of a shape in a message): the id defined, and
   * the object built by the keys' shape from the values on the tape, with no array of them in
   * between. NOT_A_RECORD, before anything is read, when decodeTag is not the built-in one; the
   * general way (the values in an array, then the record from it) when the id or keys are not
   * what a record takes, the values are not as many as the keys, or a keyMap is set.
   * @param {TapeReader} r
   * @returns {any}
   */
  tapeInline(r) {
    if (!this.tagIsBuiltIn(RECORD_INLINE)) return NOT_A_RECORD;
    const n = r.w[r.t] >>> 8;
    if (n < 2 || n === 0xffffff) return NOT_A_RECORD;
    r.t++; // the array's header
    const rawId = r.v(), keys = r.v();
    const id = typeof rawId === 'number' ? rawId - RECORD_FIRST : -1;
    if (id >= 0 && id < 8192 && Number.isInteger(id) && Array.isArray(keys) && keys.length === n - 2 && this.mapKey === null) {
      this.define(rawId, keys, r);
      const b = this.#slotFor(this.state(), id, keys).b;
      if (b !== NO_BUILDER) return (b.shape || (b.shape = new Shape(b.keys, true))).build(r);
    }
    // the general way (decodeTag's, built in: tagIsBuiltIn above), with the id defined once its
    // keys are read, before its values, as cbor-x does: a definition of the same id among the
    // values is the one later uses take (defined after them, the outer keys took its place)
    if (!Array.isArray(keys)) throw new DecodeError('BAD_RECORD', 0, 'Structure is required in record definition');
    this.define(rawId, keys, r);
    const value = [rawId, keys];
    for (let i = 2; i < n; i++) value.push(r.v());
    return this.recordAt(id, keys, value, 2);
  }

  /**
   * A typed-array tag (64-87) whose byte string is next on the tape: the typed array made from
   * the input's bytes, with no Buffer in between (decodeTag would get the bytes as a Buffer, then
   * view them again: two objects a value, 30% of a decode of many Uint8Arrays). NOT_A_RECORD,
   * for decodeTag to handle, when an extension has the tag, decodeTag is overridden, or the tag
   * or the length is not one typedFromBytes takes.
   * @param {number} tag
   * @param {TapeReader} r
   * @returns {any}
   */
  tapeTyped(tag, r) {
    if (!this.tagIsBuiltIn(tag)) return NOT_A_RECORD;
    const entry = typedByTag.get(tag);
    if (entry === undefined) return NOT_A_RECORD;
    const [C, size] = entry;
    const w = r.w, t = r.t;
    const n = w[t + 1] >>> 0, off = w[t + 2] >>> 0;
    if (n % size !== 0) return NOT_A_RECORD;
    r.t = t + 3; // the byte string's entry
    if (!this.copyBuffers && (size === 1 || (((tag - 64) & 4) !== 0) === LITTLE_ENDIAN)) {
      const at = r.inputAt(off);
      if (at % size === 0) return new C(/** @type {ArrayBuffer} */ (r.inBuf), at, n / size);
    }
    return typedFromBytes(tag, r.input.subarray(off, off + n), true);
  }

  /**
   * @param {number | bigint} tag
   * @param {any} value
   * @param {TapeReader} [reader] the reader of the call (record keys are checked against it)
   * @returns {any}
   */
  decodeTag(tag, value, reader) {
    if (typeof tag === 'number') {
      const ext = extensionsByTag.size !== 0 ? extensionsByTag.get(tag) : undefined;
      if (ext && ext.decode) return ext.decode(value);
      switch (tag) {
        case 0: if (typeof value === 'string') return new Date(value); break;
        case 1:
          if (typeof value === 'number') return new Date(secondsToMs(value));
          if (typeof value === 'bigint') return new Date(Number(value) * 1000);
          break;
        case 2: if (value instanceof Uint8Array) return this.bignum(magnitudeFrom(value)); break;
        case 3: if (value instanceof Uint8Array) return this.bignum(-1n - magnitudeFrom(value)); break;
        case 258: if (Array.isArray(value)) return new Set(value); break;
        case 27: {
          // a generic object (http://cbor.schmorp.de/generic-object), as cbor-x writes Errors and
          // RegExps: [name, ...arguments]; other names and malformed regular expressions stay Tags
          if (!Array.isArray(value) || typeof value[0] !== 'string') break;
          if (value[0] === 'RegExp') {
            if (typeof value[1] !== 'string' || (value[2] !== undefined && typeof value[2] !== 'string')) break;
            try {
              return new RegExp(value[1], value[2]);
            } catch {
              break;
            }
          }
          // (an Error's options may carry AggregateError's errors; they are a Map where maps
          // decode as Maps, as with new Decoder(): cbor-x then loses the cause)
          if (/Error$/.test(value[0])) {
            const options = value[2] instanceof Map ? errorOptions(value[2]) : value[2];
            return errorNamed(value[0], value[1], options, options != null ? options.errors : undefined);
          }
          break;
        }
        case 259:
          if (value instanceof Map) {
            if (this.mapKey === null) return value;
            // keyMap: the Map stays one, with its keys mapped back; in place, as references to
            // it (28/29) may hold it already
            const st = this.state();
            const entries = [...value];
            value.clear();
            for (const [k, x] of entries) value.set(this.decodeKey(k), x);
            (st.keep || (st.keep = new WeakSet())).add(value);
            return value;
          }
          break;
        case 55799: return value;
        case PACKED_REF: return this.packedRef(value);
        case 14: case 15: {
          const st = this.st;
          if (st !== null && st.bundle !== null) {
            // inside a bundle: the next `value` characters of the bundle's string. A count that is
            // no non-negative integer (or no number: cbor-x then adds it to its position, and
            // every later string of the bundle comes out wrong), or that runs past the string, is
            // malformed (cbor-x reads a shorter string, or '', and moves on: a wrong string, silently)
            const s = st.bundle[tag - 14], at = tag === 14 ? st.b0 : st.b1;
            if (!(Number.isInteger(value) && value >= 0 && value <= s.length - at)) {
              throw new DecodeError('BAD_BUNDLE', 0, `A bundled string reference (tag ${tag}) to ${typeof value === 'number' ? value : `a ${typeof value}, not a count of`} characters from character ${at} of its bundle's ${s.length}`);
            }
            if (tag === 14) st.b0 = at + value;
            else st.b1 = at + value;
            return s.slice(at, at + value);
          }
          break;
        }
        case BUNDLE_TAG: if (Array.isArray(value) && value.length >= 2) return value[value.length - 1]; break;
        case PACKED_TABLE:
          if (Array.isArray(value) && value.length === 4) return value[3];
          throw new DecodeError('BAD_RECORD', 0, 'Packed values structure must be followed by a 4 element array');
        case LEGACY_RECORD:
          if (Array.isArray(value) && value.length >= 2) {
            this.define(value[0], value[1], reader);
            return this.record(value[1], value, 2, false);
          }
          break;
        case RECORD_INLINE:
          if (Array.isArray(value) && value.length >= 2) {
            if (!Array.isArray(value[1])) throw new DecodeError('BAD_RECORD', 0, 'Structure is required in record definition');
            this.define(value[0], value[1], reader);
            return this.recordAt(typeof value[0] === 'number' ? value[0] - RECORD_FIRST : -1, value[1], value, 2);
          }
          break;
        case RECORD_DEFINITIONS:
          if (Array.isArray(value) && value.length >= 2) {
            let id = value[0];
            for (let i = 1; i < value.length - 1; i++) this.define(id++, value[i], reader);
            const last = value[value.length - 1];
            const st = this.state();
            if (last !== null && last === st.shrd) last.structures = st.recs.slice(0);
            return last;
          }
          break;
        case SHARED_DATA_TAG: {
          const st = this.state();
          return (st.shrd = { packedValues: st.packed, structures: st.recs.slice(0), version: value });
        }
        default:
          if (tag >= RECORD_FIRST && tag <= 0xffff && Array.isArray(value)) {
            const id = tag - RECORD_FIRST;
            const keys = this.structure(id);
            if (keys) return this.recordAt(id, keys, value, 0);
            break;
          }
          if (tag >= 64 && tag <= 87 && value instanceof Uint8Array) {
            const typed = typedFromBytes(tag, value, this.copyBuffers);
            if (typed !== undefined) return typed;
            break;
          }
          if (tag >= 216 && this.st !== null && this.st.packed) {
            const p = this.st.packed;
            if (tag >= 225 && tag <= 255) return combine(affix(p.prefixes, tag - 224), value);
            if (tag >= 28704 && tag <= 32767) return combine(affix(p.prefixes, tag - 28672), value);
            if (tag >= 1879052288 && tag <= 2147483647) return combine(affix(p.prefixes, tag - 1879048192), value);
            if (tag <= 223) return combine(value, affix(p.suffixes, tag - 216));
            if (tag >= 27647 && tag <= 28671) return combine(value, affix(p.suffixes, tag - 27639));
            if (tag >= 1811940352 && tag <= 1879048191) return combine(value, affix(p.suffixes, tag - 1811939328));
          }
      }
    }
    return new Tag(value, tag);
  }

  /**
   * A marker of wp_cbor.c around what must be known before the items after it (tags 2^64 - 3 *
   * 2^16 and up, which no input may use: C rejects them): a bundle's strings, a record's keys, a
   * packed item's tables. They never reach decodeTag, so a subclass's decodeTag never sees them.
   * @param {number} lo the tag's low 32 bits (the high ones are all set)
   * @param {any} value
   * @param {TapeReader} [reader] the call's reader
   * @returns {any}
   */
  decodeMarker(lo, value, reader) {
    if (lo === MARK_BUNDLE_LO) {
      // [s0, s1, offset] before the bundle's value
      const st = this.state();
      st.bundle = [String(value[0]), String(value[1])];
      st.b0 = st.b1 = 0;
      return value[2];
    }
    if (lo >= MARK_REC_LO) {
      if (Array.isArray(value)) this.define(lo - MARK_REC_LO, value, reader);
      return value;
    }
    if (lo >= MARK_PACK_LO && lo <= MARK_PACK_LO + 2) {
      this.packedTable(lo - MARK_PACK_LO, value);
      return value;
    }
    return new Tag(value, 0xffffffff00000000n + BigInt(lo)); // (C writes no other)
  }

  /**
   * Define record `rawId - 0xe000` (ids outside 0..8191 can never be referenced).
   * @param {unknown} rawId @param {unknown} keys
   * @param {TapeReader} [reader] the call's reader (keys that are an array it is still filling
   *   are refused, whatever the id: openKeys)
   */
  define(rawId, keys, reader) {
    openKeys(reader, keys);
    if (typeof rawId !== 'number' || !Array.isArray(keys)) return;
    const id = rawId - RECORD_FIRST;
    if (id >= 0 && id < 8192 && Number.isInteger(id)) this.state().recs[id] = keys;
  }

  /**
   * The keys of record `id`, loading shared structures (getStructures) when it is unknown.
   * @param {number} id
   * @returns {any[] | undefined}
   */
  structure(id) {
    const st = this.state();
    let keys = st.recs[id];
    if (keys === undefined && this.getShared) {
      this.loadShared();
      keys = st.recs[id];
    }
    return Array.isArray(keys) ? keys : undefined;
  }

  /** cbor-x's loadShared: structures and packed values from getStructures. */
  loadShared() {
    const st = this.state();
    const shared = (this.getShared && this.getShared()) || {};
    const updated = Array.isArray(shared) ? shared : shared.structures || [];
    /** @type {any} */ (this).sharedVersion = shared.version;
    if (!Array.isArray(shared)) {
      this.sharedValues = shared.packedValues;
      // (as a call that starts with them has them: cbor-x's own first call leaves out the
      // private ones, its later calls do not)
      st.packed = shared.packedValues ? sharedTable(this, shared.packedValues) : shared.packedValues;
    }
    st.recs.splice(0, updated.length, ...updated);
  }

  /**
   * An object from a record's keys and the values in `vals` from index `from`.
   * @param {any[]} keys @param {any[]} vals @param {number} from @param {boolean} mapped apply keyMap
   */
  record(keys, vals, from, mapped) {
    const km = mapped && this.mapKey !== null;
    /** @type {Record<string, unknown>} */
    const o = {};
    for (let i = from; i < vals.length; i++) {
      const k = keys[i - from];
      setProp(o, propKey(km ? this.decodeKey(k) : k), vals[i]);
    }
    return o;
  }

  /** Builders by the keys' text: a record defined again (each call, or each message of a
   * sequential stream) finds the builder made for the same keys before. */
  /** @type {Map<string, RecordBuilder> | null} (made on first use: a Decoder made for one call
   * should cost little more than msgpackr's) */
  #builders = null;

  /** The builder each record id last had (#slotFor; ids are below 8192). */
  /** @type {(RecordBuilder | undefined)[] | null} */
  #byId = null;

  /**
   * An object of record `id` with values vals[from...]: by a generated object literal once its
   * keys have been met in two calls (a record is defined again in each call, or in each message
   * of a sequential stream) or RECORD_CODEGEN_IN_CALL times in one; eval-free (record())
   * otherwise. Keyed stores on {} (a megamorphic site) were most of a records decode: 2.4 of
   * 9 s in a profile of example4, 15% of a CBOR stream decode.
   * @param {number} id @param {any[]} keys @param {any[]} vals @param {number} from
   */
  recordAt(id, keys, vals, from) {
    // (one or two keys: two keyed stores cost less than finding the builder)
    if (keys.length > 2 && this.mapKey === null && vals.length - from === keys.length && this.codegen !== false && id >= 0 && id < 8192 && Number.isInteger(id)) {
      const s = this.#slotFor(this.state(), id, keys);
      const b = s.b;
      if (b.fn === null && b !== NO_BUILDER && (b.seen >= 2 || ++s.uses >= RECORD_CODEGEN_IN_CALL) && canCodegen()) b.fn = compileRecord(keys);
      if (b.fn !== null) return b.fn(vals, from);
    }
    return this.record(keys, vals, from, true);
  }

  /**
   * Record id's entry in this call (its keys, its uses in the call, its builder), made when the
   * id is met first or defined again: the builder is looked up once per id and call.
   * @param {DecodeState} st @param {number} id @param {any[]} keys
   * @returns {RecordSlot}
   */
  #slotFor(st, id, keys) {
    const slots = st.rslots || (st.rslots = []);
    const s = slots[id];
    if (s !== undefined && s.keys === keys) return s;
    // the id's builder from an earlier call when its keys are the same strings (with shared
    // structures, every call meets the same keys; their text joined and looked up for each id
    // was a quarter of decoding example4)
    const byId = this.#byId || (this.#byId = []);
    let b = byId[id];
    if (b !== undefined && sameKeys(b.keys, keys)) b.seen++;
    else {
      b = this.#builderFor(keys);
      if (b !== NO_BUILDER) byId[id] = b;
    }
    return (slots[id] = { keys, uses: 0, b });
  }

  /**
   * The builder entry of a key list, counted as met once more; NO_BUILDER for keys that are not
   * all strings.
   * @param {any[]} keys
   * @returns {RecordBuilder}
   */
  #builderFor(keys) {
    for (let i = 0; i < keys.length; i++) if (typeof keys[i] !== 'string') return NO_BUILDER;
    const text = keys.join('\u0000');
    const builders = this.#builders || (this.#builders = new Map());
    let b = builders.get(text);
    if (b !== undefined && !sameKeys(b.keys, keys)) b = undefined; // keys holding U+0000
    if (b === undefined) {
      if (builders.size >= RECORD_BUILDERS_MAX) builders.clear();
      b = { seen: 0, fn: null, keys: keys.slice() };
      builders.set(text, b);
    }
    b.seen++;
    return b;
  }

  /**
   * A packed table element, met before the items after it (marker tags from wp_cbor.c).
   * @param {number} which 0 values, 1 prefixes, 2 suffixes @param {any} value
   */
  packedTable(which, value) {
    const st = this.state();
    if (which === 0) {
      if (!Array.isArray(value) || value.length === 0) throw new DecodeError('BAD_RECORD', 0, 'Packed values structure must be followed by a 4 element array');
      st.packed = st.packed ? value.concat(st.packed.slice(value.length)) : value;
    } else if (st.packed) {
      st.packed[which === 1 ? 'prefixes' : 'suffixes'] = value;
    }
  }

  /**
   * Tag 6: a packed reference.
   * @param {any} data
   */
  packedRef(data) {
    const p = this.packedOrShared();
    if (!p) return new Tag(data, PACKED_REF);
    if (typeof data === 'number') {
      const i = 16 + (data >= 0 ? 2 * data : -2 * data - 1);
      // (cbor-x gives undefined for a reference past its table: a value lost silently)
      if (i < p.length) return p[i];
      throw new DecodeError('BAD_REFERENCE', 0, `A packed reference (tag 6) to value ${i} of a table of ${p.length}`);
    }
    throw new DecodeError('BAD_RECORD', 0, 'No support for non-integer packed references yet');
  }

  /** @param {bigint} v */
  bignum(v) {
    switch (this.bignumAs) {
      case 'number': return Number(v);
      case 'string': return v.toString();
      case 'auto': return v >= -9007199254740992n && v <= 9007199254740992n ? Number(v) : v;
      default: return v;
    }
  }

  /**
   * Whether record tag `tag` has no keys as it opens (none defined, none shared to load), so that
   * a shareable one is made a Tag first (TapeReader#shareable).
   * @param {number} tag
   */
  recordUndefined(tag) {
    if (tag < RECORD_FIRST || tag > 0xffff || this.getShared || !this.tagIsBuiltIn(tag)) return false;
    return !Array.isArray(this.state().recs[tag - RECORD_FIRST]);
  }

  /**
   * A shareable tag's Tag, made before its content so that references inside reach it.
   * @param {number} tag
   */
  tagPlaceholder(tag) {
    return new Tag(undefined, tag);
  }

  /**
   * Simple values: packed references (0-15 in a packed item), else a Simple.
   * @param {number} value
   */
  decodeSimple(value) {
    const packed = this.packedOrShared();
    if (packed) {
      const p = packed[value];
      if (p !== undefined) return p;
    }
    return new Simple(value);
  }

  /** The packed values in effect (a packed item's, or the shared ones), if any. */
  packedNow() {
    const st = this.st !== null ? this.st : this.sharedValues ? this.state() : null;
    return st !== null ? st.packed : null;
  }

  /**
   * The packed values in effect, or else the shared ones getShared (getStructures) gives, asked
   * once in a call (as cbor-x does at a packed reference or a simple value 0-15 with no table;
   * a simple value read as Simple before that was the value lost).
   * @returns {any}
   */
  packedOrShared() {
    const p = this.packedNow();
    if (p || !this.getShared) return p;
    const st = this.state();
    if (!st.sharedAsked) {
      st.sharedAsked = true;
      this.loadShared();
    }
    return st.packed;
  }
}

/* ------------------------------------------------------------------ encoder */

const keyEncoder = new TextEncoder();

/**
 * The head of major type `major` over n (a number or BigInt below 2^64), shortest, then `tail`.
 * @param {number} major @param {number | bigint} n @param {ArrayLike<number>} [tail]
 * @returns {Uint8Array}
 */
export function cborHead(major, n, tail) {
  if (typeof n === 'bigint' && n < 0x100000000n) n = Number(n);
  const m = major << 5;
  const size = typeof n !== 'number' || n >= 0x100000000 ? 8 : n < 24 ? 0 : n < 0x100 ? 1 : n < 0x10000 ? 2 : 4;
  const out = new Uint8Array(1 + size + (tail ? tail.length : 0));
  if (size === 0) {
    out[0] = m | /** @type {number} */ (n);
  } else if (size < 8) {
    out[0] = m | (size === 1 ? 24 : size === 2 ? 25 : 26);
    for (let i = 0, v = /** @type {number} */ (n); i < size; i++, v = Math.floor(v / 256)) out[size - i] = v & 0xff;
  } else {
    out[0] = m | 27;
    const big = BigInt(n);
    for (let i = 0; i < 8; i++) out[8 - i] = Number((big >> BigInt(8 * i)) & 0xffn);
  }
  if (tail) out.set(tail, 1 + size);
  return out;
}

/**
 * A float as deterministic encoding writes it: the shortest of half, single and double that
 * holds it exactly (NaN as f9 7e00), or always a double with the float64 option.
 * @param {number} v @param {boolean} f64
 * @returns {Uint8Array}
 */
function cborFloat(v, f64) {
  const dv = new DataView(new ArrayBuffer(9));
  if (!f64 && Number.isNaN(v)) return Uint8Array.of(0xf9, 0x7e, 0x00);
  if (!f64 && Math.fround(v) === v) {
    // a half: 0, the infinities, or a value m * 2^(e - 10) with 1024 <= m < 2048 (e in -14..15),
    // or m * 2^-24 with m < 1024
    const a = Math.abs(v), sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
    let half = -1;
    if (a === 0) half = sign;
    else if (a === Infinity) half = sign | 0x7c00;
    else if (a < 65520) {
      let e = Math.floor(Math.log2(a));
      if (2 ** e > a) e--;
      else if (2 ** (e + 1) <= a) e++;
      if (e < -14) {
        const m = a * 2 ** 24;
        if (Number.isInteger(m)) half = sign | m;
      } else if (e <= 15) {
        const m = a * 2 ** (10 - e);
        if (Number.isInteger(m)) half = sign | ((e + 15) << 10) | (m - 1024);
      }
    }
    if (half >= 0) return Uint8Array.of(0xf9, half >> 8, half & 0xff);
    dv.setUint8(0, 0xfa);
    dv.setFloat32(1, v);
    return new Uint8Array(dv.buffer, 0, 5);
  }
  dv.setUint8(0, 0xfb);
  dv.setFloat64(1, v);
  return new Uint8Array(dv.buffer);
}

/**
 * A map key's deterministic encoding, which orders a map's entries (Encoder#writeSortedEntries),
 * as the Encoder writes it: text, numbers (32-bit integers as integers unless alwaysUseFloat,
 * other numbers as floats, float32 under useFloat32), BigInts (64-bit heads, tags 2/3 past them,
 * or floats with largeBigIntToFloat), booleans, null and undefined. Any other key throws (and a
 * number under DECIMAL_FIT): its bytes, and so its place, are known only once C has written them.
 * @param {unknown} k @param {Encoder} e
 * @returns {Uint8Array}
 */
function canonicalKey(k, e) {
  if (typeof k === 'string') {
    // (a packed or shared string is its reference, as writeStrings writes it)
    let i = e.packMap !== null ? e.packMap.get(k) : undefined;
    if (i === undefined && e.sharedMap !== null) i = e.sharedMap.get(k);
    if (i !== undefined) {
      if (i < 16) return Uint8Array.of(0xe0 + i);
      const n = i & 1 ? (15 - i) >> 1 : (i - 16) >> 1;
      return Uint8Array.of(0xc6, ...(n >= 0 ? cborHead(0, n) : cborHead(1, -1 - n)));
    }
    const u = keyEncoder.encode(k);
    return cborHead(3, u.length, u);
  }
  if (typeof k === 'number') {
    if (!e.alwaysUseFloat && !(k === 0 && 1 / k < 0)) {
      if ((k >>> 0) === k) return cborHead(0, k);
      if ((k >> 0) === k) return cborHead(1, -1 - k);
    }
    // (useFloat32: in its range, the float32 writeNumber writes; DECIMAL_FIT's choice is its own)
    if (e.useFloat32 > 0 && k < 4294967296 && k >= -2147483648) {
      if (e.useFloat32 < FLOAT32_OPTIONS.DECIMAL_FIT) return cborFloat(Math.fround(k), e.float64);
    } else {
      return cborFloat(k, e.float64);
    }
  } else if (typeof k === 'bigint') {
    // (largeBigIntToFloat first: -2^64 is among the BigInts it makes floats, as writeBigInt)
    if (e.largeBigIntToFloat && (k >= TWO64 || k <= -TWO64)) return cborFloat(Number(k), e.float64);
    if (k >= 0n && k < TWO64) return cborHead(0, k);
    if (k < 0n && k >= -TWO64) return cborHead(1, -1n - k);
    const bytes = bytesFromBig(k >= 0n ? k : -1n - k);
    return Uint8Array.of(k >= 0n ? 0xc2 : 0xc3, ...cborHead(2, bytes.length, bytes));
  } else if (k === false || k === true || k === null || k === undefined) {
    return Uint8Array.of(k === false ? 0xf4 : k === true ? 0xf5 : k === null ? 0xf6 : 0xf7);
  }
  throw new Error(`wirepack: deterministic encoding with structuredClone or records orders map keys that are strings, numbers, BigInts, booleans, null or undefined (not ${typeof k === 'object' ? 'an object' : typeof k === 'number' ? 'a number under useFloat32: DECIMAL_FIT' : 'a ' + typeof k})`);
}

/** The order of two encodings, bytewise (deterministic encoding's map key order). @param {Uint8Array} a @param {Uint8Array} b */
export function compareBytes(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/**
 * A Date's epoch seconds in the bytes cbor-x writes for them: a uint32 head (1a) when whole and
 * in 0..2^32-1, else float64 (fb); one RAW entry.
 * @param {Tape} T @param {number} sec
 */
function writeCborxSeconds(T, sec) {
  const whole = (sec >>> 0) === sec, len = whole ? 5 : 9;
  // (header, 3 words of bytes, and an aligned f64 past them that is not kept)
  if (T.p + 8 > T.cap) T.grow(8);
  writeHeader(T, E_RAW, len);
  const b = T.p << 2, u8 = T.u8;
  if (whole) {
    u8[b] = 0x1a; u8[b + 1] = sec >>> 24; u8[b + 2] = (sec >>> 16) & 0xff; u8[b + 3] = (sec >>> 8) & 0xff; u8[b + 4] = sec & 0xff;
  } else {
    const a = (T.p + 4) & ~1;
    T.f64[a >> 1] = sec;
    u8[b] = 0xfb;
    // (the tape is little-endian, as wasm memory is: its bytes reversed)
    for (let k = 0, s = (a << 2) + 7; k < 8; k++) u8[b + 1 + k] = u8[s - k];
  }
  T.p += (len + 3) >> 2;
}

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
 *   ... ff); ignored with `deterministic`, which requires definite lengths; turns bundleStrings off
 * @property {boolean} [tagUint8Array] tag Uint8Arrays with 64 (default true, as cbor-x; Buffers
 *   are always plain byte strings)
 * @property {boolean} [useTag259ForMaps] wrap Maps in tag 259 (default true; with records, only
 *   when asked, as cbor-x)
 * @property {boolean} [mapsAsObjects] as for the Decoder; with records on, `true` makes Maps
 *   tagged 259 (cbor-x's rule)
 * @property {number} [useFloat32] FLOAT32_OPTIONS, as for MessagePack
 * @property {boolean} [alwaysUseFloat] write every number, integers too, as a float
 * @property {boolean} [skipFunction] leave out object properties whose values are functions (cbor-x)
 * @property {boolean} [useTimestamp32] Dates in 0..2^32 s as whole seconds, milliseconds dropped (cbor-x)
 * @property {boolean} [useToJSON] write what toJSON returns for class instances that have one and
 *   are no type the encoder knows (off by default, as cbor-x; MessagePack's default is on)
 * @property {boolean} [useRecords] cbor-x's record extension (objects as tag 0xdfff definitions
 *   and 0xe000+id references). Default: on for `new Encoder()` (structuredClone too), off for
 *   `encode` (as cbor-x); off with wirepack's own deterministic and indefiniteLengths
 * @property {any[]} [structures] shared record structures (arrays of keys), updated as new ones
 *   are met (up to maxSharedStructures)
 * @property {() => any} [getStructures] loads the saved shared structures ({structures, version})
 * @property {(shared: any, isCompatible: (existing: any) => boolean) => boolean | void} [saveStructures]
 *   saves them when they change (returning false reloads them and encodes again)
 * @property {number} [maxSharedStructures] default 128 with shared structures, else 0
 * @property {boolean} [sequential] records stay defined from one encoding to the next (for a
 *   decoder that reads the encodings in order)
 * @property {Record<string, any>} [keyMap] property names -> shorter keys (cbor-x's keyMap)
 * @property {Record<string, any>} [_keyMap] cbor-x's experimental key map: mapEncode writes the
 *   plain objects of an array as Maps with their keys mapped, mapDecode maps them back (records
 *   off and Maps tagged 259, as keyMap)
 * @property {boolean} [pack] Packed CBOR: strings met twice or more go into a table (tag 51)
 *   and are referenced (simple values 0-15, tag 6)
 * @property {number} [maxPrivatePackedValues] most strings in that table
 * @property {any[]} [sharedValues] shared packed values: strings written as references to their
 *   index (after the maxPrivatePackedValues private ones when packing), which the decoding side
 *   must be given too (findCommonStringsToPack makes them)
 * @property {boolean} [bundleStrings] cbor-x's bundled strings: strings of 4 to 1023 characters
 *   are written as their length (tags 14/15) and joined into two strings at the end (tag 0xdff9
 *   holds where); both sides must support it (off with deterministic and with indefiniteLengths)
 * @property {number} [maxDepth] maximum nesting (default 1000)
 */

const TWO63 = 1n << 63n, TWO64 = 1n << 64n;
/** Transition-tree property holding a record id (cbor-x's RECORD_SYMBOL). */
const RECORD_ID = Symbol('record-id');
/** Transition-tree property caching the keys of a terminal. */
const RECORD_KEYS = Symbol('record-keys');
/** Most record ids an encoder cycles through (cbor-x's MAX_STRUCTURES). */
const MAX_STRUCTURES = 0x100;
/** Whether `new Encoder()` uses records when no option says (cbor-x: yes). */
const DEFAULT_USE_RECORDS = true;
const E_F32 = 7;
/** msgpackr's/cbor-x's table: binary exponent -> decimal multiplier (for DECIMAL_FIT). */
const mult10 = new Array(256);
for (let i = 0; i < 256; i++) mult10[i] = +('1e' + Math.floor(45.15 - i * 0.30103));

/**
 * Decoder#decodeTag as defined here: a Decoder whose decodeTag is this one (not overridden by a
 * subclass or on the instance) lets the tape fast paths stand in for it. (A constant: reading
 * `Decoder.prototype.decodeTag` on every call cost 5-10% of a small decode.)
 */
const builtInDecodeTag = Decoder.prototype.decodeTag;

/** What saveStructures is given (and what encoding it writes: tag 0xdffe, as cbor-x). */
export class SharedData {
  /**
   * @param {any[]} structures @param {any[] | undefined} packedValues @param {number} version
   */
  constructor(structures, packedValues, version) {
    this.structures = structures;
    this.packedValues = packedValues;
    this.version = version;
  }
}

/** A CBOR encoder with options (cbor-x's Encoder). */
export class Encoder extends Packr {
  /**
   * cbor-x's encodeAsIterable: the encoding as chunks, produced as they are consumed.
   * @param {unknown} value
   * @param {import('./iterators.js').IterableEncodeOptions} [options]
   */
  encodeAsIterable(value, options) {
    return encodeAsIterableWith(this, value, options);
  }

  /**
   * cbor-x's encodeAsAsyncIterable: like encodeAsIterable, Blobs and async iterables read.
   * @param {unknown} value
   * @param {import('./iterators.js').IterableEncodeOptions} [options]
   */
  encodeAsAsyncIterable(value, options) {
    return encodeAsAsyncIterableWith(this, value, options);
  }

  /** @param {Readonly<CborEncoderOptions>} [options] */
  constructor(options) {
    const o = options || {};
    super(o);
    const self = /** @type {any} */ (this);
    this.deterministic = o.deterministic === true;
    this.float64 = o.float64 === true;
    // as cbor-x: tag Uint8Arrays only where Buffer exists (so that plain byte strings, which
    // decode to Buffers there, stay distinguishable); browsers decode bytes to Uint8Array anyway
    this.tagUint8Array = o.tagUint8Array === undefined ? NodeBuffer !== undefined : o.tagUint8Array;
    this.indefiniteLengths = o.indefiniteLengths === true;
    this.useSelfDescribedHeader = o.useSelfDescribedHeader === true;
    this.structuredClone = o.structuredClone === true;
    this.alwaysUseFloat = o.alwaysUseFloat === true;
    // (Packr#write writes the other numbers, -0 excepted, as writeNumber below would)
    this.ownNumbers = this.alwaysUseFloat || this.writeNumber !== Encoder.prototype.writeNumber;
    /** cbor-x's skipFunction: leave out object properties whose values are functions */
    this.skipFunction = o.skipFunction === true;
    /** cbor-x's useToJSON: off unless asked (Packr's is on unless refused) */
    this.useToJSON = o.useToJSON === true;
    this.cborFlags = (this.deterministic ? DETERMINISTIC : 0) | (this.float64 ? FLOAT64 : 0) | (this.indefiniteLengths ? INDEFINITE : 0) |
      // useFloat32 / alwaysUseFloat choose float32 or float64 here, as cbor-x (a float64 that did
      // not qualify for float32 must not be shortened into one)
      (this.useFloat32 > 0 || this.alwaysUseFloat ? F64_ENTRIES : 0);
    // number runs (C writes each number as writeNumber below would): not when a number may be
    // written another way, nor with deterministic or indefinite lengths (C counts items there)
    this.cborNumRuns = !this.alwaysUseFloat && (this.cborFlags & (DETERMINISTIC | INDEFINITE)) === 0;

    /** @type {Record<string, any> | null} */
    this.keyMap = o.keyMap || null;
    /** keyMap's reverse (decodeKey), made when first needed @type {Map<any, string> | null} */
    this.mapKey = null;
    /** cbor-x's experimental key map (mapEncode, encodeKeys, decodeKeys, mapDecode) */
    /** @type {Record<string, any> | null} */
    this._keyMap = o._keyMap || null;
    /** its reverse, made when first needed @type {Map<any, string> | null} */
    this._mapKey = null;
    const hasShared = !!(o.structures || o.saveStructures || o.getStructures);
    /** the option as given (cbor-x's packing looks at it) */
    this.useRecordsOption = (o.keyMap || o._keyMap) && !o.useRecords ? false : o.useRecords;
    /** @type {boolean} */
    this.useRecords = this.useRecordsOption !== undefined ? this.useRecordsOption !== false
      : hasShared || o.sequential === true || (DEFAULT_USE_RECORDS && !this.deterministic && !this.indefiniteLengths);
    /** deterministic with structuredClone or records: maps are walked in the order C writes
     * their entries (writeSortedEntries), so that a shareable value comes before its references
     * and a record's definition before its other objects */
    this.sortEntries = this.deterministic && (this.structuredClone || this.useRecords);
    // cbor-x: Maps get tag 259 when maps decode as objects (records off), else only when asked;
    // a keyMap without records makes maps decode as objects whatever mapsAsObjects says (the
    // Decoder's rule, which cbor-x's Encoder inherits)
    const mapsAsObjects = (o.keyMap || o._keyMap) && !o.useRecords ? true : o.mapsAsObjects !== undefined ? o.mapsAsObjects : !this.useRecords;
    this.useTag259ForMaps = mapsAsObjects ? o.useTag259ForMaps !== false : o.useTag259ForMaps === true;

    // records (cbor-x's state lives on the encoder and persists between calls)
    /** @type {any} */
    const structures = o.structures || [];
    if (o.getStructures && !o.structures) structures.uninitialized = true;
    /** @type {any} */ (this).structures = structures;
    /** @type {(() => any) | null} */
    this.recGet = o.getStructures || null;
    /** @type {((shared: any, isCompatible: (existing: any) => boolean) => boolean | void) | null} */
    this.recSave = o.saveStructures || null;
    let maxShared = o.maxSharedStructures;
    if (maxShared == null) maxShared = hasShared ? 128 : 0;
    if (maxShared > 8190) throw new Error('Maximum maxSharedStructure is 8190');
    this.sequential = o.sequential === true;
    if (this.sequential) maxShared = 0;
    this.maxSharedStructures = maxShared;
    /** @type {number | undefined} */
    this.sharedVersion = undefined;
    /** shared packed values (cbor-x's): strings that are written as references to them */
    /** @type {any[] | undefined} */
    this.sharedValues = Array.isArray(o.sharedValues) ? o.sharedValues : undefined;
    /** string -> reference index of sharedValues (sharedMapOf its array, at sharedMapLen entries) */
    /** @type {Map<string, number> | null} */
    this.sharedMap = null;
    /** @type {any[] | null} */
    this.sharedMapOf = null;
    this.sharedMapLen = 0;
    /** findCommonStringsToPack's counts of the strings encoded until its function is called */
    /** @type {Map<string, number> | null} */
    this.sampling = null;
    /** transition nodes of ids defined in this call (cleared after it unless sequential) */
    /** @type {IdQueue<any>} */
    this.recordIdsToRemove = new IdQueue(MAX_STRUCTURES);
    this.transitionsCount = 0;
    this.serializationsSinceTransitionRebuild = 0;
    this.hasSharedUpdate = false;

    // packing
    this.packStrings = o.pack === true;
    /** @type {number | undefined} */
    this.maxPrivatePackedValues = o.maxPrivatePackedValues;
    /** strings of the packed table of the call in progress @type {string[] | null} */
    this.packTable = null;
    /** string -> index in it, once the table is written @type {Map<string, number> | null} */
    this.packMap = null;
    /** cbor-x's bundleStrings: not with deterministic, which moves bytes, nor with
     * indefiniteLengths, which made the bundle's own array [offset, value] indefinite, and that
     * neither decoder reads (cbor-x reads it by its length) */
    this.cborBundles = o.bundleStrings === true && !this.deterministic && !this.indefiniteLengths;
    /** the bundle of the call in progress @type {{s0: string, s1: string, size: number, open: boolean} | null} */
    this.bundle = null;
    // an own property on every Encoder, so that they all keep one hidden class (see the option slots in Unpackr's constructor)
    self.write = this.packStrings || this.cborBundles ? this.writeStrings : self.write;

    /** the decoder for this encoder's decode (cbor-x's Encoder is also a Decoder) */
    /** @type {Decoder | null} */
    this.decoder = null;
    /** @type {DecoderOptions} */
    this.decoderOptions = { ...o, mapsAsObjects, structures: undefined, useRecords: this.useRecords };
  }

  /**
   * The MessagePack record settings of Packr do not apply: CBOR records are set up here.
   * @param {Record<string, any>} _o
   */
  initRecords(_o) {}

  /** The record structures (cbor-x's `structures`). @type {any} */
  get recStructures() {
    return /** @type {any} */ (this).structures;
  }

  set recStructures(v) {
    /** @type {any} */ (this).structures = v;
  }

  /**
   * Encode a value as CBOR (a Buffer in Node, a Uint8Array elsewhere).
   * @param {unknown} value
   * @returns {EncodedBytes}
   */
  encode(value) {
    const records = this.useRecords;
    if (!records && !this.packStrings && !this.cborBundles && this.sampling === null && this.sharedValues === undefined) return super.pack(value); // the plain path
    if (records) this.startRecords();
    this.sharedMap = this.sharedValues !== undefined || this.sampling !== null ? this.sharedStrings() : null;
    this.packTable = this.packStrings ? this.findPacked(value) : null;
    const savedBundle = this.bundle;
    // as cbor-x: a bundle opens at the first string of 4 to 1023 characters (size Infinity)
    this.bundle = this.cborBundles && typeof value !== 'string' ? { s0: '', s1: '', size: Infinity, open: false } : null;
    /** @type {Uint8Array} */
    let out;
    let failed = true;
    try {
      out = super.pack(value);
      failed = false;
    } finally {
      this.bundle = savedBundle;
      this.packTable = null;
      this.packMap = null;
      if (records) this.endRecords(failed);
    }
    if (this.hasSharedUpdate && this.recSave) {
      this.hasSharedUpdate = false;
      if (this.recStructures.length > this.maxSharedStructures) this.recStructures = this.recStructures.slice(0, this.maxSharedStructures);
      if (this.updateSharedData() === false) return this.encode(value);
    }
    return /** @type {EncodedBytes} */ (out);
  }

  /**
   * Decode CBOR with this encoder's options (cbor-x's Encoder is a Decoder too); shared record
   * structures are this encoder's.
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @param {number | {start?: number, end?: number}} [end] as Decoder#decode
   * @returns {any}
   */
  decode(source, end) {
    return this.getDecoder().decode(source, end);
  }

  /**
   * Decode a CBOR sequence with this encoder's options (Decoder#decodeMultiple).
   * @overload
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @returns {any[]}
   */
  /**
   * @overload
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @param {(value: any) => unknown} forEach
   * @returns {void}
   */
  /**
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @param {(value: any) => unknown} [forEach]
   * @returns {any[] | void}
   */
  decodeMultiple(source, forEach) {
    return this.getDecoder().decodeMultiple(source, /** @type {any} */ (forEach));
  }

  /**
   * encode under the MessagePack name this class inherits from Packr (whose own would leave out
   * what encode adds: records, packed tables, bundles, shared values).
   * @param {unknown} value
   * @param {number} [_encodeOptions] msgpackr's mode flags, not used
   * @returns {EncodedBytes}
   */
  pack(value, _encodeOptions) {
    return this.encode(value);
  }

  /**
   * decode under the MessagePack name this class inherits from Packr (which would read
   * MessagePack).
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @param {number | {start?: number, end?: number}} [end]
   * @returns {any}
   */
  unpack(source, end) {
    return this.decode(source, end);
  }

  /**
   * decodeMultiple under its inherited MessagePack name (forEach is given each item alone).
   * @overload
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @returns {any[]}
   */
  /**
   * @overload
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @param {(value: any, start: number, end: number) => unknown} forEach
   * @returns {void}
   */
  /**
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @param {(value: any, start: number, end: number) => unknown} [forEach]
   * @returns {any[] | void}
   */
  unpackMultiple(source, forEach) {
    return this.decodeMultiple(source, /** @type {any} */ (forEach));
  }

  /** @returns {Decoder} */
  getDecoder() {
    const d = this.decoder || (this.decoder = new Decoder(this.decoderOptions));
    if (this.maxSharedStructures > 0 || this.sequential) {
      if (this.recStructures.uninitialized) this.startRecords();
      d.structures = this.recStructures;
      d.getShared = this.recGet;
    }
    // (the shared values this encoder writes references to, as they are now: given, made by
    // findCommonStringsToPack, or loaded with the structures just above)
    if (this.sharedValues !== undefined || this.sharedMapOf !== null) d.sharedValues = this.sharedValues;
    return d;
  }

  /** Before an encoding with records: load shared structures, rebuild transitions. */
  startRecords() {
    let structures = this.recStructures;
    if (structures.uninitialized) {
      const shared = (this.recGet && this.recGet()) || {};
      this.recStructures = structures = (Array.isArray(shared) ? shared : shared.structures) || [];
      this.sharedVersion = shared.version;
      this.sharedValues = shared.packedValues;
    }
    let n = structures.length;
    if (n > this.maxSharedStructures && !this.sequential) n = this.maxSharedStructures;
    if (!structures.transitions) {
      const root = (structures.transitions = Object.create(null));
      for (let i = 0; i < n; i++) {
        const keys = structures[i];
        if (!keys) continue;
        let transition = root;
        for (let j = 0; j < keys.length; j++) {
          if (transition[RECORD_ID] === undefined) transition[RECORD_ID] = i;
          const key = keys[j];
          transition = transition[key] || (transition[key] = Object.create(null));
        }
        transition[RECORD_ID] = i | 0x100000;
      }
    }
    if (!this.sequential) structures.nextId = n;
    this.hasSharedUpdate = false;
  }

  /**
   * After an encoding with records (cbor-x's bookkeeping, so ids are reused the same way).
   * @param {boolean} failed the encoding threw
   */
  endRecords(failed) {
    const structures = this.recStructures;
    if (this.serializationsSinceTransitionRebuild < 10) this.serializationsSinceTransitionRebuild++;
    // (ids from maxSharedStructures up are not stored: see writeRecord)
    if (structures.length > this.maxSharedStructures) structures.length = this.maxSharedStructures;
    const q = this.recordIdsToRemove;
    if (this.transitionsCount > 10000) {
      structures.transitions = null;
      this.serializationsSinceTransitionRebuild = 0;
      this.transitionsCount = 0;
      q.reset(undefined, true);
    } else if (q.n > 0 && (!this.sequential || failed)) {
      // (sequential: the ids a failed call defined never reached the decoder, which a later
      // message would then refer to; every id is forgotten, and later messages define theirs
      // again)
      for (let i = 0; i < q.n; i++) q.at(i)[RECORD_ID] = undefined;
      q.reset();
    }
  }

  /** Save the shared structures (cbor-x's updateSharedData). @returns {boolean | void} */
  updateSharedData() {
    const lastVersion = this.sharedVersion || 0;
    this.sharedVersion = lastVersion + 1;
    const copy = this.recStructures.slice(0);
    const shared = new SharedData(copy, this.sharedValues, this.sharedVersion);
    const saved = /** @type {Function} */ (this.recSave)(shared, (/** @type {any} */ existing) => ((existing && existing.version) || 0) == lastVersion);
    if (saved === false) {
      const loaded = (this.recGet && this.recGet()) || {};
      this.recStructures = (Array.isArray(loaded) ? loaded : loaded.structures) || [];
      this.sharedValues = loaded.packedValues;
      this.sharedVersion = loaded.version;
      this.recStructures.nextId = this.recStructures.length;
    } else {
      copy.forEach((s, i) => (this.recStructures[i] = s));
    }
    return saved;
  }

  /** Forget shared structures (cbor-x's clearSharedData). */
  clearSharedData() {
    if (this.recStructures) this.recStructures = [];
    if (this.sharedValues) this.sharedValues = undefined;
  }

  /**
   * The reference index of each string of sharedValues (after the maxPrivatePackedValues private
   * ones when packing, as a Decoder with `pack` reads them), made again when sharedValues is
   * another array or has grown; and from now on strings go through writeStrings.
   * @returns {Map<string, number>}
   */
  sharedStrings() {
    const sv = this.sharedValues || [];
    if (this.sharedMap === null || this.sharedMapOf !== sv || this.sharedMapLen !== sv.length) {
      const base = this.packStrings ? this.maxPrivatePackedValues || 16 : 0;
      const map = new Map();
      for (let i = 0; i < sv.length; i++) if (typeof sv[i] === 'string' && !map.has(sv[i])) map.set(sv[i], base + i);
      this.sharedMap = map;
      this.sharedMapOf = sv;
      this.sharedMapLen = sv.length;
    }
    /** @type {any} */ (this).write = this.writeStrings;
    return this.sharedMap;
  }

  /**
   * cbor-x's findCommonStringsToPack: from now on, count the strings encoded (with `pack`, once per
   * message each, as its table counts them); the function returned makes those counted more than
   * `threshold` times (default 4) shared values, written as references from then on, saves them
   * with the structures (saveStructures) and stops counting. The decoding side needs the same
   * sharedValues (this encoder's decode has them). Unlike cbor-x, the new values' indices follow
   * those already in sharedValues, and start after the private ones when packing (cbor-x numbers
   * them from the private count again, or from 0 for sharedValues given to the constructor with
   * `pack`, which its decoder then reads as other values).
   * @returns {(options?: {threshold?: number}) => void}
   */
  findCommonStringsToPack() {
    // (each encode makes the map of the shared values, and counts, while sampling is set)
    this.sampling = new Map();
    return (options) => {
      const counts = this.sampling;
      if (counts === null) return;
      const threshold = (options && options.threshold) || 4;
      const sv = this.sharedValues || (this.sharedValues = []);
      const have = this.sharedStrings();
      for (const [s, n] of counts) {
        if (n > threshold && !have.has(s)) {
          sv.push(s);
          this.hasSharedUpdate = true;
        }
      }
      this.sampling = null;
      while (this.recSave && this.updateSharedData() === false) {}
      // (saved here: the next encode has nothing more to save)
      this.hasSharedUpdate = false;
    };
  }

  /**
   * keyMap: the key a property is written with (cbor-x's encodeKey).
   * @param {any} key
   */
  encodeKey(key) {
    return mappedKey(this.keyMap, key);
  }

  /**
   * keyMap: a key as it was before mapping (cbor-x's decodeKey; cbor-x's Encoder is a Decoder).
   * @param {any} k
   */
  decodeKey(k) {
    if (this.keyMap === null) return k;
    const rev = this.mapKey || (this.mapKey = reverseKeys(this.keyMap));
    return rev.get(k) || k;
  }

  /**
   * cbor-x's experimental `_keyMap`: a plain object as a Map with its keys mapped (anything else
   * as it is).
   * @param {any} rec
   * @returns {any}
   */
  encodeKeys(rec) {
    return encodeKeysOf(this, rec);
  }

  /**
   * cbor-x's experimental `_keyMap`: a Map as an object with its keys mapped back (anything else,
   * and a Map with a key no property name can be, as it is).
   * @param {any} map
   * @returns {any}
   */
  decodeKeys(map) {
    return decodeKeysOf(this, map);
  }

  /**
   * cbor-x's experimental `_keyMap` encoding: when value is an array, its plain objects are
   * written as Maps with their keys mapped (encodeKeys; tag 259 keeps them Maps), then encode.
   * @param {unknown} value
   * @returns {Uint8Array}
   */
  mapEncode(value) {
    if (this._keyMap !== null && Array.isArray(value)) value = value.map((r) => this.encodeKeys(r));
    return this.encode(value);
  }

  /**
   * cbor-x's experimental `_keyMap` decoding: decode, and when the item is an array, each of its
   * elements through decodeKeys.
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @param {number | {start?: number, end?: number}} [end] as decode
   * @returns {any}
   */
  mapDecode(source, end) {
    return mapDecoded(this, this.decode(source, end));
  }

  /**
   * Before the top-level value: the self-describe tag when asked for, then the packed table.
   * @param {Tape} T
   */
  writePrefix(T) {
    if (this.structuredClone) T.refs = new Map();
    if (this.useSelfDescribedHeader) this.writeTag(T, 55799);
    if (this.packTable !== null) this.writePackedTable(T);
    // the options that keep plain objects off writePlainMap, tested once per call (after the
    // packed table, whose strings make keys references too)
    T.plainMaps = T.forIn && !this.useRecords && this.keyMap === null && this.packMap === null && this.sharedMap === null && this.skipFunction !== true &&
      !this.sortEntries;
  }

  /**
   * Packed CBOR: the call's table of repeated strings (tag 51), before the value, and the map
   * that writeStrings refers to them by (out of writePrefix, which runs on every call and stays
   * small enough for the engine to inline).
   * @param {Tape} T
   */
  writePackedTable(T) {
    const table = /** @type {string[]} */ (this.packTable);
    if (table.length > 0) {
      this.packTable = null;
      this.writeTag(T, PACKED_TABLE);
      writeHeader(T, E_ARR, 4);
      writeHeader(T, E_ARR, table.length);
      for (const s of table) this.write(T, s, 0);
      writeHeader(T, E_ARR, 0); // prefixes
      writeHeader(T, E_ARR, 0); // suffixes
      const map = new Map();
      for (let i = 0; i < table.length; i++) map.set(table[i], i);
      this.packMap = map;
    }
  }

  /**
   * Packed CBOR: the strings (longer than 3) met at least twice, in the order of their second
   * occurrence (cbor-x's findRepetitiveStrings, which counts keys too unless useRecords is set).
   * @param {unknown} value
   * @returns {string[]}
   */
  findPacked(value) {
    /** @type {Map<string, number>} */
    const counts = new Map();
    /** @type {string[]} */
    const values = [];
    const shared = this.sharedMap, sampling = this.sampling;
    const max = this.maxPrivatePackedValues || (shared !== null ? 16 : Infinity);
    const includeKeys = !this.useRecordsOption;
    /** @param {unknown} v @param {number} depth */
    const walk = (v, depth) => {
      if (typeof v === 'string') {
        if (v.length > 3) {
          if (values.length >= max || (shared !== null && shared.has(v))) return;
          const c = counts.get(v);
          if (c === undefined) {
            counts.set(v, 1);
            if (sampling !== null) sampling.set(v, (sampling.get(v) || 0) + 1);
          } else if (c + 1 === 2) {
            counts.set(v, 2);
            values.push(v);
          } else counts.set(v, c + 1);
        }
        return;
      }
      if (v === null || typeof v !== 'object' || depth > this.maxDepth) return;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) walk(v[i], depth + 1);
        return;
      }
      if (ArrayBuffer.isView(v)) return; // cbor-x walks indices too; they are never strings > 3 twice... in practice
      const o = /** @type {Record<string, unknown>} */ (v);
      for (const key in o) {
        if (Object.prototype.hasOwnProperty.call(o, key)) {
          if (includeKeys) walk(key, depth);
          walk(o[key], depth + 1);
        }
      }
    };
    walk(value, 0);
    return values;
  }

  /**
   * write() when packing or bundling: strings of the packed table become references; strings
   * of 4 to 1023 characters go into the bundle (tags 14/15 with their length), a new bundle
   * (tag 0xdff9) opening when one would pass 0xf000 characters, exactly as cbor-x does.
   * @param {Tape} T @param {unknown} v @param {number} depth
   */
  writeStrings(T, v, depth) {
    if (typeof v === 'string') {
      let i = this.packMap !== null ? this.packMap.get(v) : undefined;
      if (i === undefined && this.sharedMap !== null) {
        i = this.sharedMap.get(v);
        // (findCommonStringsToPack without pack: every string met counts)
        if (i === undefined && this.sampling !== null && !this.packStrings) this.countSampled(v);
      }
      if (i !== undefined) {
        if (T.p + 4 > T.cap) T.grow(4);
        if (i < 16) {
          T.u32[T.p++] = E_SIMPLE | (i << 8);
        } else {
          this.writeTag(T, PACKED_REF);
          this.writeNumber(T, i & 1 ? (15 - i) >> 1 : (i - 16) >> 1);
        }
        return;
      }
      const b = this.bundle;
      const n = v.length;
      if (b !== null && n >= 4 && n < 0x400) {
        if ((b.size += n) > BUNDLE_MAX) {
          this.writeTag(T, BUNDLE_TAG);
          writeHeader(T, E_ARR, b.open ? 4 : 2);
          if (T.p + 2 > T.cap) T.grow(2);
          T.u32[T.p++] = E_BOFF;
          if (b.open) this.flushBundle(T, b);
          b.s0 = '';
          b.s1 = '';
          b.size = 0;
          b.open = true;
        }
        const nonLatin = NON_LATIN.test(v);
        if (nonLatin) b.s0 += v;
        else b.s1 += v;
        this.writeTag(T, nonLatin ? 14 : 15);
        this.writeNumber(T, n);
        return;
      }
    }
    Packr.prototype.write.call(this, T, v, depth);
  }

  /**
   * The open bundle's strings go here, and its offset points here. They are written as they are:
   * never bundled again, and never as a reference to a packed or shared value. (cbor-x writes a
   * bundle that equals a packed or shared value as a reference to that value, which its decoder
   * then reads as '' for every string of the bundle: `[{name: false}, 'name']` with pack and
   * bundleStrings, whose only bundled string is the packed table's "name", comes back from cbor-x
   * as `[{'': false}, '']`. wirepack's decoder rejects those bytes: BAD_BUNDLE.)
   * @param {Tape} T @param {{s0: string, s1: string}} b
   */
  flushBundle(T, b) {
    if (T.p + 2 > T.cap) T.grow(2);
    T.u32[T.p++] = E_BHERE;
    if (this.sampling !== null && !this.packStrings) {
      // (counted all the same where writeStrings would count them, as cbor-x counts these two:
      // the shared values findCommonStringsToPack picks stay cbor-x's; sharedMap is set while
      // sampling)
      const shared = /** @type {Map<string, number>} */ (this.sharedMap);
      if (shared.get(b.s0) === undefined) this.countSampled(b.s0);
      if (shared.get(b.s1) === undefined) this.countSampled(b.s1);
    }
    writeString(T, b.s0);
    writeString(T, b.s1);
  }

  /**
   * findCommonStringsToPack without pack: one more use of a string (no shared value).
   * @param {string} s
   */
  countSampled(s) {
    const sampling = /** @type {Map<string, number>} */ (this.sampling);
    sampling.set(s, (sampling.get(s) || 0) + 1);
  }

  /**
   * structuredClone: objects met more than once get tag 28 at their first occurrence (in the
   * word reserved there) and their references the index of that occurrence in tape order.
   * @param {Tape} T
   */
  finishTape(T) {
    const b = this.bundle;
    if (b !== null && b.open) {
      b.open = false;
      this.flushBundle(T, b);
    }
    if (T.refs) this.finishRefs(T);
  }

  /**
   * structuredClone: the objects written more than once get their tag 28 (shareable), and their
   * references (tag 29) the index it gives them (out of finishTape, as writePackedTable).
   * @param {Tape} T
   */
  finishRefs(T) {
    const refs = /** @type {Map<object, {pos: number, uses: number[]}>} */ (T.refs);
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
   * Numbers as for MessagePack, except -0, which CBOR can carry exactly (f9 8000), and
   * alwaysUseFloat.
   * @param {Tape} T @param {number} v
   */
  writeNumber(T, v) {
    if ((v === 0 && 1 / v < 0) || this.alwaysUseFloat) {
      if (T.p + 4 > T.cap) T.grow(4);
      const p = T.p;
      const mode = this.useFloat32;
      if (mode > 0 && v < 4294967296 && v >= -2147483648) {
        T.f32[p + 1] = v;
        let fits = mode < 4;
        if (!fits) {
          const x = v * mult10[(T.u32[p + 1] >>> 23) & 0xff];
          fits = (x >> 0) === x;
        }
        if (fits) {
          T.u32[p] = E_F32;
          T.p = p + 2;
          return;
        }
      }
      const a = (p + 2) & ~1;
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
    T.u32[T.p] = E_TAG | (ESC << 8);
    put64(T.u32, T.p + 1, BigInt(tag));
    T.p += 3;
  }

  /** @param {Tape} T @param {bigint} v */
  writeBigInt(T, v) {
    // cbor-x's largeBigIntToFloat: a BigInt beyond its 64-bit forms (−2^64 included, as cbor-x
    // counts it) as a float, the nearest double (written as the shortest float that holds it)
    if (this.largeBigIntToFloat && (v >= TWO64 || v <= -TWO64)) {
      writeF64(T, Number(v));
      return;
    }
    if (T.p + 4 > T.cap) T.grow(4);
    /** @param {number} tag @param {bigint} u */
    const put = (tag, u) => {
      T.u32[T.p] = tag;
      put64(T.u32, T.p + 1, u); // (the low 64 bits, two's complement)
      T.p += 3;
    };
    if (v >= 0n && v < TWO64) put(E_U64, v);
    else if (v < 0n && v >= -TWO63) put(E_I64, v);
    else if (v < 0n && v >= -TWO64) put(E_N64, -1n - v);
    else if (v >= 0n) {
      this.writeTag(T, 2);
      writeBytes(T, E_BIN, 0, bytesFromBig(v));
    } else {
      this.writeTag(T, 3);
      writeBytes(T, E_BIN, 0, bytesFromBig(-1n - v));
    }
  }

  /**
   * Plain objects: a record (useRecords), or a map (keys through keyMap, and packed, when set).
   * @param {Tape} T @param {Record<string, unknown>} o @param {number} depth
   * @param {boolean} [plain] o's prototype is Object.prototype or null (the caller looked)
   */
  writeMap(T, o, depth, plain) {
    if (this.skipFunction === true && Object.getPrototypeOf(o) === Object.prototype) {
      // cbor-x's skipFunction: properties whose values are functions are left out
      /** @type {Record<string, unknown>} */
      const kept = {};
      for (const k of Object.keys(o)) {
        if (typeof o[k] === 'function') continue;
        if (k === '__proto__') Object.defineProperty(kept, k, { value: o[k], writable: true, enumerable: true, configurable: true });
        else kept[k] = o[k];
      }
      o = kept;
      plain = true;
    }
    if (this.useRecords) {
      this.writeRecord(T, o, depth, plain === true);
      return;
    }
    if (this.sortEntries) {
      this.writeSortedEntries(T, Object.keys(o).map((k) => [this.encodeKey(k), o[k]]), depth);
      return;
    }
    if (this.keyMap === null && this.packMap === null && this.sharedMap === null) {
      super.writeMap(T, o, depth);
      return;
    }
    const keys = Object.keys(o);
    writeHeader(T, E_MAP, keys.length);
    for (const k of keys) {
      this.write(T, this.encodeKey(k), depth);
      this.write(T, o[k], depth);
    }
  }

  /**
   * deterministic with structuredClone or records: a map's entries in the order C writes them
   * (by their keys' deterministic encodings, RFC 8949 4.2.1), so that the walk meets values in
   * the order of the bytes: a shareable value (tag 28) then comes before its references (tag 29),
   * which count the shareables before them, and a record's definition (0xdfff) before the
   * records that refer to its id. C sorting entries the walk had written in another order put
   * references first (bytes no decoder read back, or records read as Tags). Keys as canonicalKey
   * encodes them.
   * @param {Tape} T @param {[unknown, unknown][]} entries (keys as written) @param {number} depth
   */
  writeSortedEntries(T, entries, depth) {
    const bytes = entries.map(([k]) => canonicalKey(k, this));
    const order = entries.map((_, i) => i).sort((a, b) => compareBytes(bytes[a], bytes[b]));
    writeHeader(T, E_MAP, entries.length);
    for (const i of order) {
      this.write(T, entries[i][0], depth);
      this.write(T, entries[i][1], depth);
    }
  }

  /**
   * An object as a record, exactly as cbor-x chooses ids: a transition tree over the keys
   * (shared with the structures), a new id for a new key sequence (defined inline with tag
   * 0xdfff, or, below maxSharedStructures, added to the shared structures), a reference (tag
   * 0xe000 + id) after that.
   * @param {Tape} T @param {Record<string, unknown>} object @param {number} depth
   * @param {boolean} plain object's prototype is Object.prototype or null
   */
  writeRecord(T, object, depth, plain) {
    const structures = this.recStructures;
    let transition = structures.transitions || (structures.transitions = Object.create(null));
    let newTransitions = 0;
    let length = 0;
    /** @type {number | undefined} */
    let parentRecordId;
    /** @type {any[] | undefined} */
    let keys;
    // (own keys only: no check needed while Object.prototype has no enumerable property and
    // the object has no other prototype)
    const check = !T.forIn || !plain;
    if (this.keyMap !== null) {
      keys = Object.keys(object).map((k) => this.encodeKey(k));
      length = keys.length;
      for (let i = 0; i < length; i++) {
        const key = keys[i];
        let next = transition[key];
        if (!next) {
          next = transition[key] = Object.create(null);
          newTransitions++;
        }
        transition = next;
      }
    } else {
      for (const key in object) {
        if (check && !Object.prototype.hasOwnProperty.call(object, key)) continue;
        let next = transition[key];
        if (!next) {
          if (transition[RECORD_ID] & 0x100000) parentRecordId = transition[RECORD_ID] & 0xffff;
          next = transition[key] = Object.create(null);
          newTransitions++;
        }
        transition = next;
        length++;
      }
    }
    let recordId = transition[RECORD_ID];
    if (recordId !== undefined) {
      this.writeTag(T, RECORD_FIRST + (recordId & 0xffff));
    } else {
      if (!keys) keys = transition[RECORD_KEYS] || (transition[RECORD_KEYS] = Object.keys(object));
      const k = /** @type {any[]} */ (keys);
      if (parentRecordId === undefined) {
        recordId = structures.nextId++;
        if (!recordId) {
          recordId = 0;
          structures.nextId = 1;
        }
        if (recordId >= MAX_STRUCTURES) structures.nextId = (recordId = this.maxSharedStructures) + 1;
      } else {
        recordId = parentRecordId;
      }
      if (recordId < this.maxSharedStructures) {
        structures[recordId] = k;
        this.writeTag(T, RECORD_FIRST + recordId);
        let t = structures.transitions;
        for (let i = 0; i < length; i++) {
          if (t[RECORD_ID] === undefined || t[RECORD_ID] & 0x100000) t[RECORD_ID] = recordId;
          t = t[k[i]];
        }
        t[RECORD_ID] = recordId | 0x100000;
        this.hasSharedUpdate = true;
      } else {
        transition[RECORD_ID] = recordId;
        this.writeTag(T, RECORD_INLINE);
        if (newTransitions) this.transitionsCount += this.serializationsSinceTransitionRebuild * newTransitions;
        // (cbor-x stores the keys of these ids too, and cuts them off after the call: no one
        // reads them in between, and the store and the cut cost 80 ns a message)
        const q = this.recordIdsToRemove;
        if (q.n >= MAX_STRUCTURES - this.maxSharedStructures) q.shift()[RECORD_ID] = undefined;
        q.push(transition);
        writeHeader(T, E_ARR, length + 2);
        this.writeNumber(T, RECORD_FIRST + recordId);
        writeHeader(T, E_ARR, k.length);
        // (strings as they go, no packing or bundles: from the key cache, as map keys)
        if (this.write === Packr.prototype.write) this.writeDefKeys(T, k, depth);
        else for (let i = 0; i < k.length; i++) this.write(T, k[i], depth);
        this.writeRecordValues(T, object, depth, length, check);
        return;
      }
    }
    writeHeader(T, E_ARR, length);
    this.writeRecordValues(T, object, depth, length, check);
  }

  /**
   * The values of a record, in for-in order (own keys only). Throws when their number is not the
   * record's: a getter deleted a key not yet visited, which for-in then skips.
   * @param {Tape} T @param {Record<string, unknown>} object @param {number} depth @param {number} length
   * @param {boolean} check whether for-in may list inherited keys (writeRecord's)
   */
  writeRecordValues(T, object, depth, length, check) {
    let n = length;
    if (!check) {
      for (const key in object) { this.write(T, object[key], depth); n--; }
    } else {
      for (const key in object) if (Object.prototype.hasOwnProperty.call(object, key)) { this.write(T, object[key], depth); n--; }
    }
    if (n !== 0) throw new Error('wirepack: an object changed its keys while it was being encoded');
  }

  /**
   * o through the first extension whose Class it is an instance of (classExtension): its tag,
   * then the item its encode writes; false (nothing written) when there is none.
   * @param {Tape} T @param {object} o @param {number} depth
   * @returns {boolean}
   */
  writeExtension(T, o, depth) {
    const ext = classExtension(o);
    if (ext === undefined) return false;
    const encodeItem = /** @type {NonNullable<Extension['encode']>} */ (ext.encode);
    this.writeTag(T, ext.tag);
    // cbor-x's contract: the callback writes the tagged item in place (its return value is
    // ignored); an extension that never calls it has its return value written instead
    let written = false;
    const result = encodeItem.call(this, o, (/** @type {unknown} */ v) => {
      if (written) throw new Error('wirepack: a CBOR extension may write one item (call encode once)');
      written = true;
      this.write(T, v, depth);
    });
    if (!written) this.write(T, result, depth);
    return true;
  }

  /** @param {Tape} T @param {object} o @param {number} depth */
  writeObject(T, o, depth) {
    if (T.refs && this.writeRef(T, o)) return;
    if (Array.isArray(o)) {
      // (an Array subclass through an extension of its class, as in cbor-x)
      if (classExtensions.length !== 0 && o.constructor !== Array && this.writeExtension(T, o, depth)) return;
      super.writeObject(T, o, depth);
      return;
    }
    const proto = Object.getPrototypeOf(o);
    if (proto === Object.prototype || proto === null) {
      if (T.plainMaps) {
        this.writePlainMap(T, /** @type {Record<string, unknown>} */ (o), depth);
      } else {
        this.writeMap(T, /** @type {Record<string, unknown>} */ (o), depth, true);
      }
      return;
    }
    if (classExtensions.length !== 0) {
      // (cbor-x writes what has Object, Array or Map for its constructor before it looks:
      // Object.create({}), Object.create([1, 2]))
      const C = o.constructor;
      if (C !== Object && C !== Array && C !== Map && this.writeExtension(T, o, depth)) return;
    }
    if (o instanceof Date) {
      this.writeTag(T, 1);
      // epoch seconds, exactly, whatever useFloat32 or alwaysUseFloat say of numbers (a float32
      // lost the milliseconds); an invalid Date gives NaN, which decodes back to an invalid Date.
      // useTimestamp32 (cbor-x): whole seconds, milliseconds dropped, when in 0..2^32-1. In
      // cbor-x's bytes: a uint32 head (1a) when whole and in 0..2^32-1, else float64 (fb), as
      // cbor-x writes them whatever the value (c1 00 and c1 20 for 1970's first second and the
      // one before were other bytes); deterministic encoding: the shortest forms
      const ms = o.getTime();
      const sec = this.useTimestamp32 === true && ms >= 0 && ms < 4294967296000 ? Math.floor(ms / 1000) : ms / 1000;
      if (!this.deterministic && !(sec >= 65536 && (sec >>> 0) === sec) && !(sec % 1 !== 0 && (sec >= 8388608 || sec <= -8388608))) {
        // (rare seconds whose shortest form is not cbor-x's: before 1970-01-01T18:12:16Z, or
        // whole and negative or past 2^32, or not a number; the others, through the way below,
        // are the same bytes: the uint32 head, or a non-integer past 2^23, no float32)
        writeCborxSeconds(T, sec);
      } else if ((sec >>> 0) === sec || (sec >> 0) === sec) {
        if (T.p + 2 > T.cap) T.grow(2);
        T.u32[T.p] = sec >= 0 ? E_UINT : E_INT;
        T.u32[T.p + 1] = sec;
        T.p += 2;
      } else {
        writeF64(T, sec);
      }
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
    if (o instanceof Error) {
      // tag 27 [name, message], as cbor-x writes it; a cause (and AggregateError's errors) in a
      // third element, the options cbor-x's decoder gives the Error constructor
      this.writeTag(T, 27);
      const cause = Object.prototype.hasOwnProperty.call(o, 'cause'), errors = typeof AggregateError === 'function' && o instanceof AggregateError;
      writeHeader(T, E_ARR, cause || errors ? 3 : 2);
      this.write(T, o.name, depth);
      this.write(T, o.message, depth);
      if (cause || errors) {
        /** @type {Record<string, unknown>} */
        const opts = {};
        if (cause) opts.cause = /** @type {any} */ (o).cause;
        if (errors) opts.errors = /** @type {AggregateError} */ (o).errors;
        this.write(T, opts, depth);
      }
      return;
    }
    if (o instanceof RegExp) {
      // tag 27 ['RegExp', source, flags], as cbor-x writes it
      this.writeTag(T, 27);
      writeHeader(T, E_ARR, 3);
      this.write(T, 'RegExp', depth);
      this.write(T, o.source, depth);
      this.write(T, o.flags, depth);
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
      const mapped = this.keyMap !== null;
      if (this.sortEntries) {
        this.writeSortedEntries(T, [...o].map(([k, v]) => [mapped ? this.encodeKey(k) : k, v]), depth);
        return;
      }
      writeHeader(T, E_MAP, o.size);
      for (const [k, v] of o) {
        this.write(T, mapped ? this.encodeKey(k) : k, depth);
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
      const tag = typedTagOf.get(o.constructor) ?? typedTagOfSubclass(o);
      if (tag !== undefined) this.writeTag(T, tag);
      writeBytes(T, E_BIN, 0, bytes);
      return;
    }
    if (o instanceof ArrayBuffer || (SharedBuffer !== null && o instanceof SharedBuffer)) {
      // (a SharedArrayBuffer too: cbor-x writes the map of its own properties, {}, and its bytes
      // are lost)
      writeBytes(T, E_BIN, 0, new Uint8Array(o));
      return;
    }
    if (o instanceof SharedData) {
      // cbor-x's form of saved structures: 0xdffe [0xe000, ...structures, 'Shrd'(version)]
      const st = o.structures || [];
      this.writeTag(T, RECORD_DEFINITIONS);
      writeHeader(T, E_ARR, st.length + 2);
      this.writeNumber(T, RECORD_FIRST);
      for (const keys of st) this.write(T, keys, depth);
      this.writeTag(T, SHARED_DATA_TAG);
      this.write(T, o.version, depth);
      return;
    }
    // an object whose prototype is an array (Object.create([1, 2])): written as arrays are, the
    // array of its (inherited) elements, as cbor-x writes what has Array for its constructor
    // (and as the MessagePack encoder does)
    if (isArrayLike(o)) {
      this.writeArray(T, /** @type {unknown[]} */ (o), depth);
      return;
    }
    // then, as cbor-x: any other iterable (a generator, a collection class, a String object) is
    // an indefinite-length array of its values (a map of its own properties lost them); an async
    // iterable or a Blob is an Error (encodeAsAsyncIterable reads them); with useToJSON, what
    // toJSON returns
    const x = /** @type {any} */ (o);
    if (typeof x[Symbol.iterator] === 'function') {
      this.writeIterable(T, x, depth);
      return;
    }
    if (typeof x[Symbol.asyncIterator] === 'function' || (typeof Blob === 'function' && o instanceof Blob)) {
      const e = new Error('Iterable/blob should be serialized as iterator');
      /** @type {any} */ (e).iteratorNotHandled = true;
      throw e;
    }
    if (this.useToJSON === true && typeof x.toJSON === 'function') {
      const json = x.toJSON();
      if (json !== o) {
        this.write(T, json, depth);
        return;
      }
    }
    this.writeMap(T, /** @type {Record<string, unknown>} */ (o), depth);
  }

  /**
   * An iterable's values as an indefinite-length array (9f ... ff), cbor-x's bytes; a definite
   * one under deterministic, and through the tracked encoder's own arrays under
   * indefiniteLengths (its item count cannot take raw bytes for a container).
   * @param {Tape} T @param {Iterable<unknown>} it @param {number} depth
   */
  writeIterable(T, it, depth) {
    if ((this.cborFlags & (DETERMINISTIC | INDEFINITE)) !== 0) {
      const a = Array.from(it);
      writeHeader(T, E_ARR, a.length);
      for (let i = 0; i < a.length; i++) this.write(T, a[i], depth);
      return;
    }
    writeRaw(T, INDEFINITE_ARRAY);
    for (const v of it) this.write(T, v, depth);
    writeRaw(T, BREAK);
  }
}

/** The first byte of an indefinite-length array, and the break that ends it. */
export const INDEFINITE_ARRAY = Uint8Array.of(0x9f), BREAK = Uint8Array.of(0xff);

// the free functions write and read plain CBOR (no records), as cbor-x's do
const defaultEncoder = new Encoder({ useRecords: false });
const defaultDecoder = new Decoder({ useRecords: false });

/**
 * Encode a value as CBOR with default options.
 * @param {unknown} value
 * @returns {EncodedBytes}
 */
export function encode(value) {
  return defaultEncoder.encode(value);
}

/**
 * Decode one CBOR item with default options.
 * @param {Uint8Array | ArrayBuffer | DataView} source
 * @param {number | {start?: number, end?: number}} [end] as Decoder#decode
 * @returns {any}
 */
export function decode(source, end) {
  return defaultDecoder.decode(source, end);
}

/**
 * Decode a CBOR sequence with default options.
 * @overload
 * @param {Uint8Array | ArrayBuffer | DataView} source
 * @returns {any[]}
 */
/**
 * @overload
 * @param {Uint8Array | ArrayBuffer | DataView} source
 * @param {(value: any) => unknown} forEach
 * @returns {void}
 */
/**
 * @param {Uint8Array | ArrayBuffer | DataView} source
 * @param {(value: any) => unknown} [forEach]
 * @returns {any[] | void}
 */
export function decodeMultiple(source, forEach) {
  return defaultDecoder.decodeMultiple(source, /** @type {any} */ (forEach));
}
