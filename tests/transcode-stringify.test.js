// JSON output from C against its contract: transcode(x, { to: 'json' }) is byte for byte
// JSON.stringify(decode(x)) (64-bit integers as their digits), on raw items written byte by
// byte: every head size, indefinite lengths and chunks, floats by their bits, ill-formed
// UTF-8, keys of every scalar kind (duplicates by name, index-like keys out of order,
// __proto__), undefined members. Where transcode refuses (NON_JSON) nothing is compared;
// well-formedness errors must be the decoder's too.
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import { unpack } from 'wirepack';
import { decode as cborDecode } from 'wirepack/cbor';
import { hex } from './helpers/bytes.js';
import { cborItem, msgpackItem } from './helpers/items.js';
import { transcode } from './helpers/transcode.js';

/** JSON.stringify with BigInts as their digits (what transcode writes for 64-bit integers) */
function stringify(v, indent) {
  const marked = JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? `\u0000big${x}\u0000` : x), indent);
  return marked === undefined ? undefined : marked.replace(/"\\u0000big(-?\d+)\\u0000"/g, '$1');
}

const FORMATS = /** @type {const} */ ([
  ['msgpack', unpack, msgpackItem],
  ['cbor', cborDecode, cborItem],
]);

describe.each(FORMATS)('%s -> JSON is JSON.stringify(decode(x))', (from, decode, item) => {
  /** @param {Uint8Array} bytes @param {number} [indent] */
  function check(bytes, indent) {
    let got, err;
    try { got = transcode(bytes, { from, to: 'json', indent }); } catch (e) { err = e; }
    let value, decodeErr;
    try { value = decode(bytes); } catch (e) { decodeErr = e; }
    if (err) {
      expect(err.name, hex(bytes)).toBe('DecodeError');
      // a policy refusal (what JSON cannot hold), or an error the decoder reports too
      if (err.code !== 'NON_JSON') expect(decodeErr, `${hex(bytes)}: ${err.code}`).toBeDefined();
      return 'refused';
    }
    expect(decodeErr, hex(bytes)).toBeUndefined();
    expect(got, hex(bytes)).toBe(stringify(value, indent));
    return 'same';
  }
  test('JSON-representable items', () => {
    let same = 0;
    fc.assert(fc.property(item({ json: true }), fc.constantFrom(undefined, 2), (bytes, indent) => {
      if (check(bytes, indent) === 'same') same++;
    }), { numRuns: 3000 });
    expect(same).toBeGreaterThan(1500); // (top-level undefined is refused: the rest converts)
  });
  test('any item: converted the same, or refused', () => {
    fc.assert(fc.property(item(), (bytes) => { check(bytes); }), { numRuns: 2000 });
  });
});

describe('maps written by decoding (KEY_ORDER in C) that hold 64-bit integers', () => {
  test('BigInts as their digits, keys in JavaScript order, one member per name', () => {
    const cb = Uint8Array.from([0x82, 0x1b, 0, 0, 0, 1, 0, 0, 0, 0, 0x81, 0xbf, 0x60, 0x00, 0x00, 0xf4, 0xff]);
    expect(transcode(cb, { from: 'cbor', to: 'json' })).toBe('[4294967296,[{"0":false,"":0}]]');
    expect(transcode(cb, { from: 'cbor', to: 'json', indent: 2 })).toBe('[\n  4294967296,\n  [\n    {\n      "0": false,\n      "": 0\n    }\n  ]\n]');
    // {undefined: 1, undefined: 2^64 - 1, a: undefined, b: [undefined, NaN]}
    const mp = Uint8Array.from([0x84, 0xd4, 0, 0, 0x01, 0xd4, 0, 0, 0xcf, 255, 255, 255, 255, 255, 255, 255, 255,
      0xa1, 0x61, 0xd4, 0, 0, 0xa1, 0x62, 0x92, 0xd4, 0, 0, 0xcb, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0]);
    expect(transcode(mp, { from: 'msgpack', to: 'json' })).toBe('{"undefined":18446744073709551615,"b":[null,null]}');
    expect(transcode(mp, { from: 'msgpack', to: 'json', as: 'bytes' })).toEqual(new TextEncoder().encode('{"undefined":18446744073709551615,"b":[null,null]}'));
  });
});
