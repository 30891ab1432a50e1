// Which values addExtension({ Class, tag, encode, decode }) applies to, against cbor-x: the first
// extension (the latest added first) whose Class the value is an instance of, unless the value's
// constructor is Object, Array or Map, which cbor-x writes before it looks. A file of its own:
// extensions cannot be removed, and these (one for Object among them) would change what the
// other files' values encode to.
import { describe, test, expect } from 'vitest';
import * as cborx from 'cbor-x';
import { encode, decode, addExtension } from 'wirepack/cbor';
import { hex } from './helpers/bytes.js';

const both = (ext) => {
  addExtension(ext);
  cborx.addExtension(ext);
};
// (cbor-x gives every plain object a two-byte map header: values here are compared inside arrays
// and tags only)
const same = (values) => {
  for (const v of values) expect(hex(encode(v)), v?.constructor?.name).toBe(hex(cborx.encode(v)));
};

describe('addExtension: the values it applies to, as cbor-x', () => {
  class Shape { constructor(n) { this.n = n; } }
  class Square extends Shape {}
  class Path extends Array {}
  class Base {}
  class Tagged extends Base { constructor(t) { super(); this.t = t; } }

  test('an instance of a subclass takes its base class extension (instanceof)', () => {
    both({ Class: Shape, tag: 43320, encode: (s, enc) => enc([s.n]), decode: (a) => new Shape(a[0]) });
    same([new Square(3), new Shape(4), [new Square(5)]]);
    const back = decode(encode([new Square(3), new Shape(4)]));
    expect(back[0]).toBeInstanceOf(Shape);
    expect(back.map((s) => s.n)).toEqual([3, 4]);
    expect(cborx.decode(encode(new Square(3)))).toBeInstanceOf(Shape);
  });

  test('an Array subclass takes its extension: its class is not lost', () => {
    both({ Class: Path, tag: 43321, encode: (p, enc) => enc(['path', ...p]), decode: (a) => Path.from(a.slice(1)) });
    same([Path.from([1, 2]), [Path.from([3])]]);
    const back = decode(encode(Path.from([1, 2])));
    expect(back).toBeInstanceOf(Path);
    expect([...back]).toEqual([1, 2]);
  });

  test('the extension added last is tried first; the same Class again replaces its extension', () => {
    both({ Class: Tagged, tag: 43322, encode: (x, enc) => enc(x.t), decode: (t) => new Tagged(t) });
    both({ Class: Base, tag: 43323, encode: (_x, enc) => enc('base'), decode: () => new Base() });
    same([new Tagged(9), new Base()]);
    expect(decode(encode(new Tagged(9)))).toBeInstanceOf(Base);
    expect(decode(encode(new Tagged(9)))).not.toBeInstanceOf(Tagged);
    class Unit { constructor(u) { this.u = u; } }
    addExtension({ Class: Unit, tag: 43327, encode: (x) => x.u, decode: (u) => new Unit(u) });
    addExtension({ Class: Unit, tag: 43328, encode: (x) => [x.u], decode: (a) => new Unit(a[0]) });
    expect(hex(encode(new Unit(1)))).toBe('d9a9408101'); // tag 43328
    expect(decode(encode(new Unit(1)))).toEqual(new Unit(1));
  });

  test('arrays, Maps and plain objects are written as themselves whatever extension there is', () => {
    both({ Class: Array, tag: 43324, encode: (_x, enc) => enc('array'), decode: (x) => x });
    both({ Class: Map, tag: 43325, encode: (_x, enc) => enc('map'), decode: (x) => x });
    both({ Class: Object, tag: 43326, encode: (_x, enc) => enc('object'), decode: (x) => x });
    same([[1, [2]], new Map([[1, 2]]), Object.create([5, 6])]);
    // (Object.create({}) has Object for its constructor too: a map of its own properties)
    const child = Object.create({ inherited: 1 });
    child.own = 2;
    const plain = [[1, [2]], new Map([[1, 2]]), { a: 1 }, Object.create(null), child];
    expect(decode(encode(plain))).toEqual(decode(cborx.encode(plain)));
    expect(decode(encode(plain))).toEqual([[1, [2]], new Map([[1, 2]]), { a: 1 }, {}, { own: 2 }]);
    // but a class instance is an Object: the Object extension, added last, is found first
    class Plain {}
    same([new Plain(), new Set([1]), new Date(0), new Square(1), Path.from([1])]);
    expect(decode(encode([new Plain(), new Date(0)]))).toEqual(['object', 'object']);
  });
});
