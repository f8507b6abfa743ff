import type {
  ChannelChanged,
  ChannelCommand,
  ChannelReply,
  GetChannel,
  InvalidateAccess,
} from '../../proto/gen/chorus/v1/channel.js';
import type { BlobRemover } from '../../src/domain/BlobStore.js';
import { UnknownEntityError } from '../../src/domain/errors.js';
import { compareSnowflakes } from '../../src/domain/snowflake.js';
import { Actor } from '../runtime/Actor.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import { dispatch, withContext, type HandlerTable } from '../runtime/commandTable.js';
import type { ChannelRecord } from '../runtime/ports/records.js';
import { requireAnyOf, viewAccess } from './channelAccess.js';
import { channelJson } from './channelJson.js';
import { ChannelScope, EMPTY_REPLY, jsonReply, type ChannelStores } from './ChannelScope.js';
import { createMessage } from './messageCreate.js';
import { bulkDelete, deleteMessage, editMessage, getMessage, listMessages } from './messageCommands.js';
import { acknowledge, listPins, pin, typing, unpin } from './pinCommands.js';
import { purgeAuthor } from './authorPurge.js';
import { crosspost } from './crosspost.js';
import { addReaction, listReactionUsers, removeAllReactions, removeReaction } from './reactionCommands.js';
import { addRecipient, removeRecipient } from './recipientCommands.js';
import { createInteraction, interactionTimeout } from './interactionCreate.js';
import { interactionCallback, interactionWebhook } from './interactionCallback.js';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, updateWebhook } from './webhookCommands.js';
import { deleteWebhookMessage, editWebhookMessage, executeWebhook, getWebhookMessage } from './webhookExecute.js';
import { parseJsonObject } from '../../src/domain/jsonValue.js';

type ChannelCase = NonNullable<ChannelCommand['command']>;
/** The Guild's tells and the flush timer: served by the actor itself, with or without a channel. */
type ActorCase = 'channelChanged' | 'invalidateAccess' | 'flush';
/** Commands served with the channel loaded: about its messages, reactions, pins, webhooks and recipients. */
type ScopedCase = Exclude<ChannelCase, { $case: ActorCase }>;

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
 * GET /channels/{id} as the caller sees it. A guild channel is shaped by its Guild (which owns the
 * record and checks VIEW_CHANNEL), with this actor's newer last_message_id; a DM needs a recipient.
 * With no caller (an internal lookup) the record is shaped here, unchecked; the edge always sends
 * the caller for clients.
 */
async function getChannel(scope: ChannelScope, request: GetChannel): Promise<ChannelReply> {
  const viewerId = request.caller?.userId ?? '';
  const { channel } = scope;
  if (channel.guild_id !== null && viewerId !== '') {
    const reply = await scope.ctx
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
    const json = parseJsonObject(reply.reply.json.json);
    if ('last_message_id' in json) json['last_message_id'] = channel.last_message_id;
    if (channel.last_pin_timestamp !== null) json['last_pin_timestamp'] = channel.last_pin_timestamp;
    return jsonReply(JSON.stringify(json));
  }
  if (viewerId !== '') await viewAccess(scope.ctx, channel, viewerId, scope.accessCache);
  if (channel.guild_id === null) await scope.loadUsers(channel.recipient_ids);
  return jsonReply(JSON.stringify(channelJson(channel, viewerId, (id) => scope.users.get(id))));
}

/** Handlers of the commands served with the channel loaded. */
const SCOPED_HANDLERS: HandlerTable<ScopedCase, ChannelScope, ChannelReply> = {
  createMessage,
  listMessages,
  getMessage,
  editMessage,
  deleteMessage,
  bulkDelete,
  addReaction,
  removeReaction,
  listReactions: listReactionUsers,
  removeAllReactions,
  pin,
  unpin,
  listPins,
  typing,
  acknowledge,
  getChannel,
  createWebhook,
  listWebhooks,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  executeWebhook,
  getWebhookMessage,
  editWebhookMessage,
  deleteWebhookMessage,
  addRecipient,
  removeRecipient,
  createInteraction,
  interactionCallback,
  interactionWebhook,
  interactionTimeout,
  purgeAuthor,
  crosspost,
  checkPermission: async (scope, request) => {
    requireAnyOf(await scope.access(request.caller), request.anyOf);
    return EMPTY_REPLY;
  },
  locate: (scope) => ({
    reply: { $case: 'location', location: { guildId: scope.channel.guild_id ?? '', type: scope.channel.type } },
  }),
};

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

  /** Not while it holds interactions that may still be answered: passivating would forget them. */
  override canPassivate(): boolean {
    return this.#scope?.interactions.holdsLive(this.ctx.clock.now()) !== true;
  }

  override async deactivate(): Promise<void> {
    await this.#scope?.flush(true);
  }

  /**
   * Every command's handler: the scoped ones with the channel loaded (404 10003 when there is none),
   * the Guild's tells and the flush timer on the actor itself.
   */
  static readonly #handlers: HandlerTable<ChannelCase, ChannelActor, ChannelReply> = {
    ...withContext(SCOPED_HANDLERS, (actor: ChannelActor) => actor.#scopeOrLoad()),
    invalidateAccess: (actor, change) => actor.#invalidateAccess(change),
    channelChanged: (actor, change) => actor.#channelChanged(change),
    flush: (actor) => actor.#flush(),
  };

  override async handle({ command }: ChannelCommand): Promise<ChannelReply> {
    if (command !== undefined && command.$case !== 'invalidateAccess' && !this.#loaded) await this.#load();
    return dispatch(ChannelActor.#handlers, this, command);
  }

  /**
   * The Guild changed what its snapshots carry, or (for a DM) a recipient blocked or unblocked the
   * other: drop the cached ones (nothing to drop before loading).
   */
  #invalidateAccess(change: InvalidateAccess): ChannelReply {
    if (!this.#loaded) this.ctx.stopSelf();
    this.#scope?.accessCache.invalidate(change.version, change.userId, this.ctx.clock.now());
    this.#scope?.dmBlocks.invalidate();
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
    await this.#scope?.flush();
    return EMPTY_REPLY;
  }

  /** The loaded scope, at once when there is one (most commands), else after loading it. */
  #scopeOrLoad(): ChannelScope | Promise<ChannelScope> {
    return this.#scope ?? this.#loadScope();
  }

  async #loadScope(): Promise<ChannelScope> {
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
