// Differential-fuzzing helpers (Node only): byte mutations, tolerant structural walkers for
// MessagePack and CBOR, and the comparison of wirepack's result with a peer's (msgpackr or
// cbor-x). The comparison allows exactly the differences listed here, each one named and, where
// the value alone cannot show it, checked against the input bytes (or the peer's error message
// and wirepack's value). Anything else is a mismatch.
//
// Documented differences (README.md), by class name:
//   MessagePack (peer: msgpackr unpack / new Unpackr({useRecords:false}) / new Unpackr(); wirepack
//   reads msgpackr's extensions as msgpackr does: records 0x72 and ids 0x40-0x7f, bundled strings
//   0x62 + 0xc1, BigInt 0x42, Error 0x65, structured clone 0x69/0x70, Set 0x73, typed arrays 0x74,
//   RegExp 0x78, and every type-0 extension is undefined; those values must agree exactly)
//     proto-key            a '__proto__' key stays '__proto__' (msgpackr renames it '__proto_'),
//                          in maps and in record keys
//     non-string-keys      a map with a key that is no string, number, boolean, nil or undefined
//                          (bytes, an array, a map, an extension) is a Map, where msgpackr throws
//                          (option mapsAsObjects); the others are coerced as msgpackr coerces them
//     timestamp-floor      nanoseconds floor to the millisecond (msgpackr keeps the fraction and
//                          the Date constructor truncates it toward zero)
//     bad-timestamp        size other than 4/8/12, or nanoseconds >= 1e9: DecodeError BAD_TIMESTAMP
//                          (msgpackr: an invalid or a later Date)
//     reserved-c1          0xc1 outside bundled strings: DecodeError RESERVED_BYTE (msgpackr
//                          returns its C1 marker)
//     uninterpreted-ext    extension types neither interprets are ExtData ("Types on the wire");
//                          msgpackr throws "Unknown extension" (also for 0x72 in other forms than
//                          fixext 1/2). Not in README yet: 0x62 of fewer than 4 bytes is no bundle
//                          to wirepack (ExtData); msgpackr fails "Expected string" on it
//     utf8-replacement     invalid UTF-8 becomes U+FFFD exactly as TextDecoder does (accepted when
//                          wirepack's string is TextDecoder's decoding of an invalid payload in the
//                          input and the peer's differs only in how many U+FFFD it wrote)
//     bad-extension        extension data that does not make the value: DecodeError BAD_EXTENSION
//                          (an Error that is not [name: string, message, cause], a Set of a
//                          non-array, a RegExp that is not [source, flags], a structured-clone id
//                          or pointer of fewer than 4 bytes, a value that refers to itself and is
//                          not a container) or BAD_REFERENCE (pointer to no earlier id); msgpackr
//                          builds something from it anyway (an Error named by a number, a Set of a
//                          string's characters, an id read from the bytes before the extension).
//                          README's Errors table lists the Error, RegExp, typed-array and refused
//                          cases; a Set of a non-array and ids under 4 bytes are not there (reported)
//     bad-record           a record definition (d4 72, d5 72) whose keys are no array:
//                          DecodeError BAD_RECORD (msgpackr takes any value as the keys)
//     record-keys-open-peer a definition whose keys are a structuredClone pointer (d6 70 id) to
//                          the array with that id while it is still being read (the definition
//                          is inside it): DecodeError BAD_RECORD (msgpackr reads the empty
//                          placeholder it fills later: a record of no fields). README's BAD_RECORD row
//     bad-bundle           bundled strings laid out otherwise than msgpackr writes them (strings
//                          not after the extension's data and the value, a reference that is not
//                          an integer or runs past its string): DecodeError BAD_BUNDLE (msgpackr
//                          reads strings wherever the offset points and slices short). README's
//                          BAD_BUNDLE row; a count that is not an integer is not listed (reported)
//   CBOR (peer: cbor-x decode / new Decoder({useRecords:false}))
//     proto-key            as above (cbor-x renames to '__proto_')
//     non-string-keys      keys other than strings, numbers, booleans, null, undefined give a Map
//                          (cbor-x throws "Invalid property name type"; a bignum-tagged key it
//                          coerces to a string)
//     indefinite-strings   indefinite-length strings decode (cbor-x throws)
//     simple-values        unassigned simple values decode to Simple (cbor-x throws)
//     bad-simple           f8 with a value below 32: DecodeError BAD_SIMPLE (cbor-x decodes it)
//     bad-bundle           in a message with a bundle (tag 0xdff9), a bundled-string reference
//                          (tag 14 or 15) whose count is no non-negative integer or runs past its
//                          bundle's string: DecodeError BAD_BUNDLE, thrown by the JS (offset 0);
//                          cbor-x slices a shorter string, or '', and reads on
//     bad-packed-reference in packed CBOR (tag 51), a reference (tag 6) past the table, or a prefix
//                          or suffix (tags 216-255, 27647-32767, 4-byte ones) the table does not
//                          have or that does not join its rump (not both strings, byte strings,
//                          arrays or maps): DecodeError BAD_REFERENCE, thrown by the JS (offset
//                          0); cbor-x gives undefined, 'xundefined', 'p1-[object Object]'...
//     uninterpreted-tag    tags wirepack does not interpret give a Tag (README: unknown tags give a
//                          Tag); cbor-x interprets 4, 5, 6, 14, 15, 27, 51, 105, 216..255,
//                          0xdff9.., 'Shrd'... STALE since wirepack's CBOR reads records (105,
//                          0xdffe/0xdfff, ids), packed CBOR (51, 6, 216..) and bundles (0xdff9, 14,
//                          15): this class still excuses a Tag for those numbers (wirepack gives a
//                          Tag for them only out of their context); to narrow (reported)
//     utf8-replacement     as above
//   Not spelled out in README (judgement calls, reported):
//     tag-content          a tag wirepack interprets (0, 1, 2, 3, 258, 259, 64..87) whose content
//                          has the wrong type stays a Tag (cbor-x coerces: new Date(true), a Set
//                          of a string's characters, a truncated typed array; or throws). Only
//                          when the content really is of the wrong type: a Tag around content
//                          wirepack should have interpreted is a mismatch.
//     bad-reference-cycle  BAD_REFERENCE for a reference into a tag-28 value that is not a
//                          container and is still being built (cbor-x hands out a placeholder)
//     record-keys-open-peer a record definition (0xdfff, 0xdffe, 105, a record-keys marker) whose
//                          keys are a reference (29) to the shareable array (28) it is inside:
//                          BAD_RECORD from the JS (cbor-x: its placeholder, or the items so far)
//
// Peer limits and bugs (PEER_LIMITS): timestamp-96-peer, error-name-peer, bigint-empty-peer, clone-cycle-peer,
// bundle-overread-peer, bundle-sequence-peer (unmutated sequences only),
// big-tag-number, tag1-bigint, self-describe-undefined, cbor-extract-scan, record-inline-peer,
// record-id-alias-peer, bundle-content-peer, bundle-strings-peer, packed-nested-peer.
import { ExtData, DecodeError, unpackMultiple } from 'wirepack';
import { Tag, Simple } from 'wirepack/cbor';

export { DecodeError };

/* ------------------------------------------------------------------ the classes */

/** Every class the comparison may use, with the README section that documents it. */
export const DOCUMENTED = {
  msgpack: {
    'proto-key': 'Prototype keys',
    'non-string-keys': 'Options: mapsAsObjects',
    'timestamp-floor': 'Types on the wire: decoding floors nanoseconds to the millisecond',
    'bad-timestamp': 'Errors: BAD_TIMESTAMP',
    'reserved-c1': 'Errors: RESERVED_BYTE',
    'uninterpreted-ext': 'Types on the wire: ExtData (unknown types)',
    'bin-buffer': 'Types on the wire: bin decodes to a Buffer in Node (msgpackr: the input\'s type), which an Error\'s message shows',
    'utf8-replacement': 'Strings with invalid UTF-8',
    'bad-extension': 'Errors: BAD_EXTENSION, BAD_REFERENCE (a Set of a non-array and ids/pointers under 4 bytes not listed there yet)',
    'bad-bundle': 'Errors: BAD_BUNDLE (a 0xc1 count that is not an integer not listed there yet)',
    'bad-record': 'Errors: BAD_RECORD (a record definition not followed by an array of keys; msgpackr takes any value as the keys: an empty binary as none)',
    'record-keys-open-peer': 'Errors: BAD_RECORD (a structuredClone pointer to an array that is not finished: msgpackr reads no keys)',
    'float16-code': 'msgpackr options: typed array subclasses, Float16Array (code 11 of ext 0x74, which msgpackr has no class for)',
  },
  cbor: {
    'proto-key': 'Prototype keys',
    'non-string-keys': 'CBOR: Map keys',
    'indefinite-strings': 'CBOR: indefinite-length strings decode',
    'simple-values': 'CBOR: Simple(n)',
    'bad-simple': 'CBOR: BAD_SIMPLE',
    'bad-bundle': 'CBOR: BAD_BUNDLE (a bundled-string reference, tag 14 or 15, that is no count or runs past its bundle)',
    'bad-packed-reference': 'Errors: BAD_REFERENCE (packed CBOR: a reference past the table, a prefix or suffix it does not have or that does not join its rump)',
    'uninterpreted-tag': 'CBOR: unknown tags give a Tag (the set of cbor-x tags excused is stale: see the header)',
    'tag-content': 'CBOR: tags table (a tag with content of another type stays a Tag)',
    'utf8-replacement': 'Strings with invalid UTF-8',
    'bad-reference-cycle': 'CBOR structuredClone: BAD_REFERENCE (a reference into a shareable non-container still being built)',
    'record-keys-open-peer': 'Errors: BAD_RECORD (record keys that are a reference to the array the definition is inside: cbor-x reads its placeholder)',
    'float16-tag': 'cbor-x exports and options: Float16Array (tags 84 and 80, which cbor-x reads as a Tag, decode to a Float16Array where the runtime has one)',
  },
};

/**
 * Differences that are the peer's own limits or bugs, not wirepack's choices; each is checked
 * against the bytes (or the peer's message and wirepack's value) before it is accepted.
 */
export const PEER_LIMITS = {
  'timestamp-96-peer': 'msgpackr reads only the sign bit of byte 4 and nothing of byte 5 of a 96-bit timestamp',
  'error-name-peer': "msgpackr looks an Error extension's class name up on a plain object, so a name that is a member of Object.prototype ('__proto__', 'constructor', 'toString'...) throws or makes another value (a String object, a string); wirepack makes an Error of that name",
  'bigint-empty-peer': 'msgpackr throws on a BigInt extension (0x42) of no bytes (BigInt(undefined)); wirepack gives 0n',
  'bundle-overread-peer': 'msgpackr: with bundled strings, an item cut short by the end of the input is read past the end (as zeros) without an error (it jumps to the end of the bundle strings)',
  'bundle-sequence-peer': "msgpackr's unpackMultiple reads a fixstr after a message with bundled strings from a stale string cache (e.g. 'b str' for 'short'); its one-message decodes are right",
  'bundle-count-record-peer': "msgpackr reads the unit count after a bundled string's 0xc1 as any item, so a count of 64-127 written as a positive fixint (0x40-0x7f) is a record id to it and the string comes out empty (msgpackr writes such counts as uint8, cc 40); wirepack reads the number",
  'shared-tag-peer': "cbor-x: a reference (tag 29) inside a shareable value (tag 28) whose content is another tag (259, 258...) gets cbor-x's placeholder, an empty object, instead of the value the tag made; wirepack's reference is the value itself (a Map that contains itself)",
  'map-tag-peer': 'cbor-x: tag 259 over content that is not a map stays pending and makes the next map it reads a Map, wherever that map is (inside the content, or after it through a reference); wirepack keeps such a 259 a Tag and reads every other map as it would',
  'clone-cycle-peer': 'msgpackr: a structured-clone id (0x69) on a map that refers to itself, decoded as an object, throws (its placeholder is a Map); or on a Set written as ext8/16/32 (it recognises only fixext forms); or on an Error that refers to itself, which it returns as its placeholder object',
  'big-tag-number': 'cbor-x rejects tags with an 8-byte head >= 2^32 ("length over 4294967295")',
  'tag1-bigint': 'cbor-x tag 1 on an 8-byte integer head: "Cannot mix BigInt and other types"',
  'self-describe-undefined': 'cbor-x decodes 55799(undefined) (d9d9f7 f7) to a Tag, not undefined',
  'cbor-extract-scan': "cbor-x's native string extractor gives up on well-formed input (an 8-byte string length ahead); compared with cbor-x without it",
  'record-inline-peer': "cbor-x reads the content of a record tag (0xdffe, 0xdfff: records defined where they appear; 0xe000 and up: records used) by the argument of its head whatever its major type (a uint's or a map's head: an array's length), reads a definition's id and keys even past the end of an array of fewer than two, and takes any value as the keys; once it has compiled a record's reader (after a few uses), it reads a use by the record's key count, not the array's length; wirepack reads the item that is there (a Tag when it is no array, or too short; BAD_RECORD when the keys are no array; the array's values, extra ones under the key 'undefined', as cbor-x's first uses do)",
  'packed-nested-peer': "a packed table (tag 51) inside the definition of another (its values, prefixes or suffixes): cbor-x keeps one table, which the inner one replaces for the rest of the message, and gives the outer one's prefixes to the outer table object all the same (its later lookups use the inner one); wirepack also lets the inner table's values stand for the rest of the message, as cbor-x, and gives each of the outer one's prefixes and suffixes to the table current when that element ends. Neither scopes a nested table to its own item, as Packed CBOR would (an open point, noted December 2026)",
  'bundle-content-peer': "cbor-x reads the content of a bundle tag (0xdff9) as an array by its head's argument whatever its major type, and its offset from the next item even when the array has none or one element, and so reads items that follow as the bundle's; wirepack reads such content as no bundle (it is the tag's value)",
  'bundle-strings-peer': "cbor-x reads a bundle's two strings by their heads' arguments whatever their major types (a reserved head, a number, a length past the end); wirepack rejects the bundle at them",
  'record-id-alias-peer': "cbor-x takes any tag from 0xdff9 up, also one of a 4-byte head, as the record whose id has the same low 13 bits (tag & 0x1fff) when one is defined: 0xdfff (an inline definition) once id 0xffff is defined, 0xf6d9e002 as id 0xe002; wirepack reads records for tags 0xe000-0xffff only (a larger tag is a Tag, 0xdfff always a definition)",
};

/* ------------------------------------------------------------------ mutations */

const MSGPACK_BOUNDARY = [
  0x00, 0x01, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6,
  0xc7, 0xc8, 0xc9, 0xca, 0xcb, 0xcc, 0xcf, 0xd0, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda,
  0xdb, 0xdc, 0xdd, 0xde, 0xdf, 0xe0, 0xff,
  // extension types msgpackr interprets, and the timestamp type
  0x42, 0x62, 0x65, 0x69, 0x70, 0x72, 0x73, 0x74, 0x78,
];
const CBOR_BOUNDARY = [
  0x00, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1f, 0x20, 0x38, 0x3b, 0x40, 0x58, 0x5b, 0x5f, 0x60,
  0x78, 0x7b, 0x7f, 0x80, 0x98, 0x9b, 0x9f, 0xa0, 0xb8, 0xbb, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3, 0xd8,
  0xd9, 0xda, 0xdb, 0xdf, 0xe0, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xff,
  // tags: shareable / reference / Set / Map / typed arrays, self-describe
  0x1c, 0x1d, 0x40, 0x44, 0x45, 0x55, 0x56,
];
const WIDE_LENGTHS = [
  [0xff, 0xff, 0xff, 0xff], [0x7f, 0xff, 0xff, 0xff], [0x80, 0x00, 0x00, 0x00], [0x00, 0x00, 0x00, 0x00],
  [0x00, 0x01, 0x00, 0x00], [0xff, 0xff], [0x00, 0x00], [0x01, 0x00],
  [0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00], [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
];

/**
 * Apply 1..3 random mutations to a copy of `src`.
 * @param {Uint8Array} src
 * @param {() => number} rand uniform in [0, 1)
 * @param {'msgpack' | 'cbor'} format
 * @param {Uint8Array[]} donors other messages to splice from
 * @returns {{ bytes: Uint8Array, ops: string[] }}
 */
export function mutate(src, rand, format, donors) {
  const int = (n) => Math.floor(rand() * n);
  const boundary = format === 'msgpack' ? MSGPACK_BOUNDARY : CBOR_BOUNDARY;
  let b = Array.from(src);
  const ops = [];
  const count = 1 + int(3);
  for (let k = 0; k < count; k++) {
    const n = b.length;
    const i = n === 0 ? 0 : int(n);
    const op = int(10);
    switch (op) {
      case 0: // flip one bit
        if (n === 0) break;
        b[i] ^= 1 << int(8);
        ops.push(`flip@${i}`);
        break;
      case 1: // a random byte
        if (n === 0) break;
        b[i] = int(256);
        ops.push(`set@${i}`);
        break;
      case 2: // a boundary byte
      case 3:
        if (n === 0) break;
        b[i] = boundary[int(boundary.length)];
        ops.push(`boundary@${i}`);
        break;
      case 4: { // insert 1..4 bytes (boundary or random)
        const m = 1 + int(4);
        const ins = [];
        for (let j = 0; j < m; j++) ins.push(rand() < 0.5 ? boundary[int(boundary.length)] : int(256));
        b.splice(int(n + 1), 0, ...ins);
        ops.push(`insert${m}@${i}`);
        break;
      }
      case 5: { // delete 1..8 bytes
        if (n === 0) break;
        const m = 1 + int(8);
        b.splice(i, m);
        ops.push(`delete${m}@${i}`);
        break;
      }
      case 6: // truncate
        b = b.slice(0, i);
        ops.push(`truncate@${i}`);
        break;
      case 7: { // splice a chunk of another message (or of this one) over a range
        const d = donors.length > 0 && rand() < 0.7 ? donors[int(donors.length)] : Uint8Array.from(b);
        if (d.length === 0) break;
        const from = int(d.length);
        const len = 1 + int(Math.min(32, d.length - from));
        const chunk = Array.from(d.subarray(from, from + len));
        const del = int(Math.min(8, n - i + 1));
        b.splice(i, del, ...chunk);
        ops.push(`splice${len}/${del}@${i}`);
        break;
      }
      case 8: { // a wide length (2, 4 or 8 bytes) over the bytes after i
        if (n === 0) break;
        const w = WIDE_LENGTHS[int(WIDE_LENGTHS.length)];
        for (let j = 0; j < w.length && i + 1 + j < b.length; j++) b[i + 1 + j] = w[j];
        ops.push(`wide${w.length}@${i}`);
        break;
      }
      default: { // duplicate a chunk of this message elsewhere in it
        if (n === 0) break;
        const len = 1 + int(Math.min(16, n - i));
        const chunk = b.slice(i, i + len);
        b.splice(int(n + 1), 0, ...chunk);
        ops.push(`dup${len}@${i}`);
      }
    }
  }
  return { bytes: Uint8Array.from(b), ops };
}

/* ------------------------------------------------------------------ structural walkers */

/**
 * @typedef {object} Walk
 * @property {boolean} ok the whole input is one well-formed item
 * @property {number} stop offset where the walk stopped (the end, or the failing item)
 * @property {boolean} [complete] CBOR: the first item is whole (bytes may follow it)
 * @property {{ off: number, len: number }[]} strings text payloads (CBOR indefinite: each chunk
 *   and the joined bytes)
 * @property {Uint8Array[]} joined CBOR indefinite text strings: the chunks' joined bytes
 * @property {{ off: number, doff: number, type: number, data: Uint8Array }[]} exts MessagePack
 *   extensions (type unsigned; doff: offset of the data)
 * @property {{ off: number, tag: number | bigint }[]} tags CBOR tags
 * @property {boolean} indefiniteString CBOR: an indefinite-length byte or text string occurs
 * @property {number[]} simples CBOR: offsets of unassigned simple values
 * @property {number[]} badKeys offsets of map keys the peer cannot turn into a property name
 * @property {number[]} [openKeyPointers] MessagePack: record definitions whose keys are a pointer
 *   (d6 70 id) to the array with that id while it is still being read (msgpackr then reads the
 *   empty placeholder it fills later: a record of no fields; wirepack BAD_RECORD there)
 */

/** msgpackr's record slot for first byte 0x40|s and high byte h (as csrc/wp_msgpack.c). */
const recSlot = (s, h) => {
  const id = s + h * 32;
  return s >= 32 || id === 0 ? id : 8224 + id;
};
/** Extension types that wrap the value after them (msgpackr: any size). */
const PREFIX_EXTS = new Set([0x65, 0x69, 0x73, 0x78]);

/**
 * Walk MessagePack bytes as wirepack's grammar reads them (msgpackr's records, bundled strings and
 * prefix extensions included), recording strings and extensions, and stop at the first item that
 * is truncated or reserved.
 * @param {Uint8Array} b
 * @returns {Walk}
 */
export function walkMsgpack(b) {
  /** @type {Walk} */
  const r = { ok: false, stop: 0, strings: [], joined: [], exts: [], tags: [], indefiniteString: false, simples: [], badKeys: [], recordCounts: false, openKeyPointers: [] };
  const n = b.length;
  const be = (p, k) => {
    let v = 0;
    for (let i = 0; i < k; i++) v = v * 256 + b[p + i];
    return v;
  };
  /** @type {Map<number, { nf: number, hb: boolean }>} records defined so far */
  const recs = new Map();
  /** @type {Map<number, number>} structuredClone ids given to record keys -> their number */
  const scKeys = new Map();
  /** @type {{ left: number, map: boolean, def?: { slot: number, nf: number, hb: boolean } | null, scId?: number }[]} containers still being filled (def: a record definition's frame, keys array then values; scId: the structuredClone id of the array, or of a definition's keys) */
  const stack = [];
  const done = () => {
    for (;;) {
      const f = stack[stack.length - 1];
      if (!f) return;
      --f.left;
      // a record is defined once its keys are read (msgpackr, wirepack): a use of its id among
      // its own keys is the id's earlier definition, or an integer
      if (f.def && f.left === f.def.nf) {
        recs.set(f.def.slot, { nf: f.def.nf, hb: f.def.hb });
        f.def = null;
      }
      if (f.left > 0) return;
      stack.pop();
    }
  };
  let pending = false; // a prefix extension or bundle waits for its value
  let scNext = -1; // the structuredClone id (d6 69) the next item has
  let bundleEnd = -1; // after the strings of the last bundle
  let p = 0;
  do {
    r.stop = p;
    if (p >= n) return r;
    const c = b[p];
    const top = stack[stack.length - 1];
    const isKey = top !== undefined && top.map && top.left % 2 === 0;
    const need = (k) => p + k <= n;
    let count = -1, map = false, hl = 0, len = 0, kind = '';
    pending = false;
    const scHere = scNext;
    scNext = -1;
    if (c >= 0x40 && c < 0x80 && recs.has(c & 0x3f)) {
      // a record: its field values follow
      let rec = /** @type {{ nf: number, hb: boolean }} */ (recs.get(c & 0x3f));
      hl = 1;
      if (rec.hb) {
        if (!need(2)) return r;
        hl = 2;
        if (b[p + 1] !== 0) {
          const r2 = recs.get(recSlot(c & 0x3f, b[p + 1]));
          if (!r2) return r;
          rec = r2;
        }
      }
      if (isKey) r.badKeys.push(p);
      p += hl;
      if (rec.nf === 0) done();
      else stack.push({ left: rec.nf, map: false });
      continue;
    }
    if (c === 0xc1 && bundleEnd >= 0) {
      // a bundled string: 0xc1 and the count of units
      const q = p + 1;
      if (q >= n) return r;
      const d = b[q];
      if (d >= 0x40 && d < 0x80) r.recordCounts = true;
      const size = d < 0x80 || d >= 0xe0 ? 1 : d === 0xcc || d === 0xd0 ? 2 : d === 0xcd || d === 0xd1 ? 3 : d === 0xce || d === 0xd2 ? 5 : 0;
      if (size === 0 || !need(1 + size)) return r;
      p += 1 + size;
      done();
      continue;
    }
    if (c < 0x80 || c >= 0xe0 || c === 0xc0 || c === 0xc2 || c === 0xc3) hl = 1;
    else if (c <= 0x8f) { count = c & 0xf; map = true; hl = 1; }
    else if (c <= 0x9f) { count = c & 0xf; hl = 1; }
    else if (c <= 0xbf) { hl = 1; len = c & 0x1f; kind = 'str'; }
    else switch (c) {
      case 0xc4: case 0xc5: case 0xc6: hl = 1 + (1 << (c - 0xc4)); kind = 'bin'; break;
      case 0xd9: case 0xda: case 0xdb: hl = 1 + (1 << (c - 0xd9)); kind = 'str'; break;
      case 0xc7: case 0xc8: case 0xc9: hl = 2 + (1 << (c - 0xc7)); kind = 'ext'; break;
      case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8: hl = 2; len = 1 << (c - 0xd4); kind = 'fixext'; break;
      case 0xca: case 0xce: case 0xd2: hl = 5; break;
      case 0xcb: case 0xcf: case 0xd3: hl = 9; break;
      case 0xcc: case 0xd0: hl = 2; break;
      case 0xcd: case 0xd1: hl = 3; break;
      case 0xdc: case 0xdd: case 0xde: case 0xdf:
        hl = c === 0xdc || c === 0xde ? 3 : 5;
        if (!need(hl)) return r;
        count = be(p + 1, hl - 1);
        map = c >= 0xde;
        break;
      default: return r; // 0xc1
    }
    if (!need(hl)) return r;
    // a key msgpackr cannot turn into a property name (an array, map, binary or extension)
    if (isKey && (count >= 0 || kind === 'bin' || kind === 'ext' || kind === 'fixext')) r.badKeys.push(p);
    if (count >= 0) {
      p += hl;
      const items = map ? 2 * count : count;
      if (items === 0) done();
      else stack.push({ left: items, map, scId: map ? undefined : scHere });
      continue;
    }
    if (kind === 'str' || kind === 'bin') {
      if (c > 0xbf) len = be(p + 1, hl - 1);
      if (!need(hl + len)) return r;
      if (kind === 'str') r.strings.push({ off: p + hl, len });
    } else if (kind === 'ext') {
      len = be(p + 1, hl - 2);
      if (!need(hl + len)) return r;
    } else if (kind === 'fixext') {
      if (!need(hl + len)) return r;
    }
    if (kind === 'ext' || kind === 'fixext') {
      const type = b[p + hl - 1];
      const data = b.subarray(p + hl, p + hl + len);
      r.exts.push({ off: p, doff: p + hl, type, data });
      if (type === 0x72 && kind === 'fixext' && len <= 2) {
        // a record definition: the keys (an array), then as many values
        const s = data[0] & 0x3f;
        const slot = len === 2 ? recSlot(s, data[1]) : s;
        let q = p + hl + len;
        if (q >= n) return r;
        let a = b[q];
        let nk, keysId = -1;
        // structuredClone's id before the keys (d6 69 id), or in their place a pointer to keys
        // an earlier definition gave an id (d6 70 id): as msgpackr reads them, and wirepack
        if (a === 0xd6 && (b[q + 1] === 0x69 || b[q + 1] === 0x70)) {
          if (q + 6 > n) return r;
          const id = be(q + 2, 4);
          if (b[q + 1] === 0x70) {
            nk = scKeys.get(id);
            if (nk === undefined) { r.stop = p; return r; }
            // (the array the definition is inside, or whose keys it is among: still open)
            if (stack.some((f) => f.scId === id && f.def !== null)) { r.openKeyPointers.push(p); r.stop = p; return r; }
            const hb = len === 2 && data[1] === 0;
            recs.set(slot, { nf: nk, hb });
            p = q + 6;
            if (nk > 0) stack.push({ left: nk, map: false, def: null });
            else done();
            continue;
          }
          keysId = id;
          q += 6;
          if (q >= n) return r;
          a = b[q];
          if (a >= 0x90 && a <= 0x9f) scKeys.set(id, a & 0xf);
          else if (a === 0xdc && q + 3 <= n) scKeys.set(id, be(q + 1, 2));
          else if (a === 0xdd && q + 5 <= n) scKeys.set(id, be(q + 1, 4));
        }
        if (a >= 0x90 && a <= 0x9f) nk = a & 0xf;
        else if (a === 0xdc && q + 3 <= n) nk = be(q + 1, 2);
        else if (a === 0xdd && q + 5 <= n) nk = be(q + 1, 4);
        else { r.stop = p; return r; }
        p = q;
        stack.push({ left: 1 + nk, map: false, def: { slot, nf: nk, hb: len === 2 && data[1] === 0 }, scId: keysId >= 0 ? keysId : undefined });
        continue;
      }
      if (PREFIX_EXTS.has(type) || (type === 0x62 && len >= 4)) {
        if (type === 0x69 && len === 4) {
          // an id given to any value: a later pointer may name it as a record's keys, as many
          // as the array it is (C, msgpackr), none when it is no array
          const q = p + hl + len, a = q < n ? b[q] : -1;
          const nk = a >= 0x90 && a <= 0x9f ? a & 0xf : a === 0xdc && q + 3 <= n ? be(q + 1, 2) : a === 0xdd && q + 5 <= n ? be(q + 1, 4) : -1;
          if (nk >= 0) scKeys.set(be(p + hl, 4), nk);
          else scKeys.delete(be(p + hl, 4));
          scNext = be(p + hl, 4);
        }
        if (type === 0x62) {
          // the bundle's two strings lie at data offset + the first 4 bytes
          const at = p + hl + be(p + hl, 4);
          const str = (q) => {
            if (q >= n) return -1;
            const h = b[q];
            let sl, sh;
            if (h >= 0xa0 && h <= 0xbf) { sl = h & 0x1f; sh = 1; }
            else if (h >= 0xd9 && h <= 0xdb) { sh = 1 + (1 << (h - 0xd9)); if (q + sh > n) return -1; sl = be(q + 1, sh - 1); }
            else return -1;
            if (q + sh + sl > n) return -1;
            r.strings.push({ off: q + sh, len: sl });
            return q + sh + sl;
          };
          const q2 = str(at);
          const end = q2 < 0 ? -1 : str(q2);
          if (end < 0) return r;
          bundleEnd = end;
        }
        p += hl + len;
        pending = true; // the wrapped value is this item
        continue;
      }
    }
    p += hl + len;
    done();
  } while (stack.length > 0 || pending);
  if (bundleEnd >= 0 && bundleEnd > p) p = bundleEnd;
  r.stop = p;
  r.ok = p === n;
  return r;
}

/**
 * Walk CBOR bytes (RFC 8949 well-formedness), recording text strings, tags, indefinite strings
 * and simple values, and stop at the first item that is not well-formed.
 * @param {Uint8Array} b
 * @returns {Walk}
 */
export function walkCbor(b) {
  /** @type {Walk} */
  const r = { ok: false, stop: 0, strings: [], joined: [], exts: [], tags: [], indefiniteString: false, simples: [], badKeys: [] };
  const n = b.length;
  // frames: { left: items still expected (Infinity for indefinite), str: major of an indefinite string or -1, parts }
  /** @type {{ left: number, str: number, parts: Uint8Array[] | null, map: boolean, count: number }[]} */
  const stack = [];
  let p = 0;
  const done = () => {
    // one item completed: count it against the enclosing frames
    for (;;) {
      const f = stack[stack.length - 1];
      if (!f) return;
      if (f.left === Infinity) { f.count++; return; }
      if (--f.left > 0) return;
      stack.pop();
    }
  };
  let first = true;
  while (first || stack.length > 0) {
    first = false;
    r.stop = p;
    if (p >= n) return r;
    const ib = b[p];
    const major = ib >> 5, ai = ib & 31;
    const top = stack[stack.length - 1];
    if (ib === 0xff) {
      if (!top || top.left !== Infinity) return r;
      if (top.map && top.count % 2 !== 0) return r;
      stack.pop();
      if (top.parts) {
        let total = 0;
        for (const c of top.parts) total += c.length;
        const j = new Uint8Array(total);
        let o = 0;
        for (const c of top.parts) { j.set(c, o); o += c.length; }
        if (top.str === 3) r.joined.push(j);
      }
      p += 1;
      done();
      if (stack.length === 0) break;
      continue;
    }
    if (top && top.str >= 0 && (major !== top.str || ai === 31)) return r; // BAD_CHUNK
    let arg = 0n;
    let hl = 1;
    if (ai < 24) arg = BigInt(ai);
    else if (ai <= 27) {
      hl = 1 + (1 << (ai - 24));
      if (p + hl > n) return r;
      for (let i = 1; i < hl; i++) arg = (arg << 8n) | BigInt(b[p + i]);
    } else if (ai <= 30) return r;
    // a key cbor-x cannot turn into a property name (bytes, array, map, tag, simple value)
    const isKey = top !== undefined && top.map && (top.left === Infinity ? top.count % 2 === 0 : top.left % 2 === 0);
    if (isKey && (major === 2 || major === 4 || major === 5 || major === 6 || (major === 7 && (ai < 20 || ai === 24)))) r.badKeys.push(p);
    if (ai === 31) {
      if (major === 2 || major === 3) {
        r.indefiniteString = true;
        stack.push({ left: Infinity, str: major, parts: [], map: false, count: 0 });
        p += 1;
        continue;
      }
      if (major === 4 || major === 5) {
        stack.push({ left: Infinity, str: -1, parts: null, map: major === 5, count: 0 });
        p += 1;
        continue;
      }
      return r; // 0/1/6 indefinite; 7 with 31 is the break, handled above
    }
    switch (major) {
      case 0: case 1:
        p += hl;
        done();
        break;
      case 2: case 3: {
        if (arg > BigInt(n - p - hl)) return r;
        const len = Number(arg);
        const payload = b.subarray(p + hl, p + hl + len);
        if (major === 3) r.strings.push({ off: p + hl, len });
        if (top && top.str >= 0 && top.parts) top.parts.push(payload);
        p += hl + len;
        done();
        break;
      }
      case 4: case 5: {
        const items = major === 5 ? arg * 2n : arg;
        if (items > BigInt(n - p - hl)) { p += hl; r.stop = p; return r; }
        p += hl;
        if (items === 0n) done();
        else stack.push({ left: Number(items), str: -1, parts: null, map: major === 5, count: 0 });
        break;
      }
      case 6:
        r.tags.push({ off: p, tag: arg <= 9007199254740991n ? Number(arg) : arg });
        p += hl;
        stack.push({ left: 1, str: -1, parts: null, map: false, count: 0 });
        break;
      default: // 7
        if (ai === 24) {
          if (arg < 32n) return r; // BAD_SIMPLE
          r.simples.push(p);
        } else if (ai < 20) r.simples.push(p);
        p += hl;
        done();
    }
    if (stack.length === 0) break;
  }
  r.stop = p;
  r.ok = p === n;
  // (the item is whole; what follows it may be its bundles' strings, which belong to it)
  r.complete = true;
  return r;
}

/* ------------------------------------------------------------------ evidence from the bytes */

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

/** The TextDecoder decodings of every string payload in the input that is not valid UTF-8. */
function invalidUtf8Decodings(bytes, walk) {
  const out = new Set();
  const add = (u8) => {
    try {
      fatalUtf8.decode(u8);
    } catch {
      out.add(lenientUtf8.decode(u8));
    }
  };
  for (const s of walk.strings) add(bytes.subarray(s.off, s.off + s.len));
  for (const j of walk.joined) add(j);
  return out;
}

const collapse = (s) => s.replace(/\uFFFD+/g, '\uFFFD');

/**
 * For every timestamp extension in the input: [msgpackr's time, wirepack's documented time]
 * when they differ, with the reason.
 * @returns {Map<string, string>} "peerMs|wirepackMs" -> class
 */
function timestampPairs(walk) {
  const pairs = new Map();
  for (const e of walk.exts) {
    if (e.type !== 0xff) continue;
    const d = e.data;
    let peer, ours, cls = 'timestamp-floor';
    if (d.length === 4) continue; // whole seconds: no difference possible
    if (d.length === 8) {
      const ns = d[0] * 2 ** 22 + d[1] * 2 ** 14 + d[2] * 2 ** 6 + (d[3] >> 2);
      const s = (d[3] & 3) * 2 ** 32 + d[4] * 2 ** 24 + d[5] * 2 ** 16 + d[6] * 2 ** 8 + d[7];
      if (ns >= 1e9) continue;
      peer = new Date(ns / 1e6 + s * 1000).getTime();
      ours = new Date(s * 1000 + Math.floor(ns / 1e6)).getTime();
    } else if (d.length === 12) {
      const ns = ((d[0] << 24) >>> 0) + d[1] * 2 ** 16 + d[2] * 2 ** 8 + d[3];
      if (ns >= 1e9) continue;
      let sec = 0n;
      for (let i = 4; i < 12; i++) sec = (sec << 8n) | BigInt(d[i]);
      sec = BigInt.asIntN(64, sec);
      // msgpackr's formula (it reads only the sign bit of byte 4, nothing of byte 5)
      peer = new Date(((d[0] << 24) + (d[1] << 16) + (d[2] << 8) + d[3]) / 1000000 +
        ((d[4] & 0x80 ? -0x1000000000000 : 0) + d[6] * 0x10000000000 + d[7] * 0x100000000 + d[8] * 0x1000000 + (d[9] << 16) + (d[10] << 8) + d[11]) * 1000).getTime();
      const ms = sec * 1000n + BigInt(Math.floor(ns / 1e6));
      ours = ms >= -8640000000000000n && ms <= 8640000000000000n ? Number(ms) : NaN;
      const peerExact = new Date(Number(sec) * 1000 + ns / 1e6).getTime();
      if (!Object.is(peer, peerExact) && !(Number.isNaN(peer) && Number.isNaN(peerExact))) cls = 'timestamp-96-peer';
    } else continue;
    if (!Object.is(peer, ours)) pairs.set(`${peer}|${ours}`, cls);
  }
  return pairs;
}

/* ------------------------------------------------------------------ comparison */

/** Extension types whose data (or wrapped value) must have a given form to make a value. */
const VALUE_EXTS = new Set([0x42, 0x65, 0x69, 0x70, 0x73, 0x74, 0x78]);
/** msgpackr extension types it interprets (besides 0 and 0xff; 0x72 only as fixext 1/2). */
const MSGPACKR_EXTS = new Set([0x42, 0x62, 0x65, 0x69, 0x70, 0x72, 0x73, 0x74, 0x78]);
/** A record definition (0x72) that msgpackr reads: fixext 1 or 2 only (other sizes are unknown). */
const isRecordDef = (b, x) => x.type === 0x72 && (b[x.off] === 0xd4 || b[x.off] === 0xd5);
/** Extension types msgpackr has no handler for in the general path (it throws "Unknown extension"). */
const unknownToMsgpackr = (b, x) => x.type !== 0 && x.type !== 0xff && !(MSGPACKR_EXTS.has(x.type) && (x.type !== 0x72 || isRecordDef(b, x)));

/** Tags cbor-x 1.6.9 interprets and wirepack does not (README: later issues, or unknown). */
function cborxInterprets(tag) {
  const t = typeof tag === 'bigint' ? Number(tag) : tag;
  return t === 4 || t === 5 || t === 6 || t === 14 || t === 15 || t === 27 || t === 51 || t === 105 ||
    (t >= 216 && t <= 255) || (t >= 27647 && t <= 28671) || (t >= 28704 && t <= 32767) ||
    (t >= 0xdff9 && t <= 0xffff) || (t >= 1811939328 && t <= 2147483647) || t === 0x53687264;
}
/** Tags wirepack interprets when their content has the right type (README, CBOR table). */
function wirepackInterprets(tag) {
  return tag === 0 || tag === 1 || tag === 2 || tag === 3 || tag === 258 || tag === 259 || (tag >= 64 && tag <= 87);
}
/** RFC 8746 typed-array tags wirepack supports -> element size (no float16/float128, 76 reserved). */
const TYPED_TAG_SIZE = new Map([
  [64, 1], [65, 2], [66, 4], [67, 8], [68, 1], [69, 2], [70, 4], [71, 8], [72, 1], [73, 2], [74, 4], [75, 8],
  [77, 2], [78, 4], [79, 8], [81, 4], [82, 8], [85, 4], [86, 8],
]);
/**
 * Would wirepack's documented rules turn this tag and content into something other than a Tag?
 * (Then a Tag is wirepack's mistake, not a difference.)
 */
function shouldInterpret(tag, value) {
  const bytes = value instanceof Uint8Array;
  switch (tag) {
    case 0: return typeof value === 'string';
    case 1: return typeof value === 'number' || typeof value === 'bigint';
    case 2: case 3: return bytes;
    case 258: return Array.isArray(value);
    case 259: return value instanceof Map || isPlainObject(value);
    default: {
      const size = TYPED_TAG_SIZE.get(tag);
      return size !== undefined && bytes && value.length % size === 0;
    }
  }
}

class Mismatch extends Error {}

const isPlainObject = (x) => x !== null && typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype;
const isBytes = (x) => x instanceof Uint8Array && (x.constructor === Uint8Array || (typeof Buffer === 'function' && Buffer.isBuffer(x)));
const isTyped = (x) => ArrayBuffer.isView(x) && !(x instanceof DataView);

/** A short description of a value for messages. */
export function show(v, depth = 0) {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  if (typeof v === 'bigint') return v + 'n';
  if (typeof v !== 'object' || v === null) return Object.is(v, -0) ? '-0' : String(v);
  if (depth > 1) return v.constructor ? v.constructor.name : 'Object';
  if (v instanceof Date) return `Date(${v.getTime()})`;
  if (isTyped(v)) return `${v.constructor.name}[${v.length}]`;
  if (Array.isArray(v)) return `[${v.slice(0, 4).map((x) => show(x, depth + 1)).join(', ')}${v.length > 4 ? ', …' : ''}]`;
  if (v instanceof Map) return `Map(${v.size})`;
  if (v instanceof ExtData) return `ExtData(${v.type}, ${v.data.length})`;
  if (v instanceof Tag) return `Tag(${String(v.tag)}, ${show(v.value, depth + 1)})`;
  if (v instanceof Simple) return `Simple(${v.value})`;
  const name = Object.getPrototypeOf(v) === Object.prototype ? '' : (v.constructor && v.constructor.name) || '?';
  return `${name}{${Object.keys(v).slice(0, 4).map((k) => k + ': ' + show(v[k], depth + 1)).join(', ')}}`;
}

/**
 * Does `v` contain (anywhere, cycles allowed) a value for which `pred` holds?
 * @param {unknown} v
 * @param {(x: any) => boolean} pred
 */
export function contains(v, pred) {
  const seen = new Set();
  const stack = [v];
  while (stack.length) {
    const x = stack.pop();
    if (pred(x)) return true;
    if (x === null || typeof x !== 'object' || seen.has(x)) continue;
    seen.add(x);
    if (Array.isArray(x)) stack.push(...x);
    else if (x instanceof Map) for (const [k, val] of x) stack.push(k, val);
    else if (x instanceof Set) stack.push(...x);
    else if (x instanceof Tag) stack.push(x.value);
    else if (isPlainObject(x)) for (const k of Object.keys(x)) stack.push(x[k]);
  }
  return false;
}

/**
 * Compare wirepack's value with the peer's.
 * @param {'msgpack' | 'cbor'} format
 * @param {Uint8Array} input
 * @param {unknown} ours wirepack's value
 * @param {unknown} peer the peer's value
 * @returns {{ ok: true, classes: string[] } | { ok: false, why: string }}
 */
export function compareValues(format, input, ours, peer) {
  const walk = format === 'msgpack' ? walkMsgpack(input) : walkCbor(input);
  let utf8 = null;
  let ts = null;
  const used = new Set();
  const pairs = new Map(); // ours object -> peer object (cycles, shared references)

  const safeKey = (k) => {
    // the peers' key coercion (msgpackr asSafeString, cbor-x safeKey); undefined: not coercible
    if (typeof k === 'string') return k === '__proto__' ? '__proto_' : k;
    if (typeof k === 'number' || typeof k === 'boolean' || typeof k === 'bigint') return k.toString();
    if (k == null) return k + '';
    return undefined;
  };

  /** @param {any} a ours @param {any} b peer @param {string} path */
  const cmp = (a, b, path) => {
    if (Object.is(a, b)) return;
    const fail = (why) => { throw new Mismatch(`${path || '$'}: ${why} (wirepack ${show(a)}, peer ${show(b)})`); };
    // --- documented differences at this node
    if (format === 'msgpack' && a instanceof ExtData) {
      // msgpackr throws on types it does not know, so a value never meets an ExtData
      if (b instanceof ExtData && a.type === b.type) { cmpBytes(a.data, b.data); return; }
      fail('extension');
    }
    const peerTag = format === 'cbor' && b !== null && typeof b === 'object' && b.constructor && b.constructor.name === 'Tag' && !(b instanceof Tag);
    // cbor-x returns a Tag for 55799 around undefined (its range handler cannot return undefined)
    if (a === undefined && peerTag && String(b.tag) === '55799' && b.value === undefined) { used.add('self-describe-undefined'); return; }
    // a Float16Array from RFC 8746's tags 80/84 (where the runtime has one), which cbor-x does not
    // interpret: a Tag of its bytes
    if (format === 'cbor' && peerTag && (b.tag === 80 || b.tag === 84) && ArrayBuffer.isView(a) && a.constructor.name === 'Float16Array' &&
      b.value instanceof Uint8Array && a.byteLength === b.value.length) { used.add('float16-tag'); return; }
    if (format === 'cbor' && a instanceof Tag) {
      if (peerTag && String(a.tag) === String(b.tag)) {
        // (a Tag may contain itself: a shared Tag, 28(tag(...29(n)...)))
        if (pairs.has(a)) {
          if (pairs.get(a) !== b) fail('shared identity');
          return;
        }
        pairs.set(a, b);
        cmp(a.value, b.value, path + '.value');
        return;
      }
      if (cborxInterprets(a.tag)) { used.add('uninterpreted-tag'); return; }
      // content of the wrong type, by its value, or by the bytes (a reference or another tag
      // inside can give a value of the right type, such as 259(29(n)) for a shared object)
      if (wirepackInterprets(a.tag) && (!shouldInterpret(a.tag, a.value) ||
        walk.tags.some((t) => t.tag === a.tag && wrongContentHead(input, t)))) { used.add('tag-content'); return; }
      fail('tag');
    }
    if (typeof a === 'string' && typeof b === 'string') {
      utf8 = utf8 || invalidUtf8Decodings(input, walk);
      if (utf8.has(a) && collapse(a) === collapse(b)) { used.add('utf8-replacement'); return; }
      fail('string');
    }
    // (msgpackr made a string or another object of an Error named after an Object.prototype member)
    if (format === 'msgpack' && a instanceof Error && !(b instanceof Error) && OBJECT_MEMBERS.has(a.name) &&
      errorNamedLikeObjectMember(input, walk)) { used.add('error-name-peer'); return; }
    if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) fail('value');
    // --- objects
    if (pairs.has(a)) {
      if (pairs.get(a) !== b) fail('shared identity');
      return;
    }
    pairs.set(a, b);
    if (a instanceof Error) {
      // msgpackr's Error extension: the same class, name, message, cause (and AggregateError's errors)
      if (!(b instanceof Error) || a.constructor !== b.constructor) fail('error type');
      if (a.name !== b.name) fail(`error name ${show(a.name)} vs ${show(b.name)}`);
      if (a.message !== b.message) {
        // a map given as the message is turned into text: a Map (non-string keys) where the peer
        // made an object shows as '[object Map]'
        if (a.message === '[object Map]' && b.message === '[object Object]') used.add('non-string-keys');
        // binary data given as the message: a Buffer's text (wirepack, Node) where msgpackr's
        // Uint8Array (the input's type) shows its bytes as numbers
        else if (format === 'msgpack' && /^\d+(,\d+)*$/.test(b.message) && typeof Buffer === 'function' &&
          Buffer.from(b.message.split(',').map(Number)).toString() === a.message) used.add('bin-buffer');
        // or binary data inside the value given as the message (an array holding bytes): each
        // reading's text of the Error extension's own message value, bytes as Buffer / as the
        // input's type
        else if (format === 'msgpack' && errorMessageBinAsText(input, walk, a, b)) used.add('bin-buffer');
        else fail(`error message ${show(a.message)} vs ${show(b.message)}`);
      }
      if (('cause' in a) !== ('cause' in b)) fail('error cause');
      if ('cause' in a) cmp(/** @type {any} */ (a).cause, /** @type {any} */ (b).cause, path + '.cause');
      if (typeof AggregateError === 'function' && a instanceof AggregateError) cmp(a.errors, /** @type {any} */ (b).errors, path + '.errors');
      return;
    }
    if (a instanceof RegExp) {
      if (!(b instanceof RegExp) || a.source !== b.source || a.flags !== b.flags) fail('regexp');
      return;
    }
    if (a instanceof ArrayBuffer || a instanceof DataView) {
      if (a.constructor !== b.constructor) fail('type');
      const bytes = (x) => (x instanceof ArrayBuffer ? new Uint8Array(x) : new Uint8Array(x.buffer, x.byteOffset, x.byteLength));
      cmpBytes(bytes(a), bytes(b));
      return;
    }
    if (a instanceof Date) {
      if (!(b instanceof Date)) fail('type');
      const x = a.getTime(), y = b.getTime();
      if (Object.is(x, y)) return;
      ts = ts || timestampPairs(walk);
      const cls = ts.get(`${y}|${x}`);
      if (cls) { used.add(cls); return; }
      fail('date');
    }
    if (isTyped(a)) {
      if (!isTyped(b)) fail('type');
      const byteish = (v) => isBytes(v);
      if (!(byteish(a) && byteish(b)) && a.constructor !== b.constructor) fail('typed array type');
      if (a.length !== b.length) fail('length');
      for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) fail(`element ${i}`);
      return;
    }
    if (Array.isArray(a)) {
      if (!Array.isArray(b)) fail('type');
      if (a.length !== b.length) fail('length');
      for (let i = 0; i < a.length; i++) cmp(a[i], b[i], `${path}[${i}]`);
      return;
    }
    if (a instanceof Set) {
      if (!(b instanceof Set)) fail('type');
      // an element wirepack keeps as a Tag (an interpreted tag over content of another type,
      // 259(0)) that cbor-x reads through, where it then equals another element: one fewer
      if (format === 'cbor' && a.size !== b.size && [...a].some((k) => k instanceof Tag && wirepackInterprets(k.tag) && !shouldInterpret(k.tag, k.value) &&
        b.has(k.value))) { used.add('tag-content'); return; }
      cmp([...a], [...b], path + '<set>');
      return;
    }
    if (a instanceof Map) {
      if (b instanceof Map) {
        if (a.size !== b.size) {
          // a key wirepack keeps as a Tag (an interpreted tag over content of another type,
          // 259(1)) that cbor-x reads through, where it then equals another key and replaces it
          if (format === 'cbor' && [...a.keys()].some((k) => k instanceof Tag && wirepackInterprets(k.tag) && !shouldInterpret(k.tag, k.value) &&
            b.has(k.value))) { used.add('tag-content'); return; }
          fail('size');
        }
        const ea = [...a], eb = [...b];
        for (let i = 0; i < ea.length; i++) {
          cmp(ea[i][0], eb[i][0], `${path}<key ${i}>`);
          cmp(ea[i][1], eb[i][1], `${path}<value ${i}>`);
        }
        return;
      }
      if (isPlainObject(b)) {
        // a Map where the peer made an object: only for a key that is not a string (msgpack), or
        // (CBOR) a key that is tagged (README: tags give a Map; a bignum tag gives a BigInt key
        // that cbor-x coerces, 28/55799 around a string are transparent to cbor-x), or of a
        // type cbor-x cannot coerce (then it throws, so not here)
        const keys = [...a.keys()];
        const nonString = keys.filter((k) => typeof k !== 'string');
        const cls = 'non-string-keys';
        if (format === 'cbor') {
          // a key cbor-x turns into something else (a bignum, a Date...) and then coerces
          const tagKey = nonString.find((k) => k instanceof Tag && (cborxInterprets(k.tag) || (wirepackInterprets(k.tag) && !shouldInterpret(k.tag, k.value))));
          if (tagKey) { used.add(cborxInterprets(tagKey.tag) ? 'uninterpreted-tag' : 'tag-content'); return; }
          if (!walk.badKeys.some((off) => input[off] >> 5 === 6)) fail('Map where cbor-x coercion applies');
        } else if (nonString.length === 0) {
          // a key that is a structured-clone extension (0x69 id around it, 0x70 pointer to it)
          // is an extension on the wire, which makes the map a Map before what it wraps or
          // points to is known; msgpackr takes the string
          const cloneKey = (off) => walk.exts.some((x) => x.off === off && (x.type === 0x69 || x.type === 0x70));
          if (!walk.badKeys.some(cloneKey)) fail('Map of string keys');
        }
        const expected = {};
        for (const [k, v] of a) {
          const sk = safeKey(k);
          if (sk === undefined) fail('Map key the peer cannot coerce');
          expected[sk] = v;
        }
        used.add(cls);
        pairs.delete(a);
        cmp(expected, b, path);
        return;
      }
      fail('type');
    }
    if (isPlainObject(a)) {
      if (!isPlainObject(b)) fail('type');
      // the peer's object: keys assigned in order, '__proto__' renamed
      const ka = Object.keys(a);
      let renamed = a;
      if (ka.includes('__proto__')) {
        renamed = {};
        for (const k of ka) renamed[k === '__proto__' ? '__proto_' : k] = a[k];
        used.add('proto-key');
      }
      const kr = Object.keys(renamed), kb = Object.keys(b);
      if (kr.length !== kb.length) fail(`keys [${kr.slice(0, 6)}] vs [${kb.slice(0, 6)}]`);
      for (let i = 0; i < kr.length; i++) {
        if (kr[i] !== kb[i]) {
          utf8 = utf8 || invalidUtf8Decodings(input, walk);
          if (!(utf8.has(kr[i]) && collapse(kr[i]) === collapse(kb[i]))) fail(`key ${i}: ${show(kr[i])} vs ${show(kb[i])}`);
          used.add('utf8-replacement');
        }
        cmp(renamed[kr[i]], b[kb[i]], `${path}.${kr[i]}`);
      }
      return;
    }
    if (a instanceof Simple) fail('Simple');
    fail('type');
  };
  const cmpBytes = (x, y) => {
    if (x.length !== y.length) throw new Mismatch('bytes length');
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) throw new Mismatch('bytes');
  };

  try {
    cmp(ours, peer, '');
  } catch (e) {
    if (!(e instanceof Mismatch)) throw e;
    // cbor-x read another record than the tag names from some tag on (its values differ from
    // there, in any way)
    if (format === 'cbor' && recordAlias(input, walk.tags)) return { ok: true, classes: [...used, 'record-id-alias-peer'] };
    // or read a record tag's content otherwise (the items after it then differ too)
    if (format === 'cbor' && recordContentMisread(input, walk.tags)) return { ok: true, classes: [...used, 'record-inline-peer'] };
    // a 259 over content that is no map: cbor-x makes the next map it meets a Map
    if (format === 'cbor' && walk.tags.some((t) => t.tag === 259 && wrongContentHead(input, t))) return { ok: true, classes: [...used, 'map-tag-peer'] };
    // a reference inside a shareable value that a tag makes: cbor-x's placeholder object
    if (format === 'cbor' && walk.tags.some((t) => t.tag === 29) &&
      walk.tags.some((t) => t.tag === 28 && input[tagContentAt(input, t)] >> 5 === 6)) return { ok: true, classes: [...used, 'shared-tag-peer'] };
    // a bundled string's count msgpackr reads as a record id: its string is empty
    // (and with fields, reads on from there as the record's values)
    if (format === 'msgpack' && walk.recordCounts) return { ok: true, classes: [...used, 'bundle-count-record-peer'] };
    // a packed table inside another table's definition (see PEER_LIMITS)
    if (format === 'cbor' && packedTableNested(input, walk.tags)) return { ok: true, classes: [...used, 'packed-nested-peer'] };
    // a bundle tag over content that is no bundle: cbor-x reads it as one all the same, and the
    // items after it otherwise (as where wirepack throws: justifyOurError)
    if (format === 'cbor' && walk.tags.some((t) => t.tag === 0xdff9 && bundleLayout(input, tagContentAt(input, t)).at === Infinity)) {
      return { ok: true, classes: [...used, 'bundle-content-peer'] };
    }
    // an Error given a structured-clone id that refers to itself: msgpackr returns its
    // placeholder object
    if (format === 'msgpack' && selfReferringError(input, walk.exts)) return { ok: true, classes: [...used, 'clone-cycle-peer'] };
    return { ok: false, why: e.message };
  }
  return { ok: true, classes: [...used] };
}

/**
 * Is there an Error extension (0x65) with a structured-clone id (0x69 right before it) that a
 * pointer (0x70) after it refers to?
 * @param {Uint8Array} input @param {{ off: number, doff: number, type: number, data: Uint8Array }[]} exts
 */
function selfReferringError(input, exts) {
  const id = (x) => (x.data.length === 4 ? ((x.data[0] << 24) | (x.data[1] << 16) | (x.data[2] << 8) | x.data[3]) >>> 0 : -1);
  return exts.some((x) => x.type === 0x69 && exts.some((e) => e.type === 0x65 && e.off === x.doff + x.data.length) &&
    exts.some((q) => q.type === 0x70 && q.off > x.off && id(q) === id(x)));
}

/**
 * Does some Error extension (0x65, a prefix: [name, message, cause] follows it) of the input have
 * a message value whose text is a's message with its binary data read as Buffers (wirepack in
 * Node) and b's with it read as Uint8Arrays (msgpackr: the input's type)? (Decoded alone; one
 * that needs more, records defined before it, does not count.)
 * @param {Uint8Array} input
 * @param {{ exts: { type: number, doff: number, data: Uint8Array }[] }} walk @param {Error} a @param {Error} b
 */
function errorMessageBinAsText(input, walk, a, b) {
  if (typeof Buffer !== 'function') return false;
  /** @param {any} v @param {boolean} asBytes */
  const text = (v, asBytes) => {
    const conv = (x) => (x instanceof Uint8Array ? (asBytes ? new Uint8Array(x) : Buffer.from(x)) : Array.isArray(x) ? x.map(conv) : x);
    try { return String(conv(v)); } catch { return null; }
  };
  for (const x of walk.exts) {
    if (x.type !== 0x65) continue;
    let fields;
    try { unpackMultiple(input.subarray(x.doff + x.data.length), (v) => { fields = v; return false; }); } catch { /* cut short */ }
    if (!Array.isArray(fields) || fields.length < 2) continue;
    if (text(fields[1], false) === a.message && text(fields[1], true) === b.message) return true;
  }
  return false;
}

/**
 * wirepack threw a DecodeError where the peer decoded a value: the documented class that
 * explains it, or null.
 * @param {'msgpack' | 'cbor'} format
 * @param {Uint8Array} input
 * @param {DecodeError} err
 * @param {unknown} peerValue
 * @returns {string | null}
 */
export function justifyOurError(format, input, err, peerValue) {
  const at = err.offset;
  if (format === 'msgpack') {
    const walk = walkMsgpack(input);
    if (err.code === 'RESERVED_BYTE' && input[at] === 0xc1) return 'reserved-c1';
    // a record definition (fixext 1 or 2 of type 0x72) whose keys are no array
    // keys that are a pointer to the array the definition is inside (msgpackr: no keys)
    if (err.code === 'BAD_RECORD' && (walk.openKeyPointers || []).includes(at)) return 'record-keys-open-peer';
    // (keys that are another pointer (d6 70 id) are not excused: one to a finished array is keys)
    if (err.code === 'BAD_RECORD' && walk.exts.some((x) => x.off === at && x.type === 0x72 && x.data.length <= 2 &&
      (input[at] === 0xd4 || input[at] === 0xd5) && !isMsgpackArrayHead(input[x.doff + x.data.length]) &&
      !(input[x.doff + x.data.length] === 0xd6 && input[x.doff + x.data.length + 1] === 0x70))) return 'bad-record';
    if (err.code === 'BAD_TIMESTAMP' && badTimestampAt(input, at)) return 'bad-timestamp';
    // extension data that makes no value (the error is at the extension's data)
    if (err.code === 'BAD_EXTENSION' && walk.exts.some((x) => x.doff === at && VALUE_EXTS.has(x.type))) return 'bad-extension';
    if (err.code === 'BAD_REFERENCE' && walk.exts.some((x) => x.doff === at && x.type === 0x70)) return 'bad-extension';
    // bundled strings wirepack rejects: at a bundle or a reference, after a bundle
    if (err.code === 'BAD_BUNDLE' && walk.exts.some((x) => x.type === 0x62 && x.data.length >= 4 && x.off <= at)) return 'bad-bundle';
    // msgpackr reads an item cut short by the end of the input through the bundle's strings and
    // past the end (zeros), then jumps to the end of the strings and reports no error
    if (err.code === 'TRUNCATED' && walk.exts.some((x) => x.type === 0x62 && x.data.length >= 4 && x.off < at &&
      x.doff + ((x.data[0] << 24) | (x.data[1] << 16) | (x.data[2] << 8) | x.data[3]) > at)) return 'bundle-overread-peer';
    void peerValue;
    return null;
  }
  if (err.code === 'BAD_SIMPLE' && input[at] === 0xf8 && input[at + 1] < 32) return 'bad-simple';
  // cbor-x's records: it reads the content of a record tag (0xdffe, 0xdfff: defined where they
  // appear; 0xe000 and up: used) by the argument of its head, an array's length whatever the
  // major type, and the id and keys of a definition even past the end of a shorter array; from
  // such a tag on, it reads other items than wirepack does (any error; TRUNCATED is reported at
  // the outermost item the input cuts, which may begin before the tag)
  const tags = walkCbor(input).tags;
  const contentAt = (t) => tagContentAt(input, t);
  // cbor-x's bundled strings wirepack rejects: from C, at or after a bundle (an offset out of
  // place, an item that reaches into the strings, which cbor-x reads twice); from the JS, a
  // reference (tag 14, 15) that is no count within its string (offset 0: the message has both tags)
  if (err.code === 'BAD_BUNDLE' && (tags.some((t) => t.tag === 0xdff9 && t.off <= err.offset) ||
    (err.offset === 0 && tags.some((t) => t.tag === 0xdff9) && tags.some((t) => t.tag === 14 || t.tag === 15)))) return 'bad-bundle';
  // cbor-x reads a bundle's content by its head's argument whatever its major type, its offset
  // even from an array of none or one element (it takes the items after the array), and any
  // number there as the offset (a negative one too); wirepack reads such content as no bundle
  // (the content is the tag's value, and what follows is more data)
  if (tags.some((t) => t.tag === 0xdff9 && bundleLayout(input, contentAt(t)).at === Infinity)) return 'bundle-content-peer';
  // cbor-x reads a bundle's two strings by their heads' arguments whatever their major types
  // (a reserved head, a number, a length past the end); wirepack rejects the bundle there, at the
  // strings or (a string cut short) at the bundle's offset
  if (tags.some((t) => {
    if (t.tag !== 0xdff9) return false;
    const l = bundleLayout(input, contentAt(t));
    return l.at <= err.offset || (err.code === 'TRUNCATED' && err.offset === l.e0);
  })) return 'bundle-strings-peer';
  if (err.code === 'BAD_REFERENCE' && err.offset === 0 && tags.some((t) => t.tag === 51) && tags.some((t) => isPackedReferenceTag(t.tag))) {
    return 'bad-packed-reference';
  }
  if (packedTableNested(input, tags)) return 'packed-nested-peer';
  const upTo = tags.filter((t) => t.off <= at || err.code === 'TRUNCATED');
  if (recordContentMisread(input, upTo) || recordLengthMismatch(input, upTo)) return 'record-inline-peer';
  // a tag cbor-x took for a defined record by its low 13 bits (it then read other items)
  if (recordAlias(input, upTo)) return 'record-id-alias-peer';
  if (err.code === 'BAD_RECORD') {
    // (the JS throws these, at offset 0) keys that are a reference (29) to a shareable array (28)
    // the definition is inside: cbor-x reads its placeholder or the items read so far
    if (/definition is inside/.test(err.message) && tags.some((t) => t.tag === 28) && tags.some((t) => t.tag === 29)) return 'record-keys-open-peer';
    // keys that are not an array, which cbor-x takes
    if (tags.some((t) => t.tag === 0xdfff && inlineRecordKeysNotArray(input, contentAt(t)))) return 'record-inline-peer';
    // a key that stays a Tag for wirepack (content of another type than the tag takes), where
    // cbor-x makes a number or string of it
    if (/Invalid property name type object/.test(err.message) && tags.some((t) => wrongContentHead(input, t))) return 'tag-content';
    // a key that is a tag wirepack leaves a Tag (4, 5: README, unknown tags) and cbor-x makes a
    // number of, after an inline definition's head (0xdfff: the keys come after it)
    // (or before it, in a packed table whose value the key refers to)
    if (/Invalid property name type object/.test(err.message) && tags.some((t) => (t.tag === 4 || t.tag === 5) &&
      tags.some((d) => (d.tag === 0xdfff && d.off < t.off) || d.tag === 51))) return 'uninterpreted-tag';
  }
  if (err.code === 'BAD_REFERENCE') {
    // a reference whose index is a tag wirepack interprets, over content of another type (259(0)):
    // a Tag to wirepack, the content itself to cbor-x
    if (tags.some((t) => t.tag === 29 && tags.some((u) => u.off === contentAt(t) && wrongContentHead(input, u)))) return 'tag-content';
    // a reference back into a shareable value that is not a container (a tag around an array, a
    // string...) while it is still being built: wirepack can only resolve references to values
    // already built, or to containers it registered before filling them; cbor-x hands out a
    // placeholder object instead
    const isContainerAt = (q) => {
      const m = input[q] >> 5;
      if (m === 4 || m === 5) return true;
      if (input[q] === 0xd9 && input[q + 1] === 0x01 && (input[q + 2] === 0x02 || input[q + 2] === 0x03)) return (input[q + 3] >> 5) === 4 || (input[q + 3] >> 5) === 5;
      return false;
    };
    if (tags.some((t) => t.tag === 28 && !isContainerAt(contentAt(t)))) return 'bad-reference-cycle';
  }
  return null;
}

/**
 * The bundle (cbor-x's tag 0xdff9) whose content is at q: where its element 0 (the offset) is,
 * and where its strings start, as wirepack reads them (element 0 an unsigned integer, from its own
 * first byte), or Infinity when wirepack reads no bundle there (no array of two or more, or an
 * element 0 of another type).
 * @param {Uint8Array} b @param {number} q
 * @returns {{ e0: number, at: number }}
 */
function bundleLayout(b, q) {
  const e0 = q + 1;
  if (e0 >= b.length || b[q] >> 5 !== 4 || (b[q] & 31) > 27 || headArg(b, q) < 2) return { e0, at: Infinity };
  if (b[e0] >> 5 !== 0 || (b[e0] & 31) > 27) return { e0, at: Infinity };
  return { e0, at: e0 + headArg(b, e0) };
}

/**
 * Is a packed table (tag 51) inside the definition (elements 0-2: values, prefixes, suffixes) of
 * another one?
 * @param {Uint8Array} b @param {{off: number, tag: number | bigint}[]} tags
 */
function packedTableNested(b, tags) {
  const tables = tags.filter((t) => t.tag === 51);
  return tables.some((t) => {
    const q = tagContentAt(b, t);
    if (b[q] !== 0x84) return false;
    let p = q + 1;
    for (let i = 0; i < 3 && p >= 0; i++) p = cborItemEnd(b, p, 0);
    const end = p < 0 ? b.length : p;
    return tables.some((u) => u.off > q && u.off < end);
  });
}

/**
 * A tag that refers into a packed table: 6, or a prefix or suffix (cbor-x's numbering).
 * @param {number | bigint} tag
 */
function isPackedReferenceTag(tag) {
  if (typeof tag !== 'number') return false;
  return tag === 6 || (tag >= 216 && tag <= 255) || (tag >= 27647 && tag <= 32767) ||
    (tag >= 1811940352 && tag <= 2147483647);
}

/**
 * Is the item at q a definite array of two or more whose element 1 is not an array? Element 0
 * must be an item of one head (an integer, a simple value or float) or a definite string, else
 * false (not decided here).
 * @param {Uint8Array} b @param {number} q
 */
function inlineRecordKeysNotArray(b, q) {
  if (q >= b.length || b[q] >> 5 !== 4 || (b[q] & 31) === 31) return false;
  const e0 = q + tagHeadLength(b[q]);
  const e1 = cborItemEnd(b, e0, 0);
  return e1 >= 0 && e1 < b.length && b[e1] >> 5 !== 4;
}

/**
 * The end of the definite CBOR item at q (its heads read; no indefinite lengths, no reserved
 * heads, at most 64 deep), or -1 when that is not decided here or the input ends first.
 * @param {Uint8Array} b @param {number} q @param {number} depth
 * @returns {number}
 */
function cborItemEnd(b, q, depth) {
  if (q >= b.length || depth > 64) return -1;
  const major = b[q] >> 5, ai = b[q] & 31;
  if (ai >= 28) return -1;
  const n = headArg(b, q);
  let p = q + tagHeadLength(b[q]);
  if (major === 2 || major === 3) p += n;
  else if (major === 4 || major === 5 || major === 6) {
    const items = major === 4 ? n : major === 5 ? 2 * n : 1;
    for (let i = 0; i < items && p >= 0; i++) p = cborItemEnd(b, p, depth + 1);
  }
  return p >= 0 && p <= b.length ? p : -1;
}

/**
 * Does one of these record tags have content cbor-x reads otherwise than wirepack: by the
 * argument of its head whatever the major type (a definition's and a use's content of no
 * array), a definition's id and keys past the end of an array of fewer than two?
 * @param {Uint8Array} b @param {{off: number, tag: number | bigint}[]} tags
 */
function recordContentMisread(b, tags) {
  return tags.some((t) => {
    if (typeof t.tag !== 'number' || t.tag < 0xdffe || t.tag > 0xffff) return false;
    const q = tagContentAt(b, t);
    return q < b.length && (b[q] >> 5 !== 4 || (t.tag <= 0xdfff && (b[q] & 31) < 2));
  });
}

/**
 * The records the input defines inline (0xdfff over a definite array whose element 0 is an id of
 * one head and element 1 a definite array of keys): id -> number of keys (the last definition).
 * @param {Uint8Array} b @param {{off: number, tag: number | bigint}[]} tags
 * @returns {Map<number, number>}
 */
function recordDefinitions(b, tags) {
  const defs = new Map();
  for (const t of tags) {
    if (t.tag !== 0xdfff) continue;
    const q = tagContentAt(b, t);
    if (q >= b.length || b[q] >> 5 !== 4 || (b[q] & 31) >= 28 || headArg(b, q) < 2) continue;
    const e0 = q + tagHeadLength(b[q]);
    if (e0 >= b.length || b[e0] >> 5 !== 0 || (b[e0] & 31) >= 28) continue;
    const e1 = e0 + tagHeadLength(b[e0]);
    if (e1 >= b.length || b[e1] >> 5 !== 4 || (b[e1] & 31) >= 28) continue;
    defs.set(headArg(b, e0), headArg(b, e1));
  }
  return defs;
}

/**
 * Is one of these tags a record used (0xe000-0xffff) over a definite array of another length
 * than the keys of the record's inline definition in the input?
 * @param {Uint8Array} b @param {{off: number, tag: number | bigint}[]} tags
 */
function recordLengthMismatch(b, tags) {
  const defs = recordDefinitions(b, tags);
  return tags.some((t) => {
    if (typeof t.tag !== 'number' || t.tag < 0xe000 || t.tag > 0xffff || !defs.has(t.tag)) return false;
    const q = tagContentAt(b, t);
    return q < b.length && b[q] >> 5 === 4 && (b[q] & 31) < 28 && headArg(b, q) !== defs.get(t.tag);
  });
}

/**
 * Does a tag that is no record use to wirepack (0xdff9-0xdfff: bundles and definitions; above
 * 0xffff) come after an inline definition of the record id cbor-x takes it for (0xe000 + the
 * tag's low 13 bits)?
 * @param {Uint8Array} b @param {{off: number, tag: number | bigint}[]} tags
 */
function recordAlias(b, tags) {
  return tags.some((t) => {
    const tag = typeof t.tag === 'bigint' ? t.tag : BigInt(t.tag);
    if (tag < 0xdff9n || (tag >= 0xe000n && tag <= 0xffffn)) return false;
    return recordDefinitions(b, tags.filter((d) => d.off < t.off)).has(0xe000 + Number(tag & 0x1fffn));
  });
}

/** The names of Object.prototype's members. */
const OBJECT_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Is there an Error extension (0x65, a prefix: the value after its data is [name, message,
 * cause]) whose name is a member of Object.prototype?
 * @param {Uint8Array} b @param {{exts: {doff: number, type: number, data: Uint8Array}[]}} walk
 */
function errorNamedLikeObjectMember(b, walk) {
  return walk.exts.some((x) => {
    if (x.type !== 0x65) return false;
    const q = x.doff + x.data.length;
    if (!isMsgpackArrayHead(b[q])) return false;
    const name = msgpackStrAt(b, q + (b[q] === 0xdc ? 3 : b[q] === 0xdd ? 5 : 1));
    return name !== null && OBJECT_MEMBERS.has(name);
  });
}

/** The MessagePack string at q (fixstr, str 8/16), or null. @param {Uint8Array} b @param {number} q */
function msgpackStrAt(b, q) {
  const c = b[q];
  let n, p;
  if (c >= 0xa0 && c <= 0xbf) { n = c & 31; p = q + 1; }
  else if (c === 0xd9) { n = b[q + 1]; p = q + 2; }
  else if (c === 0xda) { n = (b[q + 1] << 8) | b[q + 2]; p = q + 3; }
  else return null;
  return p + n <= b.length ? new TextDecoder().decode(b.subarray(p, p + n)) : null;
}

/** Is b the first byte of a MessagePack array (fixarray, array 16, array 32)? */
function isMsgpackArrayHead(b) {
  return (b >= 0x90 && b <= 0x9f) || b === 0xdc || b === 0xdd;
}

/** Where the content of the tag at t.off starts. @param {Uint8Array} b @param {{off: number}} t */
function tagContentAt(b, t) {
  return t.off + tagHeadLength(b[t.off]);
}

/** The argument of the definite CBOR head at q (its count, length or value). */
function headArg(b, q) {
  const ai = b[q] & 31;
  if (ai < 24) return ai;
  let v = 0;
  for (let i = 1; i < tagHeadLength(b[q]); i++) v = v * 256 + b[q + i];
  return v;
}

/** Bytes in the head of a CBOR item whose initial byte is ib. */
function tagHeadLength(ib) {
  const ai = ib & 31;
  return ai < 24 ? 1 : 1 + (1 << (ai - 24));
}

/** Is there a timestamp extension at `at` that wirepack rejects (size, or nanoseconds)? */
function badTimestampAt(b, at) {
  const c = b[at];
  let len, type, p;
  if (c >= 0xd4 && c <= 0xd8) { len = 1 << (c - 0xd4); type = b[at + 1]; p = at + 2; }
  else if (c === 0xc7) { len = b[at + 1]; type = b[at + 2]; p = at + 3; }
  else if (c === 0xc8) { len = b[at + 1] * 256 + b[at + 2]; type = b[at + 3]; p = at + 4; }
  else if (c === 0xc9) { len = ((b[at + 1] << 24) >>> 0) + b[at + 2] * 65536 + b[at + 3] * 256 + b[at + 4]; type = b[at + 5]; p = at + 6; }
  else return false;
  if (type !== 0xff) return false;
  if (len !== 4 && len !== 8 && len !== 12) return true;
  if (len === 8) return b[p] * 2 ** 22 + b[p + 1] * 2 ** 14 + b[p + 2] * 2 ** 6 + (b[p + 3] >> 2) >= 1e9;
  if (len === 12) return ((b[p] << 24) >>> 0) + b[p + 1] * 65536 + b[p + 2] * 256 + b[p + 3] >= 1e9;
  return false;
}

/**
 * The peer threw where wirepack decoded a value: the documented class that explains it, or null.
 * The peer's message must name the cause, and wirepack's value must show it.
 * @param {'msgpack' | 'cbor'} format
 * @param {Uint8Array} input
 * @param {unknown} ours
 * @param {unknown} peerError
 * @returns {string | null}
 */
export function justifyPeerError(format, input, ours, peerError) {
  const msg = String(peerError && /** @type {any} */ (peerError).message || peerError);
  void ours;
  // wirepack returned a value: the input must be well-formed (an independent check), and the
  // evidence for the peer's error is looked for in the bytes (a value lost to a duplicate key is
  // not in wirepack's result, but its bytes were still read by the peer)
  if (format === 'msgpack') {
    const walk = walkMsgpack(input);
    if (!walk.ok) return null;
    // msgpackr throws on extension types it does not know
    if (/Unknown extension/.test(msg) && walk.exts.some((x) => unknownToMsgpackr(input, x))) return 'uninterpreted-ext';
    if (/Could not find typed array for code 11\b/.test(msg) && walk.exts.some((x) => x.type === 0x74 && x.data[0] === 11)) return 'float16-code';
    // a 0x62 extension of fewer than 4 bytes is no bundle to wirepack (ExtData); msgpackr reads
    // its missing offset as 0 and then fails to find the strings
    if (/Expected string/.test(msg) && walk.exts.some((x) => x.type === 0x62 && x.data.length < 4)) return 'uninterpreted-ext';
    if (/Invalid property type for record/.test(msg) && walk.badKeys.length > 0) return 'non-string-keys';
    // peer bugs: BigInt(undefined) for an empty 0x42; a self-referencing map decoded as an object
    if (/BigInt/.test(msg) && walk.exts.some((x) => x.type === 0x42 && x.data.length === 0)) return 'bigint-empty-peer';
    if (/entries is not a function/.test(msg) && walk.exts.some((x) => x.type === 0x69)) return 'clone-cycle-peer';
    if (/is not a (function|constructor)/.test(msg) && errorNamedLikeObjectMember(input, walk)) return 'error-name-peer';
    return null;
  }
  const walk = walkCbor(input);
  // (an item whose bundles' strings follow it is whole too)
  if (!walk.ok && !(walk.complete && walk.tags.some((t) => t.tag === 0xdff9))) return null;
  // cbor-x has no indefinite-length strings (and its string extractor trips over them)
  if (/Indefinite length not supported|Unexpected end of buffer reading string/.test(msg) && walk.indefiniteString) return 'indefinite-strings';
  // (a simple value past a packed table's values: "Unknown token")
  if (/Unknown token/.test(msg) && walk.simples.length > 0) return 'simple-values';
  if (/No packed values available/.test(msg)) {
    if (walk.simples.length > 0) return 'simple-values';
    if (walk.tags.some((t) => cborxInterprets(t.tag))) return 'uninterpreted-tag';
  }
  if (/Invalid property name type/.test(msg) && walk.badKeys.length > 0) return 'non-string-keys';
  // peer limits: cbor-x reads an 8-byte head of a tag as a length (and rejects it beyond 2^32),
  // and its tag-1 handler multiplies the BigInt of an 8-byte head by a number
  if (/length over 4294967295/.test(msg) && walk.tags.some((t) => typeof t.tag === 'bigint' || t.tag >= 2 ** 32)) return 'big-tag-number';
  // (a tag 1 head may take more than a byte: d9 00 01)
  if (/Cannot mix BigInt/.test(msg) && walk.tags.some((t) => t.tag === 1 && (input[tagContentAt(input, t)] === 0x1b || input[tagContentAt(input, t)] === 0x3b))) return 'tag1-bigint';
  if (recordLengthMismatch(input, walk.tags)) return 'record-inline-peer';
  if (packedTableNested(input, walk.tags)) return 'packed-nested-peer';
  if (walk.tags.some((t) => cborxInterprets(t.tag))) return 'uninterpreted-tag';
  if (walk.tags.some((t) => wrongContentHead(input, t))) return 'tag-content';
  return null;
}

/** Does the item after tag t start with a major type the tag does not take? */
function wrongContentHead(b, t) {
  const tag = t.tag;
  if (typeof tag !== 'number' || !wirepackInterprets(tag)) return false;
  const ib = b[tagContentAt(b, t)];
  const major = ib >> 5;
  switch (tag) {
    case 0: return major !== 3;
    case 1: return !(major === 0 || major === 1 || (major === 7 && (ib & 31) >= 25 && (ib & 31) <= 27));
    case 258: return major !== 4;
    case 259: return major !== 5;
    default: { // 2, 3, 64..87: bytes (of a whole number of elements)
      if (major !== 2) return true;
      if (tag === 2 || tag === 3) return false;
      const size = TYPED_TAG_SIZE.get(tag);
      if (size === undefined) return true;
      if ((ib & 31) === 31) return false;
      return headArg(b, tagContentAt(b, t)) % size !== 0;
    }
  }
}

/**
 * Strict structural equality of two wirepack results (one decoding path against another): same
 * types, same own keys in the same order (an own '__proto__' included), same prototypes, same
 * numbers (Object.is), same shared identities. Returns null, or where they differ.
 * @param {unknown} x
 * @param {unknown} y
 * @returns {string | null}
 */
export function strictDiff(x, y) {
  const pairs = new Map();
  const rec = (a, b, path) => {
    if (Object.is(a, b)) return null;
    if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return `${path || '$'}: ${show(a)} vs ${show(b)}`;
    if (pairs.has(a)) return pairs.get(a) === b ? null : `${path}: shared identity`;
    pairs.set(a, b);
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path || '$'}: prototype ${show(a)} vs ${show(b)}`;
    if (a instanceof Date) return Object.is(a.getTime(), /** @type {Date} */ (b).getTime()) ? null : `${path}: date`;
    if (isTyped(a)) {
      const bb = /** @type {any} */ (b);
      if (a.length !== bb.length) return `${path}: length`;
      for (let i = 0; i < a.length; i++) if (!Object.is(a[i], bb[i])) return `${path}[${i}]`;
      return null;
    }
    if (a instanceof Map || a instanceof Set) {
      const ea = [...a], eb = [.../** @type {any} */ (b)];
      if (ea.length !== eb.length) return `${path}: size`;
      for (let i = 0; i < ea.length; i++) {
        const d = rec(ea[i], eb[i], `${path}<${i}>`);
        if (d) return d;
      }
      return null;
    }
    const ka = Object.keys(a), kb = Object.keys(b);
    if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return `${path || '$'}: keys [${ka.slice(0, 6)}] vs [${kb.slice(0, 6)}]`;
    for (const k of ka) {
      const da = Object.getOwnPropertyDescriptor(a, k), db = Object.getOwnPropertyDescriptor(b, k);
      const d = rec(da && da.value, db && db.value, `${path}.${k}`);
      if (d) return d;
    }
    return null;
  };
  return rec(x, y, '');
}

/** Short hex of bytes (whole when short, else head…tail) for messages. */
export function hexOf(b, max = 4096) {
  let s = '';
  const n = Math.min(b.length, max);
  for (let i = 0; i < n; i++) s += (b[i] < 16 ? '0' : '') + b[i].toString(16);
  return b.length > max ? s + `…(+${b.length - max} bytes)` : s;
}
