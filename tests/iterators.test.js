// encodeIter / decodeIter for both formats (sync and async iterables), values split across
// chunks at any byte, errors and limits, and cbor-x's encodeAsIterable/encodeAsAsyncIterable.
// Cross-checked against msgpackr's and cbor-x's iterators.
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import * as msgpackr from 'msgpackr';
import * as cborx from 'cbor-x';
import * as mp from 'wirepack';
import * as cb from 'wirepack/cbor';
import { canon } from './helpers/canon.js';
import { hex, concat, rng } from './helpers/bytes.js';
import { encodeAsIterableWith, ChunkDecoder, CborChunkDecoder } from '../js/src/iterators.js';
import { splitBy, bytewise, chunkSizes, value, richValue, join, asyncOf, bigMessage } from './helpers/chunks.js';

const FORMATS = [
  {
    name: 'msgpack', lib: mp,
    encode: (v) => new mp.Packr({ useRecords: false }).pack(v),
    whole: (b) => new mp.Unpackr().unpackMultiple(b),
    peerDecodeIter: msgpackr.decodeIter, peerEncodeIter: (it) => msgpackr.encodeIter(it, { useRecords: false }),
    peerDecode: (b) => msgpackr.unpack(b),
    // what the peer's decodeIter gives for the whole buffer in one chunk (maps as Maps, as the
    // peers' Unpackr/Decoder instances without options)
    oracle: (b) => [...msgpackr.decodeIter([b])],
    Encoder: mp.Packr, Decoder: mp.Unpackr, whole2: (d, b) => d.unpackMultiple(b),
    options: fc.record({
      useRecords: fc.constantFrom(undefined, false), bundleStrings: fc.boolean(), structuredClone: fc.boolean(), moreTypes: fc.boolean(),
      useFloat32: fc.constantFrom(0, 1, 3), variableMapSize: fc.boolean(), mapsAsObjects: fc.constantFrom(undefined, true, false),
    }, { requiredKeys: [] }),
    reserved: [0xc1], hugeString: [0xdb, 0xff, 0xff, 0xff, 0xf0], hugeArray: [0xdd, 0xff, 0xff, 0xff, 0xff],
  },
  {
    name: 'cbor', lib: cb,
    encode: (v) => new cb.Encoder({ useRecords: false }).encode(v),
    whole: (b) => new cb.Decoder().decodeMultiple(b),
    peerDecodeIter: cborx.decodeIter, peerEncodeIter: (it) => cborx.encodeIter(it, { useRecords: false }),
    peerDecode: (b) => cborx.decode(b),
    oracle: (b) => [...cborx.decodeIter([b])],
    Encoder: cb.Encoder, Decoder: cb.Decoder, whole2: (d, b) => d.decodeMultiple(b),
    options: fc.record({
      useRecords: fc.constantFrom(undefined, false), bundleStrings: fc.boolean(), structuredClone: fc.boolean(), pack: fc.boolean(),
      useFloat32: fc.constantFrom(0, 1, 3), tagUint8Array: fc.boolean(), mapsAsObjects: fc.constantFrom(undefined, true, false),
    }, { requiredKeys: [] }),
    reserved: [0xfc], hugeString: [0x7a, 0xff, 0xff, 0xff, 0xf0], hugeArray: [0x9b, 0, 0, 0, 1, 0, 0, 0, 0],
  },
];

const same = (got, want) => expect(canon(got)).toEqual(canon(want));

/** Run decodeIter over chunks; returns { values, error }. */
function drain(lib, chunks, options) {
  const values = [];
  try {
    for (const v of lib.decodeIter(chunks, options)) values.push(v);
    return { values, error: null };
  } catch (error) {
    return { values, error };
  }
}

for (const F of FORMATS) {
  describe(`${F.name} decodeIter`, () => {
    test('one value per chunk, and the whole sequence in one chunk', () => {
      const vals = [1, 'two', { three: [3] }, null, [true, false], new Uint8Array([1, 2, 3])];
      const parts = vals.map(F.encode);
      const want = F.oracle(join(parts));
      expect(want[2]).toBeInstanceOf(Map); // as the peer: an Unpackr/Decoder without options gives Maps
      same([...F.lib.decodeIter(parts)], want);
      same([...F.lib.decodeIter([join(parts)])], want);
      same([...F.lib.decodeIter([])], []);
      same([...F.lib.decodeIter([new Uint8Array(0), join(parts), new Uint8Array(0)])], want);
      // decoder options pass through
      same([...F.lib.decodeIter(parts, { mapsAsObjects: true })], vals);
    });

    test('a 100+ KB message and small values fed one byte at a time', () => {
      const msg = bigMessage();
      const bytes = join([F.encode(1), F.encode(msg), F.encode('end'), F.encode(msg)]);
      expect(bytes.length).toBeGreaterThan(150000);
      const t0 = performance.now();
      const got = [...F.lib.decodeIter(bytewise(bytes))];
      const ms = performance.now() - t0;
      same(got, F.oracle(bytes));
      expect(got.length).toBe(4);
      // linear work: re-decoding per byte would take minutes; generous bound for slow CI
      expect(ms).toBeLessThan(5000);
    }, 60000);

    test('chunks as ArrayBuffer and DataView are accepted', () => {
      const b = F.encode({ a: [1, 2, 3], s: 'x'.repeat(100) });
      const copy = (u) => Uint8Array.prototype.slice.call(u).buffer;
      const chunks = splitBy(b, [3, 50]).map((c, i) => (i % 2 ? copy(c) : new DataView(copy(c))));
      same([...F.lib.decodeIter(chunks)], F.oracle(b));
      expect(() => [...F.lib.decodeIter(['not bytes'])]).toThrow(TypeError);
    });

    test('property: any chunking decodes like the whole buffer (fast-check)', () => {
      fc.assert(fc.property(fc.array(value, { minLength: 1, maxLength: 6 }), chunkSizes, (vals, sizes) => {
        const bytes = join(vals.map(F.encode));
        const want = F.whole(bytes);
        same([...F.lib.decodeIter(splitBy(bytes, sizes))], want);
      }), { numRuns: 100 });
    }, 60000);

    test('property: what an encoder stream writes, with its options mixed, decodes in any chunking as in one piece (fast-check)', () => {
      // (sequential records as the encoder streams write them, with bundled strings,
      // structuredClone, the typed-array extensions, packed CBOR: what the resumable scanner frames)
      fc.assert(fc.property(F.options, fc.array(richValue, { minLength: 1, maxLength: 8 }), chunkSizes, (o, vals, sizes) => {
        const records = o.useRecords !== false;
        const encoder = new F.Encoder({ ...o, int64AsType: 'bigint', sequential: records || undefined });
        const bytes = join(vals.map((v) => encoder.encode(v)));
        const options = { ...o, int64AsType: 'bigint', structures: records ? [] : undefined };
        same([...F.lib.decodeIter(splitBy(bytes, sizes), options)], F.whole2(new F.Decoder(options), bytes));
      }), { numRuns: 300 });
    }, 60000);

    test('property: chunk boundaries at every byte of a small sequence', () => {
      const bytes = join([{ a: 1, b: [1, 2, 'xyz'] }, 'hello', 300, [new Uint8Array(40)], -5.5].map(F.encode));
      const want = F.whole(bytes);
      for (let cut = 1; cut < bytes.length; cut++) {
        same([...F.lib.decodeIter([bytes.subarray(0, cut), bytes.subarray(cut)])], want);
      }
    });

    test('async iterables and promises of them', async () => {
      const vals = [{ x: 1 }, 'y'.repeat(1000), [1, [2, [3]]]];
      const bytes = join(vals.map(F.encode));
      const got = [];
      for await (const v of F.lib.decodeIter(asyncOf(splitBy(bytes, [7, 1, 300])))) got.push(v);
      same(got, F.oracle(bytes));
      const got2 = [];
      for await (const v of F.lib.decodeIter(Promise.resolve(asyncOf([bytes])), { mapsAsObjects: true })) got2.push(v);
      same(got2, vals);
    });

    test('truncated input: the complete values, then an incomplete DecodeError', () => {
      const bytes = join([F.encode(1), F.encode('abcdef'), F.encode([1, 2, 3])]);
      const cut = bytes.subarray(0, bytes.length - 1);
      const { values, error } = drain(F.lib, bytewise(cut));
      same(values, [1, 'abcdef']);
      expect(error).toBeInstanceOf(F.lib.DecodeError);
      expect(error.incomplete).toBe(true);
      expect(error.code).toBe('TRUNCATED');
    });

    test('malformed input: the values before it, then a non-incomplete DecodeError', () => {
      const bytes = concat(F.encode(1), F.encode('ab'), F.reserved, F.encode(2));
      for (const chunks of [[bytes], bytewise(bytes), splitBy(bytes, [2, 3])]) {
        const { values, error } = drain(F.lib, chunks);
        same(values, [1, 'ab']);
        expect(error).toBeInstanceOf(F.lib.DecodeError);
        expect(error.incomplete).toBe(false);
      }
      // async too: the promise rejects with the DecodeError
      return expect((async () => { for await (const _ of F.lib.decodeIter(asyncOf([bytes]))); })()).rejects.toBeInstanceOf(F.lib.DecodeError);
    });

    test('a header announcing more than maxBytes fails at once, without waiting for the bytes', () => {
      for (const head of [F.hugeString, F.hugeArray]) {
        const it = F.lib.decodeIter((function* () {
          yield Uint8Array.from(head);
          // an endless garbage source: the decoder must give up before reading far
          for (let i = 0; i < 1000; i++) yield new Uint8Array(100);
          throw new Error('read too far');
        })(), { maxBytes: 1 << 20 });
        let error = null;
        try { for (const _ of it); } catch (e) { error = e; }
        expect(error).toBeInstanceOf(F.lib.DecodeError);
        expect(error.code).toBe('LIMIT');
        expect(error.incomplete).toBe(false);
      }
    });

    test('maxIncompleteBufferSize bounds the bytes held for one value', () => {
      const big = F.encode({ s: 'z'.repeat(5000) });
      const { values, error } = drain(F.lib, [F.encode(7), ...splitBy(big, [100])], { maxIncompleteBufferSize: 1000 });
      same(values, [7]);
      expect(error).toBeInstanceOf(F.lib.DecodeError);
      expect(error.code).toBe('LIMIT');
      expect(error.message).toMatch(/Maximum incomplete buffer size exceeded/);
      // a value completed by the chunk that takes it past the limit still decodes (as the peers)
      same([...F.lib.decodeIter([big.subarray(0, 900), big.subarray(900)], { maxIncompleteBufferSize: 1000 })], F.oracle(big));
      // the value needs more than maxBytes: fails once its header is read
      const r = drain(F.lib, splitBy(big, [10]), { maxBytes: 4000 });
      expect(r.error && r.error.code).toBe('LIMIT');
      expect(() => F.lib.decodeIter([], { maxIncompleteBufferSize: -1 })).toThrow(TypeError);
    });

    test('a chunk larger than maxBytes holding small values is decoded in slices', () => {
      const vals = Array.from({ length: 300 }, (_, i) => ({ i, s: 'v'.repeat(i % 40) }));
      const bytes = join(vals.map(F.encode));
      expect(bytes.length).toBeGreaterThan(5000);
      same([...F.lib.decodeIter([bytes], { maxBytes: 1000 })], F.oracle(bytes));
      // the whole-buffer decode refuses it
      const Dec = F.name === 'cbor' ? cb.Decoder : mp.Unpackr;
      expect(() => new Dec({ maxBytes: 1000 }).unpackMultiple(bytes)).toThrow(F.lib.DecodeError);
    });

    test('property: random garbage never hangs and decodes like the whole buffer', () => {
      const rand = rng(F.name === 'cbor' ? 7 : 11);
      for (let run = 0; run < 300; run++) {
        const n = 1 + Math.floor(rand() * 60);
        const bytes = new Uint8Array(n);
        for (let i = 0; i < n; i++) bytes[i] = rand() < 0.5 ? Math.floor(rand() * 256) : Math.floor(rand() * 24);
        let want, wantError = null;
        try { want = F.whole(bytes); } catch (e) { wantError = e; want = e.values || []; }
        const sizes = [1 + Math.floor(rand() * 5), 1 + Math.floor(rand() * 20)];
        const { values, error } = drain(F.lib, splitBy(bytes, sizes), { maxBytes: 1 << 16 });
        same(values, want);
        if (!wantError) expect(error).toBe(null);
        else {
          expect(error, hex(bytes)).toBeInstanceOf(F.lib.DecodeError);
          if (wantError.incomplete) expect(error.incomplete || error.code === 'LIMIT', hex(bytes)).toBe(true);
          else expect([wantError.code, 'LIMIT'], hex(bytes)).toContain(error.code);
        }
      }
    }, 60000);

    test('the peer decodes what encodeIter writes, and decodeIter reads what the peer writes', async () => {
      const vals = [{ a: 1, b: 'two' }, [1, 2, 3], 'str', 42, null, { a: 5, b: 'six' }];
      const ours = [...F.lib.encodeIter(vals)];
      expect(ours.length).toBe(vals.length);
      same([...F.peerDecodeIter(ours, { mapsAsObjects: true })], vals);
      same(ours.map(F.peerDecode), vals);
      const theirs = [...F.peerEncodeIter(vals)];
      same([...F.lib.decodeIter(bytewise(join(theirs)), { mapsAsObjects: true })], vals);
      const asyncOurs = [];
      for await (const b of F.lib.encodeIter(asyncOf(vals))) asyncOurs.push(b);
      expect(asyncOurs.map(hex)).toEqual(ours.map(hex));
      expect(() => F.lib.encodeIter(42)).toThrow(TypeError);
      expect(() => F.lib.decodeIter(null)).toThrow(TypeError);
    });

    test('records written by the peer in sequential mode decode across chunks (needs records)', () => {
      const vals = [{ id: 1, name: 'a' }, { id: 2, name: 'b' }, { id: 3, name: 'c', extra: true }, { id: 4, name: 'd' }];
      const enc = F.name === 'msgpack' ? new msgpackr.Packr({ sequential: true }) : new cborx.Encoder({ sequential: true });
      const bytes = join(vals.map((v) => enc.encode(v)));
      const want = F.oracle(bytes);
      same(want, vals); // records decode to plain objects
      same([...F.lib.decodeIter([bytes])], want);
      same([...F.lib.decodeIter(bytewise(bytes))], want);
      same([...F.lib.decodeIter(splitBy(bytes, [3, 5, 1]))], want);
    });
  });
}

describe('framing the longer heads across chunks', () => {
  /**
   * Every two-chunk cut and one byte at a time decode like the whole buffer; one byte at a time,
   * the scanner frames each value, so that it is decoded once it is complete (and tried once at
   * its first byte), not at every byte.
   */
  const everyCut = (lib, whole, bytes, options) => {
    const want = whole(bytes);
    // (as decodeIter makes them: structures keep record definitions from one call to the next)
    const decoder = lib === cb ? new cb.Decoder({ ...options, structures: [] }) : new mp.Unpackr({ ...options, structures: [] });
    let calls = 0;
    const method = lib === cb ? 'decodeMultiple' : 'unpackMultiple';
    const decode = decoder[method].bind(decoder);
    decoder[method] = (b) => { calls++; return decode(b); };
    const chunks = lib === cb ? new CborChunkDecoder(decoder) : new ChunkDecoder(decoder);
    const got = bytewise(bytes).flatMap((c) => chunks.push(c));
    same(got, want);
    expect(calls).toBeLessThanOrEqual(2 * want.length + 1);
    same([...lib.decodeIter(bytewise(bytes), options)], want);
    for (let cut = 1; cut < bytes.length; cut++) {
      same([...lib.decodeIter([bytes.subarray(0, cut), bytes.subarray(cut)], options)], want);
    }
    return want;
  };

  test('CBOR indefinite-length strings, byte strings, arrays and maps, nested, and breaks', () => {
    const items = [
      '5f4161416242ffffff', // (a byte string of chunks a, b, ffff)
      '7f6161626263ff', '9f019f02ff9f9fffff03ff', 'bf61619f02ffff', 'bf61619f01ff6162bf6163a0ffff',
      '9f5f41ffff7f6178ffff', // chunked strings inside an indefinite array
      '9f' + '01'.repeat(300) + 'ff', // a long one: the scanner's held bytes over many chunks
    ];
    const bytes = concat(...items.map((h) => Uint8Array.from(h.match(/../g).map((x) => parseInt(x, 16)))), cb.encode('end'));
    const want = everyCut(cb, (b) => new cb.Decoder({ mapsAsObjects: true }).decodeMultiple(b), bytes, { mapsAsObjects: true });
    // (spelled out: cbor-x reads no indefinite-length strings)
    same(want, [Uint8Array.of(0x61, 0x62, 0xff, 0xff), 'abc', [1, [2], [[]], 3], { a: [2] }, { a: [1], b: { c: {} } },
      [Uint8Array.of(0xff), 'x'], new Array(300).fill(1), 'end']);
    expect(want.length).toBe(items.length + 1);
    // what an Encoder with indefiniteLengths writes, in random chunks
    const enc = new cb.Encoder({ indefiniteLengths: true, useRecords: false });
    fc.assert(fc.property(fc.array(value, { minLength: 1, maxLength: 4 }), chunkSizes, (vals, sizes) => {
      const b = join(vals.map((v) => enc.encode(v)));
      same([...cb.decodeIter(splitBy(b, sizes), { mapsAsObjects: true })], vals);
    }), { numRuns: 50 });
  });

  test('CBOR: a break where no indefinite item is open is malformed, whatever the chunks', () => {
    for (const [h, before] of [['ff', [1]], ['8201ff', [1]], ['9f01ffff', [1, [1]]], ['a1ff01', [1]]]) {
      const bytes = concat(cb.encode(1), Uint8Array.from(h.match(/../g).map((x) => parseInt(x, 16))), cb.encode(2));
      for (const chunks of [[bytes], bytewise(bytes), splitBy(bytes, [2])]) {
        const { values, error } = drain(cb, chunks);
        expect(values, h).toEqual(before);
        expect(error, h).toBeInstanceOf(cb.DecodeError);
        expect(error.incomplete, h).toBe(false);
      }
    }
  });

  test('MessagePack: arrays, maps and record definitions with 16-bit and 32-bit heads', () => {
    const keys = Array.from({ length: 20 }, (_, i) => 'k' + i);
    const rec = Object.fromEntries(keys.map((k, i) => [k, i]));
    const packr = new msgpackr.Packr({ sequential: true }); // definitions in the bytes (d4 72 id, dc 00 14 ...)
    const bytes = join([packr.pack([rec, rec]), packr.pack(rec), msgpackr.pack(Array.from({ length: 20 }, (_, i) => i)), msgpackr.pack(rec),
      Uint8Array.of(0xdd, 0, 0, 0, 2, 1, 2), Uint8Array.of(0xdf, 0, 0, 0, 1, 0xa1, 0x61, 1)]);
    expect(hex(bytes)).toContain('d47240dc0014');
    const want = everyCut(mp, (b) => new mp.Unpackr({ mapsAsObjects: true }).unpackMultiple(b), bytes, { mapsAsObjects: true });
    same(want, [[rec, rec], rec, Array.from({ length: 20 }, (_, i) => i), rec, [1, 2], { a: 1 }]);
  });
});

describe('msgpackr framing extensions across chunks (records, bundled strings)', () => {
  test('property: msgpackr output with records and bundleStrings decodes in random chunks (fast-check)', () => {
    fc.assert(fc.property(fc.array(value, { minLength: 1, maxLength: 5 }), chunkSizes, fc.boolean(), fc.boolean(), (vals, sizes, bundleStrings, sequential) => {
      const packr = new msgpackr.Packr({ bundleStrings, sequential, useRecords: sequential });
      const bytes = join(vals.map((v) => packr.pack(v)));
      // (not msgpackr's unpackMultiple as the oracle: it misreads a key after a bundled message)
      const got = [...mp.decodeIter(splitBy(bytes, sizes), { mapsAsObjects: true })];
      same(got, vals);
      same(got, new mp.Unpackr({ structures: [], mapsAsObjects: true }).unpackMultiple(bytes));
    }), { numRuns: 100 });
  }, 60000);

  test('shared structures given to decodeIter frame and decode records byte by byte', () => {
    const packr = new msgpackr.Packr({ structures: [] });
    const vals = [];
    for (let i = 0; i < 20; i++) vals.push({ id: i, name: 'n' + i, list: [{ id: -i - 1, name: 'x', list: [] }] });
    const bytes = join(vals.map((v) => packr.pack(v)));
    const structures = packr.structures.map((keys) => keys.slice());
    expect(structures.length).toBeGreaterThan(0); // the records are not defined in the bytes
    same([...mp.decodeIter(bytewise(bytes), { structures: structures.map((k) => k.slice()) })], vals);
    same([...mp.decodeIter(splitBy(bytes, [3, 7]), { structures: structures.map((k) => k.slice()) })], vals);
    // without them the ids are plain integers: what the peer reads too
    same([...mp.decodeIter(bytewise(bytes), { mapsAsObjects: true })], new msgpackr.Unpackr({ mapsAsObjects: true }).unpackMultiple(bytes));
  });

  test('a bundled message fed one byte at a time is decoded once (no re-decoding per byte)', async () => {
    const items = [];
    for (let i = 0; i < 400; i++) items.push({ id: i, name: 'item ' + i, tag: 'x'.repeat(i % 30) });
    for (const options of [{ bundleStrings: true, useRecords: false }, { bundleStrings: true, sequential: true }, { sequential: true }]) {
      const packr = new msgpackr.Packr(options);
      const vals = [{ items }, 'after', { items: items.slice(0, 5) }];
      const bytes = join(vals.map((v) => packr.pack(v)));
      const unpackr = new mp.Unpackr({ structures: [], mapsAsObjects: true });
      let calls = 0;
      const decode = unpackr.unpackMultiple.bind(unpackr);
      unpackr.unpackMultiple = (b) => { calls++; return decode(b); };
      // the decoder streams take a given Unpackr (unpackr option)
      const got = [];
      const stream = new mp.UnpackrTransformStream({ unpackr });
      const writer = stream.writable.getWriter();
      const reader = stream.readable.getReader();
      const done = (async () => { for (;;) { const r = await reader.read(); if (r.done) return; got.push(r.value); } })();
      for (const c of bytewise(bytes)) await writer.write(c);
      await writer.close();
      await done;
      same(got, vals);
      // per value: a failed attempt at its first byte, one decode once it is complete
      expect(calls, JSON.stringify(options)).toBeGreaterThanOrEqual(3); // (the given Unpackr was used)
      expect(calls, JSON.stringify(options)).toBeLessThanOrEqual(6);
    }
  });
});

describe('CBOR encodeAsIterable / encodeAsAsyncIterable', () => {
  const enc = new cb.Encoder({ useRecords: false });
  test('values without iterators: one chunk, exactly encode()', () => {
    for (const v of [1, 'x', null, { a: [1, 2], b: new Map([[1, 2]]) }, [new Set([1]), new Uint8Array(3)]]) {
      const chunks = [...cb.encodeAsIterable(v)];
      expect(hex(join(chunks))).toBe(hex(cb.encode(v)));
    }
  });

  test('generators become indefinite-length arrays, read lazily and chunked', () => {
    let produced = 0;
    function* gen() { for (let i = 0; i < 300; i++) { produced++; yield { i, s: 'v'.repeat(20) }; } }
    const value = { head: 'h', list: gen(), tail: [1, 2] };
    const it = cb.encodeAsIterable(value)[Symbol.iterator]();
    const first = it.next();
    expect(first.done).toBe(false);
    expect(produced).toBeLessThan(300); // not all read before the first chunk
    const chunks = [first.value];
    for (let r = it.next(); !r.done; r = it.next()) chunks.push(r.value);
    expect(chunks.length).toBeGreaterThan(3);
    const bytes = join(chunks);
    const want = { head: 'h', list: Array.from({ length: 300 }, (_, i) => ({ i, s: 'v'.repeat(20) })), tail: [1, 2] };
    same(cb.decode(bytes), want);
    same(cborx.decode(bytes), want);
    // cbor-x's own encodeAsIterable gives the same items (its map heads are always 16-bit)
    function* gen2() { for (let i = 0; i < 300; i++) yield { i, s: 'v'.repeat(20) }; }
    const peer = join([...new cborx.Encoder({ useRecords: false }).encodeAsIterable({ head: 'h', list: gen2(), tail: [1, 2] })]);
    same(cb.decode(peer), want);
  });

  test('the Encoder options hold for the parts (self-described header once, deterministic keys, indefinite lengths)', () => {
    function* g() { yield 1; yield 'x'; }
    const run = (options, v) => hex(join([...encodeAsIterableWith(new cb.Encoder(options), v)]));
    expect(run({ useSelfDescribedHeader: true }, { a: g() })).toBe('d9d9f7a161619f016178ff');
    expect(run({ deterministic: true }, { bb: g(), a: 1 })).toBe('a2616101626262' + '9f016178ff');
    expect(run({ indefiniteLengths: true }, [g()])).toBe('9f9f016178ffff');
    // the method form, once the lead attaches it to Encoder (see js/src/iterators.js)
    if (typeof enc.encodeAsIterable === 'function') expect(hex(join([...enc.encodeAsIterable({ a: g() })]))).toBe('a161619f016178ff');
  });

  test('what encodeAsIterable writes decodes back, whatever the Encoder options (bundled strings: the parts have none)', () => {
    function* g() { yield 1; yield 'two'; yield { x: 'three', y: 'three' }; }
    const value = () => ({ alpha: 'beta', list: g(), nested: { s: 'same', t: 'same' }, arr: [g(), 'zeta'] });
    const want = { alpha: 'beta', list: [1, 'two', { x: 'three', y: 'three' }], nested: { s: 'same', t: 'same' }, arr: [[1, 'two', { x: 'three', y: 'three' }], 'zeta'] };
    for (const options of [{}, { useRecords: false }, { bundleStrings: true }, { bundleStrings: true, useRecords: false }, { pack: true },
      { structuredClone: true }, { useStringRefs: true }, { keyMap: { alpha: 1 } }, { deterministic: true }, { indefiniteLengths: true },
      { useSelfDescribedHeader: true, bundleStrings: true }, { sequential: true }]) {
      const bytes = join([...encodeAsIterableWith(new cb.Encoder(options), value())]);
      // (toEqual: deterministic orders the keys)
      expect(new cb.Decoder({ ...options, mapsAsObjects: true }).decode(bytes), JSON.stringify(options)).toEqual(want);
      if (!options.keyMap) expect(new cborx.Decoder({ ...options, mapsAsObjects: true }).decode(bytes), JSON.stringify(options)).toEqual(want);
    }
    // (cbor-x's own writes a bundle inside a part, which neither decoder reads)
    const theirs = join([...new cborx.Encoder({ bundleStrings: true }).encodeAsIterable(value())].map((c) => new Uint8Array(c)));
    expect(() => new cb.Decoder({ mapsAsObjects: true }).decode(theirs)).toThrow(cb.DecodeError);
  });

  test('async iterables and Blobs are read by encodeAsAsyncIterable', async () => {
    async function* agen() { yield 'a'; await null; yield { b: 2 }; }
    const blob = new Blob([new Uint8Array([1, 2, 3, 4, 5])]);
    const value = { x: agen(), blob };
    const chunks = [];
    for await (const c of cb.encodeAsAsyncIterable(value)) chunks.push(c);
    const bytes = join(chunks);
    expect(hex(bytes)).toBe(hex(concat('a2', cb.encode('x'), '9f', cb.encode('a'), cb.encode({ b: 2 }), 'ff', cb.encode('blob'), '45 0102030405')));
    // the sync form leaves the Blob and the async iterable to the caller
    const sync = [...cb.encodeAsIterable({ blob })];
    expect(sync.some((c) => c === blob)).toBe(true);
  });
});
