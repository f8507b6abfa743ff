import type { ChannelReply, MessageTarget } from '../../proto/gen/chorus/v1/channel.js';
import { BadRequestError } from '../../src/domain/errors.js';
import { requirePermission } from './channelAccess.js';
import { jsonReply, type ChannelScope } from './ChannelScope.js';
import { eventJson } from './messageCreate.js';
import { forUpdateEvent } from './messageJson.js';

/** GUILD_ANNOUNCEMENT: the one channel type whose messages are published to following channels. */
const ANNOUNCEMENT_CHANNEL = 5;
/** Message flag CROSSPOSTED: published to the channels that follow this one. */
const CROSSPOSTED = 1 << 0;

/**
 * POST /channels/{id}/messages/{message_id}/crosspost: publishes a message of an announcement channel (50024
 * elsewhere), once (40033): its author needs SEND_MESSAGES, anyone else
 * MANAGE_MESSAGES. Marks it CROSSPOSTED, tells viewers with MESSAGE_UPDATE and answers the message. Chorus has no
 * channel following yet, so the message reaches no other channel, as on Discord for a channel nobody follows.
 */
export async function crosspost(scope: ChannelScope, request: MessageTarget): Promise<ChannelReply> {
  const access = await scope.access(request.caller);
  const record = await scope.message(request.messageId);
  requirePermission(access, record.author_id === access.userId ? 'SEND_MESSAGES' : 'MANAGE_MESSAGES');
  if (scope.channel.type !== ANNOUNCEMENT_CHANNEL) {
    throw new BadRequestError('Cannot execute action on this channel type', 50_024);
  }
  if ((record.flags & CROSSPOSTED) !== 0) {
    throw new BadRequestError('This message has already been crossposted.', 40_033);
  }
  record.flags |= CROSSPOSTED;
  await scope.messages.update(record);
  const [rendered] = await scope.render([record], access.userId);
  scope.emit('MESSAGE_UPDATE', eventJson(scope, JSON.stringify(forUpdateEvent(rendered)), access));
  return jsonReply(JSON.stringify(rendered));
}
