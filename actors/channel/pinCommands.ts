import type { Acknowledge, ChannelReply, ListPins, MessageTarget, Typing } from '../../proto/gen/chorus/v1/channel.js';
import { BadRequestError, MissingPermissionsError } from '../../src/domain/errors.js';
import type { MessageRecord } from '../runtime/ports/records.js';
import { can, requireCaller, requirePermission, type Access } from './channelAccess.js';
import { withGuildId } from './channelEvents.js';
import { EMPTY_REPLY, jsonReply, type ChannelScope } from './ChannelScope.js';
import { eventJson } from './messageCreate.js';
import { forUpdateEvent, messageJson, withJsonFields } from './messageJson.js';
import { clampLimit } from './pagination.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { AcknowledgeBody, PinsQuery } from '../../src/contract/channelCommandBodies.js';

/** Pins per channel (Discord 30003). */
export const MAX_PINS = 250;
/** Page size of GET /channels/{id}/messages/pins (Discord: default and max 50). */
const PINS_PAGE_LIMIT = 50;

/** Pinning needs MANAGE_MESSAGES or PIN_MESSAGES in a guild; any recipient may pin in a DM. */
function requirePinRight(access: Access): void {
  if (!can(access, 'MANAGE_MESSAGES') && !can(access, 'PIN_MESSAGES'))
    throw new MissingPermissionsError('PIN_MESSAGES');
}

/** The list_pins body: the old route lists messages; the new one pages `{items, has_more}` by pin time. */
/** PUT /channels/{id}/pins/{message_id}: at most 250 pins (30003); CHANNEL_PINS_UPDATE and MESSAGE_UPDATE. */
export async function pin(scope: ChannelScope, request: MessageTarget): Promise<ChannelReply> {
  return setPinned(scope, request, true);
}

/** DELETE /channels/{id}/pins/{message_id}: CHANNEL_PINS_UPDATE and MESSAGE_UPDATE; unpinned already is a no-op. */
export async function unpin(scope: ChannelScope, request: MessageTarget): Promise<ChannelReply> {
  return setPinned(scope, request, false);
}

async function setPinned(scope: ChannelScope, request: MessageTarget, pinned: boolean): Promise<ChannelReply> {
  const access = await scope.access(request.caller);
  requirePinRight(access);
  const record = await scope.message(request.messageId);
  if (record.pinned === pinned) return EMPTY_REPLY;
  const count = scope.pinCount ?? (await scope.messages.listPinned(scope.channel.id)).length;
  if (pinned && count >= MAX_PINS) throw new BadRequestError(`Maximum number of pins reached (${MAX_PINS})`, 30_003);
  const now = new Date(scope.ctx.clock.now()).toISOString();
  record.pinned = pinned;
  record.pinned_at = pinned ? now : null;
  await scope.messages.update(record);
  scope.pinCount = count + (pinned ? 1 : -1);
  if (pinned) scope.notePin(now);
  else if (scope.pinCount === 0) scope.notePin(null);
  const message = JSON.stringify(forUpdateEvent(messageJson(record, { userOf: (id) => scope.users.get(id) })));
  scope.emit('MESSAGE_UPDATE', eventJson(scope, message, access));
  const pins = withGuildId(scope.channel, {
    channel_id: scope.channel.id,
    last_pin_timestamp: scope.channel.last_pin_timestamp,
  });
  scope.emit('CHANNEL_PINS_UPDATE', JSON.stringify(pins));
  return EMPTY_REPLY;
}

/** When a message was pinned (older records without pinned_at fall back to its timestamp). */
function pinnedAt(record: MessageRecord): string {
  return record.pinned_at ?? record.timestamp;
}

/**
 * GET /channels/{id}/pins (messages, newest pin first) and GET /channels/{id}/messages/pins
 * (`{items: [{pinned_at, message}], has_more}`, `before` an ISO time, `limit` 1..50). Empty without
 * READ_MESSAGE_HISTORY.
 */
export async function listPins(scope: ChannelScope, request: ListPins): Promise<ChannelReply> {
  const access = await scope.access(request.caller);
  const query = bodyOf(PinsQuery, request.body);
  const readable = can(access, 'READ_MESSAGE_HISTORY');
  const pinned = readable ? await scope.messages.listPinned(scope.channel.id) : [];
  scope.pinCount = readable ? pinned.length : scope.pinCount;
  if (query.paginated !== true) return jsonReply(JSON.stringify(await scope.render(pinned, access.userId)));
  const beforeMs = query.before === undefined ? Infinity : Date.parse(query.before);
  const limit = clampLimit(query.limit ?? 0, PINS_PAGE_LIMIT, PINS_PAGE_LIMIT);
  const older = pinned.filter((record) => Date.parse(pinnedAt(record)) < beforeMs);
  const page = older.slice(0, limit);
  const messages = await scope.render(page, access.userId);
  const items = page.map((record, index) => ({ pinned_at: pinnedAt(record), message: messages[index] }));
  return jsonReply(JSON.stringify({ items, has_more: older.length > page.length }));
}

/** POST /channels/{id}/typing: SEND_MESSAGES; TYPING_START to whoever may see the channel. */
export async function typing(scope: ChannelScope, request: Typing): Promise<ChannelReply> {
  const access = await scope.access(request.caller);
  requirePermission(access, 'SEND_MESSAGES');
  const data = JSON.stringify(
    withGuildId(scope.channel, {
      channel_id: scope.channel.id,
      user_id: access.userId,
      timestamp: Math.floor(scope.ctx.clock.now() / 1000),
    }),
  );
  scope.emit('TYPING_START', access.memberJson === '' ? data : withJsonFields(data, { member: access.memberJson }));
  return EMPTY_REPLY;
}

/**
 * POST /channels/{id}/messages/{message_id}/ack → `{token: null}`. The user's User actor owns read
 * states: it stores this one and tells the user's sessions MESSAGE_ACK (a tell: a User may ask a DM's
 * Channel, so a Channel never waits on a User).
 */
export async function acknowledge(scope: ChannelScope, request: Acknowledge): Promise<ChannelReply> {
  const caller = requireCaller(request.caller);
  await scope.access(caller);
  const body = bodyOf(AcknowledgeBody, request.body);
  const messageId = body.message_id ?? scope.channel.last_message_id;
  if (messageId) {
    const ack = {
      channelId: scope.channel.id,
      messageId,
      // The proto field is a uint32; a client's count beyond that means "many" all the same.
      mentionCount: Math.min(Math.max(0, body.mention_count ?? 0), 0xffff_ffff),
      manual: body.manual === true,
    };
    scope.ctx.tell('user', caller.userId, { command: { $case: 'ackReadState', ackReadState: ack } });
  }
  return jsonReply('{"token":null}');
}
