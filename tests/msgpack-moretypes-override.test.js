// A user extension registered for a type that moreTypes also reads (0x74, typed arrays) takes
// the payloads instead. On its own in this file: addExtension is global to the module.
import { test, expect } from 'vitest';
import { Packr, Unpackr, addExtension } from 'wirepack';
import { hex } from './helpers/bytes.js';

const MT = { moreTypes: true };

test('an extension registered for type 0x74 reads typed-array payloads instead', () => {
  const bytes = new Packr(MT).pack([new Int8Array([1, 2])]);
  expect(new Unpackr(MT).unpack(bytes)[0]).toBeInstanceOf(Int8Array);
  addExtension({ Class: class Never {}, type: 0x74, pack: () => new Uint8Array(0), unpack: (data) => ['mine', hex(data)] });
  expect(new Unpackr(MT).unpack(bytes)).toEqual([['mine', '000102']]);
});
