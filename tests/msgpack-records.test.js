// msgpackr's records on the encode side: a Packr writes plain objects as record ids after a
// definition (d4 72 id [keys]) exactly as msgpackr 2.1.4's Packr does with the same options,
// byte for byte (msgpackr with variableMapSize, since wirepack always writes the smallest map
// header), and both decoders read the bytes of the other.
import { describe, test, expect } from 'vitest';
import fc from 'fast-check';
import * as msgpackr from 'msgpackr';
import { Packr, Unpackr, pack, addExtension, DecodeError } from 'wirepack';
import { hex, fromHex } from './helpers/bytes.js';
import { canon, holds } from './helpers/canon.js';

import example4 from './vectors/example4.json';
import twitter from './vectors/example-twitter.json';
import sampleLarge from './vectors/sample-large.json';

const RUNS = { numRuns: 150 };
const same = (got, want) => expect(canon(got)).toEqual(canon(want, { negZeroIsZero: true }));
/** msgpackr's bytes for the same options (smallest map headers, as wirepack) */
const mrBytes = (opts, v) => hex(new msgpackr.Packr({ variableMapSize: true, ...opts }).pack(v));
const wpBytes = (opts, v) => hex(new Packr(opts).pack(v));

// msgpackr renames a '__proto__' key, so keep it out of cross-implementation data
const key = fc.oneof(fc.constantFrom('a', 'b', 'c', 'id', 'name', 'value'), fc.string({ maxLength: 8 })).filter((k) => k !== '__proto__');
const leaf = fc.oneof(
  fc.constant(null), fc.boolean(), fc.integer({ min: -200, max: 300 }), fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 20 }),
);
const tree = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 12 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 6, noNullPrototype: true }),
})).value;
/** many objects of few shapes, and of many shapes */
const objects = fc.array(fc.dictionary(key, leaf, { maxKeys: 5, noNullPrototype: true }), { maxLength: 150 });

describe('exact bytes', () => {
  test('a definition the first time, the id after; integers 0x40..0x7f as uint8', () => {
    const v = [{ a: 1, b: 2 }, { a: 0x41, b: 0x7f }, { c: 0x3f }];
    expect(wpBytes({}, v)).toBe('93' + 'd4724092a161a1620102' + '40cc41cc7f' + 'd4724191a1633f');
    expect(wpBytes({}, v)).toBe(mrBytes({}, v));
  });

  test('useRecords: false writes maps and fixints up to 0x7f (the free pack too)', () => {
    const v = [{ a: 0x41 }, 0x7f];
    expect(wpBytes({ useRecords: false }, v)).toBe('9281a161417f');
    expect(hex(pack(v))).toBe('9281a161417f');
    expect(hex(pack(v))).toBe(hex(msgpackr.pack(v)).replace('de0001', '81'));
  });

  test('records on: 0x40..0x7f are never fixints, even outside objects', () => {
    for (const n of [0x3f, 0x40, 0x55, 0x7f, 0x80]) {
      expect(wpBytes({}, n)).toBe(mrBytes({}, n));
      expect(wpBytes({ useRecords: () => false }, [n])).toBe(mrBytes({ useRecords: () => false }, [n]));
    }
    expect(wpBytes({}, 0x40)).toBe('cc40');
  });

  test('same keys in another order are another record; nested records', () => {
    const v = [{ a: 1, b: { c: [{ a: 1, b: 2 }] } }, { b: 1, a: 2 }, { a: 3, b: 4 }];
    expect(wpBytes({}, v)).toBe(mrBytes({}, v));
  });

  test('own ids cycle after maxOwnStructures (64 by default), one byte each', () => {
    const many = [];
    for (let i = 0; i < 200; i++) many.push({ ['k' + (i % 90)]: i });
    expect(wpBytes({}, many)).toBe(mrBytes({}, many));
    const b = new Packr().pack(many);
    // the 65th shape takes id 0x40 again
    expect(hex(b)).toContain('d4724091a36b3634cc40');
    for (const maxOwnStructures of [1, 5, 32, 63]) {
      expect(wpBytes({ maxOwnStructures }, many)).toBe(mrBytes({ maxOwnStructures }, many));
    }
  });

  test('two-byte record ids (more than 64 ids)', () => {
    const many = [];
    for (let i = 0; i < 300; i++) many.push({ ['k' + (i % 250)]: i, x: i & 1 ? 'y' : 0x50 });
    for (const opts of [{ maxOwnStructures: 200 }, { maxOwnStructures: 8000 }, { maxOwnStructures: 65 }]) {
      const bytes = wpBytes(opts, many);
      expect(bytes).toBe(mrBytes(opts, many));
      // d5 72 (id & 0x1f) + 0x60, high byte
      expect(bytes).toContain('d57260');
      same(new msgpackr.Unpackr(opts).unpack(new Packr(opts).pack(many)), many);
    }
  });

  test('objects with no keys, with many keys, with numeric keys', () => {
    const big = {};
    for (let i = 0; i < 40; i++) big['key' + i] = i;
    const v = [{}, {}, big, { 1: 'a', 0: 'b', z: 1 }, big];
    expect(wpBytes({}, v)).toBe(mrBytes({}, v));
  });

  test('class instances and null-prototype objects are records too', () => {
    class Point { constructor(x, y) { this.x = x; this.y = y; } }
    const np = Object.create(null);
    np.x = 1;
    np.y = 2;
    const v = [new Point(1, 2), np, { x: 3, y: 4 }];
    expect(wpBytes({}, v)).toBe(mrBytes({}, v));
  });
});

describe('documents (fixtures): the bytes of msgpackr with each record option', () => {
  test.each([['example4', example4], ['example-twitter', twitter], ['sample-large', sampleLarge]])('%s', (_name, v) => {
    for (const opts of [{}, { useRecords: false }, { maxOwnStructures: 200 }, { maxOwnStructures: 2 }, { sequential: true },
      { bundleStrings: true }, { structuredClone: true }]) {
      expect(wpBytes(opts, v)).toBe(mrBytes(opts, v));
    }
    // (a structures array is updated by the packer: each gets its own)
    expect(wpBytes({ structures: [], maxSharedStructures: 8 }, v)).toBe(mrBytes({ structures: [], maxSharedStructures: 8 }, v));
    const p = new Packr();
    same(p.unpack(p.pack(v)), v);
  });
});

describe('useRecords', () => {
  test('a function chooses records per object', () => {
    const useRecords = (o) => 'id' in o;
    const v = [{ id: 1, a: 2 }, { b: 3 }, { id: 2, a: 3 }, { b: 0x44 }];
    expect(wpBytes({ useRecords }, v)).toBe(mrBytes({ useRecords }, v));
    expect(wpBytes({ useRecords }, v)).toBe('94d4724092a26964a1610102' + '81a16203' + '400203' + '81a162cc44');
  });

  test('property: wirepack bytes = msgpackr bytes for random documents', () => {
    const useRecords = (o) => Object.keys(o).length > 1;
    fc.assert(fc.property(tree, objects, (t, objs) => {
      const v = [t, objs];
      for (const opts of [{}, { useRecords: false }, { useRecords }, { maxOwnStructures: 3 }, { maxOwnStructures: 100 }]) {
        expect(wpBytes(opts, v)).toBe(mrBytes(opts, v));
      }
    }), RUNS);
  });
});

describe('one Packr, message after message', () => {
  // what a call leaves behind for the next (own ids forgotten, or kept when sequential; the ring
  // of transitions with own ids, which wraps within a message and, sequential, across messages)
  const optionSets = [
    () => ({}), () => ({ maxOwnStructures: 3 }), () => ({ sequential: true }), () => ({ sequential: true, maxOwnStructures: 2 }),
    () => ({ structures: [], maxSharedStructures: 2, maxOwnStructures: 3 }),
  ];
  const keysOf = (s) => Array.from(s, (k) => (k ? [...k] : k));

  test("property: msgpackr's bytes and structures after every pack", () => {
    fc.assert(fc.property(fc.array(fc.tuple(tree, objects), { minLength: 1, maxLength: 5 }), fc.integer({ min: 0, max: optionSets.length - 1 }), (docs, k) => {
      const w = new Packr(optionSets[k]()), m = new msgpackr.Packr({ variableMapSize: true, ...optionSets[k]() });
      for (const d of docs) {
        expect(hex(w.pack(d))).toBe(hex(m.pack(d)));
        expect(keysOf(w.structures)).toEqual(keysOf(m.structures));
      }
    }), { numRuns: 100 });
  });

  test('sequential: a pack that throws (a getter) defines nothing a later message refers to', () => {
    // the ids a failed pack gave new shapes never reach the decoder; later messages referred to
    // them (msgpackr's do too: 11 of 51 messages unreadable in this test)
    const shape = (i) => ({ a: i, ['k' + (i % 9)]: { x: i, y: [i] }, b: 'str' + i });
    const bad = (i) => ({ ['n' + i]: 1, get boom() { throw new Error('getter'); } });
    for (const opts of [{ sequential: true }, { sequential: true, maxOwnStructures: 2 }, { sequential: true, maxOwnStructures: 40 }]) {
      const p = new Packr(opts), u = new Unpackr({ sequential: true });
      for (let i = 0; i < 60; i++) {
        const v = [shape(i), shape(i % 5)];
        if (i % 7 === 3) expect(() => p.pack([shape(i + 100), bad(i), shape(i + 1000)])).toThrow('getter');
        expect(u.unpack(p.pack(v))).toEqual(v);
      }
    }
  });

  test('property: progressiveRecords is accepted and ignored (msgpackr numbers its ids in another order with it); msgpackr reads the bytes', () => {
    fc.assert(fc.property(fc.array(fc.tuple(tree, objects), { minLength: 1, maxLength: 4 }), fc.boolean(), (docs, sequential) => {
      const w = new Packr({ progressiveRecords: true, sequential }), plain = new Packr({ sequential });
      const m = new msgpackr.Unpackr({ sequential, mapsAsObjects: true }), m2 = new msgpackr.Unpackr({ sequential, mapsAsObjects: true });
      const mp = new msgpackr.Packr({ progressiveRecords: true, sequential }), u = new Unpackr({ sequential, mapsAsObjects: true });
      let theirsOk = true;
      for (const d of docs) {
        const b = w.pack(d);
        expect(hex(b)).toBe(hex(plain.pack(d)));
        same(m.unpack(b), d);
        if (!theirsOk) continue;
        const theirs = mp.pack(d);
        // msgpackr's progressiveRecords can refer to a record before defining it, which its own
        // Unpackr cannot read either ([[{'': [{a: {a: [], '!': 0}, '!': null}]}], []] after a
        // message with {a}: found with FC_SEED=123): wirepack's then throws, and msgpackr's
        // messages after it are left out (with sequential, they build on it)
        theirsOk = holds(() => same(m2.unpack(theirs), d));
        if (theirsOk) same(u.unpack(theirs), d);
        else expect(() => u.unpack(theirs)).toThrow(DecodeError);
      }
    }), { numRuns: 50 });
  });

  test("msgpackr's progressiveRecords bytes that use a record before defining it are an error, as for msgpackr's own Unpackr", () => {
    const mp = new msgpackr.Packr({ progressiveRecords: true });
    mp.pack([[], [{ a: 0 }]]);
    const d = [[{ '': [{ a: { a: [], '!': 0 }, '!': null }] }], []];
    const b = mp.pack(d);
    // [[40({'': [41, 41-definition …]})]]: record 0x41 is used at byte 8 and defined at byte 9
    expect(hex(b)).toBe('9291d4724091a09141d4724192a161a1219000c090');
    expect(() => new msgpackr.Unpackr({ mapsAsObjects: true }).unpack(b)).toThrow(/end of buffer not reached/);
    expect(() => new Unpackr({ mapsAsObjects: true }).unpack(b)).toThrow(expect.objectContaining({ code: 'TRAILING_DATA' }));
    // wirepack's Packr writes d whole, with or without progressiveRecords
    same(new msgpackr.Unpackr({ mapsAsObjects: true }).unpack(new Packr({ progressiveRecords: true }).pack(d)), d);
  });

  test('more shapes than own ids, in one message and across a sequential stream', () => {
    const shapes = (n, from) => Array.from({ length: n }, (_, i) => ({ ['k' + (from + i)]: i, same: true }));
    for (const opts of [{}, { maxOwnStructures: 5 }, { sequential: true }, { sequential: true, maxOwnStructures: 5 }]) {
      const w = new Packr(opts), m = new msgpackr.Packr({ variableMapSize: true, ...opts });
      for (const d of [shapes(100, 0), shapes(7, 50), shapes(3, 0), [shapes(70, 10), shapes(2, 95)]]) {
        expect(hex(w.pack(d))).toBe(hex(m.pack(d)));
        expect(keysOf(w.structures)).toEqual(keysOf(m.structures));
      }
    }
  });
});

describe('shared structures', () => {
  test('structures: shared ids are written without definitions', () => {
    const structures = [['a', 'b'], ['x']];
    const v = [{ a: 1, b: 2 }, { x: 1 }, { y: 1 }];
    const bytes = wpBytes({ structures: structures.map((s) => s.slice()) }, v);
    expect(bytes).toBe(mrBytes({ structures: structures.map((s) => s.slice()) }, v));
    // {y} is new: with room for shared structures it becomes shared id 0x42 (no definition)
    expect(bytes).toBe('93400102410142' + '01');
    const mr = new msgpackr.Unpackr({ structures: [['a', 'b'], ['x'], ['y']] });
    same(mr.unpack(fromHex(bytes)), v);
  });

  test('the structures array is updated (new shared structures appended)', () => {
    const structures = [['a']];
    const p = new Packr({ structures });
    p.pack([{ a: 1 }, { b: 2 }, { c: 3 }]);
    expect(structures.map((k) => [...k])).toEqual([['a'], ['b'], ['c']]);
    // as msgpackr marks them
    expect(structures[1].isShared).toBe(true);
    expect(structures[1].highByte).toBe(-1);
    expect(structures.sharedLength).toBe(3);
  });

  test('a structures array msgpackr has packed with (its own transitions left on it) is used as it is', () => {
    const v = Array.from({ length: 40 }, (_, i) => ({ ['k' + i]: i }));
    const structures = [];
    new msgpackr.Packr({ structures }).pack(v);
    expect(structures.transitions).toBeDefined(); // msgpackr's, not wirepack's
    const bytes = new Packr({ structures }).pack(v);
    expect(hex(bytes)).toBe(hex(new msgpackr.Packr({ structures: structures.map((k) => k.slice()) }).pack(v)));
    expect(new Unpackr({ structures }).unpack(bytes)).toEqual(v);
  });

  test('maxSharedStructures: further structures are own ones (with definitions)', () => {
    const opts = () => ({ structures: [], maxSharedStructures: 2 });
    const v = [{ a: 1 }, { b: 2 }, { c: 3 }, { a: 4 }, { c: 5 }];
    expect(wpBytes(opts(), v)).toBe(mrBytes(opts(), v));
    expect(wpBytes(opts(), v)).toBe('95' + '4001' + '4102' + 'd4724291a16303' + '4004' + '4205');
  });

  test('two-byte shared ids (maxSharedStructures above 32)', () => {
    const structures = [];
    for (let i = 0; i < 100; i++) structures.push(['s' + i]);
    const v = structures.map((k, i) => ({ [k[0]]: i }));
    v.push({ t: 1 }, { t: 2 });
    const opts = () => ({ structures: structures.map((s) => s.slice()), maxSharedStructures: 200 });
    const bytes = wpBytes(opts(), v);
    expect(bytes).toBe(mrBytes(opts(), v));
    expect(bytes).toContain('6001' + 'cc40'); // id 0x80: 0x60, high byte 1; then 64 as uint8
    // {t} became shared structure 100 (id 0xa4: 0x64, high byte 2), without a definition
    expect(bytes).toContain('6402' + '01');
    const o = opts();
    const packed = new Packr(o).pack(v);
    expect(o.structures.length).toBe(101);
    // (msgpackr's decoder needs two-byte shared structures loaded through getStructures)
    same(new msgpackr.Unpackr({ getStructures: () => o.structures.map((k) => [...k]), maxSharedStructures: 200 }).unpack(packed), v);
  });

  test('shouldShareStructure: declined structures are own ones', () => {
    const shouldShareStructure = (keys) => keys[0] !== 'tmp';
    const opts = () => ({ structures: [], shouldShareStructure });
    const v = [{ tmp: 1 }, { a: 1 }, { tmp: 2 }, { b: 2 }];
    expect(wpBytes(opts(), v)).toBe(mrBytes(opts(), v));
  });

  test('more shared structures than maxSharedStructures throws', () => {
    const structures = [['a'], ['b'], ['c']];
    expect(() => new Packr({ structures, maxSharedStructures: 2 }).pack({ a: 1 })).toThrow(
      'Shared structures is larger than maximum shared structures, try increasing maxSharedStructures to 3');
    expect(() => new msgpackr.Packr({ structures: [['a'], ['b'], ['c']], maxSharedStructures: 2 }).pack({ a: 1 })).toThrow(
      'Shared structures is larger than maximum shared structures, try increasing maxSharedStructures to 3');
  });

  test('option limits throw like msgpackr', () => {
    expect(() => new Packr({ maxSharedStructures: 8161 })).toThrow('Maximum maxSharedStructure is 8160');
    expect(() => new msgpackr.Packr({ maxSharedStructures: 8161 })).toThrow('Maximum maxSharedStructure is 8160');
    expect(() => new Packr({ maxSharedStructures: 8160, maxOwnStructures: 33 })).toThrow('Maximum maxSharedStructure + maxOwnStructure is 8192');
    expect(() => new msgpackr.Packr({ maxSharedStructures: 8160, maxOwnStructures: 33 })).toThrow('Maximum maxSharedStructure + maxOwnStructure is 8192');
    expect(() => new Packr({ maxSharedStructures: 8160, maxOwnStructures: 32 })).not.toThrow();
  });

  test('saveStructures / getStructures: saved after a pack that adds some, loaded before', () => {
    let stored = null;
    const saves = [];
    const opts = () => ({
      getStructures: () => (stored ? stored.map((s) => s.slice()) : []),
      saveStructures: (s, isCompatible) => { saves.push(typeof isCompatible); stored = s.slice(0, s.sharedLength); },
    });
    const p = new Packr(opts());
    const b1 = p.pack({ a: 1, b: 2 });
    expect(hex(b1)).toBe('400102');
    expect(stored.map((k) => [...k])).toEqual([['a', 'b']]);
    expect(saves).toEqual(['function']);
    const b2 = p.pack([{ a: 3, b: 4 }, { c: 5 }]);
    expect(hex(b2)).toBe('92400304' + '4105');
    expect(stored.map((k) => [...k])).toEqual([['a', 'b'], ['c']]);
    // nothing new: no save
    p.pack({ c: 1 });
    expect(saves.length).toBe(2);
    // another packer loads them
    const q = new Packr(opts());
    expect(hex(q.pack({ c: 9 }))).toBe('4109');
    // and msgpackr reads the bytes with the same structures
    same(new msgpackr.Unpackr({ structures: stored }).unpack(b2), [{ a: 3, b: 4 }, { c: 5 }]);
    // the same flow in msgpackr gives the same bytes
    stored = null;
    const m = new msgpackr.Packr(opts());
    expect(hex(m.pack({ a: 1, b: 2 }))).toBe('400102');
    expect(hex(m.pack([{ a: 3, b: 4 }, { c: 5 }]))).toBe('924003044105');
  });

  test('isCompatible and a declined save: merge what another writer saved and pack again', () => {
    const run = (P) => {
      let stored = [['x']]; // already saved by another writer
      const log = [];
      const p = new P({
        getStructures: () => { log.push('load'); return stored.map((s) => s.slice()); },
        saveStructures: (s, isCompatible) => {
          if (log.filter((e) => e.startsWith('save')).length === 0) {
            // someone else added ['y'] meanwhile: not compatible with what this packer loaded
            stored = [['x'], ['y']];
            log.push('save compatible ' + isCompatible(stored.map((k) => k.slice())));
            return false;
          }
          log.push('save compatible ' + isCompatible(stored));
          stored = s.slice(0, s.sharedLength).map((k) => k.slice());
          return true;
        },
      });
      const b = hex(p.pack({ z: 1 }));
      const b2 = hex(p.pack([{ x: 1 }, { y: 2 }, { z: 3 }]));
      return { b, b2, log, stored };
    };
    const wp = run(Packr);
    expect(wp).toEqual(run(msgpackr.Packr));
    // re-packed against the merged structures: z takes id 0x42
    expect(wp.b).toBe('4201');
    expect(wp.b2).toBe('93400141024203');
    expect(wp.stored).toEqual([['x'], ['y'], ['z']]);
    expect(wp.log).toEqual(['load', 'save compatible false', 'save compatible true']);
  });

  test('a throwing saveStructures leaves the structures as last saved', () => {
    let fail = true;
    const p = new Packr({ structures: [], saveStructures: () => { if (fail) throw new Error('disk full'); } });
    expect(() => p.pack({ a: 1 })).toThrow('disk full');
    fail = false;
    expect(hex(p.pack({ b: 1 }))).toBe('4001');
  });
});

describe('sequential', () => {
  test('definitions persist across calls (a stream), as msgpackr', () => {
    const w = new Packr({ sequential: true });
    const m = new msgpackr.Packr({ sequential: true, variableMapSize: true });
    const msgs = [{ a: 1 }, { a: 2 }, { b: 1 }, [{ a: 3 }, { b: 2 }, { c: 0x60 }]];
    const out = msgs.map((v) => hex(w.pack(v)));
    expect(out).toEqual(msgs.map((v) => hex(m.pack(v))));
    expect(out.slice(0, 3)).toEqual(['d4724091a16101', '4002', 'd4724191a16201']);
    // a sequential msgpackr Unpackr reads the stream
    const u = new msgpackr.Unpackr({ sequential: true });
    msgs.forEach((v, i) => same(u.unpack(fromHex(out[i])), v));
  });

  test('property: a stream of random documents gives msgpackr bytes', () => {
    fc.assert(fc.property(fc.array(objects, { maxLength: 6 }), (docs) => {
      const w = new Packr({ sequential: true });
      const m = new msgpackr.Packr({ sequential: true, variableMapSize: true });
      for (const d of docs) expect(hex(w.pack(d))).toBe(hex(m.pack(d)));
    }), { numRuns: 60 });
  });
});

describe('reentrant packs', () => {
  test('toJSON calling pack: the inner message has its own ids, the outer keeps its own', () => {
    const p = new Packr();
    class Inner { toJSON() { return { packed: p.pack({ q: 1, r: 2 }) }; } }
    const v = [{ a: 1 }, new Inner(), { a: 2 }];
    const bytes = p.pack(v);
    const back = new msgpackr.Unpackr().unpack(bytes);
    expect(back[0]).toEqual({ a: 1 });
    expect(back[2]).toEqual({ a: 2 });
    expect(new msgpackr.Unpackr().unpack(back[1].packed)).toEqual({ q: 1, r: 2 });
    const m = new msgpackr.Packr({ variableMapSize: true });
    class MInner { toJSON() { return { packed: m.pack({ q: 1, r: 2 }) }; } }
    expect(hex(bytes)).toBe(hex(m.pack([{ a: 1 }, new MInner(), { a: 2 }])));
  });
});

describe('reentrant packs with saveStructures', () => {
  test('structures made by a nested pack are own ones there, then shared after the outer pack', () => {
    const run = (P) => {
      let stored = [];
      const log = [];
      const p = new P({
        variableMapSize: true,
        getStructures: () => stored.map((s) => s.slice()),
        saveStructures: (s) => { stored = s.slice(0, s.sharedLength).map((k) => k.slice()); log.push(stored.map((k) => k.join('+')).join(',')); },
      });
      class Inner { constructor(x) { this.x = x; } toJSON() { return { packed: p.pack({ q: this.x, r: 2 }) }; } }
      const outs = [];
      outs.push(hex(p.pack([{ a: 1 }, new Inner(1), { a: 2 }, { q: 5, r: 6 }])));
      outs.push(hex(p.pack([new Inner(3), { q: 7, r: 8 }])));
      outs.push(hex(p.pack({ q: 1, r: 1 })));
      return { outs, log };
    };
    const wp = run(Packr);
    expect(wp).toEqual(run(msgpackr.Packr));
    expect(wp.outs[0]).toBe('94' + '4001' + '41c40a' + 'd4726092a171a1720102' + '4002' + '420506');
    expect(wp.log).toEqual(['a,packed,q+r']);
  });
});

describe('reentrant packs and shared structures not saved yet', () => {
  // An extension whose pack calls the same Packr (a nested pack), on a Packr that saves its
  // structures: the nested message must never refer to a shared structure the outer pack added and
  // has not saved (a declined save would leave the nested bytes pointing at ids nobody has), and an
  // unpack during the pack that loads structures another writer saved must make the save
  // incompatible (the outer pack packs again), never overwrite that writer's ids.
  const run = (lib) => {
    let active;
    const nested = [];
    class Boxed { constructor(value) { this.value = value; } }
    lib.addExtension({ Class: Boxed, type: 0x5d, pack: (b) => { const out = Uint8Array.from(active.pack(b.value)); nested.push(out); return out; }, unpack: (bytes) => new Boxed(active.unpack(bytes)) });
    // 1. a save declined once (another writer's structures are there already)
    let stored = [['otherA', 'otherB']];
    let declined = 0, saves = 0;
    active = new lib.Packr({ structures: [], saveStructures(st, isCompatible) {
      if (!isCompatible(stored.slice(0))) { declined++; return false; }
      saves++; stored = st.slice(0);
    } });
    const doc = { first: { pA: 1, pB: 2 }, box: new Boxed({ again: { pA: 3, pB: 4 }, inner: { qA: 5, qB: 6 } }), last: { qA: 7, qB: 8 } };
    const bytes = active.pack(doc);
    const out = { bytes: hex(bytes), nested: nested.map((b) => hex(b)), declined, saves, stored: JSON.stringify(stored) };
    // the nested message of the declined attempt reads with the structures that were saved before
    active = new lib.Packr({ structures: [['otherA', 'otherB']], mapsAsObjects: true });
    out.standalone = JSON.stringify(active.unpack(nested[0]));
    // 2. two writers of one store; the first unpacks the second's message in the middle of a pack
    let store = [['baseA', 'baseB']];
    const writer = () => new lib.Packr({
      getStructures: () => store.map((k) => k.slice(0)),
      saveStructures(st, isCompatible) { if (!isCompatible(store.map((k) => k.slice(0)))) return false; store = st.map((k) => k.slice(0)); },
    });
    const w1 = writer(), w2 = writer();
    w1.pack({ baseA: 1, baseB: 2 });
    w2.pack([{ twoA: 1, twoB: 2 }, { threeA: 3, threeB: 4 }]);
    const fromW2 = Uint8Array.from(w2.pack({ threeA: 3, threeB: 4 }));
    let unpacks = 0;
    class Mid { toJSON() { unpacks++; w1.unpack(fromW2); return new Boxed({ same: { unsavedA: 5, unsavedB: 6 }, theirs: { twoA: 7, twoB: 8 } }); } }
    active = w1;
    const mixed = Uint8Array.from(w1.pack([{ unsavedA: 1, unsavedB: 2 }, new Mid(), { unsavedA: 3, unsavedB: 4 }]));
    out.mixed = hex(mixed);
    out.unpacks = unpacks;
    out.store = JSON.stringify(store);
    active = writer();
    out.mixedBack = JSON.stringify(active.unpack(mixed), (k, v) => (v instanceof Boxed ? { boxed: v.value } : v));
    out.w2Back = JSON.stringify(writer().unpack(fromW2));
    return out;
  };

  test("msgpackr's bytes, saves and stores; each message reads back with what was saved", () => {
    const wp = run({ Packr, addExtension });
    expect(wp).toEqual(run(msgpackr));
    expect(wp.declined).toBe(1);
    expect(wp.standalone).toBe(JSON.stringify({ again: { pA: 3, pB: 4 }, inner: { qA: 5, qB: 6 } }));
    // the other writer's ids keep their keys
    expect(JSON.parse(wp.store).slice(0, 3)).toEqual([['baseA', 'baseB'], ['twoA', 'twoB'], ['threeA', 'threeB']]);
    expect(wp.unpacks).toBe(2); // the first save was declined: packed again
    expect(wp.w2Back).toBe(JSON.stringify({ threeA: 3, threeB: 4 }));
    expect(JSON.parse(wp.mixedBack)).toEqual([{ unsavedA: 1, unsavedB: 2 }, { boxed: { same: { unsavedA: 5, unsavedB: 6 }, theirs: { twoA: 7, twoB: 8 } } }, { unsavedA: 3, unsavedB: 4 }]);
  });
});

describe('wirepack pack -> msgpackr unpack', () => {
  test('property: default Packr, records read back by msgpackr', () => {
    fc.assert(fc.property(tree, objects, (t, objs) => {
      const v = { t, objs };
      same(new msgpackr.Unpackr().unpack(new Packr().pack(v)), v);
      same(new msgpackr.Unpackr({ maxOwnStructures: 2 }).unpack(new Packr({ maxOwnStructures: 2 }).pack(v)), v);
    }), RUNS);
  });
});

describe('a call\'s own definitions end with it (the decoder side)', () => {
  test('a slot one call defined reads as the structures say in the next, which defines another', () => {
    // (an Unpackr that is not trusted forgets a message's definitions after it)
    const m1 = fromHex('92' + 'd4724091a16101' + 'd4724191a16202'); // [{a: 1}, {b: 2}], defining 0x40 and 0x41
    const m2 = fromHex('92' + 'd4724191a16303' + '4004'); // defines 0x41 as [c]; 0x40 is the structures' [x]
    for (const make of [() => new Unpackr({ structures: [['x']] }), () => new Packr({ structures: [['x']] })]) {
      const u = make();
      same(u.unpack(m1), [{ a: 1 }, { b: 2 }]);
      same(u.unpack(m2), [{ c: 3 }, { x: 4 }]);
      same(u.unpack(m1), [{ a: 1 }, { b: 2 }]);
      same(u.unpack(m2), [{ c: 3 }, { x: 4 }]);
    }
    // (msgpackr 2.1.4 gives { a: 4 } there: it restores a structure a message redefined only
    // when the structure is marked isShared, as the ones its Packr saves are, and these are not)
  });

  test('definitions are kept only where the Unpackr keeps them: trusted, and within unpackMultiple', () => {
    const m1 = fromHex('d4724091a16101'); // {a: 1}, defining 0x40
    const ref = fromHex('4002'); // 0x40 again, undefined without its definition
    const t = new Unpackr({ structures: [], trusted: true });
    same(t.unpack(m1), { a: 1 });
    same(t.unpack(ref), { a: 2 });
    expect(t.structures.map((k) => [...k])).toEqual([['a']]);
    const u = new Unpackr({ structures: [] });
    same(u.unpack(m1), { a: 1 });
    expect(u.structures.length).toBe(0);
    const both = new Uint8Array([...m1, ...ref]);
    same(u.unpackMultiple(both), [{ a: 1 }, { a: 2 }]);
  });
});

describe('msgpackr pack -> wirepack unpack (decoder side)', () => {
  test('property: records from msgpackr', () => {
    fc.assert(fc.property(tree, objects, (t, objs) => {
      const v = { t, objs };
      same(new Unpackr().unpack(new msgpackr.Packr().pack(v)), v);
      same(new Unpackr().unpack(new msgpackr.Packr({ maxOwnStructures: 100 }).pack(v)), v);
    }), RUNS);
  });

  test('shared structures from msgpackr', () => {
    const structures = [['a', 'b']];
    const bytes = new msgpackr.Packr({ structures: structures.map((s) => s.slice()) }).pack([{ a: 1, b: 2 }, { c: 3 }]);
    same(new Unpackr({ structures: [['a', 'b'], ['c']] }).unpack(bytes), [{ a: 1, b: 2 }, { c: 3 }]);
  });

  test('a structure replaced, grown or removed between calls is read as it is now', () => {
    // the Unpackr keeps each slot's shape from call to call while its structure stays the same
    const u = new Unpackr({ structures: [['a', 'b'], ['c']] });
    const bytes = fromHex('92' + '400102' + '4103'); // [record 0 (1, 2), record 1 (3)]
    same(u.unpack(bytes), [{ a: 1, b: 2 }, { c: 3 }]);
    u.structures[0] = ['x', 'y'];
    same(u.unpack(bytes), [{ x: 1, y: 2 }, { c: 3 }]);
    u.structures[1].push('d');
    same(u.unpack(fromHex('92' + '400102' + '410304')), [{ x: 1, y: 2 }, { c: 3, d: 4 }]);
    u.structures[1].splice(0, 2, 'e');
    same(u.unpack(bytes), [{ x: 1, y: 2 }, { e: 3 }]);
    delete u.structures[0];
    expect(() => u.unpack(bytes)).toThrow();
    // another Unpackr with the same structure arrays keeps its own
    same(new Unpackr({ structures: [['p', 'q'], u.structures[1]] }).unpack(bytes), [{ p: 1, q: 2 }, { e: 3 }]);
  });
});

describe('wirepack round trip (Packr.unpack shares the structures)', () => {
  test('property: pack then unpack on one Packr, and on a plain Unpackr', () => {
    fc.assert(fc.property(tree, objects, (t, objs) => {
      const v = { t, objs };
      const p = new Packr();
      same(p.unpack(p.pack(v)), v);
      same(new Unpackr().unpack(new Packr({ maxOwnStructures: 100 }).pack(v)), v);
    }), RUNS);
  });

  test('shared structures saved by a Packr are read by a Packr with the same structures', () => {
    const structures = [];
    const p = new Packr({ structures, saveStructures: () => {} });
    const v = [{ a: 1, b: 2 }, { c: 3 }];
    const bytes = p.pack(v);
    expect(hex(bytes)).toBe('924001024103');
    same(p.unpack(bytes), v);
    same(new Unpackr({ structures: structures.map((s) => s.slice()) }).unpack(bytes), v);
  });

  test('sequential stream round trip', () => {
    const w = new Packr({ sequential: true });
    const u = new Unpackr({ sequential: true });
    for (const v of [{ a: 1 }, { a: 2, b: [{ a: 3 }] }, [{ a: 4 }, { c: 5 }]]) same(u.unpack(w.pack(v)), v);
  });
});

describe('records of objects that change while packed', () => {
  test('a getter that deletes a later key: an error, not a record with a value missing', () => {
    const o = { a: 1, get b() { delete o.c; return 2; }, c: 3 };
    expect(() => new Packr({ structures: [] }).pack(o)).toThrow(/changed its keys/);
    // and the next pack works
    const p = new Packr({ structures: [] });
    expect(p.unpack(p.pack({ a: 1, b: 2, c: 3 }))).toEqual({ a: 1, b: 2, c: 3 });
  });
});
