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
