// Line and branch coverage of the JS wrapper (js/src/) under the Node test project, by V8's own
// coverage (@vitest/coverage-v8), then every statement and branch no test ran, with its source.
//
//   node scripts/coverage-js.mjs            run the Node project with coverage, then list
//   node scripts/coverage-js.mjs --list     list again from the last run's build/coverage-js/
//
// What it does not count: the browser and emcc projects (the browser entry points and
// load.browser.js show 0% here; the Chromium project runs them). Entry files that only re-export
// are listed as 0% functions when nothing calls them through that file. Takes about 2 minutes.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'build', 'coverage-js');

if (!process.argv.includes('--list')) {
  const r = spawnSync('npx', ['vitest', 'run', '--project', 'node', '--coverage.enabled', '--coverage.provider=v8',
    '--coverage.include=js/src/**', '--coverage.exclude=js/src/*-inline.js',
    '--coverage.reporter=text-summary', '--coverage.reporter=json', `--coverage.reportsDirectory=${out}`], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`coverage-js: the test run failed (status ${r.status})`);
    process.exit(r.status || 1);
  }
}

/** @type {Record<string, any>} */
const data = JSON.parse(fs.readFileSync(path.join(out, 'coverage-final.json'), 'utf8'));
let lines = 0, missed = 0;
for (const file of Object.keys(data).sort()) {
  const f = data[file];
  const src = fs.readFileSync(file, 'utf8').split('\n');
  /** @type {Map<number, string[]>} line -> what did not run there */
  const gaps = new Map();
  const note = (line, what) => { if (!gaps.has(line)) gaps.set(line, []); gaps.get(line).push(what); };
  for (const [id, loc] of Object.entries(f.statementMap)) {
    lines++;
    if (f.s[id] === 0) { missed++; note(/** @type {any} */ (loc).start.line, 'statement'); }
  }
  for (const [id, br] of Object.entries(f.branchMap)) {
    const counts = f.b[id];
    const b = /** @type {any} */ (br);
    counts.forEach((c, i) => {
      if (c !== 0) return;
      const loc = b.locations[i] && b.locations[i].start.line ? b.locations[i] : b.loc;
      note(loc.start.line, `${b.type} branch ${i}`);
    });
  }
  if (gaps.size === 0) continue;
  console.log(`\n${path.relative(root, file)}`);
  for (const line of [...gaps.keys()].sort((a, b) => a - b)) {
    const text = (src[line - 1] || '').trim();
    console.log(`${String(line).padStart(6)}  ${[...new Set(gaps.get(line))].join(', ').padEnd(22)} ${text.length > 110 ? text.slice(0, 107) + '...' : text}`);
  }
}
console.log(`\n${missed} of ${lines} statements not executed; branches above as V8 counted them`);
