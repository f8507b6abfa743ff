import { ChannelActor } from '../../../actors/channel/ChannelActor.js';
import { GuildActor } from '../../../actors/guild/GuildActor.js';
import { Actor } from '../../../actors/runtime/Actor.js';
import type { ActorMessenger } from '../../../actors/runtime/ActorContext.js';
import { ActorHost, type ActorFactory } from '../../../actors/runtime/ActorHost.js';
import type { ActorKind } from '../../../actors/runtime/ActorKind.js';
import type { Stores } from '../../../actors/runtime/ports/stores.js';
import type { ChannelCommand, ChannelReply } from '../../../proto/gen/chorus/v1/channel.js';
import type { GuildCommand, GuildReply } from '../../../proto/gen/chorus/v1/guild.js';
import { ManualClock } from '../../../src/domain/Clock.js';
import { createLogger } from '../../../src/domain/Logger.js';
import { SnowflakeGenerator } from '../../../src/domain/snowflake.js';
import { InMemorySubscriptionStore } from '../../../src/store/memory/InMemorySubscriptionStore.js';
import { createSqliteStores } from '../../../src/store/sqlite/createSqliteStores.js';
import { InMemoryBlobStore } from '../../../src/store/memory/InMemoryBlobStore.js';

/** Stands in for User and Session actors: the Guild only tells them. */
class Bystander extends Actor<unknown, unknown> {
  handle(): Promise<unknown> {
    return Promise.resolve({ reply: { $case: 'empty', empty: {} } });
  }
}

/**
 * One process with real Guild and Channel actors on an ActorHost (embedded mode): every ask and
 * tell goes through their mailboxes. Records the channel_access asks and the MESSAGE_CREATEs.
 */
export class GuildChannelNode {
  readonly clock = new ManualClock();
  readonly ids = new SnowflakeGenerator(3);
  readonly stores: Stores = createSqliteStores(':memory:');
  readonly accessAsks: string[] = [];
  /** Versions of the snapshots the Guild gave, in order. */
  readonly answeredVersions: bigint[] = [];
  /** The invalidate_access tells: [channel id, version, user id]. */
  readonly invalidations: [string, bigint, string][] = [];
  readonly messageCreates: Record<string, unknown>[] = [];
  /** Channel loads: an activation that loads its channel lists the newest messages (see reconcileLastMessage). */
  channelLoads = 0;
  readonly host: ActorHost;

  constructor() {
    const list = this.stores.messages.list.bind(this.stores.messages);
    this.stores.messages.list = (...args) => {
      this.channelLoads += 1;
      return list(...args);
    };
    const factory = ((kind: ActorKind, _key: string, ctx: Parameters<ActorFactory>[2]) => {
      if (kind === 'guild')
        return new GuildActor(ctx, this.stores, new InMemorySubscriptionStore(), new InMemoryBlobStore());
      if (kind === 'channel') return new ChannelActor(ctx, this.stores, new InMemoryBlobStore());
      return new Bystander();
    }) as unknown as ActorFactory;
    const messenger: ActorMessenger = {
      ask: (kind, key, command) => {
        const asked = (command as GuildCommand).command;
        if (asked?.$case !== 'channelAccess') return this.host.ask(kind, key, command);
        this.accessAsks.push(asked.channelAccess.userId);
        return this.host.ask(kind, key, command).then((reply) => {
          const answer = (reply as GuildReply).reply;
          if (answer?.$case === 'channelAccess') this.answeredVersions.push(BigInt(answer.channelAccess.version));
          return reply;
        });
      },
      tell: (kind, key, command) => {
        const told = (command as GuildCommand).command;
        const invalidation = (command as ChannelCommand).command;
        if (invalidation?.$case === 'invalidateAccess') {
          const { version, userId } = invalidation.invalidateAccess;
          this.invalidations.push([key, BigInt(version), userId]);
        }
        if (told?.$case === 'dispatch' && told.dispatch.event?.event === 'MESSAGE_CREATE') {
          this.messageCreates.push(JSON.parse(told.dispatch.event.dataJson) as Record<string, unknown>);
        }
        this.host.tell(kind, key, command);
      },
      fanOut: () => undefined,
      pushFrames: () => undefined,
      livesHere: () => true,
    };
    this.host = new ActorHost({
      nodeId: 'test@1',
      factory,
      messenger,
      clock: this.clock,
      log: createLogger('silent'),
      ids: this.ids,
      options: { mailboxCapacity: 100, idleTimeoutMs: 3_600_000 },
    });
  }

  async close(): Promise<void> {
    await this.host.shutdown();
    await this.stores.close();
  }

  guild(guildId: string, command: GuildCommand['command']): Promise<GuildReply> {
    return this.host.ask('guild', guildId, { command });
  }

  channel(channelId: string, command: ChannelCommand['command']): Promise<ChannelReply> {
    return this.host.ask('channel', channelId, { command });
  }
}
