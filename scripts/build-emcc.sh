#!/usr/bin/env bash
# build/wirepack-emcc.wasm: the same csrc/*.c built with Debian's emscripten (3.1.6) as a
# standalone wasm, used by the `emcc` vitest project as a cross-compiler check. Called by
# `build.sh --emcc`; skipped when nothing changed.
#
# What the module looks like (emcc 3.1.6, -sSTANDALONE_WASM --no-entry):
#  - imports: none while the C core uses no libc calls that reach the host. Should one appear
#    (e.g. wasi_snapshot_preview1.proc_exit via abort(), env.emscripten_notify_memory_growth
#    via malloc), tests/setup-emcc.js stubs every import it finds, so the loader still works.
#  - exports: every __attribute__((export_name)) function (emcc honours export_name; checked
#    below), "memory" (initial 16 MiB, growable), plus emscripten's own: _initialize (WASI
#    reactor init; runs static constructors, which the core has none of), stackSave,
#    stackRestore, stackAlloc, __errno_location, __indirect_function_table.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
FORCE=0
[[ "${1:-}" == --force ]] && FORCE=1

log() { printf '[build-emcc] %s\n' "$*" >&2; }

shopt -s nullglob
CSRC=(csrc/*.c)
CHDR=(csrc/*.h)
shopt -u nullglob
((${#CSRC[@]})) || { echo "build-emcc.sh: no csrc/*.c" >&2; exit 1; }

# Debian's emcc needs its node modules (acorn etc.) from /usr/share/nodejs.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
# A writable cache under build/ that reuses Debian's prebuilt (frozen) sysroot and system
# libraries through a symlink instead of rebuilding them (Debian sets FROZEN_CACHE = True).
DEBIAN_CACHE=/usr/share/emscripten/cache
export EM_CACHE="$ROOT/build/emcache"
mkdir -p "$EM_CACHE"
[[ -e "$EM_CACHE/sysroot" ]] || ln -sfn "$DEBIAN_CACHE/sysroot" "$EM_CACHE/sysroot"
[[ -f "$EM_CACHE/sysroot_install.stamp" ]] || cp "$DEBIAN_CACHE/sysroot_install.stamp" "$EM_CACHE/"
export EMCC_TEMP_DIR="$ROOT/build/emtmp"
mkdir -p "$EMCC_TEMP_DIR"

# Same stack as the clang build (128 KiB, not emcc's 64 KiB suggestion): the decoder may
# recurse up to maxDepth and an overflow is silent memory corruption in wasm.
EMFLAGS=(-O2 -msimd128 -mbulk-memory -Wall -Wextra -Icsrc -DWP_DEC_SLACK=16u
  -sSTANDALONE_WASM -sTOTAL_STACK=131072 --no-entry -sALLOW_MEMORY_GROWTH=1
  -sERROR_ON_UNDEFINED_SYMBOLS=1)

hash="$( {
  for f in "${CSRC[@]}" "${CHDR[@]}"; do printf '%s\n' "$f"; sha256sum < "$f"; done
  printf '%s\n' "${EMFLAGS[*]}"
  cat "$0"
  cat /usr/share/emscripten/emscripten-version.txt 2>/dev/null || emcc --version | head -1
} | sha256sum | cut -d' ' -f1)"
stamp=build/.stamps/emcc
mkdir -p build/.stamps
if [[ $FORCE == 0 && -f build/wirepack-emcc.wasm && -f $stamp && "$(cat $stamp)" == "$hash" ]]; then
  exit 0
fi

log "emcc ${#CSRC[@]} C files -> build/wirepack-emcc.wasm"
emcc "${EMFLAGS[@]}" "${CSRC[@]}" -o build/wirepack-emcc.wasm.tmp.wasm
mv build/wirepack-emcc.wasm.tmp.wasm build/wirepack-emcc.wasm

# The emcc module must export everything the clang build exports (build.sh builds that one
# first; emcc 3.1.6 honours __attribute__((export_name)), this checks it stays so).
node - build/wirepack-emcc.wasm build/wirepack.wasm <<'EOF'
const fs = require('fs');
const [file, ref] = process.argv.slice(2);
const exportsOf = (f) => WebAssembly.Module.exports(new WebAssembly.Module(fs.readFileSync(f))).map((e) => e.name);
const mod = new WebAssembly.Module(fs.readFileSync(file));
const exps = new Set(WebAssembly.Module.exports(mod).map((e) => e.name));
const missing = fs.existsSync(ref) ? exportsOf(ref).filter((n) => !exps.has(n)) : [];
if (missing.length) {
  console.error(`build-emcc.sh: emcc module lacks exports of ${ref}: ${missing.join(', ')}`);
  process.exit(1);
}
const imps = WebAssembly.Module.imports(mod).map((i) => `${i.module}.${i.name}`);
console.error(`[build-emcc] ${fs.statSync(file).size} bytes, ${exps.size} exports, imports: ${imps.join(', ') || 'none'}`);
EOF
printf '%s\n' "$hash" > "$stamp"
