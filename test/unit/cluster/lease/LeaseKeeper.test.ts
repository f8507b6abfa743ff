import assert from 'node:assert/strict';
import type { ActorKind } from '../../../../actors/runtime/ActorKind.js';
import type { LeaseTable } from '../../../../actors/runtime/ports/coordination.js';
import { LeaseKeeper } from '../../../../cluster/lease/LeaseKeeper.js';
import { ManualClock } from '../../../../src/domain/Clock.js';
import { ServiceUnavailableError, WrongOwnerError } from '../../../../src/domain/errors.js';
import { createLogger } from '../../../../src/domain/Logger.js';
import { InMemoryLeaseTable } from '../../../../src/store/memory/InMemoryLeaseTable.js';

const TTL = 3_000;
const DRIFT = 300;

/** A table whose connection can fail, as Redis during an outage. */
class FlakyTable implements LeaseTable {
  down = false;
  constructor(private readonly inner: LeaseTable) {}
  acquire(...args: Parameters<LeaseTable['acquire']>): ReturnType<LeaseTable['acquire']> {
    return this.down ? Promise.reject(new ServiceUnavailableError('down')) : this.inner.acquire(...args);
  }
  renew(...args: Parameters<LeaseTable['renew']>): ReturnType<LeaseTable['renew']> {
    return this.down ? Promise.reject(new ServiceUnavailableError('down')) : this.inner.renew(...args);
  }
  release(...args: Parameters<LeaseTable['release']>): ReturnType<LeaseTable['release']> {
    return this.down ? Promise.reject(new ServiceUnavailableError('down')) : this.inner.release(...args);
  }
  check(...args: Parameters<LeaseTable['check']>): ReturnType<LeaseTable['check']> {
    return this.down ? Promise.reject(new ServiceUnavailableError('down')) : this.inner.check(...args);
  }
}

interface Node {
  readonly keeper: LeaseKeeper;
  readonly evicted: string[];
  readonly clock: ManualClock;
}

/** One shared table (its clock is the table server's); each node has its own monotonic clock. */
function cluster(): {
  table: FlakyTable;
  tableClock: ManualClock;
  node(id: string, heartbeatAgeMs?: () => number): Node;
} {
  const tableClock = new ManualClock();
  const table = new FlakyTable(new InMemoryLeaseTable(tableClock));
  return {
    table,
    tableClock,
    node: (nodeId, heartbeatAgeMs) => {
      const clock = new ManualClock(0);
      const evicted: string[] = [];
      const keeper = new LeaseKeeper({
        nodeId,
        table,
        options: { ttlMs: TTL, driftMs: DRIFT, acquireWaitMs: 0 },
        log: createLogger('silent'),
        clock,
        ...(heartbeatAgeMs ? { heartbeatAgeMs } : {}),
      });
      keeper.start((kind: ActorKind, key: string, epoch: number) => evicted.push(`${kind}:${key}@${epoch}`));
      return { keeper, evicted, clock };
    },
  };
}

/** A keeper that waits up to `acquireWaitMs` for a lease another node holds (the others refuse at once). */
function waitingKeeper(table: LeaseTable, acquireWaitMs: number): LeaseKeeper {
  return new LeaseKeeper({
    nodeId: 'b:1@1',
    table,
    options: { ttlMs: TTL, driftMs: DRIFT, acquireWaitMs },
    log: createLogger('silent'),
    clock: new ManualClock(0),
  });
}

/** Moves the table's clock and both nodes' clocks together. */
function advance(ms: number, tableClock: ManualClock, ...nodes: Node[]): void {
  tableClock.advance(ms);
  for (const node of nodes) node.clock.advance(ms);
}

describe('LeaseKeeper', () => {
  const kept: LeaseKeeper[] = [];
  afterEach(() => {
    for (const keeper of kept.splice(0)) keeper.stop();
  });
  function track(node: Node): Node {
    kept.push(node.keeper);
    return node;
  }

  it('lets one node activate an actor and refuses the others with WrongOwnerError', async () => {
    const c = cluster();
    const [a, b] = [track(c.node('a:1@1')), track(c.node('b:1@1'))];
    const epoch = await a.keeper.acquire('channel', '1');
    await assert.rejects(b.keeper.acquire('channel', '1'), WrongOwnerError);
    await a.keeper.assertCommittable('channel', '1', epoch);
    assert.equal(a.keeper.size, 1);
  });

  it('waits for the lease of a node that stopped renewing to lapse, then takes it', async () => {
    const c = cluster();
    const dead = track(c.node('a:1@1'));
    await dead.keeper.acquire('guild', '5');
    dead.keeper.stop(); // a killed node: its lease stays in the table until the ttl passes
    const waiting = waitingKeeper(c.table, 2_000);
    const taken = waiting.acquire('guild', '5');
    // The table's clock passes the ttl while the activation waits (a real table's does by itself).
    setTimeout(() => {
      c.tableClock.advance(TTL + 1);
    }, 20);
    assert.ok((await taken) > 0);
    assert.equal(waiting.size, 1);
  });

  it('gives up waiting for a lease that is still renewed, with WrongOwnerError', async () => {
    const c = cluster();
    const owner = track(c.node('a:1@1'));
    await owner.keeper.acquire('guild', '6');
    const waiting = waitingKeeper(c.table, 150);
    await assert.rejects(waiting.acquire('guild', '6'), WrongOwnerError);
  });

  it('keeps leases alive by renewing them in batches', async () => {
    const c = cluster();
    const [a, b] = [track(c.node('a:1@1')), track(c.node('b:1@1'))];
    const epoch = await a.keeper.acquire('guild', '1');
    await a.keeper.acquire('guild', '2');
    for (let round = 0; round < 4; round += 1) {
      advance(TTL / 2, c.tableClock, a, b);
      await a.keeper.renewNow();
    }
    await assert.rejects(b.keeper.acquire('guild', '1'), WrongOwnerError);
    await a.keeper.assertCommittable('guild', '1', epoch);
    assert.deepEqual(a.evicted, []);
  });

  it('evicts an activation whose lease another node took and refuses its writes', async () => {
    const c = cluster();
    const [a, b] = [track(c.node('a:1@1')), track(c.node('b:1@1'))];
    const epoch = await a.keeper.acquire('user', '7');
    c.tableClock.advance(TTL + 1); // the table let it lapse; a's own clock did not see that much time (drift)
    const successor = await b.keeper.acquire('user', '7');
    assert.ok(successor > epoch);
    await assert.rejects(a.keeper.assertCommittable('user', '7', epoch), WrongOwnerError);
    assert.deepEqual(a.evicted, [`user:7@${epoch}`]);
    await b.keeper.assertCommittable('user', '7', successor);
  });

  it('reports a lease lost at renewal to the host', async () => {
    const c = cluster();
    const [a, b] = [track(c.node('a:1@1')), track(c.node('b:1@1'))];
    const epoch = await a.keeper.acquire('user', '8');
    c.tableClock.advance(TTL + 1);
    await b.keeper.acquire('user', '8');
    await a.keeper.renewNow();
    assert.deepEqual(a.evicted, [`user:8@${epoch}`]);
    assert.equal(a.keeper.size, 0);
  });

  it('evicts by its own clock once renewals failed for longer than the lease lives (no round trip)', async () => {
    const c = cluster();
    const a = track(c.node('a:1@1'));
    const epoch = await a.keeper.acquire('channel', '9');
    c.table.down = true;
    a.clock.advance(TTL / 3);
    await a.keeper.renewNow();
    assert.deepEqual(a.evicted, [], 'one failed renewal is not yet a loss');
    a.clock.advance(TTL - DRIFT - TTL / 3 + 1);
    await assert.rejects(a.keeper.assertCommittable('channel', '9', epoch), WrongOwnerError);
    assert.deepEqual(a.evicted, [`channel:9@${epoch}`]);
  });

  it('evicts every lease after a pause longer than the ttl, before asking the table', async () => {
    const c = cluster();
    const a = track(c.node('a:1@1'));
    await a.keeper.acquire('guild', '1');
    await a.keeper.acquire('guild', '2');
    a.clock.advance(TTL * 5); // SIGSTOP: the table's clock did not move in this test, the node's did
    await a.keeper.renewNow();
    assert.equal(a.evicted.length, 2);
  });

  it('refuses a write whose lease check was answered before a pause longer than the ttl', async () => {
    const c = cluster();
    const a = track(c.node('a:1@1'));
    const epoch = await a.keeper.acquire('session', '1');
    const check = c.table.check.bind(c.table);
    c.table.check = async (...args) => {
      const held = await check(...args); // true: the answer left the table before the pause
      a.clock.advance(TTL * 2); // SIGSTOP while the answer waited in the socket
      return held;
    };
    await assert.rejects(a.keeper.assertCommittable('session', '1', epoch), /may have lapsed/);
    assert.deepEqual(a.evicted, [`session:1@${epoch}`]);
  });

  it('evicts everything and activates nothing while its membership heartbeat is older than the ttl', async () => {
    const c = cluster();
    let heartbeatAge = 0;
    const a = track(c.node('a:1@1', () => heartbeatAge));
    await a.keeper.acquire('session', 's1');
    heartbeatAge = TTL + 1;
    await a.keeper.renewNow();
    assert.equal(a.evicted.length, 1);
    await assert.rejects(a.keeper.acquire('session', 's2'), ServiceUnavailableError);
  });

  it('loses a lease that lapsed during a pause when a new view arrives before the renewal, even one placing it here', async () => {
    const c = cluster();
    const a = track(c.node('a:1@1'));
    const epoch = await a.keeper.acquire('channel', '7');
    a.clock.advance(TTL * 5); // SIGSTOP, then SIGCONT: the membership view is read first
    assert.equal(
      a.keeper.handOff(() => true),
      0,
    );
    assert.deepEqual(a.evicted, [`channel:7@${epoch}`]);
    await assert.rejects(a.keeper.assertCommittable('channel', '7', epoch), /not held/);
  });

  it('frees a released lease for another node, but not under an older epoch', async () => {
    const c = cluster();
    const [a, b] = [track(c.node('a:1@1')), track(c.node('b:1@1'))];
    const older = await a.keeper.acquire('channel', '3');
    const newer = await a.keeper.acquire('channel', '3'); // a second activation on the same node
    await a.keeper.release('channel', '3', older);
    await assert.rejects(b.keeper.acquire('channel', '3'), WrongOwnerError);
    await a.keeper.release('channel', '3', newer);
    assert.ok((await b.keeper.acquire('channel', '3')) > newer);
  });

  it('hands off the activations a new view gives to other nodes', async () => {
    const c = cluster();
    const a = track(c.node('a:1@1'));
    const kept1 = await a.keeper.acquire('guild', 'mine');
    const moved = await a.keeper.acquire('guild', 'theirs');
    assert.equal(
      a.keeper.handOff((_kind, key) => key === 'mine'),
      1,
    );
    assert.deepEqual(a.evicted, [`guild:theirs@${moved}`]);
    await a.keeper.assertCommittable('guild', 'mine', kept1);
  });

  it('refuses to activate a key its newest view gives to another node, leaving the lease to the owner', async () => {
    const c = cluster();
    const [a, b] = [track(c.node('a:1@1')), track(c.node('b:1@1'))];
    a.keeper.handOff((_kind, key) => key !== 'theirs');
    await assert.rejects(a.keeper.acquire('session', 'theirs'), WrongOwnerError);
    assert.equal(a.keeper.size, 0);
    assert.ok((await b.keeper.acquire('session', 'theirs')) > 0, 'the owner takes the lease at once');
  });

  it('does not keep a lease whose wait outlived a view that moved the key elsewhere', async () => {
    const c = cluster();
    const dead = track(c.node('a:1@1'));
    await dead.keeper.acquire('session', 's');
    dead.keeper.stop();
    const waiting = waitingKeeper(c.table, 2_000);
    let owned = true;
    waiting.handOff(() => owned);
    const taking = waiting.acquire('session', 's');
    setTimeout(() => {
      owned = false; // a node rejoined: the key is its again
      waiting.handOff(() => owned);
      c.tableClock.advance(TTL + 1);
    }, 20);
    await assert.rejects(taking, WrongOwnerError);
    assert.equal(waiting.size, 0);
    const owner = track(c.node('c:1@1'));
    assert.ok((await owner.keeper.acquire('session', 's')) > 0, 'the new owner gets the lease without waiting');
  });

  it('gives up, at its next renewal, a lease held for a key the current view places elsewhere', async () => {
    const c = cluster();
    const a = track(c.node('a:1@1'));
    let owned = true;
    a.keeper.handOff(() => owned);
    const epoch = await a.keeper.acquire('guild', '9');
    owned = false; // the ring changed under the rule handOff was given
    await a.keeper.renewNow();
    assert.deepEqual(a.evicted, [`guild:9@${epoch}`]);
  });
});
