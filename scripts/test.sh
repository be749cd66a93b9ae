#!/usr/bin/env bash
# The README's test command. On a fresh Debian machine it installs what the tests need (Chromium,
# a PostgreSQL server, Node.js 24 LTS from the npm registry), runs every test on Node.js 24, and
# then, when the machine's own Node.js is another version, proves the release on that one too:
# on Node.js 20 the release built with 24 (which has no driver for 20) is refused with a message
# saying how to build one; the install builds Node.js 20's driver for it; the native packages pass
# their tests and the release built with it passes a smoke run.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/test-prerequisites.sh

pnpm() { npx -y pnpm@10 "$@"; }
# node-gyp compiles against the headers of the Node.js that will load the binary, not those an
# npm configuration names for the machine's own.
use_node() {
  export PATH="$1:$PATH"
  local prefix
  prefix="$(cd "$1/.." && pwd)"
  if [ -f "$prefix/include/node/node_version.h" ]; then export npm_config_nodedir="$prefix"; fi
}
machine_node="$(node --version 2>/dev/null || echo none)"

lts_bin="$(scripts/node-lts.sh 24)"
(
  use_node "$lts_bin"
  echo "== Every test, on Node.js $(node --version)"
  pnpm install --frozen-lockfile
  pnpm test
  echo "== The PostgreSQL suites again, through PgBouncer in transaction mode"
  pnpm test:pooler
)

if [ "$machine_node" != none ] && [ "$(command -v node)" != "$lts_bin/node" ]; then
  echo "== The release on this machine's Node.js $machine_node"
  npx tsx scripts/smoke-release.ts --refused
  pnpm install --frozen-lockfile
  pnpm build
  npx vitest run --project server apps/server/src/adapters
  npx vitest run --project persistence src/sqlite/sqlite-database.test.ts
  npx tsx scripts/smoke-release.ts
fi
