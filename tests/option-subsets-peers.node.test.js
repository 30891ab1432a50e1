// Random subsets of the peers' options, each side writing and reading with the same options:
// wirepack's bytes read by msgpackr / cbor-x, theirs read by wirepack, and wirepack's own round
// trip all give what the peer's own round trip gives, or else the value itself (check). Found,
// each in its first runs: an Error that refers to itself coming back as {}, record keys with a
// structured-clone id (BAD_RECORD), a structures array that carries msgpackr's transitions
// (TypeError), int64AsNumber rounding bignums, structuredClone turning records off (objects came
// back as Maps), keyMap with structuredClone (a RangeError on cycles, tag-259 Maps turned into
// objects), keyMap with mapsAsObjects: false (Maps as objects), largeBigIntToFloat ignored,
// Dates rounded to float32 seconds by useFloat32, and (seed 29) cbor-x's record ids written as
// floats with alwaysUseFloat, read with keyMap: a record used inside its own definition came
// back as a Tag; class instances whose prototype has an enumerable property gave records more
// values than keys. (Seed 45 found a cbor-x defect: with bundleStrings and structuredClone its
// bundle offset misses the shareable tags it inserts afterwards; cborxBundleMissesTags.)
// More runs: FC_SEED=<n> with OPTION_RUNS=<n> (seeds 1-60 pass at 400 runs, streams included).
// Where cbor-x's own round trip loses two things in one value (a bundle written as a packed
// reference to itself, read back as ''), check cannot sort them out: read the values.
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import * as msgpackr from 'msgpackr';
import * as cborx from 'cbor-x';
import * as mp from 'wirepack';
import * as cb from 'wirepack/cbor';
import { itemSpans } from './helpers/cbor.js';

const RUNS = Number(process.env.OPTION_RUNS || 150);

const key = fc.oneof(fc.constantFrom('a', 'b', 'name', 'id', 'constructor', '', '1', '-2', 'toString'),
  fc.string({ maxLength: 6 }).filter((k) => k !== '__proto__')); // (msgpackr renames __proto__ keys)

/** A class whose prototype has an enumerable data property, which no encoder may write. */
class WithProtoKey {}
/** @type {any} */ (WithProtoKey.prototype).inherited = 'no';
/** A class with a toJSON (useToJSON: msgpackr's default is on, cbor-x's off). */
class WithToJSON {
  constructor() { this.own = 1; }
  toJSON() { return { viaJSON: [1, 'x'] }; }
}

/** Values of every kind both peers write, with sharing (the same object twice) at the top. */
function values(leafExtra) {
  const leaf = fc.oneof(fc.constant(null), fc.constant(undefined), fc.boolean(), fc.integer(), fc.integer({ min: -1e6, max: 1e6 }),
    fc.double(), fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), fc.string({ maxLength: 12 }), fc.string({ minLength: 20, maxLength: 80 }),
    fc.uint8Array({ maxLength: 20 }), fc.date({ noInvalidDate: true }),
    fc.constantFrom(() => new Error('e'), () => new TypeError('t'), () => /re+/g, () => new Int16Array([1, -2]), () => new Float64Array([0.5]), () => new WithToJSON()).map((f) => f()),
    ...leafExtra);
  const value = fc.letrec((tie) => ({
    v: fc.oneof({ depthSize: 'small' }, leaf, tie('arr'), tie('obj'), tie('map'), tie('set'), tie('inst')),
    arr: fc.array(tie('v'), { maxLength: 6 }),
    obj: fc.dictionary(key, tie('v'), { maxKeys: 6 }),
    // (class instances: their own keys, as a plain object's)
    inst: fc.dictionary(key, tie('v'), { maxKeys: 3 }).map((d) => Object.assign(new WithProtoKey(), d)),
    map: fc.array(fc.tuple(fc.oneof(key, fc.integer()), tie('v')), { maxLength: 4 }).map((e) => new Map(e)),
    set: fc.array(tie('v'), { maxLength: 4 }).map((e) => new Set(e)),
  })).v;
  const shared = fc.tuple(value, value).map(([a, b]) => ({ a, b, again: a, list: [b, a] }));
  return fc.array(fc.oneof(value, shared), { minLength: 1, maxLength: 3 });
}

const hexOf = (u) => Array.from(new Uint8Array(u.buffer, u.byteOffset, u.byteLength), (x) => x.toString(16).padStart(2, '0')).join('');

/** A comparable form: what each kind holds (objects' keys in their order, Maps' in theirs). */
function norm(x, seen = new Set()) {
  if (x === undefined) return { undef: 1 };
  if (x === null || typeof x === 'boolean' || typeof x === 'string') return x;
  if (typeof x === 'number') return Object.is(x, -0) ? { num: '-0' } : Number.isNaN(x) ? { num: 'NaN' } : x;
  if (typeof x === 'bigint') return { big: String(x) };
  if (typeof x !== 'object') return { other: typeof x };
  if (seen.has(x)) return { cycle: 1 };
  seen.add(x);
  try {
    if (x instanceof Date) return { date: x.getTime() };
    if (x instanceof Uint8Array) return { bin: hexOf(x) };
    if (ArrayBuffer.isView(x)) return { ta: x.constructor.name, v: hexOf(x) };
    if (x instanceof ArrayBuffer) return { ab: hexOf(new Uint8Array(x)) };
    if (Array.isArray(x)) return x.map((v) => norm(v, seen));
    if (x instanceof Map) return { map: [...x].map(([k, v]) => [norm(k, seen), norm(v, seen)]) };
    if (x instanceof Set) return { set: [...x].map((v) => norm(v, seen)) };
    if (x instanceof Error) return { err: x.message }; // (cbor-x reads every Error class as Error)
    if (x instanceof RegExp) return { re: x.source, f: x.flags };
    if (x instanceof cb.Tag || x instanceof cborx.Tag) return { tag: x.tag, value: norm(x.value, seen) };
    return { kv: Object.keys(x).map((k) => [k, norm(x[k], seen)]) };
  } finally {
    seen.delete(x);
  }
}

/** @param {any} c a normalized node @returns {any[]} what an option's documented loss makes of it */
function lossy(c) {
  if (typeof c === 'number') return [Math.fround(c)];
  if (c === null || typeof c !== 'object') return [];
  if (typeof c.big === 'string') return [Number(BigInt(c.big))];
  if (typeof c.date === 'number') return [{ date: Math.floor(c.date / 1000) * 1000 }];
  if (Array.isArray(c.map)) {
    // (cbor-x's EncoderStream writes a Map as the array of its entries)
    if (!c.map.every(([k]) => typeof k === 'string' || typeof k === 'number')) return [c.map];
    // (as an object orders them: array-index keys first, ascending)
    const index = (k) => /^(0|[1-9][0-9]*)$/.test(k) && Number(k) < 4294967295;
    const entries = c.map.map(([k, v]) => [String(k), v]);
    const first = entries.filter(([k]) => index(k)).sort((a, b) => Number(a[0]) - Number(b[0]));
    return [c.map, { kv: [...first, ...entries.filter(([k]) => !index(k))] }];
  }
  // (and objects as maps: mapsAsObjects: false without records; a WithToJSON as what its toJSON
  // returns, with useToJSON; keys that are the keyMap's short names, 'n' and 'i', come back as
  // the names they stand for)
  if (Array.isArray(c.kv)) {
    const out = [{ map: c.kv }];
    if (JSON.stringify(c.kv) === '[["own",1]]') out.push({ kv: [['viaJSON', [1, 'x']]] });
    if (c.kv.some(([k]) => k === 'n' || k === 'i')) out.push({ kv: c.kv.map(([k, v]) => [k === 'n' ? 'name' : k === 'i' ? 'id' : k, v]) });
    return out;
  }
  // (without moreTypes, msgpackr writes a Set's elements as an array, an Error as the array
  // [name, message, cause] and a RegExp as [source, flags]; the generator's Errors are Error and
  // TypeError)
  if (Array.isArray(c.set)) return [c.set];
  if (typeof c.err === 'string') return ['Error', 'TypeError'].map((name) => [name, c.err, { undef: 1 }]);
  if (typeof c.re === 'string') return [[c.re, c.f]];
  // (and a typed array's bytes as a binary: msgpackr without moreTypes)
  if (typeof c.ta === 'string') return [{ bin: c.v }];
  return [];
}

/**
 * Whether got (normalized) is, node by node, what the peer's own round trip gave or the value
 * itself (the candidates): where it is neither, it is compared element by element with each
 * candidate of the same kind and size, so that a peer's quirk in one place and an option's loss
 * (or a peer's loss that wirepack does not have) in another both pass.
 * @param {any} got @param {any[]} candidates
 */
function either(got, given) {
  // (and what the options lose, where the peer's own round trip cannot show it, having lost
  // something else there: BigInts as floats, floats as float32, maps as objects and objects as
  // maps, whole seconds, Sets, Maps, Errors and RegExps as arrays)
  const candidates = [...given, ...given.flatMap(lossy)];
  const g = JSON.stringify(got);
  if (candidates.some((c) => JSON.stringify(c) === g)) return true;
  if (Array.isArray(got)) {
    const same = candidates.filter((c) => Array.isArray(c) && c.length === got.length);
    return same.length > 0 && got.every((x, i) => either(x, same.map((c) => c[i])));
  }
  if (got === null || typeof got !== 'object') return false;
  const keys = JSON.stringify(Object.keys(got));
  const same = candidates.filter((c) => c !== null && typeof c === 'object' && !Array.isArray(c) && JSON.stringify(Object.keys(c)) === keys);
  return same.length > 0 && Object.keys(got).every((k) => either(got[k], same.map((c) => c[k])));
}

const attempt = (f) => { try { return { ok: f() }; } catch (e) { return { err: String(e && e.message) }; } };

/**
 * @param {(o: any, s: any) => {encode(v: unknown): Uint8Array}} encoder
 * @param {(o: any, s: any) => {decode(b: Uint8Array): unknown}} decoder
 */
function roundTrip(encoder, decoder, options, vals) {
  /** @type {Uint8Array | null} the last message written (the one a decode error is about) */
  let last = null;
  const r = attempt(() => {
    // (shared structures reach the decoder only through a structures array both are given)
    const structures = options.structures || options.maxSharedStructures ? [] : undefined;
    const e = encoder({ ...options }, structures), d = decoder({ ...options }, structures);
    return vals.map((v) => d.decode(last = e.encode(v)));
  });
  return { ...r, last };
}

/**
 * cbor-x's first bundle in a message (0xdff9 over [offset as a uint32, ...]): where its head is
 * (i) and where its offset points (at: cbor-x reads the offset from where it starts, after the
 * array head), or null.
 * @param {Uint8Array} b
 * @returns {{ i: number, at: number } | null}
 */
function cborxBundleAt(b) {
  for (let i = 0; i + 9 <= b.length; i++) {
    if (b[i] !== 0xd9 || b[i + 1] !== 0xdf || b[i + 2] !== 0xf9 || b[i + 3] !== 0x82 || b[i + 4] !== 0x1a) continue;
    return { i, at: i + 4 + ((b[i + 5] << 24 | b[i + 6] << 16 | b[i + 7] << 8 | b[i + 8]) >>> 0) };
  }
  return null;
}

/**
 * Whether cbor-x's message has a bundle (0xdff9) whose offset misses the shareable tags (d8 1c)
 * cbor-x inserts after it has written the offset (bundleStrings with structuredClone, when a
 * value is met twice: its encode writes the bundles, then moves the bytes after each first
 * occurrence to insert the tag). The offset then points short of the two strings, which lie 2
 * bytes further per tag inserted after the bundle's head; cbor-x's own decoder throws
 * "Unexpected bundle position" or reads other bytes (seed 45), wirepack BAD_BUNDLE. Checked on
 * the bytes: the strings are not where the offset says and are where the tags moved them.
 * @param {Uint8Array} b
 */
function cborxBundleMissesTags(b) {
  // two text strings from p running to the end of the message (cbor-x writes them last)
  const textEnd = (p) => { try { return b[p] >> 5 === 3 ? itemSpans(b, p).end : -1; } catch { return -1; } };
  const stringsAt = (p) => { const q = textEnd(p); return q > 0 && textEnd(q) === b.length; };
  const bundle = cborxBundleAt(b);
  if (bundle === null) return false;
  const { i, at } = bundle;
  let tags = 0;
  for (let k = i + 9; k + 1 < b.length; k++) if (b[k] === 0xd8 && b[k + 1] === 0x1c) tags++;
  // the strings are where the message's item ends, when it parses as one (the bytes at a wrong
  // offset can parse as two strings to the end too: seed 127, "d|" then "againlist" read as
  // "|`ia" then "ainlist")
  let s = -1;
  try { s = itemSpans(b, 0).end; } catch { /* (not one well-formed item: by the bytes alone) */ }
  if (s >= 0 && stringsAt(s)) {
    for (let m = 1; m <= tags; m++) if (at + 2 * m === s) return true;
    return false;
  }
  if (stringsAt(at)) return false;
  for (let m = 1; m <= tags; m++) if (stringsAt(at + 2 * m)) return true;
  return false;
}

/**
 * Whether cbor-x's message has a bundle (0xdff9) whose offset points to something other than two
 * text strings: with bundleStrings and pack, cbor-x packs the bundle's strings too, and a packed
 * reference (e0) stands where the second goes (its decoder reads any head there as a string's
 * length: an empty string, the bundled text lost; seeds 153, 156).
 * @param {Uint8Array} b
 */
function cborxBundleNotStrings(b) {
  const bundle = cborxBundleAt(b);
  if (bundle === null) return false;
  try {
    return b[bundle.at] >> 5 !== 3 || b[itemSpans(b, bundle.at).end] >> 5 !== 3;
  } catch {
    return true;
  }
}

/**
 * Each pairing gives what the peer's own round trip gives (the options' losses, the peer's
 * rules for Maps and objects), or the value itself (where the peer's own loses what it should
 * not: cbor-x's gives a Tag for an empty object with sequential, {} for a Map that refers to
 * itself).
 */
function check(peers, value, run, pairings, o, peer, peerBytesBad = false) {
  const peerLoses = JSON.stringify(peers) !== JSON.stringify(value);
  for (const [name, E, D] of pairings) {
    // (bytes the peer's own decoder cannot read are no input to judge a decoder by)
    if (E === peer && peerBytesBad) continue;
    const got = run(E, D);
    // (bytes the peer's own decoder misreads may be refused: cbor-x's bundle written as a
    // packed reference to itself, which wirepack rejects with BAD_BUNDLE, README)
    if (got.err !== undefined && E === peer && peerLoses) continue;
    // (nor bytes of cbor-x's whose bundle offset misses the shareable tags it inserted later: its
    // own decoder misreads them, and reads them right only by chance; wirepack's BAD_BUNDLE, or
    // the error of the item the offset points into)
    if (got.err !== undefined && E === cborx && o.bundleStrings && o.structuredClone && got.last !== null &&
      cborxBundleMissesTags(got.last)) continue;
    // (nor bytes of cbor-x's whose bundle holds a packed reference where a string goes)
    if (got.err !== undefined && E === cborx && o.bundleStrings && o.pack && got.last !== null && cborxBundleNotStrings(got.last)) continue;
    // (nor is the peer's decoder an oracle where it misreads its own bytes: msgpackr's stream with
    // bundleStrings and structuredClone renames keys, and others with its input cut elsewhere)
    if (D === peer && peerLoses) continue;
    expect(got.err, `${name} ${JSON.stringify(o)}`).toBeUndefined();
    const t = norm(got.ok);
    if (!either(t, [peers, value])) expect(JSON.stringify(t), `${name} ${JSON.stringify(o)}`).toBe(JSON.stringify(value));
  }
}

describe('random option subsets, each side reading the other', () => {
  test('MessagePack: wirepack and msgpackr read each other\'s bytes as msgpackr reads its own', () => {
    const options = fc.record({
      useRecords: fc.boolean(), structures: fc.constant([]), sequential: fc.boolean(), bundleStrings: fc.boolean(), moreTypes: fc.boolean(),
      structuredClone: fc.boolean(), mapsAsObjects: fc.boolean(), useTimestamp32: fc.boolean(), encodeUndefinedAsNil: fc.boolean(),
      variableMapSize: fc.boolean(), int64AsType: fc.constantFrom('bigint', 'number', 'string', 'auto'), useBigIntExtension: fc.boolean(),
      largeBigIntToString: fc.boolean(), copyBuffers: fc.boolean(), maxSharedStructures: fc.integer({ min: 0, max: 40 }),
      maxOwnStructures: fc.integer({ min: 1, max: 64 }), coercibleKeyAsNumber: fc.boolean(), allowArraysInMapKeys: fc.boolean(),
      mapAsEmptyObject: fc.boolean(), setAsEmptyObject: fc.boolean(), useToJSON: fc.boolean(), useFloat32: fc.constantFrom(0, 1, 3, 4),
    }, { requiredKeys: [] });
    // (an encoder and its decoder share one structures array, but not in sequential mode, where
    // both libraries' encoders keep their per-message keys in it too, which the decoder then took
    // for its own definitions (both read a record the encoder had redefined later: msgpackr
    // silently, wirepack BAD_BUNDLE at the bundle it then met; seed 8); there the decoder has its
    // own array, and nothing is shared)
    const packr = (L) => (o, s) => new L.Packr({ ...o, structures: s, ...(o.sequential ? { maxSharedStructures: 0 } : {}) });
    const unpackr = (L) => (o, s) => new L.Unpackr({ ...o, structures: o.sequential && s ? [] : s });
    const withDecode = (make) => (o, s) => { const u = make(o, s); return { decode: (b) => u.unpack(b) }; };
    const withEncode = (make) => (o, s) => { const p = make(o, s); return { encode: (v) => p.pack(v) }; };
    fc.assert(fc.property(options, values([fc.integer({ min: 0x40, max: 0x7f }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n })]), (o, vals) => {
      const theirs = roundTrip(withEncode(packr(msgpackr)), withDecode(unpackr(msgpackr)), o, vals);
      if (theirs.err !== undefined) return; // (what msgpackr cannot do itself)
      check(norm(theirs.ok), norm(vals), (E, D) => roundTrip(withEncode(packr(E)), withDecode(unpackr(D)), o, vals),
        [['wirepack -> msgpackr', mp, msgpackr], ['msgpackr -> wirepack', msgpackr, mp], ['wirepack -> wirepack', mp, mp]], o, msgpackr);
    }), { numRuns: RUNS });
  }, 120000);

  test('CBOR: wirepack and cbor-x read each other\'s bytes, and their own, as the value, where cbor-x\'s own round trip gives it', () => {
    const options = fc.record({
      useRecords: fc.boolean(), structures: fc.constant([]), sequential: fc.boolean(), bundleStrings: fc.boolean(), pack: fc.boolean(),
      structuredClone: fc.boolean(), mapsAsObjects: fc.boolean(), useTimestamp32: fc.boolean(), useTag259ForMaps: fc.boolean(),
      useSelfDescribedHeader: fc.boolean(), tagUint8Array: fc.boolean(), alwaysUseFloat: fc.boolean(), int64AsNumber: fc.boolean(),
      largeBigIntToFloat: fc.boolean(), copyBuffers: fc.boolean(), maxSharedStructures: fc.integer({ min: 0, max: 40 }),
      variableMapSize: fc.boolean(), keyMap: fc.constant({ name: 'n', id: 'i' }), useStringRefs: fc.boolean(), useFloat32: fc.constantFrom(0, 1, 2, 3, 4),
      useToJSON: fc.boolean(),
    }, { requiredKeys: [] });
    // (an encoder and its decoder share one structures array, as a Packr and Unpackr pair does;
    // not in sequential mode, which has no shared structures in cbor-x: there the decoder's
    // definitions went into the encoder's array, and both libraries read a record the next
    // message refers to as Tag(57344))
    const enc = (L) => (o, s) => new L.Encoder({ ...o, structures: s });
    const dec = (L) => (o, s) => new L.Decoder({ ...o, structures: o.sequential ? [] : s });
    fc.assert(fc.property(options, values([]), (o, vals) => {
      // (cbor-x's own round trip is no oracle with bundleStrings and structuredClone: its bundle
      // offsets can miss the shareable tags it inserts later (cborxBundleMissesTags), and its
      // decoder then throws or reads other bytes, keys and strings among them, without an error
      // (seed 130, where the value was no oracle either: useFloat32 3 rounds). A bundle changes
      // where strings are written, not what decodes: the oracle is its round trip without one.
      // Where cbor-x cannot read its own bytes, they are not read by wirepack either (seed 139:
      // with pack too, its bundle held a packed reference where a string goes).)
      const own = roundTrip(enc(cborx), dec(cborx), o, vals);
      const theirs = o.bundleStrings && o.structuredClone ? roundTrip(enc(cborx), dec(cborx), { ...o, bundleStrings: false }, vals) : own;
      if (theirs.err !== undefined) return; // (what cbor-x cannot do itself)
      check(norm(theirs.ok), norm(vals), (E, D) => roundTrip(enc(E), dec(D), o, vals),
        [['wirepack -> cbor-x', cb, cborx], ['cbor-x -> wirepack', cborx, cb], ['wirepack -> wirepack', cb, cb]], o, cborx, own.err !== undefined);
    }), { numRuns: RUNS });
  }, 120000);
});

/** Write values into a Node Transform (and end it) and collect what it outputs. */
async function through(stream, chunks) {
  const out = [];
  const done = new Promise((resolve, reject) => { stream.on('end', resolve); stream.on('error', reject); });
  stream.on('data', (x) => out.push(x));
  for (const c of chunks) stream.write(c);
  stream.end();
  await done;
  return out;
}

describe('random option subsets through the Node streams, their bytes cut at random', () => {
  // (found: a CBOR chunk that ended between a bundle's offset and its strings was BAD_BUNDLE,
  // and a CBOR sequence's second value took the first one's shared references)
  const STREAMS = [
    ['MessagePack', [mp.PackrStream, mp.UnpackrStream], [msgpackr.PackrStream, msgpackr.UnpackrStream], msgpackr, fc.record({
      useRecords: fc.boolean(), sequential: fc.boolean(), bundleStrings: fc.boolean(), moreTypes: fc.boolean(), structuredClone: fc.boolean(),
      useTimestamp32: fc.boolean(), variableMapSize: fc.boolean(), maxOwnStructures: fc.integer({ min: 1, max: 64 }),
    }, { requiredKeys: [] })],
    ['CBOR', [cb.EncoderStream, cb.DecoderStream], [cborx.EncoderStream, cborx.DecoderStream], cborx, fc.record({
      useRecords: fc.boolean(), sequential: fc.boolean(), bundleStrings: fc.boolean(), pack: fc.boolean(), structuredClone: fc.boolean(),
      useTimestamp32: fc.boolean(), variableMapSize: fc.boolean(), useTag259ForMaps: fc.boolean(), mapsAsObjects: fc.boolean(),
    }, { requiredKeys: [] })],
  ];
  // (no null or undefined at the top: a stream ends there)
  const messages = values([]).map((vals) => vals.filter((v) => v !== null && v !== undefined)).filter((vals) => vals.length > 0);
  const cuts = fc.array(fc.nat(600), { maxLength: 6 }).map((a) => a.sort((x, y) => x - y));
  for (const [name, ours, theirs, peer, options] of STREAMS) {
    test(`${name}: each side's stream reads the other's, as the peer's reads its own`, async () => {
      await fc.assert(fc.asyncProperty(options, messages, cuts, async (o, vals, at) => {
        /** @type {Map<any, any>} */
        const got = new Map();
        for (const [E, D] of [[theirs, theirs], [ours, theirs], [theirs, ours], [ours, ours]]) {
          try {
            const bytes = Buffer.concat((await through(new E[0]({ ...o }), vals)).map((c) => Buffer.from(c)));
            const chunks = [0, ...at.filter((c) => c < bytes.length), bytes.length].map((c, i, a) => bytes.subarray(a[i - 1] || 0, c)).filter((c) => c.length);
            got.set(`${E === ours}${D === ours}`, { ok: await through(new D[1]({ ...o }), chunks) });
          } catch (e) {
            got.set(`${E === ours}${D === ours}`, { err: String(e && e.message) });
          }
        }
        const own = got.get('falsefalse');
        if (own.err !== undefined) return; // (what the peer's streams cannot do themselves: cbor-x's with bundleStrings)
        const lib = (x) => (x ? mp : peer), them = peer === msgpackr ? 'msgpackr' : 'cbor-x';
        const pairings = [[`wirepack -> ${them}`, lib(true), lib(false)], [`${them} -> wirepack`, lib(false), lib(true)], ['wirepack -> wirepack', mp, mp]];
        // (cbor-x's EncoderStream writes no shared references; its DecoderStream resolves those
        // of a later value to an earlier value's shareables, so it cannot read wirepack's)
        check(norm(own.ok), norm(vals), (E, D) => got.get(`${E === mp}${D === mp}`),
          peer === cborx && o.structuredClone ? pairings.slice(1) : pairings, o, peer);
      }), { numRuns: Math.ceil(RUNS / 2) });
    }, 120000);
  }
});
