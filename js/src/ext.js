// @ts-check
/**
 * MessagePack extensions: ExtData (a type wirepack does not interpret) and the registry that
 * msgpackr's addExtension fills. The registry is configuration shared by every Packr and
 * Unpackr (as in msgpackr), never per-call decoding state.
 */

/**
 * A MessagePack extension value of a type wirepack does not interpret. It packs back to the
 * same bytes, so nothing is lost.
 */
export class ExtData {
  /**
   * @param {number} type extension type, -128..127
   * @param {Uint8Array} data payload
   */
  constructor(type, data) {
    /** @type {number} */
    this.type = type;
    /** @type {Uint8Array} */
    this.data = data;
  }
}

/**
 * A user extension, as msgpackr's addExtension takes it. Either pack/unpack (bytes) or
 * write/read (a value that is itself packed after a one-byte extension header).
 * @typedef {object} Extension
 * @property {Function} [Class] values that are instances of Class use this extension
 * @property {number} type extension type, -128..127 (as uint8: 0..255)
 * @property {(value: any) => Uint8Array} [pack] bytes of the payload
 * @property {(data: Uint8Array) => any} [unpack] value from the payload
 * @property {(value: any) => any} [write] a value packed in place of the instance
 * @property {(value: any) => any} [read] the instance from the value write returned
 */

/**
 * On an extension codec (wirepack/msgpack's ExtensionCodec): true while its decoder for the
 * timestamp extension (-1) is the standard one, which the C decoder then stands in for.
 */
export const NATIVE_TIMESTAMP = Symbol('wirepack.nativeTimestamp');

/** Registered extensions with a Class, most recent first (msgpackr's order). @type {Extension[]} */
export const packExtensions = [];
/** Extensions by type (0..255) for decoding. @type {(Extension | undefined)[]} */
export const unpackExtensions = new Array(256);
/** Bumped on every addExtension, so decoders can re-sync what they cached. */
export const registry = { version: 0 };

/**
 * Register an extension (msgpackr's addExtension).
 * @param {Extension} extension
 */
export function addExtension(extension) {
  if (extension.Class) {
    if (!extension.pack && !extension.write) throw new Error('Extension has no pack or write function');
    if (extension.pack && !extension.type) throw new Error('Extension has no type (numeric code to identify the extension)');
    packExtensions.unshift(extension);
  }
  unpackExtensions[extension.type & 0xff] = extension;
  registry.version++;
}

/**
 * msgpackr's typed array codes (ext 0x74: the index of the class's name; 16 is ArrayBuffer, 17
 * DataView), and Float16Array as 11, the next index, which msgpackr's list lacks (it writes code
 * 255, which no decoder reads, msgpackr's included).
 */
export const TYPED_ARRAYS = ['Int8', 'Uint8', 'Uint8Clamped', 'Int16', 'Uint16', 'Int32', 'Uint32', 'Float32',
  'Float64', 'BigInt64', 'BigUint64', 'Float16'].map((t) => t + 'Array');

/**
 * The ext 0x74 code of a typed array: its class's, as msgpackr finds it (by the constructor's
 * name), else the nearest built-in class it extends (a subclass of Float32Array is 7: msgpackr
 * writes 255 for every subclass, which no decoder reads). 255 only for a view whose class chain
 * has no typed array name at all.
 * @param {ArrayBufferView} o a typed array
 * @returns {number}
 */
export function typedArrayCode(o) {
  const C = o.constructor;
  let i = typeof C === 'function' ? TYPED_ARRAYS.indexOf(C.name) : -1;
  // (the classes it inherits from, by their prototypes' own constructors: also for a typed array
  // of another realm, or one with a constructor property of its own)
  for (let p = Object.getPrototypeOf(o); i < 0 && p !== null; p = Object.getPrototypeOf(p)) {
    const d = Object.getOwnPropertyDescriptor(p, 'constructor');
    if (d !== undefined && typeof d.value === 'function') i = TYPED_ARRAYS.indexOf(d.value.name);
  }
  return i < 0 ? 0xff : i;
}
