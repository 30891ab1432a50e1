// Node: long non-ASCII strings as UTF-8 that Buffer#utf8Slice decodes (STR8 tape entries,
// WP_DEC_UTF8_HOST). The default from Node 24 only (runtime.js FAST_UTF8); forced on here, so that
// the path runs on every Node CI uses, and compared with TextDecoder and with the transcode path.
import fc from 'fast-check';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { Packr, pack, unpack, unpackMultiple } from 'wirepack';
import { Encoder, decode, decodeMultiple, encode } from 'wirepack/cbor';
import { FAST_UTF8, runtime } from '../js/src/runtime.js';

/** The shortest string C hands over (csrc/wirepack.h WP_UTF8_HOST_MIN). */
const MIN = 64;
/** The longest key C interns (WP_KEY_MAX_BYTES): the key table makes those strings. */
const KEY_MAX = 64;
const td = new TextDecoder();
const proto = /** @type {any} */ (Buffer.prototype);
const utf8Slice = proto.utf8Slice;
let slices = 0;
/** @type {{ rt: any, host: boolean } | null} */
let saved = null;

/** Whether decodes use the STR8 path (on the runtime in use now: the first call makes it). */
function host(on) {
  unpack(pack(0));
  const rt = /** @type {any} */ (runtime());
  if (saved === null) saved = { rt, host: rt.utf8Host };
  rt.utf8Host = on;
}

beforeEach(() => {
  host(true);
  proto.utf8Slice = function (/** @type {number} */ start, /** @type {number} */ end) {
    slices++;
    return utf8Slice.call(this, start, end);
  };
});
afterEach(() => {
  proto.utf8Slice = utf8Slice;
  if (saved !== null) saved.rt.utf8Host = saved.host;
  saved = null;
});

/** f() and how many strings utf8Slice made during it (synchronously: nothing else runs). */
function counted(f) {
  slices = 0;
  const v = f();
  return { v, slices };
}

/** A string of exactly `bytes` UTF-8 bytes from `unit` (1-4 bytes each) and ASCII filler. */
function ofBytes(unit, bytes) {
  const u = Buffer.byteLength(unit);
  return unit.repeat(Math.floor(bytes / u)) + 'x'.repeat(bytes % u);
}

/** MessagePack str and CBOR text headers over raw bytes (possibly ill-formed UTF-8). */
const mpStr = (/** @type {Uint8Array} */ b) => Buffer.concat([Buffer.from(b.length < 256 ? [0xd9, b.length] : [0xda, b.length >> 8, b.length & 0xff]), b]);
const cbText = (/** @type {Uint8Array} */ b) => Buffer.concat([Buffer.from(b.length < 256 ? [0x78, b.length] : [0x79, b.length >> 8, b.length & 0xff]), b]);

test('the default: on from Node 24 (its utf8Slice is simdutf), off before', () => {
  expect(FAST_UTF8).toBe(Number(process.versions.node.split('.')[0]) >= 24);
});

for (const [fmt, enc, dec] of /** @type {const} */ ([['MessagePack', pack, unpack], ['CBOR', encode, decode]])) {
  test(`${fmt}: values and keys of every width around the minimum, made by utf8Slice from ${MIN} bytes`, () => {
    for (const unit of ['é', '日', '😀', 'aé日😀']) {
      for (const bytes of [MIN - 2, MIN - 1, MIN, MIN + 1, MIN + 7, 300, 70000]) {
        const s = ofBytes(unit, bytes);
        expect(Buffer.byteLength(s)).toBe(bytes);
        const doc = { [s]: s, list: [s, 1, s], k: 'short é' };
        const { v, slices: n } = counted(() => dec(enc(doc)));
        expect(v).toEqual(doc);
        // the value and the list's two strings, and the key unless it is interned
        expect(n).toBe(bytes >= MIN ? 3 + (bytes > KEY_MAX ? 1 : 0) : 0);
      }
    }
  });

  test(`${fmt}: ASCII strings stay in the ASCII area whatever their length`, () => {
    const s = 'x'.repeat(1000);
    const { v, slices: n } = counted(() => dec(enc([s, s])));
    expect(v).toEqual([s, s]);
    expect(n).toBe(0);
  });

  test(`${fmt}: ill-formed UTF-8 is replaced as TextDecoder replaces it, as the transcode does`, () => {
    const head = fmt === 'MessagePack' ? mpStr : cbText;
    fc.assert(
      fc.property(fc.uint8Array({ minLength: MIN, maxLength: 400 }), fc.uint8Array({ maxLength: 8 }), (bytes, tail) => {
        // (a tail of ASCII keeps some inputs mostly ASCII, others not)
        const b = Buffer.concat([bytes, Buffer.from(tail.map((x) => x & 0x7f))]);
        const want = td.decode(b);
        host(true);
        const viaHost = dec(head(b));
        host(false);
        const viaC = dec(head(b));
        host(true);
        expect(viaHost).toBe(want);
        expect(viaC).toBe(want);
      }),
      { numRuns: 300 },
    );
  });

  test(`${fmt}: any strings round-trip with the STR8 path on`, () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 120 }), { maxLength: 6 }), (strings) => {
        const doc = { strings, o: Object.fromEntries(strings.map((s, i) => [s + i, s])) };
        expect(dec(enc(doc))).toEqual(doc);
      }),
      { numRuns: 300 },
    );
  });
}

test('sequences: every value of unpackMultiple and decodeMultiple', () => {
  const s = ofBytes('日本', 400);
  const values = [s, 1, { a: s }, [s, 'é']];
  const mp = Buffer.concat(values.map((v) => pack(v)));
  const cb = Buffer.concat(values.map((v) => encode(v)));
  expect(counted(() => unpackMultiple(mp))).toEqual({ v: values, slices: 3 });
  expect(counted(() => decodeMultiple(cb))).toEqual({ v: values, slices: 3 });
});

test('records and bundled strings: long non-ASCII values as in any other message', () => {
  const s = ofBytes('Grüße 😀 ', 500);
  const docs = [{ name: s, id: 1 }, { name: s + '!', id: 2 }];
  const records = new Packr();
  expect(records.unpack(records.pack(docs))).toEqual(docs);
  // (MessagePack bundles are sliced by UTF-16 units: their two strings keep the transcode)
  const bundled = new Packr({ bundleStrings: true, structures: [] });
  expect(bundled.unpack(bundled.pack(docs))).toEqual(docs);
  const cborBundled = new Encoder({ bundleStrings: true });
  expect(cborBundled.decode(cborBundled.encode(docs))).toEqual(docs);
  const cborRecords = new Encoder({ useRecords: true });
  expect(cborRecords.decode(cborRecords.encode(docs))).toEqual(docs);
});
