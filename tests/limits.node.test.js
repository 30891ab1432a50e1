// Node: wasm memory comes back to a small working set after a very large message.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, test } from 'vitest';
import { Packr, pack, unpack } from 'wirepack';
import { encode, decode } from 'wirepack/cbor';
import { runtime, RELEASE_MEMORY_BYTES } from '../js/src/runtime.js';

setFlagsFromString('--expose-gc');
const gc = /** @type {() => void} */ (runInNewContext('gc'));

/** Resident memory after full collections (weak references and freed memory settle between tasks). */
async function settledRss() {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 0));
    gc();
  }
  return process.memoryUsage().rss;
}

// Each call that grows memory past RELEASE_MEMORY_BYTES replaces the instance; nothing may keep
// the old memory alive afterwards. A Packr's tape kept views of it until the Packr's next call:
// encoding a value of RELEASE_MEMORY_BYTES then kept about twice that resident.
const packr = new Packr({ structures: [] });
for (const [name, enc, dec, tapeOf] of /** @type {const} */ ([
  ['MessagePack, the default Packr', pack, unpack, null],
  ['MessagePack, a Packr of its own', (/** @type {any} */ v) => packr.pack(v), (/** @type {Uint8Array} */ b) => packr.unpack(b), () => /** @type {any} */ (packr).tape],
  ['CBOR', encode, decode, null],
])) {
  test(`${name}: the memory a large message grew is not kept after the call`, async () => {
    const size = RELEASE_MEMORY_BYTES;
    const start = await settledRss();
    let bytes = enc({ big: new Uint8Array(size).fill(3), s: 'x'.repeat(100) });
    expect(runtime().memory.buffer.byteLength).toBeLessThanOrEqual(RELEASE_MEMORY_BYTES);
    if (tapeOf) {
      const tape = tapeOf();
      expect([tape.rt, tape.u8.length, tape.u32.length, tape.f64.length, tape.nb]).toEqual([null, 0, 0, 0, null]);
    }
    // what is left: the result (size) and a working set; the old memory held the tape (size) and its output (size)
    expect(await settledRss() - start).toBeLessThan(size * 1.5);
    expect(dec(bytes).big.length).toBe(size); // (a view of bytes)
    expect(dec(enc([1, 'a']))).toEqual([1, 'a']);
    bytes = new Uint8Array(0);
    expect(await settledRss() - start).toBeLessThan(size * 0.5);
  });
}

test('memory grown by a large message is released after the call', () => {
  const big = new Uint8Array(40 * 1024 * 1024).fill(1);
  const bytes = pack({ big });
  const back = unpack(bytes);
  expect(back.big.length).toBe(big.length);
  expect(runtime().memory.buffer.byteLength).toBeLessThanOrEqual(RELEASE_MEMORY_BYTES);
  expect(unpack(pack([1, 2]))).toEqual([1, 2]);
});

test('a decode that reserves memory past RELEASE_MEMORY_BYTES but writes below it keeps the instance', () => {
  // ~4 MB of CBOR small integers: the layout reserves 17 bytes per input byte (> 64 MiB); the
  // tape, last, starts about 4 bytes per input byte in and takes 8 per integer (a number run)
  const n = Math.ceil(RELEASE_MEMORY_BYTES / 17) + 1000;
  const ints = Array.from({ length: n }, (_, i) => i & 15);
  const bytes = encode(ints);
  expect(bytes.length * 17).toBeGreaterThan(RELEASE_MEMORY_BYTES);
  const before = runtime();
  const back = decode(bytes);
  expect(back.length).toBe(n);
  expect(back[n - 1]).toBe(ints[n - 1]);
  expect(runtime().memory.buffer.byteLength).toBeGreaterThan(RELEASE_MEMORY_BYTES);
  expect(runtime().x.wpw_touched()).toBeLessThanOrEqual(RELEASE_MEMORY_BYTES);
  expect(runtime() === before).toBe(true);
  // an encode whose walk throws after writing a tape past the limit into memory already there
  const size = runtime().memory.buffer.byteLength;
  const tapeOnly = new Array(Math.ceil(RELEASE_MEMORY_BYTES / 8) + 1000).fill(0.5);
  tapeOnly.push(Symbol('not packable'));
  expect((tapeOnly.length - 1) * 8).toBeLessThan(size - 2 * 1024 * 1024); // fits: memory does not grow
  expect(() => encode(tapeOnly)).toThrow(TypeError);
  expect(runtime() === before).toBe(false); // (booleans: a diff of two runtimes is huge)
  expect(runtime().memory.buffer.byteLength).toBeLessThanOrEqual(RELEASE_MEMORY_BYTES);
  // decode again, then one that writes past the limit (a long binary: its input and the string areas below the tape)
  expect(decode(bytes).length).toBe(n);
  const again = runtime();
  expect(again.memory.buffer.byteLength).toBeGreaterThan(RELEASE_MEMORY_BYTES);
  decode(encode(new Uint8Array(RELEASE_MEMORY_BYTES / 3)));
  expect(runtime() === again).toBe(false);
  expect(runtime().memory.buffer.byteLength).toBeLessThanOrEqual(RELEASE_MEMORY_BYTES);
  expect(decode(encode([1, 'a']))).toEqual([1, 'a']);
});

test('the tape reader a runtime keeps references nothing of the last call', () => {
  const input = pack({ s: 'x'.repeat(300), u: 'ü'.repeat(50), b: new Uint8Array(10), n: [1, 2] });
  const value = unpack(input);
  const r = /** @type {any} */ (runtime()).reader;
  expect(r).not.toBeNull();
  // the input (which may be large), the joined string areas and the options are dropped
  expect(r.input.length).toBe(0);
  expect(r.opts).toBeNull();
  expect(r.A + r.U + r.b1 + r.b2).toBe('');
  expect([r.shared, r.recs, r.defs, r.refs]).toEqual([null, null, null, null]);
  // and the next call starts from scratch
  expect(unpack(input)).toEqual(value);
  expect(unpack(pack([1, 'a']))).toEqual([1, 'a']);
});
