// validate() against decoding, on raw items written byte by byte and on those items cut short
// or with a byte changed. validate checks structure (well-formed, depth, UTF-8), not the
// meaning decoders give extensions and tags (a structured-clone pointer, a shared reference),
// so: items without those validate and decode alike, apart from ill-formed UTF-8 (validate
// rejects it, decoding replaces it); and whatever validate rejects for its structure, decoding
// rejects too.
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import { unpack } from 'wirepack';
import { decode as cborDecode } from 'wirepack/cbor';
import { hex } from './helpers/bytes.js';
import { cborItem, msgpackItem } from './helpers/items.js';
import { validate } from './helpers/transcode.js';

describe.each([['msgpack', unpack, msgpackItem], ['cbor', cborDecode, cborItem]])('%s: validate agrees with decoding', (format, decode, item) => {
  /** @param {Uint8Array} bytes */
  function outcomes(bytes) {
    const v = validate(bytes, { format: /** @type {any} */ (format) });
    let err;
    try { decode(bytes); } catch (e) { err = e; }
    if (!v.valid && v.error.code !== 'BAD_UTF8') {
      // (the codes may differ where an input has more than one fault: the decoder may meet a
      // record or extension it cannot read first, or read a chunk's head before its kind)
      expect(err, `${hex(bytes)}: validate ${v.error.code}`).toBeDefined();
    }
    return { v, err };
  }
  test('items without extensions or tags: valid and decoded, unless a string is ill-formed UTF-8', () => {
    let valid = 0;
    fc.assert(fc.property(item({ json: true }), (bytes) => {
      const { v, err } = outcomes(bytes);
      expect(err, hex(bytes)).toBeUndefined();
      if (v.valid) valid++;
      else expect(v.error.code, hex(bytes)).toBe('BAD_UTF8');
    }), { numRuns: 2000 });
    expect(valid).toBeGreaterThan(500);
  });
  test('cut short or with a byte changed: what validate rejects, decoding rejects', () => {
    let rejected = 0;
    fc.assert(fc.property(item(), fc.nat(), fc.nat(255), (bytes, at, b) => {
      const bad = bytes.slice();
      bad[at % bad.length] = b;
      for (const x of [bytes.subarray(0, at % bytes.length), bad]) if (!outcomes(x).v.valid) rejected++;
    }), { numRuns: 2000 });
    expect(rejected).toBeGreaterThan(1000);
  });
});
