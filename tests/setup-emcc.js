// Setup for the `emcc` vitest project: swap the wasm instance behind 'wirepack' for
// build/wirepack-emcc.wasm (the same csrc/ built by emscripten: `bash build.sh --emcc`),
// so every test file also checks the C core as compiled by a second toolchain.
//
// The emcc module (-sSTANDALONE_WASM --no-entry) currently imports nothing. Any import that
// appears later (wasi_snapshot_preview1.proc_exit / fd_write from abort() or printf,
// env.emscripten_notify_memory_growth from malloc) gets a stub here: proc_exit and unknown
// functions throw (the core must never reach them), the memory-growth hook is a no-op.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { initSync } from 'wirepack';

const file = fileURLToPath(new URL('../build/wirepack-emcc.wasm', import.meta.url));
let bytes;
try {
  bytes = readFileSync(file);
} catch (err) {
  throw new Error(`${file} is missing: run \`bash build.sh --emcc\` first (${err.message})`);
}
const mod = new WebAssembly.Module(bytes);

/** @type {Record<string, Record<string, unknown>>} */
const imports = {};
for (const imp of WebAssembly.Module.imports(mod)) {
  if (imp.kind !== 'function') throw new Error(`emcc module imports a ${imp.kind}: ${imp.module}.${imp.name}`);
  const ns = (imports[imp.module] ??= {});
  ns[imp.name] =
    imp.name === 'emscripten_notify_memory_growth'
      ? () => {}
      : (...args) => {
          throw new Error(`emcc module called its import ${imp.module}.${imp.name}(${args.join(', ')})`);
        };
}

initSync(mod, imports);
