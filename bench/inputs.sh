#!/usr/bin/env bash
# `npm run bench:inputs`: writes the benchmark inputs once into a cache outside the repo,
# ${LOGSCOPE_CACHE:-~/.cache/logscope}/bench-inputs/, and skips the ones already there.
# The bags are written by Debian's python3-rosbag (bench/write_bag.py), the BDDF, CARLA and MCAP logs by
# logscope's own writers. Each file is written under a temporary name and renamed when complete,
# so a file that exists is whole. Prints the folder on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${LOGSCOPE_CACHE:-$HOME/.cache/logscope}/bench-inputs"
mkdir -p "$dir"
# One writer at a time (another run waits here, then finds the files written).
exec 9>"$dir/.lock"
flock 9
for stale in "$dir"/*.partial.*; do  # left by a run that was killed
  if [[ -e $stale ]] && ! kill -0 "${stale##*.}" 2>/dev/null; then rm -f "$stale"; fi
done
bench/deps.sh --debian-only

# write_input NAME COMMAND...: runs COMMAND with the temporary path in place of @OUT@, then renames.
write_input() {
  local name=$1 out="$dir/$1"; shift
  if [[ -s $out ]]; then echo "bench/inputs: $name exists" >&2; return; fi
  tmp="$out.partial.$$"
  trap 'rm -f "$tmp"' EXIT
  echo "bench/inputs: writing $name" >&2
  local start=$SECONDS
  "${@//@OUT@/$tmp}" >&2
  mv -f "$tmp" "$out"
  trap - EXIT
  echo "bench/inputs: $name: $(stat -c %s "$out") bytes in $((SECONDS - start)) s" >&2
}

py=(/usr/bin/python3 bench/write_bag.py)
write_input lz4-1g.bag "${py[@]}" @OUT@ --compression lz4 --size-mb 1024
write_input none-1g.bag "${py[@]}" @OUT@ --compression none --size-mb 1100
write_input bz2-200m.bag "${py[@]}" @OUT@ --compression bz2 --size-mb 200
write_input tiny-5m.bag "${py[@]}" @OUT@ --tiny 5000000
cli=build/native/logscope
if [[ ! -x $cli ]]; then
  echo "bench/inputs: building $cli" >&2
  [[ -f build/native/CMakeCache.txt ]] || cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >&2
  cmake --build build/native -j2 --target logscope >&2
fi
write_input bddf-1g.bddf "$cli" make-demo-bddf @OUT@ --size-mb 1024
write_input bddf-300m.bddf "$cli" make-demo-bddf @OUT@ --size-mb 300  # bench:engines: WebKit and Firefox
write_input carla-1g.log "$cli" make-demo-carla @OUT@ --size-mb 1024
write_input zstd-1g.mcap "$cli" make-demo-mcap @OUT@ --size-mb 1024 --compression zstd
write_input lz4-1g.mcap "$cli" make-demo-mcap @OUT@ --size-mb 1024 --compression lz4
write_input none-1g.mcap "$cli" make-demo-mcap @OUT@ --size-mb 1024 --compression none
echo "$dir"
