import type { ChannelReply, CreateMessage } from '../../proto/gen/chorus/v1/channel.js';
import { BadRequestError, RateLimitedError, UnknownEntityError, ValidationError } from '../../src/domain/errors.js';
import { isoTimestamp } from '../../src/domain/isoTimestamp.js';
import type { MessageCreateBody } from '../../src/contract/message.js';
import type { MessageRecord } from '../runtime/ports/records.js';
import type { AuthorSnapshot } from './AuthorSnapshots.js';
import { can, requireCaller, requirePermission, type Access } from './channelAccess.js';
import { channelJson, holdsMessages } from './channelJson.js';
import { messageEventJson, tellUser } from './channelEvents.js';
import type { ChannelScope } from './ChannelScope.js';
import { jsonReply } from './ChannelScope.js';
import { redispatch } from './dispatchOutbox.js';
import { createdAttachments } from './messageAttachments.js';
import { messageMentions } from './messageMentions.js';
import { MessageType, messageJson } from './messageJson.js';
import { tellAuthorRead, tellMentioned } from './readStateTells.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { MessageCreateSchema } from '../../src/contract/index.js';

/** Message flags a client may set: SUPPRESS_EMBEDS (1<<2) and SUPPRESS_NOTIFICATIONS (1<<12). */
export const CLIENT_FLAGS = (1 << 2) | (1 << 12);

/** A create body as the actor reads it (the schema allows extra fields such as enforce_nonce). */
export type CreateBody = MessageCreateBody & { enforce_nonce?: boolean };

/**
 * True when a message would show nothing (Discord 50006); attachments alone are enough, and so are components
 * (only applications' survive the edge, and Discord takes component-only messages from them).
 */
export function isEmptyMessage(
  content: string,
  embeds: readonly unknown[],
  stickerIds: readonly string[],
  attachments: readonly unknown[],
  components: readonly unknown[] = [],
): boolean {
  const shown = embeds.length + stickerIds.length + attachments.length + components.length;
  return content.trim() === '' && shown === 0;
}

/** The message flags a body asks for, limited to those clients may set. */
export function clientFlags(flags: string | number | undefined): number {
  const value = Number(flags ?? 0);
  return Number.isInteger(value) ? value & CLIENT_FLAGS : 0;
}

/**
 * POST /channels/{id}/messages. Checks access (a cached Guild snapshot), assigns the snowflake, persists the
 * message before replying, and dispatches MESSAGE_CREATE serialized once (the reply text plus
 * guild_id and member). A repeated nonce from the same author returns the first message.
 */
export async function createMessage(scope: ChannelScope, request: CreateMessage): Promise<ChannelReply> {
  const caller = requireCaller(request.caller);
  const access = await scope.access(caller);
  const { channel, ctx } = scope;
  if (!holdsMessages(channel.type)) throw new BadRequestError('Cannot send messages in a non-text channel', 50_008);
  requirePermission(access, 'SEND_MESSAGES');
  const body: CreateBody = bodyOf(MessageCreateSchema, request.body);
  // A DM with a block between its two recipients takes nothing from either (403 50007).
  await scope.dmBlocks.requireUnblocked(channel, scope.stores.users, ctx.clock.now());
  // The edge stored the files already; on this refusal it deletes them again.
  const attachments = createdAttachments(body.attachments);
  if (attachments.length > 0) requirePermission(access, 'ATTACH_FILES');
  const now = ctx.clock.now();

  const nonce = body.nonce === undefined ? null : String(body.nonce);
  if (nonce !== null) {
    const earlier = scope.nonces.find(caller.userId, nonce, now);
    const record = earlier === undefined ? undefined : await scope.messages.get(channel.id, earlier);
    if (record) {
      const [json = {}] = await scope.render([record], caller.userId);
      // Stored by an earlier activation that may have died before dispatching it (see dispatchOutbox).
      if (scope.outbox.claim(record.id)) await redispatch(scope, record, access.memberJson, 'retry', json);
      return jsonReply(JSON.stringify(json));
    }
  }
  enforceSlowmode(scope, access, now);

  // The author comes from the member snapshot (guild channels) or, without one, the user store.
  const needAuthor = access.memberJson === '';
  const firstMessage = channel.last_message_id === null;
  const dmAnnounce = channel.guild_id === null && firstMessage ? channel.recipient_ids : [];
  const { json, record } = await storeMessage(scope, access, body, {
    id: caller.userId,
    nonce,
    webhookId: null,
    load: [...(needAuthor ? [caller.userId] : []), ...dmAnnounce],
    snapshot: () => scope.authors.resolve(caller.userId, access.memberJson, () => scope.users.get(caller.userId)),
    beforeDispatch: () => {
      if (channel.guild_id === null && firstMessage) announceDm(scope, caller.userId);
    },
  });
  if (nonce !== null) scope.nonces.remember(caller.userId, nonce, record.id, now);
  scope.lastSentMs.set(caller.userId, now);
  if (!caller.bot) tellAuthorRead(scope, record);
  return jsonReply(json);
}

/** Who a new message is by: a user, or a webhook (whose id is the author id). */
export interface NewMessageAuthor {
  readonly id: string;
  readonly nonce: string | null;
  readonly webhookId: string | null;
  /** User ids to have snapshots of before `snapshot` runs (besides the mentioned ones). */
  readonly load: readonly string[];
  readonly snapshot: () => AuthorSnapshot;
  /** Runs after the message is stored, before MESSAGE_CREATE leaves (a new DM's CHANNEL_CREATE). */
  readonly beforeDispatch?: () => void;
  /** An interaction response: may be empty (a deferred "thinking" message), and sets its own fields. */
  readonly interaction?: {
    readonly allowEmpty: boolean;
    readonly shape: (record: MessageRecord) => void;
  };
}

/**
 * Composes, stores and dispatches a new message the caller was allowed to send: 50006 when empty,
 * the reply target, mentions as `access` may make them; MESSAGE_CREATE serialized once. Returns the
 * message JSON (the reply text) and its record.
 */
export async function storeMessage(
  scope: ChannelScope,
  access: Access,
  body: CreateBody,
  by: NewMessageAuthor,
): Promise<{ json: string; record: MessageRecord }> {
  const { channel, ctx } = scope;
  const attachments = createdAttachments(body.attachments);
  const content = body.content ?? '';
  const embeds: unknown[] = body.embeds ?? (body.embed ? [body.embed] : []);
  const stickerIds = body.sticker_ids ?? [];
  const components = body.components ?? [];
  if (isEmptyMessage(content, embeds, stickerIds, attachments, components) && by.interaction?.allowEmpty !== true)
    throw new BadRequestError('Cannot send an empty message', 50_006);

  const reply = await replyTarget(scope, body);
  const mentions = await messageMentions(scope, access, content, body.allowed_mentions, reply.referenced?.author_id);
  await scope.loadUsers([...mentions.userIds, ...by.load]);
  const author = by.snapshot();
  scope.remember(author.user);

  const id = ctx.ids.next();
  const record: MessageRecord = {
    id,
    channel_id: channel.id,
    guild_id: channel.guild_id,
    author_id: by.id,
    type: reply.referenced ? MessageType.REPLY : MessageType.DEFAULT,
    content,
    tts: body.tts === true && can(access, 'SEND_TTS_MESSAGES'),
    mention_everyone: mentions.everyone,
    mention_ids: mentions.userIds,
    mention_role_ids: mentions.roleIds,
    embeds: embeds.map((embed) => ({ type: 'rich', ...(embed as object) })),
    attachments,
    components,
    sticker_ids: stickerIds,
    nonce: by.nonce,
    pinned: false,
    flags: clientFlags(body.flags),
    message_reference: reply.reference,
    edited_timestamp: null,
    timestamp: isoTimestamp(ctx.clock.now()),
    webhook_id: by.webhookId,
    author_json: author.json,
  };
  by.interaction?.shape(record);
  await scope.messages.insert(record);
  scope.noteLastMessage(id);

  const json = JSON.stringify(
    messageJson(record, {
      userOf: (userId) => scope.users.get(userId),
      author: author.user,
      referenced: reply.referenced,
    }),
  );
  by.beforeDispatch?.();
  scope.emit('MESSAGE_CREATE', eventJson(scope, json, access));
  tellMentioned(scope, record);
  return { json, record };
}

/** The MESSAGE_CREATE/UPDATE payload: the message text plus guild_id, member and channel_type, without re-serializing it. */
export function eventJson(scope: ChannelScope, messageText: string, access: Access): string {
  return messageEventJson(scope.channel, messageText, access.memberJson);
}

/** The message a reply refers to; 404 10008 when it is missing unless fail_if_not_exists is false. */
async function replyTarget(
  scope: ChannelScope,
  body: CreateBody,
): Promise<{ reference: MessageRecord['message_reference']; referenced: MessageRecord | undefined }> {
  const ref = body.message_reference;
  if (ref === undefined) return { reference: null, referenced: undefined };
  const { channel } = scope;
  if (ref.channel_id !== undefined && ref.channel_id !== channel.id) {
    throw ValidationError.field(
      'message_reference',
      'REPLIES_CANNOT_REFERENCE_OTHER_CHANNEL',
      'Cannot reply to a message in a different channel',
    );
  }
  const referenced = await scope.messages.get(channel.id, ref.message_id);
  if (!referenced) {
    if (ref.fail_if_not_exists === false) return { reference: null, referenced: undefined };
    throw new UnknownEntityError('message');
  }
  const reference: NonNullable<MessageRecord['message_reference']> = {
    message_id: referenced.id,
    channel_id: channel.id,
  };
  if (channel.guild_id !== null) reference.guild_id = channel.guild_id;
  return { reference, referenced };
}

/** Slowmode (rate_limit_per_user): 429 until the interval passes, unless the author may bypass it. */
function enforceSlowmode(scope: ChannelScope, access: Access, nowMs: number): void {
  const seconds = Number(scope.channel.fields['rate_limit_per_user'] ?? 0);
  if (!(seconds > 0) || scope.channel.guild_id === null) return;
  if (can(access, 'MANAGE_MESSAGES') || can(access, 'MANAGE_CHANNELS') || can(access, 'BYPASS_SLOWMODE')) return;
  const last = scope.lastSentMs.get(access.userId);
  const waitMs = last === undefined ? 0 : last + seconds * 1000 - nowMs;
  if (waitMs > 0) throw new RateLimitedError(waitMs, false, `slowmode:${scope.channel.id}`, 1);
}

/**
 * The first message of a DM: the other recipients' clients have not heard of the channel yet, so
 * each gets CHANNEL_CREATE (as they see it) before MESSAGE_CREATE; tells to one actor stay in order.
 */
function announceDm(scope: ChannelScope, authorId: string): void {
  for (const userId of new Set(scope.channel.recipient_ids)) {
    if (userId === authorId) continue;
    const data = JSON.stringify(channelJson(scope.channel, userId, (id) => scope.users.get(id)));
    tellUser(scope.ctx, userId, { event: 'CHANNEL_CREATE', dataJson: data, intent: 0 });
  }
}
