#!/usr/bin/env bash
# Writes the demo logs the inspector opens on `npm start`, with the project's own writers
# (never copies of real samples). Output: web/gen/demo/ with a manifest the page reads.
set -euo pipefail
cd "$(dirname "$0")/.."
out=web/gen/demo
mkdir -p "$out"
cli=build/native/logscope
[ -f "$out/spot_walk.bddf" ] || "$cli" make-demo-bddf "$out/spot_walk.bddf" --size-mb 2 >/dev/null
[ -f "$out/husky_outdoor.bag" ] || "$cli" make-demo-rosbag "$out/husky_outdoor.bag" --size-mb 3 --compression lz4 >/dev/null
[ -f "$out/town03_intersection.log" ] || "$cli" make-demo-carla "$out/town03_intersection.log" --size-mb 2 >/dev/null
cat >"$out/manifest.json" <<'JSON'
{"default": "spot_walk.bddf", "files": ["spot_walk.bddf", "husky_outdoor.bag", "town03_intersection.log"]}
JSON
