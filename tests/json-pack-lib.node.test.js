// wirepack/json-pack against json-pack itself (@jsonjoy.com/json-pack): its classes read what
// json-pack writes as json-pack reads it, and json-pack reads what they write as the value they
// were given, in MessagePack and CBOR, with the differences js/src/json-pack.js names (other
// headers, so other bytes; values json-pack cannot write; errors instead of garbage).
import { describe, test, expect } from 'vitest';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import * as w from 'wirepack/json-pack';
import { DecodeError } from 'wirepack';

const require = createRequire(import.meta.url);
const jm = require('@jsonjoy.com/json-pack/lib/msgpack');
const jc = require('@jsonjoy.com/json-pack/lib/cbor');
const { JsonPackExtension: TheirExtension } = require('@jsonjoy.com/json-pack/lib/JsonPackExtension');
const { JsonPackValue: TheirValue } = require('@jsonjoy.com/json-pack/lib/JsonPackValue');

/** Their extensions and values as ours, recursively, binaries as plain Uint8Arrays (to compare). */
function ours(v) {
  if (v instanceof TheirExtension || v instanceof w.JsonPackExtension) return { ext: v.tag, val: ours(v.val) };
  if (v instanceof TheirValue || v instanceof w.JsonPackValue) return { simple: v.val };
  if (v instanceof Uint8Array) return { bytes: [...v] };
  if (Array.isArray(v)) return v.map(ours);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, ours(x)]));
  return v;
}

// what both libraries write the same way: JSON values (no __proto__ keys: json-pack throws on
// them; no -0: json-pack's MessagePack writes it as 0), binaries, undefined, 64-bit floats
const key = fc.string({ maxLength: 6 }).filter((k) => k !== '__proto__');
const scalar = fc.oneof(
  fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }),
  fc.double({ noNaN: true }).filter((x) => !Object.is(x, -0)),
  fc.maxSafeInteger(),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.uint8Array({ maxLength: 20 }),
);
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('v'), { maxLength: 5 }), fc.dictionary(key, tie('v'), { maxKeys: 5 })),
})).v;

const pairs = {
  MessagePack: {
    ourEnc: [new w.MsgPackEncoderFast(), new w.MsgPackEncoder(), new w.MessagePackEncoder()],
    ourDec: [new w.MsgPackDecoderFast(), new w.MsgPackDecoder(), new w.MessagePackDecoder()],
    theirEnc: new jm.MsgPackEncoder(),
    theirDec: new jm.MsgPackDecoder(),
  },
  CBOR: {
    ourEnc: [new w.CborEncoderFast(), new w.CborEncoder()],
    ourDec: [new w.CborDecoderBase(), new w.CborDecoder()],
    theirEnc: new jc.CborEncoder(),
    theirDec: new jc.CborDecoder(),
  },
};

for (const [format, p] of Object.entries(pairs)) {
  describe(format, () => {
    test('each reads what the other writes, as the other reads it', () => {
      fc.assert(
        fc.property(value, (v) => {
          const theirs = p.theirEnc.encode(v).slice();
          const expected = ours(p.theirDec.decode(theirs));
          for (const d of p.ourDec) expect(ours(d.decode(theirs))).toEqual(expected);
          for (const e of p.ourEnc) {
            const bytes = e.encode(v);
            expect(bytes.constructor).toBe(Uint8Array);
            expect(ours(p.theirDec.decode(bytes))).toEqual(expected);
            for (const d of p.ourDec) expect(ours(d.read(bytes))).toEqual(expected);
          }
        }),
        { numRuns: 400 },
      );
    });

    test('extensions (tags) and pre-encoded values', () => {
      const cbor = format === 'CBOR';
      const ext = cbor ? new w.JsonPackExtension(1234, { a: [1, 'x'] }) : new w.JsonPackExtension(42, new Uint8Array([1, 2, 3]));
      const raw = new w.JsonPackValue(cbor ? new Uint8Array([0xf5]) : new Uint8Array([0xc3]));
      const bytes = p.ourEnc[1].encode({ ext, raw, list: [ext] });
      const theirs = p.theirDec.decode(bytes);
      expect(theirs.raw).toBe(true);
      expect(ours(theirs.ext)).toEqual(ours(ext));
      expect(ours(p.ourDec[1].decode(bytes))).toEqual(ours(theirs));
      const back = p.ourDec[0].decode(p.theirEnc.encode(new TheirExtension(cbor ? 7 : 9, cbor ? 'seven' : new Uint8Array([7]))));
      expect(back).toBeInstanceOf(w.JsonPackExtension);
      expect(ours(back)).toEqual(cbor ? { ext: 7, val: 'seven' } : { ext: 9, val: { bytes: [7] } });
    });

    test('binaries and extension data are views of the input (its class)', () => {
      const input = p.theirEnc.encode({ b: new Uint8Array([5, 6]) }).slice();
      const b = p.ourDec[0].decode(input).b;
      expect(b.constructor).toBe(Uint8Array);
      expect(b.buffer).toBe(input.buffer);
    });

    test('malformed and truncated input: a DecodeError, and the next call works', () => {
      const good = p.ourEnc[0].encode({ a: [1, 2, 'three'] });
      for (let n = 0; n < good.length; n++) {
        let err = null;
        try {
          p.ourDec[0].decode(good.subarray(0, n));
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(DecodeError);
        expect(err.incomplete).toBe(true);
      }
      expect(() => p.ourDec[0].decode(new Uint8Array([...good, 0]))).toThrow(DecodeError);
      expect(p.ourDec[0].decode(good)).toEqual({ a: [1, 2, 'three'] });
    });
  });
}

describe('where wirepack writes what json-pack cannot', () => {
  test('MessagePack: a Date is the timestamp extension, a Map its entries, a BigInt an int64; json-pack reads them', () => {
    const bytes = new w.MsgPackEncoder().encode({ d: new Date(1000), m: new Map([['k', 1]]), n: -5n, big: 2n ** 63n });
    const theirs = new jm.MsgPackDecoder().decode(bytes);
    expect(theirs.d.tag).toBe(255); // (the timestamp, -1, as json-pack reads the type byte)
    expect(theirs.m).toEqual({ k: 1 });
    expect(theirs.n).toBe(-5);
    expect(theirs.big).toBe(2 ** 63);
    expect(() => new w.MsgPackEncoder().encode(2n ** 64n)).toThrow(RangeError);
  });
  test('CBOR: Dates, typed arrays and Sets as wirepack/cbor writes them (json-pack: null); a Map a plain map', () => {
    const theirs = new jc.CborDecoder().decode(new w.CborEncoder().encode({ d: new Date(1000), t: new Int16Array([1, 2]), s: new Set([1]), m: new Map([[1, 'x']]) }));
    expect(theirs.d.tag).toBe(1);
    expect(theirs.t.tag).toBe(77);
    expect(theirs.s.tag).toBe(258);
    expect(theirs.m).toEqual({ 1: 'x' });
  });
  test('functions and symbols are undefined in both formats (json-pack writes nothing or null)', () => {
    const v = { f: () => 1, s: Symbol('s') };
    expect(new jm.MsgPackDecoder().decode(new w.MsgPackEncoder().encode(v))).toEqual({ f: undefined, s: undefined });
    expect(new jc.CborDecoder().decode(new w.CborEncoder().encode(v))).toEqual({ f: undefined, s: undefined });
    expect('s' in new w.CborDecoder().decode(new w.CborEncoder().encode(v))).toBe(true);
  });
  test('undefined is 0xc1 in MessagePack, as json-pack writes it; a __proto__ key is an own property', () => {
    expect([...new w.MsgPackEncoder().encode(undefined)]).toEqual([0xc1]);
    expect(new w.MsgPackDecoder().decode(new Uint8Array([0x92, 0xc1, 0xc1]))).toEqual([undefined, undefined]);
    const o = new w.MsgPackDecoder().decode(new w.MsgPackEncoder().encode(JSON.parse('{"__proto__": {"x": 1}}')));
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(Object.keys(o)).toEqual(['__proto__']);
    expect(o.x).toBe(undefined);
  });
  test('Stable encoders sort keys (MessagePack by code units, CBOR deterministically), as json-pack', () => {
    const v = { b: 1, a: 2, aa: { z: 1, y: 2 } };
    expect(new jm.MsgPackDecoder().decode(new w.MsgPackEncoderStable().encode(v))).toEqual(v);
    expect([...new w.MsgPackEncoderStable().encode(v)]).toEqual([...new jm.MsgPackEncoderStable().encode(v)]);
    expect([...new w.CborEncoderStable().encode(v)]).toEqual([...new jc.CborEncoderStable().encode(v)]);
  });
});
