import { ActorHost } from '../../actors/runtime/ActorHost.js';
import type { ActivationGuard } from '../../actors/runtime/ports/coordination.js';
import type { Stores } from '../../actors/runtime/ports/stores.js';
import { WebhookLookup } from '../../actors/channel/WebhookLookup.js';
import { DmCommandIndex } from '../../actors/user/DmCommandIndex.js';
import { InviteLookup } from '../../actors/guild/InviteLookup.js';
import { AccountService } from '../../actors/user/AccountService.js';
import { ActorSystem } from '../../cluster/ActorSystem.js';
import { HashRing } from '../../cluster/ring/HashRing.js';
import type { RemoteTransport } from '../../cluster/transport/RemoteTransport.js';
import type { Config } from '../config/Config.js';
import type { BlobStore } from '../domain/BlobStore.js';
import { systemClock } from '../domain/Clock.js';
import type { Logger } from '../domain/Logger.js';
import { SnowflakeGenerator } from '../domain/snowflake.js';
import { GatewayServer } from '../gateway/GatewayServer.js';
import { createHttpApp } from '../http/createHttpApp.js';
import type { HealthReport } from '../http/EdgeDeps.js';
import { CallerCache } from '../http/CallerCache.js';
import { publicGatewayUrl } from '../http/publicOrigin.js';
import type { RateLimiter } from '../http/RateLimiter.js';
import { actorFactory, type SessionPorts } from './actorFactory.js';
import type { HttpListener } from './listenHttp.js';
import { voiceEndpoint } from './voiceEndpoint.js';
import { metricsEndpoint, registerHealthGauge } from './nodeMetrics.js';
import type { PromMetrics } from '../metrics/PromMetrics.js';
import { voiceEndpointResolver } from './voicePlacement.js';
import { VoiceRoomRelay } from './VoiceRoomRelay.js';

/** What differs between embedded and cluster mode; everything else is assembled the same way. */
export interface NodeBackend {
  readonly nodeId: string;
  readonly stores: Stores;
  /** Attachment and image bytes: every node of a cluster must see the same blobs. */
  readonly blobs: BlobStore;
  /** Gateway sessions and guild subscriptions (they survive the loss of the node hosting them). */
  readonly sessionPorts: SessionPorts;
  readonly tokenSecret: string;
  /** Unique per live node (snowflake worker/process bits). */
  readonly generatorId: number;
  readonly limiter: RateLimiter;
  readonly transport?: RemoteTransport;
  readonly guard?: ActivationGuard;
  readonly health: () => Promise<HealthReport>;
  /** The node's registry (GET /metrics); undefined with CHORUS_METRICS=off. */
  readonly metrics?: PromMetrics;
  /** The voice endpoint another member published (cluster membership); none in embedded mode. */
  readonly voiceEndpointOfNode?: (nodeId: string) => string | undefined;
}

/** The assembled parts of a node. */
export interface AssembledNode {
  readonly system: ActorSystem;
  readonly host: ActorHost;
  readonly gateway: GatewayServer;
  /** Attach the node's voice service once it listens: voice room actors apply the Guild's decisions there. */
  readonly voiceRooms: VoiceRoomRelay;
  /** This node's VOICE_SERVER_UPDATE endpoint (`host:port`): where its voice service listens, as members see it. */
  readonly voiceEndpoint: string;
}

/**
 * Wires one node: the router (ActorSystem) over a ring that holds this node, the actor host, the
 * HTTP API and the gateway on the listener's server. Cluster mode installs newer rings later.
 */
export function assembleNode(
  config: Config,
  log: Logger,
  listener: HttpListener,
  backend: NodeBackend,
  requestStop: () => void,
): AssembledNode {
  const ring = new HashRing({ version: 0, members: [backend.nodeId] }, config.cluster.vnodesPerNode);
  const system = new ActorSystem(backend.nodeId, ring, config.cluster, log, backend.transport);
  // A guild channel runs beside its guild (cluster/placement/ChannelHomes): each node reads a channel's
  // guild from its record once. A ring of one member (the embedded mode) never needs it.
  system.bindChannelHomes(async (channelId) => (await backend.stores.channels.get(channelId))?.guild_id);
  const ids = new SnowflakeGenerator(backend.generatorId);
  const voiceRooms = new VoiceRoomRelay();
  const ownVoiceEndpoint = voiceEndpoint(config.voice, config.http.publicUrl, listener.port);
  const host = new ActorHost({
    nodeId: backend.nodeId,
    factory: actorFactory(
      config,
      backend.stores,
      backend.tokenSecret,
      listener.gatewayUrl,
      backend.sessionPorts,
      backend.blobs,
      voiceEndpointResolver(system, ownVoiceEndpoint, backend.voiceEndpointOfNode),
      voiceRooms,
    ),
    messenger: system,
    clock: systemClock,
    log,
    ids,
    options: config.actors,
    ...(backend.guard ? { guard: backend.guard } : {}),
    ...(backend.metrics ? { metrics: backend.metrics } : {}),
  });
  system.bindHost(host);
  const app = createHttpApp({
    system,
    http: config.http,
    adminToken: config.operator.adminToken,
    gateway: config.gateway,
    instance: config.instance,
    gatewayUrl: listener.gatewayUrl,
    publicUrl: listener.url,
    blobs: backend.blobs,
    limiter: backend.limiter,
    tokenSecret: backend.tokenSecret,
    callers: new CallerCache(config.http.authCacheMs),
    log,
    requestStop,
    ids,
    accounts: new AccountService(
      backend.stores,
      { tokenSecret: backend.tokenSecret, passwordCost: config.passwordCost, operatorEmails: config.operatorEmails },
      systemClock,
    ),
    invites: new InviteLookup(backend.stores.guilds),
    webhooks: new WebhookLookup(backend.stores.webhooks),
    dmCommands: new DmCommandIndex(backend.stores.applications, backend.stores.applicationCommands),
    health: backend.health,
    ...(backend.stores.counts ? { counts: backend.stores.counts } : {}),
    ...(backend.metrics ? { metrics: metricsEndpoint(backend.metrics, config.metrics.token) } : {}),
  });
  const handle = app.callback();
  listener.server.on('request', (request, response) => {
    void handle(request, response);
  });
  const gateway = new GatewayServer(
    listener.server,
    system,
    config.gateway,
    log,
    backend.limiter,
    (request) => publicGatewayUrl(request, config.http, listener.url),
    backend.tokenSecret,
    backend.metrics,
  );
  if (backend.metrics) registerHealthGauge(backend.metrics, backend.health);
  return { system, host, gateway, voiceRooms, voiceEndpoint: ownVoiceEndpoint };
}
