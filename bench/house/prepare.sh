#!/usr/bin/env bash
# Builds of earlier commits for bench/house/compare.ts (and bench/ingest/compare.ts):
#   bench/house/prepare.sh <commit> [<commit> ...]
# For each commit: a detached worktree in ${BUILDS_DIR:-../housebench-builds}/<commit> (kept, reused), its
# node_modules hard-linked from this checkout's when every package its lock file names is here at the same version
# (else `npm ci` there), `tsc -p tsconfig.build.json`, and its dist/ copied to bench/.work/<commit>/, so that
# `bench/.work/<commit>/src/main.js` runs inside this project (and finds node_modules). Each build migrates its own
# database when the harness starts it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
builds=${BUILDS_DIR:-$root/../housebench-builds}
mkdir -p "$builds" "$root/bench/.work"
for commit in "$@"; do
  dir=$builds/$commit
  [ -d "$dir" ] || git -C "$root" worktree add --detach "$dir" "$commit"
  if [ ! -d "$dir/node_modules" ]; then
    if node -e '
      const here = require(process.argv[1]).packages, there = require(process.argv[2]).packages;
      const missing = Object.entries(there).filter(([k, v]) => k && (!here[k] || here[k].version !== v.version));
      process.exit(missing.length ? 1 : 0);
    ' "$root/package-lock.json" "$dir/package-lock.json"; then
      cp -al "$root/node_modules" "$dir/node_modules"
    else
      (cd "$dir" && npm ci)
    fi
  fi
  (cd "$dir" && node node_modules/typescript/bin/tsc -p tsconfig.build.json)
  rm -rf "$root/bench/.work/$commit"
  cp -r "$dir/dist" "$root/bench/.work/$commit"
  echo "bench/.work/$commit/src/main.js"
done
