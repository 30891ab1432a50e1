#!/usr/bin/env bash
# Native C unit tests: every tests/c/test_*.c (one main each) is linked with every csrc/*.c
# (wp_wasm.c is empty outside wasm) and any tests/c/util*.c, built with ASan + UBSan into
# build/native/, and run. Any compiler error, sanitizer report or non-zero exit fails the run.
#   bash tests/c/run.sh [NAME_SUBSTRING]   (CC=gcc to use gcc instead of clang)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

CC="${CC:-clang}"
command -v "$CC" >/dev/null || CC=gcc
# shellcheck disable=SC2054
# (WP_TEST_COUNTERS: csrc/wp_internal.h's counters of what the decoders' shortcuts take)
CFLAGS=(-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -DWP_TEST_COUNTERS
  -Wall -Wextra -Icsrc -Itests/c)
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:halt_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

shopt -s nullglob
CSRC=(csrc/*.c csrc/transcode/*.c)   # csrc/transcode: issue 8 (transcode, validate, find)
TESTS=(tests/c/test_*.c)
HELPERS=(tests/c/util*.c)   # shared test helpers (no main), linked into every test
shopt -u nullglob

if ((${#TESTS[@]} == 0)); then
  echo "tests/c/run.sh: warning: no tests/c/test_*.c found" >&2
  echo "c: 0 passed, 0 failed"
  exit 0
fi

# Twice: as the native library is built (no slack), and with the decoders' slack as the wasm
# build has it (WP_DEC_SLACK=16, wirepack.h; the harnesses allocate it, so the sanitizers catch
# any access past it). The second pass runs the tests that decode.
SLACK_TESTS='decode|roundtrip|msgpackr_ext|vcache'
mkdir -p build/native/obj build/native/obj-slack
rm -f build/native/obj/*.o build/native/obj-slack/*.o
# The core and helpers are compiled once per pass (in parallel), then linked into each test.
pids=() OBJS=() OBJS_SLACK=()
for src in "${CSRC[@]}" "${HELPERS[@]}"; do
  obj="build/native/obj/$(echo "${src%.c}" | tr / _).o"
  OBJS+=("$obj")
  "$CC" "${CFLAGS[@]}" -c "$src" -o "$obj" & pids+=($!)
  OBJS_SLACK+=("${obj/\/obj\//\/obj-slack\/}")
  "$CC" "${CFLAGS[@]}" -DWP_DEC_SLACK=16u -c "$src" -o "${OBJS_SLACK[-1]}" & pids+=($!)
done
fail=0
for pid in "${pids[@]}"; do wait "$pid" || fail=1; done
((fail == 0)) || { echo "c: 0 passed, ${#TESTS[@]} failed (csrc/ does not compile natively)"; exit 1; }

passed=0 failed=0 failures=()
for t in "${TESTS[@]}"; do
  for slack in 0 16; do
    name="$(basename "${t%.c}")"
    [[ -n "${1:-}" && "$name" != *"$1"* ]] && continue
    bin="build/native/$name" objs=("${OBJS[@]}") flags=()
    if ((slack)); then
      [[ "$name" =~ $SLACK_TESTS ]] || continue
      bin="build/native/$name-slack" objs=("${OBJS_SLACK[@]}") flags=(-DWP_DEC_SLACK=16u) name="$name (slack 16)"
    fi
    if ! "$CC" "${CFLAGS[@]}" "${flags[@]}" "$t" "${objs[@]}" -lm -o "$bin"; then
      echo "FAIL $name (compile)"
      failed=$((failed + 1)); failures+=("$name"); continue
    fi
    start=$(date +%s%N)
    if "$bin"; then
      echo "ok   $name ($(( ($(date +%s%N) - start) / 1000000 )) ms)"
      passed=$((passed + 1))
    else
      echo "FAIL $name (exit $?)"
      failed=$((failed + 1)); failures+=("$name")
    fi
  done
done

# The library's sources build warning-free with gcc as with clang (README: either compiler); -O2,
# since gcc's may-be-uninitialized analysis needs the optimizer. Only without a name filter.
if [[ -z "${1:-}" && "$CC" != *gcc* ]] && command -v gcc >/dev/null; then
  start=$(date +%s%N) pids=() fail=0
  for src in csrc/*.c csrc/transcode/*.c csrc/cli/*.c; do
    [[ -f "$src" ]] || continue
    gcc -O2 -Wall -Wextra -Werror -Icsrc -c "$src" -o /dev/null & pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || fail=1; done
  if ((fail == 0)); then
    echo "ok   gcc -Wall -Wextra -Werror ($(( ($(date +%s%N) - start) / 1000000 )) ms)"
    passed=$((passed + 1))
  else
    echo "FAIL gcc -Wall -Wextra -Werror (warnings above)"
    failed=$((failed + 1)); failures+=("gcc-warnings")
  fi
fi

echo "c: $passed passed, $failed failed"
((failed == 0)) || { echo "failed: ${failures[*]}" >&2; exit 1; }
