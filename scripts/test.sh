#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs every test: type check, then all vitest tiers (unit, dom,
# integration against a real Apertium APy, e2e in Chromium with the built extension). The last
# line is `N passed, N failed, N skipped`.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || { echo "0 passed, 1 failed, 0 skipped"; exit 1; }
if ! npx tsc --noEmit -p .; then
  echo "type check failed"
  echo "0 passed, 1 failed, 0 skipped"
  exit 1
fi
log=$(mktemp)
npx vitest run "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
rm -f "$log"
[ -n "$summary" ] || { summary="0 passed, 1 failed, 0 skipped"; status=1; }
echo "$summary"
exit "$status"
