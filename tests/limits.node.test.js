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
