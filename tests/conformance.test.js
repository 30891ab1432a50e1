// The msgpack-test-suite corpus (npm `msgpack-test-suite`): every listed encoding must decode to
// the case's value, and pack(value) must produce one of the listed encodings.
import { describe, test, expect } from 'vitest';
import suite from 'msgpack-test-suite/dist/msgpack-test-suite.json';
import { pack, unpack, Unpackr } from 'wirepack';
import { hex, fromHex } from './helpers/bytes.js';

const autoInt = new Unpackr({ mapsAsObjects: true, int64AsType: 'auto' });
const bigInt = new Unpackr({ mapsAsObjects: true, int64AsType: 'bigint' });
const KINDS = ['nil', 'bool', 'binary', 'bignum', 'number', 'string', 'array', 'map', 'timestamp', 'ext'];

const cases = [];
for (const [file, list] of Object.entries(suite)) {
  list.forEach((c, i) => {
    const kind = KINDS.find((k) => k in c);
    cases.push({ name: `${file}#${i} ${kind} ${JSON.stringify(c[kind])}`, kind, c, encodings: c.msgpack.map((m) => m.replace(/-/g, '')) });
  });
}

test('corpus is complete', () => {
  expect(Object.keys(suite).length).toBe(15);
  expect(cases.length).toBe(85);
  for (const { kind } of cases) expect(kind).toBeDefined();
  // every kind is covered
  expect(new Set(cases.map((c) => c.kind))).toEqual(new Set(KINDS));
});

const tsMillis = ([sec, nsec]) => sec * 1000 + Math.floor(nsec / 1e6);

function checkDecoded(kind, c, encHex) {
  const bytes = fromHex(encHex);
  switch (kind) {
    case 'nil': expect(unpack(bytes)).toBe(null); break;
    case 'bool': expect(unpack(bytes)).toBe(c.bool); break;
    case 'binary': {
      const v = unpack(bytes);
      expect(v).toBeInstanceOf(Uint8Array);
      expect(hex(v)).toBe(c.binary.replace(/-/g, ''));
      break;
    }
    case 'number': {
      const v = autoInt.unpack(bytes);
      expect(typeof v).toBe('number');
      expect(v).toBe(c.number);
      expect(unpack(bytes) === c.number || unpack(bytes) === BigInt(c.number)).toBe(true);
      break;
    }
    case 'bignum': {
      if (/^(cf|d3)/.test(encHex)) {
        expect(bigInt.unpack(bytes)).toBe(BigInt(c.bignum));
        expect(unpack(bytes)).toBe(BigInt(c.bignum)); // default int64AsType is 'bigint'
      } else {
        expect(unpack(bytes)).toBe(Number(c.bignum));
      }
      break;
    }
    case 'string': expect(unpack(bytes)).toBe(c.string); break;
    case 'array': expect(unpack(bytes)).toEqual(c.array); break;
    case 'map': {
      const v = unpack(bytes);
      expect(v instanceof Map).toBe(false);
      expect(v).toEqual(c.map);
      break;
    }
    case 'timestamp': {
      const v = unpack(bytes);
      expect(v).toBeInstanceOf(Date);
      expect(v.getTime()).toBe(tsMillis(c.timestamp));
      break;
    }
    case 'ext': {
      const v = unpack(bytes);
      expect(v.type).toBe(c.ext[0]);
      expect(v.data).toBeInstanceOf(Uint8Array);
      expect(hex(v.data)).toBe(c.ext[1].replace(/-/g, ''));
      break;
    }
    default: throw new Error('unknown kind ' + kind);
  }
}

describe('every listed encoding decodes to the value', () => {
  test.each(cases)('$name', ({ kind, c, encodings }) => {
    for (const enc of encodings) {
      try {
        checkDecoded(kind, c, enc);
      } catch (e) {
        e.message = `encoding ${enc}: ${e.message}`;
        throw e;
      }
    }
  });
});

describe('pack(value) is one of the listed encodings', () => {
  test.each(cases)('$name', ({ kind, c, encodings }) => {
    const packed = [];
    switch (kind) {
      case 'nil': packed.push(pack(null)); break;
      case 'bool': packed.push(pack(c.bool)); break;
      case 'binary': packed.push(pack(fromHex(c.binary))); break;
      case 'number': packed.push(pack(c.number)); break;
      case 'bignum':
        if (Number.isSafeInteger(Number(c.bignum))) packed.push(pack(Number(c.bignum)));
        packed.push(pack(BigInt(c.bignum)));
        break;
      case 'string': packed.push(pack(c.string)); break;
      case 'array': packed.push(pack(c.array)); break;
      case 'map': packed.push(pack(c.map)); break;
      case 'timestamp':
        if (c.timestamp[1] % 1e6 === 0) packed.push(pack(new Date(tsMillis(c.timestamp))));
        break;
      case 'ext': packed.push(pack(unpack(fromHex(encodings[0])))); break;
    }
    for (const p of packed) expect(encodings).toContain(hex(p));
  });
});

test('pack of the corpus values uses the shortest listed form', () => {
  // The first listed encoding is the canonical (smallest) one for these kinds.
  for (const { kind, c, encodings } of cases) {
    if (['string', 'array', 'map', 'binary', 'nil', 'bool'].includes(kind)) {
      const v = kind === 'binary' ? fromHex(c.binary) : kind === 'nil' ? null : c[kind];
      expect(hex(pack(v)), JSON.stringify(c)).toBe(encodings[0]);
    }
  }
});
