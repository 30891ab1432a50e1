/**
 * MessagePack messages that use msgpackr's extension semantics, written by msgpackr itself:
 * records (default `new Packr()`: d4 72 definitions and 0x40-0x7f ids; `maxOwnStructures` for
 * two-byte ids and d5 72 definitions; `maxSharedStructures` with `structures` for shared ids),
 * bundled strings (`bundleStrings`, with and without records, and string sets long enough that
 * several bundles chain), `moreTypes` (Set, Error with a cause, AggregateError, RegExp, typed
 * arrays, ArrayBuffer, BigInt beyond 64 bits) and `structuredClone` (cycles, shared identity).
 *
 * Used by tests/fuzz/make-corpus.mjs (seeds of the libFuzzer decode target) and by
 * tests/fuzz-differential.node.test.js (mutation corpus). Deterministic: no randomness, no dates
 * of the current time.
 */
import { Packr } from 'msgpackr';

/** Objects of n distinct shapes (2 keys each), so a Packr defines n records. */
const shapes = (n, from = 0) => Array.from({ length: n }, (_, i) => ({ ['f' + (i + from)]: i, g: 'x' + i }));

/** @typedef {{ name: string, bytes: Uint8Array, multiple?: boolean, structures?: any[] }} Seed */

/**
 * @returns {Seed[]}
 */
export function msgpackrExtSeeds() {
  /** @type {Seed[]} */
  const out = [];
  const add = (name, bytes, extra = {}) => out.push({ name, bytes: Uint8Array.from(bytes), ...extra });

  // ---------------------------------------------------------------- records
  const people = Array.from({ length: 12 }, (_, i) => ({ id: i, name: 'person ' + i, tags: ['a', 'b'].slice(0, i % 3), nested: { x: i, y: -i } }));
  add('rec-default', new Packr().pack(people));
  add('rec-default-small', new Packr().pack([{ a: 1, b: 'x' }, { a: 2, b: 'y' }, { c: [{ a: 3, b: null }] }]));
  add('rec-empty-and-proto', new Packr().pack([{}, {}, JSON.parse('{"__proto__": 1, "constructor": 2}'), { k: {} }]));
  add('rec-own100', new Packr({ maxOwnStructures: 100 }).pack([...shapes(70), ...shapes(70)]));
  add('rec-own100-deep', new Packr({ maxOwnStructures: 100 }).pack({ list: shapes(40), again: shapes(40), tail: shapes(5, 100) }));
  {
    const structures = [];
    const p = new Packr({ maxSharedStructures: 40, structures });
    add('rec-shared40', p.pack(shapes(70)), { structures });
  }
  {
    const structures = [];
    const p = new Packr({ maxSharedStructures: 8, structures });
    add('rec-shared8', p.pack([...shapes(20), ...shapes(20)]), { structures });
  }
  // a sequence: each message alone (unpackMultiple keeps definitions between values)
  {
    const p = new Packr();
    add('rec-seq', Buffer.concat([p.pack({ a: 1, b: 2 }), p.pack([{ a: 3, b: 4 }, { c: 5 }]), p.pack({ a: 'z', b: [] })]), { multiple: true });
  }

  // ---------------------------------------------------------------- bundled strings
  const words = (n, tag) => Array.from({ length: n }, (_, i) => `${tag} string number ${i}` + (i % 4 === 0 ? ' é€' : i % 7 === 0 ? ' 🍺' : ''));
  add('bundle-plain', new Packr({ bundleStrings: true, useRecords: false }).pack({ title: 'hello world '.repeat(4), list: words(30, 'w') }));
  add('bundle-records', new Packr({ bundleStrings: true }).pack(Array.from({ length: 40 }, (_, i) => ({ name: 'person name ' + i + 'é'.repeat(i % 3), city: 'city ' + ((i * 7919) % 100) }))));
  // long string sets: several bundles, each one's strings inside the next one's data
  add('bundle-chain', new Packr({ bundleStrings: true, useRecords: false }).pack(words(2500, 'long')));
  add('bundle-chain-records', new Packr({ bundleStrings: true }).pack(Array.from({ length: 900 }, (_, i) => ({ k: 'key text ' + i, v: 'value ' + i + (i % 3 ? '' : ' ü') }))));
  add('bundle-keys', new Packr({ bundleStrings: true, useRecords: false }).pack(Object.fromEntries(words(40, 'k').map((w, i) => [w, i]))));
  {
    const p = new Packr({ bundleStrings: true, useRecords: false });
    add('bundle-seq', Buffer.concat([p.pack(words(20, 'a')), p.pack({ s: words(10, 'b') }), p.pack('short')]), { multiple: true });
  }

  // ---------------------------------------------------------------- moreTypes
  const more = new Packr({ moreTypes: true, useRecords: false });
  add('more-set', more.pack([new Set([1, 'a', null, [2]]), new Set()]));
  add('more-error', more.pack([new Error('boom', { cause: new TypeError('inner') }), new RangeError('r'), Object.assign(new Error('custom'), { name: 'MyError' })]));
  add('more-aggregate', more.pack(new AggregateError([new Error('x'), new SyntaxError('y')], 'agg', { cause: 'c' })));
  add('more-regexp', more.pack([/ab+c/gi, /^\d{2,}$/u, new RegExp('')]));
  add('more-typed', more.pack([new Int8Array([1, -1]), new Uint8ClampedArray([255]), new Int16Array([1, -2]), new Uint16Array([65535]),
    new Int32Array([-5]), new Uint32Array([7]), new Float32Array([0.5, -1]), new Float64Array([0.5, NaN]), new BigInt64Array([-1n]),
    new BigUint64Array([2n ** 64n - 1n]), new ArrayBuffer(3)]));
  add('more-bigint', more.pack([2n ** 64n, 2n ** 100n, -(2n ** 70n), 2n ** 63n - 1n, -(2n ** 63n) - 1n, 2n ** 200n + 12345n]));
  add('more-all-records', new Packr({ moreTypes: true }).pack({ s: new Set(['x']), e: new Error('e'), r: /x/, t: new Uint16Array([1, 2]), b: 2n ** 90n, list: [{ a: 1 }, { a: 2 }] }));

  // ---------------------------------------------------------------- structured clone
  const clone = new Packr({ structuredClone: true, useRecords: false });
  const cloneRec = new Packr({ structuredClone: true });
  const shared = [1, 2, { z: 'shared' }];
  const o = { name: 'o' };
  o.self = o;
  const arr = [1];
  arr.push(arr);
  const m = new Map([['k', 1]]);
  m.set('me', m);
  const s = new Set(['v']);
  s.add(s);
  add('clone-shared', clone.pack({ a: shared, b: shared, c: [shared, shared] }));
  add('clone-cycle-object', clone.pack({ o }));
  add('clone-cycle-array', clone.pack(arr));
  add('clone-cycle-map', clone.pack(m));
  add('clone-cycle-set', clone.pack(s));
  add('clone-records', cloneRec.pack({ list: [o, o], sh: [shared, shared], m }));
  // more shapes than own record ids, one recurring: its keys get an id, then a pointer
  const recurring = [];
  for (let i = 0; i < 3; i++) recurring.push({ ['k' + i]: i });
  recurring.push({ k0: 'again' });
  add('clone-record-keys', new Packr({ structuredClone: true, maxOwnStructures: 2 }).pack(recurring));
  return out;
}
