#!/usr/bin/env node
// One memory measurement, in a process of its own, started by bench/suites/memory.js as
//   node --expose-gc bench/lib/memory-child.js <contender-key> <encoded-file> <iterations>
// where <encoded-file> is the contender's own encoding of the document, written (and its decode
// checked against the document) by the parent. Here:
//   1. load the library, read the encoded bytes (a utf8 string for JSON);
//   2. two full GCs, a baseline of process.memoryUsage(), and the kernel's peak-RSS mark reset to
//      the current RSS (echo 5 > /proc/self/clear_refs, Linux >= 4.0);
//   3. decode <iterations> times, keeping only the last result alive, sampling memoryUsage()
//      (rss, arrayBuffers, heapUsed) after each decode;
//   4. peak RSS = max(VmHWM from /proc/self/status, sampled rss); for wirepack, the size of its wasm
//      memory at the end;
//   5. RSS once settled (three rounds of a macrotask then a full GC) with the last result kept,
//      and again after dropping it: what decoding retains beyond its result;
//   6. what strings taken out of a result keep alive (a string the engine made as a slice of a
//      longer one keeps that one): heapUsed, settled, over a settled baseline, after a fresh decode
//      whose result is dropped but for one string of 13 or more characters (V8 copies shorter
//      substrings), then after another that keeps one string in a hundred; against the kept
//      strings' own size. One JSON line on stdout.
import fs from 'node:fs';
import { ALL_CONTENDERS } from './contenders.js';

const [key, file, itersArg] = process.argv.slice(2);
const iterations = Math.max(1, Number(itersArg) || 1);
const print = (o) => process.stdout.write(JSON.stringify(o) + '\n');

function readHwm() {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Resident bytes of wasm memories (Linux): V8 reserves 8 GiB or more of address space per memory
 * (guard regions) and makes its accessible part read-write, so a memory is a read-write mapping
 * followed at once by an inaccessible one, the two 4 GiB or more together. Null without smaps.
 */
function wasmResident() {
  let text;
  try {
    text = fs.readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return null;
  }
  /** @type {{start: bigint, end: bigint, perms: string, rss: number}[]} */
  const maps = [];
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) (\S+)/.exec(line);
    if (m) maps.push({ start: BigInt('0x' + m[1]), end: BigInt('0x' + m[2]), perms: m[3], rss: 0 });
    else if (line.startsWith('Rss:') && maps.length) maps[maps.length - 1].rss = Number(line.split(/\s+/)[1]) * 1024;
  }
  let total = 0;
  for (let i = 0; i + 1 < maps.length; i++) {
    const a = maps[i], b = maps[i + 1];
    if (a.perms.startsWith('rw') && b.perms.startsWith('---') && a.end === b.start && b.end - a.start >= 4n << 30n) total += a.rss;
  }
  return total;
}

/**
 * Every string value of v, depth first (map keys are not values: a kept key is the same string
 * however a library made it, since JS objects hold their own).
 * @param {unknown} v @param {string[]} out
 */
function collectStrings(v, out) {
  /** @type {unknown[]} */
  const stack = [v];
  while (stack.length) {
    const x = stack.pop();
    if (typeof x === 'string') out.push(x);
    else if (Array.isArray(x)) for (let i = x.length - 1; i >= 0; i--) stack.push(x[i]);
    else if (x instanceof Map) for (const y of [...x.values()].reverse()) stack.push(y);
    else if (x !== null && typeof x === 'object' && !ArrayBuffer.isView(x) && !(x instanceof Date)) {
      const vals = Object.values(x);
      for (let i = vals.length - 1; i >= 0; i--) stack.push(vals[i]);
    }
  }
  return out;
}

/**
 * Heap bytes of the strings themselves: V8's sequential-string header (16 bytes on 64-bit
 * without pointer compression, as Node builds) and 1 or 2 bytes per character, 8-aligned.
 * @param {string[]} list
 */
function ownBytes(list) {
  let n = 0;
  for (const x of list) n += 16 + ((((/^[\x00-\xff]*$/.test(x) ? 1 : 2) * x.length) + 7) & ~7);
  return n;
}

function resetHwm() {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

async function main() {
  if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
  const c = ALL_CONTENDERS.find((x) => (x.key ?? x.id) === key);
  if (!c) throw new Error(`unknown contender ${key}`);
  const loaded = await c.load();
  const codec = c.create(loaded.lib);
  const arg = file.endsWith('.json') ? fs.readFileSync(file, 'utf8') : fs.readFileSync(file);
  globalThis.gc();
  globalThis.gc();
  const before = process.memoryUsage();
  const hwmReset = resetHwm();
  let peakRss = before.rss;
  let peakArrayBuffers = before.arrayBuffers;
  let peakHeapUsed = before.heapUsed;
  const times = [];
  let keep = null;
  for (let i = 0; i < iterations; i++) {
    const t0 = process.hrtime.bigint();
    keep = codec.decode(arg);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const m = process.memoryUsage();
    if (m.rss > peakRss) peakRss = m.rss;
    if (m.arrayBuffers > peakArrayBuffers) peakArrayBuffers = m.arrayBuffers;
    if (m.heapUsed > peakHeapUsed) peakHeapUsed = m.heapUsed;
  }
  const hwm = hwmReset ? readHwm() : null;
  if (hwm && hwm > peakRss) peakRss = hwm;
  times.sort((a, b) => a - b);
  let wasmMemory = null;
  if (c.id.startsWith('wirepack')) {
    const { runtime } = await import('../../js/src/runtime.js');
    wasmMemory = runtime().memory.buffer.byteLength;
  }
  const settled = async () => {
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 0));
      globalThis.gc();
    }
    return process.memoryUsage();
  };
  const kept = keep !== null && typeof keep === 'object';
  const keptRss = (await settled()).rss;
  keep = null;
  const droppedRss = (await settled()).rss;
  /**
   * Heap over a settled baseline while only pick(strings of a fresh result) is kept.
   * @param {(all: string[]) => string[]} pick
   */
  const keptStrings = async (pick) => {
    const base = (await settled()).heapUsed;
    /** @type {string[] | null} */
    let all = collectStrings(codec.decode(arg), []);
    const count = all.length;
    const held = pick(all);
    all = null;
    const heap = (await settled()).heapUsed - base;
    return { count, strings: held.length, chars: held.reduce((n, x) => n + x.length, 0), own: ownBytes(held), heap };
  };
  /** @type {Record<string, (all: string[]) => string[]>} */
  const picks = {
    none: () => [],
    oneString: (all) => {
      const long = all.filter((x) => x.length >= 13);
      return long.length ? [long[long.length >> 1]] : [];
    },
    hundredth: (all) => all.filter((_, i) => i % 100 === 50),
  };
  // three rounds of the three, each figure the median of its rounds (heapUsed moves by tens of
  // KB from one settled measurement to the next); "none" is the control
  /** @type {Record<string, any[]>} */
  const rounds = { none: [], oneString: [], hundredth: [] };
  for (let r = 0; r < 3; r++) for (const k of Object.keys(picks)) rounds[k].push(await keptStrings(picks[k]));
  const medianOf = (/** @type {any[]} */ list) => ({ ...list[0], heap: list.map((x) => x.heap).sort((a, b) => a - b)[list.length >> 1] });
  const none = medianOf(rounds.none), oneString = medianOf(rounds.oneString), hundredth = medianOf(rounds.hundredth);
  print({
    iterations,
    keptRss,
    droppedRss,
    wasmResident: c.id.startsWith('wirepack') ? wasmResident() : null,
    decodeMsMedian: times[times.length >> 1],
    before: { rss: before.rss, arrayBuffers: before.arrayBuffers, heapUsed: before.heapUsed },
    peakRss,
    peakRssSource: hwm ? 'VmHWM' : 'sampled',
    peakArrayBuffers,
    peakHeapUsed,
    wasmMemory,
    kept,
    keptStrings: { none, oneString, hundredth },
  });
}

main().catch((err) => {
  process.stderr.write(((err && err.stack) || String(err)) + '\n');
  process.exitCode = 1;
});
