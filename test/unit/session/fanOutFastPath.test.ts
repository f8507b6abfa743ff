import assert from 'node:assert/strict';
import type { ActorMessenger } from '../../../actors/runtime/ActorContext.js';
import { ActorHost, type ActorFactory } from '../../../actors/runtime/ActorHost.js';
import { SessionActor } from '../../../actors/session/SessionActor.js';
import { SessionDelivery } from '../../../cluster/SessionDelivery.js';
import type { DispatchEvent } from '../../../proto/gen/chorus/v1/common.js';
import type { SessionCommand } from '../../../proto/gen/chorus/v1/session.js';
import { createLogger } from '../../../src/domain/Logger.js';
import { SnowflakeGenerator } from '../../../src/domain/snowflake.js';
import { InMemorySessionStore } from '../../../src/store/memory/InMemorySessionStore.js';
import { FakeContext, identifyCommand, SECRET, token } from './FakeSessionContext.js';

// A fan-out reaches an idle session without a mailbox turn (Actor.serveNow): these run the real host,
// SessionDelivery, Session actors and in-memory store, and check what clients see of the two paths mixed.

const SESSION = 's'.repeat(32);
const log = createLogger('silent');
const socket = (socketId: string) => ({ nodeId: 'node@1', socketId });
const event = (n: number): DispatchEvent => ({ event: 'MESSAGE_CREATE', dataJson: `{"n":${n}}`, intent: 0 });
const identify = identifyCommand('node@1');
const resume = (socketId: string, seq: number): SessionCommand => ({
  command: { $case: 'resume', resume: { socket: socket(socketId), token, seq: String(seq) } },
});
const detach = (socketId: string): SessionCommand => ({
  command: { $case: 'detach', detach: { socketId, invalidate: false } },
});

/** One node's sessions: its User and Guild actors scripted by FakeContext, whose asks the test may hold. */
class Node {
  readonly world = new FakeContext();
  readonly store = new InMemorySessionStore(this.world.clock);
  #gate: Promise<void> | undefined;
  readonly host: ActorHost;
  readonly delivery: SessionDelivery;

  constructor() {
    const messenger: ActorMessenger = {
      ask: async (kind, key, command) => {
        if (this.#gate) await this.#gate;
        return this.world.ask(kind, key, command);
      },
      tell: (kind, key, command) => {
        this.world.tell(kind, key, command);
      },
      fanOut: () => undefined,
      pushFrames: (nodeId, socketId, frames, closeCode) => {
        this.world.pushFrames(nodeId, socketId, frames, closeCode);
      },
      livesHere: () => true,
    };
    const options = { resumeWindowMs: 60_000, resumeBufferSize: 100, tokenSecret: SECRET, gatewayUrl: 'ws://gw' };
    const factory = ((_kind, _key, ctx) => new SessionActor(ctx, options, this.store)) as ActorFactory;
    this.host = new ActorHost({
      nodeId: 'node@1',
      factory,
      messenger,
      clock: this.world.clock,
      log,
      ids: new SnowflakeGenerator(1),
      options: { mailboxCapacity: 100, idleTimeoutMs: 60_000 },
    });
    this.delivery = new SessionDelivery({
      host: this.host,
      log,
      owns: () => true,
      reroute: () => assert.fail('nothing moves here'),
      forget: () => assert.fail('the session exists'),
    });
  }

  /** Holds every ask to the User and Guild actors until the returned release is called. */
  hold(): () => void {
    let release = (): void => undefined;
    this.#gate = new Promise((resolve) => (release = resolve));
    return () => {
      this.#gate = undefined;
      release();
    };
  }

  deliver(...numbers: number[]): Promise<void> {
    return Promise.all(numbers.map((n) => this.delivery.deliver([SESSION], event(n), 'guild:1'))).then(() => undefined);
  }

  /** `[event or n, seq]` of every dispatch a socket got, in order. */
  seen(socketId: string): [string | number, number][] {
    return this.world
      .framesTo(socketId)
      .map((frame) => [frame.t === 'MESSAGE_CREATE' ? (frame.d['n'] as number) : frame.t, frame.s]);
  }
}

describe('Fan-out to active sessions without a mailbox turn', () => {
  it('queues an event behind a turn still running, so it never overtakes what the session does first', async () => {
    const node = new Node();
    await node.host.ask('session', SESSION, identify);
    await node.deliver(1);
    const [, e1Seq] = node.seen('s1').at(-1) ?? assert.fail('event 1 reached no socket');
    const release = node.hold();
    const resumed = node.host.ask('session', SESSION, resume('s2', e1Seq)); // waits on its token check
    const delivered = node.deliver(2, 3);
    assert.deepEqual(node.seen('s2'), [], 'events 2 and 3 wait for the resume turn');
    release();
    await Promise.all([resumed, delivered]);
    await node.deliver(4);
    assert.deepEqual(node.seen('s2'), [
      ['RESUMED', e1Seq + 1],
      [2, e1Seq + 2],
      [3, e1Seq + 3],
      [4, e1Seq + 4],
    ]);
    assert.equal(
      node.seen('s1').some(([what]) => what === 2),
      false,
      'the old socket got nothing after the resume began',
    );
    await node.host.shutdown();
  });

  it('replays on Resume exactly the events delivered since the client last saw, from memory and from the store', async () => {
    const node = new Node();
    await node.host.ask('session', SESSION, identify);
    await node.deliver(1, 2, 3, 4, 5);
    const seen = node.seen('s1');
    const [, lastSeen] = seen.find(([what]) => what === 2) ?? assert.fail('event 2 reached no socket');
    await node.host.ask('session', SESSION, detach('s1'));
    await node.deliver(6); // while detached: kept for replay only
    await node.host.ask('session', SESSION, resume('s2', lastSeen));
    const missed = [
      [3, lastSeen + 1],
      [4, lastSeen + 2],
      [5, lastSeen + 3],
      [6, lastSeen + 4],
    ];
    assert.deepEqual(node.seen('s2'), [...missed, ['RESUMED', lastSeen + 5]]);
    // A new activation (this one passivated or its node died) serves the same Resume from the store alone.
    node.host.evict('session', SESSION);
    await node.host.ask('session', SESSION, resume('s3', lastSeen));
    assert.deepEqual(node.seen('s3'), [...missed, ['RESUMED', lastSeen + 6]]);
    await node.host.shutdown();
  });
});
