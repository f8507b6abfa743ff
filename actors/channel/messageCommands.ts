import type { BulkDelete, ChannelReply, ListMessages, MessageTarget } from '../../proto/gen/chorus/v1/channel.js';
import {
  BadRequestError,
  ForbiddenError,
  MissingAccessError,
  MissingPermissionsError,
  ValidationError,
} from '../../src/domain/errors.js';
import { deleteBlobs } from '../../src/domain/BlobStore.js';
import { isSnowflake, snowflakeTimestampMs } from '../../src/domain/snowflake.js';
import { can, requireCaller, requireGuildChannel, requirePermission, type Access } from './channelAccess.js';
import { withGuildId } from './channelEvents.js';
import { EMPTY_REPLY, jsonReply, type ChannelScope } from './ChannelScope.js';
import { messageMentions } from './messageMentions.js';
import { attachmentBlobKeys, droppedAttachments, editedAttachments } from './messageAttachments.js';
import { clientFlags, eventJson, isEmptyMessage } from './messageCreate.js';
import type { MessageRecord } from '../runtime/ports/records.js';
import { forUpdateEvent, isDeletableType } from './messageJson.js';
import { joinAround, planPage } from './pagination.js';
import type { WindowPage } from './RecentMessages.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { BulkDeleteSchema, MessageEditSchema } from '../../src/contract/index.js';

/** Bulk delete takes 2..100 messages (Discord 50016). */
const BULK_MIN = 2;
const BULK_MAX = 100;
/** Bulk delete refuses messages older than two weeks (Discord 50034). */
export const BULK_MAX_AGE_MS = 14 * 24 * 3_600_000;

/** GET /channels/{id}/messages: newest first; [] without READ_MESSAGE_HISTORY (as Discord). */
export async function listMessages(scope: ChannelScope, request: ListMessages): Promise<ChannelReply> {
  const access = await scope.access(request.caller);
  if (!can(access, 'READ_MESSAGE_HISTORY')) return jsonReply('[]');
  const plan = planPage(request);
  const { messages, channel } = scope;
  const recent = plan.kind === 'single' ? await scope.recent.newest(messages, channel.id, plan.page) : undefined;
  if (recent) return jsonReply(await recentPageJson(scope, recent, access.userId));
  const records =
    plan.kind === 'single'
      ? await messages.list(channel.id, plan.page)
      : joinAround(
          ...(await Promise.all([messages.list(channel.id, plan.newer), messages.list(channel.id, plan.older)])),
        );
  return jsonReply(JSON.stringify(await scope.render(records, access.userId)));
}

/**
 * A page of the recent window as JSON: a plain message (no reactions, mentions or reply, so its text is the
 * same for every viewer and depends on its record only) is rendered once and its text kept; the others are
 * rendered per request as an uncached page renders them.
 */
async function recentPageJson(scope: ChannelScope, page: WindowPage, viewerId: string): Promise<string> {
  const kept = scope.recent.pageText(page.length);
  if (kept !== undefined) return kept;
  const rendering = page.filter((message) => message.text === undefined);
  const rendered =
    rendering.length === 0
      ? []
      : await scope.render(
          rendering.map((message) => message.record),
          viewerId,
          rendering.map((message) => message.reactions),
        );
  const fresh = new Map<WindowPage[number], string>();
  rendering.forEach((message, index) => {
    const text = JSON.stringify(rendered[index]);
    fresh.set(message, text);
    if (isPlain(message)) scope.recent.keepText(message, text);
  });
  const text = `[${page.map((message) => fresh.get(message) ?? message.text).join(',')}]`;
  if (page.every(isPlain)) scope.recent.keepPage(page.length, text);
  return text;
}

/** True when a kept message renders the same for every viewer at any time (see recentPageJson). */
function isPlain(kept: WindowPage[number]): boolean {
  const { record } = kept;
  return kept.reactions.length === 0 && record.mention_ids.length === 0 && record.message_reference === null;
}

/** GET /channels/{id}/messages/{message_id}; 404 10008 when it is not a message of this channel. */
export async function getMessage(scope: ChannelScope, request: MessageTarget): Promise<ChannelReply> {
  const access = await scope.access(request.caller);
  if (!can(access, 'READ_MESSAGE_HISTORY')) throw new MissingAccessError();
  const record = await scope.message(request.messageId);
  return jsonReply(JSON.stringify((await scope.render([record], access.userId))[0]));
}

/**
 * PATCH /channels/{id}/messages/{message_id}: the author only (403 50005); MESSAGE_UPDATE. `as` is the
 * access of an author resolved otherwise (a webhook editing its message by token).
 */
export async function editMessage(scope: ChannelScope, request: MessageTarget, as?: Access): Promise<ChannelReply> {
  const access = as ?? (await scope.access(request.caller));
  const record = await scope.message(request.messageId);
  if (record.author_id !== access.userId) {
    throw new ForbiddenError('Cannot edit a message authored by another user', 50_005);
  }
  const body = bodyOf(MessageEditSchema, request.body);
  // Checked before the record changes: the edge deletes this request's uploads on a refusal.
  const edited = editedAttachments(record.attachments, body.attachments);
  if (edited.uploaded > 0) requirePermission(access, 'ATTACH_FILES');
  if (body.content !== undefined) {
    record.content = body.content;
    const replied = await repliedMention(scope, record);
    const mentions = await messageMentions(scope, access, body.content, body.allowed_mentions, replied);
    record.mention_ids = mentions.userIds;
    record.mention_role_ids = mentions.roleIds;
    record.mention_everyone = mentions.everyone;
  }
  if (body.embeds !== undefined || body.embed !== undefined) {
    const embeds: unknown[] = body.embeds ?? (body.embed ? [body.embed] : []);
    record.embeds = embeds.map((embed) => ({ type: 'rich', ...(embed as object) }));
  }
  if (body.components !== undefined) record.components = body.components;
  if (body.flags !== undefined) record.flags = (record.flags & ~clientFlags(~0)) | clientFlags(body.flags);
  const dropped = droppedAttachments(record.attachments, edited.attachments);
  record.attachments = edited.attachments;
  if (isEmptyMessage(record.content, record.embeds, record.sticker_ids, record.attachments, record.components)) {
    throw new BadRequestError('Cannot send an empty message', 50_006);
  }
  // Nothing refuses the edit past this point; bytes go before the record (see deleteMessage).
  await deleteBlobs(scope.blobs, attachmentBlobKeys(scope.channel.id, dropped));
  record.edited_timestamp = new Date(scope.ctx.clock.now()).toISOString();
  await scope.messages.update(record);
  const [rendered] = await scope.render([record], access.userId);
  scope.emit('MESSAGE_UPDATE', eventJson(scope, JSON.stringify(forUpdateEvent(rendered)), access));
  return jsonReply(JSON.stringify(rendered));
}

/** DELETE /channels/{id}/messages/{message_id}: the author, or MANAGE_MESSAGES in a guild; MESSAGE_DELETE. */
export async function deleteMessage(scope: ChannelScope, request: MessageTarget, as?: Access): Promise<ChannelReply> {
  const access = as ?? (await scope.access(request.caller));
  const record = await scope.message(request.messageId);
  if (!isDeletableType(record.type)) throw new BadRequestError('Cannot execute action on a system message', 50_021);
  if (record.author_id !== access.userId && (scope.channel.guild_id === null || !can(access, 'MANAGE_MESSAGES'))) {
    throw new MissingPermissionsError('MANAGE_MESSAGES');
  }
  // The attachments' bytes go first: a failure between the two leaves a message whose files answer
  // 404 (a retried delete finishes it), never files that outlive their message and stay served.
  await deleteBlobs(scope.blobs, attachmentBlobKeys(scope.channel.id, record.attachments));
  await scope.messages.delete(scope.channel.id, [record.id]);
  if (record.pinned && scope.pinCount !== undefined) scope.pinCount -= 1;
  const data = withGuildId(scope.channel, { id: record.id, channel_id: scope.channel.id });
  scope.emit('MESSAGE_DELETE', JSON.stringify(data));
  return EMPTY_REPLY;
}

/** POST /channels/{id}/messages/bulk-delete: MANAGE_MESSAGES; 2..100 ids (50016), none older than 14 days (50034). */
export async function bulkDelete(scope: ChannelScope, request: BulkDelete): Promise<ChannelReply> {
  requireCaller(request.caller);
  requireGuildChannel(scope.channel);
  const access = await scope.access(request.caller);
  requirePermission(access, 'MANAGE_MESSAGES');
  const body = bodyOf(BulkDeleteSchema, request.body);
  (body.messages as unknown[]).forEach((id, index) => {
    if (!isSnowflake(id)) {
      throw ValidationError.field(`messages.${index}`, 'NUMBER_TYPE_COERCE', `Value "${String(id)}" is not snowflake.`);
    }
  });
  const ids = [...new Set(body.messages)];
  if (ids.length < BULK_MIN || ids.length > BULK_MAX) {
    throw new BadRequestError('You can only bulk delete messages that are between 2 and 100 in count', 50_016);
  }
  const oldest = scope.ctx.clock.now() - BULK_MAX_AGE_MS;
  if (ids.some((id) => snowflakeTimestampMs(id) < oldest)) {
    throw new BadRequestError('You can only bulk delete messages that are under 14 days old.', 50_034);
  }
  // Ids of other channels' messages, or of none, read as undefined: only this channel's bytes go.
  const records = await Promise.all(ids.map((id) => scope.messages.get(scope.channel.id, id)));
  const keys = records.flatMap((record) => (record ? attachmentBlobKeys(scope.channel.id, record.attachments) : []));
  await deleteBlobs(scope.blobs, keys); // before the records, as in deleteMessage
  await scope.messages.delete(scope.channel.id, ids);
  scope.pinCount = undefined; // some may have been pinned: recount on the next pin
  const data = withGuildId(scope.channel, { ids, channel_id: scope.channel.id });
  scope.emit('MESSAGE_DELETE_BULK', JSON.stringify(data));
  return EMPTY_REPLY;
}

/** A reply that mentioned the replied-to author keeps mentioning them when edited (unless allowed_mentions says not). */
async function repliedMention(scope: ChannelScope, record: MessageRecord): Promise<string | undefined> {
  const id = record.message_reference?.message_id;
  if (id === undefined) return undefined;
  const referenced = await scope.messages.get(scope.channel.id, id);
  return referenced && record.mention_ids.includes(referenced.author_id) ? referenced.author_id : undefined;
}
