import assert from 'node:assert/strict';
import { IdentifyQueue } from '../../../src/gateway/IdentifyQueue.js';

/** A piece of work the test finishes by hand. */
function gate(): { promise: Promise<string>; open: (value: string) => void; fail: (error: Error) => void } {
  let open!: (value: string) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<string>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('IdentifyQueue', () => {
  it('runs at most its limit at once and starts the waiting ones in order as places free', async () => {
    const queue = new IdentifyQueue(2);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const results = gates.map((g, index) =>
      queue.run(() => {
        started.push(index);
        return g.promise;
      }),
    );
    assert.deepEqual(started, [0, 1]);
    assert.equal(queue.waiting, 2);
    gates[1]?.open('one');
    assert.equal(await results[1], 'one');
    await turn();
    assert.deepEqual(started, [0, 1, 2]);
    gates[0]?.fail(new Error('refused'));
    await assert.rejects(results[0] as Promise<string>, /refused/);
    await turn();
    assert.deepEqual(started, [0, 1, 2, 3]);
    assert.equal(queue.waiting, 0);
    gates[2]?.open('two');
    gates[3]?.open('three');
    assert.deepEqual(await Promise.all(results.slice(2)), ['two', 'three']);
  });

  it('keeps the order and the waiting count through a backlog long enough to compact its array', async () => {
    const queue = new IdentifyQueue(1);
    const total = 3_000;
    const started: number[] = [];
    const waitingAtStart: number[] = [];
    const runs = Array.from({ length: total }, (_, index) =>
      queue.run(() => {
        started.push(index);
        waitingAtStart.push(queue.waiting);
        return Promise.resolve(index);
      }),
    );
    assert.deepEqual(await Promise.all(runs), [...started.keys()]);
    assert.deepEqual(started, [...started.keys()]);
    // The first starts at once, before the others are queued; each later one leaves the ones behind it waiting.
    assert.deepEqual(
      waitingAtStart,
      started.map((index) => (index === 0 ? 0 : total - 1 - index)),
    );
  });

  it('starts the next waiting identify in a later event-loop turn, not in the microtasks of the one that ended', async () => {
    const queue = new IdentifyQueue(1);
    const started: string[] = [];
    const first = queue.run(async () => {
      started.push('first');
      await Promise.resolve();
    });
    const second = queue.run(async () => {
      started.push('second');
      await Promise.resolve();
    });
    await first;
    for (let i = 0; i < 10; i += 1) await Promise.resolve();
    // Sockets' frames (heartbeats) are read in between: the second has not started within the same microtasks.
    assert.deepEqual(started, ['first']);
    await second;
    assert.deepEqual(started, ['first', 'second']);
  });

  it('frees its place when work fails, so a later identify still runs', async () => {
    const queue = new IdentifyQueue(1);
    await assert.rejects(queue.run(() => Promise.reject(new Error('store down'))));
    assert.equal(await queue.run(() => Promise.resolve('ok')), 'ok');
  });
});
