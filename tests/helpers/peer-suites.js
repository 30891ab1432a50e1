// The peers' own test suites run against wirepack (tests/peer-suites*.node.test.js): their
// dist/test.js read from node_modules as installed, the test part run with wirepack's exports
// under the names the tests use, each test registered as a test here.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { test, chai } from 'vitest';
import * as mp from 'wirepack';
import * as cbor from 'wirepack/cbor';

import example from '../vectors/example.json';
import example2 from '../vectors/example2.json';
import example3 from '../vectors/example3.json';
import example4 from '../vectors/example4.json';
import example5 from '../vectors/example5.json';

const require = createRequire(import.meta.url);

/**
 * The tests of a peer's dist/test.js, collected through suite/test shims, with `scope` giving
 * the names its test part uses (the bundle's own code before it is not run).
 * @param {string} file the bundle, in node_modules
 * @param {RegExp} from the first line of the test part
 * @param {RegExp} to the line after it (the bundle's closing call)
 * @param {Record<string, unknown>} scope
 * @param {[string, string][]} patches [text, replacement] pairs, each of which must apply
 * @returns {[string, Function][]}
 */
export function collect(file, from, to, scope, patches) {
  const lines = fs.readFileSync(new URL(`../../node_modules/${file}`, import.meta.url), 'utf8').split('\n');
  const a = lines.findIndex((l) => from.test(l)), b = lines.findLastIndex((l) => to.test(l));
  if (a < 0 || b <= a) throw new Error(`${file}: its test part was not found (a new version?)`);
  let body = lines.slice(a, b).join('\n');
  for (const [text, replacement] of patches) {
    if (!body.includes(text)) throw new Error(`${file}: the text to patch is gone (a new version?): ${text}`);
    body = body.replace(text, replacement);
  }
  /** @type {[string, Function][]} */
  const tests = [];
  /** @type {string[]} */
  const names = [];
  const suite = (/** @type {string} */ name, /** @type {Function} */ f) => { names.push(name); f(); names.pop(); };
  const add = (/** @type {string} */ name, /** @type {Function} */ f) => { tests.push([[...names, name].join(' > '), f]); };
  suite.skip = () => {};
  add.skip = () => {};
  const values = {
    ...scope, chai, fs, require, Buffer, module: { createRequire }, stream: require('node:stream'),
    _documentCurrentScript: null, suite, test: add, setup() {}, teardown() {},
  };
  const has = new Proxy(values, { has: (t, k) => typeof k === 'string' && k in t, get: (t, k) => t[/** @type {string} */ (k)] });
  // (the bundles' test parts are sloppy-mode scripts; `with` gives them these names)
  new Function('__scope', `with (__scope) {\n${body}\n}`)(has);
  return tests;
}

/**
 * Each collected test as a test here: mocha's `this` (timeout) and done callbacks; the expected
 * failures as test.fails.
 * @param {[string, Function][]} tests @param {Record<string, string>} expectedFailures name -> why
 */
export function register(tests, expectedFailures) {
  const seen = new Set();
  for (const [name, f] of tests) {
    const run = () => new Promise((resolve, reject) => {
      const ctx = { timeout() {}, slow() {} };
      try {
        if (f.length > 0) {
          const r = f.call(ctx, (/** @type {unknown} */ e) => (e ? reject(e) : resolve(undefined)));
          if (r && typeof r.then === 'function') r.then(resolve, reject);
        } else {
          Promise.resolve(f.call(ctx)).then(resolve, reject);
        }
      } catch (e) {
        reject(e);
      }
    });
    const why = expectedFailures[name];
    if (why !== undefined) {
      seen.add(name);
      test.fails(`${name} (fails on purpose: ${why})`, run, 60000);
    } else {
      test(name, run, 60000);
    }
  }
  test('every listed expected failure is one of the suite\'s tests', () => {
    for (const name of Object.keys(expectedFailures)) if (!seen.has(name)) throw new Error(`not in the suite: ${name}`);
  });
}

/** The msgpackr suite's expected failures. */
export const MSGPACKR_FAILS = {
  'msgpackr basic tests > non-string map key into object suggests mapsAsObjects: false (#127)':
    'a key that cannot be a property name gives a Map where msgpackr throws (README: mapsAsObjects)',
  'msgpackr basic tests > longStringInJS 16-31 byte fixstr and 32+ byte str8 across Buffer and Uint8Array':
    "it imports msgpackr's own unpack.js and spies on how it reads strings",
};

/**
 * msgpackr's suite with these classes as Packr and Unpackr.
 * @param {typeof mp.Packr} Packr @param {typeof mp.Unpackr} Unpackr
 */
export function msgpackrSuite(Packr, Unpackr) {
  const allSampleData = [example, example2, example3, example4, example5, { name: 'some other types', date: new Date(), empty: '' }];
  const tests = collect('msgpackr/dist/test.js', /^\tfunction tryRequire\(module\)/, /^\}\)\(chai, null, module, fs\);/, {
    ...mp, Packr, Unpackr, Packr$1: Packr, Unpackr$1: Unpackr, pack$1: mp.pack, unpack$1: mp.unpack, unpackMultiple$1: mp.unpackMultiple,
    addExtension$1: mp.addExtension, roundFloat32$1: mp.roundFloat32, allSampleData, sampleData: allSampleData[3],
    document: { baseURI: 'file:///nonexistent/' },
  }, [
    // an unpack in the middle of a pack that loads structures another writer saved, when the pack
    // has saved nothing yet: msgpackr adopts them and saves at once; wirepack declines its first
    // save and packs again, which gives the same bytes and store one save later
    ['assert.equal(cleanMergeUnpacked, 1,', 'assert.equal(cleanMergeUnpacked, 2,'],
  ]);
  register(tests, MSGPACKR_FAILS);
}

/** cbor-x's suite. */
export function cborxSuite() {
  const tests = collect('cbor-x/dist/test.js', /^\tconst senmlData = \[/, /^\}\)\(null, module, chai, fs\);/, {
    ...cbor, Encoder$1: cbor.Encoder, decode$1: cbor.decode, encode$1: cbor.encode, encodeAsIterable$1: cbor.encodeAsIterable,
    encodeAsAsyncIterable$1: cbor.encodeAsAsyncIterable, DECIMAL_FIT$1: cbor.FLOAT32_OPTIONS.DECIMAL_FIT,
    addExtension$1: cbor.addExtension, sampleData: example4, document: { baseURI: 'file:///nonexistent/' },
  }, []);
  register(tests, {});
}
