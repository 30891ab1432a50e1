// The shared runner: verification, warm-up/calibration and interleaved timed rounds.
//
// Method, per input:
//   1. Each loaded contender gets a fresh codec (create(lib)); it encodes the document twice (the
//      second, steady-state encoding is the one decoded and reported), and its decode of that
//      encoding must deep-equal the document; otherwise its rows say FAILED with the reason (never timed).
//   2. Every (contender, operation) pair is an item with its own compiled batch loop (a distinct
//      `new Function`, so call-site feedback and optimized code are never shared between
//      contenders). Each item is warmed up for cfg.warmupMs and calibrated so that one batch
//      takes about cfg.batchMs.
//   3. cfg.rounds rounds; in round r all items run one timed batch each, in an order rotated by r,
//      so slow drifts of the machine hit every contender alike. No GC is forced between batches:
//      a forced full GC ages and flushes the code of the contenders that are not running, which
//      measured 2-10x slower than steady state.
//   4. Reported: the median of the per-round op/s, and min/max of the rounds relative to it.
//      Process CPU time is recorded per batch too: op/s per CPU second (median) and the CPU share
//      (CPU time / wall time) show when other processes were taking the cores.
// The result of each call feeds a checksum (encoded length; for decode a cheap probe of the
// result), returned from the loop and summed, so the calls cannot be optimized away.
import { firstDiff } from './verify.js';

const now = process.hrtime.bigint;
let uniq = 0;

function probeExpression(op) {
  if (op === 'encode') return 'r.length';
  // decode: touch the result so it must be materialized
  return '(r === null || typeof r !== "object" ? 1 : Array.isArray(r) ? r.length : r[key] === undefined ? 2 : 3)';
}

function compileBatch(op, label) {
  const src = `"use strict"; /* ${String(label).replace(/\*\//g, '')} #${++uniq} */
let acc = 0;
const t0 = now();
for (let i = 0; i < n; i++) { const r = fn(arg); acc += ${probeExpression(op)}; }
const t1 = now();
return [Number(t1 - t0), acc];`;
  // eslint-disable-next-line no-new-func
  return new Function('fn', 'arg', 'n', 'key', 'now', src);
}

export function median(sorted) {
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
}

function asBytes(x) {
  if (x instanceof Uint8Array) return x;
  if (x instanceof ArrayBuffer) return new Uint8Array(x);
  if (ArrayBuffer.isView(x)) return new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  if (typeof x === 'string') return Buffer.from(x);
  throw new TypeError(`encode returned ${Object.prototype.toString.call(x)}, not bytes`);
}

function errorText(err) {
  return err && err.message ? err.message.split('\n')[0] : String(err);
}

/** Prepares one contender on one input; returns { codec, arg, size } or { fail: reason }. */
function prepare(contender, loaded, input) {
  let codec;
  try {
    codec = contender.create(loaded.lib);
  } catch (err) {
    return { fail: `create() threw: ${errorText(err)}` };
  }
  const doc = input.doc;
  const labels = { encode: codec.encodeLabel, decode: codec.decodeLabel };
  const r = prepareWith(codec, doc);
  if (r.fail) r.labels = labels;
  return r;
}

function prepareWith(codec, doc) {
  let encoded;
  try {
    codec.encode(doc);
    encoded = codec.encode(doc);
  } catch (err) {
    return { fail: `encode threw: ${errorText(err)}` };
  }
  // A string encoding (JSON as msgpack-benchmark times it) is decoded as the string. Bytes are
  // decoded from a private copy: the encoder may hand out views of a buffer it reuses.
  let arg;
  let size;
  try {
    if (typeof encoded === 'string') {
      arg = encoded;
      size = Buffer.byteLength(encoded);
    } else {
      arg = Buffer.from(asBytes(encoded));
      size = arg.length;
    }
  } catch (err) {
    return { fail: errorText(err) };
  }
  let decoded;
  try {
    decoded = codec.decode(arg);
  } catch (err) {
    return { fail: `decode of its own encoding threw: ${errorText(err)}` };
  }
  const diff = firstDiff(decoded, doc);
  if (diff) return { fail: `decoded value differs from the input: ${diff}` };
  return { codec, arg, size };
}

/** The two FAILED rows (encode, decode) of a contender that did not load or did not round-trip. */
export function failedRows(c, reason, labels) {
  return ['encode', 'decode'].map((op) => ({
    id: c.id,
    role: c.role,
    op,
    label: labels?.[op] ?? `${c.id}: ${op}`,
    failed: true,
    reason,
  }));
}

function probeKey(doc) {
  if (doc && typeof doc === 'object' && !Array.isArray(doc)) {
    const keys = Object.keys(doc);
    if (keys.length) return keys[0];
  }
  return '';
}

/**
 * Minor page faults of this process so far. A fault is the kernel handing the process a fresh
 * page; glibc's malloc hands memory back to the kernel (trim, munmap) and takes it again, so an
 * allocation-heavy batch can pay one fault per page of what it allocates, and in a VM a fault
 * costs microseconds: the report shows which rows paid it.
 */
function minorFaults() {
  return process.resourceUsage().minorPageFault;
}

function calibrate(item, cfg) {
  const target = cfg.batchMs * 1e6;
  const warmup = cfg.warmupMs * 1e6;
  let n = 1;
  let spent = 0;
  let rate = 0;
  for (;;) {
    const [ns, acc] = item.batch(item.fn, item.arg, n, item.key, now);
    item.checksum += acc;
    spent += ns;
    if (ns > 0) rate = n / ns;
    if (spent >= warmup && ns >= Math.min(target / 4, 5e6)) break;
    if (ns < target / 2) n *= 2;
  }
  // A last short batch at the calibrated size to refine the rate once fully warm.
  let ops = Math.max(1, Math.round(rate * target));
  const [ns, acc] = item.batch(item.fn, item.arg, ops, item.key, now);
  item.checksum += acc;
  if (ns > 0) ops = Math.max(1, Math.round((ops / ns) * target));
  return ops;
}

/**
 * Runs one input of a suite.
 * @param {object[]} contenders  the suite's contenders, each with .loaded ({lib, info}) or .loadError
 * @returns {{ rows: object[], failed: {id, reason}[] }}  rows in contender order; a contender that
 *   did not load or whose decode does not deep-equal the input gets FAILED rows (never timed)
 */
export function runInput(input, contenders, cfg, log) {
  const failed = [];
  const items = [];
  const slots = [];
  const key = probeKey(input.doc);
  for (const c of contenders) {
    // input.prepare: an input with its own encode/verify step (the streams of bench/suites/varied.js)
    const p = c.loadError ? { fail: `did not load: ${c.loadError}` } : (input.prepare ?? prepare)(c, c.loaded, input);
    if (p.fail) {
      failed.push({ id: c.id, reason: p.fail });
      log(`  FAILED ${c.id}: ${p.fail}`);
      slots.push(...failedRows(c, p.fail, p.labels));
      continue;
    }
    for (const op of ['encode', 'decode']) {
      const label = op === 'encode' ? p.codec.encodeLabel : p.codec.decodeLabel;
      const item = {
        id: c.id,
        role: c.role,
        op,
        label,
        size: p.size,
        fn: op === 'encode' ? p.codec.encode : p.codec.decode,
        arg: op === 'encode' ? input.doc : p.arg,
        key,
        batch: compileBatch(op, label),
        checksum: 0,
        opsPerBatch: 0,
        rounds: [],
      };
      items.push(item);
      slots.push(item);
    }
  }

  for (const item of items) item.opsPerBatch = calibrate(item, cfg);

  for (let r = 0; r < cfg.rounds; r++) {
    for (let k = 0; k < items.length; k++) {
      const item = items[(k + r) % items.length];
      const c0 = process.cpuUsage();
      const f0 = minorFaults();
      const [ns, acc] = item.batch(item.fn, item.arg, item.opsPerBatch, item.key, now);
      const faults = minorFaults() - f0;
      const cpu = process.cpuUsage(c0);
      item.checksum += acc;
      item.rounds.push({ ops: item.opsPerBatch, ns, cpuNs: (cpu.user + cpu.system) * 1000, faults });
    }
  }

  const rows = slots.map((item) => {
    if (item.failed) return item;
    const rates = item.rounds.map((x) => (x.ops * 1e9) / x.ns);
    const sorted = [...rates].sort((a, b) => a - b);
    const med = median(sorted);
    const cpuRates = item.rounds.map((x) => (x.cpuNs > 0 ? (x.ops * 1e9) / x.cpuNs : Infinity)).sort((a, b) => a - b);
    const shares = item.rounds.map((x) => x.cpuNs / x.ns).sort((a, b) => a - b);
    const totalOps = item.rounds.reduce((s, x) => s + x.ops, 0);
    const totalNs = item.rounds.reduce((s, x) => s + x.ns, 0);
    return {
      id: item.id,
      role: item.role,
      op: item.op,
      label: item.label,
      size: item.size,
      opsPerBatch: item.opsPerBatch,
      totalOps,
      totalMs: totalNs / 1e6,
      opsPerSec: med,
      minOpsPerSec: sorted[0],
      maxOpsPerSec: sorted[sorted.length - 1],
      spreadLow: sorted[0] / med - 1,
      spreadHigh: sorted[sorted.length - 1] / med - 1,
      roundOpsPerSec: rates,
      roundCpuShare: item.rounds.map((x) => x.cpuNs / x.ns),
      cpuOpsPerSec: median(cpuRates),
      cpuShare: median(shares),
      faultsPerOp: item.rounds.reduce((s, x) => s + x.faults, 0) / totalOps,
      checksum: item.checksum,
    };
  });
  return { rows, failed };
}

/**
 * Ratios of the subject's median op/s to every other row of the same operation, to the best
 * peer (role 'peer') and to the fastest reference row (role 'reference': a variant the subject has
 * no equivalent for yet). FAILED rows are left out.
 */
export function computeRatios(rows, subjectId, metric = 'opsPerSec') {
  const out = {};
  for (const op of ['encode', 'decode']) {
    const subject = rows.find((r) => r.id === subjectId && r.op === op && !r.failed);
    if (!subject) continue;
    const vs = {};
    let best = null;
    let bestRef = null;
    for (const r of rows) {
      if (r.op !== op || r.id === subjectId || r.failed) continue;
      vs[r.id] = subject[metric] / r[metric];
      if (r.role === 'peer' && (!best || r[metric] > best[metric])) best = r;
      if (r.role === 'reference' && (!bestRef || r[metric] > bestRef[metric])) bestRef = r;
    }
    out[op] = {
      opsPerSec: subject[metric],
      vs,
      bestPeer: best ? { id: best.id, opsPerSec: best[metric], ratio: subject[metric] / best[metric] } : null,
      bestRef: bestRef ? { id: bestRef.id, opsPerSec: bestRef[metric], ratio: subject[metric] / bestRef[metric] } : null,
    };
  }
  return out;
}
