// Not-well-formed, truncated and hostile CBOR (RFC 8949 Appendix F, in the style of QCBOR's
// table of not-well-formed inputs): every failure is a DecodeError with a stable code and the
// offset of the offending item's first byte, and the decoder keeps working afterwards.
import { describe, test, expect } from 'vitest';
import { encode, decode, Decoder, decodeMultiple, DecodeError } from 'wirepack/cbor';
import { fromHex, concat } from './helpers/bytes.js';
import { ccanon, head, cutItemStarts } from './helpers/cbor.js';

const GOOD = fromHex('a3646e616d6563626f626361676519010064746167738261784201ff');
const GOOD_VALUE = { name: 'bob', age: 256, tags: ['x', new Uint8Array([1, 255])] };
const expectGoodStillWorks = () => expect(ccanon(decode(GOOD))).toEqual(ccanon(GOOD_VALUE));

/** Run fn, which must throw a DecodeError; return it. */
function decodeError(fn) {
  let err;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err, 'expected a DecodeError to be thrown').toBeDefined();
  if (!(err instanceof DecodeError)) {
    throw new Error(`expected DecodeError, got ${err && err.constructor && err.constructor.name}: ${err && err.message}`);
  }
  expect(err).toBeInstanceOf(Error);
  expect(typeof err.message).toBe('string');
  return err;
}

const expectCode = (bytes, code, offset, d = null) => {
  const b = typeof bytes === 'string' ? fromHex(bytes) : bytes;
  const e = decodeError(() => (d ? d.decode(b) : decode(b)));
  expect({ code: e.code, offset: e.offset, incomplete: e.incomplete }).toEqual({ code, offset, incomplete: code === 'TRUNCATED' });
  return e;
};

test('GOOD is what it says', () => {
  expectGoodStillWorks();
  expect(ccanon(decode(encode(GOOD_VALUE)))).toEqual(ccanon(decode(GOOD)));
});

// ------------------------------------------------------------------ the table
// [hex, code, offset, what]
const h2 = (n) => n.toString(16).padStart(2, '0');
const TABLE = [];
const add = (h, code, offset, what) => TABLE.push([h, code, offset, what]);

// Reserved additional information 28, 29, 30, for every major type; alone and nested.
for (let major = 0; major < 8; major++) {
  for (const ai of [28, 29, 30]) {
    const ib = h2((major << 5) | ai);
    add(ib, 'RESERVED_AI', 0, `major ${major} ai ${ai}`);
    add('82' + '00' + ib, 'RESERVED_AI', 2, `major ${major} ai ${ai} in an array`);
    add('a1' + '6161' + ib + '00'.repeat(8), 'RESERVED_AI', 3, `major ${major} ai ${ai} as a map value`);
    add('c1' + ib, 'RESERVED_AI', 1, `major ${major} ai ${ai} in a tag`);
  }
}
// Additional information 31 where no indefinite form exists: integers, tags (RFC 8949 F.1).
for (const ib of ['1f', '3f', 'df']) {
  add(ib, 'RESERVED_AI', 0, `indefinite-length ${ib}`);
  add('9f' + ib + 'ff', 'RESERVED_AI', 1, `indefinite-length ${ib} in an array`);
}

// Break outside an indefinite-length item.
add('ff', 'BREAK', 0, 'lone break');
add('8201ff', 'BREAK', 2, 'break in a definite array');
add('81ff', 'BREAK', 1, 'break as the only element of a definite array');
add('a1ff00', 'BREAK', 1, 'break as a definite map key');
add('a161' + '61ff', 'BREAK', 3, 'break as a definite map value');
add('c1ff', 'BREAK', 1, 'break as tag content');
add('d9d9f7ff', 'BREAK', 3, 'break as tag 55799 content');
add('bf6161ff', 'BREAK', 3, 'break after a lone key in an indefinite map');
add('bf616101' + '6162ff', 'BREAK', 6, 'break after the second lone key');
add('9f' + '81ff' + 'ff', 'BREAK', 2, 'break in a definite array inside an indefinite one');
add('9fff' + 'ff', 'TRAILING_DATA', 2, 'a second break after a complete indefinite array');

// Chunks of indefinite strings: wrong major type, or themselves indefinite.
add('5f' + '6161' + 'ff', 'BAD_CHUNK', 1, 'text chunk in a byte string');
add('7f' + '4161' + 'ff', 'BAD_CHUNK', 1, 'byte chunk in a text string');
add('5f' + '00' + 'ff', 'BAD_CHUNK', 1, 'integer chunk in a byte string');
add('7f' + '80' + 'ff', 'BAD_CHUNK', 1, 'array chunk in a text string');
add('7f' + 'c16161' + 'ff', 'BAD_CHUNK', 1, 'tagged chunk in a text string');
add('5f' + 'f6' + 'ff', 'BAD_CHUNK', 1, 'null chunk in a byte string');
add('5f' + '5f' + 'ff' + 'ff', 'BAD_CHUNK', 1, 'indefinite byte chunk in a byte string');
add('7f' + '7f' + 'ff' + 'ff', 'BAD_CHUNK', 1, 'indefinite text chunk in a text string');
add('5f' + '4101' + '5fff' + 'ff', 'BAD_CHUNK', 3, 'indefinite chunk after a good one');
add('7f' + '6161' + '6162' + '4163' + 'ff', 'BAD_CHUNK', 5, 'wrong chunk after two good ones');
add('82' + '00' + '7f' + '5f' + 'ff' + 'ff', 'BAD_CHUNK', 3, 'bad chunk nested in an array');

// Two-byte simple values below 32.
for (let v = 0; v < 32; v++) add('f8' + h2(v), 'BAD_SIMPLE', 0, `f8 ${h2(v)}`);
add('8301' + '02' + 'f818', 'BAD_SIMPLE', 3, 'f8 18 in an array');
add('bf' + '6161' + 'f81f' + 'ff', 'BAD_SIMPLE', 3, 'f8 1f as an indefinite map value');

// Tag numbers in the range the decoder keeps for its markers (2^64 - 3 * 2^16 and up): an error,
// never a record definition, packed table or bundle made from the input (those read as such before).
for (const t of ['fffffffffffd0000', 'fffffffffffe0001', 'ffffffffffff0005', 'ffffffffffffffff']) add('db' + t + '83616161626163', 'RESERVED_TAG', 0, `tag 0x${t}`);
add('82' + '01' + 'dbffffffffffff0000' + '80', 'RESERVED_TAG', 2, 'marker-range tag inside an array');

// Trailing data after a single complete item.
add('0000', 'TRAILING_DATA', 1, 'two integers');
add('8000', 'TRAILING_DATA', 1, 'after an empty array');
add('9fff00', 'TRAILING_DATA', 2, 'after an indefinite array');
add('c11a514b67b0' + 'f6', 'TRAILING_DATA', 6, 'after a tag');
add('a0ff', 'TRAILING_DATA', 1, 'a break after a complete item');
add('4401020304' + 'f818', 'TRAILING_DATA', 5, 'even when the rest is not well-formed');

describe('not-well-formed inputs', () => {
  test.each(TABLE.map(([h, code, offset, what]) => [what, h, code, offset]))('%s: %s -> %s at %s', (_w, h, code, offset) => {
    expectCode(h, code, offset);
    // a Decoder instance reports the same
    expectCode(h, code, offset, new Decoder());
    expectGoodStillWorks();
  });

  test('the tag just below the reserved range decodes as a tag', () => {
    const v = decode(fromHex('dbfffffffffffcffff' + '8100'));
    expect(v.tag).toBe(0xfffffffffffcffffn);
    expect(v.value).toEqual([0]);
  });
});

// ------------------------------------------------------------------ truncation
describe('truncated input: every proper prefix throws TRUNCATED at the item that is cut', () => {
  const big = 'c2' + head(2, 20) + '01'.repeat(20);
  const ITEMS = {
    uint0: '17', uint8: '1818', uint16: '190100', uint32: '1a00010000', uint64: '1b0000000100000000',
    nint8: '3818', nint16: '390100', nint32: '3a00010000', nint64: '3bffffffffffffffff',
    'bytes 1-byte len': '5818' + '00'.repeat(24), 'bytes 2-byte len': '590003010203',
    'bytes 4-byte len': '5a00000003010203', 'bytes 8-byte len': '5b0000000000000003010203',
    'text 1-byte len': '7818' + '61'.repeat(24), 'text 2-byte len': '790003616263',
    'text 4-byte len': '7a00000003616263', 'text 8-byte len': '7b0000000000000003616263',
    'text multibyte': '67e282acf09f8dba',
    'array 1-byte len': '9818' + '01'.repeat(24), 'array 2-byte len': '9900020102', 'array 4-byte len': '9a000000020102',
    'array 8-byte len': '9b00000000000000020102',
    'map 1-byte len': 'b818' + '0000'.repeat(24), 'map 2-byte len': 'b90001616101', 'map 4-byte len': 'ba00000001616101',
    'map 8-byte len': 'bb0000000000000001616101',
    'tag 1-byte': 'd82076687474703a2f2f7777772e6578616d706c652e636f6d', 'tag 2-byte': 'd90102820102',
    'tag 4-byte': 'da0001869f6178', 'tag 8-byte': 'db000000010000000080', 'tag of tag': 'c1c1c100',
    float16: 'f93e00', float32: 'fa47c35000', float64: 'fb3ff199999999999a', simple8: 'f8ff',
    'indefinite bytes': '5f42010243030405ff', 'indefinite text': '7f657374726561646d696e67ff',
    'empty indefinite text': '7fff', 'indefinite array': '9f018202039f0405ffff', 'indefinite map': 'bf61610161629f0203ffff',
    bignum: big, 'date tag 1': 'c1fb41d452d9ec200000', 'date tag 0': 'c074323031332d30332d32315432303a30343a30305a',
    nested: '82' + 'a2' + '6161' + '83' + '01' + '190100' + 'a161' + '62' + 'f5' + '6162' + '84' + '43010203' + 'c11a514b67b0' +
      'fbc00921fb54442d18' + '7821' + '78'.repeat(33) + '9f' + 'f7' + 'bf' + 'ff' + 'ff',
  };

  test.each(Object.entries(ITEMS))('%s', (_, h) => {
    const full = fromHex(h);
    expect(() => decode(full)).not.toThrow();
    for (let k = 0; k < full.length; k++) {
      const e = decodeError(() => decode(full.subarray(0, k)));
      expect({ k, code: e.code, incomplete: e.incomplete }).toEqual({ k, code: 'TRUNCATED', incomplete: true });
      const cut = cutItemStarts(full, k);
      expect(cut, `prefix of ${k} bytes: offset ${e.offset} is not the start of a cut item`).toContain(e.offset);
      // through a copy that does not share the original buffer, and a Decoder
      expect(decodeError(() => new Decoder().decode(full.slice(0, k))).code).toBe('TRUNCATED');
    }
    expectGoodStillWorks();
  });

  test('exact offsets where no enclosing length is exceeded', () => {
    for (const [h, offset] of [
      ['8201190100'.slice(0, 8), 2], // 82 01 19 01: the uint16 is cut
      ['8201', 0], // no byte of the second element: the array is what is cut
      ['c11a514b', 1], // the tag content is cut
      ['c1', 0], // the tag has no content yet
      ['a16161' + '7a0000', 3], // a map value's 4-byte length head is cut
      ['a16161' + '6461', 3], // a map value's text is cut
      ['5f' + '4201', 1], // the chunk is cut
      ['5f' + '4201024203', 4], // the second chunk is cut
      ['7f' + '6161', 0], // the break is missing
      ['8201' + 'f9', 2], ['8301' + 'fa0000', 2], ['8301' + 'fb00000000000000', 2], ['8201' + 'f8', 2],
      ['83' + 'c2' + '4201', 2], // the bignum's byte string is cut
      // a container whose declared count exceeds the bytes left fails at once, at its own head
      ['a2' + '01', 0], ['9b' + '0000000100000000' + '00', 0], ['bb' + 'ffffffffffffffff' + '0000', 0]
    ]) {
      expectCode(h, 'TRUNCATED', offset);
    }
    expectGoodStillWorks();
  });

  test('the nested item decodes to the right value when complete', () => {
    expect(ccanon(decode(fromHex(ITEMS.nested)))).toEqual(ccanon([
      { a: [1, 256, { b: true }], b: [new Uint8Array([1, 2, 3]), new Date(1363896240000), -Math.PI, 'x'.repeat(33)] },
      [undefined, {}],
    ]));
  });

  test('empty input', () => {
    for (const empty of [new Uint8Array(0), new ArrayBuffer(0), new Uint8Array(10).subarray(5, 5)]) {
      expectCode(empty, 'TRUNCATED', 0);
    }
    expectGoodStillWorks();
  });

  test('unterminated indefinite-length items', () => {
    for (const [h, offset] of [
      ['9f', 0], ['bf', 0], ['5f', 0], ['7f', 0], ['9f01', 0], ['9f0102', 0], ['bf6161', 0], ['bf616101', 0],
      ['5f4101', 0], ['7f6161', 0], ['9f9f', 1], ['829f00', 1], ['81bf616101', 1], ['9f' + '9fff', 0],
      ['c19f', 1], ['9f' + 'c1', 1],
    ]) {
      expectCode(h, 'TRUNCATED', offset);
    }
    expectGoodStillWorks();
  });
});

describe('declared lengths beyond the input fail fast', () => {
  // 2^32 .. 2^64-1 in 8-byte heads (no JS engine could hold them), and 4-byte maxima.
  const lengths = [2n ** 32n, 2n ** 32n + 1n, 2n ** 40n, 2n ** 53n, 2n ** 63n, 2n ** 64n - 1n];
  const cases = [];
  for (const n of lengths) for (const major of [2, 3, 4, 5]) cases.push(head(major, n, 27));
  for (const major of [2, 3, 4, 5]) cases.push(head(major, 2n ** 32n - 1n, 26), head(major, 0xffff, 25), head(major, 0xff, 24));
  test.each(cases)('%s', (h) => {
    const t0 = performance.now();
    expectCode(h, 'TRUNCATED', 0);
    // with some content after the head: still TRUNCATED, at the same item
    expectCode(h + '00'.repeat(64), 'TRUNCATED', 0);
    expectCode('82' + '00' + h + '00'.repeat(8), 'TRUNCATED', 2);
    expect(performance.now() - t0).toBeLessThan(1000);
    expectGoodStillWorks();
  });
  test('a huge array of small items is not materialized first', () => {
    // 2^32 declared elements followed by 100 000 real ones
    const bytes = concat(fromHex(head(4, 2n ** 32n, 27)), new Uint8Array(100000));
    const t0 = performance.now();
    expectCode(bytes, 'TRUNCATED', 0);
    expect(performance.now() - t0).toBeLessThan(2000);
    expectGoodStillWorks();
  });
});

describe('depth limit', () => {
  const nest = (n, inner = '00', unit = '81') => fromHex(unit.repeat(n) + inner);
  test('default maxDepth is 1000', () => {
    let v = decode(nest(1000));
    for (let i = 0; i < 1000; i++) {
      expect(Array.isArray(v) && v.length === 1).toBe(true);
      v = v[0];
    }
    expect(v).toBe(0);
    expectCode(nest(1001), 'DEPTH', 1000);
    expectCode(nest(1000, '80'), 'DEPTH', 1000); // the 1001st container is empty: still too deep
    expectCode(nest(1000, 'a0'), 'DEPTH', 1000);
    expectCode(nest(1000, '9fff'), 'DEPTH', 1000);
    expectCode(nest(1001, '', '9f'), 'DEPTH', 1000);
    expectGoodStillWorks();
  });
  test('maxDepth: 10', () => {
    const d = new Decoder({ maxDepth: 10, mapsAsObjects: true });
    expect(JSON.stringify(d.decode(nest(10)))).toBe('[[[[[[[[[[0]]]]]]]]]]');
    expect(JSON.stringify(d.decode(nest(9, '80')))).toBe('[[[[[[[[[[]]]]]]]]]]');
    expectCode(nest(11), 'DEPTH', 10, d);
    expectCode(nest(10, '80'), 'DEPTH', 10, d);
    expectCode(nest(10, 'bfff', '9f'), 'DEPTH', 10, d);
    // maps: each level is a1 61 61 (3 bytes)
    const maps = (n) => fromHex('a16161'.repeat(n) + '01');
    expect(JSON.stringify(d.decode(maps(10)))).toBe('{"a":'.repeat(10) + '1' + '}'.repeat(10));
    expectCode(maps(11), 'DEPTH', 30, d);
    // the too-deep container after some siblings
    const mixed = fromHex('82' + '00' + 'a16178' + '81'.repeat(8) + '82f6f6'); // depth 11 at offset 13
    expectCode(mixed, 'DEPTH', 13, d);
    expect(decode(mixed)).toBeDefined(); // fine with the default limit
    expectGoodStillWorks();
  });
  test('10^6 nested arrays (definite and indefinite) and tags are rejected cleanly', () => {
    expectCode(new Uint8Array(1e6).fill(0x81), 'DEPTH', 1000);
    expectCode(new Uint8Array(1e6).fill(0x9f), 'DEPTH', 1000);
    expectCode(fromHex('8200'.repeat(5000)), 'DEPTH', 2000);
    expectCode(fromHex('a1f6'.repeat(5000)), 'DEPTH', 2000);
    // nested tags do not exhaust the stack either: a value or a DecodeError, nothing else
    const tags = new Uint8Array(1e6 + 1).fill(0xd8);
    for (let i = 1; i < tags.length; i += 2) tags[i] = 0x20;
    tags[tags.length - 1] = 0x00;
    try {
      decode(tags);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
    }
    expectGoodStillWorks();
  });
});

describe('errors do not disturb the next call', () => {
  test('every table entry followed by a good decode, interleaved with encodes', () => {
    for (const [h, code] of TABLE) {
      expect(decodeError(() => decode(fromHex(h))).code).toBe(code);
      expect(decode(encode({ ok: [1, 'two'] }))).toEqual({ ok: [1, 'two'] });
      expectGoodStillWorks();
    }
  });

  test('decodeMultiple: values before the error, and the stream after', () => {
    expect(ccanon(decodeMultiple(concat(GOOD, GOOD)))).toEqual(ccanon([GOOD_VALUE, GOOD_VALUE]));
    const e = decodeError(() => decodeMultiple(fromHex('0102ff')));
    expect([e.code, e.offset]).toEqual(['BREAK', 2]);
    const t = decodeError(() => decodeMultiple(fromHex('01' + '6161' + '8201')));
    expect([t.code, t.incomplete]).toEqual(['TRUNCATED', true]);
    expect(decodeMultiple(fromHex('0102'))).toEqual([1, 2]);
    expectGoodStillWorks();
  });
});

test('invalid UTF-8 in text strings decodes with U+FFFD, like TextDecoder', () => {
  for (const h of ['61ff', '62c328', '63eda080', '64f4908080', '62e282', '61c0', '7f61ff61c3ff', 'a161ff01']) {
    const bytes = fromHex(h);
    let want;
    if (h.startsWith('7f')) want = new TextDecoder().decode(fromHex('ffc3'));
    else if (h.startsWith('a1')) want = { [new TextDecoder().decode(fromHex('ff'))]: 1 };
    else want = new TextDecoder().decode(bytes.subarray(1));
    expect(decode(bytes), h).toEqual(want);
  }
});
