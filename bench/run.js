#!/usr/bin/env node
// wirepack benchmark: `node bench/run.js [suite ...]` (all suites under bench/suites/ by default).
// Knobs: BENCH_QUICK=1, BENCH_ROUNDS, BENCH_BATCH_MS, BENCH_WARMUP_MS, BENCH_INPUTS, BENCH_CONTENDERS,
// BENCH_OUT (see bench/lib/config.js). Markdown goes to stdout, the same data as JSON to
// bench/results/latest.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_DIR, readConfig, describeMachine } from './lib/config.js';
import { loadJsonFixture } from './lib/fixtures.js';
import { runInput, computeRatios, median } from './lib/runner.js';
import { inputTable, summaryTable } from './lib/report.js';

const out = (s = '') => process.stdout.write(s + '\n');
const log = (s) => process.stderr.write(s + '\n');

async function loadSuites(names) {
  const dir = path.join(BENCH_DIR, 'suites');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.js')).sort();
  const suites = [];
  for (const f of files) {
    const suite = (await import(pathToFileURL(path.join(dir, f)).href)).default;
    if (!suite || !suite.name) throw new Error(`bench/suites/${f} has no default export with a name`);
    suites.push(suite);
  }
  if (!names.length) return suites;
  const unknown = names.filter((n) => !suites.some((s) => s.name === n));
  if (unknown.length) {
    throw new Error(`unknown suite(s) ${unknown.join(', ')}; available: ${suites.map((s) => s.name).join(', ')}`);
  }
  return suites.filter((s) => names.includes(s.name));
}

/** Loads every contender once (by id); returns suite-local copies carrying .loaded or .loadError. */
async function loadContenders(suite, cfg, cache) {
  const list = [];
  for (const c of suite.contenders) {
    if (cfg.contenders && c.id !== suite.subject && !cfg.contenders.includes(c.id)) continue;
    if (!cache.has(c.id)) {
      cache.set(
        c.id,
        c.load().then(
          (loaded) => ({ loaded }),
          (err) => ({ loadError: err && err.message ? err.message : String(err) }),
        ),
      );
    }
    list.push({ ...c, ...(await cache.get(c.id)) });
  }
  return list;
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

/** Share of all CPU time used by processes other than this one between two samples. */
function otherLoad(s0, c0, s1, c1) {
  if (!s0 || !s1 || s1.total <= s0.total) return null;
  const hz = 100; // USER_HZ
  const ownJiffies = ((c1.user + c1.system - c0.user - c0.system) / 1e6) * hz;
  return Math.max(0, (s1.busy - s0.busy - ownJiffies) / (s1.total - s0.total));
}

async function main() {
  const cfg = readConfig();
  const machine = describeMachine();
  const suites = await loadSuites(process.argv.slice(2));
  const started = process.hrtime.bigint();
  const stat0 = readProcStat();
  const cpu0 = process.cpuUsage();

  out('# wirepack benchmark');
  out();
  out(`- node ${machine.node} (V8 ${machine.v8}), ${machine.platform}`);
  out(`- CPU: ${machine.cpu} x ${machine.cpuCount}, ${machine.totalMemGiB} GiB, load average ${machine.loadavg.join(' ')}`);
  if (machine.git) out(`- repo: ${machine.git}`);
  out(
    `- method: all contenders in one process; ${cfg.rounds} rounds, each running every contender once ` +
      `(rotating order) for a ~${cfg.batchMs} ms batch after ${cfg.warmupMs} ms warm-up; ` +
      `op/s is the median round${cfg.quick ? ' (BENCH_QUICK smoke run: numbers are rough)' : ''}`,
  );

  const cache = new Map();
  const report = { machine, config: cfg, suites: [] };

  for (const suite of suites) {
    const contenders = await loadContenders(suite, cfg, cache);
    out();
    out(`## ${suite.name}: ${suite.title}`);
    out();
    for (const c of contenders) {
      out(c.loadError ? `- ${c.id}: SKIPPED (${c.loadError})` : `- ${c.id}: ${c.loaded.info}${c.role === 'reference' ? ' [reference row, not plain MessagePack]' : ''}`);
    }
    const suiteResult = { name: suite.name, title: suite.title, subject: suite.subject, contenders: [], inputs: [] };
    for (const c of contenders) {
      suiteResult.contenders.push({ id: c.id, role: c.role, info: c.loaded?.info ?? null, loadError: c.loadError ?? null });
    }

    for (const file of suite.inputs) {
      if (cfg.inputs && !cfg.inputs.some((f) => file.includes(f))) continue;
      const input = loadJsonFixture(file);
      log(`[${suite.name}] ${file} ...`);
      const t0 = process.hrtime.bigint();
      const { rows, skipped } = runInput(input, contenders, cfg, log);
      const ratios = computeRatios(rows, suite.subject);
      const ratiosCpu = computeRatios(rows, suite.subject, 'cpuOpsPerSec');
      const res = { input: input.file, jsonBytes: input.bytes, rows, skipped, ratios, ratiosCpu };
      suiteResult.inputs.push(res);
      out();
      out(`### ${input.file} (${input.bytes.toLocaleString('en-US')} B of JSON)`);
      out();
      out(inputTable(res, suite, cfg));
      const newSkips = skipped.filter((s) => !contenders.find((c) => c.id === s.id)?.loadError);
      for (const s of newSkips) out(`- skipped ${s.id}: ${s.reason}`);
      log(`[${suite.name}] ${file} done in ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1)} s`);
    }

    if (suiteResult.inputs.length) {
      out();
      out(`### Summary: ${suite.name} (${suite.subject} op/s and ${suite.subject} / peer op/s; > 1 means ${suite.subject} is faster)`);
      out();
      const subject = contenders.find((c) => c.id === suite.subject);
      if (subject && subject.loadError) out(`(no ${suite.subject} rows: ${subject.loadError})`);
      else out(summaryTable(suiteResult.inputs, suite));
      const shares = suiteResult.inputs.flatMap((i) => i.rows.map((r) => r.cpuShare)).sort((a, b) => a - b);
      if (shares.length) suiteResult.medianCpuShare = median(shares);
      if (!(subject && subject.loadError) && shares.length && suiteResult.medianCpuShare < 0.9) {
        out();
        out(
          `This process got a median ${Math.round(suiteResult.medianCpuShare * 100)}% of a core per batch (other processes ` +
            'took the rest), so here is the same summary from process CPU time (op per CPU second):',
        );
        out();
        out(summaryTable(suiteResult.inputs, suite, 'ratiosCpu'));
      }
      const skippedAll = new Map();
      for (const res of suiteResult.inputs) for (const s of res.skipped) if (!skippedAll.has(s.id)) skippedAll.set(s.id, `${res.input}: ${s.reason}`);
      if (skippedAll.size) {
        out();
        for (const [id, reason] of skippedAll) out(`- skipped ${id} (first: ${reason})`);
      }
    }
    report.suites.push(suiteResult);
  }

  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const others = otherLoad(stat0, cpu0, readProcStat(), process.cpuUsage());
  report.durationSeconds = Math.round(seconds * 10) / 10;
  report.checksum = report.suites.reduce(
    (s, su) => s + su.inputs.reduce((t, i) => t + i.rows.reduce((u, r) => u + r.checksum, 0), 0),
    0,
  );
  out();
  const loadEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);
  report.loadavgEnd = loadEnd;
  report.otherProcessesCpuShare = others;
  out(`Done in ${seconds.toFixed(1)} s (checksum ${report.checksum}); load average at end ${loadEnd.join(' ')}.`);
  const allShares = report.suites.flatMap((su) => su.inputs.flatMap((i) => i.rows.map((r) => r.cpuShare))).sort((a, b) => a - b);
  if (allShares.length) {
    out(`This process got a median ${Math.round(median(allShares) * 100)}% of a core during the timed batches (min ${Math.round(allShares[0] * 100)}%).`);
  }
  if (others != null) {
    out(
      `Other processes used ${Math.round(others * 100)}% of the machine's CPU time during the run` +
        (others > 0.1 ? ': the machine was shared, expect wide spreads (a busy sibling core slows every contender).' : '.'),
    );
  }

  fs.mkdirSync(path.dirname(cfg.out), { recursive: true });
  fs.writeFileSync(cfg.out, JSON.stringify(report, null, 2) + '\n');
  log(`results written to ${path.relative(process.cwd(), cfg.out) || cfg.out}`);
}

main().catch((err) => {
  log(err && err.stack ? err.stack : String(err));
  process.exitCode = 1;
});
