import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { RemoteRedelivery } from '../../../cluster/RemoteRedelivery.js';
import { InternalError, ServiceUnavailableError, WrongOwnerError, type AppError } from '../../../src/domain/errors.js';
import { createLogger } from '../../../src/domain/Logger.js';

interface Sent {
  readonly node: string;
  readonly n: number;
  readonly done: (error: AppError | undefined) => void;
}

/** A router around RemoteRedelivery whose sends the test settles by hand. */
function router() {
  const members = new Set(['a', 'b', 'c']);
  const sent: Sent[] = [];
  const rerouted: number[] = [];
  const abandoned: number[] = [];
  const refreshes: number[] = [];
  const events = new EventEmitter();
  const redelivery = new RemoteRedelivery({
    isMember: (node) => members.has(node),
    refreshView: () => refreshes.push(refreshes.length + 1),
    log: createLogger('silent'),
  });
  const send = (node: string, n: number, moves = 0): void => {
    redelivery.send(
      node,
      (done) => {
        sent.push({ node, n, done });
        events.emit('sent');
      },
      {
        moves,
        reroute: (next) => {
          rerouted.push(n);
          events.emit('rerouted', next);
        },
        abandon: () => abandoned.push(n),
      },
      `message ${n}`,
    );
  };
  return { redelivery, send, members, sent, rerouted, abandoned, refreshes, events };
}

const down = (): ServiceUnavailableError => new ServiceUnavailableError('connect ECONNREFUSED');
const moved = (): WrongOwnerError => new WrongOwnerError('guild:1 is owned by d:1@2 under view 7');

describe('RemoteRedelivery', () => {
  it('sends straight through while the node takes what it is sent', () => {
    const { redelivery, send, sent } = router();
    send('b', 1);
    sent[0]?.done(undefined);
    send('b', 2);
    assert.deepEqual(
      sent.map((item) => item.n),
      [1, 2],
    );
    assert.equal(redelivery.held, 0);
  });

  it('holds what a dead node did not take, and what came after, until the view drops it; then reroutes in order', () => {
    const { redelivery, send, members, sent, rerouted } = router();
    send('c', 1);
    send('c', 2);
    sent[1]?.done(down()); // the later send fails first
    send('c', 3);
    sent[0]?.done(down());
    assert.deepEqual(
      sent.map((item) => item.n),
      [1, 2],
      'nothing more is sent to the failing node',
    );
    assert.equal(redelivery.held, 3);
    members.delete('c');
    redelivery.viewChanged();
    assert.deepEqual(rerouted, [1, 2, 3]);
    assert.equal(redelivery.held, 0);
  });

  it('reroutes at once a late failure of a node that already left the view', () => {
    const { redelivery, send, members, sent, rerouted } = router();
    send('c', 1);
    members.delete('c');
    redelivery.viewChanged();
    sent[0]?.done(down());
    assert.deepEqual(rerouted, [1]);
  });

  it('retries a node still in the view and delivers in order once it answers', async () => {
    const { redelivery, send, sent, events } = router();
    send('b', 1);
    sent[0]?.done(down());
    send('b', 2);
    await once(events, 'sent');
    assert.deepEqual(
      sent.map((item) => item.n),
      [1, 1, 2],
    );
    sent[1]?.done(undefined);
    sent[2]?.done(undefined);
    assert.equal(redelivery.held, 0);
    send('b', 3);
    assert.deepEqual(
      sent.map((item) => item.n),
      [1, 1, 2, 3],
    );
  });

  it('abandons what the node refused for another reason than being unreachable, telling whoever expected it', () => {
    const { redelivery, send, sent, rerouted, abandoned } = router();
    send('b', 1);
    sent[0]?.done(new InternalError());
    send('b', 2);
    assert.deepEqual(
      sent.map((item) => item.n),
      [1, 2],
    );
    assert.deepEqual(rerouted, []);
    assert.deepEqual(abandoned, [1]);
    assert.equal(redelivery.held, 0);
  });

  it('re-routes a send the node refused because it does not own the actor, after refreshing the view', async () => {
    const { redelivery, send, sent, rerouted, abandoned, refreshes, events } = router();
    send('b', 1);
    const rerouting = once(events, 'rerouted');
    sent[0]?.done(moved());
    assert.deepEqual(refreshes, [1], 'the view is refreshed at once');
    const [moves] = (await rerouting) as [number];
    assert.deepEqual(rerouted, [1]);
    assert.equal(moves, 1, 'the re-route is counted');
    assert.deepEqual(abandoned, []);
    assert.equal(redelivery.held, 0);
  });

  it('abandons a send still refused as moved after its bounded re-routes, telling whoever expected it', () => {
    const { send, sent, rerouted, abandoned } = router();
    send('b', 1, 10);
    sent[0]?.done(moved());
    assert.deepEqual(rerouted, []);
    assert.deepEqual(abandoned, [1]);
  });
});
