import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { PromMetrics } from '../../../src/metrics/PromMetrics.js';
import { meteredStores, storageLatency } from '../../../src/store/meteredStores.js';
import { parseMetrics, total } from '../../integration/metricsText.js';

/** A port with private state, as the real stores have: calls must reach it with `this` intact. */
class Users {
  readonly #rows = new Map<string, string>([['1', 'alice']]);
  get(id: string): Promise<string | undefined> {
    return Promise.resolve(this.#rows.get(id));
  }
  create(id: string): Promise<void> {
    if (this.#rows.has(id)) return Promise.reject(new Error('taken'));
    this.#rows.set(id, 'new');
    return Promise.resolve();
  }
  keyOf(id: string): string {
    return `user:${id}`;
  }
}

describe('meteredStores', () => {
  it('times each port call under port.method and outcome, passing results and errors through', async () => {
    const metrics = new PromMetrics();
    let closed = false;
    const stores = meteredStores(
      {
        users: new Users(),
        close: () => {
          closed = true;
        },
      },
      storageLatency(metrics, 'sqlite'),
    );
    assert.equal(await stores.users.get('1'), 'alice');
    assert.equal(await stores.users.get('2'), undefined);
    await stores.users.create('2');
    await assert.rejects(stores.users.create('2'), /taken/);
    assert.equal(stores.users.keyOf('3'), 'user:3'); // synchronous: passed through, not timed
    stores.close();
    assert.ok(closed);
    const samples = parseMetrics(await metrics.render());
    const count = 'chorus_storage_operation_duration_seconds_count';
    assert.equal(total(samples, count, { backend: 'sqlite', operation: 'users.get', outcome: 'ok' }), 2);
    assert.equal(total(samples, count, { operation: 'users.create', outcome: 'ok' }), 1);
    assert.equal(total(samples, count, { operation: 'users.create', outcome: 'error' }), 1);
    assert.equal(total(samples, count, { operation: 'users.keyOf' }), 0);
  });

  it('meters two backends of one node in one histogram (cluster mode: Cassandra records, Redis sessions)', async () => {
    const metrics = new PromMetrics();
    const records = meteredStores({ users: new Users() }, storageLatency(metrics, 'cassandra'));
    const sessions = meteredStores({ users: new Users() }, storageLatency(metrics, 'redis'));
    await records.users.get('1');
    await sessions.users.get('1');
    const samples = parseMetrics(await metrics.render());
    const count = 'chorus_storage_operation_duration_seconds_count';
    assert.equal(total(samples, count, { backend: 'cassandra', operation: 'users.get' }), 1);
    assert.equal(total(samples, count, { backend: 'redis', operation: 'users.get' }), 1);
  });
});
