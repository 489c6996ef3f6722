#!/usr/bin/env bash
# The codec's hostile-input suites under AddressSanitizer + UndefinedBehaviorSanitizer (clang 14), in its own
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
# The suites that feed the codec hostile or hand-made input: damage, cuts, flips, stamps at the
# edges, lying lengths, every format's own reader and views, and each fuzz harness's replay of its
# findings. The other suites (samples against their oracles, outputs, I/O budgets, the CLI) run in
# the plain build of npm test. Building and running all 64 under ASan took most of CI's 90 minutes
# (stop 38); these are the ones whose inputs are made to break the reader. The fuzz harnesses
# (scripts/fuzz.sh) are built here too.
sanitized=(test_allocation_caps test_hostile_inputs test_sweeps test_time_edges test_check test_core
  test_bddf_damage test_carla_damage test_mcap_damage test_rosbag2_damage test_mcap_line_endings
  test_rosbag2_yaml test_ulog test_robot_log test_transforms test_diagnostics test_scans test_image_convert test_spot_images test_sparse_reads test_cdr test_carla test_rosbag)
harnesses=()
# (Each harness also replays its findings and seeds in ctest, as fuzz_replay_<harness>.)
for f in tests/fuzz/fuzz_*.cpp; do harnesses+=("$(basename "$f" .cpp)"); done
# (logscope: the CLI the sweeps and the time edges run; test_rosbag2: the cleanup that checks the
# shared samples are unchanged once the suites that read them have run.)
cmake --build "$dir" -j"$jobs" --target "${sanitized[@]}" "${harnesses[@]}" fuzz_make_seeds logscope test_rosbag2
((build_only)) && exit 0

echo "== codec tests under ASan + UBSan (ctest)" >&2
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# The 1 GB remote-read test checks the transfer budget in the plain build (npm test); here the same
# code runs on a 64 MB file, for memory safety, in a fraction of the time.
export LOGSCOPE_REMOTE_MB=${LOGSCOPE_REMOTE_MB:-64}
cd "$dir"
only=$(IFS='|'; echo "${sanitized[*]}")
# (Less the sweeps over the real bags, 220 s here: the plain build runs them, and the writer-made
# sweeps of the same code run here.)
ctest --output-on-failure -j"$jobs" -R "^(($only):|fuzz_replay_)" -E "^test_sweeps:sweep: real bags" "$@"
