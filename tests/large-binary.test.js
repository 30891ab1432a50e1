// Binary values of 4 KB and more are copied once, from the caller's bytes into the result: the
// tape holds an XBIN entry (csrc/wirepack.h) instead of a copy, C writes the header and leaves the
// bytes to the host, which fills them in. The bytes must be exactly those of the in-tape path
// (smaller values, the tracked CBOR encoder) and of other implementations.
import { describe, expect, test } from 'vitest';
import { encode as msgpackEncode } from '@msgpack/msgpack';
import { Packr, pack, unpack } from 'wirepack';
import { Encoder, decode, encode } from 'wirepack/cbor';

/** @param {number} n @param {number} seed */
function bytesOf(n, seed) {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed * 7 + (i >> 8)) & 255;
  return b;
}

/** Byte equality without a deep-equal over megabytes. @param {Uint8Array} a @param {Uint8Array} b */
function firstDifference(a, b) {
  if (a.length !== b.length) return `lengths ${a.length} and ${b.length}`;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return `byte ${i}: ${a[i]} and ${b[i]}`;
  return null;
}

// around the threshold (4 KB in Node, 16 KB in browsers), the bin16/bin32 (and CBOR head)
// boundaries, and a large value
const SIZES = [4095, 4096, 4097, 16384, 16385, 65535, 65536, 70000, 1 << 20];

/** Binary values of n bytes among other values, small binary values included. @param {number} n */
const valueWith = (n) => [bytesOf(n, 1), 'x', { a: bytesOf(n, 2), b: 1, c: bytesOf(10, 3) }, [bytesOf(n, 4), bytesOf(n, 5)], null];

describe('MessagePack', () => {
  for (const n of SIZES) {
    test(`binary values of ${n} bytes: @msgpack/msgpack's bytes, and back`, () => {
      const v = valueWith(n);
      const out = pack(v);
      expect(firstDifference(out, msgpackEncode(v))).toBeNull();
      const back = unpack(out);
      expect(firstDifference(back[0], v[0])).toBeNull();
      expect(firstDifference(back[3][1], v[3][1])).toBeNull();
      expect(back[2].b).toBe(1);
    });
  }

  test('with records, and into a buffer given to useBuffer', () => {
    const v = { a: bytesOf(5000, 6), s: 'text', rows: [{ x: bytesOf(9000, 7) }, { x: bytesOf(4096, 8) }] };
    const packr = new Packr({ structures: [] });
    for (let round = 0; round < 2; round++) { // (the second with the structures shared)
      const back = packr.unpack(packr.pack(v));
      expect(back.s).toBe('text');
      expect(firstDifference(back.a, v.a)).toBeNull();
      expect(firstDifference(back.rows[0].x, v.rows[0].x)).toBeNull();
      expect(firstDifference(back.rows[1].x, v.rows[1].x)).toBeNull();
    }
    const target = new Uint8Array(100000).fill(0xee);
    const user = new Packr({ useRecords: false });
    user.useBuffer(target);
    const into = user.pack(v);
    expect(into.buffer).toBe(target.buffer);
    expect(firstDifference(into, msgpackEncode(v))).toBeNull();
  });

  test('a binary value detached while the walk goes on: an error, never bytes left unwritten', () => {
    const b = bytesOf(20000, 9); // (past the threshold in browsers too: 16 KB there)
    const v = [b, { get later() { structuredClone(b.buffer, { transfer: [b.buffer] }); return 1; } }];
    expect(() => pack(v)).toThrow(/changed size/);
    expect(unpack(pack([1, bytesOf(5000, 1)]))[1].length).toBe(5000);
  });
});

describe('CBOR', () => {
  const tracked = new Encoder({ deterministic: true }); // (keeps the bytes in the tape)
  const indefinite = new Encoder({ indefiniteLengths: true });
  for (const n of SIZES) {
    test(`byte strings of ${n} bytes: the bytes of the tracked encoder, and back`, () => {
      const v = [bytesOf(n, 1), 'x', [bytesOf(n, 2), 1, bytesOf(10, 3)], [bytesOf(n, 4)], null];
      const out = encode(v);
      // arrays only: deterministic encoding changes nothing else here
      expect(firstDifference(out, tracked.encode(v))).toBeNull();
      const back = decode(out);
      expect(firstDifference(back[0], v[0])).toBeNull();
      expect(firstDifference(back[2][0], v[2][0])).toBeNull();
      expect(firstDifference(decode(indefinite.encode(v))[3][0], v[3][0])).toBeNull();
    });
  }

  test('a binary value detached while the walk goes on: an error, never bytes left unwritten', () => {
    const b = bytesOf(20000, 9); // (past the threshold in browsers too: 16 KB there)
    const v = [b, { get later() { structuredClone(b.buffer, { transfer: [b.buffer] }); return 1; } }];
    expect(() => encode(v)).toThrow(/changed size/);
    expect(decode(encode([1, bytesOf(5000, 1)]))[1].length).toBe(5000);
  });
});
