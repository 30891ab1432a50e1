// Fixture loading: everything comes from bench/fixtures/, never from outside the repository.
import fs from 'node:fs';
import path from 'node:path';
import { BENCH_DIR } from './config.js';

export const FIXTURES_DIR = path.join(BENCH_DIR, 'fixtures');

/** Loads bench/fixtures/<file> as JSON: { name, file, bytes, doc }. */
export function loadJsonFixture(file) {
  const full = path.join(FIXTURES_DIR, file);
  const text = fs.readFileSync(full, 'utf8');
  return { name: file.replace(/\.json$/, ''), file, bytes: Buffer.byteLength(text), doc: JSON.parse(text) };
}
