// CBOR diagnostic notation (RFC 8949 section 8, indefinite lengths as in section 8.1 / RFC 8610
// G.5): every RFC 8949 Appendix A example, the not-well-formed examples of Appendix F with
// their error code and offset, deep nesting, sequences, input types and string escapes.
// Imports the walker directly (it needs no wasm); 'wirepack/cbor' re-exports it.
import { describe, test, expect } from 'vitest';
import { diagnose } from '../js/src/diagnose.js';
import { DecodeError } from '../js/src/errors.js';
import { fromHex, concat, rng, utf8 } from './helpers/bytes.js';
import vectors from './vectors/cbor/appendix_a.json';

const NodeBuffer = globalThis.Buffer;

const d = (h, opts) => diagnose(fromHex(h), opts);

/** The DecodeError thrown by fn (fails the test if fn returns or throws something else). */
function decodeError(fn) {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return e;
  }
  throw new Error('expected a DecodeError');
}
const errorOf = (h, opts) => {
  const e = decodeError(() => d(h, opts));
  return { code: e.code, offset: e.offset, incomplete: e.incomplete };
};
const expectError = (h, code, offset, opts) =>
  expect(errorOf(h, opts), h).toEqual({ code, offset, incomplete: code === 'TRUNCATED' });

const base64ToHex = (b64) => {
  const bin = atob(b64);
  let s = '';
  for (let i = 0; i < bin.length; i++) s += bin.charCodeAt(i).toString(16).padStart(2, '0');
  return s;
};

// RFC 8949 3.3 (and Appendix F.1: "f8 18") makes f8 00..f8 1f not well-formed; the
// test-vectors file still carries RFC 7049's `f818` -> simple(24). We follow RFC 8949.
const NOT_WELL_FORMED_UNDER_RFC8949 = new Set(['f818']);

/**
 * Expected diagnostic notation, written by hand, for the Appendix A vectors that carry a
 * `decoded` JSON value instead of a `diagnostic` string (the RFC's own table for these rows).
 */
const HAND = {
  '00': '0',
  '01': '1',
  '0a': '10',
  '17': '23',
  '1818': '24',
  '1819': '25',
  '1864': '100',
  '1903e8': '1000',
  '1a000f4240': '1000000',
  '1b000000e8d4a51000': '1000000000000',
  '1bffffffffffffffff': '18446744073709551615',
  'c249010000000000000000': "2(h'010000000000000000')",
  '3bffffffffffffffff': '-18446744073709551616',
  'c349010000000000000000': "3(h'010000000000000000')",
  '20': '-1',
  '29': '-10',
  '3863': '-100',
  '3903e7': '-1000',
  'f90000': '0.0',
  'f98000': '-0.0',
  'f93c00': '1.0',
  'fb3ff199999999999a': '1.1',
  'f93e00': '1.5',
  'f97bff': '65504.0',
  'fa47c35000': '100000.0',
  'fa7f7fffff': '3.4028234663852886e+38',
  'fb7e37e43c8800759c': '1.0e+300',
  'f90001': '5.960464477539063e-8',
  'f90400': '0.00006103515625',
  'f9c400': '-4.0',
  'fbc010666666666666': '-4.1',
  'f4': 'false',
  'f5': 'true',
  'f6': 'null',
  '60': '""',
  '6161': '"a"',
  '6449455446': '"IETF"',
  '62225c': '"\\"\\\\"',
  '62c3bc': '"\\u00fc"',
  '63e6b0b4': '"\\u6c34"',
  '64f0908591': '"\\ud800\\udd51"',
  '80': '[]',
  '83010203': '[1, 2, 3]',
  '8301820203820405': '[1, [2, 3], [4, 5]]',
  '98190102030405060708090a0b0c0d0e0f101112131415161718181819':
    '[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25]',
  'a0': '{}',
  'a26161016162820203': '{"a": 1, "b": [2, 3]}',
  '826161a161626163': '["a", {"b": "c"}]',
  'a56161614161626142616361436164614461656145': '{"a": "A", "b": "B", "c": "C", "d": "D", "e": "E"}',
  '7f657374726561646d696e67ff': '(_ "strea", "ming")',
  '9fff': '[_ ]',
  '9f018202039f0405ffff': '[_ 1, [2, 3], [_ 4, 5]]',
  '9f01820203820405ff': '[_ 1, [2, 3], [4, 5]]',
  '83018202039f0405ff': '[1, [2, 3], [_ 4, 5]]',
  '83019f0203ff820405': '[1, [_ 2, 3], [4, 5]]',
  '9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff':
    '[_ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25]',
  'bf61610161629f0203ffff': '{_ "a": 1, "b": [_ 2, 3]}',
  '826161bf61626163ff': '["a", {_ "b": "c"}]',
  'bf6346756ef563416d7421ff': '{_ "Fun": true, "Amt": -2}',
};

describe('RFC 8949 Appendix A', () => {
  test('the vector file is complete and self-consistent', () => {
    expect(vectors.length).toBe(82);
    for (const v of vectors) {
      expect(base64ToHex(v.cbor), v.hex).toBe(v.hex);
      expect('diagnostic' in v || 'decoded' in v, v.hex).toBe(true);
    }
    // every `decoded` vector has a hand-written expectation
    const decodedHex = vectors.filter((v) => !('diagnostic' in v)).map((v) => v.hex);
    expect(decodedHex.filter((h) => !(h in HAND))).toEqual([]);
    expect(Object.keys(HAND).length).toBe(decodedHex.length);
  });

  const withDiagnostic = vectors.filter((v) => 'diagnostic' in v && !NOT_WELL_FORMED_UNDER_RFC8949.has(v.hex));
  test.each(withDiagnostic.map((v) => [v.hex, v.diagnostic]))('diagnostic %s -> %s', (h, expected) => {
    expect(d(h)).toBe(expected);
  });

  test.each(Object.entries(HAND))('decoded %s -> %s', (h, expected) => {
    expect(d(h)).toBe(expected);
  });

  test('f818 (simple(24) in the vectors, from RFC 7049) is not well-formed under RFC 8949', () => {
    const v = vectors.find((x) => x.hex === 'f818');
    expect(v.diagnostic).toBe('simple(24)');
    expectError('f818', 'BAD_SIMPLE', 0);
  });

  test('every vector also decodes from its base64 form, through every input type', () => {
    for (const v of vectors) {
      if (NOT_WELL_FORMED_UNDER_RFC8949.has(v.hex)) continue;
      const expected = v.diagnostic ?? HAND[v.hex];
      const u8 = fromHex(base64ToHex(v.cbor));
      // a view that does not start at offset 0 of its buffer
      const padded = concat([0xee, 0xee, 0xee], u8, [0xee]);
      const view = padded.subarray(3, 3 + u8.length);
      expect(diagnose(u8), v.hex).toBe(expected);
      expect(diagnose(view), v.hex).toBe(expected);
      expect(diagnose(u8.slice().buffer), v.hex).toBe(expected);
      expect(diagnose(new DataView(padded.buffer, 3, u8.length)), v.hex).toBe(expected);
      if (NodeBuffer) expect(diagnose(NodeBuffer.from(v.hex, 'hex')), v.hex).toBe(expected);
    }
  });
});

describe('numbers', () => {
  test.each([
    ['1b00000000ffffffff', '4294967295'],
    ['1b0000000100000000', '4294967296'],
    ['1b001fffffffffffff', '9007199254740991'],
    ['1b0020000000000001', '9007199254740993'], // beyond 2^53: still exact
    ['1bfffffffffffffffe', '18446744073709551614'],
    ['3b0020000000000000', '-9007199254740993'],
    ['3bfffffffffffffffe', '-18446744073709551615'],
    ['3affffffff', '-4294967296'],
    ['39ffff', '-65536'],
    ['3800', '-1'],
    ['37', '-24'],
    ['1800', '0'], // non-preferred encodings print the same value
    ['1b0000000000000000', '0'],
    ['dbffffffffffffffff00', '18446744073709551615(0)'], // 64-bit tag number
    ['d9d9f7a0', '55799({})'],
  ])('%s -> %s', (h, expected) => expect(d(h)).toBe(expected));
});

describe('floats', () => {
  test.each([
    ['f97c01', 'NaN'], // signalling NaN payload
    ['f9fe00', 'NaN'],
    ['fa7fc00001', 'NaN'],
    ['fbfff8000000000001', 'NaN'],
    ['fa80000000', '-0.0'],
    ['fb8000000000000000', '-0.0'],
    ['fa3f800000', '1.0'],
    ['fbbff0000000000000', '-1.0'],
    ['f93555', '0.333251953125'],
    ['f903ff', '0.00006097555160522461'], // largest subnormal half
    ['fa00000001', '1.401298464324817e-45'],
    ['fb0000000000000001', '5.0e-324'],
    ['fb7fefffffffffffff', '1.7976931348623157e+308'],
    ['fa4b800000', '16777216.0'],
    ['fb4415af1d78b58c40', '100000000000000000000.0'], // 1e20: JS writes it out in full
    ['fb444b1ae4d6e2ef50', '1.0e+21'],
    ['fb3e7ad7f29abcaf48', '1.0e-7'],
    ['fb3fb999999999999a', '0.1'],
    ['fbc1d452d9ec200000', '-1363896240.5'],
  ])('%s -> %s', (h, expected) => expect(d(h)).toBe(expected));
});

describe('strings', () => {
  const textOf = (bytes) => {
    const b = bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes);
    return diagnose(concat([0x78, b.length], b));
  };
  test('JSON escapes; everything outside printable ASCII as lowercase \\uXXXX', () => {
    expect(textOf(utf8('\b\t\n\f\r"\\/'))).toBe('"\\b\\t\\n\\f\\r\\"\\\\/"');
    expect(textOf([0x00, 0x01, 0x1f, 0x20, 0x7e, 0x7f])).toBe('"\\u0000\\u0001\\u001f ~\\u007f"');
    expect(textOf(utf8('\u0080\u00ff\u0100\u20ac\uffff'))).toBe('"\\u0080\\u00ff\\u0100\\u20ac\\uffff"');
    expect(textOf(utf8('a\u{1f600}b'))).toBe('"a\\ud83d\\ude00b"');
    expect(textOf(utf8("it's"))).toBe('"it\'s"');
  });
  test('invalid UTF-8 becomes U+FFFD as with TextDecoder; a leading BOM is kept', () => {
    expect(textOf([0x61, 0xc3, 0x28])).toBe('"a\\ufffd("');
    expect(textOf([0xed, 0xa0, 0x80])).toBe('"\\ufffd\\ufffd\\ufffd"'); // encoded lone surrogate
    expect(textOf([0xff])).toBe('"\\ufffd"');
    expect(textOf([0xf0, 0x90, 0x85])).toBe('"\\ufffd"'); // cut sequence
    expect(textOf([0xef, 0xbb, 0xbf, 0x61])).toBe('"\\ufeffa"');
  });
  test('long strings, ASCII and not', () => {
    const ascii = 'x'.repeat(300);
    expect(diagnose(concat('790' + '12c', utf8(ascii)))).toBe(`"${ascii}"`);
    const mixed = 'é'.repeat(100);
    expect(diagnose(concat('78c8', utf8(mixed)))).toBe(`"${'\\u00e9'.repeat(100)}"`);
    const bytes = new Uint8Array(70000).map((_, i) => i & 255);
    let hexStr = '';
    for (const b of bytes) hexStr += b.toString(16).padStart(2, '0');
    expect(diagnose(concat('5a00011170', bytes))).toBe(`h'${hexStr}'`);
  });
  test('byte strings are lowercase hex; text strings of 8-byte length', () => {
    expect(d('43abcdef')).toBe("h'abcdef'");
    expect(d('7b000000000000000161')).toBe('"a"');
  });
  test('indefinite-length strings, including empty ones and empty chunks', () => {
    expect(d('5fff')).toBe("''_");
    expect(d('7fff')).toBe('""_');
    expect(d('5f40ff')).toBe("(_ h'')");
    expect(d('7f60ff')).toBe('(_ "")');
    expect(d('7f6161606162ff')).toBe('(_ "a", "", "b")');
    expect(d('7f62c3a9ff')).toBe('(_ "\\u00e9")');
    expect(d('825fff7fff')).toBe(`[''_, ""_]`);
    expect(d('7f61c361a9ff')).toBe('(_ "\\ufffd", "\\ufffd")'); // each chunk is decoded alone
  });
});

describe('containers, tags, simple values', () => {
  test.each([
    ['bfff', '{_ }'],
    ['9f80ff', '[_ []]'],
    ['bf9fff00ff', '{_ [_ ]: 0}'],
    ['a1a10102a10304', '{{1: 2}: {3: 4}}'],
    ['a2f6f7f4f5', '{null: undefined, false: true}'],
    ['a10180', '{1: []}'],
    ['c1c2c340', "1(2(3(h'')))"],
  ])('%s -> %s', (h, expected) => expect(d(h)).toBe(expected));

  test('tags around indefinite items and in map keys', () => {
    expect(d('82c1009fc240ff')).toBe("[1(0), [_ 2(h'')]]");
    expect(d('a1c1616101')).toBe('{1("a"): 1}');
    expect(d('d8189f01ff')).toBe('24([_ 1])');
  });

  test('simple values', () => {
    for (let n = 0; n < 20; n++) expect(diagnose(Uint8Array.of(0xe0 + n))).toBe(`simple(${n})`);
    for (let n = 32; n < 256; n++) expect(diagnose(Uint8Array.of(0xf8, n))).toBe(`simple(${n})`);
    expect(d('f7')).toBe('undefined');
  });
});

describe('not well-formed input (RFC 8949 Appendix F.1)', () => {
  const cases = [
    // end of input in a head
    ...['18', '19', '1a', '1b', '1901', '1a0102', '1b01020304050607', '38', '58', '78', '98', '9a01ff00',
      'b8', 'd8', 'f8', 'f900', 'fa0000', 'fb000000'].map((h) => [h, 'TRUNCATED', 0]),
    // definite-length strings with short data
    ...['41', '61', '5affffffff00', '5bffffffffffffffff010203', '7affffffff00', '7b7fffffffffffffff010203',
      '4401020304'.slice(0, 8)].map((h) => [h, 'TRUNCATED', 0]),
    // definite-length arrays and maps not closed with enough items: the container is cut
    ['81', 'TRUNCATED', 0],
    ['818181818181818181', 'TRUNCATED', 8],
    ['8200', 'TRUNCATED', 0],
    ['a1', 'TRUNCATED', 0],
    ['a20102', 'TRUNCATED', 0],
    ['a100', 'TRUNCATED', 0],
    ['a2000000', 'TRUNCATED', 0],
    ['8201440102', 'TRUNCATED', 2], // the inner byte string is the item that is cut
    ['82011901', 'TRUNCATED', 2],
    // tag number without content
    ['c0', 'TRUNCATED', 0],
    ['c11901', 'TRUNCATED', 1],
    // indefinite-length strings, arrays and maps without a break
    ['5f4100', 'TRUNCATED', 0],
    ['7f6100', 'TRUNCATED', 0],
    ['5f', 'TRUNCATED', 0],
    ['5f43', 'TRUNCATED', 1],
    ['9f', 'TRUNCATED', 0],
    ['9f0102', 'TRUNCATED', 0],
    ['bf', 'TRUNCATED', 0],
    ['bf01020102', 'TRUNCATED', 0],
    ['819f', 'TRUNCATED', 1],
    ['9f8000', 'TRUNCATED', 0],
    ['9f9f9f9f9fffffffff', 'TRUNCATED', 0],
    ['9f819f819f9fffffff', 'TRUNCATED', 0],
    // reserved additional information 28..30 in every major type
    ...[0, 1, 2, 3, 4, 5, 6, 7].flatMap((mt) =>
      [28, 29, 30].map((ai) => [((mt << 5) | ai).toString(16).padStart(2, '0'), 'RESERVED_AI', 0])),
    ['811c', 'RESERVED_AI', 1],
    ['9f01feff', 'RESERVED_AI', 2],
    ['a1015d', 'RESERVED_AI', 2],
    ['5f5cff', 'RESERVED_AI', 1],
    // indefinite length for major types 0, 1 and 6
    ['1f', 'RESERVED_AI', 0],
    ['3f', 'RESERVED_AI', 0],
    ['df', 'RESERVED_AI', 0],
    ['82001f', 'RESERVED_AI', 2],
    // two-byte simple values below 32
    ...Array.from({ length: 32 }, (_, n) => ['f8' + n.toString(16).padStart(2, '0'), 'BAD_SIMPLE', 0]),
    ['8201f81f', 'BAD_SIMPLE', 2],
    // indefinite-length string chunks of the wrong type or themselves indefinite
    ['5f00ff', 'BAD_CHUNK', 1],
    ['5f21ff', 'BAD_CHUNK', 1],
    ['5f6100ff', 'BAD_CHUNK', 1],
    ['5f80ff', 'BAD_CHUNK', 1],
    ['5fa0ff', 'BAD_CHUNK', 1],
    ['5fc000ff', 'BAD_CHUNK', 1],
    ['5fe0ff', 'BAD_CHUNK', 1],
    ['7f4100ff', 'BAD_CHUNK', 1],
    ['5f5fffff', 'BAD_CHUNK', 1],
    ['5f5f4100ffff', 'BAD_CHUNK', 1],
    ['7f7f6100ffff', 'BAD_CHUNK', 1],
    ['5f4101f4ff', 'BAD_CHUNK', 3],
    // break outside an indefinite-length item
    ['ff', 'BREAK', 0],
    ['81ff', 'BREAK', 1],
    ['8200ff', 'BREAK', 2],
    ['a1ff', 'BREAK', 1],
    ['a1ff00', 'BREAK', 1],
    ['a100ff', 'BREAK', 2],
    ['a20000ff', 'BREAK', 3],
    ['9f81ff', 'BREAK', 2],
    ['9f829f819f9fffffffff', 'BREAK', 9],
    ['c1ff', 'BREAK', 1],
    // break in the value position of an indefinite-length map
    ['bf00ff', 'BREAK', 2],
    ['bf000000ff', 'BREAK', 4],
    // more than one item
    ['0000', 'TRAILING_DATA', 1],
    ['810001', 'TRAILING_DATA', 2],
    ['00ff', 'TRAILING_DATA', 1],
    ['9fff9fff', 'TRAILING_DATA', 2],
  ];
  test.each(cases)('%s -> %s at %i', (h, code, offset) => expectError(h, code, offset));

  test('empty input is TRUNCATED at 0, through every input type', () => {
    for (const empty of [new Uint8Array(0), new ArrayBuffer(0), new DataView(new ArrayBuffer(4), 2, 0), new Uint8Array(8).subarray(4, 4)]) {
      const e = decodeError(() => diagnose(empty));
      expect([e.code, e.offset, e.incomplete]).toEqual(['TRUNCATED', 0, true]);
    }
  });

  test('every proper prefix of a well-formed item is TRUNCATED, at an offset inside it', () => {
    const full = fromHex('bf6161' + '9f01a1626263f93e00ff' + '6164' + '5f4201024103ff' + '6165' + 'c11b0000000100000000' + '6166' + '7f62c3a9ff' + 'ff');
    expect(diagnose(full)).toBe('{_ "a": [_ 1, {"bc": 1.5}], "d": (_ h\'0102\', h\'03\'), "e": 1(4294967296), "f": (_ "\\u00e9")}');
    for (let k = 0; k < full.length; k++) {
      const e = decodeError(() => diagnose(full.subarray(0, k)));
      expect(e.code, `prefix of ${k}`).toBe('TRUNCATED');
      expect(e.offset).toBeGreaterThanOrEqual(0);
      expect(e.offset).toBeLessThanOrEqual(Math.max(0, k - 1));
    }
  });

  test('random bytes: a string or a DecodeError, never anything else', () => {
    const next = rng(8949);
    const biased = [0x18, 0x19, 0x1a, 0x1b, 0x5f, 0x7f, 0x9f, 0xbf, 0xff, 0xf8, 0xf9, 0xfa, 0xfb, 0xc1, 0x81, 0xa1, 0x1c, 0x61, 0x41];
    const codes = ['TRUNCATED', 'RESERVED_AI', 'BREAK', 'BAD_CHUNK', 'BAD_SIMPLE', 'TRAILING_DATA'];
    const outcomes = Object.fromEntries([['ok', 0], ...codes.map((c) => [c, 0])]);
    const bad = [];
    for (let iter = 0; iter < 5000; iter++) {
      const n = 1 + Math.floor(next() * 40);
      const bytes = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        bytes[i] = next() < 0.4 ? biased[Math.floor(next() * biased.length)] : Math.floor(next() * 256);
      }
      for (const opts of [undefined, { sequence: true }]) {
        try {
          const s = diagnose(bytes, opts);
          if (typeof s === 'string') outcomes.ok++;
          else bad.push(bytes);
        } catch (e) {
          if (e instanceof DecodeError && codes.includes(e.code) && e.offset >= 0 && e.offset <= n) outcomes[e.code]++;
          else bad.push([bytes, e]);
        }
      }
    }
    expect(bad).toEqual([]);
    // the generator reaches every outcome
    for (const [k, count] of Object.entries(outcomes)) expect(count, k).toBeGreaterThan(0);
  });

  test('lengths far beyond the input fail without allocating or looping', () => {
    expectError('5bffffffffffffffff', 'TRUNCATED', 0);
    expectError('9bffffffffffffffff00', 'TRUNCATED', 0);
    expectError('bbffffffffffffffff0000', 'TRUNCATED', 0);
    expectError('9bffffffffffffffff' + '00'.repeat(1000), 'TRUNCATED', 0);
  });
});

describe('depth', () => {
  const nested = (n, byte, inner) => {
    const out = new Uint8Array(n + inner.length);
    out.fill(byte, 0, n);
    out.set(inner, n);
    return out;
  };
  test('10^5 nested arrays throw DEPTH at the 1001st, without a stack overflow', () => {
    const e = decodeError(() => diagnose(nested(100000, 0x81, [0x00])));
    expect([e.code, e.offset]).toEqual(['DEPTH', 1000]);
    expect(decodeError(() => diagnose(nested(100000, 0x81, []))).code).toBe('DEPTH');
  });
  test('default maxDepth is 1000: arrays, maps, tags, indefinite items', () => {
    expect(diagnose(nested(1000, 0x81, [0x00]))).toBe('['.repeat(1000) + '0' + ']'.repeat(1000));
    expectError('81'.repeat(1001) + '00', 'DEPTH', 1000);
    expectError('81'.repeat(1000) + '80', 'DEPTH', 1000); // an empty container is still one level
    expectError('9f'.repeat(1001) + 'ff'.repeat(1001), 'DEPTH', 1000);
    expectError('a100'.repeat(1001) + '00', 'DEPTH', 2000);
    expectError('c1'.repeat(1001) + '00', 'DEPTH', 1000);
    expect(d('c1'.repeat(1000) + '00')).toBe('1('.repeat(1000) + '0' + ')'.repeat(1000));
    expectError('81'.repeat(1000) + '5fff', 'DEPTH', 1000);
  });
  test('maxDepth option, including no limit on 10^5 levels', () => {
    expectError('818100', 'DEPTH', 1, { maxDepth: 1 });
    expect(d('8100', { maxDepth: 1 })).toBe('[0]');
    expect(d('00', { maxDepth: 0 })).toBe('0');
    const deep = diagnose(nested(100000, 0x81, [0x00]), { maxDepth: Infinity });
    expect(deep.length).toBe(200001);
    expect(deep.slice(99998, 100003)).toBe('[[0]]');
  });
});

describe('CBOR sequences (RFC 8742)', () => {
  test('{sequence: true} prints the items separated by commas', () => {
    expect(d('010203', { sequence: true })).toBe('1, 2, 3');
    expect(d('8102a16161f6', { sequence: true })).toBe('[2], {"a": null}');
    expect(d('9fff5fff', { sequence: true })).toBe("[_ ], ''_");
    expect(d('00', { sequence: true })).toBe('0');
    expect(diagnose(new Uint8Array(0), { sequence: true })).toBe('');
    expectError('0102', 'TRAILING_DATA', 1, { sequence: false });
  });
  test('errors keep their offsets in a sequence', () => {
    expectError('0102', 'TRAILING_DATA', 1);
    expectError('01820102ff', 'BREAK', 4, { sequence: true });
    expectError('01018201', 'TRUNCATED', 2, { sequence: true });
    expectError('00f800', 'BAD_SIMPLE', 1, { sequence: true });
  });
});

describe('input types', () => {
  test('Uint8Array, ArrayBuffer, DataView, other views, Buffer', () => {
    const bytes = fromHex('83fb3ff199999999999a6161f93c00');
    const expected = '[1.1, "a", 1.0]';
    const padded = concat([1, 2, 3], bytes, [4]);
    expect(diagnose(bytes)).toBe(expected);
    expect(diagnose(bytes.slice().buffer)).toBe(expected);
    expect(diagnose(padded.subarray(3, 3 + bytes.length))).toBe(expected); // unaligned float64
    expect(diagnose(new DataView(padded.buffer, 3, bytes.length))).toBe(expected);
    expect(diagnose(new Uint16Array(fromHex('83010203').buffer))).toBe('[1, 2, 3]');
    if (NodeBuffer) {
      expect(diagnose(NodeBuffer.from(bytes))).toBe(expected);
      const pooled = NodeBuffer.concat([NodeBuffer.from([9, 9]), NodeBuffer.from(bytes)]).subarray(2);
      expect(diagnose(pooled)).toBe(expected);
    }
  });
  test('anything else is a TypeError', () => {
    for (const bad of [null, undefined, 'a0', 5, [0x80], {}]) {
      expect(() => diagnose(/** @type {any} */ (bad))).toThrow(TypeError);
    }
  });
  test('the input is not modified', () => {
    const bytes = fromHex('a26161016162820203');
    const copy = bytes.slice();
    diagnose(bytes);
    expect(bytes).toEqual(copy);
  });
});
