// A two-node cluster in one process for bench/capacityBench.ts --cluster (the real startClusterNode: Redis
// membership, leases and sessions, gRPC between the nodes; SQLite records in place of Cassandra), with rate
// limits lifted. Prints {"urls": [...]} once both nodes agree, stops on SIGTERM.
import { InProcessCluster } from '../test/support/inProcessCluster.js';

const cluster = await InProcessCluster.start(2, {
  CHORUS_GLOBAL_RATE_LIMIT: '1000000',
  CHORUS_MESSAGE_RATE_LIMIT: '1000000',
  CHORUS_SESSION_START_LIMIT: '1000000',
});
console.log(JSON.stringify({ urls: cluster.nodes.map((node) => node.url) }));
process.once('SIGTERM', () => {
  void cluster.stop().finally(() => process.exit(0));
});
