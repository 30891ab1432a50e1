#!/usr/bin/env node
// wirepack in headless Chromium: `node bench/browser/run.js [--quick]`.
//
// Bundles bench/browser/page.js (wirepack's browser entries, msgpackr's and cbor-x's browser
// builds, the inputs) with esbuild, serves it from a throwaway node:http server on 127.0.0.1,
// drives the system Chromium (/usr/bin/chromium, never a downloaded one) through playwright-core
// with a fresh profile, and prints markdown in the Node harness's format (bench/lib/report.js).
// Results also go to bench/results/browser.md and bench/results/browser.json.
//
// Knobs: --quick or BENCH_QUICK=1; BENCH_ROUNDS, BENCH_BATCH_MS, BENCH_WARMUP_MS, BENCH_INPUTS,
// BENCH_CONTENDERS as for bench/run.js (see bench/lib/config.js); CHROMIUM_PATH (default
// /usr/bin/chromium).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import zlib from 'node:zlib';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import { BENCH_DIR, REPO_DIR, readConfig, describeMachine, packageVersion } from '../lib/config.js';
import { table, ratio } from '../lib/report.js';
import { CHROMIUM_PATH, chromiumArgs } from '../../scripts/chromium.js';

const HERE = path.join(BENCH_DIR, 'browser');
const RESULTS_DIR = path.join(BENCH_DIR, 'results');
const CHROMIUM = CHROMIUM_PATH;
const CHROMIUM_ARGS = chromiumArgs();
const INPUTS = ['strings.json', 'numbers.json', 'example4.json'];

const lines = [];
const out = (s = '') => {
  lines.push(s);
  process.stdout.write(s + '\n');
};
const log = (s) => process.stderr.write(s + '\n');
const int = (x) => Math.round(x).toLocaleString('en-US');
const pct = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const ms = (x) => (x == null ? 'n/a' : x < 10 ? x.toFixed(2) : x.toFixed(1));

// ---------------------------------------------------------------------------------------------
// Bundles

/** bench/fixtures/*.json as text modules: the page parses them, as the Node harness does. */
const fixturesAsText = {
  name: 'fixtures-as-text',
  setup(build) {
    const dir = path.join(BENCH_DIR, 'fixtures');
    build.onLoad({ filter: /\.json$/ }, (args) => {
      if (path.dirname(args.path) !== dir) return undefined;
      return { contents: fs.readFileSync(args.path, 'utf8'), loader: 'text' };
    });
  },
};

/**
 * Marks every module of js/src as having side effects. Without it esbuild drops
 * js/src/load.browser.js (the top-level await that loads the wasm): package.json's "sideEffects"
 * lists load.browser.js but not the entries that import it, and esbuild then skips the entries'
 * own bodies when it follows their re-exports. userBundleCheck() reports whether that still happens.
 */
const wirepackSideEffects = {
  name: 'wirepack-side-effects',
  setup(build) {
    const dir = path.join(REPO_DIR, 'js', 'src') + path.sep;
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const full = path.resolve(args.resolveDir, args.path);
      if (!full.startsWith(dir)) return undefined;
      return { path: full, sideEffects: true };
    });
  },
};

/**
 * Bundles `import ... from 'wirepack'` and 'wirepack/cbor' as an application would (esbuild,
 * platform=browser, package.json as it is): does the bundle keep the module that loads the wasm?
 */
async function userBundleCheck() {
  try {
    const res = await esbuild.build({
      stdin: {
        contents: "import { pack, isInitialized } from 'wirepack'; import { encode } from 'wirepack/cbor'; console.log(isInitialized(), pack, encode);",
        resolveDir: REPO_DIR,
        loader: 'js',
      },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    const text = res.outputFiles[0].text;
    return { ok: text.includes('// js/src/load.browser.js'), bytes: text.length };
  } catch (err) {
    return { ok: false, error: String(err && err.message ? err.message.split('\n')[0] : err) };
  }
}

async function bundle(entry, { minify = false, plugins = [] } = {}) {
  const res = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm', // the wirepack entries use top-level await
    platform: 'browser', // msgpackr's and cbor-x's browser builds
    target: 'es2022',
    minify,
    write: false,
    logLevel: 'silent',
    absWorkingDir: REPO_DIR,
    plugins,
  });
  return Buffer.from(res.outputFiles[0].contents);
}

// ---------------------------------------------------------------------------------------------
// Server

function importProbeHtml(example4Text) {
  // Times the first import of the wirepack entry in a fresh page of a fresh profile: fetch from
  // 127.0.0.1, parse, base64 decode of the inlined wasm, compile and instantiate (top-level await),
  // then the first pack + unpack of example4 (lazy tier-up of the functions it touches).
  return `<!doctype html><meta charset="utf-8"><title>wirepack import probe</title>
<script type="module">
const doc = JSON.parse(${JSON.stringify(example4Text)});
const r = {};
try {
  const t0 = performance.now();
  const m = await import('/wirepack-entry.js');
  const t1 = performance.now();
  const buf = m.pack(doc);
  const back = m.unpack(buf);
  const t2 = performance.now();
  const e = performance.getEntriesByType('resource').find((x) => x.name.endsWith('/wirepack-entry.js'));
  Object.assign(r, {
    importMs: t1 - t0,
    fetchMs: e ? e.responseEnd - t0 : null,
    fetchDetail: e ? { startTime: e.startTime - t0, requestStart: e.requestStart - t0, responseStart: e.responseStart - t0, responseEnd: e.responseEnd - t0, transferSize: e.transferSize } : null,
    afterFetchMs: e ? t1 - e.responseEnd : null,
    firstCallMs: t2 - t1,
    initialized: m.isInitialized(),
    roundTripOk: JSON.stringify(back) === JSON.stringify(doc),
  });
} catch (err) {
  r.error = String(err && err.stack || err);
}
window.importResult = r;
</script>`;
}

function startServer(routes) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const route = routes[url.pathname];
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': route.type,
      'cache-control': 'no-store',
      // cross-origin isolation: performance.now() at 5 µs instead of 100 µs resolution
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
      'cross-origin-resource-policy': 'same-origin',
    });
    res.end(route.body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

// ---------------------------------------------------------------------------------------------
// Ratios and tables

const SUBJECTS = [
  { id: 'wirepack', group: 'msgpack', peers: ['msgpackr', 'json-pack', 'JSON'], references: ['msgpackr-records'], variants: ['wirepack-eval-free'] },
  { id: 'wirepack/cbor', group: 'cbor', peers: ['cbor-x', 'json-pack/cbor', 'JSON'], references: [], variants: [] },
];

const inGroup = (row, group) => row.group === group || row.group === 'both';

/** For one subject: its op/s, its ratio to every other row of its group, and to the best peer. */
function computeRatios(rows, subject) {
  const res = {};
  for (const op of ['encode', 'decode']) {
    const s = rows.find((r) => r.id === subject.id && r.op === op);
    if (!s) continue;
    const vs = {};
    let best = null;
    for (const r of rows) {
      if (r.op !== op || r.id === subject.id || !inGroup(r, subject.group)) continue;
      vs[r.id] = s.opsPerSec / r.opsPerSec;
      if (r.role === 'peer' && (!best || r.opsPerSec > best.opsPerSec)) best = r;
    }
    const variants = {};
    for (const v of subject.variants) {
      const vr = rows.find((r) => r.id === v && r.op === op);
      if (vr) variants[v] = { opsPerSec: vr.opsPerSec, vsBestPeer: best ? vr.opsPerSec / best.opsPerSec : null };
    }
    res[op] = {
      opsPerSec: s.opsPerSec,
      vs,
      bestPeer: best ? { id: best.id, opsPerSec: best.opsPerSec, ratio: s.opsPerSec / best.opsPerSec } : null,
      variants,
    };
  }
  return res;
}

function inputTable(res, cfg) {
  const body = [];
  const failedShown = new Set();
  const order = [];
  for (const c of res.contenders) {
    for (const op of c.ops) order.push({ id: c.id, op });
  }
  for (const { id, op } of order) {
    const r = res.rows.find((x) => x.id === id && x.op === op);
    if (!r) {
      const f = res.failed.find((x) => x.id === id);
      if (!f || failedShown.has(`${id}:${op}`)) continue;
      failedShown.add(`${id}:${op}`);
      body.push([`${id}: ${op}`, '', '', 'FAILED', '', '', '', '']);
      continue;
    }
    const rel = (subject) => {
      if (!inGroup(r, subject.group)) return '';
      if (r.id === subject.id) return '1.00x';
      return ratio(res.ratios[subject.id][op]?.vs[r.id]);
    };
    body.push([
      r.label,
      int(r.totalOps),
      int(r.totalMs),
      int(r.opsPerSec),
      int(r.size),
      `${pct(r.spreadLow)} / ${pct(r.spreadHigh)}`,
      rel(SUBJECTS[0]),
      rel(SUBJECTS[1]),
    ]);
  }
  const header = [
    `operation (${cfg.rounds} rounds, op/s = median round)`,
    'op',
    'ms',
    'op/s',
    'size',
    'spread (min / max vs median)',
    'wirepack / this',
    'wirepack/cbor / this',
  ];
  const text = [table(header, body, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'])];
  for (const subject of SUBJECTS) {
    for (const op of ['encode', 'decode']) {
      const q = res.ratios[subject.id][op];
      const b = q?.bestPeer;
      if (b) text.push(`${subject.id} / best peer, ${op}: ${ratio(b.ratio)} (best peer: ${b.id}, ${int(b.opsPerSec)} op/s)`);
      for (const [v, x] of Object.entries(q?.variants ?? {})) {
        if (b) text.push(`${v} / best peer, ${op}: ${ratio(x.vsBestPeer)} (${int(x.opsPerSec)} op/s)`);
      }
    }
  }
  for (const f of res.failed) text.push(`- FAILED ${f.id}: ${f.reason}`);
  return text.join('\n');
}

function summaryTable(results, subject) {
  const pair = (r, id) => `${ratio(r.encode?.vs[id])} / ${ratio(r.decode?.vs[id])}`;
  const header = [
    'input',
    `${subject.id} enc op/s`,
    `${subject.id} dec op/s`,
    ...subject.peers.map((id) => `vs ${id} enc/dec`),
    'vs best peer enc/dec',
    ...subject.variants.map((id) => `${id} dec op/s, vs best peer`),
    ...subject.references.map((id) => `vs ${id} (ref) enc/dec`),
  ];
  const body = results.map((res) => {
    const r = res.ratios[subject.id];
    return [
      res.input,
      r.encode ? int(r.encode.opsPerSec) : 'FAILED',
      r.decode ? int(r.decode.opsPerSec) : 'FAILED',
      ...subject.peers.map((id) => pair(r, id)),
      `${ratio(r.encode?.bestPeer?.ratio)} / ${ratio(r.decode?.bestPeer?.ratio)}`,
      ...subject.variants.map((id) => {
        const v = r.decode?.variants[id];
        return v ? `${int(v.opsPerSec)}, ${ratio(v.vsBestPeer)}` : 'n/a';
      }),
      ...subject.references.map((id) => pair(r, id)),
    ];
  });
  return table(header, body, header.map((_, i) => (i === 0 ? 'l' : 'r')));
}

/**
 * Per subject, what fresh memory adds to each of its encode results on this input
 * (measureResultMemory: the result's size cut as encode.js cuts it, fresh against reused), as a
 * share of its encode time, and its encode time without that share next to JSON.stringify's.
 * @param {any} res @param {{bytes: number, freshUs: number, reusedUs: number}[] | undefined} memory
 * @returns {string[]}
 */
function resultMemoryLines(res, memory) {
  if (!memory) return [];
  const lines = [];
  const json = res.rows.find((r) => r.id === 'JSON' && r.op === 'encode');
  for (const s of SUBJECTS) {
    const row = res.rows.find((r) => r.id === s.id && r.op === 'encode');
    const m = row && memory.find((x) => x.bytes === row.size);
    if (!m || !(row.opsPerSec > 0)) continue;
    const encUs = 1e6 / row.opsPerSec, addUs = Math.max(0, m.freshUs - m.reusedUs);
    const jsonUs = json && json.opsPerSec > 0 ? 1e6 / json.opsPerSec : null;
    const jsonPart = jsonUs !== null
      ? `; without it ${(encUs - addUs).toFixed(2)} µs, ${ratio(jsonUs / Math.max(encUs - addUs, 1e-9))} JSON.stringify's ${jsonUs.toFixed(2)} µs`
      : '';
    lines.push(`- ${s.id} encode: its ${int(row.size)}-byte result costs ${m.freshUs.toFixed(2)} µs in fresh memory (${m.reusedUs.toFixed(2)} µs ` +
      `in memory used again): ${Math.round((addUs / encUs) * 100)}% of its ${encUs.toFixed(2)} µs per encode${jsonPart}.`);
  }
  if (lines.length) {
    lines.unshift('Result memory (measured alone, cut as wirepack cuts results: see "fresh memory"; wirepack never reuses the memory ' +
      'of a result it returned, since the caller may keep it):');
  }
  return lines;
}

/** Busy and total jiffies of all CPUs from /proc/stat (Linux), or null. */
function readProcStat() {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = f[3] + (f[4] || 0);
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const quick = process.argv.includes('--quick');
  if (quick) process.env.BENCH_QUICK = '1';
  const cfg = readConfig();
  delete cfg.out;
  const wasmTrials = cfg.quick ? 5 : 21;
  const inputs = INPUTS.filter((f) => !cfg.inputs || cfg.inputs.some((x) => f.includes(x)));
  const machine = describeMachine();
  const started = process.hrtime.bigint();

  log('[browser] bundling ...');
  const [pageJs, entryJs, userBundle] = await Promise.all([
    bundle(path.join(HERE, 'page.js'), { plugins: [fixturesAsText, wirepackSideEffects] }),
    bundle(path.join(REPO_DIR, 'js', 'src', 'index.browser.js'), { minify: true, plugins: [wirepackSideEffects] }),
    userBundleCheck(),
  ]);
  // BENCH_BROWSER_PROFILE=file: a CPU profile of the timed inputs (Chrome DevTools format, for
  // `node --cpu-prof`-style tools) goes there, and the page's bundle, whose lines it refers to,
  // next to it as file.page.js
  const profileTo = process.env.BENCH_BROWSER_PROFILE || null;
  if (profileTo) fs.writeFileSync(`${profileTo}.page.js`, pageJs);
  const example4Text = fs.readFileSync(path.join(BENCH_DIR, 'fixtures', 'example4.json'), 'utf8');
  const html = '<!doctype html><meta charset="utf-8"><title>wirepack browser bench</title><script type="module" src="/page.js"></script>';
  const server = await startServer({
    '/': { type: 'text/html; charset=utf-8', body: html },
    '/page.js': { type: 'text/javascript; charset=utf-8', body: pageJs },
    '/import.html': { type: 'text/html; charset=utf-8', body: importProbeHtml(example4Text) },
    '/wirepack-entry.js': { type: 'text/javascript; charset=utf-8', body: entryJs },
  });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wirepack-chromium-'));
  let context = null;
  const report = { machine, config: { ...cfg, wasmTrials }, userBundle, inputs: [] };
  try {
    log(`[browser] launching ${CHROMIUM} ...`);
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    const pageErrors = [];

    // 1. Cold import of the entry, first page of a fresh profile.
    const probe = await context.newPage();
    probe.on('pageerror', (e) => pageErrors.push(`import.html: ${e.message}`));
    const cdp = await context.newCDPSession(probe);
    const version = await cdp.send('Browser.getVersion').catch(() => null);
    await probe.goto(`${origin}/import.html`);
    await probe.waitForFunction(() => window.importResult, null, { timeout: 30000 });
    const importResult = await probe.evaluate(() => window.importResult);
    await probe.close();

    // 2. The benchmark page.
    const page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(`page.js: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') log(`[browser console] ${m.text()}`);
    });
    await page.goto(`${origin}/`);
    try {
      await page.waitForFunction(() => globalThis.bench, null, { timeout: 60000 });
    } catch (err) {
      throw new Error(`the benchmark page did not load: ${pageErrors.join('; ') || err.message}`);
    }
    const info = await page.evaluate(() => globalThis.bench.info());
    const chromiumVersion = version?.product?.replace(/^(Headless)?Chrome\//, '') ?? info.userAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? '?';
    report.chromium = { version: chromiumVersion, product: version?.product ?? null, v8: version?.jsVersion ?? null, userAgent: info.userAgent };
    report.page = info;
    report.import = importResult;

    log('[browser] wasm compile / instantiate ...');
    const wasm = await page.evaluate((n) => globalThis.bench.measureWasm(n), wasmTrials);
    report.wasm = wasm;
    log('[browser] fresh memory ...');
    report.freshMemory = await page.evaluate((sizes) => globalThis.bench.measureFreshMemory(sizes), [64, 1024, 6400, 65536]);

    const stat0 = readProcStat();
    const profiler = profileTo ? await context.newCDPSession(page) : null;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.setSamplingInterval', { interval: 50 });
      await profiler.send('Profiler.start');
    }
    for (const input of inputs) {
      log(`[browser] ${input} ...`);
      const t0 = process.hrtime.bigint();
      const res = await page.evaluate(
        ([name, c]) => globalThis.bench.runInput(name, c),
        [input, { rounds: cfg.rounds, batchMs: cfg.batchMs, warmupMs: cfg.warmupMs, contenders: cfg.contenders }],
      );
      res.contenders = info.contenders.filter((c) => c.role === 'subject' || !cfg.contenders || cfg.contenders.includes(c.id));
      res.ratios = {};
      for (const s of SUBJECTS) res.ratios[s.id] = computeRatios(res.rows, s);
      report.inputs.push(res);
      log(`[browser] ${input} done in ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1)} s`);
    }
    // what the memory of each subject's encode result adds to its encode (measureResultMemory)
    const resultSizes = [...new Set(report.inputs.flatMap((res) => res.rows.filter((r) => r.op === 'encode' && SUBJECTS.some((s) => s.id === r.id)).map((r) => r.size)))];
    if (resultSizes.length) {
      log('[browser] result memory ...');
      report.resultMemory = await page.evaluate((sizes) => globalThis.bench.measureResultMemory(sizes), resultSizes);
    }
    if (profiler) {
      const { profile } = await profiler.send('Profiler.stop');
      fs.writeFileSync(profileTo, JSON.stringify(profile));
      log(`[browser] CPU profile written to ${profileTo} (page bundle: ${profileTo}.page.js)`);
    }
    const stat1 = readProcStat();
    if (stat0 && stat1 && stat1.total > stat0.total) report.machineBusyShare = (stat1.busy - stat0.busy) / (stat1.total - stat0.total);
    report.pageErrors = pageErrors;
  } finally {
    if (context) await context.close().catch(() => {});
    server.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }

  // ---- markdown
  const ch = report.chromium;
  const info = report.page;
  out('## browser: MessagePack and CBOR in headless Chromium');
  out();
  out(`- Chromium ${ch.version}${ch.v8 ? ` (V8 ${ch.v8})` : ''}, headless, ${CHROMIUM} via playwright-core ${packageVersion('playwright-core') ?? '?'}; ` +
    `page cross-origin isolated: ${info.crossOriginIsolated} (performance.now() step ${(info.timerResolutionMs * 1000).toFixed(0)} µs); code generation allowed: ${info.codegenAllowed}`);
  out(`- CPU: ${machine.cpu} x ${machine.cpuCount}, load average ${machine.loadavg.join(' ')}; node ${machine.node} drives it${machine.git ? `; repo ${machine.git}` : ''}`);
  out(`- contenders (esbuild ESM bundle, platform=browser): wirepack ${packageVersion('wirepack') ?? JSON.parse(fs.readFileSync(path.join(REPO_DIR, 'package.json'), 'utf8')).version} ` +
    `(js/src/index.browser.js, js/src/cbor.browser.js), msgpackr ${packageVersion('msgpackr') ?? '?'} (browser build; native: ${info.msgpackrNative}), ` +
    `cbor-x ${packageVersion('cbor-x') ?? '?'} (browser build; native: ${info.cborXNative}), @jsonjoy.com/json-pack ${packageVersion('@jsonjoy.com/json-pack') ?? '?'} ` +
    `(MsgPackEncoderFast/MsgPackDecoderFast, CborEncoderFast/CborDecoderBase), Chromium's JSON`);
  out(`- method: all contenders in one page; per input, each must decode its own steady-state encoding back to a value deep-equal ` +
    `to the input (else FAILED); ${cfg.rounds} rounds, each running every (contender, op) once (rotating order) for a ~${cfg.batchMs} ms batch ` +
    `after ${cfg.warmupMs} ms warm-up; op/s is the median round${cfg.quick ? ' (quick smoke run: numbers are rough)' : ''}. ` +
    `As the jsbench page: encode(obj) on the parsed object, decode of each contender's own encoding; JSON is JSON.stringify(obj) / JSON.parse(str), size in UTF-8 bytes.`);
  out(`- rows: wirepack = pack/unpack; wirepack-eval-free = new Unpackr({codegen: false, useRecords: false}) (decode only: encoding has no code generation); ` +
    `msgpackr-records = new Packr({structures: []}) as jsbench times it (reference row: not plain MessagePack, not a "best peer"). ` +
    `Best peer: msgpackr, json-pack or JSON for wirepack, cbor-x, json-pack or JSON for wirepack/cbor.`);

  out();
  out('### wasm start-up');
  out();
  const imp = report.import;
  const w = report.wasm;
  const entryGz = zlib.gzipSync(entryJs).length;
  if (imp.error) out(`- first \`await import()\` of the entry FAILED: ${imp.error.split('\n')[0]}`);
  else {
    out(`- first \`await import()\` of wirepack's browser entry (esbuild, minified: ${int(entryJs.length)} B, ${int(entryGz)} B gzip; wasm inlined as base64), ` +
      `fresh profile: ${ms(imp.importMs)} ms (fetch from 127.0.0.1 ${ms(imp.fetchMs)} ms, then parse + base64 + compile + instantiate ${ms(imp.afterFetchMs)} ms); ` +
      `first pack + unpack of example4 after it: ${ms(imp.firstCallMs)} ms${imp.initialized && imp.roundTripOk ? '' : ' (NOT initialised or round trip wrong)'}`);
  }
  const ub = report.userBundle;
  out(ub.ok
    ? "- an application's esbuild bundle of `import { pack } from 'wirepack'` keeps js/src/load.browser.js (the wasm loads on import)"
    : `- **an application's esbuild bundle of \`import { pack } from 'wirepack'\` drops js/src/load.browser.js, so the wasm never loads and every call throws "not initialised"** ` +
      (ub.error ? `(bundle failed: ${ub.error})` : "(package.json's sideEffects lists load.browser.js/load.node.js but not the entries that import them). " +
      'The timed bundles here mark js/src as side-effectful to work around it.'));
  const stat = (s) => `median ${ms(s.median)} ms (first ${ms(s.first)}, min ${ms(s.min)}, max ${ms(s.max)})`;
  out(`- ${int(w.wasmBytes)} B module, ${w.trials} trials, each with a unique custom section so V8's compiled-module cache never hits: ` +
    `\`WebAssembly.compile\` ${stat(w.compile)}; \`WebAssembly.instantiate\` ${stat(w.instantiate)}; base64 decode of the inlined bytes ` +
    `(load.browser.js's loop) ${stat(w.base64)}${w.nativeBase64 ? `, with \`Uint8Array.fromBase64\` ${stat(w.nativeBase64)}` : ''}`);

  if (report.freshMemory) {
    out();
    out('### fresh memory');
    out();
    out('Every encode result is bytes of its own (a Uint8Array; wirepack cuts results of up to 16 KB from 64 KB slabs), where ' +
      "JSON.stringify's is a string in V8's heap. What this page pays per result for memory it has not used before: a new " +
      '`Uint8Array(n)` with each 4 KB page written, against the same writes into one buffer used again (median of 9 rounds of ~50 ms):');
    out();
    out(report.freshMemory.map((r) => `${int(r.bytes)} B: ${r.freshUs.toFixed(2)} µs fresh, ${r.reusedUs.toFixed(3)} µs reused`).join('; '));
  }

  for (const res of report.inputs) {
    out();
    out(`### ${res.input} (${res.jsonBytes.toLocaleString('en-US')} B of JSON)`);
    out();
    out(inputTable(res, cfg));
    const memory = resultMemoryLines(res, report.resultMemory);
    if (memory.length) {
      out();
      for (const line of memory) out(line);
    }
  }

  if (report.inputs.length) {
    out();
    out('### Summary: browser (op/s and subject / peer op/s; > 1 means the subject is faster)');
    out();
    out(summaryTable(report.inputs, SUBJECTS[0]));
    out();
    out(summaryTable(report.inputs, SUBJECTS[1]));
  }

  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  report.durationSeconds = Math.round(seconds * 10) / 10;
  report.loadavgEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);
  report.checksum = report.inputs.reduce((s, i) => s + i.rows.reduce((t, r) => t + r.checksum, 0), 0);
  out();
  if (report.pageErrors?.length) out(`Page errors: ${report.pageErrors.join('; ')}`);
  if (report.machineBusyShare != null) {
    const own = 1 / machine.cpuCount;
    out(`The machine's CPUs were ${Math.round(report.machineBusyShare * 100)}% busy during the timed inputs; the benchmark's page needs about ` +
      `${Math.round(own * 100)}% (one core of ${machine.cpuCount})` +
      (report.machineBusyShare > own + 0.15 ? ': other processes were running, expect wide spreads.' : '.'));
  }
  out(`Done in ${seconds.toFixed(1)} s (checksum ${report.checksum}); load average at end ${report.loadavgEnd.join(' ')}.`);

  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'browser.md'), lines.join('\n') + '\n');
  fs.writeFileSync(path.join(RESULTS_DIR, 'browser.json'), JSON.stringify(report, null, 2) + '\n');
  log('[browser] results written to bench/results/browser.md and bench/results/browser.json');
  // Errors fail the run (CI smoke test), speed never does; a peer's failed round trip is reported
  // but is not our error.
  const subjectFailures = report.inputs.flatMap((i) => i.failed).filter((f) => f.role === 'subject' || f.id.startsWith('wirepack'));
  if (subjectFailures.length || report.import.error || report.pageErrors?.length || !report.wasm?.codecWorks) process.exitCode = 1;
}

main().catch((err) => {
  log(err && err.stack ? err.stack : String(err));
  process.exitCode = 1;
});
