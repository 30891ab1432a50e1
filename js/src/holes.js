// @ts-check
/**
 * Holes: where the long binaries (and extension data) of a large input lie, so that the decode
 * copies the rest of the input into wasm memory and leaves them out (the C decoders never read
 * those bytes, and the values made from them are views or copies of the caller's input). The
 * walk below is a guess: C checks that each hole is exactly the bytes of an item it skipped, and
 * fails the call with WP_ERR_HOLE otherwise (and at any bundle, whose strings it reads out of
 * order), and the caller then copies the holes as well and decodes again (csrc/wirepack.h,
 * wp_decoder.holes). So the walk need not know what C knows (records, extensions, nesting): it
 * reads the items' heads one after another, skipping strings and binaries, and stops where it is
 * unsure, or when its budget of items is spent, keeping what it found before.
 */

/** Holes C takes in one call (csrc/wp_wasm.c WP_HOLES_MAX). */
export const HOLES_MAX = 256;
/** Inputs shorter than this are copied whole: 256 KiB copy in ~20 us. */
export const HOLE_INPUT_MIN = 1 << 18;
/** Binaries shorter than this are copied with the rest. */
export const HOLE_MIN = 1 << 14;
/**
 * Heads the walk reads before it gives up, per input byte (each hole found adds to it): a head
 * costs the walk ~3 ns and the decode many times that, so a walk that finds nothing costs a
 * decode of small items about 1%.
 */
const WALK_SHIFT = 7;

/** @param {Uint8Array} b @param {number} at */
function be32(b, at) {
  return ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
}

/**
 * The binaries (and extensions) of at least `min` bytes in a MessagePack input, as (offset,
 * length) pairs of their bytes written to out from index at; none if the input has bundled
 * strings (ext 0x62).
 * @param {Uint8Array} b
 * @param {number} min
 * @param {Uint32Array} out
 * @param {number} at
 * @returns {number} pairs written (at most HOLES_MAX)
 */
function msgpackHoles(b, min, out, at) {
  const len = b.length;
  let pos = 0, n = 0, budget = 64 + (len >>> WALK_SHIFT);
  while (pos < len && budget-- > 0) {
    const c = b[pos];
    if (c < 0xa0 || c >= 0xe0) { pos++; continue; } // fixint, fixmap, fixarray, negative fixint
    if (c < 0xc0) { pos += 1 + (c & 0x1f); continue; } // fixstr
    let h = 0, size = 0;
    switch (c) {
      case 0xc4: case 0xc5: case 0xc6: case 0xc7: case 0xc8: case 0xc9: {
        // bin 8, 16, 32 and ext 8, 16, 32 (their type after the length)
        const ext = c >= 0xc7, k = ext ? c - 0xc7 : c - 0xc4;
        h = (k === 0 ? 2 : k === 1 ? 3 : 5) + (ext ? 1 : 0);
        if (pos + h > len) return n;
        size = k === 0 ? b[pos + 1] : k === 1 ? (b[pos + 1] << 8) | b[pos + 2] : be32(b, pos + 1);
        const type = ext ? b[pos + h - 1] : -1;
        if (type === 0x62) return 0; // bundled strings: C reads them out of order
        if (size > len - pos - h) return n; // (cut short: C says so)
        // an extension's bytes are the host's, but for types 0 and -1 (undefined, timestamps)
        // and record definitions (0x72), which C reads
        if (size >= min && type !== 0 && type !== 0xff && type !== 0x72) {
          out[at + 2 * n] = pos + h;
          out[at + 2 * n + 1] = size;
          budget += size >>> 6;
          if (++n === HOLES_MAX) return n;
        }
        pos += h + size;
        continue;
      }
      case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8:
        if (b[pos + 1] === 0x62) return 0;
        pos += 2 + (1 << (c - 0xd4)); // (fixext: at most 16 bytes, never holes)
        continue;
      case 0xd9: pos += 2 + b[pos + 1]; continue;
      case 0xda: pos += 3 + ((b[pos + 1] << 8) | b[pos + 2]); continue;
      case 0xdb: pos += 5 + be32(b, pos + 1); continue;
      case 0xca: case 0xce: case 0xd2: case 0xdd: case 0xdf: pos += 5; continue;
      case 0xcb: case 0xcf: case 0xd3: pos += 9; continue;
      case 0xcc: case 0xd0: pos += 2; continue;
      case 0xcd: case 0xd1: case 0xdc: case 0xde: pos += 3; continue;
      default: pos++; continue; // c0-c3
    }
  }
  return n;
}

/**
 * The same for CBOR: byte strings of definite length (not the chunks of an indefinite one); none
 * if the input has a bundle (cbor-x's tag 0xdff9).
 * @param {Uint8Array} b
 * @param {number} min
 * @param {Uint32Array} out
 * @param {number} at
 * @returns {number}
 */
function cborHoles(b, min, out, at) {
  const len = b.length;
  let pos = 0, n = 0, budget = 64 + (len >>> WALK_SHIFT), chunks = false;
  while (pos < len && budget-- > 0) {
    const c = b[pos], major = c >> 5, ai = c & 31;
    let h = 1, arg = ai;
    if (ai >= 24) {
      if (ai === 24) { h = 2; arg = b[pos + 1]; }
      else if (ai === 25) { h = 3; arg = (b[pos + 1] << 8) | b[pos + 2]; }
      else if (ai === 26) { h = 5; arg = be32(b, pos + 1); }
      else if (ai === 27) { h = 9; arg = be32(b, pos + 1) * 4294967296 + be32(b, pos + 5); }
      else if (ai === 31) {
        // an indefinite item opens (a byte string's chunks follow), or a break closes one
        if (major === 2) chunks = true;
        else if (c === 0xff) chunks = false;
        else if (major < 2 || major === 6) return n; // (not well formed)
        pos++;
        continue;
      } else return n; // 28-30: reserved
      if (pos + h > len) return n;
    }
    if (major === 2 || major === 3) {
      if (arg > len - pos - h) return n;
      if (major === 2 && !chunks && arg >= min) {
        out[at + 2 * n] = pos + h;
        out[at + 2 * n + 1] = arg;
        budget += arg >>> 6;
        if (++n === HOLES_MAX) return n;
      }
      pos += h + arg;
    } else {
      if (major === 6 && arg === 0xdff9) return 0; // a bundle: C reads its strings out of order
      pos += h;
    }
  }
  return n;
}

/**
 * Find the holes of a decode input: (offset, length) pairs written to out from index at.
 * @param {Uint8Array} bytes
 * @param {boolean} cbor
 * @param {number} min binaries shorter than this are not holes
 * @param {Uint32Array} out
 * @param {number} at
 * @returns {number} how many (0..HOLES_MAX)
 */
export function findHoles(bytes, cbor, min, out, at) {
  return cbor ? cborHoles(bytes, min, out, at) : msgpackHoles(bytes, min, out, at);
}
