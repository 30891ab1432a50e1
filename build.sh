#!/usr/bin/env bash
# wirepack build: toolchain install, C -> wasm, inline module, package output.
#
#   bash build.sh            deps + build/wirepack.wasm + js/src/wasm-inline.js + dist/
#   bash build.sh --emcc     also build/wirepack-emcc.wasm (emscripten cross-check build)
#   bash build.sh --native   also build and run the C unit tests (tests/c/run.sh, ASan+UBSan)
#   bash build.sh --force    ignore the up-to-date stamps and rebuild everything
#
# Idempotent: every step is skipped when a hash of its inputs (sources + flags + tool
# versions) matches the stamp in build/.stamps/, so a warm run takes well under a second.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$ROOT"

WANT_EMCC=0 WANT_NATIVE=0 FORCE=0
for arg in "$@"; do
  case "$arg" in
    --emcc) WANT_EMCC=1 ;;
    --native) WANT_NATIVE=1 ;;
    --force) FORCE=1 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "build.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done

log() { printf '[build] %s\n' "$*" >&2; }
STAMPS="build/.stamps"
mkdir -p "$STAMPS"

# up_to_date NAME HASH: true when step NAME last succeeded with the same input hash.
up_to_date() { [[ $FORCE == 0 && -f "$STAMPS/$1" && "$(cat "$STAMPS/$1")" == "$2" ]]; }
mark_done() { printf '%s\n' "$2" > "$STAMPS/$1"; }
# hash_inputs FILE... : one hash over the names and contents of the given files (missing ones count as empty)
hash_inputs() {
  local f
  for f in "$@"; do
    printf '%s\n' "$f"
    if [[ -f "$f" ]]; then sha256sum < "$f"; fi
  done | sha256sum | cut -d' ' -f1
}
hash_str() { printf '%s' "$*" | sha256sum | cut -d' ' -f1; }

# ------------------------------------------------------------------ 1. system packages
# libclang-rt-14-dev: the ASan/UBSan runtimes for the native C tests; gcc: they check that the
# sources also build warning-free with it (tests/c/run.sh); python3: scripts/wat-if-blocks.py.
APT_PKGS=(clang lld wasi-libc libclang-rt-14-dev-wasm32 libclang-rt-14-dev binaryen chromium emscripten gcc python3)
missing=()
for p in "${APT_PKGS[@]}"; do
  dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  log "installing apt packages: ${missing[*]}"
  SUDO=()
  if [[ $(id -u) != 0 ]]; then SUDO=(sudo); fi
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" < /dev/null
fi

# ------------------------------------------------------------------ 2. npm dependencies
# Never let any package download a browser: tests use Debian's /usr/bin/chromium.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# npm keeps node_modules/.package-lock.json in step with what it installed: missing or older
# than package-lock.json means node_modules is absent, partial or stale.
NPM_MARK=node_modules/.package-lock.json
if [[ ! -f $NPM_MARK || ! -x node_modules/.bin/vitest || package-lock.json -nt $NPM_MARK ]]; then
  log "npm ci"
  npm ci --no-audit --no-fund < /dev/null
  touch "$NPM_MARK"
fi

# ------------------------------------------------------------------ 3. build/wirepack.wasm (clang)
shopt -s nullglob
CSRC=(csrc/*.c)
CHDR=(csrc/*.h)
shopt -u nullglob
if ((${#CSRC[@]} == 0)); then
  echo "build.sh: no csrc/*.c found" >&2
  exit 1
fi

CLANG="${CLANG:-clang}"
WASM_LD="${WASM_LD:-wasm-ld}"
# The wasm-only features we rely on; every engine with SIMD (Chrome 91, Firefox 89,
# Safari 16.4, Node 16.4) has all of them.
WASM_FEATURES=(-mbulk-memory -msimd128 -msign-ext -mmutable-globals -mnontrapping-fptoint)
# -flto: the core is split over several files; LTO lets wasm-ld inline across them.
# Builtins stay enabled so __builtin_memcpy/memset become memory.copy/memory.fill.
CFLAGS_WASM=(--target=wasm32 -nostdlib -O3 -flto "${WASM_FEATURES[@]}" -Wall -Wextra -Icsrc)
INITIAL_MEMORY=$((2 * 1024 * 1024))  # grows at run time (no maximum is set)
LDFLAGS_WASM=(--no-entry --strip-debug -z stack-size=131072 --lto-O3)
WASM_OPT_FEATURES=(--enable-bulk-memory --enable-simd --enable-sign-ext --enable-mutable-globals
  --enable-nontrapping-float-to-int)
WASM_OPT_FLAGS=(-O3 "${WASM_OPT_FEATURES[@]}" --strip-debug --strip-producers)
# The main codec is built for size (-Oz): 22% smaller (34 KB, 13.8 KB gzip, against 43.7 KB /
# 17.1 KB at -O3) and compiled faster at start-up (Node new WebAssembly.Module 0.71 ms median
# against 0.76), with encode and decode speed within run-to-run noise of -O3 in interleaved
# A/B runs (the hot paths are always_inline helpers either way). The transcode module keeps -O3.
# (Re-measured December 2026 at 45.8 KB against 59.1 KB at -O2: the C decode alone of six inputs
# within 3% either way.)
# WP_DEC_SLACK (wirepack.h): the decoders may read 16 bytes past the input and write 16 past the
# ASCII area, which wp_wasm.c's arena layout provides, so that the strings and keys at the end of
# a message take the same two-word path as the others (the C decode alone of small messages
# with strings at their end 3-15% faster, of inputs without such strings the same).
CODEC_CFLAGS=("${CFLAGS_WASM[@]/-O3/-Oz}" -DWP_DEC_SLACK=16u)
CODEC_LDFLAGS=("${LDFLAGS_WASM[@]/--lto-O3/--lto-O2}")
# binaryen then optimizes the -Oz code at -O3, not -Oz: +186 bytes (of 50 KB) and the C alone
# 2-11% faster on most inputs (MessagePack decode of the fixtures 4-11%, CBOR 0-8%, encode 2-10%;
# two modules in one process, both orders), one input slower (MessagePack decode of emoji text,
# 4-15%).
# (wasm-opt -O3 inlines every function that has one caller, whatever its size and whatever its
# noinline attribute said to clang: a C function meant to stay out of the decoders' item loops
# must have two callers, or be exported, to be a function of its own in build/wirepack.wasm.
# December 2026: moving a record definition (MessagePack) out of the item loop measured the same
# as inlined when wasm-opt inlined it back, and 0.95x on records when it was kept out.)
CODEC_OPT_FLAGS=("${WASM_OPT_FLAGS[@]}")
# Then every `if` without a result becomes blocks and br_if (scripts/wat-if-blocks.py, through
# wasm-dis and wasm-as): the same control flow, for the first call's sake. V8 compiles each wasm
# function on its first call with its baseline compiler (Liftoff), whose memory for a function
# grows with its locals times its ifs, blocks and loops (about 10 KB a local for wpw_decode); the
# decoders (60-65 locals, ~100 and ~190 ifs) took 1.05 and 1.62 MB of it, which in this VM (every
# fresh page mapped for ~16 us) made the first MessagePack decode of a process cost 4.1 ms and the
# first CBOR decode 5.7-6.1 ms (node --trace-wasm-compilation-times; process.resourceUsage: 250 and
# 418 page faults). With blocks: 0.83 and 1.16 MB, 3.2 and 4.9 ms; with the decoders' flags read
# from memory as well (wp_msgpack.c, wp_cbor.c): 0.57 and 0.89 MB, 2.4 and 4.0 ms (fresh
# processes, medians of 11, December 2026). Chromium 156 (V8 15.6), a fresh page each: 7.6 and
# 13.8 ms before, 2.1 and 7.6 ms after both. Compiled by TurboFan, the C alone measured the same
# (bench/ab.js --mode=c, 8-14 decode cases, 3-4 processes: 0.97-1.05x; in Chromium, the same way,
# 0.96-1.05x both ways round). Running wasm-opt again after it (optimize-instructions,
# merge-blocks) got the bytes back (-86 B gzipped) but cost the decoders 3-7%, so it does not.
# Size: +3.3 KB, +0.46 KB gzipped.
IF_BLOCKS=1
# if_blocks FILE.wasm: rewrite FILE in place as above (both modules). Only start-up depends on it: should another
# binaryen print what the script cannot read, the build goes on with wasm-opt's module and says so.
if_blocks() {
  local w="$1" base="${1%.wasm*}"
  if wasm-dis "$w" -o "$base.opt.wat" &&
    python3 scripts/wat-if-blocks.py "$base.opt.wat" "$base.blocks.wat" &&
    wasm-as "${WASM_OPT_FEATURES[@]}" "$base.blocks.wat" -o "$base.blocks.wasm"; then # (wasm-as validates)
    mv "$base.blocks.wasm" "$w"
  else
    echo "build.sh: WARNING: scripts/wat-if-blocks.py failed; $base.wasm keeps its ifs (its first calls are slower)" >&2
  fi
  rm -f "$base.opt.wat" "$base.blocks.wat" "$base.blocks.wasm"
}
# compiler-rt builtins (e.g. __multi3 for 128-bit multiplies); only what is referenced is linked.
RT_BUILTINS="$("$CLANG" --target=wasm32-unknown-wasi --print-libgcc-file-name 2>/dev/null || true)"
[[ -f "$RT_BUILTINS" ]] || RT_BUILTINS=""

tool_versions="$("$CLANG" --version | head -1) | $(wasm-opt --version)"
wasm_hash="$(hash_str "$(hash_inputs "${CSRC[@]}" "${CHDR[@]}" scripts/wat-if-blocks.py)" "${CODEC_CFLAGS[*]}" "${CODEC_LDFLAGS[*]}" \
  "$INITIAL_MEMORY" "${CODEC_OPT_FLAGS[*]}" "$IF_BLOCKS" "$RT_BUILTINS" "$tool_versions")"

if up_to_date wasm "$wasm_hash" && [[ -f build/wirepack.wasm ]]; then
  :
else
  log "compiling ${#CSRC[@]} C files -> build/wirepack.wasm"
  rm -rf build/obj && mkdir -p build/obj
  # Compile and link in separate steps, calling wasm-ld directly: when clang drives a wasm link
  # at -O levels it runs any wasm-opt on PATH by itself, without our feature flags, which
  # fails on bulk-memory/SIMD code. We run wasm-opt ourselves below.
  pids=()
  for src in "${CSRC[@]}"; do
    obj="build/obj/$(basename "${src%.c}").o"
    "$CLANG" "${CODEC_CFLAGS[@]}" -c "$src" -o "$obj" & pids+=($!)
  done
  fail=0
  for pid in "${pids[@]}"; do wait "$pid" || fail=1; done
  ((fail == 0)) || { echo "build.sh: C compilation failed" >&2; exit 1; }

  link() { "$WASM_LD" "${CODEC_LDFLAGS[@]}" --initial-memory="$1" build/obj/*.o ${RT_BUILTINS:+"$RT_BUILTINS"} \
    -o build/wirepack.raw.wasm 2> build/link.err; }
  if ! link "$INITIAL_MEMORY"; then
    # Static data larger than the default: use what the linker asks for, rounded up to a page.
    need="$(sed -n 's/.*initial memory too small, \([0-9]*\) bytes needed.*/\1/p' build/link.err | head -1)"
    if [[ -n "$need" ]]; then
      mem=$(( (need + 65535) / 65536 * 65536 ))
      log "static data needs $need bytes: initial memory $mem"
      link "$mem" || { cat build/link.err >&2; exit 1; }
    else
      cat build/link.err >&2; exit 1
    fi
  fi
  cat build/link.err >&2
  rm -f build/link.err
  wasm-opt "${CODEC_OPT_FLAGS[@]}" build/wirepack.raw.wasm -o build/wirepack.wasm.tmp
  ((IF_BLOCKS)) && if_blocks build/wirepack.wasm.tmp
  mv build/wirepack.wasm.tmp build/wirepack.wasm
  rm -f build/wirepack.raw.wasm
  mark_done wasm "$wasm_hash"
  log "build/wirepack.wasm: $(stat -c %s build/wirepack.wasm) bytes"
fi

# ------------------------------------------------------------------ 4. js/src/wasm-inline.js
mkdir -p js/src
# (The JSDoc keeps tsc from typing the constant as its literal value in the .d.ts.)
inline_new="// Generated by build.sh from build/wirepack.wasm: do not edit.
/** @type {string} */
export const wasmBase64 = \"$(base64 -w0 build/wirepack.wasm)\";"
if [[ ! -f js/src/wasm-inline.js ]] || [[ "$(cat js/src/wasm-inline.js)" != "$inline_new" ]]; then
  log "writing js/src/wasm-inline.js"
  printf '%s\n' "$inline_new" > js/src/wasm-inline.js.tmp
  mv js/src/wasm-inline.js.tmp js/src/wasm-inline.js
fi

# ------------------------------------------------------------------ 4b. transcode module, native library, CLI
# Issue 8 (csrc/transcode/): build/wirepack-transcode.wasm, a module of its own so the main codec
# stays small, inlined as js/src/transcode-inline.js for the wirepack/transcode entry; then,
# natively, build/native/libwirepack.a (every csrc/*.c and csrc/transcode/*.c, -O2) and the CLI
# build/native/wirepack (csrc/cli/wirepack_cli.c) and the example build/native/example-transcode.
shopt -s nullglob
TC_SRC=(csrc/transcode/*.c)
TC_HDR=(csrc/transcode/*.h)
CLI_SRC=(csrc/cli/*.c)
shopt -u nullglob
# The transcode module's ifs become blocks too (if_blocks, above): its first transcode
# compiled 40 KB of code with 2.1 MB of Liftoff memory, 1.64 MB with blocks: the first transcode of
# a fresh process 12.9-13.7 ms (753-762 page faults) -> 9.8-10.8 ms (542-546), medians of 15; the
# C alone (tcw_transcode replayed, both trees in one process, both orders, four fixtures each way
# between JSON and MessagePack/CBOR) 0.91-1.05x with no consistent sign (0.2 us inputs 0.98-1.17x,
# at the timer's resolution). Size +6.1 KB, +0.70 KB gzipped (not in the codecs' bundle).
# Its converters (one per pair of formats: TC_OWN_FUNCTION in tc_internal.h) stay functions of
# their own: -ocimfs keeps wasm-opt from inlining functions larger than that back into their one
# caller, so that a first transcode compiles only the converter it runs. First transcode of a
# fresh process, medians of 9: JSON -> MessagePack 14.2 -> 3.0 ms (596 -> 107 page faults),
# MessagePack -> JSON 11.1 -> 6.4 ms (443 -> 186), CBOR -> MessagePack 13.4 -> 4.7 ms; the C alone
# 0.94-1.09x over 20 cases both ways round (no sign).
TC_OPT_FLAGS=("${WASM_OPT_FLAGS[@]}" -ocimfs=2000)
if ((${#TC_SRC[@]})); then
  tc_hash="$(hash_str "$(hash_inputs "${TC_SRC[@]}" "${TC_HDR[@]}" "${CHDR[@]}" scripts/wat-if-blocks.py)" "${CFLAGS_WASM[*]}" \
    "${LDFLAGS_WASM[*]}" "${TC_OPT_FLAGS[*]}" "$IF_BLOCKS" "$RT_BUILTINS" "$tool_versions")"
  if up_to_date transcode_wasm "$tc_hash" && [[ -f build/wirepack-transcode.wasm ]]; then
    :
  else
    log "compiling ${#TC_SRC[@]} C files -> build/wirepack-transcode.wasm"
    rm -rf build/obj-transcode && mkdir -p build/obj-transcode
    pids=()
    for src in "${TC_SRC[@]}"; do
      "$CLANG" "${CFLAGS_WASM[@]}" -c "$src" -o "build/obj-transcode/$(basename "${src%.c}").o" & pids+=($!)
    done
    fail=0
    for pid in "${pids[@]}"; do wait "$pid" || fail=1; done
    ((fail == 0)) || { echo "build.sh: transcode C compilation failed" >&2; exit 1; }
    "$WASM_LD" "${LDFLAGS_WASM[@]}" --initial-memory="$INITIAL_MEMORY" build/obj-transcode/*.o \
      ${RT_BUILTINS:+"$RT_BUILTINS"} -o build/wirepack-transcode.raw.wasm
    wasm-opt "${TC_OPT_FLAGS[@]}" build/wirepack-transcode.raw.wasm -o build/wirepack-transcode.wasm.tmp
    ((IF_BLOCKS)) && if_blocks build/wirepack-transcode.wasm.tmp
    mv build/wirepack-transcode.wasm.tmp build/wirepack-transcode.wasm
    rm -f build/wirepack-transcode.raw.wasm
    mark_done transcode_wasm "$tc_hash"
    log "build/wirepack-transcode.wasm: $(stat -c %s build/wirepack-transcode.wasm) bytes"
  fi
  tc_inline="// Generated by build.sh from build/wirepack-transcode.wasm: do not edit.
/** @type {string} */
export const transcodeWasmBase64 = \"$(base64 -w0 build/wirepack-transcode.wasm)\";"
  if [[ ! -f js/src/transcode-inline.js ]] || [[ "$(cat js/src/transcode-inline.js)" != "$tc_inline" ]]; then
    log "writing js/src/transcode-inline.js"
    printf '%s\n' "$tc_inline" > js/src/transcode-inline.js.tmp
    mv js/src/transcode-inline.js.tmp js/src/transcode-inline.js
  fi

  NATIVE_CC="${NATIVE_CC:-$CLANG}"
  NATIVE_CFLAGS=(-O2 -Wall -Wextra -Icsrc)
  native_hash="$(hash_str "$(hash_inputs "${CSRC[@]}" "${CHDR[@]}" "${TC_SRC[@]}" "${TC_HDR[@]}" "${CLI_SRC[@]}" examples/c/transcode.c bench/native/decode-loop.c)" \
    "${NATIVE_CFLAGS[*]}" "$("$NATIVE_CC" --version | head -1)")"
  if up_to_date native_lib "$native_hash" && [[ -f build/native/libwirepack.a && -x build/native/wirepack && -x build/native/decode-loop ]]; then
    :
  else
    log "native: build/native/libwirepack.a + build/native/wirepack (CLI)"
    rm -rf build/native/lib-obj && mkdir -p build/native/lib-obj
    pids=()
    for src in "${CSRC[@]}" "${TC_SRC[@]}"; do
      "$NATIVE_CC" "${NATIVE_CFLAGS[@]}" -c "$src" -o "build/native/lib-obj/$(echo "${src%.c}" | tr / _).o" & pids+=($!)
    done
    fail=0
    for pid in "${pids[@]}"; do wait "$pid" || fail=1; done
    ((fail == 0)) || { echo "build.sh: native library compilation failed" >&2; exit 1; }
    rm -f build/native/libwirepack.a
    ar rcs build/native/libwirepack.a build/native/lib-obj/*.o
    if ((${#CLI_SRC[@]})); then
      "$NATIVE_CC" "${NATIVE_CFLAGS[@]}" "${CLI_SRC[@]}" build/native/libwirepack.a -o build/native/wirepack
    fi
    if [[ -f examples/c/transcode.c ]]; then
      "$NATIVE_CC" "${NATIVE_CFLAGS[@]}" examples/c/transcode.c build/native/libwirepack.a -o build/native/example-transcode
    fi
    # (bench/native/decode-loop.c: one decoder call timed natively, for perf; bench/README.md)
    "$NATIVE_CC" "${NATIVE_CFLAGS[@]}" bench/native/decode-loop.c build/native/libwirepack.a -o build/native/decode-loop
    mark_done native_lib "$native_hash"
  fi
fi

# ------------------------------------------------------------------ 5. build/wirepack-emcc.wasm (--emcc)
if ((WANT_EMCC)); then
  if ((FORCE)); then bash scripts/build-emcc.sh --force; else bash scripts/build-emcc.sh; fi
fi

# ------------------------------------------------------------------ 6. dist/ (esbuild CJS and ESM + tsc types)
shopt -s nullglob
JSSRC=(js/src/*.js)
shopt -u nullglob
if [[ ! -f js/src/index.node.js ]]; then
  echo "build.sh: js/src/index.node.js is missing" >&2
  exit 1
fi
# wirepack/cbor, wirepack/transcode: dist/<name>.cjs + dist/types/<name>.node.d.ts, once
# js/src/<name>.node.js exists (from then on required like the MessagePack ones).
# CJS_PARTS: file name under dist/ : name of its part in dist/wirepack.cjs
DIST_OUT=(dist/index.cjs dist/wirepack.cjs dist/types/index.node.d.ts dist/esm/index.node.js)
CJS_PARTS=(index:msgpack)
ESM_ENTRIES=(js/src/index.node.js)
for part in cbor transcode msgpack json-pack; do
  if [[ -f js/src/$part.node.js ]]; then
    # (dist/wirepack.cjs's "msgpack" is the index's; its parts' names are identifiers)
    name=${part/#msgpack/msgpackApi}
    CJS_PARTS+=("$part:${name/#json-pack/jsonPack}")
    ESM_ENTRIES+=("js/src/$part.node.js")
    DIST_OUT+=("dist/$part.cjs" "dist/types/$part.node.d.ts" "dist/esm/$part.node.js")
  fi
done
# The -no-eval entries (wirepack/index-no-eval, wirepack/cbor/index-no-eval and their aliases)
# are written by hand below, not bundled: as entries of the ESM bundle they left empty chunks that
# import 'wirepack' then loaded too, which cost it ~7 ms (35 -> 43 ms in fresh processes).
NOEVAL=(index-no-eval:index cbor-no-eval:cbor)
for p in "${NOEVAL[@]}"; do
  DIST_OUT+=("dist/${p%%:*}.cjs" "dist/types/${p%%:*}.node.d.ts" "dist/esm/${p%%:*}.node.js")
done
dist_present() { local f; for f in "${DIST_OUT[@]}"; do [[ -f $f ]] || return 1; done; }
dist_hash="$(hash_str "$(hash_inputs "${JSSRC[@]}" tsconfig.json package-lock.json build.sh)")"
if up_to_date dist "$dist_hash" && dist_present; then
  :
else
  log "dist/wirepack.cjs + ${CJS_PARTS[*]%%:*} .cjs, dist/esm (esbuild) + dist/types (tsc)"
  rm -rf dist
  # One CJS bundle, dist/wirepack.cjs, holds every entry, so require('wirepack'),
  # require('wirepack/cbor') and require('wirepack/transcode') share one runtime (one wasm
  # instance, one DecodeError class); each dist/<name>.cjs only picks its part of it.
  for p in "${CJS_PARTS[@]}"; do
    printf "export * as %s from './js/src/%s.node.js';\n" "${p#*:}" "${p%%:*}"
  done | node_modules/.bin/esbuild --bundle --format=cjs --platform=node --target=node18 \
    --sourcefile=wirepack-cjs.js --outfile=dist/wirepack.cjs --log-level=warning
  for p in "${CJS_PARTS[@]}"; do
    printf "'use strict';\n// require('wirepack%s'): one part of dist/wirepack.cjs (the shared runtime)\nmodule.exports = require('./wirepack.cjs').%s;\n" \
      "$([[ ${p%%:*} == index ]] || echo "/${p%%:*}")" "${p#*:}" > "dist/${p%%:*}.cjs"
  done
  # Node's import: the same entries as ES modules, bundled with code splitting (dist/esm/: one
  # file per entry and the chunks they share), so that import 'wirepack' loads four files where
  # js/src is fifteen, and the entries still share one runtime. Node 20 resolves, reads and
  # compiles each module of a graph on its own: import 'wirepack' took 36-58 ms (median 49)
  # from js/src and 21-30 ms (median 29) bundled, in fresh processes (msgpackr's require:
  # 21-33 ms). Bundlers and browsers keep js/src (package.json "browser", "module", "default").
  node_modules/.bin/esbuild "${ESM_ENTRIES[@]}" --bundle --splitting --format=esm --platform=node --target=node18 \
    --outdir=dist/esm --chunk-names='[name]-[hash]' --log-level=warning
  # no builtin method called through a top-level alias in a bundle (scripts/check-dist.mjs: esbuild
  # makes the alias a var, which V8 11.3 does not fold, and the call a generic one)
  node scripts/check-dist.mjs dist/wirepack.cjs dist/esm/*.js
  # the -no-eval entries: js/src's as they are for import (an `export *` of the entry they stand
  # for, beside them in dist/esm, and the global that turns code generation off), the same two
  # steps for require
  for p in "${NOEVAL[@]}"; do
    cp "js/src/${p%%:*}.node.js" "dist/esm/${p%%:*}.node.js"
    printf "'use strict';\n// require('wirepack/%s'): code generation off for the process (js/src/%s.node.js), then dist/%s.cjs\nglobalThis[Symbol.for('wirepack.noEval')] = true;\nmodule.exports = require('./%s.cjs');\n" \
      "$([[ ${p#*:} == index ]] && echo index-no-eval || echo cbor/index-no-eval)" "${p%%:*}" "${p#*:}" "${p#*:}" > "dist/${p%%:*}.cjs"
  done
  # tsc type-checks js/src (checkJs) and writes declarations; errors fail the build.
  if ! node_modules/.bin/tsc -p tsconfig.json; then
    echo "build.sh: tsc reported type errors in js/src (see above)" >&2
    exit 1
  fi
  if ! dist_present; then
    echo "build.sh: dist is incomplete; expected ${DIST_OUT[*]}" >&2
    exit 1
  fi
  mark_done dist "$dist_hash"
fi

# ------------------------------------------------------------------ 7. native C unit tests (--native)
if ((WANT_NATIVE)); then
  bash tests/c/run.sh
fi

log "done"
