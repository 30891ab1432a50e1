#!/usr/bin/env node
/**
 * Regenerates the committed seed corpora of the libFuzzer targets (tests/fuzz/corpus/<target>/):
 *   node tests/fuzz/make-corpus.mjs
 *
 * Sources: tests/vectors/*.json and bench/fixtures/*.json (packed with msgpackr and cbor-x, whole
 * and as their first-level parts), the RFC 8949 Appendix A vectors (tests/vectors/cbor), the
 * msgpack-test-suite encodings (npm package msgpack-test-suite), a few extra values for types
 * JSON lacks (dates, binary, BigInt, undefined, Maps, floats), and hand-written hostile inputs
 * (huge declared lengths, deep nesting, indefinite items, reserved bytes, bad timestamps).
 *
 * Every file starts with the configuration byte of its target (see fuzz_decode_main.h,
 * fuzz_roundtrip.c and fuzz_transcode.c, whose seeds are also the JSON texts and a few hostile
 * ones), and the MessagePack decode target's also with a feature byte (records,
 * extension config, bundles, ends); configurations are spread over the seeds. Messages written by
 * msgpackr with records, bundled strings, moreTypes and structuredClone come from
 * msgpackr-ext-seeds.mjs. Files are named
 * <source>-<name>-<config>; identical contents are written once. The directories are emptied
 * first, so the output depends only on the sources.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { Packr, FLOAT32_OPTIONS } = require('msgpackr');
const { Encoder } = require('cbor-x');
const { msgpackrExtSeeds } = await import('./msgpackr-ext-seeds.mjs');

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = join(ROOT, 'tests', 'fuzz', 'corpus');
const TARGETS = ['fuzz_msgpack_decode', 'fuzz_cbor_decode', 'fuzz_roundtrip', 'fuzz_cbor_encode_det', 'fuzz_transcode'];

// Decode targets: bit 0 objects, 1 multiple, 2 no-intern, 3 tag-f32, 4-6 depth, 7 limits.
const DEC_CFG = [0x01, 0x00, 0x09, 0x05, 0x61, 0x81, 0x0d, 0x71, 0x81, 0x41, 0xe1];
// Round trip: bit 0 CBOR, 1 objects, 2 no-intern, 3 tag-f32, 4 multiple, 5 float64, 6 indefinite.
const RT_MP_CFG = [0x02, 0x00, 0x0a, 0x06];
// MessagePack decode target, feature byte: bit 0 records, 1 shared structures, 2 msgpackr prefix
// extensions, 3 user extensions, 4 bundles, 5 strict record ids, 6-7 ends array.
const MP_FEAT = [0x00, 0x15, 0xd5, 0x17, 0x55, 0x9d, 0x35, 0x04, 0x01, 0x10];
// the same with every msgpackr semantic on (seeds written with records, bundles, moreTypes...)
const MP_EXT_FEAT = [0x15, 0xd5, 0x55, 0x17, 0x9d, 0xf5];
const RT_CB_CFG = [0x03, 0x01, 0x0b, 0x43, 0x23, 0x07];
// Transcode target (fuzz_transcode.c): bits 0-1 from, 2-3 to (0 MessagePack, 1 CBOR, 2-3 JSON),
// 4 multiple, 5 first/lines, 6 flush sink, 7 a second byte (0-2 indent, 3 diagnostic notation,
// 4 wire order, 5-7 max depth). The MessagePack configurations; CBOR's are these | 1.
const TC_BIN_CFG = [[0x08], [0x04], [0x88, 0x02], [0x88, 0x08], [0x48], [0x88, 0x10], [0x00], [0xc8, 0x0a]];
const TC_JSON_CFG = [[0x03], [0x07], [0x83, 0xa0], [0x23]];

const seen = new Map(TARGETS.map((t) => [t, new Set()]));
const counters = new Map();
let files = 0, bytes = 0;

function pick(list, key) {
  const i = counters.get(key) ?? 0;
  counters.set(key, i + 1);
  return list[i % list.length];
}

const LIMIT_BYTES = [0x7f, 0xe1, 0x24, 0xff, 0x4c];
function write(target, name, cfg, body, feat = undefined) {
  // the MessagePack decode target: a feature byte follows the configuration byte; the transcode
  // target's configuration may be two bytes
  const cfgBytes = Array.isArray(cfg) ? cfg : [cfg];
  cfg = cfgBytes[0];
  const head = target === 'fuzz_msgpack_decode' ? [cfg, feat ?? pick(MP_FEAT, 'feat')] : [...cfgBytes];
  // decode targets: bit 7 of the configuration means that a byte of policy limits follows
  if (target.endsWith('_decode') && cfg & 0x80) head.push(pick(LIMIT_BYTES, 'lim'));
  const data = Buffer.concat([Buffer.from(head), Buffer.from(body)]);
  const h = createHash('sha1').update(data).digest('hex');
  if (seen.get(target).has(h)) return;
  seen.get(target).add(h);
  const safe = name.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 60);
  const suffix = cfgBytes.map((b) => b.toString(16).padStart(2, '0')).join('') + (target === 'fuzz_msgpack_decode' ? head[1].toString(16).padStart(2, '0') : '');
  writeFileSync(join(OUT, target, `${safe}-${suffix}`), data);
  files++;
  bytes += data.length;
}

/** The transcode target's configuration for one seed (multiple: bit 4, and lines with JSON out). */
function tcCfg(list, key, from, multiple) {
  const [c0, ...rest] = pick(list, key);
  const to = (c0 >> 2) & 3;
  return [c0 | from | (multiple ? 0x10 | (to >= 2 ? 0x20 : 0) : 0), ...rest];
}
/** A MessagePack seed: the decoder target, the round trip and the transcoder. */
function mp(name, body, { multiple = false, rt = true } = {}) {
  write('fuzz_msgpack_decode', `mp-${name}`, pick(DEC_CFG, 'mp') | (multiple ? 2 : 0), body);
  if (rt) write('fuzz_roundtrip', `mp-${name}`, pick(RT_MP_CFG, 'rtmp') | (multiple ? 0x10 : 0), body);
  write('fuzz_transcode', `mp-${name}`, tcCfg(TC_BIN_CFG, 'tcmp', 0, multiple), body);
}
/** A CBOR seed. */
function cb(name, body, { multiple = false, rt = true } = {}) {
  write('fuzz_cbor_decode', `cb-${name}`, pick(DEC_CFG, 'cb') | (multiple ? 2 : 0), body);
  if (rt) write('fuzz_roundtrip', `cb-${name}`, pick(RT_CB_CFG, 'rtcb') | (multiple ? 0x10 : 0), body);
  write('fuzz_transcode', `cb-${name}`, tcCfg(TC_BIN_CFG, 'tccb', 1, multiple), body);
}
/** A JSON text seed (the transcode target only). */
function js(name, text, { multiple = false } = {}) {
  write('fuzz_transcode', `json-${name}`, tcCfg(TC_JSON_CFG, 'tcjs', 0, multiple), Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'));
}
const hex = (s) => Buffer.from(s.replace(/[^0-9a-f]/gi, ''), 'hex');

for (const t of TARGETS) {
  rmSync(join(OUT, t), { recursive: true, force: true });
  mkdirSync(join(OUT, t), { recursive: true });
}

const packr = new Packr({ useRecords: false });
const packr32 = new Packr({ useRecords: false, useFloat32: FLOAT32_OPTIONS.ALWAYS });
const cborx = new Encoder({ useRecords: false });
const cborxMaps = new Encoder({ useRecords: false, mapsAsObjects: false, variableMapSize: true });

// ------------------------------------------------------------------ JSON vectors and fixtures
const jsonFiles = [
  ...readdirSync(join(ROOT, 'tests', 'vectors')).filter((f) => f.endsWith('.json')).map((f) => join(ROOT, 'tests', 'vectors', f)),
  ...readdirSync(join(ROOT, 'bench', 'fixtures')).filter((f) => f.endsWith('.json')).map((f) => join(ROOT, 'bench', 'fixtures', f)),
];
for (const file of jsonFiles) {
  const name = basename(file, '.json');
  const text = readFileSync(file, 'utf8');
  const doc = JSON.parse(text);
  js(name, text);
  mp(name, packr.pack(doc));
  cb(name, cborx.encode(doc));
  // first-level parts: small seeds that the mutators get through quickly
  const parts = Array.isArray(doc) ? doc : doc && typeof doc === 'object' ? Object.values(doc) : [];
  parts.slice(0, 3).forEach((v, i) => {
    if (v === undefined) return;
    mp(`${name}.${i}`, (i & 1 ? packr32 : packr).pack(v));
    cb(`${name}.${i}`, (i & 1 ? cborxMaps : cborx).encode(v));
  });
}

// ------------------------------------------------------------------ RFC 8949 Appendix A
const appendix = JSON.parse(readFileSync(join(ROOT, 'tests', 'vectors', 'cbor', 'appendix_a.json'), 'utf8'));
appendix.forEach((v, i) => cb(`rfc8949-${String(i).padStart(2, '0')}`, hex(v.hex), { rt: !v.roundtrip || i % 2 === 0 }));
// all of them as one sequence
cb('rfc8949-all', Buffer.concat(appendix.map((v) => hex(v.hex))), { multiple: true });

// ------------------------------------------------------------------ msgpack-test-suite
const suite = JSON.parse(readFileSync(require.resolve('msgpack-test-suite/dist/msgpack-test-suite.json'), 'utf8'));
for (const [group, entries] of Object.entries(suite)) {
  entries.forEach((e, i) => {
    const encs = e.msgpack.map(hex);
    const name = `suite-${group.replace('.yaml', '')}-${i}`;
    mp(name, encs[encs.length - 1], { rt: encs.length === 1 });
    if (encs.length > 1) mp(`${name}-all`, Buffer.concat(encs), { multiple: true });
  });
}

// ------------------------------------------------------------------ values JSON lacks
const extras = {
  dates: [new Date(0), new Date(-1), new Date(1700000000123), new Date(8.64e15), new Date(-8.64e15), new Date(2 ** 33 * 1000 + 5)],
  binary: { a: new Uint8Array([1, 2, 3]), b: new Uint8Array(300).fill(7), c: new Uint8Array(0) },
  bigint: [2n ** 63n - 1n, -(2n ** 63n), 2n ** 64n - 1n, -1n, 0n],
  special: [undefined, null, true, false, NaN, Infinity, -Infinity, -0, 5e-324, 1e308, 0.1, 65504, 65505, 2 ** -24, 1 / 3],
  ints: [0, 23, 24, 255, 256, 65535, 65536, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 53, -1, -24, -25, -128, -129, -32768, -32769, -(2 ** 31), -(2 ** 31) - 1, -(2 ** 32), -(2 ** 32) - 1],
  numbers: [1, 2.5, -3, 0.15625, 3.4028234663852886e38, 1e-7, 100000],
  strings: ['', 'a', 'é', '€', '😀', 'x'.repeat(31), 'y'.repeat(32), 'z'.repeat(300), 'ünïcödé '.repeat(20), '\ud800', 'a\udc00b'],
  keys: { ['k'.repeat(64)]: 1, ['k'.repeat(65)]: 2, 'é': 3, '': 4, __proto__x: 5, constructor: 6, ['😀']: 7 },
  protoKey: JSON.parse('{"__proto__": {"polluted": 1}, "a": [{"__proto__": 2}]}'),
  sameShape: [{ a: 1, b: 2 }, { a: 3, b: 4 }, { b: 5, a: 6 }, { a: 7, b: 8, c: 9 }, {}],
  maps: new Map([[1, 'one'], ['two', 2], [true, false], [null, 0], [2.5, [1]]]),
  deep: JSON.parse('['.repeat(40) + '1' + ']'.repeat(40)),
  deepObj: JSON.parse('{"a":'.repeat(30) + '{}' + '}'.repeat(30)),
  mixed: [1, 'a', [2.5, 3], { x: null }, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [1.5, -2, 3e10, 4]],
  manyKeys: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, i & 7])), // above the 256 keys of a shape
};
for (const [name, v] of Object.entries(extras)) {
  mp(`extra-${name}`, packr.pack(v));
  mp(`extra-${name}-f32`, packr32.pack(v), { rt: false });
  cb(`extra-${name}`, cborx.encode(v));
  cb(`extra-${name}-maps`, cborxMaps.encode(v), { rt: false });
}
mp('extra-values-seq', Buffer.concat(Object.values(extras).map((v) => packr.pack(v))), { multiple: true });
cb('extra-values-seq', Buffer.concat(Object.values(extras).map((v) => cborx.encode(v))), { multiple: true });

// ------------------------------------------------------------------ hostile and edge inputs
const mpHex = {
  'arr32-huge': 'ddffffffff', 'str32-huge': 'dbffffffff', 'bin32-huge': 'c6ffffffff', 'map32-huge': 'dfffffffff',
  'ext32-huge': 'c9ffffffff01', 'map16-odd': 'de0002a16101', 'reserved-c1': 'c1', 'reserved-in-array': '9201c1',
  'deep-200': '91'.repeat(200) + '00', 'deep-maps': '81a100'.repeat(60) + 'c0',
  'ts32': 'd6ff00000000', 'ts64': 'd7ff0000000400000001', 'ts96': 'c70cff000000010000000000000001',
  'ts-bad-nsec': 'd7ffffffffff00000000', 'ts-bad-size': 'c703ff000000', 'ts-invalid-date': 'd4ffff',
  'ts96-huge': 'c70cff000000007fffffffffffffff', 'undefined': 'd40000', 'fixext16': 'd8' + '05' + '00'.repeat(16),
  'dup-keys': '82a16101a16102', 'int-key': '820102a16103', 'bin-key': '81c4016101',
  'bad-utf8': 'a3ff61ed', 'surrogate-utf8': 'a3eda080', 'overlong': 'a2c0af', 'long-key': 'd941' + '6b'.repeat(65) + 'c0',
  'numrun': '95010203cb3ff0000000000000ca3f800000', 'numrun-cut': '9301', 'numrun-u64': '9201cf0000000000000001',
  'f32': 'ca7fc00000', 'f64-nan': 'cb7ff8000000000001', 'int64-min': 'd38000000000000000', 'uint64-max': 'cfffffffffffffffff',
  'empty-containers': '9480900090', 'trailing': 'c0c0', 'truncated-str': 'a5616263',
};
for (const [name, h] of Object.entries(mpHex)) mp(`edge-${name}`, hex(h));
mp('edge-seq', hex('c001a161d6ff0000000181a16101'), { multiple: true });

// ------------------------------------------------------------------ msgpackr's extensions
// Written by msgpackr (records, two-byte ids, bundles, moreTypes, structuredClone), each with two
// feature bytes that turn the semantics on, and one hand-written edge per decoder path.
for (const s of msgpackrExtSeeds()) {
  for (let k = 0; k < 2; k++) {
    write('fuzz_msgpack_decode', `mpx-${s.name}`, pick(DEC_CFG, 'mpx') & ~0x80 | (s.multiple ? 2 : 0), s.bytes, pick(MP_EXT_FEAT, 'mpxf'));
  }
}
const mpExtHex = {
  'rec-def-use': '92d4724092a161a16201a1784002a179', 'rec-def-no-keys': '92d472419041', 'rec-def-bad-keys': 'd4724001',
  'rec-def-d5-hb0': '92d572620092a161a162010262000304', 'rec-two-byte-undefined': '924205c0', 'rec-def-d5-neg': '92d572430192a161a16201024301c0',
  'rec-def-redefine': '93d4724091a161c0d4724092a161a1620102c3', 'rec-def-cut': 'd47240', 'rec-def-keys-cut': 'd4724092a161',
  'rec-key-position': '81d4724091a16101c3', 'rec-def-numkeys': 'd472409201020304',
  'rec-keys-id-ptr': '92d47240d6690000000191a16101d47241d6700000000102', 'rec-keys-ptr-none': 'd47240d6700000000101',
  'bundle-min': 'd66200000006c101a0a161', 'bundle-neg': 'd66200000006c1ffa161a0', 'bundle-past': 'd66200000006c102a0a161',
  'bundle-no-strings': 'd66200000006c0', 'bundle-offset-inside': 'd66200000002c0a0a0', 'bundle-key': '81d66200000007c101c3a0a161',
  'bundle-c1-no-bundle': '92c101c0', 'bundle-cut-ref': 'd66200000006c1',   'prefix-set': 'd4730091c0', 'prefix-set-bad': 'd47300c0', 'prefix-error': 'd4650093a14561a1c0', 'prefix-regexp': 'd4780092a161a167',
  'prefix-clone-cycle': 'd66900000001' + '91d67000000001', 'prefix-clone-bad-ptr': 'd67000000009', 'prefix-chain': 'd66900000001'.repeat(40) + 'c0',
  'prefix-key': '81d4730090c3', 'prefix-user': 'd4100092d40101c0', 'ext0-any-size': '93c70000d50000d8' + '00'.repeat(17),
  'ts-raw': 'd6ff00000001', 'bigint-ext': 'c709420102030405060708ff', 'typed-ext': 'c7037401ff00',
};
for (const [name, h] of Object.entries(mpExtHex)) {
  write('fuzz_msgpack_decode', `mpx-edge-${name}`, pick(DEC_CFG, 'mpx') & ~0x80, hex(h), pick(MP_EXT_FEAT, 'mpxf') | (name.startsWith('prefix-user') || name.startsWith('ts-raw') ? 0x08 : 0));
}
mp('edge-seq-bad-tail', hex('81a1610181a162c1'), { multiple: true });

const cbHex = {
  'arr64-huge': '9bffffffffffffffff', 'bytes64-huge': '5b0000000100000000', 'text64-huge': '7b8000000000000000',
  'map64-huge': 'bb0000000100000000', 'arr32-huge': '9affffffff', 'map32-huge': 'baffffffff',
  'indef-array-open': '9f', 'indef-bytes-open': '5f', 'indef-text-open': '7f', 'indef-map-open': 'bf',
  'indef-array': '9f0102ff', 'indef-bytes': '5f4100420102ff', 'indef-text': '7f6161626263c3a9ff',
  'indef-map': 'bf616101616202ff', 'indef-map-lone-key': 'bf6161ff', 'indef-nested': 'bf61619f9fffff6162bfffff',
  'indef-bad-chunk': '5f6161ff', 'indef-chunk-indef': '5f5fffff', 'break-top': 'ff', 'break-in-def': '81ff',
  'simple-low': 'f800', 'simple-32': 'f820', 'simple-255': 'f8ff', 'reserved-ai': '1c', 'reserved-ai-fd': 'fd',
  'neg-huge': '3bffffffffffffffff', 'neg-i64': '3b7fffffffffffffff', 'neg-32': '3affffffff', 'u64-small': '1b0000000000000001',
  'tag-huge': 'dbffffffffffffffff00', 'tag-nested': 'c1c2c3c4c500', 'self-describe': 'd9d9f7a16161f6',
  'deep-200': '81'.repeat(200) + '00', 'deep-tags': 'c6'.repeat(100) + '00',
  'half-subnormal': 'f90001', 'half-nan': 'f97e01', 'f32-nan': 'fa7fc00001', 'f64': 'fb3ff199999999999a',
  'numrun': '8501f93c00fa3f800000fb3ff0000000000000381f', 'float-keys': 'a2f93c0001fa3f80000102',
  'bool-keys': 'a3f401f502f603', 'bytes-key': 'a1410001', 'array-key': 'a1810102', 'tag-key': 'a1c1000102',
  'dup-keys': 'a2616101616102', 'bad-utf8': '63ff61ed', 'surrogate-utf8': '63eda080', 'long-key': 'a178' + '41' + '6b'.repeat(65) + 'f6',
  'empty-containers': '848080a0a0', 'trailing': 'f6f6', 'undefined': 'f7',
};
for (const [name, h] of Object.entries(cbHex)) cb(`edge-${name}`, hex(h));
cb('edge-seq', hex('f601a1616101c11a000000019fff'), { multiple: true });
cb('edge-seq-bad-tail', hex('a1616101a16162ff'), { multiple: true });

// ------------------------------------------------------------------ encoder target
// Structured mode (bit 7 clear): any bytes drive the value generator; bits 0-1 plain CBOR flags,
// 2 objects, 3 tag-f32, 4 MessagePack tree. Seeds: encodings of the vectors, as generator bytes.
const genSeeds = [...Object.values(extras).map((v) => cborx.encode(v)), ...appendix.slice(40, 60).map((v) => hex(v.hex))];
genSeeds.forEach((b, i) => write('fuzz_cbor_encode_det', `gen-${i}`, [0x00, 0x01, 0x06, 0x0b, 0x10, 0x14, 0x1c, 0x02][i % 8], b));
// Raw mode (bit 7 set): the bytes are tape words. A few well-formed encode tapes and broken ones.
const W = (tag, p = 0) => (tag | (p << 8)) >>> 0;
const tape = (...words) => Buffer.from(new Uint32Array(words).buffer);
const E = { NIL: 0, FALSE: 1, TRUE: 2, UNDEF: 3, INT: 4, UINT: 5, F64: 6, F32: 7, I64: 8, U64: 9, STR: 10, BIN: 11, ARR: 12, MAP: 13, EXT: 14, DATE: 15, BADDATE: 16, RAW: 17, TAG: 18, SIMPLE: 19, N64: 20, PAD: 21 };
const rawTapes = {
  'arr-mixed': tape(W(E.ARR, 4), W(E.INT), 0xffffff85, W(E.STR, 3), 0x00636261, W(E.TRUE), W(E.F64), 0, 0x3ff80000),
  'map-det': tape(W(E.MAP, 3), W(E.STR, 1), 0x62, W(E.NIL), W(E.STR, 1), 0x61, W(E.UINT), 70000, W(E.INT), 0xffffffff, W(E.FALSE)),
  'nested-maps': tape(W(E.MAP, 2), W(E.ARR, 1), W(E.UINT), 3, W(E.MAP, 1), W(E.STR, 2), 0x7a7a, W(E.F32), 0x3f000000, W(E.STR, 0), W(E.PAD), W(E.BIN, 2), 0xbeef),
  'tags-simple': tape(W(E.TAG, 1), W(E.I64), 5, 0, W(E.TAG, 0xffffff), 0, 1, W(E.SIMPLE, 99), W(E.N64), 0, 0x80000000, W(E.UNDEF)),
  'ext-date': tape(W(E.ARR, 3), W(E.EXT, 5), 3, 0x00030201, W(E.DATE), 1, 0, 5000000, W(E.BADDATE)),
  'raw-item': tape(W(E.ARR, 2), W(E.RAW, 1), 0xf6, W(E.U64), 1, 2),
  'str-escape': tape(W(E.STR, 0xffffff), 5, 0x6c6c6568, 0x6f),
  'arr-unclosed': tape(W(E.MAP, 5), W(E.STR, 1), 0x61),
  'str-too-long': tape(W(E.STR, 200), 0x41414141),
  'f64-cut': tape(W(E.F64), 0),
  'bad-tag': tape(W(0x77)),
  'date-bad-nsec': tape(W(E.DATE), 0, 0, 1000000000),
  'simple-bad': tape(W(E.SIMPLE, 25)),
};
Object.entries(rawTapes).forEach(([name, b], i) => write('fuzz_cbor_encode_det', `raw-${name}`, 0x80 | (i & 0x7f), b));
// XBIN entries (tag 33: a binary value whose bytes the host fills in) with ext_len from the
// config byte's low bits times 512: within it, and one past it
const XBIN = 33;
write('fuzz_cbor_encode_det', 'raw-xbin', 0x80 | 11, tape(W(E.ARR, 3), W(XBIN), 300, 0, W(E.TRUE), W(XBIN), 5000, 0));
write('fuzz_cbor_encode_det', 'raw-xbin-over', 0x80 | 10, tape(W(E.ARR, 2), W(XBIN), 300, 0, W(XBIN), 5000, 0));

// ------------------------------------------------------------------ cbor-x's extension modes
// records (tag 0xdfff definitions, 0xe000+ references), bundled strings (tag 0xdff9), packed CBOR
// (tag 51), and shared structures over a sequence: the decoder reads them with marker tags, and
// before these seeds the fuzzer took many sessions to reach them. Decode target only (a rebuild
// cannot express the markers). (Last, so that the seeds above keep their names.)
const cbxModes = {
  rec: { useRecords: true },
  bundle: { useRecords: false, bundleStrings: true },
  recbundle: { useRecords: true, bundleStrings: true },
  packed: { useRecords: false, pack: true },
};
const cbxDocs = {
  sameShape: extras.sameShape,
  mixed: extras.mixed,
  keys: extras.keys,
  strings: { a: 'x'.repeat(40), b: ['hello', 'hello', 'wörld', 'wörld', '😀😀'], c: { hello: 'hello', d: 'wörld' } },
  medium: JSON.parse(readFileSync(join(ROOT, 'bench', 'fixtures', 'sample-medium.json'), 'utf8')),
};
for (const [mode, opts] of Object.entries(cbxModes)) {
  for (const [name, doc] of Object.entries(cbxDocs)) cb(`cbx-${mode}-${name}`, new Encoder(opts).encode(doc), { rt: false });
}
{
  const shared = new Encoder({ structures: [] });
  cb('cbx-shared-seq', Buffer.concat([shared.encode(extras.sameShape), shared.encode(extras.sameShape), shared.encode(cbxDocs.medium)]), { multiple: true, rt: false });
}

// ------------------------------------------------------------------ JSON text (transcode target)
const jsonEdge = {
  numbers: '[0,-0,1e400,-1e-400,5e-324,1.7976931348623157e308,9007199254740993,18446744073709551616,-2147483649,4294967296,0.1,1E+2,-12.5e-3]',
  strings: '["\\u0000\\u001f\\\"\\\\\\/\\b\\f\\n\\r\\t","\\ud800","\\udc00\\ud800x","\\ud83d\\ude00","é€😀"]',
  keys: '{"b":1,"2":2,"a":3,"1":4,"b":5,"":6,"__proto__":{"x":1},"4294967295":7,"4294967294":8,"01":9}',
  nested: '{"a":[{"b":[[],{}]},{"c":{"d":[1,[2,[3,[4]]]]}}],"e":null,"f":true,"g":false}',
  whitespace: ' \t\r\n[ 1 , { "a" : [ ] } ] \n',
  ndjson: '{"a":1}\n[2]\n"three"\n4\nnull\n',
  deep: '['.repeat(60) + ']'.repeat(60),
  unclosed: '['.repeat(40),
  'bad-syntax': '{"a":[1,2,}',
  'bad-utf8': Buffer.from('5b22fffe222c2022c3225d', 'hex'), // the bytes of ["\xff\xfe", "\xc3"]
  'bad-literal': '[tru, nul]',
  'bad-number': '[01, 1., -, 1e, .5]',
};
for (const [name, text] of Object.entries(jsonEdge)) js(`edge-${name}`, text, { multiple: name === 'ndjson' });

console.log(`make-corpus: ${files} files, ${bytes} bytes in ${OUT}`);
