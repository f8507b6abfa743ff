#!/usr/bin/env bash
# Run a real Apache Cassandra 5.0.x for Chorus tests, straight from the Maven Central jars.
#
# No Debian or npm package ships Cassandra and there is no Docker here, so this does what embedded
# Cassandra test kits do: download cassandra-all and its runtime dependencies with Maven and start
# org.apache.cassandra.service.CassandraDaemon (the same daemon the official tarball runs) as a
# plain `java` process. Background: shared docs/cassandra.md.
#
#   scripts/cassandra.sh fetch        jars into .cassandra/lib (idempotent; skipped when present)
#   scripts/cassandra.sh start [N]    N=1 (default): one node on 127.0.0.1
#                                     N=3: three nodes on 127.0.0.1, .2, .3, started one by one
#   scripts/cassandra.sh stop [K]     all nodes, or node K (1-3) only: SIGTERM, SIGKILL after 30 s
#                                     (a node stopped alone in a three-node cluster: `start 3` restarts it)
#   scripts/cassandra.sh status       per node: running/ready; exit 0 when something runs and all
#                                     running nodes answer CQL, 3 when nothing runs, 1 otherwise
#   scripts/cassandra.sh reset        stop + delete the nodes' data (keeps the jars)
#
# Layout (git-ignored): .cassandra/lib (jars), .cassandra/nodeK/{cassandra.yaml,cassandra.log,
# cassandra.pid,data,commitlog,...}. Every client connects on port 9042 of 127.0.0.K.
#
# Environment knobs: CASSANDRA_HEAP_MIN (512m), CASSANDRA_HEAP_MAX (1g),
# CASSANDRA_READY_TIMEOUT (180, seconds per node).
set -euo pipefail

# Resolve everything from this file's location so the script works from any cwd.
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
CONF_DIR="$SCRIPT_DIR/cassandra"
POM="$CONF_DIR/pom.xml"
BASE="$ROOT/.cassandra"
LIB="$BASE/lib"

# The pom is the single source of truth for the version.
VERSION="$(sed -n 's:.*<cassandra.version>\(.*\)</cassandra.version>.*:\1:p' "$POM")"
[[ -n "$VERSION" ]] || { echo "cassandra.sh: no <cassandra.version> in $POM" >&2; exit 1; }
FETCH_MARKER="$LIB/.fetched-$VERSION"

# Small heap: the machine has 2 cores and the test run shares it (three nodes = up to 3 GiB heap).
HEAP_MIN="${CASSANDRA_HEAP_MIN:-512m}"
HEAP_MAX="${CASSANDRA_HEAP_MAX:-1g}"
READY_TIMEOUT="${CASSANDRA_READY_TIMEOUT:-180}"
STOP_TIMEOUT=30

# Per-node topology (index = node number). Evenly spaced Murmur3 tokens for three nodes; node 1
# uses the same token when alone, so `start 3` can add nodes 2 and 3 next to a running node 1.
TOKENS=("" "-9223372036854775808" "-3074457345618258603" "3074457345618258602")
# JMX listens on 127.0.0.1 whatever the node address, so each node needs its own port.
JMX_PORTS=("" 7199 7299 7399)

log() { echo "cassandra.sh: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

node_dir()  { echo "$BASE/node$1"; }
node_addr() { echo "127.0.0.$1"; }
node_pid()  { cat "$(node_dir "$1")/cassandra.pid" 2>/dev/null || true; }

# Alive = the recorded PID exists AND is our CassandraDaemon for this node dir (guards against a
# stale pid file whose PID was reused by another process, which `stop` must never kill).
node_alive() {
  local pid; pid="$(node_pid "$1")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "CassandraDaemon" || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "-Dcassandra.storagedir=$(node_dir "$1") " || return 1
}

port_open() { timeout 2 bash -c "exec 3<>/dev/tcp/$1/9042" 2>/dev/null; }

# One CQL probe (see cassandra-ready.mjs). Extra args, e.g. --peers 2, are passed through.
cql_ready() { node "$SCRIPT_DIR/cassandra-ready.mjs" "$@"; }

print_failure_logs() {
  local dir; dir="$(node_dir "$1")"
  # Only this start attempt: from the last "==== ... starting" marker that launch_node writes.
  local from
  from="$(grep -n '^==== .* starting node' "$dir/cassandra.log" 2>/dev/null | tail -n 1 | cut -d: -f1)"
  log "---- $dir/cassandra.log (this start, last 80 lines) ----"
  sed -n "${from:-1},\$p" "$dir/cassandra.log" 2>/dev/null | tail -n 80 >&2 || log "(no log file)"
  local f
  for f in "$dir"/hs_err_pid*.log; do
    [[ -e "$f" ]] || continue
    log "---- JVM crash report $f (head) ----"
    head -n 40 "$f" >&2
  done
}

# ---------------------------------------------------------------------------------------------
cmd_fetch() {
  if [[ -f "$FETCH_MARKER" ]]; then
    log "jars for Cassandra $VERSION already in $LIB"
    return 0
  fi
  command -v mvn >/dev/null || die "mvn not found (apt-get install -y maven)"
  local k
  for k in 1 2 3; do
    node_alive "$k" && die "node $k is running; stop it before replacing the jars"
  done
  mkdir -p "$BASE"
  # Download into a scratch dir and swap it in at the end, so an interrupted fetch never leaves a
  # half-filled lib dir that later looks complete. The marker file records the finished version.
  local tmp="$BASE/lib.tmp" mvnlog="$BASE/fetch.log" t0=$SECONDS
  rm -rf "$tmp"
  log "downloading cassandra-all $VERSION and its dependencies (Maven Central, cached in ~/.m2)"
  # -q hides the harmless "${jmc5.path}" ERROR that cassandra-parent's pom makes Maven print.
  if ! mvn -B -q -f "$POM" \
      org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$tmp" >"$mvnlog" 2>&1; then
    tail -n 40 "$mvnlog" >&2
    rm -rf "$tmp"
    die "maven download failed (full output: $mvnlog)"
  fi
  [[ -f "$tmp/cassandra-all-$VERSION.jar" ]] || die "cassandra-all-$VERSION.jar missing after download"
  rm -rf "$LIB"
  mv "$tmp" "$LIB"
  touch "$FETCH_MARKER"
  log "fetched $(ls "$LIB"/*.jar | wc -l) jars ($(du -sh "$LIB" | cut -f1)) in $((SECONDS - t0)) s"
}

# The readiness probe needs the npm package cassandra-driver. Another process may still be running
# `npm install`, so wait for it instead of installing anything here.
wait_for_driver() {
  command -v node >/dev/null || die "node not found"
  local waited=0
  until [[ -f "$ROOT/node_modules/cassandra-driver/package.json" ]]; do
    ((waited == 0)) && log "waiting for node_modules/cassandra-driver (npm install) ..."
    ((waited >= 600)) && die "node_modules/cassandra-driver still missing after 600 s (run npm install)"
    sleep 5; waited=$((waited + 5))
  done
}

# Write .cassandra/nodeK/cassandra.yaml from the template.
render_yaml() {
  local k=$1
  sed -e "s/@@ADDRESS@@/$(node_addr "$k")/g" \
      -e "s/@@INITIAL_TOKEN@@/${TOKENS[$k]}/g" \
      "$CONF_DIR/cassandra.yaml.template" >"$(node_dir "$k")/cassandra.yaml"
}

launch_node() {
  local k=$1 dir addr jamm
  dir="$(node_dir "$k")"; addr="$(node_addr "$k")"
  mkdir -p "$dir/tmp" "$dir/triggers"
  render_yaml "$k"
  # jamm measures object sizes for memtable accounting; without the agent the JVM dies at start.
  jamm="$(ls "$LIB"/jamm-*.jar 2>/dev/null | head -n 1)"
  [[ -n "$jamm" ]] || die "no jamm jar in $LIB (run: scripts/cassandra.sh fetch)"

  local -a jvm=(
    -Xms"$HEAP_MIN" -Xmx"$HEAP_MAX" -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError
    -XX:ErrorFile="$dir/hs_err_pid%p.log"
    -javaagent:"$jamm"
    # Module access Cassandra 5.0 needs on Java 17 (from its conf/jvm17-server.options).
    -Djdk.attach.allowAttachSelf=true
    --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
    --add-exports java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED
    --add-exports java.rmi/sun.rmi.registry=ALL-UNNAMED
    --add-exports java.rmi/sun.rmi.server=ALL-UNNAMED
    --add-exports java.sql/java.sql=ALL-UNNAMED
    --add-exports java.base/java.lang.ref=ALL-UNNAMED
    --add-exports jdk.unsupported/sun.misc=ALL-UNNAMED
    --add-exports jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED
    --add-exports jdk.attach/sun.tools.attach=ALL-UNNAMED
    --add-exports java.management/com.sun.jmx.remote.security=ALL-UNNAMED
    --add-opens java.base/java.lang.module=ALL-UNNAMED
    --add-opens java.base/jdk.internal.loader=ALL-UNNAMED
    --add-opens java.base/jdk.internal.ref=ALL-UNNAMED
    --add-opens java.base/jdk.internal.reflect=ALL-UNNAMED
    --add-opens java.base/jdk.internal.math=ALL-UNNAMED
    --add-opens java.base/jdk.internal.module=ALL-UNNAMED
    --add-opens java.base/jdk.internal.util.jar=ALL-UNNAMED
    --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED
    --add-opens java.base/sun.nio.ch=ALL-UNNAMED
    --add-opens java.base/java.io=ALL-UNNAMED
    --add-opens java.base/java.lang.reflect=ALL-UNNAMED
    --add-opens jdk.compiler/com.sun.tools.javac=ALL-UNNAMED
    --add-opens java.base/java.lang=ALL-UNNAMED
    --add-opens java.base/java.util=ALL-UNNAMED
    --add-opens java.base/java.nio=ALL-UNNAMED
    --add-opens java.base/java.util.concurrent=ALL-UNNAMED
    --add-opens java.base/java.util.concurrent.atomic=ALL-UNNAMED
    -Dio.netty.tryReflectionSetAccessible=true -Dio.netty.allocator.maxOrder=11
    # Wiring: config, data dir (data/commitlog/hints/saved_caches/cdc_raw go under it), logging.
    -Dcassandra.config="file://$dir/cassandra.yaml"
    -Dcassandra.storagedir="$dir"
    -Dcassandra.logdir="$dir"
    -Dlogback.configurationFile="$CONF_DIR/logback.xml"
    -Dcassandra-foreground=yes
    -Djava.net.preferIPv4Stack=true
    -Dcassandra.jmx.local.port="${JMX_PORTS[$k]}"
    # An existing (empty) triggers dir, else a WARN every minute.
    -Dcassandra.triggers_dir="$dir/triggers"
    # JNA unpacks its native lib into java.io.tmpdir; keep it in the node dir (known exec, no clutter).
    -Djava.io.tmpdir="$dir/tmp"
    # Faster start for a test cluster: no gossip settle wait, no fsync of system tables / data.
    -Dcassandra.skip_wait_for_gossip_to_settle=0
    # RING_DELAY (default 30 s) is how long a restarted seed waits in the gossip shadow round for
    # peers it remembers; node 1 of a stopped 3-node cluster always waits it out, because nodes 2
    # and 3 start after it. Nothing here bootstraps or decommissions, where the long delay matters.
    -Dcassandra.ring_delay_ms=5000
    -Dcassandra.unsafesystem=true
    -Dcassandra.skip_sync=true
    -Djava.security.egd=file:/dev/urandom
  )

  # Cassandra calls mlockall() unconditionally at start. As root (CAP_IPC_LOCK) that succeeds and
  # pins all committed JVM memory: ~950 MB RSS per node instead of ~500 MB. Drop the capability so
  # the call fails with a harmless WARN ("Unable to lock JVM memory"), and pages stay lazily touched.
  # Needs CAP_SETPCAP; where setpriv cannot do it, run as is.
  local -a nolock=()
  if ((EUID == 0)) && setpriv --bounding-set=-ipc_lock true 2>/dev/null; then
    nolock=(setpriv --bounding-set=-ipc_lock)
  fi

  rm -f "$dir/cassandra.pid"
  echo "==== $(date -Is) starting node $k on $addr (Cassandra $VERSION) ====" >>"$dir/cassandra.log"
  # setsid -f: own session, so Ctrl-C or a process-group kill aimed at whoever called this script
  # does not take the database down with it. The inner bash writes its own PID and then execs java,
  # so the pid file holds the JVM's PID (setsid may fork, which makes $! useless).
  setsid -f bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$dir/cassandra.pid" \
    "${nolock[@]}" java -cp "$LIB/*" "${jvm[@]}" org.apache.cassandra.service.CassandraDaemon \
    </dev/null >>"$dir/cassandra.log" 2>&1 9>&-   # 9>&-: the JVM must not inherit the script lock
  local i
  for i in $(seq 50); do [[ -s "$dir/cassandra.pid" ]] && break; sleep 0.1; done
  [[ -s "$dir/cassandra.pid" ]] || die "node $k: no pid file after launch"
  log "node $k: launched pid $(node_pid "$k") (log: $dir/cassandra.log)"
}

# Wait until node k is alive, accepts TCP on 9042 and answers CQL. Extra args go to the probe.
# On death or timeout: print the log tail, stop what is left of the node, exit 1.
wait_ready() {
  local k=$1; shift
  local addr t0=$SECONDS out
  addr="$(node_addr "$k")"
  while true; do
    if ! node_alive "$k"; then
      print_failure_logs "$k"
      die "node $k ($addr) died during start-up"
    fi
    if port_open "$addr" && out="$(cql_ready "$addr" "$@" 2>&1)"; then
      log "node $k ready after $((SECONDS - t0)) s: $out"
      return 0
    fi
    if ((SECONDS - t0 >= READY_TIMEOUT)); then
      print_failure_logs "$k"
      log "last probe: ${out:-port 9042 not open}"
      stop_nodes "$k"
      die "node $k ($addr) not ready within $READY_TIMEOUT s"
    fi
    sleep 1
  done
}

start_node() {
  local k=$1
  if node_alive "$k"; then
    # Already running: a no-op if it answers; if it is still starting, wait for it like a fresh start.
    if port_open "$(node_addr "$k")" && cql_ready "$(node_addr "$k")" >/dev/null 2>&1; then
      log "node $k already running and ready (pid $(node_pid "$k"))"
      return 0
    fi
    log "node $k already running (pid $(node_pid "$k")), waiting for it to answer CQL"
  else
    launch_node "$k"
  fi
  wait_ready "$k"
}

cmd_start() {
  local n="${1:-1}" k
  [[ "$n" == 1 || "$n" == 3 ]] || die "start takes 1 or 3 nodes, not '$n'"
  [[ -f "$FETCH_MARKER" ]] || cmd_fetch
  wait_for_driver

  # Topology guards. A lone node whose data still lists two dead peers would own only a third of the
  # ring, so RF 1 writes to the other ranges fail: refuse to mix, and wipe 3-node data for `start 1`.
  if [[ "$n" == 1 ]]; then
    if node_alive 2 || node_alive 3; then
      die "a three-node cluster is running; run 'scripts/cassandra.sh stop' before 'start 1'"
    fi
    if [[ "$(cat "$BASE/cluster-size" 2>/dev/null || echo 1)" == 3 ]]; then
      node_alive 1 && die "node 1 runs as part of a three-node cluster whose other nodes are down;" \
        "run 'scripts/cassandra.sh reset' before 'start 1'"
      log "data belongs to a three-node cluster; deleting it for a clean single node"
      rm -rf "$BASE"/node[123] "$BASE/cluster-size"
    fi
  fi
  mkdir -p "$BASE"
  # Record the topology before starting, so a failed start still gets cleaned up next time.
  if [[ "$n" == 3 || ! -f "$BASE/cluster-size" ]]; then echo "$n" >"$BASE/cluster-size"; fi

  local t0=$SECONDS
  # Strictly one after another: a node joining while another is still starting can race on gossip
  # and schema agreement, and two JVMs warming up at once on 2 cores are not faster anyway.
  for k in $(seq 1 "$n"); do start_node "$k"; done
  if [[ "$n" == 3 ]]; then
    # Cluster ready = node 1 (the seed, and the driver's usual contact point) sees both peers.
    local deadline=$((SECONDS + 60)) out
    until out="$(cql_ready 127.0.0.1 --peers 2 2>&1)"; do
      ((SECONDS < deadline)) || die "node 1 does not list both peers in system.peers: $out"
      sleep 1
    done
    log "cluster: $out"
  fi
  log "$n node(s) ready in $((SECONDS - t0)) s"
}

# Stop the given nodes (default all): SIGTERM to all at once, then SIGKILL whatever is left after
# STOP_TIMEOUT seconds. Cassandra drains and flushes on SIGTERM, which takes a few seconds.
stop_nodes() {
  local -a nodes=("$@") live=()
  ((${#nodes[@]})) || nodes=(1 2 3)
  local k
  for k in "${nodes[@]}"; do
    if node_alive "$k"; then
      kill -TERM "$(node_pid "$k")" 2>/dev/null || true
      live+=("$k")
    fi
  done
  if ((${#live[@]} == 0)); then
    log "node(s) ${nodes[*]}: not running"
  else
    log "stopping node(s) ${live[*]}"
    local deadline=$((SECONDS + STOP_TIMEOUT)) any
    while true; do
      any=0
      for k in "${live[@]}"; do node_alive "$k" && any=1; done
      ((any)) || break
      if ((SECONDS >= deadline)); then
        for k in "${live[@]}"; do
          if node_alive "$k"; then
            log "node $k ignored SIGTERM for $STOP_TIMEOUT s; sending SIGKILL"
            kill -KILL "$(node_pid "$k")" 2>/dev/null || true
          fi
        done
        sleep 1
        break
      fi
      sleep 0.5
    done
  fi
  for k in "${nodes[@]}"; do
    node_alive "$k" || rm -f "$(node_dir "$k")/cassandra.pid"
  done
}

# `stop` alone stops every node; `stop K` only node K (the others keep serving, e.g. a replica loss).
cmd_stop() {
  local k="${1:-}"
  if [[ -z "$k" ]]; then stop_nodes; return; fi
  [[ "$k" == 1 || "$k" == 2 || "$k" == 3 ]] || die "stop takes a node number 1, 2 or 3, not '$k'"
  stop_nodes "$k"
}

cmd_status() {
  local k running=0 bad=0 addr
  for k in 1 2 3; do
    [[ -d "$(node_dir "$k")" ]] || continue
    addr="$(node_addr "$k")"
    if node_alive "$k"; then
      running=$((running + 1))
      if port_open "$addr" && out="$(cql_ready "$addr" 2>&1)"; then
        echo "node $k ($addr): running pid $(node_pid "$k"), ready ($out)"
      else
        echo "node $k ($addr): running pid $(node_pid "$k"), NOT answering CQL"
        bad=1
      fi
    else
      echo "node $k ($addr): stopped"
    fi
  done
  ((running > 0)) || { echo "no Cassandra node running"; return 3; }
  return "$bad"
}

cmd_reset() {
  stop_nodes
  rm -rf "$BASE"/node[123] "$BASE/cluster-size"
  log "node data deleted (jars kept in $LIB)"
}

# One mutating command at a time (e.g. services-up.sh and a test's global setup racing to start
# node 1). status only reads, so it does not wait for the lock.
with_lock() {
  mkdir -p "$BASE"
  exec 9>"$BASE/.lock"
  flock -w 900 9 || die "another cassandra.sh command holds $BASE/.lock"
  "$@"
}

case "${1:-}" in
  fetch)  with_lock cmd_fetch ;;
  start)  with_lock cmd_start "${2:-1}" ;;
  stop)   with_lock cmd_stop "${2:-}" ;;
  status) cmd_status ;;
  reset)  with_lock cmd_reset ;;
  *) echo "usage: $0 {fetch|start [1|3]|stop [1|2|3]|status|reset}" >&2; exit 2 ;;
esac
