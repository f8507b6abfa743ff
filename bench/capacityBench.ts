// `npx tsx bench/capacityBench.ts`: the per-node figures docs/scaling.md builds its capacity model on,
// measured on one embedded node (one process, one event loop: what one cluster node runs on): POSTs a
// second with the server's CPU per message, fan-out to SESSIONS sessions with the server's CPU per
// delivered frame, and RSS per idle session. Rate limits are lifted (processes.ts). Prints one JSON line.
// With --cluster it measures the same on two cluster-mode nodes in one process (clusterNodesProcess.ts:
// Redis, gRPC, SQLite in place of Cassandra; POSTs through the first, sessions on both), whose CPU per
// message and per frame over the embedded node's is the cluster factor of the model.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { addMembers, createWorld } from './chorusSetup.js';
import { measureFanout, openMany, openSocket, postMessage } from './fanout.js';
import { closedLoopPosts } from './httpLoad.js';
import { startChorus, type ServerProcess } from './processes.js';
import { cpuMs, rssBytes } from './stats.js';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 1_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20);

/** The two-node cluster process; `baseUrl` is the first node's, `urls` both. */
async function startCluster(): Promise<ServerProcess & { readonly urls: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/clusterNodesProcess.ts'], {
    cwd: new URL('..', import.meta.url).pathname,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => {
      reject(new Error(`cluster process exited with ${code ?? 'a signal'}`));
    });
  });
  const { urls } = JSON.parse(line) as { urls: string[] };
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      child.once('exit', () => {
        resolve();
      });
      child.kill('SIGTERM');
    });
  return { pid: child.pid ?? 0, baseUrl: urls[0] ?? '', urls, stop };
}

async function measure(chorus: ServerProcess, gatewayBases: readonly string[]): Promise<Record<string, unknown>> {
  const world = await createWorld(chorus.baseUrl, 10);
  const targets = world.channelIds.map((id) => ({
    token: world.owner.token,
    path: `/api/v10/channels/${id}/messages`,
  }));
  // Writes alone: no session listens, so this is the edge + Channel actor + storage path.
  const cpuBefore = await cpuMs(chorus.pid);
  const load = await closedLoopPosts(chorus.baseUrl, targets, CLIENTS, DURATION_MS);
  const cpuPerMessageMs = ((await cpuMs(chorus.pid)) - cpuBefore) / (load.perSecond * (DURATION_MS / 1000));

  const members = await addMembers(chorus.baseUrl, world, SESSIONS);
  const rssBefore = await rssBytes(chorus.pid);
  let rssAfter = 0;
  let fanoutCpuBefore = 0;
  const channelPath = `/api/v10/channels/${world.channelIds[0] ?? ''}/messages`;
  const fanout = await measureFanout(
    SESSIONS,
    async (onMessage) => {
      const sockets = await openMany(SESSIONS, (index) =>
        openSocket(
          `${(gatewayBases[index % gatewayBases.length] ?? chorus.baseUrl).replace(/^http/, 'ws')}/?v=10&encoding=json`,
          (members[index] ?? world.owner).token,
          onMessage,
          world.guildId,
        ),
      );
      rssAfter = await rssBytes(chorus.pid);
      fanoutCpuBefore = await cpuMs(chorus.pid);
      return sockets;
    },
    (content) => postMessage(`${chorus.baseUrl}${channelPath}`, world.owner.token, content),
    MESSAGES,
  );
  const fanoutCpuMs = (await cpuMs(chorus.pid)) - fanoutCpuBefore;
  return {
    clients: CLIENTS,
    messagesPerSecond: Math.round(load.perSecond),
    postP50Ms: load.p50,
    postP99Ms: load.p99,
    errors: load.errors,
    cpuPerMessageMs,
    sessions: SESSIONS,
    fanoutP50Ms: fanout.p50,
    fanoutP99Ms: fanout.p99,
    missing: fanout.missing,
    cpuPerFrameUs: (fanoutCpuMs * 1000) / Math.max(1, fanout.deliveries),
    rssPerSessionKB: (rssAfter - rssBefore) / SESSIONS / 1024,
  };
}

const server = process.argv.includes('--cluster')
  ? await startCluster()
  : await startChorus(Number(process.env.BENCH_PORT ?? 3931)).then((one) => ({ ...one, urls: [one.baseUrl] }));
try {
  const bases = server.urls;
  console.log(
    JSON.stringify({
      mode: bases.length > 1 ? 'cluster, 2 nodes in one process' : 'embedded',
      ...(await measure(server, bases)),
    }),
  );
} finally {
  await server.stop();
}
