import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import type { ActorKind, CommandOf, ReplyOf } from '../../../actors/runtime/ActorKind.js';
import { SessionDelivery, type SessionHost } from '../../../cluster/SessionDelivery.js';
import type { DispatchEvent } from '../../../proto/gen/chorus/v1/common.js';
import { ActorOverloadedError, UnknownEntityError, WrongOwnerError } from '../../../src/domain/errors.js';
import { createLogger } from '../../../src/domain/Logger.js';

const event = (n: number): DispatchEvent => ({ event: 'MESSAGE_CREATE', dataJson: `{"n":${n}}`, intent: 0 });
const numberOf = (command: unknown): number | string => {
  const body = (command as CommandOf<'session'>).command;
  if (body?.$case === 'dispatch') return (JSON.parse(body.dispatch.dataJson) as { n: number }).n;
  return body?.$case ?? 'none';
};

interface Asked {
  readonly key: string;
  readonly command: CommandOf<'session'>;
  resolve(): void;
  reject(error: Error): void;
}

/** A host whose sessions' activations the test settles by hand. */
class FakeHost implements SessionHost {
  readonly active = new Set<string>();
  readonly asked: Asked[] = [];
  readonly told: { key: string; what: number | string }[] = [];
  readonly evicted: string[] = [];
  readonly events = new EventEmitter();
  full = new Set<string>();
  /** Active sessions evicted before they run what they are sent (their lease was lost). */
  evicting = new Set<string>();

  /** Active sessions with an idle mailbox: they take a dispatch at once (Actor.serveNow). */
  readonly idle = new Set<string>();

  serveActive<K extends ActorKind>(
    kind: K,
    key: string,
    command: CommandOf<K>,
  ): Promise<ReplyOf<K>> | true | undefined {
    if (this.idle.has(key)) {
      this.told.push({ key, what: numberOf(command) });
      return true;
    }
    return this.active.has(key) ? this.ask(kind, key, command) : undefined;
  }
  tell<K extends ActorKind>(_kind: K, key: string, command: CommandOf<K>): void {
    if (this.full.has(key) && numberOf(command) !== 'invalidate') throw new ActorOverloadedError();
    this.told.push({ key, what: numberOf(command) });
  }
  ask<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>): Promise<ReplyOf<K>> {
    if (this.evicting.has(key)) return Promise.reject(new WrongOwnerError(`session:${key} is no longer owned`));
    if (this.active.has(key)) {
      // An active session runs the event at once (the test settles activations only).
      try {
        this.tell(kind, key, command);
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      return Promise.resolve({ reply: { $case: 'empty', empty: {} } } as ReplyOf<K>);
    }
    return new Promise((resolve, reject) => {
      this.asked.push({
        key,
        command: command as CommandOf<'session'>,
        resolve: () => {
          this.active.add(key);
          resolve({ reply: { $case: 'empty', empty: {} } } as ReplyOf<K>);
        },
        reject,
      });
      this.events.emit('ask');
    });
  }
  evict(_kind: ActorKind, key: string): boolean {
    this.evicted.push(key);
    return this.active.delete(key);
  }
}

function delivery(host: FakeHost, owns: () => boolean = () => true) {
  const forgotten: [string, readonly string[]][] = [];
  const rerouted: [string, number | string, string][] = [];
  const sessions = new SessionDelivery({
    host,
    log: createLogger('silent'),
    owns,
    reroute: (sessionId, dispatched, source) => {
      rerouted.push([sessionId, numberOf({ command: { $case: 'dispatch', dispatch: dispatched } }), source]);
      host.events.emit('rerouted');
    },
    forget: (source, ids) => forgotten.push([source, ids]),
  });
  return { sessions, forgotten, rerouted };
}

/** Lets the microtasks of a settled ask run. */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('SessionDelivery', () => {
  it('tells an active session at once', () => {
    const host = new FakeHost();
    host.active.add('s1');
    void delivery(host).sessions.deliver(['s1'], event(1), 'guild:1');
    assert.deepEqual(host.told, [{ key: 's1', what: 1 }]);
    assert.equal(host.asked.length, 0);
  });

  it('hands an event to an idle session at once, and settles the batch once its other sessions took it too', async () => {
    const host = new FakeHost();
    host.idle.add('s1');
    let settledBatch = false;
    void delivery(host)
      .sessions.deliver(['s1', 's2'], event(1), 'guild:1')
      .then(() => (settledBatch = true));
    assert.deepEqual(host.told, [{ key: 's1', what: 1 }]);
    await settled();
    assert.equal(settledBatch, false, 's2 is still activating');
    host.asked[0]?.resolve();
    await settled();
    assert.equal(settledBatch, true);
  });

  it('activates an inactive session with its first event and holds the later ones until it is through', async () => {
    const host = new FakeHost();
    const { sessions } = delivery(host);
    for (const n of [1, 2, 3]) void sessions.deliver(['s1'], event(n), 'guild:1');
    assert.deepEqual(
      host.asked.map((ask) => numberOf(ask.command)),
      [1],
    );
    assert.equal(host.told.length, 0);
    host.asked[0]?.resolve();
    await settled();
    void sessions.deliver(['s1'], event(4), 'guild:1');
    assert.deepEqual(
      host.told.map((told) => told.what),
      [2, 3, 4],
    );
    assert.equal(sessions.activating, 0);
  });

  it('drops the events of a session the store does not know and tells every source to forget it', async () => {
    const host = new FakeHost();
    const { sessions, forgotten } = delivery(host);
    void sessions.deliver(['gone'], event(1), 'guild:1');
    void sessions.deliver(['gone'], event(2), 'user:7');
    host.asked[0]?.reject(new UnknownEntityError('session'));
    await settled();
    assert.deepEqual(forgotten, [
      ['guild:1', ['gone']],
      ['user:7', ['gone']],
    ]);
    assert.equal(host.told.length, 0);
  });

  it('retries an activation refused while the dead owner’s lease lives, keeping the order', async () => {
    const host = new FakeHost();
    const { sessions } = delivery(host);
    void sessions.deliver(['s1'], event(1), 'guild:1');
    host.asked[0]?.reject(new WrongOwnerError('session:s1 is active on another node'));
    const retried = once(host.events, 'ask');
    void sessions.deliver(['s1'], event(2), 'guild:1');
    await retried;
    assert.deepEqual(
      host.asked.map((ask) => numberOf(ask.command)),
      [1, 1],
    );
    host.asked[1]?.resolve();
    await settled();
    assert.deepEqual(
      host.told.map((told) => told.what),
      [2],
    );
  });

  it('forwards the held events to the new owner when the session moved meanwhile', async () => {
    const host = new FakeHost();
    let owned = true;
    const { sessions, rerouted } = delivery(host, () => owned);
    void sessions.deliver(['s1'], event(1), 'guild:1');
    void sessions.deliver(['s1'], event(2), 'guild:1');
    owned = false;
    const forwarded = once(host.events, 'rerouted');
    host.asked[0]?.reject(new WrongOwnerError('moved'));
    await forwarded;
    assert.deepEqual(rerouted, [
      ['s1', 1, 'guild:1'],
      ['s1', 2, 'guild:1'],
    ]);
  });

  it('invalidates a session whose mailbox is full instead of dropping the event silently', async () => {
    const host = new FakeHost();
    host.active.add('s1');
    host.full.add('s1');
    await delivery(host).sessions.deliver(['s1'], event(1), 'guild:1');
    assert.deepEqual(host.evicted, ['s1']);
    assert.deepEqual(host.told, [{ key: 's1', what: 'invalidate' }]);
  });

  it('invalidates a session that piles up more held events than a mailbox holds', () => {
    const host = new FakeHost();
    const { sessions } = delivery(host);
    for (let n = 0; n <= 10_000; n += 1) void sessions.deliver(['s1'], event(n), 'guild:1');
    assert.deepEqual(host.evicted, ['s1']);
    assert.deepEqual(host.told, [{ key: 's1', what: 'invalidate' }]);
  });

  it('settles a batch only once the activating session ran its event', async () => {
    const host = new FakeHost();
    let settled = false;
    const taking = delivery(host)
      .sessions.deliver(['s1'], event(1), 'guild:1')
      .then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false, 'the sender does not get its acknowledgement while the event only waits');
    host.asked[0]?.resolve();
    await taking;
    assert.equal(settled, true);
  });

  it('re-routes an event whose active session was evicted before running it', async () => {
    const host = new FakeHost();
    host.active.add('s1');
    host.evicting.add('s1');
    const { sessions, rerouted } = delivery(host);
    await sessions.deliver(['s1'], event(7), 'guild:1');
    assert.deepEqual(rerouted, [['s1', 7, 'guild:1']]);
  });
});
