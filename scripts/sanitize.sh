#!/usr/bin/env bash
# The whole ctest suite under AddressSanitizer + UndefinedBehaviorSanitizer (clang 14), in its own
# build directory, build/sanitize. The same directory holds the libFuzzer harnesses
# (LOGSCOPE_FUZZ), so scripts/fuzz.sh reuses it. Any sanitizer report stops the test that made it.
#   scripts/sanitize.sh [--build-only] [ctest arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/compiler-cache.sh
build_only=0
if [[ ${1:-} == --build-only ]]; then build_only=1; shift; fi
dir=build/sanitize
jobs=$(( $(nproc) < 2 ? $(nproc) : 2 ))
mkdir -p build

echo "== sanitizer build ($dir: clang++-14, ASan + UBSan)" >&2
cmake -S . -B "$dir" "${launcher[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_C_COMPILER=clang-14 -DLOGSCOPE_SANITIZE=ON -DLOGSCOPE_FUZZ=ON >build/cmake-sanitize.log 2>&1 || { cat build/cmake-sanitize.log; exit 1; }
cmake --build "$dir" -j"$jobs"
((build_only)) && exit 0

echo "== codec tests under ASan + UBSan (ctest)" >&2
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# The 1 GB remote-read test checks the transfer budget in the plain build (npm test); here the same
# code runs on a 64 MB file, for memory safety, in a fraction of the time.
export LOGSCOPE_REMOTE_MB=${LOGSCOPE_REMOTE_MB:-64}
# The oracle comparisons over every real sample (python3-rosbag, protoc; 20-95 s each in the plain
# build, about four times that here) check results, which npm test's ctest does. The real files
# still run under the sanitizers here, cut, flipped and stamped (test_sweeps), and opened by the
# other sample tests. Without this, this stage alone took most of CI's 90 minutes (stop 38).
slow_oracles='test_extract_samples:|test_export_samples:|test_mcap_protobuf:real protobuf samples|test_rosbag_samples:`logscope info` matches'
cd "$dir"
ctest --output-on-failure -j"$jobs" -E "$slow_oracles" "$@"
