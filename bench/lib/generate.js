// A generated document for the memory suite: deterministic (seeded PRNG), JSON-compatible, a mix
// of what real payloads hold (records with short and long strings, some non-ASCII, integers of all
// widths, floats, booleans, nulls, nested objects and arrays), grown until its JSON text reaches
// the target size.

function prng(seed) {
  let s = seed >>> 0;
  return () => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima',
  'mike', 'november', 'oscar', 'papa', 'quebec', 'romeo', 'sierra', 'tango', 'uniform', 'victor', 'whiskey',
  'x-ray', 'yankee', 'zulu', 'Zürich', 'São Paulo', 'Kraków', 'naïve', 'café', '東京', 'Москва', 'Ελλάδα',
];
const STATUS = ['active', 'pending', 'suspended', 'closed'];

function record(rand, i) {
  const pick = (arr) => arr[Math.floor(rand() * arr.length)];
  const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const r = {
    id: i,
    uuid: `${Math.floor(rand() * 2 ** 32).toString(16).padStart(8, '0')}-${Math.floor(rand() * 2 ** 16).toString(16).padStart(4, '0')}`,
    name: words(2),
    email: `${pick(WORDS).replace(/[^a-z]/g, '') || 'user'}${i}@example.com`,
    status: pick(STATUS),
    active: rand() < 0.7,
    score: Math.round(rand() * 1e6) / 1e3,
    ratio: rand(),
    count: Math.floor(rand() * 300),
    big: Math.floor(rand() * 2 ** 40),
    negative: -1 - Math.floor(rand() * 70000),
    parent: rand() < 0.3 ? null : Math.floor(rand() * i),
    tags: Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(WORDS)),
    address: { street: `${1 + Math.floor(rand() * 999)} ${words(2)} St`, city: pick(WORDS), zip: String(10000 + Math.floor(rand() * 89999)) },
    history: Array.from({ length: Math.floor(rand() * 6) }, () => ({ t: 1600000000 + Math.floor(rand() * 1e8), v: Math.round(rand() * 1000) / 10 })),
  };
  if (rand() < 0.2) r.notes = words(10 + Math.floor(rand() * 30));
  return r;
}

/** Returns { doc, bytes } where bytes is the length of JSON.stringify(doc) (>= targetBytes). */
export function generateDocument(targetBytes, seed = 4) {
  const rand = prng(seed);
  const items = [];
  let bytes = 2;
  for (let i = 0; bytes < targetBytes; i++) {
    const r = record(rand, i);
    items.push(r);
    bytes += Buffer.byteLength(JSON.stringify(r)) + 1;
  }
  const doc = { generated: 'wirepack bench/lib/generate.js', seed, count: items.length, items };
  return { doc, bytes: Buffer.byteLength(JSON.stringify(doc)) };
}
