import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { Actor } from '../../../actors/runtime/Actor.js';
import { ActorHost } from '../../../actors/runtime/ActorHost.js';
import { Mailbox } from '../../../actors/runtime/Mailbox.js';
import type { UserCommand, UserReply } from '../../../proto/gen/chorus/v1/user.js';
import { ManualClock } from '../../../src/domain/Clock.js';
import { createLogger } from '../../../src/domain/Logger.js';
import { SnowflakeGenerator } from '../../../src/domain/snowflake.js';
import { PromMetrics } from '../../../src/metrics/PromMetrics.js';
import { parseMetrics, total } from '../../integration/metricsText.js';

/** Answers each command after `release` is called, so messages pile up in its mailbox meanwhile. */
class GatedActor extends Actor<UserCommand, UserReply> {
  constructor(private readonly gate: Promise<void>) {
    super();
  }
  async handle(): Promise<UserReply> {
    await this.gate;
    return { reply: { $case: 'empty', empty: {} } };
  }
}

const getMe: UserCommand = { command: { $case: 'getMe', getMe: {} } };

describe('actor host metrics', () => {
  it('samples one mailbox wait in sixteen, counted across mailboxes', async () => {
    const metrics = new PromMetrics();
    const wait = metrics.histogram({ name: 'wait_seconds', help: 'wait', buckets: [1] }).labels();
    const boxes = Array.from(
      { length: 4 },
      () =>
        new Mailbox<number, number>(
          (n) => Promise.resolve(n),
          100,
          () => undefined,
          wait,
        ),
    );
    await Promise.all(Array.from({ length: 64 }, (_, n) => (boxes[n % 4] as Mailbox<number, number>).ask(n)));
    assert.equal(total(parseMetrics(await metrics.render()), 'wait_seconds_count'), 4);
  });

  it('reports activations by kind and state, mailbox depth and fan-out sizes', async () => {
    const metrics = new PromMetrics();
    let open = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const host = new ActorHost({
      nodeId: 'test@1',
      factory: (_kind, _key, ctx) => {
        ctx.fanOut(['a', 'b', 'c'], { event: 'TYPING_START', dataJson: '{}' } as never);
        return new GatedActor(gate) as never;
      },
      messenger: {
        ask: () => Promise.reject(new Error('not used')),
        tell: () => undefined,
        fanOut: () => undefined,
        pushFrames: () => undefined,
        livesHere: () => true,
      },
      clock: new ManualClock(),
      log: createLogger('silent'),
      ids: new SnowflakeGenerator(1),
      options: { mailboxCapacity: 100, idleTimeoutMs: 60_000 },
      metrics,
    });
    const replies = [host.ask('user', '1', getMe), host.ask('user', '1', getMe), host.ask('user', '1', getMe)];
    void host.ask('user', '2', getMe);
    await new Promise((resolve) => setImmediate(resolve));
    const samples = parseMetrics(await metrics.render());
    assert.equal(total(samples, 'chorus_actors_active', { kind: 'user', state: 'active' }), 2);
    assert.equal(total(samples, 'chorus_actors_active', { kind: 'guild', state: 'active' }), 0);
    assert.equal(total(samples, 'chorus_actor_activations_total', { kind: 'user' }), 2);
    assert.equal(total(samples, 'chorus_actor_mailbox_depth', { kind: 'user', of: 'sum' }), 2);
    assert.equal(total(samples, 'chorus_actor_mailbox_depth', { kind: 'user', of: 'max' }), 2);
    assert.equal(total(samples, 'chorus_dispatch_fanout_sessions_sum', { kind: 'user' }), 6);
    open();
    await Promise.all(replies);
    await host.shutdown();
  });
});
