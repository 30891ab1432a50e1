// @ts-check
/**
 * Incremental decoding for streams and iterators (shared by the Node streams in stream.node.js,
 * the WHATWG streams in webstream.js and encodeIter/decodeIter), plus cbor-x's
 * encodeAsIterable/encodeAsAsyncIterable.
 *
 * A chunk is decoded with unpackMultiple; a value cut off by the end of the chunk is held, and
 * the held bytes are framed by a resumable scanner (no values built) as more chunks arrive, so
 * the held value is decoded once, when its last byte is there: the work stays linear in its size
 * however small the chunks are. The scanner also bounds what is held: a value that cannot fit
 * in maxBytes (every pending item needs at least one byte) fails at once, and no more than
 * maxIncompleteBufferSize bytes are ever held for one incomplete value.
 */
import { Packr } from './encode.js';
import { Unpackr } from './decode.js';
import { DecodeError } from './errors.js';
import { Encoder as CborEncoder, Decoder as CborDecoder, cborHead, compareBytes, INDEFINITE_ARRAY, BREAK } from './cbor.js';

const NodeBuffer = /** @type {typeof Buffer | undefined} */ (globalThis.Buffer);

/** msgpackr's and cbor-x's default maxIncompleteBufferSize: 64 MiB. */
export const DEFAULT_MAX_INCOMPLETE_BUFFER_SIZE = 0x4000000;

/**
 * @typedef {object} StreamDecodeOptions
 * @property {number} [maxIncompleteBufferSize] most bytes held for one value that has started
 *   to arrive but is not complete (default 64 MiB; never more than the decoder's maxBytes)
 */

/** @param {number} n */
function alloc(n) {
  return NodeBuffer ? NodeBuffer.alloc(n) : new Uint8Array(n);
}

/**
 * @param {unknown} chunk
 * @returns {Uint8Array}
 */
function chunkBytes(chunk) {
  if (chunk instanceof Uint8Array) return chunk;
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  throw new TypeError('wirepack: stream chunks must be Uint8Array, Buffer, ArrayBuffer or DataView');
}

/* ------------------------------------------------------------------ scanners */

/**
 * Frames one MessagePack value as its bytes arrive. Every MessagePack item announces its size
 * or its number of children up front, so a count of pending items is nearly the whole state.
 * msgpackr's extensions that change the framing are followed: record definitions (d4 72 id,
 * then an array of n keys and n values) and references (ids 0x40-0x7f of a structure defined in
 * the value or in the Unpackr's structures: n values follow), and bundled strings (d6 62 offset:
 * the value ends after two strings `offset` bytes on; 0xc1 then refers into them). What it
 * cannot frame (two-byte record ids, structures still to be loaded, a second bundle) it reports
 * as `invalid`, and the ChunkDecoder decodes instead: a scanner that ends too early only costs
 * decode attempts (the decoder says "incomplete" and the ChunkDecoder then retries each chunk).
 */
class MsgpackScanner {
  /** @param {Unpackr} unpackr whose record structures apply to the ids not defined in the value */
  constructor(unpackr) {
    this.unpackr = unpackr;
    /** msgpack-javascript's decoding (an extensionCodec): none of msgpackr's framing extensions */
    this.plain = unpackr.extensionCodec !== null;
    /** 0xc1 outside a bundle is undefined (json-pack's), one byte */
    this.c1 = !!unpackr.undefinedC1;
    /** @type {Map<number, number>} field counts of the records defined in the value so far */
    this.records = new Map();
    this.defId = -1;
    this.pos = 0;
    this.pending = 1;
    this.bundleEnd = 0;
    this.bundleReturn = -1;
    this.bundlePending = 0;
    /** lower bound on the length of the value (valid after scan returned false) */
    this.needed = 0;
    /** the scan cannot advance before this many bytes are there (valid after scan returned false) */
    this.wake = 0;
    /** something the scanner cannot frame, or a byte that is not MessagePack: decode instead */
    this.invalid = false;
  }

  reset() {
    this.records.clear();
    /** a record definition's id, while its array of keys is awaited (else -1) */
    this.defId = -1;
    this.pos = 0;
    this.pending = 1;
    /** end of the bundled strings (0: no bundle seen) */
    this.bundleEnd = 0;
    /** while scanning the bundled strings: where the value resumes (else -1), and its pending count */
    this.bundleReturn = -1;
    this.bundlePending = 0;
    this.needed = 0;
    this.wake = 0;
    this.invalid = false;
  }

  /**
   * Stop for more bytes.
   * @param {number} p @param {number} pending @param {number} wake
   */
  more(p, pending, wake) {
    this.pos = p;
    this.pending = pending;
    this.wake = wake;
    // every pending item is at least one byte (those of the value after the bundled strings too)
    this.needed = Math.max(wake, p + pending + (this.bundleReturn >= 0 ? this.bundlePending : 0));
    return false;
  }

  /**
   * Advance over b[0, end). True when the value ends at this.pos (or is invalid).
   * @param {Uint8Array} b
   * @param {number} end
   */
  scan(b, end) {
    let p = this.pos, pending = this.pending;
    const structures = this.unpackr.structures;
    const records = this.records;
    for (;;) {
      if (pending === 0) {
        if (this.bundleReturn < 0) break;
        // the two bundled strings are framed: back to the value after the bundle's header
        this.bundleEnd = p;
        p = this.bundleReturn;
        pending = this.bundlePending;
        this.bundleReturn = -1;
        continue;
      }
      if (p >= end) return this.more(p, pending, p + 1);
      const c = b[p];
      if (this.defId >= 0) {
        // msgpackr's record definition: d4 72 id, an array of n keys, then the n values
        let n = -1, head = 1;
        if (c >= 0x90 && c <= 0x9f) n = c & 0xf;
        else if (c === 0xdc) head = 3;
        else if (c === 0xdd) head = 5;
        else return this.unframed(p, pending);
        if (p + head > end) return this.more(p, pending, p + head);
        if (c === 0xdc) n = (b[p + 1] << 8) | b[p + 2];
        else if (c === 0xdd) n = ((b[p + 1] << 24) | (b[p + 2] << 16) | (b[p + 3] << 8) | b[p + 4]) >>> 0;
        records.set(this.defId, n);
        this.defId = -1;
        p += head;
        pending += 2 * n - 1;
        continue;
      }
      if (c >= 0x40 && c < 0x80) {
        // a record reference when a structure has that id: its field values follow
        const id = c & 0x3f;
        let fields = records.get(id);
        if (fields === undefined && structures) {
          const keys = structures[id];
          if (Array.isArray(keys)) {
            if (/** @type {any} */ (keys).highByte === 0) return this.unframed(p, pending); // two-byte ids
            fields = keys.length;
          } else if (this.unpackr.getStructures) return this.unframed(p, pending);
        }
        p += 1;
        pending += (fields || 0) - 1;
        continue;
      }
      if (c < 0x80 || c >= 0xe0 || (c >= 0xc0 && c <= 0xc3 && c !== 0xc1)) { p += 1; pending--; continue; }
      if (c <= 0x8f) { pending += 2 * (c & 0xf) - 1; p += 1; continue; }
      if (c <= 0x9f) { pending += (c & 0xf) - 1; p += 1; continue; }
      if (c <= 0xbf) { p += 1 + (c & 0x1f); pending--; continue; }
      if (c === 0xc1) {
        // after a bundle, 0xc1 and a length refer to the bundled strings; else not MessagePack
        if (this.bundleEnd === 0) {
          if (!this.c1) return this.unframed(p, pending);
          p += 1;
          pending--;
          continue;
        }
        p += 1;
        continue; // the slot is filled by the length that follows
      }
      if (c >= 0xd4 && c <= 0xd6 && !this.plain) {
        if (p + 2 > end) return this.more(p, pending, p + 2);
        const type = b[p + 1];
        if (type === 0x72) {
          if (c !== 0xd4) return this.unframed(p, pending); // two-byte record ids
          if (p + 3 > end) return this.more(p, pending, p + 3);
          this.defId = b[p + 2] & 0x3f;
          p += 3;
          continue; // the slot is filled by the definition that follows
        }
        if (type === 0x62 && c === 0xd6) {
          // bundled strings: frame the two strings at the offset, then the value after the header
          if (this.bundleEnd !== 0 || this.bundleReturn >= 0) return this.unframed(p, pending);
          if (p + 6 > end) return this.more(p, pending, p + 6);
          const offset = ((b[p + 2] << 24) | (b[p + 3] << 16) | (b[p + 4] << 8) | b[p + 5]) >>> 0;
          this.bundleReturn = p + 6;
          this.bundlePending = pending; // the slot is filled by the value after the header
          p = p + 2 + offset;
          pending = 2;
          continue;
        }
      }
      // head: the bytes before the payload (type byte of an ext included); lenBytes of it
      // are a big-endian length or count
      let head = 1, lenBytes = 0, body = 0, items = 0;
      switch (c) {
        case 0xc4: case 0xd9: head = 2; lenBytes = 1; break;
        case 0xc5: case 0xda: head = 3; lenBytes = 2; break;
        case 0xc6: case 0xdb: head = 5; lenBytes = 4; break;
        case 0xc7: head = 3; lenBytes = 1; break;
        case 0xc8: head = 4; lenBytes = 2; break;
        case 0xc9: head = 6; lenBytes = 4; break;
        case 0xca: case 0xce: case 0xd2: body = 4; break;
        case 0xcb: case 0xcf: case 0xd3: body = 8; break;
        case 0xcc: case 0xd0: body = 1; break;
        case 0xcd: case 0xd1: body = 2; break;
        case 0xd4: body = 2; break;
        case 0xd5: body = 3; break;
        case 0xd6: body = 5; break;
        case 0xd7: body = 9; break;
        case 0xd8: body = 17; break;
        case 0xdc: case 0xde: head = 3; lenBytes = 2; break;
        default: head = 5; lenBytes = 4; break; // 0xdd, 0xdf
      }
      if (p + head > end) return this.more(p, pending, p + head);
      if (lenBytes > 0) {
        let n;
        if (lenBytes === 1) n = b[p + 1];
        else if (lenBytes === 2) n = (b[p + 1] << 8) | b[p + 2];
        else n = ((b[p + 1] << 24) | (b[p + 2] << 16) | (b[p + 3] << 8) | b[p + 4]) >>> 0;
        if (c === 0xdc || c === 0xdd) items = n;
        else if (c === 0xde || c === 0xdf) items = 2 * n;
        else body = n;
      }
      p += head + body;
      pending += items - 1;
    }
    this.pending = 0;
    this.pos = p;
    // after a bundle the value ends with the bundled strings (the decoder resumes after them)
    const last = Math.max(p, this.bundleEnd);
    if (last <= end) {
      this.pos = last;
      return true;
    }
    this.wake = this.needed = last;
    return false;
  }

  /**
   * Something the scanner cannot frame, or not MessagePack: the ChunkDecoder decodes instead.
   * @param {number} p @param {number} pending
   */
  unframed(p, pending) {
    this.pos = p;
    this.pending = pending;
    this.invalid = true;
    return true;
  }
}

/**
 * Frames one CBOR item as its bytes arrive: a stack of open containers, each with its count of
 * items still to come (-1 for indefinite length, closed by a break).
 */
class CborScanner {
  /** @param {number} maxDepth */
  constructor(maxDepth) {
    this.maxStack = 2 * maxDepth + 64;
    /** @type {number[]} */
    this.stack = [1];
    this.pos = 0;
    /** items still to come, plus one byte per open indefinite container (a lower bound) */
    this.total = 1;
    this.needed = 0;
    this.wake = 0;
    this.invalid = false;
  }

  reset() {
    this.stack.length = 0;
    this.stack.push(1);
    this.pos = 0;
    this.total = 1;
    this.needed = 0;
    this.wake = 0;
    this.invalid = false;
  }

  /**
   * @param {Uint8Array} b
   * @param {number} end
   */
  scan(b, end) {
    const stack = this.stack;
    let p = this.pos, total = this.total;
    for (;;) {
      let top = stack.length - 1;
      while (top >= 0 && stack[top] === 0) { stack.pop(); top--; }
      if (top < 0) break;
      if (p >= end) break;
      const c = b[p], mt = c >> 5, ai = c & 31;
      if (c === 0xff) {
        if (stack[top] !== -1) return this.bad(p, total);
        stack.pop();
        total--;
        p++;
        continue;
      }
      let head = 1;
      if (ai >= 24) {
        if (ai <= 27) head = 1 + (1 << (ai - 24));
        else if (ai === 31 && mt >= 2 && mt <= 5) head = 1;
        else return this.bad(p, total);
      }
      if (p + head > end) { this.pos = p; this.total = total; this.wake = p + head; this.needed = Math.max(p + head, p + total); return false; }
      let arg = ai;
      if (ai === 24) arg = b[p + 1];
      else if (ai === 25) arg = (b[p + 1] << 8) | b[p + 2];
      else if (ai === 26) arg = ((b[p + 1] << 24) | (b[p + 2] << 16) | (b[p + 3] << 8) | b[p + 4]) >>> 0;
      else if (ai === 27) {
        // a length past 2^53 can never arrive: Number() keeps it huge, which fails the limits
        const hi = ((b[p + 1] << 24) | (b[p + 2] << 16) | (b[p + 3] << 8) | b[p + 4]) >>> 0;
        const lo = ((b[p + 5] << 24) | (b[p + 6] << 16) | (b[p + 7] << 8) | b[p + 8]) >>> 0;
        arg = hi * 4294967296 + lo;
      }
      p += head;
      if (stack[top] > 0) { stack[top]--; total--; }
      if (mt === 2 || mt === 3) {
        if (ai === 31) { if (!this.push(-1)) return this.bad(p, total); total++; }
        else p += arg;
      } else if (mt === 4 || mt === 5) {
        const n = ai === 31 ? -1 : mt === 5 ? 2 * arg : arg;
        if (n !== 0) {
          if (!this.push(n)) return this.bad(p, total);
          total += n === -1 ? 1 : n;
        }
      } else if (mt === 6) {
        if (!this.push(1)) return this.bad(p, total);
        total++;
      }
      // mt 0, 1, 7: the head is the whole item
    }
    this.pos = p;
    this.total = total;
    if (stack.length === 0 && p <= end) return true;
    this.needed = p + total;
    this.wake = stack.length > 0 ? p + 1 : p;
    return false;
  }

  /** @param {number} n */
  push(n) {
    if (this.stack.length >= this.maxStack) return false;
    this.stack.push(n);
    return true;
  }

  /** @param {number} p @param {number} total */
  bad(p, total) {
    this.pos = p;
    this.total = total;
    this.invalid = true;
    return true;
  }
}

/* ------------------------------------------------------------------ chunk decoder */

/**
 * Decodes a sequence of values that arrives in chunks split at any byte. push(chunk) returns
 * the values completed by the chunk; end() throws if the input stopped inside a value. A
 * malformed input throws the decoder's DecodeError, with the values decoded before it as
 * `error.values`; after an error the ChunkDecoder holds nothing and can be reused.
 */
export class ChunkDecoder {
  /**
   * @param {Unpackr} decoder a MessagePack Unpackr or a CBOR Decoder
   * @param {StreamDecodeOptions} [options]
   */
  constructor(decoder, options) {
    this.decoder = decoder;
    this.cbor = decoder.cbor === true;
    const max = options && options.maxIncompleteBufferSize !== undefined ? options.maxIncompleteBufferSize : DEFAULT_MAX_INCOMPLETE_BUFFER_SIZE;
    if (typeof max !== 'number' || !(max >= 0)) throw new TypeError('wirepack: maxIncompleteBufferSize must be a non-negative number');
    this.maxIncompleteBufferSize = Math.floor(max);
    /** @type {Uint8Array | null} the held bytes of an incomplete value, in held[0, length) */
    this.held = null;
    this.length = 0;
    /** the held value cannot be complete before this many bytes */
    this.needed = 0;
    /** the scanner cannot advance before this many bytes are held */
    this.wake = 0;
    /** the scanner cannot frame the held value (records): decode on every chunk */
    this.unframeable = false;
    /** bytes of the input before the held ones (for error offsets in messages) */
    this.consumed = 0;
    this.scanner = this.cbor ? new CborScanner(decoder.maxDepth) : new MsgpackScanner(decoder);
    /** held bytes are Uint8Arrays, not Buffers (msgpack-javascript's and json-pack's decoding: binaries are views of them) */
    this.plain = !!decoder.inputViews;
  }

  /** True while part of a value is held. */
  get incomplete() {
    return this.held !== null;
  }

  /**
   * @param {Uint8Array} bytes
   * @returns {any[]}
   */
  decodeMultiple(bytes) {
    return /** @type {any[]} */ (this.decoder.unpackMultiple(bytes));
  }

  /**
   * Decode the values a chunk completes.
   * @param {Uint8Array | ArrayBuffer | ArrayBufferView} chunk
   * @returns {any[]}
   */
  push(chunk) {
    const bytes = chunkBytes(chunk);
    const maxBytes = this.decoder.maxBytes;
    if (bytes.length <= maxBytes) return this.pushBytes(bytes);
    // the decoder takes at most maxBytes at once: a larger chunk goes in slices (values that
    // span them are held like values that span chunks)
    /** @type {any[]} */
    let values = [];
    for (let i = 0; i < bytes.length; i += maxBytes) {
      try {
        values = values.concat(this.pushBytes(bytes.subarray(i, i + maxBytes)));
      } catch (e) {
        if (e && typeof e === 'object') e.values = values.concat(e.values || []);
        throw e;
      }
    }
    return values;
  }

  /**
   * @param {Uint8Array} bytes
   * @returns {any[]}
   */
  pushBytes(bytes) {
    if (bytes.length === 0) return [];
    if (this.held === null) return this.decodeFrom(bytes, true);
    const length = this.length + bytes.length;
    this.append(bytes, length);
    if (length < this.wake) {
      if (length > this.maxIncompleteBufferSize) throw this.fail(this.overLimit(length));
      return [];
    }
    const held = /** @type {Uint8Array} */ (this.held);
    let end = length;
    if (!this.unframeable) {
      const scanner = this.scanner;
      if (!scanner.scan(held, length)) {
        this.needed = scanner.needed;
        this.wake = scanner.wake;
        this.checkLimits(length);
        return [];
      }
      if (!scanner.invalid) end = scanner.pos;
    }
    this.held = null;
    const consumed = this.consumed;
    if (end === length) return this.decodeFrom(held.subarray(0, length), false, true);
    // decode the completed value alone (what follows may not fit in maxBytes with it)
    const first = this.decodeFrom(held.subarray(0, end), false, true);
    let next, framed = false;
    const again = /** @type {Uint8Array | null} */ (this.held); // (set again by decodeFrom)
    if (again !== null) {
      // the decoder did not end where the scanner did: decode all that is held, unframed
      const kept = again.subarray(0, this.length);
      next = copyBytes(kept, kept.length + length - end, this.plain);
      next.set(held.subarray(end, length), kept.length);
      this.fail(null);
      framed = true;
    } else {
      this.consumed = consumed + end;
      next = held.subarray(end, length);
    }
    try {
      return first.concat(this.decodeFrom(next, true, framed));
    } catch (e) {
      if (e && typeof e === 'object') e.values = first.concat(e.values || []);
      throw e;
    }
  }

  /**
   * End of input: the values of a held value the scanner could not frame, if the decoder finds
   * it complete after all; else throws a DecodeError (incomplete) if a value was cut off.
   * @returns {any[]}
   */
  end() {
    if (this.held === null) return [];
    const held = this.held.subarray(0, this.length);
    const at = this.consumed;
    const needed = Math.max(held.length + 1, this.needed);
    this.fail(null);
    let values;
    try {
      values = this.decodeMultiple(held);
    } catch (e) {
      if (!(e instanceof DecodeError) || !e.incomplete) throw e;
      const error = new DecodeError('TRUNCATED', at + held.length, `Unexpected end of ${this.cbor ? 'CBOR' : 'MessagePack'} data: a value of at least ${needed} bytes started at byte ${at} of the stream`);
      error.values = e.values || [];
      throw error;
    }
    this.consumed += held.length;
    return values;
  }

  /**
   * @param {Uint8Array} source
   * @param {boolean} borrowed source belongs to the caller (copy what is kept)
   * @param {boolean} [framed] the scanner said source starts with a complete value
   * @returns {any[]}
   */
  decodeFrom(source, borrowed, framed) {
    try {
      const values = this.decodeMultiple(source);
      this.consumed += source.length;
      return values;
    } catch (e) {
      if (!(e instanceof DecodeError) || !e.incomplete || e.lastPosition === undefined) {
        this.fail(null);
        throw e;
      }
      const values = e.values || [];
      const at = e.lastPosition;
      this.consumed += at;
      if (framed && at === 0) this.unframeable = true;
      else if (!framed || at > 0) this.unframeable = false;
      const rest = source.subarray(at);
      const keep = borrowed || at > 0 || rest.byteOffset !== 0 ? copyBytes(rest, rest.length, this.plain) : rest;
      this.held = keep;
      this.length = rest.length;
      this.needed = this.wake = rest.length + 1;
      if (!this.unframeable) {
        const scanner = this.scanner;
        scanner.reset();
        if (scanner.scan(keep, rest.length)) {
          // the decoder wants more where the scanner saw an end: records, which it cannot frame
          this.unframeable = true;
        } else {
          this.needed = scanner.needed;
          this.wake = scanner.wake;
        }
      }
      try {
        this.checkLimits(rest.length);
      } catch (limitError) {
        limitError.values = values;
        throw limitError;
      }
      return values;
    }
  }

  /**
   * @param {Uint8Array} bytes
   * @param {number} length
   */
  append(bytes, length) {
    let held = /** @type {Uint8Array} */ (this.held);
    if (length > held.length) {
      // grow geometrically (or straight to what the scanner says is needed), so a value that
      // arrives in many small chunks is copied a bounded number of times
      const limit = Math.max(length, Math.min(this.maxIncompleteBufferSize, this.decoder.maxBytes));
      // (pre-sizing to what is needed is capped: a garbage header may announce any length)
      const size = Math.min(limit, Math.max(length, 2 * held.length, Math.min(this.needed, 4 * length + 65536)));
      held = copyBytes(held.subarray(0, this.length), size, this.plain);
      this.held = held;
    }
    held.set(bytes, this.length);
    this.length = length;
  }

  /** @param {number} length held bytes */
  checkLimits(length) {
    const maxBytes = this.decoder.maxBytes;
    if (this.needed > maxBytes) {
      const at = this.consumed;
      this.fail(null);
      throw new DecodeError('LIMIT', at, `A value of at least ${this.needed} bytes starts here: larger than maxBytes (${maxBytes})`);
    }
    if (length > this.maxIncompleteBufferSize && length < this.needed) throw this.fail(this.overLimit(length));
    if (length > this.maxIncompleteBufferSize && this.unframeable) throw this.fail(this.overLimit(length));
  }

  /** @param {number} length */
  overLimit(length) {
    return new DecodeError('LIMIT', this.consumed, `Maximum incomplete buffer size exceeded: ${length} bytes held for one value (maxIncompleteBufferSize ${this.maxIncompleteBufferSize})`);
  }

  /**
   * Drop what is held.
   * @template T
   * @param {T} error
   * @returns {T}
   */
  fail(error) {
    this.held = null;
    this.length = 0;
    this.needed = 0;
    this.wake = 0;
    this.unframeable = false;
    return error;
  }
}

/**
 * A copy of bytes in a new buffer of `size` bytes (zero-filled after them).
 * @param {Uint8Array} bytes
 * @param {number} size
 * @param {boolean} plain a Uint8Array even where Buffer exists
 */
function copyBytes(bytes, size, plain) {
  const out = plain ? new Uint8Array(size) : alloc(size);
  out.set(bytes);
  return out;
}

/** CBOR: decodes through Decoder#decodeMultiple. */
export class CborChunkDecoder extends ChunkDecoder {
  /** @param {Uint8Array} bytes */
  decodeMultiple(bytes) {
    const d = /** @type {any} */ (this.decoder);
    return /** @type {any[]} */ (typeof d.decodeMultiple === 'function' ? d.decodeMultiple(bytes) : d.unpackMultiple(bytes));
  }
}

/* ------------------------------------------------------------------ encodeIter / decodeIter */

/**
 * @param {unknown} it
 * @returns {it is Iterable<any>}
 */
function isIterable(it) {
  return it != null && typeof (/** @type {any} */ (it))[Symbol.iterator] === 'function';
}

/**
 * @param {unknown} it
 * @returns {it is AsyncIterable<any>}
 */
function isAsyncIterable(it) {
  return it != null && typeof (/** @type {any} */ (it))[Symbol.asyncIterator] === 'function';
}

/**
 * @param {{ encode(value: unknown): Uint8Array }} encoder
 * @param {any} source
 */
function encodeIterWith(encoder, source) {
  if (!source || typeof source !== 'object') {
    throw new TypeError('first argument must be an Iterable, Async Iterable, or a Promise for an Async Iterable');
  }
  if (isIterable(source)) {
    return (function* encodeSync() {
      for (const value of source) yield encoder.encode(value);
    })();
  }
  if (typeof source.then === 'function' || isAsyncIterable(source)) {
    return (async function* encodeAsync() {
      const it = await source;
      for await (const value of it) yield encoder.encode(value);
    })();
  }
  throw new TypeError('first argument must be an Iterable, Async Iterable, Iterator, Async Iterator, or a Promise');
}

/**
 * The values a chunk completes, or (on an error) the values before it and the error.
 * @param {ChunkDecoder} chunks
 * @param {any} chunk null: the end of the input
 * @returns {{ values: any[], error: any }}
 */
function step(chunks, chunk) {
  try {
    return { values: chunk === null ? chunks.end() : chunks.push(chunk), error: null };
  } catch (e) {
    return { values: e && typeof e === 'object' && Array.isArray(e.values) ? e.values : [], error: e };
  }
}

/**
 * @param {ChunkDecoder} chunks
 * @param {any} source
 */
function decodeIterWith(chunks, source) {
  if (!source || typeof source !== 'object') {
    throw new TypeError('first argument must be an Iterable, Async Iterable, Iterator, Async Iterator, or a promise');
  }
  if (isIterable(source)) {
    return (function* decodeSync() {
      for (const chunk of source) {
        const { values, error } = step(chunks, chunk);
        for (let i = 0; i < values.length; i++) yield values[i];
        if (error) throw error;
      }
      const { values, error } = step(chunks, null);
      for (let i = 0; i < values.length; i++) yield values[i];
      if (error) throw error;
    })();
  }
  if (typeof source.then === 'function' || isAsyncIterable(source)) {
    return (async function* decodeAsync() {
      const it = await source;
      for await (const chunk of it) {
        const { values, error } = step(chunks, chunk);
        for (let i = 0; i < values.length; i++) yield values[i];
        if (error) throw error;
      }
      const { values, error } = step(chunks, null);
      for (let i = 0; i < values.length; i++) yield values[i];
      if (error) throw error;
    })();
  }
  throw new TypeError('first argument must be an Iterable, Async Iterable, Iterator, Async Iterator, or a promise');
}

/**
 * @typedef {import('./encode.js').PackOptions} PackOptions
 * @typedef {import('./decode.js').UnpackOptions & StreamDecodeOptions} UnpackIterOptions
 */

/**
 * @overload
 * @param {Iterable<any>} objectIterator
 * @param {PackOptions} [options]
 * @returns {Generator<Uint8Array, void, unknown>}
 */
/**
 * @overload
 * @param {AsyncIterable<any> | PromiseLike<AsyncIterable<any>>} objectIterator
 * @param {PackOptions} [options]
 * @returns {AsyncGenerator<Uint8Array, void, unknown>}
 */
/**
 * MessagePack-encode each value of an iterable (msgpackr's encodeIter): a sync iterable gives a
 * generator of buffers, an async iterable (or a promise of one) an async generator.
 * @param {any} objectIterator
 * @param {PackOptions} [options]
 * @returns {any}
 */
export function encodeIter(objectIterator, options) {
  return encodeIterWith(new Packr(options), objectIterator);
}

/**
 * @overload
 * @param {Iterable<Uint8Array | ArrayBuffer | ArrayBufferView>} bufferIterator
 * @param {UnpackIterOptions} [options]
 * @returns {Generator<any, void, unknown>}
 */
/**
 * @overload
 * @param {AsyncIterable<Uint8Array | ArrayBuffer | ArrayBufferView> | PromiseLike<AsyncIterable<Uint8Array | ArrayBuffer | ArrayBufferView>>} bufferIterator
 * @param {UnpackIterOptions} [options]
 * @returns {AsyncGenerator<any, void, unknown>}
 */
/**
 * Decode the MessagePack values in an iterable of byte chunks split anywhere (msgpackr's
 * decodeIter). Record definitions read from one chunk apply to later ones.
 * @param {any} bufferIterator
 * @param {UnpackIterOptions} [options]
 * @returns {any}
 */
export function decodeIter(bufferIterator, options) {
  const unpackr = new Unpackr(iterOptions(options));
  return decodeIterWith(new ChunkDecoder(unpackr, options), bufferIterator);
}

/**
 * @overload
 * @param {Iterable<any>} objectIterator
 * @param {import('./cbor.js').CborEncoderOptions} [options]
 * @returns {Generator<Uint8Array, void, unknown>}
 */
/**
 * @overload
 * @param {AsyncIterable<any> | PromiseLike<AsyncIterable<any>>} objectIterator
 * @param {import('./cbor.js').CborEncoderOptions} [options]
 * @returns {AsyncGenerator<Uint8Array, void, unknown>}
 */
/**
 * CBOR-encode each value of an iterable (cbor-x's encodeIter).
 * @param {any} objectIterator
 * @param {import('./cbor.js').CborEncoderOptions} [options]
 * @returns {any}
 */
export function cborEncodeIter(objectIterator, options) {
  return encodeIterWith(new CborEncoder(options), objectIterator);
}

/**
 * @overload
 * @param {Iterable<Uint8Array | ArrayBuffer | ArrayBufferView>} bufferIterator
 * @param {UnpackIterOptions} [options]
 * @returns {Generator<any, void, unknown>}
 */
/**
 * @overload
 * @param {AsyncIterable<Uint8Array | ArrayBuffer | ArrayBufferView> | PromiseLike<AsyncIterable<Uint8Array | ArrayBuffer | ArrayBufferView>>} bufferIterator
 * @param {UnpackIterOptions} [options]
 * @returns {AsyncGenerator<any, void, unknown>}
 */
/**
 * Decode the CBOR items in an iterable of byte chunks split anywhere (cbor-x's decodeIter).
 * @param {any} bufferIterator
 * @param {UnpackIterOptions} [options]
 * @returns {any}
 */
export function cborDecodeIter(bufferIterator, options) {
  // structures: [] keeps record definitions from chunk to chunk (cbor-x's Decoder keeps them
  // without it; ours only keeps them with it)
  const decoder = new CborDecoder(iterOptions(options));
  return decodeIterWith(new CborChunkDecoder(decoder, options), bufferIterator);
}

/**
 * The decoder options of the streams: msgpackr's and cbor-x's streams read records with
 * `structures: []` (definitions from one chunk apply to later ones), replacing any given.
 * @param {any} options
 */
export function streamOptions(options) {
  return codecOptions(options, { structures: [] });
}

/**
 * Option names that belong to a stream (Node's Transform, web streams' strategies, the codec
 * instance given to use, the incomplete-value bound), not to the codec it makes.
 */
const STREAM_ONLY = new Set(['highWaterMark', 'objectMode', 'readableObjectMode', 'writableObjectMode',
  'readableHighWaterMark', 'writableHighWaterMark', 'decodeStrings', 'defaultEncoding', 'encoding', 'emitClose',
  'autoDestroy', 'signal', 'allowHalfOpen', 'captureRejections', 'writableStrategy', 'readableStrategy',
  'packr', 'unpackr', 'encoder', 'decoder', 'maxIncompleteBufferSize']);

/**
 * The options of the codec a stream makes: its own options without the stream's (which the codec
 * would keep as properties of its own and so get a hidden class of its own: see the option slots
 * in Unpackr's constructor, decode.js), with `patch` over them.
 * @param {any} options @param {any} [patch]
 * @returns {any}
 */
export function codecOptions(options, patch) {
  /** @type {Record<string, any>} */
  const o = {};
  if (options) for (const k of Object.keys(options)) if (!STREAM_ONLY.has(k)) o[k] = options[k];
  return patch ? Object.assign(o, patch) : o;
}

/**
 * A given Unpackr prepared for a stream as msgpackr does: record definitions from one chunk apply
 * to later ones (structures: [] unless it has some).
 * @template {Unpackr} T
 * @param {T} unpackr
 * @returns {T}
 */
export function streamUnpackr(unpackr) {
  if (!unpackr.structures) unpackr.structures = /** @type {any} */ ([]);
  return unpackr;
}

/**
 * The decoder options of decodeIter: `structures: []` unless structures are given (msgpackr's
 * decodeIter keeps given ones).
 * @param {any} options
 */
function iterOptions(options) {
  return options && options.structures ? options : streamOptions(options);
}

/* ------------------------------------------------------------------ encodeAsIterable (CBOR) */

/**
 * @typedef {object} IterableEncodeOptions
 * @property {number} [chunkThreshold] yield a chunk once this many bytes are ready (default:
 *   100 for the first chunk, then 1000, as cbor-x)
 */

/** @param {any} v */
function isBlob(v) {
  return typeof Blob !== 'undefined' && v instanceof Blob;
}

/**
 * Whether a value must be walked to be encoded progressively: it is or contains (through plain
 * objects and arrays) a Blob, an async iterable, or an iterator that is not an Array, typed
 * array, Map, Set or string.
 * @param {any} v
 * @param {number} depth
 */
function needsWalk(v, depth) {
  if (v === null || typeof v !== 'object' || depth > 64) return false;
  if (isBlob(v) || isAsyncIterable(v)) return true;
  const ctor = v.constructor;
  if (ctor === Array) {
    for (let i = 0; i < v.length; i++) if (needsWalk(v[i], depth + 1)) return true;
    return false;
  }
  if (ctor === Object || ctor === undefined) {
    for (const k in v) if (Object.prototype.hasOwnProperty.call(v, k) && needsWalk(v[k], depth + 1)) return true;
    return false;
  }
  return isPlainIterator(v);
}

/** @param {any} v */
function isPlainIterator(v) {
  return isIterable(v) && !ArrayBuffer.isView(v) && !(v instanceof Map) && !(v instanceof Set) && !Array.isArray(v);
}


/**
 * Collects encoded pieces into chunks of about `threshold` bytes.
 */
class Chunker {
  /** @param {IterableEncodeOptions | undefined} options */
  constructor(options) {
    const t = options && options.chunkThreshold;
    this.threshold = t || 100;
    this.next = t || 1000;
    /** @type {Uint8Array[]} */
    this.parts = [];
    this.size = 0;
  }

  /** @param {Uint8Array} bytes @returns {Uint8Array | null} a chunk when one is ready */
  add(bytes) {
    this.parts.push(bytes);
    this.size += bytes.length;
    return this.size >= this.threshold ? this.flush() : null;
  }

  /** @returns {Uint8Array | null} */
  flush() {
    if (this.size === 0) return null;
    const parts = this.parts;
    let out;
    if (parts.length === 1) out = parts[0];
    else {
      out = alloc(this.size);
      let at = 0;
      for (const p of parts) { out.set(p, at); at += p.length; }
    }
    this.parts = [];
    this.size = 0;
    this.threshold = this.next;
    return out;
  }
}

/**
 * An encoder for the parts of a walked value: the same options, without the self-describe
 * prefix (written once, before the whole value) and without bundled strings (a bundle is a
 * message's outermost item: one inside a part would be out of place, and the whole read by no
 * decoder, as cbor-x's own encodeAsIterable with bundleStrings writes it).
 * @param {any} encoder
 */
function partEncoder(encoder) {
  if (!encoder.useSelfDescribedHeader && !encoder.cborBundles) return encoder;
  const part = Object.create(encoder);
  part.useSelfDescribedHeader = false;
  part.cborBundles = false;
  part.tape = null;
  return part;
}

/**
 * The pieces of a walked value: Uint8Arrays, and Blobs / async iterables left for the async
 * walk (an async iterable is yielded between the 0x9f and 0xff of its indefinite array).
 * @param {any} enc
 * @param {any} v
 * @param {number} depth
 * @returns {Generator<any>}
 */
function* pieces(enc, v, depth) {
  if (!needsWalk(v, depth)) { yield enc.encode(v); return; }
  if (isBlob(v)) { yield cborHead(2, v.size); yield v; return; }
  const ctor = v.constructor;
  if (ctor === Array) {
    yield enc.indefiniteLengths && !enc.deterministic ? INDEFINITE_ARRAY : cborHead(4, v.length);
    for (let i = 0; i < v.length; i++) yield* pieces(enc, v[i], depth + 1);
    if (enc.indefiniteLengths && !enc.deterministic) yield BREAK;
    return;
  }
  if (ctor === Object || ctor === undefined) {
    const keys = [];
    for (const k in v) if (Object.prototype.hasOwnProperty.call(v, k)) keys.push(k);
    /** @type {Array<[Uint8Array, string]>} */
    let entries = keys.map((k) => [enc.encode(k), k]);
    if (enc.deterministic) entries = entries.sort((a, b) => compareBytes(a[0], b[0]));
    const indefinite = enc.indefiniteLengths && !enc.deterministic;
    yield indefinite ? Uint8Array.of(0xbf) : cborHead(5, entries.length);
    for (const [kb, k] of entries) {
      yield kb;
      yield* pieces(enc, v[k], depth + 1);
    }
    if (indefinite) yield BREAK;
    return;
  }
  if (isAsyncIterable(v)) { yield INDEFINITE_ARRAY; yield v; yield BREAK; return; }
  // any other iterator: an indefinite-length array of its values, read lazily
  yield INDEFINITE_ARRAY;
  for (const item of v) yield* pieces(enc, item, depth + 1);
  yield BREAK;
}

/**
 * cbor-x's Encoder#encodeAsIterable (attach as `encodeAsIterable(value, options) {
 * return encodeAsIterableWith(this, value, options); }`): the CBOR encoding of value as an iterable of chunks,
 * produced as it is consumed. Iterators (generators and other iterables that are not arrays,
 * typed arrays, Maps, Sets or strings) become indefinite-length arrays read lazily; a Blob is
 * yielded as is after its byte-string head, and an async iterable as is inside an
 * indefinite-length array (use encodeAsAsyncIterable to have them read). Everything else is
 * encoded as `encoder.encode` does.
 * @param {any} encoder a CBOR Encoder
 * @param {unknown} value
 * @param {IterableEncodeOptions} [options]
 * @returns {Iterable<any>}
 */
export function encodeAsIterableWith(encoder, value, options) {
  const bytes = encodeIfPlain(encoder, value);
  return bytes !== null ? [bytes] : chunked(encoder, value, options);
}

/**
 * @param {any} encoder
 * @param {unknown} value
 * @param {IterableEncodeOptions | undefined} options
 * @returns {Generator<any>}
 */
function* chunked(encoder, value, options) {
  const chunker = new Chunker(options);
  const enc = partEncoder(encoder);
  if (encoder.useSelfDescribedHeader) chunker.add(Uint8Array.of(0xd9, 0xd9, 0xf7));
  for (const piece of pieces(enc, value, 0)) {
    if (piece instanceof Uint8Array) {
      const ready = chunker.add(piece);
      if (ready) yield ready;
    } else {
      const ready = chunker.flush();
      if (ready) yield ready;
      yield piece;
    }
  }
  const last = chunker.flush();
  if (last) yield last;
}

/**
 * The encoding of a value that has nothing for encodeAsIterable to walk (no Blob, async
 * iterable or other iterator inside it): encoder.encode(value), the one chunk the iterables
 * would give; null for a value they must walk.
 * @param {any} encoder a CBOR Encoder
 * @param {unknown} value
 * @returns {Uint8Array | null}
 */
export function encodeIfPlain(encoder, value) {
  return needsWalk(value, 0) ? null : encoder.encode(value);
}

/**
 * cbor-x's Encoder#encodeAsAsyncIterable (attach likewise): like encodeAsIterable, but Blobs are read and async
 * iterables consumed (each of their values encoded the same way), so every chunk is bytes.
 * @param {any} encoder a CBOR Encoder
 * @param {unknown} value
 * @param {IterableEncodeOptions} [options]
 * @returns {AsyncGenerator<Uint8Array>}
 */
export function encodeAsAsyncIterableWith(encoder, value, options) {
  return asyncPieces(encoder, partEncoder(encoder), value, options);
}

/**
 * @param {any} encoder
 * @param {any} inner the encoder for the values of async iterables inside value
 * @param {unknown} value
 * @param {IterableEncodeOptions | undefined} options
 * @returns {AsyncGenerator<Uint8Array>}
 */
async function* asyncPieces(encoder, inner, value, options) {
  for (const piece of encodeAsIterableWith(encoder, value, options)) {
    if (piece instanceof Uint8Array) yield piece;
    else if (isBlob(piece)) {
      const reader = /** @type {Blob} */ (piece).stream().getReader();
      for (;;) {
        const next = await reader.read();
        if (next.done) break;
        yield next.value;
      }
    } else {
      for await (const item of piece) yield* asyncPieces(inner, inner, item, options);
    }
  }
}

/** @type {CborEncoder | null} cbor-x's free functions use an Encoder without records */
let defaultCborEncoder = null;

/**
 * cbor-x's free encodeAsIterable (default Encoder options).
 * @param {unknown} value
 * @param {IterableEncodeOptions} [options]
 * @returns {Iterable<any>}
 */
export function cborEncodeAsIterable(value, options) {
  return encodeAsIterableWith(defaultCborEncoder || (defaultCborEncoder = new CborEncoder({ useRecords: false })), value, options);
}

/**
 * cbor-x's free encodeAsAsyncIterable (default Encoder options).
 * @param {unknown} value
 * @param {IterableEncodeOptions} [options]
 * @returns {AsyncGenerator<Uint8Array>}
 */
export function cborEncodeAsAsyncIterable(value, options) {
  return encodeAsAsyncIterableWith(defaultCborEncoder || (defaultCborEncoder = new CborEncoder({ useRecords: false })), value, options);
}
