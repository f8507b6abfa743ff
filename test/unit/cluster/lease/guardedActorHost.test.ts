import assert from 'node:assert/strict';
import { Actor } from '../../../../actors/runtime/Actor.js';
import type { ActorMessenger } from '../../../../actors/runtime/ActorContext.js';
import { ActorHost, type ActorFactory } from '../../../../actors/runtime/ActorHost.js';
import { fenceStores } from '../../../../actors/runtime/fenceStores.js';
import type { CommitFence } from '../../../../actors/runtime/ports/coordination.js';
import type { Stores } from '../../../../actors/runtime/ports/stores.js';
import { LeaseKeeper } from '../../../../cluster/lease/LeaseKeeper.js';
import type { UserCommand, UserReply } from '../../../../proto/gen/chorus/v1/user.js';
import { ManualClock } from '../../../../src/domain/Clock.js';
import { WrongOwnerError } from '../../../../src/domain/errors.js';
import { createLogger } from '../../../../src/domain/Logger.js';
import { SnowflakeGenerator } from '../../../../src/domain/snowflake.js';
import { InMemoryLeaseTable } from '../../../../src/store/memory/InMemoryLeaseTable.js';

const TTL = 3_000;
const getMe: UserCommand = { command: { $case: 'getMe', getMe: {} } };
const log = createLogger('silent');

/** Each turn writes through its (possibly fenced) stores; `gate` can hold a turn open. */
class WritingActor extends Actor<UserCommand, UserReply> {
  gate: Promise<void> = Promise.resolve();
  constructor(
    private readonly stores: Stores,
    private readonly journal: string[],
  ) {
    super();
  }
  override activate(): Promise<void> {
    this.journal.push('activate');
    return Promise.resolve();
  }
  async handle(): Promise<UserReply> {
    await this.gate;
    await this.stores.users.update({} as never);
    return { reply: { $case: 'empty', empty: {} } };
  }
  override deactivate(): Promise<void> {
    this.journal.push('deactivate');
    return Promise.resolve();
  }
}

const noMessenger: ActorMessenger = {
  ask: () => Promise.reject(new Error('not used')),
  tell: () => undefined,
  fanOut: () => undefined,
  pushFrames: () => undefined,
  livesHere: () => true,
};

interface TestNode {
  readonly host: ActorHost;
  readonly keeper: LeaseKeeper | undefined;
  readonly journal: string[];
  readonly fences: (CommitFence | undefined)[];
  readonly actors: WritingActor[];
  readonly hostClock: ManualClock;
}

/** A node whose writes land in `writes` as `nodeId`; guarded when a lease table is given. */
function startNode(nodeId: string, writes: string[], table?: InMemoryLeaseTable): TestNode {
  const journal: string[] = [];
  const fences: (CommitFence | undefined)[] = [];
  const actors: WritingActor[] = [];
  const stores = {
    users: {
      update: () => {
        writes.push(nodeId);
        return Promise.resolve();
      },
    },
  } as unknown as Stores;
  const factory = ((_kind: string, _key: string, _ctx: unknown, fence?: CommitFence) => {
    fences.push(fence);
    const actor = new WritingActor(fence ? fenceStores(stores, fence) : stores, journal);
    actors.push(actor);
    return actor;
  }) as unknown as ActorFactory;
  const keeper = table
    ? new LeaseKeeper({ nodeId, table, options: { ttlMs: TTL, acquireWaitMs: 0 }, log, clock: new ManualClock(0) })
    : undefined;
  const hostClock = new ManualClock();
  const host = new ActorHost({
    nodeId,
    factory,
    messenger: noMessenger,
    clock: hostClock,
    log,
    ids: new SnowflakeGenerator(1),
    options: { mailboxCapacity: 100, idleTimeoutMs: 1_000 },
    ...(keeper ? { guard: keeper } : {}),
  });
  keeper?.start((kind, key, epoch) => host.evict(kind, key, epoch));
  return { host, keeper, journal, fences, actors, hostClock };
}

/** Lets pending stops and releases (started with `void`) finish. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('ActorHost with a lease guard', () => {
  const running: TestNode[] = [];
  afterEach(async () => {
    for (const node of running.splice(0)) {
      node.keeper?.stop();
      await node.host.shutdown();
    }
  });
  function node(nodeId: string, writes: string[], table?: InMemoryLeaseTable): TestNode {
    const started = startNode(nodeId, writes, table);
    running.push(started);
    return started;
  }

  it('activates an actor on one node only; the other refuses before loading any state', async () => {
    const tableClock = new ManualClock();
    const table = new InMemoryLeaseTable(tableClock);
    const writes: string[] = [];
    const [a, b] = [node('a:1@1', writes, table), node('b:1@1', writes, table)];
    await a.host.ask('user', '1', getMe);
    const refusals = [b.host.ask('user', '1', getMe), b.host.ask('user', '1', getMe)];
    for (const refusal of refusals) await assert.rejects(refusal, WrongOwnerError);
    assert.deepEqual(b.journal, []);
    assert.equal(b.host.isActive('user', '1'), false);
    assert.deepEqual(writes, ['a:1@1']);
  });

  it("refuses a deposed activation's writes and evicts it", async () => {
    const tableClock = new ManualClock();
    const table = new InMemoryLeaseTable(tableClock);
    const writes: string[] = [];
    const [a, b] = [node('a:1@1', writes, table), node('b:1@1', writes, table)];
    await a.host.ask('user', '2', getMe);
    tableClock.advance(TTL + 1); // a's lease lapsed in the table (say a was partitioned from it)
    await b.host.ask('user', '2', getMe);
    await assert.rejects(a.host.ask('user', '2', getMe), WrongOwnerError);
    assert.deepEqual(writes, ['a:1@1', 'b:1@1']);
    await settle();
    assert.equal(a.host.isActive('user', '2'), false);
    assert.deepEqual(a.journal, ['activate', 'deactivate']);
  });

  it('refuses the queued messages of an evicted activation and fences its turn in flight', async () => {
    const table = new InMemoryLeaseTable(new ManualClock());
    const writes: string[] = [];
    const a = node('a:1@1', writes, table);
    await a.host.ask('user', '3', getMe);
    let open: () => void = () => undefined;
    (a.actors[0] as WritingActor).gate = new Promise<void>((resolve) => (open = resolve));
    const inFlight = a.host.ask('user', '3', getMe);
    const queued = a.host.ask('user', '3', getMe);
    await settle();
    assert.equal(a.host.evict('user', '3'), true);
    await assert.rejects(queued, WrongOwnerError);
    await settle();
    open();
    await assert.rejects(inFlight, WrongOwnerError);
    assert.deepEqual(writes, ['a:1@1']);
  });

  it('releases the lease when the actor passivates, so another node takes it at once', async () => {
    const table = new InMemoryLeaseTable(new ManualClock());
    const writes: string[] = [];
    const [a, b] = [node('a:1@1', writes, table), node('b:1@1', writes, table)];
    await a.host.ask('user', '4', getMe);
    a.hostClock.advance(1_001);
    assert.equal(a.host.passivateIdle(), 1);
    await settle();
    assert.equal(a.keeper?.size, 0);
    await b.host.ask('user', '4', getMe);
    assert.deepEqual(writes, ['a:1@1', 'b:1@1']);
  });

  it('ignores an eviction for an older epoch than the live activation holds', async () => {
    const table = new InMemoryLeaseTable(new ManualClock());
    const a = node('a:1@1', [], table);
    await a.host.ask('user', '5', getMe);
    assert.equal(a.host.evict('user', '5', 0), false);
    assert.equal(a.host.isActive('user', '5'), true);
  });

  it('passes no fence and takes no lease without a guard (embedded mode)', async () => {
    const writes: string[] = [];
    const solo = node('solo:1@1', writes);
    await solo.host.ask('user', '6', getMe);
    assert.deepEqual(solo.fences, [undefined]);
    assert.deepEqual(writes, ['solo:1@1']);
  });
});
