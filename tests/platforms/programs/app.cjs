// Node CommonJS: `node app.cjs` (require() loads dist/index.cjs, dist/cbor.cjs, dist/transcode.cjs)
const msgpack = require('wirepack');
const cbor = require('wirepack/cbor');
const transcode = require('wirepack/transcode');
const { pack, unpack } = require('wirepack');
const { encode, decode } = require('wirepack/cbor');

const bytes = pack({ id: 7n, when: new Date(0), tags: ['a', 'b'], raw: new Uint8Array([1, 2]) });
const again = decode(encode(unpack(bytes)));
if (again.id !== 7n || again.when.getTime() !== 0 || again.raw[1] !== 2) throw new Error('snippet failed');

// the shared checks are an ES module; wirepack itself came through require() above
import('./check.mjs').then(({ roundTrip }) => {
  const result = roundTrip(msgpack, cbor, transcode);
  // one DecodeError class: the three entries share one runtime (dist/wirepack.cjs)
  result.sharedDecodeError = msgpack.DecodeError === cbor.DecodeError && cbor.DecodeError === transcode.DecodeError;
  console.log('WIREPACK_RESULT ' + JSON.stringify({ platform: `node ${process.version} (CJS)`, ...result }));
});
