// Markdown output. Per-input tables use the columns of msgpackr's and cbor-x's benchmark.md
// (operation | op | ms | op/s | size) plus the spread of the rounds and the ratio to the subject.

export const int = (x) => (x == null || !Number.isFinite(x) ? 'n/a' : Math.round(x).toLocaleString('en-US'));
const pct = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
export const ratio = (x) => (x == null || !Number.isFinite(x) ? 'n/a' : `${x.toFixed(2)}x`);
export const REFERENCE_NOTE = '(another mode: see its own table)';

/** Pads a table (array of rows of strings) into aligned markdown; align: 'l' | 'r' per column. */
export function table(header, rows, align) {
  const widths = header.map((h, i) => Math.max(h.length, 3, ...rows.map((r) => String(r[i]).length)));
  const pad = (s, i) => (align[i] === 'r' ? String(s).padStart(widths[i]) : String(s).padEnd(widths[i]));
  const lines = [header.map(pad).join(' | ')];
  lines.push(widths.map((w, i) => (align[i] === 'r' ? '-'.repeat(w - 1) + ':' : '-'.repeat(w))).join(' | '));
  for (const r of rows) lines.push(r.map(pad).join(' | '));
  return lines.join('\n');
}

export function rowLabel(r) {
  return r.role === 'reference' ? `${r.label} ${REFERENCE_NOTE}` : r.label;
}

/**
 * One input's table for one view: operation | op | ms | op/s | size | spread | <subject> / this.
 * op and ms are totals over the timed rounds; op/s is the median round (wall clock).
 */
export function inputTable(rows, ratios, subj, cfg) {
  const body = rows.map((r) => {
    if (r.failed) return [rowLabel(r), '', '', 'FAILED', '', '', ''];
    let rel = '';
    if (ratios[r.op]) rel = r.id === subj ? '1.00x' : ratio(ratios[r.op].vs[r.id]);
    return [
      rowLabel(r),
      int(r.totalOps),
      int(r.totalMs),
      int(r.opsPerSec),
      int(r.size),
      `${pct(r.spreadLow)} / ${pct(r.spreadHigh)}`,
      rel,
    ];
  });
  const header = [
    `operation (${cfg.rounds} rounds, op/s = median round)`,
    'op',
    'ms',
    'op/s',
    'size',
    'spread (min / max vs median)',
    `${subj} / this`,
  ];
  const lines = [table(header, body, ['l', 'r', 'r', 'r', 'r', 'r', 'r'])];
  lines.push('');
  lines.push(...bestPeerLines(ratios, subj));
  lines.push(...failureLines(rows));
  return lines.join('\n');
}

export function bestPeerLines(ratios, subj) {
  const lines = [];
  for (const op of ['encode', 'decode']) {
    const b = ratios[op]?.bestPeer;
    if (b) {
      lines.push(
        `- ${subj} / best peer, ${op}: **${ratio(b.ratio)}** (best peer: ${b.id}, ${int(b.opsPerSec)} op/s; ` +
          `${subj} ${int(ratios[op].opsPerSec)} op/s)` +
          (ratios[op].bestRef ? `; fastest reference row: ${ratios[op].bestRef.id}, ${subj} / it ${ratio(ratios[op].bestRef.ratio)}` : ''),
      );
    } else if (!ratios[op]) {
      lines.push(`- ${subj}, ${op}: FAILED, no ratio`);
    }
  }
  return lines;
}

export function failureLines(rows) {
  const seen = new Set();
  const lines = [];
  for (const r of rows) {
    if (!r.failed || seen.has(r.id)) continue;
    seen.add(r.id);
    lines.push(`- FAILED ${r.id}: ${r.reason}`);
  }
  return lines;
}

/**
 * msgpack-benchmark's layout: one row per implementation, encode and decode side by side, and the
 * fastest implementation per operation named under the table (as its README names the winner).
 */
export function implementationTable(rows, ratios, subj, cfg) {
  const ids = [...new Set(rows.map((r) => r.id))];
  const body = ids.map((id) => {
    const enc = rows.find((r) => r.id === id && r.op === 'encode');
    const dec = rows.find((r) => r.id === id && r.op === 'decode');
    if (enc.failed) return [id, 'FAILED', 'FAILED', '', '', '', ''];
    const rel = (op) => (id === subj ? '1.00x' : ratio(ratios[op]?.vs[id]));
    return [
      id,
      int(enc.opsPerSec),
      int(dec.opsPerSec),
      int(enc.size),
      `${pct(enc.spreadLow)} / ${pct(enc.spreadHigh)}`,
      `${pct(dec.spreadLow)} / ${pct(dec.spreadHigh)}`,
      `${rel('encode')} / ${rel('decode')}`,
    ];
  });
  const header = [
    `implementation (${cfg.rounds} rounds)`,
    'encode op/s',
    'decode op/s',
    'size',
    'encode spread',
    'decode spread',
    `${subj} / this (enc / dec)`,
  ];
  const lines = [table(header, body, ['l', 'r', 'r', 'r', 'r', 'r', 'r']), ''];
  for (const op of ['encode', 'decode']) {
    const ok = rows.filter((r) => r.op === op && !r.failed).sort((a, b) => b.opsPerSec - a.opsPerSec);
    if (!ok.length) continue;
    const [first, second] = ok;
    lines.push(
      `- Fastest ${op}: **${first.id}** (${int(first.opsPerSec)} op/s` +
        (second ? `, ${ratio(first.opsPerSec / second.opsPerSec)} the runner-up ${second.id}` : '') +
        ')',
    );
  }
  lines.push(...bestPeerLines(ratios, subj));
  lines.push(...failureLines(rows));
  return lines.join('\n');
}

/** Summary over the inputs of one view: subject op/s and subject / peer ratios. */
export function summaryTable(entries, subj, peers, references = [], key = 'ratios') {
  const pair = (r, id) => `${ratio(r.encode?.vs[id])} / ${ratio(r.decode?.vs[id])}`;
  const header = [
    'input',
    `${subj} enc op/s`,
    `${subj} dec op/s`,
    ...peers.map((id) => `vs ${id} enc/dec`),
    'vs best peer enc/dec',
    ...references.map((id) => `vs ${id} (ref) enc/dec`),
  ];
  const body = entries.map((e) => {
    const r = e[key];
    return [
      e.input,
      r.encode ? int(r.encode.opsPerSec) : 'FAILED',
      r.decode ? int(r.decode.opsPerSec) : 'FAILED',
      ...peers.map((id) => pair(r, id)),
      `${ratio(r.encode?.bestPeer?.ratio)} / ${ratio(r.decode?.bestPeer?.ratio)}`,
      ...references.map((id) => pair(r, id)),
    ];
  });
  return table(header, body, header.map((_, i) => (i === 0 ? 'l' : 'r')));
}
