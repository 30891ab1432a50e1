#!/usr/bin/env node
// `npx wirepack`: the wirepack CLI. Runs the native binary (build/native/wirepack, built by
// build.sh from csrc/) when it exists; otherwise the same command over the wasm transcode
// module (wirepack/transcode), with the same flags, output and exit codes. `wirepack --help`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const native = fileURLToPath(new URL('../build/native/wirepack', import.meta.url));
if (existsSync(native) && !process.env.WIREPACK_CLI_WASM) {
  const r = spawnSync(native, args, { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const { transcode, validate, find } = await import('../js/src/transcode.node.js');

const USAGE = `Usage: wirepack [-MJSC] [-mjc] [-1|-2] [--diag|--validate|--find PATH] [infile|-] [outfile|-]
(the wasm build of the native command: see README "CLI", or build.sh for build/native/wirepack)
Input:  -M MessagePack stream (default)  -C CBOR stream  -J one JSON document  -S NDJSON
Output: -m MessagePack (default)  -c CBOR  -j JSON lines  -1/-2 indented JSON
Modes:  --diag  --validate  --find PATH (JSON Pointer)  --max-depth N  -h/--help
`;
const usage = (msg) => { process.stderr.write(`wirepack: ${msg}\n(see wirepack --help)\n`); process.exit(2); };

let from = 'msgpack', to = 'msgpack', indent = 0, ndjson = false, diag = false, doValidate = false, maxDepth = 0;
let findPath = null;
const files = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--help' || a === '-h') { process.stdout.write(USAGE); process.exit(0); }
  if (a === '--diag') { diag = true; continue; }
  if (a === '--validate') { doValidate = true; continue; }
  if (a === '--find') { if (++i >= args.length) usage('--find needs a PATH'); findPath = args[i]; continue; }
  if (a === '--max-depth') { if (++i >= args.length) usage('--max-depth needs a number'); maxDepth = Number(args[i]); continue; }
  if (a.startsWith('--')) usage(`unknown option ${a}`);
  if (a.length > 1 && a[0] === '-') {
    for (const c of a.slice(1)) {
      switch (c) {
        case 'M': from = 'msgpack'; ndjson = false; break;
        case 'C': from = 'cbor'; ndjson = false; break;
        case 'J': from = 'json'; ndjson = false; break;
        case 'S': from = 'json'; ndjson = true; break;
        case 'm': to = 'msgpack'; break;
        case 'c': to = 'cbor'; break;
        case 'j': to = 'json'; break;
        case '1': to = 'json'; indent = 1; break;
        case '2': to = 'json'; indent = 2; break;
        default: usage(`unknown option -${c}`);
      }
    }
    continue;
  }
  if (files.length >= 2) usage(`too many arguments: ${a}`);
  files.push(a);
}
const inFile = files[0] && files[0] !== '-' ? files[0] : 0;
const outFile = files[1] && files[1] !== '-' ? files[1] : null;
let input;
try { input = new Uint8Array(readFileSync(inFile)); } catch (e) { process.stderr.write(`wirepack: ${files[0]}: ${e.message}\n`); process.exit(1); }
const NAMES = { msgpack: 'MessagePack', cbor: 'CBOR', json: 'JSON' };
/** The values before an error in a stream are written, as the native command does. */
const writePrefix = (e) => {
  if (!multiple || findPath !== null || doValidate || (to === from && from !== 'json' && !diag)) return;
  let end = 0;
  try {
    for (;;) {
      const r = find(input.subarray(end), '', { format: from, range: true });
      if (r === null || end + r[1] > e.offset) break;
      end += r[1];
    }
  } catch { /* the failing value */ }
  if (end === 0) return;
  const head = input.subarray(0, end);
  const part = diag || to === 'json'
    ? transcode(from === 'json' ? transcode(head, { from, to: 'msgpack', multiple, maxDepth }) : head,
      { from: from === 'json' ? 'msgpack' : from, to: 'json', diag, multiple: true, lines: true, indent, maxDepth, wireOrder: true })
    : transcode(head, { from, to, multiple, maxDepth });
  if (outFile) writeFileSync(outFile, part); else process.stdout.write(part);
};
const fail = (e) => {
  if (!e || typeof e.offset !== 'number') throw e;
  try { writePrefix(e); } catch { /* nothing more to keep */ }
  process.stderr.write(`wirepack: ${NAMES[from]} input: ${e.code} at byte ${e.offset}\n`);
  process.exit(1);
};
const multiple = from !== 'json' || ndjson;
/** @type {Uint8Array | string} */
let out;
try {
  if (doValidate) {
    const r = validate(input, { format: from, multiple, maxDepth });
    if (!r.valid) fail(r.error);
    out = 'ok\n';
  } else if (findPath !== null) {
    const range = find(input, findPath, { format: from, range: true });
    if (range === null) fail({ code: 'NOT_FOUND', offset: 0 });
    const slice = input.subarray(range[0], range[1]);
    out = diag || to === 'json'
      ? transcode(slice, { from, to: 'json', diag, indent, lines: true, maxDepth, wireOrder: true })
      : from === to ? slice : transcode(slice, { from, to, maxDepth });
  } else if (diag || to === 'json') {
    out = from === 'json' ? transcode(transcode(input, { from, to: 'msgpack', multiple, maxDepth }), { from: 'msgpack', to: 'json', multiple: true, lines: true, indent, maxDepth, wireOrder: true })
      : transcode(input, { from, to: 'json', diag, multiple, lines: true, indent, maxDepth, wireOrder: true });
  } else {
    out = from === to ? (validate(input, { format: from, multiple, maxDepth }).valid ? input : fail(validate(input, { format: from, multiple }).error))
      : transcode(input, { from, to, multiple, maxDepth });
  }
} catch (e) { fail(e); }
if (outFile) writeFileSync(outFile, out);
else process.stdout.write(out);
