// Every Packr / Unpackr / CBOR Encoder / Decoder has the same own properties in the same order,
// whatever its options: V8 gives objects built by the same sequence of property additions one
// hidden class, and the encoder's hot paths read the instance for every value, so that they stay
// fast only while they see a few hidden classes. (Instances that copied their options first had
// one hidden class per set of options, and a process that had used a few configurations packed
// small objects 1.5x slower.) The order of own property names is what decides the hidden class,
// so it is what is compared here.
import { describe, test, expect } from 'vitest';
import { Packr, Unpackr, PackrTransformStream, UnpackrTransformStream } from 'wirepack';
import { Encoder, Decoder, EncoderTransformStream } from 'wirepack/cbor';
import * as lib from 'wirepack/msgpack';

const value = { id: 7, name: 'x', tags: ['a', 'b'], nested: { ok: true, n: [1, 2.5, -3] }, when: new Date(0) };

const configs = {
  Packr: [
    () => new Packr(),
    () => new Packr({ useRecords: false }),
    () => new Packr({ structures: [] }),
    () => new Packr({ bundleStrings: true, structures: [] }),
    () => new Packr({ structuredClone: true }),
    () => new Packr({ sequential: true }),
    () => new Packr({ moreTypes: true, useFloat32: 1, maxDepth: 50, copyBuffers: true }),
    () => new Packr({ skipValues: [undefined], encodeUndefinedAsNil: true, int64AsType: 'number' }),
    () => new Packr({ getStructures: () => [], saveStructures: () => true, maxSharedStructures: 8 }),
  ],
  Unpackr: [
    () => new Unpackr(),
    () => new Unpackr({ useRecords: false }),
    () => new Unpackr({ structures: [] }),
    () => new Unpackr({ mapsAsObjects: false, copyBuffers: true, maxArrayLength: 10, int64AsType: 'bigint' }),
    () => new Unpackr({ sequential: true, trusted: true }),
  ],
  Encoder: [
    () => new Encoder(),
    () => new Encoder({ useRecords: true }),
    () => new Encoder({ pack: true, useRecords: false }),
    () => new Encoder({ bundleStrings: true }),
    () => new Encoder({ deterministic: true, float64: true }),
    () => new Encoder({ structuredClone: true, indefiniteLengths: true }),
    () => new Encoder({ keyMap: { name: 'n' }, tagUint8Array: false, useTag259ForMaps: true }),
    () => new Encoder({ sequential: true, skipFunction: true, alwaysUseFloat: true }),
    () => new Encoder({ _keyMap: { name: 1 } }),
  ],
  Decoder: [
    () => new Decoder(),
    () => new Decoder({ useRecords: false }),
    () => new Decoder({ pack: true }),
    () => new Decoder({ keyMap: { name: 'n' }, mapsAsObjects: true }),
    () => new Decoder({ structures: [], sharedValues: [] }),
    () => new Decoder({ _keyMap: { name: 1 } }),
  ],
};

/** @param {object} o */
const ownNames = (o) => Object.getOwnPropertyNames(o).join(' ');

describe('every instance of a class has one set of own properties, in one order', () => {
  for (const [cls, makers] of Object.entries(configs)) {
    test(`${cls}: after construction and after a call`, () => {
      const made = makers.map((make) => make());
      const first = ownNames(made[0]);
      for (let i = 1; i < made.length; i++) expect(ownNames(made[i]), `${cls} config ${i}`).toBe(first);
      for (const inst of made) {
        const i = /** @type {any} */ (inst);
        if (typeof i.encode === 'function') i.decode(i.encode(value));
        else i.decode(new Encoder().encode(1));
      }
      const after = ownNames(made[0]);
      for (let i = 1; i < made.length; i++) expect(ownNames(made[i]), `${cls} config ${i}, after a call`).toBe(after);
    });
  }

  test('every class starts with an Unpackr\'s own properties, in its order (the option slots first)', () => {
    const base = Object.getOwnPropertyNames(new Unpackr());
    for (const make of [() => new Packr({ sequential: true }), () => new Encoder(), () => new Decoder({ keyMap: { a: 1 } }), () => new Unpackr({ moreTypes: true, int64AsType: 'string' })]) {
      expect(Object.getOwnPropertyNames(make()).slice(0, base.length)).toEqual(base);
    }
  });

  test('the codec a web stream makes has the class of a plain one (stream options stay with the stream)', () => {
    const opts = { writableStrategy: { highWaterMark: 4 }, readableStrategy: { highWaterMark: 4 }, maxIncompleteBufferSize: 1 << 20 };
    const p = /** @type {any} */ (new PackrTransformStream(opts)).packr;
    const u = /** @type {any} */ (new UnpackrTransformStream(opts)).unpackr;
    const e = /** @type {any} */ (new EncoderTransformStream(opts)).encoder;
    expect(ownNames(p)).toBe(ownNames(new Packr({ sequential: true })));
    expect(ownNames(u)).toBe(ownNames(new Unpackr()));
    expect(ownNames(e)).toBe(ownNames(new Encoder({ sequential: true })));
  });

  test("wirepack/msgpack: its Decoders' Unpackrs have an Unpackr's class, its Encoders' Packrs one class", () => {
    const codec = new lib.ExtensionCodec();
    const decoders = [{}, { useBigInt64: true, rawStrings: true }, { mapKeyConverter: String, maxStrLength: 9, extensionCodec: codec, context: {} }];
    for (const o of decoders) {
      const u = /** @type {any} */ (new lib.Decoder(o)).unpackr;
      u.unpack(lib.encode(value));
      expect(ownNames(u), JSON.stringify(o)).toBe(ownNames(new Unpackr()));
    }
    const encoders = [{}, { sortKeys: true, ignoreUndefined: true }, { extensionCodec: codec, context: 1, useBigInt64: true, maxDepth: 9, forceFloat32: true, forceIntegerToFloat: true, initialBufferSize: 64 }];
    const names = encoders.map((o) => { const p = /** @type {any} */ (new lib.Encoder(o)).packr; p.pack(value); return ownNames(p); });
    for (const n of names) expect(n).toBe(names[0]);
  });

  test('an option named like a method does not hide the method, and options stay readable', () => {
    const e = new Encoder({ pack: true, useRecords: false });
    expect(typeof e.pack).toBe('function');
    expect(typeof e.encode).toBe('function');
    expect(new Decoder(/** @type {any} */ ({ pack: true, mapsAsObjects: true })).decode(e.encode({ a: 'xx', b: 'xx' }))).toEqual({ a: 'xx', b: 'xx' });
    const p = /** @type {any} */ (new Packr({ useRecords: false, sequential: false, somethingElse: 5 }));
    expect(p.useRecords).toBe(false);
    expect(p.somethingElse).toBe(5); // an option that is not one of ours is still kept, as msgpackr does
  });
});
