// @ts-check
/**
 * Encoding: JS walks the value into a compact tape (csrc/wirepack.h, encode tags) in a buffer of
 * its own, copies it into wasm memory in one call, and C writes the MessagePack bytes, choosing
 * the smallest form of every header and integer. The result is copied out once.
 *
 * msgpackr's MessagePack extensions are written the same way (MessagePack only; the CBOR
 * Encoder, a subclass, never turns them on): records (a plain object becomes a record id, one
 * or two bytes, after a definition `d4 72 id [keys]` the first time), bundled strings (ext 0x62),
 * structured clone (0x69 ids before objects met again, 0x70 pointers) and the moreTypes
 * extensions (Error 0x65, Set 0x73, RegExp 0x78, typed arrays 0x74, large BigInts 0x42).
 */
import { ExtData, packExtensions, typedArrayCode } from './ext.js';
import { BufferView, RELEASE_MEMORY_BYTES, acquire, release, releaseMemory } from './runtime.js';
import { DEFAULT_MAX_DEPTH, Unpackr, put64 } from './decode.js';

const NodeBuffer = /** @type {typeof Buffer | undefined} */ (globalThis.Buffer);
const textEncoder = new TextEncoder();
/** The byte array class msgpackr packs as plain bin even with moreTypes (Buffer in Node). */
const ByteArray = NodeBuffer || Uint8Array;
/** SharedArrayBuffer, written as an ArrayBuffer's bytes (null where a page is not cross-origin isolated) */
export const SharedBuffer = typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer : null;
const TypedArray = Object.getPrototypeOf(Uint8Array.prototype).constructor;
const dateToJSON = Date.prototype.toJSON;
const NON_LATIN = /[\u0080-\uFFFF]/;
/** A bundle holds at most this many characters (its encoded bytes fit an ext16). */
const MAX_BUNDLE_SIZE = 0x5500;

/** msgpackr's marker class for the never-used byte 0xc1: an instance packs as that byte. */
export class C1Type {}

/** msgpackr's float32 choices. */
export const FLOAT32_OPTIONS = Object.freeze({ NEVER: 0, ALWAYS: 1, DECIMAL_ROUND: 3, DECIMAL_FIT: 4 });

// Encode tags (csrc/wirepack.h)
export const E_NIL = 0, E_FALSE = 1, E_TRUE = 2, E_UNDEF = 3, E_INT = 4, E_UINT = 5, E_F64 = 6, E_F32 = 7;
export const E_I64 = 8, E_U64 = 9, E_STR = 10, E_BIN = 11, E_ARR = 12, E_MAP = 13, E_EXT = 14, E_DATE = 15, E_BADDATE = 16;
export const E_RAW = 17;
const E_PAD = 21;
const E_UINT8 = 22, E_REC = 23, E_RECDEF = 24, E_PREFIX = 25, E_EXT4 = 26, E_BYTE = 27, E_BUNDLE = 28, E_NUMS = 29;
const E_STR16 = 30, E_STRU8 = 31, E_KEY = 32, E_XBIN = 33;
/** Packr#write's depth for a string written as it is (writeString: never bundled, never a blob)
 * or a number by Packr's own rules (Packr#writeNumber), rather than a value of the walk. */
const AS_ITSELF = -1;
/** The CBOR encoder's flags (WP_CBOR_*, csrc/wirepack.h), which cbor.js sets. */
export const CBOR_DETERMINISTIC = 1, CBOR_FLOAT64 = 2, CBOR_INDEFINITE = 4, CBOR_F64_ENTRIES = 8;
/** The flags wpw_cbor_encode_tracked takes (wpw_cbor_encode the others). */
const CBOR_TRACKED = CBOR_DETERMINISTIC | CBOR_INDEFINITE;
/** In arrays of at least this many elements, the leading numbers go as one run of f64 (E_NUMS)
 * when no option changes how a number is written (MessagePack, no float32, no records): the
 * walk then does one typeof test and one store per number, and C classifies them. */
const NUM_RUN = 2;
export const ESC = 0xffffff;

/** msgpackr's table: binary exponent -> decimal multiplier (for DECIMAL_FIT). */
const mult10 = new Array(256);
for (let i = 0; i < 256; i++) mult10[i] = +('1e' + Math.floor(45.15 - i * 0.30103));

/**
 * What encoding returns: a Buffer in Node, a Uint8Array elsewhere (as msgpackr's and cbor-x's
 * types say Buffer). Typed as Node's Buffer where the types of Node are loaded (@types/node
 * declares globalThis.Buffer; its allocUnsafe gives the Buffer type), else as Uint8Array.
 * @typedef {typeof globalThis extends { Buffer: { allocUnsafe(size: number): infer B } } ? B : Uint8Array} EncodedBytes
 */

/**
 * @typedef {object} PackOptions
 * @property {number} [useFloat32] FLOAT32_OPTIONS: ALWAYS and DECIMAL_ROUND write non-integer
 *   numbers in the float32 range as float32; DECIMAL_FIT only when no decimal digit is lost
 * @property {number} [maxDepth] maximum nesting (default 1000); deeper (or cyclic) values throw
 * @property {boolean | ((value: object) => boolean)} [useRecords] records for plain objects
 *   (default true for a Packr; false: maps; a function: records for the objects it accepts)
 * @property {string[][]} [structures] shared record structures (ids 0x40 on)
 * @property {() => any} [getStructures] loads the shared structures before packing
 * @property {(structures: any, isCompatible: (existing: any) => boolean) => boolean | void} [saveStructures]
 *   saves the shared structures after a pack added some; returning false re-packs with
 *   structures loaded again through getStructures
 * @property {number} [maxSharedStructures] (default 32 with shared structures, else 0; up to 8160)
 * @property {number} [maxOwnStructures] record ids defined inside one message (default 64, or 32
 *   with shared structures)
 * @property {(keys: string[]) => boolean} [shouldShareStructure] whether a new structure is shared
 * @property {boolean} [sequential] record definitions persist across pack calls (a stream)
 * @property {boolean} [bundleStrings] strings of 4..4095 characters go into bundles (ext 0x62)
 * @property {boolean} [moreTypes] Error, Set, RegExp, typed arrays and large BigInts as msgpackr's
 *   extensions (else arrays and bin)
 * @property {boolean} [structuredClone] keep shared identity and cycles (0x69/0x70); implies moreTypes
 * @property {boolean} [useBigIntExtension] BigInts beyond 64 bits as ext 0x42
 * @property {boolean} [largeBigIntToFloat] BigInts beyond 64 bits as float64
 * @property {boolean} [largeBigIntToString] BigInts beyond 64 bits as strings
 * @property {boolean} [useToJSON] call toJSON of class instances (default true)
 * @property {unknown[]} [skipValues] object entries with these values are left out (maps only)
 * @property {boolean} [encodeUndefinedAsNil] undefined as nil
 * @property {boolean} [useTimestamp32] Dates in 0..2^32 s as 32-bit timestamps (milliseconds dropped)
 * @property {boolean} [variableMapSize] accepted: map headers always have the smallest form
 * @property {boolean} [mapAsEmptyObject] Maps as empty maps
 * @property {boolean} [setAsEmptyObject] Sets as empty maps
 * @property {boolean} [coercibleKeyAsNumber] object keys that are numbers as numbers (maps only)
 * @property {() => unknown} [onInvalidDate] the value packed instead of an invalid Date
 * @property {(fn: Function) => unknown} [writeFunction] the value packed instead of a function
 */

const INITIAL_WORDS = 1 << 14;
/**
 * In Node, once a call has written BLOB_AFTER characters of string values, its further string
 * values of BLOB_MIN to SHORT_STRING - 1 characters are not encoded in JS: they are concatenated
 * (a rope: no copy), their entries (E_STR16) hold their lengths, and emit writes the units of the
 * concatenation after the tape with one Buffer#ucs2Write, which C narrows (ASCII) or transcodes.
 * The JS loop costs a few ns per character, the native call ~100 ns: worth it for a call with
 * more than a few dozen characters of strings (sample-large 1.3-1.4x, example-twitter 1.05-1.15x,
 * example4 1.03-1.07x in one process; small messages never reach it). (Measured again once the
 * loop's charCodeAt stopped being a generic call in dist/, ~1.2 ns a character: without the rope,
 * fresh processes alternated, sample-large 0.76x, example-twitter 0.68x, example4 0.84x; SHORT_STRING
 * 256 instead of 64 within noise, 0.95-1.11x.) Shorter strings cost less
 * inline than as a rope node; longer ones go to utf8Write already, which V8 transcodes faster
 * than C does non-ASCII text.
 */
export const BLOB_AFTER = 128, BLOB_MIN = 16;
/**
 * Without Buffer (browsers), string values of BLOB_MIN to BLOB_MAX_WEB - 1 characters past
 * BLOB_AFTER_WEB characters of a call are concatenated likewise, and emit writes their UTF-8 with
 * one TextEncoder#encodeInto (costlier to call than Node's ucs2Write), which C splits by the
 * strings' lengths in units (E_STRU8). In Chromium, the same build with this on and off in
 * alternating rounds: example4 1.12x, example-twitter 1.08-1.12x, sample-large 1.05-1.09x;
 * without the upper bound sample-large lost 5-12% (its strings of 256+ characters were faster
 * through an encodeInto of their own), and below 512 characters strings.json lost ~5%.
 */
const BLOB_AFTER_WEB = 512, BLOB_MAX_WEB = 256;
/**
 * Strings shorter than this are encoded to UTF-8 in JS (3n bytes fit in n words after the header).
 * In Node, longer ones go to Buffer#utf8Write. Without Buffer they would go to TextEncoder's
 * encodeInto, which in Chromium costs a subarray of wasm memory (~190 ns) and a call that writes
 * into wasm memory at half its speed into a plain ArrayBuffer: 0.7 µs for 64 characters, where
 * the loop takes 0.2; the loop is as fast up to ~1,000 characters of ASCII or CJK (with the 64 KB
 * slabs below: strings.json in Chromium 2.0x, example4 1.2x).
 */
export const SHORT_STRING = NodeBuffer ? 64 : 1024;

/** A node of the record transition trie: the keys so far; a record id once one is assigned. */
class Transition {
  constructor() {
    /** the key of the first transition made from here (most nodes have only one) */
    /** @type {string | null} */
    this.key = null;
    /** @type {Transition | null} */
    this.child = null;
    /** the other transitions, by key */
    /** @type {Map<string, Transition> | null} */
    this.more = null;
    /** record id (0x40...), 0 when none */
    this.id = 0;
    /** the tape word of a reference to this record (E_REC), 0 when none */
    this.word = 0;
    /** @type {any[] | null} the keys array of the structure */
    this.keys = null;
  }
}

/**
 * Structures as msgpackr keeps them: an array of key arrays (index = id - 0x40) with extra
 * fields. The decoder shares the same array.
 * @typedef {any[] & {sharedLength?: number, transitions?: Transition | null, nextId?: number,
 *   nextOwnId?: number, uninitialized?: boolean, isCompatible?: (existing: any) => boolean}} Structures
 */

/** Bundled strings of one pack call. */
class Bundle {
  constructor() {
    /** non-Latin strings */
    this.s0 = '';
    /** ASCII strings */
    this.s1 = '';
    /** characters so far (Infinity: the first string opens a bundle) */
    this.size = Infinity;
    /** a reference is open */
    this.open = false;
  }
}

/**
 * The tape a Packr writes into: the arena of the wasm instance the call acquired, from its base
 * (so C reads it in place; positions are word indexes into that memory). Attached per call;
 * user code run during the walk (toJSON, getters, extensions) that packs or unpacks again gets
 * a spare instance, since this one is busy.
 */
/** A tape's views between calls (of no memory). */
const NO_U32 = new Uint32Array(0), NO_F64 = new Float64Array(0), NO_F32 = new Float32Array(0), NO_U8 = new Uint8Array(0);

export class Tape {
  constructor() {
    /** @type {import('./runtime.js').Runtime | null} */
    this.rt = null;
    this.u32 = NO_U32;
    this.f64 = NO_F64;
    this.f32 = NO_F32;
    this.u8 = NO_U8;
    /** @type {import('./runtime.js').NodeBuf | null} */
    this.nb = null;
    /** word index of the tape's first word (the arena base) */
    this.base = 0;
    /** word index where the memory ends */
    this.cap = 0;
    this.p = 0;
    this.busy = false;
    /** the string values of the call that go as E_STR16 (Node) or E_STRU8 entries, concatenated */
    this.sb = '';
    /** their length in UTF-16 units */
    this.sbLen = 0;
    /** characters of string values written in the call so far */
    this.chars = 0;
    /** the runtime's map keys (KEY entries), and the words of their entries the tape refers to */
    /** @type {KeyCache} */
    this.kc = /** @type {any} */ (null);
    this.kw = 0;
    /** the key node of the map entry whose value is being written (writePlainMap): the maps in
     * that value start from its `sub` trie; null at the top */
    /** @type {KeyNode | null} */
    this.kctx = null;
    /** binary values of XBIN_MIN bytes or more may go as XBIN entries in this call (not with
     * the tracked CBOR encoder, which moves bytes) */
    this.xok = false;
    /** the XBIN entries' values, the tape word C writes each one's output offset into, and the
     * bytes they take in all */
    /** @type {Uint8Array[]} */
    this.xbins = [];
    /** @type {number[]} */
    this.xslots = [];
    this.xlen = 0;
    /** CBOR structuredClone: objects written so far (first tape position, reference slots) */
    /** @type {Map<object, {pos: number, uses: number[]}> | null} */
    this.refs = null;
    // MessagePack features of the current call (all off for CBOR)
    /** records: the structures in use, null when records are off */
    /** @type {Structures | null} */
    this.structs = null;
    /** integers 0x40..0x7f take the uint8 form (records are on, or may be) */
    this.recInts = false;
    /** structuredClone: object -> tape position of the two words reserved before it, id */
    /** @type {Map<object, {pos: number, id: number}> | null} */
    this.ids = null;
    this.nextId = 0;
    /** @type {Bundle | null} */
    this.bundle = null;
    /** maps need the options path (skipValues, coercibleKeyAsNumber, bundled keys) */
    this.mapOpts = false;
    /** Object.prototype has no enumerable properties this call: for-in over a plain object
     * gives exactly its own enumerable keys, in Object.keys order */
    this.forIn = false;
    /** CBOR: plain objects go through writePlainMap in this call (set by the Encoder per call) */
    this.plainMaps = false;
  }

  /**
   * Start a call's tape in the arena of rt (acquired by the caller).
   * @param {import('./runtime.js').Runtime} rt
   */
  attach(rt) {
    this.rt = rt;
    this.base = rt.base >> 2;
    this.p = this.base;
    this.sb = '';
    this.sbLen = 0;
    this.chars = 0;
    this.kc = rt.keyCache || (rt.keyCache = new KeyCache(rt));
    this.kc.begin();
    this.kw = 0;
    this.kctx = null;
    this.views();
  }

  /**
   * End a call: let go of the instance and its memory views. A Packr keeps its tape between
   * calls, and a view keeps its whole memory alive: after a call that grew memory past
   * RELEASE_MEMORY_BYTES (runtime.js), the replaced instance's memory would stay resident until
   * this Packr's next call (encoding a 100 MB value kept 200 MB).
   */
  detach() {
    const rt = this.rt;
    // a tape C never read (the walk threw) was written all the same: count it (releaseMemory)
    if (rt !== null && this.p * 4 > RELEASE_MEMORY_BYTES) rt.x.wpw_reserve((this.p - this.base) * 4);
    this.rt = null;
    this.u32 = NO_U32;
    this.f64 = NO_F64;
    this.f32 = NO_F32;
    this.u8 = NO_U8;
    this.nb = null;
    this.cap = 0;
    this.kc = /** @type {any} */ (null);
    this.xok = false;
    if (this.xlen !== 0) {
      // (the caller's values)
      this.xbins = [];
      this.xslots = [];
      this.xlen = 0;
    }
  }

  /** Take the instance's memory views (again, after memory grew). */
  views() {
    const rt = /** @type {import('./runtime.js').Runtime} */ (this.rt);
    this.u32 = rt.u32;
    this.f64 = rt.f64;
    this.f32 = rt.f32;
    this.u8 = rt.u8;
    this.nb = rt.nb;
    this.cap = rt.u32.length;
  }

  /** Grow wasm memory (doubling the tape) so that `words` more words fit. @param {number} words */
  grow(words) {
    const rt = /** @type {import('./runtime.js').Runtime} */ (this.rt);
    const used = this.p - this.base;
    let want = Math.max(used * 2, INITIAL_WORDS);
    while (want < used + words) want *= 2;
    // the encoder's output follows the tape: C needs room for it too (checked at the call)
    if (want > 0x3fffffff || !rt.reserve(want * 4)) {
      if (used + words > 0x3fffffff || !rt.reserve((used + words) * 4)) throw new RangeError('wirepack: value too large to encode');
    }
    this.views();
  }

  /** Words written. */
  words() {
    return this.p - this.base;
  }
}

/**
 * The record transitions given per-message ids, oldest first, as a ring over an array that stays
 * from call to call. Emptying a plain array after every message (a new `[]`, whose first push
 * allocates its backing store, or `length = 0`, a runtime call) cost 40-70 ns: a tenth of the
 * encode of a small message with records, which clears it each time.
 * @template T
 */
export class IdQueue {
  /** @param {number} cap entries it may hold (the caller shifts before a push when it is full) */
  constructor(cap) {
    this.cap = Math.max(cap, 1);
    /** @type {T[]} */
    this.a = [];
    /** index of the oldest entry, and the number of entries */
    this.h = 0;
    this.n = 0;
  }

  /** @param {T} t */
  push(t) {
    this.a[(this.h + this.n) % this.cap] = t;
    this.n++;
  }

  /** The oldest entry, removed (the queue is not empty). @returns {T} */
  shift() {
    const t = this.a[this.h];
    this.h = (this.h + 1) % this.cap;
    this.n--;
    return t;
  }

  /** The i-th entry from the oldest (i < n). @param {number} i @returns {T} */
  at(i) {
    return this.a[(this.h + i) % this.cap];
  }

  /** The entries, oldest first. @returns {T[]} */
  toArray() {
    const out = new Array(this.n);
    for (let i = 0; i < this.n; i++) out[i] = this.at(i);
    return out;
  }

  /**
   * Make the entries these, oldest first (at most cap of them), or none; `drop` also lets go of
   * the array, and with it what earlier entries referred to.
   * @param {T[]} [items] @param {boolean} [drop]
   */
  reset(items, drop) {
    if (drop) this.a = [];
    this.h = 0;
    this.n = 0;
    if (items !== undefined) for (const t of items) this.push(t);
  }
}

/**
 * Record settings of a Packr (msgpackr's), and the bookkeeping that lives across calls.
 */
class RecordState {
  /**
   * @param {number} maxShared @param {number} maxOwn @param {boolean} sequential
   */
  constructor(maxShared, maxOwn, sequential) {
    this.maxShared = maxShared;
    this.maxOwn = maxOwn;
    this.sequential = sequential;
    this.twoByte = maxShared > 32 || maxOwn + maxShared > 64;
    this.sharedLimitId = maxShared + 0x40;
    this.maxStructureId = maxShared + maxOwn + 0x40;
    /** @type {IdQueue<Transition>} transitions with own (per-message) ids, oldest first */
    this.toRemove = new IdQueue(maxOwn);
    this.transitionsCount = 0;
    this.sinceRebuild = 0;
    this.hasSharedUpdate = false;
    /** pack calls in progress (a pack inside another one is "nested") */
    this.depth = 0;
    /** @type {any[][] | null} structures made by nested packs, to share after the outer one */
    this.pending = null;
    /** a nested pack (packNested) is being written */
    this.nested = false;
  }
}

/**
 * The tape word of a reference to record `id`.
 * @param {number} id @param {number} high the second byte, or -1
 */
function recWord(id, high) {
  return high >= 0 ? E_REC | (((id & 0x1f) + 0x60) << 8) | (high << 16) | (1 << 24) : E_REC | (id << 8);
}

/** A MessagePack encoder with options (msgpackr's Packr); also decodes (it extends Unpackr). */
export class Packr extends Unpackr {
  /** @param {Readonly<PackOptions>} [options] also the Unpackr's options (a Packr decodes too) */
  constructor(options) {
    super(/** @type {any} */ (options));
    const o = /** @type {Record<string, any>} */ (options || {});
    /** @type {number} */
    this.useFloat32 = o.useFloat32 || 0;
    /** @type {number} */
    this.maxDepth = o.maxDepth === undefined ? DEFAULT_MAX_DEPTH : o.maxDepth;
    /** @type {Tape | null} */
    this.tape = null;
    /** -1 for MessagePack; WP_CBOR_* flags for CBOR (set by the CBOR Encoder) */
    this.cborFlags = -1;
    /** CBOR: whether arrays may carry number runs (the CBOR Encoder decides) */
    this.cborNumRuns = false;
    /** @type {boolean | ((value: object) => boolean) | undefined} */
    this.useRecords = o.useRecords;
    this.moreTypes = !!(o.moreTypes || (o.structuredClone && o.moreTypes == undefined));
    this.structuredClone = !!o.structuredClone;
    this.bundleStrings = !!o.bundleStrings;
    this.useBigIntExtension = !!o.useBigIntExtension;
    this.largeBigIntToFloat = !!o.largeBigIntToFloat;
    this.largeBigIntToString = !!o.largeBigIntToString;
    this.useToJSON = o.useToJSON !== false;
    /** @type {unknown[] | null} */
    this.skipValues = o.skipValues || null;
    this.encodeUndefinedAsNil = !!o.encodeUndefinedAsNil;
    this.useTimestamp32 = !!o.useTimestamp32;
    this.variableMapSize = !!o.variableMapSize;
    this.mapAsEmptyObject = !!o.mapAsEmptyObject;
    this.setAsEmptyObject = !!o.setAsEmptyObject;
    this.coercibleKeyAsNumber = !!o.coercibleKeyAsNumber;
    /** @type {(() => unknown) | undefined} */
    this.onInvalidDate = o.onInvalidDate;
    /** @type {((fn: Function) => unknown) | undefined} */
    this.writeFunction = o.writeFunction;
    /** @type {((keys: string[]) => boolean) | undefined} */
    this.shouldShareStructure = o.shouldShareStructure;
    /** @type {PackOptions['saveStructures']} */
    this.saveStructures = o.saveStructures;
    /** @type {(() => any) | undefined} */
    this.getStructures = o.getStructures;
    /** shared structures saved so far (msgpackr's lastNamedStructuresLength) */
    this.lastNamedStructuresLength = 0;
    /** @type {Uint8Array | null} a buffer given to useBuffer, written into while it has room */
    this.userBuffer = null;
    this.userOffset = 0;
    /** where the last result written into the useBuffer buffer ends (msgpackr's offset) */
    this.offset = 0;
    /** results are Uint8Arrays, also where Buffer exists (wirepack/msgpack's, as its library's) */
    this.plainResult = false;
    /** @type {RecordState | null} */
    this.records = null;
    this.initRecords(o);
    /** numbers go through writeNumber, which a subclass overrides (Packr's own rules are
     * write's number case) */
    this.ownNumbers = this.writeNumber !== Packr.prototype.writeNumber;
    /** no MessagePack option needs per-call setup */
    this.simple = this.records === null && !this.structuredClone && !this.bundleStrings &&
      this.skipValues === null && !this.coercibleKeyAsNumber && this.useRecords === false;
  }

  /**
   * msgpackr's record settings (the CBOR Encoder may override this with its own).
   * @param {Record<string, any>} o the options
   */
  initRecords(o) {
    // msgpackr's Unpackr gives sequential packers (unless useRecords: false or trusted: false)
    // an empty structures array and, unless given, maxSharedStructures 0; getStructures also
    // means structures (loaded before the first pack). The Unpackr sets this.structures.
    const seq = !!(o.sequential && o.trusted !== false && !o.structures && o.useRecords != false);
    const hasShared = !!(o.structures || o.getStructures || seq || o.saveStructures);
    let maxShared = o.maxSharedStructures;
    if (seq && !maxShared) maxShared = 0;
    if (maxShared == null) maxShared = hasShared ? 32 : 0;
    if (maxShared > 8160) throw new Error('Maximum maxSharedStructure is 8160');
    let maxOwn = o.maxOwnStructures;
    if (maxOwn == null) maxOwn = hasShared ? 32 : 64;
    const self = /** @type {any} */ (this);
    if (!self.structures && o.useRecords != false) self.structures = [];
    if (maxShared + maxOwn + 0x40 > 8256) throw new Error('Maximum maxSharedStructure + maxOwnStructure is 8192');
    if (self.structures && o.useRecords !== false) this.records = new RecordState(maxShared, maxOwn, !!o.sequential);
  }

  /** @param {Tape} T @param {bigint} v */
  writeBigInt(T, v) {
    if (v >= I64_MIN && v <= U64_MAX) { writeBigInt(T, v); return; }
    if (this.largeBigIntToFloat) { writeF64(T, Number(v)); return; }
    if (this.largeBigIntToString) { this.write(T, v.toString(), 0); return; }
    if (this.useBigIntExtension || this.moreTypes) { writeBytes(T, E_EXT, 0x42, bigIntBytes(v)); return; }
    throw new RangeError(v + ' was too large to fit in MessagePack 64-bit integer format, use' +
      ' useBigIntExtension, or set largeBigIntToFloat to convert to float-64, or set' +
      ' largeBigIntToString to convert to string');
  }

  /**
   * Anything a format writes before the top-level value (nothing for MessagePack).
   * @param {Tape} _T
   */
  writePrefix(_T) {}

  /**
   * Anything a format patches into the tape after the walk (nothing for MessagePack).
   * @param {Tape} _T
   */
  finishTape(_T) {}

  /**
   * Encode a value as MessagePack. Returns a Buffer in Node, a Uint8Array elsewhere; it never
   * shares memory with wasm or with other results (only with a buffer given to useBuffer).
   * @param {unknown} value
   * @param {number} [encodeOptions] msgpackr's mode flags: RESERVE_START_SPACE (2048) plus n
   *   (0..255) starts the result with n zero bytes for the caller to fill; others are ignored
   * @returns {EncodedBytes}
   */
  pack(value, encodeOptions) {
    let tape = this.tape;
    if (tape === null || tape.busy) {
      // a value's toJSON or getter may call pack again: a nested call gets its own tape
      tape = new Tape();
      if (this.tape === null) this.tape = tape;
    }
    const rs = this.records;
    if (rs !== null && rs.depth > 0 && this.cborFlags < 0) return this.packNested(rs, value);
    tape.busy = true;
    let failed = true;
    /** @type {Uint8Array} */
    let out;
    const rt = acquire();
    try {
      tape.attach(rt);
      tape.xok = this.cborFlags < 0 || (this.cborFlags & CBOR_TRACKED) === 0;
      tape.forIn = !protoEnumerable();
      if (!this.simple && this.cborFlags < 0) this.beginMsgpack(tape, value);
      if (encodeOptions !== undefined && (encodeOptions & 2048) !== 0) writeRaw(tape, new Uint8Array(encodeOptions & 0xff));
      this.writePrefix(tape);
      this.write(tape, value, 0);
      if (tape.bundle !== null) endBundle(tape);
      this.finishTape(tape);
      out = emit(rt, tape, this.cborFlags, this);
      failed = false;
    } catch (e) {
      // a deep (or cyclic) value can exhaust the JS stack before maxDepth on engines with a small
      // stack (Chromium with records): report it like maxDepth does
      if (e instanceof RangeError && /call stack/i.test(e.message)) {
        throw new RangeError('wirepack: value nested too deeply for the JS stack (or cyclic: see structuredClone), before maxDepth');
      }
      throw e;
    } finally {
      tape.busy = false;
      tape.detach();
      release(rt);
      releaseMemory();
      if (tape.structs !== null) this.endMpRecords(tape, failed);
      tape.ids = null;
      tape.bundle = null;
      tape.sb = '';
    }
    if (rs !== null && rs.hasSharedUpdate && this.saveStructures && this.cborFlags < 0) {
      if (this.saveMpStructures() === false) return this.pack(value, encodeOptions);
    }
    return /** @type {EncodedBytes} */ (out);
  }

  /**
   * Set up the MessagePack features of one call.
   * @param {Tape} T @param {unknown} value
   */
  beginMsgpack(T, value) {
    T.ids = this.structuredClone ? new Map() : null;
    T.nextId = 0;
    T.bundle = this.bundleStrings && typeof value !== 'string' ? new Bundle() : null;
    T.mapOpts = T.bundle !== null || this.skipValues !== null || this.coercibleKeyAsNumber;
    T.recInts = this.useRecords !== false;
    const rs = this.records;
    T.structs = null;
    if (rs === null) return;
    const self = /** @type {any} */ (this);
    /** @type {Structures} */
    let s = self.structures;
    if (s.uninitialized) s = self._mergeStructures(self.getStructures());
    const shared = s.sharedLength || 0;
    if (shared > rs.maxShared) {
      throw new Error('Shared structures is larger than maximum shared structures, try increasing maxSharedStructures to ' + s.sharedLength);
    }
    // (not ours: transitions msgpackr left on a structures array it was given too, which are
    // no Transition, are made again)
    if (!(s.transitions instanceof Transition)) {
      // (a nested pack that saves structures starts from the saved ones only: the others may be
      // an outer pack's, not saved yet, or loaded by an unpack during it; and it leaves what was
      // saved as it is, msgpackr's reentrantDepth rule)
      if (rs.nested && this.saveStructures) {
        rebuildTransitions(s, rs, Math.min(shared, this.lastNamedStructuresLength || 0));
      } else {
        rebuildTransitions(s, rs, shared);
        if (!rs.nested) this.lastNamedStructuresLength = shared;
      }
    }
    if (!rs.sequential || !(/** @type {number} */ (s.nextId) >= shared + 0x40)) s.nextId = shared + 0x40;
    rs.hasSharedUpdate = false;
    rs.depth++;
    T.structs = s;
  }

  /**
   * After a call with records: forget the per-message ids (unless sequential) and keep the
   * shared structures consistent when packing failed.
   * @param {Tape} T @param {boolean} failed
   */
  endMpRecords(T, failed) {
    const rs = /** @type {RecordState} */ (this.records);
    const s = /** @type {Structures} */ (T.structs);
    T.structs = null;
    rs.depth--;
    if (rs.sinceRebuild < 10) rs.sinceRebuild++;
    const shared = s.sharedLength || 0;
    // per-message ids are forgotten after the call, unless sequential; and after a failed
    // sequential call too: its ids never reached the decoder, which a later message would refer
    // to (later messages define theirs again). (Own ids are not stored when the call forgets
    // them: see newMpRecord.)
    const forget = !rs.sequential || failed;
    if (s.length > shared && forget) s.length = shared;
    const q = rs.toRemove;
    if (rs.transitionsCount > 10000) {
      // rebuild now and then after many new transitions, so that the trie does not only grow
      s.transitions = null;
      rs.sinceRebuild = 0;
      rs.transitionsCount = 0;
      q.reset(undefined, true);
    } else if (q.n > 0 && forget) {
      for (let i = 0; i < q.n; i++) {
        const t = q.at(i);
        t.id = 0;
        t.word = 0;
      }
      q.reset();
    }
    if (rs.pending !== null && rs.depth === 0) {
      const toPromote = rs.pending;
      rs.pending = null;
      if (!failed && this.saveStructures) this.promote(s, rs, toPromote);
    }
    if (failed && rs.hasSharedUpdate && this.saveStructures) {
      rs.hasSharedUpdate = false;
      if (this.getStructures) s.uninitialized = true;
      s.length = s.sharedLength = this.lastNamedStructuresLength || 0;
      s.transitions = null;
    }
  }

  /**
   * Structures that nested packs made while saving structures become shared ones.
   * @param {Structures} s @param {RecordState} rs @param {any[]} toPromote
   */
  promote(s, rs, toPromote) {
    let shared = s.sharedLength || 0;
    if (!(s.transitions instanceof Transition)) rebuildTransitions(s, rs, shared);
    for (let i = 0; i < toPromote.length && shared < rs.maxShared; i++) {
      const keys = toPromote[i];
      const t = walk(/** @type {Transition} */ (s.transitions), keys);
      if (t.id === 0) {
        const id = shared + 0x40;
        keys.highByte = id >= 0x60 && rs.twoByte ? (id - 0x60) >> 5 : -1;
        keys.isShared = true;
        t.id = id;
        t.word = recWord(id, keys.highByte);
        t.keys = keys;
        s[shared++] = keys;
        s.sharedLength = shared;
        rs.hasSharedUpdate = true;
      }
    }
    if (!rs.sequential || !(/** @type {number} */ (s.nextId) >= shared + 0x40)) s.nextId = shared + 0x40;
  }

  /**
   * saveStructures after a pack that added shared structures. False: the save was declined,
   * and the structures are loaded again (the caller packs again).
   * @returns {boolean}
   */
  saveMpStructures() {
    const rs = /** @type {RecordState} */ (this.records);
    const self = /** @type {any} */ (this);
    /** @type {Structures} */
    const s = self.structures;
    rs.hasSharedUpdate = false;
    const shared = s.sharedLength || 0;
    let ok = false;
    rs.depth++; // packs inside saveStructures are nested ones
    try {
      s.isCompatible = (existing) => {
        const compatible = !existing || (this.lastNamedStructuresLength || 0) === existing.length;
        if (!compatible) self._mergeStructures(existing);
        return compatible;
      };
      const saved = /** @type {NonNullable<PackOptions['saveStructures']>} */ (this.saveStructures)(s, s.isCompatible);
      ok = true;
      if (saved === false) {
        // declined (another writer updated them): reload through getStructures and re-pack
        s.uninitialized = true;
        return false;
      }
    } finally {
      rs.depth--;
      if (!ok) {
        const cur = self.structures;
        if (this.getStructures) cur.uninitialized = true;
        cur.length = cur.sharedLength = this.lastNamedStructuresLength || 0;
        cur.transitions = null;
      }
    }
    this.lastNamedStructuresLength = shared;
    return true;
  }

  /**
   * A pack inside a pack with records (a toJSON, an extension or saveStructures calling pack):
   * it gets its own per-message structures, and the outer message's are restored afterwards.
   * @param {RecordState} rs @param {unknown} value
   * @returns {EncodedBytes}
   */
  packNested(rs, value) {
    const self = /** @type {any} */ (this);
    /** @type {Structures} */
    const s = self.structures;
    const shared = s.sharedLength || 0;
    const savedNextId = s.nextId, savedNextOwnId = s.nextOwnId;
    const savedOwn = s.slice(shared);
    const savedRemove = rs.toRemove.toArray();
    const savedIds = savedRemove.map((t) => t.id);
    const savedCount = rs.transitionsCount;
    const savedUpdate = rs.hasSharedUpdate;
    for (const t of savedRemove) { t.id = 0; t.word = 0; }
    // the shared structures this pack has added and not saved yet: hidden from the nested pack,
    // which defines them as its own, so that its message never refers to structures a declined
    // save leaves nobody with (msgpackr's savedUnsavedShared)
    /** @type {[Transition, number, number, any[] | null][]} */
    const unsaved = [];
    if (this.saveStructures && s.transitions) {
      for (let i = this.lastNamedStructuresLength || 0; i < shared; i++) {
        const keys = s[i];
        const t = keys ? lookup(s.transitions, keys) : null;
        if (t !== null && t.id === i + 0x40) {
          unsaved.push([t, t.id, t.word, t.keys]);
          t.id = 0;
          t.word = 0;
        }
      }
    }
    rs.toRemove.reset();
    s.length = shared;
    s.nextOwnId = undefined;
    rs.transitionsCount = 0;
    const depth = rs.depth;
    rs.depth = 0;
    const seq = rs.sequential;
    rs.sequential = false;
    const wasNested = rs.nested;
    rs.nested = true;
    try {
      // the nested message starts its own ids after the shared ones
      const tape = new Tape();
      tape.forIn = !protoEnumerable();
      tape.busy = true;
      let failed = true;
      const rt = acquire();
      try {
        tape.attach(rt);
        tape.xok = true;
        this.beginMsgpack(tape, value);
        rs.depth = depth + 1;
        this.write(tape, value, 0);
        if (tape.bundle !== null) endBundle(tape);
        const out = emit(rt, tape, this.cborFlags, null);
        failed = false;
        return /** @type {EncodedBytes} */ (out);
      } finally {
        tape.detach();
        release(rt);
        releaseMemory();
        rs.depth = depth + 1;
        if (tape.structs !== null) this.endMpRecords(tape, failed);
      }
    } finally {
      rs.depth = depth;
      rs.sequential = seq;
      rs.nested = wasNested;
      for (const t of rs.toRemove.toArray()) { t.id = 0; t.word = 0; }
      /** @type {Structures} */
      const cur = self.structures;
      const curShared = cur.sharedLength || 0;
      for (let i = Math.max(0, curShared - shared); i < savedOwn.length; i++) {
        if (savedOwn[i] !== undefined) cur[shared + i] = savedOwn[i];
      }
      rs.toRemove.reset(savedRemove);
      for (let i = 0; i < savedRemove.length; i++) {
        const t = savedRemove[i];
        if (t.id === 0 && t.keys) { t.id = savedIds[i]; t.word = recWord(t.id, /** @type {any} */ (t.keys).highByte); }
      }
      for (const [t, id, word, keys] of unsaved) {
        if (t.id === 0) { t.id = id; t.word = word; t.keys = keys; }
      }
      cur.nextId = !(/** @type {number} */ (savedNextId) >= curShared + 0x40) ? curShared + 0x40 : savedNextId;
      cur.nextOwnId = savedNextOwnId;
      rs.transitionsCount += savedCount;
      rs.hasSharedUpdate = savedUpdate || rs.hasSharedUpdate;
    }
  }

  /** @param {unknown} value @param {number} [encodeOptions] as for pack @returns {EncodedBytes} */
  encode(value, encodeOptions) {
    return this.pack(value, encodeOptions);
  }

  /**
   * Write the following results into `buffer` (msgpackr's useBuffer): each result is a view of
   * it, at 8-byte aligned offsets, while it has room; then results are new buffers again.
   * @param {Uint8Array} buffer
   */
  useBuffer(buffer) {
    this.userBuffer = buffer;
    this.userOffset = 0;
    this.offset = 0;
  }

  /** Forget the structures (msgpackr's clearSharedData). */
  clearSharedData() {
    const self = /** @type {any} */ (this);
    if (self.structures) {
      self.structures = [];
      this.lastNamedStructuresLength = 0;
    }
  }

  /**
   * Write one value. The walk calls this once a value, and its common cases are in its own body:
   * short strings (the loop that writes their UTF-8, which writeString shares) and numbers.
   * That makes it too large for V8 to inline (its bytecode is over the 460 bytes V8 inlines),
   * which is what keeps the walk fast whatever ran before: inlined into the loops of the walk
   * and into pack(), a small write() and its callees filled each caller's inlining budget (920
   * bytes of bytecode) differently depending on which documents and classes the process had
   * encoded before, and the common cases became calls. Against that small write() (bench/ab.js
   * --mode=peer: each process times one tree against msgpackr or cbor-x), in fresh processes
   * (12): sample-small 1.18x (CBOR 1.12x), the fluentd message 1.26x (1.17x), example4 1.00x
   * (1.06x), sample-datatypes 1.05x (1.06x), small messages with records 1.07x, short ASCII
   * strings 1.04x; after every input of a full run had been encoded and decoded in the process
   * (--history=all, 8): 1.04x (1.20x), 1.09x (1.14x), 1.03x (1.23x), sample-datatypes 1.02x,
   * the distinct-keys stream 0.96x. With only the number case in its body (401 bytes: inlined
   * again) none of it was there; with only the string case (723 bytes), the fluentd message's
   * but not sample-small's.
   * @param {Tape} T
   * @param {unknown} v
   * @param {number} depth the value's depth; AS_ITSELF for a string written as it is (not
   *   bundled, never an E_STR16/E_STRU8 entry: writeString) or a number by Packr's rules
   *   (Packr#writeNumber, whatever a subclass's writeNumber says)
   */
  write(T, v, depth) {
    if (T.p + 8 > T.cap) T.grow(8);
    const type = typeof v;
    if (type === 'string') {
      const s = /** @type {string} */ (v);
      const n = s.length;
      if (depth !== AS_ITSELF) {
        if (T.bundle !== null) {
          this.writeBundled(T, s);
          return;
        }
        // past BLOB_AFTER characters of a call, in Node, as an E_STR16 entry whose units emit
        // writes; past BLOB_AFTER_WEB without Buffer, as an E_STRU8 entry whose UTF-8 emit writes
        if ((T.chars += n) > BLOB_AFTER && n >= BLOB_MIN && writeBlobString(T, s, n)) return;
      }
      if (n >= SHORT_STRING) {
        writeLongString(T, s, n);
        return;
      }
      // UTF-8 in JS, as TextEncoder does it (a lone surrogate is U+FFFD): a call into Node's
      // utf8Write or encodeInto costs more than the whole string; at most 3n < ESC bytes.
      // (LibraryPackr#write holds a copy of this string case, on purpose: see there. Change both.)
      const charCodeAt = String.prototype.charCodeAt;
      if (T.p + 1 + n > T.cap) T.grow(1 + n);
      const hdr = T.p, u8 = T.u8, u32 = T.u32;
      // ASCII four characters to a word while it lasts (one store and one test for four)
      let w = hdr + 1, i = 0;
      for (const n4 = n - 3; i < n4; i += 4) {
        const c0 = charCodeAt.call(s, i), c1 = charCodeAt.call(s, i + 1);
        const c2 = charCodeAt.call(s, i + 2), c3 = charCodeAt.call(s, i + 3);
        if ((c0 | c1 | c2 | c3) >= 0x80) break;
        u32[w++] = c0 | (c1 << 8) | (c2 << 16) | (c3 << 24);
      }
      let b = w << 2;
      for (; i < n; i++) {
        const c = charCodeAt.call(s, i);
        if (c >= 0x80) break;
        u8[b++] = c;
      }
      if (i < n) b = utf8Tail(u8, s, i, n, b);
      const len = b - ((hdr + 1) << 2);
      u32[hdr] = E_STR | (len << 8);
      T.p = hdr + 1 + ((len + 3) >> 2);
    } else if (type === 'number') {
      const x = /** @type {number} */ (v);
      if (this.ownNumbers && depth !== AS_ITSELF) {
        this.writeNumber(T, x);
        return;
      }
      const u32 = T.u32;
      if ((x >>> 0) === x) {
        // -0: CBOR carries it exactly (its writeNumber); MessagePack writes 0, as msgpackr does
        if (x === 0 && this.cborFlags >= 0 && 1 / x < 0) {
          this.writeNumber(T, x);
          return;
        }
        // with records, fixints 0x40..0x7f would read as record ids: msgpackr writes uint8
        if ((x >>> 6) === 1 && T.recInts) {
          u32[T.p++] = E_UINT8 | (x << 8);
          return;
        }
        u32[T.p] = E_UINT;
        u32[T.p + 1] = x;
        T.p += 2;
      } else if ((x >> 0) === x) {
        u32[T.p] = E_INT;
        u32[T.p + 1] = x;
        T.p += 2;
      } else if (this.useFloat32 > 0 && x < 4294967296 && x >= -2147483648 && f32Fits(T, x, this.useFloat32)) {
        u32[T.p] = E_F32;
        T.p += 2;
      } else {
        const p = T.p;
        const a = (p + 2) & ~1;
        u32[p] = E_F64;
        T.f64[a >> 1] = x;
        T.p = a + 2;
      }
    } else if (type === 'object' && v !== null && depth < this.maxDepth) {
      this.writeObject(T, /** @type {object} */ (v), depth + 1);
    } else if (type === 'boolean') {
      T.u32[T.p++] = v ? E_TRUE : E_FALSE;
    } else {
      this.writeRare(T, v, depth);
    }
  }

  /**
   * write() of undefined, functions, BigInts, null, and objects nested too deep.
   * @param {Tape} T @param {unknown} v @param {number} depth
   */
  writeRare(T, v, depth) {
    switch (typeof v) {
      case 'undefined': T.u32[T.p++] = this.encodeUndefinedAsNil ? E_NIL : E_UNDEF; return;
      case 'function': this.writeFunctionValue(T, v, depth); return;
      case 'bigint': this.writeBigInt(T, v); return;
      case 'object':
        if (v === null) { T.u32[T.p++] = E_NIL; return; }
        throw new RangeError('wirepack: value nested deeper than maxDepth (or cyclic)');
      default: throw new TypeError('Unknown type: ' + typeof v);
    }
  }

  /** @param {Tape} T @param {Function} f @param {number} depth */
  writeFunctionValue(T, f, depth) {
    if (T.ids !== null && this.writeMpRef(T, f)) return;
    // a callable object of an extension's class (its prototype set to the class's) goes through
    // the extension, as in msgpackr
    if (packExtensions.length > 0 && this.cborFlags < 0 && this.writeUserExtension(T, f, depth)) return;
    if (this.writeFunction && this.cborFlags < 0) {
      this.write(T, this.writeFunction(f), depth);
      return;
    }
    T.u32[T.p++] = this.encodeUndefinedAsNil ? E_NIL : E_UNDEF;
  }

  /**
   * A number by Packr's rules (write's number case: a subclass's writeNumber may come back here
   * through super).
   * @param {Tape} T @param {number} v
   */
  writeNumber(T, v) {
    this.write(T, v, AS_ITSELF);
  }

  /** @param {Tape} T @param {object} o @param {number} depth */
  writeObject(T, o, depth) {
    if (T.ids !== null && this.writeMpRef(T, o)) return;
    if (Array.isArray(o)) {
      this.writeArray(T, o, depth);
      return;
    }
    const proto = Object.getPrototypeOf(o);
    if (proto === Object.prototype || proto === null) {
      if (T.structs !== null) this.writeMpRecord(T, /** @type {Record<string, unknown>} */ (o), depth, true);
      else if (T.forIn && !T.mapOpts) this.writePlainMap(T, /** @type {Record<string, unknown>} */ (o), depth);
      else this.writeMap(T, /** @type {Record<string, unknown>} */ (o), depth);
      return;
    }
    if (o.constructor === Map) {
      this.writeMapObject(T, /** @type {Map<unknown, unknown>} */ (o), depth);
      return;
    }
    this.writeOther(T, o, depth);
  }

  /** @param {Tape} T @param {unknown[]} o @param {number} depth */
  writeArray(T, o, depth) {
    if (packExtensions.length > 0 && o.constructor !== Array && this.cborFlags < 0 && this.writeUserExtension(T, o, depth)) return;
    const n = o.length;
    writeHeader(T, E_ARR, n);
    let i = 0;
    if (n >= NUM_RUN && typeof o[0] === 'number' && this.useFloat32 === 0 && (this.cborFlags < 0 ? !T.recInts : this.cborNumRuns) && n < ESC) {
      i = writeNumberRun(T, o, n, false);
    }
    for (; i < n; i++) this.write(T, o[i], depth);
  }

  /** @param {Tape} T @param {Map<unknown, unknown>} m @param {number} depth */
  writeMapObject(T, m, depth) {
    if (this.mapAsEmptyObject && this.cborFlags < 0) { T.u32[T.p++] = E_MAP; return; }
    writeHeader(T, E_MAP, m.size);
    for (const [k, v] of m) {
      this.write(T, k, depth);
      this.write(T, v, depth);
    }
  }

  /**
   * An extension added with addExtension whose Class the value is an instance of.
   * @param {Tape} T @param {object} o @param {number} depth
   * @returns {boolean} whether one was found (and the value written)
   */
  writeUserExtension(T, o, depth) {
    const exts = packExtensions;
    for (let i = 0; i < exts.length; i++) {
      const ext = exts[i];
      if (!(o instanceof /** @type {Function} */ (ext.Class))) continue;
      if (ext.write) {
        if (ext.type) { if (T.p + 1 > T.cap) T.grow(1); T.u32[T.p++] = E_PREFIX | ((ext.type & 0xff) << 8); }
        const result = ext.write.call(this, o);
        if (result === o) {
          if (Array.isArray(o)) {
            writeHeader(T, E_ARR, o.length);
            for (let j = 0; j < o.length; j++) this.write(T, o[j], depth);
          } else if (T.structs !== null) {
            this.writeMpRecord(T, /** @type {Record<string, unknown>} */ (o), depth);
          } else {
            this.writeMap(T, /** @type {Record<string, unknown>} */ (o), depth);
          }
        } else {
          this.write(T, result, depth);
        }
        return true;
      }
      /** @type {Uint8Array[]} */
      const chunks = [];
      // msgpackr's pack(value, allocateForWrite, pack): bytes written through allocateForWrite
      // and values through pack go out in order; returned bytes become the extension's payload
      const flush = () => {
        for (const c of chunks) writeRaw(T, c);
        chunks.length = 0;
      };
      /** @param {number} size */
      const allocateForWrite = (size) => {
        const target = new Uint8Array(size);
        chunks.push(target);
        return { target, targetView: new DataView(target.buffer), position: 0 };
      };
      /** @param {unknown} v */
      const packValue = (v) => { flush(); this.write(T, v, depth); };
      const result = /** @type {(v: any, a: any, p: any) => Uint8Array | undefined} */ (ext.pack).call(this, o, allocateForWrite, packValue);
      flush();
      if (result) writeBytes(T, E_EXT, ext.type & 0xff, result);
      return true;
    }
    return false;
  }

  /**
   * Class instances and built-in types, in msgpackr's order: extensions added with
   * addExtension, then Date, Set, Error, RegExp, ArrayBuffer, typed arrays and DataView (a
   * subclass with a toJSON of its own uses its toJSON), arrays, toJSON, and last the
   * instance's own properties as a map (or record).
   * @param {Tape} T @param {object} o @param {number} depth
   */
  writeOther(T, o, depth) {
    if (packExtensions.length > 0) {
      // (what has Array or Object for its constructor is an array or a map before any extension,
      // as in msgpackr: Object.create([1, 2]), Object.create({}))
      const C = o.constructor;
      if (C !== Array && C !== Object && this.writeUserExtension(T, o, depth)) return;
    } else if (o instanceof Uint8Array && (o.constructor === ByteArray || !this.moreTypes || this.cborFlags >= 0)) {
      writeBytes(T, E_BIN, 0, o); // the common cases first: bytes and Dates
      return;
    } else if (o.constructor === Date) {
      this.writeDate(T, /** @type {Date} */ (o), depth);
      return;
    }
    if (o instanceof ExtData) { writeBytes(T, E_EXT, o.type & 0xff, o.data); return; }
    const own = /** @type {any} */ (o).toJSON;
    const viaJSON = this.useToJSON && own !== undefined && own !== dateToJSON;
    const mp = this.cborFlags < 0;
    if (o instanceof Date) {
      if (o.constructor === Date || !viaJSON) { this.writeDate(T, o, depth); return; }
    } else if (o instanceof Set) {
      if (o.constructor === Set || !viaJSON) {
        if (this.setAsEmptyObject && mp) { this.write(T, {}, depth); return; }
        if (this.moreTypes && mp) T.u32[T.p++] = E_PREFIX | (0x73 << 8);
        this.write(T, Array.from(o), depth);
        return;
      }
    } else if (o instanceof Error) {
      if (o.constructor === Error || !viaJSON) {
        if (this.moreTypes && mp) T.u32[T.p++] = E_PREFIX | (0x65 << 8);
        const data = [o.name, o.message, /** @type {any} */ (o).cause];
        if (typeof AggregateError === 'function' && o instanceof AggregateError) data.push(o.errors);
        this.write(T, data, depth);
        return;
      }
    } else if (o instanceof RegExp) {
      if (o.constructor === RegExp || !viaJSON) {
        if (this.moreTypes && mp) T.u32[T.p++] = E_PREFIX | (0x78 << 8);
        this.write(T, [o.source, o.flags], depth);
        return;
      }
    } else if (o instanceof ArrayBuffer || (SharedBuffer !== null && o instanceof SharedBuffer)) {
      // (a SharedArrayBuffer as an ArrayBuffer's bytes: msgpackr writes the map of its own
      // properties, {}, and its bytes are lost)
      if (o.constructor === ArrayBuffer || o.constructor === SharedBuffer || !viaJSON) {
        if (this.moreTypes && mp) writeExtBuffer(T, new Uint8Array(o), 0x10);
        else writeBytes(T, E_BIN, 0, new Uint8Array(o));
        return;
      }
    } else if (ArrayBuffer.isView(o)) {
      const bytes = new Uint8Array(o.buffer, o.byteOffset, o.byteLength);
      if (this.moreTypes && mp && o.constructor !== ByteArray) {
        writeExtBuffer(T, bytes, o instanceof TypedArray ? typedArrayCode(o) : 0x11);
      } else {
        writeBytes(T, E_BIN, 0, bytes);
      }
      return;
    }
    if (o instanceof C1Type && mp) { T.u32[T.p++] = E_BYTE | (0xc1 << 8); return; }
    // an object whose prototype is an array (Object.create([1, 2])): written as arrays are, the
    // elements of its length, as msgpackr and cbor-x write what has Array for its constructor,
    // rather than a map of its own keys
    if (isArrayLike(o)) {
      this.writeArray(T, /** @type {unknown[]} */ (o), depth);
      return;
    }
    if (this.useToJSON && own) {
      const json = /** @type {any} */ (o).toJSON();
      if (json !== o) { this.write(T, json, depth); return; }
    }
    // Map subclasses stay maps (msgpackr writes their own properties, usually none)
    if (o instanceof Map) { this.writeMapObject(T, o, depth); return; }
    if (T.structs !== null) this.writeMpRecord(T, /** @type {Record<string, unknown>} */ (o), depth);
    else this.writeMap(T, /** @type {Record<string, unknown>} */ (o), depth);
  }

  /** @param {Tape} T @param {Date} d @param {number} depth */
  writeDate(T, d, depth) {
    const ms = d.getTime();
    if (ms !== ms) {
      if (this.onInvalidDate && this.cborFlags < 0) { this.write(T, this.onInvalidDate(), depth); return; }
      T.u32[T.p++] = E_BADDATE;
      return;
    }
    if (this.useTimestamp32 && ms >= 0 && ms < 4294967296000) {
      const u32 = T.u32, p = T.p;
      u32[p] = E_DATE; u32[p + 1] = Math.floor(ms / 1000); u32[p + 2] = 0; u32[p + 3] = 0;
      T.p = p + 4;
      return;
    }
    writeDate(T, d);
  }

  /**
   * A plain object as a record (msgpackr's records): the id of its key sequence, after the
   * definition of that sequence the first time, then the values.
   * @param {Tape} T @param {Record<string, unknown>} o @param {number} depth
   * @param {boolean} [plain] o's prototype is Object.prototype or null (the caller looked)
   */
  writeMpRecord(T, o, depth, plain) {
    const use = this.useRecords;
    if (typeof use === 'function' && !use(o)) { this.writeMap(T, o, depth); return; }
    const s = /** @type {Structures} */ (T.structs);
    let t = s.transitions || (s.transitions = new Transition());
    // keys by for-in, twice (V8's enum cache: no keys array; one is made only for a record not
    // seen before), as writePlainMap; inherited keys are skipped while Object.prototype has an
    // enumerable property, and for objects with another prototype (a class's, or a URL's
    // enumerable accessors): for-in lists own keys first, in Object.keys order, then those
    const own = !T.forIn || plain !== true;
    let fresh = 0, n = 0;
    for (const k in o) {
      if (own && !Object.prototype.hasOwnProperty.call(o, k)) continue;
      n++;
      if (t.key === k) {
        t = /** @type {Transition} */ (t.child);
        continue;
      }
      let next = t.more === null ? undefined : t.more.get(k);
      if (next === undefined) {
        next = addTransition(t, k);
        fresh++;
      }
      t = next;
    }
    if (t.word !== 0) {
      T.u32[T.p++] = t.word;
    } else if (!this.newMpRecord(T, t, t.keys || Object.keys(o), fresh, depth)) {
      this.writeMap(T, o, depth);
      return;
    }
    // a getter that deletes a key not yet visited would make for-in skip it: the record would
    // then have fewer values than keys
    for (const k in o) {
      if (own && !Object.prototype.hasOwnProperty.call(o, k)) continue;
      this.write(T, o[k], depth);
      n--;
    }
    if (n !== 0) throw new Error('wirepack: an object changed its keys while it was being packed');
  }

  /**
   * Assign a record id to a new key sequence and write its reference (shared) or definition.
   * @param {Tape} T @param {Transition} t @param {any[]} keys @param {number} fresh
   * @param {number} depth
   * @returns {boolean} false when no id is available (the object is written as a map)
   */
  newMpRecord(T, t, keys, fresh, depth) {
    const rs = /** @type {RecordState} */ (this.records);
    const s = /** @type {Structures} */ (T.structs);
    let id = s.nextId || 0x40;
    const share = this.shouldShareStructure;
    const nestedSave = rs.depth > 1 && !!this.saveStructures;
    if (id < rs.sharedLimitId && (nestedSave || (share && !share(keys)))) {
      if (nestedSave && !(share && !share(keys))) (rs.pending || (rs.pending = [])).push(keys);
      if (!rs.maxOwn) return false;
      id = /** @type {number} */ (s.nextOwnId);
      if (!(id < rs.maxStructureId)) id = rs.sharedLimitId;
      s.nextOwnId = id + 1;
    } else {
      if (id >= rs.maxStructureId) {
        if (!rs.maxOwn) return false;
        id = rs.sharedLimitId; // cycle back through the per-message ids
      }
      s.nextId = id + 1;
    }
    const high = id >= 0x60 && rs.twoByte ? (id - 0x60) >> 5 : -1;
    /** @type {any} */ (keys).highByte = high;
    t.id = id;
    t.word = recWord(id, high);
    t.keys = keys;
    // an own id's keys are kept in the structures only by sequential packing; otherwise the
    // call would drop them again at its end (a store and a length cut: 80 ns a message)
    if (id < rs.sharedLimitId || rs.sequential) s[id - 0x40] = keys;
    if (T.p + 2 > T.cap) T.grow(2);
    if (id < rs.sharedLimitId) {
      /** @type {any} */ (keys).isShared = true;
      s.sharedLength = id - 0x3f;
      rs.hasSharedUpdate = true;
      T.u32[T.p++] = t.word;
    } else {
      T.u32[T.p++] = (t.word & ~0xff) | E_RECDEF;
      if (fresh) rs.transitionsCount += rs.sinceRebuild * fresh;
      if (rs.toRemove.n >= rs.maxOwn) {
        const old = rs.toRemove.shift();
        old.id = 0;
        old.word = 0;
      }
      rs.toRemove.push(t);
      if (T.ids === null && T.bundle === null) {
        // the keys array, directly (no identity to track, no strings to bundle)
        writeHeader(T, E_ARR, keys.length);
        this.writeDefKeys(T, keys, depth);
      } else {
        this.write(T, keys, depth);
      }
    }
    return true;
  }

  /**
   * The keys of a record definition, after its array header (both formats): strings as map keys
   * are written, from the key cache (the word of each one's cached entry), anything else
   * through write().
   * @param {Tape} T @param {any[]} keys @param {number} depth
   */
  writeDefKeys(T, keys, depth) {
    /** @type {KeyNode | null} */
    let node = T.kc.root;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (typeof k === 'string') {
        node = writeKey(T, node, k);
      } else {
        this.write(T, k, depth);
        node = null;
      }
    }
  }

  /** @param {Tape} T @param {Record<string, unknown>} o @param {number} depth */
  writeMap(T, o, depth) {
    if (T.mapOpts) { this.writeMapOpts(T, o, depth); return; }
    const keys = Object.keys(o);
    const n = keys.length;
    writeHeader(T, E_MAP, n);
    for (let i = 0; i < n; i++) {
      const k = keys[i];
      writeString(T, k);
      this.write(T, o[k], depth);
    }
  }

  /**
   * A plain object (prototype Object.prototype or null) as a map, keys by for-in: V8 walks its
   * enum cache without making a keys array, and reads each value through it. The count is
   * patched into a two-word header after the walk (C still writes the smallest map header).
   * Only while T.forIn holds, so no inherited key can appear.
   * The for-in's fast path does not last for the whole process: one object on a deprecated map
   * (JSON.parse leaves one when a later object widens a field from integer to double, as in
   * `[{"b":1,"se":2},{"b":1,"se":2.8}]`) turns its feedback generic for good, and each `o[k]`
   * then becomes a megamorphic keyed load. It stays the better loop all the same (bench/ab.js
   * --mode=peer, 10 processes, after example4 and sample-datatypes, which do that): an
   * Object.keys loop, as msgpackr's, measured 0.82-0.96x of it in six cases of seven (example4
   * 0.84x, CBOR 0.82x; sample-small 0.90x; a deep and wide document 1.03x), and a load that
   * migrates each object first 0.87-0.92x.
   * @param {Tape} T @param {Record<string, unknown>} o @param {number} depth
   */
  writePlainMap(T, o, depth) {
    if (T.p + 2 > T.cap) T.grow(2);
    const hdr = T.p;
    T.p = hdr + 2;
    let n = 0;
    // the keys of maps under the same key (or at the top) start from the same trie node: the
    // first key of a nested map is then found with one comparison too, as the others are
    const ctx = T.kctx;
    /** @type {KeyNode | null} */
    let node = ctx === null ? T.kc.root : ctx.sub !== null ? ctx.sub : (ctx.sub = new KeyNode('', 0, 0));
    for (const k in o) {
      node = writeKey(T, node, k);
      T.kctx = node;
      this.write(T, o[k], depth);
      n++;
    }
    T.kctx = ctx;
    const u32 = T.u32;
    u32[hdr] = E_MAP | (ESC << 8);
    u32[hdr + 1] = n;
  }

  /**
   * A map with skipValues, coercibleKeyAsNumber or bundled keys.
   * @param {Tape} T @param {Record<string, unknown>} o @param {number} depth
   */
  writeMapOpts(T, o, depth) {
    let keys = Object.keys(o);
    const skip = this.skipValues;
    if (skip !== null) keys = keys.filter((k) => !skip.includes(o[k]));
    const n = keys.length;
    writeHeader(T, E_MAP, n);
    const asNumber = this.coercibleKeyAsNumber;
    for (let i = 0; i < n; i++) {
      const k = keys[i];
      if (asNumber) {
        const num = Number(k);
        this.write(T, isNaN(num) ? k : num, depth);
      } else {
        this.write(T, k, depth);
      }
      this.write(T, o[k], depth);
    }
  }

  /**
   * structuredClone (MessagePack): an object met before is a pointer (0x70) to the id (0x69)
   * written, in the two words reserved there, before its first occurrence.
   * @param {Tape} T @param {object} o
   * @returns {boolean} whether a pointer was written
   */
  writeMpRef(T, o) {
    const ids = /** @type {Map<object, {pos: number, id: number}>} */ (T.ids);
    const rec = ids.get(o);
    if (T.p + 4 > T.cap) T.grow(4);
    const u32 = T.u32;
    if (rec !== undefined) {
      if (rec.id === 0) {
        rec.id = ++T.nextId;
        u32[rec.pos] = E_EXT4 | (0x69 << 8);
        u32[rec.pos + 1] = rec.id;
      }
      u32[T.p] = E_EXT4 | (0x70 << 8);
      u32[T.p + 1] = rec.id;
      T.p += 2;
      return true;
    }
    ids.set(o, { pos: T.p, id: 0 });
    u32[T.p] = E_PAD;
    u32[T.p + 1] = E_PAD;
    T.p += 2;
    return false;
  }

  /**
   * bundleStrings: strings of 4..4095 characters go into the current bundle, written after the
   * message (or before the next bundle); here only 0xc1 and the length (negative: non-Latin).
   * @param {Tape} T @param {string} s
   */
  writeBundled(T, s) {
    const n = s.length;
    const b = /** @type {Bundle} */ (T.bundle);
    if (n < 4 || n >= 0x1000) { writeString(T, s); return; }
    if ((b.size += n) > MAX_BUNDLE_SIZE) {
      if (b.open) {
        T.u32[T.p] = E_BUNDLE | (1 << 8); T.u32[T.p + 1] = 0; T.p += 2;
        writeString(T, b.s0);
        writeString(T, b.s1);
        if (T.p + 2 > T.cap) T.grow(2);
        T.u32[T.p] = E_BUNDLE | (2 << 8); T.u32[T.p + 1] = 0; T.p += 2;
      } else {
        T.u32[T.p] = E_BUNDLE; T.u32[T.p + 1] = 0; T.p += 2;
      }
      b.s0 = '';
      b.s1 = '';
      b.size = 0; // as msgpackr: the string that opens a bundle is not counted
      b.open = true;
    }
    const wide = NON_LATIN.test(s);
    if (wide) b.s0 += s;
    else b.s1 += s;
    if (T.p + 4 > T.cap) T.grow(4);
    T.u32[T.p++] = E_BYTE | (0xc1 << 8);
    this.writeNumber(T, wide ? -n : n);
  }
}

/**
 * The strings of the open bundle, after the message.
 * @param {Tape} T
 */
function endBundle(T) {
  const b = /** @type {Bundle} */ (T.bundle);
  T.bundle = null;
  if (!b.open) return;
  if (T.p + 2 > T.cap) T.grow(2);
  T.u32[T.p] = E_BUNDLE | (3 << 8); T.u32[T.p + 1] = 0; T.p += 2;
  writeString(T, b.s0);
  writeString(T, b.s1);
}

/**
 * Follow (making them) the transitions of a key sequence.
 * @param {Transition} root @param {string[]} keys
 */
function walk(root, keys) {
  let t = root;
  for (let i = 0; i < keys.length; i++) t = stepFrom(t, keys[i]) || addTransition(t, keys[i]);
  return t;
}

/**
 * The transition of a key sequence when the trie has it (nothing is made), else null.
 * @param {Transition} root @param {any[]} keys
 * @returns {Transition | null}
 */
function lookup(root, keys) {
  let t = root;
  for (let i = 0; i < keys.length; i++) {
    const next = stepFrom(t, keys[i]);
    if (!next) return null;
    t = next;
  }
  return t;
}

/**
 * The transition from t by key k, if t has one.
 * @param {Transition} t @param {string} k
 * @returns {Transition | null | undefined}
 */
function stepFrom(t, k) {
  return t.key === k ? t.child : t.more === null ? undefined : t.more.get(k);
}

/**
 * A new transition from t by key k (t has none by k).
 * @param {Transition} t @param {string} k
 */
function addTransition(t, k) {
  const next = new Transition();
  if (t.key === null) {
    t.key = k;
    t.child = next;
  } else {
    (t.more || (t.more = new Map())).set(k, next);
  }
  return next;
}

/**
 * A new transition trie holding the first `n` (shared) structures.
 * @param {Structures} s @param {RecordState} rs @param {number} n
 */
function rebuildTransitions(s, rs, n) {
  const root = new Transition();
  s.transitions = root;
  for (let i = 0; i < n; i++) {
    const keys = s[i];
    if (!keys) continue;
    const t = walk(root, keys);
    const id = i + 0x40;
    t.id = id;
    t.word = recWord(id, id >= 0x60 && rs.twoByte ? (id - 0x60) >> 5 : -1);
    t.keys = keys;
  }
}

/**
 * Whether v goes out as float32 under the option; leaves the bits in the tape when it does.
 * @param {Tape} T @param {number} v @param {number} mode
 */
function f32Fits(T, v, mode) {
  T.f32[T.p + 1] = v;
  if (mode < 4) return true;
  const m = mult10[(T.u32[T.p + 1] >>> 23) & 0xff];
  const x = v * m;
  return (x >> 0) === x;
}

/** @param {Tape} T @param {number} v */
export function writeF64(T, v) {
  const p = T.p;
  const a = (p + 2) & ~1;
  T.u32[p] = E_F64;
  T.f64[a >> 1] = v;
  T.p = a + 2;
}

/**
 * Map keys as their STR tape entries (header and UTF-8), written once into the wasm instance's key
 * area and referred to from then on by one KEY word, which C writes as that string; found through
 * a trie of the key sequences of the maps written (as records find their structure): the next key
 * of a map usually is the one that followed the same key before, so finding it takes one
 * string comparison (internalized keys compare by identity) instead of a UTF-8 encode or a Map
 * lookup. The first key of a map is found after the key whose value holds the map (its node's
 * `sub` root), so that a message's nested maps do not compete for the root. A key has one
 * entry in the area however many nodes it has. Keys longer than KEY_CACHE_LEN characters are
 * encoded each time (w 0). One cache per runtime (its key area is in that instance's memory,
 * and a call has its runtime to itself). Bounded: when the trie or the area is full, no key is
 * added for the rest of the call (the tape may refer to any entry of the area until C has read
 * it) and both start again at the next call; a window of KEY_WINDOW keys that mostly made new
 * nodes (keys that never repeat) sets the trie aside for KEY_SKIP keys, since making a node for
 * each costs more than it saves.
 */
export class KeyNode {
  /** @param {string} k @param {number} w its KEY word, or 0 @param {number} n its entry's words */
  constructor(k, w, n) {
    this.k = k;
    this.w = w;
    this.n = n;
    /** the key compared first after this one: the first that followed it, then the last one
     * found in `more` (keyNext), so that a run of messages of one shape finds each key with one
     * comparison whatever came before */
    /** @type {KeyNode | null} */
    this.child = null;
    /** every key that followed it, once there were two (child among them) */
    /** @type {Map<string, KeyNode> | null} */
    this.more = null;
    /** the root of the keys of maps that are (or are in) this key's values (writePlainMap) */
    /** @type {KeyNode | null} */
    this.sub = null;
  }
}
const KEY_CACHE_LEN = 32, KEY_NODES_MAX = 8192;
const KEY_WINDOW = 4096, KEY_SKIP = 1 << 18;

export class KeyCache {
  /** @param {import('./runtime.js').Runtime} rt */
  constructor(rt) {
    /** word index and words of the key area */
    this.base = rt.encKeys;
    this.cap = rt.encKeyWords;
    this.used = 0;
    this.nodes = 0;
    this.root = new KeyNode('', 0, 0);
    /** the first node made for each key that has an entry in the key area (the nodes of a key
     * after other keys share its entry) */
    /** @type {Map<string, KeyNode>} */
    this.entries = new Map();
    /** no key is added until the next call, which starts again */
    this.full = false;
    /** keys looked up and nodes made in the current window; keys left to write without the trie */
    this.lookups = 0;
    this.made = 0;
    this.skip = 0;
  }

  /** At the start of a call: start again if the cache filled up. */
  begin() {
    if (!this.full) return;
    this.full = false;
    this.root = new KeyNode('', 0, 0);
    this.entries = new Map();
    this.used = 0;
    this.nodes = 0;
  }
}

/**
 * The trie node of key k after node (made when missing, with its entry in the key area), or
 * null when it is missing and the cache is full.
 * @param {Tape} T @param {KeyCache} kc @param {KeyNode} node @param {string} k
 * @returns {KeyNode | null}
 */
function keyNext(T, kc, node, k) {
  const more = node.more;
  if (more !== null) {
    const found = more.get(k);
    if (found !== undefined) {
      // the next lookup here compares it first: bench/ab.js --mode=peer against the first key
      // kept for ever, after example4 and sample-datatypes (--history, 10): sample-small pack
      // 1.08x (CBOR 1.05x), fluentd 1.04x, CBOR sample-medium 1.04x, the distinct-keys stream
      // 1.01x, records of many shapes 1.00x; fresh (10 and 12): the distinct-keys stream
      // 0.92x / 1.00x (CBOR 0.95x), records of many shapes 0.92x / 1.01x, fluentd 1.10x
      node.child = found;
      return found;
    }
  }
  if (kc.full) return null;
  kc.made++;
  let w = 0, n = 0;
  const same = kc.entries.get(k);
  if ((same !== undefined || k.length <= KEY_CACHE_LEN) && kc.nodes >= KEY_NODES_MAX) {
    kc.full = true;
    return null;
  }
  if (same !== undefined) {
    w = same.w;
    n = same.n;
  } else if (k.length <= KEY_CACHE_LEN) {
    // encode into the tape past its end (not kept there), then into the key area
    const at = T.p;
    writeString(T, k);
    n = T.p - at;
    T.p = at;
    if (kc.used + n > kc.cap) {
      kc.full = true;
      return null;
    }
    const o = kc.used;
    T.u32.copyWithin(kc.base + o, at, at + n);
    kc.used = o + n;
    w = E_KEY | (o << 8);
  }
  const next = new KeyNode(k, w, n);
  kc.nodes++;
  if (w !== 0 && same === undefined) kc.entries.set(k, next);
  const child = node.child;
  if (child !== null) {
    // (more holds every key after this one, child among them, once there are two)
    if (more === null) node.more = new Map([[child.k, child], [k, next]]);
    else more.set(k, next);
  } else {
    node.child = next;
  }
  return next;
}

/**
 * Write key k of a map, after the key whose node is `node` (the root for the first); returns the
 * node of k, or null when the trie is set aside or full.
 * @param {Tape} T @param {KeyNode | null} node @param {string} k
 * @returns {KeyNode | null}
 */
export function writeKey(T, node, k) {
  const kc = T.kc;
  if (node === null || kc.skip > 0) {
    if (kc.skip > 0) kc.skip--;
    writeString(T, k);
    return null;
  }
  if (++kc.lookups === KEY_WINDOW) {
    const skip = kc.made > KEY_WINDOW / 2;
    kc.lookups = kc.made = 0;
    if (skip) {
      kc.skip = KEY_SKIP;
      kc.full = true;
      writeString(T, k);
      return null;
    }
  }
  let next = node.child;
  if (next === null || next.k !== k) next = keyNext(T, kc, node, k);
  if (next === null || next.w === 0) {
    writeString(T, k);
    return next;
  }
  if (T.p + 1 > T.cap) T.grow(1);
  T.u32[T.p++] = next.w;
  T.kw += next.n;
  return next;
}

/**
 * The leading numbers of an array as one E_NUMS run: the values go in as f64 and C writes each
 * in the form writeNumber would choose (without float32 or records): integers of 32 bits as
 * integers, the rest as float64. Returns how many elements it wrote (the rest of the array goes
 * through write()); o[0] is a number. `int64`: the run stops at a safe integer past 32 bits
 * (wirepack/msgpack writes those as uint64 / int64, as its library does).
 * @param {Tape} T @param {unknown[]} o @param {number} n @param {boolean} int64
 * @returns {number}
 */
export function writeNumberRun(T, o, n, int64) {
  const words = 2 * n + 2;
  if (T.p + words > T.cap) T.grow(words);
  const p = T.p, a = (p + 2) & ~1, f64 = T.f64, b = a >> 1;
  let i = 0;
  for (; i < n; i++) {
    const v = o[i];
    if (typeof v !== 'number' || (int64 && (v >>> 0) !== v && (v >> 0) !== v && Number.isSafeInteger(v))) break;
    f64[b + i] = v;
  }
  T.u32[p] = E_NUMS | (i << 8);
  T.p = a + 2 * i;
  return i;
}

/**
 * Whether o, which is no array, has Array for its constructor and a length an array could have:
 * an object whose prototype is an array (Object.create([1, 2])), which msgpackr and cbor-x write
 * as the array of its (inherited) elements.
 * @param {object} o
 * @returns {boolean}
 */
export function isArrayLike(o) {
  if (o.constructor !== Array) return false;
  const n = /** @type {any} */ (o).length;
  return typeof n === 'number' && n >>> 0 === n;
}

/** Whether Object.prototype has an enumerable property (which for-in would visit). */
function protoEnumerable() {
  for (const _ in Object.prototype) return true;
  return false;
}

/** @param {Tape} T @param {number} tag @param {number} n */
export function writeHeader(T, tag, n) {
  if (n < ESC) {
    T.u32[T.p++] = tag | (n << 8);
  } else {
    T.u32[T.p] = tag | (ESC << 8);
    T.u32[T.p + 1] = n;
    T.p += 2;
  }
}

/*
 * The string functions below call String.prototype.charCodeAt through .call, read into a local
 * const at their start (`const charCodeAt = String.prototype.charCodeAt`):
 * - not `s.charCodeAt(i)`: that is a property load on the string, whose feedback turns
 *   megamorphic once the process has seen strings of many representations (cons, sliced, thin,
 *   two-byte: any stream of distinct keys), and then costs a generic call per character for the
 *   rest of the process;
 * - not a module-level const: bundlers (esbuild, which builds dist/, and Bun) turn top-level
 *   const into var, which V8 11.3 (Node 20) does not fold to its value, and a .call whose target
 *   is not known is a generic call too: 4.7-5 ns a character against 1.2 (a 32-character ASCII
 *   string, one process), and pack of sample-small.json 1.38-1.46x slower (dist/ A/B, paired).
 *   A function's own const stays const through every bundler, and TurboFan folds the load.
 */

/**
 * A string value past BLOB_AFTER (write's string case): s as an E_STR16 / E_STRU8 entry if it can be one.
 * @param {Tape} T @param {string} s @param {number} n s.length
 * @returns {boolean} whether it was written
 */
export function writeBlobString(T, s, n) {
  const charCodeAt = String.prototype.charCodeAt;
  if (T.nb !== null ? n >= SHORT_STRING : !(T.chars > BLOB_AFTER_WEB && n < BLOB_MAX_WEB &&
    // one encodeInto over the concatenation: a string that ends in a high surrogate or starts
    // with a low one could pair with its neighbour there, so it stays on its own
    (charCodeAt.call(s, 0) & 0xfc00) !== 0xdc00 && (charCodeAt.call(s, n - 1) & 0xfc00) !== 0xd800)) return false;
  if (T.p + 1 > T.cap) T.grow(1);
  T.u32[T.p++] = (T.nb !== null ? E_STR16 : E_STRU8) | (n << 8);
  T.sb += s;
  T.sbLen += n;
  return true;
}

/**
 * Write the call's E_STR16 / E_STRU8 strings (T.sb) after the tape, where C reads them: their
 * UTF-16 units with one Buffer#ucs2Write in Node, else their UTF-8 with one encodeInto.
 * @param {import('./runtime.js').Runtime} rt @param {Tape} T
 * @returns {number} the UTF-8 bytes written (0 in Node, where C reads T.sbLen units)
 */
function writeStrings(rt, T) {
  const sb = T.sb, max = (T.nb !== null ? 2 : 3) * T.sbLen;
  if (!rt.reserve(T.words() * 4 + max)) throw new RangeError('wirepack: value too large to encode');
  const at = T.p * 4, nb = rt.nb; // (after reserve: memory may have grown)
  T.sb = '';
  if (nb !== null) {
    if (nb.ucs2Write(sb, at, max) !== max) throw new Error('wirepack: string units not written');
    return 0;
  }
  const r = textEncoder.encodeInto(sb, rt.u8.subarray(at, at + max));
  if (r.read !== T.sbLen) throw new Error('wirepack: strings not written');
  return r.written;
}

/**
 * A string as it is: a key, a bundle's or a record's strings (write's string case, which holds
 * the loop; `this` is not read there for AS_ITSELF). The library views' values go through a copy
 * of that case (LibraryPackr#write).
 * @param {Tape} T @param {string} s
 */
export function writeString(T, s) {
  Packr.prototype.write.call(null, T, s, AS_ITSELF);
}

/**
 * The UTF-8 of s from unit i (not ASCII) to n into u8 at b; returns where it ended.
 * @param {Uint8Array} u8 @param {string} s @param {number} i @param {number} n @param {number} b
 * @returns {number}
 */
export function utf8Tail(u8, s, i, n, b) {
  const charCodeAt = String.prototype.charCodeAt;
  for (; i < n; i++) {
    let c = charCodeAt.call(s, i);
    if (c < 0x80) {
      u8[b++] = c;
    } else if (c < 0x800) {
      u8[b] = 0xc0 | (c >> 6);
      u8[b + 1] = 0x80 | (c & 0x3f);
      b += 2;
    } else {
      if ((c & 0xf800) === 0xd800) {
        const d = i + 1 < n ? charCodeAt.call(s, i + 1) : 0;
        if (c < 0xdc00 && (d & 0xfc00) === 0xdc00) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          u8[b] = 0xf0 | (c >> 18);
          u8[b + 1] = 0x80 | ((c >> 12) & 0x3f);
          u8[b + 2] = 0x80 | ((c >> 6) & 0x3f);
          u8[b + 3] = 0x80 | (c & 0x3f);
          b += 4;
          i++;
          continue;
        }
        c = 0xfffd;
      }
      u8[b] = 0xe0 | (c >> 12);
      u8[b + 1] = 0x80 | ((c >> 6) & 0x3f);
      u8[b + 2] = 0x80 | (c & 0x3f);
      b += 3;
    }
  }
  return b;
}

/**
 * A string of SHORT_STRING or more characters, its UTF-8 written by the platform (utf8Write or
 * encodeInto) or, in Node when it looks non-ASCII, by C from its units (utf8FromUnits).
 * @param {Tape} T @param {string} s @param {number} n s.length
 */
export function writeLongString(T, s, n) {
  const max = 3 * n;
  const units = T.nb !== null && !looksAscii(s, n);
  // with units: 12 bytes of slack after the UTF-8 (C writes whole vectors), then the units
  const words = 2 + ((max + 3) >> 2) + (units ? 4 + ((2 * n + 3) >> 2) : 0);
  if (T.p + words > T.cap) T.grow(words);
  const hdr = T.p;
  const esc = max >= ESC;
  const b = (hdr + (esc ? 2 : 1)) << 2;
  const len = units ? utf8FromUnits(T, s, b, max) : utf8Write(T, s, b, max);
  if (esc) {
    T.u32[hdr] = E_STR | (ESC << 8);
    T.u32[hdr + 1] = len;
    T.p = hdr + 2 + ((len + 3) >> 2);
  } else {
    T.u32[hdr] = E_STR | (len << 8);
    T.p = hdr + 1 + ((len + 3) >> 2);
  }
}

/**
 * Whether a long string looks ASCII, by 4 of its characters. Node's utf8Write copies ASCII (and
 * any one-byte string) at memcpy speed but transcodes two-byte strings a unit at a time, 2.2-6 ns
 * a unit on mixed text (Greek or Cyrillic between ASCII spaces, CJK with emoji); those go to
 * utf8FromUnits. A wrong guess costs speed, never correctness. (9 characters cost ~20 ns, 4% of
 * packing the varied suite's long ASCII texts; a text that is one third ASCII passes for ASCII
 * by 4 of them one time in 80.)
 * @param {string} s @param {number} n
 */
function looksAscii(s, n) {
  const charCodeAt = String.prototype.charCodeAt;
  const third = (n / 3) | 0;
  return (charCodeAt.call(s, 0) | charCodeAt.call(s, third) | charCodeAt.call(s, n - third) | charCodeAt.call(s, n - 1)) < 0x80;
}

/**
 * A long string's UTF-8 at `at` in Node: its UTF-16 units copied after the UTF-8's room (max + 12
 * bytes) with Buffer#ucs2Write, then transcoded by C with SIMD (1-1.2 ns a unit however mixed).
 * @param {Tape} T @param {string} s @param {number} at @param {number} max 3 * s.length
 */
function utf8FromUnits(T, s, at, max) {
  const n = s.length;
  const src = (at + max + 12 + 3) & ~3;
  const nb = /** @type {import('./runtime.js').NodeBuf} */ (T.nb);
  if (nb.ucs2Write(s, src, 2 * n) !== 2 * n) throw new Error('wirepack: string units not written');
  const len = /** @type {import('./runtime.js').Runtime} */ (T.rt).x.wpw_utf8_from_utf16(at, src, n);
  if (len > max) throw new Error('wirepack: string not transcoded');
  return len;
}

/** @param {Tape} T @param {string} s @param {number} at @param {number} max */
function utf8Write(T, s, at, max) {
  if (T.nb !== null) return T.nb.utf8Write(s, at, max);
  return textEncoder.encodeInto(s, T.u8.subarray(at, at + max)).written;
}

/** @param {Tape} T @param {number} tag @param {number} type @param {Uint8Array} data */
export function writeBytes(T, tag, type, data) {
  const n = data.length;
  if (n >= XBIN_MIN && tag === E_BIN && T.xok && T.xlen + n <= 0xffffffff) {
    // the bytes go straight from data to the result (emit); C writes the header and skips them
    if (T.p + 3 > T.cap) T.grow(3);
    const p = T.p;
    T.u32[p] = E_XBIN;
    T.u32[p + 1] = n;
    T.u32[p + 2] = 0;
    T.xbins.push(data);
    T.xslots.push(p + 2);
    T.xlen += n;
    T.p = p + 3;
    return;
  }
  const words = 3 + ((n + 3) >> 2);
  if (T.p + words > T.cap) T.grow(words);
  let p = T.p;
  if (tag === E_EXT) {
    T.u32[p] = E_EXT | (type << 8);
    T.u32[p + 1] = n;
    p += 2;
  } else if (n < ESC) {
    T.u32[p++] = tag | (n << 8);
  } else {
    T.u32[p] = tag | (ESC << 8);
    T.u32[p + 1] = n;
    p += 2;
  }
  T.u8.set(data, p << 2);
  T.p = p + ((n + 3) >> 2);
}

/** Bytes copied to the output as they are. @param {Tape} T @param {Uint8Array} data */
export function writeRaw(T, data) {
  writeBytes(T, E_RAW, 0, data);
}

/**
 * msgpackr's typed array extension (0x74): always an ext8/16/32 header, then the type code.
 * @param {Tape} T @param {Uint8Array} bytes @param {number} code
 */
function writeExtBuffer(T, bytes, code) {
  // the header and the bytes go straight into one RAW entry (no intermediate array)
  const m = bytes.length, n = m + 1;
  const len = (n < 0x100 ? 4 : n < 0x10000 ? 5 : 7) + m;
  const words = 2 + ((len + 3) >> 2);
  if (T.p + words > T.cap) T.grow(words);
  writeHeader(T, E_RAW, len);
  const p = T.p, u8 = T.u8;
  let b = p << 2;
  if (n < 0x100) {
    u8[b] = 0xc7; u8[b + 1] = n; b += 2;
  } else if (n < 0x10000) {
    u8[b] = 0xc8; u8[b + 1] = n >> 8; u8[b + 2] = n & 0xff; b += 3;
  } else {
    u8[b] = 0xc9; u8[b + 1] = n >>> 24; u8[b + 2] = (n >> 16) & 0xff; u8[b + 3] = (n >> 8) & 0xff; u8[b + 4] = n & 0xff; b += 5;
  }
  u8[b] = 0x74;
  u8[b + 1] = code;
  u8.set(bytes, b + 2);
  T.p = p + ((len + 3) >> 2);
}

/**
 * msgpackr's big-endian two's complement bytes of a BigInt beyond 64 bits (ext 0x42).
 * @param {bigint} v
 */
function bigIntBytes(v) {
  const neg = v < 0n;
  if (v >> 0x10000n === (neg ? -1n : 0n)) {
    // 64-bit chunks: as many as it takes for the top one to carry the sign
    /** @type {bigint[]} */
    const chunks = [];
    const empty = neg ? -1n : 0n;
    for (;;) {
      chunks.push(BigInt.asUintN(64, v));
      if ((v >> 63n) === empty) break;
      v >>= 64n;
    }
    const out = new Uint8Array(chunks.length * 8);
    for (let i = 0; i < chunks.length; i++) {
      const c = chunks[chunks.length - 1 - i];
      for (let j = 0; j < 8; j++) out[i * 8 + j] = Number((c >> BigInt(56 - 8 * j)) & 0xffn);
    }
    return out;
  }
  let hex = (neg ? ~v : v).toString(16);
  if (hex.length % 2) hex = '0' + hex;
  else if (parseInt(hex.charAt(0), 16) >= 8) hex = '00' + hex;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const b = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    out[i] = neg ? ~b & 0xff : b;
  }
  return out;
}

const TWO32 = 4294967296;

/** @param {Tape} T @param {Date} d */
export function writeDate(T, d) {
  const ms = d.getTime();
  if (ms !== ms) { T.u32[T.p++] = E_BADDATE; return; }
  const sec = Math.floor(ms / 1000);
  const nsec = (ms - sec * 1000) * 1000000;
  const u32 = T.u32, p = T.p;
  u32[p] = E_DATE;
  u32[p + 1] = sec >>> 0;                       // low word (two's complement)
  u32[p + 2] = Math.floor(sec / TWO32) >>> 0;   // high word
  u32[p + 3] = nsec;
  T.p = p + 4;
}

const I64_MIN = -(1n << 63n), U64_MAX = (1n << 64n) - 1n, TWO63 = 1n << 63n;

/** @param {Tape} T @param {bigint} v */
function writeBigInt(T, v) {
  if (v < I64_MIN || v > U64_MAX) {
    throw new RangeError(`${v} was too large to fit in MessagePack 64-bit integer format`);
  }
  const u32 = T.u32, p = T.p;
  // BigInts keep their 64-bit form so they decode back as BigInt (msgpackr does the same)
  u32[p] = v < TWO63 ? E_I64 : E_U64;
  put64(u32, p + 1, v);
  T.p = p + 3;
}

/**
 * Run the C encoder over the tape (in wasm memory already), and copy the bytes out.
 * @param {import('./runtime.js').Runtime} rt the instance the tape is in
 * @param {Tape} T
 * @param {number} cborFlags -1 for MessagePack, else WP_CBOR_* flags
 * @param {Packr | null} packr the packer, for a buffer given to useBuffer
 * @returns {Uint8Array}
 */
function emit(rt, T, cborFlags, packr) {
  const x = rt.x;
  const words = T.words();
  const utf8 = T.sbLen > 0 ? writeStrings(rt, T) : 0;
  const units = T.nb !== null ? T.sbLen : 0;
  // (CBOR: deterministic or indefinite-length encoding is an export of its own: wp_wasm.c)
  const xlen = T.xlen;
  const err = cborFlags < 0 ? x.wpw_encode(words, units, utf8, T.kw, xlen) : (cborFlags & CBOR_TRACKED) === 0 ? x.wpw_cbor_encode(words, cborFlags, units, utf8, T.kw, xlen) : x.wpw_cbor_encode_tracked(words, cborFlags, units, utf8, T.kw);
  rt.refresh();
  if (err !== 0) throw new Error(`wirepack: encoder failed (code ${err})`);
  const out = rt.u32[rt.res], n = rt.u32[rt.res + 1];
  if (packr !== null && packr.userBuffer !== null) {
    const ub = packr.userBuffer;
    const at = packr.userOffset;
    if (at + n <= ub.length) {
      if (xlen !== 0) copyWithXbins(rt, T, out, n, ub, at);
      else ub.set(rt.u8.subarray(out, out + n), at);
      packr.offset = at + n;
      packr.userOffset = (at + n + 7) & ~7;
      return ub.subarray(at, at + n);
    }
    packr.userBuffer = null;
  }
  const plain = packr !== null && packr.plainResult;
  if (xlen !== 0) {
    // (at least XBIN_MIN bytes: a result of its own, never cut from a slab)
    const r = NodeBuffer !== undefined && !plain ? NodeBuffer.allocUnsafe(n) : new Uint8Array(n);
    copyWithXbins(rt, T, out, n, r, 0);
    return r;
  }
  return copyOut(rt, out, n, plain);
}

/**
 * Copy n result bytes at wasm address out into dst at `at`, and the call's XBIN values into the
 * gaps C left for them (at the offsets it wrote into their tape words), so that no byte of the
 * result is left unwritten. Neither the values nor the gaps are read from wasm memory: a 100 MB
 * binary is copied once, from the caller's bytes to the result, and never faulted into memory.
 * @param {import('./runtime.js').Runtime} rt @param {Tape} T @param {number} out @param {number} n
 * @param {Uint8Array} dst @param {number} at
 */
function copyWithXbins(rt, T, out, n, dst, at) {
  const u8 = rt.u8, u32 = rt.u32, bins = T.xbins, slots = T.xslots;
  let from = 0; // result offset copied up to
  for (let k = 0; k < bins.length; k++) {
    const b = bins[k], off = u32[slots[k]], len = u32[slots[k] - 1];
    // a value user code detached or shrank during the walk would leave bytes unwritten
    if (b.length !== len || off < from || off + len > n) throw new Error('wirepack: a binary value changed size while it was being encoded');
    copyBytes(u8, out + from, dst, at + from, off - from);
    dst.set(b, at + off);
    from = off + len;
  }
  copyBytes(u8, out + from, dst, at + from, n - from);
}

/**
 * Copy n bytes from src at s to dst at d: a loop below SET_FROM bytes (a subarray to make, then
 * a memmove, costs more there).
 * @param {Uint8Array} src @param {number} s @param {Uint8Array} dst @param {number} d @param {number} n
 */
function copyBytes(src, s, dst, d, n) {
  if (n >= SET_FROM) dst.set(src.subarray(s, s + n), d);
  else for (let i = 0; i < n; i++) dst[d + i] = src[s + i];
}

/**
 * Results of up to SLAB_MAX bytes are views cut from a shared slab (Buffers in Node, made as
 * Node makes its own: BufferView), as Node's Buffer.allocUnsafe cuts small Buffers from its pool
 * (and msgpackr its results from its buffer): V8 keeps typed arrays over 64 bytes off its heap,
 * so a fresh Uint8Array (or slice) per result costs an allocation of its own, and a view of a
 * slab does not; and the slab's word view is at hand, where a pooled Buffer's needs two getters
 * (and allocUnsafe itself costs more than the view). A result keeps at most its SLAB-byte slab
 * alive, as a result of msgpackr's keeps its whole buffer. Results never share bytes with each
 * other or with wasm memory.
 *
 * In Node the slab is 64 KB from Buffer.allocUnsafeSlow (as msgpackr's and cbor-x's buffers, and
 * Node's own pool, not zero-filled: its bytes outside the results are whatever the allocator
 * left, seen only through a result's `buffer`) and serves results of up to 8 KB. An 8 KB
 * `new ArrayBuffer` took 1.5-1.65 us (zero-filled), a 64 KB allocUnsafeSlow 1.1-1.2 us: a
 * 48-byte result paid ~9 ns of it, now ~1; and results of 1-8 KB were Buffers of their own
 * (~0.8 us each). bench/ab.js --mode=peer, 8 processes, the ratio to msgpackr / cbor-x against
 * the 8 KB slabs': sample-small 1.058 (CBOR 1.018), sample-datatypes 1.069 (CBOR 1.103), example4
 * 1.077, the fluentd stream's packs 1.031; paired, records example4 1.045.
 */
const SLAB = 65536, SLAB_MAX = NodeBuffer ? 8192 : 16384, SET_FROM = 384;
// (Without Buffer the slab is 64 KB and serves results of up to 16 KB: in Chromium, here, an
// ArrayBuffer costs 2 µs to allocate at 1 KB and 30-100 µs at 8 KB and up (the GCs it brings on
// included), so a result of its own, or a new 8 KB slab every 26 results of 300 bytes, cost more
// than the rest of a small pack: Chromium 1.0-1.3x on the fixtures. 256 KB slabs measured the
// same, 1 MB ones 0.54-0.67x. A small result can then keep 64 KB alive, as a result of msgpackr's
// keeps its whole buffer.)
/**
 * Without Buffer, a result of at most HEAP_MAX bytes is a Uint8Array of its own, which V8 keeps
 * in its JS heap (typed arrays of up to 64 bytes have no separate backing store): the slab's
 * bytes are fresh memory, ~15 µs a 4 KB page in Chromium here, which a 48-byte result paid ~0.2
 * µs of. Chromium, toggled in one page: sample-small pack 1.26-1.45x (CBOR 1.13-1.27x), a small
 * object with two strings 1.22-1.26x, fluentd 0.93-1.14x, pack(1) and {a, b} 0.98-1.58x. In
 * Node the slab view stays (on-heap Buffers measured 0.82-0.89x there).
 */
const HEAP_MAX = 64;
/** How results are cut (SLAB, SLAB_MAX, HEAP_MAX in this environment), for the browser bench's result-memory measurement. */
export const RESULT_CUTS = Object.freeze({ slab: SLAB, slabMax: SLAB_MAX, heapMax: HEAP_MAX });
/**
 * Binary values of at least XBIN_MIN bytes go as XBIN entries (MessagePack and the plain CBOR
 * encoder): copied once, from the caller's bytes into the result, where the tape held a copy that
 * C copied again before. A result with XBIN entries gets memory of its own (emit), whatever its
 * size: without Buffer, where that memory costs microseconds, only results above SLAB_MAX have
 * them; in Node, binaries of 4 KB and up (Buffer.allocUnsafe's own cost is small there).
 */
const XBIN_MIN = NodeBuffer ? 4096 : SLAB_MAX + 1;
/**
 * A new slab: from Buffer.allocUnsafeSlow where the runtime's Buffer has it and gives a whole
 * ArrayBuffer of its own (Node, Deno, Bun), else a zero-filled ArrayBuffer (browsers; a Buffer
 * polyfill without it, or one whose Buffers share a larger ArrayBuffer).
 * @type {() => ArrayBuffer}
 */
const newSlab = (() => {
  const B = /** @type {any} */ (NodeBuffer);
  if (B !== undefined && typeof B.allocUnsafeSlow === 'function') {
    try {
      const b = B.allocUnsafeSlow(SLAB);
      if (b.byteOffset === 0 && b.buffer instanceof ArrayBuffer && b.buffer.byteLength === SLAB) return () => B.allocUnsafeSlow(SLAB).buffer;
    } catch {
      // (a polyfill that throws: zero-filled slabs)
    }
  }
  return () => new ArrayBuffer(SLAB);
})();
/** @type {ArrayBuffer | null} */
let slab = null;
let slabU32 = new Uint32Array(0);
let slabOff = SLAB;

/**
 * Copy n result bytes at wasm address out (4-aligned) into a new Buffer (Node) or Uint8Array.
 * @param {import('./runtime.js').Runtime} rt @param {number} out @param {number} n
 * @param {boolean} plain a Uint8Array where Buffer exists too
 * @returns {Uint8Array}
 */
function copyOut(rt, out, n, plain) {
  if (n <= HEAP_MAX && BufferView === null) {
    const r = new Uint8Array(n), u8 = rt.u8;
    for (let i = 0; i < n; i++) r[i] = u8[out + i];
    return r;
  }
  if (n <= SLAB_MAX) {
    const s = slabCopy(rt.u32, out >> 2, n);
    return BufferView !== null && !plain ? new BufferView(s, slabAt, n) : new Uint8Array(s, slabAt, n);
  }
  if (NodeBuffer === undefined || plain) return rt.u8.slice(out, out + n);
  const b = NodeBuffer.allocUnsafe(n);
  b.set(rt.u8.subarray(out, out + n));
  return b;
}

/**
 * Copy n words from src at s to dst at d, four to an iteration: a word a step costs ~1 ns a word
 * in V8 (a 45-word result 46 ns), four a step 25-40% less.
 * @param {Uint32Array} src @param {number} s @param {Uint32Array} dst @param {number} d @param {number} n
 */
function copyWords(src, s, dst, d, n) {
  const e = s + (n & ~3);
  for (; s < e; s += 4, d += 4) {
    const a = src[s], b = src[s + 1], c = src[s + 2], x = src[s + 3];
    dst[d] = a; dst[d + 1] = b; dst[d + 2] = c; dst[d + 3] = x;
  }
  for (let k = 0; k < (n & 3); k++) dst[d + k] = src[s + k];
}

/** The byte offset in the slab of the last slabCopy. */
let slabAt = 0;

/**
 * Copy n bytes (from word s of src) into the slab (a new one when they do not fit, or when the
 * slab was detached: a result's ArrayBuffer transferred to a worker, or given to
 * ArrayBuffer#transfer, takes the slab with it, and every later result would otherwise be a
 * view of a detached buffer, which throws), at slabAt.
 * @param {Uint32Array} src @param {number} s @param {number} n
 * @returns {ArrayBuffer} the slab
 */
function slabCopy(src, s, n) {
  let at = slabOff;
  if (slab === null || at + n > SLAB || slabU32.length === 0) {
    slab = newSlab();
    slabU32 = new Uint32Array(slab);
    at = 0;
  }
  const dst = slabU32, d = at >> 2, words = (n + 3) >> 2;
  // a word loop, up to where set() of a subarray (a view to make, then a memmove) costs less:
  // 159 bytes 0.93x with set(), 500 bytes 1.10x, 1000 bytes 1.32x
  if (n >= SET_FROM) dst.set(src.subarray(s, s + words), d);
  else copyWords(src, s, dst, d, words);
  slabOff = (at + n + 7) & ~7;
  slabAt = at;
  return slab;
}
