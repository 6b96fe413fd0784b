#!/bin/sh
# `npm run build:server`: src/server/main.ts and all it imports as one ESM file for plain node,
# dist-server/server.mjs (~0.3 s with esbuild). Written under a temporary name and renamed, so a
# server starting meanwhile never reads half a file. Not minified: stack traces stay readable.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/dist-server/server.mjs"
tmp="$out.$$.tmp"
"$root/node_modules/.bin/esbuild" "$root/src/server/main.ts" --bundle --platform=node --format=esm \
  --target=node20 --log-level=warning --outfile="$tmp"
mv -f "$tmp" "$out"
