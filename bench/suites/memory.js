// Memory while decoding the large inputs: every (library, input) pair measured in a fresh child
// process (node --expose-gc bench/lib/memory-child.js), so that one library's heap, wasm memory
// or addon never counts against another. This process encodes the document with each library,
// checks that the library's decode deep-equals it (else the row says FAILED), and writes the
// encoding to a file; the child only loads the library, reads that file and decodes.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BENCH_DIR } from '../lib/config.js';
import { loadJsonFixture } from '../lib/fixtures.js';
import { generateDocument } from '../lib/generate.js';
import { firstDiff } from '../lib/verify.js';
import { loadContenders, contenderLine } from '../lib/standard.js';
import { table } from '../lib/report.js';
import {
  wirepack, msgpackr, msgpackMsgpack, msgpackLite, notepack, msgpack5, jsonString, wirepackCbor, cborX, nodeCbor,
} from '../lib/contenders.js';

const CHILD = fileURLToPath(new URL('../lib/memory-child.js', import.meta.url));
const MiB = 2 ** 20;
const mb = (x) => (x == null ? 'n/a' : (x / MiB).toFixed(1));
const kib = (/** @type {number} */ x) => (x / 1024).toFixed(1);
const CONTENDERS = [wirepack, msgpackr, msgpackMsgpack, msgpackLite, notepack, msgpack5, jsonString, wirepackCbor, cborX, nodeCbor];
const FORMAT = { 'wirepack/cbor': 'CBOR', 'cbor-x': 'CBOR', cbor: 'CBOR', JSON: 'JSON' };

function inputsFor(cfg) {
  const gen = cfg.quick ? 256 * 1024 : 5 * 1000 * 1000;
  const list = [
    { name: 'sample-large.json', iterations: cfg.quick ? 20 : 400 },
    { name: 'example-twitter.json', iterations: cfg.quick ? 10 : 200 },
    { name: `generated-${cfg.quick ? '256KB' : '5MB'}`, generate: gen, iterations: 2 },
  ];
  // --quick: only the (smaller) generated document, to stay well under a minute with both passes.
  return cfg.quick ? list.slice(2) : list;
}

function asBytes(x) {
  if (x instanceof Uint8Array) return x;
  if (ArrayBuffer.isView(x)) return new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  if (x instanceof ArrayBuffer) return new Uint8Array(x);
  throw new TypeError(`encode returned ${Object.prototype.toString.call(x)}`);
}

export default {
  name: 'memory',
  title: 'peak RSS and arrayBuffers while decoding large inputs (a fresh process per library and input)',
  async run(ctx) {
    const { cfg, out, log, cache, h } = ctx;
    // --quick: a smoke test of the machinery, with one library per kind of implementation
    const list = cfg.quick ? CONTENDERS.filter((c) => ['wirepack', 'msgpackr', 'wirepack/cbor'].includes(c.id)) : CONTENDERS;
    const contenders = await loadContenders(list, cfg, cache);
    const tmp = path.join(BENCH_DIR, 'results', `.memory-${process.pid}`);
    fs.mkdirSync(tmp, { recursive: true });
    out(`${h} memory: ${this.title}`);
    out();
    out(
      'Per library and input, this process encodes the document with the library and checks its decode (deep-equal, ' +
        'else FAILED); a child `node --expose-gc` then loads only that library and the encoded bytes, runs two full GCs, ' +
        'takes a baseline, resets the kernel\'s peak-RSS mark (`/proc/self/clear_refs`), and decodes N times keeping the ' +
        'last result. "peak RSS" is the kernel\'s high-water mark (VmHWM) since the baseline, so it includes the peak ' +
        'inside a decode call; arrayBuffers and heapUsed are sampled after every decode. "wasm memory" is ' +
        '`runtime().memory.buffer.byteLength` at the end of the child (wasm memory never shrinks in place: wirepack replaces its instance once calls have written past 64 MiB of it; it counts in RSS, not ' +
        'in arrayBuffers). The child is cold: the first decode includes any lazy compilation (V8 tiering up wasm and JS). ' +
        '"kept" and "dropped" are the RSS over the baseline once settled (three rounds of a macrotask and a full GC) with ' +
        'the last result kept, then after dropping it: "dropped" is what decoding retains beyond its result (wasm memory ' +
        'in use, and the heap pages V8 keeps after a collection, which every library pays). "wasm resident" is the part ' +
        'of wirepack\'s wasm memory the kernel holds at the end (from /proc/self/smaps). MiB throughout.',
    );
    out();
    for (const c of contenders) out(contenderLine(c));
    const result = { name: 'memory', title: this.title, inputs: [], headline: [], failures: [], memoryHeadline: [] };

    for (const inp of inputsFor(cfg)) {
      if (cfg.inputs && !cfg.inputs.some((f) => inp.name.includes(f))) continue;
      let doc;
      let jsonBytes;
      if (inp.generate) {
        const g = generateDocument(inp.generate);
        doc = g.doc;
        jsonBytes = g.bytes;
      } else {
        const f = loadJsonFixture(inp.name);
        doc = f.doc;
        jsonBytes = f.bytes;
      }
      log(`[${ctx.pass}] [memory] ${inp.name} ...`);
      const t0 = process.hrtime.bigint();
      const rows = [];
      for (const c of contenders) {
        const row = { id: c.id, format: FORMAT[c.id] ?? 'MessagePack', role: c.role };
        rows.push(row);
        if (c.loadError) {
          row.failed = `did not load: ${c.loadError}`;
          continue;
        }
        // prepare and check in this process
        let file;
        try {
          const codec = c.create(c.loaded.lib);
          const encode = c.memoryEncode ? c.memoryEncode(c.loaded.lib) : codec.encode;
          const enc = encode(doc);
          const isString = typeof enc === 'string';
          const arg = isString ? enc : Buffer.from(asBytes(enc));
          row.size = isString ? Buffer.byteLength(enc) : arg.length;
          const diff = firstDiff(codec.decode(arg), doc);
          if (diff) {
            row.failed = `decoded value differs from the input: ${diff}`;
            continue;
          }
          file = path.join(tmp, `${(c.key ?? c.id).replace(/[^\w.-]/g, '_')}.${isString ? 'json' : 'bin'}`);
          fs.writeFileSync(file, arg);
        } catch (err) {
          row.failed = `encode/decode check threw: ${err && err.message ? err.message.split('\n')[0] : err}`;
          continue;
        }
        const child = spawnSync(process.execPath, ['--expose-gc', CHILD, c.key ?? c.id, file, String(inp.iterations)], {
          encoding: 'utf8',
          env: process.env,
          maxBuffer: 1 << 20,
        });
        fs.rmSync(file, { force: true });
        const line = (child.stdout || '').trim().split('\n').pop();
        if (child.status !== 0 || !line) {
          row.failed = `child exited ${child.status ?? child.signal}: ${(child.stderr || '').trim().split('\n').slice(-3).join(' | ')}`;
          continue;
        }
        Object.assign(row, JSON.parse(line));
        row.peakDelta = row.peakRss - row.before.rss;
        row.keptDelta = row.keptRss - row.before.rss;
        row.droppedDelta = row.droppedRss - row.before.rss;
      }
      for (const r of rows) if (r.failed) result.failures.push({ suite: 'memory', input: inp.name, id: r.id, reason: r.failed });
      result.inputs.push({ input: inp.name, jsonBytes, iterations: inp.iterations, rows });
      out();
      out(`${h}# ${inp.name} (${jsonBytes.toLocaleString('en-US')} B of JSON; ${inp.iterations} decodes per process)`);
      out();
      const header = [
        'library',
        'format',
        'encoded B',
        'decode ms (median)',
        'RSS before',
        'peak RSS',
        'peak - before',
        'arrayBuffers before',
        'arrayBuffers peak',
        'heapUsed peak',
        'wasm memory',
        'kept',
        'dropped',
        'wasm resident',
      ];
      const body = rows.map((r) =>
        r.failed
          ? [r.id, r.format, r.size != null ? r.size.toLocaleString('en-US') : '', 'FAILED', '', '', '', '', '', '', '', '', '', '']
          : [
              r.id,
              r.format,
              r.size.toLocaleString('en-US'),
              r.decodeMsMedian < 1 ? r.decodeMsMedian.toFixed(3) : r.decodeMsMedian.toFixed(1),
              mb(r.before.rss),
              mb(r.peakRss),
              mb(r.peakDelta),
              mb(r.before.arrayBuffers),
              mb(r.peakArrayBuffers),
              mb(r.peakHeapUsed),
              r.wasmMemory != null ? mb(r.wasmMemory) : '',
              mb(r.keptDelta),
              mb(r.droppedDelta),
              r.wasmResident != null ? mb(r.wasmResident) : '',
            ],
      );
      out(table(header, body, header.map((_, i) => (i < 2 ? 'l' : 'r'))));
      out();
      const ks = rows.filter((r) => !r.failed && r.keptStrings);
      if (ks.length) {
        const one = ks[0].keptStrings.oneString, hun = ks[0].keptStrings.hundredth;
        out(
          `What strings kept from a result keep alive: heapUsed over a settled baseline (KiB, median of 3 fresh decodes each), ` +
            `the result dropped but for one string of ${one.chars} characters (own size ~${one.own} B), or for one ` +
            `string in a hundred (${hun.strings.toLocaleString('en-US')} of ${hun.count.toLocaleString('en-US')}, ` +
            `${hun.chars.toLocaleString('en-US')} characters, own size ~${kib(hun.own)} KiB); "none" keeps nothing (the control).`,
        );
        out();
        const kh = ['library', 'format', 'none', 'one string kept', '1 in 100 kept', '1 in 100 kept / input'];
        out(table(kh, ks.map((r) => [r.id, r.format, kib(r.keptStrings.none.heap), kib(r.keptStrings.oneString.heap),
          kib(r.keptStrings.hundredth.heap), `${(r.keptStrings.hundredth.heap / r.size).toFixed(2)}x`]), kh.map((_, i) => (i < 2 ? 'l' : 'r'))));
        out();
      }
      for (const [subject, format] of [['wirepack', 'MessagePack'], ['wirepack/cbor', 'CBOR']]) {
        const s = rows.find((r) => r.id === subject);
        const peers = rows.filter((r) => r.id !== subject && !r.failed && (r.format === format || r.format === 'JSON'));
        if (!s || s.failed || !peers.length) continue;
        const best = peers.reduce((a, b) => (b.peakRss < a.peakRss ? b : a));
        const leastKept = peers.reduce((a, b) => (b.droppedDelta < a.droppedDelta ? b : a));
        const entry = {
          input: inp.name,
          subject,
          peakDelta: s.peakDelta,
          peakRss: s.peakRss,
          wasmMemory: s.wasmMemory,
          best: { id: best.id, peakDelta: best.peakDelta, peakRss: best.peakRss },
          droppedDelta: s.droppedDelta,
          wasmResident: s.wasmResident,
          inputBytes: s.size,
          leastRetained: { id: leastKept.id, droppedDelta: leastKept.droppedDelta },
          keptStrings: s.keptStrings ?? null,
        };
        result.memoryHeadline.push(entry);
        out(
          `- ${subject}: peak RSS ${mb(s.peakRss)} MiB, ${mb(s.peakDelta)} over its baseline (wasm memory ${mb(s.wasmMemory)}); ` +
            `lowest peak among ${format} peers and JSON: ${best.id}, ${mb(best.peakRss)} (${mb(best.peakDelta)} over its baseline); ` +
            `retained after the result is dropped: ${mb(s.droppedDelta)}, least among those peers: ${leastKept.id}, ${mb(leastKept.droppedDelta)}; ` +
            `of it wasm memory ${mb(s.wasmResident)} (` +
            (s.wasmResident == null ? 'n/a' : s.size >= MiB ? `${(s.wasmResident / s.size).toFixed(1)}x its ${mb(s.size)} MiB input` : `its tables and stack: the input is ${(s.size / 1024).toFixed(1)} KB`) +
            '); for a small input, the rest is mostly one-time (code the first decodes compiled)' +
            (s.keptStrings
              ? `; a string kept from the result held ${kib(s.keptStrings.oneString.heap)} KiB (strings of 13+ characters are ` +
                `slices of a chunk of at most 32 KiB of the message's strings), one in a hundred kept held ` +
                `${kib(s.keptStrings.hundredth.heap)} KiB, ${(s.keptStrings.hundredth.heap / s.size).toFixed(2)}x the input ` +
                '(bound: the string areas, at most 2x the input)'
              : ''),
        );
      }
      for (const r of rows) if (r.failed) out(`- FAILED ${r.id}: ${r.failed}`);
      log(`[${ctx.pass}] [memory] ${inp.name} done in ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1)} s`);
    }
    fs.rmSync(tmp, { recursive: true, force: true });
    return result;
  },
};
