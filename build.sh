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
# libclang-rt-14-dev: the ASan/UBSan runtimes for the native C tests.
APT_PKGS=(clang lld wasi-libc libclang-rt-14-dev-wasm32 libclang-rt-14-dev binaryen chromium emscripten)
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
WASM_OPT_FLAGS=(-O3 --enable-bulk-memory --enable-simd --enable-sign-ext --enable-mutable-globals
  --enable-nontrapping-float-to-int --strip-debug --strip-producers)
# compiler-rt builtins (e.g. __multi3 for 128-bit multiplies); only what is referenced is linked.
RT_BUILTINS="$("$CLANG" --target=wasm32-unknown-wasi --print-libgcc-file-name 2>/dev/null || true)"
[[ -f "$RT_BUILTINS" ]] || RT_BUILTINS=""

tool_versions="$("$CLANG" --version | head -1) | $(wasm-opt --version)"
wasm_hash="$(hash_str "$(hash_inputs "${CSRC[@]}" "${CHDR[@]}")" "${CFLAGS_WASM[*]}" "${LDFLAGS_WASM[*]}" \
  "$INITIAL_MEMORY" "${WASM_OPT_FLAGS[*]}" "$RT_BUILTINS" "$tool_versions")"

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
    "$CLANG" "${CFLAGS_WASM[@]}" -c "$src" -o "$obj" & pids+=($!)
  done
  fail=0
  for pid in "${pids[@]}"; do wait "$pid" || fail=1; done
  ((fail == 0)) || { echo "build.sh: C compilation failed" >&2; exit 1; }

  link() { "$WASM_LD" "${LDFLAGS_WASM[@]}" --initial-memory="$1" build/obj/*.o ${RT_BUILTINS:+"$RT_BUILTINS"} \
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
  wasm-opt "${WASM_OPT_FLAGS[@]}" build/wirepack.raw.wasm -o build/wirepack.wasm.tmp
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

# ------------------------------------------------------------------ 5. build/wirepack-emcc.wasm (--emcc)
if ((WANT_EMCC)); then
  if ((FORCE)); then bash scripts/build-emcc.sh --force; else bash scripts/build-emcc.sh; fi
fi

# ------------------------------------------------------------------ 6. dist/ (esbuild CJS + tsc types)
shopt -s nullglob
JSSRC=(js/src/*.js)
shopt -u nullglob
if [[ ! -f js/src/index.node.js ]]; then
  echo "build.sh: js/src/index.node.js is missing" >&2
  exit 1
fi
# wirepack/cbor: dist/cbor.cjs + dist/types/cbor.node.d.ts, once js/src/cbor.node.js exists
# (from then on both outputs are required like the MessagePack ones).
DIST_OUT=(dist/index.cjs dist/types/index.node.d.ts)
WANT_CBOR=0
if [[ -f js/src/cbor.node.js ]]; then
  WANT_CBOR=1
  DIST_OUT+=(dist/cbor.cjs dist/types/cbor.node.d.ts)
fi
dist_present() { local f; for f in "${DIST_OUT[@]}"; do [[ -f $f ]] || return 1; done; }
dist_hash="$(hash_str "$(hash_inputs "${JSSRC[@]}" tsconfig.json package-lock.json build.sh)")"
if up_to_date dist "$dist_hash" && dist_present; then
  :
else
  if ((WANT_CBOR)); then log "dist/index.cjs + dist/cbor.cjs (esbuild) + dist/types (tsc)"
  else log "dist/index.cjs (esbuild) + dist/types (tsc)"; fi
  rm -rf dist
  node_modules/.bin/esbuild js/src/index.node.js --bundle --format=cjs --platform=node \
    --target=node18 --outfile=dist/index.cjs --log-level=warning
  if ((WANT_CBOR)); then
    node_modules/.bin/esbuild js/src/cbor.node.js --bundle --format=cjs --platform=node \
      --target=node18 --outfile=dist/cbor.cjs --log-level=warning
  fi
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
