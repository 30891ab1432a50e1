#!/usr/bin/env bash
# Line and branch coverage of the C core (csrc/, csrc/transcode/) under its native checks: the C
# unit tests (tests/c/test_*.c) and every libFuzzer target replaying the committed corpus and the
# regression inputs (tests/fuzz/), built with clang's source-based coverage into build/coverage/.
#
#   bash scripts/coverage.sh            the per-file table, then every line no check executed
#   bash scripts/coverage.sh --html     also build/coverage/html/index.html
#
# What it does not count: the JS tests, which run the same C as wasm (Vitest reaches paths that
# only the JS host drives, such as the CBOR encoder's bundled strings). A line listed here is
# therefore untested natively, under ASan and UBSan, not necessarily untested. Takes about 30 s.
# Needs llvm-profdata and llvm-cov (Debian: apt-get install llvm-14) and libFuzzer
# (libclang-rt-14-dev, which build.sh installs).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

CC="${CC:-}"
if [[ -z "$CC" ]]; then
  if command -v clang-14 >/dev/null; then CC=clang-14; else CC=clang; fi
fi
PROFDATA=$(command -v llvm-profdata-14 || command -v llvm-profdata || true)
LLVMCOV=$(command -v llvm-cov-14 || command -v llvm-cov || true)
if [[ -z "$PROFDATA" || -z "$LLVMCOV" ]]; then
  echo "coverage: needs llvm-profdata and llvm-cov (Debian: apt-get install llvm-14)" >&2
  exit 2
fi
html=0
for a in "$@"; do
  case "$a" in
    --html) html=1 ;;
    -h|--help) sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "coverage: unknown option $a" >&2; exit 2 ;;
  esac
done

OUT=build/coverage
rm -rf "$OUT" && mkdir -p "$OUT/prof" "$OUT/regressions"
# As the wasm build (the decoders' slack) and as tests/c/run.sh (its test counters); -O0 so that
# every line maps to code of its own.
CFLAGS=(-g -O0 -fprofile-instr-generate -fcoverage-mapping -DWP_TEST_COUNTERS -DWP_DEC_SLACK=16u
  -Icsrc -Itests/c -Itests/fuzz -w)
SRC=(csrc/*.c csrc/transcode/*.c)
pids=() bins=()
for t in tests/c/test_*.c tests/fuzz/fuzz_*.c; do
  n=$(basename "${t%.c}")
  extra=()
  [[ $n == fuzz_* ]] && extra=(-fsanitize=fuzzer)
  "$CC" "${CFLAGS[@]}" "${extra[@]}" "$t" "${SRC[@]}" -lm -o "$OUT/$n" & pids+=($!)
  bins+=("$OUT/$n")
done
fail=0
for p in "${pids[@]}"; do wait "$p" || fail=1; done
((fail == 0)) || { echo "coverage: build failed" >&2; exit 1; }

cp tests/fuzz/regressions/* "$OUT/regressions/"
for b in "${bins[@]}"; do
  n=$(basename "$b")
  if [[ $n == fuzz_* ]]; then
    LLVM_PROFILE_FILE="$OUT/prof/$n.profraw" "$b" -runs=0 "tests/fuzz/corpus/$n" "$OUT/regressions" > "$OUT/$n.log" 2>&1 ||
      { echo "coverage: $n failed on the corpus (see $OUT/$n.log)" >&2; exit 1; }
  else
    LLVM_PROFILE_FILE="$OUT/prof/$n.profraw" "$b" > "$OUT/$n.log" 2>&1 ||
      { echo "coverage: $n failed (see $OUT/$n.log)" >&2; exit 1; }
  fi
done
"$PROFDATA" merge -sparse "$OUT"/prof/*.profraw -o "$OUT/all.profdata"

objs=("${bins[0]}")
for b in "${bins[@]:1}"; do objs+=(-object "$b"); done
FILES=(csrc/*.c csrc/*.h csrc/transcode/*.c csrc/transcode/*.h)
"$LLVMCOV" report "${objs[@]}" -instr-profile="$OUT/all.profdata" "${FILES[@]}" | tee "$OUT/report.txt"
echo
echo "Lines no native check executed (file:line):"
for f in "${FILES[@]}"; do
  "$LLVMCOV" show "${objs[@]}" -instr-profile="$OUT/all.profdata" "$f" 2>/dev/null |
    awk -v f="$f" 'match($0, /^ *[0-9]+\| *0\|/) { head = substr($0, 1, RLENGTH); split(head, a, "|"); gsub(/ /, "", a[1]); printf "%s:%s: %s\n", f, a[1], substr($0, RLENGTH + 1) }'
done | tee "$OUT/missed.txt"
if ((html)); then
  "$LLVMCOV" show "${objs[@]}" -instr-profile="$OUT/all.profdata" -format=html -output-dir="$OUT/html" "${FILES[@]}"
  echo "coverage: $OUT/html/index.html"
fi
