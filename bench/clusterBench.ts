import { startCluster } from '../test/support/clusterHarness.js';
import { measureActorCalls } from './actorCalls.js';
import { addMembers, createWorld, type BenchWorld } from './chorusSetup.js';
import { costLines, measureCost, type CostRows } from './clusterCost.js';
import { measureFanout, openSocket, type BenchSocket, type FanoutResult } from './fanout.js';
import { closedLoopPosts } from './httpLoad.js';
import { ensureBuilt, startChorus } from './processes.js';

/** What the cluster section measures (each beside the embedded figure of the same run). */
export interface ClusterFigures {
  readonly actorCalls: Awaited<ReturnType<typeof measureActorCalls>>;
  readonly messagesPerSecond: number;
  readonly p99: number;
  readonly fanout: FanoutResult;
  /** Cost per message (bench/clusterCost.ts): the same fixed-rate and closed-loop rows in both modes. */
  readonly cost: { readonly embedded: CostRows; readonly cluster: CostRows };
}

/** The embedded node of the cost comparison (port range of the cost bench: BENCH_COST_PORT). */
const EMBEDDED_PORT = Number(process.env.BENCH_COST_PORT ?? 4301);

/** Message targets over `world`'s channels, client `i` on node `i mod n`. */
function messageTargets(world: BenchWorld, bases: readonly string[]): { token: string; path: string; base: string }[] {
  return world.channelIds.map((id, index) => ({
    token: world.owner.token,
    base: bases[index % bases.length] ?? '',
    path: `/api/v10/channels/${id}/messages`,
  }));
}

/** The embedded side of the cost comparison: one SQLite node of its own, warmed as the cluster is. */
async function embeddedCost(): Promise<CostRows> {
  const node = await startChorus(EMBEDDED_PORT);
  try {
    const world = await createWorld(node.baseUrl, 10);
    const targets = messageTargets(world, [node.baseUrl]);
    await closedLoopPosts(node.baseUrl, targets, 10, 5_000);
    console.log(`cost: embedded node pid ${node.pid}`);
    return await measureCost({ nodes: [{ url: node.baseUrl, pid: node.pid }], usesServices: false, targets });
  } finally {
    await node.stop();
  }
}

/**
 * Three local node processes (Cassandra + Redis + gRPC): actor-call latency local vs remote, message
 * throughput with 10 clients spread over the nodes, the cost per message beside an embedded node's, and
 * fan-out to `sessions` spread over the nodes.
 */
export async function clusterBench(durationMs: number, sessions: number): Promise<ClusterFigures> {
  const actorCalls = await measureActorCalls();
  await ensureBuilt();
  const embedded = await embeddedCost();
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
    const targets = messageTargets(
      world,
      nodes.map((node) => node.url),
    );
    // Warm every actor, connection and the JIT of three processes (1 s left the first runs 20-30 % slower).
    await closedLoopPosts(first.url, targets, 10, 5_000);
    const load = await closedLoopPosts(first.url, targets, 10, durationMs);
    console.log(`cost: cluster node pids ${nodes.map((node) => node.pid).join(', ')}`);
    const cost = {
      embedded,
      cluster: await measureCost({
        nodes: nodes.map((node) => ({ url: node.url, pid: node.pid })),
        usesServices: true,
        targets,
      }),
    };
    console.log(costLines(cost.embedded, cost.cluster)); // before the fan-out, which may take long on a busy machine
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
    return { actorCalls, messagesPerSecond: load.perSecond, p99: load.p99, cost, fanout };
  } finally {
    await cluster.after();
  }
}
