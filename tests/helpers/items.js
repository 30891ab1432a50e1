// fast-check arbitraries of raw, well-formed CBOR and MessagePack items, written byte by byte
// (not through an encoder): every head size for the same value, indefinite lengths and
// chunks (CBOR), floats by their bits, ill-formed UTF-8 in text, keys of every kind. For
// differential tests of readers that must agree on any input (no Buffer: browsers too).
import fc from 'fast-check';
import { concat } from './bytes.js';

/** big-endian bytes of n (bigint) in `size` bytes */
function be(n, size) {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[size - 1 - i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
}

const NUMS = fc.oneof(fc.nat(30), fc.nat(300), fc.nat(70000), fc.nat(), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }))
  .map((n) => BigInt(n));

/** text as UTF-8: ASCII, any code points, escapes, a BOM, or bytes that are not UTF-8 */
export const textBytes = fc.oneof(
  fc.string({ maxLength: 12 }).map((s) => new TextEncoder().encode(s)),
  fc.string({ unit: 'grapheme', maxLength: 6 }).map((s) => new TextEncoder().encode(s)),
  fc.uint8Array({ maxLength: 10 }),
  fc.constantFrom(Uint8Array.of(0x22, 0x5c, 0x08, 0x0c, 0x0a, 0x0d, 0x09, 0x00, 0x1f, 0x7f), Uint8Array.of(0xef, 0xbb, 0xbf),
    new TextEncoder().encode('__proto__'), new TextEncoder().encode('constructor'), new TextEncoder().encode('0'),
    new TextEncoder().encode('-20'), new TextEncoder().encode('null'), new TextEncoder().encode('1.5')),
);

// ------------------------------------------------------------------ CBOR

/** A CBOR head of major type `major`, argument n, in the shortest form or any longer one. */
export function cborHeadArb(major, n) {
  const big = BigInt(n);
  const forms = [];
  if (big < 24n) forms.push(Uint8Array.of((major << 5) | Number(big)));
  for (const [ai, size] of [[24, 1], [25, 2], [26, 4], [27, 8]]) {
    if (big < 2n ** BigInt(8 * size)) forms.push(concat(Uint8Array.of((major << 5) | ai), be(big, size)));
  }
  return fc.constantFrom(...forms);
}

const f64Bytes = (d) => { const u = new Uint8Array(9); u[0] = 0xfb; new DataView(u.buffer).setFloat64(1, d); return u; };
const cborInt = NUMS.chain((n) => fc.tuple(fc.boolean(), cborHeadArb(0, n)).map(([neg, h]) => { const c = h.slice(); if (neg) c[0] |= 0x20; return c; }));
const cborFloat = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((b) => Uint8Array.of(0xf9, b >> 8, b & 255)),
  fc.integer({ min: 0, max: 0xffffffff }).map((b) => concat(Uint8Array.of(0xfa), be(BigInt(b), 4))),
  fc.double().map(f64Bytes),
  fc.constantFrom(1, 5, 100000, 1e21, 1e-7, 5e-324, -0, 0.1, 1e300, 4294967294, 4294967295).map(f64Bytes),
);
const cborStr = (major, bytes) => bytes.chain((b) => cborHeadArb(major, b.length).map((h) => concat(h, b)));
const cborChunked = (major, bytes) => fc.array(cborStr(major, bytes), { maxLength: 4 })
  .map((cs) => concat(Uint8Array.of((major << 5) | 31), ...cs, Uint8Array.of(0xff)));

/**
 * One well-formed CBOR item. `json`: only what JSON output can hold (no byte strings, tags or
 * simple values other than false/true/null/undefined; keys are scalars); `scalar`: no arrays,
 * maps or tags.
 * @param {{ json?: boolean, scalar?: boolean }} [opts]
 */
export function cborItem(opts = {}) {
  const simple = opts.json
    ? fc.constantFrom(0xf4, 0xf5, 0xf6, 0xf7).map((b) => Uint8Array.of(b))
    : fc.oneof(fc.integer({ min: 0, max: 23 }).map((n) => Uint8Array.of(0xe0 | n)), fc.integer({ min: 32, max: 255 }).map((n) => Uint8Array.of(0xf8, n)));
  const scalars = [cborInt, cborStr(3, textBytes), cborChunked(3, textBytes), cborFloat, simple];
  if (!opts.json) scalars.push(cborStr(2, fc.uint8Array({ maxLength: 8 })), cborChunked(2, fc.uint8Array({ maxLength: 6 })));
  const leaf = fc.oneof(...scalars);
  if (opts.scalar) return leaf;
  const key = opts.json ? leaf : undefined;
  return fc.letrec((tie) => {
    const kinds = [leaf,
      fc.array(tie('item'), { maxLength: 4 }).chain((xs) => fc.oneof(
        cborHeadArb(4, xs.length).map((h) => concat(h, ...xs)),
        fc.constant(concat(Uint8Array.of(0x9f), ...xs, Uint8Array.of(0xff))))),
      fc.array(fc.tuple(key || tie('item'), tie('item')), { maxLength: 4 }).chain((es) => fc.oneof(
        cborHeadArb(5, es.length).map((h) => concat(h, ...es.flat())),
        fc.constant(concat(Uint8Array.of(0xbf), ...es.flat(), Uint8Array.of(0xff)))))];
    if (!opts.json) kinds.push(fc.tuple(NUMS, tie('item')).chain(([n, x]) => cborHeadArb(6, n).map((h) => concat(h, x))));
    return { item: fc.oneof({ depthSize: 'small', withCrossShrink: true }, ...kinds) };
  }).item;
}

// ------------------------------------------------------------------ MessagePack

/** a MessagePack length head: fix form (when `fix` and n < fixMax), 8 (when `b8`), 16 or 32 bits */
function mpLenHead(n, fix, fixMax, b8, b16, b32) {
  const forms = [];
  if (fix !== undefined && n < fixMax) forms.push(Uint8Array.of(fix | n));
  if (b8 !== undefined && n < 256) forms.push(Uint8Array.of(b8, n));
  if (n < 65536) forms.push(Uint8Array.of(b16, n >> 8, n & 255));
  forms.push(concat(Uint8Array.of(b32), be(BigInt(n), 4)));
  return fc.constantFrom(...forms);
}
const mpInt = NUMS.chain((n) => {
  const forms = [];
  if (n < 128n) forms.push(Uint8Array.of(Number(n)));
  for (const [b, size] of [[0xcc, 1], [0xcd, 2], [0xce, 4], [0xcf, 8]]) if (n < 2n ** BigInt(8 * size)) forms.push(concat(Uint8Array.of(b), be(n, size)));
  // negative: -n for n in 1..2^63
  const m = n === 0n ? 1n : n;
  if (m <= 32n) forms.push(Uint8Array.of(0x100 - Number(m)));
  for (const [b, size] of [[0xd0, 1], [0xd1, 2], [0xd2, 4], [0xd3, 8]]) {
    if (m <= 2n ** BigInt(8 * size - 1)) forms.push(concat(Uint8Array.of(b), be(2n ** BigInt(8 * size) - m, size)));
    if (n < 2n ** BigInt(8 * size - 1)) forms.push(concat(Uint8Array.of(b), be(n, size)));
  }
  return fc.constantFrom(...forms);
});
const mpFloat = fc.oneof(
  fc.integer({ min: 0, max: 0xffffffff }).map((b) => concat(Uint8Array.of(0xca), be(BigInt(b), 4))),
  fc.double().map((d) => { const u = f64Bytes(d); u[0] = 0xcb; return u; }),
  fc.constantFrom(1, 5, 1e21, -0, 0.1, 4294967294).map((d) => { const u = f64Bytes(d); u[0] = 0xcb; return u; }),
);
const mpStr = textBytes.chain((b) => mpLenHead(b.length, 0xa0, 32, 0xd9, 0xda, 0xdb).map((h) => concat(h, b)));
const mpBin = fc.uint8Array({ maxLength: 8 }).chain((b) => mpLenHead(b.length, undefined, 0, 0xc4, 0xc5, 0xc6).map((h) => concat(h, b)));
const mpExt = fc.tuple(fc.integer({ min: 1, max: 127 }), fc.constantFrom(1, 2, 4, 8, 16, 3)).map(([t, n]) => {
  const head = n === 3 ? Uint8Array.of(0xc7, 3, t) : Uint8Array.of({ 1: 0xd4, 2: 0xd5, 4: 0xd6, 8: 0xd7, 16: 0xd8 }[n], t);
  return concat(head, new Uint8Array(n).fill(7));
});

/**
 * One well-formed MessagePack item. `json`: only what JSON output can hold (no bin or
 * extensions other than undefined, d4 00 00; keys are scalars); `scalar`: no arrays or maps.
 * @param {{ json?: boolean, scalar?: boolean }} [opts]
 */
export function msgpackItem(opts = {}) {
  const scalars = [mpInt, mpStr, mpFloat, fc.constantFrom(0xc0, 0xc2, 0xc3).map((b) => Uint8Array.of(b)), fc.constant(Uint8Array.of(0xd4, 0, 0))];
  if (!opts.json) scalars.push(mpBin, mpExt);
  const leaf = fc.oneof(...scalars);
  if (opts.scalar) return leaf;
  return fc.letrec((tie) => ({
    item: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf,
      fc.array(tie('item'), { maxLength: 4 }).chain((xs) => mpLenHead(xs.length, 0x90, 16, undefined, 0xdc, 0xdd).map((h) => concat(h, ...xs)))
        .map((b) => b),
      fc.array(fc.tuple(opts.json ? leaf : tie('item'), tie('item')), { maxLength: 4 })
        .chain((es) => mpLenHead(es.length, 0x80, 16, undefined, 0xde, 0xdf).map((h) => concat(h, ...es.flat())))),
  })).item;
}
