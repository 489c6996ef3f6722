#!/usr/bin/env bash
# Installs what the benchmarks compare against, outside `npm test`'s dependencies:
#   Debian: C++ rosbag_storage (headers for bench/peers/rosbag_storage_iterate.cpp), python3-rosbag
#           with lz4 and the message packages bench/write_bag.py writes;
#   npm:    rosbag.js and @foxglove/rosbag with its lz4/bz2 decompressors, into
#           $LOGSCOPE_CACHE/bench-peers (default ~/.cache/logscope), not into the repo.
# usage: bench/deps.sh [--debian-only]. Prints nothing on stdout but the npm peers' folder.
set -euo pipefail

debian=(
  librosbag-storage-dev                      # C++ rosbag_storage peer
  python3-rosbag python3-roslz4              # python peer and the bench bags' writer
  python3-std-msgs python3-geometry-msgs python3-sensor-msgs python3-nav-msgs python3-tf2-msgs python3-rosgraph-msgs
  libcrypto++-dev                            # SHA1 peer (also a build dependency)
)
missing=()
for p in "${debian[@]}"; do
  [[ $(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null) == installed ]] || missing+=("$p")
done
if ((${#missing[@]})); then
  if ((EUID != 0)); then
    printf 'bench/deps: missing %s; as root run:\n  apt-get update && apt-get install -y %s\n' "${missing[*]}" "${missing[*]}" >&2
    exit 1
  fi
  echo "bench/deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >&2
  apt-get install -y -q "${missing[@]}" >&2
fi
[[ ${1:-} == --debian-only ]] && exit 0

peers="${LOGSCOPE_CACHE:-$HOME/.cache/logscope}/bench-peers"
npm_peers=(rosbag@5.0.0 @foxglove/rosbag@0.4.1 @foxglove/wasm-lz4@1.0.2 @foxglove/wasm-bz2@0.3.0)
mkdir -p "$peers"
if ! (cd "$peers" && npm ls --depth=0 "${npm_peers[@]%@*}" >/dev/null 2>&1); then
  echo "bench/deps: npm install ${npm_peers[*]} into $peers" >&2
  npm install --prefix "$peers" --no-audit --no-fund --loglevel=error "${npm_peers[@]}" >&2
fi
echo "$peers"
