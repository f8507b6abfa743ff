#!/usr/bin/env node
// One readiness probe for a test Cassandra node, used by scripts/cassandra.sh while it waits.
//
//   node scripts/cassandra-ready.mjs <host> [--peers N]
//
// Exit 0 and print the release version when `SELECT release_version FROM system.local` succeeds on
// <host> (port 9042). With --peers N, also require that the node's system.peers lists at least N
// other nodes (used on node 1 of the three-node cluster). Any failure: message on stderr, exit 1.
// A single attempt with short timeouts; the caller loops and owns the overall time budget.
import cassandra from 'cassandra-driver';

// process.stdout/stderr rather than console: the house eslint config bans console (no-console).
const out = (line) => process.stdout.write(`${line}\n`);
const fail = (line) => process.stderr.write(`cassandra-ready: ${line}\n`);

const args = process.argv.slice(2);
const host = args[0];
const peersIdx = args.indexOf('--peers');
const wantPeers = peersIdx >= 0 ? Number(args[peersIdx + 1]) : 0;
if (!host || host.startsWith('-') || Number.isNaN(wantPeers)) {
  process.stderr.write('usage: node scripts/cassandra-ready.mjs <host> [--peers N]\n');
  process.exit(2);
}

const { Client, policies } = cassandra;
const client = new Client({
  contactPoints: [`${host}:9042`],
  // SimpleSnitch names the only data centre "datacenter1".
  localDataCenter: 'datacenter1',
  // Talk to <host> only: the driver would otherwise also open pools to the peers it discovers,
  // so the probe for node 2 could pass or fail because of node 1 or 3.
  policies: {
    loadBalancing: new policies.loadBalancing.AllowListPolicy(new policies.loadBalancing.RoundRobinPolicy(), [
      `${host}:9042`,
    ]),
    reconnection: new policies.reconnection.ConstantReconnectionPolicy(1000),
  },
  socketOptions: { connectTimeout: 3000, readTimeout: 5000 },
  // Not interested in topology/schema events for a one-shot probe.
  isMetadataSyncEnabled: false,
});

// Hard stop: a probe must never hang the caller's wait loop.
const guard = setTimeout(() => {
  fail(`${host}: timed out`);
  process.exit(1);
}, 15000);

try {
  await client.connect();
  const local = await client.execute('SELECT release_version FROM system.local');
  const version = local.first()?.release_version;
  if (!version) throw new Error('system.local returned no release_version');
  let line = `${host} release_version=${version}`;
  if (wantPeers > 0) {
    const peers = await client.execute('SELECT peer FROM system.peers');
    const list = peers.rows.map((r) => r.peer.toString()).sort();
    if (list.length < wantPeers) {
      throw new Error(`system.peers lists ${list.length} peer(s) [${list.join(', ')}], want ${wantPeers}`);
    }
    line += ` peers=${list.join(',')}`;
  }
  out(line);
  await client.shutdown();
  clearTimeout(guard);
  process.exit(0);
} catch (err) {
  fail(`${host}: ${err?.message ?? err}`);
  await client.shutdown().catch(() => {});
  clearTimeout(guard);
  process.exit(1);
}
