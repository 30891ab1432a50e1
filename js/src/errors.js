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
  104: 'BAD_RECORD',
  105: 'UNKNOWN_RECORD',
  106: 'BAD_BUNDLE',
  107: 'BAD_KEY',
  110: 'RESERVED_AI',
  111: 'BREAK',
  112: 'BAD_CHUNK',
  113: 'BAD_SIMPLE',
  114: 'RESERVED_TAG',
  200: 'DEPTH',
  201: 'LIMIT',
  300: 'TAPE_FULL',
  301: 'OUTPUT_FULL',
  302: 'BAD_TAPE',
};

/** @type {Record<string, string>} */
const MESSAGES = {
  TRUNCATED: 'Unexpected end of data',
  RESERVED_BYTE: 'Reserved byte 0xc1 (never used in MessagePack)',
  TRAILING_DATA: 'Data read, but end of buffer not reached',
  BAD_TIMESTAMP: 'Invalid timestamp extension',
  BAD_RECORD: 'Record definition (extension 0x72) not followed by an array of keys (or by a structuredClone pointer to a finished one)',
  UNKNOWN_RECORD: 'Record id is not defined',
  BAD_BUNDLE: 'Bundled strings (extension 0x62) out of place, or a reference past them',
  BAD_KEY: 'Map key that is neither a string nor a number',
  BAD_EXTENSION: 'Extension data that does not make a value',
  RESERVED_AI: 'Reserved additional information (28-30), or an indefinite length where none exists',
  BREAK: 'Break (0xff) outside an indefinite-length item',
  BAD_CHUNK: 'Chunk of the wrong type, or indefinite, inside an indefinite-length string',
  BAD_SIMPLE: 'Simple value below 32 in two-byte form',
  RESERVED_TAG: 'CBOR tag number in the reserved range 2^64 - 196608 and above',
  DEPTH: 'Nesting deeper than maxDepth',
  LIMIT: 'Input exceeds a configured limit or available memory',
  BAD_REFERENCE: 'Shared reference to nothing shareable before it',
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
    /** Where the value that failed starts: bytes before it decoded (unpackMultiple only). @type {number | undefined} */
    this.lastPosition = undefined;
  }
}
Object.defineProperty(DecodeError.prototype, 'name', { value: 'DecodeError' });
