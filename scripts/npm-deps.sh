#!/usr/bin/env bash
# Installs the front-end/test packages from npm when any is missing or out of date.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! npm ls --depth=0 >/dev/null 2>&1; then
  echo "== npm install" >&2
  npm install --no-audit --no-fund --loglevel=error >&2
fi
