import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { Actor } from '../../../actors/runtime/Actor.js';
import type { ActorContext } from '../../../actors/runtime/ActorContext.js';
import { ActorHost, type ActorFactory } from '../../../actors/runtime/ActorHost.js';
import { ActorSystem } from '../../../cluster/ActorSystem.js';
import { LeaseKeeper } from '../../../cluster/lease/LeaseKeeper.js';
import { MeteredGuard } from '../../../cluster/lease/MeteredGuard.js';
import { HashRing } from '../../../cluster/ring/HashRing.js';
import { startNodeServer, type NodeServer } from '../../../cluster/transport/GrpcServer.js';
import { GrpcTransport } from '../../../cluster/transport/GrpcTransport.js';
import { MeteredTransport } from '../../../cluster/transport/MeteredTransport.js';
import { GetChannel, type ChannelCommand, type ChannelReply } from '../../../proto/gen/chorus/v1/channel.js';
import { systemClock } from '../../../src/domain/Clock.js';
import { WrongOwnerError } from '../../../src/domain/errors.js';
import { createLogger } from '../../../src/domain/Logger.js';
import { SnowflakeGenerator } from '../../../src/domain/snowflake.js';
import { PromMetrics } from '../../../src/metrics/PromMetrics.js';
import { RedisLeaseTable } from '../../../src/store/redis/RedisLeaseTable.js';
import { parseMetrics, total, type Sample } from '../../integration/metricsText.js';
import { redisForSuite } from '../../integration/redis/redisTestKit.js';
import { HOST, keyOwnedBy } from './transportHarness.js';
import { addressOf } from '../../../cluster/transport/GrpcClientPool.js';

/** Answers every command with the node it ran on. */
class WhereChannel extends Actor<ChannelCommand, ChannelReply> {
  constructor(private readonly ctx: ActorContext) {
    super();
  }
  handle(): Promise<ChannelReply> {
    return Promise.resolve({ reply: { $case: 'json', json: { json: JSON.stringify({ node: this.ctx.nodeId }) } } });
  }
}

const factory = ((_kind: string, _key: string, ctx: ActorContext) => new WhereChannel(ctx)) as unknown as ActorFactory;
const ask: ChannelCommand = { command: { $case: 'getChannel', getChannel: GetChannel.fromPartial({}) } };

interface MeteredNode {
  readonly id: string;
  readonly metrics: PromMetrics;
  readonly system: ActorSystem;
  readonly host: ActorHost;
  readonly guard: MeteredGuard;
  readonly keeper: LeaseKeeper;
  readonly transport: GrpcTransport;
  readonly server: NodeServer;
}

describe('cluster: remote call and lease metrics between two nodes', function () {
  this.timeout(30_000);
  const { prefix, redis } = redisForSuite();
  let nodes: MeteredNode[] = [];
  let ring: HashRing;

  before(async () => {
    const log = createLogger('silent');
    const servers = await Promise.all([0, 1].map(() => startNodeServer({ host: HOST, port: 0, log })));
    const ids = servers.map((server) => `${HOST}:${server.port}@${Date.now()}`);
    ring = new HashRing({ version: 1, members: ids });
    nodes = servers.map((server, index) => {
      const id = ids[index] as string;
      const metrics = new PromMetrics();
      const transport = new GrpcTransport({ log });
      const system = new ActorSystem(
        id,
        ring,
        { askDeadlineMs: 5_000, vnodesPerNode: 128 },
        log,
        new MeteredTransport(transport, metrics),
      );
      const table = new RedisLeaseTable(redis(), { keyPrefix: prefix });
      // No wait for a lease held elsewhere: the refusal is what one check below counts.
      const keeper = new LeaseKeeper({ nodeId: id, table, options: { ttlMs: 3_000, acquireWaitMs: 0 }, log });
      const guard = new MeteredGuard(keeper, metrics, () => keeper.size);
      const host = new ActorHost({
        nodeId: id,
        factory,
        messenger: system,
        clock: systemClock,
        log,
        ids: new SnowflakeGenerator(index),
        options: { mailboxCapacity: 1_000, idleTimeoutMs: 60_000 },
        guard,
        metrics,
      });
      system.bindHost(host);
      server.serve(system);
      keeper.start((kind, key, epoch) => host.evict(kind, key, epoch));
      return { id, metrics, system, host, guard, keeper, transport, server };
    });
  });
  after(async () => {
    for (const node of nodes) node.transport.close();
    await Promise.all(nodes.map((node) => node.host.shutdown()));
    for (const node of nodes) node.keeper.stop();
    await Promise.all(nodes.map((node) => node.server.close(0)));
  });

  async function scrape(node: MeteredNode): Promise<Sample[]> {
    return parseMetrics(await node.metrics.render());
  }

  it('counts and times asks to the peer by its address, and the leases its activations took', async () => {
    const [a, b] = nodes as [MeteredNode, MeteredNode];
    const keys = [0, 1, 2].map((skip) => keyOwnedBy(ring, 'channel', b.id, 'metered', skip));
    for (const key of keys) {
      const reply = await a.system.ask('channel', key, ask);
      assert.equal(reply.reply?.$case, 'json');
      assert.deepEqual(JSON.parse(reply.reply.json.json) as unknown, { node: b.id });
    }
    const onA = await scrape(a);
    const peer = { peer: addressOf(b.id), call: 'ask' };
    assert.equal(total(onA, 'chorus_remote_calls_total', { ...peer, outcome: 'ok' }), 3);
    assert.equal(total(onA, 'chorus_remote_calls_total', { ...peer, outcome: 'error' }), 0);
    assert.equal(total(onA, 'chorus_remote_call_duration_seconds_count', peer), 3);
    assert.ok(total(onA, 'chorus_remote_call_duration_seconds_sum', peer) > 0);
    const onB = await scrape(b);
    assert.equal(total(onB, 'chorus_lease_acquisitions_total', { outcome: 'ok' }), 3);
    assert.equal(total(onB, 'chorus_leases_held'), 3);
    assert.equal(total(onB, 'chorus_actors_active', { kind: 'channel', state: 'active' }), 3);
    assert.equal(total(onB, 'chorus_remote_calls_total', { outcome: 'ok' }), 0); // B called nobody
  });

  it('counts a lease refused because the other node holds it', async () => {
    const [a, b] = nodes as [MeteredNode, MeteredNode];
    const key = keyOwnedBy(ring, 'channel', b.id, 'metered', 0); // active on B since the test above
    await assert.rejects(a.guard.acquire('channel', key), WrongOwnerError);
    const onA = await scrape(a);
    assert.equal(total(onA, 'chorus_lease_acquisitions_total', { outcome: 'refused' }), 1);
    assert.equal(total(onA, 'chorus_lease_acquire_duration_seconds_count'), 1);
  });
});
