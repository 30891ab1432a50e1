// @ts-check
/** Node entry (MessagePack): the wasm module is compiled and ready synchronously on import. */
import './load.node.js';

export * from './api.js';
export { PackrStream, UnpackrStream, PackrStream as EncoderStream, UnpackrStream as DecoderStream } from './stream.node.js';
export { encodeIter, decodeIter } from './iterators.js';
export { PackrTransformStream, UnpackrTransformStream, PackrTransformStream as EncoderTransformStream, UnpackrTransformStream as DecoderTransformStream } from './webstream.js';
