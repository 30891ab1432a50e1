// The README's "Coming from @msgpack/msgpack, msgpack-lite or notepack.io": with the two options
// it names, each side reads what the other writes as the same values; without them, undefined and
// integers past 32 bits are where msgpackr's defaults differ. (A file of its own: the msgpack-lite
// Date extension is registered with addExtension, which holds for the whole module instance.)
import { describe, test, expect } from 'vitest';
import { createRequire } from 'node:module';
import * as mm from '@msgpack/msgpack';
import { Packr, Unpackr, PackrStream, UnpackrStream, pack, unpack, addExtension } from 'wirepack';

const require = createRequire(import.meta.url);
const lite = require('msgpack-lite');
const notepack = require('notepack.io');

const packr = new Packr({ useRecords: false, encodeUndefinedAsNil: true });
const unpackr = new Unpackr({ useRecords: false, int64AsType: 'auto' });
const when = new Date(1700000000123);
const value = () => ({ a: 1, u: undefined, s: 'text', d: when, n: [1.5, -3, 2 ** 40, -(2 ** 40), 2 ** 31], b: new Uint8Array([1, 2]), o: { x: [true, null] } });
// as the peers give it back: undefined is nil (null); notepack.io leaves undefined properties out
const asRead = { a: 1, u: null, s: 'text', d: when, n: [1.5, -3, 2 ** 40, -(2 ** 40), 2 ** 31], b: new Uint8Array([1, 2]), o: { x: [true, null] } };
const bytesOf = (x) => (x instanceof Uint8Array ? new Uint8Array(x) : x);
const norm = (v) => JSON.parse(JSON.stringify(v, (k, x) => (x && x.type === 'Buffer' ? x.data : x instanceof Uint8Array ? [...x] : x)));

describe('@msgpack/msgpack', () => {
  test('reads what the Packr writes, and the Unpackr reads what it writes', () => {
    expect(norm(mm.decode(packr.pack(value())))).toEqual(norm(asRead));
    expect(norm(unpackr.unpack(mm.encode(value())))).toEqual(norm(asRead));
    expect(bytesOf(unpackr.unpack(mm.encode(value())).b)).toEqual(new Uint8Array([1, 2]));
  });
  test("msgpackr's defaults: undefined as d4 00 00 (an extension there), uint64 as BigInt", () => {
    expect(mm.decode(pack({ u: undefined })).u).toBeInstanceOf(mm.ExtData);
    expect(unpack(mm.encode(2 ** 40))).toBe(2n ** 40n);
    expect(unpackr.unpack(mm.encode(2 ** 40))).toBe(2 ** 40);
    // past 2^53 'auto' keeps the exact value, where @msgpack/msgpack rounds
    expect(unpackr.unpack(Buffer.from('cf0020000000000001', 'hex'))).toBe(2n ** 53n + 1n);
  });
  test('a Map is a map (theirs: {})', () => {
    expect(mm.decode(packr.pack(new Map([['k', 1]])))).toEqual({ k: 1 });
  });
});

describe('notepack.io', () => {
  test('each reads the other', () => {
    const { u, ...withoutU } = asRead;
    expect(norm(notepack.decode(packr.pack(value())))).toEqual(norm(asRead));
    expect(norm(unpackr.unpack(notepack.encode(value())))).toEqual(norm(withoutU));
    expect(unpack(notepack.encode(2 ** 40))).toBe(2n ** 40n);
    expect(unpackr.unpack(notepack.encode(2 ** 40))).toBe(2 ** 40);
  });
});

describe('msgpack-lite', () => {
  test('each reads the other but Dates; its Date extension through addExtension', () => {
    const { d, ...noDate } = asRead;
    const v = value();
    delete v.d;
    expect(norm(lite.decode(packr.pack(v)))).toEqual(norm(noDate));
    // (lite writes Uint8Arrays as its extension 0x12; a Buffer is a plain bin)
    const lv = { ...v, b: Buffer.from([1, 2]) };
    expect(norm(unpackr.unpack(lite.encode(lv)))).toEqual(norm(noDate));
    expect(lite.decode(pack({ u: undefined })).u).not.toBe(null);
    expect(unpack(lite.encode(when)).type).toBe(13);
    addExtension({ type: 13, unpack: (b) => new Date(unpack(b)) });
    expect(unpack(lite.encode(when))).toEqual(when);
  });
  test('createEncodeStream / createDecodeStream: PackrStream without records / UnpackrStream', async () => {
    const s = new PackrStream({ useRecords: false, encodeUndefinedAsNil: true });
    const chunks = [];
    s.on('data', (c) => chunks.push(c));
    s.write({ a: 1, u: undefined });
    s.write([1, 'x']);
    s.end();
    await new Promise((r) => s.on('end', r));
    const d = lite.createDecodeStream();
    const got = [];
    d.on('data', (x) => got.push(x));
    d.end(Buffer.concat(chunks));
    await new Promise((r) => d.on('end', r));
    expect(got).toEqual([{ a: 1, u: null }, [1, 'x']]);
    const e = lite.createEncodeStream();
    const back = new UnpackrStream({ useRecords: false });
    const values = [];
    back.on('data', (x) => values.push(x));
    e.pipe(back);
    e.write({ a: 2 });
    e.write('y');
    e.end();
    await new Promise((r) => back.on('end', r));
    expect(values).toEqual([{ a: 2 }, 'y']);
  });
});
