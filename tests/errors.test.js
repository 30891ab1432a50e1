// Malformed, truncated and hostile input: every failure is a DecodeError with a stable code
// and byte offset, and the decoder keeps working afterwards.
import { describe, test, expect } from 'vitest';
import { pack, unpack, decode, Unpackr, unpackMultiple, DecodeError, addExtension } from 'wirepack';
import { fromHex, concat } from './helpers/bytes.js';
import { canon } from './helpers/canon.js';

const GOOD = fromHex('83a46e616d65a3626f62a3616765cd0100a474616773' + '92a178c40201ff');
const GOOD_VALUE = { name: 'bob', age: 256, tags: ['x', new Uint8Array([1, 255])] };
const expectGoodStillWorks = () => expect(canon(unpack(GOOD))).toEqual(canon(GOOD_VALUE));

/** Run fn, which must throw a DecodeError; return it. */
function decodeError(fn) {
  let err;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err, 'expected a DecodeError to be thrown').toBeDefined();
  if (!(err instanceof DecodeError)) throw new Error(`expected DecodeError, got ${err && err.constructor && err.constructor.name}: ${err && err.message}`);
  expect(err).toBeInstanceOf(Error);
  expect(typeof err.code).toBe('string');
  expect(Number.isInteger(err.offset)).toBe(true);
  expect(typeof err.incomplete).toBe('boolean');
  return err;
}

const expectCode = (bytes, code, offset, u = null) => {
  const e = decodeError(() => (u ? u.unpack(bytes) : unpack(bytes)));
  expect({ code: e.code, offset: e.offset, incomplete: e.incomplete }).toEqual({ code, offset, incomplete: code === 'TRUNCATED' });
  return e;
};

test('DecodeError is an Error subclass', () => {
  const e = decodeError(() => unpack(fromHex('c1')));
  expect(e).toBeInstanceOf(Error);
  expect(e).toBeInstanceOf(DecodeError);
  expect(e.message.length).toBeGreaterThan(0);
  expect(Object.getPrototypeOf(DecodeError.prototype)).toBe(Error.prototype);
});

describe('truncated input: every proper prefix throws TRUNCATED', () => {
  const messages = {
    'positive fixint': '05',
    nil: 'c0',
    uint8: 'cc80', uint16: 'cd0100', uint32: 'ce00010000', uint64: 'cf0000000100000000',
    int8: 'd0df', int16: 'd1ff7f', int32: 'd2ffff7fff', int64: 'd3ffffffff00000000',
    float32: 'ca3fc00000', float64: 'cb3ff8000000000000',
    fixstr: 'a3616263', 'fixstr multibyte': 'a7e282acf09f8dba',
    str8: 'd903616263', str16: 'da0003616263', str32: 'db00000003616263',
    'str8 long': 'd928' + '61'.repeat(40),
    bin8: 'c403010203', bin16: 'c50003010203', bin32: 'c600000003010203',
    fixext1: 'd40110', fixext2: 'd5022021', fixext4: 'd60330313233', fixext8: 'd7044041424344454647',
    fixext16: 'd805' + '00112233445566778899aabbccddeeff', ext8: 'c70307707172', ext16: 'c8000307707172',
    ext32: 'c90000000307707172', undefined: 'd40000',
    'timestamp32': 'd6ff00000001', 'timestamp64': 'd7ff003d090000000000',
    'timestamp96': 'c70cff3b8b87c0ffffffffffffffff', 'invalid date': 'd4ffff',
    fixarray: '93010203', array16: 'dc0003010203', array32: 'dd00000003010203',
    fixmap: '82a16101a16202', map16: 'de0001a16101', map32: 'df00000001a16101',
    'deep nesting': '919191919100',
    nested:
      '82a161' + '93' + '01' + 'cd0100' + '81a162c3' + 'a162' + '94' + 'c4020102' + 'd6ff00000001' +
      'cbc00921fb54442d18' + 'd9' + '21' + '78'.repeat(33),
  };

  test.each(Object.entries(messages))('%s', (_, h) => {
    const full = fromHex(h);
    expect(() => unpack(full)).not.toThrow();
    for (let k = 0; k < full.length; k++) {
      const e = decodeError(() => unpack(full.subarray(0, k)));
      expect(e.code, `prefix of ${k} bytes`).toBe('TRUNCATED');
      expect(e.incomplete).toBe(true);
      expect(e.offset).toBeGreaterThanOrEqual(0);
      expect(e.offset).toBeLessThanOrEqual(k);
      // the same through a copy that does not share the original buffer
      expect(decodeError(() => decode(full.slice(0, k))).code).toBe('TRUNCATED');
      expectGoodStillWorks();
    }
  });

  test('the nested message decodes to the right value when complete', () => {
    expect(canon(unpack(fromHex(messages.nested)))).toEqual(canon({
      a: [1, 256, { b: true }],
      b: [new Uint8Array([1, 2]), new Date(1000), -Math.PI, 'x'.repeat(33)],
    }));
  });

  test('empty input', () => {
    for (const empty of [new Uint8Array(0), new ArrayBuffer(0), new Uint8Array(10).subarray(5, 5)]) {
      const e = decodeError(() => unpack(empty));
      expect(e.code).toBe('TRUNCATED');
      expect(e.incomplete).toBe(true);
      expect(e.offset).toBe(0);
    }
    expectGoodStillWorks();
  });
});

describe('reserved byte 0xc1', () => {
  test.each([
    ['c1', 0], ['930102c1', 3], ['92c100', 1], ['9191c1', 2], ['81c101', 1], ['81a161c1', 3],
    ['82a16101c102', 4], ['dc000201c1', 4], ['82a16101a162c1', 6], ['91' + '81a178' + '92' + 'c0c1', 6],
  ])('%s -> offset %s', (h, offset) => {
    expectCode(fromHex(h), 'RESERVED_BYTE', offset);
    expectGoodStillWorks();
  });
  test('deep inside a large message', () => {
    const arr = Array.from({ length: 500 }, (_, i) => ({ i, s: 'v' + i }));
    arr.push(null);
    const bytes = pack(arr);
    expect(bytes[bytes.length - 1]).toBe(0xc0);
    const bad = concat(bytes.subarray(0, bytes.length - 1), [0xc1]); // the final null becomes 0xc1
    expectCode(bad, 'RESERVED_BYTE', bytes.length - 1);
    expectGoodStillWorks();
  });
});

describe('lengths larger than the input fail at once', () => {
  test.each([
    'ddffffffff', 'dbffffffff', 'c6ffffffff', 'dfffffffff', 'c9ffffffff01', 'dcffff', 'deffff', 'daffff', 'c5ffff',
    'c8ffff01', 'c7ff01', 'd9ff', 'c4ff', '9f', '8f', 'bf', '91ddffffffff', '81a161dfffffffff',
    'ddffffffff' + '00'.repeat(100), 'dfffffffff' + 'a16100'.repeat(50), 'dd10000000' + 'c0'.repeat(1000),
  ])('%#: %s', (h) => {
    const e = decodeError(() => unpack(fromHex(h)));
    expect(e.incomplete).toBe(true);
    expect(e.code).toBe('TRUNCATED');
    expectGoodStillWorks();
  });
});

describe('depth limit', () => {
  const nest = (n, inner = 'c0') => fromHex('91'.repeat(n) + inner);
  test('default maxDepth is 1000', () => {
    let v = unpack(nest(1000));
    for (let i = 0; i < 1000; i++) {
      expect(Array.isArray(v) && v.length === 1).toBe(true);
      v = v[0];
    }
    expect(v).toBe(null);
    expectCode(nest(1001), 'DEPTH', 1000);
    expectCode(nest(1000, '90'), 'DEPTH', 1000); // the 1001st container is empty: still too deep
    expectCode(nest(1000, '80'), 'DEPTH', 1000);
    expectGoodStillWorks();
  });
  test('maxDepth: 10', () => {
    const u = new Unpackr({ mapsAsObjects: true, maxDepth: 10 });
    expect(JSON.stringify(u.unpack(nest(10)))).toBe('[[[[[[[[[[null]]]]]]]]]]');
    expect(JSON.stringify(u.unpack(nest(9, '90')))).toBe('[[[[[[[[[[]]]]]]]]]]');
    expectCode(nest(11), 'DEPTH', 10, u);
    expectCode(nest(10, '90'), 'DEPTH', 10, u);
    // maps: each level is 81 a1 61 (3 bytes)
    const maps = (n) => fromHex('81a161'.repeat(n) + '01');
    expect(JSON.stringify(u.unpack(maps(10)))).toBe('{"a":'.repeat(10) + '1' + '}'.repeat(10));
    expectCode(maps(11), 'DEPTH', 30, u);
    // mixed, with the too-deep container after some siblings
    const mixed = fromHex('92' + '00' + '81a178' + '91'.repeat(8) + '92c0c0'); // depth 11 at offset 13
    expectCode(mixed, 'DEPTH', 13, u);
    expect(unpack(mixed)).toBeDefined(); // fine with the default limit
    expectGoodStillWorks();
  });
  test('10^6 nested arrays are rejected cleanly', () => {
    const deep = new Uint8Array(1e6).fill(0x91);
    expectCode(deep, 'DEPTH', 1000);
    const deepMaps = fromHex('81c0'.repeat(5000));
    expectCode(deepMaps, 'DEPTH', 2000);
    expectGoodStillWorks();
  });
  test('the largest accepted maxDepth never crashes: a value or a DecodeError', () => {
    let u;
    for (const d of [1e6, 1e5]) {
      try {
        u = new Unpackr({ mapsAsObjects: true, maxDepth: d }); // an out-of-range option may be refused up front
        break;
      } catch (e) {
        expect(e).toBeInstanceOf(RangeError);
      }
    }
    expect(u).toBeDefined();
    const n = Math.min(u.maxDepth ?? 1e5, 1e5);
    const bytes = nest(n);
    let v;
    try {
      v = u.unpack(bytes);
    } catch (e) {
      expect(e).toBeInstanceOf(DecodeError);
      return;
    }
    for (let i = 0; i < n; i++) v = v[0];
    expect(v).toBe(null);
  });
});

describe('trailing data', () => {
  test.each([
    ['0100', 1], ['c0c0', 1], ['9101ff', 2], ['a16100', 2], ['8080', 1], ['d6ff0000000100', 6], ['c403010203c1', 5],
  ])('%s -> offset %s', (h, offset) => {
    expectCode(fromHex(h), 'TRAILING_DATA', offset);
    expectGoodStillWorks();
  });
  test('a good message followed by garbage', () => {
    const bytes = concat(GOOD, [0xc0]);
    expectCode(bytes, 'TRAILING_DATA', GOOD.length);
    expect(canon(unpackMultiple(bytes))).toEqual(canon([GOOD_VALUE, null]));
  });
});

describe('bad timestamps', () => {
  test.each([
    ['d7ffee6b280000000000', 'nsec = 1e9 (64-bit)'],
    ['d7ffffffffff00000000', 'nsec = 2^30-1 (64-bit)'],
    ['c70cff3b9aca000000000000000000', 'nsec = 1e9 (96-bit)'],
    ['c70cffffffffff0000000000000000', 'nsec = 2^32-1 (96-bit)'],
    ['c700ff', 'size 0'],
    ['c703ff000000', 'size 3'],
    ['d5ff0000', 'size 2'],
    ['d8ff00000000000000000000000000000000', 'size 16'],
  ])('%s (%s)', (h) => {
    const e = decodeError(() => unpack(fromHex(h)));
    expect(e.code).toBe('BAD_TIMESTAMP');
    expect(e.incomplete).toBe(false);
    expect(e.offset).toBe(0);
    const inArray = decodeError(() => unpack(fromHex('9201' + h)));
    expect(inArray.code).toBe('BAD_TIMESTAMP');
    expect(inArray.offset).toBe(2);
    expectGoodStillWorks();
  });
  test('nsec = 999999999 is fine', () => {
    expect(unpack(fromHex('d7ffee6b27fc00000000')).getTime()).toBe(999);
    expect(unpack(fromHex('c70cff3b9ac9ff0000000000000000')).getTime()).toBe(999);
  });
});

describe('unpackMultiple', () => {
  const stream = fromHex('01' + 'a161' + 'c0' + '9101' + '81a16202');
  test('returns all values', () => {
    expect(unpackMultiple(stream)).toEqual([1, 'a', null, [1], { b: 2 }]);
    expect(unpackMultiple(fromHex('c0'))).toEqual([null]);
    expect(canon(unpackMultiple(concat(GOOD, GOOD, GOOD)))).toEqual(canon([GOOD_VALUE, GOOD_VALUE, GOOD_VALUE]));
  });
  test('callback gets (value, start, end)', () => {
    const calls = [];
    unpackMultiple(stream, (value, start, end) => {
      calls.push([value, start, end]);
    });
    expect(calls).toEqual([[1, 0, 1], ['a', 1, 3], [null, 3, 4], [[1], 4, 6], [{ b: 2 }, 6, 10]]);
  });
  test('callback returning false stops early', () => {
    const calls = [];
    unpackMultiple(stream, (value, start, end) => {
      calls.push([value, start, end]);
      return calls.length < 2 ? undefined : false;
    });
    expect(calls).toEqual([[1, 0, 1], ['a', 1, 3]]);
  });
  test('an error carries the values decoded before it', () => {
    let e = decodeError(() => unpackMultiple(fromHex('0102c1')));
    expect(e.code).toBe('RESERVED_BYTE');
    expect(e.offset).toBe(2);
    expect(e.values).toEqual([1, 2]);
    e = decodeError(() => unpackMultiple(fromHex('01a1619201')));
    expect(e.code).toBe('TRUNCATED');
    expect(e.incomplete).toBe(true);
    expect(e.values).toEqual([1, 'a']);
    e = decodeError(() => unpackMultiple(concat(GOOD, fromHex('d7ffee6b280000000000'))));
    expect(e.code).toBe('BAD_TIMESTAMP');
    expect(canon(e.values)).toEqual(canon([GOOD_VALUE]));
    expectGoodStillWorks();
  });
});

test('errors from a Unpackr instance and from decode()', () => {
  const u = new Unpackr({ mapsAsObjects: false });
  expectCode(fromHex('930102c1'), 'RESERVED_BYTE', 3, u);
  const t = decodeError(() => u.unpack(fromHex('8201')));
  expect([t.code, t.incomplete]).toEqual(['TRUNCATED', true]);
  expect(u.unpack(fromHex('81a16101'))).toEqual(new Map([['a', 1]]));
  expect(decodeError(() => decode(fromHex('c1'))).code).toBe('RESERVED_BYTE');
  expectGoodStillWorks();
});

describe('a truncation inside a nested decode is not this input\'s', () => {
  // getStructures unpacking a stored blob, or an extension decoding bytes of its own: a TRUNCATED
  // error from there keeps its code, but not `incomplete` (more bytes of this input cannot complete
  // that other source; a stream would wait for them), as msgpackr's own test asks
  test('getStructures whose stored structures are cut', () => {
    const full = pack([['a']]);
    const store = full.subarray(0, full.length - 1);
    const reader = new Unpackr({ structures: [], getStructures: () => unpack(store) });
    const e = decodeError(() => reader.unpack(fromHex('40')));
    expect(e.code).toBe('TRUNCATED');
    expect(e.incomplete).toBe(false);
    expectGoodStillWorks();
  });

  test('an extension that unpacks a cut payload of its own, in unpack and in unpackMultiple', () => {
    class Inner { constructor(v) { this.v = v; } }
    addExtension({ Class: Inner, type: 0x5c, pack: (x) => pack(x.v), unpack: (b) => new Inner(unpack(b.subarray(0, b.length - 1))) });
    const bytes = pack([1, new Inner('a string cut short')]);
    const e = decodeError(() => unpack(bytes));
    expect(e.code).toBe('TRUNCATED');
    expect(e.incomplete).toBe(false);
    const m = decodeError(() => unpackMultiple(concat(pack(1), bytes)));
    expect(m.incomplete).toBe(false);
    // this input's own truncation is still incomplete
    expect(decodeError(() => unpack(bytes.subarray(0, bytes.length - 2))).incomplete).toBe(true);
    // and a callback's own error is left as it is
    const own = new DecodeError('TRUNCATED', 0);
    let thrown;
    try { unpackMultiple(pack(1), () => { throw own; }); } catch (x) { thrown = x; }
    expect(thrown).toBe(own);
    expect(own.incomplete).toBe(true);
    expectGoodStillWorks();
  });
});
