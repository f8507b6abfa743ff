import assert from 'node:assert/strict';
import { Actor } from '../../../actors/runtime/Actor.js';
import type { ActorContext } from '../../../actors/runtime/ActorContext.js';
import { ActorHost, type ActorFactory } from '../../../actors/runtime/ActorHost.js';
import { ActorSystem } from '../../../cluster/ActorSystem.js';
import { LeaseKeeper } from '../../../cluster/lease/LeaseKeeper.js';
import { followMembership } from '../../../cluster/membership/followMembership.js';
import { InMemoryMembership, InMemoryMembershipTable } from '../../../cluster/membership/InMemoryMembership.js';
import { PinFollower } from '../../../cluster/placement/PinFollower.js';
import { RedisPinTable } from '../../../cluster/placement/RedisPinTable.js';
import { HashRing } from '../../../cluster/ring/HashRing.js';
import { startNodeServer, type NodeServer } from '../../../cluster/transport/GrpcServer.js';
import { GrpcTransport } from '../../../cluster/transport/GrpcTransport.js';
import { GetChannel, type ChannelCommand, type ChannelReply } from '../../../proto/gen/chorus/v1/channel.js';
import { systemClock } from '../../../src/domain/Clock.js';
import { createLogger } from '../../../src/domain/Logger.js';
import { SnowflakeGenerator } from '../../../src/domain/snowflake.js';
import { RedisLeaseTable } from '../../../src/store/redis/RedisLeaseTable.js';
import { aMember, FAST, viewWhere } from '../../contract/membershipContract.js';
import { redisForSuite } from '../../integration/redis/redisTestKit.js';
import { HOST } from './transportHarness.js';

const log = createLogger('silent');

/** A channel stub that answers with the node it runs on, so the test sees where the actor lives. */
class WhereChannel extends Actor<ChannelCommand, ChannelReply> {
  constructor(private readonly ctx: ActorContext) {
    super();
  }

  override handle(): Promise<ChannelReply> {
    return Promise.resolve({ reply: { $case: 'json', json: { json: this.ctx.nodeId } } });
  }
}

const factory = ((_kind: string, _key: string, ctx: ActorContext) => new WhereChannel(ctx)) as unknown as ActorFactory;

/** A node as startClusterNode wires one: gRPC, leases and pins in Redis, membership (here in memory). */
interface PinNode {
  readonly id: string;
  readonly hostPort: string;
  readonly system: ActorSystem;
  readonly pins: PinFollower;
  readonly membership: InMemoryMembership;
  readonly stop: () => Promise<void>;
}

describe('cluster: a pinned actor runs on the node it is pinned to (gRPC, Redis pins and leases)', function () {
  this.timeout(20_000);
  const { prefix, redis } = redisForSuite();
  const membershipTable = new InMemoryMembershipTable();
  let nodes: PinNode[] = [];

  async function startNode(index: number): Promise<PinNode> {
    const server: NodeServer = await startNodeServer({ host: HOST, port: 0, log });
    const self = { ...aMember(server.port, 1_764_129_000_000 + index), grpcAddress: `${HOST}:${server.port}` };
    const membership = new InMemoryMembership(log, membershipTable, FAST);
    const transport = new GrpcTransport({ log, ringVersion: (): number => system.ringVersion });
    const system: ActorSystem = new ActorSystem(
      self.nodeId,
      new HashRing({ version: 0, members: [self.nodeId] }),
      { askDeadlineMs: 5_000, vnodesPerNode: 128 },
      log,
      transport,
    );
    const keeper = new LeaseKeeper({
      nodeId: self.nodeId,
      table: new RedisLeaseTable(redis(), { keyPrefix: prefix }),
      options: { ttlMs: 2_000 },
      log,
      heartbeatAgeMs: () => membership.heartbeatAgeMs(),
    });
    const host = new ActorHost({
      nodeId: self.nodeId,
      factory,
      messenger: system,
      clock: systemClock,
      log,
      ids: new SnowflakeGenerator(index),
      options: { mailboxCapacity: 100, idleTimeoutMs: 60_000 },
      guard: keeper,
    });
    system.bindHost(host);
    server.serve(system);
    keeper.start((kind, key, epoch) => host.evict(kind, key, epoch));
    await membership.start(self);
    const pins = new PinFollower(new RedisPinTable(redis(), prefix), log, { refreshMs: 60_000 });
    await pins.start();
    const unfollow = followMembership(membership, system, 128, keeper, pins);
    system.bindViewRefresh(async () => {
      await Promise.all([membership.refresh(), pins.refresh()]);
    });
    const hostPort = self.nodeId.slice(0, self.nodeId.lastIndexOf('@'));
    const stop = async (): Promise<void> => {
      unfollow();
      await pins.stop();
      await host.shutdown();
      keeper.stop();
      await membership.stop();
      transport.close();
      await server.close(0);
    };
    return { id: self.nodeId, hostPort, system, pins, membership, stop };
  }

  /** Resolves once `node` installed pins of `version` (followMembership's listener runs first). */
  function pinsAt(node: PinNode, version: number): Promise<void> {
    if (node.pins.current().version >= version) return Promise.resolve();
    return new Promise((resolve) => {
      const stop = node.pins.onChange((set) => {
        if (set.version < version) return;
        stop();
        resolve();
      });
    });
  }

  async function whereRuns(via: PinNode, key: string): Promise<string> {
    const command: ChannelCommand = { command: { $case: 'getChannel', getChannel: GetChannel.fromPartial({}) } };
    const reply = await via.system.ask('channel', key, command);
    assert.equal(reply.reply?.$case, 'json');
    return reply.reply.json.json;
  }

  async function leaseOf(key: string): Promise<string> {
    return (await redis().get(`${prefix}lease:channel:${key}`)) ?? '';
  }

  before(async () => {
    nodes = [await startNode(1), await startNode(2)];
    for (const node of nodes) await viewWhere(node.membership, (view) => view.members.length === 2, 'both nodes');
  });
  after(async () => {
    for (const node of nodes) await node.stop();
  });

  it('moves the actor to the pinned node under a new lease, back when unpinned, and to the ring when the pinned node leaves', async () => {
    const [a, b] = nodes as [PinNode, PinNode];
    const ids = Array.from({ length: 200 }, (_, index) => `${1_300_000_000_000_000_000n + BigInt(index)}`);
    const key = ids.find((id) => a.system.ownerOf('channel', id) === a.id) as string;
    const pinTable = new RedisPinTable(redis(), prefix);

    assert.equal(await whereRuns(b, key), a.id, 'unpinned, the ring owner runs it');
    const ringLease = await leaseOf(key);
    assert.match(ringLease, new RegExp(`^${a.id}\\|`));

    const pinned = await pinTable.pin(`channel:${key}`, b.hostPort);
    await Promise.all(nodes.map((node) => pinsAt(node, pinned)));
    assert.equal(await whereRuns(a, key), b.id, 'asked on its old owner, the actor runs on the pinned node');
    const pinnedLease = await leaseOf(key);
    assert.match(pinnedLease, new RegExp(`^${b.id}\\|`));
    assert.ok(Number(pinnedLease.split('|')[1]) > Number(ringLease.split('|')[1]), 'a new epoch: a hand-over');

    const unpinned = await pinTable.unpin(`channel:${key}`);
    await Promise.all(nodes.map((node) => pinsAt(node, unpinned)));
    assert.equal(await whereRuns(b, key), a.id, 'unpinned, it goes back to its ring owner');

    // Pinned again, then the pinned node leaves: the pin is ignored and the ring places the key.
    await Promise.all(nodes.map(async (node) => pinsAt(node, await pinTable.pin(`channel:${key}`, b.hostPort))));
    assert.equal(await whereRuns(a, key), b.id);
    await b.membership.stop();
    await viewWhere(a.membership, (view) => view.members.length === 1, 'b gone from a’s view');
    assert.equal(a.system.ownerOf('channel', key), a.id, 'a pin to a node that is not live falls back to the ring');
  });
});
