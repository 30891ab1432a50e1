// The README's "Coming from json-pack": wirepack and json-pack (@jsonjoy.com/json-pack) read each
// other's MessagePack and CBOR as the same JSON values and binaries, with the differences the
// README names (json-pack's undefined as 0xc1, which MessagePack reserves; wirepack's undefined,
// Uint8Array and Date as extensions or tags that json-pack gives back as JsonPackExtension; CBOR
// uint64 read as BigInt, as cbor-x reads it).
import { describe, test, expect } from 'vitest';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { Packr, pack, unpack, DecodeError } from 'wirepack';
import * as cbor from 'wirepack/cbor';

const require = createRequire(import.meta.url);
const jm = require('@jsonjoy.com/json-pack/lib/msgpack');
const jc = require('@jsonjoy.com/json-pack/lib/cbor');
const { JsonPackExtension } = require('@jsonjoy.com/json-pack/lib/JsonPackExtension');

// JSON values whose integers fit 32 bits (json-pack writes larger ones as doubles in MessagePack,
// as uint64 in CBOR: below) and without __proto__ keys (json-pack's decoders throw on them)
const jsonValue = fc.jsonValue({ maxDepth: 4 }).map((v) =>
  JSON.parse(JSON.stringify(v), (k, x) => (typeof x === 'number' && Number.isInteger(x) && Math.abs(x) > 2 ** 31 ? x % 2 ** 31 || 0 : x)),
).filter((v) => !JSON.stringify(v).includes('"__proto__"'));

const plain = new Packr({ useRecords: false });
const encoders = {
  msgpack: [new jm.MsgPackEncoderFast(), new jm.MsgPackEncoder()],
  cbor: [new jc.CborEncoderFast(), new jc.CborEncoder()],
};
const decoders = {
  msgpack: [new jm.MsgPackDecoderFast(), new jm.MsgPackDecoder()],
  cbor: [new jc.CborDecoderBase(), new jc.CborDecoder()],
};

describe('MessagePack', () => {
  test('each reads what the other writes (JSON values)', () => {
    fc.assert(
      fc.property(jsonValue, (v) => {
        const expected = JSON.parse(JSON.stringify(v));
        for (const e of encoders.msgpack) expect(unpack(e.encode(v))).toEqual(expected);
        for (const d of decoders.msgpack) {
          expect(d.decode(pack(v))).toEqual(expected);
          expect(d.decode(plain.pack(v))).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });
  test('binaries, doubles, integers past 32 bits', () => {
    const v = { b: new Uint8Array([1, 2, 3]), f: 1.5, big: 2 ** 40, neg: -(2 ** 40), u32: 4294967295 };
    const back = unpack(new jm.MsgPackEncoder().encode(v));
    expect(back).toEqual({ ...v, b: expect.any(Uint8Array) });
    expect([...back.b]).toEqual([1, 2, 3]);
    const theirs = new jm.MsgPackDecoder().decode(pack(v));
    expect([...theirs.b]).toEqual([1, 2, 3]);
    // (wirepack writes 2^40 as uint64, which json-pack reads as a number)
    expect({ ...theirs, b: null }).toEqual({ ...v, b: null });
  });
  test("json-pack's undefined is 0xc1, a byte MessagePack reserves: a DecodeError", () => {
    const bytes = new jm.MsgPackEncoder().encode({ u: undefined });
    expect(bytes[bytes.length - 1]).toBe(0xc1);
    let err = null;
    try {
      unpack(bytes);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DecodeError);
    expect(err.code).toBe('RESERVED_BYTE');
    expect(err.offset).toBe(bytes.length - 1);
  });
  test("wirepack's undefined is an extension there, or nil with encodeUndefinedAsNil", () => {
    const u = new jm.MsgPackDecoder().decode(pack({ u: undefined })).u;
    expect(u).toBeInstanceOf(JsonPackExtension);
    expect(u.tag).toBe(0);
    expect(new jm.MsgPackDecoder().decode(new Packr({ useRecords: false, encodeUndefinedAsNil: true }).pack({ u: undefined }))).toEqual({ u: null });
  });
  test("json-pack's extensions are wirepack's: a JsonPackExtension is the ext it names", () => {
    const bytes = new jm.MsgPackEncoder().encode(new JsonPackExtension(42, new Uint8Array([9, 8])));
    const x = unpack(bytes);
    expect(x.type).toBe(42);
    expect([...x.data]).toEqual([9, 8]);
  });
});

describe('CBOR', () => {
  test('each reads what the other writes (JSON values)', () => {
    fc.assert(
      fc.property(jsonValue, (v) => {
        const expected = JSON.parse(JSON.stringify(v));
        for (const e of encoders.cbor) expect(cbor.decode(e.encode(v))).toEqual(expected);
        for (const d of decoders.cbor) expect(d.decode(cbor.encode(v))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
  test('undefined, Buffers; Uint8Arrays and Dates are tags there (64, 1); uint64 is a BigInt here, as in cbor-x', () => {
    const theirs = new jc.CborDecoder().decode(cbor.encode({ u: undefined, buf: Buffer.from([1]), b: new Uint8Array([2]), d: new Date(0) }));
    expect(theirs.u).toBe(undefined);
    expect([...theirs.buf]).toEqual([1]);
    expect(theirs.b).toBeInstanceOf(JsonPackExtension);
    expect(theirs.b.tag).toBe(64);
    expect(theirs.d).toBeInstanceOf(JsonPackExtension);
    expect(theirs.d.tag).toBe(1);
    const ours = cbor.decode(new jc.CborEncoder().encode({ u: undefined, b: new Uint8Array([1, 2]), big: 2 ** 40 }));
    expect(ours.u).toBe(undefined);
    expect([...ours.b]).toEqual([1, 2]);
    expect(ours.big).toBe(2n ** 40n);
  });
});
