#!/usr/bin/env bash
# Builds the native codec, CLI, tests and benchmarks, then the wasm modules: for workers the view
# module web/gen/logscope.mjs and the full module web/gen/logscope-full.mjs (loaded on the
# first extract, repair or export, or for protobuf by name), and build/wasm/node/logscope-node.cjs
# for node; and web/gen/folder-rules.js, the format table's folder rules, for the page.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/compiler-cache.sh
jobs=$(nproc)
mkdir -p build

# SQLite's amalgamation from Debian's source (both builds compile it).
sqlite=$(scripts/fetch-sqlite.sh | tail -n 1)

echo "== native build" >&2
cmake -S . -B build/native "${launcher[@]}" -DCMAKE_BUILD_TYPE=Release -DLOGSCOPE_SQLITE="$sqlite" >build/cmake-native.log 2>&1 || { cat build/cmake-native.log; exit 1; }
cmake --build build/native -j"$jobs"
# The format table's folder rules for the page's folder code (web/gen/folder-rules.js).
node scripts/write-folder-rules.mjs

echo "== wasm build" >&2
prefix=$(scripts/build-wasm-deps.sh | tail -n 1)
export NODE_PATH=/usr/share/nodejs  # Debian's emscripten optimizer imports acorn from there
emcmake cmake -S . -B build/wasm "${launcher[@]}" -DCMAKE_BUILD_TYPE=Release -DLOGSCOPE_WASM_DEPS="$prefix" -DLOGSCOPE_SQLITE="$sqlite" >build/cmake-wasm.log 2>&1 || { cat build/cmake-wasm.log; exit 1; }
cmake --build build/wasm -j"$jobs"

echo "== demo files" >&2
scripts/make-demos.sh
