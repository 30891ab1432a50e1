// CBOR: wirepack/cbor's plain encode/decode against cbor-x (native decode addon as installed) and
// JSON, with cbor-x's record extension as a reference row, on example4.json and msgpack-benchmark's inputs plus
// cbor-x's Twitter document.
import { wirepackCbor, cborX, cborXRecords, json, jsonPackCbor, wirepackJsonPackCbor } from '../lib/contenders.js';

export default {
  name: 'cbor',
  title: 'CBOR encode / decode',
  subject: 'wirepack/cbor',
  inputs: [
    'example4.json',
    'sample-datatypes.json',
    'sample-small.json',
    'sample-medium.json',
    'sample-large.json',
    'example-twitter.json',
  ],
  quickInputs: ['example4.json', 'example-twitter.json'], // --quick: a smoke test, two inputs are enough
  contenders: [wirepackCbor, cborX, cborXRecords, jsonPackCbor, json, wirepackJsonPackCbor],
  views: [
    {
      subject: 'wirepack/cbor',
      ids: ['wirepack/cbor', 'cbor-x', 'cbor-x-records', 'json-pack/cbor', 'JSON'],
      summaryPeers: ['cbor-x', 'json-pack/cbor', 'JSON'],
      summaryReferences: ['cbor-x-records'],
    },
    {
      // a user of json-pack who changes the import to wirepack/json-pack: its classes, its values
      title: "json-pack's classes: wirepack/json-pack (CborEncoderFast, CborDecoderBase) against json-pack",
      subject: 'wirepack/json-pack/cbor',
      ids: ['wirepack/json-pack/cbor', 'json-pack/cbor'],
      peers: ['json-pack/cbor'],
    },
  ],
};
