#!/usr/bin/env bash
# Prints the path of a Node 24 binary (the current LTS line), fetching it first when needed:
# Node's own build, as npm's node-linux-<arch> package (the npm registry is the only network the
# tests may use; npm checks the tarball's integrity and keeps it in its cache). The suite runs on
# the Node the project pins (20); scripts/test.sh runs the node project on this one too, since
# Node 24 takes paths 20 cannot (Buffer#utf8Slice for long strings in decodes: runtime.js
# FAST_UTF8; Float16Array).
#   NODE24_VERSION  the version (default below; tests/platforms/run.mjs fetches the "engines"
#                   floor, 18, with it); NODE24=path uses that binary instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ -n "${NODE24:-}" ]]; then echo "$NODE24"; exit 0; fi
version="${NODE24_VERSION:-24.22.3}"
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "scripts/node24.sh: no npm package of Node for $(uname -m)" >&2; exit 1 ;;
esac
dir="build/node24/$version"
bin="$dir/package/bin/node"
if [[ ! -x "$bin" ]]; then
  rm -rf "$dir" && mkdir -p "$dir"
  (cd "$dir" && npm pack --silent "node-linux-$arch@$version" > /dev/null && tar xzf "node-linux-$arch-$version.tgz" && rm -f "node-linux-$arch-$version.tgz") >&2
fi
"$bin" --version > /dev/null
echo "$PWD/$bin"
