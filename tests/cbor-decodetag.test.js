// A Decoder's decodeTag decides what a tag becomes. C builds two tags itself when nothing else
// decides them (Decoder#cDecodeFlags): tag 1 over a number (a Date) and a record defined where
// it appears (tag 0xdfff). A decodeTag overridden by a subclass, or set on one Decoder, must see
// those tags again. This file registers no tag extension (one would turn the C paths off for
// every Decoder, and extensions cannot be removed), so the fast paths are on here.
import { describe, expect, test } from 'vitest';
import { Encoder, Decoder } from 'wirepack/cbor';

const DATES = new Uint8Array([0x82, 0xc1, 0x1a, 0x55, 0xe3, 0x26, 0xa2, 0xc1, 0xf9, 0x3e, 0x00]); // [1(1440949922), 1(1.5)]
const RECORD = new Encoder({ useRecords: true }).encode({ a: 1 }); // tag 0xdfff [0xe000, ['a'], 1]

/** @param {unknown[]} v */
const times = (v) => v.map((x) => x instanceof Date && x.getTime());

describe('decodeTag and the tags C builds itself', () => {
  test('a Decoder with the built-in decodeTag gets Dates and records from C', () => {
    const d = new Decoder();
    expect(times(d.decode(DATES))).toEqual([1440949922000, 1500]);
    expect(d.decode(RECORD)).toEqual({ a: 1 });
  });

  test('a decodeTag set on one Decoder gets tag 1 and the record tag; other Decoders do not change', () => {
    const d = new Decoder();
    /** @type {number[]} */
    const seen = [];
    /** @type {any} */ (d).decodeTag = function (/** @type {number} */ tag, /** @type {any} */ value, /** @type {any} */ reader) {
      seen.push(tag);
      return tag === 1 ? `1 over ${value}` : Decoder.prototype.decodeTag.call(this, tag, value, reader);
    };
    expect(d.decode(DATES)).toEqual(['1 over 1440949922', '1 over 1.5']);
    expect(d.decode(RECORD)).toEqual({ a: 1 });
    expect(seen).toEqual([1, 1, 0xdfff]);
    const plain = new Decoder();
    expect(times(plain.decode(DATES))).toEqual([1440949922000, 1500]);
    expect(plain.decode(RECORD)).toEqual({ a: 1 });
  });

  test("a subclass's decodeTag gets tag 1", () => {
    class Seconds extends Decoder {
      /** @param {number} tag @param {any} value @param {any} reader */
      decodeTag(tag, value, reader) {
        return tag === 1 ? { seconds: value } : super.decodeTag(tag, value, reader);
      }
    }
    expect(new Seconds().decode(DATES)).toEqual([{ seconds: 1440949922 }, { seconds: 1.5 }]);
  });
});
