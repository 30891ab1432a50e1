// Node-only API checks: Buffers in and out, and loading the codec from a module or bytes.
import { describe, test, expect } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pack, unpack, unpackMultiple, init, initSync, Packr, Unpackr } from 'wirepack';
import { inspect, isDeepStrictEqual } from 'node:util';
import assert from 'node:assert';
import { encode as cborEncode, decode as cborDecode, Encoder as CborEncoder } from 'wirepack/cbor';
import { encode as mpEncode } from '@msgpack/msgpack';
import { canon } from './helpers/canon.js';

describe('Buffers', () => {
  test('pack returns a Buffer', () => {
    const b = pack({ a: 1 });
    expect(Buffer.isBuffer(b)).toBe(true);
    expect(b.toString('hex')).toBe('81a16101');
    expect(Buffer.isBuffer(new Packr({ useRecords: false }).pack([1]))).toBe(true);
  });
  // results and decoded bins are made as Node makes Buffers (a Uint8Array whose prototype is
  // Buffer.prototype), not through Buffer.from: they must be Buffers in every respect
  const isNodeBuffer = (b, hexWant, what) => {
    expect(Buffer.isBuffer(b), what).toBe(true);
    expect(b instanceof Buffer && b instanceof Uint8Array, what).toBe(true);
    expect(b.constructor, what).toBe(Buffer);
    expect(Object.prototype.isPrototypeOf.call(Buffer.prototype, b), what).toBe(true);
    // Buffer.prototype itself (Node's FastBuffer), not a subclass of it: node:assert and
    // util.isDeepStrictEqual compare prototypes, and users compare results with Buffer.from
    expect(Object.getPrototypeOf(b) === Buffer.prototype, what).toBe(true);
    expect(isDeepStrictEqual(b, Buffer.from(hexWant, 'hex')), what).toBe(true);
    assert.deepStrictEqual({ b }, { b: Buffer.from(hexWant, 'hex') }, what);
    expect(b.toString('hex'), what).toBe(hexWant);
    expect(inspect(b).startsWith('<Buffer'), what).toBe(true);
    expect(b.equals(Buffer.from(hexWant, 'hex')), what).toBe(true);
    expect(JSON.stringify(b), what).toBe(JSON.stringify(Buffer.from(hexWant, 'hex')));
    for (const part of [b.subarray(1), b.slice(1)]) {
      expect(Buffer.isBuffer(part) && Object.prototype.isPrototypeOf.call(Buffer.prototype, part), what).toBe(true);
      expect(part.toString('hex'), what).toBe(hexWant.slice(2));
    }
    expect(Buffer.concat([b, b]).toString('hex'), what).toBe(hexWant + hexWant);
  };
  test('results of every size are Buffers in every respect', () => {
    for (const n of [0, 1, 5, 31, 32, 33, 100, 1000, 1021, 1022, 1100, 5000]) {
      const v = 'y'.repeat(n);
      isNodeBuffer(pack(v), Buffer.from(mpEncode(v)).toString('hex'), `${n} characters`);
    }
  });
  test('CBOR results and decoded byte strings are Buffers in every respect', () => {
    for (const n of [0, 1, 31, 100, 1021, 1100, 5000]) {
      const v = 'y'.repeat(n);
      isNodeBuffer(cborEncode(v), Buffer.from(new CborEncoder({ float64: true }).encode(v)).toString('hex'), `CBOR ${n} characters`);
    }
    // definite, indefinite (its chunks joined) and copied byte strings
    isNodeBuffer(cborDecode(Buffer.from('43010203', 'hex')), '010203', 'CBOR byte string');
    isNodeBuffer(cborDecode(Buffer.from('5f4101420203ff', 'hex')), '010203', 'CBOR indefinite byte string');
    isNodeBuffer(cborDecode(Buffer.from('5fff', 'hex')), '', 'CBOR empty indefinite byte string');
    isNodeBuffer(cborDecode(Buffer.from('40', 'hex')), '', 'CBOR empty byte string');
    // a round trip compares equal to its input by node:assert, as msgpackr's and cbor-x's do
    const value = { b: Buffer.from([1, 2, 3]), list: [Buffer.alloc(0), Buffer.from('x'.repeat(2000))] };
    assert.deepStrictEqual(unpack(pack(value)), value);
    assert.deepStrictEqual(cborDecode(cborEncode(value)), value);
    assert.deepStrictEqual(new Packr({ useRecords: false, copyBuffers: true }).unpack(pack(value)), value);
  });
  test('decoded bins are Buffers in every respect, from Buffer and Uint8Array input', () => {
    const bin = Buffer.from('c403010203', 'hex');
    for (const input of [bin, new Uint8Array(bin), Buffer.concat([Buffer.alloc(3), bin]).subarray(3)]) {
      isNodeBuffer(unpack(input), '010203', 'bin of ' + input.constructor.name);
      expect(unpack(input).buffer).toBe(input.buffer);
    }
  });
  test('unpack accepts Buffers, including pooled ones with a byteOffset', () => {
    expect(unpack(Buffer.from('92a3616263c3', 'hex'))).toEqual(['abc', true]);
    const big = Buffer.alloc(64, 0xc1);
    Buffer.from('82a178c402ff00a179cb3ff8000000000000', 'hex').copy(big, 17);
    const view = big.subarray(17, 17 + 18);
    expect(view.byteOffset).toBeGreaterThan(0);
    expect(canon(unpack(view))).toEqual(canon({ x: new Uint8Array([0xff, 0]), y: 1.5 }));
    expect(unpackMultiple(Buffer.from('0102', 'hex'))).toEqual([1, 2]);
    // Buffer.from small strings come from the shared pool
    const pooled = Buffer.from([0x91, 0x05]);
    expect(unpack(pooled)).toEqual([5]);
  });
  test('decoded bins are Buffers: views of the input, or copies that survive changes to it (copyBuffers)', () => {
    for (const input of [Buffer.from('c403010203', 'hex'), new Uint8Array(Buffer.from('c403010203', 'hex'))]) {
      const view = unpack(input);
      const copy = new Packr({ useRecords: false, copyBuffers: true }).unpack(input);
      expect(Buffer.isBuffer(view) && Buffer.isBuffer(copy)).toBe(true);
      input.fill(0);
      expect(Buffer.from(copy).toString('hex')).toBe('010203');
      expect(Buffer.from(view).toString('hex')).toBe('000000');
    }
  });
});

describe('result slabs', () => {
  // In Node, results are cut from slabs of Buffer.allocUnsafeSlow; a runtime whose Buffer lacks it
  // (a polyfill) gets zero-filled slabs: the same results either way (dist/, in a child process,
  // since the choice is made as the module loads)
  const program = (drop) => `
    ${drop ? "globalThis.Buffer = new Proxy(Buffer, { get: (t, k) => (k === 'allocUnsafeSlow' ? undefined : t[k]) });" : ''}
    const { pack, unpack } = require(${JSON.stringify(fileURLToPath(new URL('../dist/index.cjs', import.meta.url)))});
    const { encode, decode } = require(${JSON.stringify(fileURLToPath(new URL('../dist/cbor.cjs', import.meta.url)))});
    const out = [];
    for (let n = 0; n < 9000; n += 37) {
      const v = { n, s: 'x'.repeat(n), a: [n, -n, n / 3] };
      const b = pack(v), c = encode(v);
      if (!Buffer.isBuffer(b) || JSON.stringify(unpack(b)) !== JSON.stringify(v) || JSON.stringify(decode(c)) !== JSON.stringify(v)) throw new Error('size ' + n);
      out.push(b.toString('hex').slice(0, 40), c.length, b.buffer.byteLength);
    }
    process.stdout.write(JSON.stringify(out));`;
  test('without Buffer.allocUnsafeSlow: zero-filled slabs, the same bytes', () => {
    expect(existsSync(new URL('../dist/index.cjs', import.meta.url)), 'dist/ (build.sh builds it)').toBe(true);
    const run = (drop) => {
      const r = spawnSync(process.execPath, ['-e', program(drop)], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      return JSON.parse(r.stdout);
    };
    const a = run(false), b = run(true);
    expect(b).toEqual(a);
    // (results up to 8 KB are views of 64 KB slabs either way; larger ones have their own memory)
    const sizes = a.filter((_, i) => i % 3 === 2);
    expect(sizes.includes(65536)).toBe(true);
    expect(sizes.every((n) => n === 65536 || n > 8192)).toBe(true);
  });
});

describe('init and initSync', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const wasmPath = ['build/wirepack.wasm', 'build/wirepack-emcc.wasm'].map((p) => root + p).find(existsSync);
  const bytesP = wasmPath
    ? Promise.resolve(readFileSync(wasmPath))
    : import('../js/src/wasm-inline.js').then((m) => Buffer.from(m.wasmBase64, 'base64'));
  const check = () => {
    expect(pack({ a: [1, 'x'] }).toString('hex')).toBe('81a1619201a178');
    expect(unpack(Buffer.from('81a1619201a178', 'hex'))).toEqual({ a: [1, 'x'] });
  };
  test('initSync with bytes and with a Module; init with bytes and with a Module', async () => {
    const bytes = await bytesP;
    check();
    initSync(bytes);
    check();
    initSync(new WebAssembly.Module(bytes));
    check();
    await init(bytes);
    check();
    await init(await WebAssembly.compile(bytes));
    check();
    await init(new Uint8Array(bytes).buffer);
    check();
  });

  test('the same instance given again keeps its runtime: maps met before, new ones, 0x40 and records decode as before', async () => {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(await bytesP), {});
    const doc = { name: 'a', kind: 'b', list: [{ x: 1, y: 2 }, { x: 3, y: 4 }] };
    const packr = new Packr({ structures: [] });
    const unpackr = new Unpackr({ structures: packr.structures });
    const records = packr.pack([{ aa: 1, bb: 2 }, { aa: 3, bb: 4 }]);
    try {
      for (const again of [(i) => initSync(i), (i) => init(i), (i) => initSync(i)]) {
        await again(instance);
        // keys and shapes met under the last runtime, and new ones
        expect(unpack(pack(doc))).toEqual(doc);
        expect(unpack(pack({ other: 1, keys: [{ x: 5, y: 6 }] }))).toEqual({ other: 1, keys: [{ x: 5, y: 6 }] });
        // 0x40..0x7f are integers unless records say otherwise: no slot the last runtime loaded
        expect(unpack(Buffer.from([0x92, 0x40, 0x41]))).toEqual([64, 65]);
        expect(unpackr.unpack(records)).toEqual([{ aa: 1, bb: 2 }, { aa: 3, bb: 4 }]);
      }
    } finally {
      initSync(await bytesP);
    }
    check();
  });
});
