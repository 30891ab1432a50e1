#!/usr/bin/env bash
# `npm test`: the whole suite, runnable as the first command on a fresh clone (build.sh
# installs the apt toolchain and runs `npm ci` when needed).
#   1. build.sh --emcc --native : wasm (clang) + wasm (emcc) + dist/, then the C unit tests
#      under ASan/UBSan (tests/c/run.sh)
#   2. vitest run               : projects node, browser (Chromium), emcc
# Extra arguments go to vitest, e.g. `npm test -- --project node`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash build.sh --emcc --native
exec node_modules/.bin/vitest run "$@"
