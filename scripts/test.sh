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
step security
npx mocha 'test/security/**/*.test.ts'
step clients
npx mocha 'test/clients/**/*.test.ts'
step cluster
npx mocha 'test/cluster/**/*.test.ts'
step "chaos (kill -9, restart, SIGSTOP under load; about 2.5 min)"
npx mocha 'test/chaos/**/*.test.ts'
step "faults (restarts Cassandra; runs last)"
# Breaks services on purpose (test/faults): a private redis-server killed and restarted, the Cassandra
# node stopped and started under load, then three Cassandra nodes (RF 3) with one of them stopped.
faults_started=$SECONDS
# The single node services-up.sh starts. After three nodes, `start 1` begins from empty data (a lone
# node holding three-node data would own only a third of the ring).
one_cassandra_node() { bash scripts/cassandra.sh stop && bash scripts/cassandra.sh start 1; }
# Three nodes left by an interrupted earlier run (services-up.sh reuses them): back to one node first.
if grep -q '^node [23] .*: running' <<<"$(bash scripts/cassandra.sh status || true)"; then one_cassandra_node; fi
npx mocha test/faults/redisOutage.test.ts test/faults/cassandraRestart.test.ts
finish_faults() {
  local status=$?
  trap - EXIT
  one_cassandra_node || status=1
  echo "faults stage: $((SECONDS - faults_started)) s" >&2
  exit "$status"
}
trap finish_faults EXIT
bash scripts/cassandra.sh start 3
CHORUS_CASSANDRA_CONTACT_POINTS=127.0.0.1,127.0.0.2,127.0.0.3 npx mocha test/faults/replication.test.ts
