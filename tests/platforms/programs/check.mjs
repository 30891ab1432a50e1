// Shared by every platform program (Node, Deno, Bun, workerd, browsers): the rich value, a
// strict deep equality, and the round-trip check. Plain ECMAScript: no Node or DOM APIs.

/** The document every platform packs and unpacks. */
export function makeValue() {
  return {
    text: 'héllo wörld ✓ 𝄞 ' + 'x'.repeat(40),
    empty: '',
    int: 42,
    negative: -7,
    big32: 4294967296,
    float: 3.141592653589793,
    half: 0.5,
    bigint: 2n ** 63n + 5n,
    bigNegative: -(2n ** 63n),
    u64max: 2n ** 64n - 1n,
    date: new Date(1700000000123),
    bytes: new Uint8Array([0, 1, 2, 127, 128, 255]),
    flags: [true, false, null],
    nested: {
      list: [1, [2, [3, { deep: 'yes' }]]],
      map: new Map([[1, 'one'], ['two', 2]]),
      object: { a: { b: { c: { d: 'bottom' } } } },
    },
    // the same shape many times: the decoder's generated constructors kick in (or, where code
    // generation is not allowed, the eval-free path does the same job)
    records: Array.from({ length: 20 }, (_, i) => ({ id: i, name: 'row' + i, even: i % 2 === 0 })),
  };
}

/**
 * makeValue() as the free unpack gives it back: MessagePack has no Map type, so the Map is an
 * object, its number key coerced to a property name, as msgpackr does (CBOR's tag 259 keeps it).
 * @param {ReturnType<typeof makeValue>} value
 */
export function asUnpacked(value) {
  return { ...value, nested: { ...value.nested, map: { 1: 'one', two: 2 } } };
}

/** @returns {string} a description of the first difference, or '' when equal */
export function diff(a, b, path = '$') {
  if (typeof a !== typeof b) return `${path}: ${typeof a} vs ${typeof b}`;
  if (typeof a !== 'object' || a === null || b === null) {
    return Object.is(a, b) ? '' : `${path}: ${String(a)} vs ${String(b)}`;
  }
  if (a instanceof Date) {
    return b instanceof Date && a.getTime() === b.getTime() ? '' : `${path}: Date ${a} vs ${b}`;
  }
  if (a instanceof Uint8Array) {
    if (!(b instanceof Uint8Array) || a.length !== b.length) return `${path}: bytes vs ${Object.prototype.toString.call(b)}`;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return `${path}[${i}]: ${a[i]} vs ${b[i]}`;
    return '';
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return `${path}: Map vs ${Object.prototype.toString.call(b)}`;
    for (const [k, v] of a) {
      if (!b.has(k)) return `${path}: missing key ${String(k)}`;
      const d = diff(v, b.get(k), `${path}.get(${String(k)})`);
      if (d) return d;
    }
    return '';
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return `${path}: array vs ${Object.prototype.toString.call(b)}`;
    for (let i = 0; i < a.length; i++) {
      const d = diff(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return '';
  }
  if (Object.getPrototypeOf(b) !== Object.prototype) {
    const proto = Object.getPrototypeOf(b);
    return `${path}: not a plain object (${Object.prototype.toString.call(b)}, prototype ${proto === null ? 'null' : proto.constructor && proto.constructor.name})`;
  }
  const ka = Object.keys(a), kb = Object.keys(b);
  if (ka.join() !== kb.join()) return `${path}: keys ${ka} vs ${kb}`;
  for (const k of ka) {
    const d = diff(a[k], b[k], `${path}.${k}`);
    if (d) return d;
  }
  return '';
}

/** @param {Uint8Array} bytes */
export function hex(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
  return s;
}

/**
 * Pack and unpack the value with MessagePack and with CBOR, check it came back equal, and check
 * that a truncated input throws a DecodeError with its fields.
 * @param {{pack: Function, unpack: Function, DecodeError: Function}} msgpack the 'wirepack' module
 * @param {{encode: Function, decode: Function, Encoder: any, DecodeError: Function}} cbor the 'wirepack/cbor' module
 * @param {{transcode: Function}} [tc] the 'wirepack/transcode' module: checked too when given
 * @returns {{ok: boolean, problems: string[], msgpackHex: string, cborHex: string, transcode: boolean}}
 */
export function roundTrip(msgpack, cbor, tc) {
  const problems = [];
  const value = makeValue();
  let msgpackHex = '', cborHex = '';
  for (const [name, mod, enc, dec] of [['msgpack', msgpack, 'pack', 'unpack'], ['cbor', cbor, 'encode', 'decode']]) {
    try {
      const bytes = mod[enc](value);
      if (!(bytes instanceof Uint8Array)) throw new Error(`${enc} returned ${Object.prototype.toString.call(bytes)}`);
      if (name === 'msgpack') msgpackHex = hex(bytes);
      else {
        // by default (as cbor-x) a Uint8Array gets tag 64 only where Node's Buffer exists; with
        // the option set, every platform must write the same bytes (useRecords: false, as encode())
        const tagged = new mod.Encoder({ tagUint8Array: true, useRecords: false }).encode(value);
        cborHex = hex(tagged);
        const t = diff(value, mod[dec](tagged));
        if (t) problems.push(`cbor (tagUint8Array) round trip: ${t}`);
      }
      const want = name === 'msgpack' ? asUnpacked(value) : value;
      const d = diff(want, mod[dec](bytes));
      if (d) problems.push(`${name} round trip: ${d}`);
      // decode again: the shape cache and generated constructors are in use by then
      const again = diff(want, mod[dec](bytes.slice()));
      if (again) problems.push(`${name} second decode: ${again}`);
      try {
        mod[dec](bytes.subarray(0, bytes.length - 3));
        problems.push(`${name}: a truncated input did not throw`);
      } catch (e) {
        if (!(e instanceof mod.DecodeError)) problems.push(`${name}: truncated input threw ${e && e.name}: ${e && e.message}`);
        else if (e.code !== 'TRUNCATED' || e.incomplete !== true || typeof e.offset !== 'number' || e.offset > bytes.length) {
          problems.push(`${name}: DecodeError fields code=${e.code} incomplete=${e.incomplete} offset=${e.offset}`);
        }
      }
    } catch (e) {
      problems.push(`${name}: ${e && e.stack || e}`);
    }
  }
  if (tc) problems.push(...transcodeCheck(tc, msgpack, cbor));
  const float16 = typeof Float16Array === 'function';
  if (float16) problems.push(...float16Check(msgpack, cbor));
  const buffers = typeof (/** @type {any} */ (globalThis).Buffer) === 'function';
  if (buffers) problems.push(...bufferCheck(msgpack, cbor));
  return { ok: problems.length === 0, problems, msgpackHex, cborHex, transcode: !!tc, float16, buffers };
}

/**
 * Where the runtime has a global Buffer (Node, Deno, Bun): results and decoded binaries are
 * Buffers whose prototype is Buffer.prototype itself, as the runtime's own are, so that
 * node:assert's deepStrictEqual finds a round trip equal to its input (msgpackr's are).
 * @param {{pack: Function, unpack: Function}} msgpack @param {{encode: Function, decode: Function}} cbor
 * @returns {string[]} problems
 */
export function bufferCheck(msgpack, cbor) {
  const B = /** @type {any} */ (globalThis).Buffer;
  const problems = [];
  const bin = B.from([1, 2, 3]);
  const made = {
    'pack()': msgpack.pack(1), 'encode()': cbor.encode(1),
    'a decoded bin': msgpack.unpack(msgpack.pack(bin)), 'a decoded byte string': cbor.decode(cbor.encode(bin)),
  };
  for (const [what, b] of Object.entries(made)) {
    if (Object.getPrototypeOf(b) !== B.prototype) problems.push(`${what}: its prototype is not Buffer.prototype`);
  }
  return problems;
}

/**
 * Where the runtime has Float16Array (Node 24, Deno, Bun, Chromium, workerd; not Node 18-22):
 * MessagePack with moreTypes writes it as msgpackr's typed-array extension, code 11, and CBOR as
 * RFC 8746's tag 84, and both read it back as a Float16Array (Node 20, the reference, cannot).
 * @param {{Packr: any, Unpackr: any}} msgpack @param {{encode: Function, decode: Function}} cbor
 * @returns {string[]} problems
 */
export function float16Check(msgpack, cbor) {
  const F16 = /** @type {any} */ (globalThis).Float16Array;
  const v = new F16([1.5, -2, 65504, 0.0001]);
  const problems = [];
  try {
    const m = new msgpack.Packr({ moreTypes: true, useRecords: false }).pack(v), c = cbor.encode(v);
    if (hex(m) !== 'c709740b003e00c0ff7b8e06') problems.push(`Float16Array as MessagePack: ${hex(m)}`);
    if (hex(c) !== 'd85448003e00c0ff7b8e06') problems.push(`Float16Array as CBOR: ${hex(c)}`);
    for (const [name, back] of [['MessagePack', new msgpack.Unpackr({ moreTypes: true }).unpack(m)], ['CBOR', cbor.decode(c)]]) {
      if (!(back instanceof F16) || back.length !== 4 || back.some((x, i) => !Object.is(x, v[i]))) problems.push(`Float16Array from ${name}: ${back}`);
    }
  } catch (e) {
    problems.push(`Float16Array: ${e && e.stack || e}`);
  }
  return problems;
}

/**
 * wirepack/transcode: MessagePack -> JSON text -> CBOR, in C, on a JSON-representable document.
 * @param {{transcode: Function}} tc the 'wirepack/transcode' module
 * @param {{pack: Function}} msgpack
 * @param {{decode: Function}} cbor
 * @returns {string[]} problems
 */
export function transcodeCheck(tc, msgpack, cbor) {
  const doc = { a: [1, 2.5, 'x', -3, 1e21], b: { c: true, d: null }, s: 'héllo ✓ 𝄞', n: 9007199254740991 };
  try {
    const json = tc.transcode(msgpack.pack(doc), { from: 'msgpack', to: 'json' });
    if (json !== JSON.stringify(doc)) return [`transcode msgpack -> json: ${json}`];
    const back = tc.transcode(json, { from: 'json', to: 'cbor' });
    const d = diff(doc, cbor.decode(back));
    return d ? [`transcode json -> cbor: ${d}`] : [];
  } catch (e) {
    return [`transcode: ${e && e.stack || e}`];
  }
}
