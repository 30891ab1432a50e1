// @ts-check
/*
 * json-pack's MessagePack and CBOR codec classes (`wirepack/json-pack`; the library is
 * @jsonjoy.com/json-pack): MsgPackEncoderFast, MsgPackEncoder, MsgPackEncoderStable,
 * MsgPackDecoderFast, MsgPackDecoder (and the MessagePackEncoder / MessagePackDecoder aliases),
 * CborEncoderFast, CborEncoder, CborEncoderStable, CborDecoderBase, CborDecoder, JsonPackExtension
 * and JsonPackValue, with their `encode(value)` and `decode(bytes)` / `read(bytes)`, on the same
 * runtime, tape and C codec as `wirepack`.
 *
 * What they write and read, as json-pack: MessagePack integers of 32 bits as integers, other
 * numbers as float64; undefined as 0xc1 (a byte the format reserves, which these decoders read
 * as undefined); a Uint8Array as bin (CBOR: a byte string, untagged); a JsonPackExtension as the
 * extension (CBOR: the tag) it names, a JsonPackValue as its bytes, written as they are; other
 * objects by their own enumerable keys. Decoding gives every extension and every CBOR tag as a
 * JsonPackExtension (its data a view of the input), CBOR simple values other than the four
 * constants as JsonPackValue, binaries as views of the input, MessagePack 64-bit integers as
 * numbers and CBOR ones as numbers while safe (BigInts past 2^53).
 *
 * Where it differs, on purpose: the Fast and full classes write the same bytes (json-pack's Fast
 * encoders write nothing for undefined or a BigInt, and a Uint8Array as a map of its indices); a
 * Date is MessagePack's timestamp extension, a Map the map of its entries (json-pack's
 * MessagePack encoders write {} for both); in CBOR, a Date, a typed array other than Uint8Array,
 * a Set and a class instance are written as wirepack/cbor writes them (tags 1, 64-87 and 258, the
 * map of its own keys: json-pack writes null); a BigInt outside 64 bits is a RangeError (json-pack
 * wraps it); functions and symbols are undefined (json-pack writes nothing, or null in CBOR);
 * a JsonPackValue or a MessagePack JsonPackExtension whose data is no Uint8Array is a TypeError
 * (json-pack writes garbage), and in CBOR a JsonPackValue of a number 0-19 or 32-255 is that simple value
 * (what the decoders give back); nesting deeper than 1000 is an Error (json-pack: the JS stack's).
 * Headers are the shortest (json-pack sizes a string's header by four bytes per character, and
 * writes 128-255 as uint16): other bytes, the same values. A `__proto__` key is an own property
 * (json-pack throws); a MessagePack map key that is a number is its text (json-pack reads '' and
 * loses the bytes after); malformed or truncated input is wirepack's DecodeError, with code,
 * byte offset and, for truncation, `incomplete` (json-pack throws numbers or a RangeError, or
 * reads undefined past the end); bytes after the value are an error (TRAILING_DATA; json-pack
 * stops reading after the value). The incremental API (an encoder's `writer` and its write*
 * methods, a decoder's `reader`, readAny, skip, validate and find*) is not provided; nor are
 * the Dag classes and the other formats.
 */
import { LibraryPackr } from './library-packr.js';
import { writeBytes, writeRaw, writeDate, writeHeader, E_BIN, E_EXT, E_MAP, E_UNDEF } from './encode.js';
import { Unpackr } from './decode.js';
import { Encoder as CborEncoderImpl, Decoder as CborDecoderImpl, Simple } from './cbor.js';
import { DecodeError } from './errors.js';

export { DecodeError };

/**
 * A MessagePack extension or a CBOR tag: its type or tag number, and its data (bytes for an
 * extension, any value for a tag).
 * @template [T=unknown]
 */
export class JsonPackExtension {
  /** @param {number} tag @param {T} val */
  constructor(tag, val) {
    this.tag = tag;
    this.val = val;
  }
}

/**
 * Bytes already encoded (MessagePack or CBOR), written into the output as they are; decoding
 * gives CBOR simple values (other than false, true, null and undefined) as one, its number as
 * `val`.
 * @template [T=Uint8Array]
 */
export class JsonPackValue {
  /** @param {T} val */
  constructor(val) {
    this.val = val;
  }
}

/* ------------------------------------------------------------------ MessagePack */

/**
 * The bytes to write as they are (json-pack writes whatever `val` is as if it were bytes).
 * @param {unknown} v @param {string} what
 * @returns {Uint8Array}
 */
function bytesOf(v, what) {
  if (v instanceof Uint8Array) return v;
  throw new TypeError(`wirepack/json-pack: ${what} must be a Uint8Array (got ${v === null ? 'null' : typeof v})`);
}

/** json-pack's MessagePack rules over library-packr.js's walk. */
class JsonPackPackr extends LibraryPackr {
  /** @param {boolean} sortKeys */
  constructor(sortKeys) {
    super({ wideIntegers: false, undefinedC1: true, useBigInt64: true, sortKeys, maxDepth: 1000 });
  }

  /**
   * @param {import('./encode.js').Tape} T @param {object} o @param {number} depth
   */
  writeObject(T, o, depth) {
    if (this.writeContainer(T, o, depth)) return;
    if (o instanceof Uint8Array) { writeBytes(T, E_BIN, 0, o); return; }
    if (o instanceof JsonPackExtension) { writeBytes(T, E_EXT, o.tag & 0xff, bytesOf(o.val, 'a JsonPackExtension\'s data')); return; }
    if (o instanceof JsonPackValue) { writeRaw(T, bytesOf(o.val, 'a JsonPackValue')); return; }
    if (o instanceof Date && o.getTime() === o.getTime()) { writeDate(T, o); return; }
    if (o instanceof Map) { this.writeEntries(T, o, depth); return; }
    this.writeMap(T, /** @type {Record<string, unknown>} */ (o), depth);
  }

  /**
   * A Map as the map of its entries.
   * @param {import('./encode.js').Tape} T @param {Map<unknown, unknown>} m @param {number} depth
   */
  writeEntries(T, m, depth) {
    if (m.size > 0 && depth + 2 > this.depthLimit) throw this.tooDeep(depth);
    writeHeader(T, E_MAP, m.size);
    for (const [k, v] of m) {
      this.write(T, k, depth + 1);
      this.write(T, v, depth + 1);
    }
  }

  /**
   * A symbol or a function: undefined (BigInts are int64s: useBigInt64).
   * @param {import('./encode.js').Tape} T @param {unknown} _v @param {number} _depth
   */
  writeOther(T, _v, _depth) {
    this.writeNullish(T, undefined);
  }
}

/** Accepted and not used: json-pack's encoders write into this Writer (wirepack has its own buffers). */
/** @typedef {unknown} Writer */

/** json-pack's MsgPackEncoderFast: `encode(value)` gives a fresh Uint8Array. */
export class MsgPackEncoderFast {
  /** @param {Writer} [_writer] */
  constructor(_writer) {
    /** @private (MsgPackEncoderStable: keys sorted) */
    this.packr = new JsonPackPackr(this instanceof MsgPackEncoderStable);
  }

  /**
   * @param {unknown} value
   * @returns {Uint8Array}
   */
  encode(value) {
    return this.packr.pack(value);
  }
}

/** json-pack's MsgPackEncoder (binaries, extensions, pre-encoded values, undefined): the same bytes as MsgPackEncoderFast here. */
export class MsgPackEncoder extends MsgPackEncoderFast {}

/** json-pack's MsgPackEncoderStable: object keys in sorted order. */
export class MsgPackEncoderStable extends MsgPackEncoder {}

/** Every extension as a JsonPackExtension of its unsigned type (json-pack reads the type byte so). */
const extensionCodec = {
  /** @param {Uint8Array} data @param {number} type */
  decode: (data, type) => new JsonPackExtension(type & 0xff, data),
};

/** json-pack's MsgPackDecoderFast: `decode(bytes)` (or `read(bytes)`) gives the one value of the bytes. */
export class MsgPackDecoderFast {
  /** @param {unknown} [_reader] accepted and not used @param {unknown} [_keyDecoder] accepted and not used */
  constructor(_reader, _keyDecoder) {
    /** @private */
    this.unpackr = new Unpackr({
      useRecords: false, mapsAsObjects: true, int64AsType: 'number', extensionCodec, strictKeys: false, undefinedC1: true,
    });
  }

  /**
   * @param {Uint8Array} bytes
   * @returns {unknown}
   */
  decode(bytes) {
    return this.unpackr.unpack(bytes);
  }

  /**
   * @param {Uint8Array} bytes
   * @returns {unknown}
   */
  read(bytes) {
    return this.unpackr.unpack(bytes);
  }
}

/** json-pack's MsgPackDecoder: its decode and read, as MsgPackDecoderFast's. */
export class MsgPackDecoder extends MsgPackDecoderFast {}

export { MsgPackEncoder as MessagePackEncoder, MsgPackDecoder as MessagePackDecoder };

/* ------------------------------------------------------------------ CBOR */

/** json-pack's CBOR rules over wirepack/cbor's Encoder. */
class JsonPackCborEncoder extends CborEncoderImpl {
  /** @param {boolean} deterministic */
  constructor(deterministic) {
    super({ useRecords: false, tagUint8Array: false, useTag259ForMaps: false, deterministic });
    this.plainResult = true;
  }

  /**
   * @param {import('./encode.js').Tape} T @param {object} o @param {number} depth
   */
  writeObject(T, o, depth) {
    if (o instanceof JsonPackExtension) {
      this.writeTag(T, o.tag);
      this.write(T, o.val, depth);
      return;
    }
    if (o instanceof JsonPackValue) {
      // (a simple value as the decoders give it back: its number; else bytes as they are)
      if (typeof o.val === 'number' && (o.val | 0) === o.val && ((o.val >= 0 && o.val < 20) || (o.val >= 32 && o.val <= 255))) super.writeObject(T, new Simple(o.val), depth);
      else writeRaw(T, bytesOf(o.val, 'a JsonPackValue'));
      return;
    }
    super.writeObject(T, o, depth);
  }

  /**
   * A symbol is undefined, as a function is (wirepack/cbor's rule for the rest).
   * @param {import('./encode.js').Tape} T @param {unknown} v @param {number} depth
   */
  writeRare(T, v, depth) {
    if (typeof v === 'symbol') T.u32[T.p++] = E_UNDEF;
    else super.writeRare(T, v, depth);
  }
}

/** json-pack's CborEncoderFast: `encode(value)` gives a fresh Uint8Array. */
export class CborEncoderFast {
  /** @param {Writer} [_writer] */
  constructor(_writer) {
    /** @private (CborEncoderStable: deterministic) */
    this.encoder = new JsonPackCborEncoder(this instanceof CborEncoderStable);
  }

  /**
   * @param {unknown} value
   * @returns {Uint8Array}
   */
  encode(value) {
    return this.encoder.encode(value);
  }
}

/** json-pack's CborEncoder: the same bytes as CborEncoderFast here. */
export class CborEncoder extends CborEncoderFast {}

/** json-pack's CborEncoderStable: map keys in sorted (deterministic) order. */
export class CborEncoderStable extends CborEncoder {}

/** json-pack's CBOR decoding over wirepack/cbor's Decoder: every tag a JsonPackExtension. */
class JsonPackCborDecoder extends CborDecoderImpl {
  constructor() {
    super({ useRecords: false, mapsAsObjects: true, int64AsType: 'auto', inputViews: true });
  }

  /**
   * @param {number | bigint} tag @param {unknown} value @param {unknown} _reader
   * @returns {JsonPackExtension}
   */
  decodeTag(tag, value, _reader) {
    return new JsonPackExtension(Number(tag), value);
  }

  /** @param {number} value @returns {JsonPackValue<number>} */
  decodeSimple(value) {
    return new JsonPackValue(value);
  }
}

/** json-pack's CborDecoderBase: `decode(bytes)` (or `read(bytes)`) gives the one value of the bytes. */
export class CborDecoderBase {
  /** @param {unknown} [_reader] accepted and not used @param {unknown} [_keyDecoder] accepted and not used */
  constructor(_reader, _keyDecoder) {
    /** @private */
    this.decoder = new JsonPackCborDecoder();
  }

  /**
   * @param {Uint8Array} bytes
   * @returns {unknown}
   */
  decode(bytes) {
    return this.decoder.decode(bytes);
  }

  /**
   * @param {Uint8Array} bytes
   * @returns {unknown}
   */
  read(bytes) {
    return this.decoder.decode(bytes);
  }
}

/** json-pack's CborDecoder: its decode and read, as CborDecoderBase's. */
export class CborDecoder extends CborDecoderBase {}
