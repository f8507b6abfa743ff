import assert from 'node:assert/strict';
import { ChannelActor } from '../../../actors/channel/ChannelActor.js';
import type { ActorContext } from '../../../actors/runtime/ActorContext.js';
import type { ActorKind, CommandOf, ReplyOf } from '../../../actors/runtime/ActorKind.js';
import type { ChannelRecord, MessageRecord } from '../../../actors/runtime/ports/records.js';
import type { Stores } from '../../../actors/runtime/ports/stores.js';
import type { ChannelReply } from '../../../proto/gen/chorus/v1/channel.js';
import type { GuildCommand, GuildReply } from '../../../proto/gen/chorus/v1/guild.js';
import { systemClock } from '../../../src/domain/Clock.js';
import { createLogger } from '../../../src/domain/Logger.js';
import { Permission } from '../../../src/domain/permissions.js';
import { SnowflakeGenerator } from '../../../src/domain/snowflake.js';
import { createSqliteStores } from '../../../src/store/sqlite/createSqliteStores.js';
import { aChannel, aMessage, nextId } from '../../contract/records.js';
import { InMemoryBlobStore } from '../../../src/store/memory/InMemoryBlobStore.js';

const AUTHOR = nextId();
const MEMBER_JSON = JSON.stringify({ user: { id: AUTHOR }, roles: [] });

/** A channel's ActorContext whose Guild answers channelAccess; records what the channel tells. */
class ChannelContext implements ActorContext {
  readonly kind = 'channel' as const;
  readonly nodeId = 'node@1';
  readonly clock = systemClock;
  readonly log = createLogger('silent');
  readonly ids = new SnowflakeGenerator(2);
  readonly told: { kind: ActorKind; key: string; command: unknown }[] = [];

  constructor(readonly key: string) {}

  ask<K extends ActorKind>(kind: K, _key: string, command: CommandOf<K>): Promise<ReplyOf<K>> {
    const asked = (command as GuildCommand).command;
    if (kind !== 'guild' || asked?.$case !== 'channelAccess') return Promise.reject(new Error(`unexpected ${kind}`));
    const permissions = (Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES).toString();
    const reply: GuildReply = {
      reply: {
        $case: 'channelAccess',
        channelAccess: { permissions, member: true, version: '1', memberJson: MEMBER_JSON, validUntilMs: '0' },
      },
    };
    return Promise.resolve(reply as ReplyOf<K>);
  }
  tell<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>): void {
    this.told.push({ kind, key, command });
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
    return () => undefined; // flushes are driven by hand
  }
  stopSelf(): void {
    throw new Error('unexpected stop');
  }

  evictSelf(): void {
    throw new Error('unexpected eviction');
  }

  /** The MESSAGE_CREATE events told to the Guild, parsed. */
  messageCreates(): Record<string, unknown>[] {
    return this.told.flatMap(({ command }) => {
      const { command: told } = command as GuildCommand;
      if (told?.$case !== 'dispatch' || told.dispatch.event?.event !== 'MESSAGE_CREATE') return [];
      return [JSON.parse(told.dispatch.event.dataJson) as Record<string, unknown>];
    });
  }
}

describe('Channel dispatch outbox (a node died between storing a message and dispatching it)', () => {
  let stores: Stores;
  let channel: ChannelRecord;

  beforeEach(async () => {
    stores = createSqliteStores(':memory:');
    channel = aChannel();
    await stores.channels.save(channel);
  });
  afterEach(() => stores.close());

  async function activation(): Promise<{ actor: ChannelActor; ctx: ChannelContext }> {
    const ctx = new ChannelContext(channel.id);
    const actor = new ChannelActor(ctx, stores, new InMemoryBlobStore());
    await actor.activate();
    return { actor, ctx };
  }

  /** What an earlier activation stored; `flushed` when it also wrote it as the channel's last_message_id. */
  async function storedEarlier(flushed: boolean, overrides: Partial<MessageRecord> = {}): Promise<MessageRecord> {
    const record = aMessage({ channel_id: channel.id, guild_id: channel.guild_id, author_id: AUTHOR, ...overrides });
    await stores.messages.insert(record);
    if (flushed) await stores.channels.save({ ...channel, last_message_id: record.id });
    return record;
  }

  function send(actor: ChannelActor, nonce: string): Promise<ChannelReply> {
    const caller = { userId: AUTHOR, bot: false, rights: '0' };
    const body = JSON.stringify({ content: `hello ${nonce}`, nonce });
    return actor.handle({ command: { $case: 'createMessage', createMessage: { caller, body } } });
  }

  function idOf(reply: ChannelReply): string {
    assert.equal(reply.reply?.$case, 'json');
    return (JSON.parse(reply.reply.json.json) as { id: string }).id;
  }

  it('dispatches, once, a message an earlier activation stored when its author retries the nonce', async () => {
    const earlier = await storedEarlier(true, { nonce: 'n1' });
    const { actor, ctx } = await activation();
    assert.deepEqual(ctx.messageCreates(), [], 'a flushed message is not dispatched at activation');

    assert.equal(idOf(await send(actor, 'n1')), earlier.id);
    assert.equal(idOf(await send(actor, 'n1')), earlier.id);

    const events = ctx.messageCreates();
    assert.deepEqual(
      events.map((event) => event['id']),
      [earlier.id],
    );
    assert.equal(events[0]?.['guild_id'], channel.guild_id);
    assert.deepEqual(events[0]?.['member'], JSON.parse(MEMBER_JSON));
    assert.equal((await stores.messages.list(channel.id, { limit: 10 })).length, 1, 'the retry stored no copy');
  });

  it('never dispatches twice a message this activation created, when its author retries the nonce', async () => {
    const { actor, ctx } = await activation();
    const id = idOf(await send(actor, 'n2'));
    assert.equal(idOf(await send(actor, 'n2')), id);
    assert.deepEqual(
      ctx.messageCreates().map((event) => event['id']),
      [id],
    );
  });

  it('dispatches at activation, oldest first, the messages the previous activation never flushed', async () => {
    await storedEarlier(true);
    const first = await storedEarlier(false);
    const second = await storedEarlier(false);
    const { ctx } = await activation();
    const events = ctx.messageCreates();
    assert.deepEqual(
      events.map((event) => event['id']),
      [first.id, second.id],
    );
    assert.deepEqual(events[0]?.['member'], JSON.parse(MEMBER_JSON));
  });

  it('leaves nothing to dispatch again after a clean deactivation', async () => {
    const { actor } = await activation();
    await send(actor, 'a');
    await send(actor, 'b');
    await actor.deactivate();
    const { ctx } = await activation();
    assert.deepEqual(ctx.messageCreates(), []);
  });

  it('writes a message id on the timer flush after the one that saw it, so a crash in between re-dispatches it', async () => {
    const { actor } = await activation();
    const id = idOf(await send(actor, 'c'));
    await actor.handle({ command: { $case: 'flush', flush: {} } });
    assert.equal((await stores.channels.get(channel.id))?.last_message_id, null, 'the first flush only notes it');
    const crashed = await activation(); // the first activation dies here, without deactivating
    assert.deepEqual(
      crashed.ctx.messageCreates().map((event) => event['id']),
      [id],
    );

    await actor.handle({ command: { $case: 'flush', flush: {} } });
    assert.equal((await stores.channels.get(channel.id))?.last_message_id, id);
    const { ctx } = await activation();
    assert.deepEqual(ctx.messageCreates(), []);
  });
});
