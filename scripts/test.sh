#!/usr/bin/env bash
# The README's test command: every gate CI runs, in STYLE S8's order. Fails fast; never skips a stage.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s ==\n' "$*"; }

step typecheck
npx tsc -p tsconfig.json --noEmit
step lint
npm run --silent lint
step unit
npx mocha 'test/unit/**/*.test.ts'
step "proto freshness"
bash proto/generate.sh
git diff --exit-code -- proto/gen || { echo "proto/gen is stale: run npm run gen:proto and commit" >&2; exit 1; }
step "services (Redis, Cassandra)"
bash scripts/services-up.sh
step integration
npx mocha 'test/integration/**/*.test.ts'
step cluster
npx mocha 'test/cluster/**/*.test.ts'
