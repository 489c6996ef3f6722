#!/usr/bin/env bash
# `npm test`: installs what is missing, builds everything, runs every suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh >&2
scripts/npm-deps.sh
started=$SECONDS
scripts/build.sh
echo "== build: $((SECONDS - started)) s"

status=0
# Each suite's time is printed: CI's whole run has a time budget (.ci/run).
suite() {
  local name=$1 start=$SECONDS
  shift
  echo "== $name"
  "$@" || status=1
  echo "== $name: $((SECONDS - start)) s"
}
suite "a format is one folder (lint: no shared code names a format)" node --test tests/lint/
suite "page types (tsc: npm run typecheck)" npm run --silent typecheck
suite "codec tests (ctest)" bash -c 'cd build/native && ctest --output-on-failure -j"$(nproc)"'
suite "wasm module tests (node --test)" node --test tests/wasm/
suite "reference readers (node --test tests/node/: @mcap/core against the CLI)" node --test tests/node/
suite "browser tests (playwright-core + chromium)" node --test --test-concurrency=1 tests/web/
suite "cross-browser tests (Firefox ESR over WebDriver BiDi, WebKitGTK over WebDriver)" node --test --test-concurrency=1 tests/browsers/
exit $status
