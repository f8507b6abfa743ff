import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  VersionConflictError,
  type MemberInfo,
  type Membership,
  type MembershipOptions,
  type MembershipTable,
  type MembershipView,
} from '../../cluster/membership/Membership.js';
import { TableMembership } from '../../cluster/membership/TableMembership.js';
import { ServiceUnavailableError } from '../../src/domain/errors.js';
import { createLogger } from '../../src/domain/Logger.js';

/** A membership backend under test: tables sharing one store, and time for heartbeat expiry. */
export interface MembershipBackend {
  /** A table over the shared store (one per node, as each node has its own connection). */
  table(): MembershipTable;
  /** Lets `ms` pass as far as heartbeat expiry goes (manual clock; in Redis, every heartbeat's PTTL shortened). */
  elapse(ms: number): Promise<void>;
}

/** Fast protocol timing for tests: a silent node leaves the others' views within about 300 ms. */
export const FAST = { heartbeatMs: 40, ttlMs: 200, refreshMs: 40, opTimeoutMs: 150 } as const;

/** A member record for `host:port@incarnation`. */
export function aMember(port: number, incarnation = 1_700_000_000_000): MemberInfo {
  return {
    nodeId: `127.0.0.1:${port}@${incarnation}`,
    grpcAddress: `127.0.0.1:${port + 1000}`,
    httpUrl: `http://127.0.0.1:${port}`,
    gatewayUrl: `ws://127.0.0.1:${port}`,
    startedAt: incarnation,
  };
}

/**
 * Resolves with the first view of `membership` (its current one, or a later one) that satisfies
 * `accept`; rejects after `timeoutMs` naming what it waited for and the last view seen.
 */
export function viewWhere(
  membership: Membership,
  accept: (view: MembershipView) => boolean,
  what: string,
  timeoutMs = 2_000,
): Promise<MembershipView> {
  if (accept(membership.current())) return Promise.resolve(membership.current());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      const seen = membership.current();
      reject(
        new Error(
          `Timed out after ${timeoutMs} ms waiting for ${what}; last view v${seen.version} [${seen.members.join(', ')}]`,
        ),
      );
    }, timeoutMs);
    const stop = membership.onChange((view) => {
      if (!accept(view)) return;
      clearTimeout(timer);
      stop();
      resolve(view);
    });
  });
}

/** A table whose connection can be cut, as a partition or a paused process would cut it. */
export class SeverableTable implements MembershipTable {
  cut = false;

  constructor(private readonly inner: MembershipTable) {}

  heartbeat(member: MemberInfo, ttlMs: number): Promise<void> {
    return this.#pass(() => this.inner.heartbeat(member, ttlMs));
  }
  remove(nodeId: string): Promise<void> {
    return this.#pass(() => this.inner.remove(nodeId));
  }
  read(): Promise<MembershipView> {
    return this.#pass(() => this.inner.read());
  }
  reconcile(expectedVersion: number, floor?: number): Promise<MembershipView> {
    return this.#pass(() => this.inner.reconcile(expectedVersion, floor));
  }
  watch(listener: (version: number) => void): Promise<() => Promise<void>> {
    return this.#pass(() =>
      this.inner.watch((version) => {
        if (!this.cut) listener(version);
      }),
    );
  }

  #pass<T>(operation: () => Promise<T>): Promise<T> {
    return this.cut ? Promise.reject(new ServiceUnavailableError('connection cut')) : operation();
  }
}

const silent = createLogger('silent');

/**
 * The membership contract (DESIGN §3, STYLE S5), run unchanged against the in-memory table (unit/)
 * and Redis (integration/): the table's compare-and-set, and the protocol of several nodes over it.
 */
export function membershipContract(create: () => Promise<MembershipBackend>): void {
  let backend: MembershipBackend;
  const started: Membership[] = [];
  let port = 20_000 + (randomBytes(2).readUInt16BE() % 20_000);

  beforeEach(async () => {
    backend = await create();
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((membership) => membership.stop()));
  });

  /** Starts a node over its own severable connection to the shared table. */
  async function node(
    self = aMember((port += 1)),
    timing: MembershipOptions = FAST,
  ): Promise<{ membership: Membership; link: SeverableTable; self: MemberInfo }> {
    const link = new SeverableTable(backend.table());
    const membership = new TableMembership(link, timing, silent);
    started.push(membership);
    await membership.start(self);
    return { membership, link, self };
  }

  describe('table', () => {
    it('rejects a view write made against a stale version and keeps the newer view', async () => {
      const table = backend.table();
      const before = await table.read();
      await table.heartbeat(aMember((port += 1)), 5_000);
      const written = await table.reconcile(before.version);
      assert.ok(written.version > before.version);
      await table.heartbeat(aMember((port += 1)), 5_000);
      await assert.rejects(table.reconcile(before.version), VersionConflictError);
      assert.deepEqual(await table.read(), written);
    });

    it('keeps the version when the live set has not changed', async () => {
      const table = backend.table();
      await table.heartbeat(aMember((port += 1)), 5_000);
      const first = await table.reconcile((await table.read()).version);
      assert.equal((await table.reconcile(first.version)).version, first.version);
    });

    it('drops an expired heartbeat at the next sweep, under a higher version', async () => {
      const table = backend.table();
      const gone = aMember((port += 1));
      const stays = aMember((port += 1));
      await table.heartbeat(gone, 1_000);
      await table.heartbeat(stays, 5_000);
      const both = await table.reconcile((await table.read()).version);
      assert.ok(both.members.includes(gone.nodeId) && both.members.includes(stays.nodeId));
      await backend.elapse(1_001);
      const after = await table.reconcile(both.version);
      assert.ok(after.version > both.version);
      assert.ok(!after.members.includes(gone.nodeId) && after.members.includes(stays.nodeId));
      assert.deepEqual(
        after.nodes.find((info) => info.nodeId === stays.nodeId),
        stays,
      );
    });

    it('lifts the version above a floor (a table that lost its data never goes back)', async () => {
      const table = backend.table();
      const { version } = await table.read();
      const lifted = await table.reconcile(version, version + 10);
      assert.equal(lifted.version, version + 11);
    });

    it('announces each new version to watchers', async () => {
      const table = backend.table();
      let heard: (version: number) => void = () => undefined;
      const announced = new Promise<number>((resolve, reject) => {
        heard = resolve;
        setTimeout(() => {
          reject(new Error('Timed out after 2000 ms waiting for the announcement of the new view'));
        }, 2_000).unref();
      });
      const unwatch = await table.watch((version) => {
        heard(version);
      });
      announced.catch(() => undefined); // observed below; a failure before that must not go unhandled
      try {
        await table.heartbeat(aMember((port += 1)), 5_000);
        const written = await table.reconcile((await table.read()).version);
        assert.equal(await announced, written.version);
      } finally {
        await unwatch();
      }
    });
  });

  describe('protocol', () => {
    it('gives every node the same view once all have joined', async () => {
      const nodes = [await node(), await node(), await node()];
      const ids = nodes.map((n) => n.self.nodeId).sort();
      const all = (view: MembershipView): boolean => ids.every((id) => view.members.includes(id));
      const views = await Promise.all(
        nodes.map((n) => viewWhere(n.membership, all, `all three members at ${n.self.nodeId}`)),
      );
      const newest = Math.max(...views.map((view) => view.version));
      const settled = await Promise.all(
        nodes.map((n) =>
          viewWhere(n.membership, (view) => view.version >= newest, `version ${newest} at ${n.self.nodeId}`),
        ),
      );
      for (const view of settled) assert.deepEqual(view.members, ids);
      assert.equal(new Set(settled.map((view) => view.version)).size, 1, 'one version everywhere');
      assert.ok(nodes.every((n) => n.membership.healthy()));
    });

    it('drops a node that stops heartbeating from the others within ttl + refresh, under a higher version', async () => {
      const [a, b, c] = [await node(), await node(), await node()];
      const [before] = await Promise.all(
        [a, b].map((n) =>
          viewWhere(n.membership, (view) => view.members.includes(c.self.nodeId), `${n.self.nodeId} to see c join`),
        ),
      );
      const cutAt = performance.now();
      c.link.cut = true;
      const [atA, atB] = await Promise.all(
        [a, b].map((n) =>
          viewWhere(
            n.membership,
            (view) => !view.members.includes(c.self.nodeId),
            `${n.self.nodeId} to drop ${c.self.nodeId}`,
          ),
        ),
      );
      const noticedMs = performance.now() - cutAt;
      assert.ok(
        noticedMs <= FAST.ttlMs + FAST.refreshMs + FAST.heartbeatMs + 200,
        `dropped after ${Math.round(noticedMs)} ms`,
      );
      const joinedAt = before?.version ?? Number.POSITIVE_INFINITY;
      assert.ok((atA?.version ?? 0) > joinedAt && (atB?.version ?? 0) > joinedAt, 'the drop has a higher version');
      assert.equal(c.membership.healthy(), false, 'the cut node reports unhealthy');
      assert.ok(c.membership.current().members.includes(c.self.nodeId), 'the cut node keeps its last view');
      assert.ok(c.membership.heartbeatAgeMs() >= FAST.ttlMs);
    });

    it('takes a node back by itself once its connection heals', async () => {
      const [a, c] = [await node(), await node()];
      await viewWhere(a.membership, (view) => view.members.includes(c.self.nodeId), 'c to join');
      c.link.cut = true;
      await viewWhere(a.membership, (view) => !view.members.includes(c.self.nodeId), 'the cut node to leave');
      c.link.cut = false;
      const back = await viewWhere(
        a.membership,
        (view) => view.members.includes(c.self.nodeId),
        'the healed node to rejoin',
      );
      await viewWhere(c.membership, (view) => view.version >= back.version, 'the healed node to catch up');
      assert.equal(c.membership.healthy(), true);
    });

    it('shows a graceful leave to the others before its heartbeat would expire', async () => {
      // A long ttl: a leave noticed before it passes was announced, not found by a sweep.
      const slow = { ...FAST, ttlMs: 3_000 };
      const [a, b] = [await node(undefined, slow), await node(undefined, slow)];
      await viewWhere(a.membership, (view) => view.members.includes(b.self.nodeId), 'b to join');
      const leftAt = performance.now();
      await b.membership.stop();
      await viewWhere(a.membership, (view) => !view.members.includes(b.self.nodeId), 'b to leave', slow.ttlMs);
      assert.ok(performance.now() - leftAt < slow.ttlMs, 'the leave came before the heartbeat expired');
    });

    it('treats a restarted node (a new incarnation) as a new member', async () => {
      const a = await node();
      const old = await node(aMember((port += 1), 1_000));
      const seen = await viewWhere(
        a.membership,
        (view) => view.members.includes(old.self.nodeId),
        'the first incarnation',
      );
      old.link.cut = true; // crashed, not a graceful leave
      const restarted = await node({ ...aMember(port, 2_000) });
      assert.notEqual(restarted.self.nodeId, old.self.nodeId);
      const view = await viewWhere(
        a.membership,
        (v) => v.members.includes(restarted.self.nodeId) && !v.members.includes(old.self.nodeId),
        'the new incarnation in, the old one out',
      );
      assert.ok(view.version > seen.version);
    });

    it('refuses to start when the table cannot be reached', async () => {
      const link = new SeverableTable(backend.table());
      link.cut = true;
      const membership = new TableMembership(link, FAST, silent);
      await assert.rejects(membership.start(aMember((port += 1))), ServiceUnavailableError);
      assert.equal(membership.healthy(), false);
    });
  });
}
