// @ts-check
/**
 * The wasm instance behind wirepack/transcode (csrc/transcode/tc_wasm.c), its arena and its
 * memory: one instance, replaced by a fresh one once calls have written past
 * RELEASE_MEMORY_BYTES and then stopped doing so for a while, as the main codec's is (runtime.js:
 * MemoryKeeper), so that a large conversion does not keep its memory resident for the life of
 * the process (wasm memory cannot shrink).
 */
import { DecodeError } from './errors.js';
import { MemoryKeeper, RELEASE_MEMORY_BYTES } from './runtime.js';

/**
 * @typedef {object} TcExports
 * @property {WebAssembly.Memory} memory
 * @property {() => number} tcw_result
 * @property {() => number} tcw_num
 * @property {(bytes: number) => number} tcw_reserve
 * @property {(len: number, from: number, to: number, flags: number, indent: number, maxDepth: number, outCap: number) => number} tcw_transcode
 * @property {(len: number, format: number, flags: number, maxDepth: number) => number} tcw_validate
 * @property {(len: number, format: number, pathWords: number, nsteps: number) => number} tcw_find
 * @property {(v: number) => number} tcw_f64
 */

/** Error names of csrc/wirepack.h (the core's and TRANSCODE's). @type {Record<number, string>} */
const NAMES = {
  100: 'TRUNCATED', 101: 'RESERVED_BYTE', 102: 'TRAILING_DATA', 103: 'BAD_TIMESTAMP', 110: 'RESERVED_AI',
  111: 'BREAK', 112: 'BAD_CHUNK', 113: 'BAD_SIMPLE', 120: 'JSON_SYNTAX', 121: 'BAD_UTF8', 200: 'DEPTH',
  201: 'LIMIT', 301: 'OUTPUT_FULL', 303: 'SCRATCH', 400: 'NON_JSON', 401: 'NOT_FOUND', 402: 'UNMAPPABLE',
  403: 'KEY_ORDER',
};
/** @type {Record<string, string>} */
const MESSAGES = {
  JSON_SYNTAX: 'Invalid JSON (RFC 8259)',
  BAD_UTF8: 'Invalid UTF-8 in a string',
  NON_JSON: 'Value that JSON cannot represent (binary, extension, tag, top-level undefined, or a non-scalar map key)',
  NOT_FOUND: 'Path not found',
  UNMAPPABLE: 'Value with no counterpart in the output format',
};
const NodeBuffer = /** @type {typeof Buffer | undefined} */ (globalThis.Buffer);
const encoder = new TextEncoder();

export class TcRuntime {
  /** @param {WebAssembly.Instance} instance */
  constructor(instance) {
    /** @type {TcExports} */
    this.x = /** @type {any} */ (instance.exports);
    /** when the memory goes once calls have written past RELEASE_MEMORY_BYTES (releaseTranscodeMemory) */
    this.keeper = new MemoryKeeper(() => {
      if (rt === this && loaded !== null) rt = new TcRuntime(new WebAssembly.Instance(loaded, {}));
      return true;
    });
    /** @type {ArrayBuffer | null} */
    this.buffer = null;
    this.u8 = new Uint8Array(0);
    this.u32 = new Uint32Array(0);
    /** @type {import('./runtime.js').NodeBuf | null} Node Buffer over memory (no Node types in the .d.ts) */
    this.nb = null;
    this.refresh();
    this.base = this.x.tcw_reserve(0);
    this.res = this.x.tcw_result() >> 2;
  }

  refresh() {
    const buf = /** @type {ArrayBuffer} */ (this.x.memory.buffer);
    if (buf !== this.buffer) {
      this.buffer = buf;
      this.u8 = new Uint8Array(buf);
      this.u32 = new Uint32Array(buf);
      this.nb = NodeBuffer ? /** @type {import('./runtime.js').NodeBuf} */ (/** @type {unknown} */ (NodeBuffer.from(buf))) : null;
    }
  }

  /** Room for `bytes` at the arena base. @param {number} bytes */
  reserve(bytes) {
    if (this.base + bytes <= this.u8.length) return;
    if (this.x.tcw_reserve(bytes) === 0) throw new DecodeError('LIMIT', 0, 'Input larger than wasm memory can hold');
    this.refresh();
  }

  /**
   * Put the input at the arena base, leaving `extra` bytes after it; returns its byte length.
   * @param {Uint8Array | string} input @param {number} extra
   */
  put(input, extra) {
    if (typeof input === 'string') {
      const max = input.length * 3;
      this.reserve(max + extra);
      return encoder.encodeInto(input, this.u8.subarray(this.base, this.base + max)).written;
    }
    if (!(input instanceof Uint8Array)) throw new TypeError('wirepack/transcode: input must be a Uint8Array or a string');
    this.reserve(input.length + extra);
    this.u8.set(input, this.base);
    return input.length;
  }

  /** @param {number} code @param {number} offset */
  error(code, offset) {
    const name = NAMES[code] || `E${code}`;
    return new DecodeError(name, offset, MESSAGES[name]);
  }
}

/** @type {TcRuntime | null} */
let rt = null;
/** The module rt is an instance of, to make a fresh one (releaseTranscodeMemory). */
/** @type {WebAssembly.Module | null} */
let loaded = null;

/** @param {WebAssembly.Module | BufferSource} source */
export function initTranscodeSync(source) {
  const module = source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source);
  rt = new TcRuntime(new WebAssembly.Instance(module, {}));
  loaded = module;
}

/** @param {WebAssembly.Module | BufferSource | Promise<WebAssembly.Module | BufferSource>} source */
export async function initTranscode(source) {
  const s = await source;
  const module = s instanceof WebAssembly.Module ? s : await WebAssembly.compile(s);
  rt = new TcRuntime(await WebAssembly.instantiate(module, {}));
  loaded = module;
}

export function isTranscodeInitialized() {
  return rt !== null;
}

/** @returns {TcRuntime} */
export function tcRuntime() {
  if (rt === null) throw new Error('wirepack/transcode is not initialised: call initTranscode() first');
  return rt;
}

/**
 * After a call, once its results are copied out: tell the keeper of an instance whose calls have
 * written past RELEASE_MEMORY_BYTES whether this one did (`written`: the end of what it wrote, as
 * far as the caller knows; the memory's size when it does not), so that the instance is replaced
 * once they stop (MemoryKeeper). A conversion reserves up to 13 bytes per input byte and writes
 * far less, so what it merely reserved does not count: a repeated call of a few MB keeps the
 * memory it grew, where a fresh instance would grow and fault in fresh pages every time.
 * @param {TcRuntime} r @param {number} written
 */
export function releaseTranscodeMemory(r, written) {
  if (r === rt && loaded !== null && r.u8.length > RELEASE_MEMORY_BYTES) r.keeper.after(written > RELEASE_MEMORY_BYTES);
}
