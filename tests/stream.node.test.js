// Node Transform streams: PackrStream/UnpackrStream (wirepack) and EncoderStream/DecoderStream
// (wirepack/cbor), fed one byte at a time and in random chunks, cross-checked against msgpackr's
// and cbor-x's streams in both directions, errors and limits, and the CommonJS build in dist.
import { describe, test, expect } from 'vitest';
import { createRequire } from 'node:module';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import * as msgpackr from 'msgpackr';
import * as cborx from 'cbor-x';
import * as mp from 'wirepack';
import * as cb from 'wirepack/cbor';
import { canon } from './helpers/canon.js';
import { splitBy, bytewise, chunkSizes, value, join, bigMessage } from './helpers/chunks.js';

const require = createRequire(import.meta.url);
const same = (got, want) => expect(canon(got)).toEqual(canon(want));

const FORMATS = [
  {
    name: 'msgpack', EncStream: mp.PackrStream, DecStream: mp.UnpackrStream,
    PeerEnc: msgpackr.PackrStream, PeerDec: msgpackr.UnpackrStream,
    plain: (v) => new mp.Packr({ useRecords: false }).pack(v), reserved: 0xc1,
    ownDecodeAll: (b) => new mp.Unpackr({ structures: [], mapsAsObjects: true }).unpackMultiple(b),
  },
  {
    name: 'cbor', EncStream: cb.EncoderStream, DecStream: cb.DecoderStream,
    PeerEnc: cborx.EncoderStream, PeerDec: cborx.DecoderStream,
    plain: (v) => new cb.Encoder({ useRecords: false }).encode(v), reserved: 0xfc,
    ownDecodeAll: (b) => new cb.Decoder({ structures: [], mapsAsObjects: true }).decodeMultiple(b),
  },
];

/** Write chunks into a stream and collect what it outputs; resolves { out, error }. */
async function run(stream, chunks) {
  const out = [];
  let error = null;
  try {
    await pipeline(Readable.from(chunks, { objectMode: true }), stream, new Writable({
      objectMode: true,
      write(chunk, _enc, cb) { out.push(chunk); cb(); },
    }));
  } catch (e) {
    error = e;
  }
  return { out, error };
}

/** Encoder stream output as one buffer. */
async function encodeAll(stream, values) {
  const { out, error } = await run(stream, values);
  if (error) throw error;
  return join(out);
}

// record-friendly values: objects with repeated shapes, plus a null and a large string
const recordValues = () => [
  { id: 1, name: 'a', tags: ['x'] }, { id: 2, name: 'b', tags: [] }, 'plain', 42, { other: true },
  { id: 3, name: 'c'.repeat(300), tags: ['y', 'z'] }, [{ id: 4, name: 'd', tags: [] }], { nested: { id: 5, name: 'e', tags: null } },
];

for (const F of FORMATS) {
  describe(`${F.name} Node streams`, () => {
    test('encoder stream -> decoder stream, with records (sequential) by default', async () => {
      const vals = recordValues();
      const bytes = await encodeAll(new F.EncStream(), vals);
      // records are in the bytes: shorter than the plain encodings
      expect(bytes.length).toBeLessThan(join(vals.map(F.plain)).length);
      same((await run(new F.DecStream(), [bytes])).out, vals);
      same((await run(new F.DecStream(), bytewise(bytes))).out, vals);
    });

    test('our encoder stream -> the peer decoder stream, and the peer encoder stream -> ours (byte by byte)', async () => {
      const vals = recordValues();
      const ours = await encodeAll(new F.EncStream(), vals);
      same((await run(new F.PeerDec(), bytewise(ours))).out, vals);
      const theirs = await encodeAll(new F.PeerEnc(), vals);
      same((await run(new F.DecStream(), bytewise(theirs))).out, vals);
      same((await run(new F.DecStream(), splitBy(theirs, [3, 17, 1]))).out, vals);
    });

    test('records off (useRecords: false) writes the plain encoding', async () => {
      const vals = [{ a: 1 }, [1, 2], 'x'];
      const bytes = await encodeAll(new F.EncStream({ useRecords: false }), vals);
      expect(Buffer.from(bytes).toString('hex')).toBe(Buffer.from(join(vals.map(F.plain))).toString('hex'));
      same((await run(new F.DecStream({ mapsAsObjects: true }), bytewise(bytes))).out, vals);
    });

    test('a 100+ KB message fed one byte at a time', async () => {
      const msg = bigMessage();
      const bytes = await encodeAll(new F.EncStream(), [msg, 'after', msg]);
      expect(bytes.length).toBeGreaterThan(100000);
      const t0 = performance.now();
      const { out, error } = await run(new F.DecStream(), bytewise(bytes));
      const ms = performance.now() - t0;
      expect(error).toBe(null);
      same(out, [msg, 'after', msg]);
      expect(ms).toBeLessThan(20000); // mostly Node stream overhead per chunk; linear decoding
    }, 60000);

    test('bundleStrings: the encoder stream\'s output cut at any byte is read back (a CBOR cut between a bundle\'s offset and its strings was BAD_BUNDLE)', async () => {
      const vals = [{ a: 'first string', b: ['two', 'three!', 'four'] }, 'a longer string at the top', [{ a: 'again', b: 'bundled' }], 7];
      const bytes = await encodeAll(new F.EncStream({ bundleStrings: true }), vals);
      for (let n = 1; n < bytes.length; n++) {
        const { out, error } = await run(new F.DecStream({ bundleStrings: true }), [bytes.subarray(0, n), bytes.subarray(n)]);
        expect(error, `cut at ${n}`).toBe(null);
        same(out, vals);
      }
      same((await run(new F.DecStream({ bundleStrings: true }), bytewise(bytes))).out, vals);
    });

    test('property: random chunk sizes decode like the whole buffer (fast-check)', async () => {
      await fc.assert(fc.asyncProperty(fc.array(value.filter((v) => v !== null), { minLength: 1, maxLength: 5 }), chunkSizes, async (vals, sizes) => {
        const bytes = await encodeAll(new F.EncStream(), vals);
        const want = F.ownDecodeAll(bytes);
        const { out, error } = await run(new F.DecStream({ mapsAsObjects: true }), splitBy(bytes, sizes));
        expect(error).toBe(null);
        same(out, want);
      }), { numRuns: 60 });
    }, 60000);

    test('property: the peer decoder stream reads our encoder stream, in random chunks (fast-check)', async () => {
      await fc.assert(fc.asyncProperty(fc.array(value.filter((v) => v !== null), { minLength: 1, maxLength: 5 }), chunkSizes, async (vals, sizes) => {
        const bytes = await encodeAll(new F.EncStream(), vals);
        const { out, error } = await run(new F.PeerDec({ mapsAsObjects: true }), splitBy(bytes, sizes));
        // cbor-x's native string extractor reads ahead and throws on a string cut by a chunk
        // boundary (a peer bug, also excused in tests/fuzz-differential.node.test.js)
        const peerBug = F.name === 'cbor' && error && /Unexpected end of buffer reading string/.test(String(error.message));
        if (!peerBug) {
          expect(error).toBe(null);
          same(out, vals);
        }
        // and ours reads it the same way
        same((await run(new F.DecStream({ mapsAsObjects: true }), splitBy(bytes, sizes))).out, vals);
      }), { numRuns: 60 });
    }, 60000);

    test('null is pushed as Symbol.for("null"), as the peers', async () => {
      const bytes = join([null, 1, null].map(F.plain));
      expect((await run(new F.DecStream(), bytewise(bytes))).out).toEqual([Symbol.for('null'), 1, Symbol.for('null')]);
      expect((await run(new F.PeerDec(), [bytes])).out).toEqual([Symbol.for('null'), 1, Symbol.for('null')]);
    });

    test('malformed input: the values before it, then an error event with a DecodeError', async () => {
      const bytes = join([F.plain(1), F.plain('ab'), Uint8Array.of(F.reserved), F.plain(2)]);
      for (const chunks of [[bytes], bytewise(bytes)]) {
        const { out, error } = await run(new F.DecStream(), chunks);
        expect(out).toEqual([1, 'ab']);
        expect(error).toBeInstanceOf(mp.DecodeError);
        expect(error.incomplete).toBe(false);
      }
    });

    test('input ending inside a value: the values before it, then an incomplete DecodeError', async () => {
      const bytes = join([F.plain(1), F.plain({ s: 'x'.repeat(100) })]);
      const { out, error } = await run(new F.DecStream(), bytewise(bytes.subarray(0, bytes.length - 10)));
      expect(out).toEqual([1]);
      expect(error).toBeInstanceOf(mp.DecodeError);
      expect(error.incomplete).toBe(true);
      expect(error.code).toBe('TRUNCATED');
    });

    test('garbage is not buffered without bound: maxIncompleteBufferSize and maxBytes', async () => {
      // a string header announcing 4 GB, then endless filler: fails at once (over maxBytes)
      const huge = F.name === 'msgpack' ? Uint8Array.of(0xdb, 0xff, 0xff, 0xff, 0xf0) : Uint8Array.of(0x7a, 0xff, 0xff, 0xff, 0xf0);
      let written = 0;
      const source = Readable.from((function* () {
        yield huge;
        for (let i = 0; i < 100000; i++) { written++; yield new Uint8Array(1000); }
      })(), { objectMode: true });
      const { error } = await run(new F.DecStream(), source);
      expect(error).toBeInstanceOf(mp.DecodeError);
      expect(error.code).toBe('LIMIT');
      expect(written).toBeLessThan(100);
      // a value within maxBytes but over maxIncompleteBufferSize, arriving in small chunks
      const big = F.plain({ s: 'y'.repeat(50000) });
      const r = await run(new F.DecStream({ maxIncompleteBufferSize: 10000 }), splitBy(big, [1000]));
      expect(r.error).toBeInstanceOf(mp.DecodeError);
      expect(r.error.message).toMatch(/Maximum incomplete buffer size exceeded/);
      // the same in one chunk decodes (the limit is on what is held, as the peers)
      same((await run(new F.DecStream({ maxIncompleteBufferSize: 10000, mapsAsObjects: true }), [big])).out, [{ s: 'y'.repeat(50000) }]);
    });

    test('encoder errors surface as error events', async () => {
      const boom = new Error('boom');
      const { out, error } = await run(new F.EncStream(), [{ ok: 1 }, { get bad() { throw boom; } }]);
      expect(error).toBe(boom);
      expect(out.length).toBeGreaterThan(0);
    });
  });
}

describe('MessagePack records in streams', () => {
  test('an empty record (no keys) referenced again decodes to {} (found by the stream property test)', async () => {
    const vals = [{ '': { '': [[{}, [0, {}]]] } }, 0];
    const ours = await encodeAll(new mp.PackrStream(), vals);
    const theirs = await encodeAll(new msgpackr.PackrStream(), vals);
    expect(Buffer.from(ours).toString('hex')).toBe(Buffer.from(theirs).toString('hex'));
    same((await run(new msgpackr.UnpackrStream({ mapsAsObjects: true }), [theirs])).out, vals);
    same((await run(new mp.UnpackrStream({ mapsAsObjects: true }), [theirs])).out, vals);
  });

  test('many record definitions (ids cycle past 64) across byte-sized chunks', async () => {
    const vals = [];
    for (let i = 0; i < 150; i++) vals.push({ ['k' + i]: i, shared: 'x', ['m' + (i % 7)]: [i] });
    for (let i = 0; i < 150; i += 3) vals.push({ ['k' + i]: -i - 1, shared: 'y', ['m' + (i % 7)]: [] });
    const theirs = await encodeAll(new msgpackr.PackrStream(), vals);
    same((await run(new mp.UnpackrStream(), bytewise(theirs))).out, vals);
    const ours = await encodeAll(new mp.PackrStream(), vals);
    same((await run(new msgpackr.UnpackrStream(), bytewise(ours))).out, vals);
    same((await run(new mp.UnpackrStream(), splitBy(ours, [5, 1, 33]))).out, vals);
  }, 60000);
});

describe('MessagePack stream aliases and options', () => {
  test('EncoderStream/DecoderStream are PackrStream/UnpackrStream (as msgpackr)', () => {
    expect(mp.EncoderStream).toBe(mp.PackrStream);
    expect(mp.DecoderStream).toBe(mp.UnpackrStream);
  });
  test('a given packr/unpackr is used', async () => {
    const packr = new mp.Packr({ useRecords: false });
    const s = new mp.PackrStream({ packr });
    expect(s.packr).toBe(packr);
    const unpackr = new mp.Unpackr({ mapsAsObjects: true });
    const u = new mp.UnpackrStream({ unpackr });
    expect(u.unpackr).toBe(unpackr);
    same((await run(u, [await encodeAll(s, [{ a: 1 }])])).out, [{ a: 1 }]);
  });
  test('a given unpackr keeps record definitions from chunk to chunk (structures: [] added, as msgpackr)', async () => {
    const vals = [{ x: 1, y: 'a' }, { x: 2, y: 'b' }, { x: 3, y: 'c' }];
    const bytes = await encodeAll(new mp.PackrStream(), vals);
    const unpackr = new mp.Unpackr();
    expect(unpackr.structures).toBe(undefined);
    same((await run(new mp.UnpackrStream({ unpackr }), bytewise(bytes))).out, vals);
    expect(Array.isArray(unpackr.structures)).toBe(true);
    same((await run(new msgpackr.UnpackrStream({ unpackr: new msgpackr.Unpackr() }), bytewise(bytes))).out, vals);
  });
});

describe('CBOR EncoderStream encodes progressively (encodeAsAsyncIterable)', () => {
  test('generators and async iterables inside a value', async () => {
    async function* agen() { yield 1; yield { two: 2 }; }
    function* gen() { yield 'a'; yield 'b'; }
    const bytes = await encodeAll(new cb.EncoderStream({ useRecords: false }), [{ g: gen(), a: agen() }]);
    same(new cb.Decoder({ mapsAsObjects: true }).decode(bytes), { g: ['a', 'b'], a: [1, { two: 2 }] });
    same(cborx.decode(bytes), { g: ['a', 'b'], a: [1, { two: 2 }] });
  });

  test('values with nothing to walk (encoded at once) and values walked asynchronously keep their order', async () => {
    async function* agen() { yield 3; }
    function* gen() { yield 'a'; }
    const vals = [1, { g: gen() }, 'x', { a: agen() }, { y: [2, { z: true }] }, { a: agen() }, 5];
    const want = [1, { g: ['a'] }, 'x', { a: [3] }, { y: [2, { z: true }] }, { a: [3] }, 5];
    const bytes = await encodeAll(new cb.EncoderStream(), vals);
    same(cb.decodeMultiple(bytes), want);
    same(cborx.decodeMultiple(bytes), want);
    // a records Decoder (as cbor-x's) gives the walked objects, written as maps, as Maps
    const asMaps = want.map((v, i) => (i === 1 || i === 3 || i === 5 ? new Map(Object.entries(v)) : v));
    same(new cb.Decoder({ structures: [] }).decodeMultiple(bytes), asMaps);
    same(new cborx.Decoder({ structures: [] }).decodeMultiple(bytes), asMaps);
  });

  test('an encoding error of a value with nothing to walk ends the stream with that error', async () => {
    const cyclic = { a: 1 };
    /** @type {any} */ (cyclic).self = cyclic;
    const { out, error } = await run(new cb.EncoderStream(), [{ ok: 1 }, cyclic, { never: 2 }]);
    expect(error).toBeInstanceOf(RangeError);
    same(cb.decodeMultiple(join(out)), [{ ok: 1 }]);
  });
});

describe('CommonJS build (dist)', () => {
  test("require('wirepack') and require('wirepack/cbor') have the streams and iterators", async () => {
    const w = require('../dist/index.cjs');
    const c = require('../dist/cbor.cjs');
    for (const name of ['PackrStream', 'UnpackrStream', 'EncoderStream', 'DecoderStream', 'encodeIter', 'decodeIter', 'PackrTransformStream', 'UnpackrTransformStream']) {
      expect(typeof w[name], name).toBe('function');
    }
    for (const name of ['EncoderStream', 'DecoderStream', 'encodeIter', 'decodeIter', 'encodeAsIterable', 'encodeAsAsyncIterable', 'EncoderTransformStream', 'DecoderTransformStream']) {
      expect(typeof c[name], name).toBe('function');
    }
    const vals = recordValues();
    same((await run(new w.UnpackrStream(), bytewise(await encodeAll(new w.PackrStream(), vals)))).out, vals);
    same((await run(new c.DecoderStream(), bytewise(await encodeAll(new c.EncoderStream(), vals)))).out, vals);
  });
});

describe('stream options stay with the stream', () => {
  const names = (/** @type {object} */ o) => Object.getOwnPropertyNames(o).join(' ');
  test('the codec a Node stream makes has the own properties of a plain one', () => {
    const opts = { highWaterMark: 4, readableObjectMode: true, emitClose: true, maxIncompleteBufferSize: 1 << 20 };
    expect(names(/** @type {any} */ (new mp.PackrStream(opts)).packr)).toBe(names(new mp.Packr({ sequential: true })));
    expect(names(/** @type {any} */ (new mp.UnpackrStream(opts)).unpackr)).toBe(names(new mp.Unpackr()));
    expect(names(/** @type {any} */ (new cb.EncoderStream(opts)).encoder)).toBe(names(new cb.Encoder({ sequential: true })));
    expect(names(/** @type {any} */ (new cb.DecoderStream(opts)).chunks.decoder)).toBe(names(new cb.Decoder()));
  });
});
