// scripts/check-dist.mjs, which build.sh runs over dist/ after esbuild: it must fail on a bundle
// that calls a builtin method through a top-level alias (esbuild makes the alias a var, which
// V8 11.3 calls generically), pass the bundles build.sh wrote, and leave esbuild's own helpers be.
import { describe, test, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCRIPT = path.join(REPO, 'scripts/check-dist.mjs');

/** Run the check over files holding these sources; returns its exit status and stderr. */
function check(...sources) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wirepack-check-dist-'));
  try {
    const files = sources.map((src, i) => {
      const f = path.join(dir, `chunk-${i}.js`);
      fs.writeFileSync(f, src);
      return f;
    });
    const r = spawnSync(process.execPath, [SCRIPT, ...files], { encoding: 'utf8' });
    return { status: r.status, stderr: r.stderr };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('scripts/check-dist.mjs', () => {
  test('fails on .call or .apply of a top-level alias of a builtin method, naming the line', () => {
    const bundle = [
      '// src/encode.js',
      'var charCodeAt = String.prototype.charCodeAt;',
      'function writeString(s) {',
      '  return charCodeAt.call(s, 0);',
      '}',
      'var toTag = Object.prototype.toString;',
      'function tag(v) { return toTag.apply(v, []); }',
    ].join('\n');
    const r = check(bundle);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/chunk-0\.js:4: charCodeAt\.call\(\.\.\.\)/);
    expect(r.stderr).toMatch(/chunk-0\.js:7: toTag\.apply\(\.\.\.\)/);
  });

  test('passes the same builtins read inside the function or through their path, and esbuild helpers', () => {
    const bundle = [
      'var __hasOwnProp = Object.prototype.hasOwnProperty;',
      'var __copyProps = (to, from) => { for (let k in from) if (!__hasOwnProp.call(to, k)) to[k] = from[k]; return to; };',
      'function writeString(s) {',
      '  const charCodeAt = String.prototype.charCodeAt;',
      '  return charCodeAt.call(s, 0);',
      '}',
      'function own(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }',
      'var dateToJSON = Date.prototype.toJSON;',
      'function isPlainDate(d) { return d.toJSON === dateToJSON; }',
    ].join('\n');
    expect(check(bundle)).toEqual({ status: 0, stderr: '' });
  });

  test('passes the bundles build.sh wrote', () => {
    const esm = fs.readdirSync(path.join(REPO, 'dist/esm')).filter((f) => f.endsWith('.js')).map((f) => path.join(REPO, 'dist/esm', f));
    const r = spawnSync(process.execPath, [SCRIPT, path.join(REPO, 'dist/wirepack.cjs'), ...esm], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
