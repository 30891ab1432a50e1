// The `wirepack` command: the native binary (build/native/wirepack, built by `npm test`) and the
// wasm fallback of bin/wirepack.js (WIREPACK_CLI_WASM=1) must give the same bytes, messages and
// exit codes. JSON output is checked against JSON.stringify of the decoded value.
import { describe, test, expect } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pack, unpack } from 'wirepack';
import { encode as cborEncode } from 'wirepack/cbor';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NATIVE = path.join(ROOT, 'build/native/wirepack');
const BIN = path.join(ROOT, 'bin/wirepack.js');
const FIX = (name) => fs.readFileSync(path.join(ROOT, 'bench/fixtures', name), 'utf8');

/** @param {'native'|'wasm'} kind @param {string[]} args @param {string|Uint8Array} [input] */
function cli(kind, args, input = '') {
  const r = kind === 'native'
    ? spawnSync(NATIVE, args, { input, maxBuffer: 1 << 30 })
    : spawnSync(process.execPath, [BIN, ...args], { input, maxBuffer: 1 << 30, env: { ...process.env, WIREPACK_CLI_WASM: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: String(r.stderr) };
}

test('the native CLI is built (npm test builds it with build.sh --native)', () => {
  expect(fs.existsSync(NATIVE)).toBe(true);
});

describe.each(['native', 'wasm'])('%s CLI', (kind) => {
  test('README example: {"foo": "bar"} | wirepack -J -m', () => {
    const r = cli(kind, ['-J', '-m'], '{"foo": "bar"}');
    expect(r.status).toBe(0);
    expect(Buffer.from(r.stdout).toString('hex')).toBe('81a3666f6fa3626172');
  });

  test.each(['example4.json', 'example-twitter.json', 'sample-large.json', 'strings.json', 'numbers.json'])('-M -j and -C -j of %s: JSON.stringify(decode(x)) per line', (name) => {
    const value = JSON.parse(FIX(name));
    const want = JSON.stringify(value) + '\n';
    const m = cli(kind, ['-M', '-j'], pack(value));
    expect(m.status).toBe(0);
    expect(m.stdout.toString()).toBe(want);
    const c = cli(kind, ['-C', '-j'], cborEncode(value));
    expect(c.status).toBe(0);
    expect(c.stdout.toString()).toBe(want);
    expect(cli(kind, ['-M', '-2'], pack(value)).stdout.toString()).toBe(JSON.stringify(value, null, 2) + '\n');
  });

  test('a stream of messages, one JSON line each; NDJSON in', () => {
    const values = [1, 'two', { three: [3] }, null, [true, false]];
    const stream = Buffer.concat(values.map((v) => pack(v)));
    const r = cli(kind, ['-M', '-j'], stream);
    expect(r.stdout.toString()).toBe(values.map((v) => JSON.stringify(v) + '\n').join(''));
    const s = cli(kind, ['-S', '-m'], values.map((v) => JSON.stringify(v)).join('\n'));
    expect(Buffer.from(s.stdout).equals(stream)).toBe(true);
  });

  test('output larger than any buffer, and a string larger than the output buffer', () => {
    // ~3 MB of output: the native CLI flushes a 256 KB buffer and grows it for the long string
    const big = { s: 'x"\\'.repeat(400_000), list: Array.from({ length: 50_000 }, (_, i) => ({ i, f: i / 7, t: `é${i}` })) };
    const r = cli(kind, ['-M', '-j'], pack(big));
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toBe(JSON.stringify(big) + '\n');
    expect(JSON.parse(cli(kind, ['-M', '-1'], pack(big)).stdout.toString())).toEqual(big);
  });

  test('binary output larger than any buffer: the bytes pack and encode write', () => {
    // ~4 MB each way: the native CLI's output streams through its 256 KB buffer (JSON input is
    // counted first, so that the map16 and array32 heads are exact as they go out)
    const big = { list: Array.from({ length: 70_000 }, (_, i) => ({ i, f: i / 7, t: `é${i}`, n: [[], {}, [i & 15]] })),
      wide: Object.fromEntries(Array.from({ length: 20 }, (_, i) => ['k' + i, i * 1000])) };
    const mp = Buffer.from(pack(big)), cb = Buffer.from(cborEncode(big));
    const text = JSON.stringify(big);
    for (const [args, input, want] of [[['-J', '-m'], text, mp], [['-J', '-c'], text, cb], [['-M', '-c'], mp, cb], [['-C', '-m'], cb, mp]]) {
      const r = cli(kind, args, input);
      expect(r.status, args.join(' ')).toBe(0);
      expect(Buffer.from(r.stdout).equals(want), args.join(' ')).toBe(true);
    }
    // CBOR indefinite lengths (held back until their value ends), in a stream of three values
    const indef = Buffer.concat([cb, Buffer.from('9f0102bf6161f7ff9f9fffffff', 'hex'), cb]);
    const r = cli(kind, ['-C', '-m'], indef);
    expect(r.status).toBe(0);
    expect(Buffer.from(r.stdout).equals(Buffer.concat([mp, Buffer.from('94010281a161d400009190', 'hex'), mp]))).toBe(true);
  });

  test('errors name the byte offset, exit 1, and keep the values before them', () => {
    // a complete value, then a truncated array
    const r = cli(kind, ['-M', '-j'], Buffer.from('81a3666f6fa36261729201', 'hex'));
    expect(r.status).toBe(1);
    expect(r.stdout.toString()).toBe('{"foo":"bar"}\n');
    expect(r.stderr).toMatch(/TRUNCATED at byte 11/);
    const j = cli(kind, ['-J', '-m'], '{"a": [1, 2,]}');
    expect(j.status).toBe(1);
    expect(j.stderr).toMatch(/at byte 12/);
    // an error deep inside a large document, after the output buffer has been flushed
    const bad = Buffer.from(pack({ list: Array.from({ length: 30_000 }, (_, i) => ({ i, name: `n${i}` })), z: null }));
    bad[bad.length - 1] = 0xc1; // the null becomes the one byte MessagePack never uses
    const b = cli(kind, ['-M', '-j'], bad);
    expect(b.status).toBe(1);
    expect(b.stderr).toMatch(new RegExp(`at byte ${bad.length - 1}\\b`));
    // NDJSON: the lines before the error, in every output format; one JSON document followed by
    // anything but whitespace writes nothing
    const nd = '{"a":1}\n[2]\n{"b":';
    for (const [flag, want] of [['-j', '{"a":1}\n[2]\n'], ['-m', '81a1610191' + '02'], ['-c', 'a161610181' + '02']]) {
      const r = cli(kind, ['-S', flag], nd);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/TRUNCATED at byte 17\b/);
      expect(flag === '-j' ? r.stdout.toString() : Buffer.from(r.stdout).toString('hex')).toBe(want);
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wirepack-cli-'));
    try {
      // (a file takes another path than a pipe)
      fs.writeFileSync(path.join(dir, 'in.ndjson'), nd);
      const r = cli(kind, ['-S', '-j', path.join(dir, 'in.ndjson')]);
      expect([r.status, r.stdout.toString()]).toEqual([1, '{"a":1}\n[2]\n']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    for (const flag of ['-j', '-m', '-c']) {
      const r = cli(kind, ['-J', flag], '{"a": 1} x');
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/TRAILING_DATA at byte 9\b/);
      expect(r.stdout.length).toBe(0);
    }
    // and a value JSON cannot hold
    expect(cli(kind, ['-M', '-j'], pack(new Uint8Array([1, 2]))).status).toBe(1);
  });

  test('--validate, --find, --diag, usage errors, files', () => {
    const doc = pack({ a: [10, { b: 'deep' }], c: 1 });
    expect(cli(kind, ['-M', '--validate'], doc).stdout.toString()).toMatch(/^ok/);
    expect(cli(kind, ['-M', '--validate'], doc.subarray(0, 5)).status).toBe(1);
    expect(cli(kind, ['-M', '-j', '--find', '/a/1/b'], doc).stdout.toString()).toBe('"deep"\n');
    expect(cli(kind, ['-M', '--diag'], pack(new Uint8Array([1, 255]))).stdout.toString()).toBe("h'01ff'\n");
    expect(cli(kind, ['-Q']).status).toBe(2);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wirepack-cli-'));
    try {
      fs.writeFileSync(path.join(dir, 'in.json'), '{"x": [1, 2.5, "three"]}');
      const r = cli(kind, ['-J', '-c', path.join(dir, 'in.json'), path.join(dir, 'out.cbor')]);
      expect(r.status).toBe(0);
      expect(cli(kind, ['-C', '-j', path.join(dir, 'out.cbor')]).stdout.toString()).toBe('{"x":[1,2.5,"three"]}\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('the native CLI converts a stream from a pipe as it arrives', async () => {
  // a value is written out before the next one has arrived (or the input has ended); a value
  // cut short by a read waits for the rest (here: one byte at a time), and the input's end
  // inside a value is TRUNCATED at the offset a file gives
  const child = spawn(NATIVE, ['-M', '-j'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '', err = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { err += d; });
  const waitFor = async (want) => {
    for (let i = 0; i < 500 && !out.includes(want); i++) await new Promise((r) => setTimeout(r, 10));
    return out;
  };
  child.stdin.write(pack({ first: 1 }));
  expect(await waitFor('{"first":1}\n')).toBe('{"first":1}\n');
  const second = pack(['second', 2.5, { x: null }]);
  for (const b of second) { child.stdin.write(Buffer.from([b])); await new Promise((r) => setTimeout(r, 2)); }
  expect(await waitFor('null}]\n')).toBe('{"first":1}\n["second",2.5,{"x":null}]\n');
  child.stdin.end(Buffer.from('9201', 'hex'));
  const code = await new Promise((r) => child.on('close', r));
  expect(code).toBe(1);
  expect(err).toMatch(new RegExp(`TRUNCATED at byte ${pack({ first: 1 }).length + second.length + 2}\\b`));
});

test('the native CLI gives the same bytes, message and exit code from a pipe written in random pieces as from a file', async () => {
  // values of every size, one of them above 1 MB (the validate-then-convert path), in a stream
  // written to the pipe in pieces of 1 byte to 300 KB; whole, cut short, and with a bad byte
  let seed = 7;
  const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const values = [];
  for (let i = 0; i < 300; i++) values.push({ i, s: 'é'.repeat(rnd(50)), a: Array.from({ length: rnd(20) }, (_, k) => k / 3) });
  values.splice(150, 0, { big: Array.from({ length: 80_000 }, (_, k) => ({ k, t: `v${k}` })) });
  const mp = Buffer.concat(values.map((v) => pack(v)));
  const nd = Buffer.from(values.map((v) => JSON.stringify(v)).join('\n') + '\n');
  const cut = mp.subarray(0, mp.length - 5), bad = Buffer.from(mp), badBig = Buffer.from(mp);
  // the byte MessagePack never uses, at the head of the 291st value and of an element in the
  // middle of the large one
  bad[Buffer.concat(values.slice(0, 291).map((v) => pack(v))).length] = 0xc1;
  badBig[mp.indexOf(Buffer.from(pack({ k: 40_000, t: 'v40000' })))] = 0xc1;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wirepack-cli-'));
  try {
    for (const [args, input] of [[['-M', '-j'], mp], [['-M', '-c'], mp], [['-S', '-m'], nd], [['-S', '-2'], nd], [['-M', '-j'], cut], [['-M', '-c'], bad], [['-M', '-j'], badBig]]) {
      const file = path.join(dir, 'in');
      fs.writeFileSync(file, input);
      const want = spawnSync(NATIVE, [...args, file], { maxBuffer: 1 << 30 });
      const child = spawn(NATIVE, args, { stdio: ['pipe', 'pipe', 'pipe'] });
      const out = [], err = [];
      child.stdout.on('data', (d) => out.push(d));
      child.stderr.on('data', (d) => err.push(d));
      let exited = false;
      const closed = new Promise((r) => child.on('close', (c) => { exited = true; r(c); }));
      child.stdin.on('error', () => {}); // (EPIPE once it has stopped at an error)
      for (let at = 0; at < input.length && !exited;) {
        const k = [1, 7, 100, 4096, 65536, 300_000][rnd(6)];
        if (!child.stdin.write(input.subarray(at, at + k))) {
          await Promise.race([new Promise((r) => child.stdin.once('drain', r)), closed]);
        }
        at += k;
        if (rnd(20) === 0) await new Promise((r) => setTimeout(r, 1));
      }
      child.stdin.end();
      const code = await closed;
      expect([code, Buffer.concat(err).toString()], args.join(' ')).toEqual([want.status, String(want.stderr)]);
      const got = Buffer.concat(out);
      // (after an error, a file's output may also hold the first part of a failing value larger
      // than the 256 KB buffer; from a pipe, only the values before it)
      if (want.status === 0) expect(got.equals(want.stdout), args.join(' ')).toBe(true);
      else expect(want.stdout.subarray(0, got.length).equals(got) && got.length > 0, args.join(' ')).toBe(true);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

test('unpack agrees with the CLI on a fixture (sanity of the comparison itself)', () => {
  const v = JSON.parse(FIX('example4.json'));
  expect(JSON.parse(cli('native', ['-M', '-j'], pack(v)).stdout.toString())).toEqual(unpack(pack(v)));
});
