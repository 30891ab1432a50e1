// Varied documents (issue 7, "it must hold on data you have not tuned for"): the seeded generator
// of bench/lib/varied.js, one input per category, timed through the shared runner
// (bench/lib/runner.js: verification first, then warm-up, calibration and alternating rounds), in
// two views over one set of measurements: MessagePack (subject wirepack) and CBOR (subject
// wirepack/cbor), JSON in both. Contenders that cannot represent a category identically are left
// out of it (listed per category, with the reason); everything else must decode to exactly the
// input or its rows say FAILED.
import { loadContenders, contenderLine } from '../lib/standard.js';
import { runInput, computeRatios, median } from '../lib/runner.js';
import { inputTable, summaryTable, table } from '../lib/report.js';
import { firstDiff } from '../lib/verify.js';
import { CATEGORIES, DISTINCT_KEYS, DISTINCT_KEY_SEGMENTS, QUICK_DISTINCT_KEYS, SEED, generateVaried } from '../lib/varied.js';
import { wirepack, msgpackr, msgpackMsgpack, notepack, json, wirepackCbor, cborX, jsonPack, jsonPackCbor } from '../lib/contenders.js';

const MP_PEERS = ['msgpackr', '@msgpack/msgpack', 'notepack.io', 'json-pack', 'JSON'];
const CBOR_PEERS = ['cbor-x', 'json-pack/cbor', 'JSON'];

/** msgpackr's `moreTypes` mode (typed arrays as its typed-array extension) for wirepack and msgpackr. */
function moreTypes(base, name) {
  return {
    ...base,
    variant: 'typed-arrays input only: new Packr({ moreTypes: true })',
    create: (lib) => {
      const packr = new lib.Packr({ moreTypes: true });
      return {
        encode: (obj) => packr.pack(obj),
        decode: (buf) => packr.unpack(buf),
        encodeLabel: `${name} new Packr({ moreTypes: true }).pack(obj);`,
        decodeLabel: `${name} new Packr({ moreTypes: true }).unpack(buf);`,
      };
    },
  };
}

/**
 * json-pack's full encoders and decoders (MsgPackEncoder / MsgPackDecoder, CborEncoder /
 * CborDecoder: the README's MessagePackEncoder pair), for the binary inputs only: its Fast
 * encoders write a Uint8Array as a map of its indices.
 */
function jsonPackFull(base, cbor) {
  const [E, D] = cbor ? ['CborEncoder', 'CborDecoder'] : ['MsgPackEncoder', 'MsgPackDecoder'];
  return {
    ...base,
    variant: `binary inputs only: new ${E}() / new ${D}()`,
    create: (lib) => {
      const encoder = new lib[E](), decoder = new lib[D]();
      return { encode: (obj) => encoder.encode(obj), decode: (buf) => decoder.decode(buf), encodeLabel: `json-pack: new ${E}().encode(obj);`, decodeLabel: `json-pack: new ${D}().decode(buf);` };
    },
  };
}

/**
 * The libraries' default instances, as their READMEs use them: `new Packr()` (msgpackr) and
 * `new Encoder()` (cbor-x) write records, each message defining the shapes it uses (the free
 * pack/encode do not). For wirepack and those two peers, on the records input only; the same
 * instance decodes.
 */
function defaultInstance(base, name, cbor) {
  const ctor = cbor ? 'Encoder' : 'Packr';
  return {
    ...base,
    variant: `small-messages-records input only: new ${ctor}()`,
    create: (lib) => {
      const inst = cbor ? new lib.Encoder() : new lib.Packr();
      return cbor
        ? { encode: (obj) => inst.encode(obj), decode: (buf) => inst.decode(buf), encodeLabel: `${name} new Encoder().encode(obj);`, decodeLabel: `${name} new Encoder().decode(buf);` }
        : { encode: (obj) => inst.pack(obj), decode: (buf) => inst.unpack(buf), encodeLabel: `${name} new Packr().pack(obj);`, decodeLabel: `${name} new Packr().unpack(buf);` };
    },
  };
}

/**
 * Why a contender is left out of a category (null: it takes part). Decided per category from what
 * each library's format and API can represent, not from speed; the verify step would FAIL them.
 */
function exclusion(cat, id) {
  const jp = id === 'json-pack' || id === 'json-pack/cbor';
  if (cat.records && (id === 'JSON' || id === '@msgpack/msgpack' || id === 'notepack.io' || jp)) {
    return 'no records mode (this input times the default instances of msgpackr and cbor-x, which write records)';
  }
  if (cat.json === false && id === 'JSON') {
    return cat.name === 'dates' ? 'JSON has no date type (a Date becomes an ISO string)' : cat.typedArrays ? 'JSON has no typed arrays' : 'JSON has no binary type';
  }
  if (cat.typedArrays && (id === '@msgpack/msgpack' || id === 'notepack.io')) {
    return id === 'notepack.io'
      ? 'no typed-array type: writes Buffer.from(typedArray), the elements truncated to bytes'
      : 'no typed-array type: writes the bytes as bin and reads back a Uint8Array';
  }
  if (jp && cat.typedArrays) return 'no typed-array type: writes an Int16Array (any but a Uint8Array) as a map of its indices, or as null (CborEncoder)';
  if (jp && cat.name === 'dates') return 'no Date type: writes a Date as an empty map, or as null (CborEncoder)';
  if (cat.name === 'floats' && id === 'notepack.io') {
    return 'writes integral doubles of 2^64 and more (1e30, 5e121) as uint64, which reads back as another number';
  }
  return null;
}

/**
 * A stream category's contender: one operation encodes (decodes) every message of one segment on
 * its own, in order; each call takes the next segment (a counter per operation, wrapping), so the
 * timed calls walk through the whole stream.
 */
function streamOf(c, perSegment) {
  return {
    ...c,
    create: (lib) => {
      const one = c.create(lib);
      const enc = one.encode;
      const dec = one.decode;
      let e = 0;
      let d = 0;
      return {
        one,
        encode: (segments) => {
          const msgs = segments[e];
          e = e + 1 === segments.length ? 0 : e + 1;
          const out = new Array(msgs.length);
          for (let i = 0; i < msgs.length; i++) out[i] = enc(msgs[i]);
          return out;
        },
        decode: (encoded) => {
          const bufs = encoded[d];
          d = d + 1 === encoded.length ? 0 : d + 1;
          const out = new Array(bufs.length);
          for (let i = 0; i < bufs.length; i++) out[i] = dec(bufs[i]);
          return out;
        },
        encodeLabel: `${perSegment.toLocaleString('en-US')} x ${one.encodeLabel}`,
        decodeLabel: `${perSegment.toLocaleString('en-US')} x ${one.decodeLabel}`,
      };
    },
  };
}

const errorText = (err) => (err && err.message ? err.message.split('\n')[0] : String(err));

/**
 * The runner's prepare step for a stream (input.prepare): every message of every segment is
 * encoded twice (the second, steady-state encoding is copied, as the encoder may reuse its
 * buffer), and the decode of each copy must deep-equal its message; size is the mean bytes per
 * segment (per operation).
 */
function prepareStream(c, loaded, input) {
  let codec;
  try {
    codec = c.create(loaded.lib);
  } catch (err) {
    return { fail: `create() threw: ${errorText(err)}` };
  }
  const labels = { encode: codec.encodeLabel, decode: codec.decodeLabel };
  const { encode, decode } = codec.one;
  const segments = input.doc;
  const arg = [];
  let bytes = 0;
  for (let s = 0; s < segments.length; s++) {
    const bufs = [];
    for (let i = 0; i < segments[s].length; i++) {
      const m = segments[s][i];
      let b;
      try {
        encode(m);
        b = Buffer.from(encode(m));
      } catch (err) {
        return { fail: `encode of segment ${s} message ${i} threw: ${errorText(err)}`, labels };
      }
      let v;
      try {
        v = decode(b);
      } catch (err) {
        return { fail: `decode of its own encoding of segment ${s} message ${i} threw: ${errorText(err)}`, labels };
      }
      const diff = firstDiff(v, m, `$[${s}][${i}]`);
      if (diff) return { fail: `decoded value differs from the input: ${diff}`, labels };
      bytes += b.length;
      bufs.push(b);
    }
    arg.push(bufs);
  }
  // and the timed functions themselves, once: the first segment through the wrappers
  try {
    const diff = codec.encode(segments).length === segments[0].length ? firstDiff(codec.decode(arg), segments[0], '$[0]') : 'encode returned another count';
    if (diff) return { fail: `stream wrapper: ${diff}`, labels };
  } catch (err) {
    return { fail: `stream wrapper threw: ${errorText(err)}`, labels };
  }
  return { codec, arg, size: bytes / segments.length };
}

const envSet = (k) => process.env[k] !== undefined && process.env[k] !== '';

/**
 * This suite's timing: 15 inputs x 7 contenders would take ~2 min per pass at the harness defaults,
 * so unless BENCH_ROUNDS / BENCH_BATCH_MS / BENCH_WARMUP_MS are set it runs 7 rounds of 25 ms
 * batches after 100 ms of warm-up (quick, a smoke run: 2 rounds of 1 ms batches after 2 ms).
 */
function suiteConfig(cfg) {
  return {
    ...cfg,
    rounds: envSet('BENCH_ROUNDS') ? cfg.rounds : cfg.quick ? 2 : 7,
    batchMs: envSet('BENCH_BATCH_MS') ? cfg.batchMs : cfg.quick ? 1 : 25,
    warmupMs: envSet('BENCH_WARMUP_MS') ? cfg.warmupMs : cfg.quick ? 2 : 100,
  };
}

function describeInput(g, quick) {
  if (g.kind === 'stream') {
    const keys = new Set();
    let n = 0;
    for (const seg of g.doc) {
      for (const m of seg) {
        n++;
        if (m && typeof m === 'object' && !Array.isArray(m)) for (const k of Object.keys(m)) keys.add(k);
      }
    }
    const per = g.doc[0].length.toLocaleString('en-US');
    return `stream of ${n.toLocaleString('en-US')} messages with ${keys.size.toLocaleString('en-US')} distinct keys` +
      (g.doc.length > 1
        ? ` in ${g.doc.length} segments of ${per}: one operation (op) is one segment, each call the next one, so every ${g.doc.length} calls see all the keys; size is bytes per segment`
        : `: one operation (op) is all ${per} messages; size is their total bytes`) +
      (g.name === 'distinct-keys-stream' && quick ? ` (--quick: a ${QUICK_DISTINCT_KEYS.toLocaleString('en-US')}-key vocabulary; full run ${DISTINCT_KEYS.toLocaleString('en-US')})` : '');
  }
  return 'one document';
}

export default {
  name: 'varied',
  title: 'varied documents nobody tuned for (bench/lib/varied.js, seeded)',
  method:
    `Generated by \`bench/lib/varied.js\` (mulberry32, seed ${SEED} + category index: the same bytes on every run and machine; ` +
    'a few KB to ~300 KB per document or stream segment, and two large documents of 15 and 30 MB; under --quick smaller documents and streams, 2,000 keys, 200 small messages). One input per category: deep and wide; a stream of messages whose keys ' +
    `come from a ${DISTINCT_KEYS.toLocaleString('en-US')}-key vocabulary (each key once per pass over the stream; one timed operation is one ` +
    `of its ${DISTINCT_KEY_SEGMENTS} segments, 10^4 fresh keys, and each call takes the next, so key tables cycle through 10^5 keys); ` +
    '1,000 small messages of 50-200 B; short and long strings, ASCII and not (CJK, Hangul, Cyrillic, Arabic, Devanagari, emoji with ZWJ ' +
    'sequences and flags); float-heavy; integer-heavy; binary-heavy; typed arrays; Dates; records of one shape and of 250 shapes; ' +
    'and small messages again through the default instances `new Packr()` and `new Encoder()`, which write records (each message defines ' +
    'the shapes it uses), for wirepack, msgpackr and cbor-x only; and one large document of long number arrays and records, and one ' +
    'large message of 0.5-2 MB binaries (a run of large messages: what growing memory and building long arrays cost). ' +
    'In the two stream inputs every message is encoded (decoded) on its own, in order. Each contender must decode its own ' +
    'encoding to exactly the input first (`bench/lib/verify.js`: same types, a typed array of the same class, byte-exact binaries, ' +
    'same Date times). Left out where the format cannot represent the input (said per input): JSON from binary, typed arrays and Dates; ' +
    '@msgpack/msgpack and notepack.io from typed arrays (no typed-array type); json-pack from typed arrays, Dates and the records input ' +
    '(it has none of them; on the binary inputs it runs as its full encoders and decoders, its Fast ones write no binary); notepack.io from the float-heavy input (it writes ' +
    'integral doubles >= 2^64 as uint64). Plain MessagePack has no typed arrays either: on that input only, wirepack and msgpackr run ' +
    "as `new Packr({ moreTypes: true })` (msgpackr's typed-array extension); CBOR has them (RFC 8746 tags) in plain mode. JSON is " +
    '`Buffer.from(JSON.stringify(obj))` / `JSON.parse(buf)`, shared by both views. Timing: unless BENCH_ROUNDS / BENCH_BATCH_MS / ' +
    'BENCH_WARMUP_MS are set, 7 rounds of ~25 ms batches after 100 ms of warm-up (quick: 2 of 1 ms after 2 ms), to keep the full ' +
    'run within its time budget.',
  async run(ctx) {
    const { out, log, cache, h } = ctx;
    const cfg = suiteConfig(ctx.cfg);
    const all = await loadContenders([wirepack, msgpackr, msgpackMsgpack, notepack, json, wirepackCbor, cborX, jsonPack, jsonPackCbor], cfg, cache);
    out(`${h} varied: ${this.title}`);
    out();
    out(this.method);
    out();
    for (const c of all) out(contenderLine(c));
    const result = { name: 'varied', title: this.title, contenders: all.map((c) => ({ id: c.id, role: c.role, info: c.loaded?.info ?? null, loadError: c.loadError ?? null })), inputs: [], headline: [], failures: [] };
    const views = [
      { subject: 'wirepack', title: 'MessagePack (subject wirepack)', ids: ['wirepack', ...MP_PEERS], peers: MP_PEERS },
      { subject: 'wirepack/cbor', title: 'CBOR (subject wirepack/cbor)', ids: ['wirepack/cbor', ...CBOR_PEERS], peers: CBOR_PEERS },
    ];
    const excludedRows = [];

    for (const cat of CATEGORIES) {
      if (cfg.inputs && !cfg.inputs.some((f) => cat.name.includes(f))) continue;
      const t0 = process.hrtime.bigint();
      log(`[${ctx.pass}] [varied] ${cat.name} ...`);
      const g = generateVaried(cat.name, { quick: cfg.quick });
      const genMs = Number(process.hrtime.bigint() - t0) / 1e6;
      const excluded = [];
      let contenders = [];
      for (const c of all) {
        const why = exclusion(cat, c.id);
        if (why) {
          excluded.push({ id: c.id, reason: why });
          continue;
        }
        let x = c;
        if (cat.typedArrays && c.id === 'wirepack') x = moreTypes(c, 'wirepack');
        if (cat.typedArrays && c.id === 'msgpackr') x = moreTypes(c, 'msgpackr');
        // (the inputs left that JSON cannot take are the binary ones: exclusion() took the others)
        if (cat.json === false && (c.id === 'json-pack' || c.id === 'json-pack/cbor')) x = jsonPackFull(c, c.id === 'json-pack/cbor');
        if (cat.records) x = defaultInstance(c, c.id, c.id === 'wirepack/cbor' || c.id === 'cbor-x');
        contenders.push(g.kind === 'stream' ? streamOf(x, g.doc[0].length) : x);
      }
      const input = { file: cat.name, doc: g.doc, prepare: g.kind === 'stream' ? prepareStream : undefined };
      const { rows, failed } = runInput(input, contenders, cfg, log);
      contenders = null;
      for (const f of failed) result.failures.push({ suite: 'varied', input: cat.name, ...f });
      const res = { input: cat.name, title: cat.title, kind: cat.kind, generateMs: Math.round(genMs), rows, failed, excluded, views: [] };
      out();
      out(`${h}# ${cat.name}: ${cat.title}`);
      out();
      out(`${describeInput(g, cfg.quick)}; generated in ${Math.round(genMs)} ms.` + (excluded.length ? ` Left out: ${excluded.map((e) => `${e.id} (${e.reason})`).join('; ')}.` : ''));
      for (const e of excluded) excludedRows.push({ input: cat.name, ...e });
      for (const v of views) {
        const vrows = v.ids.flatMap((id) => rows.filter((r) => r.id === id));
        const ratios = computeRatios(vrows, v.subject);
        const ratiosCpu = computeRatios(vrows, v.subject, 'cpuOpsPerSec');
        res.views.push({ subject: v.subject, title: v.title, ids: vrows.map((r) => r.id), ratios, ratiosCpu });
        out();
        out(`**${v.title}**`);
        out();
        out(inputTable(vrows, ratios, v.subject, cfg));
        for (const op of ['encode', 'decode']) {
          const r = ratios[op];
          result.headline.push({
            suite: 'varied',
            subject: v.subject,
            input: cat.name,
            op,
            failed: !r,
            opsPerSec: r?.opsPerSec ?? null,
            bestPeer: r?.bestPeer ?? null,
            bestRef: r?.bestRef ?? null,
          });
        }
      }
      result.inputs.push(res);
      log(`[${ctx.pass}] [varied] ${cat.name} done in ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1)} s`);
    }

    if (result.inputs.length) {
      const shares = result.inputs.flatMap((i) => i.rows.filter((r) => !r.failed).map((r) => r.cpuShare)).sort((a, b) => a - b);
      for (let vi = 0; vi < views.length; vi++) {
        const v = views[vi];
        const entries = result.inputs.map((res) => ({ input: res.input, ...res.views[vi] }));
        out();
        out(`${h}# Summary: varied, ${v.subject} (op/s, and ${v.subject} / peer op/s: > 1 means ${v.subject} is faster; n/a: left out of that input)`);
        out();
        out(summaryTable(entries, v.subject, v.peers, []));
        if (shares.length && median(shares) < 0.9) {
          out();
          out(`This process got a median ${Math.round(median(shares) * 100)}% of a core per batch, so here is the same summary from process CPU time (op per CPU second):`);
          out();
          out(summaryTable(entries, v.subject, v.peers, [], 'ratiosCpu'));
        }
      }
      if (shares.length) result.medianCpuShare = median(shares);
      if (excludedRows.length) {
        out();
        out(`${h}# Left out (cannot represent the input; not timed, not FAILED)`);
        out();
        out(table(['input', 'contender', 'why'], excludedRows.map((e) => [e.input, e.id, e.reason]), ['l', 'l', 'l']));
      }
    }
    result.checksum = result.inputs.reduce((t, i) => t + i.rows.reduce((u, r) => u + (r.checksum ?? 0), 0), 0);
    return result;
  },
};
