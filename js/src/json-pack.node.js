// @ts-check
/** Node entry for json-pack's MessagePack and CBOR codec classes (`wirepack/json-pack`): the shared wasm module is ready on import. */
import './load.node.js';

export * from './json-pack.js';
