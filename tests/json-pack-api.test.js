// wirepack/json-pack on every platform (node, emcc, Chromium): its classes round-trip values,
// extensions, CBOR tags and simple values, pre-encoded bytes and json-pack's undefined (0xc1);
// results are plain Uint8Arrays; errors are wirepack's. (Against json-pack itself:
// tests/json-pack-lib.node.test.js.)
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import * as w from 'wirepack/json-pack';
import { DecodeError, decodeIter, Unpackr } from 'wirepack';

const json = fc.jsonValue({ maxDepth: 4 }).filter((v) => !JSON.stringify(v).includes('"__proto__"'));
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

const formats = {
  MessagePack: { enc: [w.MsgPackEncoderFast, w.MsgPackEncoder, w.MsgPackEncoderStable, w.MessagePackEncoder], dec: [w.MsgPackDecoderFast, w.MsgPackDecoder, w.MessagePackDecoder] },
  CBOR: { enc: [w.CborEncoderFast, w.CborEncoder, w.CborEncoderStable], dec: [w.CborDecoderBase, w.CborDecoder] },
};

for (const [format, f] of Object.entries(formats)) {
  describe(format, () => {
    const encoders = f.enc.map((E) => new E());
    const decoders = f.dec.map((D) => new D());
    test('JSON values round-trip through every class, as plain Uint8Arrays', () => {
      fc.assert(
        fc.property(json, (v) => {
          // json-pack's MessagePack encoders write -0 as the integer 0, and so do these (CBOR keeps
          // -0, README); JSON's own round trip does the same to the value
          const want = format === 'MessagePack' ? JSON.parse(JSON.stringify(v)) : v;
          for (const e of encoders) {
            const bytes = e.encode(v);
            expect(bytes.constructor).toBe(Uint8Array);
            for (const d of decoders) {
              expect(d.decode(bytes)).toEqual(want);
              expect(d.read(bytes)).toEqual(want);
            }
          }
        }),
        { numRuns: 150 },
      );
    });
    test('-0: the integer 0 in MessagePack (as json-pack), -0.0 in CBOR (json-pack: 0)', () => {
      for (const e of encoders) {
        const back = decoders[0].decode(e.encode([-0, { z: -0 }]));
        expect(back).toEqual(format === 'MessagePack' ? [0, { z: 0 }] : [-0, { z: -0 }]);
      }
    });
    test('undefined, binaries, extensions and pre-encoded values', () => {
      const cbor = format === 'CBOR';
      const v = { u: undefined, b: new Uint8Array([1, 2]), x: new w.JsonPackExtension(cbor ? 300 : 5, cbor ? ['in', 1] : new Uint8Array([9])), r: new w.JsonPackValue(new Uint8Array([cbor ? 0xf4 : 0xc2])) };
      const back = decoders[0].decode(encoders[1].encode(v));
      expect(back.u).toBe(undefined);
      expect('u' in back).toBe(true);
      expect([...back.b]).toEqual([1, 2]);
      expect(back.x).toBeInstanceOf(w.JsonPackExtension);
      expect(back.x.tag).toBe(cbor ? 300 : 5);
      expect(cbor ? back.x.val : [...back.x.val]).toEqual(cbor ? ['in', 1] : [9]);
      expect(back.r).toBe(false);
      expect(hex(encoders[0].encode(undefined))).toBe(cbor ? 'f7' : 'c1');
    });
    test('truncated input is an incomplete DecodeError; the next call works', () => {
      const bytes = encoders[0].encode([1, 'two', { three: 3 }]);
      let err = null;
      try {
        decoders[0].decode(bytes.subarray(0, bytes.length - 1));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DecodeError);
      expect(err.incomplete).toBe(true);
      expect(decoders[0].decode(bytes)).toEqual([1, 'two', { three: 3 }]);
    });
  });
}

test('CBOR simple values are JsonPackValues (and encode back); a MessagePack extension type is unsigned, as json-pack reads it', () => {
  const s = new w.CborDecoder().decode(new Uint8Array([0x82, 0xe0, 0xf8, 0x40]));
  expect(s.map((x) => (x instanceof w.JsonPackValue ? x.val : x))).toEqual([0, 64]);
  expect(hex(new w.CborEncoder().encode(s))).toBe('82e0f840');
  const t = new w.MsgPackDecoder().decode(new Uint8Array([0xd4, 0xff, 0x01]));
  expect(t).toBeInstanceOf(w.JsonPackExtension);
  expect(t.tag).toBe(255);
});

test("Unpackr's undefinedC1 (json-pack's undefined): one byte, split anywhere in a stream too", () => {
  const bytes = new Uint8Array([0xc1, 0x92, 0xc1, 0xc1, 0x81, 0xa1, 0x61, 0xc1]);
  const want = [undefined, [undefined, undefined], { a: undefined }];
  expect(new Unpackr({ useRecords: false, undefinedC1: true }).unpackMultiple(bytes)).toEqual(want);
  expect(() => new Unpackr({ useRecords: false }).unpack(new Uint8Array([0xc1]))).toThrow(DecodeError);
  const chunks = Array.from(bytes, (b) => new Uint8Array([b]));
  expect([...decodeIter(chunks, { useRecords: false, undefinedC1: true })]).toEqual(want);
});

test('extension data and pre-encoded values must be bytes (json-pack writes garbage otherwise)', () => {
  expect(() => new w.MsgPackEncoder().encode(new w.JsonPackExtension(1, 'x'))).toThrow(TypeError);
  expect(() => new w.MsgPackEncoder().encode([new w.JsonPackValue(5)])).toThrow(TypeError);
  expect(() => new w.CborEncoder().encode(new w.JsonPackValue('f5'))).toThrow(TypeError);
  expect(hex(new w.MsgPackEncoder().encode([1]))).toBe('9101');
});
