// Which values addExtension({ Class, type, write, read }) applies to, against msgpackr: the first
// extension (the latest added first) whose Class the value is an instance of, unless the value's
// constructor is Object, Array or Map, which msgpackr writes before it looks. A file of its own:
// extensions cannot be removed, and these (for Array, Map, Object, Error and Date among them)
// would change what the other files' values pack to.
import { describe, test, expect } from 'vitest';
import * as msgpackr from 'msgpackr';
import { Packr, addExtension } from 'wirepack';
import { hex } from './helpers/bytes.js';

const both = (ext) => {
  addExtension(ext);
  msgpackr.addExtension(ext);
};
// (records off, and plain objects only inside values compared by decoding: msgpackr writes map16
// headers for them without variableMapSize)
const mine = new Packr({ useRecords: false }), theirs = new msgpackr.Packr({ useRecords: false });
const same = (values) => {
  for (const v of values) expect(hex(mine.pack(v)), v?.constructor?.name).toBe(hex(theirs.pack(v)));
};

describe('addExtension: the values it applies to, as msgpackr', () => {
  class Base {}
  class Tagged extends Base { constructor(t) { super(); this.t = t; } }

  test('the extension added last is tried first, by instanceof; the same Class again replaces its extension', () => {
    both({ Class: Tagged, type: 40, write: (x) => x.t, read: (t) => new Tagged(t) });
    both({ Class: Base, type: 41, write: () => 'base', read: () => new Base() });
    same([new Tagged(9), new Base(), [new Tagged(1)]]);
    expect(mine.unpack(mine.pack(new Tagged(9)))).toBeInstanceOf(Base);
    class Unit { constructor(u) { this.u = u; } }
    both({ Class: Unit, type: 42, write: (x) => x.u, read: (u) => new Unit(u) });
    both({ Class: Unit, type: 43, write: (x) => [x.u], read: (a) => new Unit(a[0]) });
    same([new Unit(1)]);
    expect(hex(mine.pack(new Unit(1)))).toBe('d42b009101');
    expect(mine.unpack(mine.pack(new Unit(1)))).toEqual(new Unit(1));
  });

  test('built-in classes: an extension comes before their own forms, for their subclasses too', () => {
    class MyTypeError extends TypeError {}
    both({ Class: Error, type: 44, write: (e) => e.message, read: (m) => new Error(m) });
    both({ Class: Date, type: 45, write: (d) => d.getTime(), read: (t) => new Date(t) });
    both({ Class: Set, type: 48, write: (m) => m.size, read: (n) => n });
    both({ Class: Uint8Array, type: 49, write: (m) => m.length, read: (n) => n });
    // (a Buffer too where there is one: Node; this file runs in Chromium as well)
    const nodeBuffer = typeof Buffer === 'function' ? [Buffer.from([1, 2])] : [];
    same([new TypeError('x'), new MyTypeError('y'), new Date(5), new Set([1]), new Uint8Array([1, 2]), ...nodeBuffer]);
    expect(mine.unpack(mine.pack(new MyTypeError('y')))).toEqual(new Error('y'));
  });

  test('what has Array or Map for its constructor is an array or a map whatever extension there is', () => {
    class Path extends Array {}
    class Dict extends Map {}
    both({ Class: Array, type: 46, write: (a) => a.length, read: (n) => n });
    both({ Class: Map, type: 47, write: (m) => m.size, read: (n) => n });
    same([[1, 2], Object.create([5, 6]), new Map([[1, 2]]), Path.from([1, 2]), new Dict([[1, 2]])]);
    expect(hex(mine.pack(Object.create([5, 6])))).toBe('920506');
    expect(mine.unpack(mine.pack([[1, 2], Path.from([1, 2]), new Dict([[1, 2]])]))).toEqual([[1, 2], 2, 1]);
  });

  test('a class instance is an Object: an extension for Object takes it, and never what has Object for its constructor', () => {
    class Plain {}
    both({ Class: Object, type: 50, write: () => 'obj', read: (x) => x });
    same([new Plain(), [new Plain()]]);
    // (Object.create({}) has Object for its constructor too: a map of its own properties)
    const child = Object.create({ inherited: 1 });
    child.own = 2;
    const plain = [{ a: 1 }, Object.create(null), child];
    expect(mine.unpack(mine.pack(plain))).toEqual(theirs.unpack(theirs.pack(plain)));
    expect(mine.unpack(mine.pack([new Plain(), { a: 1 }, child]))).toEqual(['obj', { a: 1 }, { own: 2 }]);
    expect(hex(mine.pack(child))).toBe(hex(new msgpackr.Packr({ useRecords: false, variableMapSize: true }).pack(child)));
  });
});
