// canon(v): a structure that vitest's toEqual compares strictly and that is independent of
// representation details that do not matter (Buffer vs Uint8Array, Map vs Map, Date objects).
// Numbers keep their identity (-0 vs 0, NaN) via tagged forms, so toEqual cannot blur them.

/** Whether the expectations of check hold (it throws nothing). */
export function holds(check) {
  try {
    check();
    return true;
  } catch {
    return false;
  }
}

export function canon(v, opts = {}) {
  const { negZeroIsZero = false } = opts;
  const rec = (x) => {
    if (x === undefined) return { undef: true };
    if (x === null || typeof x === 'boolean' || typeof x === 'string') return x;
    if (typeof x === 'number') {
      if (Number.isNaN(x)) return { num: 'NaN' };
      if (Object.is(x, -0)) return negZeroIsZero ? 0 : { num: '-0' };
      return x;
    }
    if (typeof x === 'bigint') return { big: x.toString() };
    if (x instanceof Uint8Array) {
      let s = '';
      for (const b of x) s += (b < 16 ? '0' : '') + b.toString(16);
      return { bin: s };
    }
    if (x instanceof Date) return { date: String(x.getTime()) };
    if (Array.isArray(x)) return x.map(rec);
    if (x instanceof Map) return { map: [...x.entries()].map(([k, val]) => [rec(k), rec(val)]) };
    if (typeof x === 'object') {
      // own enumerable string keys in order, including an own '__proto__'
      return { obj: Object.keys(x).map((k) => [k, rec(x[k])]), proto: Object.getPrototypeOf(x) === Object.prototype };
    }
    throw new Error('canon: unsupported ' + typeof x);
  };
  return rec(v);
}
