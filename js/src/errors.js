// @ts-check
/**
 * Errors thrown by the decoders. Every malformed, truncated or hostile input throws a
 * DecodeError; nothing else escapes a decode except errors thrown by user callbacks.
 */

/** @type {Record<number, string>} C error codes (csrc/wirepack.h) to their stable names. */
export const ERROR_NAMES = {
  100: 'TRUNCATED',
  101: 'RESERVED_BYTE',
  102: 'TRAILING_DATA',
  103: 'BAD_TIMESTAMP',
  200: 'DEPTH',
  201: 'LIMIT',
  300: 'TAPE_FULL',
  301: 'OUTPUT_FULL',
  302: 'BAD_TAPE',
};

/** @type {Record<string, string>} */
const MESSAGES = {
  TRUNCATED: 'Unexpected end of MessagePack data',
  RESERVED_BYTE: 'Reserved byte 0xc1 (never used) in MessagePack data',
  TRAILING_DATA: 'Data read, but end of buffer not reached',
  BAD_TIMESTAMP: 'Invalid timestamp extension',
  DEPTH: 'Nesting deeper than maxDepth',
  LIMIT: 'Input exceeds a configured limit or available memory',
};

/** A malformed, truncated or over-limit input. */
export class DecodeError extends Error {
  /**
   * @param {string} code stable error name, such as 'TRUNCATED' or 'DEPTH'
   * @param {number} offset byte offset in the input where decoding stopped
   * @param {string} [message]
   */
  constructor(code, offset, message) {
    super(`${message || MESSAGES[code] || code} (at byte ${offset})`);
    /** @type {string} */
    this.code = code;
    /** @type {number} */
    this.offset = offset;
    /** True when the input ended early: more bytes could make it valid. */
    this.incomplete = code === 'TRUNCATED';
    /** Values decoded before the error (unpackMultiple only). @type {unknown[] | undefined} */
    this.values = undefined;
  }
}
Object.defineProperty(DecodeError.prototype, 'name', { value: 'DecodeError' });
