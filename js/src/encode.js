// @ts-check
/**
 * Encoding: JS walks the value into a compact tape (csrc/wirepack.h, encode tags) in a buffer of
 * its own, copies it into wasm memory in one call, and C writes the MessagePack bytes, choosing
 * the smallest form of every header and integer. The result is copied out once.
 */
import { ExtData } from './ext.js';
import { runtime, releaseMemory } from './runtime.js';
import { DEFAULT_MAX_DEPTH } from './decode.js';

const NodeBuffer = /** @type {typeof Buffer | undefined} */ (globalThis.Buffer);
const textEncoder = new TextEncoder();

/** msgpackr's float32 choices. */
export const FLOAT32_OPTIONS = Object.freeze({ NEVER: 0, ALWAYS: 1, DECIMAL_ROUND: 3, DECIMAL_FIT: 4 });

// Encode tags (csrc/wirepack.h)
const E_NIL = 0, E_FALSE = 1, E_TRUE = 2, E_UNDEF = 3, E_INT = 4, E_UINT = 5, E_F64 = 6, E_F32 = 7;
const E_I64 = 8, E_U64 = 9, E_STR = 10, E_BIN = 11, E_ARR = 12, E_MAP = 13, E_EXT = 14, E_DATE = 15, E_BADDATE = 16;
const ESC = 0xffffff;

/** msgpackr's table: binary exponent -> decimal multiplier (for DECIMAL_FIT). */
const mult10 = new Array(256);
for (let i = 0; i < 256; i++) mult10[i] = +('1e' + Math.floor(45.15 - i * 0.30103));

/**
 * @typedef {object} PackOptions
 * @property {number} [useFloat32] FLOAT32_OPTIONS: ALWAYS and DECIMAL_ROUND write non-integer
 *   numbers in the float32 range as float32; DECIMAL_FIT only when no decimal digit is lost
 * @property {number} [maxDepth] maximum nesting (default 1000); deeper (or cyclic) values throw
 * @property {boolean} [useRecords] accepted for msgpackr compatibility (records: later)
 */

const INITIAL_WORDS = 1 << 14;
/** Copies up to this many words (tape) or 4x as many bytes (output) are done with a loop. */
const SMALL_COPY = 32;

/** The reusable tape a Packr writes into. */
export class Tape {
  constructor() {
    const ab = new ArrayBuffer(INITIAL_WORDS * 4);
    this.ab = ab;
    this.u32 = new Uint32Array(ab);
    this.f64 = new Float64Array(ab);
    this.f32 = new Float32Array(ab);
    this.u8 = new Uint8Array(ab);
    /** @type {import('./runtime.js').NodeBuf | null} */
    this.nb = NodeBuffer ? /** @type {any} */ (NodeBuffer.from(ab)) : null;
    this.cap = this.u32.length;
    this.p = 0;
    this.busy = false;
    /** CBOR structuredClone: objects written so far (first tape position, reference slots) */
    /** @type {Map<object, {pos: number, uses: number[]}> | null} */
    this.refs = null;
  }

  views() {
    const ab = this.ab;
    this.u32 = new Uint32Array(ab);
    this.f64 = new Float64Array(ab);
    this.f32 = new Float32Array(ab);
    this.u8 = new Uint8Array(ab);
    this.nb = NodeBuffer ? /** @type {any} */ (NodeBuffer.from(ab)) : null;
    this.cap = this.u32.length;
  }

  /** Grow (by doubling) so that `words` more words fit. @param {number} words */
  grow(words) {
    let cap = this.cap * 2;
    while (cap < this.p + words) cap *= 2;
    if (cap > 0x3fffffff) throw new RangeError('wirepack: value too large to encode');
    const ab = new ArrayBuffer(cap * 4);
    new Uint8Array(ab).set(new Uint8Array(this.ab, 0, this.p * 4));
    this.ab = ab;
    this.views();
  }
}

/** A MessagePack encoder with options (msgpackr's Packr). */
export class Packr {
  /** @param {Readonly<PackOptions>} [options] */
  constructor(options) {
    const o = options || {};
    /** @type {number} */
    this.useFloat32 = o.useFloat32 || 0;
    /** @type {number} */
    this.maxDepth = o.maxDepth === undefined ? DEFAULT_MAX_DEPTH : o.maxDepth;
    /** @type {Tape | null} */
    this.tape = null;
    /** -1 for MessagePack; WP_CBOR_* flags for CBOR (set by the CBOR Encoder) */
    this.cborFlags = -1;
  }

  /** @param {Tape} T @param {bigint} v */
  writeBigInt(T, v) {
    writeBigInt(T, v);
  }

  /**
   * Anything a format writes before the top-level value (nothing for MessagePack).
   * @param {Tape} _T
   */
  writePrefix(_T) {}

  /**
   * Anything a format patches into the tape after the walk (nothing for MessagePack).
   * @param {Tape} _T
   */
  finishTape(_T) {}

  /**
   * Encode a value as MessagePack. Returns a Buffer in Node, a Uint8Array elsewhere; it never
   * shares memory with wasm or with other results.
   * @param {unknown} value
   * @returns {Uint8Array}
   */
  pack(value) {
    let tape = this.tape;
    if (tape === null || tape.busy) {
      // a value's toJSON or getter may call pack again: a nested call gets its own tape
      tape = new Tape();
      if (this.tape === null) this.tape = tape;
    }
    tape.busy = true;
    try {
      tape.p = 0;
      this.writePrefix(tape);
      this.write(tape, value, 0);
      this.finishTape(tape);
      return emit(tape, this.cborFlags);
    } finally {
      tape.busy = false;
      releaseMemory();
    }
  }

  /** @param {unknown} value */
  encode(value) {
    return this.pack(value);
  }

  /**
   * @param {Tape} T
   * @param {unknown} v
   * @param {number} depth
   */
  write(T, v, depth) {
    if (T.p + 8 > T.cap) T.grow(8);
    switch (typeof v) {
      case 'string': writeString(T, v); return;
      case 'number': this.writeNumber(T, v); return;
      case 'boolean': T.u32[T.p++] = v ? E_TRUE : E_FALSE; return;
      case 'undefined': case 'function': T.u32[T.p++] = E_UNDEF; return;
      case 'bigint': this.writeBigInt(T, v); return;
      case 'object':
        if (v === null) { T.u32[T.p++] = E_NIL; return; }
        if (depth >= this.maxDepth) throw new RangeError('wirepack: value nested deeper than maxDepth (or cyclic)');
        this.writeObject(T, /** @type {object} */ (v), depth + 1);
        return;
      default: throw new TypeError('Unknown type: ' + typeof v);
    }
  }

  /** @param {Tape} T @param {number} v */
  writeNumber(T, v) {
    const u32 = T.u32;
    if ((v >>> 0) === v) {
      u32[T.p] = E_UINT; u32[T.p + 1] = v; T.p += 2;
    } else if ((v >> 0) === v) {
      u32[T.p] = E_INT; u32[T.p + 1] = v; T.p += 2;
    } else if (this.useFloat32 > 0 && v < 4294967296 && v >= -2147483648 && f32Fits(T, v, this.useFloat32)) {
      u32[T.p] = E_F32; T.p += 2;
    } else {
      const p = T.p;
      const a = (p + 2) & ~1;
      u32[p] = E_F64;
      T.f64[a >> 1] = v;
      T.p = a + 2;
    }
  }

  /** @param {Tape} T @param {object} o @param {number} depth */
  writeObject(T, o, depth) {
    if (Array.isArray(o)) {
      const n = o.length;
      writeHeader(T, E_ARR, n);
      for (let i = 0; i < n; i++) this.write(T, o[i], depth);
      return;
    }
    const proto = Object.getPrototypeOf(o);
    if (proto === Object.prototype || proto === null) {
      this.writeMap(T, /** @type {Record<string, unknown>} */ (o), depth);
      return;
    }
    if (o instanceof Uint8Array) { writeBytes(T, E_BIN, 0, o); return; }
    if (o instanceof Date) { writeDate(T, o); return; }
    if (o instanceof Map) {
      writeHeader(T, E_MAP, o.size);
      for (const [k, v] of o) {
        this.write(T, k, depth);
        this.write(T, v, depth);
      }
      return;
    }
    if (o instanceof ExtData) { writeBytes(T, E_EXT, o.type & 0xff, o.data); return; }
    if (o instanceof ArrayBuffer) { writeBytes(T, E_BIN, 0, new Uint8Array(o)); return; }
    if (ArrayBuffer.isView(o)) { writeBytes(T, E_BIN, 0, new Uint8Array(o.buffer, o.byteOffset, o.byteLength)); return; }
    this.writeMap(T, /** @type {Record<string, unknown>} */ (o), depth);
  }

  /** @param {Tape} T @param {Record<string, unknown>} o @param {number} depth */
  writeMap(T, o, depth) {
    const keys = Object.keys(o);
    const n = keys.length;
    writeHeader(T, E_MAP, n);
    for (let i = 0; i < n; i++) {
      const k = keys[i];
      writeString(T, k);
      this.write(T, o[k], depth);
    }
  }
}

/**
 * Whether v goes out as float32 under the option; leaves the bits in the tape when it does.
 * @param {Tape} T @param {number} v @param {number} mode
 */
function f32Fits(T, v, mode) {
  T.f32[T.p + 1] = v;
  if (mode < 4) return true;
  const m = mult10[(T.u32[T.p + 1] >>> 23) & 0xff];
  const x = v * m;
  return (x >> 0) === x;
}

/** @param {Tape} T @param {number} tag @param {number} n */
export function writeHeader(T, tag, n) {
  if (n < ESC) {
    T.u32[T.p++] = tag | (n << 8);
  } else {
    T.u32[T.p] = tag | (ESC << 8);
    T.u32[T.p + 1] = n;
    T.p += 2;
  }
}

/** @param {Tape} T @param {string} s */
function writeString(T, s) {
  const n = s.length;
  const max = 3 * n;
  const words = 2 + ((max + 3) >> 2);
  if (T.p + words > T.cap) T.grow(words);
  const hdr = T.p;
  const esc = max >= ESC;
  const b = (hdr + (esc ? 2 : 1)) << 2;
  const u8 = T.u8;
  let len = 0;
  if (n < 64) {
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      u8[b + i] = c;
    }
    len = i === n ? n : utf8Write(T, s, b, max);
  } else {
    len = utf8Write(T, s, b, max);
  }
  if (esc) {
    T.u32[hdr] = E_STR | (ESC << 8);
    T.u32[hdr + 1] = len;
    T.p = hdr + 2 + ((len + 3) >> 2);
  } else {
    T.u32[hdr] = E_STR | (len << 8);
    T.p = hdr + 1 + ((len + 3) >> 2);
  }
}

/** @param {Tape} T @param {string} s @param {number} at @param {number} max */
function utf8Write(T, s, at, max) {
  if (T.nb !== null) return T.nb.utf8Write(s, at, max);
  return textEncoder.encodeInto(s, T.u8.subarray(at, at + max)).written;
}

/** @param {Tape} T @param {number} tag @param {number} type @param {Uint8Array} data */
export function writeBytes(T, tag, type, data) {
  const n = data.length;
  const words = 3 + ((n + 3) >> 2);
  if (T.p + words > T.cap) T.grow(words);
  let p = T.p;
  if (tag === E_EXT) {
    T.u32[p] = E_EXT | (type << 8);
    T.u32[p + 1] = n;
    p += 2;
  } else if (n < ESC) {
    T.u32[p++] = tag | (n << 8);
  } else {
    T.u32[p] = tag | (ESC << 8);
    T.u32[p + 1] = n;
    p += 2;
  }
  T.u8.set(data, p << 2);
  T.p = p + ((n + 3) >> 2);
}

const TWO32 = 4294967296;

/** @param {Tape} T @param {Date} d */
function writeDate(T, d) {
  const ms = d.getTime();
  if (ms !== ms) { T.u32[T.p++] = E_BADDATE; return; }
  const sec = Math.floor(ms / 1000);
  const nsec = (ms - sec * 1000) * 1000000;
  const u32 = T.u32, p = T.p;
  u32[p] = E_DATE;
  u32[p + 1] = sec >>> 0;                       // low word (two's complement)
  u32[p + 2] = Math.floor(sec / TWO32) >>> 0;   // high word
  u32[p + 3] = nsec;
  T.p = p + 4;
}

const I64_MIN = -(1n << 63n), U64_MAX = (1n << 64n) - 1n;

/** @param {Tape} T @param {bigint} v */
function writeBigInt(T, v) {
  if (v < I64_MIN || v > U64_MAX) {
    throw new RangeError(`${v} was too large to fit in MessagePack 64-bit integer format`);
  }
  const u = BigInt.asUintN(64, v);
  const u32 = T.u32, p = T.p;
  // BigInts keep their 64-bit form so they decode back as BigInt (msgpackr does the same)
  u32[p] = v < 0n || v < (1n << 63n) ? E_I64 : E_U64;
  u32[p + 1] = Number(u & 0xffffffffn);
  u32[p + 2] = Number(u >> 32n);
  T.p = p + 3;
}

/**
 * Copy the tape into wasm memory, run the C encoder, and copy the bytes out.
 * @param {Tape} T
 * @param {number} cborFlags -1 for MessagePack, else WP_CBOR_* flags
 * @returns {Uint8Array}
 */
function emit(T, cborFlags) {
  const rt = runtime();
  const x = rt.x;
  const words = T.p;
  if (!rt.reserve(words * 4)) throw new RangeError('wirepack: out of wasm memory');
  const dst = rt.u32, base = rt.base >> 2;
  if (words <= SMALL_COPY) {
    // small tapes: a loop beats creating a subarray view for set()
    const src = T.u32;
    for (let i = 0; i < words; i++) dst[base + i] = src[i];
  } else {
    dst.set(T.u32.subarray(0, words), base);
  }
  const err = cborFlags < 0 ? x.wpw_encode(words) : x.wpw_cbor_encode(words, cborFlags);
  rt.refresh();
  if (err !== 0) throw new Error(`wirepack: encoder failed (code ${err})`);
  const out = rt.u32[rt.res], n = rt.u32[rt.res + 1];
  if (NodeBuffer) {
    const b = NodeBuffer.allocUnsafe(n);
    if (n <= SMALL_COPY * 4) {
      const u8 = rt.u8;
      for (let i = 0; i < n; i++) b[i] = u8[out + i];
    } else {
      b.set(rt.u8.subarray(out, out + n));
    }
    return b;
  }
  return rt.u8.slice(out, out + n);
}
