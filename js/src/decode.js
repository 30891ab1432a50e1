// @ts-check
/**
 * Decoding: C parses the bytes into a tape in wasm memory (csrc/wirepack.h, TAPE FORMAT), and
 * the runtime's TapeReader, set up afresh for that one call, builds the JS values from it. No call crosses the
 * boundary per value; strings come from two joined areas decoded once per message.
 */
import { DecodeError, ERROR_NAMES } from './errors.js';
import { registry, unpackExtensions, NATIVE_TIMESTAMP } from './ext.js';
import { BufferView, acquire, release, releaseMemory } from './runtime.js';
import { pointerAt, readExt, readPrefixExt, syncExtConfig, typedArrayAt, EXTS_CODEC, EXTS_CODEC_TS } from './unpack-ext.js';

const NodeBuffer = /** @type {typeof Buffer | undefined} */ (globalThis.Buffer);

// Decode flags (csrc/wirepack.h)
const F_MAPS_AS_OBJECTS = 1;
const F_MULTIPLE = 2;
const F_TAG_F32 = 8;
const F_REC_STRICT = 16;
const F_BUNDLES = 32;
/** WP_DEC_MP_STRICT_KEYS, WP_DEC_MP_RAW_STRINGS: msgpack-javascript's rules (an Unpackr with an extensionCodec) */
const F_STRICT_KEYS = 4096, F_RAW_STRINGS = 8192, F_NO_INT64_KEYS = 16384;
/** WP_DEC_MP_C1_UNDEFINED: 0xc1 is undefined (json-pack's rule; an Unpackr with undefinedC1) */
const F_C1_UNDEFINED = 32768;
/**
 * Short ASCII string values through C's value cache (csrc/wirepack.h wp_tables.vc_*): a value
 * seen a second time in a slot is kept there, and its VSTR entry names the slot and the stamp its
 * bytes got; the runtime keeps (stamp, string) per slot, so the string is made once while it stays
 * (a stamp it does not hold: made from the slot's bytes, which no later entry of the call changes).
 * Only for inputs of at most VC_INPUT_MAX bytes: there a string is otherwise made by
 * String.fromCharCode from its bytes (21 bytes: 25 ns), where a hit costs a load and a compare;
 * in larger inputs strings are slices of one decode of the area, and C's lookups cost more than
 * they save (strings-short-ascii 0.88x, records-one-shape 0.86x with the cache on for them).
 * In one process, old and new alternating: sample-small 1.36-1.48x, sample-medium 1.42-1.56x
 * (CBOR 1.19-1.31x, 1.25-1.33x), the fluentd message 1.03-1.2x, the varied small-messages stream
 * (fresh values) 0.99-1.02x.
 */
const F_VCACHE = 64;
/** The lowest of wp_cbor.c's marker tags, 0xffffffff_fffd0000 (a bundle's): its low word. */
export const MARK_FIRST_LO = 0xfffd0000;
/** C makes CBOR tag 1 over a number a Date entry (WP_DEC_CBOR_DATES): when decodeTag's own handling decides tag 1. */
export const F_CBOR_DATES = 128;
/** C makes a CBOR record defined where it appears a CREC entry (WP_DEC_CBOR_RECS): when the Decoder builds those itself. */
export const F_CBOR_RECS = 256;
/** Long non-ASCII strings as STR8 entries (WP_DEC_UTF8_HOST), made by Buffer#utf8Slice (runtime.js FAST_UTF8). */
const F_UTF8_HOST = 512;
/** WP_DEC_CBOR_SHARED: a Decoder with sharedValues (packed references as map keys are strings) */
export const F_CBOR_SHARED = 1024;
/**
 * WP_DEC_CBOR_PACKED: packed references are the Decoder's own (tag 6 decided by the built-in
 * decodeTag), so C may intern one that is a map key as the table string it stands for
 */
export const F_CBOR_PACKED = 2048;
const VC_INPUT_MAX = 4096;
/** C error code for an undefined record id (csrc/wirepack.h) */
const E_UNKNOWN_RECORD = 105;
/** record table (csrc/wirepack.h): high-byte flag of an entry; first slot of negative ids */
const REC_HB0 = 0x80000000;
const REC_NEG = 8224;
const RECDEF_HB0 = 0x100000;

export const DEFAULT_MAX_DEPTH = 1000;
/** Tables are emptied before a call when fuller than this (in 1/1024ths). */
const TABLE_RESET_FILL = 960;
/**
 * Shapes get a generated constructor on their third use within one call (arrays of like objects,
 * records), or on their third use over all calls while fewer than CODEGEN_MAX shapes of the
 * runtime have one. A constructor pays off only once the engine has optimized it: thousands of
 * shapes each built once per message (a deep tree of varied objects) made 1,700 cold functions
 * and decoded at half the speed of building them key by key.
 */
const CODEGEN_IN_CALL = 2, CODEGEN_AFTER = 2, CODEGEN_MAX = 256;
/**
 * Past CODEGEN_MAX, the third use within a call compiles a shape only once it has built more than
 * CODEGEN_PAST_CAP objects in all (over calls, since the tables last started again). A message can
 * bring thousands of shapes used three times each (an array of small maps over every pair of 64
 * keys: 130 KB, 4,032 shapes), and each then cost a `new Function` (tens of microseconds) to
 * build three objects: 46-200 ms a call where the eval-free path took 4-19 (tables fill and start
 * again, so every call compiled them anew). Bounded so, every constructor compiled past the cap
 * has built that many objects first, whether in one call (an array of records) or over a stream
 * of small messages that use the shape a few times each (the varied suite's
 * small-messages-records, which a bound on the uses in one call alone left uncompiled: 0.71x
 * cbor-x in a full run).
 */
const CODEGEN_PAST_CAP = 64;
/**
 * Past CODEGEN_MAX, a shape still gets a constructor once it has been built CODEGEN_HOT times
 * over all calls, when it is built from an input of at most CODEGEN_HOT_INPUT bytes: a stream of
 * small messages whose shapes come after the runtime's first CODEGEN_MAX (the varied suite's
 * small-messages-records CBOR decode after its earlier categories: 1.1-1.25x as long without). A
 * large document of thousands of shapes, each built once a call (the cold functions above), never
 * qualifies, however often it is decoded: compiling every shape of the varied suite's deep-wide
 * once hot made its decode 20-30% slower for seconds.
 */
const CODEGEN_HOT = 1024, CODEGEN_HOT_INPUT = 4096;
/**
 * A generated constructor is made again, reading the common scalars itself (compileShape), when
 * it builds more than FAST_IN_CALL objects in one call (an array of records), or has built
 * FAST_AFTER over all calls while the runtime has at most FAST_FEW generated constructors; for at
 * most FAST_MAX shapes of a runtime. That form is 20 times the code per key, slower until the
 * engine has optimized it: given to every shape after a number of uses over all calls, the 250
 * shapes of the varied suite's records-many-shapes (most built once or twice a call) decoded at
 * 0.4-0.9x for the first second. Measured: records-one-shape 11-16% faster, example4 4-8%.
 */
const FAST_IN_CALL = 64, FAST_MAX = 64, FAST_AFTER = 1024, FAST_FEW = 64;
/**
 * ASCII strings up to SHORT_ASCII bytes, outside the current chunk of the area, when at most
 * SHORT_AREA bytes of the area are left, are made from their bytes by one String.fromCharCode
 * call (7-36 ns in Node 20 up to 16 bytes, 60-100 ns at 24-32) instead of starting a chunk (one
 * latin1 decode: 100-160 ns however short): a small message needs no area decode at all. With
 * more of the area left, one chunk and a slice per string (10-30 ns) cost less. Without Buffer
 * the chunk is a TextDecoder call, ~500 ns however short in Chromium (fromCharCode ~4.4 ns a
 * byte, a slice 26 ns), so there the bound is 256 bytes, about where the two cost the same for
 * strings of 8-16 bytes (Chromium, sample-medium 1.49-1.53x, the other fixtures within noise).
 *
 * Without Buffer, longer ASCII strings (up to SHORT_JOIN bytes) are also made from their bytes,
 * as SHORT_ASCII-byte pieces joined, while at most JOIN_AREA bytes of the area are left: a
 * TextDecoder call there costs about as much as joining 140-160 bytes (~3 ns a byte). Chromium,
 * toggled in one page: strings.json decode 1.06-1.29x (MessagePack and CBOR), one 100-byte
 * string 1.5-1.9x, 160-byte areas of 2-4 strings 1.17-1.47x; with 256 (6 strings of 40 bytes)
 * 0.82-0.88x, so not there.
 */
const SHORT_ASCII = 32, SHORT_AREA = NodeBuffer ? 64 : 256, SHORT_JOIN = NodeBuffer ? 0 : 128, JOIN_AREA = 160;
/**
 * Other strings (UTF-16 units from C) the same way, by their units, while at most UNIT_AREA units
 * are left: in Node SHORT_ASCII (all the strings left then take one fromCharCode call each; at
 * 64 a chunk after a short string cost more than one chunk for all), without Buffer the ASCII
 * bounds (JOIN_AREA left, joined up to SHORT_JOIN). A small object with two short accented
 * strings decodes 1.27-1.43x faster in Node (CJK and emoji 1.13-1.37x), 2.2-2.8x in Chromium;
 * two strings of 150 units in Chromium 1.3-1.4x; fixtures without such strings unchanged (two
 * copies loaded in both orders).
 */
const UNIT_AREA = NodeBuffer ? SHORT_ASCII : JOIN_AREA, SHORT_UNITS = NodeBuffer ? SHORT_ASCII : SHORT_JOIN;
/**
 * Bytes of string area made into one JS string at a time. Below V8's large-object size (a
 * 240 KB one-byte string took 8x as long to make as two of 120 KB), and the most a decoded
 * string (a slice of its chunk) can keep alive beyond itself.
 */
const STRING_CHUNK = 1 << 15;

/**
 * @typedef {object} UnpackOptions
 * @property {boolean} [mapsAsObjects] string-keyed maps become plain objects (default true);
 *   a map with any non-string key is always a Map, so no key is converted or lost
 * @property {'number' | 'bigint' | 'string' | 'auto'} [int64AsType] how uint64/int64 values
 *   decode (default 'bigint', as msgpackr)
 * @property {number} [useFloat32] msgpackr's FLOAT32_OPTIONS: DECIMAL_ROUND (3) and
 *   DECIMAL_FIT (4) round decoded float32 values to their significant decimal digits
 * @property {number} [maxDepth] maximum nesting of arrays and maps (default 1000)
 * @property {boolean} [codegen] allow generated object constructors when the platform permits
 *   code generation (default true); false always uses the eval-free path
 * @property {boolean | ((value: object) => boolean)} [useRecords] records (msgpackr's record
 *   extension) are always decoded; this option matters to Packr, and `useRecords: false` makes
 *   maps decode as objects unless mapsAsObjects says otherwise (msgpackr's rule)
 * @property {(string[] & {sharedLength?: number, uninitialized?: boolean})} [structures] shared
 *   record structures (msgpackr's): index = record id - 0x40
 * @property {() => any} [getStructures] loads shared structures when an undefined record id is met
 * @property {(structures: any, isCompatible?: any) => boolean | void} [saveStructures] (Packr)
 * @property {boolean} [sequential] records defined in one message stay defined for the next
 * @property {boolean} [trusted] keep record definitions across calls (set by sequential)
 * @property {number} [maxSharedStructures] (Packr)
 * @property {number} [maxOwnStructures] (Packr)
 * @property {boolean} [structuredClone] false refuses the structured-clone extensions 0x69/0x70
 * @property {boolean} [moreTypes] (Packr: the decoder always reads every msgpackr type)
 * @property {boolean} [int64AsNumber] msgpackr's older spelling of int64AsType: 'number'
 * @property {boolean} [copyBuffers] binary values (and extension data) are copies; by default
 *   they are views of the input (subarrays of the bytes given to unpack), as in msgpackr
 * @property {boolean} [allowArraysInMapKeys] record keys that are arrays of primitives become
 *   their comma-joined string (msgpackr)
 * @property {number} [maxArrayLength] policy limit on declared array lengths (default: none)
 * @property {number} [maxMapLength] policy limit on declared map sizes, in entries (default: none)
 * @property {number} [maxStrLength] policy limit on string byte lengths, keys included (default: none)
 * @property {number} [maxBinLength] policy limit on binary lengths (default: none)
 * @property {number} [maxExtLength] policy limit on extension payloads (default: none)
 * @property {number} [maxBytes] largest input accepted (default 256 MiB)
 * @property {boolean} [freezeData] decoded arrays and plain objects (records too) are frozen,
 *   through Maps and Sets (msgpackr's option; see freezeDecoded)
 * @property {ExtensionCodecLike} [extensionCodec] msgpack-javascript's decoding (what
 *   wirepack/msgpack's Decoder sets): every extension goes to this codec, none of msgpackr's
 * @property {unknown} [context] passed to the extension codec
 * @property {(key: unknown) => string | number} [mapKeyConverter] with extensionCodec: every map
 *   key goes through it (by default keys must be strings or numbers)
 * @property {boolean} [rawStrings] with extensionCodec: string values (not keys) are bytes
 * @property {boolean} [strictKeys] with extensionCodec: map keys must be strings or numbers
 *   (default true; false: msgpackr's rule, as json-pack's decoding in wirepack/json-pack)
 * @property {boolean} [inputViews] binaries are views of the input as given (a Uint8Array for a
 *   Uint8Array), not Buffers (Node), as msgpack-javascript and json-pack give them (default:
 *   with extensionCodec)
 * @property {boolean} [undefinedC1] 0xc1, a byte MessagePack reserves, is undefined (json-pack
 *   writes undefined so; wirepack/json-pack's decoders), instead of a DecodeError
 */

/**
 * What the decoder needs of an extension codec (msgpack-javascript's ExtensionCodecType).
 * [NATIVE_TIMESTAMP] true: the codec's decoder for -1 is the standard timestamp one (C makes
 * the Date).
 * @typedef {{decode(data: Uint8Array, type: number, context: any): unknown, [NATIVE_TIMESTAMP]?: boolean}} ExtensionCodecLike
 */

/** Default maxBytes: 256 MiB (decoding takes up to about 13 bytes of wasm memory per input byte). */
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

/* ------------------------------------------------------------------ code generation probe */

/** @type {boolean | null} */
let codegenAllowed = null;
/**
 * The global set by importing a `-no-eval` path (js/src/*-no-eval.*.js: wirepack/index-no-eval,
 * wirepack/cbor/index-no-eval and their aliases, as msgpackr's and cbor-x's index-no-eval
 * builds): no code generation from then on in the process or page, whatever a decoder's `codegen`
 * option says, and no probe (a CSP without unsafe-eval reports even a refused one). A global, not
 * a variable here, so that it holds for every copy of this module (Node's CommonJS bundle and its
 * ES modules are two).
 */
const NO_EVAL = Symbol.for('wirepack.noEval');
/**
 * Whether `new Function` may be used: not after a `-no-eval` import, nor where the platform
 * refuses it (a CSP without unsafe-eval; probed once). Asked only when a constructor is about to
 * be generated.
 */
export function canCodegen() {
  if (codegenAllowed === false) return false;
  if (/** @type {any} */ (globalThis)[NO_EVAL] === true) {
    codegenAllowed = false;
    return false;
  }
  if (codegenAllowed === null) {
    try {
      codegenAllowed = new Function('return 1')() === 1;
    } catch {
      codegenAllowed = false;
    }
  }
  return codegenAllowed;
}

/* ------------------------------------------------------------------ shapes */

/** @param {Record<string, unknown>} o @param {string} k @param {unknown} v */
function defineOwn(o, k, v) {
  Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
}

/** One interned key sequence; builds objects with those keys from the tape. */
export class Shape {
  /**
   * @param {string[]} keys
   * @param {boolean} [rec] a record: its values are on the tape without KEY words
   */
  constructor(keys, rec) {
    this.keys = keys;
    this.step = rec ? 0 : 1;
    this.uses = 0;
    /** objects built past a call's second use of the shape, over calls (CODEGEN_PAST_CAP) */
    this.builds = 0;
    /** the call (Runtime#calls) of the last use, and the uses within it */
    this.call = -1;
    this.callUses = 0;
    /** @type {((r: TapeReader) => Record<string, unknown>) | null} */
    this.ctor = null;
    this.hasProto = keys.includes('__proto__');
    /** whether an object of this shape was built before (see build) */
    this.seen = false;
    /** objects the generated constructor built in the call `call` (-1: it reads scalars itself) */
    this.hot = 0;
    /** a record shape made for one of an Unpackr's structures: that structure (key array) */
    /** @type {string[] | null} */
    this.src = null;
  }

  /** @param {TapeReader} r */
  build(r) {
    // (an Unpackr with codegen: false never runs generated code, not even a constructor another
    // one made for the shape: its objects are what the eval-free path builds)
    if (r.codegen) {
      if (this.ctor !== null) {
        if (this.hot >= 0) {
          if (this.call !== r.call) {
            this.call = r.call;
            this.hot = 0;
          }
          if ((++this.hot > FAST_IN_CALL || (++this.uses > FAST_AFTER && r.rt.compiled <= FAST_FEW)) && r.rt.fast < FAST_MAX && canCodegen()) {
            r.rt.fast++;
            this.ctor = compileShape(this.keys, this.step, true);
            this.hot = -1;
          }
        }
        return this.ctor(r);
      }
      const rt = r.rt;
      if (this.call !== r.call) {
        this.call = r.call;
        this.callUses = 0;
      }
      if (((++this.callUses > CODEGEN_IN_CALL && (rt.compiled < CODEGEN_MAX || ++this.builds > CODEGEN_PAST_CAP)) ||
        (++this.uses > CODEGEN_AFTER && (rt.compiled < CODEGEN_MAX || (this.uses > CODEGEN_HOT && r.input.length <= CODEGEN_HOT_INPUT)))) && canCodegen()) {
        rt.compiled++;
        if (this.callUses > FAST_IN_CALL && rt.fast < FAST_MAX) {
          // (past the cap: already as hot as the second constructor asks)
          rt.fast++;
          this.hot = -1;
          this.ctor = compileShape(this.keys, this.step, true);
        } else {
          this.ctor = compileShape(this.keys, this.step);
        }
        return this.ctor(r);
      }
    }
    const keys = this.keys, step = this.step;
    if (!this.seen) {
      // The first object of a shape is built in dictionary mode, then given its prototype: adding
      // keys one by one to a plain object makes the engine create (and keep) a hidden class per
      // key, which for keys never seen before costs ~5 us per object and, over a stream of
      // distinct keys, fills the shared transition trees. A shape seen again is built as usual
      // (then by a generated constructor). Keyed stores on a null prototype make any key, also
      // __proto__, an own property.
      this.seen = true;
      /** @type {Record<string, unknown>} */
      const d = { __proto__: null };
      for (let i = 0; i < keys.length; i++) {
        r.t += step;
        d[keys[i]] = r.v();
      }
      return Object.setPrototypeOf(d, Object.prototype);
    }
    /** @type {Record<string, unknown>} */
    const o = {};
    if (this.hasProto) {
      for (let i = 0; i < keys.length; i++) {
        r.t += step;
        defineOwn(o, keys[i], r.v());
      }
    } else {
      for (let i = 0; i < keys.length; i++) {
        r.t += step;
        o[keys[i]] = r.v();
      }
    }
    return o;
  }
}

/**
 * The source of an object literal with these keys, the value of key i being value(i): the engine
 * builds the object with its final hidden class at once. Keys are JSON-quoted (no injection);
 * `__proto__` is written as a computed key, which defines an own property. For shapes (below)
 * and CBOR records (cbor.js).
 * @param {string[]} keys
 * @param {(i: number) => string} value
 */
export function objectLiteral(keys, value) {
  let src = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    src += (i ? ',' : '') + (k === '__proto__' ? '["__proto__"]' : JSON.stringify(k)) + ':' + value(i);
  }
  return src + '}';
}

/**
 * A constructor for one shape (objectLiteral).
 * @param {string[]} keys
 * @param {number} step words before each value (1: a KEY word; 0: records)
 * @param {boolean} [fast] read the tape entries most values are (an ASCII string of less than
 *   0xffffff bytes, a 24-bit integer, a float, null: TapeReader#v's cases 9, 3, 6 and 0) in the
 *   constructor, call the string readers of the value cache's and bundled strings (cases 34 and
 *   31) directly, and only the others through r.v() (for hot shapes: FAST_IN_CALL). The direct
 *   calls, against r.v() for them: the stream chunk's decode 1.02-1.03x (both formats), example4
 *   with bundled strings 1.02-1.03x (paired, 4 processes).
 */
function compileShape(keys, step, fast) {
  const value = (step ? 'r.t++,' : '') + (fast ? '(x=w[r.t],(x&255)===9&&x!==-247?(r.t++,r.stra(x>>>8)):(x&255)===3?(r.t++,x>>8):(x&255)===6?(a=(r.t+2)&~1,r.t=a+2,f[a>>1]):x===0?(r.t++,null):(x&255)===34?(r.t++,r.vstr(x)):(x&255)===31?(r.t++,r.bref(x)):r.v())' : 'r.v()');
  // (-247: the word of a STRA entry whose length is in the next word, 0xffffff09 as an int32)
  const head = fast ? 'const w=r.w,f=r.f;let x,a;return' : 'return';
  return /** @type {(r: TapeReader) => Record<string, unknown>} */ (new Function('r', head + objectLiteral(keys, () => '(' + value + ')')));
}

/* ------------------------------------------------------------------ records */

/** The record shapes made for each structure (key array) an Unpackr was given. */
/** @type {WeakMap<string[], Shape>} */
const structureShapes = new WeakMap();
/** Record shapes by their keys, so definitions repeated in every message reuse constructors. */
const RECORD_CACHE_MAX = 4096;

/** Record slots below this remember the shape of their last definition (Runtime#recLast). */
const REC_LAST_SLOTS = 1024;

/**
 * The shape for a record's keys: the last one defined in the same slot when the keys are the
 * same (messages that define their records again, as bundled strings do, define the same keys in
 * the same slots), else the one cached by the keys' text on the runtime. Comparing the keys costs
 * a string compare each; the text cache's JSON and its hash cost ~0.8 us for a 20-key definition,
 * 45% of example4's bundled-strings decode.
 * @param {import('./runtime.js').Runtime} rt
 * @param {string[]} keys
 * @param {number} slot
 */
function recordShape(rt, keys, slot) {
  const last = slot < REC_LAST_SLOTS ? rt.recLast || (rt.recLast = new Array(REC_LAST_SLOTS).fill(null)) : null;
  if (last !== null) {
    const s = last[slot];
    if (s !== null && sameKeys(s.keys, keys)) return s;
  }
  const cache = rt.recShapes || (rt.recShapes = new Map());
  const id = JSON.stringify(keys); // unambiguous, whatever the keys contain
  let shape = cache.get(id);
  if (shape === undefined) {
    if (cache.size >= RECORD_CACHE_MAX) cache.clear();
    shape = new Shape(keys, true);
    cache.set(id, shape);
  }
  if (last !== null) last[slot] = shape;
  return shape;
}

/** Whether two key lists hold the same strings in the same order. @param {string[]} a @param {string[]} b */
export function sameKeys(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A record key as msgpackr makes it (asSafeString): strings stay, numbers, booleans and BigInts
 * become their text, null and undefined 'null'/'undefined', arrays of primitives their joined text
 * when allowArraysInMapKeys; anything else is an error.
 * @param {unknown} k
 * @param {Unpackr} opts
 * @param {number} [at] input offset of the definition (for the error)
 * @returns {string}
 */
function recordKey(k, opts, at = 0) {
  if (typeof k === 'string') return k;
  if (typeof k === 'number' || typeof k === 'boolean' || typeof k === 'bigint') return k.toString();
  if (k == null) return k + '';
  if (opts.allowArraysInMapKeys && Array.isArray(k) && k.flat().every((x) => ['string', 'number', 'boolean', 'bigint'].includes(typeof x))) {
    return k.flat().toString();
  }
  throw new DecodeError('BAD_RECORD', at, `Invalid record key type: ${typeof k}`);
}

/** @param {number} id msgpackr structure id @returns {number} slot */
const slotOf = (id) => (id >= 0 ? id : REC_NEG - id);
/** @param {number} slot @returns {number} msgpackr structure id */
const idOf = (slot) => (slot < REC_NEG ? slot : REC_NEG - slot);

/**
 * Load an Unpackr's structures into the C record table (and clear what another left there).
 * @param {import('./runtime.js').Runtime} rt
 * @param {Unpackr} u
 * @param {boolean} multiple
 */
function loadRecords(rt, u, multiple) {
  const loaded = rt.recLoaded;
  const R = rt.u32, table = rt.recTable;
  if (loaded.length !== 0) {
    for (let i = 0; i < loaded.length; i++) R[table + loaded[i]] = 0;
    loaded.length = 0;
  }
  const st = u.structures;
  if (!st) return;
  // msgpackr: a call starts with only the shared structures unless definitions are trusted
  if (!u.trusted && !multiple) {
    const shared = st.sharedLength || 0;
    if (shared < st.length) st.length = shared;
  }
  for (let i = 0; i < st.length; i++) {
    const keys = st[i];
    if (!Array.isArray(keys)) continue;
    R[table + i] = (keys.length + 1) | (/** @type {any} */ (keys).highByte === 0 ? REC_HB0 : 0);
    loaded.push(i);
  }
}

/* ------------------------------------------------------------------ strings */

// (ignoreBOM: a decoder that is not told so drops a leading U+FEFF, which here is the first
// character of a key or of a slice of a string area, never a byte-order mark)
const latin1Decoder = NodeBuffer ? null : new TextDecoder('latin1');
const utf16Decoder = NodeBuffer ? null : new TextDecoder('utf-16le', { ignoreBOM: true });
const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * @param {import('./runtime.js').Runtime} rt
 * @param {number} p byte address
 * @param {number} n bytes
 */
function latin1(rt, p, n) {
  return rt.nb !== null ? rt.nb.latin1Slice(p, p + n) : /** @type {TextDecoder} */ (latin1Decoder).decode(rt.u8.subarray(p, p + n));
}

/**
 * @param {import('./runtime.js').Runtime} rt
 * @param {number} p byte address
 * @param {number} n UTF-16 units
 */
function utf16(rt, p, n) {
  return rt.nb !== null ? rt.nb.ucs2Slice(p, p + 2 * n) : /** @type {TextDecoder} */ (utf16Decoder).decode(rt.u16.subarray(p >> 1, (p >> 1) + n));
}

const fcc = String.fromCharCode;

/**
 * An ASCII string of at most SHORT_ASCII bytes (or a string of as many UTF-16 units), by one
 * fromCharCode call with its bytes (units) as arguments (a loop of += is 4x slower; apply on a
 * subarray 5x).
 * @param {Uint8Array | Uint16Array} u8 @param {number} p byte (unit) index @param {number} n length
 * @returns {string}
 */
function shortAscii(u8, p, n) {
  switch (n) {
    case 0: return '';
    case 1: return fcc(u8[p]);
    case 2: return fcc(u8[p], u8[p + 1]);
    case 3: return fcc(u8[p], u8[p + 1], u8[p + 2]);
    case 4: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3]);
    case 5: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4]);
    case 6: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5]);
    case 7: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6]);
    case 8: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7]);
    case 9: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8]);
    case 10: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9]);
    case 11: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10]);
    case 12: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11]);
    case 13: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12]);
    case 14: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12], u8[p + 13]);
    case 15: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12], u8[p + 13], u8[p + 14]);
    case 16: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12], u8[p + 13], u8[p + 14], u8[p + 15]);
    case 17: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12], u8[p + 13], u8[p + 14], u8[p + 15], u8[p + 16]);
    case 18: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12], u8[p + 13], u8[p + 14], u8[p + 15], u8[p + 16], u8[p + 17]);
    case 19: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12], u8[p + 13], u8[p + 14], u8[p + 15], u8[p + 16], u8[p + 17], u8[p + 18]);
    case 20: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12], u8[p + 13], u8[p + 14], u8[p + 15], u8[p + 16], u8[p + 17], u8[p + 18], u8[p + 19]);
    case 21: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12], u8[p + 13], u8[p + 14], u8[p + 15], u8[p + 16], u8[p + 17], u8[p + 18], u8[p + 19], u8[p + 20]);
    case 22: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12], u8[p + 13], u8[p + 14], u8[p + 15], u8[p + 16], u8[p + 17], u8[p + 18], u8[p + 19], u8[p + 20], u8[p + 21]);
    case 23: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12], u8[p + 13], u8[p + 14], u8[p + 15], u8[p + 16], u8[p + 17], u8[p + 18], u8[p + 19], u8[p + 20], u8[p + 21], u8[p + 22]);
    case 24: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12], u8[p + 13], u8[p + 14], u8[p + 15], u8[p + 16], u8[p + 17], u8[p + 18], u8[p + 19], u8[p + 20], u8[p + 21], u8[p + 22], u8[p + 23]);
    case 25: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12], u8[p + 13], u8[p + 14], u8[p + 15], u8[p + 16], u8[p + 17], u8[p + 18], u8[p + 19], u8[p + 20], u8[p + 21], u8[p + 22], u8[p + 23], u8[p + 24]);
    case 26: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12], u8[p + 13], u8[p + 14], u8[p + 15], u8[p + 16], u8[p + 17], u8[p + 18], u8[p + 19], u8[p + 20], u8[p + 21], u8[p + 22], u8[p + 23], u8[p + 24], u8[p + 25]);
    case 27: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12], u8[p + 13], u8[p + 14], u8[p + 15], u8[p + 16], u8[p + 17], u8[p + 18], u8[p + 19], u8[p + 20], u8[p + 21], u8[p + 22], u8[p + 23], u8[p + 24], u8[p + 25], u8[p + 26]);
    case 28: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12], u8[p + 13], u8[p + 14], u8[p + 15], u8[p + 16], u8[p + 17], u8[p + 18], u8[p + 19], u8[p + 20], u8[p + 21], u8[p + 22], u8[p + 23], u8[p + 24], u8[p + 25], u8[p + 26], u8[p + 27]);
    case 29: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12], u8[p + 13], u8[p + 14], u8[p + 15], u8[p + 16], u8[p + 17], u8[p + 18], u8[p + 19], u8[p + 20], u8[p + 21], u8[p + 22], u8[p + 23], u8[p + 24], u8[p + 25], u8[p + 26], u8[p + 27], u8[p + 28]);
    case 30: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12], u8[p + 13], u8[p + 14], u8[p + 15], u8[p + 16], u8[p + 17], u8[p + 18], u8[p + 19], u8[p + 20], u8[p + 21], u8[p + 22], u8[p + 23], u8[p + 24], u8[p + 25], u8[p + 26], u8[p + 27], u8[p + 28], u8[p + 29]);
    case 31: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12], u8[p + 13], u8[p + 14], u8[p + 15], u8[p + 16], u8[p + 17], u8[p + 18], u8[p + 19], u8[p + 20], u8[p + 21], u8[p + 22], u8[p + 23], u8[p + 24], u8[p + 25], u8[p + 26], u8[p + 27], u8[p + 28], u8[p + 29], u8[p + 30]);
    default: return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7], u8[p + 8], u8[p + 9], u8[p + 10], u8[p + 11], u8[p + 12], u8[p + 13], u8[p + 14], u8[p + 15], u8[p + 16], u8[p + 17], u8[p + 18], u8[p + 19], u8[p + 20], u8[p + 21], u8[p + 22], u8[p + 23], u8[p + 24], u8[p + 25], u8[p + 26], u8[p + 27], u8[p + 28], u8[p + 29], u8[p + 30], u8[p + 31]);
  }
}

/**
 * A string from n codes (ASCII bytes or UTF-16 units) at index p: one shortAscii call up to
 * SHORT_ASCII of them, else SHORT_ASCII-code pieces joined.
 * @param {Uint8Array | Uint16Array} a @param {number} p @param {number} n
 * @returns {string}
 */
function fromCodes(a, p, n) {
  if (n <= SHORT_ASCII) return shortAscii(a, p, n);
  let s = shortAscii(a, p, SHORT_ASCII), i = SHORT_ASCII;
  for (; i + SHORT_ASCII <= n; i += SHORT_ASCII) s += shortAscii(a, p + i, SHORT_ASCII);
  return i < n ? s + shortAscii(a, p + i, n - i) : s;
}

/**
 * Bring the host mirror of the key and shape tables up to date after a successful call.
 * @param {import('./runtime.js').Runtime} rt
 */
function syncTables(rt) {
  const R = rt.u32, res = rt.res;
  const k0 = R[res + 8], k1 = R[res + 9];
  if (k1 > k0) {
    const u8 = rt.u8, keys = rt.keys;
    for (let id = k0; id < k1; id++) {
      const p = rt.keyPool + R[rt.keyOff + id];
      const n = R[rt.keyLen + id];
      let s = '';
      let ascii = true;
      for (let i = 0; i < n; i++) {
        const c = u8[p + i];
        if (c >= 0x80) { ascii = false; break; }
        s += String.fromCharCode(c);
      }
      keys[id] = ascii ? s : utf8Decoder.decode(u8.subarray(p, p + n));
    }
  }
  const s0 = R[res + 10], s1 = R[res + 11];
  if (s1 > s0) {
    const keys = rt.keys, shapes = rt.shapes;
    for (let id = s0; id < s1; id++) {
      const off = R[rt.shapeOff + id], n = R[rt.shapeLen + id];
      const names = new Array(n);
      for (let i = 0; i < n; i++) names[i] = keys[R[rt.shapePool + off + i]];
      shapes[id] = new Shape(names);
    }
  }
}

/* ------------------------------------------------------------------ float32 rounding */

/** msgpackr's table: binary exponent -> decimal multiplier for significant-digit rounding. */
const mult10 = new Array(147);
for (let i = 0; i < 256; i++) mult10[i] = +('1e' + Math.floor(45.15 - i * 0.30103));
const f32buf = new Float32Array(1);
const f32u32 = new Uint32Array(f32buf.buffer);

/**
 * Round a float32 value to the decimal digits a float32 can hold (msgpackr's roundFloat32).
 * @param {number} value
 */
export function roundFloat32(value) {
  f32buf[0] = value;
  const m = mult10[(f32u32[0] >>> 23) & 0xff];
  return ((m * value + (value > 0 ? 0.5 : -0.5)) >> 0) / m;
}

/* ------------------------------------------------------------------ the tape reader */

const TWO32 = 4294967296;
/**
 * The longest array made by `new Array(n)` and then filled: V8 gives longer ones dictionary
 * elements (2^25), so those are grown by appending instead. n is never what an input declares
 * alone: the tape holds every element, so n is bounded by the input's length. Appending to `[]`
 * every array above 65536 items (as before) copied each as it grew, in fresh pages: a run of 10^6
 * numbers took 100 ns an element, 3.4x cbor-x and msgpackr.
 */
const FAST_ARRAY_MAX = 1 << 25;
/** The values of a SCALARRUN's NaNs by their low word (0: the number NaN; see WP_RUN_* in wirepack.h). */
const RUN_SPECIAL = [NaN, null, false, true, undefined];
/** A shareable slot whose value is still being built (a reference to it is not allowed). */
const NOT_YET = Symbol('not yet');
/** A shareable slot whose value is the next slot's (28(28(x)): both indices name x). */
const SAME_AS_NEXT = Symbol('same as next');
/** Element i of a SCALARRUN whose f64 values start at word a. @param {Float64Array} f @param {Int32Array} w @param {number} a @param {number} i */
const runValue = (f, w, a, i) => {
  const x = f[(a >> 1) + i];
  return x === x ? x : RUN_SPECIAL[w[a + 2 * i]];
};
/**
 * The 64-bit integer of two tape words (low first) as a BigInt: one load from a BigUint64Array
 * or BigInt64Array, where shifting and or-ing made three BigInts (BigInt decoding took 4.6x
 * msgpackr's, which reads through a DataView). Scratch memory, written and read within the call.
 */
const S64 = new BigUint64Array(1), S64I = new BigInt64Array(S64.buffer), S64W = new Uint32Array(S64.buffer);
/** @param {number} lo @param {number} hi @param {boolean} signed @returns {bigint} */
function big64(lo, hi, signed) {
  S64W[0] = lo;
  S64W[1] = hi;
  return signed ? S64I[0] : S64[0];
}

/**
 * The other way, for the encoders: a BigInt's low 64 bits (two's complement) into words p and
 * p + 1 of u32, low word first, through the same scratch (BigInt encoding took 2.4x msgpackr's
 * with masks and shifts).
 * @param {Uint32Array} u32 @param {number} p @param {bigint} v
 */
export function put64(u32, p, v) {
  S64[0] = v;
  u32[p] = S64W[0];
  u32[p + 1] = S64W[1];
}

/** Unpackr#tapeRecord: not built from the tape (decodeTag gets the tag and its array). */
export const NOT_A_RECORD = Symbol('not a record');
const NO_BYTES = new Uint8Array(0);

/**
 * Builds values from the tape of one successful decode call; holds cursors into the tape and
 * the two string areas. Each runtime keeps one (a call on a busy runtime gets a spare runtime):
 * begin() sets every field for the call, end() drops what the call referenced. Made anew per
 * call it was 6% of a small-message decode (allocation and a generic construct stub).
 */
export class TapeReader {
  /**
   * @param {import('./runtime.js').Runtime} rt
   * @param {Uint8Array} input the caller's bytes (binary values are copied from here)
   * @param {Unpackr} opts
   */
  constructor(rt, input, opts) {
    this.rt = rt;
    // the fields, with their types; begin() sets them for each call
    this.w = rt.i32;
    this.f = rt.f64;
    this.u8 = rt.u8;
    /** tape cursor (word index) */
    this.t = 0;
    this.input = input;
    /** the input's buffer and byteOffset, taken at the first binary value of a call (Node) */
    /** @type {ArrayBufferLike | null} */
    this.inBuf = null;
    this.inOff = 0;
    this.keys = rt.keys;
    this.shapes = rt.shapes;
    /** the runtime's copy of the value cache: stamp and string per slot */
    this.vs = rt.vcStamp;
    this.vv = rt.vcStr;
    this.int64 = opts.int64AsType;
    /** CBOR tags -> values (the Decoder's tag handling) */
    this.opts = opts;
    this.roundF32 = false;
    /** maps with array keys become objects (allowArraysInMapKeys with maps as objects, MessagePack) */
    this.arrKeys = false;
    this.codegen = true;
    /** this call's number (shapes count their uses per call) */
    this.call = 0;
    // ASCII strings: C copies them into one area; it is made into strings one chunk at a time
    // (one latin1 decode per chunk of STRING_CHUNK bytes, or per string when the area is small),
    // which the strings are slices of
    this.ap = 0;
    this.an = 0;
    /** read position in the area */
    this.ao = 0;
    /** the chunk [ac, ae) of the area as a string */
    this.A = '';
    this.ac = 0;
    this.ae = 0;
    // other strings: transcoded to UTF-16 in C, the same way
    this.up = 0;
    this.un = 0;
    this.uo = 0;
    this.U = '';
    this.uc = 0;
    this.ue = 0;
    /** CBOR shareable values (tag 28), in order; null until the first */
    /** @type {any[] | null} */
    this.shared = null;
    /** the placeholders of the shareable records being built, and whether a reference took each */
    /** @type {Map<object, boolean> | null} */
    this.phs = null;
    /** CBOR shareable arrays (tag 28) still being filled: no record's keys (cbor.js openKeys) */
    /** @type {Set<unknown[]> | null} */
    this.building = null;
    /** MessagePack records defined in this call: slot -> shape (ownRecs once there is one) */
    /** @type {(Shape | undefined)[] | null} */
    this.recs = null;
    /** the table recs becomes, kept from call to call (a reader serves every call of its
     * runtime), and the slots this call set in it, which end() clears: a new table for every
     * message of new Packr() was 5% of decoding small ones */
    /** @type {(Shape | undefined)[]} */
    this.ownRecs = [];
    /** @type {number[]} */
    this.ownSlots = [];
    this.nOwn = 0;
    /** definitions in tape order: slot, keys, ... (kept in the Unpackr's structures after) */
    /** @type {any[] | null} */
    this.defs = null;
    /** whether the Unpackr keeps this call's definitions (trusted, or unpackMultiple, and
     * structures to keep them in): defs lists them only then (#keepDefinitions) */
    this.keepDefs = false;
    /** structured-clone ids (ext 0x69) of this call below 2^24, by id (unpack-ext.js REF_DENSE) */
    /** @type {({target: any, used: boolean} | undefined)[] | null} */
    this.refs = null;
    /** and the others */
    /** @type {Map<number, {target: any, used: boolean}> | null} */
    this.refMap = null;
    /** bundled strings (ext 0x62): the two strings of the current bundle */
    this.b1 = '';
    this.b2 = '';
    /** tape words this call may still read again (reread) */
    this.rereadLeft = 0;
    this.begin(input, opts);
  }

  /**
   * Set the fields of one call (a runtime's reader is used again by its next call). The ones
   * end() resets (every call ends with it: unpack and unpackMultiple call it in `finally`) and
   * the constructor sets are not set again here (without the second reset: the MessagePack decode
   * of sample-small 1.06x, paired, 4 processes; the other small decodes within noise).
   * @param {Uint8Array} input the caller's bytes (binary values are copied from here)
   * @param {Unpackr} opts
   */
  begin(input, opts) {
    const rt = this.rt;
    const R = rt.u32, res = rt.res;
    this.w = rt.i32;
    this.f = rt.f64;
    this.u8 = rt.u8;
    this.t = R[res] >> 2;
    this.input = input;
    this.keys = rt.keys;
    this.shapes = rt.shapes;
    this.int64 = opts.int64AsType;
    this.opts = opts;
    this.roundF32 = opts.useFloat32 > 2;
    this.arrKeys = opts.allowArraysInMapKeys && opts.mapsAsObjects && !opts.cbor;
    this.rereadLeft = 8 * input.length + 4096;
    this.codegen = opts.codegen !== false;
    this.call = rt.calls;
    this.ap = R[res + 2];
    this.an = R[res + 3];
    this.ao = 0;
    this.ac = 0;
    this.ae = 0;
    this.up = R[res + 4];
    this.un = R[res + 5];
    this.uo = 0;
    this.uc = 0;
    this.ue = 0;
    this.keepDefs = opts.trusted === true;
  }

  /** After the call: drop what it referenced (the input, strings, this call's tables), and
   * leave those fields as begin() expects them. */
  end() {
    this.input = NO_BYTES;
    this.inBuf = null;
    this.opts = /** @type {any} */ (null);
    this.A = this.U = this.b1 = this.b2 = '';
    this.shared = null;
    this.phs = null;
    this.building = null;
    this.clearRecs();
    this.defs = null;
    this.refs = null;
    this.refMap = null;
  }

  /** Forget the records this call defined (recs). */
  clearRecs() {
    if (this.recs !== null) {
      const a = this.ownRecs, slots = this.ownSlots;
      for (let i = 0; i < this.nOwn; i++) a[slots[i]] = undefined;
      this.nOwn = 0;
      this.recs = null;
    }
  }

  /**
   * Record `slot` defined in this call.
   * @param {number} slot @param {Shape} shape
   */
  defineRec(slot, shape) {
    const a = this.ownRecs;
    if (a[slot] === undefined) this.ownSlots[this.nOwn++] = slot;
    a[slot] = shape;
    this.recs = a;
  }

  /**
   * The shape of the record in a slot: defined in this call, else the Unpackr's structures.
   * @param {number} slot
   * @returns {Shape}
   */
  recShape(slot) {
    const own = this.recs !== null ? this.recs[slot] : undefined;
    if (own !== undefined) return own;
    const opts = this.opts, st = opts.structures;
    const keys = st ? st[idOf(slot)] : undefined;
    // the Unpackr's shape for the slot while its structure is the same array of as many keys
    // (found again by each call: a WeakMap lookup and this call's table per slot were 2-5% of a
    // records decode)
    const known = opts.slotShapes[slot];
    if (known !== undefined && known.src === keys && known.keys.length === keys.length) return known;
    if (!Array.isArray(keys)) throw new Error(`wirepack: corrupt tape (record slot ${slot})`);
    let shape = structureShapes.get(keys);
    if (shape === undefined || shape.keys.length !== keys.length) {
      shape = new Shape(keys.map((k) => recordKey(k, opts)), true);
      shape.src = keys;
      structureShapes.set(keys, shape);
    }
    opts.slotShapes[slot] = shape;
    return shape;
  }

  /**
   * A record definition: its keys are next on the tape, then the record.
   * @param {number} p the RECDEF payload
   */
  recDef(p) {
    const slot = p & 0xfffff;
    const at = this.w[this.t++]; // input offset of the definition
    const raw = this.v();
    // (C checked the keys' form; a pointer to keys is resolved here, to the value its id names)
    if (!Array.isArray(raw)) throw new DecodeError('BAD_RECORD', at, 'Record definition whose keys are no array');
    const keys = raw.map((k) => recordKey(k, this.opts, at));
    if (p & RECDEF_HB0) /** @type {any} */ (keys).highByte = 0;
    this.defineRec(slot, recordShape(this.rt, keys, slot));
    if (this.keepDefs && this.opts.structures) (this.defs || (this.defs = [])).push(slot, keys);
  }

  /**
   * The record shape (values without KEY words) of interned shape `sid`: one per runtime and
   * shape, for MessagePack's record definitions and CBOR's (crecShape) alike.
   * @param {number} sid
   * @returns {Shape}
   */
  recordShapeOf(sid) {
    const recOf = this.rt.recOfShape;
    return recOf[sid] || (recOf[sid] = new Shape(this.shapes[sid].keys, true));
  }

  /**
   * A record definition whose keys C interned as a shape (the id is the next tape word).
   * @param {number} p the RECDEFS payload
   */
  recDefShape(p) {
    const shape = this.recordShapeOf(this.w[this.t++]);
    this.defineRec(p & 0xfffff, shape);
    // (the keys only where the Unpackr keeps them after the call: #keepDefinitions; a copy of
    // them for every definition of every message of new Packr() was a tenth of its decode)
    if (this.keepDefs && this.opts.structures) {
      const keys = shape.keys.slice();
      if (p & RECDEF_HB0) /** @type {any} */ (keys).highByte = 0;
      (this.defs || (this.defs = [])).push(p & 0xfffff, keys);
    }
  }

  /**
   * A string of the value cache (VSTR entry `word`, its stamp next): the runtime's copy while it
   * has that stamp (F_VCACHE).
   * @param {number} word
   */
  vstr(word) {
    const slot = (word >>> 8) & 1023, stamp = this.w[this.t++];
    return this.vs[slot] === stamp ? this.vv[slot] : this.vmiss(word, slot, stamp);
  }

  /**
   * A bundled string (BREF entry `word`, its offset next): a slice of one of the bundle's two
   * strings (C checked it against them).
   * @param {number} word
   */
  bref(word) {
    const n = word >> 8;
    const at = this.w[this.t++];
    return n > 0 ? this.b2.slice(at, at + n) : this.b1.slice(at, at - n);
  }

  /** @param {number} n */
  stra(n) {
    const o = this.ao;
    this.ao = o + n;
    const c = this.ac;
    if (o >= c && o + n <= this.ae) return this.A.slice(o - c, o - c + n);
    return this.straChunk(o, n);
  }

  /**
   * An ASCII string outside the current chunk: decode the next chunk, which starts with it.
   * @param {number} o area offset @param {number} n length
   */
  straChunk(o, n) {
    const left = this.an - o;
    if (n <= SHORT_ASCII ? left <= SHORT_AREA : n <= SHORT_JOIN && left <= JOIN_AREA) {
      return fromCodes(this.u8, this.ap + o, n);
    }
    const end = Math.min(this.an, o + Math.max(n, STRING_CHUNK));
    const A = latin1(this.rt, this.ap + o, end - o);
    this.A = A;
    this.ac = o;
    this.ae = end;
    return n === end - o ? A : A.slice(0, n);
  }

  /**
   * A VSTR entry whose string this runtime's copy of the value cache does not hold (by stamp):
   * made from the bytes in the cache's slot, and kept with its stamp.
   * @param {number} word @param {number} slot @param {number} stamp
   */
  vmiss(word, slot, stamp) {
    const s = shortAscii(this.u8, this.rt.vcBytes + slot * 32, word >>> 18);
    this.vv[slot] = s;
    this.vs[slot] = stamp;
    return s;
  }

  /** @param {number} n UTF-16 units */
  stru(n) {
    const o = this.uo;
    this.uo = o + n;
    const c = this.uc;
    if (o >= c && o + n <= this.ue) return this.U.slice(o - c, o - c + n);
    return this.struChunk(o, n);
  }

  /**
   * A string of units outside the current chunk: from its units when the rest of the units area
   * is small (UNIT_AREA), else decode the next chunk, which starts with it.
   * @param {number} o units offset @param {number} n units
   */
  struChunk(o, n) {
    if (this.un - o <= UNIT_AREA && n <= SHORT_UNITS) {
      // (C's units are well-formed UTF-16: a pair split between two pieces joins back whole)
      return fromCodes(this.rt.u16, (this.up >> 1) + o, n);
    }
    const end = Math.min(this.un, o + Math.max(n, STRING_CHUNK >> 1));
    const U = utf16(this.rt, this.up + 2 * o, end - o);
    this.U = U;
    this.uc = o;
    this.ue = end;
    return n === end - o ? U : U.slice(0, n);
  }

  /**
   * A map of n entries as an object whose keys went through the Unpackr's mapKeyConverter
   * (msgpack-javascript's option: it takes every key, of any type, and returns a property name).
   * @param {number} n
   * @returns {Record<string, unknown>}
   */
  convertedMap(n) {
    const convert = /** @type {(key: unknown) => string | number} */ (this.opts.mapKeyConverter);
    /** @type {Record<string, unknown>} */
    const o = {};
    for (let i = 0; i < n; i++) {
      const k = convert(this.v());
      if (k === '__proto__') defineOwn(o, k, this.v());
      else o[k] = this.v();
    }
    return o;
  }

  /** @param {number} lo @param {number} hi unsigned high word */
  u64(lo, hi) {
    switch (this.int64) {
      case 'number': return hi * TWO32 + lo;
      case 'string': return big64(lo, hi, false).toString();
      case 'auto': if (hi < 0x200000 || (hi === 0x200000 && lo === 0)) return hi * TWO32 + lo;
      // falls through
      default: return big64(lo, hi, false);
    }
  }

  /** @param {number} lo @param {number} hi signed high word */
  i64(lo, hi) {
    switch (this.int64) {
      case 'number': return hi * TWO32 + lo;
      case 'string': return big64(lo, hi, true).toString();
      case 'auto':
        // -2^53 <= v <= 2^53, decided on the words (the double sum would round first)
        if ((hi >= -0x200000 && hi < 0x200000) || (hi === 0x200000 && lo === 0)) return hi * TWO32 + lo;
      // falls through
      default: return big64(lo, hi, true);
    }
  }

  /**
   * The ArrayBuffer of the caller's input and the byte offset of input byte `off` in it (for
   * views of the input that are not Buffers).
   * @param {number} off
   * @returns {number}
   */
  inputAt(off) {
    if (this.inBuf === null) {
      this.inBuf = this.input.buffer;
      this.inOff = this.input.byteOffset;
    }
    return this.inOff + off;
  }

  /** @param {number} off @param {number} n @returns {Uint8Array} (a view of the input, or a copy: a Buffer in Node) */
  bytes(off, n) {
    // msgpackr's and cbor-x's default: a view of the caller's input (never of wasm memory)
    if (!this.opts.copyBuffers) {
      const input = this.input;
      if (BufferView === null || this.opts.inputViews) return input.subarray(off, off + n);
      // a Buffer in Node whatever the input's type (as copies are), made directly (a Buffer's
      // subarray, and its buffer and byteOffset getters, cost more than the view)
      if (this.inBuf === null) {
        this.inBuf = input.buffer;
        this.inOff = input.byteOffset;
      }
      return new BufferView(this.inBuf, this.inOff + off, n);
    }
    const out = NodeBuffer ? NodeBuffer.allocUnsafe(n) : new Uint8Array(n);
    out.set(this.input.subarray(off, off + n));
    return out;
  }

  /**
   * CBOR tag 28: the next value is shareable. Containers are registered before they are filled,
   * so references inside them (tag 29) can point back at them: cycles survive.
   * @returns {any}
   */
  shareable() {
    const w = this.w;
    while ((w[this.t] & 0xff) === 26) this.t++; // padding
    const shared = this.shared || (this.shared = []);
    const idx = shared.length;
    shared.push(NOT_YET);
    let word = w[this.t];
    let tag = word & 0xff;
    // tag 258 (Set) and 259 (Map) around a container: make the Set/Map first, so it can be referenced
    const wrap = tag === 23 ? word >>> 8 : 0;
    const inner = w[this.t + 1] & 0xff;
    if ((wrap === 258 && inner === 13) || (wrap === 259 && inner >= 14 && inner <= 16)) {
      this.t++;
      word = w[this.t];
      tag = word & 0xff;
      const into = wrap === 258 ? new Set() : new Map();
      shared[idx] = into;
      this.t++;
      let n = 0;
      /** @type {string[] | null} */
      let names = null;
      if (tag === 16) {
        names = this.shapes[word >>> 8].keys;
        n = names.length;
      } else {
        n = word >>> 8;
        if (n === 0xffffff) n = w[this.t++] >>> 0;
      }
      for (let i = 0; i < n; i++) {
        if (into instanceof Set) {
          into.add(this.v());
        } else if (names !== null) {
          this.t++;
          into.set(names[i], this.v());
        } else {
          const k = this.v();
          into.set(k, this.v());
        }
      }
      // (a Map, as tag 259 makes it: under keyMap its keys are mapped back, in place)
      return wrap === 259 ? this.opts.decodeTag(259, into, this) : into;
    }
    if (wrap === 105 || wrap === 0xdfff || (wrap >= 0xe000 && wrap <= 0xffff && !this.opts.recordUndefined(wrap))) {
      // a CBOR record (cbor-x): the object is made after its values, which may refer to it, so
      // they get a placeholder that the record's properties are then copied into. The tag may
      // make something else (a Tag, when the record is not defined or its content is no array):
      // that is the value then; when a reference took the placeholder, which would be left
      // empty, the content is read again with the references taking that value (reread)
      /** @type {Record<string, unknown>} */
      const ph = {};
      const [v, held] = this.readHeld(idx, ph);
      const proto = v !== null && typeof v === 'object' ? Object.getPrototypeOf(v) : undefined;
      if (proto !== Object.prototype && proto !== null) {
        if (held !== null) return this.reread(idx, v, 'a record', held);
        shared[idx] = v;
        return v;
      }
      for (const k of Object.keys(v)) {
        if (k === '__proto__') defineOwn(ph, k, v[k]);
        else /** @type {any} */ (ph)[k] = v[k];
      }
      return ph;
    }
    if (tag === 35) {
      // a CBOR record whose keys C interned (CREC): the object first, so that its values may
      // refer to it (what the placeholder above does for the general way)
      this.t++;
      const keys = this.opts.crecShape(word >>> 8, w[this.t++], this).keys;
      /** @type {Record<string, unknown>} */
      const o = {};
      shared[idx] = o;
      for (let i = 0; i < keys.length; i++) {
        if (keys[i] === '__proto__') defineOwn(o, keys[i], this.v());
        else o[keys[i]] = this.v();
      }
      return o;
    }
    if (tag === 23 && wrap !== 0xffffff && wrap !== 28 && wrap !== 29) {
      // a CBOR tag (cbor-x's encoder shares a Tag that contains itself as 28(tag(...29(n)...))):
      // its Tag is made first, so that references inside can point at it, and given the value
      // after; it is the value when the tag stays a Tag, and when a reference took it while the
      // tag became something else, the content is read again (reread, as in the record branch)
      const ph = this.opts.tagPlaceholder(wrap);
      if (ph !== null) {
        const [v, held] = this.readHeld(idx, ph);
        if (held === null) {
          shared[idx] = v;
          return v;
        }
        if (v !== ph && v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.getPrototypeOf(ph) && v.tag === ph.tag) {
          ph.value = v.value;
          return ph;
        }
        return this.reread(idx, v, `a tag ${wrap}`, held);
      }
    }
    if (tag === 23 && wrap === 28) {
      // 28(28(x)): both indices name x; a reference to this one while x is built gets what the
      // inner one holds then (x's container, registered before it is filled), as cbor-x reads it
      shared[idx] = SAME_AS_NEXT;
      const v = this.v();
      shared[idx] = v;
      return v;
    }
    if (tag < 13 || tag > 16) {
      const v = this.v();
      shared[idx] = v;
      return v;
    }
    this.t++;
    if (tag === 16) {
      const keys = this.shapes[word >>> 8].keys;
      /** @type {Record<string, unknown>} */
      const o = {};
      shared[idx] = o;
      for (let i = 0; i < keys.length; i++) {
        this.t++;
        if (keys[i] === '__proto__') defineOwn(o, keys[i], this.v());
        else o[keys[i]] = this.v();
      }
      return o;
    }
    let n = word >>> 8;
    if (n === 0xffffff) n = w[this.t++] >>> 0;
    if (tag === 13) {
      /** @type {any[]} */
      const a = [];
      shared[idx] = a;
      const building = this.building || (this.building = new Set());
      building.add(a);
      for (let i = 0; i < n; i++) a.push(this.v());
      building.delete(a);
      return a;
    }
    if (tag === 14) {
      const m = new Map();
      shared[idx] = m;
      for (let i = 0; i < n; i++) {
        const k = this.v();
        m.set(k, this.v());
      }
      return m;
    }
    /** @type {Record<string, unknown>} */
    const o = {};
    shared[idx] = o;
    for (let i = 0; i < n; i++) {
      const k = this.v();
      if (k === '__proto__') defineOwn(o, k, this.v());
      else o[k] = this.v();
    }
    return o;
  }

  /**
   * The next value, read while `ph` stands for shareable value `idx` (references inside it get
   * ph), and, when a reference took ph, where its content began (for reread), else null
   * (TapeReader#shareable; shareable values only).
   * @param {number} idx @param {object} ph
   * @returns {[any, [number, number, number] | null]}
   */
  readHeld(idx, ph) {
    /** @type {any[]} */ (this.shared)[idx] = ph;
    const phs = this.phs || (this.phs = new Map());
    phs.set(ph, false);
    const t0 = this.t, ao = this.ao, uo = this.uo;
    const v = this.v();
    const taken = phs.get(ph) === true;
    phs.delete(ph);
    return [v, taken ? [t0, ao, uo] : null];
  }

  /**
   * A shareable value that a reference took the placeholder of while it was built, and that became
   * something the placeholder cannot be (an extension's instance: the placeholder was a record's
   * object or a Tag): its content read again (readHeld left where it starts), with `first` (the
   * first read's value) as the shareable value, so that the references inside now get `first`;
   * then the second read's own properties copied onto `first`, which is the value (cbor-x's way:
   * `28(301([29(0), "hi"]))` with an extension for tag 301 gives an instance whose first field
   * is itself). The content's extensions and tags are decoded twice.
   * @param {number} idx @param {any} first
   * @param {string} what the placeholder's kind, for the error when `first` cannot take properties
   * @param {[number, number, number]} held where the content began (readHeld)
   * @returns {any}
   */
  reread(idx, first, what, held) {
    const cannot = `Shared reference ${idx} to ${what} still being built that became a value that cannot be filled`;
    if (first === null || typeof first !== 'object' || !Object.isExtensible(first)) throw new DecodeError('BAD_REFERENCE', 0, cannot);
    const [t0, ao, uo] = held;
    // (such values nested in each other would each read the ones inside again: 2^depth reads of
    // the innermost; the tape words read again in a call are bounded by its input, so hostile
    // nesting costs linear time and then fails)
    if ((this.rereadLeft -= this.t - t0) < 0) {
      throw new DecodeError('BAD_REFERENCE', 0, `Shared reference ${idx}: values that refer to themselves while being built, nested too deep to read again`);
    }
    const shared = /** @type {any[]} */ (this.shared);
    // (the shareable values inside the content are registered again, at the same indices)
    shared.length = idx + 1;
    shared[idx] = first;
    const end = this.t;
    this.t = t0;
    this.ao = ao;
    this.uo = uo;
    const again = this.v();
    if (this.t !== end) throw new Error('wirepack: corrupt tape (a shareable value read again)');
    if (again !== first && again !== null && typeof again === 'object') {
      // every own property as it is (an Error's message and cause are not enumerable; cbor-x's
      // Object.assign leaves them, and with them the references in them, as the first read had them)
      try {
        for (const k of Reflect.ownKeys(again)) {
          const d = Object.getOwnPropertyDescriptor(again, k);
          if (d !== undefined) Object.defineProperty(first, k, d);
        }
      } catch (e) {
        throw new DecodeError('BAD_REFERENCE', 0, `${cannot} (${/** @type {Error} */ (e).message})`);
      }
    }
    return first;
  }

  /**
   * The next value, read as a Map when it is a map of any form (CBOR tag 259).
   * @returns {any}
   */
  mapAhead() {
    const w = this.w;
    while ((w[this.t] & 0xff) === 26) this.t++; // padding before an indefinite map's header
    let word = w[this.t];
    let tag = word & 0xff;
    let idx = -1;
    if (tag === 23 && word >>> 8 === 28) {
      // 259(28(map)): the shareable value is the Map, registered before it is filled (as
      // 28(259(map)) is: shareable)
      let q = this.t + 1;
      while ((w[q] & 0xff) === 26) q++;
      const inner = w[q] & 0xff;
      if (inner === 15 || inner === 16) {
        this.t = q;
        word = w[q];
        tag = inner;
        const shared = this.shared || (this.shared = []);
        idx = shared.length;
        shared.push(NOT_YET);
      }
    }
    if (tag !== 15 && tag !== 16) return this.v();
    this.t++;
    const m = new Map();
    if (idx >= 0) /** @type {any[]} */ (this.shared)[idx] = m;
    if (tag === 16) {
      const keys = this.shapes[word >>> 8].keys;
      for (let i = 0; i < keys.length; i++) {
        this.t++;
        m.set(keys[i], this.v());
      }
      return m;
    }
    let n = word >>> 8;
    if (n === 0xffffff) n = w[this.t++] >>> 0;
    for (let i = 0; i < n; i++) {
      const k = this.v();
      m.set(k, this.v());
    }
    return m;
  }

  /** The next value on the tape. @returns {any} */
  v() {
    const w = this.w;
    const word = w[this.t++];
    switch (word & 0xff) {
      case 0: return null;
      case 1: return false;
      case 2: return true;
      case 3: return word >> 8;
      case 4: return w[this.t++];
      case 5: return w[this.t++] >>> 0;
      case 6: {
        const a = (this.t + 1) & ~1;
        this.t = a + 2;
        return this.f[a >> 1];
      }
      case 7: {
        const t = this.t;
        this.t = t + 2;
        return this.u64(w[t] >>> 0, w[t + 1] >>> 0);
      }
      case 8: {
        const t = this.t;
        this.t = t + 2;
        return this.i64(w[t] >>> 0, w[t + 1]);
      }
      case 9: {
        let n = word >>> 8;
        if (n === 0xffffff) n = w[this.t++] >>> 0;
        return this.stra(n);
      }
      case 10: {
        let n = word >>> 8;
        if (n === 0xffffff) n = w[this.t++] >>> 0;
        return this.stru(n);
      }
      case 11: return this.keys[word >>> 8];
      case 34: return this.vstr(word);
      case 36: {
        // a long non-ASCII string, as UTF-8 in the input (which C's call left at the arena base)
        let n = word >>> 8;
        if (n === 0xffffff) n = w[this.t++] >>> 0;
        const at = this.rt.base + (w[this.t++] >>> 0);
        return /** @type {import('./runtime.js').NodeBuf} */ (this.rt.nb).utf8Slice(at, at + n);
      }
      case 12: {
        const t = this.t;
        this.t = t + 2;
        return this.bytes(w[t + 1] >>> 0, w[t] >>> 0);
      }
      case 13: {
        let n = word >>> 8;
        if (n === 0xffffff) n = w[this.t++] >>> 0;
        // short arrays as literals: allocated inline, and packed (new Array(n) is a builtin call
        // that makes a holey array; it was a third of the array case in a stream decode profile)
        switch (n) {
          case 0: return [];
          case 1: return [this.v()];
          case 2: return [this.v(), this.v()];
          case 3: return [this.v(), this.v(), this.v()];
          case 4: return [this.v(), this.v(), this.v(), this.v()];
        }
        const a = n > FAST_ARRAY_MAX ? [] : new Array(n);
        for (let i = 0; i < n; i++) a[i] = this.v();
        return a;
      }
      case 14: {
        let n = word >>> 8;
        if (n === 0xffffff) n = w[this.t++] >>> 0;
        if (this.opts.mapKeyConverter !== null) return this.convertedMap(n);
        const m = new Map();
        for (let i = 0; i < n; i++) {
          const k = this.v();
          m.set(k, this.v());
        }
        return this.arrKeys ? arrayKeyed(m) : m;
      }
      case 15: {
        let n = word >>> 8;
        if (n === 0xffffff) n = w[this.t++] >>> 0;
        /** @type {Record<string, unknown>} */
        const o = {};
        for (let i = 0; i < n; i++) {
          const k = this.v();
          if (k === '__proto__') defineOwn(o, k, this.v());
          else if (typeof k !== 'object' || k === null) o[k] = this.v();
          else throw badKey(k);
        }
        return o;
      }
      case 16: return this.shapes[word >>> 8].build(this);
      case 17: {
        const t = this.t;
        this.t = t + 2;
        const off = w[t + 1] >>> 0, type = word >>> 8;
        const xc = this.opts.extensionCodec;
        if (xc !== null) return xc.decode(this.input.subarray(off, off + (w[t] >>> 0)), (type << 24) >> 24, this.opts.context);
        // typed arrays (0x74) are copied out of the input without a view of it in between
        if (type === 0x74 && unpackExtensions[0x74] === undefined) return typedArrayAt(this.input, off, w[t] >>> 0, off);
        // and structured-clone pointers read where they lie
        if (type === 0x70 && unpackExtensions[0x70] === undefined) return pointerAt(this.input, off, w[t] >>> 0, off, this);
        return readExt(type, this.input.subarray(off, off + (w[t] >>> 0)), off, this);
      }
      case 18: {
        const a = (this.t + 1) & ~1;
        this.t = a + 2;
        return new Date(this.f[a >> 1]);
      }
      case 19: {
        let n = word >>> 8;
        if (n === 0xffffff) n = w[this.t++] >>> 0;
        const a = (this.t + 1) & ~1;
        this.t = a + 2 * n;
        const f = this.f, b = a >> 1;
        switch (n) {
          case 2: return [f[b], f[b + 1]];
          case 3: return [f[b], f[b + 1], f[b + 2]];
          case 4: return [f[b], f[b + 1], f[b + 2], f[b + 3]];
          case 5: return [f[b], f[b + 1], f[b + 2], f[b + 3], f[b + 4]];
          case 6: return [f[b], f[b + 1], f[b + 2], f[b + 3], f[b + 4], f[b + 5]];
          case 7: return [f[b], f[b + 1], f[b + 2], f[b + 3], f[b + 4], f[b + 5], f[b + 6]];
          case 8: return [f[b], f[b + 1], f[b + 2], f[b + 3], f[b + 4], f[b + 5], f[b + 6], f[b + 7]];
        }
        const arr = n > FAST_ARRAY_MAX ? [] : new Array(n);
        for (let i = 0; i < n; i++) arr[i] = f[b + i];
        return arr;
      }
      case 20: {
        const a = (this.t + 1) & ~1;
        this.t = a + 2;
        const x = this.f[a >> 1];
        return this.roundF32 ? roundFloat32(x) : x;
      }
      case 33: {
        // numbers with null, false, true (CBOR: undefined): those are NaNs whose low word says which
        let n = word >>> 8;
        if (n === 0xffffff) n = w[this.t++] >>> 0;
        const a = (this.t + 1) & ~1;
        this.t = a + 2 * n;
        const f = this.f, b = a >> 1;
        switch (n) {
          case 2: return [runValue(f, w, a, 0), runValue(f, w, a, 1)];
          case 3: return [runValue(f, w, a, 0), runValue(f, w, a, 1), runValue(f, w, a, 2)];
          case 4: return [runValue(f, w, a, 0), runValue(f, w, a, 1), runValue(f, w, a, 2), runValue(f, w, a, 3)];
          case 5: return [runValue(f, w, a, 0), runValue(f, w, a, 1), runValue(f, w, a, 2), runValue(f, w, a, 3), runValue(f, w, a, 4)];
          case 6: return [runValue(f, w, a, 0), runValue(f, w, a, 1), runValue(f, w, a, 2), runValue(f, w, a, 3), runValue(f, w, a, 4), runValue(f, w, a, 5)];
          case 7: return [runValue(f, w, a, 0), runValue(f, w, a, 1), runValue(f, w, a, 2), runValue(f, w, a, 3), runValue(f, w, a, 4), runValue(f, w, a, 5), runValue(f, w, a, 6)];
          case 8: return [runValue(f, w, a, 0), runValue(f, w, a, 1), runValue(f, w, a, 2), runValue(f, w, a, 3), runValue(f, w, a, 4), runValue(f, w, a, 5), runValue(f, w, a, 6), runValue(f, w, a, 7)];
        }
        const arr = n > FAST_ARRAY_MAX ? [] : new Array(n);
        for (let i = 0; i < n; i++) {
          const x = f[b + i];
          arr[i] = x === x ? x : RUN_SPECIAL[w[a + 2 * i]];
        }
        return arr;
      }
      case 21: return undefined;
      case 22: {
        // CBOR negative integer -1 - n, n >= 2^63
        const t = this.t;
        this.t = t + 2;
        const n = big64(w[t], w[t + 1], false);
        return this.int64 === 'number' || this.int64 === 'auto' ? -1 - Number(n) : this.int64 === 'string' ? (-1n - n).toString() : -1n - n;
      }
      case 23: {
        let tag = word >>> 8;
        if (tag === 0xffffff) {
          const t = this.t;
          this.t = t + 2;
          // wp_cbor.c's markers (tags from 2^64 - 3 * 2^16, which no input may use) go to the
          // Decoder's own handling, without a BigInt
          if (w[t + 1] === -1 && w[t] >>> 0 >= MARK_FIRST_LO) return this.opts.decodeMarker(w[t] >>> 0, this.v(), this);
          const big = big64(w[t], w[t + 1], false);
          return this.opts.decodeTag(big <= 9007199254740991n ? Number(big) : big, this.v(), this);
        }
        if (tag === 259) return this.opts.decodeTag(tag, this.mapAhead(), this);
        if (tag === 28) return this.shareable();
        if (tag >= 0xe000 && tag <= 0xffff && (w[this.t] & 0xff) === 13) {
          // a CBOR record (cbor-x's tag 0xe000 + id over an array of values): built from the tape
          // by its shape when the Decoder can, without the array in between
          const o = this.opts.tapeRecord(tag, this);
          if (o !== NOT_A_RECORD) return o;
        }
        if (tag === 0xdfff && (w[this.t] & 0xff) === 13) {
          // a record defined where it first appears (cbor-x's tag 0xdfff over [id, keys,
          // ...values]): defined, and built by its shape from the tape when the Decoder can
          const o = this.opts.tapeInline(this);
          if (o !== NOT_A_RECORD) return o;
        }
        if (tag >= 64 && tag <= 87 && (w[this.t] & 0xff) === 12) {
          // a typed array (RFC 8746) over a byte string: made from the tape's bytes directly
          const o = this.opts.tapeTyped(tag, this);
          if (o !== NOT_A_RECORD) return o;
        }
        if (tag === 29) {
          const i = this.v();
          const shared = this.shared;
          let s = Number.isInteger(i) && i >= 0 && shared !== null && i < shared.length ? shared[i] : NOT_YET;
          // (28(28(x)): the outer index names what the inner one holds; the inner comes after it)
          for (let k = i; s === SAME_AS_NEXT;) s = /** @type {any[]} */ (shared)[++k];
          if (s === NOT_YET) {
            throw new DecodeError('BAD_REFERENCE', 0, typeof i === 'number' || typeof i === 'bigint'
              ? `Shared reference ${i} to nothing shareable before it` : `Shared reference whose index is no integer (${i === null ? 'null' : typeof i})`);
          }
          if (this.phs !== null && this.phs.has(s)) this.phs.set(s, true);
          return s;
        }
        return this.opts.decodeTag(tag, this.v(), this);
      }
      case 24: return this.opts.decodeSimple(word >>> 8);
      case 26: return this.v(); // padding before the header of an indefinite CBOR map
      case 27:
        this.recDef(word >>> 8);
        return this.v();
      case 28: return this.recShape(word >>> 8).build(this);
      case 35: return this.opts.crecShape(word >>> 8, w[this.t++], this).build(this);
      case 32:
        this.recDefShape(word >>> 8);
        return this.v();
      case 29: {
        const t = this.t;
        this.t = t + 2;
        const off = w[t + 1] >>> 0;
        return readPrefixExt(word >>> 8, this.input.subarray(off, off + (w[t] >>> 0)), off, this);
      }
      case 30:
        this.b1 = this.v();
        this.b2 = this.v();
        return this.v();
      case 31: return this.bref(word);
      case 25: {
        // CBOR indefinite byte string: (length, offset) per chunk
        let n = word >>> 8;
        if (n === 0xffffff) n = w[this.t++] >>> 0;
        const t = this.t;
        this.t = t + 2 * n;
        let total = 0;
        for (let i = 0; i < n; i++) total += w[t + 2 * i] >>> 0;
        const out = NodeBuffer ? NodeBuffer.allocUnsafe(total) : new Uint8Array(total);
        for (let i = 0, at = 0; i < n; i++) {
          const len = w[t + 2 * i] >>> 0, off = w[t + 2 * i + 1] >>> 0;
          out.set(this.input.subarray(off, off + len), at);
          at += len;
        }
        return out;
      }
      default:
        throw new Error(`wirepack: corrupt tape (tag ${word & 0xff})`);
    }
  }
}

/**
 * The error for a key of a map C made an object of (its keys strings, numbers, or what stands for
 * strings: a CBOR packed reference once a packed item has opened, or with sharedValues) that is
 * none: a packed reference to nothing (cbor-x: "Unknown token"), which as a property name would
 * be "[object Object]".
 * @param {unknown} k
 * @returns {DecodeError}
 */
function badKey(k) {
  // (a Simple or a Tag of cbor.js, told apart by their fields: a bundle may rename the classes)
  const x = /** @type {any} */ (k);
  const what = Array.isArray(x) ? 'an array' : 'tag' in x ? `tag ${x.tag}` : typeof x.value === 'number' ? `simple(${x.value}), which refers to nothing` : 'an object';
  return new DecodeError('BAD_REFERENCE', 0, `A map key that stands for a string (a packed reference) is none: ${what}`);
}

/**
 * allowArraysInMapKeys (msgpackr's, with maps as objects): a map that is a Map for its keys (C
 * makes one for any key that cannot be a property name) becomes an object when each key is a
 * primitive or an array whose elements, one level flattened, are strings, numbers, booleans or
 * BigInts (the key is their comma-joined text, as msgpackr makes it); else it stays the Map (where
 * msgpackr throws).
 * @param {Map<any, any>} m
 * @returns {Map<any, any> | Record<string, unknown>}
 */
function arrayKeyed(m) {
  /** @type {Record<string, unknown>} */
  const o = {};
  for (const [k, v] of m) {
    let key;
    if (Array.isArray(k)) {
      const flat = k.flat();
      for (const x of flat) {
        const t = typeof x;
        if (t !== 'string' && t !== 'number' && t !== 'boolean' && t !== 'bigint') return m;
      }
      key = flat.toString();
    } else if (k === null || (typeof k !== 'object' && typeof k !== 'function')) {
      key = String(k);
    } else {
      return m;
    }
    if (key === '__proto__') defineOwn(o, key, v);
    else o[key] = v;
  }
  return o;
}

/** Tapes nested deeper than this are built without recursion (DeepReader). */
const RECURSION_SAFE_DEPTH = 400;

/**
 * @typedef {object} Frame
 * @property {number} tag container tag (ARR, MAP, OBJ, SHAPED)
 * @property {any} c the container being filled
 * @property {number} n entries
 * @property {number} i entries done
 * @property {boolean} hasKey a MAP/OBJ key has been read and waits for its value
 * @property {any} key
 * @property {string[] | null} names SHAPED: the shape's keys
 */

/**
 * The same reader with an explicit stack instead of recursion, for deeply nested input (the
 * C decoder has already bounded the depth by maxDepth). Scalars go through TapeReader#v.
 */
class DeepReader extends TapeReader {
  /** @returns {any} */
  v() {
    const w = this.w;
    /** @type {Frame[]} */
    const stack = [];
    for (;;) {
      const word = w[this.t];
      const tag = word & 0xff;
      /** @type {any} */
      let value;
      const tnum = word >>> 8;
      if (tag === 23 && tnum !== 0xffffff && tnum !== 259 && tnum !== 28 && tnum !== 29) {
        // a CBOR tag: its item completes it (the tag handler runs when it does)
        this.t++;
        stack.push({ tag: 23, c: word >>> 8, n: 1, i: 0, hasKey: false, key: undefined, names: null });
        continue;
      }
      if (tag === 27 || tag === 32) {
        this.t++;
        if (tag === 27) this.recDef(tnum);
        else this.recDefShape(tnum);
        continue;
      }
      if ((tag >= 13 && tag <= 16) || tag === 28 || tag === 35) {
        this.t++;
        let n = 0;
        /** @type {string[] | null} */
        let names = null;
        if (tag === 16 || tag === 28 || tag === 35) {
          names = tag === 16 ? this.shapes[tnum].keys : tag === 28 ? this.recShape(tnum).keys : this.opts.crecShape(tnum, w[this.t++], this).keys;
          n = names.length;
        } else {
          n = word >>> 8;
          if (n === 0xffffff) n = w[this.t++] >>> 0;
        }
        const c = tag === 13 ? [] : tag === 14 ? new Map() : {};
        if (n > 0) {
          // (a CREC's values are a record's: assigned by name, as tag 28's)
          stack.push({ tag: tag === 35 ? 28 : tag, c, n, i: 0, hasKey: false, key: undefined, names });
          if (tag === 16) this.t++; // the first KEY word
          continue;
        }
        value = c;
      } else {
        value = super.v();
      }
      // hand the value to the enclosing containers, closing those that are complete
      for (;;) {
        const f = stack[stack.length - 1];
        if (f === undefined) return value;
        if (f.tag === 23) {
          stack.pop();
          value = this.opts.decodeTag(f.c, value, this);
          continue;
        }
        if (f.tag === 13) {
          f.c.push(value);
        } else if (f.tag === 16 || f.tag === 28) {
          const k = /** @type {string[]} */ (f.names)[f.i];
          if (k === '__proto__') defineOwn(f.c, k, value);
          else f.c[k] = value;
        } else if (!f.hasKey) {
          if (f.tag === 15 && typeof value === 'object' && value !== null) throw badKey(value);
          f.hasKey = true;
          f.key = value;
          break;
        } else {
          f.hasKey = false;
          if (f.tag === 14) f.c.set(f.key, value);
          else if (f.key === '__proto__') defineOwn(f.c, f.key, value);
          else f.c[f.key] = value;
        }
        if (++f.i < f.n) {
          if (f.tag === 16) this.t++; // the next KEY word
          break;
        }
        stack.pop();
        value = f.tag === 14 && this.arrKeys ? arrayKeyed(f.c) : f.c;
      }
    }
  }
}

/**
 * A reader for the tape of the last successful call.
 * @param {import('./runtime.js').Runtime} rt
 * @param {Uint8Array} input
 * @param {Unpackr} opts
 */
function reader(rt, input, opts) {
  if (rt.u32[rt.res + 14] > RECURSION_SAFE_DEPTH) return new DeepReader(rt, input, opts);
  const r = rt.reader;
  if (r === null) return (rt.reader = new TapeReader(rt, input, opts));
  r.begin(input, opts);
  return r;
}

/* ------------------------------------------------------------------ entry points */

/**
 * @param {Uint8Array | ArrayBuffer | DataView | ArrayBufferView} src
 * @returns {Uint8Array}
 */
function toBytes(src) {
  if (src instanceof Uint8Array) return src; // Buffers too: only read, and copied from by subarray
  if (ArrayBuffer.isView(src)) return new Uint8Array(src.buffer, src.byteOffset, src.byteLength);
  if (src instanceof ArrayBuffer) return new Uint8Array(src);
  if (typeof SharedArrayBuffer !== 'undefined' && /** @type {any} */ (src) instanceof SharedArrayBuffer) return new Uint8Array(/** @type {any} */ (src));
  throw new TypeError('wirepack: unpack expects a Uint8Array, Buffer, ArrayBuffer or DataView');
}

/**
 * The part of bytes msgpackr's unpack options select (an end offset, or {start, end}).
 * @param {Uint8Array} bytes
 * @param {number | {start?: number, end?: number}} options
 */
function range(bytes, options) {
  if (typeof options === 'object' && options !== null) {
    const start = options.start || 0, end = options.end === undefined ? bytes.length : Math.min(options.end, bytes.length);
    // (subarray would count a negative start from the end, and cut a fraction off)
    if (!(start >= 0 && start % 1 === 0)) throw new RangeError(`wirepack: start must be an offset into the source (${start})`);
    return bytes.subarray(start, end);
  }
  return typeof options === 'number' && options > -1 ? bytes.subarray(0, Math.min(options, bytes.length)) : bytes;
}

/**
 * Run the C decoder over bytes; on success the tape is ready in wasm memory.
 * @param {import('./runtime.js').Runtime} rt
 * @param {Uint8Array} bytes
 * @param {number} flags
 * @param {number} maxDepth
 * @param {boolean} cbor
 * @param {Unpackr} opts
 * @returns {number} C error code (0 = ok)
 */
function runDecode(rt, bytes, flags, maxDepth, cbor, opts) {
  const len = bytes.length;
  if (len > opts.maxBytes) throw new DecodeError('LIMIT', 0, `Input of ${len} bytes is larger than maxBytes (${opts.maxBytes})`);
  if (rt.limitsOwner !== opts) {
    rt.x.wpw_set_limits(opts.maxArrayLength, opts.maxMapLength, opts.maxStrLength, opts.maxBinLength, opts.maxExtLength);
    rt.limitsOwner = opts;
  }
  if (!rt.reserve(len)) throw new DecodeError('LIMIT', 0, 'Input too large for wasm memory');
  // a large input's long binaries stay out of the copy when the walk finds them (holes.js)
  const holes = len >= rt.holeInputMin ? rt.findHoles(bytes, cbor, rt.holeMin, rt.u32, rt.holes) : 0;
  if (holes !== 0) {
    copyAround(rt, bytes, holes);
  } else if (len <= 16) {
    // a loop beats set() below about 16 bytes (6 bytes: 22 ns against 44)
    const u8 = rt.u8, base = rt.base;
    for (let i = 0; i < len; i++) u8[base + i] = bytes[i];
  } else {
    rt.u8.set(bytes, rt.base);
  }
  if (!cbor) {
    // msgpackr's extensions (the registry's version), or @msgpack/msgpack's: every extension to
    // the codec, the timestamp (-1) to C unless the codec has a decoder of its own for it
    const xc = opts.extensionCodec;
    const xv = xc === null ? registry.version : xc[NATIVE_TIMESTAMP] === true ? EXTS_CODEC_TS : EXTS_CODEC;
    if (rt.extVersion !== xv) syncExtConfig(rt, xv);
    if (opts.structures || rt.recLoaded.length !== 0) loadRecords(rt, opts, (flags & F_MULTIPLE) !== 0);
  }
  rt.calls++;
  if (len <= VC_INPUT_MAX) flags |= F_VCACHE;
  if (rt.utf8Host) flags |= F_UTF8_HOST;
  if (cbor) flags |= opts.cDecodeFlags();
  let err = decodeCall(rt, len, flags, maxDepth, cbor, holes);
  if (err !== 0 && holes !== 0) {
    // a hole that was no binary C skipped, a bundle, or an error: again with every byte, so that
    // the result and the error never depend on the walk's guess
    fillHoles(rt, bytes, holes);
    err = decodeCall(rt, len, flags, maxDepth, cbor, 0);
  }
  return err;
}

/**
 * One call of the C decoder over the input at the arena base, and the host's mirror of its
 * tables brought up to date.
 * @param {import('./runtime.js').Runtime} rt
 * @param {number} len @param {number} flags @param {number} maxDepth @param {boolean} cbor
 * @param {number} holes pairs at rt.holes that the copy left out
 * @returns {number} C error code (0 = ok)
 */
function decodeCall(rt, len, flags, maxDepth, cbor, holes) {
  const err = cbor ? rt.x.wpw_cbor_decode(len, flags, maxDepth, TABLE_RESET_FILL, holes) : rt.x.wpw_decode(len, flags, maxDepth, TABLE_RESET_FILL, holes);
  rt.refresh();
  const R = rt.u32, res = rt.res;
  if (R[res + 15] !== rt.generation) {
    // C emptied its tables before this call: drop the mirror too
    rt.generation = R[res + 15];
    rt.vcStamp.fill(0); // (C's stamps start again)
    rt.keys = [];
    rt.shapes = [];
    rt.recOfShape = [];
    rt.crecBuilders = [];
    rt.compiled = 0;
    rt.fast = 0;
  }
  if (err === 0 || R[res + 7] > 0) syncTables(rt);
  return err;
}

/**
 * Copy bytes to the arena base except the holes (pairs at rt.holes, in order).
 * @param {import('./runtime.js').Runtime} rt @param {Uint8Array} bytes @param {number} holes
 */
function copyAround(rt, bytes, holes) {
  const u8 = rt.u8, base = rt.base, H = rt.u32, h = rt.holes;
  let from = 0;
  for (let i = 0; i < holes; i++) {
    const at = H[h + 2 * i];
    u8.set(bytes.subarray(from, at), base + from);
    from = at + H[h + 2 * i + 1];
  }
  u8.set(bytes.subarray(from), base + from);
}

/**
 * Copy the holes' bytes too (after copyAround: the input is then whole at the arena base).
 * @param {import('./runtime.js').Runtime} rt @param {Uint8Array} bytes @param {number} holes
 */
function fillHoles(rt, bytes, holes) {
  const u8 = rt.u8, base = rt.base, H = rt.u32, h = rt.holes;
  for (let i = 0; i < holes; i++) {
    const at = H[h + 2 * i], n = H[h + 2 * i + 1];
    u8.set(bytes.subarray(at, at + n), base + at);
  }
}

/**
 * @param {import('./runtime.js').Runtime} rt
 * @returns {DecodeError}
 */
function errorFromResult(rt) {
  const code = rt.u32[rt.res + 12];
  return new DecodeError(ERROR_NAMES[code] || `E${code}`, rt.u32[rt.res + 13]);
}

/**
 * A DecodeError that a nested decode threw during this call (getStructures unpacking a stored
 * blob, an extension decoding bytes of its own) is not about this call's input: `incomplete` is
 * cleared, since more bytes of this input cannot complete that other source (a stream would
 * otherwise wait for them up to maxIncompleteBufferSize, as msgpackr's own test says).
 * @param {unknown} e
 * @returns {unknown} e
 */
function notThisInput(e) {
  if (e instanceof DecodeError && e.incomplete) e.incomplete = false;
  return e;
}

/**
 * freezeData (msgpackr's option): freeze the decoded arrays and plain objects of `value` (records
 * too, as msgpackr freezes them), and Tags (`tagClass`, CBOR), through Maps, Sets and Tags, after
 * the value is built. Maps and Sets are walked but not frozen (Object.freeze leaves their entries
 * writable); typed arrays, Dates and objects of other classes (what extensions make) are left as
 * they are. Without recursion, and each container once (shared and cyclic values of
 * structuredClone included).
 * @template T
 * @param {T} value
 * @param {Function | null} [tagClass]
 * @returns {T}
 */
export function freezeDecoded(value, tagClass = null) {
  /** @type {any[]} */
  const stack = [value];
  /** @type {Set<object> | null} Maps, Sets (never frozen) seen */
  let seen = null;
  while (stack.length !== 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object' || Object.isFrozen(v)) continue;
    if (Array.isArray(v)) {
      Object.freeze(v);
      for (let i = 0; i < v.length; i++) stack.push(v[i]);
      continue;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto === Object.prototype || proto === null) {
      Object.freeze(v);
      for (const k of Object.keys(v)) stack.push(v[k]);
    } else if (v instanceof Map || v instanceof Set) {
      if (seen === null) seen = new Set();
      if (seen.has(v)) continue;
      seen.add(v);
      if (v instanceof Map) {
        for (const [k, x] of v) stack.push(k, x);
      } else {
        for (const x of v) stack.push(x);
      }
    } else if (tagClass !== null && v instanceof tagClass) {
      Object.freeze(v);
      stack.push(/** @type {any} */ (v).value);
    }
  }
  return value;
}

/**
 * Store the options into the instance (its option slots are there already). An option named like
 * one of the instance's methods (CBOR's `pack: true`) is not stored: it would hide the method.
 * @param {any} self @param {Readonly<Record<string, any>>} options
 */
function storeOptions(self, options) {
  for (const k in options) {
    if (!Object.prototype.hasOwnProperty.call(options, k)) continue;
    const v = options[k];
    if ((k === 'pack' || k === 'encode' || k === 'decode' || typeof self[k] === 'function') && typeof v !== 'function') continue;
    self[k] = v;
  }
}

/** A MessagePack decoder with options (msgpackr's Unpackr). */
export class Unpackr {
  /** @param {Readonly<UnpackOptions>} [options] */
  constructor(options) {
    const o = options || {};
    // The option slots: every option of the Unpackr, the Packr and the CBOR Decoder and Encoder,
    // first and in one order (an option not among them is still copied, after them). msgpackr and
    // cbor-x keep every option on the instance, and the encoder's hot paths read the instance (its
    // settings, its methods) for every value: V8 reads a property fast only while the reading code
    // sees a few hidden classes, and an instance's hidden class follows the order in which its
    // properties were added. Copying the options as given made one hidden class per set of
    // options (nine for the configurations the benchmarks use), and after a process had used a
    // few of them, the plain pack of a small object took 1.5x as long. Assigned one by one:
    // Object.assign from a frozen list took ~0.7 us, 100x msgpackr's whole constructor.
    const self = /** @type {any} */ (this);
    self.mapsAsObjects = undefined; self.useRecords = undefined; self.structures = undefined; self.getStructures = undefined;
    self.saveStructures = undefined; self.shouldShareStructure = undefined; self.sequential = undefined; self.trusted = undefined;
    self.maxSharedStructures = undefined; self.maxOwnStructures = undefined; self.structuredClone = undefined; self.moreTypes = undefined;
    self.int64AsNumber = undefined; self.int64AsType = undefined; self.useFloat32 = undefined; self.maxDepth = undefined;
    self.codegen = undefined; self.copyBuffers = undefined; self.allowArraysInMapKeys = undefined; self.maxArrayLength = undefined;
    self.maxMapLength = undefined; self.maxStrLength = undefined; self.maxBinLength = undefined; self.maxExtLength = undefined;
    self.maxBytes = undefined; self.bundleStrings = undefined; self.useBigIntExtension = undefined; self.largeBigIntToFloat = undefined;
    self.largeBigIntToString = undefined; self.useToJSON = undefined; self.skipValues = undefined; self.encodeUndefinedAsNil = undefined;
    self.useTimestamp32 = undefined; self.variableMapSize = undefined; self.mapAsEmptyObject = undefined; self.setAsEmptyObject = undefined;
    self.coercibleKeyAsNumber = undefined; self.onInvalidDate = undefined; self.writeFunction = undefined; self.deterministic = undefined;
    self.float64 = undefined; self.indefiniteLengths = undefined; self.tagUint8Array = undefined; self.useSelfDescribedHeader = undefined;
    self.useTag259ForMaps = undefined; self.alwaysUseFloat = undefined; self.skipFunction = undefined; self.keyMap = undefined;
    self._keyMap = undefined; self.extensionCodec = undefined; self.context = undefined; self.mapKeyConverter = undefined;
    self.rawStrings = undefined; self.strictKeys = undefined; self.undefinedC1 = undefined; self.inputViews = undefined;
    self.sharedValues = undefined; self.getShared = undefined; self.maxPrivatePackedValues = undefined; self.freezeData = undefined;
    if (options) storeOptions(this, options);
    /** @type {boolean} msgpackr's rule: objects when asked, or when records are turned off */
    this.mapsAsObjects = o.mapsAsObjects !== undefined ? !!o.mapsAsObjects : !!options && o.useRecords === false;
    /** @type {(string[] & {sharedLength?: number, uninitialized?: boolean, [id: number]: any}) | undefined} */
    this.structures = o.structures;
    /** @type {boolean} */
    this.trusted = !!o.trusted;
    /** @type {(() => any) | undefined} */
    this.getStructures = o.getStructures;
    /** @type {boolean | undefined} */
    this.structuredClone = o.structuredClone;
    /** @type {boolean} binary values are copies instead of views of the input */
    this.copyBuffers = !!o.copyBuffers;
    /** @type {boolean} */
    this.allowArraysInMapKeys = !!o.allowArraysInMapKeys;
    /** @type {boolean} decoded arrays and plain objects are frozen (freezeDecoded) */
    this.freezeData = !!o.freezeData;
    if (o.sequential && o.trusted !== false) {
      this.trusted = true;
      if (!o.structures && o.useRecords !== false) {
        this.structures = [];
        if (!o.maxSharedStructures) /** @type {any} */ (this).maxSharedStructures = 0;
      }
    }
    if (this.structures) {
      this.structures.sharedLength = this.structures.length;
    } else if (o.getStructures) {
      const st = /** @type {any} */ ([]);
      st.uninitialized = true;
      st.sharedLength = 0;
      this.structures = st;
    }
    /** @type {'number' | 'bigint' | 'string' | 'auto'} */
    this.int64AsType = o.int64AsType || (o.int64AsNumber ? 'number' : 'bigint');
    /** @type {number} */
    this.useFloat32 = o.useFloat32 || 0;
    /** @type {number} */
    this.maxDepth = o.maxDepth === undefined ? DEFAULT_MAX_DEPTH : o.maxDepth;
    /** @type {boolean} */
    this.codegen = o.codegen !== false;
    if (!(this.maxDepth >= 1 && this.maxDepth <= 100000)) throw new RangeError('wirepack: maxDepth must be 1..100000');
    /** @param {number | undefined} v @param {number} dflt */
    const limit = (v, dflt) => {
      if (v === undefined) return dflt;
      if (!(v >= 1)) throw new RangeError('wirepack: length limits must be numbers >= 1');
      return Math.min(Math.floor(v), 0xffffffff);
    };
    this.maxArrayLength = limit(o.maxArrayLength, 0xffffffff);
    this.maxMapLength = limit(o.maxMapLength, 0xffffffff);
    this.maxStrLength = limit(o.maxStrLength, 0xffffffff);
    this.maxBinLength = limit(o.maxBinLength, 0xffffffff);
    this.maxExtLength = limit(o.maxExtLength, 0xffffffff);
    this.maxBytes = o.maxBytes === undefined ? DEFAULT_MAX_BYTES : limit(o.maxBytes, DEFAULT_MAX_BYTES);
    /**
     * msgpack-javascript's decoding (wirepack/msgpack's Decoder): its extension codec takes every
     * extension but the timestamp it leaves to C (none of msgpackr's), binaries are views of the
     * input, map keys are strings or numbers (or go through mapKeyConverter, over Maps), and
     * rawStrings leaves string values as bytes. null: msgpackr's decoding.
     * @type {ExtensionCodecLike | null}
     */
    this.extensionCodec = o.extensionCodec || null;
    /** @type {unknown} the extension codec's context */
    this.context = o.context;
    /** @type {((key: unknown) => string | number) | null} */
    this.mapKeyConverter = this.extensionCodec !== null && typeof o.mapKeyConverter === 'function' ? o.mapKeyConverter : null;
    /** @type {boolean} */
    this.rawStrings = this.extensionCodec !== null && !!o.rawStrings;
    /** @type {boolean} */
    this.strictKeys = this.extensionCodec !== null && this.mapKeyConverter === null && o.strictKeys !== false;
    /** @type {boolean} */
    this.undefinedC1 = !!o.undefinedC1;
    /** @type {boolean} binaries are views of the input as given (its class: no Buffer made) */
    this.inputViews = this.extensionCodec !== null || !!o.inputViews;
    this.flags = (this.mapsAsObjects ? F_MAPS_AS_OBJECTS : 0) | (this.useFloat32 > 2 ? F_TAG_F32 : 0) |
      (this.extensionCodec === null ? F_BUNDLES : (!this.strictKeys ? 0 : this.int64AsType === 'bigint' ? F_STRICT_KEYS | F_NO_INT64_KEYS : F_STRICT_KEYS) |
        (this.rawStrings ? F_RAW_STRINGS : 0)) | (this.undefinedC1 ? F_C1_UNDEFINED : 0);
    /** CBOR instead of MessagePack (set by the CBOR Decoder) */
    this.cbor = false;
    /** the record shape last found for each slot of the structures (TapeReader#recShape) */
    /** @type {Shape[]} */
    this.slotShapes = [];
  }

  /**
   * Take structures loaded by getStructures (msgpackr's _mergeStructures): they become the
   * shared ones; own structures defined since stay where they were.
   * @param {any} loadedStructures
   * @param {any} [existingStructures]
   * @returns {any}
   */
  _mergeStructures(loadedStructures, existingStructures) {
    const self = /** @type {any} */ (this);
    if (self._onLoadedStructures) loadedStructures = self._onLoadedStructures(loadedStructures);
    let loaded = loadedStructures || [];
    if (Object.isFrozen(loaded)) loaded = loaded.map((/** @type {any[]} */ st) => st.slice(0));
    for (let i = 0; i < loaded.length; i++) {
      const st = loaded[i];
      if (st) {
        st.isShared = true;
        if (i >= 32) st.highByte = (i - 32) >> 5;
      }
    }
    loaded.sharedLength = loaded.length;
    const existing = existingStructures || [];
    for (const k in existing) {
      const id = +k;
      if (id >= 0 && existing[id]) {
        if (loaded[id]) (loaded.restoreStructures || (loaded.restoreStructures = []))[id] = loaded[id];
        loaded[id] = existing[id];
      }
    }
    return (this.structures = loaded);
  }

  /**
   * Run the C decoder for this Unpackr: loads structures and retries once through getStructures
   * when a record id is undefined (msgpackr loads structures lazily the same way).
   * @param {import('./runtime.js').Runtime} rt
   * @param {Uint8Array} bytes
   * @param {number} flags
   * @returns {number} C error code
   */
  #decode(rt, bytes, flags) {
    if (this.cbor || !this.getStructures) return runDecode(rt, bytes, flags, this.maxDepth, this.cbor, this);
    const err = runDecode(rt, bytes, flags | F_REC_STRICT, this.maxDepth, false, this);
    if (err !== E_UNKNOWN_RECORD) return err;
    let loaded;
    try {
      loaded = this.getStructures();
    } catch (e) {
      throw notThisInput(e);
    }
    this._mergeStructures(loaded, this.structures);
    return runDecode(rt, bytes, flags, this.maxDepth, false, this);
  }

  /**
   * Keep the records a call defined in this Unpackr's structures, when definitions persist
   * (sequential/trusted, or within unpackMultiple, as msgpackr): the reader lists them only
   * then (keepDefs).
   * @param {TapeReader} r
   */
  #keepDefinitions(r) {
    const st = this.structures, defs = r.defs;
    if (!st || defs === null) return;
    for (let i = 0; i < defs.length; i += 2) st[idOf(defs[i])] = defs[i + 1];
  }

  /**
   * A CBOR tag's value (CBOR decoders override this; MessagePack tapes have no tags).
   * @param {number | bigint} tag
   * @param {any} value
   * @param {TapeReader} _reader
   * @returns {any}
   */
  decodeTag(tag, value, _reader) {
    return { tag, value };
  }

  /**
   * A CBOR record tag whose array of values is next on the tape: the object built from the tape,
   * or NOT_A_RECORD (CBOR decoders override this).
   * @param {number} _tag
   * @param {TapeReader} _reader
   * @returns {any}
   */
  tapeRecord(_tag, _reader) {
    return NOT_A_RECORD;
  }

  /**
   * One of the CBOR decoder's markers (CBOR decoders override this; a MessagePack tape has none).
   * @param {number} _lo
   * @param {any} value
   * @param {TapeReader} [_reader]
   * @returns {any}
   */
  decodeMarker(_lo, value, _reader) {
    return value;
  }

  /**
   * What the C decoder may build itself for this CBOR decoder (F_CBOR_*; CBOR decoders
   * override this).
   * @returns {number}
   */
  cDecodeFlags() {
    return 0;
  }

  /**
   * A CBOR record defined where it appears, its keys interned by C as shape `sid` (a CREC
   * entry): the id defined, and the shape that builds it from the values next on the tape
   * (CBOR decoders override this; a MessagePack tape has no CREC entries).
   * @param {number} _id @param {number} _sid @param {TapeReader} _reader
   * @returns {Shape}
   */
  crecShape(_id, _sid, _reader) {
    throw new Error('wirepack: corrupt tape (CREC)');
  }

  /**
   * Whether the built-in decodeTag decides what CBOR tag `tag` becomes (CBOR decoders override
   * this; a MessagePack Unpackr has no tags).
   * @param {number} _tag
   * @returns {boolean}
   */
  tagIsBuiltIn(_tag) {
    return false;
  }

  /**
   * A CBOR record defined where it first appears (tag 0xdfff), its array next on the tape: the
   * object, or NOT_A_RECORD (CBOR decoders override this).
   * @param {TapeReader} _reader
   * @returns {any}
   */
  tapeInline(_reader) {
    return NOT_A_RECORD;
  }

  /**
   * A CBOR typed-array tag (64-87) whose byte string is next on the tape: the typed array, or
   * NOT_A_RECORD (CBOR decoders override this).
   * @param {number} _tag
   * @param {TapeReader} _reader
   * @returns {any}
   */
  tapeTyped(_tag, _reader) {
    return NOT_A_RECORD;
  }

  /**
   * Whether CBOR tag `tag` (0xe000 + id) cannot make a record as it opens, its id having no keys
   * (CBOR decoders override this; TapeReader#shareable then makes it a Tag first).
   * @param {number} _tag
   * @returns {boolean}
   */
  recordUndefined(_tag) {
    return false;
  }

  /**
   * A CBOR shareable tag's value, made before its content (TapeReader#shareable): a Tag whose
   * value is set after, or null (CBOR decoders override this; a MessagePack Unpackr has no tags).
   * @param {number} _tag
   * @returns {{value: any, tag: number | bigint} | null}
   */
  tagPlaceholder(_tag) {
    return null;
  }

  /**
   * A CBOR simple value other than false/true/null/undefined.
   * @param {number} value
   * @returns {any}
   */
  decodeSimple(value) {
    return { simple: value };
  }

  /**
   * freezeData: a decoded value, frozen (freezeDecoded). The CBOR Decoder freezes after keyMap's
   * renaming instead.
   * @param {any} value
   * @returns {any}
   */
  freezeValue(value) {
    return freezeDecoded(value);
  }

  /** Before each top-level value of a sequence after the first (#unpackMultiple): what the value
   * before had in scope and this one does not (the CBOR Decoder's bundle; MessagePack's C scopes
   * its bundles itself). */
  nextValue() {}

  /**
   * Decode one MessagePack value.
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @param {number | {start?: number, end?: number, lazy?: boolean}} [options] msgpackr's end
   *   offset, or {start, end}: decode only that part of source (`lazy` is ignored)
   * @returns {any}
   */
  unpack(source, options) {
    let bytes = toBytes(source);
    if (options !== undefined) bytes = range(bytes, options);
    const rt = acquire();
    /** @type {DecodeError | null} */
    let own = null;
    try {
      if (this.#decode(rt, bytes, this.flags) !== 0) throw (own = errorFromResult(rt));
      const r = reader(rt, bytes, this);
      const value = r.v();
      if (r.defs !== null) this.#keepDefinitions(r);
      return this.freezeData === true ? this.freezeValue(value) : value;
    } catch (e) {
      // a safety net: the builder never recurses deeper than maxDepth, but user extensions or
      // shareable containers nested very deep could still exhaust the JS stack
      if (e instanceof RangeError && /call stack/i.test(e.message)) throw new DecodeError('DEPTH', 0, 'Nesting too deep for the JS stack');
      if (e !== own) notThisInput(e);
      throw e;
    } finally {
      if (rt.reader !== null) rt.reader.end();
      release(rt);
      releaseMemory();
    }
  }

  /**
   * Decode a sequence of concatenated values. With a callback, calls it with each value and its
   * byte range, stopping early when it returns false; otherwise returns the values.
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
  unpackMultiple(source, forEach) {
    const bytes = toBytes(source);
    const rt = acquire();
    try {
      return this.#unpackMultiple(rt, bytes, forEach);
    } finally {
      if (rt.reader !== null) rt.reader.end();
      release(rt);
      releaseMemory();
    }
  }

  /**
   * @param {import('./runtime.js').Runtime} rt
   * @param {Uint8Array} bytes
   * @param {(value: any, start: number, end: number) => unknown} [forEach]
   * @returns {any[] | undefined}
   */
  #unpackMultiple(rt, bytes, forEach) {
    const err = this.#decode(rt, bytes, this.flags | F_MULTIPLE);
    const failure = err !== 0 ? errorFromResult(rt) : null;
    const count = rt.u32[rt.res + 7];
    /** @type {any[]} */
    const values = [];
    if (count > 0) {
      // Values before the failing one are complete on the tape; positions need a second pass.
      const r = reader(rt, bytes, this);
      r.keepDefs = true;
      const ep = rt.u32[rt.res + 16] >> 2;
      const ends = forEach ? rt.u32.slice(ep, ep + count) : null;
      const freeze = this.freezeData === true;
      let inCallback = false;
      try {
        for (let i = 0; i < count; i++) {
          // (CBOR's shared references (tag 29) count the shareables of their own value: the
          // second value's 29(0) is its own first, not the first value's; cbor-x mixes them)
          r.shared = null;
          if (i > 0) this.nextValue();
          const value = freeze ? this.freezeValue(r.v()) : r.v();
          if (forEach) {
            inCallback = true;
            const stop = ends ? forEach(value, i === 0 ? 0 : ends[i - 1], ends[i]) : forEach(value, -1, -1);
            inCallback = false;
            if (stop === false) {
              this.#keepDefinitions(r);
              return undefined;
            }
          } else values.push(value);
        }
      } catch (e) {
        // (the callback's errors are the caller's own)
        if (!inCallback) notThisInput(e);
        throw e;
      }
      this.#keepDefinitions(r);
    }
    if (failure) {
      failure.values = values;
      failure.lastPosition = rt.u32[rt.res + 6];
      throw failure;
    }
    return forEach ? undefined : values;
  }

  /**
   * @param {Uint8Array | ArrayBuffer | DataView} source
   * @param {number | {start?: number, end?: number, lazy?: boolean}} [options]
   */
  decode(source, options) {
    return this.unpack(source, options);
  }
}
