// Node: wasm memory comes back to a small working set after a very large message.
import { expect, test } from 'vitest';
import { pack, unpack } from 'wirepack';
import { runtime, RELEASE_MEMORY_BYTES } from '../js/src/runtime.js';

test('memory grown by a large message is released after the call', () => {
  const big = new Uint8Array(40 * 1024 * 1024).fill(1);
  const bytes = pack({ big });
  const back = unpack(bytes);
  expect(back.big.length).toBe(big.length);
  expect(runtime().memory.buffer.byteLength).toBeLessThanOrEqual(RELEASE_MEMORY_BYTES);
  expect(unpack(pack([1, 2]))).toEqual([1, 2]);
});

test('the tape reader a runtime keeps references nothing of the last call', () => {
  const input = pack({ s: 'x'.repeat(300), u: 'ü'.repeat(50), b: new Uint8Array(10), n: [1, 2] });
  const value = unpack(input);
  const r = /** @type {any} */ (runtime()).reader;
  expect(r).not.toBeNull();
  // the input (which may be large), the joined string areas and the options are dropped
  expect(r.input.length).toBe(0);
  expect(r.opts).toBeNull();
  expect(r.A + r.U + r.b1 + r.b2).toBe('');
  expect([r.shared, r.recs, r.defs, r.refs]).toEqual([null, null, null, null]);
  // and the next call starts from scratch
  expect(unpack(input)).toEqual(value);
  expect(unpack(pack([1, 'a']))).toEqual([1, 'a']);
});
