// Policy limits (maxArrayLength, maxMapLength, maxStrLength, maxBinLength, maxExtLength,
// maxBytes), MessagePack and CBOR: above a limit decoding throws DecodeError LIMIT at the item's
// first byte; at the limit it decodes; the next call works. And wasm memory comes back after a
// large message.
import { describe, expect, test } from 'vitest';
import { Unpackr, pack, unpack, DecodeError, ExtData } from 'wirepack';
import { Decoder, encode, decode } from 'wirepack/cbor';

const fromHex = (h) => new Uint8Array(h.replace(/\s+/g, '').match(/../g).map((x) => parseInt(x, 16)));
const limitAt = (fn) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DecodeError);
    expect(e.code).toBe('LIMIT');
    return e.offset;
  }
  throw new Error('expected a LIMIT error');
};

describe('MessagePack limits', () => {
  const u = new Unpackr({ mapsAsObjects: true, maxArrayLength: 3, maxMapLength: 2, maxStrLength: 5, maxBinLength: 4, maxExtLength: 2 });
  test('at the limit decodes, above it throws LIMIT at the item', () => {
    expect(u.unpack(pack([1, 2, 3]))).toEqual([1, 2, 3]);
    expect(limitAt(() => u.unpack(pack([1, 2, 3, 4])))).toBe(0);
    expect(limitAt(() => u.unpack(pack([0, [1, 2, 3, 4]])))).toBe(2);
    expect(u.unpack(pack({ a: 1, b: 2 }))).toEqual({ a: 1, b: 2 });
    expect(limitAt(() => u.unpack(pack({ a: 1, b: 2, c: 3 })))).toBe(0);
    expect(u.unpack(pack('abcde'))).toBe('abcde');
    expect(limitAt(() => u.unpack(pack('abcdef')))).toBe(0);
    expect(limitAt(() => u.unpack(pack({ abcdef: 1 })))).toBe(1); // keys are strings too
    expect(limitAt(() => u.unpack(pack(new Uint8Array(5))))).toBe(0);
    expect(limitAt(() => u.unpack(pack(new ExtData(5, new Uint8Array(4)))))).toBe(0);
    expect(u.unpack(pack(new ExtData(5, new Uint8Array(2)))).data.length).toBe(2);
    // the next call works, and other decoders are not affected by this one's limits
    expect(unpack(pack([1, 2, 3, 4, 5]))).toEqual([1, 2, 3, 4, 5]);
    expect(u.unpack(pack([1]))).toEqual([1]);
  });
  test('a 5-byte header with a huge length fails at once, with or without limits', () => {
    for (const h of ['dd ffffffff', 'db ffffffff', 'c6 ffffffff', 'df ffffffff', 'c9 ffffffff 01']) {
      expect(limitAt(() => u.unpack(fromHex(h)))).toBe(0);
      expect(() => unpack(fromHex(h))).toThrow(DecodeError);
    }
  });
  test('maxBytes', () => {
    const small = new Unpackr({ mapsAsObjects: true, maxBytes: 10 });
    expect(small.unpack(pack('abcdefgh'))).toBe('abcdefgh');
    expect(limitAt(() => small.unpack(pack('abcdefghij')))).toBe(0);
  });
  test('invalid limits are refused', () => {
    expect(() => new Unpackr({ mapsAsObjects: true, maxArrayLength: 0 })).toThrow(RangeError);
    expect(() => new Unpackr({ mapsAsObjects: true, maxStrLength: -1 })).toThrow(RangeError);
  });
});

describe('CBOR limits', () => {
  const d = new Decoder({ maxArrayLength: 2, maxMapLength: 1, maxStrLength: 3, maxBinLength: 2 });
  test('definite and indefinite items', () => {
    expect(d.decode(fromHex('820102'))).toEqual([1, 2]);
    expect(limitAt(() => d.decode(fromHex('83010203')))).toBe(0);
    expect(limitAt(() => d.decode(fromHex('9f010203ff')))).toBe(0);
    expect(limitAt(() => d.decode(fromHex('a2616101616202')))).toBe(0);
    expect(limitAt(() => d.decode(fromHex('bf616101616202ff')))).toBe(0);
    expect(d.decode(fromHex('63616263'))).toBe('abc');
    expect(limitAt(() => d.decode(fromHex('6461626364')))).toBe(0);
    expect(limitAt(() => d.decode(fromHex('7f626162626364ff')))).toBe(0);
    // map keys (short heads and one-byte length heads, definite and indefinite maps)
    expect(d.decode(fromHex('a1 63616263 01'))).toEqual(new Map([['abc', 1]]));
    expect(limitAt(() => d.decode(fromHex('a1 6461626364 01')))).toBe(1);
    expect(limitAt(() => d.decode(fromHex('a1 7804 61626364 01')))).toBe(1);
    expect(limitAt(() => d.decode(fromHex('bf 6461626364 01 ff')))).toBe(1);
    expect(limitAt(() => d.decode(fromHex('81 a1 6161 6461626364')))).toBe(4);
  });
  test("a cbor-x bundle's strings (tags 14 and 15 over their length) are strings under maxStrLength", () => {
    // cbor-x new Encoder({ bundleStrings: true }).encode({ s: 'hello world this is long', t: 'x' })
    const bundled = fromHex('d9dfff8419e0008261736174d9dff9821a0000000acf1818617860781868656c6c6f20776f726c642074686973206973206c6f6e67');
    const want = { s: 'hello world this is long', t: 'x' };
    expect(new Decoder({ maxStrLength: 24 }).decode(bundled)).toEqual(want);
    expect(limitAt(() => new Decoder({ maxStrLength: 23 }).decode(bundled))).toBe(21);
    // outside a bundle, tag 14 is a tag like any other
    const tag = new Decoder({ maxStrLength: 5 }).decode(fromHex('ce 1864'));
    expect(tag.tag).toBe(14);
    expect(tag.value).toBe(100);
    expect(limitAt(() => d.decode(fromHex('43010203')))).toBe(0);
    expect(limitAt(() => d.decode(fromHex('5f4201024103ff')))).toBe(0);
    expect(limitAt(() => d.decode(fromHex('8201 5b 0000000100000000')))).toBe(2);
    expect(decode(encode([1, 2, 3]))).toEqual([1, 2, 3]);
  });
});

describe('memory', () => {
  test('after a large message, later calls still work (the instance may be replaced)', () => {
    const big = new Uint8Array(12 * 1024 * 1024).fill(7);
    const back = unpack(pack({ big, s: 'x'.repeat(1000) }));
    expect(back.big.length).toBe(big.length);
    expect(back.big[big.length - 1]).toBe(7);
    expect(unpack(pack({ a: [1, 'two'] }))).toEqual({ a: [1, 'two'] });
    expect(decode(encode({ a: [1, 'two'] }))).toEqual({ a: [1, 'two'] });
  });
});
