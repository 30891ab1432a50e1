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
  writeBlobString, writeLongString, utf8Tail, BLOB_AFTER, BLOB_MIN, SHORT_STRING,
  E_NIL, E_FALSE, E_TRUE, E_INT, E_UINT, E_F32, E_I64, E_U64, E_STR, E_ARR, E_MAP, ESC,
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
  }

  /** @param {import('./encode.js').Tape} _T */
  writePrefix(_T) {
    if (this.depthLimit < 1) throw new Error('Too deep objects in depth 1');
  }

  /**
   * Write one value. Its string case is a copy of Packr#write's (the blob and long-string cases,
   * and the short-string loop; no bundle here), where it called Packr#write for each string: a
   * call V8 inlined here or not depending on what the process had run before. With the copy this
   * write is too large for V8 to inline into the walk (over 460 bytes of bytecode), as
   * Packr#write is (see there why that helps); a helper shared by the two copies was not inlined
   * into Packr#write after a full run's history, which cost Packr 9-14%. (Packr#write's string
   * case reads nothing of `this` without a bundle, so its receivers were never the cause.)
   * Against the write that called Packr#write (bench/ab.js --mode=peer): in fresh
   * processes (12), json-pack's sample-small 1.06x (CBOR 1.07x), example4 1.11x,
   * sample-datatypes 1.02x; after every input of a full run, views included (--history=all, 8):
   * json-pack's sample-small 1.11x (CBOR 1.05x), and Packr's own sample-small 1.09x (CBOR 1.11x),
   * sample-medium 0.95x (a run of this kind moves by about ±15%).
   * @param {import('./encode.js').Tape} T @param {unknown} v
   * @param {number} depth the value's depth, the top value's 0
   */
  write(T, v, depth) {
    if (T.p + 8 > T.cap) T.grow(8);
    const type = typeof v;
    if (type === 'string') {
      // Packr#write's string case, copied (no bundle here; change both)
      const s = /** @type {string} */ (v);
      const n = s.length;
      if ((T.chars += n) > BLOB_AFTER && n >= BLOB_MIN && writeBlobString(T, s, n)) return;
      if (n >= SHORT_STRING) {
        writeLongString(T, s, n);
        return;
      }
      const charCodeAt = String.prototype.charCodeAt;
      if (T.p + 1 + n > T.cap) T.grow(1 + n);
      const hdr = T.p, u8 = T.u8, u32 = T.u32;
      let w = hdr + 1, i = 0;
      for (const n4 = n - 3; i < n4; i += 4) {
        const c0 = charCodeAt.call(s, i), c1 = charCodeAt.call(s, i + 1);
        const c2 = charCodeAt.call(s, i + 2), c3 = charCodeAt.call(s, i + 3);
        if ((c0 | c1 | c2 | c3) >= 0x80) break;
        u32[w++] = c0 | (c1 << 8) | (c2 << 16) | (c3 << 24);
      }
      let b = w << 2;
      for (; i < n; i++) {
        const c = charCodeAt.call(s, i);
        if (c >= 0x80) break;
        u8[b++] = c;
      }
      if (i < n) b = utf8Tail(u8, s, i, n, b);
      const len = b - ((hdr + 1) << 2);
      u32[hdr] = E_STR | (len << 8);
      T.p = hdr + 1 + ((len + 3) >> 2);
    } else if (type === 'number') this.writeNumber(T, /** @type {number} */ (v));
    else if (type === 'object' && v !== null) this.writeObject(T, /** @type {object} */ (v), depth);
    else if (type === 'boolean') T.u32[T.p++] = v ? E_TRUE : E_FALSE;
    else if (v == null) this.writeNullish(T, v);
    else if (type === 'bigint' && this.bigInt64) this.writeBigInt64(T, /** @type {bigint} */ (v));
    else this.writeOther(T, v, depth);
  }

  /** @param {import('./encode.js').Tape} T @param {null | undefined} v */
  writeNullish(T, v) {
    if (v === undefined && this.undefinedC1) writeRaw(T, C1);
    else T.u32[T.p++] = E_NIL;
  }

  /** @param {import('./encode.js').Tape} T @param {number} v */
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
   * @param {import('./encode.js').Tape} T @param {object} o @param {number} depth
   * @returns {boolean} whether o was one (and is written)
   */
  writeContainer(T, o, depth) {
    if (Array.isArray(o)) { this.writeArray(T, o, depth); return true; }
    const proto = Object.getPrototypeOf(o);
    if (proto !== Object.prototype && proto !== null) return false;
    if (T.forIn && !this.sortKeys) this.writePlainMap(T, /** @type {Record<string, unknown>} */ (o), depth);
    else this.writeMap(T, /** @type {Record<string, unknown>} */ (o), depth);
    return true;
  }

  /**
   * Any object but null (the subclass's rules).
   * @param {import('./encode.js').Tape} _T @param {object} _o @param {number} _depth
   */
  writeObject(_T, _o, _depth) {
    throw new Error('wirepack: LibraryPackr#writeObject');
  }

  /**
   * A BigInt (without useBigInt64), symbol or function (the subclass's rules).
   * @param {import('./encode.js').Tape} _T @param {unknown} _v @param {number} _depth
   */
  writeOther(_T, _v, _depth) {
    throw new Error('wirepack: LibraryPackr#writeOther');
  }

  /** @param {number} depth */
  tooDeep(depth) {
    return new Error(`Too deep objects in depth ${depth + 2}`);
  }

  /** @param {import('./encode.js').Tape} T @param {unknown[]} o @param {number} depth */
  writeArray(T, o, depth) {
    const n = o.length;
    if (n > 0 && depth + 2 > this.depthLimit) throw this.tooDeep(depth);
    writeHeader(T, E_ARR, n);
    let i = 0;
    if (n >= 2 && typeof o[0] === 'number' && this.runs && n < ESC) i = writeNumberRun(T, o, n, this.wideIntegers);
    for (; i < n; i++) this.write(T, o[i], depth + 1);
  }

  /**
   * A plain object's own enumerable keys by for-in (Object.keys order while T.forIn holds), the
   * count patched into a two-word header after (undefined values may be left out).
   * @param {import('./encode.js').Tape} T @param {Record<string, unknown>} o @param {number} depth
   */
  writePlainMap(T, o, depth) {
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
      if (n === 0 && depth + 2 > this.depthLimit) throw this.tooDeep(depth);
      node = writeKey(T, node, k);
      T.kctx = node;
      this.write(T, v, depth + 1);
      n++;
    }
    T.kctx = ctx;
    T.u32[hdr] = E_MAP | (ESC << 8);
    T.u32[hdr + 1] = n;
  }

  /**
   * Any other object as the map of Object.keys (sorted with sortKeys).
   * @param {import('./encode.js').Tape} T @param {Record<string, unknown>} o @param {number} depth
   */
  writeMap(T, o, depth) {
    const keys = Object.keys(o);
    if (this.sortKeys) keys.sort();
    let n = keys.length;
    if (this.ignoreUndefined) {
      for (let i = 0; i < keys.length; i++) if (o[keys[i]] === undefined) n--;
    }
    if (n > 0 && depth + 2 > this.depthLimit) throw this.tooDeep(depth);
    writeHeader(T, E_MAP, n);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i], v = o[k];
      if (this.ignoreUndefined && v === undefined) continue;
      writeString(T, k);
      this.write(T, v, depth + 1);
    }
  }
}
