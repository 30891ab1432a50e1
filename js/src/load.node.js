// @ts-check
/** Loads the wasm module synchronously (Node). Imported for its side effect by the Node entries. */
import { wasmBase64 } from './wasm-inline.js';
import { initSync, isInitialized } from './runtime.js';

if (!isInitialized()) initSync(Buffer.from(wasmBase64, 'base64'));
