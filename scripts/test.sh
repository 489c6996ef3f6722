#!/usr/bin/env bash
# `npm test`: installs what is missing, builds everything, runs every suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh >&2
scripts/npm-deps.sh
scripts/build.sh

status=0
echo "== a format is one folder (lint: no shared code names a format)"
node --test tests/lint/ || status=1
echo "== page types (tsc: npm run typecheck)"
npm run --silent typecheck || status=1
echo "== codec tests (ctest)"
(cd build/native && ctest --output-on-failure -j"$(nproc)") || status=1
echo "== wasm module tests (node --test)"
node --test tests/wasm/ || status=1
echo "== reference readers (node --test tests/node/: @mcap/core against the CLI)"
node --test tests/node/ || status=1
echo "== browser tests (playwright-core + chromium)"
node --test --test-concurrency=1 tests/web/ || status=1
echo "== cross-browser tests (Firefox ESR over WebDriver BiDi, WebKitGTK over WebDriver)"
node --test --test-concurrency=1 tests/browsers/ || status=1
exit $status
