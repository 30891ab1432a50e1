// Diagnostic notation from C (transcode's `diag` option, the CLI's --diag) against the JS
// diagnose() of wirepack/cbor: the same text for every CBOR input both accept, and both
// reject what one rejects. RFC 8949 Appendix A, generated items of every kind (indefinite
// lengths, chunks, tags, all head sizes, floats by their bits, ill-formed UTF-8) and random
// bytes.
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import { diagnose, DecodeError } from 'wirepack/cbor';
import { pack } from 'wirepack';
import { transcodeWasmBase64 } from '../js/src/transcode-inline.js';
import * as tc from '../js/src/transcode.js';
import vectors from './vectors/cbor/appendix_a.json';
import { fromHex, concat } from './helpers/bytes.js';

/** @param {string} b64 */
function fromBase64(b64) {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}
if (!tc.isTranscodeInitialized()) await tc.initTranscode(fromBase64(transcodeWasmBase64));
const { transcode } = tc;

/** @param {Uint8Array} bytes @param {number} [indent] */
const cDiag = (bytes, indent) => transcode(bytes, { from: 'cbor', to: 'json', diag: true, indent });

/**
 * The outcome of both: { text } when both accept (the same text asserted), { code } when both
 * reject (DecodeErrors, codes returned for the caller to compare).
 * @param {Uint8Array} bytes
 */
function both(bytes) {
  let js, c, jsErr, cErr;
  try { js = diagnose(bytes); } catch (e) { jsErr = e; }
  try { c = cDiag(bytes); } catch (e) { cErr = e; }
  if (jsErr && !(jsErr instanceof DecodeError)) throw jsErr;
  if (cErr && !(cErr instanceof DecodeError)) throw cErr;
  return { js, c, jsCode: jsErr && jsErr.code, cCode: cErr && cErr.code };
}

describe('RFC 8949 Appendix A', () => {
  test('every vector: the same text, or both reject it', () => {
    let same = 0;
    for (const v of vectors) {
      const r = both(fromHex(v.hex));
      expect(r.c, v.hex).toBe(r.js);
      expect(!!r.cCode, v.hex).toBe(!!r.jsCode);
      if (r.js !== undefined) same++;
    }
    expect(same).toBeGreaterThan(70);
  });
});

// ---- generated items: hex parts of one well-formed CBOR item
const HEAD_FORMS = [0, 24, 25, 26, 27];
/** A head of major type `major` with argument n in the form ai (0: the shortest that holds n). */
function head(major, n, ai = 0) {
  const big = BigInt(n);
  const form = ai || (big < 24n ? 0 : big < 0x100n ? 24 : big < 0x10000n ? 25 : big < 0x100000000n ? 26 : 27);
  if (form === 0) return Uint8Array.of((major << 5) | Number(big));
  const size = 1 << (form - 24);
  const out = new Uint8Array(1 + size);
  out[0] = (major << 5) | form;
  for (let i = 0; i < size; i++) out[size - i] = Number((big >> BigInt(8 * i)) & 0xffn);
  return out;
}
/** a head in the shortest form or any longer one that holds n */
const headArb = (major, n) => fc.constantFrom(...HEAD_FORMS.filter((f) => f === 0 || BigInt(n) < 2n ** BigInt(8 << (f - 24))))
  .map((f) => head(major, n, f === 0 && BigInt(n) >= 24n ? 0 : f));

const intArb = fc.oneof(fc.nat(30), fc.nat(), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }))
  .chain((n) => fc.tuple(fc.constantFrom(0, 1), headArb(0, n)).map(([neg, h]) => { h[0] |= neg << 5; return h; }));
const textBytes = fc.oneof(
  fc.string({ maxLength: 12 }).map((s) => new TextEncoder().encode(s)),
  fc.string({ unit: 'grapheme', maxLength: 6 }).map((s) => new TextEncoder().encode(s)),
  fc.uint8Array({ maxLength: 10 }), // ill-formed UTF-8 too
  fc.constantFrom(Uint8Array.of(0x22, 0x5c, 0x08, 0x0c, 0x0a, 0x0d, 0x09, 0x00, 0x1f, 0x7f), Uint8Array.of(0xef, 0xbb, 0xbf)),
);
const strArb = (major, bytes) => bytes.chain((b) => headArb(major, b.length).map((h) => concat(h, b)));
const chunked = (major, bytes) => fc.array(strArb(major, bytes), { maxLength: 4 })
  .map((cs) => concat(Uint8Array.of((major << 5) | 31), ...cs, Uint8Array.of(0xff)));
const floatArb = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((b) => Uint8Array.of(0xf9, b >> 8, b & 255)),
  fc.integer({ min: 0, max: 0xffffffff }).map((b) => Uint8Array.of(0xfa, b >>> 24, (b >> 16) & 255, (b >> 8) & 255, b & 255)),
  fc.double().map((d) => { const u = new Uint8Array(9); u[0] = 0xfb; new DataView(u.buffer).setFloat64(1, d); return u; }),
  fc.constantFrom(1, 100000, 1e21, 1e-7, 5e-324, -0, 0.1, 1e300).map((d) => { const u = new Uint8Array(9); u[0] = 0xfb; new DataView(u.buffer).setFloat64(1, d); return u; }),
);
const simpleArb = fc.oneof(fc.integer({ min: 0, max: 23 }).map((n) => Uint8Array.of(0xe0 | n)), fc.integer({ min: 32, max: 255 }).map((n) => Uint8Array.of(0xf8, n)));
const leaf = fc.oneof(intArb, strArb(3, textBytes), strArb(2, fc.uint8Array({ maxLength: 8 })), chunked(3, textBytes),
  chunked(2, fc.uint8Array({ maxLength: 6 })), floatArb, simpleArb);
const itemArb = fc.letrec((tie) => ({
  item: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf,
    fc.array(tie('item'), { maxLength: 4 }).chain((xs) => fc.oneof(
      headArb(4, xs.length).map((h) => concat(h, ...xs)),
      fc.constant(concat(Uint8Array.of(0x9f), ...xs, Uint8Array.of(0xff))))),
    fc.array(fc.tuple(tie('item'), tie('item')), { maxLength: 3 }).chain((es) => fc.oneof(
      headArb(5, es.length).map((h) => concat(h, ...es.flat())),
      fc.constant(concat(Uint8Array.of(0xbf), ...es.flat(), Uint8Array.of(0xff))))),
    fc.tuple(fc.oneof(fc.nat(30), fc.nat(), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })), tie('item'))
      .chain(([n, x]) => headArb(6, n).map((h) => concat(h, x)))),
})).item;

describe('generated CBOR items', () => {
  test('the same text as diagnose()', () => {
    fc.assert(fc.property(itemArb, (bytes) => {
      const r = both(bytes);
      expect(r.cCode, 'C rejected a well-formed item').toBeUndefined();
      expect(r.c).toBe(r.js);
    }), { numRuns: 3000 });
  });
  test('indented: the same text once the layout is taken out', () => {
    // (indentation puts a container's items on lines of their own; chunk lists and strings
    // have no newlines, so removing each newline with its indentation and the space the
    // compact form writes after a comma gives the compact text back)
    fc.assert(fc.property(itemArb, fc.integer({ min: 1, max: 4 }), (bytes, indent) => {
      const flat = /** @type {string} */ (cDiag(bytes, indent)).replace(/\n */g, (m, off, s) => (s[off - 1] === ',' || (s[off - 1] === '_' && '[{'.includes(s[off - 2])) ? ' ' : ''));
      expect(flat).toBe(diagnose(bytes));
    }), { numRuns: 1000 });
  });
  test('cut short or corrupted: both reject it, or both give the same text', () => {
    fc.assert(fc.property(itemArb, fc.nat(), fc.nat(255), (bytes, at, b) => {
      const cut = bytes.subarray(0, at % bytes.length);
      const r1 = both(cut);
      expect(r1.c).toBe(r1.js);
      expect(!!r1.cCode).toBe(!!r1.jsCode);
      const bad = bytes.slice();
      bad[at % bad.length] = b;
      const r2 = both(bad);
      expect(r2.c).toBe(r2.js);
      expect(!!r2.cCode).toBe(!!r2.jsCode);
    }), { numRuns: 2000 });
  });
});

describe('examples', () => {
  test('indefinite lengths, keys of any kind, floats with a fraction', () => {
    const cases = {
      'bf 61 61 9f 01 02 ff 61 62 7f 61 78 61 79 ff ff': '{_ "a": [_ 1, 2], "b": (_ "x", "y")}',
      'a2 01 02 41 01 f5': "{1: 2, h'01': true}",
      'c1 fb 41 d4 52 d9 ec 00 00 00': '1(1363896240.0)',
      '9f ff': '[_ ]',
      '7f ff': '""_',
      '63 e2 82 ac': '"\\u20ac"',
    };
    for (const [h, want] of Object.entries(cases)) {
      expect(cDiag(fromHex(h)), h).toBe(want);
      expect(diagnose(fromHex(h)), h).toBe(want);
    }
  });
  test('MessagePack: the same notation, extensions as ext(T, h\'..\')', () => {
    expect(transcode(pack([new Uint8Array([1, 255]), 1.5, undefined, { 1: null }]), { from: 'msgpack', to: 'json', diag: true }))
      .toBe("[h'01ff', 1.5, undefined, {\"1\": null}]");
    expect(transcode(fromHex('82 01 02 c0 d6 05 00 00 00 01'), { from: 'msgpack', to: 'json', diag: true }))
      .toBe("{1: 2, null: ext(5, h'00000001')}");
  });
});
