// @ts-check
/*
 * The walk of the MessagePack libraries that write no msgpackr extensions, over wirepack's tape
 * (encode.js): a Packr whose write methods follow the rules @msgpack/msgpack and json-pack share
 * (integers of 32 bits as int/uint, other numbers as floats, undefined as a value of its own,
 * arrays, plain objects by their own enumerable keys, no toJSON, no records). wirepack/msgpack
 * (msgpack.js) and wirepack/json-pack (json-pack.js) subclass it with writeObject and writeOther,
 * which decide what every other object, BigInt, symbol and function becomes.
 */
import {
  Packr, KeyNode, writeKey, writeString, writeHeader, writeRaw, writeF64, writeNumberRun,
  E_NIL, E_FALSE, E_TRUE, E_INT, E_UINT, E_F32, E_I64, E_U64, E_ARR, E_MAP, ESC,
} from './encode.js';
import { put64 } from './decode.js';

const TWO32 = 0x100000000;
/** 0xc1: json-pack's undefined (a byte MessagePack reserves) */
const C1 = new Uint8Array([0xc1]);

/**
 * @typedef {object} LibraryPackrOptions
 * @property {boolean} [useBigInt64] BigInts as int64/uint64 (and integers past 32 bits as floats)
 * @property {number} [maxDepth] deepest nesting of values (default 100)
 * @property {boolean} [sortKeys] object keys in sorted order
 * @property {boolean} [forceFloat32] non-integers as float32
 * @property {boolean} [ignoreUndefined] object properties whose value is undefined are left out
 * @property {boolean} [forceIntegerToFloat] integers as floats too
 * @property {boolean} [wideIntegers] safe integers past 32 bits as uint64 / int64 (default true;
 *   false: as floats, as json-pack writes them)
 * @property {boolean} [undefinedC1] undefined as 0xc1 (json-pack) instead of nil
 */

/**
 * Its fields are set in one order whatever the options, so that every instance of a subclass
 * has one hidden class; results are plain Uint8Arrays (plainResult).
 */
export class LibraryPackr extends Packr {
  /** @param {Readonly<LibraryPackrOptions>} o */
  constructor(o) {
    super({ useRecords: false });
    this.plainResult = true;
    this.bigInt64 = !!o.useBigInt64;
    /** @type {number} */
    this.depthLimit = o.maxDepth === undefined ? 100 : o.maxDepth;
    this.sortKeys = !!o.sortKeys;
    this.forceFloat32 = !!o.forceFloat32;
    this.ignoreUndefined = !!o.ignoreUndefined;
    this.forceIntegerToFloat = !!o.forceIntegerToFloat;
    this.wideIntegers = o.wideIntegers !== false;
    this.undefinedC1 = !!o.undefinedC1;
    /** arrays of numbers may go as number runs (C writes each as writeNumber would) */
    this.runs = !this.forceFloat32 && !this.forceIntegerToFloat;
    // Packr#write's number case: 32-bit integers there, other numbers here; every number here
    // with forceIntegerToFloat
    this.ownNumbers = this.forceIntegerToFloat;
    this.ownWide = true;
    // (the depth limit is depthLimit's, checked by the containers)
    this.maxDepth = Infinity;
  }

  /** @param {import('./encode.js').Tape} _T */
  writePrefix(_T) {
    if (this.depthLimit < 1) throw new Error('Too deep objects in depth 1');
  }

  // (No write() of its own: Packr#write is the walk's one call a value, with its short-string and
  // 32-bit integer cases in its body, and it calls writeObject, writeRare and, for other numbers
  // (ownWide), writeNumber below. Against the write() this class had (small, so V8 inlined it
  // into the walk, and calling Packr#write for each string), the json-pack view encodes
  // sample-small 1.16x faster and sample-datatypes 1.08x (bench/ab.js --mode=peer, 12 fresh
  // processes; after a full run's history in the process 0.94-1.07x and 0.93x, which is noise
  // there). A write() of 525 bytes here, too large
  // to inline, with the short-string loop as a helper that Packr#write shared, gained as much, but
  // Packr's own encodes lost 9-14% after history (the helper was not inlined into Packr#write
  // there). The depth that Packr#write gives writeObject is the container's level, the top
  // value's 1.)

  /**
   * undefined, null, BigInts, symbols and functions (Packr#write's other cases).
   * @param {import('./encode.js').Tape} T @param {unknown} v @param {number} level
   */
  writeRare(T, v, level) {
    if (v == null) this.writeNullish(T, v);
    else if (typeof v === 'bigint' && this.bigInt64) this.writeBigInt64(T, v);
    else this.writeOther(T, v, level);
  }

  /** @param {import('./encode.js').Tape} T @param {null | undefined} v */
  writeNullish(T, v) {
    if (v === undefined && this.undefinedC1) writeRaw(T, C1);
    else T.u32[T.p++] = E_NIL;
  }

  /**
   * A number that is not a 32-bit integer (Packr#write, ownWide), or any number with
   * forceIntegerToFloat (ownNumbers).
   * @param {import('./encode.js').Tape} T @param {number} v
   */
  writeNumber(T, v) {
    const u32 = T.u32;
    if (this.forceIntegerToFloat) {
      this.writeFloat(T, v);
    } else if ((v >>> 0) === v) {
      u32[T.p] = E_UINT; u32[T.p + 1] = v; T.p += 2;
    } else if ((v >> 0) === v) {
      u32[T.p] = E_INT; u32[T.p + 1] = v; T.p += 2;
    } else if (this.wideIntegers && Number.isSafeInteger(v) && !this.bigInt64) {
      // uint64 / int64, as msgpack-javascript writes integers past 32 bits
      const p = T.p;
      u32[p] = v > 0 ? E_U64 : E_I64;
      u32[p + 1] = v >>> 0;
      u32[p + 2] = Math.floor(v / TWO32) >>> 0;
      T.p = p + 3;
    } else {
      this.writeFloat(T, v);
    }
  }

  /** @param {import('./encode.js').Tape} T @param {number} v */
  writeFloat(T, v) {
    if (this.forceFloat32) {
      // (the float32 bits straight into the entry's second word, through the tape's own view)
      T.u32[T.p] = E_F32;
      T.f32[T.p + 1] = v;
      T.p += 2;
    } else {
      writeF64(T, v);
    }
  }

  /** @param {import('./encode.js').Tape} T @param {bigint} v */
  writeBigInt64(T, v) {
    if (v < -(2n ** 63n) || v >= 2n ** 64n) throw new RangeError(`${v} does not fit in 64 bits (MessagePack int64 / uint64)`);
    const p = T.p;
    T.u32[p] = v >= 0n ? E_U64 : E_I64;
    put64(T.u32, p + 1, v);
    T.p = p + 3;
  }

  /**
   * An array, or a plain object (null prototype too) by its own enumerable keys: both libraries'
   * rule for them, after whatever a subclass tries first.
   * @param {import('./encode.js').Tape} T @param {object} o @param {number} level
   * @returns {boolean} whether o was one (and is written)
   */
  writeContainer(T, o, level) {
    if (Array.isArray(o)) { this.writeArray(T, o, level); return true; }
    const proto = Object.getPrototypeOf(o);
    if (proto !== Object.prototype && proto !== null) return false;
    if (T.forIn && !this.sortKeys) this.writePlainMap(T, /** @type {Record<string, unknown>} */ (o), level);
    else this.writeMap(T, /** @type {Record<string, unknown>} */ (o), level);
    return true;
  }

  /**
   * Any object but null (the subclass's rules).
   * @param {import('./encode.js').Tape} _T @param {object} _o @param {number} _level
   */
  writeObject(_T, _o, _level) {
    throw new Error('wirepack: LibraryPackr#writeObject');
  }

  /**
   * A BigInt (without useBigInt64), symbol or function (the subclass's rules).
   * @param {import('./encode.js').Tape} _T @param {unknown} _v @param {number} _level
   */
  writeOther(_T, _v, _level) {
    throw new Error('wirepack: LibraryPackr#writeOther');
  }

  /**
   * The libraries' error for a container at `level` (the top value's 1) that has values, when
   * level >= depthLimit.
   * @param {number} level
   */
  tooDeep(level) {
    return new Error(`Too deep objects in depth ${level + 1}`);
  }

  /** @param {import('./encode.js').Tape} T @param {unknown[]} o @param {number} level */
  writeArray(T, o, level) {
    const n = o.length;
    if (n > 0 && level >= this.depthLimit) throw this.tooDeep(level);
    writeHeader(T, E_ARR, n);
    let i = 0;
    if (n >= 2 && typeof o[0] === 'number' && this.runs && n < ESC) i = writeNumberRun(T, o, n, this.wideIntegers);
    for (; i < n; i++) this.write(T, o[i], level);
  }

  /**
   * A plain object's own enumerable keys by for-in (Object.keys order while T.forIn holds), the
   * count patched into a two-word header after (undefined values may be left out).
   * @param {import('./encode.js').Tape} T @param {Record<string, unknown>} o @param {number} level
   */
  writePlainMap(T, o, level) {
    if (T.p + 2 > T.cap) T.grow(2);
    const hdr = T.p;
    T.p = hdr + 2;
    let n = 0;
    const ctx = T.kctx, skip = this.ignoreUndefined;
    /** @type {KeyNode | null} */
    let node = ctx === null ? T.kc.root : ctx.sub !== null ? ctx.sub : (ctx.sub = new KeyNode('', 0, 0));
    for (const k in o) {
      const v = o[k];
      if (skip && v === undefined) continue;
      if (n === 0 && level >= this.depthLimit) throw this.tooDeep(level);
      node = writeKey(T, node, k);
      T.kctx = node;
      this.write(T, v, level);
      n++;
    }
    T.kctx = ctx;
    T.u32[hdr] = E_MAP | (ESC << 8);
    T.u32[hdr + 1] = n;
  }

  /**
   * Any other object as the map of Object.keys (sorted with sortKeys).
   * @param {import('./encode.js').Tape} T @param {Record<string, unknown>} o @param {number} level
   */
  writeMap(T, o, level) {
    const keys = Object.keys(o);
    if (this.sortKeys) keys.sort();
    let n = keys.length;
    if (this.ignoreUndefined) {
      for (let i = 0; i < keys.length; i++) if (o[keys[i]] === undefined) n--;
    }
    if (n > 0 && level >= this.depthLimit) throw this.tooDeep(level);
    writeHeader(T, E_MAP, n);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i], v = o[k];
      if (this.ignoreUndefined && v === undefined) continue;
      writeString(T, k);
      this.write(T, v, level);
    }
  }
}
