// The peers' subpaths, so that replacing the package name in an import is the whole switch:
// msgpackr/pack, msgpackr/unpack, msgpackr/index-no-eval, msgpackr/unpack-no-eval;
// cbor-x/encode, cbor-x/decode, cbor-x/index-no-eval, cbor-x/decode-no-eval (as wirepack/cbor/...).
// Each is the whole API of the entry it stands for, with one runtime (the same functions); the
// -no-eval ones turn code generation off for the process, so each check runs in a process of
// its own, through Node's own resolution of package.json's exports (dist/, ESM and CommonJS).
import { describe, test, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// counts `new Function` calls (wirepack's generated constructors and its probe), then decodes
// 50-object arrays and records often enough that a decoder that may generate code does
const CHILD = `
let calls = 0;
const F = globalThis.Function;
globalThis.Function = new Proxy(F, {
  construct(t, a) { calls++; return Reflect.construct(t, a); },
  apply(t, self, a) { calls++; return Reflect.apply(t, self, a); },
});
const [how, spec, base] = process.argv.slice(-3);
const { createRequire } = await import('node:module');
const req = createRequire(process.cwd() + '/package.json');
const load = (s) => (how === 'require' ? req(s) : import(s));
const W = await load(spec);
const B = await load(base);
const names = Object.keys(W).sort();
const same = names.length === Object.keys(B).length && names.every((k) => W[k] === B[k]);
const cbor = typeof W.pack !== 'function';
const enc = cbor ? W.encode : W.pack, dec = cbor ? W.decode : W.unpack;
const rows = Array.from({ length: 50 }, (_, i) => ({ id: i, name: 'n' + i, tags: ['a'], ok: true, score: i / 3 }));
let ok = true;
const b = enc(rows);
for (let i = 0; i < 300; i++) ok = ok && dec(b)[49].name === 'n49';
const E = cbor ? W.Encoder : W.Packr, D = cbor ? W.Decoder : W.Unpackr;
const e = new E({ structures: [] });
const d = new D({ structures: e.structures });
const r = e.encode(rows);
for (let i = 0; i < 300; i++) ok = ok && d.decode(r)[49].score === 49 / 3;
console.log(JSON.stringify({ calls, same, names: names.length, ok }));
`;

/** @param {'import' | 'require'} how @param {string} spec @param {string} base */
function run(how, spec, base) {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', CHILD, how, spec, base], { cwd: REPO, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1));
}

const CASES = [
  ['wirepack/pack', 'wirepack', false],
  ['wirepack/unpack', 'wirepack', false],
  ['wirepack/index-no-eval', 'wirepack', true],
  ['wirepack/unpack-no-eval', 'wirepack', true],
  ['wirepack/cbor/encode', 'wirepack/cbor', false],
  ['wirepack/cbor/decode', 'wirepack/cbor', false],
  ['wirepack/cbor/index-no-eval', 'wirepack/cbor', true],
  ['wirepack/cbor/decode-no-eval', 'wirepack/cbor', true],
];

describe("the peers' subpaths", () => {
  for (const how of /** @type {const} */ (['import', 'require'])) {
    test(`${how}: the entries themselves generate constructors (the control)`, () => {
      for (const base of ['wirepack', 'wirepack/cbor']) {
        const r = run(how, base, base);
        expect(r, base).toMatchObject({ same: true, ok: true });
        expect(r.calls, base).toBeGreaterThan(0);
      }
    });
    for (const [spec, base, noEval] of CASES) {
      test(`${how} ${spec}: ${base}'s API, one runtime${noEval ? ', no code generation at all' : ''}`, () => {
        const r = run(how, spec, base);
        expect(r).toMatchObject({ same: true, ok: true });
        expect(r.names).toBeGreaterThan(20);
        if (noEval) expect(r.calls).toBe(0);
        else expect(r.calls).toBeGreaterThan(0);
      });
    }
  }
});

// wirepack/msgpack (msgpack-javascript's API): through Node's resolution too, ESM and CommonJS, on
// the runtime and DecodeError of wirepack's entry
const LIB_CHILD = `
const [how] = process.argv.slice(-1);
const { createRequire } = await import('node:module');
const req = createRequire(process.cwd() + '/package.json');
const load = (s) => (how === 'require' ? req(s) : import(s));
const M = await load('wirepack/msgpack');
const W = await load('wirepack');
let err;
try { M.decode(new Uint8Array([0xc1])); } catch (e) { err = e; }
const bytes = M.encode({ a: [1, 2 ** 40, 'x'], d: new Date(5) });
console.log(JSON.stringify({
  hex: Buffer.from(bytes).toString('hex'),
  plain: Object.getPrototypeOf(bytes) === Uint8Array.prototype,
  back: M.decode(bytes).a[1],
  shared: err instanceof M.DecodeError && err instanceof W.DecodeError,
  names: Object.keys(M).sort().join(','),
}));
`;

describe('wirepack/msgpack', () => {
  for (const how of ['import', 'require']) {
    test(`${how}: msgpack-javascript's API on wirepack's runtime`, () => {
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', LIB_CHILD, how], { cwd: REPO, encoding: 'utf8' });
      const r = JSON.parse(out.trim().split('\n').at(-1));
      expect(r).toMatchObject({ plain: true, back: 2 ** 40, shared: true });
      expect(r.hex).toBe('82a1619301cf0000010000000000a178a164d7ff01312d0000000000');
      for (const k of ['encode', 'decode', 'decodeMulti', 'decodeAsync', 'decodeArrayStream', 'decodeMultiStream', 'Encoder', 'Decoder', 'DecodeError', 'ExtensionCodec', 'ExtData', 'EXT_TIMESTAMP']) {
        expect(r.names.split(','), k).toContain(k);
      }
    });
  }
});

// wirepack/json-pack (json-pack's codec classes): through Node's resolution, ESM and CommonJS, on
// the runtime and DecodeError of wirepack's entry
const JP_CHILD = `
const [how] = process.argv.slice(-1);
const { createRequire } = await import('node:module');
const req = createRequire(process.cwd() + '/package.json');
const load = (s) => (how === 'require' ? req(s) : import(s));
const J = await load('wirepack/json-pack');
const W = await load('wirepack');
let err;
try { new J.MsgPackDecoder().decode(new Uint8Array([0x92, 0xc1])); } catch (e) { err = e; }
const bytes = new J.MsgPackEncoder().encode({ a: [1, 2 ** 40, 'x'], u: undefined });
console.log(JSON.stringify({
  hex: Buffer.from(bytes).toString('hex'),
  plain: Object.getPrototypeOf(bytes) === Uint8Array.prototype,
  back: new J.MsgPackDecoderFast().decode(bytes).a[1],
  cbor: Buffer.from(new J.CborEncoder().encode(new J.JsonPackExtension(6, 'x'))).toString('hex'),
  shared: err instanceof W.DecodeError && err.incomplete === true,
  names: Object.keys(J).sort().join(','),
}));
`;

describe('wirepack/json-pack', () => {
  for (const how of ['import', 'require']) {
    test(`${how}: json-pack's codec classes on wirepack's runtime`, () => {
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', JP_CHILD, how], { cwd: REPO, encoding: 'utf8' });
      const r = JSON.parse(out.trim().split('\n').at(-1));
      expect(r).toMatchObject({ plain: true, back: 2 ** 40, shared: true, cbor: 'c66178' });
      expect(r.hex).toBe('82a1619301cb4270000000000000a178a175c1');
      for (const k of ['MsgPackEncoderFast', 'MsgPackEncoder', 'MsgPackEncoderStable', 'MsgPackDecoderFast', 'MsgPackDecoder', 'MessagePackEncoder', 'MessagePackDecoder',
        'CborEncoderFast', 'CborEncoder', 'CborEncoderStable', 'CborDecoderBase', 'CborDecoder', 'JsonPackExtension', 'JsonPackValue']) {
        expect(r.names.split(','), k).toContain(k);
      }
    });
  }
});
