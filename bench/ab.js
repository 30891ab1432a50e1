// A/B of two wirepack trees, for changes of a few percent that one process cannot show.
//
//   node bench/ab.js <treeB> [--a=<treeA>] [--mode=paired|peer|c] [--processes=N] [--rounds=R]
//                    [--batch-ms=M] [--cases=name,...] [--history=all|input,...] [--history-ms=N]
//
// A is this checkout unless --a is given; B is another tree with built js/src (typically
// `git worktree add /tmp/x/b <commit>`, then `bash build.sh` there, or a copy of this tree's
// js/src/wasm-inline.js and js/src/transcode-inline.js when the C is the same). Every number
// comes from fresh processes, because on one machine the same code runs at speeds that differ
// from process to process (which functions V8 inlines depends on when it optimizes them: the
// plain pack of sample-small took 247-333 ns in ten processes where msgpackr's took 237-263),
// and the machine's own speed drifts by up to 2x within minutes.
//
// --mode=paired (default): each process loads both trees (half of them A first: the tree loaded
//   first is favoured by a few percent) and times a batch of A and one of B in turn, R times per
//   case; a process's ratio is the median of its R ratios of A's time to B's (> 1: B is faster).
//   Reported: the median over processes, and their range.
// --mode=peer: each process loads one tree (A and B alternate) and times it against msgpackr or
//   cbor-x in the same paired rounds; a process's ratio is the peer's time to the tree's (> 1:
//   the tree is faster). Reported: each tree's median over its processes, and B's over A's. This
//   is the mode for changes that affect what V8 does with the code (inlining, feedback), which
//   two trees in one process share the budget of; it needs about twice the processes.
// --mode=c: the C call alone (wpw_decode, wpw_cbor_decode, wpw_encode or wpw_cbor_encode),
//   replayed with the arguments the library's own call passed (captured once per case, over the
//   input or tape that call left in wasm memory): each process loads both trees and runs short
//   batches of A and B in turn, R times per case (default 150 batches of 2 ms); a process's
//   ratio is A's minimum over B's (> 1: B is faster), with its 10th percentiles beside it. On a
//   VM whose neighbours slow a whole process down for seconds, the minimum of many short
//   batches resolves 1-2% where the modes above resolve about 4% (two identical trees: medians
//   0.985-1.004 over 6 processes; a single process favours one of them by up to 3-4%, by where
//   its memory landed, so it takes several); it leaves out everything around the C (the JS
//   walk or build, copies, call set-up). Cases: mp-pack, mp-unpack, cbor-encode, cbor-decode (a
//   stream input timed as one value, the array of its messages), the records decodes
//   mp-records-unpack, mp-bundled-unpack and cbor-records-decode (one value, defining its
//   records), cbor-packed-decode, mp-shared-unpack (one value, its records shared structures),
//   mp-moretypes-unpack, and the chunk decodes mp-stream-unpack and cbor-stream-decode (C_CALLS).
//
// Cases are `<format>-<op>:<input>`: mp-pack, mp-unpack, cbor-encode, cbor-decode (the free
// functions, as the peers' own benchmarks call them), mp-records-pack, mp-records-unpack,
// cbor-records-encode, cbor-records-decode (the default instances, `new Packr()` / `new
// Encoder()`), cbor-packed-encode, cbor-packed-decode (`new Encoder({ useRecords: false, pack:
// true })`, the peers suite's packed CBOR), mp-bundled-pack, mp-bundled-unpack (`new
// Packr(bundledOptions())`, the peers suite's bundled strings), mp-shared-pack, mp-shared-unpack
// (`new Packr({ structures: [] })`, the peers suite's records mode: after the first message,
// records refer to shared structures), mp-moretypes-pack, mp-moretypes-unpack (`new Packr({
// moreTypes: true })`, as the varied suite times its typed-arrays input), mp-stream-pack,
// mp-stream-unpack, cbor-stream-encode, cbor-stream-decode (the
// codec inside the library's PackrStream/UnpackrStream or EncoderStream/DecoderStream: 100
// sequential packs, or one 100-message chunk decoded; see streamOperation), over
// sample-small, sample-datatypes, example4 (bench/fixtures), fluentd (the stream suite's
// message) and small-messages (the first segment of the varied suite's stream; one op is the
// whole segment), or varied-<category>: any category of the varied suite (a stream's first
// segment). Default: the four free-function cases over sample-small, fluentd and example4.
// The library views: jp-pack, jp-unpack, jpc-encode, jpc-decode (wirepack/json-pack's
// MsgPackEncoderFast / MsgPackDecoderFast and CborEncoderFast / CborDecoderBase, one instance
// each; peer: json-pack's own classes) and mm-pack, mm-unpack (wirepack/msgpack's encode /
// decode; peer: @msgpack/msgpack's).
//
// --history=all (or =input,...; paired and peer modes): before the cases, every library in the
//   process encodes and decodes those inputs (plain and records, both formats, 20 ms each, or
//   --history-ms=N), as a full run's earlier suites do before its later rows. Rows that are below
//   their peers in a full run but not in fresh processes are this effect; --history approximates
//   it for one change.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { loadJsonFixture } from './lib/fixtures.js';
import { median as medianOfSorted } from './lib/runner.js';
import { CATEGORIES } from './lib/varied.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_CASES = ['sample-small', 'fluentd', 'example4'].flatMap((i) => ['mp-pack', 'mp-unpack', 'cbor-encode', 'cbor-decode'].map((c) => `${c}:${i}`));
const FLUENTD = ['tag', [[1440949922, { message: 'hi there' }]]];
/** The bundled-strings cases' Packr options (the peers suite's msgpackr bundleStrings row): new
 * each time, since a Packr adds its shared structures to the array it is given. */
const bundledOptions = () => ({ bundleStrings: true, structures: [] });

function parseArgs(argv) {
  const o = { mode: 'paired', processes: 0, rounds: 0, batchMs: 0, cases: DEFAULT_CASES, history: /** @type {string[]} */ ([]), historyMs: 20, a: REPO, b: null, child: null };
  for (const arg of argv) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m) {
      o.b = path.resolve(arg);
      continue;
    }
    const [, k, v = ''] = m;
    if (k === 'a') o.a = path.resolve(v);
    else if (k === 'mode') o.mode = v;
    else if (k === 'processes') o.processes = Number(v);
    else if (k === 'rounds') o.rounds = Number(v);
    else if (k === 'batch-ms') o.batchMs = Number(v);
    else if (k === 'cases') o.cases = v.split(',').filter(Boolean);
    else if (k === 'history') o.history = v === 'all' ? HISTORY_ALL : v.split(',').filter(Boolean);
    else if (k === 'history-ms') o.historyMs = Number(v);
    else if (k === 'child') o.child = JSON.parse(v);
    else throw new Error(`bench/ab.js: unknown option --${k}`);
  }
  if (!o.processes) o.processes = o.mode === 'peer' ? 12 : 6;
  if (!o.rounds) o.rounds = o.mode === 'c' ? 150 : 20;
  if (!o.batchMs) o.batchMs = o.mode === 'c' ? 2 : 15;
  return o;
}

/** The value (or, for a stream, the messages) of an input. */
async function loadInput(name) {
  if (name === 'fluentd') return { doc: FLUENTD, stream: false };
  if (name === 'small-messages' || name.startsWith('varied-')) {
    // a category of the varied suite: its document, or a stream's first segment
    const { generateVaried } = await import('./lib/varied.js');
    const c = generateVaried(name.startsWith('varied-') ? name.slice('varied-'.length) : name);
    return c.kind === 'stream' ? { doc: c.doc[0], stream: true } : { doc: c.doc, stream: false };
  }
  return { doc: loadJsonFixture(`${name}.json`).doc, stream: false };
}

/**
 * The operation of a case for one library: a function that runs it once (over every message of
 * a stream input), and the bytes it produces or decodes (to compare the trees' encodings).
 * @param {string} kind e.g. 'mp-pack' @param {{mp: any, cbor: any}} lib @param {{doc: any, stream: boolean}} input
 */
function operation(kind, lib, input) {
  const msgs = input.stream ? input.doc : [input.doc];
  const [fmt, ...rest] = kind.split('-');
  const bundled = rest[0] === 'bundled', shared = rest[0] === 'shared', moreTypes = rest[0] === 'moretypes';
  const records = rest[0] === 'records' || bundled || shared || moreTypes;
  const packed = rest[0] === 'packed';
  const op = rest[rest.length - 1];
  if (rest[0] === 'stream') return streamOperation(fmt, op, lib, msgs);
  if ((bundled || shared || moreTypes) && fmt !== 'mp') throw new Error(`bench/ab.js: bundled strings, shared structures and moreTypes are MessagePack's (${kind})`);
  if (packed && fmt !== 'cbor') throw new Error(`bench/ab.js: packed is CBOR's (${kind})`);
  let enc, dec;
  if (fmt === 'mp') {
    const p = bundled ? new lib.mp.Packr(bundledOptions()) : shared ? new lib.mp.Packr({ structures: [] }) : moreTypes ? new lib.mp.Packr({ moreTypes: true }) : records ? new lib.mp.Packr() : null;
    enc = p ? (v) => p.pack(v) : (v) => lib.mp.pack(v);
    dec = p ? (b) => p.unpack(b) : (b) => lib.mp.unpack(b);
  } else if (fmt === 'cbor') {
    const e = packed ? new lib.cbor.Encoder(packedOptions()) : records ? new lib.cbor.Encoder() : null;
    enc = e ? (v) => e.encode(v) : (v) => lib.cbor.encode(v);
    dec = e ? (b) => e.decode(b) : (b) => lib.cbor.decode(b);
  } else if (fmt === 'jp' || fmt === 'jpc') {
    // json-pack's classes (the peers' MsgPackEncoderFast / CborEncoderFast and their decoders),
    // wirepack/json-pack's or json-pack's own: one instance each, as the suites time them
    const L = fmt === 'jp' ? lib.jp : lib.jpc;
    const e = fmt === 'jp' ? new L.MsgPackEncoderFast() : new L.CborEncoderFast();
    const d = fmt === 'jp' ? new L.MsgPackDecoderFast() : new L.CborDecoderBase();
    enc = (v) => e.encode(v);
    dec = (b) => d.decode(b);
  } else if (fmt === 'mm') {
    // wirepack/msgpack's or @msgpack/msgpack's free functions
    enc = (v) => lib.mm.encode(v);
    dec = (b) => lib.mm.decode(b);
  } else {
    throw new Error(`bench/ab.js: unknown case ${kind}`);
  }
  const bufs = msgs.map((m) => Buffer.from(enc(m)));
  let sink = 0;
  if (op === 'pack' || op === 'encode') {
    return { run: () => { for (let i = 0; i < msgs.length; i++) sink += enc(msgs[i]).length; return sink; }, bytes: bufs };
  }
  if (op === 'unpack' || op === 'decode') {
    return { run: () => { for (let i = 0; i < bufs.length; i++) sink += dec(bufs[i]) === undefined ? 0 : 1; return sink; }, bytes: bufs };
  }
  throw new Error(`bench/ab.js: unknown case ${kind}`);
}

/** The packed cases' Encoder options (the peers suite's packed CBOR row), fresh for each Encoder. */
const packedOptions = () => ({ useRecords: false, pack: true });

/** Messages per decoded chunk in the stream cases, as the stream suite writes them (JOIN). */
const STREAM_JOIN = 100;

/**
 * A stream case: the codec a library's streams use, without Node's stream machinery. The
 * messages are the input's (a single document: STREAM_JOIN copies of it, as the stream suite
 * writes the fluentd message). pack/encode: each message through the encoder stream's packer
 * (sequential records: the first message defines its record, the rest refer to it); one op
 * packs them all. unpack/decode: that packer's output for all of them, one chunk, through the
 * decoder stream's unpackMultiple / decodeMultiple, as a stream's write of it does.
 * @param {string} fmt 'mp' or 'cbor' @param {string} op @param {{mp: any, cbor: any}} lib @param {any[]} msgs
 */
function streamOperation(fmt, op, lib, msgs) {
  const list = msgs.length === 1 ? new Array(STREAM_JOIN).fill(msgs[0]) : msgs;
  const mp = fmt === 'mp';
  if (!mp && fmt !== 'cbor') throw new Error(`bench/ab.js: unknown stream format ${fmt}`);
  const packer = mp ? new lib.mp.PackrStream().packr : new lib.cbor.EncoderStream().encoder;
  const enc = mp ? (v) => packer.pack(v) : (v) => packer.encode(v);
  const joined = Buffer.concat(list.map((m) => Buffer.from(enc(m))));
  let sink = 0;
  if (op === 'pack' || op === 'encode') {
    return { run: () => { for (let i = 0; i < list.length; i++) sink += enc(list[i]).length; return sink; }, bytes: [joined] };
  }
  if (op !== 'unpack' && op !== 'decode') throw new Error(`bench/ab.js: unknown stream case ${fmt}-stream-${op}`);
  const unpacker = mp ? new lib.mp.UnpackrStream().unpackr : new lib.cbor.DecoderStream().decoder;
  const dec = mp ? (b) => unpacker.unpackMultiple(b) : (b) => unpacker.decodeMultiple(b);
  const n = dec(joined).length;
  if (n !== list.length) throw new Error(`bench/ab.js: ${fmt}-stream-${op} decoded ${n} values of ${list.length}`);
  return { run: () => (sink += dec(joined).length), bytes: [joined] };
}

/** The C calls --mode=c replays, by case kind: [export, the library call that makes the capture]. */
const C_CALLS = {
  'mp-pack': ['wpw_encode', (lib, v) => lib.mp.pack(v)],
  'mp-unpack': ['wpw_decode', (lib, v) => lib.mp.unpack(lib.mp.pack(v))],
  'cbor-encode': ['wpw_cbor_encode', (lib, v) => lib.cbor.encode(v)],
  'cbor-decode': ['wpw_cbor_decode', (lib, v) => lib.cbor.decode(lib.cbor.encode(v))],
  'mp-records-unpack': ['wpw_decode', (lib, v) => { const p = new lib.mp.Packr(); return p.unpack(p.pack(v)); }],
  'mp-bundled-unpack': ['wpw_decode', (lib, v) => { const p = new lib.mp.Packr(bundledOptions()); return p.unpack(p.pack(v)); }],
  'mp-moretypes-unpack': ['wpw_decode', (lib, v) => { const p = new lib.mp.Packr({ moreTypes: true }); return p.unpack(p.pack(v)); }],
  'mp-shared-unpack': ['wpw_decode', (lib, v) => { const p = new lib.mp.Packr({ structures: [] }); p.pack(v); return p.unpack(p.pack(v)); }],
  'cbor-records-decode': ['wpw_cbor_decode', (lib, v) => { const e = new lib.cbor.Encoder(); return e.decode(e.encode(v)); }],
  'cbor-packed-decode': ['wpw_cbor_decode', (lib, v) => { const e = new lib.cbor.Encoder(packedOptions()); return e.decode(e.encode(v)); }],
  'mp-stream-unpack': ['wpw_decode', (lib, v) => streamOperation('mp', 'unpack', lib, [v]).run()],
  'cbor-stream-decode': ['wpw_cbor_decode', (lib, v) => streamOperation('cbor', 'decode', lib, [v]).run()],
};

/**
 * --mode=c: the tree's C call for a case, replayable. Runs the library call once with the
 * runtime's export wrapped to record its arguments (the last call of that export: for a decode,
 * the one over the encoding), then returns a function that calls the export with them again.
 * The input or tape stays where that call left it, as long as nothing else runs on this tree's
 * runtime in between.
 * @param {string} kind @param {{mp: any, cbor: any, runtime: any}} lib @param {{doc: any, stream: boolean}} input
 */
function cOperation(kind, lib, input) {
  const call = C_CALLS[kind];
  if (!call) throw new Error(`bench/ab.js: --mode=c has no case ${kind} (only ${Object.keys(C_CALLS).join(', ')})`);
  const [name, make] = call;
  const rt = lib.runtime.runtime(), x = rt.x, f = x[name];
  /** @type {any[] | null} */
  let args = null;
  rt.x = Object.assign(Object.create(null), x, { [name]: (...a) => { args = a; return f(...a); } });
  try {
    make(lib, input.doc);
  } finally {
    rt.x = x;
  }
  if (args === null) throw new Error(`bench/ab.js: ${kind} made no ${name} call`);
  const a = /** @type {any[]} */ (args);
  if (f(...a) !== 0) throw new Error(`bench/ab.js: ${kind}: the replayed ${name} failed`);
  return a.length === 4 ? () => f(a[0], a[1], a[2], a[3]) : a.length === 5 ? () => f(a[0], a[1], a[2], a[3], a[4]) : () => f(...a);
}

/** ms per call of f, over batches of about ms milliseconds. */
function batch(f, ms) {
  let n = 0;
  const t0 = performance.now();
  let t;
  do {
    for (let i = 0; i < 20; i++) f();
    n += 20;
  } while ((t = performance.now() - t0) < ms);
  return t / n;
}

const median = (a) => medianOfSorted([...a].sort((x, y) => x - y));

/**
 * --history=all: what runs before a row in a full bench run (bench/README.md, "What ran before a
 * row in the process changes it"): the fixtures, the stream message and every category of the
 * varied suite, in the suites' order.
 */
const HISTORY_ALL = ['example4', 'sample-datatypes', 'sample-small', 'sample-medium', 'sample-large', 'example-twitter', 'fluentd', ...CATEGORIES.map((c) => `varied-${c.name}`)];
/** The operations each history input goes through, in every library of the process. */
const HISTORY_KINDS = [
  'mp-pack', 'mp-unpack', 'mp-records-pack', 'mp-records-unpack', 'cbor-encode', 'cbor-decode', 'cbor-records-encode', 'cbor-records-decode',
  // the library views, which the msgpack-benchmark and cbor suites time in the same process (their
  // classes reach the same functions: Packr#write sees their instances too)
  'jp-pack', 'jp-unpack', 'jpc-encode', 'jpc-decode', 'mm-pack', 'mm-unpack',
];

/**
 * Before the timed cases: each history input through each of HISTORY_KINDS in each library of
 * the process, for about `ms` milliseconds each (at least once), so that the libraries'
 * functions carry the feedback (types seen, call targets) that a full run's earlier inputs leave
 * there. The rows of a full run are measured after such a history; a fresh process shows what a
 * row's code can do.
 * @param {{mp: any, cbor: any}[]} libs @param {string[]} names @param {number} ms
 */
async function runHistory(libs, names, ms) {
  for (const name of names) {
    const input = await loadInput(name);
    for (const kind of HISTORY_KINDS) {
      for (const lib of libs) {
        try {
          const { run } = operation(kind, lib, input);
          const t0 = performance.now();
          do run();
          while (performance.now() - t0 < ms);
        } catch {
          // (an input a library cannot encode in that mode is history all the same)
        }
      }
    }
  }
}

/** One process: for each case, the median of its paired rounds' ratios (first over second). */
async function child(cfg) {
  const require = createRequire(path.join(REPO, 'package.json'));
  const peers = {
    mp: require('msgpackr'), cbor: require('cbor-x'),
    jp: require('@jsonjoy.com/json-pack/lib/msgpack'), jpc: require('@jsonjoy.com/json-pack/lib/cbor'), mm: require('@msgpack/msgpack'),
  };
  const libs = [];
  for (const tree of cfg.trees) {
    if (tree === 'peer') {
      libs.push(peers);
    } else {
      const jp = await import(path.join(tree, 'js/src/json-pack.node.js'));
      libs.push({ mp: await import(path.join(tree, 'js/src/index.node.js')), cbor: await import(path.join(tree, 'js/src/cbor.node.js')), jp, jpc: jp, mm: await import(path.join(tree, 'js/src/msgpack.node.js')) });
    }
  }
  const out = {};
  if (cfg.cmode) {
    for (const [i, tree] of cfg.trees.entries()) libs[i].runtime = await import(path.join(tree, 'js/src/runtime.js'));
    for (const c of cfg.cases) {
      const [kind, inputName] = c.split(':');
      const input = await loadInput(inputName);
      const runs = libs.map((lib) => cOperation(kind, lib, input));
      for (const run of runs) batch(run, 100);
      /** @type {number[][]} */
      const times = [[], []];
      for (let r = 0; r < cfg.rounds; r++) {
        const first = r & 1;
        times[first].push(batch(runs[first], cfg.batchMs));
        times[1 - first].push(batch(runs[1 - first], cfg.batchMs));
      }
      const [a, b] = times.map((t) => [...t].sort((x, y) => x - y));
      const p10 = (t) => t[Math.floor(t.length / 10)];
      out[c] = { ratio: a[0] / b[0], p10: p10(a) / p10(b), ns: [a[0] * 1e6, b[0] * 1e6] };
    }
    process.stdout.write(JSON.stringify(out) + '\n');
    return;
  }
  if (cfg.history && cfg.history.length) await runHistory(libs, cfg.history, cfg.historyMs);
  for (const c of cfg.cases) {
    const [kind, inputName] = c.split(':');
    const input = await loadInput(inputName);
    const ops = libs.map((lib) => operation(kind, lib, input));
    const same = cfg.trees.includes('peer') || ops[0].bytes.every((b, i) => b.equals(ops[1].bytes[i]));
    for (const o of ops) batch(o.run, 150);
    const ratios = [];
    for (let r = 0; r < cfg.rounds; r++) {
      const first = r & 1;
      const x = batch(ops[first].run, cfg.batchMs), y = batch(ops[1 - first].run, cfg.batchMs);
      const [t0, t1] = first ? [y, x] : [x, y];
      ratios.push(t0 / t1);
    }
    out[c] = { ratio: median(ratios), same };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}

function runChild(cfg) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [fileURLToPath(import.meta.url), `--child=${JSON.stringify(cfg)}`], { stdio: ['ignore', 'pipe', 'inherit'], cwd: REPO });
    let s = '';
    p.stdout.on('data', (d) => (s += d));
    p.on('close', (code) => (code === 0 ? resolve(JSON.parse(s.trim().split('\n').pop())) : reject(new Error(`bench/ab.js: a child exited with ${code}`))));
  });
}

function checkTree(tree) {
  for (const f of ['js/src/index.node.js', 'js/src/wasm-inline.js', 'js/src/transcode-inline.js']) {
    if (!fs.existsSync(path.join(tree, f))) {
      throw new Error(`bench/ab.js: ${tree} has no ${f}: run \`bash build.sh\` there (or copy js/src/wasm-inline.js and js/src/transcode-inline.js from a built tree whose C is the same)`);
    }
  }
}

const fmt = (x) => x.toFixed(3);

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (o.child) return child(o.child);
  if (!o.b) throw new Error('usage: node bench/ab.js <treeB> [--a=<treeA>] [--mode=paired|peer|c] [--processes=N] [--rounds=R] [--batch-ms=M] [--cases=...] [--history=all|input,...] [--history-ms=N]');
  checkTree(o.a);
  checkTree(o.b);
  const t0 = Date.now();
  if (o.history.length !== 0 && o.mode === 'c') throw new Error('bench/ab.js: --history is for --mode=paired and --mode=peer (C mode times the C call alone)');
  console.log(`A: ${o.a}\nB: ${o.b}\nmode ${o.mode}, ${o.processes} processes, ${o.rounds} paired rounds of ${o.batchMs} ms per case and process${o.history.length ? `; history: ${o.history.length} inputs first` : ''}\n`);
  // what every child is given besides its trees
  const run = { cases: o.cases, history: o.history, historyMs: o.historyMs, rounds: o.rounds, batchMs: o.batchMs };
  if (o.mode === 'paired') {
    const per = {};
    for (let i = 0; i < o.processes; i++) {
      const bFirst = i & 1;
      const res = await runChild({ ...run, trees: bFirst ? [o.b, o.a] : [o.a, o.b] });
      for (const [c, v] of Object.entries(res)) (per[c] ||= []).push({ r: bFirst ? 1 / v.ratio : v.ratio, same: v.same });
    }
    console.log('case | A time / B time (> 1: B faster), median over processes | range | encodings');
    console.log('--- | ---: | ---: | ---');
    for (const c of o.cases) {
      const rs = per[c].map((x) => x.r);
      console.log(`${c} | ${fmt(median(rs))} | ${fmt(Math.min(...rs))}-${fmt(Math.max(...rs))} | ${per[c].every((x) => x.same) ? 'same' : 'differ'}`);
    }
  } else if (o.mode === 'c') {
    const per = {};
    for (let i = 0; i < o.processes; i++) {
      const bFirst = i & 1;
      const res = await runChild({ ...run, trees: bFirst ? [o.b, o.a] : [o.a, o.b], cmode: true });
      for (const [c, v] of Object.entries(res)) {
        (per[c] ||= []).push(bFirst ? { r: 1 / v.ratio, p10: 1 / v.p10, a: v.ns[1], b: v.ns[0] } : { r: v.ratio, p10: v.p10, a: v.ns[0], b: v.ns[1] });
      }
    }
    console.log('case | A min / B min (> 1: B faster), median over processes | range | p10 ratio, median | A min, B min (ns per call, lowest over processes)');
    console.log('--- | ---: | ---: | ---: | ---:');
    for (const c of o.cases) {
      const rs = per[c].map((x) => x.r);
      const ns = (k) => Math.min(...per[c].map((x) => x[k])).toFixed(1);
      console.log(`${c} | ${fmt(median(rs))} | ${fmt(Math.min(...rs))}-${fmt(Math.max(...rs))} | ${fmt(median(per[c].map((x) => x.p10)))} | ${ns('a')}, ${ns('b')}`);
    }
  } else if (o.mode === 'peer') {
    const per = { A: {}, B: {} };
    for (let i = 0; i < o.processes; i++) {
      const which = i & 1 ? 'B' : 'A';
      // (trees: peer first, so that the ratio is the peer's time over the tree's)
      const res = await runChild({ ...run, trees: ['peer', which === 'A' ? o.a : o.b] });
      for (const [c, v] of Object.entries(res)) (per[which][c] ||= []).push(v.ratio);
    }
    console.log('case | A: peer time / A time (median, range) | B: peer time / B time (median, range) | B / A');
    console.log('--- | ---: | ---: | ---:');
    for (const c of o.cases) {
      const a = per.A[c], b = per.B[c];
      console.log(`${c} | ${fmt(median(a))} (${fmt(Math.min(...a))}-${fmt(Math.max(...a))}) | ${fmt(median(b))} (${fmt(Math.min(...b))}-${fmt(Math.max(...b))}) | ${fmt(median(b) / median(a))}`);
    }
  } else {
    throw new Error(`bench/ab.js: unknown mode ${o.mode}`);
  }
  console.log(`\n(${((Date.now() - t0) / 1000).toFixed(0)} s; peers: msgpackr for mp-*, cbor-x for cbor-*, json-pack for jp-* and jpc-*, @msgpack/msgpack for mm-*)`);
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
