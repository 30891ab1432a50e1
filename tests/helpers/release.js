// Waiting for a MemoryKeeper (js/src/runtime.js) to replace an instance whose memory calls grew.
import { expect } from 'vitest';
import { RELEASE_DELAY_MS } from '../../js/src/runtime.js';

/**
 * Wait until `current()` is no longer `grown`: its keeper replaces it RELEASE_DELAY_MS after the
 * last call that wrote past RELEASE_MEMORY_BYTES (up to twice that when another came while it
 * waited). Fails after 4x.
 * @param {() => unknown} current the instance in use now (runtime or tcRuntime)
 * @param {unknown} grown
 */
export async function replaced(current, grown) {
  const until = Date.now() + 4 * RELEASE_DELAY_MS;
  while (current() === grown && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
  expect(current() === grown).toBe(false); // (booleans: a diff of two runtimes is huge)
}
