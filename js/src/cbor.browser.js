// @ts-check
/** Browser/worker entry for CBOR (`wirepack/cbor`): ready after import (top-level await). */
import './load.browser.js';

export * from './cbor.js';
export { cborEncodeIter as encodeIter, cborDecodeIter as decodeIter, cborEncodeAsIterable as encodeAsIterable, cborEncodeAsAsyncIterable as encodeAsAsyncIterable } from './iterators.js';
export { CborEncoderTransformStream as EncoderTransformStream, CborDecoderTransformStream as DecoderTransformStream } from './webstream.js';
