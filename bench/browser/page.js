// The benchmark page, bundled by bench/browser/run.js with esbuild (ESM, platform=browser) and run
// in headless Chromium. It holds every contender and input, and a port of bench/lib/runner.js:
//   1. per input, each contender gets a fresh codec; it encodes the parsed document twice (the
//      second, steady-state encoding is decoded and reported) and must decode it back to a value
//      deep-equal to the document, or its rows are FAILED with the reason;
//   2. every (contender, operation) pair has its own `new Function` batch loop (no shared call-site
//      feedback), is warmed up and calibrated to ~cfg.batchMs per batch;
//   3. cfg.rounds rounds, each running one batch of every pair in an order rotated by the round;
//      reported: the median round's op/s and the spread of the rounds.
// Timing is per operation on the parsed object, as the jsbench page times it: encode(obj) with the
// object parsed once up front, decode(its own encoding) with the encoding made once up front;
// JSON encodes with JSON.stringify(obj) and decodes with JSON.parse(str).
import * as wirepack from '../../js/src/index.browser.js';
import * as wirepackCbor from '../../js/src/cbor.browser.js';
import { wasmBase64 } from '../../js/src/wasm-inline.js';
import { RESULT_CUTS } from '../../js/src/encode.js';
import * as msgpackr from 'msgpackr';
import * as cborX from 'cbor-x';
import * as jsonPackMsgpack from '@jsonjoy.com/json-pack/lib/msgpack/index.js';
import * as jsonPackCbor from '@jsonjoy.com/json-pack/lib/cbor/index.js';
import { firstDiff } from '../lib/verify.js';
// Loaded as text (see the fixtures plugin in run.js) and parsed here, like the Node harness.
import stringsText from '../fixtures/strings.json';
import numbersText from '../fixtures/numbers.json';
import example4Text from '../fixtures/example4.json';

const INPUTS = {
  'strings.json': stringsText,
  'numbers.json': numbersText,
  'example4.json': example4Text,
};

const utf8 = new TextEncoder();

/**
 * group: which subject a row is compared with ('msgpack': wirepack, 'cbor': wirepack/cbor,
 * 'both': JSON, compared with each). role: 'subject' | 'peer' | 'reference' | 'variant'
 * (reference and variant rows never count as "best peer").
 */
export const CONTENDERS = [
  {
    id: 'wirepack',
    group: 'msgpack',
    role: 'subject',
    create: () => ({
      encode: (obj) => wirepack.pack(obj),
      decode: (buf) => wirepack.unpack(buf),
      encodeLabel: 'wirepack: buf = pack(obj);',
      decodeLabel: 'wirepack: obj = unpack(buf);',
    }),
  },
  {
    // The eval-free path: what runs under a CSP without 'unsafe-eval'. Encoding has no code
    // generation, so only decode is timed (its encode would be the wirepack row again).
    id: 'wirepack-eval-free',
    group: 'msgpack',
    role: 'variant',
    ops: ['decode'],
    create: () => {
      const unpackr = new wirepack.Unpackr({ codegen: false, useRecords: false }); // objects, as unpack (msgpackr's rule)
      return {
        encode: (obj) => wirepack.pack(obj),
        decode: (buf) => unpackr.unpack(buf),
        encodeLabel: 'wirepack, eval-free: buf = pack(obj);',
        decodeLabel: 'wirepack, eval-free: new Unpackr({codegen: false, useRecords: false}).unpack(buf);',
      };
    },
  },
  {
    // As the jsbench page: one Packr with shared structures, the same instance decodes.
    id: 'msgpackr-records',
    group: 'msgpack',
    role: 'reference',
    create: () => {
      const packr = new msgpackr.Packr({ structures: [] });
      return {
        encode: (obj) => packr.pack(obj),
        decode: (buf) => packr.unpack(buf),
        encodeLabel: 'msgpackr w/ shared structures: packr.pack(obj);',
        decodeLabel: 'msgpackr w/ shared structures: packr.unpack(buf);',
      };
    },
  },
  {
    id: 'msgpackr',
    group: 'msgpack',
    role: 'peer',
    create: () => ({
      encode: (obj) => msgpackr.pack(obj),
      decode: (buf) => msgpackr.unpack(buf),
      encodeLabel: 'msgpackr: buf = pack(obj);',
      decodeLabel: 'msgpackr: obj = unpack(buf);',
    }),
  },
  {
    id: 'wirepack/cbor',
    group: 'cbor',
    role: 'subject',
    create: () => ({
      encode: (obj) => wirepackCbor.encode(obj),
      decode: (buf) => wirepackCbor.decode(buf),
      encodeLabel: 'wirepack/cbor: buf = encode(obj);',
      decodeLabel: 'wirepack/cbor: obj = decode(buf);',
    }),
  },
  {
    id: 'cbor-x',
    group: 'cbor',
    role: 'peer',
    create: () => ({
      encode: (obj) => cborX.encode(obj),
      decode: (buf) => cborX.decode(buf),
      encodeLabel: 'cbor-x: buf = encode(obj);',
      decodeLabel: 'cbor-x: obj = decode(buf);',
    }),
  },
  {
    // json-pack's fastest classes, as in the Node suites (bench/lib/contenders.js)
    id: 'json-pack',
    group: 'msgpack',
    role: 'peer',
    create: () => {
      const encoder = new jsonPackMsgpack.MsgPackEncoderFast(), decoder = new jsonPackMsgpack.MsgPackDecoderFast();
      return {
        encode: (obj) => encoder.encode(obj),
        decode: (buf) => decoder.decode(buf),
        encodeLabel: 'json-pack: new MsgPackEncoderFast().encode(obj);',
        decodeLabel: 'json-pack: new MsgPackDecoderFast().decode(buf);',
      };
    },
  },
  {
    id: 'json-pack/cbor',
    group: 'cbor',
    role: 'peer',
    create: () => {
      const encoder = new jsonPackCbor.CborEncoderFast(), decoder = new jsonPackCbor.CborDecoderBase();
      return {
        encode: (obj) => encoder.encode(obj),
        decode: (buf) => decoder.decode(buf),
        encodeLabel: 'json-pack: new CborEncoderFast().encode(obj);',
        decodeLabel: 'json-pack: new CborDecoderBase().decode(buf);',
      };
    },
  },
  {
    id: 'JSON',
    group: 'both',
    role: 'peer',
    create: () => ({
      encode: (obj) => JSON.stringify(obj),
      decode: (str) => JSON.parse(str),
      encodeLabel: 'str = JSON.stringify(obj);',
      decodeLabel: 'obj = JSON.parse(str);',
    }),
  },
];

const now = performance.now.bind(performance);
let uniq = 0;

function probeExpression(op) {
  if (op === 'encode') return 'r.length';
  return '(r === null || typeof r !== "object" ? 1 : Array.isArray(r) ? r.length : r[key] === undefined ? 2 : 3)';
}

function compileBatch(op, label) {
  const src = `"use strict"; /* ${String(label).replace(/\*\//g, '')} #${++uniq} */
let acc = 0;
const t0 = now();
for (let i = 0; i < n; i++) { const r = fn(arg); acc += ${probeExpression(op)}; }
const t1 = now();
return [t1 - t0, acc];`;
  // eslint-disable-next-line no-new-func
  return new Function('fn', 'arg', 'n', 'key', 'now', src);
}

function median(sorted) {
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
}

function errorText(err) {
  return err && err.message ? err.message.split('\n')[0] : String(err);
}

function asBytes(x) {
  if (x instanceof Uint8Array) return x;
  if (x instanceof ArrayBuffer) return new Uint8Array(x);
  if (ArrayBuffer.isView(x)) return new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  throw new TypeError(`encode returned ${Object.prototype.toString.call(x)}, not bytes`);
}

function prepare(contender, doc) {
  let codec;
  try {
    codec = contender.create();
  } catch (err) {
    return { fail: `create threw: ${errorText(err)}` };
  }
  let arg;
  let size;
  try {
    codec.encode(doc);
    const enc = codec.encode(doc);
    if (typeof enc === 'string') {
      arg = enc;
      size = utf8.encode(enc).length;
    } else {
      // Decode from a private copy: the encoder may hand out views of a buffer it reuses.
      arg = asBytes(enc).slice();
      size = arg.length;
    }
  } catch (err) {
    return { fail: `encode threw: ${errorText(err)}` };
  }
  let decoded;
  try {
    decoded = codec.decode(arg);
  } catch (err) {
    return { fail: `decode of its own encoding threw: ${errorText(err)}` };
  }
  const diff = firstDiff(decoded, doc);
  if (diff) return { fail: `round trip differs from the input: ${diff}` };
  return { codec, arg, size };
}

function probeKey(doc) {
  if (doc && typeof doc === 'object' && !Array.isArray(doc)) {
    const keys = Object.keys(doc);
    if (keys.length) return keys[0];
  }
  return '';
}

function calibrate(item, cfg) {
  const target = cfg.batchMs;
  const warmup = cfg.warmupMs;
  let n = 1;
  let spent = 0;
  let rate = 0;
  for (;;) {
    const [ms, acc] = item.batch(item.fn, item.arg, n, item.key, now);
    item.checksum += acc;
    spent += ms;
    if (ms > 0) rate = n / ms;
    if (spent >= warmup && ms >= Math.min(target / 4, 5)) break;
    if (ms < target / 2) n *= 2;
  }
  let ops = Math.max(1, Math.round(rate * target));
  const [ms, acc] = item.batch(item.fn, item.arg, ops, item.key, now);
  item.checksum += acc;
  if (ms > 0) ops = Math.max(1, Math.round((ops / ms) * target));
  return ops;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Runs one input. cfg: { rounds, batchMs, warmupMs, contenders: string[] | null }.
 * @returns {Promise<{ input, jsonBytes, rows, failed }>}
 */
async function runInput(name, cfg) {
  const text = INPUTS[name];
  if (text === undefined) throw new Error(`unknown input ${name}`);
  const doc = JSON.parse(text);
  const key = probeKey(doc);
  const failed = [];
  const items = [];
  for (const c of CONTENDERS) {
    if (cfg.contenders && c.role !== 'subject' && !cfg.contenders.includes(c.id)) continue;
    const p = prepare(c, doc);
    const ops = c.ops ?? ['encode', 'decode'];
    if (p.fail) {
      failed.push({ id: c.id, group: c.group, role: c.role, ops, reason: p.fail });
      continue;
    }
    for (const op of ops) {
      const label = op === 'encode' ? p.codec.encodeLabel : p.codec.decodeLabel;
      items.push({
        id: c.id,
        group: c.group,
        role: c.role,
        op,
        label,
        size: p.size,
        fn: op === 'encode' ? p.codec.encode : p.codec.decode,
        arg: op === 'encode' ? doc : p.arg,
        key,
        batch: compileBatch(op, label),
        checksum: 0,
        opsPerBatch: 0,
        rounds: [],
      });
    }
  }

  for (const item of items) {
    item.opsPerBatch = calibrate(item, cfg);
    await tick();
  }

  for (let r = 0; r < cfg.rounds; r++) {
    for (let k = 0; k < items.length; k++) {
      const item = items[(k + r) % items.length];
      const [ms, acc] = item.batch(item.fn, item.arg, item.opsPerBatch, item.key, now);
      item.checksum += acc;
      item.rounds.push({ ops: item.opsPerBatch, ms });
    }
    // Let the renderer run its own tasks between rounds, never inside a batch.
    await tick();
  }

  const rows = items.map((item) => {
    const rates = item.rounds.map((x) => (x.ops * 1e3) / x.ms);
    const sorted = [...rates].sort((a, b) => a - b);
    const med = median(sorted);
    return {
      id: item.id,
      group: item.group,
      role: item.role,
      op: item.op,
      label: item.label,
      size: item.size,
      opsPerBatch: item.opsPerBatch,
      totalOps: item.rounds.reduce((s, x) => s + x.ops, 0),
      totalMs: item.rounds.reduce((s, x) => s + x.ms, 0),
      opsPerSec: med,
      minOpsPerSec: sorted[0],
      maxOpsPerSec: sorted[sorted.length - 1],
      spreadLow: sorted[0] / med - 1,
      spreadHigh: sorted[sorted.length - 1] / med - 1,
      roundOpsPerSec: rates,
      checksum: item.checksum,
    };
  });
  return { input: name, jsonBytes: utf8.encode(text).length, rows, failed };
}

function fromBase64(b64) {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/**
 * The module's bytes plus a custom section with a unique name: the same code, but bytes that V8's
 * per-process cache of compiled modules (keyed by the wire bytes) has never seen.
 */
function uniqueModuleBytes(bytes, n) {
  const name = utf8.encode(`wirepack-bench-${n}-${Math.random().toString(36).slice(2)}`);
  const payloadLen = 1 + name.length; // name length (one LEB byte, < 128) + name
  const out = new Uint8Array(bytes.length + 2 + payloadLen);
  out.set(bytes, 0);
  let p = bytes.length;
  out[p++] = 0; // custom section id
  out[p++] = payloadLen; // section size (< 128: one LEB byte)
  out[p++] = name.length;
  out.set(name, p);
  return out;
}

/** Wasm start-up costs: base64 decode of the inlined module, compile, instantiate, first call. */
async function measureWasm(trials) {
  const samples = [];
  const doc = JSON.parse(example4Text);
  for (let t = 0; t < trials; t++) {
    const t0 = now();
    const bytes = fromBase64(wasmBase64);
    const t1 = now();
    const unique = uniqueModuleBytes(bytes, t);
    const t2 = now();
    const mod = await WebAssembly.compile(unique);
    const t3 = now();
    const inst = await WebAssembly.instantiate(mod, {});
    const t4 = now();
    let nativeMs = null;
    if (typeof Uint8Array.fromBase64 === 'function') {
      const t5 = now();
      const native = Uint8Array.fromBase64(wasmBase64);
      nativeMs = now() - t5;
      if (native.length !== bytes.length) throw new Error('Uint8Array.fromBase64 length differs');
    }
    samples.push({ base64Ms: t1 - t0, compileMs: t3 - t2, instantiateMs: t4 - t3, nativeBase64Ms: nativeMs });
    if (!(inst instanceof WebAssembly.Instance)) throw new Error('instantiate did not give an instance');
    await tick();
  }
  const pick = (k) => {
    const v = samples.map((s) => s[k]);
    const sorted = [...v].sort((a, b) => a - b);
    return { first: v[0], median: median(sorted), min: sorted[0], max: sorted[sorted.length - 1] };
  };
  // Sanity: the loaded codec works (the timed rows check this per input as well).
  const ok = firstDiff(wirepack.unpack(wirepack.pack(doc)), doc) === null;
  return {
    trials,
    wasmBytes: fromBase64(wasmBase64).length,
    base64: pick('base64Ms'),
    compile: pick('compileMs'),
    instantiate: pick('instantiateMs'),
    nativeBase64: samples[0].nativeBase64Ms === null ? null : pick('nativeBase64Ms'),
    codecWorks: ok,
  };
}

/** Measures the timer's resolution (smallest non-zero step of performance.now()). */
function timerResolution() {
  let best = Infinity;
  for (let i = 0; i < 50; i++) {
    const a = performance.now();
    let b = performance.now();
    while (b === a) b = performance.now();
    best = Math.min(best, b - a);
  }
  return best;
}

function info() {
  return {
    userAgent: navigator.userAgent,
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    timerResolutionMs: timerResolution(),
    hardwareConcurrency: navigator.hardwareConcurrency,
    inputs: Object.keys(INPUTS),
    contenders: CONTENDERS.map((c) => ({ id: c.id, group: c.group, role: c.role, ops: c.ops ?? ['encode', 'decode'] })),
    wirepackInitialized: wirepack.isInitialized(),
    msgpackrNative: msgpackr.isNativeAccelerationEnabled === true,
    cborXNative: cborX.isNativeAccelerationEnabled === true,
    codegenAllowed: (() => {
      try {
        return new Function('return 1')() === 1; // eslint-disable-line no-new-func
      } catch {
        return false;
      }
    })(),
  };
}

/**
 * Per size n, a step that makes one result timed with fresh memory and with memory used again:
 * 9 rounds, each running `stepFor(n, alloc)` (made anew for each run, so no state crosses from
 * one to the other) for ~50 ms both ways; what the steps return is summed so that the work
 * stays. Medians, in µs per step.
 * @param {number[]} sizes
 * @param {(n: number, alloc: boolean) => () => number} stepFor
 * @returns {Promise<{bytes: number, freshUs: number, reusedUs: number}[]>}
 */
async function freshAgainstReused(sizes, stepFor) {
  const rows = [];
  for (const n of sizes) {
    const fresh = [], reused = [];
    for (let r = 0; r < 9; r++) {
      for (const [into, alloc] of [[fresh, true], [reused, false]]) {
        const step = stepFor(n, alloc);
        let ops = 0, x = 0;
        const t0 = now();
        while (now() - t0 < 50) {
          for (let k = 0; k < 16; k++) x += step();
          ops += 16;
        }
        into.push(((now() - t0) * 1000) / ops);
        if (x < 0) throw new Error('unreachable');
      }
      await tick();
    }
    const med = (v) => median([...v].sort((a, b) => a - b));
    rows.push({ bytes: n, freshUs: med(fresh), reusedUs: med(reused) });
  }
  return rows;
}

/**
 * What fresh memory costs the page: every encode result is bytes of their own (a Uint8Array),
 * while JSON.stringify's result is a string in V8's heap. Times allocating a Uint8Array of each
 * size and writing every 4 KB page of it, against the same writes into one array used again
 * (the memory already the page's).
 * @param {number[]} sizes
 */
function measureFreshMemory(sizes) {
  return freshAgainstReused(sizes, (n, alloc) => {
    const keep = alloc ? null : new Uint8Array(n);
    let k = 0;
    return () => {
      const a = keep ?? new Uint8Array(n);
      k = (k + 1) & 0xff;
      for (let i = 0; i < n; i += 4096) a[i] = k;
      a[n - 1] = k;
      return a[0];
    };
  });
}

/**
 * What the memory of one encode result costs, cut the way js/src/encode.js cuts results here
 * (RESULT_CUTS; without Buffer: up to 64 bytes, a Uint8Array of its own, in V8's heap; up to
 * 16 KB, a view of n bytes cut from a 64 KB slab, a new slab when the current one is full; above,
 * an array of its own). Each cut has its n bytes written. Timed against the same cuts
 * where every slab and array is one used again: the difference is what fresh memory adds to each
 * result of that size.
 * @param {number[]} sizes
 */
function measureResultMemory(sizes) {
  const { slab: SLAB, slabMax: SLAB_MAX, heapMax: HEAP_MAX } = RESULT_CUTS;
  return freshAgainstReused(sizes, (n, alloc) => {
    const src = new Uint8Array(n).fill(7);
    const own = alloc ? null : new Uint8Array(n), keepSlab = alloc ? null : new ArrayBuffer(SLAB);
    let slab = keepSlab, at = SLAB;
    return () => {
      let out;
      if (n <= HEAP_MAX || n > SLAB_MAX) {
        out = own ?? new Uint8Array(n);
      } else {
        if (at + n > SLAB) {
          slab = keepSlab ?? new ArrayBuffer(SLAB);
          at = 0;
        }
        out = new Uint8Array(/** @type {ArrayBuffer} */ (slab), at, n);
        at = (at + n + 7) & ~7;
      }
      out.set(src);
      return out[n - 1];
    };
  });
}

globalThis.bench = { info, runInput, measureWasm, measureFreshMemory, measureResultMemory };
