// @ts-check
/**
 * Browser/worker entry (`wirepack/transcode`): ready after import (top-level await). Runtimes
 * that cannot compile wasm from bytes call initTranscode(module) themselves.
 */
import './load.browser.js';
import { transcodeWasmBase64 } from './transcode-inline.js';
import { initTranscode, isTranscodeInitialized } from './transcode.js';

/** @param {string} b64 */
function fromBase64(b64) {
  const native = /** @type {any} */ (Uint8Array).fromBase64;
  if (typeof native === 'function') return /** @type {Uint8Array} */ (native(b64));
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

if (!isTranscodeInitialized()) {
  try {
    await initTranscode(fromBase64(transcodeWasmBase64));
  } catch {
    // compiling from bytes is not allowed here: the host must call initTranscode(module)
  }
}

export * from './transcode.js';
