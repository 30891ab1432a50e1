// Byte helpers shared by the tests (no Buffer: these run in browsers too).

/** Lowercase hex of a Uint8Array-like (Buffer, Uint8Array, number[]), no separators. */
export function hex(bytes) {
  const u8 = bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes);
  let s = '';
  for (let i = 0; i < u8.length; i++) s += (u8[i] < 16 ? '0' : '') + u8[i].toString(16);
  return s;
}

/** Uint8Array from hex; '-', spaces and newlines are ignored. */
export function fromHex(str) {
  const s = str.replace(/[\s-]/g, '');
  if (s.length % 2 !== 0 || /[^0-9a-fA-F]/.test(s)) throw new Error('bad hex: ' + str);
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.substr(i * 2, 2), 16);
  return out;
}

/** Concatenate Uint8Arrays / number arrays / hex strings into one Uint8Array. */
export function concat(...parts) {
  const arrs = parts.map((p) => (typeof p === 'string' ? fromHex(p) : p instanceof Uint8Array ? p : Uint8Array.from(p)));
  const out = new Uint8Array(arrs.reduce((n, a) => n + a.length, 0));
  let o = 0;
  for (const a of arrs) { out.set(a, o); o += a.length; }
  return out;
}

/** n bytes 0,1,2,...,255,0,1,... */
export function seqBytes(n, start = 0) {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i + start) & 255;
  return out;
}

export const utf8 = (s) => new TextEncoder().encode(s);

/** Deterministic PRNG (mulberry32) so failures are reproducible. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Assert two byte sequences are identical; on mismatch the error names the first differing
 * offset with a little context instead of dumping kilobytes of hex.
 */
export function expectSameBytes(actual, expected, label = '') {
  const a = actual instanceof Uint8Array ? actual : Uint8Array.from(actual);
  const b = expected instanceof Uint8Array ? expected : Uint8Array.from(expected);
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  if (i === n && a.length === b.length) return;
  const ctx = (x) => hex(x.subarray(Math.max(0, i - 8), i)) + ' | ' + hex(x.subarray(i, i + 16));
  throw new Error(
    `${label ? label + ': ' : ''}bytes differ at offset ${i} (lengths ${a.length} vs ${b.length})\n` +
      `  actual:   ${ctx(a)}\n  expected: ${ctx(b)}`,
  );
}
