// endel/msgpack-benchmark: its four inputs, its implementations that are still maintained
// (msgpackr added, as msgpackr's README reports it), JSON as it writes it (strings), encode and
// decode, the fastest named per input.
import { wirepack, wirepackLib, msgpackr, msgpackMsgpack, msgpackLite, msgpack5, notepack, jsonString, jsonPack, wirepackJsonPack } from '../lib/contenders.js';

export default {
  name: 'msgpack-benchmark',
  title: "endel/msgpack-benchmark's four inputs (sample-datatypes, -small, -medium, -large)",
  method:
    "msgpack-benchmark's inputs and validation (each implementation decodes its own encoding; here the result must " +
    'deep-equal the input), timed with this harness\'s alternating rounds instead of benchmark.js. JSON is ' +
    '`JSON.stringify(data)` / `JSON.parse(string)` as in its benchmark.js.',
  inputs: ['sample-datatypes.json', 'sample-small.json', 'sample-medium.json', 'sample-large.json'],
  contenders: [wirepack, msgpackr, msgpackMsgpack, msgpackLite, msgpack5, notepack, jsonPack, jsonString, wirepackLib, wirepackJsonPack],
  views: [
    {
      subject: 'wirepack',
      layout: 'implementations',
      ids: ['wirepack', 'msgpackr', '@msgpack/msgpack', 'msgpack-lite', 'msgpack5', 'notepack.io', 'json-pack', 'JSON'],
      summaryPeers: ['msgpackr', '@msgpack/msgpack', 'msgpack-lite', 'msgpack5', 'notepack.io', 'json-pack', 'JSON'],
      summaryReferences: [],
    },
    {
      // a user of @msgpack/msgpack who changes the import to wirepack/msgpack: the same bytes
      title: "@msgpack/msgpack's API: wirepack/msgpack (its options, its wire format) against @msgpack/msgpack",
      subject: 'wirepack/msgpack',
      ids: ['wirepack/msgpack', '@msgpack/msgpack'],
      peers: ['@msgpack/msgpack'],
    },
    {
      // a user of json-pack who changes the import to wirepack/json-pack: its classes, its values
      title: "json-pack's classes: wirepack/json-pack (MsgPackEncoderFast, MsgPackDecoderFast) against json-pack",
      subject: 'wirepack/json-pack',
      ids: ['wirepack/json-pack', 'json-pack'],
      peers: ['json-pack'],
    },
  ],
};
