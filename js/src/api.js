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

/** @typedef {Packr} Encoder msgpackr's other name for Packr (a type too, as its class is) */
export const Encoder = Packr;
/** @typedef {Unpackr} Decoder msgpackr's other name for Unpackr */
export const Decoder = Unpackr;

// msgpackr's free functions: no records, maps as objects
const defaultPackr = new Packr({ useRecords: false });
const defaultUnpackr = new Unpackr({ useRecords: false });

/**
 * msgpackr's name for the options of Packr and Unpackr (both take all of them).
 * @typedef {import('./encode.js').PackOptions & import('./decode.js').UnpackOptions} Options
 */
/**
 * msgpackr's name for the second argument of unpack: an end offset, or the part of the source
 * to decode (`lazy`, msgpackr's lazy structures, is accepted and ignored).
 * @typedef {number | { start?: number, end?: number, lazy?: boolean }} UnpackOptions
 */
/** @typedef {import('./encode.js').EncodedBytes} EncodedBytes */

/**
 * Encode a value as MessagePack (a Buffer in Node, a Uint8Array elsewhere).
 * @param {unknown} value
 * @param {number} [encodeOptions] as for Packr#pack (RESERVE_START_SPACE)
 * @returns {EncodedBytes}
 */
export function pack(value, encodeOptions) {
  return defaultPackr.pack(value, encodeOptions);
}

/**
 * Decode one MessagePack value.
 * @param {Uint8Array | ArrayBuffer | DataView} source
 * @param {UnpackOptions} [options] msgpackr's end offset, or {start, end}
 * @returns {any}
 */
export function unpack(source, options) {
  return defaultUnpackr.unpack(source, options);
}

/**
 * Decode concatenated MessagePack values (see Unpackr#unpackMultiple): all of them, or with a
 * callback, each of them in turn.
 * @overload
 * @param {Uint8Array | ArrayBuffer | DataView} source
 * @returns {any[]}
 */
/**
 * @overload
 * @param {Uint8Array | ArrayBuffer | DataView} source
 * @param {(value: any, start: number, end: number) => unknown} forEach
 * @returns {void}
 */
/**
 * @param {Uint8Array | ArrayBuffer | DataView} source
 * @param {(value: any, start: number, end: number) => unknown} [forEach]
 * @returns {any[] | void}
 */
export function unpackMultiple(source, forEach) {
  return defaultUnpackr.unpackMultiple(source, /** @type {any} */ (forEach));
}

export const encode = pack;
export const decode = unpack;
