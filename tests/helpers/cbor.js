// CBOR test helpers (no Buffer, no wirepack import: these run in Node and in Chromium, and are
// shared by the cbor-*.test.js files).
import { hex } from './bytes.js';

// ------------------------------------------------------------------ building CBOR bytes

/**
 * Hex of a CBOR head (major type + argument) in its shortest form, or with a forced additional
 * information `ai` (24..27) to write a longer, non-preferred head.
 * @param {number} major 0..7
 * @param {number | bigint} n argument
 * @param {number} [ai]
 */
export function head(major, n, ai) {
  const v = BigInt(n);
  if (v < 0n || v >= 2n ** 64n) throw new RangeError('head: argument out of range');
  if (ai === undefined) ai = v < 24n ? Number(v) : v < 0x100n ? 24 : v < 0x10000n ? 25 : v < 0x100000000n ? 26 : 27;
  const ib = ((major << 5) | ai).toString(16).padStart(2, '0');
  if (ai < 24) return ib;
  const bytes = 1 << (ai - 24);
  if (v >= 1n << BigInt(8 * bytes)) throw new RangeError('head: argument does not fit');
  return ib + v.toString(16).padStart(bytes * 2, '0');
}

/** Hex of a CBOR text string. */
export const tstr = (s) => {
  const b = new TextEncoder().encode(s);
  return head(3, b.length) + hex(b);
};
/** Hex of a CBOR byte string. */
export const bstr = (u8) => head(2, u8.length) + hex(u8);

// ------------------------------------------------------------------ RFC 8949 Appendix A

/**
 * Parse the text of appendix_a.json (github.com/cbor/test-vectors). JSON.parse would round the
 * integers above 2^53 in `decoded`; those become BigInt here. f9 8000 is listed as `0` (JSON has
 * no -0) and becomes -0.
 * @param {string} raw
 * @returns {{hex: string, roundtrip: boolean, decoded?: unknown, diagnostic?: string, hasDecoded: boolean}[]}
 */
export function parseAppendixA(raw) {
  const marked = raw.replace(/("decoded"\s*:\s*)(-?\d{16,})(?=\s*[,}\]])/g, '$1{"$bigint":"$2"}');
  const vectors = JSON.parse(marked, (_k, v) => {
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 && typeof v.$bigint === 'string') {
      return BigInt(v.$bigint);
    }
    return v;
  });
  return vectors.map((v) => {
    const out = { hex: v.hex, roundtrip: v.roundtrip, hasDecoded: 'decoded' in v, decoded: v.decoded, diagnostic: v.diagnostic };
    if (v.hex === 'f98000') out.decoded = -0;
    // 8-byte integer heads decode to BigInt (cbor-x's behaviour; they re-encode to the same bytes)
    if (/^[13]b/.test(v.hex) && typeof out.decoded === 'number') out.decoded = BigInt(out.decoded);
    return out;
  });
}

// ------------------------------------------------------------------ a reference walker

/**
 * Walk one well-formed CBOR data item starting at `pos` and record the span [start, end) of it
 * and of every item inside it (array/map elements, tag content, chunks of indefinite strings).
 * This is a deliberately simple reference used to compute expected error offsets; it throws on
 * anything not well-formed.
 * @param {Uint8Array} b
 * @param {number} [pos]
 * @returns {{end: number, spans: {start: number, end: number}[]}}
 */
export function itemSpans(b, pos = 0) {
  const spans = [];
  const u = (p, n) => {
    if (p + n > b.length) throw new Error('itemSpans: truncated');
    let v = 0n;
    for (let i = 0; i < n; i++) v = (v << 8n) | BigInt(b[p + i]);
    return v;
  };
  const item = (p) => {
    if (p >= b.length) throw new Error('itemSpans: truncated');
    const start = p;
    const ib = b[p++];
    const major = ib >> 5;
    const ai = ib & 31;
    let arg = BigInt(ai);
    if (ai >= 24 && ai <= 27) {
      const n = 1 << (ai - 24);
      arg = u(p, n);
      p += n;
    } else if (ai >= 28 && ai <= 30) throw new Error('itemSpans: reserved ai');
    const rec = { start, end: -1 };
    spans.push(rec);
    if (ai === 31) {
      if (major === 2 || major === 3) {
        while (b[p] !== 0xff) {
          if (p >= b.length) throw new Error('itemSpans: truncated');
          if (b[p] >> 5 !== major || (b[p] & 31) === 31) throw new Error('itemSpans: bad chunk');
          p = item(p);
        }
        p++;
      } else if (major === 4 || major === 5) {
        let n = 0;
        while (b[p] !== 0xff) {
          if (p >= b.length) throw new Error('itemSpans: truncated');
          p = item(p);
          n++;
        }
        if (major === 5 && n % 2) throw new Error('itemSpans: odd map');
        p++;
      } else throw new Error('itemSpans: ai 31 on major ' + major);
    } else if (major === 2 || major === 3) {
      p += Number(arg);
      if (p > b.length) throw new Error('itemSpans: truncated');
    } else if (major === 4 || major === 5) {
      const n = Number(arg) * (major === 5 ? 2 : 1);
      for (let i = 0; i < n; i++) p = item(p);
    } else if (major === 6) {
      p = item(p);
    } else if (major === 7 && ai === 24 && arg < 32n) throw new Error('itemSpans: bad simple');
    rec.end = p;
    return p;
  };
  const end = item(pos);
  return { end, spans };
}

/**
 * The items that the prefix b[0..k) of a well-formed item cuts: those with at least one byte
 * present and at least one missing (start < k < end), outermost first; [0] for k = 0. A decoder
 * reports TRUNCATED at the first byte of one of them: the innermost one, or an enclosing
 * container whose declared length already exceeds the bytes left (failing fast).
 */
export function cutItemStarts(b, k) {
  if (k === 0) return [0];
  const { spans } = itemSpans(b);
  return spans.filter((s) => s.start < k && k < s.end).map((s) => s.start).sort((x, y) => x - y);
}

/** The innermost item cut by the prefix b[0..k): see cutItemStarts. */
export function truncationOffset(b, k) {
  const starts = cutItemStarts(b, k);
  return starts[starts.length - 1];
}

// ------------------------------------------------------------------ floats

/** float16 bits of x when x is exactly representable as an IEEE half (NaN -> 7e00), else null. */
export function toFloat16Exact(x) {
  if (Number.isNaN(x)) return 0x7e00;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a === Infinity) return sign | 0x7c00;
  if (a === 0) return sign;
  // subnormals: multiples of 2^-24 below 2^-14
  if (a < 2 ** -14) {
    const m = a / 2 ** -24;
    return Number.isInteger(m) ? sign | m : null;
  }
  const e = Math.floor(Math.log2(a));
  // Math.log2 can be off by one near powers of two
  let exp = e;
  if (2 ** exp > a) exp--;
  if (2 ** (exp + 1) <= a) exp++;
  if (exp > 15) return null;
  const m = a / 2 ** exp - 1; // in [0, 1)
  const frac = m * 1024;
  if (!Number.isInteger(frac)) return null;
  return sign | ((exp + 15) << 10) | frac;
}

/** The preferred (shortest exact) CBOR encoding of a non-integral or special double, as hex. */
export function preferredFloatHex(x) {
  const h = toFloat16Exact(x);
  if (h !== null) return 'f9' + h.toString(16).padStart(4, '0');
  const dv = new DataView(new ArrayBuffer(8));
  if (Object.is(Math.fround(x), x)) {
    dv.setFloat32(0, x);
    return 'fa' + hex(new Uint8Array(dv.buffer, 0, 4));
  }
  dv.setFloat64(0, x);
  return 'fb' + hex(new Uint8Array(dv.buffer));
}

// ------------------------------------------------------------------ comparing decoded values

const TYPED = [
  'Int8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
  'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
];

/**
 * ccanon(v): a strict, representation-independent structure for toEqual (like canon.js, plus
 * the CBOR types). Buffer and Uint8Array compare equal (as {bin}); other typed arrays keep their
 * class; Tag-like objects (any class named Tag with .tag and .value, so cbor-x's Tag too) become
 * {tag, value}; Simple-like objects {simple}; Sets {set}; Maps {map}.
 * opts.intsAsNumbers: BigInts within +-(2^53-1) compare equal to numbers (cbor-x returns BigInt
 * for every 8-byte integer head).
 * opts.sortKeys: object and Map entries in a fixed order (for deterministic encodings, which
 * reorder them).
 */
export function ccanon(v, opts = {}) {
  const { intsAsNumbers = false, sortKeys = false } = opts;
  const order = (entries) => {
    if (!sortKeys) return entries;
    const keyed = entries.map((e) => [JSON.stringify(e[0]), e]);
    keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return keyed.map((x) => x[1]);
  };
  const num = (x) => {
    if (Number.isNaN(x)) return { num: 'NaN' };
    if (Object.is(x, -0)) return { num: '-0' };
    if (x === Infinity || x === -Infinity) return { num: String(x) }; // distinct from null in JSON (sortKeys)
    return x;
  };
  const rec = (x) => {
    if (x === undefined) return { undef: true };
    if (x === null || typeof x === 'boolean' || typeof x === 'string') return x;
    if (typeof x === 'number') return num(x);
    if (typeof x === 'bigint') {
      if (intsAsNumbers && x >= -BigInt(Number.MAX_SAFE_INTEGER) && x <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(x);
      return { big: x.toString() };
    }
    if (x instanceof Uint8Array && (x.constructor === Uint8Array || x.constructor.name === 'Buffer')) {
      return { bin: hex(x) };
    }
    if (ArrayBuffer.isView(x) && !(x instanceof DataView)) {
      const name = x.constructor.name;
      if (!TYPED.includes(name)) throw new Error('ccanon: unsupported view ' + name);
      return { typed: name, values: Array.from(x, (e) => (typeof e === 'bigint' ? e.toString() : num(e))) };
    }
    if (x instanceof Date) return { date: String(x.getTime()) };
    if (Array.isArray(x)) return x.map(rec);
    if (x instanceof Map) return { map: order([...x.entries()].map(([k, val]) => [rec(k), rec(val)])) };
    if (x instanceof Set) return { set: [...x].map(rec) };
    if (typeof x === 'object') {
      const cname = x.constructor && x.constructor.name;
      if (cname === 'Tag' && 'tag' in x && 'value' in x) return { tag: Number(x.tag), value: rec(x.value) };
      if (cname === 'Simple' && 'value' in x) return { simple: x.value };
      return {
        obj: order(Object.keys(x).map((k) => [k, rec(x[k])])),
        proto: Object.getPrototypeOf(x) === Object.prototype,
      };
    }
    throw new Error('ccanon: unsupported ' + typeof x);
  };
  return rec(v);
}

/**
 * What a wirepack CBOR round trip gives back for v (used with ccanon). With the default encoder
 * BigInts come back as BigInts (written with 8-byte heads, or as bignums beyond 64 bits); other
 * values as they are. opts.deterministic: the deterministic encoder writes BigInts with the
 * shortest head (RFC 8949 4.2.1), so a BigInt b with -2^32 <= b < 2^32 (shortest head < 8 bytes)
 * comes back as a number; larger ones still use 8-byte heads or bignums and stay BigInts.
 * @param {unknown} v
 * @param {{deterministic?: boolean}} [opts]
 */
export function expectedRoundtrip(v, opts = {}) {
  const { deterministic = false } = opts;
  const rec = (x) => {
    if (typeof x === 'bigint') return deterministic && x >= -(2n ** 32n) && x < 2n ** 32n ? Number(x) : x;
    if (Array.isArray(x)) return x.map(rec);
    if (x instanceof Map) return new Map([...x].map(([k, val]) => [rec(k), rec(val)]));
    if (x instanceof Set) return new Set([...x].map(rec));
    if (x && typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype) {
      const o = {};
      for (const k of Object.keys(x)) Object.defineProperty(o, k, { value: rec(x[k]), enumerable: true, writable: true, configurable: true });
      return o;
    }
    return x;
  };
  return rec(v);
}

/**
 * The value cbor-x's encoder actually writes for v: cbor-x writes the number -0 as the integer 0
 * (`cborx.encode(-0)` is `00`), so plain -0 values (not typed-array elements, which are raw bytes)
 * become 0. Everything else is unchanged.
 * @param {unknown} v
 */
export function asWrittenByCborx(v) {
  const rec = (x) => {
    if (Object.is(x, -0)) return 0;
    if (Array.isArray(x)) return x.map(rec);
    if (x instanceof Map) return new Map([...x].map(([k, val]) => [rec(k), rec(val)]));
    if (x instanceof Set) return new Set([...x].map(rec));
    if (x && typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype) {
      const o = {};
      for (const k of Object.keys(x)) Object.defineProperty(o, k, { value: rec(x[k]), enumerable: true, writable: true, configurable: true });
      return o;
    }
    return x;
  };
  return rec(v);
}
