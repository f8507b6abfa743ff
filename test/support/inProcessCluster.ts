import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/loadConfig.js';
import { createLogger } from '../../src/domain/Logger.js';
import type { RunningNode } from '../../src/node/RunningNode.js';
import { startClusterNode, type ClusterRecords } from '../../src/node/startClusterNode.js';
import { FileBlobStore } from '../../src/store/file/FileBlobStore.js';
import { createSqliteStores } from '../../src/store/sqlite/createSqliteStores.js';
import { CLUSTER_TIMING, deleteRedisKeys } from './clusterHarness.js';
import { startWithVoice } from './startWithVoice.js';
import { until } from './clusterNode.js';

const REDIS_URL = process.env.CHORUS_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Cluster-mode nodes in this process, for what needs several nodes but not Cassandra: each is the real
 * startClusterNode (Redis membership, leases, sessions and subscriptions; gRPC between the nodes; its own
 * HTTP, gateway and voice ports), with the records in one SQLite file they all open instead of Cassandra.
 * Its keys live under a Redis prefix of its own, deleted by `stop`.
 */
export class InProcessCluster {
  private constructor(
    readonly nodes: readonly RunningNode[],
    private readonly prefix: string,
    private readonly dataDir: string,
  ) {}

  /** Starts `count` nodes and waits until each lists all of them as members. */
  static async start(count: number, env: Record<string, string> = {}): Promise<InProcessCluster> {
    const dataDir = mkdtempSync(join(tmpdir(), 'chorus-cluster-'));
    const prefix = `chorus_test_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}:`;
    let generatorId = 0;
    const openRecords = (): Promise<ClusterRecords> => {
      const sqlite = createSqliteStores(join(dataDir, 'chorus.db'));
      generatorId += 1;
      const id = generatorId;
      return Promise.resolve({
        ...sqlite,
        blobs: new FileBlobStore(join(dataDir, 'blobs')),
        clusterSettings: {
          tokenSecret: (configured: string) => Promise.resolve(configured),
          allocateGeneratorId: () => Promise.resolve(id),
        },
      });
    };
    const nodes: RunningNode[] = [];
    const cluster = new InProcessCluster(nodes, prefix, dataDir);
    try {
      for (let index = 0; index < count; index += 1) {
        const config = loadConfig(
          {},
          {
            CHORUS_MODE: 'cluster',
            PORT: '0',
            CHORUS_HOST: '127.0.0.1',
            CHORUS_NODE_HOST: '127.0.0.1',
            CHORUS_GRPC_PORT: '0',
            CHORUS_REDIS_URL: REDIS_URL,
            CHORUS_REDIS_PREFIX: prefix,
            CHORUS_TOKEN_SECRET: 'in-process-cluster-test-secret',
            CHORUS_PASSWORD_COST: '1024',
            CHORUS_LOG_LEVEL: 'silent',
            CHORUS_GLOBAL_RATE_LIMIT: '100000',
            CHORUS_MESSAGE_RATE_LIMIT: '100000',
            CHORUS_IDENTIFY_WINDOW_MS: '0',
            CHORUS_METRICS: 'off', // nothing here reads them
            ...CLUSTER_TIMING,
            ...env,
          },
        );
        nodes.push(
          await startWithVoice(env, () =>
            startClusterNode(config, createLogger('silent'), () => undefined, openRecords),
          ),
        );
      }
      await until('every node to list every node', () => cluster.#agreed(), { timeoutMs: 15_000 });
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  async #agreed(): Promise<true | undefined> {
    const expected = this.nodes.map((node) => node.nodeId).sort();
    const views = await Promise.all(
      this.nodes.map(async (node) => {
        const health = (await (await fetch(`${node.url}/health`)).json()) as { members: string[]; ringVersion: number };
        return `${health.ringVersion} ${[...health.members].sort().join()}`;
      }),
    );
    return views.every((view) => view === views[0] && view.endsWith(` ${expected.join()}`)) ? true : undefined;
  }

  /** Stops every node, then deletes the run's Redis keys and files. */
  async stop(): Promise<void> {
    await Promise.allSettled(this.nodes.map((node) => node.close()));
    try {
      await deleteRedisKeys(this.prefix);
    } finally {
      rmSync(this.dataDir, { recursive: true, force: true });
    }
  }
}
