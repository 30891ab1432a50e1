// msgpackr's and cbor-x's tests/benchmark.cjs, on their document (example4.json): every variant
// they time, plus the other libraries they compare with. Their method (a 5 s loop per row, one row
// after the other) is replaced by this harness's (all rows in one process, alternating rounds,
// medians), so the rows can be compared with each other; the rows, labels and columns are theirs.
// One set of measurements, printed as two tables: msgpackr's (subject: wirepack) and cbor-x's
// (subject: wirepack/cbor).
import {
  wirepack, wirepackCbor, msgpackr, msgpackrRecords, msgpackrRandomAccess, msgpackrBundled,
  cborX, cborXRecords, cborXPacked, json, msgpackLite, msgpackMsgpack, msgpack5, notepack, nodeCbor, jsonPack, jsonPackCbor,
  wirepackRecords, wirepackBundled, wirepackCborRecords, wirepackCborPacked,
} from '../lib/contenders.js';

const others = ['JSON', 'msgpack-lite', '@msgpack/msgpack', 'msgpack5', 'notepack.io', 'cbor', 'json-pack', 'json-pack/cbor'];

export default {
  name: 'peers-benchmark',
  title: "msgpackr's and cbor-x's tests/benchmark.cjs on example4.json",
  method:
    'Rows, labels and order as in msgpackr\'s and cbor-x\'s `tests/benchmark.cjs` (JSON is `Buffer.from(JSON.stringify(obj))` ' +
    'and `JSON.parse(buf)`, as they write it; notepack.io stands in for notepack), with wirepack first. The peers\' other modes ' +
    '(records, bundled strings, packed CBOR) are reference rows in the plain tables (not in "best peer") and peers in a table ' +
    'of their own, against wirepack in the same mode; random-access structures have no wirepack equivalent (a reference row). ' +
    'Each record/structure variant decodes with the same instance that encoded (it holds the structures), as in those files.',
  inputs: ['example4.json'],
  contenders: [
    wirepack, wirepackCbor, wirepackRecords, wirepackBundled, wirepackCborRecords, wirepackCborPacked,
    msgpackrRecords, msgpackrRandomAccess, msgpackr, msgpackrBundled,
    cborXRecords, cborXPacked, cborX,
    json, msgpackLite, msgpackMsgpack, msgpack5, notepack, nodeCbor, jsonPack, jsonPackCbor,
  ],
  views: [
    {
      title: "msgpackr's tests/benchmark.cjs (MessagePack; subject wirepack)",
      subject: 'wirepack',
      ids: ['wirepack', 'msgpackr-records', 'msgpackr-random-access', 'msgpackr', 'msgpackr-bundled-strings', ...others],
    },
    {
      title: "cbor-x's tests/benchmark.cjs (CBOR; subject wirepack/cbor)",
      subject: 'wirepack/cbor',
      ids: ['wirepack/cbor', 'cbor-x-records', 'cbor-x-packed', 'cbor-x', ...others],
    },
    { title: 'records mode (new Packr({ structures: [] }))', subject: 'wirepack-records', ids: ['wirepack-records', 'msgpackr-records'], peers: ['msgpackr-records'] },
    { title: 'bundled strings (new Packr({ bundleStrings: true, structures: [] }))', subject: 'wirepack-bundled-strings', ids: ['wirepack-bundled-strings', 'msgpackr-bundled-strings'], peers: ['msgpackr-bundled-strings'] },
    { title: 'CBOR records (new Encoder({ useRecords: true }))', subject: 'wirepack/cbor-records', ids: ['wirepack/cbor-records', 'cbor-x-records'], peers: ['cbor-x-records'] },
    { title: 'packed CBOR (new Encoder({ useRecords: false, pack: true }))', subject: 'wirepack/cbor-packed', ids: ['wirepack/cbor-packed', 'cbor-x-packed'], peers: ['cbor-x-packed'] },
  ],
};
