// The public API surface: exports, input types, output types, options, and the guarantee that
// results never alias the input or wasm memory.
import { describe, test, expect } from 'vitest';
import * as wp from 'wirepack';
import {
  pack, unpack, encode, decode, Packr, Unpackr, Encoder, Decoder, unpackMultiple, DecodeError, init, initSync, FLOAT32_OPTIONS,
} from 'wirepack';
import { encode as mpEncode } from '@msgpack/msgpack';
import { hex, fromHex, concat, seqBytes, rng, utf8, expectSameBytes } from './helpers/bytes.js';
import { canon } from './helpers/canon.js';
import { RESULT_CUTS } from '../js/src/encode.js';
import { head as cborHead } from './helpers/cbor.js';

describe('exports', () => {
  test('all names exist with the right kinds', () => {
    for (const name of ['pack', 'unpack', 'encode', 'decode', 'unpackMultiple', 'init', 'initSync']) {
      expect(typeof wp[name], name).toBe('function');
    }
    for (const name of ['Packr', 'Unpackr', 'Encoder', 'Decoder', 'DecodeError']) {
      expect(typeof wp[name], name).toBe('function');
      expect(typeof wp[name].prototype, name).toBe('object');
    }
    expect(Encoder).toBe(Packr);
    expect(Decoder).toBe(Unpackr);
    expect(FLOAT32_OPTIONS).toEqual({ NEVER: 0, ALWAYS: 1, DECIMAL_ROUND: 3, DECIMAL_FIT: 4 });
    expect(init.length + initSync.length).toBeGreaterThanOrEqual(1); // take a module or bytes
    expect(Object.getPrototypeOf(DecodeError.prototype)).toBe(Error.prototype);
  });

  test('encode/decode and instance methods agree with pack/unpack', () => {
    const v = { a: [1, -1, 2 ** 40, 'x', null, true], b: new Uint8Array([9]), c: new Date(5) };
    const h = hex(pack(v));
    expect(hex(encode(v))).toBe(h);
    const p = new Packr({ useRecords: false });
    const e = new Encoder({ useRecords: false });
    expect(hex(p.pack(v))).toBe(h);
    expect(hex(p.encode(v))).toBe(h);
    expect(hex(e.encode(v))).toBe(h);
    const bytes = fromHex(h);
    for (const out of [unpack(bytes), decode(bytes), new Unpackr({ mapsAsObjects: true }).unpack(bytes), new Unpackr({ mapsAsObjects: true }).decode(bytes), new Decoder({ mapsAsObjects: true }).decode(bytes)]) {
      expect(canon(out)).toEqual(canon(v));
    }
  });
});

describe('input types', () => {
  const bytes = fromHex('83a161c402abcda162a3e282aca163cd0102');
  const want = canon({ a: new Uint8Array([0xab, 0xcd]), b: '€', c: 258 });
  test('Uint8Array, ArrayBuffer, DataView', () => {
    expect(canon(unpack(bytes))).toEqual(want);
    expect(canon(unpack(bytes.slice().buffer))).toEqual(want);
    expect(canon(unpack(new DataView(bytes.slice().buffer)))).toEqual(want);
  });
  test('views with a nonzero byteOffset see only their bytes', () => {
    const padded = concat([0xc1, 0xc1, 0xc1], bytes, [0xc1, 0xc1]);
    const sub = padded.subarray(3, 3 + bytes.length);
    expect(sub.byteOffset).toBe(3);
    expect(canon(unpack(sub))).toEqual(want);
    expect(canon(unpack(new DataView(padded.buffer, 3, bytes.length)))).toEqual(want);
    expect(canon(unpackMultiple(concat(bytes, bytes).subarray(0)))).toEqual([want, want]);
    // odd offsets for every width of value
    const all = fromHex('97cd0102ce01020304cf0000000000000005cb3ff8000000000000ca3fc00000d1fffed2fffffffe');
    for (let off = 0; off < 9; off++) {
      const buf = new Uint8Array(off + all.length + 3).fill(0xc1);
      buf.set(all, off);
      expect(unpack(buf.subarray(off, off + all.length))).toEqual([258, 16909060, 5n, 1.5, 1.5, -2, -2]);
    }
  });
});

describe('long string areas (made into strings 32 KB at a time)', () => {
  test('strings across, along and beyond chunk boundaries decode exactly (MessagePack and CBOR)', () => {
    const rand = rng(777);
    const pieces = ['a', 'Zq', 'é', '日本', '😀', ' ', '~'];
    const strs = [];
    for (let i = 0; i < 90; i++) {
      // lengths from 0 to ~70,000 characters: some longer than a chunk, most shorter
      const n = i % 9 === 0 ? 33000 + Math.floor(rand() * 37000) : Math.floor(rand() * 9000);
      const ascii = rand() < 0.6;
      let s = '';
      while (s.length < n) s += ascii ? pieces[Math.floor(rand() * 2)] + String.fromCharCode(32 + Math.floor(rand() * 95)) : pieces[Math.floor(rand() * pieces.length)];
      strs.push(s);
    }
    const doc = { strs, keyed: Object.fromEntries(strs.slice(0, 20).map((s, i) => ['k' + i, s])) };
    expect(wp.unpack(wp.pack(doc))).toEqual(doc);
    expect(wp.decode(wp.encode(doc))).toEqual(doc);
    return import('wirepack/cbor').then((cbor) => expect(cbor.decode(cbor.encode(doc))).toEqual(doc));
  });
});

describe('output and aliasing', () => {
  test('pack returns a fresh Uint8Array each time', () => {
    const a = pack({ x: 'first', n: [1, 2, 3] });
    const aHex = hex(a);
    expect(a).toBeInstanceOf(Uint8Array);
    const b = pack({ x: 'second value that is longer', n: [4, 5, 6, 7] });
    expect(hex(a)).toBe(aHex);
    b.fill(0);
    expect(hex(a)).toBe(aHex);
    expect(hex(pack({ x: 'first', n: [1, 2, 3] }))).toBe(aHex);
    a.fill(0xc1);
    expect(hex(pack({ x: 'first', n: [1, 2, 3] }))).toBe(aHex);
  });

  test('results of every size a slab serves stay independent (several slabs)', () => {
    // results up to RESULT_CUTS.slabMax bytes are views of a shared slab (in Node 8 KB of 64 KB,
    // not zero-filled; in browsers 16 KB of 64 KB); sizes step past slabMax, over several slabs
    const { slab, slabMax } = RESULT_CUTS;
    const step = Math.floor(slabMax / 150) | 1;
    const made = [];
    let total = 0;
    for (let n = 0; n < slabMax + 2 * step; n += step) {
      const v = 'x'.repeat(n);
      const b = pack(v);
      total += b.length;
      made.push([b, hex(b)]);
      if (n % 3 === 0) b.fill(0xc1); // writing into one result changes no other
      else if (n % 3 === 1) made[made.length - 1][1] = hex(b);
    }
    expect(total).toBeGreaterThan(3 * slab);
    for (let i = 0; i < made.length; i++) {
      const [b, h] = made[i];
      if (i * step % 3 !== 0) expect(hex(b), `result ${i}`).toBe(h);
      else expect([...b].every((x) => x === 0xc1), `result ${i}`).toBe(true);
    }
  });

  test('a result whose buffer was transferred away (its slab detached) leaves later results whole', () => {
    // a small result is cut from a shared slab: transferring its ArrayBuffer (postMessage with a
    // transfer list, ArrayBuffer#transfer) detaches the slab; the next encodes start a new one
    const v = { s: 'y'.repeat(150), n: [1, 2, 3] };
    const want = hex(pack(v));
    for (const [name, enc] of [['pack', pack], ['CBOR encode', encode], ['Packr#pack', (x) => new Packr().pack(x)]]) {
      for (const detach of [(b) => structuredClone(b, { transfer: [b] }), (b) => /** @type {any} */ (b).transfer?.()]) {
        const first = enc(v);
        const firstHex = hex(first), at = first.byteOffset, n = first.length;
        const gone = detach(first.buffer);
        if (gone === undefined) continue; // (no ArrayBuffer#transfer here)
        expect(first.length, name).toBe(0); // (detached)
        expect(hex(new Uint8Array(gone, at, n)), name).toBe(firstHex);
        for (let i = 0; i < 3; i++) expect(hex(enc(v)), `${name}, call ${i + 1} after the transfer`).toBe(firstHex);
      }
    }
    expect(hex(pack(v))).toBe(want);
  });

  test('pack of alternating tiny and large values is exact every time', () => {
    const rand = rng(4242);
    const sizes = [1, 3_000_000, 2, 70_000, 0, 1_000_000, 10, 300_000, 5];
    const made = [];
    for (const n of sizes) {
      const v = { n, s: 'é'.repeat(n % 1000), bin: seqBytes(n, n & 255), arr: Array.from({ length: n % 500 }, () => Math.floor(rand() * 70000)) };
      const ours = pack(v);
      const theirs = mpEncode(v);
      expectSameBytes(ours, theirs, `size ${n}`);
      made.push([ours, theirs]);
    }
    for (const [bytes, theirs] of made) expectSameBytes(bytes, theirs, 'earlier output'); // unchanged
  }, 60000);

  test('decoded bin/ext are views of the input by default (as msgpackr), copies with copyBuffers', () => {
    const input = fromHex('93c40401020304d6050a0b0c0d' + 'c7030c112233');
    const [bin, ext4, ext3] = unpack(input);
    expect(hex(bin)).toBe('01020304');
    expect([ext4.type, hex(ext4.data), hex(ext3.data)]).toEqual([5, '0a0b0c0d', '112233']);
    // views of the caller's bytes, never of wasm memory
    expect(bin.buffer).toBe(input.buffer);
    expect(ext4.data.buffer).toBe(input.buffer);
    const copies = new wp.Unpackr({ copyBuffers: true, useRecords: false }).unpack(input);
    input.fill(0xee);
    expect(hex(bin)).toBe('eeeeeeee');
    expect(hex(copies[0])).toBe('01020304');
    expect(hex(copies[1].data)).toBe('0a0b0c0d');
    expect(hex(copies[2].data)).toBe('112233');
    expect(copies[0].buffer).not.toBe(input.buffer);
  });

  test('decoded bins do not alias each other or later decodes', () => {
    for (const u of [new wp.Unpackr({ useRecords: false }), new wp.Unpackr({ useRecords: false, copyBuffers: true })]) {
      const msg1 = pack([new Uint8Array([1, 2, 3]), seqBytes(300)]);
      const msg2 = pack([new Uint8Array([7, 7, 7]), seqBytes(300, 100)]);
      const r1 = u.unpack(msg1);
      const r2 = u.unpack(msg2);
      expect(hex(r1[0])).toBe('010203');
      expect(hex(r1[1])).toBe(hex(seqBytes(300)));
      r2[0].fill(0);
      r2[1].fill(0);
      expect(hex(r1[0])).toBe('010203');
      expect(hex(r1[1])).toBe(hex(seqBytes(300)));
      // a view changes with its input; a copy does not
      expect(hex(u.unpack(msg2)[0])).toBe(u.copyBuffers ? '070707' : '000000');
    }
  });

  test('2000 small maps with random keys in a row keep earlier results intact', () => {
    const rand = rng(12345);
    const word = () => {
      const n = 1 + Math.floor(rand() * 12);
      let s = '';
      for (let i = 0; i < n; i++) s += String.fromCharCode(97 + Math.floor(rand() * 26));
      return rand() < 0.1 ? s + 'é' : s;
    };
    const common = Array.from({ length: 30 }, word);
    const values = [];
    for (let i = 0; i < 2000; i++) {
      const o = {};
      const nk = 1 + Math.floor(rand() * 6);
      for (let k = 0; k < nk; k++) {
        const key = rand() < 0.5 ? common[Math.floor(rand() * common.length)] : word() + i;
        const r = rand();
        o[key] = r < 0.25 ? Math.floor(rand() * 1e6) : r < 0.5 ? word() : r < 0.75 ? seqBytes(1 + Math.floor(rand() * 40), i) : [i, word()];
      }
      values.push(o);
    }
    // decode bytes made by another encoder, and by ours
    const decodedA = values.map((v) => unpack(mpEncode(v)));
    const decodedB = values.map((v) => unpack(pack(v)));
    for (let i = 0; i < values.length; i++) {
      expect(canon(decodedA[i])).toEqual(canon(values[i]));
      expect(canon(decodedB[i])).toEqual(canon(values[i]));
    }
  });

  test('a 5 MB message, then more decodes: no result changes', () => {
    const rand = rng(777);
    const items = [];
    for (let i = 0; i < 25000; i++) {
      items.push({
        id: i,
        name: 'item-' + i + '-' + Math.floor(rand() * 1e9).toString(36),
        tags: ['t' + (i % 17), 'ü' + (i % 5)],
        blob: seqBytes(150, i),
        score: rand(),
      });
    }
    const sameItem = (a, b) =>
      a.id === b.id && a.name === b.name && a.score === b.score && a.tags.length === 2 &&
      a.tags[0] === b.tags[0] && a.tags[1] === b.tags[1] && a.blob.length === b.blob.length &&
      a.blob.every((x, j) => x === b.blob[j]) && Object.keys(a).join() === 'id,name,tags,blob,score';
    const countBad = (arr) => arr.reduce((bad, x, i) => bad + (sameItem(x, items[i]) ? 0 : 1), 0);
    const bytes = pack(items);
    expect(bytes.length).toBeGreaterThan(5e6);
    expectSameBytes(bytes, mpEncode(items), '5 MB pack');
    const small = unpack(pack({ before: seqBytes(10), s: 'x' }));
    const big = unpack(bytes);
    expect(big.length).toBe(items.length);
    expect(countBad(big)).toBe(0);
    expect(canon(big.slice(0, 50))).toEqual(canon(items.slice(0, 50)));
    // more decodes after the big one
    for (let i = 0; i < 200; i++) unpack(pack({ i, other: seqBytes(200, 255 - (i & 255)), s: 'y'.repeat(i) }));
    const again = unpack(bytes);
    expect(canon(small)).toEqual(canon({ before: seqBytes(10), s: 'x' }));
    expect(countBad(big)).toBe(0);
    expect(countBad(again)).toBe(0);
    expect(big[24999]).not.toBe(again[24999]);
  }, 60000);
});

describe('unknown extensions', () => {
  test.each([
    'd40110', 'd5022021', 'd60330313233', 'd7044041424344454647', 'd805505152535455565758595a5b5c5d5e5f',
    'c70006', 'c70307707172', 'c7057f0102030405', 'c8010002' + '00'.repeat(256), 'd58001ff',
  ])('%s round-trips', (h) => {
    const v = unpack(fromHex(h));
    expect(typeof v.type).toBe('number');
    expect(v.data).toBeInstanceOf(Uint8Array);
    expect(hex(pack(v))).toBe(h);
    expect(hex(pack([v, { v }]))).toBe('92' + h + '81a176' + h);
  });
  test('type and data', () => {
    const v = unpack(fromHex('c7057f0102030405'));
    expect(v.type).toBe(127);
    expect(hex(v.data)).toBe('0102030405');
    expect(unpack(fromHex('d58001ff')).type).toBe(-128);
  });
});

describe('options', () => {
  const cases = {
    'cf0020000000000001': { number: 9007199254740992, bigint: 9007199254740993n, string: '9007199254740993', auto: 9007199254740993n },
    'cf0020000000000000': { number: 9007199254740992, bigint: 9007199254740992n, string: '9007199254740992', auto: 9007199254740992 },
    'd3ffdfffffffffffff': { number: -9007199254740992, bigint: -9007199254740993n, string: '-9007199254740993', auto: -9007199254740993n },
    'd3ffe0000000000000': { number: -9007199254740992, bigint: -9007199254740992n, string: '-9007199254740992', auto: -9007199254740992 },
    'cf0000000000000005': { number: 5, bigint: 5n, string: '5', auto: 5 },
    'd3fffffffffffffffb': { number: -5, bigint: -5n, string: '-5', auto: -5 },
    'cfffffffffffffffff': { number: 18446744073709551616, bigint: 18446744073709551615n, string: '18446744073709551615', auto: 18446744073709551615n },
    'd38000000000000000': { number: -9223372036854775808, bigint: -9223372036854775808n, string: '-9223372036854775808', auto: -9223372036854775808n },
  };
  test.each(['number', 'bigint', 'string', 'auto'])('int64AsType: %s', (mode) => {
    const u = new Unpackr({ mapsAsObjects: true, int64AsType: mode });
    for (const [h, want] of Object.entries(cases)) {
      expect(u.unpack(fromHex(h)), h).toBe(want[mode]);
      expect(u.unpack(fromHex('92' + h + '01')), h).toEqual([want[mode], 1]);
      expect(u.unpack(fromHex('81a178' + h)).x, h).toBe(want[mode]);
    }
    // other integer widths are always numbers
    expect(u.unpack(fromHex('93ceffffffffd280000000cc80'))).toEqual([4294967295, -2147483648, 128]);
  });

  test('mapsAsObjects: false gives Maps at every level', () => {
    const u = new Unpackr({ mapsAsObjects: false });
    const m = u.unpack(fromHex('82a16181a162c3' + '01' + '80'));
    expect(m).toBeInstanceOf(Map);
    expect([...m.keys()]).toEqual(['a', 1]);
    expect(m.get('a')).toEqual(new Map([['b', true]]));
    expect(m.get(1)).toEqual(new Map());
    expect(u.unpack(fromHex('9180'))[0]).toBeInstanceOf(Map);
    // the default: keys that are strings, numbers, nil or booleans -> an object (msgpackr coerces
    // them to property names), any other key (bytes, arrays, maps, extensions) -> a Map
    const d = unpack(fromHex('82a16181a162c3' + '01' + '80'));
    expect(d).toEqual({ a: { b: true }, 1: {} });
    expect(Object.keys(d)).toEqual(['1', 'a']);
    expect(unpack(fromHex('81a16101'))).toEqual({ a: 1 });
    expect(unpack(fromHex('84c001c202cb3ff800000000000003d0ff04'))).toEqual({ null: 1, false: 2, '1.5': 3, '-1': 4 });
    expect(unpack(fromHex('81d4000001'))).toEqual({ undefined: 1 }); // msgpackr's undefined
    // records on (new Unpackr's table): a key byte 0x40..0x7f is an integer while no record has its id
    expect(new Unpackr({ mapsAsObjects: true }).unpack(fromHex('814101'))).toEqual({ 65: 1 });
    expect(unpack(fromHex('8191010a'))).toEqual(new Map([[[1], 10]]));
    const withBin = unpack(fromHex('82a16101c4010203'));
    expect(withBin).toBeInstanceOf(Map);
    expect(withBin.get('a')).toBe(1);
    expect([...withBin.values()]).toEqual([1, 3]);
  });

  test('useFloat32: ALWAYS writes ca', () => {
    const p = new Packr({ useRecords: false, useFloat32: FLOAT32_OPTIONS.ALWAYS });
    expect(hex(p.pack(1.5))).toBe('ca3fc00000');
    expect(hex(p.pack({ f: 0.25 }))).toBe('81a166ca3e800000');
    expect(hex(new Packr({ useRecords: false, useFloat32: FLOAT32_OPTIONS.NEVER }).pack(1.5))).toBe('cb3ff8000000000000');
    expect(hex(new Packr({ useRecords: false }).pack(1.5))).toBe('cb3ff8000000000000');
  });

  test('maxDepth option', () => {
    expect(new Unpackr({ mapsAsObjects: true, maxDepth: 2 }).unpack(fromHex('9191c0'))).toEqual([[null]]);
    expect(() => new Unpackr({ mapsAsObjects: true, maxDepth: 2 }).unpack(fromHex('919191c0'))).toThrow(DecodeError);
  });
});

describe('invalid UTF-8 decodes like TextDecoder (U+FFFD replacement)', () => {
  const td = new TextDecoder();
  const strHeader = (n) => (n < 32 ? hex([0xa0 | n]) : n < 256 ? 'd9' + hex([n]) : 'da' + hex([n >> 8, n & 255]));
  const samples = {
    'c3 28': 'c328', 'overlong c0 80': 'c080', 'overlong e0 80 80': 'e08080', 'overlong f0 80 80 80': 'f0808080',
    'surrogate ed a0 80': 'eda080', 'surrogate pair as two': 'eda0bdedb2a9', 'truncated f0 9f 8d': 'f09f8d',
    'truncated then ascii': 'f09f8d41', 'truncated e2 82': 'e282', '> U+10FFFF f4 90 80 80': 'f4908080',
    'f5..ff': 'f5f8fcfeff', 'lone continuation 80': '80', 'continuations bf 80 bf': 'bf80bf',
    'mixed with valid': '61c3a962e282ac63f09f8dba64ff65', 'valid then cut': '61e282ace2', 'c2 at end': '6161c2',
  };
  test.each(Object.entries(samples))('%s', (_, h) => {
    const b = fromHex(h);
    const want = td.decode(b);
    expect(want).toContain('\ufffd');
    expect(unpack(fromHex(strHeader(b.length) + h))).toBe(want);
    // as a map key (objects), and in Maps
    expect(Object.keys(unpack(fromHex('81' + strHeader(b.length) + h + '01')))).toEqual([want]);
    expect(unpack(fromHex('82' + strHeader(b.length) + h + '01' + 'c40102' + '03')).get(want)).toBe(1);
    // long strings (a different code path in many decoders), invalid byte in the middle and at the end
    const long = concat(utf8('x'.repeat(100)), b, utf8('é'.repeat(50)), b);
    const longWant = td.decode(long);
    expect(unpack(concat(fromHex(strHeader(long.length)), long))).toBe(longWant);
    const ascii = concat(utf8('k'.repeat(70)), b);
    expect(Object.keys(unpack(concat(fromHex('81' + strHeader(ascii.length)), ascii, [1])))).toEqual([td.decode(ascii)]);
    // twice: the second decode may hit the interned key
    expect(Object.keys(unpack(fromHex('81' + strHeader(b.length) + h + '01')))).toEqual([want]);
  });
  test('valid multibyte strings of many lengths', () => {
    const rand = rng(99);
    const alphabet = ['a', 'é', '€', '🍺', '\u0000', '\uffff', 'ÿ', '\u07ff', '\u0800', '\u{10ffff}'];
    for (let i = 0; i < 400; i++) {
      let s = '';
      const n = Math.floor(rand() * (i < 300 ? 40 : 400));
      for (let j = 0; j < n; j++) s += alphabet[Math.floor(rand() * alphabet.length)];
      const b = utf8(s);
      const bytes = concat(fromHex(strHeader(b.length)), b);
      expect(unpack(bytes)).toBe(s);
      expect(hex(pack(s))).toBe(hex(bytes));
    }
  });
  test('runs of ASCII between valid, cut and invalid sequences, in MessagePack and CBOR', async () => {
    // the decoders widen 16 bytes at a time up to the first that is not ASCII, then decode
    // sequences one by one up to the next ASCII byte: every length of run, every position in a
    // block, every kind of sequence after it
    const cbor = await import('wirepack/cbor');
    const rand = rng(7);
    const pieces = ['c3a9', 'e282ac', 'f09f8dba', 'c3', 'e282', 'f09f8d', '80', 'bf', 'c0', 'eda080', 'f4908080', 'ff', 'e0a0', 'c2c280'].map(fromHex);
    for (let i = 0; i < 600; i++) {
      const parts = [];
      const k = 1 + Math.floor(rand() * 6);
      for (let j = 0; j < k; j++) {
        parts.push(utf8('abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ'.slice(0, Math.floor(rand() * 40))));
        parts.push(pieces[Math.floor(rand() * pieces.length)]);
      }
      if (rand() < 0.5) parts.push(utf8('t'.repeat(Math.floor(rand() * 20))));
      const b = concat(...parts);
      const want = td.decode(b);
      expect(unpack(concat(fromHex(strHeader(b.length)), b))).toBe(want);
      expect(cbor.decode(concat(cborHead(3, b.length), b))).toBe(want);
    }
  });
});

describe('the encode tape lives in wasm memory', () => {
  // user code that packs and unpacks during the walk (a spare instance serves it), values that
  // grow memory before and after it, and both formats: the outer result is exact
  test('nested calls and memory growth in the middle of a walk', async () => {
    const cbor = await import('wirepack/cbor');
    const big1 = 'x'.repeat(300000) + '\u00e9', big2 = 'y'.repeat(3000000);
    const inner = { list: Array.from({ length: 5000 }, (_, i) => ({ i, s: 'v' + i })) };
    // MessagePack: msgpackr calls toJSON of class instances; CBOR (cbor-x does not): an extension
    class Nested { toJSON() { return unpack(pack(inner)).list.length; } }
    class CborNested {}
    cbor.addExtension({ Class: CborNested, tag: 40998, encode: (_v, enc) => enc(cbor.decode(cbor.encode(inner)).list.length), decode: (n) => n });
    for (const [enc, dec, nested] of [[pack, unpack, new Nested()], [cbor.encode, cbor.decode, new CborNested()]]) {
      const v = [big1, nested, { k: [1.5, -2, 'z'] }, big2, nested, 'tail'];
      expect(dec(enc(v))).toEqual([big1, 5000, { k: [1.5, -2, 'z'] }, big2, 5000, 'tail']);
      expect(dec(enc({ a: [1, 'b'] }))).toEqual({ a: [1, 'b'] });
    }
  });
});

describe('map keys through the key cache', () => {
  // keys are cached as their encoded words; the cache is emptied when full, and set aside for a
  // while after a run of keys that never repeat: every path gives the same bytes as
  // @msgpack/msgpack (which writes the same smallest forms)
  test('repeated, long, non-ASCII, evicted and never-repeating keys', () => {
    const fixed = { id: 1, name: 'n', 'ключ': 2, ['k'.repeat(33)]: 3, ['é'.repeat(20)]: 4, '': 5 };
    for (let i = 0; i < 3; i++) expectSameBytes(pack(fixed), mpEncode(fixed), 'fixed keys #' + i);
    let c = 0;
    for (let round = 0; round < 3; round++) {
      // 6,000 objects of 5 keys never seen before (past the cache size and its miss window)
      for (let j = 0; j < 6000; j++) {
        const o = {};
        for (let i = 0; i < 5; i++) o['key' + (c++)] = i;
        if (j % 500 === 0) expectSameBytes(pack(o), mpEncode(o), 'distinct keys ' + j);
        else pack(o);
      }
      expectSameBytes(pack(fixed), mpEncode(fixed), 'fixed keys after distinct ones');
      expect(unpack(pack(fixed))).toEqual(fixed);
    }
  });

  test('a key cache that fills up in the middle of a map: the keys written before and after stay right', async () => {
    const cbor = await import('wirepack/cbor');
    // 300,000 keys that repeat: past any set-aside left by the tests before
    const same = Array.from({ length: 30000 }, (_, i) => ({ a: i, b: 1, c: 2, d: 3, e: 4, f: 5, g: 6, h: 7, i: 8, j: 9 }));
    expect(unpack(pack(same))).toEqual(same);
    // the outer keys are cached by a first pack; in the second, 2,500 new 32-character keys
    // (60 bytes each, after two repeated keys, so the cache is not set aside) fill the key area
    // while the outer map is open: the keys written before (referring to the area) and after
    // must come out right, in this call and the next
    const outer = (inner) => ({ alpha: 1, beta: [2], inner, delta: 'd', epsilon: { zeta: 5 }, eta: 'é' });
    const inner = Array.from({ length: 2500 }, (_, i) => ({ r1: i, r2: 'x', ['é'.repeat(28) + String(i).padStart(4, '0')]: i }));
    for (let round = 0; round < 3; round++) {
      expectSameBytes(pack(outer([])), mpEncode(outer([])), 'outer alone #' + round);
      expectSameBytes(pack(outer(inner)), mpEncode(outer(inner)), 'outer with the keys #' + round);
      expect(cbor.decode(cbor.encode(outer(inner)))).toEqual(outer(inner));
    }
  });

  test('maps nested under the same key, with other shapes there and the same keys elsewhere', async () => {
    const cbor = await import('wirepack/cbor');
    const cborX = await import('cbor-x');
    // (cbor-x with variableMapSize: wirepack always writes the smallest map headers)
    const cx = new cborX.Encoder({ variableMapSize: true, useRecords: false });
    // the first key of a nested map is looked up after the key holding it, and a key written
    // after several keys has one cached entry: every placement must keep its own key order
    const rand = rng(7);
    const names = ['a', 'b', 'x', 'y', 'id', 'ключ'];
    const pick = () => names[Math.floor(rand() * names.length)];
    const docs = [];
    for (let i = 0; i < 400; i++) {
      const inner = {};
      for (let k = 0; k < 1 + (i % 4); k++) inner[pick()] = k;
      docs.push({
        a: { x: i, y: { x: 1, a: { x: 2 } } },
        b: [{ x: 1 }, { y: 2, x: 3 }, { a: { b: 1 } }, inner],
        x: { a: 1 },
        [pick()]: { y: { y: { y: i } }, [pick()]: inner },
        id: i % 5 === 0 ? { ...inner, id: 'é' } : inner,
      });
    }
    for (let round = 0; round < 2; round++) {
      for (const d of docs) {
        expectSameBytes(pack(d), mpEncode(d), `round ${round} doc ${JSON.stringify(d)}`);
        expectSameBytes(cbor.encode(d), cx.encode(d), `CBOR round ${round} doc ${JSON.stringify(d)}`);
      }
    }
  });

  test('a pack in the middle of a map that empties the key cache leaves the outer keys right', () => {
    let c = 0;
    class Nested {
      toJSON() {
        // 20,000 keys never seen before: the cache starts again (and is set aside) meanwhile
        const o = {};
        for (let i = 0; i < 20000; i++) o['nested' + (c++)] = i;
        return unpack(pack(o)).nested0 === undefined ? 'again' : 'first';
      }
    }
    for (let i = 0; i < 4; i++) {
      const outer = { alpha: 1, beta: [2], gamma: new Nested(), delta: 'd', epsilon: { zeta: 5 } };
      const bytes = pack(outer);
      const want = { alpha: 1, beta: [2], gamma: i === 0 ? 'first' : 'again', delta: 'd', epsilon: { zeta: 5 } };
      expectSameBytes(bytes, mpEncode(want), 'outer map #' + i);
    }
  });
});

// Shapes get a generated constructor on their third use within a call, or on their third use
// over all calls while the runtime has fewer than 256 such constructors: past that budget, rare
// shapes are built key by key. Both ways must give the same objects.
describe('shapes past the constructor budget', () => {
  test('1,000 shapes used once per message, decoded repeatedly, with __proto__ and constructor keys', () => {
    const rand = rng(99);
    const names = ['id', 'type', 'name', 'value', '__proto__', 'constructor', 'kind', 'data'];
    const doc = Array.from({ length: 1000 }, (_, i) => {
      const o = {};
      for (let k = 0; k < 1 + (i % 5); k++) {
        const key = rand() < 0.3 ? names[Math.floor(rand() * names.length)] : 'k' + Math.floor(rand() * 4000);
        Object.defineProperty(o, key, { value: i * 10 + k, enumerable: true, writable: true, configurable: true });
      }
      return o;
    });
    const expected = canon(doc);
    const bytes = wp.pack(doc);
    for (let round = 0; round < 6; round++) {
      const back = wp.unpack(bytes);
      expect(canon(back), `round ${round}`).toEqual(expected);
      for (const o of back) expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    }
    // and a shape repeated within one message
    const same = Array.from({ length: 8 }, (_, i) => JSON.parse(`{"a": ${i}, "__proto__": [${i}], "b": "x"}`));
    const back = wp.unpack(wp.pack(same));
    expect(canon(back)).toEqual(canon(same));
    for (const o of back) expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
  });
});
