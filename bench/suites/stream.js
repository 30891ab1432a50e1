// The stream benchmark of msgpack-lite (also in msgpackr as tests/benchmark-stream.cjs): the fluentd
// message ["tag",[[1440949922,{"message":"hi there"}]]] x 1,000,000 through real streams: wirepack's
// PackrStream/UnpackrStream next to msgpackr's PackrStream/UnpackrStream and msgpack-lite's
// createEncodeStream/createDecodeStream (encode: one write per message; decode: the library's own
// encoder stream output for 100 messages, written N / 100 times). A plain loop of pack/unpack calls
// per library is kept as informational rows. CBOR: wirepack/cbor's EncoderStream/DecoderStream next
// to cbor-x's, the same way (ratios within each format). Each task runs once per round, in an order
// rotated by the round; ms is the median round.
import { loadContenders, contenderLine } from '../lib/standard.js';
import { table, int, ratio } from '../lib/report.js';
import { firstDiff } from '../lib/verify.js';
import { median } from '../lib/runner.js';
import { wirepack, msgpackr, msgpackLite, wirepackCbor, cborX } from '../lib/contenders.js';

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
    const contenders = await loadContenders([wirepack, msgpackr, msgpackLite, wirepackCbor, cborX], cfg, cache);
    out(`${h} stream: the fluentd message x ${N.toLocaleString('en-US')} (msgpack-lite's and msgpackr's stream benchmark)`);
    out();
    out(
      `Streams: ${N.toLocaleString('en-US')} writes of the message to \`new PackrStream()\` (wirepack, msgpackr; records in sequential ` +
        'mode, as both do by default) and `msgpack.createEncodeStream()` (msgpack-lite); decode: each library\'s own encoder-stream ' +
        `output for ${JOIN} messages written ${(N / JOIN).toLocaleString('en-US')} times to \`new UnpackrStream()\` / ` +
        '`msgpack.createDecodeStream()`, as msgpackr\'s tests/benchmark-stream.cjs. The plain loops of `pack(obj)` / `unpack(buf)` ' +
        `calls are informational rows. ${rounds} rounds, each running every task once in rotated order; ms is the median round, ` +
        'spread the slowest and fastest round. CBOR: the same through wirepack/cbor\'s and cbor-x\'s `EncoderStream` / ' +
        '`DecoderStream` (records in sequential mode, as both do by default), compared with each other.',
    );
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
      if (!names) continue; // CBOR: streams only
      const labels = [`loop: require("${c.id}").${names[0]}(obj);`, `loop: require("${c.id}").${names[1]}(buf);`];
      const loopId = `${c.id} loop`;
      if (c.loadError) {
        failed(loopId, 'encode', labels[0], 'loop', `did not load: ${c.loadError}`);
        failed(loopId, 'decode', labels[1], 'loop', `did not load: ${c.loadError}`);
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
        failed(loopId, 'encode', labels[0], 'loop', err.message);
        failed(loopId, 'decode', labels[1], 'loop', err.message);
        continue;
      }
      tasks.push({ id: loopId, op: 'encode', role: 'loop', label: labels[0], size: packed.length, run: loopTask(enc, DATA, 'encode', labels[0]) });
      tasks.push({ id: loopId, op: 'decode', role: 'loop', label: labels[1], size: packed.length, run: loopTask(dec, packed, 'decode', labels[1]) });
    }

    // the streams: wirepack's and msgpackr's PackrStream/UnpackrStream
    const lite = contenders.find((c) => c.id === 'msgpack-lite');
    for (const c of contenders) {
      if (c.id !== 'wirepack' && c.id !== 'msgpackr') continue;
      const encLabel = `new PackrStream().write(obj); (${c.id})`;
      const decLabel = `new UnpackrStream().write(buf); (${c.id})`;
      if (c.loadError) {
        failed(c.id, 'encode', encLabel, c.role, `did not load: ${c.loadError}`);
        failed(c.id, 'decode', decLabel, c.role, `did not load: ${c.loadError}`);
        continue;
      }
      const { PackrStream, UnpackrStream, pack } = c.loaded.lib;
      if (typeof PackrStream !== 'function' || typeof UnpackrStream !== 'function') {
        failed(c.id, 'encode', encLabel, c.role, 'no PackrStream/UnpackrStream export');
        failed(c.id, 'decode', decLabel, c.role, 'no PackrStream/UnpackrStream export');
        continue;
      }
      // the decode input: PackrStream's output for 100 messages (records), written N / 100 times
      const blocks = [];
      const s = new PackrStream();
      s.on('data', (b) => blocks.push(b));
      for (let j = 0; j < JOIN; j++) s.write(DATA);
      const joined = Buffer.concat(blocks);
      const size = pack(DATA).length;
      tasks.push({
        id: c.id, op: 'encode', role: c.role, label: encLabel, size,
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
        id: c.id, op: 'decode', role: c.role, label: decLabel, size,
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
    // CBOR streams: wirepack/cbor's and cbor-x's EncoderStream/DecoderStream
    for (const c of contenders) {
      if (c.id !== 'wirepack/cbor' && c.id !== 'cbor-x') continue;
      const encLabel = `new EncoderStream().write(obj); (${c.id})`;
      const decLabel = `new DecoderStream().write(buf); (${c.id})`;
      const fail = (reason) => {
        failed(c.id, 'encode', encLabel, c.role, reason);
        failed(c.id, 'decode', decLabel, c.role, reason);
        tasks[tasks.length - 1].group = tasks[tasks.length - 2].group = 'cbor';
      };
      if (c.loadError) { fail(`did not load: ${c.loadError}`); continue; }
      const { EncoderStream, DecoderStream, encode } = c.loaded.lib;
      if (typeof EncoderStream !== 'function' || typeof DecoderStream !== 'function') { fail('no EncoderStream/DecoderStream export'); continue; }
      const blocks = [];
      const s = new EncoderStream();
      s.on('data', (b) => blocks.push(b));
      for (let j = 0; j < JOIN; j++) s.write(DATA);
      await new Promise((resolve) => setImmediate(resolve)); // (cbor-x's EncoderStream pushes asynchronously)
      const joined = Buffer.concat(blocks);
      const size = encode(DATA).length;
      tasks.push({
        id: c.id, group: 'cbor', op: 'encode', role: c.role, label: encLabel, size,
        run: async (n) => {
          const stream = new EncoderStream();
          let bytes = 0;
          const done = streamDone(stream, (b) => {
            bytes += b.length;
          });
          for (let j = 0; j < n; j++) stream.write(DATA);
          stream.end();
          await done;
          return { bytes };
        },
        check: async (r, n) => (r.bytes >= n * 10 ? null : `${r.bytes} bytes for ${n} writes`),
      });
      tasks.push({
        id: c.id, group: 'cbor', op: 'decode', role: c.role, label: decLabel, size,
        run: async (n) => {
          const stream = new DecoderStream();
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
        id: 'msgpack-lite', op: 'encode', role: 'peer', label: 'msgpack.createEncodeStream().write(obj);', size: packed.length,
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
        id: 'msgpack-lite', op: 'decode', role: 'peer', label: 'msgpack.createDecodeStream().write(buf);', size: packed.length,
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

    // ratios within a format: the wirepack stream against the other streams of that format
    const GROUPS = [
      { group: 'msgpack', subject: 'wirepack', loop: 'wirepack loop' },
      { group: 'cbor', subject: 'wirepack/cbor', loop: null },
    ];
    const groupOf = (t) => t.group || 'msgpack';
    const ratiosByGroup = {};
    for (const g of GROUPS) {
      const ratios = (ratiosByGroup[g.group] = {});
      for (const op of ['encode', 'decode']) {
        const s = tasks.find((t) => t.id === g.subject && t.op === op && !t.failed);
        if (!s) continue;
        const vs = {};
        let best = null;
        let bestRef = null;
        for (const t of tasks) {
          if (groupOf(t) !== g.group || t.op !== op || t === s || t.failed) continue;
          vs[t.id] = s.opsPerSec / t.opsPerSec;
          if (t.role === 'peer' && (!best || t.opsPerSec > best.opsPerSec)) best = t;
          if (t.id === g.loop) bestRef = t; // wirepack's own plain loop: the stream's overhead
        }
        ratios[op] = {
          opsPerSec: s.opsPerSec,
          vs,
          bestPeer: best ? { id: best.id, opsPerSec: best.opsPerSec, ratio: s.opsPerSec / best.opsPerSec } : null,
          bestRef: bestRef ? { id: bestRef.id, opsPerSec: bestRef.opsPerSec, ratio: s.opsPerSec / bestRef.opsPerSec } : null,
        };
      }
    }
    const ratios = ratiosByGroup.msgpack;
    const pct = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
    const header = [`operation (${N.toLocaleString('en-US')} x ${rounds} rounds)`, 'op', 'ms', 'op/s', 'size', 'spread (min / max vs median)', 'wirepack (same format) / this'];
    const body = tasks.map((t) => {
      const label = t.label;
      if (t.failed) return [label, '', '', 'FAILED', '', '', ''];
      const g = GROUPS.find((x) => x.group === groupOf(t));
      const rel = t.id === g.subject ? '1.00x' : ratio(ratiosByGroup[g.group][t.op]?.vs[t.id]);
      return [label, int(N), int(t.medianMs), int(t.opsPerSec), int(t.size), `${pct(t.minMs / t.medianMs - 1)} / ${pct(t.maxMs / t.medianMs - 1)}`, rel];
    });
    out();
    out(`${h}# fluentd message x ${N.toLocaleString('en-US')}`);
    out();
    out(table(header, body, ['l', 'r', 'r', 'r', 'r', 'r', 'r']));
    out();
    for (const g of GROUPS) {
      for (const op of ['encode', 'decode']) {
        const r = ratiosByGroup[g.group][op];
        if (!r) {
          out(`- ${g.subject}, ${op}: FAILED, no ratio`);
          result.headline.push({ suite: 'stream', subject: g.subject, input: `fluentd x ${N}`, op, failed: true });
          continue;
        }
        out(
          `- ${g.subject} stream / best peer stream, ${op}: **${ratio(r.bestPeer?.ratio)}** (best peer: ${r.bestPeer?.id ?? 'none'})` +
            (r.bestRef ? `; wirepack stream / wirepack plain loop: ${ratio(r.bestRef.ratio)}` : ''),
        );
        result.headline.push({ suite: 'stream', subject: g.subject, input: `fluentd x ${N}`, op, failed: false, opsPerSec: r.opsPerSec, bestPeer: r.bestPeer, bestRef: r.bestRef });
      }
    }
    for (const t of tasks) if (t.failed) out(`- FAILED ${t.id} ${t.op}: ${t.failed}`);
    result.inputs.push({
      input: `fluentd x ${N}`,
      rounds,
      rows: tasks.map(({ run, check, ...rest }) => rest),
      ratios,
      cborRatios: ratiosByGroup.cbor,
    });
    return result;
  },
};
