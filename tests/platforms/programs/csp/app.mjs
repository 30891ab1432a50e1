// A plain ES module page, no bundler, served with `script-src 'self' 'wasm-unsafe-eval'`
// (no 'unsafe-eval'): wasm compiles, `new Function` is refused, and wirepack decodes objects
// on its eval-free path after one refused probe.
// ?noeval=1: the -no-eval entries (wirepack/index-no-eval, wirepack/cbor/index-no-eval), whose
// default decoders never try code generation either: no report at all
const noEval = new URL(location.href).searchParams.get('noeval') === '1';
const src = '/node_modules/wirepack/js/src/';
const msgpack = await import(src + (noEval ? 'index-no-eval.browser.js' : 'index.browser.js'));
const cbor = await import(src + (noEval ? 'cbor-no-eval.browser.js' : 'cbor.browser.js'));
import * as transcode from '/node_modules/wirepack/js/src/transcode.browser.js';
import { roundTrip } from '/check.mjs';

const w = /** @type {any} */ (window);
// ?codegen=0: decoders made with { codegen: false } never try code generation: no report at all
const noCodegen = new URL(location.href).searchParams.get('codegen') === '0';
const unpackr = new msgpack.Unpackr({ codegen: !noCodegen, mapsAsObjects: true });
const decoder = new cbor.Decoder({ codegen: !noCodegen, mapsAsObjects: true });
const mp = noCodegen ? { ...msgpack, unpack: (b) => unpackr.unpack(b) } : msgpack;
const cb = noCodegen ? { ...cbor, decode: (b) => decoder.decode(b) } : cbor;
const result = roundTrip(mp, cb, transcode);
// many object shapes, each decoded often enough to ask for a generated constructor
for (let s = 0; s < 50; s++) {
  const rows = Array.from({ length: 8 }, (_, i) => ({ ['k' + s]: i, ['v' + s]: 'x' + i, n: s }));
  for (let r = 0; r < 3; r++) {
    if (mp.unpack(msgpack.pack(rows))[7]['v' + s] !== 'x7') result.problems.push(`shape ${s}: msgpack`);
    if (cb.decode(cbor.encode(rows))[7]['v' + s] !== 'x7') result.problems.push(`shape ${s}: cbor`);
  }
}
// violation events are queued: let them arrive, then count
await new Promise((r) => setTimeout(r, 300));
const byWirepack = w.__violations.slice();
// the spy must see a violation when there is one: one deliberate eval
try { new Function('return 1'); } catch {}
await new Promise((r) => setTimeout(r, 300));
result.ok = result.problems.length === 0;
w.__wirepackResult = { platform: 'plain ESM page, strict CSP', noCodegen, noEval, ...result, violations: byWirepack, spyWorks: w.__violations.length === byWirepack.length + 1 };
