import { UnknownEntityError } from '../../src/domain/errors.js';
import { parseJsonObject } from '../../src/domain/jsonValue.js';
import { Permission } from '../../src/domain/permissions.js';
import type { MessageEditBody } from '../../src/contract/message.js';
import type { MessageRecord } from '../runtime/ports/records.js';
import { DM_PERMISSIONS, type Access } from './channelAccess.js';
import { messageEventJson, tellUser, withGuildId } from './channelEvents.js';
import type { ChannelScope } from './ChannelScope.js';
import type { LiveInteraction } from './InteractionRegistry.js';
import { clientFlags, storeMessage, type CreateBody } from './messageCreate.js';
import { deleteMessage, editMessage } from './messageCommands.js';
import { forUpdateEvent, messageJson } from './messageJson.js';
import type { PublicUser } from './publicUser.js';

/** Message flags of responses: EPHEMERAL (only the invoker sees it) and LOADING (a deferred response). */
export const ResponseFlag = { Ephemeral: 1 << 6, Loading: 1 << 7 } as const;

/** The original response, as the webhook routes name it. */
export const ORIGINAL = '@original';

/**
 * What the application may do in its responses: what a webhook may (they are webhook messages on
 * Discord, whatever the bot's own permissions in the channel).
 */
export function responderAccess(live: LiveInteraction): Access {
  const permissions = DM_PERMISSIONS | Permission.MENTION_EVERYONE;
  return { userId: live.botUserId, permissions, member: false, memberJson: '' };
}

async function botAuthor(scope: ChannelScope, live: LiveInteraction): Promise<PublicUser> {
  await scope.loadUsers([live.botUserId]);
  return { ...scope.users.get(live.botUserId), bot: true };
}

const render = (scope: ChannelScope, record: MessageRecord): Record<string, unknown> =>
  messageJson(record, { userOf: (id) => scope.users.get(id) });

/** Sends an ephemeral message's event to the invoker's sessions only. */
function tellEphemeral(scope: ChannelScope, live: LiveInteraction, event: string, data: string): void {
  tellUser(scope.ctx, live.invokerId, { event, dataJson: data, intent: 0 });
}

/**
 * A message answering the interaction (a response, a deferred "thinking" one, or a followup): by the
 * bot, with `webhook_id` = application id, `application_id` and `interaction_metadata`. An ephemeral
 * one (flags 64) is kept in memory and reaches the invoker's sessions only; any other is stored and
 * dispatched as every message. Returns the message object.
 */
export async function sendResponse(
  scope: ChannelScope,
  live: LiveInteraction,
  body: CreateBody,
  deferred: boolean,
): Promise<Record<string, unknown>> {
  const ephemeral = ((body.flags ?? 0) & ResponseFlag.Ephemeral) !== 0;
  const flags =
    clientFlags(body.flags) | (ephemeral ? ResponseFlag.Ephemeral : 0) | (deferred ? ResponseFlag.Loading : 0);
  const author = await botAuthor(scope, live);
  const shape = (record: MessageRecord): void => {
    record.type = live.responseType;
    record.flags = flags;
    record.application_id = live.applicationId;
    record.interaction_metadata = live.metadata;
  };
  const message = { ...body };
  delete message.nonce;
  delete message.message_reference;
  if (!ephemeral) {
    const { json } = await storeMessage(scope, responderAccess(live), message, {
      id: live.botUserId,
      nonce: null,
      webhookId: live.applicationId,
      load: [],
      snapshot: () => ({ user: author, json: JSON.stringify(author) }),
      interaction: { allowEmpty: deferred, shape },
    });
    return parseJsonObject(json);
  }
  const record: MessageRecord = {
    id: scope.ctx.ids.next(),
    channel_id: scope.channel.id,
    guild_id: scope.channel.guild_id,
    author_id: live.botUserId,
    type: 0,
    content: message.content ?? '',
    tts: false,
    mention_everyone: false,
    mention_ids: [],
    mention_role_ids: [],
    embeds: (message.embeds ?? []).map((embed) => ({ type: 'rich', ...embed })),
    attachments: [],
    components: message.components ?? [],
    sticker_ids: [],
    nonce: null,
    pinned: false,
    flags: 0,
    message_reference: null,
    edited_timestamp: null,
    timestamp: new Date(scope.ctx.clock.now()).toISOString(),
    webhook_id: live.applicationId,
    author_json: JSON.stringify(author),
  };
  shape(record);
  scope.interactions.addEphemeral(live, record);
  const json = render(scope, record);
  tellEphemeral(scope, live, 'MESSAGE_CREATE', messageEventJson(scope.channel, JSON.stringify(json), ''));
  return json;
}

/** An ephemeral message this interaction's invoker was shown by its application, if `id` is one. */
function ephemeralOf(scope: ChannelScope, live: LiveInteraction, id: string): MessageRecord | undefined {
  return scope.interactions.ephemeral(id, live.invokerId, live.applicationId, scope.ctx.clock.now());
}

/** The id `messageId` names for this interaction (`@original`: its response; 404 10008 before one). */
function idOf(live: LiveInteraction, messageId: string): string {
  const id = messageId === ORIGINAL ? live.originalMessageId : messageId;
  if (id === null) throw new UnknownEntityError('message');
  return id;
}

/** A stored message this interaction's application sent here; 404 10008 for any other. */
async function ownMessage(scope: ChannelScope, live: LiveInteraction, id: string): Promise<MessageRecord> {
  const record = await scope.message(id);
  if (record.application_id !== live.applicationId && record.author_id !== live.botUserId) {
    throw new UnknownEntityError('message');
  }
  return record;
}

/** GET /webhooks/{app}/{token}/messages/{id|@original}. */
export async function getResponse(
  scope: ChannelScope,
  live: LiveInteraction,
  messageId: string,
): Promise<Record<string, unknown>> {
  const id = idOf(live, messageId);
  const ephemeral = ephemeralOf(scope, live, id);
  if (ephemeral) return render(scope, ephemeral);
  const [json = {}] = await scope.render([await ownMessage(scope, live, id)], live.botUserId);
  return json;
}

/**
 * PATCH /webhooks/{app}/{token}/messages/{id|@original}: as an edit by the bot (MESSAGE_UPDATE); a
 * deferred response stops loading. An ephemeral one changes in memory and is told to the invoker only.
 */
export async function editResponse(
  scope: ChannelScope,
  live: LiveInteraction,
  messageId: string,
  body: MessageEditBody,
): Promise<Record<string, unknown>> {
  const id = idOf(live, messageId);
  const ephemeral = ephemeralOf(scope, live, id);
  if (!ephemeral) {
    const record = await ownMessage(scope, live, id);
    if ((record.flags & ResponseFlag.Loading) !== 0) {
      record.flags &= ~ResponseFlag.Loading;
      await scope.messages.update(record);
    }
    const target = { caller: undefined, messageId: id, body: JSON.stringify(body) };
    const reply = await editMessage(scope, target, responderAccess(live));
    return reply.reply?.$case === 'json' ? parseJsonObject(reply.reply.json.json) : {};
  }
  if (body.content !== undefined) ephemeral.content = body.content;
  if (body.embeds !== undefined) ephemeral.embeds = body.embeds.map((embed) => ({ type: 'rich', ...embed }));
  if (body.components !== undefined) ephemeral.components = body.components;
  ephemeral.flags &= ~ResponseFlag.Loading;
  ephemeral.edited_timestamp = new Date(scope.ctx.clock.now()).toISOString();
  const json = render(scope, ephemeral);
  const event = messageEventJson(scope.channel, JSON.stringify(forUpdateEvent(json)), '');
  tellEphemeral(scope, live, 'MESSAGE_UPDATE', event);
  return json;
}

/** DELETE /webhooks/{app}/{token}/messages/{id|@original}: as a delete by the bot (MESSAGE_DELETE). */
export async function deleteResponse(scope: ChannelScope, live: LiveInteraction, messageId: string): Promise<void> {
  const id = idOf(live, messageId);
  if (ephemeralOf(scope, live, id) !== undefined && scope.interactions.dropEphemeral(id)) {
    const data = withGuildId(scope.channel, { id, channel_id: scope.channel.id });
    tellEphemeral(scope, live, 'MESSAGE_DELETE', JSON.stringify(data));
    return;
  }
  await ownMessage(scope, live, id);
  await deleteMessage(scope, { caller: undefined, messageId: id, body: '' }, responderAccess(live));
}

/**
 * POST /webhooks/{app}/{token}: a followup. The first one after a deferred response replaces its
 * "thinking" message (as on Discord); any other is a new message.
 */
export async function sendFollowup(
  scope: ChannelScope,
  live: LiveInteraction,
  body: CreateBody,
): Promise<Record<string, unknown>> {
  if (!live.acknowledged) throw new UnknownEntityError('webhook');
  const originalId = live.originalMessageId;
  if (originalId !== null) {
    const original = ephemeralOf(scope, live, originalId) ?? (await scope.messages.get(scope.channel.id, originalId));
    if (original && (original.flags & ResponseFlag.Loading) !== 0) return editResponse(scope, live, originalId, body);
  }
  return sendResponse(scope, live, body, false);
}
