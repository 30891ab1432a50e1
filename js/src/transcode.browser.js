// @ts-check
/**
 * Browser/worker entry (`wirepack/transcode`): ready after import (top-level await). Runtimes
 * that cannot compile wasm from bytes call initTranscode(module) themselves.
 */
import { fromBase64 } from './load.browser.js';
import { transcodeWasmBase64 } from './transcode-inline.js';
import { initTranscode, isTranscodeInitialized } from './transcode.js';

if (!isTranscodeInitialized()) {
  try {
    await initTranscode(fromBase64(transcodeWasmBase64));
  } catch {
    // compiling from bytes is not allowed here: the host must call initTranscode(module)
  }
}

export * from './transcode.js';
