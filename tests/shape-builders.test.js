// Objects of one shape are built in tiers within a call: the first key by key in dictionary mode,
// the next ones key by key, then by a generated constructor (from the third in a call), and, past
// 64 in one call or 1,024 over all calls, by a generated constructor that reads the common tape
// entries (short ASCII strings, small integers, floats, null, value-cache and bundled strings)
// itself. Every tier, and the eval-free builder (codegen: false), must give the same objects,
// whatever the values around those common ones.
import { describe, test, expect } from 'vitest';
import { Packr, Unpackr } from 'wirepack';
import { Encoder, Decoder } from 'wirepack/cbor';
import { runtime } from '../js/src/runtime.js';

/** Object i of a shape whose values cover every kind of tape entry, the inlined ones and not. */
function row(i) {
  return {
    ascii: 'ab' + i,
    empty: '',
    text: 'ünï ' + i,
    long: 'x'.repeat(40 + (i % 3)),
    small: i - 75,
    int32: 100000000 + i,
    neg: -(2 ** 31) + i,
    big: 2 ** 40 + i,
    float: i + 0.5,
    zero: i % 2 ? -0 : 0,
    nan: NaN,
    inf: -Infinity,
    nil: null,
    undef: undefined,
    yes: true,
    no: false,
    list: [i, 'a', null],
    nested: { k: i, s: 'v' },
    bin: new Uint8Array([i & 255, 1, 2]),
    when: new Date(1e12 + i),
    __proto__x: 'not the prototype',
  };
}

const doc = Array.from({ length: 150 }, (_, i) => row(i));

// [name, make(): { encode(value), decoder(options), negZero }]; MessagePack records: the decoder
// shares the encoder's structures, as a Packr and an Unpackr given the same array do. negZero:
// whether -0 comes back as -0 (MessagePack writes it as the integer 0, as msgpackr does)
const formats = [
  ['MessagePack, maps as objects', () => {
    const p = new Packr({ useRecords: false });
    return { encode: (v) => p.pack(v), decoder: (o) => new Unpackr({ useRecords: false, ...o }), negZero: false };
  }],
  ['MessagePack records', () => {
    const structures = [];
    const p = new Packr({ structures });
    return { encode: (v) => p.pack(v), decoder: (o) => new Unpackr({ structures, ...o }), negZero: false };
  }],
  ['CBOR', () => {
    const e = new Encoder({ useRecords: false });
    return { encode: (v) => e.encode(v), decoder: (o) => new Decoder({ useRecords: false, ...o }), negZero: true };
  }],
  ['CBOR records', () => {
    const e = new Encoder({ useRecords: true });
    return { encode: (v) => e.encode(v), decoder: (o) => new Decoder({ useRecords: true, ...o }), negZero: true };
  }],
];

/** Same values, with -0 and +0 told apart (binaries by their bytes: a Buffer in Node). */
function expectSame(got, want, negZero) {
  const plain = (rows) => rows.map((o) => ({ ...o, bin: [...o.bin], zero: negZero ? o.zero : 0 }));
  expect(plain(got)).toEqual(plain(want));
  got.forEach((o, i) => {
    expect(Object.is(o.zero, negZero ? want[i].zero : 0)).toBe(true);
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(Object.keys(o)).toEqual(Object.keys(want[i]));
  });
}

describe.each(formats)('%s', (_name, make) => {
  test('every tier builds the same objects, with code generation and without', () => {
    const f = make();
    const bytes = f.encode(doc);
    for (const opts of [{}, { codegen: false }]) {
      const dec = f.decoder(opts);
      for (let k = 0; k < 3; k++) expectSame(dec.decode(bytes), doc, f.negZero);
    }
  });

  test('a shape built once a call gets the same objects after 1,100 calls (the other way to the second constructor)', () => {
    const f = make();
    const one = [row(3), { ...row(4), extra: 1 }]; // each shape once a call
    const bytes = f.encode(one);
    const dec = f.decoder({});
    const fastBefore = runtime().fast;
    for (let k = 0; k < 1100; k++) {
      const back = dec.decode(bytes);
      if (k % 100 === 0 || k > 1090) expectSame(back, one, f.negZero);
    }
    expect(runtime().fast).toBeGreaterThan(fastBefore); // (the rule did give a shape the second form)
  });

  test('a string whose length is in the next tape word, read by a constructor that inlines short ones', () => {
    // 0xffffff bytes and more: the STRA entry's length does not fit its word
    const rows = Array.from({ length: 80 }, (_, i) => ({ a: 's' + i, b: i }));
    rows.push({ a: 'L'.repeat(0xffffff + 3), b: -1 }, { a: 'after', b: 2 });
    const f = make();
    const back = f.decoder({}).decode(f.encode(rows));
    expect(back.length).toBe(82);
    expect(back[80].a.length).toBe(0xffffff + 3);
    expect(back[80].a === rows[80].a).toBe(true);
    expect(back[80].b).toBe(-1);
    expect(back.slice(0, 80)).toEqual(rows.slice(0, 80));
    expect(back[81]).toEqual({ a: 'after', b: 2 });
    // the memory this grew goes now, not 256 calls into a test after this one that counts calls on
    // one runtime (its keeper would replace it then: runtime.js, MemoryKeeper)
    if (runtime().keeper.wroteBig) runtime().keeper.release();
  });
});

test('codegen: false never runs a generated constructor, not even one that another Unpackr made', () => {
  const bytes = new Packr({ useRecords: false }).pack(doc);
  new Unpackr({ useRecords: false }).decode(bytes); // generates the row shape's constructors
  const made = runtime().shapes.filter((sh) => sh && sh.ctor !== null);
  expect(made.length).toBeGreaterThan(0);
  let calls = 0;
  for (const sh of made) {
    const ctor = sh.ctor;
    sh.ctor = (r) => {
      calls++;
      return ctor(r);
    };
  }
  expectSame(new Unpackr({ useRecords: false, codegen: false }).decode(bytes), doc, false);
  expect(calls).toBe(0);
  expectSame(new Unpackr({ useRecords: false }).decode(bytes), doc, false);
  expect(calls).toBeGreaterThan(0);
});

describe('constructors past the runtime\'s first 256 (CODEGEN_MAX)', () => {
  /** The runtime's shape with these keys (maps as objects: the C tables' shapes, mirrored). */
  const shapeOf = (keys) => runtime().shapes.find((sh) => sh && sh.keys.join('\u0000') === keys.join('\u0000'));
  /** 300 shapes each built once a call, decoded three times: the runtime's cap is then used up. */
  function useUpTheCap(encode, decode, tag) {
    const many = Array.from({ length: 300 }, (_, i) => ({ [tag + 'cap' + i]: i, [tag + 'cap' + i + 'b']: 'v' }));
    const bytes = encode(many);
    for (let k = 0; k < 3; k++) expect(decode(bytes)).toEqual(many);
    expect(runtime().compiled).toBeGreaterThanOrEqual(256);
  }

  test.each([
    ['MessagePack', () => ({ tag: 'm', encode: (v) => new Packr({ useRecords: false }).pack(v), decoder: new Unpackr({ useRecords: false }) })],
    ['CBOR', () => ({ tag: 'c', encode: (v) => new Encoder({ useRecords: false }).encode(v), decoder: new Decoder({ useRecords: false }) })],
  ])('%s: a shape of small messages gets one after 1,024 calls; the same shape in large inputs does not', (_name, make) => {
    const { tag, encode, decoder } = make(); // (keys of their own: the formats share the runtime's shapes)
    const decode = (b) => decoder.decode(b);
    const generation = runtime().generation;
    useUpTheCap(encode, decode, tag);
    const [hotA, hotB, coldA, coldB] = ['hotA', 'hotB', 'coldA', 'coldB'].map((k) => tag + k);
    const small = JSON.parse(`{"${hotA}":1,"${hotB}":"x","__proto__":"own"}`); // (an own __proto__ key)
    const bytes = encode(small);
    expect(bytes.length).toBeLessThanOrEqual(4096);
    const check = (back) => {
      expect(back).toEqual(small);
      expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
      expect(Object.keys(back)).toEqual([hotA, hotB, '__proto__']);
    };
    for (let k = 0; k < 1000; k++) check(decode(bytes));
    expect(shapeOf([hotA, hotB, '__proto__']).ctor).toBe(null); // (not yet: past the cap, only once hot)
    for (let k = 0; k < 100; k++) check(decode(bytes));
    expect(shapeOf([hotA, hotB, '__proto__']).ctor).not.toBe(null);
    // one object of another shape a call, in a message of more than 4,096 bytes
    const large = [{ [coldA]: 1, [coldB]: 'y' }, 'z'.repeat(5000)];
    const big = encode(large);
    for (let k = 0; k < 1100; k++) expect(decode(big)[0]).toEqual(large[0]);
    expect(shapeOf([coldA, coldB]).ctor).toBe(null);
    expect(runtime().generation).toBe(generation); // (the tables were not emptied in between: the cap held)
  });
});

describe('past the cap, shapes used a few times in a call get no constructor', () => {
  const shapeOf = (keys) => runtime().shapes.find((sh) => sh && sh.keys.join('\u0000') === keys.join('\u0000'));
  // A message of many shapes, each used three times, compiled a constructor for every one of
  // them, call after call (the tables fill and start again): hostile input could make every call
  // spend tens of microseconds per three objects. Past the cap, a shape is compiled once it has
  // built more than 64 objects past the second use of a call (in one call, or over many).
  test.each([
    ['MessagePack', (v) => new Packr({ useRecords: false }).pack(v), new Unpackr({ useRecords: false })],
    ['CBOR', (v) => new Encoder({ useRecords: false }).encode(v), new Decoder({ useRecords: false })],
  ])('%s', (name, encode, decoder) => {
    const tag = name[0] + 'few';
    const many = Array.from({ length: 300 }, (_, i) => ({ [tag + i]: i, [tag + i + 'b']: 'v' }));
    const manyBytes = encode(many);
    for (let k = 0; k < 3; k++) expect(decoder.decode(manyBytes)).toEqual(many);
    const keys = Array.from({ length: 32 }, (_, i) => tag + 'k' + i);
    const pairs = [];
    for (let a = 0; a < 32; a++) for (let b = 0; b < 32; b++) if (a !== b) for (let r = 0; r < 3; r++) pairs.push({ [keys[a]]: r, [keys[b]]: -r - 1 });
    const hot = Array.from({ length: 70 }, (_, i) => ({ [tag + 'hot']: i, [tag + 'hot2']: 'x' }));
    const bytes = encode([pairs, hot]);
    const generation = runtime().generation;
    const compiled = runtime().compiled, fast = runtime().fast;
    expect(compiled).toBeGreaterThanOrEqual(256);
    expect(decoder.decode(bytes)).toEqual([pairs, hot]);
    expect(runtime().generation).toBe(generation); // (the same tables: the cap held throughout)
    expect(runtime().compiled).toBe(compiled + 1); // the hot shape alone
    expect(runtime().fast).toBe(fast < 64 ? fast + 1 : fast); // (FAST_MAX)
    expect(shapeOf([keys[0], keys[1]]).ctor).toBe(null);
    expect(shapeOf([tag + 'hot', tag + 'hot2']).ctor).not.toBe(null);
    // a shape used three times in each of many calls (a stream of small messages) gets one once
    // it has built more than 64 past the second use of a call: on the 65th call here
    const few = Array.from({ length: 3 }, (_, i) => ({ [tag + 'rec']: i, [tag + 'rec2']: 'y' }));
    const fewBytes = encode(few);
    for (let k = 0; k < 64; k++) expect(decoder.decode(fewBytes)).toEqual(few);
    expect(shapeOf([tag + 'rec', tag + 'rec2']).ctor).toBe(null);
    expect(decoder.decode(fewBytes)).toEqual(few);
    expect(shapeOf([tag + 'rec', tag + 'rec2']).ctor).not.toBe(null);
    expect(runtime().generation).toBe(generation);
  });
});

test('value-cache and bundled strings, read by the constructor that inlines the common entries, as r.v() reads them', async () => {
  const { TapeReader } = await import('../js/src/decode.js');
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
  // 80 records in one call (past 64: the second constructor), short strings that repeat (the
  // value cache's: an input of at most 4 KB), others that do not, and numbers between them
  const rowsOf = (k) => Array.from({ length: 80 }, (_, i) => ({ ['w' + k]: words[i % 5], n: i, u: 'ü' + i, s: 'str' + i, x: null }));
  const count = (name) => {
    const orig = TapeReader.prototype[name];
    let n = 0;
    TapeReader.prototype[name] = function (word) {
      n++;
      return orig.call(this, word);
    };
    return { calls: () => n, restore: () => (TapeReader.prototype[name] = orig) };
  };
  const cases = [[{ useRecords: false }, 'vstr'], [{ structures: [] }, 'vstr'], [{ bundleStrings: true, structures: [] }, 'bref']];
  for (const [k, [opts, reader]] of cases.entries()) {
    const rows = rowsOf(k); // (a shape of its own: it gets the second constructor in this call)
    const bytes = new Packr(opts).pack(rows);
    expect(bytes.length).toBeLessThanOrEqual(4096);
    const c = count(reader);
    const fastBefore = runtime().fast;
    try {
      for (const codegen of [true, false]) expect(new Unpackr({ ...opts, codegen }).unpack(bytes)).toEqual(rows);
      expect(runtime().fast).toBeGreaterThan(fastBefore);
      expect(c.calls()).toBeGreaterThan(80);
    } finally {
      c.restore();
    }
  }
});
