// The stream benchmark of msgpack-lite (also in msgpackr as tests/benchmark-stream.cjs): the fluentd
// message ["tag",[[1440949922,{"message":"hi there"}]]] x 1,000,000. wirepack has no streams yet,
// so its rows, and the msgpackr and msgpack-lite rows they are compared with, are a plain loop of
// encode (decode) calls; the streams of msgpackr and msgpack-lite, as those files time them, are
// reference rows. Each task runs once per round, in an order rotated by the round; ms is the median
// round.
import { loadContenders, contenderLine } from '../lib/standard.js';
import { table, int, ratio, REFERENCE_NOTE } from '../lib/report.js';
import { firstDiff } from '../lib/verify.js';
import { median } from '../lib/runner.js';
import { wirepack, msgpackr, msgpackLite } from '../lib/contenders.js';

const DATA = ['tag', [[1440949922, { message: 'hi there' }]]];
const JOIN = 100; // messages per chunk written to the decode streams, as in the original
let uniq = 0;

/** A plain loop with its own compiled code (no shared call-site feedback), returning a checksum. */
function loopTask(fn, arg, op, label) {
  const probe = 'r.length'; // encode: bytes; decode: the message is a 2-element array
  // eslint-disable-next-line no-new-func
  const run = new Function(
    'fn',
    'arg',
    'n',
    `"use strict"; /* ${label} #${++uniq} */ let acc = 0; for (let i = 0; i < n; i++) { const r = fn(arg); acc += ${probe}; } return acc;`,
  );
  return (n) => run(fn, arg, n);
}

function streamDone(stream, onData) {
  return new Promise((resolve, reject) => {
    stream.on('data', onData);
    stream.on('error', reject);
    stream.on('end', resolve);
  });
}

export default {
  name: 'stream',
  title: 'the fluentd message x 1,000,000 (msgpack-lite\'s and msgpackr\'s stream benchmark)',
  async run(ctx) {
    const { cfg, out, log, cache, h } = ctx;
    const N = Math.max(JOIN, Math.round(cfg.streamCount / JOIN) * JOIN); // whole 100-message chunks
    const rounds = cfg.quick ? 2 : 3;
    const contenders = await loadContenders([wirepack, msgpackr, msgpackLite], cfg, cache);
    out(`${h} stream: the fluentd message x ${N.toLocaleString('en-US')} (msgpack-lite's and msgpackr's stream benchmark)`);
    out();
    out(
      `wirepack has no stream API yet, so this suite times it as a **plain loop**: ${N.toLocaleString('en-US')} calls of ` +
        '`pack(obj)` (`unpack(buf)` on the 30-byte message), against the same loop with msgpackr and msgpack-lite. ' +
        "The streams that msgpackr's tests/benchmark-stream.cjs and msgpack-lite's benchmark time (`new PackrStream().write(obj)` " +
        '/ `new UnpackrStream().write(buf)` with 100-message chunks carrying msgpackr records, `msgpack.createEncodeStream()` / ' +
        `\`createDecodeStream()\` with 100-message chunks) are reference rows ${REFERENCE_NOTE}. ${rounds} rounds, each running ` +
        'every task once in rotated order; ms is the median round, spread the slowest and fastest round.',
    );
    out();
    for (const c of contenders) out(contenderLine(c));
    const result = { name: 'stream', title: this.title, inputs: [], headline: [], failures: [] };
    const tasks = [];
    const failed = (id, op, label, role, reason) => {
      tasks.push({ id, op, label, role, failed: reason });
      result.failures.push({ suite: 'stream', input: 'fluentd', id, reason });
    };

    // plain loops
    for (const c of contenders) {
      const names = { wirepack: ['pack', 'unpack'], msgpackr: ['pack', 'unpack'], 'msgpack-lite': ['encode', 'decode'] }[c.id];
      const labels = [`loop: require("${c.id}").${names[0]}(obj);`, `loop: require("${c.id}").${names[1]}(buf);`];
      if (c.loadError) {
        failed(c.id, 'encode', labels[0], c.role, `did not load: ${c.loadError}`);
        failed(c.id, 'decode', labels[1], c.role, `did not load: ${c.loadError}`);
        continue;
      }
      const enc = c.loaded.lib[names[0]];
      const dec = c.loaded.lib[names[1]];
      let packed;
      try {
        enc(DATA);
        packed = Buffer.from(enc(DATA));
        const diff = firstDiff(dec(packed), DATA);
        if (diff) throw new Error(`decoded value differs from the input: ${diff}`);
      } catch (err) {
        failed(c.id, 'encode', labels[0], c.role, err.message);
        failed(c.id, 'decode', labels[1], c.role, err.message);
        continue;
      }
      tasks.push({ id: c.id, op: 'encode', role: c.role, label: labels[0], size: packed.length, run: loopTask(enc, DATA, 'encode', labels[0]) });
      tasks.push({ id: c.id, op: 'decode', role: c.role, label: labels[1], size: packed.length, run: loopTask(dec, packed, 'decode', labels[1]) });
    }

    // reference rows: the streams
    const mr = contenders.find((c) => c.id === 'msgpackr');
    const lite = contenders.find((c) => c.id === 'msgpack-lite');
    if (mr && !mr.loadError) {
      const { PackrStream, UnpackrStream, pack } = mr.loaded.lib;
      // the decode input: PackrStream's output for 100 messages (records), written N / 100 times
      const blocks = [];
      const s = new PackrStream();
      s.on('data', (b) => blocks.push(b));
      for (let j = 0; j < JOIN; j++) s.write(DATA);
      const joined = Buffer.concat(blocks);
      const size = pack(DATA).length;
      tasks.push({
        id: 'msgpackr PackrStream', op: 'encode', role: 'reference', label: 'new PackrStream().write(obj);', size,
        run: async (n) => {
          const stream = new PackrStream();
          let chunks = 0;
          let last = null;
          const done = streamDone(stream, (b) => {
            chunks++;
            last = b;
          });
          for (let j = 0; j < n; j++) stream.write(DATA);
          stream.end();
          await done;
          return { count: chunks, last };
        },
        check: async (r, n) => (r.count === n ? null : `${r.count} chunks for ${n} writes`),
      });
      tasks.push({
        id: 'msgpackr UnpackrStream', op: 'decode', role: 'reference', label: 'new UnpackrStream().write(buf);', size,
        run: async (n) => {
          const stream = new UnpackrStream();
          let count = 0;
          let last = null;
          const done = streamDone(stream, (v) => {
            count++;
            last = v;
          });
          for (let j = 0; j < n / JOIN; j++) stream.write(joined);
          stream.end();
          await done;
          return { count, last };
        },
        check: async (r, n) => (r.count !== n ? `${r.count} values for ${n} messages` : firstDiff(r.last, DATA)),
      });
    }
    if (lite && !lite.loadError) {
      const msgpack = lite.loaded.lib;
      const packed = msgpack.encode(DATA);
      const packjoin = Buffer.concat(Array.from({ length: JOIN }, () => packed));
      tasks.push({
        id: 'msgpack-lite createEncodeStream', op: 'encode', role: 'reference', label: 'msgpack.createEncodeStream().write(obj);', size: packed.length,
        run: async (n) => {
          const stream = msgpack.createEncodeStream();
          let bytes = 0;
          const done = streamDone(stream, (b) => {
            bytes += b.length;
          });
          for (let j = 0; j < n; j++) stream.write(DATA);
          stream.end();
          await done;
          return { count: Math.round(bytes / packed.length) };
        },
        check: async (r, n) => (r.count === n ? null : `${r.count} messages' worth of bytes for ${n} writes`),
      });
      tasks.push({
        id: 'msgpack-lite createDecodeStream', op: 'decode', role: 'reference', label: 'msgpack.createDecodeStream().write(buf);', size: packed.length,
        run: async (n) => {
          const stream = msgpack.createDecodeStream();
          let count = 0;
          let last = null;
          const done = streamDone(stream, (v) => {
            count++;
            last = v;
          });
          for (let j = 0; j < n / JOIN; j++) stream.write(packjoin);
          stream.end();
          await done;
          return { count, last };
        },
        check: async (r, n) => (r.count !== n ? `${r.count} values for ${n} messages` : firstDiff(r.last, DATA)),
      });
    }

    // correctness of the stream tasks on a short run, and warm-up of every task
    const warmN = Math.min(N, cfg.quick ? 2000 : 20000);
    for (const t of tasks) {
      if (t.failed) continue;
      try {
        const r = await t.run(warmN);
        if (t.check) {
          const bad = await t.check(r, warmN);
          if (bad) throw new Error(bad);
        } else if (typeof r !== 'number' || !(r > 0)) {
          throw new Error('loop returned no checksum');
        }
      } catch (err) {
        t.failed = err.message;
        result.failures.push({ suite: 'stream', input: 'fluentd', id: t.id, reason: err.message });
      }
    }

    log(`[${ctx.pass}] [stream] ${N} messages x ${rounds} rounds ...`);
    const t0 = process.hrtime.bigint();
    const live = tasks.filter((t) => !t.failed);
    for (const t of live) t.ms = [];
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < live.length; k++) {
        const t = live[(k + r) % live.length];
        const s = process.hrtime.bigint();
        const res = await t.run(N);
        t.ms.push(Number(process.hrtime.bigint() - s) / 1e6);
        if (t.check) {
          const bad = await t.check(res, N);
          if (bad && !t.failed) {
            t.failed = bad;
            result.failures.push({ suite: 'stream', input: 'fluentd', id: t.id, reason: bad });
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    for (const t of live) {
      const sorted = [...t.ms].sort((a, b) => a - b);
      t.medianMs = median(sorted);
      t.minMs = sorted[0];
      t.maxMs = sorted[sorted.length - 1];
      t.opsPerSec = (N / t.medianMs) * 1000;
    }
    log(`[${ctx.pass}] [stream] done in ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1)} s`);

    const ratios = {};
    for (const op of ['encode', 'decode']) {
      const s = tasks.find((t) => t.id === 'wirepack' && t.op === op && !t.failed);
      if (!s) continue;
      const vs = {};
      let best = null;
      let bestRef = null;
      for (const t of tasks) {
        if (t.op !== op || t === s || t.failed) continue;
        vs[t.id] = s.opsPerSec / t.opsPerSec;
        if (t.role === 'peer' && (!best || t.opsPerSec > best.opsPerSec)) best = t;
        if (t.role === 'reference' && (!bestRef || t.opsPerSec > bestRef.opsPerSec)) bestRef = t;
      }
      ratios[op] = {
        opsPerSec: s.opsPerSec,
        vs,
        bestPeer: best ? { id: best.id, opsPerSec: best.opsPerSec, ratio: s.opsPerSec / best.opsPerSec } : null,
        bestRef: bestRef ? { id: bestRef.id, opsPerSec: bestRef.opsPerSec, ratio: s.opsPerSec / bestRef.opsPerSec } : null,
      };
    }
    const pct = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
    const header = [`operation (${N.toLocaleString('en-US')} x ${rounds} rounds)`, 'op', 'ms', 'op/s', 'size', 'spread (min / max vs median)', 'wirepack / this'];
    const body = tasks.map((t) => {
      const label = t.role === 'reference' ? `${t.label} ${REFERENCE_NOTE}` : t.label;
      if (t.failed) return [label, '', '', 'FAILED', '', '', ''];
      const rel = t.id === 'wirepack' ? '1.00x' : ratio(ratios[t.op]?.vs[t.id]);
      return [label, int(N), int(t.medianMs), int(t.opsPerSec), int(t.size), `${pct(t.minMs / t.medianMs - 1)} / ${pct(t.maxMs / t.medianMs - 1)}`, rel];
    });
    out();
    out(`${h}# fluentd message x ${N.toLocaleString('en-US')}`);
    out();
    out(table(header, body, ['l', 'r', 'r', 'r', 'r', 'r', 'r']));
    out();
    for (const op of ['encode', 'decode']) {
      const r = ratios[op];
      if (!r) {
        out(`- wirepack, ${op}: FAILED, no ratio`);
        result.headline.push({ suite: 'stream', subject: 'wirepack', input: `fluentd x ${N}`, op, failed: true });
        continue;
      }
      out(
        `- wirepack (plain loop) / best plain-loop peer, ${op}: **${ratio(r.bestPeer?.ratio)}** (best peer: ${r.bestPeer?.id ?? 'none'})` +
          (r.bestRef ? `; fastest stream (reference): ${r.bestRef.id}, wirepack loop / it ${ratio(r.bestRef.ratio)}` : ''),
      );
      result.headline.push({ suite: 'stream', subject: 'wirepack', input: `fluentd x ${N}`, op, failed: false, opsPerSec: r.opsPerSec, bestPeer: r.bestPeer, bestRef: r.bestRef });
    }
    for (const t of tasks) if (t.failed) out(`- FAILED ${t.id} ${t.op}: ${t.failed}`);
    result.inputs.push({
      input: `fluentd x ${N}`,
      rounds,
      rows: tasks.map(({ run, check, ...rest }) => rest),
      ratios,
    });
    return result;
  },
};
