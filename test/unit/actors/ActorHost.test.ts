import assert from 'node:assert/strict';
import { Actor } from '../../../actors/runtime/Actor.js';
import type { ActorMessenger } from '../../../actors/runtime/ActorContext.js';
import { ActorHost, type ActorFactory } from '../../../actors/runtime/ActorHost.js';
import type { UserCommand, UserReply } from '../../../proto/gen/chorus/v1/user.js';
import { ManualClock } from '../../../src/domain/Clock.js';
import { WrongOwnerError } from '../../../src/domain/errors.js';
import { createLogger } from '../../../src/domain/Logger.js';
import { SnowflakeGenerator } from '../../../src/domain/snowflake.js';

/** A test actor that counts turns and records its lifecycle. */
class CountingActor extends Actor<UserCommand, UserReply> {
  turns = 0;
  constructor(
    private readonly journal: string[],
    private readonly failActivation = false,
  ) {
    super();
  }
  override async activate(): Promise<void> {
    this.journal.push('activate');
    await Promise.resolve();
    if (this.failActivation) throw new Error('storage down');
  }
  handle(): Promise<UserReply> {
    this.turns += 1;
    this.journal.push(`turn ${this.turns}`);
    return Promise.resolve({ reply: { $case: 'empty', empty: {} } });
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

function hostWith(factory: ActorFactory, clock = new ManualClock()): ActorHost {
  return new ActorHost({
    nodeId: 'test@1',
    factory,
    messenger: noMessenger,
    clock,
    log: createLogger('silent'),
    ids: new SnowflakeGenerator(1),
    options: { mailboxCapacity: 100, idleTimeoutMs: 1_000 },
  });
}

const getMe: UserCommand = { command: { $case: 'getMe', getMe: {} } };

describe('ActorHost', () => {
  it('activates an actor once, before its first turn, and queues messages behind activation', async () => {
    const journal: string[] = [];
    let created = 0;
    const host = hostWith((() => {
      created += 1;
      return new CountingActor(journal);
    }) as unknown as ActorFactory);
    await Promise.all([host.ask('user', '1', getMe), host.ask('user', '1', getMe)]);
    assert.equal(created, 1);
    assert.deepEqual(journal, ['activate', 'turn 1', 'turn 2']);
    await host.shutdown();
  });

  it('passivates an actor idle past its timeout and reactivates it on the next message', async () => {
    const journal: string[] = [];
    const clock = new ManualClock();
    const host = hostWith((() => new CountingActor(journal)) as unknown as ActorFactory, clock);
    await host.ask('user', '1', getMe);
    assert.equal(host.passivateIdle(), 0);
    clock.advance(1_001);
    assert.equal(host.passivateIdle(), 1);
    assert.equal(host.isActive('user', '1'), false);
    await host.ask('user', '1', getMe);
    assert.deepEqual(journal, ['activate', 'turn 1', 'deactivate', 'activate', 'turn 1']);
    await host.shutdown();
  });

  it('fails every queued message when activation fails, and starts afresh on the next one', async () => {
    const journal: string[] = [];
    let attempt = 0;
    const host = hostWith((() => {
      attempt += 1;
      return new CountingActor(journal, attempt === 1);
    }) as unknown as ActorFactory);
    const results = await Promise.allSettled([host.ask('user', '1', getMe), host.ask('user', '1', getMe)]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    await host.ask('user', '1', getMe);
    assert.equal(attempt, 2);
    await host.shutdown();
  });

  it('gives activate the message that caused the activation', async () => {
    const firsts: unknown[] = [];
    class FirstRecorder extends CountingActor {
      override activate(first?: UserCommand): Promise<void> {
        firsts.push(first?.command?.$case);
        return Promise.resolve();
      }
    }
    const host = hostWith((() => new FirstRecorder([])) as unknown as ActorFactory);
    await host.ask('user', '1', getMe);
    await host.ask('user', '1', { command: { $case: 'getPublic', getPublic: {} } });
    assert.deepEqual(firsts, ['getMe']);
    await host.shutdown();
  });

  it('starts no activation once shutting down (a deactivating actor may still tell others)', async () => {
    let created = 0;
    const host = hostWith((() => {
      created += 1;
      return new CountingActor([]);
    }) as unknown as ActorFactory);
    await host.ask('user', '1', getMe);
    await host.shutdown();
    await assert.rejects(host.ask('user', '2', getMe), WrongOwnerError);
    assert.throws(() => {
      host.tell('user', '3', getMe);
    }, WrongOwnerError);
    assert.equal(created, 1);
  });
});
