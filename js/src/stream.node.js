// @ts-check
/**
 * Node Transform streams, as msgpackr's PackrStream/UnpackrStream and cbor-x's
 * EncoderStream/DecoderStream: the encoders take values (writable object mode) and give bytes;
 * the decoders take byte chunks split anywhere and give values (object mode both ways). As the
 * peers, the encoders use records in `sequential` mode and the decoders keep record
 * definitions (`structures: []`) from chunk to chunk. A `null` value is pushed as
 * `Symbol.for('null')` (a Node object stream cannot carry null); override getNullValue to change
 * that. Malformed input ends the stream with the decoder's DecodeError ('error' event) after
 * the values before it; input ending inside a value errors with a TRUNCATED DecodeError.
 */
import { Transform } from 'node:stream';
import { Packr } from './encode.js';
import { Unpackr } from './decode.js';
import { Encoder as CborEncoder, Decoder as CborDecoder } from './cbor.js';
import { ChunkDecoder, CborChunkDecoder, codecOptions, encodeAsAsyncIterableWith, encodeIfPlain, streamOptions, streamUnpackr } from './iterators.js';

/**
 * @typedef {import('node:stream').TransformOptions} TransformOptions
 * @typedef {import('./encode.js').PackOptions & TransformOptions & { packr?: Packr, sequential?: boolean }} PackrStreamOptions
 * @typedef {import('./decode.js').UnpackOptions & TransformOptions & import('./iterators.js').StreamDecodeOptions & { unpackr?: Unpackr }} UnpackrStreamOptions
 * @typedef {import('./cbor.js').CborEncoderOptions & TransformOptions & { encoder?: CborEncoder, sequential?: boolean }} EncoderStreamOptions
 * @typedef {import('./decode.js').UnpackOptions & TransformOptions & import('./iterators.js').StreamDecodeOptions & { decoder?: CborDecoder }} DecoderStreamOptions
 */

/**
 * @param {any} options
 * @param {any} patch
 */
function withOptions(options, patch) {
  return Object.assign({}, options, patch);
}

/** Values in, MessagePack bytes out (msgpackr's PackrStream). */
export class PackrStream extends Transform {
  /** @param {PackrStreamOptions} [options] */
  constructor(options) {
    const o = withOptions(options, { writableObjectMode: true });
    super(o);
    o.sequential = true;
    /** @type {Packr} */
    this.packr = o.packr || new Packr(codecOptions(o));
  }

  /**
   * @param {unknown} value
   * @param {BufferEncoding} _encoding
   * @param {(error?: Error | null) => void} callback
   */
  _transform(value, _encoding, callback) {
    let bytes;
    try {
      bytes = this.packr.pack(value);
    } catch (e) {
      callback(e);
      return;
    }
    this.push(bytes);
    callback();
  }
}

/**
 * Shared decoding half of UnpackrStream and DecoderStream.
 * @param {Transform & { chunks: ChunkDecoder, getNullValue(): unknown }} stream
 * @param {any} chunk
 * @param {(error?: Error | null) => void} callback
 */
function transformChunk(stream, chunk, callback) {
  let values, error = null;
  try {
    values = stream.chunks.push(chunk);
  } catch (e) {
    values = e && typeof e === 'object' && Array.isArray(e.values) ? e.values : [];
    error = e instanceof Error ? e : new Error(`Decoding failed: ${String(e)}`);
  }
  for (let value of values) {
    if (value === null) value = stream.getNullValue();
    stream.push(value);
  }
  callback(error);
}

/**
 * @param {Transform & { chunks: ChunkDecoder, getNullValue(): unknown }} stream
 * @param {(error?: Error | null) => void} callback
 */
function flushChunks(stream, callback) {
  let values, error = null;
  try {
    values = stream.chunks.end();
  } catch (e) {
    values = e && typeof e === 'object' && Array.isArray(e.values) ? e.values : [];
    error = e;
  }
  for (let value of values) {
    if (value === null) value = stream.getNullValue();
    stream.push(value);
  }
  callback(error);
}

/** What both decoder streams share: bytes in, values out through their ChunkDecoder. */
class DecodingStream extends Transform {
  /**
   * @param {any} chunk
   * @param {BufferEncoding} _encoding
   * @param {(error?: Error | null) => void} callback
   */
  _transform(chunk, _encoding, callback) {
    transformChunk(/** @type {any} */ (this), chunk, callback);
  }

  /** @param {(error?: Error | null) => void} callback */
  _flush(callback) {
    flushChunks(/** @type {any} */ (this), callback);
  }

  /** What a decoded null is pushed as (object streams cannot carry null). */
  getNullValue() {
    return Symbol.for('null');
  }
}

/** MessagePack bytes in (split anywhere), values out (msgpackr's UnpackrStream). */
export class UnpackrStream extends DecodingStream {
  /** @param {UnpackrStreamOptions} [options] */
  constructor(options) {
    const o = withOptions(options, { objectMode: true });
    super(o);
    const unpackr = o.unpackr ? streamUnpackr(o.unpackr) : new Unpackr(streamOptions(o));
    /** @type {Unpackr} */
    this.unpackr = unpackr;
    /** @type {ChunkDecoder} */
    this.chunks = new ChunkDecoder(unpackr, o);
  }

}

/** Values in, CBOR bytes out (cbor-x's EncoderStream). */
export class CborEncoderStream extends Transform {
  /** @param {EncoderStreamOptions} [options] */
  constructor(options) {
    const o = withOptions(options, { writableObjectMode: true });
    super(o);
    o.sequential = true;
    /** @type {CborEncoder} */
    this.encoder = o.encoder || new CborEncoder(codecOptions(o));
  }

  /**
   * Each value is encoded progressively (cbor-x's encodeAsAsyncIterable): Blobs are read and
   * async iterables consumed as they are reached. A value with none of those inside is encoded
   * at once: the same bytes, without the async generator, which took 7 of the 8 us per message
   * of a stream of small messages.
   * @param {unknown} value
   * @param {BufferEncoding} _encoding
   * @param {(error?: Error | null) => void} callback
   */
  _transform(value, _encoding, callback) {
    let bytes;
    try {
      bytes = encodeIfPlain(this.encoder, value);
    } catch (e) {
      callback(/** @type {Error} */ (e));
      return;
    }
    if (bytes === null) {
      this.transformAsync(value, callback);
      return;
    }
    this.push(bytes);
    callback();
  }

  /**
   * @param {unknown} value
   * @param {(error?: Error | null) => void} callback
   */
  async transformAsync(value, callback) {
    try {
      for await (const chunk of encodeAsAsyncIterableWith(this.encoder, value)) this.push(chunk);
    } catch (e) {
      callback(e);
      return;
    }
    callback();
  }
}

/** CBOR bytes in (split anywhere), items out (cbor-x's DecoderStream). */
export class CborDecoderStream extends DecodingStream {
  /** @param {DecoderStreamOptions} [options] */
  constructor(options) {
    const o = withOptions(options, { objectMode: true });
    super(o);
    const decoder = o.decoder || new CborDecoder(streamOptions(o));
    /** @type {CborDecoder} */
    this.decoder = decoder;
    /** @type {ChunkDecoder} */
    this.chunks = new CborChunkDecoder(decoder, o);
  }

}
