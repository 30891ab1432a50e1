// Node: wasm memory comes back to a small working set after a very large message.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, test, vi } from 'vitest';
import { Packr, pack, unpack } from 'wirepack';
import { encode, decode } from 'wirepack/cbor';
import { runtime, RELEASE_MEMORY_BYTES, RELEASE_DELAY_MS, RELEASE_AFTER_CALLS } from '../js/src/runtime.js';
import { replaced } from './helpers/release.js';

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

/** Timers that keep the event loop alive. */
const refTimers = () => process.getActiveResourcesInfo().filter((x) => x === 'Timeout').length;

// A call that writes past RELEASE_MEMORY_BYTES leaves the instance to its keeper, which replaces it
// once calls stop doing so; nothing may keep the old memory alive afterwards. A Packr's tape kept
// views of it until the Packr's next call: encoding a value of RELEASE_MEMORY_BYTES then kept
// about twice that resident.
const packr = new Packr({ structures: [] });
for (const [name, enc, dec, tapeOf] of /** @type {const} */ ([
  ['MessagePack, the default Packr', pack, unpack, null],
  ['MessagePack, a Packr of its own', (/** @type {any} */ v) => packr.pack(v), (/** @type {Uint8Array} */ b) => packr.unpack(b), () => /** @type {any} */ (packr).tape],
  ['CBOR', encode, decode, null],
])) {
  test(`${name}: the memory a large message grew is not kept once calls stop needing it`, async () => {
    const size = RELEASE_MEMORY_BYTES;
    const start = await settledRss();
    let bytes = enc({ big: new Uint8Array(size).fill(3), s: 'x'.repeat(100) });
    /** @type {any} (dropped once replaced: it holds the old memory) */
    let grown = runtime();
    expect(grown.keeper.wroteBig).toBe(true);
    if (tapeOf) {
      const tape = tapeOf();
      expect([tape.rt, tape.u8.length, tape.u32.length, tape.f64.length, tape.nb]).toEqual([null, 0, 0, 0, null]);
    }
    await replaced(runtime, grown);
    grown = null;
    expect(runtime().memory.buffer.byteLength).toBeLessThanOrEqual(RELEASE_MEMORY_BYTES);
    // what is left: the result (size) and a working set; the old memory held the tape (size) and its output (size)
    expect(await settledRss() - start).toBeLessThan(size * 1.5);
    expect(dec(bytes).big.length).toBe(size); // (a view of bytes)
    let again = runtime();
    expect(again.keeper.wroteBig).toBe(true); // (the input's copy)
    expect(dec(enc([1, 'a']))).toEqual([1, 'a']);
    await replaced(runtime, again);
    again = null;
    bytes = new Uint8Array(0);
    expect(await settledRss() - start).toBeLessThan(size * 0.5);
  });
}

test('large messages in a row keep the grown instance; it goes RELEASE_DELAY_MS after the last, by a timer that keeps no process alive', async () => {
  const big = new Uint8Array(40 * 1024 * 1024).fill(1);
  const timers = refTimers();
  const bytes = pack({ big });
  const grown = runtime();
  for (let i = 0; i < 3; i++) {
    expect(unpack(bytes).big.length).toBe(big.length);
    expect(runtime() === grown).toBe(true);
  }
  expect(grown.memory.buffer.byteLength).toBeGreaterThan(RELEASE_MEMORY_BYTES);
  expect(grown.keeper.wroteBig).toBe(true);
  expect(refTimers()).toBe(timers);
  expect(unpack(pack([1, 2]))).toEqual([1, 2]);
  await replaced(runtime, grown);
  expect(runtime().memory.buffer.byteLength).toBeLessThanOrEqual(RELEASE_MEMORY_BYTES);
  expect(unpack(pack([1, 2]))).toEqual([1, 2]);
});

test('a large message while the keeper waits postpones the release; RELEASE_AFTER_CALLS small ones in a row release at once', () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    const bytes = pack({ big: new Uint8Array(40 * 1024 * 1024).fill(1) });
    const grown = runtime();
    vi.advanceTimersByTime(0.7 * RELEASE_DELAY_MS);
    expect(unpack(bytes).big.length).toBe(40 * 1024 * 1024);
    vi.advanceTimersByTime(0.7 * RELEASE_DELAY_MS);
    expect(runtime() === grown).toBe(true); // 1.4x after the first, 0.7x after the last
    vi.advanceTimersByTime(0.7 * RELEASE_DELAY_MS);
    expect(runtime() === grown).toBe(false); // past 2x
    // no timer: small calls in a row (a synchronous loop) release it; a large one starts the count again
    const one = pack([1]);
    unpack(bytes);
    const loop = runtime();
    for (let i = 0; i < RELEASE_AFTER_CALLS - 1; i++) unpack(one);
    unpack(bytes);
    for (let i = 0; i < RELEASE_AFTER_CALLS - 1; i++) unpack(one);
    expect(runtime() === loop).toBe(true);
    expect(unpack(one)).toEqual([1]);
    expect(runtime() === loop).toBe(false);
    expect(runtime().memory.buffer.byteLength).toBeLessThanOrEqual(RELEASE_MEMORY_BYTES);
    vi.advanceTimersByTime(3 * RELEASE_DELAY_MS); // (the timer it cleared does nothing)
    expect(unpack(pack([2]))).toEqual([2]);
    // a timer that finds the instance held waits for the next (calls are synchronous, so only a guard)
    unpack(bytes);
    const held = runtime();
    held.busy = 1;
    vi.advanceTimersByTime(2.5 * RELEASE_DELAY_MS);
    expect(runtime() === held).toBe(true);
    held.busy = 0;
    vi.advanceTimersByTime(1.5 * RELEASE_DELAY_MS);
    expect(runtime() === held).toBe(false);
    expect(unpack(one)).toEqual([1]);
  } finally {
    vi.useRealTimers();
  }
});

test('a decode that reserves memory past RELEASE_MEMORY_BYTES but writes below it keeps the instance', async () => {
  // ~4 MB of CBOR small integers: the layout reserves 17 bytes per input byte (> 64 MiB); the
  // tape, last, starts about 4 bytes per input byte in and takes 8 per integer (a number run)
  const n = Math.ceil(RELEASE_MEMORY_BYTES / 17) + 1000;
  const ints = Array.from({ length: n }, (_, i) => i & 15);
  const bytes = encode(ints);
  expect(bytes.length * 17).toBeGreaterThan(RELEASE_MEMORY_BYTES);
  if (runtime().keeper.wroteBig) await replaced(runtime, runtime());
  const before = runtime();
  const back = decode(bytes);
  expect(back.length).toBe(n);
  expect(back[n - 1]).toBe(ints[n - 1]);
  expect(runtime().memory.buffer.byteLength).toBeGreaterThan(RELEASE_MEMORY_BYTES);
  expect(runtime() === before).toBe(true);
  expect(before.keeper.wroteBig).toBe(false);
  expect(before.keeper.timer).toBe(null);
  // an encode whose walk throws after writing a tape past the limit into memory already there
  const size = runtime().memory.buffer.byteLength;
  const tapeOnly = new Array(Math.ceil(RELEASE_MEMORY_BYTES / 8) + 1000).fill(0.5);
  tapeOnly.push(Symbol('not packable'));
  expect((tapeOnly.length - 1) * 8).toBeLessThan(size - 2 * 1024 * 1024); // fits: memory does not grow
  expect(() => encode(tapeOnly)).toThrow(TypeError);
  expect(before.keeper.wroteBig).toBe(true);
  await replaced(runtime, before);
  expect(runtime().memory.buffer.byteLength).toBeLessThanOrEqual(RELEASE_MEMORY_BYTES);
  // decode again, then one that writes past the limit (a long binary: its input and the string areas below the tape)
  expect(decode(bytes).length).toBe(n);
  const again = runtime();
  expect(again.memory.buffer.byteLength).toBeGreaterThan(RELEASE_MEMORY_BYTES);
  expect(again.keeper.wroteBig).toBe(false);
  decode(encode(new Uint8Array(RELEASE_MEMORY_BYTES / 3)));
  expect(again.keeper.wroteBig).toBe(true);
  await replaced(runtime, again);
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
  expect([r.shared, r.recs, r.defs, r.refs, r.refMap]).toEqual([null, null, null, null, null]);
  // and the next call starts from scratch
  expect(unpack(input)).toEqual(value);
  expect(unpack(pack([1, 'a']))).toEqual([1, 'a']);
});
