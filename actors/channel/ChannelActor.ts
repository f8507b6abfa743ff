import type {
  ChannelBodyRequest,
  ChannelChanged,
  ChannelCommand,
  ChannelReply,
  InvalidateAccess,
} from '../../proto/gen/chorus/v1/channel.js';
import type { BlobRemover } from '../../src/domain/BlobStore.js';
import { InternalError, UnknownEntityError } from '../../src/domain/errors.js';
import { compareSnowflakes } from '../../src/domain/snowflake.js';
import { Actor } from '../runtime/Actor.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import type { ChannelRecord } from '../runtime/ports/records.js';
import { requireAnyOf, viewAccess } from './channelAccess.js';
import { channelJson } from './channelJson.js';
import { ChannelScope, EMPTY_REPLY, jsonReply, type ChannelStores } from './ChannelScope.js';
import { createMessage } from './messageCreate.js';
import { bulkDelete, deleteMessage, editMessage, getMessage, listMessages } from './messageCommands.js';
import { acknowledge, listPins, pin, typing, unpin } from './pinCommands.js';
import { addReaction, listReactionUsers, removeAllReactions, removeReaction } from './reactionCommands.js';
import { addRecipient, removeRecipient } from './recipientCommands.js';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, updateWebhook } from './webhookCommands.js';
import { deleteWebhookMessage, editWebhookMessage, executeWebhook, getWebhookMessage } from './webhookExecute.js';

/** Commands served with the channel loaded (every one but the Guild's tells and the flush timer). */
type ScopedCommand = Exclude<
  NonNullable<ChannelCommand['command']>,
  { $case: 'channelChanged' } | { $case: 'invalidateAccess' } | { $case: 'flush' }
>;

function assertNever(value: never): never {
  throw new InternalError({ cause: new Error(`Unhandled channel command ${JSON.stringify(value)}`) });
}

/** True when parsed channel_changed JSON is a ChannelRecord (not a Discord channel object). */
function isChannelRecord(value: unknown): value is ChannelRecord {
  const record = value as Partial<ChannelRecord> | null;
  return (
    record !== null &&
    typeof record === 'object' &&
    typeof record.id === 'string' &&
    Array.isArray(record.recipient_ids) &&
    typeof record.fields === 'object'
  );
}

/**
 * One channel (key: channel id): orders, stores and dispatches its messages, reactions, pins and
 * typing. Guild channels check access against snapshots asked of their Guild and cached until it
 * tells `invalidate_access` (the Guild owns roles and overwrites; Channel → Guild is the allowed call
 * direction); DMs check the recipient list.
 */
export class ChannelActor extends Actor<ChannelCommand, ChannelReply> {
  #scope: ChannelScope | undefined;
  /** False while the activation has not read the channel yet (see activate). */
  #loaded = false;

  constructor(
    private readonly ctx: ActorContext,
    private readonly stores: ChannelStores,
    private readonly blobs: BlobRemover,
  ) {
    super();
  }

  /**
   * Loads the channel, unless the activation was caused by an invalidate_access: a Guild tells every
   * channel that held snapshots, including ones passivated since, and those have nothing to drop.
   * Such an activation reads nothing and stops (its first turn loads if another command follows).
   */
  override async activate(first?: ChannelCommand): Promise<void> {
    if (first?.command?.$case === 'invalidateAccess') return;
    await this.#load();
  }

  override async deactivate(): Promise<void> {
    if (this.#scope?.dirty) await this.#scope.flush(true);
  }

  override async handle({ command }: ChannelCommand): Promise<ChannelReply> {
    if (command === undefined) throw new InternalError({ cause: new Error('ChannelCommand.command is empty') });
    if (command.$case === 'invalidateAccess') return this.#invalidateAccess(command.invalidateAccess);
    if (!this.#loaded) await this.#load();
    if (command.$case === 'channelChanged') return this.#channelChanged(command.channelChanged);
    if (command.$case === 'flush') return this.#flush();
    return this.#serve(await this.#scopeOrLoad(), command);
  }

  /** Commands about the channel's messages: they need the channel record. */
  #serve(scope: ChannelScope, command: ScopedCommand): Promise<ChannelReply> {
    switch (command.$case) {
      case 'createMessage':
        return createMessage(scope, command.createMessage);
      case 'listMessages':
        return listMessages(scope, command.listMessages);
      case 'getMessage':
        return getMessage(scope, command.getMessage);
      case 'editMessage':
        return editMessage(scope, command.editMessage);
      case 'deleteMessage':
        return deleteMessage(scope, command.deleteMessage);
      case 'bulkDelete':
        return bulkDelete(scope, command.bulkDelete);
      case 'addReaction':
        return addReaction(scope, command.addReaction);
      case 'removeReaction':
        return removeReaction(scope, command.removeReaction);
      case 'listReactions':
        return listReactionUsers(scope, command.listReactions);
      case 'removeAllReactions':
        return removeAllReactions(scope, command.removeAllReactions);
      case 'pin':
        return pin(scope, command.pin);
      case 'unpin':
        return unpin(scope, command.unpin);
      case 'listPins':
        return listPins(scope, command.listPins);
      case 'typing':
        return typing(scope, command.typing);
      case 'acknowledge':
        return acknowledge(scope, command.acknowledge);
      case 'getChannel':
        return this.#getChannel(scope, command.getChannel);
      case 'createWebhook':
        return createWebhook(scope, command.createWebhook);
      case 'listWebhooks':
        return listWebhooks(scope, command.listWebhooks);
      case 'getWebhook':
        return getWebhook(scope, command.getWebhook);
      case 'updateWebhook':
        return updateWebhook(scope, command.updateWebhook);
      case 'deleteWebhook':
        return deleteWebhook(scope, command.deleteWebhook);
      case 'executeWebhook':
        return executeWebhook(scope, command.executeWebhook);
      case 'getWebhookMessage':
        return getWebhookMessage(scope, command.getWebhookMessage);
      case 'editWebhookMessage':
        return editWebhookMessage(scope, command.editWebhookMessage);
      case 'deleteWebhookMessage':
        return deleteWebhookMessage(scope, command.deleteWebhookMessage);
      case 'addRecipient':
        return addRecipient(scope, command.addRecipient);
      case 'removeRecipient':
        return removeRecipient(scope, command.removeRecipient);
      case 'checkPermission':
        return scope.access(command.checkPermission.caller).then((access) => {
          requireAnyOf(access, command.checkPermission.anyOf);
          return EMPTY_REPLY;
        });
      case 'locate':
        return Promise.resolve({
          reply: { $case: 'location', location: { guildId: scope.channel.guild_id ?? '', type: scope.channel.type } },
        });
      default:
        return assertNever(command);
    }
  }

  /**
   * GET /channels/{id} as the caller sees it. A guild channel is shaped by its Guild (which owns the
   * record and checks VIEW_CHANNEL), with this actor's newer last_message_id; a DM needs a recipient.
   * With no caller (an internal lookup) the record is shaped here, unchecked; the edge always sends
   * the caller for clients.
   */
  async #getChannel(scope: ChannelScope, request: ChannelBodyRequest): Promise<ChannelReply> {
    const viewerId = request.caller?.userId ?? '';
    const { channel } = scope;
    if (channel.guild_id !== null && viewerId !== '') {
      const reply = await this.ctx
        .ask('guild', channel.guild_id, {
          command: {
            $case: 'getChannel',
            getChannel: { caller: request.caller, targetId: channel.id, withCounts: false },
          },
        })
        .catch((error: unknown) => {
          throw error instanceof UnknownEntityError && error.entity === 'guild'
            ? new UnknownEntityError('channel')
            : error;
        });
      if (reply.reply?.$case !== 'json') return EMPTY_REPLY;
      const json = JSON.parse(reply.reply.json.json) as Record<string, unknown>;
      if ('last_message_id' in json) json['last_message_id'] = channel.last_message_id;
      if (channel.last_pin_timestamp !== null) json['last_pin_timestamp'] = channel.last_pin_timestamp;
      return jsonReply(JSON.stringify(json));
    }
    if (viewerId !== '') await viewAccess(this.ctx, channel, viewerId, scope.accessCache);
    if (channel.guild_id === null) await scope.loadUsers(channel.recipient_ids);
    return jsonReply(JSON.stringify(channelJson(channel, viewerId, (id) => scope.users.get(id))));
  }

  /** The Guild changed what its snapshots carry: drop the cached ones (nothing to drop before loading). */
  #invalidateAccess(change: InvalidateAccess): ChannelReply {
    if (!this.#loaded) this.ctx.stopSelf();
    this.#scope?.accessCache.invalidate(change.version, change.userId, this.ctx.clock.now());
    return EMPTY_REPLY;
  }

  /** The Guild (or User) changed or deleted the record: adopt it, keeping the message fields this actor owns. */
  async #channelChanged(change: ChannelChanged): Promise<ChannelReply> {
    if (change.channelJson === '') {
      this.#scope = undefined;
      this.ctx.stopSelf();
      return EMPTY_REPLY;
    }
    const parsed: unknown = JSON.parse(change.channelJson);
    const record = isChannelRecord(parsed) ? parsed : await this.stores.channels.get(this.ctx.key);
    const scope = this.#scope;
    if (!record) {
      this.#scope = undefined;
      return EMPTY_REPLY;
    }
    if (!scope) {
      this.#scope = new ChannelScope(this.ctx, this.stores, record, this.blobs);
      return EMPTY_REPLY;
    }
    const mine = scope.channel;
    scope.channel = { ...record, last_message_id: mine.last_message_id, last_pin_timestamp: mine.last_pin_timestamp };
    // The other writer saved an older last_message_id than ours: write ours back.
    const theirs = record.last_message_id;
    if (mine.last_message_id !== null && (theirs === null || compareSnowflakes(mine.last_message_id, theirs) > 0)) {
      scope.markDirty();
    }
    return EMPTY_REPLY;
  }

  async #flush(): Promise<ChannelReply> {
    if (this.#scope && !(await this.#scope.flush())) {
      this.#scope = undefined; // deleted meanwhile
      this.ctx.stopSelf();
    }
    return EMPTY_REPLY;
  }

  async #scopeOrLoad(): Promise<ChannelScope> {
    // A channel that did not exist at activation may have been created since (a DM opened later).
    const scope = this.#scope ?? (await this.#load());
    if (!scope) {
      this.ctx.stopSelf(); // do not keep an activation per unknown id a client tried
      throw new UnknownEntityError('channel');
    }
    return scope;
  }

  async #load(): Promise<ChannelScope | undefined> {
    this.#loaded = true;
    const record = await this.stores.channels.get(this.ctx.key);
    if (!record) return undefined;
    const scope = new ChannelScope(this.ctx, this.stores, record, this.blobs);
    await scope.reconcileLastMessage();
    this.#scope = scope;
    return scope;
  }
}
