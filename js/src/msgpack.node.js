// @ts-check
/** Node entry for @msgpack/msgpack's API (`wirepack/msgpack`): the shared wasm module is ready on import. */
import './load.node.js';

export * from './msgpack.js';
