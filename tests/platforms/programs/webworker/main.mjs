// The page packs a value, posts the bytes to a module worker that runs wirepack too; the worker
// answers with its own checks and the value re-encoded as CBOR.
import { pack } from '/node_modules/wirepack/js/src/index.browser.js';
import { decode } from '/node_modules/wirepack/js/src/cbor.browser.js';
import { makeValue, asUnpacked, diff } from '/check.mjs';

const w = /** @type {any} */ (window);
const worker = new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module' });
worker.onerror = (e) => { w.__wirepackResult = { platform: 'web worker', ok: false, problems: ['worker error: ' + e.message] }; };
const bytes = pack(makeValue());
worker.onmessage = ({ data }) => {
  // wirepack's import finishes with a top-level await (the wasm compile): a message posted
  // before the worker's module graph has settled can be dropped, so the worker says when
  if (data === 'ready') {
    worker.postMessage(bytes, [bytes.buffer]);
    return;
  }
  // (the worker unpacked the MessagePack bytes: the Map came back an object)
  const echoed = diff(asUnpacked(makeValue()), decode(data.cbor));
  if (echoed) data.result.problems.push('worker echo: ' + echoed);
  data.result.ok = data.result.problems.length === 0;
  w.__wirepackResult = { platform: 'web worker', ...data.result };
};
