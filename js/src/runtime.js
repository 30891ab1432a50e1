// @ts-check
/**
 * The loaded wasm instance and the views onto its memory. There is one runtime per loaded
 * module; it holds no parse state between calls, only the host's mirror of the interned key
 * and shape tables that live in C (they are caches: dropping them together with the C tables
 * is always correct).
 */

import { HOLE_INPUT_MIN, HOLE_MIN, findHoles } from './holes.js';

/**
 * @typedef {object} WasmExports
 * @property {WebAssembly.Memory} memory
 * @property {() => number} wpw_result
 * @property {() => number} wpw_layout
 * @property {() => void} wpw_tables_reset
 * @property {() => number} wpw_tables_fill
 * @property {(bytes: number) => number} wpw_reserve
 * @property {() => number} wpw_arena_size
 * @property {() => number} wpw_touched
 * @property {(len: number, flags: number, maxDepth: number, resetFill: number, holes: number) => number} wpw_decode
 * @property {(words: number, units: number, utf8: number, keyWords: number, xbinBytes: number) => number} wpw_encode
 * @property {(len: number, flags: number, maxDepth: number, resetFill: number, holes: number) => number} wpw_cbor_decode
 * @property {() => number} wpw_holes
 * @property {(maxArray: number, maxMap: number, maxStr: number, maxBin: number, maxExt: number) => void} wpw_set_limits
 * @property {(words: number, flags: number, units: number, utf8: number, keyWords: number, xbinBytes: number) => number} wpw_cbor_encode
 * @property {(words: number, flags: number, units: number, utf8: number, keyWords: number) => number} wpw_cbor_encode_tracked
 * @property {(dst: number, src: number, n: number) => number} wpw_utf8_from_utf16
 * @property {() => number} wpw_records
 * @property {() => number} wpw_ext_config
 */

const NodeBuffer = /** @type {typeof Buffer | undefined} */ (globalThis.Buffer);

/**
 * In Node, a Buffer over (arrayBuffer, byteOffset, length) made as Node makes its own: by Node's
 * FastBuffer, the Uint8Array subclass whose prototype is Buffer.prototype, which
 * Buffer[Symbol.species] gives (Node 18 to 24, Deno); in Bun, whose species is Buffer itself, by
 * Buffer. Buffer.from(arrayBuffer, ...) checks its arguments in JS first and costs twice as much,
 * and a Buffer's subarray (species lookup) and its buffer and byteOffset getters cost more still.
 * Elsewhere, a subclass of our own whose prototype inherits from Buffer.prototype: Buffer.isBuffer,
 * instanceof and every method take it for a Buffer, but node:assert's deepStrictEqual and
 * util.isDeepStrictEqual, which compare prototypes, tell it from a Buffer of the same bytes (as
 * they did in Node, where results were made so until December 2026; msgpackr's are Buffers).
 * (Typed as a Uint8Array maker: the declarations must not need Node's types.)
 * @type {(new (buffer: ArrayBufferLike, byteOffset: number, length: number) => Uint8Array) | null}
 */
export const BufferView = NodeBuffer ? bufferView(NodeBuffer) : null;

/** @param {{ prototype: object }} B Node's Buffer */
function bufferView(B) {
  const species = /** @type {any} */ (B)[Symbol.species];
  // Node's FastBuffer; in Bun, Buffer itself (whose constructor makes such views without Node's
  // deprecation warning, which Node's species spares us)
  if (typeof species === 'function' && species.prototype === B.prototype && (species !== B || isBun())) {
    try {
      if (Object.getPrototypeOf(new species(new ArrayBuffer(1), 0, 1)) === B.prototype) return species;
    } catch {
      // (not a typed array maker after all: the subclass below)
    }
  }
  class BufferView extends Uint8Array {}
  Object.setPrototypeOf(BufferView.prototype, B.prototype);
  Object.defineProperty(BufferView.prototype, 'constructor', { value: B, writable: true, configurable: true });
  return /** @type {any} */ (BufferView);
}

function isBun() {
  return typeof process === 'object' && process !== null && typeof process.versions?.bun === 'string';
}

/**
 * Whether Node's own UTF-8 decoder (Buffer#utf8Slice) makes strings of non-ASCII text faster than
 * C's transcode into the UTF-16 area followed by ucs2Slice: from Node 24 (V8 13.6, simdutf), 4 KB
 * of mixed-script text took 0.87 µs against 4.7 µs; in Node 20 and 22 12 µs against 5 (and in
 * Chromium TextDecoder 6 µs). Node only (an engine that only reports a Node version keeps the
 * transcode). The strings are the same either way: utf8Slice replaces ill-formed UTF-8 as
 * TextDecoder does, as C's transcode does (tests/utf8-host.node.test.js).
 */
export const FAST_UTF8 = NodeBuffer !== undefined && typeof process === 'object' && process !== null &&
  typeof process.versions?.node === 'string' && typeof (/** @type {any} */ (NodeBuffer.prototype)).utf8Slice === 'function' &&
  process.versions.bun === undefined && process.versions.deno === undefined &&
  Number(process.versions.node.split('.')[0]) >= 24;

/**
 * Node's Buffer with the undocumented but long-stable string methods that msgpackr also uses.
 * @typedef {Uint8Array & {
 *   latin1Slice(start: number, end: number): string,
 *   utf8Slice(start: number, end: number): string,
 *   ucs2Slice(start: number, end: number): string,
 *   utf8Write(s: string, offset: number, max: number): number,
 *   ucs2Write(s: string, offset: number, max: number): number
 * }} NodeBuf
 */

export class Runtime {
  /** @param {WebAssembly.Instance} instance */
  constructor(instance) {
    /** @type {WasmExports} */
    this.x = /** @type {any} */ (instance.exports);
    this.memory = this.x.memory;
    /** when the memory goes once calls have written past RELEASE_MEMORY_BYTES (the main instance's; releaseMemory) */
    this.keeper = new MemoryKeeper(() => dropMain(this));
    /** @type {ArrayBuffer | null} */
    this.buffer = null;
    this.u8 = new Uint8Array(0);
    this.u16 = new Uint16Array(0);
    this.i32 = new Int32Array(0);
    this.u32 = new Uint32Array(0);
    this.f64 = new Float64Array(0);
    this.f32 = new Float32Array(0);
    /** @type {NodeBuf | null} Node Buffer over memory, for latin1/ucs2 string slices */
    this.nb = null;
    /** decodes ask C for long non-ASCII strings as UTF-8 (STR8 entries) that nb.utf8Slice
     * decodes (FAST_UTF8; tests set it to run that path where it is not the default) */
    this.utf8Host = FAST_UTF8;
    const layout = this.x.wpw_layout() >> 2;
    /** byte address of the per-call arena (input or encode tape go here) */
    this.base = 0;
    /** bytes from the arena base to the end of memory, as of the last refresh */
    this.arena = 0;
    this.refresh();
    const L = this.u32;
    this.base = L[layout + 6];
    this.arena = this.u8.length - this.base;
    /** word index of the result array */
    this.res = this.x.wpw_result() >> 2;
    /** word index of the holes of the next decode's input ((offset, length) pairs: holes.js) */
    this.holes = this.x.wpw_holes() >> 2;
    /** inputs from this many bytes on are searched for holes, of at least holeMin bytes each
     * (holes.js; the tests lower them to take that way with small inputs) */
    this.holeInputMin = HOLE_INPUT_MIN;
    this.holeMin = HOLE_MIN;
    /** the walk that finds them (the tests put one that guesses wrong here) */
    this.findHoles = findHoles;
    this.keyOff = L[layout] >> 2;
    this.keyLen = L[layout + 1] >> 2;
    this.keyPool = L[layout + 2];
    this.shapeOff = L[layout + 3] >> 2;
    this.shapeLen = L[layout + 4] >> 2;
    this.shapePool = L[layout + 5] >> 2;
    /** word index and size in words of the area for the encoder's map keys (KEY tape entries) */
    this.encKeys = L[layout + 8] >> 2;
    this.encKeyWords = L[layout + 9];
    /** byte address of the C value cache's bytes (WP_VC_MAX = 32 a slot: csrc/wirepack.h) */
    this.vcBytes = L[layout + 10];
    /** the value cache as the host has seen it (decode.js TapeReader#vstr): per slot (1,024),
     * the stamp of the bytes a string was made from (0: none; C's stamps start at 1), and it */
    this.vcStamp = new Int32Array(1024);
    /** @type {string[]} */
    this.vcStr = new Array(1024).fill('');
    /** the encoder's map keys written there (encode.js), made on first use */
    /** @type {import('./encode.js').KeyCache | null} */
    this.keyCache = null;
    /** @type {string[]} interned key id -> string */
    this.keys = [];
    /** @type {import('./decode.js').Shape[]} interned shape id -> shape */
    this.shapes = [];
    /** generation of the C tables that keys/shapes mirror */
    this.generation = 0;
    /** the options object whose limits were last given to C (wpw_set_limits) */
    /** @type {object | null} */
    this.limitsOwner = null;
    /** word index of the C record table (csrc/wirepack.h WP_REC_SLOTS) */
    this.recTable = this.x.wpw_records() >> 2;
    /** record slots the host has loaded into the C table (C undoes its own definitions) */
    /** @type {number[]} */
    this.recLoaded = [];
    /** word index of the C extension config (wp_ext_config: any[8], fix1[8], raw[8]) */
    this.extConfig = this.x.wpw_ext_config() >> 2;
    /** registry version the extension config was written for */
    this.extVersion = -1;
    /** record shapes by interned shape id (decode.js) */
    /** @type {import('./decode.js').Shape[]} */
    this.recOfShape = [];
    /** CBOR record builders by interned shape id (cbor.js crecShape) */
    /** @type {any[]} */
    this.crecBuilders = [];
    /** record shapes by their keys (decode.js) */
    /** @type {Map<string, import('./decode.js').Shape> | null} */
    this.recShapes = null;
    /** the record shape last defined in each of the first slots (decode.js recordShape) */
    /** @type {(import('./decode.js').Shape | null)[] | null} */
    this.recLast = null;
    /** 1 while a call uses the arena (a decode reads its tape until the value is built) */
    this.busy = 0;
    /** the tape reader of this runtime's calls (decode.js), made on first use */
    /** @type {import('./decode.js').TapeReader | null} */
    this.reader = null;
    /** decode calls so far (shapes count their uses per call), and shapes with a generated
     * constructor since the tables last started again (decode.js) */
    this.calls = 0;
    this.compiled = 0;
    /** shapes whose generated constructor reads common scalars itself (decode.js FAST_MAX) */
    this.fast = 0;
  }

  /**
   * Make the arena at least `bytes` long (growing memory), refreshing the views.
   * @param {number} bytes
   * @returns {boolean} false when memory cannot grow that far
   */
  reserve(bytes) {
    if (bytes <= this.arena) return true;
    const ok = this.x.wpw_reserve(bytes) !== 0;
    this.refresh();
    return ok;
  }

  /**
   * Re-derive the views when memory has grown. Growth detaches the old buffer, whose length
   * then reads 0: checking that is much cheaper than the memory.buffer getter.
   */
  refresh() {
    if (this.buffer !== null && this.buffer.byteLength !== 0) return;
    const buf = /** @type {ArrayBuffer} */ (this.memory.buffer);
    if (buf !== this.buffer) {
      this.buffer = buf;
      this.u8 = new Uint8Array(buf);
      this.u16 = new Uint16Array(buf);
      this.i32 = new Int32Array(buf);
      this.u32 = new Uint32Array(buf);
      this.f64 = new Float64Array(buf);
      this.f32 = new Float32Array(buf);
      this.nb = NodeBuffer ? /** @type {NodeBuf} */ (/** @type {unknown} */ (NodeBuffer.from(buf))) : null;
      this.arena = buf.byteLength - this.base;
    }
  }
}

/** @type {Runtime | null} */
let current = null;
/** What the current runtime was made from, to make a fresh one (releaseMemory). */
/** @type {{module: WebAssembly.Module, imports: WebAssembly.Imports} | null} */
let loaded = null;

/**
 * Wasm memory grows for a large message and can never shrink, and a page once written stays
 * resident. Once calls have written past this address (wpw_touched), the instance is replaced by
 * a fresh one (its memory is then garbage), so memory comes back to a small working set; the key
 * and shape caches start again. Not at once (MemoryKeeper): a fresh instance grows and faults in
 * its memory again on the next large call (repeated 30 MB decodes took 12x the time, 1e6 objects
 * encoded 5x). What calls merely reserve does not count: a decode reserves about 13 bytes per
 * input byte (CBOR 17), writes 2-3 and, its tape last, writes below about 4 bytes per input byte
 * plus its tape, so a decode of up to 11-16 MB never leaves memory to release.
 */
export const RELEASE_MEMORY_BYTES = 64 * 1024 * 1024;
/** How long a memory written past RELEASE_MEMORY_BYTES is kept after the last call that wrote past it. */
export const RELEASE_DELAY_MS = 1000;
/** How many calls in a row writing below RELEASE_MEMORY_BYTES release it at once (a synchronous loop gives no timer a turn). */
export const RELEASE_AFTER_CALLS = 256;

/**
 * When an instance whose calls have written past RELEASE_MEMORY_BYTES is replaced: once no call
 * has written past it for RELEASE_DELAY_MS (a timer, which in Node does not keep the process
 * alive), or after RELEASE_AFTER_CALLS calls in a row that did not, whichever comes first; at
 * once where there are no timers. Calls that keep writing that much keep their memory, as
 * msgpackr and cbor-x keep their buffers; a large message now and then is followed by a release.
 */
export class MemoryKeeper {
  /** @param {() => boolean} drop replaces the instance; false when it cannot now (a call holds it) */
  constructor(drop) {
    this.drop = drop;
    /** whether a call has written past the limit (the instance's memory is then large) */
    this.wroteBig = false;
    /** calls in a row that wrote below the limit since */
    this.quiet = 0;
    /** whether a call wrote past the limit since the timer was set */
    this.again = false;
    /** @type {any} */
    this.timer = null;
  }

  /**
   * After a call on an instance whose memory is past the limit (what calls reserved or wrote).
   * @param {boolean} big whether this call wrote past it
   */
  after(big) {
    if (!big) {
      if (this.wroteBig && ++this.quiet >= RELEASE_AFTER_CALLS) this.release();
      return;
    }
    this.wroteBig = true;
    this.quiet = 0;
    if (this.timer !== null) this.again = true;
    else if (typeof setTimeout === 'function') this.arm();
    else this.release();
  }

  /** @private */
  arm() {
    const t = setTimeout(() => this.tick(), RELEASE_DELAY_MS);
    // (the timer keeps no process alive: Node's and Bun's unref, Deno's unrefTimer)
    if (typeof t === 'object' && t !== null && typeof t.unref === 'function') t.unref();
    else if (typeof t === 'number' && typeof (/** @type {any} */ (globalThis).Deno?.unrefTimer) === 'function') /** @type {any} */ (globalThis).Deno.unrefTimer(t);
    this.timer = t;
  }

  /** @private */
  tick() {
    this.timer = null;
    if (this.again) {
      this.again = false;
      this.arm();
    } else this.release();
  }

  /** Replace the instance now (and forget the timer), or at the next chance when a call holds it. */
  release() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.quiet = 0;
    this.again = false;
    if (!this.drop() && typeof setTimeout === 'function') this.arm();
  }
}

/**
 * Whether the calls on rt since the last look have written past RELEASE_MEMORY_BYTES (the
 * memory's size first: it bounds what was written, and reading it needs no call into wasm).
 * @param {Runtime} rt
 */
const wroteTooMuch = (rt) => rt.u8.length > RELEASE_MEMORY_BYTES && rt.x.wpw_touched() > RELEASE_MEMORY_BYTES;

/** After a call on the main instance: once its memory is large, tell its keeper whether the call wrote past RELEASE_MEMORY_BYTES. */
export function releaseMemory() {
  const rt = current;
  if (rt === null || loaded === null || rt.busy !== 0 || rt.u8.length <= RELEASE_MEMORY_BYTES) return;
  rt.keeper.after(rt.x.wpw_touched() > RELEASE_MEMORY_BYTES);
}

/**
 * The keeper's way to replace rt: only while it is the main instance of a loaded module, and not
 * while a call holds it.
 * @param {Runtime} rt @returns {boolean}
 */
function dropMain(rt) {
  if (current !== rt || loaded === null) return true;
  if (rt.busy !== 0) return false;
  replaceRuntime(loaded);
  return true;
}

/**
 * Replace the main instance by a fresh one of the module it came from (releaseMemory).
 * @param {{module: WebAssembly.Module, imports: WebAssembly.Imports}} from
 */
function replaceRuntime(from) {
  current = new Runtime(new WebAssembly.Instance(from.module, from.imports));
}

/**
 * Instances for calls made while the main one is busy: user code run during a decode (an
 * extension's unpack or read, a tag handler) may call unpack or pack again, and the arena still
 * holds the outer call's tape. One spare per nesting level, made on first use.
 * @type {Runtime[]}
 */
const spares = [];

/**
 * The runtime for one call that uses the arena: the main one, or a spare while it is busy.
 * Pair with release().
 * @returns {Runtime}
 */
export function acquire() {
  const rt = runtime();
  if (rt.busy === 0) {
    rt.busy = 1;
    return rt;
  }
  return acquireSpare();
}

/**
 * A spare runtime for a call made while the main one is busy (acquire's slow path, a function of
 * its own so that acquire stays small enough for the engine to inline into every call).
 * @returns {Runtime}
 */
function acquireSpare() {
  for (const s of spares) {
    if (s.busy === 0) {
      s.busy = 1;
      return s;
    }
  }
  if (loaded === null) throw new Error('wirepack: a nested call (unpack or pack inside an extension) needs the codec loaded from a module, not an instance');
  const s = new Runtime(new WebAssembly.Instance(loaded.module, loaded.imports));
  spares.push(s);
  s.busy = 1;
  return s;
}

/**
 * End a call begun with acquire(); a spare that has written past RELEASE_MEMORY_BYTES is dropped.
 * @param {Runtime} rt
 */
export function release(rt) {
  rt.busy = 0;
  if (rt !== current && wroteTooMuch(rt)) {
    const i = spares.indexOf(rt); // (not there when init replaced the module during the call)
    if (i >= 0) spares.splice(i, 1);
  }
}

/** Forget which options' limits every instance holds (a Decoder changed its limits). */
export function forgetLimits() {
  if (current !== null) current.limitsOwner = null;
  for (const s of spares) s.limitsOwner = null;
}

/** @returns {Runtime} */
export function runtime() {
  if (current === null) throw new Error('wirepack is not initialised: call init() (or initSync()) first');
  return current;
}

/**
 * @param {WebAssembly.Module | BufferSource} source
 * @returns {WebAssembly.Module}
 */
function toModule(source) {
  return source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source);
}

/**
 * The runtime of an instance given to init or initSync: the one made the first time it came. A
 * runtime mirrors the key, shape and record tables of its instance's memory from their start, so
 * the same instance given again must not get a second runtime with empty mirrors.
 * @type {WeakMap<WebAssembly.Instance, Runtime>}
 */
const given = new WeakMap();

/** @param {WebAssembly.Instance} instance @returns {Runtime} */
function runtimeOf(instance) {
  let rt = given.get(instance);
  if (rt === undefined) given.set(instance, (rt = new Runtime(instance)));
  return rt;
}

/** @typedef {WebAssembly.Module | BufferSource | WebAssembly.Instance} InitSource */

/**
 * Load the codec synchronously (Node, workers, or small modules). Replaces any earlier module.
 * @param {InitSource} source the compiled module, its bytes, or an instance
 * @param {WebAssembly.Imports} [imports] only for foreign builds that need imports
 */
export function initSync(source, imports = {}) {
  spares.length = 0;
  if (source instanceof WebAssembly.Instance) {
    loaded = null;
    current = runtimeOf(source);
    return;
  }
  const module = toModule(source);
  loaded = { module, imports };
  current = new Runtime(new WebAssembly.Instance(module, imports));
}

/**
 * Load the codec asynchronously (browsers, workerd: pass the module that the platform gives).
 * @param {InitSource | Promise<InitSource>} source
 * @param {WebAssembly.Imports} [imports]
 * @returns {Promise<void>}
 */
export async function init(source, imports = {}) {
  const s = await source;
  spares.length = 0;
  if (s instanceof WebAssembly.Instance) {
    loaded = null;
    current = runtimeOf(s);
  } else if (s instanceof WebAssembly.Module) {
    loaded = { module: s, imports };
    current = new Runtime(await WebAssembly.instantiate(s, imports));
  } else {
    const made = await WebAssembly.instantiate(s, imports);
    loaded = { module: made.module, imports };
    current = new Runtime(made.instance);
  }
}

/** @returns {boolean} whether a module is loaded */
export function isInitialized() {
  return current !== null;
}
