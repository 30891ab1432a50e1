// Markdown output in the style of msgpackr's benchmark.md.

const int = (x) => Math.round(x).toLocaleString('en-US');
const pct = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
export const ratio = (x) => (x == null || !Number.isFinite(x) ? 'n/a' : `${x.toFixed(2)}x`);

/** Pads a table (array of rows of strings) into aligned markdown; align: 'l' | 'r' per column. */
export function table(header, rows, align) {
  const widths = header.map((h, i) => Math.max(h.length, 3, ...rows.map((r) => r[i].length)));
  const pad = (s, i) => (align[i] === 'r' ? s.padStart(widths[i]) : s.padEnd(widths[i]));
  const lines = [header.map(pad).join(' | ')];
  lines.push(widths.map((w, i) => (align[i] === 'r' ? '-'.repeat(w - 1) + ':' : '-'.repeat(w))).join(' | '));
  for (const r of rows) lines.push(r.map(pad).join(' | '));
  return lines.join('\n');
}

/**
 * One input's table: operation | op | ms | op/s | size | spread | <subject> / this.
 * op and ms are totals over the timed rounds; op/s is the median round (wall clock).
 */
export function inputTable(result, suite, cfg) {
  const { rows, ratios } = result;
  const subj = suite.subject;
  const body = rows.map((r) => {
    let rel = '';
    if (ratios[r.op]) rel = r.id === subj ? '1.00x' : ratio(ratios[r.op].vs[r.id]);
    return [
      r.label,
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
  for (const op of ['encode', 'decode']) {
    const b = ratios[op]?.bestPeer;
    if (b) lines.push(`${subj} / best peer, ${op}: ${ratio(b.ratio)} (best peer: ${b.id}, ${int(b.opsPerSec)} op/s)`);
  }
  return lines.join('\n');
}

/** Summary over the inputs of a suite. */
export function summaryTable(results, suite, key = 'ratios') {
  const subj = suite.subject;
  const pair = (ratios, id) => `${ratio(ratios.encode?.vs[id])} / ${ratio(ratios.decode?.vs[id])}`;
  const header = [
    'input',
    `${subj} enc op/s`,
    `${subj} dec op/s`,
    ...suite.summaryPeers.map((id) => `vs ${id} enc/dec`),
    'vs best peer enc/dec',
    ...(suite.summaryReferences ?? []).map((id) => `vs ${id} (ref) enc/dec`),
  ];
  const body = results.map((res) => {
    const r = res[key];
    return [
      res.input,
      r.encode ? int(r.encode.opsPerSec) : 'n/a',
      r.decode ? int(r.decode.opsPerSec) : 'n/a',
      ...suite.summaryPeers.map((id) => pair(r, id)),
      `${ratio(r.encode?.bestPeer?.ratio)} / ${ratio(r.decode?.bestPeer?.ratio)}`,
      ...(suite.summaryReferences ?? []).map((id) => pair(r, id)),
    ];
  });
  return table(header, body, header.map((_, i) => (i === 0 ? 'l' : 'r')));
}
