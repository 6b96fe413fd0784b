#!/usr/bin/env bash
# Installs what the project needs on a fresh Debian/Ubuntu machine: Debian's Chromium and Firefox ESR, Apertium APy
# with its language pairs (through ../shared/tools/apy.sh), and the npm packages. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED="${SHARED_DIR:-$(cd .. && pwd)/shared}"
if [ ! -f "$SHARED/tools/apy.sh" ]; then
  echo "setup: $SHARED/tools/apy.sh is missing: the project's shared/ folder must sit beside this clone (or set SHARED_DIR)." >&2
  exit 1
fi
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
if ! command -v chromium >/dev/null || ! command -v firefox-esr >/dev/null || [ ! -f /usr/share/apertium-apy/langNames.db ]; then
  $SUDO apt-get update -qq
  command -v chromium >/dev/null || $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq chromium >/dev/null
  # Firefox ESR for the Firefox e2e tests (puppeteer-core over WebDriver BiDi; it never downloads a browser).
  command -v firefox-esr >/dev/null || $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq firefox-esr >/dev/null
  [ -f /usr/share/apertium-apy/langNames.db ] || $SUDO bash "$SHARED/tools/apy.sh" install >/dev/null
fi
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
