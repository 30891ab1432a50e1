// @ts-check
/*
 * @msgpack/msgpack's API (`wirepack/msgpack`; the library is msgpack-javascript, named so in
 * the JSDoc below, where an @ would start a tag): encode, decode, decodeMulti, decodeAsync,
 * decodeArrayStream, decodeMultiStream, Encoder, Decoder, DecodeError, ExtensionCodec, ExtData and
 * the timestamp helpers, with that library's options and its wire format. The encoder writes the
 * bytes @msgpack/msgpack writes for every value (integers past 32 bits as uint64/int64, undefined
 * as nil, any ArrayBufferView as bin, other objects as the map of their own enumerable keys: no
 * msgpackr extension, no toJSON), and the decoder reads extensions through the ExtensionCodec
 * (none of msgpackr's), integers past 32 bits as numbers (BigInts with useBigInt64) and maps
 * with string or number keys as objects. The same runtime, tape and C codec as `wirepack`.
 *
 * Where it differs, on purpose: a `__proto__` key is an own property (the library throws); a
 * BigInt outside 64 bits throws a RangeError (the library wraps it); a timestamp with nanoseconds
 * of 10^9 or more is a DecodeError (the spec's rule; the library reads it), and one below the
 * millisecond is the floor of the instant (the library's sec * 1e3 + nsec / 1e6 in doubles rounds
 * up near whole seconds); ill-formed UTF-8 and unpaired surrogates are U+FFFD as TextDecoder and
 * TextEncoder make them (the library's own transcoder, for short strings, differs); nesting
 * deeper than the Decoder's maxDepth (default 1000) is a DecodeError (the library has no limit);
 * a length limit below 1 is a RangeError when the Decoder is made (0 lets only empty items
 * through there: C's limits have no such value, 0 being none); values after the array of
 * decodeArrayStream are an error (the library ignores those in the chunk that ends the array);
 * ExtData whose data is a function (given the output position) is not
 * supported. Errors have wirepack's fields: code, offset, and incomplete for truncation, which is
 * a RangeError as in the library.
 */
import { writeBytes, writeDate, E_BIN, E_EXT } from './encode.js';
import { LibraryPackr } from './library-packr.js';
import { Unpackr } from './decode.js';
import { DecodeError as WirepackDecodeError } from './errors.js';
import { ExtData, NATIVE_TIMESTAMP } from './ext.js';
import { ChunkDecoder } from './iterators.js';

export { ExtData };

/* ------------------------------------------------------------------ errors */

/**
 * A malformed input (msgpack-javascript's DecodeError): wirepack's DecodeError, with its code and
 * byte offset, under the library's class name.
 */
export class DecodeError extends WirepackDecodeError {}
Object.defineProperty(DecodeError.prototype, 'name', { value: 'DecodeError' });
// (a bundler that meets both classes in one scope renames one: the constructor keeps the name)
Object.defineProperty(DecodeError, 'name', { value: 'DecodeError' });

/**
 * Truncated input, or bytes after the value: a RangeError, as msgpack-javascript throws for
 * both, with wirepack's fields (code 'TRUNCATED' or 'TRAILING_DATA', offset, incomplete).
 */
export class InsufficientDataError extends RangeError {
  /** @param {string} code @param {number} offset @param {string} message */
  constructor(code, offset, message) {
    super(message);
    /** @type {string} */
    this.code = code;
    /** @type {number} */
    this.offset = offset;
    /** True when the input ended early: more bytes could make it valid. */
    this.incomplete = code === 'TRUNCATED';
  }
}

/**
 * The error the library would throw for one of wirepack's: truncation and trailing bytes as
 * RangeErrors, every other DecodeError as this module's; anything else (thrown by an extension
 * or key converter) as it is.
 * @param {unknown} e @param {number} [length] the input's length, for the trailing-bytes message
 * @returns {unknown}
 */
function libraryError(e, length) {
  if (!(e instanceof WirepackDecodeError) || e instanceof DecodeError) return e;
  if (e.code === 'TRUNCATED') return new InsufficientDataError(e.code, e.offset, `Insufficient data (at byte ${e.offset})`);
  if (e.code === 'TRAILING_DATA' && length !== undefined) {
    return new InsufficientDataError(e.code, e.offset, `Extra ${length - e.offset} of ${length} byte(s) found at buffer[${e.offset}]`);
  }
  const out = new DecodeError(e.code, e.offset);
  out.message = e.message;
  out.values = e.values;
  out.lastPosition = e.lastPosition;
  return out;
}

/**
 * Bytes after the value (or the array): from `at` to the input's `length` so far.
 * @param {number} at @param {number} length
 */
function extraBytes(at, length) {
  return new InsufficientDataError('TRAILING_DATA', at, `Extra ${length - at} of ${length} byte(s) found at buffer[${at}]`);
}

/**
 * The held bytes of a ChunkDecoder before a push (a view: a push writes only past them).
 * @param {ChunkDecoder} chunks
 */
function heldBytes(chunks) {
  return chunks.held === null ? null : chunks.held.subarray(0, chunks.length);
}

/**
 * Extra bytes after the n-th value of a push that found more values than the stream has (an
 * error path only: the bytes are decoded again to find where that value ends).
 * @param {Unpackr} unpackr
 * @param {Uint8Array | null} held the bytes held before the push (the first value's start)
 * @param {Uint8Array} bytes the pushed bytes, which start at `start` in the stream
 * @param {number} start @param {number} n (at least 1) @param {number} length the stream's length so far
 */
function extraBytesAfter(unpackr, held, bytes, start, n, length) {
  const heldLength = held === null ? 0 : held.length;
  const from = held === null ? bytes : new Uint8Array(heldLength + bytes.length);
  if (held !== null) { from.set(held); from.set(bytes, heldLength); }
  let end = -1, seen = 0;
  try {
    unpackr.unpackMultiple(from, (_v, _start, e) => {
      if (++seen < n) return true;
      end = e;
      return false;
    });
  } catch {
    // (a malformed value after the n-th: its end is known by then)
  }
  return extraBytes(end < 0 ? start : start - heldLength + end, length);
}

/* ------------------------------------------------------------------ timestamps */

/** The timestamp extension's type. */
export const EXT_TIMESTAMP = -1;
const TIMESTAMP32_MAX_SEC = 0x100000000 - 1;
const TIMESTAMP64_MAX_SEC = 0x400000000 - 1;
const TWO32 = 0x100000000;

/**
 * @typedef {{sec: number, nsec: number}} TimeSpec
 */

/**
 * The timestamp extension's payload (4, 8 or 12 bytes) for seconds and nanoseconds.
 * @param {TimeSpec} spec
 * @returns {Uint8Array}
 */
export function encodeTimeSpecToTimestamp({ sec, nsec }) {
  if (sec >= 0 && nsec >= 0 && sec <= TIMESTAMP64_MAX_SEC) {
    if (nsec === 0 && sec <= TIMESTAMP32_MAX_SEC) {
      const out = new Uint8Array(4);
      new DataView(out.buffer).setUint32(0, sec);
      return out;
    }
    // 30 bits of nanoseconds, 34 of seconds
    const out = new Uint8Array(8), view = new DataView(out.buffer);
    view.setUint32(0, (nsec << 2) | ((sec / TWO32) & 0x3));
    view.setUint32(4, sec >>> 0);
    return out;
  }
  const out = new Uint8Array(12), view = new DataView(out.buffer);
  view.setUint32(0, nsec);
  // a signed 64-bit count of seconds (NaN, from an invalid Date, writes zeros, as the library does)
  view.setUint32(4, Math.floor(sec / TWO32));
  view.setUint32(8, sec);
  return out;
}

/**
 * A Date's seconds and nanoseconds (nanoseconds never negative).
 * @param {Date} date
 * @returns {TimeSpec}
 */
export function encodeDateToTimeSpec(date) {
  const ms = date.getTime();
  const sec = Math.floor(ms / 1000);
  return { sec, nsec: (ms - sec * 1000) * 1e6 };
}

/**
 * The timestamp extension's payload for a Date; null for anything else.
 * @param {unknown} object
 * @returns {Uint8Array | null}
 */
export function encodeTimestampExtension(object) {
  return object instanceof Date ? encodeTimeSpecToTimestamp(encodeDateToTimeSpec(object)) : null;
}

/**
 * Seconds and nanoseconds of a timestamp extension's payload.
 * @param {Uint8Array} data
 * @returns {TimeSpec}
 */
export function decodeTimestampToTimeSpec(data) {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  switch (data.byteLength) {
    case 4: return { sec: view.getUint32(0), nsec: 0 };
    case 8: {
      const hi = view.getUint32(0);
      return { sec: (hi & 0x3) * TWO32 + view.getUint32(4), nsec: hi >>> 2 };
    }
    case 12: return { sec: view.getInt32(4) * TWO32 + view.getUint32(8), nsec: view.getUint32(0) };
    default:
      throw new DecodeError('BAD_TIMESTAMP', 0, `Unrecognized data size for timestamp (expected 4, 8, or 12): ${data.length}`);
  }
}

/**
 * The Date of a timestamp extension's payload.
 * @param {Uint8Array} data
 * @returns {Date}
 */
export function decodeTimestampExtension(data) {
  const { sec, nsec } = decodeTimestampToTimeSpec(data);
  return new Date(sec * 1e3 + nsec / 1e6);
}

/* ------------------------------------------------------------------ ExtensionCodec */

/**
 * @template [ContextType=undefined]
 * @typedef {(input: unknown, context: ContextType) => Uint8Array | ((dataPos: number) => Uint8Array) | null} ExtensionEncoderType
 */
/**
 * @template [ContextType=undefined]
 * @typedef {(data: Uint8Array, extensionType: number, context: ContextType) => unknown} ExtensionDecoderType
 */
/**
 * What the Encoder and Decoder use of a codec (msgpack-javascript's ExtensionCodecType).
 * @template [ContextType=undefined]
 * @typedef {object} ExtensionCodecType
 * @property {(object: unknown, context: ContextType) => ExtData | null} tryToEncode
 * @property {(data: Uint8Array, extType: number, context: ContextType) => unknown} decode
 */

/** On an ExtensionCodec: true while its only encoder is the standard timestamp one (the walk
 * then writes Dates and ExtData itself, without asking the codec for every object). */
const ONLY_TIMESTAMP = Symbol('wirepack.onlyTimestamp');

/**
 * Extension types for the Encoder and the Decoder, by type: 0..127 the application's, -1..-128
 * reserved (-1 is the timestamp, registered in every codec). An extension's encoder is tried on
 * every object (and BigInt, symbol or function) the Encoder meets, before its own handling.
 * @template [ContextType=undefined]
 */
export class ExtensionCodec {
  constructor() {
    /** @type {(ExtensionEncoderType<ContextType> | null | undefined)[]} */
    this.builtInEncoders = [];
    /** @type {(ExtensionDecoderType<ContextType> | null | undefined)[]} */
    this.builtInDecoders = [];
    /** @type {(ExtensionEncoderType<ContextType> | null | undefined)[]} */
    this.encoders = [];
    /** @type {(ExtensionDecoderType<ContextType> | null | undefined)[]} */
    this.decoders = [];
    /** @type {boolean} */
    this[NATIVE_TIMESTAMP] = false;
    /** @type {boolean} */
    this[ONLY_TIMESTAMP] = false;
    this.register({ type: EXT_TIMESTAMP, encode: encodeTimestampExtension, decode: decodeTimestampExtension });
  }

  /**
   * @param {{type: number, encode: ExtensionEncoderType<ContextType>, decode: ExtensionDecoderType<ContextType>}} extension
   */
  register({ type, encode, decode }) {
    if (type >= 0) {
      this.encoders[type] = encode;
      this.decoders[type] = decode;
    } else {
      this.builtInEncoders[-1 - type] = encode;
      this.builtInDecoders[-1 - type] = decode;
    }
    this[NATIVE_TIMESTAMP] = this.builtInDecoders[0] === decodeTimestampExtension;
    this[ONLY_TIMESTAMP] = this.builtInEncoders[0] === encodeTimestampExtension &&
      this.builtInEncoders.every((e, i) => i === 0 || e == null) && this.encoders.every((e) => e == null);
  }

  /**
   * The extension of the first encoder (reserved types first) that takes the object; the object
   * itself if it is an ExtData; else null.
   * @param {unknown} object @param {ContextType} context
   * @returns {ExtData | null}
   */
  tryToEncode(object, context) {
    for (let i = 0; i < this.builtInEncoders.length; i++) {
      const encode = this.builtInEncoders[i];
      if (encode == null) continue;
      const data = encode(object, context);
      if (data != null) return new ExtData(-1 - i, /** @type {any} */ (data));
    }
    for (let i = 0; i < this.encoders.length; i++) {
      const encode = this.encoders[i];
      if (encode == null) continue;
      const data = encode(object, context);
      if (data != null) return new ExtData(i, /** @type {any} */ (data));
    }
    return object instanceof ExtData ? object : null;
  }

  /**
   * The value of an extension: its decoder's, or an ExtData when none is registered.
   * @param {Uint8Array} data @param {number} type @param {ContextType} context
   * @returns {unknown}
   */
  decode(data, type, context) {
    const decode = type < 0 ? this.builtInDecoders[-1 - type] : this.decoders[type];
    return decode ? decode(data, type, context) : new ExtData(type, data);
  }
}
/** The codec of Encoders and Decoders given none (the timestamp only). */
ExtensionCodec.defaultCodec = /** @type {ExtensionCodecType<undefined>} */ (new ExtensionCodec());

/* ------------------------------------------------------------------ Encoder */

/**
 * @template [ContextType=undefined]
 * @typedef {object} EncoderOptions
 * @property {ExtensionCodecType<ContextType>} [extensionCodec]
 * @property {ContextType} [context] passed to the extension codec
 * @property {boolean} [useBigInt64] BigInts as int64/uint64 (and integers past 32 bits as floats)
 * @property {number} [maxDepth] deepest nesting of values (default 100)
 * @property {number} [initialBufferSize] accepted; wirepack sizes its buffers itself
 * @property {boolean} [sortKeys] object keys in sorted order (canonical output)
 * @property {boolean} [forceFloat32] non-integers as float32
 * @property {boolean} [ignoreUndefined] object properties whose value is undefined are left out
 * @property {boolean} [forceIntegerToFloat] integers as floats too
 */

/**
 * The walk of msgpack-javascript's encoding: library-packr.js's walk, with the extension codec
 * asked for every object (and BigInt, symbol or function) first, as the library does, unless it
 * has only the timestamp encoder (then Dates and ExtData are written here).
 */
class CodecPackr extends LibraryPackr {
  /** @param {Readonly<EncoderOptions<any>>} o */
  constructor(o) {
    // (the library's options only: LibraryPackr's own, json-pack's rules, stay at their defaults)
    super({
      useBigInt64: o.useBigInt64, maxDepth: o.maxDepth, sortKeys: o.sortKeys, forceFloat32: o.forceFloat32,
      ignoreUndefined: o.ignoreUndefined, forceIntegerToFloat: o.forceIntegerToFloat,
    });
    /** @type {ExtensionCodecType<any>} */
    this.codec = o.extensionCodec || ExtensionCodec.defaultCodec;
    /** @type {unknown} */
    this.codecContext = o.context;
    /** the codec asks for nothing but Dates (set for each call) */
    this.plainCodec = false;
  }

  /** @param {import('./encode.js').Tape} T */
  writePrefix(T) {
    super.writePrefix(T);
    this.plainCodec = /** @type {any} */ (this.codec)[ONLY_TIMESTAMP] === true;
  }

  /**
   * @param {import('./encode.js').Tape} T @param {object} o @param {number} depth
   */
  writeObject(T, o, depth) {
    if (!this.plainCodec) {
      const ext = this.codec.tryToEncode(o, this.codecContext);
      if (ext != null) { this.writeExt(T, ext); return; }
    }
    if (this.writeContainer(T, o, depth)) return;
    if (this.plainCodec) {
      // what the codec's timestamp encoder and its ExtData rule would give
      if (o instanceof Date) {
        if (o.getTime() === o.getTime()) writeDate(T, o);
        else writeBytes(T, E_EXT, 0xff, encodeTimeSpecToTimestamp(encodeDateToTimeSpec(o)));
        return;
      }
      if (o instanceof ExtData) { this.writeExt(T, o); return; }
    }
    if (ArrayBuffer.isView(o)) {
      writeBytes(T, E_BIN, 0, o instanceof Uint8Array ? o : new Uint8Array(o.buffer, o.byteOffset, o.byteLength));
      return;
    }
    this.writeMap(T, /** @type {Record<string, unknown>} */ (o), depth);
  }

  /**
   * A BigInt (without useBigInt64), symbol or function: the codec's extension, or an error.
   * @param {import('./encode.js').Tape} T @param {unknown} v @param {number} _depth
   */
  writeOther(T, v, _depth) {
    const ext = this.codec.tryToEncode(v, this.codecContext);
    if (ext == null) throw new Error(`Unrecognized object: ${Object.prototype.toString.call(v)}`);
    this.writeExt(T, ext);
  }

  /** @param {import('./encode.js').Tape} T @param {ExtData} ext */
  writeExt(T, ext) {
    const data = /** @type {unknown} */ (ext.data);
    if (typeof data === 'function') throw new TypeError('wirepack/msgpack: ExtData whose data is a function (of the output position) is not supported');
    writeBytes(T, E_EXT, ext.type & 0xff, /** @type {Uint8Array} */ (data));
  }
}

/**
 * msgpack-javascript's Encoder: encode(value) and encodeSharedRef(value) give the same fresh
 * Uint8Array (never a view of memory the Encoder writes again).
 * @template [ContextType=undefined]
 */
export class Encoder {
  /** @param {Readonly<EncoderOptions<ContextType>>} [options] */
  constructor(options) {
    /** @private */
    this.packr = new CodecPackr(options || {});
  }

  /**
   * @param {unknown} object
   * @returns {Uint8Array}
   */
  encode(object) {
    return this.packr.pack(object);
  }

  /**
   * @param {unknown} object
   * @returns {Uint8Array}
   */
  encodeSharedRef(object) {
    return this.packr.pack(object);
  }
}

/* ------------------------------------------------------------------ Decoder */

/**
 * @template [ContextType=undefined]
 * @typedef {object} DecoderOptions
 * @property {ExtensionCodecType<ContextType>} [extensionCodec]
 * @property {ContextType} [context] passed to the extension codec
 * @property {boolean} [useBigInt64] int64 / uint64 as BigInts (default: numbers)
 * @property {boolean} [rawStrings] string values (not keys) as Uint8Arrays of their bytes
 * @property {number} [maxStrLength] @property {number} [maxBinLength] @property {number} [maxArrayLength]
 * @property {number} [maxMapLength] @property {number} [maxExtLength] (default: none)
 * @property {unknown} [keyDecoder] accepted; wirepack's decoder interns keys itself
 * @property {(key: unknown) => string | number} [mapKeyConverter] every map key goes through it
 *   (by default keys must be strings or numbers: others are a DecodeError)
 * @property {number} [maxDepth] deepest nesting accepted (wirepack's; default 1000)
 */

/** @typedef {ArrayLike<number> | ArrayBufferView | ArrayBufferLike} BufferLike */
/** @typedef {AsyncIterable<BufferLike> | ReadableStream<BufferLike>} ReadableStreamLike */

/**
 * @param {BufferLike} buffer
 * @returns {Uint8Array}
 */
function toBytes(buffer) {
  if (buffer instanceof Uint8Array) return buffer;
  if (ArrayBuffer.isView(buffer)) return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  if (buffer instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && buffer instanceof SharedArrayBuffer)) return new Uint8Array(buffer);
  return Uint8Array.from(/** @type {ArrayLike<number>} */ (buffer));
}

/**
 * @param {ReadableStreamLike} stream
 * @returns {AsyncIterable<BufferLike>}
 */
function asyncIterable(stream) {
  if (/** @type {any} */ (stream)[Symbol.asyncIterator] != null) return /** @type {AsyncIterable<BufferLike>} */ (stream);
  return readAll(/** @type {ReadableStream<BufferLike>} */ (stream));
}

/** @param {ReadableStream<BufferLike>} stream */
async function* readAll(stream) {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * msgpack-javascript's Decoder.
 * @template [ContextType=undefined]
 */
export class Decoder {
  /** @param {Readonly<DecoderOptions<ContextType>>} [options] */
  constructor(options) {
    const o = options || {};
    const convert = typeof o.mapKeyConverter === 'function' ? o.mapKeyConverter : undefined;
    // (a limit of null or undefined is none, as the library's `??` takes it)
    /** @param {number | null | undefined} v */
    const limit = (v) => (v === null ? undefined : v);
    const maxBin = limit(o.maxBinLength), maxExt = limit(o.maxExtLength);
    /** @private */
    this.unpackr = new Unpackr({
      useRecords: false,
      // with a key converter every map is read as a Map, which it turns into an object
      mapsAsObjects: convert === undefined,
      int64AsType: o.useBigInt64 ? 'bigint' : 'number',
      maxDepth: o.maxDepth,
      maxArrayLength: limit(o.maxArrayLength),
      maxMapLength: limit(o.maxMapLength),
      maxStrLength: limit(o.maxStrLength),
      maxBinLength: maxBin,
      // (an extension's data is a binary there too: its length is under maxBinLength as well)
      maxExtLength: maxBin === undefined ? maxExt : maxExt === undefined ? maxBin : Math.min(maxExt, maxBin),
      extensionCodec: o.extensionCodec || ExtensionCodec.defaultCodec,
      context: o.context,
      mapKeyConverter: convert,
      rawStrings: !!o.rawStrings,
    });
  }

  /**
   * One value, the whole buffer.
   * @param {BufferLike} buffer
   * @returns {unknown}
   */
  decode(buffer) {
    const bytes = toBytes(buffer);
    try {
      return this.unpackr.unpack(bytes);
    } catch (e) {
      throw libraryError(e, bytes.length);
    }
  }

  /**
   * Each of the values in the buffer, one after the other.
   * @param {BufferLike} buffer
   * @returns {Generator<unknown, void, unknown>}
   */
  *decodeMulti(buffer) {
    const bytes = toBytes(buffer);
    if (bytes.length === 0) return;
    /** @type {unknown[]} */
    let values;
    try {
      values = /** @type {unknown[]} */ (this.unpackr.unpackMultiple(bytes));
    } catch (e) {
      // the values before the error first, as the library yields them before it fails
      const before = e instanceof WirepackDecodeError && e.values ? e.values : [];
      yield* before;
      throw libraryError(e);
    }
    yield* values;
  }

  /**
   * The one value of a stream of chunks.
   * @param {ReadableStreamLike} stream
   * @returns {Promise<unknown>}
   */
  async decodeAsync(stream) {
    const chunks = new ChunkDecoder(this.unpackr);
    let total = 0, got = false;
    /** @type {unknown} */
    let value;
    for await (const chunk of asyncIterable(stream)) {
      const bytes = toBytes(chunk);
      if (got) throw extraBytes(total, total + bytes.length);
      const held = heldBytes(chunks), start = total;
      total += bytes.length;
      /** @type {unknown[]} */
      let values;
      try {
        values = chunks.push(bytes);
      } catch (e) {
        const n = e instanceof WirepackDecodeError && e.values ? e.values.length : 0;
        throw n > 0 ? extraBytesAfter(this.unpackr, held, bytes, start, 1, total) : libraryError(e);
      }
      if (values.length > 1 || (values.length === 1 && chunks.incomplete)) throw extraBytesAfter(this.unpackr, held, bytes, start, 1, total);
      if (values.length === 1) { got = true; value = values[0]; }
    }
    if (got) return value;
    try {
      const values = chunks.end();
      if (values.length === 1) return values[0];
    } catch (e) {
      throw libraryError(e);
    }
    throw new InsufficientDataError('TRUNCATED', total, `Insufficient data: the stream ended at byte ${total}, before a value was complete`);
  }

  /**
   * The elements of the one array a stream holds, as they arrive.
   * @param {ReadableStreamLike} stream
   * @returns {AsyncGenerator<unknown, void, unknown>}
   */
  decodeArrayStream(stream) {
    return this.decodeMultiAsync(stream, true);
  }

  /**
   * The values of a stream of chunks, as they complete.
   * @param {ReadableStreamLike} stream
   * @returns {AsyncGenerator<unknown, void, unknown>}
   */
  decodeStream(stream) {
    return this.decodeMultiAsync(stream, false);
  }

  /**
   * @param {ReadableStreamLike} stream
   * @param {boolean} isArray the stream is one array: its header first, then its elements
   * @returns {AsyncGenerator<unknown, void, unknown>}
   */
  async *decodeMultiAsync(stream, isArray) {
    const chunks = new ChunkDecoder(this.unpackr);
    /** the array's header while it is incomplete (isArray) */
    let head = isArray ? new Uint8Array(0) : null;
    let left = -1, total = 0;
    for await (const chunk of asyncIterable(stream)) {
      let bytes = toBytes(chunk);
      if (head !== null) {
        const joined = new Uint8Array(head.length + bytes.length);
        joined.set(head);
        joined.set(bytes, head.length);
        const h = arrayHeader(joined, total - head.length);
        if (h === null) { head = joined; total += bytes.length; continue; }
        head = null;
        left = h.count;
        total += bytes.length;
        bytes = joined.subarray(h.size);
        if (left === 0 && bytes.length > 0) throw extraBytes(total - bytes.length, total);
      } else {
        if (left === 0 && bytes.length > 0) throw extraBytes(total, total + bytes.length);
        total += bytes.length;
      }
      const held = isArray ? heldBytes(chunks) : null, start = total - bytes.length;
      /** @type {unknown[]} */
      let values;
      try {
        values = chunks.push(bytes);
      } catch (e) {
        const before = e instanceof WirepackDecodeError && e.values ? e.values : [];
        yield* isArray ? before.slice(0, left) : before;
        throw isArray && before.length >= left ? extraBytesAfter(this.unpackr, held, bytes, start, left, total) : libraryError(e);
      }
      if (isArray) {
        if (values.length > left || (values.length === left && chunks.incomplete)) {
          yield* values.slice(0, left);
          throw extraBytesAfter(this.unpackr, held, bytes, start, left, total);
        }
        left -= values.length;
      }
      yield* values;
    }
    if (head !== null && head.length > 0) throw new InsufficientDataError('TRUNCATED', total, `Insufficient data: the stream ended inside an array header at byte ${total}`);
    try {
      const values = chunks.end();
      if (isArray) left -= values.length;
      yield* values;
    } catch (e) {
      throw libraryError(e);
    }
    if (isArray && left > 0) throw new InsufficientDataError('TRUNCATED', total, `Insufficient data: the stream ended with ${left} element(s) of the array still to come`);
  }
}

/**
 * An array header at the start of bytes: its size in bytes and element count, or null while
 * bytes are too few. Anything else is a DecodeError.
 * @param {Uint8Array} b @param {number} at where b starts in the stream
 * @returns {{size: number, count: number} | null}
 */
function arrayHeader(b, at) {
  if (b.length === 0) return null;
  const c = b[0];
  if (c >= 0x90 && c <= 0x9f) return { size: 1, count: c & 0xf };
  if (c === 0xdc) return b.length < 3 ? null : { size: 3, count: (b[1] << 8) | b[2] };
  if (c === 0xdd) return b.length < 5 ? null : { size: 5, count: ((b[1] << 24) | (b[2] << 16) | (b[3] << 8) | b[4]) >>> 0 };
  throw new DecodeError('NOT_ARRAY', at, `Unrecognized array type byte: 0x${c.toString(16).padStart(2, '0')}`);
}

/* ------------------------------------------------------------------ free functions */

/**
 * The Encoder or Decoder for one options object (made once; made again when a property of it
 * changed since: the library reads its options afresh at every call).
 * @template T
 * @param {WeakMap<object, {made: T, seen: unknown[]}>} cache @param {Record<string, unknown>} options
 * @param {(o: any) => T} make
 * @returns {T}
 */
function forOptions(cache, options, make) {
  const values = Object.keys(options).map((k) => options[k]);
  const hit = cache.get(options);
  if (hit !== undefined && hit.seen.length === values.length && hit.seen.every((v, i) => v === values[i])) return hit.made;
  const made = make(options);
  cache.set(options, { made, seen: values });
  return made;
}

/** @type {Encoder<any> | null} */
let defaultEncoder = null;
/** @type {Decoder<any> | null} */
let defaultDecoder = null;
/** @type {WeakMap<object, {made: Encoder<any>, seen: unknown[]}>} */
const encoders = new WeakMap();
/** @type {WeakMap<object, {made: Decoder<any>, seen: unknown[]}>} */
const decoders = new WeakMap();

/**
 * Encode a value as MessagePack, as msgpack-javascript's encode does.
 * @template [ContextType=undefined]
 * @param {unknown} value
 * @param {Readonly<EncoderOptions<ContextType>>} [options]
 * @returns {Uint8Array}
 */
export function encode(value, options) {
  const encoder = options === undefined ? defaultEncoder || (defaultEncoder = new Encoder()) : forOptions(encoders, /** @type {any} */ (options), (o) => new Encoder(o));
  return encoder.encode(value);
}

/**
 * @template [ContextType=undefined]
 * @param {Readonly<DecoderOptions<ContextType>> | undefined} options
 * @returns {Decoder<any>}
 */
function decoderFor(options) {
  return options === undefined ? defaultDecoder || (defaultDecoder = new Decoder()) : forOptions(decoders, /** @type {any} */ (options), (o) => new Decoder(o));
}

/**
 * Decode the one MessagePack value of a buffer (RangeError when it is cut short or followed by
 * more bytes, DecodeError when it is malformed).
 * @template [ContextType=undefined]
 * @param {BufferLike} buffer
 * @param {Readonly<DecoderOptions<ContextType>>} [options]
 * @returns {unknown}
 */
export function decode(buffer, options) {
  return decoderFor(options).decode(buffer);
}

/**
 * Decode the MessagePack values of a buffer, one after the other.
 * @template [ContextType=undefined]
 * @param {BufferLike} buffer
 * @param {Readonly<DecoderOptions<ContextType>>} [options]
 * @returns {Generator<unknown, void, unknown>}
 */
export function decodeMulti(buffer, options) {
  return decoderFor(options).decodeMulti(buffer);
}

/**
 * Decode the one value of a stream (a ReadableStream or an async iterable of byte chunks).
 * @template [ContextType=undefined]
 * @param {ReadableStreamLike} streamLike
 * @param {Readonly<DecoderOptions<ContextType>>} [options]
 * @returns {Promise<unknown>}
 */
export function decodeAsync(streamLike, options) {
  return new Decoder(options).decodeAsync(streamLike);
}

/**
 * The elements of the one array of a stream, as they arrive.
 * @template [ContextType=undefined]
 * @param {ReadableStreamLike} streamLike
 * @param {Readonly<DecoderOptions<ContextType>>} [options]
 * @returns {AsyncGenerator<unknown, void, unknown>}
 */
export function decodeArrayStream(streamLike, options) {
  return new Decoder(options).decodeArrayStream(streamLike);
}

/**
 * The values of a stream, as they complete.
 * @template [ContextType=undefined]
 * @param {ReadableStreamLike} streamLike
 * @param {Readonly<DecoderOptions<ContextType>>} [options]
 * @returns {AsyncGenerator<unknown, void, unknown>}
 */
export function decodeMultiStream(streamLike, options) {
  return new Decoder(options).decodeStream(streamLike);
}
