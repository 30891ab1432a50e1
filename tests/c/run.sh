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
CFLAGS=(-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
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

mkdir -p build/native/obj
rm -f build/native/obj/*.o
# The core and helpers are compiled once (in parallel), then linked into each test.
pids=() OBJS=()
for src in "${CSRC[@]}" "${HELPERS[@]}"; do
  obj="build/native/obj/$(echo "${src%.c}" | tr / _).o"
  OBJS+=("$obj")
  "$CC" "${CFLAGS[@]}" -c "$src" -o "$obj" & pids+=($!)
done
fail=0
for pid in "${pids[@]}"; do wait "$pid" || fail=1; done
((fail == 0)) || { echo "c: 0 passed, ${#TESTS[@]} failed (csrc/ does not compile natively)"; exit 1; }

passed=0 failed=0 failures=()
for t in "${TESTS[@]}"; do
  name="$(basename "${t%.c}")"
  [[ -n "${1:-}" && "$name" != *"$1"* ]] && continue
  bin="build/native/$name"
  if ! "$CC" "${CFLAGS[@]}" "$t" "${OBJS[@]}" -o "$bin"; then
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

echo "c: $passed passed, $failed failed"
((failed == 0)) || { echo "failed: ${failures[*]}" >&2; exit 1; }
