// Hostile headers: how long a decode of a declared-but-absent huge length takes to fail, and how
// much memory it allocates (issue 6). Run: node --expose-gc bench/hostile.js
// Each input is decoded N times; the table gives the median time per failing call and the growth
// of arrayBuffers / heap / RSS over all of them (the result is always a DecodeError).
import { unpack, DecodeError } from '../js/src/index.node.js';
import { decode } from '../js/src/cbor.node.js';

const hex = (h) => Uint8Array.from(h.replace(/\s+/g, '').match(/../g), (x) => parseInt(x, 16));
const cases = [
  ['msgpack array32 dd ffffffff', unpack, 'dd ffffffff'],
  ['msgpack map32 df ffffffff', unpack, 'df ffffffff'],
  ['msgpack str32 db ffffffff', unpack, 'db ffffffff'],
  ['msgpack bin32 c6 ffffffff', unpack, 'c6 ffffffff'],
  ['msgpack ext32 c9 ffffffff 01', unpack, 'c9 ffffffff 01'],
  ['cbor array 9b 2^64-1', decode, '9b ffffffffffffffff'],
  ['cbor bytes 5b 2^32', decode, '5b 0000000100000000'],
  ['cbor text 7b 2^63', decode, '7b 8000000000000000'],
  ['cbor map bb 2^40', decode, 'bb 0000010000000000'],
  ['cbor unterminated 9f', decode, '9f'],
  ['cbor unterminated 5f 41 00', decode, '5f 4100'],
];
const N = 20000;
const gc = globalThis.gc || (() => {});
console.log('| input | median µs per failing call | arrayBuffers growth | heap growth | RSS growth | error |');
console.log('| --- | ---: | ---: | ---: | ---: | --- |');
for (const [name, fn, h] of cases) {
  const bytes = hex(h);
  let code = '';
  for (let i = 0; i < 1000; i++) try { fn(bytes); } catch (e) { code = e instanceof DecodeError ? e.code : 'NOT A DecodeError'; }
  gc();
  const m0 = process.memoryUsage();
  const times = [];
  for (let r = 0; r < 20; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < N / 20; i++) try { fn(bytes); } catch { /* expected */ }
    times.push(Number(process.hrtime.bigint() - t0) / (N / 20) / 1000);
  }
  const m1 = process.memoryUsage();
  times.sort((a, b) => a - b);
  const kb = (x) => `${Math.round(x / 1024)} KiB`;
  console.log(`| ${name} | ${times[10].toFixed(2)} | ${kb(m1.arrayBuffers - m0.arrayBuffers)} | ${kb(m1.heapUsed - m0.heapUsed)} | ${kb(m1.rss - m0.rss)} | ${code} |`);
}
