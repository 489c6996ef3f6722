#!/usr/bin/env bash
# Installs the front-end/test packages from npm when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules/playwright-core ]; then
  echo "== npm install" >&2
  npm install --no-audit --no-fund --loglevel=error >&2
fi
