// Module worker: new Worker(url, { type: 'module' })
import * as msgpack from '/node_modules/wirepack/js/src/index.browser.js';
import * as cbor from '/node_modules/wirepack/js/src/cbor.browser.js';
import * as transcode from '/node_modules/wirepack/js/src/transcode.browser.js';
import { roundTrip } from '/check.mjs';

self.onmessage = ({ data }) => {
  const value = msgpack.unpack(data); // a Uint8Array from the page
  const out = cbor.encode(value);
  self.postMessage({ result: roundTrip(msgpack, cbor, transcode), cbor: out }, [out.buffer]);
};
self.postMessage('ready');
