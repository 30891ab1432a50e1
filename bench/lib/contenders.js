// Contender definitions shared by the suites.
//
// A contender is
//   { id, role: 'subject' | 'peer' | 'reference', load: async () => ({ lib, info }), create(lib) }
// where create(lib) is called once per input (fresh encoder/decoder state) and returns
//   { encode(obj) -> bytes, decode(bytes) -> value, encodeLabel, decodeLabel }.
// load() throwing means the contender is skipped for the whole run, with the message as reason.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { REPO_DIR, packageVersion } from './config.js';

const WIREPACK_ENTRY = new URL('../../js/src/index.node.js', import.meta.url);

let wirepackPromise = null;
/** Imports wirepack once; rejects with a readable reason when js/src or the wasm is not there yet. */
export function loadWirepack() {
  if (!wirepackPromise) {
    wirepackPromise = (async () => {
      let lib;
      try {
        lib = await import(WIREPACK_ENTRY.href);
      } catch (err) {
        const msg = err && err.code === 'ERR_MODULE_NOT_FOUND' ? `module not found: ${err.message.split('\n')[0]}` : String(err && err.message ? err.message.split('\n')[0] : err);
        throw new Error(`import('../js/src/index.node.js') failed: ${msg}`);
      }
      for (const name of ['pack', 'unpack']) {
        if (typeof lib[name] !== 'function') throw new Error(`js/src/index.node.js does not export ${name}()`);
      }
      let version = null;
      try {
        version = JSON.parse(fs.readFileSync(path.join(REPO_DIR, 'package.json'), 'utf8')).version;
      } catch {
        /* ignore */
      }
      let wasmBytes = null;
      try {
        wasmBytes = fs.statSync(path.join(REPO_DIR, 'build', 'wirepack.wasm')).size;
      } catch {
        /* ignore */
      }
      const info = `wirepack ${version ?? '?'} (js/src/index.node.js${wasmBytes ? `, build/wirepack.wasm ${wasmBytes} B` : ''})`;
      return { lib, info };
    })();
  }
  return wirepackPromise;
}

/** wirepack's plain free functions: pack/unpack. */
export const wirepack = {
  id: 'wirepack',
  role: 'subject',
  load: loadWirepack,
  create: (lib) => {
    const { pack, unpack } = lib;
    return {
      encode: (obj) => pack(obj),
      decode: (buf) => unpack(buf),
      encodeLabel: 'buf = require("wirepack").pack(obj);',
      decodeLabel: 'obj = require("wirepack").unpack(buf);',
    };
  },
};

async function loadMsgpackr() {
  const lib = await import('msgpackr');
  const native = lib.isNativeAccelerationEnabled === true;
  return { lib, info: `msgpackr ${packageVersion('msgpackr') ?? '?'} (isNativeAccelerationEnabled: ${native})`, native };
}

/** msgpackr's plain pack/unpack (default Packr, no records; native addon used when present). */
export const msgpackr = {
  id: 'msgpackr',
  role: 'peer',
  load: loadMsgpackr,
  create: (lib) => {
    const { pack, unpack } = lib;
    return {
      encode: (obj) => pack(obj),
      decode: (buf) => unpack(buf),
      encodeLabel: 'buf = require("msgpackr").pack(obj);',
      decodeLabel: 'obj = require("msgpackr").unpack(buf);',
    };
  },
};

/**
 * msgpackr with shared record structures (`new Packr({ structures: [] })`): not plain MessagePack,
 * a reference row only. One Packr per input, the decode side uses the same instance (it holds the
 * structures), as msgpackr's own benchmark does.
 */
export const msgpackrRecords = {
  id: 'msgpackr-records',
  role: 'reference',
  load: loadMsgpackr,
  create: (lib) => {
    const packr = new lib.Packr({ structures: [] });
    return {
      encode: (obj) => packr.pack(obj),
      decode: (buf) => packr.unpack(buf),
      encodeLabel: 'msgpackr w/ shared structures: packr.pack(obj);',
      decodeLabel: 'msgpackr w/ shared structures: packr.unpack(buf);',
    };
  },
};

/** @msgpack/msgpack encode/decode with default options. */
export const msgpackMsgpack = {
  id: '@msgpack/msgpack',
  role: 'peer',
  load: async () => {
    const lib = await import('@msgpack/msgpack');
    return { lib, info: `@msgpack/msgpack ${packageVersion('@msgpack/msgpack') ?? '?'}` };
  },
  create: (lib) => {
    const { encode, decode } = lib;
    return {
      encode: (obj) => encode(obj),
      decode: (buf) => decode(buf),
      encodeLabel: 'buf = require("@msgpack/msgpack").encode(obj);',
      decodeLabel: 'obj = require("@msgpack/msgpack").decode(buf);',
    };
  },
};

/** wirepack/msgpack: @msgpack/msgpack's API and wire format on wirepack's codec (js/src/msgpack.node.js). */
export const wirepackLib = {
  id: 'wirepack/msgpack',
  role: 'subject',
  load: async () => {
    const lib = await import(new URL('../../js/src/msgpack.node.js', import.meta.url).href);
    return { lib, info: 'wirepack/msgpack (js/src/msgpack.node.js: the @msgpack/msgpack API, its bytes)' };
  },
  create: (lib) => {
    const { encode, decode } = lib;
    return {
      encode: (obj) => encode(obj),
      decode: (buf) => decode(buf),
      encodeLabel: 'buf = require("wirepack/msgpack").encode(obj);',
      decodeLabel: 'obj = require("wirepack/msgpack").decode(buf);',
    };
  },
};

/** V8's JSON, written as msgpackr's tests/benchmark.cjs writes it (JSON.parse of a Buffer). */
export const json = {
  id: 'JSON',
  role: 'peer',
  load: async () => ({ lib: JSON, info: `JSON (V8 ${process.versions.v8})` }),
  create: () => ({
    encode: (obj) => Buffer.from(JSON.stringify(obj)),
    decode: (buf) => JSON.parse(buf),
    encodeLabel: 'buf = Buffer(JSON.stringify(obj));',
    decodeLabel: 'obj = JSON.parse(buf);',
  }),
};

// ---------------------------------------------------------------------------------------------
// CBOR contenders (bench/suites/cbor.js)

const WIREPACK_CBOR_ENTRY = new URL('../../js/src/cbor.node.js', import.meta.url);

let wirepackCborPromise = null;
/** Imports wirepack/cbor once; rejects with a readable reason when js/src or the wasm is not there yet. */
export function loadWirepackCbor() {
  if (!wirepackCborPromise) {
    wirepackCborPromise = (async () => {
      let lib;
      try {
        lib = await import(WIREPACK_CBOR_ENTRY.href);
      } catch (err) {
        const msg = err && err.code === 'ERR_MODULE_NOT_FOUND' ? `module not found: ${err.message.split('\n')[0]}` : String(err && err.message ? err.message.split('\n')[0] : err);
        throw new Error(`import('../js/src/cbor.node.js') failed: ${msg}`);
      }
      for (const name of ['encode', 'decode']) {
        if (typeof lib[name] !== 'function') throw new Error(`js/src/cbor.node.js does not export ${name}()`);
      }
      let version = null;
      try {
        version = JSON.parse(fs.readFileSync(path.join(REPO_DIR, 'package.json'), 'utf8')).version;
      } catch {
        /* ignore */
      }
      let wasmBytes = null;
      try {
        wasmBytes = fs.statSync(path.join(REPO_DIR, 'build', 'wirepack.wasm')).size;
      } catch {
        /* ignore */
      }
      const info = `wirepack ${version ?? '?'} (js/src/cbor.node.js${wasmBytes ? `, build/wirepack.wasm ${wasmBytes} B` : ''})`;
      return { lib, info };
    })();
  }
  return wirepackCborPromise;
}

/** wirepack/cbor's plain free functions: encode/decode. */
export const wirepackCbor = {
  id: 'wirepack/cbor',
  role: 'subject',
  load: loadWirepackCbor,
  create: (lib) => {
    const { encode, decode } = lib;
    return {
      encode: (obj) => encode(obj),
      decode: (buf) => decode(buf),
      encodeLabel: 'buf = require("wirepack/cbor").encode(obj);',
      decodeLabel: 'obj = require("wirepack/cbor").decode(buf);',
    };
  },
};

/**
 * cbor-x as installed. Its Node entry (node-index.js) tries to require('cbor-extract') unless
 * CBOR_NATIVE_ACCELERATION_DISABLED=true, and on success calls setExtractor(), which flips the
 * exported live binding `isNativeAccelerationEnabled` to true. The addon only speeds up decoding
 * (it extracts runs of strings in C++); encoding is pure JS either way.
 */
async function loadCborX() {
  const lib = await import('cbor-x');
  const native = lib.isNativeAccelerationEnabled === true;
  let addon = null;
  if (native) {
    // The addon was loaded through CommonJS require, so it sits in the shared require cache.
    const cache = createRequire(import.meta.url).cache;
    addon = Object.keys(cache).find((k) => k.endsWith('.node') && k.includes('cbor-extract')) ?? null;
  }
  const addonText = addon ? `, addon ${path.relative(REPO_DIR, addon)}` : '';
  const extract = packageVersion('cbor-extract');
  return {
    lib,
    info:
      `cbor-x ${packageVersion('cbor-x') ?? '?'} (isNativeAccelerationEnabled: ${native}` +
      `${native ? `: cbor-extract ${extract ?? '?'} string extraction, decode only${addonText}` : ''})`,
    native,
  };
}

/** cbor-x's plain encode/decode (default Encoder: useRecords false; native decode addon when present). */
export const cborX = {
  id: 'cbor-x',
  role: 'peer',
  load: loadCborX,
  create: (lib) => {
    const { encode, decode } = lib;
    return {
      encode: (obj) => encode(obj),
      decode: (buf) => decode(buf),
      encodeLabel: 'buf = require("cbor-x").encode(obj);',
      decodeLabel: 'obj = require("cbor-x").decode(buf);',
    };
  },
};

/**
 * cbor-x with the record extension (`new Encoder({ useRecords: true })`, as cbor-x's own
 * tests/benchmark.cjs "cbor-x w/ records" row): objects become tag-105 record definitions and
 * references, not plain CBOR maps, so a reference row only. No shared `structures`, so every
 * encoding carries its own definitions and is self-contained. One Encoder per input, decoding
 * with the same instance.
 */
export const cborXRecords = {
  id: 'cbor-x-records',
  role: 'reference',
  load: async () => {
    const { lib, native } = await loadCborX();
    return {
      lib,
      info: `cbor-x ${packageVersion('cbor-x') ?? '?'} new Encoder({ useRecords: true }), same instance decodes (isNativeAccelerationEnabled: ${native})`,
      native,
    };
  },
  create: (lib) => {
    const encoder = new lib.Encoder({ useRecords: true });
    return {
      encode: (obj) => encoder.encode(obj),
      decode: (buf) => encoder.decode(buf),
      encodeLabel: 'cbor-x w/ records: encoder.encode(obj);',
      decodeLabel: 'cbor-x w/ records: encoder.decode(buf);',
    };
  },
};

// ---------------------------------------------------------------------------------------------
// More peers (bench/suites/peers-benchmark.js, msgpack-benchmark.js, memory.js) and the msgpackr /
// cbor-x variants that wirepack has no equivalent for yet (reference rows).

const requireCjs = createRequire(import.meta.url);

/** Loads a CommonJS package by name, with its pinned version in the info line. */
function cjsLoader(pkg, infoSuffix = '') {
  return async () => {
    const lib = requireCjs(pkg);
    return { lib, info: `${pkg} ${packageVersion(pkg) ?? '?'}${infoSuffix}` };
  };
}

/** msgpack-lite's encode/decode (pure JS). */
export const msgpackLite = {
  id: 'msgpack-lite',
  role: 'peer',
  load: cjsLoader('msgpack-lite'),
  create: (lib) => ({
    encode: (obj) => lib.encode(obj),
    decode: (buf) => lib.decode(buf),
    encodeLabel: 'buf = require("msgpack-lite").encode(obj);',
    decodeLabel: 'obj = require("msgpack-lite").decode(buf);',
  }),
};

/** notepack.io's encode/decode (Node entry, Buffer based). */
export const notepack = {
  id: 'notepack.io',
  role: 'peer',
  load: cjsLoader('notepack.io'),
  create: (lib) => ({
    encode: (obj) => lib.encode(obj),
    decode: (buf) => lib.decode(buf),
    encodeLabel: 'buf = require("notepack.io").encode(obj);',
    decodeLabel: 'obj = require("notepack.io").decode(buf);',
  }),
};

/** msgpack5: one instance (`require("msgpack5")()`), as both benchmarks create it. */
export const msgpack5 = {
  id: 'msgpack5',
  role: 'peer',
  load: async () => {
    const factory = requireCjs('msgpack5');
    return { lib: factory(), info: `msgpack5 ${packageVersion('msgpack5') ?? '?'} (one require("msgpack5")() instance)` };
  },
  create: (m) => ({
    encode: (obj) => m.encode(obj),
    decode: (buf) => m.decode(buf),
    encodeLabel: 'buf = require("msgpack5")().encode(obj);',
    decodeLabel: 'obj = require("msgpack5")().decode(buf);',
  }),
};

/**
 * node-cbor ("cbor" on npm): encode / decode (decodeFirstSync). Its encode() stops at the stream's
 * 16 KiB highWaterMark for larger outputs, so the memory suite, which only times decoding, prepares
 * its input with encodeOne(obj, { highWaterMark }) (memoryEncode).
 */
export const nodeCbor = {
  id: 'cbor',
  role: 'peer',
  load: cjsLoader('cbor', ' (node-cbor)'),
  memoryEncode: (lib) => (obj) => lib.encodeOne(obj, { highWaterMark: 1 << 28 }),
  create: (lib) => ({
    encode: (obj) => lib.encode(obj),
    decode: (buf) => lib.decode(buf),
    encodeLabel: 'buf = require("cbor").encode(obj);',
    decodeLabel: 'obj = require("cbor").decode(buf);',
  }),
};

/** JSON as msgpack-benchmark writes it: a string out of JSON.stringify, JSON.parse of that string. */
export const jsonString = {
  id: 'JSON',
  key: 'JSON-string', // unique lookup key (ALL_CONTENDERS); the row is still called JSON
  role: 'peer',
  load: async () => ({ lib: JSON, info: `JSON (V8 ${process.versions.v8}); strings, as msgpack-benchmark times it` }),
  create: () => ({
    encode: (obj) => JSON.stringify(obj),
    decode: (str) => JSON.parse(str),
    encodeLabel: 'str = JSON.stringify(obj);',
    decodeLabel: 'obj = JSON.parse(str);',
  }),
};

/** `new Packr({ structures: [], randomAccessStructure: true })`, as msgpackr's tests/benchmark.cjs. */
export const msgpackrRandomAccess = {
  id: 'msgpackr-random-access',
  role: 'reference',
  load: loadMsgpackr,
  create: (lib) => {
    const packr = new lib.Packr({ structures: [], randomAccessStructure: true, saveStructures() {} });
    return {
      encode: (obj) => packr.pack(obj),
      decode: (buf) => packr.unpack(buf),
      encodeLabel: 'msgpackr w/ random access structures: packr.pack(obj);',
      decodeLabel: 'msgpackr w/ random access structures: packr.unpack(buf);',
    };
  },
};

/** `new Packr({ bundleStrings: true, structures: [] })`, as msgpackr's tests/benchmark.cjs. */
export const msgpackrBundled = {
  id: 'msgpackr-bundled-strings',
  role: 'reference',
  load: loadMsgpackr,
  create: (lib) => {
    const packr = new lib.Packr({ bundleStrings: true, structures: [] });
    return {
      encode: (obj) => packr.pack(obj),
      decode: (buf) => packr.unpack(buf),
      encodeLabel: 'bundled strings packr.pack(obj);',
      decodeLabel: 'bundled strings packr.unpack(buf);',
    };
  },
};

/** `new Encoder({ useRecords: false, pack: true })`, cbor-x's "packed" row. */
export const cborXPacked = {
  id: 'cbor-x-packed',
  role: 'reference',
  load: loadCborX,
  create: (lib) => {
    const encoder = new lib.Encoder({ useRecords: false, pack: true });
    return {
      encode: (obj) => encoder.encode(obj),
      decode: (buf) => encoder.decode(buf),
      encodeLabel: 'cbor-x packed: encoder.encode(obj);',
      decodeLabel: 'cbor-x packed: encoder.decode(buf);',
    };
  },
};

// wirepack in the peers' other modes, each compared with the same mode of the peer (issue 5).

/** wirepack with shared record structures, as msgpackr-records. */
export const wirepackRecords = {
  id: 'wirepack-records',
  role: 'subject',
  load: loadWirepack,
  create: (lib) => {
    const packr = new lib.Packr({ structures: [] });
    return {
      encode: (obj) => packr.pack(obj),
      decode: (buf) => packr.unpack(buf),
      encodeLabel: 'wirepack w/ shared structures: packr.pack(obj);',
      decodeLabel: 'wirepack w/ shared structures: packr.unpack(buf);',
    };
  },
};

/** wirepack with bundled strings, as msgpackr-bundled-strings. */
export const wirepackBundled = {
  id: 'wirepack-bundled-strings',
  role: 'subject',
  load: loadWirepack,
  create: (lib) => {
    const packr = new lib.Packr({ bundleStrings: true, structures: [] });
    return {
      encode: (obj) => packr.pack(obj),
      decode: (buf) => packr.unpack(buf),
      encodeLabel: 'wirepack bundled strings packr.pack(obj);',
      decodeLabel: 'wirepack bundled strings packr.unpack(buf);',
    };
  },
};

/** wirepack/cbor with records, as cbor-x-records. */
export const wirepackCborRecords = {
  id: 'wirepack/cbor-records',
  role: 'subject',
  load: loadWirepackCbor,
  create: (lib) => {
    const encoder = new lib.Encoder({ useRecords: true });
    return {
      encode: (obj) => encoder.encode(obj),
      decode: (buf) => encoder.decode(buf),
      encodeLabel: 'wirepack/cbor w/ records: encoder.encode(obj);',
      decodeLabel: 'wirepack/cbor w/ records: encoder.decode(buf);',
    };
  },
};

/** wirepack/cbor packed (tags 6/51), as cbor-x-packed. */
export const wirepackCborPacked = {
  id: 'wirepack/cbor-packed',
  role: 'subject',
  load: loadWirepackCbor,
  create: (lib) => {
    const encoder = new lib.Encoder({ useRecords: false, pack: true });
    return {
      encode: (obj) => encoder.encode(obj),
      decode: (buf) => encoder.decode(buf),
      encodeLabel: 'wirepack/cbor packed: encoder.encode(obj);',
      decodeLabel: 'wirepack/cbor packed: encoder.decode(buf);',
    };
  },
};

/**
 * json-pack (@jsonjoy.com/json-pack): the encoder and decoder classes its own benchmarks time as
 * its fastest, one instance each per input (an encoder keeps its Writer, whose `encode` result is
 * a view of the Writer's buffer that the next encode does not overwrite). MessagePack:
 * MsgPackEncoderFast / MsgPackDecoderFast; CBOR: CborEncoderFast / CborDecoderBase. They write
 * JSON values (the Fast encoders nothing else: no binary, undefined or Date), so the varied suite
 * leaves them out of the inputs they cannot represent.
 */
function jsonPackLoader(sub, what) {
  return async () => {
    const lib = requireCjs(`@jsonjoy.com/json-pack/lib/${sub}`);
    return { lib, info: `@jsonjoy.com/json-pack ${packageVersion('@jsonjoy.com/json-pack') ?? '?'} (${what})` };
  };
}

export const jsonPack = {
  id: 'json-pack',
  role: 'peer',
  load: jsonPackLoader('msgpack', 'MsgPackEncoderFast, MsgPackDecoderFast'),
  create: (lib) => {
    const encoder = new lib.MsgPackEncoderFast(), decoder = new lib.MsgPackDecoderFast();
    return {
      encode: (obj) => encoder.encode(obj),
      decode: (buf) => decoder.decode(buf),
      encodeLabel: 'json-pack: new MsgPackEncoderFast().encode(obj);',
      decodeLabel: 'json-pack: new MsgPackDecoderFast().decode(buf);',
    };
  },
};

export const jsonPackCbor = {
  id: 'json-pack/cbor',
  role: 'peer',
  load: jsonPackLoader('cbor', 'CborEncoderFast, CborDecoderBase'),
  create: (lib) => {
    const encoder = new lib.CborEncoderFast(), decoder = new lib.CborDecoderBase();
    return {
      encode: (obj) => encoder.encode(obj),
      decode: (buf) => decoder.decode(buf),
      encodeLabel: 'json-pack: new CborEncoderFast().encode(obj);',
      decodeLabel: 'json-pack: new CborDecoderBase().decode(buf);',
    };
  },
};

/** wirepack/json-pack: json-pack's classes (the ones jsonPack times) on wirepack's codec (js/src/json-pack.node.js). */
function wirepackJsonPackLoader() {
  return async () => {
    const lib = await import(new URL('../../js/src/json-pack.node.js', import.meta.url).href);
    return { lib, info: 'wirepack/json-pack (js/src/json-pack.node.js: json-pack\'s codec classes, its wire format)' };
  };
}

export const wirepackJsonPack = {
  id: 'wirepack/json-pack',
  role: 'subject',
  load: wirepackJsonPackLoader(),
  create: (lib) => {
    const encoder = new lib.MsgPackEncoderFast(), decoder = new lib.MsgPackDecoderFast();
    return {
      encode: (obj) => encoder.encode(obj),
      decode: (buf) => decoder.decode(buf),
      encodeLabel: 'wirepack/json-pack: new MsgPackEncoderFast().encode(obj);',
      decodeLabel: 'wirepack/json-pack: new MsgPackDecoderFast().decode(buf);',
    };
  },
};

export const wirepackJsonPackCbor = {
  id: 'wirepack/json-pack/cbor',
  role: 'subject',
  load: wirepackJsonPackLoader(),
  create: (lib) => {
    const encoder = new lib.CborEncoderFast(), decoder = new lib.CborDecoderBase();
    return {
      encode: (obj) => encoder.encode(obj),
      decode: (buf) => decoder.decode(buf),
      encodeLabel: 'wirepack/json-pack: new CborEncoderFast().encode(obj);',
      decodeLabel: 'wirepack/json-pack: new CborDecoderBase().decode(buf);',
    };
  },
};

/** Every contender, found by `key ?? id` (the memory suite's child processes look them up here). */
export const ALL_CONTENDERS = [
  wirepack, msgpackr, msgpackrRecords, msgpackrRandomAccess, msgpackrBundled, msgpackMsgpack, msgpackLite,
  notepack, msgpack5, json, jsonString, wirepackCbor, cborX, cborXRecords, cborXPacked, nodeCbor,
  wirepackRecords, wirepackBundled, wirepackCborRecords, wirepackCborPacked, wirepackLib, jsonPack, jsonPackCbor, wirepackJsonPack, wirepackJsonPackCbor,
];
