#!/bin/sh
# Removes from a `pnpm deploy --prod` folder what the running service never reads, before the final
# stage copies it: better-sqlite3's compile leftovers (object files, the static SQLite library, the
# Makefiles; only build/Release/better_sqlite3.node is loaded), type declarations, and the service's
# TypeScript sources (the image runs dist/). Used by deploy/Dockerfile; `deploy/image-size.sh` measures it.
set -eu
out="$1"
find "$out/node_modules/.pnpm" -type d -path '*/better-sqlite3/build' | while read -r build; do
  find "$build" -mindepth 1 -maxdepth 1 ! -name Release -exec rm -rf {} +
  find "$build/Release" -mindepth 1 -maxdepth 1 ! -name better_sqlite3.node -exec rm -rf {} +
  rm -rf "$build/../deps" "$build/../src"
done
find "$out/node_modules/.pnpm" -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -delete
rm -rf "$out/src"
