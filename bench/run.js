#!/usr/bin/env node
// wirepack benchmark: `node bench/run.js [--quick] [--addons=both|on|off] [--no-browser] [suite ...]`
// (`npm run bench` builds first). Runs the Node suites under bench/suites/ twice: with msgpackr's and
// cbor-x's native addons on (in this process) and off (in a child process started with
// MSGPACKR_NATIVE_ACCELERATION_DISABLED=true and CBOR_NATIVE_ACCELERATION_DISABLED=true, set before
// either library is imported); then the browser suite (`node bench/browser/run.js`) when that file
// exists. Markdown goes to stdout and to bench/results/latest.md, the data to
// bench/results/latest.json; a full run (no --quick, no filters) also rewrites bench/RESULTS.md,
// the committed copy the README quotes. Exits non-zero when anything FAILED or threw, never
// because of a speed. Knobs: see bench/lib/config.js and bench/README.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { BENCH_DIR, REPO_DIR, readConfig, describeMachine, packageVersion } from './lib/config.js';
import { runStandardSuite } from './lib/standard.js';
import { median } from './lib/runner.js';
import { table, ratio } from './lib/report.js';

const ADDON_ENV = ['MSGPACKR_NATIVE_ACCELERATION_DISABLED', 'CBOR_NATIVE_ACCELERATION_DISABLED'];
const BROWSER_RUNNER = path.join(BENCH_DIR, 'browser', 'run.js');
const log = (s) => process.stderr.write(s + '\n');

function parseArgs(argv) {
  const a = { quick: false, addons: 'both', browser: true, passChild: null, suites: [], passthrough: [] };
  for (const arg of argv) {
    if (arg === '--quick') a.quick = true;
    else if (arg === '--no-browser') a.browser = false;
    else if (arg.startsWith('--addons=')) a.addons = arg.slice('--addons='.length);
    else if (arg.startsWith('--pass-child=')) a.passChild = arg.slice('--pass-child='.length);
    else if (arg === '-h' || arg === '--help') a.help = true;
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg} (see bench/README.md)`);
    else a.suites.push(arg);
  }
  if (!['both', 'on', 'off'].includes(a.addons)) throw new Error(`--addons must be both, on or off, not ${a.addons}`);
  return a;
}

async function loadSuites(names) {
  const dir = path.join(BENCH_DIR, 'suites');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.js')).sort();
  const suites = [];
  for (const f of files) {
    const suite = (await import(pathToFileURL(path.join(dir, f)).href)).default;
    if (!suite || !suite.name) throw new Error(`bench/suites/${f} has no default export with a name`);
    suites.push(suite);
  }
  // fixed order: the peers' own benchmarks first, memory (child processes) last
  const order = ['peers-benchmark', 'msgpack-benchmark', 'cbor', 'stream', 'varied', 'memory'];
  suites.sort((x, y) => (order.indexOf(x.name) + 1 || 99) - (order.indexOf(y.name) + 1 || 99));
  const wanted = names.filter((n) => n !== 'browser' && n !== 'transcode');
  if (!names.length) return suites;
  const unknown = wanted.filter((n) => !suites.some((s) => s.name === n));
  if (unknown.length) {
    throw new Error(`unknown suite(s) ${unknown.join(', ')}; available: ${suites.map((s) => s.name).join(', ')}, browser`);
  }
  return suites.filter((s) => wanted.includes(s.name));
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

/** Share of all CPU time used by processes other than this one (and its children) between two samples. */
function otherLoad(s0, c0, s1, c1, childCpuUs = 0) {
  if (!s0 || !s1 || s1.total <= s0.total) return null;
  const hz = 100; // USER_HZ
  const ownJiffies = ((c1.user + c1.system - c0.user - c0.system + childCpuUs) / 1e6) * hz;
  return Math.max(0, (s1.busy - s0.busy - ownJiffies) / (s1.total - s0.total));
}

async function addonStatus() {
  const status = {};
  try {
    status.msgpackr = (await import('msgpackr')).isNativeAccelerationEnabled === true;
  } catch (err) {
    status.msgpackr = `not loaded: ${err.message.split('\n')[0]}`;
  }
  try {
    status.cborX = (await import('cbor-x')).isNativeAccelerationEnabled === true;
  } catch (err) {
    status.cborX = `not loaded: ${err.message.split('\n')[0]}`;
  }
  return status;
}

const onOff = (v) => (v === true ? 'on' : v === false ? 'off' : String(v));

/** Runs the Node suites in this process; returns the pass's data. Markdown through out(). */
async function runPass(label, cfg, suites, out) {
  const started = process.hrtime.bigint();
  const stat0 = readProcStat();
  const cpu0 = process.cpuUsage();
  const addons = await addonStatus();
  const env = ADDON_ENV.map((k) => `${k}=${process.env[k] ?? '(unset)'}`).join(', ');
  out(`## Node, native addons ${label}`);
  out();
  out(
    `- msgpackr native addon (msgpackr-extract ${packageVersion('msgpackr-extract') ?? '?'}): **${onOff(addons.msgpackr)}**; ` +
      `cbor-x native addon (cbor-extract ${packageVersion('cbor-extract') ?? '?'}): **${onOff(addons.cborX)}** (${env})`,
  );
  out(
    `- method: all contenders of a suite in one process; ${cfg.rounds} rounds, each running every contender once ` +
      `(rotating order) for a ~${cfg.batchMs} ms batch after ${cfg.warmupMs} ms warm-up; op/s is the median round` +
      (cfg.quick ? ' (--quick smoke run: numbers are rough)' : ''),
  );
  const pass = { label, addons, suites: [], failures: [] };
  const cache = new Map();
  for (const suite of suites) {
    out();
    const ctx = { cfg, out, log, cache, h: '###', pass: label };
    let res;
    try {
      res = suite.run ? await suite.run.call(suite, ctx) : await runStandardSuite(suite, ctx);
    } catch (err) {
      const msg = err && err.stack ? err.stack.split('\n').slice(0, 3).join(' | ') : String(err);
      out(`FAILED: suite ${suite.name} threw: ${msg}`);
      pass.failures.push({ suite: suite.name, id: '(suite)', reason: `threw: ${msg}` });
      continue;
    }
    pass.suites.push(res);
    pass.failures.push(...(res.failures ?? []));
  }
  // wirepack's wasm memory after every suite of this pass ran in this process
  try {
    const { runtime } = await import('../js/src/runtime.js');
    pass.wasmMemoryEnd = runtime().memory.buffer.byteLength;
  } catch {
    pass.wasmMemoryEnd = null;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const others = otherLoad(stat0, cpu0, readProcStat(), process.cpuUsage(), 0);
  pass.durationSeconds = Math.round(seconds * 10) / 10;
  pass.otherProcessesCpuShare = others;
  const shares = pass.suites.flatMap((su) => (su.inputs ?? []).flatMap((i) => (i.rows ?? []).filter((r) => r.cpuShare != null).map((r) => r.cpuShare))).sort((a, b) => a - b);
  out();
  out(
    `Pass "addons ${label}" done in ${seconds.toFixed(1)} s. wirepack wasm memory at the end of the pass: ` +
      `${pass.wasmMemoryEnd != null ? (pass.wasmMemoryEnd / 2 ** 20).toFixed(1) + ' MiB' : 'n/a'}.` +
      (shares.length ? ` This process got a median ${Math.round(median(shares) * 100)}% of a core during timed batches (min ${Math.round(shares[0] * 100)}%).` : '') +
      (others != null ? ` Other processes used ${Math.round(others * 100)}% of the machine's CPU time` + (others > 0.1 ? ' (the machine was shared: expect wide spreads).' : '.') : ''),
  );
  const faulty = pass.suites
    .flatMap((su) => (su.inputs ?? []).flatMap((i) => (i.rows ?? []).filter((r) => r.faultsPerOp >= 0.5).map((r) => ({ su: su.name, input: i.input, r }))))
    .sort((a, b) => b.r.faultsPerOp - a.r.faultsPerOp);
  if (faulty.length) {
    out();
    out(
      `Minor page faults (fresh pages from the kernel, microseconds each in a VM) during timed batches: ${faulty.length} rows paid 0.5 or more per op, ` +
        `so their op/s depend on what malloc gave back to the kernel as much as on the code: ` +
        faulty.slice(0, 16).map((x) => `${x.su} ${x.input} ${x.r.id} ${x.r.op} ${x.r.faultsPerOp.toFixed(1)}`).join('; ') +
        (faulty.length > 16 ? `; and ${faulty.length - 16} more.` : '.'),
    );
  }
  if (pass.failures.length) {
    out();
    out(`FAILED in this pass: ${pass.failures.map((f) => `${f.suite}/${f.input ?? '-'}/${f.id}`).join(', ')}`);
  }
  return pass;
}

/** Runs a command, streaming its stdout to ours (and into `sink`), stderr straight through. */
function runChild(args, env, sink) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'], cwd: REPO_DIR });
    let buf = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => {
      process.stdout.write(d);
      buf += d;
    });
    child.on('close', (code, signal) => {
      sink(buf);
      resolve({ code, signal });
    });
    child.on('error', (err) => {
      sink(buf);
      resolve({ code: null, signal: null, error: err.message });
    });
  });
}

function chromiumVersion(stdout, json) {
  const c = json && (json.chromium ?? json.chromiumVersion ?? json.browserVersion ?? json.browser ?? json.machine?.chromium);
  const fromJson = c && typeof c === 'object' ? c.version : c;
  if (fromJson) return String(fromJson);
  const m = /(?:Chromium|HeadlessChrome|Chrome)[ /:v]*(\d+\.\d+\.\d+\.\d+)/i.exec(stdout || '');
  return m ? m[1] : null;
}

/** wirepack / best peer per (suite, subject, input, op), addons on and off side by side. */
function headline(passes) {
  const keys = [];
  const byKey = new Map();
  for (const p of passes) {
    for (const su of p.suites) {
      for (const e of su.headline ?? []) {
        const k = `${e.suite}|${e.subject}|${e.input}|${e.op}`;
        if (!byKey.has(k)) {
          byKey.set(k, {});
          keys.push(k);
        }
        byKey.get(k)[p.label] = e;
      }
    }
  }
  const labels = passes.map((p) => p.label);
  const cell = (e) => (!e ? '' : e.failed ? 'FAILED' : e.bestPeer ? `${ratio(e.bestPeer.ratio)} (${e.bestPeer.id})` : 'no peer');
  const refCell = (e) => (!e || e.failed || !e.bestRef ? '' : `${ratio(e.bestRef.ratio)} (${e.bestRef.id})`);
  const header = ['suite', 'input', 'subject', 'op', ...labels.map((l) => `addons ${l}: subject / best peer`), `addons ${labels[0]}: subject / fastest reference row`];
  const body = keys.map((k) => {
    const [suite, subject, input, op] = k.split('|');
    const v = byKey.get(k);
    return [suite, input, subject, op, ...labels.map((l) => cell(v[l])), refCell(v[labels[0]])];
  });
  const losses = [];
  for (const k of keys) {
    for (const l of labels) {
      const e = byKey.get(k)[l];
      if (e && !e.failed && e.bestPeer && e.bestPeer.ratio < 1) {
        const [suite, subject, input, op] = k.split('|');
        losses.push(`${suite} ${input} ${op} (${subject}, addons ${l}): ${ratio(e.bestPeer.ratio)} of ${e.bestPeer.id}`);
      }
    }
  }
  const lines = [
    `Ratios are subject op/s / best peer op/s (> 1.00x: wirepack faster; < 1.00x: slower). Best peer excludes reference rows ` +
      '(variants wirepack has no equivalent for yet, and streams); the last column compares with the fastest of those.',
    '',
    table(header, body, header.map((_, i) => (i < 4 ? 'l' : 'r'))),
  ];
  lines.push('');
  if (losses.length) {
    lines.push(`**Where wirepack is slower than the best peer** (${losses.length} of ${keys.length * labels.length} comparisons):`);
    lines.push('');
    for (const l of losses) lines.push(`- ${l}`);
  } else {
    lines.push('wirepack is not slower than the best peer on any row above.');
  }
  const mem = [];
  for (const p of passes) {
    for (const su of p.suites) {
      for (const e of su.memoryHeadline ?? []) mem.push({ pass: p.label, ...e });
    }
  }
  if (mem.length) {
    const mb = (x) => (x == null ? 'n/a' : (x / 2 ** 20).toFixed(1));
    lines.push('');
    lines.push('Memory while decoding, each library in a fresh process (MiB; peak RSS is the whole process\'s, "rise" the part over its baseline after loading):');
    lines.push('');
    const mh = ['input', 'addons', 'subject', 'subject peak RSS', 'subject rise', 'wasm memory', 'lowest peak RSS among peers (incl. JSON)', 'KiB held by kept strings: one / 1 in 100'];
    const ks = (/** @type {any} */ k) => (k ? `${(k.oneString.heap / 1024).toFixed(1)} / ${(k.hundredth.heap / 1024).toFixed(1)}` : '');
    lines.push(
      table(
        mh,
        mem.map((e) => [e.input, e.pass, e.subject, mb(e.peakRss), mb(e.peakDelta), mb(e.wasmMemory), `${mb(e.best.peakRss)} (${e.best.id}, rise ${mb(e.best.peakDelta)})`, ks(e.keptStrings)]),
        mh.map((_, i) => (i < 3 ? 'l' : 'r')),
      ),
    );
  }
  const wasmEnd = passes.filter((p) => p.wasmMemoryEnd != null).map((p) => `addons ${p.label}: ${(p.wasmMemoryEnd / 2 ** 20).toFixed(1)} MiB`);
  if (wasmEnd.length) {
    lines.push('');
    lines.push(`wirepack's wasm memory at the end of each Node pass (all suites run in that process): ${wasmEnd.join(', ')}.`);
  }
  return lines.join('\n');
}

async function childMain(args) {
  const cfg = readConfig(args.quick ? ['--quick'] : []);
  const suites = await loadSuites(args.suites);
  const out = (s = '') => process.stdout.write(s + '\n');
  const pass = await runPass('off', cfg, suites, out);
  fs.writeFileSync(args.passChild, JSON.stringify(pass) + '\n');
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(fs.readFileSync(path.join(BENCH_DIR, 'README.md'), 'utf8'));
    return;
  }
  if (args.passChild) return childMain(args);

  const cfg = readConfig(args.quick ? ['--quick'] : []);
  const suites = await loadSuites(args.suites);
  const machine = describeMachine();
  const started = process.hrtime.bigint();
  const md = [];
  const out = (s = '') => {
    process.stdout.write(s + '\n');
    md.push(s);
  };
  const full = !cfg.quick && !args.suites.length && !cfg.inputs && !cfg.contenders && args.addons === 'both' && args.browser;
  const report = { machine, config: { ...cfg, addons: args.addons, suites: suites.map((s) => s.name), full }, passes: [], browser: null, failures: [] };

  // The "on" pass runs here: make sure the addons are not disabled by the caller's environment.
  const runOn = args.addons !== 'off';
  const runOff = args.addons !== 'on';
  if (runOn) for (const k of ADDON_ENV) delete process.env[k];

  const bodyStart = md.length;
  if (suites.length && runOn) {
    report.passes.push(await runPass('on', cfg, suites, out));
    out();
  }
  if (suites.length && runOff) {
    const jsonPath = path.join(os.tmpdir(), `wirepack-bench-off-${process.pid}.json`);
    const env = { ...process.env };
    for (const k of ADDON_ENV) env[k] = 'true';
    log('[bench] pass "addons off" in a child process ...');
    const childArgs = [path.join(BENCH_DIR, 'run.js'), `--pass-child=${jsonPath}`, ...(cfg.quick ? ['--quick'] : []), ...args.suites.filter((s) => s !== 'browser')];
    const r = await runChild(childArgs, env, (s) => md.push(...s.replace(/\n$/, '').split('\n')));
    if (r.code !== 0) report.failures.push({ suite: '(addons off pass)', id: '(child)', reason: `exited ${r.code ?? r.signal ?? r.error}` });
    try {
      const pass = JSON.parse(fs.readFileSync(jsonPath, 'utf8'));
      report.passes.push(pass);
      fs.rmSync(jsonPath, { force: true });
    } catch (err) {
      out(`FAILED: the "addons off" pass wrote no results (${err.message})`);
      report.failures.push({ suite: '(addons off pass)', id: '(child)', reason: 'no results' });
    }
    out();
  }
  for (const p of report.passes) report.failures.push(...p.failures.map((f) => ({ pass: p.label, ...f })));

  // Browser suite (another part of bench/, run as its own program).
  const wantBrowser = args.browser && (!args.suites.length || args.suites.includes('browser'));
  if (wantBrowser) {
    if (fs.existsSync(BROWSER_RUNNER)) {
      const jsonPath = path.join(path.dirname(cfg.out), 'browser.json');
      fs.mkdirSync(path.dirname(jsonPath), { recursive: true });
      fs.rmSync(jsonPath, { force: true });
      log('[bench] browser suite: node bench/browser/run.js ...');
      let stdout = '';
      const r = await runChild([BROWSER_RUNNER, ...(cfg.quick ? ['--quick'] : [])], { ...process.env, BENCH_BROWSER_JSON: jsonPath }, (s) => {
        stdout = s;
        md.push(...s.replace(/\n$/, '').split('\n'));
      });
      let json = null;
      try {
        json = JSON.parse(fs.readFileSync(jsonPath, 'utf8'));
      } catch {
        /* optional */
      }
      report.browser = { exitCode: r.code, signal: r.signal, chromium: chromiumVersion(stdout, json), results: json };
      if (r.code !== 0) {
        out(`FAILED: node bench/browser/run.js exited ${r.code ?? r.signal ?? r.error}`);
        report.failures.push({ suite: 'browser', id: '(runner)', reason: `exited ${r.code ?? r.signal ?? r.error}` });
      }
      out();
    } else {
      report.browser = { missing: true };
      out('## Browser');
      out();
      out('(no browser suite yet: bench/browser/run.js does not exist)');
      out();
    }
  }

  // Transcoding (issue 8: wirepack/transcode and the native CLI), its own program; full runs, or
  // when named (`node bench/run.js transcode`); not in --quick smoke runs.
  const TRANSCODE_RUNNER = path.join(BENCH_DIR, 'transcode.js');
  if ((full || args.suites.includes('transcode')) && !cfg.quick && fs.existsSync(TRANSCODE_RUNNER)) {
    log('[bench] transcode: node bench/transcode.js ...');
    out('## Transcoding, find and the CLI (bench/transcode.js)');
    out();
    const r = await runChild([TRANSCODE_RUNNER], { ...process.env }, (s) => md.push(...s.replace(/\n$/, '').split('\n')));
    if (r.code !== 0) {
      out(`FAILED: node bench/transcode.js exited ${r.code ?? r.signal ?? r.error}`);
      report.failures.push({ suite: 'transcode', id: '(runner)', reason: `exited ${r.code ?? r.signal ?? r.error}` });
    }
    out();
  }

  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  report.durationSeconds = Math.round(seconds * 10) / 10;
  report.loadavgEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);

  // Header and headline go first in the file; on stdout the headline comes last.
  const head = [
    '# wirepack benchmark',
    '',
    `- ${machine.date}${machine.git ? `, wirepack at ${machine.git}` : ''}${cfg.quick ? ' — **--quick smoke run: rough numbers, not results**' : ''}`,
    `- CPU: ${machine.cpu} x ${machine.cpuCount}, ${machine.totalMemGiB} GiB; ${machine.platform}`,
    `- Node ${machine.node} (V8 ${machine.v8})` +
      (report.browser && !report.browser.missing ? `; Chromium ${report.browser.chromium ?? '(version not reported)'}` : report.browser?.missing ? '; no browser suite yet' : ''),
    `- peers: ${['msgpackr', 'msgpackr-extract', 'cbor-x', 'cbor-extract', '@msgpack/msgpack', 'msgpack-lite', 'notepack.io', 'msgpack5', 'cbor', '@jsonjoy.com/json-pack'].map((p) => `${p} ${packageVersion(p) ?? '?'}`).join(', ')}`,
    `- total time ${seconds.toFixed(1)} s (build not included); load average at start ${machine.loadavg.join(' ')}, at end ${report.loadavgEnd.join(' ')}`,
    '',
  ];
  const hl = report.passes.length ? headline(report.passes) : '';
  const failuresText = report.failures.length
    ? `**FAILED** (${report.failures.length}): ` + report.failures.map((f) => `${f.pass ? `[addons ${f.pass}] ` : ''}${f.suite}${f.input ? ` ${f.input}` : ''} ${f.id}: ${f.reason}`).join('; ')
    : 'No FAILED rows: every decoder\'s output deep-equalled its input.';
  const tailStart = md.length;
  if (hl) {
    out('## Headline');
    out();
    out(hl);
    out();
  }
  out(failuresText);
  out();
  out(`Done in ${seconds.toFixed(1)} s.`);

  // On stdout the headline came last; the file has it first.
  const passesText = md.slice(bodyStart, tailStart).join('\n');
  const fileText = [
    ...head,
    ...(hl ? ['## Headline', '', hl, ''] : []),
    failuresText,
    '',
    passesText.trimEnd(),
    '',
  ].join('\n');

  fs.mkdirSync(path.dirname(cfg.out), { recursive: true });
  fs.writeFileSync(cfg.out, JSON.stringify(report, null, 2) + '\n');
  const mdPath = cfg.out.replace(/\.json$/, '') + '.md';
  fs.writeFileSync(mdPath, fileText);
  log(`results written to ${path.relative(process.cwd(), cfg.out)} and ${path.relative(process.cwd(), mdPath)}`);
  if (full) {
    const results = path.join(BENCH_DIR, 'RESULTS.md');
    const preamble = [
      '<!-- Generated by `npm run bench` (bench/run.js) from its latest full run; do not edit by hand. -->',
      '',
      'Reproduce on your machine: `npm ci && npm run bench` (builds, then the full run: both addon passes',
      'and the browser suite when present, about 10 minutes on 2 cores); `npm run bench -- --quick` is a',
      'smoke run (under a minute, rough numbers). One suite: `node bench/run.js <suite>`. Method and knobs:',
      '[bench/README.md](README.md). Every row of the run is below, the rows where wirepack loses included;',
      'a ratio below 1.00x means wirepack is slower. The raw numbers of every round are in',
      '`bench/results/latest.json` after a run (not committed).',
      '',
    ];
    fs.writeFileSync(results, fileText.replace(/^# wirepack benchmark\n/, `# wirepack benchmark results\n\n${preamble.join('\n')}`));
    log(`full run: also wrote ${path.relative(process.cwd(), results)}`);
    // README's performance section: the headline of this run, between its markers
    const readme = path.join(BENCH_DIR, '..', 'README.md');
    const text = fs.existsSync(readme) ? fs.readFileSync(readme, 'utf8') : '';
    const a = text.indexOf('<!-- bench:start -->'), b = text.indexOf('<!-- bench:end -->');
    if (a >= 0 && b > a) {
      const section = [
        '<!-- bench:start -->',
        '<!-- Generated by `npm run bench` from its latest full run (bench/run.js); do not edit by hand. -->',
        '',
        ...head.slice(2, -1),
        '',
        hl,
        '',
        failuresText,
        '',
        'Every row of that run, each suite and input, both addon passes, the Chromium suite and the',
        'memory suite: [bench/RESULTS.md](bench/RESULTS.md). Reproduce: `npm run bench` (about 10 minutes',
        'on 2 cores), `npm run bench -- --quick` for a smoke run. The machine may be shared: trust a',
        'ratio only when it is well outside the spreads printed in RESULTS.md.',
        '',
      ].join('\n');
      fs.writeFileSync(readme, text.slice(0, a) + section + text.slice(b));
      log('full run: also rewrote the performance section of README.md');
    }
  }
  if (report.failures.length) process.exitCode = 1;
}

main().catch((err) => {
  log(err && err.stack ? err.stack : String(err));
  process.exitCode = 1;
});
