// The wasm instance whose memory large calls grew is kept while they go on and replaced once they
// stop (runtime.js, MemoryKeeper), wherever wirepack runs: here in Node and in Chromium, whose
// setTimeout gives a number and has no unref (tests/limits.node.test.js measures the memory).
import { expect, test } from 'vitest';
import { pack, unpack } from 'wirepack';
import { encode, decode } from 'wirepack/cbor';
import { runtime, RELEASE_MEMORY_BYTES } from '../js/src/runtime.js';
import { replaced } from './helpers/release.js';

test.each([
  ['MessagePack', pack, unpack],
  ['CBOR', encode, decode],
])('%s: large calls in a row keep the grown instance; it is replaced once they stop, and the next works', async (_name, enc, dec) => {
  const size = 40 * 1024 * 1024;
  const bytes = enc({ big: new Uint8Array(size).fill(7), s: 'x' });
  expect(dec(bytes).big.length).toBe(size);
  const grown = runtime();
  expect(grown.keeper.wroteBig).toBe(true);
  expect(grown.memory.buffer.byteLength).toBeGreaterThan(RELEASE_MEMORY_BYTES);
  for (let i = 0; i < 2; i++) {
    expect(dec(bytes).big[size - 1]).toBe(7);
    expect(runtime() === grown).toBe(true);
  }
  expect(dec(enc({ a: [1, 'b'] }))).toEqual({ a: [1, 'b'] });
  await replaced(runtime, grown);
  expect(runtime().memory.buffer.byteLength).toBeLessThanOrEqual(RELEASE_MEMORY_BYTES);
  expect(runtime().keeper.wroteBig).toBe(false);
  expect(dec(enc({ a: [1, 'b'] }))).toEqual({ a: [1, 'b'] });
});
