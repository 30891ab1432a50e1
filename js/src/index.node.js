// @ts-check
/** Node entry: the wasm module is compiled and ready synchronously on import. */
import { wasmBase64 } from './wasm-inline.js';
import { initSync } from './runtime.js';

initSync(Buffer.from(wasmBase64, 'base64'));

export * from './api.js';
