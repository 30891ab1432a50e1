// @ts-check
/**
 * The public API, shared by every entry point: msgpackr's names and meanings. The free
 * functions are plain MessagePack (no records) with default options.
 */
import { Packr, FLOAT32_OPTIONS } from './encode.js';
import { Unpackr, roundFloat32 } from './decode.js';

export { Packr, Unpackr, FLOAT32_OPTIONS, roundFloat32 };
export { DecodeError } from './errors.js';
export { ExtData } from './ext.js';
export { init, initSync, isInitialized } from './runtime.js';

export const Encoder = Packr;
export const Decoder = Unpackr;

const defaultPackr = new Packr();
const defaultUnpackr = new Unpackr();

/**
 * Encode a value as MessagePack (a Buffer in Node, a Uint8Array elsewhere).
 * @param {unknown} value
 * @returns {Uint8Array}
 */
export function pack(value) {
  return defaultPackr.pack(value);
}

/**
 * Decode one MessagePack value.
 * @param {Uint8Array | ArrayBuffer | DataView} source
 * @returns {any}
 */
export function unpack(source) {
  return defaultUnpackr.unpack(source);
}

/**
 * Decode concatenated MessagePack values (see Unpackr#unpackMultiple).
 * @param {Uint8Array | ArrayBuffer | DataView} source
 * @param {(value: any, start: number, end: number) => unknown} [forEach]
 * @returns {any[] | undefined}
 */
export function unpackMultiple(source, forEach) {
  return defaultUnpackr.unpackMultiple(source, forEach);
}

export const encode = pack;
export const decode = unpack;
