import { randomBytes } from 'node:crypto';

import type { ChannelReply, WebhookRequest } from '../../proto/gen/chorus/v1/channel.js';
import { BadRequestError, ValidationError } from '../../src/domain/errors.js';
import type { WebhookRecord } from '../runtime/ports/records.js';
import { EMPTY_REPLY, jsonReply, type ChannelScope } from './ChannelScope.js';
import { withGuildId } from './channelEvents.js';
import { authorizedWebhook, hasCaller, manageAccess } from './webhookAccess.js';
import { parseJson } from '../../src/domain/jsonValue.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { WebhookCreateSchema, WebhookModifySchema } from '../../src/contract/index.js';

/** Discord's limit of webhooks per channel (30007 past it). */
export const MAX_WEBHOOKS_PER_CHANNEL = 15;
/** 51 random bytes are 68 base64url characters. */
const TOKEN_BYTES = 51;

/** A new webhook token: 68 random url-safe characters. */
export function newWebhookToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** A webhook name (or a sender's username override): 1-80 characters, naming neither Clyde nor Discord. */
export function validWebhookName(name: unknown, field = 'name'): string {
  if (typeof name !== 'string' || name.trim().length < 1 || name.length > 80) {
    throw ValidationError.field(field, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 80 in length.');
  }
  const lower = name.toLowerCase();
  for (const word of ['clyde', 'discord']) {
    if (lower.includes(word)) {
      throw ValidationError.field(field, 'WEBHOOK_NAME_INVALID', `Webhook names cannot contain "${word}".`);
    }
  }
  return name;
}

/** The Discord webhook object; `token` for those who may manage it (or hold it), `user` unless asked by token. */
export function webhookJson(webhook: WebhookRecord, view: { token: boolean; user: boolean }): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: webhook.id,
    type: 1,
    guild_id: webhook.guild_id,
    channel_id: webhook.channel_id,
    name: webhook.name,
    avatar: webhook.avatar,
    application_id: null,
  };
  if (view.user) json['user'] = parseJson(webhook.creator_json);
  if (view.token) json['token'] = webhook.token;
  return json;
}

/** WEBHOOKS_UPDATE to the guild's sessions with GUILD_WEBHOOKS (Discord sends only the ids). */
function webhooksUpdated(scope: ChannelScope): void {
  scope.emit('WEBHOOKS_UPDATE', JSON.stringify(withGuildId(scope.channel, { channel_id: scope.channel.id })));
}

/** POST /channels/{id}/webhooks: MANAGE_WEBHOOKS; at most 15 per channel (30007). */
export async function createWebhook(scope: ChannelScope, request: WebhookRequest): Promise<ChannelReply> {
  const access = await manageAccess(scope, request);
  const body = bodyOf(WebhookCreateSchema, request.body);
  const name = validWebhookName(body.name);
  const existing = await scope.stores.webhooks.listByChannel(scope.channel.id);
  if (existing.length >= MAX_WEBHOOKS_PER_CHANNEL) {
    throw new BadRequestError(`Maximum number of webhooks reached (${MAX_WEBHOOKS_PER_CHANNEL})`, 30_007);
  }
  if (access.memberJson === '') await scope.loadUsers([access.userId]);
  const creator = scope.authors.resolve(access.userId, access.memberJson, () => scope.users.get(access.userId));
  const webhook: WebhookRecord = {
    id: scope.ctx.ids.next(),
    guild_id: scope.channel.guild_id,
    channel_id: scope.channel.id,
    creator_id: access.userId,
    creator_json: creator.json,
    name,
    // Avatar images are not stored yet: a webhook shows the default avatar.
    avatar: null,
    token: newWebhookToken(),
  };
  await scope.stores.webhooks.create(webhook);
  webhooksUpdated(scope);
  return jsonReply(JSON.stringify(webhookJson(webhook, { token: true, user: true })));
}

/** GET /channels/{id}/webhooks (and, per channel, GET /guilds/{id}/webhooks): MANAGE_WEBHOOKS. */
export async function listWebhooks(scope: ChannelScope, request: WebhookRequest): Promise<ChannelReply> {
  await manageAccess(scope, request);
  const webhooks = await scope.stores.webhooks.listByChannel(scope.channel.id);
  return jsonReply(JSON.stringify(webhooks.map((webhook) => webhookJson(webhook, { token: true, user: true }))));
}

/** GET /webhooks/{id}[/{token}]. */
export async function getWebhook(scope: ChannelScope, request: WebhookRequest): Promise<ChannelReply> {
  const webhook = await authorizedWebhook(scope, request);
  return jsonReply(JSON.stringify(webhookJson(webhook, { token: true, user: hasCaller(request) })));
}

/** PATCH /webhooks/{id}[/{token}]: name and avatar (moving to another channel is not supported). */
export async function updateWebhook(scope: ChannelScope, request: WebhookRequest): Promise<ChannelReply> {
  const webhook = await authorizedWebhook(scope, request);
  const body = bodyOf(WebhookModifySchema, request.body);
  if (body.channel_id !== undefined && body.channel_id !== null && body.channel_id !== scope.channel.id) {
    throw ValidationError.field('channel_id', 'CHANNEL_MOVE_UNSUPPORTED', 'Webhooks cannot move to another channel.');
  }
  if (body.name !== undefined) webhook.name = validWebhookName(body.name);
  if (body.avatar === null) webhook.avatar = null;
  await scope.stores.webhooks.update(webhook);
  webhooksUpdated(scope);
  return jsonReply(JSON.stringify(webhookJson(webhook, { token: true, user: hasCaller(request) })));
}

/** DELETE /webhooks/{id}[/{token}]. */
export async function deleteWebhook(scope: ChannelScope, request: WebhookRequest): Promise<ChannelReply> {
  const webhook = await authorizedWebhook(scope, request);
  await scope.stores.webhooks.delete(webhook.id);
  webhooksUpdated(scope);
  return EMPTY_REPLY;
}
