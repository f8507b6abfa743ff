import { pathToFileURL } from 'node:url';
import type { Config } from './config/Config.js';
import { loadConfig } from './config/loadConfig.js';
import { createLogger, type Logger } from './domain/Logger.js';
import type { RunningNode } from './node/RunningNode.js';
import { startClusterNode } from './node/startClusterNode.js';
import { startEmbeddedNode } from './node/startEmbeddedNode.js';

export type { RunningNode } from './node/RunningNode.js';

/**
 * The composition root: starts one node in the configured mode. `POST /stop` (OPERATOR) and
 * SIGINT/SIGTERM close it gracefully.
 */
export async function startNode(
  config: Config,
  log: Logger = createLogger(config.logLevel),
  onStopRequested: (node: RunningNode) => void = (node) => {
    void node.close();
  },
): Promise<RunningNode> {
  const holder: { node?: RunningNode } = {};
  const requestStop = (): void => {
    if (holder.node) onStopRequested(holder.node);
  };
  const node =
    config.backend.mode === 'cluster'
      ? await startClusterNode(config, log, requestStop)
      : await startEmbeddedNode(config, log, requestStop);
  holder.node = node;
  return node;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const cluster = process.argv.includes('--cluster');
  const config = loadConfig(undefined, cluster ? { CHORUS_MODE: 'cluster' } : {});
  const exit = (node: RunningNode): void => {
    void node.close().then(() => process.exit(0));
  };
  const node = await startNode(config, createLogger(config.logLevel), exit);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      exit(node);
    });
  }
}
