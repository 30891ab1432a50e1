// @ts-check
/** Node entry (MessagePack): the wasm module is compiled and ready synchronously on import. */
import './load.node.js';

export * from './api.js';
