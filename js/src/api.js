// @ts-check
/**
 * The public API, shared by every entry point: msgpackr's names and meanings. The free
 * functions are plain MessagePack (no records) with default options.
 */
import { Packr, FLOAT32_OPTIONS, C1Type } from './encode.js';
import { Unpackr, roundFloat32 } from './decode.js';

export { Packr, Unpackr, FLOAT32_OPTIONS, roundFloat32, C1Type };
export { DecodeError } from './errors.js';
export { ExtData, addExtension } from './ext.js';

/** msgpackr's FLOAT32_OPTIONS, also exported one by one. */
export const { NEVER, ALWAYS, DECIMAL_ROUND, DECIMAL_FIT } = FLOAT32_OPTIONS;
/** msgpackr's pack() mode flags (accepted by Packr#pack as its second argument). */
export const REUSE_BUFFER_MODE = 512;
export const RESET_BUFFER_MODE = 1024;
export const RESERVE_START_SPACE = 2048;
/** msgpackr's module defaults, for code that reads them. */
export const useRecords = false;
export const mapsAsObjects = true;
/** wirepack has no native addon: the codec is WebAssembly everywhere. */
export const isNativeAccelerationEnabled = false;

/** msgpackr's marker for the never-used byte 0xc1 (Packr writes 0xc1 for it). wirepack's
 * decoder never returns it: 0xc1 outside bundled strings throws DecodeError('RESERVED_BYTE'). */
export const C1 = new C1Type();

/**
 * msgpackr drops its reference to the last source buffer with this. wirepack keeps no source
 * between calls (the input is copied into wasm memory for the call), so there is nothing to do.
 */
export function clearSource() {}
export { init, initSync, isInitialized } from './runtime.js';

export const Encoder = Packr;
export const Decoder = Unpackr;

// msgpackr's free functions: no records, maps as objects
const defaultPackr = new Packr({ useRecords: false });
const defaultUnpackr = new Unpackr({ useRecords: false });

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
 * @param {number | {start?: number, end?: number}} [options] msgpackr's end offset, or {start, end}
 * @returns {any}
 */
export function unpack(source, options) {
  return defaultUnpackr.unpack(source, options);
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
