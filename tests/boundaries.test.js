// Byte-exact tables at every MessagePack size boundary, in both directions:
// hex(pack(value)) === expected and unpack(expected) equals value.
// Expected headers are written out by the spec (wirepack always picks the smallest form).
import { describe, test, expect } from 'vitest';
import { pack, unpack, Packr, Unpackr, FLOAT32_OPTIONS } from 'wirepack';
import { encode, decode, Encoder } from 'wirepack/cbor';
import { hex, fromHex, concat, seqBytes, utf8 } from './helpers/bytes.js';

const both = (value, expected, check = (v) => expect(v).toBe(value)) => {
  expect(hex(pack(value))).toBe(expected);
  check(unpack(fromHex(expected)));
};

describe('integers (JS numbers)', () => {
  const table = [
    [0, '00'], [1, '01'], [127, '7f'],
    [128, 'cc80'], [255, 'ccff'],
    [256, 'cd0100'], [65535, 'cdffff'],
    [65536, 'ce00010000'], [2 ** 31 - 1, 'ce7fffffff'], [2 ** 31, 'ce80000000'], [2 ** 32 - 1, 'ceffffffff'],
    // >= 2^32: float64, as msgpackr
    [2 ** 32, 'cb41f0000000000000'], [2 ** 32 + 1, 'cb41f0000000100000'],
    [2 ** 53, 'cb4340000000000000'], [Number.MAX_SAFE_INTEGER, 'cb433fffffffffffff'],
    [-1, 'ff'], [-31, 'e1'], [-32, 'e0'],
    [-33, 'd0df'], [-128, 'd080'],
    [-129, 'd1ff7f'], [-32768, 'd18000'],
    [-32769, 'd2ffff7fff'], [-(2 ** 31), 'd280000000'],
    [-(2 ** 31) - 1, 'cbc1e0000000200000'], [-(2 ** 32), 'cbc1f0000000000000'],
    [Number.MIN_SAFE_INTEGER, 'cbc33fffffffffffff'],
  ];
  test.each(table)('%s <-> %s', (v, h) => both(v, h));
});

describe('integers: every encoding width decodes (non-minimal forms too)', () => {
  const table = [
    ['cc00', 0], ['cc7f', 127], ['cd0000', 0], ['cd00ff', 255], ['cdffff', 65535],
    ['ce00000000', 0], ['ce0000ffff', 65535], ['ceffffffff', 4294967295],
    ['d000', 0], ['d07f', 127], ['d0ff', -1], ['d080', -128],
    ['d10000', 0], ['d17fff', 32767], ['d1ffff', -1], ['d18000', -32768],
    ['d200000000', 0], ['d27fffffff', 2147483647], ['d2ffffffff', -1], ['d280000000', -2147483648],
  ];
  test.each(table)('%s -> %s', (h, v) => expect(unpack(fromHex(h))).toBe(v));

  // 64-bit forms decode to BigInt by default (int64AsType 'bigint', as msgpackr)
  const table64 = [
    ['cf0000000000000000', 0n], ['cf0000000000000005', 5n], ['cf00000000ffffffff', 4294967295n],
    ['cf0020000000000001', 9007199254740993n], ['cf7fffffffffffffff', 9223372036854775807n],
    ['cf8000000000000000', 9223372036854775808n], ['cfffffffffffffffff', 18446744073709551615n],
    ['d30000000000000000', 0n], ['d3ffffffffffffffff', -1n], ['d3ffffffff00000000', -4294967296n],
    ['d37fffffffffffffff', 9223372036854775807n], ['d38000000000000000', -9223372036854775808n],
  ];
  test.each(table64)('%s -> %sn', (h, v) => expect(unpack(fromHex(h))).toBe(v));
});

describe('BigInt', () => {
  const table = [
    [0n, 'd30000000000000000'], [5n, 'd30000000000000005'], [-5n, 'd3fffffffffffffffb'],
    [-1n, 'd3ffffffffffffffff'], [127n, 'd3000000000000007f'], [2n ** 32n, 'd30000000100000000'],
    [2n ** 63n - 1n, 'd37fffffffffffffff'], [-(2n ** 63n), 'd38000000000000000'],
    [2n ** 63n, 'cf8000000000000000'], [2n ** 63n + 1n, 'cf8000000000000001'], [2n ** 64n - 1n, 'cfffffffffffffffff'],
  ];
  test.each(table)('%s <-> %s', (v, h) => both(v, h));

  test.each([[2n ** 64n], [2n ** 64n + 1n], [2n ** 100n], [-(2n ** 63n) - 1n], [-(2n ** 64n)]])(
    '%s does not fit: RangeError',
    (v) => {
      expect(() => pack(v)).toThrow(RangeError);
      expect(() => pack([1, { a: v }])).toThrow(RangeError);
      expect(hex(pack([1, 2]))).toBe('920102'); // encoder still usable
    },
  );
});

describe('floats', () => {
  test.each([
    [1.5, 'cb3ff8000000000000'], [-1.5, 'cbbff8000000000000'], [0.1, 'cb3fb999999999999a'],
    [Infinity, 'cb7ff0000000000000'], [-Infinity, 'cbfff0000000000000'],
    [Number.MIN_VALUE, 'cb0000000000000001'], [Number.MAX_VALUE, 'cb7fefffffffffffff'],
    [2 ** 32 + 0.5, 'cb41f0000000080000'], [-(2 ** 31) - 0.5, 'cbc1e0000000100000'],
  ])('%s <-> %s', (v, h) => both(v, h));

  test('-0 packs as integer 0 (msgpackr), and cb8000... decodes to -0', () => {
    expect(hex(pack(-0))).toBe('00');
    expect(Object.is(unpack(fromHex('cb8000000000000000')), -0)).toBe(true);
    expect(Object.is(unpack(fromHex('ca80000000')), -0)).toBe(true);
  });

  test('NaN', () => {
    expect(hex(pack(NaN))).toBe('cb7ff8000000000000');
    expect(unpack(fromHex('cb7ff8000000000000'))).toBeNaN();
    expect(unpack(fromHex('cbfff8000000000001'))).toBeNaN();
    expect(unpack(fromHex('ca7fc00000'))).toBeNaN();
  });

  test('float32 decodes to the exact float32 value', () => {
    expect(unpack(fromHex('ca3fc00000'))).toBe(1.5);
    expect(unpack(fromHex('ca3dcccccd'))).toBe(Math.fround(0.1));
    expect(unpack(fromHex('ca7f800000'))).toBe(Infinity);
    expect(unpack(fromHex('caff800000'))).toBe(-Infinity);
    expect(unpack(fromHex('ca00000001'))).toBe(2 ** -149);
    expect(unpack(fromHex('ca4f800000'))).toBe(2 ** 32);
  });

  test('useFloat32: FLOAT32_OPTIONS.ALWAYS writes ca for non-integers', () => {
    const p = new Packr({ useRecords: false, useFloat32: FLOAT32_OPTIONS.ALWAYS });
    expect(hex(p.pack(1.5))).toBe('ca3fc00000');
    expect(hex(p.pack(0.1))).toBe('ca3dcccccd');
    expect(hex(p.pack(-2.25))).toBe('cac0100000');
    expect(hex(p.pack([0.5, 'x']))).toBe('92ca3f000000a178');
    // integers keep their integer forms
    expect(hex(p.pack(1))).toBe('01');
    expect(hex(p.pack(300))).toBe('cd012c');
    expect(hex(p.pack(-5))).toBe('fb');
  });
});

describe('nil, booleans, undefined', () => {
  test.each([[null, 'c0'], [false, 'c2'], [true, 'c3'], [undefined, 'd40000']])('%s <-> %s', (v, h) => both(v, h));
  test('undefined inside containers', () => {
    both([undefined, 1], '92d4000001', (v) => expect(v).toEqual([undefined, 1]));
    const o = unpack(fromHex('81a161d40000'));
    expect(Object.keys(o)).toEqual(['a']);
    expect(o.a).toBe(undefined);
  });
});

// ---------------------------------------------------------------- strings
const ascii = (n) => {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(97 + (i % 26));
  return s;
};
// A string of exactly n UTF-8 bytes built from `unit` (2, 3 or 4 byte chars), padded with ASCII.
const multibyte = (n, unit) => {
  const w = utf8(unit).length;
  const s = unit.repeat(Math.floor(n / w)) + 'z'.repeat(n % w);
  expect(utf8(s).length).toBe(n);
  return s;
};
const STR = [
  [0, 'a0'], [1, 'a1'], [31, 'bf'], [32, 'd920'], [255, 'd9ff'], [256, 'da0100'],
  [65535, 'daffff'], [65536, 'db00010000'], [70000, 'db00011170'],
];

describe('str boundaries (the UTF-8 byte length decides)', () => {
  for (const [label, make] of [
    ['ascii', ascii],
    ['2-byte é', (n) => multibyte(n, 'é')],
    ['3-byte €', (n) => multibyte(n, '€')],
    ['4-byte 🍺', (n) => multibyte(n, '🍺')],
    ['mixed', (n) => multibyte(n, 'aé€🍺')],
  ]) {
    test.each(STR)(`${label}: %s bytes -> header %s`, (n, header) => {
      const s = make(n);
      const expected = header + hex(utf8(s));
      both(s, expected);
    });
  }

  test('JS length small but byte length large', () => {
    both('é'.repeat(16), 'd920' + 'c3a9'.repeat(16)); // 16 UTF-16 units, 32 bytes
    both('€'.repeat(10) + 'a', 'bf' + 'e282ac'.repeat(10) + '61'); // 31 bytes
    both('€'.repeat(11), 'd921' + 'e282ac'.repeat(11)); // 33 bytes
    both('🍺'.repeat(64), 'da0100' + 'f09f8dba'.repeat(64)); // 128 units, 256 bytes
    both('€'.repeat(85), 'd9ff' + 'e282ac'.repeat(85)); // 255 bytes
    both('€'.repeat(21845) + 'a', 'db00010000' + 'e282ac'.repeat(21845) + '61'); // 65536 bytes, 21846 units
    both('€'.repeat(21845), 'daffff' + 'e282ac'.repeat(21845)); // 65535 bytes
  });

  // short strings are encoded four ASCII characters to a word until the first other character:
  // every position of that character in and after the words, with the bytes TextEncoder gives
  test('a non-ASCII character at every position of the first words', () => {
    for (const odd of ['\x7f', '\x80', 'é', '€', '🍺', '\ud800', '\udc00', '\ud83c']) {
      for (let before = 0; before <= 9; before++) {
        for (let after = 0; after <= 5; after++) {
          // (NULs too: four characters are tested together, and a test on their OR must still see 0x80)
          const s = (odd === '\x80' ? '\0'.repeat(before) : 'abcdefghij'.slice(0, before)) + odd + 'klmno'.slice(0, after);
          const b = utf8(s);
          const expected = (b.length < 32 ? (0xa0 | b.length).toString(16) : 'd9' + b.length.toString(16)) + hex(b);
          expect(hex(pack(s)), JSON.stringify(s)).toBe(expected);
          expect(hex(pack([s, { [s]: s }])), JSON.stringify(s)).toBe('92' + expected + '81' + expected + expected);
        }
      }
    }
  });

  test('non-minimal string headers decode', () => {
    expect(unpack(fromHex('d900'))).toBe('');
    expect(unpack(fromHex('da0000'))).toBe('');
    expect(unpack(fromHex('db00000000'))).toBe('');
    expect(unpack(fromHex('d903616263'))).toBe('abc');
    expect(unpack(fromHex('da0003e282ac'))).toBe('€');
    expect(unpack(fromHex('db00000004f09f8dba'))).toBe('🍺');
  });

  test('a leading U+FEFF is a character, not a byte-order mark: kept in keys and values', () => {
    // (non-ASCII keys are decoded one by one with a TextDecoder, which by default drops a
    // leading U+FEFF: the key lost its first character)
    const bom = '\uFEFF';
    const value = { [bom + 'k']: bom + 'é', [bom]: [bom + 'a', 'é' + bom, bom + 'ü'.repeat(40), bom + 'x'.repeat(70)], [bom + 'ключ']: bom };
    expect(hex(pack(bom))).toBe('a3efbbbf');
    expect(unpack(fromHex('a3efbbbf'))).toBe(bom);
    expect(unpack(pack(value))).toEqual(value);
    expect(decode(encode(value))).toEqual(value);
    expect(new Unpackr({ useRecords: false }).unpack(new Packr({ useRecords: false }).pack([value, value]))).toEqual([value, value]);
    expect(new Encoder().decode(new Encoder().encode([value, value]))).toEqual([value, value]);
  });
});

// ---------------------------------------------------------------- bin
describe('bin boundaries', () => {
  test.each([[0, 'c400'], [1, 'c401'], [255, 'c4ff'], [256, 'c50100'], [65535, 'c5ffff'], [65536, 'c600010000'], [100000, 'c6000186a0']])(
    '%s bytes -> %s',
    (n, header) => {
      const data = seqBytes(n, 7);
      const expected = header + hex(data);
      expect(hex(pack(data))).toBe(expected);
      const back = unpack(fromHex(expected));
      expect(back).toBeInstanceOf(Uint8Array);
      expect(back.length).toBe(n);
      expect(hex(back)).toBe(hex(data));
    },
  );
  test('bin from a subarray packs only the view', () => {
    const big = seqBytes(100);
    expect(hex(pack(big.subarray(10, 13)))).toBe('c4030a0b0c');
  });
});

// ---------------------------------------------------------------- arrays and maps
describe('array boundaries', () => {
  test.each([[0, '90'], [1, '91'], [15, '9f'], [16, 'dc0010'], [65535, 'dcffff'], [65536, 'dd00010000'], [70000, 'dd00011170']])(
    '%s elements -> %s',
    (n, header) => {
      const arr = Array.from({ length: n }, (_, i) => i & 127);
      const expected = header + hex(arr);
      expect(hex(pack(arr))).toBe(expected);
      const back = unpack(fromHex(expected));
      expect(back.length).toBe(n);
      expect(back).toEqual(arr);
    },
    20000,
  );
  test('non-minimal array headers decode', () => {
    expect(unpack(fromHex('dc0000'))).toEqual([]);
    expect(unpack(fromHex('dd00000000'))).toEqual([]);
    expect(unpack(fromHex('dc00020102'))).toEqual([1, 2]);
    expect(unpack(fromHex('dd000000020102'))).toEqual([1, 2]);
  });
});

describe('map boundaries (objects with distinct keys)', () => {
  test.each([[0, '80'], [1, '81'], [15, '8f'], [16, 'de0010'], [65535, 'deffff'], [65536, 'df00010000']])(
    '%s keys -> %s',
    (n, header) => {
      const obj = {};
      let expected = header;
      for (let i = 0; i < n; i++) {
        const k = 'k' + i;
        obj[k] = i & 127;
        expected += hex([0xa0 | k.length]) + hex(utf8(k)) + hex([i & 127]);
      }
      expect(hex(pack(obj))).toBe(expected);
      const back = unpack(fromHex(expected));
      expect(back instanceof Map).toBe(false);
      expect(Object.keys(back).length).toBe(n);
      expect(back).toEqual(obj);
    },
    20000,
  );
  test('non-minimal map headers decode', () => {
    expect(unpack(fromHex('de0000'))).toEqual({});
    expect(unpack(fromHex('df00000000'))).toEqual({});
    expect(unpack(fromHex('de0001a16101'))).toEqual({ a: 1 });
    expect(unpack(fromHex('df00000001a16101'))).toEqual({ a: 1 });
  });
  test('Map packs as a map', () => {
    expect(hex(pack(new Map([['a', 1], ['b', 2]])))).toBe('82a16101a16202');
    expect(hex(pack(new Map([[1, 'x'], [true, null]])))).toBe('8201a178c3c0');
    expect(hex(pack(new Map()))).toBe('80');
  });
});

// ---------------------------------------------------------------- ext
describe('ext boundaries (unknown types round-trip)', () => {
  const table = [
    [1, 'd405'], [2, 'd505'], [4, 'd605'], [8, 'd705'], [16, 'd805'],
    [0, 'c70005'], [3, 'c70305'], [5, 'c70505'], [17, 'c71105'], [255, 'c7ff05'],
    [256, 'c8010005'], [65535, 'c8ffff05'], [65536, 'c90001000005'],
  ];
  test.each(table)('%s data bytes -> %s', (n, header) => {
    const data = seqBytes(n, 3);
    const bytes = concat(header, data);
    const ext = unpack(bytes);
    expect(ext.type).toBe(5);
    expect(ext.data).toBeInstanceOf(Uint8Array);
    expect(hex(ext.data)).toBe(hex(data));
    expect(hex(pack(ext))).toBe(hex(bytes));
  });
  test('ext type 127', () => {
    expect(hex(pack(unpack(fromHex('d47f42'))))).toBe('d47f42');
    // non-minimal ext headers are re-packed in the smallest form
    expect(hex(pack(unpack(fromHex('c7027f4142'))))).toBe('d57f4142');
    expect(hex(pack(unpack(fromHex('c80001 7f 42'.replace(/ /g, '')))))).toBe('d47f42');
    expect(unpack(fromHex('d47f42')).type).toBe(127);
  });
  test('negative (reserved) ext types other than -1 are signed, as the spec says', () => {
    const v = unpack(fromHex('d5fe0102'));
    expect(v.type).toBe(-2);
    expect(hex(v.data)).toBe('0102');
    expect(hex(pack(v))).toBe('d5fe0102');
  });
});

// ---------------------------------------------------------------- timestamps
describe('timestamps', () => {
  const table = [
    [0, 'd6ff00000000'],
    [1000, 'd6ff00000001'],
    [1514862245000, 'd6ff5a4af6a5'],
    [1, 'd7ff003d090000000000'],
    [999, 'd7ffee2e1f0000000000'],
    [(2 ** 32 - 1) * 1000, 'd6ffffffffff'],
    [2 ** 32 * 1000, 'd7ff0000000100000000'],
    [(2 ** 34 - 1) * 1000, 'd7ff00000003ffffffff'],
    [(2 ** 34 - 1) * 1000 + 999, 'd7ffee2e1f03ffffffff'],
    [2 ** 34 * 1000, 'c70cff000000000000000400000000'],
    [Date.UTC(2200, 0, 1), 'd7ff00000001b09e1900'],
    [Date.UTC(2200, 0, 1) + 123, 'd7ff1d535301b09e1900'],
    [Date.UTC(2600, 0, 1), 'c70cff0000000000000004a0fe7280'],
    [-1, 'c70cff3b8b87c0ffffffffffffffff'],
    [-999, 'c70cff000f4240ffffffffffffffff'],
    [-1000, 'c70cff00000000ffffffffffffffff'],
    [-1001, 'c70cff3b8b87c0fffffffffffffffe'],
    [Date.UTC(1900, 0, 1), 'c70cff00000000ffffffff7c558180'],
    [8.64e15, 'c70cff00000000000007dba8218000'],
    [-8.64e15, 'c70cff00000000fffff82457de8000'],
  ];
  test.each(table)('Date(%s) <-> %s', (ms, h) => {
    const d = new Date(ms);
    expect(d.getTime()).toBe(ms);
    expect(hex(pack(d))).toBe(h);
    const back = unpack(fromHex(h));
    expect(back).toBeInstanceOf(Date);
    expect(back.getTime()).toBe(ms);
  });

  test('invalid Date <-> d4 ff ff', () => {
    expect(hex(pack(new Date(NaN)))).toBe('d4ffff');
    const back = unpack(fromHex('d4ffff'));
    expect(back).toBeInstanceOf(Date);
    expect(back.getTime()).toBeNaN();
  });

  test('nanoseconds are floored to milliseconds', () => {
    // 64-bit: sec 0, nsec 1 / 999999 / 1999999
    expect(unpack(fromHex('d7ff0000000400000000')).getTime()).toBe(0);
    expect(unpack(fromHex('d7ff003d08fc00000000')).getTime()).toBe(0);
    expect(unpack(fromHex('d7ff007a11fc00000000')).getTime()).toBe(1);
    // 96-bit: sec -1, nsec 1 -> -999.999999 ms -> -1000
    expect(unpack(fromHex('c70cff00000001ffffffffffffffff')).getTime()).toBe(-1000);
    // 96-bit with seconds in the 32-bit range still decodes
    expect(unpack(fromHex('c70cff000000000000000000000001')).getTime()).toBe(1000);
    // timestamp in a container
    expect(unpack(fromHex('92d6ff00000001c0'))).toEqual([new Date(1000), null]);
  });
});

// Small ASCII areas are made into strings from their bytes (one fromCharCode call per string up
// to 32 bytes, while at most 64 bytes of the area are left, 256 without Buffer; without Buffer
// also strings up to 128 bytes as joined 32-byte pieces while at most 160 bytes are left);
// longer ones by an area decode. Lengths past 128 and areas either side of 160 and 256 included.
describe('short ASCII strings in small messages (every length and offset)', () => {
  const text = (n, from) => {
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(33 + ((i * 7 + from) % 94));
    return s;
  };
  test('alone, after another string, and in a map, lengths 0-140', () => {
    for (let n = 0; n <= 140; n++) {
      for (const lead of [0, 1, 5, 31, 33]) {
        const v = [text(lead, 3), text(n, n), { k: text(n, 1) }];
        expect(unpack(pack(v)), `${lead} then ${n}`).toEqual(v);
        expect(decode(encode(v)), `CBOR ${lead} then ${n}`).toEqual(v);
      }
    }
  });
});

// Other strings come from C as UTF-16 units: in a small units area (32 units left in Node, 160
// without Buffer) each is made from its units (fromCharCode; without Buffer joined 32-unit pieces
// up to 128), else by a chunk decode. Accented, CJK and emoji (a pair may straddle two pieces).
describe('short non-ASCII strings in small messages (every length and offset, in units)', () => {
  const alphabet = ['é', 'ß', 'Ж', '日', '本', 'a', '😀', 'Z', 'ü', '€'];
  const text = (units, from) => {
    let s = '';
    for (let i = 0; s.length < units; i++) {
      const c = alphabet[(i * 3 + from) % alphabet.length];
      s += s.length + c.length <= units ? c : 'é';
    }
    return s;
  };
  test('alone, after another string, and in a map, 1-140 units', () => {
    for (let n = 1; n <= 140; n++) {
      for (const lead of [1, 5, 20, 31, 33]) {
        const v = [text(lead, 3), text(n, n), { k: text(n, 1) }, text(3, n)];
        expect(unpack(pack(v)), `${lead} then ${n}`).toEqual(v);
        expect(decode(encode(v)), `CBOR ${lead} then ${n}`).toEqual(v);
      }
    }
  });
});

describe('strings after the first characters of a call (Node: UTF-16 units transcoded in C; browsers: one encodeInto split in C)', () => {
  // Past 128 characters of string values in one call, Node's encoder hands strings of 16..63
  // units to C as UTF-16 (one ucs2Write per call); browsers, past 512, hand strings of 16..255
  // units to C as the UTF-8 of their concatenation (one encodeInto), which C splits by unit counts
  // (a string that starts with a low surrogate or ends with a high one stays apart). The bytes
  // must be exactly TextEncoder's, the header the smallest for the UTF-8 length, and each string's
  // units its own (a surrogate pair split across two strings stays two U+FFFD).
  const h = (n, digits) => n.toString(16).padStart(digits, '0');
  const mpStr = (b) => (b.length < 32 ? h(0xa0 | b.length, 2) : b.length < 256 ? 'd9' + h(b.length, 2) : b.length < 65536 ? 'da' + h(b.length, 4) : 'db' + h(b.length, 8)) + hex(b);
  const cbStr = (b) => (b.length < 24 ? h(0x60 | b.length, 2) : b.length < 256 ? '78' + h(b.length, 2) : b.length < 65536 ? '79' + h(b.length, 4) : '7a' + h(b.length, 8)) + hex(b);
  const mpArr = (n) => (n < 16 ? (0x90 | n).toString(16) : 'dc' + n.toString(16).padStart(4, '0'));
  const cbArr = (n) => (n < 24 ? (0x80 | n).toString(16) : n < 256 ? '98' + n.toString(16).padStart(2, '0') : '99' + n.toString(16).padStart(4, '0'));
  const expectBoth = (strs) => {
    const bytes = strs.map((s) => utf8(s));
    expect(hex(pack(strs))).toBe(mpArr(strs.length) + bytes.map(mpStr).join(''));
    expect(hex(encode(strs))).toBe(cbArr(strs.length) + bytes.map(cbStr).join(''));
    const back = strs.map((s) => new TextDecoder().decode(utf8(s)));
    expect(unpack(pack(strs))).toEqual(back);
    expect(decode(encode(strs))).toEqual(back);
  };
  const lead = 'p'.repeat(600); // past both thresholds (Node 128, browsers 512)
  const kinds = {
    ascii: (n) => Array.from({ length: n }, (_, i) => String.fromCharCode(33 + ((i * 7) % 94))).join(''),
    'é last': (n) => 'a'.repeat(n - 1) + 'é',
    'é first': (n) => 'é' + 'a'.repeat(n - 1),
    '€ in the middle': (n) => 'b'.repeat(n >> 1) + '€' + 'c'.repeat(n - 1 - (n >> 1)),
    'emoji pairs': (n) => '🍺'.repeat(n >> 1) + 'z'.repeat(n & 1),
    'lone high last': (n) => 'h'.repeat(n - 1) + '\ud83c',
    'lone low first': (n) => '\udf7a' + 'l'.repeat(n - 1),
    'high high': (n) => '\ud83c\ud83c' + 'x'.repeat(n - 2),
    'reversed pair': (n) => 'y'.repeat(n - 2) + '\udf7a\ud83c',
    latin1: (n) => '\u00ff'.repeat(n),
  };
  test.each(Object.keys(kinds))('%s, lengths 15-64 and 200, 255, 256, after 600 ASCII characters', (kind) => {
    for (let n = 15; n <= 64; n++) expectBoth([lead, kinds[kind](n), kinds.ascii(n), kinds[kind](n)]);
    expectBoth([lead, kinds[kind](200), kinds[kind](17), kinds.ascii(70000), kinds[kind](255), kinds[kind](256)]);
  });
  test('a pair split across two strings stays two replacement characters', () => {
    const a = 'a'.repeat(20) + '\ud83c', b = '\udf7a' + 'b'.repeat(20);
    expectBoth([lead, a, b, b, a, a, b]);
  });
  test('many strings (the units need more memory than the arena had)', () => {
    const strs = [lead];
    for (let i = 0; i < 40000; i++) strs.push(kinds.ascii(16 + (i % 48)) + (i % 5 === 0 ? 'é€' : ''));
    expectBoth(strs);
    expect(unpack(pack(strs.slice(0, 3)))).toEqual(strs.slice(0, 3)); // and the next call works
  });
  // Strings of 64 characters and more: in Node, one that looks non-ASCII (by 4 of its characters)
  // goes to C as UTF-16 units (ucs2Write), which transcodes blocks of 8 without a surrogate with
  // one vector gather per 4 units (a table row per pattern of 1-, 2- and 3-byte units), blocks with
  // one unit by unit; one that looks ASCII goes to utf8Write.
  const cls = [['a', '\u007f'], ['\u0080', '\u07ff', 'ж'], ['\u0800', '\ud7ff', '\ue000', '\uffff', '語']];
  test('long strings: every pattern of 1-, 2- and 3-byte units in every lane and block position', () => {
    const units = [];
    for (let p = 0; p < 81; p++) {
      for (let k = 0, x = p; k < 4; k++, x = (x / 3) | 0) {
        const c = cls[x % 3];
        units.push(c[(p + k) % c.length]);
      }
    }
    const all = units.join('');
    const strs = [];
    for (let shift = 0; shift < 8; shift++) {
      strs.push('é' + 'b'.repeat(shift) + all + 'é'); // looks non-ASCII: C
      strs.push('a' + 'b'.repeat(shift) + all.replace(/^./, 'c') + 'a'); // (its 4 samples may pass for ASCII: utf8Write)
    }
    expectBoth(strs);
    expectBoth([lead, ...strs]);
  });
  test('long strings: surrogate pairs and lone surrogates at every position of a block', () => {
    const strs = [];
    for (let at = 0; at < 17; at++) {
      const base = Array.from({ length: 80 }, (_, i) => (i % 3 === 0 ? 'ж' : i % 3 === 1 ? '語' : 'z'));
      for (const sur of ['🍺', '\ud83c', '\udf7a', '\udf7a\ud83c']) {
        const a = base.slice();
        a.splice(at, sur.length, sur);
        strs.push(a.join(''));
        strs.push(a.join('') + '\ud83c'); // a lone high surrogate last
      }
    }
    expectBoth(strs);
  });
  // C narrows a block of 8 ASCII units at once and transcodes one with other units as a block or
  // (a surrogate among them) unit by unit: ASCII runs of every length up to 40, at every offset of
  // a block, between non-ASCII units of each UTF-8 length, surrogate pairs and lone surrogates
  // (the strings look non-ASCII by their ends, so they take that path)
  test('long strings: ASCII runs of every length between non-ASCII units', () => {
    const strs = [];
    for (const sep of ['é', '語', '🍺', '\ud83c']) {
      for (let shift = 0; shift < 17; shift++) {
        const parts = ['ж' + 'q'.repeat(shift)];
        for (let run = 0; run <= 40; run++) parts.push(kinds.ascii(run), sep);
        strs.push(parts.join('') + 'ж');
      }
    }
    strs.push('é' + kinds.ascii(5000) + 'é', 'é' + kinds.ascii(4999) + '語' + kinds.ascii(31) + 'é');
    expectBoth(strs);
  });
  test('long strings: lengths 64-90 and the header boundaries of their UTF-8', () => {
    const strs = [];
    for (let n = 64; n <= 90; n++) strs.push('語'.repeat(n), 'ж'.repeat(n), 'жa'.repeat(n >> 1) + 'ж'.repeat(n & 1));
    // UTF-8 lengths 255/256 (str8/str16, CBOR 1/2-byte length) and 65535/65536 (str16/str32)
    strs.push('é'.repeat(127) + 'a', 'é'.repeat(128), 'é'.repeat(32767) + 'a', 'é'.repeat(32768), '語'.repeat(70000));
    expectBoth(strs);
    expect(unpack(pack(['ж'.repeat(100)]))).toEqual(['ж'.repeat(100)]); // and the next call works
  });
  test('in maps, records and with other values between', () => {
    const v = { lead, list: [1, kinds['é last'](30), null, { k: kinds.ascii(40), m: kinds['emoji pairs'](33) }, kinds.latin1(17)] };
    expect(unpack(pack(v))).toEqual(v);
    expect(decode(encode(v))).toEqual(v);
    const packr = new Packr({ useRecords: true });
    expect(packr.unpack(packr.pack([v, v]))).toEqual([v, v]);
    expect(decode(new Encoder({ canonical: true }).encode(v))).toEqual(v);
    expect(decode(new Encoder({ indefiniteLengths: true }).encode(v))).toEqual(v);
  });
});
