// Diagnostic notation from C (transcode's `diag` option, the CLI's --diag) against the JS
// diagnose() of wirepack/cbor: the same text for every CBOR input both accept, and both
// reject what one rejects. RFC 8949 Appendix A, generated items of every kind (indefinite
// lengths, chunks, tags, all head sizes, floats by their bits, ill-formed UTF-8) and random
// bytes.
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import { diagnose, DecodeError } from 'wirepack/cbor';
import { pack } from 'wirepack';
import vectors from './vectors/cbor/appendix_a.json';
import { fromHex } from './helpers/bytes.js';
import { cborItem } from './helpers/items.js';
import { transcode } from './helpers/transcode.js';

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

const itemArb = cborItem();

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
