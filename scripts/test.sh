#!/usr/bin/env bash
# `npm test`: the whole suite, runnable as the first command on a fresh clone (build.sh
# installs the apt toolchain and runs `npm ci` when needed).
#   1. build.sh --emcc --native : wasm (clang) + wasm (emcc) + dist/, then the C unit tests
#      under ASan/UBSan (tests/c/run.sh)
#   1b. scripts/fuzz.sh         : fuzz regressions and corpus (always); 60 s per target on CI
#   2. vitest run               : projects node, browser (Chromium), emcc
#   2b. the node project again on Node 24, the current LTS (scripts/node24.sh fetches it from
#      npm): Node 24 takes paths 20 cannot (runtime.js FAST_UTF8, Float16Array)
#   3. node bench/run.js --quick: the benchmark suites as a smoke test (errors fail, speed never)
#   4. scripts/test-platforms.sh: the npm tarball in Node ESM/CJS, tsc, Deno, Bun, workerd and
#      Chromium (esbuild, Vite, strict CSP, Web Worker); see tests/platforms/run.mjs
# Extra arguments go to vitest, e.g. `npm test -- --project node`.
# The last line is a plain "N passed, N failed" over the vitest tests, the C test binaries and
# the platforms.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mkdir -p build
bash build.sh --emcc --native 2>&1 | tee build/native-test.log
# libFuzzer: every committed corpus file and regression input through every target; on CI also
# each target for FUZZ_SECONDS (default 60) of fuzzing (bash scripts/fuzz.sh 3600 for long runs)
bash scripts/fuzz.sh --regress
# (every target: fuzz_transcode joined once an hour of it was clean, 8.3 M inputs in December
# 2026, after eight findings in its first hours; a new target should be run so before it lands)
if [[ -n "${CI:-}" ]]; then bash scripts/fuzz.sh "${FUZZ_SECONDS:-60}"; fi
# the C test binaries each print "N passed, M failed" over their cases: add them up
c_line=$(awk '/^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3 } END { printf "c: %d passed, %d failed", p, f }' build/native-test.log)

set +e
node_modules/.bin/vitest run --reporter=default --reporter=json --outputFile.json=build/vitest.json "$@"
rc=$?
# 2b. the node project on Node 24 (after a full run only; its counts join the last line)
rm -f build/vitest-node24.json
if [[ $# -eq 0 ]]; then
  export NODE24_JSON=build/vitest-node24.json
  if node24=$(bash scripts/node24.sh); then
    echo "vitest (node project) on Node $("$node24" --version):"
    "$node24" node_modules/vitest/vitest.mjs run --project node --reporter=dot --reporter=json --outputFile.json=build/vitest-node24.json > build/vitest-node24.log 2>&1 || rc=1
    tail -6 build/vitest-node24.log
    grep -E "FAIL|✗|×" build/vitest-node24.log | head -20 || true
  else
    echo "Node 24: could not fetch it (scripts/node24.sh)"; rc=1
  fi
fi
# 3. the benchmark smoke run (issue 4): fails on errors (a FAILED row, a crash), never on speed
if ((rc == 0)) && [[ $# -eq 0 ]]; then
  node bench/run.js --quick > build/bench-quick.log 2>&1 || { echo "bench --quick failed:"; tail -30 build/bench-quick.log; rc=1; export BENCH_FAILED=1; }
  ((rc == 0)) && echo "bench --quick: ok (build/bench-quick.log)"
fi
# 4. the npm tarball in real runtimes (issue 9, scripts/test-platforms.sh): one PASS/FAIL line per
# platform; its "platforms: N passed, N failed" is counted into the last line
rm -f build/platforms.log
if [[ $# -eq 0 ]]; then
  export PLATFORMS_LOG=build/platforms.log
  SKIP_BUILD=1 bash scripts/test-platforms.sh 2>&1 | tee build/platforms.log
  ((PIPESTATUS[0] == 0)) || rc=1
fi
set -e
node -e '
  const fs = require("fs");
  const [c, vitest] = [process.argv[1], "build/vitest.json"];
  const m = /c: (\d+) passed, (\d+) failed/.exec(c) || [0, 0, 0];
  let p = +m[1], f = +m[2];
  if (fs.existsSync(vitest)) {
    const r = JSON.parse(fs.readFileSync(vitest, "utf8"));
    p += r.numPassedTests; f += r.numFailedTests + (r.numRuntimeErrorTestSuites || 0);
    console.log(`vitest: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`);
  } else f += 1;
  if (process.env.NODE24_JSON) {
    const j = process.env.NODE24_JSON;
    if (fs.existsSync(j)) {
      const r = JSON.parse(fs.readFileSync(j, "utf8"));
      p += r.numPassedTests; f += r.numFailedTests + (r.numRuntimeErrorTestSuites || 0);
      console.log(`vitest on Node 24 (node project): ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`);
    } else f += 1;
  }
  if (process.env.BENCH_FAILED) f += 1;
  if (process.env.PLATFORMS_LOG) {
    const log = fs.existsSync(process.env.PLATFORMS_LOG) ? fs.readFileSync(process.env.PLATFORMS_LOG, "utf8") : "";
    const pm = /^platforms: (\d+) passed, (\d+) failed$/m.exec(log);
    if (pm) { p += +pm[1]; f += +pm[2]; } else f += 1;
  }
  console.log(`${p} passed, ${f} failed`);
' "$c_line"
exit $rc
