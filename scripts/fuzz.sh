#!/usr/bin/env bash
# libFuzzer targets for the C core (tests/fuzz/fuzz_*.c), built natively from csrc/*.c (and
# csrc/transcode/*.c for fuzz_transcode) with clang under ASan + UBSan into build/fuzz/.
#
#   bash scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   fuzz each target (default 60 s; CI)
#   bash scripts/fuzz.sh 3600                                 long run: an hour per target
#   bash scripts/fuzz.sh --regress                            every file of tests/fuzz/regressions/
#                                                             and of the committed corpus, once,
#                                                             through every target (fast)
#   bash scripts/fuzz.sh --build                              build only
#
# Fuzzing reads the committed seeds (tests/fuzz/corpus/<target>/, never written) and
# build/fuzz/corpus-out/<target>/, where new corpus entries go (kept between runs, so long runs
# resume). Crashes, leaks, timeouts and invariant failures are written to
# build/fuzz/artifacts/<target>/; reproduce one with build/fuzz/<target> FILE. Any finding makes
# the script exit non-zero. Per target it prints the executions, executions per second and
# the corpus growth.
#
# The targets are built with the decoders' slack (WP_DEC_SLACK=16, wirepack.h) as the wasm build
# has it; --regress runs every input through a build without it (the native default) as well.
#
# Environment: CC (default clang-14, else clang), FUZZ_JOBS (targets run at once; default the
# number of cores), FUZZ_FLAGS (extra libFuzzer flags, e.g. "-use_value_profile=1"),
# FUZZ_CFLAGS (extra compiler flags).
# Debian/Ubuntu: libFuzzer comes with libclang-rt-14-dev (apt-get install -y libclang-rt-14-dev).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

OUT=build/fuzz
CC="${CC:-}"
if [[ -z "$CC" ]]; then
  if command -v clang-14 >/dev/null; then CC=clang-14; else CC=clang; fi
fi
CFLAGS=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
  -Wall -Wextra -Icsrc -Itests/fuzz)
read -r -a EXTRA_CFLAGS <<<"${FUZZ_CFLAGS:-}"
CFLAGS+=("${EXTRA_CFLAGS[@]}")
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:halt_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

mode=fuzz secs=60 targets=()
for a in "$@"; do
  case "$a" in
    --regress) mode=regress ;;
    --build) mode=build ;;
    -h|--help) sed -n '2,23p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    ''|*[!0-9]*) targets+=("$a") ;;
    *) secs="$a" ;;
  esac
done
if ((${#targets[@]} == 0)); then
  for f in tests/fuzz/fuzz_*.c; do targets+=("$(basename "${f%.c}")"); done
fi

# ------------------------------------------------------------------ build
mkdir -p "$OUT"
if ! echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }' |
  "$CC" -fsanitize=fuzzer -x c - -o "$OUT/.probe" 2>/dev/null; then
  echo "fuzz: $CC cannot link -fsanitize=fuzzer (Debian/Ubuntu: apt-get install -y libclang-rt-14-dev)" >&2
  exit 2
fi
rm -f "$OUT/.probe"
# $OUT/<target>: with the slack (fuzzed); $OUT/no-slack/<target>: without it (--regress only)
mkdir -p "$OUT/no-slack"
pids=() fail=0
for t in "${targets[@]}"; do
  [[ -f "tests/fuzz/$t.c" ]] || { echo "fuzz: no target tests/fuzz/$t.c" >&2; exit 2; }
  # (the transcode target also needs csrc/transcode/, which the decoders' slack does not concern)
  src=(csrc/*.c)
  [[ "$t" == fuzz_transcode ]] && src+=(csrc/transcode/*.c)
  "$CC" "${CFLAGS[@]}" -DWP_DEC_SLACK=16u "tests/fuzz/$t.c" "${src[@]}" -lm -o "$OUT/$t" & pids+=($!)
  if [[ "$mode" == regress ]]; then "$CC" "${CFLAGS[@]}" "tests/fuzz/$t.c" "${src[@]}" -lm -o "$OUT/no-slack/$t" & pids+=($!); fi
done
for p in "${pids[@]}"; do wait "$p" || fail=1; done
((fail == 0)) || { echo "fuzz: build failed" >&2; exit 1; }
echo "fuzz: built ${targets[*]} in $OUT/ with $CC"
[[ "$mode" == build ]] && exit 0

# ------------------------------------------------------------------ regression mode
if [[ "$mode" == regress ]]; then
  shopt -s nullglob
  regs=(tests/fuzz/regressions/*)
  shopt -u nullglob
  failed=0
  for t in "${targets[@]}"; do
    files=("${regs[@]}")
    [[ -d "tests/fuzz/corpus/$t" ]] && while IFS= read -r f; do files+=("$f"); done < <(find "tests/fuzz/corpus/$t" -type f | sort)
    ((${#files[@]})) || { echo "ok   $t (no inputs)"; continue; }
    for bin in "$OUT/$t" "$OUT/no-slack/$t"; do
      name="$t" log="$OUT/regress-$t.log"
      if [[ "$bin" == */no-slack/* ]]; then name="$t (no slack)" log="$OUT/regress-$t-no-slack.log"; fi
      start=$(date +%s%N)
      if "$bin" -runs=1 "${files[@]}" >"$log" 2>&1; then
        echo "ok   $name: ${#files[@]} inputs ($(( ($(date +%s%N) - start) / 1000000 )) ms)"
      else
        echo "FAIL $name (see $log):"
        grep -E "Running: |INVARIANT|ERROR|SUMMARY" "$log" | tail -n 6 | sed 's/^/     /'
        echo
        failed=1
      fi
    done
  done
  ((failed == 0)) || { echo "fuzz --regress: failures" >&2; exit 1; }
  echo "fuzz --regress: all inputs pass"
  exit 0
fi

# ------------------------------------------------------------------ fuzzing
jobs="${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}"
read -r -a extra <<<"${FUZZ_FLAGS:-}"
echo "fuzz: ${#targets[@]} targets, ${secs} s each, $jobs at a time; new corpus in $OUT/corpus-out/, findings in $OUT/artifacts/"

run_target() {
  local t="$1" cout="$OUT/corpus-out/$1" art="$OUT/artifacts/$1" log="$OUT/$1.log"
  mkdir -p "$cout" "$art"
  local before abefore seeds=()
  before=$(find "$cout" -type f | wc -l)
  abefore=$(find "$art" -type f | wc -l)
  [[ -d "tests/fuzz/corpus/$t" ]] && seeds+=("tests/fuzz/corpus/$t")
  [[ -d tests/fuzz/regressions ]] && seeds+=(tests/fuzz/regressions)
  local rc=0
  "$OUT/$t" -max_total_time="$secs" -timeout=25 -rss_limit_mb=2560 -print_final_stats=1 \
    -artifact_prefix="$art/" "${extra[@]}" "$cout" "${seeds[@]}" >"$log" 2>&1 || rc=$?
  echo "$rc $before $abefore" >"$log.rc"
}

running=0
for t in "${targets[@]}"; do
  run_target "$t" &
  running=$((running + 1))
  if ((running >= jobs)); then wait -n || true; running=$((running - 1)); fi
done
wait || true

status=0
for t in "${targets[@]}"; do
  log="$OUT/$t.log"
  read -r rc before abefore <"$log.rc"
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
  eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n1)
  added=$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -n1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -n1)
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n1 || true)
  after=$(find "$OUT/corpus-out/$t" -type f | wc -l)
  arts=$(( $(find "$OUT/artifacts/$t" -type f | wc -l) - abefore ))
  line="$t: ${execs:-?} execs, ${eps:-?} exec/s, corpus-out $before -> $after (+${added:-?} units), ${cov:-cov ?}, peak rss ${rss:-?} MB"
  if [[ "$rc" != 0 || "$arts" != 0 ]]; then
    status=1
    echo "FAIL $line"
    echo "     exit $rc; $arts new artifact(s) in $OUT/artifacts/$t/ (log: $log)"
    grep -E "INVARIANT|ERROR: |SUMMARY|Test unit written" "$log" | head -n 6 | sed 's/^/     /'
  else
    echo "ok   $line"
  fi
done
exit "$status"
