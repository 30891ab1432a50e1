// Size and start-up (issue 7): what an application ships and what loading costs.
//  - bundle size: esbuild (bundle, minify, browser conditions, ESM) of each library's full API,
//    gzip -9 of the output; wirepack measured three ways: both codecs as shipped (wasm inlined
//    as base64), the JS alone, and the wasm binary alone (JS + wasm is what a build that loads
//    the .wasm file separately ships);
//  - Node start-up, each trial in a fresh process (no code cache): compiling the module
//    (new WebAssembly.Module), instantiating it (new WebAssembly.Instance), and the whole
//    `await import('wirepack')` (read + base64 + compile + instantiate + module evaluation; in
//    Node that is dist/esm/index.node.js, the bundled ES modules build.sh writes);
//  - dist/ against js/src: the other suites time js/src, Node users run dist/ (esbuild's bundles),
//    and bundling once made pack 1.1-1.5x slower unseen (scripts/check-dist.mjs): both in one
//    fresh process, rounds alternating, the ratio per operation (informational: noisy).
// Runs in the addons-on pass only (nothing here depends on the peers' addons).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { table } from '../lib/report.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const gz = (b) => zlib.gzipSync(b, { level: 9 }).length;
const int = (x) => x.toLocaleString('en-US');

/** esbuild bundle of `code` (an entry module's source), minified; the wasm inline module replaced when asked. */
async function bundle(esbuild, code, { noWasm = false } = {}) {
  const plugins = noWasm
    ? [{
        name: 'no-wasm',
        setup(b) {
          b.onLoad({ filter: /(wasm|transcode)-inline\.js$/ }, () => ({ contents: 'export const wasmBase64 = ""; export const transcodeWasmBase64 = "";', loader: 'js' }));
        },
      }]
    : [];
  const r = await esbuild.build({
    stdin: { contents: code, resolveDir: ROOT, loader: 'js' },
    bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent',
    conditions: ['browser', 'import'], plugins,
  });
  return Buffer.from(r.outputFiles[0].contents);
}

/** Median of the trials of a measurement taken in fresh child processes. */
function childTimes(script, trials) {
  const runs = [];
  for (let i = 0; i < trials; i++) {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`start-up child failed: ${r.stderr.trim().split('\n').slice(-2).join(' | ')}`);
    runs.push(JSON.parse(r.stdout.trim().split('\n').pop()));
  }
  const med = (k) => { const v = runs.map((x) => x[k]).sort((a, b) => a - b); return { median: v[v.length >> 1], min: v[0], max: v[v.length - 1] }; };
  return Object.fromEntries(Object.keys(runs[0]).map((k) => [k, med(k)]));
}

/** A first-call expression (for firstCallSource): decode of the encode of a small value. */
const roundTrip = (enc, dec) => `L.${dec}(L.${enc}({ a: [1, 'x'] }))`;

/**
 * Source for a start-up child: import spec, then time the first run of `call` (an expression over
 * the module as `L.`: roundTrip, or any other) into the variable `name`, and count the minor page
 * faults it took into `${name}Faults` (a `t` must be declared). In this VM a fault (a page of
 * memory the process had not touched) costs ~16 us, and most of a first call's time is V8
 * compiling code into fresh memory: wasm functions are compiled on their first call (build.sh,
 * scripts/wat-if-blocks.py).
 */
function firstCallSource(name, spec, call) {
  return `
      const ${name}Lib = await import('${spec}');
      const ${name}F0 = process.resourceUsage().minorPageFault;
      t = performance.now();
      ${call.replaceAll('L.', `${name}Lib.`)};
      const ${name} = performance.now() - t;
      const ${name}Faults = process.resourceUsage().minorPageFault - ${name}F0;`;
}

/**
 * dist/esm against js/src: pack and unpack (MessagePack) and encode (CBOR) of two fixtures, both
 * builds imported in one fresh child process (two module graphs, two wasm instances), rounds
 * alternating, median per build. Returns [{ input, op, ratio }] with ratio = dist op/s / js/src op/s.
 * @param {boolean} quick
 */
function distAgainstSource(quick) {
  const rounds = quick ? 3 : 9;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', `
    import fs from 'node:fs';
    const dist = await import('./dist/esm/index.node.js'), src = await import('./js/src/index.node.js');
    const distC = await import('./dist/esm/cbor.node.js'), srcC = await import('./js/src/cbor.node.js');
    const out = [];
    for (const input of ['sample-small.json', 'example4.json']) {
      const v = JSON.parse(fs.readFileSync('bench/fixtures/' + input, 'utf8'));
      const bytes = src.pack(v);
      const n = Math.max(200, Math.round(${quick ? 2e5 : 2e6} / bytes.length));
      // [on dist, on js/src] for each operation
      const ops = {
        pack: [() => dist.pack(v), () => src.pack(v)],
        unpack: [() => dist.unpack(bytes), () => src.unpack(bytes)],
        'CBOR encode': [() => distC.encode(v), () => srcC.encode(v)],
      };
      for (const [op, both] of Object.entries(ops)) {
        const t = [[], []];
        for (let k = 0; k < 2; k++) for (let i = 0; i < n; i++) { both[0](); both[1](); } // warm-up (both tiers)
        for (let k = 0; k < ${rounds}; k++) for (const j of k % 2 ? [1, 0] : [0, 1]) {
          const f = both[j];
          const t0 = performance.now();
          for (let i = 0; i < n; i++) f();
          t[j].push(performance.now() - t0);
        }
        const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
        out.push({ input, op, ratio: med(t[1]) / med(t[0]) });
      }
    }
    console.log(JSON.stringify(out));`], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`dist/js-src child failed: ${r.stderr.trim().split('\n').slice(-2).join(' | ')}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

export default {
  name: 'size',
  title: 'bundle size and start-up (esbuild + gzip; fresh Node processes)',
  async run(ctx) {
    const { cfg, out, log, h } = ctx;
    const result = { name: 'size', title: this.title, inputs: [], headline: [], failures: [] };
    if (ctx.pass !== 'on') {
      out(`${h} size: measured in the addons-on pass only`);
      return result;
    }
    log(`[${ctx.pass}] [size] bundles and start-up ...`);
    const esbuild = await import('esbuild');
    const wasm = fs.readFileSync(path.join(ROOT, 'build/wirepack.wasm'));
    const both = "export * from './js/src/index.browser.js'; export * as cbor from './js/src/cbor.browser.js';";
    const rows = [];
    const add = (what, bytes, note = '') => {
      const row = { what, min: bytes.length, gz: gz(bytes), note };
      rows.push(row);
      return row;
    };
    add('wirepack, both codecs as shipped (JS + wasm inlined as base64)', await bundle(esbuild, both));
    const js = add('wirepack, both codecs: JS alone', await bundle(esbuild, both, { noWasm: true }));
    const wa = add('wirepack: wasm binary alone (build/wirepack.wasm)', wasm, 'both codecs');
    const total = { what: 'wirepack, both codecs: JS + wasm binary (each gzipped)', min: js.min + wa.min, gz: js.gz + wa.gz, note: 'issue 7 budget: 14,000 B' };
    rows.push(total);
    add('wirepack, MessagePack only (import { pack, unpack })', await bundle(esbuild, "export { pack, unpack } from './js/src/index.browser.js';"), 'wasm inlined');
    for (const [what, code] of [
      ['msgpackr (full API)', "export * from 'msgpackr';"],
      ['cbor-x (full API)', "export * from 'cbor-x';"],
      ['@msgpack/msgpack (full API)', "export * from '@msgpack/msgpack';"],
      ['json-pack (its MessagePack and CBOR classes)', "export * as msgpack from '@jsonjoy.com/json-pack/lib/msgpack/index.js'; export * as cbor from '@jsonjoy.com/json-pack/lib/cbor/index.js';"],
    ]) {
      try {
        add(what, await bundle(esbuild, code));
      } catch (e) {
        rows.push({ what, min: NaN, gz: NaN, note: `bundle failed: ${String(e.message).split('\n')[0]}` });
      }
    }
    const trials = cfg.quick ? 3 : 11;
    const startup = childTimes(`
      import fs from 'node:fs';
      const bytes = fs.readFileSync('build/wirepack.wasm');
      let t = performance.now();
      const m = new WebAssembly.Module(bytes);
      const compile = performance.now() - t;
      t = performance.now();
      new WebAssembly.Instance(m, {});
      const instantiate = performance.now() - t;
      t = performance.now();
      await import('./dist/esm/index.node.js');
      const importMs = performance.now() - t;${firstCallSource('firstCall', './dist/esm/index.node.js', roundTrip('pack', 'unpack'))}${firstCallSource('firstCbor', './dist/esm/cbor.node.js', roundTrip('encode', 'decode'))}${firstCallSource('firstTranscode', './dist/esm/transcode.node.js',
    `L.transcode(L.transcode('{"a":[1,"x"]}', { from: 'json', to: 'msgpack' }), { from: 'msgpack', to: 'json' })`)}
      console.log(JSON.stringify({ compile, instantiate, importMs, firstCall, firstCbor, firstCallFaults, firstCborFaults, firstTranscode, firstTranscodeFaults }));`, trials);
    // the peers' first calls, the same way (their code is compiled on first use too)
    const peersFirst = childTimes(`
      let t;${firstCallSource('msgpackr', 'msgpackr', roundTrip('pack', 'unpack'))}${firstCallSource('cborx', 'cbor-x', roundTrip('encode', 'decode'))}
      console.log(JSON.stringify({ msgpackr, cborx, msgpackrFaults, cborxFaults }));`, trials);
    const distVsSrc = distAgainstSource(cfg.quick);
    out(`${h} size: ${this.title}`);
    out();
    out('esbuild (bundle, minify, browser conditions, ESM, es2022) of each library\'s whole API, gzip -9. wirepack\'s browser entries inline the wasm as base64 (one file, no fetch); the "JS + wasm binary" row is what a build that loads the .wasm file separately ships.');
    out();
    out(table(['bundle', 'minified B', 'gzip B', 'note'], rows.map((r) => [r.what, Number.isNaN(r.min) ? 'n/a' : int(r.min), Number.isNaN(r.gz) ? 'n/a' : int(r.gz), r.note]), ['l', 'r', 'r', 'l']));
    out();
    const f = (s) => `${s.median.toFixed(2)} ms (min ${s.min.toFixed(2)}, max ${s.max.toFixed(2)})`;
    const pf = (s) => `, ${int(s.median)} page faults`;
    out(`Node ${process.version} start-up, median of ${trials} fresh processes: \`new WebAssembly.Module\` (${int(wasm.length)} B) ${f(startup.compile)}; \`new WebAssembly.Instance\` ${f(startup.instantiate)}; ` +
      `\`await import('wirepack')\` (read + base64 + compile + instantiate + evaluation) ${f(startup.importMs)}; first pack + unpack (of { a: [1, 'x'] }, after the import) ${f(startup.firstCall)}${pf(startup.firstCallFaults)}, ` +
      `then the first CBOR encode + decode ${f(startup.firstCbor)}${pf(startup.firstCborFaults)}, then (wirepack/transcode, imported) the first transcode JSON -> MessagePack -> JSON ${f(startup.firstTranscode)}${pf(startup.firstTranscodeFaults)}: V8 compiles each wasm function on its first call; msgpackr's first pack + unpack ${f(peersFirst.msgpackr)}${pf(peersFirst.msgpackrFaults)}, cbor-x's first encode + decode ${f(peersFirst.cborx)}${pf(peersFirst.cborxFaults)} (also fresh processes). Chromium's compile time is in the browser suite.`);
    out();
    out('What Node users run is dist/ (esbuild bundles of js/src), and the other suites time js/src: dist/ against js/src, both imported in one fresh process, ' +
      `alternating rounds (op/s of dist / op/s of js/src; esbuild turns top-level consts into vars, which V8 ${process.versions.v8} does not fold: scripts/check-dist.mjs): ` +
      distVsSrc.map((r) => `${r.input} ${r.op} ${r.ratio.toFixed(2)}x`).join(', ') + ' (this machine: 0.9-1.4x between runs at one commit; the dist/ before ' +
      'scripts/check-dist.mjs existed measured pack 0.69x / 0.87x here).');
    const mr = rows.find((r) => r.what.startsWith('msgpackr')), cx = rows.find((r) => r.what.startsWith('cbor-x'));
    result.size = { rows, startup, peersFirst, trials, distVsSrc };
    out();
    out(`- both codecs, JS + wasm gzipped: **${int(total.gz)} B** (budget 14,000 B; msgpackr ${mr ? int(mr.gz) : 'n/a'} B, cbor-x ${cx ? int(cx.gz) : 'n/a'} B); ` +
      `Node compile + instantiate: **${(startup.compile.median + startup.instantiate.median).toFixed(2)} ms** (budget 1 ms)`);
    return result;
  },
};
