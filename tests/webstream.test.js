// WHATWG TransformStreams (Node and Chromium): PackrTransformStream/UnpackrTransformStream
// (wirepack) and EncoderTransformStream/DecoderTransformStream (wirepack/cbor). Values split at
// any byte, random chunkings, errors and limits, cross-checked against msgpackr and cbor-x.
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import * as msgpackr from 'msgpackr';
import * as cborx from 'cbor-x';
import * as mp from 'wirepack';
import * as cb from 'wirepack/cbor';
import { canon } from './helpers/canon.js';
import { hex } from './helpers/bytes.js';
import { splitBy, bytewise, chunkSizes, value, join, bigMessage } from './helpers/chunks.js';

const same = (got, want) => expect(canon(got)).toEqual(canon(want));

const FORMATS = [
  {
    name: 'msgpack', Enc: mp.PackrTransformStream, Dec: mp.UnpackrTransformStream, lib: mp,
    plain: (v) => new mp.Packr({ useRecords: false }).pack(v), reserved: 0xc1,
    peerSequential: () => new msgpackr.Packr({ sequential: true }),
    peerDecodeAll: (b) => new msgpackr.Unpackr({ structures: [], mapsAsObjects: true }).unpackMultiple(b),
    ownDecodeAll: (b) => new mp.Unpackr({ structures: [], mapsAsObjects: true }).unpackMultiple(b),
    huge: [0xdb, 0xff, 0xff, 0xff, 0xf0],
  },
  {
    name: 'cbor', Enc: cb.EncoderTransformStream, Dec: cb.DecoderTransformStream, lib: cb,
    plain: (v) => new cb.Encoder({ useRecords: false }).encode(v), reserved: 0xfc,
    peerSequential: () => new cborx.Encoder({ sequential: true }),
    peerDecodeAll: (b) => new cborx.Decoder({ structures: [], mapsAsObjects: true }).decodeMultiple(b),
    ownDecodeAll: (b) => new cb.Decoder({ structures: [], mapsAsObjects: true }).decodeMultiple(b),
    huge: [0x7a, 0xff, 0xff, 0xff, 0xf0],
  },
];

/** A ReadableStream of the given chunks (pulled one at a time, so a failure stops the source). */
function source(chunks, onPull) {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (onPull) onPull(i);
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
    },
  }, { highWaterMark: 0 });
}

/** Read a stream to its end: { out, error }. */
async function collect(readable) {
  const out = [];
  const reader = readable.getReader();
  try {
    for (;;) {
      const { done, value: v } = await reader.read();
      if (done) return { out, error: null };
      out.push(v);
    }
  } catch (error) {
    return { out, error };
  }
}

async function encodeAll(stream, values) {
  const { out, error } = await collect(source(values).pipeThrough(stream));
  if (error) throw error;
  for (const c of out) expect(c).toBeInstanceOf(Uint8Array);
  return join(out);
}

const recordValues = () => [
  { id: 1, name: 'a', tags: ['x'] }, { id: 2, name: 'b', tags: [] }, null, 'plain', 42,
  { id: 3, name: 'c'.repeat(300), tags: ['y', 'z'] }, [{ id: 4, name: 'd', tags: [] }],
];

for (const F of FORMATS) {
  describe(`${F.name} WHATWG transform streams`, () => {
    test('encoder -> decoder, null included, records (sequential) by default', async () => {
      const vals = recordValues();
      const bytes = await encodeAll(new F.Enc(), vals);
      expect(bytes.length).toBeLessThan(join(vals.map(F.plain)).length);
      same((await collect(source([bytes]).pipeThrough(new F.Dec()))).out, vals);
      same((await collect(source(bytewise(bytes)).pipeThrough(new F.Dec()))).out, vals);
      // the peer reads the whole output
      same(F.peerDecodeAll(bytes), vals);
    });

    test('the peer writing records sequentially, read byte by byte', async () => {
      const enc = F.peerSequential();
      const vals = recordValues().filter((v) => v !== null);
      const bytes = join(vals.map((v) => enc.encode(v)));
      same((await collect(source(bytewise(bytes)).pipeThrough(new F.Dec()))).out, vals);
    });

    test('a 100+ KB message fed one byte at a time', async () => {
      const msg = bigMessage();
      const bytes = join([F.plain(7), F.plain(msg)]);
      expect(bytes.length).toBeGreaterThan(100000);
      const { out, error } = await collect(source(bytewise(bytes)).pipeThrough(new F.Dec({ mapsAsObjects: true })));
      expect(error).toBe(null);
      same(out, [7, msg]);
    }, 60000);

    test('a value arriving byte by byte is decoded once it is complete, not at every byte', async () => {
      const items = Array.from({ length: 300 }, (_, i) => ({ id: i, name: 'item ' + i, tags: ['a', 'b'], n: i / 3 }));
      const vals = [{ items, text: 'x'.repeat(3000) }, 'next', { items: items.slice(0, 20) }];
      const bytes = join(vals.map(F.plain));
      expect(bytes.length).toBeGreaterThan(10000);
      const dec = F.name === 'cbor' ? new cb.Decoder({ structures: [], mapsAsObjects: true }) : new mp.Unpackr({ structures: [], mapsAsObjects: true });
      const method = F.name === 'cbor' ? 'decodeMultiple' : 'unpackMultiple';
      const orig = dec[method].bind(dec);
      let calls = 0;
      dec[method] = (b) => { calls++; return orig(b); };
      const { out, error } = await collect(source(bytewise(bytes)).pipeThrough(new F.Dec(F.name === 'cbor' ? { decoder: dec } : { unpackr: dec })));
      expect(error).toBe(null);
      same(out, vals);
      // per value: one attempt at its first byte (incomplete), one decode once complete
      expect(calls).toBeGreaterThanOrEqual(vals.length); // (the given decoder was used)
      expect(calls).toBeLessThanOrEqual(2 * vals.length);
    }, 60000);

    test('chunks as ArrayBuffer and DataView', async () => {
      const bytes = join([F.plain({ a: 'x'.repeat(50) }), F.plain([1, 2, 3])]);
      const chunks = splitBy(bytes, [7, 11]).map((c, i) => {
        const ab = Uint8Array.prototype.slice.call(c).buffer;
        return i % 2 ? ab : new DataView(ab);
      });
      same((await collect(source(chunks).pipeThrough(new F.Dec({ mapsAsObjects: true })))).out, [{ a: 'x'.repeat(50) }, [1, 2, 3]]);
    });

    test('property: random chunk sizes decode like the whole buffer (fast-check)', async () => {
      await fc.assert(fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 5 }), chunkSizes, async (vals, sizes) => {
        const bytes = await encodeAll(new F.Enc(), vals);
        const { out, error } = await collect(source(splitBy(bytes, sizes)).pipeThrough(new F.Dec({ mapsAsObjects: true })));
        expect(error).toBe(null);
        same(out, F.ownDecodeAll(bytes));
      }), { numRuns: 40 });
    }, 60000);

    test('malformed input: the values before it, then the stream errors with a DecodeError', async () => {
      const bytes = join([F.plain(1), F.plain('ab'), Uint8Array.of(F.reserved), F.plain(2)]);
      for (const chunks of [[bytes], bytewise(bytes)]) {
        const { out, error } = await collect(source(chunks).pipeThrough(new F.Dec()));
        expect(out).toEqual([1, 'ab']);
        expect(error).toBeInstanceOf(F.lib.DecodeError);
        expect(error.incomplete).toBe(false);
      }
    });

    test('input ending inside a value: an incomplete DecodeError at the end', async () => {
      const bytes = join([F.plain(1), F.plain({ s: 'x'.repeat(100) })]);
      const { out, error } = await collect(source(bytewise(bytes.subarray(0, bytes.length - 3))).pipeThrough(new F.Dec()));
      expect(out).toEqual([1]);
      expect(error).toBeInstanceOf(F.lib.DecodeError);
      expect(error.incomplete).toBe(true);
      expect(error.code).toBe('TRUNCATED');
    });

    test('a header announcing more than maxBytes fails without reading on', async () => {
      let pulled = 0;
      const chunks = [Uint8Array.from(F.huge)];
      for (let i = 0; i < 1000; i++) chunks.push(new Uint8Array(1000));
      const { error } = await collect(source(chunks, (i) => { pulled = i; }).pipeThrough(new F.Dec({ maxBytes: 100000 })));
      expect(error).toBeInstanceOf(F.lib.DecodeError);
      expect(error.code).toBe('LIMIT');
      expect(pulled).toBeLessThan(50);
      const big = F.plain({ s: 'y'.repeat(20000) });
      const r = await collect(source(splitBy(big, [500])).pipeThrough(new F.Dec({ maxIncompleteBufferSize: 5000 })));
      expect(r.error).toBeInstanceOf(F.lib.DecodeError);
      expect(r.error.message).toMatch(/Maximum incomplete buffer size exceeded/);
    });

    test('encoder options pass through (useRecords: false writes the plain encoding)', async () => {
      const vals = [{ a: 1 }, 'x', [true]];
      expect(hex(await encodeAll(new F.Enc({ useRecords: false }), vals))).toBe(hex(join(vals.map(F.plain))));
    });
  });
}

describe('CBOR EncoderTransformStream reads async iterables inside values', () => {
  test('an async generator becomes an indefinite-length array', async () => {
    async function* agen() { yield 'a'; yield { b: [1] }; }
    const bytes = await encodeAll(new cb.EncoderTransformStream({ useRecords: false }), [{ x: agen() }, 5]);
    same(cborx.decodeMultiple(bytes), [{ x: ['a', { b: [1] }] }, 5]);
    same(new cb.Decoder({ mapsAsObjects: true }).decodeMultiple(bytes), [{ x: ['a', { b: [1] }] }, 5]);
  });

  test('values with nothing to walk (encoded at once) and walked ones keep their order; an encoding error errors the stream', async () => {
    async function* agen() { yield 3; }
    const vals = [1, { a: agen() }, 'x', { y: [2, { z: true }] }, { a: agen() }, 5];
    const want = [1, { a: [3] }, 'x', { y: [2, { z: true }] }, { a: [3] }, 5];
    const bytes = await encodeAll(new cb.EncoderTransformStream(), vals);
    same(cb.decodeMultiple(bytes), want);
    same(cborx.decodeMultiple(bytes), want);
    const cyclic = { a: 1 };
    /** @type {any} */ (cyclic).self = cyclic;
    const { out, error } = await collect(source([{ ok: 1 }, cyclic, { never: 2 }]).pipeThrough(new cb.EncoderTransformStream()));
    expect(error).toBeInstanceOf(RangeError);
    same(cb.decodeMultiple(join(out)), [{ ok: 1 }]);
  });
});

describe('MessagePack transform stream aliases', () => {
  test('EncoderTransformStream/DecoderTransformStream are the MessagePack ones in wirepack', () => {
    expect(mp.EncoderTransformStream).toBe(mp.PackrTransformStream);
    expect(mp.DecoderTransformStream).toBe(mp.UnpackrTransformStream);
    expect(cb.EncoderTransformStream).not.toBe(mp.PackrTransformStream);
  });
});
