// Runs a "standard" suite: inputs x contenders through the shared runner (bench/lib/runner.js),
// rendered per view. A view is one subject and the rows compared with it; peers-benchmark has two
// (msgpackr's table with wirepack, cbor-x's table with wirepack/cbor) over one set of measurements.
import { loadJsonFixture } from './fixtures.js';
import { runInput, computeRatios, median } from './runner.js';
import { inputTable, implementationTable, summaryTable, REFERENCE_NOTE } from './report.js';

/** Loads every contender once per process (by id); returns suite-local copies with .loaded or .loadError. */
export async function loadContenders(list, cfg, cache) {
  const outList = [];
  for (const c of list) {
    if (cfg.contenders && c.role !== 'subject' && !cfg.contenders.includes(c.id)) continue;
    if (!cache.has(c.id)) {
      cache.set(
        c.id,
        c.load().then(
          (loaded) => ({ loaded }),
          (err) => ({ loadError: err && err.message ? err.message.split('\n')[0] : String(err) }),
        ),
      );
    }
    outList.push({ ...c, ...(await cache.get(c.id)) });
  }
  return outList;
}

export function contenderLine(c) {
  if (c.loadError) return `- ${c.id}: FAILED to load (${c.loadError})`;
  const variant = c.variant ? `; ${c.variant}` : '';
  const ref = c.role === 'reference' ? ` — reference row ${REFERENCE_NOTE}` : '';
  return `- ${c.id}: ${c.loaded.info}${variant}${ref}`;
}

function viewsOf(suite) {
  return suite.views ?? [
    {
      subject: suite.subject,
      ids: null,
      summaryPeers: suite.summaryPeers ?? [],
      summaryReferences: suite.summaryReferences ?? [],
    },
  ];
}

export async function runStandardSuite(suite, ctx) {
  const { cfg, out, log, cache, h } = ctx;
  const contenders = await loadContenders(suite.contenders, cfg, cache);
  out(`${h} ${suite.name}: ${suite.title}`);
  out();
  if (suite.method) {
    out(suite.method);
    out();
  }
  for (const c of contenders) out(contenderLine(c));
  const views = viewsOf(suite);
  const result = {
    name: suite.name,
    title: suite.title,
    contenders: contenders.map((c) => ({ id: c.id, role: c.role, info: c.loaded?.info ?? null, loadError: c.loadError ?? null })),
    inputs: [],
    headline: [],
    failures: [],
  };

  for (const file of cfg.quick && suite.quickInputs ? suite.quickInputs : suite.inputs) {
    if (cfg.inputs && !cfg.inputs.some((f) => file.includes(f))) continue;
    const input = loadJsonFixture(file);
    log(`[${ctx.pass}] [${suite.name}] ${file} ...`);
    const t0 = process.hrtime.bigint();
    const { rows, failed } = runInput(input, contenders, cfg, log);
    const res = { input: input.file, jsonBytes: input.bytes, rows, failed, views: [] };
    for (const f of failed) result.failures.push({ suite: suite.name, input: input.file, ...f });
    out();
    out(`${h}# ${input.file} (${input.bytes.toLocaleString('en-US')} B of JSON)`);
    for (const v of views) {
      let vrows = v.ids ? v.ids.map((id) => rows.filter((r) => r.id === id)).flat() : rows;
      // a view of one mode (records, bundled strings, packed) compares with the peers' same mode
      if (v.peers) vrows = vrows.map((r) => (v.peers.includes(r.id) ? { ...r, role: 'peer' } : r));
      const ratios = computeRatios(vrows, v.subject);
      const ratiosCpu = computeRatios(vrows, v.subject, 'cpuOpsPerSec');
      res.views.push({ subject: v.subject, title: v.title ?? null, ids: vrows.map((r) => r.id), ratios, ratiosCpu });
      out();
      if (v.title) {
        out(`**${v.title}**`);
        out();
      }
      out(v.layout === 'implementations' ? implementationTable(vrows, ratios, v.subject, cfg) : inputTable(vrows, ratios, v.subject, cfg));
      for (const op of ['encode', 'decode']) {
        const r = ratios[op];
        result.headline.push({
          suite: suite.name,
          subject: v.subject,
          input: input.file,
          op,
          failed: !r,
          opsPerSec: r?.opsPerSec ?? null,
          bestPeer: r?.bestPeer ?? null,
          bestRef: r?.bestRef ?? null,
        });
      }
    }
    result.inputs.push(res);
    log(`[${ctx.pass}] [${suite.name}] ${file} done in ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1)} s`);
  }

  if (result.inputs.length > 1 || suite.alwaysSummary) {
    for (let vi = 0; vi < views.length; vi++) {
      const v = views[vi];
      const entries = result.inputs.map((res) => ({ input: res.input, ...res.views[vi] }));
      out();
      out(`${h}# Summary: ${suite.name}, ${v.subject} (op/s, and ${v.subject} / peer op/s: > 1 means ${v.subject} is faster)`);
      out();
      out(summaryTable(entries, v.subject, v.summaryPeers ?? [], v.summaryReferences ?? []));
      const shares = result.inputs.flatMap((i) => i.rows.filter((r) => !r.failed).map((r) => r.cpuShare)).sort((a, b) => a - b);
      if (shares.length && median(shares) < 0.9) {
        out();
        out(
          `This process got a median ${Math.round(median(shares) * 100)}% of a core per batch (other processes took the ` +
            'rest), so here is the same summary from process CPU time (op per CPU second):',
        );
        out();
        out(summaryTable(entries, v.subject, v.summaryPeers ?? [], v.summaryReferences ?? [], 'ratiosCpu'));
      }
    }
  }
  const shares = result.inputs.flatMap((i) => i.rows.filter((r) => !r.failed).map((r) => r.cpuShare)).sort((a, b) => a - b);
  if (shares.length) result.medianCpuShare = median(shares);
  result.checksum = result.inputs.reduce((t, i) => t + i.rows.reduce((u, r) => u + (r.checksum ?? 0), 0), 0);
  return result;
}
