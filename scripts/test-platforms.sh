#!/usr/bin/env bash
# `npm run test:platforms` (issue 9): the npm tarball in real runtimes. Builds first (a warm
# build.sh takes under a second), then tests/platforms/run.mjs: npm pack, install the tarball into
# a temporary project, run one program per platform (Node ESM and CJS, the CLI, TypeScript, Deno, Bun,
# workerd, and in headless Chromium an esbuild bundle, a Vite build, a strict-CSP page, a Web
# Worker). One PASS/FAIL line per platform, then "platforms: N passed, N failed".
# Set SKIP_BUILD=1 when build.sh has just run (scripts/test.sh does).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [[ -z "${SKIP_BUILD:-}" ]]; then bash build.sh; fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
exec node tests/platforms/run.mjs "$@"
