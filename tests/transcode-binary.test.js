// MessagePack <-> CBOR from C against the decoders: the converted bytes decode to the value the
// input decodes to, on raw items written byte by byte (every head size, CBOR indefinite lengths
// and chunks, floats by their bits, ill-formed UTF-8, keys of every kind, 64-bit integers,
// binary, undefined). Values with no counterpart are refused (UNMAPPABLE); well-formedness
// errors must be the decoder's too.
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import { unpack } from 'wirepack';
import { decode as cborDecode } from 'wirepack/cbor';
import { hex } from './helpers/bytes.js';
import { cborItem, msgpackItem } from './helpers/items.js';
import { transcode } from './helpers/transcode.js';

/** -0 as 0 throughout (what pack writes for -0, as msgpackr does) */
function zeroes(v) {
  if (Object.is(v, -0)) return 0;
  if (Array.isArray(v)) return v.map(zeroes);
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [zeroes(k), zeroes(x)]));
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, zeroes(x)]));
  }
  return v;
}

const PAIRS = /** @type {const} */ ([
  ['msgpack', 'cbor', unpack, cborDecode, msgpackItem],
  ['cbor', 'msgpack', cborDecode, unpack, cborItem],
]);

describe.each(PAIRS)('%s -> %s decodes to the same value', (from, to, decodeFrom, decodeTo, item) => {
  test('raw items', () => {
    let same = 0;
    fc.assert(fc.property(item(), (bytes) => {
      let out, err;
      try { out = /** @type {Uint8Array} */ (transcode(bytes, { from, to })); } catch (e) { err = e; }
      let value, decodeErr;
      try { value = decodeFrom(bytes); } catch (e) { decodeErr = e; }
      if (err) {
        expect(err.name, hex(bytes)).toBe('DecodeError');
        if (err.code !== 'UNMAPPABLE') expect(decodeErr, `${hex(bytes)}: ${err.code}`).toBeDefined();
        return;
      }
      expect(decodeErr, hex(bytes)).toBeUndefined();
      expect(decodeTo(out), `${hex(bytes)} -> ${hex(out)}`).toEqual(to === 'msgpack' ? zeroes(value) : value);
      same++;
    }), { numRuns: 3000 });
    expect(same).toBeGreaterThan(1000);
  });
});
