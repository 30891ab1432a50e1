// @ts-check
/**
 * WHATWG TransformStreams (browsers, workers, Deno, Bun, Node 18+), the web counterparts of the
 * Node streams in stream.node.js (the peers define none, so the names are ours):
 *   PackrTransformStream / UnpackrTransformStream     MessagePack
 *   CborEncoderTransformStream / CborDecoderTransformStream   CBOR (exported from wirepack/cbor
 *   as EncoderTransformStream / DecoderTransformStream)
 * The encoders take values and give Uint8Array chunks (Buffers in Node); the decoders take
 * chunks (Uint8Array, ArrayBuffer or any ArrayBufferView) split at any byte and give the
 * decoded values, null included. Like the Node streams, encoders use records in `sequential`
 * mode and decoders keep record definitions between chunks. A malformed input errors the
 * stream with the decoder's DecodeError after the values before it; input ending inside a value
 * errors it with a TRUNCATED DecodeError.
 *
 *   const res = await fetch(url);
 *   for await (const value of res.body.pipeThrough(new UnpackrTransformStream())) ...
 */
import { Packr } from './encode.js';
import { Unpackr } from './decode.js';
import { Encoder as CborEncoder, Decoder as CborDecoder } from './cbor.js';
import { ChunkDecoder, CborChunkDecoder, codecOptions, encodeAsAsyncIterableWith, encodeIfPlain, streamOptions, streamUnpackr } from './iterators.js';

/**
 * TransformStream where the platform has one; elsewhere constructing throws.
 * @type {typeof TransformStream}
 */
const Base = typeof TransformStream === 'function'
  ? TransformStream
  : /** @type {any} */ (class {
    constructor() {
      throw new TypeError('wirepack: this platform has no TransformStream');
    }
  });

/**
 * @typedef {object} WebStreamOptions
 * @property {QueuingStrategy<any>} [writableStrategy] queuing strategy of the writable side
 * @property {QueuingStrategy<any>} [readableStrategy] queuing strategy of the readable side
 */

/**
 * @typedef {import('./encode.js').PackOptions & WebStreamOptions & { packr?: Packr, sequential?: boolean }} PackrTransformOptions
 * @typedef {import('./decode.js').UnpackOptions & WebStreamOptions & import('./iterators.js').StreamDecodeOptions & { unpackr?: Unpackr }} UnpackrTransformOptions
 * @typedef {import('./cbor.js').CborEncoderOptions & WebStreamOptions & { encoder?: CborEncoder, sequential?: boolean }} EncoderTransformOptions
 * @typedef {import('./decode.js').UnpackOptions & WebStreamOptions & import('./iterators.js').StreamDecodeOptions & { decoder?: CborDecoder }} DecoderTransformOptions
 */

/**
 * @param {ChunkDecoder} chunks
 * @returns {Transformer<any, any>}
 */
function decodingTransformer(chunks) {
  return {
    transform(chunk, controller) {
      let values;
      try {
        values = chunks.push(chunk);
      } catch (e) {
        if (e && typeof e === 'object' && Array.isArray(e.values)) for (const v of e.values) controller.enqueue(v);
        throw e;
      }
      for (const v of values) controller.enqueue(v);
    },
    flush(controller) {
      let values;
      try {
        values = chunks.end();
      } catch (e) {
        if (e && typeof e === 'object' && Array.isArray(e.values)) for (const v of e.values) controller.enqueue(v);
        throw e;
      }
      for (const v of values) controller.enqueue(v);
    },
  };
}

/** Values in, MessagePack bytes out. */
export class PackrTransformStream extends Base {
  /** @param {PackrTransformOptions} [options] */
  constructor(options) {
    const o = Object.assign({}, options, { sequential: true });
    const packr = o.packr || new Packr(codecOptions(o));
    super({
      transform(value, controller) {
        controller.enqueue(packr.pack(value));
      },
    }, o.writableStrategy, o.readableStrategy);
    /** @type {Packr} */
    this.packr = packr;
  }
}

/** MessagePack bytes in (split anywhere), values out. */
export class UnpackrTransformStream extends Base {
  /** @param {UnpackrTransformOptions} [options] */
  constructor(options) {
    const o = Object.assign({}, options);
    const unpackr = o.unpackr ? streamUnpackr(o.unpackr) : new Unpackr(streamOptions(o));
    const chunks = new ChunkDecoder(unpackr, o);
    super(decodingTransformer(chunks), o.writableStrategy, o.readableStrategy);
    /** @type {Unpackr} */
    this.unpackr = unpackr;
  }
}

/** Values in, CBOR bytes out (each value encoded progressively, Blobs and async iterables read). */
export class CborEncoderTransformStream extends Base {
  /** @param {EncoderTransformOptions} [options] */
  constructor(options) {
    const o = Object.assign({}, options, { sequential: true });
    const encoder = o.encoder || new CborEncoder(codecOptions(o));
    super({
      transform(value, controller) {
        // nothing to walk inside: encoded at once (no async generator, as CborEncoderStream)
        const bytes = encodeIfPlain(encoder, value);
        if (bytes !== null) {
          controller.enqueue(bytes);
          return;
        }
        return (async () => {
          for await (const chunk of encodeAsAsyncIterableWith(encoder, value)) controller.enqueue(chunk);
        })();
      },
    }, o.writableStrategy, o.readableStrategy);
    /** @type {CborEncoder} */
    this.encoder = encoder;
  }
}

/** CBOR bytes in (split anywhere), items out. */
export class CborDecoderTransformStream extends Base {
  /** @param {DecoderTransformOptions} [options] */
  constructor(options) {
    const o = Object.assign({}, options);
    const decoder = o.decoder || new CborDecoder(streamOptions(o));
    const chunks = new CborChunkDecoder(decoder, o);
    super(decodingTransformer(chunks), o.writableStrategy, o.readableStrategy);
    /** @type {CborDecoder} */
    this.decoder = decoder;
  }
}
