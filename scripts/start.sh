#!/usr/bin/env bash
# `npm start`: installs what is missing, builds, and serves the inspector with a demo file open.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh >&2
scripts/build.sh
exec node scripts/serve.mjs --port "${PORT:-8080}"
