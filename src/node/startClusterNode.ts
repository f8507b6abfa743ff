import { LeaseKeeper } from '../../cluster/lease/LeaseKeeper.js';
import { MeteredGuard } from '../../cluster/lease/MeteredGuard.js';
import { MeteredTransport } from '../../cluster/transport/MeteredTransport.js';
import { followMembership } from '../../cluster/membership/followMembership.js';
import { PinFollower } from '../../cluster/placement/PinFollower.js';
import { RedisPinTable } from '../../cluster/placement/RedisPinTable.js';
import { RedisMembership } from '../../cluster/membership/RedisMembership.js';
import { startNodeServer } from '../../cluster/transport/GrpcServer.js';
import { GrpcTransport } from '../../cluster/transport/GrpcTransport.js';
import type { Stores } from '../../actors/runtime/ports/stores.js';
import type { Config } from '../config/Config.js';
import type { BlobStore } from '../domain/BlobStore.js';
import type { Logger } from '../domain/Logger.js';
import type { HealthReport } from '../http/EdgeDeps.js';
import { createCassandraStores } from '../store/cassandra/createCassandraStores.js';
import { connectRedis } from '../store/redis/connectRedis.js';
import { RedisLeaseTable } from '../store/redis/RedisLeaseTable.js';
import { RedisRateLimiter } from '../store/redis/RedisRateLimiter.js';
import { RedisSessionStore } from '../store/redis/RedisSessionStore.js';
import { RedisSubscriptionStore } from '../store/redis/RedisSubscriptionStore.js';
import { RedisUserSessionStore } from '../store/redis/RedisUserSessionStore.js';
import { RedisVoiceStateStore } from '../store/redis/RedisVoiceStateStore.js';
import { assembleNode } from './assembleNode.js';
import { createNodeMetrics, meterStores } from './nodeMetrics.js';
import { DrainDeadline } from './drainDeadline.js';
import { drainHttp, listenHttp } from './listenHttp.js';
import { startNodeVoice } from './startNodeVoice.js';
import { startTracing } from '../tracing/startTracing.js';
import { followVoiceRoomMoves } from './voiceRoomMoves.js';
import type { RunningNode } from './RunningNode.js';

/** The records every node of a cluster shares, with its blobs and the settings the nodes agree on. */
export interface ClusterRecords extends Stores {
  readonly blobs: BlobStore;
  readonly clusterSettings: {
    tokenSecret(configured: string): Promise<string>;
    allocateGeneratorId(): Promise<number>;
  };
}

/** Cassandra: the cluster's records. */
function openCassandra(config: Config, log: Logger): Promise<ClusterRecords> {
  const { backend } = config;
  return createCassandraStores({
    contactPoints: [...backend.cassandra.contactPoints],
    localDataCenter: backend.cassandra.localDataCenter,
    keyspace: backend.cassandra.keyspace,
    replicationFactor: backend.cassandraReplicationFactor,
    log,
  });
}

/**
 * One node of a cluster: Cassandra for state, Redis for membership, leases and rate limits, gRPC to
 * the other nodes. The node binds its ports first (its id names the gRPC port and its start time, so a
 * restarted node is a new member), then joins the view and follows it. `openRecords` replaces Cassandra
 * where a test runs nodes in one process without it (everything else is the cluster's own).
 */
export async function startClusterNode(
  config: Config,
  log: Logger,
  requestStop: () => void,
  openRecords: (config: Config, log: Logger) => Promise<ClusterRecords> = openCassandra,
): Promise<RunningNode> {
  const { backend } = config;
  const redis = await connectRedis(backend.redis.url, log, { name: 'chorus-node' });
  const metrics = createNodeMetrics(config);
  const stores = meterStores(await openRecords(config, log), metrics, 'cassandra');
  // Session frames get their own connection, so a fan-out's writes never queue ahead of lease renewals.
  const sessionRedis = await connectRedis(backend.redis.url, log, { name: 'chorus-sessions' });
  const sessionPorts = {
    sessions: new RedisSessionStore(sessionRedis, { keyPrefix: backend.redis.keyPrefix }),
    subscriptions: new RedisSubscriptionStore(sessionRedis, { keyPrefix: backend.redis.keyPrefix }),
    userSessions: new RedisUserSessionStore(sessionRedis, { keyPrefix: backend.redis.keyPrefix }),
    voiceStates: new RedisVoiceStateStore(sessionRedis, { keyPrefix: backend.redis.keyPrefix }),
  };
  const tokenSecret = await stores.clusterSettings.tokenSecret(config.tokenSecret);
  const generatorId = await stores.clusterSettings.allocateGeneratorId();
  const listener = await listenHttp(config.http);
  const grpc = await startNodeServer({
    host: backend.nodeHost === 'localhost' ? '127.0.0.1' : '0.0.0.0',
    port: backend.grpcPort,
    log,
  });
  const startedAt = Date.now();
  const nodeId = `${backend.nodeHost}:${grpc.port}@${startedAt}`;
  const tracing = await startTracing(config.tracing, nodeId); // before the edge: it installs the span middleware
  const membership = new RedisMembership(
    redis,
    {
      keyPrefix: backend.redis.keyPrefix,
      heartbeatMs: backend.heartbeatMs,
      ttlMs: backend.memberTtlMs,
      refreshMs: backend.heartbeatMs,
    },
    log,
  );
  const keeper = new LeaseKeeper({
    nodeId,
    table: new RedisLeaseTable(redis, { keyPrefix: backend.redis.keyPrefix }),
    options: { ttlMs: backend.leaseTtlMs },
    log,
    heartbeatAgeMs: () => membership.heartbeatAgeMs(),
  });
  const systemRef: { current?: { ringVersion: number } } = {};
  const transport = new GrpcTransport({ log, ringVersion: () => systemRef.current?.ringVersion ?? 0 });
  const health = async (): Promise<HealthReport> => {
    const checks: Record<string, string> = { redis: membership.healthy() ? 'ok' : 'unreachable' };
    try {
      await stores.users.get('0');
      checks.cassandra = 'ok';
    } catch (error) {
      checks.cassandra = error instanceof Error ? error.message : 'unreachable';
    }
    const view = membership.current();
    const status = Object.values(checks).every((check) => check === 'ok') ? 'ok' : 'degraded';
    return { status, mode: 'cluster', nodeId, checks, members: view.members, ringVersion: view.version };
  };
  const { system, host, gateway, voiceRooms, voiceEndpoint } = assembleNode(
    config,
    log,
    listener,
    {
      nodeId,
      stores,
      blobs: stores.blobs,
      sessionPorts: meterStores(sessionPorts, metrics, 'redis'),
      tokenSecret,
      generatorId,
      limiter: new RedisRateLimiter(redis, backend.redis.keyPrefix),
      transport: metrics ? new MeteredTransport(transport, metrics) : transport,
      guard: metrics ? new MeteredGuard(keeper, metrics, () => keeper.size) : keeper,
      health,
      ...(metrics ? { metrics } : {}),
      voiceEndpointOfNode: (id) => membership.current().nodes.find((node) => node.nodeId === id)?.voiceEndpoint,
    },
    requestStop,
  );
  systemRef.current = system;
  grpc.serve(system);
  keeper.start((kind, key, epoch) => host.evict(kind, key, epoch));
  const voice = await startNodeVoice(config, voiceEndpoint, tokenSecret, log, system);
  voiceRooms.attach(voice);
  await membership.start({
    nodeId,
    grpcAddress: `${backend.nodeHost}:${grpc.port}`,
    httpUrl: listener.url,
    gatewayUrl: listener.gatewayUrl,
    startedAt,
    voiceEndpoint,
  });
  // Placement pins (a hot guild on a chosen node) live beside membership; pub/sub brings a change at
  // once, the periodic version check only bounds a lost announcement.
  const pins = new PinFollower(new RedisPinTable(redis, backend.redis.keyPrefix), log, { refreshMs: 5_000 });
  await pins.start();
  const unfollow = followMembership(membership, system, config.cluster.vnodesPerNode, keeper, pins);
  const unfollowVoice = voice
    ? followVoiceRoomMoves(system, voice, [
        (listener) => membership.onChange(listener),
        (listener) => pins.onChange(listener),
      ])
    : () => undefined;
  system.bindViewRefresh(async () => {
    await Promise.all([membership.refresh(), pins.refresh()]);
  });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      // Graceful leave (issue 14 §3). Leaving first announces it (pub/sub), so the peers drop this
      // node from their rings at once; the view we adopt ourselves moves our ring too, and the
      // keeper hands every local activation off (flushed by deactivate, lease released) while the
      // sockets and requests still here are moved or finished against the new owners.
      const drain = new DrainDeadline(config.cluster.drainTimeoutMs, log);
      unfollowVoice();
      await drain.within('leave', membership.stop());
      unfollow();
      await pins.stop();
      gateway.close(); // op 7: clients resume on another node
      await voice?.close();
      await drain.within('requests', drainHttp(listener, drain.remainingMs));
      await drain.within('actors', host.shutdown());
      keeper.stop();
      transport.close();
      await grpc.close();
      await stores.close();
      sessionRedis.destroy();
      redis.destroy();
      await tracing?.stop(); // last: flushes the spans of the leave
    })());
  log.info('node_started', { mode: 'cluster', url: listener.url, gatewayUrl: listener.gatewayUrl, nodeId });
  const { url, gatewayUrl, server } = listener;
  return { nodeId, url, gatewayUrl, system, host, server, voice, close };
}
