// @ts-check
/** Node entry for CBOR (`wirepack/cbor`): the shared wasm module is ready on import. */
import './load.node.js';

export * from './cbor.js';
