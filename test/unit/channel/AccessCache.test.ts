import assert from 'node:assert/strict';
import { ACCESS_CACHE_USERS, ACCESS_MAX_AGE_MS, AccessCache } from '../../../actors/channel/AccessCache.js';
import type { Access } from '../../../actors/channel/channelAccess.js';
import { ChannelActor } from '../../../actors/channel/ChannelActor.js';
import type { ActorContext } from '../../../actors/runtime/ActorContext.js';
import type { ActorKind, CommandOf, ReplyOf } from '../../../actors/runtime/ActorKind.js';
import type { Stores } from '../../../actors/runtime/ports/stores.js';
import type { ChannelReply } from '../../../proto/gen/chorus/v1/channel.js';
import type { ChannelAccessReply, GuildCommand, GuildReply } from '../../../proto/gen/chorus/v1/guild.js';
import { ManualClock } from '../../../src/domain/Clock.js';
import { createLogger } from '../../../src/domain/Logger.js';
import { Permission } from '../../../src/domain/permissions.js';
import { SnowflakeGenerator } from '../../../src/domain/snowflake.js';
import { createSqliteStores } from '../../../src/store/sqlite/createSqliteStores.js';
import { aChannel } from '../../contract/records.js';
import { InMemoryBlobStore } from '../../../src/store/memory/InMemoryBlobStore.js';

const NOW = 1_700_000_000_000;

function access(userId: string): Access {
  return { userId, permissions: Permission.VIEW_CHANNEL, member: true, memberJson: '' };
}

function reply(version: number, validUntilMs = 0): ChannelAccessReply {
  const permissions = Permission.VIEW_CHANNEL.toString();
  return { permissions, member: true, version: String(version), memberJson: '', validUntilMs: String(validUntilMs) };
}

describe('AccessCache', () => {
  it('keeps a snapshot until it is ACCESS_MAX_AGE_MS old', () => {
    const cache = new AccessCache();
    assert.equal(cache.put(access('u1'), reply(5), NOW), true);
    assert.equal(cache.get('u1', NOW + ACCESS_MAX_AGE_MS - 1)?.userId, 'u1');
    assert.equal(cache.get('u1', NOW + ACCESS_MAX_AGE_MS), undefined);
  });

  it('keeps a snapshot with valid_until_ms only until then, and none already past it', () => {
    const cache = new AccessCache();
    cache.put(access('u1'), reply(5, NOW + 1_000), NOW);
    assert.notEqual(cache.get('u1', NOW + 999), undefined);
    assert.equal(cache.get('u1', NOW + 1_000), undefined);
    assert.equal(cache.put(access('u2'), reply(5, NOW), NOW), false);
  });

  it('drops one user on a user invalidation, everyone on a full one', () => {
    const cache = new AccessCache();
    cache.put(access('u1'), reply(5), NOW);
    cache.put(access('u2'), reply(5), NOW);
    cache.invalidate('6', 'u1', NOW);
    assert.equal(cache.get('u1', NOW), undefined);
    assert.notEqual(cache.get('u2', NOW), undefined);
    cache.invalidate('7', '', NOW);
    assert.equal(cache.size, 0);
  });

  it('does not keep a reply older than an invalidation already received', () => {
    const cache = new AccessCache();
    cache.invalidate('10', 'u1', NOW);
    assert.equal(cache.put(access('u2'), reply(9), NOW), false, 'any user: the version is the whole guild’s');
    assert.equal(cache.put(access('u1'), reply(10), NOW), true);
  });

  it('forgets the invalidation version after ACCESS_MAX_AGE_MS (a Guild re-activated on a slower clock)', () => {
    const cache = new AccessCache();
    cache.invalidate('10', '', NOW);
    assert.equal(cache.put(access('u1'), reply(3), NOW + ACCESS_MAX_AGE_MS - 1), false);
    assert.equal(cache.put(access('u1'), reply(3), NOW + ACCESS_MAX_AGE_MS), true);
  });

  it(`keeps at most ${ACCESS_CACHE_USERS} users, evicting the oldest fetched`, () => {
    const cache = new AccessCache();
    for (let i = 0; i <= ACCESS_CACHE_USERS; i += 1) cache.put(access(`u${i}`), reply(1), NOW);
    assert.equal(cache.size, ACCESS_CACHE_USERS);
    assert.equal(cache.get('u0', NOW), undefined);
    assert.notEqual(cache.get(`u${ACCESS_CACHE_USERS}`, NOW), undefined);
  });
});

/** A Guild snapshot letting the user read and write. */
function snapshot(version: number): ChannelAccessReply {
  const permissions = (Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES).toString();
  return { permissions, member: true, version: String(version), memberJson: '', validUntilMs: '0' };
}

/** A channel's context whose Guild answers channel_access only when the test releases the reply. */
class SlowGuildContext implements ActorContext {
  readonly kind = 'channel' as const;
  readonly nodeId = 'node@1';
  readonly clock = new ManualClock(NOW);
  readonly log = createLogger('silent');
  readonly ids = new SnowflakeGenerator(4);
  readonly pending: ((reply: ChannelAccessReply) => void)[] = [];
  asks = 0;
  /** When set, asks are answered at once with this version. */
  answerAtOnce: number | undefined;
  #onAsk: (() => void) | undefined;

  constructor(readonly key: string) {}

  ask<K extends ActorKind>(kind: K, _key: string, command: CommandOf<K>): Promise<ReplyOf<K>> {
    if (kind !== 'guild' || (command as GuildCommand).command?.$case !== 'channelAccess') {
      return Promise.reject(new Error(`unexpected ask of ${kind}`));
    }
    this.asks += 1;
    return new Promise((resolve) => {
      if (this.answerAtOnce !== undefined) {
        const answer: GuildReply = { reply: { $case: 'channelAccess', channelAccess: snapshot(this.answerAtOnce) } };
        resolve(answer as ReplyOf<K>);
        return;
      }
      this.pending.push((channelAccess) => {
        const answer: GuildReply = { reply: { $case: 'channelAccess', channelAccess } };
        resolve(answer as ReplyOf<K>);
      });
      this.#onAsk?.();
    });
  }
  tell(): void {
    // MESSAGE_CREATE dispatches to the Guild are not looked at here
  }
  fanOut(): void {
    throw new Error('channels do not fan out');
  }
  pushFrames(): void {
    throw new Error('channels push no frames');
  }
  livesHere(): boolean {
    return true;
  }
  tellSelfAfter(): () => void {
    return () => undefined;
  }
  stopSelf(): void {
    throw new Error('unexpected stop');
  }

  evictSelf(): void {
    throw new Error('unexpected eviction');
  }

  /** Waits for the channel's next channel_access ask and answers it. */
  async answer(version: number): Promise<void> {
    if (this.pending.length === 0) await new Promise<void>((resolve) => (this.#onAsk = resolve));
    this.pending.shift()?.(snapshot(version));
  }
}

describe('ChannelActor access snapshots', () => {
  let stores: Stores;
  afterEach(() => stores.close());

  it('uses but does not cache a Guild reply that arrives after a newer invalidation', async () => {
    stores = createSqliteStores(':memory:');
    const channel = aChannel();
    await stores.channels.save(channel);
    const ctx = new SlowGuildContext(channel.id);
    const actor = new ChannelActor(ctx, stores, new InMemoryBlobStore());
    await actor.activate();
    const post = (): Promise<ChannelReply> =>
      actor.handle({
        command: {
          $case: 'createMessage',
          createMessage: {
            caller: { userId: '42', bot: false, rights: '0' },
            body: '{"content":"hi"}',
          },
        },
      });

    const first = post(); // asks; the reply (computed at version 10) is still on its way
    await actor.handle({ command: { $case: 'invalidateAccess', invalidateAccess: { version: '11', userId: '' } } });
    await ctx.answer(10);
    assert.equal((await first).reply?.$case, 'json', 'the stale reply still serves its own request');

    const second = post();
    await ctx.answer(11);
    await second;
    assert.equal(ctx.asks, 2, 'the second message asked again');
    ctx.answerAtOnce = 11;
    await post();
    assert.equal(ctx.asks, 2, 'the third message was served from the cache');
  });
});
