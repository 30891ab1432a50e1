// wirepack/transcode and wasm memory: what large calls grow is released once they stop (as the
// main codec's is, tests/limits.node.test.js), and an input whose worst-case output bound is
// beyond wasm32's 4 GiB still converts when its output fits.
import { expect, test } from 'vitest';
import { transcode, validate, find } from '../js/src/transcode.node.js';
import { tcRuntime } from '../js/src/transcode-runtime.js';
import { RELEASE_MEMORY_BYTES } from '../js/src/runtime.js';
import { replaced } from './helpers/release.js';

/** Wait until `grown` is no longer the instance (tests/helpers/release.js), and see memory small again. @param {unknown} grown */
const replacedOf = async (grown) => {
  await replaced(tcRuntime, grown);
  expect(tcRuntime().u8.length).toBeLessThanOrEqual(RELEASE_MEMORY_BYTES);
};

/** MessagePack of an array of `n` strings of `k` ASCII letters (str8 heads). */
function strings(n, k) {
  const b = Buffer.alloc(5 + n * (k + 2), 0x61);
  b[0] = 0xdd;
  b.writeUInt32BE(n, 1);
  for (let i = 0, p = 5; i < n; i++, p += k + 2) {
    b[p] = 0xd9;
    b[p + 1] = k;
    b[p + 2] = 0x30 + (i % 10);
  }
  return b;
}

/** JSON.stringify of what strings(n, k) decodes to, without building it. */
const jsonLength = (n, k) => 2 + n * (k + 2) + (n - 1);

test('memory grown past RELEASE_MEMORY_BYTES by conversions is kept while they need it and released after', async () => {
  // 20 MB in: input, scratch (4 bytes per input byte) and output together write past 64 MiB
  const n = 200_000, k = 100;
  const input = strings(n, k);
  const s = /** @type {string} */ (transcode(input, { from: 'msgpack', to: 'json' }));
  expect(s.length).toBe(jsonLength(n, k));
  expect(s.slice(0, 6)).toBe('["0aaa');
  expect(s.slice(-6)).toBe('aaaa"]');
  const grown = tcRuntime();
  expect(grown.keeper.wroteBig).toBe(true);
  expect(transcode(input, { from: 'msgpack', to: 'json' })).toBe(s);
  expect(tcRuntime() === grown).toBe(true);
  await replacedOf(grown);
  // and the fresh instance works
  expect(transcode(strings(2, 3), { from: 'msgpack', to: 'json' })).toBe('["0aa","1aa"]');
});

test('a conversion that reserves past RELEASE_MEMORY_BYTES but writes below it keeps the instance', () => {
  // 6 MB in reserves 13x (the 8x JSON bound among it) and writes about 6x
  const n = 60_000, k = 100;
  const s = /** @type {string} */ (transcode(strings(n, k), { from: 'msgpack', to: 'json' }));
  expect(s.length).toBe(jsonLength(n, k));
  expect(tcRuntime().u8.length).toBeGreaterThan(RELEASE_MEMORY_BYTES);
  const grown = tcRuntime();
  transcode(strings(n, k), { from: 'msgpack', to: 'json' });
  expect(tcRuntime()).toBe(grown);
  expect(grown.keeper.wroteBig).toBe(false);
  expect(grown.keeper.timer).toBe(null);
});

test('validate, find and a failing conversion release what they wrote', async () => {
  const big = strings(700_000, 100); // 71 MB: the input copy alone writes past 64 MiB
  /** @param {() => unknown} call */
  const releases = async (call) => {
    const before = tcRuntime();
    call();
    const grown = tcRuntime();
    expect(grown === before || !before.keeper.wroteBig).toBe(true);
    expect(grown.keeper.wroteBig).toBe(true);
    await replacedOf(grown);
  };
  await releases(() => expect(validate(big, { format: 'msgpack' })).toEqual({ valid: true }));
  await releases(() => expect(find(big, [699_999])).toBe('9' + 'a'.repeat(99)));
  await releases(() => expect(find(big, [5], { range: true })).toEqual([5 + 5 * 102, 5 + 6 * 102]));
  const cut = big.subarray(0, big.length - 1);
  await releases(() => expect(() => transcode(cut, { from: 'msgpack', to: 'cbor' })).toThrow(expect.objectContaining({ code: 'TRUNCATED' })));
  expect(transcode(strings(1, 1), { from: 'msgpack', to: 'json' })).toBe('["0"]');
});

test('an input whose JSON bound is beyond 4 GiB converts when its output fits', async () => {
  // 340 MB in: input + scratch + the 8x bound is 13x, 4.4 GB: LIMIT before; the output needs 1.01x
  const n = 3_340_000, k = 100;
  const input = strings(n, k);
  expect(input.length * 13).toBeGreaterThan(2 ** 32);
  const s = /** @type {string} */ (transcode(input, { from: 'msgpack', to: 'json' }));
  expect(s.length).toBe(jsonLength(n, k));
  expect(s.slice(0, 6)).toBe('["0aaa');
  expect(s.slice(-8)).toBe('aaaaaa"]');
  expect(s.slice(jsonLength(1000, k) - 1, jsonLength(1000, k) + 3)).toBe(',"0a');
  await replacedOf(tcRuntime());
}, 60_000);
