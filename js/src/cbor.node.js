// @ts-check
/** Node entry for CBOR (`wirepack/cbor`): the shared wasm module is ready on import. */
import './load.node.js';

export * from './cbor.js';
export { CborEncoderStream as EncoderStream, CborDecoderStream as DecoderStream } from './stream.node.js';
export { cborEncodeIter as encodeIter, cborDecodeIter as decodeIter, cborEncodeAsIterable as encodeAsIterable, cborEncodeAsAsyncIterable as encodeAsAsyncIterable } from './iterators.js';
export { CborEncoderTransformStream as EncoderTransformStream, CborDecoderTransformStream as DecoderTransformStream } from './webstream.js';
