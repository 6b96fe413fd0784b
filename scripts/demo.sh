#!/usr/bin/env bash
# The extension's main job, from a fresh Debian/Ubuntu machine: installs what is needed
# (scripts/setup.sh), builds dist/, starts Apertium APy on 127.0.0.1:2737 and opens Chromium
# with the extension on a local English page that it translates into Spanish, offline.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
SHARED="${SHARED_DIR:-$(cd .. && pwd)/shared}"
npx vite build --logLevel warn
mkdir -p artifacts
if ! curl -fs -o /dev/null http://127.0.0.1:2737/listPairs; then
  bash "$SHARED/tools/apy.sh" start
  trap 'bash "$SHARED/tools/apy.sh" stop' EXIT
fi
npx tsx scripts/demo.ts
