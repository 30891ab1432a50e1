// find() against decoding: the value at a path is what decode() gives there, for map keys of
// every kind. A key step names a property as JavaScript does (the key 1 is "1", null is
// "null", ill-formed UTF-8 reads as U+FFFD, CBOR text chunks are joined), and an index step
// on a map names the key of its digits (obj[5] is obj["5"]). Maps are written byte by byte with
// keys whose names differ (a duplicate name: find takes the first, decoding keeps the last).
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import { unpack } from 'wirepack';
import { decode as cborDecode } from 'wirepack/cbor';
import { fromHex, hex, concat } from './helpers/bytes.js';
import { cborItem, msgpackItem, cborHeadArb } from './helpers/items.js';
import { find, findKey } from './helpers/transcode.js';

/** key bytes [MessagePack, CBOR] and the property name decode() gives them */
const KEYS = /** @type {[string, string, string][]} */ ([
  ['a1 61', '61 61', 'a'], ['a0', '60', ''], ['01', '01', '1'], ['a2 31 30', '62 31 30', '10'],
  ['cf 00 00 00 00 00 00 00 07', '1b 00 00 00 00 00 00 00 07', '7'], ['ec', '33', '-20'], ['c0', 'f6', 'null'],
  ['c3', 'f5', 'true'], ['a5 66 61 6c 73 65', '65 66 61 6c 73 65', 'false'], ['d4 00 00', 'f7', 'undefined'],
  ['cb 3f f8 00 00 00 00 00 00', 'f9 3e 00', '1.5'], ['cb 7f f8 00 00 00 00 00 00', 'f9 7e 00', 'NaN'],
  ['cb 44 4b 1a e4 d6 e2 ef 50', 'fb 44 4b 1a e4 d6 e2 ef 50', '1e+21'], ['cb 3e b0 c6 f7 a0 b5 ed 8d', 'f9 00 11', null],
  ['a1 ff', '61 ff', '\ufffd'], ['a4 e2 82 61 ac', '7f 62 e2 82 62 61 ac ff', '\ufffda\ufffd'],
  ['a3 e2 82 ac', '7f 61 e2 62 82 ac ff', null], // '€' in MessagePack, two chunks of ill-formed bytes in CBOR
  ['a2 61 62', '7f 61 61 61 62 ff', 'ab'], ['a9 5f 5f 70 72 6f 74 6f 5f 5f', '69 5f 5f 70 72 6f 74 6f 5f 5f', '__proto__'],
  ['a4 f0 9f 98 80', '7f 61 f0 63 9f 98 80 ff', null], // an emoji; in CBOR split inside the sequence: four U+FFFD
]);

/**
 * A container tree and the paths to each node. MessagePack (0) or CBOR (1).
 * @param {0 | 1} f
 */
function treeArb(f) {
  const leaf = (f ? cborItem : msgpackItem)({ json: true, scalar: true });
  return fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('node'), { maxLength: 4 }).chain((xs) => (f ? cborHeadArb(4, xs.length) : fc.constant(Uint8Array.of(0x90 | xs.length))).map((h) => concat(h, ...xs))),
      fc.uniqueArray(fc.tuple(fc.nat(KEYS.length - 1), tie('node')), { maxLength: 5, selector: ([k]) => KEYS[k][2] ?? `${k}` })
        .chain((es) => fc.constantFrom(0, 1).map((indef) => {
          const parts = es.flatMap(([k, v]) => [fromHex(KEYS[k][f]), v]);
          if (f && indef) return concat(Uint8Array.of(0xbf), ...parts, Uint8Array.of(0xff));
          return concat(Uint8Array.of((f ? 0xa0 : 0x80) | es.length), ...parts);
        }))),
  })).node;
}

/** every path of a decoded value (up to 3 steps), with the value there */
function paths(v) {
  /** @type {[(string | number)[], unknown][]} */
  const out = [];
  const walk = (x, path) => {
    out.push([path, x]);
    if (path.length >= 3) return;
    if (Array.isArray(x)) x.forEach((y, i) => walk(y, [...path, i]));
    else if (x && typeof x === 'object' && !(x instanceof Uint8Array)) {
      for (const k of Object.keys(x)) {
        walk(/** @type {any} */ (x)[k], [...path, k]);
        if (/^(0|[1-9]\d*)$/.test(k) && Number(k) < 4294967295) walk(/** @type {any} */ (x)[k], [...path, Number(k)]); // obj[5]
      }
    }
  };
  walk(v, []);
  return out;
}

describe.each([['msgpack', 0, unpack], ['cbor', 1, cborDecode]])('%s: find gives what decoding gives', (format, f, decode) => {
  test('every path of generated maps and arrays', () => {
    let checked = 0;
    fc.assert(fc.property(treeArb(/** @type {0 | 1} */ (f)), (bytes) => {
      const value = decode(bytes);
      for (const [path, want] of paths(value)) {
        expect(find(bytes, path, { format }), `${hex(bytes)} at ${JSON.stringify(path)}`).toEqual(want);
        checked++;
      }
      expect(find(bytes, ['no such key'], { format })).toBe(undefined);
    }), { numRuns: 1500 });
    expect(checked).toBeGreaterThan(5000);
  });
});

describe('examples', () => {
  test('integer, null and float keys; an index step on a map; joined and ill-formed keys', () => {
    const mp = fromHex('84 01 a1 61 02 a1 62 c0 03 cb 3f f8 00 00 00 00 00 00 04'); // {1: 'a', 2: 'b', null: 3, 1.5: 4}
    expect(find(mp, '/1')).toBe('a');
    expect(find(mp, [2])).toBe('b');
    expect(find(mp, ['null'])).toBe(3);
    expect(find(mp, ['1.5'])).toBe(4);
    expect(findKey(mp, '2')).toBe('b');
    expect(find(fromHex('a1 7f 61 61 61 62 ff 05'), ['ab'], { format: 'cbor' })).toBe(5);
    expect(find(fromHex('81 a2 61 ff 05'), ['a\ufffd'])).toBe(5);
    expect(find('{"5": "five"}', [5], { format: 'json' })).toBe('five');
    expect(find('[0, 1, 2]', ['2'], { format: 'json' })).toBe(2);
  });
});
