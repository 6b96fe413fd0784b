#!/bin/sh
# `npm run serve -- [--config <file>] [--port <n>] ...`: builds the server (build-server.sh) and
# runs the bundle under plain node, replacing this shell, so npm and process managers see the
# server's own pid, signals and exit code.
# Heap flags (docs/speed.md "Memory"; bench:memory, 200 keep-alive clients): requests wait long
# enough for their garbage to be promoted, and by default V8 lets old space reach ~4.5x the live
# heap before marking. With a 512 MB limit it marks at ~1.5x (512 MB is still ~6x the live heap
# with the translation memory full); 4 MB semi-spaces keep the young generation at 8 MB resident
# instead of 32 MB. VmHWM over the 10 s bench 108-149 MB instead of 192-266 MB, for 10-50% more
# CPU per call at saturation.
# SERVE_NO_BUILD=1: run the bundle as built (the tests build it once). SERVE_NODE_FLAGS: more node
# flags (e.g. --trace-gc), after these, so they win.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
[ "${SERVE_NO_BUILD:-}" = 1 ] || sh "$root/scripts/build-server.sh"
# shellcheck disable=SC2086 # SERVE_NODE_FLAGS is a list of words
exec node --max-semi-space-size=4 --max-old-space-size=512 ${SERVE_NODE_FLAGS:-} "$root/dist-server/server.mjs" "$@"
