// Benchmark configuration from the environment, and the machine description printed with results.
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_DIR = path.resolve(BENCH_DIR, '..');

function envNumber(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got ${JSON.stringify(raw)}`);
  return n;
}

function envList(name) {
  const raw = process.env[name];
  if (!raw) return null;
  return raw.split(',').map((s) => s.trim()).filter(Boolean);
}

/**
 * Knobs (all optional):
 *   --quick or BENCH_QUICK=1  smoke run: 2 rounds of 8 ms batches, 15 ms warm-up, fewer inputs
 *                        for the cbor suite, the stream suite at 10,000 messages, the memory suite
 *                        on one 256 KB document with three libraries
 *   BENCH_ROUNDS=n       timed rounds per contender (default 9, >= 7 recommended)
 *   BENCH_BATCH_MS=ms    target duration of one timed batch (default 50)
 *   BENCH_WARMUP_MS=ms   warm-up per contender and operation before calibration (default 200)
 *   BENCH_INPUTS=a,b     only inputs whose file name contains one of these
 *   BENCH_CONTENDERS=a,b only these contender ids (the subjects are always kept)
 *   BENCH_STREAM_COUNT=n messages per stream-suite task (default 1,000,000; quick 10,000)
 *   BENCH_OUT=path       where to write the JSON results (default bench/results/latest.json; the
 *                        markdown goes next to it, same name with .md)
 */
export function readConfig(argv = process.argv.slice(2)) {
  const quick = argv.includes('--quick') || process.env.BENCH_QUICK === '1' || process.env.BENCH_QUICK === 'true';
  const cfg = {
    quick,
    rounds: Math.round(envNumber('BENCH_ROUNDS', quick ? 2 : 9)),
    batchMs: envNumber('BENCH_BATCH_MS', quick ? 8 : 50),
    warmupMs: envNumber('BENCH_WARMUP_MS', quick ? 15 : 200),
    streamCount: Math.round(envNumber('BENCH_STREAM_COUNT', quick ? 10000 : 1000000)),
    inputs: envList('BENCH_INPUTS'),
    contenders: envList('BENCH_CONTENDERS'),
    out: process.env.BENCH_OUT
      ? path.resolve(process.env.BENCH_OUT)
      : path.join(BENCH_DIR, 'results', 'latest.json'),
  };
  return cfg;
}

function git(args) {
  try {
    return execFileSync('git', args, { cwd: REPO_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

export function packageVersion(name) {
  try {
    const file = path.join(REPO_DIR, 'node_modules', ...name.split('/'), 'package.json');
    return JSON.parse(fs.readFileSync(file, 'utf8')).version;
  } catch {
    return null;
  }
}

export function describeMachine() {
  const cpus = os.cpus();
  const head = git(['rev-parse', '--short', 'HEAD']);
  const dirty = git(['status', '--porcelain', '--', 'csrc', 'js']);
  return {
    node: process.version,
    v8: process.versions.v8,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpu: cpus.length ? cpus[0].model.trim() : 'unknown',
    cpuCount: cpus.length,
    totalMemGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100),
    git: head ? head + (dirty ? ' (csrc/js modified)' : '') : null,
    date: new Date().toISOString(),
  };
}
