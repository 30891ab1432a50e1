// Structural comparison used to verify each contender's round trip before it is timed.
// Returns null when `actual` deep-equals `expected` (plain JSON-like data: objects, arrays,
// primitives; also Maps, typed arrays and Dates for later suites), else a short description of the
// first difference found.

function describe(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `array(${v.length})`;
  if (v instanceof Map) return `Map(${v.size})`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${v.length ?? v.byteLength})`;
  if (typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    return proto === Object.prototype || proto === null ? 'object' : `${proto.constructor?.name ?? 'object'} instance`;
  }
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  if (typeof v === 'bigint') return `${v}n`;
  return Object.is(v, -0) ? '-0' : String(v);
}

function isPlainObject(v) {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

export function firstDiff(actual, expected, where = '$') {
  if (Object.is(actual, expected)) return null;
  const mismatch = () => `${where}: expected ${describe(expected)}, got ${describe(actual)}`;
  if (typeof actual !== typeof expected || actual === null || expected === null || typeof expected !== 'object') {
    return mismatch();
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return mismatch();
    for (let i = 0; i < expected.length; i++) {
      const d = firstDiff(actual[i], expected[i], `${where}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (expected instanceof Date) {
    if (!(actual instanceof Date) || !Object.is(actual.getTime(), expected.getTime())) return mismatch();
    return null;
  }
  if (ArrayBuffer.isView(expected)) {
    // same kind of view (a Buffer is a Uint8Array): a Float32Array read back as bytes is not the input
    if (!ArrayBuffer.isView(actual) || !(actual instanceof expected.constructor) || actual.byteLength !== expected.byteLength) return mismatch();
    const a = new Uint8Array(actual.buffer, actual.byteOffset, actual.byteLength);
    const e = new Uint8Array(expected.buffer, expected.byteOffset, expected.byteLength);
    for (let i = 0; i < e.length; i++) if (a[i] !== e[i]) return `${where}: bytes differ at ${i}`;
    return null;
  }
  if (expected instanceof Map) {
    if (!(actual instanceof Map) || actual.size !== expected.size) return mismatch();
    for (const [k, v] of expected) {
      if (!actual.has(k)) return `${where}: Map key ${describe(k)} missing`;
      const d = firstDiff(actual.get(k), v, `${where}.get(${describe(k)})`);
      if (d) return d;
    }
    return null;
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return mismatch();
    const ek = Object.keys(expected);
    const ak = Object.keys(actual);
    if (ak.length !== ek.length) {
      const extra = ak.filter((k) => !Object.prototype.hasOwnProperty.call(expected, k));
      const missing = ek.filter((k) => !Object.prototype.hasOwnProperty.call(actual, k));
      return `${where}: key count ${ak.length} != ${ek.length}` +
        (missing.length ? `, missing ${JSON.stringify(missing.slice(0, 3))}` : '') +
        (extra.length ? `, extra ${JSON.stringify(extra.slice(0, 3))}` : '');
    }
    for (const k of ek) {
      if (!Object.prototype.hasOwnProperty.call(actual, k)) return `${where}: key ${JSON.stringify(k)} missing`;
      const d = firstDiff(actual[k], expected[k], `${where}[${JSON.stringify(k)}]`);
      if (d) return d;
    }
    return null;
  }
  return mismatch();
}
