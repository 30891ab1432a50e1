// MessagePack: wirepack's plain pack/unpack against msgpackr, @msgpack/msgpack and JSON on
// msgpackr's benchmark document and the four msgpack-benchmark inputs.
import { wirepack, msgpackr, msgpackrRecords, msgpackMsgpack, json } from '../lib/contenders.js';

export default {
  name: 'msgpack',
  title: 'MessagePack encode / decode',
  subject: 'wirepack',
  inputs: [
    'example4.json',
    'sample-datatypes.json',
    'sample-small.json',
    'sample-medium.json',
    'sample-large.json',
  ],
  contenders: [wirepack, msgpackr, msgpackrRecords, msgpackMsgpack, json],
  summaryPeers: ['msgpackr', '@msgpack/msgpack', 'JSON'],
  summaryReferences: ['msgpackr-records'],
};
