import { startCluster } from '../test/support/clusterHarness.js';
import { measureActorCalls } from './actorCalls.js';
import { addMembers, createWorld } from './chorusSetup.js';
import { measureFanout, openSocket, type BenchSocket } from './fanout.js';
import { closedLoopPosts } from './httpLoad.js';
import { ensureBuilt } from './processes.js';

/** What the cluster section measures (each beside the embedded figure of the same run). */
export interface ClusterFigures {
  readonly actorCalls: Awaited<ReturnType<typeof measureActorCalls>>;
  readonly messagesPerSecond: number;
  readonly p99: number;
  readonly fanout: Awaited<ReturnType<typeof measureFanout>>;
}

/**
 * Three local node processes (Cassandra + Redis + gRPC): actor-call latency local vs remote, message
 * throughput with 10 clients spread over the nodes, and fan-out to `sessions` spread over the nodes.
 */
export async function clusterBench(durationMs: number, sessions: number): Promise<ClusterFigures> {
  const actorCalls = await measureActorCalls();
  await ensureBuilt();
  const cluster = await startCluster({
    nodes: 3,
    env: {
      CHORUS_LOG_LEVEL: 'info',
      CHORUS_MEMBER_HEARTBEAT_MS: '1000',
      CHORUS_MEMBER_TTL_MS: '3000',
      CHORUS_LEASE_TTL_MS: '3000',
      CHORUS_SESSION_START_LIMIT: '1000000', // the fan-out opens its sessions in a burst, many per user
      BENCH_NODE_ENTRY: 'compiled', // as users run it (test/support/clusterNode.ts)
    },
  });
  try {
    const nodes = cluster.nodes;
    const first = nodes[0];
    if (!first) throw new Error('no node');
    const world = await createWorld(first.url, 10);
    const targets = world.channelIds.map((id, index) => ({
      token: world.owner.token,
      base: nodes[index % nodes.length]?.url ?? first.url,
      path: `/api/v10/channels/${id}/messages`,
    }));
    // Warm every actor, connection and the JIT of three processes (1 s left the first runs 20-30 % slower).
    await closedLoopPosts(first.url, targets, 10, 5_000);
    const load = await closedLoopPosts(first.url, targets, 10, durationMs);
    const members = await addMembers(first.url, world, sessions);
    let next = 0;
    const fanout = await measureFanout(
      sessions,
      async (onMessage) => {
        const sockets: BenchSocket[] = [];
        await Promise.all(
          Array.from({ length: 50 }, async () => {
            while (next < sessions) {
              const index = next++;
              const node = nodes[index % nodes.length] ?? first;
              sockets.push(
                await openSocket(`${node.gatewayUrl}/?v=10&encoding=json`, members[index]?.token, onMessage),
              );
            }
          }),
        );
        return sockets;
      },
      async (content) => {
        const response = await fetch(`${first.url}/api/v10/channels/${world.channelIds[0] ?? ''}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: world.owner.token },
          body: JSON.stringify({ content }),
        });
        if (!response.ok) throw new Error(`POST → ${response.status}`);
      },
      20,
    );
    return { actorCalls, messagesPerSecond: load.perSecond, p99: load.p99, fanout };
  } finally {
    await cluster.after();
  }
}
