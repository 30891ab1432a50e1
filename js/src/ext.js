// @ts-check
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
