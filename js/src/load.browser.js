// @ts-check
/**
 * Loads the wasm module (browsers, workers, Deno, Bun): ready after import, through top-level
 * await. Runtimes that forbid compiling wasm from bytes (workerd) call init(module) with the
 * module they are given; until then the codec functions throw a clear error.
 */
import { wasmBase64 } from './wasm-inline.js';
import { init, isInitialized } from './runtime.js';

/** Bytes from base64 (also used by the transcode entry for its own module). @param {string} b64 */
export function fromBase64(b64) {
  // Uint8Array.fromBase64 (newer engines) is about 10x faster than the atob loop on a cold start
  const native = /** @type {any} */ (Uint8Array).fromBase64;
  if (typeof native === 'function') return /** @type {Uint8Array} */ (native(b64));
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

if (!isInitialized()) {
  try {
    await init(fromBase64(wasmBase64));
  } catch {
    // compiling from bytes is not allowed here: the host must call init(module)
  }
}
