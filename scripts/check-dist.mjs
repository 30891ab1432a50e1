// build.sh step 6 runs this over the bundles it wrote (dist/wirepack.cjs, dist/esm/*.js):
//
//   node scripts/check-dist.mjs FILE...
//
// esbuild (as Bun) turns every top-level const of a bundle into var. V8 11.3 (Node 20) does not
// fold a module-level var to its value, so `alias.call(x, ...)` on a top-level alias of a builtin
// method (`const charCodeAt = String.prototype.charCodeAt`) is a generic call of an unknown
// target in the bundle, where js/src's const is folded and inlined: 4.7-5 ns a character against
// 1.2 in the encoder's string loop, which made pack of small documents 1.1-1.5x slower from dist/
// than from js/src (December 2026). Chromium 156's V8 folds such a var as it does a const: this is
// about Node 20 and engines of its age. js/src reads such builtins inside the function that calls
// them, or through their full path (`Object.prototype.hasOwnProperty.call`); this fails the
// build when a bundle has the pattern again, naming the alias and the first line that calls it
// (esbuild's own helpers, named __*, are left alone: they run once, at load).
import fs from 'node:fs';

const ALIAS = /^var ([A-Za-z_$][\w$]*) = [A-Za-z_$][\w$.]*\.prototype\.[A-Za-z_$][\w$]*;$/gm;
let bad = 0;
for (const file of process.argv.slice(2)) {
  const src = fs.readFileSync(file, 'utf8');
  for (const [, name] of src.matchAll(ALIAS)) {
    if (name.startsWith('__')) continue; // esbuild's own helpers (__hasOwnProp: CJS export set-up, once)
    const use = new RegExp(`(^|[^\\w$.])${name.replace(/\$/g, '\\$')}\\.(call|apply)\\(`, 'm').exec(src);
    if (use === null) continue;
    const line = src.slice(0, use.index).split('\n').length;
    console.error(`${file}:${line}: ${name}.${use[2]}(...) on a top-level alias of a builtin method: a generic call in the bundle (scripts/check-dist.mjs)`);
    bad++;
  }
}
process.exit(bad === 0 ? 0 : 1);
