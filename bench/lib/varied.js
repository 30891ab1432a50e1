// Varied documents for bench/suites/varied.js (issue 7, "it must hold on data you have not tuned
// for"): a seeded, deterministic generator of documents nobody tuned a codec for. Every category is
// built from its own mulberry32 stream (seed + category index), so a category's document does not
// change when another category changes, and every run (and every machine) times the same bytes.
//
// A category is { name, title, kind: 'doc' | 'stream', build(rand, quick) }. build returns the
// document (kind 'doc') or, for a stream, an array of segments, each an array of messages: each
// message is encoded and decoded on its own, one timed operation is one segment, and consecutive
// operations walk through the segments in turn (bench/suites/varied.js). Values are what the categories say and
// nothing else: no NaN, Infinity, -0 or lone surrogates outside the categories meant for them
// (none of these categories is), so that every library that can represent a category can be
// verified against it exactly.

/** mulberry32: a small seeded PRNG returning floats in [0, 1). */
export function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int = (rand, lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)); // inclusive
const pick = (rand, arr) => arr[Math.floor(rand() * arr.length)];
/** Log-uniform integer in [lo, hi]: many small values, a few large ones. */
const logInt = (rand, lo, hi) => Math.min(hi, Math.floor(Math.exp(Math.log(lo) + rand() * (Math.log(hi + 1) - Math.log(lo)))));
/** Zipf-like index in [0, n): rank r with probability ~ 1 / (r + 1). */
const zipf = (rand, n) => Math.min(n - 1, Math.floor(Math.exp(rand() * Math.log(n + 1)) - 1));

function shuffle(rand, arr) {
  for (let i = arr.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = arr[i];
    arr[i] = arr[j];
    arr[j] = t;
  }
  return arr;
}

// ---------------------------------------------------------------------------------------------
// Text

const SYLLABLES = [
  'al', 'an', 'ar', 'as', 'at', 'ba', 'be', 'bi', 'bo', 'ca', 'ce', 'co', 'da', 'de', 'di', 'do', 'el', 'en', 'er', 'es',
  'fa', 'fe', 'fi', 'ga', 'ge', 'go', 'ha', 'he', 'hi', 'ho', 'id', 'in', 'is', 'it', 'ka', 'ke', 'ki', 'la', 'le', 'li',
  'lo', 'lu', 'ma', 'me', 'mi', 'mo', 'na', 'ne', 'ni', 'no', 'nu', 'on', 'or', 'pa', 'pe', 'pi', 'po', 'ra', 're', 'ri',
  'ro', 'ru', 'sa', 'se', 'si', 'so', 'st', 'ta', 'te', 'ti', 'to', 'tr', 'un', 'ur', 'va', 've', 'vi', 'wa', 'we', 'ya',
  'za', 'ze', 'zo', 'qu', 'ch', 'sh', 'th', 'ph', 'ck', 'ng',
];

function word(rand, minSyl = 1, maxSyl = 4) {
  let w = '';
  for (let n = int(rand, minSyl, maxSyl); n > 0; n--) w += pick(rand, SYLLABLES);
  return w;
}

const PUNCT = [' ', ' ', ' ', ' ', ' ', ' ', ' ', ', ', '. ', '; ', ': ', ' - ', '? ', '! ', ' (', ') ', ' "', '" ', "'", '\n', ' / ', ' \\ ', '\t'];

/** ASCII prose of about `len` characters: words, punctuation, quotes, backslashes, tabs, newlines. */
function asciiText(rand, len) {
  let s = '';
  while (s.length < len) {
    let w = word(rand);
    const r = rand();
    if (r < 0.08) w = w[0].toUpperCase() + w.slice(1);
    else if (r < 0.12) w = String(int(rand, 0, 99999));
    else if (r < 0.13) w = `https://${word(rand)}.example.com/${word(rand)}?q=${word(rand)}&n=${int(rand, 1, 999)}`;
    s += w + pick(rand, PUNCT);
  }
  return s.slice(0, len);
}

// Non-ASCII scripts: [first, last] code point ranges and the usual word length in code points.
const SCRIPTS = {
  han: { ranges: [[0x4e00, 0x9fa5]], word: [1, 3], sep: ['', '', '', '，', '。', '、'] },
  kana: { ranges: [[0x3041, 0x3093], [0x30a1, 0x30f3]], word: [2, 5], sep: ['', '', '。', '、'] },
  hangul: { ranges: [[0xac00, 0xd7a3]], word: [2, 4], sep: [' ', ' ', '. '] },
  cyrillic: { ranges: [[0x0430, 0x044f]], word: [3, 9], sep: [' ', ' ', ', ', '. '] },
  greek: { ranges: [[0x03b1, 0x03c9]], word: [3, 9], sep: [' ', ' ', ', '] },
  arabic: { ranges: [[0x0627, 0x064a]], word: [3, 7], sep: [' ', ' ', '، '] },
  devanagari: { ranges: [[0x0905, 0x0939]], word: [2, 6], sep: [' ', ' ', '। '] },
};
const LATIN_ACCENTED = 'àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿßœšžłńśźżőűčřůěĺľ';
// Emoji: plain (astral, surrogate pairs), with skin tones and variation selectors, ZWJ sequences and flags.
const EMOJI = [
  '😀', '😂', '🥲', '😍', '🤔', '🙃', '😴', '🤯', '🥳', '😎', '👍', '👍🏽', '👋🏿', '🙏', '💪🏻', '🎉', '🔥', '✨', '❤️', '💔',
  '⭐', '☀️', '🌧️', '🍕', '🍣', '☕', '🚀', '✈️', '🏠', '📦', '🐛', '🦀', '🐍', '🧪', '📈', '📉', '✅', '❌', '⚠️', '🔒',
  '👩‍💻', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🧑🏾‍🚀', '🇯🇵', '🇫🇷', '🇧🇷', '🇺🇦', '#️⃣', '©️',
];

function scriptWord(rand, script) {
  const sc = SCRIPTS[script];
  let w = '';
  for (let n = int(rand, sc.word[0], sc.word[1]); n > 0; n--) {
    const [a, b] = pick(rand, sc.ranges);
    w += String.fromCodePoint(int(rand, a, b));
  }
  return w;
}

function latinAccentedWord(rand) {
  let w = word(rand, 1, 3);
  const i = int(rand, 0, w.length - 1);
  return w.slice(0, i) + pick(rand, [...LATIN_ACCENTED]) + w.slice(i + 1);
}

/** Mixed non-ASCII text of about `len` UTF-16 units; `script` is the main script, with ASCII, accents and emoji mixed in. */
function unicodeText(rand, len, script) {
  const sc = SCRIPTS[script];
  let s = '';
  while (s.length < len) {
    const r = rand();
    if (r < 0.72) s += scriptWord(rand, script) + pick(rand, sc.sep);
    else if (r < 0.82) s += word(rand) + ' ';
    else if (r < 0.88) s += latinAccentedWord(rand) + ' ';
    else if (r < 0.97) s += pick(rand, EMOJI);
    else s += String(int(rand, 0, 9999)) + ' ';
  }
  // never cut a surrogate pair or a ZWJ sequence's pair in half
  let end = Math.min(len, s.length);
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return s.slice(0, end);
}

const SCRIPT_NAMES = Object.keys(SCRIPTS);

function shortUnicode(rand) {
  const r = rand();
  if (r < 0.4) return unicodeText(rand, int(rand, 1, 8), pick(rand, ['han', 'kana', 'hangul'])).trim() || '中';
  if (r < 0.55) return scriptWord(rand, pick(rand, ['cyrillic', 'greek', 'arabic', 'devanagari']));
  if (r < 0.7) return latinAccentedWord(rand);
  if (r < 0.85) return Array.from({ length: int(rand, 1, 3) }, () => pick(rand, EMOJI)).join('');
  return `${word(rand)} ${pick(rand, EMOJI)} ${scriptWord(rand, pick(rand, SCRIPT_NAMES))}`;
}

function shortAscii(rand) {
  const r = rand();
  if (r < 0.3) return word(rand, 1, 3);
  if (r < 0.45) return pick(rand, ['ok', 'error', 'pending', 'done', 'GET', 'POST', 'en-US', 'UTC', 'true', '', 'N/A', 'id']);
  if (r < 0.6) return `${word(rand, 1, 2)}_${word(rand, 1, 2)}`;
  if (r < 0.7) return Math.floor(rand() * 2 ** 32).toString(16).padStart(8, '0');
  if (r < 0.8) return `${word(rand, 1, 2)}@${word(rand, 1, 2)}.com`;
  if (r < 0.88) return `/${word(rand)}/${word(rand)}/${int(rand, 1, 9999)}`;
  if (r < 0.94) return `"${word(rand)}" \\ ${word(rand)}\n`; // needs escaping in JSON
  return asciiText(rand, int(rand, 12, 24));
}

// ---------------------------------------------------------------------------------------------
// Numbers and other values

/**
 * A double with a full-precision mantissa (no NaN, Infinity or -0). Everyday magnitudes (below
 * 1e12, down to 1e-30) unless `wide`, which adds magnitudes up to 1e±300: integral doubles of
 * 2^64 and more, such as 1e30, are what notepack.io cannot write (see bench/suites/varied.js), so
 * they stay in the float-heavy category.
 */
function double(rand, wide = false) {
  const r = rand();
  if (r < 0.35) return (rand() - 0.5) * 2; // [-1, 1)
  if (r < 0.6) return rand() * 1000;
  if (r < 0.75) return Math.round(rand() * 1e6) / 100; // prices: two decimals
  if (r < 0.85) return (rand() - 0.5) * 10 ** (wide ? int(rand, -30, 30) : int(rand, -30, 12));
  if (r < 0.9) return wide ? rand() * 10 ** int(rand, -300, 300) : rand() * 10 ** int(rand, -300, 0);
  if (r < 0.95) return Math.fround(rand() * 100); // exactly representable as float32
  return 180 * (rand() * 2 - 1); // degrees
}

/** An integer from a width class: fixints, 8/16/32-bit, negative, and up to the safe-integer edges. */
function integer(rand) {
  const r = rand();
  if (r < 0.3) return int(rand, 0, 127);
  if (r < 0.4) return -int(rand, 1, 32);
  if (r < 0.5) return int(rand, 128, 255);
  if (r < 0.58) return -int(rand, 33, 128);
  if (r < 0.68) return int(rand, 256, 65535);
  if (r < 0.74) return -int(rand, 129, 32768);
  if (r < 0.84) return int(rand, 65536, 2 ** 32 - 1);
  if (r < 0.89) return -int(rand, 32769, 2 ** 31);
  if (r < 0.95) return 1.5e12 + int(rand, 0, 3e11); // millisecond timestamps (> 2^32)
  if (r < 0.975) return Math.floor(rand() * Number.MAX_SAFE_INTEGER);
  return -Math.floor(rand() * Number.MAX_SAFE_INTEGER);
}

function bytes(rand, n) {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (rand() * 256) | 0;
  return b;
}

function scalar(rand) {
  const r = rand();
  if (r < 0.25) return shortAscii(rand);
  if (r < 0.35) return shortUnicode(rand);
  if (r < 0.55) return integer(rand);
  if (r < 0.7) return double(rand);
  if (r < 0.82) return rand() < 0.5;
  if (r < 0.88) return null;
  return int(rand, 0, 100);
}

// ---------------------------------------------------------------------------------------------
// Categories

/** Grows `items` with make(i) until JSON-ish size estimate `size(item)` reaches target bytes. */
function grow(target, make, size = (x) => JSON.stringify(x).length) {
  const items = [];
  let bytes = 0;
  for (let i = 0; bytes < target; i++) {
    const it = make(i);
    items.push(it);
    bytes += size(it) + 1;
  }
  return items;
}

function deepWide(rand, quick) {
  // A tree of objects and arrays, depth up to 12, fan-out 1..16 (wider near the top), with mixed
  // scalars at every level: configuration / AST / nested API responses.
  let budget = quick ? 600 : 6000; // nodes
  function node(depth) {
    budget--;
    const wide = depth < 3 ? 16 : depth < 6 ? 8 : 4;
    const n = int(rand, 1, wide);
    if (depth >= 12 || budget <= 0) return scalar(rand);
    if (rand() < 0.3) {
      const a = [];
      for (let i = 0; i < n; i++) a.push(rand() < 0.55 ? node(depth + 1) : scalar(rand));
      return a;
    }
    const o = {};
    for (let i = 0; i < n; i++) {
      const k = rand() < 0.6 ? pick(rand, ['id', 'type', 'name', 'value', 'children', 'meta', 'attrs', 'kind', 'props', 'data']) : word(rand, 1, 3);
      o[k] = rand() < 0.55 ? node(depth + 1) : scalar(rand);
    }
    return o;
  }
  const root = { version: 3, kind: 'tree' };
  for (let i = 0; budget > 0; i++) root[`branch${i}`] = node(1);
  return root;
}

/** 10^5 distinct key names (camelCase / snake_case / dotted, 4-30 characters), deterministic. */
function keyVocabulary(rand, n) {
  const seen = new Set();
  const out = [];
  while (out.length < n) {
    const r = rand();
    let k;
    if (r < 0.4) k = word(rand, 1, 3) + word(rand, 1, 3).replace(/^./, (c) => c.toUpperCase());
    else if (r < 0.7) k = `${word(rand, 1, 3)}_${word(rand, 1, 3)}`;
    else if (r < 0.85) k = `${word(rand, 1, 2)}.${word(rand, 1, 3)}.${word(rand, 1, 2)}`;
    else k = `${word(rand, 1, 3)}${int(rand, 0, 9999)}`;
    if (k.length < 4 || seen.has(k)) continue;
    seen.add(k);
    out.push(k);
  }
  return out;
}

export const DISTINCT_KEYS = 100000;
/** --quick (a smoke run): a 2,000-key vocabulary. */
export const QUICK_DISTINCT_KEYS = 2000;
/** Segments of the distinct-keys stream: one timed operation is one segment (10^4 keys). */
export const DISTINCT_KEY_SEGMENTS = 10;

function distinctKeysStream(rand, quick) {
  // Messages as a telemetry / event pipeline sends them: a few fixed keys, then 5 keys drawn from a
  // 10^5-key vocabulary through a shuffled permutation (so one pass over the stream uses every one
  // of the 10^5 keys exactly once, then the next pass repeats the cycle), and 0-2 "hot" keys drawn
  // Zipf-like from the vocabulary's first 500. Cut into 10 segments of 2,000 messages (quick: 2 of
  // 200): a timed operation is one segment, 10^4 fresh keys; ten operations see all 10^5.
  const vocab = keyVocabulary(rand, quick ? QUICK_DISTINCT_KEYS : DISTINCT_KEYS);
  const perm = shuffle(rand, vocab.map((_, i) => i));
  const count = vocab.length / 5;
  const types = ['metric', 'event', 'log', 'span', 'audit', 'alert', 'trace', 'heartbeat'];
  const msgs = [];
  for (let i = 0, p = 0; i < count; i++) {
    const m = { id: i, type: pick(rand, types), ts: 1.7e12 + i * 37 };
    for (let j = 0; j < 5; j++) m[vocab[perm[p++]]] = scalar(rand);
    for (let j = int(rand, 0, 2); j > 0; j--) m[vocab[zipf(rand, 500)]] = int(rand, 0, 1000);
    msgs.push(m);
  }
  const segs = quick ? 2 : DISTINCT_KEY_SEGMENTS;
  const per = msgs.length / segs;
  return Array.from({ length: segs }, (_, i) => msgs.slice(i * per, (i + 1) * per));
}

function smallMessages(rand, quick) {
  // 1,000 messages (quick: 200) of 50-200 bytes from 24 shapes (RPC calls and replies, market ticks, chat,
  // key-value ops, log lines, tuples), values drawn fresh for each message.
  const makers = [
    () => ({ jsonrpc: '2.0', id: int(rand, 1, 1e6), method: `${word(rand)}.${word(rand)}`, params: [shortAscii(rand), int(rand, 0, 1000)] }),
    () => ({ jsonrpc: '2.0', id: int(rand, 1, 1e6), result: { ok: rand() < 0.9, value: double(rand) } }),
    () => ({ jsonrpc: '2.0', id: int(rand, 1, 1e6), error: { code: -int(rand, 32000, 32700), message: asciiText(rand, int(rand, 10, 60)) } }),
    () => ({ type: 'tick', sym: word(rand, 1, 2).toUpperCase(), px: Math.round(rand() * 1e6) / 100, qty: int(rand, 1, 5000), ts: 1.7e12 + int(rand, 0, 1e9) }),
    () => ({ type: 'trade', sym: word(rand, 1, 2).toUpperCase(), side: pick(rand, ['buy', 'sell']), px: double(rand), qty: double(rand), id: Math.floor(rand() * 2 ** 40) }),
    () => ({ op: pick(rand, ['get', 'set', 'del', 'incr']), key: `${word(rand)}:${int(rand, 0, 1e6)}`, ttl: int(rand, 0, 86400) }),
    () => ({ op: 'set', key: `${word(rand)}:${int(rand, 0, 1e6)}`, value: asciiText(rand, int(rand, 20, 100)) }),
    () => ({ user: int(rand, 1, 1e7), room: word(rand), text: rand() < 0.5 ? asciiText(rand, int(rand, 5, 80)) : unicodeText(rand, int(rand, 5, 40), pick(rand, SCRIPT_NAMES)), at: 1.7e12 + int(rand, 0, 1e9) }),
    () => ({ level: pick(rand, ['debug', 'info', 'warn', 'error']), msg: asciiText(rand, int(rand, 20, 100)), pid: int(rand, 1, 65535) }),
    () => [pick(rand, ['tag', 'app.log', 'metrics']), [[1.7e9 + int(rand, 0, 1e6), { message: asciiText(rand, int(rand, 5, 40)) }]]],
    () => [int(rand, 0, 3), int(rand, 1, 1e6), `${word(rand)}.${word(rand)}`, [double(rand), integer(rand)]],
    () => ({ x: double(rand), y: double(rand), z: double(rand), w: double(rand) }),
    () => ({ id: Math.floor(rand() * 2 ** 32).toString(16), ok: rand() < 0.5, n: integer(rand), tags: [word(rand), word(rand)] }),
    () => ({ event: 'click', target: `#${word(rand)}`, x: int(rand, 0, 1920), y: int(rand, 0, 1080), t: int(rand, 0, 1e7) }),
    () => ({ ack: int(rand, 0, 1e6), window: int(rand, 0, 65535) }),
    () => ({ cmd: 'ping', seq: int(rand, 0, 1e9) }),
    () => ({ lat: double(rand), lon: double(rand), acc: int(rand, 1, 100), speed: rand() < 0.3 ? null : double(rand) }),
    () => ({ name: shortUnicode(rand), city: shortUnicode(rand), age: int(rand, 0, 99) }),
    () => ({ status: int(rand, 100, 599), headers: { 'content-type': 'application/msgpack', 'x-request-id': Math.floor(rand() * 2 ** 32).toString(16) } }),
    () => ({ k: word(rand), v: [integer(rand), integer(rand), integer(rand)] }),
    () => ({ sensor: `${word(rand)}-${int(rand, 1, 99)}`, temp: Math.round(rand() * 800) / 10, hum: Math.round(rand() * 1000) / 10, bat: int(rand, 0, 100) }),
    () => ({ path: `/${word(rand)}/${word(rand)}`, method: pick(rand, ['GET', 'POST', 'PUT']), ms: double(rand), code: pick(rand, [200, 201, 204, 301, 404, 500]) }),
    () => ({ a: rand() < 0.5, b: null, c: int(rand, 0, 9), d: shortAscii(rand), e: [] }),
    () => ({ id: int(rand, 1, 1e6), emoji: pick(rand, EMOJI), count: int(rand, 0, 1e4) }),
  ];
  const msgs = [];
  while (msgs.length < (quick ? 200 : 1000)) {
    const m = pick(rand, makers)();
    const len = JSON.stringify(m).length;
    if (len >= 50 && len <= 200) msgs.push(m);
  }
  return [msgs]; // one segment
}

function stringsDoc(rand, quick, long, ascii) {
  const target = long ? (quick ? 25000 : 250000) : quick ? 10000 : 100000;
  const mainScript = () => pick(rand, ['han', 'han', 'kana', 'hangul', 'cyrillic', 'arabic', 'devanagari', 'greek']);
  if (long) {
    // articles, comments, log blobs: 500 B - 12 KB of text each
    const items = grow(target, (i) => {
      const len = logInt(rand, 500, 12000);
      const sc = mainScript();
      return {
        id: i,
        title: ascii ? asciiText(rand, int(rand, 20, 90)) : unicodeText(rand, int(rand, 8, 40), sc),
        body: ascii ? asciiText(rand, len) : unicodeText(rand, Math.round(len / 2), sc),
        summary: ascii ? asciiText(rand, int(rand, 100, 400)) : unicodeText(rand, int(rand, 50, 200), sc),
      };
    }, (x) => Buffer.byteLength(JSON.stringify(x)));
    return { kind: ascii ? 'articles' : '記事', items };
  }
  // short strings: records of names, labels, tags and enums (1-24 characters)
  const items = grow(target, (i) => {
    const s = ascii ? shortAscii : shortUnicode;
    return {
      id: i,
      name: s(rand),
      label: s(rand),
      tags: Array.from({ length: int(rand, 0, 6) }, () => s(rand)),
      state: ascii ? pick(rand, ['open', 'closed', 'merged', 'draft']) : pick(rand, ['開く', '閉じた', 'слит', '草稿', '✅', '❌']),
      note: rand() < 0.3 ? s(rand) : '',
    };
  }, (x) => Buffer.byteLength(JSON.stringify(x)));
  return { kind: 'labels', items };
}

function floatsDoc(rand, quick) {
  // time series, coordinates, matrices and measurement records: floats everywhere
  const target = quick ? 15000 : 200000;
  const series = grow(target * 0.6, (i) => ({
    name: `series-${i}`,
    unit: pick(rand, ['ms', 'ratio', 'degC', 'm/s', 'V']),
    points: Array.from({ length: int(rand, 20, 120) }, () => [double(rand, true), double(rand, true)]),
  }));
  const polygons = grow(target * 0.25, () => ({
    type: 'Polygon',
    coordinates: [Array.from({ length: int(rand, 4, 40) }, () => [180 * (rand() * 2 - 1), 90 * (rand() * 2 - 1)])],
  }));
  const matrix = Array.from({ length: quick ? 4 : 48 }, () => Array.from({ length: 24 }, () => double(rand, true)));
  const stats = grow(target * 0.05, () => ({ mean: double(rand, true), p50: double(rand, true), p99: double(rand, true), stddev: double(rand, true), min: double(rand, true), max: double(rand, true) }));
  return { series, polygons, matrix, stats };
}

function integersDoc(rand, quick) {
  // counters, ids, timestamps, deltas, histograms: integers of every width
  const target = quick ? 15000 : 200000;
  const rows = grow(target * 0.5, (i) => ({
    id: i,
    user: int(rand, 1, 2 ** 31 - 1),
    created: 1.5e12 + int(rand, 0, 3e11),
    views: logInt(rand, 1, 1e9),
    delta: integer(rand),
    flags: int(rand, 0, 255),
    big: rand() < 0.5 ? Math.floor(rand() * Number.MAX_SAFE_INTEGER) : -Math.floor(rand() * Number.MAX_SAFE_INTEGER),
  }));
  const runs = grow(target * 0.5, () => Array.from({ length: int(rand, 16, 256) }, () => integer(rand)));
  const histogram = Array.from({ length: quick ? 64 : 512 }, () => logInt(rand, 1, 1e6));
  return { rows, runs, histogram };
}

function binaryDoc(rand, quick) {
  // blobs: hashes (16-64 B), thumbnails and chunks (log-uniform 64 B - 64 KB), with small metadata
  const target = quick ? 25000 : 300000;
  const files = grow(target, (i) => {
    const size = logInt(rand, 64, 65536);
    return {
      id: i,
      name: `${word(rand)}.${pick(rand, ['png', 'bin', 'gz', 'webp', 'pdf'])}`,
      sha256: bytes(rand, 32),
      md5: bytes(rand, 16),
      data: bytes(rand, size),
      parts: Array.from({ length: int(rand, 0, 3) }, () => bytes(rand, logInt(rand, 1, 1024))),
    };
  }, (x) => x.data.length + 64 + x.parts.reduce((s, p) => s + p.length, 0));
  return { count: files.length, files };
}

function typedArraysDoc(rand, quick) {
  // numeric payloads as typed arrays: audio (Int16), samples (Float32), weights (Float64),
  // indices (Uint32), ids (Int32), pixels (Uint16), deltas (Int8); lengths 8 - 8,192 elements
  const target = quick ? 20000 : 250000;
  const kinds = [
    [Float32Array, () => (rand() - 0.5) * 10],
    [Float64Array, () => double(rand)],
    [Int16Array, () => int(rand, -32768, 32767)],
    [Uint16Array, () => int(rand, 0, 65535)],
    [Int32Array, () => int(rand, -(2 ** 31), 2 ** 31 - 1)],
    [Uint32Array, () => int(rand, 0, 2 ** 32 - 1)],
    [Int8Array, () => int(rand, -128, 127)],
  ];
  const tensors = grow(target, (i) => {
    const [Ctor, gen] = pick(rand, kinds);
    const n = logInt(rand, 8, 8192);
    const data = new Ctor(n);
    for (let j = 0; j < n; j++) data[j] = gen();
    return { id: i, name: `${word(rand)}.${Ctor.name}`, shape: [n], data };
  }, (x) => x.data.byteLength + 40);
  return { model: 'varied', tensors };
}

function datesDoc(rand, quick) {
  // records with millisecond Dates between 1903 and 2099 (a tenth before 1970)
  const target = quick ? 10000 : 100000;
  const date = () => new Date(rand() < 0.1 ? -int(rand, 0, 2.1e12) : int(rand, 0, 4.1e12));
  const events = grow(target, (i) => ({
    id: i,
    title: shortAscii(rand),
    start: date(),
    end: date(),
    updated: rand() < 0.2 ? null : new Date(1.7e12 + int(rand, 0, 1e10)),
    reminders: Array.from({ length: int(rand, 0, 3) }, date),
  }), (x) => 120 + x.title.length + x.reminders.length * 28);
  return { calendar: 'varied', events };
}

function recordsOneShape(rand, quick) {
  // one record shape (same keys, same order), many records: a database result set
  const n = quick ? 100 : 1000;
  return Array.from({ length: n }, (_, i) => ({
    id: i,
    guid: `${Math.floor(rand() * 2 ** 32).toString(16).padStart(8, '0')}-${Math.floor(rand() * 2 ** 16).toString(16).padStart(4, '0')}`,
    isActive: rand() < 0.6,
    balance: Math.round(rand() * 1e6) / 100,
    age: int(rand, 18, 90),
    eyeColor: pick(rand, ['blue', 'brown', 'green']),
    name: `${word(rand)} ${word(rand)}`,
    company: word(rand, 2, 4).toUpperCase(),
    email: `${word(rand)}@${word(rand)}.com`,
    registered: 1.2e12 + int(rand, 0, 5e11),
    latitude: 90 * (rand() * 2 - 1),
    longitude: 180 * (rand() * 2 - 1),
    tags: Array.from({ length: 3 }, () => word(rand)),
    friends: int(rand, 0, 500),
  }));
}

function recordsManyShapes(rand, quick) {
  // 1,000 records from 250 shapes: each shape a random subset (3-14) of a 60-key pool in its own
  // order, some with a nested object; value types follow the key, so shapes are realistic
  const pool = Array.from({ length: 60 }, (_, i) => ({ key: word(rand, 1, 3) + (i % 7 === 0 ? `_${word(rand, 1, 2)}` : ''), kind: i % 6 }));
  const uniq = [...new Map(pool.map((p) => [p.key, p])).values()];
  const shapes = Array.from({ length: 250 }, () => {
    const keys = shuffle(rand, [...uniq]).slice(0, int(rand, 3, 14));
    return { keys, nested: rand() < 0.3 ? shuffle(rand, [...uniq]).slice(0, int(rand, 2, 5)) : null };
  });
  const value = (kind) =>
    kind === 0 ? integer(rand) : kind === 1 ? shortAscii(rand) : kind === 2 ? double(rand) : kind === 3 ? rand() < 0.5 : kind === 4 ? shortUnicode(rand) : [int(rand, 0, 9), word(rand)];
  const n = quick ? 150 : 1000;
  return Array.from({ length: n }, () => {
    const s = shapes[zipf(rand, shapes.length)];
    const r = {};
    for (const p of s.keys) r[p.key] = value(p.kind);
    if (s.nested) {
      const o = {};
      for (const p of s.nested) o[p.key] = value(p.kind);
      r.nested = o;
    }
    return r;
  });
}

/**
 * The categories, in report order. `json: false` marks documents JSON cannot represent (the suite
 * leaves JSON out of them); typed arrays are also out of reach of @msgpack/msgpack and notepack.io
 * (they write the bytes as bin and read back a Uint8Array / Buffer), see bench/suites/varied.js.
 */
function largeNumbersDoc(rand, quick) {
  // one large document, as an export or a batch job writes it: long arrays of numbers (10^6
  // integers, 5 x 10^5 doubles) and 10^5 records; about 15 MB of MessagePack (quick: 1/20)
  const k = quick ? 20 : 1;
  const ints = Array.from({ length: 1e6 / k }, () => integer(rand));
  const floats = Array.from({ length: 5e5 / k }, () => double(rand));
  const rows = Array.from({ length: 1e5 / k }, (_, i) => ({
    id: i,
    at: 1.7e12 + int(rand, 0, 1e10),
    name: `${word(rand)} ${word(rand)}`,
    score: double(rand),
    count: int(rand, 0, 1e6),
    ok: rand() < 0.8,
    tags: [word(rand), word(rand)],
  }));
  return { ints, floats, rows };
}

function largeBinaryDoc(rand, quick) {
  // one large message of binaries (24 blobs of 0.5-2 MB, 30 MB; quick: 1/20), as a file sync or
  // an upload batch sends them
  const k = quick ? 20 : 1;
  const files = Array.from({ length: 24 }, (_, i) => {
    const n = int(rand, 512 * 1024, 2 * 1024 * 1024) / k | 0;
    const data = new Uint8Array(n);
    for (let j = 0; j < n; j += 4096) data.set(bytes(rand, Math.min(64, n - j)), j);
    return { id: i, name: `${word(rand)}.bin`, size: n, data };
  });
  return { files };
}

export const CATEGORIES = [
  { name: 'deep-wide', title: 'deep and wide tree (depth 12, fan-out up to 16, mixed scalars)', kind: 'doc', build: deepWide },
  { name: 'distinct-keys-stream', title: `stream of messages over a ${DISTINCT_KEYS.toLocaleString('en-US')}-key vocabulary (each key once per pass over the stream)`, kind: 'stream', build: distinctKeysStream },
  { name: 'small-messages', title: 'small messages (50-200 B of JSON each, 24 shapes)', kind: 'stream', build: smallMessages },
  { name: 'strings-short-ascii', title: 'short ASCII strings (names, labels, tags, ids; some need JSON escapes)', kind: 'doc', build: (r, q) => stringsDoc(r, q, false, true) },
  { name: 'strings-short-unicode', title: 'short non-ASCII strings (CJK, Hangul, Cyrillic, Arabic, accents, emoji)', kind: 'doc', build: (r, q) => stringsDoc(r, q, false, false) },
  { name: 'strings-long-ascii', title: 'long ASCII strings (0.5-12 KB texts)', kind: 'doc', build: (r, q) => stringsDoc(r, q, true, true) },
  { name: 'strings-long-unicode', title: 'long non-ASCII strings (CJK and other scripts with emoji, 0.25-6 K characters)', kind: 'doc', build: (r, q) => stringsDoc(r, q, true, false) },
  { name: 'floats', title: 'float-heavy (series, polygons, a matrix; full-precision doubles)', kind: 'doc', build: floatsDoc },
  { name: 'integers', title: 'integer-heavy (every width, negative, up to ±2^53)', kind: 'doc', build: integersDoc },
  { name: 'binary', title: 'binary-heavy (Uint8Array blobs, 1 B - 64 KB)', kind: 'doc', build: binaryDoc, json: false },
  { name: 'typed-arrays', title: 'typed arrays (Float32/64, Int8/16/32, Uint16/32; 8-8,192 elements)', kind: 'doc', build: typedArraysDoc, json: false, typedArrays: true },
  { name: 'dates', title: 'Dates (millisecond precision, 1903-2100)', kind: 'doc', build: datesDoc, json: false },
  { name: 'records-one-shape', title: 'array of records, one shape (14 keys)', kind: 'doc', build: recordsOneShape },
  { name: 'records-many-shapes', title: 'array of records, 250 shapes (Zipf-distributed, some nested)', kind: 'doc', build: recordsManyShapes },
  // (last, so that the seeds of the categories above stay what they were)
  { name: 'small-messages-records', title: 'small messages (as small-messages) through the default instances, new Packr() / new Encoder(): records on, each message defining its shapes', kind: 'stream', build: smallMessages, records: true },
  { name: 'large-numbers', title: 'one large document (10^6 integers, 5 x 10^5 doubles and 10^5 records in arrays; about 15 MB)', kind: 'doc', build: largeNumbersDoc },
  { name: 'large-binary', title: 'one large message of binaries (24 blobs of 0.5-2 MB, about 30 MB)', kind: 'doc', build: largeBinaryDoc, json: false },
];

export const SEED = 0x7a17;

/**
 * Builds one category: { name, title, kind, doc } where doc is the document, or for a stream the
 * array of segments (arrays of messages). Deterministic for a given (name, quick).
 */
export function generateVaried(name, { quick = false } = {}) {
  const idx = CATEGORIES.findIndex((c) => c.name === name);
  if (idx < 0) throw new Error(`unknown varied category ${name}`);
  const c = CATEGORIES[idx];
  const doc = c.build(prng(SEED + idx * 7919), quick);
  return { ...c, doc };
}
