// Chunking helpers for the stream and iterator tests (no Buffer: these run in browsers too).
import fc from 'fast-check';

/** Split bytes into chunks whose sizes cycle through `sizes` (all >= 1). */
export function splitBy(bytes, sizes) {
  const out = [];
  let i = 0, k = 0;
  while (i < bytes.length) {
    const n = sizes.length ? sizes[k++ % sizes.length] : bytes.length;
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

/** One-byte chunks. */
export const bytewise = (bytes) => splitBy(bytes, [1]);

/** Chunk sizes for fast-check: mostly small, sometimes large. */
export const chunkSizes = fc.array(fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 300 })), { minLength: 1, maxLength: 12 });

/** JSON-like values (no '__proto__' keys: some peers rename them). */
const key = fc.string({ maxLength: 10 }).filter((k) => k !== '__proto__');
const leaf = fc.oneof(
  fc.constant(null), fc.boolean(), fc.integer(), fc.integer({ min: -300, max: 70000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
  fc.string({ maxLength: 30 }), fc.string({ minLength: 200, maxLength: 600 }), fc.uint8Array({ maxLength: 300 }),
);
export const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, leaf, tie('arr'), tie('obj')),
  arr: fc.array(tie('v'), { maxLength: 12 }),
  obj: fc.dictionary(key, tie('v'), { maxKeys: 12, noNullPrototype: true }),
})).v;

/** Values for the option mixes: records of one shape, repeated strings, `__proto__` keys, Maps,
 * Sets, BigInts, Dates, typed arrays, undefined (what records, bundles, structuredClone and the
 * typed-array extensions act on). */
const richKey = fc.oneof(fc.constantFrom('a', 'id', 'name', 'tags', '__proto__', 'constructor', ''), fc.string({ maxLength: 6 }));
const richLeaf = fc.oneof(
  fc.constant(null), fc.constant(undefined), fc.boolean(), fc.integer(), fc.integer({ min: -300, max: 70000 }),
  fc.bigInt({ min: -(1n << 63n), max: (1n << 64n) - 1n }), fc.double({ noNaN: true }), fc.float(),
  fc.string({ maxLength: 30 }), fc.constantFrom('shared', 'hello world', 'é✓😀'), fc.string({ minLength: 60, maxLength: 300 }),
  fc.uint8Array({ maxLength: 100 }), fc.date({ noInvalidDate: true }), fc.float32Array({ maxLength: 5 }),
);
export const richValue = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, richLeaf, tie('arr'), tie('obj'), tie('rec'), tie('map'), tie('set')),
  arr: fc.array(tie('v'), { maxLength: 6 }),
  obj: fc.dictionary(richKey, tie('v'), { maxKeys: 6, noNullPrototype: true }),
  rec: fc.record({ id: fc.integer(), name: fc.string({ maxLength: 5 }), tags: fc.array(tie('v'), { maxLength: 3 }) }),
  map: fc.array(fc.tuple(fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), tie('v')), { maxLength: 4 }).map((e) => new Map(e)),
  set: fc.array(fc.integer(), { maxLength: 4 }).map((e) => new Set(e)),
})).v;

/** Concatenate Uint8Arrays. */
export function join(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

/** An async iterable over an array, yielding between items. */
export async function* asyncOf(items) {
  for (const item of items) {
    await null;
    yield item;
  }
}

/** A mixed 100+ KB message: many small records and a few large strings and binaries. */
export function bigMessage() {
  const items = [];
  for (let i = 0; i < 1500; i++) items.push({ id: i, name: 'item ' + i, tags: ['a', 'bb', 'ccc'], score: i / 7, ok: i % 3 === 0, n: null });
  const bin = new Uint8Array(20000);
  for (let i = 0; i < bin.length; i++) bin[i] = (i * 31) & 255;
  return { items, text: 'lorem ipsum '.repeat(2000), bin, nested: [[[[{ deep: 'x' }]]]] };
}
