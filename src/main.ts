import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ChannelActor } from '../actors/channel/ChannelActor.js';
import { GuildActor } from '../actors/guild/GuildActor.js';
import type { Actor } from '../actors/runtime/Actor.js';
import { ActorHost, type ActorFactory } from '../actors/runtime/ActorHost.js';
import type { ActorKind } from '../actors/runtime/ActorKind.js';
import type { Stores } from '../actors/runtime/ports/stores.js';
import { SessionActor } from '../actors/session/SessionActor.js';
import { AccountService } from '../actors/user/AccountService.js';
import { UserActor } from '../actors/user/UserActor.js';
import { InviteLookup } from '../actors/guild/InviteLookup.js';
import { ActorSystem } from '../cluster/ActorSystem.js';
import { HashRing } from '../cluster/ring/HashRing.js';
import type { Config } from './config/Config.js';
import { loadConfig, redactConfig } from './config/loadConfig.js';
import { systemClock } from './domain/Clock.js';
import { createLogger, type Logger } from './domain/Logger.js';
import { SnowflakeGenerator } from './domain/snowflake.js';
import { GatewayServer } from './gateway/GatewayServer.js';
import { createHttpApp } from './http/createHttpApp.js';
import { InMemoryRateLimiter } from './http/RateLimiter.js';
import { createSqliteStores } from './store/sqlite/createSqliteStores.js';

/** A running Chorus node. */
export interface RunningNode {
  readonly url: string;
  readonly gatewayUrl: string;
  readonly system: ActorSystem;
  readonly host: ActorHost;
  readonly server: Server;
  close(): Promise<void>;
}

/** The token secret: configured, or generated once and kept beside the data so tokens survive restarts. */
function tokenSecret(config: Config): string {
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

function actorFactory(config: Config, stores: Stores, secret: string, gatewayUrl: string): ActorFactory {
  const build = (kind: ActorKind, _key: string, ctx: Parameters<ActorFactory>[2]): Actor<unknown, unknown> => {
    switch (kind) {
      case 'guild':
        return new GuildActor(ctx, stores);
      case 'channel':
        return new ChannelActor(ctx, stores);
      case 'user':
        return new UserActor(ctx, stores, { tokenSecret: secret, passwordCost: config.passwordCost });
      case 'session':
        return new SessionActor(ctx, { ...config.gateway, tokenSecret: secret, gatewayUrl });
    }
  };
  return build as unknown as ActorFactory;
}

/** Starts one embedded node: SQLite under dataDir, a one-member ring, HTTP and the gateway on one port. */
export async function startNode(config: Config, log: Logger = createLogger(config.logLevel)): Promise<RunningNode> {
  const secret = tokenSecret(config);
  const stores = createSqliteStores(join(config.backend.dataDir, 'chorus.db'));
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(config.http.port, config.http.host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.http.port;
  const hostForUrl = config.http.host === '0.0.0.0' ? 'localhost' : config.http.host;
  const url = config.http.publicUrl || `http://${hostForUrl}:${port}`;
  const gatewayUrl = url.replace(/^http/, 'ws');
  const nodeId = `${hostForUrl}:${port}@${Date.now()}`;
  const ring = new HashRing({ version: 1, members: [nodeId] }, config.cluster.vnodesPerNode);
  const system = new ActorSystem(nodeId, ring, config.cluster, log);
  const ids = new SnowflakeGenerator(0);
  const host = new ActorHost({
    nodeId,
    factory: actorFactory(config, stores, secret, gatewayUrl),
    messenger: system,
    clock: systemClock,
    log,
    ids,
    options: config.actors,
  });
  system.bindHost(host);
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      gateway.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await host.shutdown();
      await stores.close();
    })());
  const app = createHttpApp({
    system,
    http: config.http,
    gateway: config.gateway,
    gatewayUrl,
    limiter: new InMemoryRateLimiter(),
    ids,
    accounts: new AccountService(stores, { tokenSecret: secret, passwordCost: config.passwordCost }, systemClock),
    invites: new InviteLookup(stores.guilds),
    log,
    requestStop: () => void close().then(() => process.exit(0)),
  });
  server.on('request', app.callback());
  const gateway = new GatewayServer(server, system, config.gateway, log);
  log.info('node_started', { url, gatewayUrl, nodeId, config: redactConfig(config) });
  return { url, gatewayUrl, system, host, server, close };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const config = loadConfig();
  const node = await startNode(config);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void node.close().then(() => process.exit(0)));
}
