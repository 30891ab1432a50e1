#!/usr/bin/env node
// The npm tarball, proven in real runtimes (issue 9): `npm run test:platforms`.
//
// `npm pack`s the project, checks the tarball (files, exports, sideEffects, size), installs it
// into a fresh temporary project (offline: wirepack has no dependencies), and runs one small
// program per platform (tests/platforms/programs/). Each program packs and unpacks a rich value
// with MessagePack and CBOR (check.mjs) and reports the bytes it wrote; every platform must
// write the same bytes as Node, and msgpackr and cbor-x must read Node's bytes back as the value.
//
// Platforms: Node ESM, Node CJS, both again on the oldest Node "engines" allows (node-floor),
// `npx wirepack` (the CLI), TypeScript (tsc --strict on the shipped .d.ts), Deno, Bun, workerd
// (HTTP on loopback), and in headless Chromium (/usr/bin/chromium, never a downloaded one): an
// esbuild bundle, a Vite production build, a plain ESM page under a strict CSP, and a Web Worker. Each prints its own PASS/FAIL line; a runtime that is missing is a FAIL.
// The last line is "platforms: N passed, N failed"; the exit code is 1 when anything failed.
//
// Env: KEEP=1 keeps the temporary directory; CHROMIUM_PATH (default /usr/bin/chromium);
// ONLY=name,name runs only those platforms (by the names in the PASS lines' first word).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import net from 'node:net';
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CHROMIUM_PATH, chromiumArgs } from '../../scripts/chromium.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../..');
const PROGRAMS = path.join(HERE, 'programs');
const BIN = path.join(REPO, 'node_modules', '.bin');
const requireRepo = createRequire(path.join(REPO, 'package.json'));
const CHROMIUM = CHROMIUM_PATH;
const CHROMIUM_ARGS = chromiumArgs();
const ONLY = process.env.ONLY ? new Set(process.env.ONLY.split(',')) : null;
const started = Date.now();

/** @type {{name: string, version: string, ok: boolean, detail: string}[]} */
const results = [];
/** Node ESM's bytes: every other platform must write the same. */
let reference = null;

function report(name, version, ok, detail = '') {
  results.push({ name, version, ok, detail });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name} (${version})${detail ? ': ' + detail : ''}  [${secs}s]`);
}
// packaging (the tarball) and node-esm (the reference bytes) always run
const want = (name) => !ONLY || ONLY.has(name) || name === 'packaging' || name === 'node-esm';

/** Run a platform's check; an exception is that platform's failure. */
async function platform(name, version, fn) {
  if (!want(name)) return;
  try {
    const detail = await fn();
    report(name, typeof version === 'function' ? version() : version, true, detail || '');
  } catch (e) {
    let v = version;
    try { if (typeof version === 'function') v = version(); } catch { v = 'missing'; }
    report(name, v, false, String((e && e.message) || e).split('\n').slice(0, 12).join('\n    '));
  }
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 90_000, maxBuffer: 64 << 20, ...opts });
  if (r.error) throw new Error(`${path.basename(cmd)}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${path.basename(cmd)} ${args.join(' ')} exited ${r.status ?? r.signal}\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

function binVersion(bin, args = ['--version']) {
  const p = path.join(BIN, bin);
  if (!fs.existsSync(p)) throw new Error(`${bin} is not installed (node_modules/.bin/${bin}): run npm ci`);
  return run(p, args).trim().split('\n')[0];
}

/** The WIREPACK_RESULT line a program printed. */
function parseResult(stdout) {
  const line = stdout.split('\n').find((l) => l.startsWith('WIREPACK_RESULT '));
  if (!line) throw new Error('no WIREPACK_RESULT line in its output:\n' + stdout.slice(0, 2000));
  return JSON.parse(line.slice('WIREPACK_RESULT '.length));
}

/** The entry files a program says it loaded must be the ones its export conditions name. */
function checkEntry(r, kind) {
  // (Node's import: the bundled ES modules of dist/esm; Deno, Bun: the browser sources)
  const want = ['index', 'cbor', 'transcode'].map((n) => `/wirepack/${kind === 'node' ? 'dist/esm' : 'js/src'}/${n}.${kind}.js`);
  if (!r.entry || r.entry.some((e, i) => !e.endsWith(want[i]))) throw new Error(`loaded ${r.entry}, expected the ${kind} entries`);
}

/** A program's result must be ok and write the reference bytes. */
function checkResult(r) {
  if (r && r.ok && !r.transcode) throw new Error('wirepack/transcode was not checked');
  if (!r || !r.ok) {
    const p = (r && r.problems) || [];
    throw new Error(`checks failed: ${JSON.stringify(p.slice(0, 6))}${p.length > 6 ? ` and ${p.length - 6} more` : ''}`);
  }
  if (reference) {
    for (const [name, key] of [['MessagePack', 'msgpackHex'], ['CBOR', 'cborHex']]) {
      const a = reference[key], b = r[key];
      if (a === b) continue;
      let i = 0;
      while (i < a.length && a[i] === b[i]) i++;
      const at = i >> 1;
      throw new Error(`${name} bytes differ from Node ESM's at byte ${at}: node ${a.slice(2 * at - 16, 2 * at + 24)}, here ${b.slice(2 * at - 16, 2 * at + 24)}`);
    }
  }
  // (Float16Array: checked against fixed bytes where the runtime has it, check.mjs float16Check;
  // Buffers where the runtime has a global Buffer, bufferCheck)
  return `msgpack ${r.msgpackHex.length / 2} B and cbor ${r.cborHex.length / 2} B round trips, transcode${r.float16 ? ', Float16Array' : ''}${r.buffers ? ', Buffers' : ''}`;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------------------------- 1. the tarball
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'wirepack-platforms-'));
const PROJ = path.join(TMP, 'proj');
const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
let tarball = null;

await platform('packaging', 'npm ' + run('npm', ['--version']).trim(), () => {
  const out = run('npm', ['pack', '--json', '--pack-destination', TMP], { cwd: REPO });
  const info = JSON.parse(out.slice(out.indexOf('[')))[0];
  tarball = path.join(TMP, info.filename);
  const files = new Set(info.files.map((f) => f.path));
  const problems = [];
  for (const f of files) {
    if (/^(tests|bench|scripts|\.ci|node_modules|build\/(obj|\.stamps))\//.test(f) || /\.test\.[cm]?js$/.test(f)) {
      problems.push(`${f} should not ship`);
    }
  }
  const has = (p) => files.has(p.replace(/^\.\//, ''));
  for (const field of ['main', 'module', 'types']) if (pkg[field] && !has(pkg[field])) problems.push(`${field}: ${pkg[field]} is not in the tarball`);
  const bins = typeof pkg.bin === 'string' ? { [pkg.name]: pkg.bin } : pkg.bin || {};
  for (const [cmd, file] of Object.entries(bins)) if (!has(file)) problems.push(`bin ${cmd}: ${file} is not in the tarball`);
  // the exports map, resolved as each consumer resolves it (conditions in the consumer's set,
  // first match in map order, nested maps followed)
  const resolve = (map, set) => {
    if (typeof map === 'string') return map;
    for (const [c, v] of Object.entries(map || {})) {
      if (c === 'default' || set.includes(c)) {
        const r = resolve(v, set);
        if (r) return r;
      }
    }
    return null;
  };
  const consumers = {
    'node import': [['node', 'import'], 'dist/esm/{}.node.js'],
    'node require': [['node', 'require'], 'dist/{}.cjs'],
    'tsc NodeNext': [['types', 'node', 'import'], 'dist/types/{}.node.d.ts'],
    'tsc Bundler': [['types', 'import'], 'dist/types/{}.browser.d.ts'],
    'browser bundler': [['browser', 'import', 'module'], 'js/src/{}.browser.js'],
    deno: [['deno', 'node', 'import'], 'js/src/{}.browser.js'],
    bun: [['bun', 'node', 'import'], 'js/src/{}.browser.js'],
    'workerd bundler': [['workerd', 'worker', 'browser', 'import'], 'js/src/{}.browser.js'],
    'web worker bundler': [['worker', 'browser', 'import'], 'js/src/{}.browser.js'],
  };
  const entries = Object.entries(pkg.exports || {}).filter(([, m]) => typeof m === 'object');
  // the file each entry resolves to, where it is not named after the entry ('./cbor' is cbor):
  // the root, and the peers' subpaths (msgpackr/unpack, cbor-x/decode-no-eval, ...) as aliases
  const ALIAS = {
    '.': 'index', './pack': 'index', './unpack': 'index', './unpack-no-eval': 'index-no-eval',
    './cbor/encode': 'cbor', './cbor/decode': 'cbor', './cbor/decode-no-eval': 'cbor-no-eval', './cbor/index-no-eval': 'cbor-no-eval',
  };
  for (const need of ['./cbor', './transcode', './msgpack', './json-pack', './index-no-eval', ...Object.keys(ALIAS)]) if (!pkg.exports?.[need]) problems.push(`exports["${need}"] is missing`);
  for (const [entry, map] of entries) {
    const name = ALIAS[entry] || entry.slice(2);
    if (Object.keys(map).at(-1) !== 'default') problems.push(`exports["${entry}"]: "default" must come last`);
    for (const [who, [set, expect]] of Object.entries(consumers)) {
      const got = resolve(map, set);
      const want = './' + expect.replace('{}', name);
      if (got !== want) problems.push(`exports["${entry}"] for ${who}: ${got}, expected ${want}`);
      else if (!has(got)) problems.push(`exports["${entry}"] for ${who}: ${got} is not in the tarball`);
    }
  }
  for (const [entry, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string' && !has(target)) problems.push(`exports["${entry}"]: ${target} is not in the tarball`);
  }
  // sideEffects: every listed file ships, and every module imported for its effect alone
  // (`import './x.js'`), every module that imports one that way, and every module with a
  // top-level await is listed, or bundlers drop it
  const listed = new Set((pkg.sideEffects || []).map((p) => p.replace(/^\.\//, '')));
  if (!Array.isArray(pkg.sideEffects)) problems.push('sideEffects should list the modules with side effects');
  for (const f of listed) if (!has(f)) problems.push(`sideEffects: ${f} is not in the tarball`);
  for (const f of files) {
    if (!/^js\/src\/.*\.js$/.test(f)) continue;
    const src = fs.readFileSync(path.join(REPO, f), 'utf8');
    const needs = [];
    if (/^\s*await\s/m.test(src)) needs.push(f);
    for (const m of src.matchAll(/^import\s+['"](\.[^'"]+)['"]/gm)) needs.push(f, path.posix.join(path.posix.dirname(f), m[1]));
    for (const n of needs) if (!listed.has(n)) problems.push(`sideEffects: ${n} runs code on import but is not listed`);
  }
  if (info.size > 1024 * 1024) problems.push(`tarball is ${info.size} bytes (> 1 MiB): something big was packed`);
  if (problems.length) throw new Error(problems.join('\n'));
  return `${info.filename}: ${(info.size / 1024).toFixed(1)} kB packed, ${(info.unpackedSize / 1024).toFixed(1)} kB unpacked, ${info.entryCount} files`;
});
if (!tarball || !fs.existsSync(tarball)) {
  console.log('platforms: 0 passed, 1 failed');
  process.exit(1);
}

// --------------------------------------------------------------- 2. a fresh project with it
fs.mkdirSync(PROJ);
fs.writeFileSync(
  path.join(PROJ, 'package.json'),
  JSON.stringify({ name: 'wirepack-platforms', private: true, type: 'module', dependencies: { wirepack: `file:${tarball}` } }, null, 2),
);
// wirepack has no dependencies: installing the tarball needs no network
run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: PROJ });
fs.cpSync(PROGRAMS, PROJ, { recursive: true });
const WP = path.join(PROJ, 'node_modules', 'wirepack');
const nodeEnv = { ...process.env, NODE_OPTIONS: '' };

// ----------------------------------------------------------------------------- 3. Node ESM/CJS
await platform('node-esm', `node ${process.version}`, async () => {
  const r = parseResult(run(process.execPath, ['app.mjs'], { cwd: PROJ, env: nodeEnv }));
  checkEntry(r, 'node');
  const detail = checkResult(r);
  reference = r;
  // the peers read wirepack's bytes back as the value (msgpackr turns every map into a Map
  // here, since the value has a Map with a numeric key)
  const { makeValue, diff } = await import(pathToFileURL(path.join(PROJ, 'check.mjs')).href);
  const toMaps = (x) =>
    Array.isArray(x) ? x.map(toMaps)
      : x instanceof Map ? new Map([...x].map(([k, v]) => [k, toMaps(v)]))
        : x && typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype ? new Map(Object.entries(x).map(([k, v]) => [k, toMaps(v)]))
          : x;
  const { Unpackr } = requireRepo('msgpackr');
  const { Decoder } = requireRepo('cbor-x');
  const m = diff(toMaps(makeValue()), new Unpackr({ mapsAsObjects: false, int64AsType: 'bigint' }).unpack(Buffer.from(r.msgpackHex, 'hex')));
  if (m) throw new Error('msgpackr reads the MessagePack bytes differently: ' + m);
  const c = diff(makeValue(), new Decoder({ useRecords: false, mapsAsObjects: true, int64AsType: 'bigint' }).decode(Buffer.from(r.cborHex, 'hex')));
  if (c) throw new Error('cbor-x reads the CBOR bytes differently: ' + c);
  return detail + '; msgpackr and cbor-x read both back';
});

await platform('node-cjs', `node ${process.version}`, () => {
  const r = parseResult(run(process.execPath, ['app.cjs'], { cwd: PROJ, env: nodeEnv }));
  const detail = checkResult(r);
  // dist/index.cjs and dist/cbor.cjs must share one runtime (one wasm instance, one DecodeError)
  if (!r.sharedDecodeError) throw new Error("require('wirepack'), require('wirepack/cbor') and require('wirepack/transcode') load more than one copy of the runtime");
  return detail;
});

// The oldest Node package.json's "engines" allows (>=18; Vitest cannot run there, so the tarball's
// programs are what prove it): Node's own build from npm (scripts/node24.sh, which fetches any
// version), both module systems, the reference bytes.
const NODE_FLOOR = '18.20.8';
await platform('node-floor', `node v${NODE_FLOOR}`, () => {
  const engines = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).engines.node;
  if (engines !== `>=${NODE_FLOOR.split('.')[0]}`) throw new Error(`package.json engines.node is ${engines}: make NODE_FLOOR its oldest version`);
  const fetchEnv = { ...process.env, NODE24_VERSION: NODE_FLOOR };
  delete fetchEnv.NODE24;
  const bin = run('bash', [path.join(REPO, 'scripts', 'node24.sh')], { env: fetchEnv, timeout: 300_000 }).trim();
  const esm = parseResult(run(bin, ['app.mjs'], { cwd: PROJ, env: nodeEnv }));
  checkEntry(esm, 'node');
  checkResult(esm);
  const cjs = parseResult(run(bin, ['app.cjs'], { cwd: PROJ, env: nodeEnv }));
  const detail = checkResult(cjs);
  if (!cjs.sharedDecodeError) throw new Error('the CommonJS entries load more than one copy of the runtime');
  return `ESM and CJS: ${detail}, Node ESM's bytes`;
});

// `npx wirepack` from the installed tarball (no native binary there: the wasm transcode path)
await platform('cli', `node ${process.version}`, () => {
  const bin = path.join(PROJ, 'node_modules', '.bin', 'wirepack');
  if (!fs.existsSync(bin)) throw new Error('node_modules/.bin/wirepack was not installed ("bin" in package.json)');
  const r = spawnSync(bin, ['-J', '-m'], { cwd: PROJ, input: '{"foo": "bar"}', timeout: 30_000, env: nodeEnv });
  const hexOut = Buffer.from(r.stdout || '').toString('hex');
  if (r.status !== 0 || hexOut !== '81a3666f6fa3626172') throw new Error(`wirepack -J -m: exit ${r.status}, ${hexOut}\n${r.stderr}`);
  const back = spawnSync(bin, ['-M', '-j'], { cwd: PROJ, input: r.stdout, timeout: 30_000, env: nodeEnv, encoding: 'utf8' });
  if (back.status !== 0 || back.stdout.trim() !== '{"foo":"bar"}') throw new Error(`wirepack -M -j: exit ${back.status}, ${back.stdout}\n${back.stderr}`);
  return "echo '{\"foo\": \"bar\"}' | wirepack -J -m: 81 a3 66 6f 6f a3 62 61 72, and back with -M -j";
});

// ----------------------------------------------------------------------------- 4. TypeScript
// Two consumers: a Node project (NodeNext, @types/node) and a browser project (Bundler, no Node
// types); both check the shipped .d.ts themselves (skipLibCheck off). tsc is the slowest step:
// both start now, in the background, and are awaited where their PASS line is printed.
// A third and fourth: typed-peers.ts, code written for msgpackr's and cbor-x's types, checked
// against those types (the peers' .d.ts from this repository's node_modules, through `paths`:
// the program is their users' code) and with its imports changed to wirepack's (switching is
// that change alone).
const nodeTypes = { module: 'NodeNext', moduleResolution: 'NodeNext', types: ['node'], typeRoots: [path.join(REPO, 'node_modules', '@types')] };
if (want('typescript')) {
  const peerSource = fs.readFileSync(path.join(PROJ, 'typed-peers.ts'), 'utf8');
  const switched = peerSource.replace(/from 'msgpackr'/g, "from 'wirepack'").replace(/from 'cbor-x'/g, "from 'wirepack/cbor'");
  if (switched === peerSource || /from '(msgpackr|cbor-x)'/.test(switched)) throw new Error('typed-peers.ts: no peer imports to switch');
  fs.writeFileSync(path.join(PROJ, 'typed-peers-wirepack.ts'), switched);
}
const tscRuns = !want('typescript') ? [] : Object.entries({
  'tsconfig.node.json': [nodeTypes, 'typed.ts'],
  'tsconfig.browser.json': [{ module: 'ESNext', moduleResolution: 'Bundler', types: [] }, 'typed.ts'],
  'tsconfig.peers.json': [{ ...nodeTypes, paths: { msgpackr: [path.join(REPO, 'node_modules', 'msgpackr', 'index.d.ts')], 'cbor-x': [path.join(REPO, 'node_modules', 'cbor-x', 'index.d.ts')] } }, 'typed-peers.ts'],
  'tsconfig.switched.json': [nodeTypes, 'typed-peers-wirepack.ts'],
}).map(([file, [extra, program]]) => {
  const compilerOptions = { target: 'ES2022', lib: ['ES2022', 'DOM'], strict: true, noEmit: true, skipLibCheck: false, ...extra };
  fs.writeFileSync(path.join(PROJ, file), JSON.stringify({ compilerOptions, files: [program] }, null, 2));
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(path.join(BIN, 'tsc'), ['-p', file], { cwd: PROJ });
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (e) => resolve(`${file}: ${e.message}`));
    child.on('close', (code) => resolve(code === 0 ? '' : `${file}:\n${out}`));
  });
});

// ----------------------------------------------------------------------------- 5. Deno, Bun
const denoEnv = { ...process.env, DENO_DIR: path.join(TMP, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
await platform('deno', () => binVersion('deno').replace(/ \(.*/, ''), () => {
  const r = parseResult(run(path.join(BIN, 'deno'), ['run', '--no-prompt', 'app.mjs'], { cwd: PROJ, env: denoEnv }));
  checkEntry(r, 'browser');
  return checkResult(r);
});
await platform('bun', () => 'bun ' + binVersion('bun'), () => {
  const r = parseResult(run(path.join(BIN, 'bun'), ['app.mjs'], { cwd: PROJ, env: { ...process.env, NO_COLOR: '1' } }));
  checkEntry(r, 'browser');
  return checkResult(r);
});

await platform('typescript', () => `tsc ${requireRepo('typescript/package.json').version}`, async () => {
  const failures = (await Promise.all(tscRuns)).filter(Boolean);
  if (failures.length) throw new Error(failures.join('\n'));
  return 'tsc --strict --noEmit on typed.ts: NodeNext + @types/node, Bundler without Node types; typed-peers.ts (msgpackr and cbor-x code) against their .d.ts and switched to wirepack';
});

// ----------------------------------------------------------------------------- 6. workerd
const esbuild = await import('esbuild');
await platform('workerd', () => binVersion('workerd'), async () => {
  binVersion('workerd'); // throws when it is missing
  const dir = path.join(PROJ, 'workerd');
  const out = path.join(dir, 'out');
  // what a Workers toolchain does: bundle with the worker conditions, the .wasm as a module
  await esbuild.build({
    entryPoints: [path.join(dir, 'worker.mjs')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    external: ['*.wasm'],
    outfile: path.join(out, 'worker.js'),
    logLevel: 'error',
  });
  fs.copyFileSync(path.join(WP, 'build', 'wirepack.wasm'), path.join(out, 'wirepack.wasm'));
  fs.copyFileSync(path.join(WP, 'build', 'wirepack-transcode.wasm'), path.join(out, 'wirepack-transcode.wasm'));
  const port = await freePort();
  fs.writeFileSync(
    path.join(out, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .mainWorker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const mainWorker :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
    (name = "wirepack/wirepack.wasm", wasm = embed "wirepack.wasm"),
    (name = "wirepack/transcode.wasm", wasm = embed "wirepack-transcode.wasm"),
  ],
  compatibilityDate = "2025-01-01",
);
`,
  );
  const logFile = path.join(out, 'workerd.log');
  const log = fs.openSync(logFile, 'w');
  const child = spawn(path.join(BIN, 'workerd'), ['serve', 'config.capnp'], { cwd: out, stdio: ['ignore', log, log] });
  let spawnError = null;
  child.on('error', (e) => (spawnError = e));
  const base = `http://127.0.0.1:${port}`;
  try {
    let up = false;
    for (const until = Date.now() + 30_000; !up && !spawnError && child.exitCode === null && Date.now() < until; ) {
      try { await fetch(base + '/', { signal: AbortSignal.timeout(1000) }); up = true; } catch { await sleep(100); }
    }
    if (!up) throw new Error(`workerd did not start: ${spawnError ? spawnError.message : ''}\n` + fs.readFileSync(logFile, 'utf8'));
    const detail = checkResult(await (await fetch(base + '/check')).json());
    // MessagePack in, CBOR out: the caller decodes the answer with the tarball's Node build
    const mp = await import(pathToFileURL(path.join(WP, 'js/src/index.node.js')).href);
    const cb = await import(pathToFileURL(path.join(WP, 'js/src/cbor.node.js')).href);
    const { makeValue, asUnpacked, diff } = await import(pathToFileURL(path.join(PROJ, 'check.mjs')).href);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(base + '/', { method: 'POST', body: mp.pack(makeValue()), headers: { 'content-type': 'application/msgpack' } });
      if (res.status !== 200 || res.headers.get('content-type') !== 'application/cbor') throw new Error(`POST: ${res.status} ${await res.text()}`);
      const answer = cb.decode(new Uint8Array(await res.arrayBuffer()));
      // (the worker unpacked the MessagePack: the Map came back an object)
      const d = diff(asUnpacked(makeValue()), answer.received);
      if (d || answer.keys !== Object.keys(makeValue()).length) throw new Error('POST answer: ' + (d || `keys ${answer.keys}`));
    }
    const bad = await fetch(base + '/', { method: 'POST', body: mp.pack(makeValue()).subarray(0, 50) });
    const err = await bad.json();
    if (bad.status !== 400 || err.code !== 'TRUNCATED' || err.incomplete !== true || typeof err.offset !== 'number') {
      throw new Error(`truncated POST: ${bad.status} ${JSON.stringify(err)}`);
    }
    return detail + '; 3 POSTs MessagePack -> CBOR, a truncated body -> 400 TRUNCATED';
  } finally {
    child.kill();
    fs.closeSync(log);
  }
});

// ----------------------------------------------------------------------------- 7. browsers
// Bundles first, then one Chromium for every page.
let esbuildDetail = '';
await platform('esbuild', `esbuild ${esbuild.version}`, async () => {
  const dir = path.join(PROJ, 'esbuild');
  // a user's plain bundle: no plugins, package.json's sideEffects honoured
  const r = await esbuild.build({
    entryPoints: [path.join(dir, 'app.mjs')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    outfile: path.join(dir, 'dist', 'app.js'),
    metafile: true,
    logLevel: 'error',
  });
  const inputs = Object.keys(r.metafile.inputs).filter((f) => f.includes('node_modules/wirepack/'));
  const js = fs.readFileSync(path.join(dir, 'dist', 'app.js'), 'utf8');
  if (!inputs.some((f) => f.endsWith('load.browser.js'))) throw new Error('the bundle has no load.browser.js: ' + inputs.join(' '));
  if (inputs.some((f) => /\.node\.js$|dist\//.test(f))) throw new Error('the browser bundle pulled in a Node build: ' + inputs.join(' '));
  const runtimes = js.split('wirepack is not initialised').length - 1;
  if (runtimes !== 1) throw new Error(`the bundle holds ${runtimes} copies of the runtime`);
  // what a MessagePack-only user ships: no CBOR, no transcode module (sideEffects at work)
  const slim = await esbuild.build({
    stdin: { contents: "import { pack, unpack } from 'wirepack'; console.log(unpack(pack(1)));", resolveDir: dir, sourcefile: 'slim.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  // (files parsed but tree-shaken away have no bytes in the output)
  const slimOut = Object.values(slim.metafile.outputs)[0].inputs;
  const extra = Object.keys(slimOut).filter((f) => slimOut[f].bytesInOutput > 0 && /\/(cbor|transcode[^/]*|diagnose)\.js$/.test(f))
    .map((f) => `${path.basename(f)} (${slimOut[f].bytesInOutput} B)`);
  if (extra.length) throw new Error('a bundle of pack/unpack alone also holds ' + extra.join(' '));
  const slimKb = (slim.outputFiles[0].contents.length / 1024).toFixed(0);
  esbuildDetail = `bundle ${(js.length / 1024).toFixed(0)} kB; pack/unpack alone ${slimKb} kB`;
  return esbuildDetail + ' built (runs in Chromium below)';
});

let viteOk = false;
await platform('vite', () => `vite ${requireRepo('vite/package.json').version}`, async () => {
  const { build } = await import('vite');
  await build({
    configFile: false,
    root: path.join(PROJ, 'vite'),
    base: './',
    logLevel: 'error',
    build: { outDir: path.join(PROJ, 'vite', 'dist'), emptyOutDir: true },
  });
  viteOk = true;
  const assets = fs.readdirSync(path.join(PROJ, 'vite', 'dist', 'assets'));
  return `built ${assets.join(', ')} (runs in Chromium below)`;
});

const CSP = "script-src 'self' 'wasm-unsafe-eval'";
const MIME = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const file = path.join(PROJ, path.normalize(decodeURIComponent(url.pathname)));
  if (!file.startsWith(PROJ + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    res.writeHead(404).end();
    return;
  }
  const headers = { 'content-type': MIME[path.extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' };
  if (url.pathname.startsWith('/csp/')) headers['content-security-policy'] = CSP;
  res.writeHead(200, headers);
  fs.createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;

let browser = null;
let chromeVersion = 'missing';
try {
  const { chromium } = await import('playwright-core');
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found (apt-get install chromium)`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  chromeVersion = 'chromium ' + browser.version();
} catch (e) {
  console.log('chromium: ' + ((e && e.message) || e).split('\n')[0]);
}

/** Load a page, wait for its __wirepackResult. */
async function inPage(urlPath) {
  if (!browser) throw new Error('Chromium did not start');
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push('pageerror: ' + e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push('console: ' + m.text()); });
  try {
    await page.goto(origin + urlPath);
    try {
      await page.waitForFunction(() => /** @type {any} */ (window).__wirepackResult, null, { timeout: 45_000 });
    } catch {
      throw new Error('no result from the page within 45 s\n' + errors.join('\n'));
    }
    return { result: await page.evaluate(() => /** @type {any} */ (window).__wirepackResult), errors };
  } finally {
    await page.close();
  }
}

await platform('chromium-esbuild', () => chromeVersion, async () => {
  if (!esbuildDetail) throw new Error('the esbuild bundle was not built');
  const { result } = await inPage('/esbuild/index.html');
  return checkResult(result) + ` (${esbuildDetail})`;
});
await platform('chromium-vite', () => chromeVersion, async () => {
  if (!viteOk) throw new Error('the Vite build failed');
  const { result } = await inPage('/vite/dist/index.html');
  return checkResult(result);
});
await platform('chromium-csp', () => chromeVersion, async () => {
  const counts = [];
  let detail = '';
  for (const query of ['', '?codegen=0', '?noeval=1']) {
    const { result, errors } = await inPage('/csp/index.html' + query);
    detail = checkResult(result);
    const v = result.violations;
    if (!result.spyWorks) throw new Error('the securitypolicyviolation listener saw no deliberate eval: the count means nothing');
    // default decoders may try code generation once (a probe) and never again after a refusal;
    // decoders with { codegen: false } never try, nor do any after a -no-eval entry's import
    if (query === '?noeval=1' && !result.noEval) throw new Error('?noeval=1 did not load the -no-eval entries');
    const most = query ? 0 : 1;
    if (v.length > most) throw new Error(`${query || 'default'}: ${v.length} CSP violation reports (at most ${most}): ${JSON.stringify(v.slice(0, 5))}`);
    if (v.some((x) => x.blocked !== 'eval')) throw new Error('a CSP violation other than eval: ' + JSON.stringify(v));
    const other = errors.filter((e) => !/unsafe-eval|Content Security Policy/i.test(e));
    if (other.length) throw new Error(other.join('\n'));
    counts.push(v.length);
  }
  return `${detail}; CSP violation reports over 300 decodes of 50 shapes: ${counts[0]} (the eval probe), ${counts[1]} with { codegen: false }, ${counts[2]} through wirepack/index-no-eval`;
});
await platform('chromium-webworker', () => chromeVersion, async () => {
  const { result } = await inPage('/webworker/index.html');
  return checkResult(result) + '; page -> worker MessagePack, worker -> page CBOR';
});

if (browser) await browser.close();
server.close();

// ----------------------------------------------------------------------------- summary
const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
const secs = ((Date.now() - started) / 1000).toFixed(1);
fs.mkdirSync(path.join(REPO, 'build'), { recursive: true });
fs.writeFileSync(path.join(REPO, 'build', 'platforms.json'), JSON.stringify({ seconds: +secs, results }, null, 2) + '\n');
if (process.env.KEEP) console.log(`kept ${TMP}`);
else fs.rmSync(TMP, { recursive: true, force: true });
console.log(`test:platforms took ${secs}s`);
console.log(`platforms: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
