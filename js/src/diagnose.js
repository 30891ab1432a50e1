// @ts-check
/**
 * CBOR diagnostic notation (RFC 8949 section 8, with the RFC 8610 Appendix G.5 / RFC 8949
 * section 8.1 `_` marker for indefinite-length items), written straight from the bytes.
 *
 * A standalone walker: it needs neither the wasm module nor the decoder, keeps its own
 * explicit stack (no recursion, so deep nesting cannot overflow the JS stack) and reads every
 * byte at most once. Each step consumes at least one input byte, so it always terminates;
 * every read is bounds-checked, and anything not well-formed throws a DecodeError.
 *
 * Output conventions (those of RFC 8949 Appendix A):
 *   integers in decimal, exact to 2^64-1 and -2^64; floats with a mandatory fraction
 *   (`1.0`, `-0.0`, `1.0e+300`, `5.960464477539063e-8`), `NaN`, `Infinity`, `-Infinity`;
 *   byte strings `h'0102'` (lowercase hex); text strings JSON-quoted with every character
 *   outside printable ASCII written as `\uXXXX` (lowercase, UTF-16 code units, so U+10151 is
 *   `"\ud800\udd51"`); `[1, 2]`, `{1: 2, "a": 3}`, tags `1(1363896240)`, `false`, `true`,
 *   `null`, `undefined`, `simple(16)`; indefinite lengths `[_ 1, 2]`, `{_ "a": 1}`,
 *   `(_ h'01', h'02')`, `(_ "a", "b")`, empty ones `[_ ]`, `{_ }`, `''_`, `""_`.
 */
import { DecodeError } from './errors.js';

const DEFAULT_MAX_DEPTH = 1000;

/**
 * @typedef {object} DiagnoseOptions
 * @property {boolean} [sequence] the input is a CBOR sequence (RFC 8742): zero or more
 *   items, printed separated by `, ` (default false: exactly one item, else TRAILING_DATA)
 * @property {number} [maxDepth] maximum nesting of arrays, maps, tags and indefinite-length
 *   strings (default 1000); deeper input throws DEPTH
 */

// Frame kinds
const K_ARRAY = 0;
const K_MAP = 1;
const K_TAG = 2;
const K_CHUNKS = 3; // indefinite-length byte or text string

/**
 * An open container on the explicit stack.
 * @typedef {object} Frame
 * @property {number} kind K_ARRAY, K_MAP, K_TAG or K_CHUNKS
 * @property {number} start byte offset of its initial byte
 * @property {boolean} indef indefinite length (closed by a break)
 * @property {number} left items still to come when definite (maps count keys and values)
 * @property {number} count items started so far
 * @property {number} major for K_CHUNKS: the major type every chunk must have (2 or 3)
 * @property {string} close text written when it closes
 */

/** @type {string[]} */
const HEX = [];
for (let i = 0; i < 256; i++) HEX.push((i < 16 ? '0' : '') + i.toString(16));

/** @type {TextDecoder | undefined} */
let utf8Decoder;

/**
 * Diagnostic notation of one CBOR item (or, with `{sequence: true}`, of a CBOR sequence).
 * Throws DecodeError with code TRUNCATED, RESERVED_AI, BREAK, BAD_CHUNK, BAD_SIMPLE,
 * TRAILING_DATA or DEPTH, and `offset` the byte offset of the offending item.
 * @param {Uint8Array | ArrayBuffer | DataView | ArrayBufferView} bytes
 * @param {DiagnoseOptions} [options]
 * @returns {string}
 */
export function diagnose(bytes, options) {
  const u8 = toBytes(bytes);
  const sequence = !!(options && options.sequence);
  const maxDepth = options && options.maxDepth !== undefined ? options.maxDepth : DEFAULT_MAX_DEPTH;
  const len = u8.length;
  /** @type {string[]} */
  const out = [];
  /** @type {Frame[]} */
  const stack = [];
  /** @type {DataView | undefined} */
  let view;
  let pos = 0;
  let items = 0;

  if (len === 0 && !sequence) throw new DecodeError('TRUNCATED', 0);

  while (pos < len) {
    if (items > 0) {
      if (!sequence) throw new DecodeError('TRAILING_DATA', pos);
      out.push(', ');
    }
    items++;

    // One top-level item. Each turn of this loop reads one initial byte.
    for (;;) {
      const top = stack.length > 0 ? stack[stack.length - 1] : undefined;
      // The innermost unfinished item is the one that is cut.
      if (pos >= len) throw new DecodeError('TRUNCATED', top ? top.start : pos);
      const start = pos;
      const ib = u8[pos];
      const major = ib >> 5;
      const ai = ib & 31;
      if (ai >= 28 && ai <= 30) throw new DecodeError('RESERVED_AI', start);

      if (ib === 0xff) {
        // break: closes the innermost container, which must be indefinite-length
        if (!top || !top.indef || (top.kind === K_MAP && (top.count & 1) === 1)) {
          throw new DecodeError('BREAK', start);
        }
        pos++;
        stack.pop();
        if (top.kind === K_CHUNKS && top.count === 0) {
          out[out.length - 1] = top.major === 2 ? "''_" : '""_'; // replaces the "(_ "
        } else {
          out.push(top.close);
        }
      } else {
        if (ai === 31 && (major === 0 || major === 1 || major === 6 || major === 7)) {
          // indefinite length is not defined for integers and tags (ff, the break, is above)
          throw new DecodeError('RESERVED_AI', start);
        }
        if (top) {
          if (top.kind === K_CHUNKS && (major !== top.major || ai === 31)) {
            throw new DecodeError('BAD_CHUNK', start);
          }
          if (top.count > 0) out.push(top.kind === K_MAP && (top.count & 1) === 1 ? ': ' : ', ');
          top.count++;
          if (!top.indef) top.left--;
        }

        // The argument: value, length or count. `arg` is exact below 2^53; `big` holds the
        // exact 64-bit value when the 8-byte form is used.
        let arg = ai;
        /** @type {bigint | undefined} */
        let big;
        if (ai >= 24 && ai <= 27) {
          const n = 1 << (ai - 24); // 1, 2, 4 or 8 bytes
          if (n > len - start - 1) throw new DecodeError('TRUNCATED', start);
          const p = start + 1;
          if (ai === 24) arg = u8[p];
          else if (ai === 25) arg = (u8[p] << 8) | u8[p + 1];
          else if (ai === 26) arg = be32(u8, p);
          else {
            const hi = be32(u8, p);
            const lo = be32(u8, p + 4);
            arg = hi * 4294967296 + lo;
            big = (BigInt(hi) << 32n) | BigInt(lo);
          }
          pos = p + n;
        } else {
          pos = start + 1;
        }

        if (major === 0) {
          out.push(big !== undefined ? big.toString() : String(arg));
        } else if (major === 1) {
          out.push(big !== undefined ? (-1n - big).toString() : String(-1 - arg));
        } else if (major === 2 || major === 3) {
          if (ai === 31) {
            if (stack.length >= maxDepth) throw new DecodeError('DEPTH', start);
            stack.push(frame(K_CHUNKS, start, true, 0, major, ')'));
            out.push('(_ ');
            continue; // nothing completed yet
          }
          if (arg > len - pos) throw new DecodeError('TRUNCATED', start);
          const end = pos + arg;
          out.push(major === 2 ? hexString(u8, pos, end) : quote(text(u8, pos, end)));
          pos = end;
        } else if (major === 4 || major === 5) {
          if (stack.length >= maxDepth) throw new DecodeError('DEPTH', start);
          const isMap = major === 5;
          if (ai === 31) {
            stack.push(frame(isMap ? K_MAP : K_ARRAY, start, true, 0, 0, isMap ? '}' : ']'));
            out.push(isMap ? '{_ ' : '[_ ');
            continue;
          }
          if (arg === 0) {
            out.push(isMap ? '{}' : '[]');
          } else {
            // arg may be up to 2^64-1 (inexact): no matter, every item needs at least one
            // byte, so the input runs out first.
            stack.push(frame(isMap ? K_MAP : K_ARRAY, start, false, isMap ? arg * 2 : arg, 0, isMap ? '}' : ']'));
            out.push(isMap ? '{' : '[');
            continue;
          }
        } else if (major === 6) {
          if (stack.length >= maxDepth) throw new DecodeError('DEPTH', start);
          stack.push(frame(K_TAG, start, false, 1, 0, ')'));
          out.push((big !== undefined ? big.toString() : String(arg)) + '(');
          continue;
        } else if (ai < 20) {
          out.push('simple(' + ai + ')');
        } else if (ai < 24) {
          out.push(ai === 20 ? 'false' : ai === 21 ? 'true' : ai === 22 ? 'null' : 'undefined');
        } else if (ai === 24) {
          if (arg < 32) throw new DecodeError('BAD_SIMPLE', start);
          out.push('simple(' + arg + ')');
        } else if (ai === 25) {
          out.push(formatFloat(halfToNumber(arg)));
        } else {
          if (!view) view = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
          out.push(formatFloat(ai === 26 ? view.getFloat32(start + 1) : view.getFloat64(start + 1)));
        }
      }

      // An item is complete: close every definite container it completes.
      while (stack.length > 0) {
        const t = stack[stack.length - 1];
        if (t.indef || t.left > 0) break;
        stack.pop();
        out.push(t.close);
      }
      if (stack.length === 0) break;
    }
  }
  return out.join('');
}

/**
 * @param {number} kind @param {number} start @param {boolean} indef @param {number} left
 * @param {number} major @param {string} close
 * @returns {Frame}
 */
function frame(kind, start, indef, left, major, close) {
  return { kind, start, indef, left, count: 0, major, close };
}

/**
 * @param {Uint8Array | ArrayBuffer | DataView | ArrayBufferView} src
 * @returns {Uint8Array}
 */
function toBytes(src) {
  if (src instanceof Uint8Array) return src;
  if (ArrayBuffer.isView(src)) return new Uint8Array(src.buffer, src.byteOffset, src.byteLength);
  if (src instanceof ArrayBuffer) return new Uint8Array(src);
  if (typeof SharedArrayBuffer !== 'undefined' && /** @type {any} */ (src) instanceof SharedArrayBuffer) {
    return new Uint8Array(/** @type {any} */ (src));
  }
  throw new TypeError('wirepack: diagnose expects a Uint8Array, Buffer, ArrayBuffer or DataView');
}

/** @param {Uint8Array} u8 @param {number} p */
function be32(u8, p) {
  return ((u8[p] << 24) | (u8[p + 1] << 16) | (u8[p + 2] << 8) | u8[p + 3]) >>> 0;
}

/** @param {Uint8Array} u8 @param {number} from @param {number} to */
function hexString(u8, from, to) {
  let s = "h'";
  for (let i = from; i < to; i++) s += HEX[u8[i]];
  return s + "'";
}

/**
 * UTF-8 to a JS string; invalid sequences become U+FFFD as with TextDecoder (which is used,
 * keeping a leading U+FEFF: it is data here, not a byte order mark).
 * @param {Uint8Array} u8 @param {number} from @param {number} to
 */
function text(u8, from, to) {
  if (to - from <= 32) {
    let s = '';
    let i = from;
    for (; i < to && u8[i] < 0x80; i++) s += String.fromCharCode(u8[i]);
    if (i === to) return s;
  }
  if (!utf8Decoder) utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const part = u8.subarray(from, to);
  // TextDecoder refuses views of a SharedArrayBuffer in browsers: copy those.
  return utf8Decoder.decode(part.buffer instanceof ArrayBuffer ? part : part.slice());
}

/** @type {Record<number, string>} */
const SHORT_ESCAPES = { 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0c: '\\f', 0x0d: '\\r', 0x22: '\\"', 0x5c: '\\\\' };

/**
 * A JSON string literal, ASCII only: `"` and `\` and the usual control characters get their
 * short escapes, every other code unit outside 0x20..0x7e is written `\uXXXX` (lowercase).
 * @param {string} s
 */
function quote(s) {
  let out = '"';
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(run, i) + (SHORT_ESCAPES[c] || '\\u' + c.toString(16).padStart(4, '0'));
    run = i + 1;
  }
  return out + s.slice(run) + '"';
}

/** IEEE 754 half precision (binary16) to a number. @param {number} h */
function halfToNumber(h) {
  const exp = (h >> 10) & 0x1f;
  const mant = h & 0x3ff;
  let v;
  if (exp === 0) v = mant * 2 ** -24;
  else if (exp === 31) v = mant === 0 ? Infinity : NaN;
  else v = (mant + 1024) * 2 ** (exp - 25);
  return h & 0x8000 ? -v : v;
}

/**
 * JS's shortest round-trip form, with a fraction always present: `1.0`, `-0.0`,
 * `100000.0`, `1.0e+300`, `5.960464477539063e-8`, `1.5`.
 * @param {number} x
 */
function formatFloat(x) {
  if (x !== x) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const s = String(x);
  const e = s.indexOf('e');
  if (e < 0) return s.indexOf('.') < 0 ? s + '.0' : s;
  const m = s.slice(0, e);
  return (m.indexOf('.') < 0 ? m + '.0' : m) + s.slice(e);
}
