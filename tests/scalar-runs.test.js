// Arrays of numbers mixed with null, false and true (CBOR: and undefined) decode through one
// run on the tape (SCALARRUN: those four are NaNs whose low word says which). Every element must
// come back as what it was: null apart from the number NaN, -0 kept, a run cut by any other kind
// of value, through the recursive and the deep reader, with and without codegen, and the same as
// msgpackr and cbor-x read the same bytes.
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import * as msgpackr from 'msgpackr';
import * as cborX from 'cbor-x';
import { pack, unpack, Packr, Unpackr } from 'wirepack';
import { encode, decode, Decoder } from 'wirepack/cbor';
import { fromHex, hex } from './helpers/bytes.js';

const same = (got, want) => {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++) expect(Object.is(got[i], want[i]), `element ${i}: ${got[i]} / ${want[i]}`).toBe(true);
};

const CASES = [
  [1, null],
  [1, 2, 3, 4, -1, true, null],
  [0.5, false, true, null, -0, NaN, 2 ** 40, -(2 ** 31), Infinity, -Infinity],
  [NaN, null, NaN, false],
  [7, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null],
  // runs that start with null, false or true
  [null, 1, 2.5, true],
  [true, false, null, true, false, false, true, null, null],
  [null, null],
  [false, NaN, -0, 2 ** 40],
];

describe.each([true, false])('MessagePack (codegen %s)', (codegen) => {
  const d = new Unpackr({ codegen, useRecords: false });
  // MessagePack has no -0 integer: msgpackr and wirepack write -0 as 0
  const mp = (arr) => arr.map((x) => (Object.is(x, -0) ? 0 : x));
  test.each(CASES.map((c) => [String(c.map(String)), c]))('%s', (_name, input) => {
    const bytes = pack(input);
    const arr = mp(input);
    same(d.unpack(bytes), arr);
    same(unpack(bytes), arr);
    same(new msgpackr.Unpackr({ useRecords: false }).unpack(bytes), arr);
    // nested, and in an object
    const r = d.unpack(pack({ a: arr, b: [arr, [arr]] }));
    same(r.a, arr);
    same(r.b[0], arr);
    same(r.b[1][0], arr);
  });

  test('a run ends only where a non-scalar is: such arrays decode element by element', () => {
    for (const arr of [[1, null, 'x'], [1, true, {}], [1, false, []], [1, null, new Date(0)], [null, 'x'], [true, 1, 'x'], [false, null, [1]]]) {
      expect(d.unpack(pack(arr))).toEqual(arr);
    }
    const withBytes = d.unpack(pack([1, null, new Uint8Array([7])]));
    same(withBytes.slice(0, 2), [1, null]);
    expect([...withBytes[2]]).toEqual([7]);
  });

  test('NaNs whose low word is that of a special (1 nil, 2 false, 3 true) stay the number NaN, before and after the first special', () => {
    expect(d.unpack(fromHex('95cb7ff8000000000001cb7ff8000000000002c3cb7ff8000000000003cb7ff8000000000001'))).toEqual([NaN, NaN, true, NaN, NaN]);
    expect(d.unpack(fromHex('9301cb7ff8000000000003c2'))).toEqual([1, NaN, false]);
  });

  test('0xc1 in a run is reserved, not a scalar; a run cut short is TRUNCATED', () => {
    expect(() => d.unpack(fromHex('9201c1'))).toThrow(expect.objectContaining({ code: 'RESERVED_BYTE' }));
    expect(() => d.unpack(fromHex('9301c0'))).toThrow(expect.objectContaining({ code: 'TRUNCATED', incomplete: true }));
  });

  // A run whose first element is a one-byte integer takes such integers in a loop of its own
  // (0x00-0x3f and the negative fixints; 0x40-0x7f may name a record): each boundary, followed
  // by every kind of element.
  const HEADS = [0, 1, 63, 64, 127, 128, 255, 256, -1, -32, -33, -128, -129];
  const TAILS = [[], [0.5], [null], [true, false], [2 ** 40], [-(2 ** 31)], [NaN], [-7, 3], [63, 64, -32, -33], ['x'], [{}], [[1]]];
  test('runs that start with one-byte integers: every boundary, then every kind of element', () => {
    for (const h of HEADS) {
      for (const t of TAILS) {
        const arr = [h, h, ...t, h];
        expect(d.unpack(pack(arr)), JSON.stringify(arr)).toEqual(arr);
      }
    }
  });

  test('a run of one-byte integers stops at a byte that names a record', () => {
    const p = new Packr({ structures: [] });
    const v = [[1, { x: 1 }], [2, { x: 1 }, 3], [5, 6, { x: 2 }, 7], [63, { x: 3 }]];
    const bytes = p.pack(v);
    // each { x } is 0x40 (the record's slot) right after a fixint: 93 02 40 .., 92 3f 40 ..
    expect(hex(bytes)).toContain('930240');
    expect(hex(bytes)).toContain('923f40');
    expect(p.unpack(bytes)).toEqual(v);
  });

  test('in records and with structured clone', () => {
    const arr = [1, null, true, 2];
    const p = new Packr({ structures: [] });
    same(p.unpack(p.pack([{ v: arr }, { v: arr }]))[1].v, arr);
    const sc = new Packr({ structuredClone: true });
    const r = sc.unpack(sc.pack({ x: arr, y: arr }));
    same(r.x, arr);
    expect(r.y).toBe(r.x);
  });

  test('deep nesting (the non-recursive reader)', () => {
    let v = [1, null, false, NaN];
    for (let i = 0; i < 600; i++) v = [v];
    let r = new Unpackr({ codegen, useRecords: false, maxDepth: 1000 }).unpack(pack(v));
    for (let i = 0; i < 600; i++) r = r[0];
    same(r, [1, null, false, NaN]);
  });

  test('property: arrays of numbers, null and booleans come back the same', () => {
    const scalar = fc.oneof(fc.double(), fc.integer(), fc.constant(null), fc.boolean());
    fc.assert(
      fc.property(scalar, fc.array(scalar, { maxLength: 40 }), (first, rest) => {
        const arr = [first, ...rest];
        same(d.unpack(pack(arr)), mp(arr));
      }),
      { numRuns: 300 },
    );
  });
});

describe.each([true, false])('CBOR (codegen %s)', (codegen) => {
  const d = new Decoder({ codegen, useRecords: false });
  const cases = [...CASES, [1, undefined], [2.5, undefined, null, false, true, undefined, 3], [undefined, 1], [undefined, null, true, undefined]];
  test.each(cases.map((c) => [String(c.map(String)), c]))('%s', (_name, arr) => {
    const bytes = encode(arr);
    same(d.decode(bytes), arr);
    same(decode(bytes), arr);
    same(new cborX.Decoder({ useRecords: false }).decode(bytes), arr);
  });

  test('runs that start with one-byte integers (0-23, -1..-24): every boundary, then every kind of element', () => {
    const heads = [0, 1, 23, 24, 255, 256, -1, -24, -25, -256, -257];
    const tails = [[], [0.5], [null], [undefined], [true, false], [2 ** 40], [-(2 ** 31)], [NaN], [-7, 3], [23, 24, -24, -25], ['x'], [{}], [[1]]];
    for (const h of heads) {
      for (const t of tails) {
        const arr = [h, h, ...t, h];
        expect(d.decode(encode(arr)), JSON.stringify(arr)).toEqual(arr);
      }
    }
    // by their bytes: 0x17 23, 0x37 -24, then 0x18 0x18 (24) and 0x38 0x18 (-25) in the same run
    same(d.decode(fromHex('861737181838180020')), [23, -24, 24, -25, 0, -1]);
  });

  test('false, true, null, undefined after a number, as the bytes give them', () => {
    same(d.decode(fromHex('8501f4f5f6f7')), [1, false, true, null, undefined]);
    // a NaN with a payload is the number NaN, never one of the four
    same(d.decode(fromHex('83f97e01f6fb7ff8000000000001')), [NaN, null, NaN]);
    // NaNs whose low word is that of a special (1 null, 2 false, 3 true, 4 undefined), before
    // and after the first special of the run
    same(d.decode(fromHex('85fb7ff8000000000001fb7ff8000000000002f5fb7ff8000000000003fb7ff8000000000004')), [NaN, NaN, true, NaN, NaN]);
    same(d.decode(fromHex('8301fb7ff8000000000004f7')), [1, NaN, undefined]);
    // another simple value is not a scalar of a run: the array decodes element by element
    const r = d.decode(fromHex('8301f6f3'));
    expect(r.length).toBe(3);
    same(r.slice(0, 2), [1, null]);
    expect(r[2]).toEqual(d.decode(fromHex('f3')));
    expect(r[2]).not.toBe(null);
  });
});

// Arrays of more than 65,536 elements (made by `new Array(n)` and filled, as shorter ones are,
// since the tape holds every element; they were grown by appending before): every kind of
// element in both formats and both readers, and no holes.
describe('arrays of more than 65,536 elements', () => {
  const n = 70_001;
  const kinds = {
    integers: (i) => i * 7 - 1000,
    floats: (i) => i + 0.25,
    'numbers and specials': (i) => [i, -0, null, true, false, NaN, 2 ** 40, i / 3][i % 8],
    strings: (i) => 's' + (i % 500),
    mixed: (i) => (i % 3 === 0 ? { k: i } : i % 3 === 1 ? [i] : 'x' + i),
  };
  test.each(Object.keys(kinds))('%s', (kind) => {
    const arr = Array.from({ length: n }, (_, i) => kinds[kind](i));
    const noNegZero = arr.map((x) => (Object.is(x, -0) ? 0 : x));
    for (const [got, want] of [
      [unpack(pack(arr)), noNegZero],
      [new Unpackr({ codegen: false, useRecords: false }).unpack(pack(arr)), noNegZero],
      [decode(encode(arr)), arr],
      [new Decoder({ useRecords: false, maxDepth: 100 }).decode(encode([[arr]]))[0][0], arr],
    ]) {
      expect(got.length).toBe(n);
      expect(Object.keys(got).length).toBe(n); // (no holes)
      if (kind === 'mixed') expect(got).toEqual(want);
      else same(got, want);
    }
  });
});
