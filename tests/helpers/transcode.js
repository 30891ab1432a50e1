// wirepack/transcode's JS module, initialised with the wasm that build.sh inlines (no fetch or
// file access: the browser and emcc projects run the tests too).
import { transcodeWasmBase64 } from '../../js/src/transcode-inline.js';
import * as tc from '../../js/src/transcode.js';

/** @param {string} b64 */
function fromBase64(b64) {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}
if (!tc.isTranscodeInitialized()) await tc.initTranscode(fromBase64(transcodeWasmBase64));

export { tc };
export const { transcode, validate, find, findKey, findIndex, formatNumber } = tc;
