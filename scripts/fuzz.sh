#!/usr/bin/env bash
# Runs every libFuzzer harness (tests/fuzz) for a while; a crash, a sanitizer report, a hang
# (-timeout) or an allocation beyond the limits (-rss_limit_mb, -malloc_limit_mb) fails the run.
#   scripts/fuzz.sh [--seconds N] [--harness fuzz_NAME]...
#     (default 60 s per harness, every harness; `npm run fuzz -- --seconds 600`)
# Corpora start from the writers' tiny files (fuzz_make_seeds), the replayed findings
# (tests/fuzz/regressions), ../shared/samples cut to -max_len (when present), and flipped-byte
# copies of the writers' files and of the samples (fuzz_make_seeds), in build/fuzz-corpus/<harness>
# (kept between runs). Findings land in build/fuzz-artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/compiler-cache.sh
seconds=60
harnesses=()
while (($#)); do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --harness) [[ -f tests/fuzz/$2.cpp ]] || { echo "no harness tests/fuzz/$2.cpp" >&2; exit 2; }; harnesses+=("$2"); shift 2 ;;
    *) echo "usage: scripts/fuzz.sh [--seconds N] [--harness fuzz_NAME]..." >&2; exit 2 ;;
  esac
done
dir=build/sanitize
jobs=$(( $(nproc) < 2 ? $(nproc) : 2 ))
# Every harness in tests/fuzz (a new format adds fuzz_<format>.cpp), unless named.
if ((${#harnesses[@]} == 0)); then
  for f in tests/fuzz/fuzz_*.cpp; do harnesses+=("$(basename "$f" .cpp)"); done
fi

echo "== fuzz build ($dir)" >&2
mkdir -p build
cmake -S . -B "$dir" "${launcher[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_C_COMPILER=clang-14 -DLOGSCOPE_SANITIZE=ON -DLOGSCOPE_FUZZ=ON >build/cmake-sanitize.log 2>&1 || { cat build/cmake-sanitize.log; exit 1; }
cmake --build "$dir" -j"$jobs" --target "${harnesses[@]}" fuzz_make_seeds

# Inputs bigger than this make no progress (a multi-MB real log runs at ~1 exec/s): the fuzzer
# never grows an input past it, and real samples are cut to it.
max_len_of() {
  case $1 in
    fuzz_detect | fuzz_rosbag_msgdef | fuzz_cdr) echo 4096 ;;
    *) echo 8192 ;;
  esac
}
corpus_of() {
  case $1 in
    fuzz_rosbag_msgdef) echo msgdef ;;
    *) echo "${1#fuzz_}" ;;
  esac
}

seeds=build/fuzz-seeds
samples=../shared/samples
# It prints "FORMAT ENDING..." per format of the table: real samples are picked by those endings.
# Given the samples, it also writes flipped-byte copies of their first 8 KB (sample_flip_*).
seed_args=("$seeds")
[[ -d $samples ]] && seed_args+=("$samples")
declare -A endings
while read -r name rest; do endings[$name]=$rest; done < <("$dir"/fuzz_make_seeds "${seed_args[@]}")
for h in "${harnesses[@]}"; do
  c=$(corpus_of "$h")
  mkdir -p "build/fuzz-corpus/$h" build/fuzz-artifacts
  cp -n "$seeds/$c"/* "build/fuzz-corpus/$h/" 2>/dev/null || true
  [[ -d tests/fuzz/regressions/$c ]] && cp -n tests/fuzz/regressions/"$c"/* "build/fuzz-corpus/$h/"
  if [[ -d $samples ]]; then
    # Real samples whose names end as the format's logs do (detect: every file).
    patterns=()
    if [[ $c == detect ]]; then patterns=('*')
    else for e in ${endings[$c]:-}; do patterns+=("*$e"); done
    fi
    len=$(max_len_of "$h")
    for pattern in "${patterns[@]}"; do
      find "$samples" -type f -name "$pattern" ! -name '*.txt' ! -name '*.json' ! -name '*.md' | sort | while read -r f; do
        head -c "$len" "$f" >"build/fuzz-corpus/$h/sample_$(basename "$f")"
      done
    done
  fi
done

export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
run_one() {
  local h=$1 log=build/fuzz-artifacts/$1.log
  local status=0
  "$dir/tests/fuzz/$h" "build/fuzz-corpus/$h" -max_total_time="$seconds" -max_len="$(max_len_of "$h")" -timeout=10 \
    -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 -artifact_prefix="build/fuzz-artifacts/$h-" >"$log" 2>&1 || status=$?
  local runs rate
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(( ${runs:-0} / (seconds > 0 ? seconds : 1) ))
  if ((status == 0)); then
    printf '%-20s ok      %9s inputs in %ss (%s/s)\n' "$h" "${runs:-?}" "$seconds" "$rate"
  else
    printf '%-20s FAILED  (exit %s) after %s inputs; log: %s\n' "$h" "$status" "${runs:-?}" "$log"
    grep -E 'ERROR|SUMMARY|invariant violated|Test unit written' "$log" | head -n 20
  fi
  return $status
}

echo "== fuzzing: ${#harnesses[@]} harnesses x ${seconds}s, $jobs at a time" >&2
status=0
pids=()
for h in "${harnesses[@]}"; do
  run_one "$h" &
  pids+=($!)
  if ((${#pids[@]} >= jobs)); then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
