#!/usr/bin/env bash
# Bring up the services the Chorus tests need, on this machine, without Docker:
#   - Redis on 127.0.0.1:6379
#   - one real Cassandra 5.0 node on 127.0.0.1:9042 (scripts/cassandra.sh)
#   - Debian's Chromium at /usr/bin/chromium (browser tests)
# Idempotent: services that already answer are left alone. Exits non-zero when either service is not
# up afterwards; tests must never silently skip because a service is missing.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

log() { echo "services-up: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

redis_ping() { [[ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" == PONG ]]; }

ensure_redis() {
  if command -v redis-cli >/dev/null && redis_ping; then
    log "redis: already answering on 127.0.0.1:6379"
    return 0
  fi
  if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
    log "redis: installing redis-server (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    # A fresh CI image may have empty package lists; update only when the plain install fails.
    apt-get install -y redis-server >/dev/null || { apt-get update >/dev/null && apt-get install -y redis-server >/dev/null; } \
      || die "redis: apt-get install redis-server failed"
    # The package's postinst may already have started a server.
    if redis_ping; then log "redis: answering after install"; return 0; fi
  fi
  log "redis: starting redis-server on 127.0.0.1:6379"
  # The directories the Debian package creates; make sure they exist when the package was not used.
  mkdir -p /var/lib/redis /var/log/redis
  # No persistence (--save "" / --appendonly no): test data is throwaway, and fsyncs would only slow
  # the tests down.
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log \
    || die "redis: redis-server failed to start (see /var/log/redis/ci.log)"
  local i
  for i in $(seq 50); do redis_ping && break; sleep 0.2; done
  if ! redis_ping; then
    tail -n 30 /var/log/redis/ci.log >&2 2>/dev/null || true
    die "redis: not answering on 127.0.0.1:6379 after start"
  fi
  log "redis: up"
}

# Debian's Chromium for the browser voice tests (playwright-core drives /usr/bin/chromium; it downloads no browser).
ensure_chromium() {
  if [[ -x /usr/bin/chromium ]]; then
    log "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo present)"
    return 0
  fi
  log "chromium: installing (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y chromium >/dev/null || { apt-get update >/dev/null && apt-get install -y chromium >/dev/null; } \
    || die "chromium: apt-get install chromium failed"
}

ensure_redis
ensure_chromium
# A Cassandra that already answers on 127.0.0.1:9042 (started from another checkout of the project,
# or by an operator) is used as it is: a second node could not bind the same ports anyway.
if (ss -ltn 2>/dev/null | grep -q '127.0.0.1:9042 ') && node "$SCRIPT_DIR/cassandra-ready.mjs" 127.0.0.1 >/dev/null 2>&1; then
  log "cassandra: already answering on 127.0.0.1:9042"
  log "all services up: redis 127.0.0.1:6379, cassandra 127.0.0.1:9042"
  exit 0
fi
# Jars from Maven Central (skipped when already present), then one node; cassandra.sh exits
# non-zero, with the node's log, when the node does not become ready.
"$SCRIPT_DIR/cassandra.sh" fetch || die "cassandra: fetch failed"
"$SCRIPT_DIR/cassandra.sh" start 1 || die "cassandra: node did not start"
log "all services up: redis 127.0.0.1:6379, cassandra 127.0.0.1:9042"
