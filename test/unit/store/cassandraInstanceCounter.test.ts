import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { CassandraInstanceCounter } from '../../../src/store/cassandra/CassandraInstanceCounter.js';
import type { Logger } from '../../../src/domain/Logger.js';
import type { CassandraSession } from '../../../src/store/cassandra/CassandraSession.js';

/** A session that keeps the counter cells in memory and records every counter update it was sent. */
function countingSession(onUpdate?: () => void): { session: CassandraSession; updates: [string, bigint][] } {
  const updates: [string, bigint][] = [];
  const cells = new Map<string, bigint>();
  const fake = {
    count: (_query: string, params: readonly unknown[]) => {
      const [delta, name] = params as [bigint, string];
      updates.push([name, delta]);
      cells.set(name, (cells.get(name) ?? 0n) + delta);
      onUpdate?.();
      return Promise.resolve();
    },
    rows: () =>
      Promise.resolve(
        [...cells].map(([name, count]) => ({ get: (column: string) => (column === 'name' ? name : count) })),
      ),
  };
  return { session: fake as unknown as CassandraSession, updates };
}

/** A session whose every counter update gets `outcome` (a rejection, or a promise that never settles). */
function sessionAnswering(outcome: () => Promise<void>): CassandraSession {
  return { count: outcome } as unknown as CassandraSession;
}

/** A logger that keeps the names of the warnings it was given. */
function warningsLog(): { log: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const log: Logger = {
    info: () => undefined,
    warn: (event) => warnings.push(event),
    error: () => undefined,
    child: () => log,
  };
  return { log, warnings };
}

describe('CassandraInstanceCounter', () => {
  it('sends the first change of a quiet count at once', () => {
    const { session, updates } = countingSession();
    new CassandraInstanceCounter(session).add('message', 1);
    assert.deepEqual(updates, [['message', 1n]]);
  });

  it('sums a burst into one update per count, and reads its own writes', async () => {
    const { session, updates } = countingSession();
    const counter = new CassandraInstanceCounter(session);
    for (let index = 0; index < 50; index += 1) counter.add('message', 1);
    counter.add('user', 1);
    counter.add('message', -1);
    const counts = await counter.counts();
    assert.deepEqual(counts, { user: 1, guild: 0, message: 49, members: 0 });
    // The first message alone, then the other 48 summed; the user count its own first update.
    assert.deepEqual(updates, [
      ['message', 1n],
      ['user', 1n],
      ['message', 48n],
    ]);
  });

  it('sends what a window summed once the window ends, without being asked', async () => {
    let secondUpdate: () => void = () => undefined;
    const sent = new Promise<void>((resolve) => {
      secondUpdate = resolve;
    });
    const { session, updates } = countingSession(() => {
      if (updates.length === 2) secondUpdate();
    });
    const counter = new CassandraInstanceCounter(session);
    counter.add('guild', 1);
    counter.add('guild', 1);
    counter.add('guild', 1);
    await sent;
    assert.deepEqual(updates, [
      ['guild', 1n],
      ['guild', 2n],
    ]);
  });

  it("sends a window's pending changes on close", async () => {
    const { session, updates } = countingSession();
    const counter = new CassandraInstanceCounter(session);
    counter.add('guild', 1);
    counter.add('guild', 1);
    counter.add('guild', 1);
    await counter.close();
    assert.deepEqual(updates, [
      ['guild', 1n],
      ['guild', 2n],
    ]);
  });

  it('completes close when an update fails, logging the lost change', async () => {
    const { log, warnings } = warningsLog();
    const counter = new CassandraInstanceCounter(
      sessionAnswering(() => Promise.reject(new Error('no host'))),
      log,
    );
    counter.add('message', 1);
    counter.add('message', 1);
    await counter.close();
    assert.deepEqual(warnings, ['instance count update lost', 'instance count update lost']);
  });

  it('stops waiting at close for an update that never settles, and says so', async () => {
    const { log, warnings } = warningsLog();
    const counter = new CassandraInstanceCounter(
      sessionAnswering(() => new Promise<void>(() => undefined)),
      log,
    );
    counter.add('user', 1);
    await counter.close(10);
    assert.deepEqual(warnings, ['instance count updates unconfirmed at close']);
  });
});
