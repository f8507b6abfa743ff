import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/Config.js';
import type { Logger } from '../domain/Logger.js';
import { InMemoryRateLimiter } from '../http/RateLimiter.js';
import type { StoredVoiceState } from '../../actors/runtime/ports/voiceStateStore.js';
import { InMemorySessionIndex } from '../store/memory/InMemorySessionIndex.js';
import { InMemorySessionStore } from '../store/memory/InMemorySessionStore.js';
import { InMemorySubscriptionStore } from '../store/memory/InMemorySubscriptionStore.js';
import { InMemoryUserSessionStore } from '../store/memory/InMemoryUserSessionStore.js';
import { applyBlobRenames } from '../domain/blobRenames.js';
import { FileBlobStore } from '../store/file/FileBlobStore.js';
import { createSqliteStores } from '../store/sqlite/createSqliteStores.js';
import { assembleNode } from './assembleNode.js';
import { createNodeMetrics, meterStores } from './nodeMetrics.js';
import { closeHttp, listenHttp } from './listenHttp.js';
import type { RunningNode } from './RunningNode.js';
import { startNodeVoice } from './startNodeVoice.js';
import { startTracing } from '../tracing/startTracing.js';

/** The token secret: configured, or generated once and kept beside the data so tokens survive restarts. */
function localTokenSecret(config: Config): string {
  if (config.tokenSecret) return config.tokenSecret;
  mkdirSync(config.backend.dataDir, { recursive: true });
  const file = join(config.backend.dataDir, 'token-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    const secret = randomBytes(32).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

/** One process: SQLite under dataDir, a one-member ring, in-process rate limits, HTTP and gateway on one port. */
export async function startEmbeddedNode(config: Config, log: Logger, requestStop: () => void): Promise<RunningNode> {
  const tokenSecret = localTokenSecret(config);
  const metrics = createNodeMetrics(config);
  const stores = meterStores(createSqliteStores(join(config.backend.dataDir, 'chorus.db')), metrics, 'sqlite');
  const blobs = new FileBlobStore(join(config.backend.dataDir, 'blobs'));
  await applyBlobRenames(stores.blobRenames, blobs, log);
  const listener = await listenHttp(config.http);
  const nodeId = `${listener.host}:${listener.port}@${Date.now()}`;
  const tracing = await startTracing(config.tracing, nodeId); // before the edge: it installs the span middleware
  const { system, host, gateway, voiceRooms, voiceEndpoint } = assembleNode(
    config,
    log,
    listener,
    {
      nodeId,
      stores,
      blobs,
      // One process: sessions and subscriptions live as long as it does, across passivation.
      sessionPorts: {
        sessions: new InMemorySessionStore(),
        subscriptions: new InMemorySubscriptionStore(),
        userSessions: new InMemoryUserSessionStore(),
        voiceStates: new InMemorySessionIndex<StoredVoiceState>(),
      },
      tokenSecret,
      generatorId: 0,
      limiter: new InMemoryRateLimiter(),
      health: () => Promise.resolve({ status: 'ok', mode: 'embedded', nodeId, checks: { storage: 'ok' } }),
      ...(metrics ? { metrics } : {}),
    },
    requestStop,
  );
  const voice = await startNodeVoice(config, voiceEndpoint, tokenSecret, log, system);
  voiceRooms.attach(voice);
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      gateway.close();
      await voice?.close();
      await closeHttp(listener);
      await host.shutdown();
      await stores.close();
      await tracing?.stop();
    })());
  log.info('node_started', { mode: 'embedded', url: listener.url, gatewayUrl: listener.gatewayUrl, nodeId });
  const { url, gatewayUrl, server } = listener;
  return { nodeId, url, gatewayUrl, system, host, server, voice, close };
}
