// @ts-check
/** Browser, worker, Deno and Bun entry (MessagePack): ready after import (top-level await). */
import './load.browser.js';

export * from './api.js';
export { encodeIter, decodeIter } from './iterators.js';
export { PackrTransformStream, UnpackrTransformStream, PackrTransformStream as EncoderTransformStream, UnpackrTransformStream as DecoderTransformStream } from './webstream.js';
